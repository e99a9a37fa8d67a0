/* hr-catalog.h — models, devices, precisions and KV types
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "hr-cpu.h"
#include "hr-hardware.h"
#include "hr-model-spec.h"
#include "hr-precision.h"

G_BEGIN_DECLS

#define HR_TYPE_CATALOG (hr_catalog_get_type ())

/* Devices added in the editor, in the user directory. */
#define HR_CUSTOM_DEVICES_FILE "custom-devices.json"

G_DECLARE_FINAL_TYPE (HrCatalog, hr_catalog, HR, CATALOG, GObject)

HrCatalog    *hr_catalog_new                (void);
HrCatalog    *hr_catalog_new_default        (void);
HrCatalog    *hr_catalog_get_default        (void);
gboolean      hr_catalog_load_builtin       (HrCatalog    *self,
                                             GError      **error);
gboolean      hr_catalog_load_data          (HrCatalog    *self,
                                             const char   *data,
                                             gssize        length,
                                             const char   *file_name,
                                             HrOrigin      origin,
                                             GError      **error);
gboolean      hr_catalog_load_file          (HrCatalog    *self,
                                             const char   *path,
                                             GError      **error);
guint         hr_catalog_load_user_dir      (HrCatalog    *self,
                                             const char   *dir);
char         *hr_catalog_dup_user_dir       (void);
const char * const *hr_catalog_get_problems (HrCatalog    *self);

gboolean      hr_catalog_import_model       (HrCatalog    *self,
                                             HrModelSpec  *model,
                                             const char   *dir,
                                             GError      **error);
gboolean      hr_catalog_import_model_full  (HrCatalog    *self,
                                             HrModelSpec  *model,
                                             const char   *dir,
                                             char        **kept_as,
                                             GError      **error);
gboolean      hr_catalog_is_imported_model  (HrCatalog    *self,
                                             const char   *id);
gboolean      hr_catalog_remove_imported_model (HrCatalog *self,
                                             const char   *id,
                                             const char   *dir,
                                             GError      **error);

void          hr_catalog_add_hardware       (HrCatalog    *self,
                                             HrHardware   *hardware);
gboolean      hr_catalog_save_custom_hardware (HrCatalog  *self,
                                             HrHardware   *hardware,
                                             const char   *dir,
                                             GError      **error);
gboolean      hr_catalog_remove_custom_hardware (HrCatalog *self,
                                             const char   *id,
                                             const char   *dir,
                                             GError      **error);
char         *hr_catalog_dup_custom_hardware_id (HrCatalog *self,
                                             const char   *name);

GListModel   *hr_catalog_get_models         (HrCatalog    *self);
GListModel   *hr_catalog_get_hardware       (HrCatalog    *self);
GListModel   *hr_catalog_get_precisions     (HrCatalog    *self);
GListModel   *hr_catalog_get_kv_types       (HrCatalog    *self);
GListModel   *hr_catalog_get_cpus           (HrCatalog    *self);
GPtrArray    *hr_catalog_get_tier_ladder    (HrCatalog    *self);

HrModelSpec  *hr_catalog_find_model         (HrCatalog    *self,
                                             const char   *id);
HrHardware   *hr_catalog_find_hardware      (HrCatalog    *self,
                                             const char   *id);
HrPrecision  *hr_catalog_find_precision     (HrCatalog    *self,
                                             const char   *id);
HrKvType     *hr_catalog_find_kv_type       (HrCatalog    *self,
                                             const char   *id);
HrCpu        *hr_catalog_find_cpu           (HrCatalog    *self,
                                             const char   *id);

G_END_DECLS
