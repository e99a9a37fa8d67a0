/* test-file.c — reading hostile paths, writing files that survive a full
 * disk (hr-file)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every read here runs under alarm(): a hang (a FIFO opened for reading
 * blocks until a writer comes) fails the test instead of stopping CI.
 */

#define _GNU_SOURCE   /* unshare() */

#include "config.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "hr-file.h"
#include "hr-test-util.h"

#define KIB 1024
#define MIB (1024 * 1024)

typedef struct
{
  char *dir;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  user_data)
{
  fixture->dir = hr_test_make_temp_dir ("test-file");
  alarm (10);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  user_data)
{
  g_autoptr(GDir) dir = g_dir_open (fixture->dir, 0, NULL);
  const char *name;

  alarm (0);
  /* Tests leave directories and read-only ones behind. */
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (fixture->dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        {
          g_chmod (path, 0755);
          hr_test_remove_temp_dir (path);
        }
      else
        g_unlink (path);
    }
  g_rmdir (fixture->dir);
  g_free (fixture->dir);
}

static char *
path_in (Fixture    *fixture,
         const char *name)
{
  return g_build_filename (fixture->dir, name, NULL);
}

static void
write_file (const char *path,
            const char *contents,
            int         mode)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

static void
assert_contents (const char *path,
                 const char *expected)
{
  g_autofree char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, expected);
}

static int
mode_of (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return st.st_mode & 07777;
}

/* Only the named files are in the directory: no temporary file left. */
static void
assert_only (Fixture    *fixture,
             const char *first,
             ...)
{
  g_autoptr(GDir) dir = g_dir_open (fixture->dir, 0, NULL);
  g_autoptr(GPtrArray) expected = g_ptr_array_new ();
  const char *name;
  va_list args;
  guint n = 0;

  va_start (args, first);
  for (name = first; name != NULL; name = va_arg (args, const char *))
    g_ptr_array_add (expected, (gpointer) name);
  va_end (args);

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      if (!g_ptr_array_find_with_equal_func (expected, name, g_str_equal, NULL))
        g_error ("unexpected file left in the directory: %s", name);
      n++;
    }
  g_assert_cmpuint (n, ==, expected->len);
}

static void
assert_read_fails (const char *path,
                   const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gint64 start = g_get_monotonic_time ();

  g_assert_false (hr_file_read_regular (path, MIB, &contents, NULL, &error));
  g_assert_nonnull (error);
  g_assert_null (contents);
  if (strstr (error->message, fragment) == NULL || strstr (error->message, path) == NULL)
    g_error ("“%s” should name %s and say “%s”", error->message, path, fragment);
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
}

/* ---------------------------------------------------------------------------
 * Reading
 */

static void
test_read_regular (Fixture       *fixture,
                   gconstpointer  user_data)
{
  g_autofree char *path = path_in (fixture, "a.json");
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;

  write_file (path, "{\"a\": 1}", 0644);
  g_assert_true (hr_file_read_regular (path, MIB, &contents, &length, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (contents, ==, "{\"a\": 1}");
  g_assert_cmpuint (length, ==, 8);
  g_clear_pointer (&contents, g_free);

  /* at the limit, and one byte past it */
  g_assert_true (hr_file_read_regular (path, 8, &contents, &length, &error));
  g_assert_cmpuint (length, ==, 8);
  g_clear_pointer (&contents, g_free);
  g_assert_false (hr_file_read_regular (path, 7, &contents, &length, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "8 bytes is more than the limit of 7 bytes"));
}

/* A FIFO, a device, a directory, a symlink loop, a dangling symlink: each
 * is refused by what it is, at once, with a message naming it. */
static void
test_read_hostile_paths (Fixture       *fixture,
                         gconstpointer  user_data)
{
  g_autofree char *fifo = path_in (fixture, "fifo.json");
  g_autofree char *dir = path_in (fixture, "dir.json");
  g_autofree char *loop = path_in (fixture, "loop.json");
  g_autofree char *dangling = path_in (fixture, "dangling.json");

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  assert_read_fails (fifo, "is a named pipe (FIFO), not a regular file");

  assert_read_fails ("/dev/zero", "is a device, not a regular file");
  assert_read_fails ("/dev/null", "is a device, not a regular file");

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  assert_read_fails (dir, "is a directory, not a file");

  g_assert_cmpint (symlink ("loop.json", loop), ==, 0);
  assert_read_fails (loop, "too many levels of symbolic links");

  g_assert_cmpint (symlink ("nowhere.json", dangling), ==, 0);
  assert_read_fails (dangling, "a symbolic link to a file that does not exist");

  assert_read_fails ("/nonexistent/headroom.json", "no such file");
}

/* chmod 000 does not stop root, who runs CI. */
static void
test_read_unreadable (Fixture       *fixture,
                      gconstpointer  user_data)
{
  g_autofree char *path = path_in (fixture, "secret.json");

  if (geteuid () == 0)
    {
      g_test_skip ("root reads files whatever their mode");
      return;
    }
  write_file (path, "{}", 0000);
  assert_read_fails (path, "permission denied");
}

typedef struct
{
  char *path;
  gint stop;
  gsize written;
} Grower;

static gpointer
grow (gpointer data)
{
  Grower *g = data;
  g_autofree char *chunk = g_strnfill (64 * KIB, 'x');
  FILE *file = fopen (g->path, "ab");

  g_assert_nonnull (file);
  while (!g_atomic_int_get (&g->stop) && g->written < 64 * MIB)
    {
      fwrite (chunk, 1, 64 * KIB, file);
      fflush (file);
      g->written += 64 * KIB;
    }
  fclose (file);
  return NULL;
}

/* A file that grows while it is read is read up to the limit at most;
 * one that shrank gives what is left. */
static void
test_read_changing_size (Fixture       *fixture,
                         gconstpointer  user_data)
{
  Grower grower = { path_in (fixture, "growing.json"), 0, 0 };
  GThread *thread;
  gboolean saw_limit = FALSE;

  write_file (grower.path, "", 0644);
  thread = g_thread_new ("grow", grow, &grower);
  for (gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
       !saw_limit && g_get_monotonic_time () < end;)
    {
      g_autofree char *contents = NULL;
      g_autoptr(GError) error = NULL;
      gsize length = 0;

      if (hr_file_read_regular (grower.path, MIB, &contents, &length, &error))
        g_assert_cmpuint (length, <=, MIB);
      else
        {
          g_assert_nonnull (strstr (error->message, "limit of 1 MiB"));
          saw_limit = TRUE;
        }
    }
  g_atomic_int_set (&grower.stop, 1);
  g_thread_join (thread);
  g_assert_true (saw_limit);

  /* shrunk to nothing */
  {
    g_autofree char *contents = NULL;
    gsize length = 1;

    g_assert_cmpint (truncate (grower.path, 0), ==, 0);
    g_assert_true (hr_file_read_regular (grower.path, MIB, &contents, &length, NULL));
    g_assert_cmpuint (length, ==, 0);
    g_assert_cmpstr (contents, ==, "");
  }
  g_free (grower.path);
}

/* ---------------------------------------------------------------------------
 * Writing
 */

static void
test_write_new_and_replace (Fixture       *fixture,
                            gconstpointer  user_data)
{
  g_autofree char *path = path_in (fixture, "out.csv");
  g_autoptr(GError) error = NULL;
  mode_t mask = umask (022);

  g_assert_true (hr_file_write_atomic (path, "one", 3, &error));
  g_assert_no_error (error);
  assert_contents (path, "one");
  g_assert_cmpint (mode_of (path), ==, 0644);

  /* a private file stays private */
  g_assert_cmpint (g_chmod (path, 0600), ==, 0);
  g_assert_true (hr_file_write_atomic (path, "two", 3, &error));
  assert_contents (path, "two");
  g_assert_cmpint (mode_of (path), ==, 0600);
  assert_only (fixture, "out.csv", NULL);
  umask (mask);
}

/* A full disk (ENOSPC after half the data), an I/O error at fsync, a
 * failed rename: the old file is whole and no temporary file is left. */
static void
test_write_failures (Fixture       *fixture,
                     gconstpointer  user_data)
{
  static const struct
  {
    HrFileStep step;
    int errnum;
    const char *says;
  } cases[] = {
    { HR_FILE_STEP_WRITE, ENOSPC, "could not write: no space left on the device" },
    { HR_FILE_STEP_FSYNC, EIO, "could not write: " },
    { HR_FILE_STEP_RENAME, EACCES, "could not replace it: permission denied" },
  };
  g_autofree char *path = path_in (fixture, "imported-models.json");
  g_autofree char *big = g_strnfill (256 * KIB, 'n');

  write_file (path, "the old file", 0600);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;

      hr_file_fail_next_write (cases[i].step, cases[i].errnum);
      g_assert_false (hr_file_write_atomic (path, big, strlen (big), &error));
      g_assert_nonnull (error);
      if (strstr (error->message, cases[i].says) == NULL || strstr (error->message, path) == NULL)
        g_error ("“%s” should name the file and say “%s”", error->message, cases[i].says);
      assert_contents (path, "the old file");
      g_assert_cmpint (mode_of (path), ==, 0600);
      assert_only (fixture, "imported-models.json", NULL);
    }

  /* and the next write works */
  g_assert_true (hr_file_write_atomic (path, "new", 3, NULL));
  assert_contents (path, "new");
}

/* A real full disk: a 256 KiB tmpfs in a private mount namespace, where
 * the test may mount one (root, and a container that lets it); else
 * the injected failures above stand for it. */
static void
test_write_full_disk (Fixture       *fixture,
                      gconstpointer  user_data)
{
  g_autofree char *mnt = path_in (fixture, "tmpfs");
  g_autofree char *path = g_build_filename (mnt, "matrix.csv", NULL);
  g_autofree char *filler = g_build_filename (mnt, "filler", NULL);
  g_autofree char *big = g_strnfill (64 * KIB, 'x');
  g_autoptr(GError) error = NULL;
  FILE *file;

  g_assert_cmpint (g_mkdir (mnt, 0755), ==, 0);
  if (geteuid () != 0 || unshare (CLONE_NEWNS) != 0 ||
      mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
      mount ("tmpfs", mnt, "tmpfs", 0, "size=256k") != 0)
    {
      g_test_skip_printf ("cannot mount a small tmpfs here: %s", g_strerror (errno));
      return;
    }

  write_file (path, "the old export", 0600);
  file = fopen (filler, "wb");
  g_assert_nonnull (file);
  while (fwrite (big, 1, 4 * KIB, file) == 4 * KIB && fflush (file) == 0)
    ;
  fclose (file);

  g_assert_false (hr_file_write_atomic (path, big, strlen (big), &error));
  g_assert_nonnull (strstr (error->message, "no space left on the device"));
  assert_contents (path, "the old export");
  g_assert_cmpint (mode_of (path), ==, 0600);

  /* room again: the write goes through */
  g_unlink (filler);
  g_assert_true (hr_file_write_atomic (path, big, strlen (big), NULL));
  g_unlink (path);
  g_assert_cmpint (umount (mnt), ==, 0);
}

static void
test_write_unwritable_places (Fixture       *fixture,
                              gconstpointer  user_data)
{
  g_autofree char *dir = path_in (fixture, "export.csv");
  g_autofree char *fifo = path_in (fixture, "fifo.csv");
  g_autofree char *loop = path_in (fixture, "loop.csv");
  g_autofree char *readonly = path_in (fixture, "readonly");
  g_autofree char *in_readonly = g_build_filename (readonly, "out.csv", NULL);
  g_autoptr(GError) error = NULL;

  /* a target that is a directory is refused, not replaced */
  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_assert_false (hr_file_write_atomic (dir, "x", 1, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR);
  g_assert_true (g_file_test (dir, G_FILE_TEST_IS_DIR));
  g_clear_error (&error);

  /* a FIFO neither blocks nor is replaced */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_false (hr_file_write_atomic (fifo, "x", 1, &error));
  g_assert_nonnull (strstr (error->message, "named pipe"));
  g_clear_error (&error);

  g_assert_cmpint (symlink ("loop.csv", loop), ==, 0);
  g_assert_false (hr_file_write_atomic (loop, "x", 1, &error));
  g_assert_nonnull (strstr (error->message, "too many levels of symbolic links"));
  g_clear_error (&error);

  /* a directory where nothing can be created */
  g_assert_false (hr_file_write_atomic ("/proc/headroom.csv", "x", 1, &error));
  g_assert_nonnull (strstr (error->message, "/proc/headroom.csv"));
  g_clear_error (&error);

  if (geteuid () == 0)
    {
      g_test_message ("root writes into read-only directories; only /proc checked");
      return;
    }
  g_assert_cmpint (g_mkdir (readonly, 0755), ==, 0);
  write_file (in_readonly, "old", 0644);
  g_assert_cmpint (g_chmod (readonly, 0555), ==, 0);
  g_assert_false (hr_file_write_atomic (in_readonly, "new", 3, &error));
  g_assert_nonnull (strstr (error->message, "permission denied"));
  assert_contents (in_readonly, "old");
}

/* A symlink is followed: the file it points to is replaced (keeping its
 * mode) and the link stays a link.  A dangling link creates its file. */
static void
test_write_symlink (Fixture       *fixture,
                    gconstpointer  user_data)
{
  g_autofree char *real = path_in (fixture, "real.json");
  g_autofree char *link = path_in (fixture, "imported-models.json");
  g_autofree char *dangling = path_in (fixture, "dangling.json");
  g_autofree char *created = path_in (fixture, "created.json");
  g_autoptr(GError) error = NULL;

  write_file (real, "old", 0600);
  g_assert_cmpint (symlink ("real.json", link), ==, 0);
  g_assert_true (hr_file_write_atomic (link, "new", 3, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  assert_contents (real, "new");
  g_assert_cmpint (mode_of (real), ==, 0600);

  g_assert_cmpint (symlink (created, dangling), ==, 0);
  g_assert_true (hr_file_write_atomic (dangling, "made", 4, &error));
  g_assert_true (g_file_test (dangling, G_FILE_TEST_IS_SYMLINK));
  assert_contents (created, "made");
  assert_only (fixture, "real.json", "imported-models.json", "dangling.json", "created.json",
               NULL);
}

static void
test_move_aside (Fixture       *fixture,
                 gconstpointer  user_data)
{
  g_autofree char *path = path_in (fixture, "imported-models.json");
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *base = NULL;
  g_autoptr(GError) error = NULL;

  write_file (path, "{\"models\": [", 0600);
  first = hr_file_move_aside (path, &error);
  g_assert_no_error (error);
  base = g_path_get_basename (first);
  /* imported-models.json.broken-YYYYMMDD-HHMMSS */
  g_assert_true (g_str_has_prefix (base, "imported-models.json.broken-"));
  g_assert_cmpuint (strlen (base), ==, strlen ("imported-models.json.broken-") + 15);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  assert_contents (first, "{\"models\": [");

  /* the same second again: another name, nothing overwritten */
  write_file (path, "second", 0600);
  second = hr_file_move_aside (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first, !=, second);
  assert_contents (first, "{\"models\": [");
  assert_contents (second, "second");

  g_assert_null (hr_file_move_aside (path, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("/file/read/regular", test_read_regular);
  ADD ("/file/read/hostile-paths", test_read_hostile_paths);
  ADD ("/file/read/unreadable", test_read_unreadable);
  ADD ("/file/read/changing-size", test_read_changing_size);
  ADD ("/file/write/new-and-replace", test_write_new_and_replace);
  ADD ("/file/write/failures", test_write_failures);
  ADD ("/file/write/full-disk", test_write_full_disk);
  ADD ("/file/write/unwritable-places", test_write_unwritable_places);
  ADD ("/file/write/symlink", test_write_symlink);
  ADD ("/file/move-aside", test_move_aside);

  return g_test_run ();
}
