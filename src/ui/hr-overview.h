/* hr-overview.h — verdict, memory chart, figures and assumptions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-view.h"

G_BEGIN_DECLS

#define HR_TYPE_OVERVIEW (hr_overview_get_type ())

G_DECLARE_FINAL_TYPE (HrOverview, hr_overview, HR, OVERVIEW, HrView)

G_END_DECLS
