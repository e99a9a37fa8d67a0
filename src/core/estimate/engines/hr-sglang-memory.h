/* hr-sglang-memory.h — SGLang's static memory pool
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SGLang keeps a static share of the GPU (--mem-fraction-static) for the
 * weights and the KV pool, measured against the memory free at start; the
 * rest holds activations and CUDA graphs.  By default the share is what
 * a reserve leaves, the reserve growing with the prefill chunk, the CUDA
 * graph batch and the parallel sizes (python/sglang/srt/server_args.py,
 * _handle_gpu_memory_settings; research notes sglang.md B1).  Pure
 * functions over plain numbers; bytes.
 */

#pragma once

#include <glib.h>

#include "hr-units.h"

G_BEGIN_DECLS

/* The reserve SGLang keeps out of the static pool, in MB of 2^20 bytes:
 * 512 + 1.5 × max(chunked prefill, 2048) + 2 × CUDA graph batch + 1024 per
 * 8 GPUs of TP × PP, at least 10 GiB on GPUs of more than 60 GiB. */
#define HR_SGLANG_RESERVE_BASE_MB        512.0
#define HR_SGLANG_RESERVE_PER_CHUNK_TOKEN_MB 1.5
#define HR_SGLANG_RESERVE_PER_GRAPH_BS_MB 2.0
#define HR_SGLANG_RESERVE_PER_8_GPUS_MB  1024.0
#define HR_SGLANG_RESERVE_MIN_LARGE_MB   10240.0
#define HR_SGLANG_LARGE_GPU_GIB          60.0
/* Piecewise CUDA graphs (on by default): 8 MB for each captured size, 58
 * sizes up to a chunk of 8192 tokens (the sizes thin out above 256). */
#define HR_SGLANG_PIECEWISE_GRAPHS_MB    464.0

/* What the CUDA context and NCCL take before SGLang measures the free
 * memory: about 0.5 GiB on one GPU, 1.5 GiB with several (the same
 * context vLLM logs as its start-up non-torch memory, 0.51 and 1.51). */
#define HR_SGLANG_CONTEXT_GIB            0.5
#define HR_SGLANG_CONTEXT_PARALLEL_GIB   1.5

/* Running requests: the pool in contexts × 512, within 2048 … 4096, at
 * most half the pool's tokens (scheduler defaults). */
#define HR_SGLANG_RUNNING_PER_CONTEXT    512
#define HR_SGLANG_RUNNING_MIN            2048
#define HR_SGLANG_RUNNING_MAX            4096

typedef struct
{
  double mem_fraction_static;        /* 0: SGLang's default for the GPU */
  guint32 chunked_prefill_size;      /* 0: by GPU memory */
  guint32 cuda_graph_max_bs;         /* 0: by GPU memory and TP */
  guint32 tp;
  guint32 pp;
  guint64 context_len;
  double state_bytes_per_request;    /* hybrids: every recurrent layer's
                                      * state of one request on a rank (0:
                                      * no recurrent layers) */
} HrSglangParams;

/* A hybrid's pool is split between the mamba states and the KV cache,
 * mamba : full = --mamba-full-memory-ratio, 0.9 by default (SGLang's
 * server arguments, mamba_full_memory_ratio; ModelRunner's memory
 * profiling: mamba budget = rest × ratio ÷ (1 + ratio), max_mamba_cache_size
 * = budget ÷ the state of one request).  The SSM state is float32
 * (mamba_ssm_dtype "float32" in SGLang's logged server_args), the
 * convolution window in the model's BF16. */
#define HR_SGLANG_MAMBA_FULL_MEMORY_RATIO 0.9
#define HR_SGLANG_SSM_BYTES_PER_ELEMENT   4.0
#define HR_SGLANG_CONV_BYTES_PER_ELEMENT  2.0

typedef struct
{
  double mem_fraction_static;
  guint32 chunked_prefill_size;
  guint32 cuda_graph_max_bs;
  guint64 free_at_start_bytes;       /* what SGLang measures before loading */
  guint64 static_bytes;              /* weights + KV pool */
  guint64 kv_pool_bytes;
  guint64 max_total_num_tokens;
  guint32 max_running_requests;
  guint64 dynamic_bytes;             /* activations and graphs */
  guint64 mamba_pool_bytes;          /* hybrids: the states' share */
  guint64 max_mamba_cache_size;      /*   requests whose state it holds */
} HrSglangMemory;

void hr_sglang_memory (guint64                device_bytes,
                       guint64                weights_bytes_per_rank,
                       double                 kv_bytes_per_token_per_rank,
                       const HrSglangParams  *p,
                       HrSglangMemory        *out);

G_END_DECLS
