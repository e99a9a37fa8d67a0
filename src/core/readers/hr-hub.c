/* hr-hub.c — a model on a Hugging Face-like hub, without downloading it
 *
 * The hub's layout (https://huggingface.co/docs/huggingface_hub/package_reference/environment_variables#hfendpoint
 * and huggingface/huggingface_hub src/huggingface_hub/constants.py):
 * files at $HF_ENDPOINT/{repo}/resolve/{revision}/{file}, the file list
 * with sizes at $HF_ENDPOINT/api/models/{repo}/tree/{revision}?recursive=true
 * (huggingface_hub HfApi.list_repo_tree).  A token
 * (HF_TOKEN) goes as "Authorization: Bearer …"; gated repositories answer
 * 401 or 403 without one.  The files are served with HTTP range requests
 * (RFC 9110 §14), which is how a GGUF costs only its header.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom"

#include "config.h"

#include "hr-hub.h"

#include <errno.h>
#include <libsoup/soup.h>
#include <string.h>

#include "hr-file.h"
#include "hr-gguf.h"
#include "hr-gguf-model.h"
#include "hr-hf-config.h"
#include "hr-json-load.h"
#include "hr-text.h"

G_DEFINE_QUARK (hr-hub-error-quark, hr_hub_error)

/* A repository's file list: the largest (a repository of thousands of
 * shards) is a few MiB. */
#define HUB_MAX_LISTING_BYTES (16u * 1024u * 1024u)
/* Seconds before a request without an answer fails. */
#define HUB_TIMEOUT_S 30

/* ------------------------------------------------------------ references */

static gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '_' || c == '.';
}

/* "org/name": two parts of letters, digits, '-', '_', '.', neither
 * starting with '.' or '-' (the hub's own rule for repository ids). */
static gboolean
valid_repo (const char *repo)
{
  const char *slash = strchr (repo, '/');

  if (slash == NULL || slash == repo || slash[1] == '\0' || strchr (slash + 1, '/') != NULL)
    return FALSE;
  for (const char *p = repo; *p != '\0'; p++)
    if (p != slash && !is_name_char (*p))
      return FALSE;
  return g_ascii_isalnum (repo[0]) && g_ascii_isalnum (slash[1]) &&
         strstr (repo, "..") == NULL;
}

/* A revision or a file path: no "..", no empty part, nothing a URL or a
 * cache path could misread. */
static gboolean
valid_path (const char *path,
            gboolean    allow_slash)
{
  if (path == NULL || *path == '\0' || path[0] == '/' || strstr (path, "..") != NULL ||
      strstr (path, "//") != NULL || g_str_has_suffix (path, "/"))
    return FALSE;
  for (const char *p = path; *p != '\0'; p++)
    if (!(is_name_char (*p) || (allow_slash && *p == '/') || *p == '+'))
      return FALSE;
  return TRUE;
}

static gboolean
ref_set (HrHubRef   *ref,
         const char *repo,
         const char *revision,
         const char *file)
{
  if (!valid_repo (repo) ||
      (revision != NULL && !valid_path (revision, FALSE)) ||
      (file != NULL && !valid_path (file, TRUE)))
    return FALSE;
  ref->repo = g_strdup (repo);
  ref->revision = g_strdup (revision != NULL ? revision : HR_HUB_DEFAULT_REVISION);
  ref->file = g_strdup (file);
  return TRUE;
}

/* https://huggingface.co/ORG/NAME[/(blob|resolve|tree)/REV[/FILE]] */
static gboolean
parse_url (const char *text,
           HrHubRef   *ref)
{
  static const char *const prefixes[] = {
    "https://huggingface.co/", "https://hf.co/",
  };
  const char *rest = NULL;
  g_auto(GStrv) parts = NULL;
  g_autofree char *repo = NULL;
  g_autofree char *file = NULL;
  guint n;

  for (guint i = 0; i < G_N_ELEMENTS (prefixes) && rest == NULL; i++)
    if (g_str_has_prefix (text, prefixes[i]))
      rest = text + strlen (prefixes[i]);
  if (rest == NULL)
    return FALSE;

  parts = g_strsplit (rest, "/", -1);
  n = g_strv_length (parts);
  if (n > 0 && *parts[n - 1] == '\0')   /* a trailing slash */
    g_clear_pointer (&parts[--n], g_free);
  if (n < 2)
    return FALSE;
  repo = g_strconcat (parts[0], "/", parts[1], NULL);
  if (n == 2)
    return ref_set (ref, repo, NULL, NULL);
  if (n < 4 || !(g_str_equal (parts[2], "blob") || g_str_equal (parts[2], "resolve") ||
                 g_str_equal (parts[2], "tree")))
    return FALSE;
  if (n > 4 && !g_str_equal (parts[2], "tree"))
    file = g_strjoinv ("/", parts + 4);
  if (file != NULL && !g_str_has_suffix (file, ".gguf"))
    g_clear_pointer (&file, g_free);   /* config.json etc.: the repository */
  return ref_set (ref, repo, parts[3], file);
}

/**
 * hr_hub_ref_parse:
 * @text: "org/name[@revision]", "hf:org/name[@revision][:file.gguf]" or a
 *   https://huggingface.co/… URL
 * @ref: (out caller-allocates): the reference, cleared by the caller
 *
 * Returns: whether @text is a hub reference
 */
gboolean
hr_hub_ref_parse (const char *text,
                  HrHubRef   *ref)
{
  g_autofree char *repo = NULL;
  g_autofree char *file = NULL;
  const char *at;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (ref != NULL, FALSE);

  memset (ref, 0, sizeof *ref);
  if (g_str_has_prefix (text, "https://"))
    return parse_url (text, ref);

  if (g_str_has_prefix (text, "hf:"))
    {
      const char *colon;

      text += 3;
      colon = strchr (text, ':');
      if (colon != NULL)
        {
          file = g_strdup (colon + 1);
          repo = g_strndup (text, colon - text);
        }
      else
        repo = g_strdup (text);
      if (file != NULL && !g_str_has_suffix (file, ".gguf"))
        return FALSE;
    }
  else
    repo = g_strdup (text);

  at = strchr (repo, '@');
  if (at != NULL)
    {
      g_autofree char *name = g_strndup (repo, at - repo);

      return ref_set (ref, name, at + 1, file);
    }
  return ref_set (ref, repo, NULL, file);
}

void
hr_hub_ref_clear (HrHubRef *ref)
{
  g_clear_pointer (&ref->repo, g_free);
  g_clear_pointer (&ref->revision, g_free);
  g_clear_pointer (&ref->file, g_free);
}

/* "hf:org/name@revision[:file]": one form for every message and id. */
char *
hr_hub_ref_to_string (const HrHubRef *ref)
{
  return g_strdup_printf ("hf:%s@%s%s%s", ref->repo, ref->revision,
                          ref->file != NULL ? ":" : "",
                          ref->file != NULL ? ref->file : "");
}

/* HF_ENDPOINT without its trailing slashes, or the hub's own address. */
char *
hr_hub_endpoint (void)
{
  const char *env = g_getenv ("HF_ENDPOINT");
  g_autofree char *endpoint = g_strdup (env != NULL && *env != '\0' ? env : HR_HUB_DEFAULT_ENDPOINT);
  gsize len = strlen (endpoint);

  while (len > 0 && endpoint[len - 1] == '/')
    endpoint[--len] = '\0';
  return g_steal_pointer (&endpoint);
}

/* g_get_user_cache_dir()/headroom/hub/{repo}/{revision}: the repository
 * and revision were checked (no "..", no leading '/'). */
char *
hr_hub_cache_dir (const HrHubRef *ref)
{
  return g_build_filename (g_get_user_cache_dir (), "headroom", "hub",
                           ref->repo, ref->revision, NULL);
}

/* -------------------------------------------------------------- fetching */

typedef struct
{
  const HrHubRef *ref;
  HrHubMode       mode;
  GCancellable   *cancellable;
  HrHubProgress   progress;
  gpointer        user_data;
  SoupSession    *session;
  char           *endpoint;
  char           *cache;
  guint64         received;
} Fetch;

static void
fetch_clear (Fetch *f)
{
  g_clear_object (&f->session);
  g_clear_pointer (&f->endpoint, g_free);
  g_clear_pointer (&f->cache, g_free);
}

static gboolean
network_allowed (Fetch       *f,
                 const char  *what,
                 GError     **error)
{
  g_autofree char *id = NULL;

  if (f->mode == HR_HUB_ONLINE)
    {
      if (f->session == NULL)
        f->session = soup_session_new_with_options ("timeout", HUB_TIMEOUT_S,
                                                    "user-agent", "headroom/" PACKAGE_VERSION,
                                                    NULL);
      return TRUE;
    }
  id = hr_hub_ref_to_string (f->ref);
  g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_CACHED,
               "%s: %s is not in the cache (add --online to fetch it)", id, what);
  return FALSE;
}

/* GET @url, with "Range: bytes=@start-@end" when @end ≥ @start; reads at
 * most @max_bytes of the reply (a server that ignores the range is not
 * read to its end).  @total is the whole file's size when the reply says
 * it (Content-Range, or Content-Length of a whole reply). */
static GBytes *
http_get (Fetch       *f,
          const char  *url,
          const char  *what,
          goffset      start,
          goffset      end,
          gsize        max_bytes,
          guint64     *total,
          GError     **error)
{
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GByteArray) body = g_byte_array_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *id = hr_hub_ref_to_string (f->ref);
  SoupMessageHeaders *headers;
  const char *token = g_getenv ("HF_TOKEN");
  guint status;
  guint8 buffer[64 * 1024];

  msg = soup_message_new ("GET", url);
  if (msg == NULL)
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID,
                   "%s: not a valid address (check HF_ENDPOINT)", id);
      return NULL;
    }
  headers = soup_message_get_request_headers (msg);
  if (token != NULL && *token != '\0')
    {
      g_autofree char *bearer = g_strconcat ("Bearer ", token, NULL);

      soup_message_headers_replace (headers, "Authorization", bearer);
    }
  if (end >= start)
    soup_message_headers_set_range (headers, start, end);

  if (f->progress != NULL)
    f->progress (what, f->received, f->user_data);
  in = soup_session_send (f->session, msg, f->cancellable, &local_error);
  if (in == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_NETWORK,
                     "%s: %s", id, local_error->message);
      return NULL;
    }

  status = soup_message_get_status (msg);
  if (status == SOUP_STATUS_UNAUTHORIZED || status == SOUP_STATUS_FORBIDDEN)
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_GATED,
                   "%s: gated or private repository: set HF_TOKEN to a token that may read it", id);
      return NULL;
    }
  if (status == SOUP_STATUS_NOT_FOUND)
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_FOUND,
                   "%s: the hub has no %s", id, what);
      return NULL;
    }
  if (status != SOUP_STATUS_OK && status != SOUP_STATUS_PARTIAL_CONTENT)
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_NETWORK,
                   "%s: the hub answered %u for %s", id, status, what);
      return NULL;
    }

  if (total != NULL)
    {
      goffset r_start, r_end, r_total = -1;
      SoupMessageHeaders *reply = soup_message_get_response_headers (msg);

      *total = 0;
      if (status == SOUP_STATUS_PARTIAL_CONTENT &&
          soup_message_headers_get_content_range (reply, &r_start, &r_end, &r_total) &&
          r_total > 0)
        *total = (guint64) r_total;
      else if (status == SOUP_STATUS_OK)
        *total = (guint64) soup_message_headers_get_content_length (reply);
    }

  for (;;)
    {
      gssize n = g_input_stream_read (in, buffer,
                                      MIN (sizeof buffer, max_bytes + 1 - body->len),
                                      f->cancellable, &local_error);
      if (n < 0)
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_propagate_error (error, g_steal_pointer (&local_error));
          else
            g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_NETWORK,
                         "%s: %s", id, local_error->message);
          return NULL;
        }
      if (n == 0)
        break;
      g_byte_array_append (body, buffer, (guint) n);
      f->received += (guint64) n;
      if (body->len > max_bytes)
        {
          if (end >= start)    /* a range asked: keep what was asked */
            {
              g_byte_array_set_size (body, (guint) max_bytes);
              break;
            }
          g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_TOO_LARGE,
                       "%s: %s is larger than %" G_GSIZE_FORMAT " bytes", id, what, max_bytes);
          return NULL;
        }
    }
  g_input_stream_close (in, NULL, NULL);
  if (f->progress != NULL)
    f->progress (what, f->received, f->user_data);
  return g_byte_array_free_to_bytes (g_steal_pointer (&body));
}

static char *
file_url (Fetch      *f,
          const char *file)
{
  return g_strdup_printf ("%s/%s/resolve/%s/%s", f->endpoint, f->ref->repo,
                          f->ref->revision, file);
}

/* -------------------------------------------------------------- caching */

static char *
cache_path (Fetch      *f,
            const char *name)
{
  return g_build_filename (f->cache, name, NULL);
}

static void
cache_store (Fetch      *f,
             const char *name,
             GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = cache_path (f, name);
  g_autofree char *dir = g_path_get_dirname (path);
  gsize len;
  const void *data = g_bytes_get_data (bytes, &len);

  /* The cache saves the next look-up; failing to write it loses nothing
   * this one needs. */
  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      !hr_file_write_atomic (path, data, len, &error))
    g_debug ("hub cache: %s: %s", path, error != NULL ? error->message : g_strerror (errno));
}

/* A cached file that does not read: renamed aside for whoever wants to
 * see it, and the look-up goes on as if it were not there. */
static void
cache_set_aside (Fetch      *f,
                 const char *name,
                 GError     *why)
{
  g_autofree char *path = cache_path (f, name);
  g_autofree char *aside = hr_file_move_aside (path, NULL);

  g_message ("hub cache: %s is unreadable (%s); kept as %s", path,
             why != NULL ? why->message : "?", aside != NULL ? aside : "(could not rename it)");
}

static GBytes *
cache_load (Fetch      *f,
            const char *name,
            gsize       max_bytes)
{
  g_autofree char *path = cache_path (f, name);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  if (!hr_file_read_regular (path, max_bytes, &contents, &length, &error))
    {
      cache_set_aside (f, name, error);
      return NULL;
    }
  return g_bytes_new_take (contents, length);
}

/* ----------------------------------------------------------- config.json */

static gboolean
shape_from_config (Fetch         *f,
                   GBytes        *bytes,
                   HrModelShape  *shape,
                   GError       **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *id = hr_hub_ref_to_string (f->ref);
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  hr_model_shape_init (shape);
  root = hr_json_load_kind_data (HR_JSON_KIND_CONFIG, data, len, id, error);
  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID,
                   "%s: config.json is not a JSON object", id);
      return FALSE;
    }
  if (!hr_hf_config_read_shape (json_node_get_object (root), f->ref->repo, shape, error))
    return FALSE;
  g_free (shape->source);
  shape->source = g_steal_pointer (&id);
  return TRUE;
}

/* The repository's GGUF files, for the message that asks to choose. */
static char *
list_gguf_files (Fetch *f)
{
  g_autofree char *url = g_strdup_printf ("%s/api/models/%s/tree/%s?recursive=true",
                                          f->endpoint, f->ref->repo, f->ref->revision);
  g_autoptr(GBytes) bytes = http_get (f, url, "file list", 0, -1, HUB_MAX_LISTING_BYTES, NULL, NULL);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GString) names = g_string_new (NULL);
  JsonArray *array;
  gsize len;
  const char *data;

  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &len);
  root = hr_json_load_kind_data (HR_JSON_KIND_SAFETENSORS_INDEX, data, len, "file list", NULL);
  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    return NULL;
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *path = o != NULL ? json_object_get_string_member_with_default (o, "path", NULL) : NULL;

      if (path != NULL && g_str_has_suffix (path, ".gguf") && valid_path (path, TRUE))
        g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "", path);
    }
  return names->len > 0 ? g_string_free (g_steal_pointer (&names), FALSE) : NULL;
}

static gboolean
read_config (Fetch         *f,
             HrModelShape  *shape,
             GError       **error)
{
  const gsize max = hr_json_kind_get_limits (HR_JSON_KIND_CONFIG)->max_bytes;
  g_autoptr(GBytes) bytes = cache_load (f, "config.json", max);
  g_autoptr(GError) local_error = NULL;
  g_autofree char *url = NULL;

  if (bytes != NULL)
    {
      if (shape_from_config (f, bytes, shape, &local_error))
        return TRUE;
      hr_model_shape_clear (shape);
      cache_set_aside (f, "config.json", local_error);
      g_clear_error (&local_error);
      g_clear_pointer (&bytes, g_bytes_unref);
    }

  if (!network_allowed (f, "config.json", error))
    return FALSE;
  url = file_url (f, "config.json");
  bytes = http_get (f, url, "config.json", 0, -1, max, NULL, &local_error);
  if (bytes == NULL)
    {
      g_autofree char *files = NULL;
      g_autofree char *id = NULL;

      if (!g_error_matches (local_error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_FOUND) ||
          (files = list_gguf_files (f)) == NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      id = hr_hub_ref_to_string (f->ref);
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_CHOOSE,
                   "%s has no config.json; name one of its GGUF files as hf:%s:FILE (%s)",
                   id, f->ref->repo, files);
      return FALSE;
    }
  if (!shape_from_config (f, bytes, shape, error))
    return FALSE;
  cache_store (f, "config.json", bytes);
  return TRUE;
}

/* ------------------------------------------------------------------ GGUF */

/* The cache keeps a GGUF's header as FILE.header and the whole file's
 * size, which the parser needs to check the tensors' extents, as the
 * first 8 bytes (little-endian) of it. */
#define HEADER_SIZE_BYTES 8

static HrGguf *
gguf_from_cached (GBytes   *bytes,
                  GError  **error)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  guint64 size = 0;

  if (len < HEADER_SIZE_BYTES)
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID, "shorter than its size field");
      return NULL;
    }
  for (guint i = 0; i < HEADER_SIZE_BYTES; i++)
    size |= (guint64) data[i] << (8 * i);
  return hr_gguf_parse (data + HEADER_SIZE_BYTES, len - HEADER_SIZE_BYTES, size, error);
}

static GBytes *
gguf_cache_bytes (const guint8 *data,
                  gsize         len,
                  guint64       size)
{
  GByteArray *out = g_byte_array_sized_new ((guint) (len + HEADER_SIZE_BYTES));
  guint8 prefix[HEADER_SIZE_BYTES];

  for (guint i = 0; i < HEADER_SIZE_BYTES; i++)
    prefix[i] = (guint8) (size >> (8 * i));
  g_byte_array_append (out, prefix, sizeof prefix);
  g_byte_array_append (out, data, (guint) len);
  return g_byte_array_free_to_bytes (out);
}

/* Range requests from byte 0, each twice the last, until the streaming
 * parser has every metadata entry and tensor info. */
static HrGguf *
fetch_gguf (Fetch   *f,
            GError **error)
{
  g_autofree char *url = file_url (f, f->ref->file);
  g_autofree char *id = hr_hub_ref_to_string (f->ref);
  gsize want = HR_HUB_GGUF_FIRST_RANGE;

  for (;;)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(GBytes) bytes = NULL;
      guint64 total = 0;
      HrGguf *gguf;
      gsize len;
      const guint8 *data;

      bytes = http_get (f, url, f->ref->file, 0, (goffset) want - 1, want, &total, error);
      if (bytes == NULL)
        return NULL;
      data = g_bytes_get_data (bytes, &len);
      if (total == 0)
        total = len;    /* a server that says nothing of the size: what came */
      gguf = hr_gguf_parse (data, len, total, &local_error);
      if (gguf != NULL)
        {
          g_autoptr(GBytes) cached = gguf_cache_bytes (data, len, total);
          g_autofree char *name = g_strconcat (f->ref->file, ".header", NULL);

          cache_store (f, name, cached);
          return gguf;
        }
      if (!g_error_matches (local_error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED) ||
          len < want || (guint64) len >= total)
        {
          g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID,
                       "%s: %s", id, local_error->message);
          return NULL;
        }
      if (want >= HR_GGUF_MAX_HEADER_BYTES)
        {
          g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_TOO_LARGE,
                       "%s: the GGUF header is larger than %u MiB", id,
                       HR_GGUF_MAX_HEADER_BYTES / (1024u * 1024u));
          return NULL;
        }
      want = MIN ((gsize) want * 2, (gsize) HR_GGUF_MAX_HEADER_BYTES);
    }
}

static gboolean
read_gguf (Fetch         *f,
           HrModelShape  *shape,
           GError       **error)
{
  g_autofree char *name = g_strconcat (f->ref->file, ".header", NULL);
  g_autoptr(GBytes) bytes = cache_load (f, name, HR_GGUF_MAX_HEADER_BYTES + HEADER_SIZE_BYTES);
  g_autoptr(HrGguf) gguf = NULL;
  g_autofree char *id = hr_hub_ref_to_string (f->ref);
  g_autofree char *base = g_path_get_basename (f->ref->file);

  if (bytes != NULL)
    {
      g_autoptr(GError) local_error = NULL;

      gguf = gguf_from_cached (bytes, &local_error);
      if (gguf == NULL)
        cache_set_aside (f, name, local_error);
    }
  if (gguf == NULL)
    {
      if (!network_allowed (f, f->ref->file, error))
        return FALSE;
      gguf = fetch_gguf (f, error);
      if (gguf == NULL)
        return FALSE;
    }

  hr_model_shape_init (shape);
  /* The file's own name, as hr_model_import_gguf() names a local copy. */
  if (!hr_gguf_model_read_shape (gguf, base, shape, error))
    {
      g_prefix_error (error, "%s: ", id);
      return FALSE;
    }
  g_free (shape->source);
  shape->source = g_steal_pointer (&id);
  return TRUE;
}

/* ---------------------------------------------------------------- public */

/**
 * hr_hub_read_shape:
 * @ref: the model
 * @mode: whether the network may be used (the cache is always read first)
 * @cancellable: (nullable): stops a fetch
 * @progress: (nullable): told of each request, from the calling thread
 * @bytes_fetched: (out) (optional): bytes received from the network
 * @shape: (out caller-allocates): the model's shape, its source
 *   "hf:org/name@revision[:file]"
 * @error: one displayable line naming @ref
 *
 * A repository's config.json, or a GGUF file's header by range requests.
 * Blocks: the window calls it in a worker thread.
 *
 * Returns: %TRUE on success
 */
gboolean
hr_hub_read_shape (const HrHubRef *ref,
                   HrHubMode       mode,
                   GCancellable   *cancellable,
                   HrHubProgress   progress,
                   gpointer        user_data,
                   guint64        *bytes_fetched,
                   HrModelShape   *shape,
                   GError        **error)
{
  Fetch f = { ref, mode, cancellable, progress, user_data, NULL, NULL, NULL, 0 };
  gboolean ok;

  g_return_val_if_fail (ref != NULL && ref->repo != NULL && ref->revision != NULL, FALSE);
  g_return_val_if_fail (shape != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  f.endpoint = hr_hub_endpoint ();
  f.cache = hr_hub_cache_dir (ref);
  if (ref->file != NULL)
    ok = read_gguf (&f, shape, error);
  else
    ok = read_config (&f, shape, error);
  if (bytes_fetched != NULL)
    *bytes_fetched = f.received;
  fetch_clear (&f);
  if (!ok && error != NULL && *error != NULL)
    hr_text_sanitize_error (*error);
  return ok;
}

/* ------------------------------------------------------------ file list */

void
hr_hub_file_free (HrHubFile *file)
{
  g_free (file->path);
  g_free (file->quantization);
  g_free (file);
}

/**
 * hr_hub_quantization_from_name:
 * @name: a GGUF file's name, such as "Qwen2.5-7B-Instruct-Q4_K_M.gguf" or
 *   "Q4_K_M/model-00001-of-00002.gguf"
 *
 * The ggml type names that GGUF repositories put in their file names
 * (llama.cpp's llama-quantize list: tools/quantize/quantize.cpp).
 *
 * Returns: (transfer full) (nullable): the name in capitals, or %NULL
 */
char *
hr_hub_quantization_from_name (const char *name)
{
  static GRegex *regex;
  static gsize once;
  g_autoptr(GMatchInfo) match = NULL;
  g_autofree char *found = NULL;

  if (g_once_init_enter (&once))
    {
      regex = g_regex_new ("(?i)(?<![A-Z0-9])(IQ[1-4]_(?:XXS|XS|S|M|NL)|"
                                            "Q[2-8]_K(?:_(?:XS|S|M|L|XL))?|Q[4-8]_[01]|"
                                            "TQ[12]_0|MXFP4(?:_MOE)?|BF16|F16|F32)(?![A-Z0-9_])",
                                            G_REGEX_OPTIMIZE, 0, NULL);
      g_once_init_leave (&once, 1);
    }
  if (!g_regex_match (regex, name, 0, &match))
    return NULL;
  /* The last one: "Q8_0-…-Q4_K_M.gguf" is the Q4_K_M file. */
  do
    {
      g_free (found);
      found = g_match_info_fetch (match, 1);
    }
  while (g_match_info_next (match, NULL));
  return g_ascii_strup (found, -1);
}

static GPtrArray *
files_from_tree (GBytes  *bytes,
                 GError **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_hub_file_free);
  JsonArray *array;
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  root = hr_json_load_kind_data (HR_JSON_KIND_SAFETENSORS_INDEX, data, len, "the file list", error);
  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error (error, HR_HUB_ERROR, HR_HUB_ERROR_INVALID, "the file list is not a JSON array");
      return NULL;
    }
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *path = o != NULL ? json_object_get_string_member_with_default (o, "path", NULL) : NULL;
      const char *type = o != NULL ? json_object_get_string_member_with_default (o, "type", "file") : NULL;
      JsonNode *size = o != NULL ? json_object_get_member (o, "size") : NULL;
      HrHubFile *file;

      if (path == NULL || g_strcmp0 (type, "file") != 0 || !valid_path (path, TRUE) ||
          size == NULL || json_node_get_value_type (size) != G_TYPE_INT64 ||
          json_node_get_int (size) < 0)
        continue;
      file = g_new0 (HrHubFile, 1);
      file->path = g_strdup (path);
      file->bytes = (guint64) json_node_get_int (size);
      if (g_str_has_suffix (path, ".gguf"))
        file->quantization = hr_hub_quantization_from_name (path);
      g_ptr_array_add (files, file);
    }
  return g_steal_pointer (&files);
}

/**
 * hr_hub_list_files:
 *
 * The repository's files with their sizes ($HF_ENDPOINT/api/models/
 * {repo}/tree/{revision}), cached as tree.json beside config.json.
 *
 * Returns: (transfer full) (element-type HrHubFile): the files, or %NULL
 *   with @error set
 */
GPtrArray *
hr_hub_list_files (const HrHubRef *ref,
                   HrHubMode       mode,
                   GCancellable   *cancellable,
                   GError        **error)
{
  Fetch f = { ref, mode, cancellable, NULL, NULL, NULL, NULL, NULL, 0 };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *url = NULL;
  GPtrArray *files = NULL;

  g_return_val_if_fail (ref != NULL && ref->repo != NULL && ref->revision != NULL, NULL);

  f.endpoint = hr_hub_endpoint ();
  f.cache = hr_hub_cache_dir (ref);
  bytes = cache_load (&f, "tree.json", HUB_MAX_LISTING_BYTES);
  if (bytes != NULL)
    {
      files = files_from_tree (bytes, &local_error);
      if (files == NULL)
        cache_set_aside (&f, "tree.json", local_error);
      g_clear_pointer (&bytes, g_bytes_unref);
    }
  if (files == NULL && network_allowed (&f, "the file list", error))
    {
      url = g_strdup_printf ("%s/api/models/%s/tree/%s?recursive=true", f.endpoint,
                             ref->repo, ref->revision);
      bytes = http_get (&f, url, "file list", 0, -1, HUB_MAX_LISTING_BYTES, NULL, error);
      if (bytes != NULL && (files = files_from_tree (bytes, error)) != NULL)
        cache_store (&f, "tree.json", bytes);
    }
  fetch_clear (&f);
  if (files == NULL && error != NULL && *error != NULL)
    hr_text_sanitize_error (*error);
  return files;
}
