/* hr-window.c — the main window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The calculator lives in the template; the sidebar's controls and every
 * view are bound to it.  The window itself only wires controls that have
 * no property to bind (pickers and combo rows choose list items), and owns
 * the file actions: import and CSV export.
 */

#define G_LOG_DOMAIN "hr-window"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-catalog.h"
#include "hr-commands-view.h"
#include "hr-compare-view.h"
#include "hr-context-row.h"
#include "hr-csv.h"
#include "hr-engine.h"
#include "hr-file.h"
#include "hr-text.h"
#include "hr-hardware-view.h"
#include "hr-matrix-view.h"
#include "hr-model-import.h"
#include "hr-model-view.h"
#include "hr-overview.h"
#include "hr-picker.h"
#include "hr-ui-format.h"
#include "hr-window.h"

struct _HrWindow
{
  AdwApplicationWindow parent_instance;

  HrCalculator *calculator;
  guint units;

  AdwToastOverlay *toast_overlay;
  AdwFlap *flap;
  AdwViewStack *view_stack;
  HrPicker *model_picker;
  HrPicker *hardware_picker;
  AdwComboRow *precision_row;
  AdwComboRow *kv_row;
  AdwComboRow *engine_row;
  AdwActionRow *flash_row;
  GtkSwitch *flash_switch;
  AdwActionRow *utilization_row;
  GtkAdjustment *utilization_adjustment;
  HrContextRow *context_row;
  GtkAdjustment *batch_adjustment;
  GtkAdjustment *gpus_adjustment;
  HrOverview *overview;
  /* The other views are built when first shown, into these slots. */
  AdwBin *matrix_slot;
  AdwBin *hardware_slot;
  AdwBin *model_slot;
  AdwBin *commands_slot;
  AdwBin *compare_slot;
  HrMatrixView *matrix_view;

  GtkFileChooserNative *chooser;
  GSettings *settings;        /* NULL when the schema is not installed */
  gboolean restoring;
  GArray *pending_contexts;   /* matrix contexts restored before the matrix exists */
};

G_DEFINE_FINAL_TYPE (HrWindow, hr_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_UNITS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ----------------------------------------------------------- describers */

static char *
model_title (gpointer item)
{
  return g_strdup (hr_model_spec_get_name (item));
}

static char *
model_subtitle_text (HrModelSpec *model)
{
  const HrModelArch *a = hr_model_spec_get_arch (model);
  g_autofree char *total = hr_format_params (a->params_total);
  g_autofree char *context = hr_format_context_short (a->max_context);
  const char *attention = hr_attention_kind_to_string (a->attention);
  g_autofree char *upper = g_ascii_strup (attention, -1);

  if (hr_model_spec_is_moe (model))
    {
      g_autofree char *active = hr_format_params (a->params_active);
      /* TRANSLATORS: "30.5B (3.4B active) · GQA · 40K context" */
      return g_strdup_printf (_("%s (%s active) · %s · %s context"), total, active, upper,
                              context);
    }
  /* TRANSLATORS: "9.4B · GQA · 32K context" */
  return g_strdup_printf (_("%s · %s · %s context"), total, upper, context);
}

static char *
model_subtitle (gpointer item)
{
  return model_subtitle_text (item);
}

static char *
model_group (gpointer item)
{
  if (hr_model_spec_get_origin (item) == HR_ORIGIN_USER)
    return g_strdup (_("Imported"));
  return g_strdup (hr_model_spec_get_family (item));
}

static char *
model_search (gpointer item)
{
  return hr_model_spec_dup_search_text (item);
}

static char *
hardware_title (gpointer item)
{
  return g_strdup (hr_hardware_get_name (item));
}

static char *
hardware_subtitle (gpointer item)
{
  return hr_ui_format_device_specs (NULL, item, HR_UNITS_BINARY);
}

static char *
hardware_group (gpointer item)
{
  return g_strdup (hr_hardware_get_vendor (item));
}

static char *
hardware_search (gpointer item)
{
  g_autofree char *text = g_strjoin (" ", hr_hardware_get_id (item), hr_hardware_get_name (item),
                                     hr_hardware_get_vendor (item), NULL);
  return g_utf8_strdown (text, -1);
}

/* Template closure: what each engine profile assumes. */
static char *
window_engine_subtitle (gpointer self,
                        HrEngine engine)
{
  switch (engine)
    {
    case HR_ENGINE_LLAMACPP:
      return g_strdup (_("llama-server: exact GGUF weights, padded KV, compute buffer"));
    case HR_ENGINE_OLLAMA:
      return g_strdup (_("llama.cpp with Ollama’s defaults: context × parallel requests"));
    case HR_ENGINE_VLLM:
      return g_strdup (_("A memory budget; what is left becomes KV cache blocks"));
    case HR_ENGINE_GENERIC:
    default:
      return g_strdup (_("Seed page method: nominal bits per weight"));
    }
}

/* Template closure: the model row's subtitle. */
static char *
window_model_subtitle (gpointer     self,
                       HrModelSpec *model)
{
  return model ? model_subtitle_text (model) : g_strdup ("");
}

/* ------------------------------------------------------ control syncing */

static guint
position_of (GListModel *list,
             gpointer    item)
{
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(GObject) candidate = g_list_model_get_item (list, i);

      if (candidate == item)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* The engine rows show the calculator's engine and the options it uses;
 * an option left at the engine's default shows that default. */
static void
sync_engine_controls (HrWindow *self)
{
  HrEngine engine = hr_calculator_get_engine (self->calculator);
  const HrEngineOptions *options = hr_calculator_get_engine_options (self->calculator);
  gboolean llamacpp = engine == HR_ENGINE_LLAMACPP || engine == HR_ENGINE_OLLAMA;
  gboolean flash_used = FALSE;

  if (adw_combo_row_get_selected (self->engine_row) != (guint) engine)
    adw_combo_row_set_selected (self->engine_row, engine);

  gtk_widget_set_visible (GTK_WIDGET (self->flash_row), llamacpp);
  gtk_widget_set_visible (GTK_WIDGET (self->utilization_row), engine == HR_ENGINE_VLLM);

  g_object_get (self->calculator, "flash-attn-used", &flash_used, NULL);
  if (gtk_switch_get_active (self->flash_switch) != flash_used)
    gtk_switch_set_active (self->flash_switch, flash_used);
  gtk_adjustment_set_value (self->utilization_adjustment,
                            options->gpu_memory_utilization > 0
                            ? options->gpu_memory_utilization
                            : HR_VLLM_DEFAULT_GPU_MEMORY_UTILIZATION);
}

static void
on_engine_selected (HrWindow *self)
{
  guint selected = adw_combo_row_get_selected (self->engine_row);

  if (selected < HR_N_ENGINES)
    hr_calculator_set_engine (self->calculator, selected);
}

static void
on_flash_toggled (HrWindow *self)
{
  HrEngineOptions options = *hr_calculator_get_engine_options (self->calculator);
  gboolean used = FALSE;

  g_object_get (self->calculator, "flash-attn-used", &used, NULL);
  if (gtk_switch_get_active (self->flash_switch) == used)
    return;
  options.flash_attn = gtk_switch_get_active (self->flash_switch) ? HR_FLASH_ATTN_ON
                                                                  : HR_FLASH_ATTN_OFF;
  hr_calculator_set_engine_options (self->calculator, &options);
}

static void
on_utilization_changed (HrWindow *self)
{
  HrEngineOptions options = *hr_calculator_get_engine_options (self->calculator);
  double value = gtk_adjustment_get_value (self->utilization_adjustment);
  double current = options.gpu_memory_utilization > 0 ? options.gpu_memory_utilization
                                                      : HR_VLLM_DEFAULT_GPU_MEMORY_UTILIZATION;

  if (G_APPROX_VALUE (value, current, 1e-9))
    return;
  options.gpu_memory_utilization = value;
  hr_calculator_set_engine_options (self->calculator, &options);
}

static void
sync_from_calculator (HrWindow *self)
{
  HrCatalog *catalog = hr_calculator_get_catalog (self->calculator);
  guint position;

  hr_picker_set_selected (self->model_picker, G_OBJECT (hr_calculator_get_model (self->calculator)));
  hr_picker_set_selected (self->hardware_picker,
                          G_OBJECT (hr_calculator_get_hardware (self->calculator)));

  position = position_of (hr_catalog_get_precisions (catalog),
                          hr_calculator_get_precision (self->calculator));
  if (position != GTK_INVALID_LIST_POSITION &&
      adw_combo_row_get_selected (self->precision_row) != position)
    adw_combo_row_set_selected (self->precision_row, position);

  position = position_of (hr_catalog_get_kv_types (catalog),
                          hr_calculator_get_kv_type (self->calculator));
  if (position != GTK_INVALID_LIST_POSITION &&
      adw_combo_row_get_selected (self->kv_row) != position)
    adw_combo_row_set_selected (self->kv_row, position);

  sync_engine_controls (self);
}

static void
on_model_picked (HrWindow *self)
{
  HrModelSpec *model = HR_MODEL_SPEC (hr_picker_get_selected (self->model_picker));

  if (model != NULL)
    hr_calculator_set_model (self->calculator, model);
}

static void
on_hardware_picked (HrWindow *self)
{
  HrHardware *hardware = HR_HARDWARE (hr_picker_get_selected (self->hardware_picker));

  if (hardware != NULL)
    hr_calculator_set_hardware (self->calculator, hardware);
}

static void
on_precision_selected (HrWindow *self)
{
  gpointer item = adw_combo_row_get_selected_item (self->precision_row);

  if (item != NULL)
    hr_calculator_set_precision (self->calculator, item);
}

static void
on_kv_selected (HrWindow *self)
{
  gpointer item = adw_combo_row_get_selected_item (self->kv_row);

  if (item != NULL)
    hr_calculator_set_kv_type (self->calculator, item);
}

/* ------------------------------------------------------------ lazy views */

static void save_inputs (HrWindow *self);

/* Views other than the overview get the calculator when first shown (or
 * first needed): building their tables at start-up would delay the first
 * frame by a third.  Once attached, a view follows every change. */
static GtkWidget *
attach_view (HrWindow   *self,
             const char *name)
{
  static const struct { const char *name; GType (*get_type) (void); gsize slot; } lazy[] = {
    { "matrix", hr_matrix_view_get_type, G_STRUCT_OFFSET (HrWindow, matrix_slot) },
    { "hardware", hr_hardware_view_get_type, G_STRUCT_OFFSET (HrWindow, hardware_slot) },
    { "model", hr_model_view_get_type, G_STRUCT_OFFSET (HrWindow, model_slot) },
    { "commands", hr_commands_view_get_type, G_STRUCT_OFFSET (HrWindow, commands_slot) },
    { "compare", hr_compare_view_get_type, G_STRUCT_OFFSET (HrWindow, compare_slot) },
  };

  if (g_strcmp0 (name, "overview") == 0)
    return GTK_WIDGET (self->overview);

  for (guint i = 0; i < G_N_ELEMENTS (lazy); i++)
    {
      AdwBin *slot = *(AdwBin **) ((guint8 *) self + lazy[i].slot);
      GtkWidget *view;

      if (g_strcmp0 (name, lazy[i].name) != 0)
        continue;

      view = adw_bin_get_child (slot);
      if (view != NULL)
        return view;

      view = g_object_new (lazy[i].get_type (), "calculator", self->calculator, NULL);
      if (g_object_class_find_property (G_OBJECT_GET_CLASS (view), "units") != NULL)
        g_object_bind_property (self, "units", view, "units", G_BINDING_SYNC_CREATE);
      adw_bin_set_child (slot, view);

      if (HR_IS_MATRIX_VIEW (view))
        {
          HrMatrix *matrix = hr_matrix_view_get_matrix (HR_MATRIX_VIEW (view));

          self->matrix_view = HR_MATRIX_VIEW (view);
          if (self->pending_contexts != NULL)
            {
              hr_matrix_set_contexts (matrix, (guint64 *) self->pending_contexts->data,
                                      self->pending_contexts->len);
              g_clear_pointer (&self->pending_contexts, g_array_unref);
            }
          if (self->settings != NULL)
            g_signal_connect_object (matrix, "items-changed", G_CALLBACK (save_inputs), self,
                                     G_CONNECT_SWAPPED);
        }
      return view;
    }
  return NULL;
}

static void
on_visible_view_changed (HrWindow *self)
{
  const char *name = adw_view_stack_get_visible_child_name (self->view_stack);

  if (name != NULL)
    attach_view (self, name);
}

static HrMatrix *
get_matrix (HrWindow *self)
{
  return hr_matrix_view_get_matrix (HR_MATRIX_VIEW (attach_view (self, "matrix")));
}

/* ---------------------------------------------------------------- toasts */

static void
show_toast (HrWindow   *self,
            const char *message)
{
  /* Messages quote file names and contents: one displayable line
   * (no invalid UTF-8 for Pango), and never markup, which libadwaita
   * 1.2 parses in toast titles (“R&D <i>model”). */
  g_autofree char *line = hr_text_escape_line (message, -1);
  g_autofree char *escaped = g_markup_escape_text (line, -1);
  AdwToast *toast = adw_toast_new (escaped);

  adw_toast_set_timeout (toast, 4);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
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
 * @what: "matrix" or "hardware"
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

  if (self->chooser != NULL)
    return;

  self->chooser = gtk_file_chooser_native_new (g_str_equal (what, "hardware")
                                               ? _("Export Hardware Table")
                                               : _("Export Matrix"),
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

/* Ctrl+E exports what is on screen: the hardware table from its view,
 * the matrix from anywhere else. */
static void
export_csv_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  const char *page = adw_view_stack_get_visible_child_name (self->view_stack);

  export (self, g_strcmp0 (page, "hardware") == 0 ? "hardware" : "matrix");
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
  g_autofree char *dir = hr_catalog_dup_user_dir ();
  g_autoptr(HrModelSpec) model = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  g_autofree char *kept_as = NULL;
  HrCatalog *catalog = hr_calculator_get_catalog (self->calculator);

  g_return_if_fail (HR_IS_WINDOW (self));

  if (path == NULL)
    {
      /* TRANSLATORS: "Could not import notes.txt: not a local file" */
      message = g_strdup_printf (_("Could not import %s: not a local file"), basename);
      show_toast (self, message);
      return;
    }

  model = hr_model_import_file (path, &error);
  if (model == NULL || !hr_catalog_import_model_full (catalog, model, dir, &kept_as, &error))
    {
      message = g_strdup_printf (_("Could not import %s: %s"), basename, error->message);
      show_toast (self, message);
      return;
    }

  hr_calculator_set_model (self->calculator,
                           hr_catalog_find_model (catalog, hr_model_spec_get_id (model)));
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
    hr_window_import_file (self, l->data);
  g_slist_free (files);
  return TRUE;
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

/* -------------------------------------------------------------- settings */

#define SCHEMA_ID APP_ID
#define MAX_SAVED_CONTEXTS 16

/* Settings are optional: an uninstalled run without compiled schemas
 * simply does not remember anything, rather than aborting. */
static GSettings *
settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source == NULL)
    return NULL;
  schema = g_settings_schema_source_lookup (source, SCHEMA_ID, TRUE);
  if (schema == NULL)
    {
      g_debug ("Schema %s is not installed: settings will not be kept", SCHEMA_ID);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

/* Restores the last inputs; an id the catalog no longer has falls back
 * quietly to what the calculator already holds (the default). */
static void
restore_settings (HrWindow *self)
{
  HrCatalog *catalog = hr_calculator_get_catalog (self->calculator);
  g_autofree char *model = NULL;
  g_autofree char *precision = NULL;
  g_autofree char *kv = NULL;
  g_autofree char *hardware = NULL;
  g_autofree char *engine = NULL;
  g_autoptr(GVariant) contexts = NULL;
  HrEngine engine_value;
  gpointer found;

  if (self->settings == NULL)
    return;

  self->restoring = TRUE;
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  model = g_settings_get_string (self->settings, "model");
  precision = g_settings_get_string (self->settings, "precision");
  kv = g_settings_get_string (self->settings, "kv-type");
  hardware = g_settings_get_string (self->settings, "hardware");
  engine = g_settings_get_string (self->settings, "engine");

  hr_calculator_freeze (self->calculator);
  if ((found = hr_catalog_find_model (catalog, model)) != NULL)
    hr_calculator_set_model (self->calculator, found);
  if ((found = hr_catalog_find_precision (catalog, precision)) != NULL)
    hr_calculator_set_precision (self->calculator, found);
  if ((found = hr_catalog_find_kv_type (catalog, kv)) != NULL)
    hr_calculator_set_kv_type (self->calculator, found);
  if ((found = hr_catalog_find_hardware (catalog, hardware)) != NULL)
    hr_calculator_set_hardware (self->calculator, found);
  if (hr_engine_from_string (engine, &engine_value))
    hr_calculator_set_engine (self->calculator, engine_value);
  hr_calculator_set_context (self->calculator, g_settings_get_uint64 (self->settings, "context"));
  hr_calculator_set_batch (self->calculator, g_settings_get_uint (self->settings, "batch"));
  hr_calculator_set_gpu_count (self->calculator, g_settings_get_uint (self->settings, "gpu-count"));
  hr_calculator_thaw (self->calculator);

  contexts = g_settings_get_value (self->settings, "matrix-contexts");
  {
    gsize n = 0;
    const guint64 *values = g_variant_get_fixed_array (contexts, &n, sizeof (guint64));
    gboolean valid = n >= 1 && n <= MAX_SAVED_CONTEXTS;

    for (gsize i = 0; valid && i < n; i++)
      valid = values[i] >= HR_CONTEXT_MIN && values[i] <= HR_CONTEXT_MAX;
    if (valid)
      {
        g_clear_pointer (&self->pending_contexts, g_array_unref);
        self->pending_contexts = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n);
        g_array_append_vals (self->pending_contexts, values, n);
      }
  }

  hr_window_set_units (self, g_settings_get_enum (self->settings, "units"));
  self->restoring = FALSE;
}

static void
set_string_if_changed (GSettings  *settings,
                       const char *key,
                       const char *value)
{
  g_autofree char *old = g_settings_get_string (settings, key);

  if (value != NULL && g_strcmp0 (old, value) != 0)
    g_settings_set_string (settings, key, value);
}

static void
save_inputs (HrWindow *self)
{
  const HrScenario *s = hr_calculator_get_scenario (self->calculator);
  HrMatrix *matrix;
  guint64 contexts[MAX_SAVED_CONTEXTS];
  guint n;
  g_autoptr(GVariant) old = NULL;
  GVariant *value;

  if (self->settings == NULL || self->restoring)
    return;

  g_settings_delay (self->settings);
  if (s->model != NULL)
    set_string_if_changed (self->settings, "model", hr_model_spec_get_id (s->model));
  if (s->precision != NULL)
    set_string_if_changed (self->settings, "precision", hr_precision_get_id (s->precision));
  if (s->kv_type != NULL)
    set_string_if_changed (self->settings, "kv-type", hr_kv_type_get_id (s->kv_type));
  if (s->hardware != NULL)
    set_string_if_changed (self->settings, "hardware", hr_hardware_get_id (s->hardware));
  set_string_if_changed (self->settings, "engine", hr_engine_to_string (s->engine));
  if (g_settings_get_uint64 (self->settings, "context") != s->context)
    g_settings_set_uint64 (self->settings, "context", s->context);
  if (g_settings_get_uint (self->settings, "batch") != s->batch)
    g_settings_set_uint (self->settings, "batch", s->batch);
  if (g_settings_get_uint (self->settings, "gpu-count") != s->gpus)
    g_settings_set_uint (self->settings, "gpu-count", s->gpus);

  /* The matrix's contexts, once the matrix exists (before, the saved ones
   * are still current). */
  matrix = self->matrix_view != NULL ? hr_matrix_view_get_matrix (self->matrix_view) : NULL;
  if (matrix != NULL)
    {
      n = MIN (hr_matrix_get_n_contexts (matrix), MAX_SAVED_CONTEXTS);
      for (guint i = 0; i < n; i++)
        contexts[i] = hr_matrix_get_context (matrix, i);
      value = g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, contexts, n, sizeof (guint64));
      old = g_settings_get_value (self->settings, "matrix-contexts");
      if (!g_variant_equal (old, value))
        g_settings_set_value (self->settings, "matrix-contexts", value);
      else
        g_variant_unref (g_variant_ref_sink (value));
    }
  g_settings_apply (self->settings);
}

static void
on_units_setting_changed (HrWindow *self)
{
  hr_window_set_units (self, g_settings_get_enum (self->settings, "units"));
}

static gboolean
on_close_request (HrWindow *self)
{
  int width, height;

  if (self->settings == NULL)
    return FALSE;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_delay (self->settings);
  g_settings_set_boolean (self->settings, "window-maximized",
                          gtk_window_is_maximized (GTK_WINDOW (self)));
  if (!gtk_window_is_maximized (GTK_WINDOW (self)) && width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_apply (self->settings);
  save_inputs (self);
  return FALSE;
}

/* ------------------------------------------------------------- lifecycle */

static void
hr_window_dispose (GObject *object)
{
  HrWindow *self = (HrWindow *) object;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  /* The settings action would otherwise outlive the window's action group
   * and report state changes to it. */
  if (self->settings != NULL)
    g_action_map_remove_action (G_ACTION_MAP (self), "units");
  g_clear_object (&self->settings);
  g_clear_pointer (&self->pending_contexts, g_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_WINDOW);
  G_OBJECT_CLASS (hr_window_parent_class)->dispose (object);
}

static void
hr_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_UNITS:
      g_value_set_uint (value, HR_WINDOW (object)->units);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_window_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_UNITS:
      hr_window_set_units (HR_WINDOW (object), g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_window_class_init (HrWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_window_dispose;
  object_class->get_property = hr_window_get_property;
  object_class->set_property = hr_window_set_property;

  properties[PROP_UNITS] =
    g_param_spec_uint ("units", NULL, "0 = GiB, 1 = GB", 0, 1, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (HR_TYPE_CALCULATOR);
  g_type_ensure (HR_TYPE_PICKER);
  g_type_ensure (HR_TYPE_CONTEXT_ROW);
  g_type_ensure (HR_TYPE_OVERVIEW);
  g_type_ensure (HR_TYPE_PRECISION);
  g_type_ensure (HR_TYPE_KV_TYPE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom_app/Headroom/ui/hr-window.ui");
  gtk_widget_class_bind_template_child (widget_class, HrWindow, calculator);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, model_picker);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, hardware_picker);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, precision_row);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, kv_row);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, engine_row);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, flash_row);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, flash_switch);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, utilization_row);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, utilization_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, context_row);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, batch_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, gpus_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, overview);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, matrix_slot);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, hardware_slot);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, model_slot);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, commands_slot);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, compare_slot);
  gtk_widget_class_bind_template_callback_full (widget_class, "model_subtitle",
                                                G_CALLBACK (window_model_subtitle));
  gtk_widget_class_bind_template_callback_full (widget_class, "engine_subtitle",
                                                G_CALLBACK (window_engine_subtitle));
  hr_ui_format_bind_callbacks (widget_class);

  gtk_widget_class_install_action (widget_class, "win.search-model", NULL, search_model_action);
  gtk_widget_class_install_action (widget_class, "win.import-model", NULL, import_action);
  gtk_widget_class_install_action (widget_class, "win.export-csv", NULL, export_csv_action);
  gtk_widget_class_install_action (widget_class, "win.export-matrix", NULL, export_matrix_action);
  gtk_widget_class_install_action (widget_class, "win.export-hardware", NULL,
                                   export_hardware_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL,
                                   toggle_sidebar_action);
  gtk_widget_class_install_action (widget_class, "win.toast", "s", toast_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "win.search-model", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK,
                                       "win.import-model", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK,
                                       "win.export-csv", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0,
                                       "win.toggle-sidebar", NULL);
}

static void
hr_window_init (HrWindow *self)
{
  static const HrPickerDescriber model_describer = {
    model_title, model_subtitle, model_group, model_search,
  };
  static const HrPickerDescriber hardware_describer = {
    hardware_title, hardware_subtitle, hardware_group, hardware_search,
  };
  HrCatalog *catalog;
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (self));

  catalog = hr_calculator_get_catalog (self->calculator);
  hr_picker_set_items (self->model_picker, hr_catalog_get_models (catalog), &model_describer);
  hr_picker_set_items (self->hardware_picker, hr_catalog_get_hardware (catalog),
                       &hardware_describer);
  adw_combo_row_set_model (self->precision_row, hr_catalog_get_precisions (catalog));
  adw_combo_row_set_model (self->kv_row, hr_catalog_get_kv_types (catalog));

  g_object_bind_property (self->calculator, "context", self->context_row, "context",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->calculator, "batch", self->batch_adjustment, "value",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->calculator, "gpu-count", self->gpus_adjustment, "value",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);

  g_signal_connect_object (self->calculator, "changed", G_CALLBACK (sync_from_calculator),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model_picker, "notify::selected",
                           G_CALLBACK (on_model_picked), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->hardware_picker, "notify::selected",
                           G_CALLBACK (on_hardware_picked), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->precision_row, "notify::selected-item",
                           G_CALLBACK (on_precision_selected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->kv_row, "notify::selected-item",
                           G_CALLBACK (on_kv_selected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->engine_row, "notify::selected",
                           G_CALLBACK (on_engine_selected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->flash_switch, "notify::active",
                           G_CALLBACK (on_flash_toggled), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->utilization_adjustment, "value-changed",
                           G_CALLBACK (on_utilization_changed), self, G_CONNECT_SWAPPED);

  self->settings = settings_new ();
  restore_settings (self);
  sync_from_calculator (self);
  if (self->settings != NULL)
    {
      g_autoptr(GAction) units = g_settings_create_action (self->settings, "units");

      g_action_map_add_action (G_ACTION_MAP (self), units);
      g_signal_connect_object (self->settings, "changed::units",
                               G_CALLBACK (on_units_setting_changed), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->calculator, "changed", G_CALLBACK (save_inputs), self,
                               G_CONNECT_SWAPPED);
    }
  g_signal_connect (self, "close-request", G_CALLBACK (on_close_request), NULL);
  g_signal_connect_object (self->view_stack, "notify::visible-child",
                           G_CALLBACK (on_visible_view_changed), self, G_CONNECT_SWAPPED);
  on_visible_view_changed (self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect_object (drop, "drop", G_CALLBACK (on_drop), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}

HrWindow *
hr_window_new (HrApplication *application)
{
  return g_object_new (HR_TYPE_WINDOW, "application", application, NULL);
}

HrCalculator *
hr_window_get_calculator (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return self->calculator;
}

guint
hr_window_get_units (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), 0);
  return self->units;
}

void
hr_window_set_units (HrWindow *self,
                     guint     units)
{
  g_return_if_fail (HR_IS_WINDOW (self));

  units = MIN (units, HR_UNITS_DECIMAL);
  if (self->units == units)
    return;
  self->units = units;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNITS]);
}

/* A view by its stack page name: overview, matrix, hardware, model,
 * commands, compare.  For tests. */
GtkWidget *
hr_window_get_view (HrWindow   *self,
                    const char *name)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return attach_view (self, name);
}

/* Shows a view by name, as clicking its tab does. */
void
hr_window_show_view (HrWindow   *self,
                     const char *name)
{
  g_return_if_fail (HR_IS_WINDOW (self));
  adw_view_stack_set_visible_child_name (self->view_stack, name);
}
