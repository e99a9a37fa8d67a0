/* bench-ui.c — start-up, memory and slider-step cost of the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-ui empty     an empty AdwApplicationWindow, the baseline
 *   bench-ui label     the same with one line of text: what any window
 *                      that shows text pays for loading fonts
 *   bench-ui headroom  the Headroom window with every view live
 *
 * BENCH_SHOW_VIEW=matrix (or another view's name) shows that view before
 * the slider steps, so that the step's frame is that view's: by default
 * the steps are measured on the Overview, the view a window opens on.
 *
 * Prints the time from main() to the first painted frame at 1280×800, the
 * peak RSS and the main thread's CPU time at that point, and (headroom) per slider step: the time to update
 * every view, and the next frame's layout + paint.  Run it under Xvfb:
 * tests/bench/run-bench-ui.sh does, and takes medians over several runs.
 */

#define _GNU_SOURCE  /* RUSAGE_THREAD */

#include "config.h"

#include <adwaita.h>
#include <sys/resource.h>

#include "hr-application.h"
#include "hr-window.h"

static gint64 start_us;
static gboolean headroom_mode;
static gboolean label_mode;
static GtkWindow *window;
static GArray *step_us;
static GArray *frame_us;
static gint64 layout_start;
static guint step;

#define N_STEPS 200

static const char * const views[] = {
  "overview", "matrix", "hardware", "model", "commands", "compare",
};

static double
peak_rss_mib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

/* CPU time of the calling thread (the main thread), less sensitive than
 * the wall clock to other processes on a busy machine; -1 where the
 * system cannot tell. */
static double
thread_cpu_ms (void)
{
#ifdef RUSAGE_THREAD
  struct rusage usage;

  getrusage (RUSAGE_THREAD, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
#else
  return -1;
#endif
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_doubles);
  return g_array_index (values, double, values->len / 2);
}

static gint64 first_layout_us;
static gint64 first_paint_us;

static void
on_layout (GdkFrameClock *clock)
{
  layout_start = g_get_monotonic_time ();
  if (first_layout_us == 0)
    first_layout_us = layout_start;
}

static void
on_paint (GdkFrameClock *clock)
{
  if (first_paint_us == 0)
    first_paint_us = g_get_monotonic_time ();
}

static void on_after_paint (GdkFrameClock *clock);

static void
next_step (GdkFrameClock *clock)
{
  HrCalculator *calc = hr_window_get_calculator (HR_WINDOW (window));
  /* sweep the context as a dragged slider does: 1K … 128K */
  guint64 context = 1024 + (guint64) (step % 128) * 1024;
  gint64 t0 = g_get_monotonic_time ();
  double elapsed;

  hr_calculator_set_context (calc, context);
  elapsed = (double) (g_get_monotonic_time () - t0);
  g_array_append_val (step_us, elapsed);
  gtk_widget_queue_draw (GTK_WIDGET (window));
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_LAYOUT);
}

static void
on_after_paint (GdkFrameClock *clock)
{
  static gboolean first = TRUE;

  if (first)
    {
      first = FALSE;
      g_print ("first-frame-ms %.1f\n", (g_get_monotonic_time () - start_us) / 1000.0);
      g_print ("first-layout-at-ms %.1f\n", (first_layout_us - start_us) / 1000.0);
      g_print ("first-paint-at-ms %.1f\n", (first_paint_us - start_us) / 1000.0);
      g_print ("peak-rss-mib %.1f\n", peak_rss_mib ());
      g_print ("main-thread-cpu-ms %.1f\n", thread_cpu_ms ());
      if (!headroom_mode || g_getenv ("BENCH_FIRST_FRAME_ONLY") != NULL)
        {
          gtk_window_destroy (window);
          return;
        }
      /* Open every view once so that all of them follow the slider. */
      for (guint i = 0; i < G_N_ELEMENTS (views); i++)
        if (g_getenv ("BENCH_VIEWS") == NULL || strstr (g_getenv ("BENCH_VIEWS"), views[i]))
          hr_window_get_view (HR_WINDOW (window), views[i]);
      if (g_getenv ("BENCH_SHOW_VIEW") != NULL)
        hr_window_show_view (HR_WINDOW (window), g_getenv ("BENCH_SHOW_VIEW"));
      next_step (clock);
      return;
    }

  if (layout_start > 0)
    {
      double frame = (double) (g_get_monotonic_time () - layout_start);
      g_array_append_val (frame_us, frame);
      layout_start = 0;
    }

  if (++step < N_STEPS)
    {
      next_step (clock);
      return;
    }

  g_print ("slider-step-update-ms %.3f\n", median (step_us) / 1000.0);
  g_print ("slider-step-frame-ms %.3f\n", median (frame_us) / 1000.0);
  g_print ("peak-rss-after-steps-mib %.1f\n", peak_rss_mib ());
  gtk_window_destroy (window);
}

static void
on_map (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);

  g_signal_connect (clock, "layout", G_CALLBACK (on_layout), NULL);
  g_signal_connect (clock, "paint", G_CALLBACK (on_paint), NULL);
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
}

static void
on_activate (GApplication *app)
{
  gint64 t0 = g_get_monotonic_time ();

  if (headroom_mode)
    window = GTK_WINDOW (hr_window_new (GTK_APPLICATION (app)));
  else
    window = GTK_WINDOW (adw_application_window_new (GTK_APPLICATION (app)));
  if (label_mode)
    adw_application_window_set_content (ADW_APPLICATION_WINDOW (window),
                                        gtk_label_new ("Headroom"));
  g_print ("window-new-ms %.1f\n", (g_get_monotonic_time () - t0) / 1000.0);
  g_print ("activate-at-ms %.1f\n", (t0 - start_us) / 1000.0);
  gtk_window_set_default_size (window, 1280, 800);
  g_signal_connect (window, "map", G_CALLBACK (on_map), NULL);
  gtk_window_present (window);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GApplication) app = NULL;

  start_us = g_get_monotonic_time ();
  headroom_mode = argc > 1 && g_str_equal (argv[1], "headroom");
  label_mode = argc > 1 && g_str_equal (argv[1], "label");
  step_us = g_array_new (FALSE, FALSE, sizeof (double));
  frame_us = g_array_new (FALSE, FALSE, sizeof (double));

  if (headroom_mode)
    app = G_APPLICATION (hr_application_new ());
  else
    app = G_APPLICATION (adw_application_new ("io.github.headroom_app.Bench", 0));
  g_application_set_flags (app, G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
  return g_application_run (app, 1, argv);
}
