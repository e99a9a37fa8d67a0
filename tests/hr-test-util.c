/* hr-test-util.c — small helpers shared by the test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <sys/wait.h>

#include "hr-test-util.h"

/* The built-in catalog only: tests must not see a developer's own files. */
HrCatalog *
hr_test_builtin_catalog (void)
{
  g_autoptr(GError) error = NULL;
  HrCatalog *catalog = hr_catalog_new ();

  hr_catalog_load_builtin (catalog, &error);
  g_assert_no_error (error);
  return catalog;
}

char *
hr_test_run_cli (const char * const *args,
                 int                *exit_status,
                 char              **err)
{
  const char *cli = g_getenv ("HEADROOM_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *errors = NULL;
  int wait_status;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                &out, &errors, &wait_status, &error);
  g_assert_no_error (error);
  *exit_status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
  if (err != NULL)
    *err = g_steal_pointer (&errors);
  return g_steal_pointer (&out);
}

JsonNode *
hr_test_run_cli_json (const char * const *args)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  out = hr_test_run_cli (args, &status, &err);
  if (status != 0)
    g_error ("headroom-cli exited %d: %s", status, err);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* A fresh directory for one test's files: "PREFIX-XXXXXX" in the temp dir. */
char *
hr_test_make_temp_dir (const char *prefix)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *template = g_strdup_printf ("%s-XXXXXX", prefix);
  char *dir = g_dir_make_tmp (template, &error);

  g_assert_no_error (error);
  return dir;
}

/* Removes @dir and everything below it, never following a link; a
 * directory a test made unreadable is made readable first. */
void
hr_test_remove_temp_dir (const char *dir)
{
  g_autoptr(GDir) handle = NULL;
  const char *name;
  GStatBuf st;

  if (g_lstat (dir, &st) != 0)
    return;
  if (!S_ISDIR (st.st_mode))
    {
      g_unlink (dir);
      return;
    }
  g_chmod (dir, 0755);
  handle = g_dir_open (dir, 0, NULL);
  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      hr_test_remove_temp_dir (path);
    }
  g_rmdir (dir);
}

void
hr_test_dir_set_up (HrTestDir     *fixture,
                    gconstpointer  prefix)
{
  fixture->dir = hr_test_make_temp_dir (prefix);
  fixture->catalog = hr_test_builtin_catalog ();
}

void
hr_test_dir_tear_down (HrTestDir     *fixture,
                       gconstpointer  prefix)
{
  hr_test_remove_temp_dir (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_object (&fixture->catalog);
}
