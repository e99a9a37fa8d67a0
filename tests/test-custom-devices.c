/* test-custom-devices.c — devices added by hand, and the hardware
 * records' PCI ids
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "fake-trees.h"
#include "hr-calculator.h"
#include "hr-catalog-json.h"
#include "hr-hardware-table.h"
#include "hr-test-util.h"

static HrHardware *
custom (HrCatalog  *catalog,
        const char *name,
        double      memory_gib,
        double      bandwidth,
        GError    **error)
{
  g_autofree char *id = hr_catalog_dup_custom_hardware_id (catalog, name);
  HrHardwareFields values = {
    .id = id,
    .name = name,
    .vendor = "NVIDIA",
    .kind = HR_DEVICE_DISCRETE,
    .memory_gib = memory_gib,
    .bandwidth_gbps = bandwidth,
    .fp16_tflops = 88.5,
    .custom = TRUE,
  };

  return hr_hardware_new_from_fields (&values, error);
}

static void
test_save_reload_remove (HrTestDir     *fixture,
                         gconstpointer  user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHardware) hw = custom (fixture->catalog, "RTX 2080 Ti", 11, 616, &error);
  g_autoptr(HrHardware) edited = NULL;
  g_autoptr(HrCatalog) reloaded = hr_test_builtin_catalog ();
  g_autoptr(HrCatalog) again = hr_test_builtin_catalog ();
  g_autofree char *path = g_build_filename (fixture->dir, HR_CUSTOM_DEVICES_FILE, NULL);
  HrHardware *found;

  g_assert_no_error (error);
  g_assert_cmpstr (hr_hardware_get_id (hw), ==, "custom-rtx-2080-ti");
  g_assert_cmpstr (hr_hardware_get_family (hw), ==, "nvidia-geforce");
  g_assert_true (hr_hardware_is_custom (hw));

  g_assert_true (hr_catalog_save_custom_hardware (fixture->catalog, hw, fixture->dir, &error));
  g_assert_no_error (error);
  g_assert_true (hr_catalog_find_hardware (fixture->catalog, "custom-rtx-2080-ti") == hw);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));

  /* The file is a catalog file: the user directory loads it. */
  g_assert_cmpuint (hr_catalog_load_user_dir (reloaded, fixture->dir), ==, 1);
  found = hr_catalog_find_hardware (reloaded, "custom-rtx-2080-ti");
  g_assert_nonnull (found);
  g_assert_cmpstr (hr_hardware_get_name (found), ==, "RTX 2080 Ti");
  g_assert_cmpuint (hr_hardware_get_memory_bytes (found), ==, 11ull << 30);
  assert_close (hr_hardware_get_bandwidth_gbps (found), 616, 0);
  assert_close (hr_hardware_get_fp16_tflops (found), 88.5, 0);
  g_assert_true (hr_hardware_is_custom (found));

  /* A second name gets its own id; the same id replaces. */
  g_autofree char *next = hr_catalog_dup_custom_hardware_id (fixture->catalog, "RTX 2080 Ti");
  g_assert_cmpstr (next, ==, "custom-rtx-2080-ti-2");
  {
    HrHardwareFields values = {
      .id = "custom-rtx-2080-ti", .name = "RTX 2080 Ti (22 GB mod)", .vendor = "NVIDIA",
      .kind = HR_DEVICE_DISCRETE, .memory_gib = 22, .bandwidth_gbps = 616, .custom = TRUE,
    };
    edited = hr_hardware_new_from_fields (&values, &error);
    g_assert_no_error (error);
  }
  g_assert_true (hr_catalog_save_custom_hardware (fixture->catalog, edited, fixture->dir, &error));
  g_assert_cmpuint (hr_catalog_load_user_dir (again, fixture->dir), ==, 1);
  g_assert_cmpuint (hr_hardware_get_memory_bytes (hr_catalog_find_hardware (again,
                                                  "custom-rtx-2080-ti")), ==, 22ull << 30);

  /* Removed from the catalog and from the file. */
  g_assert_true (hr_catalog_remove_custom_hardware (fixture->catalog, "custom-rtx-2080-ti",
                                                    fixture->dir, &error));
  g_assert_no_error (error);
  g_assert_null (hr_catalog_find_hardware (fixture->catalog, "custom-rtx-2080-ti"));
  g_clear_object (&again);
  again = hr_test_builtin_catalog ();
  hr_catalog_load_user_dir (again, fixture->dir);
  g_assert_null (hr_catalog_find_hardware (again, "custom-rtx-2080-ti"));
}

static void
test_refusals (HrTestDir     *fixture,
               gconstpointer  user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHardware) hw = NULL;
  g_autofree char *path = g_build_filename (fixture->dir, HR_CUSTOM_DEVICES_FILE, NULL);
  HrHardware *builtin = hr_catalog_find_hardware (fixture->catalog, "rtx-3060-12gb");

  /* Out of range, with the catalog's own message */
  hw = custom (fixture->catalog, "Too big", 4096, 100, &error);
  g_assert_null (hw);
  g_assert_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "memory_gib"));
  g_clear_error (&error);
  hw = custom (fixture->catalog, "No bandwidth", 8, 0, &error);
  g_assert_null (hw);
  g_assert_nonnull (strstr (error->message, "bandwidth_gbps"));
  g_clear_error (&error);
  hw = custom (fixture->catalog, "", 8, 100, &error);
  g_assert_null (hw);
  g_assert_nonnull (strstr (error->message, "name"));
  g_clear_error (&error);

  /* A catalog device is neither replaced nor removed. */
  {
    HrHardwareFields values = {
      .id = "rtx-3060-12gb", .name = "Mine", .vendor = "NVIDIA",
      .kind = HR_DEVICE_DISCRETE, .memory_gib = 12, .bandwidth_gbps = 360, .custom = TRUE,
    };
    hw = hr_hardware_new_from_fields (&values, &error);
    g_assert_no_error (error);
  }
  g_assert_false (hr_catalog_save_custom_hardware (fixture->catalog, hw, fixture->dir, &error));
  g_assert_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_DUPLICATE);
  g_clear_error (&error);
  g_assert_true (hr_catalog_find_hardware (fixture->catalog, "rtx-3060-12gb") == builtin);
  g_assert_false (hr_catalog_remove_custom_hardware (fixture->catalog, "rtx-3060-12gb",
                                                     fixture->dir, &error));
  g_clear_error (&error);
  g_assert_false (hr_catalog_save_custom_hardware (fixture->catalog, builtin, fixture->dir,
                                                   &error));
  g_clear_error (&error);
  g_clear_object (&hw);

  /* A custom-devices.json the user broke is left alone. */
  g_file_set_contents (path, "{ \"hardware\": [ oops", -1, NULL);
  hw = custom (fixture->catalog, "RTX 2080", 8, 448, &error);
  g_assert_false (hr_catalog_save_custom_hardware (fixture->catalog, hw, fixture->dir, &error));
  g_assert_nonnull (strstr (error->message, "not a catalog file"));
  g_clear_error (&error);
  {
    g_autofree char *contents = NULL;

    g_file_get_contents (path, &contents, NULL, NULL);
    g_assert_cmpstr (contents, ==, "{ \"hardware\": [ oops");
  }
  g_assert_null (hr_catalog_find_hardware (fixture->catalog, hr_hardware_get_id (hw)));

  /* A directory that cannot be made */
  g_assert_false (hr_catalog_save_custom_hardware (fixture->catalog, hw, "/proc/headroom-no",
                                                   &error));
  g_assert_nonnull (error);
}

static HrHardware *
parse (const char  *json,
       GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  return hr_hardware_new_from_json (json_node_get_object (json_parser_get_root (parser)), error);
}

#define DEVICE "\"id\": \"x\", \"name\": \"X\", \"vendor\": \"AMD\", \"family\": \"amd-radeon\", " \
               "\"kind\": \"discrete\", \"memory_gib\": 16, \"bandwidth_gbps\": 512"

static void
test_pci_ids (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHardware) list = parse ("{" DEVICE ", \"pci_ids\": [\"1002:744C\", \"1002:7448\"]}",
                                      &error);
  g_autoptr(HrHardware) comma = NULL;
  g_autoptr(HrHardware) bad = NULL;
  g_autoptr(JsonObject) written = NULL;
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();

  g_assert_no_error (error);
  g_assert_true (hr_hardware_has_pci_id (list, 0x1002, 0x744c));
  g_assert_true (hr_hardware_has_pci_id (list, 0x1002, 0x7448));
  g_assert_false (hr_hardware_has_pci_id (list, 0x1002, 0x1586));
  g_assert_cmpstr (hr_hardware_get_pci_ids (list)[0], ==, "1002:744c");

  comma = parse ("{" DEVICE ", \"pci_ids\": \" 1002:744c , 1002:7448 ,\"}", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length ((char **) hr_hardware_get_pci_ids (comma)), ==, 2);
  g_assert_true (hr_hardware_has_pci_id (comma, 0x1002, 0x7448));

  /* Written back as a list, read back the same */
  written = hr_hardware_to_json (comma);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (json_object_get_member (written, "pci_ids")));

  bad = parse ("{" DEVICE ", \"pci_ids\": \"radeon\"}", &error);
  g_assert_null (bad);
  g_assert_nonnull (strstr (error->message, "pci_ids"));
  g_clear_error (&error);
  bad = parse ("{" DEVICE ", \"pci_ids\": [7]}", &error);
  g_assert_null (bad);
  g_assert_nonnull (strstr (error->message, "list of strings"));
  g_clear_error (&error);

  /* The catalog's GPUs carry their ids. */
  g_assert_true (hr_hardware_has_pci_id (hr_catalog_find_hardware (catalog, "rtx-3060-12gb"),
                                         0x10de, 0x2504));
  g_assert_true (hr_hardware_has_pci_id (hr_catalog_find_hardware (catalog, "arc-a770-16gb"),
                                         0x8086, 0x56a0));
}

static void
test_family_for (void)
{
  g_assert_cmpstr (hr_hardware_family_for ("NVIDIA", "NVIDIA GeForce RTX 2080 Ti",
                                           HR_DEVICE_DISCRETE), ==, "nvidia-geforce");
  g_assert_cmpstr (hr_hardware_family_for ("NVIDIA", "NVIDIA RTX A2000", HR_DEVICE_DISCRETE),
                   ==, "nvidia-workstation");
  g_assert_cmpstr (hr_hardware_family_for ("NVIDIA", "Tesla P40", HR_DEVICE_DISCRETE),
                   ==, "nvidia-datacenter");
  g_assert_cmpstr (hr_hardware_family_for ("NVIDIA", "NVIDIA L4", HR_DEVICE_DISCRETE),
                   ==, "nvidia-datacenter");
  g_assert_cmpstr (hr_hardware_family_for ("AMD", "AMD Instinct MI100", HR_DEVICE_DISCRETE),
                   ==, "amd-instinct");
  g_assert_cmpstr (hr_hardware_family_for ("AMD", "Radeon 8060S", HR_DEVICE_UNIFIED),
                   ==, "amd-radeon");
  g_assert_cmpstr (hr_hardware_family_for ("Other", "Tenstorrent", HR_DEVICE_DISCRETE),
                   ==, "intel-arc");
  g_assert_cmpstr (hr_hardware_family_for ("Other", "Some SoC", HR_DEVICE_UNIFIED),
                   ==, "apple-silicon");
}

/* The hardware table shows a device as soon as it is added by hand, and
 * drops its row when it is removed (issue 30 item 2). */
static gboolean
table_has (HrHardwareTable *table,
           HrHardware      *hardware)
{
  GListModel *rows = G_LIST_MODEL (table);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(HrHardwareRow) row = g_list_model_get_item (rows, i);

      if (hr_hardware_row_get_hardware (row) == hardware)
        return TRUE;
    }
  return FALSE;
}

static void
test_table_follows (HrTestDir     *fixture,
                    gconstpointer  user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrCalculator) calculator = hr_calculator_new (fixture->catalog);
  g_autoptr(HrHardwareTable) table = hr_hardware_table_new (calculator);
  g_autoptr(HrHardware) hw = custom (fixture->catalog, "RTX 2080 Ti", 11, 616, &error);
  g_autoptr(HrHardware) edited = NULL;
  guint n_before = g_list_model_get_n_items (G_LIST_MODEL (table));

  g_assert_true (hr_catalog_save_custom_hardware (fixture->catalog, hw, fixture->dir, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (table)), ==, n_before + 1);
  g_assert_true (table_has (table, hw));

  /* Edited in place: the row shows the new device, not the old one. */
  {
    HrHardwareFields values = {
      .id = hr_hardware_get_id (hw), .name = "RTX 2080 Ti (22 GB mod)", .vendor = "NVIDIA",
      .kind = HR_DEVICE_DISCRETE, .memory_gib = 22, .bandwidth_gbps = 616, .custom = TRUE,
    };
    edited = hr_hardware_new_from_fields (&values, &error);
    g_assert_no_error (error);
  }
  g_assert_true (hr_catalog_save_custom_hardware (fixture->catalog, edited, fixture->dir, &error));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (table)), ==, n_before + 1);
  g_assert_true (table_has (table, edited));
  g_assert_false (table_has (table, hw));

  g_assert_true (hr_catalog_remove_custom_hardware (fixture->catalog, hr_hardware_get_id (edited),
                                                    fixture->dir, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (table)), ==, n_before);
  g_assert_false (table_has (table, edited));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/custom-devices/save-reload-remove", HrTestDir, "test-custom-devices", hr_test_dir_set_up,
              test_save_reload_remove, hr_test_dir_tear_down);
  g_test_add ("/custom-devices/refusals", HrTestDir, "test-custom-devices", hr_test_dir_set_up,
              test_refusals, hr_test_dir_tear_down);
  g_test_add ("/custom-devices/table-follows", HrTestDir, "test-custom-devices", hr_test_dir_set_up,
              test_table_follows, hr_test_dir_tear_down);
  g_test_add_func ("/custom-devices/pci-ids", test_pci_ids);
  g_test_add_func ("/custom-devices/family-for", test_family_for);

  return g_test_run ();
}
