/* hr-detect.h — what this computer has: GPUs, memory, CPU
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * NVIDIA GPUs are read through NVML (libnvidia-ml.so.1, loaded at run
 * time, so Headroom neither links against it nor needs it); AMD and Intel
 * GPUs, and NVIDIA ones when NVML is missing, through sysfs; memory and
 * CPU through procfs.  Every file is read under a root directory, so that
 * tests give a fake /sys and /proc, and the whole detection is bounded in
 * time: a hung driver or a slow file gives a partial answer with a note,
 * never a hang.  Nothing here needs root.
 *
 * NVML is vendor code that may crash (SIGSEGV in nvmlInit) or never
 * return (a library constructor that blocks holds the dynamic loader's
 * lock, and then even exit() waits for it).  So it is never loaded into
 * Headroom's own process: a small helper program, headroom-detect-helper
 * in libexecdir, loads it and prints what it found; the helper is killed
 * when it does not answer within HR_DETECT_NVML_TIMEOUT_MS, when the
 * caller cancels, and when the process that started it dies.  A crash or
 * a hang there becomes one note, “GPU detection failed: …”, and the rest
 * of detection (sysfs, procfs) stands.
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Environment: a root for every /sys and /proc read, and the NVML library
 * to load instead of libnvidia-ml.so.1 (an empty value skips NVML). */
#define HR_DETECT_SYSROOT_ENV           "HEADROOM_SYSROOT"
#define HR_DETECT_NVML_ENV              "HEADROOM_NVML_LIBRARY"
#define HR_DETECT_NVML_LIBRARY          "libnvidia-ml.so.1"

/* The helper that loads NVML: installed in libexecdir; the environment
 * names another (the tests' build tree, an uninstalled build). */
#define HR_DETECT_HELPER_ENV            "HEADROOM_DETECT_HELPER"
#define HR_DETECT_HELPER_NAME           "headroom-detect-helper"
/* Milliseconds the helper is given, instead of HR_DETECT_NVML_TIMEOUT_MS
 * (the tests lower it to stay fast). */
#define HR_DETECT_NVML_TIMEOUT_ENV      "HEADROOM_NVML_TIMEOUT_MS"

/* Bounds.  The deadline leaves room for nvmlInit, which takes about a
 * second per GPU when the driver is not kept loaded (no persistence
 * mode); the files take milliseconds. */
#define HR_DETECT_TIMEOUT_MS            10000  /* the whole detection */
/* The NVML helper: loading the library, nvmlInit and the queries.  A
 * working driver answers in well under a second per GPU even without
 * persistence mode; 5 s is the most a person waits for a row that says
 * “Detecting…”.  The helper gets at most what is left of the whole
 * detection's deadline, less HR_DETECT_NVML_STOP_MS to stop it. */
#define HR_DETECT_NVML_TIMEOUT_MS       5000
#define HR_DETECT_NVML_STOP_MS          200
#define HR_DETECT_HELPER_MAX_OUTPUT     (64 * 1024)   /* its answer, in bytes */
#define HR_DETECT_MAX_FILE_BYTES        (256 * 1024)   /* one /proc or /sys file */
#define HR_DETECT_MAX_PCI_IDS_BYTES     (8 * 1024 * 1024)
#define HR_DETECT_MAX_GPUS              32
#define HR_DETECT_MAX_DRM_ENTRIES       256
#define HR_DETECT_MAX_DIMMS             64

/* NVML reports the memory clock at half the transfer rate for every memory
 * type it knows (GDDR6/6X/7, HBM2/2e/3): bandwidth = bus width / 8 × clock
 * × 2.  Checked against the vendors' figures: RTX 3060 192 bit × 7501 MHz
 * = 360 GB/s, RTX 4090 384 × 10501 = 1008, A100 40 GB 5120 × 1215 = 1555,
 * H100 SXM 5120 × 2619 = 3352. */
#define HR_DETECT_NVML_TRANSFERS_PER_CLOCK 2

/* When RAM speed and channels cannot be read (the SMBIOS tables in
 * /sys/firmware/dmi are readable by root only), Headroom assumes a current
 * desktop: dual-channel DDR5-5600, 64 bits per channel (89.6 GB/s).  The
 * assumption is stated in the notes and can be replaced by the user. */
#define HR_DETECT_ASSUMED_RAM_TYPE      "DDR5"
#define HR_DETECT_ASSUMED_RAM_MTS       5600
#define HR_DETECT_ASSUMED_RAM_CHANNELS  2
#define HR_DETECT_RAM_CHANNEL_BITS      64

/* Plausibility.  A figure above these is a driver's or a file's error
 * (2^64 - 1 from an unset counter, a corrupt attribute): it is dropped,
 * the figure stays unknown, and a note says so.
 *   GPU memory: the largest GPUs have 288 GB (B300, MI355X); the largest
 *   announced, 1 TB of HBM4e (Rubin Ultra, 2027); 4 TiB leaves a margin
 *   of four times that.
 *   RAM: x86-64 with 4-level paging addresses 64 TiB of physical memory;
 *   the largest single-system servers sold take 48 TB (HPE Superdome
 *   Flex); 128 TiB is twice the 4-level limit. */
#define HR_DETECT_MAX_GPU_MEMORY_BYTES  (4ull << 40)
#define HR_DETECT_MAX_RAM_BYTES         (128ull << 40)

/* An AMD GPU with less dedicated memory than this is taken for an
 * integrated one (an APU's carve-out; discrete cards this small cannot run
 * a language model anyway). */
#define HR_DETECT_APU_MAX_CARVEOUT_BYTES (4ull << 30)

typedef enum
{
  HR_GPU_VENDOR_OTHER,
  HR_GPU_VENDOR_NVIDIA,
  HR_GPU_VENDOR_AMD,
  HR_GPU_VENDOR_INTEL,
} HrGpuVendor;

#define HR_PCI_VENDOR_NVIDIA 0x10de
#define HR_PCI_VENDOR_AMD    0x1002
#define HR_PCI_VENDOR_INTEL  0x8086

/* One GPU as the driver reports it.  Unknown numbers are 0. */
typedef struct
{
  HrGpuVendor vendor;
  char *name;                  /* NVML's, amdgpu's product name or pci.ids'; nullable */
  char *driver;                /* “nvidia”, “amdgpu”, “i915”, “xe”…; nullable */
  char *pci_slot;              /* “0000:01:00.0”; nullable */
  guint16 pci_vendor;
  guint16 pci_device;
  guint64 memory_bytes;        /* dedicated memory (integrated: what it may use) */
  guint64 used_bytes;
  guint64 free_bytes;          /* free now, when free_known */
  gboolean free_known;
  guint32 bus_width_bits;
  guint32 max_memory_clock_mhz;
  double bandwidth_gbps;       /* decimal GB/s */
  gboolean bandwidth_assumed;  /* not read from the device: a platform's
                                * figure or the system RAM's */
  gboolean bandwidth_from_ram; /* integrated: the system RAM's bandwidth */
  guint32 pcie_generation;
  guint32 pcie_width;
  gboolean integrated;         /* shares the system's memory */
  const char *source;          /* “nvml” or “sysfs” */
} HrGpuInfo;

#define HR_TYPE_GPU_INFO (hr_gpu_info_get_type ())

GType       hr_gpu_info_get_type      (void) G_GNUC_CONST;
HrGpuInfo  *hr_gpu_info_new           (void);
HrGpuInfo  *hr_gpu_info_copy          (const HrGpuInfo *info);
void        hr_gpu_info_free          (HrGpuInfo       *info);
const char *hr_gpu_vendor_to_string   (HrGpuVendor      vendor);
char       *hr_gpu_info_dup_pci_id    (const HrGpuInfo *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrGpuInfo, hr_gpu_info_free)

/* How to detect; every member may be left zero or %NULL for the default. */
typedef struct
{
  const char *sysroot;         /* NULL: $HEADROOM_SYSROOT, else “/” */
  const char *nvml_library;    /* NULL: $HEADROOM_NVML_LIBRARY, else
                                * libnvidia-ml.so.1; "": no NVML */
  guint timeout_ms;            /* 0: HR_DETECT_TIMEOUT_MS, or longer when
                                * the NVML limit asks for it */
  guint nvml_timeout_ms;       /* 0: $HEADROOM_NVML_TIMEOUT_MS, else
                                * HR_DETECT_NVML_TIMEOUT_MS */
} HrDetectOptions;

#define HR_TYPE_SYSTEM_INFO (hr_system_info_get_type ())

G_DECLARE_FINAL_TYPE (HrSystemInfo, hr_system_info, HR, SYSTEM_INFO, GObject)

HrSystemInfo       *hr_detect_system                  (const HrDetectOptions  *options,
                                                       GCancellable           *cancellable);
void                hr_detect_system_async            (const HrDetectOptions  *options,
                                                       GCancellable           *cancellable,
                                                       GAsyncReadyCallback     callback,
                                                       gpointer                user_data);
HrSystemInfo       *hr_detect_system_finish           (GAsyncResult           *result,
                                                       GError                **error);

guint               hr_system_info_get_n_gpus         (HrSystemInfo  *self);
const HrGpuInfo    *hr_system_info_get_gpu            (HrSystemInfo  *self,
                                                       guint          index);
guint64             hr_system_info_get_ram_total_bytes (HrSystemInfo *self);
guint64             hr_system_info_get_ram_available_bytes (HrSystemInfo *self);
const char         *hr_system_info_get_ram_type       (HrSystemInfo  *self);
guint32             hr_system_info_get_ram_speed_mts  (HrSystemInfo  *self);
guint32             hr_system_info_get_ram_channels   (HrSystemInfo  *self);
gboolean            hr_system_info_get_ram_assumed    (HrSystemInfo  *self);
double              hr_system_info_get_ram_bandwidth_gbps (HrSystemInfo *self);
void                hr_system_info_set_ram            (HrSystemInfo  *self,
                                                       guint32        speed_mts,
                                                       guint32        channels);
const char         *hr_system_info_get_cpu_model      (HrSystemInfo  *self);
const char         *hr_system_info_get_cpu_label      (HrSystemInfo  *self);
guint32             hr_system_info_get_cpu_cores      (HrSystemInfo  *self);
guint32             hr_system_info_get_cpu_threads    (HrSystemInfo  *self);
const char         *hr_system_info_get_cpu_simd       (HrSystemInfo  *self);
double              hr_system_info_get_cpu_base_ghz   (HrSystemInfo  *self);
const char * const *hr_system_info_get_notes          (HrSystemInfo  *self);
const char         *hr_system_info_get_gpu_failure    (HrSystemInfo  *self);
gboolean            hr_system_info_is_complete        (HrSystemInfo  *self);

G_END_DECLS
