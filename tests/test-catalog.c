/* test-catalog.c — the built-in catalog is complete and valid; user files
 * with mistakes give precise errors and never break it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "hr-catalog-json.h"
#include "hr-distributions.h"
#include "hr-file.h"
#include "hr-test-util.h"

static void
test_builtin_counts (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();

  g_assert_cmpuint (g_list_model_get_n_items (hr_catalog_get_models (catalog)), >=, 85);
  g_assert_cmpuint (g_list_model_get_n_items (hr_catalog_get_hardware (catalog)), >=, 50);
  g_assert_cmpuint (g_list_model_get_n_items (hr_catalog_get_precisions (catalog)), >=, 37);
  g_assert_cmpuint (g_list_model_get_n_items (hr_catalog_get_kv_types (catalog)), ==, 5);
  g_assert_cmpuint (hr_catalog_get_tier_ladder (catalog)->len, >=, 4);
  g_assert_null (hr_catalog_get_problems (catalog)[0]);
}

/* Every list of precisions (the picker, the matrix, `headroom-cli
 * precisions`) is the catalog's order: fewest bits last (issue 30). */
static void
test_precisions_sorted (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  GListModel *precisions = hr_catalog_get_precisions (catalog);
  double previous = G_MAXDOUBLE;

  for (guint i = 0; i < g_list_model_get_n_items (precisions); i++)
    {
      g_autoptr(HrPrecision) p = g_list_model_get_item (precisions, i);

      if (hr_precision_get_bpw (p) > previous)
        g_error ("%s (%g bpw) comes after a precision of %g bpw", hr_precision_get_id (p),
                 hr_precision_get_bpw (p), previous);
      previous = hr_precision_get_bpw (p);
    }
}

/* The newest releases added for issue 25 (tools/import-models-2026.py):
 * the catalog holds at least 130 models, and a few of the new entries
 * have the shapes their official cards publish. */
static void
test_newest_releases (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  HrModelSpec *m;
  const HrModelArch *a;

  g_assert_cmpuint (g_list_model_get_n_items (hr_catalog_get_models (catalog)), >=, 130);

  /* huggingface.co/ByteDance-Seed/Seed-OSS-36B-Instruct, "Model Summary":
   * 36B parameters, 64 layers, QKV heads 80 / 8 / 8, head size 128,
   * hidden 5120, context 512K */
  m = hr_catalog_find_model (catalog, "ByteDance-Seed/Seed-OSS-36B-Instruct");
  g_assert_nonnull (m);
  a = hr_model_spec_get_arch (m);
  g_assert_cmpuint (a->n_layers, ==, 64);
  g_assert_cmpuint (a->n_heads, ==, 80);
  g_assert_cmpuint (a->n_kv_heads, ==, 8);
  g_assert_cmpuint (a->head_dim_k, ==, 128);
  g_assert_cmpuint (a->hidden, ==, 5120);
  g_assert_cmpuint (a->max_context, ==, 512 * 1024);
  g_assert_cmpfloat (fabs (a->params_total / 1e9 - 36), <=, 0.5);

  /* huggingface.co/moonshotai/Kimi-K2-Instruct-0905, "Model Summary":
   * 1T total, 32B activated, 61 layers (1 dense), hidden 7168, expert
   * hidden 2048, 64 heads, 384 experts, 8 selected, 1 shared, MLA,
   * context 256K */
  m = hr_catalog_find_model (catalog, "moonshotai/Kimi-K2-Instruct-0905");
  g_assert_nonnull (m);
  a = hr_model_spec_get_arch (m);
  g_assert_cmpint (a->attention, ==, HR_ATTENTION_MLA);
  g_assert_cmpuint (a->n_layers, ==, 61);
  g_assert_cmpuint (a->hidden, ==, 7168);
  g_assert_cmpuint (a->n_heads, ==, 64);
  g_assert_cmpuint (a->max_context, ==, 256 * 1024);
  g_assert_cmpuint (hr_model_spec_get_experts (m), ==, 384);
  g_assert_cmpuint (hr_model_spec_get_experts_active (m), ==, 8);
  g_assert_cmpuint (hr_model_spec_get_expert_intermediate (m), ==, 2048);
  g_assert_cmpfloat (fabs (a->params_total / 1e12 - 1), <=, 0.05);
  g_assert_cmpfloat (fabs (a->params_active / 1e9 - 32), <=, 1);

  /* huggingface.co/Qwen/Qwen2.5-7B-Instruct-1M: 28 layers, 28 heads for
   * Q and 4 for KV, context 1,010,000 tokens */
  m = hr_catalog_find_model (catalog, "Qwen/Qwen2.5-7B-Instruct-1M");
  g_assert_nonnull (m);
  a = hr_model_spec_get_arch (m);
  g_assert_cmpuint (a->n_layers, ==, 28);
  g_assert_cmpuint (a->n_heads, ==, 28);
  g_assert_cmpuint (a->n_kv_heads, ==, 4);
  g_assert_cmpuint (a->max_context, ==, 1010000);

  /* huggingface.co/LGAI-EXAONE/EXAONE-3.5-32B-Instruct: 64 layers, GQA
   * with 40 Q-heads and 8 KV-heads, vocabulary 102,400, context 32,768 */
  m = hr_catalog_find_model (catalog, "LGAI-EXAONE/EXAONE-3.5-32B-Instruct");
  g_assert_nonnull (m);
  a = hr_model_spec_get_arch (m);
  g_assert_cmpuint (a->n_layers, ==, 64);
  g_assert_cmpuint (a->n_heads, ==, 40);
  g_assert_cmpuint (a->n_kv_heads, ==, 8);
  g_assert_cmpuint (a->vocab, ==, 102400);
  g_assert_cmpuint (a->max_context, ==, 32768);

  /* huggingface.co/tiiuae/Falcon3-1B-Instruct, "Model Details": 18
   * decoder blocks, 8 query heads and 4 key-value heads, head dimension
   * 256, 8K context length */
  m = hr_catalog_find_model (catalog, "tiiuae/Falcon3-1B-Instruct");
  g_assert_nonnull (m);
  a = hr_model_spec_get_arch (m);
  g_assert_cmpuint (a->n_layers, ==, 18);
  g_assert_cmpuint (a->n_heads, ==, 8);
  g_assert_cmpuint (a->n_kv_heads, ==, 4);
  g_assert_cmpuint (a->head_dim_k, ==, 256);
  g_assert_cmpuint (a->max_context, ==, 8192);

  /* huggingface.co/openai/gpt-oss-safeguard-20b: "21B parameters with
   * 3.6B active parameters", counted as OpenAI's gpt-oss model card
   * counts them: the output head in, the embedding table (a lookup) out */
  m = hr_catalog_find_model (catalog, "openai/gpt-oss-safeguard-20b");
  g_assert_nonnull (m);
  a = hr_model_spec_get_arch (m);
  g_assert_cmpfloat (fabs (a->params_total / 1e9 - 21), <=, 0.5);
  g_assert_cmpfloat (fabs ((a->params_active - (double) a->vocab * a->hidden) / 1e9 - 3.6),
                     <=, 0.05);
}

/* "gguf" in distributions.json: repositories of GGUF files, each an
 * "org/name" with the page it was seen on, for models of the catalog. */
static void
test_gguf_repositories (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(GBytes) bytes = g_resources_lookup_data ("/io/github/headroom_app/Headroom/"
                                                     "catalog/distributions.json", 0, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *models;
  guint seen = 0;

  g_assert_true (json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL),
                                             g_bytes_get_size (bytes), NULL));
  models = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                         "models");
  for (guint i = 0; i < json_array_get_length (models); i++)
    {
      JsonObject *entry = json_array_get_object_element (models, i);
      JsonArray *repos;

      if (!json_object_has_member (entry, "gguf"))
        continue;
      g_assert_nonnull (hr_catalog_find_model (catalog,
                                               json_object_get_string_member (entry, "id")));
      repos = json_object_get_array_member (entry, "gguf");
      g_assert_cmpuint (json_array_get_length (repos), >, 0);
      for (guint r = 0; r < json_array_get_length (repos); r++)
        {
          JsonObject *repo = json_array_get_object_element (repos, r);
          const char *name = json_object_get_string_member (repo, "repo");
          g_autofree char *lower = g_ascii_strdown (name, -1);

          g_assert_nonnull (strchr (name, '/'));
          g_assert_nonnull (strstr (lower, "gguf"));
          g_assert_cmpuint (strlen (json_object_get_string_member (repo, "source")), >, 0);
          seen++;
        }
    }
  g_assert_cmpuint (seen, >=, 5);
}

/* The ids docs/CLI.md promises. */
static void
test_cli_ids (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  static const char *precisions[] = {
    "fp32", "fp16", "bf16", "fp8", "q8_0", "q6_k", "q5_k_m", "q5_k_s", "q4_k_m",
    "q4_k_s", "q4_0", "iq4_xs", "q3_k_l", "q3_k_m", "q3_k_s", "q2_k", "awq-int4",
    "gptq-int4",
  };
  static const char *kv[] = { "fp16", "bf16", "fp8", "q8_0", "q4_0" };
  static const struct { const char *id; double gib; double gbps; gboolean unified; } devices[] = {
    { "rtx-3060-12gb", 12, 360, FALSE },
    { "rtx-4060-ti-16gb", 16, 288, FALSE },
    { "rtx-3090-24gb", 24, 936.2, FALSE },
    { "rtx-4090-24gb", 24, 1008, FALSE },
    { "rtx-5090-32gb", 32, 1792, FALSE },
    { "apple-m4-max-64gb", 64, 546, TRUE },
    { "apple-m4-max-128gb", 128, 546, TRUE },
    { "apple-m2-ultra-192gb", 192, 800, TRUE },
    { "a100-sxm-80gb", 80, 2039, FALSE },
    { "h100-sxm-80gb", 80, 3350, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (precisions); i++)
    g_assert_nonnull (hr_catalog_find_precision (catalog, precisions[i]));
  for (guint i = 0; i < G_N_ELEMENTS (kv); i++)
    g_assert_nonnull (hr_catalog_find_kv_type (catalog, kv[i]));
  for (guint i = 0; i < G_N_ELEMENTS (devices); i++)
    {
      HrHardware *hw = hr_catalog_find_hardware (catalog, devices[i].id);

      g_assert_nonnull (hw);
      assert_close (hr_hardware_get_memory_bytes (hw) / GIB, devices[i].gib, 0);
      assert_close (hr_hardware_get_bandwidth_gbps (hw), devices[i].gbps, 1e-9);
      g_assert_cmpint (hr_hardware_is_unified (hw), ==, devices[i].unified);
    }
  /* ids are case-insensitive, as Hugging Face's are */
  g_assert_true (hr_catalog_find_model (catalog, "thudm/glm-4-9b-0414") ==
                 hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"));
}

/* docs/SEED-SPEC.md, "The model". */
static void
test_glm_as_seed (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  HrModelSpec *m = hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414");
  const HrModelArch *a;

  g_assert_nonnull (m);
  a = hr_model_spec_get_arch (m);
  g_assert_cmpstr (hr_model_spec_get_name (m), ==, "GLM-4-9B-0414");
  g_assert_cmpstr (hr_model_spec_get_ollama_tag (m), ==, "glm4:9b");
  g_assert_cmpstr (hr_model_spec_get_license (m), ==, "MIT");
  g_assert_cmpstr (hr_model_spec_get_release (m), ==, "2025-Q2");
  assert_close (a->params_total / 1e9, 9.4, 0.05);
  assert_close (a->params_active, a->params_total, 0);
  g_assert_cmpuint (a->n_layers, ==, 40);
  g_assert_cmpuint (a->hidden, ==, 4096);
  g_assert_cmpuint (a->n_heads, ==, 32);
  g_assert_cmpuint (a->n_kv_heads, ==, 2);
  g_assert_cmpuint (a->head_dim_k, ==, 128);
  g_assert_cmpuint (a->vocab, ==, 151552);
  g_assert_cmpuint (a->max_context, ==, 32768);
  g_assert_cmpint (a->attention, ==, HR_ATTENTION_GQA);
}

/* Every built-in entry passes the same checks a user file gets, and a few
 * more that only make sense for curated data. */
static void
test_every_builtin_valid (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  GListModel *models = hr_catalog_get_models (catalog);
  GListModel *hardware = hr_catalog_get_hardware (catalog);

  for (guint i = 0; i < g_list_model_get_n_items (models); i++)
    {
      g_autoptr(HrModelSpec) m = g_list_model_get_item (models, i);
      const HrModelArch *a = hr_model_spec_get_arch (m);
      g_autoptr(GError) error = NULL;

      g_test_message ("model %s", hr_model_spec_get_id (m));
      g_assert_true (hr_model_arch_validate (a, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (a->n_heads % a->n_kv_heads, ==, 0);
      g_assert_nonnull (hr_model_spec_get_source (m));
      g_assert_cmpstr (hr_model_spec_get_source (m), !=, "");
      g_assert_nonnull (hr_model_spec_get_family (m));
      g_assert_cmpuint (hr_model_spec_get_intermediate (m), >, 0);
      if (hr_model_spec_is_moe (m))
        g_assert_cmpfloat (a->params_active, <, a->params_total);
      if (a->attention == HR_ATTENTION_MLA)
        g_assert_cmpuint (a->kv_lora_rank, >, 0);
      /* head_dim × heads is within 2× of hidden for every real model */
      g_assert_cmpuint ((guint64) a->head_dim_k * a->n_heads, <=, 4ull * a->hidden);
    }

  for (guint i = 0; i < g_list_model_get_n_items (hardware); i++)
    {
      g_autoptr(HrHardware) hw = g_list_model_get_item (hardware, i);

      g_test_message ("device %s", hr_hardware_get_id (hw));
      g_assert_cmpuint (hr_hardware_get_memory_bytes (hw), >=, 4 * GIB);
      g_assert_cmpfloat (hr_hardware_get_bandwidth_gbps (hw), >, 50);
      g_assert_cmpuint (hr_device_usable_bytes (hr_hardware_get_device (hw)), <,
                        hr_hardware_get_memory_bytes (hw));
    }
}

/* distributions.json names only catalog models and precisions, Ollama tags
 * only for precisions Ollama's GGUF files come in, checkpoints only for
 * safetensors precisions. */
static void
test_distributions (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(GBytes) bytes = g_resources_lookup_data ("/io/github/headroom_app/Headroom/"
                                                     "catalog/distributions.json", 0, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *models;

  g_assert_nonnull (bytes);
  g_assert_true (json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL),
                                             g_bytes_get_size (bytes), NULL));
  models = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                         "models");
  g_assert_cmpuint (json_array_get_length (models), >=, 85);
  for (guint i = 0; i < json_array_get_length (models); i++)
    {
      JsonObject *entry = json_array_get_object_element (models, i);
      const char *id = json_object_get_string_member (entry, "id");
      static const char * const members[] = { "ollama", "checkpoints" };

      g_test_message ("distribution %s", id);
      g_assert_nonnull (hr_catalog_find_model (catalog, id));
      for (guint m = 0; m < G_N_ELEMENTS (members); m++)
        {
          JsonObject *object = json_object_has_member (entry, members[m])
                               ? json_object_get_object_member (entry, members[m]) : NULL;
          g_autoptr(GList) keys = object ? json_object_get_members (object) : NULL;

          for (GList *l = keys; l != NULL; l = l->next)
            {
              HrPrecision *p = hr_catalog_find_precision (catalog, l->data);
              const char *kind;

              if (p == NULL)
                g_error ("%s: %s names precision “%s”", id, members[m], (char *) l->data);
              kind = hr_precision_get_kind (p);
              /* Ollama tags are GGUF files, checkpoints safetensors ones
               * (MXFP4 is both) */
              if (m == 0)
                g_assert_cmpstr (kind, !=, "safetensors");
              else
                g_assert_true (g_str_equal (kind, "safetensors") || g_str_equal (kind, "both"));
            }
        }
    }

  /* DeepSeek's and Kimi's own releases are FP8 with 128 × 128 block scales;
   * gpt-oss's Ollama tag holds its MXFP4 weights. */
  g_assert_cmpstr (hr_distributions_checkpoint ("deepseek-ai/DeepSeek-V3", "fp8-block"), ==,
                   "deepseek-ai/DeepSeek-V3");
  g_assert_cmpstr (hr_distributions_checkpoint ("moonshotai/Kimi-K2-Instruct", "fp8-block"),
                   ==, "moonshotai/Kimi-K2-Instruct");
  g_assert_cmpstr (hr_distributions_checkpoint ("deepseek-ai/DeepSeek-V3.1", "nvfp4"), ==,
                   "nvidia/DeepSeek-V3.1-NVFP4");
  g_assert_cmpstr (hr_distributions_ollama_tag ("openai/gpt-oss-20b", "mxfp4"), ==,
                   "gpt-oss:20b");
  /* gpt-oss's own repository is its MXFP4 checkpoint; Llama's holds 16-bit
   * weights */
  g_assert_cmpstr (hr_distributions_checkpoint ("openai/gpt-oss-20b", "mxfp4"), ==,
                   "openai/gpt-oss-20b");
  g_assert_cmpstr (hr_distributions_own_precision ("openai/gpt-oss-120b"), ==, "mxfp4");
  g_assert_null (hr_distributions_own_precision ("meta-llama/Llama-3.1-8B-Instruct"));
  g_assert_cmpstr (hr_distributions_ollama_tag ("Qwen/Qwen3-0.6B", "q8_0"), ==,
                   "qwen3:0.6b-q8_0");
}

typedef struct
{
  const char *json;
  const char *expected;   /* fragment of the problem message */
} BadFile;

#define GOOD_MODEL \
  "\"id\":\"me/tiny\",\"name\":\"Tiny\",\"family\":\"T\",\"architecture\":\"llama\"," \
  "\"license\":\"MIT\",\"release\":\"2025\",\"layers\":2,\"hidden\":64,\"heads\":4," \
  "\"kv_heads\":2,\"head_dim\":16,\"intermediate\":128,\"vocab\":1000," \
  "\"max_context\":2048,\"tied_embeddings\":true,\"attention\":\"gqa\"," \
  "\"params\":1e6,\"active_params\":1e6"

static const BadFile bad_files[] = {
  { "{ not json", "not valid JSON" },
  { "[1, 2]", "top level must be an object" },
  { "{\"models\": {}}", "“models” must be an array" },
  { "{\"models\": [42]}", "models[0]: entry is not an object" },
  { "{\"models\": [{" GOOD_MODEL ", \"layers\": 0}]}", "models[0] (“me/tiny”): layer count 0" },
  { "{\"models\": [{\"id\":\"me/x\"}]}", "models[0] (“me/x”): field “name” is missing" },
  { "{\"models\": [{" GOOD_MODEL ", \"hidden\": \"big\"}]}", "field “hidden” must be an integer" },
  /* json-glib made 2^64 a -1 */
  { "{\"models\": [{" GOOD_MODEL ", \"layers\": 18446744073709551616}]}",
    "field “layers” is 1.84467e+19, outside 0–100000" },
  { "{\"models\": [{" GOOD_MODEL ", \"kv_heads\": 3}]}", "3 KV heads do not divide 4" },
  { "{\"models\": [{" GOOD_MODEL ", \"heads\": -4}]}", "field “heads” is -4" },
  { "{\"models\": [{" GOOD_MODEL ", \"attention\": \"linear\"}]}", "field “attention” must be" },
  { "{\"models\": [{" GOOD_MODEL "}, {" GOOD_MODEL "}]}", "models[1] (“me/tiny”): id “me/tiny” appears twice" },
  { "{\"models\": [{" GOOD_MODEL ", \"experts\": 8, \"experts_active\": 9, \"expert_intermediate\": 64}]}",
    "field “experts_active” must be between 1 and" },
  { "{\"hardware\": [{\"id\":\"x\",\"name\":\"X\",\"vendor\":\"V\",\"family\":\"nvidia-geforce\","
    "\"kind\":\"discrete\",\"memory_gib\":-1,\"bandwidth_gbps\":100}]}", "hardware[0] (“x”): field “memory_gib”" },
  { "{\"hardware\": [{\"id\":\"x\",\"name\":\"X\",\"vendor\":\"V\",\"family\":\"toaster\","
    "\"kind\":\"discrete\",\"memory_gib\":8,\"bandwidth_gbps\":100}]}", "field “family” is not a known" },
  /* fewer parameters than the embedding table: a negative decode speed */
  { "{\"models\": [{" GOOD_MODEL ", \"architecture\": \"unknown\", \"vocab\": 1000000000}]}",
    "field “params” (1e+06) is less than the embedding table alone (vocab × hidden = 6.4e+10)" },
  { "{\"precisions\": [{\"id\":\"p\",\"label\":\"P\",\"kind\":\"gguf\",\"bpw\":0}]}", "field “bpw” must be" },
  { "{\"kv_types\": [{\"id\":\"k\",\"label\":\"K\",\"bytes_num\":0,\"bytes_den\":1}]}", "must be positive" },
};

static void
test_malformed_user_files (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-catalog-XXXXXX", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (bad_files); i++)
    {
      g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
      g_autofree char *path = g_build_filename (dir, "mine.json", NULL);
      g_autoptr(GError) error = NULL;
      const char * const *problems;
      guint n_models = g_list_model_get_n_items (hr_catalog_get_models (catalog));

      g_test_message ("case %u: %s", i, bad_files[i].json);
      g_assert_true (g_file_set_contents (path, bad_files[i].json, -1, NULL));
      g_assert_false (hr_catalog_load_file (catalog, path, &error));
      g_assert_nonnull (error);
      if (strstr (error->message, bad_files[i].expected) == NULL ||
          strstr (error->message, path) == NULL)
        g_error ("“%s” should name the file and say “%s”", error->message,
                 bad_files[i].expected);
      problems = hr_catalog_get_problems (catalog);
      g_assert_nonnull (problems[0]);

      /* the built-in catalog is untouched and still answers */
      g_assert_nonnull (hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"));
      g_assert_cmpuint (g_list_model_get_n_items (hr_catalog_get_models (catalog)), >=,
                        n_models);
      g_unlink (path);
    }
  g_rmdir (dir);
}

/* A user directory: good entries load (and may replace built-in ones),
 * a bad file beside them is reported and skipped. */
static void
test_user_dir (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-user-XXXXXX", NULL);
  g_autofree char *good = g_build_filename (dir, "a-good.json", NULL);
  g_autofree char *bad = g_build_filename (dir, "b-bad.json", NULL);
  g_autofree char *ignored = g_build_filename (dir, "notes.txt", NULL);
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  guint n_models = g_list_model_get_n_items (hr_catalog_get_models (catalog));
  const char * const *problems;
  HrHardware *hw;

  g_assert_true (g_file_set_contents (good,
    "{\"models\": [{" GOOD_MODEL "}],"
    " \"hardware\": [{\"id\":\"rtx-3060-12gb\",\"name\":\"My 3060\",\"vendor\":\"NVIDIA\","
    "\"family\":\"nvidia-geforce\",\"kind\":\"discrete\",\"memory_gib\":12,"
    "\"bandwidth_gbps\":340}]}", -1, NULL));
  g_assert_true (g_file_set_contents (bad, "{\"models\": [{\"id\": 7}]}", -1, NULL));
  g_assert_true (g_file_set_contents (ignored, "not json", -1, NULL));

  g_assert_cmpuint (hr_catalog_load_user_dir (catalog, dir), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (hr_catalog_get_models (catalog)), ==,
                    n_models + 1);
  g_assert_cmpint (hr_model_spec_get_origin (hr_catalog_find_model (catalog, "me/tiny")), ==,
                   HR_ORIGIN_USER);
  hw = hr_catalog_find_hardware (catalog, "rtx-3060-12gb");
  g_assert_cmpstr (hr_hardware_get_name (hw), ==, "My 3060");
  problems = hr_catalog_get_problems (catalog);
  g_assert_nonnull (problems[0]);
  g_assert_nonnull (strstr (problems[0], "b-bad.json"));
  g_assert_nonnull (strstr (problems[0], "field “id” must be a string"));
  g_assert_null (problems[1]);

  /* a missing directory is simply empty */
  g_assert_cmpuint (hr_catalog_load_user_dir (catalog, "/nonexistent/headroom"), ==, 0);

  g_unlink (good);
  g_unlink (bad);
  g_unlink (ignored);
  g_rmdir (dir);
}

/* An entry written back and read again is the same entry. */
static void
test_round_trip (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  GListModel *models = hr_catalog_get_models (catalog);

  for (guint i = 0; i < g_list_model_get_n_items (models); i++)
    {
      g_autoptr(HrModelSpec) m = g_list_model_get_item (models, i);
      g_autoptr(JsonObject) json = hr_model_spec_to_json (m);
      g_autoptr(HrModelSpec) again = hr_model_spec_new_from_json (json, HR_ORIGIN_USER, NULL);

      g_assert_nonnull (again);
      g_assert_cmpmem (hr_model_spec_get_arch (m), sizeof (HrModelArch),
                       hr_model_spec_get_arch (again), sizeof (HrModelArch));
      g_assert_cmpstr (hr_model_spec_get_ollama_tag (m), ==,
                       hr_model_spec_get_ollama_tag (again));
    }
}

/* Files in the user directory that are anything but a valid catalog:
 * each is a problem naming it, none stops the catalog.  (Before, any of
 * them crashed the CLI and the window at start, and a FIFO hung them.) */
static void
test_hostile_user_dir (void)
{
  static const struct
  {
    const char *name;
    const char *contents;   /* NULL: made below */
    const char *says;
  } files[] = {
    { "imported-models.json", "{\"models\": [", "not valid JSON" },
    { "b-empty.json", "", "not valid JSON: the file is empty" },
    { "c-array.json", "[1]", "the top level must be an object" },
    { "d-deep.json", NULL, "nested more than 64 levels deep" },
    { "e-dir.json", NULL, "is a directory, not a file" },
    { "f-dangling.json", NULL, "a symbolic link to a file that does not exist" },
    { "g-loop.json", NULL, "too many levels of symbolic links" },
    { "h-fifo.json", NULL, "is a named pipe (FIFO), not a regular file" },
    { "i-escape.json", "{\"models\": [{\"id\": \"x\\u001b[2J\"}]}", "(“x\\x1b[2J”)" },
  };
  g_autofree char *dir = hr_test_make_temp_dir ("headroom-hostile");
  g_autofree char *good = g_build_filename (dir, "a-good.json", NULL);
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(GString) deep = g_string_new ("{\"models\": ");
  const char * const *problems;

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  g_assert_true (g_file_set_contents (good, "{\"models\": [{" GOOD_MODEL "}]}", -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i].name, NULL);

      if (files[i].contents != NULL)
        g_assert_true (g_file_set_contents (path, files[i].contents, -1, NULL));
    }
  {
    g_autofree char *path = g_build_filename (dir, "d-deep.json", NULL);
    g_autofree char *sub = g_build_filename (dir, "e-dir.json", NULL);
    g_autofree char *dangling = g_build_filename (dir, "f-dangling.json", NULL);
    g_autofree char *loop = g_build_filename (dir, "g-loop.json", NULL);
    g_autofree char *fifo = g_build_filename (dir, "h-fifo.json", NULL);

    g_assert_true (g_file_set_contents (path, deep->str, -1, NULL));
    g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
    g_assert_cmpint (symlink ("nowhere.json", dangling), ==, 0);
    g_assert_cmpint (symlink ("g-loop.json", loop), ==, 0);
    g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  }

  alarm (10);
  g_assert_cmpuint (hr_catalog_load_user_dir (catalog, dir), ==, 1);
  alarm (0);
  g_assert_nonnull (hr_catalog_find_model (catalog, "me/tiny"));
  g_assert_nonnull (hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"));

  problems = hr_catalog_get_problems (catalog);
  g_assert_cmpuint (g_strv_length ((char **) problems), ==, G_N_ELEMENTS (files));
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      const char *problem = NULL;

      for (guint k = 0; problems[k] != NULL; k++)
        if (strstr (problems[k], files[i].name) != NULL)
          problem = problems[k];
      if (problem == NULL || strstr (problem, files[i].says) == NULL)
        g_error ("no problem names %s and says “%s”", files[i].name, files[i].says);
      g_assert_true (g_utf8_validate (problem, -1, NULL));
      for (const char *p = problem; *p != '\0'; p++)
        g_assert_cmpint ((guchar) *p, >=, 0x20);
    }

  {
    g_autofree char *sub = g_build_filename (dir, "e-dir.json", NULL);

    g_rmdir (sub);
  }
  hr_test_remove_temp_dir (dir);
}

static HrModelSpec *
model_with_id (HrCatalog  *catalog,
               const char *id)
{
  g_autoptr(JsonObject) json = hr_model_spec_to_json (hr_catalog_find_model (catalog,
                                                                             "Qwen/Qwen3-8B"));
  g_autoptr(GError) error = NULL;
  HrModelSpec *model;

  json_object_set_string_member (json, "id", id);
  model = hr_model_spec_new_from_json (json, HR_ORIGIN_USER, &error);
  g_assert_no_error (error);
  return model;
}

static char *
find_broken (const char *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (handle)) != NULL)
    if (g_str_has_prefix (name, "imported-models.json.broken-"))
      return g_build_filename (dir, name, NULL);
  return NULL;
}

/* An imported-models.json that cannot be parsed is never overwritten: it
 * is moved aside as .broken-<date> and a new file started.  (Before, the
 * next import silently dropped everything imported earlier.) */
static void
test_import_over_broken_file (void)
{
  static const char * const broken[] = {
    "{\"models\": [",
    "[1]",
    "{\"models\": 7}",
    "{\"models\": [1]} {\"models\": [2]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (broken); i++)
    {
      g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
      g_autoptr(HrCatalog) reloaded = hr_test_builtin_catalog ();
      g_autoptr(HrModelSpec) model = model_with_id (catalog, "me/new");
      g_autofree char *dir = hr_test_make_temp_dir ("headroom-import");
      g_autofree char *path = g_build_filename (dir, "imported-models.json", NULL);
      g_autofree char *aside = NULL;
      g_autofree char *kept = NULL;
      g_autoptr(GError) error = NULL;

      g_test_message ("%s", broken[i]);
      g_assert_true (g_file_set_contents (path, broken[i], -1, NULL));
      g_assert_true (hr_catalog_import_model (catalog, model, dir, &error));
      g_assert_no_error (error);

      aside = find_broken (dir);
      g_assert_nonnull (aside);
      g_assert_true (g_file_get_contents (aside, &kept, NULL, NULL));
      g_assert_cmpstr (kept, ==, broken[i]);
      g_assert_true (hr_catalog_load_file (reloaded, path, &error));
      g_assert_nonnull (hr_catalog_find_model (reloaded, "me/new"));
      hr_test_remove_temp_dir (dir);
    }

  /* and the caller learns where it went */
  {
    g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
    g_autoptr(HrModelSpec) model = model_with_id (catalog, "me/new");
    g_autofree char *dir = hr_test_make_temp_dir ("headroom-import");
    g_autofree char *path = g_build_filename (dir, "imported-models.json", NULL);
    g_autofree char *kept_as = NULL;
    g_autofree char *aside = NULL;

    g_assert_true (g_file_set_contents (path, "{", -1, NULL));
    g_assert_true (hr_catalog_import_model_full (catalog, model, dir, &kept_as, NULL));
    aside = find_broken (dir);
    g_assert_cmpstr (kept_as, ==, aside);
    g_clear_pointer (&kept_as, g_free);
    g_assert_true (hr_catalog_import_model_full (catalog, model, dir, &kept_as, NULL));
    g_assert_null (kept_as);
    hr_test_remove_temp_dir (dir);
  }
}

/* Entries an import does not understand stay: a non-string id (it gave
 * a GLib-CRITICAL and the entry was deleted), a non-object entry, an
 * entry of another id.  The file keeps its mode and stays a symlink. */
static void
test_import_keeps_the_users_file (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrModelSpec) model = model_with_id (catalog, "me/new");
  g_autofree char *dir = hr_test_make_temp_dir ("headroom-import");
  g_autofree char *real = g_build_filename (dir, "real.json.kept", NULL);
  g_autofree char *path = g_build_filename (dir, "imported-models.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *models;
  GStatBuf st;

  g_assert_true (g_file_set_contents (real, "{\"models\": [{\"id\": 7, \"name\": \"mine\"}, "
                                      "\"a note\", {\"id\": \"me/other\"}]}", -1, NULL));
  g_assert_cmpint (g_chmod (real, 0600), ==, 0);
  g_assert_cmpint (symlink ("real.json.kept", path), ==, 0);

  g_assert_true (hr_catalog_import_model (catalog, model, dir, &error));
  g_assert_no_error (error);

  g_assert_true (g_file_test (path, G_FILE_TEST_IS_SYMLINK));
  g_assert_cmpint (g_stat (real, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_null (find_broken (dir));

  g_assert_true (g_file_get_contents (real, &text, NULL, NULL));
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  models = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                         "models");
  g_assert_cmpuint (json_array_get_length (models), ==, 4);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (models, 0), "id"),
                   ==, 7);
  g_assert_cmpstr (json_array_get_string_element (models, 1), ==, "a note");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (models, 3),
                                                  "id"), ==, "me/new");
  g_unlink (path);
  hr_test_remove_temp_dir (dir);
}

/* A full disk during an import: the old file is whole, the catalog
 * unchanged.  A list that is a directory is refused, not replaced. */
static void
test_import_failures (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrModelSpec) model = model_with_id (catalog, "me/new");
  g_autofree char *dir = hr_test_make_temp_dir ("headroom-import");
  g_autofree char *path = g_build_filename (dir, "imported-models.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  guint n = g_list_model_get_n_items (hr_catalog_get_models (catalog));
  const char *old = "{\"models\": [{\"id\": \"me/old\"}]}";

  g_assert_true (g_file_set_contents (path, old, -1, NULL));
  hr_file_fail_next_write (HR_FILE_STEP_WRITE, ENOSPC);
  g_assert_false (hr_catalog_import_model (catalog, model, dir, &error));
  g_assert_nonnull (strstr (error->message, "no space left"));
  g_assert_nonnull (strstr (error->message, path));
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, old);
  g_assert_null (hr_catalog_find_model (catalog, "me/new"));
  g_assert_cmpuint (g_list_model_get_n_items (hr_catalog_get_models (catalog)), ==, n);
  g_clear_error (&error);
  g_unlink (path);

  g_assert_cmpint (g_mkdir (path, 0755), ==, 0);
  g_assert_false (hr_catalog_import_model (catalog, model, dir, &error));
  g_assert_nonnull (strstr (error->message, "is a directory"));
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_DIR));
  g_assert_null (find_broken (dir));
  g_rmdir (path);
  hr_test_remove_temp_dir (dir);
}

/* An imported model can be removed: from the catalog and from the file,
 * written whole; the other entries stay; a reload does not bring it
 * back.  Built-in models cannot be removed, nor anything from a file
 * that cannot be parsed. */
static void
test_remove_imported (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrModelSpec) model = model_with_id (catalog, "me/new");
  g_autoptr(HrModelSpec) other = model_with_id (catalog, "me/other");
  g_autofree char *dir = hr_test_make_temp_dir ("headroom-import");
  g_autofree char *path = g_build_filename (dir, "imported-models.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_catalog_import_model (catalog, model, dir, &error));
  g_assert_true (hr_catalog_import_model (catalog, other, dir, &error));
  g_assert_no_error (error);
  g_assert_true (hr_catalog_is_imported_model (catalog, "me/new"));
  g_assert_true (hr_catalog_is_imported_model (catalog, "ME/NEW"));
  g_assert_false (hr_catalog_is_imported_model (catalog, "THUDM/GLM-4-9B-0414"));

  /* a reload knows which models came from the imports */
  {
    g_autoptr(HrCatalog) reloaded = hr_test_builtin_catalog ();

    hr_catalog_load_user_dir (reloaded, dir);
    g_assert_true (hr_catalog_is_imported_model (reloaded, "me/new"));
    g_assert_true (hr_catalog_is_imported_model (reloaded, "me/other"));
  }

  g_assert_true (hr_catalog_remove_imported_model (catalog, "me/new", dir, &error));
  g_assert_no_error (error);
  g_assert_null (hr_catalog_find_model (catalog, "me/new"));
  g_assert_false (hr_catalog_is_imported_model (catalog, "me/new"));
  g_assert_nonnull (hr_catalog_find_model (catalog, "me/other"));
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_null (strstr (text, "me/new"));
  g_assert_nonnull (strstr (text, "me/other"));
  {
    g_autoptr(HrCatalog) reloaded = hr_test_builtin_catalog ();

    hr_catalog_load_user_dir (reloaded, dir);
    g_assert_null (hr_catalog_find_model (reloaded, "me/new"));
    g_assert_nonnull (hr_catalog_find_model (reloaded, "me/other"));
  }

  /* an import over a built-in model gives the built-in one back */
  {
    g_autoptr(HrModelSpec) over = model_with_id (catalog, "THUDM/GLM-4-9B-0414");
    HrModelSpec *builtin = hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414");
    g_autofree char *name = g_strdup (hr_model_spec_get_name (builtin));

    g_assert_true (hr_catalog_import_model (catalog, over, dir, &error));
    g_assert_true (hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414") == over);
    g_assert_true (hr_catalog_remove_imported_model (catalog, "THUDM/GLM-4-9B-0414", dir,
                                                     &error));
    g_assert_no_error (error);
    builtin = hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414");
    g_assert_nonnull (builtin);
    g_assert_true (builtin != over);
    g_assert_cmpint (hr_model_spec_get_origin (builtin), ==, HR_ORIGIN_BUILTIN);
    g_assert_cmpstr (hr_model_spec_get_name (builtin), ==, name);
  }

  /* a built-in model is not the user's to remove */
  g_assert_false (hr_catalog_remove_imported_model (catalog, "THUDM/GLM-4-9B-0414", dir,
                                                    &error));
  g_assert_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_nonnull (hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"));

  /* a file broken since is refused and left as it is */
  g_assert_true (g_file_set_contents (path, "{ not json", -1, NULL));
  g_assert_false (hr_catalog_remove_imported_model (catalog, "me/other", dir, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_clear_pointer (&text, g_free);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "{ not json");
  g_assert_nonnull (hr_catalog_find_model (catalog, "me/other"));

  g_unlink (path);
  hr_test_remove_temp_dir (dir);
}

/* A tier ladder of the wrong type raised a Json-CRITICAL (fatal here:
 * the tests run with G_DEBUG=fatal-criticals), and one reported as
 * rejected still replaced the built-in ladder: every Matrix tier showed
 * "—".  Each is one problem now, and the built-in ladder stays. */
static void
test_tier_ladder_types (void)
{
  static const char * const ladders[] = {
    "5", "\"x\"", "[[]]", "[{}]", "[]", "{}", "null", "[null]",
    "[\"rtx-3090-24gb\", 3]", "[\"rtx-3090-24gb\", \"no-such-device\"]",
  };

  for (guint i = 0; i < G_N_ELEMENTS (ladders); i++)
    {
      g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
      GPtrArray *ladder = hr_catalog_get_tier_ladder (catalog);
      /* the built-in rungs, borrowed from the catalog */
      g_autoptr(GPtrArray) before = g_ptr_array_new ();
      g_autofree char *json = g_strdup_printf ("{\"tier_ladder\": %s}", ladders[i]);
      g_autoptr(GError) error = NULL;
      GPtrArray *after;
      const char * const *problems;

      for (guint k = 0; k < ladder->len; k++)
        g_ptr_array_add (before, ladder->pdata[k]);
      g_test_message ("tier_ladder %s", ladders[i]);
      g_assert_false (hr_catalog_load_data (catalog, json, -1, "mine.json", HR_ORIGIN_USER,
                                            &error));
      g_assert_nonnull (strstr (error->message, "mine.json: "));
      g_assert_nonnull (strstr (error->message, "tier_ladder"));
      problems = hr_catalog_get_problems (catalog);
      g_assert_cmpuint (g_strv_length ((char **) problems), ==, 1);

      after = hr_catalog_get_tier_ladder (catalog);
      g_assert_cmpuint (after->len, ==, before->len);
      for (guint k = 0; k < before->len; k++)
        g_assert_true (after->pdata[k] == before->pdata[k]);
    }

  /* a valid one still replaces it */
  {
    g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();

    g_assert_true (hr_catalog_load_data (catalog, "{\"tier_ladder\": [\"rtx-3090-24gb\"]}",
                                         -1, "mine.json", HR_ORIGIN_USER, NULL));
    g_assert_cmpuint (hr_catalog_get_tier_ladder (catalog)->len, ==, 1);
  }
}

/* A file of 21,000 bad entries printed 21,000 warnings (one of 16 MiB,
 * 5.6 million): a file is one problem line, the first problem and a
 * count, and its valid entries still load. */
static void
test_one_problem_per_file (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(GString) json = g_string_new ("{\"models\": [42");
  g_autoptr(GError) error = NULL;
  const char * const *problems;

  for (guint i = 1; i < 21000; i++)
    g_string_append (json, ", {}");
  g_string_append (json, ", {" GOOD_MODEL "}], \"hardware\": 7, \"tier_ladder\": 5}");

  g_assert_false (hr_catalog_load_data (catalog, json->str, json->len, "many.json",
                                        HR_ORIGIN_USER, &error));
  /* the error is the first problem */
  g_assert_cmpstr (error->message, ==, "many.json: models[0]: entry is not an object");
  problems = hr_catalog_get_problems (catalog);
  g_assert_cmpuint (g_strv_length ((char **) problems), ==, 1);
  g_assert_cmpstr (problems[0], ==,
                   "many.json: 21000 entries rejected and 2 other problems; "
                   "the first: models[0]: entry is not an object");
  g_assert_nonnull (hr_catalog_find_model (catalog, "me/tiny"));

  /* a second file is a second line; one problem is just that problem */
  g_assert_false (hr_catalog_load_data (catalog, "{\"models\": [{}, {}]}", -1, "two.json",
                                        HR_ORIGIN_USER, NULL));
  g_assert_false (hr_catalog_load_data (catalog, "{\"models\": [{}]}", -1, "one.json",
                                        HR_ORIGIN_USER, NULL));
  problems = hr_catalog_get_problems (catalog);
  g_assert_cmpuint (g_strv_length ((char **) problems), ==, 3);
  g_assert_cmpstr (problems[1], ==,
                   "two.json: 2 entries rejected; the first: models[0]: field “id” is missing");
  g_assert_cmpstr (problems[2], ==, "one.json: models[0]: field “id” is missing");
}

/* Lookups go through an index of positions: it follows replacements and
 * removals (the entries after a removed one move up). */
static void
test_index_follows_changes (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autofree char *dir = hr_test_make_temp_dir ("headroom-index");
  GListModel *hardware = hr_catalog_get_hardware (catalog);
  guint n = g_list_model_get_n_items (hardware);
  const char *names[] = { "One", "Two", "Three" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      HrHardwareFields values = { 0 };
      g_autofree char *id = hr_catalog_dup_custom_hardware_id (catalog, names[i]);
      g_autoptr(HrHardware) hw = NULL;

      values.id = id;
      values.name = names[i];
      values.vendor = "NVIDIA";
      values.kind = HR_DEVICE_DISCRETE;
      values.memory_gib = 8;
      values.bandwidth_gbps = 100;
      values.custom = TRUE;
      hw = hr_hardware_new_from_fields (&values, NULL);
      g_assert_nonnull (hw);
      g_assert_true (hr_catalog_save_custom_hardware (catalog, hw, dir, NULL));
    }
  g_assert_cmpuint (g_list_model_get_n_items (hardware), ==, n + 3);

  g_assert_true (hr_catalog_remove_custom_hardware (catalog, "custom-one", dir, NULL));
  g_assert_null (hr_catalog_find_hardware (catalog, "custom-one"));
  g_assert_cmpstr (hr_hardware_get_name (hr_catalog_find_hardware (catalog, "CUSTOM-TWO")), ==,
                   "Two");
  g_assert_cmpstr (hr_hardware_get_name (hr_catalog_find_hardware (catalog, "custom-three")),
                   ==, "Three");
  g_assert_true (hr_catalog_remove_custom_hardware (catalog, "custom-three", dir, NULL));
  g_assert_cmpstr (hr_hardware_get_name (hr_catalog_find_hardware (catalog, "custom-two")), ==,
                   "Two");
  g_assert_cmpuint (g_list_model_get_n_items (hardware), ==, n + 1);
  hr_test_remove_temp_dir (dir);
}

/* Issue 31: the CPU catalog (resources/catalog/cpus.json): every entry
 * sourced; cores × base clock × FP32 FLOPs a cycle and channels × 8 B ×
 * transfers, checked against the vendors' figures; a detected name finds
 * its entry, a longer model number does not. */
static void
test_cpus (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  GListModel *cpus = hr_catalog_get_cpus (catalog);
  HrCpu *ryzen = hr_catalog_find_cpu (catalog, "amd-ryzen-9-7950x");
  HrCpu *intel = hr_catalog_find_cpu (catalog, "intel-core-i9-14900k");
  HrCpu *epyc = hr_catalog_find_cpu (catalog, "amd-epyc-9654");
  g_autoptr(HrCpu) local = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (cpus), >=, 20);
  for (guint i = 0; i < g_list_model_get_n_items (cpus); i++)
    {
      g_autoptr(HrCpu) cpu = g_list_model_get_item (cpus, i);

      g_assert_true (strlen (hr_cpu_get_source (cpu)) > 20);
      g_assert_cmpfloat (hr_cpu_get_matrix_flops (cpu), >, 0.3e12);
      g_assert_cmpfloat (hr_cpu_get_bandwidth_gbps (cpu), >=, 40);
    }
  g_assert_nonnull (ryzen);
  /* 16 cores × 4.5 GHz × 32; two channels of DDR5-5200 */
  assert_close (hr_cpu_get_peak_flops (ryzen), 16 * 4.5e9 * 32, 1);
  assert_close (hr_cpu_get_bandwidth_gbps (ryzen), 83.2, 1e-9);
  /* 8 P-cores × 3.2 GHz × 32 + 16 E-cores × 2.4 GHz × 16 */
  g_assert_nonnull (intel);
  g_assert_cmpuint (hr_cpu_get_cores (intel), ==, 24);
  assert_close (hr_cpu_get_peak_flops (intel), 8 * 3.2e9 * 32 + 16 * 2.4e9 * 16, 1);
  /* twelve channels of DDR5-4800 */
  assert_close (hr_cpu_get_bandwidth_gbps (epyc), 460.8, 1e-9);

  g_assert_true (hr_cpu_find_by_name (cpus, "AMD Ryzen 9 7950X 16-Core Processor") == ryzen);
  g_assert_true (hr_cpu_find_by_name (cpus, "Intel(R) Core(TM) i9-14900K") == intel);
  g_assert_true (hr_cpu_find_by_name (cpus, "AMD EPYC 9654 96-Core Processor") == epyc);
  g_assert_null (hr_cpu_find_by_name (cpus, "AMD Ryzen 9 7950X3D 16-Core Processor"));
  g_assert_null (hr_cpu_find_by_name (cpus, NULL));

  /* not in the catalog: its cores, 32 FLOPs a cycle with AVX2, the
   * assumed clock, the RAM as detected */
  local = hr_cpu_new_detected ("Some CPU", 12, HR_CPU_FLOPS_PER_CYCLE_AVX2, 0, 64.0);
  assert_close (hr_cpu_get_peak_flops (local), 12 * HR_CPU_UNKNOWN_BASE_GHZ * 1e9 * 32, 1);
  assert_close (hr_cpu_get_bandwidth_gbps (local), 64.0, 1e-9);
  g_assert_cmpstr (hr_cpu_get_id (local), ==, "local");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/catalog/builtin-counts", test_builtin_counts);
  g_test_add_func ("/catalog/precisions-sorted", test_precisions_sorted);
  g_test_add_func ("/catalog/cli-ids", test_cli_ids);
  g_test_add_func ("/catalog/newest-releases", test_newest_releases);
  g_test_add_func ("/catalog/glm-as-seed", test_glm_as_seed);
  g_test_add_func ("/catalog/every-builtin-valid", test_every_builtin_valid);
  g_test_add_func ("/catalog/distributions", test_distributions);
  g_test_add_func ("/catalog/gguf-repositories", test_gguf_repositories);
  g_test_add_func ("/catalog/malformed-user-files", test_malformed_user_files);
  g_test_add_func ("/catalog/user-dir", test_user_dir);
  g_test_add_func ("/catalog/round-trip", test_round_trip);
  g_test_add_func ("/catalog/hostile-user-dir", test_hostile_user_dir);
  g_test_add_func ("/catalog/import-over-broken-file", test_import_over_broken_file);
  g_test_add_func ("/catalog/import-keeps-the-users-file", test_import_keeps_the_users_file);
  g_test_add_func ("/catalog/import-failures", test_import_failures);
  g_test_add_func ("/catalog/remove-imported", test_remove_imported);
  g_test_add_func ("/catalog/tier-ladder-types", test_tier_ladder_types);
  g_test_add_func ("/catalog/one-problem-per-file", test_one_problem_per_file);
  g_test_add_func ("/catalog/index-follows-changes", test_index_follows_changes);

  g_test_add_func ("/catalog/cpus", test_cpus);

  return g_test_run ();
}
