/* hr-hardware.h — one device of the catalog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-device.h"

G_BEGIN_DECLS

#define HR_TYPE_HARDWARE (hr_hardware_get_type ())

G_DECLARE_FINAL_TYPE (HrHardware, hr_hardware, HR, HARDWARE, GObject)

HrHardware     *hr_hardware_new_from_json   (JsonObject  *object,
                                             GError     **error);
const HrDevice *hr_hardware_get_device      (HrHardware  *self);
const char     *hr_hardware_get_id          (HrHardware  *self);
const char     *hr_hardware_get_name        (HrHardware  *self);
const char     *hr_hardware_get_vendor      (HrHardware  *self);
guint64         hr_hardware_get_memory_bytes (HrHardware *self);
double          hr_hardware_get_bandwidth_gbps (HrHardware *self);
gboolean        hr_hardware_is_unified      (HrHardware  *self);

G_END_DECLS
