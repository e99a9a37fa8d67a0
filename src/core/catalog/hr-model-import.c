/* hr-model-import.c — a model from a file: GGUF or Hugging Face config.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-model-import"

#include "config.h"

#include <string.h>
#include <unistd.h>

#include "hr-file.h"
#include "hr-gguf-model.h"
#include "hr-hf-config.h"
#include "hr-model-import.h"
#include "hr-text.h"

/**
 * hr_model_import_is_gguf:
 * @path: a model file
 *
 * By name, or by content for a GGUF file saved under another name.  A
 * file that cannot be opened as a regular one is not judged here: the
 * config.json reader reports what it is.
 *
 * Returns: whether @path is read as a GGUF file
 */
gboolean
hr_model_import_is_gguf (const char *path)
{
  g_autofree char *lower = NULL;
  guint8 magic[4];
  gsize n_read = 0;
  gboolean ok;
  int fd;

  g_return_val_if_fail (path != NULL, FALSE);

  lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".gguf"))
    return TRUE;

  fd = hr_file_open_regular (path, 0, NULL, NULL);
  if (fd < 0)
    return FALSE;
  ok = hr_file_read_fd (fd, magic, sizeof magic, &n_read, path, NULL);
  close (fd);
  return ok && n_read == sizeof magic && memcmp (magic, "GGUF", sizeof magic) == 0;
}

/**
 * hr_model_import_shape:
 * @shape: what a reader made of @path
 * @path: the file, for the messages
 * @error: return location for an error, whose message starts with @path
 *
 * The user model of a shape: hr_model_spec_new_from_shape(), the one
 * writer both importers share, with the file named in its messages.
 *
 * Returns: (transfer full): the model, or %NULL with @error set
 */
HrModelSpec *
hr_model_import_shape (const HrModelShape  *shape,
                       const char          *path,
                       GError             **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *display = NULL;
  HrModelSpec *spec;

  g_return_val_if_fail (shape != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  spec = hr_model_spec_new_from_shape (shape, HR_ORIGIN_USER, &local_error);
  if (spec != NULL)
    {
      hr_model_spec_set_disk_path (spec, path);
      return spec;
    }

  display = hr_text_display_path (path);
  g_set_error (error, local_error->domain, local_error->code,
               "%s: %s", display, local_error->message);
  if (error != NULL)
    hr_text_sanitize_error (*error);
  return NULL;
}

static gboolean
read_gguf_shape (const char    *path,
                 HrModelShape  *shape,
                 GError       **error)
{
  g_autoptr(HrGguf) gguf = NULL;

  hr_model_shape_init (shape);
  gguf = hr_gguf_open (path, error);
  if (gguf == NULL)
    return FALSE;
  return hr_gguf_model_read_shape (gguf, path, shape, error);
}

static gboolean
read_file_shape (const char    *path,
                 HrModelShape  *shape,
                 GError       **error)
{
  if (hr_model_import_is_gguf (path))
    return read_gguf_shape (path, shape, error);
  return hr_hf_config_read_file (path, shape, error);
}

/**
 * hr_model_import_gguf:
 * @path: a .gguf file, or any shard of a split model
 * @error: return location for an error, whose message starts with @path
 *
 * Reads the header of @path (all shards) into a user model.
 *
 * Returns: (transfer full): the model, or %NULL with @error set
 */
HrModelSpec *
hr_model_import_gguf (const char  *path,
                      GError     **error)
{
  g_auto(HrModelShape) shape = { NULL };

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!read_gguf_shape (path, &shape, error))
    return NULL;
  return hr_model_import_shape (&shape, path, error);
}

/**
 * hr_model_import_hf_config:
 * @path: a checkpoint's config.json
 * @error: return location for an error, whose message starts with @path
 *
 * Reads a config.json into a user model.
 *
 * Returns: (transfer full): the model, or %NULL with @error set
 */
HrModelSpec *
hr_model_import_hf_config (const char  *path,
                           GError     **error)
{
  g_auto(HrModelShape) shape = { NULL };

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!hr_hf_config_read_file (path, &shape, error))
    return NULL;
  return hr_model_import_shape (&shape, path, error);
}

/**
 * hr_model_import_file:
 * @path: a .gguf file or a Hugging Face config.json
 * @error: return location for an error, whose message starts with @path
 *   and is one displayable line
 *
 * Returns: (transfer full): the model, or %NULL with @error set
 */
HrModelSpec *
hr_model_import_file (const char  *path,
                      GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);

  if (hr_model_import_is_gguf (path))
    return hr_model_import_gguf (path, error);

  return hr_model_import_hf_config (path, error);
}

/* ---------------------------------------------------------------------------
 * Models found on this computer
 */

/**
 * hr_model_import_local:
 * @found: a model that hr_local_models_scan() found
 *
 * Imports @found as a dropped file would be (its config.json or GGUF
 * file).  Models from the Hugging Face cache take the repository's id and
 * Ollama's their name in Ollama; GGUF files keep the importer's id.
 *
 * Returns: (transfer full): the model, or %NULL with @error set
 */
HrModelSpec *
hr_model_import_local (HrLocalModel  *found,
                       GError       **error)
{
  g_auto(HrModelShape) shape = { NULL };
  g_autoptr(HrModelSpec) model = NULL;
  const char *path;
  const char *id;
  HrLocalSource source;

  g_return_val_if_fail (HR_IS_LOCAL_MODEL (found), NULL);

  path = hr_local_model_get_import_path (found);
  if (!read_file_shape (path, &shape, error))
    return NULL;
  model = hr_model_import_shape (&shape, path, error);
  if (model == NULL)
    return NULL;

  source = hr_local_model_get_source (found);
  id = hr_local_model_get_name (found);
  if ((source == HR_LOCAL_SOURCE_OLLAMA ||
       (source == HR_LOCAL_SOURCE_HUGGINGFACE &&
        g_strcmp0 (hr_local_model_get_format (found), "gguf") != 0)) &&
      g_strcmp0 (hr_model_spec_get_id (model), id) != 0)
    {
      /* The same shape under the other id; only the id can be refused
       * now, and its message names the field, not the file. */
      g_free (shape.id);
      shape.id = g_strdup (id);
      g_clear_object (&model);
      model = hr_model_spec_new_from_shape (&shape, HR_ORIGIN_USER, error);
      if (model != NULL)
        hr_model_spec_set_disk_path (model, path);
    }
  return g_steal_pointer (&model);
}

/**
 * hr_model_import_found:
 *
 * Imports every model of @scan, until the scan's deadline: each gets its
 * model (hr_local_model_get_model()) or the reason it has none
 * (hr_local_model_get_error()).  Past the deadline, the rest are left
 * unread and the scan is marked partial.
 */
void
hr_model_import_found (HrLocalScan  *scan,
                       GCancellable *cancellable)
{
  GListModel *models;

  g_return_if_fail (HR_IS_LOCAL_SCAN (scan));

  models = hr_local_scan_get_models (scan);
  for (guint i = 0; i < g_list_model_get_n_items (models); i++)
    {
      g_autoptr(HrLocalModel) found = g_list_model_get_item (models, i);
      g_autoptr(HrModelSpec) model = NULL;
      g_autoptr(GError) error = NULL;

      if (g_get_monotonic_time () > hr_local_scan_get_deadline (scan) ||
          g_cancellable_is_cancelled (cancellable))
        {
          if (!hr_local_scan_is_truncated (scan))
            hr_local_scan_set_truncated (scan, "stopped reading the models at the time "
                                         "limit; the rest were not read");
          hr_local_model_set_error (found, "not read: the scan's time limit was reached");
          continue;
        }

      model = hr_model_import_local (found, &error);
      if (model != NULL)
        hr_local_model_set_model (found, model);
      else
        hr_local_model_set_error (found, error->message);
    }
}

/**
 * hr_model_import_scan:
 * @roots: (nullable): where to look; %NULL for the usual places
 * @limits: (nullable): bounds; %NULL for the defaults
 *
 * Finds the models on this computer and imports them, all within the
 * scan's deadline.  Blocking: the window calls hr_model_import_scan_async().
 *
 * Returns: (transfer full): the models found, imported or with a reason
 */
HrLocalScan *
hr_model_import_scan (HrLocalRoots            *roots,
                      const HrLocalScanLimits *limits,
                      GCancellable            *cancellable)
{
  g_autoptr(HrLocalRoots) defaults = NULL;
  HrLocalScan *scan;

  if (roots == NULL)
    roots = defaults = hr_local_roots_new_default ();
  scan = hr_local_models_scan (roots, limits, cancellable);
  hr_model_import_found (scan, cancellable);
  return scan;
}

typedef struct
{
  HrLocalRoots *roots;
  HrLocalScanLimits limits;
  gboolean has_limits;
} ScanData;

static void
scan_data_free (ScanData *data)
{
  hr_local_roots_free (data->roots);
  g_free (data);
}

static void
scan_in_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  ScanData *data = task_data;

  g_task_return_pointer (task,
                         hr_model_import_scan (data->roots,
                                               data->has_limits ? &data->limits : NULL,
                                               cancellable),
                         g_object_unref);
}

/**
 * hr_model_import_scan_async:
 *
 * hr_model_import_scan() in a worker thread.  The models it returns are
 * not in any catalog: the window adds the ones it shows.
 */
void
hr_model_import_scan_async (HrLocalRoots            *roots,
                            const HrLocalScanLimits *limits,
                            GCancellable            *cancellable,
                            GAsyncReadyCallback      callback,
                            gpointer                 user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  ScanData *data = g_new0 (ScanData, 1);

  data->roots = roots != NULL ? hr_local_roots_copy (roots) : hr_local_roots_new_default ();
  if (limits != NULL)
    {
      data->limits = *limits;
      data->has_limits = TRUE;
    }
  g_task_set_source_tag (task, hr_model_import_scan_async);
  g_task_set_task_data (task, data, (GDestroyNotify) scan_data_free);
  g_task_run_in_thread (task, scan_in_thread);
}

/**
 * hr_model_import_scan_finish:
 *
 * Returns: (transfer full): the scan; %NULL only when cancelled
 */
HrLocalScan *
hr_model_import_scan_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_model_import_scan_async,
                        NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---------------------------------------------------------------------------
 * Models on the hub
 */

/**
 * hr_model_import_hub:
 * @ref: a repository, or a GGUF file in one
 * @mode: whether hr_hub_read_shape() may use the network
 * @cancellable: (nullable): stops a fetch
 * @bytes_fetched: (out) (optional): bytes received from the network
 * @error: one displayable line naming @ref
 *
 * A user model from the hub's config.json or GGUF header, as
 * hr_model_import_file() makes one from the same file on disk (it has no
 * disk path: nothing of it is on this computer but the cache).
 *
 * Returns: (transfer full): the model, or %NULL with @error set
 */
HrModelSpec *
hr_model_import_hub (const HrHubRef  *ref,
                     HrHubMode        mode,
                     GCancellable    *cancellable,
                     guint64         *bytes_fetched,
                     GError         **error)
{
  g_auto(HrModelShape) shape = { NULL };
  g_autoptr(GError) local_error = NULL;
  g_autofree char *id = NULL;
  HrModelSpec *spec;

  g_return_val_if_fail (ref != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!hr_hub_read_shape (ref, mode, cancellable, NULL, NULL, bytes_fetched, &shape, error))
    return NULL;
  spec = hr_model_spec_new_from_shape (&shape, HR_ORIGIN_USER, &local_error);
  if (spec != NULL)
    return spec;
  id = hr_hub_ref_to_string (ref);
  g_set_error (error, local_error->domain, local_error->code, "%s: %s", id, local_error->message);
  if (error != NULL)
    hr_text_sanitize_error (*error);
  return NULL;
}

typedef struct
{
  HrHubRef ref;
  HrHubMode mode;
} HubData;

static void
hub_data_free (HubData *data)
{
  hr_hub_ref_clear (&data->ref);
  g_free (data);
}

static void
hub_in_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  HubData *data = task_data;
  GError *error = NULL;
  HrModelSpec *spec = hr_model_import_hub (&data->ref, data->mode, cancellable, NULL, &error);

  if (spec != NULL)
    g_task_return_pointer (task, spec, g_object_unref);
  else
    g_task_return_error (task, error);
}

/**
 * hr_model_import_hub_async:
 *
 * hr_model_import_hub() in a worker thread; cancelling @cancellable stops
 * the request under way.
 */
void
hr_model_import_hub_async (const HrHubRef      *ref,
                           HrHubMode            mode,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  HubData *data = g_new0 (HubData, 1);

  data->ref.repo = g_strdup (ref->repo);
  data->ref.revision = g_strdup (ref->revision);
  data->ref.file = g_strdup (ref->file);
  data->mode = mode;
  g_task_set_source_tag (task, hr_model_import_hub_async);
  g_task_set_task_data (task, data, (GDestroyNotify) hub_data_free);
  g_task_run_in_thread (task, hub_in_thread);
}

HrModelSpec *
hr_model_import_hub_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_model_import_hub_async,
                        NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
