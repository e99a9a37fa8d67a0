/* hr-profile-common.c — the steps every engine profile shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Totals and shares, the verdict, decode speed, the multi-head comparison
 * and the closed-form max context: what is the same whichever engine
 * allocates the memory.
 */

#define G_LOG_DOMAIN "hr-profile"

#include "config.h"

#include <math.h>

#include "hr-estimate-constants.h"
#include "hr-profile-common.h"
#include "hr-speed.h"

gboolean
hr_profile_fail (GError          **error,
                 HrEstimateError   code,
                 const char       *format,
                 ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (HR_ESTIMATE_ERROR, code, format, args));
  va_end (args);
  return FALSE;
}

gboolean
hr_profile_to_bytes (double      value,
                     const char *what,
                     guint64    *out,
                     GError    **error)
{
  if (!isfinite (value) || value < 0 || value >= HR_BYTES_LIMIT)
    return hr_profile_fail (error, HR_ESTIMATE_ERROR_INVALID,
                            "%s would exceed 4 EiB; the inputs are out of range", what);
  *out = (guint64) llround (value);
  return TRUE;
}

/* Fraction of the whole KV cache each device holds under tensor
 * parallelism.  KV heads are split across devices, but a head cannot be
 * split: with fewer KV heads than devices every device keeps a whole head
 * (replication).  An MLA latent is shared by all heads, so every device
 * keeps all of it. */
double
hr_profile_kv_device_fraction (const HrModelArch *model,
                               guint32            n_gpus,
                               guint32           *heads_per_device)
{
  guint32 heads;

  if (model->attention == HR_ATTENTION_MLA)
    {
      *heads_per_device = model->n_heads;
      return 1.0;
    }

  heads = (model->n_kv_heads + n_gpus - 1) / n_gpus;
  *heads_per_device = heads;
  return (double) heads / model->n_kv_heads;
}

/* Largest context whose KV fits @budget bytes.  The cache grows by
 * @per_layer_token bytes per token and layer while every layer is below
 * the window, and on global layers only once the window is full. */
guint64
hr_profile_solve_max_context (const HrModelArch *model,
                              double             budget,
                              double             per_layer_token,
                              gboolean          *unbounded)
{
  guint32 global = hr_model_arch_global_layers (model);
  guint32 local = model->n_layers - global;
  double slope_all = per_layer_token * model->n_layers;
  double tokens;

  *unbounded = FALSE;

  if (budget < slope_all)
    return 0;

  tokens = floor (budget / slope_all);
  if (local > 0 && tokens > model->sliding_window)
    {
      double full_window = slope_all * model->sliding_window;

      if (global == 0)
        {
          *unbounded = TRUE;
          return HR_CONTEXT_MAX;
        }
      tokens = model->sliding_window +
               floor ((budget - full_window) / (per_layer_token * global));
    }

  if (tokens >= HR_CONTEXT_MAX)
    return HR_CONTEXT_MAX;

  return (guint64) tokens;
}

/* The weights an engine loads: tensor-exact where known, else nominal. */
double
hr_profile_weights (const HrEstimateInput *input)
{
  if (input->weights_bytes > 0)
    return (double) input->weights_bytes;
  return input->model->params_total * input->bpw / 8.0;
}

guint64
hr_profile_ffn_width (const HrEstimateInput *input)
{
  /* Without a width from the catalog, the common 4 × hidden. */
  return input->ffn_width > 0 ? input->ffn_width : 4ull * input->model->hidden;
}

/* System memory: the user's figures, or the stated assumption; on
 * unified memory the device's own pool. */
void
hr_profile_ram (const HrEstimateInput *input,
                HrEstimate            *result)
{
  const HrDevice *device = input->device;
  double reserve = HR_RAM_SYSTEM_RESERVE_GIB * HR_GIB;

  if (device->kind == HR_DEVICE_UNIFIED)
    {
      /* One pool: what the GPU does not wire is the CPU's. */
      result->ram_bytes = device->memory_bytes;
      result->ram_bandwidth_gbps = device->bandwidth_gbps;
    }
  else
    {
      result->ram_bytes = input->ram.bytes > 0 ? input->ram.bytes
                                               : (guint64) (HR_RAM_DEFAULT_GIB * HR_GIB);
      result->ram_bandwidth_gbps = input->ram.bandwidth_gbps > 0
                                   ? input->ram.bandwidth_gbps
                                   : HR_RAM_DEFAULT_BANDWIDTH_GBPS;
    }
  /* On unified memory the GPU's share of the pool is not the CPU's too:
   * layers left to the CPU get what the GPU and the system leave. */
  if (device->kind == HR_DEVICE_UNIFIED)
    reserve = MIN (reserve, HR_RAM_UNIFIED_RESERVE_SHARE * (double) device->memory_bytes) +
              (double) hr_estimate_input_usable (input, 0);
  result->ram_usable_bytes = (double) result->ram_bytes > reserve
                             ? result->ram_bytes - (guint64) reserve : 0;
}

double
hr_decode_efficiency (HrHardwareFamily family)
{
  g_return_val_if_fail (family < HR_N_FAMILIES, 0);
  return hr_decode_efficiency_by_family[family];
}

double
hr_profile_layer_params (const HrEstimateInput *input)
{
  const HrModelArch *a = input->model;
  double table = (double) a->vocab * a->hidden;

  /* the embedding table is not a product; an untied head is one, but not
   * of the repeating layers */
  return MAX (a->params_active - table * (input->tied_embeddings ? 1 : 2), a->params_active * 0.1);
}

void
hr_profile_time (const HrEstimateInput      *input,
                 HrEstimate                 *result,
                 const struct _HrSpeedInput *speed)
{
  HrSpeedToken token;
  HrSpeedRange range;
  /* The prompt sits on top of the depth; by default it fills the rest of
   * the context (hr_estimate() checked that both fit). */
  guint64 cached = MIN ((guint64) speed->depth, input->context - 1);
  guint64 prompt = input->prompt_tokens > 0 ? input->prompt_tokens : input->context - cached;
  double depth = (double) cached;
  guint64 generate = input->generate_tokens > 0 ? input->generate_tokens : HR_DEFAULT_GENERATE;
  double prefill;

  result->backend = speed->backend;
  result->depth = speed->depth;
  hr_speed_token (speed, (double) input->context, &token);
  result->decode_tokens_per_s = 1.0 / token.total_seconds;
  result->decode_gpu_seconds = token.stream_seconds + token.cache_seconds;
  result->decode_cache_seconds = token.cache_seconds;
  result->decode_cpu_seconds = token.cpu_seconds;
  result->decode_fixed_seconds = token.fixed_seconds;
  result->decode_efficiency = hr_device_backend (input->device) == HR_BACKEND_METAL
                              ? HR_SPEED_ETA_W_METAL : HR_SPEED_ETA_W_CUDA;

  /* The prompt on top of the cached tokens, then the first token; the answer's
   * tokens at growing depth (the per-token time is linear in the depth,
   * so G tokens take G times the one in their middle). */
  prefill = hr_speed_prefill_seconds (speed, prompt);
  result->prompt_tokens = prompt;
  result->generate_tokens = generate;
  result->prefill_tokens_per_s = prefill > 0 ? prompt / prefill : 0;
  result->ttft_seconds = prefill + hr_speed_token_seconds (speed, depth + prompt);
  result->generation_seconds = generate *
                               hr_speed_token_seconds (speed, depth + prompt +
                                                              (generate - 1) / 2.0);

  /* The range of each rate: its group's measured error (none where no
   * measured rows back the group). */
  hr_speed_range (speed, (double) input->context, speed->depth + prompt / 2.0, &range);
  result->speed_group = range.name;
  result->speed_group_rows = range.rows;
  result->decode_tokens_per_s_low = range.decode_low * result->decode_tokens_per_s;
  result->decode_tokens_per_s_high = range.decode_high * result->decode_tokens_per_s;
  result->prefill_tokens_per_s_low = range.prefill_low * result->prefill_tokens_per_s;
  result->prefill_tokens_per_s_high = range.prefill_high * result->prefill_tokens_per_s;
}

static HrVerdict
verdict_for (guint64 per_device,
             guint64 usable)
{
  if ((double) per_device <= HR_COMFORTABLE_FRACTION * (double) usable)
    return HR_VERDICT_COMFORTABLE;
  if (per_device <= usable)
    return HR_VERDICT_TIGHT;
  return HR_VERDICT_NO_FIT;
}

/**
 * hr_profile_finish:
 * @kv_total_one: one copy of the whole cache (no replicas), for the saving
 * @active_dev: weight bytes one device reads per decode step
 * @kv_decode_dev: cache bytes one device reads per decode step
 *
 * Fills what every profile shares once the per-device parts are known:
 * totals, shares, usable memory, verdict, speed and the MHA comparison.
 */
gboolean
hr_profile_finish (const HrEstimateInput  *input,
                   HrEstimate             *result,
                   double                  weights,
                   double                  kv_total_one,
                   double                  active_dev,
                   double                  kv_decode_dev,
                   double                  decode_fixed_seconds,
                   GError                **error)
{
  const HrModelArch *model = input->model;
  double total, bandwidth;

  if (!hr_profile_to_bytes (weights, "the weights", &result->weights_bytes, error) ||
      !hr_profile_to_bytes (hr_kv_mha_bytes (model, input->context, input->batch),
                            "the MHA baseline", &result->kv_mha_bytes, error))
    return FALSE;

  result->nominal_weights_bytes = hr_round_bytes (model->params_total * input->bpw / 8.0);
  result->per_device_bytes = result->per_device_weights_bytes +
                             result->per_device_kv_bytes +
                             result->per_device_state_bytes +
                             result->per_device_overhead_bytes +
                             result->per_device_mmproj_bytes +
                             result->per_device_draft_bytes +
                             result->per_device_lora_bytes;
  result->total_bytes = result->weights_bytes + result->kv_bytes + result->state_bytes +
                        result->overhead_bytes;
  /* the shares are of the model's own memory; a projector, a draft and
   * adapters come on top */
  total = (double) result->total_bytes;
  result->total_bytes += result->mmproj_bytes + result->draft_bytes + result->lora_bytes;
  result->weights_share = result->weights_bytes / total;
  result->kv_share = result->kv_bytes / total;
  result->state_share = result->state_bytes / total;
  result->overhead_share = result->overhead_bytes / total;

  result->usable_bytes = hr_estimate_input_usable (input, result->fullest_device);
  if (result->per_device_bytes <= result->usable_bytes)
    result->free_bytes = result->usable_bytes - result->per_device_bytes;
  else
    result->excess_bytes = result->per_device_bytes - result->usable_bytes;
  result->device_share = (double) result->per_device_bytes /
                         (double) hr_estimate_input_gpu (input, result->fullest_device)->memory_bytes;
  result->verdict = verdict_for (result->per_device_bytes, result->usable_bytes);
  result->max_context_past_trained = result->max_context > model->max_context;

  /* Profiles without a placement of their own hold every layer on every
   * device (tensor parallelism shards each layer). */
  if (result->n_devices == 0)
    {
      result->n_devices = MIN (input->n_gpus, HR_MAX_DEVICES);
      result->gpu_layers = result->layer_count = model->n_layers + 1;
      result->placement = input->n_gpus > 1 ? HR_PLACEMENT_SPLIT : HR_PLACEMENT_GPU;
      for (guint32 d = 0; d < result->n_devices; d++)
        result->devices[d] = (HrDeviceLoad) {
          .weights_bytes = result->per_device_weights_bytes,
          .kv_bytes = result->per_device_kv_bytes,
          .state_bytes = result->per_device_state_bytes,
          .compute_bytes = result->per_device_overhead_bytes,
          .total_bytes = result->per_device_bytes,
          .usable_bytes = result->usable_bytes,
          .reserve_bytes = input->device->memory_bytes - MIN (result->usable_bytes,
                                                              input->device->memory_bytes),
          .layers = model->n_layers + 1,
          .output_layer = TRUE,
        };
      hr_profile_ram (input, result);
      result->ram_fits = result->host_bytes <= result->ram_usable_bytes;
    }

  /* One decode step of one sequence reads every active weight once and the
   * whole cache up to the current position (taken as the context):
   * time per token = bytes / (efficiency × bandwidth) + a fixed cost. */
  /* The speed model (hr_profile_time) has timed it; or the seed page's
   * heuristic: the bytes read per token over a share of the bandwidth,
   * plus a fixed cost. */
  if (result->decode_tokens_per_s == 0)
    {
      result->decode_efficiency = hr_decode_efficiency (input->device->family);
      result->decode_fixed_seconds = decode_fixed_seconds;
      bandwidth = input->device->bandwidth_gbps * HR_GB * result->decode_efficiency;
      result->bytes_per_token = active_dev + kv_decode_dev;
      result->decode_gpu_seconds = result->bytes_per_token / bandwidth;
      result->decode_tokens_per_s = 1.0 / (result->decode_gpu_seconds + decode_fixed_seconds);
    }

  result->kv_cell = hr_model_arch_kv_cell (model);
  result->kv_bytes_per_token = hr_kv_bytes_per_token (model, result->kv_bytes_per_element);
  /* Against one copy of the cache: replicas are a parallelism cost, not
   * an architectural one. */
  result->kv_savings = result->kv_mha_bytes > 0
                       ? 1.0 - kv_total_one / result->kv_mha_bytes
                       : 0;
  return TRUE;
}

const HrDevice *
hr_estimate_input_gpu (const HrEstimateInput *input,
                       guint32                d)
{
  g_return_val_if_fail (input != NULL, NULL);

  if (d < HR_MAX_DEVICES && input->gpu_devices[d] != NULL)
    return input->gpu_devices[d];
  return input->device;
}

/**
 * hr_estimate_input_usable:
 *
 * What GPU @d can give the model: its memory less the reserve asked for
 * it (--reserve: the desktop, other processes; on an Apple chip the RAM
 * above the wired limit, on an AMD APU the RAM outside the GPU's pool),
 * or by default less its kind's (hr_device_usable_bytes).
 */
guint64
hr_estimate_input_usable (const HrEstimateInput *input,
                          guint32                d)
{
  const HrDevice *device = hr_estimate_input_gpu (input, d);

  g_return_val_if_fail (device != NULL, 0);

  if (d < HR_MAX_DEVICES && input->reserve_set[d])
    return device->memory_bytes > input->reserve_bytes[d]
           ? device->memory_bytes - input->reserve_bytes[d] : 0;
  return hr_device_usable_bytes (device);
}

/* Whether two GPUs of the input differ (a device list of several kinds). */
gboolean
hr_estimate_input_mixed (const HrEstimateInput *input)
{
  g_return_val_if_fail (input != NULL, FALSE);

  for (guint32 d = 1; d < MIN (input->n_gpus, HR_MAX_DEVICES); d++)
    if (memcmp (hr_estimate_input_gpu (input, d), hr_estimate_input_gpu (input, 0),
                sizeof (HrDevice)) != 0)
      return TRUE;
  return FALSE;
}
