/* hr-tasks.c — what each catalog model is made for
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-tasks"

#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "hr-json-load.h"
#include "hr-tasks.h"

#define RESOURCE "/io/github/headroom_app/Headroom/catalog/tasks.json"

static const char * const task_names[HR_N_TASKS] = {
  [HR_TASK_CHAT] = "chat",
  [HR_TASK_CODE] = "code",
  [HR_TASK_REASONING] = "reasoning",
  [HR_TASK_VISION] = "vision",
  [HR_TASK_LONG] = "long",
  [HR_TASK_SERVING] = "serving",
};

gboolean
hr_task_from_string (const char *name,
                     HrTask     *task)
{
  for (guint i = 0; i < HR_N_TASKS; i++)
    if (g_strcmp0 (name, task_names[i]) == 0)
      {
        *task = i;
        return TRUE;
      }
  return FALSE;
}

const char *
hr_task_to_string (HrTask task)
{
  g_return_val_if_fail (task < HR_N_TASKS, "chat");
  return task_names[task];
}

/* model id (lower case) → a bit set of its tagged tasks; read once. */
static GHashTable *
table (void)
{
  static GHashTable *models;

  if (g_once_init_enter (&models))
    {
      GHashTable *t = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
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
              JsonNode *tasks = JSON_NODE_HOLDS_OBJECT (entry)
                                ? json_object_get_member (json_node_get_object (entry), "tasks")
                                : NULL;
              guint bits = 0;

              if (tasks == NULL || !JSON_NODE_HOLDS_ARRAY (tasks))
                continue;
              for (guint i = 0; i < json_array_get_length (json_node_get_array (tasks)); i++)
                {
                  JsonNode *name = json_array_get_element (json_node_get_array (tasks), i);
                  HrTask task;

                  if (json_node_get_value_type (name) == G_TYPE_STRING &&
                      hr_task_from_string (json_node_get_string (name), &task))
                    bits |= 1u << task;
                }
              g_hash_table_insert (t, g_ascii_strdown (l->data, -1), GUINT_TO_POINTER (bits | 1u << 31));
            }
        }
      g_once_init_leave (&models, t);
    }
  return models;
}

/**
 * hr_tasks_model_has:
 *
 * Whether the model's card names @task (chat, code, reasoning or
 * vision).  A model the file does not list has none.
 */
gboolean
hr_tasks_model_has (const char *model_id,
                    HrTask      task)
{
  g_autofree char *key = model_id ? g_ascii_strdown (model_id, -1) : NULL;
  guint bits;

  if (key == NULL || task >= HR_N_TASKS)
    return FALSE;
  bits = GPOINTER_TO_UINT (g_hash_table_lookup (table (), key));
  return (bits & (1u << task)) != 0;
}

guint
hr_tasks_get_n_models (void)
{
  return g_hash_table_size (table ());
}
