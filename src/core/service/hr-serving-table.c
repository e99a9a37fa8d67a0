/* hr-serving-table.c — a server under load: users × context, and a curve
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For one scenario on vLLM or SGLang: each user's answer rate for a grid
 * of users and contexts (each cell the estimate `headroom-cli estimate
 * --users U --context C` gives), the per-user and aggregate rates against
 * users at the scenario's context, the users the KV cache holds at once,
 * the most users at the target, and the smallest layout that meets it
 * (hr-serving-plan.h).  Everything is an estimate of a copy of the
 * scenario; the view only shows it.
 */

#define G_LOG_DOMAIN "hr-serving-table"

#include "config.h"

#include "hr-engine.h"
#include "hr-serving-speed.h"
#include "hr-serving-table.h"

struct _HrServingTable
{
  GObject parent_instance;

  HrServingStatus status;
  char *error_message;
  HrEngine engine;
  double target;
  guint64 load_prompt;

  guint n_contexts;
  guint64 contexts[HR_SERVING_TABLE_MAX_CONTEXTS];
  HrServingCell cells[HR_SERVING_TABLE_N_USERS][HR_SERVING_TABLE_MAX_CONTEXTS];

  guint n_points;
  HrServingPoint points[HR_SERVING_CURVE_MAX_POINTS];
  guint32 cache_limit;
  guint32 max_users;
  HrEstimate estimate;
  HrServingPlan plan;

  guint n_updates;
};

G_DEFINE_FINAL_TYPE (HrServingTable, hr_serving_table, G_TYPE_OBJECT)

static const guint32 table_users[] = HR_SERVING_TABLE_USERS;
static const guint64 table_contexts[] = HR_SERVING_TABLE_CONTEXTS;
static const guint32 curve_users[] = HR_SERVING_CURVE_USERS;

G_STATIC_ASSERT (G_N_ELEMENTS (table_users) == HR_SERVING_TABLE_N_USERS);
G_STATIC_ASSERT (G_N_ELEMENTS (table_contexts) == HR_SERVING_TABLE_MAX_CONTEXTS);
G_STATIC_ASSERT (G_N_ELEMENTS (curve_users) == HR_SERVING_CURVE_MAX_POINTS);

static void
hr_serving_table_finalize (GObject *object)
{
  HrServingTable *self = (HrServingTable *) object;

  g_clear_pointer (&self->error_message, g_free);
  G_OBJECT_CLASS (hr_serving_table_parent_class)->finalize (object);
}

static void
hr_serving_table_class_init (HrServingTableClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_serving_table_finalize;
}

static void
hr_serving_table_init (HrServingTable *self)
{
  self->status = HR_SERVING_NOT_SERVING;
}

HrServingTable *
hr_serving_table_new (void)
{
  return g_object_new (HR_TYPE_SERVING_TABLE, NULL);
}

/**
 * hr_serving_rate_state:
 *
 * Where @rate stands against @target: meets it, near it, or below.
 */
HrServingCellState
hr_serving_rate_state (double rate,
                       double target)
{
  if (rate >= target)
    return HR_SERVING_CELL_MEETS;
  if (rate >= HR_SERVING_NEAR_SHARE * target)
    return HR_SERVING_CELL_NEAR;
  return HR_SERVING_CELL_BELOW;
}

/**
 * hr_serving_precision:
 *
 * @precision when vLLM and SGLang load it, else (a GGUF type) the
 * safetensors checkpoint closest to it in size.
 *
 * Returns: (transfer none): a precision of @catalog
 */
HrPrecision *
hr_serving_precision (HrCatalog   *catalog,
                      HrPrecision *precision)
{
  double bpw;
  HrPrecision *nearest;

  g_return_val_if_fail (HR_IS_CATALOG (catalog), precision);
  g_return_val_if_fail (HR_IS_PRECISION (precision), precision);

  if (g_strcmp0 (hr_precision_get_kind (precision), "gguf") != 0)
    return precision;
  bpw = hr_precision_get_bpw (precision);
  nearest = hr_catalog_find_precision (catalog, bpw <= HR_SERVING_INT4_MAX_BPW ? "awq-int4"
                                                : bpw <= HR_SERVING_FP8_MAX_BPW ? "fp8"
                                                : "bf16");
  return nearest != NULL ? nearest : precision;
}

/**
 * hr_serving_largest_tp:
 *
 * The largest tensor-parallel size vLLM and SGLang accept for @arch that
 * divides @gpus (the rest become replicas): the fix for a size the heads
 * do not divide that keeps the GPUs.
 */
guint32
hr_serving_largest_tp (const HrModelArch *arch,
                       guint32            gpus)
{
  g_return_val_if_fail (arch != NULL, 1);

  for (guint32 tp = gpus; tp > 1; tp--)
    if (gpus % tp == 0 && hr_vllm_tp_valid (arch, tp))
      return tp;
  return 1;
}

static void
fill_cell (const HrScenario *scenario,
           guint32           users,
           guint64           context,
           HrServingCell    *cell)
{
  HrScenario s = *scenario;
  HrEstimate e;

  s.users = users;
  s.context = context;
  *cell = (HrServingCell) { .users = users, .context = context };
  if (!hr_scenario_estimate (&s, &e, NULL))
    {
      cell->state = HR_SERVING_CELL_INVALID;
      return;
    }
  if (e.verdict == HR_VERDICT_NO_FIT || e.users_served == 0)
    {
      cell->state = HR_SERVING_CELL_NO_FIT;
      return;
    }
  cell->per_user_tokens_per_s = e.per_user_tokens_per_s;
  cell->aggregate_tokens_per_s = e.aggregate_tokens_per_s;
  cell->users_served = e.users_served;
  cell->state = e.users_served < users ? HR_SERVING_CELL_CACHE_FULL
                : hr_serving_rate_state (e.per_user_tokens_per_s, s.target_tokens_per_s);
}

/* The users the cache holds at once when as many come as the engine
 * admits (a first guess: admitting 1,024 a replica costs the sampler
 * memory, so the curve's own saturated points refine it). */
static void
fill_cache_limit (HrServingTable   *self,
                  const HrScenario *scenario)
{
  HrScenario s = *scenario;
  HrEstimate e;

  s.users = HR_SERVING_MAX_NUM_SEQS * MAX (self->estimate.layout.dp, 1);
  s.target_tokens_per_s = 0;
  if (hr_scenario_estimate (&s, &e, NULL))
    self->cache_limit = e.max_users;
}

/* The curve at the scenario's context, to twice the cache's limit. */
static void
fill_curve (HrServingTable   *self,
            const HrScenario *scenario)
{
  guint32 dp = MAX (self->estimate.layout.dp, 1);
  guint32 last = MAX (HR_SERVING_CURVE_MIN_USERS, 2 * self->cache_limit);
  guint32 held = 0;
  gboolean saturated = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (curve_users); i++)
    {
      HrScenario s = *scenario;
      HrEstimate e;
      HrServingPoint *p = &self->points[self->n_points];

      if (curve_users[i] > HR_SERVING_MAX_NUM_SEQS * dp)
        break;
      s.users = curve_users[i];
      if (!hr_scenario_estimate (&s, &e, NULL))
        break;
      *p = (HrServingPoint) {
        .users = curve_users[i],
        .per_user_tokens_per_s = e.per_user_tokens_per_s,
        .aggregate_tokens_per_s = e.aggregate_tokens_per_s,
        .users_served = e.users_served,
      };
      self->n_points++;
      held = MAX (held, e.users_served);
      saturated |= e.users_served < curve_users[i];
      if (curve_users[i] >= last)
        break;
    }
  if (saturated)
    self->cache_limit = held;
}

/* The most users that each get the target, all in the cache. */
static void
fill_max_users (HrServingTable   *self,
                const HrScenario *scenario)
{
  HrScenario s = *scenario;
  HrEstimate e;

  s.users = MAX (self->cache_limit, 1);
  if (s.target_tokens_per_s > 0 && hr_scenario_estimate (&s, &e, NULL))
    self->max_users = e.max_users;
}

/* The machine size the plan searches: the scenario's machines when it
 * has several, else a server board's. */
static guint32
plan_machine_size (const HrScenario *scenario)
{
  guint32 nodes = MAX (scenario->layout.nodes, 1);

  return nodes > 1 ? MAX (scenario->gpus / nodes, 1) : HR_PLAN_GPUS_PER_NODE;
}

/**
 * hr_serving_table_update:
 *
 * Recomputes everything for @scenario: its estimate under its users, the
 * table, the curve, the limits and the plan.
 */
void
hr_serving_table_update (HrServingTable   *self,
                         const HrScenario *scenario)
{
  g_autoptr(GError) error = NULL;
  guint64 trained;

  g_return_if_fail (HR_IS_SERVING_TABLE (self));
  g_return_if_fail (scenario != NULL);

  self->n_updates++;
  self->status = HR_SERVING_NOT_SERVING;
  g_clear_pointer (&self->error_message, g_free);
  self->n_contexts = self->n_points = 0;
  self->cache_limit = self->max_users = 0;
  self->target = scenario->target_tokens_per_s;
  self->load_prompt = (guint64) hr_serving_load_prompt (scenario->prompt_tokens,
                                                        scenario->generate_tokens,
                                                        scenario->context);
  memset (&self->estimate, 0, sizeof self->estimate);
  memset (&self->plan, 0, sizeof self->plan);
  self->engine = scenario->model != NULL ? hr_scenario_engine (scenario) : scenario->engine;
  if (self->engine != HR_ENGINE_VLLM && self->engine != HR_ENGINE_SGLANG)
    return;

  if (!hr_scenario_estimate (scenario, &self->estimate, &error))
    {
      self->status = HR_SERVING_INVALID;
      self->error_message = g_strdup (error->message);
      return;
    }
  self->status = self->estimate.verdict == HR_VERDICT_NO_FIT || self->estimate.users_served == 0
                 ? HR_SERVING_NO_FIT : HR_SERVING_READY;

  /* Contexts up to the trained length (the first one at least). */
  trained = hr_model_spec_get_arch (scenario->model)->max_context;
  for (guint j = 0; j < G_N_ELEMENTS (table_contexts); j++)
    if (j == 0 || table_contexts[j] <= trained)
      self->contexts[self->n_contexts++] = table_contexts[j];
  for (guint i = 0; i < HR_SERVING_TABLE_N_USERS; i++)
    for (guint j = 0; j < self->n_contexts; j++)
      fill_cell (scenario, table_users[i], self->contexts[j], &self->cells[i][j]);

  if (self->status == HR_SERVING_READY)
    {
      fill_cache_limit (self, scenario);
      fill_curve (self, scenario);
      fill_max_users (self, scenario);
    }
  hr_serving_plan_search (scenario, plan_machine_size (scenario), &self->plan);
}

guint
hr_serving_table_get_n_updates (HrServingTable *self)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), 0);
  return self->n_updates;
}

HrServingStatus
hr_serving_table_get_status (HrServingTable *self)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), HR_SERVING_NOT_SERVING);
  return self->status;
}

/* Why the engine refuses the scenario (HR_SERVING_INVALID), else NULL. */
const char *
hr_serving_table_get_error_message (HrServingTable *self)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), NULL);
  return self->error_message;
}

/* The engine that answers (Automatic resolved). */
HrEngine
hr_serving_table_get_engine (HrServingTable *self)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), HR_ENGINE_GENERIC);
  return self->engine;
}

guint
hr_serving_table_get_n_users (HrServingTable *self)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), 0);
  return self->n_contexts > 0 ? HR_SERVING_TABLE_N_USERS : 0;
}

guint
hr_serving_table_get_n_contexts (HrServingTable *self)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), 0);
  return self->n_contexts;
}

guint64
hr_serving_table_get_context (HrServingTable *self,
                              guint           column)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), 0);
  g_return_val_if_fail (column < self->n_contexts, 0);
  return self->contexts[column];
}

guint32
hr_serving_table_get_users (HrServingTable *self,
                            guint           row)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), 0);
  g_return_val_if_fail (row < HR_SERVING_TABLE_N_USERS, 0);
  return table_users[row];
}

const HrServingCell *
hr_serving_table_get_cell (HrServingTable *self,
                           guint           row,
                           guint           column)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), NULL);
  g_return_val_if_fail (row < HR_SERVING_TABLE_N_USERS && column < self->n_contexts, NULL);
  return &self->cells[row][column];
}

/* Whether some cell holds one sequence (else the table says nothing the
 * no-fit state does not). */
gboolean
hr_serving_table_get_any_fits (HrServingTable *self)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), FALSE);

  for (guint i = 0; i < HR_SERVING_TABLE_N_USERS; i++)
    for (guint j = 0; j < self->n_contexts; j++)
      if (self->cells[i][j].state != HR_SERVING_CELL_NO_FIT &&
          self->cells[i][j].state != HR_SERVING_CELL_INVALID)
        return TRUE;
  return FALSE;
}

/* The curve at the scenario's context, users ascending. */
const HrServingPoint *
hr_serving_table_get_points (HrServingTable *self,
                             guint          *n_points)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), NULL);
  g_return_val_if_fail (n_points != NULL, NULL);
  *n_points = self->n_points;
  return self->points;
}

/* The users the KV cache holds at once at the scenario's context (0 when
 * not computed). */
guint32
hr_serving_table_get_cache_limit (HrServingTable *self)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), 0);
  return self->cache_limit;
}

/* The most users that each get the target at the scenario's context. */
guint32
hr_serving_table_get_max_users (HrServingTable *self)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), 0);
  return self->max_users;
}

/* The prompt each user sends in the load figures (time to first token). */
guint64
hr_serving_table_get_load_prompt (HrServingTable *self)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), 0);
  return self->load_prompt;
}

double
hr_serving_table_get_target (HrServingTable *self)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), 0);
  return self->target;
}

/* The scenario's own estimate, under its users. */
const HrEstimate *
hr_serving_table_get_estimate (HrServingTable *self)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), NULL);
  return &self->estimate;
}

const HrServingPlan *
hr_serving_table_get_plan (HrServingTable *self)
{
  g_return_val_if_fail (HR_IS_SERVING_TABLE (self), NULL);
  return &self->plan;
}
