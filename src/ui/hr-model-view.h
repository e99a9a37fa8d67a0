/* hr-model-view.h — the architecture card and the formula notes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-view.h"

G_BEGIN_DECLS

#define HR_TYPE_MODEL_VIEW (hr_model_view_get_type ())

G_DECLARE_FINAL_TYPE (HrModelView, hr_model_view, HR, MODEL_VIEW, HrView)

G_END_DECLS
