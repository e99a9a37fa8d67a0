/* test-window-files.c — the window with broken user files, hostile text
 * and failing disks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under xvfb-run like test-window, in its own process: the user
 * directory it starts with is broken on purpose, and the catalog is
 * read once per process.
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "hr-calibration.h"
#include "hr-file.h"
#include "hr-test-util.h"
#include "hr-window.h"
#include "hr-test-app.h"

static char *home;

static void
collect_labels (GtkWidget *widget,
                GString   *out)
{
  if (GTK_IS_LABEL (widget))
    {
      g_string_append (out, gtk_label_get_text (GTK_LABEL (widget)));
      g_string_append_c (out, '\n');
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, out);
}

/* Every label of the window, toasts included, as shown (no markup). */
static char *
window_text (HrWindow *window)
{
  GString *out = g_string_new (NULL);

  collect_labels (GTK_WIDGET (window), out);
  return g_string_free (out, FALSE);
}

static void
assert_shows (HrWindow   *window,
              const char *expected)
{
  g_autofree char *text = window_text (window);

  if (strstr (text, expected) == NULL)
    g_error ("the window does not show “%s”; it shows:\n%s", expected, text);
}

/* Clicks the close button of the toast widget under @widget, if any. */
static gboolean
dismiss_toast (GtkWidget *widget,
               gboolean   in_toast)
{
  in_toast |= g_str_equal (G_OBJECT_TYPE_NAME (widget), "AdwToastWidget");
  if (in_toast && GTK_IS_BUTTON (widget) &&
      g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), "window-close-symbolic") == 0)
    {
      g_signal_emit_by_name (widget, "clicked");
      return TRUE;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (dismiss_toast (child, in_toast))
      return TRUE;
  return FALSE;
}

static void
run_for (gint64 usec)
{
  gint64 end = g_get_monotonic_time () + usec;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

/* The overlay shows one toast at a time: the next waits for this one.
 * Each is let finish its entrance first: closing a toast while it still
 * animates in makes libadwaita 1.2 unref it twice (adw_animation_skip). */
static void
dismiss_toasts (HrWindow *window)
{
  run_for (G_USEC_PER_SEC / 2);
  for (guint i = 0; i < 5 && dismiss_toast (GTK_WIDGET (window), FALSE); i++)
    run_for (G_USEC_PER_SEC / 2);
}

static HrWindow *
app_window (void)
{
  GtkApplication *app = GTK_APPLICATION (g_application_get_default ());

  return HR_WINDOW (gtk_application_get_active_window (app));
}

static char *
user_file (const char *name)
{
  return g_build_filename (home, "headroom", name, NULL);
}

/* Started on a user directory holding a truncated imported-models.json,
 * a FIFO and a directory named *.json: the window opens (it crashed, or
 * hung on the FIFO) and a toast names the problem files. */
static void
test_start_with_broken_files (void)
{
  HrWindow *window = app_window ();
  HrCatalog *catalog;

  g_assert_nonnull (window);
  hr_test_iterate ();
  catalog = hr_calculator_get_catalog (hr_window_get_calculator (window));
  g_assert_nonnull (hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"));
  g_assert_cmpuint (g_strv_length ((char **) hr_catalog_get_problems (catalog)), ==, 3);
  assert_shows (window, "Your catalog files have problems: ");
  assert_shows (window, "(and 2 more)");
}

/* libadwaita 1.2 parses toast titles as markup: file names and contents
 * such as “R&D <i>model” showed an empty toast and a Gtk-WARNING. */
static void
test_toast_is_text (void)
{
  HrWindow *window = app_window ();

  dismiss_toasts (window);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toast", "s", "R&D <i>model & co");
  hr_test_iterate ();
  assert_shows (window, "R&D <i>model & co");

  /* and a file name with a newline in it stays on one line */
  dismiss_toasts (window);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toast", "s", "Saved a\nb.csv");
  hr_test_iterate ();
  assert_shows (window, "Saved a\\nb.csv");
}

/* The speeds measured on this computer (headroom-cli calibrate's file)
 * correct the window's estimate, say so under the decode speed, and the
 * menu's switch turns them off and on (issue 27 item 3). */
static void
test_calibration_switch (void)
{
  HrWindow *window = app_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  g_autoptr(GSettings) settings = g_settings_new ("io.github.headroom_app.Headroom");
  g_autoptr(HrCalibration) calibration = hr_calibration_new ();
  g_autofree char *path = hr_calibration_dup_default_path ();
  g_autoptr(GError) error = NULL;
  HrCalibrationEntry entry = { 0 };
  double raw;

  g_settings_set_boolean (settings, "use-calibration", FALSE);
  hr_test_iterate ();
  raw = hr_calculator_get_estimate (calc)->decode_tokens_per_s;
  g_assert_cmpfloat (raw, >, 0);
  g_assert_cmpuint (hr_calculator_get_estimate (calc)->calibrated_runs, ==, 0);

  entry.hardware = (char *) hr_hardware_get_id (hr_calculator_get_hardware (calc));
  entry.backend = hr_calculator_get_estimate (calc)->backend;
  entry.decode_factor = 2.0;
  entry.decode_runs = 3;
  entry.prefill_factor = 1.0;
  hr_calibration_set (calibration, &entry);
  g_assert_true (hr_calibration_save (calibration, path, &error));
  g_assert_no_error (error);

  g_settings_set_boolean (settings, "use-calibration", TRUE);
  hr_test_iterate ();
  g_assert_cmpuint (hr_calculator_get_estimate (calc)->calibrated_runs, ==, 3);
  g_assert_cmpfloat (fabs (hr_calculator_get_estimate (calc)->decode_tokens_per_s - 2 * raw), <,
                     1e-9 * raw);
  assert_shows (window, "calibrated on this computer from 3 runs");

  /* the menu's item is the setting's action */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.use-calibration", NULL));
  hr_test_iterate ();
  g_assert_false (g_settings_get_boolean (settings, "use-calibration"));
  g_assert_cmpuint (hr_calculator_get_estimate (calc)->calibrated_runs, ==, 0);
  g_assert_cmpfloat (hr_calculator_get_estimate (calc)->decode_tokens_per_s, ==, raw);
  g_unlink (path);
}

/* Importing over the broken imported-models.json keeps it as .broken-…
 * and says so. */
static void
test_import_keeps_broken_file (void)
{
  HrWindow *window = app_window ();
  g_autofree char *config = g_test_build_filename (G_TEST_DIST, "data", "hf",
                                                   "google--gemma-3-27b-it.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (config);
  g_autofree char *dir = g_build_filename (home, "headroom", NULL);
  g_autoptr(GDir) handle = NULL;
  const char *name;
  gboolean kept = FALSE;

  dismiss_toasts (window);
  hr_window_import_file (window, file);
  hr_test_iterate ();
  assert_shows (window, "Imported gemma-3-27b-it; the unreadable list of imported models was "
                "kept as imported-models.json.broken-");

  handle = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (handle)) != NULL)
    if (g_str_has_prefix (name, "imported-models.json.broken-"))
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);
        g_autofree char *contents = NULL;

        g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
        g_assert_cmpstr (contents, ==, "{\"models\": [");
        kept = TRUE;
      }
  g_assert_true (kept);
}

/* Import… of what is not a model file: a toast says why, at once (a
 * FIFO used to hang the window, /dev/zero to eat its memory). */
static void
test_import_hostile_paths (void)
{
  HrWindow *window = app_window ();
  g_autofree char *dir = hr_test_make_temp_dir ("headroom-hostile");
  g_autofree char *fifo = g_build_filename (dir, "fifo.json", NULL);
  g_autofree char *sub = g_build_filename (dir, "model.gguf", NULL);
  g_autofree char *loop = g_build_filename (dir, "loop.json", NULL);
  const struct
  {
    const char *path;
    const char *says;
  } cases[] = {
    { fifo, "Could not import fifo.json: " },
    { fifo, "is a named pipe (FIFO), not a regular file" },
    { "/dev/zero", "Could not import zero: /dev/zero: is a device, not a regular file" },
    { sub, "is a directory, not a file" },
    { loop, "too many levels of symbolic links" },
  };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_assert_cmpint (symlink ("loop.json", loop), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (cases[i].path);
      gint64 start = g_get_monotonic_time ();

      dismiss_toasts (window);
      hr_window_import_file (window, file);
      /* not a speed check: a hang (a FIFO read to its end) would never return */
      g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
      hr_test_iterate ();
      assert_shows (window, cases[i].says);
    }

  g_rmdir (sub);
  hr_test_remove_temp_dir (dir);
}

/* Export as CSV on a full disk, into a directory, through a symlink:
 * the old file stays whole (it was left at 0 bytes), a private file
 * stays private, a link stays a link. */
static void
test_export_survives (void)
{
  HrWindow *window = app_window ();
  g_autofree char *dir = hr_test_make_temp_dir ("headroom-export");
  g_autofree char *path = g_build_filename (dir, "matrix.csv", NULL);
  g_autofree char *link = g_build_filename (dir, "link.csv", NULL);
  g_autofree char *sub = g_build_filename (dir, "sub.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) link_file = g_file_new_for_path (link);
  g_autoptr(GFile) sub_file = g_file_new_for_path (sub);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  GStatBuf st;

  g_assert_true (g_file_set_contents (path, "the old export", -1, NULL));
  g_assert_cmpint (g_chmod (path, 0600), ==, 0);

  hr_file_fail_next_write (HR_FILE_STEP_WRITE, ENOSPC);
  g_assert_false (hr_window_export_csv_to (window, "matrix", file, &error));
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "no space left"));
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "the old export");
  g_clear_error (&error);
  g_clear_pointer (&text, g_free);

  g_assert_true (hr_window_export_csv_to (window, "matrix", file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "precision,"));
  g_assert_nonnull (strstr (text, ",tier_name,quality_tier,kld,model,engine,kv_type,batch,device,"
                                  "gpus\r\n"));
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  g_assert_cmpint (symlink ("matrix.csv", link), ==, 0);
  g_assert_true (hr_window_export_csv_to (window, "hardware", link_file, &error));
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));

  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_assert_false (hr_window_export_csv_to (window, "matrix", sub_file, &error));
  g_assert_nonnull (strstr (error->message, "is a directory"));
  g_assert_true (g_file_test (sub, G_FILE_TEST_IS_DIR));

  g_rmdir (sub);
  hr_test_remove_temp_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = NULL;
  g_autofree char *imported = NULL;
  g_autofree char *fifo = NULL;
  g_autofree char *sub = NULL;
  int status;

  /* A broken user directory, before anything reads it, in a home of
   * the test's own. */
  hr_test_isolate_home ();
  home = g_dir_make_tmp ("headroom-home-XXXXXX", NULL);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  imported = user_file ("imported-models.json");
  fifo = user_file ("fifo.json");
  sub = user_file ("dir.json");
  g_assert_cmpint (g_mkdir_with_parents (sub, 0755), ==, 0);
  g_assert_true (g_file_set_contents (imported, "{\"models\": [", -1, NULL));
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  app = hr_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, NULL);
  alarm (60);
  g_application_activate (G_APPLICATION (app));

  g_test_add_func ("/window-files/start-with-broken-files", test_start_with_broken_files);
  g_test_add_func ("/window-files/toast-is-text", test_toast_is_text);
  g_test_add_func ("/window-files/calibration-switch", test_calibration_switch);
  g_test_add_func ("/window-files/import-keeps-broken-file", test_import_keeps_broken_file);
  g_test_add_func ("/window-files/export-survives", test_export_survives);
  g_test_add_func ("/window-files/import-hostile-paths", test_import_hostile_paths);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (app_window ()));
  g_rmdir (sub);
  g_unlink (fifo);
  {
    g_autofree char *dir = g_build_filename (home, "headroom", NULL);

    hr_test_remove_temp_dir (dir);
  }
  g_rmdir (home);
  g_free (home);
  return status;
}
