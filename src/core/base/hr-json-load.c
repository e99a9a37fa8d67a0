/* hr-json-load.c — JSON documents from files that may be hostile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-json"

#include "config.h"

#include <math.h>
#include <string.h>

#include "hr-catalog-json.h"
#include "hr-file.h"
#include "hr-json-load.h"
#include "hr-text.h"

/* Whether the integer literal @digits (without its sign) is beyond
 * gint64, where json-glib would wrap it. */
static gboolean
overflows_int64 (const char *digits,
                 gsize       n)
{
  static const char max[] = "9223372036854775807";

  while (n > 1 && *digits == '0')
    {
      digits++;
      n--;
    }
  if (n != sizeof max - 1)
    return n > sizeof max - 1;
  return memcmp (digits, max, n) > 0;
}

typedef enum
{
  SCAN_OK,
  SCAN_TOO_DEEP,
  SCAN_TRAILING,
  SCAN_BAD_ESCAPE,
} ScanResult;

/* The value of the \uXXXX escape at @i, or -1. */
static int
unicode_escape (const char *data,
                gsize       length,
                gsize       i)
{
  int value = 0;

  if (i + 6 > length || data[i] != '\\' || data[i + 1] != 'u')
    return -1;
  for (gsize k = i + 2; k < i + 6; k++)
    {
      if (!g_ascii_isxdigit (data[k]))
        return -1;
      value = value * 16 + g_ascii_xdigit_value (data[k]);
    }
  return value;
}

/* How far past the backslash at @i its escape goes on: 1 for "\n" and
 * the like, 5 for "\u00e9", 11 for a UTF-16 surrogate pair
 * "\ud83d\ude00"; 0 for anything else JSON does not allow.  json-glib
 * turns a lone "\ud800" into bytes that are not UTF-8 (which then reach
 * GTK and every file written back), and leaks its string buffer on a
 * malformed escape. */
static gsize
escape_length (const char *data,
               gsize       length,
               gsize       i)
{
  int first, second;

  if (i + 1 >= length)
    return 0;
  if (strchr ("\"\\/bfnrt", data[i + 1]) != NULL && data[i + 1] != '\0')
    return 1;
  first = unicode_escape (data, length, i);
  if (first < 0)
    return 0;
  if (first < 0xd800 || first > 0xdfff)
    return 5;
  if (first >= 0xdc00)
    return 0;
  second = unicode_escape (data, length, i + 6);
  return second >= 0xdc00 && second <= 0xdfff ? 11 : 0;
}

/* One pass over the bytes, as json-glib's scanner will see them: counts
 * nesting outside strings, checks escapes inside them, finds anything
 * after the top-level value (json-glib 1.6 takes "[1] [2]" for valid,
 * keeps the second value and leaks the first), and rewrites integers too large for 64
 * bits as fractions ("…0.0") into *@rewritten, made only when needed
 * (and the caller's to free whatever the result). */
static ScanResult
scan (const char  *data,
      gsize        length,
      guint        max_depth,
      GString    **rewritten)
{
  gsize copied = 0;
  guint depth = 0;
  gboolean closed = FALSE;
  gsize i = 0;

  *rewritten = NULL;
  while (i < length)
    {
      char c = data[i];

      if (closed && c != ' ' && c != '\t' && c != '\n' && c != '\r')
        return SCAN_TRAILING;
      if (c == '"')
        {
          for (i++; i < length && data[i] != '"'; i++)
            {
              gsize skip;

              if (data[i] != '\\')
                continue;
              skip = escape_length (data, length, i);
              if (skip == 0)
                return SCAN_BAD_ESCAPE;
              i += skip;
            }
          i++;
          closed = depth == 0;
          continue;
        }
      if (c == '[' || c == '{')
        {
          if (++depth > max_depth)
            return SCAN_TOO_DEEP;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        closed = --depth == 0;
      else if (c == '-' || g_ascii_isdigit (c))
        {
          gsize start = i + (c == '-');
          gsize end = start;
          gboolean integer;

          while (end < length && g_ascii_isdigit (data[end]))
            end++;
          integer = end >= length || (data[end] != '.' && data[end] != 'e' && data[end] != 'E');
          if (integer && end > start && overflows_int64 (data + start, end - start))
            {
              if (*rewritten == NULL)
                *rewritten = g_string_sized_new (length + 16);
              g_string_append_len (*rewritten, data + copied, end - copied);
              g_string_append (*rewritten, ".0");
              copied = end;
            }
          /* The fraction and exponent, so their digits are not taken
           * for another number. */
          while (end < length && (g_ascii_isdigit (data[end]) || data[end] == '.' ||
                                  data[end] == 'e' || data[end] == 'E' ||
                                  data[end] == '+' || data[end] == '-'))
            end++;
          i = MAX (end, i + 1);
          closed = depth == 0;
          continue;
        }
      else if (depth == 0 && g_ascii_isalpha (c))
        {
          /* true, false, null, or a word json-glib will refuse. */
          while (i < length && g_ascii_isalpha (data[i]))
            i++;
          closed = TRUE;
          continue;
        }
      i++;
    }

  if (*rewritten != NULL)
    g_string_append_len (*rewritten, data + copied, length - copied);
  return SCAN_OK;
}

/* Whether every number under @node is finite: json-glib reads 1e400 as
 * infinity, which no field can use and which JSON cannot write back (a
 * file rewritten with it would no longer parse).  The scan has bounded
 * the depth. */
static gboolean
all_finite (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_VALUE:
      return json_node_get_value_type (node) != G_TYPE_DOUBLE ||
             isfinite (json_node_get_double (node));
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        for (guint i = 0; i < json_array_get_length (array); i++)
          if (!all_finite (json_array_get_element (array, i)))
            return FALSE;
        return TRUE;
      }
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        JsonNode *member;

        json_object_iter_init (&iter, json_node_get_object (node));
        while (json_object_iter_next (&iter, NULL, &member))
          if (!all_finite (member))
            return FALSE;
        return TRUE;
      }
    case JSON_NODE_NULL:
    default:
      return TRUE;
    }
}

/**
 * hr_json_load_data:
 * @data: the document
 * @length: its size in bytes
 * @name: the file it comes from, which every message starts with
 * @error: return location for an error
 *
 * Parses @data (see the top of hr-json-load.h for what this guards
 * against).  An empty document or one of white space is an error.
 *
 * Returns: (transfer full): the root node, or %NULL with @error set
 */
JsonNode *
hr_json_load_data (const char  *data,
                   gsize        length,
                   const char  *name,
                   GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(GString) rewritten = NULL;
  g_autofree char *display = NULL;
  g_autofree char *reason = NULL;
  JsonNode *root;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  display = hr_text_display_path (name);
  if (length == 0)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: not valid JSON: the file is empty", display);
      return NULL;
    }
  switch (scan (data, length, HR_JSON_MAX_DEPTH, &rewritten))
    {
    case SCAN_TOO_DEEP:
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: the JSON is nested more than %d levels deep",
                   display, HR_JSON_MAX_DEPTH);
      return NULL;
    case SCAN_BAD_ESCAPE:
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: not valid JSON: a string holds a bad escape (a \\u escape "
                   "must be four hex digits, and not half of a UTF-16 pair)", display);
      return NULL;
    case SCAN_TRAILING:
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: not valid JSON: more data after the end of the document",
                   display);
      return NULL;
    case SCAN_OK:
    default:
      break;
    }

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser,
                                   rewritten != NULL ? rewritten->str : data,
                                   rewritten != NULL ? (gssize) rewritten->len : (gssize) length,
                                   &parse_error))
    {
      reason = hr_text_escape_line (parse_error->message, -1);
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: not valid JSON: %s", display, reason);
      return NULL;
    }

  root = json_parser_steal_root (parser);
  if (root == NULL)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: not valid JSON: the file holds only white space", display);
      return NULL;
    }
  if (!all_finite (root))
    {
      json_node_unref (root);
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: a number is too large to be a number (past 1.8e308)", display);
      return NULL;
    }
  return root;
}

/**
 * hr_json_load_file:
 * @path: a JSON file
 * @max_bytes: the largest file of this kind that is read
 * @error: return location for an error
 *
 * hr_file_read_regular() and hr_json_load_data(): a FIFO, a device, a
 * directory or a file above @max_bytes is refused without being read.
 *
 * Returns: (transfer full): the root node, or %NULL with @error set
 */
JsonNode *
hr_json_load_file (const char  *path,
                   gsize        max_bytes,
                   GError     **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!hr_file_read_regular (path, max_bytes, &data, &length, error))
    return NULL;
  return hr_json_load_data (data, length, path, error);
}
