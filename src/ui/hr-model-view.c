/* hr-model-view.c — the architecture card and the formula notes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seed page's “verified architecture parameters” (P9) and its formula
 * notes (P10), with the current numbers substituted so that a user can
 * redo the arithmetic.  Every result shown is a calculator output; the
 * operands are the model's shape and the estimator's named constants.
 */

#define G_LOG_DOMAIN "hr-model-view"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-engine.h"
#include "hr-estimate-constants.h"
#include "hr-format.h"
#include "hr-model-view.h"
#include "hr-ui-format.h"
#include "hr-value-row.h"
#include "hr-view.h"

struct _HrModelView
{
  HrView parent_instance;

  AdwPreferencesGroup *arch_group;
  AdwPreferencesGroup *formula_group;

  GPtrArray *arch_rows;
  GPtrArray *formula_rows;
};

G_DEFINE_FINAL_TYPE (HrModelView, hr_model_view, HR_TYPE_VIEW)

enum {
  ARCH_CHECKPOINT,
  ARCH_OLLAMA,
  ARCH_LICENSE,
  ARCH_TOPOLOGY,
  ARCH_ATTENTION,
  ARCH_PARAMS,
  ARCH_LAYERS,
  ARCH_HEADS,
  ARCH_VOCAB,
  ARCH_SOURCE,
  N_ARCH_ROWS
};

enum {
  FORMULA_WEIGHTS,
  FORMULA_KV,
  FORMULA_OVERHEAD,
  FORMULA_TOTAL,
  FORMULA_USABLE,
  FORMULA_MAX_CONTEXT,
  FORMULA_MHA,
  FORMULA_DECODE,
  FORMULA_FORMATS,
  FORMULA_FILE_TYPES,
  N_FORMULA_ROWS
};

static char *
size (HrModelView *self,
      guint64      bytes)
{
  return hr_format_size (bytes, hr_view_get_units (HR_VIEW (self)));
}

static char *
attention_text (HrModelSpec *model)
{
  const HrModelArch *a = hr_model_spec_get_arch (model);
  const char *kind;
  guint local = hr_model_arch_local_layers (a);

  switch (a->attention)
    {
    case HR_ATTENTION_MHA:
      kind = _("Multi-head attention (MHA)");
      break;
    case HR_ATTENTION_MQA:
      kind = _("Multi-query attention (MQA)");
      break;
    case HR_ATTENTION_MLA:
      kind = _("Multi-head latent attention (MLA)");
      break;
    case HR_ATTENTION_GQA:
    default:
      kind = _("Grouped-query attention (GQA)");
      break;
    }

  if (local > 0)
    {
      g_autofree char *window = hr_format_tokens (a->sliding_window);
      /* TRANSLATORS: "Grouped-query attention (GQA), sliding window of 4,096
       * tokens on 21 of 42 layers" */
      return g_strdup_printf (_("%s, sliding window of %s tokens on %u of %u layers"),
                              kind, window, local, a->n_layers);
    }
  return g_strdup (kind);
}

static void
update_arch (HrModelView *self,
             HrModelSpec *model)
{
  const HrModelArch *a = hr_model_spec_get_arch (model);
  GtkWidget **rows = (GtkWidget **) self->arch_rows->pdata;
  g_autofree char *license = g_strdup_printf ("%s · %s", hr_model_spec_get_license (model),
                                              hr_model_spec_get_release (model));
  g_autofree char *total = hr_format_params (a->params_total);
  g_autofree char *active = hr_format_params (a->params_active);
  g_autofree char *params = NULL;
  g_autofree char *topology = NULL;
  g_autofree char *layers = g_strdup_printf ("%u / %u", a->n_layers, a->hidden);
  g_autofree char *heads = NULL;
  g_autofree char *vocab = hr_format_tokens (a->vocab);
  g_autofree char *max_pos = hr_format_tokens (a->max_context);
  g_autofree char *vocab_pos = g_strdup_printf ("%s / %s", vocab, max_pos);
  g_autofree char *attention = attention_text (model);

  /* TRANSLATORS: "9.4B total · 9.4B active per token" */
  params = g_strdup_printf (_("%s total · %s active per token"), total, active);
  if (hr_model_spec_is_moe (model))
    /* TRANSLATORS: "Mixture of experts: 128 routed experts, 8 per token, 1 shared" */
    topology = g_strdup_printf (_("Mixture of experts: %u routed experts, %u per token, "
                                  "%u shared; all stay resident"),
                                hr_model_spec_get_experts (model),
                                hr_model_spec_get_experts_active (model),
                                hr_model_spec_get_shared_experts (model));
  else
    topology = g_strdup (_("Dense transformer"));

  if (a->attention == HR_ATTENTION_MLA)
    /* TRANSLATORS: MLA dimensions */
    heads = g_strdup_printf (_("%uQ · latent %u + RoPE %u (d = %u, v = %u)"),
                             a->n_heads, a->kv_lora_rank, a->qk_rope_head_dim,
                             a->head_dim_k, a->head_dim_v);
  else if (a->head_dim_k == a->head_dim_v)
    heads = g_strdup_printf ("%uQ / %uKV (d = %u)", a->n_heads, a->n_kv_heads, a->head_dim_k);
  else
    heads = g_strdup_printf ("%uQ / %uKV (dk = %u, dv = %u)", a->n_heads, a->n_kv_heads,
                             a->head_dim_k, a->head_dim_v);

  hr_value_row_set_value (rows[ARCH_CHECKPOINT], hr_model_spec_get_id (model));
  hr_value_row_set_value (rows[ARCH_OLLAMA], hr_model_spec_get_ollama_tag (model));
  hr_value_row_set_value (rows[ARCH_LICENSE], license);
  hr_value_row_set_value (rows[ARCH_TOPOLOGY], topology);
  hr_value_row_set_value (rows[ARCH_ATTENTION], attention);
  hr_value_row_set_value (rows[ARCH_PARAMS], params);
  hr_value_row_set_value (rows[ARCH_LAYERS], layers);
  hr_value_row_set_value (rows[ARCH_HEADS], heads);
  hr_value_row_set_value (rows[ARCH_VOCAB], vocab_pos);
  hr_value_row_set_value (rows[ARCH_SOURCE], hr_model_spec_get_source (model));
}

static char *
kv_formula (HrModelView      *self,
            const HrModelArch *a,
            const HrScenario *s,
            const HrEstimate *e)
{
  g_autofree char *tokens = hr_format_tokens (s->context);
  g_autofree char *kv = size (self, e->kv_bytes);
  double bytes = hr_kv_type_get_bytes_per_element (s->kv_type);
  guint local = hr_model_arch_local_layers (a);
  g_autofree char *per_layer = NULL;
  g_autofree char *layer_tokens = NULL;
  g_autofree char *tp = NULL;

  if (a->attention == HR_ATTENTION_MLA)
    /* TRANSLATORS: MLA caches one latent vector per token and layer */
    per_layer = g_strdup_printf (_("(%u latent + %u RoPE)"), a->kv_lora_rank,
                                 a->qk_rope_head_dim);
  else if (a->head_dim_k == a->head_dim_v)
    per_layer = g_strdup_printf (_("2 × %u KV heads × %u"), a->n_kv_heads, a->head_dim_k);
  else
    per_layer = g_strdup_printf (_("%u KV heads × (%u + %u)"), a->n_kv_heads, a->head_dim_k,
                                 a->head_dim_v);

  if (local > 0)
    {
      g_autofree char *window = hr_format_tokens (a->sliding_window);
      /* TRANSLATORS: global layers hold every token, local ones at most the window */
      layer_tokens = g_strdup_printf (_("(%u global layers × %s + %u local layers × min(%s, %s))"),
                                      a->n_layers - local, tokens, local, tokens, window);
    }
  else
    layer_tokens = g_strdup_printf (_("%u layers × %s tokens"), a->n_layers, tokens);

  if (s->gpus > 1 && e->kv_replicated)
    /* TRANSLATORS: tensor parallelism with fewer KV heads than devices */
    tp = g_strdup_printf (_(", held %u KV head(s) per device on %u devices"),
                          e->kv_heads_per_device, s->gpus);

  /* TRANSLATORS: the KV cache formula with numbers, e.g.
   * "2 × 2 KV heads × 128 × 40 layers × 32,768 tokens × 1 sequence × 2 B = 1.25 GiB" */
  return g_strdup_printf (_("%s × %s × %u sequence(s) × %g B (%s)%s = %s"), per_layer,
                          layer_tokens, s->batch, bytes,
                          hr_kv_type_get_label (s->kv_type), tp ? tp : "", kv);
}

static void
update_formulas (HrModelView *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  const HrScenario *s = hr_calculator_get_scenario (calculator);
  const HrEstimate *e = hr_calculator_get_estimate (calculator);
  const HrModelArch *a = hr_model_spec_get_arch (s->model);
  GtkWidget **rows = (GtkWidget **) self->formula_rows->pdata;
  double bpw = hr_precision_get_bpw (s->precision);
  gboolean unified = hr_hardware_is_unified (s->hardware);
  g_autofree char *params = hr_format_params (a->params_total);
  g_autofree char *weights = size (self, e->weights_bytes);
  g_autofree char *weights_dev = size (self, e->per_device_weights_bytes);
  g_autofree char *overhead = size (self, e->per_device_overhead_bytes);
  g_autofree char *kv_dev = size (self, e->per_device_kv_bytes);
  g_autofree char *total = size (self, e->total_bytes);
  g_autofree char *per_device = size (self, e->per_device_bytes);
  g_autofree char *memory = size (self, hr_hardware_get_memory_bytes (s->hardware));
  g_autofree char *usable = size (self, e->usable_bytes);
  g_autofree char *mha = size (self, e->kv_mha_bytes);
  g_autofree char *saving = hr_format_percent (e->kv_savings, 1);
  g_autofree char *max_ctx = hr_format_tokens (e->max_context);
  g_autofree char *tokens = hr_format_tokens (s->context);
  g_autofree char *per_token = hr_format_tokens ((guint64) e->kv_bytes_per_token);
  g_autofree char *rate = hr_format_rate (e->decode_tokens_per_s);
  g_autofree char *read_gb = g_strdup_printf ("%.2f", e->bytes_per_token / HR_GB);
  g_autofree char *text = NULL;
  double fixed = unified ? HR_OVERHEAD_FIXED_GIB - HR_OVERHEAD_UNIFIED_DISCOUNT_GIB
                         : HR_OVERHEAD_FIXED_GIB;

  if (hr_model_spec_is_moe (s->model))
    {
      g_autofree char *active = hr_format_params (a->params_active);
      /* TRANSLATORS: weights formula for a mixture of experts */
      text = g_strdup_printf (_("%s parameters × %.2f bits ÷ 8 = %s — every expert stays "
                                "resident; %s are read per token"),
                              params, bpw, weights, active);
    }
  else
    /* TRANSLATORS: "9.4B parameters × 4.85 bits ÷ 8 = 5.31 GiB" */
    text = g_strdup_printf (_("%s parameters × %.2f bits ÷ 8 = %s"), params, bpw, weights);
  if (s->engine != HR_ENGINE_GENERIC)
    {
      g_autofree char *nominal = g_steal_pointer (&text);
      /* TRANSLATORS: "4.92 GiB tensor by tensor as llama.cpp stores them (nominal: …)" */
      text = g_strdup_printf (_("%s tensor by tensor, as the engine loads them (nominal: %s)"),
                              weights, nominal);
    }
  hr_value_row_set_value (rows[FORMULA_WEIGHTS], text);
  g_clear_pointer (&text, g_free);

  text = kv_formula (self, a, s, e);
  hr_value_row_set_value (rows[FORMULA_KV], text);
  g_clear_pointer (&text, g_free);

  if (s->engine == HR_ENGINE_LLAMACPP || s->engine == HR_ENGINE_OLLAMA)
    {
      g_autofree char *compute = size (self, e->compute_bytes);
      /* TRANSLATORS: "compute buffer 0.50 GiB + backend reserve 457 MiB = 0.94 GiB per device" */
      text = g_strdup_printf (_("compute buffer %s + backend reserve %.0f MiB = %s per device"),
                              compute, HR_LLAMACPP_BACKEND_RESERVE_MIB, overhead);
    }
  else if (s->engine == HR_ENGINE_VLLM)
    text = g_strdup_printf (_("activation peak + %.2f GiB non-torch + %.1f GiB CUDA graphs "
                              "= %s per device"),
                            HR_VLLM_NON_TORCH_GIB, HR_VLLM_CUDA_GRAPH_GIB, overhead);
  else
    /* TRANSLATORS: "1.14 GiB + 3 % × 5.31 GiB = 1.30 GiB per device" */
    text = g_strdup_printf (_("%.2f GiB + %.0f %% × %s = %s per device"), fixed,
                            HR_OVERHEAD_WEIGHTS_FRACTION * 100, weights_dev, overhead);
  hr_value_row_set_value (rows[FORMULA_OVERHEAD], text);
  g_clear_pointer (&text, g_free);

  /* TRANSLATORS: "5.31 GiB + 1.25 GiB + 1.30 GiB = 7.86 GiB per device; 7.86 GiB in all" */
  text = g_strdup_printf (_("%s + %s + %s = %s per device; %s on %u device(s)"),
                          weights_dev, kv_dev, overhead, per_device, total, s->gpus);
  hr_value_row_set_value (rows[FORMULA_TOTAL], text);
  g_clear_pointer (&text, g_free);

  if (unified)
    text = g_strdup_printf (_("%s × the share macOS lets the GPU use = %s"), memory, usable);
  else
    /* TRANSLATORS: "12.00 GiB − 0.19 GiB for driver and display = 11.81 GiB" */
    text = g_strdup_printf (_("%s − %.2f GiB for driver and display = %s"), memory,
                            HR_DISCRETE_RESERVE_GIB, usable);
  hr_value_row_set_value (rows[FORMULA_USABLE], text);
  g_clear_pointer (&text, g_free);

  if (s->engine == HR_ENGINE_VLLM)
    /* TRANSLATORS: "KV cache 3.82 GiB ÷ 131,072 B per token = 31,312 tokens" */
    text = g_strdup_printf (_("KV cache %s ÷ %s B per token = %s tokens, in blocks of %d"),
                            kv_dev, per_token, max_ctx, HR_VLLM_DEFAULT_BLOCK_SIZE);
  else if (s->engine != HR_ENGINE_GENERIC)
    text = g_strdup_printf (_("The largest context whose padded cache and compute buffer "
                              "still fit %s: %s tokens"), usable, max_ctx);
  else if (e->max_context_unbounded)
    text = g_strdup (_("Every layer keeps at most its window: the cache stops growing, "
                       "memory never limits the context"));
  else
    /* TRANSLATORS: "(11.81 GiB − 5.31 GiB − 1.30 GiB) ÷ 40,960 B per token = 136,399 tokens" */
    text = g_strdup_printf (_("(%s − %s − %s) ÷ %s B per token and sequence = %s tokens"),
                            usable, weights_dev, overhead, per_token, max_ctx);
  hr_value_row_set_value (rows[FORMULA_MAX_CONTEXT], text);
  g_clear_pointer (&text, g_free);

  /* TRANSLATORS: the multi-head baseline of the KV saving */
  text = g_strdup_printf (_("%u heads × (%u + %u) × %u layers × %s tokens × 2 B = %s; "
                            "this model’s cache is %s smaller"),
                          a->n_heads, a->head_dim_k, a->head_dim_v, a->n_layers, tokens,
                          mha, saving);
  hr_value_row_set_value (rows[FORMULA_MHA], text);
  g_clear_pointer (&text, g_free);

  /* TRANSLATORS: "7.04 GB read per token ÷ (75 % × 360 GB/s) + 1.2 ms = 36.7 tok/s" */
  text = g_strdup_printf (_("%s GB read per token ÷ (%.0f %% × %.0f GB/s) + %.1f ms = %s"),
                          read_gb, e->decode_efficiency * 100,
                          hr_hardware_get_bandwidth_gbps (s->hardware),
                          e->decode_fixed_seconds * 1e3, rate);
  hr_value_row_set_value (rows[FORMULA_DECODE], text);
  g_clear_pointer (&text, g_free);

  hr_value_row_set_value (rows[FORMULA_FORMATS],
                          _("Quantized formats store per-block scales (and zero points) "
                            "beside the packed integers, so Q4_K_M averages about 4.85 "
                            "bits per weight, not 4, and Q8_0 8.5. Real GGUF files also "
                            "mix types per tensor; import a file for its exact size. "
                            "Sliding-window layers hold at most the window; latent "
                            "attention (MLA) caches one compressed vector per token."));
}

/* A GGUF file's own tensor table: bytes per ggml type. */
static void
update_file_types (HrModelView *self,
                   HrModelSpec *model)
{
  GtkWidget *row = g_ptr_array_index (self->formula_rows, FORMULA_FILE_TYPES);
  JsonObject *by_type = hr_model_spec_get_weights_by_type (model);
  g_autoptr(GString) text = NULL;
  g_autoptr(GList) members = NULL;
  guint64 total = 0;

  gtk_widget_set_visible (row, by_type != NULL);
  if (by_type == NULL)
    return;

  members = json_object_get_members (by_type);
  for (GList *l = members; l != NULL; l = l->next)
    total += json_object_get_int_member (by_type, l->data);

  text = g_string_new (NULL);
  for (GList *l = members; l != NULL; l = l->next)
    {
      guint64 bytes = json_object_get_int_member (by_type, l->data);
      g_autofree char *amount = size (self, bytes);
      g_autofree char *share = hr_format_percent (total ? (double) bytes / total : 0, 1);

      if (text->len > 0)
        g_string_append (text, "\n");
      g_string_append_printf (text, "%s  %s  (%s)", (const char *) l->data, amount, share);
    }
  {
    g_autofree char *sum = size (self, total);
    /* TRANSLATORS: the file's total tensor data */
    g_string_append_printf (text, _("\nIn all %s of tensor data in %s"), sum,
                            hr_model_spec_get_file_type (model));
  }
  hr_value_row_set_value (row, text->str);
}

static void
update (HrView *view)
{
  HrModelView *self = HR_MODEL_VIEW (view);
  HrCalculator *calculator = hr_view_get_calculator (view);
  HrModelSpec *model;

  if (calculator == NULL)
    return;
  model = hr_calculator_get_model (calculator);
  if (model == NULL || !hr_calculator_get_valid (calculator))
    return;

  update_arch (self, model);
  update_formulas (self);
  update_file_types (self, model);
}

static void
hr_model_view_dispose (GObject *object)
{
  HrModelView *self = (HrModelView *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_MODEL_VIEW);
  g_clear_pointer (&self->arch_rows, g_ptr_array_unref);
  g_clear_pointer (&self->formula_rows, g_ptr_array_unref);
  G_OBJECT_CLASS (hr_model_view_parent_class)->dispose (object);
}

static void
hr_model_view_class_init (HrModelViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  HrViewClass *view_class = HR_VIEW_CLASS (klass);

  object_class->dispose = hr_model_view_dispose;

  view_class->refresh = update;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom_app/Headroom/ui/hr-model-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrModelView, arch_group);
  gtk_widget_class_bind_template_child (widget_class, HrModelView, formula_group);
}

static void
add_rows (AdwPreferencesGroup *group,
          GPtrArray           *rows,
          const char * const  *titles,
          guint                n,
          gboolean             monospace)
{
  for (guint i = 0; i < n; i++)
    {
      GtkWidget *row = hr_value_row_new (_(titles[i]), monospace);

      adw_preferences_group_add (group, row);
      g_ptr_array_add (rows, row);
    }
}

static void
hr_model_view_init (HrModelView *self)
{
  static const char * const arch_titles[N_ARCH_ROWS] = {
    N_("Checkpoint ID"),
    N_("Ollama tag"),
    N_("License · release"),
    N_("Topology"),
    N_("Attention"),
    N_("Parameters"),
    N_("Layers / hidden size"),
    N_("Query heads / KV heads"),
    N_("Vocabulary / max position"),
    N_("Source of the shape"),
  };
  static const char * const formula_titles[N_FORMULA_ROWS] = {
    N_("Weights"),
    N_("KV cache"),
    N_("Runtime overhead"),
    N_("Total"),
    N_("Usable memory"),
    N_("Max context before out of memory"),
    N_("Standard multi-head attention in FP16, for comparison"),
    N_("Decode speed, single stream"),
    N_("Quantized formats and special attention"),
    N_("Weights by tensor type, from the file"),
  };

  gtk_widget_init_template (GTK_WIDGET (self));

  self->arch_rows = g_ptr_array_new ();
  self->formula_rows = g_ptr_array_new ();
  add_rows (self->arch_group, self->arch_rows, arch_titles, N_ARCH_ROWS, FALSE);
  add_rows (self->formula_group, self->formula_rows, formula_titles, N_FORMULA_ROWS, FALSE);
}
