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
/* Asserts that two models are the same in every property (every field of
 * the catalog's table, the attention kind, origin, MoE) and in their
 * weights by type, naming the first that differs. */
void
hr_test_assert_same_model (HrModelSpec *a,
                           HrModelSpec *b)
{
  g_autofree GParamSpec **pspecs = NULL;
  JsonObject *types_a, *types_b;
  guint n_pspecs = 0;

  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (a), &n_pspecs);
  g_assert_cmpuint (n_pspecs, >, 0);
  for (guint i = 0; i < n_pspecs; i++)
    {
      g_auto(GValue) va = G_VALUE_INIT;
      g_auto(GValue) vb = G_VALUE_INIT;

      g_value_init (&va, pspecs[i]->value_type);
      g_value_init (&vb, pspecs[i]->value_type);
      g_object_get_property (G_OBJECT (a), pspecs[i]->name, &va);
      g_object_get_property (G_OBJECT (b), pspecs[i]->name, &vb);
      if (g_param_values_cmp (pspecs[i], &va, &vb) != 0)
        {
          g_autofree char *sa = g_strdup_value_contents (&va);
          g_autofree char *sb = g_strdup_value_contents (&vb);

          g_error ("%s: property “%s” is %s, then %s", hr_model_spec_get_id (a),
                   pspecs[i]->name, sa, sb);
        }
    }

  types_a = hr_model_spec_get_weights_by_type (a);
  types_b = hr_model_spec_get_weights_by_type (b);
  g_assert_true ((types_a == NULL) == (types_b == NULL));
  if (types_a != NULL)
    {
      g_autoptr(JsonNode) na = json_node_init_object (json_node_alloc (), types_a);
      g_autoptr(JsonNode) nb = json_node_init_object (json_node_alloc (), types_b);
      g_autofree char *ta = json_to_string (na, FALSE);
      g_autofree char *tb = json_to_string (nb, FALSE);

      /* Same members in the same order (the ggml type order). */
      g_assert_cmpstr (ta, ==, tb);
    }
}

/* Asserts that @direct (made of a shape, without JSON) is the model its
 * own catalog entry reads back to: written as imported-models.json holds
 * it, and read as the catalog reads that file. */
void
hr_test_assert_round_trip (HrModelSpec *direct)
{
  g_autoptr(JsonObject) entry = hr_model_spec_to_json (direct);
  g_autoptr(JsonObject) again_entry = NULL;
  g_autoptr(HrModelSpec) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) a = NULL;
  g_autoptr(JsonNode) b = NULL;

  again = hr_model_spec_new_from_json (entry, hr_model_spec_get_origin (direct), &error);
  g_assert_no_error (error);
  g_assert_nonnull (again);
  hr_test_assert_same_model (direct, again);

  /* And the entry it writes is the same entry. */
  again_entry = hr_model_spec_to_json (again);
  a = json_node_init_object (json_node_alloc (), entry);
  b = json_node_init_object (json_node_alloc (), again_entry);
  g_assert_true (json_node_equal (a, b));
}

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
