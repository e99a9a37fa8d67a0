/* hr-hf-config.h — a Hugging Face config.json as a model's shape
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A checkpoint's config.json says everything Headroom needs about its
 * shape, but in per-architecture dialects: head_dim may be implied,
 * Falcon spells KV heads three ways, Gemma 3 nests the text model,
 * DeepSeek describes latent attention, and sliding windows hide behind
 * use_sliding_window, layer_types or a pattern length.  This module maps
 * those dialects onto the shape of one catalog model (HrModelShape, which
 * the catalog makes a model of) and counts the parameters exactly from
 * the shapes, since config.json does not carry the count.
 *
 * Only the architectures of the built-in catalog are accepted; anything
 * else is refused by name rather than guessed at.
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-model-shape.h"

G_BEGIN_DECLS

gboolean     hr_hf_config_read_shape      (JsonObject   *config,
                                           const char   *name_hint,
                                           HrModelShape *shape,
                                           GError      **error);
gboolean     hr_hf_config_read_file       (const char   *path,
                                           HrModelShape *shape,
                                           GError      **error);
double       hr_hf_config_count_params    (JsonObject   *config,
                                           double       *active,
                                           GError      **error);
const char  *hr_hf_config_supported       (void);

G_END_DECLS
