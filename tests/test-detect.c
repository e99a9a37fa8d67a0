/* test-detect.c — detection on fake systems and stub NVML libraries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each test builds a fake /sys and /proc (fake-trees.c) and points
 * detection at it, with one of the stand-ins for libnvidia-ml.so.1 built
 * in tests/nvml (or none), so that the results are the same on any
 * machine.  Bounds are checked through what detection reports
 * (hr_system_info_is_complete()), not through wall time.
 */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>

#include "fake-trees.h"
#include "hr-detect-private.h"
#include "hr-local-device.h"
#include "hr-test-util.h"
#include "hr-tree.h"

static char *
stub (const char *variant)
{
  const char *dir = g_getenv ("HEADROOM_NVML_STUB_DIR");

  g_assert_nonnull (dir);
  if (g_str_equal (variant, "good"))
    return g_build_filename (dir, "libnvidia-ml.so.1", NULL);
  return g_strdup_printf ("%s/libnvml-stub-%s.so", dir, variant);
}

static HrSystemInfo *
detect (HrTestDir  *fixture,
        const char *scenario,
        const char *nvml,
        guint       timeout_ms)
{
  g_autofree char *library = nvml != NULL ? stub (nvml) : g_strdup ("");
  HrDetectOptions options = { fixture->dir, library, timeout_ms };

  hr_fake_system_write (fixture->dir, scenario);
  return hr_detect_system (&options, NULL);
}

static gboolean
notes_mention (HrSystemInfo *info,
               const char   *text)
{
  const char * const *notes = hr_system_info_get_notes (info);

  for (guint i = 0; notes[i] != NULL; i++)
    if (strstr (notes[i], text) != NULL)
      return TRUE;
  return FALSE;
}

static void
assert_note (HrSystemInfo *info,
             const char   *text)
{
  if (!notes_mention (info, text))
    {
      g_autofree char *all = g_strjoinv ("\n", (char **) hr_system_info_get_notes (info));
      g_error ("no note mentions “%s”; the notes are:\n%s", text, all);
    }
}

static HrLocalDevice *
local_device (GListModel *devices,
              guint       index)
{
  g_autoptr(HrLocalDevice) device = g_list_model_get_item (devices, index);

  g_assert_nonnull (device);
  return device;   /* the list keeps it */
}

/* ------------------------------------------------------------- sysfs */

static void
test_amd (HrTestDir     *fixture,
          gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "amd", NULL, 0);
  g_autoptr(GListModel) devices = NULL;
  const HrGpuInfo *gpu;
  HrLocalDevice *device;

  g_assert_true (hr_system_info_is_complete (info));
  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 1);
  gpu = hr_system_info_get_gpu (info, 0);
  g_assert_cmpint (gpu->vendor, ==, HR_GPU_VENDOR_AMD);
  g_assert_cmpstr (gpu->name, ==, "AMD Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M");
  g_assert_cmpstr (gpu->driver, ==, "amdgpu");
  g_assert_cmpstr (gpu->pci_slot, ==, "0000:03:00.0");
  g_assert_cmphex (gpu->pci_vendor, ==, 0x1002);
  g_assert_cmphex (gpu->pci_device, ==, 0x744c);
  g_assert_cmpuint (gpu->memory_bytes, ==, 25753026560);
  g_assert_true (gpu->free_known);
  g_assert_cmpuint (gpu->free_bytes, ==, 25753026560 - 1073741824);
  g_assert_cmpuint (gpu->pcie_generation, ==, 4);
  g_assert_cmpuint (gpu->pcie_width, ==, 16);
  g_assert_false (gpu->integrated);
  g_assert_cmpstr (gpu->source, ==, "sysfs");

  g_assert_cmpuint (hr_system_info_get_ram_total_bytes (info), ==, 65536000ull * 1024);
  g_assert_cmpuint (hr_system_info_get_ram_available_bytes (info), ==, 40000000ull * 1024);
  g_assert_cmpstr (hr_system_info_get_cpu_model (info), ==, "AMD Ryzen 9 7950X 16-Core Processor");
  g_assert_cmpuint (hr_system_info_get_cpu_cores (info), ==, 16);
  g_assert_cmpuint (hr_system_info_get_cpu_threads (info), ==, 32);
  g_assert_cmpstr (hr_system_info_get_cpu_simd (info), ==, "avx512");
  assert_close (hr_system_info_get_cpu_base_ghz (info), 4.5, 1e-9);
  /* SMBIOS not readable here: the stated assumption */
  g_assert_true (hr_system_info_get_ram_assumed (info));
  g_assert_cmpstr (hr_system_info_get_ram_type (info), ==, HR_DETECT_ASSUMED_RAM_TYPE);
  assert_close (hr_system_info_get_ram_bandwidth_gbps (info), 89.6, 1e-9);
  assert_note (info, "assumed dual-channel DDR5-5600");

  /* Both RX 7900 cards share 1002:744c: the memory size tells them apart. */
  devices = hr_local_devices_new (fixture->catalog, info);
  g_assert_cmpuint (g_list_model_get_n_items (devices), ==, 1);
  device = local_device (devices, 0);
  g_assert_cmpint (hr_local_device_get_match (device), ==, HR_LOCAL_MATCH_PCI_ID);
  g_assert_cmpstr (hr_local_device_get_catalog_id (device), ==, "radeon-rx-7900-xtx-24gb");
  g_assert_true (hr_local_devices_pick (devices) == device);
  g_assert_cmpuint (hr_local_device_get_free_bytes (device), ==, 25753026560 - 1073741824);
}

static void
test_intel_arc (HrTestDir     *fixture,
                gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "intel-arc", NULL, 0);
  g_autoptr(GListModel) devices = NULL;
  const HrGpuInfo *arc, *igpu;
  HrLocalDevice *device;
  HrHardware *hw;

  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 2);
  /* Discrete first, though the integrated GPU is card0. */
  arc = hr_system_info_get_gpu (info, 0);
  igpu = hr_system_info_get_gpu (info, 1);
  g_assert_cmpstr (arc->name, ==, "Intel Arc A770");
  g_assert_cmpuint (arc->memory_bytes, ==, 17179869184);
  g_assert_false (arc->integrated);
  g_assert_false (arc->free_known);
  g_assert_cmpstr (igpu->name, ==, "Intel UHD Graphics 770");
  g_assert_true (igpu->integrated);
  g_assert_cmpuint (igpu->memory_bytes, ==, 32768000ull * 1024);
  g_assert_true (igpu->bandwidth_from_ram);

  devices = hr_local_devices_new (fixture->catalog, info);
  device = local_device (devices, 0);
  g_assert_cmpstr (hr_local_device_get_catalog_id (device), ==, "arc-a770-16gb");
  g_assert_true (hr_local_devices_pick (devices) == device);

  device = local_device (devices, 1);
  g_assert_null (hr_local_device_get_catalog_id (device));
  hw = hr_local_device_get_hardware (device);
  g_assert_nonnull (hw);
  g_assert_cmpstr (hr_hardware_get_id (hw), ==, HR_LOCAL_DEVICE_ID);
  g_assert_true (hr_hardware_is_unified (hw));
  assert_close (hr_hardware_get_bandwidth_gbps (hw), 89.6, 1e-9);
  g_assert_cmpstr (hr_hardware_get_family (hw), ==, "intel-arc");
}

/* A device the user added by hand is recognised by its name. */
static void
test_custom_device_matches (HrTestDir     *fixture,
                            gconstpointer  user_data)
{
  HrHardwareFields values = {
    .id = "custom-uhd-770", .name = "UHD Graphics 770", .vendor = "Intel",
    .kind = HR_DEVICE_UNIFIED, .memory_gib = 31.25, .bandwidth_gbps = 89.6, .custom = TRUE,
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHardware) mine = hr_hardware_new_from_fields (&values, &error);
  g_autoptr(HrSystemInfo) info = NULL;
  g_autoptr(GListModel) devices = NULL;
  HrLocalDevice *device;

  g_assert_no_error (error);
  hr_catalog_add_hardware (fixture->catalog, mine);
  info = detect (fixture, "intel-arc", NULL, 0);
  devices = hr_local_devices_new (fixture->catalog, info);
  device = local_device (devices, 1);
  g_assert_cmpint (hr_local_device_get_match (device), ==, HR_LOCAL_MATCH_NAME);
  g_assert_cmpstr (hr_local_device_get_catalog_id (device), ==, "custom-uhd-770");
}

static void
test_igpu_smbios (HrTestDir     *fixture,
                  gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "igpu", NULL, 0);
  g_autoptr(GListModel) devices = NULL;
  g_autofree char *summary = NULL;
  HrLocalDevice *device;
  HrHardware *hw;

  /* Two DDR5 modules at their configured 5200 MT/s: 2 × 64 bit. */
  g_assert_false (hr_system_info_get_ram_assumed (info));
  g_assert_cmpstr (hr_system_info_get_ram_type (info), ==, "DDR5");
  g_assert_cmpuint (hr_system_info_get_ram_speed_mts (info), ==, 5200);
  g_assert_cmpuint (hr_system_info_get_ram_channels (info), ==, 2);
  assert_close (hr_system_info_get_ram_bandwidth_gbps (info), 83.2, 1e-9);
  g_assert_false (notes_mention (info, "assumed"));

  devices = hr_local_devices_new (fixture->catalog, info);
  device = hr_local_devices_pick (devices);
  g_assert_nonnull (device);
  g_assert_true (hr_local_device_is_unified (device));
  hw = hr_local_device_get_hardware (device);
  g_assert_cmpstr (hr_hardware_get_id (hw), ==, HR_LOCAL_DEVICE_ID);
  assert_close (hr_hardware_get_memory_bytes (hw), 32768000.0 * 1024, 1024);
  assert_close (hr_hardware_get_bandwidth_gbps (hw), 83.2, 1e-9);
  g_assert_nonnull (strstr (hr_local_device_get_note (device), "system RAM"));
  summary = hr_local_device_dup_summary (device, HR_UNITS_BINARY);
  g_assert_cmpstr (summary, ==, "Intel UHD Graphics 770, 22.89\u00a0GiB free");

  /* The user's own RAM figures replace the read ones, and the integrated
   * GPU follows. */
  hr_system_info_set_ram (info, 6400, 2);
  assert_close (hr_system_info_get_ram_bandwidth_gbps (info), 102.4, 1e-9);
  assert_close (hr_system_info_get_gpu (info, 0)->bandwidth_gbps, 102.4, 1e-9);
}

static void
test_strix_halo (HrTestDir     *fixture,
                 gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "strix-halo", NULL, 0);
  g_autoptr(GListModel) devices = NULL;
  const HrGpuInfo *gpu;
  HrHardware *hw;

  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 1);
  gpu = hr_system_info_get_gpu (info, 0);
  /* A 512 MiB carve-out on a known APU: unified memory, all of it. */
  g_assert_true (gpu->integrated);
  g_assert_cmpuint (gpu->memory_bytes, ==, 130023424ull * 1024 + 536870912);
  g_assert_cmpuint (gpu->free_bytes, ==, 120000000ull * 1024 + 536870912 - 104857600);
  assert_close (gpu->bandwidth_gbps, 256.0, 1e-9);
  g_assert_true (gpu->bandwidth_assumed);
  g_assert_false (gpu->bandwidth_from_ram);
  assert_note (info, "256-bit LPDDR5X-8000");

  devices = hr_local_devices_new (fixture->catalog, info);
  hw = hr_local_device_get_hardware (hr_local_devices_pick (devices));
  /* the catalog knows the Ryzen AI Max+ 395 (PCI 1002:1586, 128 GB) */
  g_assert_true (hr_hardware_is_unified (hw));
  g_assert_cmpstr (hr_hardware_get_id (hw), ==, "ryzen-ai-max-395-128gb");
  g_assert_cmpstr (hr_hardware_get_family (hw), ==, "amd-apu");
  g_assert_cmpstr (hr_hardware_get_vendor (hw), ==, "AMD");
}

/* Malformed files, FIFOs, link loops and links out of the root: nothing
 * is read from them, nothing hangs. */
static void
test_hostile (HrTestDir     *fixture,
              gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "hostile", NULL, 0);
  g_autoptr(GListModel) devices = NULL;

  g_assert_true (hr_system_info_is_complete (info));
  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 0);
  g_assert_cmpuint (hr_system_info_get_ram_total_bytes (info), ==, 0);
  g_assert_null (hr_system_info_get_cpu_model (info));
  g_assert_true (hr_system_info_get_ram_assumed (info));
  assert_note (info, "/proc/meminfo is not readable");
  assert_note (info, "/proc/cpuinfo is not readable");

  devices = hr_local_devices_new (fixture->catalog, info);
  g_assert_null (hr_local_devices_pick (devices));
}

static void
test_empty (HrTestDir     *fixture,
            gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "empty", NULL, 0);

  g_assert_true (hr_system_info_is_complete (info));
  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 0);
}

/* ------------------------------------------------------------- NVML */

static void
test_nvml (HrTestDir     *fixture,
           gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "nvidia-sysfs", "good", 0);
  g_autoptr(GListModel) devices = NULL;
  const HrGpuInfo *gpu;

  g_assert_true (hr_system_info_is_complete (info));
  /* NVML's two GPUs; sysfs's view of the first is replaced, by slot. */
  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 2);
  gpu = hr_system_info_get_gpu (info, 0);
  g_assert_cmpstr (gpu->name, ==, "NVIDIA GeForce RTX 3060");
  g_assert_cmpstr (gpu->source, ==, "nvml");
  g_assert_cmpstr (gpu->pci_slot, ==, "0000:01:00.0");
  g_assert_cmphex (gpu->pci_device, ==, 0x2504);
  g_assert_cmpuint (gpu->memory_bytes, ==, 12884901888);
  g_assert_cmpuint (gpu->free_bytes, ==, 12190990336);
  g_assert_cmpuint (gpu->used_bytes, ==, 12884901888 - 12190990336);
  g_assert_cmpuint (gpu->bus_width_bits, ==, 192);
  g_assert_cmpuint (gpu->max_memory_clock_mhz, ==, 7501);
  /* 192 / 8 × 7501 MHz × 2 = 360.048 GB/s, the card's 360 GB/s. */
  assert_close (gpu->bandwidth_gbps, 360.048, 1e-9);
  g_assert_cmpuint (gpu->pcie_generation, ==, 4);
  g_assert_cmpuint (gpu->pcie_width, ==, 16);

  gpu = hr_system_info_get_gpu (info, 1);
  g_assert_cmpstr (gpu->name, ==, "NVIDIA GeForce RTX 4090");
  assert_close (gpu->bandwidth_gbps, 1008.096, 1e-9);

  devices = hr_local_devices_new (fixture->catalog, info);
  g_assert_cmpstr (hr_local_device_get_catalog_id (local_device (devices, 0)), ==,
                   "rtx-3060-12gb");
  g_assert_cmpstr (hr_local_device_get_catalog_id (local_device (devices, 1)), ==,
                   "rtx-4090-24gb");
  g_assert_cmpint (hr_local_device_get_match (local_device (devices, 1)), ==,
                   HR_LOCAL_MATCH_PCI_ID);
}

/* Without NVML the card is still known by its PCI id. */
static void
test_nvml_missing_library (HrTestDir     *fixture,
                           gconstpointer  user_data)
{
  g_autofree char *missing = g_build_filename (fixture->dir, "libnvidia-ml.so.1", NULL);
  HrDetectOptions options = { fixture->dir, missing, 0 };
  g_autoptr(HrSystemInfo) info = NULL;
  g_autoptr(GListModel) devices = NULL;
  HrLocalDevice *device;

  hr_fake_system_write (fixture->dir, "nvidia-sysfs");
  info = hr_detect_system (&options, NULL);
  assert_note (info, "cannot be loaded");
  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 1);
  g_assert_cmpstr (hr_system_info_get_gpu (info, 0)->name, ==,
                   "NVIDIA GeForce RTX 3060 Lite Hash Rate");
  g_assert_cmpuint (hr_system_info_get_gpu (info, 0)->memory_bytes, ==, 0);

  devices = hr_local_devices_new (fixture->catalog, info);
  device = hr_local_devices_pick (devices);
  g_assert_cmpstr (hr_local_device_get_catalog_id (device), ==, "rtx-3060-12gb");
  g_assert_cmpuint (hr_local_device_get_memory_bytes (device), ==, 12ull << 30);
  g_assert_false (hr_local_device_get_free_known (device));
}

/* Every call fails: what sysfs knew about the card stays. */
static void
test_nvml_failing (HrTestDir     *fixture,
                   gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "nvidia-sysfs", "failing", 0);
  g_autoptr(GListModel) devices = NULL;
  const HrGpuInfo *gpu;

  g_assert_true (hr_system_info_is_complete (info));
  assert_note (info, "NVIDIA GPU 1: cannot be opened: GPU is lost (NVML error 15)");
  assert_note (info, "NVIDIA GPU 0: memory not readable: Unknown Error (NVML error 999)");
  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 1);
  gpu = hr_system_info_get_gpu (info, 0);
  g_assert_cmpstr (gpu->source, ==, "nvml");
  g_assert_cmpstr (gpu->name, ==, "NVIDIA GeForce RTX 3060 Lite Hash Rate");
  g_assert_cmpstr (gpu->pci_slot, ==, "0000:01:00.0");
  g_assert_cmpuint (gpu->memory_bytes, ==, 0);
  g_assert_cmpuint (gpu->bus_width_bits, ==, 0);
  g_assert_cmpuint (gpu->pcie_generation, ==, 4);

  devices = hr_local_devices_new (fixture->catalog, info);
  g_assert_cmpstr (hr_local_device_get_catalog_id (hr_local_devices_pick (devices)), ==,
                   "rtx-3060-12gb");
}

static void
test_nvml_no_driver (HrTestDir     *fixture,
                     gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "nvidia-sysfs", "no-driver", 0);

  assert_note (info, "Driver Not Loaded (NVML error 9)");
  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 1);
  g_assert_cmpstr (hr_system_info_get_gpu (info, 0)->source, ==, "sysfs");
}

static void
test_nvml_missing_symbol (HrTestDir     *fixture,
                          gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "nvidia-sysfs", "missing", 0);

  assert_note (info, "has no nvmlDeviceGetMemoryInfo");
  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 1);
}

/* How many notes say that GPU detection failed. */
static guint
count_failures (HrSystemInfo *info)
{
  const char * const *notes = hr_system_info_get_notes (info);
  guint n = 0;

  for (guint i = 0; notes[i] != NULL; i++)
    if (g_str_has_prefix (notes[i], "GPU detection failed: "))
      n++;
  return n;
}

/* The NVML stage failed: one line says why; sysfs's card, the RAM and the
 * CPU stand. */
static void
assert_failed_but_rest_stands (HrSystemInfo *info,
                               const char   *reason)
{
  const char *failure = hr_system_info_get_gpu_failure (info);

  g_assert_true (hr_system_info_is_complete (info));
  g_assert_nonnull (failure);
  g_assert_true (g_str_has_prefix (failure, "GPU detection failed: "));
  if (strstr (failure, reason) == NULL)
    g_error ("“%s” does not say “%s”", failure, reason);
  g_assert_null (strchr (failure, '\n'));
  g_assert_cmpuint (count_failures (info), ==, 1);
  assert_note (info, failure);
  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 1);
  g_assert_cmpstr (hr_system_info_get_gpu (info, 0)->source, ==, "sysfs");
  g_assert_cmpstr (hr_system_info_get_gpu (info, 0)->name, ==,
                   "NVIDIA GeForce RTX 3060 Lite Hash Rate");
  g_assert_cmpuint (hr_system_info_get_ram_total_bytes (info), ==, 32768000ull * 1024);
  g_assert_nonnull (hr_system_info_get_cpu_model (info));
}

/* The helper's process id, written by the blocking stub once it runs. */
static GPid
helper_pid (const char *pidfile)
{
  g_autofree char *text = NULL;
  guint64 pid = 0;

  if (!g_file_get_contents (pidfile, &text, NULL, NULL))
    return 0;
  g_assert_true (g_ascii_string_to_unsigned (g_strstrip (text), 10, 2, G_MAXINT, &pid, NULL));
  return pid;
}

static gboolean
process_gone (GPid pid)
{
  return kill (pid, 0) != 0 && errno == ESRCH;
}

/* nvmlInit hangs: the helper is stopped at its limit, with one line. */
static void
test_nvml_slow (HrTestDir     *fixture,
                gconstpointer  user_data)
{
  g_autofree char *library = stub ("slow");
  HrDetectOptions options = { fixture->dir, library, 0, 200 };
  g_autoptr(HrSystemInfo) info = NULL;

  hr_fake_system_write (fixture->dir, "nvidia-sysfs");
  info = hr_detect_system (&options, NULL);
  assert_failed_but_rest_stands (info, "libnvml-stub-slow.so did not answer within 0.2 s "
                                       "and was stopped");
}

/* nvmlInit crashes (SIGSEGV): the helper dies, not the caller. */
static void
test_nvml_crash (HrTestDir     *fixture,
                 gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "nvidia-sysfs", "crash", 0);

  assert_failed_but_rest_stands (info, "libnvml-stub-crash.so crashed (signal ");
}

/* dlopen() never returns (a constructor that blocks): the helper is
 * stopped at its limit and reaped by the time detection returns. */
static void
test_nvml_block (HrTestDir     *fixture,
                 gconstpointer  user_data)
{
  g_autofree char *library = stub ("block");
  g_autofree char *pidfile = g_build_filename (fixture->dir, "stub.pid", NULL);
  /* A limit long enough for the helper to load the stub (and write its
   * pid) on a busy machine or under ASan, where starting it takes more
   * than 0.3 s. */
  HrDetectOptions options = { fixture->dir, library, 0, 3000 };
  g_autoptr(HrSystemInfo) info = NULL;
  GPid pid;

  hr_fake_system_write (fixture->dir, "nvidia-sysfs");
  g_setenv ("HEADROOM_NVML_STUB_PIDFILE", pidfile, TRUE);
  info = hr_detect_system (&options, NULL);
  g_unsetenv ("HEADROOM_NVML_STUB_PIDFILE");
  assert_failed_but_rest_stands (info, "libnvml-stub-block.so did not answer within 3 s");
  pid = helper_pid (pidfile);
  g_assert_cmpint (pid, >, 0);
  g_assert_true (process_gone (pid));
}

/* The async call's end, cancelled or not. */
static void
ended (GObject      *source,
       GAsyncResult *result,
       gpointer      user_data)
{
  g_autoptr(HrSystemInfo) info = hr_detect_system_finish (result, NULL);

  *(gboolean *) user_data = TRUE;
}

static void
cancel_when_running (GCancellable *cancellable,
                     const char   *pidfile)
{
  while (helper_pid (pidfile) == 0)
    g_main_context_iteration (NULL, FALSE);
  g_cancellable_cancel (cancellable);
}

/* Cancelling kills the helper at once, long before its limit. */
static void
test_nvml_cancel (HrTestDir     *fixture,
                  gconstpointer  user_data)
{
  g_autofree char *library = stub ("block");
  g_autofree char *pidfile = g_build_filename (fixture->dir, "stub.pid", NULL);
  /* a limit no test waits for */
  HrDetectOptions options = { fixture->dir, library, 60000, 60000 };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  gboolean done = FALSE;
  gint64 cancelled, end;
  GPid pid;

  hr_fake_system_write (fixture->dir, "nvidia-sysfs");
  g_setenv ("HEADROOM_NVML_STUB_PIDFILE", pidfile, TRUE);
  hr_detect_system_async (&options, cancellable, ended, &done);
  cancel_when_running (cancellable, pidfile);
  g_unsetenv ("HEADROOM_NVML_STUB_PIDFILE");
  cancelled = g_get_monotonic_time ();
  pid = helper_pid (pidfile);

  while (!done)
    g_main_context_iteration (NULL, TRUE);
  /* Gone well within the 60 s limit: killed, not timed out. */
  end = cancelled + 10 * G_USEC_PER_SEC;
  while (!process_gone (pid))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      g_usleep (1000);
    }
}

/* A FIFO named as the library: refused at once, no helper waits on it. */
static void
test_nvml_fifo (HrTestDir     *fixture,
                gconstpointer  user_data)
{
  g_autofree char *fifo = g_build_filename (fixture->dir, "libnvidia-ml.so.1", NULL);
  HrDetectOptions options = { fixture->dir, fifo, 0, 60000 };
  g_autoptr(HrSystemInfo) info = NULL;

  hr_fake_system_write (fixture->dir, "nvidia-sysfs");
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  info = hr_detect_system (&options, NULL);
  g_assert_true (hr_system_info_is_complete (info));
  g_assert_null (hr_system_info_get_gpu_failure (info));
  assert_note (info, "libnvidia-ml.so.1 cannot be loaded: not a regular file");
  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 1);
}

/* Without the helper NVML is not read; one line says so. */
static void
test_helper_missing (HrTestDir     *fixture,
                     gconstpointer  user_data)
{
  g_autofree char *saved = g_strdup (g_getenv (HR_DETECT_HELPER_ENV));
  g_autofree char *missing = g_build_filename (fixture->dir, "no-helper", NULL);
  g_autofree char *library = stub ("good");
  HrDetectOptions options = { fixture->dir, library, 0, 0 };
  g_autoptr(HrSystemInfo) info = NULL;

  hr_fake_system_write (fixture->dir, "nvidia-sysfs");
  g_setenv (HR_DETECT_HELPER_ENV, missing, TRUE);
  info = hr_detect_system (&options, NULL);
  g_setenv (HR_DETECT_HELPER_ENV, saved, TRUE);
  assert_failed_but_rest_stands (info, "the helper that loads libnvidia-ml.so.1 cannot be "
                                       "started");
}

/* 2^64 - 1 bytes from NVML: dropped, said. */
static void
test_nvml_huge (HrTestDir     *fixture,
                gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "nvidia-sysfs", "huge", 0);

  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpuint (hr_system_info_get_gpu (info, i)->memory_bytes, ==, 0);
      g_assert_false (hr_system_info_get_gpu (info, i)->free_known);
    }
  assert_note (info, "NVIDIA GeForce RTX 3060: the driver reports 18446744073709551615 bytes "
                     "of memory, more than any GPU has (the limit is 4 TiB)");
}

/* 2^64 - 1 bytes of VRAM in sysfs and of RAM in meminfo, no cpuinfo:
 * unknown, each said once; the CPU's name is unknown, not “(null)”. */
static void
test_absurd (HrTestDir     *fixture,
             gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "absurd", NULL, 0);

  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 1);
  g_assert_cmpuint (hr_system_info_get_gpu (info, 0)->memory_bytes, ==, 0);
  g_assert_false (hr_system_info_get_gpu (info, 0)->free_known);
  assert_note (info, "GPU 0000:03:00.0: the driver reports 18446744073709551615 bytes");
  g_assert_cmpuint (hr_system_info_get_ram_total_bytes (info), ==, 0);
  g_assert_cmpuint (hr_system_info_get_ram_available_bytes (info), ==, 0);
  assert_note (info, "RAM: /proc/meminfo reports 18446744073709550592 bytes, more than any "
                     "computer has (the limit is 128 TiB)");
  g_assert_null (hr_system_info_get_cpu_model (info));
  g_assert_cmpstr (hr_system_info_get_cpu_label (info), ==, "Unknown CPU");
  assert_note (info, "/proc/cpuinfo is not readable");
}

/* The helper's answer is read as a hostile file. */
static void
test_wire_hostile (void)
{
  static const char *const answers[] = {
    "",
    "garbage",
    "[nvml]\ngpus=1\n[gpu0]\nname=A\0B\n",
    "[other]\nx=1\n",
  };
  HrDetectFindings findings;
  g_autoptr(GError) error = NULL;
  const char *hostile =
    "[nvml]\ngpus=99999\nnotes=a\x1b[31m;\n"
    "[gpu0]\nname=\x1b]0;owned\x07\nmemory_bytes=18446744073709551615\nfree_known=true\n"
    "free_bytes=5\nbus_width_bits=-1\nmax_memory_clock_mhz=7501\npcie_width=65\n"
    "pci_device=70000\n";
  const HrGpuInfo *gpu;

  for (guint i = 0; i < G_N_ELEMENTS (answers); i++)
    {
      hr_detect_findings_init (&findings);
      /* the third holds a NUL byte */
      g_assert_false (hr_detect_wire_parse (answers[i], i == 2 ? 31 : strlen (answers[i]),
                                            &findings, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_clear_error (&error);
      g_assert_cmpuint (findings.gpus->len, ==, 0);
      hr_detect_findings_clear (&findings);
    }

  hr_detect_findings_init (&findings);
  g_assert_true (hr_detect_wire_parse (hostile, strlen (hostile), &findings, &error));
  g_assert_no_error (error);
  /* 99999 GPUs is out of range (none); only the groups present count */
  g_assert_cmpuint (findings.gpus->len, ==, 0);
  hr_detect_findings_clear (&findings);

  hr_detect_findings_init (&findings);
  {
    g_autofree char *one = g_strdup (hostile);
    char *count = strstr (one, "99999");

    memcpy (count, "1\n#  ", 5);
    g_assert_true (hr_detect_wire_parse (one, strlen (one), &findings, &error));
  }
  g_assert_cmpuint (findings.gpus->len, ==, 1);
  gpu = g_ptr_array_index (findings.gpus, 0);
  g_assert_null (strchr (gpu->name, '\x1b'));
  g_assert_cmpuint (gpu->memory_bytes, ==, 0);
  g_assert_false (gpu->free_known);
  g_assert_cmpuint (gpu->bus_width_bits, ==, 0);
  g_assert_cmpfloat (gpu->bandwidth_gbps, ==, 0);
  g_assert_cmpuint (gpu->pcie_width, ==, 0);
  g_assert_cmpuint (gpu->pci_device, ==, 0);
  g_assert_cmpstr (gpu->source, ==, "nvml");
  g_assert_cmpuint (findings.notes->len, ==, 1);
  g_assert_null (strchr (g_ptr_array_index (findings.notes, 0), '\x1b'));
  hr_detect_findings_clear (&findings);
}

/* DGX Spark: NVML has no memory figures for GB10, which uses the
 * system's memory. */
static void
test_nvml_spark (HrTestDir     *fixture,
                 gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "amd", "spark", 0);
  g_autoptr(GListModel) devices = NULL;
  const HrGpuInfo *gb10;

  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 2);
  gb10 = hr_system_info_get_gpu (info, 1);
  g_assert_cmpstr (gb10->name, ==, "NVIDIA GB10");
  g_assert_true (gb10->integrated);
  g_assert_cmpuint (gb10->memory_bytes, ==, 65536000ull * 1024);
  assert_close (gb10->bandwidth_gbps, 273.056, 1e-9);

  devices = hr_local_devices_new (fixture->catalog, info);
  g_assert_true (hr_local_device_is_unified (local_device (devices, 1)));
  g_assert_cmpstr (hr_hardware_get_family (hr_local_device_get_hardware (local_device (devices, 1))),
                   ==, "nvidia-datacenter");
}

static void
test_nvml_hostile (HrTestDir     *fixture,
                   gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = detect (fixture, "empty", "hostile", 0);

  g_assert_true (hr_system_info_is_complete (info));
  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, HR_DETECT_MAX_GPUS);
  assert_note (info, "reading the first");
  for (guint i = 0; i < hr_system_info_get_n_gpus (info); i++)
    {
      const HrGpuInfo *gpu = hr_system_info_get_gpu (info, i);

      g_assert_true (g_utf8_validate (gpu->name, -1, NULL));
      g_assert_null (strchr (gpu->name, '\x1b'));
      g_assert_cmpuint (strlen (gpu->name), <=, 96);
      g_assert_cmpuint (gpu->memory_bytes, ==, 0);
      g_assert_cmpuint (gpu->bus_width_bits, ==, 0);
    }
}

/* ------------------------------------------------------------- API */

static void
detected (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  HrSystemInfo **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = hr_detect_system_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_async (HrTestDir     *fixture,
            gconstpointer  user_data)
{
  HrDetectOptions options = { fixture->dir, "", 0 };
  g_autoptr(HrSystemInfo) info = NULL;

  hr_fake_system_write (fixture->dir, "amd");
  hr_detect_system_async (&options, NULL, detected, &info);
  while (info == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 1);
}

static void
test_environment (HrTestDir     *fixture,
                  gconstpointer  user_data)
{
  g_autoptr(HrSystemInfo) info = NULL;

  hr_fake_system_write (fixture->dir, "intel-arc");
  g_setenv (HR_DETECT_SYSROOT_ENV, fixture->dir, TRUE);
  g_setenv (HR_DETECT_NVML_ENV, "", TRUE);
  info = hr_detect_system (NULL, NULL);
  g_unsetenv (HR_DETECT_SYSROOT_ENV);
  g_assert_cmpuint (hr_system_info_get_n_gpus (info), ==, 2);
}

/* The reads under a root: bounded, regular files only, inside the root. */
static void
test_tree (HrTestDir     *fixture,
           gconstpointer  user_data)
{
  g_autofree char *inside = g_build_filename (fixture->dir, "in", NULL);
  g_autofree char *outside = g_build_filename (fixture->dir, "out", NULL);
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(HrTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  gboolean truncated = FALSE;
  gsize length;
  guint64 value;

  g_assert_cmpint (g_mkdir_with_parents (inside, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (outside, 0755), ==, 0);
  path = g_build_filename (outside, "secret", NULL);
  g_file_set_contents (path, "42\n", -1, NULL);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (inside, "value", NULL);
  g_file_set_contents (path, "0x2a\n", -1, NULL);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (inside, "escape", NULL);
  g_assert_cmpint (symlink ("../out/secret", path), ==, 0);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (inside, "pipe", NULL);
  g_assert_cmpint (mkfifo (path, 0644), ==, 0);

  tree = hr_tree_new (inside);
  g_assert_true (hr_tree_read_u64 (tree, "/value", &value));
  g_assert_cmpuint (value, ==, 42);
  g_assert_false (hr_tree_read_u64 (tree, "/escape", &value));
  g_assert_false (hr_tree_read_u64 (tree, "/../out/secret", &value));
  g_assert_false (hr_tree_read (tree, "/pipe", 10, &contents, &length, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_clear_error (&error);

  g_assert_false (hr_tree_read (tree, "/value", 2, &contents, &length, NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_true (hr_tree_read (tree, "/value", 2, &contents, &length, &truncated, &error));
  g_assert_no_error (error);
  g_assert_true (truncated);
  g_assert_cmpstr (contents, ==, "0x");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add (path, HrTestDir, "test-detect", hr_test_dir_set_up, func, hr_test_dir_tear_down)
  ADD ("/detect/amd", test_amd);
  ADD ("/detect/intel-arc", test_intel_arc);
  ADD ("/detect/igpu-smbios", test_igpu_smbios);
  ADD ("/detect/custom-device-matches", test_custom_device_matches);
  ADD ("/detect/strix-halo", test_strix_halo);
  ADD ("/detect/hostile", test_hostile);
  ADD ("/detect/empty", test_empty);
  ADD ("/detect/nvml", test_nvml);
  ADD ("/detect/nvml-missing-library", test_nvml_missing_library);
  ADD ("/detect/nvml-failing", test_nvml_failing);
  ADD ("/detect/nvml-no-driver", test_nvml_no_driver);
  ADD ("/detect/nvml-missing-symbol", test_nvml_missing_symbol);
  ADD ("/detect/nvml-slow", test_nvml_slow);
  ADD ("/detect/nvml-crash", test_nvml_crash);
  ADD ("/detect/nvml-block", test_nvml_block);
  ADD ("/detect/nvml-cancel", test_nvml_cancel);
  ADD ("/detect/nvml-fifo", test_nvml_fifo);
  ADD ("/detect/nvml-huge", test_nvml_huge);
  ADD ("/detect/helper-missing", test_helper_missing);
  ADD ("/detect/absurd", test_absurd);
  ADD ("/detect/nvml-spark", test_nvml_spark);
  ADD ("/detect/nvml-hostile", test_nvml_hostile);
  ADD ("/detect/async", test_async);
  ADD ("/detect/environment", test_environment);
  ADD ("/detect/tree", test_tree);
#undef ADD
  g_test_add_func ("/detect/wire-hostile", test_wire_hostile);

  return g_test_run ();
}
