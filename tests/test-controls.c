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

#include "hr-test-app.h"
#include <glib/gstdio.h>
#include <math.h>

#include "hr-catalog.h"
#include "hr-context-row.h"
#include "hr-picker.h"
#include "hr-placement-group.h"
#include "hr-serving-group.h"
#include "hr-window.h"

/* The sidebar's width in the window's default size. */
#define SIDEBAR_WIDTH 360

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
  hr_test_wait_for_frame (window);
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
  hr_test_wait_idle ();
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
  hr_test_wait_idle ();
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
  hr_test_wait_idle ();
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (row)), ==, before);

  gtk_window_destroy (window);
  hr_test_wait_idle ();
}

/* ------------------------------------------------------------- pickers */

static HrWindow *
new_window (void)
{
  AdwApplication *app = g_object_get_data (G_OBJECT (g_application_get_default ()), "app");
  HrWindow *window = hr_window_new (GTK_APPLICATION (app));

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_wait_for_frame (window);
  hr_test_wait_idle ();   /* and the groups built when idle */
  return window;
}

static void
find_pickers (GtkWidget *widget,
              GPtrArray *found)
{
  if (HR_IS_PICKER (widget))
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    find_pickers (child, found);
}

/* The sidebar's pickers: 0 the model's, 1 the device's. */
static HrPicker *
window_picker (HrWindow *window,
               guint     index)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  find_pickers (GTK_WIDGET (window), found);
  g_assert_cmpuint (found->len, >, index);
  return found->pdata[index];
}

static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget) &&
      g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = gtk_widget_is_visible (child) ? find_label (child, text) : NULL;
      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_check (GtkWidget *widget)
{
  if (GTK_IS_IMAGE (widget) &&
      g_strcmp0 (gtk_image_get_icon_name (GTK_IMAGE (widget)), "object-select-symbolic") == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_check (child);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The rows a search leaves, in order. */
static GPtrArray *
visible_rows (HrPicker *picker)
{
  GPtrArray *rows = g_ptr_array_new ();

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (hr_picker_get_list (picker)));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_BOX_ROW (child) && gtk_widget_get_child_visible (child))
      g_ptr_array_add (rows, child);
  return rows;
}

/* Pops the list down, as Escape does, before its window goes: destroying
 * the window with the popover open gave a Gdk critical
 * (gdk_surface_get_device_position on no surface) in two of three runs
 * with the CPU saturated. */
static void
close_picker (HrPicker *picker)
{
  gtk_popover_popdown (GTK_POPOVER (gtk_widget_get_ancestor (GTK_WIDGET (hr_picker_get_list (picker)),
                                                             GTK_TYPE_POPOVER)));
  hr_test_wait_idle ();
  g_assert_false (hr_picker_is_open (picker));
}

static const char *
model_id (HrWindow *window)
{
  return hr_model_spec_get_id (hr_calculator_get_model (hr_window_get_calculator (window)));
}

/* Opens the model list, searches "qwen3", then moves the keyboard as Tab
 * and Down do: to the first match, then @downs rows down.  Returns the
 * row. */
static GtkWidget *
search_and_move (HrPicker *picker,
                 int       downs)
{
  g_autoptr(GPtrArray) rows = NULL;

  hr_picker_popup (picker);
  hr_test_wait_for_frame (hr_picker_get_list (picker));
  g_assert_true (hr_picker_is_open (picker));
  gtk_editable_set_text (hr_picker_get_search (picker), "qwen3");
  hr_test_wait_for_signal (hr_picker_get_search (picker), "search-changed");
  hr_test_wait_idle ();

  rows = visible_rows (picker);
  g_assert_cmpuint (rows->len, >=, 3);
  g_assert_true (gtk_widget_grab_focus (rows->pdata[0]));                 /* Tab */
  for (int i = 0; i < downs; i++)
    g_signal_emit_by_name (hr_picker_get_list (picker), "move-cursor",
                           GTK_MOVEMENT_DISPLAY_LINES, 1, FALSE, FALSE);  /* Down */
  hr_test_wait_idle ();
  g_assert_true (gtk_widget_has_focus (rows->pdata[downs]));
  return rows->pdata[downs];
}

static const char *
row_title (GtkWidget *row)
{
  /* the first label of the row is its title */
  GtkWidget *w = row;

  while (w != NULL && !GTK_IS_LABEL (w))
    w = gtk_widget_get_first_child (w);
  g_assert_nonnull (w);
  return gtk_label_get_label (GTK_LABEL (w));
}

/* After a search, Tab then Down then Enter (or Space) chooses the row
 * the keyboard is on, not the search's first match; the current model
 * has a check mark. */
static void
test_picker_keyboard_choice (void)
{
  HrWindow *window = new_window ();
  HrPicker *picker = window_picker (window, 0);
  GtkWidget *row, *popover;
  g_autofree char *expected = NULL;
  gboolean handled = FALSE;

  g_assert_cmpstr (model_id (window), ==, "THUDM/GLM-4-9B-0414");

  /* Enter: the search entry captures it and activates */
  row = search_and_move (picker, 1);
  expected = g_strdup (row_title (row));
  g_assert_cmpstr (expected, ==, "Qwen3 14B");
  g_signal_emit_by_name (hr_picker_get_search (picker), "activate");
  hr_test_wait_idle ();
  g_assert_false (hr_picker_is_open (picker));
  g_assert_cmpstr (model_id (window), ==, "Qwen/Qwen3-14B");

  /* the current model has the check mark, and only it */
  hr_picker_popup (picker);
  hr_test_wait_for_frame (hr_picker_get_list (picker));
  {
    g_autoptr(GPtrArray) rows = visible_rows (picker);
    guint checked = 0;

    for (guint i = 0; i < rows->len; i++)
      {
        GtkWidget *check = find_check (rows->pdata[i]);

        g_assert_nonnull (check);
        if (gtk_widget_get_visible (check))
          {
            checked++;
            g_assert_cmpstr (row_title (rows->pdata[i]), ==, "Qwen3 14B");
          }
      }
    g_assert_cmpuint (checked, ==, 1);
  }
  gtk_popover_popdown (GTK_POPOVER (gtk_widget_get_ancestor (GTK_WIDGET (hr_picker_get_list (picker)),
                                                             GTK_TYPE_POPOVER)));
  hr_test_wait_idle ();

  /* Space: the popover's own key handler chooses the keyboard's row */
  row = search_and_move (picker, 2);
  g_assert_cmpstr (row_title (row), ==, "Qwen3 32B");
  popover = gtk_widget_get_ancestor (row, GTK_TYPE_POPOVER);
  {
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (popover);
    GtkEventController *keys = NULL;

    for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
      {
        g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

        if (g_strcmp0 (gtk_event_controller_get_name (c), "hr-picker-keys") == 0)
          keys = c;
      }
    g_assert_nonnull (keys);
    g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_space, 0, 0, &handled);
  }
  g_assert_true (handled);
  hr_test_wait_idle ();
  g_assert_false (hr_picker_is_open (picker));
  g_assert_cmpstr (model_id (window), ==, "Qwen/Qwen3-32B");

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* The model list names each family once, over all of its models, though
 * the catalog lists some families in two places (Qwen3's small models
 * after its MoE ones); a search keeps the rule. */
static void
assert_groups_once (HrPicker *picker,
                    guint     min_headers)
{
  g_autoptr(GPtrArray) rows = visible_rows (picker);
  g_autoptr(GHashTable) named = g_hash_table_new (g_str_hash, g_str_equal);
  guint headers = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      GtkWidget *header = gtk_list_box_row_get_header (rows->pdata[i]);

      if (header == NULL || !gtk_widget_get_visible (header))
        continue;
      g_assert_true (GTK_IS_LABEL (header));
      g_test_message ("header %s", gtk_label_get_label (GTK_LABEL (header)));
      g_assert_false (g_hash_table_contains (named, gtk_label_get_label (GTK_LABEL (header))));
      g_hash_table_add (named, (gpointer) gtk_label_get_label (GTK_LABEL (header)));
      headers++;
    }
  g_assert_cmpuint (headers, >=, min_headers);
}

static void
test_picker_groups_once (void)
{
  HrWindow *window = new_window ();
  HrPicker *picker = window_picker (window, 0);

  hr_picker_popup (picker);
  hr_test_wait_for_frame (hr_picker_get_list (picker));
  assert_groups_once (picker, 20);
  gtk_editable_set_text (hr_picker_get_search (picker), "qwen3");
  hr_test_wait_for_signal (hr_picker_get_search (picker), "search-changed");
  hr_test_wait_idle ();
  /* Qwen3, Qwen3 MoE, Qwen3 Coder … */
  assert_groups_once (picker, 2);
  /* the family's models together, as the catalog lists them */
  {
    static const char * const qwen3[] = {
      "Qwen3 8B", "Qwen3 14B", "Qwen3 32B", "Qwen3 0.6B", "Qwen3 1.7B", "Qwen3 4B",
    };
    g_autoptr(GPtrArray) rows = visible_rows (picker);

    g_assert_cmpuint (rows->len, >=, G_N_ELEMENTS (qwen3));
    for (guint i = 0; i < G_N_ELEMENTS (qwen3); i++)
      g_assert_nonnull (find_label (rows->pdata[i], qwen3[i]));
  }

  close_picker (picker);
  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* A device search that finds nothing says so. */
static void
test_picker_no_match (void)
{
  HrWindow *window = new_window ();
  HrPicker *picker = window_picker (window, 1);

  hr_picker_popup (picker);
  hr_test_wait_for_frame (hr_picker_get_list (picker));
  gtk_editable_set_text (hr_picker_get_search (picker), "zzzq");
  hr_test_wait_for_signal (hr_picker_get_search (picker), "search-changed");
  hr_test_wait_idle ();
  {
    g_autoptr(GPtrArray) rows = visible_rows (picker);
    g_assert_cmpuint (rows->len, ==, 0);
  }
  g_assert_nonnull (find_label (gtk_widget_get_ancestor (GTK_WIDGET (hr_picker_get_list (picker)),
                                                        GTK_TYPE_POPOVER),
                                "No device matches"));

  /* and says nothing once something matches */
  gtk_editable_set_text (hr_picker_get_search (picker), "rtx");
  hr_test_wait_for_signal (hr_picker_get_search (picker), "search-changed");
  hr_test_wait_idle ();
  g_assert_null (find_label (gtk_widget_get_ancestor (GTK_WIDGET (hr_picker_get_list (picker)),
                                                     GTK_TYPE_POPOVER),
                             "No device matches"));

  close_picker (picker);
  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

static GtkLabel *
button_label (HrPicker *picker)
{
  GtkWidget *w = GTK_WIDGET (picker);

  while (w != NULL && !GTK_IS_LABEL (w))
    w = gtk_widget_get_first_child (w);
  g_assert_nonnull (w);
  return GTK_LABEL (w);
}

/* The model button shows whole names (DeepSeek V3 and R1 apart), and the
 * sidebar keeps its width. */
static void
test_picker_whole_names (void)
{
  static const char * const models[] = {
    "deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-R1-0528", "openai/gpt-oss-120b",
    "Qwen/Qwen3-Coder-480B-A35B-Instruct",
  };
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  HrPicker *picker = window_picker (window, 0);
  GtkWidget *group = gtk_widget_get_ancestor (GTK_WIDGET (picker), ADW_TYPE_PREFERENCES_GROUP);
  int sidebar = gtk_widget_get_width (group);

  g_assert_cmpint (sidebar, >, 0);
  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      GtkLabel *label;

      hr_calculator_set_model (calc, hr_catalog_find_model (catalog, models[i]));
      hr_test_wait_idle ();
      label = button_label (picker);
      if (pango_layout_is_ellipsized (gtk_label_get_layout (label)))
        g_error ("“%s” is ellipsized", gtk_label_get_label (label));
      g_assert_cmpint (gtk_widget_get_width (group), ==, sidebar);
    }

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* ------------------------------------------------------------ overview */

static void
collect_title_labels (GtkWidget *widget,
                      GPtrArray *found)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "title-2"))
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_title_labels (child, found);
}

/* The figures on the Overview's cards can be selected and copied. */
static void
test_overview_selectable (void)
{
  HrWindow *window = new_window ();
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect_title_labels (hr_window_get_view (window, "overview"), labels);
  g_assert_cmpuint (labels->len, >=, 8);
  for (guint i = 0; i < labels->len; i++)
    if (!gtk_label_get_selectable (labels->pdata[i]))
      g_error ("“%s” cannot be selected", gtk_label_get_label (labels->pdata[i]));

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

static void
on_text_read (GObject      *clipboard,
              GAsyncResult *result,
              gpointer      data)
{
  char **text = data;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (clipboard), result, NULL);
  if (*text == NULL)
    *text = g_strdup ("");
}

static gboolean
is_set (gpointer text)
{
  return *(char **) text != NULL;
}

static char *
clipboard_text (GtkWidget *widget)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, on_text_read, &text);
  hr_test_wait_until (is_set, &text, "the clipboard's text");
  return text;
}

static void
assert_has (const char *text,
            const char *expected)
{
  if (strstr (text, expected) == NULL)
    g_error ("the summary lacks “%s”:\n%s", expected, text);
}

/* Copy Summary puts the current answer on the clipboard, plain or in
 * Markdown; what does not run has no speeds in it. */
static void
test_copy_summary (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  g_autofree char *plain = NULL;
  g_autofree char *markdown = NULL;
  g_autofree char *no_fit = NULL;

  /* the first start's set-up (earlier tests changed the saved one) */
  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"));
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "q4_k_m"));
  hr_calculator_set_kv_type (calc, hr_catalog_find_kv_type (catalog, "fp16"));
  hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, "rtx-3060-12gb"));
  hr_calculator_set_context (calc, 32768);
  hr_calculator_set_batch (calc, 1);
  hr_calculator_set_gpu_count (calc, 1);
  hr_calculator_set_engine (calc, HR_ENGINE_AUTO);
  hr_calculator_thaw (calc);
  hr_test_wait_idle ();

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-summary", NULL));
  plain = clipboard_text (GTK_WIDGET (window));
  assert_has (plain, "Model: GLM-4-9B-0414\n");
  assert_has (plain, "Precision: Q4_K_M\n");
  assert_has (plain, "Context: 32,768\n");
  assert_has (plain, "Parallel sequences: 1\n");
  assert_has (plain, "KV cache: FP16\n");
  assert_has (plain, "Engine: llama.cpp\n");
  assert_has (plain, "Device: 1 × RTX 3060 12GB\n");
  assert_has (plain, "Verdict: Fits comfortably on RTX 3060 12GB");
  assert_has (plain, "Total memory: ");
  assert_has (plain, "Max context before OOM: ");
  assert_has (plain, "Decode speed: ");
  assert_has (plain, "tok/s");
  g_assert_null (strstr (plain, "**"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-summary-markdown",
                                             NULL));
  markdown = clipboard_text (GTK_WIDGET (window));
  assert_has (markdown, "### GLM-4-9B-0414\n");
  assert_has (markdown, "- **Device:** 1 × RTX 3060 12GB\n");
  assert_has (markdown, "- **Decode speed:** ");

  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "deepseek-ai/DeepSeek-R1-0528"));
  hr_test_wait_idle ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-summary", NULL));
  no_fit = clipboard_text (GTK_WIDGET (window));
  assert_has (no_fit, "Verdict: Does not run");
  g_assert_null (strstr (no_fit, "tok/s"));

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* Issue 24, item 1: Copy Summary is the core's account of the current
 * estimate, whichever page is shown.  On the Matrix page (where the
 * Overview does not refresh) switching to DeepSeek-R1 must be in the
 * summary, with its own total, not the previous model's answer. */
static void
test_copy_summary_other_page (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  g_autofree char *text = NULL;
  g_autofree char *total = NULL;
  g_autofree char *expected = NULL;

  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"));
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "q4_k_m"));
  hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, "rtx-3060-12gb"));
  hr_calculator_set_context (calc, 32768);
  hr_calculator_set_gpu_count (calc, 1);
  hr_calculator_set_engine (calc, HR_ENGINE_AUTO);
  hr_calculator_thaw (calc);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-view", "s",
                                             "matrix"));
  hr_test_wait_idle ();

  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "deepseek-ai/DeepSeek-R1-0528"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-summary", NULL));
  text = clipboard_text (GTK_WIDGET (window));
  assert_has (text, "Model: DeepSeek R1 0528\n");
  total = hr_format_size (hr_calculator_get_estimate (calc)->total_bytes, HR_UNITS_BINARY);
  expected = g_strdup_printf ("Total memory: %s\n", total);
  assert_has (text, expected);
  g_assert_null (strstr (text, "GLM-4"));
  g_assert_null (strstr (text, "Fits comfortably"));
  g_assert_null (strstr (text, "tok/s"));

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* Issue 30 (polish): the app menu chooses light, dark or the system's
 * style (AdwStyleManager). */
static void
test_style_choice (void)
{
  GApplication *app = g_application_get_default ();
  AdwStyleManager *manager = adw_style_manager_get_default ();

  g_action_group_activate_action (G_ACTION_GROUP (app), "style", g_variant_new_string ("dark"));
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==,
                   ADW_COLOR_SCHEME_FORCE_DARK);
  g_assert_true (adw_style_manager_get_dark (manager));
  g_action_group_activate_action (G_ACTION_GROUP (app), "style", g_variant_new_string ("light"));
  g_assert_false (adw_style_manager_get_dark (manager));
  /* nothing else is a style */
  g_action_group_activate_action (G_ACTION_GROUP (app), "style", g_variant_new_string ("pink"));
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==,
                   ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_action_group_activate_action (G_ACTION_GROUP (app), "style", g_variant_new_string ("system"));
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==, ADW_COLOR_SCHEME_DEFAULT);
}

/* Alt+1 … Alt+8 show the views, in the switcher's order. */
static void
test_view_shortcuts (void)
{
  static const char * const views[] = {
    "overview", "matrix", "hardware", "model", "commands", "compare", "serving", "recommend",
  };
  HrWindow *window = new_window ();
  AdwViewStack *stack = NULL;
  GtkWidget *w = hr_window_get_view (window, "overview");

  stack = ADW_VIEW_STACK (gtk_widget_get_ancestor (w, ADW_TYPE_VIEW_STACK));
  for (guint i = G_N_ELEMENTS (views); i-- > 0;)
    {
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-view", "s",
                                                 views[i]));
      hr_test_wait_idle ();
      g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, views[i]);
    }

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* ------------------------------------------------------------- imports */

/* An imported model can be removed from the main menu; the list of
 * imports on disk forgets it and the catalog's own model comes back. */
static void
test_remove_imported_model (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  g_autofree char *config = g_test_build_filename (G_TEST_DIST, "data", "hf",
                                                   "google--gemma-3-27b-it.json", NULL);
  g_autofree char *saved = g_build_filename (g_get_user_data_dir (), "headroom",
                                             "imported-models.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (config);
  g_autofree char *text = NULL;
  const char *id = "google/gemma-3-27b-it";
  HrModelSpec *model;

  /* a catalog model: the action is disabled and does nothing */
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"));
  hr_test_wait_idle ();
  gtk_widget_activate_action (GTK_WIDGET (window), "win.remove-model", NULL);
  hr_test_wait_idle ();
  g_assert_cmpstr (hr_model_spec_get_id (hr_calculator_get_model (calc)), ==,
                   "THUDM/GLM-4-9B-0414");
  g_assert_nonnull (hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"));

  hr_window_import_file (window, file);
  hr_test_wait_idle ();
  model = hr_calculator_get_model (calc);
  g_assert_cmpstr (hr_model_spec_get_id (model), ==, id);
  g_assert_cmpint (hr_model_spec_get_origin (model), ==, HR_ORIGIN_USER);
  g_assert_true (g_file_get_contents (saved, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, id));
  g_clear_pointer (&text, g_free);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.remove-model", NULL));
  hr_test_wait_idle ();
  g_assert_true (g_file_get_contents (saved, &text, NULL, NULL));
  g_assert_null (strstr (text, id));
  g_assert_false (hr_catalog_is_imported_model (catalog, id));
  model = hr_catalog_find_model (catalog, id);
  g_assert_nonnull (model);
  g_assert_cmpint (hr_model_spec_get_origin (model), ==, HR_ORIGIN_BUILTIN);

  /* Undo (the toast's button) puts the import back, in the file too */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo-remove", NULL));
  hr_test_wait_idle ();
  g_assert_true (hr_catalog_is_imported_model (catalog, id));
  g_assert_cmpint (hr_model_spec_get_origin (hr_calculator_get_model (calc)), ==, HR_ORIGIN_USER);
  g_clear_pointer (&text, g_free);
  g_assert_true (g_file_get_contents (saved, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, id));
  g_clear_pointer (&text, g_free);
  /* a second Undo has nothing left to restore */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo-remove", NULL);
  hr_test_wait_idle ();
  g_assert_true (hr_catalog_is_imported_model (catalog, id));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.remove-model", NULL));
  hr_test_wait_idle ();
  g_assert_false (hr_catalog_is_imported_model (catalog, id));

  /* the window shows a model that is not an import, and cannot remove it */
  g_assert_false (hr_catalog_is_imported_model (catalog,
                                                hr_model_spec_get_id (hr_calculator_get_model (calc))));
  model = hr_calculator_get_model (calc);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.remove-model", NULL);
  hr_test_wait_idle ();
  g_assert_true (hr_calculator_get_model (calc) == model);
  g_assert_true (hr_catalog_find_model (catalog, hr_model_spec_get_id (model)) == model);

  g_unlink (saved);
  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* --------------------------------------------------------------- export */

/* Ctrl+E exports the table on screen: the comparison from Compare, the
 * hardware table from Hardware, the matrix from elsewhere; the file
 * records the set-up (batch, KV cache, engine, device). */
static void
test_export_follows_view (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  g_autofree char *dir = g_dir_make_tmp ("headroom-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "compare.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"));
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "q4_k_m"));
  hr_calculator_set_kv_type (calc, hr_catalog_find_kv_type (catalog, "q8_0"));
  hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, "rtx-3060-12gb"));
  hr_calculator_set_context (calc, 32768);
  hr_calculator_set_batch (calc, 3);
  hr_calculator_set_gpu_count (calc, 1);
  hr_calculator_set_engine (calc, HR_ENGINE_LLAMACPP);
  hr_calculator_thaw (calc);

  hr_window_show_view (window, "compare");
  hr_test_wait_idle ();
  g_assert_cmpstr (hr_window_get_export_target (window), ==, "compare");
  g_assert_true (hr_window_export_csv_to (window, hr_window_get_export_target (window), file,
                                          &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "model,name,"));
  g_assert_nonnull (strstr (text, ",max_context,precision,context,engine,kv_type,batch,device,"
                                  "gpus\r\n"));
  {
    const char *row = strstr (text, "\r\nTHUDM/GLM-4-9B-0414,GLM-4-9B-0414,");
    const char *end = row != NULL ? strstr (row + 2, "\r\n") : NULL;
    g_autofree char *line = row != NULL && end != NULL ? g_strndup (row + 2, end - row - 2) : NULL;

    g_assert_nonnull (line);
    g_assert_true (g_str_has_suffix (line, ",q4_k_m,32768,llamacpp,q8_0,3,rtx-3060-12gb,1"));
  }

  hr_window_show_view (window, "hardware");
  hr_test_wait_idle ();
  g_assert_cmpstr (hr_window_get_export_target (window), ==, "hardware");
  hr_window_show_view (window, "overview");
  hr_test_wait_idle ();
  g_assert_cmpstr (hr_window_get_export_target (window), ==, "matrix");

  g_unlink (path);
  g_rmdir (dir);
  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* ------------------------------------------------------- mouse wheel */

/* How long a condition may take before the test fails. */
#define WAIT_TIMEOUT_US (10 * G_USEC_PER_SEC)

typedef gboolean (*Condition) (gpointer data);

/* Runs the main loop until @condition holds; fails after WAIT_TIMEOUT_US. */
static void
wait_for (Condition condition,
          gpointer  data)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_TIMEOUT_US;

  while (!condition (data) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (condition (data));
}

/* The scroll controllers of @widget and its descendants that take part
 * in event propagation: the wheel events over @widget they would take. */
static guint
count_wheel_takers (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_SCROLL (controller) &&
          gtk_event_controller_get_propagation_phase (controller) != GTK_PHASE_NONE)
        n++;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_wheel_takers (child);
  return n;
}

/* The sliders and spin buttons under @widget. */
static void
collect_wheel_controls (GtkWidget *widget,
                        GPtrArray *found)
{
  if (GTK_IS_SCALE (widget) || GTK_IS_SPIN_BUTTON (widget))
    {
      g_ptr_array_add (found, widget);
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_wheel_controls (child, found);
}

static GtkWidget *
find_type (GtkWidget *widget,
           GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
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

static gboolean
later_groups_built (gpointer window)
{
  return find_type (window, HR_TYPE_SERVING_GROUP) != NULL &&
         find_type (window, HR_TYPE_PLACEMENT_GROUP) != NULL;
}

static gboolean
takes_wheel (gpointer widget)
{
  return count_wheel_takers (widget) > 0;
}

static gboolean
leaves_wheel (gpointer widget)
{
  return count_wheel_takers (widget) == 0;
}

/* Scrolling the sidebar with the wheel never changes a value because a
 * slider or a spin button passed under the pointer: they take the wheel
 * only while they have the focus (issue 30 item 1).  A control whose
 * scroll controllers are out of propagation lets the event go on to the
 * scrolled window. */
static void
test_wheel_scrolls_page (void)
{
  HrWindow *window = new_window ();
  g_autoptr(GPtrArray) controls = g_ptr_array_new ();
  GtkWidget *context_row, *sidebar, *scale, *spin;

  wait_for (later_groups_built, window);
  context_row = find_type (GTK_WIDGET (window), HR_TYPE_CONTEXT_ROW);
  sidebar = gtk_widget_get_ancestor (context_row, GTK_TYPE_SCROLLED_WINDOW);
  g_assert_nonnull (sidebar);

  /* the context slider and spin button, batch, utilization, GPUs, the
   * placement's four and the serving plan's four */
  collect_wheel_controls (sidebar, controls);
  g_assert_cmpuint (controls->len, >=, 13);
  for (guint i = 0; i < controls->len; i++)
    {
      if (count_wheel_takers (controls->pdata[i]) != 0)
        g_error ("a %s in the sidebar takes the wheel without focus",
                 G_OBJECT_TYPE_NAME (controls->pdata[i]));
    }

  /* With the focus (a click, Tab), the slider takes the wheel again. */
  scale = GTK_WIDGET (hr_context_row_get_scale (HR_CONTEXT_ROW (context_row)));
  spin = GTK_WIDGET (hr_context_row_get_spin (HR_CONTEXT_ROW (context_row)));
  gtk_widget_grab_focus (scale);
  wait_for (takes_wheel, scale);
  g_assert_cmpuint (count_wheel_takers (spin), ==, 0);

  /* ... and so does a spin button, whose text has the focus */
  gtk_widget_grab_focus (spin);
  wait_for (takes_wheel, spin);
  wait_for (leaves_wheel, scale);

  gtk_window_set_focus (GTK_WINDOW (window), NULL);
  wait_for (leaves_wheel, spin);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = NULL;
  int status;

  app = hr_test_app_init (&argc, &argv);

  g_test_add_func ("/controls/context-ticks-snap", test_context_ticks_snap);
  g_test_add_func ("/controls/context-warning-keeps-height",
                   test_context_warning_keeps_height);
  g_test_add_func ("/controls/wheel-scrolls-page", test_wheel_scrolls_page);
  g_test_add_func ("/controls/picker-keyboard-choice", test_picker_keyboard_choice);
  g_test_add_func ("/controls/picker-no-match", test_picker_no_match);
  g_test_add_func ("/controls/picker-groups-once", test_picker_groups_once);
  g_test_add_func ("/controls/picker-whole-names", test_picker_whole_names);
  g_test_add_func ("/controls/overview-selectable", test_overview_selectable);
  g_test_add_func ("/controls/copy-summary", test_copy_summary);
  g_test_add_func ("/controls/copy-summary-other-page", test_copy_summary_other_page);
  g_test_add_func ("/controls/style-choice", test_style_choice);
  g_test_add_func ("/controls/view-shortcuts", test_view_shortcuts);
  g_test_add_func ("/controls/remove-imported-model", test_remove_imported_model);
  g_test_add_func ("/controls/export-follows-view", test_export_follows_view);

  status = g_test_run ();
  return status;
}
