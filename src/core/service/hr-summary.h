/* hr-summary.h — one estimate in words: the verdict, its reason, the summary
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pure functions of a scenario and its estimate.  The Overview shows the
 * verdict they write, the tables name each row's verdict with
 * hr_summary_verdict_label(), and Copy Summary pastes hr_summary_text():
 * no view reads another view's labels, and every page says the same.
 */

#pragma once

#include "hr-format.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

const char *hr_summary_verdict_label   (HrVerdict          verdict,
                                        HrPlacementKind    placement);
gboolean    hr_summary_in_system_ram   (const HrEstimate  *estimate);
char       *hr_summary_device          (const HrScenario  *scenario);
void        hr_summary_verdict         (const HrScenario  *scenario,
                                        const HrEstimate  *estimate,
                                        HrUnits            units,
                                        char             **title,
                                        char             **subtitle);
char       *hr_summary_duration        (double             seconds);
double      hr_summary_answer_seconds  (const HrEstimate  *estimate);
double      hr_summary_answer_rate     (const HrEstimate  *estimate);
guint32     hr_summary_cpu_layers      (const HrEstimate  *estimate);
guint64     hr_summary_host_other_bytes (const HrEstimate *estimate);
char       *hr_summary_max_context     (const HrEstimate  *estimate);
char       *hr_summary_kv_note         (const HrScenario  *scenario,
                                        const HrEstimate  *estimate);
char       *hr_summary_ram_used        (const HrScenario  *scenario,
                                        const HrEstimate  *estimate,
                                        HrUnits            units);
const char *hr_summary_engine_name     (HrEngine           engine);
char       *hr_summary_text            (const HrScenario  *scenario,
                                        const HrEstimate  *estimate,
                                        const char        *error,
                                        HrUnits            units,
                                        gboolean           markdown);

G_END_DECLS
