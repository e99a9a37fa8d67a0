/* hr-units.h — byte units and the bounds every input is checked against
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sizes are bytes everywhere inside Headroom.  GiB (2^30) is the default
 * unit shown; GB (10^9) is what vendors print for bandwidth and what
 * Hugging Face lists for file sizes.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HR_MIB ((double) (1ull << 20))
#define HR_GIB ((double) (1ull << 30))
#define HR_GB  1e9

/* Inputs outside these bounds are rejected with a message, never
 * rounded or wrapped. */
#define HR_CONTEXT_MIN   1
#define HR_CONTEXT_MAX   G_MAXINT32          /* 2^31 - 1 tokens */
#define HR_BATCH_MAX     4096
#define HR_GPUS_MAX      1024
#define HR_LAYERS_MAX    100000
#define HR_PARAMS_MAX    1e15                /* parameters of one model */

/* Anything at or above this many bytes is refused rather than rounded:
 * 2^62 B (4 EiB) is far beyond any machine and well inside guint64. */
#define HR_BYTES_LIMIT   4.611686018427387904e18

/* Sizes are computed in double (quantized types have fractional bytes per
 * element, products of large counts overflow nothing there) and rounded
 * once at the end, saturating instead of wrapping. */
static inline guint64
hr_round_bytes (double value)
{
  if (!(value > 0))
    return 0;
  if (value >= 1.8e19)
    return G_MAXUINT64;
  return (guint64) (value + 0.5);
}

/* @value rounded up to a multiple of @multiple (> 0). */
static inline guint64
hr_pad_up (guint64 value,
           guint64 multiple)
{
  return (value + multiple - 1) / multiple * multiple;
}

G_END_DECLS
