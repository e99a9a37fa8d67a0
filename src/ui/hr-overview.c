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
#include "hr-chart-bars.h"
#include "hr-engine.h"
#include "hr-estimate-constants.h"
#include "hr-memory-chart.h"
#include "hr-overview.h"
#include "hr-stack-layout.h"
#include "hr-summary.h"
#include "hr-ui-format.h"
#include "hr-view.h"

/* The prompt-length presets: a question with a little context, and a
 * document (a paper, a report, a chapter); the third is the context. */
#define PROMPT_QUESTION_TOKENS 500
#define PROMPT_DOCUMENT_TOKENS 20000

struct _HrOverview
{
  HrView parent_instance;

  HrMemoryChart *chart;
  GtkWidget *fix_button;
  GtkWidget *figures;
  GtkWidget *speed_box;
  GtkWidget *assumptions_expander;
  GtkWidget *prompt_box;
  GtkToggleButton *prompt_question;
  GtkToggleButton *prompt_document;
  GtkToggleButton *prompt_context;
  GtkLabel *prefill_label;
  GtkLabel *prefill_caption;
  GtkLabel *ttft_label;
  GtkLabel *ttft_caption;
  GtkLabel *decode_label;
  GtkLabel *answer_label;
  GtkLabel *answer_caption;
  GtkLabel *speed_note;
  GtkWidget *depth_box;
  GtkAdjustment *depth_adjustment;
  gboolean syncing_prompt;

  GtkLabel *verdict_title;
  GtkLabel *verdict_subtitle;
  GtkBox *verdict_text;
  GtkLabel *advice_label;
  GtkLabel *total_label;
  GtkLabel *total_caption;
  GtkLabel *per_device_label;
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

/* Template closure: an estimate that failed shows the error icon, not
 * the icon of the last verdict. */
static char *
overview_verdict_icon (gpointer  self,
                       HrVerdict verdict,
                       gboolean  valid)
{
  return hr_ui_verdict_icon (self, valid ? verdict : HR_VERDICT_NO_FIT);
}

static gboolean
is_offloaded (const HrEstimate *e)
{
  return hr_summary_in_system_ram (e);
}

/* The verdict and what it rests on, as the core words it (hr-summary.c). */
static void
update_verdict (HrOverview       *self,
                const HrEstimate *e)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  if (!hr_calculator_get_valid (calculator))
    {
      gtk_label_set_label (self->verdict_title, _("No estimate"));
      gtk_label_set_label (self->verdict_subtitle,
                           hr_calculator_get_error_message (calculator));
      return;
    }

  hr_summary_verdict (hr_calculator_get_scenario (calculator), e,
                      hr_view_get_units (HR_VIEW (self)), &title, &subtitle);
  gtk_label_set_label (self->verdict_title, title);
  gtk_label_set_label (self->verdict_subtitle, subtitle);
}

/* An impossible combination: one state (no figures, no zeros), the
 * reason, and the one change that makes it run (HrEstimate.fix). */
static void
update_fix (HrOverview       *self,
            const HrEstimate *e)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  gboolean valid = hr_calculator_get_valid (calculator);
  g_autofree char *label = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->chart), valid);
  gtk_widget_set_visible (self->figures, valid);
  gtk_widget_set_visible (self->speed_box, valid);
  gtk_widget_set_visible (GTK_WIDGET (self->savings_label), valid);
  gtk_widget_set_visible (self->assumptions_expander, valid);

  if (!valid)
    switch (e->fix)
      {
      case HR_FIX_FLASH_ATTN_ON:
        label = g_strdup (_("Turn On Flash Attention"));
        break;
      case HR_FIX_KV_FP16:
        label = g_strdup (_("Use an FP16 Cache"));
        break;
      case HR_FIX_ENGINE_AUTO:
        label = g_strdup (_("Choose the Engine Automatically"));
        break;
      case HR_FIX_GPU_COUNT:
        /* TRANSLATORS: a button: the nearest GPU count the heads divide */
        label = g_strdup_printf (ngettext ("Use %u GPU", "Use %u GPUs", e->fix_gpus),
                                 e->fix_gpus);
        break;
      case HR_FIX_NONE:
      default:
        break;
      }
  gtk_widget_set_visible (self->fix_button, label != NULL);
  if (label != NULL)
    {
      gtk_button_set_label (GTK_BUTTON (self->fix_button), label);
      /* on a phone the reason and the button share 300 pixels */
      gtk_label_set_wrap (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (self->fix_button))), TRUE);
      gtk_label_set_justify (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (self->fix_button))),
                             GTK_JUSTIFY_CENTER);
    }
}

static void
on_fix_clicked (HrOverview *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  const HrEstimate *e;

  if (calculator == NULL || hr_calculator_get_valid (calculator))
    return;
  e = hr_calculator_get_estimate (calculator);
  switch (e->fix)
    {
    case HR_FIX_FLASH_ATTN_ON:
      {
        HrEngineOptions options = *hr_calculator_get_engine_options (calculator);

        options.flash_attn = HR_FLASH_ATTN_ON;
        hr_calculator_set_engine_options (calculator, &options);
      }
      break;
    case HR_FIX_KV_FP16:
      hr_calculator_set_kv_type (calculator,
                                 hr_catalog_find_kv_type (hr_calculator_get_catalog (calculator),
                                                          "fp16"));
      break;
    case HR_FIX_ENGINE_AUTO:
      hr_calculator_set_engine (calculator, HR_ENGINE_AUTO);
      break;
    case HR_FIX_GPU_COUNT:
      hr_calculator_set_gpu_count (calculator, e->fix_gpus);
      break;
    case HR_FIX_NONE:
    default:
      break;
    }
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
  if (advice.gpus > 0 && (e->engine == HR_ENGINE_LLAMACPP || e->engine == HR_ENGINE_OLLAMA))
    {
      /* llama.cpp splits layers, not tensors */
      g_autofree char *line =
        g_markup_printf_escaped (ngettext ("%u such device, whole layers on each",
                                           "%u such devices, whole layers on each",
                                           advice.gpus), advice.gpus);
      g_string_append_printf (text, "\n• %s", line);
    }
  else if (advice.gpus > 0)
    {
      g_autofree char *line =
        g_markup_printf_escaped (ngettext ("%u such device with tensor parallelism",
                                           "%u such devices with tensor parallelism",
                                           advice.gpus), advice.gpus);
      g_string_append_printf (text, "\n• %s", line);
    }
  if (advice.auto_layers)
    g_string_append_printf (text, "\n• %s",
                            _("Automatic GPU layers: the rest stays in system RAM"));
  if (advice.more_ram)
    g_string_append_printf (text, "\n• %s", _("More system RAM: the GPUs are full"));
  if (advice.precision == NULL && advice.context == 0 && advice.kv_type == NULL &&
      advice.gpus == 0 && !advice.auto_layers && !advice.more_ram)
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
  g_autofree char *usable = hr_format_size (e->usable_bytes, units);
  g_autofree char *total_caption = NULL;
  g_autofree char *per_device_caption = NULL;
  g_autofree char *max_caption = NULL;
  g_autofree char *savings = NULL;
  g_autofree char *kv_note = NULL;
  g_autofree char *mha = hr_format_size (e->kv_mha_bytes, units);
  g_autofree char *saved = hr_format_percent (e->kv_savings, 1);

  if (is_offloaded (e))
    {
      g_autofree char *host = hr_format_size (e->host_bytes, units);

      /* TRANSLATORS: "weights, KV cache and overhead on 1 device, 9.31 GiB
       * of them in system RAM" */
      total_caption = g_strdup_printf (ngettext ("weights, KV cache and overhead on %u device, "
                                                 "%s of them in system RAM",
                                                 "weights, KV cache and overhead on %u devices, "
                                                 "%s of them in system RAM",
                                                 gpus), gpus, host);
    }
  else if (e->state_bytes > 0)
    /* TRANSLATORS: a hybrid model (Mamba2, Gated DeltaNet layers) */
    total_caption = g_strdup_printf (ngettext ("weights, KV cache, recurrent state and overhead "
                                               "on %u device",
                                               "weights, KV cache, recurrent state and overhead "
                                               "on %u devices",
                                               gpus), gpus);
  else
    total_caption = g_strdup_printf (ngettext ("weights, KV cache and overhead on %u device",
                                               "weights, KV cache and overhead on %u devices",
                                               gpus), gpus);
  /* TRANSLATORS: "of 11.81 GiB usable" */
  per_device_caption = g_strdup_printf (_("of %s usable"), usable);
  if (e->max_context == 0 && !e->max_context_unbounded)
    {
      gtk_label_set_label (self->max_context_label, "—");
      max_caption = g_strdup (is_offloaded (e)
                              ? _("not even a short context fits every layer on the GPU")
                              : _("not even a short context fits"));
    }
  else if (e->max_context_unbounded)
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
        max_caption = g_strdup (is_offloaded (e) ? _("tokens with every layer on the GPU")
                                                  : _("tokens"));
    }

  gtk_label_set_label (self->total_caption, total_caption);
  gtk_label_set_label (self->per_device_caption, per_device_caption);
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
  /* the cache the engine really keeps, when it is not the one asked for */
  kv_note = hr_summary_kv_note (hr_calculator_get_scenario (calculator), e);
  if (kv_note != NULL)
    {
      char *both = g_strdup_printf ("%s %s", kv_note, savings);

      g_free (savings);
      savings = both;
    }
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
  HrEngine engine = e->engine;
  g_autofree char *value = NULL;
  g_autofree char *caption = NULL;

  if (!hr_calculator_get_valid (calculator))
    engine = HR_ENGINE_GENERIC;
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
      if (e->kv_capacity_tokens == 0)
        {
          value = g_strdup ("—");
          caption = g_strdup (_("the weights and buffers leave no room for the cache"));
        }
      else
        {
          value = hr_format_tokens (e->kv_capacity_tokens);
          /* TRANSLATORS: "tokens; 1.56 × concurrency at this context" */
          caption = g_strdup_printf (_("tokens; %.2f× concurrency at this context"),
                                     e->max_concurrency);
        }
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

/* The constants of hr-estimate-constants.h and of the engine modules, and
 * the operands of this estimate, as the user reads them. */
static void
append_engine_assumptions (GString          *text,
                           const HrScenario *scenario,
                           const HrEstimate *e,
                           HrUnits           units)
{
  switch (e->engine)
    {
    case HR_ENGINE_LLAMACPP:
    case HR_ENGINE_OLLAMA:
      g_string_append_printf (text, _("Engine profile: llama.cpp%s — weights tensor by "
                                      "tensor as its quantizer stores them; KV cache "
                                      "padded to %d tokens; a compute buffer sized from "
                                      "the micro-batch, vocabulary, heads and context; "
                                      "token embeddings in system memory; %.0f MiB "
                                      "reserved by the GPU backend per device."),
                              e->engine == HR_ENGINE_OLLAMA
                              ? _(" as Ollama runs it (context × parallel requests; the "
                                  "KV cache type needs flash attention)") : "",
                              HR_LLAMACPP_CTX_PAD, HR_LLAMACPP_BACKEND_RESERVE_MIB);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Placement: the last layers go to the GPU first, as "
                                      "many as fit with %.0f MiB to spare (llama.cpp’s "
                                      "--fit); each layer’s KV cache stays with it; with "
                                      "several GPUs, whole layers in proportion to their "
                                      "memory (split mode “layer”), which adds memory but "
                                      "not speed. System RAM keeps %.0f GiB for the "
                                      "system (on Apple silicon at most %.0f %% of the "
                                      "pool, beside the GPU’s share)."),
                              HR_FIT_TARGET_MIB, HR_RAM_SYSTEM_RESERVE_GIB,
                              HR_RAM_UNIFIED_RESERVE_SHARE * 100);
      {
        /* the RAM this estimate really used (issue 30, item 14) */
        g_autofree char *ram = hr_summary_ram_used (scenario, e, units);

        g_string_append_printf (text, " %s", ram);
      }
      break;
    case HR_ENGINE_VLLM:
      {
        double graphs = e->cuda_graph_bytes / (double) HR_GIB;
        double non_torch = e->non_torch_bytes / (double) HR_GIB;

        /* TRANSLATORS: "0.92 × the memory CUDA reports (0.42 GiB below
         * nominal up to 24 GiB, 0.007 GiB more per GiB above)" */
        g_string_append_printf (text, _("Engine profile: vLLM 0.21 and later — a budget of "
                                        "%.2f × the memory CUDA reports (%.2f GiB below "
                                        "nominal up to %.0f GiB, %.3f GiB more for every "
                                        "GiB above); weights, the activation peak of the "
                                        "profiling run, %.2f GiB of memory outside PyTorch "
                                        "and %.2f GiB of CUDA graphs come off it; the rest "
                                        "is KV cache in blocks of %u tokens."),
                                e->gpu_memory_utilization > 0 ? e->gpu_memory_utilization
                                : HR_VLLM_DEFAULT_GPU_MEMORY_UTILIZATION,
                                HR_CUDA_UNREPORTED_GIB, HR_CUDA_UNREPORTED_BASE_GIB,
                                HR_CUDA_UNREPORTED_PER_GIB,
                                non_torch > 0 ? non_torch : HR_VLLM_V1_NON_TORCH_GIB,
                                graphs > 0 ? graphs : HR_VLLM_V1_CUDA_GRAPH_GIB,
                                e->block_size > 0 ? e->block_size
                                : HR_VLLM_DEFAULT_BLOCK_SIZE);
      }
      break;
    case HR_ENGINE_SGLANG:
      g_string_append (text, _("Engine profile: SGLang — a static share of each device "
                               "(--mem-fraction-static, chosen for the device as SGLang "
                               "chooses it) holds the weights and the token pool; the "
                               "rest is kept for activations and CUDA graphs."));
      break;
    case HR_ENGINE_GENERIC:
    case HR_ENGINE_AUTO:
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
}

static void
update_assumptions (HrOverview *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  g_autoptr(GString) text = g_string_new (NULL);
  const HrEstimate *e = hr_calculator_get_estimate (calculator);

  append_engine_assumptions (text, hr_calculator_get_scenario (calculator), e,
                             hr_view_get_units (HR_VIEW (self)));
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("Usable memory: device memory less %.2f GiB for the "
                                  "driver and display; on Apple silicon, the %.0f %% "
                                  "(%.0f %% up to %.0f GiB) macOS lets the GPU use."),
                          HR_DISCRETE_RESERVE_GIB, HR_UNIFIED_GPU_SHARE * 100,
                          HR_UNIFIED_GPU_SHARE_SMALL * 100, HR_UNIFIED_SMALL_MEMORY_GIB);
  g_string_append_c (text, '\n');
  if (hr_ui_engine_has_budget (e->engine))
    /* vLLM and SGLang fill their budget whatever the load (hr_serving_verdict) */
    g_string_append_printf (text, _("“Fits comfortably” while the parallel sequences are "
                                    "at most %.0f %% of those the KV cache holds at once "
                                    "at this context; “tight” beyond (requests wait); "
                                    "“does not fit” when one sequence of the context does "
                                    "not fit."),
                            HR_COMFORTABLE_FRACTION * 100);
  else
    g_string_append_printf (text, _("“Fits comfortably” up to %.0f %% of usable memory; "
                                    "“tight” up to 100 %%."),
                            HR_COMFORTABLE_FRACTION * 100);
  g_string_append_c (text, '\n');
  if (e->prefill_tokens_per_s > 0)
    g_string_append_printf (text, _("Speed: decode reads every active weight at %.0f %% of "
                                    "the memory bandwidth and the KV cache up to its depth, "
                                    "plus %.1f ms of kernels and hand-offs per token; the "
                                    "prompt is computed at the device’s tensor throughput. "
                                    "Fitted on llama-bench runs; flash attention is on "
                                    "unless set Off, as llama.cpp and Ollama now run it, "
                                    "its effect derived from the kernels."),
                            e->decode_efficiency * 100, e->decode_fixed_seconds * 1e3);
  else
    g_string_append_printf (text, _("Decode: every active weight and the KV cache read once "
                                    "per token at %.0f %% of the memory bandwidth, plus "
                                    "%.1f ms per token; calibrated on llama.cpp "
                                    "measurements without flash attention."),
                            e->decode_efficiency * 100, e->decode_fixed_seconds * 1e3);
  g_string_append_c (text, '\n');
  if (e->engine == HR_ENGINE_LLAMACPP || e->engine == HR_ENGINE_OLLAMA)
    g_string_append (text, _("Several GPUs split the layers; each device carries its own "
                             "compute buffer and reserve."));
  else
    g_string_append (text, _("Tensor parallelism splits weights and KV heads across "
                             "devices; a device keeps at least one whole KV head, and each "
                             "carries its own overhead."));
  gtk_label_set_label (self->assumptions_label, text->str);
}

/* ------------------------------------------------------------------ speed */

/* llama.cpp and Ollama: what backs the ranges — the measured error of
 * the speed group (backend × dense/MoE × placement × depth), or that no
 * measured row does. */
static char *
speed_group_note (const HrEstimate *e)
{
  if (e->speed_group != NULL && e->speed_group_rows > 0)
    /* TRANSLATORS: "Estimates, with the range the measured error of their
     * group gives (ROCm · MoE · all on GPU: 12 measured rows)." */
    return g_strdup_printf (ngettext ("Estimates, with the range the measured error of their "
                                      "group gives (%s: %u measured row).",
                                      "Estimates, with the range the measured error of their "
                                      "group gives (%s: %u measured rows).",
                                      e->speed_group_rows),
                            e->speed_group, e->speed_group_rows);
  if (e->speed_group != NULL)
    /* TRANSLATORS: "Estimates: no measured rows for this group (Vulkan · MoE · partly in
     * system RAM), so no range." */
    return g_strdup_printf (_("Estimates: no measured rows for this group (%s), so no range."),
                            e->speed_group);
  return g_strdup (_("Estimates: no measured rows for this group, so no range."));
}

static void
update_speed (HrOverview       *self,
              const HrEstimate *e)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  gboolean runs = hr_calculator_get_valid (calculator) && e->verdict != HR_VERDICT_NO_FIT;
  gboolean timed = runs && e->prefill_tokens_per_s > 0;
  g_autofree char *depth = hr_format_tokens (hr_calculator_get_context (calculator));
  g_autofree char *prompt = hr_format_tokens (e->prompt_tokens);
  g_autofree char *decode_caption = NULL;
  gboolean llamacpp = e->engine == HR_ENGINE_LLAMACPP || e->engine == HR_ENGINE_OLLAMA;

  /* One state for what does not run: no figure, and why. */
  if (!runs)
    {
      gtk_label_set_label (self->decode_label, "—");
      gtk_label_set_label (self->decode_caption, "");
    }
  else
    {
      g_autofree char *rate = hr_format_rate_range (e->decode_tokens_per_s,
                                                    e->decode_tokens_per_s_low,
                                                    e->decode_tokens_per_s_high);

      if (llamacpp)
        /* TRANSLATORS: "single stream, at token 32,768, on ROCm" (a llama.cpp build) */
        decode_caption = g_strdup_printf (_("single stream, at token %s, on %s"), depth,
                                          hr_backend_label (e->backend));
      else
        /* TRANSLATORS: "single stream, at token 32,768" */
        decode_caption = g_strdup_printf (_("single stream, at token %s"), depth);
      if (e->calibrated_runs > 0)
        {
          /* TRANSLATORS: appended to the decode caption: "single stream, at
           * token 32,768, on CUDA; calibrated on this computer from 2 runs" */
          g_autofree char *calibrated = g_strdup_printf (
            ngettext ("%s; calibrated on this computer from %u run",
                      "%s; calibrated on this computer from %u runs", e->calibrated_runs),
            decode_caption, e->calibrated_runs);

          g_free (decode_caption);
          decode_caption = g_steal_pointer (&calibrated);
        }
      gtk_label_set_label (self->decode_label, rate);
      gtk_label_set_label (self->decode_caption, decode_caption);
    }

  if (timed)
    {
      g_autofree char *prefill = hr_format_rate_range (e->prefill_tokens_per_s,
                                                       e->prefill_tokens_per_s_low,
                                                       e->prefill_tokens_per_s_high);
      g_autofree char *ttft = hr_summary_duration (e->ttft_seconds);
      g_autofree char *answer = hr_summary_duration (hr_summary_answer_seconds (e));
      g_autofree char *average = hr_format_rate (hr_summary_answer_rate (e));
      g_autofree char *generate = hr_format_tokens (e->generate_tokens);
      g_autofree char *prefill_caption = NULL;
      g_autofree char *ttft_caption = NULL;
      g_autofree char *answer_caption = NULL;

      if (e->depth > 0)
        {
          g_autofree char *cached = hr_format_tokens ((guint64) e->depth);

          /* TRANSLATORS: "a prompt of 500 tokens on top of 16,384 cached" */
          prefill_caption = g_strdup_printf (_("a prompt of %s tokens on top of %s cached"),
                                             prompt, cached);
        }
      else
        /* TRANSLATORS: "a prompt of 20,000 tokens, from an empty cache" */
        prefill_caption = g_strdup_printf (_("a prompt of %s tokens, from an empty cache"),
                                           prompt);
      ttft_caption = g_strdup (_("the prompt read, then one token"));
      /* TRANSLATORS: "the first token, then 512 tokens at 46.5 tok/s" */
      answer_caption = g_strdup_printf (_("the first token, then %s tokens at %s"),
                                        generate, average);
      gtk_label_set_label (self->prefill_label, prefill);
      gtk_label_set_label (self->prefill_caption, prefill_caption);
      gtk_label_set_label (self->ttft_label, ttft);
      gtk_label_set_label (self->ttft_caption, ttft_caption);
      gtk_label_set_label (self->answer_label, answer);
      gtk_label_set_label (self->answer_caption, answer_caption);
    }
  else
    {
      gtk_label_set_label (self->prefill_label, "—");
      gtk_label_set_label (self->prefill_caption, "");
      gtk_label_set_label (self->ttft_label, "—");
      gtk_label_set_label (self->ttft_caption, "");
      gtk_label_set_label (self->answer_label, "—");
      gtk_label_set_label (self->answer_caption, "");
    }
  /* The presets only matter where the prompt is timed; the cache before
   * it, where llama.cpp or Ollama times it. */
  gtk_widget_set_sensitive (self->prompt_box, timed);
  gtk_widget_set_sensitive (self->depth_box, timed && llamacpp);

  if (!runs)
    gtk_label_set_label (self->speed_note, hr_calculator_get_valid (calculator)
                         ? _("No speed: it does not run as set.") : "");
  else if (!timed)
    gtk_label_set_label (self->speed_note,
                         _("The nominal method times decode only: choose an engine profile "
                           "to time the prompt and the answer."));
  else if (e->engine == HR_ENGINE_VLLM || e->engine == HR_ENGINE_SGLANG)
    /* hr-speed.h: HR_SPEED_ETA_W_SERVING and its matrix share */
    gtk_label_set_label (self->speed_note,
                         _("Estimates: decode with the serving engines’ kernels, fitted on two "
                           "single-stream measurements; the prompt at the tensor-core share "
                           "fitted on llama-bench, with FlashAttention."));
  else
    {
      g_autofree char *note = speed_group_note (e);

      gtk_label_set_label (self->speed_note, note);
    }
}

/* The presets show the calculator's prompt; one longer than the context
 * cannot be chosen. */
static void
sync_prompt (HrOverview *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  guint64 prompt = hr_calculator_get_prompt_tokens (calculator);
  guint64 context = hr_calculator_get_context (calculator);
  struct { GtkToggleButton *button; guint64 tokens; } presets[] = {
    { self->prompt_question, PROMPT_QUESTION_TOKENS },
    { self->prompt_document, PROMPT_DOCUMENT_TOKENS },
    { self->prompt_context, 0 },
  };

  self->syncing_prompt = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      gboolean fits = presets[i].tokens < context &&
                      presets[i].tokens + hr_calculator_get_depth (calculator) <= context;
      g_autofree char *tokens = hr_format_tokens (presets[i].tokens > 0 ? presets[i].tokens
                                                                        : context);
      g_autofree char *tooltip = NULL;

      if (presets[i].tokens > 0 && !fits)
        /* TRANSLATORS: tooltip of a prompt preset, "20,000 tokens: longer
         * than the context" */
        tooltip = g_strdup_printf (_("%s tokens: longer than the context"), tokens);
      else
        /* TRANSLATORS: tooltip of a prompt preset, "A prompt of 500 tokens" */
        tooltip = g_strdup_printf (_("A prompt of %s tokens"), tokens);
      gtk_widget_set_sensitive (GTK_WIDGET (presets[i].button),
                                presets[i].tokens == 0 || fits);
      hr_ui_set_cell_tooltip (GTK_WIDGET (presets[i].button), tooltip);
      if (gtk_toggle_button_get_active (presets[i].button) != (prompt == presets[i].tokens))
        gtk_toggle_button_set_active (presets[i].button, prompt == presets[i].tokens);
    }
  /* The cache before the prompt: up to the context less one token. */
  gtk_adjustment_set_upper (self->depth_adjustment, (double) (context - 1));
  gtk_adjustment_set_value (self->depth_adjustment,
                            (double) hr_calculator_get_depth (calculator));
  self->syncing_prompt = FALSE;
}

static void
on_depth_changed (HrOverview *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));

  if (self->syncing_prompt || calculator == NULL)
    return;
  hr_calculator_set_depth (calculator, (guint64) gtk_adjustment_get_value (self->depth_adjustment));
}

static void
on_prompt_toggled (HrOverview      *self,
                   GtkToggleButton *button)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));

  if (self->syncing_prompt || calculator == NULL || !gtk_toggle_button_get_active (button))
    return;
  if (button == self->prompt_question)
    hr_calculator_set_prompt_tokens (calculator, PROMPT_QUESTION_TOKENS);
  else if (button == self->prompt_document)
    hr_calculator_set_prompt_tokens (calculator, PROMPT_DOCUMENT_TOKENS);
  else
    hr_calculator_set_prompt_tokens (calculator, 0);
}

/* ------------------------------------------------------------------ chart */

/* llama.cpp's layers on several GPUs, or some in system RAM: one bar per
 * place; a model with recurrent layers too, for the state each device
 * holds.  Otherwise the chart's single bar, bound in the template (the
 * state too, its own segment). */
/* A projector, a draft or adapters beside the model (the single bar's
 * bindings have no place for them: the per-device bars do). */
static gboolean
beside_model (const HrEstimate *e)
{
  return e->mmproj_bytes > 0 || e->draft_bytes > 0 || e->lora_bytes > 0;
}

static void
update_chart (HrOverview       *self,
              const HrEstimate *e)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  HrHardware *hardware = hr_calculator_get_hardware (calculator);
  HrChartBar bars[HR_CHART_MAX_BARS];
  guint n = 0;
  gboolean llamacpp = e->engine == HR_ENGINE_LLAMACPP || e->engine == HR_ENGINE_OLLAMA;

  if (hr_calculator_get_valid (calculator) && llamacpp && hardware != NULL &&
      (e->n_devices > 1 || is_offloaded (e) || e->state_bytes > 0 || beside_model (e) ||
       e->kv_on_host))
    {
      for (guint d = 0; d < e->n_devices && n < HR_CHART_MAX_BARS - 1; d++)
        {
          const HrDeviceLoad *load = &e->devices[d];
          g_autofree char *device = e->n_devices == 1
                                    ? g_strdup (hr_hardware_get_name (hardware))
                                    /* TRANSLATORS: one of several GPUs, "GPU 2" */
                                    : g_strdup_printf (_("GPU %u"), d + 1);

          bars[n++] = (HrChartBar) {
            /* TRANSLATORS: a bar of the memory chart, "GPU 1 · 25 layers" */
            g_strdup_printf (ngettext ("%s · %u layer", "%s · %u layers", load->layers),
                             device, load->layers),
            load->weights_bytes, load->kv_bytes, load->state_bytes,
            /* what loads beside the model is drawn with the buffers, in
             * "the rest": its own segment is not drawn yet */
            load->compute_bytes + load->mmproj_bytes + load->draft_bytes + load->lora_bytes,
            load->usable_bytes, hr_hardware_get_memory_bytes (hardware),
          };
        }
      if (is_offloaded (e) || e->kv_on_host)
        {
          guint cpu_layers = hr_summary_cpu_layers (e);

          bars[n++] = (HrChartBar) {
            cpu_layers > 0
            /* TRANSLATORS: the system-memory bar of the memory chart */
            ? g_strdup_printf (ngettext ("System RAM · %u layer", "System RAM · %u layers",
                                         cpu_layers), cpu_layers)
            : is_offloaded (e) ? g_strdup (_("System RAM · experts"))
            /* TRANSLATORS: the system-memory bar of the memory chart with
             * the KV cache kept there (--no-kv-offload) */
            : g_strdup (_("System RAM · KV cache")),
            e->host_weights_bytes, e->host_kv_bytes, 0,
            hr_summary_host_other_bytes (e),
            e->ram_usable_bytes, e->ram_bytes,
          };
        }
    }

  hr_memory_chart_set_bars (self->chart, bars, n);
  for (guint i = 0; i < n; i++)
    g_free (bars[i].name);
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
  update_fix (self, e);
  update_verdict (self, e);
  update_advice (self, e);
  update_chart (self, e);
  update_captions (self, e);
  update_speed (self, e);
  sync_prompt (self);
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
  gtk_widget_class_bind_template_child (widget_class, HrOverview, chart);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, fix_button);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, figures);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, speed_box);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, assumptions_expander);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, prompt_box);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, prompt_question);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, prompt_document);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, prompt_context);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, prefill_label);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, prefill_caption);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, ttft_label);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, ttft_caption);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, decode_label);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, answer_label);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, answer_caption);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, speed_note);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, depth_box);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, depth_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, verdict_title);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, verdict_subtitle);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, verdict_text);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, advice_label);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, total_label);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, total_caption);
  gtk_widget_class_bind_template_child (widget_class, HrOverview, per_device_label);
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
  gtk_widget_class_bind_template_callback (widget_class, on_prompt_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_depth_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_fix_clicked);
  gtk_widget_class_bind_template_callback (widget_class, overview_verdict_icon);
  hr_ui_format_bind_callbacks (widget_class);
}

/* The figure cards are not controls: a Tab stop on a card shows a focus
 * ring around text that does nothing (issue 30.6).  Their selectable
 * labels stay Tab stops. */
static void
cards_not_focusable (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_FLOW_BOX_CHILD (child))
      gtk_widget_set_focusable (child, FALSE);
    else if (GTK_IS_FLOW_BOX (child) || !GTK_IS_LABEL (child))
      cards_not_focusable (child);
}

static void
hr_overview_init (HrOverview *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  cards_not_focusable (GTK_WIDGET (self));
  /* The verdict changes with every slider step: its labels must not
   * search over widths each time (hr-stack-layout.c). */
  gtk_widget_set_layout_manager (GTK_WIDGET (self->verdict_text),
                                 hr_stack_layout_new (gtk_box_get_spacing (self->verdict_text)));
}
