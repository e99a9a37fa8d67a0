/* hr-memory-chart.h — the stacked memory bar of the Overview
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "hr-chart-bars.h"
#include "hr-format.h"

G_BEGIN_DECLS

#define HR_TYPE_MEMORY_CHART (hr_memory_chart_get_type ())

G_DECLARE_FINAL_TYPE (HrMemoryChart, hr_memory_chart, HR, MEMORY_CHART, GtkWidget)

GtkWidget  *hr_memory_chart_new                (void);

guint64     hr_memory_chart_get_weights_bytes  (HrMemoryChart *self);
void        hr_memory_chart_set_weights_bytes  (HrMemoryChart *self,
                                                guint64        weights_bytes);
guint64     hr_memory_chart_get_kv_bytes       (HrMemoryChart *self);
void        hr_memory_chart_set_kv_bytes       (HrMemoryChart *self,
                                                guint64        kv_bytes);
guint64     hr_memory_chart_get_overhead_bytes (HrMemoryChart *self);
void        hr_memory_chart_set_overhead_bytes (HrMemoryChart *self,
                                                guint64        overhead_bytes);
guint64     hr_memory_chart_get_usable_bytes   (HrMemoryChart *self);
void        hr_memory_chart_set_usable_bytes   (HrMemoryChart *self,
                                                guint64        usable_bytes);
guint64     hr_memory_chart_get_device_bytes   (HrMemoryChart *self);
void        hr_memory_chart_set_device_bytes   (HrMemoryChart *self,
                                                guint64        device_bytes);
HrUnits     hr_memory_chart_get_units          (HrMemoryChart *self);
void        hr_memory_chart_set_units          (HrMemoryChart *self,
                                                HrUnits        units);

const char *hr_memory_chart_get_description    (HrMemoryChart *self);

void        hr_memory_chart_set_bars           (HrMemoryChart    *self,
                                                const HrChartBar *bars,
                                                guint             n_bars);
guint       hr_memory_chart_get_n_bars         (HrMemoryChart    *self);
const HrChartBar *hr_memory_chart_get_bar      (HrMemoryChart    *self,
                                                guint             index);

G_END_DECLS
