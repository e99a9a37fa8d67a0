/* hr-scenario.c — one question asked of the estimator, in catalog terms
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-scenario"

#include "config.h"

#include "hr-scenario.h"
#include "hr-weights.h"

/* Tensor-exact weights depend only on the model, the precision and the
 * file format, never on the device or context: they are computed once and
 * kept on the model, so the hardware table's rows cost nothing extra. */
typedef struct
{
  guint64 weights_bytes;
  guint64 token_embd_bytes;
  gboolean ok;
} CachedWeights;

static GQuark
weights_cache_quark (void)
{
  return g_quark_from_static_string ("hr-scenario-weights-cache");
}

static void
compute_weights (HrModelSpec     *model,
                 const char      *precision_id,
                 HrWeightsFormat  format,
                 CachedWeights   *out)
{
  HrWeightsOptions options = { .format = format, .imatrix = FALSE };
  g_autoptr(GArray) tensors = NULL;
  HrWeights weights;

  memset (out, 0, sizeof *out);
  if (!hr_weights_compute_with_options (model, precision_id, &options, &weights, NULL))
    return;

  /* vLLM counts the buffers it builds while loading (the rotary cache) in
   * “Loading model weights took …”. */
  out->weights_bytes = weights.total_bytes + weights.buffer_bytes;

  tensors = hr_weights_list_tensors (model, precision_id, &options, NULL);
  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    {
      const HrWeightsTensor *t = &g_array_index (tensors, HrWeightsTensor, i);

      if (g_str_equal (t->name, "token_embd.weight"))
        out->token_embd_bytes += t->bytes;
    }
  out->ok = TRUE;
}

/**
 * hr_scenario_engine_weights:
 *
 * The weights an engine really loads: llama.cpp and Ollama read a GGUF
 * file (its own size when the model was imported from one of this type,
 * else llama.cpp's quantization recipe), vLLM a safetensors checkpoint.
 * Returns %FALSE when the architecture's tensors cannot be enumerated;
 * callers then use the nominal size.
 */
gboolean
hr_scenario_engine_weights (HrModelSpec *model,
                            HrPrecision *precision,
                            HrEngine     engine,
                            guint64     *weights_bytes,
                            guint64     *token_embd_bytes)
{
  GHashTable *cache;
  HrWeightsFormat format;
  g_autofree char *key = NULL;
  const char *file_type;
  CachedWeights *cached;

  *weights_bytes = 0;
  *token_embd_bytes = 0;
  if (engine == HR_ENGINE_GENERIC)
    return FALSE;

  format = engine == HR_ENGINE_VLLM ? HR_WEIGHTS_FORMAT_SAFETENSORS : HR_WEIGHTS_FORMAT_GGUF;
  key = g_strdup_printf ("%s/%d", hr_precision_get_id (precision), format);

  cache = g_object_get_qdata (G_OBJECT (model), weights_cache_quark ());
  if (cache == NULL)
    {
      cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_object_set_qdata_full (G_OBJECT (model), weights_cache_quark (), cache,
                               (GDestroyNotify) g_hash_table_unref);
    }

  cached = g_hash_table_lookup (cache, key);
  if (cached == NULL)
    {
      cached = g_new0 (CachedWeights, 1);
      compute_weights (model, hr_precision_get_id (precision), format, cached);
      g_hash_table_insert (cache, g_steal_pointer (&key), cached);
    }

  if (!cached->ok)
    return FALSE;

  *weights_bytes = cached->weights_bytes;
  *token_embd_bytes = cached->token_embd_bytes;

  /* A GGUF file of this very type: its tensor table is exact.  A file
   * that does not say its type matches no precision. */
  file_type = hr_model_spec_get_file_type (model);
  if (format == HR_WEIGHTS_FORMAT_GGUF && hr_model_spec_get_file_weights_bytes (model) > 0 &&
      file_type != NULL &&
      g_ascii_strcasecmp (file_type, hr_precision_get_label (precision)) == 0)
    *weights_bytes = hr_model_spec_get_file_weights_bytes (model);

  return TRUE;
}

/* The FFN width one token goes through: dense layers' intermediate size,
 * or the experts it is routed to (plus the shared ones). */
static guint64
ffn_width (HrModelSpec *model)
{
  if (hr_model_spec_is_moe (model))
    return (guint64) (hr_model_spec_get_experts_active (model) +
                      hr_model_spec_get_shared_experts (model)) *
           hr_model_spec_get_expert_intermediate (model);
  return hr_model_spec_get_intermediate (model);
}

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
  input.options = scenario->options;
  input.ffn_width = ffn_width (scenario->model);
  hr_scenario_engine_weights (scenario->model, scenario->precision, scenario->engine,
                              &input.weights_bytes, &input.token_embd_bytes);

  return hr_estimate (&input, result, error);
}
