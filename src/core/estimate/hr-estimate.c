/* hr-estimate.c — the estimator: pure functions over plain structs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-estimate"

#include "config.h"

#include <math.h>

#include "hr-estimate.h"
#include "hr-estimate-constants.h"
#include "hr-engine.h"

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
  if (!is_positive (model->params_total) || model->params_total > HR_PARAMS_MAX)
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

/**
 * hr_swa_period_from_layers:
 * @sliding: (array length=n_layers): whether each layer uses the window
 *
 * HrModelArch describes sliding-window layers by a period whose last layer
 * is global (0: every layer is local).  A pattern that does not fit that
 * form gets the period that keeps at least as many global layers as the
 * model has, so the KV estimate errs on the large side.  Both importers
 * (GGUF and config.json) use this one rule.
 */
HrSwaPattern
hr_swa_period_from_layers (const gboolean *sliding,
                           guint64         n_layers,
                           guint64        *period)
{
  guint64 n_global = 0;
  guint64 first_global = 0;

  *period = 0;
  for (guint64 i = n_layers; i-- > 0;)
    {
      if (!sliding[i])
        {
          n_global++;
          first_global = i;
        }
    }

  if (n_global == n_layers)
    return HR_SWA_NONE;
  if (n_global == 0)
    return HR_SWA_ALL;

  *period = first_global + 1;
  for (guint64 i = 0; i < n_layers; i++)
    if (!sliding[i] != ((i + 1) % *period == 0))
      {
        *period = n_layers / n_global;
        return HR_SWA_IRREGULAR;
      }
  return HR_SWA_PERIODIC;
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
  if (input->engine >= HR_N_ENGINES)
    return invalid (error, "unknown engine profile");
  if (input->options.gpu_memory_utilization < 0 ||
      input->options.gpu_memory_utilization > 1 ||
      isnan (input->options.gpu_memory_utilization))
    return invalid (error, "GPU memory utilization must be in (0, 1]");
  if (input->options.ubatch > (1u << 16))
    return invalid (error, "micro-batch %u is out of range (1–65536)", input->options.ubatch);
  if (input->options.max_num_batched_tokens > HR_CONTEXT_MAX)
    return invalid (error, "max-num-batched-tokens is out of range");

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
                     double                 bytes_per_token,
                     HrEstimate            *result)
{
  double efficiency = hr_decode_efficiency (input->device->family);
  double bandwidth = input->device->bandwidth_gbps * HR_GB * efficiency;
  gboolean llamacpp = input->engine == HR_ENGINE_LLAMACPP || input->engine == HR_ENGINE_OLLAMA;
  double fixed = llamacpp && input->device->family == HR_FAMILY_NVIDIA_DATACENTER
                 ? HR_LLAMACPP_DATACENTER_FIXED_SECONDS
                 : HR_DECODE_FIXED_SECONDS;
  double seconds = bytes_per_token / bandwidth + fixed;

  result->decode_fixed_seconds = fixed;
  result->decode_efficiency = efficiency;

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

/* Fills what every profile shares once the per-device parts are known:
 * totals, shares, verdict, speed and the MHA comparison. */
static gboolean
finish (const HrEstimateInput  *input,
        HrEstimate             *result,
        double                  weights,
        double                  kv_total_one,
        double                  active_dev,
        double                  kv_decode_dev,
        GError                **error)
{
  const HrModelArch *model = input->model;
  double total;

  if (!to_bytes (weights, "the weights", &result->weights_bytes, error) ||
      !to_bytes (hr_kv_mha_bytes (model, input->context, input->batch),
                 "the MHA baseline", &result->kv_mha_bytes, error))
    return FALSE;

  result->per_device_bytes = result->per_device_weights_bytes +
                             result->per_device_kv_bytes +
                             result->per_device_overhead_bytes;
  result->total_bytes = result->weights_bytes + result->kv_bytes + result->overhead_bytes;
  total = (double) result->total_bytes;
  result->weights_share = result->weights_bytes / total;
  result->kv_share = result->kv_bytes / total;
  result->overhead_share = result->overhead_bytes / total;

  result->usable_bytes = hr_device_usable_bytes (input->device);
  result->device_share = (double) result->per_device_bytes /
                         (double) input->device->memory_bytes;
  if (input->engine != HR_ENGINE_VLLM)
    result->verdict = verdict_for (result->per_device_bytes, result->usable_bytes);
  result->max_context_past_trained = result->max_context > model->max_context;

  /* One decode step of one sequence reads every active weight once and the
   * whole cache up to the current position (taken as the context). */
  result->bytes_per_token = active_dev + kv_decode_dev;
  result->decode_tokens_per_s = decode_tokens_per_s (input, result->bytes_per_token, result);

  result->kv_bytes_per_token = hr_kv_bytes_per_token (model, input->kv_bytes_per_element);
  /* Against one copy of the cache: replicas are a parallelism cost, not
   * an architectural one. */
  result->kv_savings = result->kv_mha_bytes > 0
                       ? 1.0 - kv_total_one / result->kv_mha_bytes
                       : 0;
  return TRUE;
}

/* The seed page's method: nominal weights, an overhead formula. */
static gboolean
estimate_generic (const HrEstimateInput  *input,
                  HrEstimate             *result,
                  GError                **error)
{
  const HrModelArch *model = input->model;
  guint32 n_gpus = input->n_gpus;
  double weights, weights_dev, kv_total_one, kv_dev, overhead_dev;
  double per_layer_token, kv_fraction, budget;
  guint32 heads_per_device;

  weights = model->params_total * input->bpw / 8.0;
  weights_dev = weights / n_gpus;

  per_layer_token = kv_bytes_per_layer_token (model, input->kv_bytes_per_element);
  kv_fraction = kv_device_fraction (model, n_gpus, &heads_per_device);
  kv_total_one = hr_kv_bytes (model, input->context, input->batch,
                              input->kv_bytes_per_element);
  kv_dev = kv_total_one * kv_fraction;
  overhead_dev = overhead_per_device (input, weights_dev);

  if (!to_bytes (kv_dev * n_gpus, "the KV cache", &result->kv_bytes, error) ||
      !to_bytes (overhead_dev * n_gpus, "the overhead", &result->overhead_bytes, error))
    return FALSE;

  result->per_device_weights_bytes = (guint64) llround (weights_dev);
  result->per_device_kv_bytes = (guint64) llround (kv_dev);
  result->per_device_overhead_bytes = (guint64) llround (overhead_dev);
  result->kv_heads_per_device = heads_per_device;
  result->kv_replicated = model->attention != HR_ATTENTION_MLA &&
                          (guint64) heads_per_device * n_gpus > model->n_kv_heads;

  budget = (double) hr_device_usable_bytes (input->device) - weights_dev - overhead_dev;
  result->max_context = solve_max_context (model, budget,
                                           per_layer_token * kv_fraction * input->batch,
                                           &result->max_context_unbounded);

  return finish (input, result, weights, kv_total_one,
                 model->params_active * input->bpw / 8.0 / n_gpus,
                 hr_kv_bytes (model, input->context, 1, input->kv_bytes_per_element) *
                 kv_fraction,
                 error);
}

static double
engine_weights (const HrEstimateInput *input)
{
  if (input->weights_bytes > 0)
    return (double) input->weights_bytes;
  return input->model->params_total * input->bpw / 8.0;
}

static guint64
engine_ffn_width (const HrEstimateInput *input)
{
  /* Without a width from the catalog, the common 4 × hidden. */
  return input->ffn_width > 0 ? input->ffn_width : 4ull * input->model->hidden;
}

/* llama.cpp's buffers at @context for the input's settings. */
static gboolean
llamacpp_buffers (const HrEstimateInput  *input,
                  guint64                 context,
                  HrLlamaCppMemory       *memory,
                  gboolean               *flash_attn,
                  GError                **error)
{
  HrLlamaCppParams params;
  guint64 n_ctx;
  double kv = input->kv_bytes_per_element;

  hr_llamacpp_params_init_default (&params);

  if (input->engine == HR_ENGINE_OLLAMA)
    {
      HrOllamaParams ollama;

      hr_ollama_params_init_default (&ollama);
      ollama.num_ctx = context;
      ollama.num_parallel = input->batch;
      if (input->options.flash_attn != HR_FLASH_ATTN_DEFAULT)
        ollama.flash_attn = input->options.flash_attn == HR_FLASH_ATTN_ON;
      if (input->options.ubatch > 0)
        ollama.num_batch = input->options.ubatch;
      /* Ollama keeps an F16 cache without flash attention, whatever
       * OLLAMA_KV_CACHE_TYPE says. */
      n_ctx = hr_ollama_llamacpp_params (&ollama, kv, &params);
    }
  else
    {
      /* As the generated command runs it: --parallel N slots, each with its
       * own share of --ctx-size = context × N. */
      params.n_seq = input->batch;
      params.kv_unified = FALSE;
      params.kv_k_bytes_per_element = kv;
      params.kv_v_bytes_per_element = kv;
      if (input->options.flash_attn != HR_FLASH_ATTN_DEFAULT)
        params.flash_attn = input->options.flash_attn == HR_FLASH_ATTN_ON;
      if (input->options.ubatch > 0)
        {
          params.n_ubatch = input->options.ubatch;
          params.n_batch = MAX (params.n_batch, params.n_ubatch);
        }
      if (kv != 2.0 && !params.flash_attn)
        return invalid (error, "llama.cpp needs flash attention for a quantized V cache");
      n_ctx = context * input->batch;
    }

  hr_llamacpp_memory (input->model, engine_ffn_width (input), input->token_embd_bytes,
                      n_ctx, &params, memory);
  *flash_attn = params.flash_attn;
  return TRUE;
}

static guint64
llamacpp_per_device (const HrEstimateInput  *input,
                     double                  weights,
                     const HrLlamaCppMemory *m)
{
  double gpu_weights = MAX (0.0, weights - (double) m->host_bytes);

  return (guint64) llround (gpu_weights / input->n_gpus + (double) m->kv_bytes / input->n_gpus) +
         m->compute_bytes + m->reserve_bytes;
}

/* llama.cpp (and Ollama, which runs it): layers are split across devices,
 * the token embeddings stay in host memory, each device keeps a compute
 * buffer and the backend's reserve. */
static gboolean
estimate_llamacpp (const HrEstimateInput  *input,
                   HrEstimate             *result,
                   GError                **error)
{
  const HrModelArch *model = input->model;
  guint32 n_gpus = input->n_gpus;
  HrLlamaCppMemory m;
  double weights = engine_weights (input);
  double gpu_weights;
  guint64 usable = hr_device_usable_bytes (input->device);
  guint64 low, high;
  gboolean flash_attn;

  if (!llamacpp_buffers (input, input->context, &m, &flash_attn, error))
    return FALSE;

  gpu_weights = MAX (0.0, weights - (double) m.host_bytes);
  result->kv_bytes = m.kv_bytes;
  result->compute_bytes = m.compute_bytes;
  result->host_bytes = m.host_bytes + m.output_bytes + m.host_compute_bytes;
  result->flash_attn = flash_attn;
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
      HrLlamaCppMemory at;
      gboolean fa;

      if (llamacpp_buffers (input, mid, &at, &fa, NULL) &&
          llamacpp_per_device (input, weights, &at) <= usable)
        low = mid;
      else
        high = mid - 1;
    }
  result->max_context = low;
  /* Every layer within its window: the cache stops growing. */
  result->max_context_unbounded = low == HR_CONTEXT_MAX;

  return finish (input, result, weights,
                 hr_kv_bytes (model, input->context, input->batch, input->kv_bytes_per_element),
                 model->params_active / model->params_total * gpu_weights / n_gpus,
                 hr_kv_bytes (model, input->context, 1, input->kv_bytes_per_element) / n_gpus,
                 error);
}

/* vLLM: a budget of gpu_memory_utilization × device memory; weights, the
 * profiled activation peak and non-torch memory come off it, the rest is
 * KV cache in blocks.  Fits when one sequence of the context fits. */
static gboolean
estimate_vllm (const HrEstimateInput  *input,
               HrEstimate             *result,
               GError                **error)
{
  const HrModelArch *model = input->model;
  guint32 n_gpus = input->n_gpus;
  HrVllmParams params;
  HrVllmMemory m;
  double weights = engine_weights (input);
  double kv_fraction, kv_per_token_dev;
  guint32 heads_per_device;
  guint64 cuda_total;

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

  kv_fraction = kv_device_fraction (model, n_gpus, &heads_per_device);
  /* vLLM pages a full-attention cache for every layer. */
  kv_per_token_dev = hr_kv_bytes_per_token (model, input->kv_bytes_per_element) * kv_fraction;
  hr_vllm_memory (model, engine_ffn_width (input), cuda_total,
                  (guint64) llround (weights / n_gpus), kv_per_token_dev, n_gpus, &params, &m);

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

  /* vLLM refuses to start when one sequence of max_model_len does not fit
   * the cache; it fits tightly when fewer than the requested sequences
   * can run at once. */
  if (m.kv_cache_bytes == 0 || m.kv_capacity_tokens < input->context)
    result->verdict = HR_VERDICT_NO_FIT;
  else if (m.max_concurrency < input->batch)
    result->verdict = HR_VERDICT_TIGHT;
  else
    result->verdict = HR_VERDICT_COMFORTABLE;

  return finish (input, result, weights,
                 hr_kv_bytes (model, input->context, input->batch, input->kv_bytes_per_element),
                 model->params_active / model->params_total * weights / n_gpus,
                 hr_kv_bytes (model, input->context, 1, input->kv_bytes_per_element) *
                 kv_fraction,
                 error);
}

gboolean
hr_estimate (const HrEstimateInput  *input,
             HrEstimate             *result,
             GError                **error)
{
  g_return_val_if_fail (input != NULL, FALSE);
  g_return_val_if_fail (result != NULL, FALSE);

  memset (result, 0, sizeof *result);

  if (!validate_input (input, error))
    return FALSE;

  switch (input->engine)
    {
    case HR_ENGINE_LLAMACPP:
    case HR_ENGINE_OLLAMA:
      return estimate_llamacpp (input, result, error);
    case HR_ENGINE_VLLM:
      return estimate_vllm (input, result, error);
    case HR_ENGINE_GENERIC:
    default:
      return estimate_generic (input, result, error);
    }
}
