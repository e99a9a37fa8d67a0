/* bench-catalog.c — how long a large user catalog takes to load
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Loads catalog documents of 1, 4 and 16 MiB with hr_catalog_load_data()
 * and prints the time of each, so that growth can be read off: loading
 * is linear when 4× the size takes about 4× the time.  Three shapes:
 *
 *  - devices: valid devices and a tier ladder as long, each rung naming
 *    the last device (every rung was a walk over every device);
 *  - replace: the same devices loaded a second time, each replacing the
 *    entry of its id (each replacement was a walk over the store);
 *  - rejected: empty objects, each a rejected entry (each was a message,
 *    21,000 lines for 62 KiB, 5.6 million for 16 MiB).
 *
 * Usage: bench-catalog [MiB]   (the largest size; 16 by default)
 * The peak RSS printed is the process's, after the largest document.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "hr-catalog.h"
#include "hr-json-load.h"

#define MIB (1024 * 1024)

/* One valid device; %u is its number. */
#define DEVICE_JSON \
  "{\"id\":\"bench-%u\",\"name\":\"Bench %u\",\"vendor\":\"NVIDIA\"," \
  "\"family\":\"nvidia-geforce\",\"kind\":\"discrete\",\"memory_gib\":12," \
  "\"bandwidth_gbps\":360}"

/* Devices filling half of @bytes, a tier ladder the other half. */
static GString *
devices_document (gsize bytes)
{
  GString *doc = g_string_sized_new (bytes + 256);
  g_autofree char *last = NULL;
  guint n = 0;

  g_string_append (doc, "{\"hardware\":[");
  while (doc->len < bytes / 2)
    {
      if (n > 0)
        g_string_append_c (doc, ',');
      g_string_append_printf (doc, DEVICE_JSON, n, n);
      n++;
    }
  last = g_strdup_printf ("\"bench-%u\"", n - 1);
  g_string_append (doc, "],\"tier_ladder\":[");
  g_string_append (doc, last);
  while (doc->len + strlen (last) + 3 < bytes)
    {
      g_string_append_c (doc, ',');
      g_string_append (doc, last);
    }
  g_string_append (doc, "]}");
  return doc;
}

static GString *
rejected_document (gsize bytes)
{
  GString *doc = g_string_sized_new (bytes + 16);

  g_string_append (doc, "{\"models\":[{}");
  while (doc->len + 5 < bytes)
    g_string_append (doc, ",{}");
  g_string_append (doc, "]}");
  return doc;
}

static double
load_seconds (HrCatalog  *catalog,
              GString    *doc)
{
  gint64 start = g_get_monotonic_time ();

  hr_catalog_load_data (catalog, doc->str, doc->len, "bench.json", HR_ORIGIN_USER, NULL);
  return (g_get_monotonic_time () - start) / 1e6;
}

/* The parse alone (hr_json_load_data(): the scan, then json-glib's tree),
 * the floor under a load. */
static double
parse_seconds (GString *doc)
{
  gint64 start = g_get_monotonic_time ();
  g_autoptr(JsonNode) root = hr_json_load_data (doc->str, doc->len, "bench.json", NULL);

  return (g_get_monotonic_time () - start) / 1e6;
}

static void
report (const char *shape,
        gsize       bytes,
        double      seconds,
        HrCatalog  *catalog)
{
  const char * const *problems = hr_catalog_get_problems (catalog);

  g_print ("%-9s %3" G_GSIZE_FORMAT " MiB  %8.3f s  %7.1f ms/MiB  %u devices, %u problem lines\n",
           shape, bytes / MIB, seconds, seconds * 1e3 / (bytes / MIB),
           g_list_model_get_n_items (hr_catalog_get_hardware (catalog)),
           g_strv_length ((char **) problems));
}

int
main (int   argc,
      char *argv[])
{
  guint largest = argc > 1 ? (guint) atoi (argv[1]) : 16;
  struct rusage usage;

  g_print ("Headroom catalog load benchmark (hr_catalog_load_data)\n");
  for (guint mib = 1; mib <= largest; mib *= 4)
    {
      gsize bytes = (gsize) mib * MIB;
      g_autoptr(GString) devices = devices_document (bytes);
      g_autoptr(GString) rejected = rejected_document (bytes);
      g_autoptr(HrCatalog) catalog = hr_catalog_new ();
      g_autoptr(HrCatalog) bad = hr_catalog_new ();
      double t;

      hr_catalog_load_builtin (catalog, NULL);
      hr_catalog_load_builtin (bad, NULL);
      g_print ("parse     %3u MiB  %8.3f s (devices), %.3f s (rejected)\n", mib,
               parse_seconds (devices), parse_seconds (rejected));
      t = load_seconds (catalog, devices);
      report ("devices", bytes, t, catalog);
      t = load_seconds (catalog, devices);
      report ("replace", bytes, t, catalog);
      t = load_seconds (bad, rejected);
      report ("rejected", bytes, t, bad);
    }

  getrusage (RUSAGE_SELF, &usage);
  g_print ("peak RSS %ld MiB\n", usage.ru_maxrss / 1024);
  return 0;
}
