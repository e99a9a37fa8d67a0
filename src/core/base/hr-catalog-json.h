/* hr-catalog-json.h — typed, checked reads of catalog JSON members
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every catalog entry is read through these helpers so that a malformed
 * file gives one precise message naming the field ("field “layers” must
 * be a positive integer") instead of a crash or a silent zero.  A
 * record filled from a model file rather than JSON passes the same checks
 * (hr_fields_validate()).
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define HR_CATALOG_ERROR (hr_catalog_error_quark ())

typedef enum
{
  HR_CATALOG_ERROR_INVALID,
  HR_CATALOG_ERROR_DUPLICATE,
} HrCatalogError;

GQuark   hr_catalog_error_quark  (void);

/* The same checks, and messages, for values that come from elsewhere. */
gboolean hr_catalog_check_string (const char  *member,
                                  gboolean     required,
                                  const char  *value,
                                  GError     **error);
gboolean hr_catalog_check_uint   (const char  *member,
                                  guint64      value,
                                  guint64      max,
                                  GError     **error);
gboolean hr_catalog_check_double (const char  *member,
                                  double       value,
                                  GError     **error);

/* A string member, or NULL where it is missing, null or not a string (for
 * optional members read without an error). */
const char *hr_json_string_or_null (JsonObject *object,
                                    const char *member);
gboolean hr_json_get_string      (JsonObject  *object,
                                  const char  *member,
                                  gboolean     required,
                                  char       **out,
                                  GError     **error);
gboolean hr_json_get_uint        (JsonObject  *object,
                                  const char  *member,
                                  gboolean     required,
                                  guint64      max,
                                  guint64     *out,
                                  GError     **error);
gboolean hr_json_get_double      (JsonObject  *object,
                                  const char  *member,
                                  gboolean     required,
                                  double      *out,
                                  GError     **error);
gboolean hr_json_get_bool        (JsonObject  *object,
                                  const char  *member,
                                  gboolean     required,
                                  gboolean    *out,
                                  GError     **error);
gboolean hr_json_get_strv        (JsonObject  *object,
                                  const char  *member,
                                  gboolean     required,
                                  char      ***out,
                                  GError     **error);

G_END_DECLS
