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

/* The formula group's description (also in the template, for xgettext). */
#define FORMULA_DESCRIPTION \
  N_("Each formula with the current values, so you can check the arithmetic")

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
  FORMULA_PROMPT,
  FORMULA_FORMATS,
  FORMULA_FILE_TYPES,
  FORMULA_RANGE,
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

/* The formulas come from the estimator, written by the profile that
 * computed each figure; the rows follow HrFormulaKind's order. */
G_STATIC_ASSERT ((int) FORMULA_WEIGHTS == (int) HR_FORMULA_WEIGHTS);
G_STATIC_ASSERT ((int) FORMULA_DECODE == (int) HR_FORMULA_DECODE);
G_STATIC_ASSERT ((int) FORMULA_PROMPT == (int) HR_FORMULA_PROMPT);

static void
update_formulas (HrModelView *self)
{
  GtkWidget **rows = (GtkWidget **) self->formula_rows->pdata;
  HrFormulas formulas = { .units = hr_view_get_units (HR_VIEW (self)) };

  hr_calculator_explain (hr_view_get_calculator (HR_VIEW (self)), &formulas);
  for (guint i = 0; i < HR_N_FORMULAS; i++)
    {
      gtk_widget_set_visible (rows[i], formulas.text[i] != NULL);
      hr_value_row_set_value (rows[i], formulas.text[i] ? formulas.text[i] : "");
    }
  hr_formulas_clear (&formulas);

  hr_value_row_set_value (rows[FORMULA_FORMATS],
                          _("Quantized formats store per-block scales (and zero points) "
                            "beside the packed integers, so Q4_K_M averages about 4.85 "
                            "bits per weight, not 4, and Q8_0 8.5. Real GGUF files also "
                            "mix types per tensor; import a file for its exact size. "
                            "Sliding-window layers hold at most the window; latent "
                            "attention (MLA) caches one compressed vector per token."));
}

/* llama.cpp and Ollama: the speed group (backend × dense/MoE × placement
 * × depth), how many measured rows back it, and the ranges it gives. */
static void
update_range (HrModelView      *self,
              const HrEstimate *e)
{
  GtkWidget *row = g_ptr_array_index (self->formula_rows, FORMULA_RANGE);
  g_autofree char *text = NULL;
  const char *group = e->speed_group != NULL ? e->speed_group : hr_backend_label (e->backend);

  gtk_widget_set_visible (row, (e->engine == HR_ENGINE_LLAMACPP ||
                                e->engine == HR_ENGINE_OLLAMA) && e->decode_tokens_per_s > 0);
  if (e->speed_group_rows > 0 && e->decode_tokens_per_s_low > 0)
    {
      g_autofree char *decode = hr_format_rate_range (e->decode_tokens_per_s,
                                                      e->decode_tokens_per_s_low,
                                                      e->decode_tokens_per_s_high);
      g_autofree char *prefill = hr_format_rate_range (e->prefill_tokens_per_s,
                                                       e->prefill_tokens_per_s_low,
                                                       e->prefill_tokens_per_s_high);

      /* TRANSLATORS: "ROCm · MoE · all on GPU: 12 measured rows\nDecode 38.2 tok/s
       * (31–44), prompt 950.0 tok/s (800–1100): the measured error of this group" */
      text = g_strdup_printf (ngettext ("%s: %u measured row\nDecode %s, prompt %s: the "
                                        "measured error of this group",
                                        "%s: %u measured rows\nDecode %s, prompt %s: the "
                                        "measured error of this group",
                                        e->speed_group_rows),
                              group, e->speed_group_rows, decode, prefill);
    }
  else
    /* TRANSLATORS: "Vulkan · MoE · partly in system RAM: no measured rows for this
     * group, so no range" */
    text = g_strdup_printf (_("%s: no measured rows for this group, so no range"), group);
  hr_value_row_set_value (row, text);
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
  guint64 total = hr_model_spec_get_file_weights_bytes (model);

  gtk_widget_set_visible (row, by_type != NULL);
  if (by_type == NULL)
    return;

  members = json_object_get_members (by_type);

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
  if (model == NULL)
    return;

  /* the architecture is the model's, estimable or not */
  update_arch (self, model);
  update_file_types (self, model);
  if (hr_calculator_get_valid (calculator))
    {
      adw_preferences_group_set_description (self->formula_group, _(FORMULA_DESCRIPTION));
      update_formulas (self);
      update_range (self, hr_calculator_get_estimate (calculator));
    }
  else
    {
      g_autofree char *text = hr_ui_no_estimate_text (calculator);

      /* no profile computed anything: no formula, the reason instead */
      adw_preferences_group_set_description (self->formula_group, text);
      for (guint i = 0; i < HR_N_FORMULAS; i++)
        gtk_widget_set_visible (g_ptr_array_index (self->formula_rows, i), FALSE);
      gtk_widget_set_visible (g_ptr_array_index (self->formula_rows, FORMULA_RANGE), FALSE);
    }
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
    N_("Prompt, first token and answer"),
    N_("Quantized formats and special attention"),
    N_("Weights by tensor type, from the file"),
    N_("Speed range and its group"),
  };

  gtk_widget_init_template (GTK_WIDGET (self));

  self->arch_rows = g_ptr_array_new ();
  self->formula_rows = g_ptr_array_new ();
  add_rows (self->arch_group, self->arch_rows, arch_titles, N_ARCH_ROWS, FALSE);
  add_rows (self->formula_group, self->formula_rows, formula_titles, N_FORMULA_ROWS, FALSE);
}
