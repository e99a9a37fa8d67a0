/* hr-model-inspect.c — what `headroom-cli inspect` prints about a model file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-model-inspect"

#include "config.h"

#include <string.h>

#include "hr-format.h"
#include "hr-gguf-model.h"
#include "hr-json-load.h"
#include "hr-model-import.h"
#include "hr-model-inspect.h"
#include "hr-text.h"

/* "layer_kinds" (docs/CLI.md "Additions"), as estimate --json has it:
 * the layers of each kind the file's model has. */
static JsonObject *
layer_kinds (const HrModelArch *arch)
{
  JsonObject *o = json_object_new ();

  json_object_set_int_member (o, "attention", hr_model_arch_global_layers (arch));
  json_object_set_int_member (o, "sliding", hr_model_arch_local_layers (arch));
  json_object_set_int_member (o, "recurrent", arch->n_state_layers);
  if (arch->state_kind == HR_STATE_NONE)
    json_object_set_null_member (o, "recurrent_kind");
  else
    json_object_set_string_member (o, "recurrent_kind",
                                   hr_state_kind_to_string (arch->state_kind));
  json_object_set_boolean_member (o, "parallel", arch->state_parallel);
  return o;
}

/**
 * hr_model_inspect_describe_gguf:
 * @gguf: a header read with hr_gguf_open()
 * @path: the file it was read from
 * @error: return location for an error, whose message starts with @path
 *
 * What `headroom-cli inspect --json` prints for a GGUF file: the file's
 * facts (hr_gguf_model_facts()), the catalog entry it maps to under
 * "model", and "notes" on what the entry simplifies.  Only what the
 * catalog would accept is shown as its entry.
 *
 * Returns: (transfer full): a JSON object node, or %NULL with @error set
 */
JsonNode *
hr_model_inspect_describe_gguf (HrGguf      *gguf,
                                const char  *path,
                                GError     **error)
{
  g_auto(HrModelShape) shape = { NULL };
  g_autoptr(HrModelSpec) spec = NULL;
  JsonObject *out;
  JsonArray *notes;
  JsonNode *node;

  g_return_val_if_fail (gguf != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!hr_gguf_model_read_shape (gguf, path, &shape, error))
    return NULL;
  spec = hr_model_import_shape (&shape, path, error);
  if (spec == NULL)
    return NULL;

  out = hr_gguf_model_facts (gguf, path);
  /* Printed: the one place besides the user's file an entry is written. */
  json_object_set_object_member (out, "model", hr_model_spec_to_json (spec));
  json_object_set_object_member (out, "layer_kinds",
                                 layer_kinds (hr_model_spec_get_arch (spec)));
  notes = json_array_new ();
  for (guint i = 0; shape.notes != NULL && i < shape.notes->len; i++)
    json_array_add_string_element (notes, g_ptr_array_index (shape.notes, i));
  json_object_set_array_member (out, "notes", notes);

  node = json_node_alloc ();
  json_node_take_object (node, out);
  return node;
}

/* Not static only for the tests and the fuzz target. */
JsonNode *
hr_model_inspect_describe_gguf_file (const char  *path,
                                     GError     **error)
{
  g_autoptr(HrGguf) gguf = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  gguf = hr_gguf_open (path, error);
  if (gguf == NULL)
    return NULL;
  return hr_model_inspect_describe_gguf (gguf, path, error);
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
  return hr_json_to_data (node, NULL);
}

/**
 * hr_model_inspect:
 * @path: a .gguf file or a Hugging Face config.json
 * @json: print JSON rather than a readable summary
 * @error: return location for an error, whose message starts with @path
 *
 * What `headroom-cli inspect` prints.  For a GGUF file, the JSON is
 * hr_model_inspect_describe_gguf()'s; for a config.json, the catalog entry.
 * Nothing is printed unless the whole file could be read.
 *
 * Returns: %TRUE on success
 */
gboolean
hr_model_inspect (const char  *path,
                  gboolean     json,
                  GError     **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (path != NULL, FALSE);

  if (hr_model_import_is_gguf (path))
    {
      node = hr_model_inspect_describe_gguf_file (path, error);
      if (node == NULL)
        return FALSE;
      text = json ? to_json_text (node) : summarise_gguf (json_node_get_object (node));
    }
  else
    {
      g_autoptr(HrModelSpec) model = hr_model_import_hf_config (path, error);
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
