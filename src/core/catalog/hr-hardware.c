/* hr-hardware.c — one device of the catalog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-hardware"

#include "config.h"

#include <math.h>
#include <string.h>

#include "hr-catalog-json.h"
#include "hr-fields.h"
#include "hr-hardware.h"

struct _HrHardware
{
  GObject parent_instance;

  char *id;
  char *name;
  char *vendor;
  char *family;
  char *kind;
  char *memory_type;
  char *source;
  char *pcie;
  char *interconnect;
  char *source_quality;
  double memory_gib;
  double bandwidth_gbps;
  double fp16_tflops;
  double int8_tops;
  double tdp_w;
  double pcie_gbps;
  char **pci_ids;
  gboolean custom;

  HrDevice device;
};

G_DEFINE_FINAL_TYPE (HrHardware, hr_hardware, G_TYPE_OBJECT)

#define F(member, type, req, field, blurb) \
  HR_FIELD (HrHardware, member, type, req, 0, field, blurb)

static const HrField fields[] = {
  F ("id", HR_FIELD_STRING, TRUE, id, "Identifier used by the CLI"),
  F ("name", HR_FIELD_STRING, TRUE, name, "Display name"),
  F ("vendor", HR_FIELD_STRING, TRUE, vendor, "Vendor"),
  F ("family", HR_FIELD_STRING, TRUE, family, "Family (decode calibration)"),
  F ("kind", HR_FIELD_STRING, TRUE, kind, "discrete or unified"),
  F ("memory_type", HR_FIELD_STRING, FALSE, memory_type, "Memory technology"),
  F ("source", HR_FIELD_STRING, FALSE, source, "Where the figures come from"),
  F ("memory_gib", HR_FIELD_DOUBLE, TRUE, memory_gib, "Memory in GiB as the device reports it"),
  F ("bandwidth_gbps", HR_FIELD_DOUBLE, TRUE, bandwidth_gbps, "Memory bandwidth, GB/s"),
  F ("fp16_tflops", HR_FIELD_DOUBLE, FALSE, fp16_tflops,
     "Dense FP16 matrix TFLOPS as llama.cpp drives it (GeForce: FP16 accumulate)"),
  F ("int8_tops", HR_FIELD_DOUBLE, FALSE, int8_tops, "Dense INT8 tensor TOPS"),
  F ("tdp_w", HR_FIELD_DOUBLE, FALSE, tdp_w, "Board power, W"),
  F ("pcie", HR_FIELD_STRING, FALSE, pcie, "Host link, e.g. 4.0 x16"),
  F ("pcie_gbps", HR_FIELD_DOUBLE, FALSE, pcie_gbps, "Host link, pinned copies, GB/s"),
  F ("interconnect", HR_FIELD_STRING, FALSE, interconnect,
     "GPU to GPU: nvswitch, nvlink, nvlink-bridge, infinity-fabric, pcie, none"),
  F ("source_quality", HR_FIELD_STRING, FALSE, source_quality,
     "vendor, whitepaper, derived …"),
  F ("pci_ids", HR_FIELD_STRV, FALSE, pci_ids,
     "PCI vendor:device ids (“10de:2504”), to recognise a detected device"),
  F ("custom", HR_FIELD_BOOL, FALSE, custom, "Added by the user in the device editor"),
};

enum {
  PROP_0,
  PROP_MEMORY_BYTES = G_N_ELEMENTS (fields) + 1,
  PROP_USABLE_BYTES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
hr_hardware_finalize (GObject *object)
{
  hr_fields_free_strings (object, fields, G_N_ELEMENTS (fields));
  G_OBJECT_CLASS (hr_hardware_parent_class)->finalize (object);
}

static void
hr_hardware_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  HrHardware *self = HR_HARDWARE (object);

  switch (prop_id)
    {
    case PROP_MEMORY_BYTES:
      g_value_set_uint64 (value, self->device.memory_bytes);
      break;
    case PROP_USABLE_BYTES:
      g_value_set_uint64 (value, hr_device_usable_bytes (&self->device));
      break;
    default:
      if (!hr_fields_get_property (self, 1, fields, G_N_ELEMENTS (fields), prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_hardware_class_init (HrHardwareClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = hr_hardware_finalize;
  object_class->get_property = hr_hardware_get_property;

  hr_fields_install_properties (object_class, 1, fields, G_N_ELEMENTS (fields), NULL);

  properties[PROP_MEMORY_BYTES] =
    g_param_spec_uint64 ("memory-bytes", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_USABLE_BYTES] =
    g_param_spec_uint64 ("usable-bytes", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  for (guint i = PROP_MEMORY_BYTES; i < N_PROPS; i++)
    g_object_class_install_property (object_class, i, properties[i]);
}

static void
hr_hardware_init (HrHardware *self)
{
}

static gboolean
fail (GError    **error,
      const char *message)
{
  g_set_error_literal (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID, message);
  return FALSE;
}

/* "10de:2504" in lower case: four hex digits, a colon, four hex digits. */
static gboolean
normalize_pci_id (char *id)
{
  if (strlen (id) != 9 || id[4] != ':')
    return FALSE;
  for (guint i = 0; i < 9; i++)
    {
      if (i == 4)
        continue;
      if (!g_ascii_isxdigit (id[i]))
        return FALSE;
      id[i] = g_ascii_tolower (id[i]);
    }
  return TRUE;
}

HrHardware *
hr_hardware_new_from_json (JsonObject  *object,
                           GError     **error)
{
  g_autoptr(HrHardware) self = NULL;

  g_return_val_if_fail (object != NULL, NULL);

  self = g_object_new (HR_TYPE_HARDWARE, NULL);
  if (!hr_fields_read_json (self, fields, G_N_ELEMENTS (fields), object, error))
    return NULL;

  if (g_strcmp0 (self->kind, "discrete") == 0)
    self->device.kind = HR_DEVICE_DISCRETE;
  else if (g_strcmp0 (self->kind, "unified") == 0)
    self->device.kind = HR_DEVICE_UNIFIED;
  else
    return fail (error, "field “kind” must be “discrete” or “unified”"), NULL;

  if (!hr_hardware_family_from_string (self->family, &self->device.family))
    return fail (error, "field “family” is not a known hardware family "
                 "(nvidia-geforce, nvidia-workstation, nvidia-datacenter, "
                 "nvidia-soc, amd-radeon, amd-instinct, amd-apu, intel-arc, "
                 "apple-silicon)"), NULL;

  /* 1 TiB per device is beyond any product; it catches unit mistakes. */
  if (!(self->memory_gib > 0 && self->memory_gib <= 1024))
    return fail (error, "field “memory_gib” must be in (0, 1024]"), NULL;
  if (!(self->bandwidth_gbps > 0 && self->bandwidth_gbps <= 100000))
    return fail (error, "field “bandwidth_gbps” must be in (0, 100000]"), NULL;

  if (!(self->fp16_tflops >= 0 && self->fp16_tflops <= 100000))
    return fail (error, "field “fp16_tflops” must be in [0, 100000]"), NULL;
  if (!(self->tdp_w >= 0 && self->tdp_w <= 100000) ||
      !(self->pcie_gbps >= 0 && self->pcie_gbps <= 100000))
    return fail (error, "fields “tdp_w” and “pcie_gbps” must be in [0, 100000]"), NULL;
  for (guint i = 0; self->pci_ids != NULL && self->pci_ids[i] != NULL; i++)
    if (!normalize_pci_id (self->pci_ids[i]))
      return fail (error, "field “pci_ids” must hold vendor:device pairs of "
                   "four hexadecimal digits each, such as “10de:2504”"), NULL;

  self->device.memory_bytes = (guint64) llround (self->memory_gib * HR_GIB);
  self->device.bandwidth_gbps = self->bandwidth_gbps;
  self->device.matrix_tflops = self->fp16_tflops;
  self->device.hbm = self->memory_type != NULL && g_str_has_prefix (self->memory_type, "HBM");
  self->device.tdp_watts = self->tdp_w;
  self->device.pcie_gbps = self->pcie_gbps;
  {
    static const struct { const char *name; HrFabric fabric; } fabrics[] = {
      { "nvswitch", HR_FABRIC_NVLINK }, { "nvlink", HR_FABRIC_NVLINK },
      { "nvlink-bridge", HR_FABRIC_NVLINK_BRIDGE }, { "infinity-fabric", HR_FABRIC_INFINITY },
      { "pcie", HR_FABRIC_PCIE }, { "none", HR_FABRIC_NONE },
    };

    /* unknown or absent: PCIe, what every add-in card has */
    self->device.fabric = HR_FABRIC_PCIE;
    for (guint i = 0; self->interconnect != NULL && i < G_N_ELEMENTS (fabrics); i++)
      if (g_str_equal (self->interconnect, fabrics[i].name))
        self->device.fabric = fabrics[i].fabric;
  }

  return g_steal_pointer (&self);
}

const HrDevice *
hr_hardware_get_device (HrHardware *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE (self), NULL);
  return &self->device;
}

const char *
hr_hardware_get_id (HrHardware *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE (self), NULL);
  return self->id;
}

const char *
hr_hardware_get_name (HrHardware *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE (self), NULL);
  return self->name;
}

const char *
hr_hardware_get_vendor (HrHardware *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE (self), NULL);
  return self->vendor;
}

guint64
hr_hardware_get_memory_bytes (HrHardware *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE (self), 0);
  return self->device.memory_bytes;
}

double
hr_hardware_get_bandwidth_gbps (HrHardware *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE (self), 0);
  return self->device.bandwidth_gbps;
}

gboolean
hr_hardware_is_unified (HrHardware *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE (self), FALSE);
  return self->device.kind == HR_DEVICE_UNIFIED;
}

double
hr_hardware_get_fp16_tflops (HrHardware *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE (self), 0);
  return self->fp16_tflops;
}

const char *
hr_hardware_get_family (HrHardware *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE (self), NULL);
  return self->family;
}

const char *
hr_hardware_get_source (HrHardware *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE (self), NULL);
  return self->source;
}

/**
 * hr_hardware_get_pci_ids:
 *
 * Returns: (transfer none) (nullable): lower-case “vendor:device” ids
 */
const char * const *
hr_hardware_get_pci_ids (HrHardware *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE (self), NULL);
  return (const char * const *) self->pci_ids;
}

gboolean
hr_hardware_has_pci_id (HrHardware *self,
                        guint16     vendor,
                        guint16     device)
{
  char id[10];

  g_return_val_if_fail (HR_IS_HARDWARE (self), FALSE);

  if (self->pci_ids == NULL)
    return FALSE;
  g_snprintf (id, sizeof id, "%04x:%04x", vendor, device);
  return g_strv_contains ((const char * const *) self->pci_ids, id);
}

gboolean
hr_hardware_is_custom (HrHardware *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE (self), FALSE);
  return self->custom;
}

/**
 * hr_hardware_to_json:
 *
 * The entry as the catalog files hold it; reads back to the same device.
 *
 * Returns: (transfer full): a new object
 */
JsonObject *
hr_hardware_to_json (HrHardware *self)
{
  JsonObject *object;

  g_return_val_if_fail (HR_IS_HARDWARE (self), NULL);

  object = json_object_new ();
  hr_fields_write_json (self, fields, G_N_ELEMENTS (fields), object);
  return object;
}

static gboolean
name_has_any (const char         *name,
              const char * const *words)
{
  for (guint i = 0; words[i] != NULL; i++)
    if (strstr (name, words[i]) != NULL)
      return TRUE;
  return FALSE;
}

/**
 * hr_hardware_family_for:
 * @vendor: “NVIDIA”, “AMD”, “Intel”, “Apple” or anything else
 * @name: the product name, for NVIDIA and AMD product lines
 * @kind: discrete or unified
 *
 * The family (decode-efficiency calibration) of a device that is not in
 * the catalog.  Other vendors get the most conservative efficiency of
 * their kind (Intel Arc's for discrete, Apple's for unified memory).
 */
const char *
hr_hardware_family_for (const char   *vendor,
                        const char   *name,
                        HrDeviceKind  kind)
{
  static const char * const datacenter[] = {
    "Tesla", "A100", "A800", "H100", "H800", "H200", "B100", "B200", "GB10", "GH200",
    "GB200", "L40", "L4 ", "A10 ", "A30", "A40", "T4", "V100", NULL
  };
  static const char * const workstation[] = {
    "Quadro", "RTX A", "RTX PRO", " Ada", "RTX 4000", "RTX 5000", "RTX 6000", "RTX 8000", NULL
  };
  g_autofree char *padded = g_strconcat (name != NULL ? name : "", " ", NULL);

  if (g_ascii_strcasecmp (vendor, "NVIDIA") == 0)
    {
      if (name_has_any (padded, datacenter))
        return "nvidia-datacenter";
      if (name_has_any (padded, workstation))
        return "nvidia-workstation";
      return "nvidia-geforce";
    }
  if (g_ascii_strcasecmp (vendor, "AMD") == 0)
    return strstr (padded, "Instinct") != NULL ? "amd-instinct" : "amd-radeon";
  if (g_ascii_strcasecmp (vendor, "Intel") == 0)
    return "intel-arc";
  if (g_ascii_strcasecmp (vendor, "Apple") == 0)
    return "apple-silicon";
  return kind == HR_DEVICE_UNIFIED ? "apple-silicon" : "intel-arc";
}

/**
 * hr_hardware_new_from_fields:
 *
 * A device from values rather than a catalog file (the device editor, a
 * detected device that the catalog does not know).  The values go through
 * the same checks as a catalog entry, so the error messages are the same.
 *
 * Returns: (transfer full): the device, or %NULL with @error set
 */
HrHardware *
hr_hardware_new_from_fields (const HrHardwareFields  *values,
                             GError                 **error)
{
  g_autoptr(JsonObject) object = json_object_new ();
  const char *vendor;

  g_return_val_if_fail (values != NULL, NULL);

  vendor = values->vendor != NULL && values->vendor[0] != '\0' ? values->vendor : "Other";
  if (values->id != NULL)
    json_object_set_string_member (object, "id", values->id);
  if (values->name != NULL)
    json_object_set_string_member (object, "name", values->name);
  json_object_set_string_member (object, "vendor", vendor);
  json_object_set_string_member (object, "family",
                                 values->family != NULL
                                 ? values->family
                                 : hr_hardware_family_for (vendor, values->name, values->kind));
  json_object_set_string_member (object, "kind",
                                 values->kind == HR_DEVICE_UNIFIED ? "unified" : "discrete");
  if (values->memory_type != NULL)
    json_object_set_string_member (object, "memory_type", values->memory_type);
  if (values->source != NULL)
    json_object_set_string_member (object, "source", values->source);
  json_object_set_double_member (object, "memory_gib", values->memory_gib);
  json_object_set_double_member (object, "bandwidth_gbps", values->bandwidth_gbps);
  if (values->fp16_tflops != 0)
    json_object_set_double_member (object, "fp16_tflops", values->fp16_tflops);
  if (values->pci_ids != NULL)
    {
      JsonArray *array = json_array_new ();

      for (guint i = 0; values->pci_ids[i] != NULL; i++)
        json_array_add_string_element (array, values->pci_ids[i]);
      json_object_set_array_member (object, "pci_ids", array);
    }
  if (values->custom)
    json_object_set_boolean_member (object, "custom", TRUE);

  return hr_hardware_new_from_json (object, error);
}
