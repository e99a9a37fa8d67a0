/* test-controls.c — the sidebar's controls behave as a user expects
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The context slider lands on its marks and moves nothing below it; the
 * pickers choose the row the keyboard highlights and show whole names.
 * Run under xvfb-run with GTK_A11Y=none GSK_RENDERER=cairo
 * GSETTINGS_BACKEND=memory G_DEBUG=fatal-criticals.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <math.h>

#include "hr-context-row.h"
#include "hr-window.h"

/* The sidebar's width in the window's default size. */
#define SIDEBAR_WIDTH 360

static gboolean
flag_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
pump (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, flag_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* A window holding @child in a boxed list as wide as the sidebar. */
static GtkWindow *
window_with_row (GtkWidget *child)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  GtkWidget *list = gtk_list_box_new ();

  gtk_widget_add_css_class (list, "boxed-list");
  gtk_widget_set_valign (list, GTK_ALIGN_START);
  gtk_list_box_append (GTK_LIST_BOX (list), child);
  gtk_window_set_child (window, list);
  gtk_window_set_default_size (window, SIDEBAR_WIDTH, 300);
  gtk_window_present (window);
  pump (100);
  return window;
}

/* ------------------------------------------------------- context slider */

/* A click beside the 128K tick lands a few hundredths of log2 off it: the
 * context is the mark's, not 122,368. */
static void
test_context_ticks_snap (void)
{
  HrContextRow *row = g_object_new (HR_TYPE_CONTEXT_ROW, NULL);
  GtkWindow *window = window_with_row (GTK_WIDGET (row));
  GtkRange *scale = hr_context_row_get_scale (row);

  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (scale)), >, 0);

  /* what a click on the 128K tick gave: 122,368 */
  gtk_range_set_value (scale, log2 (122368.0));
  g_assert_cmpuint (hr_context_row_get_context (row), ==, 131072);
  gtk_range_set_value (scale, log2 (131072.0) + 0.02);
  g_assert_cmpuint (hr_context_row_get_context (row), ==, 131072);
  gtk_range_set_value (scale, log2 (8192.0) - 0.03);
  g_assert_cmpuint (hr_context_row_get_context (row), ==, 8192);

  /* the trained maximum is a mark too */
  hr_context_row_set_trained_max (row, 40960);
  gtk_range_set_value (scale, log2 (40960.0) + 0.03);
  g_assert_cmpuint (hr_context_row_get_context (row), ==, 40960);

  /* far from every mark, the slider still moves in steps of 256 */
  gtk_range_set_value (scale, 18.0);
  g_assert_cmpuint (hr_context_row_get_context (row), ==, 262144);
  gtk_range_set_value (scale, 14.3);
  g_assert_cmpuint (hr_context_row_get_context (row) % 256, ==, 0);
  g_assert_cmpuint (hr_context_row_get_context (row), !=, 16384);
  g_assert_cmpuint (hr_context_row_get_context (row), !=, 32768);

  /* the spin button keeps exact values */
  gtk_spin_button_set_value (hr_context_row_get_spin (row), 130000);
  g_assert_cmpuint (hr_context_row_get_context (row), ==, 130000);

  gtk_window_destroy (window);
  pump (20);
}

/* Passing the trained maximum says so without growing the row: the
 * controls below stay where they were. */
static void
test_context_warning_keeps_height (void)
{
  HrContextRow *row = g_object_new (HR_TYPE_CONTEXT_ROW, NULL);
  GtkWindow *window;
  int before, after;

  hr_context_row_set_trained_max (row, 32768);
  hr_context_row_set_context (row, 32768);
  window = window_with_row (GTK_WIDGET (row));
  before = gtk_widget_get_height (GTK_WIDGET (row));
  g_assert_cmpint (before, >, 0);

  hr_context_row_set_context (row, 131072);
  pump (100);
  after = gtk_widget_get_height (GTK_WIDGET (row));
  g_assert_cmpint (after, ==, before);

  /* and the warning is there, in words */
  {
    gboolean found = FALSE;

    for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (row)); w != NULL;
         w = gtk_widget_get_first_child (w))
      for (GtkWidget *c = w; c != NULL; c = gtk_widget_get_next_sibling (c))
        if (GTK_IS_LABEL (c) && gtk_widget_has_css_class (c, "warning") &&
            strstr (gtk_label_get_label (GTK_LABEL (c)), "32,768") != NULL)
          found = TRUE;
    g_assert_true (found);
  }

  hr_context_row_set_context (row, 8192);
  pump (100);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (row)), ==, before);

  gtk_window_destroy (window);
  pump (20);
}

static void
on_activate (GApplication *app)
{
  /* tests run from main, once the app is registered */
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = NULL;
  g_autofree char *home = g_dir_make_tmp ("headroom-home-XXXXXX", NULL);
  int status;

  /* Only the built-in catalog: a developer's own files must not count. */
  g_setenv ("XDG_DATA_HOME", home, TRUE);

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  app = hr_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
  g_application_register (G_APPLICATION (app), NULL, NULL);
  g_object_set_data (G_OBJECT (app), "app", app);

  g_test_add_func ("/controls/context-ticks-snap", test_context_ticks_snap);
  g_test_add_func ("/controls/context-warning-keeps-height",
                   test_context_warning_keeps_height);

  status = g_test_run ();
  g_rmdir (home);
  return status;
}
