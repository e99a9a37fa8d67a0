/* hr-json-load.c — JSON documents from files that may be hostile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-json"

#include "config.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>

#include "hr-catalog-json.h"
#include "hr-file.h"
#include "hr-json-load.h"
#include "hr-text.h"

/* The limits of each kind (nodes as counted in hr-json-load.h: a value
 * or a member name 1, an object HR_JSON_OBJECT_NODES).  Measured on real
 * files: the built-in catalog holds one node per 10 to 17 bytes; a
 * config.json holds 40 to 200 nodes, the largest known (an ImageNet-21k
 * classifier's, with id2label and label2id of 21,843 labels) some
 * 90,000; a safetensors header 15 nodes and about 120 bytes a tensor,
 * and a model of a trillion parameters some 10^5 tensors; an index 2
 * nodes a tensor; an Ollama manifest some 40 nodes in 1 KB.  At some 80
 * bytes of json-glib tree a node, the largest budget below is a tree of
 * about 160 MB, built in about two seconds; a document above its budget
 * is refused by the scan, in a few milliseconds a megabyte. */

/* 16 MiB of catalog (the size limit of the catalog reader) in real
 * entries is about 1.6 M nodes. */
#define CATALOG_MAX_BYTES         (16 * 1024 * 1024)
#define CATALOG_MAX_NODES         2000000

/* Twice the largest config.json known (~90,000 nodes, 1 MB). */
#define CONFIG_MAX_BYTES          (16 * 1024 * 1024)
#define CONFIG_MAX_DEPTH          32
#define CONFIG_MAX_NODES          200000

/* A weight map of 2 x 10^5 tensors (a trillion parameters, each with its
 * scales) is 400,000 nodes and 16 MB. */
#define INDEX_MAX_BYTES           (32 * 1024 * 1024)
#define INDEX_MAX_DEPTH           16
#define INDEX_MAX_NODES           1000000

/* 10^5 tensors at 15 nodes and ~120 bytes each, in one file: 1.5 M
 * nodes, 12 MB.  (The safetensors format allows a header of 100 MB.) */
#define HEADER_MAX_BYTES          (32 * 1024 * 1024)
#define HEADER_MAX_DEPTH          16
#define HEADER_MAX_NODES          2000000

/* A manifest is a config and a few layers: some 40 nodes, 1 KB. */
#define MANIFEST_MAX_BYTES        (256 * 1024)
#define MANIFEST_MAX_DEPTH        16
#define MANIFEST_MAX_NODES        10000

static const HrJsonLimits limits_by_kind[] = {
  [HR_JSON_KIND_CATALOG] =
    { "a catalog file", CATALOG_MAX_BYTES, HR_JSON_MAX_DEPTH, CATALOG_MAX_NODES },
  [HR_JSON_KIND_CONFIG] =
    { "a config.json", CONFIG_MAX_BYTES, CONFIG_MAX_DEPTH, CONFIG_MAX_NODES },
  [HR_JSON_KIND_SAFETENSORS_INDEX] =
    { "a safetensors index", INDEX_MAX_BYTES, INDEX_MAX_DEPTH, INDEX_MAX_NODES },
  [HR_JSON_KIND_SAFETENSORS_HEADER] =
    { "a safetensors header", HEADER_MAX_BYTES, HEADER_MAX_DEPTH, HEADER_MAX_NODES },
  [HR_JSON_KIND_OLLAMA_MANIFEST] =
    { "an Ollama manifest", MANIFEST_MAX_BYTES, MANIFEST_MAX_DEPTH, MANIFEST_MAX_NODES },
};

/**
 * hr_json_kind_get_limits:
 * @kind: a kind of document
 *
 * Returns: (transfer none): the limits documents of @kind are read with
 */
const HrJsonLimits *
hr_json_kind_get_limits (HrJsonKind kind)
{
  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (limits_by_kind), &limits_by_kind[0]);
  return &limits_by_kind[kind];
}

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

/* Where a syntax check stopped, and why. */
typedef enum
{
  LIMIT_NONE,
  LIMIT_DEPTH,
  LIMIT_NODES,
} Limit;

typedef struct
{
  gsize       offset;  /* of the byte that broke the syntax */
  const char *reason;  /* NULL: the document is valid JSON */
  Limit       limit;   /* a limit the document is past (reason is NULL) */
} ScanResult;

/* JSON's white space (RFC 8259 §2): nothing else may stand between tokens. */
static gsize
skip_space (const char *data,
            gsize       length,
            gsize       i)
{
  while (i < length && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
    i++;
  return i;
}

/* The end of the string that opens at @i, or 0 with *@reason set. */
static gsize
scan_string (const char  *data,
             gsize        length,
             gsize        i,
             const char **reason)
{
  for (i++; i < length; i++)
    {
      guchar c = data[i];

      if (c == '"')
        return i + 1;
      /* Raw control characters are not JSON, but json-glib 1.6 wrote
       * U+001F raw (hr_json_to_data()), so files Headroom wrote before
       * may hold it: they are read as json-glib reads them.  (A NUL
       * never gets here: the UTF-8 check refused it.) */
      if (c == '\\')
        {
          gsize skip = escape_length (data, length, i);

          if (skip == 0)
            {
              *reason = "a string holds a bad escape (a \\u escape must be four hex "
                        "digits, and not half of a UTF-16 pair)";
              return 0;
            }
          i += skip;
        }
    }
  *reason = "a string is not closed";
  return 0;
}

/* The end of the number that starts at @i (RFC 8259 §6), or 0.  An
 * integer too large for 64 bits is copied into *@rewritten as a fraction
 * ("…0.0"), from *@copied on, for json-glib would wrap it. */
static gsize
scan_number (const char  *data,
             gsize        length,
             gsize        i,
             GString    **rewritten,
             gsize       *copied)
{
  gsize digits;
  gsize end;

  if (data[i] == '-')
    i++;
  digits = i;
  if (i < length && data[i] == '0')
    i++;
  else if (i < length && data[i] >= '1' && data[i] <= '9')
    while (i < length && g_ascii_isdigit (data[i]))
      i++;
  else
    return 0;
  end = i;
  if (i < length && data[i] == '.')
    {
      if (++i >= length || !g_ascii_isdigit (data[i]))
        return 0;
      while (i < length && g_ascii_isdigit (data[i]))
        i++;
    }
  if (i < length && (data[i] == 'e' || data[i] == 'E'))
    {
      if (++i < length && (data[i] == '+' || data[i] == '-'))
        i++;
      if (i >= length || !g_ascii_isdigit (data[i]))
        return 0;
      while (i < length && g_ascii_isdigit (data[i]))
        i++;
    }
  if (i == end && overflows_int64 (data + digits, end - digits))
    {
      if (*rewritten == NULL)
        *rewritten = g_string_sized_new (length + 16);
      g_string_append_len (*rewritten, data + *copied, end - *copied);
      g_string_append (*rewritten, ".0");
      *copied = end;
    }
  return i;
}

/* The end of the literal true, false or null at @i, or 0. */
static gsize
scan_literal (const char *data,
              gsize       length,
              gsize       i)
{
  static const char * const literals[] = { "true", "false", "null" };

  for (guint k = 0; k < G_N_ELEMENTS (literals); k++)
    {
      gsize n = strlen (literals[k]);

      if (length - i >= n && memcmp (data + i, literals[k], n) == 0)
        return i + n;
    }
  return 0;
}

/* Past an object member's name, its colon and the white space after it,
 * from @i; or 0, with *@reason and where the syntax broke in *@at. */
static gsize
scan_member_name (const char  *data,
                  gsize        length,
                  gsize        i,
                  const char **reason,
                  gsize       *at)
{
  gsize end;

  *at = i;
  if (i >= length || data[i] != '"')
    {
      *reason = "expected a member name in double quotes";
      return 0;
    }
  if ((end = scan_string (data, length, i, reason)) == 0)
    return 0;
  i = skip_space (data, length, end);
  if (i >= length || data[i] != ':')
    {
      *at = i;
      *reason = "expected ':' after a member name";
      return 0;
    }
  return skip_space (data, length, i + 1);
}

/* Checks that @data is one JSON value and nothing else (RFC 8259, UTF-8,
 * at most @max_depth arrays and objects deep, at most @max_nodes nodes as
 * counted in hr-json-load.h), so that json-glib only
 * ever parses valid documents: it recurses once per level, and on some
 * malformed ones (a bad escape; "'[1'[1]]", which its scanner reads as
 * a single-quoted string) it leaks what it built, or it accepts what
 * JSON does not ("[1] [2]": keeps the second, leaks the first).
 * Integers too large for 64 bits are rewritten as fractions into
 * *@rewritten, made only when needed (the caller's to free, whatever
 * the result). */
static ScanResult
scan (const char  *data,
      gsize        length,
      guint        max_depth,
      guint        max_nodes,
      GString    **rewritten)
{
  /* What each open container is: '[' or '{'. */
  char open[HR_JSON_MAX_DEPTH];
  const char *bad_utf8 = NULL;
  const char *reason = NULL;
  guint depth = 0;
  guint64 nodes = 0;
  gsize copied = 0;
  gsize i;

  g_assert (max_depth <= HR_JSON_MAX_DEPTH);
  *rewritten = NULL;
  if (!g_utf8_validate_len (data, length, &bad_utf8))
    return (ScanResult) { bad_utf8 - data, "the file is not UTF-8 text", LIMIT_NONE };

  i = skip_space (data, length, 0);
  for (;;)
    {
      gsize end = 0;

      /* A value: the end of the budget stops the scan there, so that
       * refusing costs no more than the budget. */
      if (i >= length)
        return (ScanResult) { i, "the document ends where a value should be", LIMIT_NONE };
      nodes += data[i] == '{' ? HR_JSON_OBJECT_NODES : 1;
      if (nodes > max_nodes)
        return (ScanResult) { i, NULL, LIMIT_NODES };
      switch (data[i])
        {
        case '[':
        case '{':
          if (depth == max_depth)
            return (ScanResult) { i, NULL, LIMIT_DEPTH };
          open[depth++] = data[i];
          i = skip_space (data, length, i + 1);
          if (i < length && data[i] == (open[depth - 1] == '[' ? ']' : '}'))
            {
              depth--;
              end = i + 1;
              break;
            }
          if (open[depth - 1] == '[')
            continue;
          /* An object's first member name. */
          if (++nodes > max_nodes)
            return (ScanResult) { i, NULL, LIMIT_NODES };
          if ((end = scan_member_name (data, length, i, &reason, &i)) == 0)
            return (ScanResult) { i, reason, LIMIT_NONE };
          i = end;
          continue;
        case '"':
          if ((end = scan_string (data, length, i, &reason)) == 0)
            return (ScanResult) { i, reason, LIMIT_NONE };
          break;
        case 't':
        case 'f':
        case 'n':
          end = scan_literal (data, length, i);
          break;
        default:
          if (data[i] == '-' || g_ascii_isdigit (data[i]))
            end = scan_number (data, length, i, rewritten, &copied);
          break;
        }
      if (end == 0)
        return (ScanResult) { i, "expected a value (an object, array, string, number, "
                                 "true, false or null)", LIMIT_NONE };

      /* What may follow a value: a comma or the end of its container,
       * or, at the top, nothing. */
      for (;;)
        {
          i = skip_space (data, length, end);
          if (depth == 0)
            {
              if (i < length)
                return (ScanResult) { i, "more data after the end of the document", LIMIT_NONE };
              if (*rewritten != NULL)
                g_string_append_len (*rewritten, data + copied, length - copied);
              return (ScanResult) { i, NULL, LIMIT_NONE };
            }
          if (i < length && data[i] == (open[depth - 1] == '[' ? ']' : '}'))
            {
              depth--;
              end = i + 1;
              continue;
            }
          if (i >= length || data[i] != ',')
            return (ScanResult) { i, open[depth - 1] == '['
                                     ? "expected ',' or ']' after an array element"
                                     : "expected ',' or '}' after an object member", LIMIT_NONE };
          i = skip_space (data, length, i + 1);
          if (open[depth - 1] == '{')
            {
              if (++nodes > max_nodes)
                return (ScanResult) { i, NULL, LIMIT_NODES };
              if ((end = scan_member_name (data, length, i, &reason, &i)) == 0)
                return (ScanResult) { i, reason, LIMIT_NONE };
              i = end;
            }
          break;
        }
    }
}

/* The line and column (from 1, in characters) of byte @offset. */
static void
line_and_column (const char *data,
                 gsize       offset,
                 guint      *line,
                 guint      *column)
{
  const char *line_start = data;

  *line = 1;
  for (gsize k = 0; k < offset; k++)
    if (data[k] == '\n')
      {
        (*line)++;
        line_start = data + k + 1;
      }
  /* Up to the first byte that is not UTF-8, if the reason is that. */
  *column = 1;
  for (const char *p = line_start; p < data + offset; p++)
    if (((guchar) *p & 0xc0) != 0x80)
      (*column)++;
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
 * hr_json_set_size_error:
 * @error: return location for an error
 * @display: the file, as displayed
 * @limits: the limits it is read with
 * @size: its size, or 0 when only known to be larger than the limit
 *
 * Sets the error of a document above @limits' size limit, saying which
 * limit it is.
 */
void
hr_json_set_size_error (GError             **error,
                        const char          *display,
                        const HrJsonLimits  *limits,
                        guint64              size)
{
  g_autofree char *limit = NULL;

  if (limits->max_bytes >= 1024 * 1024 && limits->max_bytes % (1024 * 1024) == 0)
    limit = g_strdup_printf ("%" G_GSIZE_FORMAT " MiB", limits->max_bytes / (1024 * 1024));
  else if (limits->max_bytes >= 1024 && limits->max_bytes % 1024 == 0)
    limit = g_strdup_printf ("%" G_GSIZE_FORMAT " KiB", limits->max_bytes / 1024);
  else
    limit = g_strdup_printf ("%" G_GSIZE_FORMAT " bytes", limits->max_bytes);
  if (size == 0)
    g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                 "%s: larger than %s (the size limit for %s)", display, limit, limits->what);
  else
    g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                 "%s: %" G_GUINT64_FORMAT " bytes is more than %s (the size limit for %s)",
                 display, size, limit, limits->what);
}

/* Tells which limit @limits sets @length is past, naming @display. */
static void
set_limit_error (GError             **error,
                 const char          *display,
                 const HrJsonLimits  *limits,
                 Limit                limit,
                 gsize                length)
{
  switch (limit)
    {
    case LIMIT_DEPTH:
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: the JSON is nested more than %u levels deep "
                   "(the depth limit for %s)", display, limits->max_depth, limits->what);
      break;
    case LIMIT_NODES:
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: the JSON holds more than %u values and member names "
                   "(the node limit for %s)", display, limits->max_nodes, limits->what);
      break;
    case LIMIT_NONE:
    default:
      hr_json_set_size_error (error, display, limits, length);
      break;
    }
}

/**
 * hr_json_load_limited:
 * @limits: the size, depth and node limits of this kind of document
 * @data: the document
 * @length: its size in bytes
 * @name: the file it comes from, which every message starts with
 * @error: return location for an error
 *
 * Parses @data (see the top of hr-json-load.h for what this guards
 * against).  An empty document or one of white space is an error; so is
 * one past a limit, with a message saying which.
 *
 * Returns: (transfer full): the root node, or %NULL with @error set
 */
JsonNode *
hr_json_load_limited (const HrJsonLimits  *limits,
                      const char          *data,
                      gsize                length,
                      const char          *name,
                      GError             **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(GString) rewritten = NULL;
  g_autofree char *display = NULL;
  g_autofree char *reason = NULL;
  ScanResult scanned;
  JsonNode *root;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (limits != NULL && limits->max_depth <= HR_JSON_MAX_DEPTH, NULL);

  display = hr_text_display_path (name);
  if (length > limits->max_bytes)
    {
      set_limit_error (error, display, limits, LIMIT_NONE, length);
      return NULL;
    }
  if (length == 0)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: not valid JSON: the file is empty", display);
      return NULL;
    }
  if (skip_space (data, length, 0) == length)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: not valid JSON: the file holds only white space", display);
      return NULL;
    }
  scanned = scan (data, length, limits->max_depth, limits->max_nodes, &rewritten);
  if (scanned.limit != LIMIT_NONE)
    {
      set_limit_error (error, display, limits, scanned.limit, length);
      return NULL;
    }
  if (scanned.reason != NULL)
    {
      guint line, column;

      line_and_column (data, MIN (scanned.offset, length), &line, &column);
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: not valid JSON: line %u, column %u: %s",
                   display, line, column, scanned.reason);
      return NULL;
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
 * hr_json_load_kind_data:
 * @kind: what the document is
 * @data: the document
 * @length: its size in bytes
 * @name: the file it comes from, which every message starts with
 * @error: return location for an error
 *
 * hr_json_load_limited() with the limits of @kind.
 *
 * Returns: (transfer full): the root node, or %NULL with @error set
 */
JsonNode *
hr_json_load_kind_data (HrJsonKind   kind,
                        const char  *data,
                        gsize        length,
                        const char  *name,
                        GError     **error)
{
  return hr_json_load_limited (hr_json_kind_get_limits (kind), data, length, name, error);
}

/**
 * hr_json_load_data:
 * @data: the document
 * @length: its size in bytes
 * @name: the file it comes from, which every message starts with
 * @error: return location for an error
 *
 * hr_json_load_limited() with the limits of a catalog file.
 *
 * Returns: (transfer full): the root node, or %NULL with @error set
 */
JsonNode *
hr_json_load_data (const char  *data,
                   gsize        length,
                   const char  *name,
                   GError     **error)
{
  return hr_json_load_kind_data (HR_JSON_KIND_CATALOG, data, length, name, error);
}

/**
 * hr_json_load_resource:
 * @path: a GResource path of the built-in catalog
 *
 * A built-in catalog document, read as every JSON document is (the limits
 * of a catalog file), for the tables that keep their own index of it.
 *
 * Returns: (transfer full) (nullable): the root node, or %NULL when the
 * resource is missing or does not parse (test-catalog checks they parse)
 */
JsonNode *
hr_json_load_resource (const char *path)
{
  g_autoptr(GBytes) bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  gsize size = 0;
  const char *data = bytes ? g_bytes_get_data (bytes, &size) : NULL;

  return data != NULL ? hr_json_load_kind_data (HR_JSON_KIND_CATALOG, data, size, path, NULL)
                      : NULL;
}

/* hr_file_read_regular() (a FIFO, a device, a directory or a file above
 * @limits' size is refused without being read), then
 * hr_json_load_limited(). */
static JsonNode *
load_file (const HrJsonLimits  *limits,
           const char          *path,
           GError             **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;

  if (!hr_file_read_regular (path, limits->max_bytes, &data, &length, error))
    return NULL;
  return hr_json_load_limited (limits, data, length, path, error);
}

/**
 * hr_json_load_kind_file:
 * @kind: what the file is
 * @path: a JSON file
 * @error: return location for an error
 *
 * Reads @path with the limits of @kind: a FIFO, a device, a directory or
 * a file above the size limit is refused without being read.
 *
 * Returns: (transfer full): the root node, or %NULL with @error set
 */
JsonNode *
hr_json_load_kind_file (HrJsonKind   kind,
                        const char  *path,
                        GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);

  return load_file (hr_json_kind_get_limits (kind), path, error);
}

/**
 * hr_json_load_file:
 * @path: a JSON file
 * @max_bytes: the largest file of this kind that is read
 * @error: return location for an error
 *
 * hr_json_load_kind_file() with the limits of a catalog file but a size
 * limit of @max_bytes.
 *
 * Returns: (transfer full): the root node, or %NULL with @error set
 */
JsonNode *
hr_json_load_file (const char  *path,
                   gsize        max_bytes,
                   GError     **error)
{
  HrJsonLimits limits = *hr_json_kind_get_limits (HR_JSON_KIND_CATALOG);

  g_return_val_if_fail (path != NULL, NULL);

  if (max_bytes > 0)
    limits.max_bytes = max_bytes;
  return load_file (&limits, path, error);
}

/**
 * hr_json_to_data:
 * @root: the document
 * @length: (out) (optional): its length in bytes
 *
 * @root as pretty-printed JSON that hr_json_load_data() reads back.
 * json-glib 1.6's generator writes two things JSON does not allow: the
 * character U+001F raw inside strings (it escapes the other control
 * characters), escaped here as \u001f; and ".0" after a double it
 * printed with an exponent ("1e+86.0"), dropped here.  Every JSON text
 * Headroom writes comes from here.
 *
 * Returns: (transfer full): the text
 */
char *
hr_json_to_data (JsonNode *root,
                 gsize    *length)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;
  GString *out;
  gboolean in_string = FALSE;
  gboolean in_exponent = FALSE;  /* in a number's exponent, outside strings */
  gsize n = 0;

  g_return_val_if_fail (root != NULL, NULL);

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, &n);

  out = g_string_sized_new (n + 16);
  for (gsize i = 0; i < n; i++)
    {
      guchar c = text[i];

      if (in_string && c == '\\' && i + 1 < n)
        {
          g_string_append_c (out, c);
          g_string_append_c (out, text[++i]);
          continue;
        }
      if (c == '"')
        in_string = !in_string;
      if (!in_string && (c == 'e' || c == 'E'))
        in_exponent = TRUE;
      else if (!in_string && in_exponent && c == '.')
        {
          /* "1e+86.0": the fraction json-glib added after the exponent */
          while (i + 1 < n && g_ascii_isdigit (text[i + 1]))
            i++;
          continue;
        }
      else if (!g_ascii_isdigit (c) && c != '+' && c != '-')
        in_exponent = FALSE;
      if (in_string && c < 0x20)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, c);
    }
  if (length != NULL)
    *length = out->len;
  return g_string_free (out, FALSE);
}
