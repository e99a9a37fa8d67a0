/* main.c — headroom, the GNOME application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "hr-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = NULL;
  /* Run from the build tree (build-aux/run-app.sh), the catalogs are the
   * build's, not the install prefix's. */
  const char *localedir = g_getenv ("HEADROOM_LOCALEDIR");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir
                                                                          : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = hr_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
