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
