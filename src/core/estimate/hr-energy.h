/* hr-energy.h — joules per token and the price of a million tokens
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pure arithmetic on an estimate; the model and its constants are in
 * hr-estimate-constants.h ("Energy").
 */

#pragma once

#include "hr-estimate-types.h"

G_BEGIN_DECLS

/* What a user pays: an electricity price per kWh, or a rental price per
 * hour of the machine (which includes its power).  Both 0: no price. */
typedef struct
{
  double per_kwh;
  double per_hour;
} HrPrice;

guint32 hr_energy_parallel_gpus      (HrEngine          engine,
                                       guint32           gpus);
double hr_energy_utilisation          (const HrEstimate *estimate);
double hr_energy_joules_per_token     (const HrEstimate *estimate,
                                       double            tdp_watts,
                                       guint32           parallel_gpus);
double hr_energy_cost_per_million     (double            joules_per_token,
                                       double            tokens_per_s,
                                       const HrPrice    *price);

G_END_DECLS
