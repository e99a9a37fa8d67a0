/* hr-gguf-model.h — a GGUF file's header as a Headroom model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * llama.cpp writes every hyperparameter a model needs into the GGUF
 * header, under "<architecture>.<name>" keys, and the tensor table says
 * exactly how large every weight is.  This module maps the architectures
 * of the built-in catalog onto one catalog entry (the schema of
 * resources/catalog/models.json): shape from the metadata, parameter
 * counts from the tensor table (exact, no formula), and the file's own
 * facts — bytes of weights, bytes per ggml type, quantisation — beside
 * them, so the estimate can use what is really on disk.
 *
 * Architectures outside the catalog's are refused by name rather than
 * guessed at.
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-gguf.h"
#include "hr-model-spec.h"

G_BEGIN_DECLS

JsonObject  *hr_gguf_model_to_catalog_json (HrGguf       *gguf,
                                            const char   *path,
                                            GError      **error);
HrModelSpec *hr_gguf_model_load            (const char   *path,
                                            GError      **error);
JsonNode    *hr_gguf_model_describe        (HrGguf       *gguf,
                                            const char   *path,
                                            GError      **error);
JsonNode    *hr_gguf_model_describe_file   (const char   *path,
                                            GError      **error);
const char  *hr_gguf_model_supported       (void);
const char  *hr_gguf_file_type_name        (guint64       file_type);

G_END_DECLS
