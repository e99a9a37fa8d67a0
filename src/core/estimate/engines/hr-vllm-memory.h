/* hr-vllm-memory.h — vLLM's memory budget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The gpu_memory_utilization budget minus weights, the profiled activation
 * peak and non-torch memory; the rest becomes KV blocks.  Calibrated on
 * vLLM 0.6's own profiling log (docs/reference/measured.md c).  Pure functions.
 */

#pragma once

#include <glib.h>

#include "hr-model-arch.h"

G_BEGIN_DECLS

/* Two generations of vLLM allocate differently.  Headroom's commands
 * target V1 (0.21 and later); the 0.6 profile stays for the logs it was
 * calibrated on. */
typedef enum
{
  HR_VLLM_V1,        /* 0.21+: CUDA graph memory comes off the budget */
  HR_VLLM_V1_0_19,   /* V1 before 0.21: graphs captured after the cache */
  HR_VLLM_V0_6,      /* 0.6: graphs after the cache, another sampler */
} HrVllmGeneration;

/* vLLM's defaults (vllm/engine/arg_utils.py, config/cache.py at 002f10e0):
 * 92 % of the device since 0.21 (90 % before, raised with the CUDA graph
 * profiling of PR #38284), blocks of 16 tokens, CUDA graphs on.  `vllm
 * serve` batches at most 2048 tokens and 256 sequences per step; 8192
 * and 1024 on GPUs of 70 GiB and more other than the A100; 16384 from
 * 160 GiB (get_batch_defaults).  vLLM 0.6 without chunked prefill used
 * max(max_model_len, 2048) tokens. */
#define HR_VLLM_DEFAULT_GPU_MEMORY_UTILIZATION 0.92
#define HR_VLLM_V0_GPU_MEMORY_UTILIZATION      0.90
#define HR_VLLM_DEFAULT_BLOCK_SIZE       16
#define HR_VLLM_DEFAULT_MAX_NUM_SEQS     256
#define HR_VLLM_DEFAULT_MAX_NUM_BATCHED_TOKENS 2048
#define HR_VLLM_LARGE_GPU_GIB            70.0
#define HR_VLLM_LARGE_MAX_NUM_SEQS       1024
#define HR_VLLM_LARGE_MAX_NUM_BATCHED_TOKENS 8192
#define HR_VLLM_HUGE_GPU_GIB             160.0
#define HR_VLLM_HUGE_MAX_NUM_BATCHED_TOKENS 16384

/* Activations are 16-bit whatever the weight format (BF16/FP16 compute). */
#define HR_VLLM_ACTIVATION_BYTES         2.0

/* The profiled activation peak is the larger of two phases of vLLM's
 * dummy forward pass over max_num_batched_tokens tokens:
 *
 *  - the MLP: gate_up output (2 × intermediate), the activation's output
 *    (intermediate) and three hidden-size tensors (residual, normed input,
 *    down projection) per token, 16-bit.  Llama-3.1-8B on an RTX 3090
 *    (vllm-project/vllm#10517, vLLM 0.6.4): peak_torch − weights = 2.07
 *    GiB at 20 000 tokens, 2.99 GiB at 29 000; 3 × 14336 + 3 × 4096 values
 *    × 2 B = 110 592 B per token gives 2.06 and 2.99 GiB.
 *  - the sampler: logits of max_num_seqs sequences in F32, plus the
 *    sorted copies, indices and probabilities of top-p/top-k sampling:
 *    39 B per sequence and vocabulary entry, fitted on phi-1.5 (0.48 GiB
 *    for 256 × 51 200) and Llama-3.1-70B-FP8 with 4096 sequences (19.09
 *    GiB for 4096 × 128 256), both vLLM 0.6.4 logs; the hidden states of
 *    every token stay alive meanwhile.  Llama-3-8B at 8192 tokens then
 *    gives 1.25 GiB against the 1.26 GiB vllm-project/vllm#10511 reports. */
#define HR_VLLM_MLP_INTERMEDIATE_COEF    3.0
#define HR_VLLM_MLP_HIDDEN_COEF          3.0
#define HR_VLLM_SAMPLER_BYTES_PER_LOGIT  39.0

/* V1's sampler keeps fewer copies: 15.45 B per sequence and vocabulary
 * entry, fitted on Llama-3.1-8B on an H100 (vLLM 0.19.0, 1024 sequences:
 * "torch peak memory increase: 1.89GiB"); it gives Qwen2.5-7B and Qwen3-8B
 * 2.24 GiB (logged 2.21), Gemma-2-27B 3.77 (3.66), Mistral-Small-3.1
 * 1.93 (2.03) — llm-d-planner's v0.19 logs, research notes vllm.md A1. */
#define HR_VLLM_V1_SAMPLER_BYTES_PER_LOGIT 15.45

/* Memory outside torch's allocator: CUDA context, cuBLAS workspace, NCCL.
 * 0.35 GiB in the calibration log (RTX 3090, one GPU); other vLLM logs
 * show 0.16–0.47 GiB on one GPU and several GiB with tensor parallelism
 * on H100s (vllm-project/vllm#10511: 1.79 GiB, 3.58 GiB with -tp 2). */
#define HR_VLLM_NON_TORCH_GIB            0.35

/* V1's "non-torch forward increase": 0.24–0.26 GiB on one GPU; 2.07–2.21
 * GiB with tensor parallelism (custom all-reduce and NCCL buffers); 0.07
 * per pipeline stage (vLLM 0.19.0 on H100, 16 logs of llm-d-planner). */
#define HR_VLLM_V1_NON_TORCH_GIB         0.25
#define HR_VLLM_V1_NON_TORCH_TP_GIB      2.1
#define HR_VLLM_V1_NON_TORCH_PP_GIB      0.07

/* CUDA graphs.  0.6 captured them after the KV cache, out of the
 * (1 − gpu_memory_utilization) margin: "took 0.11 … 0.96 GiB" across
 * models.  Since 0.21 vLLM estimates their memory before and takes it off
 * the budget: 0.54–1.70 GiB estimated in the v0.19 logs, median 0.84. */
#define HR_VLLM_CUDA_GRAPH_GIB           0.5
#define HR_VLLM_V1_CUDA_GRAPH_GIB        0.85

typedef struct
{
  HrVllmGeneration generation;
  double gpu_memory_utilization;
  guint64 max_num_batched_tokens;
  guint64 max_model_len;
  guint32 max_num_seqs;
  guint32 block_size;
  gboolean enforce_eager;
  guint32 pp;                    /* pipeline stages (V1 non-torch only) */
} HrVllmParams;

typedef struct
{
  guint64 budget_bytes;          /* device × gpu_memory_utilization */
  guint64 weights_bytes;
  guint64 activation_peak_bytes;
  guint64 non_torch_bytes;
  guint64 cuda_graph_bytes;      /* V1: off the budget; 0.6: outside it */
  guint64 kv_cache_bytes;        /* what the budget leaves (>= 0) */
  guint64 kv_blocks;
  guint64 kv_capacity_tokens;
  double max_concurrency;        /* capacity / max_model_len */
} HrVllmMemory;

/* vLLM's tensor-parallel rule (vllm/config: verify_with_parallel_config
 * and the attention layers): the query heads divide by the size, and the
 * KV heads either divide by it or divide it (then each GPU keeps a copy
 * of a head).  MLA models shard their heads the same way. */
/* vLLM keeps a hybrid's recurrent state in its model dtype unless the
 * checkpoint says otherwise (MambaStateDtypeCalculator, "auto" →
 * model_config.dtype): BF16. */
#define HR_VLLM_STATE_BYTES_PER_ELEMENT 2.0
/* FlashAttention's kernel block sizes are MultipleOf(16)
 * (vllm/v1/attention/backends/flash_attn.py,
 * get_supported_kernel_block_sizes). */
#define HR_VLLM_KERNEL_BLOCK_ALIGNMENT 16

guint32      hr_vllm_hybrid_block_size        (double                  attn_page_1_token,
                                               double                  mamba_page,
                                               guint32                 block_size,
                                               double                 *page_padded);

gboolean     hr_vllm_tp_valid                 (const HrModelArch      *arch,
                                               guint32                 tp);
guint32      hr_vllm_nearest_tp               (const HrModelArch      *arch,
                                               guint32                 tp);

/* V1 (0.21+) defaults for a GPU of @device_bytes (0: the smallest). */
void         hr_vllm_params_init_default      (HrVllmParams           *p,
                                               guint64                 max_model_len);
void         hr_vllm_params_init_for_device   (HrVllmParams           *p,
                                               guint64                 max_model_len,
                                               guint64                 device_bytes,
                                               gboolean                is_a100);
/* vLLM 0.6's, for the logs the first profile was calibrated on. */
void         hr_vllm_params_init_v0           (HrVllmParams           *p,
                                               guint64                 max_model_len);

/* @ffn_width as for hr_llamacpp_memory(); tensor parallelism splits it,
 * not the hidden size nor the sampler's full-vocabulary logits. */
void         hr_vllm_memory                   (const HrModelArch      *arch,
                                               guint64                 ffn_width,
                                               guint64                 device_bytes,
                                               guint64                 weights_bytes_per_device,
                                               double                  kv_bytes_per_token_per_device,
                                               guint32                 tp,
                                               const HrVllmParams     *p,
                                               HrVllmMemory           *out);

G_END_DECLS
