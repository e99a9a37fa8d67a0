/* hr-compare-view.h — similar models at the current settings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-calculator.h"
#include "hr-comparison.h"

G_BEGIN_DECLS

#define HR_TYPE_COMPARE_VIEW (hr_compare_view_get_type ())

G_DECLARE_FINAL_TYPE (HrCompareView, hr_compare_view, HR, COMPARE_VIEW, AdwBin)

GtkWidget    *hr_compare_view_new            (void);
HrCalculator *hr_compare_view_get_calculator (HrCompareView *self);
void          hr_compare_view_set_calculator (HrCompareView *self,
                                              HrCalculator  *calculator);
guint         hr_compare_view_get_units      (HrCompareView *self);
void          hr_compare_view_set_units      (HrCompareView *self,
                                              guint          units);
HrComparison *hr_compare_view_get_comparison (HrCompareView *self);

G_END_DECLS
