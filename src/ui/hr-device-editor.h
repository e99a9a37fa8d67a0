/* hr-device-editor.h — add or edit a device by hand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-catalog.h"

G_BEGIN_DECLS

#define HR_TYPE_DEVICE_EDITOR (hr_device_editor_get_type ())

G_DECLARE_FINAL_TYPE (HrDeviceEditor, hr_device_editor, HR, DEVICE_EDITOR, AdwWindow)

HrDeviceEditor *hr_device_editor_new             (HrCatalog              *catalog,
                                                  HrHardware             *device,
                                                  const char             *user_dir);
HrHardware     *hr_device_editor_get_device      (HrDeviceEditor         *self);
void            hr_device_editor_set_from_fields (HrDeviceEditor         *self,
                                                  const HrHardwareFields *values);
const char     *hr_device_editor_get_message     (HrDeviceEditor         *self);
gboolean        hr_device_editor_save            (HrDeviceEditor         *self);

G_END_DECLS
