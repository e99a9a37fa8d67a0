/* hr-catalog-json.c — typed, checked reads of catalog JSON members
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-catalog"

#include "config.h"

#include <math.h>

#include "hr-catalog-json.h"
#include "hr-text.h"

G_DEFINE_QUARK (hr-catalog-error-quark, hr_catalog_error)

static gboolean
field_error (GError     **error,
             const char  *member,
             const char  *what)
{
  g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
               "field “%s” %s", member, what);
  return FALSE;
}

/* Looks @member up; FALSE with an error if it is required and missing.
 * A JSON null counts as missing. */
static gboolean
lookup (JsonObject  *object,
        const char  *member,
        gboolean     required,
        JsonNode   **node,
        GError     **error)
{
  *node = json_object_get_member (object, member);
  if (*node != NULL && JSON_NODE_HOLDS_NULL (*node))
    *node = NULL;
  if (*node == NULL && required)
    return field_error (error, member, "is missing");
  return TRUE;
}

/**
 * hr_catalog_check_string:
 * @member: the field's name, for the message
 * @value: (nullable): its value
 *
 * The checks of a catalog string, wherever it comes from: a required one
 * is present and not empty, and none holds control characters.
 */
gboolean
hr_catalog_check_string (const char  *member,
                         gboolean     required,
                         const char  *value,
                         GError     **error)
{
  if (value == NULL)
    return required ? field_error (error, member, "is missing") : TRUE;
  if (required && value[0] == '\0')
    return field_error (error, member, "must not be empty");
  /* Catalog text is shown on one line in lists, labels and commands. */
  if (hr_text_has_control (value))
    return field_error (error, member, "must not hold control characters");
  return TRUE;
}

/* A catalog count: at most @max. */
gboolean
hr_catalog_check_uint (const char  *member,
                       guint64      value,
                       guint64      max,
                       GError     **error)
{
  if (value > max)
    {
      g_autofree char *what =
        g_strdup_printf ("is %" G_GUINT64_FORMAT ", outside 0–%" G_GUINT64_FORMAT,
                         value, max);
      return field_error (error, member, what);
    }
  return TRUE;
}

/* A catalog number: finite. */
gboolean
hr_catalog_check_double (const char  *member,
                         double       value,
                         GError     **error)
{
  if (!isfinite (value))
    return field_error (error, member, "must be finite");
  return TRUE;
}

gboolean
hr_json_get_string (JsonObject  *object,
                    const char  *member,
                    gboolean     required,
                    char       **out,
                    GError     **error)
{
  JsonNode *node;

  *out = NULL;
  if (!lookup (object, member, required, &node, error))
    return FALSE;
  if (node == NULL)
    return TRUE;
  if (json_node_get_value_type (node) != G_TYPE_STRING)
    return field_error (error, member, "must be a string");
  if (!hr_catalog_check_string (member, required, json_node_get_string (node), error))
    return FALSE;
  *out = json_node_dup_string (node);
  return TRUE;
}

gboolean
hr_json_get_uint (JsonObject  *object,
                  const char  *member,
                  gboolean     required,
                  guint64      max,
                  guint64     *out,
                  GError     **error)
{
  JsonNode *node;
  gint64 value;

  *out = 0;
  if (!lookup (object, member, required, &node, error))
    return FALSE;
  if (node == NULL)
    return TRUE;
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE &&
      json_node_get_double (node) == floor (json_node_get_double (node)) &&
      (json_node_get_double (node) < 0 || json_node_get_double (node) > (double) max))
    {
      /* A whole number beyond 64 bits (hr-json-load.h). */
      g_autofree char *what =
        g_strdup_printf ("is %g, outside 0–%" G_GUINT64_FORMAT,
                         json_node_get_double (node), max);
      return field_error (error, member, what);
    }
  if (json_node_get_value_type (node) != G_TYPE_INT64)
    return field_error (error, member, "must be an integer");
  value = json_node_get_int (node);
  if (value < 0)
    {
      g_autofree char *what =
        g_strdup_printf ("is %" G_GINT64_FORMAT ", outside 0–%" G_GUINT64_FORMAT,
                         value, max);
      return field_error (error, member, what);
    }
  if (!hr_catalog_check_uint (member, (guint64) value, max, error))
    return FALSE;
  *out = (guint64) value;
  return TRUE;
}

gboolean
hr_json_get_double (JsonObject  *object,
                    const char  *member,
                    gboolean     required,
                    double      *out,
                    GError     **error)
{
  JsonNode *node;
  GType type;

  *out = 0;
  if (!lookup (object, member, required, &node, error))
    return FALSE;
  if (node == NULL)
    return TRUE;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    *out = (double) json_node_get_int (node);
  else if (type == G_TYPE_DOUBLE)
    *out = json_node_get_double (node);
  else
    return field_error (error, member, "must be a number");
  return hr_catalog_check_double (member, *out, error);
}

gboolean
hr_json_get_bool (JsonObject  *object,
                  const char  *member,
                  gboolean     required,
                  gboolean    *out,
                  GError     **error)
{
  JsonNode *node;

  *out = FALSE;
  if (!lookup (object, member, required, &node, error))
    return FALSE;
  if (node == NULL)
    return TRUE;
  if (json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return field_error (error, member, "must be true or false");
  *out = json_node_get_boolean (node);
  return TRUE;
}

static void
add_item (GPtrArray  *items,
          const char *text)
{
  char *item = g_strstrip (g_strdup (text));

  if (item[0] != '\0')
    g_ptr_array_add (items, item);
  else
    g_free (item);
}

/* A list of strings, written either as an array or as one string of
 * comma-separated items ("10de:2504, 10de:2544"); items are stripped and
 * empty ones dropped.  No items at all reads as a missing member (NULL). */
gboolean
hr_json_get_strv (JsonObject   *object,
                  const char   *member,
                  gboolean      required,
                  char       ***out,
                  GError      **error)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_free);
  JsonNode *node;

  *out = NULL;
  if (!lookup (object, member, required, &node, error))
    return FALSE;
  if (node == NULL)
    return TRUE;

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (json_node_get_value_type (element) != G_TYPE_STRING)
            return field_error (error, member, "must be a list of strings");
          add_item (items, json_node_get_string (element));
        }
    }
  else if (json_node_get_value_type (node) == G_TYPE_STRING)
    {
      g_auto(GStrv) parts = g_strsplit (json_node_get_string (node), ",", -1);

      for (guint i = 0; parts[i] != NULL; i++)
        add_item (items, parts[i]);
    }
  else
    return field_error (error, member,
                        "must be a list of strings or one comma-separated string");

  if (items->len == 0)
    return required ? field_error (error, member, "must not be empty") : TRUE;

  g_ptr_array_set_free_func (items, NULL);
  g_ptr_array_add (items, NULL);
  *out = (char **) g_ptr_array_free (g_steal_pointer (&items), FALSE);
  return TRUE;
}

const char *
hr_json_string_or_null (JsonObject *object,
                        const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}
