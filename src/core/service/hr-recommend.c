/* hr-recommend.c — what runs on a machine, best first
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The candidates.  Every catalog model the task qualifies (hr-tasks.h;
 * "long": a chat model trained for HR_RECOMMEND_LONG_MIN_TRAINED tokens;
 * "serving": a chat model) and whose trained context holds the floor,
 * in every precision the advice may suggest (not niche; FP32 and BF16
 * left out: FP16 is the same size), on the engine that runs that
 * precision's files: llama.cpp for GGUF types and FP16, vLLM for FP8,
 * AWQ and GPTQ checkpoints; the task "serving" only vLLM (continuous
 * batching) with FP16, FP8, AWQ and GPTQ.  Each is estimated once, at
 * the floor context with an FP16 cache, exactly as `estimate` would
 * (hr_scenario_estimate), and kept when the verdict is not "no fit" and
 * the decode speed meets the floor.
 *
 * The ranking (hr_candidate_compare), in order:
 *  1. the quality tier's group: reference, near-lossless and good first,
 *     then fair, then not measured (no published figure: not ranked
 *     above a known one), then poor;
 *  2. the larger model first — the basis across sizes is the total
 *     parameter count (HR_RECOMMEND_BASIS);
 *  3. the smaller published KLD (16-bit weights count as 0);
 *  4. the faster decode.
 */

#define G_LOG_DOMAIN "hr-recommend"

#include "config.h"

#include <string.h>

#include "hr-commands.h"
#include "hr-estimate-constants.h"
#include "hr-recommend.h"
#include "hr-units.h"

/* A model whose nominal weights (parameters × bits per weight ÷ 8)
 * times this share exceed all the memory of the machine (its GPUs and
 * its RAM) cannot fit, and is not estimated: the tensor-exact weights of
 * a catalog model are within a few per cent of the nominal ones
 * (tests/accuracy/RESULTS.md, GGUF sizes within 1 %), far inside this
 * margin.  It only saves time: what it skips the estimate would refuse. */
#define PREFILTER_WEIGHTS_SHARE 0.8

guint64
hr_recommend_context (const HrRecommendQuery *query)
{
  if (query->context > 0)
    return query->context;
  return query->task == HR_TASK_LONG ? HR_RECOMMEND_LONG_CONTEXT : HR_RECOMMEND_DEFAULT_CONTEXT;
}

/**
 * hr_recommend_model_qualifies:
 *
 * Whether @model is one for @task and is trained for @context tokens.
 */
gboolean
hr_recommend_model_qualifies (HrModelSpec *model,
                              HrTask       task,
                              guint64      context)
{
  const char *id = hr_model_spec_get_id (model);
  guint64 trained = hr_model_spec_get_arch (model)->max_context;

  if (trained > 0 && context > trained)
    return FALSE;
  switch (task)
    {
    case HR_TASK_LONG:
      return hr_tasks_model_has (id, HR_TASK_CHAT) && trained >= HR_RECOMMEND_LONG_MIN_TRAINED;
    case HR_TASK_SERVING:
      return hr_tasks_model_has (id, HR_TASK_CHAT);
    case HR_TASK_CHAT:
    case HR_TASK_CODE:
    case HR_TASK_REASONING:
    case HR_TASK_VISION:
      return hr_tasks_model_has (id, task);
    case HR_N_TASKS:
    default:
      return FALSE;
    }
}

static gboolean
is_float (HrPrecision *precision)
{
  return g_strcmp0 (hr_precision_get_kind (precision), "float") == 0;
}

/* The engine that runs @precision for @task, or HR_ENGINE_AUTO when the
 * precision is not a candidate. */
static HrEngine
engine_for (HrPrecision *precision,
            HrTask       task)
{
  const char *id = hr_precision_get_id (precision);
  const char *kind = hr_precision_get_kind (precision);

  if (hr_precision_get_niche (precision) || g_str_equal (id, "fp32") || g_str_equal (id, "bf16"))
    return HR_ENGINE_AUTO;
  if (task == HR_TASK_SERVING)
    return g_str_equal (kind, "float") || g_str_equal (kind, "safetensors")
           ? HR_ENGINE_VLLM : HR_ENGINE_AUTO;
  if (g_str_equal (kind, "gguf") || g_str_equal (kind, "float"))
    return HR_ENGINE_LLAMACPP;
  if (g_str_equal (kind, "safetensors"))
    return HR_ENGINE_VLLM;
  return HR_ENGINE_AUTO;
}

/* The machine's memory for the pre-filter: its GPUs, and its RAM (or
 * the estimator's assumption of it) where layers can go to the CPU. */
static double
machine_bytes (const HrRecommendQuery *query)
{
  const HrDevice *device = hr_hardware_get_device (query->hardware);
  double bytes = (double) device->memory_bytes * MAX (query->gpus, 1);

  if (device->kind != HR_DEVICE_UNIFIED)
    bytes += query->ram.bytes > 0 ? (double) query->ram.bytes : HR_RAM_DEFAULT_GIB * HR_GIB;
  return bytes;
}

static gboolean
cannot_fit (HrModelSpec *model,
            HrPrecision *precision,
            double       machine)
{
  double nominal = hr_model_spec_get_arch (model)->params_total
                   * hr_precision_get_bpw (precision) / 8.0;

  return nominal * PREFILTER_WEIGHTS_SHARE > machine;
}

static HrKvType *
default_kv (HrCatalog *catalog)
{
  return hr_catalog_find_kv_type (catalog, "fp16");
}

/**
 * hr_recommend_scenario:
 *
 * The scenario @candidate was estimated with: what `estimate` and
 * `command` are given to reproduce it.
 */
void
hr_recommend_scenario (HrCatalog              *catalog,
                       const HrRecommendQuery *query,
                       const HrCandidate      *candidate,
                       HrScenario             *scenario)
{
  *scenario = (HrScenario) {
    .model = candidate->model,
    .precision = candidate->precision,
    .kv_type = default_kv (catalog),
    .hardware = query->hardware,
    .context = candidate->context,
    .batch = 1,
    .engine = candidate->engine,
    .gpus = MAX (query->gpus, 1),
    .ram = query->ram,
  };
}

/* Lower is better. */
static guint
tier_group (HrQualityTier tier)
{
  switch (tier)
    {
    case HR_QUALITY_TIER_REFERENCE:
    case HR_QUALITY_TIER_NEAR_LOSSLESS:
    case HR_QUALITY_TIER_GOOD:
      return 0;
    case HR_QUALITY_TIER_FAIR:
      return 1;
    case HR_QUALITY_TIER_NOT_MEASURED:
      return 2;
    case HR_QUALITY_TIER_POOR:
    default:
      return 3;
    }
}

static double
candidate_kld (const HrCandidate *c)
{
  if (c->tier == HR_QUALITY_TIER_REFERENCE)
    return 0;
  return c->quality.measured ? c->quality.kld : G_MAXDOUBLE;
}

/**
 * hr_candidate_compare:
 *
 * The ranking of the file's header: negative when @a comes first.
 */
int
hr_candidate_compare (const HrCandidate *a,
                      const HrCandidate *b)
{
  guint ga = tier_group (a->tier), gb = tier_group (b->tier);
  double pa = hr_model_spec_get_arch (a->model)->params_total;
  double pb = hr_model_spec_get_arch (b->model)->params_total;
  double ka = candidate_kld (a), kb = candidate_kld (b);

  if (ga != gb)
    return ga < gb ? -1 : 1;
  if (pa != pb)
    return pa > pb ? -1 : 1;
  if (ka != kb)
    return ka < kb ? -1 : 1;
  if (a->decode_tokens_per_s != b->decode_tokens_per_s)
    return a->decode_tokens_per_s > b->decode_tokens_per_s ? -1 : 1;
  return g_strcmp0 (hr_model_spec_get_id (a->model), hr_model_spec_get_id (b->model));
}

static gint
compare_cb (gconstpointer a,
            gconstpointer b)
{
  return hr_candidate_compare (a, b);
}

/**
 * hr_recommend_add_model:
 * @out: an array of #HrCandidate the model's candidates are appended to
 *   (unsorted)
 * @stats: (nullable): counts added to
 *
 * The candidates of one model: what hr_recommend() does for each, so
 * that a view can spread the work over idle callbacks.
 */
void
hr_recommend_add_model (HrCatalog              *catalog,
                        const HrRecommendQuery *query,
                        HrModelSpec            *model,
                        GArray                 *out,
                        HrRecommendStats       *stats)
{
  GListModel *precisions = hr_catalog_get_precisions (catalog);
  guint64 context = hr_recommend_context (query);
  guint n_precisions = g_list_model_get_n_items (precisions);
  double machine;

  g_return_if_fail (query->hardware != NULL);
  if (!hr_recommend_model_qualifies (model, query->task, context))
    return;
  machine = machine_bytes (query);
  for (guint p = 0; p < n_precisions; p++)
    {
      g_autoptr(HrPrecision) precision = g_list_model_get_item (precisions, p);
      HrEngine engine = engine_for (precision, query->task);
      HrCandidate c = { 0 };
      HrScenario scenario;
      HrEstimate e;

      if (engine == HR_ENGINE_AUTO)
        continue;
      if (stats != NULL)
        stats->considered++;
      c.model = model;
      c.precision = precision;
      c.engine = engine;
      c.context = context;
      if (cannot_fit (model, precision, machine))
        continue;
      hr_recommend_scenario (catalog, query, &c, &scenario);
      if (stats != NULL)
        stats->estimated++;
      if (!hr_scenario_estimate (&scenario, &e, NULL) || e.verdict == HR_VERDICT_NO_FIT)
        continue;
      if (query->min_tokens_per_s > 0 && !(e.decode_tokens_per_s >= query->min_tokens_per_s))
        continue;

      c.engine = e.engine;
      c.verdict = e.verdict;
      c.placement = e.placement;
      c.total_bytes = e.total_bytes;
      c.host_bytes = e.host_bytes;
      c.decode_tokens_per_s = e.decode_tokens_per_s;
      c.prefill_tokens_per_s = e.prefill_tokens_per_s;
      hr_quality_for_precision (hr_precision_get_id (precision), &c.quality);
      c.tier = hr_quality_precision_tier (hr_precision_get_id (precision), is_float (precision));
      c.joules_per_token =
        hr_energy_joules_per_token (&e, hr_hardware_get_device (query->hardware)->tdp_watts,
                                    hr_energy_parallel_gpus (e.engine, scenario.gpus));
      c.cost_per_million = hr_energy_cost_per_million (c.joules_per_token,
                                                       c.decode_tokens_per_s, &query->price);
      g_array_append_val (out, c);
    }
}

/* Sorts @candidates by the ranking. */
void
hr_recommend_sort (GArray *candidates)
{
  g_array_sort (candidates, compare_cb);
}

/**
 * hr_recommend:
 * @stats: (nullable): filled with the counts of the search
 *
 * Returns: (transfer full): an array of #HrCandidate, best first; every
 *   one fits and meets the floors
 */
GArray *
hr_recommend (HrCatalog              *catalog,
              const HrRecommendQuery *query,
              HrRecommendStats       *stats)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (HrCandidate));
  GListModel *models = hr_catalog_get_models (catalog);
  HrRecommendStats counts = { 0 };

  g_return_val_if_fail (query->hardware != NULL, out);

  for (guint m = 0; m < g_list_model_get_n_items (models); m++)
    {
      g_autoptr(HrModelSpec) model = g_list_model_get_item (models, m);

      hr_recommend_add_model (catalog, query, model, out, &counts);
    }
  hr_recommend_sort (out);
  if (stats != NULL)
    *stats = counts;
  return out;
}

static HrCommandKind
command_kind (HrEngine engine)
{
  switch (engine)
    {
    case HR_ENGINE_VLLM:
      return HR_COMMAND_VLLM;
    case HR_ENGINE_SGLANG:
      return HR_COMMAND_SGLANG;
    case HR_ENGINE_OLLAMA:
      return HR_COMMAND_OLLAMA;
    case HR_ENGINE_LLAMACPP:
    case HR_ENGINE_GENERIC:
    case HR_ENGINE_AUTO:
    default:
      return HR_COMMAND_LLAMACPP;
    }
}

/**
 * hr_recommend_command:
 *
 * The launch command of @candidate (hr-commands.h), as shell text.
 *
 * Returns: (transfer full) (nullable): %NULL when the engine's builder
 *   refuses it
 */
char *
hr_recommend_command (HrCatalog              *catalog,
                      const HrRecommendQuery *query,
                      const HrCandidate      *candidate)
{
  HrScenario scenario;
  g_autoptr(HrCommand) command = NULL;

  hr_recommend_scenario (catalog, query, candidate, &scenario);
  command = hr_command_build (command_kind (candidate->engine), &scenario, NULL);
  return command != NULL ? hr_command_to_shell (command) : NULL;
}
