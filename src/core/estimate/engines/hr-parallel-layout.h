/* hr-parallel-layout.h — one GPU's share of a model under TP and PP
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * vLLM and SGLang cut each layer over the tensor-parallel ranks and the
 * layers over pipeline stages.  vLLM gives every stage L / pp layers and
 * the remainder one each to the stages before the last, which carries the
 * norm and the head (vllm/distributed/utils.py get_pp_indices); SGLang
 * adds the remainder to the last stages.  The first stage holds the token
 * embeddings, the last the head; each rank a 1/tp share of its stage.
 */

#pragma once

#include "hr-estimate-types.h"

G_BEGIN_DECLS

typedef enum
{
  HR_PP_REMAINDER_FRONT,     /* vLLM */
  HR_PP_REMAINDER_BACK,      /* SGLang */
} HrPpRemainder;

typedef struct
{
  guint32 first_layer;
  guint32 n_layers;
  gboolean first;            /* holds the embeddings */
  gboolean last;             /* holds the head (and runs the sampler) */
  double weights_bytes;      /* one tensor-parallel rank's */
} HrStage;

guint64  hr_cuda_total_bytes        (const HrDevice        *device);
gboolean hr_layout_resolve          (const HrEstimateInput *input,
                                     HrLayout              *layout,
                                     GError               **error);
gboolean hr_profile_serving_check   (const HrEstimateInput *input,
                                     const char            *engine,
                                     HrLayout              *layout,
                                     HrEstimate            *result,
                                     GError               **error);
/* vLLM and SGLang: no fit when one sequence of the context does not fit
 * the cache; comfortable when it holds the sequences asked for with the
 * other profiles' 10 % to spare, tight when it just holds them. */
HrVerdict hr_serving_verdict        (gboolean               cache_holds_context,
                                     guint32                batch,
                                     double                 max_concurrency);
void     hr_layout_stage            (const HrEstimateInput *input,
                                     const HrLayout        *layout,
                                     HrPpRemainder          remainder,
                                     double                 weights,
                                     guint32                stage,
                                     HrStage               *out);

G_END_DECLS
