/* hr-distributions.h — where a catalog model can be fetched, per precision
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Ollama library tag of each quantization a model is published in,
 * and the Hugging Face repository of its AWQ / GPTQ / FP8 checkpoints
 * (resources/catalog/distributions.json, with sources), and a
 * repository of GGUF files of it.  Generated
 * commands name these instead of a base repository that would load
 * other weights, or a bare Ollama tag that pulls the library's default.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

const char *hr_distributions_ollama_tag   (const char *model_id,
                                           const char *precision_id);
const char *hr_distributions_ollama_note  (const char *model_id);
const char *hr_distributions_checkpoint   (const char *model_id,
                                           const char *precision_id);
const char *hr_distributions_own_precision (const char *model_id);
const char *hr_distributions_gguf_repo    (const char *model_id);
guint       hr_distributions_get_n_models (void);

G_END_DECLS
