/* test-calculator.c — one recomputation and one notification per change
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "hr-advice.h"
#include "hr-calculator.h"
#include "hr-comparison.h"
#include "hr-hardware-table.h"
#include "hr-matrix.h"
#include "hr-test-util.h"

typedef struct
{
  GHashTable *counts;   /* property name → times notified */
  guint changed;
} Recorder;

static void
on_notify (GObject    *object,
           GParamSpec *pspec,
           Recorder   *rec)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (rec->counts, pspec->name));
  g_hash_table_insert (rec->counts, (gpointer) pspec->name, GUINT_TO_POINTER (n + 1));
}

static void
on_changed (HrCalculator *calc,
            Recorder     *rec)
{
  rec->changed++;
}

static guint
count (Recorder   *rec,
       const char *name)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (rec->counts, name));
}

static void
assert_each_once (Recorder *rec)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, rec->counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (GPOINTER_TO_UINT (value) != 1)
      g_error ("“%s” notified %u times", (char *) key, GPOINTER_TO_UINT (value));
}

static void
test_defaults (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  guint64 total = 0, max_context = 0;
  HrVerdict verdict;

  g_assert_true (hr_calculator_get_valid (calc));
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, 1);
  /* Automatic by default; the seed page's numbers are the nominal method's. */
  g_assert_cmpint (hr_calculator_get_engine (calc), ==, HR_ENGINE_AUTO);
  hr_calculator_set_engine (calc, HR_ENGINE_GENERIC);
  g_assert_cmpstr (hr_model_spec_get_id (hr_calculator_get_model (calc)), ==,
                   "THUDM/GLM-4-9B-0414");
  g_object_get (calc, "total-bytes", &total, "max-context", &max_context,
                "verdict", &verdict, NULL);
  assert_close (total / GIB, 7.86, 0.0051);
  assert_close (max_context, 136404, 136404 * 0.005);
  g_assert_cmpint (verdict, ==, HR_VERDICT_COMFORTABLE);
}

static void
test_one_recompute_per_change (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  hr_calculator_set_engine (calc, HR_ENGINE_GENERIC);  /* the seed page's method */
  Recorder rec = { g_hash_table_new (g_str_hash, g_str_equal), 0 };
  guint before = hr_calculator_get_n_recomputes (calc);

  g_signal_connect (calc, "notify", G_CALLBACK (on_notify), &rec);
  g_signal_connect (calc, "changed", G_CALLBACK (on_changed), &rec);

  hr_calculator_set_context (calc, 65536);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, before + 1);
  g_assert_cmpuint (rec.changed, ==, 1);
  assert_each_once (&rec);
  g_assert_cmpuint (count (&rec, "context"), ==, 1);
  g_assert_cmpuint (count (&rec, "kv-bytes"), ==, 1);
  g_assert_cmpuint (count (&rec, "total-bytes"), ==, 1);
  g_assert_cmpuint (count (&rec, "context-past-trained"), ==, 1);
  /* what the context does not touch is not notified */
  g_assert_cmpuint (count (&rec, "weights-bytes"), ==, 0);
  g_assert_cmpuint (count (&rec, "max-context"), ==, 0);
  g_assert_cmpuint (count (&rec, "usable-bytes"), ==, 0);

  /* setting the same value again does nothing at all */
  g_hash_table_remove_all (rec.counts);
  hr_calculator_set_context (calc, 65536);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, before + 1);
  g_assert_cmpuint (g_hash_table_size (rec.counts), ==, 0);

  /* several inputs under freeze: one run, each property once */
  g_hash_table_remove_all (rec.counts);
  rec.changed = 0;
  hr_calculator_freeze (calc);
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "q8_0"));
  hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, "rtx-4090-24gb"));
  hr_calculator_set_context (calc, 8192);
  hr_calculator_set_gpu_count (calc, 2);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, before + 1);
  hr_calculator_thaw (calc);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, before + 2);
  g_assert_cmpuint (rec.changed, ==, 1);
  assert_each_once (&rec);
  g_assert_cmpuint (count (&rec, "weights-bytes"), ==, 1);
  g_assert_cmpuint (count (&rec, "per-device-bytes"), ==, 1);

  /* g_object_set of one input behaves like the setter */
  g_hash_table_remove_all (rec.counts);
  g_object_set (calc, "batch", 4, NULL);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, before + 3);
  assert_each_once (&rec);
  g_assert_cmpuint (count (&rec, "batch"), ==, 1);

  g_hash_table_unref (rec.counts);
}

/* The serving layout: machines × GPUs each = tp × pp × dp, one run and
 * one notification of each property that changed per setter. */
static void
test_layout (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  Recorder rec = { g_hash_table_new (g_str_hash, g_str_equal), 0 };
  HrScenario same;
  HrEstimate expected;
  HrLayout plan = { 2, 1, 4, 1 };
  guint before;
  double per_user = 0;

  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog,
                                                        "meta-llama/Llama-3.1-70B-Instruct"));
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "fp8"));
  hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, "h100-sxm-80gb"));
  hr_calculator_set_engine (calc, HR_ENGINE_VLLM);
  hr_calculator_set_context (calc, 8192);
  hr_calculator_thaw (calc);
  g_assert_cmpuint (hr_calculator_get_users (calc), ==, 1);
  assert_close (hr_calculator_get_target_tokens_per_s (calc), 20, 0);
  g_signal_connect (calc, "notify", G_CALLBACK (on_notify), &rec);
  before = hr_calculator_get_n_recomputes (calc);

  /* a machine of 8: TP 8 */
  hr_calculator_set_gpus_per_node (calc, 8);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, before + 1);
  assert_each_once (&rec);
  g_assert_cmpuint (count (&rec, "gpu-count"), ==, 1);
  g_assert_cmpuint (count (&rec, "tp"), ==, 1);
  g_assert_cmpuint (count (&rec, "pp"), ==, 0);
  g_assert_cmpuint (hr_calculator_get_gpu_count (calc), ==, 8);
  g_assert_cmpuint (hr_calculator_get_tp (calc), ==, 8);

  /* two of them: a stage each */
  g_hash_table_remove_all (rec.counts);
  hr_calculator_set_nodes (calc, 2);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, before + 2);
  assert_each_once (&rec);
  g_assert_cmpuint (count (&rec, "nodes"), ==, 1);
  g_assert_cmpuint (count (&rec, "pp"), ==, 1);
  g_assert_cmpuint (count (&rec, "tp"), ==, 0);
  g_assert_cmpuint (count (&rec, "gpus-per-node"), ==, 0);
  g_assert_cmpuint (hr_calculator_get_gpu_count (calc), ==, 16);
  g_assert_cmpuint (hr_calculator_get_pp (calc), ==, 2);

  /* TP 4: the stages take the rest; then two replicas */
  hr_calculator_set_tp (calc, 4);
  g_assert_cmpuint (hr_calculator_get_pp (calc), ==, 4);
  g_assert_cmpuint (hr_calculator_get_dp (calc), ==, 1);
  g_hash_table_remove_all (rec.counts);
  hr_calculator_set_dp (calc, 2);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, before + 4);
  assert_each_once (&rec);
  g_assert_cmpuint (count (&rec, "dp"), ==, 1);
  g_assert_cmpuint (count (&rec, "pp"), ==, 1);
  g_assert_cmpuint (count (&rec, "tp"), ==, 0);
  g_assert_cmpuint (hr_calculator_get_pp (calc), ==, 2);

  /* TP 3 does not divide 16 GPUs: the nearest that does (4) is kept */
  hr_calculator_set_tp (calc, 3);
  g_assert_cmpuint (hr_calculator_get_tp (calc), ==, 4);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, before + 4);

  /* the estimate is the CLI's: --tp 4 --pp 2 --dp 2 --nodes 2 */
  g_assert_cmpuint (hr_calculator_get_estimate (calc)->layout.tp, ==, 4);
  g_assert_cmpuint (hr_calculator_get_estimate (calc)->layout.pp, ==, 2);
  g_assert_cmpuint (hr_calculator_get_estimate (calc)->layout.dp, ==, 2);
  g_assert_cmpuint (hr_calculator_get_estimate (calc)->layout.nodes, ==, 2);

  /* users and target: one run each */
  g_hash_table_remove_all (rec.counts);
  hr_calculator_set_users (calc, 32);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, before + 5);
  assert_each_once (&rec);
  g_assert_cmpuint (count (&rec, "users"), ==, 1);
  g_assert_cmpuint (count (&rec, "per-user-tokens-per-s"), ==, 1);
  g_hash_table_remove_all (rec.counts);
  g_object_set (calc, "target-tokens-per-s", 30.0, NULL);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, before + 6);
  g_assert_cmpuint (count (&rec, "target-tokens-per-s"), ==, 1);
  g_assert_cmpuint (count (&rec, "per-user-tokens-per-s"), ==, 0);

  same = *hr_calculator_get_scenario (calc);
  same.layout = (HrLayout) { 4, 2, 2, 2 };
  g_assert_true (hr_scenario_estimate (&same, &expected, NULL));
  g_object_get (calc, "per-user-tokens-per-s", &per_user, NULL);
  g_assert_cmpfloat (per_user, >, 1);
  assert_close (per_user, expected.per_user_tokens_per_s, 1e-12);

  /* a plan's layout at once: 8 GPUs on one machine */
  g_hash_table_remove_all (rec.counts);
  hr_calculator_set_layout (calc, &plan);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, before + 7);
  assert_each_once (&rec);
  g_assert_cmpuint (hr_calculator_get_gpu_count (calc), ==, 8);
  g_assert_cmpuint (hr_calculator_get_tp (calc), ==, 2);
  g_assert_cmpuint (hr_calculator_get_pp (calc), ==, 1);
  g_assert_cmpuint (hr_calculator_get_dp (calc), ==, 4);
  g_assert_cmpuint (hr_calculator_get_nodes (calc), ==, 1);
  g_assert_cmpuint (hr_calculator_get_gpus_per_node (calc), ==, 8);

  /* the GPU count alone: TP over all of them again */
  hr_calculator_set_gpu_count (calc, 4);
  g_assert_cmpuint (hr_calculator_get_tp (calc), ==, 4);
  g_assert_cmpuint (hr_calculator_get_dp (calc), ==, 1);

  g_hash_table_unref (rec.counts);
}

static void
test_invalid_input (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  hr_calculator_set_engine (calc, HR_ENGINE_GENERIC);  /* the seed page's method */
  g_autofree char *message = NULL;
  gboolean valid;

  hr_calculator_set_model (calc, NULL);
  g_object_get (calc, "valid", &valid, "error-message", &message, NULL);
  g_assert_false (valid);
  g_assert_nonnull (message);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "Qwen/Qwen3-8B"));
  g_assert_true (hr_calculator_get_valid (calc));
  g_assert_null (hr_calculator_get_error_message (calc));

  /* out-of-range inputs are clamped to the estimator's range */
  hr_calculator_set_context (calc, 0);
  g_assert_cmpuint (hr_calculator_get_context (calc), ==, HR_CONTEXT_MIN);
  hr_calculator_set_gpu_count (calc, 0);
  g_assert_cmpuint (hr_calculator_get_gpu_count (calc), ==, 1);
}

static void
test_matrix_follows (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  hr_calculator_set_engine (calc, HR_ENGINE_GENERIC);  /* the seed page's method */
  g_autoptr(HrMatrix) matrix = hr_matrix_new (calc);
  g_autoptr(HrMatrixRow) row = NULL;
  guint64 before;
  const guint64 contexts[] = { 4096, 16384 };

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (matrix)), ==, 8);
  row = g_list_model_get_item (G_LIST_MODEL (matrix), 5);
  g_assert_cmpstr (hr_precision_get_id (hr_matrix_row_get_precision (row)), ==, "q4_k_m");
  assert_close (hr_matrix_row_get_total_bytes (row, 1) / GIB, 7.86, 0.0051);
  before = hr_matrix_row_get_total_bytes (row, 1);

  hr_calculator_set_kv_type (calc, hr_catalog_find_kv_type (catalog, "q8_0"));
  g_assert_cmpuint (hr_matrix_row_get_total_bytes (row, 1), <, before);
  /* Q8_0 KV: 1.25 GiB × 34/64 */
  assert_close ((before - hr_matrix_row_get_total_bytes (row, 1)) / GIB,
                1.25 * (1 - 34.0 / 64.0), 0.0001);

  hr_matrix_set_contexts (matrix, contexts, 2);
  g_assert_cmpuint (hr_matrix_get_n_contexts (matrix), ==, 2);
  g_assert_cmpuint (hr_matrix_get_tier_index (matrix), ==, 1);
}

static void
test_hardware_table_follows (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  hr_calculator_set_engine (calc, HR_ENGINE_GENERIC);  /* the seed page's method */
  g_autoptr(HrHardwareTable) table = hr_hardware_table_new (calc);
  GListModel *list = G_LIST_MODEL (table);
  guint n = g_list_model_get_n_items (list);
  guint found = 0;

  g_assert_cmpuint (n, ==, g_list_model_get_n_items (hr_catalog_get_hardware (catalog)));

  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "fp16"));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrHardwareRow) row = g_list_model_get_item (list, i);
      const char *id = hr_hardware_get_id (hr_hardware_row_get_hardware (row));

      /* FP16 at 32K: 20.42 GiB; no 12 GiB card holds it, a 24 GiB one
       * does, with 14 % of its 23.81 usable GiB to spare */
      if (g_str_equal (id, "rtx-3060-12gb"))
        {
          g_assert_cmpint (hr_hardware_row_get_verdict (row), ==, HR_VERDICT_NO_FIT);
          found++;
        }
      else if (g_str_equal (id, "rtx-3090-24gb"))
        {
          g_assert_cmpint (hr_hardware_row_get_verdict (row), ==, HR_VERDICT_COMFORTABLE);
          assert_close (hr_hardware_row_get_required_bytes (row) / GIB, 20.42, 0.0051);
          found++;
        }
    }
  g_assert_cmpuint (found, ==, 2);

  /* Q4_K_M at 32K under llama.cpp: an M1 8 GB that does not hold it
   * shows the whole set-up in its one memory, more than the 8 GB card
   * that holds it tightly (issue 30.18) */
  hr_calculator_set_engine (calc, HR_ENGINE_LLAMACPP);
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "q4_k_m"));
  {
    double apple = 0, card = 0;
    guint64 apple_bytes = 0, card_bytes = 0;

    for (guint i = 0; i < n; i++)
      {
        g_autoptr(HrHardwareRow) row = g_list_model_get_item (list, i);
        const char *id = hr_hardware_get_id (hr_hardware_row_get_hardware (row));

        if (g_str_equal (id, "apple-m1-8gb"))
          {
            g_assert_cmpint (hr_hardware_row_get_verdict (row), ==, HR_VERDICT_NO_FIT);
            apple = hr_hardware_row_get_share (row);
            apple_bytes = hr_hardware_row_get_required_bytes (row);
          }
        else if (g_str_equal (id, "rtx-3070-8gb"))
          {
            g_assert_cmpint (hr_hardware_row_get_verdict (row), !=, HR_VERDICT_NO_FIT);
            card = hr_hardware_row_get_share (row);
            card_bytes = hr_hardware_row_get_required_bytes (row);
          }
      }
    g_assert_cmpfloat (card, >, 0);
    g_assert_cmpfloat (apple, >, card);
    g_assert_cmpuint (apple_bytes, >=, card_bytes);
  }
}

/* The system memory reaches llama.cpp's placement in one run. */
static void
test_ram (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  const HrSystemMemory detected = { 64ull << 30, 102.4 };
  const HrSystemMemory none = { 0, 0 };
  guint runs;

  hr_calculator_set_engine (calc, HR_ENGINE_LLAMACPP);
  /* Qwen3-32B at Q4_K_M does not fit 12 GiB: layers go to RAM */
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "Qwen/Qwen3-32B"));
  g_assert_cmpuint (hr_calculator_get_ram (calc)->bytes, ==, 0);
  g_assert_cmpuint (hr_calculator_get_estimate (calc)->ram_bytes, ==, 32ull << 30);

  runs = hr_calculator_get_n_recomputes (calc);
  hr_calculator_set_ram (calc, &detected);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, runs + 1);
  g_assert_cmpuint (hr_calculator_get_estimate (calc)->ram_bytes, ==, 64ull << 30);
  assert_close (hr_calculator_get_estimate (calc)->ram_bandwidth_gbps, 102.4, 1e-9);
  hr_calculator_set_ram (calc, &detected);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, runs + 1);

  hr_calculator_set_ram (calc, &none);
  g_assert_cmpuint (hr_calculator_get_estimate (calc)->ram_bytes, ==, 32ull << 30);
}

/* FP16 GLM-4-9B at 32K (20.42 GiB) on a 12 GiB card: each single change
 * the advice names must really fit, and the next better one must not. */
static void
test_advice (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  hr_calculator_set_engine (calc, HR_ENGINE_GENERIC);  /* the seed page's method */
  HrScenario s;
  HrEstimate e;
  HrAdvice advice;

  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "fp16"));
  s = *hr_calculator_get_scenario (calc);
  hr_advice_compute (catalog, &s, &advice);

  /* Q8_0 / FP8 at 8.5 bpw: 11.97 GiB > 11.81 usable; Q6_K fits (9.78) */
  g_assert_nonnull (advice.precision);
  g_assert_cmpstr (hr_precision_get_id (advice.precision), ==, "q6_k");
  /* 20.42 - 1.25 = 19.17 GiB before any KV: no context fits */
  g_assert_cmpuint (advice.context, ==, 0);
  g_assert_null (advice.kv_type);
  /* two GPUs: 8.75 weights + 0.63 KV + 1.40 overhead per device */
  g_assert_cmpuint (advice.gpus, ==, 2);
  s.gpus = advice.gpus;
  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_cmpint (e.verdict, !=, HR_VERDICT_NO_FIT);

  /* Q6_K at 128K: 13.53 GiB; a shorter context or a Q8_0 cache fits */
  s = *hr_calculator_get_scenario (calc);
  s.precision = hr_catalog_find_precision (catalog, "q6_k");
  s.context = 131072;
  hr_advice_compute (catalog, &s, &advice);
  /* Q5_K_M is 12.55 GiB; Q4_K_M 11.61 GiB fits (tight) */
  g_assert_cmpstr (hr_precision_get_id (advice.precision), ==, "q4_k_m");
  g_assert_cmpuint (advice.context, >, 32768);
  g_assert_cmpuint (advice.context, <, 131072);
  g_assert_nonnull (advice.kv_type);
  g_assert_cmpstr (hr_kv_type_get_id (advice.kv_type), ==, "q8_0");
}

static void
test_comparison (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  hr_calculator_set_engine (calc, HR_ENGINE_GENERIC);  /* the seed page's method */
  g_autoptr(HrComparison) comparison = hr_comparison_new (calc);
  GListModel *list = G_LIST_MODEL (comparison);
  gboolean found_current = FALSE, found_big = FALSE;
  double previous = 0;

  g_assert_cmpuint (g_list_model_get_n_items (list), >=, 5);
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(HrComparisonRow) row = g_list_model_get_item (list, i);
      HrModelSpec *m = hr_comparison_row_get_model (row);
      double params = hr_model_spec_get_arch (m)->params_total;

      /* smallest first; 4.7B … 18.8B or the GLM-4-0414 family */
      g_assert_cmpfloat (params, >=, previous);
      previous = params;
      g_assert_true (hr_comparison_is_similar (hr_calculator_get_model (calc), m));
      if (hr_comparison_row_get_is_current (row))
        {
          found_current = TRUE;
          assert_close (hr_comparison_row_get_total_bytes (row) / GIB, 7.86, 0.0051);
        }
      if (g_str_equal (hr_model_spec_get_id (m), "THUDM/GLM-4-32B-0414"))
        found_big = TRUE;
      g_assert_false (g_str_equal (hr_model_spec_get_id (m), "deepseek-ai/DeepSeek-V3"));
    }
  g_assert_true (found_current);
  g_assert_true (found_big);

  /* switching model re-chooses the rows */
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "deepseek-ai/DeepSeek-V3"));
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(HrComparisonRow) row = g_list_model_get_item (list, i);
      g_assert_false (g_str_equal (hr_model_spec_get_id (hr_comparison_row_get_model (row)),
                                   "THUDM/GLM-4-9B-0414"));
    }
}

/* An import is saved atomically beside the user's files and replaces an
 * earlier import of the same id. */
static void
test_import_saved (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autofree char *dir = g_dir_make_tmp ("headroom-import-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "imported-models.json", NULL);
  HrModelSpec *glm = hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414");
  g_autoptr(JsonObject) json = hr_model_spec_to_json (glm);
  g_autoptr(HrModelSpec) copy = NULL;
  g_autoptr(HrCatalog) reloaded = hr_test_builtin_catalog ();
  g_autoptr(GError) error = NULL;
  guint n = g_list_model_get_n_items (hr_catalog_get_models (catalog));

  json_object_set_string_member (json, "id", "me/glm-copy");
  copy = hr_model_spec_new_from_json (json, HR_ORIGIN_USER, &error);
  g_assert_no_error (error);

  g_assert_true (hr_catalog_import_model (catalog, copy, dir, &error));
  g_assert_no_error (error);
  g_assert_true (hr_catalog_import_model (catalog, copy, dir, &error));
  g_assert_cmpuint (g_list_model_get_n_items (hr_catalog_get_models (catalog)), ==, n + 1);

  g_assert_cmpuint (hr_catalog_load_user_dir (reloaded, dir), ==, 1);
  g_assert_nonnull (hr_catalog_find_model (reloaded, "me/glm-copy"));
  g_assert_cmpuint (g_list_model_get_n_items (hr_catalog_get_models (reloaded)), ==, n + 1);

  /* an unwritable directory is an error, and the catalog is unchanged */
  g_assert_false (hr_catalog_import_model (reloaded, glm, "/proc/headroom-no", &error));
  g_assert_nonnull (error);

  g_unlink (path);
  g_rmdir (dir);
}

/* ------------------------------------------------ placement and timing */

/* Qwen3-30B-A3B in Q4_K_M on a 12 GB card under llama.cpp: partial
 * offload, as the CLI computes it with the same options. */
static HrCalculator *
new_offload_calculator (HrCatalog *catalog)
{
  HrCalculator *calc = hr_calculator_new (catalog);

  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "Qwen/Qwen3-30B-A3B"));
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "q4_k_m"));
  hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, "rtx-3060-12gb"));
  hr_calculator_set_engine (calc, HR_ENGINE_LLAMACPP);
  hr_calculator_set_context (calc, 32768);
  hr_calculator_thaw (calc);
  return calc;
}

/* The CLI's answer for the offload case with @extra options. */
static JsonObject *
offload_cli (JsonNode   **root,
             const char  *extra[])
{
  const char *base[] = { "estimate", "--model", "Qwen/Qwen3-30B-A3B", "--precision", "q4_k_m",
                         "--hardware", "rtx-3060-12gb", "--engine", "llamacpp",
                         "--context", "32768", "--json" };
  g_autoptr(GPtrArray) args = g_ptr_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (base); i++)
    g_ptr_array_add (args, (gpointer) base[i]);
  for (guint i = 0; extra[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) extra[i]);
  g_ptr_array_add (args, NULL);
  *root = hr_test_run_cli_json ((const char * const *) args->pdata);
  return json_node_get_object (*root);
}

static void
assert_matches_cli (HrCalculator *calc,
                    const char   *extra[])
{
  g_autoptr(JsonNode) root = NULL;
  JsonObject *o = offload_cli (&root, extra);
  const HrEstimate *e = hr_calculator_get_estimate (calc);

  g_assert_true (hr_calculator_get_valid (calc));
  g_assert_cmpuint (e->gpu_layers, ==, json_object_get_int_member (o, "gpu_layers"));
  g_assert_cmpuint (e->host_bytes, ==, json_object_get_int_member (o, "host_bytes"));
  g_assert_cmpuint (e->per_device_bytes, ==, json_object_get_int_member (o, "per_device_bytes"));
  g_assert_cmpint (e->ram_fits, ==, json_object_get_boolean_member (o, "ram_fits"));
  /* What does not fit has no speed in the CLI: null there, no prompt keys. */
  if (e->verdict == HR_VERDICT_NO_FIT)
    {
      g_assert_true (json_object_get_null_member (o, "decode_tokens_per_s"));
      g_assert_false (json_object_has_member (o, "prefill_tokens_per_s"));
    }
  else
    assert_close (e->decode_tokens_per_s,
                  json_object_get_double_member (o, "decode_tokens_per_s"), 1e-6);
  if (json_object_has_member (o, "prefill_tokens_per_s"))
    {
      assert_close (e->prefill_tokens_per_s,
                    json_object_get_double_member (o, "prefill_tokens_per_s"), 1e-6);
      assert_close (e->ttft_seconds, json_object_get_double_member (o, "ttft_seconds"), 1e-9);
      assert_close (e->generation_seconds,
                    json_object_get_double_member (o, "generation_seconds"), 1e-9);
    }
}

static void
test_placement_inputs (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = new_offload_calculator (catalog);
  Recorder rec = { g_hash_table_new (g_str_hash, g_str_equal), 0 };
  guint before = hr_calculator_get_n_recomputes (calc);
  guint auto_layers = 0, layer_count = 0, placement = 0;
  const char *none[] = { NULL };
  const char *twenty[] = { "--gpu-layers", "20", NULL };
  const char *all_experts[] = { "--gpu-layers", "49", "--n-cpu-moe", "30", NULL };
  const char *rows[] = { "--gpus", "2", "--split-mode", "row", NULL };
  const char *small_ram[] = { "--ram", "16", "--ram-bandwidth", "50", NULL };
  const char *tiny_ram[] = { "--ram", "8", NULL };

  assert_matches_cli (calc, none);
  g_object_get (calc, "gpu-layers-used", &auto_layers, "layer-count", &layer_count,
                "placement", &placement, NULL);
  g_assert_true (hr_calculator_get_gpu_layers_auto (calc));
  g_assert_cmpuint (placement, ==, HR_PLACEMENT_PARTIAL);
  g_assert_cmpuint (auto_layers, >, 0);
  g_assert_cmpuint (auto_layers, <, layer_count);

  g_signal_connect (calc, "notify", G_CALLBACK (on_notify), &rec);
  g_signal_connect (calc, "changed", G_CALLBACK (on_changed), &rec);

  /* a fixed count: automatic turns off, one run, each property once */
  hr_calculator_set_gpu_layers (calc, 20);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, before + 1);
  g_assert_cmpuint (rec.changed, ==, 1);
  assert_each_once (&rec);
  g_assert_cmpuint (count (&rec, "gpu-layers"), ==, 1);
  g_assert_cmpuint (count (&rec, "gpu-layers-auto"), ==, 1);
  g_assert_cmpuint (count (&rec, "gpu-layers-used"), ==, 1);
  g_assert_cmpuint (count (&rec, "host-bytes"), ==, 1);
  g_assert_cmpuint (count (&rec, "weights-bytes"), ==, 0);
  g_assert_false (hr_calculator_get_gpu_layers_auto (calc));
  assert_matches_cli (calc, twenty);

  /* the same count again: nothing */
  g_hash_table_remove_all (rec.counts);
  hr_calculator_set_gpu_layers (calc, 20);
  g_assert_cmpuint (hr_calculator_get_n_recomputes (calc), ==, before + 1);
  g_assert_cmpuint (g_hash_table_size (rec.counts), ==, 0);

  /* automatic again, then off: the count automatic chose is kept, and
   * no figure moves */
  hr_calculator_set_gpu_layers_auto (calc, TRUE);
  assert_matches_cli (calc, none);
  g_hash_table_remove_all (rec.counts);
  hr_calculator_set_gpu_layers_auto (calc, FALSE);
  g_assert_cmpuint (hr_calculator_get_gpu_layers (calc), ==, auto_layers);
  g_assert_cmpuint (count (&rec, "gpu-layers-auto"), ==, 1);
  g_assert_cmpuint (count (&rec, "gpu-layers"), ==, 1);
  g_assert_cmpuint (count (&rec, "host-bytes"), ==, 0);
  g_assert_cmpuint (count (&rec, "decode-tokens-per-s"), ==, 0);
  assert_matches_cli (calc, none);

  /* more layers than the model has: all of them */
  hr_calculator_set_gpu_layers (calc, 1000);
  g_assert_cmpuint (hr_calculator_get_gpu_layers (calc), ==, layer_count);
  /* experts of 30 layers in system RAM, every layer on the GPU */
  hr_calculator_set_n_cpu_moe (calc, 30);
  assert_matches_cli (calc, all_experts);
  /* a smaller model takes all of its own layers */
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "Qwen/Qwen3-8B"));
  g_assert_cmpuint (hr_calculator_get_gpu_layers (calc), ==,
                    hr_model_spec_get_arch (hr_calculator_get_model (calc))->n_layers + 1);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "Qwen/Qwen3-30B-A3B"));
  hr_calculator_set_n_cpu_moe (calc, 0);
  hr_calculator_set_gpu_layers_auto (calc, TRUE);

  /* two GPUs, rows */
  hr_calculator_freeze (calc);
  hr_calculator_set_gpu_count (calc, 2);
  hr_calculator_set_split_mode (calc, HR_SPLIT_ROW);
  hr_calculator_thaw (calc);
  assert_matches_cli (calc, rows);
  g_object_get (calc, "placement", &placement, NULL);
  g_assert_cmpuint (placement, ==, HR_PLACEMENT_SPLIT);
  hr_calculator_freeze (calc);
  hr_calculator_set_gpu_count (calc, 1);
  hr_calculator_set_split_mode (calc, HR_SPLIT_DEFAULT);
  hr_calculator_thaw (calc);

  /* system memory: smaller and slower, then too small to hold the rest */
  hr_calculator_freeze (calc);
  hr_calculator_set_ram_bytes (calc, 16ull << 30);
  hr_calculator_set_ram_bandwidth (calc, 50);
  hr_calculator_thaw (calc);
  assert_matches_cli (calc, small_ram);
  hr_calculator_set_ram_bandwidth (calc, 0);
  hr_calculator_set_ram_bytes (calc, 8ull << 30);
  assert_matches_cli (calc, tiny_ram);
  g_assert_false (hr_calculator_get_estimate (calc)->ram_fits);
  g_assert_cmpint (hr_calculator_get_estimate (calc)->verdict, ==, HR_VERDICT_NO_FIT);

  g_hash_table_unref (rec.counts);
}

/* The prompt timed: as the CLI's --prompt-tokens; never longer than the
 * context. */
static void
test_prompt_tokens (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = new_offload_calculator (catalog);
  const char *question[] = { "--prompt-tokens", "500", NULL };
  const char *document[] = { "--prompt-tokens", "20000", "--generate", "100", NULL };
  const char *none[] = { NULL };
  double full_ttft = hr_calculator_get_estimate (calc)->ttft_seconds;
  guint64 used = 0;

  assert_matches_cli (calc, none);
  g_object_get (calc, "prompt-tokens-used", &used, NULL);
  g_assert_cmpuint (used, ==, 32768);

  hr_calculator_set_prompt_tokens (calc, 500);
  assert_matches_cli (calc, question);
  g_assert_cmpfloat (hr_calculator_get_estimate (calc)->ttft_seconds, <, full_ttft / 10);

  hr_calculator_freeze (calc);
  hr_calculator_set_prompt_tokens (calc, 20000);
  hr_calculator_set_generate_tokens (calc, 100);
  hr_calculator_thaw (calc);
  assert_matches_cli (calc, document);

  /* a context shorter than the prompt: the prompt is the context */
  hr_calculator_set_context (calc, 16384);
  g_assert_cmpuint (hr_calculator_get_prompt_tokens (calc), ==, 0);
  g_object_get (calc, "prompt-tokens-used", &used, NULL);
  g_assert_cmpuint (used, ==, 16384);
  hr_calculator_set_prompt_tokens (calc, 20000);
  g_assert_cmpuint (hr_calculator_get_prompt_tokens (calc), ==, 0);
}

/* Issue 31: the cache before the prompt (--depth) and the llama.cpp build
 * (--backend) give the CLI's figures; a depth that leaves a prompt no
 * room empties, a build the device cannot run is never kept. */
static void
test_depth_backend (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = new_offload_calculator (catalog);
  const char *deep[] = { "--prompt-tokens", "500", "--depth", "16384", NULL };
  const char *rest[] = { "--depth", "16384", NULL };
  const char *vulkan[] = { "--depth", "16384", "--backend", "vulkan", NULL };
  double empty_prefill, empty_ttft;
  guint backend_used = 99;
  guint64 used = 0;

  hr_calculator_set_prompt_tokens (calc, 500);
  empty_prefill = hr_calculator_get_estimate (calc)->prefill_tokens_per_s;
  empty_ttft = hr_calculator_get_estimate (calc)->ttft_seconds;
  hr_calculator_set_depth (calc, 16384);
  g_assert_cmpuint (hr_calculator_get_depth (calc), ==, 16384);
  assert_matches_cli (calc, deep);
  /* 500 tokens on top of 16,384 read slower than from an empty cache */
  g_assert_cmpfloat (hr_calculator_get_estimate (calc)->prefill_tokens_per_s, <, empty_prefill);
  g_assert_cmpfloat (hr_calculator_get_estimate (calc)->ttft_seconds, >, empty_ttft);

  /* a prompt that no longer fits on top of the cache: the rest of the context */
  hr_calculator_set_prompt_tokens (calc, 20000);
  g_assert_cmpuint (hr_calculator_get_prompt_tokens (calc), ==, 0);
  g_object_get (calc, "prompt-tokens-used", &used, NULL);
  g_assert_cmpuint (used, ==, 32768 - 16384);
  assert_matches_cli (calc, rest);

  /* the device's own build by default: CUDA on an NVIDIA card */
  g_object_get (calc, "backend-used", &backend_used, NULL);
  g_assert_cmpuint (backend_used, ==, HR_BACKEND_CUDA);
  g_assert_true (hr_calculator_backend_possible (calc, HR_BACKEND_VULKAN));
  g_assert_false (hr_calculator_backend_possible (calc, HR_BACKEND_ROCM));
  g_assert_false (hr_calculator_backend_possible (calc, HR_BACKEND_METAL));
  hr_calculator_set_backend (calc, HR_BACKEND_ROCM + 1);
  g_assert_cmpuint (hr_calculator_get_backend (calc), ==, 0);
  hr_calculator_set_backend (calc, HR_BACKEND_VULKAN + 1);
  g_object_get (calc, "backend-used", &backend_used, NULL);
  g_assert_cmpuint (backend_used, ==, HR_BACKEND_VULKAN);
  assert_matches_cli (calc, vulkan);

  /* an Apple chip runs no Vulkan build: the choice goes back to Metal */
  hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, "apple-m2-max-96gb"));
  g_assert_cmpuint (hr_calculator_get_backend (calc), ==, 0);
  g_object_get (calc, "backend-used", &backend_used, NULL);
  g_assert_cmpuint (backend_used, ==, HR_BACKEND_METAL);

  /* a context no longer than the cache empties it */
  hr_calculator_set_context (calc, 8192);
  g_assert_cmpuint (hr_calculator_get_depth (calc), ==, 0);
}

/* Issue 30, item 19: gpt-oss-120b MXFP4 on a 12 GiB card with 37 layers
 * and the experts of 31 in RAM fits; its largest context is then the one
 * that placement holds, not 0 (which ignored --n-cpu-moe). */
static void
test_max_context_n_cpu_moe (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "openai/gpt-oss-120b"),
    .precision = hr_catalog_find_precision (catalog, "mxfp4"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-4070-12gb"),
    .engine = HR_ENGINE_LLAMACPP,
    .context = 32768, .batch = 1, .gpus = 1,
    .ram = { 64ull << 30, 0 },
  };
  HrEstimate e;

  s.placement.gpu_layers_fixed = TRUE;
  s.placement.gpu_layers = 37;
  s.placement.n_cpu_moe = 31;
  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_cmpint (e.verdict, !=, HR_VERDICT_NO_FIT);
  g_assert_cmpuint (e.max_context, >=, s.context);
}

/* Issue 30, item 4: an Apple chip is one unified-memory device: the
 * estimate refuses two, the calculator keeps one, the advice never
 * offers more. */
static void
test_unified_one_device (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  HrHardware *mac = hr_catalog_find_hardware (catalog, "apple-m2-max-96gb");
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-70B-Instruct"),
    .precision = hr_catalog_find_precision (catalog, "fp16"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = mac,
    .engine = HR_ENGINE_LLAMACPP,
    .context = 8192, .batch = 1, .gpus = 2,
  };
  g_autoptr(GError) error = NULL;
  HrEstimate e;
  HrAdvice advice;

  g_assert_nonnull (mac);
  g_assert_false (hr_scenario_estimate (&s, &e, &error));
  g_assert_nonnull (strstr (error->message, "unified-memory"));

  /* 140 GB of FP16 weights do not fit 96 GB: never "2 such devices" */
  s.gpus = 1;
  hr_advice_compute (catalog, &s, &advice);
  g_assert_cmpuint (advice.gpus, ==, 0);

  hr_calculator_set_gpu_count (calc, 2);
  g_assert_cmpuint (hr_calculator_get_gpu_count (calc), ==, 2);
  hr_calculator_set_hardware (calc, mac);
  g_assert_cmpuint (hr_calculator_get_gpu_count (calc), ==, 1);
  hr_calculator_set_gpu_count (calc, 3);
  g_assert_cmpuint (hr_calculator_get_gpu_count (calc), ==, 1);
  g_assert_true (hr_calculator_get_estimate (calc) != NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/calculator/defaults", test_defaults);
  g_test_add_func ("/calculator/unified-one-device", test_unified_one_device);
  g_test_add_func ("/calculator/max-context-n-cpu-moe", test_max_context_n_cpu_moe);
  g_test_add_func ("/calculator/one-recompute-per-change", test_one_recompute_per_change);
  g_test_add_func ("/calculator/layout", test_layout);
  g_test_add_func ("/calculator/invalid-input", test_invalid_input);
  g_test_add_func ("/calculator/matrix-follows", test_matrix_follows);
  g_test_add_func ("/calculator/hardware-table-follows", test_hardware_table_follows);
  g_test_add_func ("/calculator/ram", test_ram);
  g_test_add_func ("/calculator/advice", test_advice);
  g_test_add_func ("/calculator/comparison", test_comparison);
  g_test_add_func ("/calculator/import-saved", test_import_saved);
  g_test_add_func ("/calculator/placement-inputs", test_placement_inputs);
  g_test_add_func ("/calculator/prompt-tokens", test_prompt_tokens);
  g_test_add_func ("/calculator/depth-backend", test_depth_backend);

  return g_test_run ();
}
