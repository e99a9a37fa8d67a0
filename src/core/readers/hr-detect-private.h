/* hr-detect-private.h — the stages of detection, shared by its files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-detect.h"
#include "hr-tree.h"

G_BEGIN_DECLS

/* What one stage found; stages run in a worker thread and never touch
 * shared state themselves. */
typedef struct
{
  GPtrArray *gpus;             /* of HrGpuInfo */
  GPtrArray *notes;            /* of char * */

  guint64 ram_total_bytes;
  guint64 ram_available_bytes;
  char *ram_type;
  guint32 ram_speed_mts;
  guint32 ram_channels;
  guint32 ram_bus_bits;        /* read from SMBIOS; 0 = from the channels */
  gboolean ram_assumed;

  char *cpu_model;             /* NULL: unknown */
  guint32 cpu_cores;
  guint32 cpu_threads;
  const char *cpu_simd;        /* static: "avx512", "avx2", "neon", "none"; NULL: unknown */
  guint32 cpu_base_mhz;        /* cpufreq's base_frequency; 0: unknown */

  char *gpu_failure;           /* “GPU detection failed: …”, also a note */
} HrDetectFindings;

void     hr_detect_findings_init     (HrDetectFindings *findings);
void     hr_detect_findings_clear    (HrDetectFindings *findings);
void     hr_detect_note              (HrDetectFindings *findings,
                                      const char       *format,
                                      ...) G_GNUC_PRINTF (2, 3);
char    *hr_detect_sanitize          (const char       *text,
                                      gsize             max_length);
gboolean hr_detect_plausible_gpu_memory (HrDetectFindings *findings,
                                         const char       *what,
                                         guint64           bytes);

/* hr-detect-nvml.c: hr_detect_nvml_read() runs in the helper only. */
void     hr_detect_nvml_read         (const char       *library,
                                      HrDetectFindings *findings);
void     hr_detect_nvml_merge        (HrDetectFindings *findings,
                                      guint             first_nvml);

/* hr-detect-wire.c: the helper's answer, as text */
char    *hr_detect_wire_format       (const HrDetectFindings *findings);
gboolean hr_detect_wire_parse        (const char       *text,
                                      gsize             length,
                                      HrDetectFindings *findings,
                                      GError          **error);

/* hr-detect-helper.c: the NVML stage, in the helper process */
char    *hr_detect_helper_path       (void);
void     hr_detect_nvml_in_helper    (const char       *library,
                                      guint             timeout_ms,
                                      GCancellable     *cancellable,
                                      HrDetectFindings *findings);

/* hr-detect-sysfs.c */
void     hr_detect_drm               (HrTree           *tree,
                                      HrDetectFindings *findings);
char    *hr_detect_pci_name          (HrTree           *tree,
                                      guint16           vendor,
                                      guint16           device);

/* hr-detect-system.c */
void     hr_detect_meminfo           (HrTree           *tree,
                                      HrDetectFindings *findings);
void     hr_detect_cpu               (HrTree           *tree,
                                      HrDetectFindings *findings);
void     hr_detect_ram_modules       (HrTree           *tree,
                                      HrDetectFindings *findings);

G_END_DECLS
