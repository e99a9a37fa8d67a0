/* hr-cli-log.h — what check-log and calibrate share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-calibration.h"
#include "hr-cli-common.h"
#include "hr-engine-log.h"

G_BEGIN_DECLS

const char    *hr_cli_precision_from_hint (const char        *hint);
gboolean       hr_cli_log_fill_options    (HrCliOptions      *o,
                                           const HrEngineLog *log,
                                           gboolean           need_context);
HrCalibration *hr_cli_load_calibration    (HrCliOptions      *o);
gboolean       hr_cli_estimate_run        (const HrCliOptions   *o,
                                           const HrEngineLogRun *run,
                                           const HrCalibration  *calibration,
                                           double               *rate,
                                           HrBackend            *backend,
                                           GError              **error);

G_END_DECLS
