/* hr-placement-group.h — where llama.cpp puts the model: the sidebar's rows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-view.h"

G_BEGIN_DECLS

#define HR_TYPE_PLACEMENT_GROUP (hr_placement_group_get_type ())

G_DECLARE_FINAL_TYPE (HrPlacementGroup, hr_placement_group, HR, PLACEMENT_GROUP, HrView)

G_END_DECLS
