/* test-narrow.c — the window fits a phone: 360 pixels wide
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under xvfb-run with GTK_A11Y=none, GSK_RENDERER=cairo,
 * GSETTINGS_BACKEND=memory and G_DEBUG=fatal-criticals.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "hr-window.h"

/* GNOME's narrowest supported width (a phone in portrait). */
#define NARROW_WIDTH 360
#define NARROW_HEIGHT 720
#define WIDE_WIDTH 1280
#define WIDE_HEIGHT 800

static const char * const views[] = {
  "overview", "matrix", "hardware", "model", "commands", "compare", "serving",
};

static void
iterate (void)
{
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

/* Names the deepest widgets that ask for more than the narrow width, so
 * that a failure says where to look. */
static void
report_wide (GtkWidget *widget,
             GString   *out,
             int        depth)
{
  int min = 0;
  gboolean wide_child = FALSE;

  if (!gtk_widget_get_visible (widget))
    return;
  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  if (min <= NARROW_WIDTH)
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_min = 0;

      if (!gtk_widget_get_visible (child))
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &child_min, NULL, NULL, NULL);
      if (child_min > NARROW_WIDTH)
        wide_child = TRUE;
    }
  g_string_append_printf (out, "%*s%s %s: %d px %s\n", depth * 2, "",
                          G_OBJECT_TYPE_NAME (widget),
                          gtk_widget_get_name (widget), min,
                          GTK_IS_LABEL (widget) ? gtk_label_get_label (GTK_LABEL (widget)) : "");
  if (wide_child)
    for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
         child = gtk_widget_get_next_sibling (child))
      report_wide (child, out, depth + 1);
}

static GtkWidget *
find_flap (GtkWidget *widget)
{
  if (ADW_IS_FLAP (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_flap (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Every view, shown, leaves the window at most 360 pixels wide. */
static void
test_minimum_width (void)
{
  AdwApplication *app = g_object_get_data (G_OBJECT (g_application_get_default ()), "app");
  HrWindow *window = hr_window_new (HR_APPLICATION (app));

  gtk_window_set_default_size (GTK_WINDOW (window), NARROW_WIDTH, NARROW_HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  iterate ();

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      int min = 0;

      hr_window_get_view (window, views[i]);
      hr_window_show_view (window, views[i]);
      iterate ();
      gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1,
                          &min, NULL, NULL, NULL);
      g_test_message ("%s: %d px", views[i], min);
      if (min > NARROW_WIDTH)
        {
          g_autoptr(GString) out = g_string_new (NULL);

          report_wide (GTK_WIDGET (window), out, 0);
          g_error ("with the %s view the window is at least %d px wide:\n%s",
                   views[i], min, out->str);
        }
    }

  /* the sidebar, folded over the content, fits too */
  {
    GtkWidget *flap = find_flap (GTK_WIDGET (window));
    GtkWidget *sidebar = adw_flap_get_flap (ADW_FLAP (flap));
    int min = 0;

    g_assert_true (adw_flap_get_folded (ADW_FLAP (flap)));
    adw_flap_set_reveal_flap (ADW_FLAP (flap), TRUE);
    iterate ();
    gtk_widget_measure (sidebar, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
    g_test_message ("sidebar: %d px", min);
    if (min > NARROW_WIDTH)
      {
        g_autoptr(GString) out = g_string_new (NULL);

        report_wide (sidebar, out, 0);
        g_error ("the sidebar is at least %d px wide:\n%s", min, out->str);
      }
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The first label shown ellipsized under @widget, if any. */
static GtkLabel *
find_ellipsized (GtkWidget *widget)
{
  if (!gtk_widget_get_visible (widget))
    return NULL;
  if (GTK_IS_LABEL (widget) && gtk_widget_get_width (widget) > 0 &&
      pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (widget))))
    return GTK_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found = find_ellipsized (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Wide, the sidebar has its natural width: neither its phone-sized
 * minimum nor half the window. */
static void
test_wide_sidebar (void)
{
  AdwApplication *app = g_object_get_data (G_OBJECT (g_application_get_default ()), "app");
  HrWindow *window = hr_window_new (HR_APPLICATION (app));
  GtkWidget *flap;
  GtkWidget *sidebar;
  int nat = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), WIDE_WIDTH, WIDE_HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  iterate ();
  flap = find_flap (GTK_WIDGET (window));
  sidebar = adw_flap_get_flap (ADW_FLAP (flap));

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      hr_window_get_view (window, views[i]);
      hr_window_show_view (window, views[i]);
      iterate ();
      g_assert_false (adw_flap_get_folded (ADW_FLAP (flap)));
      gtk_widget_measure (sidebar, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &nat, NULL, NULL);
      g_test_message ("%s: sidebar %d px of %d", views[i], gtk_widget_get_width (sidebar), nat);
      g_assert_cmpint (gtk_widget_get_width (sidebar), ==, nat);
    }

  /* no combo row's value is cut to "Au…" beside its subtitle */
  {
    GtkLabel *cut = find_ellipsized (sidebar);

    if (cut != NULL)
      g_error ("the sidebar ellipsizes “%s”", gtk_label_get_label (cut));
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
on_activate (GApplication *app)
{
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = NULL;
  g_autofree char *home = g_dir_make_tmp ("headroom-home-XXXXXX", NULL);
  int status;

  g_setenv ("XDG_DATA_HOME", home, TRUE);

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  app = hr_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
  g_application_register (G_APPLICATION (app), NULL, NULL);
  g_object_set_data (G_OBJECT (app), "app", app);

  g_test_add_func ("/narrow/minimum-width", test_minimum_width);
  g_test_add_func ("/narrow/wide-sidebar", test_wide_sidebar);

  status = g_test_run ();
  g_rmdir (home);
  return status;
}
