/* hr-fields.c — table-driven records
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-fields"

#include "config.h"

#include "hr-catalog-json.h"
#include "hr-fields.h"

#define FIELD_PTR(instance, f) ((gpointer) ((guint8 *) (instance) + (f)->offset))

/* Property ids first_id … first_id + n_fields - 1 map to the table's
 * entries in order.  @pspecs, if not %NULL, receives them. */
void
hr_fields_install_properties (GObjectClass  *klass,
                              guint          first_id,
                              const HrField *fields,
                              guint          n_fields,
                              GParamSpec   **pspecs)
{
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  for (guint i = 0; i < n_fields; i++)
    {
      const HrField *f = &fields[i];
      g_autofree char *dashed = g_strdelimit (g_strdup (f->name), "_", '-');
      const char *name = g_intern_string (dashed);
      GParamSpec *pspec = NULL;

      switch (f->type)
        {
        case HR_FIELD_STRING:
          pspec = g_param_spec_string (name, NULL, f->blurb, NULL, flags);
          break;
        case HR_FIELD_U32:
          pspec = g_param_spec_uint (name, NULL, f->blurb, 0, G_MAXUINT32, 0, flags);
          break;
        case HR_FIELD_U64:
          pspec = g_param_spec_uint64 (name, NULL, f->blurb, 0, G_MAXUINT64, 0, flags);
          break;
        case HR_FIELD_DOUBLE:
          pspec = g_param_spec_double (name, NULL, f->blurb, 0, G_MAXDOUBLE, 0, flags);
          break;
        case HR_FIELD_BOOL:
          pspec = g_param_spec_boolean (name, NULL, f->blurb, FALSE, flags);
          break;
        case HR_FIELD_STRV:
          pspec = g_param_spec_boxed (name, NULL, f->blurb, G_TYPE_STRV, flags);
          break;
        default:
          g_assert_not_reached ();
        }
      g_object_class_install_property (klass, first_id + i, pspec);
      if (pspecs != NULL)
        pspecs[i] = pspec;
    }
}

gboolean
hr_fields_get_property (gpointer       instance,
                        guint          first_id,
                        const HrField *fields,
                        guint          n_fields,
                        guint          prop_id,
                        GValue        *value)
{
  const HrField *f;
  gpointer ptr;

  if (prop_id < first_id || prop_id >= first_id + n_fields)
    return FALSE;

  f = &fields[prop_id - first_id];
  ptr = FIELD_PTR (instance, f);
  switch (f->type)
    {
    case HR_FIELD_STRING:
      g_value_set_string (value, *(char **) ptr);
      break;
    case HR_FIELD_U32:
      g_value_set_uint (value, *(guint32 *) ptr);
      break;
    case HR_FIELD_U64:
      g_value_set_uint64 (value, *(guint64 *) ptr);
      break;
    case HR_FIELD_DOUBLE:
      g_value_set_double (value, *(double *) ptr);
      break;
    case HR_FIELD_BOOL:
      g_value_set_boolean (value, *(gboolean *) ptr);
      break;
    case HR_FIELD_STRV:
      g_value_set_boxed (value, *(char ***) ptr);
      break;
    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

gboolean
hr_fields_read_json (gpointer        instance,
                     const HrField  *fields,
                     guint           n_fields,
                     JsonObject     *object,
                     GError        **error)
{
  for (guint i = 0; i < n_fields; i++)
    {
      const HrField *f = &fields[i];
      gpointer ptr = FIELD_PTR (instance, f);
      guint64 u;
      gboolean ok = FALSE;

      switch (f->type)
        {
        case HR_FIELD_STRING:
          ok = hr_json_get_string (object, f->name, f->required, ptr, error);
          break;
        case HR_FIELD_U32:
          ok = hr_json_get_uint (object, f->name, f->required,
                                 MIN (f->max, G_MAXUINT32), &u, error);
          *(guint32 *) ptr = (guint32) u;
          break;
        case HR_FIELD_U64:
          ok = hr_json_get_uint (object, f->name, f->required, f->max, ptr, error);
          break;
        case HR_FIELD_DOUBLE:
          ok = hr_json_get_double (object, f->name, f->required, ptr, error);
          break;
        case HR_FIELD_BOOL:
          ok = hr_json_get_bool (object, f->name, f->required, ptr, error);
          break;
        case HR_FIELD_STRV:
          ok = hr_json_get_strv (object, f->name, f->required, ptr, error);
          break;
        default:
          g_assert_not_reached ();
        }
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* The checks hr_fields_read_json() makes, on an instance filled some
 * other way (from a model file): strings present when required, not empty
 * and without control characters; integers within their maximum; numbers
 * finite.  The messages are the same. */
gboolean
hr_fields_validate (gconstpointer   instance,
                    const HrField  *fields,
                    guint           n_fields,
                    GError        **error)
{
  for (guint i = 0; i < n_fields; i++)
    {
      const HrField *f = &fields[i];
      gconstpointer ptr = (const guint8 *) instance + f->offset;
      gboolean ok = TRUE;

      switch (f->type)
        {
        case HR_FIELD_STRING:
          ok = hr_catalog_check_string (f->name, f->required, *(char * const *) ptr, error);
          break;
        case HR_FIELD_U32:
          ok = hr_catalog_check_uint (f->name, *(const guint32 *) ptr,
                                      MIN (f->max, G_MAXUINT32), error);
          break;
        case HR_FIELD_U64:
          ok = hr_catalog_check_uint (f->name, *(const guint64 *) ptr, f->max, error);
          break;
        case HR_FIELD_DOUBLE:
          ok = hr_catalog_check_double (f->name, *(const double *) ptr, error);
          break;
        case HR_FIELD_BOOL:
          break;
        case HR_FIELD_STRV:
          {
            char * const *strv = *(char * const * const *) ptr;

            if (strv == NULL)
              ok = hr_catalog_check_string (f->name, f->required, NULL, error);
            for (guint k = 0; ok && strv != NULL && strv[k] != NULL; k++)
              ok = hr_catalog_check_string (f->name, FALSE, strv[k], error);
          }
          break;
        default:
          g_assert_not_reached ();
        }
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* Optional zero/false/NULL values are left out, so a written entry reads
 * back to the same record. */
void
hr_fields_write_json (gpointer       instance,
                      const HrField *fields,
                      guint          n_fields,
                      JsonObject    *object)
{
  for (guint i = 0; i < n_fields; i++)
    {
      const HrField *f = &fields[i];
      gpointer ptr = FIELD_PTR (instance, f);

      switch (f->type)
        {
        case HR_FIELD_STRING:
          if (*(char **) ptr != NULL)
            json_object_set_string_member (object, f->name, *(char **) ptr);
          break;
        case HR_FIELD_U32:
          if (f->required || *(guint32 *) ptr != 0)
            json_object_set_int_member (object, f->name, *(guint32 *) ptr);
          break;
        case HR_FIELD_U64:
          if (f->required || *(guint64 *) ptr != 0)
            json_object_set_int_member (object, f->name, (gint64) *(guint64 *) ptr);
          break;
        case HR_FIELD_DOUBLE:
          if (f->required || *(double *) ptr != 0)
            json_object_set_double_member (object, f->name, *(double *) ptr);
          break;
        case HR_FIELD_BOOL:
          if (f->required || *(gboolean *) ptr)
            json_object_set_boolean_member (object, f->name, *(gboolean *) ptr);
          break;
        case HR_FIELD_STRV:
          if (*(char ***) ptr != NULL)
            {
              JsonArray *array = json_array_new ();

              for (char **s = *(char ***) ptr; *s != NULL; s++)
                json_array_add_string_element (array, *s);
              json_object_set_array_member (object, f->name, array);
            }
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

/* Whether two instances hold the same value in @field. */
gboolean
hr_fields_equal (gconstpointer  a,
                 gconstpointer  b,
                 const HrField *field)
{
  gconstpointer pa = (const guint8 *) a + field->offset;
  gconstpointer pb = (const guint8 *) b + field->offset;

  switch (field->type)
    {
    case HR_FIELD_STRING:
      return g_strcmp0 (*(char * const *) pa, *(char * const *) pb) == 0;
    case HR_FIELD_U32:
      return *(const guint32 *) pa == *(const guint32 *) pb;
    case HR_FIELD_U64:
      return *(const guint64 *) pa == *(const guint64 *) pb;
    case HR_FIELD_DOUBLE:
      return *(const double *) pa == *(const double *) pb;
    case HR_FIELD_BOOL:
      return !*(const gboolean *) pa == !*(const gboolean *) pb;
    case HR_FIELD_STRV:
      {
        const char * const *sa = *(const char * const * const *) pa;
        const char * const *sb = *(const char * const * const *) pb;

        if (sa == NULL || sb == NULL)
          return sa == sb;
        return g_strv_equal (sa, sb);
      }
    default:
      g_assert_not_reached ();
    }
}

/* Notifies the property of every field whose value differs between
 * @previous (a copy of the instance taken before an update) and @instance.
 * @pspecs are those hr_fields_install_properties() returned. */
void
hr_fields_notify_changes (gpointer        instance,
                          gconstpointer   previous,
                          const HrField  *fields,
                          guint           n_fields,
                          GParamSpec    **pspecs)
{
  for (guint i = 0; i < n_fields; i++)
    if (!hr_fields_equal (previous, instance, &fields[i]))
      g_object_notify_by_pspec (G_OBJECT (instance), pspecs[i]);
}

void
hr_fields_free_strings (gpointer       instance,
                        const HrField *fields,
                        guint          n_fields)
{
  for (guint i = 0; i < n_fields; i++)
    if (fields[i].type == HR_FIELD_STRING)
      g_clear_pointer ((char **) FIELD_PTR (instance, &fields[i]), g_free);
    else if (fields[i].type == HR_FIELD_STRV)
      g_clear_pointer ((char ***) FIELD_PTR (instance, &fields[i]), g_strfreev);
}
