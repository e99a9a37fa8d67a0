/* test-model-shape.c — one writer from a model file's shape to a model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both importers fill an HrModelShape and the catalog makes the model of
 * it (hr_model_spec_new_from_shape()) without JSON.  Checked here: the
 * model made directly is the one its own catalog entry reads back to, for
 * every config.json fixture (tests/data/hf) and every header
 * test-gguf-model's writers saved (tests/fuzz/corpus-gguf-model); the
 * writer's checks say what hr_model_spec_new_from_json() says; and an
 * import reads and writes no JSON entry.
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "hr-catalog-json.h"
#include "hr-gguf-model.h"
#include "hr-hf-config.h"
#include "hr-model-import.h"
#include "hr-model-spec.h"
#include "hr-test-util.h"

/* The GGUF seeds are headers only; their tensors lie in a claimed rest of
 * this size, as the fuzz target reads them. */
#define CLAIMED_TAIL (G_GUINT64_CONSTANT (1) << 34)

/* Seeds of corpus-gguf-model that make a model (of 25): the others are
 * the error cases' files (no architecture, no tensors, unsupported,
 * forged; kv3.gguf reads but the catalog refuses its heads). */
#define GGUF_SEEDS_THAT_MAP 13

/* Fixtures in tests/data/hf: one per model of the built-in catalog (99),
 * and in hf/aliases one per model_type read as another's (10). */
#define HF_FIXTURES 109

static char *
data_path (const char *first,
           const char *second)
{
  return g_test_build_filename (G_TEST_DIST, first, second, NULL);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* Sorted, so that a failure names the same file on every run. */
static GPtrArray *
list_dir (const char *dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) d = g_dir_open (dir, 0, &error);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  return names;
}

/* ------------------------------------------------------------ round trip */

/* Every config.json of @dir; returns how many. */
static guint
round_trip_hf_dir (const char *dir)
{
  g_autoptr(GPtrArray) names = list_dir (dir);
  guint n = 0;

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_auto(HrModelShape) shape = { NULL };
      g_autoptr(HrModelSpec) direct = NULL;
      g_autoptr(HrModelSpec) imported = NULL;
      g_autoptr(GError) error = NULL;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      g_test_message ("%s", name);
      hr_hf_config_read_file (path, &shape, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (shape.source, ==, path);
      direct = hr_model_spec_new_from_shape (&shape, HR_ORIGIN_USER, &error);
      g_assert_no_error (error);
      hr_test_assert_round_trip (direct);

      /* The importer is that writer, nothing more. */
      imported = hr_model_import_hf_config (path, &error);
      g_assert_no_error (error);
      hr_test_assert_same_model (direct, imported);
      n++;
    }
  return n;
}

static void
test_round_trip_hf (void)
{
  g_autofree char *dir = data_path ("data", "hf");
  g_autofree char *aliases = g_build_filename (dir, "aliases", NULL);
  guint n;

  n = round_trip_hf_dir (dir);
  n += round_trip_hf_dir (aliases);
  g_assert_cmpuint (n, ==, HF_FIXTURES);
}

static void
test_round_trip_gguf (void)
{
  g_autofree char *dir = data_path ("fuzz", "corpus-gguf-model");
  g_autoptr(GPtrArray) names = list_dir (dir);
  guint mapped = 0;

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *data = NULL;
      g_auto(HrModelShape) shape = { NULL };
      g_autoptr(HrGguf) gguf = NULL;
      g_autoptr(HrModelSpec) direct = NULL;
      g_autoptr(GError) error = NULL;
      gsize size = 0;

      g_file_get_contents (path, &data, &size, &error);
      g_assert_no_error (error);
      gguf = hr_gguf_parse ((const guint8 *) data, size, size + CLAIMED_TAIL, &error);
      if (gguf == NULL || !hr_gguf_model_read_shape (gguf, name, &shape, &error))
        {
          g_test_message ("%s: not a model (%s)", name, error->message);
          continue;
        }
      direct = hr_model_spec_new_from_shape (&shape, HR_ORIGIN_USER, &error);
      if (direct == NULL)
        {
          g_test_message ("%s: refused (%s)", name, error->message);
          continue;
        }

      g_test_message ("%s", name);
      /* A GGUF model carries the file's facts through the round trip. */
      g_assert_nonnull (hr_model_spec_get_weights_by_type (direct));
      g_assert_cmpuint (hr_model_spec_get_file_weights_bytes (direct), >, 0);
      g_assert_cmpstr (hr_model_spec_get_file_path (direct), ==, name);
      hr_test_assert_round_trip (direct);
      mapped++;
    }
  g_assert_cmpuint (mapped, ==, GGUF_SEEDS_THAT_MAP);
}

/* ----------------------------------------------------------- no JSON */

/* A seed header as a whole file: the header, then its tensors' room
 * (sparse). */
static char *
write_gguf (const char *dir,
            const char *seed)
{
  g_autofree char *from = data_path ("fuzz", "corpus-gguf-model");
  g_autofree char *seed_path = g_build_filename (from, seed, NULL);
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, seed, NULL);
  gsize size = 0;

  g_file_get_contents (seed_path, &data, &size, &error);
  g_assert_no_error (error);
  g_file_set_contents (path, data, (gssize) size, &error);
  g_assert_no_error (error);
  if (truncate (path, (off_t) (size + CLAIMED_TAIL)) != 0)
    g_error ("truncate %s: %s", path, g_strerror (errno));
  return path;
}

static void
assert_no_json (const char *path)
{
  g_autoptr(HrModelSpec) model = NULL;
  g_autoptr(GError) error = NULL;
  guint reads, writes, reads_after, writes_after;

  hr_model_spec_count_json (&reads, &writes);
  model = hr_model_import_file (path, &error);
  hr_model_spec_count_json (&reads_after, &writes_after);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  g_assert_cmpuint (reads_after, ==, reads);
  g_assert_cmpuint (writes_after, ==, writes);
}

static void
test_no_json (void)
{
  g_autofree char *dir = hr_test_make_temp_dir ("test-model-shape");
  g_autofree char *config = data_path ("data", "hf");
  g_autofree char *llama = NULL;
  g_autofree char *gguf = write_gguf (dir, "tiny-llama-Q4_K_M.gguf");
  g_autoptr(HrModelSpec) model = NULL;
  g_autoptr(HrModelSpec) again = NULL;
  g_autoptr(JsonObject) entry = NULL;
  guint reads, writes, reads_after, writes_after;

  llama = g_build_filename (config, "meta-llama--Llama-3.1-8B-Instruct.json", NULL);
  assert_no_json (llama);
  assert_no_json (gguf);

  /* The counters do count: saving and reading back is one of each. */
  model = hr_model_import_file (gguf, NULL);
  g_assert_nonnull (model);
  hr_model_spec_count_json (&reads, &writes);
  entry = hr_model_spec_to_json (model);
  again = hr_model_spec_new_from_json (entry, HR_ORIGIN_USER, NULL);
  g_assert_nonnull (again);
  hr_model_spec_count_json (&reads_after, &writes_after);
  g_assert_cmpuint (reads_after, ==, reads + 1);
  g_assert_cmpuint (writes_after, ==, writes + 1);

  hr_test_remove_temp_dir (dir);
}

/* -------------------------------------------------------------- checks */

/* A small valid shape: Llama-like, grouped-query attention. */
static void
small_shape (HrModelShape *shape)
{
  hr_model_shape_init (shape);
  shape->id = g_strdup ("acme/tiny");
  shape->name = g_strdup ("tiny");
  shape->family = g_strdup ("llama");
  shape->architecture = g_strdup ("llama");
  shape->license = g_strdup ("unknown");
  shape->release = g_strdup ("unknown");
  shape->arch.attention = HR_ATTENTION_GQA;
  shape->arch.n_layers = 4;
  shape->arch.hidden = 1024;
  shape->arch.n_heads = 16;
  shape->arch.n_kv_heads = 4;
  shape->arch.head_dim_k = 64;
  shape->arch.vocab = 1000;
  shape->arch.max_context = 8192;
  shape->arch.params_total = 52000000;
  shape->arch.params_active = 52000000;
  shape->intermediate = 4096;
}

/* The writer refuses @shape with the message from_json gives for the
 * entry @shape's model would write with @member set to @value. */
static void
assert_same_refusal (HrModelShape *shape,
                     const char   *member,
                     JsonNode     *value,
                     const char   *message)
{
  g_autoptr(GError) shape_error = NULL;
  g_autoptr(GError) json_error = NULL;
  g_autoptr(HrModelSpec) from_shape = NULL;
  g_autoptr(HrModelSpec) from_json = NULL;
  g_autoptr(HrModelSpec) valid = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_auto(HrModelShape) base = { NULL };

  from_shape = hr_model_spec_new_from_shape (shape, HR_ORIGIN_USER, &shape_error);
  g_assert_null (from_shape);
  g_assert_error (shape_error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID);
  g_assert_cmpstr (shape_error->message, ==, message);

  small_shape (&base);
  valid = hr_model_spec_new_from_shape (&base, HR_ORIGIN_USER, NULL);
  g_assert_nonnull (valid);
  entry = hr_model_spec_to_json (valid);
  if (value != NULL)
    json_object_set_member (entry, member, value);
  else
    json_object_remove_member (entry, member);
  from_json = hr_model_spec_new_from_json (entry, HR_ORIGIN_USER, &json_error);
  g_assert_null (from_json);
  g_assert_cmpstr (json_error->message, ==, message);
}

static JsonNode *
int_node (gint64 value)
{
  return json_node_init_int (json_node_alloc (), value);
}

static JsonNode *
string_node (const char *value)
{
  return json_node_init_string (json_node_alloc (), value);
}

static void
test_checks (void)
{
  g_auto(HrModelShape) shape = { NULL };
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GError) error = NULL;

  /* Valid, with the defaults from_json applies. */
  small_shape (&shape);
  spec = hr_model_spec_new_from_shape (&shape, HR_ORIGIN_USER, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_model_spec_get_arch (spec)->head_dim_v, ==, 64);
  g_assert_false (hr_model_spec_get_plain_mlp (spec));
  g_assert_null (hr_model_spec_get_weights_by_type (spec));
  g_clear_object (&spec);

  /* MLA without kv_heads: one per query head. */
  shape.arch.attention = HR_ATTENTION_MLA;
  shape.arch.n_kv_heads = 0;
  shape.arch.kv_lora_rank = 128;
  shape.arch.qk_rope_head_dim = 32;
  spec = hr_model_spec_new_from_shape (&shape, HR_ORIGIN_USER, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_model_spec_get_arch (spec)->n_kv_heads, ==, 16);
  g_clear_object (&spec);
  hr_model_shape_clear (&shape);

  small_shape (&shape);
  g_clear_pointer (&shape.id, g_free);
  assert_same_refusal (&shape, "id", NULL, "field “id” is missing");
  hr_model_shape_clear (&shape);

  small_shape (&shape);
  g_free (shape.name);
  shape.name = g_strdup ("");
  assert_same_refusal (&shape, "name", string_node (""), "field “name” must not be empty");
  hr_model_shape_clear (&shape);

  small_shape (&shape);
  g_free (shape.license);
  shape.license = g_strdup ("MIT\n");
  assert_same_refusal (&shape, "license", string_node ("MIT\n"),
                       "field “license” must not hold control characters");
  hr_model_shape_clear (&shape);

  small_shape (&shape);
  shape.arch.n_heads = 70000;
  assert_same_refusal (&shape, "heads", int_node (70000),
                       "field “heads” is 70000, outside 0–65536");
  hr_model_shape_clear (&shape);

  small_shape (&shape);
  shape.arch.n_kv_heads = 0;
  assert_same_refusal (&shape, "kv_heads", NULL, "field “kv_heads” is missing");
  hr_model_shape_clear (&shape);

  small_shape (&shape);
  shape.experts = 8;
  shape.experts_active = 9;
  shape.expert_intermediate = 512;
  {
    g_auto(HrModelShape) base = { NULL };
    g_autoptr(HrModelSpec) valid = NULL;
    g_autoptr(JsonObject) entry = NULL;
    g_autoptr(GError) json_error = NULL;
    g_autoptr(HrModelSpec) refused = NULL;

    /* Across fields: set experts on a valid entry, then experts_active. */
    refused = hr_model_spec_new_from_shape (&shape, HR_ORIGIN_USER, &error);
    g_assert_null (refused);
    g_assert_cmpstr (error->message, ==,
                     "field “experts_active” must be between 1 and “experts” (8)");
    small_shape (&base);
    valid = hr_model_spec_new_from_shape (&base, HR_ORIGIN_USER, NULL);
    entry = hr_model_spec_to_json (valid);
    json_object_set_int_member (entry, "experts", 8);
    json_object_set_int_member (entry, "experts_active", 9);
    json_object_set_int_member (entry, "expert_intermediate", 512);
    g_assert_null (hr_model_spec_new_from_json (entry, HR_ORIGIN_USER, &json_error));
    g_assert_cmpstr (json_error->message, ==, error->message);
  }
}

/* Clearing frees everything and leaves a shape to fill again. */
static void
test_clear (void)
{
  g_auto(HrModelShape) shape = { NULL };

  small_shape (&shape);
  hr_model_shape_begin_weights_by_type (&shape);
  hr_model_shape_add_type_bytes (&shape, "Q4_K", 1000);
  hr_model_shape_add_type_bytes (&shape, "F32", 24);
  hr_model_shape_add_note (&shape, "a note");
  g_assert_cmpuint (shape.weights_by_type->len, ==, 2);
  g_assert_cmpstr (g_array_index (shape.weights_by_type, HrTypeBytes, 1).type, ==, "F32");
  g_assert_cmpuint (shape.notes->len, ==, 1);

  hr_model_shape_clear (&shape);
  g_assert_null (shape.id);
  g_assert_null (shape.weights_by_type);
  g_assert_null (shape.notes);
  g_assert_cmpuint (shape.arch.n_layers, ==, 0);

  small_shape (&shape);
  g_assert_cmpstr (shape.id, ==, "acme/tiny");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model-shape/round-trip/hf", test_round_trip_hf);
  g_test_add_func ("/model-shape/round-trip/gguf", test_round_trip_gguf);
  g_test_add_func ("/model-shape/import-reads-no-json", test_no_json);
  g_test_add_func ("/model-shape/checks", test_checks);
  g_test_add_func ("/model-shape/clear", test_clear);

  return g_test_run ();
}
