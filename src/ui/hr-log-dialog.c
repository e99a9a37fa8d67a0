/* hr-log-dialog.c — an engine's log against the estimate, in the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's “Check a Log”: a llama.cpp, llama-server, Ollama, vLLM or
 * SGLang log, or llama-bench output, opened, dropped or pasted.  What the
 * log says it ran changes a copy of the window's settings; what it does
 * not say (often the model, always the device from the catalog) is the
 * window's, and the dialog says so.  Every figure the log measured is
 * shown beside the estimate for those settings, with its error
 * (hr-log-check.c computes; this view binds).  “Use These Settings”
 * makes the log's settings the window's.
 */

#define G_LOG_DOMAIN "headroom"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "hr-format.h"
#include "hr-log-dialog.h"

/* An error within this share is shown as a match, past the second as a
 * miss: the bounds of the accuracy tables (tests/accuracy/RESULTS.md),
 * memory ±3 %, speed ±20 %. */
#define HR_LOG_GOOD_ERROR 0.03
#define HR_LOG_POOR_ERROR 0.20

struct _HrLogDialog
{
  AdwWindow parent_instance;

  HrCalculator *calculator;
  guint units;

  GtkStack *stack;
  AdwStatusPage *problem_page;
  GtkScrolledWindow *result_scroller;
  GtkWidget *apply_button;

  HrEngineLog *log;
  HrLogSettings said;
  HrScenario scenario;
  HrLogCheck check;
  char *problem;
  gboolean valid;
  gboolean fits;               /* the estimate fits its devices */
};

G_DEFINE_FINAL_TYPE (HrLogDialog, hr_log_dialog, ADW_TYPE_WINDOW)

/* ------------------------------------------------------------- helpers */

static char *
format_figure (HrLogDialog     *self,
               HrLogFigureKind  kind,
               double           value)
{
  switch (kind)
    {
    case HR_LOG_FIGURE_BYTES:
      return hr_format_size ((guint64) llround (value), self->units);
    case HR_LOG_FIGURE_TOKENS:
      return hr_format_tokens ((guint64) llround (value));
    case HR_LOG_FIGURE_RATE:
      return hr_format_rate (value);
    case HR_LOG_FIGURE_RATIO:
    default:
      /* TRANSLATORS: a concurrency, "3.25×" */
      return g_strdup_printf (_("%.2f×"), value);
    }
}

static GtkWidget *
new_row (const char *title,
         const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  return row;
}

/* "+1.2 %", coloured by how close it is. */
static GtkWidget *
error_label (double error)
{
  g_autofree char *text = NULL;
  GtkWidget *label;

  /* TRANSLATORS: the estimate's error against a measured figure, "+1.2 %" */
  text = g_strdup_printf (_("%+.1f %%"), error * 100);
  label = gtk_label_new (text);
  gtk_widget_add_css_class (label, "numeric");
  if (fabs (error) <= HR_LOG_GOOD_ERROR)
    gtk_widget_add_css_class (label, "success");
  else if (fabs (error) > HR_LOG_POOR_ERROR)
    gtk_widget_add_css_class (label, "error");
  else
    gtk_widget_add_css_class (label, "warning");
  return label;
}

static void
add_note_row (GtkWidget  *group,
              const char *title,
              const char *value,
              const char *note)
{
  g_autofree char *subtitle = note != NULL ? g_strdup_printf ("%s — %s", value, note)
                                           : g_strdup (value);

  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), new_row (title, subtitle));
}

static void
show_problem (HrLogDialog *self,
              const char  *title,
              const char  *message)
{
  g_free (self->problem);
  self->problem = g_strdup (message);
  self->valid = FALSE;
  adw_status_page_set_title (self->problem_page, title);
  adw_status_page_set_description (self->problem_page, message);
  gtk_stack_set_visible_child_name (self->stack, "problem");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "log.apply", FALSE);
}

/* ------------------------------------------------------------- results */

static GtkWidget *
what_ran_group (HrLogDialog *self)
{
  const HrScenario *s = &self->scenario;
  GtkWidget *group = adw_preferences_group_new ();
  g_autofree char *log_text = NULL;
  g_autofree char *context = hr_format_tokens (s->context);
  g_autofree char *context_text = NULL;
  g_autofree char *device_text = NULL;
  g_autofree char *model_note = NULL;
  g_autofree char *device_note = NULL;

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("What Ran"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         self->log->kind == HR_ENGINE_LOG_OLLAMA &&
                                         self->log->n_devices == 0 ?
                                         _("The figures are Ollama’s own plan, logged before it "
                                           "loaded the model. What the log does not say is the "
                                           "window’s: change it there and this comparison "
                                           "follows.") :
                                         _("What the log does not say is the window’s: change "
                                           "it there and this comparison follows."));

  log_text = self->log->version != NULL ?
    /* TRANSLATORS: "llama.cpp, build b3447" */
    g_strdup_printf (_("%s, build %s"), hr_engine_log_kind_to_string (self->log->kind),
                     self->log->version) :
    g_strdup (hr_engine_log_kind_to_string (self->log->kind));
  add_note_row (group, _("Log"), log_text, NULL);

  if (self->said.model == NULL)
    model_note = self->said.model_in_log != NULL ?
      /* TRANSLATORS: the log names a model the catalog does not have */
      g_strdup_printf (_("the window’s model; the log says “%s”"), self->said.model_in_log) :
      g_strdup (_("the window’s model; the log does not name one"));
  add_note_row (group, _("Model"), hr_model_spec_get_name (s->model), model_note);
  add_note_row (group, _("Precision"), hr_precision_get_label (s->precision),
                self->said.precision != NULL ? NULL :
                s->precision == hr_calculator_get_precision (self->calculator) ?
                _("the window’s; the log does not say") :
                /* TRANSLATORS: vLLM's and SGLang's --dtype auto, the checkpoint's own */
                _("the engine’s default, the checkpoint’s own; the log does not say"));

  context_text = s->batch > 1 ?
    /* TRANSLATORS: "2,048 tokens × 4 sequences" */
    g_strdup_printf (_("%s tokens × %u sequences"), context, s->batch) :
    /* TRANSLATORS: "8,192 tokens" */
    g_strdup_printf (_("%s tokens"), context);
  add_note_row (group, _("Context"), context_text,
                self->said.context == 0 ?
                _("the window’s; the log does not say") : NULL);
  add_note_row (group, _("KV Cache"), hr_kv_type_get_label (s->kv_type),
                self->said.kv_type == NULL ? _("the window’s; the log does not say") : NULL);

  device_text = s->gpus > 1 ?
    /* TRANSLATORS: "RTX 3090 24GB × 2" */
    g_strdup_printf (_("%s × %u"), hr_hardware_get_name (s->hardware), s->gpus) :
    g_strdup (hr_hardware_get_name (s->hardware));
  device_note = self->said.gpu_in_log != NULL ?
    /* TRANSLATORS: the device is the window's; the log names a GPU by its driver's name */
    g_strdup_printf (_("the window’s device; the log says “%s”"), self->said.gpu_in_log) :
    g_strdup (_("the window’s device"));
  add_note_row (group, _("Device"), device_text, device_note);
  return group;
}

static GtkWidget *
figures_group (HrLogDialog *self)
{
  GtkWidget *group = adw_preferences_group_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Measured and Estimated"));
  if (!self->fits)
    adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                           _("These settings do not fit the window’s device, so "
                                             "there is nothing to compare. Choose the model and "
                                             "device the log ran in the window."));
  else if (self->check.n == 0)
    adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                           _("The log states no figure Headroom estimates."));
  for (guint i = 0; i < self->check.n; i++)
    {
      const HrLogFigure *fig = &self->check.figures[i];
      g_autofree char *measured = format_figure (self, fig->kind, fig->measured);
      gboolean shown = fig->has_estimate && self->fits;
      g_autofree char *estimated = shown ? format_figure (self, fig->kind, fig->estimate)
                                         : g_strdup (_("not estimated"));
      /* TRANSLATORS: "measured 4.34 GiB · estimated 4.30 GiB" */
      g_autofree char *subtitle = g_strdup_printf (_("measured %s · estimated %s"), measured,
                                                   estimated);
      g_autofree char *title = g_strdup (_(fig->label));
      GtkWidget *row;
      double error;

      title[0] = g_ascii_toupper (title[0]);
      row = new_row (title, subtitle);
      if (shown && hr_log_figure_error (fig, &error))
        adw_action_row_add_suffix (ADW_ACTION_ROW (row), error_label (error));
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
    }
  return group;
}

static GtkWidget *
runs_group (HrLogDialog  *self,
            const double *estimates)
{
  GtkWidget *group = adw_preferences_group_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("llama-bench Runs"));
  for (guint i = 0; i < self->log->n_runs; i++)
    {
      const HrEngineLogRun *r = &self->log->runs[i];
      guint tokens = r->prompt ? r->n_prompt : r->n_gen;
      g_autofree char *test = r->depth > 0 ?
        /* TRANSLATORS: llama-bench's test names, "pp512 @ d4096 · CUDA" */
        g_strdup_printf (_("%s%u @ d%u · %s"), r->prompt ? "pp" : "tg", tokens, r->depth,
                         r->backend) :
        g_strdup_printf ("%s%u · %s", r->prompt ? "pp" : "tg", tokens, r->backend);
      g_autofree char *measured = hr_format_rate (r->tokens_per_s);
      g_autofree char *estimated = estimates[i] > 0 ? hr_format_rate (estimates[i])
                                                    : g_strdup (_("not estimated"));
      g_autofree char *subtitle = g_strdup_printf (_("measured %s · estimated %s"), measured,
                                                   estimated);
      GtkWidget *row = new_row (test, subtitle);

      if (estimates[i] > 0 && r->tokens_per_s > 0)
        adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                   error_label ((estimates[i] - r->tokens_per_s) /
                                                r->tokens_per_s));
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
    }
  return group;
}

static void
show_log (HrLogDialog *self)
{
  HrCatalog *catalog = hr_calculator_get_catalog (self->calculator);
  g_autoptr(GError) error = NULL;
  g_autofree double *run_estimates = NULL;
  HrEstimate estimate;
  GtkWidget *page;

  hr_log_settings_read (self->log, catalog, &self->said);
  if (self->said.kv_type_unknown != NULL)
    {
      /* TRANSLATORS: a llama.cpp cache type such as "iq4_nl" */
      g_autofree char *message = g_strdup_printf (_("The log’s KV cache type “%s” is not one "
                                                    "Headroom models."),
                                                  self->said.kv_type_unknown);
      show_problem (self, _("No Estimate for This Run"), message);
      return;
    }
  self->scenario = *hr_calculator_get_scenario (self->calculator);
  /* the window's serving layout and users are not the log's */
  memset (&self->scenario.layout, 0, sizeof self->scenario.layout);
  self->scenario.users = 0;
  self->scenario.target_tokens_per_s = 0;
  hr_log_settings_apply (&self->said, catalog, &self->scenario);
  if (!hr_scenario_estimate (&self->scenario, &estimate, &error))
    {
      show_problem (self, _("No Estimate for This Run"), error->message);
      return;
    }

  self->fits = estimate.verdict != HR_VERDICT_NO_FIT;
  memset (&self->check, 0, sizeof self->check);
  hr_log_check_figures (&self->check, self->log, &estimate, self->scenario.gpus);
  run_estimates = g_new0 (double, MAX (self->log->n_runs, 1));
  if (self->log->kind == HR_ENGINE_LOG_LLAMA_BENCH)
    hr_log_check_runs (&self->check, self->log, &self->scenario, run_estimates);

  page = adw_preferences_page_new ();
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page),
                            ADW_PREFERENCES_GROUP (what_ran_group (self)));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page),
                            ADW_PREFERENCES_GROUP (figures_group (self)));
  if (self->log->kind == HR_ENGINE_LOG_LLAMA_BENCH && self->log->n_runs > 0)
    adw_preferences_page_add (ADW_PREFERENCES_PAGE (page),
                              ADW_PREFERENCES_GROUP (runs_group (self, run_estimates)));
  gtk_scrolled_window_set_child (self->result_scroller, page);

  g_clear_pointer (&self->problem, g_free);
  self->valid = TRUE;
  gtk_stack_set_visible_child_name (self->stack, "result");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "log.apply", TRUE);
}

/* ------------------------------------------------------------- loading */

static void
take_log (HrLogDialog *self,
          HrEngineLog *log,
          GError      *error)
{
  g_clear_pointer (&self->log, hr_engine_log_free);
  if (log == NULL)
    {
      show_problem (self, _("This Log Cannot Be Read"), error->message);
      return;
    }
  self->log = log;
  show_log (self);
}

/**
 * hr_log_dialog_load_file:
 *
 * Reads @file (a local file: the start of a longer one, as the CLI does)
 * and shows what it says, or why it cannot.
 */
void
hr_log_dialog_load_file (HrLogDialog *self,
                         GFile       *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GError) error = NULL;
  HrEngineLog *log;

  g_return_if_fail (HR_IS_LOG_DIALOG (self));
  if (path == NULL)
    {
      g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("Only a file on this computer can be read."));
      take_log (self, NULL, error);
      return;
    }
  log = hr_engine_log_parse_file (path, &error);
  take_log (self, log, error);
}

/**
 * hr_log_dialog_load_text:
 *
 * Reads a pasted log (the start of a longer one, as a file).
 */
void
hr_log_dialog_load_text (HrLogDialog *self,
                         const char  *text,
                         gsize        length)
{
  g_autoptr(GError) error = NULL;
  HrEngineLog *log;

  g_return_if_fail (HR_IS_LOG_DIALOG (self));
  log = hr_engine_log_parse (text, length, &error);
  take_log (self, log, error);
}

static void
on_open_response (GtkNativeDialog *chooser,
                  int              response,
                  HrLogDialog     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        hr_log_dialog_load_file (self, file);
    }
  g_object_unref (chooser);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  HrLogDialog *self = HR_LOG_DIALOG (widget);
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Open a Log"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"),
                                         _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response", G_CALLBACK (on_open_response), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
on_clipboard_text (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(HrLogDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, &error);

  if (text == NULL || text[0] == '\0')
    {
      show_problem (self, _("Nothing to Paste"),
                    _("The clipboard holds no text. Copy a log, or open its file."));
      return;
    }
  hr_log_dialog_load_text (self, text, strlen (text));
}

static void
paste_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, on_clipboard_text,
                                 g_object_ref (widget));
}

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         HrLogDialog   *self)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = gdk_file_list_get_files (g_value_get_boxed (value));
  if (files != NULL)
    hr_log_dialog_load_file (self, files->data);
  g_slist_free (files);
  return files != NULL;
}

/* ------------------------------------------------------------- applying */

/**
 * hr_log_dialog_apply:
 *
 * Makes the settings of the log shown the window's.
 *
 * Returns: FALSE when no log is shown
 */
gboolean
hr_log_dialog_apply (HrLogDialog *self)
{
  HrCalculator *calc = self->calculator;
  const HrScenario *s = &self->scenario;
  HrEngineOptions options;

  g_return_val_if_fail (HR_IS_LOG_DIALOG (self), FALSE);
  if (!self->valid)
    return FALSE;
  options = *hr_calculator_get_engine_options (calc);
  options.flash_attn = s->options.flash_attn;
  options.gpu_memory_utilization = s->options.gpu_memory_utilization;
  options.max_num_batched_tokens = s->options.max_num_batched_tokens;
  options.vllm_generation = s->options.vllm_generation;

  hr_calculator_freeze (calc);
  hr_calculator_set_engine (calc, s->engine);
  hr_calculator_set_model (calc, s->model);
  hr_calculator_set_precision (calc, s->precision);
  hr_calculator_set_kv_type (calc, s->kv_type);
  hr_calculator_set_context (calc, s->context);
  hr_calculator_set_batch (calc, s->batch);
  hr_calculator_set_gpu_count (calc, s->gpus);
  hr_calculator_set_engine_options (calc, &options);
  hr_calculator_set_gpu_layers_auto (calc, !s->placement.gpu_layers_fixed);
  if (s->placement.gpu_layers_fixed)
    hr_calculator_set_gpu_layers (calc, s->placement.gpu_layers);
  if (s->prompt_tokens > 0)
    hr_calculator_set_prompt_tokens (calc, s->prompt_tokens);
  hr_calculator_thaw (calc);
  return TRUE;
}

static void
apply_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  if (hr_log_dialog_apply (HR_LOG_DIALOG (widget)))
    gtk_window_close (GTK_WINDOW (widget));
}

/* ------------------------------------------------------------- object */

const HrLogCheck *
hr_log_dialog_get_check (HrLogDialog *self)
{
  g_return_val_if_fail (HR_IS_LOG_DIALOG (self), NULL);
  return self->valid ? &self->check : NULL;
}

/**
 * hr_log_dialog_get_problem:
 *
 * Returns: (nullable): why the log shown gives no comparison
 */
const char *
hr_log_dialog_get_problem (HrLogDialog *self)
{
  g_return_val_if_fail (HR_IS_LOG_DIALOG (self), NULL);
  return self->problem;
}

static GtkWidget *
header_button (const char *label,
               const char *action)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  return button;
}

static GtkWidget *
icon_button (const char *icon,
             const char *tooltip,
             const char *action)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  return button;
}

static void
hr_log_dialog_init (HrLogDialog *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *empty = adw_status_page_new ();
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  gtk_window_set_title (GTK_WINDOW (self), _("Check a Log"));
  gtk_window_set_default_size (GTK_WINDOW (self), 600, 640);
  /* not modal: what the log does not say is changed in the window, and
   * the comparison follows (on_calculator_changed) */

  adw_header_bar_pack_start (ADW_HEADER_BAR (header),
                             icon_button ("document-open-symbolic", _("Open a Log (Ctrl+O)"),
                                          "log.open"));
  adw_header_bar_pack_start (ADW_HEADER_BAR (header),
                             icon_button ("edit-paste-symbolic", _("Paste a Log (Ctrl+V)"),
                                          "log.paste"));
  self->apply_button = header_button (_("_Apply"), "log.apply");
  gtk_widget_set_tooltip_text (self->apply_button, _("Use the log’s settings in the window"));
  gtk_widget_add_css_class (self->apply_button, "suggested-action");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "log.apply", FALSE);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), self->apply_button);
  gtk_box_append (GTK_BOX (box), header);

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);

  adw_status_page_set_icon_name (ADW_STATUS_PAGE (empty), "document-open-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (empty), _("Check a Log"));
  adw_status_page_set_description (ADW_STATUS_PAGE (empty),
                                   _("Open, drop or paste the log of llama.cpp, llama-server, "
                                     "Ollama, vLLM or SGLang, or llama-bench output: what it "
                                     "measured is shown beside Headroom’s estimate for the same "
                                     "settings."));
  gtk_widget_set_halign (buttons, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (buttons), header_button (_("_Open a Log…"), "log.open"));
  gtk_box_append (GTK_BOX (buttons), header_button (_("Paste _Log"), "log.paste"));
  for (GtkWidget *b = gtk_widget_get_first_child (buttons); b != NULL;
       b = gtk_widget_get_next_sibling (b))
    gtk_widget_add_css_class (b, "pill");
  adw_status_page_set_child (ADW_STATUS_PAGE (empty), buttons);
  gtk_stack_add_named (self->stack, empty, "empty");

  self->problem_page = ADW_STATUS_PAGE (adw_status_page_new ());
  adw_status_page_set_icon_name (self->problem_page, "dialog-warning-symbolic");
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->problem_page), "problem");

  self->result_scroller = GTK_SCROLLED_WINDOW (gtk_scrolled_window_new ());
  gtk_scrolled_window_set_policy (self->result_scroller, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->result_scroller), "result");
  gtk_stack_set_visible_child_name (self->stack, "empty");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->stack));

  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (box, GTK_EVENT_CONTROLLER (drop));
  adw_window_set_content (ADW_WINDOW (self), box);
}

static void
hr_log_dialog_finalize (GObject *object)
{
  HrLogDialog *self = HR_LOG_DIALOG (object);

  g_clear_object (&self->calculator);
  g_clear_pointer (&self->log, hr_engine_log_free);
  g_free (self->problem);
  G_OBJECT_CLASS (hr_log_dialog_parent_class)->finalize (object);
}

static void
hr_log_dialog_class_init (HrLogDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = hr_log_dialog_finalize;
  gtk_widget_class_install_action (widget_class, "log.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "log.paste", NULL, paste_action);
  gtk_widget_class_install_action (widget_class, "log.apply", NULL, apply_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "log.open",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK, "log.paste",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
on_calculator_changed (HrLogDialog *self)
{
  if (self->log != NULL && self->said.kv_type_unknown == NULL)
    show_log (self);
}

/**
 * hr_log_dialog_new:
 * @calculator: the window's settings: what the log does not say
 * @units: HR_UNITS_BINARY or HR_UNITS_DECIMAL
 */
HrLogDialog *
hr_log_dialog_new (HrCalculator *calculator,
                   guint         units)
{
  HrLogDialog *self = g_object_new (HR_TYPE_LOG_DIALOG, NULL);

  self->calculator = g_object_ref (calculator);
  self->units = units;
  g_signal_connect_object (calculator, "changed", G_CALLBACK (on_calculator_changed), self,
                           G_CONNECT_SWAPPED);
  return self;
}
