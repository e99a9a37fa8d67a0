/* hr-profile-ollama.c — llama.cpp as Ollama launches it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ollama runs llama-server with its own defaults: the context is
 * num_ctx × OLLAMA_NUM_PARALLEL, one stream per slot, num_batch for both
 * batch sizes, and a quantized KV cache only with flash attention (it
 * quietly keeps F16 otherwise).  Everything else is llama.cpp's.
 */

#define G_LOG_DOMAIN "hr-profile-ollama"

#include "config.h"

#include "hr-ollama-params.h"
#include "hr-profile-llamacpp.h"

static gboolean
ollama_launch (const HrEstimateInput  *input,
               guint64                 context,
               HrLlamaCppParams       *params,
               guint64                *n_ctx,
               HrFix                  *fix,
               GError                **error)
{
  HrOllamaParams ollama;

  hr_ollama_params_init_default (&ollama);
  ollama.num_ctx = context;
  ollama.num_parallel = input->batch;
  if (input->options.flash_attn != HR_FLASH_ATTN_DEFAULT)
    ollama.flash_attn = input->options.flash_attn == HR_FLASH_ATTN_ON;
  if (input->options.ubatch > 0)
    ollama.num_batch = input->options.ubatch;
  *n_ctx = hr_ollama_llamacpp_params (&ollama, input->kv_bytes_per_element, params);
  return TRUE;
}

static gboolean
ollama_estimate (const HrEstimateInput  *input,
                 HrEstimate             *result,
                 GError                **error)
{
  return hr_profile_llamacpp_run (input, result, ollama_launch, error);
}

const HrEngineProfile hr_profile_ollama = {
  .engine = HR_ENGINE_OLLAMA,
  .estimate = ollama_estimate,
  .explain = hr_profile_llamacpp_explain,
};
