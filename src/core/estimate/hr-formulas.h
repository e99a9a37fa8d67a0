/* hr-formulas.h — the arithmetic behind each figure, as a person reads it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One line per figure, with the operands the estimator used substituted
 * ("2 × 2 KV heads × 128 × 40 layers × 32,768 tokens × 2 B = 1.25 GiB"),
 * written by the module that computed the figure.  Numbers follow the
 * locale and the chosen unit; the words are translated.
 */

#pragma once

#include "hr-estimate-types.h"
#include "hr-format.h"

G_BEGIN_DECLS

typedef enum
{
  HR_FORMULA_WEIGHTS,
  HR_FORMULA_KV,
  HR_FORMULA_OVERHEAD,
  HR_FORMULA_TOTAL,
  HR_FORMULA_USABLE,
  HR_FORMULA_MAX_CONTEXT,
  HR_FORMULA_MHA,
  HR_FORMULA_DECODE,
  HR_FORMULA_PROMPT,              /* engine profiles: the prompt and the answer */
  HR_N_FORMULAS
} HrFormulaKind;

typedef struct
{
  HrUnits units;                  /* in: how to show sizes */
  const char *kv_type_label;      /* in: the cache type asked for, e.g. "Q8_0" */
  char *text[HR_N_FORMULAS];      /* out: owned, NULL where not applicable */
} HrFormulas;

void   hr_formulas_clear       (HrFormulas            *formulas);
void   hr_formulas_set         (HrFormulas            *formulas,
                                HrFormulaKind          kind,
                                char                  *text);
char  *hr_formulas_size        (const HrFormulas      *formulas,
                                guint64                bytes);

/* The lines every profile shares (total, usable memory, the multi-head
 * baseline, decode speed) and the generic KV line. */
void   hr_formulas_write_common (const HrEstimateInput *input,
                                 const HrEstimate      *result,
                                 HrFormulas            *formulas);
char  *hr_formulas_kv_text     (const HrEstimateInput  *input,
                                const HrEstimate       *result,
                                const HrFormulas       *formulas,
                                guint64                 streams);
/* The engine profiles' weights line: tensor by tensor, and the nominal. */
void   hr_formulas_set_engine_weights (const HrEstimateInput *input,
                                       const HrEstimate      *result,
                                       HrFormulas            *formulas);
char  *hr_formulas_nominal_weights (const HrEstimateInput *input,
                                    const HrEstimate      *result,
                                    const HrFormulas      *formulas);

G_END_DECLS
