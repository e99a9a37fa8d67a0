/* hr-table-columns.h — the columns of the matrix and the hardware table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One description per table, read by both writers: the CSV writer
 * (hr-csv.c, the window's “Export as CSV” and `--csv`) and the CLI's
 * `--json`.  A column has a JSON key, a CSV name (the CSV names units:
 * GiB, percent), a kind that says how each writes the value, and a
 * getter.  A column with no JSON key is CSV's only, and the other way
 * round.  Adding a column here adds it to both.
 */

#pragma once

#include "hr-hardware-table.h"
#include "hr-matrix.h"

G_BEGIN_DECLS

typedef enum
{
  HR_COLUMN_TEXT,         /* text(): JSON string or null; CSV field, "" for NULL */
  HR_COLUMN_BYTES,        /* bytes(): JSON integer bytes; CSV GiB, `decimals` */
  HR_COLUMN_NUMBER,       /* number(): JSON double; CSV `decimals`; NAN is
                           * “none”: JSON null, an empty CSV cell */
  HR_COLUMN_SHARE,        /* number(), a fraction: JSON as is; CSV percent */
  HR_COLUMN_CONTEXT_BYTES,/* context_bytes(): JSON an array of integers, one
                           * per context; CSV one column per context,
                           * named csv_name + the context, in GiB */
} HrColumnKind;

typedef struct
{
  const char *json_key;   /* NULL: not in the JSON */
  const char *csv_name;   /* NULL: not in the CSV */
  HrColumnKind kind;
  int decimals;           /* CSV */
  gboolean computed;      /* CSV: empty when the row's estimate failed */
  const char *(*text)          (gpointer row);
  guint64     (*bytes)         (gpointer row);
  double      (*number)        (gpointer row);
  guint64     (*context_bytes) (gpointer row,
                                guint    context);
} HrColumn;

typedef struct
{
  const HrColumn *columns;
  guint n_columns;
  /* whether the row's estimate succeeded (for one context, when the
   * table has them) */
  gboolean (*valid) (gpointer row,
                     guint    context);
} HrTableColumns;

const HrTableColumns *hr_matrix_columns   (void);
const HrTableColumns *hr_hardware_columns (void);

G_END_DECLS
