/* hr-local-device.c — a detected GPU as a catalog device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A detected GPU is the catalog's device with its PCI id (several
 * memory sizes of one chip share an id: the closest size wins), else the
 * one with the same name once vendor words and the memory size are taken
 * out (“NVIDIA GeForce RTX 3060” and “RTX 3060 12GB”) and a memory size
 * within HR_LOCAL_MEMORY_TOLERANCE (devices added by hand too, so that a
 * card the user described is recognised).  A detected size far from the
 * catalog's (a variant the catalog does not list) is not matched.  Any
 * other GPU whose memory is known becomes a device of its own, made of
 * the detected figures: “this-computer”.
 */

#define G_LOG_DOMAIN "hr-local-device"

#include "config.h"

#include <math.h>
#include <string.h>

#include "hr-local-device.h"

struct _HrLocalDevice
{
  GObject parent_instance;

  HrGpuInfo *gpu;
  HrHardware *hardware;        /* nullable: memory unknown and no match */
  HrLocalMatch match;
  char *note;
};

G_DEFINE_FINAL_TYPE (HrLocalDevice, hr_local_device, G_TYPE_OBJECT)

static void
hr_local_device_finalize (GObject *object)
{
  HrLocalDevice *self = HR_LOCAL_DEVICE (object);

  g_clear_pointer (&self->gpu, hr_gpu_info_free);
  g_clear_object (&self->hardware);
  g_clear_pointer (&self->note, g_free);
  G_OBJECT_CLASS (hr_local_device_parent_class)->finalize (object);
}

static void
hr_local_device_class_init (HrLocalDeviceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_local_device_finalize;
}

static void
hr_local_device_init (HrLocalDevice *self)
{
}

/* ------------------------------------------------------------ matching */

static gboolean
is_memory_token (const char *token)
{
  gsize n = strlen (token);

  if (n < 3 || g_ascii_strcasecmp (token + n - 2, "gb") != 0)
    return FALSE;
  for (gsize i = 0; i < n - 2; i++)
    if (!g_ascii_isdigit (token[i]))
      return FALSE;
  return TRUE;
}

/* “NVIDIA GeForce RTX 4070 SUPER” and “RTX 4070 SUPER 12GB” → “rtx 4070 super”. */
static char *
normalize_name (const char *name)
{
  static const char * const noise[] = {
    "nvidia", "geforce", "amd", "ati", "intel", "r", "tm", "corporation", "tesla",
    "graphics", "generation", NULL
  };
  g_autofree char *lower = g_ascii_strdown (name != NULL ? name : "", -1);
  g_autoptr(GString) out = g_string_new (NULL);
  g_auto(GStrv) tokens = NULL;

  for (char *p = lower; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p))
      *p = ' ';
  tokens = g_strsplit (lower, " ", -1);
  for (guint i = 0; tokens[i] != NULL; i++)
    {
      if (tokens[i][0] == '\0' || g_strv_contains (noise, tokens[i]) ||
          is_memory_token (tokens[i]))
        continue;
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, tokens[i]);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* How far the detected size is from the catalog's, as a share; 0 when the
 * size was not detected. */
static double
memory_distance (const HrGpuInfo *gpu,
                 HrHardware      *hardware)
{
  double catalog = (double) hr_hardware_get_memory_bytes (hardware);

  if (gpu->memory_bytes == 0 || catalog <= 0)
    return 0;
  return fabs ((double) gpu->memory_bytes - catalog) / catalog;
}

static HrHardware *
find_match (HrCatalog       *catalog,
            const HrGpuInfo *gpu,
            HrLocalMatch    *match)
{
  GListModel *list = hr_catalog_get_hardware (catalog);
  g_autofree char *wanted = normalize_name (gpu->name);
  HrHardware *best = NULL;
  double best_distance = G_MAXDOUBLE;
  guint n = g_list_model_get_n_items (list);

  /* By PCI id, the closest memory size among the devices that share it. */
  if (gpu->pci_vendor != 0 && gpu->pci_device != 0)
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(HrHardware) hw = g_list_model_get_item (list, i);
        double distance;

        if (!hr_hardware_has_pci_id (hw, gpu->pci_vendor, gpu->pci_device))
          continue;
        distance = memory_distance (gpu, hw);
        if (distance <= HR_LOCAL_MEMORY_TOLERANCE && distance < best_distance)
          {
            best = hw;
            best_distance = distance;
          }
      }
  if (best != NULL)
    {
      *match = HR_LOCAL_MATCH_PCI_ID;
      return best;
    }

  /* By name and memory size. */
  if (wanted[0] != '\0')
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(HrHardware) hw = g_list_model_get_item (list, i);
        g_autofree char *name = normalize_name (hr_hardware_get_name (hw));
        double distance;

        if (strcmp (name, wanted) != 0)
          continue;
        distance = memory_distance (gpu, hw);
        if (distance <= HR_LOCAL_MEMORY_TOLERANCE && distance < best_distance)
          {
            best = hw;
            best_distance = distance;
          }
      }
  if (best != NULL)
    *match = HR_LOCAL_MATCH_NAME;
  return best;
}

/* A device made of the detected figures. */
static HrHardware *
make_hardware (const HrGpuInfo *gpu,
               guint            index,
               char           **note)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *id = index == 0 ? g_strdup (HR_LOCAL_DEVICE_ID)
                                   : g_strdup_printf ("%s-%u", HR_LOCAL_DEVICE_ID, index + 1);
  g_autofree char *name = g_strdup_printf ("%s (this computer)",
                                           gpu->name != NULL ? gpu->name : "GPU");
  g_autofree char *pci_id = hr_gpu_info_dup_pci_id (gpu);
  const char *pci_ids[] = { pci_id, NULL };
  double bandwidth = gpu->bandwidth_gbps;
  g_autofree char *source = NULL;
  HrHardwareFields values = { 0 };
  HrHardware *hardware;

  if (gpu->memory_bytes == 0)
    return NULL;

  if (bandwidth <= 0)
    {
      bandwidth = HR_LOCAL_ASSUMED_BANDWIDTH_GBPS;
      *note = g_strdup_printf ("memory bandwidth not readable; assumed %.0f GB/s "
                               "(add the device by hand with its own figure)", bandwidth);
    }
  else if (gpu->bandwidth_from_ram)
    *note = g_strdup_printf ("memory bandwidth is the system RAM's, %.1f GB/s", bandwidth);
  else if (gpu->bandwidth_assumed)
    *note = g_strdup_printf ("memory bandwidth is the platform's, %.0f GB/s", bandwidth);

  source = g_strdup_printf ("Detected on this computer (%s)%s%s",
                            gpu->source != NULL ? gpu->source : "unknown",
                            *note != NULL ? "; " : "", *note != NULL ? *note : "");

  values.id = id;
  values.name = name;
  values.vendor = hr_gpu_vendor_to_string (gpu->vendor);
  values.kind = gpu->integrated ? HR_DEVICE_UNIFIED : HR_DEVICE_DISCRETE;
  values.memory_gib = MIN ((double) gpu->memory_bytes / HR_GIB, 1024.0);
  values.bandwidth_gbps = MIN (bandwidth, 100000.0);
  values.source = source;
  values.pci_ids = pci_id != NULL ? pci_ids : NULL;

  hardware = hr_hardware_new_from_fields (&values, &error);
  if (hardware == NULL)
    g_debug ("%s: %s", name, error->message);
  return hardware;
}

/**
 * hr_local_devices_new:
 *
 * One #HrLocalDevice per detected GPU, in the order of @info (discrete
 * GPUs first).  Devices made from detected figures are not added to
 * @catalog: see hr_local_devices_add_to_catalog().
 *
 * Returns: (transfer full): a list of #HrLocalDevice
 */
GListModel *
hr_local_devices_new (HrCatalog    *catalog,
                      HrSystemInfo *info)
{
  GListStore *store;
  guint made = 0;

  g_return_val_if_fail (HR_IS_CATALOG (catalog), NULL);
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (info), NULL);

  store = g_list_store_new (HR_TYPE_LOCAL_DEVICE);
  for (guint i = 0; i < hr_system_info_get_n_gpus (info); i++)
    {
      g_autoptr(HrLocalDevice) device = g_object_new (HR_TYPE_LOCAL_DEVICE, NULL);
      HrHardware *found;

      device->gpu = hr_gpu_info_copy (hr_system_info_get_gpu (info, i));
      found = find_match (catalog, device->gpu, &device->match);
      if (found != NULL)
        device->hardware = g_object_ref (found);
      else
        {
          device->match = HR_LOCAL_MATCH_NONE;
          device->hardware = make_hardware (device->gpu, made, &device->note);
          if (device->hardware != NULL)
            made++;
          else if (device->gpu->memory_bytes == 0)
            device->note = g_strdup ("memory size not readable and not a catalog device "
                                     "(add it by hand)");
        }
      g_list_store_append (store, device);
    }
  return G_LIST_MODEL (store);
}

/**
 * hr_local_devices_pick:
 *
 * The device to select on first start: the first GPU that is a device
 * (discrete GPUs come first, then the unified-memory machine).
 *
 * Returns: (transfer none) (nullable): the device
 */
HrLocalDevice *
hr_local_devices_pick (GListModel *devices)
{
  g_return_val_if_fail (G_IS_LIST_MODEL (devices), NULL);

  for (guint i = 0; i < g_list_model_get_n_items (devices); i++)
    {
      g_autoptr(HrLocalDevice) device = g_list_model_get_item (devices, i);

      if (device->hardware != NULL)
        return device;   /* the list keeps it alive */
    }
  return NULL;
}

/**
 * hr_local_devices_add_to_catalog:
 *
 * Adds the devices made from detected figures to @catalog (in memory
 * only), so that they are picked and listed like the catalog's.
 */
void
hr_local_devices_add_to_catalog (GListModel *devices,
                                 HrCatalog  *catalog)
{
  g_return_if_fail (G_IS_LIST_MODEL (devices));
  g_return_if_fail (HR_IS_CATALOG (catalog));

  for (guint i = 0; i < g_list_model_get_n_items (devices); i++)
    {
      g_autoptr(HrLocalDevice) device = g_list_model_get_item (devices, i);

      if (device->hardware != NULL && device->match == HR_LOCAL_MATCH_NONE)
        hr_catalog_add_hardware (catalog, device->hardware);
    }
}

/* ------------------------------------------------------------ getters */

const HrGpuInfo *
hr_local_device_get_gpu (HrLocalDevice *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_DEVICE (self), NULL);
  return self->gpu;
}

/**
 * hr_local_device_get_hardware:
 *
 * Returns: (transfer none) (nullable): the catalog's device, or one made
 *   of the detected figures; %NULL when neither is possible
 */
HrHardware *
hr_local_device_get_hardware (HrLocalDevice *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_DEVICE (self), NULL);
  return self->hardware;
}

/* The matched catalog device's id, or %NULL. */
const char *
hr_local_device_get_catalog_id (HrLocalDevice *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_DEVICE (self), NULL);
  return self->match != HR_LOCAL_MATCH_NONE ? hr_hardware_get_id (self->hardware) : NULL;
}

HrLocalMatch
hr_local_device_get_match (HrLocalDevice *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_DEVICE (self), HR_LOCAL_MATCH_NONE);
  return self->match;
}

/* The name the driver gives. */
const char *
hr_local_device_get_name (HrLocalDevice *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_DEVICE (self), NULL);
  return self->gpu->name != NULL ? self->gpu->name : "GPU";
}

/* Detected, else the catalog's; 0 when neither. */
guint64
hr_local_device_get_memory_bytes (HrLocalDevice *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_DEVICE (self), 0);
  if (self->gpu->memory_bytes > 0)
    return self->gpu->memory_bytes;
  return self->hardware != NULL ? hr_hardware_get_memory_bytes (self->hardware) : 0;
}

gboolean
hr_local_device_get_free_known (HrLocalDevice *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_DEVICE (self), FALSE);
  return self->gpu->free_known;
}

guint64
hr_local_device_get_free_bytes (HrLocalDevice *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_DEVICE (self), 0);
  return self->gpu->free_known ? self->gpu->free_bytes : 0;
}

/* Detected (or derived from the platform or RAM), else the device's. */
double
hr_local_device_get_bandwidth_gbps (HrLocalDevice *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_DEVICE (self), 0);
  if (self->gpu->bandwidth_gbps > 0)
    return self->gpu->bandwidth_gbps;
  return self->hardware != NULL ? hr_hardware_get_bandwidth_gbps (self->hardware) : 0;
}

gboolean
hr_local_device_is_unified (HrLocalDevice *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_DEVICE (self), FALSE);
  if (self->hardware != NULL)
    return hr_hardware_is_unified (self->hardware);
  return self->gpu->integrated;
}

/* What was assumed or could not be read about this device, or %NULL. */
const char *
hr_local_device_get_note (HrLocalDevice *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_DEVICE (self), NULL);
  return self->note;
}

/**
 * hr_local_device_dup_summary:
 *
 * “RTX 3060 12GB, 11.20 GiB free”: the device's name (the catalog's when
 * matched) and what is free now, when known.
 */
char *
hr_local_device_dup_summary (HrLocalDevice *self,
                             HrUnits        units)
{
  const char *name;
  g_autofree char *free_text = NULL;

  g_return_val_if_fail (HR_IS_LOCAL_DEVICE (self), NULL);

  name = self->match != HR_LOCAL_MATCH_NONE ? hr_hardware_get_name (self->hardware)
                                            : hr_local_device_get_name (self);
  if (!self->gpu->free_known)
    return g_strdup (name);
  free_text = hr_format_size (self->gpu->free_bytes, units);
  return g_strdup_printf ("%s, %s free", name, free_text);
}

const char *
hr_local_match_to_string (HrLocalMatch match)
{
  switch (match)
    {
    case HR_LOCAL_MATCH_PCI_ID:
      return "pci-id";
    case HR_LOCAL_MATCH_NAME:
      return "name";
    case HR_LOCAL_MATCH_NONE:
    default:
      return NULL;
    }
}
