/* hr-detect-wire.c — the NVML helper's answer, as text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * headroom-detect-helper prints what NVML found as a key file:
 *
 *   [nvml]
 *   gpus=2
 *   notes=NVIDIA GPU 1: …;
 *   [gpu0]
 *   name=NVIDIA GeForce RTX 3060
 *   memory_bytes=12884901888
 *   …
 *
 * The parent reads it as it reads any file it did not write: within a
 * size, every figure checked against its range (a figure out of range is
 * unknown), every string made safe to show; the bandwidth is computed
 * here from the bus width and clock, not taken from the helper.
 */

#define G_LOG_DOMAIN "hr-detect"

#include "config.h"

#include <string.h>

#include "hr-detect-private.h"

#define GROUP_NVML        "nvml"
#define WIRE_MAX_NOTES    64      /* notes taken from one answer */
#define WIRE_NOTE_BYTES   300     /* the longest note kept */
#define WIRE_NAME_BYTES   96      /* NVML_DEVICE_NAME_BUFFER_SIZE */
#define WIRE_SLOT_BYTES   32

/* The ranges read_device() in hr-detect-nvml.c accepts. */
#define WIRE_MAX_BUS_BITS     16384
#define WIRE_MAX_CLOCK_MHZ    100000
#define WIRE_MAX_PCIE_GEN     32
#define WIRE_MAX_PCIE_WIDTH   64

/**
 * hr_detect_wire_format:
 *
 * The helper's side: the GPUs and notes of @findings as text.
 */
char *
hr_detect_wire_format (const HrDetectFindings *findings)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();

  g_key_file_set_integer (file, GROUP_NVML, "gpus", findings->gpus->len);
  g_key_file_set_string_list (file, GROUP_NVML, "notes",
                              (const char * const *) findings->notes->pdata,
                              findings->notes->len);
  for (guint i = 0; i < findings->gpus->len; i++)
    {
      const HrGpuInfo *gpu = g_ptr_array_index (findings->gpus, i);
      g_autofree char *group = g_strdup_printf ("gpu%u", i);

      if (gpu->name != NULL)
        g_key_file_set_string (file, group, "name", gpu->name);
      if (gpu->pci_slot != NULL)
        g_key_file_set_string (file, group, "pci_slot", gpu->pci_slot);
      g_key_file_set_uint64 (file, group, "pci_device", gpu->pci_device);
      g_key_file_set_uint64 (file, group, "memory_bytes", gpu->memory_bytes);
      g_key_file_set_uint64 (file, group, "used_bytes", gpu->used_bytes);
      g_key_file_set_uint64 (file, group, "free_bytes", gpu->free_bytes);
      g_key_file_set_boolean (file, group, "free_known", gpu->free_known);
      g_key_file_set_uint64 (file, group, "bus_width_bits", gpu->bus_width_bits);
      g_key_file_set_uint64 (file, group, "max_memory_clock_mhz", gpu->max_memory_clock_mhz);
      g_key_file_set_uint64 (file, group, "pcie_generation", gpu->pcie_generation);
      g_key_file_set_uint64 (file, group, "pcie_width", gpu->pcie_width);
      g_key_file_set_boolean (file, group, "integrated", gpu->integrated);
    }
  return g_key_file_to_data (file, NULL, NULL);
}

/* A number within [0, max]; 0 (unknown) when missing or out of range. */
static guint64
get_number (GKeyFile   *file,
            const char *group,
            const char *key,
            guint64     max)
{
  g_autofree char *text = g_key_file_get_value (file, group, key, NULL);
  guint64 value;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 0, max, &value, NULL))
    return 0;
  return value;
}

static char *
get_text (GKeyFile   *file,
          const char *group,
          const char *key,
          gsize       max_length)
{
  g_autofree char *text = g_key_file_get_string (file, group, key, NULL);
  char *clean = hr_detect_sanitize (text, max_length);

  if (clean != NULL && clean[0] == '\0')
    g_clear_pointer (&clean, g_free);
  return clean;
}

static HrGpuInfo *
parse_gpu (GKeyFile   *file,
           const char *group)
{
  HrGpuInfo *gpu = hr_gpu_info_new ();

  gpu->vendor = HR_GPU_VENDOR_NVIDIA;
  gpu->pci_vendor = HR_PCI_VENDOR_NVIDIA;
  gpu->driver = g_strdup ("nvidia");
  gpu->source = "nvml";
  gpu->name = get_text (file, group, "name", WIRE_NAME_BYTES);
  gpu->pci_slot = get_text (file, group, "pci_slot", WIRE_SLOT_BYTES);
  gpu->pci_device = get_number (file, group, "pci_device", G_MAXUINT16);
  gpu->memory_bytes = get_number (file, group, "memory_bytes", HR_DETECT_MAX_GPU_MEMORY_BYTES);
  gpu->free_known = gpu->memory_bytes > 0 &&
                    g_key_file_get_boolean (file, group, "free_known", NULL);
  if (gpu->free_known)
    {
      gpu->used_bytes = get_number (file, group, "used_bytes", gpu->memory_bytes);
      gpu->free_bytes = get_number (file, group, "free_bytes", gpu->memory_bytes);
    }
  gpu->bus_width_bits = get_number (file, group, "bus_width_bits", WIRE_MAX_BUS_BITS);
  gpu->max_memory_clock_mhz = get_number (file, group, "max_memory_clock_mhz",
                                          WIRE_MAX_CLOCK_MHZ);
  if (gpu->bus_width_bits > 0 && gpu->max_memory_clock_mhz > 0)
    gpu->bandwidth_gbps = gpu->bus_width_bits / 8.0 * gpu->max_memory_clock_mhz * 1e6 *
                          HR_DETECT_NVML_TRANSFERS_PER_CLOCK / 1e9;
  gpu->pcie_generation = get_number (file, group, "pcie_generation", WIRE_MAX_PCIE_GEN);
  gpu->pcie_width = get_number (file, group, "pcie_width", WIRE_MAX_PCIE_WIDTH);
  gpu->integrated = g_key_file_get_boolean (file, group, "integrated", NULL);
  return gpu;
}

/**
 * hr_detect_wire_parse:
 *
 * The parent's side: adds the GPUs and notes of the helper's answer to
 * @findings.  Fails, adding nothing, when the answer is not one.
 */
gboolean
hr_detect_wire_parse (const char        *text,
                      gsize              length,
                      HrDetectFindings  *findings,
                      GError           **error)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_auto(GStrv) notes = NULL;
  guint64 count;
  gsize n_notes = 0;

  if (length > HR_DETECT_HELPER_MAX_OUTPUT || memchr (text, '\0', length) != NULL ||
      !g_key_file_load_from_data (file, text, length, G_KEY_FILE_NONE, NULL) ||
      !g_key_file_has_group (file, GROUP_NVML))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "its answer is not readable");
      return FALSE;
    }
  count = get_number (file, GROUP_NVML, "gpus", HR_DETECT_MAX_GPUS);

  notes = g_key_file_get_string_list (file, GROUP_NVML, "notes", &n_notes, NULL);
  for (gsize i = 0; notes != NULL && i < n_notes && i < WIRE_MAX_NOTES; i++)
    {
      g_autofree char *note = hr_detect_sanitize (notes[i], WIRE_NOTE_BYTES);

      if (note != NULL && note[0] != '\0')
        hr_detect_note (findings, "%s", note);
    }
  for (guint i = 0; i < count; i++)
    {
      g_autofree char *group = g_strdup_printf ("gpu%u", i);

      if (g_key_file_has_group (file, group))
        g_ptr_array_add (findings->gpus, parse_gpu (file, group));
    }
  return TRUE;
}
