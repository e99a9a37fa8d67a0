/* hr-serving-speed.c — how fast vLLM and SGLang answer one stream
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-serving-speed"

#include "config.h"

#include "hr-profile-common.h"
#include "hr-serving-speed.h"
#include "hr-speed.h"

/* NVLink and its kin join the GPUs of one machine directly; PCIe goes
 * through the host; a group wider than a machine crosses the network. */
static void
allreduce_cost (const HrEstimateInput *input,
                const HrLayout        *layout,
                double                *seconds,
                double                *gbps)
{
  guint32 per_node = layout->tp * layout->pp * MAX (layout->dp, 1) / MAX (layout->nodes, 1);

  if (layout->tp > per_node)
    {
      *seconds = HR_ALLREDUCE_NETWORK_SECONDS;
      *gbps = HR_ALLREDUCE_NETWORK_GBPS;
      return;
    }
  switch (input->device->fabric)
    {
    case HR_FABRIC_NVLINK:
    case HR_FABRIC_NVLINK_BRIDGE:
    case HR_FABRIC_INFINITY:
    case HR_FABRIC_NONE:
      *seconds = HR_ALLREDUCE_NVLINK_SECONDS;
      *gbps = HR_ALLREDUCE_NVLINK_GBPS;
      break;
    case HR_FABRIC_PCIE:
    default:
      *seconds = HR_ALLREDUCE_PCIE_SECONDS;
      *gbps = HR_ALLREDUCE_PCIE_GBPS;
      break;
    }
}

void
hr_serving_time (const HrEstimateInput *input,
                 const HrLayout        *layout,
                 double                 rank_weights_bytes,
                 gboolean               embeddings,
                 guint32                stage_layers,
                 guint32                chunk,
                 HrEstimate            *result)
{
  const HrModelArch *model = input->model;
  HrSpeedInput speed = { 0 };
  double active = model->params_total > 0 ? model->params_active / model->params_total : 1;
  guint32 tp = MAX (layout->tp, 1);
  /* a token reads one row of the embedding table, not all of it (unless
   * it is also the output head) */
  double table = embeddings && !input->tied_embeddings
                 ? (double) model->vocab * model->hidden * input->bpw / 8 / tp : 0;

  speed.arch = model;
  speed.family = (HrQuantFamily) input->quant_family;
  speed.n_gpus = MIN (tp, HR_MAX_DEVICES);
  speed.tensor_parallel = tp > 1;
  speed.serving = TRUE;
  speed.flash_attn = TRUE;      /* FlashAttention / paged attention */
  speed.kv_bytes_per_element = input->kv_bytes_per_element;
  speed.n_ubatch = chunk;
  speed.n_batch = chunk;
  speed.pp_stages = layout->pp;
  speed.pp_hop_seconds = HR_PP_HOP_SECONDS;
  allreduce_cost (input, layout, &speed.allreduce_seconds, &speed.allreduce_gbps);
  for (guint32 d = 0; d < speed.n_gpus; d++)
    speed.gpus[d] = (HrSpeedGpu) {
      .device = input->device,
      .layers = stage_layers,
      .stream_bytes = (rank_weights_bytes - table) * active,
      .layer_bytes = rank_weights_bytes,
      .layer_params = hr_profile_layer_params (input) * stage_layers / model->n_layers / tp,
    };
  hr_profile_time (input, result, &speed);
  result->decode_efficiency = HR_SPEED_ETA_W_SERVING;
}
