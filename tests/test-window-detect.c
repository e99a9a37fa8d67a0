/* test-window-detect.c — the window and this computer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Detection is stubbed as in test-detect: a fake /sys and /proc
 * (HEADROOM_SYSROOT) and a stub NVML (HEADROOM_NVML_LIBRARY); the models
 * on disk are fake Hugging Face, Ollama, LM Studio and llama.cpp trees in
 * a fake home.  Runs under xvfb-run with GTK_A11Y=none,
 * GSETTINGS_BACKEND=memory and G_DEBUG=fatal-criticals.
 */

#include "config.h"

#include <adwaita.h>
#include <errno.h>
#include <signal.h>

#include "fake-trees.h"
#include "hr-device-editor.h"
#include "hr-hardware-view.h"
#include "hr-local-device.h"
#include "hr-picker.h"
#include "hr-test-util.h"
#include "hr-window.h"
#include "hr-test-app.h"

static char *home;

/* ------------------------------------------------------------- helpers */

static gboolean
is_done (gpointer window)
{
  return !hr_window_is_busy (window);
}

/* Until detection and the model search are over. */
static void
wait_idle (HrWindow *window)
{
  hr_test_wait_until (is_done, window, "detection and the model search to end");
  hr_test_iterate ();
}

static GtkWidget *
find_widget (GtkWidget *widget,
             GType      type,
             guint     *nth)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    {
      if (*nth == 0)
        return widget;
      (*nth)--;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type, nth);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
nth_widget (GtkWidget *root,
            GType      type,
            guint      nth)
{
  return find_widget (root, type, &nth);
}

/* The hardware view's “Fits this computer” button. */
static GtkToggleButton *
find_fits_button (GtkWidget *view)
{
  for (guint i = 0;; i++)
    {
      GtkWidget *button = nth_widget (view, GTK_TYPE_TOGGLE_BUTTON, i);

      g_assert_nonnull (button);
      if (g_strcmp0 (gtk_button_get_label (GTK_BUTTON (button)), "_Fits this computer") == 0)
        return GTK_TOGGLE_BUTTON (button);
    }
}

/* The widget with this action, e.g. the Detect button. */
static GtkWidget *
find_actionable (GtkWidget  *widget,
                 const char *action)
{
  if (GTK_IS_ACTIONABLE (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_actionable (child, action);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The action row titled @title. */
static AdwActionRow *
find_row (GtkWidget  *widget,
          const char *title)
{
  for (guint i = 0;; i++)
    {
      GtkWidget *row = nth_widget (widget, ADW_TYPE_ACTION_ROW, i);

      g_assert_nonnull (row);
      if (g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), title) == 0)
        return ADW_ACTION_ROW (row);
    }
}

static void
collect_labels (GtkWidget *widget,
                GString   *out)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    {
      g_string_append (out, gtk_label_get_label (GTK_LABEL (widget)));
      g_string_append_c (out, '\n');
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, out);
}

static void
assert_shows (const char *text,
              const char *expected)
{
  if (strstr (text, expected) == NULL)
    g_error ("“%s” is not shown; what is:\n%s", expected, text);
}

static void
use_system (const char *scenario,
            const char *nvml)
{
  g_autofree char *root = g_build_filename (home, "sys", scenario, NULL);
  g_autofree char *library = NULL;

  if (!g_file_test (root, G_FILE_TEST_IS_DIR))
    hr_fake_system_write (root, scenario);
  if (g_strcmp0 (nvml, "good") == 0)
    library = g_build_filename (g_getenv ("HEADROOM_NVML_STUB_DIR"), "libnvidia-ml.so.1", NULL);
  else if (nvml != NULL)
    library = g_strdup_printf ("%s/libnvml-stub-%s.so", g_getenv ("HEADROOM_NVML_STUB_DIR"),
                               nvml);
  g_setenv ("HEADROOM_SYSROOT", root, TRUE);
  g_setenv ("HEADROOM_NVML_LIBRARY", library != NULL ? library : "", TRUE);
}

/* What the core detects, independently of the window: the device to
 * pick and the text the window should say about it. */
static char *
expected_detected (HrCatalog     *catalog,
                   HrSystemInfo **info_out,
                   char         **id_out)
{
  g_autoptr(HrSystemInfo) info = hr_detect_system (NULL, NULL);
  g_autoptr(GListModel) devices = hr_local_devices_new (catalog, info);
  HrLocalDevice *device = hr_local_devices_pick (devices);
  g_autofree char *summary = NULL;

  g_assert_nonnull (device);
  summary = hr_local_device_dup_summary (device, HR_UNITS_BINARY);
  if (id_out != NULL)
    *id_out = g_strdup (hr_hardware_get_id (hr_local_device_get_hardware (device)));
  if (info_out != NULL)
    *info_out = g_steal_pointer (&info);
  return g_strconcat ("Detected: ", summary, NULL);
}

static GSettings *
app_settings (void)
{
  return g_settings_new ("io.github.headroom_app.Headroom");
}

static void
reset_settings (void)
{
  g_autoptr(GSettings) settings = app_settings ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i]; i++)
    g_settings_reset (settings, keys[i]);
}

static HrWindow *
window_new_unshown (void)
{
  AdwApplication *app = g_object_get_data (G_OBJECT (g_application_get_default ()), "app");
  HrWindow *window = hr_window_new (GTK_APPLICATION (app));

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  return window;
}

static HrWindow *
new_window (void)
{
  HrWindow *window = window_new_unshown ();

  gtk_window_present (GTK_WINDOW (window));
  wait_idle (window);
  return window;
}

static void
close_window (HrWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_iterate ();
  reset_settings ();
}

static const char *
hardware_id (HrWindow *window)
{
  return hr_hardware_get_id (hr_calculator_get_hardware (hr_window_get_calculator (window)));
}

static const char *
detect_text (HrWindow *window)
{
  return adw_action_row_get_subtitle (find_row (GTK_WIDGET (window), "This computer"));
}

/* The process id the blocking stub NVML writes once it runs in the
 * helper; 0 before. */
static GPid
stub_pid (const char *pidfile)
{
  g_autofree char *text = NULL;
  guint64 pid = 0;

  if (!g_file_get_contents (pidfile, &text, NULL, NULL))
    return 0;
  g_assert_true (g_ascii_string_to_unsigned (g_strstrip (text), 10, 2, G_MAXINT, &pid, NULL));
  return pid;
}

/* The name of the view shown. */
static const char *
visible_view (HrWindow *window)
{
  GtkWidget *overview = hr_window_get_view (window, "overview");

  return adw_view_stack_get_visible_child_name (
    ADW_VIEW_STACK (gtk_widget_get_ancestor (overview, ADW_TYPE_VIEW_STACK)));
}

/* --------------------------------------------------------------- tests */

/* First start: the detected card is selected and said, with its free
 * memory; the detected RAM becomes the placement's. */
static void
test_first_start (void)
{
  HrCatalog *catalog = hr_catalog_get_default ();
  g_autoptr(HrSystemInfo) info = NULL;
  g_autofree char *id = NULL;
  g_autofree char *expected = NULL;
  HrWindow *window;
  const HrSystemMemory *ram;

  use_system ("amd", NULL);
  expected = expected_detected (catalog, &info, &id);
  g_assert_cmpstr (id, ==, "radeon-rx-7900-xtx-24gb");

  window = new_window ();
  g_assert_cmpstr (hardware_id (window), ==, "radeon-rx-7900-xtx-24gb");
  assert_shows (detect_text (window), expected);
  assert_shows (detect_text (window), "\u00a0GiB free");
  assert_shows (detect_text (window), "System memory: ");
  ram = hr_calculator_get_ram (hr_window_get_calculator (window));
  g_assert_cmpuint (ram->bytes, ==, hr_system_info_get_ram_total_bytes (info));
  g_assert_cmpuint (ram->bytes, >, 0);
  g_assert_cmpfloat (ram->bandwidth_gbps, ==, hr_system_info_get_ram_bandwidth_gbps (info));
  /* issue 26: a first start shows what the detected card can run */
  g_assert_cmpstr (visible_view (window), ==, "recommend");
  close_window (window);
}

/* Two NVIDIA cards through the stub NVML: the first is picked, the other
 * named. */
static void
test_first_start_nvml (void)
{
  g_autofree char *expected = NULL;
  HrWindow *window;

  use_system ("nvidia-sysfs", "good");
  expected = expected_detected (hr_catalog_get_default (), NULL, NULL);
  g_assert_cmpstr (expected, ==, "Detected: RTX 3060 12GB, 11.35\u00a0GiB free");

  window = new_window ();
  g_assert_cmpstr (hardware_id (window), ==, "rtx-3060-12gb");
  assert_shows (detect_text (window), expected);
  assert_shows (detect_text (window), "Also detected: RTX 4090 24GB");
  close_window (window);
}

/* A device saved by the user is kept; so is one chosen while detecting;
 * the RAM is still this computer's. */
static void
test_saved_device_kept (void)
{
  g_autoptr(GSettings) settings = app_settings ();
  HrCatalog *catalog = hr_catalog_get_default ();
  HrWindow *window;

  use_system ("amd", NULL);
  g_settings_set_string (settings, "hardware", "rtx-4090-24gb");
  window = new_window ();
  g_assert_cmpstr (hardware_id (window), ==, "rtx-4090-24gb");
  assert_shows (detect_text (window), "Detected: Radeon RX 7900 XTX");
  /* not a first start: the Overview stays */
  g_assert_cmpstr (visible_view (window), ==, "overview");
  g_assert_cmpuint (hr_calculator_get_ram (hr_window_get_calculator (window))->bytes, >, 0);
  close_window (window);

  /* first start, but the user picks a device before detection ends */
  window = window_new_unshown ();
  hr_calculator_set_hardware (hr_window_get_calculator (window),
                              hr_catalog_find_hardware (catalog, "a100-sxm-80gb"));
  gtk_window_present (GTK_WINDOW (window));
  wait_idle (window);
  g_assert_cmpstr (hardware_id (window), ==, "a100-sxm-80gb");
  close_window (window);
}

/* Nothing detected: the default stays, and the row says so plainly. */
static void
test_nothing_detected (void)
{
  HrWindow *window;
  GtkWidget *view;

  use_system ("empty", NULL);
  window = new_window ();
  g_assert_cmpstr (hardware_id (window), ==, "rtx-3060-12gb");
  g_assert_cmpstr (detect_text (window), ==, "No GPU detected: choose your device above");
  /* no RAM read: the stated assumption stays */
  g_assert_cmpuint (hr_calculator_get_ram (hr_window_get_calculator (window))->bytes, ==, 0);
  view = hr_window_get_view (window, "hardware");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (find_fits_button (view))));
  close_window (window);
}

/* The NVIDIA library crashes: the row says so in one line, under the
 * card sysfs found, which is used. */
static void
test_gpu_detection_failed (void)
{
  HrWindow *window;

  use_system ("nvidia-sysfs", "crash");
  window = new_window ();
  g_assert_cmpstr (hardware_id (window), ==, "rtx-3060-12gb");
  assert_shows (detect_text (window), "Detected: RTX 3060 12GB");
  assert_shows (detect_text (window),
                "\nGPU detection failed: libnvml-stub-crash.so crashed (signal ");
  assert_shows (detect_text (window), "System memory: ");
  close_window (window);
}

/* The NVIDIA library never finishes loading: closing the window stops
 * detection at once, its helper is killed long before its limit. */
static void
test_close_while_detecting (void)
{
  g_autofree char *pidfile = g_build_filename (home, "stub.pid", NULL);
  g_autofree char *saved_limit = g_strdup (g_getenv ("HEADROOM_NVML_TIMEOUT_MS"));
  HrWindow *window;
  gint64 closed, end;
  GPid pid;

  use_system ("nvidia-sysfs", "block");
  /* a limit no test waits for */
  g_setenv ("HEADROOM_NVML_TIMEOUT_MS", "60000", TRUE);
  g_setenv ("HEADROOM_NVML_STUB_PIDFILE", pidfile, TRUE);
  window = window_new_unshown ();
  gtk_window_present (GTK_WINDOW (window));
  while ((pid = stub_pid (pidfile)) == 0)
    g_main_context_iteration (NULL, FALSE);
  g_setenv ("HEADROOM_NVML_TIMEOUT_MS", saved_limit, TRUE);
  g_unsetenv ("HEADROOM_NVML_STUB_PIDFILE");
  g_assert_true (hr_window_is_busy (window));
  assert_shows (detect_text (window), "Detecting…");

  closed = g_get_monotonic_time ();
  close_window (window);
  /* Killed on close, not at the 60 s limit. */
  end = closed + 10 * G_USEC_PER_SEC;
  while (!(kill (pid, 0) != 0 && errno == ESRCH))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_test_message ("helper gone %.0f ms after the window closed",
                  (g_get_monotonic_time () - closed) / 1000.0);
}

/* The Detect button: a spinner while it runs, then the detected device
 * is used again. */
static void
test_redetect (void)
{
  HrCatalog *catalog = hr_catalog_get_default ();
  HrWindow *window;
  GtkWidget *button;
  GtkWidget *spinner;
  AdwActionRow *row;

  use_system ("amd", NULL);
  window = new_window ();
  hr_calculator_set_hardware (hr_window_get_calculator (window),
                              hr_catalog_find_hardware (catalog, "rtx-4090-24gb"));
  hr_test_iterate ();

  row = find_row (GTK_WIDGET (window), "This computer");
  button = find_actionable (GTK_WIDGET (row), "win.detect");
  spinner = nth_widget (GTK_WIDGET (row), GTK_TYPE_SPINNER, 0);
  g_assert_nonnull (button);
  g_assert_false (gtk_widget_get_visible (spinner));
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (hr_window_is_busy (window));
  g_assert_true (gtk_widget_get_visible (spinner));
  g_assert_true (gtk_spinner_get_spinning (GTK_SPINNER (spinner)));
  g_assert_false (gtk_widget_is_sensitive (button));
  /* the last answer stays while detecting again */
  assert_shows (detect_text (window), "Detected: Radeon RX 7900 XTX");

  wait_idle (window);
  g_assert_false (gtk_widget_get_visible (spinner));
  g_assert_true (gtk_widget_is_sensitive (button));
  g_assert_cmpstr (hardware_id (window), ==, "radeon-rx-7900-xtx-24gb");
  close_window (window);
}

/* The model picker lists the models on disk when first opened, not
 * before; picking one imports it. */
static void
test_local_models (void)
{
  HrWindow *window;
  HrPicker *picker;
  HrCalculator *calc;
  GtkWidget *list;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *saved = g_build_filename (g_get_user_data_dir (), "headroom",
                                             "imported-models.json", NULL);
  GtkListBoxRow *row = NULL;

  use_system ("empty", NULL);
  hr_fake_models_write (home);
  window = new_window ();
  calc = hr_window_get_calculator (window);
  picker = HR_PICKER (nth_widget (GTK_WIDGET (window), HR_TYPE_PICKER, 0));

  /* lazy: nothing is scanned until the picker opens */
  g_assert_false (hr_window_is_busy (window));
  g_assert_null (hr_picker_get_status (picker));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.search-model", NULL));
  g_assert_true (hr_window_is_busy (window));
  g_assert_cmpstr (hr_picker_get_status (picker), ==, "Looking for models on this computer…");
  wait_idle (window);
  g_assert_cmpstr (hr_picker_get_status (picker), ==, "7 models found on this computer");

  list = nth_widget (GTK_WIDGET (picker), GTK_TYPE_LIST_BOX, 0);
  collect_labels (list, text);
  assert_shows (text->str, "On this computer\n");
  assert_shows (text->str, "Qwen/Qwen3-8B\nHugging Face · 15.26\u00a0GiB · bfloat16\n"
                "~/.cache/huggingface/hub/models--Qwen--Qwen3-8B/snapshots/");
  assert_shows (text->str, "tiny:latest\nOllama · ");
  assert_shows (text->str, "~/.ollama/models/blobs/sha256-");
  assert_shows (text->str, "meta-llama/Llama-3.2-1B-Instruct");
  assert_shows (text->str, "lmstudio-community/Tiny-GGUF/tiny-Q8_0.gguf\nLM Studio");
  assert_shows (text->str, "llama.cpp · ");
  /* the catalog follows */
  assert_shows (text->str, "GLM-4-9B-0414");
  /* the projector, the escapes and the broken manifests are not models */
  g_assert_null (strstr (text->str, "mmproj"));
  g_assert_null (strstr (text->str, "evil"));

  /* pick the Ollama model, as Enter or a click does */
  for (GtkWidget *child = gtk_widget_get_first_child (list); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      g_autoptr(GString) row_text = g_string_new (NULL);

      collect_labels (child, row_text);
      if (GTK_IS_LIST_BOX_ROW (child) && g_str_has_prefix (row_text->str, "tiny:latest\n"))
        row = GTK_LIST_BOX_ROW (child);
    }
  g_assert_nonnull (row);
  g_signal_emit_by_name (list, "row-activated", row);
  hr_test_iterate ();
  g_assert_cmpstr (hr_model_spec_get_id (hr_calculator_get_model (calc)), ==, "tiny:latest");
  g_assert_cmpint (hr_model_spec_get_origin (hr_calculator_get_model (calc)), ==,
                   HR_ORIGIN_USER);
  g_assert_true (g_file_test (saved, G_FILE_TEST_EXISTS));
  /* the picker shows the model, not the file */
  g_assert_true (hr_picker_get_selected (picker) == G_OBJECT (hr_calculator_get_model (calc)));

  /* scanned once per window */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.search-model", NULL));
  g_assert_false (hr_window_is_busy (window));
  close_window (window);
}

static guint
n_shown (GtkWidget *view)
{
  GtkColumnView *column_view = GTK_COLUMN_VIEW (nth_widget (view, GTK_TYPE_COLUMN_VIEW, 0));

  return g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (column_view)));
}

/* “Fits this computer”: at most the detected card's memory, and it. */
static void
test_fits_filter (void)
{
  HrWindow *window;
  GtkWidget *view;
  GtkToggleButton *fits;
  GListModel *rows;
  guint all, fitting;
  gboolean found_local = FALSE;
  g_autoptr(GString) text = g_string_new (NULL);

  use_system ("amd", NULL);
  window = new_window ();
  view = hr_window_get_view (window, "hardware");
  hr_window_show_view (window, "hardware");
  hr_test_iterate ();
  fits = find_fits_button (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fits)));

  all = n_shown (view);
  gtk_toggle_button_set_active (fits, TRUE);
  hr_test_iterate ();
  fitting = n_shown (view);
  g_assert_cmpuint (fitting, <, all);
  g_assert_cmpuint (fitting, >, 1);

  rows = G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (
           nth_widget (view, GTK_TYPE_COLUMN_VIEW, 0))));
  for (guint i = 0; i < fitting; i++)
    {
      g_autoptr(HrHardwareRow) row = g_list_model_get_item (rows, i);
      HrHardware *hardware = hr_hardware_row_get_hardware (row);

      g_assert_cmpuint (hr_hardware_get_memory_bytes (hardware), <=, 24ull << 30);
      found_local |= g_str_equal (hr_hardware_get_id (hardware), "radeon-rx-7900-xtx-24gb");
    }
  g_assert_true (found_local);
  collect_labels (view, text);
  assert_shows (text->str, "Devices with at most 24\u00a0GiB of memory, like this computer’s "
                "Radeon RX 7900 XTX 24GB.");

  gtk_toggle_button_set_active (fits, FALSE);
  hr_test_iterate ();
  g_assert_cmpuint (n_shown (view), ==, all);
  close_window (window);
}

static HrDeviceEditor *
find_editor (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (HR_IS_DEVICE_EDITOR (window) && gtk_widget_get_visible (window))
        return HR_DEVICE_EDITOR (window);
    }
  return NULL;
}

/* Add a device from the menu: saved, selected, editable, found again by a
 * fresh catalog and by the next window; removed from the edit button. */
static void
test_device_editor (void)
{
  HrWindow *window;
  HrDeviceEditor *editor;
  HrHardware *device;
  g_autoptr(HrCatalog) reloaded = NULL;
  g_autofree char *id = NULL;
  GtkWidget *edit_button;
  HrHardwareFields values = {
    .name = "RTX 2080 Ti 11GB", .vendor = "NVIDIA", .kind = HR_DEVICE_DISCRETE,
    .memory_gib = 11, .bandwidth_gbps = 616, .fp16_tflops = 107.6,
  };

  use_system ("amd", NULL);
  window = new_window ();
  edit_button = find_actionable (GTK_WIDGET (window), "win.edit-device");
  g_assert_false (gtk_widget_get_visible (edit_button));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.add-device", NULL));
  hr_test_iterate ();
  editor = find_editor ();
  g_assert_nonnull (editor);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (editor)) == GTK_WINDOW (window));
  hr_device_editor_set_from_fields (editor, &values);
  g_assert_true (hr_device_editor_save (editor));
  hr_test_iterate ();

  device = hr_calculator_get_hardware (hr_window_get_calculator (window));
  g_assert_true (hr_hardware_is_custom (device));
  g_assert_cmpstr (hr_hardware_get_name (device), ==, "RTX 2080 Ti 11GB");
  id = g_strdup (hr_hardware_get_id (device));
  g_assert_true (gtk_widget_get_visible (edit_button));

  reloaded = hr_catalog_new_default ();
  g_assert_nonnull (hr_catalog_find_hardware (reloaded, id));
  g_assert_cmpuint (hr_hardware_get_memory_bytes (hr_catalog_find_hardware (reloaded, id)), ==,
                    11ull << 30);

  /* the next start restores it */
  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_iterate ();
  window = new_window ();
  g_assert_cmpstr (hardware_id (window), ==, id);

  /* edit, then remove: this computer's device takes its place */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.edit-device", NULL));
  hr_test_iterate ();
  editor = find_editor ();
  g_assert_nonnull (editor);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (editor)), ==, "Edit Device");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.remove", NULL));
  hr_test_iterate ();
  g_assert_null (find_editor ());
  g_assert_cmpstr (hardware_id (window), ==, "radeon-rx-7900-xtx-24gb");
  g_assert_null (hr_catalog_find_hardware (hr_catalog_get_default (), id));

  /* Undo (the toast's button): the device is back, saved and chosen */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo-remove", NULL));
  hr_test_iterate ();
  g_assert_cmpstr (hardware_id (window), ==, id);
  g_assert_nonnull (hr_catalog_find_hardware (hr_catalog_get_default (), id));
  close_window (window);
}

/* A GPU the catalog does not know (here an integrated one) becomes this
 * computer's own device: selected, editable, remembered and made again
 * at the next start. */
static void
test_unknown_device (void)
{
  g_autoptr(GSettings) settings = app_settings ();
  g_autofree char *saved = NULL;
  HrWindow *window;

  use_system ("igpu", NULL);
  window = new_window ();
  g_assert_cmpstr (hardware_id (window), ==, HR_LOCAL_DEVICE_ID);
  g_assert_true (hr_hardware_is_unified (hr_calculator_get_hardware (
                   hr_window_get_calculator (window))));
  assert_shows (detect_text (window), "Detected: Intel UHD Graphics 770");
  g_assert_true (gtk_widget_get_visible (find_actionable (GTK_WIDGET (window),
                                                          "win.edit-device")));
  saved = g_settings_get_string (settings, "hardware");
  g_assert_cmpstr (saved, ==, HR_LOCAL_DEVICE_ID);

  /* next start: not first any more, the saved device is made again */
  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_iterate ();
  window = new_window ();
  g_assert_cmpstr (hardware_id (window), ==, HR_LOCAL_DEVICE_ID);
  close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = NULL;
  g_autofree char *data = NULL;
  g_autofree char *cache = NULL;
  int status;

  home = g_dir_make_tmp ("headroom-detect-XXXXXX", NULL);
  data = g_build_filename (home, "data", NULL);
  cache = g_build_filename (home, ".cache", NULL);
  /* This machine's catalog files and models must not count. */
  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_unsetenv ("HF_HOME");
  g_unsetenv ("HF_HUB_CACHE");
  g_unsetenv ("OLLAMA_MODELS");
  g_unsetenv ("LLAMA_CACHE");

  app = hr_test_app_register (&argc, &argv);

  g_test_add_func ("/window-detect/first-start", test_first_start);
  g_test_add_func ("/window-detect/first-start-nvml", test_first_start_nvml);
  g_test_add_func ("/window-detect/saved-device-kept", test_saved_device_kept);
  g_test_add_func ("/window-detect/nothing-detected", test_nothing_detected);
  g_test_add_func ("/window-detect/redetect", test_redetect);
  g_test_add_func ("/window-detect/gpu-detection-failed", test_gpu_detection_failed);
  g_test_add_func ("/window-detect/close-while-detecting", test_close_while_detecting);
  g_test_add_func ("/window-detect/local-models", test_local_models);
  g_test_add_func ("/window-detect/fits-filter", test_fits_filter);
  g_test_add_func ("/window-detect/device-editor", test_device_editor);
  g_test_add_func ("/window-detect/unknown-device", test_unknown_device);

  status = g_test_run ();
  hr_test_remove_temp_dir (home);
  return status;
}
