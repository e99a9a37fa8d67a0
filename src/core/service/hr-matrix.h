/* hr-matrix.h — precision × context table following a calculator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-calculator.h"
#include "hr-row-list.h"

G_BEGIN_DECLS

#define HR_TYPE_MATRIX (hr_matrix_get_type ())
#define HR_TYPE_MATRIX_ROW (hr_matrix_row_get_type ())

G_DECLARE_FINAL_TYPE (HrMatrix, hr_matrix, HR, MATRIX, HrRowList)
G_DECLARE_FINAL_TYPE (HrMatrixRow, hr_matrix_row, HR, MATRIX_ROW, GObject)

HrMatrix      *hr_matrix_new                 (HrCalculator  *calculator);
HrCalculator  *hr_matrix_get_calculator      (HrMatrix      *self);
guint          hr_matrix_get_n_contexts      (HrMatrix      *self);
guint64        hr_matrix_get_context         (HrMatrix      *self,
                                              guint          index);
void           hr_matrix_set_contexts        (HrMatrix      *self,
                                              const guint64 *contexts,
                                              guint          n_contexts);
guint          hr_matrix_get_tier_index      (HrMatrix      *self);
void           hr_matrix_set_precisions      (HrMatrix      *self,
                                              GPtrArray     *precisions);
void           hr_matrix_set_include_current (HrMatrix      *self,
                                              gboolean       include_current);

HrPrecision   *hr_matrix_row_get_precision   (HrMatrixRow   *self);
guint64        hr_matrix_row_get_weights_bytes (HrMatrixRow *self);
guint64        hr_matrix_row_get_total_bytes (HrMatrixRow   *self,
                                              guint          index);
HrVerdict      hr_matrix_row_get_verdict     (HrMatrixRow   *self,
                                              guint          index);
HrPlacementKind hr_matrix_row_get_placement  (HrMatrixRow   *self,
                                              guint          index);
gboolean       hr_matrix_row_get_valid       (HrMatrixRow   *self,
                                              guint          index);
HrEngine       hr_matrix_row_get_engine      (HrMatrixRow   *self,
                                              guint          index);
double         hr_matrix_row_get_max_concurrency (HrMatrixRow *self,
                                                  guint        index);
guint64        hr_matrix_row_get_kv_capacity_tokens (HrMatrixRow *self,
                                                     guint        index);
HrHardware    *hr_matrix_row_get_tier        (HrMatrixRow   *self);

G_END_DECLS
