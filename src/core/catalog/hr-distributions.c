/* hr-distributions.c — where a catalog model can be fetched, per precision
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-distributions"

#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "hr-catalog-json.h"
#include "hr-distributions.h"
#include "hr-json-load.h"

#define RESOURCE "/io/github/headroom_app/Headroom/catalog/distributions.json"

/* model id (lower case) → JsonObject of its entry; read once, kept for the
 * life of the process. */
static GHashTable *
table (void)
{
  static GHashTable *models;

  if (g_once_init_enter (&models))
    {
      GHashTable *t = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify) json_object_unref);
      g_autoptr(JsonNode) root = hr_json_load_resource (RESOURCE);
      JsonNode *list = NULL;

      /* A built-in resource (test-catalog checks it parses): every type
       * checked before use. */
      if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
        list = json_object_get_member (json_node_get_object (root), "models");
      if (list != NULL && JSON_NODE_HOLDS_ARRAY (list))
        {
          JsonArray *array = json_node_get_array (list);

          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              JsonNode *element = json_array_get_element (array, i);
              JsonObject *entry = JSON_NODE_HOLDS_OBJECT (element)
                                  ? json_node_get_object (element) : NULL;
              JsonNode *id = entry != NULL ? json_object_get_member (entry, "id") : NULL;

              if (id != NULL && json_node_get_value_type (id) == G_TYPE_STRING)
                g_hash_table_insert (t, g_ascii_strdown (json_node_get_string (id), -1),
                                     json_object_ref (entry));
            }
        }
      g_once_init_leave (&models, t);
    }
  return models;
}

/* @object's string @member, or %NULL when it is missing or not a string
 * (json_object_get_string_member_with_default() raises a critical on an
 * array or an object). */
static JsonObject *
entry_member (const char *model_id,
              const char *member)
{
  g_autofree char *key = NULL;
  JsonObject *entry;

  if (model_id == NULL)
    return NULL;
  key = g_ascii_strdown (model_id, -1);
  entry = g_hash_table_lookup (table (), key);
  if (entry == NULL || !json_object_has_member (entry, member) ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (entry, member)))
    return NULL;
  return json_object_get_object_member (entry, member);
}

const char *
hr_distributions_ollama_tag (const char *model_id,
                             const char *precision_id)
{
  JsonObject *tags = entry_member (model_id, "ollama");

  if (tags == NULL || precision_id == NULL)
    return NULL;
  return hr_json_string_or_null (tags, precision_id);
}

const char *
hr_distributions_ollama_note (const char *model_id)
{
  g_autofree char *key = model_id ? g_ascii_strdown (model_id, -1) : NULL;
  JsonObject *entry = key ? g_hash_table_lookup (table (), key) : NULL;

  return hr_json_string_or_null (entry, "ollama_note");
}

const char *
hr_distributions_checkpoint (const char *model_id,
                             const char *precision_id)
{
  JsonObject *checkpoints = entry_member (model_id, "checkpoints");
  JsonObject *one;

  if (checkpoints == NULL || precision_id == NULL ||
      !json_object_has_member (checkpoints, precision_id) ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (checkpoints, precision_id)))
    return NULL;
  one = json_object_get_object_member (checkpoints, precision_id);
  return hr_json_string_or_null (one, "repo");
}

/* The precision of the weights in the model's own repository, when the
 * catalog records that repository as one of its quantized checkpoints
 * (gpt-oss's MXFP4, DeepSeek-V3's FP8); %NULL when it holds 16-bit
 * weights, as a base repository does. */
const char *
hr_distributions_own_precision (const char *model_id)
{
  JsonObject *checkpoints = entry_member (model_id, "checkpoints");
  g_autoptr(GList) members = checkpoints ? json_object_get_members (checkpoints) : NULL;

  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *repo = hr_distributions_checkpoint (model_id, l->data);

      if (repo != NULL && g_ascii_strcasecmp (repo, model_id) == 0)
        return l->data;
    }
  return NULL;
}

/* The first Hugging Face repository of GGUF files of @model_id that the
 * catalog records ("gguf"), or %NULL. */
const char *
hr_distributions_gguf_repo (const char *model_id)
{
  g_autofree char *key = model_id ? g_ascii_strdown (model_id, -1) : NULL;
  JsonObject *entry = key ? g_hash_table_lookup (table (), key) : NULL;
  JsonNode *node = entry ? json_object_get_member (entry, "gguf") : NULL;
  JsonArray *repos;
  JsonNode *first;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  repos = json_node_get_array (node);
  first = json_array_get_length (repos) > 0 ? json_array_get_element (repos, 0) : NULL;
  if (first == NULL || !JSON_NODE_HOLDS_OBJECT (first))
    return NULL;
  return hr_json_string_or_null (json_node_get_object (first), "repo");
}

guint
hr_distributions_get_n_models (void)
{
  return g_hash_table_size (table ());
}
