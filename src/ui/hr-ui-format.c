/* hr-ui-format.c — formatting closures for .ui templates
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-ui-format"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-ui-format.h"

char *
hr_ui_format_size (gpointer self,
                   guint64  bytes,
                   guint    units)
{
  return hr_format_size (bytes, units);
}

char *
hr_ui_format_size_value (gpointer self,
                         guint64  bytes,
                         guint    units)
{
  return hr_format_size_value (bytes, units);
}

char *
hr_ui_format_size_unit (gpointer self,
                        guint    units)
{
  return g_strdup (hr_format_size_unit (units));
}

char *
hr_ui_format_percent (gpointer self,
                      double   fraction)
{
  return hr_format_percent (fraction, 1);
}

char *
hr_ui_format_percent0 (gpointer self,
                       double   fraction)
{
  return hr_format_percent (fraction, 0);
}

char *
hr_ui_format_tokens (gpointer self,
                     guint64  tokens)
{
  return hr_format_tokens (tokens);
}

char *
hr_ui_format_rate (gpointer self,
                   double   tokens_per_s)
{
  return hr_format_rate (tokens_per_s);
}

char *
hr_ui_format_bpw (gpointer self,
                  double   bpw)
{
  /* TRANSLATORS: bits per weight, e.g. "4.85 bpw" */
  return g_strdup_printf (_("%.2f bpw"), bpw);
}

char *
hr_ui_format_params (gpointer self,
                     double   params)
{
  return hr_format_params (params);
}

/* Below this, one decimal: ×0.4, ×5.2; above, whole sequences: ×52. */
#define CONCURRENCY_DECIMALS_BELOW 10.0
/* Below this the cache holds nothing worth a decimal. */
#define CONCURRENCY_NONE 0.05

gboolean
hr_ui_engine_has_budget (HrEngine engine)
{
  return engine == HR_ENGINE_VLLM || engine == HR_ENGINE_SGLANG;
}

char *
hr_ui_format_concurrency (double max_concurrency)
{
  /* no room for the cache at all: ×0, not ×0.0 */
  int decimals = max_concurrency < CONCURRENCY_NONE ? 0
                 : max_concurrency < CONCURRENCY_DECIMALS_BELOW ? 1 : 0;

  /* TRANSLATORS: how many sequences of a context fit at once, "×5.2" */
  return g_strdup_printf (_("×%.*f"), decimals, MAX (max_concurrency, 0.0));
}

char *
hr_ui_budget_tooltip (HrEngine engine,
                      guint64  total_bytes,
                      guint64  kv_capacity_tokens,
                      double   max_concurrency,
                      guint64  context,
                      guint    units)
{
  g_autofree char *total = hr_format_size (total_bytes, units);
  g_autofree char *capacity = hr_format_tokens (kv_capacity_tokens);
  g_autofree char *tokens = hr_format_tokens (context);
  const char *name = engine == HR_ENGINE_SGLANG ? "SGLang" : "vLLM";

  /* TRANSLATORS: tooltip of a table cell under vLLM or SGLang: the engine,
   * its fixed memory, the tokens its KV cache holds, how many sequences of
   * the context that is, the context; "vLLM takes 21.69 GiB at every
   * context; its KV cache holds 170,512 tokens: 5.2 sequences of 32,768
   * tokens at once" */
  return g_strdup_printf (_("%s takes %s at every context; its KV cache holds %s tokens: "
                            "%.1f sequences of %s tokens at once"),
                          name, total, capacity, MAX (max_concurrency, 0.0), tokens);
}

char *
hr_ui_no_estimate_text (HrCalculator *calculator)
{
  /* TRANSLATORS: %s is the reason, e.g. "llama.cpp needs flash attention
   * for a quantized V cache" */
  return g_strdup_printf (_("No estimate: %s"), hr_calculator_get_error_message (calculator));
}

char *
hr_ui_format_verdict (gpointer  self,
                      HrVerdict verdict)
{
  switch (verdict)
    {
    case HR_VERDICT_COMFORTABLE:
      return g_strdup (_("Fits comfortably"));
    case HR_VERDICT_TIGHT:
      /* TRANSLATORS: the model fits, with little memory to spare */
      return g_strdup (_("Fits, but tight"));
    case HR_VERDICT_NO_FIT:
    default:
      return g_strdup (_("Does not fit"));
    }
}

char *
hr_ui_verdict_css_class (gpointer  self,
                         HrVerdict verdict)
{
  switch (verdict)
    {
    case HR_VERDICT_COMFORTABLE:
      return g_strdup ("success");
    case HR_VERDICT_TIGHT:
      return g_strdup ("warning");
    case HR_VERDICT_NO_FIT:
    default:
      return g_strdup ("error");
    }
}

char *
hr_ui_verdict_icon (gpointer  self,
                    HrVerdict verdict)
{
  switch (verdict)
    {
    case HR_VERDICT_COMFORTABLE:
      return g_strdup ("emblem-ok-symbolic");
    case HR_VERDICT_TIGHT:
      return g_strdup ("dialog-warning-symbolic");
    case HR_VERDICT_NO_FIT:
    default:
      return g_strdup ("dialog-error-symbolic");
    }
}

char *
hr_ui_format_device_specs (gpointer    self,
                           HrHardware *hardware,
                           guint       units)
{
  g_autofree char *memory = NULL;
  g_autofree char *bandwidth = NULL;

  if (hardware == NULL)
    return g_strdup ("");

  memory = hr_format_size (hr_hardware_get_memory_bytes (hardware), units);
  bandwidth = hr_format_bandwidth (hr_hardware_get_bandwidth_gbps (hardware));
  return g_strdup_printf ("%s · %s", memory, bandwidth);
}

char *
hr_ui_format_name (gpointer  self,
                   GObject  *object)
{
  if (HR_IS_MODEL_SPEC (object))
    return g_strdup (hr_model_spec_get_name (HR_MODEL_SPEC (object)));
  if (HR_IS_HARDWARE (object))
    return g_strdup (hr_hardware_get_name (HR_HARDWARE (object)));
  if (HR_IS_PRECISION (object))
    return g_strdup (hr_precision_get_label (HR_PRECISION (object)));
  if (HR_IS_KV_TYPE (object))
    return g_strdup (hr_kv_type_get_label (HR_KV_TYPE (object)));
  return g_strdup ("");
}

gboolean
hr_ui_not (gpointer self,
           gboolean value)
{
  return !value;
}

gboolean
hr_ui_is_set (gpointer  self,
              GObject  *object)
{
  return object != NULL;
}

void
hr_ui_format_bind_callbacks (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback_full (widget_class, "format_size",
                                                G_CALLBACK (hr_ui_format_size));
  gtk_widget_class_bind_template_callback_full (widget_class, "format_size_value",
                                                G_CALLBACK (hr_ui_format_size_value));
  gtk_widget_class_bind_template_callback_full (widget_class, "format_size_unit",
                                                G_CALLBACK (hr_ui_format_size_unit));
  gtk_widget_class_bind_template_callback_full (widget_class, "format_percent",
                                                G_CALLBACK (hr_ui_format_percent));
  gtk_widget_class_bind_template_callback_full (widget_class, "format_percent0",
                                                G_CALLBACK (hr_ui_format_percent0));
  gtk_widget_class_bind_template_callback_full (widget_class, "format_tokens",
                                                G_CALLBACK (hr_ui_format_tokens));
  gtk_widget_class_bind_template_callback_full (widget_class, "format_rate",
                                                G_CALLBACK (hr_ui_format_rate));
  gtk_widget_class_bind_template_callback_full (widget_class, "format_bpw",
                                                G_CALLBACK (hr_ui_format_bpw));
  gtk_widget_class_bind_template_callback_full (widget_class, "format_params",
                                                G_CALLBACK (hr_ui_format_params));
  gtk_widget_class_bind_template_callback_full (widget_class, "format_verdict",
                                                G_CALLBACK (hr_ui_format_verdict));
  gtk_widget_class_bind_template_callback_full (widget_class, "verdict_css_class",
                                                G_CALLBACK (hr_ui_verdict_css_class));
  gtk_widget_class_bind_template_callback_full (widget_class, "verdict_icon",
                                                G_CALLBACK (hr_ui_verdict_icon));
  gtk_widget_class_bind_template_callback_full (widget_class, "format_device_specs",
                                                G_CALLBACK (hr_ui_format_device_specs));
  gtk_widget_class_bind_template_callback_full (widget_class, "format_name",
                                                G_CALLBACK (hr_ui_format_name));
  gtk_widget_class_bind_template_callback_full (widget_class, "not",
                                                G_CALLBACK (hr_ui_not));
  gtk_widget_class_bind_template_callback_full (widget_class, "is_set",
                                                G_CALLBACK (hr_ui_is_set));
}

#define CELL_TOOLTIP_KEY "hr-cell-tooltip"

static gboolean
on_cell_query_tooltip (GtkWidget  *widget,
                       int         x,
                       int         y,
                       gboolean    keyboard,
                       GtkTooltip *tooltip)
{
  const char *text = g_object_get_data (G_OBJECT (widget), CELL_TOOLTIP_KEY);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* gtk_widget_set_tooltip_text() triggers a tooltip query, which on X11
 * asks the server where the pointer is: a synchronous round trip per cell
 * per step, hundreds of them when a whole table is rebound. */
void
hr_ui_set_cell_tooltip (GtkWidget  *widget,
                        const char *text)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (g_object_get_data (G_OBJECT (widget), "hr-cell-tooltip-connected") == NULL)
    {
      g_signal_connect (widget, "query-tooltip", G_CALLBACK (on_cell_query_tooltip), NULL);
      g_object_set_data (G_OBJECT (widget), "hr-cell-tooltip-connected", GINT_TO_POINTER (1));
      gtk_widget_set_has_tooltip (widget, TRUE);
    }
  g_object_set_data_full (G_OBJECT (widget), CELL_TOOLTIP_KEY, g_strdup (text), g_free);
}

const char *
hr_ui_get_cell_tooltip (GtkWidget *widget)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  return g_object_get_data (G_OBJECT (widget), CELL_TOOLTIP_KEY);
}

gboolean
hr_ui_focus_within (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

void
hr_ui_set_state_class (GtkWidget  *widget,
                       const char *state)
{
  static const char * const states[] = { "success", "warning", "error" };

  g_return_if_fail (GTK_IS_WIDGET (widget));

  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    if (g_strcmp0 (states[i], state) != 0 && gtk_widget_has_css_class (widget, states[i]))
      gtk_widget_remove_css_class (widget, states[i]);
  if (state != NULL && !gtk_widget_has_css_class (widget, state))
    gtk_widget_add_css_class (widget, state);
}

void
hr_ui_inscription_set_text (GtkInscription *inscription,
                            const char     *text)
{
  if (g_strcmp0 (gtk_inscription_get_text (inscription), text) != 0)
    gtk_inscription_set_text (inscription, text);
}

#define MARKUP_KEY "hr-inscription-markup"

/* GTK 4.8's GtkInscription never frees its attribute list: give it back
 * before the cell goes. */
static void
drop_attributes (GtkInscription *inscription)
{
  gtk_inscription_set_attributes (inscription, NULL);
}

void
hr_ui_inscription_set_markup (GtkInscription *inscription,
                              const char     *markup)
{
  g_autofree char *text = NULL;
  PangoAttrList *attrs = NULL;

  if (g_strcmp0 (g_object_get_data (G_OBJECT (inscription), MARKUP_KEY), markup) == 0)
    return;
  if (g_object_get_data (G_OBJECT (inscription), "hr-drops-attributes") == NULL)
    {
      g_signal_connect (inscription, "destroy", G_CALLBACK (drop_attributes), NULL);
      g_object_set_data (G_OBJECT (inscription), "hr-drops-attributes", GINT_TO_POINTER (1));
    }
  g_object_set_data_full (G_OBJECT (inscription), MARKUP_KEY, g_strdup (markup), g_free);

  /* Not gtk_inscription_set_markup(): GTK 4.8 does not free the
   * attribute list it parses, one per cell update (LeakSanitizer). */
  if (pango_parse_markup (markup, -1, 0, &attrs, &text, NULL, NULL))
    {
      gtk_inscription_set_text (inscription, text);
      gtk_inscription_set_attributes (inscription, attrs);
      pango_attr_list_unref (attrs);
    }
  else
    {
      gtk_inscription_set_attributes (inscription, NULL);
      gtk_inscription_set_text (inscription, markup);
    }
}

void
hr_ui_image_set_icon_name (GtkImage   *image,
                           const char *icon_name)
{
  if (gtk_image_get_storage_type (image) == GTK_IMAGE_ICON_NAME &&
      g_strcmp0 (gtk_image_get_icon_name (image), icon_name) == 0)
    return;
  if (icon_name == NULL && gtk_image_get_storage_type (image) == GTK_IMAGE_EMPTY)
    return;
  gtk_image_set_from_icon_name (image, icon_name);
}
