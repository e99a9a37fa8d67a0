/* hr-model-import.c — a model from a file: GGUF or Hugging Face config.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-model-import"

#include "config.h"

#include <gio/gio.h>

#include "hr-catalog-json.h"
#include "hr-hf-config.h"
#include "hr-model-import.h"

static gboolean
is_gguf_path (const char *path)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);
  return g_str_has_suffix (lower, ".gguf");
}

HrModelSpec *
hr_model_import_file (const char  *path,
                      GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s: no such file", path);
      return NULL;
    }

  if (is_gguf_path (path))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: GGUF files are not read by this build yet", path);
      return NULL;
    }

  return hr_hf_config_load (path, error);
}

gboolean
hr_model_import_inspect (const char  *path,
                         gboolean     json,
                         GError     **error)
{
  g_autoptr(HrModelSpec) model = hr_model_import_file (path, error);
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonGenerator) generator = NULL;
  g_autofree char *text = NULL;

  if (model == NULL)
    return FALSE;

  object = hr_model_spec_to_json (model);
  node = json_node_init_object (json_node_alloc (), object);
  generator = json_generator_new ();
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);
  g_print ("%s\n", text);
  return TRUE;
}
