/* hr-model-view.h — the architecture card and the formula notes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-calculator.h"

G_BEGIN_DECLS

#define HR_TYPE_MODEL_VIEW (hr_model_view_get_type ())

G_DECLARE_FINAL_TYPE (HrModelView, hr_model_view, HR, MODEL_VIEW, AdwBin)

G_END_DECLS
