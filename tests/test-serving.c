/* test-serving.c — the serving plan (SLO search) and the serving table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-serving"

#include "config.h"

#include "hr-engine.h"
#include "hr-serving-plan.h"
#include "hr-serving-table.h"
#include "hr-test-util.h"

static HrCatalog *catalog;

static HrScenario
scenario_for (const char *model,
              const char *precision,
              const char *hardware,
              guint64     context,
              guint32     users,
              double      target)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, model),
    .precision = hr_catalog_find_precision (catalog, precision),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, hardware),
    .context = context,
    .batch = 1,
    .engine = HR_ENGINE_VLLM,
    .gpus = 1,
    .users = users,
    .target_tokens_per_s = target,
  };

  g_assert_nonnull (s.model);
  g_assert_nonnull (s.precision);
  g_assert_nonnull (s.hardware);
  return s;
}

/* The plan's own figures are what an estimate of its layout gives. */
static void
assert_plan_reproduces (const HrScenario    *scenario,
                        const HrServingPlan *plan)
{
  HrScenario s = *scenario;
  HrEstimate e;

  s.layout = plan->layout;
  s.gpus = plan->gpus;
  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_cmpint (e.verdict, !=, HR_VERDICT_NO_FIT);
  g_assert_cmpuint (e.users_served, >=, s.users);
  g_assert_cmpfloat (e.per_user_tokens_per_s, >=, s.target_tokens_per_s);
  assert_close (e.per_user_tokens_per_s, plan->per_user_tokens_per_s, 1e-9);
  assert_close (e.aggregate_tokens_per_s, plan->aggregate_tokens_per_s, 1e-9);
}

/* Llama 3.1 70B in BF16 is 141 GB: one 80 GB H100 cannot hold it, two in
 * tensor parallel can (their all-reduces on NVLink beat two stages). */
static void
test_plan_tp2 (void)
{
  HrScenario s = scenario_for ("meta-llama/Llama-3.1-70B-Instruct", "bf16", "h100-sxm-80gb",
                               8192, 1, 1);
  HrServingPlan plan;
  HrEstimate one;

  g_assert_true (hr_scenario_estimate (&s, &one, NULL));
  g_assert_cmpint (one.verdict, ==, HR_VERDICT_NO_FIT);

  hr_serving_plan_search (&s, 0, &plan);
  g_assert_cmpint (plan.status, ==, HR_PLAN_FOUND);
  g_assert_cmpuint (plan.gpus, ==, 2);
  g_assert_cmpuint (plan.layout.tp, ==, 2);
  g_assert_cmpuint (plan.layout.pp, ==, 1);
  g_assert_cmpuint (plan.layout.dp, ==, 1);
  g_assert_cmpuint (plan.layout.nodes, ==, 1);
  assert_plan_reproduces (&s, &plan);
}

/* One GPU serves one user of Llama 3.1 8B; more users at the same target
 * need more GPUs, and never fewer. */
static void
test_plan_fewest (void)
{
  HrScenario s = scenario_for ("meta-llama/Llama-3.1-8B-Instruct", "bf16", "h100-sxm-80gb",
                               8192, 1, 20);
  HrServingPlan one, many, more;

  hr_serving_plan_search (&s, 0, &one);
  g_assert_cmpint (one.status, ==, HR_PLAN_FOUND);
  g_assert_cmpuint (one.gpus, ==, 1);
  assert_plan_reproduces (&s, &one);

  s.users = 128;
  hr_serving_plan_search (&s, 0, &many);
  g_assert_cmpint (many.status, ==, HR_PLAN_FOUND);
  g_assert_cmpuint (many.gpus, >, 1);
  assert_plan_reproduces (&s, &many);

  /* Nothing smaller passes: the plan is the fewest GPUs. */
  for (guint32 tp = 1; tp <= many.gpus / 2; tp *= 2)
    {
      HrScenario smaller = s;
      HrEstimate e;

      smaller.layout = (HrLayout) { tp, 1, 1, 1 };
      smaller.gpus = tp;
      if (hr_scenario_estimate (&smaller, &e, NULL) && e.verdict != HR_VERDICT_NO_FIT)
        g_assert_true (e.users_served < s.users || e.per_user_tokens_per_s < s.target_tokens_per_s);
    }

  s.users = 256;
  hr_serving_plan_search (&s, 0, &more);
  g_assert_cmpint (more.status, ==, HR_PLAN_FOUND);
  g_assert_cmpuint (more.gpus, >=, many.gpus);
}

/* Falcon3 10B has 12 query and 4 KV heads: tensor parallelism of 3, 6
 * or 8 is refused by vLLM, so three RTX 3060s hold it as three pipeline
 * stages, never as TP 3. */
static void
test_plan_heads (void)
{
  HrScenario s = scenario_for ("tiiuae/Falcon3-10B-Instruct", "bf16", "rtx-3060-12gb",
                               8192, 1, 1);
  const HrModelArch *arch = hr_model_spec_get_arch (s.model);
  HrServingPlan plan;

  g_assert_false (hr_vllm_tp_valid (arch, 3));
  hr_serving_plan_search (&s, 0, &plan);
  g_assert_cmpint (plan.status, ==, HR_PLAN_FOUND);
  g_assert_cmpuint (plan.gpus, ==, 3);
  g_assert_cmpuint (plan.layout.tp, ==, 1);
  g_assert_cmpuint (plan.layout.pp, ==, 3);
  assert_plan_reproduces (&s, &plan);

  /* Sixteen users need eight GPUs: TP 4 × DP 2, not TP 8. */
  s.users = 16;
  s.target_tokens_per_s = 10;
  hr_serving_plan_search (&s, 0, &plan);
  g_assert_cmpint (plan.status, ==, HR_PLAN_FOUND);
  g_assert_true (hr_vllm_tp_valid (arch, plan.layout.tp));
  g_assert_cmpuint (plan.layout.tp * plan.layout.pp * plan.layout.dp, ==, plan.gpus);
  assert_plan_reproduces (&s, &plan);
}

/* Past a machine the search takes whole machines, TP inside one. */
static void
test_plan_nodes (void)
{
  HrScenario s = scenario_for ("deepseek-ai/DeepSeek-V3", "fp8", "h100-sxm-80gb",
                               8192, 16, 10);
  HrServingPlan plan;

  hr_serving_plan_search (&s, 0, &plan);
  g_assert_cmpint (plan.status, ==, HR_PLAN_FOUND);
  g_assert_cmpuint (plan.gpus, ==, 16);
  g_assert_cmpuint (plan.layout.nodes, ==, 2);
  g_assert_cmpuint (plan.layout.tp, <=, HR_PLAN_GPUS_PER_NODE);
  assert_plan_reproduces (&s, &plan);

  /* Machines of four GPUs: four of them. */
  hr_serving_plan_search (&s, 4, &plan);
  g_assert_cmpint (plan.status, ==, HR_PLAN_FOUND);
  g_assert_cmpuint (plan.gpus, ==, 16);
  g_assert_cmpuint (plan.layout.nodes, ==, 4);
  g_assert_cmpuint (plan.gpus_per_node, ==, 4);
}

/* Issue 30, item 17: one user's answer rate is the stream's, without
 * reading its own prompt (that is the first token's wait); the
 * throughput still counts the prompt, as the measured runs did.  And no
 * plan gives one user more replicas than users. */
static void
test_one_user_rate (void)
{
  HrScenario s = scenario_for ("THUDM/GLM-4-9B-0414", "bf16", "rtx-4090-24gb", 8192, 1, 20);
  HrServingPlan plan;
  HrEstimate e;

  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_cmpuint (e.users_served, ==, 1);
  /* with the prompt in it, the two were equal for one user */
  g_assert_cmpfloat (e.per_user_tokens_per_s, >, e.aggregate_tokens_per_s * 1.05);
  g_assert_cmpfloat (e.load_ttft_seconds, >, 0);

  s = scenario_for ("meta-llama/Llama-3.1-70B-Instruct", "bf16", "rtx-3060-12gb", 8192, 1, 20);
  hr_serving_plan_search (&s, 0, &plan);
  if (plan.status == HR_PLAN_FOUND)
    g_assert_cmpuint (plan.layout.dp, ==, 1);
}

/* Nothing found: each reason, said. */
static void
test_plan_none (void)
{
  HrScenario s = scenario_for ("meta-llama/Llama-3.1-405B-Instruct", "bf16", "rtx-3060-12gb",
                               8192, 1, 1);
  HrServingPlan plan;
  g_autofree char *text = NULL;

  /* 811 GB of weights on 64 × 12 GB */
  hr_serving_plan_search (&s, 0, &plan);
  g_assert_cmpint (plan.status, ==, HR_PLAN_NO_FIT);
  g_assert_cmpuint (plan.gpus_max, ==, 64);
  text = hr_serving_plan_describe (&s, &plan);
  g_assert_nonnull (strstr (text, "64"));
  g_clear_pointer (&text, g_free);

  /* every cache full: 100,000 users at 128K */
  s = scenario_for ("meta-llama/Llama-3.1-8B-Instruct", "bf16", "rtx-3060-12gb",
                    131072, 100000, 1);
  hr_serving_plan_search (&s, 0, &plan);
  g_assert_cmpint (plan.status, ==, HR_PLAN_CACHE_FULL);
  g_assert_cmpuint (plan.most_users_held, >, 0);
  g_assert_cmpuint (plan.most_users_held, <, 100000);

  /* a target no layout reaches */
  s = scenario_for ("meta-llama/Llama-3.1-8B-Instruct", "bf16", "h100-sxm-80gb",
                    8192, 4, 5000);
  hr_serving_plan_search (&s, 0, &plan);
  g_assert_cmpint (plan.status, ==, HR_PLAN_TOO_SLOW);
  g_assert_cmpfloat (plan.best_per_user_tokens_per_s, >, 10);
  g_assert_cmpfloat (plan.best_per_user_tokens_per_s, <, 5000);
  g_assert_cmpstr (hr_plan_status_to_string (plan.status), ==, "too-slow");

  /* llama.cpp serves no layouts */
  s.engine = HR_ENGINE_LLAMACPP;
  s.precision = hr_catalog_find_precision (catalog, "q4_k_m");
  hr_serving_plan_search (&s, 0, &plan);
  g_assert_cmpint (plan.status, ==, HR_PLAN_NO_SERVING_ENGINE);

  /* no target */
  s.engine = HR_ENGINE_VLLM;
  s.precision = hr_catalog_find_precision (catalog, "bf16");
  s.target_tokens_per_s = 0;
  hr_serving_plan_search (&s, 0, &plan);
  g_assert_cmpint (plan.status, ==, HR_PLAN_NO_TARGET);
}

/* Llama 3.1 70B FP8 on TP 2 × DP 2 H100s: every cell is what the CLI
 * prints for the same users and context. */
static void
test_table_cells_match_cli (void)
{
  HrScenario s = scenario_for ("meta-llama/Llama-3.1-70B-Instruct", "fp8", "h100-sxm-80gb",
                               8192, 16, 20);
  g_autoptr(HrServingTable) table = hr_serving_table_new ();
  guint checked = 0, full = 0;

  s.gpus = 4;
  s.layout = (HrLayout) { 2, 1, 2, 1 };
  hr_serving_table_update (table, &s);
  g_assert_cmpint (hr_serving_table_get_status (table), ==, HR_SERVING_READY);
  g_assert_true (hr_serving_table_get_any_fits (table));
  /* trained to 128K: all four contexts */
  g_assert_cmpuint (hr_serving_table_get_n_contexts (table), ==, 4);
  g_assert_cmpuint (hr_serving_table_get_context (table, 3), ==, 131072);
  g_assert_cmpuint (hr_serving_table_get_n_users (table), ==, 7);

  for (guint i = 0; i < hr_serving_table_get_n_users (table); i += 3)
    for (guint j = 0; j < hr_serving_table_get_n_contexts (table); j++)
      {
        const HrServingCell *cell = hr_serving_table_get_cell (table, i, j);
        g_autofree char *users = g_strdup_printf ("%u", cell->users);
        g_autofree char *context = g_strdup_printf ("%" G_GUINT64_FORMAT, cell->context);
        const char *args[] = {
          "estimate", "--model", "meta-llama/Llama-3.1-70B-Instruct", "--precision", "fp8",
          "--engine", "vllm", "--hardware", "h100-sxm-80gb", "--tp", "2", "--dp", "2",
          "--users", users, "--target-tokens-per-s", "20", "--context", context, "--json",
          NULL
        };
        g_autoptr(JsonNode) root = hr_test_run_cli_json (args);
        JsonObject *o = json_node_get_object (root);

        assert_close (cell->per_user_tokens_per_s,
                      json_object_get_double_member (o, "per_user_tokens_per_s"), 1e-9);
        g_assert_cmpuint (cell->users_served, ==,
                          json_object_get_int_member (o, "users_served"));
        if (cell->state == HR_SERVING_CELL_CACHE_FULL)
          full++;
        else
          g_assert_cmpint (cell->state, ==,
                           hr_serving_rate_state (cell->per_user_tokens_per_s, 20));
        checked++;
      }
  g_assert_cmpuint (checked, ==, 12);
  /* 128 users at 128K do not all fit the cache of four H100s */
  g_assert_cmpint (hr_serving_table_get_cell (table, 6, 3)->state, ==,
                   HR_SERVING_CELL_CACHE_FULL);
  g_assert_cmpuint (hr_serving_table_get_cell (table, 6, 3)->users_served, <, 128);
  g_assert_cmpuint (full, >=, 1);
  /* one user at 4K meets 20 tok/s */
  g_assert_cmpint (hr_serving_table_get_cell (table, 0, 0)->state, ==, HR_SERVING_CELL_MEETS);
}

/* The curve: per-user rates fall and the aggregate rises with users, up
 * to the cache's limit, which the points reach; the plan is searched. */
static void
test_table_curve (void)
{
  HrScenario s = scenario_for ("meta-llama/Llama-3.1-8B-Instruct", "bf16", "rtx-4090-24gb",
                               8192, 16, 20);
  g_autoptr(HrServingTable) table = hr_serving_table_new ();
  const HrServingPoint *p;
  guint n;
  guint32 limit;

  hr_serving_table_update (table, &s);
  g_assert_cmpint (hr_serving_table_get_status (table), ==, HR_SERVING_READY);
  p = hr_serving_table_get_points (table, &n);
  limit = hr_serving_table_get_cache_limit (table);
  g_assert_cmpuint (limit, >, 1);
  g_assert_cmpuint (limit, <, 1024);
  g_assert_cmpuint (n, >=, 10);
  g_assert_cmpuint (p[0].users, ==, 1);
  g_assert_cmpuint (p[n - 1].users, >=, MAX (128, 2 * limit));
  for (guint i = 1; i < n; i++)
    {
      g_assert_cmpuint (p[i].users, >, p[i - 1].users);
      if (p[i].users <= limit)
        {
          g_assert_cmpfloat (p[i].per_user_tokens_per_s, <, p[i - 1].per_user_tokens_per_s);
          g_assert_cmpfloat (p[i].aggregate_tokens_per_s, >, p[i - 1].aggregate_tokens_per_s);
          g_assert_cmpuint (p[i].users_served, ==, p[i].users);
        }
      else
        g_assert_cmpuint (p[i].users_served, <=, limit);
    }
  /* the most users at the target: the last with ≥ 20 tok/s each */
  g_assert_cmpuint (hr_serving_table_get_max_users (table), >, 1);
  for (guint i = 0; i < n; i++)
    if (p[i].users <= limit)
      g_assert_cmpint (p[i].per_user_tokens_per_s >= 20, ==,
                       p[i].users <= hr_serving_table_get_max_users (table));
  g_assert_cmpint (hr_serving_table_get_plan (table)->status, ==, HR_PLAN_FOUND);
  /* the prompt under load: the context less the answer (512) */
  g_assert_cmpuint (hr_serving_table_get_load_prompt (table), ==, 8192 - 512);
  assert_close (hr_serving_table_get_estimate (table)->per_user_tokens_per_s,
                hr_serving_table_get_cell (table, 3, 1)->per_user_tokens_per_s, 1e-12);
}

/* One clear state for what is not a server. */
static void
test_table_states (void)
{
  HrScenario s = scenario_for ("meta-llama/Llama-3.1-8B-Instruct", "q4_k_m", "rtx-4090-24gb",
                               8192, 16, 20);
  g_autoptr(HrServingTable) table = hr_serving_table_new ();
  guint n;

  s.engine = HR_ENGINE_AUTO;         /* llama.cpp for a GGUF precision */
  hr_serving_table_update (table, &s);
  g_assert_cmpint (hr_serving_table_get_status (table), ==, HR_SERVING_NOT_SERVING);
  g_assert_cmpint (hr_serving_table_get_engine (table), ==, HR_ENGINE_LLAMACPP);
  g_assert_cmpuint (hr_serving_table_get_n_contexts (table), ==, 0);

  s.engine = HR_ENGINE_VLLM;         /* vLLM has no GGUF */
  hr_serving_table_update (table, &s);
  g_assert_cmpint (hr_serving_table_get_status (table), ==, HR_SERVING_INVALID);
  g_assert_nonnull (hr_serving_table_get_error_message (table));

  s = scenario_for ("meta-llama/Llama-3.1-70B-Instruct", "bf16", "rtx-4090-24gb",
                    8192, 16, 20);
  hr_serving_table_update (table, &s);
  g_assert_cmpint (hr_serving_table_get_status (table), ==, HR_SERVING_NO_FIT);
  g_assert_cmpint (hr_serving_table_get_cell (table, 0, 0)->state, ==, HR_SERVING_CELL_NO_FIT);
  g_assert_false (hr_serving_table_get_any_fits (table));
  hr_serving_table_get_points (table, &n);
  g_assert_cmpuint (n, ==, 0);
  /* the plan says what would */
  g_assert_cmpint (hr_serving_table_get_plan (table)->status, ==, HR_PLAN_FOUND);
  g_assert_cmpuint (hr_serving_table_get_plan (table)->gpus, >, 4);

  /* Qwen2.5 7B is trained to 32K: no 128K column */
  s = scenario_for ("Qwen/Qwen2.5-7B-Instruct", "bf16", "rtx-4090-24gb", 8192, 16, 20);
  hr_serving_table_update (table, &s);
  g_assert_cmpuint (hr_serving_table_get_n_contexts (table), ==, 3);
  g_assert_cmpuint (hr_serving_table_get_context (table, 2), ==, 32768);

  g_assert_cmpint (hr_serving_rate_state (20, 20), ==, HR_SERVING_CELL_MEETS);
  g_assert_cmpint (hr_serving_rate_state (15, 20), ==, HR_SERVING_CELL_NEAR);
  g_assert_cmpint (hr_serving_rate_state (14.9, 20), ==, HR_SERVING_CELL_BELOW);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  catalog = hr_test_builtin_catalog ();

  g_test_add_func ("/serving/plan/tp2", test_plan_tp2);
  g_test_add_func ("/serving/plan/fewest", test_plan_fewest);
  g_test_add_func ("/serving/plan/heads", test_plan_heads);
  g_test_add_func ("/serving/plan/nodes", test_plan_nodes);
  g_test_add_func ("/serving/plan/none", test_plan_none);
  g_test_add_func ("/serving/one-user-rate", test_one_user_rate);
  g_test_add_func ("/serving/table/cells-match-cli", test_table_cells_match_cli);
  g_test_add_func ("/serving/table/curve", test_table_curve);
  g_test_add_func ("/serving/table/states", test_table_states);

  return g_test_run ();
}
