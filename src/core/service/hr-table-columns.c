/* hr-table-columns.c — the columns of the matrix and the hardware table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The keys and names are docs/CLI.md's: `matrix --json` rows hold precision,
 * label, bpw, weights_bytes, total_bytes (one per context) and tier;
 * `hardware --json` rows hardware, name, memory_bytes, bandwidth_gbps,
 * required_bytes, share, verdict, decode_tokens_per_s and joules_per_token
 * (issue 26).  The CSV
 * names carry units (weights_gib, share_percent).
 */

#define G_LOG_DOMAIN "hr-table-columns"

#include "config.h"

#include "hr-quality.h"
#include "hr-table-columns.h"

#include <math.h>

/* ------------------------------------------------------------- matrix */

static const char *
matrix_precision (gpointer row)
{
  return hr_precision_get_id (hr_matrix_row_get_precision (row));
}

static const char *
matrix_label (gpointer row)
{
  return hr_precision_get_label (hr_matrix_row_get_precision (row));
}

static double
matrix_bpw (gpointer row)
{
  return hr_precision_get_bpw (hr_matrix_row_get_precision (row));
}

static guint64
matrix_weights (gpointer row)
{
  return hr_matrix_row_get_weights_bytes (row);
}

static guint64
matrix_total (gpointer row,
              guint    context)
{
  return hr_matrix_row_get_total_bytes (row, context);
}

static const char *
matrix_tier (gpointer row)
{
  HrHardware *tier = hr_matrix_row_get_tier (row);

  return tier != NULL ? hr_hardware_get_id (tier) : NULL;
}

static const char *
matrix_tier_name (gpointer row)
{
  HrHardware *tier = hr_matrix_row_get_tier (row);

  return tier != NULL ? hr_hardware_get_name (tier) : NULL;
}

/* The published quality of the row's precision (hr-quality.h): its tier,
 * and its KLD (empty / null when not measured). */
static const char *
matrix_quality_tier (gpointer row)
{
  HrPrecision *precision = hr_matrix_row_get_precision (row);

  return hr_quality_tier_to_string (
    hr_quality_precision_tier (hr_precision_get_id (precision),
                               g_strcmp0 (hr_precision_get_kind (precision), "float") == 0));
}

static double
matrix_kld (gpointer row)
{
  HrQuality q;

  return hr_quality_for_precision (hr_precision_get_id (hr_matrix_row_get_precision (row)), &q)
         ? q.kld : NAN;
}

static gboolean
matrix_valid (gpointer row,
              guint    context)
{
  return hr_matrix_row_get_valid (row, context);
}

static const HrColumn matrix_columns[] = {
  { "precision", "precision", HR_COLUMN_TEXT, 0, FALSE, .text = matrix_precision },
  { "label", "label", HR_COLUMN_TEXT, 0, FALSE, .text = matrix_label },
  { "bpw", "bpw", HR_COLUMN_NUMBER, 2, FALSE, .number = matrix_bpw },
  { "weights_bytes", "weights_gib", HR_COLUMN_BYTES, 3, FALSE, .bytes = matrix_weights },
  { "total_bytes", "total_gib_at_", HR_COLUMN_CONTEXT_BYTES, 3, TRUE,
    .context_bytes = matrix_total },
  /* the recommended device at the tier context: its id, and its name
   * for a spreadsheet */
  { "tier", "tier", HR_COLUMN_TEXT, 0, FALSE, .text = matrix_tier },
  { NULL, "tier_name", HR_COLUMN_TEXT, 0, FALSE, .text = matrix_tier_name },
  /* issue 26: the precision's published quality */
  { "quality_tier", "quality_tier", HR_COLUMN_TEXT, 0, FALSE, .text = matrix_quality_tier },
  { "kld", "kld", HR_COLUMN_NUMBER, 6, FALSE, .number = matrix_kld },
};

const HrTableColumns *
hr_matrix_columns (void)
{
  static const HrTableColumns table = {
    matrix_columns, G_N_ELEMENTS (matrix_columns), matrix_valid,
  };

  return &table;
}

/* ----------------------------------------------------------- hardware */

static const char *
hardware_id (gpointer row)
{
  return hr_hardware_get_id (hr_hardware_row_get_hardware (row));
}

static const char *
hardware_name (gpointer row)
{
  return hr_hardware_get_name (hr_hardware_row_get_hardware (row));
}

static const char *
hardware_vendor (gpointer row)
{
  return hr_hardware_get_vendor (hr_hardware_row_get_hardware (row));
}

static guint64
hardware_memory (gpointer row)
{
  return hr_hardware_get_memory_bytes (hr_hardware_row_get_hardware (row));
}

static double
hardware_bandwidth (gpointer row)
{
  return hr_hardware_get_bandwidth_gbps (hr_hardware_row_get_hardware (row));
}

static guint64
hardware_required (gpointer row)
{
  return hr_hardware_row_get_required_bytes (row);
}

static double
hardware_share (gpointer row)
{
  return hr_hardware_row_get_share (row);
}

static const char *
hardware_verdict (gpointer row)
{
  return hr_verdict_to_string (hr_hardware_row_get_verdict (row));
}

/* What does not fit has no speed, as on screen: none (NAN), not a figure. */
static double
hardware_decode (gpointer row)
{
  if (hr_hardware_row_get_verdict (row) == HR_VERDICT_NO_FIT)
    return NAN;
  return hr_hardware_row_get_decode_tokens_per_s (row);
}

/* Unknown (no board power, nothing on a GPU) or no fit: null / empty. */
static double
hardware_joules (gpointer row)
{
  double joules = hr_hardware_row_get_joules_per_token (row);

  return joules > 0 ? joules : NAN;
}

static gboolean
hardware_valid (gpointer row,
                guint    context)
{
  return hr_hardware_row_get_valid (row);
}

static const HrColumn hardware_columns[] = {
  { "hardware", "hardware", HR_COLUMN_TEXT, 0, FALSE, .text = hardware_id },
  { "name", "name", HR_COLUMN_TEXT, 0, FALSE, .text = hardware_name },
  { "vendor", NULL, HR_COLUMN_TEXT, 0, FALSE, .text = hardware_vendor },
  { "memory_bytes", "memory_gib", HR_COLUMN_BYTES, 2, FALSE, .bytes = hardware_memory },
  { "bandwidth_gbps", "bandwidth_gbps", HR_COLUMN_NUMBER, 1, FALSE,
    .number = hardware_bandwidth },
  { "required_bytes", "required_gib", HR_COLUMN_BYTES, 3, TRUE, .bytes = hardware_required },
  { "share", "share_percent", HR_COLUMN_SHARE, 1, TRUE, .number = hardware_share },
  { "verdict", "verdict", HR_COLUMN_TEXT, 0, TRUE, .text = hardware_verdict },
  { "decode_tokens_per_s", "decode_tokens_per_s", HR_COLUMN_NUMBER, 1, TRUE,
    .number = hardware_decode },
  { "joules_per_token", "joules_per_token", HR_COLUMN_NUMBER, 2, TRUE,
    .number = hardware_joules },
};

const HrTableColumns *
hr_hardware_columns (void)
{
  static const HrTableColumns table = {
    hardware_columns, G_N_ELEMENTS (hardware_columns), hardware_valid,
  };

  return &table;
}
