/* hr-log-dialog.h — an engine's log against the estimate, in the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-calculator.h"
#include "hr-log-check.h"

G_BEGIN_DECLS

#define HR_TYPE_LOG_DIALOG (hr_log_dialog_get_type ())

G_DECLARE_FINAL_TYPE (HrLogDialog, hr_log_dialog, HR, LOG_DIALOG, AdwWindow)

HrLogDialog      *hr_log_dialog_new         (HrCalculator *calculator,
                                             guint         units);
void              hr_log_dialog_load_file   (HrLogDialog  *self,
                                             GFile        *file);
void              hr_log_dialog_load_text   (HrLogDialog  *self,
                                             const char   *text,
                                             gsize         length);
const HrLogCheck *hr_log_dialog_get_check   (HrLogDialog  *self);
const char       *hr_log_dialog_get_problem (HrLogDialog  *self);
gboolean          hr_log_dialog_apply       (HrLogDialog  *self);

G_END_DECLS
