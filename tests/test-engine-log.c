/* test-engine-log.c — engine logs read back: published logs, hostile input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every file of tests/data/logs is a real published log (or the part of it
 * that was published), its source in tests/data/logs/SOURCES.md; each
 * figure asserted below is the one printed in that file, converted from
 * the unit it is printed in (MiB, GiB, vLLM's and SGLang's "GB" = 2^30).
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "hr-engine-log.h"

#define MIB(x) ((guint64) llround ((x) * 1048576.0))
#define GIB(x) ((guint64) llround ((x) * 1073741824.0))

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

static const HrEngineLogDevice *
device (const HrEngineLog *log,
        const char        *name)
{
  for (guint i = 0; i < log->n_devices; i++)
    if (strcmp (log->devices[i].name, name) == 0)
      return &log->devices[i];
  g_error ("no device %s", name);
  return NULL;
}

/* ------------------------------------------------------------ llama.cpp */

static void
test_llamacpp_2024 (void)
{
  g_autoptr(HrEngineLog) log = load ("llamacpp-2024-llama3-8b-cuda.log");

  g_assert_cmpint (log->kind, ==, HR_ENGINE_LOG_LLAMACPP);
  g_assert_cmpuint (device (log, "CUDA0")->weights_bytes, ==, MIB (4155.99));
  g_assert_cmpuint (device (log, "CPU")->weights_bytes, ==, MIB (281.81));
  g_assert_cmpuint (device (log, "CUDA0")->kv_bytes, ==, MIB (1024));
  g_assert_cmpuint (log->kv_bytes, ==, MIB (1024));
  g_assert_cmpuint (log->context, ==, 8192);
  g_assert_cmpstr (log->kv_type, ==, "f16");
  g_assert_true (log->flash_attn_known);
  g_assert_false (log->flash_attn);
  g_assert_cmpuint (log->layers_offloaded, ==, 33);
  g_assert_cmpuint (log->layers_total, ==, 33);
  g_assert_cmpuint (hr_engine_log_gpu_count (log), ==, 1);
}

static void
test_llamacpp_offload (void)
{
  g_autoptr(HrEngineLog) log = load ("llamacpp-2024-deepseek-r1-offload.log");

  g_assert_cmpint (log->kind, ==, HR_ENGINE_LOG_LLAMACPP);
  g_assert_cmpuint (device (log, "CPU")->weights_bytes, ==, MIB (378582.96));
  g_assert_cmpuint (device (log, "CUDA0")->weights_bytes, ==, MIB (7106.67));
  g_assert_cmpuint (device (log, "CPU")->kv_bytes, ==, MIB (9600));
  g_assert_cmpuint (device (log, "CUDA0")->kv_bytes, ==, MIB (160));
  g_assert_cmpuint (hr_engine_log_gpu_total (log, HR_ENGINE_LOG_HOST_WEIGHTS), ==,
                    MIB (378582.96));
  g_assert_cmpuint (log->context, ==, 2048);
  g_assert_cmpstr (log->kv_type, ==, "f16");
}

static void
test_llamacpp_2025_multi_gpu (void)
{
  g_autoptr(HrEngineLog) log = load ("llamacpp-2025-deepseek-8gpu-q4kv.log");

  g_assert_cmpint (log->kind, ==, HR_ENGINE_LOG_LLAMACPP);
  g_assert_cmpuint (device (log, "CUDA3")->weights_bytes, ==, MIB (22171.16));
  g_assert_cmpuint (device (log, "CUDA7")->weights_bytes, ==, MIB (19728.83));
  g_assert_cmpuint (device (log, "CUDA3")->kv_bytes, ==, MIB (5096));
  g_assert_cmpuint (hr_engine_log_gpu_total (log, HR_ENGINE_LOG_KV), ==,
                    MIB (5824.0 * 3 + 5096));
  g_assert_cmpuint (log->context, ==, 16384);
  g_assert_cmpuint (log->parallel, ==, 8);
  g_assert_cmpstr (log->kv_type, ==, "q4_0");
  g_assert_cmpuint (hr_engine_log_gpu_count (log), ==, 8);
}

static void
test_llamacpp_in_ollama (void)
{
  g_autoptr(HrEngineLog) log = load ("llamacpp-2025-3gpu-in-ollama.log");

  g_assert_cmpint (log->kind, ==, HR_ENGINE_LOG_LLAMACPP);
  g_assert_cmpuint (device (log, "CUDA1")->weights_bytes, ==, MIB (6171.19));
  g_assert_cmpuint (device (log, "CPU")->weights_bytes, ==, MIB (417.30));
  g_assert_cmpuint (hr_engine_log_gpu_total (log, HR_ENGINE_LOG_WEIGHTS), ==,
                    MIB (6300.10) + MIB (6171.19) + MIB (6371.11));
  g_assert_cmpuint (log->layers_offloaded, ==, 65);
}

static void
test_llamacpp_timings (void)
{
  g_autoptr(HrEngineLog) a = load ("llamacpp-2023-cpu-timings.log");
  g_autoptr(HrEngineLog) b = load ("llamacpp-2025-server-perf.log");
  g_autoptr(HrEngineLog) c = load ("llamacpp-2024-server-timings.log");

  g_assert_cmpint (a->kind, ==, HR_ENGINE_LOG_LLAMACPP);
  g_assert_cmpfloat_with_epsilon (a->prefill_tokens_per_s, 43.05, 1e-9);
  g_assert_cmpuint (a->prefill_tokens, ==, 271);
  g_assert_cmpfloat_with_epsilon (a->decode_tokens_per_s, 4.43, 1e-9);
  g_assert_cmpint (b->kind, ==, HR_ENGINE_LOG_LLAMACPP);
  g_assert_cmpfloat_with_epsilon (b->prefill_tokens_per_s, 55.73, 1e-9);
  g_assert_cmpuint (b->prefill_tokens, ==, 51);
  g_assert_cmpfloat_with_epsilon (b->decode_tokens_per_s, 11.94, 1e-9);
  g_assert_cmpint (c->kind, ==, HR_ENGINE_LOG_LLAMACPP);
  g_assert_cmpfloat_with_epsilon (c->prefill_tokens_per_s, 1675.53, 1e-9);
  g_assert_cmpuint (c->prefill_tokens, ==, 271);
  g_assert_cmpfloat_with_epsilon (c->decode_tokens_per_s, 95.69, 1e-9);
}

/* ---------------------------------------------------------- llama-bench */

static void
test_bench_markdown (void)
{
  g_autoptr(HrEngineLog) log = load ("llama-bench-pr7199-cuda.md");
  g_autoptr(HrEngineLog) depth = load ("llama-bench-readme-depth.md");

  g_assert_cmpint (log->kind, ==, HR_ENGINE_LOG_LLAMA_BENCH);
  /* pp512+tg128 is a mixed rate: not kept */
  g_assert_cmpuint (log->n_runs, ==, 2);
  g_assert_true (log->runs[0].prompt);
  g_assert_cmpuint (log->runs[0].n_prompt, ==, 512);
  g_assert_cmpfloat_with_epsilon (log->runs[0].tokens_per_s, 4918.36, 1e-9);
  g_assert_false (log->runs[1].prompt);
  g_assert_cmpuint (log->runs[1].n_gen, ==, 128);
  g_assert_cmpfloat_with_epsilon (log->runs[1].tokens_per_s, 165.76, 1e-9);
  g_assert_cmpstr (log->runs[1].backend, ==, "CUDA");
  g_assert_cmpstr (log->runs[1].model, ==, "llama 7B Q4_0");
  g_assert_cmpint (log->runs[1].flash_attn, ==, 1);
  g_assert_cmpint (log->runs[1].n_gpu_layers, ==, 99);

  g_assert_cmpuint (depth->n_runs, ==, 4);
  g_assert_cmpuint (depth->runs[2].depth, ==, 512);
  g_assert_cmpfloat_with_epsilon (depth->runs[2].tokens_per_s, 6425.91, 1e-9);
  g_assert_cmpuint (depth->runs[3].depth, ==, 512);
  g_assert_cmpfloat_with_epsilon (depth->runs[3].tokens_per_s, 116.71, 1e-9);
  g_assert_cmpstr (depth->runs[0].model, ==, "qwen2 7B Q4_K - Medium");
}

static void
test_bench_csv_json (void)
{
  g_autoptr(HrEngineLog) csv = load ("llama-bench-readme-rtx4080.csv");
  g_autoptr(HrEngineLog) json = load ("llama-bench-readme-rtx4080.json");

  /* The published CSV's second row has 41 fields under a 42-field header
   * (one value missing upstream): its columns are shifted, and it is not
   * read rather than read as a 0.43 t/s prompt of 128 tokens. */
  g_assert_cmpuint (csv->n_runs, ==, 1);
  g_assert_cmpuint (json->n_runs, ==, 2);
  g_assert_false (json->runs[1].prompt);
  g_assert_cmpuint (json->runs[1].n_gen, ==, 128);
  for (guint i = 0; i < 2; i++)
    {
      HrEngineLog *log = i == 0 ? csv : json;

      g_assert_cmpint (log->kind, ==, HR_ENGINE_LOG_LLAMA_BENCH);
      g_assert_cmpstr (log->version, ==, "5163");
      g_assert_true (log->runs[0].prompt);
      g_assert_cmpuint (log->runs[0].n_prompt, ==, 512);
      g_assert_cmpstr (log->runs[0].gpu, ==, "NVIDIA GeForce RTX 4080");
      g_assert_cmpstr (log->runs[0].backend, ==, "CUDA");
      g_assert_cmpstr (log->runs[0].model, ==, "qwen2 7B Q4_K - Medium");
    }
  g_assert_cmpfloat_with_epsilon (csv->runs[0].tokens_per_s, 7285.676949, 1e-9);
  g_assert_cmpfloat_with_epsilon (json->runs[0].tokens_per_s, 7100.002165, 1e-9);
  g_assert_cmpfloat_with_epsilon (json->runs[1].tokens_per_s, 118.881588, 1e-9);
}

/* -------------------------------------------------------------- Ollama */

static void
test_ollama_plans (void)
{
  g_autoptr(HrEngineLog) rocm = load ("ollama-0.3-rocm-llama3-70b.log");
  g_autoptr(HrEngineLog) cuda = load ("ollama-0.5-cuda-qwen-parallel.log");
  g_autoptr(HrEngineLog) big = load ("ollama-0.5-deepseek-offload.log");
  g_autoptr(HrEngineLog) gemma = load ("ollama-0.11-gemma3-offload.log");

  g_assert_cmpint (rocm->kind, ==, HR_ENGINE_LOG_OLLAMA);
  g_assert_cmpuint (rocm->weights_bytes, ==, GIB (39.9));
  g_assert_cmpuint (rocm->kv_bytes, ==, MIB (640));
  g_assert_cmpuint (rocm->compute_bytes, ==, MIB (313));
  g_assert_cmpuint (rocm->context, ==, 2048);
  g_assert_cmpuint (rocm->layers_offloaded, ==, 43);
  g_assert_cmpuint (rocm->layers_total, ==, 81);

  g_assert_cmpint (cuda->kind, ==, HR_ENGINE_LOG_OLLAMA);
  g_assert_cmpuint (cuda->weights_bytes, ==, GIB (2.4));
  g_assert_cmpuint (cuda->kv_bytes, ==, MIB (896));
  g_assert_cmpuint (cuda->context, ==, 8192);
  g_assert_cmpuint (cuda->parallel, ==, 4);

  g_assert_cmpint (big->kind, ==, HR_ENGINE_LOG_OLLAMA);
  g_assert_cmpuint (big->weights_bytes, ==, GIB (385.0));
  g_assert_cmpuint (big->kv_bytes, ==, GIB (9.5));
  g_assert_cmpuint (big->layers_offloaded, ==, 5);

  g_assert_cmpint (gemma->kind, ==, HR_ENGINE_LOG_OLLAMA);
  g_assert_cmpuint (gemma->compute_bytes, ==, MIB (519.5));
  g_assert_cmpuint (gemma->kv_bytes, ==, MIB (608));
  g_assert_cmpuint (gemma->context, ==, 2048);
  g_assert_cmpuint (gemma->layers_offloaded, ==, 48);
}

static void
test_ollama_new_engine (void)
{
  g_autoptr(HrEngineLog) log = load ("ollama-0.9-new-engine-2gpu.log");

  g_assert_cmpint (log->kind, ==, HR_ENGINE_LOG_OLLAMA);
  g_assert_cmpuint (device (log, "CUDA0")->weights_bytes, ==, GIB (11.5));
  g_assert_cmpuint (device (log, "CUDA1")->weights_bytes, ==, GIB (11.9));
  g_assert_cmpuint (device (log, "CPU")->weights_bytes, ==, MIB (680));
  g_assert_true (device (log, "CUDA0")->has_compute);
  g_assert_cmpuint (device (log, "CUDA0")->compute_bytes, ==, 0);
  g_assert_cmpuint (hr_engine_log_gpu_count (log), ==, 2);
}

static void
test_ollama_nothing_to_compare (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "logs",
                                                 "ollama-0.3.6-windows-start.log", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrEngineLog) log = hr_engine_log_parse_file (path, &error);

  g_assert_null (log);
  g_assert_nonnull (strstr (error->message, "Ollama log, but without a figure"));
  g_assert_null (strchr (error->message, '\n'));
}

/* ---------------------------------------------------------------- vLLM */

static void
test_vllm_v0 (void)
{
  g_autoptr(HrEngineLog) a = load ("vllm-0.6-llama31-8b-rtx3090.log");
  g_autoptr(HrEngineLog) b = load ("vllm-0.6.4-bamba-tp2.log");

  g_assert_cmpint (a->kind, ==, HR_ENGINE_LOG_VLLM);
  g_assert_cmpuint (a->weights_bytes, ==, GIB (14.9888));
  g_assert_true (a->weights_per_gpu);
  g_assert_cmpuint (a->kv_bytes, ==, GIB (3.81));
  g_assert_cmpuint (a->kv_capacity_tokens, ==, 1952 * 16);
  g_assert_cmpfloat_with_epsilon (a->max_concurrency, 1.56, 1e-9);
  g_assert_cmpuint (a->context, ==, 20000);
  g_assert_cmpfloat_with_epsilon (a->gpu_memory_utilization, 0.90, 1e-9);

  g_assert_cmpint (b->kind, ==, HR_ENGINE_LOG_VLLM);
  g_assert_cmpuint (b->weights_bytes, ==, GIB (18.4902));
  g_assert_cmpuint (b->kv_bytes, ==, GIB (34.96));
  g_assert_cmpuint (b->kv_capacity_tokens, ==, 189945 * 16);
  g_assert_cmpuint (b->context, ==, 1024);
}

static void
test_vllm_v1 (void)
{
  g_autoptr(HrEngineLog) a = load ("vllm-0.7-v1-llama31-70b-w8a8.log");
  g_autoptr(HrEngineLog) b = load ("vllm-0.19-llama31-8b-h100.log");
  g_autoptr(HrEngineLog) c = load ("vllm-0.19-qwen25-7b-h100.log");

  g_assert_cmpint (a->kind, ==, HR_ENGINE_LOG_VLLM);
  g_assert_cmpuint (a->weights_bytes, ==, GIB (67.7229));
  g_assert_cmpuint (a->kv_capacity_tokens, ==, 1381 * 16);
  g_assert_cmpfloat_with_epsilon (a->max_concurrency, 10.79, 1e-9);
  g_assert_cmpuint (a->context, ==, 2048);
  g_assert_cmpfloat_with_epsilon (a->gpu_memory_utilization, 0.98, 1e-9);
  g_assert_cmpstr (a->model, ==, "neuralmagic/Meta-Llama-3.1-70B-Instruct-quantized.w8a8");

  g_assert_cmpint (b->kind, ==, HR_ENGINE_LOG_VLLM);
  g_assert_cmpstr (b->version, ==, "0.19.0");
  g_assert_cmpstr (b->model, ==, "meta-llama/Llama-3.1-8B-Instruct");
  g_assert_cmpstr (b->precision_hint, ==, "bfloat16");
  g_assert_cmpuint (b->context, ==, 16384);
  g_assert_cmpuint (b->weights_bytes, ==, GIB (14.99));
  g_assert_cmpuint (b->kv_bytes, ==, GIB (58.11));
  g_assert_cmpuint (b->kv_capacity_tokens, ==, 476016);
  g_assert_cmpfloat_with_epsilon (b->max_concurrency, 29.05, 1e-9);
  g_assert_cmpuint (b->compute_bytes, ==, GIB (1.89));
  g_assert_cmpuint (b->graph_bytes, ==, GIB (0.84));
  g_assert_cmpfloat_with_epsilon (b->gpu_memory_utilization, 0.95, 1e-9);
  g_assert_cmpuint (b->tensor_parallel, ==, 1);

  g_assert_cmpstr (c->model, ==, "Qwen/Qwen2.5-7B-Instruct");
  g_assert_cmpuint (c->kv_capacity_tokens, ==, 1096000);
  g_assert_cmpuint (c->weights_bytes, ==, GIB (14.25));
  g_assert_cmpuint (c->context, ==, 8192);
}

/* -------------------------------------------------------------- SGLang */

static void
test_sglang (void)
{
  g_autoptr(HrEngineLog) a = load ("sglang-qwen3-235b-fp8-tp4.log");
  g_autoptr(HrEngineLog) b = load ("sglang-0.4-gemma3-27b.log");
  g_autoptr(HrEngineLog) c = load ("sglang-2025-11-b200.log");
  g_autoptr(HrEngineLog) d = load ("sglang-0.5.6-musa-tp2.log");

  g_assert_cmpint (a->kind, ==, HR_ENGINE_LOG_SGLANG);
  g_assert_cmpuint (a->kv_capacity_tokens, ==, 367404);
  g_assert_cmpuint (a->kv_bytes, ==, GIB (8.23) * 2);
  g_assert_cmpint (b->kind, ==, HR_ENGINE_LOG_SGLANG);
  g_assert_cmpuint (b->weights_bytes, ==, GIB (8.13));
  g_assert_cmpuint (b->kv_capacity_tokens, ==, 834615);
  g_assert_cmpstr (b->precision_hint, ==, "bfloat16");
  g_assert_cmpuint (c->kv_capacity_tokens, ==, 2243474);
  g_assert_cmpuint (c->graph_bytes, ==, GIB (1.44));
  g_assert_cmpuint (d->kv_capacity_tokens, ==, 1106304);
  g_assert_cmpuint (d->kv_bytes, ==, GIB (25.32) * 2);
}

/* -------------------------------------------------------------- hostile */

static void
expect_refused (const char *data,
                gsize       length,
                const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrEngineLog) log = hr_engine_log_parse (data, length, &error);

  g_assert_null (log);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, message));
  g_assert_null (strchr (error->message, '\n'));
}

static void
test_hostile (void)
{
  static const char binary[] = "GGUF\0\0\0\3junk";
  g_autofree char *junk = NULL;
  gsize junk_size = 100u << 20;
  gint64 start;
  double seconds;

  expect_refused ("", 0, "not a llama.cpp");
  expect_refused (binary, sizeof binary, "binary data");
  expect_refused ("hello\nworld\n", strlen ("hello\nworld\n"), "not a llama.cpp");
  /* the patterns without numbers, numbers out of range */
#define TEXT(s) s, strlen (s)
  expect_refused (TEXT ("llm_load_tensors: CUDA0 buffer size = \n"), "llama.cpp log, but");
  expect_refused (TEXT ("llama_kv_cache_init: CUDA0 KV buffer size = 1e300 MiB\n"),
                  "llama.cpp log, but");
  expect_refused (TEXT ("llama_kv_cache_init: CUDA0 KV buffer size = -5 MiB\n"),
                  "llama.cpp log, but");
#undef TEXT

  /* 100 MB of junk lines: refused after the first MiB, in bounded time */
  junk = g_malloc (junk_size);
  for (gsize i = 0; i < junk_size; i++)
    junk[i] = (i % 97 == 96) ? '\n' : (char) ('!' + (i * 7919) % 90);
  start = g_get_monotonic_time ();
  expect_refused (junk, junk_size, "not a llama.cpp");
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("100 MB of junk refused in %.3f s", seconds);
  g_assert_cmpfloat (seconds, <, 10.0);

  /* one 100 MB line after a real header: cut, never a crash */
  memset (junk, 'x', junk_size);
  memcpy (junk, "llama_kv_cache_init: CUDA0 KV buffer size = 16.00 MiB\n", 54);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HrEngineLog) log = hr_engine_log_parse (junk, junk_size, &error);

    g_assert_no_error (error);
    g_assert_true (log->truncated);
    g_assert_cmpuint (log->devices[0].kv_bytes, ==, MIB (16));
  }
}

/* Many devices and runs: the limits hold. */
static void
test_limits (void)
{
  g_autoptr(GString) text = g_string_new ("| model | backend | test | t/s |\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(HrEngineLog) log = NULL;

  for (guint i = 0; i < 40; i++)
    g_string_append_printf (text, "llama_kv_cache_init: CUDA%u KV buffer size = 1.00 MiB\n", i);
  for (guint i = 0; i < 400; i++)
    g_string_append (text, "| m | CUDA | tg128 | 10.0 ± 0.1 |\n");
  log = hr_engine_log_parse (text->str, text->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (log->n_devices, ==, HR_ENGINE_LOG_MAX_DEVICES);
  g_assert_cmpuint (log->n_runs, ==, HR_ENGINE_LOG_MAX_RUNS);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/engine-log/llamacpp/2024", test_llamacpp_2024);
  g_test_add_func ("/engine-log/llamacpp/offload", test_llamacpp_offload);
  g_test_add_func ("/engine-log/llamacpp/2025-multi-gpu", test_llamacpp_2025_multi_gpu);
  g_test_add_func ("/engine-log/llamacpp/in-ollama", test_llamacpp_in_ollama);
  g_test_add_func ("/engine-log/llamacpp/timings", test_llamacpp_timings);
  g_test_add_func ("/engine-log/bench/markdown", test_bench_markdown);
  g_test_add_func ("/engine-log/bench/csv-json", test_bench_csv_json);
  g_test_add_func ("/engine-log/ollama/plans", test_ollama_plans);
  g_test_add_func ("/engine-log/ollama/new-engine", test_ollama_new_engine);
  g_test_add_func ("/engine-log/ollama/nothing-to-compare", test_ollama_nothing_to_compare);
  g_test_add_func ("/engine-log/vllm/v0", test_vllm_v0);
  g_test_add_func ("/engine-log/vllm/v1", test_vllm_v1);
  g_test_add_func ("/engine-log/sglang", test_sglang);
  g_test_add_func ("/engine-log/hostile", test_hostile);
  g_test_add_func ("/engine-log/limits", test_limits);

  return g_test_run ();
}
