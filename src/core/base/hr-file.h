/* hr-file.h — reading files that may be anything, writing files that
 * must survive a full disk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every file Headroom reads whole (config.json, catalog files) goes
 * through hr_file_read_regular(), and every file it writes (CSV exports,
 * imported-models.json) through hr_file_write_atomic().  Errors are in
 * G_FILE_ERROR and their messages start with the path, as the user gave
 * it, made displayable (hr_text_display_path()).
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

int       hr_file_open_regular   (const char   *path,
                                  guint64       max_bytes,
                                  guint64      *size,
                                  GError      **error);
gboolean  hr_file_read_fd        (int           fd,
                                  guint8       *buffer,
                                  gsize         length,
                                  gsize        *n_read,
                                  const char   *path,
                                  GError      **error);
gboolean  hr_file_read_regular   (const char   *path,
                                  gsize         max_bytes,
                                  char        **contents,
                                  gsize        *length,
                                  GError      **error);

gboolean  hr_file_write_atomic   (const char   *path,
                                  const void   *data,
                                  gsize         length,
                                  GError      **error);
char     *hr_file_move_aside     (const char   *path,
                                  GError      **error);

/* For tests: make the next hr_file_write_atomic() fail at @step with
 * @errnum, as a full disk (ENOSPC at WRITE, after half the data), a
 * failing device (EIO at FSYNC) or a vanished directory would. */
typedef enum
{
  HR_FILE_STEP_NONE,
  HR_FILE_STEP_WRITE,
  HR_FILE_STEP_FSYNC,
  HR_FILE_STEP_RENAME,
} HrFileStep;

void      hr_file_fail_next_write (HrFileStep   step,
                                   int          errnum);

G_END_DECLS
