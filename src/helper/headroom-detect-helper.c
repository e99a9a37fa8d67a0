/* headroom-detect-helper — loads the NVIDIA library and says what it found
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: headroom-detect-helper NVML_LIBRARY TIMEOUT_MS
 *
 * Started by detection (src/core/readers/hr-detect-helper.c), never by
 * hand: loads NVML, reads the GPUs, prints them on standard output as
 * hr-detect-wire.c writes them, and exits 0.  The library may crash or
 * hang this process; that is why it is a process of its own.
 */

#define G_LOG_DOMAIN "hr-detect-helper"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "hr-detect-private.h"

/* Seconds past the parent's limit after which the helper ends itself
 * (SIGALRM), should the parent be gone without killing it. */
#define SELF_LIMIT_MARGIN_S 2

static gboolean
write_all (int         fd,
           const char *text,
           gsize       length)
{
  while (length > 0)
    {
      gssize n = write (fd, text, length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      text += n;
      length -= n;
    }
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  HrDetectFindings findings;
  g_autofree char *answer = NULL;
  guint64 limit_ms = 0;
  int out;

  if (argc != 3 || argv[1][0] == '\0' ||
      !g_ascii_string_to_unsigned (argv[2], 10, 1, G_MAXUINT, &limit_ms, NULL))
    {
      fprintf (stderr, "%s: usage: %s NVML_LIBRARY TIMEOUT_MS (started by Headroom)\n",
               HR_DETECT_HELPER_NAME, HR_DETECT_HELPER_NAME);
      return 2;
    }

  alarm (limit_ms / 1000 + SELF_LIMIT_MARGIN_S);
  /* A vendor library that crashes here leaves no core file behind. */
  prctl (PR_SET_DUMPABLE, 0);
  /* Only the answer goes to standard output: whatever the library prints
   * goes to standard error (which Headroom silences). */
  out = fcntl (STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (out < 0 || dup2 (STDERR_FILENO, STDOUT_FILENO) < 0)
    {
      fprintf (stderr, "%s: %s\n", HR_DETECT_HELPER_NAME, g_strerror (errno));
      return 1;
    }

  hr_detect_findings_init (&findings);
  hr_detect_nvml_read (argv[1], &findings);
  answer = hr_detect_wire_format (&findings);

  /* NVML's threads and destructors are not waited for. */
  _exit (write_all (out, answer, strlen (answer)) ? 0 : 1);
}
