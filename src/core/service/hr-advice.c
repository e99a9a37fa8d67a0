/* hr-advice.c — what would make a model fit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * When the verdict is “does not fit”, the window says what would: each
 * suggestion changes one input and is checked with the estimator itself.
 */

#define G_LOG_DOMAIN "hr-advice"

#include "config.h"

#include "hr-advice.h"

static gboolean
fits (const HrScenario *scenario,
      HrEstimate       *estimate)
{
  return hr_scenario_estimate (scenario, estimate, NULL) &&
         hr_estimate_fits_gpu (estimate);
}

void
hr_advice_compute (HrCatalog        *catalog,
                   const HrScenario *scenario,
                   HrAdvice         *advice)
{
  GListModel *precisions, *kv_types;
  HrScenario s;
  HrEstimate e;
  double best_bpw = 0;
  double best_kv = 0;

  g_return_if_fail (HR_IS_CATALOG (catalog));
  g_return_if_fail (scenario != NULL);
  g_return_if_fail (advice != NULL);

  memset (advice, 0, sizeof *advice);

  /* Weights: the highest bpw below the current one that fits, among the
   * formats published for any model. */
  precisions = hr_catalog_get_precisions (catalog);
  for (guint i = 0; i < g_list_model_get_n_items (precisions); i++)
    {
      g_autoptr(HrPrecision) p = g_list_model_get_item (precisions, i);
      double bpw = hr_precision_get_bpw (p);

      if (scenario->precision == NULL || bpw >= hr_precision_get_bpw (scenario->precision) ||
          bpw <= best_bpw || hr_precision_get_niche (p))
        continue;
      s = *scenario;
      s.precision = p;
      if (fits (&s, &e))
        {
          advice->precision = p;
          best_bpw = bpw;
        }
    }

  /* Context: the estimator's own maximum, when it is at least one token. */
  if (hr_scenario_estimate (scenario, &e, NULL) && e.max_context >= 1 &&
      e.max_context < scenario->context)
    advice->context = e.max_context;

  /* KV cache: the largest element size below the current one that fits. */
  kv_types = hr_catalog_get_kv_types (catalog);
  for (guint i = 0; i < g_list_model_get_n_items (kv_types); i++)
    {
      g_autoptr(HrKvType) k = g_list_model_get_item (kv_types, i);
      double bytes = hr_kv_type_get_bytes_per_element (k);

      if (scenario->kv_type == NULL ||
          bytes >= hr_kv_type_get_bytes_per_element (scenario->kv_type) || bytes <= best_kv)
        continue;
      s = *scenario;
      s.kv_type = k;
      if (fits (&s, &e))
        {
          advice->kv_type = k;
          best_kv = bytes;
        }
    }

  /* Layers: fixed by hand, and automatic ones (as many on the GPUs as fit,
   * the rest in system RAM) would run.  Never offered where they would not,
   * nor where the placement is already automatic (issue 30, item 12). */
  if (scenario->placement.gpu_layers_fixed &&
      (hr_scenario_engine (scenario) == HR_ENGINE_LLAMACPP ||
       hr_scenario_engine (scenario) == HR_ENGINE_OLLAMA))
    {
      s = *scenario;
      s.placement.gpu_layers_fixed = FALSE;
      s.placement.gpu_layers = 0;
      advice->auto_layers = hr_scenario_estimate (&s, &e, NULL) &&
                            e.verdict != HR_VERDICT_NO_FIT;
    }

  /* System RAM: what stays there does not fit it, and automatic layers
   * (the GPUs as full as they can be) do not help: only more RAM does. */
  if (hr_scenario_estimate (scenario, &e, NULL) && !e.ram_fits && !advice->auto_layers)
    advice->more_ram = TRUE;

  /* Devices: the fewest that hold it under tensor parallelism; a
   * unified-memory device (an Apple chip) is never more than one. */
  for (guint32 n = scenario->gpus + 1;
       n <= HR_ADVICE_MAX_GPUS && !hr_hardware_is_unified (scenario->hardware); n++)
    {
      s = *scenario;
      s.gpus = n;
      if (fits (&s, &e))
        {
          advice->gpus = n;
          break;
        }
    }
}
