/* hr-profile-vllm.c — vLLM: a memory budget, and the rest becomes KV blocks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * vLLM takes gpu_memory_utilization × the memory CUDA reports; weights,
 * the profiled activation peak and non-torch memory come off it, the rest
 * is KV cache in blocks (hr-vllm-memory.c).  It fits when one sequence of
 * the context fits the cache.
 */

#define G_LOG_DOMAIN "hr-profile-vllm"

#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "hr-estimate-constants.h"
#include "hr-profile.h"
#include "hr-profile-common.h"
#include "hr-vllm-memory.h"

/* vLLM's KV cache types are the model's 16-bit type ("auto") and FP8
 * (--kv-cache-dtype fp8); it has no block-quantized GGUF types. */
static gboolean
kv_type_supported (double bytes_per_element)
{
  return bytes_per_element == 2.0 || bytes_per_element == 1.0;
}

static gboolean
vllm_estimate (const HrEstimateInput  *input,
               HrEstimate             *result,
               GError                **error)
{
  const HrModelArch *model = input->model;
  guint32 n_gpus = input->n_gpus;
  double bpe = input->kv_bytes_per_element;
  HrVllmParams params;
  HrVllmMemory m;
  double weights = hr_profile_weights (input);
  double kv_fraction, kv_per_token_dev;
  guint32 heads_per_device;
  guint64 cuda_total;

  if (input->checkpoint == HR_CHECKPOINT_GGUF)
    {
      result->fix = HR_FIX_ENGINE_AUTO;
      return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                              "vLLM serves safetensors checkpoints; GGUF files are "
                              "llama.cpp's");
    }
  if (!hr_vllm_tp_valid (model, n_gpus))
    {
      result->fix = HR_FIX_GPU_COUNT;
      result->fix_gpus = hr_vllm_nearest_tp (model, n_gpus);
      return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                              "vLLM needs the %u attention heads (and %u KV heads) to divide "
                              "evenly over the GPUs; %u GPUs do not",
                              model->n_heads, model->n_kv_heads, n_gpus);
    }
  if (!kv_type_supported (bpe))
    {
      result->fix = HR_FIX_KV_FP16;
      return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                              "vLLM has no such KV cache type (it offers FP16/BF16 and FP8)");
    }

  /* vLLM budgets on the total the driver reports, not the nominal size. */
  cuda_total = input->device->kind == HR_DEVICE_DISCRETE
               ? input->device->memory_bytes - (guint64) (HR_CUDA_UNREPORTED_GIB * HR_GIB)
               : input->device->memory_bytes;

  hr_vllm_params_init_default (&params, input->context);
  params.max_num_seqs = input->batch;
  if (input->options.gpu_memory_utilization > 0)
    params.gpu_memory_utilization = input->options.gpu_memory_utilization;
  if (input->options.max_num_batched_tokens > 0)
    params.max_num_batched_tokens = input->options.max_num_batched_tokens;

  kv_fraction = hr_profile_kv_device_fraction (model, n_gpus, &heads_per_device);
  /* vLLM pages a full-attention cache for every layer. */
  kv_per_token_dev = hr_kv_bytes_per_token (model, bpe) * kv_fraction;
  hr_vllm_memory (model, hr_profile_ffn_width (input), cuda_total,
                  (guint64) llround (weights / n_gpus), kv_per_token_dev, n_gpus, &params, &m);

  result->kv_bytes_per_element = bpe;
  result->kv_device_fraction = kv_fraction;
  result->kv_capacity_tokens = m.kv_capacity_tokens;
  result->max_concurrency = m.max_concurrency;
  result->kv_heads_per_device = heads_per_device;
  result->kv_replicated = model->attention != HR_ATTENTION_MLA &&
                          (guint64) heads_per_device * n_gpus > model->n_kv_heads;
  result->per_device_weights_bytes = (guint64) llround (weights / n_gpus);
  result->per_device_kv_bytes = m.kv_cache_bytes;
  result->per_device_overhead_bytes = m.activation_peak_bytes + m.non_torch_bytes +
                                      m.cuda_graph_bytes;
  result->kv_bytes = m.kv_cache_bytes * n_gpus;
  result->overhead_bytes = result->per_device_overhead_bytes * n_gpus;
  result->max_context = m.kv_capacity_tokens;
  result->budget_bytes = m.budget_bytes;
  result->activation_bytes = m.activation_peak_bytes;
  result->non_torch_bytes = m.non_torch_bytes;
  result->cuda_graph_bytes = m.cuda_graph_bytes;
  result->gpu_memory_utilization = params.gpu_memory_utilization;
  result->block_size = params.block_size;

  if (!hr_profile_finish (input, result, weights,
                          hr_kv_bytes (model, input->context, input->batch, bpe),
                          model->params_active / model->params_total * weights / n_gpus,
                          hr_kv_bytes (model, input->context, 1, bpe) * kv_fraction,
                          HR_DECODE_FIXED_SECONDS, error))
    return FALSE;

  /* vLLM refuses to start when one sequence of max_model_len does not fit
   * the cache; it fits tightly when fewer than the requested sequences
   * can run at once. */
  if (m.kv_cache_bytes == 0 || m.kv_capacity_tokens < input->context)
    result->verdict = HR_VERDICT_NO_FIT;
  else if (m.max_concurrency < input->batch)
    result->verdict = HR_VERDICT_TIGHT;
  else
    result->verdict = HR_VERDICT_COMFORTABLE;
  return TRUE;
}

static void
vllm_explain (const HrEstimateInput *input,
              const HrEstimate      *result,
              HrFormulas            *f)
{
  g_autofree char *weights = hr_formulas_size (f, result->weights_bytes);
  g_autofree char *nominal = hr_formulas_nominal_weights (input, result, f);
  g_autofree char *budget = hr_formulas_size (f, result->budget_bytes);
  g_autofree char *weights_dev = hr_formulas_size (f, result->per_device_weights_bytes);
  g_autofree char *activation = hr_formulas_size (f, result->activation_bytes);
  g_autofree char *non_torch = hr_formulas_size (f, result->non_torch_bytes);
  g_autofree char *graphs = hr_formulas_size (f, result->cuda_graph_bytes);
  g_autofree char *overhead = hr_formulas_size (f, result->per_device_overhead_bytes);
  g_autofree char *kv_dev = hr_formulas_size (f, result->per_device_kv_bytes);
  g_autofree char *capacity = hr_format_tokens (result->kv_capacity_tokens);
  g_autofree char *per_token = hr_format_tokens ((guint64) llround (result->kv_bytes_per_token *
                                                                    result->kv_device_fraction));

  hr_formulas_set (f, HR_FORMULA_WEIGHTS,
                   g_strdup_printf (_("%s tensor by tensor, as the engine loads them "
                                      "(nominal: %s)"), weights, nominal));
  /* TRANSLATORS: "budget 21.22 GiB − weights 14.99 GiB − activations 2.07 GiB − non-torch 0.35 GiB = KV cache 3.81 GiB per device" */
  hr_formulas_set (f, HR_FORMULA_KV,
                   g_strdup_printf (_("budget %s (%.0f %% of the memory CUDA reports) − weights "
                                      "%s − activations %s − non-torch %s = KV cache %s per "
                                      "device"),
                                    budget, result->gpu_memory_utilization * 100, weights_dev,
                                    activation, non_torch, kv_dev));
  /* TRANSLATORS: "activation peak 2.07 GiB + non-torch 0.35 GiB + CUDA graphs 0.50 GiB = 2.92 GiB per device" */
  hr_formulas_set (f, HR_FORMULA_OVERHEAD,
                   g_strdup_printf (_("activation peak %s + non-torch %s + CUDA graphs %s = "
                                      "%s per device"),
                                    activation, non_torch, graphs, overhead));
  /* TRANSLATORS: "KV cache 3.82 GiB ÷ 131,072 B per token = 31,312 tokens, in blocks of 16" */
  hr_formulas_set (f, HR_FORMULA_MAX_CONTEXT,
                   g_strdup_printf (_("KV cache %s ÷ %s B per token = %s tokens, in blocks "
                                      "of %u"), kv_dev, per_token, capacity,
                                    result->block_size));
}

const HrEngineProfile hr_profile_vllm = {
  .engine = HR_ENGINE_VLLM,
  .estimate = vllm_estimate,
  .explain = vllm_explain,
};
