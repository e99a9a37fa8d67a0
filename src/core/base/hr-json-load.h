/* hr-json-load.h — JSON documents from files that may be hostile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every JSON document Headroom reads (config.json, catalog files,
 * imported-models.json) is parsed here, because json-glib alone is not
 * safe on what a user may download or a broken disk may hold:
 *
 *  - it recurses once per nesting level, so 100,000 nested brackets
 *    overflow the stack: documents are scanned first, and anything nested
 *    deeper than HR_JSON_MAX_DEPTH is refused before json-glib sees it;
 *  - an integer beyond 64 bits silently becomes -1 or a negative number:
 *    such literals are handed to json-glib as fractions instead, so the
 *    field checks report the real magnitude;
 *  - it builds the whole tree, at some 80 bytes a value and over 250 an
 *    object, and slowly (about a million values a second): a 16 MiB
 *    file of "{}," took 25 s and 1.6 GB.  The scan counts the values
 *    first and refuses a document above its kind's node budget before
 *    json-glib sees it;
 *  - its messages may quote the document: they are made displayable.
 *
 * Each kind of document has its limits (bytes, depth, nodes), chosen
 * from what real files hold, with a margin; a refusal names the file
 * and the limit it hit ("size limit", "depth limit", "node limit").
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Far above any real catalog or config.json (which nest 3 or 4 deep), far
 * below what json-glib's recursion can survive on a small thread stack.
 * The deepest any kind allows. */
#define HR_JSON_MAX_DEPTH 64

/* What the node budget counts: each value (string, number, literal,
 * array) and each object member's name is one node; an object is
 * HR_JSON_OBJECT_NODES, for json-glib spends about four times a
 * scalar's memory on one (a hash table and a list besides the node), so
 * that a budget bounds the tree's memory whatever the document is made
 * of: some 80 bytes a node, plus the strings, which the size limit
 * bounds. */
#define HR_JSON_OBJECT_NODES 4

/* The kinds of JSON document Headroom reads, each with its limits
 * (hr_json_kind_get_limits(); the numbers are in hr-json-load.c). */
typedef enum
{
  HR_JSON_KIND_CATALOG,             /* catalog files, imported-models.json, resources */
  HR_JSON_KIND_CONFIG,              /* a checkpoint's config.json */
  HR_JSON_KIND_SAFETENSORS_INDEX,   /* model.safetensors.index.json */
  HR_JSON_KIND_SAFETENSORS_HEADER,  /* the JSON header of a .safetensors file */
  HR_JSON_KIND_OLLAMA_MANIFEST,     /* models/manifests/HOST/NS/MODEL/TAG */
} HrJsonKind;

typedef struct
{
  const char *what;       /* "a config.json", for messages */
  gsize       max_bytes;
  guint       max_depth;  /* at most HR_JSON_MAX_DEPTH */
  guint       max_nodes;  /* as counted above */
} HrJsonLimits;

const HrJsonLimits *hr_json_kind_get_limits (HrJsonKind kind);
void      hr_json_set_size_error (GError            **error,
                                  const char         *display,
                                  const HrJsonLimits *limits,
                                  guint64             size);

JsonNode *hr_json_load_kind_data (HrJsonKind   kind,
                                  const char  *data,
                                  gsize        length,
                                  const char  *name,
                                  GError     **error);
JsonNode *hr_json_load_kind_file (HrJsonKind   kind,
                                  const char  *path,
                                  GError     **error);
JsonNode *hr_json_load_limited   (const HrJsonLimits *limits,
                                  const char         *data,
                                  gsize               length,
                                  const char         *name,
                                  GError            **error);

/* HR_JSON_KIND_CATALOG's limits; hr_json_load_file() with the caller's
 * size limit. */
JsonNode *hr_json_load_resource (const char *path);
JsonNode *hr_json_load_data    (const char  *data,
                                gsize        length,
                                const char  *name,
                                GError     **error);
JsonNode *hr_json_load_file    (const char  *path,
                                gsize        max_bytes,
                                GError     **error);
char     *hr_json_to_data      (JsonNode    *root,
                                gsize       *length);

G_END_DECLS
