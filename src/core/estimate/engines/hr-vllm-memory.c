/* hr-vllm-memory.c — vLLM's memory budget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-vllm-memory"

#include "config.h"

#include <math.h>

#include "hr-vllm-memory.h"


void
hr_vllm_params_init_v0 (HrVllmParams *p,
                        guint64       max_model_len)
{
  g_return_if_fail (p != NULL);

  *p = (HrVllmParams) {
    .generation = HR_VLLM_V0_6,
    .gpu_memory_utilization = HR_VLLM_V0_GPU_MEMORY_UTILIZATION,
    .max_num_batched_tokens = HR_VLLM_DEFAULT_MAX_NUM_BATCHED_TOKENS,
    .max_model_len = max_model_len,
    .max_num_seqs = HR_VLLM_DEFAULT_MAX_NUM_SEQS,
    .block_size = HR_VLLM_DEFAULT_BLOCK_SIZE,
    .enforce_eager = FALSE,
    .pp = 1,
  };
}

void
hr_vllm_params_init_for_device (HrVllmParams *p,
                                guint64       max_model_len,
                                guint64       device_bytes,
                                gboolean      is_a100)
{
  g_return_if_fail (p != NULL);

  hr_vllm_params_init_v0 (p, max_model_len);
  p->generation = HR_VLLM_V1;
  p->gpu_memory_utilization = HR_VLLM_DEFAULT_GPU_MEMORY_UTILIZATION;
  if ((double) device_bytes >= HR_VLLM_HUGE_GPU_GIB * HR_GIB)
    {
      p->max_num_batched_tokens = HR_VLLM_HUGE_MAX_NUM_BATCHED_TOKENS;
      p->max_num_seqs = HR_VLLM_LARGE_MAX_NUM_SEQS;
    }
  else if ((double) device_bytes >= HR_VLLM_LARGE_GPU_GIB * HR_GIB && !is_a100)
    {
      p->max_num_batched_tokens = HR_VLLM_LARGE_MAX_NUM_BATCHED_TOKENS;
      p->max_num_seqs = HR_VLLM_LARGE_MAX_NUM_SEQS;
    }
}

void
hr_vllm_params_init_default (HrVllmParams *p,
                             guint64       max_model_len)
{
  hr_vllm_params_init_for_device (p, max_model_len, 0, FALSE);
}

void
hr_vllm_memory (const HrModelArch  *arch,
                guint64             ffn_width,
                guint64             device_bytes,
                guint64             weights_bytes_per_device,
                double              kv_bytes_per_token_per_device,
                guint32             tp,
                const HrVllmParams *p,
                HrVllmMemory       *out)
{
  double tokens, seqs, hidden, mlp, sampler, activation, budget, non_torch, graphs, left;
  double block_bytes;
  guint32 block_size;

  g_return_if_fail (arch != NULL);
  g_return_if_fail (p != NULL);
  g_return_if_fail (out != NULL);

  *out = (HrVllmMemory) { 0 };

  tp = MAX (tp, 1);
  block_size = MAX (p->block_size, 1);

  /* The profiling run is one forward pass over max_num_batched_tokens
   * tokens spread over at most max_num_seqs sequences (each needs one). */
  tokens = (double) p->max_num_batched_tokens;
  seqs = (double) MIN ((guint64) p->max_num_seqs, p->max_num_batched_tokens);
  hidden = arch->hidden;

  /* Tensor parallelism splits the MLP's intermediate width; the hidden
   * size is replicated and the sampler sees the gathered vocabulary. */
  mlp = tokens * (HR_VLLM_MLP_INTERMEDIATE_COEF * (double) ffn_width / tp +
                  HR_VLLM_MLP_HIDDEN_COEF * hidden) * HR_VLLM_ACTIVATION_BYTES;
  sampler = seqs * (double) arch->vocab *
            (p->generation == HR_VLLM_V0_6 ? HR_VLLM_SAMPLER_BYTES_PER_LOGIT
                                           : HR_VLLM_V1_SAMPLER_BYTES_PER_LOGIT) +
            tokens * hidden * HR_VLLM_ACTIVATION_BYTES;
  activation = MAX (mlp, sampler);

  budget = (double) device_bytes * p->gpu_memory_utilization;
  if (p->generation == HR_VLLM_V0_6)
    non_torch = HR_VLLM_NON_TORCH_GIB * HR_GIB;
  else if (tp > 1)
    non_torch = HR_VLLM_V1_NON_TORCH_TP_GIB * HR_GIB;
  else if (p->pp > 1)
    non_torch = HR_VLLM_V1_NON_TORCH_PP_GIB * HR_GIB;
  else
    non_torch = HR_VLLM_V1_NON_TORCH_GIB * HR_GIB;
  graphs = p->enforce_eager ? 0
           : (p->generation == HR_VLLM_V0_6 ? HR_VLLM_CUDA_GRAPH_GIB : HR_VLLM_V1_CUDA_GRAPH_GIB) * HR_GIB;

  /* available KV = total × gpu_memory_utilization − (weights + activation
   * peak + non-torch memory), and since 0.21 − the CUDA graphs' estimate
   * (0.6: peak torch memory held the weights and activations). */
  left = budget - (double) weights_bytes_per_device - activation - non_torch -
         (p->generation == HR_VLLM_V1 ? graphs : 0);

  out->budget_bytes = hr_round_bytes (budget);
  out->weights_bytes = weights_bytes_per_device;
  out->activation_peak_bytes = hr_round_bytes (activation);
  out->non_torch_bytes = hr_round_bytes (non_torch);
  out->cuda_graph_bytes = hr_round_bytes (graphs);
  out->kv_cache_bytes = hr_round_bytes (left);

  block_bytes = (double) block_size * kv_bytes_per_token_per_device;
  if (left > 0 && block_bytes > 0)
    out->kv_blocks = (guint64) floor (left / block_bytes);
  out->kv_capacity_tokens = out->kv_blocks * block_size;
  if (p->max_model_len > 0)
    out->max_concurrency = (double) out->kv_capacity_tokens / (double) p->max_model_len;
}

/**
 * hr_vllm_hybrid_block_size:
 * @attn_page_1_token: one token of one attention layer on one GPU (K + V)
 * @mamba_page: one recurrent layer's state for one sequence on one GPU
 * @block_size: --block-size (the alignment's floor)
 * @page_padded: (out): the page every layer then uses
 *
 * vLLM gives every layer of a hybrid one page size
 * (vllm/platforms/interface.py, Platform._align_hybrid_block_size, called
 * from check_and_update_config): the attention block grows, in steps of
 * the kernel alignment, until one attention page holds a state page,
 * attn_block = a × cdiv (mamba_page, a × attn_page_1_token) with a =
 * max (16, block_size); then the state page is padded to the attention
 * page.  A sequence takes one such page per recurrent layer.
 *
 * Returns: the attention block size in tokens
 */
guint32
hr_vllm_hybrid_block_size (double  attn_page_1_token,
                           double  mamba_page,
                           guint32 block_size,
                           double *page_padded)
{
  guint32 align = MAX (HR_VLLM_KERNEL_BLOCK_ALIGNMENT, block_size);
  double steps;
  guint32 attn_block;

  *page_padded = mamba_page;
  if (!(attn_page_1_token > 0) || !(mamba_page > 0))
    return block_size;
  steps = ceil (mamba_page / (align * attn_page_1_token));
  attn_block = (guint32) MIN (steps * align, (double) G_MAXUINT32 / 2);
  *page_padded = attn_block * attn_page_1_token;
  return attn_block;
}

gboolean
hr_vllm_tp_valid (const HrModelArch *arch,
                  guint32            tp)
{
  guint32 kv;

  g_return_val_if_fail (arch != NULL, FALSE);

  kv = arch->attention == HR_ATTENTION_MLA ? arch->n_heads : arch->n_kv_heads;
  if (tp == 0 || arch->n_heads % tp != 0)
    return FALSE;
  return kv % tp == 0 || tp % kv == 0;
}

/* The valid size closest to @tp, the larger one on a tie (more memory). */
guint32
hr_vllm_nearest_tp (const HrModelArch *arch,
                    guint32            tp)
{
  for (guint32 delta = 0; delta <= MAX (tp, arch->n_heads); delta++)
    {
      if (hr_vllm_tp_valid (arch, tp + delta))
        return tp + delta;
      if (delta < tp && hr_vllm_tp_valid (arch, tp - delta))
        return tp - delta;
    }
  return 1;
}
