/* test-json-load.c — the limits every JSON document is read with
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * hr-json-load counts a document's nodes before json-glib builds a tree:
 * a 16 MiB config.json of "{}," took 25 s and 1.6 GB to refuse.  Each
 * refusal names the file and the limit it hit.
 */

#include "config.h"

#include <string.h>

#include "hr-catalog-json.h"
#include "hr-json-load.h"
#include "hr-text.h"

static void
assert_refused_by (JsonNode   *root,
                   GError     *error,
                   const char *fragment)
{
  g_assert_null (root);
  g_assert_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID);
  if (!g_str_has_prefix (error->message, "test.json: ") ||
      strstr (error->message, fragment) == NULL)
    g_error ("“%s” should start with the file and say “%s”", error->message, fragment);
  g_assert_true (hr_text_is_displayable (error->message, -1));
}

/* What a node is: a value or a member name 1, an object 4. */
static void
test_counting (void)
{
  /* object 4 + "a" 1 + array 1 + two numbers 2 = 8 */
  static const char doc[] = "{\"a\": [1, 2]}";
  HrJsonLimits limits = { "a test file", 1024, 8, 8 };
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) refused = NULL;
  g_autoptr(GError) error = NULL;

  root = hr_json_load_limited (&limits, doc, strlen (doc), "test.json", &error);
  g_assert_no_error (error);
  g_assert_nonnull (root);

  limits.max_nodes = 7;
  refused = hr_json_load_limited (&limits, doc, strlen (doc), "test.json", &error);
  assert_refused_by (refused, error, "more than 7 values and member names "
                                     "(the node limit for a test file)");
}

static void
test_size (void)
{
  static const char doc[] = "[1, 2, 3]";
  HrJsonLimits limits = { "a test file", 8, 8, 100 };
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = hr_json_load_limited (&limits, doc, strlen (doc), "test.json",
                                                   &error);

  assert_refused_by (root, error, "9 bytes is more than 8 bytes (the size limit for a test file)");
}

/* Each kind's depth: a config.json 32 levels, a catalog 64. */
static void
test_depth_by_kind (void)
{
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) config = NULL;
  g_autoptr(JsonNode) catalog = NULL;

  for (guint i = 0; i < 33; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 33; i++)
    g_string_append_c (deep, ']');
  config = hr_json_load_kind_data (HR_JSON_KIND_CONFIG, deep->str, deep->len, "test.json",
                                   &error);
  assert_refused_by (config, error, "nested more than 32 levels deep "
                                    "(the depth limit for a config.json)");
  g_clear_error (&error);
  catalog = hr_json_load_kind_data (HR_JSON_KIND_CATALOG, deep->str, deep->len, "test.json",
                                    &error);
  g_assert_no_error (error);
  g_assert_nonnull (catalog);

  for (guint kind = HR_JSON_KIND_CATALOG; kind <= HR_JSON_KIND_OLLAMA_MANIFEST; kind++)
    {
      const HrJsonLimits *limits = hr_json_kind_get_limits (kind);

      g_assert_cmpuint (limits->max_depth, <=, HR_JSON_MAX_DEPTH);
      g_assert_cmpuint (limits->max_depth, >=, 8);
      g_assert_cmpuint (limits->max_nodes, >=, 1000);
      g_assert_cmpuint (limits->max_bytes, >=, 64 * 1024);
    }
}

/* 16 MiB of small objects in a config.json: refused by the scan, in far
 * less than the 25 s json-glib took to build it. */
static void
test_many_small_objects (void)
{
  const gsize size = 16 * 1024 * 1024;
  g_autofree char *doc = g_malloc (size);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  gint64 start;

  doc[0] = '[';
  for (gsize i = 1; i + 3 < size; i += 3)
    memcpy (doc + i, "{},", 3);
  memset (doc + size - 3, ' ', 2);
  doc[size - 4] = '}';
  doc[size - 1] = ']';
  g_assert_true (hr_json_kind_get_limits (HR_JSON_KIND_CONFIG)->max_bytes >= size);

  start = g_get_monotonic_time ();
  root = hr_json_load_kind_data (HR_JSON_KIND_CONFIG, doc, size, "test.json", &error);
  assert_refused_by (root, error, "(the node limit for a config.json)");
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC / 2);
}

/* A safetensors header of 10^5 tensors (a trillion parameters in one
 * file) is inside the budget: 15 nodes a tensor, as 10^4 of them show
 * (json-glib would take seconds over 10^5 here). */
static void
test_real_sizes (void)
{
  g_autoptr(GString) header = g_string_new ("{\"__metadata__\": {\"format\": \"pt\"}");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;

  HrJsonLimits limits = *hr_json_kind_get_limits (HR_JSON_KIND_SAFETENSORS_HEADER);

  /* the root object 4, the metadata 7, 10^4 tensors; then one less */
  limits.max_nodes = 4 + 7 + 10000 * 15;
  g_assert_cmpuint (4 + 7 + 100000 * 15, <=,
                    hr_json_kind_get_limits (HR_JSON_KIND_SAFETENSORS_HEADER)->max_nodes);
  for (guint i = 0; i < 10000; i++)
    g_string_append_printf (header, ", \"model.layers.%u.mlp.experts.%u.down_proj.weight\": "
                            "{\"dtype\": \"BF16\", \"shape\": [7168, 2048], "
                            "\"data_offsets\": [%u, %u]}", i / 384, i % 384, i, i + 1);
  g_string_append_c (header, '}');
  /* ~130 bytes a tensor: 10^5 of them fit the size limit too */
  g_assert_cmpuint (header->len * 10, <=, limits.max_bytes);
  root = hr_json_load_limited (&limits, header->str, header->len, "test.json", &error);
  g_assert_no_error (error);
  g_assert_nonnull (root);
  g_clear_pointer (&root, json_node_unref);
  limits.max_nodes--;
  root = hr_json_load_limited (&limits, header->str, header->len, "test.json", &error);
  assert_refused_by (root, error, "(the node limit for a safetensors header)");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json-load/counting", test_counting);
  g_test_add_func ("/json-load/size", test_size);
  g_test_add_func ("/json-load/depth-by-kind", test_depth_by_kind);
  g_test_add_func ("/json-load/many-small-objects", test_many_small_objects);
  g_test_add_func ("/json-load/real-sizes", test_real_sizes);
  return g_test_run ();
}
