/* hr-profile-llamacpp.c — llama-server: exact GGUF weights and llama.cpp's buffers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layers are split across devices (llama.cpp's default layer split), the
 * token embeddings stay in host memory, each device keeps a compute
 * buffer and the backend's reserve.  The buffers come from
 * hr-llamacpp-memory.c; this module turns them into an estimate, for
 * llama-server's own launch and, through the launch callback, Ollama's.
 */

#define G_LOG_DOMAIN "hr-profile-llamacpp"

#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "hr-estimate-constants.h"
#include "hr-profile-common.h"
#include "hr-profile-llamacpp.h"

/* llama.cpp at batch 1 on data-centre GPUs is kernel-bound; elsewhere the
 * shared fixed cost applies (hr-estimate-constants.h). */
static double
decode_fixed_seconds (const HrDevice *device)
{
  return device->family == HR_FAMILY_NVIDIA_DATACENTER
         ? HR_LLAMACPP_DATACENTER_FIXED_SECONDS
         : HR_DECODE_FIXED_SECONDS;
}

static guint64
per_device_bytes (const HrEstimateInput  *input,
                  double                  weights,
                  const HrLlamaCppMemory *m)
{
  double gpu_weights = MAX (0.0, weights - (double) m->host_bytes);

  return (guint64) llround (gpu_weights / input->n_gpus + (double) m->kv_bytes / input->n_gpus) +
         m->compute_bytes + m->reserve_bytes;
}

static gboolean
buffers_at (const HrEstimateInput  *input,
            HrLlamaCppLaunch        launch,
            guint64                 context,
            HrLlamaCppParams       *params,
            HrLlamaCppMemory       *memory,
            HrFix                  *fix,
            GError                **error)
{
  guint64 n_ctx;

  if (!launch (input, context, params, &n_ctx, fix, error))
    return FALSE;
  hr_llamacpp_memory (input->model, hr_profile_ffn_width (input), input->token_embd_bytes,
                      n_ctx, params, memory);
  return TRUE;
}

gboolean
hr_profile_llamacpp_run (const HrEstimateInput  *input,
                         HrEstimate             *result,
                         HrLlamaCppLaunch        launch,
                         GError                **error)
{
  const HrModelArch *model = input->model;
  guint32 n_gpus = input->n_gpus;
  HrLlamaCppParams params;
  HrLlamaCppMemory m;
  double weights = hr_profile_weights (input);
  double gpu_weights, bpe;
  guint64 usable = hr_device_usable_bytes (input->device);
  guint64 low, high, streams;

  if (!buffers_at (input, launch, input->context, &params, &m, &result->fix, error))
    return FALSE;

  /* The cache type llama.cpp really uses (Ollama falls back to F16). */
  bpe = params.kv_k_bytes_per_element;
  streams = params.kv_unified ? 1 : MAX (params.n_seq, 1);
  result->kv_bytes_per_element = bpe;
  result->kv_type_ignored = bpe != input->kv_bytes_per_element;
  result->kv_tokens = m.kv_cells / streams;
  result->kv_window_tokens = m.kv_swa_cells / streams;
  result->kv_device_fraction = 1.0 / n_gpus;
  result->reserve_bytes = m.reserve_bytes;
  result->host_weights_bytes = m.host_bytes;

  gpu_weights = MAX (0.0, weights - (double) m.host_bytes);
  result->kv_bytes = m.kv_bytes;
  result->compute_bytes = m.compute_bytes;
  result->host_bytes = m.host_bytes + m.output_bytes + m.host_compute_bytes;
  result->flash_attn = params.flash_attn;
  result->overhead_bytes = (m.compute_bytes + m.reserve_bytes) * n_gpus;
  result->per_device_weights_bytes = (guint64) llround (gpu_weights / n_gpus);
  result->per_device_kv_bytes = m.kv_bytes / n_gpus;
  result->per_device_overhead_bytes = m.compute_bytes + m.reserve_bytes;
  /* Layer split: every device holds whole heads of its own layers. */
  result->kv_heads_per_device = model->n_kv_heads;

  /* The largest context that fits, by bisection: the buffers grow with the
   * padded context in steps, so there is no closed form. */
  low = 0;
  high = HR_CONTEXT_MAX;
  while (low < high)
    {
      guint64 mid = low + (high - low + 1) / 2;
      HrLlamaCppParams at_params;
      HrLlamaCppMemory at;
      HrFix unused;

      if (buffers_at (input, launch, mid, &at_params, &at, &unused, NULL) &&
          per_device_bytes (input, weights, &at) <= usable)
        low = mid;
      else
        high = mid - 1;
    }
  result->max_context = low;
  /* Every layer within its window: the cache stops growing. */
  result->max_context_unbounded = low == HR_CONTEXT_MAX;

  return hr_profile_finish (input, result, weights,
                            hr_kv_bytes (model, input->context, input->batch, bpe),
                            model->params_active / model->params_total * gpu_weights / n_gpus,
                            hr_kv_bytes (model, input->context, 1, bpe) / n_gpus,
                            decode_fixed_seconds (input->device), error);
}

/* llama-server as Headroom's command starts it: --parallel N slots, each
 * with its own share of --ctx-size = context × N; the cache types of
 * --cache-type-k/-v; flash attention as asked, on by default. */
static gboolean
llamacpp_launch (const HrEstimateInput  *input,
                 guint64                 context,
                 HrLlamaCppParams       *params,
                 guint64                *n_ctx,
                 HrFix                  *fix,
                 GError                **error)
{
  double kv = input->kv_bytes_per_element;

  hr_llamacpp_params_init_default (params);
  params->n_seq = input->batch;
  params->kv_unified = FALSE;
  params->kv_k_bytes_per_element = kv;
  params->kv_v_bytes_per_element = kv;
  if (input->options.flash_attn != HR_FLASH_ATTN_DEFAULT)
    params->flash_attn = input->options.flash_attn == HR_FLASH_ATTN_ON;
  if (input->options.ubatch > 0)
    {
      params->n_ubatch = input->options.ubatch;
      params->n_batch = MAX (params->n_batch, params->n_ubatch);
    }
  /* llama_init_from_model: "quantized V cache was requested, but this
   * requires Flash Attention". */
  if (kv != 2.0 && !params->flash_attn)
    {
      *fix = HR_FIX_FLASH_ATTN_ON;
      return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                              "llama.cpp needs flash attention for a quantized V cache");
    }
  *n_ctx = context * input->batch;
  return TRUE;
}

static gboolean
llamacpp_estimate (const HrEstimateInput  *input,
                   HrEstimate             *result,
                   GError                **error)
{
  return hr_profile_llamacpp_run (input, result, llamacpp_launch, error);
}

void
hr_profile_llamacpp_explain (const HrEstimateInput *input,
                             const HrEstimate      *result,
                             HrFormulas            *f)
{
  g_autofree char *weights = hr_formulas_size (f, result->weights_bytes);
  g_autofree char *nominal = hr_formulas_nominal_weights (input, result, f);
  g_autofree char *compute = hr_formulas_size (f, result->compute_bytes);
  g_autofree char *reserve = hr_formulas_size (f, result->reserve_bytes);
  g_autofree char *overhead = hr_formulas_size (f, result->per_device_overhead_bytes);
  g_autofree char *usable = hr_formulas_size (f, result->usable_bytes);
  g_autofree char *max_ctx = hr_format_tokens (result->max_context);
  g_autofree char *kv = hr_formulas_kv_text (input, result, f, input->batch);

  /* TRANSLATORS: "4.92 GiB tensor by tensor, as the engine loads them (nominal: …)" */
  hr_formulas_set (f, HR_FORMULA_WEIGHTS,
                   g_strdup_printf (_("%s tensor by tensor, as the engine loads them "
                                      "(nominal: %s)"), weights, nominal));
  /* TRANSLATORS: the KV formula, then how llama.cpp pads the context */
  hr_formulas_set (f, HR_FORMULA_KV,
                   g_strdup_printf (_("%s; the context is padded to a multiple of %d cells"),
                                    kv, HR_LLAMACPP_CTX_PAD));
  /* TRANSLATORS: "compute buffer 0.50 GiB + backend reserve 0.45 GiB = 0.94 GiB per device" */
  hr_formulas_set (f, HR_FORMULA_OVERHEAD,
                   g_strdup_printf (_("compute buffer %s + backend reserve %s = %s per device"),
                                    compute, reserve, overhead));
  if (result->max_context_unbounded)
    hr_formulas_set (f, HR_FORMULA_MAX_CONTEXT,
                     g_strdup (_("Every layer keeps at most its window: the cache stops "
                                 "growing, memory never limits the context")));
  else
    /* TRANSLATORS: "The largest context whose padded cache and compute buffer still fit 11.81 GiB: 98,560 tokens" */
    hr_formulas_set (f, HR_FORMULA_MAX_CONTEXT,
                     g_strdup_printf (_("The largest context whose padded cache and compute "
                                        "buffer still fit %s: %s tokens"), usable, max_ctx));
}

const HrEngineProfile hr_profile_llamacpp = {
  .engine = HR_ENGINE_LLAMACPP,
  .estimate = llamacpp_estimate,
  .explain = hr_profile_llamacpp_explain,
};
