/* hr-estimate.c — validates a question and hands it to its engine profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-estimate"

#include "config.h"

#include <math.h>

#include "hr-estimate.h"
#include "hr-profile.h"
#include "hr-profile-common.h"

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
