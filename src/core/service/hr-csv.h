/* hr-csv.h — RFC 4180 CSV of the matrix and the hardware table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One writer for the CLI and the window's “Export as CSV”: UTF-8, CRLF
 * line ends, a header row naming units, '.' as the decimal separator
 * whatever the locale.  Each row starts with the set-up it was computed
 * for (model or precision, engine, KV cache, batch, device), so that a
 * file says what it holds.  A text cell a spreadsheet would run as a
 * formula (one starting with = + - @, a tab or a carriage return) gets a
 * leading ' ; numbers never do.
 */

#pragma once

#include "hr-comparison.h"
#include "hr-hardware-table.h"
#include "hr-matrix.h"

G_BEGIN_DECLS

void hr_csv_append_field    (GString         *out,
                             const char      *value);
void hr_csv_append_number   (GString         *out,
                             double           value,
                             int              decimals);
void hr_csv_end_row         (GString         *out);

void hr_csv_write_matrix    (HrMatrix        *matrix,
                             GString         *out);
void hr_csv_write_hardware  (HrHardwareTable *table,
                             GString         *out);
void hr_csv_write_hardware_rows (HrHardwareTable *table,
                                 HrHardware      *only,
                                 GString         *out);
void hr_csv_write_comparison (HrComparison    *comparison,
                              GString         *out);

G_END_DECLS
