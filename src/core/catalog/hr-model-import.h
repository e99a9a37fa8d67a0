/* hr-model-import.h — a model from a file: GGUF or Hugging Face config.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The readers (hr-gguf-model, hr-hf-config) make a model's shape of a
 * file; hr_model_import_shape() makes the user model of it through
 * hr_model_spec_new_from_shape(), for both kinds and for the models found
 * on this computer.  No JSON passes between them.
 */

#pragma once

#include "hr-hub.h"
#include "hr-local-models.h"
#include "hr-model-spec.h"

G_BEGIN_DECLS

gboolean     hr_model_import_is_gguf   (const char          *path);
HrModelSpec *hr_model_import_file      (const char          *path,
                                        GError             **error);
HrModelSpec *hr_model_import_gguf      (const char          *path,
                                        GError             **error);
HrModelSpec *hr_model_import_hf_config (const char          *path,
                                        GError             **error);
HrModelSpec *hr_model_import_shape     (const HrModelShape  *shape,
                                        const char          *path,
                                        GError             **error);

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

HrModelSpec *hr_model_import_hub        (const HrHubRef           *ref,
                                          HrHubMode                 mode,
                                          GCancellable             *cancellable,
                                          guint64                  *bytes_fetched,
                                          GError                  **error);
void         hr_model_import_hub_async  (const HrHubRef           *ref,
                                          HrHubMode                 mode,
                                          GCancellable             *cancellable,
                                          GAsyncReadyCallback       callback,
                                          gpointer                  user_data);
HrModelSpec *hr_model_import_hub_finish (GAsyncResult             *result,
                                          GError                  **error);

G_END_DECLS
