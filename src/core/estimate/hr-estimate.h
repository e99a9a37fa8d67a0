/* hr-estimate.h — the estimator: pure functions over plain structs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything Headroom shows about memory and speed is computed behind this
 * header and nowhere else.  hr_estimate() validates an input and hands it
 * to the engine profile it names (engines/); the functions take plain
 * input structs and fill plain result structs, allocate nothing and touch
 * no global state, so they are cheap to call for every cell of the matrix
 * and every device.
 */

#pragma once

#include <glib.h>

#include "hr-device.h"
#include "hr-estimate-types.h"
#include "hr-formulas.h"
#include "hr-model-arch.h"
#include "hr-units.h"

G_BEGIN_DECLS

gboolean     hr_estimate                 (const HrEstimateInput *input,
                                          HrEstimate            *result,
                                          GError               **error);
void         hr_estimate_explain         (const HrEstimateInput *input,
                                          const HrEstimate      *result,
                                          HrFormulas            *formulas);

gboolean     hr_estimate_fits_gpu        (const HrEstimate      *estimate);


const char  *hr_verdict_to_string        (HrVerdict              verdict);
const char  *hr_engine_to_string         (HrEngine               engine);
gboolean     hr_engine_from_string       (const char            *str,
                                          HrEngine              *engine);

G_END_DECLS
