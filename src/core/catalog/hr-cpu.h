/* hr-cpu.h — a CPU of the catalog: its matrix rate and memory bandwidth
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where llama.cpp runs layers or experts on the CPU (--n-cpu-moe,
 * --gpu-layers below the layer count, the CPU build), their speed is the
 * CPU's: its cores × clock × the FP32 FLOPs a core's SIMD units retire a
 * cycle, and its memory channels × 8 bytes × transfer rate.  Entries come
 * from resources/catalog/cpus.json, each with its source; --cpu local
 * builds one from what /proc/cpuinfo says.
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* FP32 FLOPs one core retires a cycle (fused multiply-add = 2): two
 * 256-bit FMA pipes on Zen 2–4 and Intel P-cores without AVX-512 (2 × 8
 * × 2 = 32; Zen 4 runs AVX-512 on them, 256 bits at a time), two 512-bit
 * on AVX-512 Xeons and Zen 5 desktop/server cores (64), four 128-bit NEON
 * or SVE pipes on Apple and Neoverse V cores (32), two 128-bit on Intel's
 * Gracemont E-cores (16).  Per entry in cpus.json ("flops_per_cycle"); a
 * detected CPU takes HR_CPU_FLOPS_PER_CYCLE_AVX2 (avx2, avx512f, asimd
 * flags) or HR_CPU_FLOPS_PER_CYCLE_OTHER. */
#define HR_CPU_FLOPS_PER_CYCLE_AVX2     32
#define HR_CPU_FLOPS_PER_CYCLE_OTHER    16

/* The share of that FP32 peak (at base clock) llama.cpp's CPU matrix
 * products reach with quantized weights, whose int8 dot products retire
 * more than one multiply-add per FP32 lane.  Measured: Ryzen 9 7950X,
 * Llama 3.1 8B Q4_K_S, pp512 258.8 t/s with 16 threads (7.5e9 matrix
 * weights × 2 × 258.8 = 3.9 TFLOPS against 16 × 4.5 GHz × 32 = 2.30: 1.68)
 * and Ryzen 9 5975WX, 291.9 t/s with 32 threads (4.4 against 3.69: 1.19),
 * github.com/ikawrakow/ik_llama.cpp/pull/182, "main" column, January
 * 2025.  That fork's CPU kernels are faster than llama.cpp's, so the
 * lower ratio is rounded down, not the mean taken: an assumption bounded
 * by two measurements, not a fit. */
#define HR_CPU_MATRIX_SHARE             1.0

/* A detected CPU whose base clock is not known: 3.0 GHz, about the base
 * clock of the desktop and laptop entries of cpus.json (2.0–4.5). */
#define HR_CPU_UNKNOWN_BASE_GHZ         3.0

/* A memory channel is 64 bits wide (DDR4; DDR5's two 32-bit subchannels
 * per DIMM): 8 bytes a transfer. */
#define HR_CPU_CHANNEL_BYTES            8.0

#define HR_TYPE_CPU (hr_cpu_get_type ())

G_DECLARE_FINAL_TYPE (HrCpu, hr_cpu, HR, CPU, GObject)

HrCpu       *hr_cpu_new_from_json       (JsonObject  *object,
                                         GError     **error);
HrCpu       *hr_cpu_new_detected        (const char  *name,
                                         guint32      cores,
                                         guint32      flops_per_cycle,
                                         double       base_ghz,
                                         double       bandwidth_gbps);
const char  *hr_cpu_get_id              (HrCpu       *self);
const char  *hr_cpu_get_name            (HrCpu       *self);
const char  *hr_cpu_get_kind            (HrCpu       *self);
const char  *hr_cpu_get_simd            (HrCpu       *self);
const char  *hr_cpu_get_source          (HrCpu       *self);
guint32      hr_cpu_get_cores           (HrCpu       *self);
double       hr_cpu_get_peak_flops      (HrCpu       *self);
double       hr_cpu_get_matrix_flops    (HrCpu       *self);
double       hr_cpu_get_bandwidth_gbps  (HrCpu       *self);
HrCpu       *hr_cpu_find_by_name        (GListModel  *cpus,
                                         const char  *detected_name);

G_END_DECLS
