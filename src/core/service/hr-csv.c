/* hr-csv.c — RFC 4180 CSV of the matrix and the hardware table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-csv"

#include "config.h"

#include "hr-csv.h"

#define GIB ((double) (1ull << 30))

static gboolean
at_row_start (GString *out)
{
  return out->len == 0 || out->str[out->len - 1] == '\n';
}

/* Fields are separated by commas; a row starts with no separator. */
static void
separate (GString *out)
{
  if (!at_row_start (out))
    g_string_append_c (out, ',');
}

void
hr_csv_append_field (GString    *out,
                     const char *value)
{
  /* An empty first field is written as "" so that it still counts. */
  if ((value == NULL || value[0] == '\0') && at_row_start (out))
    {
      g_string_append (out, "\"\"");
      return;
    }

  separate (out);
  if (value == NULL)
    return;

  if (strpbrk (value, ",\"\r\n") == NULL)
    {
      g_string_append (out, value);
      return;
    }

  g_string_append_c (out, '"');
  for (const char *p = value; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

void
hr_csv_append_number (GString *out,
                      double   value,
                      int      decimals)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  char format[8];

  g_snprintf (format, sizeof format, "%%.%df", CLAMP (decimals, 0, 9));
  separate (out);
  g_string_append (out, g_ascii_formatd (buffer, sizeof buffer, format, value));
}

void
hr_csv_end_row (GString *out)
{
  g_string_append (out, "\r\n");
}

void
hr_csv_write_matrix (HrMatrix *matrix,
                     GString  *out)
{
  guint n_contexts;
  guint n_rows;

  g_return_if_fail (HR_IS_MATRIX (matrix));
  g_return_if_fail (out != NULL);

  n_contexts = hr_matrix_get_n_contexts (matrix);
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (matrix));

  hr_csv_append_field (out, "precision");
  hr_csv_append_field (out, "label");
  hr_csv_append_field (out, "bpw");
  hr_csv_append_field (out, "weights_gib");
  for (guint c = 0; c < n_contexts; c++)
    {
      g_autofree char *name =
        g_strdup_printf ("total_gib_at_%" G_GUINT64_FORMAT,
                         hr_matrix_get_context (matrix, c));
      hr_csv_append_field (out, name);
    }
  hr_csv_append_field (out, "tier");
  hr_csv_append_field (out, "tier_name");
  hr_csv_end_row (out);

  for (guint r = 0; r < n_rows; r++)
    {
      g_autoptr(HrMatrixRow) row = g_list_model_get_item (G_LIST_MODEL (matrix), r);
      HrPrecision *precision = hr_matrix_row_get_precision (row);
      HrHardware *tier = hr_matrix_row_get_tier (row);

      hr_csv_append_field (out, hr_precision_get_id (precision));
      hr_csv_append_field (out, hr_precision_get_label (precision));
      hr_csv_append_number (out, hr_precision_get_bpw (precision), 2);
      hr_csv_append_number (out, hr_matrix_row_get_weights_bytes (row) / GIB, 3);
      for (guint c = 0; c < n_contexts; c++)
        {
          if (hr_matrix_row_get_valid (row, c))
            hr_csv_append_number (out, hr_matrix_row_get_total_bytes (row, c) / GIB, 3);
          else
            hr_csv_append_field (out, "");
        }
      hr_csv_append_field (out, tier ? hr_hardware_get_id (tier) : "");
      hr_csv_append_field (out, tier ? hr_hardware_get_name (tier) : "");
      hr_csv_end_row (out);
    }
}

void
hr_csv_write_hardware (HrHardwareTable *table,
                       GString         *out)
{
  hr_csv_write_hardware_rows (table, NULL, out);
}

/* The hardware table, or only @only's row when it is not %NULL. */
void
hr_csv_write_hardware_rows (HrHardwareTable *table,
                            HrHardware      *only,
                            GString         *out)
{
  guint n_rows;

  g_return_if_fail (HR_IS_HARDWARE_TABLE (table));
  g_return_if_fail (out != NULL);

  n_rows = g_list_model_get_n_items (G_LIST_MODEL (table));

  hr_csv_append_field (out, "hardware");
  hr_csv_append_field (out, "name");
  hr_csv_append_field (out, "memory_gib");
  hr_csv_append_field (out, "bandwidth_gbps");
  hr_csv_append_field (out, "required_gib");
  hr_csv_append_field (out, "share_percent");
  hr_csv_append_field (out, "verdict");
  hr_csv_append_field (out, "decode_tokens_per_s");
  hr_csv_end_row (out);

  for (guint r = 0; r < n_rows; r++)
    {
      g_autoptr(HrHardwareRow) row = g_list_model_get_item (G_LIST_MODEL (table), r);
      HrHardware *hw = hr_hardware_row_get_hardware (row);
      gboolean valid = hr_hardware_row_get_valid (row);

      if (only != NULL && hw != only)
        continue;
      hr_csv_append_field (out, hr_hardware_get_id (hw));
      hr_csv_append_field (out, hr_hardware_get_name (hw));
      hr_csv_append_number (out, hr_hardware_get_memory_bytes (hw) / GIB, 2);
      hr_csv_append_number (out, hr_hardware_get_bandwidth_gbps (hw), 1);
      if (valid)
        {
          hr_csv_append_number (out, hr_hardware_row_get_required_bytes (row) / GIB, 3);
          hr_csv_append_number (out, hr_hardware_row_get_share (row) * 100.0, 1);
          hr_csv_append_field (out, hr_verdict_to_string (hr_hardware_row_get_verdict (row)));
          hr_csv_append_number (out, hr_hardware_row_get_decode_tokens_per_s (row), 1);
        }
      else
        {
          for (int i = 0; i < 4; i++)
            hr_csv_append_field (out, "");
        }
      hr_csv_end_row (out);
    }
}
