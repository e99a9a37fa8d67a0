/* hr-device.h — a device as the estimator sees it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "hr-units.h"

G_BEGIN_DECLS

typedef enum
{
  HR_DEVICE_DISCRETE,
  HR_DEVICE_UNIFIED,
} HrDeviceKind;

/* Hardware families carry the decode-efficiency calibration. */
typedef enum
{
  HR_FAMILY_NVIDIA_GEFORCE,
  HR_FAMILY_NVIDIA_WORKSTATION,
  HR_FAMILY_NVIDIA_DATACENTER,
  HR_FAMILY_AMD_RADEON,
  HR_FAMILY_AMD_INSTINCT,
  HR_FAMILY_INTEL_ARC,
  HR_FAMILY_APPLE_SILICON,
  HR_FAMILY_AMD_APU,           /* Ryzen AI Max ("Strix Halo"): a share of system RAM */
  HR_FAMILY_NVIDIA_SOC,        /* DGX Spark (GB10): unified LPDDR5X */
} HrHardwareFamily;

#define HR_N_FAMILIES 9

/* The GPU programming interface llama.cpp runs on a family: the speed
 * model's constants are per backend. */
typedef enum
{
  HR_BACKEND_CUDA,
  HR_BACKEND_METAL,
  HR_BACKEND_ROCM,
  HR_BACKEND_SYCL,
  HR_BACKEND_VULKAN,           /* llama.cpp's Vulkan backend (any vendor) */
  HR_BACKEND_CPU,              /* no GPU backend: llama.cpp's CPU kernels */
} HrBackend;

/* What GPUs of a kind talk to each other over (tensor parallelism's
 * all-reduces, pipeline hand-offs). */
typedef enum
{
  HR_FABRIC_PCIE,
  HR_FABRIC_NVLINK_BRIDGE,     /* two cards bridged */
  HR_FABRIC_NVLINK,            /* NVLink between every GPU of a board (NVSwitch) */
  HR_FABRIC_INFINITY,          /* AMD Infinity Fabric */
  HR_FABRIC_NONE,              /* a single SoC */
} HrFabric;

/* A device (one GPU, or one Apple SoC). */
typedef struct
{
  HrDeviceKind kind;
  HrHardwareFamily family;
  guint64 memory_bytes;        /* as the device reports it */
  double bandwidth_gbps;       /* decimal GB/s */
  double matrix_tflops;        /* dense FP16 matrix peak as llama.cpp drives
                                * it (GeForce: FP16 accumulate); 0 = unknown */
  gboolean hbm;                /* high-bandwidth memory (stacked) */
  double tdp_watts;            /* board power; 0 = unknown */
  double pcie_gbps;            /* host link, pinned copies, GB/s; 0 = none */
  HrFabric fabric;
} HrDevice;

/* Memory a discrete GPU keeps for the driver and display: the seed's
 * 136,404-token maximum on a 12 GiB RTX 3060 implies a usable 11.81 GiB
 * (docs/SEED-SPEC.md, "max context"). */
#define HR_DISCRETE_RESERVE_GIB          0.19

/* Ryzen AI Max and DGX Spark give the GPU a share of system memory set by
 * the firmware and the OS: up to 96 of 128 GB on a Ryzen AI Max+ 395
 * (AMD's Variable Graphics Memory), most of it on a DGX Spark (assumed
 * 90 %, the rest for the OS). */
#define HR_APU_GPU_SHARE                 0.75
#define HR_SOC_GPU_SHARE                 0.90

/* Apple unified memory: the share macOS lets the GPU wire by default
 * (recommendedMaxWorkingSetSize), about 2/3 on machines with up to 36 GB
 * and 3/4 above (docs/reference/gpus.json note; llama.cpp Metal logs). */
#define HR_UNIFIED_SMALL_MEMORY_GIB      36.0
#define HR_UNIFIED_GPU_SHARE_SMALL       (2.0 / 3.0)
#define HR_UNIFIED_GPU_SHARE             0.75

guint64      hr_device_usable_bytes         (const HrDevice   *device);
double       hr_device_unified_share        (const HrDevice   *device);
HrBackend    hr_device_backend              (const HrDevice   *device);
gboolean     hr_device_backend_possible     (const HrDevice   *device,
                                             HrBackend         backend);

/* The backend names of --backend and the JSON key "backend" ("cuda",
 * "rocm", …), and the label a person reads ("CUDA", "ROCm", …). */
#define HR_N_BACKENDS 6
const char  *hr_backend_to_string           (HrBackend         backend);
gboolean     hr_backend_from_string         (const char       *str,
                                             HrBackend        *backend);
const char  *hr_backend_label               (HrBackend         backend);

const char  *hr_hardware_family_to_string   (HrHardwareFamily  family);
gboolean     hr_hardware_family_from_string (const char       *str,
                                             HrHardwareFamily *family);

G_END_DECLS
