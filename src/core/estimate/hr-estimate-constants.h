/* hr-estimate-constants.h — every calibrated constant of the estimator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each constant says where it comes from.  The window shows them in the
 * “Assumptions” of the Overview and in the formula notes of the Model view
 * (written by the profile that uses them), so change them here only.
 */

#pragma once

#include "hr-device.h"

G_BEGIN_DECLS

/* Generic runtime overhead on a discrete GPU: CUDA/ROCm context, cuBLAS
 * workspaces and activation buffers, modelled as a fixed part plus a share
 * of the weights.  Both are the seed page's (SEED-SPEC.md: “overhead (GPU)
 * = 1.14 GiB + 0.03 × weights”, reproducing its 1.30 / 1.66 / 1.42 GiB). */
#define HR_OVERHEAD_FIXED_GIB            1.14
#define HR_OVERHEAD_WEIGHTS_FRACTION     0.03

/* On unified memory (Apple) there is no separate driver context in device
 * memory: the seed page's Apple rows are 0.42 GiB lower (7.44 vs 7.86). */
#define HR_OVERHEAD_UNIFIED_DISCOUNT_GIB 0.42

/* CUDA reports less than a card's nominal memory as its total (what
 * vLLM multiplies by gpu_memory_utilization): an RTX 3090 with 24 GiB
 * logs “total_gpu_memory=23.58GiB” (vllm-project/vllm#10517). */
#define HR_CUDA_UNREPORTED_GIB           0.42

/* A total at or below this fraction of usable memory “fits comfortably”;
 * above it, up to usable memory, it is “tight”: 10 % headroom absorbs
 * allocator fragmentation and a desktop's own use of the GPU. */
#define HR_COMFORTABLE_FRACTION          0.90

/* Decode is bandwidth-bound: a step reads the active weights and the KV
 * cache once.  Time per token = bytes / (efficiency × bandwidth) + a fixed
 * cost (kernel launches, sampling, synchronisation).  Fitted on llama.cpp
 * “tg” runs of Llama-3-8B (XiongjieDai GPU-Benchmarks-on-LLM-Inference):
 * RTX 4090 Q4_K_M 127.7 tok/s and RTX 3090 111.7 tok/s are met within 10 %
 * with 75 % of bandwidth and 1.2 ms; Apple M2 Ultra 76.3 and M1 Max 34.5
 * tok/s with 55 %.  Data-centre parts run optimised kernels (the seed's
 * A100/H100 rows imply ~80 %); AMD and Intel lack published batch-1
 * figures here and use conservative values. */
#define HR_DECODE_FIXED_SECONDS          1.2e-3

/* llama.cpp at batch 1 on data-centre GPUs is kernel-bound, not
 * bandwidth-bound: H100 PCIe 144.5 and A100 PCIe 138.3 tok/s on
 * Llama-3-8B Q4_K_M (XiongjieDai, tg 1024) leave 3.9 ms per token beyond
 * reading 4.92 GB at 80 % of their bandwidth. */
#define HR_LLAMACPP_DATACENTER_FIXED_SECONDS 3.9e-3

static const double hr_decode_efficiency_by_family[HR_N_FAMILIES] = {
  [HR_FAMILY_NVIDIA_GEFORCE] = 0.75,
  [HR_FAMILY_NVIDIA_WORKSTATION] = 0.75,
  [HR_FAMILY_NVIDIA_DATACENTER] = 0.80,
  [HR_FAMILY_AMD_RADEON] = 0.65,
  [HR_FAMILY_AMD_INSTINCT] = 0.65,
  [HR_FAMILY_INTEL_ARC] = 0.55,
  [HR_FAMILY_APPLE_SILICON] = 0.55,
};

G_END_DECLS
