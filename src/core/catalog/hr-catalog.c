/* hr-catalog.c — models, devices, precisions and KV types
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The built-in catalog is JSON compiled into the GResource.  Users add
 * files of the same schema in $XDG_DATA_HOME/headroom/; an entry whose id
 * matches a built-in one replaces it.  A malformed user file never takes
 * the built-in catalog down: its problems are collected, each naming the
 * file, the entry and the field, and the valid entries still load.
 */

#define G_LOG_DOMAIN "hr-catalog"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

#include "hr-catalog.h"
#include "hr-catalog-json.h"
#include "hr-file.h"
#include "hr-json-load.h"
#include "hr-text.h"

#define CATALOG_RESOURCE_PATH "/io/github/headroom_app/Headroom/catalog/"

/* The largest user catalog file read.  Loading is linear in the size
 * (tests/bench/bench-catalog), but json-glib builds a tree of the whole
 * document first, and that tree is what bounds the size: a file of empty
 * objects ("[{},{},…]") costs about 100 bytes of memory per byte of file,
 * 1.7 GB for 16 MiB (the limit this replaces).  1 MiB keeps any file
 * under about 100 MB; it is 19 times the largest built-in file (the
 * 55 KB of hardware.json) and holds some 700 imported models. */
#define CATALOG_MAX_FILE_BYTES (1024 * 1024)

struct _HrCatalog
{
  GObject parent_instance;

  GListStore *models;
  GListStore *hardware;
  GListStore *precisions;
  GListStore *kv_types;
  GListStore *cpus;
  GPtrArray *tier_ladder;   /* of HrHardware */
  GPtrArray *problems;      /* of char *, NULL-terminated */
  GHashTable *imported;     /* lower-case ids of models from imported-models.json */
  GHashTable *positions;    /* position_key() → index of the entry in its store */
};

G_DEFINE_FINAL_TYPE (HrCatalog, hr_catalog, G_TYPE_OBJECT)

static const char * const builtin_files[] = {
  "models.json",
  "hardware.json",
  "precisions.json",
  "cpus.json",
};

typedef gpointer (*EntryParser) (JsonObject *object, HrOrigin origin, GError **error);
typedef const char *(*EntryId) (gpointer item);

static gpointer
parse_model (JsonObject *object, HrOrigin origin, GError **error)
{
  return hr_model_spec_new_from_json (object, origin, error);
}

static gpointer
parse_hardware (JsonObject *object, HrOrigin origin, GError **error)
{
  return hr_hardware_new_from_json (object, error);
}

static gpointer
parse_cpu (JsonObject *object, HrOrigin origin, GError **error)
{
  return hr_cpu_new_from_json (object, error);
}

static gpointer
parse_precision (JsonObject *object, HrOrigin origin, GError **error)
{
  return hr_precision_new_from_json (object, error);
}

static gpointer
parse_kv_type (JsonObject *object, HrOrigin origin, GError **error)
{
  return hr_kv_type_new_from_json (object, error);
}

typedef struct
{
  const char *member;
  EntryParser parse;
  EntryId get_id;
  gsize store_offset;
} Section;

static const Section sections[] = {
  { "models", parse_model, (EntryId) hr_model_spec_get_id,
    G_STRUCT_OFFSET (HrCatalog, models) },
  { "hardware", parse_hardware, (EntryId) hr_hardware_get_id,
    G_STRUCT_OFFSET (HrCatalog, hardware) },
  { "precisions", parse_precision, (EntryId) hr_precision_get_id,
    G_STRUCT_OFFSET (HrCatalog, precisions) },
  { "kv_types", parse_kv_type, (EntryId) hr_kv_type_get_id,
    G_STRUCT_OFFSET (HrCatalog, kv_types) },
  { "cpus", parse_cpu, (EntryId) hr_cpu_get_id,
    G_STRUCT_OFFSET (HrCatalog, cpus) },
};

#define SECTION_STORE(self, section) \
  (*(GListStore **) ((guint8 *) (self) + (section)->store_offset))

static void
hr_catalog_dispose (GObject *object)
{
  HrCatalog *self = (HrCatalog *) object;

  g_clear_object (&self->models);
  g_clear_object (&self->hardware);
  g_clear_object (&self->precisions);
  g_clear_object (&self->kv_types);
  g_clear_object (&self->cpus);
  g_clear_pointer (&self->tier_ladder, g_ptr_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->imported, g_hash_table_unref);
  g_clear_pointer (&self->positions, g_hash_table_unref);

  G_OBJECT_CLASS (hr_catalog_parent_class)->dispose (object);
}

static void
hr_catalog_class_init (HrCatalogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = hr_catalog_dispose;
}

static void
hr_catalog_init (HrCatalog *self)
{
  self->models = g_list_store_new (HR_TYPE_MODEL_SPEC);
  self->hardware = g_list_store_new (HR_TYPE_HARDWARE);
  self->precisions = g_list_store_new (HR_TYPE_PRECISION);
  self->kv_types = g_list_store_new (HR_TYPE_KV_TYPE);
  self->cpus = g_list_store_new (HR_TYPE_CPU);
  self->tier_ladder = g_ptr_array_new_with_free_func (g_object_unref);
  self->problems = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->problems, NULL);
  self->imported = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->positions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

HrCatalog *
hr_catalog_new (void)
{
  return g_object_new (HR_TYPE_CATALOG, NULL);
}

/* The key of an entry in self->positions: the store, the id in lower
 * case (ids are case-insensitive, as Hugging Face's are). */
static char *
position_key (GListStore *store,
              const char *id)
{
  g_autofree char *lower = g_ascii_strdown (id, -1);

  return g_strdup_printf ("%p:%s", (void *) store, lower);
}

/* Where the entry @id is in @store.  self->positions answers at once: a
 * linear search for each entry made loading quadratic (a 16 MiB user
 * file of devices with a tier ladder, or an imported-models.json of
 * 37,000 models, took minutes). */
static gboolean
find_in_store (HrCatalog  *self,
               GListStore *store,
               const char *id,
               guint      *position)
{
  g_autofree char *key = NULL;
  gpointer value;

  if (id == NULL)
    return FALSE;
  key = position_key (store, id);
  if (!g_hash_table_lookup_extended (self->positions, key, NULL, &value))
    return FALSE;
  *position = GPOINTER_TO_UINT (value);
  return TRUE;
}

/* Adds @item, or replaces the entry of the same id in place. */
static void
put_entry (HrCatalog  *self,
           GListStore *store,
           EntryId     get_id,
           gpointer    item)
{
  const char *id = get_id (item);
  guint position;

  if (find_in_store (self, store, id, &position))
    {
      g_list_store_splice (store, position, 1, &item, 1);
      return;
    }
  position = g_list_model_get_n_items (G_LIST_MODEL (store));
  g_hash_table_insert (self->positions, position_key (store, id), GUINT_TO_POINTER (position));
  g_list_store_append (store, item);
}

/* Removes the entry at @position, whose id is @id; the entries after it
 * move up one place (a removal is one user action, not a load: the walk
 * is fine). */
static void
remove_entry (HrCatalog  *self,
              GListStore *store,
              EntryId     get_id,
              const char *id,
              guint       position)
{
  g_autofree char *key = position_key (store, id);
  guint n;

  g_hash_table_remove (self->positions, key);
  g_list_store_remove (store, position);
  n = g_list_model_get_n_items (G_LIST_MODEL (store));
  for (guint i = position; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (store), i);

      g_hash_table_insert (self->positions, position_key (store, get_id (item)),
                           GUINT_TO_POINTER (i));
    }
}

/* Adds or replaces; within one file an id may appear only once. */
static gboolean
add_entry (HrCatalog   *self,
           GListStore  *store,
           EntryId      get_id,
           gpointer     item,
           GHashTable  *seen_in_file,
           GError     **error)
{
  const char *id = get_id (item);
  g_autofree char *key = g_ascii_strdown (id, -1);

  if (g_hash_table_contains (seen_in_file, key))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_DUPLICATE,
                   "id “%s” appears twice in this file", id);
      return FALSE;
    }
  g_hash_table_add (seen_in_file, g_steal_pointer (&key));
  put_entry (self, store, get_id, item);
  return TRUE;
}

static void
add_problem (HrCatalog  *self,
             const char *message)
{
  /* Shown as is by the CLI and the window, so one displayable line. */
  char *line = hr_text_escape_line (message, -1);

  /* Keep the array NULL-terminated for hr_catalog_get_problems(). */
  g_ptr_array_insert (self->problems, self->problems->len - 1, line);
  g_debug ("%s", line);
}

/* The ladder of devices the Matrix names tiers by.  Every element is
 * checked before the built-in ladder is touched: a ladder that is
 * rejected (not an array, empty, an element that is not the id of a known
 * device) leaves the one there was.  On error, *@detail says why, without
 * the file name. */
static gboolean
load_tier_ladder (HrCatalog   *self,
                  JsonObject  *root,
                  char       **detail)
{
  g_autoptr(GPtrArray) ladder = NULL;
  JsonNode *node = json_object_get_member (root, "tier_ladder");
  JsonArray *array;
  guint n;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node) ||
      (n = json_array_get_length (array = json_node_get_array (node))) == 0)
    {
      *detail = g_strdup ("“tier_ladder” must be a non-empty array of hardware ids");
      return FALSE;
    }

  ladder = g_ptr_array_new_full (n, g_object_unref);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      HrHardware *hw = NULL;

      if (json_node_get_value_type (element) == G_TYPE_STRING)
        hw = hr_catalog_find_hardware (self, json_node_get_string (element));
      if (hw == NULL)
        {
          *detail = g_strdup_printf ("tier_ladder[%u] is not a known hardware id", i);
          return FALSE;
        }
      g_ptr_array_add (ladder, g_object_ref (hw));
    }

  g_ptr_array_set_size (self->tier_ladder, 0);
  g_ptr_array_extend_and_steal (self->tier_ladder, g_steal_pointer (&ladder));
  return TRUE;
}

/* What went wrong in one file: a bad file of 21,000 entries printed
 * 21,000 warnings (one of 16 MiB, 5.6 million), in the terminal and in
 * the memory of the window.  A file gets one line: the first problem,
 * and how many there were. */
typedef struct
{
  guint n_entries;     /* entries rejected */
  guint n_other;       /* sections and the tier ladder */
  char *first;         /* the first problem, without the file name */
  int first_code;      /* its HrCatalogError */
} FileProblems;

static void
file_problems_clear (FileProblems *fp)
{
  g_clear_pointer (&fp->first, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FileProblems, file_problems_clear)

/* Notes a problem; @detail (transfer full) is kept only if it is the
 * first. */
static void
file_problems_add (FileProblems *fp,
                   gboolean      entry,
                   int           code,
                   char         *detail)
{
  if (entry)
    fp->n_entries++;
  else
    fp->n_other++;
  if (fp->first == NULL)
    {
      fp->first = detail;
      fp->first_code = code;
    }
  else
    g_free (detail);
}

/* The one line of @file_name's problems. */
static char *
file_problems_summary (const FileProblems *fp,
                       const char         *file_name)
{
  guint total = fp->n_entries + fp->n_other;
  g_autofree char *count = NULL;

  if (total == 1)
    return g_strdup_printf ("%s: %s", file_name, fp->first);
  if (fp->n_other == 0)
    count = g_strdup_printf ("%u entries rejected", fp->n_entries);
  else if (fp->n_entries == 0)
    count = g_strdup_printf ("%u problems", fp->n_other);
  else
    count = g_strdup_printf ("%u entries rejected and %u other problems",
                             fp->n_entries, fp->n_other);
  return g_strdup_printf ("%s: %s; the first: %s", file_name, count, fp->first);
}

/* Adds the entries of one document, or reports why it could not be
 * read (@root %NULL, @read_error set); see hr_catalog_load_data(). */
static gboolean
load_root (HrCatalog   *self,
           JsonNode    *root,
           GError      *read_error,
           const char  *path,
           HrOrigin     origin,
           GError     **error)
{
  g_auto(FileProblems) problems = { 0 };
  g_autofree char *file_name = NULL;
  g_autofree char *ladder_detail = NULL;
  g_autofree char *summary = NULL;
  JsonObject *object;

  if (root == NULL)
    {
      add_problem (self, read_error->message);
      g_propagate_error (error, g_error_copy (read_error));
      return FALSE;
    }

  file_name = hr_text_display_path (path);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_autofree char *message =
        g_strdup_printf ("%s: the top level must be an object with “models”, "
                         "“hardware”, “precisions” or “kv_types” arrays", file_name);

      add_problem (self, message);
      g_set_error_literal (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID, message);
      return FALSE;
    }
  object = json_node_get_object (root);

  for (guint s = 0; s < G_N_ELEMENTS (sections); s++)
    {
      const Section *section = &sections[s];
      g_autoptr(GHashTable) seen = NULL;
      JsonNode *node = json_object_get_member (object, section->member);
      JsonArray *array;

      if (node == NULL)
        continue;
      if (!JSON_NODE_HOLDS_ARRAY (node))
        {
          file_problems_add (&problems, FALSE, HR_CATALOG_ERROR_INVALID,
                             g_strdup_printf ("“%s” must be an array", section->member));
          continue;
        }

      array = json_node_get_array (node);
      seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          g_autoptr(GError) entry_error = NULL;
          g_autoptr(GObject) item = NULL;
          JsonNode *id = NULL;

          if (JSON_NODE_HOLDS_OBJECT (element))
            {
              JsonObject *entry = json_node_get_object (element);

              id = json_object_get_member (entry, "id");
              item = section->parse (entry, origin, &entry_error);
              if (item != NULL &&
                  add_entry (self, SECTION_STORE (self, section), section->get_id,
                             item, seen, &entry_error))
                continue;
            }
          else
            g_set_error_literal (&entry_error, HR_CATALOG_ERROR,
                                 HR_CATALOG_ERROR_INVALID, "entry is not an object");

          /* Only the first rejected entry is described: the others are
           * counted, so that a file of a million bad entries costs no
           * million messages. */
          if (problems.first == NULL && id != NULL &&
              json_node_get_value_type (id) == G_TYPE_STRING)
            {
              /* Quoted in the message, so escaped: it is the file's text. */
              g_autofree char *entry_id = hr_text_escape_line (json_node_get_string (id), -1);

              file_problems_add (&problems, TRUE, entry_error->code,
                                 g_strdup_printf ("%s[%u] (“%s”): %s", section->member, i,
                                                  entry_id, entry_error->message));
            }
          else if (problems.first == NULL)
            file_problems_add (&problems, TRUE, entry_error->code,
                               g_strdup_printf ("%s[%u]: %s", section->member, i,
                                                entry_error->message));
          else
            file_problems_add (&problems, TRUE, 0, NULL);
        }
    }

  if (!load_tier_ladder (self, object, &ladder_detail))
    file_problems_add (&problems, FALSE, HR_CATALOG_ERROR_INVALID,
                       g_steal_pointer (&ladder_detail));

  if (problems.first == NULL)
    return TRUE;

  summary = file_problems_summary (&problems, file_name);
  add_problem (self, summary);
  if (error != NULL)
    {
      /* The first problem, as one displayable line naming the file. */
      g_autofree char *first = g_strdup_printf ("%s: %s", file_name, problems.first);
      g_autofree char *line = hr_text_escape_line (first, -1);

      g_set_error_literal (error, HR_CATALOG_ERROR, problems.first_code, line);
    }
  return FALSE;
}

/**
 * hr_catalog_load_data:
 * @length: the size of @data, or -1 if it is NUL-terminated
 * @file_name: named in error messages
 *
 * Loads one catalog document.  If the document cannot be parsed, nothing
 * is added and %FALSE is returned.  Otherwise every valid entry is added;
 * invalid ones are skipped, the first reported in @error, and %FALSE is
 * returned.  hr_catalog_get_problems() gets one line for the document
 * however many problems it has: the first, and how many there were.
 * Every message starts with @file_name and is one displayable line.
 */
gboolean
hr_catalog_load_data (HrCatalog   *self,
                      const char  *data,
                      gssize       length,
                      const char  *file_name,
                      HrOrigin     origin,
                      GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (HR_IS_CATALOG (self), FALSE);
  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (file_name != NULL, FALSE);

  root = hr_json_load_data (data, length < 0 ? strlen (data) : (gsize) length, file_name,
                            &local_error);
  return load_root (self, root, local_error, file_name, origin, error);
}

gboolean
hr_catalog_load_builtin (HrCatalog  *self,
                         GError    **error)
{
  g_return_val_if_fail (HR_IS_CATALOG (self), FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (builtin_files); i++)
    {
      g_autofree char *path = g_strconcat (CATALOG_RESOURCE_PATH, builtin_files[i], NULL);
      g_autoptr(GBytes) bytes = NULL;
      gsize size;
      const char *data;

      bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
      if (bytes == NULL)
        return FALSE;
      data = g_bytes_get_data (bytes, &size);
      if (!hr_catalog_load_data (self, data, size, builtin_files[i],
                                 HR_ORIGIN_BUILTIN, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * hr_catalog_load_file:
 * @path: a user catalog file
 *
 * As hr_catalog_load_data() for the contents of @path.  Whatever @path
 * is — missing, a directory, a FIFO, a symlink loop, too large — the
 * answer is %FALSE and a problem naming it, never a hang or a crash.
 */
gboolean
hr_catalog_load_file (HrCatalog   *self,
                      const char  *path,
                      GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (HR_IS_CATALOG (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  root = hr_json_load_file (path, CATALOG_MAX_FILE_BYTES, &local_error);
  return load_root (self, root, local_error, path, HR_ORIGIN_USER, error);
}

/* The files of the user directory that Headroom writes (imports, devices
 * added in the editor); the user's own files there are never rewritten. */
#define IMPORTED_FILE_NAME "imported-models.json"

/* An empty object; json_node_init_object() would take a second
 * reference to a new object, which then leaks. */
static JsonNode *
new_document (void)
{
  JsonNode *root = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (root, json_object_new ());
  return root;
}

/* What a user file holds now.  %TRUE with *@root set to use it, or to a
 * new document when there is no file or when it is broken, which
 * *@broken then says how; %FALSE for a file that cannot be read and must
 * not be replaced either (a directory, a FIFO, no permission). */
static gboolean
read_user_file (const char  *path,
                const char  *section,
                JsonNode   **root,
                char       **broken,
                GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  JsonNode *array;

  *broken = NULL;
  *root = hr_json_load_file (path, CATALOG_MAX_FILE_BYTES, &local_error);
  if (*root == NULL &&
      g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    {
      *root = new_document ();
      return TRUE;
    }
  if (*root == NULL && local_error->domain == G_FILE_ERROR &&
      local_error->code != G_FILE_ERROR_FAILED)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  /* Parsed: an object whose section, if any, is an array, as written. */
  if (*root != NULL && JSON_NODE_HOLDS_OBJECT (*root))
    {
      array = json_object_get_member (json_node_get_object (*root), section);
      if (array == NULL || JSON_NODE_HOLDS_ARRAY (array))
        return TRUE;
    }

  if (local_error != NULL)
    *broken = g_strdup (local_error->message);
  else
    *broken = g_strdup_printf ("it is not an object with a “%s” array", section);
  g_clear_pointer (root, json_node_unref);
  *root = new_document ();
  return TRUE;
}

/* Replaces the entry @id of @section in the user file @file_name of @dir
 * by @entry, or removes it when @entry is %NULL, and writes the file with
 * hr_file_write_atomic(): on disk it is either the old file or the whole
 * new one.  Entries this version does not understand stay.  A file that
 * cannot be parsed is never overwritten: it is moved aside
 * (hr_file_move_aside()), named in *@kept_as, and a new file started;
 * or, without @move_broken_aside, refused and left as it is. */
static gboolean
update_user_file (const char  *dir,
                  const char  *file_name,
                  const char  *section,
                  const char  *id,
                  JsonObject  *entry,
                  gboolean     move_broken_aside,
                  char       **kept_as,
                  GError     **error)
{
  g_autofree char *path = g_build_filename (dir, file_name, NULL);
  g_autofree char *text = NULL;
  g_autofree char *broken = NULL;
  g_autofree char *aside = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonObject *object;
  JsonArray *array;
  gsize length;

  if (kept_as != NULL)
    *kept_as = NULL;
  if (!read_user_file (path, section, &root, &broken, &local_error))
    goto failed;

  object = json_node_get_object (root);
  if (!json_object_has_member (object, section))
    json_object_set_array_member (object, section, json_array_new ());
  array = json_object_get_array_member (object, section);

  /* Replace an earlier entry of the same id; entries without a string
   * id are not ours to judge, and stay. */
  for (guint i = json_array_get_length (array); i-- > 0;)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonNode *other;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      other = json_object_get_member (json_node_get_object (element), "id");
      if (other != NULL && json_node_get_value_type (other) == G_TYPE_STRING &&
          g_ascii_strcasecmp (json_node_get_string (other), id) == 0)
        json_array_remove_element (array, i);
    }
  if (entry != NULL)
    json_array_add_object_element (array, json_object_ref (entry));

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;
      g_autofree char *display = hr_text_display_path (dir);

      g_set_error (&local_error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "%s: %s", display, g_strerror (saved));
      goto failed;
    }

  /* Where the user edits entries by hand (custom devices), a broken file
   * is refused rather than moved. */
  if (broken != NULL && !move_broken_aside)
    {
      g_autofree char *display = hr_text_display_path (path);

      g_set_error (&local_error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: not a catalog file (%s); fix or remove it first", display, broken);
      goto failed;
    }
  if (broken != NULL)
    {
      aside = hr_file_move_aside (path, &local_error);
      if (aside == NULL)
        goto failed;
      g_debug ("%s was broken (%s); kept as %s", path, broken, aside);
    }

  text = hr_json_to_data (root, &length);
  if (!hr_file_write_atomic (path, text, length, &local_error))
    goto failed;

  if (kept_as != NULL)
    *kept_as = g_steal_pointer (&aside);
  return TRUE;

failed:
  hr_text_sanitize_error (local_error);
  g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

/**
 * hr_catalog_import_model_full:
 * @dir: the user directory (hr_catalog_dup_user_dir() in the app)
 * @kept_as: (out) (optional) (transfer full): where a broken
 *   imported-models.json was moved, or %NULL if it was not
 *
 * Adds @model to the catalog (replacing an entry with the same id) and
 * records it in @dir/imported-models.json, written with
 * hr_file_write_atomic(): the file on disk is either the old one or the
 * complete new one.  Earlier imports are kept, entries this version does
 * not understand included.  A file that cannot be parsed is never
 * overwritten: it is moved aside (hr_file_move_aside()), named in
 * *@kept_as, and a new file started.  On error the catalog is left
 * unchanged.
 */
gboolean
hr_catalog_import_model_full (HrCatalog    *self,
                              HrModelSpec  *model,
                              const char   *dir,
                              char        **kept_as,
                              GError      **error)
{
  g_autoptr(JsonObject) entry = NULL;

  g_return_val_if_fail (HR_IS_CATALOG (self), FALSE);
  g_return_val_if_fail (HR_IS_MODEL_SPEC (model), FALSE);
  g_return_val_if_fail (dir != NULL, FALSE);

  entry = hr_model_spec_to_json (model);
  if (!update_user_file (dir, IMPORTED_FILE_NAME, "models",
                         hr_model_spec_get_id (model), entry, TRUE, kept_as, error))
    return FALSE;

  g_hash_table_add (self->imported, g_ascii_strdown (hr_model_spec_get_id (model), -1));
  put_entry (self, self->models, (EntryId) hr_model_spec_get_id, model);
  return TRUE;
}

/**
 * hr_catalog_is_imported_model:
 *
 * Whether the model @id came from the user's imports (imported this run
 * or loaded from imported-models.json by hr_catalog_load_user_dir()).
 */
gboolean
hr_catalog_is_imported_model (HrCatalog  *self,
                              const char *id)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (HR_IS_CATALOG (self), FALSE);

  if (id == NULL)
    return FALSE;
  key = g_ascii_strdown (id, -1);
  return g_hash_table_contains (self->imported, key);
}

/**
 * hr_catalog_remove_imported_model:
 * @dir: the user directory (hr_catalog_dup_user_dir() in the app)
 *
 * Removes the imported model @id from the catalog and from
 * @dir/imported-models.json, written with hr_file_write_atomic(); the
 * other entries stay; a built-in model the import had replaced comes
 * back.  A file that cannot be parsed is refused, not replaced.  Models of the built-in catalog or of the user's own files
 * cannot be removed.  On error nothing changes.
 */
gboolean
hr_catalog_remove_imported_model (HrCatalog   *self,
                                  const char  *id,
                                  const char  *dir,
                                  GError     **error)
{
  g_autofree char *key = NULL;
  guint position;

  g_return_val_if_fail (HR_IS_CATALOG (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);
  g_return_val_if_fail (dir != NULL, FALSE);

  if (!hr_catalog_is_imported_model (self, id))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "“%s” is not an imported model", id);
      return FALSE;
    }
  if (!update_user_file (dir, IMPORTED_FILE_NAME, "models", id, NULL, FALSE, NULL, error))
    return FALSE;

  key = g_ascii_strdown (id, -1);
  g_hash_table_remove (self->imported, key);
  if (find_in_store (self, self->models, id, &position))
    {
      /* An import that replaced a built-in model gives it back. */
      g_autoptr(HrCatalog) builtin = hr_catalog_new ();
      HrModelSpec *original = NULL;

      if (hr_catalog_load_builtin (builtin, NULL))
        original = hr_catalog_find_model (builtin, id);
      if (original != NULL)
        g_list_store_splice (self->models, position, 1, (gpointer *) &original, 1);
      else
        remove_entry (self, self->models, (EntryId) hr_model_spec_get_id, id, position);
    }
  return TRUE;
}

/**
 * hr_catalog_import_model:
 *
 * hr_catalog_import_model_full() for callers that do not say where a
 * broken file went.
 */
gboolean
hr_catalog_import_model (HrCatalog    *self,
                         HrModelSpec  *model,
                         const char   *dir,
                         GError      **error)
{
  return hr_catalog_import_model_full (self, model, dir, NULL, error);
}

/**
 * hr_catalog_add_hardware:
 *
 * Adds @hardware to this catalog only (nothing is written), replacing an
 * entry with the same id: a detected device that the catalog does not
 * know, so that it can be picked like any other.
 */
void
hr_catalog_add_hardware (HrCatalog  *self,
                         HrHardware *hardware)
{
  g_return_if_fail (HR_IS_CATALOG (self));
  g_return_if_fail (HR_IS_HARDWARE (hardware));

  put_entry (self, self->hardware, (EntryId) hr_hardware_get_id, hardware);
}

/**
 * hr_catalog_save_custom_hardware:
 * @hardware: a device with hr_hardware_is_custom() (hr_hardware_new_from_fields()
 *   with custom set)
 * @dir: the user directory (hr_catalog_dup_user_dir() in the app)
 *
 * Adds @hardware to the catalog, or replaces the custom device with the
 * same id, and records it in @dir/custom-devices.json (the schema of the
 * built-in hardware.json), written atomically.  A custom device may not
 * take the id of a device it did not add.  On error nothing changes.
 */
gboolean
hr_catalog_save_custom_hardware (HrCatalog   *self,
                                 HrHardware  *hardware,
                                 const char  *dir,
                                 GError     **error)
{
  g_autoptr(JsonObject) entry = NULL;
  HrHardware *existing;

  g_return_val_if_fail (HR_IS_CATALOG (self), FALSE);
  g_return_val_if_fail (HR_IS_HARDWARE (hardware), FALSE);
  g_return_val_if_fail (dir != NULL, FALSE);

  if (!hr_hardware_is_custom (hardware))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "“%s” is not a custom device", hr_hardware_get_id (hardware));
      return FALSE;
    }
  existing = hr_catalog_find_hardware (self, hr_hardware_get_id (hardware));
  if (existing != NULL && !hr_hardware_is_custom (existing))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_DUPLICATE,
                   "the id “%s” belongs to a catalog device", hr_hardware_get_id (hardware));
      return FALSE;
    }

  entry = hr_hardware_to_json (hardware);
  if (!update_user_file (dir, HR_CUSTOM_DEVICES_FILE, "hardware",
                         hr_hardware_get_id (hardware), entry, FALSE, NULL, error))
    return FALSE;

  hr_catalog_add_hardware (self, hardware);
  return TRUE;
}

/**
 * hr_catalog_remove_custom_hardware:
 *
 * Removes the custom device @id from the catalog and from
 * @dir/custom-devices.json.  Catalog devices cannot be removed.
 */
gboolean
hr_catalog_remove_custom_hardware (HrCatalog   *self,
                                   const char  *id,
                                   const char  *dir,
                                   GError     **error)
{
  HrHardware *existing;
  guint position;

  g_return_val_if_fail (HR_IS_CATALOG (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);
  g_return_val_if_fail (dir != NULL, FALSE);

  existing = hr_catalog_find_hardware (self, id);
  if (existing == NULL || !hr_hardware_is_custom (existing))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "“%s” is not a custom device", id);
      return FALSE;
    }

  if (!update_user_file (dir, HR_CUSTOM_DEVICES_FILE, "hardware", id, NULL, FALSE, NULL,
                         error))
    return FALSE;

  if (find_in_store (self, self->hardware, id, &position))
    remove_entry (self, self->hardware, (EntryId) hr_hardware_get_id, id, position);
  return TRUE;
}

/**
 * hr_catalog_dup_custom_hardware_id:
 * @name: the device's name as the user typed it
 *
 * A free id for a new custom device: “custom-” and the name in lower case
 * with runs of other characters as “-”, with “-2”, “-3”… when taken.
 */
char *
hr_catalog_dup_custom_hardware_id (HrCatalog  *self,
                                   const char *name)
{
  g_autoptr(GString) slug = g_string_new ("custom-");
  g_autofree char *base = NULL;
  gboolean dash = FALSE;

  g_return_val_if_fail (HR_IS_CATALOG (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (const char *p = name; *p != '\0'; p++)
    {
      if (g_ascii_isalnum (*p))
        {
          if (dash && slug->len > strlen ("custom-"))
            g_string_append_c (slug, '-');
          g_string_append_c (slug, g_ascii_tolower (*p));
          dash = FALSE;
        }
      else
        dash = TRUE;
    }
  if (slug->len == strlen ("custom-"))
    g_string_append (slug, "device");

  base = g_strdup (slug->str);
  for (guint n = 2; hr_catalog_find_hardware (self, slug->str) != NULL; n++)
    g_string_printf (slug, "%s-%u", base, n);
  return g_string_free (g_steal_pointer (&slug), FALSE);
}

char *
hr_catalog_dup_user_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "headroom", NULL);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* Records the ids of the models @path (imported-models.json) added. */
static void
mark_imported (HrCatalog  *self,
               const char *path)
{
  g_autoptr(JsonNode) root = hr_json_load_file (path, CATALOG_MAX_FILE_BYTES, NULL);
  JsonNode *models;
  JsonArray *array;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return;
  models = json_object_get_member (json_node_get_object (root), "models");
  if (models == NULL || !JSON_NODE_HOLDS_ARRAY (models))
    return;
  array = json_node_get_array (models);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonNode *id;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      id = json_object_get_member (json_node_get_object (element), "id");
      if (id != NULL && json_node_get_value_type (id) == G_TYPE_STRING &&
          hr_catalog_find_model (self, json_node_get_string (id)) != NULL)
        g_hash_table_add (self->imported, g_ascii_strdown (json_node_get_string (id), -1));
    }
}

/**
 * hr_catalog_load_user_dir:
 *
 * Loads every `*.json` in @dir in name order.  A missing directory is not
 * an error.  Returns the number of files that loaded without a problem.
 */
guint
hr_catalog_load_user_dir (HrCatalog  *self,
                          const char *dir)
{
  g_autoptr(GDir) handle = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  guint loaded = 0;

  g_return_val_if_fail (HR_IS_CATALOG (self), 0);
  g_return_val_if_fail (dir != NULL, 0);

  handle = g_dir_open (dir, 0, NULL);
  if (handle == NULL)
    return 0;

  while ((name = g_dir_read_name (handle)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, names->pdata[i], NULL);

      if (hr_catalog_load_file (self, path, NULL))
        loaded++;
      if (g_str_equal (names->pdata[i], IMPORTED_FILE_NAME))
        mark_imported (self, path);
    }
  return loaded;
}

/**
 * hr_catalog_new_default:
 *
 * The built-in catalog plus the user's files.  The built-in data is part
 * of the program: failing to load it is a build error, caught by tests.
 */
HrCatalog *
hr_catalog_new_default (void)
{
  g_autoptr(HrCatalog) self = hr_catalog_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = hr_catalog_dup_user_dir ();

  if (!hr_catalog_load_builtin (self, &error))
    g_critical ("Built-in catalog is broken: %s", error->message);

  hr_catalog_load_user_dir (self, dir);
  return g_steal_pointer (&self);
}

/**
 * hr_catalog_get_default:
 *
 * The process-wide catalog (built-in plus the user's files), loaded on
 * first use.  Models the user imports are added to it.
 *
 * Returns: (transfer none): the default catalog
 */
HrCatalog *
hr_catalog_get_default (void)
{
  static HrCatalog *instance;

  if (g_once_init_enter (&instance))
    g_once_init_leave (&instance, hr_catalog_new_default ());
  return instance;
}

const char * const *
hr_catalog_get_problems (HrCatalog *self)
{
  g_return_val_if_fail (HR_IS_CATALOG (self), NULL);
  return (const char * const *) self->problems->pdata;
}

GListModel *
hr_catalog_get_models (HrCatalog *self)
{
  g_return_val_if_fail (HR_IS_CATALOG (self), NULL);
  return G_LIST_MODEL (self->models);
}

GListModel *
hr_catalog_get_hardware (HrCatalog *self)
{
  g_return_val_if_fail (HR_IS_CATALOG (self), NULL);
  return G_LIST_MODEL (self->hardware);
}

GListModel *
hr_catalog_get_precisions (HrCatalog *self)
{
  g_return_val_if_fail (HR_IS_CATALOG (self), NULL);
  return G_LIST_MODEL (self->precisions);
}

GListModel *
hr_catalog_get_kv_types (HrCatalog *self)
{
  g_return_val_if_fail (HR_IS_CATALOG (self), NULL);
  return G_LIST_MODEL (self->kv_types);
}

GPtrArray *
hr_catalog_get_tier_ladder (HrCatalog *self)
{
  g_return_val_if_fail (HR_IS_CATALOG (self), NULL);
  return self->tier_ladder;
}

/* Returns a borrowed pointer: the catalog keeps its items alive. */
static gpointer
find (HrCatalog  *self,
      GListStore *store,
      const char *id)
{
  guint position;
  g_autoptr(GObject) item = NULL;

  if (!find_in_store (self, store, id, &position))
    return NULL;
  item = g_list_model_get_item (G_LIST_MODEL (store), position);
  return item;
}

HrModelSpec *
hr_catalog_find_model (HrCatalog  *self,
                       const char *id)
{
  g_return_val_if_fail (HR_IS_CATALOG (self), NULL);
  return find (self, self->models, id);
}

HrHardware *
hr_catalog_find_hardware (HrCatalog  *self,
                          const char *id)
{
  g_return_val_if_fail (HR_IS_CATALOG (self), NULL);
  return find (self, self->hardware, id);
}

HrPrecision *
hr_catalog_find_precision (HrCatalog  *self,
                           const char *id)
{
  g_return_val_if_fail (HR_IS_CATALOG (self), NULL);
  return find (self, self->precisions, id);
}

HrKvType *
hr_catalog_find_kv_type (HrCatalog  *self,
                         const char *id)
{
  g_return_val_if_fail (HR_IS_CATALOG (self), NULL);
  return find (self, self->kv_types, id);
}

HrCpu *
hr_catalog_find_cpu (HrCatalog  *self,
                     const char *id)
{
  g_return_val_if_fail (HR_IS_CATALOG (self), NULL);
  return find (self, self->cpus, id);
}

GListModel *
hr_catalog_get_cpus (HrCatalog *self)
{
  g_return_val_if_fail (HR_IS_CATALOG (self), NULL);
  return G_LIST_MODEL (self->cpus);
}
