/* hr-model-arch.c — the shape of a model, and the arithmetic of its shape
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-model-arch"

#include "config.h"

#include <math.h>

#include "hr-model-arch.h"

G_DEFINE_QUARK (hr-model-arch-error-quark, hr_model_arch_error)

/* The baseline of the "KV compression saves N %" sentence (docs/SEED-SPEC.md
 * P6): standard multi-head attention, one K and one V vector per query
 * head on every layer, in FP16. */
#define MHA_BASELINE_BYTES_PER_ELEMENT 2.0

/* Parameter counts above HR_PARAMS_MAX (hr-units.h) are refused: 10^15
 * is a thousand times the largest published model. */

static const char * const attention_names[] = {
  [HR_ATTENTION_MHA] = "mha",
  [HR_ATTENTION_GQA] = "gqa",
  [HR_ATTENTION_MQA] = "mqa",
  [HR_ATTENTION_MLA] = "mla",
};

gboolean
hr_lookup_name (const char * const *names,
                guint               n_names,
                const char         *str,
                int                *value)
{
  if (str == NULL)
    return FALSE;

  for (guint i = 0; i < n_names; i++)
    {
      if (names[i] != NULL && g_ascii_strcasecmp (names[i], str) == 0)
        {
          *value = (int) i;
          return TRUE;
        }
    }

  return FALSE;
}

const char *
hr_attention_kind_to_string (HrAttentionKind kind)
{
  g_return_val_if_fail (kind < G_N_ELEMENTS (attention_names), NULL);
  return attention_names[kind];
}

gboolean
hr_attention_kind_from_string (const char      *str,
                               HrAttentionKind *kind)
{
  int value;

  if (!hr_lookup_name (attention_names, G_N_ELEMENTS (attention_names), str, &value))
    return FALSE;
  *kind = value;
  return TRUE;
}

static gboolean
invalid (GError    **error,
         const char *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError    **error,
         const char *format,
         ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (HR_MODEL_ARCH_ERROR,
                                                HR_MODEL_ARCH_ERROR_INVALID,
                                                format, args));
  va_end (args);
  return FALSE;
}

static gboolean
is_positive (double value)
{
  return isfinite (value) && value > 0;
}

gboolean
hr_model_arch_validate (const HrModelArch  *model,
                        GError            **error)
{
  g_return_val_if_fail (model != NULL, FALSE);

  if (model->n_layers == 0 || model->n_layers > HR_LAYERS_MAX)
    return invalid (error, "layer count %u is out of range (1–%u)",
                    model->n_layers, HR_LAYERS_MAX);
  if (model->hidden == 0)
    return invalid (error, "hidden size must be positive");
  if (model->n_heads == 0)
    return invalid (error, "query head count must be positive");
  if (model->attention != HR_ATTENTION_MLA)
    {
      if (model->n_kv_heads == 0)
        return invalid (error, "KV head count must be positive");
      if (model->n_kv_heads > model->n_heads ||
          model->n_heads % model->n_kv_heads != 0)
        return invalid (error, "%u KV heads do not divide %u query heads",
                        model->n_kv_heads, model->n_heads);
      if (model->attention == HR_ATTENTION_MQA && model->n_kv_heads != 1)
        return invalid (error, "multi-query attention has one KV head, not %u",
                        model->n_kv_heads);
      if (model->attention == HR_ATTENTION_MHA &&
          model->n_kv_heads != model->n_heads)
        return invalid (error, "multi-head attention needs as many KV heads "
                        "as query heads (%u ≠ %u)",
                        model->n_kv_heads, model->n_heads);
    }
  else if (model->kv_lora_rank == 0 || model->qk_rope_head_dim == 0)
    return invalid (error, "latent attention needs kv_lora_rank and "
                    "qk_rope_head_dim");
  if (model->head_dim_k == 0 || model->head_dim_v == 0)
    return invalid (error, "head dimension must be positive");
  if (model->swa_period > model->n_layers)
    return invalid (error, "sliding-window period %u exceeds %u layers",
                    model->swa_period, model->n_layers);
  if (model->vocab == 0)
    return invalid (error, "vocabulary size must be positive");
  if (model->max_context == 0 || model->max_context > HR_CONTEXT_MAX)
    return invalid (error, "trained context %" G_GUINT64_FORMAT
                    " is out of range", model->max_context);
  if (!is_positive (model->params_total) || model->params_total > HR_PARAMS_MAX)
    return invalid (error, "parameter count must be positive and below 10^15");
  if (!is_positive (model->params_active) ||
      model->params_active > model->params_total)
    return invalid (error, "active parameters must be positive and at most "
                    "the total");

  return TRUE;
}

guint32
hr_model_arch_local_layers (const HrModelArch *model)
{
  if (model->sliding_window == 0)
    return 0;
  if (model->swa_period == 0)
    return model->n_layers;
  return model->n_layers - model->n_layers / model->swa_period;
}

guint32
hr_model_arch_global_layers (const HrModelArch *model)
{
  return model->n_layers - hr_model_arch_local_layers (model);
}

/* Whether layer @layer (from 0) slides over the window: with a period,
 * the last layer of every period is global. */
gboolean
hr_model_arch_layer_is_local (const HrModelArch *model,
                              guint32            layer)
{
  if (model->sliding_window == 0)
    return FALSE;
  if (model->swa_period == 0)
    return TRUE;
  return (layer + 1) % model->swa_period != 0;
}

/**
 * hr_swa_period_from_layers:
 * @sliding: (array length=n_layers): whether each layer uses the window
 *
 * HrModelArch describes sliding-window layers by a period whose last layer
 * is global (0: every layer is local).  A pattern that does not fit that
 * form gets the period that keeps at least as many global layers as the
 * model has, so the KV estimate errs on the large side.  Both importers
 * (GGUF and config.json) use this one rule.
 */
HrSwaPattern
hr_swa_period_from_layers (const gboolean *sliding,
                           guint64         n_layers,
                           guint64        *period)
{
  guint64 n_global = 0;
  guint64 first_global = 0;

  *period = 0;
  for (guint64 i = n_layers; i-- > 0;)
    {
      if (!sliding[i])
        {
          n_global++;
          first_global = i;
        }
    }

  if (n_global == n_layers)
    return HR_SWA_NONE;
  if (n_global == 0)
    return HR_SWA_ALL;

  *period = first_global + 1;
  for (guint64 i = 0; i < n_layers; i++)
    if (!sliding[i] != ((i + 1) % *period == 0))
      {
        *period = n_layers / n_global;
        return HR_SWA_IRREGULAR;
      }
  return HR_SWA_PERIODIC;
}

/**
 * hr_model_arch_kv_cell:
 *
 * The elements one token adds to one layer's cache.  MHA, GQA and MQA keep
 * a K and a V vector per KV head; MLA keeps one compressed latent and the
 * decoupled RoPE key (llama.cpp stores both in K and has no V tensor;
 * vLLM's MLA cache is the same width).
 */
HrKvCell
hr_model_arch_kv_cell (const HrModelArch *model)
{
  g_return_val_if_fail (model != NULL, (HrKvCell) { 0 });

  if (model->attention == HR_ATTENTION_MLA)
    return (HrKvCell) {
      .k_elements = (double) model->kv_lora_rank + model->qk_rope_head_dim,
      .v_elements = 0,
    };

  return (HrKvCell) {
    .k_elements = (double) model->n_kv_heads * model->head_dim_k,
    .v_elements = (double) model->n_kv_heads * model->head_dim_v,
  };
}

/* Bytes of one cell: K and V may be stored in different types. */
double
hr_kv_cell_bytes (HrKvCell cell,
                  double   k_bytes_per_element,
                  double   v_bytes_per_element)
{
  return cell.k_elements * k_bytes_per_element + cell.v_elements * v_bytes_per_element;
}

/* Layer-tokens held for one sequence: global layers hold every token,
 * sliding-window layers at most the window. */
double
hr_model_arch_kv_layer_tokens (const HrModelArch *model,
                               guint64            context)
{
  guint32 local = hr_model_arch_local_layers (model);
  guint32 global = model->n_layers - local;
  guint64 local_tokens = MIN (context, (guint64) model->sliding_window);

  return (double) global * context + (double) local * local_tokens;
}

double
hr_kv_bytes_per_token (const HrModelArch *model,
                       double             bytes_per_element)
{
  g_return_val_if_fail (model != NULL, 0);

  return hr_kv_cell_bytes (hr_model_arch_kv_cell (model), bytes_per_element,
                           bytes_per_element) * model->n_layers;
}

double
hr_kv_bytes (const HrModelArch *model,
             guint64            context,
             guint32            batch,
             double             bytes_per_element)
{
  g_return_val_if_fail (model != NULL, 0);

  return hr_kv_cell_bytes (hr_model_arch_kv_cell (model), bytes_per_element,
                           bytes_per_element) *
         hr_model_arch_kv_layer_tokens (model, context) * batch;
}

double
hr_kv_mha_bytes (const HrModelArch *model,
                 guint64            context,
                 guint32            batch)
{
  g_return_val_if_fail (model != NULL, 0);

  return (double) model->n_heads *
         ((double) model->head_dim_k + model->head_dim_v) *
         MHA_BASELINE_BYTES_PER_ELEMENT *
         model->n_layers * (double) context * batch;
}
