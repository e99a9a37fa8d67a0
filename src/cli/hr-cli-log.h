/* hr-cli-log.h — what check-log and calibrate share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-calibration.h"
#include "hr-cli-common.h"
#include "hr-engine-log.h"
#include "hr-log-check.h"

G_BEGIN_DECLS

gboolean       hr_cli_log_fill_options    (HrCliOptions      *o,
                                           const HrEngineLog *log,
                                           gboolean           need_context);
HrCalibration *hr_cli_load_calibration    (HrCliOptions      *o);

G_END_DECLS
