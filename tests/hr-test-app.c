/* hr-test-app.c — the application a widget test runs in, and the waits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "hr-test-app.h"

static void
on_activate (GApplication *app)
{
  /* tests run from main, once the app is registered */
}

static HrApplication *
new_registered_app (void)
{
  HrApplication *app;

  adw_init ();
  app = hr_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
  g_application_register (G_APPLICATION (app), NULL, NULL);
  g_object_set_data (G_OBJECT (app), "app", app);
  return app;
}

static char *isolated_home;

static gboolean
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  return g_rmdir (path) == 0;
}

static void
remove_isolated_home (void)
{
  remove_tree (isolated_home);
  g_clear_pointer (&isolated_home, g_free);
}

/**
 * hr_test_isolate_home:
 *
 * Gives the test program a home of its own: HOME and the user's XDG
 * directories (data, config, cache, state) are empty folders of a
 * temporary directory, removed at exit, for the CLI a test runs too.  A
 * developer's own files (a models.json in ~/.local/share/headroom, a
 * Hugging Face cache) never count.  Call it first in main(), before
 * anything reads those directories; a test may then point one of them at
 * a fake tree of its own.
 *
 * Not G_TEST_OPTION_ISOLATE_DIRS: GLib 2.74 points XDG_DATA_DIRS into
 * the temporary directory too, where GTK finds no MIME database (its
 * symbolic SVG icons fail to load: a fatal warning), no icon theme and no
 * system schemas.  The core tests, without GTK, use the option.
 */
void
hr_test_isolate_home (void)
{
  static const struct { const char *variable, *folder; } dirs[] = {
    { "XDG_DATA_HOME", "data" },
    { "XDG_CONFIG_HOME", "config" },
    { "XDG_CACHE_HOME", "cache" },
    { "XDG_STATE_HOME", "state" },
  };

  g_assert_null (isolated_home);
  isolated_home = g_dir_make_tmp ("headroom-test-home-XXXXXX", NULL);
  g_assert_nonnull (isolated_home);
  g_setenv ("HOME", isolated_home, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = g_build_filename (isolated_home, dirs[i].folder, NULL);

      g_mkdir (path, 0700);
      g_setenv (dirs[i].variable, path, TRUE);
    }
  atexit (remove_isolated_home);
}

/**
 * hr_test_init_isolated:
 *
 * hr_test_isolate_home(), then gtk_test_init().
 */
void
hr_test_init_isolated (int    *argc,
                       char ***argv)
{
  hr_test_isolate_home ();
  gtk_test_init (argc, argv, NULL);
}

/**
 * hr_test_app_register:
 *
 * gtk_test_init() and adw_init(), then a registered, non-unique
 * HrApplication for the windows under test, the environment left as the
 * test set it (a test with its own fake home).
 *
 * Returns: (transfer full): the application
 */
HrApplication *
hr_test_app_register (int    *argc,
                      char ***argv)
{
  gtk_test_init (argc, argv, NULL);
  return new_registered_app ();
}

/**
 * hr_test_app_init:
 *
 * hr_test_init_isolated(), then a registered, non-unique HrApplication:
 * only the built-in catalog, and the test's files in the program's own
 * directories.
 *
 * Returns: (transfer full): the application
 */
HrApplication *
hr_test_app_init (int    *argc,
                  char ***argv)
{
  hr_test_init_isolated (argc, argv);
  return new_registered_app ();
}

/* ---------------------------------------------------------------- waits */

static void
fail_wait (const char *file,
           int         line,
           const char *func,
           const char *what)
{
  g_autofree char *message =
    g_strdup_printf ("timed out after %d s waiting for %s", HR_TEST_WAIT_SECONDS, what);

  g_assertion_message (G_LOG_DOMAIN, file, line, func, message);
}

static gboolean
deadline_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/**
 * hr_test_wait_until_at:
 *
 * Use hr_test_wait_until().  Runs the main loop (blocking: it wakes for
 * any source, frames and results of worker threads among them) until
 * @condition is true, at most HR_TEST_WAIT_SECONDS.
 */
void
hr_test_wait_until_at (const char      *file,
                       int              line,
                       const char      *func,
                       HrTestCondition  condition,
                       gpointer         data,
                       const char      *what)
{
  gboolean timed_out = FALSE;
  guint deadline;

  if (condition (data))
    return;
  deadline = g_timeout_add_seconds (HR_TEST_WAIT_SECONDS, deadline_cb, &timed_out);
  while (!condition (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (deadline);
  else if (!condition (data))
    fail_wait (file, line, func, what);
}

static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_frame_clock (widget) != NULL;
}

typedef struct
{
  gboolean ticked;   /* the frame begun after the call */
  gboolean painted;  /* …is drawn */
} FrameWait;

static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       data)
{
  ((FrameWait *) data)->ticked = TRUE;
  return G_SOURCE_REMOVE;
}

static void
after_paint_cb (GdkFrameClock *clock,
                FrameWait     *wait)
{
  if (wait->ticked)
    wait->painted = TRUE;
}

static gboolean
is_painted (gpointer data)
{
  return ((FrameWait *) data)->painted;
}

/**
 * hr_test_wait_for_frame_at:
 *
 * Use hr_test_wait_for_frame().  A tick callback asks the frame clock for
 * a frame; the frame's layout and paint phases follow its update phase,
 * and "after-paint" ends it: what was queued before the call is laid out
 * and drawn.
 */
void
hr_test_wait_for_frame_at (const char *file,
                           int         line,
                           const char *func,
                           GtkWidget  *widget)
{
  g_autofree char *mapped = g_strdup_printf ("a %s to be mapped", G_OBJECT_TYPE_NAME (widget));
  g_autofree char *drawn = g_strdup_printf ("a frame of a %s", G_OBJECT_TYPE_NAME (widget));
  FrameWait wait = { FALSE, FALSE };
  GdkFrameClock *clock;
  gulong handler;
  guint tick;

  hr_test_wait_until_at (file, line, func, is_mapped, widget, mapped);
  clock = gtk_widget_get_frame_clock (widget);
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &wait);
  tick = gtk_widget_add_tick_callback (widget, tick_cb, &wait, NULL);
  hr_test_wait_until_at (file, line, func, is_painted, &wait, drawn);
  /* (with non-fatal assertions, a wait that failed returns here) */
  if (!wait.ticked)
    gtk_widget_remove_tick_callback (widget, tick);
  g_signal_handler_disconnect (clock, handler);
}

/* At most this many sources are dispatched by one drain: an animation
 * whose frames take longer than the refresh interval (a spinner on a
 * saturated CPU) always has its next frame ready. */
#define DRAIN_MAX_DISPATCHES 1000

/* Dispatches what is ready, without blocking. */
static void
drain (void)
{
  for (guint i = 0; i < DRAIN_MAX_DISPATCHES && g_main_context_pending (NULL); i++)
    g_main_context_iteration (NULL, FALSE);
}

/**
 * hr_test_wait_idle_at:
 *
 * Use hr_test_wait_idle().  Dispatches every ready source (idles,
 * signals, results), waits for a frame of every window shown (each fails
 * the test after HR_TEST_WAIT_SECONDS), and dispatches what those frames
 * made ready.
 */
void
hr_test_wait_idle_at (const char *file,
                      int         line,
                      const char *func)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  drain ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (gtk_widget_get_mapped (window))
        hr_test_wait_for_frame_at (file, line, func, window);
    }
  drain ();
}

/**
 * hr_test_iterate:
 *
 * Dispatches what the main loop has ready (redraws, idles, signals),
 * without waiting for frames or threads: hr_test_wait_idle() for those.
 */
void
hr_test_iterate (void)
{
  drain ();
}

static void
emitted_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
}

static gboolean
is_true (gpointer flag)
{
  return *(gboolean *) flag;
}

/**
 * hr_test_wait_for_signal_at:
 *
 * Use hr_test_wait_for_signal().
 */
void
hr_test_wait_for_signal_at (const char *file,
                            int         line,
                            const char *func,
                            gpointer    instance,
                            const char *signal)
{
  g_autofree char *what = g_strdup_printf ("%s::%s", G_OBJECT_TYPE_NAME (instance), signal);
  gboolean emitted = FALSE;
  gulong handler = g_signal_connect_swapped (instance, signal, G_CALLBACK (emitted_cb), &emitted);

  hr_test_wait_until_at (file, line, func, is_true, &emitted, what);
  g_signal_handler_disconnect (instance, handler);
}
