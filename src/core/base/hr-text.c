/* hr-text.c — any text made safe to show on one line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "hr-text.h"

/* Characters that change how the rest of a line is shown or where it
 * goes: C0 and C1 controls, DEL, the Unicode line and paragraph
 * separators, and the bidirectional overrides and isolates that can make
 * text read in another order than it is stored. */
static gboolean
is_unsafe (gunichar c)
{
  return c < 0x20 || c == 0x7f ||
         (c >= 0x80 && c <= 0x9f) ||
         c == 0x2028 || c == 0x2029 ||
         (c >= 0x202a && c <= 0x202e) ||
         (c >= 0x2066 && c <= 0x2069);
}

static void
append_escape (GString  *out,
               gunichar  c)
{
  switch (c)
    {
    case '\n':
      g_string_append (out, "\\n");
      break;
    case '\r':
      g_string_append (out, "\\r");
      break;
    case '\t':
      g_string_append (out, "\\t");
      break;
    default:
      if (c < 0x80)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_printf (out, "\\u%04X", c);
    }
}

/**
 * hr_text_escape_line:
 * @text: (nullable): any bytes
 * @length: bytes in @text, or -1 when it is NUL-terminated
 *
 * Valid UTF-8 with no control characters: a byte that is not part of a
 * valid sequence becomes "\xNN", a control character "\n", "\t", "\x1b"
 * or "\u0085", and the line and bidirectional-override characters their
 * "\uNNNN".  Everything else, backslashes included, is kept as it is, so
 * text that was already displayable comes back unchanged.
 *
 * Returns: (transfer full): a new string ("" for %NULL)
 */
char *
hr_text_escape_line (const char *text,
                     gssize      length)
{
  GString *out;
  const char *p, *end;

  if (text == NULL)
    return g_strdup ("");
  if (length < 0)
    length = strlen (text);

  out = g_string_sized_new (length + 1);
  p = text;
  end = text + length;
  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }
      if (c == 0 || is_unsafe (c))
        append_escape (out, c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}

/**
 * hr_text_is_displayable:
 * @text: any bytes
 * @length: bytes in @text, or -1 when it is NUL-terminated
 *
 * Returns: whether @text is valid UTF-8 without the characters
 *   hr_text_escape_line() escapes (and without NULs)
 */
gboolean
hr_text_is_displayable (const char *text,
                        gssize      length)
{
  const char *p, *end;

  g_return_val_if_fail (text != NULL, FALSE);

  if (length < 0)
    length = strlen (text);
  if (!g_utf8_validate_len (text, length, NULL))
    return FALSE;
  end = text + length;
  for (p = text; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == 0 || is_unsafe (c))
        return FALSE;
    }
  return TRUE;
}

/**
 * hr_text_has_control:
 * @text: valid UTF-8
 *
 * Returns: whether @text holds a character hr_text_escape_line() would
 *   escape; catalog strings must not
 */
gboolean
hr_text_has_control (const char *text)
{
  g_return_val_if_fail (text != NULL, FALSE);
  return !hr_text_is_displayable (text, -1);
}

/**
 * hr_text_display_path:
 * @path: a file name in the file-name encoding
 *
 * The path as a person reads it in a one-line message: converted as
 * g_filename_display_name() does, then escaped.
 *
 * Returns: (transfer full): a new string
 */
char *
hr_text_display_path (const char *path)
{
  g_autofree char *display = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  /* Always valid UTF-8 (bad bytes become U+FFFD), but a file name may
   * hold any control character. */
  display = g_filename_display_name (path);
  if (hr_text_is_displayable (display, -1))
    return g_steal_pointer (&display);
  return hr_text_escape_line (display, -1);
}

/**
 * hr_text_sanitize_error:
 * @error: (nullable): an error about to be shown
 *
 * Escapes @error's message in place if it is not displayable; readers
 * call this on every error they return, so whatever a message quotes
 * from a file, it reaches the user on one line.
 */
void
hr_text_sanitize_error (GError *error)
{
  char *message;

  if (error == NULL || error->message == NULL ||
      hr_text_is_displayable (error->message, -1))
    return;
  message = hr_text_escape_line (error->message, -1);
  g_free (error->message);
  error->message = message;
}

/* @word occurs in @haystack where a token starts: at the start, or after
 * a character that is not a letter or a digit. */
gboolean
hr_text_has_token_start (const char *haystack,
                         const char *word)
{
  for (const char *at = strstr (haystack, word); at != NULL; at = strstr (at + 1, word))
    if (at == haystack || !g_ascii_isalnum (at[-1]))
      return TRUE;
  return FALSE;
}

/**
 * hr_text_matches_words:
 * @haystack: the searchable text, lower case
 * @query: what was typed
 *
 * Every word of @query (case-folded) begins a token of @haystack, in any
 * order: "qwen 32" finds "qwen3-32b", "8gb" finds "rtx 3070 8gb" and not
 * "rtx a6000 48gb" (issue 30: search matched inside tokens).  An empty
 * query matches everything.
 */
gboolean
hr_text_matches_words (const char *haystack,
                       const char *query)
{
  g_autofree char *needle = NULL;
  g_auto(GStrv) words = NULL;

  g_return_val_if_fail (haystack != NULL, FALSE);

  if (query == NULL || query[0] == '\0')
    return TRUE;
  needle = g_utf8_strdown (query, -1);
  words = g_strsplit_set (needle, " \t", -1);
  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0' && !hr_text_has_token_start (haystack, words[i]))
      return FALSE;
  return TRUE;
}
