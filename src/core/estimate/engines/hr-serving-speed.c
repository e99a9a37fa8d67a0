/* hr-serving-speed.c — how fast vLLM and SGLang answer one stream
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-serving-speed"

#include "config.h"

#include <math.h>

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

guint32
hr_serving_max_num_seqs (const HrEstimateInput *input,
                         const HrLayout        *layout)
{
  guint32 dp = MAX (layout->dp, 1);

  if (input->users == 0)
    return MAX (input->batch, 1);
  return MIN (MAX (input->batch, (input->users + dp - 1) / dp), HR_SERVING_MAX_NUM_SEQS);
}

/* A served user's answer rate with @batch sequences in a replica: each
 * step decodes a token for all of them, and every user's prompt passes
 * once per answer (the chunks ride along with the steps). */
static double
per_user_rate (const HrSpeedInput *speed,
               double              batch,
               double              prompt,
               double              generate,
               double              prefill_seconds)
{
  double step = hr_speed_step_seconds (speed, batch, prompt + generate / 2) +
                batch * HR_SERVING_SEQ_SECONDS;

  return generate / (generate * step + batch * prefill_seconds);
}

/* The rate a served user reads the answer at once it streams (what the
 * window calls the answer rate, and what the target is for): every step
 * decodes a token for all @batch sequences, and the other users' prompts
 * pass between the steps; the user's own prompt is not in it — it is
 * the first token's wait (load_ttft_seconds).  Issue 30, item 17: the
 * rate for one user had the prompt in it (29 vs 61 tok/s). */
static double
answer_rate (const HrSpeedInput *speed,
             double              batch,
             double              prompt,
             double              generate,
             double              prefill_seconds)
{
  double step = hr_speed_step_seconds (speed, batch, prompt + generate / 2) +
                batch * HR_SERVING_SEQ_SECONDS;

  return generate / (generate * step + (batch - 1) * prefill_seconds);
}

/* Users sending a prompt and reading the answer, again and again: as
 * many at once as the cache and max_num_seqs hold (a sequence takes its
 * prompt and half its answer on average), the others wait. */
static void
serving_load (const HrEstimateInput *input,
              const HrSpeedInput    *speed,
              HrEstimate            *result)
{
  double generate = input->generate_tokens > 0 ? input->generate_tokens : HR_DEFAULT_GENERATE;
  double prompt = hr_serving_load_prompt (input->prompt_tokens, input->generate_tokens,
                                          input->context);
  guint32 dp = MAX (result->layout.dp, 1);
  guint32 per_replica = (input->users + dp - 1) / dp;
  guint32 replicas = (input->users + per_replica - 1) / per_replica;
  double fit = (double) result->kv_capacity_tokens / (prompt + generate / 2);
  guint32 capacity = (guint32) MIN ((double) MAX (result->max_num_seqs, 1), floor (fit));
  guint32 batch = MIN (per_replica, capacity);
  double prefill = hr_speed_prefill_seconds (speed, (guint64) prompt);

  result->users = input->users;
  result->users_served = batch * replicas;
  if (batch == 0)
    return;
  result->per_user_tokens_per_s = answer_rate (speed, batch, prompt, generate, prefill);
  /* the throughput counts every prompt (as the measured runs did) */
  result->aggregate_tokens_per_s = per_user_rate (speed, batch, prompt, generate, prefill) *
                                   batch * replicas;
  result->load_ttft_seconds = prefill + hr_speed_step_seconds (speed, batch, prompt);

  /* The most users at the target each (the rate falls as users grow). */
  if (input->target_tokens_per_s <= 0)
    result->max_users = capacity * dp;
  else if (answer_rate (speed, 1, prompt, generate, prefill) < input->target_tokens_per_s)
    result->max_users = 0;
  else
    {
      guint32 low = 1, high = capacity;

      while (low < high)
        {
          guint32 mid = low + (high - low + 1) / 2;

          if (answer_rate (speed, mid, prompt, generate, prefill) >= input->target_tokens_per_s)
            low = mid;
          else
            high = mid - 1;
        }
      result->max_users = low * dp;
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
  speed.backend = hr_device_backend (input->device);
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
      /* never below nothing, whatever the model claims */
      .stream_bytes = MAX (rank_weights_bytes - table, 0.0) * active,
      .layer_bytes = rank_weights_bytes,
      .layer_params = hr_profile_layer_params (input) * stage_layers / model->n_layers / tp,
    };
  if (input->experts > 0 && input->experts_active < input->experts && model->params_total > 0)
    {
      double routed = (double) input->experts_active / input->experts;

      speed.experts = input->experts;
      speed.experts_active = input->experts_active;
      speed.expert_share = CLAMP ((model->params_total - model->params_active) / (1 - routed) /
                                  model->params_total, 0, 1);
    }
  hr_profile_time (input, result, &speed);
  result->decode_efficiency = HR_SPEED_ETA_W_SERVING;
  if (input->users > 0)
    serving_load (input, &speed, result);
}
