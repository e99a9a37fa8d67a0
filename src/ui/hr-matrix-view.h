/* hr-matrix-view.h — the precision × context matrix
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-calculator.h"
#include "hr-matrix.h"

G_BEGIN_DECLS

#define HR_TYPE_MATRIX_VIEW (hr_matrix_view_get_type ())

G_DECLARE_FINAL_TYPE (HrMatrixView, hr_matrix_view, HR, MATRIX_VIEW, AdwBin)

GtkWidget    *hr_matrix_view_new            (void);
HrCalculator *hr_matrix_view_get_calculator (HrMatrixView *self);
void          hr_matrix_view_set_calculator (HrMatrixView *self,
                                             HrCalculator *calculator);
guint         hr_matrix_view_get_units      (HrMatrixView *self);
void          hr_matrix_view_set_units      (HrMatrixView *self,
                                             guint         units);
HrMatrix     *hr_matrix_view_get_matrix     (HrMatrixView *self);

G_END_DECLS
