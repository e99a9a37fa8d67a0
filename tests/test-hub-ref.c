/* test-hub-ref.c — hub references and quantization names (hr-hub); the
 * fetching itself is test-hub.py, against a server on the loopback
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "hr-hub.h"

static void
test_parse (void)
{
  static const struct
  {
    const char *text;
    const char *repo;      /* NULL: not a hub reference */
    const char *revision;
    const char *file;
  } cases[] = {
    { "Qwen/Qwen3-8B", "Qwen/Qwen3-8B", "main", NULL },
    { "Qwen/Qwen3-8B@v1.0", "Qwen/Qwen3-8B", "v1.0", NULL },
    { "hf:unsloth/Qwen3-8B-GGUF:Qwen3-8B-Q4_K_M.gguf", "unsloth/Qwen3-8B-GGUF", "main",
      "Qwen3-8B-Q4_K_M.gguf" },
    { "hf:unsloth/Qwen3-8B-GGUF@abc123:Q8_0/Qwen3-8B-Q8_0-00001-of-00002.gguf",
      "unsloth/Qwen3-8B-GGUF", "abc123", "Q8_0/Qwen3-8B-Q8_0-00001-of-00002.gguf" },
    { "https://huggingface.co/Qwen/Qwen3-8B", "Qwen/Qwen3-8B", "main", NULL },
    { "https://huggingface.co/Qwen/Qwen3-8B/", "Qwen/Qwen3-8B", "main", NULL },
    { "https://huggingface.co/Qwen/Qwen3-8B/tree/dev", "Qwen/Qwen3-8B", "dev", NULL },
    { "https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json", "Qwen/Qwen3-8B", "main", NULL },
    { "https://huggingface.co/unsloth/Qwen3-8B-GGUF/resolve/main/Qwen3-8B-Q4_K_M.gguf",
      "unsloth/Qwen3-8B-GGUF", "main", "Qwen3-8B-Q4_K_M.gguf" },
    { "Qwen3-8B", NULL, NULL, NULL },
    { "a/b/c", NULL, NULL, NULL },
    { "../etc", NULL, NULL, NULL },
    { "org/..", NULL, NULL, NULL },
    { "org/name@../../x", NULL, NULL, NULL },
    { "hf:org/name:../../x.gguf", NULL, NULL, NULL },
    { "hf:org/name:config.json", NULL, NULL, NULL },
    { "https://example.com/org/name", NULL, NULL, NULL },
    { "org/na me", NULL, NULL, NULL },
    { "/org/name", NULL, NULL, NULL },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(HrHubRef) ref = { NULL };
      gboolean parsed = hr_hub_ref_parse (cases[i].text, &ref);

      g_test_message ("%s", cases[i].text);
      g_assert_cmpint (parsed, ==, cases[i].repo != NULL);
      if (!parsed)
        continue;
      g_assert_cmpstr (ref.repo, ==, cases[i].repo);
      g_assert_cmpstr (ref.revision, ==, cases[i].revision);
      g_assert_cmpstr (ref.file, ==, cases[i].file);
    }
}

static void
test_endpoint_and_cache (void)
{
  g_auto(HrHubRef) ref = { NULL };
  g_autofree char *endpoint = NULL;
  g_autofree char *cache = NULL;
  g_autofree char *expected = NULL;

  g_setenv ("HF_ENDPOINT", "http://127.0.0.1:8080//", TRUE);
  endpoint = hr_hub_endpoint ();
  g_assert_cmpstr (endpoint, ==, "http://127.0.0.1:8080");
  g_unsetenv ("HF_ENDPOINT");
  g_free (endpoint);
  endpoint = hr_hub_endpoint ();
  g_assert_cmpstr (endpoint, ==, "https://huggingface.co");

  g_assert_true (hr_hub_ref_parse ("Qwen/Qwen3-8B@v2", &ref));
  cache = hr_hub_cache_dir (&ref);
  expected = g_build_filename (g_get_user_cache_dir (), "headroom", "hub", "Qwen", "Qwen3-8B",
                               "v2", NULL);
  g_assert_cmpstr (cache, ==, expected);
}

static void
test_quantization (void)
{
  static const struct { const char *name, *quant; } cases[] = {
    { "Qwen2.5-7B-Instruct-Q4_K_M.gguf", "Q4_K_M" },
    { "Qwen2.5-7B-Instruct-q8_0.gguf", "Q8_0" },
    { "gpt-oss-20b-MXFP4.gguf", "MXFP4" },
    { "Llama-3.1-8B-Instruct-IQ4_XS.gguf", "IQ4_XS" },
    { "BF16/Qwen3-8B-BF16-00001-of-00002.gguf", "BF16" },
    { "Qwen3-8B-UD-Q2_K_XL.gguf", "Q2_K_XL" },   /* Unsloth's dynamic Q2_K */
    { "model.gguf", NULL },
    { "Qwen3-8B-Q3_K_S.gguf", "Q3_K_S" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *quant = hr_hub_quantization_from_name (cases[i].name);

      g_assert_cmpstr (quant, ==, cases[i].quant);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/hub/parse", test_parse);
  g_test_add_func ("/hub/endpoint-and-cache", test_endpoint_and_cache);
  g_test_add_func ("/hub/quantization", test_quantization);

  return g_test_run ();
}
