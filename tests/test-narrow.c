/* test-narrow.c — the window fits a phone: 360 pixels wide
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under xvfb-run with GTK_A11Y=none, GSK_RENDERER=cairo,
 * GSETTINGS_BACKEND=memory and G_DEBUG=fatal-criticals.
 */

#include "config.h"

#include <adwaita.h>

#include "hr-window.h"
#include "hr-test-app.h"

/* GNOME's narrowest supported width (a phone in portrait). */
#define NARROW_WIDTH 360
#define NARROW_HEIGHT 720
/* Widgets wider than this are named on failure: the window adds its frame
 * to its content. */
#define REPORT_WIDTH (NARROW_WIDTH - 40)
#define MIDDLE_WIDTH 520
#define WIDE_WIDTH 1280
#define WIDE_HEIGHT 800

static const char * const views[] = {
  "overview", "matrix", "hardware", "model", "commands", "compare", "serving", "recommend",
};

/* The default estimate, and the two impossible ones whose one fix is a
 * button beside the reason. */
enum {
  STATE_DEFAULT,
  STATE_VLLM,
  STATE_NO_FLASH,
  STATE_VLLM_GGUF,
  N_STATES
};

static const char * const state_names[N_STATES] = {
  "the default", "vLLM on two GPUs", "a quantized V cache without flash attention",
  "vLLM with a GGUF",
};

static void
set_state (HrCalculator *calc,
           guint         state)
{
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  HrEngineOptions options = *hr_calculator_get_engine_options (calc);

  options.flash_attn = state == STATE_NO_FLASH ? HR_FLASH_ATTN_OFF : HR_FLASH_ATTN_DEFAULT;
  hr_calculator_freeze (calc);
  hr_calculator_set_engine (calc, state == STATE_NO_FLASH ? HR_ENGINE_LLAMACPP
                                  : state == STATE_VLLM_GGUF || state == STATE_VLLM
                                  ? HR_ENGINE_VLLM : HR_ENGINE_AUTO);
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, state == STATE_VLLM
                                                                         ? "fp16" : "q4_k_m"));
  hr_calculator_set_gpu_count (calc, state == STATE_VLLM ? 2 : 1);
  hr_calculator_set_kv_type (calc, hr_catalog_find_kv_type (catalog, state == STATE_NO_FLASH
                                                                     ? "q8_0" : "fp16"));
  hr_calculator_set_engine_options (calc, &options);
  hr_calculator_thaw (calc);
  g_assert_true (hr_calculator_get_valid (calc) ==
                 (state == STATE_DEFAULT || state == STATE_VLLM));
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
  if (min <= REPORT_WIDTH)
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_min = 0;

      if (!gtk_widget_get_visible (child))
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &child_min, NULL, NULL, NULL);
      if (child_min > REPORT_WIDTH)
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

/* The first widget of @type under @widget (itself included), or NULL. */
static GtkWidget *
find_type (GtkWidget *widget,
           GType      type)
{
  if (g_type_is_a (G_OBJECT_TYPE (widget), type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_type (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_flap (GtkWidget *widget)
{
  return find_type (widget, ADW_TYPE_FLAP);
}

/* Every view, shown, leaves the window at most 360 pixels wide. */
static void
test_minimum_width (void)
{
  AdwApplication *app = g_object_get_data (G_OBJECT (g_application_get_default ()), "app");
  HrWindow *window = hr_window_new (GTK_APPLICATION (app));

  gtk_window_set_default_size (GTK_WINDOW (window), NARROW_WIDTH, NARROW_HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_iterate ();

  for (guint state = 0; state < N_STATES; state++)
    {
      set_state (hr_window_get_calculator (window), state);
      for (guint i = 0; i < G_N_ELEMENTS (views); i++)
        {
          int min = 0;

          hr_window_get_view (window, views[i]);
          hr_window_show_view (window, views[i]);
          hr_test_iterate ();
          gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1,
                              &min, NULL, NULL, NULL);
          g_test_message ("%s, %s: %d px", state_names[state], views[i], min);
          if (min > NARROW_WIDTH)
            {
              g_autoptr(GString) out = g_string_new (NULL);

              report_wide (GTK_WIDGET (window), out, 0);
              g_error ("%s, with the %s view the window is at least %d px wide:\n%s",
                       state_names[state], views[i], min, out->str);
            }
        }
    }
  set_state (hr_window_get_calculator (window), STATE_DEFAULT);

  /* the sidebar, folded over the content, fits too */
  {
    GtkWidget *flap = find_flap (GTK_WIDGET (window));
    GtkWidget *sidebar = adw_flap_get_flap (ADW_FLAP (flap));
    int min = 0;

    g_assert_true (adw_flap_get_folded (ADW_FLAP (flap)));
    adw_flap_set_reveal_flap (ADW_FLAP (flap), TRUE);
    hr_test_iterate ();
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
  HrWindow *window = hr_window_new (GTK_APPLICATION (app));
  GtkWidget *flap;
  GtkWidget *sidebar;
  int nat = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), WIDE_WIDTH, WIDE_HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_iterate ();
  flap = find_flap (GTK_WIDGET (window));
  sidebar = adw_flap_get_flap (ADW_FLAP (flap));

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      hr_window_get_view (window, views[i]);
      hr_window_show_view (window, views[i]);
      hr_test_iterate ();
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

/* The views' switcher: in the header bar when it fits, else the title
 * there and the same buttons in a bar at the bottom. */
static void
test_switcher (void)
{
  AdwApplication *app = g_object_get_data (G_OBJECT (g_application_get_default ()), "app");
  const int widths[] = { WIDE_WIDTH, MIDDLE_WIDTH, NARROW_WIDTH };
  const gboolean bar_expected[] = { FALSE, TRUE, TRUE };

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      HrWindow *window = hr_window_new (GTK_APPLICATION (app));
      GtkWidget *squeezer, *bar, *header_switcher;

      gtk_window_set_default_size (GTK_WINDOW (window), widths[i], NARROW_HEIGHT);
      gtk_window_present (GTK_WINDOW (window));
      hr_test_iterate ();
      squeezer = find_type (GTK_WIDGET (window), ADW_TYPE_SQUEEZER);
      bar = find_type (GTK_WIDGET (window), ADW_TYPE_VIEW_SWITCHER_BAR);
      header_switcher = find_type (squeezer, ADW_TYPE_VIEW_SWITCHER);
      g_assert_nonnull (bar);
      g_assert_nonnull (header_switcher);

      g_test_message ("%d px: the bar is %s", widths[i],
                      adw_view_switcher_bar_get_reveal (ADW_VIEW_SWITCHER_BAR (bar)) ? "shown" : "hidden");
      g_assert_cmpint (adw_view_switcher_bar_get_reveal (ADW_VIEW_SWITCHER_BAR (bar)), ==,
                       bar_expected[i]);
      /* one of the two switchers shows, never both nor none */
      g_assert_cmpint (adw_squeezer_get_visible_child (ADW_SQUEEZER (squeezer)) == header_switcher,
                       !=, bar_expected[i]);
      if (bar_expected[i])
        g_assert_true (adw_view_switcher_bar_get_stack (ADW_VIEW_SWITCHER_BAR (bar)) ==
                       adw_view_switcher_get_stack (ADW_VIEW_SWITCHER (header_switcher)));
      gtk_window_destroy (GTK_WINDOW (window));
    }
}

/* Between a phone and a laptop the sidebar folds away rather than leave
 * a view less than a phone's width beside it. */
static void
test_folds (void)
{
  AdwApplication *app = g_object_get_data (G_OBJECT (g_application_get_default ()), "app");
  HrWindow *window = hr_window_new (GTK_APPLICATION (app));
  GtkWidget *flap;

  gtk_window_set_default_size (GTK_WINDOW (window), MIDDLE_WIDTH, NARROW_HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_iterate ();
  flap = find_flap (GTK_WIDGET (window));

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      GtkWidget *content = adw_flap_get_content (ADW_FLAP (flap));

      hr_window_get_view (window, views[i]);
      hr_window_show_view (window, views[i]);
      hr_test_iterate ();
      g_test_message ("%s: folded %d, the view %d px", views[i],
                      adw_flap_get_folded (ADW_FLAP (flap)), gtk_widget_get_width (content));
      if (!adw_flap_get_folded (ADW_FLAP (flap)))
        g_assert_cmpint (gtk_widget_get_width (content), >=, NARROW_WIDTH - 20);
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
focus_within (GtkWidget *window,
              GtkWidget *ancestor)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return focus != NULL && (focus == ancestor || gtk_widget_is_ancestor (focus, ancestor));
}

/* Until the flap's reveal animation (a spring) is within 1 % of its end
 * at @progress, for two seconds at most. */
static void
wait_for_reveal (AdwFlap *flap,
                 double   progress)
{
  gint64 end = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;

  while (!G_APPROX_VALUE (adw_flap_get_reveal_progress (flap), progress, 0.01) &&
         g_get_monotonic_time () < end)
    hr_test_iterate ();
  g_assert_cmpfloat_with_epsilon (adw_flap_get_reveal_progress (flap), progress, 0.01);
}

/* On a phone the sidebar, shown by F9 or its button, lies over the view:
 * the keyboard moves into it, Tab walks its controls and the header's,
 * never the view hidden under it; hidden again, the view takes focus
 * again and the focus is on the sidebar's button, as it is when a wide
 * window hides its sidebar. */
static void
test_sidebar_focus (void)
{
  AdwApplication *app = g_object_get_data (G_OBJECT (g_application_get_default ()), "app");
  HrWindow *window = hr_window_new (GTK_APPLICATION (app));
  GtkWidget *flap, *sidebar, *content;
  g_autoptr(GHashTable) reached = g_hash_table_new (NULL, NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), NARROW_WIDTH, NARROW_HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_iterate ();
  flap = find_flap (GTK_WIDGET (window));
  sidebar = adw_flap_get_flap (ADW_FLAP (flap));
  content = adw_flap_get_content (ADW_FLAP (flap));
  g_assert_true (adw_flap_get_folded (ADW_FLAP (flap)));
  g_assert_false (adw_flap_get_reveal_flap (ADW_FLAP (flap)));
  g_assert_true (gtk_widget_get_can_focus (content));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL));
  wait_for_reveal (ADW_FLAP (flap), 1);
  g_assert_true (adw_flap_get_reveal_flap (ADW_FLAP (flap)));
  g_assert_true (focus_within (GTK_WIDGET (window), sidebar));
  g_assert_false (gtk_widget_get_can_focus (content));

  /* Tab, as GtkWindow moves it: forward, and round from the start at the end */
  for (guint i = 0; i < 80; i++)
    {
      if (!gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD))
        {
          gtk_window_set_focus (GTK_WINDOW (window), NULL);
          gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD);
        }
      g_assert_false (focus_within (GTK_WIDGET (window), content));
      if (focus_within (GTK_WIDGET (window), sidebar))
        g_hash_table_add (reached, gtk_root_get_focus (GTK_ROOT (window)));
    }
  /* the model picker, precision, context, parallel sequences, KV cache,
   * engine, flash attention, device, detect … */
  g_assert_cmpuint (g_hash_table_size (reached), >=, 8);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL));
  wait_for_reveal (ADW_FLAP (flap), 0);
  g_assert_false (adw_flap_get_reveal_flap (ADW_FLAP (flap)));
  /* back to the button that shows the sidebar */
  g_assert_true (gtk_widget_has_focus (find_type (GTK_WIDGET (window), GTK_TYPE_TOGGLE_BUTTON)));
  g_assert_true (gtk_widget_get_can_focus (content));
  g_assert_false (focus_within (GTK_WIDGET (window), sidebar));
  gtk_window_destroy (GTK_WINDOW (window));

  /* wide, beside the view: hidden by F9 from one of its controls, the
   * sidebar leaves the focus on its button, not on a hidden widget */
  window = hr_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), WIDE_WIDTH, WIDE_HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_iterate ();
  flap = find_flap (GTK_WIDGET (window));
  sidebar = adw_flap_get_flap (ADW_FLAP (flap));
  g_assert_false (adw_flap_get_folded (ADW_FLAP (flap)));
  g_assert_true (gtk_widget_child_focus (sidebar, GTK_DIR_TAB_FORWARD));
  g_assert_true (focus_within (GTK_WIDGET (window), sidebar));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL));
  wait_for_reveal (ADW_FLAP (flap), 0);
  g_assert_false (focus_within (GTK_WIDGET (window), sidebar));
  g_assert_true (gtk_widget_has_focus (find_type (GTK_WIDGET (window), GTK_TYPE_TOGGLE_BUTTON)));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = hr_test_app_init (&argc, &argv);
  int status;

  g_test_add_func ("/narrow/minimum-width", test_minimum_width);
  g_test_add_func ("/narrow/wide-sidebar", test_wide_sidebar);
  g_test_add_func ("/narrow/folds", test_folds);
  g_test_add_func ("/narrow/switcher", test_switcher);
  g_test_add_func ("/narrow/sidebar-focus", test_sidebar_focus);

  status = g_test_run ();
  return status;
}
