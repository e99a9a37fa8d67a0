/* hr-detect-nvml.c — NVIDIA GPUs through NVML, loaded at run time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libnvidia-ml.so.1 comes with the NVIDIA driver (in a Flatpak, with the
 * org.freedesktop.Platform.GL.nvidia-* extension).  It is opened with
 * GModule and only the symbols below are looked up; the declarations
 * are those of nvml.h, which is not needed to build.  Every return code
 * is checked: a missing library, a missing symbol or a failing call
 * leaves a note and the numbers it would have given unknown.
 *
 * hr_detect_nvml_read() runs only in headroom-detect-helper, never in
 * Headroom's own process (hr-detect-helper.c says why); the parent merges
 * what the helper answered with hr_detect_nvml_merge().
 */

#define G_LOG_DOMAIN "hr-detect"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gmodule.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hr-detect-private.h"

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;

#define NVML_SUCCESS                0
#define NVML_ERROR_NOT_SUPPORTED    3
#define NVML_CLOCK_MEM              2
#define NVML_DEVICE_NAME_BUFFER_SIZE 96

typedef struct
{
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
} nvmlMemory_t;

typedef struct
{
  char bus_id_legacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pci_device_id;      /* device << 16 | vendor */
  unsigned int pci_subsystem_id;
  char bus_id[32];
} nvmlPciInfo_t;

typedef struct
{
  GModule *module;
  const char *name;

  /* required */
  nvmlReturn_t (*init) (void);
  nvmlReturn_t (*shutdown) (void);
  nvmlReturn_t (*get_count) (unsigned int *count);
  nvmlReturn_t (*get_handle) (unsigned int index, nvmlDevice_t *device);
  nvmlReturn_t (*get_name) (nvmlDevice_t device, char *name, unsigned int length);
  nvmlReturn_t (*get_memory) (nvmlDevice_t device, nvmlMemory_t *memory);

  /* optional: what they give stays unknown without them */
  const char *(*error_string) (nvmlReturn_t result);
  nvmlReturn_t (*get_bus_width) (nvmlDevice_t device, unsigned int *bits);
  nvmlReturn_t (*get_max_clock) (nvmlDevice_t device, int type, unsigned int *mhz);
  nvmlReturn_t (*get_pcie_generation) (nvmlDevice_t device, unsigned int *generation);
  nvmlReturn_t (*get_pcie_width) (nvmlDevice_t device, unsigned int *width);
  nvmlReturn_t (*get_pci_info) (nvmlDevice_t device, nvmlPciInfo_t *info);
} Nvml;

typedef struct
{
  const char *symbol;
  gsize offset;
  gboolean required;
} Symbol;

#define SYM(name, member, required) { name, G_STRUCT_OFFSET (Nvml, member), required }

static const Symbol symbols[] = {
  SYM ("nvmlInit_v2", init, TRUE),
  SYM ("nvmlShutdown", shutdown, TRUE),
  SYM ("nvmlDeviceGetCount_v2", get_count, TRUE),
  SYM ("nvmlDeviceGetHandleByIndex_v2", get_handle, TRUE),
  SYM ("nvmlDeviceGetName", get_name, TRUE),
  SYM ("nvmlDeviceGetMemoryInfo", get_memory, TRUE),
  SYM ("nvmlErrorString", error_string, FALSE),
  SYM ("nvmlDeviceGetMemoryBusWidth", get_bus_width, FALSE),
  SYM ("nvmlDeviceGetMaxClockInfo", get_max_clock, FALSE),
  SYM ("nvmlDeviceGetMaxPcieLinkGeneration", get_pcie_generation, FALSE),
  SYM ("nvmlDeviceGetMaxPcieLinkWidth", get_pcie_width, FALSE),
  SYM ("nvmlDeviceGetPciInfo_v3", get_pci_info, FALSE),
};

/* The library's own words for a code when it has them; a code is never
 * trusted to index anything. */
static char *
describe (Nvml         *nvml,
          nvmlReturn_t  code)
{
  const char *text = nvml->error_string != NULL ? nvml->error_string (code) : NULL;

  if (text != NULL)
    {
      g_autofree char *clean = hr_detect_sanitize (text, 120);

      if (clean != NULL && clean[0] != '\0')
        return g_strdup_printf ("%s (NVML error %d)", clean, code);
    }
  return g_strdup_printf ("NVML error %d", code);
}

/* A path (not a bare name for the loader's search) must name a regular
 * file: dlopen() would wait forever on a FIFO.  Opened without blocking
 * and judged by what was opened, as hr-file.c does. */
static gboolean
check_path (const char       *library,
            HrDetectFindings *findings)
{
  g_autofree char *shown = NULL;
  struct stat st;
  int fd;

  if (strchr (library, '/') == NULL)
    return TRUE;
  shown = hr_detect_sanitize (library, 200);
  fd = open (library, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    {
      int saved = errno;

      hr_detect_note (findings, "NVIDIA: %s cannot be loaded: %s", shown, g_strerror (saved));
      return FALSE;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      hr_detect_note (findings, "NVIDIA: %s cannot be loaded: not a regular file", shown);
      return FALSE;
    }
  close (fd);
  return TRUE;
}

static gboolean
load (Nvml             *nvml,
      const char       *library,
      HrDetectFindings *findings)
{
  if (!check_path (library, findings))
    return FALSE;
  nvml->name = library;
  nvml->module = g_module_open (library, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  if (nvml->module == NULL)
    {
      /* The usual case on a machine without the NVIDIA driver. */
      g_debug ("%s: %s", library, g_module_error ());
      hr_detect_note (findings, "NVIDIA: %s is not installed or cannot be loaded "
                      "(no NVIDIA driver)", library);
      return FALSE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++)
    {
      gpointer *slot = (gpointer *) ((guint8 *) nvml + symbols[i].offset);

      if (!g_module_symbol (nvml->module, symbols[i].symbol, slot))
        *slot = NULL;
      if (*slot == NULL && symbols[i].required)
        {
          hr_detect_note (findings, "NVIDIA: %s has no %s; the driver is too old "
                          "or the library is not NVML", library, symbols[i].symbol);
          g_clear_pointer (&nvml->module, g_module_close);
          return FALSE;
        }
    }
  return TRUE;
}

static char *
pci_slot_of (const nvmlPciInfo_t *info)
{
  /* busId is "00000000:01:00.0"; sysfs says "0000:01:00.0". */
  if (info->domain > 0xffff || info->bus > 0xff || info->device > 0x1f)
    return NULL;
  return g_strdup_printf ("%04x:%02x:%02x.0", info->domain, info->bus, info->device);
}

static void
read_device (Nvml             *nvml,
             guint             index,
             HrDetectFindings *findings)
{
  g_autoptr(HrGpuInfo) gpu = hr_gpu_info_new ();
  nvmlDevice_t device = NULL;
  nvmlMemory_t memory = { 0 };
  nvmlPciInfo_t pci = { 0 };
  char name[NVML_DEVICE_NAME_BUFFER_SIZE + 1] = { 0 };
  unsigned int value = 0;
  nvmlReturn_t rc;

  rc = nvml->get_handle (index, &device);
  if (rc != NVML_SUCCESS || device == NULL)
    {
      g_autofree char *why = describe (nvml, rc);
      hr_detect_note (findings, "NVIDIA GPU %u: cannot be opened: %s", index, why);
      return;
    }

  gpu->vendor = HR_GPU_VENDOR_NVIDIA;
  gpu->pci_vendor = HR_PCI_VENDOR_NVIDIA;
  gpu->driver = g_strdup ("nvidia");
  gpu->source = "nvml";

  rc = nvml->get_name (device, name, NVML_DEVICE_NAME_BUFFER_SIZE);
  if (rc == NVML_SUCCESS)
    gpu->name = hr_detect_sanitize (name, NVML_DEVICE_NAME_BUFFER_SIZE);

  rc = nvml->get_memory (device, &memory);
  if (rc == NVML_SUCCESS && memory.total > 0 && memory.free <= memory.total)
    {
      /* An absurd figure is said in a note and stays unknown. */
      if (hr_detect_plausible_gpu_memory (findings, gpu->name != NULL ? gpu->name : "NVIDIA GPU",
                                          memory.total))
        {
          gpu->memory_bytes = memory.total;
          gpu->used_bytes = MIN (memory.used, memory.total);
          gpu->free_bytes = memory.free;
          gpu->free_known = TRUE;
        }
    }
  else if (rc == NVML_ERROR_NOT_SUPPORTED)
    {
      /* A GPU without memory of its own (DGX Spark's GB10, Jetson): NVML
       * has no figure because the GPU uses the system's memory. */
      gpu->integrated = TRUE;
    }
  else
    {
      g_autofree char *why = rc != NVML_SUCCESS ? describe (nvml, rc)
                                                : g_strdup ("inconsistent figures");
      hr_detect_note (findings, "NVIDIA GPU %u: memory not readable: %s", index, why);
    }

  if (nvml->get_bus_width != NULL &&
      nvml->get_bus_width (device, &value) == NVML_SUCCESS && value > 0 && value <= 16384)
    gpu->bus_width_bits = value;
  if (nvml->get_max_clock != NULL &&
      nvml->get_max_clock (device, NVML_CLOCK_MEM, &value) == NVML_SUCCESS &&
      value > 0 && value <= 100000)
    gpu->max_memory_clock_mhz = value;
  if (gpu->bus_width_bits > 0 && gpu->max_memory_clock_mhz > 0)
    gpu->bandwidth_gbps = gpu->bus_width_bits / 8.0 * gpu->max_memory_clock_mhz * 1e6 *
                          HR_DETECT_NVML_TRANSFERS_PER_CLOCK / 1e9;

  if (nvml->get_pcie_generation != NULL &&
      nvml->get_pcie_generation (device, &value) == NVML_SUCCESS && value <= 32)
    gpu->pcie_generation = value;
  if (nvml->get_pcie_width != NULL &&
      nvml->get_pcie_width (device, &value) == NVML_SUCCESS && value <= 64)
    gpu->pcie_width = value;

  if (nvml->get_pci_info != NULL && nvml->get_pci_info (device, &pci) == NVML_SUCCESS)
    {
      if ((pci.pci_device_id & 0xffff) == HR_PCI_VENDOR_NVIDIA)
        gpu->pci_device = pci.pci_device_id >> 16;
      gpu->pci_slot = pci_slot_of (&pci);
    }

  g_ptr_array_add (findings->gpus, g_steal_pointer (&gpu));
}

/* What sysfs knew and NVML did not say (a call that failed). */
static void
fill_from_sysfs (HrGpuInfo       *gpu,
                 const HrGpuInfo *sysfs)
{
  if (gpu->name == NULL)
    gpu->name = g_strdup (sysfs->name);
  if (gpu->pci_slot == NULL)
    gpu->pci_slot = g_strdup (sysfs->pci_slot);
  if (gpu->pci_device == 0)
    gpu->pci_device = sysfs->pci_device;
  if (gpu->pcie_generation == 0)
    gpu->pcie_generation = sysfs->pcie_generation;
  if (gpu->pcie_width == 0)
    gpu->pcie_width = sysfs->pcie_width;
}

/* sysfs saw the NVIDIA GPUs first, without memory figures: each of NVML's
 * takes the place of the one in the same PCI slot; one whose slot NVML
 * did not give takes the place of the next NVIDIA GPU of sysfs left, in
 * order (both enumerate by PCI address).  What NVML could not read is
 * kept from sysfs. */
void
hr_detect_nvml_merge (HrDetectFindings *findings,
                      guint             first_nvml)
{
  g_autoptr(GPtrArray) sysfs = NULL;

  sysfs = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_gpu_info_free);

  /* Take sysfs's NVIDIA GPUs out of the findings. */
  for (guint i = first_nvml; i-- > 0;)
    {
      HrGpuInfo *gpu = g_ptr_array_index (findings->gpus, i);

      if (gpu->vendor == HR_GPU_VENDOR_NVIDIA)
        {
          g_ptr_array_insert (sysfs, 0, g_ptr_array_steal_index (findings->gpus, i));
          first_nvml--;
        }
    }

  for (guint pass = 0; pass < 2; pass++)
    for (guint j = first_nvml; j < findings->gpus->len; j++)
      {
        HrGpuInfo *gpu = g_ptr_array_index (findings->gpus, j);

        for (guint k = 0; k < sysfs->len; k++)
          {
            HrGpuInfo *old = g_ptr_array_index (sysfs, k);
            gboolean same_slot = gpu->pci_slot != NULL && old->pci_slot != NULL &&
                                 g_ascii_strcasecmp (gpu->pci_slot, old->pci_slot) == 0;

            /* First by slot; then the ones without a slot, in order. */
            if (pass == 0 ? !same_slot : gpu->pci_slot != NULL)
              continue;
            fill_from_sysfs (gpu, old);
            g_ptr_array_remove_index (sysfs, k);
            break;
          }
      }

  /* sysfs's GPUs NVML did not report stay, before NVML's. */
  for (guint k = 0; k < sysfs->len; k++)
    g_ptr_array_insert (findings->gpus, first_nvml + k,
                        hr_gpu_info_copy (g_ptr_array_index (sysfs, k)));
}

/**
 * hr_detect_nvml_read:
 * @library: a file name or path for g_module_open()
 *
 * Adds the NVIDIA GPUs NVML reports, and notes.  In the helper only: the
 * library may crash or hang its process.  The library stays loaded: NVML
 * keeps threads of its own, and unloading it under them is not safe.
 */
void
hr_detect_nvml_read (const char       *library,
                     HrDetectFindings *findings)
{
  Nvml nvml = { 0 };
  unsigned int count = 0;
  nvmlReturn_t rc;

  if (!load (&nvml, library, findings))
    return;

  rc = nvml.init ();
  if (rc != NVML_SUCCESS)
    {
      g_autofree char *why = describe (&nvml, rc);
      hr_detect_note (findings, "NVIDIA: the driver did not answer: %s", why);
      return;
    }

  rc = nvml.get_count (&count);
  if (rc != NVML_SUCCESS)
    {
      g_autofree char *why = describe (&nvml, rc);
      hr_detect_note (findings, "NVIDIA: cannot count the GPUs: %s", why);
    }
  else
    {
      if (count > HR_DETECT_MAX_GPUS)
        {
          hr_detect_note (findings, "NVIDIA: %u GPUs reported; reading the first %d",
                          count, HR_DETECT_MAX_GPUS);
          count = HR_DETECT_MAX_GPUS;
        }
      for (guint i = 0; i < count; i++)
        read_device (&nvml, i, findings);
    }

  rc = nvml.shutdown ();
  if (rc != NVML_SUCCESS)
    g_debug ("nvmlShutdown: %d", rc);

  g_module_make_resident (nvml.module);
}
