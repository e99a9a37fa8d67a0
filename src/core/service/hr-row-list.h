/* hr-row-list.h — a list model of rows that follows a calculator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _HrCalculator HrCalculator;

#define HR_TYPE_ROW_LIST (hr_row_list_get_type ())

G_DECLARE_DERIVABLE_TYPE (HrRowList, hr_row_list, HR, ROW_LIST, GObject)

struct _HrRowListClass
{
  GObjectClass parent_class;

  GType row_type;                       /* the items' type */
  void (*refresh) (HrRowList *self);    /* the calculator changed */
};

void          hr_row_list_set_calculator (HrRowList    *self,
                                          HrCalculator *calculator);
HrCalculator *hr_row_list_get_calculator (HrRowList    *self);
void          hr_row_list_set_paused     (HrRowList    *self,
                                          gboolean      paused);
gboolean      hr_row_list_get_paused     (HrRowList    *self);
GPtrArray    *hr_row_list_get_rows       (HrRowList    *self);
void          hr_row_list_replace_rows   (HrRowList    *self,
                                          GPtrArray    *rows);
void          hr_row_list_splice_rows    (HrRowList    *self,
                                          guint         position,
                                          guint         n_removed,
                                          GPtrArray    *added);
void          hr_row_list_rows_changed   (HrRowList    *self);
void          hr_row_list_refreshed      (HrRowList    *self);

G_END_DECLS
