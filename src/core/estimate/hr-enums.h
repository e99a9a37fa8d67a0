/* hr-enums.h — GTypes for the estimator's enumerations
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "hr-estimate.h"

G_BEGIN_DECLS

#define HR_TYPE_ENGINE  (hr_engine_get_type ())
#define HR_TYPE_VERDICT (hr_verdict_get_type ())

GType hr_engine_get_type  (void) G_GNUC_CONST;
GType hr_verdict_get_type (void) G_GNUC_CONST;

G_END_DECLS
