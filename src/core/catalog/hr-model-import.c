/* hr-model-import.c — a model from a file: GGUF or Hugging Face config.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-model-import"

#include "config.h"

#include <string.h>
#include <unistd.h>

#include "hr-catalog-json.h"
#include "hr-file.h"
#include "hr-format.h"
#include "hr-gguf-model.h"
#include "hr-hf-config.h"
#include "hr-model-import.h"
#include "hr-text.h"

/* By name, or by content for a GGUF file saved under another name.  A
 * file that cannot be opened as a regular one is not judged here: the
 * config.json reader reports what it is. */
static gboolean
is_gguf_path (const char *path)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);
  guint8 magic[4];
  gsize n_read = 0;
  gboolean ok;
  int fd;

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

  if (is_gguf_path (path))
    return hr_gguf_model_load (path, error);

  return hr_hf_config_load (path, error);
}

/* ---------------------------------------------------------------------------
 * Models found on this computer
 */

/* @model under another id: the Hugging Face repository (“Qwen/Qwen3-8B”)
 * rather than the snapshot's directory name, Ollama's name (“llama3.2:1b”)
 * rather than the blob's hash. */
static HrModelSpec *
with_id (HrModelSpec  *model,
         const char   *id,
         GError      **error)
{
  g_autoptr(JsonObject) entry = NULL;

  if (g_strcmp0 (hr_model_spec_get_id (model), id) == 0)
    return g_object_ref (model);
  entry = hr_model_spec_to_json (model);
  json_object_set_string_member (entry, "id", id);
  return hr_model_spec_new_from_json (entry, hr_model_spec_get_origin (model), error);
}

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
  g_autoptr(HrModelSpec) model = NULL;
  HrLocalSource source;

  g_return_val_if_fail (HR_IS_LOCAL_MODEL (found), NULL);

  model = hr_model_import_file (hr_local_model_get_import_path (found), error);
  if (model == NULL)
    return NULL;

  source = hr_local_model_get_source (found);
  if (source == HR_LOCAL_SOURCE_OLLAMA ||
      (source == HR_LOCAL_SOURCE_HUGGINGFACE &&
       g_strcmp0 (hr_local_model_get_format (found), "gguf") != 0))
    return with_id (model, hr_local_model_get_name (found), error);
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
 * The readable summary
 */

static void
row (GString    *out,
     const char *label,
     const char *format,
     ...) G_GNUC_PRINTF (3, 4);

static void
row (GString    *out,
     const char *label,
     const char *format,
     ...)
{
  g_autofree char *value = NULL;
  va_list args;

  va_start (args, format);
  value = g_strdup_vprintf (format, args);
  va_end (args);
  g_string_append_printf (out, "  %-17s %s\n", label, value);
}

static gint64
int_member (JsonObject *object,
            const char *member)
{
  return json_object_get_int_member_with_default (object, member, 0);
}

static double
number_member (JsonObject *object,
               const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return 0;
  return json_node_get_double (node);
}

static const char *
string_member (JsonObject *object,
               const char *member)
{
  return json_object_get_string_member_with_default (object, member, NULL);
}

static void
summarise_attention (GString    *out,
                     JsonObject *m)
{
  const char *kind = string_member (m, "attention");
  gint64 heads = int_member (m, "heads");
  gint64 kv = int_member (m, "kv_heads");
  gint64 head_dim = int_member (m, "head_dim");
  gint64 head_dim_v = int_member (m, "head_dim_v");
  g_autofree char *upper = g_ascii_strup (kind != NULL ? kind : "?", -1);

  if (g_strcmp0 (kind, "mla") == 0)
    {
      g_autofree char *q = NULL;

      if (int_member (m, "q_lora_rank") > 0)
        q = g_strdup_printf (", query rank %" G_GINT64_FORMAT, int_member (m, "q_lora_rank"));
      row (out, "Attention", "MLA, %" G_GINT64_FORMAT " heads; cache: latent %"
           G_GINT64_FORMAT " + RoPE %" G_GINT64_FORMAT " per token and layer "
           "(head sizes %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT "%s)",
           heads, int_member (m, "kv_lora_rank"), int_member (m, "qk_rope_head_dim"),
           head_dim, head_dim_v, q != NULL ? q : "");
      return;
    }

  if (head_dim_v != 0 && head_dim_v != head_dim)
    row (out, "Attention", "%s, %" G_GINT64_FORMAT " query heads, %" G_GINT64_FORMAT
         " KV heads, head size %" G_GINT64_FORMAT " (values %" G_GINT64_FORMAT ")",
         upper, heads, kv, head_dim, head_dim_v);
  else
    row (out, "Attention", "%s, %" G_GINT64_FORMAT " query heads, %" G_GINT64_FORMAT
         " KV heads, head size %" G_GINT64_FORMAT, upper, heads, kv, head_dim);
}

static void
summarise_window (GString    *out,
                  JsonObject *m)
{
  gint64 window = int_member (m, "sliding_window");
  gint64 period = int_member (m, "swa_period");
  gint64 layers = int_member (m, "layers");
  g_autofree char *tokens = NULL;

  if (window <= 0)
    return;
  tokens = hr_format_tokens ((guint64) window);
  if (period == 0)
    row (out, "Sliding window", "%s tokens on every layer", tokens);
  else if (period == 2)
    row (out, "Sliding window", "%s tokens on every other layer", tokens);
  else
    row (out, "Sliding window", "%s tokens on %" G_GINT64_FORMAT " of every %"
         G_GINT64_FORMAT " layers (%" G_GINT64_FORMAT " of %" G_GINT64_FORMAT ")",
         tokens, period - 1, period, layers - layers / period, layers);
}

/* The catalog entry, as a person reads it. */
static void
summarise_model (GString    *out,
                 JsonObject *m)
{
  double params = number_member (m, "params");
  double active = number_member (m, "active_params");
  gint64 experts = int_member (m, "experts");
  gint64 dense = int_member (m, "dense_layers");
  g_autofree char *name = hr_text_escape_line (string_member (m, "name"), -1);
  g_autofree char *id = hr_text_escape_line (string_member (m, "id"), -1);
  g_autofree char *total_text = hr_format_params (params);
  g_autofree char *exact = hr_format_tokens ((guint64) params);
  g_autofree char *vocab = hr_format_tokens ((guint64) int_member (m, "vocab"));
  g_autofree char *context = hr_format_tokens ((guint64) int_member (m, "max_context"));
  g_autofree char *context_short =
    hr_format_context_short ((guint64) int_member (m, "max_context"));

  if (g_strcmp0 (name, id) == 0)
    row (out, "Model", "%s", name);
  else
    row (out, "Model", "%s (id %s)", name, id);
  row (out, "Architecture", "%s", string_member (m, "architecture"));

  if (experts > 0)
    {
      g_autofree char *active_text = hr_format_params (active);

      row (out, "Parameters", "%s (%s), %s active per token", total_text, exact, active_text);
    }
  else
    row (out, "Parameters", "%s (%s)", total_text, exact);

  if (dense > 0)
    row (out, "Layers", "%" G_GINT64_FORMAT " (%" G_GINT64_FORMAT " dense, %" G_GINT64_FORMAT
         " with experts)", int_member (m, "layers"), dense, int_member (m, "layers") - dense);
  else
    row (out, "Layers", "%" G_GINT64_FORMAT, int_member (m, "layers"));
  row (out, "Hidden size", "%" G_GINT64_FORMAT, int_member (m, "hidden"));
  summarise_attention (out, m);
  summarise_window (out, m);

  if (experts > 0)
    {
      g_autofree char *shared = NULL;

      if (int_member (m, "shared_experts") > 0)
        shared = g_strdup_printf (", %" G_GINT64_FORMAT " shared",
                                  int_member (m, "shared_experts"));
      row (out, "Experts", "%" G_GINT64_FORMAT " routed, %" G_GINT64_FORMAT " per token%s; "
           "%" G_GINT64_FORMAT " wide", experts, int_member (m, "experts_active"),
           shared != NULL ? shared : "", int_member (m, "expert_intermediate"));
    }
  row (out, "FFN", "%" G_GINT64_FORMAT " (%s)", int_member (m, "intermediate"),
       g_strcmp0 (string_member (m, "mlp"), "plain") == 0 ? "plain" : "gated");
  row (out, "Vocabulary", "%s", vocab);
  row (out, "Trained context", "%s tokens (%s)", context, context_short);
  row (out, "Embeddings", "%s",
       json_object_get_boolean_member_with_default (m, "tied_embeddings", FALSE)
       ? "tied to the output head" : "separate output head");
}

typedef struct
{
  const char *type;
  guint64 bytes;
} TypeBytes;

static int
compare_bytes (gconstpointer a,
               gconstpointer b)
{
  const TypeBytes *x = a, *y = b;

  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  return strcmp (x->type, y->type);
}

static char *
summarise_gguf (JsonObject *d)
{
  GString *out = g_string_new (NULL);
  JsonObject *model = json_object_get_object_member (d, "model");
  JsonObject *types = json_object_get_object_member (d, "bytes_by_type");
  JsonArray *notes = json_object_get_array_member (d, "notes");
  g_autofree char *file = hr_text_escape_line (string_member (d, "file"), -1);
  g_autofree char *arch = hr_text_escape_line (string_member (d, "architecture"), -1);
  g_autofree char *file_size = hr_format_size ((guint64) int_member (d, "file_bytes"),
                                               HR_UNITS_BINARY);
  guint64 weights = (guint64) int_member (d, "weights_bytes");
  g_autofree char *weights_size = hr_format_size (weights, HR_UNITS_BINARY);
  double params = number_member (model, "params");
  gint64 shards = int_member (d, "n_shards");
  g_autoptr(GArray) by_type = g_array_new (FALSE, FALSE, sizeof (TypeBytes));
  JsonObjectIter iter;
  const char *type;
  JsonNode *node;

  g_string_append_printf (out, "%s\n", file);
  row (out, "Format", "GGUF v%" G_GINT64_FORMAT ", %s, llama.cpp architecture “%s”",
       int_member (d, "gguf_version"),
       string_member (d, "file_type") != NULL ? string_member (d, "file_type")
                                              : "file type not recorded",
       arch);
  if (shards > 1)
    row (out, "Size", "%s in %" G_GINT64_FORMAT " shards", file_size, shards);
  else
    row (out, "Size", "%s", file_size);
  row (out, "Weights", "%s in %" G_GINT64_FORMAT " tensors, %.2f bits per parameter",
       weights_size, int_member (d, "tensor_count"),
       params > 0 ? (double) weights * 8.0 / params : 0.0);

  /* Largest share first. */
  json_object_iter_init_ordered (&iter, types);
  while (json_object_iter_next_ordered (&iter, &type, &node))
    {
      TypeBytes tb = { type, (guint64) json_node_get_int (node) };

      g_array_append_val (by_type, tb);
    }
  g_array_sort (by_type, compare_bytes);
  for (guint i = 0; i < by_type->len; i++)
    {
      const TypeBytes *tb = &g_array_index (by_type, TypeBytes, i);
      g_autofree char *size = hr_format_size (tb->bytes, HR_UNITS_BINARY);
      g_autofree char *share = hr_format_percent (weights > 0 ? (double) tb->bytes / weights
                                                              : 0, 1);

      g_string_append_printf (out, "    %-10s %s  (%s)\n", tb->type, size, share);
    }

  summarise_model (out, model);

  for (guint i = 0; i < json_array_get_length (notes); i++)
    {
      g_autofree char *text = hr_text_escape_line (json_array_get_string_element (notes, i), -1);

      g_string_append_printf (out, "  Note: %s\n", text);
    }
  return g_string_free (out, FALSE);
}

static char *
to_json_text (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}

/**
 * hr_model_import_inspect:
 * @path: a .gguf file or a Hugging Face config.json
 * @json: print JSON rather than a readable summary
 * @error: return location for an error, whose message starts with @path
 *
 * What `headroom-cli inspect` prints.  For a GGUF file, the JSON is
 * hr_gguf_model_describe()'s; for a config.json, the catalog entry.
 * Nothing is printed unless the whole file could be read.
 *
 * Returns: %TRUE on success
 */
gboolean
hr_model_import_inspect (const char  *path,
                         gboolean     json,
                         GError     **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (path != NULL, FALSE);

  if (is_gguf_path (path))
    {
      node = hr_gguf_model_describe_file (path, error);
      if (node == NULL)
        return FALSE;
      text = json ? to_json_text (node) : summarise_gguf (json_node_get_object (node));
    }
  else
    {
      g_autoptr(HrModelSpec) model = hr_hf_config_load (path, error);
      JsonObject *object;

      if (model == NULL)
        return FALSE;
      object = hr_model_spec_to_json (model);
      node = json_node_init_object (json_node_alloc (), object);
      json_object_unref (object);
      if (json)
        text = to_json_text (node);
      else
        {
          GString *out = g_string_new (NULL);
          g_autofree char *display = hr_text_display_path (path);

          g_string_append_printf (out, "%s\n", display);
          row (out, "Format", "Hugging Face config.json");
          summarise_model (out, object);
          text = g_string_free (out, FALSE);
        }
    }

  /* The summary already ends with a newline. */
  if (json)
    g_print ("%s\n", text);
  else
    g_print ("%s", text);
  return TRUE;
}
