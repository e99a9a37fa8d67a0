/* hr-model-arch.c — the shape of a model, and the arithmetic of its shape
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-model-arch"

#include "config.h"

#include <math.h>
#include <string.h>

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

static const char * const state_names[] = {
  [HR_STATE_NONE] = "none",
  [HR_STATE_MAMBA] = "mamba",
  [HR_STATE_GATED_DELTANET] = "gated_deltanet",
  [HR_STATE_RWKV] = "rwkv",
  [HR_STATE_SHORT_CONV] = "short_conv",
};

/* RWKV-6 and RWKV-7 shift two token vectors (time mix and channel mix)
 * per layer: llama.cpp's LLM_KV_TOKEN_SHIFT_COUNT defaults to 2 for both
 * (src/llama-model.cpp, load_hparams, LLM_ARCH_RWKV6/RWKV7), and
 * n_embd_r() = token_shift_count × n_embd (src/llama-hparams.cpp). */
#define RWKV_TOKEN_SHIFT_COUNT 2

/* The characters a layer pattern may hold (hr-model-arch.h). */
static const char LAYER_KINDS[] = { HR_LAYER_RECURRENT, HR_LAYER_ATTENTION, HR_LAYER_MLP, '\0' };

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

const char *
hr_state_kind_to_string (HrStateKind kind)
{
  g_return_val_if_fail (kind < G_N_ELEMENTS (state_names), NULL);
  return state_names[kind];
}

gboolean
hr_state_kind_from_string (const char  *str,
                           HrStateKind *kind)
{
  int value;

  if (!hr_lookup_name (state_names, G_N_ELEMENTS (state_names), str, &value))
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
  if (model->n_state_layers > model->n_layers)
    return invalid (error, "%u recurrent layers exceed %u layers",
                    model->n_state_layers, model->n_layers);
  if ((model->state_kind == HR_STATE_NONE) != (model->n_state_layers == 0))
    return invalid (error, "recurrent layers need a state kind, and a state kind "
                    "recurrent layers");
  if (model->state_kind == HR_STATE_MAMBA || model->state_kind == HR_STATE_GATED_DELTANET)
    {
      if (model->ssm_conv_kernel == 0 || model->ssm_inner == 0 || model->ssm_state == 0)
        return invalid (error, "a state-space layer needs its convolution kernel, "
                        "inner size and state size");
    }
  else if (model->state_kind == HR_STATE_RWKV && model->ssm_state == 0)
    return invalid (error, "an RWKV layer needs its head size (ssm_state)");
  else if (model->state_kind == HR_STATE_SHORT_CONV && model->ssm_conv_kernel < 2)
    return invalid (error, "a short-convolution layer needs a kernel of 2 or more");
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
  if (model->layer_pattern[0] != '\0')
    {
      gsize len = strlen (model->layer_pattern);

      if (len != model->n_layers)
        return invalid (error, "the layer pattern has %" G_GSIZE_FORMAT " layers, not %u",
                        len, model->n_layers);
      if (strspn (model->layer_pattern, LAYER_KINDS) != len)
        return invalid (error, "the layer pattern may only hold %s", LAYER_KINDS);
      if (hr_layer_pattern_count (model->layer_pattern, HR_LAYER_RECURRENT) !=
          model->n_state_layers)
        return invalid (error, "the layer pattern has %u recurrent layers (%c), not %u",
                        hr_layer_pattern_count (model->layer_pattern, HR_LAYER_RECURRENT),
                        HR_LAYER_RECURRENT, model->n_state_layers);
      if (model->attention_period > 0 || model->state_parallel)
        return invalid (error, "a layer pattern leaves no room for an attention period "
                        "or parallel layers");
    }
  if (model->attention_period > 0 && !model->state_parallel &&
      model->n_state_layers != model->n_layers - model->n_layers / model->attention_period)
    return invalid (error, "an attention layer every %u of %u layers leaves %u recurrent, "
                    "not %u", model->attention_period, model->n_layers,
                    model->n_layers - model->n_layers / model->attention_period,
                    model->n_state_layers);
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

/* How many layers of @pattern are of @kind. */
guint32
hr_layer_pattern_count (const char *pattern,
                        char        kind)
{
  guint32 n = 0;

  for (const char *p = pattern; *p != '\0'; p++)
    n += *p == kind;
  return n;
}

/**
 * hr_model_arch_set_layer_pattern:
 * @pattern: one HR_LAYER_* character per layer, or %NULL / "" for none
 *
 * Keeps @pattern as the model's layer kinds; the readers fill it from
 * the model's own per-layer data (a config's layer_types or
 * hybrid_override_pattern, a GGUF file's head_count_kv array).
 * hr_model_arch_validate() checks it against the counts.
 *
 * Returns: %FALSE if the pattern is longer than HR_LAYER_PATTERN_MAX
 */
gboolean
hr_model_arch_set_layer_pattern (HrModelArch  *model,
                                 const char   *pattern,
                                 GError      **error)
{
  if (pattern == NULL)
    pattern = "";
  if (strlen (pattern) > HR_LAYER_PATTERN_MAX)
    return invalid (error, "a layer pattern of %" G_GSIZE_FORMAT " layers is longer than "
                    "the %u kept", strlen (pattern), HR_LAYER_PATTERN_MAX);
  g_strlcpy (model->layer_pattern, pattern, sizeof model->layer_pattern);
  return TRUE;
}

/* Layers that keep a KV cache: those the layer pattern marks as
 * attention; without one, all but the recurrent ones, unless the model
 * runs attention beside the SSM in every layer (Falcon-H1). */
guint32
hr_model_arch_kv_layers (const HrModelArch *model)
{
  if (model->state_parallel)
    return model->n_layers;
  if (model->layer_pattern[0] != '\0')
    return hr_layer_pattern_count (model->layer_pattern, HR_LAYER_ATTENTION);
  return model->n_layers - MIN (model->n_state_layers, model->n_layers);
}

/* Whether layer @layer (from 0) attends and keeps a KV cache. */
gboolean
hr_model_arch_layer_attends (const HrModelArch *model,
                             guint32            layer)
{
  if (layer >= model->n_layers)
    return FALSE;
  if (model->state_parallel)
    return TRUE;
  if (model->layer_pattern[0] != '\0')
    return model->layer_pattern[layer] == HR_LAYER_ATTENTION;
  return !hr_model_arch_layer_is_recurrent (model, layer);
}

/* Whether layer @layer (from 0) keeps a recurrent state: with a layer
 * pattern, the layers it marks HR_LAYER_RECURRENT; with an attention
 * period, every layer but the last of each period (llama.cpp
 * qwen3next: recurrent_layer_arr[i] = (i + 1) % full_attention_interval
 * != 0); with none, every layer of a pure recurrent model and, for a
 * hybrid of unknown order, the first n_state_layers. */
gboolean
hr_model_arch_layer_is_recurrent (const HrModelArch *model,
                                  guint32            layer)
{
  if (model->n_state_layers == 0 || layer >= model->n_layers)
    return FALSE;
  if (model->layer_pattern[0] != '\0')
    return model->layer_pattern[layer] == HR_LAYER_RECURRENT;
  if (model->state_parallel || model->n_state_layers == model->n_layers)
    return TRUE;
  if (model->attention_period > 0)
    return (layer + 1) % model->attention_period != 0;
  return layer < model->n_state_layers;
}

/* Layers that attend, for the layer_kinds count: the same as the KV
 * layers. */
guint32
hr_model_arch_attention_layers (const HrModelArch *model)
{
  return hr_model_arch_kv_layers (model);
}

guint32
hr_model_arch_local_layers (const HrModelArch *model)
{
  guint32 kv_layers = hr_model_arch_kv_layers (model);

  if (model->sliding_window == 0)
    return 0;
  if (model->swa_period == 0)
    return kv_layers;
  return kv_layers - kv_layers / model->swa_period;
}

guint32
hr_model_arch_global_layers (const HrModelArch *model)
{
  return hr_model_arch_kv_layers (model) - hr_model_arch_local_layers (model);
}

/**
 * hr_model_arch_state_cell:
 *
 * One recurrent layer's state for one sequence, as llama.cpp sizes it
 * (src/llama-hparams.cpp: n_embd_r(), n_embd_s()):
 *
 * - Mamba, Mamba2 and Gated DeltaNet: the convolution keeps d_conv − 1
 *   columns of the x, B and C channels, r = (d_conv − 1) × (d_inner +
 *   2 × n_group × d_state); the state s = d_state × d_inner (for Gated
 *   DeltaNet, d_state is the key head size and d_inner the value heads ×
 *   their size: one d_k × d_v matrix per value head).
 * - RWKV-6/7: r = token_shift_count × n_embd, s = n_embd × head_size.
 * - LFM2's short convolutions: r = n_embd × (L_cache − 1), no s.
 *
 * vLLM's MambaSpec and SGLang's mamba pool hold the same tensors
 * (vllm/model_executor/layers/mamba/mamba_utils.py,
 * MambaStateShapeCalculator), in their own types.
 */
HrStateCell
hr_model_arch_state_cell (const HrModelArch *model)
{
  double conv_window;

  g_return_val_if_fail (model != NULL, (HrStateCell) { 0 });

  switch (model->state_kind)
    {
    case HR_STATE_MAMBA:
    case HR_STATE_GATED_DELTANET:
      conv_window = model->ssm_conv_kernel > 0 ? model->ssm_conv_kernel - 1.0 : 0.0;
      return (HrStateCell) {
        .conv_elements = conv_window * ((double) model->ssm_inner +
                                        2.0 * model->ssm_groups * model->ssm_state),
        .ssm_elements = (double) model->ssm_state * model->ssm_inner,
      };
    case HR_STATE_RWKV:
      return (HrStateCell) {
        .conv_elements = (double) RWKV_TOKEN_SHIFT_COUNT * model->hidden,
        .ssm_elements = (double) model->hidden * model->ssm_state,
      };
    case HR_STATE_SHORT_CONV:
      return (HrStateCell) {
        .conv_elements = (double) model->hidden *
                         (model->ssm_conv_kernel > 0 ? model->ssm_conv_kernel - 1.0 : 0.0),
        .ssm_elements = 0,
      };
    case HR_STATE_NONE:
    default:
      return (HrStateCell) { 0 };
    }
}

/**
 * hr_model_arch_state_cell_tp:
 * @tp: tensor-parallel GPUs
 *
 * One GPU's share of a recurrent layer's state for one sequence under
 * tensor parallelism, as vLLM and SGLang shard it
 * (vllm/model_executor/layers/mamba/mamba_utils.py,
 * MambaStateShapeCalculator.mamba2_state_shape; sglang
 * srt/configs/mamba_utils.py, Mamba2StateShape.create): the heads and the
 * convolution's channels are split tp ways, but Mamba2's B/C groups, when
 * tp does not divide them, are first replicated to tp groups
 * (extra_groups_for_head_shards), so that each GPU holds the groups of
 * its heads.
 */
HrStateCell
hr_model_arch_state_cell_tp (const HrModelArch *model,
                             guint32            tp)
{
  HrModelArch sharded;
  HrStateCell cell;

  g_return_val_if_fail (model != NULL, (HrStateCell) { 0 });

  tp = MAX (tp, 1);
  sharded = *model;
  if (model->state_kind == HR_STATE_MAMBA && model->ssm_groups > 0 &&
      model->ssm_groups % tp != 0)
    sharded.ssm_groups = tp;
  cell = hr_model_arch_state_cell (&sharded);
  cell.conv_elements /= tp;
  cell.ssm_elements /= tp;
  return cell;
}

/* Bytes of every recurrent layer's state for one sequence. */
double
hr_state_bytes_per_sequence (const HrModelArch *model,
                             double             conv_bytes_per_element,
                             double             ssm_bytes_per_element)
{
  HrStateCell cell;

  g_return_val_if_fail (model != NULL, 0);

  cell = hr_model_arch_state_cell (model);
  return (cell.conv_elements * conv_bytes_per_element +
          cell.ssm_elements * ssm_bytes_per_element) * model->n_state_layers;
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
  guint32 global = hr_model_arch_kv_layers (model) - local;
  guint64 local_tokens = MIN (context, (guint64) model->sliding_window);

  return (double) global * context + (double) local * local_tokens;
}

double
hr_kv_bytes_per_token (const HrModelArch *model,
                       double             bytes_per_element)
{
  g_return_val_if_fail (model != NULL, 0);

  return hr_kv_cell_bytes (hr_model_arch_kv_cell (model), bytes_per_element,
                           bytes_per_element) * hr_model_arch_kv_layers (model);
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
         hr_model_arch_kv_layers (model) * (double) context * batch;
}
