/* hr-cpu.c — a CPU of the catalog: its matrix rate and memory bandwidth
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-cpu"

#include "config.h"

#include <string.h>

#include "hr-catalog-json.h"
#include "hr-cpu.h"
#include "hr-fields.h"

struct _HrCpu
{
  GObject parent_instance;

  char *id;
  char *name;
  char *kind;                  /* desktop, workstation, server, laptop */
  char *simd;                  /* avx2, avx512, neon */
  char *source;
  guint32 year;
  guint32 cores;               /* performance cores (all, without hybrids) */
  guint32 flops_per_cycle;     /* FP32, one of those cores */
  double base_ghz;
  guint32 e_cores;             /* hybrid parts: efficiency cores */
  guint32 e_flops_per_cycle;
  double e_base_ghz;
  guint32 memory_channels;     /* 64-bit channels */
  guint32 memory_mts;          /* transfers per second, millions */
  double bandwidth_gbps;       /* detected CPUs: the RAM's, as measured */
};

G_DEFINE_FINAL_TYPE (HrCpu, hr_cpu, G_TYPE_OBJECT)

static const HrField cpu_fields[] = {
  HR_FIELD (HrCpu, "id", HR_FIELD_STRING, TRUE, 0, id, "Identifier used by the CLI"),
  HR_FIELD (HrCpu, "name", HR_FIELD_STRING, TRUE, 0, name, "Marketing name"),
  HR_FIELD (HrCpu, "kind", HR_FIELD_STRING, TRUE, 0, kind, "desktop, workstation, server, laptop"),
  HR_FIELD (HrCpu, "simd", HR_FIELD_STRING, TRUE, 0, simd, "avx2, avx512 or neon"),
  HR_FIELD (HrCpu, "source", HR_FIELD_STRING, TRUE, 0, source, "Where the figures come from"),
  HR_FIELD (HrCpu, "year", HR_FIELD_U32, TRUE, 2100, year, "Year of release"),
  HR_FIELD (HrCpu, "cores", HR_FIELD_U32, TRUE, 1024, cores, "Performance cores"),
  HR_FIELD (HrCpu, "flops_per_cycle", HR_FIELD_U32, TRUE, 256, flops_per_cycle,
            "FP32 FLOPs a core retires a cycle"),
  HR_FIELD (HrCpu, "base_ghz", HR_FIELD_DOUBLE, TRUE, 0, base_ghz, "Base clock"),
  HR_FIELD (HrCpu, "e_cores", HR_FIELD_U32, FALSE, 1024, e_cores, "Efficiency cores"),
  HR_FIELD (HrCpu, "e_flops_per_cycle", HR_FIELD_U32, FALSE, 256, e_flops_per_cycle,
            "FP32 FLOPs an efficiency core retires a cycle"),
  HR_FIELD (HrCpu, "e_base_ghz", HR_FIELD_DOUBLE, FALSE, 0, e_base_ghz,
            "Efficiency cores' base clock"),
  HR_FIELD (HrCpu, "memory_channels", HR_FIELD_U32, TRUE, 64, memory_channels,
            "64-bit memory channels"),
  HR_FIELD (HrCpu, "memory_mts", HR_FIELD_U32, TRUE, 20000, memory_mts,
            "Memory transfers per second, millions"),
};

static void
hr_cpu_finalize (GObject *object)
{
  hr_fields_free_strings (object, cpu_fields, G_N_ELEMENTS (cpu_fields));
  G_OBJECT_CLASS (hr_cpu_parent_class)->finalize (object);
}

static void
hr_cpu_get_property (GObject    *object,
                     guint       prop_id,
                     GValue     *value,
                     GParamSpec *pspec)
{
  if (!hr_fields_get_property (object, 1, cpu_fields, G_N_ELEMENTS (cpu_fields), prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
hr_cpu_class_init (HrCpuClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = hr_cpu_finalize;
  object_class->get_property = hr_cpu_get_property;
  hr_fields_install_properties (object_class, 1, cpu_fields, G_N_ELEMENTS (cpu_fields), NULL);
}

static void
hr_cpu_init (HrCpu *self)
{
}

HrCpu *
hr_cpu_new_from_json (JsonObject  *object,
                      GError     **error)
{
  g_autoptr(HrCpu) self = g_object_new (HR_TYPE_CPU, NULL);

  if (!hr_fields_read_json (self, cpu_fields, G_N_ELEMENTS (cpu_fields), object, error))
    return NULL;
  /* a clock past 10 GHz, or a core with no FLOPs, is a typo */
  if (!(self->base_ghz > 0 && self->base_ghz <= 10) ||
      !(self->e_base_ghz >= 0 && self->e_base_ghz <= 10) ||
      self->cores == 0 || self->flops_per_cycle == 0 ||
      self->memory_channels == 0 || self->memory_mts == 0 ||
      (self->e_cores > 0 && (self->e_flops_per_cycle == 0 || self->e_base_ghz == 0)))
    {
      g_set_error_literal (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                           "a CPU needs cores, FLOPs per cycle, a base clock in (0, 10] GHz "
                           "and memory channels (efficiency cores: theirs too)");
      return NULL;
    }
  return g_steal_pointer (&self);
}

/**
 * hr_cpu_new_detected:
 * @base_ghz: 0 when unknown (HR_CPU_UNKNOWN_BASE_GHZ)
 * @bandwidth_gbps: the RAM's bandwidth as detected; 0 when unknown
 *
 * This computer's CPU when the catalog has no entry of its name.
 */
HrCpu *
hr_cpu_new_detected (const char *name,
                     guint32     cores,
                     guint32     flops_per_cycle,
                     double      base_ghz,
                     double      bandwidth_gbps)
{
  HrCpu *self = g_object_new (HR_TYPE_CPU, NULL);

  self->id = g_strdup ("local");
  self->name = g_strdup (name != NULL ? name : "This computer's CPU");
  self->kind = g_strdup ("detected");
  self->simd = g_strdup (flops_per_cycle >= HR_CPU_FLOPS_PER_CYCLE_AVX2 ? "avx2" : "other");
  self->source = g_strdup ("/proc/cpuinfo (cores, SIMD flags), the RAM detected");
  self->cores = MAX (cores, 1);
  self->flops_per_cycle = MAX (flops_per_cycle, 1);
  self->base_ghz = base_ghz > 0 ? base_ghz : HR_CPU_UNKNOWN_BASE_GHZ;
  self->bandwidth_gbps = bandwidth_gbps;
  return self;
}

#define GETTER(type, name) \
  type \
  hr_cpu_get_##name (HrCpu *self) \
  { \
    g_return_val_if_fail (HR_IS_CPU (self), 0); \
    return self->name; \
  }

GETTER (const char *, id)
GETTER (const char *, name)
GETTER (const char *, kind)
GETTER (const char *, simd)
GETTER (const char *, source)

/* every core, efficiency cores too */
guint32
hr_cpu_get_cores (HrCpu *self)
{
  g_return_val_if_fail (HR_IS_CPU (self), 0);
  return self->cores + self->e_cores;
}

/* FP32 FMA peak at base clocks, FLOP/s: every core's pipes full. */
double
hr_cpu_get_peak_flops (HrCpu *self)
{
  g_return_val_if_fail (HR_IS_CPU (self), 0);
  return 1e9 * (self->cores * self->base_ghz * self->flops_per_cycle +
                self->e_cores * self->e_base_ghz * self->e_flops_per_cycle);
}

/* The rate llama.cpp's CPU matrix products reach: HrSpeedInput.cpu_flops. */
double
hr_cpu_get_matrix_flops (HrCpu *self)
{
  return hr_cpu_get_peak_flops (self) * HR_CPU_MATRIX_SHARE;
}

/* Nominal bandwidth of its memory, GB/s (the speed model takes its share,
 * HR_RAM_DECODE_EFFICIENCY, as of --ram-bandwidth). */
double
hr_cpu_get_bandwidth_gbps (HrCpu *self)
{
  g_return_val_if_fail (HR_IS_CPU (self), 0);
  if (self->bandwidth_gbps > 0)
    return self->bandwidth_gbps;
  return self->memory_channels * HR_CPU_CHANNEL_BYTES * self->memory_mts / 1e3;
}

/* The catalog entry a detected model name names: "AMD Ryzen 9 7950X
 * 16-Core Processor" is "AMD Ryzen 9 7950X".  The longest name found
 * wins ("Ryzen 9 7950X3D" over "Ryzen 9 7950X"), case aside. */
HrCpu *
hr_cpu_find_by_name (GListModel *cpus,
                     const char *detected_name)
{
  g_autofree char *haystack = NULL;
  HrCpu *best = NULL;
  gsize best_len = 0;
  guint n;

  g_return_val_if_fail (G_IS_LIST_MODEL (cpus), NULL);
  if (detected_name == NULL)
    return NULL;
  /* "Intel(R) Core(TM) i9-14900K" as Intel writes it in /proc/cpuinfo */
  {
    g_autoptr(GString) plain = g_string_new (detected_name);

    g_string_replace (plain, "(R)", "", 0);
    g_string_replace (plain, "(TM)", "", 0);
    haystack = g_ascii_strdown (plain->str, -1);
  }
  n = g_list_model_get_n_items (cpus);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrCpu) cpu = g_list_model_get_item (cpus, i);
      g_autofree char *name = g_ascii_strdown (cpu->name, -1);
      const char *found = strstr (haystack, name);
      gsize len = strlen (name);

      /* a whole name: not "7950X" inside "7950X3D" */
      if (found != NULL && !g_ascii_isalnum (found[len]) && len > best_len)
        {
          best = cpu;
          best_len = len;
        }
    }
  return best;
}
