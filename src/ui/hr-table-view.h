/* hr-table-view.h — a view that shows rows in a GtkColumnView
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-row-list.h"
#include "hr-view.h"

G_BEGIN_DECLS

#define HR_TYPE_TABLE_VIEW (hr_table_view_get_type ())

G_DECLARE_DERIVABLE_TYPE (HrTableView, hr_table_view, HR, TABLE_VIEW, HrView)

/**
 * HrTableViewClass:
 * @create_rows: the rows to show for a calculator: a new #HrRowList
 * @create_cell: the widget of a cell of kind @code, made once per list item
 * @update_cell: shows @row in @cell, a widget create_cell() made for
 *   @code; called on bind and whenever the rows, the units or the view
 *   change, so it should leave unchanged text and classes alone
 * @rows_changed: the rows were replaced; runs before the cells are
 *   updated
 * @is_empty: whether the stack shows its "empty" page rather than its
 *   "table" page, given how many rows the column view shows
 *
 * Subclasses that implement HrView's refresh() chain up last: the table
 * then shows its cells again if the units changed or the rows were
 * replaced since the last refresh.
 */
struct _HrTableViewClass
{
  HrViewClass parent_class;

  HrRowList *(*create_rows)  (HrTableView  *self,
                              HrCalculator *calculator);
  GtkWidget *(*create_cell)  (HrTableView  *self,
                              guint         code);
  void       (*update_cell)  (HrTableView  *self,
                              GtkWidget    *cell,
                              gpointer      row,
                              guint         code);
  void       (*rows_changed) (HrTableView  *self);
  gboolean   (*is_empty)     (HrTableView  *self,
                              guint         n_shown);

  gpointer padding[6];
};

void                hr_table_view_set_status_label  (HrTableView         *self,
                                                     GtkLabel            *label);
void                hr_table_view_set_column_view   (HrTableView         *self,
                                                     GtkColumnView       *column_view,
                                                     GtkSortListModel    *sort_model,
                                                     GtkFilterListModel  *filter_model,
                                                     GtkStack            *stack);
HrRowList          *hr_table_view_get_rows          (HrTableView         *self);
GtkListItemFactory *hr_table_view_cell_factory_new  (HrTableView         *self,
                                                     guint                code);
void                hr_table_view_set_cell_factory  (HrTableView         *self,
                                                     GtkColumnViewColumn *column,
                                                     guint                code);
void                hr_table_view_update_cells      (HrTableView         *self);

/* Cells the tables share. */
GtkWidget *hr_table_cell_number_new     (int         chars);
GtkWidget *hr_table_cell_marked_new     (int         min_chars,
                                         int         nat_chars);
void       hr_table_cell_marked_update  (GtkWidget  *cell,
                                         const char *markup,
                                         const char *name,
                                         gboolean    marked,
                                         const char *mark_tooltip);
GtkWidget *hr_table_cell_verdict_new    (void);
void       hr_table_cell_verdict_update (GtkWidget  *cell,
                                         HrVerdict   verdict,
                                         HrPlacementKind placement,
                                         gboolean    valid);
void       hr_table_cell_set_verdict_class (GtkWidget *widget,
                                            HrVerdict  verdict,
                                            gboolean   valid);

G_END_DECLS
