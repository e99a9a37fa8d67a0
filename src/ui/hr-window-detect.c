/* hr-window-detect.c — this computer: its GPU, its memory, its models
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window detects this computer in a worker thread when it opens
 * (hr_detect_system_async(); the NVIDIA library is loaded in a helper
 * process, which closing the window kills at once through the
 * cancellable, so that a hung driver never keeps Headroom running).  When
 * that library crashed or hung, the row says so in one line, under what
 * sysfs found.  On first start — no device saved yet — the
 * detected GPU, or the unified-memory machine, becomes the calculator's,
 * unless the user chose another meanwhile; on every start the detected
 * system RAM becomes the calculator's (what llama.cpp's placement keeps
 * off the GPU); and a first start that selected the detected device shows
 * the Picks view, what this computer can run (issue 26), unless the user
 * left the Overview meanwhile.  The “This computer” row of the hardware group says what
 * was found; its button detects again and uses the result.
 *
 * The model picker lists the models already on disk, “On this computer”,
 * above the catalog's: they are looked for when the picker is first
 * opened (or from the menu), in a worker thread and within the scan's
 * bounds (hr_model_import_scan_async()).  Picking one imports it as a
 * dropped file is imported.
 *
 * Devices added by hand: the primary menu adds one, the device row's edit
 * button edits (or removes) the current one when it was added by hand or
 * made from detected figures.
 */

#define G_LOG_DOMAIN "hr-window"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-catalog.h"
#include "hr-defaults.h"
#include "hr-device-editor.h"
#include "hr-format.h"
#include "hr-hardware-view.h"
#include "hr-local-device.h"
#include "hr-model-import.h"
#include "hr-window-private.h"

static void
toast (HrWindow   *self,
       const char *message)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", message);
}

/* ------------------------------------------------------------- detection */

static HrLocalDevice *
picked_device (HrWindow *self)
{
  return self->local_devices != NULL ? hr_local_devices_pick (self->local_devices) : NULL;
}

/* "RTX 3060 12GB": the catalog's name when the GPU matched one. */
static const char *
device_name (HrLocalDevice *device)
{
  if (hr_local_device_get_match (device) != HR_LOCAL_MATCH_NONE)
    return hr_hardware_get_name (hr_local_device_get_hardware (device));
  return hr_local_device_get_name (device);
}

/* What detection found, in up to three lines: the device, the other
 * GPUs, the system memory. */
static char *
describe_detection (HrWindow *self)
{
  HrLocalDevice *device = picked_device (self);
  GString *out = g_string_new (NULL);
  guint64 ram = hr_system_info_get_ram_total_bytes (self->system_info);
  g_autoptr(GPtrArray) others = g_ptr_array_new ();
  guint n;

  if (device != NULL && hr_local_device_get_free_known (device))
    {
      g_autofree char *free_text = hr_format_size (hr_local_device_get_free_bytes (device),
                                                   self->units);

      /* TRANSLATORS: the device found on this computer and its free
       * memory now: "Detected: RTX 3060 12GB, 11.35 GiB free" */
      g_string_append_printf (out, _("Detected: %s, %s free"), device_name (device), free_text);
    }
  else if (device != NULL)
    /* TRANSLATORS: the device found on this computer: "Detected: RTX 3060 12GB" */
    g_string_append_printf (out, _("Detected: %s"), device_name (device));
  else
    g_string_append (out, _("No GPU detected: choose your device above"));

  /* The other GPUs by name: "Also detected: RTX 4090 24GB" */
  n = self->local_devices != NULL ? g_list_model_get_n_items (self->local_devices) : 0;
  for (guint i = 0; device != NULL && i < n; i++)
    {
      g_autoptr(HrLocalDevice) other = g_list_model_get_item (self->local_devices, i);

      if (other != device)
        g_ptr_array_add (others, (gpointer) device_name (other));
    }
  if (others->len > 0)
    {
      g_autofree char *names = NULL;

      g_ptr_array_add (others, NULL);
      names = g_strjoinv (", ", (char **) others->pdata);
      g_string_append_c (out, '\n');
      /* TRANSLATORS: under "Detected: RTX 3060 12GB, 11.35 GiB free": the
       * other GPUs of this computer, "Also detected: RTX 4090 24GB" */
      g_string_append_printf (out, _("Also detected: %s"), names);
    }

  /* The NVIDIA library crashed or hung: “GPU detection failed: …”, as
   * the core words it (a driver's message, not translated). */
  if (hr_system_info_get_gpu_failure (self->system_info) != NULL)
    {
      g_string_append_c (out, '\n');
      g_string_append (out, hr_system_info_get_gpu_failure (self->system_info));
    }

  if (ram > 0)
    {
      g_autofree char *size = hr_format_size (ram, self->units);
      g_autofree char *bandwidth =
        hr_format_bandwidth (hr_system_info_get_ram_bandwidth_gbps (self->system_info));

      g_string_append_c (out, '\n');
      if (hr_system_info_get_ram_assumed (self->system_info))
        /* TRANSLATORS: system memory, its size read and its bandwidth
         * assumed: "System memory: 31.25 GiB, 89.6 GB/s assumed" */
        g_string_append_printf (out, _("System memory: %s, %s assumed"), size, bandwidth);
      else
        /* TRANSLATORS: "System memory: 64 GiB, 89.6 GB/s" */
        g_string_append_printf (out, _("System memory: %s, %s"), size, bandwidth);
    }
  return g_string_free (out, FALSE);
}

static void
update_detect_row (HrWindow *self)
{
  gboolean running = self->detect_cancellable != NULL;
  g_autofree char *text = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->detect_spinner), running);
  gtk_spinner_set_spinning (self->detect_spinner, running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.detect", !running);

  /* While detecting again, the last answer stays beside the spinner. */
  if (self->system_info != NULL)
    text = describe_detection (self);
  else
    text = g_strdup (running ? _("Detecting…") : "");
  adw_action_row_set_subtitle (self->detect_row, text);
}

static void
update_hardware_view (HrWindow *self)
{
  GtkWidget *view = adw_bin_get_child (self->hardware_slot);

  if (view != NULL)
    hr_hardware_view_set_local_device (HR_HARDWARE_VIEW (view), self->detected_hardware);
}

/* The device, the system memory, what to select. */
static void
apply_detection (HrWindow     *self,
                 HrSystemInfo *info)
{
  HrCatalog *catalog = hr_calculator_get_catalog (self->calculator);
  HrHardware *current = hr_calculator_get_hardware (self->calculator);
  HrHardware *select = NULL;
  HrLocalDevice *device;
  HrSystemMemory ram = { 0, 0 };
  gboolean first_pick = FALSE;
  g_autoptr(HrCpu) cpu = NULL;

  g_set_object (&self->system_info, info);
  g_clear_object (&self->local_devices);
  self->local_devices = hr_local_devices_new (catalog, info);
  hr_local_devices_add_to_catalog (self->local_devices, catalog);
  device = picked_device (self);
  g_clear_object (&self->detected_hardware);
  if (device != NULL)
    self->detected_hardware = g_object_ref (hr_local_device_get_hardware (device));

  if (self->detect_announce)
    select = self->detected_hardware;
  else if (self->pending_hardware != NULL)
    select = hr_catalog_find_hardware (catalog, self->pending_hardware);
  else if (self->select_unless_changed != NULL && current != NULL &&
           g_strcmp0 (hr_hardware_get_id (current), self->select_unless_changed) == 0)
    {
      select = self->detected_hardware;
      /* issue 26: a first start shows what this computer can run */
      first_pick = select != NULL;
    }
  g_clear_pointer (&self->pending_hardware, g_free);
  g_clear_pointer (&self->select_unless_changed, g_free);

  ram.bytes = hr_system_info_get_ram_total_bytes (info);
  if (ram.bytes > 0)
    ram.bandwidth_gbps = hr_system_info_get_ram_bandwidth_gbps (info);

  /* The CPU: the catalog's entry of the detected name, else one made of
   * what was detected (cores, SIMD flags, base clock, the RAM's speed). */
  if (hr_system_info_get_cpu_cores (info) > 0)
    {
      const char *simd = hr_system_info_get_cpu_simd (info);

      cpu = hr_cpu_find_by_name (hr_catalog_get_cpus (catalog),
                                 hr_system_info_get_cpu_model (info));
      if (cpu != NULL)
        g_object_ref (cpu);
      else
        cpu = hr_cpu_new_detected (hr_system_info_get_cpu_model (info),
                                   hr_system_info_get_cpu_cores (info),
                                   simd == NULL || g_str_equal (simd, "none")
                                   ? HR_CPU_FLOPS_PER_CYCLE_OTHER : HR_CPU_FLOPS_PER_CYCLE_AVX2,
                                   hr_system_info_get_cpu_base_ghz (info),
                                   hr_system_info_get_ram_bandwidth_gbps (info));
    }

  /* One run for all. */
  hr_calculator_freeze (self->calculator);
  if (select != NULL)
    hr_calculator_set_hardware (self->calculator, select);
  if (ram.bytes > 0)
    hr_calculator_set_ram (self->calculator, &ram);
  if (cpu != NULL)
    hr_calculator_set_cpu (self->calculator, cpu);
  hr_calculator_thaw (self->calculator);

  /* …unless the user went to another view meanwhile */
  if (first_pick &&
      g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "overview") == 0)
    adw_view_stack_set_visible_child_name (self->view_stack, "recommend");

  update_hardware_view (self);

  if (self->detect_announce)
    {
      g_autofree char *message = NULL;

      if (device != NULL)
        /* TRANSLATORS: a toast after "Detect": "Using RTX 3060 12GB, found on this computer" */
        message = g_strdup_printf (_("Using %s, found on this computer"), device_name (device));
      else
        message = g_strdup (_("No GPU detected; the device is unchanged"));
      toast (self, message);
    }
}

/* Detection holds the window weakly: a closed window is disposed at once,
 * which cancels detection and kills the NVML helper; a strong reference
 * would keep it, and the helper, until the helper's time limit. */
static void
on_detected (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(HrWindow) self = g_weak_ref_get (weak);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrSystemInfo) info = hr_detect_system_finish (result, &error);

  g_weak_ref_clear (weak);
  g_free (weak);

  /* Cancelled: the window was closed. */
  if (self == NULL || self->detect_cancellable == NULL || info == NULL)
    return;

  g_clear_object (&self->detect_cancellable);
  apply_detection (self, info);
  self->detect_announce = FALSE;
  update_detect_row (self);
}

static void
start_detection (HrWindow *self,
                 gboolean  announce)
{
  GWeakRef *weak;

  if (self->detect_cancellable != NULL)
    return;
  weak = g_new0 (GWeakRef, 1);
  g_weak_ref_init (weak, self);
  self->detect_cancellable = g_cancellable_new ();
  self->detect_announce = announce;
  hr_detect_system_async (NULL, self->detect_cancellable, on_detected, weak);
  update_detect_row (self);
}

static void
detect_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  start_detection (HR_WINDOW (widget), TRUE);
}

/* ------------------------------------------------------- models on disk */

/* "~/.cache/huggingface/hub/…" */
static char *
display_path (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize length = strlen (home);

  if (length > 1 && g_str_has_prefix (path, home) && path[length] == G_DIR_SEPARATOR)
    return g_strconcat ("~", path + length, NULL);
  return g_strdup (path);
}

char *
_hr_local_model_title (HrLocalModel *found)
{
  return g_strdup (hr_local_model_get_name (found));
}

/* "Hugging Face · 15.26 GiB · bfloat16" and the path below. */
char *
_hr_local_model_subtitle (HrLocalModel *found)
{
  g_autofree char *size = hr_format_size (hr_local_model_get_weights_bytes (found),
                                          HR_UNITS_BINARY);
  g_autofree char *path = display_path (hr_local_model_get_path (found));
  const char *dtype = hr_local_model_get_dtype (found);

  if (dtype != NULL)
    return g_strdup_printf ("%s · %s · %s\n%s",
                            hr_local_source_get_label (hr_local_model_get_source (found)),
                            size, dtype, path);
  return g_strdup_printf ("%s · %s\n%s",
                          hr_local_source_get_label (hr_local_model_get_source (found)),
                          size, path);
}

char *
_hr_local_model_search_text (HrLocalModel *found)
{
  g_autofree char *text =
    g_strjoin (" ", hr_local_model_get_name (found),
               hr_local_source_get_label (hr_local_model_get_source (found)),
               hr_local_model_get_path (found), NULL);

  return g_utf8_strdown (text, -1);
}

/* The local models, then the catalog's, for the model picker. */
GListModel *
_hr_window_detect_model_items (HrWindow *self)
{
  if (self->model_items == NULL)
    {
      GListStore *lists = g_list_store_new (G_TYPE_LIST_MODEL);

      self->local_models = g_list_store_new (HR_TYPE_LOCAL_MODEL);
      g_list_store_append (lists, self->local_models);
      g_list_store_append (lists,
                           hr_catalog_get_models (hr_calculator_get_catalog (self->calculator)));
      self->model_items = gtk_flatten_list_model_new (G_LIST_MODEL (lists));
    }
  return G_LIST_MODEL (self->model_items);
}

static void
on_scanned (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(HrWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrLocalScan) scan = hr_model_import_scan_finish (result, &error);
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GString) status = g_string_new (NULL);
  GListModel *models;

  /* Cancelled: the window was closed. */
  if (self->scan_cancellable == NULL || scan == NULL)
    return;
  g_clear_object (&self->scan_cancellable);
  self->scanned = TRUE;

  /* Only what could be read as a model is offered. */
  models = hr_local_scan_get_models (scan);
  for (guint i = 0; i < g_list_model_get_n_items (models); i++)
    {
      g_autoptr(HrLocalModel) model = g_list_model_get_item (models, i);

      if (hr_local_model_get_model (model) != NULL)
        g_ptr_array_add (found, g_steal_pointer (&model));
    }
  g_list_store_splice (self->local_models, 0,
                       g_list_model_get_n_items (G_LIST_MODEL (self->local_models)),
                       found->pdata, found->len);

  if (found->len == 0)
    g_string_append (status, _("No models found in the Hugging Face cache or the Ollama, "
                               "LM Studio and llama.cpp folders"));
  else
    g_string_append_printf (status, ngettext ("%u model found on this computer",
                                              "%u models found on this computer", found->len),
                            found->len);
  if (hr_local_scan_is_truncated (scan))
    {
      g_string_append (status, " — ");
      g_string_append (status, _("the search stopped at its limit, so the list may be "
                                 "incomplete"));
    }
  hr_picker_set_status (self->model_picker, status->str, FALSE);
}

static void
start_scan (HrWindow *self)
{
  if (self->scan_cancellable != NULL)
    return;
  self->scan_cancellable = g_cancellable_new ();
  hr_picker_set_status (self->model_picker, _("Looking for models on this computer…"), TRUE);
  hr_model_import_scan_async (NULL, NULL, self->scan_cancellable, on_scanned,
                              g_object_ref (self));
}

/* The models on disk are looked for when they are first wanted. */
static void
on_model_picker_opened (HrWindow *self)
{
  if (!self->scanned)
    start_scan (self);
}

static void
find_local_models_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);

  start_scan (self);
  adw_flap_set_reveal_flap (self->flap, TRUE);
  hr_picker_popup (self->model_picker);
}

/**
 * _hr_window_import_local_model:
 *
 * A model picked “On this computer”: added to the user catalog (saved in
 * the user directory) and selected, as a dropped file is.
 */
void
_hr_window_import_local_model (HrWindow     *self,
                               HrLocalModel *found)
{
  HrModelSpec *model = hr_local_model_get_model (found);

  if (model == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not import %s: %s"),
                                                  hr_local_model_get_name (found),
                                                  hr_local_model_get_error (found));
      toast (self, message);
    }
  else
    _hr_window_import_model (self, model, hr_local_model_get_name (found));

  /* The picker shows the calculator's model, not the file. */
  hr_picker_set_selected (self->model_picker,
                          G_OBJECT (hr_calculator_get_model (self->calculator)));
}

/* ------------------------------------------------------ devices by hand */

/* Devices added by hand are edited; one made from detected figures is
 * the start of one. */
static gboolean
is_editable (HrHardware *hardware)
{
  return hardware != NULL &&
         (hr_hardware_is_custom (hardware) ||
          g_str_has_prefix (hr_hardware_get_id (hardware), HR_LOCAL_DEVICE_ID));
}

static void
sync_edit_button (HrWindow *self)
{
  gtk_widget_set_visible (self->edit_device_button,
                          is_editable (hr_calculator_get_hardware (self->calculator)));
}

static void
on_device_saved (HrWindow       *self,
                 HrHardware     *device,
                 HrDeviceEditor *editor)
{
  g_autofree char *message = NULL;

  hr_calculator_set_hardware (self->calculator, device);
  /* TRANSLATORS: a toast: "Saved RTX 2080 Ti 11GB" */
  message = g_strdup_printf (_("Saved %s"), hr_hardware_get_name (device));
  toast (self, message);
}

/* The device removed was perhaps the current one: this computer's, or the
 * default, takes its place. */
static void
on_device_removed (HrWindow       *self,
                   const char     *id,
                   HrDeviceEditor *editor)
{
  HrCatalog *catalog = hr_calculator_get_catalog (self->calculator);
  HrHardware *current = hr_calculator_get_hardware (self->calculator);
  HrHardware *removed = hr_device_editor_get_device (editor);
  g_autofree char *message = NULL;

  if (current != NULL && g_strcmp0 (hr_hardware_get_id (current), id) == 0)
    {
      HrHardware *fallback = self->detected_hardware;

      if (fallback == NULL ||
          hr_catalog_find_hardware (catalog, hr_hardware_get_id (fallback)) == NULL)
        fallback = hr_catalog_find_hardware (catalog, HR_DEFAULT_HARDWARE);
      if (fallback != NULL)
        hr_calculator_set_hardware (self->calculator, fallback);
    }
  /* TRANSLATORS: a toast: "Removed RTX 2080 Ti 11GB" */
  message = g_strdup_printf (_("Removed %s"),
                             removed != NULL ? hr_hardware_get_name (removed) : id);
  _hr_window_offer_undo (self, removed != NULL ? G_OBJECT (removed) : NULL, message);
}

static void
open_device_editor (HrWindow   *self,
                    HrHardware *device)
{
  g_autofree char *dir = hr_catalog_dup_user_dir ();
  HrDeviceEditor *editor = hr_device_editor_new (hr_calculator_get_catalog (self->calculator),
                                                 device, dir);

  gtk_window_set_transient_for (GTK_WINDOW (editor), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (editor), TRUE);
  g_signal_connect_object (editor, "saved", G_CALLBACK (on_device_saved), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (editor, "removed", G_CALLBACK (on_device_removed), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (editor));
}

static void
add_device_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  open_device_editor (HR_WINDOW (widget), NULL);
}

static void
edit_device_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  HrWindow *self = HR_WINDOW (widget);
  HrHardware *current = hr_calculator_get_hardware (self->calculator);

  if (is_editable (current))
    open_device_editor (self, current);
}

/* ---------------------------------------------------------------- set-up */

void
_hr_window_class_detect_init (HrWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.detect", NULL, detect_action);
  gtk_widget_class_install_action (widget_class, "win.find-local-models", NULL,
                                   find_local_models_action);
  gtk_widget_class_install_action (widget_class, "win.add-device", NULL, add_device_action);
  gtk_widget_class_install_action (widget_class, "win.edit-device", NULL, edit_device_action);
}

/* After the settings are restored: detection starts, in a worker thread. */
void
_hr_window_detect_init (HrWindow *self)
{
  HrCatalog *catalog = hr_calculator_get_catalog (self->calculator);
  HrHardware *current = hr_calculator_get_hardware (self->calculator);
  gboolean first_start = TRUE;

  if (self->settings != NULL)
    {
      g_autoptr(GVariant) saved = g_settings_get_user_value (self->settings, "hardware");
      const char *id = saved != NULL ? g_variant_get_string (saved, NULL) : NULL;

      first_start = saved == NULL;
      /* A detected device is in the catalog once detected again. */
      if (id != NULL && g_str_has_prefix (id, HR_LOCAL_DEVICE_ID) &&
          hr_catalog_find_hardware (catalog, id) == NULL)
        self->pending_hardware = g_strdup (id);
    }
  if (first_start && current != NULL)
    self->select_unless_changed = g_strdup (hr_hardware_get_id (current));

  g_signal_connect_object (self->calculator, "notify::hardware",
                           G_CALLBACK (sync_edit_button), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self, "notify::units",
                           G_CALLBACK (update_detect_row), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model_picker, "opened",
                           G_CALLBACK (on_model_picker_opened), self, G_CONNECT_SWAPPED);
  sync_edit_button (self);

  start_detection (self, FALSE);
}

/* A view was built: the hardware view learns this computer's device. */
void
_hr_window_detect_view_built (HrWindow  *self,
                              GtkWidget *view)
{
  if (HR_IS_HARDWARE_VIEW (view))
    hr_hardware_view_set_local_device (HR_HARDWARE_VIEW (view), self->detected_hardware);
}

void
_hr_window_detect_dispose (HrWindow *self)
{
  if (self->detect_cancellable != NULL)
    g_cancellable_cancel (self->detect_cancellable);
  g_clear_object (&self->detect_cancellable);
  if (self->scan_cancellable != NULL)
    g_cancellable_cancel (self->scan_cancellable);
  g_clear_object (&self->scan_cancellable);
  g_clear_object (&self->system_info);
  g_clear_object (&self->local_devices);
  g_clear_object (&self->detected_hardware);
  g_clear_pointer (&self->select_unless_changed, g_free);
  g_clear_pointer (&self->pending_hardware, g_free);
  g_clear_object (&self->model_items);
  g_clear_object (&self->local_models);
}

/* ----------------------------------------------------------- public API */

/**
 * hr_window_detect:
 *
 * Detects this computer again and uses its device, as the “Detect”
 * button does.
 */
void
hr_window_detect (HrWindow *self)
{
  g_return_if_fail (HR_IS_WINDOW (self));
  start_detection (self, TRUE);
}

/**
 * hr_window_is_busy:
 *
 * Whether detection or the search for models on disk is under way.  For
 * tests.
 */
gboolean
hr_window_is_busy (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), FALSE);
  return self->detect_cancellable != NULL || self->scan_cancellable != NULL;
}
