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
 *  - its messages may quote the document: they are made displayable.
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Far above any real catalog or config.json (which nest 3 or 4 deep), far
 * below what json-glib's recursion can survive on a small thread stack. */
#define HR_JSON_MAX_DEPTH 64

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
