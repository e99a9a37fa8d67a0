/* test-summary.c — the estimate in words, written by the core
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "hr-advice.h"
#include "hr-calculator.h"
#include "hr-comparison.h"
#include "hr-hardware-table.h"
#include "hr-matrix.h"
#include "hr-summary.h"
#include "hr-test-util.h"

static void
assert_has (const char *text,
            const char *expected)
{
  if (strstr (text, expected) == NULL)
    g_error ("“%s” lacks “%s”", text, expected);
}

/* Issue 24, item 1: the summary is the core's, from the scenario and its
 * estimate.  The seed page's case by the nominal method: 7.86 GiB in all
 * (docs/SEED-SPEC.md, panel P2), comfortable on an RTX 3060 12GB. */
static void
test_seed_case (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-3060-12gb"),
    .engine = HR_ENGINE_GENERIC,
    .context = 32768, .batch = 1, .gpus = 1,
  };
  HrEstimate e;
  g_autofree char *plain = NULL;
  g_autofree char *markdown = NULL;
  g_autofree char *failed = NULL;

  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  plain = hr_summary_text (&s, &e, NULL, HR_UNITS_BINARY, FALSE);
  assert_has (plain, "Model: GLM-4-9B-0414\n");
  assert_has (plain, "Context: 32,768\n");
  assert_has (plain, "Engine: The nominal method\n");
  assert_has (plain, "Verdict: Fits comfortably on RTX 3060 12GB — 7.86\u00a0GiB of ");
  assert_has (plain, "Total memory: 7.86\u00a0GiB\n");
  assert_has (plain, "Decode speed: ");
  g_assert_null (strstr (plain, "In system RAM"));

  markdown = hr_summary_text (&s, &e, NULL, HR_UNITS_BINARY, TRUE);
  assert_has (markdown, "### GLM-4-9B-0414\n\n- **Model:** GLM-4-9B-0414\n");

  failed = hr_summary_text (&s, &e, "a quantized V cache needs flash attention",
                            HR_UNITS_BINARY, FALSE);
  assert_has (failed, "Verdict: No estimate — a quantized V cache needs flash attention\n");
  g_assert_null (strstr (failed, "Total memory"));
}

/* Issue 30, item 9: one name for layers in system RAM, whatever the
 * colour; "does not fit" wins. */
static void
test_verdict_label (void)
{
  g_assert_cmpstr (hr_summary_verdict_label (HR_VERDICT_TIGHT, HR_PLACEMENT_PARTIAL), ==,
                   "Partly in system RAM");
  g_assert_cmpstr (hr_summary_verdict_label (HR_VERDICT_COMFORTABLE, HR_PLACEMENT_PARTIAL), ==,
                   "Partly in system RAM");
  g_assert_cmpstr (hr_summary_verdict_label (HR_VERDICT_TIGHT, HR_PLACEMENT_CPU), ==,
                   "Runs on the CPU");
  g_assert_cmpstr (hr_summary_verdict_label (HR_VERDICT_NO_FIT, HR_PLACEMENT_PARTIAL), ==,
                   "Does not fit");
  g_assert_cmpstr (hr_summary_verdict_label (HR_VERDICT_TIGHT, HR_PLACEMENT_GPU), ==,
                   "Fits, but tight");
  g_assert_cmpstr (hr_summary_verdict_label (HR_VERDICT_COMFORTABLE, HR_PLACEMENT_SPLIT), ==,
                   "Fits comfortably");
}

/* Issue 30, item 9: GLM-4-32B at Q4_K_M and 32K on an RTX 3060 12GB
 * runs with layers in system RAM; the Compare row, the Hardware row and
 * the Matrix cell of the same set-up carry that placement, so the three
 * tables name it alike (they used to say "tight" in two, "Partly
 * offloaded" in the third). */
static void
test_one_verdict_everywhere (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  g_autoptr(HrComparison) comparison = NULL;
  g_autoptr(HrHardwareTable) table = NULL;
  g_autoptr(HrMatrix) matrix = NULL;
  HrPrecision *q4 = hr_catalog_find_precision (catalog, "q4_k_m");
  HrHardware *rtx3060 = hr_catalog_find_hardware (catalog, "rtx-3060-12gb");
  guint found = 0;

  hr_calculator_set_engine (calc, HR_ENGINE_LLAMACPP);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "THUDM/GLM-4-32B-0414"));
  hr_calculator_set_precision (calc, q4);
  hr_calculator_set_hardware (calc, rtx3060);
  hr_calculator_set_context (calc, 32768);
  g_assert_cmpint (hr_calculator_get_estimate (calc)->placement, ==, HR_PLACEMENT_PARTIAL);
  {
    /* issue 30, item 15: the summary says what stays in system RAM */
    g_autofree char *text = hr_summary_text (hr_calculator_get_scenario (calc),
                                             hr_calculator_get_estimate (calc), NULL,
                                             HR_UNITS_BINARY, FALSE);
    g_autofree char *host = hr_format_size (hr_calculator_get_estimate (calc)->host_bytes,
                                            HR_UNITS_BINARY);
    g_autofree char *line = g_strdup_printf ("In system RAM: %s\n", host);

    assert_has (text, line);
    assert_has (text, "Verdict: Runs with ");
  }
  comparison = hr_comparison_new (calc);
  table = hr_hardware_table_new (calc);
  matrix = hr_matrix_new (calc);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (comparison)); i++)
    {
      g_autoptr(HrComparisonRow) row = g_list_model_get_item (G_LIST_MODEL (comparison), i);

      if (!hr_comparison_row_get_is_current (row))
        continue;
      g_assert_cmpstr (hr_summary_verdict_label (hr_comparison_row_get_verdict (row),
                                                 hr_comparison_row_get_placement (row)), ==,
                       "Partly in system RAM");
      found++;
    }
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (table)); i++)
    {
      g_autoptr(HrHardwareRow) row = g_list_model_get_item (G_LIST_MODEL (table), i);

      if (hr_hardware_row_get_hardware (row) != rtx3060)
        continue;
      g_assert_cmpstr (hr_summary_verdict_label (hr_hardware_row_get_verdict (row),
                                                 hr_hardware_row_get_placement (row)), ==,
                       "Partly in system RAM");
      found++;
    }
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (matrix)); i++)
    {
      g_autoptr(HrMatrixRow) row = g_list_model_get_item (G_LIST_MODEL (matrix), i);

      if (hr_matrix_row_get_precision (row) != q4)
        continue;
      /* the default contexts 8K / 32K / 128K: 32K is the middle one */
      g_assert_cmpuint (hr_matrix_get_context (matrix, 1), ==, 32768);
      g_assert_cmpstr (hr_summary_verdict_label (hr_matrix_row_get_verdict (row, 1),
                                                 hr_matrix_row_get_placement (row, 1)), ==,
                       "Partly in system RAM");
      found++;
    }
  g_assert_cmpuint (found, ==, 3);
}

/* Issue 30, item 13: vLLM with memory to spare that does not fit says
 * why: Llama 3.1 8B in BF16 on an RTX 4090 holds 44,176 tokens of cache
 * (docs/reference/measured.md's vLLM logs calibrate the budget), fewer
 * than one sequence of 131,072. */
static void
test_vllm_reason (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct"),
    .precision = hr_catalog_find_precision (catalog, "bf16"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-4090-24gb"),
    .engine = HR_ENGINE_VLLM,
    .context = 131072, .batch = 1, .gpus = 1,
  };
  HrEstimate e;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_NO_FIT);
  g_assert_cmpuint (e.excess_bytes, ==, 0);
  hr_summary_verdict (&s, &e, HR_UNITS_BINARY, &title, &subtitle);
  g_assert_cmpstr (title, ==, "Does not fit on RTX 4090 24GB");
  assert_has (subtitle, "the KV cache holds ");
  assert_has (subtitle, "tokens, fewer than one sequence of 131,072");
  g_assert_null (strstr (subtitle, "free"));

  /* SGLang at 8,192 tokens fills 99 % of the card by design: the verdict
   * says what the cache holds, not "free" memory */
  g_clear_pointer (&title, g_free);
  g_clear_pointer (&subtitle, g_free);
  s.engine = HR_ENGINE_SGLANG;
  s.context = 8192;
  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_cmpint (e.verdict, !=, HR_VERDICT_NO_FIT);
  g_assert_cmpfloat (e.max_concurrency, >, 1);
  hr_summary_verdict (&s, &e, HR_UNITS_BINARY, &title, &subtitle);
  assert_has (subtitle, "taken up front; the KV cache holds ");
  assert_has (subtitle, "× what the sequences need");
  g_assert_null (strstr (subtitle, "free"));
}

/* Issue 30, item 12: "what would fit" offers automatic GPU layers only
 * where they run, and more RAM (not more GPU layers) when the GPUs are
 * already as full as llama.cpp makes them. */
static void
test_advice_layers (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "THUDM/GLM-4-32B-0414"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-3060-12gb"),
    .engine = HR_ENGINE_LLAMACPP,
    .context = 32768, .batch = 1, .gpus = 1,
    .ram = { 64ull << 30, 0 },
  };
  HrEstimate e;
  HrAdvice advice;

  /* every layer on a 12 GiB card: it does not fit; automatic layers do */
  s.placement.gpu_layers_fixed = TRUE;
  s.placement.gpu_layers = 62;
  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_NO_FIT);
  hr_advice_compute (catalog, &s, &advice);
  g_assert_true (advice.auto_layers);
  g_assert_false (advice.more_ram);

  /* automatic layers and 8 GiB of RAM: the GPU is full, the rest does
   * not fit the RAM; more GPU layers cannot help */
  s.placement.gpu_layers_fixed = FALSE;
  s.ram.bytes = 8ull << 30;
  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_false (e.ram_fits);
  hr_advice_compute (catalog, &s, &advice);
  g_assert_false (advice.auto_layers);
  g_assert_true (advice.more_ram);

  /* fixed layers that leave too much for 8 GiB, and automatic ones that
   * do too: not "automatic GPU layers" */
  s.placement.gpu_layers_fixed = TRUE;
  s.placement.gpu_layers = 10;
  hr_advice_compute (catalog, &s, &advice);
  g_assert_false (advice.auto_layers);
  g_assert_true (advice.more_ram);
}

/* Issue 30, item 15: Ollama with a Q8_0 cache and flash attention off
 * keeps F16 (its server ignores OLLAMA_KV_CACHE_TYPE without flash
 * attention): the summary and the Overview say so. */
static void
test_kv_note (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "q8_0"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-3060-12gb"),
    .engine = HR_ENGINE_OLLAMA,
    .context = 8192, .batch = 1, .gpus = 1,
  };
  HrEstimate e;
  g_autofree char *note = NULL;
  g_autofree char *text = NULL;
  g_autofree char *none = NULL;

  s.options.flash_attn = HR_FLASH_ATTN_OFF;
  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_true (e.kv_type_ignored);
  g_assert_cmpfloat (e.kv_bytes_per_element, ==, 2.0);
  note = hr_summary_kv_note (&s, &e);
  g_assert_nonnull (note);
  assert_has (note, "FP16");
  assert_has (note, "without flash attention Ollama ignores the Q8_0 cache type");
  text = hr_summary_text (&s, &e, NULL, HR_UNITS_BINARY, FALSE);
  assert_has (text, "KV cache: Q8_0 (FP16 as the engine runs it)\n");

  s.options.flash_attn = HR_FLASH_ATTN_ON;
  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_false (e.kv_type_ignored);
  none = hr_summary_kv_note (&s, &e);
  g_assert_null (none);
}

/* Issue 30, item 14: the Assumptions state the RAM really used: the
 * documented default (32 GiB at 76.8 GB/s, hr-estimate-constants.h) only
 * when none was detected or given. */
static void
test_ram_used (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "THUDM/GLM-4-32B-0414"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-3060-12gb"),
    .engine = HR_ENGINE_LLAMACPP,
    .context = 32768, .batch = 1, .gpus = 1,
  };
  HrEstimate e;
  g_autofree char *assumed = NULL;
  g_autofree char *detected = NULL;

  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  assumed = hr_summary_ram_used (&s, &e, HR_UNITS_BINARY);
  g_assert_cmpstr (assumed, ==, "System RAM: 32.00\u00a0GiB at 76.8 GB/s, Headroom’s default "
                   "(none detected or given).");

  /* 23.54 GiB: the walkthrough's detected RAM */
  s.ram.bytes = (guint64) (23.54 * (1ull << 30));
  s.ram.bandwidth_gbps = 51.2;
  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  detected = hr_summary_ram_used (&s, &e, HR_UNITS_BINARY);
  g_assert_cmpstr (detected, ==, "System RAM: 23.54\u00a0GiB at 51.2 GB/s, as detected or set.");
}

/* The sums the Overview used to do. */
static void
test_sums (void)
{
  HrEstimate e = { 0 };

  e.ttft_seconds = 0.5;
  e.generation_seconds = 10.0;
  e.generate_tokens = 512;
  e.layer_count = 49;
  e.gpu_layers = 27;
  e.host_bytes = 10 << 20;
  e.host_weights_bytes = 6 << 20;
  e.host_kv_bytes = 1 << 20;
  g_assert_cmpfloat_with_epsilon (hr_summary_answer_seconds (&e), 10.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (hr_summary_answer_rate (&e), 51.2, 1e-9);
  g_assert_cmpuint (hr_summary_cpu_layers (&e), ==, 22);
  g_assert_cmpuint (hr_summary_host_other_bytes (&e), ==, 3 << 20);
  e.gpu_layers = 60;
  g_assert_cmpuint (hr_summary_cpu_layers (&e), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/summary/seed-case", test_seed_case);
  g_test_add_func ("/summary/verdict-label", test_verdict_label);
  g_test_add_func ("/summary/vllm-reason", test_vllm_reason);
  g_test_add_func ("/summary/one-verdict-everywhere", test_one_verdict_everywhere);
  g_test_add_func ("/summary/sums", test_sums);
  g_test_add_func ("/summary/advice-layers", test_advice_layers);
  g_test_add_func ("/summary/kv-note", test_kv_note);
  g_test_add_func ("/summary/ram-used", test_ram_used);
  return g_test_run ();
}
