/* hr-detect-sysfs.c — GPUs through /sys/class/drm
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every DRM card is a PCI function with vendor, device, class and uevent
 * attributes.  amdgpu adds mem_info_vram_total and mem_info_vram_used
 * (and product_name on some boards); Intel's xe driver gives the memory
 * of each tile (tileN/physical_vram_size_bytes) and Intel's out-of-tree
 * i915 lmem_total_bytes; mainline i915 gives no memory size at all, and
 * neither does nouveau: such a card is still reported, by PCI id, for
 * the catalog to recognise.  Names come from amdgpu, else from the
 * pci.ids database that lspci reads.
 */

#define G_LOG_DOMAIN "hr-detect"

#include "config.h"

#include <string.h>

#include "hr-detect-private.h"

#define DRM_DIR "/sys/class/drm"

/* Where distributions install pci.ids (hwdata, pciutils). */
static const char * const pci_ids_paths[] = {
  "/usr/share/hwdata/pci.ids",
  "/usr/share/misc/pci.ids",
  "/usr/share/pci.ids",
};

/* Four hexadecimal digits and a space, as pci.ids writes ids. */
static gboolean
parse_hex4 (const char *text,
            guint16    *value)
{
  guint v = 0;

  for (guint i = 0; i < 4; i++)
    {
      if (!g_ascii_isxdigit (text[i]))
        return FALSE;
      v = v << 4 | g_ascii_xdigit_value (text[i]);
    }
  if (text[4] != ' ')
    return FALSE;
  *value = v;
  return TRUE;
}

/* pci.ids names a chip and, in brackets, the products built on it:
 * “GA106 [GeForce RTX 3060 Lite Hash Rate]”; the products are what a
 * person recognises. */
static char *
product_from_pci_name (const char *vendor_label,
                       const char *name)
{
  const char *open = strchr (name, '[');
  const char *close = open != NULL ? strrchr (open, ']') : NULL;

  if (open != NULL && close != NULL && close > open + 1)
    {
      g_autofree char *inner = g_strndup (open + 1, close - open - 1);
      return g_strdup_printf ("%s %s", vendor_label, g_strstrip (inner));
    }
  return g_strdup_printf ("%s %s", vendor_label, name);
}

/**
 * hr_detect_pci_name:
 *
 * The device's name from pci.ids under @tree, or %NULL.
 */
char *
hr_detect_pci_name (HrTree  *tree,
                    guint16  vendor,
                    guint16  device)
{
  for (guint p = 0; p < G_N_ELEMENTS (pci_ids_paths); p++)
    {
      g_autofree char *contents = NULL;
      gboolean truncated;
      gboolean in_vendor = FALSE;
      char *line;
      char *next;

      if (!hr_tree_read (tree, pci_ids_paths[p], HR_DETECT_MAX_PCI_IDS_BYTES,
                         &contents, NULL, &truncated, NULL))
        continue;

      for (line = contents; line != NULL && *line != '\0'; line = next)
        {
          guint16 id;

          next = strchr (line, '\n');
          if (next != NULL)
            *next++ = '\0';

          if (line[0] == '#' || line[0] == '\0')
            continue;
          if (line[0] != '\t')
            {
              if (in_vendor)
                break;        /* past this vendor's devices */
              in_vendor = parse_hex4 (line, &id) && id == vendor;
              continue;
            }
          if (in_vendor && line[1] != '\t' && parse_hex4 (line + 1, &id) && id == device)
            {
              g_autofree char *name = hr_detect_sanitize (g_strstrip (line + 5), 200);
              const char *label = vendor == HR_PCI_VENDOR_NVIDIA ? "NVIDIA"
                                  : vendor == HR_PCI_VENDOR_AMD ? "AMD"
                                  : vendor == HR_PCI_VENDOR_INTEL ? "Intel" : "";

              if (name == NULL || name[0] == '\0')
                return NULL;
              return product_from_pci_name (label, name);
            }
        }
      return NULL;
    }
  return NULL;
}

/* "16.0 GT/s PCIe" → 4. */
static guint32
pcie_generation_from_speed (const char *speed)
{
  static const struct { const char *prefix; guint32 generation; } speeds[] = {
    { "2.5 ", 1 }, { "5.0 ", 2 }, { "8.0 ", 3 }, { "16.0 ", 4 }, { "32.0 ", 5 }, { "64.0 ", 6 },
  };

  for (guint i = 0; speed != NULL && i < G_N_ELEMENTS (speeds); i++)
    if (g_str_has_prefix (speed, speeds[i].prefix))
      return speeds[i].generation;
  return 0;
}

static char *
attr (const char *dir,
      const char *name)
{
  return g_build_filename (dir, name, NULL);
}

static gboolean
read_u64_attr (HrTree     *tree,
               const char *dir,
               const char *name,
               guint64    *value)
{
  g_autofree char *path = attr (dir, name);

  return hr_tree_read_u64 (tree, path, value);
}

static char *
read_line_attr (HrTree     *tree,
                const char *dir,
                const char *name)
{
  g_autofree char *path = attr (dir, name);

  return hr_tree_read_line (tree, path);
}

static gboolean
slot_known (HrDetectFindings *findings,
            const char       *slot)
{
  for (guint i = 0; i < findings->gpus->len; i++)
    {
      HrGpuInfo *gpu = g_ptr_array_index (findings->gpus, i);

      if (gpu->pci_slot != NULL && g_ascii_strcasecmp (gpu->pci_slot, slot) == 0)
        return TRUE;
    }
  return FALSE;
}

/* A memory size the GPU can have; else a note naming it by its slot. */
static gboolean
plausible (HrDetectFindings *findings,
           const HrGpuInfo  *gpu,
           guint64           bytes)
{
  g_autofree char *what = g_strdup_printf ("GPU %s", gpu->pci_slot != NULL ? gpu->pci_slot : "");

  return hr_detect_plausible_gpu_memory (findings, what, bytes);
}

/* AMD integrated GPUs whose carve-out may be set large in the firmware
 * (up to 96 GiB on Strix Halo), so that the size alone does not tell. */
static const guint16 amd_apus[] = {
  0x1586,   /* Ryzen AI Max (Strix Halo), Radeon 8050S/8060S */
  0x150e,   /* Ryzen AI 300 (Strix Point), Radeon 880M/890M */
  0x15bf,   /* Ryzen 7040/8040 (Phoenix, Hawk Point), Radeon 780M */
};

static void
read_amd (HrTree           *tree,
          const char       *dev,
          HrGpuInfo        *gpu,
          HrDetectFindings *findings)
{
  guint64 total = 0, used = 0;

  /* An absurd figure is said in a note and stays unknown. */
  if (read_u64_attr (tree, dev, "mem_info_vram_total", &total) && total > 0 &&
      !plausible (findings, gpu, total))
    total = 0;
  if (total > 0)
    {
      gpu->memory_bytes = total;
      if (read_u64_attr (tree, dev, "mem_info_vram_used", &used) && used <= total)
        {
          gpu->used_bytes = used;
          gpu->free_bytes = total - used;
          gpu->free_known = TRUE;
        }
    }

  gpu->name = read_line_attr (tree, dev, "product_name");
  if (gpu->name != NULL)
    {
      g_autofree char *raw = g_steal_pointer (&gpu->name);

      gpu->name = hr_detect_sanitize (raw, 120);
      if (gpu->name != NULL && gpu->name[0] == '\0')
        g_clear_pointer (&gpu->name, g_free);
    }

  for (guint i = 0; i < G_N_ELEMENTS (amd_apus); i++)
    if (gpu->pci_device == amd_apus[i])
      gpu->integrated = TRUE;
  if (total > 0 && total < HR_DETECT_APU_MAX_CARVEOUT_BYTES)
    gpu->integrated = TRUE;
}

static void
read_intel (HrTree           *tree,
            const char       *card,
            const char       *dev,
            HrGpuInfo        *gpu,
            HrDetectFindings *findings)
{
  guint64 total = 0;

  /* i915 with Intel's backports: on the card, or on the device. */
  if (!(read_u64_attr (tree, card, "lmem_total_bytes", &total) && total > 0))
    read_u64_attr (tree, dev, "lmem_total_bytes", &total);

  /* xe: one figure per tile. */
  if (total == 0)
    for (guint t = 0; t < 4; t++)
      {
        g_autofree char *name = g_strdup_printf ("tile%u/physical_vram_size_bytes", t);
        guint64 tile = 0;

        if (!read_u64_attr (tree, dev, name, &tile))
          break;
        total = tile > G_MAXUINT64 - total ? G_MAXUINT64 : total + tile;
      }
  if (total > 0 && !plausible (findings, gpu, total))
    total = 0;
  gpu->memory_bytes = total;

  /* Intel's integrated GPU is always the PCI function 00:02.0 of the first
   * bus; discrete ones sit behind a bridge. */
  if (total == 0 && gpu->pci_slot != NULL &&
      g_str_has_suffix (gpu->pci_slot, ":00:02.0") && g_str_has_prefix (gpu->pci_slot, "0000:"))
    gpu->integrated = TRUE;
}

static void
read_card (HrTree           *tree,
           const char       *card_name,
           HrDetectFindings *findings)
{
  g_autoptr(HrGpuInfo) gpu = hr_gpu_info_new ();
  g_autofree char *card = g_build_filename (DRM_DIR, card_name, NULL);
  g_autofree char *dev_link = g_build_filename (card, "device", NULL);
  g_autofree char *card_real = hr_tree_resolve (tree, card, NULL);
  g_autofree char *dev = hr_tree_resolve (tree, dev_link, NULL);
  g_autofree char *speed = NULL;
  guint64 vendor = 0, device = 0, klass = 0, width = 0;

  if (dev == NULL || card_real == NULL)
    return;
  if (!read_u64_attr (tree, dev, "vendor", &vendor) || vendor > 0xffff ||
      !read_u64_attr (tree, dev, "device", &device) || device > 0xffff)
    return;
  /* Display controllers only (class 0x03xxxx). */
  if (read_u64_attr (tree, dev, "class", &klass) && (klass >> 16) != 0x03)
    return;

  gpu->pci_vendor = vendor;
  gpu->pci_device = device;
  gpu->source = "sysfs";

  {
    g_autofree char *path = attr (dev, "uevent");
    g_autofree char *contents = NULL;

    if (hr_tree_read (tree, path, HR_DETECT_MAX_FILE_BYTES, &contents, NULL, NULL, NULL))
      {
        g_auto(GStrv) lines = g_strsplit (contents, "\n", 64);

        for (guint i = 0; lines[i] != NULL; i++)
          {
            if (g_str_has_prefix (lines[i], "DRIVER="))
              {
                g_free (gpu->driver);
                gpu->driver = hr_detect_sanitize (lines[i] + strlen ("DRIVER="), 32);
              }
            else if (g_str_has_prefix (lines[i], "PCI_SLOT_NAME="))
              {
                g_free (gpu->pci_slot);
                gpu->pci_slot = hr_detect_sanitize (lines[i] + strlen ("PCI_SLOT_NAME="), 32);
              }
          }
      }
  }
  if (gpu->pci_slot == NULL)
    gpu->pci_slot = g_path_get_basename (dev);

  if (slot_known (findings, gpu->pci_slot))
    return;   /* a second card node of the same GPU */

  speed = read_line_attr (tree, dev, "max_link_speed");
  gpu->pcie_generation = pcie_generation_from_speed (speed);
  if (read_u64_attr (tree, dev, "max_link_width", &width) && width <= 64)
    gpu->pcie_width = width;

  switch (vendor)
    {
    case HR_PCI_VENDOR_AMD:
      gpu->vendor = HR_GPU_VENDOR_AMD;
      read_amd (tree, dev, gpu, findings);
      break;
    case HR_PCI_VENDOR_INTEL:
      gpu->vendor = HR_GPU_VENDOR_INTEL;
      read_intel (tree, card_real, dev, gpu, findings);
      break;
    case HR_PCI_VENDOR_NVIDIA:
      /* No memory figures here: NVML, read next, replaces this entry; it
       * stays when NVML is missing (nouveau, no driver library). */
      gpu->vendor = HR_GPU_VENDOR_NVIDIA;
      break;
    default:
      return;   /* a server's management VGA, a virtual display… */
    }

  if (gpu->name == NULL)
    gpu->name = hr_detect_pci_name (tree, vendor, device);
  if (gpu->name == NULL)
    gpu->name = g_strdup_printf ("%s GPU %04x:%04x", hr_gpu_vendor_to_string (gpu->vendor),
                                 (guint) vendor, (guint) device);

  g_ptr_array_add (findings->gpus, g_steal_pointer (&gpu));
}

static int
compare_cards (gconstpointer a,
               gconstpointer b)
{
  const char *x = *(const char * const *) a;
  const char *y = *(const char * const *) b;

  return (int) g_ascii_strtoull (x + 4, NULL, 10) - (int) g_ascii_strtoull (y + 4, NULL, 10);
}

static gboolean
is_card_name (const char *name)
{
  if (!g_str_has_prefix (name, "card") || name[4] == '\0' || strlen (name) > 8)
    return FALSE;
  for (const char *p = name + 4; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

/**
 * hr_detect_drm:
 *
 * Adds the GPUs of /sys/class/drm.
 */
void
hr_detect_drm (HrTree           *tree,
               HrDetectFindings *findings)
{
  g_autofree char *dir = hr_tree_resolve (tree, DRM_DIR, NULL);
  g_autoptr(GDir) handle = NULL;
  g_autoptr(GPtrArray) cards = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  guint seen = 0;

  if (dir == NULL || (handle = g_dir_open (dir, 0, NULL)) == NULL)
    {
      hr_detect_note (findings, "GPUs: %s is not readable", DRM_DIR);
      return;
    }

  while ((name = g_dir_read_name (handle)) != NULL)
    {
      if (++seen > HR_DETECT_MAX_DRM_ENTRIES)
        {
          hr_detect_note (findings, "GPUs: %s has more than %d entries; read the first",
                          DRM_DIR, HR_DETECT_MAX_DRM_ENTRIES);
          break;
        }
      if (is_card_name (name))
        g_ptr_array_add (cards, g_strdup (name));
    }
  g_ptr_array_sort (cards, compare_cards);

  for (guint i = 0; i < cards->len && findings->gpus->len < HR_DETECT_MAX_GPUS; i++)
    read_card (tree, g_ptr_array_index (cards, i), findings);
}
