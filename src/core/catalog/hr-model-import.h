/* hr-model-import.h — a model from a file: GGUF or Hugging Face config.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-local-models.h"
#include "hr-model-spec.h"

G_BEGIN_DECLS

HrModelSpec *hr_model_import_file    (const char  *path,
                                      GError     **error);
gboolean     hr_model_import_inspect (const char  *path,
                                      gboolean     json,
                                      GError     **error);

HrModelSpec *hr_model_import_local       (HrLocalModel             *found,
                                          GError                  **error);
void         hr_model_import_found       (HrLocalScan              *scan,
                                          GCancellable             *cancellable);
HrLocalScan *hr_model_import_scan        (HrLocalRoots             *roots,
                                          const HrLocalScanLimits  *limits,
                                          GCancellable             *cancellable);
void         hr_model_import_scan_async  (HrLocalRoots             *roots,
                                          const HrLocalScanLimits  *limits,
                                          GCancellable             *cancellable,
                                          GAsyncReadyCallback       callback,
                                          gpointer                  user_data);
HrLocalScan *hr_model_import_scan_finish (GAsyncResult             *result,
                                          GError                  **error);

G_END_DECLS
