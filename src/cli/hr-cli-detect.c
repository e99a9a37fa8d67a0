/* hr-cli-detect.c — headroom-cli detect: this computer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include "hr-cli-common.h"
#include "hr-format.h"
#include "hr-local-device.h"
#include "hr-units.h"

static void
detect_json (HrSystemInfo *info,
             GListModel   *devices)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  const char * const *notes = hr_system_info_get_notes (info);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint i = 0; i < g_list_model_get_n_items (devices); i++)
    {
      g_autoptr(HrLocalDevice) d = g_list_model_get_item (devices, i);
      const HrGpuInfo *gpu = hr_local_device_get_gpu (d);
      HrHardware *hw = hr_local_device_get_hardware (d);
      g_autofree char *pci_id = hr_gpu_info_dup_pci_id (gpu);

      json_builder_begin_object (b);
      hr_cli_add_string (b, "id", hr_local_device_get_catalog_id (d));
      hr_cli_add_string (b, "hardware", hw != NULL ? hr_hardware_get_id (hw) : NULL);
      hr_cli_add_file_string (b, "name", hr_local_device_get_name (d));
      hr_cli_add_string (b, "catalog_name", hr_local_device_get_catalog_id (d) != NULL
                                            ? hr_hardware_get_name (hw) : NULL);
      hr_cli_add_string (b, "vendor", hr_gpu_vendor_to_string (gpu->vendor));
      hr_cli_add_string (b, "kind", hr_local_device_is_unified (d) ? "unified" : "discrete");
      hr_cli_add_string (b, "match", hr_local_match_to_string (hr_local_device_get_match (d)));
      hr_cli_add_uint_or_null (b, "memory_bytes", hr_local_device_get_memory_bytes (d) > 0,
                               hr_local_device_get_memory_bytes (d));
      hr_cli_add_uint_or_null (b, "free_bytes", hr_local_device_get_free_known (d),
                               hr_local_device_get_free_bytes (d));
      hr_cli_add_double_or_null (b, "bandwidth_gbps", hr_local_device_get_bandwidth_gbps (d));
      hr_cli_add_uint_or_null (b, "bus_width_bits", gpu->bus_width_bits > 0, gpu->bus_width_bits);
      hr_cli_add_string (b, "pci_id", pci_id);
      hr_cli_add_file_string (b, "pci_slot", gpu->pci_slot);
      hr_cli_add_file_string (b, "driver", gpu->driver);
      hr_cli_add_uint_or_null (b, "pcie_generation", gpu->pcie_generation > 0,
                               gpu->pcie_generation);
      hr_cli_add_uint_or_null (b, "pcie_width", gpu->pcie_width > 0, gpu->pcie_width);
      hr_cli_add_file_string (b, "source", gpu->source);
      hr_cli_add_file_string (b, "note", hr_local_device_get_note (d));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  hr_cli_add_uint (b, "ram_bytes", hr_system_info_get_ram_total_bytes (info));
  hr_cli_add_uint (b, "ram_available_bytes", hr_system_info_get_ram_available_bytes (info));
  hr_cli_add_file_string (b, "ram_type", hr_system_info_get_ram_type (info));
  hr_cli_add_uint (b, "ram_speed_mts", hr_system_info_get_ram_speed_mts (info));
  hr_cli_add_uint (b, "ram_channels", hr_system_info_get_ram_channels (info));
  hr_cli_add_double (b, "ram_bandwidth_gbps", hr_system_info_get_ram_bandwidth_gbps (info));
  hr_cli_add_bool (b, "ram_assumed", hr_system_info_get_ram_assumed (info));
  hr_cli_add_file_string (b, "cpu", hr_system_info_get_cpu_model (info));
  hr_cli_add_uint (b, "cpu_cores", hr_system_info_get_cpu_cores (info));
  hr_cli_add_uint (b, "cpu_threads", hr_system_info_get_cpu_threads (info));
  hr_cli_add_bool (b, "complete", hr_system_info_is_complete (info));
  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (guint i = 0; notes[i] != NULL; i++)
    {
      g_autofree char *note = g_utf8_validate (notes[i], -1, NULL)
                              ? g_strdup (notes[i]) : hr_cli_escape (notes[i]);

      json_builder_add_string_value (b, note);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  hr_cli_print_json (root);
}

static void
detect_text (HrSystemInfo *info,
             GListModel   *devices)
{
  const char * const *notes = hr_system_info_get_notes (info);
  HrUnits u = HR_UNITS_BINARY;
  guint n = g_list_model_get_n_items (devices);

  if (n == 0)
    g_print ("No GPU detected.\n");
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrLocalDevice) d = g_list_model_get_item (devices, i);
      const HrGpuInfo *gpu = hr_local_device_get_gpu (d);
      HrHardware *hw = hr_local_device_get_hardware (d);
      g_autoptr(GString) line = g_string_new (NULL);
      guint64 memory = hr_local_device_get_memory_bytes (d);
      double bandwidth = hr_local_device_get_bandwidth_gbps (d);
      g_autofree char *name = hr_cli_escape (hr_local_device_get_name (d));
      g_autofree char *note = hr_cli_escape (hr_local_device_get_note (d));

      g_print ("GPU %u: %s\n", i + 1, name);
      if (hr_local_device_get_catalog_id (d) != NULL)
        g_print ("  catalog:   %s (%s, by %s)\n", hr_hardware_get_name (hw),
                 hr_hardware_get_id (hw),
                 hr_local_device_get_match (d) == HR_LOCAL_MATCH_PCI_ID ? "PCI id" : "name");
      else if (hw != NULL)
        g_print ("  catalog:   not listed; use --hardware %s\n", hr_hardware_get_id (hw));
      else
        g_print ("  catalog:   not listed\n");

      if (memory > 0)
        {
          g_autofree char *total = hr_format_size (memory, u);
          g_string_append (line, total);
          if (hr_local_device_get_free_known (d))
            {
              g_autofree char *free_text = hr_format_size (hr_local_device_get_free_bytes (d), u);
              g_string_append_printf (line, ", %s free", free_text);
            }
        }
      else
        g_string_append (line, "unknown");
      g_print ("  memory:    %s%s\n", line->str,
               hr_local_device_is_unified (d) ? " (unified with the system)" : "");
      if (bandwidth > 0)
        g_print ("  bandwidth: %.0f GB/s%s\n", bandwidth,
                 gpu->bandwidth_assumed ? " (assumed)" : "");
      if (gpu->pcie_generation > 0 && gpu->pcie_width > 0)
        g_print ("  PCIe:      %u.0 x%u\n", gpu->pcie_generation, gpu->pcie_width);
      if (hr_local_device_get_note (d) != NULL)
        g_print ("  note:      %s\n", note);
    }

  {
    g_autofree char *ram = hr_format_size (hr_system_info_get_ram_total_bytes (info), u);
    g_autofree char *available = hr_format_size (hr_system_info_get_ram_available_bytes (info), u);

    const char *type = hr_system_info_get_ram_type (info);
    g_autofree char *ram_type = type != NULL ? hr_cli_escape (type) : g_strdup ("unknown");

    g_print ("RAM: %s, %s available; %u-channel %s-%u, %.1f GB/s%s\n", ram, available,
             hr_system_info_get_ram_channels (info), ram_type,
             hr_system_info_get_ram_speed_mts (info),
             hr_system_info_get_ram_bandwidth_gbps (info),
             hr_system_info_get_ram_assumed (info) ? " (assumed)" : "");
  }
  {
    const char *model = hr_system_info_get_cpu_model (info);
    /* /proc/cpuinfo unreadable or without a name: say so (before:
     * "CPU: (null)") */
    g_autofree char *cpu = model != NULL && model[0] != '\0' ? hr_cli_escape (model)
                                                             : g_strdup ("unknown");

    g_print ("CPU: %s, %u cores, %u threads\n", cpu,
             hr_system_info_get_cpu_cores (info), hr_system_info_get_cpu_threads (info));
  }
  for (guint i = 0; notes[i] != NULL; i++)
    {
      g_autofree char *note = hr_cli_escape (notes[i]);

      g_print ("Note: %s\n", note);
    }
}

static int
run_detect (HrCliOptions *o)
{
  g_autoptr(HrSystemInfo) info = hr_detect_system (NULL, NULL);
  g_autoptr(GListModel) devices = hr_local_devices_new (o->catalog, info);

  if (o->json)
    detect_json (info, devices);
  else
    detect_text (info, devices);
  return 0;
}

static void
add_options (GArray       *entries,
             HrCliOptions *o)
{
  hr_cli_add_json (entries, o);
}

static int
run (HrCliOptions *o,
     const char   *name)
{
  if (!hr_cli_no_arguments (o))
    return hr_cli_exit_status ();
  return run_detect (o);
}

const HrCliCommand hr_cli_detect_command = {
  .name = "detect",
  .synopsis = "detect [--json]",
  .summary = "Describes this computer's GPUs, system memory and CPU, and the catalog "
             "device each GPU matches.",
  .add_options = add_options,
  .run = run,
};
