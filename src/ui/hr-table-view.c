/* hr-table-view.c — a view that shows rows in a GtkColumnView
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The matrix, the hardware table and the comparison show an HrRowList in a
 * GtkColumnView.  Their rows are updated in place after every
 * recomputation (the list emits “refreshed”); rebinding the rows would
 * cost milliseconds per slider step, so this base keeps a registry of the
 * cells currently bound and asks the subclass to show each row again in
 * the widgets it already has.  Cells skip unchanged text, markup, icons
 * and state classes (hr-ui-format.h), and an unsorted table is not
 * re-sorted.  A table that is not on screen (another page of the window)
 * pauses its rows (no estimate is made for it) and only notes that its
 * cells are stale; mapped again, it brings both up to date.
 *
 * The subclass's template holds the column view, its sort model (and a
 * filter model under it, or none) and optionally a stack with a "table"
 * and an "empty" page; hr_table_view_set_column_view() hands them over.
 */

#define G_LOG_DOMAIN "hr-table-view"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-summary.h"
#include "hr-table-view.h"
#include "hr-ui-format.h"

typedef struct
{
  HrRowList *rows;

  /* GtkListItem → cell code, for every cell currently bound */
  GHashTable *bound_cells;
  /* the units the cells show; the rows were replaced since the last
   * refresh; the cells (the order) changed while the table was unmapped */
  guint cell_units;
  gboolean cells_replaced;
  gboolean cells_stale;
  gboolean order_stale;

  /* from the subclass's template, not owned */
  GtkColumnView *column_view;
  GtkSortListModel *sort_model;
  GtkFilterListModel *filter_model;
  GtkStack *stack;
  GtkLabel *status_label;
} HrTableViewPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (HrTableView, hr_table_view, HR_TYPE_VIEW)

#define CELL_CODE_KEY "hr-cell-code"

static void
update_cell (HrTableView *self,
             GtkListItem *list_item,
             guint        code)
{
  gpointer row = gtk_list_item_get_item (list_item);

  if (row != NULL)
    HR_TABLE_VIEW_GET_CLASS (self)->update_cell (self, gtk_list_item_get_child (list_item),
                                                 row, code);
}

/**
 * hr_table_view_update_cells:
 *
 * Shows every bound cell again, after something they show changed.
 */
void
hr_table_view_update_cells (HrTableView *self)
{
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);
  GHashTableIter iter;
  gpointer key, value;

  g_return_if_fail (HR_IS_TABLE_VIEW (self));

  g_hash_table_iter_init (&iter, priv->bound_cells);
  while (g_hash_table_iter_next (&iter, &key, &value))
    update_cell (self, key, GPOINTER_TO_UINT (value));
}

static void
update_empty_state (HrTableView *self)
{
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);
  HrTableViewClass *klass = HR_TABLE_VIEW_GET_CLASS (self);
  GListModel *shown;
  gboolean empty;

  if (priv->stack == NULL || klass->is_empty == NULL)
    return;

  shown = G_LIST_MODEL (gtk_column_view_get_model (priv->column_view));
  empty = klass->is_empty (self, g_list_model_get_n_items (shown));
  gtk_stack_set_visible_child_name (priv->stack, empty ? "empty" : "table");
}

/* Shows the cells again now, or when the table is next on screen. */
static void
show_cells (HrTableView *self)
{
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);

  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      priv->cells_stale = TRUE;
      return;
    }
  priv->cells_stale = FALSE;
  hr_table_view_update_cells (self);
}

static void
sort_again (HrTableView *self)
{
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);
  GtkSorter *sorter = gtk_column_view_get_sorter (priv->column_view);

  /* Unsorted, a re-sort would only rebind every row. */
  if (sorter == NULL || gtk_sorter_get_order (sorter) == GTK_SORTER_ORDER_NONE)
    return;
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      priv->order_stale = TRUE;
      return;
    }
  priv->order_stale = FALSE;
  gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);
}

/* The rows were updated in place: show the new values and re-sort,
 * without rebinding rows (which would cost milliseconds per step). */
static void
rows_refreshed_cb (HrTableView *self)
{
  show_cells (self);
  sort_again (self);
}

static void
rows_items_changed_cb (HrTableView *self)
{
  HrTableViewClass *klass = HR_TABLE_VIEW_GET_CLASS (self);

  if (klass->rows_changed != NULL)
    klass->rows_changed (self);
  /* The column view may keep the same widgets for the same items, so
   * refresh what they show. */
  show_cells (self);
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               HrTableView              *self)
{
  guint code = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), CELL_CODE_KEY));

  gtk_list_item_set_child (list_item, HR_TABLE_VIEW_GET_CLASS (self)->create_cell (self, code));
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              HrTableView              *self)
{
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);
  guint code = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), CELL_CODE_KEY));

  g_hash_table_insert (priv->bound_cells, list_item, GUINT_TO_POINTER (code));
  update_cell (self, list_item, code);
}

static void
unbind_cell_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                HrTableView              *self)
{
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);

  g_hash_table_remove (priv->bound_cells, list_item);
}

/* The rows follow the calculator while the table can be seen (or is
 * outside any window). */
static void
update_paused (HrTableView *self)
{
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);

  if (priv->rows != NULL)
    hr_row_list_set_paused (priv->rows, hr_view_is_waiting (HR_VIEW (self)));
}

/* Hands the rows to the first model of the template's chain. */
static void
set_input (HrTableView *self,
           GListModel  *rows)
{
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);

  if (priv->filter_model != NULL)
    gtk_filter_list_model_set_model (priv->filter_model, rows);
  else if (priv->sort_model != NULL)
    gtk_sort_list_model_set_model (priv->sort_model, rows);
}

static void
hr_table_view_attach (HrView       *view,
                      HrCalculator *calculator)
{
  HrTableView *self = HR_TABLE_VIEW (view);
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);

  if (priv->rows != NULL)
    g_signal_handlers_disconnect_by_data (priv->rows, self);
  set_input (self, NULL);
  g_clear_object (&priv->rows);

  if (calculator != NULL)
    {
      priv->rows = HR_TABLE_VIEW_GET_CLASS (self)->create_rows (self, calculator);
      g_signal_connect_object (priv->rows, "items-changed",
                               G_CALLBACK (rows_items_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (priv->rows, "refreshed",
                               G_CALLBACK (rows_refreshed_cb), self, G_CONNECT_SWAPPED);
    }

  set_input (self, G_LIST_MODEL (priv->rows));
  update_paused (self);
  priv->cells_replaced = TRUE;
  update_empty_state (self);
}

/* Chained up to last by subclasses (see hr-table-view.h). */
static void
hr_table_view_refresh (HrView *view)
{
  HrTableView *self = HR_TABLE_VIEW (view);
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);
  guint units = hr_view_get_units (view);
  HrCalculator *calculator = hr_view_get_calculator (view);

  /* Settings that cannot be estimated: every row says so, the reason once
   * above them. */
  if (priv->status_label != NULL)
    {
      gboolean invalid = calculator != NULL && !hr_calculator_get_valid (calculator);
      g_autofree char *text = invalid ? hr_ui_no_estimate_text (calculator) : NULL;

      gtk_label_set_text (priv->status_label, text ? text : "");
      gtk_widget_set_visible (GTK_WIDGET (priv->status_label), invalid);
    }

  if (priv->cells_replaced || priv->cell_units != units)
    {
      priv->cells_replaced = FALSE;
      priv->cell_units = units;
      show_cells (self);
    }
}

static void
hr_table_view_map (GtkWidget *widget)
{
  HrTableView *self = HR_TABLE_VIEW (widget);
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);

  /* the view's own refresh first (as on a recomputation), then the rows
   * catch up and show their cells */
  GTK_WIDGET_CLASS (hr_table_view_parent_class)->map (widget);
  update_paused (self);

  if (priv->cells_stale)
    show_cells (self);
  if (priv->order_stale)
    sort_again (self);
}

static void
hr_table_view_unmap (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (hr_table_view_parent_class)->unmap (widget);
  update_paused (HR_TABLE_VIEW (widget));
}

static void
hr_table_view_root (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (hr_table_view_parent_class)->root (widget);
  update_paused (HR_TABLE_VIEW (widget));
}

static void
hr_table_view_unroot (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (hr_table_view_parent_class)->unroot (widget);
  update_paused (HR_TABLE_VIEW (widget));
}

static void
hr_table_view_dispose (GObject *object)
{
  HrTableView *self = HR_TABLE_VIEW (object);
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);

  /* The subclass disposed its template (and the column view with it)
   * before chaining up. */
  if (priv->rows != NULL)
    g_signal_handlers_disconnect_by_data (priv->rows, self);
  g_clear_object (&priv->rows);
  g_clear_pointer (&priv->bound_cells, g_hash_table_unref);
  priv->column_view = NULL;
  priv->sort_model = NULL;
  priv->filter_model = NULL;
  priv->stack = NULL;

  G_OBJECT_CLASS (hr_table_view_parent_class)->dispose (object);
}

static void
hr_table_view_class_init (HrTableViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  HrViewClass *view_class = HR_VIEW_CLASS (klass);

  object_class->dispose = hr_table_view_dispose;

  widget_class->map = hr_table_view_map;
  widget_class->unmap = hr_table_view_unmap;
  widget_class->root = hr_table_view_root;
  widget_class->unroot = hr_table_view_unroot;

  view_class->attach = hr_table_view_attach;
  view_class->refresh = hr_table_view_refresh;
}

static void
hr_table_view_init (HrTableView *self)
{
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);

  priv->bound_cells = g_hash_table_new (NULL, NULL);
}

/**
 * hr_table_view_set_status_label:
 * @label: the template's label for "No estimate" and its reason
 *
 * Called once from the subclass's init; the label shows only while the
 * calculator's settings cannot be estimated.
 */
void
hr_table_view_set_status_label (HrTableView *self,
                                GtkLabel    *label)
{
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);

  g_return_if_fail (HR_IS_TABLE_VIEW (self));
  g_return_if_fail (GTK_IS_LABEL (label));

  priv->status_label = label;
  gtk_widget_set_visible (GTK_WIDGET (label), FALSE);
}

/**
 * hr_table_view_set_column_view:
 * @column_view: the template's column view
 * @sort_model: the sort model under its selection model
 * @filter_model: (nullable): a filter model under @sort_model, which then
 *   receives the rows
 * @stack: (nullable): a stack with a "table" and an "empty" page
 *
 * Called once from the subclass's init, after its template.  The column
 * view's sorter sorts @sort_model.
 */
void
hr_table_view_set_column_view (HrTableView        *self,
                               GtkColumnView      *column_view,
                               GtkSortListModel   *sort_model,
                               GtkFilterListModel *filter_model,
                               GtkStack           *stack)
{
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);

  g_return_if_fail (HR_IS_TABLE_VIEW (self));
  g_return_if_fail (GTK_IS_COLUMN_VIEW (column_view));
  g_return_if_fail (GTK_IS_SORT_LIST_MODEL (sort_model));
  g_return_if_fail (filter_model == NULL || GTK_IS_FILTER_LIST_MODEL (filter_model));
  g_return_if_fail (stack == NULL || GTK_IS_STACK (stack));

  priv->column_view = column_view;
  priv->sort_model = sort_model;
  priv->filter_model = filter_model;
  priv->stack = stack;

  gtk_sort_list_model_set_sorter (sort_model, gtk_column_view_get_sorter (column_view));
  g_signal_connect_object (gtk_column_view_get_model (column_view), "items-changed",
                           G_CALLBACK (update_empty_state), self, G_CONNECT_SWAPPED);
  update_empty_state (self);
}

/**
 * hr_table_view_get_rows:
 *
 * Returns: (transfer none) (nullable): the rows shown
 */
HrRowList *
hr_table_view_get_rows (HrTableView *self)
{
  HrTableViewPrivate *priv = hr_table_view_get_instance_private (self);

  g_return_val_if_fail (HR_IS_TABLE_VIEW (self), NULL);
  return priv->rows;
}

/**
 * hr_table_view_cell_factory_new:
 * @code: what the cells show, passed to create_cell() and update_cell()
 *
 * Returns: (transfer full): a factory for one column's cells
 */
GtkListItemFactory *
hr_table_view_cell_factory_new (HrTableView *self,
                                guint        code)
{
  GtkListItemFactory *factory;

  g_return_val_if_fail (HR_IS_TABLE_VIEW (self), NULL);

  factory = gtk_signal_list_item_factory_new ();
  g_object_set_data (G_OBJECT (factory), CELL_CODE_KEY, GUINT_TO_POINTER (code));
  g_signal_connect_object (factory, "setup", G_CALLBACK (setup_cell_cb), self, 0);
  g_signal_connect_object (factory, "bind", G_CALLBACK (bind_cell_cb), self, 0);
  g_signal_connect_object (factory, "unbind", G_CALLBACK (unbind_cell_cb), self, 0);
  return factory;
}

void
hr_table_view_set_cell_factory (HrTableView         *self,
                                GtkColumnViewColumn *column,
                                guint                code)
{
  g_autoptr(GtkListItemFactory) factory = NULL;

  g_return_if_fail (HR_IS_TABLE_VIEW (self));
  g_return_if_fail (GTK_IS_COLUMN_VIEW_COLUMN (column));

  factory = hr_table_view_cell_factory_new (self, code);
  gtk_column_view_column_set_factory (column, factory);
}

/* --------------------------------------------------------- shared cells */

/* A right-aligned number, wide enough for @chars characters. */
GtkWidget *
hr_table_cell_number_new (int chars)
{
  GtkWidget *inscription = gtk_inscription_new (NULL);

  g_object_set (inscription, "min-chars", chars, "nat-chars", chars, "xalign", 1.0f, NULL);
  gtk_widget_add_css_class (inscription, "numeric");
  return inscription;
}

/* A name with a check mark before it on the current row; the mark keeps
 * its place on every row so that names align. */
GtkWidget *
hr_table_cell_marked_new (int min_chars,
                          int nat_chars)
{
  GtkWidget *name = gtk_inscription_new (NULL);
  GtkWidget *cell = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  g_object_set (name,
                "hexpand", TRUE,
                "min-chars", min_chars,
                "nat-chars", nat_chars,
                "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END,
                NULL);
  gtk_box_append (GTK_BOX (cell), gtk_image_new_from_icon_name ("object-select-symbolic"));
  gtk_box_append (GTK_BOX (cell), name);
  return cell;
}

/**
 * hr_table_cell_marked_update:
 * @markup: what the cell shows
 * @name: its tooltip: the name in full, when the column is too narrow
 * @marked: whether the row is the current one
 * @mark_tooltip: the check mark's tooltip
 */
void
hr_table_cell_marked_update (GtkWidget  *cell,
                             const char *markup,
                             const char *name,
                             gboolean    marked,
                             const char *mark_tooltip)
{
  GtkWidget *icon = gtk_widget_get_first_child (cell);
  GtkWidget *label = gtk_widget_get_next_sibling (icon);

  hr_ui_inscription_set_markup (GTK_INSCRIPTION (label), markup);
  hr_ui_set_cell_tooltip (label, name);
  gtk_widget_set_opacity (icon, marked ? 1.0 : 0.0);
  hr_ui_set_cell_tooltip (icon, marked ? mark_tooltip : NULL);
}

/* The verdict's icon and words. */
GtkWidget *
hr_table_cell_verdict_new (void)
{
  GtkWidget *label = gtk_inscription_new (NULL);
  GtkWidget *cell = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  g_object_set (label,
                "hexpand", TRUE,
                "min-chars", 17,
                "nat-chars", 17,
                "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END,
                NULL);
  gtk_box_append (GTK_BOX (cell), gtk_image_new ());
  gtk_box_append (GTK_BOX (cell), label);
  return cell;
}

void
hr_table_cell_verdict_update (GtkWidget      *cell,
                              HrVerdict       verdict,
                              HrPlacementKind placement,
                              gboolean        valid)
{
  GtkWidget *icon = gtk_widget_get_first_child (cell);
  GtkWidget *label = gtk_widget_get_next_sibling (icon);
  g_autofree char *icon_name = hr_ui_verdict_icon (NULL, verdict);
  g_autofree char *text = NULL;

  /* the core's one name for each verdict (layers in system RAM too) */
  text = g_strdup (valid ? hr_summary_verdict_label (verdict, placement) : _("No estimate"));
  hr_ui_image_set_icon_name (GTK_IMAGE (icon), valid ? icon_name : NULL);
  hr_ui_inscription_set_text (GTK_INSCRIPTION (label), text);
  hr_table_cell_set_verdict_class (cell, verdict, valid);
}

/* "success", "warning" or "error" by verdict; none when not @valid. */
void
hr_table_cell_set_verdict_class (GtkWidget *widget,
                                 HrVerdict  verdict,
                                 gboolean   valid)
{
  g_autofree char *css_class = hr_ui_verdict_css_class (NULL, verdict);

  hr_ui_set_state_class (widget, valid ? css_class : NULL);
}
