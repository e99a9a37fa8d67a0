/* hr-window-actions.c — the window's actions: import, export, toasts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Importing a model (file chooser or drag and drop), exporting the matrix
 * or the hardware table as CSV, toasts, and the actions with no other
 * home; their keyboard shortcuts are installed here as well.
 */

#define G_LOG_DOMAIN "hr-window"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-catalog.h"
#include "hr-compare-view.h"
#include "hr-csv.h"
#include "hr-file.h"
#include "hr-text.h"
#include "hr-precision.h"
#include "hr-summary.h"
#include "hr-hardware-view.h"
#include "hr-log-dialog.h"
#include "hr-matrix-view.h"
#include "hr-model-import.h"
#include "hr-window-private.h"

/* A view by its page name, built when first needed (hr-window.c). */
static GtkWidget *
attach_view (HrWindow   *self,
             const char *name)
{
  return _hr_window_attach_view (self, name);
}

static HrMatrix *
get_matrix (HrWindow *self)
{
  return hr_matrix_view_get_matrix (HR_MATRIX_VIEW (attach_view (self, "matrix")));
}

/* ---------------------------------------------------------------- toasts */

/* Messages quote file names and contents: one displayable line (no
 * invalid UTF-8 for Pango), and never markup, which libadwaita 1.2
 * parses in toast titles (“R&D <i>model”). */
static AdwToast *
new_toast (const char *message)
{
  g_autofree char *line = hr_text_escape_line (message, -1);
  g_autofree char *escaped = g_markup_escape_text (line, -1);

  return adw_toast_new (escaped);
}

static void
show_toast (HrWindow   *self,
            const char *message)
{
  AdwToast *toast = new_toast (message);

  adw_toast_set_timeout (toast, 4);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/**
 * _hr_window_offer_undo:
 * @removed: (nullable): the imported model or the device added by hand
 *   that was just removed
 *
 * Says @message in a toast with an Undo button that puts @removed back
 * (win.undo-remove); a later removal replaces what Undo restores.
 */
void
_hr_window_offer_undo (HrWindow   *self,
                       GObject    *removed,
                       const char *message)
{
  AdwToast *toast;

  if (removed == NULL)
    {
      show_toast (self, message);
      return;
    }
  g_set_object (&self->undo_removed, removed);
  toast = new_toast (message);
  adw_toast_set_timeout (toast, 8);
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_action_name (toast, "win.undo-remove");
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void update_remove_model (HrWindow *self);

/* Undo: the model or device removed last, saved again in the user's
 * files and made the current one. */
static void
undo_remove_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  HrCatalog *catalog = hr_calculator_get_catalog (self->calculator);
  g_autoptr(GObject) removed = g_steal_pointer (&self->undo_removed);
  g_autofree char *dir = hr_catalog_dup_user_dir ();
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  const char *name = NULL;
  gboolean done = FALSE;

  if (HR_IS_MODEL_SPEC (removed))
    {
      name = hr_model_spec_get_name (HR_MODEL_SPEC (removed));
      done = hr_catalog_import_model (catalog, HR_MODEL_SPEC (removed), dir, &error);
      if (done)
        hr_calculator_set_model (self->calculator, HR_MODEL_SPEC (removed));
      update_remove_model (self);
    }
  else if (HR_IS_HARDWARE (removed))
    {
      name = hr_hardware_get_name (HR_HARDWARE (removed));
      done = hr_catalog_save_custom_hardware (catalog, HR_HARDWARE (removed), dir, &error);
      if (done)
        hr_calculator_set_hardware (self->calculator, HR_HARDWARE (removed));
    }
  else
    return;

  message = done ?
    /* TRANSLATORS: a toast after Undo: "Restored Qwen3-8B" */
    g_strdup_printf (_("Restored %s"), name) :
    /* TRANSLATORS: "Could not restore Qwen3-8B: …" */
    g_strdup_printf (_("Could not restore %s: %s"), name, error->message);
  show_toast (self, message);
}

static void
toast_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  show_toast (HR_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

/* ------------------------------------------------------------ CSV export */

static char *
csv_default_name (HrWindow   *self,
                  const char *what)
{
  HrModelSpec *model = hr_calculator_get_model (self->calculator);
  g_autofree char *name = g_strdup (model ? hr_model_spec_get_name (model) : "headroom");

  g_strdelimit (name, "/\\:*?\"<>| ", '-');
  return g_strdup_printf ("%s-%s.csv", name, what);
}

/**
 * hr_window_export_csv_to:
 * @what: "matrix", "hardware" or "compare"
 *
 * Writes the table with the CLI's writer through hr_file_write_atomic():
 * a failed write (a full disk) leaves any existing file as it was.
 */
gboolean
hr_window_export_csv_to (HrWindow    *self,
                         const char  *what,
                         GFile       *file,
                         GError     **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *path = NULL;

  g_return_val_if_fail (HR_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (g_strcmp0 (what, "hardware") == 0)
    hr_csv_write_hardware (hr_hardware_view_get_table (HR_HARDWARE_VIEW (attach_view (self, "hardware"))),
                           out);
  else if (g_strcmp0 (what, "compare") == 0)
    hr_csv_write_comparison (hr_compare_view_get_comparison (HR_COMPARE_VIEW (attach_view (self, "compare"))),
                             out);
  else
    hr_csv_write_matrix (get_matrix (self), out);

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("not a local file"));
      return FALSE;
    }
  return hr_file_write_atomic (path, out->str, out->len, error);
}

static void
on_export_response (GtkNativeDialog *dialog,
                    int              response,
                    HrWindow        *self)
{
  const char *what = g_object_get_data (G_OBJECT (dialog), "hr-export-what");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;
      g_autofree char *basename = g_file_get_basename (file);
      g_autofree char *message = NULL;

      if (hr_window_export_csv_to (self, what, file, &error))
        /* TRANSLATORS: "Saved GLM-4-9B-0414-matrix.csv" */
        message = g_strdup_printf (_("Saved %s"), basename);
      else
        /* TRANSLATORS: "Could not save GLM-4-9B-0414-matrix.csv: Permission denied" */
        message = g_strdup_printf (_("Could not save %s: %s"), basename, error->message);
      show_toast (self, message);
    }

  g_clear_object (&self->chooser);
}

static void
export (HrWindow   *self,
        const char *what)
{
  g_autofree char *name = csv_default_name (self, what);
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  const char *title;

  if (self->chooser != NULL)
    return;

  if (g_str_equal (what, "hardware"))
    title = _("Export Hardware Table");
  else if (g_str_equal (what, "compare"))
    title = _("Export Comparison");
  else
    title = _("Export Matrix");
  self->chooser = gtk_file_chooser_native_new (title,
                                               GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Export"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("CSV files"));
  gtk_file_filter_add_mime_type (filter, "text/csv");
  gtk_file_filter_add_pattern (filter, "*.csv");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_object_set_data_full (G_OBJECT (self->chooser), "hr-export-what", g_strdup (what), g_free);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (on_export_response), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
export_matrix_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  export (HR_WINDOW (widget), "matrix");
}

static void
export_hardware_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  export (HR_WINDOW (widget), "hardware");
}

/* What Ctrl+E exports: the table on screen (the hardware table, the
 * comparison), the matrix from anywhere else. */
static const char *
export_target (HrWindow *self)
{
  const char *page = adw_view_stack_get_visible_child_name (self->view_stack);

  if (g_strcmp0 (page, "hardware") == 0 || g_strcmp0 (page, "compare") == 0)
    return page;
  return "matrix";
}

static void
export_csv_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);

  export (self, export_target (self));
}

/**
 * hr_window_get_export_target:
 *
 * What Export as CSV (Ctrl+E) writes from the view shown: "matrix",
 * "hardware" or "compare".
 */
const char *
hr_window_get_export_target (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return export_target (self);
}

/* ---------------------------------------------------------- summary */

/* The current estimate on the clipboard, as plain lines or Markdown,
 * written by the core from the calculator (never from a view's labels,
 * which stop refreshing while another page is shown). */
static void
copy_summary (HrWindow *self,
              gboolean  markdown)
{
  HrCalculator *calculator = self->calculator;
  g_autofree char *text =
    hr_summary_text (hr_calculator_get_scenario (calculator),
                     hr_calculator_get_estimate (calculator),
                     hr_calculator_get_valid (calculator)
                     ? NULL : hr_calculator_get_error_message (calculator),
                     self->units, markdown);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  show_toast (self, markdown ? _("Summary copied as Markdown") : _("Summary copied"));
}

static void
copy_summary_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  copy_summary (HR_WINDOW (widget), FALSE);
}

static void
copy_summary_markdown_action (GtkWidget  *widget,
                              const char *action_name,
                              GVariant   *parameter)
{
  copy_summary (HR_WINDOW (widget), TRUE);
}

/* ---------------------------------------------------------------- import */

/**
 * hr_window_import_file:
 *
 * Reads a .gguf or config.json, adds the model to the user catalog (saved
 * atomically in the user directory) and selects it.  Failures are shown
 * as a toast saying why.
 */
void
hr_window_import_file (HrWindow *self,
                       GFile    *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *basename = g_file_get_basename (file);
  g_autoptr(HrModelSpec) model = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;

  g_return_if_fail (HR_IS_WINDOW (self));

  if (path == NULL)
    {
      /* TRANSLATORS: "Could not import notes.txt: not a local file" */
      message = g_strdup_printf (_("Could not import %s: not a local file"), basename);
      show_toast (self, message);
      return;
    }

  model = hr_model_import_file (path, &error);
  if (model == NULL)
    {
      message = g_strdup_printf (_("Could not import %s: %s"), basename, error->message);
      show_toast (self, message);
      return;
    }
  _hr_window_import_model (self, model, basename);
}

/**
 * _hr_window_import_model:
 * @model: a model read from a file
 * @shown_name: what a failure names (the file's name)
 *
 * The one import path of Import…, a dropped file and a model picked “On
 * this computer”: adds @model to the user catalog, selects it, and a GGUF
 * file is estimated in its own type (a Q4_K_S file as Q4_K_S, not in the
 * precision the window had).  A toast says what happened.
 */
void
_hr_window_import_model (HrWindow    *self,
                         HrModelSpec *model,
                         const char  *shown_name)
{
  g_autofree char *dir = hr_catalog_dup_user_dir ();
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  g_autofree char *kept_as = NULL;
  HrCatalog *catalog = hr_calculator_get_catalog (self->calculator);
  HrPrecision *own;

  if (!hr_catalog_import_model_full (catalog, model, dir, &kept_as, &error))
    {
      message = g_strdup_printf (_("Could not import %s: %s"), shown_name, error->message);
      show_toast (self, message);
      return;
    }

  own = hr_precision_find_for_file_type (hr_catalog_get_precisions (catalog),
                                         hr_model_spec_get_file_type (model));
  hr_calculator_freeze (self->calculator);
  hr_calculator_set_model (self->calculator,
                           hr_catalog_find_model (catalog, hr_model_spec_get_id (model)));
  if (own != NULL)
    hr_calculator_set_precision (self->calculator, own);
  hr_calculator_thaw (self->calculator);
  if (kept_as != NULL)
    {
      g_autofree char *kept_name = g_path_get_basename (kept_as);

      /* TRANSLATORS: "Imported Qwen3-8B; the unreadable list of imported models
       * was kept as imported-models.json.broken-20250101-120000" */
      message = g_strdup_printf (_("Imported %s; the unreadable list of imported models "
                                   "was kept as %s"), hr_model_spec_get_name (model),
                                 kept_name);
    }
  else
    /* TRANSLATORS: "Imported Qwen3-8B" */
    message = g_strdup_printf (_("Imported %s"), hr_model_spec_get_name (model));
  show_toast (self, message);
}

/* Only a model the user imported can be removed. */
static void
update_remove_model (HrWindow *self)
{
  HrModelSpec *model = hr_calculator_get_model (self->calculator);
  HrCatalog *catalog = hr_calculator_get_catalog (self->calculator);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.remove-model",
                                 model != NULL &&
                                 hr_catalog_is_imported_model (catalog,
                                                               hr_model_spec_get_id (model)));
}

/* Removes the current model from the imports (the file is rewritten
 * atomically) and shows the first model of the catalog instead. */
static void
remove_model_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  HrCatalog *catalog = hr_calculator_get_catalog (self->calculator);
  g_autoptr(HrModelSpec) model = NULL;
  g_autoptr(HrModelSpec) next = NULL;
  g_autofree char *dir = hr_catalog_dup_user_dir ();
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  GListModel *models = hr_catalog_get_models (catalog);

  if (hr_calculator_get_model (self->calculator) == NULL)
    return;
  model = g_object_ref (hr_calculator_get_model (self->calculator));
  if (!hr_catalog_remove_imported_model (catalog, hr_model_spec_get_id (model), dir, &error))
    {
      /* TRANSLATORS: "Could not remove Qwen3-8B: …" */
      message = g_strdup_printf (_("Could not remove %s: %s"), hr_model_spec_get_name (model),
                                 error->message);
      show_toast (self, message);
      return;
    }

  for (guint i = 0; i < g_list_model_get_n_items (models) && next == NULL; i++)
    {
      g_autoptr(HrModelSpec) candidate = g_list_model_get_item (models, i);

      if (!hr_catalog_is_imported_model (catalog, hr_model_spec_get_id (candidate)))
        next = g_steal_pointer (&candidate);
    }
  if (next != NULL)
    hr_calculator_set_model (self->calculator, next);
  update_remove_model (self);
  /* TRANSLATORS: "Removed Qwen3-8B" (an imported model) */
  message = g_strdup_printf (_("Removed %s"), hr_model_spec_get_name (model));
  _hr_window_offer_undo (self, G_OBJECT (model), message);
}

static void
on_import_response (GtkNativeDialog *dialog,
                    int              response,
                    HrWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      hr_window_import_file (self, file);
    }
  g_clear_object (&self->chooser);
}

static void
import_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->chooser != NULL)
    return;

  self->chooser = gtk_file_chooser_native_new (_("Import Model"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN,
                                               _("_Import"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("GGUF files and Hugging Face configs"));
  gtk_file_filter_add_pattern (filter, "*.gguf");
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (on_import_response), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         HrWindow      *self)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;

  files = gdk_file_list_get_files (g_value_get_boxed (value));
  for (GSList *l = files; l != NULL; l = l->next)
    hr_window_open_file (self, l->data);
  g_slist_free (files);
  return TRUE;
}

/**
 * hr_window_open_file:
 *
 * A file dropped on the window: a model (a .gguf, a config .json) is
 * imported; anything else is read as an engine's log (Check a Log), which
 * says plainly when it is not one.
 */
void
hr_window_open_file (HrWindow *self,
                     GFile    *file)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *lower = name != NULL ? g_ascii_strdown (name, -1) : g_strdup ("");

  g_return_if_fail (HR_IS_WINDOW (self));
  if (g_str_has_suffix (lower, ".gguf") || g_str_has_suffix (lower, ".json"))
    hr_window_import_file (self, file);
  else
    hr_window_check_log (self, file);
}

/* ------------------------------------------------------------ check a log */

/**
 * hr_window_check_log:
 * @file: (nullable): a log to read at once
 *
 * Opens “Check a Log” over the window: @file's figures beside the
 * estimate for the settings it states (the window's where it is silent).
 *
 * Returns: (transfer none): the dialog, shown
 */
HrLogDialog *
hr_window_check_log (HrWindow *self,
                     GFile    *file)
{
  HrLogDialog *dialog = hr_log_dialog_new (self->calculator, self->units);

  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  if (file != NULL)
    hr_log_dialog_load_file (dialog, file);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

static void
check_log_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  hr_window_check_log (HR_WINDOW (widget), NULL);
}

/* ---------------------------------------------------------- other actions */

static void
search_model_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);

  adw_flap_set_reveal_flap (self->flap, TRUE);
  hr_picker_popup (self->model_picker);
}

static void
toggle_sidebar_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);

  adw_flap_set_reveal_flap (self->flap, !adw_flap_get_reveal_flap (self->flap));
}

/* Alt+1 … Alt+8 show the views in the order of their tabs. */
static const char * const view_names[] = {
  "overview", "matrix", "hardware", "model", "commands", "compare", "serving", "recommend",
};

static void
show_view_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  const char *name = g_variant_get_string (parameter, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (view_names); i++)
    if (g_strcmp0 (name, view_names[i]) == 0)
      adw_view_stack_set_visible_child_name (self->view_stack, name);
}

/* ------------------------------------------------------- help overlay */

/* The shortcuts window is built when first asked for, not with every
 * window as GtkApplication would build it from gtk/help-overlay.ui; then
 * GtkApplicationWindow shows and owns it as usual. */
static void
show_help_overlay (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  GtkApplicationWindow *window = GTK_APPLICATION_WINDOW (user_data);
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (window);

  if (overlay == NULL)
    {
      g_autoptr(GtkBuilder) builder =
        gtk_builder_new_from_resource ("/io/github/headroom_app/Headroom/ui/help-overlay.ui");

      overlay = GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
      gtk_application_window_set_help_overlay (window, overlay);
    }
  gtk_widget_show (GTK_WIDGET (overlay));
}

/* ---------------------------------------------------------- set-up */

void
_hr_window_class_actions_init (HrWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.search-model", NULL, search_model_action);
  gtk_widget_class_install_action (widget_class, "win.import-model", NULL, import_action);
  gtk_widget_class_install_action (widget_class, "win.export-csv", NULL, export_csv_action);
  gtk_widget_class_install_action (widget_class, "win.export-matrix", NULL, export_matrix_action);
  gtk_widget_class_install_action (widget_class, "win.export-hardware", NULL,
                                   export_hardware_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL,
                                   toggle_sidebar_action);
  gtk_widget_class_install_action (widget_class, "win.toast", "s", toast_action);
  gtk_widget_class_install_action (widget_class, "win.check-log", NULL, check_log_action);
  gtk_widget_class_install_action (widget_class, "win.undo-remove", NULL, undo_remove_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK,
                                       "win.check-log", NULL);
  gtk_widget_class_install_action (widget_class, "win.remove-model", NULL, remove_model_action);
  gtk_widget_class_install_action (widget_class, "win.copy-summary", NULL, copy_summary_action);
  gtk_widget_class_install_action (widget_class, "win.copy-summary-markdown", NULL,
                                   copy_summary_markdown_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c,
                                       GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.copy-summary", NULL);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "win.search-model", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK,
                                       "win.import-model", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK,
                                       "win.export-csv", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0,
                                       "win.toggle-sidebar", NULL);
  gtk_widget_class_install_action (widget_class, "win.show-view", "s", show_view_action);
  for (guint i = 0; i < G_N_ELEMENTS (view_names); i++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + i, GDK_ALT_MASK,
                                         "win.show-view", "s", view_names[i]);
}

/* Files dropped on the window are imported; the shortcuts window. */
void
_hr_window_actions_init (HrWindow *self)
{
  static const GActionEntry entries[] = {
    { "show-help-overlay", show_help_overlay },
  };
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  g_signal_connect_object (drop, "drop", G_CALLBACK (on_drop), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  /* In the window's action group, where gtk_application_window_set_help_overlay()
   * finds it and adds none of its own. */
  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);

  g_signal_connect_object (self->calculator, "notify::model",
                           G_CALLBACK (update_remove_model), self, G_CONNECT_SWAPPED);
  update_remove_model (self);
}
