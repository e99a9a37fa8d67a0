/* hr-matrix-view.h — the precision × context matrix
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-matrix.h"
#include "hr-table-view.h"

G_BEGIN_DECLS

#define HR_TYPE_MATRIX_VIEW (hr_matrix_view_get_type ())

G_DECLARE_FINAL_TYPE (HrMatrixView, hr_matrix_view, HR, MATRIX_VIEW, HrTableView)

GtkWidget *hr_matrix_view_new        (void);
HrMatrix  *hr_matrix_view_get_matrix (HrMatrixView *self);

G_END_DECLS
