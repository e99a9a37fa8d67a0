/* hr-format.c — numbers as people read them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>

#include "hr-format.h"

#define GIB ((double) (1ull << 30))
#define GB 1e9

const char *
hr_format_size_unit (HrUnits units)
{
  return units == HR_UNITS_DECIMAL ? "GB" : "GiB";
}

/* “7.86” (locale decimal separator), two decimals as the seed shows. */
char *
hr_format_size_value (guint64 bytes,
                      HrUnits units)
{
  double scale = units == HR_UNITS_DECIMAL ? GB : GIB;

  return g_strdup_printf ("%.2f", (double) bytes / scale);
}

char *
hr_format_size (guint64 bytes,
                HrUnits units)
{
  g_autofree char *value = hr_format_size_value (bytes, units);

  /* U+00A0: the number and its unit never wrap apart. */
  return g_strdup_printf ("%s\u00a0%s", value, hr_format_size_unit (units));
}

/* Digits grouped by threes with the locale's separator; where the locale
 * has none (C, POSIX) a comma, as the seed page writes 136,404. */
char *
hr_format_tokens (guint64 tokens)
{
  const char *sep = localeconv ()->thousands_sep;
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, tokens);
  GString *out = g_string_new (NULL);
  gsize len = strlen (digits);

  if (sep == NULL || sep[0] == '\0')
    sep = ",";

  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append (out, sep);
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}

char *
hr_format_percent (double fraction,
                   int    decimals)
{
  return g_strdup_printf ("%.*f\u00a0%%", CLAMP (decimals, 0, 3), fraction * 100.0);
}

char *
hr_format_rate (double tokens_per_s)
{
  return g_strdup_printf ("%.1f\u00a0tok/s", tokens_per_s);
}

/* "38.2 tok/s (31–44)": a speed and the range its group's measured error
 * gives (both bounds > 0), else the speed alone. */
char *
hr_format_rate_range (double tokens_per_s,
                      double low,
                      double high)
{
  if (!(low > 0 && high > 0))
    return hr_format_rate (tokens_per_s);
  if (low >= 10)
    return g_strdup_printf ("%.1f\u00a0tok/s (%.0f–%.0f)", tokens_per_s, low, high);
  return g_strdup_printf ("%.1f\u00a0tok/s (%.1f–%.1f)", tokens_per_s, low, high);
}

char *
hr_format_bandwidth (double gbps)
{
  return g_strdup_printf ("%.0f\u00a0GB/s", gbps);
}

/* 9.4B, 671B, 1.24B, 560M */
char *
hr_format_params (double params)
{
  if (params >= 100e9)
    return g_strdup_printf ("%.0fB", params / 1e9);
  if (params >= 1e9)
    return g_strdup_printf ("%.1fB", params / 1e9);
  return g_strdup_printf ("%.0fM", params / 1e6);
}

/* 8K, 32K, 128K, 1M: powers of two of tokens, as model cards write them. */
char *
hr_format_context_short (guint64 tokens)
{
  if (tokens >= (1u << 20) && tokens % (1u << 20) == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "M", tokens >> 20);
  if (tokens >= 1024 && tokens % 1024 == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "K", tokens >> 10);
  return hr_format_tokens (tokens);
}
