/* hr-ui-format.h — formatting closures for .ui templates
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every template that shows numbers calls hr_ui_format_bind_callbacks() in
 * its class_init and then uses these in <closure function="…"> with the
 * names below.  All follow the locale (7,86 GiB in Italian) and label units
 * truthfully.  `units` is an HrUnits value (0 = GiB, 1 = GB), bound from
 * the window's “units” property so that a preference change re-formats.
 */

#pragma once

#include <gtk/gtk.h>

#include "hr-calculator.h"
#include "hr-format.h"

G_BEGIN_DECLS

/* "7.86 GiB" */
char *hr_ui_format_size        (gpointer self, guint64 bytes, guint units);
/* "7.86" (the unit shown elsewhere) */
char *hr_ui_format_size_value  (gpointer self, guint64 bytes, guint units);
/* "GiB" or "GB" */
char *hr_ui_format_size_unit   (gpointer self, guint units);
/* "67.6 %" from a fraction */
char *hr_ui_format_percent     (gpointer self, double fraction);
/* "33 %" */
char *hr_ui_format_percent0    (gpointer self, double fraction);
/* "136,404" */
char *hr_ui_format_tokens      (gpointer self, guint64 tokens);
/* "32.0 tok/s" */
char *hr_ui_format_rate        (gpointer self, double tokens_per_s);
/* "4.85 bpw" */
char *hr_ui_format_bpw         (gpointer self, double bpw);
/* "9.4B" */
char *hr_ui_format_params      (gpointer self, double params);
/* "Fits comfortably" / "Tight" / "Does not fit" (translated) */
char *hr_ui_format_verdict     (gpointer self, HrVerdict verdict);
/* "No estimate: llama.cpp needs flash attention for a quantized V cache":
 * the calculator's one state when its settings cannot be estimated */
char *hr_ui_no_estimate_text   (HrCalculator *calculator);
/* vLLM and SGLang take a fixed budget whatever the context: tables show
 * how many sequences of the context their KV cache holds at once. */
gboolean hr_ui_engine_has_budget (HrEngine engine);
/* "×5.2" */
char *hr_ui_format_concurrency (double max_concurrency);
/* "vLLM takes 21.69 GiB at every context; its KV cache holds 170,512
 * tokens: 5.2 sequences of 32,768 tokens at once" */
char *hr_ui_budget_tooltip     (HrEngine engine,
                                guint64  total_bytes,
                                guint64  kv_capacity_tokens,
                                double   max_concurrency,
                                guint64  context,
                                guint    units);
/* "success" / "warning" / "error": a CSS class name for the verdict */
char *hr_ui_verdict_css_class  (gpointer self, HrVerdict verdict);
/* "emblem-ok-symbolic" / "dialog-warning-symbolic" / "dialog-error-symbolic" */
char *hr_ui_verdict_icon       (gpointer self, HrVerdict verdict);
/* "24 GiB · 936 GB/s" for a device */
char *hr_ui_format_device_specs (gpointer self, HrHardware *hardware, guint units);
/* display name of an object: model name, device name, precision label, kv label */
char *hr_ui_format_name        (gpointer self, GObject *object);
/* negation and null checks for `visible` bindings */
gboolean hr_ui_not             (gpointer self, gboolean value);
gboolean hr_ui_is_set          (gpointer self, GObject *object);

void hr_ui_format_bind_callbacks (GtkWidgetClass *widget_class);

/* Like gtk_widget_set_tooltip_text(), for widgets whose tooltip changes
 * on every slider step (list cells, prompt presets, serving cells): the text is read only when a tooltip is asked for,
 * so setting it costs no round trip to the display server. */
void hr_ui_set_cell_tooltip (GtkWidget  *widget,
                             const char *text);
const char *hr_ui_get_cell_tooltip (GtkWidget *widget);

/* Gives @widget exactly one of the state classes "success", "warning",
 * "error" (or none for %NULL), touching its style only when that changes:
 * a class change restyles the widget, and tables set it on every step. */
void hr_ui_set_state_class (GtkWidget  *widget,
                            const char *state);

/* Whether the keyboard focus is @widget or inside it. */
gboolean hr_ui_focus_within (GtkWidget *widget);

/* Setters for list cells that skip the work (re-layout, icon lookup,
 * markup parsing) when the value did not change. */
void hr_ui_inscription_set_text   (GtkInscription *inscription,
                                   const char     *text);
void hr_ui_inscription_set_markup (GtkInscription *inscription,
                                   const char     *markup);
void hr_ui_image_set_icon_name    (GtkImage       *image,
                                   const char     *icon_name);

G_END_DECLS
