/* hr-llamacpp-memory.h — the buffers llama.cpp allocates besides the weights
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The KV cache with llama.cpp's padding and sliding-window sizing, the
 * compute buffer of the worst-case graph, the logits output buffer, the
 * token embeddings that stay in host memory and a per-device backend
 * reserve.  Calibrated on a real llama.cpp (tests/calibration/, results in
 * tests/calibration/results/llamacpp-cpu.csv).  Pure functions; bytes.
 */

#pragma once

#include <glib.h>

#include "hr-model-arch.h"

G_BEGIN_DECLS

/* llama.cpp rounds the context (and each sequence's share of it) up to a
 * multiple of 256 cells, with or without flash attention
 * (llama_context::llama_context: "cparams.n_ctx = GGML_PAD(cparams.n_ctx,
 * 256)"; before late 2025 it was 32 without flash attention, 256 with).
 * The sliding-window cache is padded the same way (llama_kv_cache_iswa:
 * "the SWA cache is always padded to 256 for performance"). */
#define HR_LLAMACPP_CTX_PAD              256

/* Micro-batches of at least this many tokens run the products of CPU-held
 * weights on the first GPU, copying the weights over PCIe ("op offload",
 * ggml-cuda.cu ggml_backend_cuda_device_offload_op; the same 32 on Vulkan,
 * SYCL and Metal; GGML_OP_OFFLOAD_MIN_BATCH overrides it since b7671). */
#define HR_LLAMACPP_OP_OFFLOAD_MIN_BATCH 32

/* With every layer on several GPUs in layer split (and no tensor
 * overrides), llama.cpp pipelines micro-batches across them and keeps
 * this many copies of every graph input — the masks above all — on each
 * device and the host (GGML_SCHED_MAX_COPIES, ggml/CMakeLists.txt;
 * "pipeline parallelism enabled"). */
#define HR_LLAMACPP_SCHED_MAX_COPIES     4

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
 * 8192 (Ollama, 4 slots, the setup of docs/reference/measured.md b 3) logs
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

/* llama.cpp keeps the recurrent state in F32 (r and s alike): the
 * recurrent_type_r/_s llama_model::create_memory passes to
 * llama_memory_recurrent and llama_memory_hybrid (src/llama-model.cpp). */
#define HR_LLAMACPP_STATE_BYTES_PER_ELEMENT 4.0

typedef struct
{
  guint64 kv_bytes;              /* K and V of every layer and stream */
  guint64 kv_cells;              /* padded cells of a full-attention layer,
                                  * all streams together */
  guint64 kv_swa_cells;          /* cells of a sliding-window layer, all
                                  * streams (0 without such layers) */
  guint64 state_bytes;           /* recurrent layers' r and s buffers, every
                                  * sequence (0 for a plain transformer) */
  guint64 state_bytes_per_sequence;
  guint32 state_cells;           /* the sequences they are reserved for */
  guint64 compute_bytes;         /* the device's compute buffer */
  guint64 output_bytes;          /* logits buffer, in host memory */
  guint64 host_bytes;            /* token embeddings kept in RAM (llama.cpp
                                  * always puts the input layer on the CPU) */
  guint64 host_compute_bytes;    /* inputs the host builds per micro-batch:
                                  * embedded tokens and attention masks */
  guint64 mask_bytes;            /* the attention masks of one micro-batch */
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

G_END_DECLS
