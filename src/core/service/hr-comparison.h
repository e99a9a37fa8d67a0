/* hr-comparison.h — similar models at the current settings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-calculator.h"
#include "hr-row-list.h"

G_BEGIN_DECLS

#define HR_TYPE_COMPARISON (hr_comparison_get_type ())
#define HR_TYPE_COMPARISON_ROW (hr_comparison_row_get_type ())

G_DECLARE_FINAL_TYPE (HrComparison, hr_comparison, HR, COMPARISON, HrRowList)
G_DECLARE_FINAL_TYPE (HrComparisonRow, hr_comparison_row, HR, COMPARISON_ROW, GObject)

/* Models whose total parameters are within this factor of the current
 * one's, or of the same family, are “similar”. */
#define HR_COMPARISON_SIZE_FACTOR 2.0

HrComparison  *hr_comparison_new                   (HrCalculator    *calculator);
gboolean       hr_comparison_is_similar            (HrModelSpec     *reference,
                                                    HrModelSpec     *candidate);

HrModelSpec   *hr_comparison_row_get_model         (HrComparisonRow *self);
guint64        hr_comparison_row_get_total_bytes   (HrComparisonRow *self);
guint64        hr_comparison_row_get_per_device_bytes (HrComparisonRow *self);
HrVerdict      hr_comparison_row_get_verdict       (HrComparisonRow *self);
HrPlacementKind hr_comparison_row_get_placement    (HrComparisonRow *self);
HrEngine       hr_comparison_row_get_engine        (HrComparisonRow *self);
double         hr_comparison_row_get_max_concurrency (HrComparisonRow *self);
guint64        hr_comparison_row_get_kv_capacity_tokens (HrComparisonRow *self);
guint64        hr_comparison_row_get_context       (HrComparisonRow *self);
double         hr_comparison_row_get_decode_tokens_per_s (HrComparisonRow *self);
guint64        hr_comparison_row_get_max_context   (HrComparisonRow *self);
gboolean       hr_comparison_row_get_max_context_unbounded (HrComparisonRow *self);
gboolean       hr_comparison_row_get_max_context_past_trained (HrComparisonRow *self);
gboolean       hr_comparison_row_get_is_current    (HrComparisonRow *self);

G_END_DECLS
