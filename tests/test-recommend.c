/* test-recommend.c — quality figures, tasks, energy and the ranking
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Golden figures are llama.cpp's LLaMA 3 8B scoreboard
 * (https://github.com/ggml-org/llama.cpp/blob/master/tools/perplexity/README.md)
 * and the first results of https://github.com/ggml-org/llama.cpp/pull/7412,
 * as resources/catalog/quality.json copies them.
 */

#include "config.h"

#include <math.h>

#include "hr-energy.h"
#include "hr-hardware-table.h"
#include "hr-quality.h"
#include "hr-recommend.h"
#include "hr-tasks.h"
#include "hr-test-util.h"
#include "hr-units.h"

/* The published figures come back with their source; what nothing
 * publishes is "not measured", not a number. */
static void
test_quality_table (void)
{
  HrQuality q;

  g_assert_true (hr_quality_for_precision ("q4_k_m", &q));
  g_assert_cmpfloat_with_epsilon (q.kld, 0.031273, 1e-9);
  g_assert_cmpfloat_with_epsilon (q.ppl_delta, 0.175482, 1e-9);
  g_assert_true (g_str_has_prefix (q.source, "https://github.com/ggml-org/llama.cpp/"));
  g_assert_nonnull (q.measured_on);
  g_assert_null (q.imatrix);

  g_assert_true (hr_quality_for_precision ("q8_0", &q));
  g_assert_cmpfloat_with_epsilon (q.kld, 0.001355, 1e-9);
  g_assert_cmpfloat_with_epsilon (q.ppl_delta, 0.002650, 1e-9);

  /* IQ types exist only with an importance matrix: the row says which. */
  g_assert_true (hr_quality_for_precision ("iq4_xs", &q));
  g_assert_cmpstr (q.imatrix, ==, "WT 10m");
  g_assert_cmpfloat_with_epsilon (q.kld, 0.036334, 1e-9);

  g_assert_false (hr_quality_for_precision ("fp8", &q));
  g_assert_false (q.measured);
  g_assert_false (hr_quality_for_precision ("awq-int4", &q));
  g_assert_false (hr_quality_for_precision ("no-such-precision", &q));

  g_assert_true (hr_quality_for_kv_type ("q8_0", &q));
  g_assert_cmpfloat_with_epsilon (q.kld, 0.000980, 1e-9);
  g_assert_cmpfloat_with_epsilon (q.ppl_delta, 0.004616, 1e-9);
  g_assert_false (hr_quality_for_kv_type ("q4_0", &q));

  /* every precision and KV type of the catalog is listed, measured or not */
  {
    g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
    GListModel *precisions = hr_catalog_get_precisions (catalog);
    GListModel *kv = hr_catalog_get_kv_types (catalog);

    g_assert_cmpuint (hr_quality_get_n_entries (), ==,
                      g_list_model_get_n_items (precisions) + g_list_model_get_n_items (kv));
  }
}

static void
test_quality_tiers (void)
{
  g_assert_cmpint (hr_quality_precision_tier ("q8_0", FALSE), ==, HR_QUALITY_TIER_NEAR_LOSSLESS);
  g_assert_cmpint (hr_quality_precision_tier ("q6_k", FALSE), ==, HR_QUALITY_TIER_NEAR_LOSSLESS);
  g_assert_cmpint (hr_quality_precision_tier ("q5_k_m", FALSE), ==, HR_QUALITY_TIER_GOOD);
  g_assert_cmpint (hr_quality_precision_tier ("q4_k_m", FALSE), ==, HR_QUALITY_TIER_GOOD);
  g_assert_cmpint (hr_quality_precision_tier ("q4_0", FALSE), ==, HR_QUALITY_TIER_FAIR);
  g_assert_cmpint (hr_quality_precision_tier ("q3_k_m", FALSE), ==, HR_QUALITY_TIER_FAIR);
  g_assert_cmpint (hr_quality_precision_tier ("q3_k_s", FALSE), ==, HR_QUALITY_TIER_POOR);
  g_assert_cmpint (hr_quality_precision_tier ("q2_k", FALSE), ==, HR_QUALITY_TIER_POOR);
  g_assert_cmpint (hr_quality_precision_tier ("fp8", FALSE), ==, HR_QUALITY_TIER_NOT_MEASURED);
  g_assert_cmpint (hr_quality_precision_tier ("fp16", TRUE), ==, HR_QUALITY_TIER_REFERENCE);
  g_assert_cmpstr (hr_quality_tier_to_string (HR_QUALITY_TIER_NOT_MEASURED), ==, "not-measured");
  /* the boundaries belong to the better tier */
  g_assert_cmpint (hr_quality_tier_for_kld (HR_QUALITY_KLD_GOOD), ==, HR_QUALITY_TIER_GOOD);
  g_assert_cmpint (hr_quality_tier_for_kld (HR_QUALITY_KLD_FAIR * 1.001), ==,
                   HR_QUALITY_TIER_POOR);
}

/* Every catalog model has an entry in tasks.json, and the tags are the
 * model cards'. */
static void
test_tasks (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  GListModel *models = hr_catalog_get_models (catalog);
  HrTask task;

  g_assert_cmpuint (hr_tasks_get_n_models (), ==, g_list_model_get_n_items (models));
  g_assert_true (hr_tasks_model_has ("Qwen/Qwen2.5-Coder-7B-Instruct", HR_TASK_CODE));
  g_assert_false (hr_tasks_model_has ("meta-llama/Llama-3.1-8B-Instruct", HR_TASK_CODE));
  g_assert_true (hr_tasks_model_has ("google/gemma-3-12b-it", HR_TASK_VISION));
  g_assert_true (hr_tasks_model_has ("Qwen/QwQ-32B", HR_TASK_REASONING));
  /* a base model is for nothing */
  g_assert_false (hr_tasks_model_has ("mistralai/Mistral-7B-v0.1", HR_TASK_CHAT));
  g_assert_true (hr_task_from_string ("serving", &task));
  g_assert_cmpint (task, ==, HR_TASK_SERVING);
  g_assert_false (hr_task_from_string ("poetry", &task));
}

/* J/token = board power × utilisation ÷ tok/s; utilisation = the GPU's
 * streaming time × tok/s.  Hand-computed. */
static void
test_energy (void)
{
  HrEstimate e = { 0 };
  HrPrice kwh = { .per_kwh = 0.30 }, hour = { .per_hour = 2.0 }, none = { 0 };
  double joules;

  e.decode_tokens_per_s = 20;
  e.decode_gpu_seconds = 0.04;             /* 80 % of a 50 ms step */
  g_assert_cmpfloat_with_epsilon (hr_energy_utilisation (&e), 0.8, 1e-12);
  joules = hr_energy_joules_per_token (&e, 170, 1);
  g_assert_cmpfloat_with_epsilon (joules, 170 * 0.8 / 20, 1e-12);   /* 6.8 J */
  /* tensor parallel: both GPUs draw */
  g_assert_cmpfloat_with_epsilon (hr_energy_joules_per_token (&e, 170, 2), 13.6, 1e-12);
  /* 6.8 J × 10^6 = 1.889 kWh; × 0.30 */
  g_assert_cmpfloat_with_epsilon (hr_energy_cost_per_million (joules, 20, &kwh),
                                  6.8e6 / 3.6e6 * 0.30, 1e-12);
  /* 10^6 tokens at 20 tok/s = 13.9 h; × 2.0 */
  g_assert_cmpfloat_with_epsilon (hr_energy_cost_per_million (joules, 20, &hour),
                                  1e6 / 20 / 3600 * 2.0, 1e-12);
  g_assert_cmpfloat (hr_energy_cost_per_million (joules, 20, &none), <, 0);
  /* unknown board power, or no GPU work: unknown, not zero cost */
  g_assert_cmpfloat (hr_energy_joules_per_token (&e, 0, 1), ==, 0);
  e.decode_gpu_seconds = 0;
  g_assert_cmpfloat (hr_energy_joules_per_token (&e, 170, 1), ==, 0);
  g_assert_cmpuint (hr_energy_parallel_gpus (HR_ENGINE_LLAMACPP, 4), ==, 1);
  g_assert_cmpuint (hr_energy_parallel_gpus (HR_ENGINE_VLLM, 4), ==, 4);
}

static HrRecommendQuery
rtx_3060_query (HrCatalog *catalog)
{
  HrRecommendQuery query = {
    .hardware = hr_catalog_find_hardware (catalog, "rtx-3060-12gb"),
    .ram = { .bytes = 32 * (guint64) HR_GIB },
    .task = HR_TASK_CHAT,
  };

  g_assert_nonnull (query.hardware);
  return query;
}

/* Issue 26's "done when": an RTX 3060 12 GB with 32 GiB RAM has at least
 * 15 candidates, each of which fits when estimated again as `estimate`
 * would, in the ranking's order, a third or more with a published
 * quality figure. */
static void
test_rtx_3060 (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  HrRecommendQuery query = rtx_3060_query (catalog);
  HrRecommendStats stats;
  g_autoptr(GArray) list = hr_recommend (catalog, &query, &stats);
  guint measured = 0;

  g_assert_cmpuint (list->len, >=, 15);
  g_assert_cmpuint (stats.estimated, >=, list->len);
  for (guint i = 0; i < list->len; i++)
    {
      const HrCandidate *c = &g_array_index (list, HrCandidate, i);
      HrScenario scenario;
      HrEstimate e;

      hr_recommend_scenario (catalog, &query, c, &scenario);
      g_assert_true (hr_scenario_estimate (&scenario, &e, NULL));
      g_assert_cmpint (e.verdict, !=, HR_VERDICT_NO_FIT);
      g_assert_cmpuint (e.total_bytes, ==, c->total_bytes);
      g_assert_cmpuint (c->context, ==, HR_RECOMMEND_DEFAULT_CONTEXT);
      g_assert_true (hr_tasks_model_has (hr_model_spec_get_id (c->model), HR_TASK_CHAT));
      if (i + 1 < list->len)
        g_assert_cmpint (hr_candidate_compare (c, c + 1), <, 0);
      measured += c->quality.measured;
      /* the RTX 3060's 170 W board power gives every GPU candidate an energy */
      if (c->placement != HR_PLACEMENT_CPU)
        g_assert_cmpfloat (c->joules_per_token, >, 0);
    }
  g_assert_cmpuint (measured * 3, >=, list->len);
}

/* The floors: a speed floor removes the slow ones and keeps the rest; a
 * longer context keeps only models trained for it. */
static void
test_floors (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  HrRecommendQuery query = rtx_3060_query (catalog);
  g_autoptr(GArray) all = hr_recommend (catalog, &query, NULL);
  g_autoptr(GArray) fast = NULL;
  g_autoptr(GArray) longer = NULL;
  guint slow = 0;

  query.min_tokens_per_s = 30;
  fast = hr_recommend (catalog, &query, NULL);
  for (guint i = 0; i < all->len; i++)
    slow += g_array_index (all, HrCandidate, i).decode_tokens_per_s < 30;
  g_assert_cmpuint (slow, >, 0);
  g_assert_cmpuint (fast->len, ==, all->len - slow);
  for (guint i = 0; i < fast->len; i++)
    g_assert_cmpfloat (g_array_index (fast, HrCandidate, i).decode_tokens_per_s, >=, 30);

  query.min_tokens_per_s = 0;
  query.context = 65536;
  longer = hr_recommend (catalog, &query, NULL);
  g_assert_cmpuint (longer->len, >, 0);
  g_assert_cmpuint (longer->len, <, all->len);
  for (guint i = 0; i < longer->len; i++)
    {
      const HrCandidate *c = &g_array_index (longer, HrCandidate, i);

      g_assert_cmpuint (c->context, ==, 65536);
      g_assert_cmpuint (hr_model_spec_get_arch (c->model)->max_context, >=, 65536);
    }
}

/* The tasks pick their models and engines. */
static void
test_tasks_rank (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  HrRecommendQuery query = rtx_3060_query (catalog);
  g_autoptr(GArray) code = NULL;
  g_autoptr(GArray) serving = NULL;
  g_autoptr(GArray) vision = NULL;
  g_autoptr(GArray) longer = NULL;

  query.task = HR_TASK_CODE;
  code = hr_recommend (catalog, &query, NULL);
  g_assert_cmpuint (code->len, >, 0);
  for (guint i = 0; i < code->len; i++)
    g_assert_true (hr_tasks_model_has (hr_model_spec_get_id (g_array_index (code, HrCandidate,
                                                                            i).model),
                                       HR_TASK_CODE));

  query.task = HR_TASK_VISION;
  vision = hr_recommend (catalog, &query, NULL);
  g_assert_cmpuint (vision->len, >, 0);
  for (guint i = 0; i < vision->len; i++)
    g_assert_true (hr_tasks_model_has (hr_model_spec_get_id (g_array_index (vision, HrCandidate,
                                                                            i).model),
                                       HR_TASK_VISION));

  query.task = HR_TASK_SERVING;
  query.hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb");
  serving = hr_recommend (catalog, &query, NULL);
  g_assert_cmpuint (serving->len, >, 0);
  for (guint i = 0; i < serving->len; i++)
    g_assert_cmpint (g_array_index (serving, HrCandidate, i).engine, ==, HR_ENGINE_VLLM);

  query.task = HR_TASK_LONG;
  query.hardware = hr_catalog_find_hardware (catalog, "rtx-3060-12gb");
  longer = hr_recommend (catalog, &query, NULL);
  g_assert_cmpuint (longer->len, >, 0);
  for (guint i = 0; i < longer->len; i++)
    {
      const HrCandidate *c = &g_array_index (longer, HrCandidate, i);

      g_assert_cmpuint (c->context, ==, HR_RECOMMEND_LONG_CONTEXT);
      g_assert_cmpuint (hr_model_spec_get_arch (c->model)->max_context, >=,
                        HR_RECOMMEND_LONG_MIN_TRAINED);
    }
}

/* The ranking rule of hr-recommend.c, on hand-made candidates: a good
 * tier before a poor one whatever the size; within a tier the larger
 * model, then the smaller KLD; not measured after fair. */
static void
test_ranking_rule (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  HrModelSpec *big = hr_catalog_find_model (catalog, "Qwen/Qwen2.5-32B-Instruct");
  HrModelSpec *small = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct");
  HrCandidate big_q2 = { .model = big, .tier = HR_QUALITY_TIER_POOR };
  HrCandidate big_q4 = { .model = big, .tier = HR_QUALITY_TIER_GOOD };
  HrCandidate big_q5 = { .model = big, .tier = HR_QUALITY_TIER_GOOD };
  HrCandidate big_awq = { .model = big, .tier = HR_QUALITY_TIER_NOT_MEASURED };
  HrCandidate big_q3 = { .model = big, .tier = HR_QUALITY_TIER_FAIR };
  HrCandidate small_q8 = { .model = small, .tier = HR_QUALITY_TIER_NEAR_LOSSLESS };

  hr_quality_for_precision ("q2_k", &big_q2.quality);
  hr_quality_for_precision ("q4_k_m", &big_q4.quality);
  hr_quality_for_precision ("q5_k_m", &big_q5.quality);
  hr_quality_for_precision ("q3_k_m", &big_q3.quality);
  hr_quality_for_precision ("q8_0", &small_q8.quality);

  g_assert_cmpint (hr_candidate_compare (&big_q4, &small_q8), <, 0);   /* size, same group */
  g_assert_cmpint (hr_candidate_compare (&small_q8, &big_q3), <, 0);   /* group first */
  g_assert_cmpint (hr_candidate_compare (&big_q5, &big_q4), <, 0);     /* smaller KLD */
  g_assert_cmpint (hr_candidate_compare (&big_q3, &big_awq), <, 0);    /* fair before unknown */
  g_assert_cmpint (hr_candidate_compare (&big_awq, &big_q2), <, 0);    /* unknown before poor */
}

/* The hardware table's joules_per_token is the estimate's, row by row:
 * board power × the GPU's streaming time of one token. */
static void
test_hardware_table_energy (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  g_autoptr(HrHardwareTable) table = hr_hardware_table_new (calc);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (table)), checked = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrHardwareRow) row = g_list_model_get_item (G_LIST_MODEL (table), i);
      HrHardware *hw = hr_hardware_row_get_hardware (row);
      HrScenario s = *hr_calculator_get_scenario (calc);
      HrEstimate e;

      if (g_strcmp0 (hr_hardware_get_id (hw), "rtx-3060-12gb") != 0 &&
          g_strcmp0 (hr_hardware_get_id (hw), "rtx-4090-24gb") != 0)
        continue;
      s.hardware = hw;
      g_assert_true (hr_scenario_estimate (&s, &e, NULL));
      g_assert_cmpint (e.verdict, !=, HR_VERDICT_NO_FIT);
      g_assert_cmpfloat (hr_hardware_row_get_joules_per_token (row), >, 0);
      g_assert_cmpfloat_with_epsilon (hr_hardware_row_get_joules_per_token (row),
                                      hr_hardware_get_device (hw)->tdp_watts
                                      * MIN (e.decode_gpu_seconds, 1 / e.decode_tokens_per_s),
                                      1e-9);
      checked++;
    }
  g_assert_cmpuint (checked, ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/quality/table", test_quality_table);
  g_test_add_func ("/quality/tiers", test_quality_tiers);
  g_test_add_func ("/recommend/tasks", test_tasks);
  g_test_add_func ("/energy/arithmetic", test_energy);
  g_test_add_func ("/recommend/rtx-3060", test_rtx_3060);
  g_test_add_func ("/recommend/floors", test_floors);
  g_test_add_func ("/recommend/tasks-rank", test_tasks_rank);
  g_test_add_func ("/recommend/ranking-rule", test_ranking_rule);
  g_test_add_func ("/energy/hardware-table", test_hardware_table_energy);
  return g_test_run ();
}
