/* hr-ollama-params.c — the llama-server launch Ollama makes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-ollama-params"

#include "config.h"

#include "hr-ollama-params.h"


void
hr_ollama_params_init_default (HrOllamaParams *p)
{
  g_return_if_fail (p != NULL);

  *p = (HrOllamaParams) {
    .num_ctx = HR_OLLAMA_DEFAULT_NUM_CTX,
    .num_parallel = HR_OLLAMA_DEFAULT_NUM_PARALLEL,
    /* OLLAMA_FLASH_ATTENTION unset = auto, on for supported GPUs */
    .flash_attn = TRUE,
    .num_batch = HR_OLLAMA_DEFAULT_NUM_BATCH,
  };
}

guint64
hr_ollama_default_num_ctx (guint64 total_vram_bytes)
{
  if (total_vram_bytes >= HR_OLLAMA_VRAM_LARGE_GIB * HR_GIB)
    return HR_OLLAMA_NUM_CTX_LARGE;
  if (total_vram_bytes >= HR_OLLAMA_VRAM_MEDIUM_GIB * HR_GIB)
    return HR_OLLAMA_NUM_CTX_MEDIUM;
  return HR_OLLAMA_DEFAULT_NUM_CTX;
}

guint64
hr_ollama_llamacpp_params (const HrOllamaParams *o,
                           double                kv_bytes_per_element,
                           HrLlamaCppParams     *p)
{
  guint32 parallel;
  double kv_bpe;

  g_return_val_if_fail (o != NULL, 0);
  g_return_val_if_fail (p != NULL, 0);

  parallel = MAX (o->num_parallel, 1);
  /* A quantized cache without flash attention is refused by llama.cpp
   * (V) and ignored by Ollama, which keeps F16 then. */
  kv_bpe = o->flash_attn ? kv_bytes_per_element : 2.0;

  *p = (HrLlamaCppParams) {
    .n_ubatch = o->num_batch > 0 ? o->num_batch : HR_OLLAMA_DEFAULT_NUM_BATCH,
    .n_batch = o->num_batch > 0 ? o->num_batch : HR_OLLAMA_DEFAULT_NUM_BATCH,
    .flash_attn = o->flash_attn,
    .n_seq = parallel,
    /* -np given explicitly: one stream per slot */
    .kv_unified = FALSE,
    .swa_full = FALSE,
    .kv_k_bytes_per_element = kv_bpe,
    .kv_v_bytes_per_element = kv_bpe,
  };

  return MAX (o->num_ctx, 1) * parallel;
}
