/* hr-detect-helper.c — NVML in a process of its own, stopped in time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libnvidia-ml.so.1 is vendor code run with the user's rights.  Loaded
 * into Headroom's process, a crash in nvmlInit takes the window or the
 * command with it, and a library whose constructor blocks never lets
 * dlopen() return — it holds the dynamic loader's lock, so that even
 * exit() waits for it and the process outlives its window.  Neither can
 * be survived in-process, so the library is loaded by
 * headroom-detect-helper, which prints what NVML found (hr-detect-wire.c)
 * and exits.  Here the worker thread of detection starts it and waits,
 * in a main context of its own, for its answer and its exit — never
 * longer than the limit, nor after the caller cancels: then the helper is
 * killed.  It also dies with the thread that started it
 * (PR_SET_PDEATHSIG), and by its own alarm should that fail.
 *
 * Whatever goes wrong becomes one note, “GPU detection failed: …”, kept
 * apart too (hr_system_info_get_gpu_failure()), and the GPUs sysfs found
 * stay.
 */

#define G_LOG_DOMAIN "hr-detect"

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/prctl.h>

#include "hr-detect-private.h"

/**
 * hr_detect_helper_path:
 *
 * $HEADROOM_DETECT_HELPER, else the helper installed in libexecdir.
 */
char *
hr_detect_helper_path (void)
{
  const char *path = g_getenv (HR_DETECT_HELPER_ENV);

  if (path != NULL && path[0] != '\0')
    return g_strdup (path);
  return g_build_filename (LIBEXECDIR, HR_DETECT_HELPER_NAME, NULL);
}

/* In the child between fork and exec: async-signal-safe calls only. */
static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

typedef struct
{
  char *buffer;                /* HR_DETECT_HELPER_MAX_OUTPUT + 1 bytes */
  gsize length;
  gboolean read_done;
  gboolean wait_done;
  gboolean exited;             /* wait_done, and the helper has ended */
  gboolean timed_out;
  gint cancelled;              /* atomic: set from the caller's thread */
  gboolean grace_over;
  GMainContext *context;       /* the loop below, woken when cancelled */
} Run;

static void
on_read (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  Run *run = data;

  g_input_stream_read_all_finish (G_INPUT_STREAM (source), result, &run->length, NULL);
  run->read_done = TRUE;
}

static void
on_ended (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  Run *run = data;

  run->exited = g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  run->wait_done = TRUE;
}

static gboolean
on_timeout (gpointer data)
{
  ((Run *) data)->timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
on_grace_over (gpointer data)
{
  ((Run *) data)->grace_over = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs in the thread that cancels (the window's): a flag and a wake-up,
 * not a GCancellableSource — GLib 2.74 can leak such a source when it is
 * cancelled from another thread while this one destroys it (seen by
 * LeakSanitizer as a lone 120-byte GSource after a window closed during
 * detection). */
static void
on_cancelled (GCancellable *cancellable,
              gpointer      data)
{
  Run *run = data;

  g_atomic_int_set (&run->cancelled, 1);
  g_main_context_wakeup (run->context);
}

static GSource *
attach (GSource      *source,
        GSourceFunc   func,
        gpointer      data,
        GMainContext *context)
{
  g_source_set_callback (source, func, data, NULL);
  g_source_attach (source, context);
  return source;
}

static void
fail (HrDetectFindings *findings,
      const char       *format,
      ...) G_GNUC_PRINTF (2, 3);

static void
fail (HrDetectFindings *findings,
      const char       *format,
      ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  g_free (findings->gpu_failure);
  findings->gpu_failure = g_strdup_printf ("GPU detection failed: %s", reason);
  hr_detect_note (findings, "%s", findings->gpu_failure);
}

/* What the helper's end says, once it has ended. */
static void
judge (GSubprocess      *process,
       Run              *run,
       const char       *shown,
       guint             timeout_ms,
       HrDetectFindings *findings)
{
  g_autoptr(GError) error = NULL;
  HrDetectFindings answer;
  guint first = findings->gpus->len;

  if (g_atomic_int_get (&run->cancelled))
    {
      fail (findings, "cancelled while %s was loading", shown);
      return;
    }
  if (run->timed_out)
    {
      fail (findings, "%s did not answer within %g s and was stopped", shown,
            timeout_ms / 1000.0);
      return;
    }
  if (run->length > HR_DETECT_HELPER_MAX_OUTPUT)
    {
      fail (findings, "the answer about %s is larger than %d KiB", shown,
            HR_DETECT_HELPER_MAX_OUTPUT / 1024);
      return;
    }
  if (!run->exited)
    {
      fail (findings, "%s did not end", shown);
      return;
    }
  if (g_subprocess_get_if_signaled (process))
    {
      int signal = g_subprocess_get_term_sig (process);

      fail (findings, "%s crashed (signal %d, %s)", shown, signal, g_strsignal (signal));
      return;
    }
  if (g_subprocess_get_exit_status (process) != 0)
    {
      fail (findings, "the helper that loads %s ended with status %d", shown,
            g_subprocess_get_exit_status (process));
      return;
    }

  hr_detect_findings_init (&answer);
  if (!hr_detect_wire_parse (run->buffer, run->length, &answer, &error))
    fail (findings, "the helper that loads %s: %s", shown, error->message);
  else
    {
      for (guint i = 0; i < answer.notes->len; i++)
        hr_detect_note (findings, "%s", (char *) g_ptr_array_index (answer.notes, i));
      for (guint i = 0; i < answer.gpus->len; i++)
        g_ptr_array_add (findings->gpus, hr_gpu_info_copy (g_ptr_array_index (answer.gpus, i)));
      hr_detect_nvml_merge (findings, first);
    }
  hr_detect_findings_clear (&answer);
}

/**
 * hr_detect_nvml_in_helper:
 * @library: libnvidia-ml.so.1, or a path
 * @timeout_ms: how long the helper is given
 * @cancellable: (nullable): kills the helper at once
 *
 * Adds the NVIDIA GPUs NVML reports, in place of the ones sysfs gave
 * (hr_detect_drm() runs first), or the note of what went wrong.  Returns
 * within @timeout_ms and HR_DETECT_NVML_STOP_MS, whatever the library
 * does.
 */
void
hr_detect_nvml_in_helper (const char       *library,
                          guint             timeout_ms,
                          GCancellable     *cancellable,
                          HrDetectFindings *findings)
{
  g_autofree char *helper = hr_detect_helper_path ();
  g_autofree char *base = g_path_get_basename (library);
  g_autofree char *shown = hr_detect_sanitize (base, 120);
  g_autofree char *limit = g_strdup_printf ("%u", timeout_ms);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GCancellable) stop = g_cancellable_new ();
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GError) error = NULL;
  const char *argv[] = { helper, library, limit, NULL };
  GSource *timeout, *grace = NULL;
  gulong cancel_handler = 0;
  Run run = { 0 };

  run.context = context;

  g_main_context_push_thread_default (context);

  /* What the library or a crash report prints is not for the user: the
   * failure is said in one line. */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  if (process == NULL)
    {
      g_main_context_pop_thread_default (context);
      fail (findings, "the helper that loads %s cannot be started: %s", shown, error->message);
      return;
    }

  run.buffer = g_malloc (HR_DETECT_HELPER_MAX_OUTPUT + 1);
  g_input_stream_read_all_async (g_subprocess_get_stdout_pipe (process), run.buffer,
                                 HR_DETECT_HELPER_MAX_OUTPUT + 1, G_PRIORITY_DEFAULT, stop,
                                 on_read, &run);
  g_subprocess_wait_async (process, stop, on_ended, &run);
  timeout = attach (g_timeout_source_new (timeout_ms), on_timeout, &run, context);
  if (cancellable != NULL)
    cancel_handler = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), &run, NULL);

  /* The answer, read whole (or past the limit), and the exit. */
  while (!(run.read_done && run.wait_done) &&
         !(run.read_done && run.length > HR_DETECT_HELPER_MAX_OUTPUT) &&
         !run.timed_out && !g_atomic_int_get (&run.cancelled))
    g_main_context_iteration (context, TRUE);

  if (!run.wait_done)
    {
      /* Killed; a process stuck in the kernel may not die at once: it
       * is given a moment, then left to GLib to reap. */
      g_subprocess_force_exit (process);
      grace = attach (g_timeout_source_new (HR_DETECT_NVML_STOP_MS), on_grace_over, &run,
                      context);
      while (!run.wait_done && !run.grace_over)
        g_main_context_iteration (context, TRUE);
    }
  g_cancellable_cancel (stop);
  while (!(run.read_done && run.wait_done))
    g_main_context_iteration (context, TRUE);

  judge (process, &run, shown, timeout_ms, findings);

  g_source_destroy (timeout);
  g_source_unref (timeout);
  /* waits for a handler running in the cancelling thread */
  if (cancel_handler != 0)
    g_cancellable_disconnect (cancellable, cancel_handler);
  if (grace != NULL)
    {
      g_source_destroy (grace);
      g_source_unref (grace);
    }
  g_free (run.buffer);
  g_main_context_pop_thread_default (context);
}
