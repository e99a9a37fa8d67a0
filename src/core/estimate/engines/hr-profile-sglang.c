/* hr-profile-sglang.c — SGLang: a static pool of weights and KV cache
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SGLang takes --mem-fraction-static of the memory free at start for the
 * weights and the KV pool (hr-sglang-memory.c); activations and CUDA
 * graphs live in the rest.  Layouts as vLLM's (tensor parallel, pipeline
 * stages with the remainder on the last ones, replicas); like vLLM it
 * fits when one sequence of the context fits the pool.
 */

#define G_LOG_DOMAIN "hr-profile-sglang"

#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "hr-estimate-constants.h"
#include "hr-parallel-layout.h"
#include "hr-profile.h"
#include "hr-profile-common.h"
#include "hr-serving-speed.h"
#include "hr-sglang-memory.h"

static gboolean
sglang_estimate (const HrEstimateInput  *input,
                 HrEstimate             *result,
                 GError                **error)
{
  const HrModelArch *model = input->model;
  double bpe = input->kv_bytes_per_element;
  double weights = hr_profile_weights (input);
  double kv_fraction, kv_per_layer_token;
  HrSglangParams params = { 0 };
  HrSglangMemory binding = { 0 };
  HrStage binding_stage = { 0 };
  HrLayout layout;
  guint32 heads_per_device, gpus;
  guint64 cuda_total;

  if (!hr_profile_serving_check (input, "SGLang", &layout, result, error))
    return FALSE;
  gpus = layout.tp * layout.pp;
  cuda_total = hr_cuda_total_bytes (input->device);

  params.tp = layout.tp;
  params.pp = layout.pp;
  params.context_len = input->context;
  /* --mem-fraction-static, shared with vLLM's utilization control */
  params.mem_fraction_static = input->options.gpu_memory_utilization;
  if (input->options.max_num_batched_tokens > 0)
    params.chunked_prefill_size = (guint32) MIN (input->options.max_num_batched_tokens,
                                                 (guint64) G_MAXUINT32);

  kv_fraction = hr_profile_kv_device_fraction (model, layout.tp, &heads_per_device);
  kv_per_layer_token = hr_kv_bytes_per_token (model, bpe) / model->n_layers * kv_fraction;

  for (guint32 stage = 0; stage < layout.pp; stage++)
    {
      HrStage st;
      HrSglangMemory m;

      hr_layout_stage (input, &layout, HR_PP_REMAINDER_BACK, weights, stage, &st);
      if (model->n_state_layers > 0)
        {
          HrStateCell c = hr_model_arch_state_cell_tp (model, layout.tp);

          params.state_bytes_per_request =
            (c.conv_elements * HR_SGLANG_CONV_BYTES_PER_ELEMENT +
             c.ssm_elements * HR_SGLANG_SSM_BYTES_PER_ELEMENT) *
            model->n_state_layers * st.n_layers / model->n_layers;
        }
      hr_sglang_memory (cuda_total, (guint64) llround (st.weights_bytes),
                        kv_per_layer_token * st.n_layers, &params, &m);
      if (stage == 0 || m.max_total_num_tokens < binding.max_total_num_tokens)
        {
          binding = m;
          binding_stage = st;
        }
    }

  result->layout = layout;
  result->max_num_seqs = binding.max_running_requests;
  result->max_num_batched_tokens = binding.chunked_prefill_size;
  result->kv_bytes_per_element = bpe;
  result->kv_device_fraction = kv_fraction * binding_stage.n_layers / model->n_layers;
  result->kv_capacity_tokens = binding.max_total_num_tokens;
  result->max_concurrency = (double) binding.max_total_num_tokens / input->context;
  result->kv_heads_per_device = heads_per_device;
  result->kv_replicated = model->attention != HR_ATTENTION_MLA &&
                          (guint64) heads_per_device * layout.tp > model->n_kv_heads;
  result->per_device_weights_bytes = hr_round_bytes (binding_stage.weights_bytes);
  result->per_device_kv_bytes = binding.kv_pool_bytes;
  result->per_device_state_bytes = binding.mamba_pool_bytes;
  result->state_bytes = binding.mamba_pool_bytes * gpus * layout.dp;
  if (binding.max_mamba_cache_size > 0)
    {
      result->state_bytes_per_sequence = hr_round_bytes ((double) binding.mamba_pool_bytes /
                                                         binding.max_mamba_cache_size * gpus);
      /* a request needs a state slot as well as its tokens */
      result->max_num_seqs = (guint32) MIN ((guint64) result->max_num_seqs,
                                            binding.max_mamba_cache_size);
    }
  result->per_device_overhead_bytes = binding.dynamic_bytes +
                                      (cuda_total - binding.free_at_start_bytes);
  result->kv_bytes = result->per_device_kv_bytes * gpus * layout.dp;
  result->overhead_bytes = result->per_device_overhead_bytes * gpus * layout.dp;
  result->max_context = binding.max_total_num_tokens;
  result->budget_bytes = binding.static_bytes;
  result->activation_bytes = binding.dynamic_bytes;
  result->gpu_memory_utilization = binding.mem_fraction_static;
  result->block_size = 1;

  /* One stream's speed on this layout. */
  hr_serving_time (input, &layout, binding_stage.weights_bytes, binding_stage.first,
                   binding_stage.n_layers, binding.chunked_prefill_size, result);

  if (!hr_profile_finish (input, result, weights * layout.dp,
                          hr_kv_bytes (model, input->context, input->batch, bpe),
                          model->params_active / model->params_total *
                          binding_stage.weights_bytes,
                          hr_kv_bytes (model, input->context, 1, bpe) * kv_fraction *
                          binding_stage.n_layers / model->n_layers,
                          HR_DECODE_FIXED_SECONDS, error))
    return FALSE;

  result->verdict = hr_serving_verdict (binding.max_total_num_tokens >= input->context,
                                        input->batch, result->max_concurrency);
  return TRUE;
}

static void
sglang_explain (const HrEstimateInput *input,
                const HrEstimate      *result,
                HrFormulas            *f)
{
  g_autofree char *pool = hr_formulas_size (f, result->budget_bytes);
  g_autofree char *weights_dev = hr_formulas_size (f, result->per_device_weights_bytes);
  g_autofree char *kv_dev = hr_formulas_size (f, result->per_device_kv_bytes);
  g_autofree char *dynamic = hr_formulas_size (f, result->activation_bytes);
  g_autofree char *overhead = hr_formulas_size (f, result->per_device_overhead_bytes);
  g_autofree char *capacity = hr_format_tokens (result->kv_capacity_tokens);

  hr_formulas_set_engine_weights (input, result, f);
  /* TRANSLATORS: "static pool 65.12 GiB (83.5 % of the free memory) − weights 14.99 GiB = KV pool 50.13 GiB per device" */
  hr_formulas_set (f, HR_FORMULA_KV,
                   g_strdup_printf (_("static pool %s (%.1f %% of the memory free at start) − "
                                      "weights %s = KV pool %s per device"),
                                    pool, result->gpu_memory_utilization * 100, weights_dev,
                                    kv_dev));
  /* TRANSLATORS: "activations and CUDA graphs 12.9 GiB + CUDA context = 13.4 GiB per device" */
  hr_formulas_set (f, HR_FORMULA_OVERHEAD,
                   g_strdup_printf (_("activations and CUDA graphs %s + the CUDA context = %s "
                                      "per device"), dynamic, overhead));
  /* TRANSLATORS: "KV pool 50.13 GiB = 410,612 tokens" */
  hr_formulas_set (f, HR_FORMULA_MAX_CONTEXT,
                   g_strdup_printf (_("KV pool %s = %s tokens"), kv_dev, capacity));
}

const HrEngineProfile hr_profile_sglang = {
  .engine = HR_ENGINE_SGLANG,
  .estimate = sglang_estimate,
  .explain = sglang_explain,
};
