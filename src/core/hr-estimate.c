/* hr-estimate.c — the estimator: pure functions over plain structs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-estimate"

#include "config.h"

#include <math.h>

#include "hr-estimate.h"
#include "hr-estimate-constants.h"

G_DEFINE_QUARK (hr-estimate-error-quark, hr_estimate_error)

/* Anything at or above this many bytes is refused rather than rounded:
 * 2^62 B (4 EiB) is far beyond any machine and well inside guint64. */
#define BYTES_LIMIT 4.611686018427387904e18

static const char * const engine_names[] = {
  [HR_ENGINE_GENERIC] = "generic",
  [HR_ENGINE_LLAMACPP] = "llamacpp",
  [HR_ENGINE_OLLAMA] = "ollama",
  [HR_ENGINE_VLLM] = "vllm",
};

static const char * const attention_names[] = {
  [HR_ATTENTION_MHA] = "mha",
  [HR_ATTENTION_GQA] = "gqa",
  [HR_ATTENTION_MQA] = "mqa",
  [HR_ATTENTION_MLA] = "mla",
};

static const char * const family_names[] = {
  [HR_FAMILY_NVIDIA_GEFORCE] = "nvidia-geforce",
  [HR_FAMILY_NVIDIA_WORKSTATION] = "nvidia-workstation",
  [HR_FAMILY_NVIDIA_DATACENTER] = "nvidia-datacenter",
  [HR_FAMILY_AMD_RADEON] = "amd-radeon",
  [HR_FAMILY_AMD_INSTINCT] = "amd-instinct",
  [HR_FAMILY_INTEL_ARC] = "intel-arc",
  [HR_FAMILY_APPLE_SILICON] = "apple-silicon",
};

static const char * const verdict_names[] = {
  [HR_VERDICT_COMFORTABLE] = "comfortable",
  [HR_VERDICT_TIGHT] = "tight",
  [HR_VERDICT_NO_FIT] = "no-fit",
};

static gboolean
lookup_name (const char * const *names,
             guint               n_names,
             const char         *str,
             int                *value)
{
  if (str == NULL)
    return FALSE;

  for (guint i = 0; i < n_names; i++)
    {
      if (g_ascii_strcasecmp (names[i], str) == 0)
        {
          *value = (int) i;
          return TRUE;
        }
    }

  return FALSE;
}

const char *
hr_engine_to_string (HrEngine engine)
{
  g_return_val_if_fail (engine < G_N_ELEMENTS (engine_names), NULL);
  return engine_names[engine];
}

gboolean
hr_engine_from_string (const char *str,
                       HrEngine   *engine)
{
  int value;

  if (!lookup_name (engine_names, G_N_ELEMENTS (engine_names), str, &value))
    return FALSE;
  *engine = value;
  return TRUE;
}

const char *
hr_attention_kind_to_string (HrAttentionKind kind)
{
  g_return_val_if_fail (kind < G_N_ELEMENTS (attention_names), NULL);
  return attention_names[kind];
}

gboolean
hr_attention_kind_from_string (const char      *str,
                               HrAttentionKind *kind)
{
  int value;

  if (!lookup_name (attention_names, G_N_ELEMENTS (attention_names), str, &value))
    return FALSE;
  *kind = value;
  return TRUE;
}

const char *
hr_hardware_family_to_string (HrHardwareFamily family)
{
  g_return_val_if_fail (family < G_N_ELEMENTS (family_names), NULL);
  return family_names[family];
}

gboolean
hr_hardware_family_from_string (const char       *str,
                                HrHardwareFamily *family)
{
  int value;

  if (!lookup_name (family_names, G_N_ELEMENTS (family_names), str, &value))
    return FALSE;
  *family = value;
  return TRUE;
}

const char *
hr_verdict_to_string (HrVerdict verdict)
{
  g_return_val_if_fail (verdict < G_N_ELEMENTS (verdict_names), NULL);
  return verdict_names[verdict];
}

static gboolean
invalid (GError    **error,
         const char *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError    **error,
         const char *format,
         ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (HR_ESTIMATE_ERROR,
                                                HR_ESTIMATE_ERROR_INVALID,
                                                format, args));
  va_end (args);
  return FALSE;
}

static gboolean
is_positive (double value)
{
  return isfinite (value) && value > 0;
}

gboolean
hr_model_arch_validate (const HrModelArch  *model,
                        GError            **error)
{
  g_return_val_if_fail (model != NULL, FALSE);

  if (model->n_layers == 0 || model->n_layers > HR_LAYERS_MAX)
    return invalid (error, "layer count %u is out of range (1–%u)",
                    model->n_layers, HR_LAYERS_MAX);
  if (model->hidden == 0)
    return invalid (error, "hidden size must be positive");
  if (model->n_heads == 0)
    return invalid (error, "query head count must be positive");
  if (model->attention != HR_ATTENTION_MLA)
    {
      if (model->n_kv_heads == 0)
        return invalid (error, "KV head count must be positive");
      if (model->n_kv_heads > model->n_heads ||
          model->n_heads % model->n_kv_heads != 0)
        return invalid (error, "%u KV heads do not divide %u query heads",
                        model->n_kv_heads, model->n_heads);
      if (model->attention == HR_ATTENTION_MQA && model->n_kv_heads != 1)
        return invalid (error, "multi-query attention has one KV head, not %u",
                        model->n_kv_heads);
      if (model->attention == HR_ATTENTION_MHA &&
          model->n_kv_heads != model->n_heads)
        return invalid (error, "multi-head attention needs as many KV heads "
                        "as query heads (%u ≠ %u)",
                        model->n_kv_heads, model->n_heads);
    }
  else if (model->kv_lora_rank == 0 || model->qk_rope_head_dim == 0)
    return invalid (error, "latent attention needs kv_lora_rank and "
                    "qk_rope_head_dim");
  if (model->head_dim_k == 0 || model->head_dim_v == 0)
    return invalid (error, "head dimension must be positive");
  if (model->swa_period > model->n_layers)
    return invalid (error, "sliding-window period %u exceeds %u layers",
                    model->swa_period, model->n_layers);
  if (model->vocab == 0)
    return invalid (error, "vocabulary size must be positive");
  if (model->max_context == 0 || model->max_context > HR_CONTEXT_MAX)
    return invalid (error, "trained context %" G_GUINT64_FORMAT
                    " is out of range", model->max_context);
  if (!is_positive (model->params_total) || model->params_total > 1e15)
    return invalid (error, "parameter count must be positive and below 10^15");
  if (!is_positive (model->params_active) ||
      model->params_active > model->params_total)
    return invalid (error, "active parameters must be positive and at most "
                    "the total");

  return TRUE;
}

guint32
hr_model_arch_local_layers (const HrModelArch *model)
{
  if (model->sliding_window == 0)
    return 0;
  if (model->swa_period == 0)
    return model->n_layers;
  return model->n_layers - model->n_layers / model->swa_period;
}

/* Bytes one token adds to one layer's cache. */
static double
kv_bytes_per_layer_token (const HrModelArch *model,
                          double             bytes_per_element)
{
  double elements;

  if (model->attention == HR_ATTENTION_MLA)
    elements = (double) model->kv_lora_rank + model->qk_rope_head_dim;
  else
    elements = (double) model->n_kv_heads *
               ((double) model->head_dim_k + model->head_dim_v);

  return elements * bytes_per_element;
}

double
hr_kv_bytes_per_token (const HrModelArch *model,
                       double             bytes_per_element)
{
  g_return_val_if_fail (model != NULL, 0);

  return kv_bytes_per_layer_token (model, bytes_per_element) * model->n_layers;
}

/* Layer-tokens held for one sequence: global layers hold every token,
 * sliding-window layers at most the window. */
static double
kv_layer_tokens (const HrModelArch *model,
                 guint64            context)
{
  guint32 local = hr_model_arch_local_layers (model);
  guint32 global = model->n_layers - local;
  guint64 local_tokens = MIN (context, (guint64) model->sliding_window);

  return (double) global * context + (double) local * local_tokens;
}

double
hr_kv_bytes (const HrModelArch *model,
             guint64            context,
             guint32            batch,
             double             bytes_per_element)
{
  g_return_val_if_fail (model != NULL, 0);

  return kv_bytes_per_layer_token (model, bytes_per_element) *
         kv_layer_tokens (model, context) * batch;
}

double
hr_kv_mha_bytes (const HrModelArch *model,
                 guint64            context,
                 guint32            batch)
{
  /* Standard multi-head attention in FP16 on every layer, no window:
   * one K and one V vector per query head. */
  g_return_val_if_fail (model != NULL, 0);

  return (double) model->n_heads *
         ((double) model->head_dim_k + model->head_dim_v) *
         HR_KV_BASELINE_BYTES_PER_ELEMENT *
         model->n_layers * (double) context * batch;
}

guint64
hr_device_usable_bytes (const HrDevice *device)
{
  double memory;

  g_return_val_if_fail (device != NULL, 0);

  memory = (double) device->memory_bytes;

  if (device->kind == HR_DEVICE_UNIFIED)
    {
      double share = memory <= HR_UNIFIED_SMALL_MEMORY_GIB * HR_GIB
                     ? HR_UNIFIED_GPU_SHARE_SMALL
                     : HR_UNIFIED_GPU_SHARE;
      return (guint64) floor (memory * share);
    }

  if (memory <= HR_DISCRETE_RESERVE_GIB * HR_GIB)
    return 0;

  return (guint64) floor (memory - HR_DISCRETE_RESERVE_GIB * HR_GIB);
}

double
hr_decode_efficiency (HrHardwareFamily family)
{
  g_return_val_if_fail (family < HR_N_FAMILIES, 0);
  return hr_decode_efficiency_by_family[family];
}

static double
overhead_per_device (const HrEstimateInput *input,
                     double                 weights_per_device)
{
  double fixed = input->device->kind == HR_DEVICE_UNIFIED
                 ? HR_OVERHEAD_FIXED_GIB - HR_OVERHEAD_UNIFIED_DISCOUNT_GIB
                 : HR_OVERHEAD_FIXED_GIB;

  return fixed * HR_GIB + HR_OVERHEAD_WEIGHTS_FRACTION * weights_per_device;
}

/* Fraction of the whole KV cache each device holds under tensor
 * parallelism.  KV heads are split across devices, but a head cannot be
 * split: with fewer KV heads than devices every device keeps a whole head
 * (replication).  An MLA latent is shared by all heads, so every device
 * keeps all of it. */
static double
kv_device_fraction (const HrModelArch *model,
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

static gboolean
to_bytes (double      value,
          const char *what,
          guint64    *out,
          GError    **error)
{
  if (!isfinite (value) || value < 0 || value >= BYTES_LIMIT)
    return invalid (error, "%s would exceed 4 EiB; the inputs are out of range",
                    what);
  *out = (guint64) llround (value);
  return TRUE;
}

static gboolean
validate_input (const HrEstimateInput  *input,
                GError                **error)
{
  if (input->model == NULL || input->device == NULL)
    return invalid (error, "a model and a device are required");
  if (!hr_model_arch_validate (input->model, error))
    return FALSE;
  if (!is_positive (input->bpw) || input->bpw > 64)
    return invalid (error, "bits per weight must be in (0, 64]");
  if (!is_positive (input->kv_bytes_per_element) ||
      input->kv_bytes_per_element > 8)
    return invalid (error, "KV bytes per element must be in (0, 8]");
  if (input->context < HR_CONTEXT_MIN || input->context > HR_CONTEXT_MAX)
    return invalid (error, "context %" G_GUINT64_FORMAT
                    " is out of range (1–%d tokens)",
                    input->context, HR_CONTEXT_MAX);
  if (input->batch == 0 || input->batch > HR_BATCH_MAX)
    return invalid (error, "parallel sequences %u out of range (1–%d)",
                    input->batch, HR_BATCH_MAX);
  if (input->n_gpus == 0 || input->n_gpus > HR_GPUS_MAX)
    return invalid (error, "GPU count %u out of range (1–%d)",
                    input->n_gpus, HR_GPUS_MAX);
  if (input->device->memory_bytes == 0)
    return invalid (error, "device memory must be positive");
  if (!is_positive (input->device->bandwidth_gbps))
    return invalid (error, "device bandwidth must be positive");
  if (input->device->family >= HR_N_FAMILIES)
    return invalid (error, "unknown hardware family");
  if (input->engine != HR_ENGINE_GENERIC)
    return invalid (error, "the “%s” engine profile is not available yet; "
                    "use “generic”", hr_engine_to_string (input->engine));

  return TRUE;
}

/* Largest context whose per-device total fits @budget bytes of KV.
 * The cache grows by @slope_all bytes per token while every layer is
 * below the window, and by @slope_global once the window is full. */
static guint64
solve_max_context (const HrModelArch *model,
                   double             budget,
                   double             per_layer_token,
                   gboolean          *unbounded)
{
  guint32 local = hr_model_arch_local_layers (model);
  guint32 global = model->n_layers - local;
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

static double
decode_tokens_per_s (const HrEstimateInput *input,
                     double                 bytes_per_token)
{
  double efficiency = hr_decode_efficiency (input->device->family);
  double bandwidth = input->device->bandwidth_gbps * HR_GB * efficiency;
  double seconds = bytes_per_token / bandwidth + HR_DECODE_FIXED_SECONDS;

  return 1.0 / seconds;
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

gboolean
hr_estimate (const HrEstimateInput  *input,
             HrEstimate             *result,
             GError                **error)
{
  const HrModelArch *model;
  guint32 n_gpus;
  double weights, weights_dev, kv_total_one, kv_dev, overhead_dev;
  double per_layer_token, kv_fraction, budget, total;
  double active_dev, kv_decode_dev;
  guint32 heads_per_device;

  g_return_val_if_fail (input != NULL, FALSE);
  g_return_val_if_fail (result != NULL, FALSE);

  memset (result, 0, sizeof *result);

  if (!validate_input (input, error))
    return FALSE;

  model = input->model;
  n_gpus = input->n_gpus;

  weights = model->params_total * input->bpw / 8.0;
  weights_dev = weights / n_gpus;

  per_layer_token = kv_bytes_per_layer_token (model, input->kv_bytes_per_element);
  kv_fraction = kv_device_fraction (model, n_gpus, &heads_per_device);
  kv_total_one = hr_kv_bytes (model, input->context, input->batch,
                              input->kv_bytes_per_element);
  kv_dev = kv_total_one * kv_fraction;
  overhead_dev = overhead_per_device (input, weights_dev);

  if (!to_bytes (weights, "the weights", &result->weights_bytes, error) ||
      !to_bytes (kv_dev * n_gpus, "the KV cache", &result->kv_bytes, error) ||
      !to_bytes (overhead_dev * n_gpus, "the overhead",
                 &result->overhead_bytes, error) ||
      !to_bytes (hr_kv_mha_bytes (model, input->context, input->batch),
                 "the MHA baseline", &result->kv_mha_bytes, error))
    return FALSE;

  result->per_device_weights_bytes = (guint64) llround (weights_dev);
  result->per_device_kv_bytes = (guint64) llround (kv_dev);
  result->per_device_overhead_bytes = (guint64) llround (overhead_dev);
  result->per_device_bytes = result->per_device_weights_bytes +
                             result->per_device_kv_bytes +
                             result->per_device_overhead_bytes;

  result->total_bytes = result->weights_bytes + result->kv_bytes +
                        result->overhead_bytes;
  total = (double) result->total_bytes;
  result->weights_share = result->weights_bytes / total;
  result->kv_share = result->kv_bytes / total;
  result->overhead_share = result->overhead_bytes / total;

  result->usable_bytes = hr_device_usable_bytes (input->device);
  result->device_share = (double) result->per_device_bytes /
                         (double) input->device->memory_bytes;
  result->verdict = verdict_for (result->per_device_bytes, result->usable_bytes);
  result->kv_heads_per_device = heads_per_device;
  result->kv_replicated = model->attention != HR_ATTENTION_MLA &&
                          (guint64) heads_per_device * n_gpus > model->n_kv_heads;

  budget = (double) result->usable_bytes - weights_dev - overhead_dev;
  result->max_context = solve_max_context (model, budget,
                                           per_layer_token * kv_fraction *
                                           input->batch,
                                           &result->max_context_unbounded);
  result->max_context_past_trained = result->max_context > model->max_context;

  /* One decode step of one sequence reads every active weight once and the
   * whole cache up to the current position (taken as the context). */
  active_dev = model->params_active * input->bpw / 8.0 / n_gpus;
  kv_decode_dev = hr_kv_bytes (model, input->context, 1,
                               input->kv_bytes_per_element) * kv_fraction;
  result->bytes_per_token = active_dev + kv_decode_dev;
  result->decode_tokens_per_s = decode_tokens_per_s (input,
                                                     result->bytes_per_token);

  result->kv_bytes_per_token = hr_kv_bytes_per_token (model,
                                                      input->kv_bytes_per_element);
  /* Against one copy of the cache: replicas are a parallelism cost, not
   * an architectural one. */
  result->kv_savings = result->kv_mha_bytes > 0
                       ? 1.0 - kv_total_one / result->kv_mha_bytes
                       : 0;

  return TRUE;
}
