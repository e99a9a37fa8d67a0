/* test-calculator.c — one recomputation and one notification per change
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "hr-calculator.h"
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

static void
test_invalid_input (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/calculator/defaults", test_defaults);
  g_test_add_func ("/calculator/one-recompute-per-change", test_one_recompute_per_change);
  g_test_add_func ("/calculator/invalid-input", test_invalid_input);
  g_test_add_func ("/calculator/matrix-follows", test_matrix_follows);
  g_test_add_func ("/calculator/hardware-table-follows", test_hardware_table_follows);

  return g_test_run ();
}
