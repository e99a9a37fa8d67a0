/* hr-hardware-view.h — the scenario on every device of the catalog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-hardware-table.h"
#include "hr-table-view.h"

G_BEGIN_DECLS

#define HR_TYPE_HARDWARE_VIEW (hr_hardware_view_get_type ())

G_DECLARE_FINAL_TYPE (HrHardwareView, hr_hardware_view, HR, HARDWARE_VIEW, HrTableView)

GtkWidget       *hr_hardware_view_new       (void);
HrHardwareTable *hr_hardware_view_get_table (HrHardwareView *self);
void             hr_hardware_view_set_local_device (HrHardwareView *self,
                                                    HrHardware     *device);

G_END_DECLS
