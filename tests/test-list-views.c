/* test-list-views.c — the matrix, hardware and compare views, on screen
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each view is shown in a window with the seed's scenario (GLM-4-9B-0414,
 * Q4_K_M, 32K, RTX 3060 12GB); the texts of the cells the column view
 * really shows are read back from the widget tree and compared with the
 * seed page.  Run under xvfb-run with GTK_A11Y=none GSK_RENDERER=cairo
 * GSETTINGS_BACKEND=memory G_DEBUG=fatal-criticals and the C locale.
 */

#include "config.h"

#include <locale.h>
#include <math.h>

#include <adwaita.h>

#include "hr-catalog.h"
#include "hr-compare-view.h"
#include "hr-format.h"
#include "hr-hardware-view.h"
#include "hr-matrix-view.h"
#include "hr-ui-format.h"
#include "hr-test-app.h"

#define NBSP "\u00a0"

/* Main loop helpers */

/* Until @condition (@data), then the frame after it, so that the column
 * view binds what it shows; a condition that does not come fails the
 * test, named. */
#define wait_until(condition, data)                          \
  G_STMT_START {                                              \
    hr_test_wait_until ((condition), (data), #condition);     \
    hr_test_wait_idle ();                                     \
    g_assert_true ((condition) (data));                       \
  } G_STMT_END

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

static GtkWidget *
show_in_window (GtkWidget *view)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  wait_until (is_mapped, view);
  return window;
}

/* Widget tree helpers */

static GtkWidget *
find_widget (GtkWidget *root,
             GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static const char *
widget_text (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return gtk_label_get_text (GTK_LABEL (widget));
  if (GTK_IS_INSCRIPTION (widget))
    return gtk_inscription_get_text (GTK_INSCRIPTION (widget));
  return NULL;
}

/* The texts of the visible labels and inscriptions under @widget. */
static void
collect_texts (GtkWidget *widget,
               GPtrArray *texts)
{
  const char *text;

  if (!gtk_widget_get_visible (widget))
    return;

  text = widget_text (widget);
  if (text != NULL && *text != '\0')
    g_ptr_array_add (texts, g_strdup (text));

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_texts (child, texts);
}

static void
collect_row_widgets (GtkWidget *widget,
                     GPtrArray *rows)
{
  if (g_strcmp0 (gtk_widget_get_css_name (widget), "row") == 0 &&
      gtk_widget_get_visible (widget))
    {
      g_ptr_array_add (rows, widget);
      return;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_row_widgets (child, rows);
}

/* Row widgets of the column view (the header is not a "row"). */
static GPtrArray *
row_widgets (GtkWidget *view)
{
  GtkWidget *column_view = find_widget (view, GTK_TYPE_COLUMN_VIEW);
  GPtrArray *rows = g_ptr_array_new ();

  g_assert_nonnull (column_view);
  collect_row_widgets (column_view, rows);
  return rows;
}

/* One string per shown row: its cell texts joined by " | ". */
static GPtrArray *
row_texts (GtkWidget *view)
{
  g_autoptr(GPtrArray) rows = row_widgets (view);
  GPtrArray *result = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < rows->len; i++)
    {
      g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);

      collect_texts (rows->pdata[i], texts);
      g_ptr_array_add (texts, NULL);
      if (texts->len > 1)
        g_ptr_array_add (result, g_strjoinv (" | ", (char **) texts->pdata));
    }
  return result;
}

/* The shown row whose texts contain @needle. */
static GtkWidget *
find_row (GtkWidget  *view,
          const char *needle)
{
  g_autoptr(GPtrArray) rows = row_widgets (view);

  for (guint i = 0; i < rows->len; i++)
    {
      g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);

      collect_texts (rows->pdata[i], texts);
      for (guint j = 0; j < texts->len; j++)
        if (strstr (texts->pdata[j], needle) != NULL)
          return rows->pdata[i];
    }
  return NULL;
}

/* The widget under @root showing exactly @text. */
static GtkWidget *
find_text (GtkWidget  *root,
           const char *text)
{
  if (g_strcmp0 (widget_text (root), text) == 0)
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_text (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkColumnViewColumn *
find_column (GtkWidget  *view,
             const char *title)
{
  GtkColumnView *column_view = GTK_COLUMN_VIEW (find_widget (view, GTK_TYPE_COLUMN_VIEW));
  GListModel *columns = gtk_column_view_get_columns (column_view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        return column;
    }
  return NULL;
}

/* The page of the stack around the column view: "table" or "empty". */
static const char *
visible_page (GtkWidget *view)
{
  GtkWidget *column_view = find_widget (view, GTK_TYPE_COLUMN_VIEW);
  GtkWidget *stack = gtk_widget_get_ancestor (column_view, GTK_TYPE_STACK);

  g_assert_nonnull (stack);
  return gtk_stack_get_visible_child_name (GTK_STACK (stack));
}

static GListModel *
view_model (GtkWidget *view)
{
  GtkWidget *column_view = find_widget (view, GTK_TYPE_COLUMN_VIEW);

  return G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (column_view)));
}

static gboolean
has_row (gpointer data)
{
  gpointer *args = data;
  GtkWidget *row = find_row (args[0], args[1]);

  return row != NULL;
}

static void
wait_for_row (GtkWidget  *view,
              const char *needle)
{
  gpointer args[] = { view, (gpointer) needle };

  wait_until (has_row, args);
}

static HrCalculator *
seed_calculator (void)
{
  g_autoptr(HrCatalog) catalog = hr_catalog_new ();
  g_autoptr(GError) error = NULL;
  HrCalculator *calculator;

  hr_catalog_load_builtin (catalog, &error);
  g_assert_no_error (error);
  calculator = hr_calculator_new (catalog);
  hr_calculator_set_engine (calculator, HR_ENGINE_GENERIC);  /* the seed page's method */
  g_assert_cmpstr (hr_model_spec_get_name (hr_calculator_get_model (calculator)), ==,
                   "GLM-4-9B-0414");
  g_assert_cmpstr (hr_precision_get_label (hr_calculator_get_precision (calculator)), ==,
                   "Q4_K_M");
  g_assert_cmpuint (hr_calculator_get_context (calculator), ==, 32768);
  g_assert_cmpstr (hr_hardware_get_name (hr_calculator_get_hardware (calculator)), ==,
                   "RTX 3060 12GB");
  return calculator;
}

/* Matrix */

/* docs/SEED-SPEC.md, "Matrix (GiB, batch 1, FP16 KV)": precision, bpw, weights,
 * totals at 8K, 32K and 128K, recommended tier at 32K. */
#define GIB_UNIT NBSP "GiB"
static const char * const seed_matrix[] = {
  "FP16 / BF16 | 16.00 | 17.51" GIB_UNIT " | 19.49" GIB_UNIT " | 20.42" GIB_UNIT " | 24.17" GIB_UNIT
    " | RTX 3090 24GB",
  "FP8 | 8.50 | 9.30" GIB_UNIT " | 11.03" GIB_UNIT " | 11.97" GIB_UNIT " | 15.72" GIB_UNIT
    " | RTX 4060 Ti 16GB",
  "Q8_0 | 8.50 | 9.30" GIB_UNIT " | 11.03" GIB_UNIT " | 11.97" GIB_UNIT " | 15.72" GIB_UNIT
    " | RTX 4060 Ti 16GB",
  "Q6_K | 6.56 | 7.18" GIB_UNIT " | 8.85" GIB_UNIT " | 9.78" GIB_UNIT " | 13.53" GIB_UNIT
    " | RTX 3060 12GB",
  "Q5_K_M | 5.69 | 6.23" GIB_UNIT " | 7.87" GIB_UNIT " | 8.80" GIB_UNIT " | 12.55" GIB_UNIT
    " | RTX 3060 12GB",
  "Q4_K_M | 4.85 | 5.31" GIB_UNIT " | 6.92" GIB_UNIT " | 7.86" GIB_UNIT " | 11.61" GIB_UNIT
    " | RTX 3060 12GB",
  "AWQ INT4 | 4.50 | 4.92" GIB_UNIT " | 6.52" GIB_UNIT " | 7.46" GIB_UNIT " | 11.21" GIB_UNIT
    " | RTX 3060 12GB",
  "IQ4_XS | 4.25 | 4.65" GIB_UNIT " | 6.24" GIB_UNIT " | 7.18" GIB_UNIT " | 10.93" GIB_UNIT
    " | RTX 3060 12GB",
};

static gboolean
matrix_shows_seed (gpointer data)
{
  g_autoptr(GPtrArray) rows = row_texts (data);

  return rows->len == G_N_ELEMENTS (seed_matrix);
}

static guint
n_columns (GtkWidget *view)
{
  GtkWidget *column_view = find_widget (view, GTK_TYPE_COLUMN_VIEW);

  return g_list_model_get_n_items (gtk_column_view_get_columns (GTK_COLUMN_VIEW (column_view)));
}

static void
apply_contexts (GtkWidget  *entry,
                const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  g_signal_emit_by_name (entry, "activate");
  hr_test_wait_idle ();
}

static void
test_matrix (void)
{
  g_autoptr(HrCalculator) calculator = seed_calculator ();
  GtkWidget *view = hr_matrix_view_new ();
  GtkWidget *window;
  GtkWidget *row, *cell, *entry, *caption;
  g_autoptr(GPtrArray) rows = NULL;
  HrMatrix *matrix;

  g_object_set (view, "calculator", calculator, NULL);
  matrix = hr_matrix_view_get_matrix (HR_MATRIX_VIEW (view));
  g_assert_true (HR_IS_MATRIX (matrix));
  g_assert_cmpuint (hr_matrix_get_n_contexts (matrix), ==, 3);

  window = show_in_window (view);
  wait_until (matrix_shows_seed, view);

  /* Every row of the seed page, in its order, with every cell. */
  rows = row_texts (view);
  for (guint i = 0; i < G_N_ELEMENTS (seed_matrix); i++)
    g_assert_cmpstr (rows->pdata[i], ==, seed_matrix[i]);

  /* Precision, bpw, weights, three contexts, tier. */
  g_assert_cmpuint (n_columns (view), ==, 7);
  g_assert_nonnull (find_column (view, "Total @ 8K"));
  g_assert_nonnull (find_column (view, "@ 32K"));
  g_assert_nonnull (find_column (view, "@ 128K"));
  g_assert_nonnull (find_column (view, "Recommended Tier @ 32K"));

  caption = find_text (view, "Total memory at batch 1, KV cache FP16, on RTX 3060 12GB");
  g_assert_nonnull (caption);

  /* FP16 at 32K (20.42 GiB) does not fit the 12 GiB card. */
  row = find_row (view, "FP16 / BF16");
  cell = find_text (row, "20.42" NBSP "GiB");
  g_assert_nonnull (cell);
  g_assert_true (gtk_widget_has_css_class (cell, "error"));
  g_assert_cmpstr (hr_ui_get_cell_tooltip (cell), ==,
                   "Does not fit on RTX 3060 12GB (11.81" NBSP "GiB usable)");
  /* Q4_K_M at 32K (7.86 GiB) fits comfortably. */
  row = find_row (view, "Q4_K_M");
  cell = find_text (row, "7.86" NBSP "GiB");
  g_assert_false (gtk_widget_has_css_class (cell, "error"));
  g_assert_false (gtk_widget_has_css_class (cell, "warning"));

  /* A bigger device: the cells follow the calculator. */
  hr_calculator_set_hardware (calculator,
                              hr_catalog_find_hardware (hr_calculator_get_catalog (calculator),
                                                        "rtx-3090-24gb"));
  hr_test_wait_idle ();
  g_assert_nonnull (find_text (view, "Total memory at batch 1, KV cache FP16, on RTX 3090 24GB"));
  row = find_row (view, "FP16 / BF16");
  cell = find_text (row, "20.42" NBSP "GiB");
  g_assert_false (gtk_widget_has_css_class (cell, "error"));
  cell = find_text (row, "24.17" NBSP "GiB");
  g_assert_true (gtk_widget_has_css_class (cell, "error"));

  /* Decimal units re-format every cell. */
  g_object_set (view, "units", 1u, NULL);
  hr_test_wait_idle ();
  row = find_row (view, "Q4_K_M");
  g_assert_nonnull (find_text (row, "8.44" NBSP "GB"));
  g_object_set (view, "units", 0u, NULL);
  hr_test_wait_idle ();
  row = find_row (view, "Q4_K_M");
  g_assert_nonnull (find_text (row, "7.86" NBSP "GiB"));

  /* The contexts entry. */
  entry = find_widget (view, GTK_TYPE_ENTRY);
  g_assert_nonnull (entry);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "8192, 32768, 131072");
  g_assert_false (gtk_widget_has_css_class (entry, "error"));

  apply_contexts (entry, "4K, 16K");
  g_assert_cmpuint (hr_matrix_get_n_contexts (matrix), ==, 2);
  g_assert_cmpuint (hr_matrix_get_context (matrix, 0), ==, 4096);
  g_assert_cmpuint (hr_matrix_get_context (matrix, 1), ==, 16384);
  g_assert_cmpuint (n_columns (view), ==, 6);
  g_assert_nonnull (find_column (view, "Total @ 4K"));
  g_assert_nonnull (find_column (view, "@ 16K"));
  g_assert_nonnull (find_column (view, "Recommended Tier @ 16K"));
  g_assert_null (find_column (view, "@ 32K"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "4096, 16384");
  hr_test_wait_idle ();
  row = find_row (view, "Q4_K_M");
  g_assert_nonnull (row);
  g_assert_nonnull (find_text (row, "RTX 3060 12GB"));

  /* Invalid input is flagged and never applied. */
  {
    static const char * const invalid[] = {
      "", "8K, abc", "0", "-4", "3000000000", "2048M", "1.5K", "8K 32KB",
      "1, 2, 3, 4, 5, 6, 7, 8, 9",
    };

    for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
      {
        apply_contexts (entry, invalid[i]);
        g_assert_true (gtk_widget_has_css_class (entry, "error"));
        g_assert_nonnull (hr_ui_get_cell_tooltip (entry));
        g_assert_cmpuint (hr_matrix_get_n_contexts (matrix), ==, 2);
        g_assert_cmpuint (hr_matrix_get_context (matrix, 0), ==, 4096);
      }
  }

  /* Suffixes, spaces, order and duplicates. */
  apply_contexts (entry, "1M, 8k,32768 ,8K");
  g_assert_false (gtk_widget_has_css_class (entry, "error"));
  g_assert_cmpuint (hr_matrix_get_n_contexts (matrix), ==, 3);
  g_assert_cmpuint (hr_matrix_get_context (matrix, 0), ==, 8192);
  g_assert_cmpuint (hr_matrix_get_context (matrix, 1), ==, 32768);
  g_assert_cmpuint (hr_matrix_get_context (matrix, 2), ==, 1048576);
  g_assert_nonnull (find_column (view, "@ 1M"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "8192, 32768, 1048576");

  apply_contexts (entry, "1, 2147483647");
  g_assert_cmpuint (hr_matrix_get_n_contexts (matrix), ==, 2);
  g_assert_cmpuint (hr_matrix_get_context (matrix, 1), ==, 2147483647);

  /* Contexts changed behind the view's back rebuild the columns too. */
  {
    static const guint64 contexts[] = { 8192, 32768, 131072 };

    hr_matrix_set_contexts (matrix, contexts, G_N_ELEMENTS (contexts));
    hr_test_wait_idle ();
    g_assert_cmpuint (n_columns (view), ==, 7);
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "8192, 32768, 131072");
  }

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* Hardware */

/* GtkSearchEntry reports a change after a delay (150 ms), but at once
 * when the text becomes empty, as it does in the middle of set_text(). */
static void
set_search (GtkWidget  *view,
            const char *text)
{
  GtkWidget *search = find_widget (view, GTK_TYPE_SEARCH_ENTRY);

  gboolean delayed = *text != '\0' &&
                     g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (search)), text) != 0;

  gtk_editable_set_text (GTK_EDITABLE (search), text);
  if (delayed)
    hr_test_wait_for_signal (search, "search-changed");
  hr_test_wait_idle ();
}

static guint
find_hardware_position (GListModel *model,
                        const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(HrHardwareRow) row = g_list_model_get_item (model, i);

      if (g_strcmp0 (hr_hardware_get_name (hr_hardware_row_get_hardware (row)), name) == 0)
        return i;
    }
  g_assert_not_reached ();
}

static double
rate_of (GtkWidget *row)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);

  /* the decode column is the last, its unit in the caption */
  collect_texts (row, texts);
  g_assert_cmpuint (texts->len, >, 0);
  {
    const char *last = texts->pdata[texts->len - 1];
    char *end = NULL;
    double rate = g_ascii_strtod (last, &end);

    g_assert_true (end != last && *end == '\0');
    return rate;
  }
}

/* Keyboard only (issue 30.6): Tab from the vendor filter reaches the
 * table's rows — the hidden “Fits this computer” toggle used to hold Tab
 * on the filter — and the focused row is chosen by Enter. */
static void
test_hardware_keyboard (void)
{
  g_autoptr(HrCalculator) calculator = seed_calculator ();
  GtkWidget *view = hr_hardware_view_new ();
  GtkWidget *window, *dropdown, *focus;
  const char *before;

  g_object_set (view, "calculator", calculator, NULL);
  window = show_in_window (view);
  wait_for_row (view, "RTX 3060 12GB");
  before = hr_hardware_get_id (hr_calculator_get_hardware (calculator));

  dropdown = find_widget (view, GTK_TYPE_DROP_DOWN);
  g_assert_true (gtk_widget_grab_focus (dropdown));
  g_assert_true (gtk_widget_child_focus (window, GTK_DIR_TAB_FORWARD));
  hr_test_iterate ();
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_is_ancestor (focus, find_widget (view, GTK_TYPE_COLUMN_VIEW)));

  /* the next row down, then Enter */
  g_assert_true (gtk_widget_child_focus (window, GTK_DIR_DOWN));
  hr_test_iterate ();
  focus = gtk_root_get_focus (GTK_ROOT (window));
  /* what Enter emits on a row (GtkListItemWidget's key binding) */
  g_assert_cmpstr (G_OBJECT_TYPE_NAME (focus), ==, "GtkListItemWidget");
  g_signal_emit_by_name (focus, "activate-keybinding");
  hr_test_iterate ();
  g_assert_cmpstr (hr_hardware_get_id (hr_calculator_get_hardware (calculator)), !=, before);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_hardware (void)
{
  g_autoptr(HrCalculator) calculator = seed_calculator ();
  HrCatalog *catalog = hr_calculator_get_catalog (calculator);
  GtkWidget *view = hr_hardware_view_new ();
  GtkWidget *window, *row, *dropdown;
  GListModel *model, *vendors;
  guint n_all, n_apple = 0, apple = GTK_INVALID_LIST_POSITION;
  double rate;

  g_object_set (view, "calculator", calculator, NULL);
  g_assert_true (HR_IS_HARDWARE_TABLE (hr_hardware_view_get_table (HR_HARDWARE_VIEW (view))));
  window = show_in_window (view);

  model = view_model (view);
  n_all = g_list_model_get_n_items (model);
  g_assert_cmpuint (n_all, >=, 50);
  g_assert_cmpuint (n_all, ==, g_list_model_get_n_items (hr_catalog_get_hardware (catalog)));

  /* The current device is first in the catalog and marked. */
  wait_for_row (view, "RTX 3060 12GB");
  row = find_row (view, "RTX 3060 12GB");
  g_assert_nonnull (find_text (row, "12" NBSP "GiB · 360" NBSP "GB/s"));

  /* The seed's RTX 3090 row. */
  set_search (view, "3090");
  wait_for_row (view, "RTX 3090 24GB");
  row = find_row (view, "RTX 3090 24GB");
  g_assert_nonnull (find_text (row, "24" NBSP "GiB · 936" NBSP "GB/s"));
  g_assert_nonnull (find_text (row, "7.86" NBSP "GiB"));
  g_assert_nonnull (find_text (row, "33" NBSP "%"));
  g_assert_nonnull (find_text (row, "Fits comfortably"));
  rate = rate_of (row);
  g_assert_cmpfloat (fabs (rate - 83.2), <=, 0.25 * 83.2);

  /* Vendor words count in the search. */
  set_search (view, "nvidia a100");
  g_assert_cmpuint (g_list_model_get_n_items (view_model (view)), ==, 3);
  set_search (view, "");
  g_assert_cmpuint (g_list_model_get_n_items (view_model (view)), ==, n_all);

  /* Activating the A100 row makes it the calculator's device. */
  g_signal_emit_by_name (find_widget (view, GTK_TYPE_COLUMN_VIEW), "activate",
                         find_hardware_position (view_model (view), "A100 SXM 80GB"));
  g_assert_cmpstr (hr_hardware_get_id (hr_calculator_get_hardware (calculator)), ==,
                   "a100-sxm-80gb");
  set_search (view, "A100 SXM");
  wait_for_row (view, "A100 SXM 80GB");
  row = find_row (view, "A100 SXM 80GB");
  g_assert_cmpfloat (gtk_widget_get_opacity (find_widget (row, GTK_TYPE_IMAGE)), ==, 1.0);
  set_search (view, "");

  /* The vendor filter: Apple devices only. */
  dropdown = find_widget (view, GTK_TYPE_DROP_DOWN);
  vendors = gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown));
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (vendors), 0), ==, "All vendors");
  for (guint i = 0; i < g_list_model_get_n_items (vendors); i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (vendors), i), "Apple") == 0)
      apple = i;
  g_assert_cmpuint (apple, !=, GTK_INVALID_LIST_POSITION);
  g_assert_cmpuint (g_list_model_get_n_items (vendors), ==, 5);

  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), apple);
  hr_test_wait_idle ();
  model = view_model (view);
  g_assert_cmpuint (g_list_model_get_n_items (model), >, 0);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(HrHardwareRow) item = g_list_model_get_item (model, i);

      g_assert_cmpstr (hr_hardware_get_vendor (hr_hardware_row_get_hardware (item)), ==, "Apple");
    }
  for (guint i = 0; i < n_all; i++)
    {
      g_autoptr(HrHardware) device = g_list_model_get_item (hr_catalog_get_hardware (catalog), i);

      n_apple += g_strcmp0 (hr_hardware_get_vendor (device), "Apple") == 0;
    }
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n_apple);

  /* Nothing matches: the empty state. */
  set_search (view, "RTX");
  g_assert_cmpuint (g_list_model_get_n_items (view_model (view)), ==, 0);
  g_assert_cmpstr (visible_page (view),
                   ==, "empty");
  set_search (view, "");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 0);
  hr_test_wait_idle ();
  g_assert_cmpuint (g_list_model_get_n_items (view_model (view)), ==, n_all);
  g_assert_cmpstr (visible_page (view),
                   ==, "table");

  /* Sorting by prompt and by decode speed: fastest first, and the rows
   * that show no speed (they do not run) last. */
  {
    GtkColumnView *column_view = GTK_COLUMN_VIEW (find_widget (view, GTK_TYPE_COLUMN_VIEW));
    const char *titles[] = { "Prompt", "Decode" };
    GtkColumnViewColumn *column = NULL;

    /* llama.cpp times the prompt (the nominal method does not) */
    hr_calculator_set_engine (calculator, HR_ENGINE_LLAMACPP);
    hr_test_wait_idle ();

    for (guint t = 0; t < G_N_ELEMENTS (titles); t++)
      {
        double previous = G_MAXDOUBLE;
        gboolean prefill = t == 0;
        guint n_running = 0;
        gboolean seen_stopped = FALSE;

        column = find_column (view, titles[t]);
        g_assert_nonnull (column);
        gtk_column_view_sort_by_column (column_view, column, GTK_SORT_DESCENDING);
        hr_test_wait_idle ();
        model = view_model (view);
        for (guint i = 0; i < g_list_model_get_n_items (model); i++)
          {
            g_autoptr(HrHardwareRow) item = g_list_model_get_item (model, i);
            gboolean runs = hr_hardware_row_get_valid (item) &&
                            hr_hardware_row_get_verdict (item) != HR_VERDICT_NO_FIT;
            double speed = prefill ? hr_hardware_row_get_prefill_tokens_per_s (item)
                                   : hr_hardware_row_get_decode_tokens_per_s (item);

            if (!runs)
              {
                seen_stopped = TRUE;
                continue;
              }
            /* a running row never follows one that does not run */
            g_assert_false (seen_stopped);
            g_assert_cmpfloat (speed, >, 0);
            g_assert_cmpfloat (speed, <=, previous);
            previous = speed;
            n_running++;
          }
        g_assert_cmpuint (n_running, >, 1);
      }
    hr_calculator_set_engine (calculator, HR_ENGINE_GENERIC);
    hr_test_wait_idle ();
    column = find_column (view, "Verdict");
    gtk_column_view_sort_by_column (column_view, column, GTK_SORT_ASCENDING);
    hr_test_wait_idle ();
    {
      g_autoptr(HrHardwareRow) first = g_list_model_get_item (model, 0);
      guint n_items = g_list_model_get_n_items (model);
      g_autoptr(HrHardwareRow) last = g_list_model_get_item (model, n_items - 1);

      g_assert_cmpint (hr_hardware_row_get_verdict (first), <=, hr_hardware_row_get_verdict (last));
    }
  }

  /* Shares past 100 % keep their "%" (issue 30 item 10): sorted by
   * share, the largest on screen, each inscription as wide as its text. */
  {
    GtkColumnView *column_view = GTK_COLUMN_VIEW (find_widget (view, GTK_TYPE_COLUMN_VIEW));
    g_autoptr(GPtrArray) rows = NULL;
    guint n_over = 0;

    hr_calculator_set_context (calculator, 1048576);
    gtk_column_view_sort_by_column (column_view, find_column (view, "Share"),
                                    GTK_SORT_DESCENDING);
    hr_test_wait_idle ();
    rows = row_widgets (view);
    for (guint i = 0; i < rows->len; i++)
      {
        g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
        GtkWidget *cell;

        collect_texts (rows->pdata[i], texts);
        for (guint t = 0; t < texts->len; t++)
          {
            const char *text = texts->pdata[t];
            g_autoptr(PangoLayout) layout = NULL;
            int width;

            if (!g_str_has_suffix (text, NBSP "%") || strlen (text) < strlen ("100" NBSP "%"))
              continue;
            cell = find_text (rows->pdata[i], text);
            if (!gtk_widget_get_mapped (cell) || gtk_widget_get_width (cell) == 0)
              continue;   /* a row not laid out yet */
            layout = gtk_widget_create_pango_layout (cell, text);
            pango_layout_get_pixel_size (layout, &width, NULL);
            g_assert_cmpint (gtk_widget_get_width (cell), >=, width);
            n_over++;
          }
      }
    g_assert_cmpuint (n_over, >, 0);

    /* Layers in system RAM: Required is the whole set-up, the device's
     * part and the RAM's, not only what sits on the GPU (issue 30 item 11) */
    hr_calculator_set_engine (calculator, HR_ENGINE_LLAMACPP);
    hr_calculator_set_context (calculator, 131072);
    hr_test_wait_idle ();
    {
      GListModel *sorted = view_model (view);
      guint n_checked = 0;

      for (guint i = 0; i < MIN (8u, g_list_model_get_n_items (sorted)); i++)
        {
          g_autoptr(HrHardwareRow) item = g_list_model_get_item (sorted, i);
          HrHardware *hw = hr_hardware_row_get_hardware (item);
          const char *name = hr_hardware_get_name (hw);
          const char *vendor = hr_hardware_get_vendor (hw);
          g_autofree char *whole = NULL;
          GtkWidget *shown;

          if (!hr_hardware_row_get_valid (item) || hr_hardware_row_get_host_bytes (item) == 0)
            continue;
          if (vendor != NULL && g_str_has_prefix (name, vendor) && name[strlen (vendor)] == ' ')
            name += strlen (vendor) + 1;
          shown = find_row (view, name);
          if (shown == NULL)
            continue;
          whole = hr_format_size (hr_hardware_row_get_required_bytes (item) +
                                  hr_hardware_row_get_host_bytes (item), HR_UNITS_BINARY);
          g_assert_nonnull (find_text (shown, whole));
          n_checked++;
        }
      g_assert_cmpuint (n_checked, >, 0);
    }
    hr_calculator_set_engine (calculator, HR_ENGINE_GENERIC);
    hr_calculator_set_context (calculator, 32768);
    hr_test_wait_idle ();
  }

  /* Units. */
  g_object_set (view, "units", 1u, NULL);
  set_search (view, "3090");
  row = find_row (view, "RTX 3090 24GB");
  g_assert_nonnull (find_text (row, "8.44" NBSP "GB"));

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* Compare */

static guint
find_other_model_position (GListModel  *model,
                           HrModelSpec *current)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(HrComparisonRow) row = g_list_model_get_item (model, i);

      if (hr_comparison_row_get_model (row) != current)
        return i;
    }
  g_assert_not_reached ();
}

static gboolean
has_visible_icon (GtkWidget  *widget,
                  const char *icon_name)
{
  if (GTK_IS_IMAGE (widget) && gtk_widget_get_visible (widget) &&
      g_strcmp0 (gtk_image_get_icon_name (GTK_IMAGE (widget)), icon_name) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_visible_icon (child, icon_name))
      return TRUE;
  return FALSE;
}

static void
test_compare (void)
{
  g_autoptr(HrCalculator) calculator = seed_calculator ();
  GtkWidget *view = hr_compare_view_new ();
  GtkWidget *window, *row;
  g_autoptr(HrComparisonRow) other = NULL;
  HrModelSpec *glm = hr_calculator_get_model (calculator);
  GListModel *model;
  guint position;

  g_object_set (view, "calculator", calculator, NULL);
  g_assert_true (HR_IS_COMPARISON (hr_compare_view_get_comparison (HR_COMPARE_VIEW (view))));
  window = show_in_window (view);
  wait_for_row (view, "GLM-4-9B-0414");

  g_assert_nonnull (find_text (view, "Similar models at Q4_K_M, 32,768 tokens, on RTX 3060 12GB. "
                                     "Double-click a model to use it."));
  g_assert_cmpstr (visible_page (view),
                   ==, "table");

  /* The current model is marked. */
  row = find_row (view, "GLM-4-9B-0414");
  g_assert_nonnull (find_text (row, "GLM-4-9B-0414 current"));
  g_assert_nonnull (find_text (row, "9.4B"));
  g_assert_nonnull (find_text (row, "7.86" NBSP "GiB"));
  g_assert_nonnull (find_text (row, "Fits comfortably"));
  /* past the trained 32,768: a visible warning sign beside the figure */
  g_assert_true (has_visible_icon (row, "dialog-warning-symbolic"));
  /* Only one row is current. */
  {
    g_autoptr(GPtrArray) rows = row_texts (view);
    guint n_current = 0;

    for (guint i = 0; i < rows->len; i++)
      n_current += strstr (rows->pdata[i], " current") != NULL;
    g_assert_cmpuint (n_current, ==, 1);
  }

  /* Activating another row switches the model. */
  model = view_model (view);
  position = find_other_model_position (model, glm);
  other = g_list_model_get_item (model, position);
  g_signal_emit_by_name (find_widget (view, GTK_TYPE_COLUMN_VIEW), "activate", position);
  g_assert_true (hr_calculator_get_model (calculator) == hr_comparison_row_get_model (other));
  {
    HrModelSpec *chosen = hr_comparison_row_get_model (other);
    g_autofree char *marked = g_strdup_printf ("%s current", hr_model_spec_get_name (chosen));

    wait_for_row (view, marked);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* The precision chosen in the sidebar has a row even when it is not one
 * of the eight, in order of bits per weight; it goes with the choice. */
static gboolean
matrix_has_nine (gpointer data)
{
  g_autoptr(GPtrArray) rows = row_texts (data);

  return rows->len == G_N_ELEMENTS (seed_matrix) + 1;
}

static void
test_matrix_current_precision (void)
{
  g_autoptr(HrCalculator) calculator = seed_calculator ();
  HrCatalog *catalog = hr_calculator_get_catalog (calculator);
  GtkWidget *view = hr_matrix_view_new ();
  GtkWidget *window;

  g_object_set (view, "calculator", calculator, NULL);
  window = show_in_window (view);
  wait_until (matrix_shows_seed, view);

  hr_calculator_set_precision (calculator, hr_catalog_find_precision (catalog, "q3_k_m"));
  wait_until (matrix_has_nine, view);
  {
    g_autoptr(GPtrArray) rows = row_texts (view);

    /* 4.00 bpw: after IQ4_XS, the last of the eight */
    g_assert_true (g_str_has_prefix (rows->pdata[8], "Q3_K_M | 4.00 | "));
  }

  hr_calculator_set_precision (calculator, hr_catalog_find_precision (catalog, "q5_k_s"));
  hr_test_wait_idle ();
  wait_until (matrix_has_nine, view);
  {
    g_autoptr(GPtrArray) rows = row_texts (view);

    /* 5.58 bpw: between Q5_K_M (5.69) and Q4_K_M (4.85) */
    g_assert_true (g_str_has_prefix (rows->pdata[4], "Q5_K_M | "));
    g_assert_true (g_str_has_prefix (rows->pdata[5], "Q5_K_S | 5.58 | "));
    g_assert_true (g_str_has_prefix (rows->pdata[6], "Q4_K_M | "));
    for (guint i = 0; i < rows->len; i++)
      g_assert_null (strstr (rows->pdata[i], "Q3_K_M"));
  }

  /* back among the eight: no extra row */
  hr_calculator_set_precision (calculator, hr_catalog_find_precision (catalog, "q4_k_m"));
  wait_until (matrix_shows_seed, view);

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* A model that does not fit has no decode speed, only its verdict. */
static void
test_compare_no_fit_no_speed (void)
{
  g_autoptr(HrCalculator) calculator = seed_calculator ();
  HrCatalog *catalog = hr_calculator_get_catalog (calculator);
  GtkWidget *view = hr_compare_view_new ();
  GtkWidget *window;
  guint no_fit = 0;

  hr_calculator_set_model (calculator,
                           hr_catalog_find_model (catalog, "deepseek-ai/DeepSeek-R1-0528"));
  g_object_set (view, "calculator", calculator, NULL);
  window = show_in_window (view);
  wait_for_row (view, "DeepSeek R1 0528 current");
  {
    g_autoptr(GPtrArray) rows = row_texts (view);

    for (guint i = 0; i < rows->len; i++)
      if (strstr (rows->pdata[i], "Does not fit") != NULL)
        {
          no_fit++;
          if (strstr (rows->pdata[i], "tok/s") != NULL)
            g_error ("a row that does not fit shows a speed: %s", (char *) rows->pdata[i]);
        }
  }
  g_assert_cmpuint (no_fit, >, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* A catalog with a single model has nothing to compare it with. */
static void
test_compare_empty (void)
{
  static const char * const files[] = { "hardware.json", "precisions.json" };
  g_autoptr(HrCatalog) catalog = hr_catalog_new ();
  g_autoptr(HrCalculator) calculator = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *models;
  GListModel *comparison;
  GtkWidget *view = hr_compare_view_new ();
  GtkWidget *window;

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_strconcat ("/io/github/headroom_app/Headroom/catalog/", files[i],
                                           NULL);
      g_autoptr(GBytes) data = g_resources_lookup_data (path, 0, &error);
      gsize size;
      const char *contents;

      g_assert_no_error (error);
      contents = g_bytes_get_data (data, &size);
      hr_catalog_load_data (catalog, contents, size, files[i], HR_ORIGIN_BUILTIN, &error);
      g_assert_no_error (error);
    }

  /* models.json with GLM-4-9B-0414 alone */
  bytes = g_resources_lookup_data ("/io/github/headroom_app/Headroom/catalog/models.json", 0,
                                   &error);
  g_assert_no_error (error);
  json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                              &error);
  g_assert_no_error (error);
  models = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                         "models");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "models");
  json_builder_begin_array (builder);
  json_builder_add_value (builder, json_node_copy (json_array_get_element (models, 0)));
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json = json_generator_to_data (generator, NULL);
  hr_catalog_load_data (catalog, json, -1, "models.json", HR_ORIGIN_BUILTIN, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (hr_catalog_get_models (catalog)), ==, 1);

  calculator = hr_calculator_new (catalog);

  hr_calculator_set_engine (calculator, HR_ENGINE_GENERIC);  /* the seed page's method */
  g_object_set (view, "calculator", calculator, NULL);
  window = show_in_window (view);
  hr_test_wait_idle ();

  comparison = G_LIST_MODEL (hr_compare_view_get_comparison (HR_COMPARE_VIEW (view)));
  g_assert_cmpuint (g_list_model_get_n_items (comparison), ==, 1);
  g_assert_cmpstr (visible_page (view),
                   ==, "empty");
  g_assert_nonnull (find_widget (view, ADW_TYPE_STATUS_PAGE));

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* Views without a calculator, and calculators replaced. */
static void
test_lifecycle (void)
{
  g_autoptr(HrCalculator) first = seed_calculator ();
  g_autoptr(HrCalculator) second = seed_calculator ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *views[3] = { hr_matrix_view_new (), hr_hardware_view_new (), hr_compare_view_new () };
  GtkWidget *window;

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      gtk_widget_set_vexpand (views[i], TRUE);
      gtk_box_append (GTK_BOX (box), views[i]);
    }
  window = show_in_window (box);

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_autoptr(HrCalculator) calculator = NULL;

      g_object_set (views[i], "calculator", first, NULL);
      hr_test_wait_idle ();
      g_object_set (views[i], "calculator", second, NULL);
      hr_test_wait_idle ();
      g_object_get (views[i], "calculator", &calculator, NULL);
      g_assert_true (calculator == second);
      g_object_set (views[i], "calculator", NULL, NULL);
      hr_test_wait_idle ();
      g_object_set (views[i], "calculator", first, "units", 1u, NULL);
      hr_test_wait_idle ();
    }

  g_assert_nonnull (hr_matrix_view_get_matrix (HR_MATRIX_VIEW (views[0])));
  g_assert_nonnull (hr_hardware_view_get_table (HR_HARDWARE_VIEW (views[1])));
  g_assert_nonnull (hr_compare_view_get_comparison (HR_COMPARE_VIEW (views[2])));
  hr_calculator_set_context (first, 65536);
  hr_test_wait_idle ();

  /* Nothing keeps the views or their models alive once the window goes. */
  {
    gpointer weak[6] = {
      views[0], views[1], views[2],
      hr_matrix_view_get_matrix (HR_MATRIX_VIEW (views[0])),
      hr_hardware_view_get_table (HR_HARDWARE_VIEW (views[1])),
      hr_compare_view_get_comparison (HR_COMPARE_VIEW (views[2])),
    };

    for (guint i = 0; i < G_N_ELEMENTS (weak); i++)
      g_object_add_weak_pointer (weak[i], &weak[i]);

    gtk_window_destroy (GTK_WINDOW (window));
    hr_test_wait_idle ();

    for (guint i = 0; i < G_N_ELEMENTS (weak); i++)
      g_assert_null (weak[i]);
  }

  /* …and the calculator no longer feeds them. */
  hr_calculator_set_context (first, 8192);
}

/* vLLM takes the same budget at every context and for every model: the
 * matrix and the comparison show what varies, the sequences of the
 * context the KV cache holds at once, coloured as the verdict. */
static gboolean
matrix_shows_budget (gpointer data)
{
  GtkWidget *row = find_row (data, "FP16 / BF16");

  return row != NULL && find_text (row, "×9.2") != NULL;
}

static void
test_vllm_budget (void)
{
  g_autoptr(HrCalculator) calculator = seed_calculator ();
  HrCatalog *catalog = hr_calculator_get_catalog (calculator);
  GtkWidget *view = hr_matrix_view_new ();
  GtkWidget *window, *row, *cell;
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);

  hr_calculator_freeze (calculator);
  hr_calculator_set_engine (calculator, HR_ENGINE_VLLM);
  hr_calculator_set_precision (calculator, hr_catalog_find_precision (catalog, "fp16"));
  hr_calculator_set_hardware (calculator, hr_catalog_find_hardware (catalog, "rtx-4090-24gb"));
  hr_calculator_thaw (calculator);

  g_object_set (view, "calculator", calculator, NULL);
  window = show_in_window (view);
  wait_until (matrix_shows_budget, view);

  row = find_row (view, "FP16 / BF16");
  collect_texts (row, texts);
  /* the budget, the same at every context, is no longer the cells' text */
  for (guint i = 0; i < texts->len; i++)
    g_assert_null (strstr (texts->pdata[i], "21.69"));
  cell = find_text (row, "×9.2");   /* 8K: comfortable */
  g_assert_false (gtk_widget_has_css_class (cell, "warning"));
  g_assert_false (gtk_widget_has_css_class (cell, "error"));
  g_assert_nonnull (strstr (hr_ui_get_cell_tooltip (cell), "vLLM takes 21.69" NBSP "GiB"));
  g_assert_nonnull (strstr (hr_ui_get_cell_tooltip (cell), "Fits comfortably"));
  cell = find_text (row, "×0.6");   /* 128K: one sequence does not fit */
  g_assert_true (gtk_widget_has_css_class (cell, "error"));
  g_assert_nonnull (find_text (view, "vLLM and SGLang take the same memory at every context: "
                                     "their cells show how many sequences of that context "
                                     "their KV cache holds at once (×)"));
  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();

  /* the comparison: one budget, a capacity per model */
  view = hr_compare_view_new ();
  g_object_set (view, "calculator", calculator, NULL);
  window = show_in_window (view);
  wait_for_row (view, "GLM-4-9B-0414");
  row = find_row (view, "GLM-4-9B-0414");
  g_assert_nonnull (find_text (row, "×2.3"));
  g_assert_nonnull (find_text (row, "Fits comfortably"));
  g_assert_null (find_text (row, "21.69" NBSP "GiB"));
  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

int
main (int   argc,
      char *argv[])
{
  hr_test_init_isolated (&argc, &argv);
  adw_init ();
  /* The seed's figures use "." decimals. */
  if (setlocale (LC_ALL, "C.UTF-8") == NULL)
    setlocale (LC_ALL, "C");

  g_test_add_func ("/list-views/matrix", test_matrix);
  g_test_add_func ("/list-views/hardware", test_hardware);
  g_test_add_func ("/list-views/hardware-keyboard", test_hardware_keyboard);
  g_test_add_func ("/list-views/compare", test_compare);
  g_test_add_func ("/list-views/compare-empty", test_compare_empty);
  g_test_add_func ("/list-views/compare-no-fit-no-speed", test_compare_no_fit_no_speed);
  g_test_add_func ("/list-views/matrix-current-precision", test_matrix_current_precision);
  g_test_add_func ("/list-views/vllm-budget", test_vllm_budget);
  g_test_add_func ("/list-views/lifecycle", test_lifecycle);

  return g_test_run ();
}
