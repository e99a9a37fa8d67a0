/* test-device-editor.c — the device editor on its own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under xvfb-run with GTK_A11Y=none, GSK_RENDERER=cairo and
 * G_DEBUG=fatal-criticals.  The editor is not in the window yet; this
 * drives it as the window will: open, fill, save or remove.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "fake-trees.h"
#include "hr-device-editor.h"
#include "hr-test-util.h"
#include "hr-test-app.h"

static GtkWidget *find_widget (GtkWidget *widget,
                               GType      type,
                               guint      nth);

/* The button for @name: whether it can be clicked. */
static gboolean
button_sensitive (HrDeviceEditor *editor,
                  const char     *name)
{
  for (guint i = 0;; i++)
    {
      GtkWidget *button = find_widget (GTK_WIDGET (editor), GTK_TYPE_BUTTON, i);

      g_assert_nonnull (button);
      if (g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), name) == 0)
        return gtk_widget_is_sensitive (button) && gtk_widget_get_visible (button);
    }
}

/* What clicking its button does. */
static gboolean
activate (HrDeviceEditor *editor,
          const char     *name)
{
  if (!button_sensitive (editor, name))
    return FALSE;
  return gtk_widget_activate_action (GTK_WIDGET (editor), name, NULL);
}

static GtkWidget *
find_widget (GtkWidget *widget,
             GType      type,
             guint      nth)
{
  guint count = 0;
  GQueue queue = G_QUEUE_INIT;

  g_queue_push_tail (&queue, widget);
  while (!g_queue_is_empty (&queue))
    {
      GtkWidget *w = g_queue_pop_head (&queue);

      if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && count++ == nth)
        {
          g_queue_clear (&queue);
          return w;
        }
      for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL;
           c = gtk_widget_get_next_sibling (c))
        g_queue_push_tail (&queue, c);
    }
  return NULL;
}

static void
saved_cb (HrDeviceEditor *editor,
          HrHardware     *device,
          HrHardware    **out)
{
  g_set_object (out, device);
}

static void
removed_cb (HrDeviceEditor  *editor,
            const char      *id,
            char           **out)
{
  *out = g_strdup (id);
}

/* A new device: the fields typed in, Save, and it is in the catalog and
 * on disk. */
static void
test_add (HrTestDir     *fixture,
          gconstpointer  user_data)
{
  g_autoptr(HrDeviceEditor) editor = g_object_ref_sink (hr_device_editor_new (fixture->catalog,
                                                                              NULL, fixture->dir));
  g_autoptr(HrHardware) saved = NULL;
  g_autoptr(HrCatalog) reloaded = hr_test_builtin_catalog ();
  GtkEditable *name;
  GtkSpinButton *memory, *bandwidth;
  HrHardware *found;

  g_signal_connect (editor, "saved", G_CALLBACK (saved_cb), &saved);
  gtk_window_present (GTK_WINDOW (editor));
  hr_test_iterate ();

  /* Blank: nothing to save, and it says what is missing. */
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (editor)), ==, "Add Device");
  g_assert_cmpstr (hr_device_editor_get_message (editor), ==, "Give the device a name.");
  g_assert_false (activate (editor, "editor.save"));
  g_assert_false (hr_device_editor_save (editor));

  name = GTK_EDITABLE (find_widget (GTK_WIDGET (editor), ADW_TYPE_ENTRY_ROW, 0));
  memory = GTK_SPIN_BUTTON (find_widget (GTK_WIDGET (editor), GTK_TYPE_SPIN_BUTTON, 0));
  bandwidth = GTK_SPIN_BUTTON (find_widget (GTK_WIDGET (editor), GTK_TYPE_SPIN_BUTTON, 1));

  gtk_editable_set_text (name, "  RTX 2080 Ti  ");
  g_assert_cmpstr (hr_device_editor_get_message (editor), ==,
                   "The memory size must be more than 0 GiB.");
  gtk_spin_button_set_value (memory, 11);
  g_assert_cmpstr (hr_device_editor_get_message (editor), ==,
                   "The memory bandwidth must be more than 0 GB/s: it sets the generation speed.");
  gtk_spin_button_set_value (bandwidth, 616);
  g_assert_null (hr_device_editor_get_message (editor));

  /* The Save button's action. */
  g_assert_true (activate (editor, "editor.save"));
  hr_test_iterate ();
  g_assert_nonnull (saved);
  g_assert_cmpstr (hr_hardware_get_id (saved), ==, "custom-rtx-2080-ti");
  g_assert_cmpstr (hr_hardware_get_name (saved), ==, "RTX 2080 Ti");
  g_assert_cmpstr (hr_hardware_get_vendor (saved), ==, "NVIDIA");
  g_assert_false (hr_hardware_is_unified (saved));
  g_assert_true (hr_hardware_is_custom (saved));
  g_assert_true (hr_catalog_find_hardware (fixture->catalog, "custom-rtx-2080-ti") == saved);

  hr_catalog_load_user_dir (reloaded, fixture->dir);
  found = hr_catalog_find_hardware (reloaded, "custom-rtx-2080-ti");
  g_assert_nonnull (found);
  g_assert_cmpuint (hr_hardware_get_memory_bytes (found), ==, 11ull << 30);
}

/* A detected GPU the catalog does not know, filled in for the user. */
static void
test_prefill_unified (HrTestDir     *fixture,
                      gconstpointer  user_data)
{
  g_autoptr(HrDeviceEditor) editor = g_object_ref_sink (hr_device_editor_new (fixture->catalog,
                                                                              NULL, fixture->dir));
  HrHardwareFields values = {
    .name = "Radeon 8060S", .vendor = "AMD", .kind = HR_DEVICE_UNIFIED,
    .memory_gib = 128, .bandwidth_gbps = 256, .fp16_tflops = 59.4,
  };

  gtk_window_present (GTK_WINDOW (editor));
  hr_device_editor_set_from_fields (editor, &values);
  g_assert_null (hr_device_editor_get_message (editor));
  g_assert_true (hr_device_editor_save (editor));
  hr_test_iterate ();

  g_assert_true (hr_hardware_is_unified (hr_device_editor_get_device (editor)));
  g_assert_cmpstr (hr_hardware_get_family (hr_device_editor_get_device (editor)), ==, "amd-radeon");
  assert_close (hr_hardware_get_fp16_tflops (hr_device_editor_get_device (editor)), 59.4, 1e-9);
}

/* Editing a custom device keeps its id; removing takes it away. */
static void
test_edit_and_remove (HrTestDir     *fixture,
                      gconstpointer  user_data)
{
  HrHardwareFields values = {
    .id = "custom-box", .name = "Box", .vendor = "Intel", .kind = HR_DEVICE_DISCRETE,
    .memory_gib = 16, .bandwidth_gbps = 456, .custom = TRUE,
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHardware) box = hr_hardware_new_from_fields (&values, &error);
  g_autoptr(HrDeviceEditor) editor = NULL;
  g_autoptr(HrDeviceEditor) second = NULL;
  g_autoptr(HrHardware) saved = NULL;
  g_autofree char *removed = NULL;
  GtkSpinButton *memory;

  g_assert_no_error (error);
  g_assert_true (hr_catalog_save_custom_hardware (fixture->catalog, box, fixture->dir, &error));

  editor = g_object_ref_sink (hr_device_editor_new (fixture->catalog, box, fixture->dir));
  g_signal_connect (editor, "saved", G_CALLBACK (saved_cb), &saved);
  gtk_window_present (GTK_WINDOW (editor));
  hr_test_iterate ();
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (editor)), ==, "Edit Device");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (find_widget (GTK_WIDGET (editor),
                                                                     ADW_TYPE_ENTRY_ROW, 0))),
                   ==, "Box");
  memory = GTK_SPIN_BUTTON (find_widget (GTK_WIDGET (editor), GTK_TYPE_SPIN_BUTTON, 0));
  g_assert_cmpfloat (gtk_spin_button_get_value (memory), ==, 16);
  gtk_spin_button_set_value (memory, 24);
  g_assert_true (hr_device_editor_save (editor));
  g_assert_cmpstr (hr_hardware_get_id (saved), ==, "custom-box");
  g_assert_cmpuint (hr_hardware_get_memory_bytes (hr_catalog_find_hardware (fixture->catalog,
                                                                            "custom-box")),
                    ==, 24ull << 30);

  second = g_object_ref_sink (hr_device_editor_new (fixture->catalog, saved, fixture->dir));
  g_signal_connect (second, "removed", G_CALLBACK (removed_cb), &removed);
  gtk_window_present (GTK_WINDOW (second));
  hr_test_iterate ();
  g_assert_true (activate (second, "editor.remove"));
  hr_test_iterate ();
  g_assert_cmpstr (removed, ==, "custom-box");
  g_assert_null (hr_catalog_find_hardware (fixture->catalog, "custom-box"));
}

/* A save that fails says why and keeps the window open. */
static void
test_save_error (HrTestDir     *fixture,
                 gconstpointer  user_data)
{
  g_autoptr(HrDeviceEditor) editor = g_object_ref_sink (hr_device_editor_new (fixture->catalog,
                                                                              NULL,
                                                                              "/proc/headroom-no"));
  HrHardwareFields values = {
    .name = "Nowhere", .vendor = "NVIDIA", .memory_gib = 8, .bandwidth_gbps = 300,
  };

  gtk_window_present (GTK_WINDOW (editor));
  hr_device_editor_set_from_fields (editor, &values);
  g_assert_false (hr_device_editor_save (editor));
  hr_test_iterate ();
  g_assert_true (g_str_has_prefix (hr_device_editor_get_message (editor),
                                   "The device could not be saved: "));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (editor)));
  g_assert_null (hr_catalog_find_hardware (fixture->catalog, "custom-nowhere"));
}

/* A catalog device as the start of a custom one: a new id, nothing to
 * remove. */
static void
test_from_catalog_device (HrTestDir     *fixture,
                          gconstpointer  user_data)
{
  HrHardware *builtin = hr_catalog_find_hardware (fixture->catalog, "rtx-3060-12gb");
  g_autoptr(HrDeviceEditor) editor = g_object_ref_sink (hr_device_editor_new (fixture->catalog,
                                                                              builtin,
                                                                              fixture->dir));

  gtk_window_present (GTK_WINDOW (editor));
  hr_test_iterate ();
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (editor)), ==, "Add Device");
  g_assert_null (hr_device_editor_get_device (editor));
  g_assert_true (hr_device_editor_save (editor));
  g_assert_cmpstr (hr_hardware_get_id (hr_device_editor_get_device (editor)), ==,
                   "custom-rtx-3060-12gb");
  g_assert_true (hr_catalog_find_hardware (fixture->catalog, "rtx-3060-12gb") == builtin);
}

int
main (int    argc,
      char **argv)
{
  hr_test_init_isolated (&argc, &argv);
  adw_init ();

#define ADD(path, func) \
  g_test_add (path, HrTestDir, "test-device-editor", hr_test_dir_set_up, func, hr_test_dir_tear_down)
  ADD ("/device-editor/add", test_add);
  ADD ("/device-editor/prefill-unified", test_prefill_unified);
  ADD ("/device-editor/edit-and-remove", test_edit_and_remove);
  ADD ("/device-editor/save-error", test_save_error);
  ADD ("/device-editor/from-catalog-device", test_from_catalog_device);
#undef ADD

  return g_test_run ();
}
