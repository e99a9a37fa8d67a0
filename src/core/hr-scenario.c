/* hr-scenario.c — one question asked of the estimator, in catalog terms
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-scenario"

#include "config.h"

#include "hr-scenario.h"

gboolean
hr_scenario_estimate (const HrScenario  *scenario,
                      HrEstimate        *result,
                      GError           **error)
{
  HrEstimateInput input = { 0 };

  g_return_val_if_fail (scenario != NULL, FALSE);
  g_return_val_if_fail (result != NULL, FALSE);

  if (scenario->model == NULL || scenario->precision == NULL ||
      scenario->kv_type == NULL || scenario->hardware == NULL)
    {
      memset (result, 0, sizeof *result);
      g_set_error_literal (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_INVALID,
                           "choose a model, a precision, a KV cache type and a device");
      return FALSE;
    }

  input.model = hr_model_spec_get_arch (scenario->model);
  input.bpw = hr_precision_get_bpw (scenario->precision);
  input.kv_bytes_per_element = hr_kv_type_get_bytes_per_element (scenario->kv_type);
  input.context = scenario->context;
  input.batch = scenario->batch;
  input.engine = scenario->engine;
  input.device = hr_hardware_get_device (scenario->hardware);
  input.n_gpus = scenario->gpus;

  return hr_estimate (&input, result, error);
}
