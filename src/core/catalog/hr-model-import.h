/* hr-model-import.h — a model from a file: GGUF or Hugging Face config.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-model-spec.h"

G_BEGIN_DECLS

HrModelSpec *hr_model_import_file    (const char  *path,
                                      GError     **error);
gboolean     hr_model_import_inspect (const char  *path,
                                      gboolean     json,
                                      GError     **error);

G_END_DECLS
