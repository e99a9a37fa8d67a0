/* hr-engine.h — what llama.cpp, Ollama and vLLM allocate besides the weights
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pure functions over plain structs, like hr-estimate.h: no GObject, no
 * allocation, no global state.  Each engine profile turns a model shape and
 * the engine's own launch parameters into the buffers that engine really
 * creates:
 *
 *  - llama.cpp (and Ollama, which runs llama-server): the KV cache with
 *    llama.cpp's padding and sliding-window sizing, the compute buffer of
 *    the worst-case graph, the logits output buffer, the token embeddings
 *    that stay in host memory and a per-device backend reserve.  Calibrated
 *    on a real llama.cpp (tests/calibration/, results in
 *    tests/calibration/results/llamacpp-cpu.csv).
 *  - vLLM: the gpu_memory_utilization budget minus weights, the profiled
 *    activation peak and non-torch memory; the rest becomes KV blocks.
 *    Calibrated on vLLM 0.6's own profiling log (reference/measured.md c).
 *
 * All sizes are bytes.
 */

#pragma once

#include <glib.h>

#include "hr-estimate.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* llama.cpp                                                           */
/* ------------------------------------------------------------------ */

/* llama.cpp rounds the context (and each sequence's share of it) up to a
 * multiple of 256 cells, with or without flash attention
 * (llama_context::llama_context: "cparams.n_ctx = GGML_PAD(cparams.n_ctx,
 * 256)"; before late 2025 it was 32 without flash attention, 256 with).
 * The sliding-window cache is padded the same way (llama_kv_cache_iswa:
 * "the SWA cache is always padded to 256 for performance"). */
#define HR_LLAMACPP_CTX_PAD              256

/* llama-server's defaults (common/common.h, tools/server/server.cpp):
 * -b 2048, -ub 512, -fa auto (on wherever the backend has the kernel:
 * CUDA, ROCm, Metal, Vulkan, CPU), and -np auto = 4 slots sharing one
 * unified KV cache of -c cells. */
#define HR_LLAMACPP_DEFAULT_N_BATCH      2048
#define HR_LLAMACPP_DEFAULT_N_UBATCH     512
#define HR_LLAMACPP_DEFAULT_N_SEQ        4

/* Memory a GPU backend takes before any buffer: the CUDA/ROCm context,
 * cuBLAS/hipBLAS handles and workspaces.  Ollama sets exactly this much
 * aside on every CUDA and ROCm device (ml/device.go MinimumMemory():
 * 457 MiB; 512 MiB on Metal). */
#define HR_LLAMACPP_BACKEND_RESERVE_MIB  457.0
#define HR_LLAMACPP_METAL_RESERVE_MIB    512.0

/* The compute buffer is what ggml's graph allocator needs for the
 * worst-case micro-batch: n_ubatch tokens, every KV cell visible, logits
 * for every token.  It is the largest of a few phases of the graph, each a
 * per-token count of F32 values times 4 B times n_ubatch:
 *
 *   output:     n_vocab + 2 n_embd (+ n_embd with a quantized V cache) + 1
 *   attention:  n_kv n_head + masks + 3 n_embd + 2 n_q + 2 n_kv_embd + 5
 *               (flash attention off only: the F32 KQ matrix dominates)
 *   FFN:        masks + 3 n_ff + 3 n_embd + n_q + 7 (flash attention on)
 *                                           + n_kv_embd - 1 (off)
 *
 * with n_q = n_head × head_dim, n_kv_embd = n_kv_head × head_dim and masks
 * = (n_kv + n_kv_swa) × (4 B without flash attention, 2 B with) / 4 B.
 * The coefficients were fitted on the CPU backend of llama.cpp 0.4.0 (the
 * build node-llama-cpp 3.21.1 ships): every realistic shape is within 2 %
 * (tests/calibration/README.md).  The structure — the KQ term, the logits
 * term, the F32/F16 mask — is backend independent (same graph); the small
 * per-token constants differ a little on CUDA, where the attention phase
 * carries 4 n_embd instead of 3 n_embd + 2 n_q + 2 n_kv_embd + 5 (the
 * formula of Ollama's fs/ggml GraphSize()).  CUDA logs, flash attention
 * off, n_ubatch 512: a Mistral-7B-shaped model logs 164.00 MiB at n_ctx
 * 2048 and 2144.00 MiB at 32768 (fedora-copr/logdetective#106), this
 * model gives 176.0 (+7 %) and 2156.0 MiB (+0.6 %); Llama-3.1-8B at n_ctx
 * 8192 (Ollama, 4 slots, the setup of reference/measured.md b 3) logs
 * 560.00 MiB, this model 572.0 MiB (+2 %). */
#define HR_LLAMACPP_OUT_EMBD_COEF        2.0
#define HR_LLAMACPP_OUT_CONST            1.0
#define HR_LLAMACPP_ATTN_EMBD_COEF       3.0
#define HR_LLAMACPP_ATTN_Q_COEF          2.0
#define HR_LLAMACPP_ATTN_KV_COEF         2.0
#define HR_LLAMACPP_ATTN_CONST           5.0
#define HR_LLAMACPP_FFN_FF_COEF          3.0
#define HR_LLAMACPP_FFN_EMBD_COEF        3.0
#define HR_LLAMACPP_FFN_Q_COEF           1.0
#define HR_LLAMACPP_FFN_CONST            7.0

typedef struct
{
  guint32 n_ubatch;              /* -ub: tokens per graph evaluation */
  guint32 n_batch;               /* -b: logical batch (n_ubatch <= n_batch) */
  gboolean flash_attn;           /* -fa */
  guint32 n_seq;                 /* -np: parallel sequences (slots) */
  gboolean kv_unified;           /* --kv-unified: the slots share one cache
                                  * of n_ctx cells instead of n_ctx / n_seq
                                  * each (llama-server's -np auto sets it) */
  gboolean swa_full;             /* --swa-full: sliding-window layers keep
                                  * the whole context */
  double kv_k_bytes_per_element; /* F16 2, Q8_0 34/32, Q4_0 18/32 */
  double kv_v_bytes_per_element; /* quantized V needs flash attention */
} HrLlamaCppParams;

typedef struct
{
  guint64 kv_bytes;              /* K and V of every layer and stream */
  guint64 kv_cells;              /* padded cells of a full-attention layer,
                                  * all streams together */
  guint64 kv_swa_cells;          /* cells of a sliding-window layer, all
                                  * streams (0 without such layers) */
  guint64 compute_bytes;         /* the device's compute buffer */
  guint64 output_bytes;          /* logits buffer, in host memory */
  guint64 host_bytes;            /* token embeddings kept in RAM (llama.cpp
                                  * always puts the input layer on the CPU) */
  guint64 host_compute_bytes;    /* inputs the host builds per micro-batch:
                                  * embedded tokens and attention masks */
  guint64 reserve_bytes;         /* backend reserve of one GPU device */
} HrLlamaCppMemory;

void         hr_llamacpp_params_init_default  (HrLlamaCppParams       *p);

/* @ffn_width is the per-token width of the feed-forward activations: the
 * intermediate size of a dense model; for a mixture of experts, experts
 * per token × expert intermediate size (+ the shared expert's).  @n_ctx is
 * llama-server's -c (0: the trained context, arch->max_context). */
void         hr_llamacpp_memory               (const HrModelArch      *arch,
                                               guint64                 ffn_width,
                                               guint64                 token_embd_bytes,
                                               guint64                 n_ctx,
                                               const HrLlamaCppParams *p,
                                               HrLlamaCppMemory       *out);

/* ------------------------------------------------------------------ */
/* Ollama                                                              */
/* ------------------------------------------------------------------ */

/* Ollama's defaults (ollama/ollama envconfig/config.go, server/routes.go,
 * api/types.go): OLLAMA_NUM_PARALLEL 1; num_batch 512; num_ctx from the
 * total VRAM since v0.15.5 — 4096 below 23 GiB, 32768 from 23 GiB, 262144
 * from 47 GiB (v0.6.7 … v0.15.4 used 4096 everywhere, earlier versions
 * 2048); flash attention "auto", i.e. on for GPUs that support it. */
#define HR_OLLAMA_DEFAULT_NUM_CTX        4096
#define HR_OLLAMA_DEFAULT_NUM_PARALLEL   1
#define HR_OLLAMA_DEFAULT_NUM_BATCH      512
#define HR_OLLAMA_NUM_CTX_MEDIUM         32768
#define HR_OLLAMA_NUM_CTX_LARGE          262144
#define HR_OLLAMA_VRAM_MEDIUM_GIB        23.0
#define HR_OLLAMA_VRAM_LARGE_GIB         47.0

typedef struct
{
  guint64 num_ctx;               /* context per slot */
  guint32 num_parallel;          /* OLLAMA_NUM_PARALLEL */
  gboolean flash_attn;           /* OLLAMA_FLASH_ATTENTION */
  guint32 num_batch;             /* num_batch (= -b = -ub) */
} HrOllamaParams;

void         hr_ollama_params_init_default    (HrOllamaParams         *p);
guint64      hr_ollama_default_num_ctx        (guint64                 total_vram_bytes);

/* The llama-server launch Ollama makes: -c num_ctx × num_parallel,
 * -np num_parallel (one stream per slot), -b = -ub = num_batch; the KV
 * cache type (OLLAMA_KV_CACHE_TYPE) only takes effect with flash
 * attention, otherwise the cache stays F16.  Returns the -c value. */
guint64      hr_ollama_llamacpp_params        (const HrOllamaParams   *o,
                                               double                  kv_bytes_per_element,
                                               HrLlamaCppParams       *p);

/* ------------------------------------------------------------------ */
/* vLLM                                                                */
/* ------------------------------------------------------------------ */

/* vLLM's defaults (vllm/engine/arg_utils.py, config): 90 % of the device,
 * blocks of 16 tokens, CUDA graphs on.  `vllm serve` batches at most 2048
 * tokens and 256 sequences per step (8192 and 1024 on ≥ 70 GiB GPUs other
 * than the A100); vLLM 0.6 without chunked prefill used
 * max(max_model_len, 2048) tokens. */
#define HR_VLLM_DEFAULT_GPU_MEMORY_UTILIZATION 0.90
#define HR_VLLM_DEFAULT_BLOCK_SIZE       16
#define HR_VLLM_DEFAULT_MAX_NUM_SEQS     256
#define HR_VLLM_DEFAULT_MAX_NUM_BATCHED_TOKENS 2048

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

/* Memory outside torch's allocator: CUDA context, cuBLAS workspace, NCCL.
 * 0.35 GiB in the calibration log (RTX 3090, one GPU); other vLLM logs
 * show 0.16–0.47 GiB on one GPU and several GiB with tensor parallelism
 * on H100s (vllm-project/vllm#10511: 1.79 GiB, 3.58 GiB with -tp 2). */
#define HR_VLLM_NON_TORCH_GIB            0.35

/* CUDA graphs are captured after the KV cache is allocated and come out of
 * the (1 − gpu_memory_utilization) margin: vLLM logs "Graph capturing
 * finished in N secs, took 0.11 … 0.96 GiB" across models. */
#define HR_VLLM_CUDA_GRAPH_GIB           0.5

typedef struct
{
  double gpu_memory_utilization;
  guint64 max_num_batched_tokens;
  guint64 max_model_len;
  guint32 max_num_seqs;
  guint32 block_size;
  gboolean enforce_eager;
} HrVllmParams;

typedef struct
{
  guint64 budget_bytes;          /* device × gpu_memory_utilization */
  guint64 weights_bytes;
  guint64 activation_peak_bytes;
  guint64 non_torch_bytes;
  guint64 cuda_graph_bytes;      /* outside the budget */
  guint64 kv_cache_bytes;        /* what the budget leaves (>= 0) */
  guint64 kv_blocks;
  guint64 kv_capacity_tokens;
  double max_concurrency;        /* capacity / max_model_len */
} HrVllmMemory;

void         hr_vllm_params_init_default      (HrVllmParams           *p,
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
