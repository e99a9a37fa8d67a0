/* hr-file.c — reading files that may be anything, writing files that
 * must survive a full disk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading: a path can name a FIFO (open() blocks until a writer comes, a
 * read never ends), a device (/dev/zero feeds us forever), a directory or
 * a symlink loop.  So a file is opened with O_NONBLOCK, which never
 * blocks, and then judged by fstat() on what was actually opened: only a
 * regular file is read, and never more than the caller's limit, even if
 * it grows while we read it.
 *
 * Writing: the new contents go to a temporary file in the target's own
 * directory, which is flushed to disk (fsync) before it is renamed over
 * the target, and the directory is flushed after.  Whatever fails —
 * a full disk, an I/O error, a read-only directory — the target is either
 * the old file, whole, or the new one, whole; never empty or truncated.
 * An existing target keeps its permission bits (and, for root, its
 * owner).
 *
 * Symbolic links are followed deliberately, as editors do: when the
 * target is a symlink, the file it points to is replaced and the link
 * stays a link (a user who keeps imported-models.json in a synced folder
 * and links it keeps it there).  A dangling link creates the file it
 * points to.  A chain of more than 40 links is refused as a loop, and a
 * target that is a directory, a FIFO or a device is refused, never
 * replaced.
 */

#define G_LOG_DOMAIN "hr-file"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "hr-file.h"
#include "hr-text.h"

/* As the kernel's own limit on following links (MAXSYMLINKS). */
#define MAX_LINK_HOPS 40

static HrFileStep fail_step = HR_FILE_STEP_NONE;
static int fail_errno;

static const char *
reason (int errnum)
{
  switch (errnum)
    {
    case ENOENT:
      return "no such file";
    case ELOOP:
      return "too many levels of symbolic links (a link loop?)";
    case EACCES:
    case EPERM:
      return "permission denied";
    case EISDIR:
      return "is a directory, not a file";
    case ENOSPC:
      return "no space left on the device";
    case EROFS:
      return "the file system is read-only";
    default:
      return g_strerror (errnum);
    }
}

static gboolean
set_error (GError     **error,
           int          errnum,
           const char  *path,
           const char  *what)
{
  g_autofree char *display = hr_text_display_path (path);

  if (what != NULL)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errnum),
                 "%s: %s: %s", display, what, reason (errnum));
  else
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errnum),
                 "%s: %s", display, reason (errnum));
  return FALSE;
}

/* Why a file of this type is not read or replaced. */
static const char *
describe_irregular (mode_t mode)
{
  if (S_ISDIR (mode))
    return "is a directory, not a file";
  if (S_ISFIFO (mode))
    return "is a named pipe (FIFO), not a regular file";
  if (S_ISCHR (mode) || S_ISBLK (mode))
    return "is a device, not a regular file";
  if (S_ISSOCK (mode))
    return "is a socket, not a regular file";
  return "is not a regular file";
}

static gboolean
set_irregular_error (GError     **error,
                     mode_t       mode,
                     const char  *path)
{
  g_autofree char *display = hr_text_display_path (path);

  g_set_error (error, G_FILE_ERROR, S_ISDIR (mode) ? G_FILE_ERROR_ISDIR : G_FILE_ERROR_INVAL,
               "%s: %s", display, describe_irregular (mode));
  return FALSE;
}

static char *
format_limit (guint64 bytes)
{
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " MiB", bytes / (1024 * 1024));
  return g_strdup_printf ("%" G_GUINT64_FORMAT " bytes", bytes);
}

static gboolean
set_too_large_error (GError     **error,
                     const char  *path,
                     guint64      size,
                     guint64      max_bytes,
                     gboolean     grew)
{
  g_autofree char *display = hr_text_display_path (path);
  g_autofree char *limit = format_limit (max_bytes);

  if (grew)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                 "%s: the file grew past the limit of %s while it was read",
                 display, limit);
  else
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                 "%s: %" G_GUINT64_FORMAT " bytes is more than the limit of %s for this file",
                 display, size, limit);
  return FALSE;
}

/**
 * hr_file_open_regular:
 * @path: a file name
 * @max_bytes: the largest size accepted, or 0 for any
 * @size: (out) (optional): the size of what was opened
 * @error: return location for an error
 *
 * Opens @path for reading without ever blocking, and keeps it open only
 * if it is a regular file of at most @max_bytes: a FIFO, a device, a
 * socket or a directory is refused by what it is, a symlink loop by
 * ELOOP, all with a message that starts with the path.
 *
 * Returns: a file descriptor (close it), or -1 with @error set
 */
int
hr_file_open_regular (const char  *path,
                      guint64      max_bytes,
                      guint64     *size,
                      GError     **error)
{
  struct stat st;
  int fd;
  int flags;

  g_return_val_if_fail (path != NULL, -1);

  do
    fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  while (fd < 0 && errno == EINTR);
  if (fd < 0)
    {
      int saved = errno;

      if (saved == ENOENT && lstat (path, &st) == 0 && S_ISLNK (st.st_mode))
        {
          g_autofree char *display = hr_text_display_path (path);

          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                       "%s: a symbolic link to a file that does not exist", display);
          return -1;
        }
      return set_error (error, saved, path, NULL), -1;
    }

  if (fstat (fd, &st) != 0)
    {
      int saved = errno;

      close (fd);
      return set_error (error, saved, path, NULL), -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      return set_irregular_error (error, st.st_mode, path), -1;
    }
  if (max_bytes > 0 && (guint64) st.st_size > max_bytes)
    {
      close (fd);
      return set_too_large_error (error, path, st.st_size, max_bytes, FALSE), -1;
    }

  /* A regular file never blocks anyway; reads should not see EAGAIN. */
  flags = fcntl (fd, F_GETFL);
  if (flags >= 0)
    fcntl (fd, F_SETFL, flags & ~O_NONBLOCK);

  if (size != NULL)
    *size = st.st_size;
  return fd;
}

/**
 * hr_file_read_fd:
 * @fd: a file descriptor from hr_file_open_regular()
 * @buffer: where to put the bytes
 * @length: how many to read
 * @n_read: (out): how many were read; fewer only at the end of the file
 * @path: named in the error message
 * @error: return location for an error
 *
 * Reads until @length bytes or the end of the file, through EINTR.
 *
 * Returns: %FALSE with @error set on a read error
 */
gboolean
hr_file_read_fd (int          fd,
                 guint8      *buffer,
                 gsize        length,
                 gsize       *n_read,
                 const char  *path,
                 GError     **error)
{
  gsize have = 0;

  while (have < length)
    {
      gssize n = read (fd, buffer + have, MIN (length - have, (gsize) G_MAXSSIZE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          *n_read = have;
          return set_error (error, errno, path, "could not read");
        }
      if (n == 0)
        break;
      have += n;
    }
  *n_read = have;
  return TRUE;
}

/**
 * hr_file_read_regular:
 * @path: a file name
 * @max_bytes: the most this kind of file can sensibly hold
 * @contents: (out) (transfer full): the bytes, NUL-terminated
 * @length: (out) (optional): their number
 * @error: return location for an error
 *
 * Reads a whole regular file of at most @max_bytes, as it is while we
 * read it: a file that shrinks gives what is left, one that grows past
 * @max_bytes is refused.  Costs at most @max_bytes + 1 bytes of memory
 * and never blocks (see hr_file_open_regular()).
 *
 * Returns: %TRUE on success
 */
gboolean
hr_file_read_regular (const char  *path,
                      gsize        max_bytes,
                      char       **contents,
                      gsize       *length,
                      GError     **error)
{
  g_autofree guint8 *buffer = NULL;
  guint64 size = 0;
  gsize allocated, have = 0;
  int fd;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (max_bytes > 0, FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);

  *contents = NULL;
  fd = hr_file_open_regular (path, max_bytes, &size, error);
  if (fd < 0)
    return FALSE;

  /* One byte more than the limit, to see a file that grew past it. */
  allocated = (gsize) MIN (size, (guint64) max_bytes) + 2;
  buffer = g_malloc (allocated);
  for (;;)
    {
      gsize n = 0;

      if (!hr_file_read_fd (fd, buffer + have, allocated - 1 - have, &n, path, error))
        {
          close (fd);
          return FALSE;
        }
      have += n;
      if (have > max_bytes)
        {
          close (fd);
          return set_too_large_error (error, path, have, max_bytes, TRUE);
        }
      if (have < allocated - 1)
        break;                  /* the end of the file */
      allocated = MIN (allocated * 2, (gsize) max_bytes + 2);
      buffer = g_realloc (buffer, allocated);
    }
  close (fd);

  buffer[have] = '\0';
  *contents = (char *) g_steal_pointer (&buffer);
  if (length != NULL)
    *length = have;
  return TRUE;
}

/* Follows @path through symbolic links to the file that is really
 * written: *@exists says whether it exists, *@st is what it is. */
static char *
resolve_target (const char   *path,
                struct stat  *st,
                gboolean     *exists,
                GError      **error)
{
  g_autofree char *current = g_strdup (path);

  for (guint hops = 0;; hops++)
    {
      g_autofree char *link = NULL;
      g_autoptr(GError) link_error = NULL;

      if (lstat (current, st) != 0)
        {
          if (errno != ENOENT)
            return set_error (error, errno, path, NULL), NULL;
          *exists = FALSE;
          return g_steal_pointer (&current);
        }
      if (!S_ISLNK (st->st_mode))
        break;
      if (hops >= MAX_LINK_HOPS)
        return set_error (error, ELOOP, path, NULL), NULL;

      /* Only fails if the link went away since lstat(). */
      link = g_file_read_link (current, &link_error);
      if (link == NULL)
        return set_error (error, ENOENT, path, NULL), NULL;
      if (!g_path_is_absolute (link))
        {
          g_autofree char *dir = g_path_get_dirname (current);
          char *joined = g_build_filename (dir, link, NULL);

          g_free (link);
          link = joined;
        }
      g_free (current);
      current = g_steal_pointer (&link);
    }

  if (!S_ISREG (st->st_mode))
    return set_irregular_error (error, st->st_mode, path), NULL;
  *exists = TRUE;
  return g_steal_pointer (&current);
}

static gboolean
injected (HrFileStep step)
{
  if (fail_step != step)
    return FALSE;
  fail_step = HR_FILE_STEP_NONE;
  errno = fail_errno;
  return TRUE;
}

static gboolean
write_all (int         fd,
           const void *data,
           gsize       length)
{
  const guint8 *p = data;
  gsize left = length;

  if (fail_step == HR_FILE_STEP_WRITE)
    {
      /* A full disk takes part of the data before it says so. */
      left = length / 2;
      while (left > 0)
        {
          gssize n = write (fd, p, left);

          if (n <= 0)
            break;
          p += n;
          left -= n;
        }
      return !injected (HR_FILE_STEP_WRITE);
    }

  while (left > 0)
    {
      gssize n = write (fd, p, MIN (left, (gsize) G_MAXSSIZE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return FALSE;
      p += n;
      left -= n;
    }
  return TRUE;
}

/* Makes the rename itself durable; a file system that cannot flush a
 * directory (EINVAL) has nothing to flush. */
static void
sync_directory (const char *dir)
{
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd < 0)
    return;
  if (fsync (fd) != 0 && errno != EINVAL)
    g_debug ("%s: fsync of the directory failed: %s", dir, g_strerror (errno));
  close (fd);
}

/**
 * hr_file_write_atomic:
 * @path: the file to create or replace
 * @data: its new contents
 * @length: their size
 * @error: return location for an error
 *
 * Replaces @path with @data so that @path is at every moment either the
 * old file, whole, or the new one (see the top of this file, also for
 * symbolic links).  An existing file keeps its permissions; a new one is
 * created as 0666 less the umask.
 *
 * Returns: %TRUE on success; on failure @path is unchanged and the
 *   message names it and says why
 */
gboolean
hr_file_write_atomic (const char  *path,
                      const void  *data,
                      gsize        length,
                      GError     **error)
{
  g_autofree char *target = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *temp = NULL;
  struct stat st;
  gboolean exists = FALSE;
  const char *failed = NULL;
  int saved = 0;
  int fd;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  target = resolve_target (path, &st, &exists, error);
  if (target == NULL)
    return FALSE;

  /* A hidden name that does not end in .json, so that a temporary file
   * left by a crash is never loaded as a catalog file. */
  dir = g_path_get_dirname (target);
  base = g_path_get_basename (target);
  temp = g_strdup_printf ("%s%s.%s.XXXXXX", dir, G_DIR_SEPARATOR_S, base);
  fd = g_mkstemp_full (temp, O_RDWR | O_CLOEXEC, exists ? 0600 : 0666);
  if (fd < 0)
    return set_error (error, errno, path, "cannot create a file beside it");

  if (exists)
    {
      /* Root saving a user's file must not hand it to root. */
      if ((st.st_uid != geteuid () || st.st_gid != getegid ()) &&
          fchown (fd, st.st_uid, st.st_gid) != 0)
        g_debug ("%s: keeping the owner failed: %s", path, g_strerror (errno));
      if (fchmod (fd, st.st_mode & 07777) != 0)
        failed = "cannot keep its permissions";
    }

  if (failed == NULL && !write_all (fd, data, length))
    failed = "could not write";
  if (failed == NULL && (injected (HR_FILE_STEP_FSYNC) || fsync (fd) != 0))
    failed = "could not write";
  saved = errno;
  if (close (fd) != 0 && failed == NULL)
    {
      failed = "could not write";
      saved = errno;
    }
  if (failed == NULL && (injected (HR_FILE_STEP_RENAME) || g_rename (temp, target) != 0))
    {
      failed = "could not replace it";
      saved = errno;
    }

  if (failed != NULL)
    {
      g_unlink (temp);
      return set_error (error, saved, path, failed);
    }

  sync_directory (dir);
  return TRUE;
}

/**
 * hr_file_move_aside:
 * @path: a file the program cannot use but must not lose
 * @error: return location for an error
 *
 * Renames @path (through symbolic links, as hr_file_write_atomic()
 * would write) to "@path.broken-YYYYMMDD-HHMMSS", with "-2", "-3", … if
 * that name is taken, so the user keeps it and it is no longer loaded.
 *
 * Returns: (transfer full): the new name, or %NULL with @error set
 */
char *
hr_file_move_aside (const char  *path,
                    GError     **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *target = NULL;
  struct stat st;
  gboolean exists = FALSE;

  g_return_val_if_fail (path != NULL, NULL);

  target = resolve_target (path, &st, &exists, error);
  if (target == NULL)
    return NULL;
  if (!exists)
    return set_error (error, ENOENT, path, NULL), NULL;

  for (guint n = 1; n < 1000; n++)
    {
      g_autofree char *aside = n == 1
        ? g_strdup_printf ("%s.broken-%s", target, stamp)
        : g_strdup_printf ("%s.broken-%s-%u", target, stamp, n);

      if (lstat (aside, &st) == 0)
        continue;
      if (g_rename (target, aside) != 0)
        return set_error (error, errno, path, "cannot move it aside"), NULL;
      return g_steal_pointer (&aside);
    }
  return set_error (error, EEXIST, path, "cannot move it aside"), NULL;
}

void
hr_file_fail_next_write (HrFileStep step,
                         int        errnum)
{
  fail_step = step;
  fail_errno = errnum;
}
