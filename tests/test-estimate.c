/* test-estimate.c — the estimator's arithmetic, case by case
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Expected values are worked out from the models' shapes
 * (docs/reference/models.json, measured.md's "KV-cache bytes per token"
 * line) by hand in the comments, not read back from the code.
 */

#include "config.h"

#include "hr-scenario.h"
#include "hr-test-util.h"

static HrCatalog *catalog;

static const HrModelArch *
arch (const char *id)
{
  HrModelSpec *model = hr_catalog_find_model (catalog, id);

  g_assert_nonnull (model);
  return hr_model_spec_get_arch (model);
}

static HrScenario
scenario (const char *model,
          const char *precision,
          guint64     context,
          const char *hardware,
          guint       gpus)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, model),
    .precision = hr_catalog_find_precision (catalog, precision),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, hardware),
    .context = context,
    .batch = 1,
    .engine = HR_ENGINE_GENERIC,
    .gpus = gpus,
  };

  g_assert_nonnull (s.model);
  g_assert_nonnull (s.precision);
  g_assert_nonnull (s.hardware);
  return s;
}

static HrEstimate
estimate (const HrScenario *s)
{
  g_autoptr(GError) error = NULL;
  HrEstimate e;

  g_assert_true (hr_scenario_estimate (s, &e, &error));
  g_assert_no_error (error);
  return e;
}

/* docs/reference/measured.md quick reference: FP16 KV bytes per token, all
 * layers. */
static void
test_kv_per_token (void)
{
  static const struct { const char *id; double bytes; } cases[] = {
    { "THUDM/GLM-4-9B-0414", 40960 },        /* 2·40·2·128·2 */
    { "meta-llama/Llama-3.1-8B-Instruct", 131072 },
    { "meta-llama/Llama-3.1-70B-Instruct", 327680 },
    { "Qwen/Qwen2.5-72B-Instruct", 327680 },
    { "Qwen/Qwen2.5-7B-Instruct", 57344 },
    { "tiiuae/falcon-7b-instruct", 8192 },   /* MQA: 2·32·1·64·2 */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    assert_close (hr_kv_bytes_per_token (arch (cases[i].id), 2.0), cases[i].bytes, 0);
}

/* MLA caches the latent (512) and the RoPE key (64) per layer:
 * 61 · 576 · 2 B = 70,272 B per token; MHA would be 61·128·(192+128)·2 =
 * 4,997,120 B (reference "unabsorbed"). */
static void
test_mla (void)
{
  const HrModelArch *a = arch ("deepseek-ai/DeepSeek-V3");
  HrScenario s = scenario ("deepseek-ai/DeepSeek-V3", "q4_k_m", 4096, "h200-sxm-141gb", 8);
  HrEstimate e = estimate (&s);

  g_assert_cmpint (a->attention, ==, HR_ATTENTION_MLA);
  assert_close (hr_kv_bytes_per_token (a, 2.0), 70272, 0);
  assert_close (hr_kv_mha_bytes (a, 1, 1), 4997120, 0);
  assert_close (e.kv_savings, 1.0 - 70272.0 / 4997120.0, 1e-12);
  /* The latent is shared by all heads: every GPU keeps the whole cache. */
  assert_close (e.per_device_kv_bytes, 70272.0 * 4096, 1);
  assert_close (e.kv_bytes, 8 * 70272.0 * 4096, 8);
  /* DeepSeek-V2-Lite: 27 · 576 · 2 = 31,104 (reference mla_bf16 figure). */
  assert_close (hr_kv_bytes_per_token (arch ("deepseek-ai/DeepSeek-V2-Lite-Chat"), 2.0),
                31104, 0);
}

/* Gemma 2 9B: 21 local layers (window 4096) + 21 global, each layer
 * 8·(256+256)·2 = 8192 B per token.  Past the window only the global
 * half grows. */
static void
test_sliding_window_gemma2 (void)
{
  const HrModelArch *a = arch ("google/gemma-2-9b-it");
  double per_layer = 8 * 512 * 2.0;

  g_assert_cmpuint (hr_model_arch_local_layers (a), ==, 21);
  assert_close (hr_kv_bytes (a, 4096, 1, 2.0), 42 * per_layer * 4096, 0);
  assert_close (hr_kv_bytes (a, 8192, 1, 2.0),
                21 * per_layer * 8192 + 21 * per_layer * 4096, 0);
  /* growth past the window = global layers only: 172,032 B per token
   * (reference kv_cache_bytes_per_token_fp16_global_layers_only) */
  assert_close (hr_kv_bytes (a, 8193, 1, 2.0) - hr_kv_bytes (a, 8192, 1, 2.0), 172032, 0);
  assert_close (hr_kv_bytes (a, 100, 1, 2.0) - hr_kv_bytes (a, 99, 1, 2.0), 344064, 0);
}

/* Gemma 3 27B: 52 local (window 1024) + 10 global; 16·(128+128)·2 = 8192
 * B per layer-token; global growth 81,920 B per token (reference). */
static void
test_sliding_window_gemma3 (void)
{
  const HrModelArch *a = arch ("google/gemma-3-27b-it");

  g_assert_cmpuint (hr_model_arch_local_layers (a), ==, 52);
  assert_close (hr_kv_bytes (a, 32769, 1, 2.0) - hr_kv_bytes (a, 32768, 1, 2.0), 81920, 0);
  assert_close (hr_kv_bytes (a, 1024, 1, 2.0), 62 * 8192.0 * 1024, 0);
  g_assert_cmpuint (hr_model_arch_local_layers (arch ("google/gemma-3-4b-it")), ==, 29);
  g_assert_cmpuint (hr_model_arch_local_layers (arch ("openai/gpt-oss-20b")), ==, 12);
}

/* Mistral 7B v0.1 uses a 4096 window on every layer: its cache stops
 * growing at 4096 tokens, and memory never bounds the context. */
static void
test_sliding_window_mistral (void)
{
  const HrModelArch *a = arch ("mistralai/Mistral-7B-v0.1");
  HrScenario s = scenario ("mistralai/Mistral-7B-v0.1", "q4_k_m", 32768, "rtx-3060-12gb", 1);
  HrEstimate e = estimate (&s);

  g_assert_cmpuint (hr_model_arch_local_layers (a), ==, 32);
  assert_close (hr_kv_bytes (a, 32768, 1, 2.0), hr_kv_bytes (a, 4096, 1, 2.0), 0);
  assert_close (hr_kv_bytes (a, 4096, 1, 2.0), 131072.0 * 4096, 0);
  g_assert_true (e.max_context_unbounded);
  g_assert_cmpuint (e.max_context, ==, HR_CONTEXT_MAX);
}

/* Max context with a window: the piecewise solution must sit exactly at
 * the boundary — one more token no longer fits. */
static void
test_max_context_piecewise (void)
{
  HrScenario s = scenario ("google/gemma-2-9b-it", "q4_k_m", 8192, "rtx-3060-12gb", 1);
  HrEstimate e = estimate (&s);
  HrEstimate at, past;

  g_assert_false (e.max_context_unbounded);
  g_assert_cmpuint (e.max_context, >, 4096);
  s.context = e.max_context;
  at = estimate (&s);
  s.context = e.max_context + 1;
  past = estimate (&s);
  g_assert_cmpuint (at.per_device_bytes, <=, at.usable_bytes);
  g_assert_cmpuint (past.per_device_bytes, >, past.usable_bytes);
}

static void
test_max_context_linear_boundary (void)
{
  HrScenario s = scenario ("THUDM/GLM-4-9B-0414", "q4_k_m", 32768, "rtx-3060-12gb", 1);
  HrEstimate e = estimate (&s);
  HrEstimate at, past;

  s.context = e.max_context;
  at = estimate (&s);
  s.context = e.max_context + 1;
  past = estimate (&s);
  g_assert_cmpuint (at.per_device_bytes, <=, at.usable_bytes);
  g_assert_cmpuint (past.per_device_bytes, >, past.usable_bytes);
  g_assert_cmpint (past.verdict, ==, HR_VERDICT_NO_FIT);
}

/* Mixtral: every expert is resident (46.7B), a token reads 2 of 8 (12.9B). */
static void
test_moe (void)
{
  const HrModelArch *a = arch ("mistralai/Mixtral-8x7B-Instruct-v0.1");
  HrScenario s = scenario ("mistralai/Mixtral-8x7B-Instruct-v0.1", "q8_0", 1,
                           "h100-sxm-80gb", 1);
  HrEstimate e = estimate (&s);

  assert_close (a->params_total, 46702792704.0, 0);
  assert_close (a->params_active, 12879925248.0, 0);
  assert_close (e.weights_bytes, 46702792704.0 * 8.5 / 8, 1);
  /* context 1: the step reads the active weights and one token of KV */
  assert_close (e.bytes_per_token, 12879925248.0 * 8.5 / 8 + 131072, 1);
  /* decode reads the active experts only: a dense model of the same total
   * size would be over three times slower */
  {
    HrModelArch dense = *a;
    HrEstimateInput in = {
      .model = &dense, .bpw = 8.5, .kv_bytes_per_element = 2, .context = 1,
      .batch = 1, .engine = HR_ENGINE_GENERIC,
      .device = hr_hardware_get_device (s.hardware), .n_gpus = 1,
    };
    HrEstimate d;

    dense.params_active = dense.params_total;
    g_assert_true (hr_estimate (&in, &d, NULL));
    g_assert_cmpuint (d.weights_bytes, ==, e.weights_bytes);
    g_assert_cmpfloat (e.decode_tokens_per_s, >, 3.0 * d.decode_tokens_per_s);
  }
}

/* GLM-4-9B has 2 KV heads: on 4 GPUs each keeps one, so per-device KV is
 * half the cache (not a quarter) and the four devices hold twice it. */
static void
test_tensor_parallel_replication (void)
{
  HrScenario one = scenario ("THUDM/GLM-4-9B-0414", "q4_k_m", 32768, "rtx-3060-12gb", 1);
  HrScenario four = scenario ("THUDM/GLM-4-9B-0414", "q4_k_m", 32768, "rtx-3060-12gb", 4);
  HrScenario two = scenario ("THUDM/GLM-4-9B-0414", "q4_k_m", 32768, "rtx-3060-12gb", 2);
  HrEstimate e1 = estimate (&one);
  HrEstimate e4 = estimate (&four);
  HrEstimate e2 = estimate (&two);

  g_assert_true (e4.kv_replicated);
  g_assert_cmpuint (e4.kv_heads_per_device, ==, 1);
  assert_close (e4.per_device_kv_bytes, e1.kv_bytes / 2.0, 1);
  assert_close (e4.kv_bytes, 2.0 * e1.kv_bytes, 4);
  assert_close (e4.per_device_weights_bytes, e1.weights_bytes / 4.0, 1);
  /* each device carries its own runtime: 1.14 GiB + 3 % of its weights */
  assert_close (e4.per_device_overhead_bytes,
                1.14 * GIB + 0.03 * e1.weights_bytes / 4.0, 1);
  assert_close (e4.overhead_bytes, 4 * (1.14 * GIB) + 0.03 * e1.weights_bytes, 4);
  g_assert_cmpuint (e4.weights_bytes, ==, e1.weights_bytes);
  /* two GPUs split the two heads exactly: no replication */
  g_assert_false (e2.kv_replicated);
  assert_close (e2.kv_bytes, e1.kv_bytes, 2);
  /* savings are architectural: replicas do not change them */
  assert_close (e4.kv_savings, e1.kv_savings, 1e-12);
}

static void
test_unified_memory (void)
{
  HrScenario s = scenario ("THUDM/GLM-4-9B-0414", "q4_k_m", 32768, "apple-m4-max-64gb", 1);
  HrScenario small = scenario ("THUDM/GLM-4-9B-0414", "q4_k_m", 32768, "apple-m2-16gb", 1);
  HrEstimate e = estimate (&s);
  HrEstimate es = estimate (&small);

  /* macOS wires 3/4 of 64 GiB for the GPU, 2/3 of 16 GiB */
  assert_close (e.usable_bytes, 48 * GIB, 1);
  assert_close (es.usable_bytes, 16 * GIB * 2 / 3, 1);
  /* 0.42 GiB less overhead than a discrete GPU */
  assert_close (e.per_device_overhead_bytes, 0.72 * GIB + 0.03 * e.weights_bytes, 1);
}

static void
test_kv_types_and_batch (void)
{
  HrScenario s = scenario ("meta-llama/Llama-3.1-8B-Instruct", "q4_k_m", 8192,
                           "rtx-4090-24gb", 1);
  HrEstimate base = estimate (&s), e;

  s.kv_type = hr_catalog_find_kv_type (catalog, "q8_0");
  e = estimate (&s);
  assert_close (e.kv_bytes, base.kv_bytes * 34.0 / 32.0 / 2.0, 1);
  s.kv_type = hr_catalog_find_kv_type (catalog, "q4_0");
  e = estimate (&s);
  assert_close (e.kv_bytes, base.kv_bytes * 18.0 / 32.0 / 2.0, 1);
  s.kv_type = hr_catalog_find_kv_type (catalog, "fp8");
  e = estimate (&s);
  assert_close (e.kv_bytes, base.kv_bytes / 2.0, 1);

  s.kv_type = hr_catalog_find_kv_type (catalog, "fp16");
  s.batch = 4;
  e = estimate (&s);
  assert_close (e.kv_bytes, 4.0 * base.kv_bytes, 4);
  /* the baseline also counts every sequence */
  assert_close (e.kv_mha_bytes, 4.0 * base.kv_mha_bytes, 4);
  /* single-stream speed does not change with more sequences' memory */
  assert_close (e.decode_tokens_per_s, base.decode_tokens_per_s, 1e-9);
}

static void
test_verdicts (void)
{
  HrScenario s = scenario ("THUDM/GLM-4-9B-0414", "q4_k_m", 131072, "rtx-3060-12gb", 1);
  HrEstimate e = estimate (&s);

  /* 11.61 GiB of 11.81 usable: fits, but past 90 % */
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_TIGHT);
  s.precision = hr_catalog_find_precision (catalog, "fp16");
  e = estimate (&s);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_NO_FIT);
  g_assert_cmpuint (e.max_context, <, 131072);
}

static void
expect_invalid (const HrEstimateInput *input,
                const char            *fragment)
{
  g_autoptr(GError) error = NULL;
  HrEstimate e;

  g_assert_false (hr_estimate (input, &e, &error));
  g_assert_error (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_INVALID);
  if (strstr (error->message, fragment) == NULL)
    g_error ("“%s” does not mention “%s”", error->message, fragment);
}

static void
test_absurd_inputs (void)
{
  HrModelArch model = *arch ("THUDM/GLM-4-9B-0414");
  HrDevice device = *hr_hardware_get_device (hr_catalog_find_hardware (catalog,
                                                                       "rtx-3060-12gb"));
  HrEstimateInput good = {
    .model = &model, .bpw = 4.85, .kv_bytes_per_element = 2, .context = 32768,
    .batch = 1, .engine = HR_ENGINE_GENERIC, .device = &device, .n_gpus = 1,
  };
  HrEstimateInput in;
  HrModelArch bad;
  HrDevice bad_device;
  HrEstimate e;

  g_assert_true (hr_estimate (&good, &e, NULL));

  bad = model; bad.n_layers = 0;
  in = good; in.model = &bad;
  expect_invalid (&in, "layer count");

  bad = model; bad.n_kv_heads = 3;
  in = good; in.model = &bad;
  expect_invalid (&in, "do not divide");

  bad = model; bad.params_total = NAN;
  in = good; in.model = &bad;
  expect_invalid (&in, "parameter count");

  bad = model; bad.params_total = -1;
  in = good; in.model = &bad;
  expect_invalid (&in, "parameter count");

  bad = model; bad.params_active = model.params_total * 2;
  in = good; in.model = &bad;
  expect_invalid (&in, "active parameters");

  in = good; in.context = 0;
  expect_invalid (&in, "context");
  in = good; in.context = (guint64) HR_CONTEXT_MAX + 1;
  expect_invalid (&in, "context");
  in = good; in.context = G_MAXUINT64;
  expect_invalid (&in, "context");

  in = good; in.bpw = NAN;
  expect_invalid (&in, "bits per weight");
  in = good; in.bpw = -4;
  expect_invalid (&in, "bits per weight");
  in = good; in.bpw = INFINITY;
  expect_invalid (&in, "bits per weight");

  in = good; in.kv_bytes_per_element = 0;
  expect_invalid (&in, "KV bytes");
  in = good; in.batch = 0;
  expect_invalid (&in, "parallel sequences");
  in = good; in.n_gpus = 0;
  expect_invalid (&in, "GPU count");

  bad_device = device; bad_device.bandwidth_gbps = NAN;
  in = good; in.device = &bad_device;
  expect_invalid (&in, "bandwidth");
  bad_device = device; bad_device.memory_bytes = 0;
  in = good; in.device = &bad_device;
  expect_invalid (&in, "memory");

  /* The largest legal inputs do not overflow: 4096 sequences of 2^31-1
   * tokens of a 405B model's cache is ~10^21 bytes, refused cleanly. */
  model = *arch ("meta-llama/Llama-3.1-405B-Instruct");
  in = good; in.context = HR_CONTEXT_MAX; in.batch = HR_BATCH_MAX;
  expect_invalid (&in, "exceed");

  /* …and the largest that is representable still computes. */
  in = good; in.context = HR_CONTEXT_MAX; in.batch = 1;
  g_assert_true (hr_estimate (&in, &e, NULL));
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_NO_FIT);

  in = good; in.options.gpu_memory_utilization = 1.5;
  expect_invalid (&in, "GPU memory utilization");
  in = good; in.options.ubatch = 1u << 20;
  expect_invalid (&in, "micro-batch");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  catalog = hr_test_builtin_catalog ();

  g_test_add_func ("/estimate/kv-per-token", test_kv_per_token);
  g_test_add_func ("/estimate/mla", test_mla);
  g_test_add_func ("/estimate/sliding-window/gemma2", test_sliding_window_gemma2);
  g_test_add_func ("/estimate/sliding-window/gemma3", test_sliding_window_gemma3);
  g_test_add_func ("/estimate/sliding-window/mistral", test_sliding_window_mistral);
  g_test_add_func ("/estimate/max-context/piecewise", test_max_context_piecewise);
  g_test_add_func ("/estimate/max-context/linear", test_max_context_linear_boundary);
  g_test_add_func ("/estimate/moe", test_moe);
  g_test_add_func ("/estimate/tensor-parallel", test_tensor_parallel_replication);
  g_test_add_func ("/estimate/unified-memory", test_unified_memory);
  g_test_add_func ("/estimate/kv-types-batch", test_kv_types_and_batch);
  g_test_add_func ("/estimate/verdicts", test_verdicts);
  g_test_add_func ("/estimate/absurd-inputs", test_absurd_inputs);

  status = g_test_run ();
  g_object_unref (catalog);
  return status;
}
