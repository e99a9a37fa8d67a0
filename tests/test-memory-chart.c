/* test-memory-chart.c — the memory chart widget in a window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Needs a display: run under xvfb-run -a, with GSK_RENDERER=cairo and
 * G_DEBUG=fatal-criticals.  GTK_A11Y is set to “test” here.
 */

#define G_LOG_DOMAIN "test-memory-chart"

#include "config.h"

#include <adwaita.h>

#include "hr-memory-chart.h"
#include "hr-test-app.h"

#define SEED_WEIGHTS  G_GUINT64_CONSTANT (5698919168)
#define SEED_KV       G_GUINT64_CONSTANT (1342177280)
#define SEED_OVERHEAD G_GUINT64_CONSTANT (1395033254)
#define SEED_USABLE   G_GUINT64_CONSTANT (12680890941)
#define SEED_DEVICE   G_GUINT64_CONSTANT (12884901888)
#define GIB           G_GUINT64_CONSTANT (1073741824)

#define SEED_DESCRIPTION "Weights 5.31\u00a0GiB (67.6\u00a0%), " \
                         "KV cache 1.25\u00a0GiB (15.9\u00a0%), " \
                         "overhead 1.30\u00a0GiB (16.5\u00a0%), " \
                         "total 7.86\u00a0GiB of 11.81\u00a0GiB usable"

static GtkWidget *
seed_chart (void)
{
  return g_object_new (HR_TYPE_MEMORY_CHART,
                       "weights-bytes", SEED_WEIGHTS,
                       "kv-bytes", SEED_KV,
                       "overhead-bytes", SEED_OVERHEAD,
                       "usable-bytes", SEED_USABLE,
                       "device-bytes", SEED_DEVICE,
                       NULL);
}

static void
notify_cb (GObject    *object G_GNUC_UNUSED,
           GParamSpec *pspec G_GNUC_UNUSED,
           gpointer    data)
{
  guint *count = data;

  (*count)++;
}

static void
test_properties (void)
{
  g_autoptr(GtkWidget) chart = g_object_ref_sink (hr_memory_chart_new ());
  guint notified = 0;
  guint64 value;
  guint units;

  g_assert_true (HR_IS_MEMORY_CHART (chart));
  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (chart)),
                   ==, GTK_ACCESSIBLE_ROLE_IMG);
  /* Described even before anything is known. */
  g_assert_nonnull (hr_memory_chart_get_description (HR_MEMORY_CHART (chart)));

  g_signal_connect (chart, "notify::kv-bytes", G_CALLBACK (notify_cb), &notified);
  g_object_set (chart, "kv-bytes", SEED_KV, NULL);
  g_assert_cmpuint (notified, ==, 1);
  /* Explicit notify: the same value again is not a change. */
  g_object_set (chart, "kv-bytes", SEED_KV, NULL);
  g_assert_cmpuint (notified, ==, 1);
  hr_memory_chart_set_kv_bytes (HR_MEMORY_CHART (chart), 2 * GIB);
  g_assert_cmpuint (notified, ==, 2);

  g_object_get (chart, "kv-bytes", &value, NULL);
  g_assert_cmpuint (value, ==, 2 * GIB);

  g_object_set (chart, "units", HR_UNITS_DECIMAL, NULL);
  g_object_get (chart, "units", &units, NULL);
  g_assert_cmpuint (units, ==, HR_UNITS_DECIMAL);
  g_assert_cmpint (hr_memory_chart_get_units (HR_MEMORY_CHART (chart)), ==,
                   HR_UNITS_DECIMAL);
  g_assert_nonnull (strstr (hr_memory_chart_get_description (HR_MEMORY_CHART (chart)),
                            "GB"));
}

static void
test_binding (void)
{
  g_autoptr(GtkWidget) source = g_object_ref_sink (seed_chart ());
  g_autoptr(GtkWidget) chart = g_object_ref_sink (hr_memory_chart_new ());
  const char *names[] = {
    "weights-bytes", "kv-bytes", "overhead-bytes", "usable-bytes", "device-bytes",
  };

  /* As the window binds the calculator's outputs. */
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_object_bind_property (source, names[i], chart, names[i], G_BINDING_SYNC_CREATE);

  g_assert_cmpstr (hr_memory_chart_get_description (HR_MEMORY_CHART (chart)), ==,
                   SEED_DESCRIPTION);
  g_assert_cmpuint (hr_memory_chart_get_device_bytes (HR_MEMORY_CHART (chart)), ==,
                    SEED_DEVICE);

  hr_memory_chart_set_weights_bytes (HR_MEMORY_CHART (source), 6 * GIB);
  g_assert_cmpuint (hr_memory_chart_get_weights_bytes (HR_MEMORY_CHART (chart)), ==,
                    6 * GIB);
}

static void
test_window (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *chart = seed_chart ();
  const char *description;
  int minimum, natural;
  int min_width, nat_width;

  gtk_window_set_child (GTK_WINDOW (window), chart);
  gtk_window_set_default_size (GTK_WINDOW (window), 450, -1);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_wait_for_frame (chart);

  description = hr_memory_chart_get_description (HR_MEMORY_CHART (chart));
  g_assert_nonnull (strstr (description, "7.86"));
  g_assert_cmpstr (description, ==, SEED_DESCRIPTION);
  gtk_test_accessible_assert_property (chart, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       SEED_DESCRIPTION);

  /* A change is described at once. */
  g_object_set (chart, "weights-bytes", 8 * GIB, "kv-bytes", 3 * GIB,
                "overhead-bytes", 2 * GIB, NULL);
  description = hr_memory_chart_get_description (HR_MEMORY_CHART (chart));
  g_assert_nonnull (strstr (description, "total 13.00\u00a0GiB"));
  g_assert_nonnull (strstr (description, "1.19\u00a0GiB over the limit"));
  gtk_test_accessible_assert_property (chart, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       description);
  hr_test_wait_for_frame (chart);

  /* Sizes: modest widths so the window can shrink, a legend of two rows
   * at 450 px. */
  gtk_widget_measure (chart, GTK_ORIENTATION_HORIZONTAL, -1,
                      &min_width, &nat_width, NULL, NULL);
  g_test_message ("width: minimum %d, natural %d", min_width, nat_width);
  g_assert_cmpint (min_width, >, 100);
  g_assert_cmpint (min_width, <=, 300);
  g_assert_cmpint (nat_width, >=, min_width);
  g_assert_cmpint (nat_width, <=, 450);

  gtk_widget_measure (chart, GTK_ORIENTATION_VERTICAL, 450,
                      &minimum, &natural, NULL, NULL);
  g_test_message ("height at 450 px: minimum %d, natural %d", minimum, natural);
  g_assert_cmpint (natural, >=, 70);
  g_assert_cmpint (natural, <=, 120);
  g_assert_cmpint (minimum, <=, natural);

  gtk_widget_measure (chart, GTK_ORIENTATION_VERTICAL, -1,
                      &minimum, &natural, NULL, NULL);
  g_assert_cmpint (minimum, <=, natural);
  g_assert_cmpint (natural, <=, 200);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  /* GTK_A11Y=none keeps no accessible state at all; the test backend
   * keeps it, needs no accessibility bus either, and lets
   * gtk_test_accessible_*() read the description back. */
  g_setenv ("GTK_A11Y", "test", TRUE);

  hr_test_init_isolated (&argc, &argv);
  adw_init ();

  g_test_add_func ("/memory-chart/properties", test_properties);
  g_test_add_func ("/memory-chart/binding", test_binding);
  g_test_add_func ("/memory-chart/window", test_window);

  return g_test_run ();
}
