/* hr-gguf-model.h — a GGUF file's header as a model's shape
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * llama.cpp writes every hyperparameter a model needs into the GGUF
 * header, under "<architecture>.<name>" keys, and the tensor table says
 * exactly how large every weight is.  This module maps the architectures
 * of the built-in catalog onto the shape of one catalog model
 * (HrModelShape, which the catalog makes a model of): shape from the
 * metadata, parameter counts from the tensor table (exact, no formula),
 * and the file's own facts — bytes of weights, bytes per ggml type, quantisation — beside
 * them, so the estimate can use what is really on disk.
 *
 * Architectures outside the catalog's are refused by name rather than
 * guessed at.
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-gguf.h"
#include "hr-model-shape.h"

G_BEGIN_DECLS

gboolean     hr_gguf_model_read_shape      (HrGguf       *gguf,
                                            const char   *path,
                                            HrModelShape *shape,
                                            GError      **error);
JsonObject  *hr_gguf_model_facts           (HrGguf       *gguf,
                                            const char   *path);
const char  *hr_gguf_model_supported       (void);
const char  *hr_gguf_file_type_name        (guint64       file_type);

G_END_DECLS
