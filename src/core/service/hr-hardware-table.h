/* hr-hardware-table.h — one row per device, following a calculator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-calculator.h"
#include "hr-row-list.h"

G_BEGIN_DECLS

#define HR_TYPE_HARDWARE_TABLE (hr_hardware_table_get_type ())
#define HR_TYPE_HARDWARE_ROW (hr_hardware_row_get_type ())

G_DECLARE_FINAL_TYPE (HrHardwareTable, hr_hardware_table, HR, HARDWARE_TABLE, HrRowList)
G_DECLARE_FINAL_TYPE (HrHardwareRow, hr_hardware_row, HR, HARDWARE_ROW, GObject)

HrHardwareTable *hr_hardware_table_new            (HrCalculator  *calculator);

HrHardware      *hr_hardware_row_get_hardware     (HrHardwareRow *self);
guint64          hr_hardware_row_get_required_bytes (HrHardwareRow *self);
double           hr_hardware_row_get_share        (HrHardwareRow *self);
HrVerdict        hr_hardware_row_get_verdict      (HrHardwareRow *self);
double           hr_hardware_row_get_decode_tokens_per_s (HrHardwareRow *self);
double           hr_hardware_row_get_prefill_tokens_per_s (HrHardwareRow *self);
double           hr_hardware_row_get_joules_per_token (HrHardwareRow *self);
HrPlacementKind  hr_hardware_row_get_placement    (HrHardwareRow *self);
guint            hr_hardware_row_get_gpu_layers   (HrHardwareRow *self);
guint            hr_hardware_row_get_layer_count  (HrHardwareRow *self);
guint64          hr_hardware_row_get_host_bytes   (HrHardwareRow *self);
gboolean         hr_hardware_row_get_valid        (HrHardwareRow *self);

G_END_DECLS
