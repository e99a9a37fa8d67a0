/* hr-format.h — numbers as people read them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Used by the window and the CLI's text output; these follow the locale
 * (7,86 GiB in Italian).  CSV and JSON never use them.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  HR_UNITS_BINARY,    /* GiB = 2^30 bytes (default) */
  HR_UNITS_DECIMAL,   /* GB = 10^9 bytes */
} HrUnits;

char *hr_format_size        (guint64  bytes,
                             HrUnits  units);
char *hr_format_size_value  (guint64  bytes,
                             HrUnits  units);
const char *hr_format_size_unit (HrUnits units);
char *hr_format_tokens      (guint64  tokens);
char *hr_format_percent     (double   fraction,
                             int      decimals);
char *hr_format_rate        (double   tokens_per_s);
char *hr_format_rate_range  (double   tokens_per_s,
                             double   low,
                             double   high);
char *hr_format_bandwidth   (double   gbps);
char *hr_format_params      (double   params);
char *hr_format_context_short (guint64 tokens);

G_END_DECLS
