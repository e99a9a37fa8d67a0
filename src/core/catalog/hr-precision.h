/* hr-precision.h — a weight precision and a KV cache type
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define HR_TYPE_PRECISION (hr_precision_get_type ())
#define HR_TYPE_KV_TYPE (hr_kv_type_get_type ())

G_DECLARE_FINAL_TYPE (HrPrecision, hr_precision, HR, PRECISION, GObject)
G_DECLARE_FINAL_TYPE (HrKvType, hr_kv_type, HR, KV_TYPE, GObject)

HrPrecision *hr_precision_new_from_json      (JsonObject  *object,
                                              GError     **error);
const char  *hr_precision_get_id             (HrPrecision *self);
const char  *hr_precision_get_label          (HrPrecision *self);
double       hr_precision_get_bpw            (HrPrecision *self);
const char  *hr_precision_get_kind           (HrPrecision *self);
gboolean     hr_precision_get_in_matrix      (HrPrecision *self);
const char  *hr_precision_get_bpw_source     (HrPrecision *self);
gboolean     hr_precision_get_niche          (HrPrecision *self);
const char  *hr_precision_get_file_type      (HrPrecision *self);
gboolean     hr_precision_matches_file_type  (HrPrecision *self,
                                              const char  *file_type);
HrPrecision *hr_precision_find_for_file_type (GListModel  *precisions,
                                              const char  *file_type);

HrKvType    *hr_kv_type_new_from_json        (JsonObject  *object,
                                              GError     **error);
const char  *hr_kv_type_get_id               (HrKvType    *self);
const char  *hr_kv_type_get_label            (HrKvType    *self);
double       hr_kv_type_get_bytes_per_element (HrKvType   *self);

G_END_DECLS
