/* hr-serving-plan.h — the smallest vLLM / SGLang layout that meets a target
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An SLO search: the fewest GPUs of the scenario's device, split into
 * tensor-parallel groups, pipeline stages and data-parallel replicas over
 * machines of a given size, that hold the model at the scenario's context,
 * keep every one of its users in the KV cache at once and give each user
 * at least the target answer rate.  Each candidate is one estimate of the
 * scenario with that layout, so the search answers exactly what the CLI
 * and the window answer for the layout it returns.
 */

#pragma once

#include "hr-scenario.h"

G_BEGIN_DECLS

/* A machine holds this many GPUs unless told otherwise: an HGX / DGX
 * board's 8 GPUs on one NVSwitch (the usual server; 4- and 2-GPU boxes are
 * given with --gpus-per-node). */
#define HR_PLAN_GPUS_PER_NODE  8
/* The search stops at this many machines (64 GPUs of 8): past it a
 * deployment is planned with the vendor, not with a calculator. */
#define HR_PLAN_NODES_MAX      8

typedef enum
{
  HR_PLAN_FOUND,
  HR_PLAN_NO_SERVING_ENGINE,  /* the engine is not vLLM or SGLang */
  HR_PLAN_NO_TARGET,          /* no users or no target asked for */
  HR_PLAN_NO_FIT,             /* no layout holds the model at the context */
  HR_PLAN_CACHE_FULL,         /* none keeps all the users in the KV cache */
  HR_PLAN_TOO_SLOW,           /* none reaches the target per user */
} HrPlanStatus;

typedef struct
{
  HrPlanStatus status;
  HrLayout layout;                /* with HR_PLAN_FOUND */
  guint32 gpus;                   /*   tp × pp × dp */
  guint32 gpus_per_node;          /*   the machine size searched */
  double per_user_tokens_per_s;   /*   at the scenario's users and context */
  double aggregate_tokens_per_s;
  double load_ttft_seconds;

  /* Why nothing was found: the best the search saw. */
  guint32 most_users_held;        /* HR_PLAN_CACHE_FULL: users the largest
                                   * cache keeps at once */
  double best_per_user_tokens_per_s; /* HR_PLAN_TOO_SLOW */
  guint32 gpus_max;               /* the largest count searched */
  guint32 n_evaluated;            /* layouts estimated (for the bench) */
} HrServingPlan;

void        hr_serving_plan_search       (const HrScenario *scenario,
                                          guint32           gpus_per_node,
                                          HrServingPlan    *plan);
const char *hr_plan_status_to_string     (HrPlanStatus      status);
char       *hr_serving_plan_describe     (const HrScenario *scenario,
                                          const HrServingPlan *plan);

G_END_DECLS
