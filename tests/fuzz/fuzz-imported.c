/* fuzz-imported.c — libFuzzer target: importing a model over whatever
 * imported-models.json holds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is the user's imported-models.json (the seeds are files
 * Headroom wrote, in tests/fuzz/corpus-imported).  Importing a model
 * must never lose what the user had: either every earlier entry is
 * still in the new file, or the old file was moved aside byte for byte.
 * The new file always loads, with the imported model in it.
 */

#define G_LOG_DOMAIN "fuzz-imported"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "fuzz-common.h"
#include "hr-json-load.h"

/* The entries of "models", and how many of them have the id @id. */
static guint
count_models (JsonNode   *root,
              const char *id,
              guint      *n_with_id)
{
  JsonNode *models;
  JsonArray *array;

  *n_with_id = 0;
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return 0;
  models = json_object_get_member (json_node_get_object (root), "models");
  if (models == NULL || !JSON_NODE_HOLDS_ARRAY (models))
    return 0;
  array = json_node_get_array (models);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *e = json_array_get_element (array, i);
      JsonNode *member = JSON_NODE_HOLDS_OBJECT (e)
        ? json_object_get_member (json_node_get_object (e), "id") : NULL;

      if (member != NULL && json_node_get_value_type (member) == G_TYPE_STRING &&
          g_ascii_strcasecmp (json_node_get_string (member), id) == 0)
        (*n_with_id)++;
    }
  return json_array_get_length (array);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char id[] = "Qwen/Qwen3-8B";
  g_autofree char *path = fuzz_write_input ("imported-models.json", data, size);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *kept_as = NULL;
  g_autofree char *kept = NULL;
  g_autoptr(HrCatalog) catalog = hr_catalog_new ();
  g_autoptr(HrCatalog) reloaded = hr_catalog_new ();
  g_autoptr(JsonNode) before = hr_json_load_data ((const char *) data, size, path, NULL);
  g_autoptr(JsonNode) after = NULL;
  g_autoptr(GError) error = NULL;
  HrModelSpec *model = hr_catalog_find_model (fuzz_builtin_catalog (), id);
  guint n_before, same_before, n_after, same_after;
  gsize kept_size = 0;

  CHECK (model != NULL);
  if (!hr_catalog_import_model_full (catalog, model, dir, &kept_as, &error))
    {
      /* Only the file system can refuse an import. */
      g_printerr ("import failed: %s\n", error->message);
      abort ();
    }

  /* A file that was not used was kept, byte for byte. */
  if (kept_as != NULL)
    {
      CHECK (g_file_get_contents (kept_as, &kept, &kept_size, NULL));
      CHECK (kept_size == size && memcmp (kept, data, size) == 0);
      g_unlink (kept_as);
      g_clear_pointer (&before, json_node_unref);
    }

  /* The new file parses, holds every earlier entry but those the import
   * replaced, and loads with the imported model. */
  after = hr_json_load_file (path, 16 * 1024 * 1024, &error);
  CHECK (after != NULL);
  n_before = count_models (before, id, &same_before);
  n_after = count_models (after, id, &same_after);
  CHECK (same_after == 1);
  CHECK (n_after == n_before - same_before + 1);
  hr_catalog_load_file (reloaded, path, NULL);
  CHECK (hr_catalog_find_model (reloaded, id) != NULL);
  return 0;
}
