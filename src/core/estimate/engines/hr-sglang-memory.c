/* hr-sglang-memory.c — SGLang's static memory pool
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-sglang-memory"

#include "config.h"

#include <math.h>

#include "hr-sglang-memory.h"

/* The chunked prefill size and CUDA graph batch SGLang picks by GPU memory
 * (server_args.py; T4/4080 … B200/MI300 rows of its table). */
static void
gpu_defaults (double   gib,
              guint32  tp,
              guint32 *chunk,
              guint32 *graph_bs)
{
  if (gib < 20)
    *chunk = 2048, *graph_bs = 8;
  else if (gib < 35)
    *chunk = 2048, *graph_bs = tp < 4 ? 24 : 80;
  else if (gib < 60)
    *chunk = 4096, *graph_bs = tp < 4 ? 32 : 160;
  else if (gib < 160)
    *chunk = 8192, *graph_bs = tp < 4 ? 256 : 512;
  else
    *chunk = 16384, *graph_bs = 512;
}

void
hr_sglang_memory (guint64               device_bytes,
                  guint64               weights_bytes_per_rank,
                  double                kv_bytes_per_token_per_rank,
                  const HrSglangParams *p,
                  HrSglangMemory       *out)
{
  double gib = device_bytes / HR_GIB;
  double mb = device_bytes / HR_MIB;
  guint32 tp = MAX (p->tp, 1), pp = MAX (p->pp, 1);
  guint32 chunk, graph_bs;
  double fraction, free_start, rest;

  g_return_if_fail (p != NULL && out != NULL);

  *out = (HrSglangMemory) { 0 };
  gpu_defaults (gib, tp, &chunk, &graph_bs);
  if (p->chunked_prefill_size > 0)
    chunk = p->chunked_prefill_size;
  if (p->cuda_graph_max_bs > 0)
    graph_bs = p->cuda_graph_max_bs;

  fraction = p->mem_fraction_static;
  if (!(fraction > 0))
    {
      double reserved = HR_SGLANG_RESERVE_BASE_MB +
                        HR_SGLANG_RESERVE_PER_CHUNK_TOKEN_MB * MAX (chunk, 2048u) +
                        HR_SGLANG_RESERVE_PER_GRAPH_BS_MB * graph_bs +
                        HR_SGLANG_RESERVE_PER_8_GPUS_MB * tp * pp / 8.0 +
                        HR_SGLANG_PIECEWISE_GRAPHS_MB * MIN (chunk / 8192.0, 1.0);

      if (gib > HR_SGLANG_LARGE_GPU_GIB)
        reserved = MAX (reserved, HR_SGLANG_RESERVE_MIN_LARGE_MB);
      fraction = round ((mb - reserved) / mb * 1000) / 1000;
    }

  /* The free memory after the distributed start-up; the static share is
   * of it, the KV pool what the weights leave of that share. */
  free_start = (double) device_bytes -
               (tp * pp > 1 ? HR_SGLANG_CONTEXT_PARALLEL_GIB : HR_SGLANG_CONTEXT_GIB) * HR_GIB;
  rest = free_start - (double) weights_bytes_per_rank - free_start * (1 - fraction);

  out->mem_fraction_static = fraction;
  out->chunked_prefill_size = chunk;
  out->cuda_graph_max_bs = graph_bs;
  out->free_at_start_bytes = hr_round_bytes (free_start);
  out->static_bytes = hr_round_bytes (free_start * fraction);
  out->dynamic_bytes = hr_round_bytes (free_start * (1 - fraction));
  /* A hybrid: the states take their share of the pool first. */
  if (rest > 0 && p->state_bytes_per_request > 0)
    {
      double mamba = rest * HR_SGLANG_MAMBA_FULL_MEMORY_RATIO /
                     (1 + HR_SGLANG_MAMBA_FULL_MEMORY_RATIO);

      out->max_mamba_cache_size = (guint64) floor (mamba / p->state_bytes_per_request);
      out->mamba_pool_bytes = hr_round_bytes ((double) out->max_mamba_cache_size *
                                              p->state_bytes_per_request);
      rest -= mamba;
    }
  if (rest > 0 && kv_bytes_per_token_per_rank > 0)
    {
      out->max_total_num_tokens = (guint64) floor (rest / kv_bytes_per_token_per_rank);
      out->kv_pool_bytes = hr_round_bytes ((double) out->max_total_num_tokens *
                                           kv_bytes_per_token_per_rank);
    }
  if (out->max_total_num_tokens > 0 && p->context_len > 0)
    {
      guint64 by_context = out->max_total_num_tokens * HR_SGLANG_RUNNING_PER_CONTEXT /
                           p->context_len;

      out->max_running_requests = (guint32) MIN (CLAMP (by_context, HR_SGLANG_RUNNING_MIN,
                                                        HR_SGLANG_RUNNING_MAX),
                                                 out->max_total_num_tokens / 2);
    }
}
