/* test-extras.c — what loads beside the model: a vision projector, a draft
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * src/core/estimate/hr-extras.c against published llama.cpp logs
 * (tests/data/logs, SOURCES.md): a projector's weights and encoder buffer
 * within 2 %, the speculative speed-up of a measured draft pairing within
 * 25 %; then the whole load in an estimate (on which GPU, the fit, the
 * engines that refuse it) and the catalog's vision configs against the
 * official config.json fixtures.
 */

#include "config.h"

#include <math.h>

#include "hr-extras.h"
#include "hr-scenario.h"
#include "hr-test-util.h"
#include "hr-vision.h"

#define MIB ((double) (1u << 20))

static HrCatalog *catalog;

static char *
read_log (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "logs", name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "# source: https://"));
  return text;
}

/* The number after @key on its line of @text. */
static double
logged (const char *text,
        const char *key)
{
  const char *at = strstr (text, key);

  g_assert_nonnull (at);
  at += strlen (key);
  while (*at == ' ' || *at == '=' || *at == ':')
    at++;
  return g_ascii_strtod (at, NULL);
}

static HrVisionConfig
vision_of (const char *model)
{
  HrVisionConfig v;

  g_assert_true (hr_vision_find (model, &v));
  return v;
}

/* Gemma 3 4B's projector as llama.cpp logged it: "model size: 811.79
 * MiB", "CUDA0 compute buffer size = 121.25 MiB". */
static void
test_mmproj_log (void)
{
  g_autofree char *text = read_log ("llamacpp-2026-gemma3-mmproj.log");
  HrVisionConfig v = vision_of ("google/gemma-3-4b-it");
  double weights = logged (text, "model size:"), compute = logged (text, "CUDA0 compute buffer size");

  g_assert_cmpfloat (weights, ==, 811.79);
  /* the log's own hparams are the catalog's */
  g_assert_cmpuint (v.hidden, ==, (guint) logged (text, "n_embd:"));
  g_assert_cmpuint (v.intermediate, ==, (guint) logged (text, "n_ff:"));
  g_assert_cmpuint (v.layers, ==, (guint) logged (text, "n_layer:"));
  g_assert_cmpuint (v.projection, ==, (guint) logged (text, "projection_dim:"));
  g_assert_cmpuint (v.image_size, ==, (guint) logged (text, "image_size:"));
  g_assert_cmpuint (v.patch_size, ==, (guint) logged (text, "patch_size:"));
  /* 4096 patches merged 4 × 4 */
  g_assert_cmpuint (v.tokens_per_image, ==, 4096 / (guint) pow (logged (text, "n_merge:"), 2));

  g_test_message ("weights %.2f MiB (log %.2f), encoder %.2f MiB (log %.2f)",
                  hr_mmproj_weights_bytes (&v) / MIB, weights,
                  hr_mmproj_compute_bytes (&v) / MIB, compute);
  g_assert_cmpfloat (fabs (hr_mmproj_weights_bytes (&v) / MIB - weights), <=, 0.02 * weights);
  g_assert_cmpfloat (fabs (hr_mmproj_compute_bytes (&v) / MIB - compute), <=, 0.02 * compute);
}

/* vision.json against the official config.json of each model
 * (tests/data/hf): the sizes, the tokens an image takes, the projection. */
static void
test_vision_catalog (void)
{
  static const char * const models[] = {
    "google/gemma-3-4b-it", "google/gemma-3-12b-it", "google/gemma-3-27b-it",
  };
  HrVisionConfig none;

  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autofree char *file = g_strdelimit (g_strconcat (models[i], ".json", NULL), "/", '-');
      g_autofree char *name = g_strconcat ("google--", file + strlen ("google-"), NULL);
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "hf", name, NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *root, *vc, *tc;
      HrVisionConfig v = vision_of (models[i]);

      g_assert_true (json_parser_load_from_file (parser, path, NULL));
      root = json_node_get_object (json_parser_get_root (parser));
      vc = json_object_get_object_member (root, "vision_config");
      tc = json_object_get_object_member (root, "text_config");
      g_assert_cmpint (v.hidden, ==, json_object_get_int_member (vc, "hidden_size"));
      g_assert_cmpint (v.intermediate, ==, json_object_get_int_member (vc, "intermediate_size"));
      g_assert_cmpint (v.layers, ==, json_object_get_int_member (vc, "num_hidden_layers"));
      g_assert_cmpint (v.heads, ==, json_object_get_int_member (vc, "num_attention_heads"));
      g_assert_cmpint (v.image_size, ==, json_object_get_int_member (vc, "image_size"));
      g_assert_cmpint (v.patch_size, ==, json_object_get_int_member (vc, "patch_size"));
      g_assert_cmpint (v.tokens_per_image, ==, json_object_get_int_member (root, "mm_tokens_per_image"));
      g_assert_cmpint (v.projection, ==, json_object_get_int_member (tc, "hidden_size"));
    }
  g_assert_false (hr_vision_find ("meta-llama/Llama-3.1-8B-Instruct", &none));
}

/* Leviathan et al. 2023, eq. (1): c = 0 gives the expected tokens per
 * step; a draft as costly as the model never pays; the best length. */
static void
test_speculative_formula (void)
{
  /* α = 0.8, γ = 4, free draft: (1 − 0.8^5) / 0.2 = 3.3616 tokens */
  g_assert_cmpfloat (fabs (hr_speculative_speedup (0.8, 4, 0) - 3.3616), <, 1e-9);
  /* γ c + 1 = 2: half of it */
  g_assert_cmpfloat (fabs (hr_speculative_speedup (0.8, 4, 0.25) - 3.3616 / 2), <, 1e-9);
  g_assert_cmpfloat (hr_speculative_speedup (0.9, 3, 1.0), <, 1.0);
  /* a low acceptance gains most from a short draft */
  g_assert_cmpuint (hr_speculative_best_gamma (0.3, 0.1, 16), <, hr_speculative_best_gamma (0.9, 0.1, 16));
}

/* The measured pairing: Llama 3.1 8B Q8_0 on an RTX 3060 at 32.49 tok/s
 * alone, 55.473 with Llama 3.2 1B Q8_0 drafting 5 at 72.055 % accepted:
 * the estimate's speed-up within 25 % of 1.707. */
static void
test_speculative_log (void)
{
  g_autofree char *text = read_log ("llamacpp-2024-speculative-rtx3060.log");
  double alone = logged (text, "per token,"), with = logged (text, "speed:");
  double accept = logged (text, "accept    =") / 100;
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct"),
    .precision = hr_catalog_find_precision (catalog, "q8_0"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-3060-12gb"),
    .context = 4096, .batch = 1, .gpus = 1,
    .engine = HR_ENGINE_LLAMACPP,
    .draft_model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.2-1B-Instruct"),
    .draft_precision = hr_catalog_find_precision (catalog, "q8_0"),
    .draft_max = (guint32) logged (text, "n_draft   ="),
    .acceptance = accept,
  };
  g_autoptr(GError) error = NULL;
  HrEstimate e, plain;
  double measured = with / alone;

  g_assert_cmpfloat (alone, ==, 32.49);
  g_assert_cmpfloat (with, ==, 55.473);
  g_assert_cmpuint (s.draft_max, ==, 5);
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  g_test_message ("speed-up %.3f (measured %.3f), c = %.3f", e.speculative_speedup, measured,
                  e.draft_cost_ratio);
  g_assert_cmpfloat (fabs (e.speculative_speedup - measured), <=, 0.25 * measured);
  g_assert_cmpuint (e.draft_max, ==, 5);

  /* the draft's memory comes on top, on the one GPU */
  s.draft_model = NULL;
  g_assert_true (hr_scenario_estimate (&s, &plain, &error));
  g_assert_cmpuint (e.devices[0].draft_bytes, ==, e.draft_bytes);
  g_assert_cmpuint (e.devices[0].total_bytes, ==, plain.devices[0].total_bytes + e.draft_bytes);
  /* its 1.2 B parameters at Q8_0 (1.33 GB) less the embeddings in RAM, a
   * 4096-token cache of 16 layers (128 MiB) and its buffers */
  g_assert_cmpfloat (e.draft_bytes / MIB, >, 1100);
  g_assert_cmpfloat (e.draft_bytes / MIB, <, 1900);
  g_assert_cmpuint (plain.draft_bytes, ==, 0);
  g_assert_cmpfloat (plain.speculative_speedup, ==, 0);
}

/* The default acceptance is a same-lineage pairing's; a draft of another
 * vocabulary is refused as llama.cpp refuses it; Ollama and vLLM have
 * no draft planned; a bad pairing's slowdown is reported (< 1). */
static void
test_draft_rules (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct"),
    .precision = hr_catalog_find_precision (catalog, "q8_0"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-3060-12gb"),
    .context = 4096, .batch = 1, .gpus = 1,
    .engine = HR_ENGINE_LLAMACPP,
    .draft_model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.2-1B-Instruct"),
    .draft_precision = hr_catalog_find_precision (catalog, "q8_0"),
  };
  GError *error = NULL;
  HrEstimate e;

  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_cmpfloat (e.draft_acceptance, ==, 0.72);
  g_assert_cmpuint (e.draft_max, ==, hr_speculative_best_gamma (0.72, e.draft_cost_ratio, 16));
  g_assert_cmpfloat (e.speculative_speedup, >, 1);

  s.acceptance = 0.1;
  s.draft_max = 16;
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_cmpfloat (e.speculative_speedup, <, 1);

  s.acceptance = 0;
  s.draft_model = hr_catalog_find_model (catalog, "Qwen/Qwen2.5-0.5B-Instruct");
  g_assert_false (hr_scenario_estimate (&s, &e, &error));
  g_assert_error (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "vocabulary"));
  g_clear_error (&error);

  s.draft_model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.2-1B-Instruct");
  s.engine = HR_ENGINE_OLLAMA;
  g_assert_false (hr_scenario_estimate (&s, &e, &error));
  g_assert_error (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_UNSUPPORTED);
  g_clear_error (&error);
}

/* A projector sits on the first GPU, its images take context cells, and
 * vLLM is not planned with a separate projector file. */
static void
test_mmproj_estimate (void)
{
  HrVisionConfig v = vision_of ("google/gemma-3-27b-it");
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "google/gemma-3-27b-it"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-3090-24gb"),
    .context = 8192, .batch = 1, .gpus = 2,
    .engine = HR_ENGINE_LLAMACPP,
    .mmproj_weights_bytes = hr_mmproj_weights_bytes (&v),
    .mmproj_compute_bytes = hr_mmproj_compute_bytes (&v),
    .tokens_per_image = v.tokens_per_image,
    .images = 3,
  };
  GError *error = NULL;
  HrEstimate e;

  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (e.devices[0].mmproj_bytes, ==, s.mmproj_weights_bytes + s.mmproj_compute_bytes);
  g_assert_cmpuint (e.devices[1].mmproj_bytes, ==, 0);
  g_assert_cmpuint (e.mmproj_bytes, ==, e.devices[0].mmproj_bytes);
  g_assert_cmpuint (e.image_tokens, ==, 768);

  s.context = 512;
  g_assert_false (hr_scenario_estimate (&s, &e, &error));
  g_assert_error (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_INVALID);
  g_clear_error (&error);

  s.context = 8192;
  s.engine = HR_ENGINE_VLLM;
  s.precision = hr_catalog_find_precision (catalog, "bf16");
  g_assert_false (hr_scenario_estimate (&s, &e, &error));
  g_assert_error (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_UNSUPPORTED);
  g_clear_error (&error);
}

/* A rank-16 adapter of every linear layer of Llama 3 8B: 41,943,040
 * trainable parameters, as Unsloth's and PEFT's trainers print for r = 16
 * on q, k, v, o, gate, up and down ("Trainable parameters = 41,943,040"),
 * F16 in its GGUF. */
static void
test_lora_rank (void)
{
  HrModelSpec *model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct");
  const HrModelArch *a = hr_model_spec_get_arch (model);

  g_assert_cmpuint (hr_lora_bytes_for_rank (a, hr_model_spec_get_intermediate (model), FALSE, 16),
                    ==, 41943040ull * 2);
  /* linear in the rank; a MoE's experts are not adapted */
  g_assert_cmpuint (hr_lora_bytes_for_rank (a, hr_model_spec_get_intermediate (model), FALSE, 64),
                    ==, 41943040ull * 2 * 4);
  g_assert_cmpuint (hr_lora_bytes_for_rank (a, hr_model_spec_get_intermediate (model), TRUE, 16),
                    <, 41943040ull * 2 / 2);
}

/* Adapters go with the layers they adapt (the GPU's share, the CPU's
 * for the layers left there) and are read each token; the cache in RAM
 * leaves the GPUs none of it and costs decode time; the host prompt
 * cache counts against RAM; none of it is planned for vLLM. */
static void
test_lora_and_host_memory (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-3060-12gb"),
    .context = 16384, .batch = 1, .gpus = 1,
    .engine = HR_ENGINE_LLAMACPP,
  };
  GError *error = NULL;
  HrEstimate plain, e;
  guint64 adapter;

  g_assert_true (hr_scenario_estimate (&s, &plain, &error));
  g_assert_no_error (error);

  s.n_lora = 1;
  s.lora_ranks[0] = 16;
  adapter = hr_scenario_lora_bytes (&s);
  g_assert_cmpuint (adapter, ==, 41943040ull * 2);
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  /* every repeating layer on the GPU: the whole adapter there, rounded per layer */
  g_assert_cmpuint (e.lora_bytes, ==, adapter);
  g_assert_cmpuint (e.devices[0].lora_bytes, ==, adapter);
  g_assert_cmpuint (e.per_device_bytes, ==, plain.per_device_bytes + adapter);
  g_assert_cmpuint (e.total_bytes, ==, plain.total_bytes + adapter);
  g_assert_cmpfloat (e.decode_tokens_per_s, <, plain.decode_tokens_per_s);

  /* half the layers on the CPU: their adapters in RAM */
  s.placement.gpu_layers_fixed = TRUE;
  s.placement.gpu_layers = 17;
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_cmpuint (e.devices[0].lora_bytes, ==, adapter / 2);
  g_assert_cmpuint (e.lora_bytes, ==, adapter);
  s.placement.gpu_layers_fixed = FALSE;
  s.n_lora = 0;

  /* --no-kv-offload: the cache leaves the GPU for RAM, decode slows */
  s.kv_on_host = TRUE;
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  g_assert_true (e.kv_on_host);
  g_assert_cmpuint (e.per_device_kv_bytes, ==, 0);
  g_assert_cmpuint (e.kv_bytes, ==, plain.kv_bytes);
  g_assert_cmpuint (e.host_kv_bytes, ==, plain.kv_bytes);
  g_assert_cmpuint (e.host_bytes, ==, plain.host_bytes + plain.kv_bytes);
  g_assert_cmpuint (e.per_device_bytes, ==, plain.per_device_bytes - plain.per_device_kv_bytes);
  g_assert_cmpfloat (e.decode_tokens_per_s, <, plain.decode_tokens_per_s);
  g_assert_cmpfloat (e.prefill_tokens_per_s, <, plain.prefill_tokens_per_s);
  /* the longest context is then bounded by RAM, not by the GPU */
  g_assert_cmpuint (e.max_context, >, plain.max_context);
  /* no measured rows with the cache in RAM: no range */
  g_assert_cmpfloat (e.decode_tokens_per_s_low, ==, 0);

  /* the prompt cache counts against RAM: 8 GiB of RAM cannot hold 16 */
  s.kv_on_host = FALSE;
  s.ram.bytes = 8ull << 30;
  s.cache_ram_bytes = 16ull << 30;
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_cmpuint (e.host_cache_bytes, ==, 16ull << 30);
  g_assert_false (e.ram_fits);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_NO_FIT);
  s.cache_ram_bytes = 1ull << 30;
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_true (e.ram_fits);

  /* vLLM: none of these */
  s.engine = HR_ENGINE_VLLM;
  s.precision = hr_catalog_find_precision (catalog, "bf16");
  s.hardware = hr_catalog_find_hardware (catalog, "a100-sxm-80gb");
  g_assert_false (hr_scenario_estimate (&s, &e, &error));
  g_assert_error (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  s.cache_ram_bytes = 0;
  s.n_lora = 1;
  g_assert_false (hr_scenario_estimate (&s, &e, &error));
  g_assert_error (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_UNSUPPORTED);
  g_clear_error (&error);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  catalog = hr_test_builtin_catalog ();

  g_test_add_func ("/extras/mmproj/log", test_mmproj_log);
  g_test_add_func ("/extras/mmproj/vision-catalog", test_vision_catalog);
  g_test_add_func ("/extras/mmproj/estimate", test_mmproj_estimate);
  g_test_add_func ("/extras/speculative/formula", test_speculative_formula);
  g_test_add_func ("/extras/speculative/log", test_speculative_log);
  g_test_add_func ("/extras/speculative/rules", test_draft_rules);
  g_test_add_func ("/extras/lora/rank", test_lora_rank);
  g_test_add_func ("/extras/lora-and-host-memory", test_lora_and_host_memory);

  status = g_test_run ();
  g_object_unref (catalog);
  return status;
}
