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
#include "hr-serving-speed.h"
#include "hr-parallel-layout.h"
#include "hr-vllm-memory.h"

static gboolean
vllm_estimate (const HrEstimateInput  *input,
               HrEstimate             *result,
               GError                **error)
{
  const HrModelArch *model = input->model;
  double bpe = input->kv_bytes_per_element;
  double weights = hr_profile_weights (input);
  double kv_fraction, kv_per_layer_token;
  HrVllmParams params;
  HrVllmMemory binding = { 0 };
  HrStage binding_stage = { 0 };
  HrLayout layout;
  guint32 heads_per_device, gpus;
  guint64 cuda_total;

  if (!hr_profile_serving_check (input, "vLLM", &layout, result, error))
    return FALSE;
  gpus = layout.tp * layout.pp;

  cuda_total = hr_cuda_total_bytes (input->device);
  hr_vllm_params_init_for_device (&params, input->context, cuda_total,
                                  input->small_batch_device);
  /* --max-num-seqs as the command writes it: the parallel sequences, or
   * the users a replica serves at once. */
  params.max_num_seqs = hr_serving_max_num_seqs (input, &layout);
  params.pp = layout.pp;
  /* An older vLLM, to check against its logs. */
  if (input->options.vllm_generation == HR_VLLM_V1_0_19)
    {
      params.generation = HR_VLLM_V1_0_19;
      params.gpu_memory_utilization = HR_VLLM_V0_GPU_MEMORY_UTILIZATION;
    }
  else if (input->options.vllm_generation == HR_VLLM_V0_6)
    {
      hr_vllm_params_init_v0 (&params, input->context);
      params.max_num_seqs = hr_serving_max_num_seqs (input, &layout);
    }
  if (input->options.gpu_memory_utilization > 0)
    params.gpu_memory_utilization = input->options.gpu_memory_utilization;
  if (input->options.max_num_batched_tokens > 0)
    params.max_num_batched_tokens = input->options.max_num_batched_tokens;
  /* Memory others keep (--reserve): vLLM V1 refuses to start when less is
   * free than the share it asks of the whole ("Free memory on device …
   * on startup is less than desired GPU memory utilization",
   * vllm/v1/worker/gpu_worker.py, init_device). */
  if (input->reserve_set[0] && params.generation != HR_VLLM_V0_6)
    {
      double asked = params.gpu_memory_utilization * (double) cuda_total;
      double free = MIN ((double) cuda_total,
                         (double) input->device->memory_bytes - (double) input->reserve_bytes[0]);

      if (asked > free)
        return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                                /* TRANSLATORS: GiB asked, the utilization, GiB free, the
                                 * utilization that fits */
                                _("vLLM asks for %.2f GiB (--gpu-memory-utilization %.2f) but "
                                  "only %.2f GiB are free: it refuses to start; %.2f or less "
                                  "fits"), asked / HR_GIB, params.gpu_memory_utilization,
                                free / HR_GIB, floor (free / (double) cuda_total * 100) / 100);
    }

  kv_fraction = hr_profile_kv_device_fraction (model, layout.tp, &heads_per_device);
  kv_per_layer_token = hr_kv_bytes_per_token (model, bpe) / model->n_layers * kv_fraction;

  /* Every stage sizes its own cache; the engine keeps the fewest blocks
   * (DefaultKVCacheConfigBuilder: "the smallest" over the ranks). */
  for (guint32 stage = 0; stage < layout.pp; stage++)
    {
      HrStage st;
      HrVllmMemory m;

      hr_layout_stage (input, &layout, HR_PP_REMAINDER_FRONT, weights, stage, &st);
      hr_vllm_memory (model, hr_profile_ffn_width (input), cuda_total,
                      (guint64) llround (st.weights_bytes),
                      kv_per_layer_token * st.n_layers, layout.tp, &params, &m);
      /* only the last stage samples */
      if (!st.last && layout.pp > 1)
        {
          HrVllmParams no_sampler = params;

          no_sampler.max_num_seqs = 1;
          hr_vllm_memory (model, hr_profile_ffn_width (input), cuda_total,
                          (guint64) llround (st.weights_bytes),
                          kv_per_layer_token * st.n_layers, layout.tp, &no_sampler, &m);
        }
      if (stage == 0 || m.kv_blocks < binding.kv_blocks)
        {
          binding = m;
          binding_stage = st;
        }
    }

  /* A hybrid: every recurrent layer of the stage holds one padded page
   * per sequence, out of the same pool as the KV blocks; the cache keeps
   * what the requested sequences' states leave. */
  if (model->n_state_layers > 0 && hr_model_arch_kv_layers (model) > 0)
    {
      HrStateCell state = hr_model_arch_state_cell_tp (model, layout.tp);
      double attn_1 = hr_kv_cell_bytes (hr_model_arch_kv_cell (model), bpe, bpe) * kv_fraction;
      double mamba = (state.conv_elements + state.ssm_elements) *
                     HR_VLLM_STATE_BYTES_PER_ELEMENT;
      double page, per_seq, kv_left;
      double state_layers = (double) model->n_state_layers * binding_stage.n_layers /
                            model->n_layers;
      double seqs = MAX (input->batch, 1);

      params.block_size = hr_vllm_hybrid_block_size (attn_1, mamba, params.block_size, &page);
      per_seq = page * state_layers;
      kv_left = MAX ((double) binding.kv_cache_bytes - per_seq * seqs, 0.0);
      binding.kv_capacity_tokens = kv_per_layer_token > 0 && binding_stage.n_layers > 0
        ? (guint64) floor (kv_left / (kv_per_layer_token * binding_stage.n_layers) /
                           params.block_size) * params.block_size
        : 0;
      binding.max_concurrency = (double) binding.kv_cache_bytes /
                                ((double) input->context * kv_per_layer_token *
                                 binding_stage.n_layers + per_seq);
      result->per_device_state_bytes = hr_round_bytes (per_seq * seqs);
      result->state_bytes_per_sequence = hr_round_bytes (per_seq * gpus);
      result->state_bytes = result->per_device_state_bytes * gpus * layout.dp;
    }

  result->layout = layout;
  result->max_num_seqs = params.max_num_seqs;
  result->max_num_batched_tokens = params.max_num_batched_tokens;
  result->kv_bytes_per_element = bpe;
  result->kv_device_fraction = kv_fraction * binding_stage.n_layers / model->n_layers;
  result->kv_capacity_tokens = binding.kv_capacity_tokens;
  result->max_concurrency = binding.max_concurrency;
  result->kv_heads_per_device = heads_per_device;
  result->kv_replicated = model->attention != HR_ATTENTION_MLA &&
                          (guint64) heads_per_device * layout.tp > model->n_kv_heads;
  result->per_device_weights_bytes = binding.weights_bytes;
  /* the cache each GPU allocates: the common block count */
  result->per_device_kv_bytes = hr_round_bytes ((double) binding.kv_capacity_tokens *
                                                kv_per_layer_token * binding_stage.n_layers);
  result->per_device_overhead_bytes = binding.activation_peak_bytes + binding.non_torch_bytes +
                                      binding.cuda_graph_bytes;
  result->kv_bytes = result->per_device_kv_bytes * gpus * layout.dp;
  result->overhead_bytes = result->per_device_overhead_bytes * gpus * layout.dp;
  result->max_context = binding.kv_capacity_tokens;
  result->budget_bytes = binding.budget_bytes;
  result->activation_bytes = binding.activation_peak_bytes;
  result->non_torch_bytes = binding.non_torch_bytes;
  result->cuda_graph_bytes = binding.cuda_graph_bytes;
  result->gpu_memory_utilization = params.gpu_memory_utilization;
  result->block_size = params.block_size;

  /* One stream's speed on this layout. */
  hr_serving_time (input, &layout, (double) binding.weights_bytes, binding_stage.first,
                   binding_stage.n_layers, params.max_num_batched_tokens, result);

  if (!hr_profile_finish (input, result, weights * layout.dp,
                          hr_kv_bytes (model, input->context, input->batch, bpe),
                          model->params_active / model->params_total * binding.weights_bytes,
                          hr_kv_bytes (model, input->context, 1, bpe) * kv_fraction *
                          binding_stage.n_layers / model->n_layers,
                          HR_DECODE_FIXED_SECONDS, error))
    return FALSE;

  /* vLLM refuses to start when one sequence of max_model_len does not fit
   * the cache.  It fits comfortably when the cache holds the requested
   * sequences with the same 10 % to spare as the other profiles' rule,
   * tightly when it just holds them. */
  result->verdict = hr_serving_verdict (binding.kv_cache_bytes > 0 &&
                                        binding.kv_capacity_tokens >= input->context,
                                        input->batch, binding.max_concurrency);
  return TRUE;
}

static void
vllm_explain (const HrEstimateInput *input,
              const HrEstimate      *result,
              HrFormulas            *f)
{
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

  hr_formulas_set_engine_weights (input, result, f);
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
