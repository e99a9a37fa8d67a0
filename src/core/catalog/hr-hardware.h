/* hr-hardware.h — one device of the catalog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-device.h"

G_BEGIN_DECLS

#define HR_TYPE_HARDWARE (hr_hardware_get_type ())

G_DECLARE_FINAL_TYPE (HrHardware, hr_hardware, HR, HARDWARE, GObject)

/* The values of a device made in code; see hr_hardware_new_from_fields(). */
typedef struct
{
  const char *id;
  const char *name;
  const char *vendor;          /* NULL or empty: “Other” */
  const char *family;          /* NULL: hr_hardware_family_for() */
  HrDeviceKind kind;
  double memory_gib;
  double bandwidth_gbps;
  double fp16_tflops;          /* 0: unknown */
  const char *memory_type;     /* nullable */
  const char *source;          /* nullable */
  const char * const *pci_ids; /* nullable */
  gboolean custom;
} HrHardwareFields;

HrHardware     *hr_hardware_new_from_json   (JsonObject  *object,
                                             GError     **error);
const HrDevice *hr_hardware_get_device      (HrHardware  *self);
const char     *hr_hardware_get_id          (HrHardware  *self);
const char     *hr_hardware_get_name        (HrHardware  *self);
const char     *hr_hardware_get_vendor      (HrHardware  *self);
guint64         hr_hardware_get_memory_bytes (HrHardware *self);
double          hr_hardware_get_bandwidth_gbps (HrHardware *self);
gboolean        hr_hardware_is_unified      (HrHardware  *self);
double          hr_hardware_get_fp16_tflops (HrHardware  *self);
const char     *hr_hardware_get_family      (HrHardware  *self);
const char     *hr_hardware_get_source      (HrHardware  *self);
const char * const *hr_hardware_get_pci_ids (HrHardware  *self);
gboolean        hr_hardware_has_pci_id      (HrHardware  *self,
                                             guint16      vendor,
                                             guint16      device);
gboolean        hr_hardware_is_custom       (HrHardware  *self);
JsonObject     *hr_hardware_to_json         (HrHardware  *self);
HrHardware     *hr_hardware_new_from_fields (const HrHardwareFields  *values,
                                             GError                 **error);
const char     *hr_hardware_family_for      (const char   *vendor,
                                             const char   *name,
                                             HrDeviceKind  kind);

G_END_DECLS
