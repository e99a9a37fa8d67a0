/* hr-profile-nominal.c — the seed page's method: parameters × bits per weight
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Nominal weights (one effective bits-per-weight figure for the whole
 * model), the KV cache of the architecture, and an overhead of a fixed
 * part plus a share of the weights per device.  It reproduces every
 * number of the seed page (docs/SEED-SPEC.md) to the hundredth of a GiB and is
 * kept for that, and for devices no engine profile knows.
 */

#define G_LOG_DOMAIN "hr-profile-nominal"

#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "hr-estimate-constants.h"
#include "hr-profile.h"
#include "hr-profile-common.h"

static double
overhead_fixed (const HrDevice *device)
{
  return device->kind == HR_DEVICE_UNIFIED
         ? HR_OVERHEAD_FIXED_GIB - HR_OVERHEAD_UNIFIED_DISCOUNT_GIB
         : HR_OVERHEAD_FIXED_GIB;
}

static gboolean
nominal_estimate (const HrEstimateInput  *input,
                  HrEstimate             *result,
                  GError                **error)
{
  const HrModelArch *model = input->model;
  guint32 n_gpus = input->n_gpus;
  double bpe = input->kv_bytes_per_element;
  double weights, weights_dev, kv_total_one, kv_dev, overhead_dev, active_dev;
  double per_layer_token, kv_fraction, budget;
  guint32 heads_per_device;

  /* params × bpw ÷ 8, or an imported file's own tensor data. */
  weights = hr_profile_weights (input);
  weights_dev = weights / n_gpus;

  per_layer_token = hr_kv_cell_bytes (hr_model_arch_kv_cell (model), bpe, bpe);
  kv_fraction = hr_profile_kv_device_fraction (model, n_gpus, &heads_per_device);
  kv_total_one = hr_kv_bytes (model, input->context, input->batch, bpe);
  kv_dev = kv_total_one * kv_fraction;

  result->overhead_fixed_bytes = (guint64) llround (overhead_fixed (input->device) * HR_GIB);
  result->overhead_weights_fraction = HR_OVERHEAD_WEIGHTS_FRACTION;
  overhead_dev = overhead_fixed (input->device) * HR_GIB +
                 HR_OVERHEAD_WEIGHTS_FRACTION * weights_dev;

  if (!hr_profile_to_bytes (kv_dev * n_gpus, "the KV cache", &result->kv_bytes, error) ||
      !hr_profile_to_bytes (overhead_dev * n_gpus, "the overhead", &result->overhead_bytes, error))
    return FALSE;

  result->kv_bytes_per_element = bpe;
  result->kv_tokens = input->context;
  result->kv_window_tokens = MIN (input->context, (guint64) model->sliding_window);
  result->per_device_weights_bytes = (guint64) llround (weights_dev);
  result->per_device_kv_bytes = (guint64) llround (kv_dev);
  result->per_device_overhead_bytes = (guint64) llround (overhead_dev);
  result->kv_heads_per_device = heads_per_device;
  result->kv_device_fraction = kv_fraction;
  result->kv_replicated = model->attention != HR_ATTENTION_MLA &&
                          (guint64) heads_per_device * n_gpus > model->n_kv_heads;

  budget = (double) hr_estimate_input_usable (input, 0) - weights_dev - overhead_dev;
  result->max_context = hr_profile_solve_max_context (model, budget,
                                                      per_layer_token * kv_fraction * input->batch,
                                                      &result->max_context_unbounded);

  /* A file's tensors are read in the share the active parameters have. */
  active_dev = input->weights_bytes > 0
               ? weights * (model->params_active / model->params_total) / n_gpus
               : model->params_active * input->bpw / 8.0 / n_gpus;

  return hr_profile_finish (input, result, weights, kv_total_one, active_dev,
                            hr_kv_bytes (model, input->context, 1, bpe) * kv_fraction,
                            HR_DECODE_FIXED_SECONDS, error);
}

static void
nominal_explain (const HrEstimateInput *input,
                 const HrEstimate      *result,
                 HrFormulas            *f)
{
  const HrModelArch *a = input->model;
  g_autofree char *weights_dev = hr_formulas_size (f, result->per_device_weights_bytes);
  g_autofree char *overhead = hr_formulas_size (f, result->per_device_overhead_bytes);
  g_autofree char *usable = hr_formulas_size (f, result->usable_bytes);
  g_autofree char *max_ctx = hr_format_tokens (result->max_context);
  guint32 global = hr_model_arch_global_layers (a);
  guint32 local = a->n_layers - global;

  if (input->weights_bytes > 0)
    {
      g_autofree char *weights = hr_formulas_size (f, result->weights_bytes);
      g_autofree char *nominal = hr_formulas_nominal_weights (input, result, f);

      /* TRANSLATORS: "4.92 GiB, the tensors of the imported file (nominal: …)" */
      hr_formulas_set (f, HR_FORMULA_WEIGHTS,
                       g_strdup_printf (_("%s, the tensors of the imported file (nominal: %s)"),
                                        weights, nominal));
    }
  else
    hr_formulas_set (f, HR_FORMULA_WEIGHTS, hr_formulas_nominal_weights (input, result, f));
  hr_formulas_set (f, HR_FORMULA_KV, hr_formulas_kv_text (input, result, f, input->batch));

  /* TRANSLATORS: "1.14 GiB + 3 % × 5.31 GiB = 1.30 GiB per device" */
  hr_formulas_set (f, HR_FORMULA_OVERHEAD,
                   g_strdup_printf (_("%.2f GiB + %.0f %% × %s = %s per device"),
                                    result->overhead_fixed_bytes / HR_GIB,
                                    result->overhead_weights_fraction * 100, weights_dev,
                                    overhead));

  if (result->max_context_unbounded)
    hr_formulas_set (f, HR_FORMULA_MAX_CONTEXT,
                     g_strdup (_("Every layer keeps at most its window: the cache stops "
                                 "growing, memory never limits the context")));
  else if (result->max_context == 0)
    /* TRANSLATORS: "5.31 GiB of weights and 1.30 GiB of overhead leave no room in 4.81 GiB" */
    hr_formulas_set (f, HR_FORMULA_MAX_CONTEXT,
                     g_strdup_printf (_("%s of weights and %s of overhead leave no room "
                                        "for a cache in %s"), weights_dev, overhead, usable));
  else if (local > 0 && result->max_context > a->sliding_window)
    {
      double per_layer = hr_kv_cell_bytes (result->kv_cell, result->kv_bytes_per_element,
                                           result->kv_bytes_per_element) *
                         result->kv_device_fraction * input->batch;
      g_autofree char *window = hr_format_tokens (a->sliding_window);
      g_autofree char *per_token_all = hr_format_tokens ((guint64) llround (per_layer * a->n_layers));
      g_autofree char *per_token_global = hr_format_tokens ((guint64) llround (per_layer * global));

      /* TRANSLATORS: the max context of a model with sliding-window layers:
       * "(15.81 GiB − 9.74 GiB − 1.43 GiB − 128 × 49,152 B) ÷ 24,576 B per
       * token on the 12 global layers + 128 = 202,536 tokens" */
      hr_formulas_set (f, HR_FORMULA_MAX_CONTEXT,
                       g_strdup_printf (_("(%s − %s − %s − %s tokens × %s B on all layers) ÷ "
                                          "%s B per token on the %u global layers + %s = "
                                          "%s tokens"),
                                        usable, weights_dev, overhead, window, per_token_all,
                                        per_token_global, global, window, max_ctx));
    }
  else
    {
      double per_token = hr_kv_cell_bytes (result->kv_cell, result->kv_bytes_per_element,
                                           result->kv_bytes_per_element) *
                         a->n_layers * input->batch * result->kv_device_fraction;
      g_autofree char *per_token_text = hr_format_tokens ((guint64) llround (per_token));

      /* TRANSLATORS: "(11.81 GiB − 5.31 GiB − 1.30 GiB) ÷ 40,960 B per token = 136,399 tokens" */
      hr_formulas_set (f, HR_FORMULA_MAX_CONTEXT,
                       g_strdup_printf (_("(%s − %s − %s) ÷ %s B per token = %s tokens"),
                                        usable, weights_dev, overhead, per_token_text, max_ctx));
    }
}

const HrEngineProfile hr_profile_nominal = {
  .engine = HR_ENGINE_GENERIC,
  .estimate = nominal_estimate,
  .explain = nominal_explain,
};
