/* hr-profile-llamacpp.h — the llama.cpp profile, shared with Ollama's
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-llamacpp-memory.h"
#include "hr-profile.h"

G_BEGIN_DECLS

/* How an engine launches llama.cpp for @input at @context tokens per
 * sequence: fills @params and the -c value, or fails with
 * HR_ESTIMATE_ERROR_UNSUPPORTED (and @fix) when llama.cpp would refuse. */
typedef gboolean (*HrLlamaCppLaunch) (const HrEstimateInput  *input,
                                      guint64                 context,
                                      HrLlamaCppParams       *params,
                                      guint64                *n_ctx,
                                      HrFix                  *fix,
                                      GError                **error);

gboolean hr_profile_llamacpp_run     (const HrEstimateInput  *input,
                                      HrEstimate             *result,
                                      HrLlamaCppLaunch        launch,
                                      GError                **error);
void     hr_profile_llamacpp_explain (const HrEstimateInput  *input,
                                      const HrEstimate       *result,
                                      HrFormulas             *formulas);

G_END_DECLS
