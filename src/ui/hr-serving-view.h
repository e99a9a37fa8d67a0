/* hr-serving-view.h — users, throughput and layouts for vLLM and SGLang
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-serving-table.h"
#include "hr-view.h"

G_BEGIN_DECLS

#define HR_TYPE_SERVING_VIEW (hr_serving_view_get_type ())

G_DECLARE_FINAL_TYPE (HrServingView, hr_serving_view, HR, SERVING_VIEW, HrView)

HrServingTable *hr_serving_view_get_table      (HrServingView *self);
const char     *hr_serving_view_get_page       (HrServingView *self);
const char     *hr_serving_view_get_cell_text  (HrServingView *self,
                                                guint          row,
                                                guint          column);
GtkWidget      *hr_serving_view_get_plot       (HrServingView *self);

G_END_DECLS
