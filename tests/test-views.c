/* test-views.c — the view base, the combo rows' index bindings, the step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrView refreshes once per recomputation, per change of units and on
 * attach; the calculator's index properties follow its items and set
 * them; the window's combo rows follow those properties both ways; a
 * slider step updates the tables' cells in place, without a rebind.  Run
 * under xvfb-run with GTK_A11Y=none GSK_RENDERER=cairo
 * GSETTINGS_BACKEND=memory G_DEBUG=fatal-criticals.
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-compare-view.h"
#include "hr-format.h"
#include "hr-hardware-view.h"
#include "hr-matrix-view.h"
#include "hr-view.h"
#include "hr-window.h"
#include "hr-test-app.h"

#define NBSP_GB "\u00a0GB"

/* ------------------------------------------------------------- helpers */

static HrCalculator *
new_calculator (void)
{
  g_autoptr(HrCatalog) catalog = hr_catalog_new ();
  g_autoptr(GError) error = NULL;

  hr_catalog_load_builtin (catalog, &error);
  g_assert_no_error (error);
  return hr_calculator_new (catalog);
}

static guint
position_in (GListModel *list,
             gpointer    item)
{
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(GObject) candidate = g_list_model_get_item (list, i);

      if ((gpointer) candidate == item)
        return i;
    }
  return G_MAXUINT;
}

static guint
get_uint (gpointer    object,
          const char *property)
{
  guint value = 0;

  g_object_get (object, property, &value, NULL);
  return value;
}

static void
count_notify (guint *count)
{
  (*count)++;
}

/* ------------------------------------------------- a view that counts */

#define TEST_TYPE_VIEW (test_view_get_type ())
G_DECLARE_FINAL_TYPE (TestView, test_view, TEST, VIEW, HrView)

struct _TestView
{
  HrView parent_instance;
  guint refreshes;
  guint attaches;
};

G_DEFINE_FINAL_TYPE (TestView, test_view, HR_TYPE_VIEW)

static void
test_view_refresh (HrView *view)
{
  TEST_VIEW (view)->refreshes++;
}

static void
test_view_attach (HrView       *view,
                  HrCalculator *calculator)
{
  TEST_VIEW (view)->attaches++;
}

static void
test_view_class_init (TestViewClass *klass)
{
  HR_VIEW_CLASS (klass)->refresh = test_view_refresh;
  HR_VIEW_CLASS (klass)->attach = test_view_attach;
}

static void
test_view_init (TestView *self)
{
}

/* Refreshes: once on attach, once per recomputation, once per change of
 * units; the same calculator set again keeps its handler. */
static void
test_view_refreshes (void)
{
  g_autoptr(HrCalculator) calculator = new_calculator ();
  g_autoptr(HrCalculator) other = new_calculator ();
  TestView *view = g_object_ref_sink (g_object_new (TEST_TYPE_VIEW, NULL));
  guint notified = 0;

  g_signal_connect_swapped (view, "notify::units", G_CALLBACK (count_notify), &notified);

  hr_view_set_calculator (HR_VIEW (view), calculator);
  g_assert_cmpuint (view->attaches, ==, 1);
  g_assert_cmpuint (view->refreshes, ==, 1);
  g_assert_true (hr_view_get_calculator (HR_VIEW (view)) == calculator);

  hr_calculator_set_context (calculator, 8192);
  g_assert_cmpuint (view->refreshes, ==, 2);

  hr_view_set_calculator (HR_VIEW (view), calculator);
  g_assert_cmpuint (view->attaches, ==, 1);
  hr_calculator_set_context (calculator, 4096);
  g_assert_cmpuint (view->refreshes, ==, 3);

  g_object_set (view, "units", (guint) HR_UNITS_DECIMAL, NULL);
  g_assert_cmpuint (view->refreshes, ==, 4);
  g_assert_cmpuint (notified, ==, 1);
  g_object_set (view, "units", (guint) HR_UNITS_DECIMAL, NULL);
  g_assert_cmpuint (view->refreshes, ==, 4);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (hr_view_get_units (HR_VIEW (view)), ==, HR_UNITS_DECIMAL);

  /* Another calculator: the first no longer refreshes the view. */
  hr_view_set_calculator (HR_VIEW (view), other);
  g_assert_cmpuint (view->attaches, ==, 2);
  g_assert_cmpuint (view->refreshes, ==, 5);
  hr_calculator_set_context (calculator, 16384);
  g_assert_cmpuint (view->refreshes, ==, 5);
  hr_calculator_set_context (other, 16384);
  g_assert_cmpuint (view->refreshes, ==, 6);

  /* Gone, it is no longer called. */
  g_object_unref (view);
  hr_calculator_set_context (other, 8192);
}

/* A view on a stack page not shown waits: steps do not refresh it, and
 * it refreshes once when its page is shown; one that hid itself keeps
 * following (to know when to show itself again). */
static void
test_view_waits_off_screen (void)
{
  g_autoptr(HrCalculator) calculator = new_calculator ();
  TestView *view = g_object_new (TEST_TYPE_VIEW, NULL);
  GtkWidget *stack = gtk_stack_new ();
  GtkWidget *window = gtk_window_new ();
  guint before;

  hr_view_set_calculator (HR_VIEW (view), calculator);
  gtk_stack_add_named (GTK_STACK (stack), gtk_label_new ("another page"), "other");
  gtk_stack_add_named (GTK_STACK (stack), GTK_WIDGET (view), "view");
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "other");
  gtk_window_set_child (GTK_WINDOW (window), stack);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_wait_for_frame (window);
  g_assert_true (hr_view_is_waiting (HR_VIEW (view)));

  before = view->refreshes;
  for (guint step = 1; step <= 5; step++)
    hr_calculator_set_context (calculator, 1024 * step);
  g_object_set (view, "units", (guint) HR_UNITS_DECIMAL, NULL);
  g_assert_cmpuint (view->refreshes, ==, before);

  gtk_stack_set_visible_child_name (GTK_STACK (stack), "view");
  hr_test_wait_idle ();
  g_assert_false (hr_view_is_waiting (HR_VIEW (view)));
  g_assert_cmpuint (view->refreshes, ==, before + 1);
  hr_calculator_set_context (calculator, 8192);
  g_assert_cmpuint (view->refreshes, ==, before + 2);

  /* hidden by itself, on the page shown: it follows */
  gtk_widget_set_visible (GTK_WIDGET (view), FALSE);
  g_assert_false (hr_view_is_waiting (HR_VIEW (view)));
  hr_calculator_set_context (calculator, 4096);
  g_assert_cmpuint (view->refreshes, ==, before + 3);

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* --------------------------------------------- calculator index props */

static void
test_calculator_indices (void)
{
  g_autoptr(HrCalculator) calculator = new_calculator ();
  HrCatalog *catalog = hr_calculator_get_catalog (calculator);
  GListModel *precisions = hr_catalog_get_precisions (catalog);
  GListModel *kv_types = hr_catalog_get_kv_types (catalog);
  g_autoptr(GObject) first = g_list_model_get_item (precisions, 0);
  guint notified = 0;
  guint recomputes;

  g_assert_cmpuint (get_uint (calculator, "precision-index"), ==,
                    position_in (precisions, hr_calculator_get_precision (calculator)));
  g_assert_cmpuint (get_uint (calculator, "precision-index"), !=, 0);
  g_assert_cmpuint (get_uint (calculator, "kv-type-index"), ==,
                    position_in (kv_types, hr_calculator_get_kv_type (calculator)));
  /* Automatic is the engine row's first item, then HrEngine's order */
  g_assert_cmpuint (get_uint (calculator, "engine-index"), ==, 0);  /* Automatic, the default */

  /* Setting the item moves the index, notified once... */
  g_signal_connect_swapped (calculator, "notify::precision-index",
                            G_CALLBACK (count_notify), &notified);
  hr_calculator_set_precision (calculator, HR_PRECISION (first));
  g_assert_cmpuint (get_uint (calculator, "precision-index"), ==, 0);
  g_assert_cmpuint (notified, ==, 1);
  /* ...and not when something else changes. */
  hr_calculator_set_context (calculator, 8192);
  hr_calculator_set_kv_type (calculator, hr_catalog_find_kv_type (catalog, "q8_0"));
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (get_uint (calculator, "kv-type-index"), ==,
                    position_in (kv_types, hr_catalog_find_kv_type (catalog, "q8_0")));

  /* Setting the index sets the item, with one recomputation. */
  recomputes = hr_calculator_get_n_recomputes (calculator);
  g_object_set (calculator, "precision-index", 2u, NULL);
  {
    g_autoptr(GObject) third = g_list_model_get_item (precisions, 2);

    g_assert_true ((gpointer) hr_calculator_get_precision (calculator) == (gpointer) third);
  }
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calculator), ==, recomputes + 1);
  g_assert_cmpuint (notified, ==, 2);

  /* Past the end, or none: nothing changes. */
  g_object_set (calculator, "precision-index", G_MAXUINT, NULL);
  g_object_set (calculator, "kv-type-index", 1000u, NULL);
  g_assert_cmpuint (get_uint (calculator, "precision-index"), ==, 2);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calculator), ==, recomputes + 1);

  /* The engine, by position. */
  g_object_set (calculator, "engine-index", (guint) HR_ENGINE_VLLM + 1, NULL);
  g_assert_cmpint (hr_calculator_get_engine (calculator), ==, HR_ENGINE_VLLM);
  g_object_set (calculator, "engine-index", 0u, NULL);
  g_assert_cmpint (hr_calculator_get_engine (calculator), ==, HR_ENGINE_AUTO);
  hr_calculator_set_engine (calculator, HR_ENGINE_OLLAMA);
  g_assert_cmpuint (get_uint (calculator, "engine-index"), ==, HR_ENGINE_OLLAMA + 1);
  g_object_set (calculator, "engine-index", (guint) HR_N_ENGINES + 1, NULL);
  g_assert_cmpint (hr_calculator_get_engine (calculator), ==, HR_ENGINE_OLLAMA);

  /* A precision the catalog does not list has no position. */
  {
    g_autoptr(HrCalculator) other = new_calculator ();

    hr_calculator_set_precision (calculator, hr_calculator_get_precision (other));
    g_assert_cmpuint (get_uint (calculator, "precision-index"), ==, G_MAXUINT);
  }
}

/* -------------------------------------------------- the window's rows */

static AdwComboRow *
find_combo_row (GtkWidget  *widget,
                const char *title)
{
  if (ADW_IS_COMBO_ROW (widget) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return ADW_COMBO_ROW (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      AdwComboRow *found = find_combo_row (child, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

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

/* The combo rows show the calculator's items from the start and follow
 * it both ways, through the index properties bound in the template. */
static void
test_window_combo_rows (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calculator = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calculator);
  AdwComboRow *precision_row = find_combo_row (GTK_WIDGET (window), "Precision");
  AdwComboRow *kv_row = find_combo_row (GTK_WIDGET (window), "KV cache");
  AdwComboRow *engine_row = find_combo_row (GTK_WIDGET (window), "Engine profile");
  gpointer q8 = hr_catalog_find_precision (catalog, "q8_0");
  gpointer q4 = hr_catalog_find_kv_type (catalog, "q4_0");

  g_assert_nonnull (precision_row);
  g_assert_nonnull (kv_row);
  g_assert_nonnull (engine_row);

  /* From the start (the default precision is not the first item). */
  g_assert_true (adw_combo_row_get_model (precision_row) == hr_catalog_get_precisions (catalog));
  g_assert_true (adw_combo_row_get_selected_item (precision_row) ==
                 (gpointer) hr_calculator_get_precision (calculator));
  g_assert_cmpuint (adw_combo_row_get_selected (precision_row), !=, 0);
  g_assert_true (adw_combo_row_get_selected_item (kv_row) ==
                 (gpointer) hr_calculator_get_kv_type (calculator));
  /* Automatic (the default) is the first item */
  g_assert_cmpint (hr_calculator_get_engine (calculator), ==, HR_ENGINE_AUTO);
  g_assert_cmpuint (adw_combo_row_get_selected (engine_row), ==, 0);

  /* The calculator moves the rows... */
  hr_calculator_set_precision (calculator, q8);
  hr_calculator_set_kv_type (calculator, q4);
  hr_calculator_set_engine (calculator, HR_ENGINE_VLLM);
  g_assert_true (adw_combo_row_get_selected_item (precision_row) == q8);
  g_assert_true (adw_combo_row_get_selected_item (kv_row) == q4);
  g_assert_cmpuint (adw_combo_row_get_selected (engine_row), ==, HR_ENGINE_VLLM + 1);

  /* ...and the rows move the calculator. */
  adw_combo_row_set_selected (precision_row, 0);
  adw_combo_row_set_selected (kv_row, 0);
  adw_combo_row_set_selected (engine_row, HR_ENGINE_LLAMACPP + 1);
  g_assert_true (adw_combo_row_get_selected_item (precision_row) ==
                 (gpointer) hr_calculator_get_precision (calculator));
  g_assert_cmpuint (get_uint (calculator, "precision-index"), ==, 0);
  g_assert_cmpuint (get_uint (calculator, "kv-type-index"), ==, 0);
  g_assert_cmpint (hr_calculator_get_engine (calculator), ==, HR_ENGINE_LLAMACPP);

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* ------------------------------------------------- a step, no rebind */

static void
count_bind (guint *binds)
{
  (*binds)++;
}

static GtkColumnView *
find_column_view (GtkWidget *widget)
{
  if (GTK_IS_COLUMN_VIEW (widget))
    return GTK_COLUMN_VIEW (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkColumnView *found = find_column_view (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Counts the binds of every column's cells. */
static void
connect_binds (GtkWidget *view,
               guint     *binds)
{
  GtkColumnView *column_view = find_column_view (view);
  GListModel *columns;

  g_assert_nonnull (column_view);
  columns = gtk_column_view_get_columns (column_view);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      g_signal_connect_swapped (gtk_column_view_column_get_factory (column), "bind",
                                G_CALLBACK (count_bind), binds);
    }
}

/* The three tables, shown and unsorted: a slider step shows new values
 * in the cells they have, without binding any again. */
static void
test_step_no_rebind (void)
{
  g_autoptr(HrCalculator) calculator = new_calculator ();
  GtkWidget *views[3] = { hr_matrix_view_new (), hr_hardware_view_new (), hr_compare_view_new () };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *window = gtk_window_new ();
  guint binds = 0;

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_object_set (views[i], "calculator", calculator, NULL);
      gtk_widget_set_vexpand (views[i], TRUE);
      gtk_box_append (GTK_BOX (box), views[i]);
    }
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_wait_for_frame (window);

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    connect_binds (views[i], &binds);

  for (guint step = 1; step <= 8; step++)
    {
      hr_calculator_set_context (calculator, 1024 * step);
      hr_test_wait_idle ();
    }
  g_assert_cmpuint (binds, ==, 0);

  /* A change of units shows every cell again, in place. */
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    g_object_set (views[i], "units", (guint) HR_UNITS_DECIMAL, NULL);
  hr_test_wait_idle ();
  g_assert_cmpuint (binds, ==, 0);

  /* The count is live: other rows (the models similar to another model)
   * are bound. */
  hr_calculator_set_model (calculator,
                           hr_catalog_find_model (hr_calculator_get_catalog (calculator),
                                                  "Qwen/Qwen3-32B"));
  hr_test_wait_idle ();
  g_assert_cmpuint (binds, >, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* ------------------------------------- a table off screen catches up */

static void
collect_cells (GtkWidget *widget,
               GString   *out)
{
  if (GTK_IS_INSCRIPTION (widget))
    {
      g_string_append (out, gtk_inscription_get_text (GTK_INSCRIPTION (widget)) ?: "");
      g_string_append_c (out, '|');
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_cells (child, out);
}

static GtkWidget *
present (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

/* A table on a page not shown skips the steps, and shows the same as one
 * that followed them once its page is shown. */
static void
test_hidden_table_catches_up (void)
{
  g_autoptr(HrCalculator) calculator = new_calculator ();
  GtkWidget *shown = hr_hardware_view_new ();
  GtkWidget *hidden = hr_hardware_view_new ();
  GtkWidget *stack = gtk_stack_new ();
  GtkWidget *windows[2];
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autoptr(GString) caught_up = g_string_new (NULL);

  g_object_set (shown, "calculator", calculator, NULL);
  g_object_set (hidden, "calculator", calculator, NULL);
  gtk_stack_add_named (GTK_STACK (stack), gtk_label_new ("another page"), "other");
  gtk_stack_add_named (GTK_STACK (stack), hidden, "table");
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "other");
  windows[0] = present (shown);
  windows[1] = present (stack);
  hr_test_wait_for_frame (windows[0]);
  hr_test_wait_for_frame (windows[1]);
  g_assert_true (gtk_widget_get_mapped (shown));
  g_assert_false (gtk_widget_get_mapped (hidden));
  /* no estimate is made for the hidden table's rows */
  g_assert_true (hr_row_list_get_paused (hr_table_view_get_rows (HR_TABLE_VIEW (hidden))));
  g_assert_false (hr_row_list_get_paused (hr_table_view_get_rows (HR_TABLE_VIEW (shown))));

  for (guint step = 1; step <= 5; step++)
    {
      hr_calculator_set_context (calculator, 3000 * step);
      hr_test_wait_idle ();
    }
  hr_calculator_set_hardware (calculator,
                              hr_catalog_find_hardware (hr_calculator_get_catalog (calculator),
                                                        "rtx-3090-24gb"));
  g_object_set (shown, "units", (guint) HR_UNITS_DECIMAL, NULL);
  g_object_set (hidden, "units", (guint) HR_UNITS_DECIMAL, NULL);
  hr_test_wait_idle ();

  gtk_stack_set_visible_child_name (GTK_STACK (stack), "table");
  hr_test_wait_for_frame (hidden);
  g_assert_true (gtk_widget_get_mapped (hidden));
  g_assert_false (hr_row_list_get_paused (hr_table_view_get_rows (HR_TABLE_VIEW (hidden))));

  collect_cells (shown, expected);
  collect_cells (hidden, caught_up);
  g_assert_cmpuint (expected->len, >, 100);
  g_assert_nonnull (strstr (expected->str, NBSP_GB));
  g_assert_cmpstr (caught_up->str, ==, expected->str);

  gtk_window_destroy (GTK_WINDOW (windows[0]));
  gtk_window_destroy (GTK_WINDOW (windows[1]));
  hr_test_wait_idle ();
}

/* ---------------------------------------------------------------- main */

/* The flash-attention row has three states: Automatic (llama.cpp and
 * Ollama turn it on where the backend has it, as -fa auto does: the same
 * speed as On, issue 31), On and Off (the cache read once per query head:
 * slower at depth). */
static void
test_window_flash_row (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calculator = hr_window_get_calculator (window);
  AdwComboRow *flash_row = find_combo_row (GTK_WIDGET (window), "Flash attention");
  double automatic, on, off;

  g_assert_nonnull (flash_row);
  {
    HrCatalog *catalog = hr_calculator_get_catalog (calculator);

    hr_calculator_set_model (calculator, hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"));
    hr_calculator_set_precision (calculator, hr_catalog_find_precision (catalog, "q4_k_m"));
    hr_calculator_set_hardware (calculator, hr_catalog_find_hardware (catalog, "rtx-3060-12gb"));
  }
  hr_calculator_set_engine (calculator, HR_ENGINE_LLAMACPP);
  hr_calculator_set_context (calculator, 32768);
  hr_test_wait_idle ();
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (flash_row)));
  g_assert_cmpuint (adw_combo_row_get_selected (flash_row), ==, HR_FLASH_ATTN_DEFAULT);
  automatic = hr_calculator_get_estimate (calculator)->decode_tokens_per_s;

  adw_combo_row_set_selected (flash_row, HR_FLASH_ATTN_ON);
  g_assert_cmpint (hr_calculator_get_engine_options (calculator)->flash_attn, ==, HR_FLASH_ATTN_ON);
  on = hr_calculator_get_estimate (calculator)->decode_tokens_per_s;
  g_assert_cmpfloat (on, ==, automatic);

  adw_combo_row_set_selected (flash_row, HR_FLASH_ATTN_OFF);
  g_assert_cmpint (hr_calculator_get_engine_options (calculator)->flash_attn, ==, HR_FLASH_ATTN_OFF);
  off = hr_calculator_get_estimate (calculator)->decode_tokens_per_s;
  /* at 32K the cache read once per KV head instead of per query head */
  g_assert_cmpfloat (automatic, >, off * 1.2);

  /* vLLM has no such choice: the row hides */
  hr_calculator_set_engine (calculator, HR_ENGINE_VLLM);
  hr_test_wait_idle ();
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (flash_row)));

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}


/* A visible label whose text contains @text, under @widget. */
static GtkLabel *
find_label_with (GtkWidget  *widget,
                 const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget) &&
      strstr (gtk_label_get_label (GTK_LABEL (widget)), text) != NULL)
    return GTK_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found = gtk_widget_get_visible (child) ? find_label_with (child, text) : NULL;

      if (found != NULL)
        return found;
    }
  return NULL;
}

typedef struct
{
  GtkWidget *root;
  const char *text;
} LabelWait;

static gboolean
label_shown (gpointer data)
{
  LabelWait *wait = data;

  return find_label_with (wait->root, wait->text) != NULL;
}

/* Issue 31: the Overview's "Cached tokens" puts a prompt on top of a
 * filled cache, and the Offload group's Backend row offers only the
 * builds the device runs; the Overview names the one timed. */
static void
test_window_depth_backend (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calculator = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calculator);
  GtkWidget *overview = hr_window_get_view (window, "overview");
  GtkLabel *depth_label;
  GtkWidget *depth_spin;
  AdwComboRow *backend_row;
  GListModel *items;
  LabelWait wait = { overview, NULL };

  hr_calculator_freeze (calculator);
  hr_calculator_set_model (calculator,
                           hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct"));
  hr_calculator_set_precision (calculator, hr_catalog_find_precision (catalog, "q4_k_m"));
  hr_calculator_set_hardware (calculator,
                              hr_catalog_find_hardware (catalog, "radeon-rx-7900-xtx-24gb"));
  hr_calculator_set_engine (calculator, HR_ENGINE_LLAMACPP);
  hr_calculator_set_context (calculator, 32768);
  hr_calculator_set_prompt_tokens (calculator, 0);
  hr_calculator_thaw (calculator);

  /* the decode caption names the device's own build */
  wait.text = "on ROCm";
  hr_test_wait_until (label_shown, &wait, "the Overview naming ROCm");

  depth_label = find_label_with (overview, "Cached tokens");
  g_assert_nonnull (depth_label);
  depth_spin = gtk_widget_get_next_sibling (GTK_WIDGET (depth_label));
  g_assert_true (GTK_IS_SPIN_BUTTON (depth_spin));
  g_assert_true (gtk_widget_is_sensitive (depth_spin));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (depth_spin), 16384);
  g_assert_cmpuint (hr_calculator_get_depth (calculator), ==, 16384);
  /* the full-context preset is now the rest of the context */
  wait.text = "a prompt of 16,384 tokens on top of 16,384 cached";
  hr_test_wait_until (label_shown, &wait, "the prompt caption at depth");

  backend_row = find_combo_row (GTK_WIDGET (window), "Backend");
  g_assert_nonnull (backend_row);
  items = adw_combo_row_get_model (backend_row);
  /* Automatic (ROCm), Vulkan, CPU: no CUDA, Metal or SYCL on a Radeon */
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 3);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 0), ==,
                   "Automatic (ROCm)");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 1), ==, "Vulkan");
  adw_combo_row_set_selected (backend_row, 1);
  g_assert_cmpuint (hr_calculator_get_backend (calculator), ==, HR_BACKEND_VULKAN + 1);
  wait.text = "on Vulkan";
  hr_test_wait_until (label_shown, &wait, "the Overview naming Vulkan");

  /* the CPU row, with the RAM settings: the CPU that runs what the GPU
   * does not hold */
  hr_calculator_set_cpu (calculator, hr_catalog_find_cpu (catalog, "amd-ryzen-9-7950x"));
  wait.root = GTK_WIDGET (window);
  wait.text = "AMD Ryzen 9 7950X: 16 cores, 2.30 TFLOPS";
  hr_test_wait_until (label_shown, &wait, "the CPU row naming the CPU");
  wait.root = overview;

  /* an Apple chip: Metal and the CPU only, and the choice back to Automatic */
  hr_calculator_set_hardware (calculator, hr_catalog_find_hardware (catalog, "apple-m2-max-96gb"));
  wait.text = "on Metal";
  hr_test_wait_until (label_shown, &wait, "the Overview naming Metal");
  g_assert_cmpuint (hr_calculator_get_backend (calculator), ==, 0);
  items = adw_combo_row_get_model (backend_row);
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 2);
  g_assert_cmpuint (adw_combo_row_get_selected (backend_row), ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_wait_idle ();
}

/* A hybrid model's total names its recurrent state beside the cache
 * (Qwen3-Next: Gated DeltaNet layers keep a state, not a cache). */
static void
test_window_state_caption (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calculator = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calculator);
  GtkWidget *overview = hr_window_get_view (window, "overview");
  LabelWait wait = { overview, "weights, KV cache, recurrent state and overhead on 1 device" };

  hr_calculator_freeze (calculator);
  hr_calculator_set_model (calculator,
                           hr_catalog_find_model (catalog, "Qwen/Qwen3-Next-80B-A3B-Instruct"));
  hr_calculator_set_precision (calculator, hr_catalog_find_precision (catalog, "q4_k_m"));
  hr_calculator_set_hardware (calculator, hr_catalog_find_hardware (catalog, "h100-sxm-80gb"));
  hr_calculator_set_engine (calculator, HR_ENGINE_LLAMACPP);
  hr_calculator_thaw (calculator);
  g_assert_cmpuint (hr_calculator_get_estimate (calculator)->state_bytes, >, 0);
  hr_test_wait_until (label_shown, &wait, "the total naming the recurrent state");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  /* Only the built-in catalog: a developer's own files must not count. */
  g_autoptr(HrApplication) app = hr_test_app_init (&argc, &argv);
  int status;

  g_test_add_func ("/views/refreshes", test_view_refreshes);
  g_test_add_func ("/views/waits-off-screen", test_view_waits_off_screen);
  g_test_add_func ("/views/calculator-indices", test_calculator_indices);
  g_test_add_func ("/views/window-combo-rows", test_window_combo_rows);
  g_test_add_func ("/views/step-no-rebind", test_step_no_rebind);
  g_test_add_func ("/views/hidden-table-catches-up", test_hidden_table_catches_up);
  g_test_add_func ("/views/window-flash-row", test_window_flash_row);
  g_test_add_func ("/views/window-depth-backend", test_window_depth_backend);
  g_test_add_func ("/views/window-state-caption", test_window_state_caption);

  status = g_test_run ();
  return status;
}
