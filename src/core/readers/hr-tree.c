/* hr-tree.c — reading files inside one directory tree, defensively
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-tree"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hr-tree.h"

/* A one-line attribute (sysfs, procfs) is far smaller than this. */
#define LINE_MAX_BYTES 4096

struct _HrTree
{
  char *root;        /* as given, without a trailing slash ("" for "/") */
  char *real_root;   /* resolved; NULL when the root does not exist */
};

/**
 * hr_tree_new:
 * @root: a directory; "/" reads the real system
 *
 * A root that does not exist gives a tree where every read fails.
 */
HrTree *
hr_tree_new (const char *root)
{
  HrTree *self = g_new0 (HrTree, 1);
  char *real;

  g_return_val_if_fail (root != NULL, NULL);

  self->root = g_strdup (root);
  while (strlen (self->root) > 0 && self->root[strlen (self->root) - 1] == '/')
    self->root[strlen (self->root) - 1] = '\0';

  real = realpath (root, NULL);
  if (real != NULL)
    {
      self->real_root = g_strdup (real);
      free (real);
    }
  return self;
}

void
hr_tree_free (HrTree *self)
{
  if (self == NULL)
    return;
  g_free (self->root);
  g_free (self->real_root);
  g_free (self);
}

const char *
hr_tree_get_root (HrTree *self)
{
  return self->root[0] != '\0' ? self->root : "/";
}

/* @path inside the tree: absolute paths are taken from the root ("/sys/…"
 * under a test's fake root), relative ones from the root too. */
static gboolean
has_dir_prefix (const char *path,
                 const char *dir)
{
  gsize n = strlen (dir);

  if (n == 0 || strcmp (dir, "/") == 0)
    return path[0] == '/';
  return strncmp (path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

char *
hr_tree_build (HrTree     *self,
               const char *path)
{
  /* A path already inside the root, as given or resolved, is kept. */
  if (has_dir_prefix (path, self->root) ||
      (self->real_root != NULL && has_dir_prefix (path, self->real_root)))
    return g_strdup (path);
  return g_build_filename (self->root[0] != '\0' ? self->root : "/", path, NULL);
}

gboolean
hr_tree_contains (HrTree     *self,
                  const char *real_path)
{
  return self->real_root != NULL && has_dir_prefix (real_path, self->real_root);
}

/**
 * hr_tree_resolve:
 *
 * The real path of @path with every symbolic link followed, if it exists
 * and lies inside the tree.  A link loop or a link out of the tree is an
 * error, as is a missing file.
 */
char *
hr_tree_resolve (HrTree      *self,
                 const char  *path,
                 GError     **error)
{
  g_autofree char *full = hr_tree_build (self, path);
  char *real = realpath (full, NULL);
  g_autofree char *result = NULL;

  if (real == NULL)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "%s: %s", full, g_strerror (saved));
      return NULL;
    }
  result = g_strdup (real);
  free (real);

  if (!hr_tree_contains (self, result))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM,
                   "%s: leads out of %s", full, hr_tree_get_root (self));
      return NULL;
    }
  return g_steal_pointer (&result);
}

gboolean
hr_tree_stat (HrTree      *self,
              const char  *path,
              GStatBuf    *buf,
              GError     **error)
{
  g_autofree char *real = hr_tree_resolve (self, path, error);

  if (real == NULL)
    return FALSE;
  if (g_stat (real, buf) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "%s: %s", real, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

/**
 * hr_tree_read:
 * @max_bytes: the most that is read
 * @truncated: (out) (optional): set when the file holds more than
 *   @max_bytes; without it, such a file is an error
 *
 * Reads a regular file of the tree.  @contents is NUL-terminated.
 */
gboolean
hr_tree_read (HrTree      *self,
              const char  *path,
              gsize        max_bytes,
              char       **contents,
              gsize       *length,
              gboolean    *truncated,
              GError     **error)
{
  g_autofree char *real = NULL;
  g_autofree char *buffer = NULL;
  struct stat st;
  gsize used = 0;
  int fd;

  *contents = NULL;
  if (length != NULL)
    *length = 0;
  if (truncated != NULL)
    *truncated = FALSE;

  real = hr_tree_resolve (self, path, error);
  if (real == NULL)
    return FALSE;

  /* Non-blocking, so that opening a FIFO returns at once; the link was
   * resolved above, so the last component must not be one now. */
  fd = open (real, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "%s: %s", real, g_strerror (saved));
      return FALSE;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "%s: not a regular file", real);
      return FALSE;
    }

  buffer = g_malloc (max_bytes + 2);
  while (used <= max_bytes)
    {
      gssize n = read (fd, buffer + used, max_bytes + 1 - used);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          close (fd);
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                       "%s: %s", real, g_strerror (saved));
          return FALSE;
        }
      if (n == 0)
        break;
      used += n;
    }
  close (fd);

  if (used > max_bytes)
    {
      if (truncated == NULL)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                       "%s: larger than %" G_GSIZE_FORMAT " bytes", real, max_bytes);
          return FALSE;
        }
      *truncated = TRUE;
      used = max_bytes;
    }
  buffer[used] = '\0';
  *contents = g_steal_pointer (&buffer);
  if (length != NULL)
    *length = used;
  return TRUE;
}

/* The first line of a small file, stripped; %NULL when it cannot be read
 * or holds a NUL byte.  For sysfs and procfs attributes. */
char *
hr_tree_read_line (HrTree     *self,
                   const char *path)
{
  g_autofree char *contents = NULL;
  gsize length;
  char *newline;

  if (!hr_tree_read (self, path, LINE_MAX_BYTES, &contents, &length, NULL, NULL))
    return NULL;
  if (memchr (contents, '\0', length) != NULL)
    return NULL;
  newline = strchr (contents, '\n');
  if (newline != NULL)
    *newline = '\0';
  g_strstrip (contents);
  return g_steal_pointer (&contents);
}

/* A whole number attribute, decimal or 0x-prefixed hexadecimal. */
gboolean
hr_tree_read_u64 (HrTree     *self,
                  const char *path,
                  guint64    *value)
{
  g_autofree char *line = hr_tree_read_line (self, path);
  const char *digits;
  guint base = 10;

  if (line == NULL || line[0] == '\0')
    return FALSE;
  digits = line;
  if (g_str_has_prefix (line, "0x") || g_str_has_prefix (line, "0X"))
    {
      digits = line + 2;
      base = 16;
    }
  return g_ascii_string_to_unsigned (digits, base, 0, G_MAXUINT64, value, NULL);
}
