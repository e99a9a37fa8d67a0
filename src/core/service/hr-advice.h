/* hr-advice.h — what would make a model fit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-catalog.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

/* Each member is set only when that change alone makes the scenario fit
 * (verdict not “no-fit”); NULL / 0 otherwise. */
typedef struct
{
  HrPrecision *precision;      /* the most precise weights that fit (borrowed) */
  guint64 context;             /* the longest context that fits (≥ 1) */
  HrKvType *kv_type;           /* the least lossy KV cache type that fits (borrowed) */
  guint32 gpus;                /* the fewest devices that fit (≤ HR_ADVICE_MAX_GPUS) */
  gboolean auto_layers;        /* llama.cpp, Ollama: GPU layers fixed by hand, and
                                * automatic ones (the rest in system RAM) run */
  gboolean more_ram;           /* the system RAM is too small for what stays there;
                                * the GPUs are already as full as they can be */
} HrAdvice;

#define HR_ADVICE_MAX_GPUS 8

void hr_advice_compute (HrCatalog        *catalog,
                        const HrScenario *scenario,
                        HrAdvice         *advice);

G_END_DECLS
