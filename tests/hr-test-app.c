/* hr-test-app.c — the application a widget test runs in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "hr-test-app.h"

static void
on_activate (GApplication *app)
{
  /* tests run from main, once the app is registered */
}

static void
remove_home (gpointer home)
{
  g_rmdir (home);   /* left alone when a test wrote into it */
  g_free (home);
}

/**
 * hr_test_app_register:
 *
 * gtk_test_init() and adw_init(), then a registered, non-unique
 * HrApplication for the windows under test, the environment left as the
 * test set it (a test with its own fake home).
 *
 * Returns: (transfer full): the application
 */
HrApplication *
hr_test_app_register (int    *argc,
                      char ***argv)
{
  HrApplication *app;

  gtk_test_init (argc, argv, NULL);
  adw_init ();

  app = hr_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
  g_application_register (G_APPLICATION (app), NULL, NULL);
  g_object_set_data (G_OBJECT (app), "app", app);
  return app;
}

/**
 * hr_test_app_init:
 *
 * hr_test_app_register() with only the built-in catalog (a developer's
 * own files in XDG_DATA_HOME must not count): the temporary data folder
 * goes with the application.
 *
 * Returns: (transfer full): the application
 */
HrApplication *
hr_test_app_init (int    *argc,
                  char ***argv)
{
  char *home = g_dir_make_tmp ("headroom-home-XXXXXX", NULL);
  HrApplication *app;

  g_setenv ("XDG_DATA_HOME", home, TRUE);
  app = hr_test_app_register (argc, argv);
  g_object_set_data_full (G_OBJECT (app), "hr-test-home", home, remove_home);
  return app;
}

/* Runs what the main loop has ready (redraws, idles, signals), without
 * waiting. */
void
hr_test_iterate (void)
{
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

static gboolean
flag_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop for @ms milliseconds (frames, timeouts). */
void
hr_test_pump (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, flag_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}
