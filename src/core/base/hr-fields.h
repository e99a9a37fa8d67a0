/* hr-fields.h — table-driven records: JSON member ↔ struct field ↔ property
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The catalog's record classes (models, devices, precisions) are read-only
 * bags of typed values.  One table per class describes each value once and
 * drives JSON parsing (with precise errors), the same checks on a record
 * filled from elsewhere, serialisation, the read-only GObject properties
 * and finalisation, so a new field is one line.
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  HR_FIELD_STRING,
  HR_FIELD_U32,
  HR_FIELD_U64,
  HR_FIELD_DOUBLE,
  HR_FIELD_BOOL,
  HR_FIELD_STRV,          /* a list of strings, or one comma-separated string */
} HrFieldType;

typedef struct
{
  const char *name;       /* JSON member; the property is the same with '-' */
  HrFieldType type;
  gboolean required;
  guint64 max;            /* integers: largest accepted value */
  gsize offset;           /* in the instance struct */
  const char *blurb;
} HrField;

#define HR_FIELD(Type, member, type, req, max, field, blurb) \
  { member, type, req, max, G_STRUCT_OFFSET (Type, field), blurb }

void     hr_fields_install_properties (GObjectClass   *klass,
                                       guint           first_id,
                                       const HrField  *fields,
                                       guint           n_fields,
                                       GParamSpec    **pspecs);
gboolean hr_fields_get_property       (gpointer        instance,
                                       guint           first_id,
                                       const HrField  *fields,
                                       guint           n_fields,
                                       guint           prop_id,
                                       GValue         *value);
gboolean hr_fields_read_json          (gpointer        instance,
                                       const HrField  *fields,
                                       guint           n_fields,
                                       JsonObject     *object,
                                       GError        **error);
gboolean hr_fields_validate           (gconstpointer   instance,
                                       const HrField  *fields,
                                       guint           n_fields,
                                       GError        **error);
void     hr_fields_write_json         (gpointer        instance,
                                       const HrField  *fields,
                                       guint           n_fields,
                                       JsonObject     *object);
gboolean hr_fields_equal              (gconstpointer   a,
                                       gconstpointer   b,
                                       const HrField  *field);
void     hr_fields_notify_changes     (gpointer        instance,
                                       gconstpointer   previous,
                                       const HrField  *fields,
                                       guint           n_fields,
                                       GParamSpec    **pspecs);
void     hr_fields_free_strings       (gpointer        instance,
                                       const HrField  *fields,
                                       guint           n_fields);

G_END_DECLS
