/* hr-model-inspect.h — what `headroom-cli inspect` prints about a model file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-gguf.h"

G_BEGIN_DECLS

JsonNode *hr_model_inspect_describe_gguf      (HrGguf      *gguf,
                                               const char  *path,
                                               GError     **error);
JsonNode *hr_model_inspect_describe_gguf_file (const char  *path,
                                               GError     **error);
gboolean  hr_model_inspect                    (const char  *path,
                                               gboolean     json,
                                               GError     **error);

G_END_DECLS
