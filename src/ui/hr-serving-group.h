/* hr-serving-group.h — the sidebar's serving controls (vLLM, SGLang)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-calculator.h"

G_BEGIN_DECLS

#define HR_TYPE_SERVING_GROUP (hr_serving_group_get_type ())

G_DECLARE_FINAL_TYPE (HrServingGroup, hr_serving_group, HR, SERVING_GROUP, AdwBin)

HrCalculator *hr_serving_group_get_calculator (HrServingGroup *self);
void          hr_serving_group_set_calculator (HrServingGroup *self,
                                               HrCalculator   *calculator);
GListModel   *hr_serving_group_get_tp_choices (HrServingGroup *self);
GListModel   *hr_serving_group_get_pp_choices (HrServingGroup *self);
gboolean      hr_serving_group_shows_for      (guint           engine_used);

G_END_DECLS
