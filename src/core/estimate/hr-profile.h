/* hr-profile.h — the interface every engine profile implements
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An engine profile (the nominal method, llama.cpp, Ollama, vLLM …) is a
 * module in engines/ that fills an HrEstimate for an input and writes the
 * formulas of the figures it computed.  hr-estimate.c validates the input
 * and dispatches to the profile in one place; the steps all profiles share
 * (totals, verdict, speed, the multi-head comparison) are in
 * hr-profile-common.c.
 */

#pragma once

#include "hr-estimate-types.h"
#include "hr-formulas.h"

G_BEGIN_DECLS

typedef struct
{
  HrEngine engine;

  /* Fills @result (already zeroed) or fails: HR_ESTIMATE_ERROR_UNSUPPORTED
   * when the engine cannot run this combination (with result->fix set
   * where one change would make it run). */
  gboolean (*estimate) (const HrEstimateInput  *input,
                        HrEstimate             *result,
                        GError                **error);

  /* The formulas only this profile knows: weights, overhead, KV and
   * max context.  The shared ones are written by hr-formulas.c. */
  void     (*explain)  (const HrEstimateInput  *input,
                        const HrEstimate       *result,
                        HrFormulas             *formulas);
} HrEngineProfile;

extern const HrEngineProfile hr_profile_nominal;
extern const HrEngineProfile hr_profile_llamacpp;
extern const HrEngineProfile hr_profile_ollama;
extern const HrEngineProfile hr_profile_vllm;
extern const HrEngineProfile hr_profile_sglang;

G_END_DECLS
