/* hr-compare-view.h — similar models at the current settings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-comparison.h"
#include "hr-table-view.h"

G_BEGIN_DECLS

#define HR_TYPE_COMPARE_VIEW (hr_compare_view_get_type ())

G_DECLARE_FINAL_TYPE (HrCompareView, hr_compare_view, HR, COMPARE_VIEW, HrTableView)

GtkWidget    *hr_compare_view_new            (void);
HrComparison *hr_compare_view_get_comparison (HrCompareView *self);

G_END_DECLS
