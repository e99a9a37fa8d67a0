/* hr-scenario.c — one question asked of the estimator, in catalog terms
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-scenario"

#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "hr-scenario.h"
#include "hr-estimate-constants.h"
#include "hr-extras.h"
#include "hr-speed.h"
#include "hr-weights.h"

/* Tensor-exact weights depend only on the model, the precision and the
 * file format, never on the device or context: they are computed once and
 * kept on the model, so the hardware table's rows cost nothing extra. */
typedef struct
{
  guint64 weights_bytes;
  guint64 token_embd_bytes;
  HrLayerWeights layers;          /* points into the arrays below */
  guint64 *layer_bytes;
  guint64 *expert_bytes;
  gboolean ok;
} CachedWeights;

static void
cached_weights_free (gpointer data)
{
  CachedWeights *cached = data;

  g_free (cached->layer_bytes);
  g_free (cached->expert_bytes);
  g_free (cached);
}

static GQuark
weights_cache_quark (void)
{
  return g_quark_from_static_string ("hr-scenario-weights-cache");
}

/* "blk.12.ffn_up_exps.weight" → 12; G_MAXUINT for tensors outside a block. */
static guint
tensor_block (const char *name)
{
  guint64 block;
  char *end;

  if (!g_str_has_prefix (name, "blk."))
    return G_MAXUINT;
  block = g_ascii_strtoull (name + 4, &end, 10);
  if (end == name + 4 || *end != '.' || block >= G_MAXUINT)
    return G_MAXUINT;
  return (guint) block;
}

/* The per-layer view llama.cpp places: repeating blocks (and their routed
 * experts), the output layer (norm and head — for tied embeddings, the
 * copy of token_embd llama.cpp makes for it) and the input embeddings. */
static void
build_layers (HrModelSpec    *model,
              GArray         *tensors,
              double          scale,
              CachedWeights  *out)
{
  guint32 n_layers = hr_model_spec_get_arch (model)->n_layers;
  HrLayerWeights *l = &out->layers;
  gboolean has_output = FALSE;

  out->layer_bytes = g_new0 (guint64, n_layers);
  out->expert_bytes = g_new0 (guint64, n_layers);
  *l = (HrLayerWeights) {
    .n_layers = n_layers,
    .layer_bytes = out->layer_bytes,
    .expert_bytes = hr_model_spec_is_moe (model) ? out->expert_bytes : NULL,
  };

  for (guint i = 0; i < tensors->len; i++)
    {
      const HrWeightsTensor *t = &g_array_index (tensors, HrWeightsTensor, i);
      guint64 bytes = (guint64) llround ((double) t->bytes * scale);
      guint block = tensor_block (t->name);

      if (block < n_layers)
        {
          out->layer_bytes[block] += bytes;
          if (strstr (t->name, "_exps.") != NULL || strstr (t->name, "_chexps.") != NULL)
            out->expert_bytes[block] += bytes;
          else if (t->n_dims >= 2)
            l->largest_dense_bytes = MAX (l->largest_dense_bytes, bytes);
        }
      else if (g_str_equal (t->name, "token_embd.weight"))
        l->token_embd_bytes += bytes;
      else if (g_str_has_prefix (t->name, "output"))
        {
          l->output_bytes += bytes;
          has_output |= g_str_equal (t->name, "output.weight");
        }
    }
  if (!has_output)
    l->output_bytes += l->token_embd_bytes;
}

static void
compute_weights (HrModelSpec     *model,
                 HrPrecision     *precision,
                 HrWeightsFormat  format,
                 CachedWeights   *out)
{
  const char *precision_id = hr_precision_get_id (precision);
  const char *file_type = hr_model_spec_get_file_type (model);
  HrWeightsOptions options = { .format = format, .imatrix = FALSE };
  g_autoptr(GArray) tensors = NULL;
  HrWeights weights;
  double scale = 1.0;

  if (!hr_weights_compute_with_options (model, precision_id, &options, &weights, NULL))
    return;

  /* vLLM counts the buffers it builds while loading (the rotary cache) in
   * “Loading model weights took …”. */
  out->weights_bytes = weights.total_bytes + weights.buffer_bytes;

  /* A GGUF file of this very type: its tensor table is exact, and the
   * recipe's per-layer split is scaled to it. */
  if (format == HR_WEIGHTS_FORMAT_GGUF && hr_model_spec_get_file_weights_bytes (model) > 0 &&
      hr_precision_matches_file_type (precision, file_type))
    {
      scale = (double) hr_model_spec_get_file_weights_bytes (model) / MAX (weights.total_bytes, 1);
      out->weights_bytes = hr_model_spec_get_file_weights_bytes (model);
    }

  tensors = hr_weights_list_tensors (model, precision_id, &options, NULL);
  if (tensors == NULL)
    return;
  build_layers (model, tensors, scale, out);
  out->token_embd_bytes = out->layers.token_embd_bytes;
  out->ok = TRUE;
}

static const CachedWeights *
engine_weights (HrModelSpec *model,
                HrPrecision *precision,
                HrEngine     engine)
{
  GHashTable *cache;
  HrWeightsFormat format;
  g_autofree char *key = NULL;
  CachedWeights *cached;

  if (engine == HR_ENGINE_GENERIC)
    return NULL;

  format = engine == HR_ENGINE_VLLM || engine == HR_ENGINE_SGLANG
           ? HR_WEIGHTS_FORMAT_SAFETENSORS : HR_WEIGHTS_FORMAT_GGUF;
  key = g_strdup_printf ("%s/%d", hr_precision_get_id (precision), format);

  cache = g_object_get_qdata (G_OBJECT (model), weights_cache_quark ());
  if (cache == NULL)
    {
      cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, cached_weights_free);
      g_object_set_qdata_full (G_OBJECT (model), weights_cache_quark (), cache,
                               (GDestroyNotify) g_hash_table_unref);
    }

  cached = g_hash_table_lookup (cache, key);
  if (cached == NULL)
    {
      cached = g_new0 (CachedWeights, 1);
      compute_weights (model, precision, format, cached);
      g_hash_table_insert (cache, g_steal_pointer (&key), cached);
    }

  return cached->ok ? cached : NULL;
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
  const CachedWeights *cached = engine_weights (model, precision, engine);

  *weights_bytes = cached != NULL ? cached->weights_bytes : 0;
  *token_embd_bytes = cached != NULL ? cached->token_embd_bytes : 0;
  return cached != NULL;
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

/* Every adapter's bytes: a file's tensors, or a rank's all-linear
 * adapter for this model. */
guint64
hr_scenario_lora_bytes (const HrScenario *scenario)
{
  guint64 bytes = 0;

  for (guint32 i = 0; i < MIN (scenario->n_lora, HR_LORA_MAX); i++)
    bytes += scenario->lora_paths[i] != NULL
             ? scenario->lora_file_bytes[i]
             : hr_lora_bytes_for_rank (hr_model_spec_get_arch (scenario->model),
                                       ffn_width (scenario->model),
                                       hr_model_spec_is_moe (scenario->model),
                                       scenario->lora_ranks[i]);
  return bytes;
}

/**
 * hr_scenario_engine:
 *
 * The engine profile that answers for @scenario: its own, or for
 * HR_ENGINE_AUTO the engine people use for that kind of checkpoint —
 * llama.cpp for GGUF files (the K-quants, Q8_0, and F16/F32 GGUF), vLLM
 * for safetensors checkpoints (BF16, FP8, AWQ, GPTQ) — except on Apple
 * Silicon, where vLLM has no Metal backend and llama.cpp runs everything.
 */
HrEngine
hr_scenario_engine (const HrScenario *scenario)
{
  const char *kind, *id;

  g_return_val_if_fail (scenario != NULL, HR_ENGINE_GENERIC);

  if (scenario->engine != HR_ENGINE_AUTO)
    return scenario->engine;
  if (scenario->precision == NULL)
    return HR_ENGINE_LLAMACPP;
  if (scenario->hardware != NULL &&
      hr_hardware_get_device (scenario->hardware)->family == HR_FAMILY_APPLE_SILICON)
    return HR_ENGINE_LLAMACPP;

  kind = hr_precision_get_kind (scenario->precision);
  id = hr_precision_get_id (scenario->precision);
  if (g_strcmp0 (kind, "safetensors") == 0 || g_strcmp0 (id, "bf16") == 0)
    return HR_ENGINE_VLLM;
  return HR_ENGINE_LLAMACPP;
}

/**
 * hr_scenario_gpu:
 *
 * The catalog device of GPU @d: its entry of a device list, or the
 * scenario's hardware.
 */
HrHardware *
hr_scenario_gpu (const HrScenario *scenario,
                 guint32           d)
{
  g_return_val_if_fail (scenario != NULL, NULL);

  if (d < HR_MAX_DEVICES && scenario->devices[d] != NULL)
    return scenario->devices[d];
  return scenario->hardware;
}

/* The files an engine reads weights of a precision of @kind from: a
 * precision with both forms (MXFP4) is a GGUF file for llama.cpp and
 * Ollama (and the nominal method), a safetensors checkpoint for vLLM
 * and SGLang. */
static HrCheckpoint
scenario_checkpoint (const char *kind,
                     HrEngine    engine)
{
  if (g_strcmp0 (kind, "gguf") == 0)
    return HR_CHECKPOINT_GGUF;
  if (g_strcmp0 (kind, "safetensors") == 0)
    return HR_CHECKPOINT_SAFETENSORS;
  if (g_strcmp0 (kind, "both") == 0)
    return engine == HR_ENGINE_VLLM || engine == HR_ENGINE_SGLANG
           ? HR_CHECKPOINT_SAFETENSORS : HR_CHECKPOINT_GGUF;
  return HR_CHECKPOINT_ANY;
}

static gboolean
scenario_input (const HrScenario  *scenario,
                HrEstimateInput   *input,
                GError           **error)
{
  memset (input, 0, sizeof *input);

  if (scenario->model == NULL || scenario->precision == NULL ||
      scenario->kv_type == NULL || scenario->hardware == NULL)
    {
      g_set_error_literal (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_INVALID,
                           "choose a model, a precision, a KV cache type and a device");
      return FALSE;
    }

  input->model = hr_model_spec_get_arch (scenario->model);
  input->bpw = hr_precision_get_bpw (scenario->precision);
  input->engine = hr_scenario_engine (scenario);
  input->checkpoint = scenario_checkpoint (hr_precision_get_kind (scenario->precision),
                                           input->engine);
  input->kv_bytes_per_element = hr_kv_type_get_bytes_per_element (scenario->kv_type);
  input->context = scenario->context;
  input->batch = scenario->batch;
  input->device = hr_hardware_get_device (scenario->hardware);
  input->n_gpus = scenario->gpus;
  for (guint32 d = 0; d < HR_MAX_DEVICES; d++)
    {
      if (scenario->devices[d] != NULL)
        input->gpu_devices[d] = hr_hardware_get_device (scenario->devices[d]);
      input->reserve_set[d] = scenario->reserve_set[d];
      input->reserve_bytes[d] = scenario->reserve_bytes[d];
    }
  input->options = scenario->options;
  input->placement = scenario->placement;
  input->ram = scenario->ram;
  input->layout = scenario->layout;
  input->prompt_tokens = scenario->prompt_tokens;
  input->generate_tokens = scenario->generate_tokens;
  input->depth = scenario->depth;
  /* The CPU runs what llama.cpp leaves it at its matrix rate, and its
   * memory is the system RAM's unless --ram-bandwidth said otherwise
   * (an Apple chip's is the device's own). */
  if (scenario->cpu != NULL)
    {
      input->cpu_flops = hr_cpu_get_matrix_flops (scenario->cpu);
      if (input->ram.bandwidth_gbps == 0)
        input->ram.bandwidth_gbps = hr_cpu_get_bandwidth_gbps (scenario->cpu);
    }
  /* llama.cpp's CPU build puts no layer on a GPU (-ngl has nothing to
   * offload to). */
  if (input->options.backend_set && input->options.backend == HR_BACKEND_CPU &&
      (input->engine == HR_ENGINE_LLAMACPP || input->engine == HR_ENGINE_OLLAMA))
    {
      input->placement.gpu_layers_fixed = TRUE;
      input->placement.gpu_layers = 0;
    }
  input->users = scenario->users;
  input->target_tokens_per_s = scenario->target_tokens_per_s;
  input->mmproj_weights_bytes = scenario->mmproj_weights_bytes;
  input->mmproj_compute_bytes = scenario->mmproj_compute_bytes;
  if (scenario->mmproj_weights_bytes > 0)
    input->image_tokens = (guint64) scenario->tokens_per_image * MAX (scenario->images, 1);
  /* Ollama loads one adapter (its runner refuses more: "ollama supports
   * only one lora adapter") */
  if (input->engine == HR_ENGINE_OLLAMA && scenario->n_lora > 1)
    {
      g_set_error (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_UNSUPPORTED,
                   _("Ollama loads one LoRA adapter per model, not %u"), scenario->n_lora);
      return FALSE;
    }
  input->lora_bytes = hr_scenario_lora_bytes (scenario);
  input->kv_on_host = scenario->kv_on_host;
  input->host_cache_bytes = scenario->cache_ram_bytes;
  input->tied_embeddings = hr_model_spec_get_tied_embeddings (scenario->model);
  input->quant_family = hr_speed_quant_family (input->bpw, input->checkpoint,
                                               hr_precision_get_id (scenario->precision));
  /* vLLM keeps its small batch defaults on the A100 (get_batch_defaults). */
  input->small_batch_device = g_str_has_prefix (hr_hardware_get_id (scenario->hardware), "a100");
  input->ffn_width = ffn_width (scenario->model);
  input->experts = hr_model_spec_get_experts (scenario->model);
  input->experts_active = hr_model_spec_get_experts_active (scenario->model);
  {
    const CachedWeights *cached = engine_weights (scenario->model, scenario->precision,
                                                  input->engine);

    if (cached != NULL)
      {
        input->weights_bytes = cached->weights_bytes;
        input->token_embd_bytes = cached->token_embd_bytes;
        input->layers = &cached->layers;
      }
    /* The nominal method too takes an imported GGUF file's own tensor data
     * for the file's precision: that is what loads, not parameters × bits. */
    else if (input->engine == HR_ENGINE_GENERIC &&
             hr_precision_matches_file_type (scenario->precision,
                                             hr_model_spec_get_file_type (scenario->model)))
      input->weights_bytes = hr_model_spec_get_file_weights_bytes (scenario->model);
  }
  return TRUE;
}

/* The acceptance rate of a pairing: given, or for a draft of the
 * target's own lineage (same architecture, same vocabulary) the measured
 * default; other pairings have none (0). */
static double
draft_acceptance (const HrScenario *scenario)
{
  if (scenario->acceptance > 0)
    return scenario->acceptance;
  if (g_strcmp0 (hr_model_spec_get_architecture (scenario->model),
                 hr_model_spec_get_architecture (scenario->draft_model)) == 0 &&
      hr_model_spec_get_arch (scenario->model)->vocab ==
      hr_model_spec_get_arch (scenario->draft_model)->vocab)
    return HR_DRAFT_ACCEPTANCE_SAME_FAMILY;
  return 0;
}

/* llama-server with a draft (-md): the draft's own placement on the same
 * GPUs at the same context (its cache is the target's size, --ctx-size-
 * draft defaulting to it) comes on top of the target's; the backend's
 * reserve is the target's, counted once.  Then the decode speed-up of
 * speculation with the draft's cost per token over the target's. */
static gboolean
estimate_with_draft (const HrScenario  *scenario,
                     HrEstimateInput   *input,
                     HrEstimate        *result,
                     GError           **error)
{
  HrScenario draft = *scenario;
  HrEstimate d;
  double alpha = draft_acceptance (scenario);
  const HrModelArch *target_arch = hr_model_spec_get_arch (scenario->model);
  const HrModelArch *draft_arch = hr_model_spec_get_arch (scenario->draft_model);
  guint32 gamma;

  memset (result, 0, sizeof *result);
  if (input->engine != HR_ENGINE_LLAMACPP)
    {
      g_set_error_literal (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_UNSUPPORTED,
                           _("A draft model is planned for llama-server (-md); Ollama, vLLM "
                             "and SGLang are not planned with one"));
      return FALSE;
    }
  if (ABS ((gint64) target_arch->vocab - (gint64) draft_arch->vocab) >
      HR_DRAFT_VOCAB_MAX_DIFFERENCE)
    {
      g_set_error (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_INVALID,
                   "the draft's vocabulary (%" G_GUINT64_FORMAT " tokens) is not the target's (%"
                   G_GUINT64_FORMAT "): llama.cpp "
                   "refuses a draft whose vocabulary differs by more than %d",
                   (guint64) draft_arch->vocab, (guint64) target_arch->vocab,
                   HR_DRAFT_VOCAB_MAX_DIFFERENCE);
      return FALSE;
    }
  if (alpha <= 0)
    {
      g_set_error (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_INVALID,
                   "no measured acceptance rate for %s drafting for %s (another lineage): "
                   "give one with --acceptance",
                   hr_model_spec_get_id (scenario->draft_model),
                   hr_model_spec_get_id (scenario->model));
      return FALSE;
    }

  draft.model = scenario->draft_model;
  draft.precision = scenario->draft_precision;
  draft.draft_model = NULL;
  draft.engine = HR_ENGINE_LLAMACPP;   /* llama-server loads it, whatever its precision */
  draft.mmproj_weights_bytes = draft.mmproj_compute_bytes = 0;
  draft.n_lora = 0;              /* the adapters are the target's */
  draft.cache_ram_bytes = 0;     /*   and so is the prompt cache */
  draft.placement.gpu_layers_fixed = FALSE;
  draft.placement.n_cpu_moe = 0;
  draft.placement.n_tensor_split = 0;
  if (!hr_scenario_estimate (&draft, &d, error))
    return FALSE;
  for (guint32 g = 0; g < MIN (d.n_devices, HR_MAX_DEVICES); g++)
    if (d.devices[g].total_bytes > 0)
      input->draft_device_bytes[g] = d.devices[g].total_bytes -
                                     MIN (d.devices[g].total_bytes, d.reserve_bytes);
  if (!hr_estimate (input, result, error))
    return FALSE;

  result->draft_acceptance = alpha;
  result->draft_cost_ratio = d.decode_tokens_per_s > 0
                             ? result->decode_tokens_per_s / d.decode_tokens_per_s : 0;
  gamma = scenario->draft_max > 0
          ? scenario->draft_max
          : hr_speculative_best_gamma (alpha, result->draft_cost_ratio, HR_DRAFT_MAX_DEFAULT);
  result->draft_max = gamma;
  result->speculative_speedup = hr_speculative_speedup (alpha, gamma, result->draft_cost_ratio);
  return TRUE;
}

gboolean
hr_scenario_estimate (const HrScenario  *scenario,
                      HrEstimate        *result,
                      GError           **error)
{
  HrEstimateInput input;

  g_return_val_if_fail (scenario != NULL, FALSE);
  g_return_val_if_fail (result != NULL, FALSE);

  if (!scenario_input (scenario, &input, error))
    {
      memset (result, 0, sizeof *result);
      return FALSE;
    }
  /* A unified-memory device (an Apple chip) is the whole computer: its
   * memory is the system's, and a second one is another computer. */
  for (guint32 d = 0; d < MIN (scenario->gpus, HR_MAX_DEVICES); d++)
    {
      HrHardware *gpu = hr_scenario_gpu (scenario, d);

      if (hr_hardware_is_unified (gpu) && (scenario->gpus > 1 || scenario->layout.nodes > 1))
        {
          memset (result, 0, sizeof *result);
          g_set_error (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_INVALID,
                       "%s is one unified-memory device: the count is 1, not %u",
                       hr_hardware_get_name (gpu),
                       MAX (scenario->gpus, scenario->layout.nodes));
          return FALSE;
        }
    }

  if (scenario->draft_model != NULL ? !estimate_with_draft (scenario, &input, result, error)
                                    : !hr_estimate (&input, result, error))
    return FALSE;
  /* This computer's measured corrections, where it has some for this
   * device and backend (llama.cpp and Ollama only). */
  result->calibrated_runs = hr_calibration_apply (scenario->calibration,
                                                  hr_hardware_get_id (scenario->hardware), result);
  return TRUE;
}

/**
 * hr_scenario_explain:
 * @result: what hr_scenario_estimate() gave for @scenario
 * @formulas: (inout): units set by the caller; texts replaced
 *
 * The formulas of every figure of @result, with its operands.
 */
void
hr_scenario_explain (const HrScenario *scenario,
                     const HrEstimate *result,
                     HrFormulas       *formulas)
{
  HrEstimateInput input;

  g_return_if_fail (scenario != NULL);
  g_return_if_fail (result != NULL);
  g_return_if_fail (formulas != NULL);

  hr_formulas_clear (formulas);
  if (!scenario_input (scenario, &input, NULL))
    return;
  formulas->kv_type_label = hr_kv_type_get_label (scenario->kv_type);
  hr_estimate_explain (&input, result, formulas);
}
