/* hr-vision.c — the vision encoder of each vision-capable catalog model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-vision"

#include "config.h"

#include <json-glib/json-glib.h>

#include "hr-json-load.h"
#include "hr-vision.h"

#define RESOURCE "/io/github/headroom_app/Headroom/catalog/vision.json"

static guint32
member_uint (JsonObject *o,
             const char *name)
{
  JsonNode *node = json_object_get_member (o, name);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) <= 0 || json_node_get_int (node) > G_MAXINT32)
    return 0;
  return (guint32) json_node_get_int (node);
}

/* model id (lower case) → HrVisionConfig; read once. */
static GHashTable *
table (void)
{
  static GHashTable *models;

  if (g_once_init_enter (&models))
    {
      GHashTable *t = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_autoptr(JsonNode) root = hr_json_load_resource (RESOURCE);
      JsonNode *list = NULL;

      if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
        list = json_object_get_member (json_node_get_object (root), "models");
      if (list != NULL && JSON_NODE_HOLDS_OBJECT (list))
        {
          JsonObject *by_id = json_node_get_object (list);
          g_autoptr(GList) ids = json_object_get_members (by_id);

          for (GList *l = ids; l != NULL; l = l->next)
            {
              JsonNode *entry = json_object_get_member (by_id, l->data);
              JsonObject *o;
              HrVisionConfig v;

              if (!JSON_NODE_HOLDS_OBJECT (entry))
                continue;
              o = json_node_get_object (entry);
              v = (HrVisionConfig) {
                .hidden = member_uint (o, "hidden"),
                .intermediate = member_uint (o, "intermediate"),
                .layers = member_uint (o, "layers"),
                .heads = member_uint (o, "heads"),
                .image_size = member_uint (o, "image_size"),
                .patch_size = member_uint (o, "patch_size"),
                .tokens_per_image = member_uint (o, "tokens_per_image"),
                .projection = member_uint (o, "projection"),
              };
              if (v.hidden == 0 || v.intermediate == 0 || v.layers == 0 || v.heads == 0 ||
                  v.patch_size == 0 || v.image_size < v.patch_size ||
                  v.tokens_per_image == 0 || v.projection == 0)
                {
                  g_warning ("vision.json: %s is incomplete; skipped", (const char *) l->data);
                  continue;
                }
              g_hash_table_insert (t, g_ascii_strdown (l->data, -1), g_memdup2 (&v, sizeof v));
            }
        }
      g_once_init_leave (&models, t);
    }
  return models;
}

/**
 * hr_vision_find:
 *
 * The vision encoder of catalog model @model_id, or FALSE when the
 * catalog has none for it.
 */
gboolean
hr_vision_find (const char     *model_id,
                HrVisionConfig *out)
{
  g_autofree char *key = model_id != NULL ? g_ascii_strdown (model_id, -1) : NULL;
  const HrVisionConfig *v;

  g_return_val_if_fail (out != NULL, FALSE);

  if (key == NULL)
    return FALSE;
  v = g_hash_table_lookup (table (), key);
  if (v == NULL)
    return FALSE;
  *out = *v;
  return TRUE;
}
