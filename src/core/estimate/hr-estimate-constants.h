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
 * of the weights.  Both are the seed page's (docs/SEED-SPEC.md: “overhead (GPU)
 * = 1.14 GiB + 0.03 × weights”, reproducing its 1.30 / 1.66 / 1.42 GiB). */
#define HR_OVERHEAD_FIXED_GIB            1.14
#define HR_OVERHEAD_WEIGHTS_FRACTION     0.03

/* On unified memory (Apple) there is no separate driver context in device
 * memory: the seed page's Apple rows are 0.42 GiB lower (7.44 vs 7.86). */
#define HR_OVERHEAD_UNIFIED_DISCOUNT_GIB 0.42

/* CUDA reports less than a card's nominal memory as its total (what
 * vLLM multiplies by gpu_memory_utilization), more on larger cards: an
 * RTX 3090 with 24 GiB logs “total_gpu_memory=23.58GiB” (vllm-project/
 * vllm#10517), an H100 with 80 GiB 79.19 GiB (vLLM 0.19 logs of
 * llm-d-planner): 0.42 GiB, and 0.007 GiB for every GiB past 24. */
#define HR_CUDA_UNREPORTED_GIB           0.42
#define HR_CUDA_UNREPORTED_BASE_GIB      24.0
#define HR_CUDA_UNREPORTED_PER_GIB       0.007

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

/* System memory when the user has not said (and detection has not read
 * it): 32 GiB of dual-channel DDR5-4800 (2 × 38.4 GB/s), a common desktop
 * of the last years.  Shown under Assumptions; the CLI takes --ram and
 * --ram-bandwidth. */
#define HR_RAM_DEFAULT_GIB               32.0
#define HR_RAM_DEFAULT_BANDWIDTH_GBPS    76.8

/* What the operating system, the desktop and a browser keep of system
 * memory: the model may use the rest. */
#define HR_RAM_SYSTEM_RESERVE_GIB        4.0
/* On unified memory at most this share of the pool: macOS on an 8 GB Mac
 * runs in about 2 GiB, and a 4 GiB reserve on top of the GPU's wired two
 * thirds would leave a model that fits the GPU no room for its small
 * host buffers — a verdict no discrete card at the same share gets. */
#define HR_RAM_UNIFIED_RESERVE_SHARE     0.25

/* The share of theoretical RAM bandwidth a CPU reaches reading weights:
 * STREAM-class benchmarks reach 0.75–0.9 on desktops, llama.cpp's CPU
 * decode 0.6 (Raspberry Pi 5) to 0.74 (dual EPYC, NUMA-aware) of it
 * (research notes, system-memory.md). */
#define HR_RAM_DECODE_EFFICIENCY         0.7

/* Layer split runs the GPUs one after the other for one token; each hand-
 * off between GPUs costs a copy and a synchronisation.  Fitted on the two
 * pairs of docs/reference/measured-speed.md: Llama-3-8B Q4_K_M tg1024 on one
 * vs two RTX 3090 (111.74 vs 108.07 tok/s: +0.30 ms) and RTX 4090
 * (127.74 vs 122.56: +0.33 ms). */
#define HR_LAYER_SPLIT_HOP_SECONDS       0.3e-3

/* Row split synchronises the GPUs after every split matrix product:
 * about seven per layer; an assumption (no measurement at hand), and the
 * mode is deprecated in llama.cpp (removed from CUDA in b9890). */
#define HR_ROW_SPLIT_SYNC_SECONDS        20e-6

/* llama.cpp's --fit (on by default since b7407) leaves this much free on
 * every device beyond what it allocates (--fit-target, common/arg.cpp);
 * Ollama launches llama-server without -ngl, so its placement is fit's. */
#define HR_FIT_TARGET_MIB                1024.0

/* Ollama pins a model to one GPU when its own prediction (file + F16 KV)
 * is at most this share of that GPU's free memory (server/sched.go
 * bestSingleGPUFit), unless OLLAMA_SCHED_SPREAD is set. */
#define HR_OLLAMA_SINGLE_GPU_FRACTION    0.8

static const double hr_decode_efficiency_by_family[HR_N_FAMILIES] = {
  [HR_FAMILY_NVIDIA_GEFORCE] = 0.75,
  [HR_FAMILY_NVIDIA_WORKSTATION] = 0.75,
  [HR_FAMILY_NVIDIA_DATACENTER] = 0.80,
  [HR_FAMILY_AMD_RADEON] = 0.65,
  [HR_FAMILY_AMD_INSTINCT] = 0.65,
  [HR_FAMILY_INTEL_ARC] = 0.55,
  [HR_FAMILY_APPLE_SILICON] = 0.55,
  [HR_FAMILY_AMD_APU] = 0.55,          /* as Apple's unified memory */
  [HR_FAMILY_NVIDIA_SOC] = 0.55,
};

/* Energy (hr-energy.c).  A token's energy is the GPU's board power
 * (hardware.json's tdp_w, the maker's total board power) times the time
 * the GPU is busy on that token: the speed model's streaming time of one
 * decode step (decode_gpu_seconds), i.e. board power × utilisation ÷
 * tokens per second, with utilisation = decode_gpu_seconds × tokens per
 * second, the share of a step the GPU works rather than waits (for the
 * CPU's layers, the fixed per-token cost).  Board power while busy is
 * taken as the whole TDP: an upper bound, since a memory-bound decode
 * rarely draws all of it (no published per-device decode power is in
 * docs/reference/).  The CPU's and the idle GPU's power are not counted.
 * The ratio of the busy board power to TDP: */
#define HR_ENERGY_BUSY_POWER_FRACTION    1.0
/* Units: a kilowatt-hour is 3.6 MJ (SI); prices are per million tokens. */
#define HR_ENERGY_JOULES_PER_KWH         3.6e6
#define HR_ENERGY_TOKENS_PER_PRICE       1e6

/* ---- what loads beside the model (hr-extras.c) ---- */

/* A vision encoder's compute buffer, flash attention on, is the patches
 * × (FFN width + this many hidden widths) of F32 activations: fitted on
 * the one published CLIP log of a model in the catalog, Gemma 3 4B's
 * mmproj at 896 × 896 (4096 patches, FFN 4304, hidden 1152): "CUDA0
 * compute buffer size = 121.25 MiB" = 4096 × (4304 + 3 × 1152) × 4 B
 * (https://github.com/ggml-org/llama.cpp/pull/22790, comment by angt). */
#define HR_MMPROJ_COMPUTE_FLOATS_HIDDEN  3.0

/* The acceptance rate of a draft of the target's own family (same
 * tokenizer), when none is given (--acceptance): Llama 3.2 1B Q8_0
 * drafting for Llama 3.1 8B Q8_0 accepted 72.055 % of 730 drafted tokens
 * (https://github.com/ggml-org/llama.cpp/issues/5877, comment by
 * oxfighterjet, 2024-11-19).  Other pairings have no default. */
#define HR_DRAFT_ACCEPTANCE_SAME_FAMILY  0.72

/* llama-server's longest draft (--draft-max, default 16: common/common.h,
 * common_params_speculative n_max); Headroom writes the best length up to
 * it for the pairing's acceptance rate. */
#define HR_DRAFT_MAX_DEFAULT             16

/* llama.cpp refuses a draft whose vocabulary differs from the target's
 * by more than this many tokens (common/speculative.cpp,
 * SPEC_VOCAB_MAX_SIZE_DIFFERENCE). */
#define HR_DRAFT_VOCAB_MAX_DIFFERENCE    128

G_END_DECLS
