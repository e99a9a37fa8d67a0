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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/calculator/defaults", test_defaults);
  g_test_add_func ("/calculator/one-recompute-per-change", test_one_recompute_per_change);
  g_test_add_func ("/calculator/layout", test_layout);
  g_test_add_func ("/calculator/invalid-input", test_invalid_input);
  g_test_add_func ("/calculator/matrix-follows", test_matrix_follows);
  g_test_add_func ("/calculator/hardware-table-follows", test_hardware_table_follows);
  g_test_add_func ("/calculator/ram", test_ram);
  g_test_add_func ("/calculator/advice", test_advice);
  g_test_add_func ("/calculator/comparison", test_comparison);
  g_test_add_func ("/calculator/import-saved", test_import_saved);

  return g_test_run ();
}
