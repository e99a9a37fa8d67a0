/* hr-text.h — any text made safe to show on one line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Error messages quote what files contain (keys, names, architectures)
 * and where they are (paths), and end up on a terminal or in a GTK label.
 * Neither may receive invalid UTF-8, and a terminal must not receive an
 * escape sequence or a newline that forges another line.  These helpers
 * turn any bytes into valid UTF-8 without control characters, visibly:
 * "\x1b", "\n", "\xff" rather than silently dropping anything.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char     *hr_text_escape_line     (const char  *text,
                                   gssize       length);
gboolean  hr_text_is_displayable  (const char  *text,
                                   gssize       length);
gboolean  hr_text_has_control     (const char  *text);
char     *hr_text_display_path    (const char  *path);
void      hr_text_sanitize_error  (GError      *error);
gboolean  hr_text_has_token_start (const char  *haystack,
                                   const char  *word);
gboolean  hr_text_matches_words   (const char  *haystack,
                                   const char  *query);

G_END_DECLS
