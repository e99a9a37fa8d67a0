/* hr-device.c — a device as the estimator sees it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-device"

#include "config.h"

#include <math.h>

#include "hr-device.h"
#include "hr-model-arch.h"

static const char * const family_names[] = {
  [HR_FAMILY_NVIDIA_GEFORCE] = "nvidia-geforce",
  [HR_FAMILY_NVIDIA_WORKSTATION] = "nvidia-workstation",
  [HR_FAMILY_NVIDIA_DATACENTER] = "nvidia-datacenter",
  [HR_FAMILY_AMD_RADEON] = "amd-radeon",
  [HR_FAMILY_AMD_INSTINCT] = "amd-instinct",
  [HR_FAMILY_INTEL_ARC] = "intel-arc",
  [HR_FAMILY_APPLE_SILICON] = "apple-silicon",
  [HR_FAMILY_AMD_APU] = "amd-apu",
  [HR_FAMILY_NVIDIA_SOC] = "nvidia-soc",
};

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

  if (!hr_lookup_name (family_names, G_N_ELEMENTS (family_names), str, &value))
    return FALSE;
  *family = value;
  return TRUE;
}

/* The share of a unified memory the GPU may use. */
double
hr_device_unified_share (const HrDevice *device)
{
  g_return_val_if_fail (device != NULL, 0);

  if (device->family == HR_FAMILY_AMD_APU)
    return HR_APU_GPU_SHARE;
  if (device->family == HR_FAMILY_NVIDIA_SOC)
    return HR_SOC_GPU_SHARE;
  return (double) device->memory_bytes <= HR_UNIFIED_SMALL_MEMORY_GIB * HR_GIB
         ? HR_UNIFIED_GPU_SHARE_SMALL
         : HR_UNIFIED_GPU_SHARE;
}

HrBackend
hr_device_backend (const HrDevice *device)
{
  g_return_val_if_fail (device != NULL, HR_BACKEND_CUDA);

  switch (device->family)
    {
    case HR_FAMILY_APPLE_SILICON:
      return HR_BACKEND_METAL;
    case HR_FAMILY_AMD_RADEON:
    case HR_FAMILY_AMD_INSTINCT:
    case HR_FAMILY_AMD_APU:
      return HR_BACKEND_ROCM;
    case HR_FAMILY_INTEL_ARC:
      return HR_BACKEND_SYCL;
    case HR_FAMILY_NVIDIA_GEFORCE:
    case HR_FAMILY_NVIDIA_WORKSTATION:
    case HR_FAMILY_NVIDIA_DATACENTER:
    case HR_FAMILY_NVIDIA_SOC:
    default:
      return HR_BACKEND_CUDA;
    }
}

/* Which builds of llama.cpp can drive a family's GPU (the build guide of
 * ggml-org/llama.cpp, "docs" folder, build page: CUDA for NVIDIA; HIP/ROCm for AMD; SYCL for Intel GPUs;
 * Metal for Apple silicon; Vulkan for any vendor's GPU with a Vulkan
 * driver, which Apple's are not without a translation layer), and the CPU
 * build on every machine.  What no build of llama.cpp runs is refused
 * (CUDA on an AMD card, Metal on NVIDIA, …). */
gboolean
hr_device_backend_possible (const HrDevice *device,
                            HrBackend       backend)
{
  g_return_val_if_fail (device != NULL, FALSE);

  if (backend == HR_BACKEND_CPU || backend == hr_device_backend (device))
    return TRUE;
  return backend == HR_BACKEND_VULKAN && device->family != HR_FAMILY_APPLE_SILICON;
}

static const struct
{
  const char *name;
  const char *label;
} backend_names[HR_N_BACKENDS] = {
  [HR_BACKEND_CUDA] = { "cuda", "CUDA" },
  [HR_BACKEND_METAL] = { "metal", "Metal" },
  [HR_BACKEND_ROCM] = { "rocm", "ROCm" },
  [HR_BACKEND_SYCL] = { "sycl", "SYCL" },
  [HR_BACKEND_VULKAN] = { "vulkan", "Vulkan" },
  [HR_BACKEND_CPU] = { "cpu", "CPU" },
};

const char *
hr_backend_to_string (HrBackend backend)
{
  g_return_val_if_fail ((guint) backend < HR_N_BACKENDS, NULL);
  return backend_names[backend].name;
}

const char *
hr_backend_label (HrBackend backend)
{
  g_return_val_if_fail ((guint) backend < HR_N_BACKENDS, NULL);
  return backend_names[backend].label;
}

gboolean
hr_backend_from_string (const char *str,
                        HrBackend  *backend)
{
  g_return_val_if_fail (backend != NULL, FALSE);

  for (guint i = 0; str != NULL && i < HR_N_BACKENDS; i++)
    if (g_ascii_strcasecmp (str, backend_names[i].name) == 0)
      {
        *backend = (HrBackend) i;
        return TRUE;
      }
  return FALSE;
}

guint64
hr_device_usable_bytes (const HrDevice *device)
{
  double memory;

  g_return_val_if_fail (device != NULL, 0);

  memory = (double) device->memory_bytes;

  if (device->kind == HR_DEVICE_UNIFIED)
    return (guint64) floor (memory * hr_device_unified_share (device));

  if (memory <= HR_DISCRETE_RESERVE_GIB * HR_GIB)
    return 0;

  return (guint64) floor (memory - HR_DISCRETE_RESERVE_GIB * HR_GIB);
}
