/* hr-local-models.c — the models already on this computer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layouts, as the tools write them:
 *
 *   Hugging Face  hub/models--ORG--NAME/refs/main            the revision
 *                 hub/models--ORG--NAME/snapshots/REV/FILE   links to ../../blobs/HASH
 *                 config.json; model.safetensors.index.json (metadata.total_size)
 *                 or model.safetensors (an 8-byte header length, then a JSON
 *                 header with each tensor's dtype and data_offsets); or GGUF files
 *   Ollama        models/manifests/HOST/NAMESPACE/NAME/TAG   a JSON manifest;
 *                 the layer of type application/vnd.ollama.image.model names
 *                 models/blobs/sha256-HEX, a GGUF file
 *   LM Studio     models/PUBLISHER/REPO/FILE.gguf
 *   llama.cpp     FILE.gguf (ORG_REPO_FILE.gguf), or the Hugging Face layout
 *
 * GGUF files split by gguf-split (-00001-of-00003.gguf) are one model, found
 * by the first shard, with the shards' sizes added; vision projectors
 * (mmproj-*.gguf) are not models.
 */

#define G_LOG_DOMAIN "hr-local-models"

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "hr-catalog-json.h"
#include "hr-json-load.h"
#include "hr-local-models.h"
#include "hr-text.h"
#include "hr-tree.h"

/* ---------------------------------------------------------------- roots */

typedef struct
{
  HrLocalSource source;
  char *dir;
} Root;

struct _HrLocalRoots
{
  GArray *roots;   /* of Root */
};

static void
root_clear (Root *root)
{
  g_free (root->dir);
}

HrLocalRoots *
hr_local_roots_new (void)
{
  HrLocalRoots *self = g_new0 (HrLocalRoots, 1);

  self->roots = g_array_new (FALSE, TRUE, sizeof (Root));
  g_array_set_clear_func (self->roots, (GDestroyNotify) root_clear);
  return self;
}

void
hr_local_roots_add (HrLocalRoots  *self,
                    HrLocalSource  source,
                    const char    *dir)
{
  Root root = { source, NULL };

  g_return_if_fail (self != NULL);
  g_return_if_fail (dir != NULL);

  root.dir = g_strdup (dir);
  g_array_append_val (self->roots, root);
}

static const char *
env_dir (const char *name)
{
  const char *value = g_getenv (name);

  return value != NULL && g_path_is_absolute (value) ? value : NULL;
}

/* The user's cache directory as the tools see it.  In a Flatpak,
 * XDG_CACHE_HOME is the app's own; the host's is in HOST_XDG_CACHE_HOME. */
static char *
host_cache_dir (void)
{
  const char *dir = g_getenv ("FLATPAK_ID") != NULL ? env_dir ("HOST_XDG_CACHE_HOME")
                                                    : env_dir ("XDG_CACHE_HOME");

  if (dir != NULL)
    return g_strdup (dir);
  return g_build_filename (g_get_home_dir (), ".cache", NULL);
}

/**
 * hr_local_roots_new_default:
 *
 * The places the tools use, honouring their environment variables:
 * HF_HUB_CACHE, HF_HOME (then its hub/), OLLAMA_MODELS, LLAMA_CACHE; and
 * LM Studio's ~/.lmstudio/models and older ~/.cache/lm-studio/models.
 */
HrLocalRoots *
hr_local_roots_new_default (void)
{
  HrLocalRoots *self = hr_local_roots_new ();
  g_autofree char *cache = host_cache_dir ();
  const char *home = g_get_home_dir ();
  g_autofree char *dir = NULL;

  if (env_dir ("HF_HUB_CACHE") != NULL)
    dir = g_strdup (env_dir ("HF_HUB_CACHE"));
  else if (env_dir ("HF_HOME") != NULL)
    dir = g_build_filename (env_dir ("HF_HOME"), "hub", NULL);
  else
    dir = g_build_filename (cache, "huggingface", "hub", NULL);
  hr_local_roots_add (self, HR_LOCAL_SOURCE_HUGGINGFACE, dir);
  g_clear_pointer (&dir, g_free);

  if (env_dir ("OLLAMA_MODELS") != NULL)
    dir = g_strdup (env_dir ("OLLAMA_MODELS"));
  else
    dir = g_build_filename (home, ".ollama", "models", NULL);
  hr_local_roots_add (self, HR_LOCAL_SOURCE_OLLAMA, dir);
  g_clear_pointer (&dir, g_free);

  dir = g_build_filename (home, ".lmstudio", "models", NULL);
  hr_local_roots_add (self, HR_LOCAL_SOURCE_LMSTUDIO, dir);
  g_clear_pointer (&dir, g_free);
  dir = g_build_filename (cache, "lm-studio", "models", NULL);
  hr_local_roots_add (self, HR_LOCAL_SOURCE_LMSTUDIO, dir);
  g_clear_pointer (&dir, g_free);

  if (env_dir ("LLAMA_CACHE") != NULL)
    dir = g_strdup (env_dir ("LLAMA_CACHE"));
  else
    dir = g_build_filename (cache, "llama.cpp", NULL);
  hr_local_roots_add (self, HR_LOCAL_SOURCE_LLAMACPP, dir);

  return self;
}

guint
hr_local_roots_get_n (HrLocalRoots *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->roots->len;
}

const char *
hr_local_roots_get_dir (HrLocalRoots  *self,
                        guint          index,
                        HrLocalSource *source)
{
  Root *root;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->roots->len, NULL);

  root = &g_array_index (self->roots, Root, index);
  if (source != NULL)
    *source = root->source;
  return root->dir;
}

HrLocalRoots *
hr_local_roots_copy (HrLocalRoots *self)
{
  HrLocalRoots *copy = hr_local_roots_new ();

  for (guint i = 0; i < self->roots->len; i++)
    {
      Root *root = &g_array_index (self->roots, Root, i);
      hr_local_roots_add (copy, root->source, root->dir);
    }
  return copy;
}

void
hr_local_roots_free (HrLocalRoots *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->roots);
  g_free (self);
}

const char *
hr_local_source_to_string (HrLocalSource source)
{
  static const char * const names[] = { "huggingface", "ollama", "lmstudio", "llamacpp" };

  g_return_val_if_fail (source < G_N_ELEMENTS (names), NULL);
  return names[source];
}

const char *
hr_local_source_get_label (HrLocalSource source)
{
  static const char * const labels[] = { "Hugging Face", "Ollama", "LM Studio", "llama.cpp" };

  g_return_val_if_fail (source < G_N_ELEMENTS (labels), NULL);
  return labels[source];
}

/* ---------------------------------------------------------- one model */

struct _HrLocalModel
{
  GObject parent_instance;

  char *path;
  char *import_path;
  HrLocalSource source;
  char *name;
  const char *format;          /* static */
  char *dtype;
  guint64 weights_bytes;
  GObject *model;              /* an HrModelSpec, set by the importer */
  char *error;
};

G_DEFINE_FINAL_TYPE (HrLocalModel, hr_local_model, G_TYPE_OBJECT)

static void
hr_local_model_finalize (GObject *object)
{
  HrLocalModel *self = HR_LOCAL_MODEL (object);

  g_free (self->path);
  g_free (self->import_path);
  g_free (self->name);
  g_free (self->dtype);
  g_clear_object (&self->model);
  g_free (self->error);
  G_OBJECT_CLASS (hr_local_model_parent_class)->finalize (object);
}

static void
hr_local_model_class_init (HrLocalModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_local_model_finalize;
}

static void
hr_local_model_init (HrLocalModel *self)
{
}

/* The model as the user knows it: a snapshot directory or a GGUF file. */
const char *
hr_local_model_get_path (HrLocalModel *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_MODEL (self), NULL);
  return self->path;
}

/* The file to import: a config.json or the (first) GGUF file. */
const char *
hr_local_model_get_import_path (HrLocalModel *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_MODEL (self), NULL);
  return self->import_path;
}

HrLocalSource
hr_local_model_get_source (HrLocalModel *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_MODEL (self), 0);
  return self->source;
}

/* The name in its source: “Qwen/Qwen3-8B”, “llama3.2:1b”,
 * “lmstudio-community/Qwen3-8B-GGUF/Qwen3-8B-Q4_K_M.gguf”. */
const char *
hr_local_model_get_name (HrLocalModel *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_MODEL (self), NULL);
  return self->name;
}

/* “gguf”, “safetensors” or “pytorch”. */
const char *
hr_local_model_get_format (HrLocalModel *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_MODEL (self), NULL);
  return self->format;
}

/* The checkpoint's dtype (“bfloat16”) for safetensors; %NULL for GGUF. */
const char *
hr_local_model_get_dtype (HrLocalModel *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_MODEL (self), NULL);
  return self->dtype;
}

/* The weights' size on disk. */
guint64
hr_local_model_get_weights_bytes (HrLocalModel *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_MODEL (self), 0);
  return self->weights_bytes;
}

/**
 * hr_local_model_get_model:
 *
 * Returns: (transfer none) (nullable) (type HrModelSpec): the imported model
 */
gpointer
hr_local_model_get_model (HrLocalModel *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_MODEL (self), NULL);
  return self->model;
}

void
hr_local_model_set_model (HrLocalModel *self,
                          gpointer      model)
{
  g_return_if_fail (HR_IS_LOCAL_MODEL (self));
  g_return_if_fail (model == NULL || G_IS_OBJECT (model));
  g_set_object (&self->model, model);
}

/* Why the model could not be imported, or %NULL. */
const char *
hr_local_model_get_error (HrLocalModel *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_MODEL (self), NULL);
  return self->error;
}

void
hr_local_model_set_error (HrLocalModel *self,
                          const char   *error)
{
  g_return_if_fail (HR_IS_LOCAL_MODEL (self));
  g_free (self->error);
  self->error = g_strdup (error);
}

/* ---------------------------------------------------------- the scan */

struct _HrLocalScan
{
  GObject parent_instance;

  GListStore *models;
  GPtrArray *notes;            /* NULL-terminated */
  GHashTable *seen;            /* real paths of imported files */
  gboolean truncated;
  gint64 deadline;             /* monotonic */
  guint entries;
  guint max_entries;
  GCancellable *cancellable;
};

G_DEFINE_FINAL_TYPE (HrLocalScan, hr_local_scan, G_TYPE_OBJECT)

static void
hr_local_scan_finalize (GObject *object)
{
  HrLocalScan *self = HR_LOCAL_SCAN (object);

  g_clear_object (&self->models);
  g_clear_pointer (&self->notes, g_ptr_array_unref);
  g_clear_pointer (&self->seen, g_hash_table_unref);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (hr_local_scan_parent_class)->finalize (object);
}

static void
hr_local_scan_class_init (HrLocalScanClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_local_scan_finalize;
}

static void
hr_local_scan_init (HrLocalScan *self)
{
  self->models = g_list_store_new (HR_TYPE_LOCAL_MODEL);
  self->notes = g_ptr_array_new_null_terminated (4, g_free, TRUE);
  self->seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

static void
note (HrLocalScan *self,
      const char  *format,
      ...) G_GNUC_PRINTF (2, 3);

static void
note (HrLocalScan *self,
      const char  *format,
      ...)
{
  va_list args;
  char *text;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_debug ("%s", text);
  g_ptr_array_add (self->notes, text);
}

/* Notes a file the scan could not read, with *@error's message (which
 * names the file and, for JSON, the limit it is past), made displayable;
 * clears *@error. */
static void
skipped (HrLocalScan  *self,
         const char   *prefix,
         GError      **error)
{
  if (*error == NULL)
    return;
  hr_text_sanitize_error (*error);
  note (self, "%s%s", prefix, (*error)->message);
  g_clear_error (error);
}

/* Counts one directory entry (or one file read); FALSE once a bound is
 * reached, after which the scan only unwinds. */
static gboolean
tick (HrLocalScan *self)
{
  if (self->truncated)
    return FALSE;
  if (++self->entries > self->max_entries)
    {
      hr_local_scan_set_truncated (self, NULL);
      note (self, "stopped after looking at %u entries; the list is partial",
            self->max_entries);
      return FALSE;
    }
  if (g_get_monotonic_time () > self->deadline)
    {
      hr_local_scan_set_truncated (self, NULL);
      note (self, "stopped at the time limit; the list is partial");
      return FALSE;
    }
  if (g_cancellable_is_cancelled (self->cancellable))
    {
      hr_local_scan_set_truncated (self, "the scan was cancelled; the list is partial");
      return FALSE;
    }
  return TRUE;
}

static gboolean
full (HrLocalScan *self)
{
  if (g_list_model_get_n_items (G_LIST_MODEL (self->models)) < HR_LOCAL_MODELS_MAX_MODELS)
    return FALSE;
  if (!self->truncated)
    {
      hr_local_scan_set_truncated (self, NULL);
      note (self, "stopped after %d models; the list is partial", HR_LOCAL_MODELS_MAX_MODELS);
    }
  return TRUE;
}

static void
add_model (HrLocalScan   *self,
           HrTree        *tree,
           HrLocalSource  source,
           const char    *name,
           const char    *path,
           const char    *import_path,
           const char    *format,
           const char    *dtype,
           guint64        weights_bytes)
{
  g_autoptr(HrLocalModel) model = NULL;
  g_autofree char *real = hr_tree_resolve (tree, import_path, NULL);

  /* The same file through two roots (LLAMA_CACHE set to the HF cache). */
  if (real == NULL || g_hash_table_contains (self->seen, real))
    return;
  g_hash_table_add (self->seen, g_steal_pointer (&real));

  model = g_object_new (HR_TYPE_LOCAL_MODEL, NULL);
  model->source = source;
  model->name = g_utf8_make_valid (name, -1);
  model->path = g_strdup (path);
  model->import_path = g_strdup (import_path);
  model->format = format;
  model->dtype = g_strdup (dtype);
  model->weights_bytes = weights_bytes;
  g_list_store_append (self->models, model);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_ascii_strcasecmp (*(const char * const *) a, *(const char * const *) b);
}

/* The entries of @dir (resolved inside @tree), or %NULL; each one counts
 * against the bounds, and listing stops when one is reached. */
static GPtrArray *
list_dir (HrLocalScan *self,
          HrTree      *tree,
          const char  *dir)
{
  g_autofree char *real = hr_tree_resolve (tree, dir, NULL);
  g_autoptr(GDir) handle = NULL;
  GPtrArray *names;
  const char *name;

  if (real == NULL || (handle = g_dir_open (real, 0, NULL)) == NULL)
    return NULL;

  names = g_ptr_array_new_with_free_func (g_free);
  while (tick (self) && (name = g_dir_read_name (handle)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  return names;
}

typedef enum
{
  ENTRY_NONE,                  /* missing, unreadable, a link out of the tree, a FIFO… */
  ENTRY_FILE,                  /* a regular file, possibly through a link in the tree */
  ENTRY_DIR,                   /* a directory, not a link */
} EntryKind;

static EntryKind
entry_kind (HrTree     *tree,
            const char *path,
            guint64    *size)
{
  GStatBuf st;

  if (g_lstat (path, &st) != 0)
    return ENTRY_NONE;
  if (S_ISDIR (st.st_mode))
    return ENTRY_DIR;
  if (S_ISLNK (st.st_mode))
    {
      /* Followed only to a regular file inside the tree. */
      if (!hr_tree_stat (tree, path, &st, NULL) || !S_ISREG (st.st_mode))
        return ENTRY_NONE;
    }
  else if (!S_ISREG (st.st_mode))
    return ENTRY_NONE;
  if (size != NULL)
    *size = st.st_size;
  return ENTRY_FILE;
}

/* What a JSON file may grow by between its stat() and its read(): a
 * download still being written. */
#define READ_SLACK_BYTES 4096

/* The JSON object in @path (resolved inside @tree), read with the limits
 * of @kind (hr-json-load.h): a file above the size limit is not read, and
 * one past the depth or node limit is refused before it is parsed.
 * %NULL with @error set, the message starting with the file. */
static JsonNode *
read_json (HrTree      *tree,
           const char  *path,
           HrJsonKind   kind,
           GError     **error)
{
  const HrJsonLimits *limits = hr_json_kind_get_limits (kind);
  g_autofree char *contents = NULL;
  g_autofree char *display = hr_text_display_path (path);
  g_autoptr(JsonNode) root = NULL;
  gboolean truncated = FALSE;
  GStatBuf st;
  gsize length, read_max;

  /* Refused by its size before it is read; read into a buffer of its
   * size (and a little more for a file still being written), not of the
   * limit. */
  if (!hr_tree_stat (tree, path, &st, error))
    return NULL;
  if ((guint64) st.st_size > limits->max_bytes)
    {
      hr_json_set_size_error (error, display, limits, st.st_size);
      return NULL;
    }
  read_max = MIN (limits->max_bytes, (gsize) st.st_size + READ_SLACK_BYTES);
  if (!hr_tree_read (tree, path, read_max, &contents, &length, &truncated, error))
    return NULL;
  if (truncated)
    {
      hr_json_set_size_error (error, display, limits, 0);
      return NULL;
    }
  root = hr_json_load_limited (limits, contents, length, path, error);
  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: the top level is not an object", display);
      return NULL;
    }
  return g_steal_pointer (&root);
}

static gboolean
uint_member (JsonObject *object,
             const char *member,
             guint64    *value)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) < 0)
    return FALSE;
  *value = json_node_get_int (node);
  return TRUE;
}

/* ------------------------------------------------------------- GGUF */

static gboolean
has_suffix_nocase (const char *name,
                   const char *suffix)
{
  gsize n = strlen (name), m = strlen (suffix);

  return n >= m && g_ascii_strcasecmp (name + n - m, suffix) == 0;
}

/* “-00002-of-00003.gguf” → shard 2 of 3; %FALSE when not split. */
static gboolean
split_shard (const char *name,
             guint      *shard,
             guint      *count,
             gsize      *prefix_length)
{
  gsize n = strlen (name);
  const char *tail;

  if (n < strlen ("-00001-of-00002.gguf"))
    return FALSE;
  tail = name + n - strlen ("-00001-of-00002.gguf");
  if (tail[0] != '-' || strncmp (tail + 6, "-of-", 4) != 0)
    return FALSE;
  for (guint i = 1; i < 6; i++)
    if (!g_ascii_isdigit (tail[i]) || !g_ascii_isdigit (tail[i + 9]))
      return FALSE;
  *shard = g_ascii_strtoull (tail + 1, NULL, 10);
  *count = g_ascii_strtoull (tail + 10, NULL, 10);
  *prefix_length = tail - name;
  return *shard >= 1 && *count >= 1 && *shard <= *count;
}

/* GGUF models among the entries of @dir: each file, or each first shard
 * with its shards' sizes added.  @name_prefix names them in their source. */
static void
add_gguf_files (HrLocalScan   *self,
                HrTree        *tree,
                HrLocalSource  source,
                const char    *dir,
                GPtrArray     *names,
                const char    *name_prefix)
{
  for (guint i = 0; i < names->len && !full (self); i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *model_name = NULL;
      guint shard, count;
      gsize prefix_length;
      guint64 size = 0;

      if (!has_suffix_nocase (name, ".gguf") || g_ascii_strncasecmp (name, "mmproj", 6) == 0 ||
          entry_kind (tree, path, &size) != ENTRY_FILE)
        continue;

      if (split_shard (name, &shard, &count, &prefix_length))
        {
          if (shard != 1)
            continue;
          for (guint j = 0; j < names->len; j++)
            {
              const char *other = g_ptr_array_index (names, j);
              g_autofree char *other_path = NULL;
              guint other_shard, other_count;
              gsize other_prefix;
              guint64 other_size = 0;

              if (j == i || !split_shard (other, &other_shard, &other_count, &other_prefix) ||
                  other_count != count || other_prefix != prefix_length ||
                  strncmp (other, name, prefix_length) != 0)
                continue;
              other_path = g_build_filename (dir, other, NULL);
              if (entry_kind (tree, other_path, &other_size) == ENTRY_FILE)
                size += other_size;
            }
        }

      model_name = name_prefix != NULL ? g_strdup_printf ("%s/%s", name_prefix, name)
                                       : g_strdup (name);
      add_model (self, tree, source, model_name, path, path, "gguf", NULL, size);
    }
}

/* LM Studio and llama.cpp: GGUF files anywhere below @root. */
static void
walk_gguf (HrLocalScan   *self,
           HrTree        *tree,
           HrLocalSource  source,
           const char    *dir,
           const char    *relative,
           guint          depth)
{
  g_autoptr(GPtrArray) names = NULL;

  if (depth > HR_LOCAL_MODELS_MAX_DEPTH || full (self))
    return;
  names = list_dir (self, tree, dir);
  if (names == NULL)
    return;

  add_gguf_files (self, tree, source, dir, names, relative);

  for (guint i = 0; i < names->len && !self->truncated; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *child = NULL;

      /* Only real directories: a linked one could loop or leave the tree. */
      if (name[0] == '.' || entry_kind (tree, path, NULL) != ENTRY_DIR)
        continue;
      child = relative != NULL ? g_strdup_printf ("%s/%s", relative, name) : g_strdup (name);
      walk_gguf (self, tree, source, path, child, depth + 1);
    }
}

/* ---------------------------------------------------- Hugging Face */

/* “models--Qwen--Qwen3-8B” → “Qwen/Qwen3-8B”; “models--gpt2” → “gpt2”. */
static char *
hf_repo_id (const char *folder)
{
  g_auto(GStrv) parts = NULL;

  if (!g_str_has_prefix (folder, "models--") || folder[strlen ("models--")] == '\0')
    return NULL;
  parts = g_strsplit (folder + strlen ("models--"), "--", 2);
  if (parts[1] == NULL)
    return g_strdup (parts[0]);
  if (parts[0][0] == '\0' || parts[1][0] == '\0')
    return NULL;
  return g_strdup_printf ("%s/%s", parts[0], parts[1]);
}

/* A whole number element of a JSON array, or -1. */
static gint64
int_element (JsonArray *array,
             guint      index)
{
  JsonNode *node = json_array_get_element (array, index);

  if (json_node_get_value_type (node) != G_TYPE_INT64)
    return -1;
  return json_node_get_int (node);
}

/* A safetensors header: the tensors' bytes and the dtype holding most.
 * %FALSE with @error set when the file is not a safetensors file; its
 * header's length, the file's first 8 bytes, is checked against the size
 * limit before anything else is read. */
static gboolean
read_safetensors_header (HrTree      *tree,
                         const char  *path,
                         guint64      file_size,
                         guint64     *weights,
                         char       **dtype,
                         GError     **error)
{
  const HrJsonLimits *limits = hr_json_kind_get_limits (HR_JSON_KIND_SAFETENSORS_HEADER);
  g_autofree char *head = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *display = hr_text_display_path (path);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GHashTable) by_dtype = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                          g_free, g_free);
  gsize length;
  gboolean truncated;
  guint64 header_length = 0, total = 0, best = 0;
  JsonObjectIter it;
  GHashTableIter iter;
  const char *member;
  JsonNode *node;
  gpointer key, value;

  if (file_size < 8 ||
      !hr_tree_read (tree, path, 8, &head, &length, &truncated, error) || length < 8)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                     "%s: too short for a safetensors file", display);
      return FALSE;
    }
  for (int i = 7; i >= 0; i--)
    header_length = header_length << 8 | (guint8) head[i];
  if (header_length > limits->max_bytes)
    {
      hr_json_set_size_error (error, display, limits, header_length);
      return FALSE;
    }
  if (header_length < 2 || header_length > file_size - 8)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: the header's length (%" G_GUINT64_FORMAT " bytes) does not fit "
                   "the file", display, header_length);
      return FALSE;
    }
  if (!hr_tree_read (tree, path, 8 + header_length, &contents, &length, &truncated, error))
    return FALSE;
  if (length != 8 + header_length)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: the file ends inside its header", display);
      return FALSE;
    }
  root = hr_json_load_limited (limits, contents + 8, header_length, path, error);
  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: the header is not a JSON object", display);
      return FALSE;
    }

  json_object_iter_init (&it, json_node_get_object (root));
  while (json_object_iter_next (&it, &member, &node))
    {
      JsonObject *tensor;
      JsonNode *offsets;
      const char *type;
      gint64 begin, end;

      if (strcmp (member, "__metadata__") == 0)
        continue;
      offsets = JSON_NODE_HOLDS_OBJECT (node)
                ? json_object_get_member (json_node_get_object (node), "data_offsets") : NULL;
      if (offsets == NULL || !JSON_NODE_HOLDS_ARRAY (offsets) ||
          json_array_get_length (json_node_get_array (offsets)) != 2)
        {
          g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                       "%s: a tensor of the header has no data_offsets pair", display);
          return FALSE;
        }
      tensor = json_node_get_object (node);
      type = hr_json_string_or_null (tensor, "dtype");
      begin = int_element (json_node_get_array (offsets), 0);
      end = int_element (json_node_get_array (offsets), 1);
      if (begin < 0 || end < begin || (guint64) end > file_size - 8 - header_length)
        {
          g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                       "%s: a tensor's data_offsets lie outside the file", display);
          return FALSE;
        }
      total += end - begin;
      if (type != NULL)
        {
          guint64 *bytes = g_hash_table_lookup (by_dtype, type);

          if (bytes == NULL)
            {
              bytes = g_new0 (guint64, 1);
              g_hash_table_insert (by_dtype, g_strdup (type), bytes);
            }
          *bytes += end - begin;
        }
    }

  g_hash_table_iter_init (&iter, by_dtype);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (*(guint64 *) value > best)
      {
        best = *(guint64 *) value;
        g_free (*dtype);
        *dtype = g_ascii_strdown (key, -1);
      }
  *weights = total;
  return TRUE;
}

static void
scan_hf_snapshot (HrLocalScan *self,
                  HrTree      *tree,
                  const char  *repo,
                  const char  *snapshot)
{
  g_autoptr(GPtrArray) names = list_dir (self, tree, snapshot);
  g_autofree char *config_path = NULL;
  g_autofree char *index_path = NULL;
  g_autoptr(JsonNode) config = NULL;
  g_autoptr(JsonNode) index = NULL;
  g_autofree char *dtype = NULL;
  guint64 weights = 0, files = 0, size = 0;
  g_autoptr(GError) error = NULL;
  gboolean have_header = FALSE;
  const char *format = "pytorch";

  if (names == NULL)
    return;

  /* A GGUF repository: every file is a model. */
  add_gguf_files (self, tree, HR_LOCAL_SOURCE_HUGGINGFACE, snapshot, names, repo);

  config_path = g_build_filename (snapshot, "config.json", NULL);
  if (entry_kind (tree, config_path, NULL) != ENTRY_FILE)
    return;
  config = read_json (tree, config_path, HR_JSON_KIND_CONFIG, &error);
  if (config == NULL)
    skipped (self, "", &error);
  else
    {
      const char *torch_dtype = hr_json_string_or_null (json_node_get_object (config), "torch_dtype");

      if (torch_dtype == NULL)
        torch_dtype = hr_json_string_or_null (json_node_get_object (config), "dtype");
      dtype = g_strdup (torch_dtype);
    }

  index_path = g_build_filename (snapshot, "model.safetensors.index.json", NULL);
  if (entry_kind (tree, index_path, NULL) == ENTRY_FILE &&
      (index = read_json (tree, index_path, HR_JSON_KIND_SAFETENSORS_INDEX, &error)) == NULL)
    skipped (self, "", &error);
  if (index != NULL)
    {
      JsonNode *metadata = json_object_get_member (json_node_get_object (index), "metadata");

      if (metadata != NULL && JSON_NODE_HOLDS_OBJECT (metadata) &&
          uint_member (json_node_get_object (metadata), "total_size", &weights))
        {
          format = "safetensors";
          have_header = TRUE;
        }
    }

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (snapshot, name, NULL);
      gboolean safetensors = has_suffix_nocase (name, ".safetensors");

      if (!safetensors && !has_suffix_nocase (name, ".bin") && !has_suffix_nocase (name, ".pth"))
        continue;
      if (!tick (self) || entry_kind (tree, path, &size) != ENTRY_FILE)
        continue;
      files += size;
      if (safetensors)
        {
          format = "safetensors";
          /* Without an index, the headers say the tensors' bytes. */
          if (index == NULL)
            {
              g_autofree char *header_dtype = NULL;
              guint64 tensors = 0;

              if (read_safetensors_header (tree, path, size, &tensors, &header_dtype, &error))
                {
                  weights += tensors;
                  have_header = TRUE;
                  if (dtype == NULL)
                    dtype = g_steal_pointer (&header_dtype);
                }
              else
                skipped (self, "", &error);
            }
        }
    }
  if (!have_header)
    weights = files;

  add_model (self, tree, HR_LOCAL_SOURCE_HUGGINGFACE, repo, snapshot, config_path,
             format, dtype, weights);
}

static void
scan_hf_repo (HrLocalScan *self,
              const char  *hub,
              const char  *folder)
{
  g_autofree char *repo = hf_repo_id (folder);
  g_autofree char *dir = g_build_filename (hub, folder, NULL);
  g_autofree char *ref_path = g_build_filename (dir, "refs", "main", NULL);
  g_autofree char *snapshots = g_build_filename (dir, "snapshots", NULL);
  g_autofree char *revision = NULL;
  g_autofree char *snapshot = NULL;
  g_autoptr(HrTree) tree = NULL;
  g_autoptr(GPtrArray) revisions = NULL;

  if (repo == NULL)
    return;
  /* Everything of one model stays inside its folder. */
  tree = hr_tree_new (dir);

  revision = hr_tree_read_line (tree, ref_path);
  if (revision != NULL && revision[0] != '\0' && strchr (revision, '/') == NULL &&
      strcmp (revision, "..") != 0 && strcmp (revision, ".") != 0)
    {
      snapshot = g_build_filename (snapshots, revision, NULL);
      if (entry_kind (tree, snapshot, NULL) != ENTRY_DIR)
        g_clear_pointer (&snapshot, g_free);
    }
  if (snapshot == NULL)
    {
      /* No refs/main (a pinned revision only): the last snapshot. */
      revisions = list_dir (self, tree, snapshots);
      for (guint i = 0; revisions != NULL && i < revisions->len; i++)
        {
          g_autofree char *candidate = g_build_filename (snapshots,
                                                         g_ptr_array_index (revisions, i), NULL);

          if (entry_kind (tree, candidate, NULL) == ENTRY_DIR)
            {
              g_free (snapshot);
              snapshot = g_steal_pointer (&candidate);
            }
        }
    }
  if (snapshot != NULL)
    scan_hf_snapshot (self, tree, repo, snapshot);
}

static void
scan_huggingface (HrLocalScan *self,
                  HrTree      *tree,
                  const char  *hub)
{
  g_autoptr(GPtrArray) names = list_dir (self, tree, hub);

  for (guint i = 0; names != NULL && i < names->len && !self->truncated && !full (self); i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (hub, name, NULL);

      if (g_str_has_prefix (name, "models--") && entry_kind (tree, path, NULL) == ENTRY_DIR)
        scan_hf_repo (self, hub, name);
    }
}

/* ------------------------------------------------------------ Ollama */

#define OLLAMA_MODEL_LAYER "application/vnd.ollama.image.model"
#define OLLAMA_REGISTRY    "registry.ollama.ai"

/* “sha256:<64 hex>” → “sha256-<64 hex>”, the blob's file name; anything
 * else (a path, “..”) is refused. */
static char *
ollama_blob_name (const char *digest)
{
  if (digest == NULL || !g_str_has_prefix (digest, "sha256:") ||
      strlen (digest) != strlen ("sha256:") + 64)
    return NULL;
  for (const char *p = digest + strlen ("sha256:"); *p != '\0'; p++)
    if (!g_ascii_isxdigit (*p))
      return NULL;
  return g_strdup_printf ("sha256-%s", digest + strlen ("sha256:"));
}

static void
scan_ollama_manifest (HrLocalScan *self,
                      HrTree      *tree,
                      const char  *root,
                      const char  *manifest,
                      const char  *host,
                      const char  *namespace,
                      const char  *model,
                      const char  *tag)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = read_json (tree, manifest, HR_JSON_KIND_OLLAMA_MANIFEST, &error);
  g_autofree char *name = NULL;
  JsonNode *layers;

  if (node == NULL)
    {
      skipped (self, "Ollama: ", &error);
      return;
    }
  layers = json_object_get_member (json_node_get_object (node), "layers");
  if (layers == NULL || !JSON_NODE_HOLDS_ARRAY (layers))
    return;

  if (g_strcmp0 (host, OLLAMA_REGISTRY) == 0 && g_strcmp0 (namespace, "library") == 0)
    name = g_strdup_printf ("%s:%s", model, tag);
  else if (g_strcmp0 (host, OLLAMA_REGISTRY) == 0)
    name = g_strdup_printf ("%s/%s:%s", namespace, model, tag);
  else
    name = g_strdup_printf ("%s/%s/%s:%s", host, namespace, model, tag);

  for (guint i = 0; i < json_array_get_length (json_node_get_array (layers)); i++)
    {
      JsonNode *layer = json_array_get_element (json_node_get_array (layers), i);
      g_autofree char *blob_name = NULL;
      g_autofree char *blob = NULL;
      guint64 size = 0;

      if (!JSON_NODE_HOLDS_OBJECT (layer) ||
          g_strcmp0 (hr_json_string_or_null (json_node_get_object (layer), "mediaType"),
                     OLLAMA_MODEL_LAYER) != 0)
        continue;
      blob_name = ollama_blob_name (hr_json_string_or_null (json_node_get_object (layer), "digest"));
      if (blob_name == NULL)
        {
          note (self, "Ollama: %s: the model layer's digest is not a sha256 digest", name);
          return;
        }
      blob = g_build_filename (root, "blobs", blob_name, NULL);
      if (entry_kind (tree, blob, &size) != ENTRY_FILE)
        {
          note (self, "Ollama: %s: the model's blob is missing or unreadable", name);
          return;
        }
      add_model (self, tree, HR_LOCAL_SOURCE_OLLAMA, name, blob, blob, "gguf", NULL, size);
      return;
    }
}

/* manifests/HOST/NAMESPACE/MODEL/TAG */
static void
scan_ollama (HrLocalScan *self,
             HrTree      *tree,
             const char  *root)
{
  g_autofree char *manifests = g_build_filename (root, "manifests", NULL);
  g_autoptr(GPtrArray) hosts = list_dir (self, tree, manifests);

  for (guint h = 0; hosts != NULL && h < hosts->len && !self->truncated; h++)
    {
      const char *host = g_ptr_array_index (hosts, h);
      g_autofree char *host_dir = g_build_filename (manifests, host, NULL);
      g_autoptr(GPtrArray) namespaces = NULL;

      if (entry_kind (tree, host_dir, NULL) != ENTRY_DIR)
        continue;
      namespaces = list_dir (self, tree, host_dir);
      for (guint n = 0; namespaces != NULL && n < namespaces->len && !self->truncated; n++)
        {
          const char *namespace = g_ptr_array_index (namespaces, n);
          g_autofree char *ns_dir = g_build_filename (host_dir, namespace, NULL);
          g_autoptr(GPtrArray) models = NULL;

          if (entry_kind (tree, ns_dir, NULL) != ENTRY_DIR)
            continue;
          models = list_dir (self, tree, ns_dir);
          for (guint m = 0; models != NULL && m < models->len && !self->truncated; m++)
            {
              const char *model = g_ptr_array_index (models, m);
              g_autofree char *model_dir = g_build_filename (ns_dir, model, NULL);
              g_autoptr(GPtrArray) tags = NULL;

              if (entry_kind (tree, model_dir, NULL) != ENTRY_DIR)
                continue;
              tags = list_dir (self, tree, model_dir);
              for (guint t = 0; tags != NULL && t < tags->len && !full (self); t++)
                {
                  const char *tag = g_ptr_array_index (tags, t);
                  g_autofree char *manifest = g_build_filename (model_dir, tag, NULL);

                  if (entry_kind (tree, manifest, NULL) == ENTRY_FILE)
                    scan_ollama_manifest (self, tree, root, manifest, host, namespace,
                                          model, tag);
                }
            }
        }
    }
}

/* ------------------------------------------------------- public API */

/**
 * hr_local_models_scan:
 * @roots: where to look (hr_local_roots_new_default() for the usual places)
 * @limits: (nullable): bounds; %NULL for the defaults
 * @cancellable: (nullable): stops the scan early (the result is partial)
 *
 * Finds the models under @roots without importing them.  Missing folders
 * are not an error.  Blocking: the window calls hr_model_import_scan_async().
 *
 * Returns: (transfer full): what was found
 */
HrLocalScan *
hr_local_models_scan (HrLocalRoots             *roots,
                      const HrLocalScanLimits  *limits,
                      GCancellable             *cancellable)
{
  HrLocalScan *self;
  guint deadline_ms = limits != NULL && limits->deadline_ms > 0
                      ? limits->deadline_ms : HR_LOCAL_MODELS_DEADLINE_MS;

  g_return_val_if_fail (roots != NULL, NULL);

  self = g_object_new (HR_TYPE_LOCAL_SCAN, NULL);
  self->deadline = g_get_monotonic_time () + (gint64) deadline_ms * G_TIME_SPAN_MILLISECOND;
  self->max_entries = limits != NULL && limits->max_entries > 0
                      ? limits->max_entries : HR_LOCAL_MODELS_MAX_ENTRIES;
  if (cancellable != NULL)
    self->cancellable = g_object_ref (cancellable);

  for (guint i = 0; i < hr_local_roots_get_n (roots) && !self->truncated; i++)
    {
      HrLocalSource source;
      const char *dir = hr_local_roots_get_dir (roots, i, &source);
      g_autoptr(HrTree) tree = hr_tree_new (dir);

      if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
        continue;
      switch (source)
        {
        case HR_LOCAL_SOURCE_HUGGINGFACE:
          scan_huggingface (self, tree, dir);
          break;
        case HR_LOCAL_SOURCE_OLLAMA:
          scan_ollama (self, tree, dir);
          break;
        case HR_LOCAL_SOURCE_LMSTUDIO:
        case HR_LOCAL_SOURCE_LLAMACPP:
        default:
          walk_gguf (self, tree, source, dir, NULL, 0);
          break;
        }
    }
  return self;
}

/**
 * hr_local_scan_get_models:
 *
 * Returns: (transfer none): a list of #HrLocalModel
 */
GListModel *
hr_local_scan_get_models (HrLocalScan *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_SCAN (self), NULL);
  return G_LIST_MODEL (self->models);
}

/* Whether a bound stopped the scan (or the import after it). */
gboolean
hr_local_scan_is_truncated (HrLocalScan *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_SCAN (self), FALSE);
  return self->truncated;
}

/* Marks the result partial, with @note (nullable) saying why. */
void
hr_local_scan_set_truncated (HrLocalScan *self,
                             const char  *reason)
{
  g_return_if_fail (HR_IS_LOCAL_SCAN (self));

  self->truncated = TRUE;
  if (reason != NULL)
    note (self, "%s", reason);
}

/**
 * hr_local_scan_get_notes:
 *
 * Returns: (transfer none): what was skipped and why, %NULL-terminated
 */
const char * const *
hr_local_scan_get_notes (HrLocalScan *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_SCAN (self), NULL);
  return (const char * const *) self->notes->pdata;
}

/* The scan's deadline (monotonic time), which importing keeps to. */
gint64
hr_local_scan_get_deadline (HrLocalScan *self)
{
  g_return_val_if_fail (HR_IS_LOCAL_SCAN (self), 0);
  return self->deadline;
}
