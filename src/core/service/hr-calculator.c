/* hr-calculator.c — the estimator as a GObject service
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Inputs are read-write properties; every figure the estimator produces is
 * a read-only output property that widgets bind to.  Changing an input runs
 * exactly one estimate and notifies each output that changed exactly once
 * (notifications are frozen while the result is compared); several inputs
 * can be changed under hr_calculator_freeze()/thaw() for a single run.
 * After each run the “changed” signal lets list models (matrix, hardware
 * table) follow.
 */

#define G_LOG_DOMAIN "hr-calculator"

#include "config.h"

#include "hr-calculator.h"
#include "hr-extras.h"
#include "hr-defaults.h"
#include "hr-fields.h"

struct _HrCalculator
{
  GObject parent_instance;

  HrCatalog *catalog;
  HrScenario scenario;       /* holds references to its objects */

  /* outputs */
  HrEstimate result;
  gboolean valid;
  char *error_message;
  double effective_bpw;
  guint engine_used;
  gboolean context_past_trained;
  guint64 trained_context;

  guint freeze_count;
  gboolean dirty;
  guint n_recomputes;

  guint index[3];             /* see “List positions” below */
};

G_DEFINE_FINAL_TYPE (HrCalculator, hr_calculator, G_TYPE_OBJECT)

/* The most layers a GPU-layers or expert-offload setting takes; a model's
 * own count (layers + the output layer) bounds it further. */
#define HR_GPU_LAYERS_MAX 4096
/* Far above any machine's memory bandwidth (an 8-channel DDR5 server
 * gives about 600 GB/s). */
#define HR_RAM_BANDWIDTH_MAX_GBPS 10000.0

enum {
  PROP_0,
  PROP_CATALOG,
  PROP_MODEL,
  PROP_PRECISION,
  PROP_KV_TYPE,
  PROP_HARDWARE,
  PROP_CONTEXT,
  PROP_BATCH,
  PROP_ENGINE,
  PROP_GPU_COUNT,
  PROP_FLASH_ATTN,
  PROP_UBATCH,
  PROP_GPU_MEMORY_UTILIZATION,
  PROP_MAX_NUM_BATCHED_TOKENS,
  PROP_TP,
  PROP_PP,
  PROP_DP,
  PROP_NODES,
  PROP_GPUS_PER_NODE,
  PROP_USERS,
  PROP_TARGET_TOKENS_PER_S,
  /* placement and timing (llama.cpp, Ollama; the prompt and answer timed) */
  PROP_PROMPT_TOKENS,
  PROP_GENERATE_TOKENS,
  PROP_GPU_LAYERS_AUTO,
  PROP_GPU_LAYERS,
  PROP_SPLIT_MODE,
  PROP_N_CPU_MOE,
  PROP_KV_ON_HOST,
  PROP_LORA_RANK,
  PROP_RAM_BYTES,
  PROP_RAM_BANDWIDTH,
  PROP_DEPTH,
  PROP_BACKEND,
  PROP_VERDICT,
  N_INPUT_PROPS,
};

#define O(name, type, field, blurb) \
  HR_FIELD (HrCalculator, name, type, FALSE, 0, field, blurb)

/* Output properties, table-driven: each is compared after a run and
 * notified only if it changed. */
static const HrField outputs[] = {
  O ("weights_bytes", HR_FIELD_U64, result.weights_bytes, "Weights of the whole model"),
  O ("kv_bytes", HR_FIELD_U64, result.kv_bytes, "KV cache on all devices"),
  O ("state_bytes", HR_FIELD_U64, result.state_bytes, "Recurrent state on all devices"),
  O ("state_bytes_per_sequence", HR_FIELD_U64, result.state_bytes_per_sequence, "Recurrent state of one sequence"),
  O ("state_share", HR_FIELD_DOUBLE, result.state_share, "State / total"),
  O ("overhead_bytes", HR_FIELD_U64, result.overhead_bytes, "Runtime overhead on all devices"),
  O ("total_bytes", HR_FIELD_U64, result.total_bytes, "Weights + KV + overhead"),
  O ("weights_share", HR_FIELD_DOUBLE, result.weights_share, "Weights / total"),
  O ("kv_share", HR_FIELD_DOUBLE, result.kv_share, "KV / total"),
  O ("overhead_share", HR_FIELD_DOUBLE, result.overhead_share, "Overhead / total"),
  O ("per_device_bytes", HR_FIELD_U64, result.per_device_bytes, "One device's total"),
  O ("per_device_weights_bytes", HR_FIELD_U64, result.per_device_weights_bytes, "One device's weights"),
  O ("per_device_kv_bytes", HR_FIELD_U64, result.per_device_kv_bytes, "One device's KV cache"),
  O ("per_device_state_bytes", HR_FIELD_U64, result.per_device_state_bytes, "One device's recurrent state"),
  O ("per_device_overhead_bytes", HR_FIELD_U64, result.per_device_overhead_bytes, "One device's overhead"),
  O ("usable_bytes", HR_FIELD_U64, result.usable_bytes, "What one device can give"),
  O ("device_share", HR_FIELD_DOUBLE, result.device_share, "Per-device total / device memory"),
  O ("kv_heads_per_device", HR_FIELD_U32, result.kv_heads_per_device, "KV heads each device holds"),
  O ("kv_replicated", HR_FIELD_BOOL, result.kv_replicated, "KV heads replicated across devices"),
  O ("max_context", HR_FIELD_U64, result.max_context, "Largest context that fits"),
  O ("max_context_unbounded", HR_FIELD_BOOL, result.max_context_unbounded, "KV stops growing"),
  O ("max_context_past_trained", HR_FIELD_BOOL, result.max_context_past_trained, "Max context beyond training"),
  O ("decode_tokens_per_s", HR_FIELD_DOUBLE, result.decode_tokens_per_s, "Single-stream decode"),
  O ("bytes_per_token", HR_FIELD_DOUBLE, result.bytes_per_token, "Bytes read per decode step"),
  O ("kv_mha_bytes", HR_FIELD_U64, result.kv_mha_bytes, "MHA FP16 baseline"),
  O ("kv_savings", HR_FIELD_DOUBLE, result.kv_savings, "1 - KV / MHA baseline"),
  O ("kv_bytes_per_token", HR_FIELD_DOUBLE, result.kv_bytes_per_token, "KV bytes per token"),
  O ("compute_bytes", HR_FIELD_U64, result.compute_bytes, "llama.cpp compute buffers"),
  O ("host_bytes", HR_FIELD_U64, result.host_bytes, "What stays in system RAM"),
  O ("kv_capacity_tokens", HR_FIELD_U64, result.kv_capacity_tokens, "vLLM KV capacity"),
  O ("max_concurrency", HR_FIELD_DOUBLE, result.max_concurrency, "vLLM concurrency"),
  O ("users_served", HR_FIELD_U32, result.users_served, "Users the cache holds at once"),
  O ("per_user_tokens_per_s", HR_FIELD_DOUBLE, result.per_user_tokens_per_s, "Each user's answer rate"),
  O ("aggregate_tokens_per_s", HR_FIELD_DOUBLE, result.aggregate_tokens_per_s, "All users' answer rate"),
  O ("load_ttft_seconds", HR_FIELD_DOUBLE, result.load_ttft_seconds, "First token under load"),
  O ("max_users", HR_FIELD_U32, result.max_users, "Most users at the target"),
  O ("flash_attn_used", HR_FIELD_BOOL, result.flash_attn, "Flash attention as assumed"),
  O ("engine_used", HR_FIELD_U32, engine_used, "The profile that answered (HrEngine)"),
  O ("kv_type_ignored", HR_FIELD_BOOL, result.kv_type_ignored, "The engine keeps another cache type"),
  O ("free_bytes", HR_FIELD_U64, result.free_bytes, "Usable memory left on one device"),
  O ("excess_bytes", HR_FIELD_U64, result.excess_bytes, "Memory missing on one device"),
  O ("prefill_tokens_per_s", HR_FIELD_DOUBLE, result.prefill_tokens_per_s, "Prompt processing"),
  O ("ttft_seconds", HR_FIELD_DOUBLE, result.ttft_seconds, "The prompt, then the first token"),
  O ("generation_seconds", HR_FIELD_DOUBLE, result.generation_seconds, "The answer after its first token"),
  O ("prompt_tokens_used", HR_FIELD_U64, result.prompt_tokens, "The prompt timed"),
  O ("generate_tokens_used", HR_FIELD_U64, result.generate_tokens, "The answer timed"),
  O ("placement", HR_FIELD_U32, result.placement, "An HrPlacementKind"),
  O ("gpu_layers_used", HR_FIELD_U32, result.gpu_layers, "Layers on the GPUs, output layer too"),
  O ("layer_count", HR_FIELD_U32, result.layer_count, "Layers as llama.cpp counts them"),
  O ("n_devices", HR_FIELD_U32, result.n_devices, "GPUs holding a share"),
  O ("host_weights_bytes", HR_FIELD_U64, result.host_weights_bytes, "Weights in system RAM"),
  O ("host_kv_bytes", HR_FIELD_U64, result.host_kv_bytes, "KV cache in system RAM"),
  O ("ram_bytes_used", HR_FIELD_U64, result.ram_bytes, "System memory assumed or given"),
  O ("ram_usable_bytes", HR_FIELD_U64, result.ram_usable_bytes, "What the model may take of it"),
  O ("ram_bandwidth_used", HR_FIELD_DOUBLE, result.ram_bandwidth_gbps, "System memory bandwidth, GB/s"),
  O ("ram_fits", HR_FIELD_BOOL, result.ram_fits, "System memory holds its part"),
  O ("backend_used", HR_FIELD_U32, result.backend, "The llama.cpp build timed (HrBackend)"),
  O ("valid", HR_FIELD_BOOL, valid, "The inputs gave an estimate"),
  O ("error_message", HR_FIELD_STRING, error_message, "Why not"),
  O ("effective_bpw", HR_FIELD_DOUBLE, effective_bpw, "Bits per weight"),
  O ("context_past_trained", HR_FIELD_BOOL, context_past_trained, "Context beyond training"),
  O ("trained_context", HR_FIELD_U64, trained_context, "The model's trained maximum"),
};

#define N_OUTPUTS G_N_ELEMENTS (outputs)
#define FIRST_OUTPUT_PROP N_INPUT_PROPS

static GParamSpec *properties[N_INPUT_PROPS];
static GParamSpec *output_properties[N_OUTPUTS];

/* ------------------------------------------------------ List positions
 *
 * precision-index, kv-type-index and engine-index: the position of the
 * current precision and KV type in the catalog's lists (G_MAXUINT when
 * none), and of the engine in HrEngine order, for combo rows to bind
 * their “selected” to.  Setting one sets the item.  They are computed
 * when the item (or the list) changes, not when read. */

enum {
  INDEX_PRECISION,
  INDEX_KV_TYPE,
  INDEX_ENGINE,
  N_INDEX_PROPS
};

#define FIRST_INDEX_PROP (FIRST_OUTPUT_PROP + N_OUTPUTS)
#define NO_POSITION G_MAXUINT  /* GTK_INVALID_LIST_POSITION */

static GParamSpec *index_properties[N_INDEX_PROPS];

static GListModel *
index_list (HrCalculator *self,
            guint         which)
{
  if (self->catalog == NULL)
    return NULL;
  return which == INDEX_PRECISION ? hr_catalog_get_precisions (self->catalog)
                                  : hr_catalog_get_kv_types (self->catalog);
}

/* The engine row lists Automatic first, then the profiles in HrEngine
 * order. */
static guint
engine_position (HrEngine engine)
{
  return engine == HR_ENGINE_AUTO ? 0 : (guint) engine + 1;
}

static void
update_index (HrCalculator *self,
              guint         which)
{
  guint position = NO_POSITION;

  if (which == INDEX_ENGINE)
    position = engine_position (self->scenario.engine);
  else
    {
      GListModel *list = index_list (self, which);
      gpointer item = which == INDEX_PRECISION ? (gpointer) self->scenario.precision
                                               : (gpointer) self->scenario.kv_type;

      for (guint i = 0; list != NULL && item != NULL && i < g_list_model_get_n_items (list); i++)
        {
          g_autoptr(GObject) candidate = g_list_model_get_item (list, i);

          if ((gpointer) candidate == item)
            {
              position = i;
              break;
            }
        }
    }

  if (self->index[which] == position)
    return;
  self->index[which] = position;
  g_object_notify_by_pspec (G_OBJECT (self), index_properties[which]);
}

static void
update_list_indices (HrCalculator *self)
{
  update_index (self, INDEX_PRECISION);
  update_index (self, INDEX_KV_TYPE);
}

static void
set_index (HrCalculator *self,
           guint         which,
           guint         position)
{
  g_autoptr(GObject) item = NULL;
  GListModel *list;

  if (which == INDEX_ENGINE)
    {
      if (position <= HR_N_ENGINES)
        hr_calculator_set_engine (self, position == 0 ? HR_ENGINE_AUTO
                                                      : (HrEngine) (position - 1));
      return;
    }

  list = index_list (self, which);
  if (list == NULL || position >= g_list_model_get_n_items (list))
    return;
  item = g_list_model_get_item (list, position);
  if (which == INDEX_PRECISION)
    hr_calculator_set_precision (self, HR_PRECISION (item));
  else
    hr_calculator_set_kv_type (self, HR_KV_TYPE (item));
}

static void
install_index_properties (GObjectClass *object_class)
{
  static const char * const names[N_INDEX_PROPS] = {
    "precision-index", "kv-type-index", "engine-index",
  };

  for (guint i = 0; i < N_INDEX_PROPS; i++)
    {
      index_properties[i] =
        g_param_spec_uint (names[i], NULL, "Position in its list; G_MAXUINT for none",
                           0, G_MAXUINT, NO_POSITION,
                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
      g_object_class_install_property (object_class, FIRST_INDEX_PROP + i, index_properties[i]);
    }
}

static void
connect_index_lists (HrCalculator *self)
{
  for (guint which = INDEX_PRECISION; which <= INDEX_KV_TYPE; which++)
    g_signal_connect_object (index_list (self, which), "items-changed",
                             G_CALLBACK (update_list_indices), self, G_CONNECT_SWAPPED);
  update_list_indices (self);
}

/* Layers as llama.cpp counts them: the repeating ones and the output
 * layer; G_MAXUINT without a model. */
static guint
model_layer_count (HrCalculator *self)
{
  if (self->scenario.model == NULL)
    return G_MAXUINT;
  return hr_model_spec_get_arch (self->scenario.model)->n_layers + 1;
}

/* A fixed layer count the new model does not have becomes all of its
 * layers, before the run. */
static void
clamp_gpu_layers (HrCalculator *self)
{
  HrPlacementOptions *placement = &self->scenario.placement;
  guint limit = model_layer_count (self);

  if (placement->gpu_layers_fixed && placement->gpu_layers > limit)
    {
      placement->gpu_layers = limit;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GPU_LAYERS]);
    }
}

/* --------------------------------------------------------------------- */

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Runs the estimator and notifies what changed. */
static void
recompute (HrCalculator *self)
{
  g_autoptr(GError) error = NULL;
  HrCalculator previous;
  HrModelSpec *model = self->scenario.model;

  if (self->freeze_count > 0)
    {
      self->dirty = TRUE;
      return;
    }
  self->dirty = FALSE;
  self->n_recomputes++;
  clamp_gpu_layers (self);

  /* A shallow copy is enough to compare: the only pointer field
   * (error_message) is kept alive until the comparison is done. */
  previous = *self;

  self->valid = hr_scenario_estimate (&self->scenario, &self->result, &error);
  self->error_message = error != NULL ? g_strdup (error->message) : NULL;
  self->engine_used = hr_scenario_engine (&self->scenario);
  self->effective_bpw = self->scenario.precision != NULL
                        ? hr_precision_get_bpw (self->scenario.precision) : 0;
  self->trained_context = model != NULL ? hr_model_spec_get_arch (model)->max_context : 0;
  self->context_past_trained = model != NULL &&
                               self->scenario.context > self->trained_context;

  g_object_freeze_notify (G_OBJECT (self));
  hr_fields_notify_changes (self, &previous, outputs, N_OUTPUTS, output_properties);
  if (previous.result.verdict != self->result.verdict)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VERDICT]);
  g_free (previous.error_message);
  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[CHANGED], 0);
}

static void
hr_calculator_dispose (GObject *object)
{
  HrCalculator *self = (HrCalculator *) object;

  g_clear_object (&self->scenario.model);
  g_clear_object (&self->scenario.precision);
  g_clear_object (&self->scenario.kv_type);
  g_clear_object (&self->scenario.hardware);
  g_clear_object (&self->scenario.cpu);
  g_clear_pointer ((HrCalibration **) &self->scenario.calibration, hr_calibration_unref);
  g_clear_object (&self->catalog);

  G_OBJECT_CLASS (hr_calculator_parent_class)->dispose (object);
}

static void
hr_calculator_finalize (GObject *object)
{
  HrCalculator *self = (HrCalculator *) object;

  g_clear_pointer (&self->error_message, g_free);

  G_OBJECT_CLASS (hr_calculator_parent_class)->finalize (object);
}

/* Picks the defaults from the catalog, all under one run. */
static void
hr_calculator_constructed (GObject *object)
{
  HrCalculator *self = (HrCalculator *) object;

  G_OBJECT_CLASS (hr_calculator_parent_class)->constructed (object);

  if (self->catalog == NULL)
    self->catalog = g_object_ref (hr_catalog_get_default ());

  /* hr_calculator_init() left the calculator frozen: the defaults are set
   * without runs, then one run computes everything. */
  if (self->scenario.model == NULL)
    hr_calculator_set_model (self, hr_catalog_find_model (self->catalog, HR_DEFAULT_MODEL));
  if (self->scenario.precision == NULL)
    hr_calculator_set_precision (self, hr_catalog_find_precision (self->catalog,
                                                                  HR_DEFAULT_PRECISION));
  if (self->scenario.kv_type == NULL)
    hr_calculator_set_kv_type (self, hr_catalog_find_kv_type (self->catalog,
                                                              HR_DEFAULT_KV_TYPE));
  if (self->scenario.hardware == NULL)
    hr_calculator_set_hardware (self, hr_catalog_find_hardware (self->catalog,
                                                                HR_DEFAULT_HARDWARE));
  connect_index_lists (self);
  self->freeze_count = 0;
  recompute (self);
}

static void
hr_calculator_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  HrCalculator *self = HR_CALCULATOR (object);

  switch (prop_id)
    {
    case PROP_CATALOG:
      g_value_set_object (value, self->catalog);
      break;
    case PROP_MODEL:
      g_value_set_object (value, self->scenario.model);
      break;
    case PROP_PRECISION:
      g_value_set_object (value, self->scenario.precision);
      break;
    case PROP_KV_TYPE:
      g_value_set_object (value, self->scenario.kv_type);
      break;
    case PROP_HARDWARE:
      g_value_set_object (value, self->scenario.hardware);
      break;
    case PROP_CONTEXT:
      g_value_set_uint64 (value, self->scenario.context);
      break;
    case PROP_BATCH:
      g_value_set_uint (value, self->scenario.batch);
      break;
    case PROP_ENGINE:
      g_value_set_enum (value, self->scenario.engine);
      break;
    case PROP_GPU_COUNT:
      g_value_set_uint (value, self->scenario.gpus);
      break;
    case PROP_FLASH_ATTN:
      g_value_set_uint (value, self->scenario.options.flash_attn);
      break;
    case PROP_UBATCH:
      g_value_set_uint (value, self->scenario.options.ubatch);
      break;
    case PROP_GPU_MEMORY_UTILIZATION:
      g_value_set_double (value, self->scenario.options.gpu_memory_utilization);
      break;
    case PROP_MAX_NUM_BATCHED_TOKENS:
      g_value_set_uint64 (value, self->scenario.options.max_num_batched_tokens);
      break;
    case PROP_TP:
      g_value_set_uint (value, hr_calculator_get_tp (self));
      break;
    case PROP_PP:
      g_value_set_uint (value, hr_calculator_get_pp (self));
      break;
    case PROP_DP:
      g_value_set_uint (value, hr_calculator_get_dp (self));
      break;
    case PROP_NODES:
      g_value_set_uint (value, hr_calculator_get_nodes (self));
      break;
    case PROP_GPUS_PER_NODE:
      g_value_set_uint (value, hr_calculator_get_gpus_per_node (self));
      break;
    case PROP_USERS:
      g_value_set_uint (value, self->scenario.users);
      break;
    case PROP_TARGET_TOKENS_PER_S:
      g_value_set_double (value, self->scenario.target_tokens_per_s);
      break;
    case PROP_PROMPT_TOKENS:
      g_value_set_uint64 (value, self->scenario.prompt_tokens);
      break;
    case PROP_GENERATE_TOKENS:
      g_value_set_uint64 (value, self->scenario.generate_tokens);
      break;
    case PROP_GPU_LAYERS_AUTO:
      g_value_set_boolean (value, !self->scenario.placement.gpu_layers_fixed);
      break;
    case PROP_GPU_LAYERS:
      g_value_set_uint (value, self->scenario.placement.gpu_layers);
      break;
    case PROP_SPLIT_MODE:
      g_value_set_uint (value, self->scenario.placement.split_mode);
      break;
    case PROP_KV_ON_HOST:
      g_value_set_boolean (value, self->scenario.kv_on_host);
      break;
    case PROP_LORA_RANK:
      g_value_set_uint (value, hr_calculator_get_lora_rank (self));
      break;
    case PROP_N_CPU_MOE:
      g_value_set_uint (value, self->scenario.placement.n_cpu_moe);
      break;
    case PROP_RAM_BYTES:
      g_value_set_uint64 (value, self->scenario.ram.bytes);
      break;
    case PROP_RAM_BANDWIDTH:
      g_value_set_double (value, self->scenario.ram.bandwidth_gbps);
      break;
    case PROP_DEPTH:
      g_value_set_uint64 (value, self->scenario.depth);
      break;
    case PROP_BACKEND:
      g_value_set_uint (value, hr_calculator_get_backend (self));
      break;
    case PROP_VERDICT:
      g_value_set_enum (value, self->result.verdict);
      break;
    default:
      if (prop_id >= FIRST_INDEX_PROP && prop_id < FIRST_INDEX_PROP + N_INDEX_PROPS)
        g_value_set_uint (value, self->index[prop_id - FIRST_INDEX_PROP]);
      else if (!hr_fields_get_property (self, FIRST_OUTPUT_PROP, outputs, N_OUTPUTS,
                                        prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_calculator_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  HrCalculator *self = HR_CALCULATOR (object);

  switch (prop_id)
    {
    case PROP_CATALOG:
      self->catalog = g_value_dup_object (value);
      break;
    case PROP_MODEL:
      hr_calculator_set_model (self, g_value_get_object (value));
      break;
    case PROP_PRECISION:
      hr_calculator_set_precision (self, g_value_get_object (value));
      break;
    case PROP_KV_TYPE:
      hr_calculator_set_kv_type (self, g_value_get_object (value));
      break;
    case PROP_HARDWARE:
      hr_calculator_set_hardware (self, g_value_get_object (value));
      break;
    case PROP_CONTEXT:
      hr_calculator_set_context (self, g_value_get_uint64 (value));
      break;
    case PROP_BATCH:
      hr_calculator_set_batch (self, g_value_get_uint (value));
      break;
    case PROP_ENGINE:
      hr_calculator_set_engine (self, g_value_get_enum (value));
      break;
    case PROP_GPU_COUNT:
      hr_calculator_set_gpu_count (self, g_value_get_uint (value));
      break;
    case PROP_TP:
      hr_calculator_set_tp (self, g_value_get_uint (value));
      break;
    case PROP_PP:
      hr_calculator_set_pp (self, g_value_get_uint (value));
      break;
    case PROP_DP:
      hr_calculator_set_dp (self, g_value_get_uint (value));
      break;
    case PROP_NODES:
      hr_calculator_set_nodes (self, g_value_get_uint (value));
      break;
    case PROP_GPUS_PER_NODE:
      hr_calculator_set_gpus_per_node (self, g_value_get_uint (value));
      break;
    case PROP_USERS:
      hr_calculator_set_users (self, g_value_get_uint (value));
      break;
    case PROP_TARGET_TOKENS_PER_S:
      hr_calculator_set_target_tokens_per_s (self, g_value_get_double (value));
      break;
    case PROP_FLASH_ATTN:
    case PROP_UBATCH:
    case PROP_GPU_MEMORY_UTILIZATION:
    case PROP_MAX_NUM_BATCHED_TOKENS:
      {
        HrEngineOptions options = self->scenario.options;

        if (prop_id == PROP_FLASH_ATTN)
          options.flash_attn = MIN (g_value_get_uint (value), HR_FLASH_ATTN_OFF);
        else if (prop_id == PROP_UBATCH)
          options.ubatch = g_value_get_uint (value);
        else if (prop_id == PROP_GPU_MEMORY_UTILIZATION)
          options.gpu_memory_utilization = g_value_get_double (value);
        else
          options.max_num_batched_tokens = g_value_get_uint64 (value);
        hr_calculator_set_engine_options (self, &options);
      }
      break;
    case PROP_PROMPT_TOKENS:
      hr_calculator_set_prompt_tokens (self, g_value_get_uint64 (value));
      break;
    case PROP_GENERATE_TOKENS:
      hr_calculator_set_generate_tokens (self, g_value_get_uint64 (value));
      break;
    case PROP_GPU_LAYERS_AUTO:
      hr_calculator_set_gpu_layers_auto (self, g_value_get_boolean (value));
      break;
    case PROP_GPU_LAYERS:
      hr_calculator_set_gpu_layers (self, g_value_get_uint (value));
      break;
    case PROP_SPLIT_MODE:
      hr_calculator_set_split_mode (self, g_value_get_uint (value));
      break;
    case PROP_KV_ON_HOST:
      hr_calculator_set_kv_on_host (self, g_value_get_boolean (value));
      break;
    case PROP_LORA_RANK:
      hr_calculator_set_lora_rank (self, g_value_get_uint (value));
      break;
    case PROP_N_CPU_MOE:
      hr_calculator_set_n_cpu_moe (self, g_value_get_uint (value));
      break;
    case PROP_RAM_BYTES:
      hr_calculator_set_ram_bytes (self, g_value_get_uint64 (value));
      break;
    case PROP_RAM_BANDWIDTH:
      hr_calculator_set_ram_bandwidth (self, g_value_get_double (value));
      break;
    case PROP_DEPTH:
      hr_calculator_set_depth (self, g_value_get_uint64 (value));
      break;
    case PROP_BACKEND:
      hr_calculator_set_backend (self, g_value_get_uint (value));
      break;
    default:
      if (prop_id >= FIRST_INDEX_PROP && prop_id < FIRST_INDEX_PROP + N_INDEX_PROPS)
        set_index (self, prop_id - FIRST_INDEX_PROP, g_value_get_uint (value));
      else
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_calculator_class_init (HrCalculatorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = hr_calculator_constructed;
  object_class->dispose = hr_calculator_dispose;
  object_class->finalize = hr_calculator_finalize;
  object_class->get_property = hr_calculator_get_property;
  object_class->set_property = hr_calculator_set_property;

  properties[PROP_CATALOG] =
    g_param_spec_object ("catalog", NULL, NULL, HR_TYPE_CATALOG,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, HR_TYPE_MODEL_SPEC, rw);
  properties[PROP_PRECISION] =
    g_param_spec_object ("precision", NULL, NULL, HR_TYPE_PRECISION, rw);
  properties[PROP_KV_TYPE] =
    g_param_spec_object ("kv-type", NULL, NULL, HR_TYPE_KV_TYPE, rw);
  properties[PROP_HARDWARE] =
    g_param_spec_object ("hardware", NULL, NULL, HR_TYPE_HARDWARE, rw);
  properties[PROP_CONTEXT] =
    g_param_spec_uint64 ("context", NULL, "Tokens per sequence",
                         HR_CONTEXT_MIN, HR_CONTEXT_MAX, HR_DEFAULT_CONTEXT, rw);
  properties[PROP_BATCH] =
    g_param_spec_uint ("batch", NULL, "Parallel sequences",
                       1, HR_BATCH_MAX, HR_DEFAULT_BATCH, rw);
  properties[PROP_ENGINE] =
    g_param_spec_enum ("engine", NULL, "Engine profile",
                       HR_TYPE_ENGINE, HR_DEFAULT_ENGINE, rw);
  properties[PROP_GPU_COUNT] =
    g_param_spec_uint ("gpu-count", NULL, "Tensor-parallel GPUs",
                       1, HR_GPUS_MAX, HR_DEFAULT_GPUS, rw);
  properties[PROP_FLASH_ATTN] =
    g_param_spec_uint ("flash-attn", NULL, "0 = engine default, 1 = on, 2 = off",
                       HR_FLASH_ATTN_DEFAULT, HR_FLASH_ATTN_OFF, HR_FLASH_ATTN_DEFAULT, rw);
  properties[PROP_UBATCH] =
    g_param_spec_uint ("ubatch", NULL, "llama.cpp micro-batch; 0 = default",
                       0, 1 << 16, 0, rw);
  properties[PROP_GPU_MEMORY_UTILIZATION] =
    g_param_spec_double ("gpu-memory-utilization", NULL, "vLLM share; 0 = default",
                         0, 1, 0, rw);
  properties[PROP_MAX_NUM_BATCHED_TOKENS] =
    g_param_spec_uint64 ("max-num-batched-tokens", NULL, "vLLM; 0 = default",
                         0, HR_CONTEXT_MAX, 0, rw);
  properties[PROP_TP] =
    g_param_spec_uint ("tp", NULL, "vLLM / SGLang: tensor-parallel GPUs of a stage",
                       1, HR_GPUS_MAX, HR_DEFAULT_GPUS, rw);
  properties[PROP_PP] =
    g_param_spec_uint ("pp", NULL, "vLLM / SGLang: pipeline stages",
                       1, HR_GPUS_MAX, 1, rw);
  properties[PROP_DP] =
    g_param_spec_uint ("dp", NULL, "vLLM / SGLang: data-parallel replicas",
                       1, HR_GPUS_MAX, 1, rw);
  properties[PROP_NODES] =
    g_param_spec_uint ("nodes", NULL, "Machines the GPUs are in",
                       1, HR_GPUS_MAX, 1, rw);
  properties[PROP_GPUS_PER_NODE] =
    g_param_spec_uint ("gpus-per-node", NULL, "GPUs in each machine",
                       1, HR_GPUS_MAX, HR_DEFAULT_GPUS, rw);
  properties[PROP_USERS] =
    g_param_spec_uint ("users", NULL, "vLLM / SGLang: concurrent users",
                       1, HR_USERS_MAX, HR_DEFAULT_USERS, rw);
  properties[PROP_TARGET_TOKENS_PER_S] =
    g_param_spec_double ("target-tokens-per-s", NULL, "Answer rate each user should get",
                         HR_TARGET_TOKENS_PER_S_MIN, HR_TARGET_TOKENS_PER_S_MAX,
                         HR_DEFAULT_TARGET_TOKENS_PER_S, rw);
  properties[PROP_PROMPT_TOKENS] =
    g_param_spec_uint64 ("prompt-tokens", NULL, "The prompt timed; 0 = the context",
                         0, HR_CONTEXT_MAX, 0, rw);
  properties[PROP_GENERATE_TOKENS] =
    g_param_spec_uint64 ("generate-tokens", NULL, "The answer timed; 0 = HR_DEFAULT_GENERATE",
                         0, HR_CONTEXT_MAX, 0, rw);
  properties[PROP_GPU_LAYERS_AUTO] =
    g_param_spec_boolean ("gpu-layers-auto", NULL, "llama.cpp: as many layers as fit",
                          TRUE, rw);
  properties[PROP_GPU_LAYERS] =
    g_param_spec_uint ("gpu-layers", NULL, "llama.cpp: layers on the GPUs when not auto",
                       0, HR_GPU_LAYERS_MAX, 0, rw);
  properties[PROP_SPLIT_MODE] =
    g_param_spec_uint ("split-mode", NULL, "llama.cpp: an HrSplitMode",
                       HR_SPLIT_DEFAULT, HR_SPLIT_NONE, HR_SPLIT_DEFAULT, rw);
  properties[PROP_N_CPU_MOE] =
    g_param_spec_uint ("n-cpu-moe", NULL, "llama.cpp: experts of the first N layers in RAM",
                       0, HR_GPU_LAYERS_MAX, 0, rw);
  properties[PROP_KV_ON_HOST] =
    g_param_spec_boolean ("kv-on-host", NULL, "llama-server: the KV cache in system RAM "
                          "(--no-kv-offload)", FALSE, rw);
  properties[PROP_LORA_RANK] =
    g_param_spec_uint ("lora-rank", NULL, "llama.cpp, Ollama: one LoRA adapter of this rank "
                       "over every linear layer; 0 = none", 0, HR_LORA_RANK_MAX, 0, rw);
  properties[PROP_RAM_BYTES] =
    g_param_spec_uint64 ("ram-bytes", NULL, "System memory; 0 = the stated assumption",
                         0, G_MAXUINT64, 0, rw);
  properties[PROP_RAM_BANDWIDTH] =
    g_param_spec_double ("ram-bandwidth", NULL, "System memory GB/s; 0 = the assumption",
                         0, HR_RAM_BANDWIDTH_MAX_GBPS, 0, rw);
  properties[PROP_DEPTH] =
    g_param_spec_uint64 ("depth", NULL, "llama.cpp: tokens cached before the prompt",
                         0, HR_CONTEXT_MAX - 1, 0, rw);
  properties[PROP_BACKEND] =
    g_param_spec_uint ("backend", NULL, "llama.cpp: an HrBackend + 1; 0 = the device's own",
                       0, HR_N_BACKENDS, 0, rw);
  properties[PROP_VERDICT] =
    g_param_spec_enum ("verdict", NULL, "Fits comfortably, tight, or not",
                       HR_TYPE_VERDICT, HR_VERDICT_COMFORTABLE,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_INPUT_PROPS, properties);
  hr_fields_install_properties (object_class, FIRST_OUTPUT_PROP, outputs, N_OUTPUTS,
                                output_properties);
  install_index_properties (object_class);

  /**
   * HrCalculator::changed:
   *
   * Emitted once after every recomputation.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
hr_calculator_init (HrCalculator *self)
{
  self->scenario.context = HR_DEFAULT_CONTEXT;
  self->scenario.batch = HR_DEFAULT_BATCH;
  self->scenario.engine = HR_DEFAULT_ENGINE;
  self->scenario.gpus = HR_DEFAULT_GPUS;
  /* tp stays 0 (the GPUs over the stages and replicas), so that whatever
   * varies the GPU count (advice, the hardware table) varies TP too. */
  self->scenario.layout = (HrLayout) { 0, 1, 1, 1 };
  self->scenario.users = HR_DEFAULT_USERS;
  self->scenario.target_tokens_per_s = HR_DEFAULT_TARGET_TOKENS_PER_S;
  self->index[INDEX_PRECISION] = self->index[INDEX_KV_TYPE] = NO_POSITION;
  self->index[INDEX_ENGINE] = engine_position (HR_DEFAULT_ENGINE);
  /* Nothing is computed until construction ends. */
  self->freeze_count = 1;
}

/**
 * hr_calculator_new:
 * @catalog: (nullable): the catalog to pick defaults from; %NULL uses
 *   hr_catalog_get_default() (built-in plus the user's files)
 */
HrCalculator *
hr_calculator_new (HrCatalog *catalog)
{
  return g_object_new (HR_TYPE_CALCULATOR, "catalog", catalog, NULL);
}

HrCatalog *
hr_calculator_get_catalog (HrCalculator *self)
{
  g_return_val_if_fail (HR_IS_CALCULATOR (self), NULL);
  return self->catalog;
}

static void
set_object_input (HrCalculator *self,
                  gpointer     *field,
                  gpointer      value,
                  guint         prop_id)
{
  if (g_set_object ((GObject **) field, value))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
      if (prop_id == PROP_PRECISION || prop_id == PROP_KV_TYPE)
        update_index (self, prop_id == PROP_PRECISION ? INDEX_PRECISION : INDEX_KV_TYPE);
      recompute (self);
    }
}

void
hr_calculator_set_model (HrCalculator *self,
                         HrModelSpec  *model)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));
  g_return_if_fail (model == NULL || HR_IS_MODEL_SPEC (model));
  set_object_input (self, (gpointer *) &self->scenario.model, model, PROP_MODEL);
}

void
hr_calculator_set_precision (HrCalculator *self,
                             HrPrecision  *precision)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));
  g_return_if_fail (precision == NULL || HR_IS_PRECISION (precision));
  set_object_input (self, (gpointer *) &self->scenario.precision, precision,
                    PROP_PRECISION);
}

void
hr_calculator_set_kv_type (HrCalculator *self,
                           HrKvType     *kv_type)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));
  g_return_if_fail (kv_type == NULL || HR_IS_KV_TYPE (kv_type));
  set_object_input (self, (gpointer *) &self->scenario.kv_type, kv_type, PROP_KV_TYPE);
}

static void set_layout (HrCalculator *self,
                        guint         gpus,
                        guint         nodes,
                        guint         pp,
                        guint         dp);

static gboolean backend_possible (HrCalculator *self,
                                  HrBackend     backend);
static void     check_backend    (HrCalculator *self);

void
hr_calculator_set_hardware (HrCalculator *self,
                            HrHardware   *hardware)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));
  g_return_if_fail (hardware == NULL || HR_IS_HARDWARE (hardware));
  g_object_freeze_notify (G_OBJECT (self));
  set_object_input (self, (gpointer *) &self->scenario.hardware, hardware, PROP_HARDWARE);
  if (self->scenario.options.backend_set && hardware != NULL &&
      !backend_possible (self, self->scenario.options.backend))
    {
      check_backend (self);
      recompute (self);
    }
  /* An Apple chip is one device: several of another kind become one. */
  if (hardware != NULL && hr_hardware_is_unified (hardware) && self->scenario.gpus > 1)
    set_layout (self, 1, 1, 1, 1);
  g_object_thaw_notify (G_OBJECT (self));
}

void
hr_calculator_set_context (HrCalculator *self,
                           guint64       context)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));

  context = CLAMP (context, HR_CONTEXT_MIN, HR_CONTEXT_MAX);
  if (self->scenario.context == context)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  self->scenario.context = context;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT]);
  /* The cache before the prompt leaves room for one: else it empties. */
  if (self->scenario.depth >= context)
    {
      self->scenario.depth = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEPTH]);
    }
  /* The prompt never outgrows the context: then it is the rest of it. */
  if (self->scenario.prompt_tokens + self->scenario.depth > context)
    {
      self->scenario.prompt_tokens = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROMPT_TOKENS]);
    }
  recompute (self);
  g_object_thaw_notify (G_OBJECT (self));
}

void
hr_calculator_set_batch (HrCalculator *self,
                         guint         batch)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));

  batch = CLAMP (batch, 1, HR_BATCH_MAX);
  if (self->scenario.batch == batch)
    return;
  self->scenario.batch = batch;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BATCH]);
  recompute (self);
}

void
hr_calculator_set_engine (HrCalculator *self,
                          HrEngine      engine)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));
  g_return_if_fail (engine <= HR_ENGINE_AUTO);

  if (self->scenario.engine == engine)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  self->scenario.engine = engine;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENGINE]);
  update_index (self, INDEX_ENGINE);
  check_backend (self);
  recompute (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/* ---------------------------------------------------------------- Layout
 *
 * The GPUs (gpu-count) are nodes × gpus-per-node machines and tp × pp × dp
 * ranks.  The scenario keeps the GPU count, the machines, the stages and
 * the replicas; TP is what is left, gpus ÷ (pp × dp).  A new GPU count or
 * machine size puts a machine's GPUs in one tensor-parallel group and the
 * machines in pipeline stages (vLLM's advice for multi-node serving); a
 * new TP, PP or DP keeps the GPUs and splits them again. */

/* The divisor of @n nearest to @value (the larger on a tie). */
static guint
nearest_divisor (guint n,
                 guint value)
{
  for (guint delta = 0; delta <= MAX (n, value); delta++)
    {
      if (value + delta <= n && n % (value + delta) == 0)
        return value + delta;
      if (delta < value && n % (value - delta) == 0)
        return value - delta;
    }
  return 1;
}

static void
set_layout (HrCalculator *self,
            guint         gpus,
            guint         nodes,
            guint         pp,
            guint         dp)
{
  HrScenario *s = &self->scenario;
  guint old_tp = hr_calculator_get_tp (self);
  guint old_per_node = hr_calculator_get_gpus_per_node (self);
  gboolean changed = FALSE;

  /* One unified-memory device (an Apple chip): the count is 1. */
  if (s->hardware != NULL && hr_hardware_is_unified (s->hardware))
    gpus = nodes = pp = dp = 1;

  g_object_freeze_notify (G_OBJECT (self));
  if (s->gpus != gpus)
    {
      s->gpus = gpus;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GPU_COUNT]);
      changed = TRUE;
    }
  if (s->layout.nodes != nodes)
    {
      s->layout.nodes = nodes;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NODES]);
      changed = TRUE;
    }
  if (s->layout.pp != pp)
    {
      s->layout.pp = pp;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PP]);
      changed = TRUE;
    }
  if (s->layout.dp != dp)
    {
      s->layout.dp = dp;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DP]);
      changed = TRUE;
    }
  if (hr_calculator_get_tp (self) != old_tp)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TP]);
  if (hr_calculator_get_gpus_per_node (self) != old_per_node)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GPUS_PER_NODE]);
  if (changed)
    recompute (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/* The machines' GPUs, one TP group a machine, a stage a machine. */
static void
set_machines (HrCalculator *self,
              guint         nodes,
              guint         per_node)
{
  nodes = CLAMP (nodes, 1, HR_GPUS_MAX);
  per_node = CLAMP (per_node, 1, HR_GPUS_MAX / nodes);
  set_layout (self, nodes * per_node, nodes, nodes, 1);
}

void
hr_calculator_set_gpu_count (HrCalculator *self,
                             guint         gpu_count)
{
  guint nodes;

  g_return_if_fail (HR_IS_CALCULATOR (self));

  gpu_count = CLAMP (gpu_count, 1, HR_GPUS_MAX);
  if (self->scenario.gpus == gpu_count)
    return;
  nodes = gpu_count % self->scenario.layout.nodes == 0 ? self->scenario.layout.nodes : 1;
  set_machines (self, nodes, gpu_count / nodes);
}

void
hr_calculator_set_nodes (HrCalculator *self,
                         guint         nodes)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));

  if (nodes != self->scenario.layout.nodes)
    set_machines (self, nodes, hr_calculator_get_gpus_per_node (self));
}

void
hr_calculator_set_gpus_per_node (HrCalculator *self,
                                 guint         gpus_per_node)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));

  if (gpus_per_node != hr_calculator_get_gpus_per_node (self))
    set_machines (self, self->scenario.layout.nodes, gpus_per_node);
}

/* TP divides the GPUs (the nearest size that does); the replicas stay
 * when they still divide what is left, the stages take the rest. */
void
hr_calculator_set_tp (HrCalculator *self,
                      guint         tp)
{
  guint gpus, dp;

  g_return_if_fail (HR_IS_CALCULATOR (self));

  gpus = self->scenario.gpus;
  tp = nearest_divisor (gpus, CLAMP (tp, 1, gpus));
  dp = (gpus / tp) % self->scenario.layout.dp == 0 ? self->scenario.layout.dp : 1;
  set_layout (self, gpus, self->scenario.layout.nodes, gpus / tp / dp, dp);
}

/* PP and DP share what TP leaves: setting one gives the other the rest. */
void
hr_calculator_set_pp (HrCalculator *self,
                      guint         pp)
{
  guint gpus, rest;

  g_return_if_fail (HR_IS_CALCULATOR (self));

  gpus = self->scenario.gpus;
  rest = gpus / hr_calculator_get_tp (self);
  pp = nearest_divisor (rest, CLAMP (pp, 1, rest));
  set_layout (self, gpus, self->scenario.layout.nodes, pp, rest / pp);
}

void
hr_calculator_set_dp (HrCalculator *self,
                      guint         dp)
{
  guint gpus, rest;

  g_return_if_fail (HR_IS_CALCULATOR (self));

  gpus = self->scenario.gpus;
  rest = gpus / hr_calculator_get_tp (self);
  dp = nearest_divisor (rest, CLAMP (dp, 1, rest));
  set_layout (self, gpus, self->scenario.layout.nodes, rest / dp, dp);
}

guint
hr_calculator_get_tp (HrCalculator *self)
{
  const HrLayout *l;

  g_return_val_if_fail (HR_IS_CALCULATOR (self), 1);
  l = &self->scenario.layout;
  return MAX (self->scenario.gpus / (MAX (l->pp, 1) * MAX (l->dp, 1)), 1);
}

guint
hr_calculator_get_gpus_per_node (HrCalculator *self)
{
  g_return_val_if_fail (HR_IS_CALCULATOR (self), 1);
  return MAX (self->scenario.gpus / MAX (self->scenario.layout.nodes, 1), 1);
}

/**
 * hr_calculator_set_layout:
 * @layout: tp, pp, dp and nodes (zero fields: one)
 *
 * A whole layout at once, as a serving plan gives it: the GPUs become
 * tp × pp × dp, over @layout's machines.
 */
void
hr_calculator_set_layout (HrCalculator   *self,
                          const HrLayout *layout)
{
  guint tp, pp, dp, nodes, gpus;

  g_return_if_fail (HR_IS_CALCULATOR (self));
  g_return_if_fail (layout != NULL);

  tp = MAX (layout->tp, 1);
  pp = MAX (layout->pp, 1);
  dp = MAX (layout->dp, 1);
  gpus = CLAMP (tp * pp * dp, 1, HR_GPUS_MAX);
  nodes = MAX (layout->nodes, 1);
  if (gpus % nodes != 0)
    nodes = 1;
  set_layout (self, gpus, nodes, pp, dp);
}

void
hr_calculator_set_users (HrCalculator *self,
                         guint         users)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));

  users = CLAMP (users, 1, HR_USERS_MAX);
  if (self->scenario.users == users)
    return;
  self->scenario.users = users;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_USERS]);
  recompute (self);
}

void
hr_calculator_set_target_tokens_per_s (HrCalculator *self,
                                       double        target)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));

  target = CLAMP (target, HR_TARGET_TOKENS_PER_S_MIN, HR_TARGET_TOKENS_PER_S_MAX);
  if (self->scenario.target_tokens_per_s == target)
    return;
  self->scenario.target_tokens_per_s = target;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TARGET_TOKENS_PER_S]);
  recompute (self);
}

const HrEngineOptions *
hr_calculator_get_engine_options (HrCalculator *self)
{
  g_return_val_if_fail (HR_IS_CALCULATOR (self), NULL);
  return &self->scenario.options;
}

/* Engine settings; zero means the engine's own default.  Each changed
 * option is notified, then one run. */
void
hr_calculator_set_engine_options (HrCalculator          *self,
                                  const HrEngineOptions *options)
{
  HrEngineOptions *current;
  gboolean changed = FALSE;

  g_return_if_fail (HR_IS_CALCULATOR (self));
  g_return_if_fail (options != NULL);

  current = &self->scenario.options;
  g_object_freeze_notify (G_OBJECT (self));
  if (current->flash_attn != options->flash_attn)
    {
      current->flash_attn = options->flash_attn;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLASH_ATTN]);
      changed = TRUE;
    }
  if (current->ubatch != options->ubatch)
    {
      current->ubatch = options->ubatch;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UBATCH]);
      changed = TRUE;
    }
  if (current->gpu_memory_utilization != options->gpu_memory_utilization)
    {
      current->gpu_memory_utilization = CLAMP (options->gpu_memory_utilization, 0.0, 1.0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GPU_MEMORY_UTILIZATION]);
      changed = TRUE;
    }
  if (current->max_num_batched_tokens != options->max_num_batched_tokens)
    {
      current->max_num_batched_tokens = options->max_num_batched_tokens;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_NUM_BATCHED_TOKENS]);
      changed = TRUE;
    }
  if (changed)
    recompute (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/* ------------------------------------------------ Placement and timing
 *
 * llama.cpp's and Ollama's placement (GPU layers, split mode, experts in
 * system RAM), the system memory it spills into, and the prompt and
 * answer that are timed.  Each setter clamps, stores, notifies and runs
 * once; the other engines ignore the placement. */

static void
set_u64_input (HrCalculator *self,
               guint64      *field,
               guint64       value,
               guint         prop_id)
{
  if (*field == value)
    return;
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
  recompute (self);
}

/**
 * hr_calculator_set_prompt_tokens:
 * @prompt_tokens: the prompt timed; 0 for the whole context
 *
 * A prompt as long as the context or longer is the whole context (0).
 */
void
hr_calculator_set_prompt_tokens (HrCalculator *self,
                                 guint64       prompt_tokens)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));

  if (prompt_tokens >= self->scenario.context ||
      prompt_tokens + self->scenario.depth > self->scenario.context)
    prompt_tokens = 0;
  set_u64_input (self, &self->scenario.prompt_tokens, prompt_tokens, PROP_PROMPT_TOKENS);
}

/**
 * hr_calculator_set_depth:
 * @depth: tokens already in the cache before the prompt (llama-bench -d)
 *
 * At most the context less one token; a prompt that no longer fits on
 * top of it becomes the rest of the context (0).
 */
void
hr_calculator_set_depth (HrCalculator *self,
                         guint64       depth)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));

  depth = MIN (depth, self->scenario.context - 1);
  if (self->scenario.depth == depth)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  self->scenario.depth = depth;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEPTH]);
  if (self->scenario.prompt_tokens + depth > self->scenario.context)
    {
      self->scenario.prompt_tokens = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROMPT_TOKENS]);
    }
  recompute (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * hr_calculator_set_cpu:
 * @cpu: (nullable): the CPU that runs the layers and experts left in
 *   system RAM (a catalog entry or this computer's); %NULL for the
 *   stated assumption
 *
 * Its matrix rate times them; its bandwidth is the RAM's unless one is
 * set (hr_calculator_set_ram).
 */
void
hr_calculator_set_cpu (HrCalculator *self,
                       HrCpu        *cpu)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));
  g_return_if_fail (cpu == NULL || HR_IS_CPU (cpu));

  if (g_set_object (&self->scenario.cpu, cpu))
    recompute (self);
}

/**
 * hr_calculator_set_calibration:
 * @calibration: (nullable): this computer's speed corrections, or %NULL
 *   for none (the window's switch)
 *
 * Every estimate of the calculator, and of the tables that follow it,
 * has its speeds corrected by @calibration (a reference is kept).
 */
void
hr_calculator_set_calibration (HrCalculator  *self,
                               HrCalibration *calibration)
{
  HrCalibration *old;

  g_return_if_fail (HR_IS_CALCULATOR (self));

  old = (HrCalibration *) self->scenario.calibration;
  if (old == calibration)
    return;
  self->scenario.calibration = calibration != NULL ? hr_calibration_ref (calibration) : NULL;
  hr_calibration_unref (old);
  recompute (self);
}

const HrCalibration *
hr_calculator_get_calibration (HrCalculator *self)
{
  g_return_val_if_fail (HR_IS_CALCULATOR (self), NULL);
  return self->scenario.calibration;
}

HrCpu *
hr_calculator_get_cpu (HrCalculator *self)
{
  g_return_val_if_fail (HR_IS_CALCULATOR (self), NULL);
  return self->scenario.cpu;
}

/* Whether the device runs @backend under the engine asked for (Ollama
 * has no SYCL build); the other engines take none. */
static gboolean
backend_possible (HrCalculator *self,
                  HrBackend     backend)
{
  HrEngine engine = hr_scenario_engine (&self->scenario);

  if (self->scenario.hardware == NULL)
    return FALSE;
  if (engine == HR_ENGINE_OLLAMA && backend == HR_BACKEND_SYCL)
    return FALSE;
  return hr_device_backend_possible (hr_hardware_get_device (self->scenario.hardware), backend);
}

/**
 * hr_calculator_backend_possible:
 * @backend: an #HrBackend
 *
 * Whether the current device (and engine) can run llama.cpp's @backend
 * build: the window offers only these.
 */
gboolean
hr_calculator_backend_possible (HrCalculator *self,
                                HrBackend     backend)
{
  g_return_val_if_fail (HR_IS_CALCULATOR (self), FALSE);
  return (guint) backend < HR_N_BACKENDS && backend_possible (self, backend);
}

/**
 * hr_calculator_set_backend:
 * @backend: 0 for the device's own build, else an #HrBackend + 1
 *
 * One the device cannot run is the device's own (0).
 */
void
hr_calculator_set_backend (HrCalculator *self,
                           guint         backend)
{
  HrEngineOptions *options;

  g_return_if_fail (HR_IS_CALCULATOR (self));

  options = &self->scenario.options;
  if (backend > HR_N_BACKENDS || (backend > 0 && !backend_possible (self, backend - 1)))
    backend = 0;
  if (hr_calculator_get_backend (self) == backend)
    return;
  options->backend_set = backend > 0;
  options->backend = backend > 0 ? (HrBackend) (backend - 1) : 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BACKEND]);
  recompute (self);
}

guint
hr_calculator_get_backend (HrCalculator *self)
{
  g_return_val_if_fail (HR_IS_CALCULATOR (self), 0);
  return self->scenario.options.backend_set ? (guint) self->scenario.options.backend + 1 : 0;
}

/* A new device or engine drops a build it cannot run. */
static void
check_backend (HrCalculator *self)
{
  if (self->scenario.options.backend_set &&
      !backend_possible (self, self->scenario.options.backend))
    {
      self->scenario.options.backend_set = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BACKEND]);
    }
}

/**
 * hr_calculator_set_generate_tokens:
 * @generate_tokens: the answer timed; 0 for %HR_DEFAULT_GENERATE
 */
void
hr_calculator_set_generate_tokens (HrCalculator *self,
                                   guint64       generate_tokens)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));

  set_u64_input (self, &self->scenario.generate_tokens,
                 MIN (generate_tokens, HR_CONTEXT_MAX), PROP_GENERATE_TOKENS);
}

/**
 * hr_calculator_set_gpu_layers_auto:
 * @automatic: %TRUE for as many layers as fit (llama.cpp's --fit)
 *
 * Turning the automatic choice off keeps the layers it chose, so that
 * nothing moves until the count is changed.
 */
void
hr_calculator_set_gpu_layers_auto (HrCalculator *self,
                                   gboolean      automatic)
{
  HrPlacementOptions *placement;

  g_return_if_fail (HR_IS_CALCULATOR (self));

  placement = &self->scenario.placement;
  if (placement->gpu_layers_fixed == !automatic)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  placement->gpu_layers_fixed = !automatic;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GPU_LAYERS_AUTO]);
  if (!automatic && self->valid && placement->gpu_layers != self->result.gpu_layers)
    {
      placement->gpu_layers = self->result.gpu_layers;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GPU_LAYERS]);
    }
  recompute (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * hr_calculator_set_gpu_layers:
 * @gpu_layers: layers on the GPUs, the output layer counted; at most the
 *   model's layers + 1
 *
 * A fixed count: the automatic choice is turned off.
 */
void
hr_calculator_set_gpu_layers (HrCalculator *self,
                              guint         gpu_layers)
{
  HrPlacementOptions *placement;

  g_return_if_fail (HR_IS_CALCULATOR (self));

  placement = &self->scenario.placement;
  gpu_layers = MIN (gpu_layers, MIN (model_layer_count (self), HR_GPU_LAYERS_MAX));
  if (placement->gpu_layers_fixed && placement->gpu_layers == gpu_layers)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  if (!placement->gpu_layers_fixed)
    {
      placement->gpu_layers_fixed = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GPU_LAYERS_AUTO]);
    }
  if (placement->gpu_layers != gpu_layers)
    {
      placement->gpu_layers = gpu_layers;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GPU_LAYERS]);
    }
  recompute (self);
  g_object_thaw_notify (G_OBJECT (self));
}

void
hr_calculator_set_split_mode (HrCalculator *self,
                              HrSplitMode   split_mode)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));
  g_return_if_fail (split_mode <= HR_SPLIT_NONE);

  if (self->scenario.placement.split_mode == split_mode)
    return;
  self->scenario.placement.split_mode = split_mode;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPLIT_MODE]);
  recompute (self);
}

/**
 * hr_calculator_set_n_cpu_moe:
 * @n_cpu_moe: the routed experts of the first @n_cpu_moe layers stay in
 *   system RAM (--n-cpu-moe); MoE models only
 */
void
hr_calculator_set_n_cpu_moe (HrCalculator *self,
                             guint         n_cpu_moe)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));

  n_cpu_moe = MIN (n_cpu_moe, HR_GPU_LAYERS_MAX);
  if (self->scenario.placement.n_cpu_moe == n_cpu_moe)
    return;
  self->scenario.placement.n_cpu_moe = n_cpu_moe;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_CPU_MOE]);
  recompute (self);
}

/**
 * hr_calculator_set_kv_on_host:
 * @kv_on_host: llama-server keeps every layer's KV cache in system RAM
 *   (--no-kv-offload)
 */
void
hr_calculator_set_kv_on_host (HrCalculator *self,
                              gboolean      kv_on_host)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));

  kv_on_host = !!kv_on_host;
  if (self->scenario.kv_on_host == kv_on_host)
    return;
  self->scenario.kv_on_host = kv_on_host;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KV_ON_HOST]);
  recompute (self);
}

/**
 * hr_calculator_set_lora_rank:
 * @rank: one LoRA adapter of this rank over every linear layer (the
 *   window's adapter; the CLI takes several and files); 0 for none
 */
void
hr_calculator_set_lora_rank (HrCalculator *self,
                             guint         rank)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));

  rank = MIN (rank, HR_LORA_RANK_MAX);
  if (hr_calculator_get_lora_rank (self) == rank)
    return;
  self->scenario.n_lora = rank > 0 ? 1 : 0;
  self->scenario.lora_paths[0] = NULL;
  self->scenario.lora_ranks[0] = rank;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LORA_RANK]);
  recompute (self);
}

/**
 * hr_calculator_set_ram_bytes:
 * @ram_bytes: the system memory; 0 for the stated assumption
 */
void
hr_calculator_set_ram_bytes (HrCalculator *self,
                             guint64       ram_bytes)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));

  set_u64_input (self, &self->scenario.ram.bytes, ram_bytes, PROP_RAM_BYTES);
}

/**
 * hr_calculator_set_ram_bandwidth:
 * @gbps: the system memory's bandwidth in GB/s; 0 for the assumption
 */
void
hr_calculator_set_ram_bandwidth (HrCalculator *self,
                                 double        gbps)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));

  gbps = CLAMP (gbps, 0.0, HR_RAM_BANDWIDTH_MAX_GBPS);
  if (self->scenario.ram.bandwidth_gbps == gbps)
    return;
  self->scenario.ram.bandwidth_gbps = gbps;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RAM_BANDWIDTH]);
  recompute (self);
}

/**
 * hr_calculator_set_ram:
 * @ram: the system memory; zero fields take the stated assumption
 *
 * Where llama.cpp and Ollama keep what the GPUs do not hold: its size and
 * bandwidth.  The window fills it from what was detected.  One run when
 * it changed.
 */
void
hr_calculator_set_ram (HrCalculator         *self,
                       const HrSystemMemory *ram)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));
  g_return_if_fail (ram != NULL);

  if (self->scenario.ram.bytes == ram->bytes &&
      self->scenario.ram.bandwidth_gbps == ram->bandwidth_gbps)
    return;
  /* One run; the ram-bytes and ram-bandwidth properties follow. */
  g_object_freeze_notify (G_OBJECT (self));
  if (self->scenario.ram.bytes != ram->bytes)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RAM_BYTES]);
  if (self->scenario.ram.bandwidth_gbps != ram->bandwidth_gbps)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RAM_BANDWIDTH]);
  self->scenario.ram = *ram;
  recompute (self);
  g_object_thaw_notify (G_OBJECT (self));
}

const HrSystemMemory *
hr_calculator_get_ram (HrCalculator *self)
{
  g_return_val_if_fail (HR_IS_CALCULATOR (self), NULL);
  return &self->scenario.ram;
}

#define INPUT_GETTER(type, name, expr) \
  type \
  hr_calculator_get_##name (HrCalculator *self) \
  { \
    g_return_val_if_fail (HR_IS_CALCULATOR (self), 0); \
    return (expr); \
  }

INPUT_GETTER (HrModelSpec *, model, self->scenario.model)
INPUT_GETTER (HrPrecision *, precision, self->scenario.precision)
INPUT_GETTER (HrKvType *, kv_type, self->scenario.kv_type)
INPUT_GETTER (HrHardware *, hardware, self->scenario.hardware)
INPUT_GETTER (guint64, context, self->scenario.context)
INPUT_GETTER (guint, batch, self->scenario.batch)
INPUT_GETTER (HrEngine, engine, self->scenario.engine)
INPUT_GETTER (guint, gpu_count, self->scenario.gpus)
INPUT_GETTER (guint, pp, MAX (self->scenario.layout.pp, 1))
INPUT_GETTER (guint, dp, MAX (self->scenario.layout.dp, 1))
INPUT_GETTER (guint, nodes, MAX (self->scenario.layout.nodes, 1))
INPUT_GETTER (guint, users, self->scenario.users)
INPUT_GETTER (double, target_tokens_per_s, self->scenario.target_tokens_per_s)
INPUT_GETTER (guint64, prompt_tokens, self->scenario.prompt_tokens)
INPUT_GETTER (guint64, depth, self->scenario.depth)
INPUT_GETTER (guint64, generate_tokens, self->scenario.generate_tokens)
INPUT_GETTER (gboolean, gpu_layers_auto, !self->scenario.placement.gpu_layers_fixed)
INPUT_GETTER (guint, gpu_layers, self->scenario.placement.gpu_layers)
INPUT_GETTER (HrSplitMode, split_mode, self->scenario.placement.split_mode)
INPUT_GETTER (guint, n_cpu_moe, self->scenario.placement.n_cpu_moe)
INPUT_GETTER (gboolean, kv_on_host, self->scenario.kv_on_host)
INPUT_GETTER (guint, lora_rank, self->scenario.n_lora > 0 ? self->scenario.lora_ranks[0] : 0)
INPUT_GETTER (guint64, ram_bytes, self->scenario.ram.bytes)
INPUT_GETTER (double, ram_bandwidth, self->scenario.ram.bandwidth_gbps)
INPUT_GETTER (gboolean, valid, self->valid)
INPUT_GETTER (const char *, error_message, self->error_message)
INPUT_GETTER (guint, n_recomputes, self->n_recomputes)
INPUT_GETTER (const HrScenario *, scenario, &self->scenario)
INPUT_GETTER (const HrEstimate *, estimate, &self->result)

/**
 * hr_calculator_freeze:
 *
 * Defers recomputation until the matching hr_calculator_thaw(), so that
 * several inputs can change with one run and one batch of notifications.
 */
void
hr_calculator_freeze (HrCalculator *self)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));
  self->freeze_count++;
  g_object_freeze_notify (G_OBJECT (self));
}

void
hr_calculator_thaw (HrCalculator *self)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));
  g_return_if_fail (self->freeze_count > 0);

  if (--self->freeze_count == 0 && self->dirty)
    recompute (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * hr_calculator_explain:
 * @formulas: (inout): units set by the caller; texts replaced
 *
 * The formulas of the current estimate, with its operands (empty when
 * there is no estimate).
 */
void
hr_calculator_explain (HrCalculator *self,
                       HrFormulas   *formulas)
{
  g_return_if_fail (HR_IS_CALCULATOR (self));
  g_return_if_fail (formulas != NULL);

  hr_formulas_clear (formulas);
  if (self->valid)
    hr_scenario_explain (&self->scenario, &self->result, formulas);
}
