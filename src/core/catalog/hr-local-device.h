/* hr-local-device.h — a detected GPU as a catalog device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-catalog.h"
#include "hr-detect.h"
#include "hr-format.h"

G_BEGIN_DECLS

/* Ids of the devices made from detected figures when the catalog does not
 * know the GPU: “this-computer”, “this-computer-2”… and the CLI's
 * `--hardware local`. */
#define HR_LOCAL_DEVICE_ID         "this-computer"
#define HR_LOCAL_HARDWARE_ARGUMENT "local"

/* A discrete GPU whose bandwidth cannot be read (AMD and Intel through
 * sysfs) and that the catalog does not know is given this figure, a
 * mid-range 128-bit GDDR6 card's (16 Gb/s × 16 bytes), and says so. */
#define HR_LOCAL_ASSUMED_BANDWIDTH_GBPS 256.0

/* A detected memory size matches a catalog device's within this share
 * (drivers report a little less than the marketed size). */
#define HR_LOCAL_MEMORY_TOLERANCE 0.08

typedef enum
{
  HR_LOCAL_MATCH_NONE,         /* made from the detected figures */
  HR_LOCAL_MATCH_PCI_ID,
  HR_LOCAL_MATCH_NAME,
} HrLocalMatch;

#define HR_TYPE_LOCAL_DEVICE (hr_local_device_get_type ())

G_DECLARE_FINAL_TYPE (HrLocalDevice, hr_local_device, HR, LOCAL_DEVICE, GObject)

GListModel      *hr_local_devices_new             (HrCatalog     *catalog,
                                                   HrSystemInfo  *info);
HrLocalDevice   *hr_local_devices_pick            (GListModel    *devices);
void             hr_local_devices_add_to_catalog  (GListModel    *devices,
                                                   HrCatalog     *catalog);

const HrGpuInfo *hr_local_device_get_gpu          (HrLocalDevice *self);
HrHardware      *hr_local_device_get_hardware     (HrLocalDevice *self);
const char      *hr_local_device_get_catalog_id   (HrLocalDevice *self);
HrLocalMatch     hr_local_device_get_match        (HrLocalDevice *self);
const char      *hr_local_device_get_name         (HrLocalDevice *self);
guint64          hr_local_device_get_memory_bytes (HrLocalDevice *self);
gboolean         hr_local_device_get_free_known   (HrLocalDevice *self);
guint64          hr_local_device_get_free_bytes   (HrLocalDevice *self);
double           hr_local_device_get_bandwidth_gbps (HrLocalDevice *self);
gboolean         hr_local_device_is_unified       (HrLocalDevice *self);
const char      *hr_local_device_get_note         (HrLocalDevice *self);
char            *hr_local_device_dup_summary      (HrLocalDevice *self,
                                                   HrUnits        units);
const char      *hr_local_match_to_string         (HrLocalMatch   match);

G_END_DECLS
