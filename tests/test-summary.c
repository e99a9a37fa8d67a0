/* test-summary.c — the estimate in words, written by the core
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

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
                   "Runs partly in system RAM");
  g_assert_cmpstr (hr_summary_verdict_label (HR_VERDICT_COMFORTABLE, HR_PLACEMENT_PARTIAL), ==,
                   "Runs partly in system RAM");
  g_assert_cmpstr (hr_summary_verdict_label (HR_VERDICT_TIGHT, HR_PLACEMENT_CPU), ==,
                   "Runs on the CPU");
  g_assert_cmpstr (hr_summary_verdict_label (HR_VERDICT_NO_FIT, HR_PLACEMENT_PARTIAL), ==,
                   "Does not fit");
  g_assert_cmpstr (hr_summary_verdict_label (HR_VERDICT_TIGHT, HR_PLACEMENT_GPU), ==,
                   "Fits, but tight");
  g_assert_cmpstr (hr_summary_verdict_label (HR_VERDICT_COMFORTABLE, HR_PLACEMENT_SPLIT), ==,
                   "Fits comfortably");
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
  g_test_add_func ("/summary/sums", test_sums);
  return g_test_run ();
}
