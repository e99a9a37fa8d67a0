/* test-gguf-model.c — GGUF headers mapped onto catalog models
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Small GGUF files are written in code, with tensor tables shaped like
 * llama.cpp's for each architecture (tiny dimensions; the data is a hole
 * in a sparse file).  Each test tallies the elements and bytes of the
 * tensors it writes, independently of the reader, and checks every
 * member of the catalog entry, the exact parameter counts, the file's
 * own facts and what `inspect --json` prints.
 */

#define G_LOG_DOMAIN "test-gguf-model"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "gguf-writer.h"
#include "hr-catalog-json.h"
#include "hr-gguf-model.h"
#include "hr-model-import.h"
#include "hr-model-inspect.h"
#include "hr-scenario.h"
#include "hr-test-util.h"
#include "hr-weights.h"

/* ---------------------------------------------------------------------------
 * Building models
 */

typedef struct
{
  char *dir;
} Fixture;

typedef struct
{
  GHashTable *shapes;                     /* name → "d0 d1 …", when not NULL */
  guint64 params;                         /* elements, rope_freqs aside */
  guint64 expert_elements;                /* routed experts only */
  guint64 weights_bytes;
  guint64 by_type[HR_GGML_TYPE_LIMIT];
} Tally;

/* Block sizes from ggml's block structs, written out independently of
 * the reader's table: (elements per block, bytes per block). */
static guint64
type_bytes (guint32 type,
            guint64 elements)
{
  switch (type)
    {
    case HR_GGML_TYPE_F32:
      return elements * 4;
    case HR_GGML_TYPE_F16:
      return elements * 2;
    case HR_GGML_TYPE_Q8_0:
      g_assert_cmpuint (elements % 32, ==, 0);
      return elements / 32 * 34;
    case HR_GGML_TYPE_Q4_K:
      g_assert_cmpuint (elements % 256, ==, 0);
      return elements / 256 * 144;
    case HR_GGML_TYPE_Q6_K:
      g_assert_cmpuint (elements % 256, ==, 0);
      return elements / 256 * 210;
    default:
      g_assert_not_reached ();
    }
}

/* Adds a tensor of up to three dimensions (0 ends the list). */
static void
add (HrGgufWriter *w,
     Tally        *tally,
     const char   *name,
     guint32       type,
     guint64       d0,
     guint64       d1,
     guint64       d2)
{
  guint64 dims[3] = { d0, d1, d2 };
  guint32 n_dims = d2 != 0 ? 3 : d1 != 0 ? 2 : 1;
  guint64 elements = 1;
  guint64 bytes;

  for (guint32 d = 0; d < n_dims; d++)
    elements *= dims[d];
  bytes = type_bytes (type, elements);

  hr_gguf_writer_add_tensor (w, name, type, n_dims, dims, bytes);
  if (tally->shapes != NULL)
    {
      GString *shape = g_string_new (NULL);

      for (guint32 d = 0; d < n_dims; d++)
        g_string_append_printf (shape, "%s%" G_GUINT64_FORMAT, d > 0 ? " " : "", dims[d]);
      g_hash_table_insert (tally->shapes, g_strdup (name), g_string_free (shape, FALSE));
    }
  if (strcmp (name, "rope_freqs.weight") != 0)
    tally->params += elements;
  if (strstr (name, "_exps.") != NULL)
    tally->expert_elements += elements;
  tally->weights_bytes += bytes;
  tally->by_type[type] += bytes;
}

static void
add_blk (HrGgufWriter *w,
         Tally        *tally,
         guint         layer,
         const char   *suffix,
         guint32       type,
         guint64       d0,
         guint64       d1,
         guint64       d2)
{
  g_autofree char *name = g_strdup_printf ("blk.%u.%s", layer, suffix);

  add (w, tally, name, type, d0, d1, d2);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  user_data)
{
  fixture->dir = hr_test_make_temp_dir ("test-gguf-model");
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  user_data)
{
  hr_test_remove_temp_dir (fixture->dir);
  g_free (fixture->dir);
}

/* With HR_FUZZ_CORPUS_DIR set, every model's header is also saved there:
 * the seeds of tests/fuzz/corpus-gguf-model (see tests/fuzz/README.md). */
static void
save_seed (const char   *name,
           HrGgufWriter *w)
{
  const char *dir = g_getenv ("HR_FUZZ_CORPUS_DIR");
  g_autoptr(GBytes) header = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (dir == NULL)
    return;
  header = hr_gguf_writer_build_header (w);
  path = g_build_filename (dir, name, NULL);
  g_file_set_contents (path, g_bytes_get_data (header, NULL), g_bytes_get_size (header),
                       &error);
  g_assert_no_error (error);
}

static char *
write_model (Fixture      *fixture,
             const char   *name,
             HrGgufWriter *w)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (fixture->dir, name, NULL);

  hr_gguf_writer_write_file (w, path, &error);
  g_assert_no_error (error);
  save_seed (name, w);
  return path;
}

/* ---------------------------------------------------------------------------
 * Checking entries
 */

/* The catalog entry a file's model writes: read into a shape, made a
 * model without JSON, which must read back from its entry unchanged. */
static JsonObject *
entry_for (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = hr_gguf_open (path, &error);
  g_auto(HrModelShape) shape = { NULL };
  g_autoptr(HrModelSpec) spec = NULL;

  g_assert_no_error (error);
  hr_gguf_model_read_shape (gguf, path, &shape, &error);
  g_assert_no_error (error);
  spec = hr_model_spec_new_from_shape (&shape, HR_ORIGIN_USER, &error);
  g_assert_no_error (error);
  g_assert_nonnull (spec);
  hr_test_assert_round_trip (spec);
  return hr_model_spec_to_json (spec);
}

static void
assert_int (JsonObject *entry,
            const char *member,
            gint64      expected)
{
  if (!json_object_has_member (entry, member))
    g_error ("member “%s” is missing, expected %" G_GINT64_FORMAT, member, expected);
  if (json_object_get_int_member (entry, member) != expected)
    g_error ("member “%s” is %" G_GINT64_FORMAT ", expected %" G_GINT64_FORMAT, member,
             json_object_get_int_member (entry, member), expected);
}

static void
assert_absent (JsonObject *entry,
               const char *member)
{
  if (json_object_has_member (entry, member))
    g_error ("member “%s” should be absent", member);
}

static void
assert_string (JsonObject *entry,
               const char *member,
               const char *expected)
{
  g_assert_true (json_object_has_member (entry, member));
  g_assert_cmpstr (json_object_get_string_member (entry, member), ==, expected);
}

/* The file facts every entry carries, against the writer's tally. */
static void
assert_file_facts (JsonObject  *entry,
                   const char  *path,
                   const Tally *tally,
                   const char  *file_type)
{
  JsonObject *types = json_object_get_object_member (entry, "weights_by_type");
  guint n_types = 0;

  assert_string (entry, "source", path);
  assert_string (entry, "file_path", path);
  if (file_type != NULL)
    assert_string (entry, "file_type", file_type);
  else
    assert_absent (entry, "file_type");
  assert_int (entry, "file_weights_bytes", (gint64) tally->weights_bytes);

  g_assert_nonnull (types);
  for (guint32 t = 0; t < HR_GGML_TYPE_LIMIT; t++)
    {
      if (tally->by_type[t] == 0)
        continue;
      assert_int (types, hr_ggml_type_name (t), (gint64) tally->by_type[t]);
      n_types++;
    }
  g_assert_cmpuint (json_object_get_size (types), ==, n_types);
}

/* The entry must be one the catalog accepts, and read back the same. */
static HrModelSpec *
assert_valid (JsonObject *entry)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModelSpec) spec = hr_model_spec_new_from_json (entry, HR_ORIGIN_USER, &error);
  g_autoptr(JsonObject) written = NULL;
  g_autoptr(HrModelSpec) again = NULL;
  g_autoptr(JsonNode) a = NULL;
  g_autoptr(JsonNode) b = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (spec);

  written = hr_model_spec_to_json (spec);
  again = hr_model_spec_new_from_json (written, HR_ORIGIN_USER, &error);
  g_assert_no_error (error);
  a = json_node_init_object (json_node_alloc (), written);
  b = json_node_init_object (json_node_alloc (), hr_model_spec_to_json (again));
  json_object_unref (json_node_get_object (b));
  g_assert_true (json_node_equal (a, b));

  return g_steal_pointer (&spec);
}

/* ---------------------------------------------------------------------------
 * Llama: grouped-query attention, untied, K-quants
 */

#define L_LAYERS 2
#define L_HIDDEN 256
#define L_HEADS 8
#define L_KV 2
#define L_HEAD_DIM 32
#define L_FFN 512
#define L_VOCAB 64

/* Metadata keys that a test may want to change or leave out. */
typedef struct
{
  const char *arch;
  gboolean no_block_count;
  gboolean kv_array;
  const guint32 *kv_values;     /* with kv_array */
  gsize n_kv_values;
  gboolean no_file_type;
  const char *arch_value;       /* general.architecture, if not arch */
  const char *name;             /* general.name, if not Tiny Llama */
} LlamaOptions;

static void
add_llama_keys (HrGgufWriter       *w,
                const LlamaOptions *o)
{
  const char *arch = o != NULL && o->arch != NULL ? o->arch : "llama";
  g_autofree char *k_blocks = g_strdup_printf ("%s.block_count", arch);
  g_autofree char *k_ctx = g_strdup_printf ("%s.context_length", arch);
  g_autofree char *k_embd = g_strdup_printf ("%s.embedding_length", arch);
  g_autofree char *k_ffn = g_strdup_printf ("%s.feed_forward_length", arch);
  g_autofree char *k_heads = g_strdup_printf ("%s.attention.head_count", arch);
  g_autofree char *k_kv = g_strdup_printf ("%s.attention.head_count_kv", arch);
  g_autofree char *k_rope = g_strdup_printf ("%s.rope.dimension_count", arch);

  hr_gguf_writer_add_string (w, "general.architecture",
                             o != NULL && o->arch_value != NULL ? o->arch_value : arch);
  hr_gguf_writer_add_string (w, "general.name",
                             o != NULL && o->name != NULL ? o->name : "Tiny Llama");
  if (o == NULL || !o->no_file_type)
    hr_gguf_writer_add_uint32 (w, "general.file_type", 15);
  hr_gguf_writer_add_uint32 (w, "general.quantization_version", 2);
  if (o == NULL || !o->no_block_count)
    hr_gguf_writer_add_uint32 (w, k_blocks, L_LAYERS);
  hr_gguf_writer_add_uint32 (w, k_ctx, 8192);
  hr_gguf_writer_add_uint32 (w, k_embd, L_HIDDEN);
  hr_gguf_writer_add_uint32 (w, k_ffn, L_FFN);
  hr_gguf_writer_add_uint32 (w, k_heads, L_HEADS);
  if (o != NULL && o->kv_array)
    hr_gguf_writer_add_array (w, k_kv, HR_GGUF_TYPE_UINT32, o->kv_values, o->n_kv_values);
  else
    hr_gguf_writer_add_uint32 (w, k_kv, L_KV);
  hr_gguf_writer_add_uint32 (w, k_rope, L_HEAD_DIM);
  hr_gguf_writer_add_float32 (w, "llama.rope.freq_base", 500000.0f);
  hr_gguf_writer_add_tokens (w, L_VOCAB);
}

static void
add_llama_layer (HrGgufWriter *w,
                 Tally        *t,
                 guint         l)
{
  add_blk (w, t, l, "attn_norm.weight", HR_GGML_TYPE_F32, L_HIDDEN, 0, 0);
  add_blk (w, t, l, "attn_q.weight", HR_GGML_TYPE_Q4_K, L_HIDDEN, L_HEADS * L_HEAD_DIM, 0);
  add_blk (w, t, l, "attn_k.weight", HR_GGML_TYPE_Q4_K, L_HIDDEN, L_KV * L_HEAD_DIM, 0);
  add_blk (w, t, l, "attn_v.weight", HR_GGML_TYPE_Q6_K, L_HIDDEN, L_KV * L_HEAD_DIM, 0);
  add_blk (w, t, l, "attn_output.weight", HR_GGML_TYPE_Q4_K, L_HEADS * L_HEAD_DIM, L_HIDDEN, 0);
  add_blk (w, t, l, "ffn_norm.weight", HR_GGML_TYPE_F32, L_HIDDEN, 0, 0);
  add_blk (w, t, l, "ffn_gate.weight", HR_GGML_TYPE_Q4_K, L_HIDDEN, L_FFN, 0);
  add_blk (w, t, l, "ffn_up.weight", HR_GGML_TYPE_Q4_K, L_HIDDEN, L_FFN, 0);
  add_blk (w, t, l, "ffn_down.weight", HR_GGML_TYPE_Q6_K, L_FFN, L_HIDDEN, 0);
}

static HrGgufWriter *
llama_writer (const LlamaOptions *o,
              Tally              *t)
{
  HrGgufWriter *w = hr_gguf_writer_new (3);

  memset (t, 0, sizeof *t);
  add_llama_keys (w, o);
  add (w, t, "token_embd.weight", HR_GGML_TYPE_Q4_K, L_HIDDEN, L_VOCAB, 0);
  add (w, t, "rope_freqs.weight", HR_GGML_TYPE_F32, L_HEAD_DIM / 2, 0, 0);
  for (guint l = 0; l < L_LAYERS; l++)
    add_llama_layer (w, t, l);
  add (w, t, "output_norm.weight", HR_GGML_TYPE_F32, L_HIDDEN, 0, 0);
  add (w, t, "output.weight", HR_GGML_TYPE_Q6_K, L_HIDDEN, L_VOCAB, 0);
  return w;
}

/* The same count by the formula, independently of the tally. */
#define L_PARAMS (2 * L_HIDDEN * L_VOCAB + L_HIDDEN + \
                  L_LAYERS * (2 * L_HIDDEN + \
                              2 * L_HIDDEN * L_HEADS * L_HEAD_DIM + \
                              2 * L_HIDDEN * L_KV * L_HEAD_DIM + \
                              3 * L_HIDDEN * L_FFN))

static void
test_llama (Fixture       *fixture,
            gconstpointer  user_data)
{
  Tally t;
  g_autoptr(HrGgufWriter) w = llama_writer (NULL, &t);
  g_autofree char *path = write_model (fixture, "tiny-llama-Q4_K_M.gguf", w);
  g_autoptr(JsonObject) entry = entry_for (path);
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(HrModelSpec) loaded = NULL;
  g_autoptr(GError) error = NULL;
  const HrModelArch *arch;

  g_assert_cmpuint (t.params, ==, L_PARAMS);

  assert_string (entry, "id", "tiny-llama-Q4_K_M");
  assert_string (entry, "name", "Tiny Llama");
  assert_string (entry, "family", "llama");
  assert_string (entry, "architecture", "llama");
  assert_string (entry, "license", "unknown");
  assert_string (entry, "release", "unknown");
  assert_string (entry, "attention", "gqa");
  assert_int (entry, "layers", L_LAYERS);
  assert_int (entry, "hidden", L_HIDDEN);
  assert_int (entry, "heads", L_HEADS);
  assert_int (entry, "kv_heads", L_KV);
  assert_int (entry, "head_dim", L_HEAD_DIM);
  assert_int (entry, "intermediate", L_FFN);
  assert_int (entry, "vocab", L_VOCAB);
  assert_int (entry, "max_context", 8192);
  assert_int (entry, "params", L_PARAMS);
  assert_int (entry, "active_params", L_PARAMS);
  g_assert_false (json_object_get_boolean_member (entry, "tied_embeddings"));
  /* No value_length: V heads as wide as K heads. */
  assert_int (entry, "head_dim_v", L_HEAD_DIM);
  assert_absent (entry, "attention_bias");
  assert_absent (entry, "sliding_window");
  assert_absent (entry, "experts");
  assert_absent (entry, "mlp");
  assert_file_facts (entry, path, &t, "Q4_K_M");

  spec = assert_valid (entry);
  arch = hr_model_spec_get_arch (spec);
  g_assert_cmpint (arch->attention, ==, HR_ATTENTION_GQA);
  g_assert_cmpuint (arch->head_dim_v, ==, L_HEAD_DIM);

  /* The loader gives the same model, with the file's facts. */
  loaded = hr_model_import_gguf (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_model_spec_get_file_weights_bytes (loaded), ==, t.weights_bytes);
  g_assert_cmpstr (hr_model_spec_get_file_type (loaded), ==, "Q4_K_M");
  g_assert_cmpstr (hr_model_spec_get_file_path (loaded), ==, path);
  g_assert_cmpint (json_object_get_int_member (hr_model_spec_get_weights_by_type (loaded),
                                               "Q6_K"), ==, t.by_type[HR_GGML_TYPE_Q6_K]);
  g_assert_cmpfloat (hr_model_spec_get_arch (loaded)->params_total, ==, L_PARAMS);
  g_assert_cmpuint (hr_model_spec_get_origin (loaded), ==, HR_ORIGIN_USER);

  /* And so does the importer, which knows GGUF by name. */
  g_clear_object (&loaded);
  loaded = hr_model_import_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (hr_model_spec_get_architecture (loaded), ==, "llama");
}

/* A GGUF file under another name is still recognised by its magic. */
static void
test_import_by_content (Fixture       *fixture,
                        gconstpointer  user_data)
{
  Tally t;
  LlamaOptions o = { .no_file_type = TRUE };
  g_autoptr(HrGgufWriter) w = llama_writer (&o, &t);
  g_autofree char *path = write_model (fixture, "model.bin", w);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModelSpec) model = hr_model_import_file (path, &error);
  g_autoptr(JsonObject) entry = entry_for (path);

  g_assert_no_error (error);
  g_assert_cmpuint (hr_model_spec_get_arch (model)->n_layers, ==, L_LAYERS);
  g_assert_null (hr_model_spec_get_file_type (model));
  assert_string (entry, "id", "model.bin");
  assert_absent (entry, "file_type");
}

/* ---------------------------------------------------------------------------
 * Qwen3 MoE: routed experts, q/k norms, head size from key_length
 */

#define Q_LAYERS 2
#define Q_HIDDEN 256
#define Q_HEADS 4
#define Q_KV 2
#define Q_HEAD_DIM 128
#define Q_FFN 768
#define Q_EXPERTS 8
#define Q_USED 2
#define Q_EXPERT_FFN 256
#define Q_VOCAB 64

static HrGgufWriter *
qwen3moe_writer (Tally   *t,
                 gboolean expert_width_key)
{
  HrGgufWriter *w = hr_gguf_writer_new (3);

  memset (t, 0, sizeof *t);
  hr_gguf_writer_add_string (w, "general.architecture", "qwen3moe");
  hr_gguf_writer_add_string (w, "general.name", "Tiny Qwen3 MoE");
  hr_gguf_writer_add_string (w, "general.license", "apache-2.0");
  hr_gguf_writer_add_uint32 (w, "general.file_type", 7);
  hr_gguf_writer_add_uint32 (w, "qwen3moe.block_count", Q_LAYERS);
  hr_gguf_writer_add_uint32 (w, "qwen3moe.context_length", 40960);
  hr_gguf_writer_add_uint32 (w, "qwen3moe.embedding_length", Q_HIDDEN);
  hr_gguf_writer_add_uint32 (w, "qwen3moe.feed_forward_length", Q_FFN);
  hr_gguf_writer_add_uint32 (w, "qwen3moe.attention.head_count", Q_HEADS);
  hr_gguf_writer_add_uint32 (w, "qwen3moe.attention.head_count_kv", Q_KV);
  hr_gguf_writer_add_uint32 (w, "qwen3moe.attention.key_length", Q_HEAD_DIM);
  hr_gguf_writer_add_uint32 (w, "qwen3moe.attention.value_length", Q_HEAD_DIM);
  hr_gguf_writer_add_uint32 (w, "qwen3moe.expert_count", Q_EXPERTS);
  hr_gguf_writer_add_uint32 (w, "qwen3moe.expert_used_count", Q_USED);
  if (expert_width_key)
    hr_gguf_writer_add_uint32 (w, "qwen3moe.expert_feed_forward_length", Q_EXPERT_FFN);
  hr_gguf_writer_add_tokens (w, Q_VOCAB);

  add (w, t, "token_embd.weight", HR_GGML_TYPE_Q8_0, Q_HIDDEN, Q_VOCAB, 0);
  for (guint l = 0; l < Q_LAYERS; l++)
    {
      add_blk (w, t, l, "attn_norm.weight", HR_GGML_TYPE_F32, Q_HIDDEN, 0, 0);
      add_blk (w, t, l, "attn_q.weight", HR_GGML_TYPE_Q8_0, Q_HIDDEN, Q_HEADS * Q_HEAD_DIM, 0);
      add_blk (w, t, l, "attn_k.weight", HR_GGML_TYPE_Q8_0, Q_HIDDEN, Q_KV * Q_HEAD_DIM, 0);
      add_blk (w, t, l, "attn_v.weight", HR_GGML_TYPE_Q8_0, Q_HIDDEN, Q_KV * Q_HEAD_DIM, 0);
      add_blk (w, t, l, "attn_output.weight", HR_GGML_TYPE_Q8_0, Q_HEADS * Q_HEAD_DIM,
               Q_HIDDEN, 0);
      add_blk (w, t, l, "attn_q_norm.weight", HR_GGML_TYPE_F32, Q_HEAD_DIM, 0, 0);
      add_blk (w, t, l, "attn_k_norm.weight", HR_GGML_TYPE_F32, Q_HEAD_DIM, 0, 0);
      add_blk (w, t, l, "ffn_norm.weight", HR_GGML_TYPE_F32, Q_HIDDEN, 0, 0);
      add_blk (w, t, l, "ffn_gate_inp.weight", HR_GGML_TYPE_F32, Q_HIDDEN, Q_EXPERTS, 0);
      add_blk (w, t, l, "ffn_gate_exps.weight", HR_GGML_TYPE_Q8_0, Q_HIDDEN, Q_EXPERT_FFN,
               Q_EXPERTS);
      add_blk (w, t, l, "ffn_up_exps.weight", HR_GGML_TYPE_Q8_0, Q_HIDDEN, Q_EXPERT_FFN,
               Q_EXPERTS);
      add_blk (w, t, l, "ffn_down_exps.weight", HR_GGML_TYPE_Q8_0, Q_EXPERT_FFN, Q_HIDDEN,
               Q_EXPERTS);
    }
  add (w, t, "output_norm.weight", HR_GGML_TYPE_F32, Q_HIDDEN, 0, 0);
  add (w, t, "output.weight", HR_GGML_TYPE_Q8_0, Q_HIDDEN, Q_VOCAB, 0);
  return w;
}

#define Q_EXPERT_PARAMS (Q_LAYERS * 3 * Q_HIDDEN * Q_EXPERT_FFN * Q_EXPERTS)
#define Q_PARAMS (2 * Q_HIDDEN * Q_VOCAB + Q_HIDDEN + \
                  Q_LAYERS * (2 * Q_HIDDEN + 2 * Q_HIDDEN * Q_HEADS * Q_HEAD_DIM + \
                              2 * Q_HIDDEN * Q_KV * Q_HEAD_DIM + 2 * Q_HEAD_DIM + \
                              Q_HIDDEN * Q_EXPERTS) + Q_EXPERT_PARAMS)

static void
test_qwen3moe (Fixture       *fixture,
               gconstpointer  user_data)
{
  for (guint with_key = 0; with_key < 2; with_key++)
    {
      Tally t;
      g_autoptr(HrGgufWriter) w = qwen3moe_writer (&t, with_key);
      g_autofree char *path = write_model (fixture, "qwen3moe.gguf", w);
      g_autoptr(JsonObject) entry = entry_for (path);
      g_autoptr(HrModelSpec) spec = NULL;
      /* Per token, 2 of the 8 experts run: 6/8 of their weights idle. */
      gint64 active = Q_PARAMS - Q_EXPERT_PARAMS / Q_EXPERTS * (Q_EXPERTS - Q_USED);

      g_test_message ("expert_feed_forward_length %s", with_key ? "present" : "absent");
      g_assert_cmpuint (t.params, ==, Q_PARAMS);
      g_assert_cmpuint (t.expert_elements, ==, Q_EXPERT_PARAMS);

      assert_string (entry, "architecture", "qwen3_moe");
      assert_string (entry, "family", "qwen3_moe");
      assert_string (entry, "name", "Tiny Qwen3 MoE");
      assert_string (entry, "license", "apache-2.0");
      assert_string (entry, "attention", "gqa");
      assert_int (entry, "layers", Q_LAYERS);
      assert_int (entry, "hidden", Q_HIDDEN);
      assert_int (entry, "heads", Q_HEADS);
      assert_int (entry, "kv_heads", Q_KV);
      /* Not hidden / heads (64): key_length says 128. */
      assert_int (entry, "head_dim", Q_HEAD_DIM);
      assert_int (entry, "head_dim_v", Q_HEAD_DIM);
      assert_int (entry, "intermediate", Q_FFN);
      assert_int (entry, "vocab", Q_VOCAB);
      assert_int (entry, "max_context", 40960);
      assert_int (entry, "experts", Q_EXPERTS);
      assert_int (entry, "experts_active", Q_USED);
      assert_int (entry, "expert_intermediate", Q_EXPERT_FFN);
      assert_absent (entry, "shared_experts");
      assert_absent (entry, "dense_layers");
      assert_int (entry, "params", Q_PARAMS);
      assert_int (entry, "active_params", active);
      g_assert_false (json_object_get_boolean_member (entry, "tied_embeddings"));
      assert_file_facts (entry, path, &t, "Q8_0");

      spec = assert_valid (entry);
      g_assert_true (hr_model_spec_is_moe (spec));
    }
}

/* ---------------------------------------------------------------------------
 * Qwen3-Next (qwen3next): Gated DeltaNet layers, one gated attention layer
 * in four, llama.cpp's tensor names and ssm.* keys
 */

#define N_LAYERS 4
#define N_HIDDEN 256
#define N_HEADS 4
#define N_KV 2
#define N_HEAD_DIM 64
#define N_FFN 512
#define N_EXPERTS 8
#define N_USED 2
#define N_EXPERT_FFN 128
#define N_VOCAB 64
#define N_CONV 4
#define N_STATE 32            /* key head size = value head size */
#define N_GROUPS 2            /* key heads */
#define N_INNER (4 * N_STATE) /* 4 value heads */
#define N_KEY (N_GROUPS * N_STATE)

static HrGgufWriter *
qwen3next_writer (Tally *t)
{
  HrGgufWriter *w = hr_gguf_writer_new (3);

  memset (t, 0, sizeof *t);
  hr_gguf_writer_add_string (w, "general.architecture", "qwen3next");
  hr_gguf_writer_add_string (w, "general.name", "Tiny Qwen3 Next");
  hr_gguf_writer_add_uint32 (w, "general.file_type", 7);
  hr_gguf_writer_add_uint32 (w, "qwen3next.block_count", N_LAYERS);
  hr_gguf_writer_add_uint32 (w, "qwen3next.context_length", 262144);
  hr_gguf_writer_add_uint32 (w, "qwen3next.embedding_length", N_HIDDEN);
  hr_gguf_writer_add_uint32 (w, "qwen3next.feed_forward_length", N_FFN);
  hr_gguf_writer_add_uint32 (w, "qwen3next.attention.head_count", N_HEADS);
  hr_gguf_writer_add_uint32 (w, "qwen3next.attention.head_count_kv", N_KV);
  hr_gguf_writer_add_uint32 (w, "qwen3next.attention.key_length", N_HEAD_DIM);
  hr_gguf_writer_add_uint32 (w, "qwen3next.attention.value_length", N_HEAD_DIM);
  hr_gguf_writer_add_uint32 (w, "qwen3next.expert_count", N_EXPERTS);
  hr_gguf_writer_add_uint32 (w, "qwen3next.expert_used_count", N_USED);
  hr_gguf_writer_add_uint32 (w, "qwen3next.expert_feed_forward_length", N_EXPERT_FFN);
  hr_gguf_writer_add_uint32 (w, "qwen3next.ssm.conv_kernel", N_CONV);
  hr_gguf_writer_add_uint32 (w, "qwen3next.ssm.inner_size", N_INNER);
  hr_gguf_writer_add_uint32 (w, "qwen3next.ssm.state_size", N_STATE);
  hr_gguf_writer_add_uint32 (w, "qwen3next.ssm.group_count", N_GROUPS);
  hr_gguf_writer_add_uint32 (w, "qwen3next.ssm.time_step_rank", N_INNER / N_STATE);
  hr_gguf_writer_add_tokens (w, N_VOCAB);

  add (w, t, "token_embd.weight", HR_GGML_TYPE_Q8_0, N_HIDDEN, N_VOCAB, 0);
  for (guint l = 0; l < N_LAYERS; l++)
    {
      add_blk (w, t, l, "attn_norm.weight", HR_GGML_TYPE_F32, N_HIDDEN, 0, 0);
      if ((l + 1) % 4 != 0)
        {
          add_blk (w, t, l, "ssm_in.weight", HR_GGML_TYPE_Q8_0, N_HIDDEN,
                   2 * N_KEY + 2 * N_INNER, 0);
          add_blk (w, t, l, "ssm_ba.weight", HR_GGML_TYPE_F32, N_HIDDEN,
                   2 * (N_INNER / N_STATE), 0);
          add_blk (w, t, l, "ssm_conv1d.weight", HR_GGML_TYPE_F32, N_CONV,
                   2 * N_KEY + N_INNER, 0);
          add_blk (w, t, l, "ssm_dt.bias", HR_GGML_TYPE_F32, N_INNER / N_STATE, 0, 0);
          add_blk (w, t, l, "ssm_a", HR_GGML_TYPE_F32, N_INNER / N_STATE, 0, 0);
          add_blk (w, t, l, "ssm_norm.weight", HR_GGML_TYPE_F32, N_STATE, 0, 0);
          add_blk (w, t, l, "ssm_out.weight", HR_GGML_TYPE_Q8_0, N_INNER, N_HIDDEN, 0);
        }
      else
        {
          add_blk (w, t, l, "attn_q.weight", HR_GGML_TYPE_Q8_0, N_HIDDEN,
                   2 * N_HEADS * N_HEAD_DIM, 0);
          add_blk (w, t, l, "attn_k.weight", HR_GGML_TYPE_Q8_0, N_HIDDEN, N_KV * N_HEAD_DIM, 0);
          add_blk (w, t, l, "attn_v.weight", HR_GGML_TYPE_Q8_0, N_HIDDEN, N_KV * N_HEAD_DIM, 0);
          add_blk (w, t, l, "attn_output.weight", HR_GGML_TYPE_Q8_0, N_HEADS * N_HEAD_DIM,
                   N_HIDDEN, 0);
          add_blk (w, t, l, "attn_q_norm.weight", HR_GGML_TYPE_F32, N_HEAD_DIM, 0, 0);
          add_blk (w, t, l, "attn_k_norm.weight", HR_GGML_TYPE_F32, N_HEAD_DIM, 0, 0);
        }
      add_blk (w, t, l, "post_attention_norm.weight", HR_GGML_TYPE_F32, N_HIDDEN, 0, 0);
      add_blk (w, t, l, "ffn_gate_inp.weight", HR_GGML_TYPE_F32, N_HIDDEN, N_EXPERTS, 0);
      add_blk (w, t, l, "ffn_gate_exps.weight", HR_GGML_TYPE_Q8_0, N_HIDDEN, N_EXPERT_FFN,
               N_EXPERTS);
      add_blk (w, t, l, "ffn_up_exps.weight", HR_GGML_TYPE_Q8_0, N_HIDDEN, N_EXPERT_FFN,
               N_EXPERTS);
      add_blk (w, t, l, "ffn_down_exps.weight", HR_GGML_TYPE_Q8_0, N_EXPERT_FFN, N_HIDDEN,
               N_EXPERTS);
      add_blk (w, t, l, "ffn_gate_inp_shexp.weight", HR_GGML_TYPE_F32, N_HIDDEN, 0, 0);
      add_blk (w, t, l, "ffn_gate_shexp.weight", HR_GGML_TYPE_Q8_0, N_HIDDEN, N_EXPERT_FFN, 0);
      add_blk (w, t, l, "ffn_up_shexp.weight", HR_GGML_TYPE_Q8_0, N_HIDDEN, N_EXPERT_FFN, 0);
      add_blk (w, t, l, "ffn_down_shexp.weight", HR_GGML_TYPE_Q8_0, N_EXPERT_FFN, N_HIDDEN, 0);
    }
  add (w, t, "output_norm.weight", HR_GGML_TYPE_F32, N_HIDDEN, 0, 0);
  add (w, t, "output.weight", HR_GGML_TYPE_Q8_0, N_HIDDEN, N_VOCAB, 0);
  return w;
}

static void
test_qwen3next (Fixture       *fixture,
                gconstpointer  user_data)
{
  Tally t;
  g_autoptr(HrGgufWriter) w = qwen3next_writer (&t);
  g_autofree char *path = write_model (fixture, "qwen3next.gguf", w);
  g_autoptr(JsonObject) entry = entry_for (path);
  g_autoptr(HrModelSpec) spec = NULL;
  const HrModelArch *arch;

  assert_string (entry, "architecture", "qwen3_next");
  assert_string (entry, "recurrent", "gated_deltanet");
  assert_int (entry, "layers", N_LAYERS);
  assert_int (entry, "recurrent_layers", 3);
  assert_int (entry, "attention_period", 4);
  assert_int (entry, "ssm_conv_kernel", N_CONV);
  assert_int (entry, "ssm_inner", N_INNER);
  assert_int (entry, "ssm_state", N_STATE);
  assert_int (entry, "ssm_groups", N_GROUPS);
  assert_int (entry, "experts", N_EXPERTS);
  /* tensor-exact: every element the file holds */
  assert_int (entry, "params", (gint64) t.params);
  assert_file_facts (entry, path, &t, "Q8_0");

  spec = assert_valid (entry);
  arch = hr_model_spec_get_arch (spec);
  /* one attention layer keeps a cache; three keep llama.cpp's r and s
   * of these widths */
  g_assert_cmpuint (hr_model_arch_kv_layers (arch), ==, 1);
  g_assert_true (hr_model_arch_layer_is_recurrent (arch, 0));
  g_assert_false (hr_model_arch_layer_is_recurrent (arch, 3));
  g_assert_cmpfloat (hr_model_arch_state_cell (arch).conv_elements, ==,
                     (N_CONV - 1) * (N_INNER + 2 * N_GROUPS * N_STATE));
  g_assert_cmpfloat (hr_model_arch_state_cell (arch).ssm_elements, ==, N_STATE * N_INNER);

  /* inspect --json: the layer kinds and llama.cpp's keys */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) d = hr_model_inspect_describe_gguf_file (path, &error);
    JsonObject *o, *kinds;

    g_assert_no_error (error);
    o = json_node_get_object (d);
    kinds = json_object_get_object_member (o, "layer_kinds");
    assert_int (kinds, "attention", 1);
    assert_int (kinds, "recurrent", 3);
    assert_string (kinds, "recurrent_kind", "gated_deltanet");
    assert_int (json_object_get_object_member (o, "metadata"), "qwen3next.ssm.inner_size",
                N_INNER);
  }
}

/* The tensors the weights recipe lists for @spec are, name for name and
 * shape for shape, those of the file (written from llama.cpp's
 * loader): the recipe is tensor-exact for the architecture. */
static void
assert_recipe_matches (HrModelSpec *spec,
                       const Tally *t)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) tensors = hr_weights_list_tensors (spec, "q8_0", NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (tensors->len, ==, g_hash_table_size (t->shapes));
  for (guint i = 0; i < tensors->len; i++)
    {
      const HrWeightsTensor *tensor = &g_array_index (tensors, HrWeightsTensor, i);
      g_autoptr(GString) shape = g_string_new (NULL);
      const char *theirs = g_hash_table_lookup (t->shapes, tensor->name);

      for (guint32 d = 0; d < tensor->n_dims; d++)
        g_string_append_printf (shape, "%s%" G_GUINT64_FORMAT, d > 0 ? " " : "",
                                tensor->dims[d]);
      if (theirs == NULL)
        g_error ("the recipe lists %s, which the file does not have", tensor->name);
      g_assert_cmpstr (shape->str, ==, theirs);
    }
}

/* ---------------------------------------------------------------------------
 * Granite 4.0 H (granitehybrid): Mamba2 on the layers whose
 * head_count_kv is 0, attention on the others, routed experts and a
 * shared MLP in every layer (llama.cpp granite-hybrid load_arch_tensors)
 */

#define GH_LAYERS 4
#define GH_HIDDEN 256
#define GH_HEADS 4
#define GH_KV 2
#define GH_HEAD_DIM 64
#define GH_EXPERTS 4
#define GH_USED 2
#define GH_EXPERT_FFN 64
#define GH_SHARED_FFN 128
#define GH_VOCAB 64
#define GH_CONV 4
#define GH_STATE 32
#define GH_GROUPS 1
#define GH_INNER (2 * GH_HIDDEN)          /* llama.cpp: d_inner = 2 n_embd */
#define GH_SSM_HEADS (GH_INNER / 64)
#define GH_CONV_DIM (GH_INNER + 2 * GH_GROUPS * GH_STATE)

static HrGgufWriter *
granitehybrid_writer (Tally *t)
{
  static const guint32 kv[GH_LAYERS] = { 0, 0, GH_KV, 0 };
  HrGgufWriter *w = hr_gguf_writer_new (3);

  memset (t, 0, sizeof *t);
  t->shapes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  hr_gguf_writer_add_string (w, "general.architecture", "granitehybrid");
  hr_gguf_writer_add_string (w, "general.name", "Tiny Granite Hybrid");
  hr_gguf_writer_add_uint32 (w, "general.file_type", 7);
  hr_gguf_writer_add_uint32 (w, "granitehybrid.block_count", GH_LAYERS);
  hr_gguf_writer_add_uint32 (w, "granitehybrid.context_length", 1048576);
  hr_gguf_writer_add_uint32 (w, "granitehybrid.embedding_length", GH_HIDDEN);
  hr_gguf_writer_add_uint32 (w, "granitehybrid.feed_forward_length", GH_EXPERT_FFN);
  hr_gguf_writer_add_uint32 (w, "granitehybrid.attention.head_count", GH_HEADS);
  hr_gguf_writer_add_array (w, "granitehybrid.attention.head_count_kv", HR_GGUF_TYPE_UINT32,
                            kv, GH_LAYERS);
  hr_gguf_writer_add_uint32 (w, "granitehybrid.expert_count", GH_EXPERTS);
  hr_gguf_writer_add_uint32 (w, "granitehybrid.expert_used_count", GH_USED);
  hr_gguf_writer_add_uint32 (w, "granitehybrid.expert_shared_feed_forward_length",
                             GH_SHARED_FFN);
  hr_gguf_writer_add_uint32 (w, "granitehybrid.ssm.conv_kernel", GH_CONV);
  hr_gguf_writer_add_uint32 (w, "granitehybrid.ssm.inner_size", GH_INNER);
  hr_gguf_writer_add_uint32 (w, "granitehybrid.ssm.state_size", GH_STATE);
  hr_gguf_writer_add_uint32 (w, "granitehybrid.ssm.time_step_rank", GH_SSM_HEADS);
  hr_gguf_writer_add_uint32 (w, "granitehybrid.ssm.group_count", GH_GROUPS);
  hr_gguf_writer_add_tokens (w, GH_VOCAB);

  add (w, t, "token_embd.weight", HR_GGML_TYPE_Q8_0, GH_HIDDEN, GH_VOCAB, 0);
  for (guint l = 0; l < GH_LAYERS; l++)
    {
      add_blk (w, t, l, "attn_norm.weight", HR_GGML_TYPE_F32, GH_HIDDEN, 0, 0);
      if (kv[l] == 0)
        {
          add_blk (w, t, l, "ssm_in.weight", HR_GGML_TYPE_Q8_0, GH_HIDDEN,
                   2 * GH_INNER + 2 * GH_GROUPS * GH_STATE + GH_SSM_HEADS, 0);
          add_blk (w, t, l, "ssm_conv1d.weight", HR_GGML_TYPE_F32, GH_CONV, GH_CONV_DIM, 0);
          add_blk (w, t, l, "ssm_conv1d.bias", HR_GGML_TYPE_F32, GH_CONV_DIM, 0, 0);
          add_blk (w, t, l, "ssm_dt.bias", HR_GGML_TYPE_F32, GH_SSM_HEADS, 0, 0);
          add_blk (w, t, l, "ssm_a", HR_GGML_TYPE_F32, 1, GH_SSM_HEADS, 0);
          add_blk (w, t, l, "ssm_d", HR_GGML_TYPE_F32, 1, GH_SSM_HEADS, 0);
          add_blk (w, t, l, "ssm_norm.weight", HR_GGML_TYPE_F32, GH_INNER / GH_GROUPS,
                   GH_GROUPS, 0);
          add_blk (w, t, l, "ssm_out.weight", HR_GGML_TYPE_Q8_0, GH_INNER, GH_HIDDEN, 0);
        }
      else
        {
          add_blk (w, t, l, "attn_q.weight", HR_GGML_TYPE_Q8_0, GH_HIDDEN,
                   GH_HEADS * GH_HEAD_DIM, 0);
          add_blk (w, t, l, "attn_k.weight", HR_GGML_TYPE_Q8_0, GH_HIDDEN, GH_KV * GH_HEAD_DIM, 0);
          add_blk (w, t, l, "attn_v.weight", HR_GGML_TYPE_Q8_0, GH_HIDDEN, GH_KV * GH_HEAD_DIM, 0);
          add_blk (w, t, l, "attn_output.weight", HR_GGML_TYPE_Q8_0, GH_HEADS * GH_HEAD_DIM,
                   GH_HIDDEN, 0);
        }
      add_blk (w, t, l, "ffn_norm.weight", HR_GGML_TYPE_F32, GH_HIDDEN, 0, 0);
      add_blk (w, t, l, "ffn_gate_inp.weight", HR_GGML_TYPE_F32, GH_HIDDEN, GH_EXPERTS, 0);
      add_blk (w, t, l, "ffn_gate_exps.weight", HR_GGML_TYPE_Q8_0, GH_HIDDEN, GH_EXPERT_FFN,
               GH_EXPERTS);
      add_blk (w, t, l, "ffn_up_exps.weight", HR_GGML_TYPE_Q8_0, GH_HIDDEN, GH_EXPERT_FFN,
               GH_EXPERTS);
      add_blk (w, t, l, "ffn_down_exps.weight", HR_GGML_TYPE_Q8_0, GH_EXPERT_FFN, GH_HIDDEN,
               GH_EXPERTS);
      add_blk (w, t, l, "ffn_gate_shexp.weight", HR_GGML_TYPE_Q8_0, GH_HIDDEN, GH_SHARED_FFN, 0);
      add_blk (w, t, l, "ffn_up_shexp.weight", HR_GGML_TYPE_Q8_0, GH_HIDDEN, GH_SHARED_FFN, 0);
      add_blk (w, t, l, "ffn_down_shexp.weight", HR_GGML_TYPE_Q8_0, GH_SHARED_FFN, GH_HIDDEN, 0);
    }
  add (w, t, "output_norm.weight", HR_GGML_TYPE_F32, GH_HIDDEN, 0, 0);
  return w;
}

static void
test_granitehybrid (Fixture       *fixture,
                    gconstpointer  user_data)
{
  Tally t;
  g_autoptr(HrGgufWriter) w = granitehybrid_writer (&t);
  g_autofree char *path = write_model (fixture, "granitehybrid.gguf", w);
  g_autoptr(JsonObject) entry = entry_for (path);
  g_autoptr(HrModelSpec) spec = NULL;
  const HrModelArch *arch;
  HrStateCell cell;

  assert_string (entry, "architecture", "granitemoehybrid");
  assert_string (entry, "recurrent", "mamba");
  assert_int (entry, "recurrent_layers", 3);
  assert_string (entry, "layer_pattern", "MM*M");
  assert_absent (entry, "attention_period");
  assert_int (entry, "kv_heads", GH_KV);
  assert_int (entry, "ssm_conv_kernel", GH_CONV);
  assert_int (entry, "ssm_inner", GH_INNER);
  assert_int (entry, "ssm_state", GH_STATE);
  assert_int (entry, "ssm_groups", GH_GROUPS);
  assert_int (entry, "ssm_heads", GH_SSM_HEADS);
  assert_int (entry, "experts", GH_EXPERTS);
  assert_int (entry, "expert_intermediate", GH_EXPERT_FFN);
  /* the shared MLP is the dense width, one shared expert */
  assert_int (entry, "intermediate", GH_SHARED_FFN);
  assert_int (entry, "shared_experts", 1);
  g_assert_true (json_object_get_boolean_member (entry, "tied_embeddings"));
  /* tensor-exact: every element the file holds */
  assert_int (entry, "params", (gint64) t.params);
  assert_int (entry, "active_params",
              (gint64) (t.params - t.expert_elements * (GH_EXPERTS - GH_USED) / GH_EXPERTS));
  assert_file_facts (entry, path, &t, "Q8_0");

  spec = assert_valid (entry);
  arch = hr_model_spec_get_arch (spec);
  g_assert_cmpuint (hr_model_arch_kv_layers (arch), ==, 1);
  g_assert_true (hr_model_arch_layer_is_recurrent (arch, 3));
  g_assert_true (hr_model_arch_layer_attends (arch, 2));
  /* llama.cpp's n_embd_r and n_embd_s of these widths */
  cell = hr_model_arch_state_cell (arch);
  g_assert_cmpfloat (cell.conv_elements, ==, (GH_CONV - 1) * GH_CONV_DIM);
  g_assert_cmpfloat (cell.ssm_elements, ==, GH_STATE * GH_INNER);
  /* and the weights recipe lists the file's tensors */
  assert_recipe_matches (spec, &t);
  g_hash_table_unref (t.shapes);
}

/* ---------------------------------------------------------------------------
 * Nemotron-H (nemotron_h): each layer Mamba2 (head_count_kv and
 * feed_forward_length 0), attention (head_count_kv > 0) or a gateless
 * MLP (llama.cpp nemotron-h load_arch_hparams / load_arch_tensors)
 */

#define NH_LAYERS 4
#define NH_HIDDEN 256
#define NH_HEADS 4
#define NH_KV 2
#define NH_HEAD_DIM 64
#define NH_FFN 512
#define NH_VOCAB 64
#define NH_CONV 4
#define NH_STATE 32
#define NH_GROUPS 2
#define NH_SSM_HEADS 8
#define NH_INNER (NH_SSM_HEADS * 32)
#define NH_CONV_DIM (NH_INNER + 2 * NH_GROUPS * NH_STATE)

static void
test_nemotron_h (Fixture       *fixture,
                 gconstpointer  user_data)
{
  static const guint32 kv[NH_LAYERS] = { 0, 0, NH_KV, 0 };
  static const guint32 ff[NH_LAYERS] = { 0, NH_FFN, 0, 0 };
  g_autoptr(HrGgufWriter) w = hr_gguf_writer_new (3);
  g_autofree char *path = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(HrModelSpec) spec = NULL;
  const HrModelArch *arch;
  Tally t;

  memset (&t, 0, sizeof t);
  t.shapes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  hr_gguf_writer_add_string (w, "general.architecture", "nemotron_h");
  hr_gguf_writer_add_uint32 (w, "general.file_type", 7);
  hr_gguf_writer_add_uint32 (w, "nemotron_h.block_count", NH_LAYERS);
  hr_gguf_writer_add_uint32 (w, "nemotron_h.context_length", 131072);
  hr_gguf_writer_add_uint32 (w, "nemotron_h.embedding_length", NH_HIDDEN);
  hr_gguf_writer_add_array (w, "nemotron_h.feed_forward_length", HR_GGUF_TYPE_UINT32, ff,
                            NH_LAYERS);
  hr_gguf_writer_add_uint32 (w, "nemotron_h.attention.head_count", NH_HEADS);
  hr_gguf_writer_add_array (w, "nemotron_h.attention.head_count_kv", HR_GGUF_TYPE_UINT32, kv,
                            NH_LAYERS);
  hr_gguf_writer_add_uint32 (w, "nemotron_h.attention.key_length", NH_HEAD_DIM);
  hr_gguf_writer_add_uint32 (w, "nemotron_h.attention.value_length", NH_HEAD_DIM);
  hr_gguf_writer_add_uint32 (w, "nemotron_h.ssm.conv_kernel", NH_CONV);
  hr_gguf_writer_add_uint32 (w, "nemotron_h.ssm.inner_size", NH_INNER);
  hr_gguf_writer_add_uint32 (w, "nemotron_h.ssm.state_size", NH_STATE);
  hr_gguf_writer_add_uint32 (w, "nemotron_h.ssm.time_step_rank", NH_SSM_HEADS);
  hr_gguf_writer_add_uint32 (w, "nemotron_h.ssm.group_count", NH_GROUPS);
  hr_gguf_writer_add_tokens (w, NH_VOCAB);

  add (w, &t, "token_embd.weight", HR_GGML_TYPE_Q8_0, NH_HIDDEN, NH_VOCAB, 0);
  add (w, &t, "output_norm.weight", HR_GGML_TYPE_F32, NH_HIDDEN, 0, 0);
  add (w, &t, "output.weight", HR_GGML_TYPE_Q8_0, NH_HIDDEN, NH_VOCAB, 0);
  for (guint l = 0; l < NH_LAYERS; l++)
    {
      add_blk (w, &t, l, "attn_norm.weight", HR_GGML_TYPE_F32, NH_HIDDEN, 0, 0);
      if (kv[l] > 0)
        {
          add_blk (w, &t, l, "attn_q.weight", HR_GGML_TYPE_Q8_0, NH_HIDDEN,
                   NH_HEADS * NH_HEAD_DIM, 0);
          add_blk (w, &t, l, "attn_k.weight", HR_GGML_TYPE_Q8_0, NH_HIDDEN, NH_KV * NH_HEAD_DIM, 0);
          add_blk (w, &t, l, "attn_v.weight", HR_GGML_TYPE_Q8_0, NH_HIDDEN, NH_KV * NH_HEAD_DIM, 0);
          add_blk (w, &t, l, "attn_output.weight", HR_GGML_TYPE_Q8_0, NH_HEADS * NH_HEAD_DIM,
                   NH_HIDDEN, 0);
        }
      else if (ff[l] > 0)
        {
          add_blk (w, &t, l, "ffn_up.weight", HR_GGML_TYPE_Q8_0, NH_HIDDEN, NH_FFN, 0);
          add_blk (w, &t, l, "ffn_down.weight", HR_GGML_TYPE_Q8_0, NH_FFN, NH_HIDDEN, 0);
        }
      else
        {
          add_blk (w, &t, l, "ssm_in.weight", HR_GGML_TYPE_Q8_0, NH_HIDDEN,
                   2 * NH_INNER + 2 * NH_GROUPS * NH_STATE + NH_SSM_HEADS, 0);
          add_blk (w, &t, l, "ssm_conv1d.weight", HR_GGML_TYPE_F32, NH_CONV, NH_CONV_DIM, 0);
          add_blk (w, &t, l, "ssm_conv1d.bias", HR_GGML_TYPE_F32, NH_CONV_DIM, 0, 0);
          add_blk (w, &t, l, "ssm_dt.bias", HR_GGML_TYPE_F32, NH_SSM_HEADS, 0, 0);
          add_blk (w, &t, l, "ssm_a", HR_GGML_TYPE_F32, 1, NH_SSM_HEADS, 0);
          add_blk (w, &t, l, "ssm_d", HR_GGML_TYPE_F32, 1, NH_SSM_HEADS, 0);
          add_blk (w, &t, l, "ssm_norm.weight", HR_GGML_TYPE_F32, NH_INNER / NH_GROUPS,
                   NH_GROUPS, 0);
          add_blk (w, &t, l, "ssm_out.weight", HR_GGML_TYPE_Q8_0, NH_INNER, NH_HIDDEN, 0);
        }
    }

  path = write_model (fixture, "nemotron_h.gguf", w);
  entry = entry_for (path);
  assert_string (entry, "architecture", "nemotron_h");
  assert_string (entry, "recurrent", "mamba");
  assert_string (entry, "layer_pattern", "M-*M");
  assert_string (entry, "mlp", "plain");
  assert_int (entry, "recurrent_layers", 2);
  assert_int (entry, "intermediate", NH_FFN);
  assert_int (entry, "kv_heads", NH_KV);
  assert_int (entry, "ssm_groups", NH_GROUPS);
  assert_int (entry, "ssm_heads", NH_SSM_HEADS);
  g_assert_false (json_object_get_boolean_member (entry, "tied_embeddings"));
  assert_int (entry, "params", (gint64) t.params);
  assert_file_facts (entry, path, &t, "Q8_0");

  spec = assert_valid (entry);
  arch = hr_model_spec_get_arch (spec);
  /* one layer of four attends; the MLP layer keeps neither cache nor state */
  g_assert_cmpuint (hr_model_arch_kv_layers (arch), ==, 1);
  g_assert_false (hr_model_arch_layer_attends (arch, 1));
  g_assert_false (hr_model_arch_layer_is_recurrent (arch, 1));
  assert_recipe_matches (spec, &t);
  g_hash_table_unref (t.shapes);
}

/* ---------------------------------------------------------------------------
 * LFM2 (lfm2): gated short convolutions on the layers whose head_count_kv
 * is 0, their kernel in shortconv.l_cache (llama.cpp LLM_ARCH_LFM2)
 */

#define LF_LAYERS 3
#define LF_HIDDEN 256
#define LF_HEADS 4
#define LF_KV 2
#define LF_HEAD_DIM 64
#define LF_FFN 512
#define LF_VOCAB 64
#define LF_L_CACHE 3

static void
test_lfm2 (Fixture       *fixture,
           gconstpointer  user_data)
{
  static const guint32 kv[LF_LAYERS] = { 0, LF_KV, 0 };
  g_autoptr(HrGgufWriter) w = hr_gguf_writer_new (3);
  g_autofree char *path = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(HrModelSpec) spec = NULL;
  const HrModelArch *arch;
  Tally t;

  memset (&t, 0, sizeof t);
  t.shapes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  hr_gguf_writer_add_string (w, "general.architecture", "lfm2");
  hr_gguf_writer_add_uint32 (w, "general.file_type", 7);
  hr_gguf_writer_add_uint32 (w, "lfm2.block_count", LF_LAYERS);
  hr_gguf_writer_add_uint32 (w, "lfm2.context_length", 128000);
  hr_gguf_writer_add_uint32 (w, "lfm2.embedding_length", LF_HIDDEN);
  hr_gguf_writer_add_uint32 (w, "lfm2.feed_forward_length", LF_FFN);
  hr_gguf_writer_add_uint32 (w, "lfm2.attention.head_count", LF_HEADS);
  hr_gguf_writer_add_array (w, "lfm2.attention.head_count_kv", HR_GGUF_TYPE_UINT32, kv,
                            LF_LAYERS);
  hr_gguf_writer_add_uint32 (w, "lfm2.shortconv.l_cache", LF_L_CACHE);
  hr_gguf_writer_add_tokens (w, LF_VOCAB);

  add (w, &t, "token_embd.weight", HR_GGML_TYPE_Q8_0, LF_HIDDEN, LF_VOCAB, 0);
  add (w, &t, "token_embd_norm.weight", HR_GGML_TYPE_F32, LF_HIDDEN, 0, 0);
  for (guint l = 0; l < LF_LAYERS; l++)
    {
      add_blk (w, &t, l, "attn_norm.weight", HR_GGML_TYPE_F32, LF_HIDDEN, 0, 0);
      if (kv[l] == 0)
        {
          add_blk (w, &t, l, "shortconv.conv.weight", HR_GGML_TYPE_F32, LF_L_CACHE, LF_HIDDEN, 0);
          add_blk (w, &t, l, "shortconv.in_proj.weight", HR_GGML_TYPE_Q8_0, LF_HIDDEN,
                   3 * LF_HIDDEN, 0);
          add_blk (w, &t, l, "shortconv.out_proj.weight", HR_GGML_TYPE_Q8_0, LF_HIDDEN,
                   LF_HIDDEN, 0);
        }
      else
        {
          add_blk (w, &t, l, "attn_q.weight", HR_GGML_TYPE_Q8_0, LF_HIDDEN,
                   LF_HEADS * LF_HEAD_DIM, 0);
          add_blk (w, &t, l, "attn_k.weight", HR_GGML_TYPE_Q8_0, LF_HIDDEN, LF_KV * LF_HEAD_DIM, 0);
          add_blk (w, &t, l, "attn_v.weight", HR_GGML_TYPE_Q8_0, LF_HIDDEN, LF_KV * LF_HEAD_DIM, 0);
          add_blk (w, &t, l, "attn_output.weight", HR_GGML_TYPE_Q8_0, LF_HEADS * LF_HEAD_DIM,
                   LF_HIDDEN, 0);
          add_blk (w, &t, l, "attn_q_norm.weight", HR_GGML_TYPE_F32, LF_HEAD_DIM, 0, 0);
          add_blk (w, &t, l, "attn_k_norm.weight", HR_GGML_TYPE_F32, LF_HEAD_DIM, 0, 0);
        }
      add_blk (w, &t, l, "ffn_norm.weight", HR_GGML_TYPE_F32, LF_HIDDEN, 0, 0);
      add_blk (w, &t, l, "ffn_gate.weight", HR_GGML_TYPE_Q8_0, LF_HIDDEN, LF_FFN, 0);
      add_blk (w, &t, l, "ffn_up.weight", HR_GGML_TYPE_Q8_0, LF_HIDDEN, LF_FFN, 0);
      add_blk (w, &t, l, "ffn_down.weight", HR_GGML_TYPE_Q8_0, LF_FFN, LF_HIDDEN, 0);
    }

  path = write_model (fixture, "lfm2.gguf", w);
  entry = entry_for (path);
  assert_string (entry, "architecture", "lfm2");
  assert_string (entry, "recurrent", "short_conv");
  assert_string (entry, "layer_pattern", "M*M");
  assert_int (entry, "recurrent_layers", 2);
  assert_int (entry, "ssm_conv_kernel", LF_L_CACHE);
  assert_int (entry, "kv_heads", LF_KV);
  assert_int (entry, "params", (gint64) t.params);
  assert_file_facts (entry, path, &t, "Q8_0");

  spec = assert_valid (entry);
  arch = hr_model_spec_get_arch (spec);
  /* llama.cpp's n_embd_r: n_embd × (l_cache − 1), no s */
  g_assert_cmpfloat (hr_model_arch_state_cell (arch).conv_elements, ==,
                     LF_HIDDEN * (LF_L_CACHE - 1));
  g_assert_cmpfloat (hr_model_arch_state_cell (arch).ssm_elements, ==, 0);
  assert_recipe_matches (spec, &t);
  g_hash_table_unref (t.shapes);
}

/* ---------------------------------------------------------------------------
 * Falcon-H1 (falcon-h1): attention and a Mamba2 mixer side by side in
 * every layer; this file without the mixers' gated norm, as the released
 * checkpoints (llama.cpp falcon-h1 load_arch_tensors)
 */

#define FH_LAYERS 2
#define FH_HIDDEN 256
#define FH_HEADS 4
#define FH_KV 2
#define FH_HEAD_DIM 32
#define FH_FFN 512
#define FH_VOCAB 64
#define FH_CONV 4
#define FH_STATE 32
#define FH_SSM_HEADS 8
#define FH_INNER (FH_SSM_HEADS * 32)
#define FH_CONV_DIM (FH_INNER + 2 * FH_STATE)

static void
test_falcon_h1 (Fixture       *fixture,
                gconstpointer  user_data)
{
  g_autoptr(HrGgufWriter) w = hr_gguf_writer_new (3);
  g_autofree char *path = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(HrModelSpec) spec = NULL;
  const HrModelArch *arch;
  Tally t;

  memset (&t, 0, sizeof t);
  t.shapes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  hr_gguf_writer_add_string (w, "general.architecture", "falcon-h1");
  hr_gguf_writer_add_uint32 (w, "general.file_type", 7);
  hr_gguf_writer_add_uint32 (w, "falcon-h1.block_count", FH_LAYERS);
  hr_gguf_writer_add_uint32 (w, "falcon-h1.context_length", 131072);
  hr_gguf_writer_add_uint32 (w, "falcon-h1.embedding_length", FH_HIDDEN);
  hr_gguf_writer_add_uint32 (w, "falcon-h1.feed_forward_length", FH_FFN);
  hr_gguf_writer_add_uint32 (w, "falcon-h1.attention.head_count", FH_HEADS);
  hr_gguf_writer_add_uint32 (w, "falcon-h1.attention.head_count_kv", FH_KV);
  hr_gguf_writer_add_uint32 (w, "falcon-h1.attention.key_length", FH_HEAD_DIM);
  hr_gguf_writer_add_uint32 (w, "falcon-h1.attention.value_length", FH_HEAD_DIM);
  hr_gguf_writer_add_uint32 (w, "falcon-h1.ssm.conv_kernel", FH_CONV);
  hr_gguf_writer_add_uint32 (w, "falcon-h1.ssm.inner_size", FH_INNER);
  hr_gguf_writer_add_uint32 (w, "falcon-h1.ssm.state_size", FH_STATE);
  hr_gguf_writer_add_uint32 (w, "falcon-h1.ssm.time_step_rank", FH_SSM_HEADS);
  hr_gguf_writer_add_uint32 (w, "falcon-h1.ssm.group_count", 1);
  hr_gguf_writer_add_tokens (w, FH_VOCAB);

  add (w, &t, "token_embd.weight", HR_GGML_TYPE_Q8_0, FH_HIDDEN, FH_VOCAB, 0);
  add (w, &t, "output.weight", HR_GGML_TYPE_Q8_0, FH_HIDDEN, FH_VOCAB, 0);
  add (w, &t, "output_norm.weight", HR_GGML_TYPE_F32, FH_HIDDEN, 0, 0);
  for (guint l = 0; l < FH_LAYERS; l++)
    {
      add_blk (w, &t, l, "ssm_in.weight", HR_GGML_TYPE_Q8_0, FH_HIDDEN,
               2 * FH_INNER + 2 * FH_STATE + FH_SSM_HEADS, 0);
      add_blk (w, &t, l, "ssm_conv1d.weight", HR_GGML_TYPE_F32, FH_CONV, FH_CONV_DIM, 0);
      add_blk (w, &t, l, "ssm_conv1d.bias", HR_GGML_TYPE_F32, FH_CONV_DIM, 0, 0);
      add_blk (w, &t, l, "ssm_dt.bias", HR_GGML_TYPE_F32, FH_SSM_HEADS, 0, 0);
      add_blk (w, &t, l, "ssm_a", HR_GGML_TYPE_F32, 1, FH_SSM_HEADS, 0);
      add_blk (w, &t, l, "ssm_d", HR_GGML_TYPE_F32, 1, FH_SSM_HEADS, 0);
      add_blk (w, &t, l, "ssm_out.weight", HR_GGML_TYPE_Q8_0, FH_INNER, FH_HIDDEN, 0);
      add_blk (w, &t, l, "attn_q.weight", HR_GGML_TYPE_Q8_0, FH_HIDDEN, FH_HEADS * FH_HEAD_DIM, 0);
      add_blk (w, &t, l, "attn_k.weight", HR_GGML_TYPE_Q8_0, FH_HIDDEN, FH_KV * FH_HEAD_DIM, 0);
      add_blk (w, &t, l, "attn_v.weight", HR_GGML_TYPE_Q8_0, FH_HIDDEN, FH_KV * FH_HEAD_DIM, 0);
      add_blk (w, &t, l, "attn_output.weight", HR_GGML_TYPE_Q8_0, FH_HEADS * FH_HEAD_DIM,
               FH_HIDDEN, 0);
      add_blk (w, &t, l, "attn_norm.weight", HR_GGML_TYPE_F32, FH_HIDDEN, 0, 0);
      add_blk (w, &t, l, "ffn_norm", HR_GGML_TYPE_F32, FH_HIDDEN, 0, 0);
      add_blk (w, &t, l, "ffn_gate.weight", HR_GGML_TYPE_Q8_0, FH_HIDDEN, FH_FFN, 0);
      add_blk (w, &t, l, "ffn_down.weight", HR_GGML_TYPE_Q8_0, FH_FFN, FH_HIDDEN, 0);
      add_blk (w, &t, l, "ffn_up.weight", HR_GGML_TYPE_Q8_0, FH_HIDDEN, FH_FFN, 0);
    }

  path = write_model (fixture, "falcon-h1.gguf", w);
  entry = entry_for (path);
  assert_string (entry, "architecture", "falcon_h1");
  assert_string (entry, "recurrent", "mamba");
  assert_int (entry, "recurrent_layers", FH_LAYERS);
  g_assert_true (json_object_get_boolean_member (entry, "recurrent_parallel"));
  g_assert_true (json_object_get_boolean_member (entry, "ssm_no_norm"));
  assert_absent (entry, "layer_pattern");
  assert_int (entry, "ssm_heads", FH_SSM_HEADS);
  assert_int (entry, "params", (gint64) t.params);
  assert_file_facts (entry, path, &t, "Q8_0");

  spec = assert_valid (entry);
  arch = hr_model_spec_get_arch (spec);
  /* every layer keeps a cache and a state */
  g_assert_cmpuint (hr_model_arch_kv_layers (arch), ==, FH_LAYERS);
  g_assert_true (hr_model_arch_layer_attends (arch, 1));
  g_assert_true (hr_model_arch_layer_is_recurrent (arch, 1));
  assert_recipe_matches (spec, &t);
  g_hash_table_unref (t.shapes);
}

/* Llama with experts is Mixtral; here in the layout of early-2024
 * files, one tensor per expert and no expert width key. */
static void
test_mixtral (Fixture       *fixture,
              gconstpointer  user_data)
{
  Tally t;
  g_autoptr(HrGgufWriter) w = hr_gguf_writer_new (3);
  g_autofree char *path = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(HrModelSpec) spec = NULL;
  guint64 per_expert = 3 * L_HIDDEN * L_FFN;

  memset (&t, 0, sizeof t);
  add_llama_keys (w, NULL);
  hr_gguf_writer_add_uint32 (w, "llama.expert_count", 4);
  hr_gguf_writer_add_uint32 (w, "llama.expert_used_count", 2);
  add (w, &t, "token_embd.weight", HR_GGML_TYPE_F16, L_HIDDEN, L_VOCAB, 0);
  for (guint l = 0; l < L_LAYERS; l++)
    {
      add_blk (w, &t, l, "attn_norm.weight", HR_GGML_TYPE_F32, L_HIDDEN, 0, 0);
      add_blk (w, &t, l, "attn_q.weight", HR_GGML_TYPE_F16, L_HIDDEN, L_HIDDEN, 0);
      add_blk (w, &t, l, "attn_k.weight", HR_GGML_TYPE_F16, L_HIDDEN, L_KV * L_HEAD_DIM, 0);
      add_blk (w, &t, l, "attn_v.weight", HR_GGML_TYPE_F16, L_HIDDEN, L_KV * L_HEAD_DIM, 0);
      add_blk (w, &t, l, "attn_output.weight", HR_GGML_TYPE_F16, L_HIDDEN, L_HIDDEN, 0);
      add_blk (w, &t, l, "ffn_norm.weight", HR_GGML_TYPE_F32, L_HIDDEN, 0, 0);
      add_blk (w, &t, l, "ffn_gate_inp.weight", HR_GGML_TYPE_F16, L_HIDDEN, 4, 0);
      for (guint e = 0; e < 4; e++)
        {
          g_autofree char *gate = g_strdup_printf ("ffn_gate.%u.weight", e);
          g_autofree char *up = g_strdup_printf ("ffn_up.%u.weight", e);
          g_autofree char *down = g_strdup_printf ("ffn_down.%u.weight", e);

          add_blk (w, &t, l, gate, HR_GGML_TYPE_F16, L_HIDDEN, L_FFN, 0);
          add_blk (w, &t, l, up, HR_GGML_TYPE_F16, L_HIDDEN, L_FFN, 0);
          add_blk (w, &t, l, down, HR_GGML_TYPE_F16, L_FFN, L_HIDDEN, 0);
        }
    }
  add (w, &t, "output_norm.weight", HR_GGML_TYPE_F32, L_HIDDEN, 0, 0);
  add (w, &t, "output.weight", HR_GGML_TYPE_F16, L_HIDDEN, L_VOCAB, 0);
  path = write_model (fixture, "mixtral.gguf", w);
  entry = entry_for (path);

  assert_string (entry, "architecture", "mixtral");
  assert_int (entry, "experts", 4);
  assert_int (entry, "experts_active", 2);
  assert_int (entry, "expert_intermediate", L_FFN);
  assert_int (entry, "intermediate", L_FFN);
  assert_absent (entry, "dense_layers");
  assert_int (entry, "params", (gint64) t.params);
  assert_int (entry, "active_params", (gint64) (t.params - L_LAYERS * 2 * per_expert));
  spec = assert_valid (entry);
  g_assert_cmpuint (hr_model_spec_get_experts (spec), ==, 4);
}

/* ---------------------------------------------------------------------------
 * DeepSeek: multi-head latent attention, shared experts, a dense layer
 */

#define D_LAYERS 3
#define D_HIDDEN 256
#define D_HEADS 4
#define D_Q_LORA 32
#define D_KV_LORA 64
#define D_ROPE 16
#define D_NOPE 32
#define D_V 32
#define D_FFN 512
#define D_EXPERTS 4
#define D_USED 2
#define D_EXPERT_FFN 64
#define D_VOCAB 64

typedef enum
{
  MLA_LEGACY,        /* attn_kv_b; key_length = nope + rope (before mid-2025) */
  MLA_ABSORBED,      /* attn_k_b/attn_v_b; *_length_mla keys */
  MLA_ABSORBED_BARE, /* attn_k_b/attn_v_b without the *_mla keys */
} MlaLayout;

static HrGgufWriter *
deepseek_writer (MlaLayout layout,
                 gboolean  v3,
                 Tally    *t)
{
  HrGgufWriter *w = hr_gguf_writer_new (3);

  memset (t, 0, sizeof *t);
  hr_gguf_writer_add_string (w, "general.architecture", "deepseek2");
  hr_gguf_writer_add_string (w, "general.name", "Tiny DeepSeek");
  hr_gguf_writer_add_uint32 (w, "general.file_type", 1);
  hr_gguf_writer_add_uint32 (w, "deepseek2.block_count", D_LAYERS);
  hr_gguf_writer_add_uint32 (w, "deepseek2.context_length", 163840);
  hr_gguf_writer_add_uint32 (w, "deepseek2.embedding_length", D_HIDDEN);
  hr_gguf_writer_add_uint32 (w, "deepseek2.feed_forward_length", D_FFN);
  hr_gguf_writer_add_uint32 (w, "deepseek2.attention.head_count", D_HEADS);
  hr_gguf_writer_add_uint32 (w, "deepseek2.attention.q_lora_rank", D_Q_LORA);
  hr_gguf_writer_add_uint32 (w, "deepseek2.attention.kv_lora_rank", D_KV_LORA);
  hr_gguf_writer_add_uint32 (w, "deepseek2.rope.dimension_count", D_ROPE);
  if (layout == MLA_LEGACY)
    {
      hr_gguf_writer_add_uint32 (w, "deepseek2.attention.head_count_kv", D_HEADS);
      hr_gguf_writer_add_uint32 (w, "deepseek2.attention.key_length", D_NOPE + D_ROPE);
      hr_gguf_writer_add_uint32 (w, "deepseek2.attention.value_length", D_V);
    }
  else
    {
      /* MQA over the latent, as convert_hf_to_gguf.py writes it now. */
      hr_gguf_writer_add_uint32 (w, "deepseek2.attention.head_count_kv", 1);
      hr_gguf_writer_add_uint32 (w, "deepseek2.attention.key_length", D_KV_LORA + D_ROPE);
      hr_gguf_writer_add_uint32 (w, "deepseek2.attention.value_length", D_KV_LORA);
      if (layout == MLA_ABSORBED)
        {
          hr_gguf_writer_add_uint32 (w, "deepseek2.attention.key_length_mla", D_NOPE + D_ROPE);
          hr_gguf_writer_add_uint32 (w, "deepseek2.attention.value_length_mla", D_V);
        }
    }
  hr_gguf_writer_add_uint32 (w, "deepseek2.leading_dense_block_count", 1);
  hr_gguf_writer_add_uint32 (w, "deepseek2.expert_count", D_EXPERTS);
  hr_gguf_writer_add_uint32 (w, "deepseek2.expert_used_count", D_USED);
  hr_gguf_writer_add_uint32 (w, "deepseek2.expert_shared_count", 1);
  hr_gguf_writer_add_uint32 (w, "deepseek2.expert_feed_forward_length", D_EXPERT_FFN);
  if (v3)
    hr_gguf_writer_add_uint32 (w, "deepseek2.expert_gating_func", 2);
  hr_gguf_writer_add_tokens (w, 50);  /* fewer than the embedding rows, as in real files */

  add (w, t, "token_embd.weight", HR_GGML_TYPE_F16, D_HIDDEN, D_VOCAB, 0);
  for (guint l = 0; l < D_LAYERS; l++)
    {
      add_blk (w, t, l, "attn_norm.weight", HR_GGML_TYPE_F32, D_HIDDEN, 0, 0);
      add_blk (w, t, l, "attn_q_a.weight", HR_GGML_TYPE_F16, D_HIDDEN, D_Q_LORA, 0);
      add_blk (w, t, l, "attn_q_a_norm.weight", HR_GGML_TYPE_F32, D_Q_LORA, 0, 0);
      add_blk (w, t, l, "attn_q_b.weight", HR_GGML_TYPE_F16, D_Q_LORA,
               D_HEADS * (D_NOPE + D_ROPE), 0);
      add_blk (w, t, l, "attn_kv_a_mqa.weight", HR_GGML_TYPE_F16, D_HIDDEN, D_KV_LORA + D_ROPE,
               0);
      add_blk (w, t, l, "attn_kv_a_norm.weight", HR_GGML_TYPE_F32, D_KV_LORA, 0, 0);
      if (layout == MLA_LEGACY)
        add_blk (w, t, l, "attn_kv_b.weight", HR_GGML_TYPE_F16, D_KV_LORA,
                 D_HEADS * (D_NOPE + D_V), 0);
      else
        {
          add_blk (w, t, l, "attn_k_b.weight", HR_GGML_TYPE_F16, D_NOPE, D_KV_LORA, D_HEADS);
          add_blk (w, t, l, "attn_v_b.weight", HR_GGML_TYPE_F16, D_KV_LORA, D_V, D_HEADS);
        }
      add_blk (w, t, l, "attn_output.weight", HR_GGML_TYPE_F16, D_HEADS * D_V, D_HIDDEN, 0);
      add_blk (w, t, l, "ffn_norm.weight", HR_GGML_TYPE_F32, D_HIDDEN, 0, 0);
      if (l == 0)
        {
          add_blk (w, t, l, "ffn_gate.weight", HR_GGML_TYPE_F16, D_HIDDEN, D_FFN, 0);
          add_blk (w, t, l, "ffn_up.weight", HR_GGML_TYPE_F16, D_HIDDEN, D_FFN, 0);
          add_blk (w, t, l, "ffn_down.weight", HR_GGML_TYPE_F16, D_FFN, D_HIDDEN, 0);
          continue;
        }
      add_blk (w, t, l, "ffn_gate_inp.weight", HR_GGML_TYPE_F32, D_HIDDEN, D_EXPERTS, 0);
      if (v3)
        add_blk (w, t, l, "exp_probs_b.bias", HR_GGML_TYPE_F32, D_EXPERTS, 0, 0);
      add_blk (w, t, l, "ffn_gate_exps.weight", HR_GGML_TYPE_F16, D_HIDDEN, D_EXPERT_FFN,
               D_EXPERTS);
      add_blk (w, t, l, "ffn_up_exps.weight", HR_GGML_TYPE_F16, D_HIDDEN, D_EXPERT_FFN,
               D_EXPERTS);
      add_blk (w, t, l, "ffn_down_exps.weight", HR_GGML_TYPE_F16, D_EXPERT_FFN, D_HIDDEN,
               D_EXPERTS);
      add_blk (w, t, l, "ffn_gate_shexp.weight", HR_GGML_TYPE_F16, D_HIDDEN, D_EXPERT_FFN, 0);
      add_blk (w, t, l, "ffn_up_shexp.weight", HR_GGML_TYPE_F16, D_HIDDEN, D_EXPERT_FFN, 0);
      add_blk (w, t, l, "ffn_down_shexp.weight", HR_GGML_TYPE_F16, D_EXPERT_FFN, D_HIDDEN, 0);
    }
  add (w, t, "output_norm.weight", HR_GGML_TYPE_F32, D_HIDDEN, 0, 0);
  add (w, t, "output.weight", HR_GGML_TYPE_F16, D_HIDDEN, D_VOCAB, 0);
  return w;
}

static void
test_deepseek (Fixture       *fixture,
               gconstpointer  user_data)
{
  guint64 params = 0;

  for (MlaLayout layout = MLA_LEGACY; layout <= MLA_ABSORBED_BARE; layout++)
    {
      Tally t;
      gboolean v3 = layout != MLA_LEGACY;
      g_autoptr(HrGgufWriter) w = deepseek_writer (layout, v3, &t);
      g_autofree char *path = write_model (fixture, "deepseek.gguf", w);
      g_autoptr(JsonObject) entry = entry_for (path);
      g_autoptr(HrModelSpec) spec = NULL;
      const HrModelArch *arch;

      g_test_message ("layout %d", layout);
      /* Splitting attn_kv_b changes no parameter count; V3 adds one
       * routing bias per expert and MoE layer. */
      if (params == 0)
        params = t.params;
      g_assert_cmpuint (t.params - (v3 ? (D_LAYERS - 1) * D_EXPERTS : 0), ==, params);

      assert_string (entry, "architecture", v3 ? "deepseek_v3" : "deepseek_v2");
      assert_string (entry, "attention", "mla");
      assert_int (entry, "layers", D_LAYERS);
      assert_int (entry, "heads", D_HEADS);
      /* Every head decompresses its own keys and values. */
      assert_int (entry, "kv_heads", D_HEADS);
      assert_int (entry, "head_dim", D_NOPE + D_ROPE);
      assert_int (entry, "head_dim_v", D_V);
      assert_int (entry, "kv_lora_rank", D_KV_LORA);
      assert_int (entry, "qk_rope_head_dim", D_ROPE);
      assert_int (entry, "qk_nope_head_dim", D_NOPE);
      assert_int (entry, "q_lora_rank", D_Q_LORA);
      assert_int (entry, "intermediate", D_FFN);
      assert_int (entry, "vocab", D_VOCAB);
      assert_int (entry, "max_context", 163840);
      assert_int (entry, "experts", D_EXPERTS);
      assert_int (entry, "experts_active", D_USED);
      assert_int (entry, "shared_experts", 1);
      assert_int (entry, "expert_intermediate", D_EXPERT_FFN);
      assert_int (entry, "dense_layers", 1);
      assert_int (entry, "params", (gint64) t.params);
      assert_int (entry, "active_params",
                  (gint64) (t.params - t.expert_elements / D_EXPERTS * (D_EXPERTS - D_USED)));
      assert_file_facts (entry, path, &t, "F16");

      spec = assert_valid (entry);
      arch = hr_model_spec_get_arch (spec);
      g_assert_cmpint (arch->attention, ==, HR_ATTENTION_MLA);
      g_assert_cmpuint (arch->kv_lora_rank, ==, D_KV_LORA);
      g_assert_cmpuint (arch->qk_rope_head_dim, ==, D_ROPE);
      g_assert_cmpuint (hr_model_spec_get_dense_layers (spec), ==, 1);
    }
}

/* ---------------------------------------------------------------------------
 * Gemma: sliding windows, tied embeddings
 */

#define G_LAYERS 6
#define G_HIDDEN 256
#define G_HEADS 4
#define G_KV 2
#define G_HEAD_DIM 256
#define G_FFN 512
#define G_VOCAB 64

typedef struct
{
  const char *arch;
  guint64 window;               /* 0: no window key */
  gint64 pattern;               /* -1: no pattern key */
  const guint8 *layers;         /* per-layer pattern (true: sliding) */
} GemmaOptions;

static HrGgufWriter *
gemma_writer (const GemmaOptions *o,
              Tally              *t)
{
  HrGgufWriter *w = hr_gguf_writer_new (3);
  g_autofree char *k_window = g_strdup_printf ("%s.attention.sliding_window", o->arch);
  g_autofree char *k_pattern = g_strdup_printf ("%s.attention.sliding_window_pattern", o->arch);
  const char *keys[][2] = {
    { "block_count", NULL }, { "context_length", NULL }, { "embedding_length", NULL },
    { "feed_forward_length", NULL }, { "attention.head_count", NULL },
    { "attention.head_count_kv", NULL }, { "attention.key_length", NULL },
    { "attention.value_length", NULL },
  };
  const guint32 values[] = { G_LAYERS, 131072, G_HIDDEN, G_FFN, G_HEADS, G_KV, G_HEAD_DIM,
                             G_HEAD_DIM };

  memset (t, 0, sizeof *t);
  hr_gguf_writer_add_string (w, "general.architecture", o->arch);
  hr_gguf_writer_add_uint32 (w, "general.file_type", 7);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autofree char *key = g_strdup_printf ("%s.%s", o->arch, keys[i][0]);

      hr_gguf_writer_add_uint32 (w, key, values[i]);
    }
  if (o->window > 0)
    hr_gguf_writer_add_uint32 (w, k_window, o->window);
  if (o->pattern >= 0)
    hr_gguf_writer_add_uint32 (w, k_pattern, o->pattern);
  if (o->layers != NULL)
    hr_gguf_writer_add_array (w, k_pattern, HR_GGUF_TYPE_BOOL, o->layers, G_LAYERS);
  hr_gguf_writer_add_tokens (w, G_VOCAB);

  add (w, t, "token_embd.weight", HR_GGML_TYPE_Q8_0, G_HIDDEN, G_VOCAB, 0);
  for (guint l = 0; l < G_LAYERS; l++)
    {
      add_blk (w, t, l, "attn_norm.weight", HR_GGML_TYPE_F32, G_HIDDEN, 0, 0);
      add_blk (w, t, l, "attn_q.weight", HR_GGML_TYPE_Q8_0, G_HIDDEN, G_HEADS * G_HEAD_DIM, 0);
      add_blk (w, t, l, "attn_k.weight", HR_GGML_TYPE_Q8_0, G_HIDDEN, G_KV * G_HEAD_DIM, 0);
      add_blk (w, t, l, "attn_v.weight", HR_GGML_TYPE_Q8_0, G_HIDDEN, G_KV * G_HEAD_DIM, 0);
      add_blk (w, t, l, "attn_output.weight", HR_GGML_TYPE_Q8_0, G_HEADS * G_HEAD_DIM,
               G_HIDDEN, 0);
      add_blk (w, t, l, "attn_q_norm.weight", HR_GGML_TYPE_F32, G_HEAD_DIM, 0, 0);
      add_blk (w, t, l, "attn_k_norm.weight", HR_GGML_TYPE_F32, G_HEAD_DIM, 0, 0);
      add_blk (w, t, l, "post_attention_norm.weight", HR_GGML_TYPE_F32, G_HIDDEN, 0, 0);
      add_blk (w, t, l, "ffn_norm.weight", HR_GGML_TYPE_F32, G_HIDDEN, 0, 0);
      add_blk (w, t, l, "ffn_gate.weight", HR_GGML_TYPE_Q8_0, G_HIDDEN, G_FFN, 0);
      add_blk (w, t, l, "ffn_up.weight", HR_GGML_TYPE_Q8_0, G_HIDDEN, G_FFN, 0);
      add_blk (w, t, l, "ffn_down.weight", HR_GGML_TYPE_Q8_0, G_FFN, G_HIDDEN, 0);
      add_blk (w, t, l, "post_ffw_norm.weight", HR_GGML_TYPE_F32, G_HIDDEN, 0, 0);
    }
  add (w, t, "output_norm.weight", HR_GGML_TYPE_F32, G_HIDDEN, 0, 0);
  return w;
}

static void
test_gemma (Fixture       *fixture,
            gconstpointer  user_data)
{
  static const guint8 every_third[G_LAYERS] = { 1, 1, 0, 1, 1, 0 };
  static const guint8 irregular[G_LAYERS] = { 1, 0, 1, 1, 1, 0 };
  static const guint8 none[G_LAYERS] = { 0 };
  static const struct
  {
    GemmaOptions o;
    guint64 window;
    guint64 period;
  } cases[] = {
    /* llama.cpp's Gemma 3 default: five local layers, then a global one. */
    { { "gemma3", 512, -1, NULL }, 512, 6 },
    { { "gemma3", 512, 3, NULL }, 512, 3 },
    { { "gemma3", 512, -1, every_third }, 512, 3 },
    /* Two global layers in six, at 1 and 5: at least as many globals. */
    { { "gemma3", 512, -1, irregular }, 512, 3 },
    /* A pattern of 1, or no local layer, is no window at all. */
    { { "gemma3", 512, 1, NULL }, 0, 0 },
    { { "gemma3", 512, -1, none }, 0, 0 },
    /* Gemma 3 without a window key has none (llama.cpp ≥ 2025). */
    { { "gemma3", 0, -1, NULL }, 0, 0 },
    /* Gemma 2: 4096 tokens on every other layer unless told otherwise. */
    { { "gemma2", 0, -1, NULL }, 4096, 2 },
    { { "gemma2", 1024, -1, NULL }, 1024, 2 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Tally t;
      g_autoptr(HrGgufWriter) w = gemma_writer (&cases[i].o, &t);
      g_autofree char *path = write_model (fixture, "gemma.gguf", w);
      g_autoptr(JsonObject) entry = entry_for (path);
      g_autoptr(HrModelSpec) spec = NULL;

      g_test_message ("case %u", i);
      assert_string (entry, "architecture", cases[i].o.arch);
      g_assert_true (json_object_get_boolean_member (entry, "tied_embeddings"));
      assert_int (entry, "head_dim", G_HEAD_DIM);
      assert_int (entry, "kv_heads", G_KV);
      assert_string (entry, "attention", "gqa");
      assert_int (entry, "params", (gint64) t.params);
      assert_int (entry, "active_params", (gint64) t.params);
      if (cases[i].window > 0)
        {
          assert_int (entry, "sliding_window", (gint64) cases[i].window);
          assert_int (entry, "swa_period", (gint64) cases[i].period);
        }
      else
        {
          assert_absent (entry, "sliding_window");
          assert_absent (entry, "swa_period");
        }
      spec = assert_valid (entry);
      g_assert_cmpuint (hr_model_spec_get_arch (spec)->sliding_window, ==, cases[i].window);
    }
}

/* ---------------------------------------------------------------------------
 * Falcon: one KV head, a plain MLP, tied embeddings, LayerNorm biases
 */

static void
test_falcon (Fixture       *fixture,
             gconstpointer  user_data)
{
  Tally t;
  g_autoptr(HrGgufWriter) w = hr_gguf_writer_new (3);
  g_autofree char *path = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(HrModelSpec) spec = NULL;
  const guint64 h = 256, heads = 4, head_dim = 64, ffn = 1024, vocab = 64;

  memset (&t, 0, sizeof t);
  hr_gguf_writer_add_string (w, "general.architecture", "falcon");
  hr_gguf_writer_add_uint32 (w, "falcon.block_count", 2);
  hr_gguf_writer_add_uint32 (w, "falcon.context_length", 2048);
  hr_gguf_writer_add_uint32 (w, "falcon.embedding_length", h);
  hr_gguf_writer_add_uint32 (w, "falcon.attention.head_count", heads);
  hr_gguf_writer_add_uint32 (w, "falcon.attention.head_count_kv", 1);
  /* No feed_forward_length: the width comes from ffn_up. */
  hr_gguf_writer_add_tokens (w, vocab);

  add (w, &t, "token_embd.weight", HR_GGML_TYPE_F16, h, vocab, 0);
  for (guint l = 0; l < 2; l++)
    {
      add_blk (w, &t, l, "attn_norm.weight", HR_GGML_TYPE_F32, h, 0, 0);
      add_blk (w, &t, l, "attn_norm.bias", HR_GGML_TYPE_F32, h, 0, 0);
      add_blk (w, &t, l, "attn_qkv.weight", HR_GGML_TYPE_F16, h, (heads + 2) * head_dim, 0);
      add_blk (w, &t, l, "attn_output.weight", HR_GGML_TYPE_F16, h, h, 0);
      add_blk (w, &t, l, "ffn_up.weight", HR_GGML_TYPE_F16, h, ffn, 0);
      add_blk (w, &t, l, "ffn_down.weight", HR_GGML_TYPE_F16, ffn, h, 0);
    }
  add (w, &t, "output_norm.weight", HR_GGML_TYPE_F32, h, 0, 0);
  add (w, &t, "output_norm.bias", HR_GGML_TYPE_F32, h, 0, 0);
  path = write_model (fixture, "falcon-7b.gguf", w);
  entry = entry_for (path);

  g_assert_cmpuint (t.params, ==, h * vocab + 2 * h +
                    2 * (2 * h + h * (heads + 2) * head_dim + h * h + 2 * h * ffn));
  assert_string (entry, "architecture", "falcon");
  assert_string (entry, "attention", "mqa");
  assert_string (entry, "mlp", "plain");
  assert_int (entry, "kv_heads", 1);
  assert_int (entry, "heads", heads);
  assert_int (entry, "head_dim", head_dim);
  assert_int (entry, "intermediate", ffn);
  assert_int (entry, "max_context", 2048);
  assert_int (entry, "params", (gint64) t.params);
  g_assert_true (json_object_get_boolean_member (entry, "tied_embeddings"));
  /* No general.file_type: nothing is guessed. */
  assert_file_facts (entry, path, &t, NULL);

  spec = assert_valid (entry);
  g_assert_true (hr_model_spec_get_plain_mlp (spec));
  g_assert_cmpint (hr_model_spec_get_arch (spec)->attention, ==, HR_ATTENTION_MQA);
}

/* ---------------------------------------------------------------------------
 * A model split by gguf-split
 */

static void
test_split (Fixture       *fixture,
            gconstpointer  user_data)
{
  Tally t, single;
  g_autoptr(HrGgufWriter) w1 = hr_gguf_writer_new (3);
  g_autoptr(HrGgufWriter) w2 = hr_gguf_writer_new (3);
  g_autoptr(HrGgufWriter) whole = llama_writer (NULL, &single);
  g_autofree char *p1 = NULL;
  g_autofree char *p2 = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(JsonObject) via_second = NULL;
  g_autoptr(JsonNode) described = NULL;
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *d;
  const guint64 n_tensors = 2 + 9 * L_LAYERS + 2;

  /* The first shard has the metadata, the embeddings and layer 0; the
   * second layer 1 and the output. */
  memset (&t, 0, sizeof t);
  add_llama_keys (w1, NULL);
  hr_gguf_writer_add_uint16 (w1, "split.no", 0);
  hr_gguf_writer_add_uint16 (w1, "split.count", 2);
  hr_gguf_writer_add_int32 (w1, "split.tensors.count", n_tensors);
  add (w1, &t, "token_embd.weight", HR_GGML_TYPE_Q4_K, L_HIDDEN, L_VOCAB, 0);
  add (w1, &t, "rope_freqs.weight", HR_GGML_TYPE_F32, L_HEAD_DIM / 2, 0, 0);
  add_llama_layer (w1, &t, 0);

  hr_gguf_writer_add_uint16 (w2, "split.no", 1);
  hr_gguf_writer_add_uint16 (w2, "split.count", 2);
  hr_gguf_writer_add_int32 (w2, "split.tensors.count", n_tensors);
  add_llama_layer (w2, &t, 1);
  add (w2, &t, "output_norm.weight", HR_GGML_TYPE_F32, L_HIDDEN, 0, 0);
  add (w2, &t, "output.weight", HR_GGML_TYPE_Q6_K, L_HIDDEN, L_VOCAB, 0);

  p1 = write_model (fixture, "tiny-00001-of-00002.gguf", w1);
  p2 = write_model (fixture, "tiny-00002-of-00002.gguf", w2);

  entry = entry_for (p1);
  via_second = entry_for (p2);
  g_assert_cmpuint (t.params, ==, single.params);
  g_assert_cmpuint (t.weights_bytes, ==, single.weights_bytes);
  assert_string (entry, "id", "tiny");
  assert_int (entry, "params", L_PARAMS);
  assert_int (entry, "layers", L_LAYERS);
  g_assert_false (json_object_get_boolean_member (entry, "tied_embeddings"));
  assert_file_facts (entry, p1, &t, "Q4_K_M");
  assert_int (via_second, "params", L_PARAMS);
  assert_int (via_second, "file_weights_bytes", (gint64) t.weights_bytes);
  spec = assert_valid (entry);

  described = hr_model_inspect_describe_gguf_file (p2, &error);
  g_assert_no_error (error);
  d = json_node_get_object (described);
  assert_int (d, "n_shards", 2);
  assert_int (d, "tensor_count", (gint64) n_tensors);
  assert_int (d, "weights_bytes", (gint64) t.weights_bytes);
  assert_int (d, "file_bytes", (gint64) (hr_gguf_writer_get_file_size (w1) +
                                         hr_gguf_writer_get_file_size (w2)));
  /* A missing shard is named. */
  g_unlink (p2);
  g_assert_null (hr_model_import_gguf (p1, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "shard 2 of 2 is missing"));
}

/* ---------------------------------------------------------------------------
 * Per-layer KV head counts
 */

static void
test_kv_array (Fixture       *fixture,
               gconstpointer  user_data)
{
  static const guint32 uniform[L_LAYERS] = { L_KV, L_KV };
  static const guint32 mixed[L_LAYERS] = { 2, 4 };
  static const guint32 too_many[L_LAYERS + 1] = { 2, 2, 2 };
  Tally t;
  g_autoptr(GError) error = NULL;

  {
    LlamaOptions o = { .kv_array = TRUE, .kv_values = uniform, .n_kv_values = L_LAYERS };
    g_autoptr(HrGgufWriter) w = llama_writer (&o, &t);
    g_autofree char *path = write_model (fixture, "kv-uniform.gguf", w);
    g_autoptr(JsonObject) entry = entry_for (path);
    g_autoptr(JsonNode) d = hr_model_inspect_describe_gguf_file (path, &error);
    JsonArray *kv;

    g_assert_no_error (error);
    assert_int (entry, "kv_heads", L_KV);
    assert_string (entry, "attention", "gqa");
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
                        json_node_get_object (d), "notes")), ==, 0);
    /* The raw metadata keeps the per-layer values. */
    kv = json_object_get_array_member (json_object_get_object_member (
                                         json_node_get_object (d), "metadata"),
                                       "llama.attention.head_count_kv");
    g_assert_nonnull (kv);
    g_assert_cmpuint (json_array_get_length (kv), ==, L_LAYERS);
    g_assert_cmpint (json_array_get_int_element (kv, 1), ==, L_KV);
  }

  {
    /* Not uniform: the largest, and a note. */
    LlamaOptions o = { .kv_array = TRUE, .kv_values = mixed, .n_kv_values = L_LAYERS };
    g_autoptr(HrGgufWriter) w = llama_writer (&o, &t);
    g_autofree char *path = write_model (fixture, "kv-mixed.gguf", w);
    g_autoptr(JsonObject) entry = entry_for (path);
    g_autoptr(JsonNode) d = hr_model_inspect_describe_gguf_file (path, &error);
    JsonArray *notes;

    g_assert_no_error (error);
    assert_int (entry, "kv_heads", 4);
    notes = json_object_get_array_member (json_node_get_object (d), "notes");
    g_assert_cmpuint (json_array_get_length (notes), ==, 1);
    g_assert_nonnull (strstr (json_array_get_string_element (notes, 0),
                              "llama.attention.head_count_kv differs between layers (2 to 4)"));
  }

  {
    LlamaOptions o = { .kv_array = TRUE, .kv_values = too_many, .n_kv_values = L_LAYERS + 1 };
    g_autoptr(HrGgufWriter) w = llama_writer (&o, &t);
    g_autofree char *path = write_model (fixture, "kv-long.gguf", w);
    g_autofree char *expected = g_strdup_printf ("%s: GGUF key “llama.attention.head_count_kv” "
                                                 "has 3 entries for 2 layers", path);

    g_assert_null (hr_model_import_gguf (path, &error));
    g_assert_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID);
    g_assert_cmpstr (error->message, ==, expected);
  }
}

/* Multi-token-prediction blocks count in block_count (and in per-layer
 * arrays) but not among the layers that generate text. */
static void
test_nextn (Fixture       *fixture,
            gconstpointer  user_data)
{
  static const guint32 kv[L_LAYERS] = { L_KV, L_KV };
  LlamaOptions o = { .kv_array = TRUE, .kv_values = kv, .n_kv_values = L_LAYERS };
  Tally t;
  g_autoptr(HrGgufWriter) w = llama_writer (&o, &t);
  g_autofree char *path = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(JsonNode) d = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *notes;

  hr_gguf_writer_add_uint32 (w, "llama.nextn_predict_layers", 1);
  path = write_model (fixture, "mtp.gguf", w);
  entry = entry_for (path);
  assert_int (entry, "layers", L_LAYERS - 1);
  assert_int (entry, "kv_heads", L_KV);
  /* Their weights are resident all the same. */
  assert_int (entry, "params", L_PARAMS);

  d = hr_model_inspect_describe_gguf_file (path, &error);
  g_assert_no_error (error);
  notes = json_object_get_array_member (json_node_get_object (d), "notes");
  g_assert_cmpuint (json_array_get_length (notes), ==, 1);
  g_assert_nonnull (strstr (json_array_get_string_element (notes, 0),
                            "1 multi-token-prediction layer left out"));
}

/* ---------------------------------------------------------------------------
 * Errors
 */

static void
assert_load_error (const char *path,
                   const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModelSpec) spec = hr_model_import_gguf (path, &error);

  g_assert_null (spec);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  /* One line, naming the file first. */
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_null (strchr (error->message, '\n'));
  if (strstr (error->message, fragment) == NULL)
    g_error ("“%s” does not contain “%s”", error->message, fragment);
}

static void
test_errors (Fixture       *fixture,
             gconstpointer  user_data)
{
  Tally t;

  {
    LlamaOptions o = { .arch = "mamba" };
    g_autoptr(HrGgufWriter) w = llama_writer (&o, &t);
    g_autofree char *path = write_model (fixture, "mamba.gguf", w);

    assert_load_error (path, ": GGUF architecture “mamba” is not supported (supported: llama, ");
  }
  {
    LlamaOptions o = { .no_block_count = TRUE };
    g_autoptr(HrGgufWriter) w = llama_writer (&o, &t);
    g_autofree char *path = write_model (fixture, "no-blocks.gguf", w);
    g_autofree char *expected = g_strdup_printf ("%s: GGUF key “llama.block_count” is missing",
                                                 path);
    g_autoptr(GError) error = NULL;

    g_assert_null (hr_model_import_gguf (path, &error));
    g_assert_cmpstr (error->message, ==, expected);
  }
  {
    g_autoptr(HrGgufWriter) w = hr_gguf_writer_new (3);
    g_autofree char *path = NULL;

    hr_gguf_writer_add_uint32 (w, "llama.block_count", 2);
    path = write_model (fixture, "no-arch.gguf", w);
    assert_load_error (path, "GGUF key “general.architecture” is missing");
  }
  {
    /* Hostile values are refused by name, not wrapped or trusted. */
    g_autoptr(HrGgufWriter) w = hr_gguf_writer_new (3);
    g_autofree char *path = NULL;

    hr_gguf_writer_add_string (w, "general.architecture", "llama");
    hr_gguf_writer_add_uint64 (w, "llama.block_count", G_GUINT64_CONSTANT (1) << 40);
    path = write_model (fixture, "huge.gguf", w);
    assert_load_error (path, "GGUF key “llama.block_count” is 1099511627776, above the limit");
  }
  {
    g_autoptr(HrGgufWriter) w = hr_gguf_writer_new (3);
    g_autofree char *path = NULL;

    hr_gguf_writer_add_string (w, "general.architecture", "llama");
    hr_gguf_writer_add_uint32 (w, "llama.block_count", 2);
    hr_gguf_writer_add_uint32 (w, "llama.embedding_length", 256);
    hr_gguf_writer_add_int32 (w, "llama.context_length", -4096);
    path = write_model (fixture, "negative.gguf", w);
    assert_load_error (path, "GGUF key “llama.context_length” must not be negative");
  }
  {
    g_autoptr(HrGgufWriter) w = hr_gguf_writer_new (3);
    g_autofree char *path = NULL;

    add_llama_keys (w, NULL);
    hr_gguf_writer_add_string (w, "llama.attention.key_length", "128");
    add (w, &t, "token_embd.weight", HR_GGML_TYPE_F32, L_HIDDEN, L_VOCAB, 0);
    path = write_model (fixture, "string.gguf", w);
    assert_load_error (path, "GGUF key “llama.attention.key_length” must be an integer, "
                       "not a string");
  }
  {
    g_autoptr(HrGgufWriter) w = hr_gguf_writer_new (3);
    g_autofree char *path = NULL;

    add_llama_keys (w, NULL);
    path = write_model (fixture, "empty.gguf", w);
    assert_load_error (path, "the file has no tensors");
  }
  {
    /* Shapes that contradict the metadata. */
    g_autoptr(HrGgufWriter) w = hr_gguf_writer_new (3);
    g_autofree char *path = NULL;

    add_llama_keys (w, NULL);
    add (w, &t, "token_embd.weight", HR_GGML_TYPE_F32, 128, L_VOCAB, 0);
    path = write_model (fixture, "narrow.gguf", w);
    assert_load_error (path, "tensor “token_embd.weight” is 128 wide but "
                       "llama.embedding_length is 256");
  }
  {
    g_autoptr(HrGgufWriter) w = hr_gguf_writer_new (3);
    g_autofree char *path = NULL;

    add_llama_keys (w, NULL);
    hr_gguf_writer_add_uint32 (w, "llama.expert_count", 8);
    hr_gguf_writer_add_uint32 (w, "llama.expert_used_count", 2);
    add (w, &t, "token_embd.weight", HR_GGML_TYPE_F32, L_HIDDEN, L_VOCAB, 0);
    path = write_model (fixture, "no-experts.gguf", w);
    assert_load_error (path, "GGUF key “llama.expert_count” says 8 experts but the file "
                       "has no expert tensors");
  }
  {
    /* 3 KV heads do not divide 8 query heads: the catalog's check. */
    static const guint32 three[L_LAYERS] = { 3, 3 };
    LlamaOptions o = { .kv_array = TRUE, .kv_values = three, .n_kv_values = L_LAYERS };
    g_autoptr(HrGgufWriter) w = llama_writer (&o, &t);
    g_autofree char *path = write_model (fixture, "kv3.gguf", w);

    assert_load_error (path, ": 3 KV heads do not divide 8 query heads");
  }
  {
    g_autofree char *path = g_build_filename (fixture->dir, "missing.gguf", NULL);

    assert_load_error (path, "no such file");
  }
}

/* Text of the file quoted in a message or kept in the catalog is one
 * displayable line: an escape sequence in general.architecture reached
 * the terminal, one in general.name every list and command. */
static void
test_hostile_text (Fixture       *fixture,
                   gconstpointer  user_data)
{
  Tally t;

  {
    LlamaOptions o = { .arch_value = "mamba\x1b[2J\n\xc2\x85" };
    g_autoptr(HrGgufWriter) w = llama_writer (&o, &t);
    g_autofree char *path = write_model (fixture, "escape.gguf", w);

    assert_load_error (path, "GGUF architecture “mamba\\x1b[2J\\n\\u0085” is not supported");
  }
  {
    LlamaOptions o = { .name = "Tiny\x1b[31m\nLlama\t$(x)" };
    g_autoptr(HrGgufWriter) w = llama_writer (&o, &t);
    g_autofree char *path = write_model (fixture, "name.gguf", w);
    g_autoptr(GError) error = NULL;
    g_autoptr(HrModelSpec) spec = hr_model_import_gguf (path, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (hr_model_spec_get_name (spec), ==, "Tiny\\x1b[31m\\nLlama\\t$(x)");
  }
}

/* A file that does not say its type (or says one llama.cpp does not
 * know) matches no precision: its bytes are used for none (before, a
 * GLib-CRITICAL, and the file's bytes for every precision). */
static void
test_unknown_file_type (Fixture       *fixture,
                        gconstpointer  user_data)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  HrPrecision *q4 = hr_catalog_find_precision (catalog, "q4_k_m");
  HrPrecision *q8 = hr_catalog_find_precision (catalog, "q8_0");
  Tally t;

  for (guint known = 0; known < 2; known++)
    {
      LlamaOptions o = { .no_file_type = !known };
      g_autoptr(HrGgufWriter) w = llama_writer (&o, &t);
      g_autofree char *path = write_model (fixture, "typeless.gguf", w);
      g_autoptr(GError) error = NULL;
      g_autoptr(HrModelSpec) spec = hr_model_import_gguf (path, &error);
      guint64 q4_bytes, q8_bytes, embd;

      g_assert_no_error (error);
      g_assert_cmpuint (hr_model_spec_get_file_weights_bytes (spec), ==, t.weights_bytes);
      for (HrEngine e = HR_ENGINE_LLAMACPP; e <= HR_ENGINE_OLLAMA; e++)
        {
          g_assert_true (hr_scenario_engine_weights (spec, q4, e, &q4_bytes, &embd));
          g_assert_true (hr_scenario_engine_weights (spec, q8, e, &q8_bytes, &embd));
          g_assert_cmpuint (q8_bytes, !=, t.weights_bytes);
          if (known)
            g_assert_cmpuint (q4_bytes, ==, t.weights_bytes);
          else
            g_assert_cmpuint (q4_bytes, !=, t.weights_bytes);
        }
      g_unlink (path);
    }
}

static void
test_file_type_names (void)
{
  g_assert_cmpstr (hr_gguf_file_type_name (0), ==, "F32");
  g_assert_cmpstr (hr_gguf_file_type_name (1), ==, "F16");
  g_assert_cmpstr (hr_gguf_file_type_name (7), ==, "Q8_0");
  g_assert_cmpstr (hr_gguf_file_type_name (15), ==, "Q4_K_M");
  g_assert_cmpstr (hr_gguf_file_type_name (17), ==, "Q5_K_M");
  g_assert_cmpstr (hr_gguf_file_type_name (18), ==, "Q6_K");
  g_assert_cmpstr (hr_gguf_file_type_name (30), ==, "IQ4_XS");
  g_assert_cmpstr (hr_gguf_file_type_name (32), ==, "BF16");
  g_assert_cmpstr (hr_gguf_file_type_name (38), ==, "MXFP4_MOE");
  g_assert_null (hr_gguf_file_type_name (5));
  g_assert_null (hr_gguf_file_type_name (1024));
}

/* Every GGUF precision of the catalog is a llama.cpp file type: a file
 * whose general.file_type is that LLAMA_FTYPE_* id imports with the
 * precision's file type, and the catalog gives it back that precision
 * (a Q4_K_S file is Q4_K_S, not the Q4_K_M a calculator may hold). */
static void
test_file_type_precisions (Fixture       *fixture,
                           gconstpointer  user_data)
{
  /* include/llama.h, enum llama_ftype, for the types issue 10 added. */
  static const struct { guint32 id; const char *precision; } added[] = {
    { 3, "q4_1" }, { 8, "q5_0" }, { 9, "q5_1" }, { 19, "iq2_xxs" }, { 20, "iq2_xs" },
    { 21, "q2_k_s" }, { 22, "iq3_xs" }, { 23, "iq3_xxs" }, { 24, "iq1_s" }, { 26, "iq3_s" },
    { 27, "iq3_m" }, { 28, "iq2_s" }, { 29, "iq2_m" }, { 31, "iq1_m" }, { 36, "tq1_0" },
    { 37, "tq2_0" }, { 38, "mxfp4" }, { 14, "q4_k_s" }, { 15, "q4_k_m" }, { 1, "fp16" },
  };
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  GListModel *precisions = hr_catalog_get_precisions (catalog);
  guint n_gguf = 0;

  for (guint i = 0; i < g_list_model_get_n_items (precisions); i++)
    {
      g_autoptr(HrPrecision) p = g_list_model_get_item (precisions, i);
      const char *file_type = hr_precision_get_file_type (p);
      gboolean found = FALSE;

      if (g_strcmp0 (hr_precision_get_kind (p), "safetensors") == 0)
        {
          g_assert_null (file_type);
          continue;
        }
      g_assert_nonnull (file_type);
      n_gguf++;
      for (guint id = 0; id < 64 && !found; id++)
        found = g_strcmp0 (hr_gguf_file_type_name (id), file_type) == 0;
      if (!found)
        g_error ("precision %s: no llama.cpp file type is called %s",
                 hr_precision_get_id (p), file_type);
    }
  g_assert_cmpuint (n_gguf, >=, 30);

  for (gsize i = 0; i < G_N_ELEMENTS (added); i++)
    {
      LlamaOptions o = { .no_file_type = TRUE };
      Tally t;
      g_autoptr(HrGgufWriter) w = llama_writer (&o, &t);
      g_autofree char *name = g_strdup_printf ("tiny-%u.gguf", added[i].id);
      g_autofree char *path = NULL;
      g_autoptr(HrModelSpec) model = NULL;
      g_autoptr(GError) error = NULL;
      HrPrecision *expected = hr_catalog_find_precision (catalog, added[i].precision);

      hr_gguf_writer_add_uint32 (w, "general.file_type", added[i].id);
      path = write_model (fixture, name, w);
      model = hr_model_import_file (path, &error);
      g_assert_no_error (error);
      g_assert_nonnull (expected);
      g_assert_cmpstr (hr_model_spec_get_file_type (model), ==,
                       hr_precision_get_file_type (expected));
      g_assert_true (hr_precision_find_for_file_type (precisions,
                                                      hr_model_spec_get_file_type (model)) ==
                     expected);
    }

  /* A file type no catalog precision has (Q4_0_4_4) matches none. */
  g_assert_null (hr_precision_find_for_file_type (precisions, hr_gguf_file_type_name (33)));
  g_assert_null (hr_precision_find_for_file_type (precisions, NULL));
}

/* An imported GGUF file is estimated with its own tensors by the nominal
 * (Generic) method too, for the file's own precision: the tiny Llama's
 * attn_v, ffn_down and output in Q6_K put it well above 4.85 bits per
 * weight, which params × bpw would miss.  Another precision of the same
 * model is still params × bpw. */
static void
test_nominal_file_size (Fixture       *fixture,
                        gconstpointer  user_data)
{
  Tally t;
  g_autoptr(HrGgufWriter) w = llama_writer (NULL, &t);
  g_autofree char *path = write_model (fixture, "tiny-llama-Q4_K_M.gguf", w);
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrModelSpec) model = NULL;
  g_autoptr(GError) error = NULL;
  HrPrecision *own;
  HrScenario s = { 0 };
  HrEstimate e;
  HrFormulas f = { .units = HR_UNITS_BINARY };
  double nominal;

  model = hr_model_import_file (path, &error);
  g_assert_no_error (error);
  own = hr_precision_find_for_file_type (hr_catalog_get_precisions (catalog),
                                         hr_model_spec_get_file_type (model));
  g_assert_cmpstr (hr_precision_get_id (own), ==, "q4_k_m");

  s.model = model;
  s.precision = own;
  s.kv_type = hr_catalog_find_kv_type (catalog, "fp16");
  s.hardware = hr_catalog_find_hardware (catalog, "rtx-3060-12gb");
  s.context = 4096;
  s.batch = 1;
  s.gpus = 1;
  s.engine = HR_ENGINE_GENERIC;

  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  nominal = (double) L_PARAMS * hr_precision_get_bpw (own) / 8;
  g_test_message ("file %" G_GUINT64_FORMAT " B, nominal %.0f B (%+.1f %%)", t.weights_bytes,
                  nominal, 100 * (nominal - t.weights_bytes) / t.weights_bytes);
  g_assert_cmpfloat (nominal, <, 0.96 * t.weights_bytes);
  g_assert_cmpuint (e.weights_bytes, ==, t.weights_bytes);
  g_assert_cmpuint (e.per_device_weights_bytes, ==, t.weights_bytes);
  g_assert_cmpuint (e.nominal_weights_bytes, ==, (guint64) llround (nominal));
  hr_scenario_explain (&s, &e, &f);
  g_assert_nonnull (strstr (f.text[HR_FORMULA_WEIGHTS], "the tensors of the imported file"));
  hr_formulas_clear (&f);

  /* Q8_0 is not the file's type: parameters × 8.5 bits. */
  s.precision = hr_catalog_find_precision (catalog, "q8_0");
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_cmpuint (e.weights_bytes, ==, (guint64) llround ((double) L_PARAMS * 8.5 / 8));
}

/* ---------------------------------------------------------------------------
 * What inspect prints
 */

static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_describe (Fixture       *fixture,
               gconstpointer  user_data)
{
  Tally t;
  g_autoptr(HrGgufWriter) w = llama_writer (NULL, &t);
  g_autofree char *path = write_model (fixture, "tiny-llama-Q4_K_M.gguf", w);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) described = hr_model_inspect_describe_gguf_file (path, &error);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *d, *meta, *model, *types;

  g_assert_no_error (error);

  /* Through text and back, as a script would read it. */
  json_generator_set_root (generator, described);
  text = json_generator_to_data (generator, NULL);
  node = parse (text);
  d = json_node_get_object (node);

  assert_string (d, "file", path);
  assert_string (d, "format", "gguf");
  assert_string (d, "architecture", "llama");
  assert_string (d, "file_type", "Q4_K_M");
  assert_int (d, "gguf_version", 3);
  assert_int (d, "n_shards", 1);
  assert_int (d, "tensor_count", 3 + 9 * L_LAYERS + 1);
  assert_int (d, "weights_bytes", (gint64) t.weights_bytes);
  assert_int (d, "file_bytes", (gint64) hr_gguf_writer_get_file_size (w));
  assert_int (d, "tokenizer_tokens", L_VOCAB);

  types = json_object_get_object_member (d, "bytes_by_type");
  assert_int (types, "Q4_K", (gint64) t.by_type[HR_GGML_TYPE_Q4_K]);
  assert_int (types, "Q6_K", (gint64) t.by_type[HR_GGML_TYPE_Q6_K]);
  assert_int (types, "F32", (gint64) t.by_type[HR_GGML_TYPE_F32]);
  g_assert_cmpuint (json_object_get_size (types), ==, 3);

  meta = json_object_get_object_member (d, "metadata");
  assert_string (meta, "general.architecture", "llama");
  assert_string (meta, "general.name", "Tiny Llama");
  assert_int (meta, "general.file_type", 15);
  assert_int (meta, "general.quantization_version", 2);
  assert_int (meta, "llama.block_count", L_LAYERS);
  assert_int (meta, "llama.context_length", 8192);
  assert_int (meta, "llama.embedding_length", L_HIDDEN);
  assert_int (meta, "llama.feed_forward_length", L_FFN);
  assert_int (meta, "llama.attention.head_count", L_HEADS);
  assert_int (meta, "llama.attention.head_count_kv", L_KV);
  assert_int (meta, "llama.rope.dimension_count", L_HEAD_DIM);
  assert_absent (meta, "llama.rope.freq_base");

  model = json_object_get_object_member (d, "model");
  assert_string (model, "architecture", "llama");
  assert_int (model, "layers", L_LAYERS);
  assert_int (model, "kv_heads", L_KV);
  g_assert_cmpfloat (json_object_get_double_member (model, "params"), ==, L_PARAMS);
  assert_string (model, "file_type", "Q4_K_M");
  assert_int (model, "file_weights_bytes", (gint64) t.weights_bytes);
  assert_int (json_object_get_object_member (model, "weights_by_type"), "Q4_K",
              (gint64) t.by_type[HR_GGML_TYPE_Q4_K]);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (d, "notes")), ==, 0);
}

/* headroom-cli end to end: inspect (JSON and text) and estimate. */
static void
test_cli (Fixture       *fixture,
          gconstpointer  user_data)
{
  Tally t;
  g_autoptr(HrGgufWriter) w = qwen3moe_writer (&t, TRUE);
  g_autofree char *path = write_model (fixture, "qwen3moe-Q8_0.gguf", w);
  g_autofree char *bad = g_build_filename (fixture->dir, "mamba.gguf", NULL);
  g_autoptr(JsonNode) inspected = NULL;
  g_autoptr(JsonNode) estimate = NULL;
  g_autofree char *text = NULL;
  g_autofree char *err = NULL;
  g_autofree char *out = NULL;
  JsonObject *o;
  int status;

  if (g_getenv ("HEADROOM_CLI") == NULL)
    {
      g_test_skip ("HEADROOM_CLI is not set");
      return;
    }

  inspected = hr_test_run_cli_json ((const char *[]) { "inspect", path, "--json", NULL });
  o = json_node_get_object (inspected);
  assert_string (o, "architecture", "qwen3moe");
  assert_string (o, "file_type", "Q8_0");
  assert_int (o, "weights_bytes", (gint64) t.weights_bytes);
  assert_int (o, "tensor_count", 1 + 12 * Q_LAYERS + 2);
  assert_int (json_object_get_object_member (o, "bytes_by_type"), "Q8_0",
              (gint64) t.by_type[HR_GGML_TYPE_Q8_0]);
  assert_int (json_object_get_object_member (o, "metadata"), "qwen3moe.expert_count",
              Q_EXPERTS);
  assert_string (json_object_get_object_member (o, "model"), "architecture", "qwen3_moe");

  text = hr_test_run_cli ((const char *[]) { "inspect", path, NULL }, &status, &err);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "GGUF v3, Q8_0"));
  g_assert_nonnull (strstr (text, "GQA, 4 query heads, 2 KV heads, head size 128"));
  g_assert_nonnull (strstr (text, "8 routed, 2 per token"));
  g_clear_pointer (&err, g_free);

  estimate = hr_test_run_cli_json ((const char *[]) {
    "estimate", "--model", path, "--precision", "q4_k_m", "--json", NULL });
  o = json_node_get_object (estimate);
  g_assert_cmpint (json_object_get_int_member (o, "weights_bytes"), >, 0);
  g_assert_cmpint (json_object_get_int_member (o, "kv_bytes"), >, 0);
  g_assert_cmpint (json_object_get_int_member (o, "total_bytes"), >,
                   json_object_get_int_member (o, "weights_bytes"));
  g_clear_pointer (&estimate, json_node_unref);

  /* Without --precision, a GGUF file is estimated in its own type, with
   * its own tensors even by the nominal method. */
  estimate = hr_test_run_cli_json ((const char *[]) {
    "estimate", "--model", path, "--engine", "generic", "--json", NULL });
  o = json_node_get_object (estimate);
  assert_string (o, "precision", "q8_0");
  assert_int (o, "weights_bytes", (gint64) t.weights_bytes);

  /* An unsupported file: one line naming it, exit status 1, no output. */
  {
    LlamaOptions lo = { .arch = "mamba" };
    g_autoptr(HrGgufWriter) wm = llama_writer (&lo, &t);
    g_autoptr(GError) error = NULL;

    hr_gguf_writer_write_file (wm, bad, &error);
    g_assert_no_error (error);
  }
  out = hr_test_run_cli ((const char *[]) { "inspect", bad, "--json", NULL }, &status, &err);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_str_has_prefix (err, bad));
  g_assert_nonnull (strstr (err, "GGUF architecture “mamba” is not supported"));
  g_assert_nonnull (strchr (err, '\n'));
  g_assert_cmpstr (strchr (err, '\n'), ==, "\n");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("/gguf-model/llama", test_llama);
  ADD ("/gguf-model/import-by-content", test_import_by_content);
  ADD ("/gguf-model/qwen3moe", test_qwen3moe);
  ADD ("/gguf-model/qwen3next", test_qwen3next);
  ADD ("/gguf-model/granitehybrid", test_granitehybrid);
  ADD ("/gguf-model/nemotron_h", test_nemotron_h);
  ADD ("/gguf-model/lfm2", test_lfm2);
  ADD ("/gguf-model/falcon-h1", test_falcon_h1);
  ADD ("/gguf-model/mixtral", test_mixtral);
  ADD ("/gguf-model/deepseek", test_deepseek);
  ADD ("/gguf-model/gemma", test_gemma);
  ADD ("/gguf-model/falcon", test_falcon);
  ADD ("/gguf-model/split", test_split);
  ADD ("/gguf-model/kv-array", test_kv_array);
  ADD ("/gguf-model/nextn", test_nextn);
  ADD ("/gguf-model/errors", test_errors);
  ADD ("/gguf-model/hostile-text", test_hostile_text);
  ADD ("/gguf-model/unknown-file-type", test_unknown_file_type);
  ADD ("/gguf-model/describe", test_describe);
  ADD ("/gguf-model/cli", test_cli);
  ADD ("/gguf-model/file-type-precisions", test_file_type_precisions);
  ADD ("/gguf-model/nominal-file-size", test_nominal_file_size);
  g_test_add_func ("/gguf-model/file-type-names", test_file_type_names);

#undef ADD

  return g_test_run ();
}
