/* hr-serving-plan.c — the smallest vLLM / SGLang layout that meets a target
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GPU counts are tried from one upwards: up to a machine's size any count,
 * past it whole machines.  For each count every split tp × pp × dp the
 * engine accepts (tensor parallelism the heads divide, no more stages than
 * layers) is estimated; the first count with a layout that passes wins,
 * and among its layouts one keeping the tensor-parallel group inside a
 * machine (its all-reduces on NVLink, not the network), then the highest
 * aggregate rate.
 */

#define G_LOG_DOMAIN "hr-serving-plan"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "hr-engine.h"
#include "hr-format.h"
#include "hr-serving-plan.h"

typedef struct
{
  HrLayout layout;
  HrEstimate estimate;
  gboolean tp_in_node;
} Candidate;

/* TRUE when @a is the better of two layouts of the same GPU count. */
static gboolean
better (const Candidate *a,
        const Candidate *b)
{
  if (a->tp_in_node != b->tp_in_node)
    return a->tp_in_node;
  return a->estimate.aggregate_tokens_per_s > b->estimate.aggregate_tokens_per_s;
}

static void
evaluate (const HrScenario *base,
          const HrLayout   *layout,
          guint32           per_node,
          HrServingPlan    *plan,
          Candidate        *best,
          gboolean         *found)
{
  HrScenario s = *base;
  Candidate c = { .layout = *layout };
  guint32 gpus = layout->tp * layout->pp * layout->dp;

  s.layout = *layout;
  s.gpus = gpus;
  plan->n_evaluated++;
  if (!hr_scenario_estimate (&s, &c.estimate, NULL) ||
      c.estimate.verdict == HR_VERDICT_NO_FIT)
    return;

  /* It fits: the cache must hold every user at once... */
  if (plan->status == HR_PLAN_NO_FIT)
    plan->status = HR_PLAN_CACHE_FULL;
  plan->most_users_held = MAX (plan->most_users_held, c.estimate.users_served);
  if (c.estimate.users_served < base->users)
    return;

  /* ...and each of them get the target. */
  if (plan->status == HR_PLAN_CACHE_FULL)
    plan->status = HR_PLAN_TOO_SLOW;
  plan->best_per_user_tokens_per_s = MAX (plan->best_per_user_tokens_per_s,
                                          c.estimate.per_user_tokens_per_s);
  if (c.estimate.per_user_tokens_per_s < base->target_tokens_per_s)
    return;

  c.tp_in_node = layout->tp <= per_node;
  if (!*found || better (&c, best))
    *best = c;
  *found = TRUE;
}

/**
 * hr_serving_plan_search:
 * @scenario: the question: its model, precision, device, context, users
 *   and target rate (its own layout and GPU count are ignored)
 * @gpus_per_node: the machine size; 0 for %HR_PLAN_GPUS_PER_NODE
 * @plan: (out caller-allocates): the layout found, or why there is none
 *
 * The fewest GPUs that serve @scenario's users at its context with at
 * least its target rate each, over at most %HR_PLAN_NODES_MAX machines.
 */
void
hr_serving_plan_search (const HrScenario *scenario,
                        guint32           gpus_per_node,
                        HrServingPlan    *plan)
{
  HrScenario base;
  Candidate best = { 0 };
  gboolean found = FALSE;
  const HrModelArch *arch;
  guint32 per_node = gpus_per_node > 0 ? gpus_per_node : HR_PLAN_GPUS_PER_NODE;
  guint32 most;

  g_return_if_fail (scenario != NULL);
  g_return_if_fail (plan != NULL);

  memset (plan, 0, sizeof *plan);
  plan->gpus_per_node = per_node;
  most = MIN (per_node * HR_PLAN_NODES_MAX, HR_GPUS_MAX);
  plan->gpus_max = most;

  base = *scenario;
  if (base.model == NULL || base.precision == NULL || base.kv_type == NULL ||
      base.hardware == NULL)
    {
      plan->status = HR_PLAN_NO_FIT;
      return;
    }
  base.engine = hr_scenario_engine (scenario);
  if (base.engine != HR_ENGINE_VLLM && base.engine != HR_ENGINE_SGLANG)
    {
      plan->status = HR_PLAN_NO_SERVING_ENGINE;
      return;
    }
  if (base.users == 0 || base.target_tokens_per_s <= 0)
    {
      plan->status = HR_PLAN_NO_TARGET;
      return;
    }

  arch = hr_model_spec_get_arch (base.model);
  plan->status = HR_PLAN_NO_FIT;
  for (guint32 gpus = 1; gpus <= most && !found; gpus++)
    {
      HrLayout layout;

      /* Past one machine, whole machines. */
      if (gpus > per_node && gpus % per_node != 0)
        continue;
      layout.nodes = gpus > per_node ? gpus / per_node : 1;

      for (layout.tp = 1; layout.tp <= gpus; layout.tp++)
        {
          if (gpus % layout.tp != 0 || !hr_vllm_tp_valid (arch, layout.tp))
            continue;
          for (layout.pp = 1; layout.pp <= gpus / layout.tp; layout.pp++)
            {
              if ((gpus / layout.tp) % layout.pp != 0 || layout.pp > arch->n_layers)
                continue;
              layout.dp = gpus / layout.tp / layout.pp;
              /* A bound that keeps the plan sane (issue 30, item 17): a
               * replica serves at least one user, so never more replicas
               * than users (one user never gets five machines of
               * replicas that serve nobody). */
              if (layout.dp > base.users)
                continue;
              evaluate (&base, &layout, per_node, plan, &best, &found);
            }
        }
    }

  if (!found)
    return;
  plan->status = HR_PLAN_FOUND;
  plan->layout = best.layout;
  plan->gpus = best.layout.tp * best.layout.pp * best.layout.dp;
  plan->per_user_tokens_per_s = best.estimate.per_user_tokens_per_s;
  plan->aggregate_tokens_per_s = best.estimate.aggregate_tokens_per_s;
  plan->load_ttft_seconds = best.estimate.load_ttft_seconds;
}

/* The JSON's plan_reason (docs/CLI.md “Additions”, serving). */
const char *
hr_plan_status_to_string (HrPlanStatus status)
{
  static const char * const names[] = {
    "found", "engine", "no-target", "no-fit", "cache-full", "too-slow",
  };

  g_return_val_if_fail (status <= HR_PLAN_TOO_SLOW, "found");
  return names[status];
}

/**
 * hr_serving_plan_describe:
 *
 * One sentence for a person: the layout found, or why none serves the
 * scenario's users.
 */
char *
hr_serving_plan_describe (const HrScenario    *scenario,
                          const HrServingPlan *plan)
{
  g_autofree char *context = NULL;
  g_autofree char *rate = NULL;

  g_return_val_if_fail (scenario != NULL, NULL);
  g_return_val_if_fail (plan != NULL, NULL);

  context = hr_format_tokens (scenario->context);
  switch (plan->status)
    {
    case HR_PLAN_FOUND:
      rate = hr_format_rate (plan->per_user_tokens_per_s);
      if (plan->layout.nodes > 1)
        /* TRANSLATORS: "16 GPUs on 2 machines: TP 8 × PP 2 × DP 1, 21.4 tok/s per user" */
        return g_strdup_printf (_("%u GPUs on %u machines: TP %u × PP %u × DP %u, %s per user"),
                                plan->gpus, plan->layout.nodes, plan->layout.tp,
                                plan->layout.pp, plan->layout.dp, rate);
      /* TRANSLATORS: "4 GPUs: TP 4 × PP 1 × DP 1, 21.4 tok/s per user" */
      return g_strdup_printf (ngettext ("%u GPU: TP %u × PP %u × DP %u, %s per user",
                                        "%u GPUs: TP %u × PP %u × DP %u, %s per user",
                                        plan->gpus),
                              plan->gpus, plan->layout.tp, plan->layout.pp, plan->layout.dp,
                              rate);
    case HR_PLAN_NO_SERVING_ENGINE:
      return g_strdup (_("Layouts are planned for vLLM and SGLang"));
    case HR_PLAN_NO_TARGET:
      return g_strdup (_("Give the users and the speed each should get"));
    case HR_PLAN_NO_FIT:
      /* TRANSLATORS: "Does not fit 64 of these GPUs at 32,768 tokens" */
      return g_strdup_printf (_("Does not fit %u of these GPUs at %s tokens"),
                              plan->gpus_max, context);
    case HR_PLAN_CACHE_FULL:
      /* TRANSLATORS: "Up to 64 GPUs keep at most 40 users in the KV cache at 32,768 tokens" */
      return g_strdup_printf (_("Up to %u GPUs keep at most %u users in the KV cache at %s "
                                "tokens"), plan->gpus_max, plan->most_users_held, context);
    case HR_PLAN_TOO_SLOW:
    default:
      rate = hr_format_rate (plan->best_per_user_tokens_per_s);
      /* TRANSLATORS: "Up to 64 GPUs give these users at most 12.0 tok/s each" */
      return g_strdup_printf (_("Up to %u GPUs give these users at most %s each"),
                              plan->gpus_max, rate);
    }
}
