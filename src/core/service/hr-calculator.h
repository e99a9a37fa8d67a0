/* hr-calculator.h — the estimator as a GObject service
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-catalog.h"
#include "hr-enums.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

#define HR_TYPE_CALCULATOR (hr_calculator_get_type ())

G_DECLARE_FINAL_TYPE (HrCalculator, hr_calculator, HR, CALCULATOR, GObject)

HrCalculator      *hr_calculator_new                (HrCatalog    *catalog);
HrCatalog         *hr_calculator_get_catalog        (HrCalculator *self);

HrModelSpec       *hr_calculator_get_model          (HrCalculator *self);
void               hr_calculator_set_model          (HrCalculator *self,
                                                     HrModelSpec  *model);
HrPrecision       *hr_calculator_get_precision      (HrCalculator *self);
void               hr_calculator_set_precision      (HrCalculator *self,
                                                     HrPrecision  *precision);
HrKvType          *hr_calculator_get_kv_type        (HrCalculator *self);
void               hr_calculator_set_kv_type        (HrCalculator *self,
                                                     HrKvType     *kv_type);
HrHardware        *hr_calculator_get_hardware       (HrCalculator *self);
void               hr_calculator_set_hardware       (HrCalculator *self,
                                                     HrHardware   *hardware);
guint64            hr_calculator_get_context        (HrCalculator *self);
void               hr_calculator_set_context        (HrCalculator *self,
                                                     guint64       context);
guint              hr_calculator_get_batch          (HrCalculator *self);
void               hr_calculator_set_batch          (HrCalculator *self,
                                                     guint         batch);
HrEngine           hr_calculator_get_engine         (HrCalculator *self);
void               hr_calculator_set_engine         (HrCalculator *self,
                                                     HrEngine      engine);
guint              hr_calculator_get_gpu_count      (HrCalculator *self);
void               hr_calculator_set_gpu_count      (HrCalculator *self,
                                                     guint         gpu_count);

guint              hr_calculator_get_tp             (HrCalculator *self);
void               hr_calculator_set_tp             (HrCalculator *self,
                                                     guint         tp);
guint              hr_calculator_get_pp             (HrCalculator *self);
void               hr_calculator_set_pp             (HrCalculator *self,
                                                     guint         pp);
guint              hr_calculator_get_dp             (HrCalculator *self);
void               hr_calculator_set_dp             (HrCalculator *self,
                                                     guint         dp);
guint              hr_calculator_get_nodes          (HrCalculator *self);
void               hr_calculator_set_nodes          (HrCalculator *self,
                                                     guint         nodes);
guint              hr_calculator_get_gpus_per_node  (HrCalculator *self);
void               hr_calculator_set_gpus_per_node  (HrCalculator *self,
                                                     guint         gpus_per_node);
void               hr_calculator_set_layout         (HrCalculator   *self,
                                                     const HrLayout *layout);
guint              hr_calculator_get_users          (HrCalculator *self);
void               hr_calculator_set_users          (HrCalculator *self,
                                                     guint         users);
double             hr_calculator_get_target_tokens_per_s (HrCalculator *self);
void               hr_calculator_set_target_tokens_per_s (HrCalculator *self,
                                                          double        target);
HrCpu             *hr_calculator_get_cpu            (HrCalculator *self);
void               hr_calculator_set_calibration    (HrCalculator  *self,
                                                     HrCalibration *calibration);
const HrCalibration *hr_calculator_get_calibration  (HrCalculator *self);
void               hr_calculator_set_cpu            (HrCalculator *self,
                                                     HrCpu        *cpu);
guint64            hr_calculator_get_depth          (HrCalculator *self);
void               hr_calculator_set_depth          (HrCalculator *self,
                                                     guint64       depth);
guint              hr_calculator_get_backend        (HrCalculator *self);
void               hr_calculator_set_backend        (HrCalculator *self,
                                                     guint         backend);
gboolean           hr_calculator_backend_possible   (HrCalculator *self,
                                                     HrBackend     backend);
guint64            hr_calculator_get_prompt_tokens  (HrCalculator *self);
void               hr_calculator_set_prompt_tokens  (HrCalculator *self,
                                                     guint64       prompt_tokens);
guint64            hr_calculator_get_generate_tokens (HrCalculator *self);
void               hr_calculator_set_generate_tokens (HrCalculator *self,
                                                      guint64       generate_tokens);
gboolean           hr_calculator_get_gpu_layers_auto (HrCalculator *self);
void               hr_calculator_set_gpu_layers_auto (HrCalculator *self,
                                                      gboolean      automatic);
guint              hr_calculator_get_gpu_layers     (HrCalculator *self);
void               hr_calculator_set_gpu_layers     (HrCalculator *self,
                                                     guint         gpu_layers);
HrSplitMode        hr_calculator_get_split_mode     (HrCalculator *self);
void               hr_calculator_set_split_mode     (HrCalculator *self,
                                                     HrSplitMode   split_mode);
gboolean           hr_calculator_get_kv_on_host     (HrCalculator *self);
void               hr_calculator_set_kv_on_host     (HrCalculator *self,
                                                     gboolean      kv_on_host);
guint              hr_calculator_get_lora_rank      (HrCalculator *self);
void               hr_calculator_set_lora_rank      (HrCalculator *self,
                                                     guint         rank);
guint              hr_calculator_get_n_cpu_moe      (HrCalculator *self);
void               hr_calculator_set_n_cpu_moe      (HrCalculator *self,
                                                     guint         n_cpu_moe);
guint64            hr_calculator_get_ram_bytes      (HrCalculator *self);
void               hr_calculator_set_ram_bytes      (HrCalculator *self,
                                                     guint64       ram_bytes);
double             hr_calculator_get_ram_bandwidth  (HrCalculator *self);
void               hr_calculator_set_ram_bandwidth  (HrCalculator *self,
                                                     double        gbps);

const HrEngineOptions *hr_calculator_get_engine_options (HrCalculator *self);
void               hr_calculator_set_engine_options (HrCalculator          *self,
                                                     const HrEngineOptions *options);

const HrSystemMemory *hr_calculator_get_ram      (HrCalculator *self);
void               hr_calculator_set_ram            (HrCalculator         *self,
                                                     const HrSystemMemory *ram);

void               hr_calculator_freeze             (HrCalculator *self);
void               hr_calculator_thaw               (HrCalculator *self);

const HrScenario  *hr_calculator_get_scenario       (HrCalculator *self);
const HrEstimate  *hr_calculator_get_estimate       (HrCalculator *self);
gboolean           hr_calculator_get_valid          (HrCalculator *self);
const char        *hr_calculator_get_error_message  (HrCalculator *self);
guint              hr_calculator_get_n_recomputes   (HrCalculator *self);
void               hr_calculator_explain            (HrCalculator *self,
                                                     HrFormulas   *formulas);

G_END_DECLS
