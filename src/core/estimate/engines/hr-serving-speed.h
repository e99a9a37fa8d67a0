/* hr-serving-speed.h — how fast vLLM and SGLang answer one stream
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The speed model of hr-speed.h with the serving engines' kernels: each
 * tensor-parallel rank streams its shard of a stage, two all-reduces a
 * layer join the ranks (latency-bound at decode, bandwidth-bound for
 * prompt chunks), pipeline stages run one after the other for one
 * request.  The interconnect decides the all-reduce's cost.
 */

#pragma once

#include "hr-estimate-types.h"

G_BEGIN_DECLS

/* One all-reduce of a decode step (a few KiB): its latency. */
#define HR_ALLREDUCE_NVLINK_SECONDS   9.0e-6   /* vLLM's custom all-reduce on H100
                                                * NVLink, 4–32 KiB, TP 2–8: 8.5–11.8 µs
                                                * (SGLang PR #2904's table) */
#define HR_ALLREDUCE_PCIE_SECONDS     35.0e-6  /* NCCL over PCIe: an assumption, the
                                                * middle of the 20–50 µs usually quoted */
#define HR_ALLREDUCE_NETWORK_SECONDS  60.0e-6  /* ranks on different machines: an
                                                * assumption (RDMA round trips) */
/* The bus bandwidth of a prompt chunk's large all-reduces (nccl-tests busbw). */
#define HR_ALLREDUCE_NVLINK_GBPS      240.0    /* 8× A100 SXM4 230–250 (H100 SXM 460–480) */
#define HR_ALLREDUCE_PCIE_GBPS        15.0     /* PCIe 4.0 x16: 10–25, a planning figure */
#define HR_ALLREDUCE_NETWORK_GBPS     35.0     /* 2 machines, 4× 400G RoCE: ~35 measured */
/* Each sequence of an engine step costs this beyond the GPU's work (the
 * scheduler, sampler and detokenizer): one constant, fitted by least
 * squares on log error to the RTX 4090 sweep (Mistral 7B BF16, 256 in /
 * 128 out, 4–48 users: 210 … 1190 tokens/s; tests/accuracy), then checked
 * on the other published runs there. */
#define HR_SERVING_SEQ_SECONDS        156.0e-6
/* A pipeline stage handing a step's activations to the next: 10–30 µs. */
#define HR_PP_HOP_SECONDS             20.0e-6

/* Times one stream on @layout, each rank holding @rank_weights_bytes of a
 * stage of @stage_layers layers (with its share of the token embeddings
 * when @embeddings); @chunk tokens a prefill step. */
void hr_serving_time (const HrEstimateInput *input,
                      const HrLayout        *layout,
                      double                 rank_weights_bytes,
                      gboolean               embeddings,
                      guint32                stage_layers,
                      guint32                chunk,
                      HrEstimate            *result);

/* --max-num-seqs for the command: the parallel sequences, or with users
 * asked about, each replica's share of them (a replica serves at most
 * HR_SERVING_MAX_NUM_SEQS at once). */
#define HR_SERVING_MAX_NUM_SEQS       1024
guint32 hr_serving_max_num_seqs (const HrEstimateInput *input,
                                 const HrLayout        *layout);

/* The prompt each user sends under load: the one asked for, else what
 * the context leaves the answer. */
static inline double
hr_serving_load_prompt (guint64 prompt_tokens,
                        guint64 generate_tokens,
                        guint64 context)
{
  double generate = generate_tokens > 0 ? generate_tokens : HR_DEFAULT_GENERATE;

  return prompt_tokens > 0 ? (double) prompt_tokens
         : context > generate ? context - generate : (double) context;
}

G_END_DECLS
