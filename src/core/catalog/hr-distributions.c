/* hr-distributions.c — where a catalog model can be fetched, per precision
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-distributions"

#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "hr-distributions.h"

#define RESOURCE "/io/github/headroom_app/Headroom/catalog/distributions.json"

/* @member of @object if it is a string, else %NULL: every read checks
 * the node's type first (json-glib's typed getters raise a critical on
 * another type). */
static const char *
string_member (JsonObject *object,
               const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  return node != NULL && json_node_get_value_type (node) == G_TYPE_STRING
         ? json_node_get_string (node) : NULL;
}

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
      g_autoptr(GBytes) bytes = g_resources_lookup_data (RESOURCE, 0, NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      gsize size = 0;
      const char *data = bytes ? g_bytes_get_data (bytes, &size) : NULL;

      /* A built-in resource: test-catalog checks it parses. */
      if (data != NULL && json_parser_load_from_data (parser, data, size, NULL) &&
          JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        {
          JsonObject *root = json_node_get_object (json_parser_get_root (parser));
          JsonNode *member = json_object_get_member (root, "models");
          JsonArray *array = member != NULL && JSON_NODE_HOLDS_ARRAY (member)
                             ? json_node_get_array (member) : NULL;

          for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
            {
              JsonNode *element = json_array_get_element (array, i);
              JsonObject *entry = JSON_NODE_HOLDS_OBJECT (element)
                                  ? json_node_get_object (element) : NULL;
              const char *id = entry ? string_member (entry, "id") : NULL;

              if (id != NULL)
                g_hash_table_insert (t, g_ascii_strdown (id, -1), json_object_ref (entry));
            }
        }
      g_once_init_leave (&models, t);
    }
  return models;
}

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
  return string_member (tags, precision_id);
}

const char *
hr_distributions_ollama_note (const char *model_id)
{
  g_autofree char *key = model_id ? g_ascii_strdown (model_id, -1) : NULL;
  JsonObject *entry = key ? g_hash_table_lookup (table (), key) : NULL;

  return entry ? string_member (entry, "ollama_note") : NULL;
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
  return string_member (one, "repo");
}

guint
hr_distributions_get_n_models (void)
{
  return g_hash_table_size (table ());
}
