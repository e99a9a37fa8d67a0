/* hr-overview.c — verdict, memory chart, figures and assumptions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Single figures are bound in the template; sentences that combine several
 * outputs (the verdict line, the captions, the KV-savings sentence, what
 * would fit) are written here after each recomputation.  Nothing here
 * computes memory: every number is a calculator output or comes from
 * hr_advice_compute().
 */

#define G_LOG_DOMAIN "hr-overview"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-advice.h"
#include "hr-engine.h"
#include "hr-estimate-constants.h"
#include "hr-memory-chart.h"
#include "hr-overview.h"
#include "hr-ui-format.h"
#include "hr-view.h"

struct _HrOverview
{
  HrView parent_instance;

  GtkLabel *verdict_title;
  GtkLabel *verdict_subtitle;
  GtkLabel *advice_label;
  GtkLabel *total_caption;
  GtkLabel *per_device_caption;
  GtkLabel *decode_caption;
  GtkLabel *max_context_label;
  GtkLabel *max_context_caption;
  GtkLabel *savings_label;
  GtkWidget *engine_card;
  GtkLabel *engine_title;
  GtkLabel *engine_value;
  GtkLabel *engine_caption;
  GtkLabel *assumptions_label;
};

G_DEFINE_FINAL_TYPE (HrOverview, hr_overview, HR_TYPE_VIEW)

static char **
verdict_classes (gpointer  self,
                 HrVerdict verdict,
                 gboolean  valid)
{
  g_autofree char *state = hr_ui_verdict_css_class (self, valid ? verdict : HR_VERDICT_NO_FIT);
  char *classes[] = { (char *) "card", (char *) "verdict", state, NULL };

  return g_strdupv (classes);
}

static char *
device_phrase (HrCalculator *calc)
{
  HrHardware *hw = hr_calculator_get_hardware (calc);
  guint gpus = hr_calculator_get_gpu_count (calc);

  if (hw == NULL)
    return g_strdup ("");
  if (gpus == 1)
    return g_strdup (hr_hardware_get_name (hw));
  /* TRANSLATORS: "4 × RTX 3090 24GB" */
  return g_strdup_printf (_("%u × %s"), gpus, hr_hardware_get_name (hw));
}

static void
update_verdict (HrOverview       *self,
                const HrEstimate *e)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  guint units = hr_view_get_units (HR_VIEW (self));
  g_autofree char *device = device_phrase (calculator);
  g_autofree char *verdict = hr_ui_format_verdict (self, e->verdict);
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *per_device = hr_format_size (e->per_device_bytes, units);
  g_autofree char *usable = hr_format_size (e->usable_bytes, units);

  if (!hr_calculator_get_valid (calculator))
    {
      gtk_label_set_label (self->verdict_title, _("No estimate"));
      gtk_label_set_label (self->verdict_subtitle,
                           hr_calculator_get_error_message (calculator));
      return;
    }

  /* TRANSLATORS: "Fits comfortably on RTX 3060 12GB" */
  title = g_strdup_printf (_("%s on %s"), verdict, device);
  if (e->excess_bytes == 0)
    {
      g_autofree char *free_ = hr_format_size (e->free_bytes, units);
      /* TRANSLATORS: "7.86 GiB of 11.81 GiB usable per device, 3.95 GiB free" */
      subtitle = g_strdup_printf (_("%s of %s usable per device, %s free"),
                                  per_device, usable, free_);
    }
  else
    {
      g_autofree char *over = hr_format_size (e->excess_bytes, units);
      /* TRANSLATORS: "20.42 GiB needed, 11.81 GiB usable: 8.61 GiB short" */
      subtitle = g_strdup_printf (_("%s needed per device, %s usable: %s short"),
                                  per_device, usable, over);
    }
  gtk_label_set_label (self->verdict_title, title);
  gtk_label_set_label (self->verdict_subtitle, subtitle);
}

/* When it does not fit: what single change would make it fit. */
static void
update_advice (HrOverview       *self,
               const HrEstimate *e)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  HrAdvice advice;
  g_autoptr(GString) text = NULL;

  if (!hr_calculator_get_valid (calculator) || e->verdict != HR_VERDICT_NO_FIT)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->advice_label), FALSE);
      return;
    }

  hr_advice_compute (hr_calculator_get_catalog (calculator),
                     hr_calculator_get_scenario (calculator), &advice);

  text = g_string_new (NULL);
  g_string_append_printf (text, "<b>%s</b>", _("What would fit"));
  if (advice.precision != NULL)
    {
      g_autofree char *line = g_markup_printf_escaped (_("Weights in %s"),
                                                       hr_precision_get_label (advice.precision));
      g_string_append_printf (text, "\n• %s", line);
    }
  if (advice.context > 0)
    {
      g_autofree char *tokens = hr_format_tokens (advice.context);
      g_autofree char *line = g_markup_printf_escaped (_("A context of at most %s tokens"),
                                                       tokens);
      g_string_append_printf (text, "\n• %s", line);
    }
  if (advice.kv_type != NULL)
    {
      g_autofree char *line = g_markup_printf_escaped (_("A %s KV cache"),
                                                       hr_kv_type_get_label (advice.kv_type));
      g_string_append_printf (text, "\n• %s", line);
    }
  if (advice.gpus > 0)
    {
      g_autofree char *line =
        g_markup_printf_escaped (ngettext ("%u such device with tensor parallelism",
                                           "%u such devices with tensor parallelism",
                                           advice.gpus), advice.gpus);
      g_string_append_printf (text, "\n• %s", line);
    }
  if (advice.precision == NULL && advice.context == 0 && advice.kv_type == NULL &&
      advice.gpus == 0)
    g_string_append_printf (text, "\n%s",
                            _("No single change makes it fit: choose a larger device "
                              "or a smaller model."));

  gtk_label_set_markup (self->advice_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->advice_label), TRUE);
}

static void
update_captions (HrOverview       *self,
                 const HrEstimate *e)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  guint units = hr_view_get_units (HR_VIEW (self));
  guint gpus = hr_calculator_get_gpu_count (calculator);
  guint64 context = hr_calculator_get_context (calculator);
  g_autofree char *usable = hr_format_size (e->usable_bytes, units);
  g_autofree char *context_text = hr_format_tokens (context);
  g_autofree char *total_caption = NULL;
  g_autofree char *per_device_caption = NULL;
  g_autofree char *decode_caption = NULL;
  g_autofree char *max_caption = NULL;
  g_autofree char *savings = NULL;
  g_autofree char *mha = hr_format_size (e->kv_mha_bytes, units);
  g_autofree char *saved = hr_format_percent (e->kv_savings, 1);

  total_caption = g_strdup_printf (ngettext ("weights, KV cache and overhead on %u device",
                                             "weights, KV cache and overhead on %u devices",
                                             gpus), gpus);
  /* TRANSLATORS: "of 11.81 GiB usable" */
  per_device_caption = g_strdup_printf (_("of %s usable"), usable);
  /* TRANSLATORS: "single stream, at token 32,768" */
  decode_caption = g_strdup_printf (_("single stream, at token %s"), context_text);

  if (e->max_context_unbounded)
    {
      gtk_label_set_label (self->max_context_label, _("Unbounded"));
      max_caption = g_strdup (_("every layer uses a sliding window: the cache stops growing"));
    }
  else
    {
      g_autofree char *tokens = hr_format_tokens (e->max_context);
      gtk_label_set_label (self->max_context_label, tokens);
      if (e->max_context_past_trained)
        {
          g_autofree char *trained =
            hr_format_tokens (hr_model_spec_get_arch (hr_calculator_get_model (calculator))->max_context);
          /* TRANSLATORS: "tokens; the model was trained for 32,768" */
          max_caption = g_strdup_printf (_("tokens; the model was trained for %s"), trained);
        }
      else
        max_caption = g_strdup (_("tokens"));
    }

  gtk_label_set_label (self->total_caption, total_caption);
  gtk_label_set_label (self->per_device_caption, per_device_caption);
  gtk_label_set_label (self->decode_caption, decode_caption);
  gtk_label_set_label (self->max_context_caption, max_caption);

  if (e->kv_savings > 0.0005)
    /* TRANSLATORS: "The model's attention design saves 93.8 % of KV cache
     * memory against standard multi-head attention in FP16 (20.00 GiB)." */
    savings = g_strdup_printf (_("The model’s attention design saves %s of KV cache memory "
                                 "against standard multi-head attention in FP16 (%s)."),
                               saved, mha);
  else
    savings = g_strdup_printf (_("The KV cache is as large as standard multi-head "
                                 "attention in FP16 (%s)."), mha);
  gtk_label_set_label (self->savings_label, savings);
}

/* What only an engine profile knows: llama.cpp's compute buffer and host
 * memory, vLLM's KV capacity. */
static void
update_engine_card (HrOverview       *self,
                    const HrEstimate *e)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  guint units = hr_view_get_units (HR_VIEW (self));
  HrEngine engine = hr_calculator_get_engine (calculator);
  g_autofree char *value = NULL;
  g_autofree char *caption = NULL;

  if (engine == HR_ENGINE_LLAMACPP || engine == HR_ENGINE_OLLAMA)
    {
      g_autofree char *host = hr_format_size (e->host_bytes, units);

      gtk_label_set_label (self->engine_title, _("Compute buffer"));
      value = hr_format_size (e->compute_bytes, units);
      caption = g_strdup_printf (e->flash_attn
                                 /* TRANSLATORS: "per device, flash attention on; 0.98 GiB in system memory" */
                                 ? _("per device, flash attention on; %s in system memory")
                                 : _("per device, flash attention off; %s in system memory"),
                                 host);
    }
  else if (engine == HR_ENGINE_VLLM)
    {
      gtk_label_set_label (self->engine_title, _("KV cache capacity"));
      value = hr_format_tokens (e->kv_capacity_tokens);
      /* TRANSLATORS: "tokens; 1.56 × concurrency at this context" */
      caption = g_strdup_printf (_("tokens; %.2f× concurrency at this context"),
                                 e->max_concurrency);
    }

  /* The flow box wraps each card in a GtkFlowBoxChild, which must go too
   * or it leaves an empty slot. */
  gtk_widget_set_visible (gtk_widget_get_parent (self->engine_card), value != NULL);
  gtk_widget_set_visible (self->engine_card, value != NULL);
  if (value != NULL)
    {
      gtk_label_set_label (self->engine_value, value);
      gtk_label_set_label (self->engine_caption, caption);
    }
}

/* The constants of hr-estimate-constants.h, as the user reads them. */
static void
update_assumptions (HrOverview *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  g_autoptr(GString) text = g_string_new (NULL);
  const HrEstimate *e = hr_calculator_get_estimate (calculator);

  switch (hr_calculator_get_engine (calculator))
    {
    case HR_ENGINE_LLAMACPP:
    case HR_ENGINE_OLLAMA:
      g_string_append_printf (text, _("Engine profile: llama.cpp%s — weights tensor by "
                                      "tensor as its quantizer stores them; KV cache "
                                      "padded to %d tokens; a compute buffer sized from "
                                      "the micro-batch, vocabulary, heads and context; "
                                      "token embeddings in system memory; %.0f MiB "
                                      "reserved by the GPU backend per device. Layers are "
                                      "split across GPUs."),
                              hr_calculator_get_engine (calculator) == HR_ENGINE_OLLAMA
                              ? _(" as Ollama runs it (context × parallel requests; the "
                                  "KV cache type needs flash attention)") : "",
                              HR_LLAMACPP_CTX_PAD, HR_LLAMACPP_BACKEND_RESERVE_MIB);
      break;
    case HR_ENGINE_VLLM:
      g_string_append_printf (text, _("Engine profile: vLLM — a budget of GPU memory "
                                      "utilization × the memory CUDA reports (%.2f GiB "
                                      "below nominal); weights, the activation peak of the "
                                      "profiling run and %.2f GiB of non-torch memory come "
                                      "off it, the rest is KV cache in blocks of %d "
                                      "tokens; CUDA graphs take %.1f GiB more."),
                              HR_CUDA_UNREPORTED_GIB, HR_VLLM_NON_TORCH_GIB,
                              HR_VLLM_DEFAULT_BLOCK_SIZE, HR_VLLM_CUDA_GRAPH_GIB);
      break;
    case HR_ENGINE_GENERIC:
    default:
      g_string_append_printf (text, _("Engine profile: generic — the seed page’s method, "
                                      "one effective bits-per-weight for the whole model."));
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Runtime overhead per device: %.2f GiB + %.0f %% of its "
                                      "weights; %.2f GiB less on unified memory."),
                              HR_OVERHEAD_FIXED_GIB, HR_OVERHEAD_WEIGHTS_FRACTION * 100,
                              HR_OVERHEAD_UNIFIED_DISCOUNT_GIB);
      break;
    }
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("Usable memory: device memory less %.2f GiB for the "
                                  "driver and display; on Apple silicon, the %.0f %% "
                                  "(%.0f %% up to %.0f GiB) macOS lets the GPU use."),
                          HR_DISCRETE_RESERVE_GIB, HR_UNIFIED_GPU_SHARE * 100,
                          HR_UNIFIED_GPU_SHARE_SMALL * 100, HR_UNIFIED_SMALL_MEMORY_GIB);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("“Fits comfortably” up to %.0f %% of usable memory; "
                                  "“tight” up to 100 %%."),
                          HR_COMFORTABLE_FRACTION * 100);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("Decode: every active weight and the KV cache read once "
                                  "per token at %.0f %% of the memory bandwidth, plus "
                                  "%.1f ms per token; calibrated on llama.cpp "
                                  "measurements."),
                          e->decode_efficiency * 100, e->decode_fixed_seconds * 1e3);
  g_string_append_c (text, '\n');
  g_string_append (text, _("Tensor parallelism splits weights and KV heads across "
                           "devices; a device keeps at least one whole KV head, and each "
                           "carries its own overhead."));
  gtk_label_set_label (self->assumptions_label, text->str);
}

static void
update (HrView *view)
{
  HrOverview *self = HR_OVERVIEW (view);
  HrCalculator *calculator = hr_view_get_calculator (view);
  const HrEstimate *e;

  if (calculator == NULL)
    return;

  e = hr_calculator_get_estimate (calculator);
  update_verdict (self, e);
  update_advice (self, e);
  update_captions (self, e);
  update_engine_card (self, e);
  update_assumptions (self);
}

static void
hr_overview_dispose (GObject *object)
{
  HrOverview *self = (HrOverview *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_OVERVIEW);
  G_OBJECT_CLASS (hr_overview_parent_class)->dispose (object);
}

static void
hr_overview_class_init (HrOverviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  HrViewClass *view_class = HR_VIEW_CLASS (klass);

  object_class->dispose = hr_overview_dispose;

  view_class->refresh = update;

  g_type_ensure (HR_TYPE_MEMORY_CHART);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom_app/Headroom/ui/hr-overview.ui");
  gtk_widget_class_bind_template_child (widget_class, HrOverview, verdict_title);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, verdict_subtitle);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, advice_label);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, total_caption);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, per_device_caption);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, decode_caption);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, max_context_label);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, max_context_caption);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, savings_label);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, engine_card);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, engine_title);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, engine_value);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, engine_caption);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, assumptions_label);
  gtk_widget_class_bind_template_callback (widget_class, verdict_classes);
  hr_ui_format_bind_callbacks (widget_class);
}

static void
hr_overview_init (HrOverview *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
