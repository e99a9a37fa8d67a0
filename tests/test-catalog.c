/* test-catalog.c — the built-in catalog is complete and valid; user files
 * with mistakes give precise errors and never break it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "hr-distributions.h"
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

/* The ids CLI.md promises. */
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

/* SEED-SPEC.md, "The model". */
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
              if (m == 0)
                g_assert_cmpstr (kind, !=, "safetensors");
              else
                g_assert_cmpstr (kind, ==, "safetensors");
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/catalog/builtin-counts", test_builtin_counts);
  g_test_add_func ("/catalog/cli-ids", test_cli_ids);
  g_test_add_func ("/catalog/glm-as-seed", test_glm_as_seed);
  g_test_add_func ("/catalog/every-builtin-valid", test_every_builtin_valid);
  g_test_add_func ("/catalog/distributions", test_distributions);
  g_test_add_func ("/catalog/malformed-user-files", test_malformed_user_files);
  g_test_add_func ("/catalog/user-dir", test_user_dir);
  g_test_add_func ("/catalog/round-trip", test_round_trip);

  return g_test_run ();
}
