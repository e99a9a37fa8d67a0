/* hr-hub.h — a model on a Hugging Face-like hub, without downloading it
 *
 * A reference ("org/name[@revision]", "hf:org/name[:file.gguf]" or a
 * https://huggingface.co/… URL) becomes a model's shape from the repository's
 * config.json or, for a GGUF file, from its header alone, fetched by HTTP
 * range requests (libsoup 3).  What was fetched is cached under
 * g_get_user_cache_dir()/headroom/hub/{repo}/{revision}/ and read from
 * there without the network (HR_HUB_CACHE_ONLY).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "hr-model-shape.h"

G_BEGIN_DECLS

#define HR_HUB_ERROR (hr_hub_error_quark ())

typedef enum
{
  HR_HUB_ERROR_INVALID,     /* not a hub reference */
  HR_HUB_ERROR_NOT_CACHED,  /* the cache does not hold it and the network is not allowed */
  HR_HUB_ERROR_GATED,       /* 401/403: a gated or private repository */
  HR_HUB_ERROR_NOT_FOUND,   /* 404: no such repository, revision or file */
  HR_HUB_ERROR_NETWORK,     /* the request failed, or an unexpected status */
  HR_HUB_ERROR_TOO_LARGE,   /* a reply past its limit (a GGUF header past 64 MiB) */
  HR_HUB_ERROR_CHOOSE,      /* a repository of GGUF files and no file named */
} HrHubError;

/* The default hub; HF_ENDPOINT replaces it. */
#define HR_HUB_DEFAULT_ENDPOINT "https://huggingface.co"
#define HR_HUB_DEFAULT_REVISION "main"

/* The first range asked of a remote GGUF: most headers (all but those of
 * 150k-token vocabularies) are below 4 MiB, and 1 MiB needs one or two
 * doublings; HR_GGUF_MAX_HEADER_BYTES (64 MiB) is the most ever asked. */
#define HR_HUB_GGUF_FIRST_RANGE (1024u * 1024u)

typedef enum
{
  HR_HUB_CACHE_ONLY,   /* --offline, and the CLI's default */
  HR_HUB_ONLINE,       /* --online: the cache first, then the network */
} HrHubMode;

typedef struct
{
  char *repo;       /* "org/name" */
  char *revision;   /* "main" unless given */
  char *file;       /* a .gguf file in the repository, or NULL */
} HrHubRef;

/* Called from the fetching thread for each request: what it asks and
 * the bytes received so far in all requests. */
typedef void (*HrHubProgress) (const char *what,
                               guint64     bytes_received,
                               gpointer    user_data);

GQuark        hr_hub_error_quark   (void);

gboolean      hr_hub_ref_parse     (const char     *text,
                                    HrHubRef       *ref);
void          hr_hub_ref_clear     (HrHubRef       *ref);
char         *hr_hub_ref_to_string (const HrHubRef *ref);

char         *hr_hub_endpoint      (void);
char         *hr_hub_cache_dir     (const HrHubRef *ref);

gboolean      hr_hub_read_shape    (const HrHubRef *ref,
                                    HrHubMode       mode,
                                    GCancellable   *cancellable,
                                    HrHubProgress   progress,
                                    gpointer        user_data,
                                    guint64        *bytes_fetched,
                                    HrModelShape   *shape,
                                    GError        **error);

/* One file of a repository, from the hub's tree listing. */
typedef struct
{
  char    *path;
  guint64  bytes;
  char    *quantization;   /* "Q4_K_M", "BF16"… from a GGUF file's name, or NULL */
} HrHubFile;

void          hr_hub_file_free     (HrHubFile      *file);
char         *hr_hub_quantization_from_name (const char *name);
GPtrArray    *hr_hub_list_files    (const HrHubRef *ref,
                                    HrHubMode       mode,
                                    GCancellable   *cancellable,
                                    GError        **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HrHubRef, hr_hub_ref_clear)

G_END_DECLS
