/* hr-context-row.h — the context control: log slider and exact entry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define HR_TYPE_CONTEXT_ROW (hr_context_row_get_type ())

G_DECLARE_FINAL_TYPE (HrContextRow, hr_context_row, HR, CONTEXT_ROW, AdwPreferencesRow)

guint64   hr_context_row_get_context      (HrContextRow *self);
void      hr_context_row_set_context      (HrContextRow *self,
                                           guint64       context);
guint64   hr_context_row_get_trained_max  (HrContextRow *self);
void      hr_context_row_set_trained_max  (HrContextRow *self,
                                           guint64       trained_max);
GtkRange *hr_context_row_get_scale        (HrContextRow *self);
GtkSpinButton *hr_context_row_get_spin    (HrContextRow *self);

G_END_DECLS
