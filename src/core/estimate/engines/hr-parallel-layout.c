/* hr-parallel-layout.c — one GPU's share of a model under TP and PP
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-parallel-layout"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "hr-parallel-layout.h"
#include "hr-profile-common.h"
#include "hr-estimate-constants.h"
#include "hr-vllm-memory.h"

gboolean
hr_layout_resolve (const HrEstimateInput *input,
                   HrLayout              *layout,
                   GError               **error)
{
  *layout = input->layout;
  if (layout->pp == 0)
    layout->pp = 1;
  if (layout->dp == 0)
    layout->dp = 1;
  if (layout->tp == 0)
    layout->tp = MAX (input->n_gpus / (layout->pp * layout->dp), 1);
  if (layout->nodes == 0)
    layout->nodes = 1;

  if (layout->pp > input->model->n_layers)
    return hr_profile_fail (error, HR_ESTIMATE_ERROR_INVALID,
                            "%u pipeline stages for %u layers", layout->pp,
                            input->model->n_layers);
  if ((guint64) layout->tp * layout->pp * layout->dp > HR_GPUS_MAX)
    return hr_profile_fail (error, HR_ESTIMATE_ERROR_INVALID,
                            "%u × %u × %u GPUs is more than %d", layout->tp, layout->pp,
                            layout->dp, HR_GPUS_MAX);
  if ((layout->tp * layout->pp * layout->dp) % layout->nodes != 0)
    return hr_profile_fail (error, HR_ESTIMATE_ERROR_INVALID,
                            "%u GPUs do not split evenly over %u machines",
                            layout->tp * layout->pp * layout->dp, layout->nodes);
  return TRUE;
}

static guint64
layer_bytes (const HrLayerWeights *w,
             guint32               il)
{
  return w->layer_bytes != NULL ? w->layer_bytes[il] : w->uniform_layer_bytes;
}

void
hr_layout_stage (const HrEstimateInput *input,
                 const HrLayout        *layout,
                 HrPpRemainder          remainder,
                 double                 weights,
                 guint32                stage,
                 HrStage               *out)
{
  guint32 L = input->model->n_layers;
  guint32 base = L / layout->pp;
  guint32 extra = L % layout->pp;
  guint32 first = 0;
  double stage_bytes = 0;

  /* Layers of each stage before this one. */
  for (guint32 s = 0; s <= stage; s++)
    {
      guint32 n = base;

      if (remainder == HR_PP_REMAINDER_FRONT)
        n += s < layout->pp - 1 && s >= layout->pp - 1 - extra ? 1 : 0;
      else
        n += s >= layout->pp - extra ? 1 : 0;
      if (s < stage)
        first += n;
      else
        out->n_layers = n;
    }
  out->first_layer = first;
  out->first = stage == 0;
  out->last = stage == layout->pp - 1;

  /* One stage holds the whole checkpoint (tied embeddings once). */
  if (layout->pp == 1)
    stage_bytes = weights;
  else if (input->layers != NULL)
    {
      const HrLayerWeights *w = input->layers;

      for (guint32 il = first; il < first + out->n_layers; il++)
        stage_bytes += (double) layer_bytes (w, il);
      if (out->first)
        stage_bytes += (double) w->token_embd_bytes;
      if (out->last)
        stage_bytes += (double) w->output_bytes;
    }
  else
    stage_bytes = weights * out->n_layers / L;

  out->weights_bytes = stage_bytes / layout->tp;
}

/* vLLM's KV cache types are the model's 16-bit type ("auto") and FP8
 * (--kv-cache-dtype fp8); it has no block-quantized GGUF types. */
static gboolean
kv_type_supported (double bytes_per_element)
{
  return bytes_per_element == 2.0 || bytes_per_element == 1.0;
}

/* What vLLM and SGLang both refuse: GGUF files, tensor-parallel sizes the
 * heads do not divide, GGUF cache types. */
gboolean
hr_profile_serving_check (const HrEstimateInput  *input,
                          const char             *engine,
                          HrLayout               *layout,
                          HrEstimate             *result,
                          GError                **error)
{
  const HrModelArch *model = input->model;

  if (input->checkpoint == HR_CHECKPOINT_GGUF)
    {
      result->fix = HR_FIX_ENGINE_AUTO;
      return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                              /* TRANSLATORS: %s is vLLM or SGLang */
                              _("%s serves safetensors checkpoints; GGUF files are "
                                "llama.cpp's"), engine);
    }
  if (!hr_layout_resolve (input, layout, error))
    return FALSE;
  if (!hr_vllm_tp_valid (model, layout->tp))
    {
      result->fix = HR_FIX_GPU_COUNT;
      result->fix_gpus = hr_vllm_nearest_tp (model, layout->tp) * layout->pp * layout->dp;
      return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                              /* TRANSLATORS: vLLM or SGLang, heads, KV heads, GPUs */
                              _("%s needs the %u attention heads (and %u KV heads) to "
                                "divide evenly over the tensor-parallel GPUs; %u do not"),
                              engine, model->n_heads, model->n_kv_heads, layout->tp);
    }
  if (!kv_type_supported (input->kv_bytes_per_element))
    {
      result->fix = HR_FIX_KV_FP16;
      return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                              /* TRANSLATORS: %s is vLLM or SGLang */
                              _("%s has no such KV cache type (it offers FP16/BF16 and FP8)"),
                              engine);
    }
  return TRUE;
}

/* The serving engines budget on the total the driver reports, not the
 * nominal size. */
guint64
hr_cuda_total_bytes (const HrDevice *device)
{
  double gib = device->memory_bytes / HR_GIB;
  double unreported = HR_CUDA_UNREPORTED_GIB +
                      HR_CUDA_UNREPORTED_PER_GIB * MAX (gib - HR_CUDA_UNREPORTED_BASE_GIB, 0.0);

  return device->kind == HR_DEVICE_DISCRETE
         ? device->memory_bytes - (guint64) (unreported * HR_GIB)
         : device->memory_bytes;
}


HrVerdict
hr_serving_verdict (gboolean cache_holds_context,
                    guint32  batch,
                    double   max_concurrency)
{
  if (!cache_holds_context)
    return HR_VERDICT_NO_FIT;
  if ((double) batch <= HR_COMFORTABLE_FRACTION * max_concurrency)
    return HR_VERDICT_COMFORTABLE;
  return HR_VERDICT_TIGHT;
}
