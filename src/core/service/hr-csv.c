/* hr-csv.c — RFC 4180 CSV of the matrix and the hardware table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-csv"

#include "config.h"

#include <string.h>

#include "hr-csv.h"

#include <math.h>
#include "hr-scenario.h"
#include "hr-table-columns.h"

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

/* The first characters that make a spreadsheet read a cell as a formula
 * (or, for tab and carriage return, hide one), as OWASP's "CSV Injection"
 * page lists them.  Model ids come from file names: a GGUF named
 * "=HYPERLINK(…).gguf" would otherwise put a live formula in the model
 * column. */
#define FORMULA_STARTS "=+-@\t\r"

/* The usual guard: a leading apostrophe, which spreadsheets take as "this
 * is text" (and do not show). */
#define FORMULA_GUARD '\''

/* A plain decimal number ("-1.5", "+2", "3e-4"): what a spreadsheet reads
 * as a number, never as a formula, so it needs no guard. */
static gboolean
is_plain_number (const char *s)
{
  gboolean digits = FALSE;

  if (*s == '+' || *s == '-')
    s++;
  for (; g_ascii_isdigit (*s); s++)
    digits = TRUE;
  if (*s == '.')
    for (s++; g_ascii_isdigit (*s); s++)
      digits = TRUE;
  if (!digits)
    return FALSE;
  if (*s == 'e' || *s == 'E')
    {
      s++;
      if (*s == '+' || *s == '-')
        s++;
      if (!g_ascii_isdigit (*s))
        return FALSE;
      while (g_ascii_isdigit (*s))
        s++;
    }
  return *s == '\0';
}

static gboolean
needs_formula_guard (const char *value)
{
  return value[0] != '\0' && strchr (FORMULA_STARTS, value[0]) != NULL &&
         !is_plain_number (value);
}

void
hr_csv_append_field (GString    *out,
                     const char *value)
{
  gboolean guard;

  /* An empty first field is written as "" so that it still counts. */
  if ((value == NULL || value[0] == '\0') && at_row_start (out))
    {
      g_string_append (out, "\"\"");
      return;
    }

  separate (out);
  if (value == NULL)
    return;

  guard = needs_formula_guard (value);
  if (strpbrk (value, ",\"\r\n") == NULL)
    {
      if (guard)
        g_string_append_c (out, FORMULA_GUARD);
      g_string_append (out, value);
      return;
    }

  g_string_append_c (out, '"');
  if (guard)
    g_string_append_c (out, FORMULA_GUARD);
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

/* The set-up a table was computed for ends each row, so that a file says
 * what it holds (batch, KV cache, engine, device) and a spreadsheet can
 * put files side by side.  After the table's own columns: those keep the
 * positions and names docs/CLI.md gave them.  The engine is the one the row ran
 * with: the automatic profile picks one per model and precision. */
typedef enum
{
  SETUP_MODEL = 1 << 0,
  SETUP_PRECISION = 1 << 1,
  SETUP_CONTEXT = 1 << 2,
  SETUP_ENGINE = 1 << 3,
  SETUP_KV_TYPE = 1 << 4,
  SETUP_BATCH = 1 << 5,
  SETUP_HARDWARE = 1 << 6,
} SetupFields;

static void
append_setup_header (GString     *out,
                     SetupFields  fields)
{
  if (fields & SETUP_MODEL)
    hr_csv_append_field (out, "model");
  if (fields & SETUP_PRECISION)
    hr_csv_append_field (out, "precision");
  if (fields & SETUP_CONTEXT)
    hr_csv_append_field (out, "context");
  if (fields & SETUP_ENGINE)
    hr_csv_append_field (out, "engine");
  if (fields & SETUP_KV_TYPE)
    hr_csv_append_field (out, "kv_type");
  if (fields & SETUP_BATCH)
    hr_csv_append_field (out, "batch");
  if (fields & SETUP_HARDWARE)
    {
      hr_csv_append_field (out, "device");
      hr_csv_append_field (out, "gpus");
    }
}

static void
append_setup (GString          *out,
              const HrScenario *scenario,
              SetupFields       fields)
{
  if (fields & SETUP_MODEL)
    hr_csv_append_field (out, scenario->model ? hr_model_spec_get_id (scenario->model) : "");
  if (fields & SETUP_PRECISION)
    hr_csv_append_field (out, scenario->precision ? hr_precision_get_id (scenario->precision)
                                                  : "");
  if (fields & SETUP_CONTEXT)
    hr_csv_append_number (out, (double) scenario->context, 0);
  if (fields & SETUP_ENGINE)
    hr_csv_append_field (out, hr_engine_to_string (hr_scenario_engine (scenario)));
  if (fields & SETUP_KV_TYPE)
    hr_csv_append_field (out, scenario->kv_type ? hr_kv_type_get_id (scenario->kv_type) : "");
  if (fields & SETUP_BATCH)
    hr_csv_append_number (out, scenario->batch, 0);
  if (fields & SETUP_HARDWARE)
    {
      hr_csv_append_field (out, scenario->hardware ? hr_hardware_get_id (scenario->hardware)
                                                   : "");
      hr_csv_append_number (out, scenario->gpus, 0);
    }
}

#define MATRIX_SETUP (SETUP_MODEL | SETUP_ENGINE | SETUP_KV_TYPE | SETUP_BATCH | SETUP_HARDWARE)
#define HARDWARE_SETUP (SETUP_MODEL | SETUP_PRECISION | SETUP_CONTEXT | SETUP_ENGINE | \
                        SETUP_KV_TYPE | SETUP_BATCH)
#define COMPARISON_SETUP (SETUP_PRECISION | SETUP_CONTEXT | SETUP_ENGINE | SETUP_KV_TYPE | \
                          SETUP_BATCH | SETUP_HARDWARE)

/* The header of a table described by hr-table-columns.h: the CSV names,
 * one per context for a per-context column (@matrix's contexts). */
static void
append_columns_header (GString              *out,
                       const HrTableColumns *table,
                       HrMatrix             *matrix)
{
  for (guint i = 0; i < table->n_columns; i++)
    {
      const HrColumn *column = &table->columns[i];

      if (column->csv_name == NULL)
        continue;
      if (column->kind != HR_COLUMN_CONTEXT_BYTES)
        {
          hr_csv_append_field (out, column->csv_name);
          continue;
        }
      for (guint c = 0; c < hr_matrix_get_n_contexts (matrix); c++)
        {
          g_autofree char *name =
            g_strdup_printf ("%s%" G_GUINT64_FORMAT, column->csv_name,
                             hr_matrix_get_context (matrix, c));
          hr_csv_append_field (out, name);
        }
    }
}

/* One row's cells, as the columns say; a computed cell is empty when the
 * row's estimate failed. */
static void
append_columns_row (GString              *out,
                    const HrTableColumns *table,
                    HrMatrix             *matrix,
                    gpointer              row)
{
  for (guint i = 0; i < table->n_columns; i++)
    {
      const HrColumn *column = &table->columns[i];

      if (column->csv_name == NULL)
        continue;
      if (column->kind == HR_COLUMN_CONTEXT_BYTES)
        {
          for (guint c = 0; c < hr_matrix_get_n_contexts (matrix); c++)
            {
              if (!column->computed || table->valid (row, c))
                hr_csv_append_number (out, column->context_bytes (row, c) / GIB,
                                      column->decimals);
              else
                hr_csv_append_field (out, "");
            }
          continue;
        }
      if (column->computed && !table->valid (row, 0))
        {
          hr_csv_append_field (out, "");
          continue;
        }
      switch (column->kind)
        {
        case HR_COLUMN_TEXT:
          {
            const char *text = column->text (row);

            hr_csv_append_field (out, text != NULL ? text : "");
          }
          break;
        case HR_COLUMN_BYTES:
          hr_csv_append_number (out, column->bytes (row) / GIB, column->decimals);
          break;
        case HR_COLUMN_NUMBER:
          {
            double value = column->number (row);

            if (isnan (value))
              hr_csv_append_field (out, "");
            else
              hr_csv_append_number (out, value, column->decimals);
          }
          break;
        case HR_COLUMN_SHARE:
          hr_csv_append_number (out, column->number (row) * 100.0, column->decimals);
          break;
        case HR_COLUMN_CONTEXT_BYTES:
        default:
          g_assert_not_reached ();
        }
    }
}

void
hr_csv_write_matrix (HrMatrix *matrix,
                     GString  *out)
{
  const HrTableColumns *columns = hr_matrix_columns ();
  guint n_rows;
  HrScenario base;

  g_return_if_fail (HR_IS_MATRIX (matrix));
  g_return_if_fail (out != NULL);

  n_rows = g_list_model_get_n_items (G_LIST_MODEL (matrix));
  base = *hr_calculator_get_scenario (hr_matrix_get_calculator (matrix));

  append_columns_header (out, columns, matrix);
  append_setup_header (out, MATRIX_SETUP);
  hr_csv_end_row (out);

  for (guint r = 0; r < n_rows; r++)
    {
      g_autoptr(HrMatrixRow) row = g_list_model_get_item (G_LIST_MODEL (matrix), r);
      HrScenario scenario = base;

      scenario.precision = hr_matrix_row_get_precision (row);
      append_columns_row (out, columns, matrix, row);
      append_setup (out, &scenario, MATRIX_SETUP);
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
  const HrTableColumns *columns = hr_hardware_columns ();
  guint n_rows;
  HrScenario base;

  g_return_if_fail (HR_IS_HARDWARE_TABLE (table));
  g_return_if_fail (out != NULL);

  n_rows = g_list_model_get_n_items (G_LIST_MODEL (table));
  base = *hr_calculator_get_scenario (hr_row_list_get_calculator (HR_ROW_LIST (table)));

  append_columns_header (out, columns, NULL);
  append_setup_header (out, HARDWARE_SETUP);
  hr_csv_end_row (out);

  for (guint r = 0; r < n_rows; r++)
    {
      g_autoptr(HrHardwareRow) row = g_list_model_get_item (G_LIST_MODEL (table), r);
      HrHardware *hw = hr_hardware_row_get_hardware (row);
      HrScenario scenario = base;

      if (only != NULL && hw != only)
        continue;
      scenario.hardware = hw;
      append_columns_row (out, columns, NULL, row);
      append_setup (out, &scenario, HARDWARE_SETUP);
      hr_csv_end_row (out);
    }
}

/**
 * hr_csv_write_comparison:
 *
 * The Compare view's table: one row per similar model at the current
 * precision, context and device, after the set-up they share.
 */
void
hr_csv_write_comparison (HrComparison *comparison,
                         GString      *out)
{
  HrScenario base;
  guint n_rows;

  g_return_if_fail (HR_IS_COMPARISON (comparison));
  g_return_if_fail (out != NULL);

  n_rows = g_list_model_get_n_items (G_LIST_MODEL (comparison));
  base = *hr_calculator_get_scenario (hr_row_list_get_calculator (HR_ROW_LIST (comparison)));

  hr_csv_append_field (out, "model");
  hr_csv_append_field (out, "name");
  hr_csv_append_field (out, "params");
  hr_csv_append_field (out, "active_params");
  hr_csv_append_field (out, "total_gib");
  hr_csv_append_field (out, "per_device_gib");
  hr_csv_append_field (out, "verdict");
  hr_csv_append_field (out, "decode_tokens_per_s");
  hr_csv_append_field (out, "max_context");
  append_setup_header (out, COMPARISON_SETUP);
  hr_csv_end_row (out);

  for (guint r = 0; r < n_rows; r++)
    {
      g_autoptr(HrComparisonRow) row = g_list_model_get_item (G_LIST_MODEL (comparison), r);
      HrModelSpec *model = hr_comparison_row_get_model (row);
      const HrModelArch *arch = hr_model_spec_get_arch (model);
      HrVerdict verdict = hr_comparison_row_get_verdict (row);
      HrScenario scenario = base;

      scenario.model = model;
      hr_csv_append_field (out, hr_model_spec_get_id (model));
      hr_csv_append_field (out, hr_model_spec_get_name (model));
      hr_csv_append_number (out, arch->params_total, 0);
      hr_csv_append_number (out, arch->params_active, 0);
      hr_csv_append_number (out, hr_comparison_row_get_total_bytes (row) / GIB, 3);
      hr_csv_append_number (out, hr_comparison_row_get_per_device_bytes (row) / GIB, 3);
      hr_csv_append_field (out, hr_verdict_to_string (verdict));
      /* what does not fit has no speed, as on screen */
      if (verdict != HR_VERDICT_NO_FIT)
        hr_csv_append_number (out, hr_comparison_row_get_decode_tokens_per_s (row), 1);
      else
        hr_csv_append_field (out, "");
      /* A context memory never limits (every layer within its window)
       * is the word "unlimited" in this number column: an empty cell
       * already means no context fits. */
      if (verdict != HR_VERDICT_NO_FIT && hr_comparison_row_get_max_context_unbounded (row))
        hr_csv_append_field (out, "unlimited");
      else if (verdict != HR_VERDICT_NO_FIT && hr_comparison_row_get_max_context (row) > 0)
        hr_csv_append_number (out, (double) hr_comparison_row_get_max_context (row), 0);
      else
        hr_csv_append_field (out, "");
      append_setup (out, &scenario, COMPARISON_SETUP);
      hr_csv_end_row (out);
    }
}
