/* test-log-check.c — a log read back against the estimate (hr-log-check)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The logs are tests/data/logs' published ones (sources in SOURCES.md);
 * the figures asserted are the ones they print.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "hr-log-check.h"
#include "hr-test-util.h"

#define MIB(x) ((guint64) llround ((x) * 1048576.0))

static HrEngineLog *
load (const char *file)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "logs", file, NULL);
  g_autoptr(GError) error = NULL;
  HrEngineLog *log = hr_engine_log_parse_file (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (log);
  return log;
}

static const HrLogFigure *
figure (const HrLogCheck *check,
        const char       *key)
{
  for (guint i = 0; i < check->n; i++)
    if (strcmp (check->figures[i].key, key) == 0)
      return &check->figures[i];
  g_error ("no figure %s", key);
  return NULL;
}

static void
test_precision_hints (void)
{
  g_assert_cmpstr (hr_log_precision_from_hint ("Q4_K - Medium"), ==, "q4_k_m");
  g_assert_cmpstr (hr_log_precision_from_hint ("mostly Q4_0"), ==, "q4_0");
  g_assert_cmpstr (hr_log_precision_from_hint ("llama 8B Q3_K - Large"), ==, "q3_k_l");
  g_assert_cmpstr (hr_log_precision_from_hint ("torch.bfloat16"), ==, "bf16");
  g_assert_cmpstr (hr_log_precision_from_hint ("float16"), ==, "fp16");
  g_assert_cmpstr (hr_log_precision_from_hint ("awq_marlin"), ==, "awq-int4");
  g_assert_null (hr_log_precision_from_hint ("IQ1_S"));
  g_assert_null (hr_log_precision_from_hint (NULL));
}

/* Ollama 0.5: --ctx-size 8192 --parallel 4 is four sequences of 2,048. */
static void
test_settings_ollama_parallel (void)
{
  g_autoptr(HrEngineLog) log = load ("ollama-0.5-cuda-qwen-parallel.log");
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  HrLogSettings said;

  hr_log_settings_read (log, catalog, &said);
  g_assert_cmpstr (said.engine, ==, "ollama");
  g_assert_cmpuint (said.context, ==, 2048);
  g_assert_cmpuint (said.batch, ==, 4);
  g_assert_cmpuint (said.gpus, ==, 0);
  g_assert_null (said.model_in_log);     /* a blob path, sha256-…: no name */
  g_assert_null (said.vllm_version);

  /* the window's scenario, changed where the log says */
  {
    HrScenario s = { 0 };
    HrModelSpec *mine = hr_catalog_find_model (catalog, "Qwen/Qwen2.5-3B-Instruct");

    s.model = mine;
    s.context = 32768;
    s.batch = 1;
    s.gpus = 2;
    s.engine = HR_ENGINE_VLLM;
    hr_log_settings_apply (&said, catalog, &s);
    g_assert_cmpint (s.engine, ==, HR_ENGINE_OLLAMA);
    g_assert_cmpuint (s.context, ==, 2048);
    g_assert_cmpuint (s.batch, ==, 4);
    g_assert_cmpuint (s.gpus, ==, 2);          /* the log is silent: kept */
    g_assert_true (s.model == mine);          /* the log names none the catalog has */
  }
}

/* vLLM 0.6 on an RTX 3090: its version's memory model, its share. */
static void
test_settings_vllm (void)
{
  g_autoptr(HrEngineLog) log = load ("vllm-0.6-llama31-8b-rtx3090.log");
  HrLogSettings said;

  hr_log_settings_read (log, NULL, &said);
  g_assert_cmpstr (said.engine, ==, "vllm");
  g_assert_cmpstr (said.vllm_version, ==, "0.6");
  g_assert_cmpfloat (said.gpu_memory_utilization, >, 0);
  g_assert_cmpfloat (said.gpu_memory_utilization, <=, 1);
  g_assert_null (said.model);           /* no catalog: nothing looked up */
  g_assert_cmpint (said.flash_attn, ==, HR_FLASH_ATTN_DEFAULT);
}

/* Without n_ctx the run's context is its own: llama-bench's first row
 * (pp512 from an empty cache: 512 tokens). */
static void
test_settings_bench_context (void)
{
  g_autoptr(HrEngineLog) log = load ("llama-bench-readme-rtx4080.json");
  HrLogSettings said;

  g_assert_cmpint (log->kind, ==, HR_ENGINE_LOG_LLAMA_BENCH);
  g_assert_cmpuint (log->context, ==, 0);
  hr_log_settings_read (log, NULL, &said);
  g_assert_cmpuint (said.context, ==, log->runs[0].depth +
                    (log->runs[0].prompt ? log->runs[0].n_prompt : log->runs[0].n_gen));
  g_assert_cmpuint (said.context, ==, 512);
}

/* A cache type Headroom does not model is named, not guessed. */
static void
test_settings_unknown_kv (void)
{
  static const char text[] =
    "llama_new_context_with_model: n_ctx      = 4096\n"
    "llama_kv_cache_init:      CUDA0 KV buffer size =   288.00 MiB\n"
    "llama_new_context_with_model: KV self size  =  288.00 MiB, K (iq4_nl):  144.00 MiB, "
    "V (iq4_nl):  144.00 MiB\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(HrEngineLog) log = hr_engine_log_parse (text, sizeof text - 1, &error);
  HrLogSettings said;

  g_assert_no_error (error);
  hr_log_settings_read (log, NULL, &said);
  g_assert_null (said.kv_type);
  g_assert_cmpstr (said.kv_type_unknown, ==, "iq4_nl");
  g_assert_cmpuint (said.context, ==, 4096);
}

/* llama.cpp 2024, Llama 3 8B Q4_0 on one GPU at 8,192 tokens: the KV
 * cache is exact (32 × 8 × 128 × 2 × 2 B × 8192 = 1 GiB), the weights
 * within 2 %, and what the log says is taken. */
static void
test_figures_llamacpp (void)
{
  g_autoptr(HrEngineLog) log = load ("llamacpp-2024-llama3-8b-cuda.log");
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(GError) error = NULL;
  HrLogSettings said;
  HrScenario s = { 0 };
  HrEstimate e;
  HrLogCheck check = { 0 };
  const HrLogFigure *kv, *weights;
  double err;

  hr_log_settings_read (log, catalog, &said);
  g_assert_cmpstr (said.engine, ==, "llamacpp");
  g_assert_cmpstr (said.kv_type, ==, "fp16");
  g_assert_cmpint (said.flash_attn, ==, HR_FLASH_ATTN_OFF);
  g_assert_true (said.gpu_layers_known);
  g_assert_cmpuint (said.gpu_layers, ==, 33);

  s.model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct");
  s.precision = hr_catalog_find_precision (catalog, "q4_0");
  s.kv_type = hr_catalog_find_kv_type (catalog, said.kv_type);
  s.hardware = hr_catalog_find_hardware (catalog, "rtx-3090-24gb");
  s.context = said.context;
  s.batch = 1;
  s.gpus = 1;
  s.engine = HR_ENGINE_LLAMACPP;
  s.options.flash_attn = said.flash_attn;
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);

  hr_log_check_figures (&check, log, &e, 1);
  kv = figure (&check, "kv_bytes");
  g_assert_cmpfloat (kv->measured, ==, MIB (1024));
  g_assert_true (hr_log_figure_error (kv, &err));
  g_assert_cmpfloat (fabs (err), <, 1e-9);
  weights = figure (&check, "weights_bytes");
  g_assert_cmpfloat (weights->measured, ==, MIB (4155.99) + MIB (281.81));
  g_assert_true (hr_log_figure_error (weights, &err));
  g_assert_cmpfloat (fabs (err), <, 0.02);
  g_assert_false (hr_log_check_has (&check, "kv_capacity_tokens"));
}

static void
test_figure_error_needs_both (void)
{
  HrLogFigure none = { "kv_bytes", "KV cache", HR_LOG_FIGURE_BYTES, 100, FALSE, 0 };
  HrLogFigure zero = { "kv_bytes", "KV cache", HR_LOG_FIGURE_BYTES, 0, TRUE, 100 };
  HrLogFigure half = { "kv_bytes", "KV cache", HR_LOG_FIGURE_BYTES, 100, TRUE, 150 };
  double err = 0;

  g_assert_false (hr_log_figure_error (&none, &err));
  g_assert_false (hr_log_figure_error (&zero, &err));
  g_assert_true (hr_log_figure_error (&half, &err));
  g_assert_cmpfloat (err, ==, 0.5);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/log-check/precision-hints", test_precision_hints);
  g_test_add_func ("/log-check/settings/ollama-parallel", test_settings_ollama_parallel);
  g_test_add_func ("/log-check/settings/vllm", test_settings_vllm);
  g_test_add_func ("/log-check/settings/unknown-kv", test_settings_unknown_kv);
  g_test_add_func ("/log-check/settings/bench-context", test_settings_bench_context);
  g_test_add_func ("/log-check/figures/llamacpp", test_figures_llamacpp);
  g_test_add_func ("/log-check/figure-error", test_figure_error_needs_both);
  return g_test_run ();
}
