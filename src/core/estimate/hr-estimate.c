/* hr-estimate.c — validates a question and hands it to its engine profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-estimate"

#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "hr-estimate.h"
#include "hr-profile.h"
#include "hr-profile-common.h"
#include "engines/hr-parallel-layout.h"

G_DEFINE_QUARK (hr-estimate-error-quark, hr_estimate_error)

/* The one place a profile is chosen. */
static const HrEngineProfile * const profiles[HR_N_ENGINES] = {
  [HR_ENGINE_GENERIC] = &hr_profile_nominal,
  [HR_ENGINE_LLAMACPP] = &hr_profile_llamacpp,
  [HR_ENGINE_OLLAMA] = &hr_profile_ollama,
  [HR_ENGINE_VLLM] = &hr_profile_vllm,
  [HR_ENGINE_SGLANG] = &hr_profile_sglang,
};

static const char * const engine_names[] = {
  [HR_ENGINE_GENERIC] = "generic",
  [HR_ENGINE_LLAMACPP] = "llamacpp",
  [HR_ENGINE_OLLAMA] = "ollama",
  [HR_ENGINE_VLLM] = "vllm",
  [HR_ENGINE_SGLANG] = "sglang",
  [HR_ENGINE_AUTO] = "auto",
};

static const char * const verdict_names[] = {
  [HR_VERDICT_COMFORTABLE] = "comfortable",
  [HR_VERDICT_TIGHT] = "tight",
  [HR_VERDICT_NO_FIT] = "no-fit",
};

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

  if (!hr_lookup_name (engine_names, G_N_ELEMENTS (engine_names), str, &value))
    return FALSE;
  *engine = value;
  return TRUE;
}

const char *
hr_verdict_to_string (HrVerdict verdict)
{
  g_return_val_if_fail (verdict < G_N_ELEMENTS (verdict_names), NULL);
  return verdict_names[verdict];
}

static gboolean
is_positive (double value)
{
  return isfinite (value) && value > 0;
}

static const char *
vendor (HrHardwareFamily family)
{
  switch (family)
    {
    case HR_FAMILY_AMD_RADEON:
    case HR_FAMILY_AMD_INSTINCT:
    case HR_FAMILY_AMD_APU:
      return "AMD";
    case HR_FAMILY_INTEL_ARC:
      return "Intel";
    case HR_FAMILY_APPLE_SILICON:
      return "Apple";
    case HR_FAMILY_NVIDIA_GEFORCE:
    case HR_FAMILY_NVIDIA_WORKSTATION:
    case HR_FAMILY_NVIDIA_DATACENTER:
    case HR_FAMILY_NVIDIA_SOC:
    default:
      return "NVIDIA";
    }
}

#define invalid(error, ...) \
  hr_profile_fail ((error), HR_ESTIMATE_ERROR_INVALID, __VA_ARGS__)

static gboolean
validate_input (const HrEstimateInput  *input,
                GError                **error)
{
  g_autoptr(GError) arch_error = NULL;

  if (input->model == NULL || input->device == NULL)
    return invalid (error, "a model and a device are required");
  if (!hr_model_arch_validate (input->model, &arch_error))
    return invalid (error, "%s", arch_error->message);
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
  for (guint32 d = 0; d < HR_MAX_DEVICES; d++)
    {
      const HrDevice *gpu = input->gpu_devices[d];

      if ((gpu != NULL || input->reserve_set[d]) && d >= input->n_gpus)
        return invalid (error, "device %u is past the %u GPUs", d + 1, input->n_gpus);
      if (gpu != NULL && (gpu->memory_bytes == 0 || !is_positive (gpu->bandwidth_gbps) ||
                          gpu->family >= HR_N_FAMILIES))
        return invalid (error, "device %u needs a memory, a bandwidth and a family", d + 1);
      if (input->reserve_set[d] &&
          input->reserve_bytes[d] >= hr_estimate_input_gpu (input, d)->memory_bytes)
        return invalid (error, "a reserve of %.2f GiB leaves device %u nothing of its %.2f GiB",
                        input->reserve_bytes[d] / HR_GIB, d + 1,
                        hr_estimate_input_gpu (input, d)->memory_bytes / HR_GIB);
    }
  {
    gboolean extras = input->mmproj_weights_bytes > 0 || input->mmproj_compute_bytes > 0;

    for (guint32 d = 0; d < HR_MAX_DEVICES; d++)
      extras = extras || input->draft_device_bytes[d] > 0;
    if (extras && input->engine != HR_ENGINE_LLAMACPP && input->engine != HR_ENGINE_OLLAMA)
      return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                              _("A vision projector file and a draft model are planned "
                                "for llama.cpp and Ollama; vLLM and SGLang load the vision "
                                "encoder with the checkpoint"));
    if (input->lora_bytes > 0 && input->engine != HR_ENGINE_LLAMACPP &&
        input->engine != HR_ENGINE_OLLAMA)
      return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                              _("LoRA adapter files are planned for llama.cpp and Ollama; "
                                "vLLM and SGLang are not planned with adapters"));
    /* llama-server's --no-kv-offload and --cache-ram: Ollama sets neither
     * (its runner keeps the cache with the layers), vLLM and SGLang have
     * other mechanisms (block swapping, HiCache). */
    if ((input->kv_on_host || input->host_cache_bytes > 0) && input->engine != HR_ENGINE_LLAMACPP)
      return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                              _("The KV cache in system RAM (--no-kv-offload) and the host "
                                "prompt cache (--cache-ram) are llama-server options"));
    if (input->image_tokens >= input->context)
      return invalid (error, "the images take %" G_GUINT64_FORMAT " tokens, a context of %"
                      G_GUINT64_FORMAT " leaves no room for text", input->image_tokens,
                      input->context);
  }
  if (hr_estimate_input_mixed (input) && input->n_gpus > HR_MAX_DEVICES)
    return invalid (error, "a list of devices holds at most %d GPUs", HR_MAX_DEVICES);
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
  /* llama-bench -d D -p P fills D cells, then P more: both in the window. */
  if (input->depth >= input->context)
    return invalid (error, "a depth of %" G_GUINT64_FORMAT " tokens leaves no room for a "
                    "prompt in a context of %" G_GUINT64_FORMAT, input->depth, input->context);
  if (input->prompt_tokens > 0 && input->depth + input->prompt_tokens > input->context)
    return invalid (error, "a prompt of %" G_GUINT64_FORMAT " tokens on top of %" G_GUINT64_FORMAT
                    " cached ones does not fit a context of %" G_GUINT64_FORMAT,
                    input->prompt_tokens, input->depth, input->context);
  if (!(input->cpu_flops >= 0) || !isfinite (input->cpu_flops))
    return invalid (error, "the CPU's FLOPS must be positive");
  if (input->options.backend_set &&
      (input->engine == HR_ENGINE_LLAMACPP || input->engine == HR_ENGINE_OLLAMA))
    {
      if ((guint) input->options.backend >= HR_N_BACKENDS)
        return invalid (error, "unknown backend");
      if (!hr_device_backend_possible (input->device, input->options.backend))
        return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                                "llama.cpp's %s build does not run on %s GPUs",
                                hr_backend_label (input->options.backend),
                                vendor (input->device->family));
      /* Ollama ships CPU, CUDA, ROCm, Vulkan and Metal runners, no SYCL
       * (ollama ml/device.go, FlashAttentionSupported's libraries). */
      if (input->engine == HR_ENGINE_OLLAMA && input->options.backend == HR_BACKEND_SYCL)
        return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                                "Ollama has no SYCL build (it runs Intel GPUs on Vulkan)");
    }

  return TRUE;
}

/* vLLM and SGLang over GPUs of different kinds.  Tensor parallelism
 * shards every matrix evenly, so the GPUs of one tensor-parallel group
 * (ranks tp·k … tp·k + tp − 1) must be alike; pipeline stages may differ.
 * Both engines give every stage an even share of the layers
 * (hr-parallel-layout.h) and every worker the same number of KV blocks,
 * the smallest any worker can hold (vllm/v1/core/kv_cache_utils.py,
 * get_kv_cache_configs: "the smallest among all ranks"), and a step waits
 * for the slowest stage: the plan is that of N GPUs each as small and as
 * slow as the weakest. */
static gboolean
estimate_stages (const HrEstimateInput  *input,
                 HrEstimate             *result,
                 GError                **error)
{
  const char *engine = input->engine == HR_ENGINE_VLLM ? "vLLM" : "SGLang";
  HrEstimateInput weakest_input = *input;
  HrDevice weakest = *input->device;
  guint64 least_usable = G_MAXUINT64;
  guint32 n = MIN (input->n_gpus, HR_MAX_DEVICES);
  HrLayout layout;

  if (!hr_layout_resolve (input, &layout, error))
    return FALSE;
  for (guint32 d = 0; d < n; d++)
    {
      const HrDevice *gpu = hr_estimate_input_gpu (input, d);
      const HrDevice *rank0 = hr_estimate_input_gpu (input, d - d % MAX (layout.tp, 1));

      if (memcmp (gpu, rank0, sizeof *gpu) != 0)
        return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                                /* TRANSLATORS: vLLM or SGLang; the GPU count */
                                _("%s's tensor parallelism needs identical GPUs and these "
                                  "differ: give each GPU its own pipeline stage (--tp 1 "
                                  "--pp %u)"), engine, n);
      if (hr_estimate_input_usable (input, d) < least_usable)
        {
          least_usable = hr_estimate_input_usable (input, d);
          weakest.kind = gpu->kind;
          weakest.family = gpu->family;
          weakest.memory_bytes = gpu->memory_bytes;
          weakest.hbm = gpu->hbm;
          weakest.fabric = gpu->fabric;
          weakest_input.reserve_set[0] = input->reserve_set[d];
          weakest_input.reserve_bytes[0] = input->reserve_bytes[d];
        }
      weakest.bandwidth_gbps = MIN (weakest.bandwidth_gbps, gpu->bandwidth_gbps);
      weakest.matrix_tflops = MIN (weakest.matrix_tflops, gpu->matrix_tflops);
      weakest.pcie_gbps = MIN (weakest.pcie_gbps, gpu->pcie_gbps);
    }
  weakest_input.device = &weakest;
  memset (weakest_input.gpu_devices, 0, sizeof weakest_input.gpu_devices);
  for (guint32 d = 1; d < HR_MAX_DEVICES; d++)
    {
      weakest_input.reserve_set[d] = weakest_input.reserve_set[0];
      weakest_input.reserve_bytes[d] = weakest_input.reserve_bytes[0];
    }
  if (!profiles[input->engine]->estimate (&weakest_input, result, error))
    return FALSE;
  /* each GPU holds the weakest's plan, out of its own memory */
  for (guint32 d = 0; d < MIN (result->n_devices, n); d++)
    {
      const HrDevice *gpu = hr_estimate_input_gpu (input, d);

      result->devices[d].usable_bytes = hr_estimate_input_usable (input, d);
      result->devices[d].reserve_bytes = gpu->memory_bytes - result->devices[d].usable_bytes;
    }
  return TRUE;
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

  result->engine = input->engine;
  if (hr_estimate_input_mixed (input))
    {
      if (input->engine == HR_ENGINE_GENERIC)
        return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                                _("The nominal method plans identical GPUs; GPUs of "
                                  "different kinds are planned by llama.cpp, Ollama, vLLM "
                                  "or SGLang"));
      if (input->engine == HR_ENGINE_VLLM || input->engine == HR_ENGINE_SGLANG)
        return estimate_stages (input, result, error);
    }
  return profiles[input->engine]->estimate (input, result, error);
}

/**
 * hr_estimate_fits_gpu:
 *
 * Whether everything sits on the GPUs within their usable memory — what
 * the matrix's recommended device and the "what would fit" advice ask;
 * a model that runs with layers in system RAM does not.
 */
gboolean
hr_estimate_fits_gpu (const HrEstimate *estimate)
{
  g_return_val_if_fail (estimate != NULL, FALSE);

  return estimate->verdict != HR_VERDICT_NO_FIT &&
         (estimate->placement == HR_PLACEMENT_GPU || estimate->placement == HR_PLACEMENT_SPLIT);
}

/**
 * hr_estimate_explain:
 * @formulas: units and KV label set by the caller; its texts are replaced
 *
 * The formulas of @result (from hr_estimate() on @input), written by the
 * profile that computed it and, for the lines all share, hr-formulas.c.
 */
void
hr_estimate_explain (const HrEstimateInput *input,
                     const HrEstimate      *result,
                     HrFormulas            *formulas)
{
  g_return_if_fail (input != NULL && input->engine < HR_N_ENGINES);
  g_return_if_fail (result != NULL);
  g_return_if_fail (formulas != NULL);

  hr_formulas_clear (formulas);
  profiles[input->engine]->explain (input, result, formulas);
  hr_formulas_write_common (input, result, formulas);
}
