/* hr-detect-system.c — memory, CPU, and the detection as a whole
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The stages run in a worker thread that publishes what it has found
 * after each one; the caller waits for it at most the timeout.  A stage
 * that hangs (a sysfs attribute whose driver blocks) leaves the caller
 * with the earlier stages' findings and a note, and the worker finishes,
 * or not, on its own: a thread blocked in read() does not keep the
 * process from exiting.  NVML runs in a helper process the worker stops
 * in time (hr-detect-helper.c).
 *
 * Unified memory.  A GPU that uses the system's memory is taken to own
 * all of it, as the estimator's unified devices do (it keeps a share for
 * the system): Intel's integrated GPUs, AMD APUs (a small carve-out, or a
 * known APU such as Strix Halo, whose carve-out may be large and is added
 * to the RAM the kernel reports), and NVIDIA GPUs for which NVML has no
 * memory figure (DGX Spark's GB10).  Its bandwidth is the platform's when
 * Headroom knows it, else the system RAM's.
 */

#define G_LOG_DOMAIN "hr-detect"

#include "config.h"

#include <string.h>

#include "hr-detect-private.h"

/* What hr_system_info_get_cpu_label() says when the name is unknown. */
#define UNKNOWN_CPU_LABEL "Unknown CPU"

/* ------------------------------------------------------------ GPU info */

G_DEFINE_BOXED_TYPE (HrGpuInfo, hr_gpu_info, hr_gpu_info_copy, hr_gpu_info_free)

HrGpuInfo *
hr_gpu_info_new (void)
{
  return g_new0 (HrGpuInfo, 1);
}

HrGpuInfo *
hr_gpu_info_copy (const HrGpuInfo *info)
{
  HrGpuInfo *copy;

  g_return_val_if_fail (info != NULL, NULL);

  copy = g_memdup2 (info, sizeof *info);
  copy->name = g_strdup (info->name);
  copy->driver = g_strdup (info->driver);
  copy->pci_slot = g_strdup (info->pci_slot);
  return copy;
}

void
hr_gpu_info_free (HrGpuInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->name);
  g_free (info->driver);
  g_free (info->pci_slot);
  g_free (info);
}

const char *
hr_gpu_vendor_to_string (HrGpuVendor vendor)
{
  switch (vendor)
    {
    case HR_GPU_VENDOR_NVIDIA:
      return "NVIDIA";
    case HR_GPU_VENDOR_AMD:
      return "AMD";
    case HR_GPU_VENDOR_INTEL:
      return "Intel";
    case HR_GPU_VENDOR_OTHER:
    default:
      return "Other";
    }
}

/* “10de:2504”, or %NULL when the device id is unknown. */
char *
hr_gpu_info_dup_pci_id (const HrGpuInfo *info)
{
  g_return_val_if_fail (info != NULL, NULL);

  if (info->pci_vendor == 0 || info->pci_device == 0)
    return NULL;
  return g_strdup_printf ("%04x:%04x", info->pci_vendor, info->pci_device);
}

/* ------------------------------------------------------------ findings */

void
hr_detect_findings_init (HrDetectFindings *findings)
{
  memset (findings, 0, sizeof *findings);
  findings->gpus = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_gpu_info_free);
  findings->notes = g_ptr_array_new_null_terminated (4, g_free, TRUE);
}

void
hr_detect_findings_clear (HrDetectFindings *findings)
{
  g_clear_pointer (&findings->gpus, g_ptr_array_unref);
  g_clear_pointer (&findings->notes, g_ptr_array_unref);
  g_clear_pointer (&findings->ram_type, g_free);
  g_clear_pointer (&findings->cpu_model, g_free);
  g_clear_pointer (&findings->gpu_failure, g_free);
}

static void
findings_copy (const HrDetectFindings *from,
               HrDetectFindings       *to)
{
  GPtrArray *gpus = to->gpus;
  GPtrArray *notes = to->notes;

  g_free (to->ram_type);
  g_free (to->cpu_model);
  g_free (to->gpu_failure);
  *to = *from;
  to->gpus = gpus;
  to->notes = notes;
  to->ram_type = g_strdup (from->ram_type);
  to->cpu_model = g_strdup (from->cpu_model);
  to->gpu_failure = g_strdup (from->gpu_failure);

  g_ptr_array_set_size (to->gpus, 0);
  for (guint i = 0; i < from->gpus->len; i++)
    g_ptr_array_add (to->gpus, hr_gpu_info_copy (g_ptr_array_index (from->gpus, i)));
  g_ptr_array_set_size (to->notes, 0);
  for (guint i = 0; i < from->notes->len; i++)
    g_ptr_array_add (to->notes, g_strdup (g_ptr_array_index (from->notes, i)));
}

void
hr_detect_note (HrDetectFindings *findings,
                const char       *format,
                ...)
{
  va_list args;
  char *note;

  va_start (args, format);
  note = g_strdup_vprintf (format, args);
  va_end (args);
  g_debug ("%s", note);
  g_ptr_array_add (findings->notes, note);
}

/**
 * hr_detect_sanitize:
 *
 * Text read from a driver or a file, made safe to show: valid UTF-8,
 * control characters as spaces, surrounding space removed, at most
 * @max_length bytes (cut at a character boundary).
 */
char *
hr_detect_sanitize (const char *text,
                    gsize       max_length)
{
  g_autofree char *valid = NULL;
  const char *end;

  if (text == NULL)
    return NULL;

  valid = g_utf8_make_valid (text, -1);
  for (char *p = valid; *p != '\0'; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      *p = ' ';
  if (strlen (valid) > max_length)
    {
      end = g_utf8_find_prev_char (valid, valid + max_length + 1);
      valid[end != NULL ? end - valid : 0] = '\0';
    }
  return g_strdup (g_strstrip (valid));
}

/**
 * hr_detect_plausible_gpu_memory:
 * @what: the GPU, for the note
 *
 * Whether @bytes can be a GPU's memory (at most
 * HR_DETECT_MAX_GPU_MEMORY_BYTES); when not, a note says the figure is
 * not used.
 */
gboolean
hr_detect_plausible_gpu_memory (HrDetectFindings *findings,
                                const char       *what,
                                guint64           bytes)
{
  if (bytes <= HR_DETECT_MAX_GPU_MEMORY_BYTES)
    return TRUE;
  hr_detect_note (findings, "%s: the driver reports %" G_GUINT64_FORMAT " bytes of memory, "
                  "more than any GPU has (the limit is %" G_GUINT64_FORMAT " TiB); "
                  "the figure is not used", what, bytes,
                  (guint64) (HR_DETECT_MAX_GPU_MEMORY_BYTES >> 40));
  return FALSE;
}

/* ------------------------------------------------------------- memory */

static gboolean
meminfo_value (const char *contents,
               const char *key,
               guint64    *bytes)
{
  g_autofree char *needle = g_strconcat (key, ":", NULL);
  const char *line = contents;
  guint64 kib;

  while (line != NULL && *line != '\0')
    {
      if (g_str_has_prefix (line, needle))
        {
          const char *p = line + strlen (needle);
          char *end = NULL;

          while (*p == ' ' || *p == '\t')
            p++;
          if (!g_ascii_isdigit (*p))
            return FALSE;
          kib = g_ascii_strtoull (p, &end, 10);
          /* A whole number of kB, within what 64 bits of bytes hold. */
          if (end == p || kib > G_MAXUINT64 / 1024 ||
              !(g_str_has_prefix (end, " kB") || *end == '\n' || *end == '\0'))
            return FALSE;
          *bytes = kib * 1024;
          return TRUE;
        }
      line = strchr (line, '\n');
      if (line != NULL)
        line++;
    }
  return FALSE;
}

void
hr_detect_meminfo (HrTree           *tree,
                   HrDetectFindings *findings)
{
  g_autofree char *contents = NULL;
  gboolean truncated;

  if (!hr_tree_read (tree, "/proc/meminfo", HR_DETECT_MAX_FILE_BYTES, &contents, NULL,
                     &truncated, NULL) ||
      !meminfo_value (contents, "MemTotal", &findings->ram_total_bytes))
    {
      findings->ram_total_bytes = 0;
      hr_detect_note (findings, "RAM: /proc/meminfo is not readable");
      return;
    }
  if (findings->ram_total_bytes > HR_DETECT_MAX_RAM_BYTES)
    {
      hr_detect_note (findings, "RAM: /proc/meminfo reports %" G_GUINT64_FORMAT " bytes, "
                      "more than any computer has (the limit is %" G_GUINT64_FORMAT " TiB); "
                      "the figure is not used", findings->ram_total_bytes,
                      (guint64) (HR_DETECT_MAX_RAM_BYTES >> 40));
      findings->ram_total_bytes = 0;
      return;
    }
  /* Kernels before 3.14 have no MemAvailable; free memory then is
   * unknown rather than guessed. */
  if (!meminfo_value (contents, "MemAvailable", &findings->ram_available_bytes) ||
      findings->ram_available_bytes > findings->ram_total_bytes)
    findings->ram_available_bytes = 0;
}

/* “0-7,16-23” → 16. */
static guint32
count_cpu_list (const char *list)
{
  g_auto(GStrv) ranges = NULL;
  guint32 count = 0;

  if (list == NULL || list[0] == '\0')
    return 0;
  ranges = g_strsplit (list, ",", 1024);
  for (guint i = 0; ranges[i] != NULL; i++)
    {
      guint64 first, last;
      g_auto(GStrv) ends = g_strsplit (ranges[i], "-", 2);

      if (!g_ascii_string_to_unsigned (ends[0], 10, 0, 1 << 20, &first, NULL))
        return 0;
      last = first;
      if (ends[1] != NULL && !g_ascii_string_to_unsigned (ends[1], 10, first, 1 << 20,
                                                          &last, NULL))
        return 0;
      count += last - first + 1;
    }
  return count;
}

static const char *
cpuinfo_field (const char *line,
               const char *key)
{
  gsize n = strlen (key);
  const char *p;

  /* Keys are case-sensitive: “model” (a number) is not “Model” (Arm's name). */
  if (strncmp (line, key, n) != 0)
    return NULL;
  p = line + n;
  while (*p == ' ' || *p == '\t')
    p++;
  if (*p != ':')
    return NULL;
  p++;
  while (*p == ' ')
    p++;
  return p;
}

/* The widest SIMD a cpuinfo "flags" (x86) or "Features" (Arm) line
 * names: what llama.cpp's CPU kernels use (ggml-cpu's AVX2, AVX-512 and
 * NEON paths). */
static const char *
simd_from_flags (const char *flags)
{
  g_auto(GStrv) words = g_strsplit_set (flags, " \t", -1);

  if (g_strv_contains ((const char * const *) words, "avx512f"))
    return "avx512";
  if (g_strv_contains ((const char * const *) words, "avx2"))
    return "avx2";
  if (g_strv_contains ((const char * const *) words, "asimd"))
    return "neon";
  return "none";
}

void
hr_detect_cpu (HrTree           *tree,
               HrDetectFindings *findings)
{
  g_autofree char *contents = NULL;
  g_autofree char *online = NULL;
  g_autoptr(GHashTable) cores = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) sockets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) lines = NULL;
  const char *physical = "0";
  guint64 cores_per_socket = 0;
  guint32 processors = 0;
  gboolean truncated = FALSE;

  if (!hr_tree_read (tree, "/proc/cpuinfo", HR_DETECT_MAX_FILE_BYTES, &contents, NULL,
                     &truncated, NULL))
    {
      hr_detect_note (findings, "CPU: /proc/cpuinfo is not readable");
      return;
    }

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *value;

      if (cpuinfo_field (lines[i], "processor") != NULL)
        processors++;
      else if (findings->cpu_model == NULL &&
               ((value = cpuinfo_field (lines[i], "model name")) != NULL ||
                (value = cpuinfo_field (lines[i], "Model")) != NULL ||
                (value = cpuinfo_field (lines[i], "Hardware")) != NULL) &&
               value[0] != '\0')
        findings->cpu_model = hr_detect_sanitize (value, 120);
      else if ((value = cpuinfo_field (lines[i], "physical id")) != NULL)
        {
          physical = value;
          g_hash_table_add (sockets, g_strdup (value));
        }
      else if ((value = cpuinfo_field (lines[i], "core id")) != NULL)
        g_hash_table_add (cores, g_strdup_printf ("%s/%s", physical, value));
      else if (cores_per_socket == 0 && (value = cpuinfo_field (lines[i], "cpu cores")) != NULL)
        g_ascii_string_to_unsigned (value, 10, 1, 1 << 16, &cores_per_socket, NULL);
      else if (findings->cpu_simd == NULL &&
               ((value = cpuinfo_field (lines[i], "flags")) != NULL ||
                (value = cpuinfo_field (lines[i], "Features")) != NULL))
        findings->cpu_simd = simd_from_flags (value);
    }
  /* The base clock, where the frequency driver says it (intel_pstate,
   * amd-pstate): kHz. */
  {
    g_autofree char *base = hr_tree_read_line (tree,
                                               "/sys/devices/system/cpu/cpu0/cpufreq/base_frequency");
    guint64 khz = 0;

    if (base != NULL && g_ascii_string_to_unsigned (g_strstrip (base), 10, 100000, 10000000,
                                                    &khz, NULL))
      findings->cpu_base_mhz = (guint32) (khz / 1000);
  }

  /* The online list counts every logical CPU even when cpuinfo is cut. */
  online = hr_tree_read_line (tree, "/sys/devices/system/cpu/online");
  findings->cpu_threads = count_cpu_list (online);
  if (findings->cpu_threads == 0)
    findings->cpu_threads = processors;
  /* Distinct (socket, core) pairs; when cpuinfo was cut (hundreds of
   * CPUs), cores per socket × the sockets seen; without either (Arm),
   * every logical CPU is a core. */
  if (g_hash_table_size (cores) > 0 && !truncated)
    findings->cpu_cores = g_hash_table_size (cores);
  else if (cores_per_socket > 0)
    findings->cpu_cores = cores_per_socket * MAX (1, g_hash_table_size (sockets));
  else
    findings->cpu_cores = findings->cpu_threads;
  /* Without a name line (some Arm boards) the name stays NULL: unknown,
   * as when cpuinfo is not readable. */
}

/* SMBIOS type 17 (memory device), as /sys/firmware/dmi/entries/17-N/raw
 * holds it; offsets from the SMBIOS 3.x specification. */
#define DMI_MEMORY_DEVICE       17
#define DMI17_TOTAL_WIDTH       0x08
#define DMI17_DATA_WIDTH        0x0a
#define DMI17_SIZE              0x0c
#define DMI17_TYPE              0x12
#define DMI17_SPEED             0x15
#define DMI17_CONFIGURED_SPEED  0x20

static guint
dmi_word (const guint8 *raw,
          gsize         offset)
{
  return raw[offset] | raw[offset + 1] << 8;
}

static const char *
dmi_memory_type (guint code)
{
  switch (code)
    {
    case 0x18: return "DDR3";
    case 0x1a: return "DDR4";
    case 0x1d: return "LPDDR3";
    case 0x1e: return "LPDDR4";
    case 0x22: return "DDR5";
    case 0x23: return "LPDDR5";
    default: return NULL;
    }
}

/**
 * hr_detect_ram_modules:
 *
 * RAM type, speed and channels from the SMBIOS memory devices.  The files
 * are readable by root only on most systems: then the stated assumption
 * (HR_DETECT_ASSUMED_RAM_*) is used.  Channels are counted as the
 * populated 64-bit modules, at most two (a desktop with four modules runs
 * two per channel); soldered LPDDR is as wide as its devices together.
 */
void
hr_detect_ram_modules (HrTree           *tree,
                       HrDetectFindings *findings)
{
  g_autofree char *dir = hr_tree_resolve (tree, "/sys/firmware/dmi/entries", NULL);
  g_autoptr(GDir) handle = NULL;
  const char *name;
  guint modules = 0, bus_bits = 0, speed = 0, seen = 0;
  const char *type = NULL;
  gboolean lpddr = FALSE;

  if (dir != NULL)
    handle = g_dir_open (dir, 0, NULL);
  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL &&
         ++seen <= HR_DETECT_MAX_DRM_ENTRIES * 4)
    {
      g_autofree char *path = NULL;
      g_autofree char *raw = NULL;
      gsize length;
      guint size, width, module_speed;

      if (!g_str_has_prefix (name, "17-") || modules >= HR_DETECT_MAX_DIMMS)
        continue;
      path = g_build_filename (dir, name, "raw", NULL);
      if (!hr_tree_read (tree, path, 4096, &raw, &length, NULL, NULL) ||
          length < DMI17_SPEED + 2 || (guint8) raw[0] != DMI_MEMORY_DEVICE ||
          (guint8) raw[1] < DMI17_SPEED + 2 || (guint8) raw[1] > length)
        continue;

      size = dmi_word ((guint8 *) raw, DMI17_SIZE);
      if (size == 0 || size == 0xffff)
        continue;       /* an empty slot, or unknown */
      modules++;

      width = dmi_word ((guint8 *) raw, DMI17_DATA_WIDTH);
      if (width == 0 || width == 0xffff || width > 1024)
        width = HR_DETECT_RAM_CHANNEL_BITS;
      module_speed = dmi_word ((guint8 *) raw, DMI17_SPEED);
      if ((guint8) raw[1] >= DMI17_CONFIGURED_SPEED + 2 &&
          length >= DMI17_CONFIGURED_SPEED + 2)
        {
          guint configured = dmi_word ((guint8 *) raw, DMI17_CONFIGURED_SPEED);

          if (configured > 0 && configured < 0xffff)
            module_speed = configured;
        }
      if (module_speed > 0 && module_speed < 0xffff && (speed == 0 || module_speed < speed))
        speed = module_speed;     /* modules run at the slowest one's speed */
      if (dmi_memory_type ((guint8) raw[DMI17_TYPE]) != NULL)
        type = dmi_memory_type ((guint8) raw[DMI17_TYPE]);
      lpddr = lpddr || (type != NULL && g_str_has_prefix (type, "LP"));
      bus_bits += width;
    }

  if (modules > 0 && speed > 0)
    {
      findings->ram_type = g_strdup (type != NULL ? type : "RAM");
      findings->ram_speed_mts = speed;
      if (lpddr)
        findings->ram_bus_bits = bus_bits;
      findings->ram_channels = lpddr ? MAX (1, bus_bits / HR_DETECT_RAM_CHANNEL_BITS)
                                     : MIN (modules, 2);
      findings->ram_assumed = FALSE;
      return;
    }

  findings->ram_type = g_strdup (HR_DETECT_ASSUMED_RAM_TYPE);
  findings->ram_speed_mts = HR_DETECT_ASSUMED_RAM_MTS;
  findings->ram_channels = HR_DETECT_ASSUMED_RAM_CHANNELS;
  findings->ram_assumed = TRUE;
  hr_detect_note (findings, "RAM speed and channels are not readable without root; "
                  "assumed dual-channel %s-%d", HR_DETECT_ASSUMED_RAM_TYPE,
                  HR_DETECT_ASSUMED_RAM_MTS);
}

/* ------------------------------------------------------- system info */

struct _HrSystemInfo
{
  GObject parent_instance;

  HrDetectFindings findings;
  gboolean complete;
};

G_DEFINE_FINAL_TYPE (HrSystemInfo, hr_system_info, G_TYPE_OBJECT)

static void
hr_system_info_finalize (GObject *object)
{
  HrSystemInfo *self = HR_SYSTEM_INFO (object);

  hr_detect_findings_clear (&self->findings);
  G_OBJECT_CLASS (hr_system_info_parent_class)->finalize (object);
}

static void
hr_system_info_class_init (HrSystemInfoClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_system_info_finalize;
}

static void
hr_system_info_init (HrSystemInfo *self)
{
  hr_detect_findings_init (&self->findings);
}

/* Unified-memory platforms whose memory bus Headroom knows (the RAM's
 * SMBIOS entries describe it poorly or not at all). */
static const struct
{
  guint16 pci_vendor;
  guint16 pci_device;          /* 0: match the name */
  const char *name_part;
  guint bus_bits;
  guint mts;
  const char *label;
} unified_platforms[] = {
  { HR_PCI_VENDOR_AMD, 0x1586, NULL, 256, 8000, "Ryzen AI Max: 256-bit LPDDR5X-8000" },
  { HR_PCI_VENDOR_NVIDIA, 0, "GB10", 256, 8533, "GB10: 256-bit LPDDR5X-8533" },
};

double
hr_system_info_get_ram_bandwidth_gbps (HrSystemInfo *self)
{
  const HrDetectFindings *f;
  guint bits;

  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), 0);

  f = &self->findings;
  bits = f->ram_bus_bits > 0 ? f->ram_bus_bits : f->ram_channels * HR_DETECT_RAM_CHANNEL_BITS;
  return f->ram_speed_mts * 1e6 * bits / 8 / 1e9;
}

static void
apply_ram_bandwidth (HrSystemInfo *self)
{
  double ram = hr_system_info_get_ram_bandwidth_gbps (self);

  for (guint i = 0; i < self->findings.gpus->len; i++)
    {
      HrGpuInfo *gpu = g_ptr_array_index (self->findings.gpus, i);

      if (gpu->bandwidth_from_ram)
        gpu->bandwidth_gbps = ram;
    }
}

static int
compare_discrete_first (gconstpointer a,
                        gconstpointer b)
{
  const HrGpuInfo *x = *(const HrGpuInfo * const *) a;
  const HrGpuInfo *y = *(const HrGpuInfo * const *) b;

  return (x->integrated != 0) - (y->integrated != 0);
}

/* Integrated GPUs take the system's memory and bandwidth; discrete GPUs
 * come first. */
static void
finish_gpus (HrSystemInfo *self)
{
  HrDetectFindings *f = &self->findings;

  for (guint i = 0; i < f->gpus->len; i++)
    {
      HrGpuInfo *gpu = g_ptr_array_index (f->gpus, i);

      if (!gpu->integrated)
        continue;

      if (f->ram_total_bytes > 0)
        {
          /* An AMD APU's carve-out is not in MemTotal. */
          guint64 carve_out = gpu->vendor == HR_GPU_VENDOR_AMD ? gpu->memory_bytes : 0;
          guint64 carve_out_free = gpu->vendor == HR_GPU_VENDOR_AMD && gpu->free_known
                                   ? gpu->free_bytes : 0;

          gpu->memory_bytes = f->ram_total_bytes + carve_out;
          gpu->used_bytes = 0;
          gpu->free_known = f->ram_available_bytes > 0;
          gpu->free_bytes = gpu->free_known ? f->ram_available_bytes + carve_out_free : 0;
          if (gpu->free_known)
            gpu->used_bytes = gpu->memory_bytes - gpu->free_bytes;
        }

      if (gpu->bandwidth_gbps > 0)
        continue;
      for (guint p = 0; p < G_N_ELEMENTS (unified_platforms); p++)
        if (unified_platforms[p].pci_vendor == gpu->pci_vendor &&
            (unified_platforms[p].pci_device != 0
             ? unified_platforms[p].pci_device == gpu->pci_device
             : gpu->name != NULL && strstr (gpu->name, unified_platforms[p].name_part) != NULL))
          {
            gpu->bus_width_bits = unified_platforms[p].bus_bits;
            gpu->bandwidth_gbps = unified_platforms[p].mts * 1e6 *
                                  unified_platforms[p].bus_bits / 8 / 1e9;
            gpu->bandwidth_assumed = TRUE;
            hr_detect_note (f, "%s: bandwidth from the platform (%s)",
                            gpu->name != NULL ? gpu->name : "GPU", unified_platforms[p].label);
          }
      if (gpu->bandwidth_gbps == 0)
        {
          gpu->bandwidth_from_ram = TRUE;
          gpu->bandwidth_assumed = TRUE;
        }
    }
  apply_ram_bandwidth (self);
  g_ptr_array_sort (f->gpus, compare_discrete_first);
}

static HrSystemInfo *
system_info_new (const HrDetectFindings *findings,
                 gboolean                complete)
{
  HrSystemInfo *self = g_object_new (HR_TYPE_SYSTEM_INFO, NULL);

  findings_copy (findings, &self->findings);
  self->complete = complete;
  finish_gpus (self);
  return self;
}

guint
hr_system_info_get_n_gpus (HrSystemInfo *self)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), 0);
  return self->findings.gpus->len;
}

/**
 * hr_system_info_get_gpu:
 *
 * Discrete GPUs come before integrated ones.
 *
 * Returns: (transfer none): the GPU
 */
const HrGpuInfo *
hr_system_info_get_gpu (HrSystemInfo *self,
                        guint         index)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), NULL);
  g_return_val_if_fail (index < self->findings.gpus->len, NULL);
  return g_ptr_array_index (self->findings.gpus, index);
}

guint64
hr_system_info_get_ram_total_bytes (HrSystemInfo *self)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), 0);
  return self->findings.ram_total_bytes;
}

guint64
hr_system_info_get_ram_available_bytes (HrSystemInfo *self)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), 0);
  return self->findings.ram_available_bytes;
}

const char *
hr_system_info_get_ram_type (HrSystemInfo *self)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), NULL);
  return self->findings.ram_type;
}

guint32
hr_system_info_get_ram_speed_mts (HrSystemInfo *self)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), 0);
  return self->findings.ram_speed_mts;
}

guint32
hr_system_info_get_ram_channels (HrSystemInfo *self)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), 0);
  return self->findings.ram_channels;
}

/* Whether speed and channels are HR_DETECT_ASSUMED_* rather than read. */
gboolean
hr_system_info_get_ram_assumed (HrSystemInfo *self)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), FALSE);
  return self->findings.ram_assumed;
}

/**
 * hr_system_info_set_ram:
 * @speed_mts: transfers per second, in millions (DDR5-5600: 5600)
 * @channels: 64-bit channels
 *
 * The user's own figures, replacing what was read or assumed; integrated
 * GPUs that take the RAM's bandwidth follow.
 */
void
hr_system_info_set_ram (HrSystemInfo *self,
                        guint32       speed_mts,
                        guint32       channels)
{
  g_return_if_fail (HR_IS_SYSTEM_INFO (self));
  g_return_if_fail (speed_mts > 0 && channels > 0);

  self->findings.ram_speed_mts = speed_mts;
  self->findings.ram_channels = channels;
  self->findings.ram_bus_bits = 0;
  self->findings.ram_assumed = FALSE;
  apply_ram_bandwidth (self);
}

/**
 * hr_system_info_get_cpu_model:
 *
 * Returns: (nullable): the CPU's name as the system gives it, or %NULL
 *   when it is unknown (/proc/cpuinfo not readable, or without a name)
 */
const char *
hr_system_info_get_cpu_model (HrSystemInfo *self)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), NULL);
  return self->findings.cpu_model;
}

/**
 * hr_system_info_get_cpu_label:
 *
 * The CPU's name for a person to read: the model, or “Unknown CPU”.
 *
 * Returns: (not nullable): the label
 */
const char *
hr_system_info_get_cpu_label (HrSystemInfo *self)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), UNKNOWN_CPU_LABEL);
  return self->findings.cpu_model != NULL ? self->findings.cpu_model : UNKNOWN_CPU_LABEL;
}

guint32
hr_system_info_get_cpu_cores (HrSystemInfo *self)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), 0);
  return self->findings.cpu_cores;
}

/* "avx512", "avx2", "neon" or "none"; NULL when cpuinfo was not read. */
const char *
hr_system_info_get_cpu_simd (HrSystemInfo *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->findings.cpu_simd;
}

/* The CPU's base clock in GHz; 0 when the kernel does not say. */
double
hr_system_info_get_cpu_base_ghz (HrSystemInfo *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->findings.cpu_base_mhz / 1000.0;
}

guint32
hr_system_info_get_cpu_threads (HrSystemInfo *self)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), 0);
  return self->findings.cpu_threads;
}

/**
 * hr_system_info_get_notes:
 *
 * What could not be read, and what was assumed instead, one sentence each.
 *
 * Returns: (transfer none): a %NULL-terminated array
 */
const char * const *
hr_system_info_get_notes (HrSystemInfo *self)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), NULL);
  return (const char * const *) self->findings.notes->pdata;
}

/**
 * hr_system_info_get_gpu_failure:
 *
 * When the NVIDIA library crashed, did not answer in time, or its helper
 * could not run: one line, “GPU detection failed: …”, which is also among
 * the notes.  The GPUs sysfs found are still there.
 *
 * Returns: (nullable): the line, or %NULL
 */
const char *
hr_system_info_get_gpu_failure (HrSystemInfo *self)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), NULL);
  return self->findings.gpu_failure;
}

/* Whether every stage finished within the timeout. */
gboolean
hr_system_info_is_complete (HrSystemInfo *self)
{
  g_return_val_if_fail (HR_IS_SYSTEM_INFO (self), FALSE);
  return self->complete;
}

/* -------------------------------------------------------- the worker */

typedef struct
{
  gatomicrefcount ref;
  GMutex lock;
  GCond cond;
  gboolean done;
  HrDetectFindings published;
  const char *stage;           /* static; the one running */
  char *sysroot;
  char *nvml_library;
  guint nvml_timeout_ms;
  gint64 deadline;             /* monotonic, of the whole detection */
  GCancellable *cancellable;   /* stops the NVML helper */
} Job;

static Job *
job_ref (Job *job)
{
  g_atomic_ref_count_inc (&job->ref);
  return job;
}

static void
job_unref (Job *job)
{
  if (!g_atomic_ref_count_dec (&job->ref))
    return;
  hr_detect_findings_clear (&job->published);
  g_mutex_clear (&job->lock);
  g_cond_clear (&job->cond);
  g_free (job->sysroot);
  g_free (job->nvml_library);
  g_clear_object (&job->cancellable);
  g_free (job);
}

static void
publish (Job                    *job,
         const HrDetectFindings *findings,
         const char             *next_stage)
{
  g_mutex_lock (&job->lock);
  findings_copy (findings, &job->published);
  job->stage = next_stage;
  job->done = next_stage == NULL;
  g_cond_broadcast (&job->cond);
  g_mutex_unlock (&job->lock);
}

static gpointer
worker (gpointer data)
{
  Job *job = data;
  g_autoptr(HrTree) tree = hr_tree_new (job->sysroot);
  HrDetectFindings findings;

  hr_detect_findings_init (&findings);

  hr_detect_meminfo (tree, &findings);
  hr_detect_cpu (tree, &findings);
  hr_detect_ram_modules (tree, &findings);
  publish (job, &findings, "GPUs (sysfs)");

  /* sysfs before NVML: if NVML hangs, the NVIDIA cards are still there by
   * PCI id. */
  hr_detect_drm (tree, &findings);
  publish (job, &findings, "NVIDIA GPUs (NVML)");

  if (job->nvml_library[0] != '\0')
    {
      /* The helper is stopped before the caller stops waiting. */
      gint64 left_ms = (job->deadline - g_get_monotonic_time ()) / G_TIME_SPAN_MILLISECOND -
                       HR_DETECT_NVML_STOP_MS;
      guint limit = MIN ((gint64) job->nvml_timeout_ms, MAX (left_ms, 1));

      hr_detect_nvml_in_helper (job->nvml_library, limit, job->cancellable, &findings);
    }
  publish (job, &findings, NULL);

  hr_detect_findings_clear (&findings);
  job_unref (job);
  return NULL;
}

/**
 * hr_detect_system:
 * @options: (nullable): where to read; %NULL for the real system (or the
 *   environment's HEADROOM_SYSROOT and HEADROOM_NVML_LIBRARY)
 * @cancellable: (nullable): stops waiting
 *
 * Detects the GPUs, memory and CPU.  Never fails: what cannot be read is
 * said in the notes.  Returns within the timeout whatever happens in the
 * drivers; hr_system_info_is_complete() says whether everything was read.
 * Blocks for up to the timeout: the window calls hr_detect_system_async().
 *
 * Returns: (transfer full): what was found
 */
/* The NVML helper's limit: the options', the environment's, or the
 * default. */
static guint
nvml_timeout (const HrDetectOptions *options)
{
  const char *env = g_getenv (HR_DETECT_NVML_TIMEOUT_ENV);
  guint64 value;

  if (options != NULL && options->nvml_timeout_ms > 0)
    return options->nvml_timeout_ms;
  /* At most an hour: a test's “forever”. */
  if (env != NULL && g_ascii_string_to_unsigned (env, 10, 1, 3600 * 1000, &value, NULL))
    return value;
  return HR_DETECT_NVML_TIMEOUT_MS;
}

HrSystemInfo *
hr_detect_system (const HrDetectOptions *options,
                  GCancellable          *cancellable)
{
  const char *sysroot = options != NULL ? options->sysroot : NULL;
  const char *nvml = options != NULL ? options->nvml_library : NULL;
  guint nvml_ms = nvml_timeout (options);
  /* By default, long enough for the NVML limit asked for, and for
   * stopping the helper after it. */
  guint timeout_ms = options != NULL && options->timeout_ms > 0
                     ? options->timeout_ms
                     : MAX (HR_DETECT_TIMEOUT_MS, nvml_ms + 2 * HR_DETECT_NVML_STOP_MS);
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * G_TIME_SPAN_MILLISECOND;
  g_autoptr(GError) error = NULL;
  HrSystemInfo *info;
  GThread *thread;
  Job *job;

  if (sysroot == NULL)
    sysroot = g_getenv (HR_DETECT_SYSROOT_ENV);
  if (sysroot == NULL || sysroot[0] == '\0')
    sysroot = "/";
  if (nvml == NULL)
    nvml = g_getenv (HR_DETECT_NVML_ENV);
  if (nvml == NULL)
    nvml = HR_DETECT_NVML_LIBRARY;

  job = g_new0 (Job, 1);
  g_atomic_ref_count_init (&job->ref);
  g_mutex_init (&job->lock);
  g_cond_init (&job->cond);
  hr_detect_findings_init (&job->published);
  job->stage = "memory and CPU";
  job->sysroot = g_strdup (sysroot);
  job->nvml_library = g_strdup (nvml);
  job->nvml_timeout_ms = nvml_ms;
  job->deadline = deadline;
  job->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;

  thread = g_thread_try_new ("hr-detect", worker, job_ref (job), &error);
  if (thread == NULL)
    {
      job_unref (job);
      hr_detect_note (&job->published, "detection could not start: %s", error->message);
      info = system_info_new (&job->published, FALSE);
      job_unref (job);
      return info;
    }
  g_thread_unref (thread);   /* it ends on its own, even after we stop waiting */

  g_mutex_lock (&job->lock);
  while (!job->done && g_get_monotonic_time () < deadline &&
         !g_cancellable_is_cancelled (cancellable))
    {
      /* Short waits, so that cancelling is noticed. */
      gint64 until = MIN (deadline, g_get_monotonic_time () + 50 * G_TIME_SPAN_MILLISECOND);
      g_cond_wait_until (&job->cond, &job->lock, until);
    }
  if (!job->done)
    {
      if (g_cancellable_is_cancelled (cancellable))
        hr_detect_note (&job->published, "detection was cancelled while reading %s",
                        job->stage);
      else
        hr_detect_note (&job->published, "detection stopped after %u ms while reading %s; "
                        "what follows is partial", timeout_ms, job->stage);
    }
  info = system_info_new (&job->published, job->done);
  g_mutex_unlock (&job->lock);

  job_unref (job);
  return info;
}

typedef struct
{
  char *sysroot;
  char *nvml_library;
  guint timeout_ms;
  guint nvml_timeout_ms;
} AsyncOptions;

static void
async_options_free (AsyncOptions *options)
{
  g_free (options->sysroot);
  g_free (options->nvml_library);
  g_free (options);
}

static void
detect_in_thread (GTask        *task,
                  gpointer      source,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  AsyncOptions *async = task_data;
  HrDetectOptions options = { async->sysroot, async->nvml_library, async->timeout_ms,
                              async->nvml_timeout_ms };

  g_task_return_pointer (task, hr_detect_system (&options, cancellable), g_object_unref);
}

/**
 * hr_detect_system_async:
 *
 * hr_detect_system() in a worker thread; @callback runs in the thread-default
 * main context of the caller.
 */
void
hr_detect_system_async (const HrDetectOptions *options,
                        GCancellable          *cancellable,
                        GAsyncReadyCallback    callback,
                        gpointer               user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  AsyncOptions *async = g_new0 (AsyncOptions, 1);

  if (options != NULL)
    {
      async->sysroot = g_strdup (options->sysroot);
      async->nvml_library = g_strdup (options->nvml_library);
      async->timeout_ms = options->timeout_ms;
      async->nvml_timeout_ms = options->nvml_timeout_ms;
    }
  g_task_set_source_tag (task, hr_detect_system_async);
  g_task_set_task_data (task, async, (GDestroyNotify) async_options_free);
  g_task_run_in_thread (task, detect_in_thread);
}

/**
 * hr_detect_system_finish:
 *
 * Returns: (transfer full): what was found; %NULL only when cancelled
 */
HrSystemInfo *
hr_detect_system_finish (GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_detect_system_async,
                        NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
