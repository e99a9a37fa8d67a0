/* test-gguf.c — tests for the GGUF header reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Valid files are built with the writer helper and read back value by
 * value; then every way we know of to lie in a header is tried, each
 * expecting a specific error code; and a valid file is cut at every byte
 * offset, which must always fail cleanly.
 */

#define G_LOG_DOMAIN "test-gguf"

#include <string.h>

#include <glib/gstdio.h>

#ifdef G_OS_UNIX
#include <sys/stat.h>
#endif

#include "gguf-writer.h"
#include "hr-test-util.h"
#include "hr-gguf.h"

/* ---------------------------------------------------------------------------
 * ggml block sizes, written out here from the block structs in ggml's
 * ggml-common.h (QK_K = 256, ggml_half = 2 bytes) so the reader's own table
 * is checked against an independent derivation rather than against itself.
 */

#define QK_K 256
#define HALF 2

typedef struct
{
  guint32     type;
  const char *name;
  guint32     block;
  guint32     bytes;
} ExpectedType;

static const ExpectedType expected_types[] = {
  { 0,  "F32",     1,    4 },
  { 1,  "F16",     1,    HALF },
  { 2,  "Q4_0",    32,   HALF + 32 / 2 },
  { 3,  "Q4_1",    32,   2 * HALF + 32 / 2 },
  { 6,  "Q5_0",    32,   HALF + 4 + 32 / 2 },
  { 7,  "Q5_1",    32,   2 * HALF + 4 + 32 / 2 },
  { 8,  "Q8_0",    32,   HALF + 32 },
  { 9,  "Q8_1",    32,   2 * HALF + 32 },
  { 10, "Q2_K",    QK_K, 2 * HALF + QK_K / 16 + QK_K / 4 },
  { 11, "Q3_K",    QK_K, HALF + QK_K / 4 + QK_K / 8 + 12 },
  { 12, "Q4_K",    QK_K, 2 * HALF + 12 + QK_K / 2 },
  { 13, "Q5_K",    QK_K, 2 * HALF + 12 + QK_K / 2 + QK_K / 8 },
  { 14, "Q6_K",    QK_K, HALF + QK_K / 16 + 3 * QK_K / 4 },
  { 15, "Q8_K",    QK_K, 4 + QK_K + QK_K / 16 * 2 },
  { 16, "IQ2_XXS", QK_K, HALF + QK_K / 8 * 2 },
  { 17, "IQ2_XS",  QK_K, HALF + QK_K / 8 * 2 + QK_K / 32 },
  { 18, "IQ3_XXS", QK_K, HALF + 3 * (QK_K / 8) },
  { 19, "IQ1_S",   QK_K, HALF + QK_K / 8 + QK_K / 16 },
  { 20, "IQ4_NL",  32,   HALF + 32 / 2 },
  { 21, "IQ3_S",   QK_K, HALF + 13 * (QK_K / 32) + QK_K / 64 },
  { 22, "IQ2_S",   QK_K, HALF + QK_K / 4 + QK_K / 16 },
  { 23, "IQ4_XS",  QK_K, HALF + 2 + QK_K / 64 + QK_K / 2 },
  { 24, "I8",      1,    1 },
  { 25, "I16",     1,    2 },
  { 26, "I32",     1,    4 },
  { 27, "I64",     1,    8 },
  { 28, "F64",     1,    8 },
  { 29, "IQ1_M",   QK_K, QK_K / 8 + QK_K / 16 + QK_K / 32 },
  { 30, "BF16",    1,    2 },
  { 34, "TQ1_0",   QK_K, HALF + QK_K / 64 + (QK_K - 4 * QK_K / 64) / 5 },
  { 35, "TQ2_0",   QK_K, HALF + QK_K / 4 },
  { 39, "MXFP4",   32,   1 + 32 / 2 },
  { 40, "NVFP4",   64,   64 / 16 + 64 / 2 },
  { 41, "Q1_0",    128,  HALF + 128 / 8 },
  { 42, "Q2_0",    64,   HALF + 64 / 4 },
};

static const ExpectedType *
find_expected_type (guint32 type)
{
  for (gsize i = 0; i < G_N_ELEMENTS (expected_types); i++)
    if (expected_types[i].type == type)
      return &expected_types[i];
  g_assert_not_reached ();
}

static guint64
expected_bytes (guint32        type,
                guint32        n_dims,
                const guint64 *dims)
{
  const ExpectedType *e = find_expected_type (type);
  guint64 rows = 1;

  for (guint32 d = 1; d < n_dims; d++)
    rows *= dims[d];
  g_assert_cmpuint (dims[0] % e->block, ==, 0);
  return dims[0] / e->block * e->bytes * rows;
}

/* ---------------------------------------------------------------------------
 * A small llama-like model
 */

typedef struct
{
  const char *name;
  guint32     type;
  guint32     n_dims;
  guint64     dims[4];
} TestTensor;

static const TestTensor llama_tensors[] = {
  { "token_embd.weight",      HR_GGML_TYPE_Q4_K, 2, { 256, 16 } },
  { "blk.0.attn_norm.weight", HR_GGML_TYPE_F32,  1, { 256 } },
  { "blk.0.attn_q.weight",    HR_GGML_TYPE_Q4_K, 2, { 256, 8 } },
  { "blk.0.attn_k.weight",    HR_GGML_TYPE_Q8_0, 3, { 64, 2, 3 } },
  { "blk.0.ffn_down.weight",  HR_GGML_TYPE_Q6_K, 2, { 512, 4 } },
  { "output_norm.weight",     HR_GGML_TYPE_F32,  1, { 100 } },
  { "output.weight",          HR_GGML_TYPE_F16,  2, { 256, 3 } },
};

#define N_TOKENS 64

static const gint32 layer_kv[] = { 8, 2, 2, 8 };
static const gint64 negative_values[] = { 5, -1 };

static void
add_llama_tensors (HrGgufWriter *w)
{
  for (gsize i = 0; i < G_N_ELEMENTS (llama_tensors); i++)
    {
      const TestTensor *t = &llama_tensors[i];

      hr_gguf_writer_add_tensor (w, t->name, t->type, t->n_dims, t->dims,
                                 expected_bytes (t->type, t->n_dims, t->dims));
    }
}

/* Writes a nested array [[1, 2], [3]] of uint8 as a raw value. */
static GByteArray *
encode_nested_array (void)
{
  GByteArray *v = g_byte_array_new ();

  hr_gguf_put_u32 (v, HR_GGUF_TYPE_ARRAY);
  hr_gguf_put_u64 (v, 2);
  hr_gguf_put_u32 (v, HR_GGUF_TYPE_UINT8);
  hr_gguf_put_u64 (v, 2);
  hr_gguf_put_u8 (v, 1);
  hr_gguf_put_u8 (v, 2);
  hr_gguf_put_u32 (v, HR_GGUF_TYPE_UINT8);
  hr_gguf_put_u64 (v, 1);
  hr_gguf_put_u8 (v, 3);
  return v;
}

static HrGgufWriter *
llama_writer (guint32 version,
              guint32 alignment)
{
  HrGgufWriter *w = hr_gguf_writer_new (version);
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GByteArray) nested = encode_nested_array ();
  const float floats[] = { 0.5f, 1.5f };
  const guint8 bools[] = { 1, 0, 1 };

  for (guint i = 0; i < N_TOKENS; i++)
    g_ptr_array_add (tokens, g_strdup_printf ("tok%u", i));

  hr_gguf_writer_add_string (w, "general.architecture", "llama");
  hr_gguf_writer_add_string (w, "general.name", "Tiny Llama ünïcödé");
  if (alignment != 0)
    {
      hr_gguf_writer_set_alignment (w, alignment);
      hr_gguf_writer_add_uint32 (w, "general.alignment", alignment);
    }
  hr_gguf_writer_add_uint32 (w, "llama.block_count", 4);
  hr_gguf_writer_add_uint32 (w, "llama.embedding_length", 256);
  hr_gguf_writer_add_uint32 (w, "llama.attention.head_count", 8);
  hr_gguf_writer_add_uint32 (w, "llama.attention.head_count_kv", 2);
  hr_gguf_writer_add_uint64 (w, "llama.context_length", 131072);
  hr_gguf_writer_add_uint32 (w, "llama.feed_forward_length", 512);
  hr_gguf_writer_add_float32 (w, "llama.rope.freq_base", 500000.0f);
  hr_gguf_writer_add_float32 (w, "llama.attention.layer_norm_rms_epsilon", 1e-5f);
  hr_gguf_writer_add_string (w, "tokenizer.ggml.model", "gpt2");
  hr_gguf_writer_add_string_array (w, "tokenizer.ggml.tokens",
                                   (const char * const *) tokens->pdata, tokens->len);
  hr_gguf_writer_add_array (w, "test.layer_kv", HR_GGUF_TYPE_INT32,
                            layer_kv, G_N_ELEMENTS (layer_kv));
  hr_gguf_writer_add_array (w, "test.negative", HR_GGUF_TYPE_INT64,
                            negative_values, G_N_ELEMENTS (negative_values));
  hr_gguf_writer_add_array (w, "test.floats", HR_GGUF_TYPE_FLOAT32, floats, G_N_ELEMENTS (floats));
  hr_gguf_writer_add_array (w, "test.bools", HR_GGUF_TYPE_BOOL, bools, G_N_ELEMENTS (bools));
  hr_gguf_writer_add_raw (w, "test.nested", HR_GGUF_TYPE_ARRAY, nested->data, nested->len);
  hr_gguf_writer_add_bool (w, "test.bool", TRUE);
  hr_gguf_writer_add_uint8 (w, "test.u8", 200);
  hr_gguf_writer_add_int8 (w, "test.i8", -5);
  hr_gguf_writer_add_uint16 (w, "test.u16", 65535);
  hr_gguf_writer_add_int16 (w, "test.i16", -300);
  hr_gguf_writer_add_int32 (w, "test.i32", 7);
  hr_gguf_writer_add_uint64 (w, "test.u64", G_MAXUINT64 - 1);
  hr_gguf_writer_add_int64 (w, "test.i64", -(G_GINT64_CONSTANT (1) << 40));
  hr_gguf_writer_add_float64 (w, "test.f64", 3.25);
  hr_gguf_writer_add_string (w, "test.empty", "");

  add_llama_tensors (w);
  return w;
}

#define N_LLAMA_KV_WITH_ALIGNMENT 28

static void
assert_llama (HrGguf  *gguf,
              guint32  version,
              guint32  alignment)
{
  guint64 u;
  double f;
  g_autofree guint64 *values = NULL;
  gsize n;
  guint64 total = 0;
  guint64 by_type[HR_GGML_TYPE_LIMIT] = { 0, };
  HrGgufType type, element_type;

  g_assert_nonnull (gguf);
  g_assert_cmpuint (hr_gguf_get_version (gguf), ==, version);
  g_assert_cmpstr (hr_gguf_get_architecture (gguf), ==, "llama");
  g_assert_cmpstr (hr_gguf_get_string (gguf, "general.name"), ==, "Tiny Llama ünïcödé");
  g_assert_cmpuint (hr_gguf_get_alignment (gguf), ==,
                    alignment != 0 ? alignment : HR_GGUF_DEFAULT_ALIGNMENT);
  g_assert_cmpuint (hr_gguf_get_n_shards (gguf), ==, 1);

  /* Every key, in file order. */
  g_assert_cmpuint (hr_gguf_get_n_metadata (gguf), ==,
                    N_LLAMA_KV_WITH_ALIGNMENT - (alignment != 0 ? 0 : 1));
  g_assert_cmpstr (hr_gguf_get_metadata_key (gguf, 0), ==, "general.architecture");
  g_assert_cmpstr (hr_gguf_get_metadata_key (gguf, hr_gguf_get_n_metadata (gguf) - 1), ==,
                   "test.empty");
  g_assert_null (hr_gguf_get_metadata_key (gguf, hr_gguf_get_n_metadata (gguf)));

  g_assert_true (hr_gguf_get_uint (gguf, "llama.block_count", &u));
  g_assert_cmpuint (u, ==, 4);
  g_assert_true (hr_gguf_get_uint (gguf, "llama.embedding_length", &u));
  g_assert_cmpuint (u, ==, 256);
  g_assert_true (hr_gguf_get_uint (gguf, "llama.attention.head_count", &u));
  g_assert_cmpuint (u, ==, 8);
  g_assert_true (hr_gguf_get_uint (gguf, "llama.attention.head_count_kv", &u));
  g_assert_cmpuint (u, ==, 2);
  g_assert_true (hr_gguf_get_uint (gguf, "llama.context_length", &u));
  g_assert_cmpuint (u, ==, 131072);
  g_assert_true (hr_gguf_get_uint (gguf, "llama.feed_forward_length", &u));
  g_assert_cmpuint (u, ==, 512);

  g_assert_true (hr_gguf_get_float (gguf, "llama.rope.freq_base", &f));
  g_assert_cmpfloat (f, ==, 500000.0);
  g_assert_true (hr_gguf_get_float (gguf, "llama.attention.layer_norm_rms_epsilon", &f));
  g_assert_cmpfloat (f, ==, (double) 1e-5f);
  g_assert_true (hr_gguf_get_float (gguf, "test.f64", &f));
  g_assert_cmpfloat (f, ==, 3.25);
  /* Integers read as floats too. */
  g_assert_true (hr_gguf_get_float (gguf, "llama.block_count", &f));
  g_assert_cmpfloat (f, ==, 4.0);
  g_assert_true (hr_gguf_get_float (gguf, "test.i8", &f));
  g_assert_cmpfloat (f, ==, -5.0);
  g_assert_false (hr_gguf_get_float (gguf, "general.name", &f));
  g_assert_false (hr_gguf_get_uint (gguf, "test.f64", &u));

  /* Scalars of every integer type. */
  g_assert_true (hr_gguf_get_uint (gguf, "test.bool", &u));
  g_assert_cmpuint (u, ==, 1);
  g_assert_true (hr_gguf_get_uint (gguf, "test.u8", &u));
  g_assert_cmpuint (u, ==, 200);
  g_assert_false (hr_gguf_get_uint (gguf, "test.i8", &u));
  g_assert_true (hr_gguf_get_uint (gguf, "test.u16", &u));
  g_assert_cmpuint (u, ==, 65535);
  g_assert_false (hr_gguf_get_uint (gguf, "test.i16", &u));
  g_assert_true (hr_gguf_get_float (gguf, "test.i16", &f));
  g_assert_cmpfloat (f, ==, -300.0);
  g_assert_true (hr_gguf_get_uint (gguf, "test.i32", &u));
  g_assert_cmpuint (u, ==, 7);
  g_assert_true (hr_gguf_get_uint (gguf, "test.u64", &u));
  g_assert_cmpuint (u, ==, G_MAXUINT64 - 1);
  g_assert_false (hr_gguf_get_uint (gguf, "test.i64", &u));
  g_assert_true (hr_gguf_get_float (gguf, "test.i64", &f));
  g_assert_cmpfloat (f, ==, -1099511627776.0);

  /* Strings. */
  g_assert_cmpstr (hr_gguf_get_string (gguf, "tokenizer.ggml.model"), ==, "gpt2");
  g_assert_cmpstr (hr_gguf_get_string (gguf, "test.empty"), ==, "");
  g_assert_null (hr_gguf_get_string (gguf, "llama.block_count"));
  g_assert_null (hr_gguf_get_string (gguf, "no.such.key"));
  g_assert_false (hr_gguf_get_uint (gguf, "no.such.key", &u));

  /* Arrays: only short integer ones keep their values. */
  g_assert_cmpuint (hr_gguf_get_array_length (gguf, "tokenizer.ggml.tokens"), ==, N_TOKENS);
  g_assert_false (hr_gguf_get_uint_array (gguf, "tokenizer.ggml.tokens", &values, &n));
  g_assert_true (hr_gguf_get_metadata_type (gguf, "tokenizer.ggml.tokens", &type, &element_type));
  g_assert_cmpint (type, ==, HR_GGUF_TYPE_ARRAY);
  g_assert_cmpint (element_type, ==, HR_GGUF_TYPE_STRING);

  g_assert_true (hr_gguf_get_uint_array (gguf, "test.layer_kv", &values, &n));
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (layer_kv));
  for (gsize i = 0; i < n; i++)
    g_assert_cmpuint (values[i], ==, (guint64) layer_kv[i]);
  g_clear_pointer (&values, g_free);

  g_assert_cmpuint (hr_gguf_get_array_length (gguf, "test.negative"), ==, 2);
  g_assert_false (hr_gguf_get_uint_array (gguf, "test.negative", &values, &n));
  g_assert_cmpuint (hr_gguf_get_array_length (gguf, "test.floats"), ==, 2);
  g_assert_false (hr_gguf_get_uint_array (gguf, "test.floats", &values, &n));

  g_assert_true (hr_gguf_get_uint_array (gguf, "test.bools", &values, &n));
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (values[0], ==, 1);
  g_assert_cmpuint (values[1], ==, 0);
  g_clear_pointer (&values, g_free);

  g_assert_cmpuint (hr_gguf_get_array_length (gguf, "test.nested"), ==, 2);
  g_assert_false (hr_gguf_get_uint_array (gguf, "test.nested", &values, &n));
  g_assert_true (hr_gguf_get_metadata_type (gguf, "test.nested", &type, &element_type));
  g_assert_cmpint (element_type, ==, HR_GGUF_TYPE_ARRAY);

  g_assert_cmpuint (hr_gguf_get_array_length (gguf, "llama.block_count"), ==, 0);
  g_assert_false (hr_gguf_get_uint_array (gguf, "llama.block_count", &values, &n));
  g_assert_null (values);

  /* Tensors, in file order, and their sizes. */
  g_assert_cmpuint (hr_gguf_get_tensor_count (gguf), ==, G_N_ELEMENTS (llama_tensors));
  for (gsize i = 0; i < G_N_ELEMENTS (llama_tensors); i++)
    {
      const TestTensor *e = &llama_tensors[i];
      const HrGgufTensor *t = hr_gguf_get_tensor (gguf, i);
      guint64 bytes = expected_bytes (e->type, e->n_dims, e->dims);

      g_assert_nonnull (t);
      g_assert_cmpstr (t->name, ==, e->name);
      g_assert_cmpuint (t->n_dims, ==, e->n_dims);
      for (guint32 d = 0; d < 4; d++)
        g_assert_cmpuint (t->dims[d], ==, d < e->n_dims ? e->dims[d] : 1);
      g_assert_cmpuint (t->type, ==, e->type);
      g_assert_cmpuint (t->n_bytes, ==, bytes);
      g_assert_cmpuint (t->offset % hr_gguf_get_alignment (gguf), ==, 0);
      g_assert_cmpuint (t->shard, ==, 0);
      g_assert_true (hr_gguf_find_tensor (gguf, e->name) == t);

      total += bytes;
      by_type[e->type] += bytes;
    }
  g_assert_null (hr_gguf_get_tensor (gguf, G_N_ELEMENTS (llama_tensors)));
  g_assert_null (hr_gguf_find_tensor (gguf, "blk.1.attn_q.weight"));

  g_assert_cmpuint (hr_gguf_get_weights_bytes (gguf), ==, total);
  for (guint32 ty = 0; ty < HR_GGML_TYPE_LIMIT; ty++)
    g_assert_cmpuint (hr_gguf_get_bytes_by_type (gguf, ty), ==, by_type[ty]);
  g_assert_cmpuint (hr_gguf_get_bytes_by_type (gguf, 12345), ==, 0);

  /* Hand-checked against the block structs, so a bad table can't hide. */
  g_assert_cmpuint (by_type[HR_GGML_TYPE_Q4_K], ==, (16 + 8) * 144);
  g_assert_cmpuint (by_type[HR_GGML_TYPE_Q6_K], ==, 2 * 4 * 210);
  g_assert_cmpuint (by_type[HR_GGML_TYPE_Q8_0], ==, 2 * 6 * 34);
  g_assert_cmpuint (by_type[HR_GGML_TYPE_F16], ==, 256 * 3 * 2);
  g_assert_cmpuint (by_type[HR_GGML_TYPE_F32], ==, (256 + 100) * 4);
}

static GBytes *
build_llama (guint32 version,
             guint32 alignment)
{
  g_autoptr(HrGgufWriter) w = llama_writer (version, alignment);

  return hr_gguf_writer_build (w);
}

static void
test_llama_v3 (void)
{
  g_autoptr(HrGgufWriter) w = llama_writer (3, 64);
  g_autoptr(GBytes) bytes = hr_gguf_writer_build (w);
  g_autoptr(GBytes) header = hr_gguf_writer_build_header (w);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrGguf) from_header = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  gguf = hr_gguf_parse (data, len, len, &error);
  g_assert_no_error (error);
  assert_llama (gguf, 3, 64);
  g_assert_cmpuint (hr_gguf_get_file_size (gguf), ==, len);
  g_assert_cmpuint (hr_gguf_get_data_offset (gguf), ==, g_bytes_get_size (header));
  g_assert_cmpuint (hr_gguf_get_data_offset (gguf) % 64, ==, 0);

  /* The header alone is enough, given the true file size. */
  from_header = hr_gguf_parse (data, hr_gguf_writer_get_header_end (w), len, &error);
  g_assert_no_error (error);
  assert_llama (from_header, 3, 64);

  /* The streaming reader of hr_gguf_open(), with its window refilled at
   * every possible place in the fields. */
  for (gsize chunk = 1; chunk <= 80; chunk++)
    {
      g_autoptr(HrGguf) streamed = hr_gguf_parse_streaming (data, len, chunk, &error);

      g_assert_no_error (error);
      assert_llama (streamed, 3, 64);
    }
}

static void
test_llama_v2 (void)
{
  g_autoptr(GBytes) bytes = build_llama (2, 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  gguf = hr_gguf_parse (data, len, len, &error);
  g_assert_no_error (error);
  assert_llama (gguf, 2, 0);
}

/* Cutting the file anywhere must fail, never crash or succeed wrongly. */
static void
test_truncated_everywhere (void)
{
  g_autoptr(HrGgufWriter) w = llama_writer (3, 32);
  g_autoptr(GBytes) bytes = hr_gguf_writer_build (w);
  gsize len;
  const guint8 *full = g_bytes_get_data (bytes, &len);
  gsize header_end = hr_gguf_writer_get_header_end (w);

  for (gsize cut = 0; cut < len; cut++)
    {
      /* Copy, so that valgrind and ASan see reads past the cut. */
      g_autofree guint8 *data = g_memdup2 (full, MAX (cut, 1));
      g_autoptr(GError) error = NULL;
      g_autoptr(HrGguf) gguf = NULL;

      /* A file that really ends here. */
      gguf = hr_gguf_parse (cut > 0 ? data : NULL, cut, cut, &error);
      g_assert_null (gguf);
      g_assert_nonnull (error);
      g_assert_true (error->domain == HR_GGUF_ERROR);
      if (cut > 0)
        g_assert_cmpint (error->code, ==, HR_GGUF_ERROR_TRUNCATED);
      else
        g_assert_cmpint (error->code, ==, HR_GGUF_ERROR_NOT_GGUF);
      g_clear_error (&error);

      /* The same with the streaming reader. */
      gguf = hr_gguf_parse_streaming (cut > 0 ? data : NULL, cut, 5, &error);
      g_assert_null (gguf);
      g_assert_nonnull (error);
      g_assert_cmpint (error->code, ==, cut > 0 ? HR_GGUF_ERROR_TRUNCATED
                                                : HR_GGUF_ERROR_NOT_GGUF);
      g_clear_error (&error);

      /* Only the first bytes of a complete file: fine once the header is in. */
      gguf = hr_gguf_parse (cut > 0 ? data : NULL, cut, len, &error);
      if (cut < header_end)
        {
          g_assert_null (gguf);
          g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED);
        }
      else
        {
          g_assert_no_error (error);
          g_assert_nonnull (gguf);
          g_assert_cmpuint (hr_gguf_get_tensor_count (gguf), ==, G_N_ELEMENTS (llama_tensors));
        }
    }
}

/* ---------------------------------------------------------------------------
 * Hostile headers
 */

/* A minimal valid model that mutation tests extend. */
static HrGgufWriter *
base_writer (void)
{
  HrGgufWriter *w = hr_gguf_writer_new (3);

  hr_gguf_writer_add_string (w, "general.architecture", "llama");
  return w;
}

static void
add_f32 (HrGgufWriter *w,
         const char   *name,
         guint64       n)
{
  guint64 dims[1] = { n };

  hr_gguf_writer_add_tensor (w, name, HR_GGML_TYPE_F32, 1, dims, n * 4);
}

/* Parses what @w builds and checks the error code and a message fragment. */
static void
assert_fails_with_size (HrGgufWriter *w,
                        guint64       file_size,
                        int           code,
                        const char   *fragment)
{
  g_autoptr(GBytes) bytes = hr_gguf_writer_build (w);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  gguf = hr_gguf_parse (data, len, file_size != 0 ? file_size : len, &error);
  g_assert_null (gguf);
  g_assert_error (error, HR_GGUF_ERROR, code);
  g_test_message ("expected error: %s", error->message);
  if (fragment != NULL && strstr (error->message, fragment) == NULL)
    g_error ("error message \"%s\" does not contain \"%s\"", error->message, fragment);

  /* hr_gguf_open()'s streaming reader judges the file alike, however its
   * window falls on the fields. */
  if (file_size == 0)
    {
      static const gsize chunks[] = { 1, 7, 4096 };

      for (guint i = 0; i < G_N_ELEMENTS (chunks); i++)
        {
          g_autoptr(GError) streamed = NULL;

          g_assert_null (hr_gguf_parse_streaming (data, len, chunks[i], &streamed));
          g_assert_error (streamed, HR_GGUF_ERROR, code);
          g_assert_cmpstr (streamed->message, ==, error->message);
        }
    }
}

static void
assert_fails (HrGgufWriter *w,
              int           code,
              const char   *fragment)
{
  assert_fails_with_size (w, 0, code, fragment);
}

static void
test_bad_magic (void)
{
  g_autoptr(HrGgufWriter) w = base_writer ();
  g_autoptr(GBytes) bytes = hr_gguf_writer_build (w);
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *data = g_bytes_unref_to_data (g_steal_pointer (&bytes), &(gsize){ 0 });
  gsize len = hr_gguf_writer_get_file_size (w);
  HrGguf *gguf;

  data[0] = 'X';
  gguf = hr_gguf_parse (data, len, len, &error);
  g_assert_null (gguf);
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF);
  g_clear_error (&error);

  memcpy (data, "tjgg", 4);
  gguf = hr_gguf_parse (data, len, len, &error);
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF);
  g_assert_nonnull (strstr (error->message, "legacy"));
  g_clear_error (&error);

  /* The streaming reader judges the magic whole, however small its
   * window (the fuzzer found "GXUF" accepted with a 1-byte window). */
  for (gsize chunk = 1; chunk <= 5; chunk++)
    {
      memcpy (data, "GXUF", 4);
      g_assert_null (hr_gguf_parse_streaming (data, len, chunk, &error));
      g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF);
      g_clear_error (&error);

      memcpy (data, "tjgg", 4);
      g_assert_null (hr_gguf_parse_streaming (data, len, chunk, &error));
      g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF);
      g_assert_nonnull (strstr (error->message, "legacy"));
      g_clear_error (&error);
    }

  /* Even two bytes are enough to know. */
  gguf = hr_gguf_parse ((const guint8 *) "PK", 2, 2, &error);
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF);
  g_clear_error (&error);

  /* A NULL error must be fine too. */
  g_assert_null (hr_gguf_parse ((const guint8 *) "PK", 2, 2, NULL));
}

static void
test_versions (void)
{
  g_autoptr(HrGgufWriter) v1 = hr_gguf_writer_new (1);
  g_autoptr(HrGgufWriter) v4 = hr_gguf_writer_new (4);
  g_autoptr(HrGgufWriter) v0 = hr_gguf_writer_new (0);
  /* A big-endian v3 file: bytes 00 00 00 03, read little-endian. */
  g_autoptr(HrGgufWriter) be = hr_gguf_writer_new (0x03000000);

  assert_fails (v1, HR_GGUF_ERROR_VERSION, "GGUF version 1 is not supported");
  assert_fails (v4, HR_GGUF_ERROR_VERSION, "version 4");
  assert_fails (v0, HR_GGUF_ERROR_VERSION, "version 0");
  assert_fails (be, HR_GGUF_ERROR_VERSION, "big-endian");
}

static void
test_huge_string_length (void)
{
  g_autoptr(HrGgufWriter) w = base_writer ();
  g_autoptr(GByteArray) v = g_byte_array_new ();

  hr_gguf_put_u64 (v, G_MAXUINT32);
  g_byte_array_append (v, (const guint8 *) "abc", 3);
  hr_gguf_writer_add_raw (w, "general.name", HR_GGUF_TYPE_STRING, v->data, v->len);
  assert_fails (w, HR_GGUF_ERROR_TRUNCATED,
                "metadata key 'general.name': string length 4294967295 exceeds the remaining");
}

static void
test_huge_key_length (void)
{
  g_autoptr(HrGgufWriter) w = base_writer ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  guint8 *data;
  gsize len;
  guint64 forged = GUINT64_TO_LE (G_MAXUINT64);

  hr_gguf_writer_add_uint32 (w, "x", 1);
  bytes = hr_gguf_writer_build (w);
  data = g_bytes_unref_to_data (g_steal_pointer (&bytes), &len);

  /* The second key's length sits after the first entry. */
  memcpy (data + 24 + 8 + strlen ("general.architecture") + 4 + 8 + strlen ("llama"),
          &forged, sizeof forged);
  g_assert_null (hr_gguf_parse (data, len, len, &error));
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, "metadata key 1: string length 18446744073709551615"));
  g_free (data);
}

static void
test_huge_array_length (void)
{
  g_autoptr(HrGgufWriter) w = base_writer ();
  g_autoptr(HrGgufWriter) w2 = base_writer ();
  g_autoptr(HrGgufWriter) w3 = base_writer ();
  g_autoptr(GByteArray) v = g_byte_array_new ();
  g_autoptr(GByteArray) v2 = g_byte_array_new ();
  g_autoptr(GByteArray) v3 = g_byte_array_new ();

  hr_gguf_put_u32 (v, HR_GGUF_TYPE_UINT32);
  hr_gguf_put_u64 (v, G_GUINT64_CONSTANT (1) << 62);
  hr_gguf_put_u32 (v, 1);
  hr_gguf_writer_add_raw (w, "test.array", HR_GGUF_TYPE_ARRAY, v->data, v->len);
  assert_fails (w, HR_GGUF_ERROR_TRUNCATED, "array of 4611686018427387904 uint32 elements");

  /* A string array whose element claims to be huge. */
  hr_gguf_put_u32 (v2, HR_GGUF_TYPE_STRING);
  hr_gguf_put_u64 (v2, 2);
  hr_gguf_put_string (v2, "ok");
  hr_gguf_put_u64 (v2, G_MAXUINT64 - 3);
  hr_gguf_writer_add_raw (w2, "tokenizer.ggml.tokens", HR_GGUF_TYPE_ARRAY, v2->data, v2->len);
  assert_fails (w2, HR_GGUF_ERROR_TRUNCATED, "element 1: string length");

  /* Nested arrays: the outer count must fit the bytes left too. */
  hr_gguf_put_u32 (v3, HR_GGUF_TYPE_ARRAY);
  hr_gguf_put_u64 (v3, G_MAXUINT64 / 2);
  hr_gguf_writer_add_raw (w3, "test.nested", HR_GGUF_TYPE_ARRAY, v3->data, v3->len);
  assert_fails (w3, HR_GGUF_ERROR_TRUNCATED, "array elements");
}

static void
test_nesting_limit (void)
{
  g_autoptr(HrGgufWriter) ok = base_writer ();
  g_autoptr(HrGgufWriter) deep = base_writer ();
  g_autoptr(GByteArray) v = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  gsize len;
  const guint8 *data;

  /* Three levels are accepted ... */
  for (int level = 0; level < 2; level++)
    {
      hr_gguf_put_u32 (v, HR_GGUF_TYPE_ARRAY);
      hr_gguf_put_u64 (v, 1);
    }
  hr_gguf_put_u32 (v, HR_GGUF_TYPE_INT16);
  hr_gguf_put_u64 (v, 0);
  hr_gguf_writer_add_raw (ok, "test.deep", HR_GGUF_TYPE_ARRAY, v->data, v->len);
  bytes = hr_gguf_writer_build (ok);
  data = g_bytes_get_data (bytes, &len);
  gguf = hr_gguf_parse (data, len, len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_get_array_length (gguf, "test.deep"), ==, 1);

  /* ... four are not. */
  g_byte_array_set_size (v, 0);
  for (int level = 0; level < 3; level++)
    {
      hr_gguf_put_u32 (v, HR_GGUF_TYPE_ARRAY);
      hr_gguf_put_u64 (v, 1);
    }
  hr_gguf_put_u32 (v, HR_GGUF_TYPE_INT16);
  hr_gguf_put_u64 (v, 0);
  hr_gguf_writer_add_raw (deep, "test.deep", HR_GGUF_TYPE_ARRAY, v->data, v->len);
  assert_fails (deep, HR_GGUF_ERROR_LIMIT, "nested more than 3 deep");
}

static guint8 *
find_bytes (guint8     *haystack,
            gsize       len,
            const char *needle)
{
  gsize n = strlen (needle);

  for (gsize i = 0; i + n <= len; i++)
    if (memcmp (haystack + i, needle, n) == 0)
      return haystack + i;
  g_assert_not_reached ();
}

static void
test_bad_values (void)
{
  g_autoptr(HrGgufWriter) bad_type = base_writer ();
  g_autoptr(HrGgufWriter) bad_bool = base_writer ();
  g_autoptr(HrGgufWriter) bad_array_bool = base_writer ();
  g_autoptr(HrGgufWriter) bad_element = base_writer ();
  g_autoptr(HrGgufWriter) empty_key = base_writer ();
  g_autoptr(HrGgufWriter) nul_key = base_writer ();
  g_autoptr(HrGgufWriter) dup_key = base_writer ();
  g_autoptr(GByteArray) v = g_byte_array_new ();
  const guint8 two = 2;
  const guint8 bools[] = { 0, 1, 7 };

  hr_gguf_writer_add_raw (bad_type, "test.x", 13, "\0\0\0\0", 4);
  assert_fails (bad_type, HR_GGUF_ERROR_CORRUPT, "metadata key 'test.x' has unknown value type 13");

  hr_gguf_writer_add_raw (bad_bool, "test.b", HR_GGUF_TYPE_BOOL, &two, 1);
  assert_fails (bad_bool, HR_GGUF_ERROR_CORRUPT, "neither 0 nor 1");

  hr_gguf_writer_add_array (bad_array_bool, "test.b", HR_GGUF_TYPE_BOOL, bools, 3);
  assert_fails (bad_array_bool, HR_GGUF_ERROR_CORRUPT, "element 2");

  hr_gguf_put_u32 (v, 99);
  hr_gguf_put_u64 (v, 0);
  hr_gguf_writer_add_raw (bad_element, "test.a", HR_GGUF_TYPE_ARRAY, v->data, v->len);
  assert_fails (bad_element, HR_GGUF_ERROR_CORRUPT, "unknown element type 99");

  hr_gguf_writer_add_uint8 (empty_key, "", 1);
  assert_fails (empty_key, HR_GGUF_ERROR_CORRUPT, "metadata key 1: key is empty");

  /* A key with a NUL inside would look like a different, shorter key. */
  g_byte_array_set_size (v, 0);
  hr_gguf_writer_add_raw (nul_key, "general.alignment", HR_GGUF_TYPE_UINT32, "\x20\0\0\0", 4);
  {
    g_autoptr(GBytes) bytes = hr_gguf_writer_build (nul_key);
    g_autoptr(GError) error = NULL;
    gsize len;
    guint8 *data = g_bytes_unref_to_data (g_steal_pointer (&bytes), &len);
    guint8 *key = find_bytes (data, len, "general.alignment");

    key[7] = '\0';
    g_assert_null (hr_gguf_parse (data, len, len, &error));
    g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT);
    g_free (data);
  }

  hr_gguf_writer_add_uint32 (dup_key, "llama.block_count", 1);
  hr_gguf_writer_add_uint32 (dup_key, "llama.block_count", 2);
  assert_fails (dup_key, HR_GGUF_ERROR_CORRUPT, "'llama.block_count' appears more than once");
}

/* Arrays too long to keep are still walked and validated. */
static void
test_long_arrays (void)
{
  g_autoptr(HrGgufWriter) ok = base_writer ();
  g_autoptr(HrGgufWriter) bad = base_writer ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autofree guint8 *bools = g_new0 (guint8, HR_GGUF_MAX_STORED_ARRAY + 1);
  g_autofree guint64 *values = NULL;
  const guint8 *data;
  gsize len, n;

  hr_gguf_writer_add_array (ok, "test.bools", HR_GGUF_TYPE_BOOL, bools,
                            HR_GGUF_MAX_STORED_ARRAY + 1);
  bytes = hr_gguf_writer_build (ok);
  data = g_bytes_get_data (bytes, &len);
  gguf = hr_gguf_parse (data, len, len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_get_array_length (gguf, "test.bools"), ==,
                    HR_GGUF_MAX_STORED_ARRAY + 1);
  g_assert_false (hr_gguf_get_uint_array (gguf, "test.bools", &values, &n));

  bools[HR_GGUF_MAX_STORED_ARRAY] = 2;
  hr_gguf_writer_add_array (bad, "test.bools", HR_GGUF_TYPE_BOOL, bools,
                            HR_GGUF_MAX_STORED_ARRAY + 1);
  assert_fails (bad, HR_GGUF_ERROR_CORRUPT, "bool element 65536 has value 2");
}

static void
test_long_names (void)
{
  g_autoptr(HrGgufWriter) tensor = base_writer ();
  g_autoptr(HrGgufWriter) key = base_writer ();
  g_autoptr(HrGgufWriter) ok = base_writer ();
  g_autofree char *long_name = g_strnfill (HR_GGUF_MAX_NAME_LENGTH + 1, 'n');
  g_autofree char *long_key = g_strnfill (HR_GGUF_MAX_KEY_LENGTH + 1, 'k');
  g_autofree char *max_name = g_strnfill (HR_GGUF_MAX_NAME_LENGTH, 'n');
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  const guint8 *data;
  gsize len;

  add_f32 (tensor, long_name, 8);
  assert_fails (tensor, HR_GGUF_ERROR_CORRUPT, "tensor 0: name is 1025 bytes long");

  hr_gguf_writer_add_uint8 (key, long_key, 1);
  assert_fails (key, HR_GGUF_ERROR_CORRUPT, "metadata key 1: key is 65536 bytes long");

  add_f32 (ok, max_name, 8);
  bytes = hr_gguf_writer_build (ok);
  data = g_bytes_get_data (bytes, &len);
  gguf = hr_gguf_parse (data, len, len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (hr_gguf_find_tensor (gguf, max_name));
}

static void
test_invalid_utf8_string (void)
{
  g_autoptr(HrGgufWriter) w = base_writer ();
  g_autoptr(GByteArray) v = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  const guint8 *data;
  gsize len;

  hr_gguf_put_u64 (v, 4);
  g_byte_array_append (v, (const guint8 *) "a\xff\0b", 4);
  hr_gguf_writer_add_raw (w, "general.name", HR_GGUF_TYPE_STRING, v->data, v->len);
  bytes = hr_gguf_writer_build (w);
  data = g_bytes_get_data (bytes, &len);

  /* Free text is repaired rather than refused. */
  gguf = hr_gguf_parse (data, len, len, &error);
  g_assert_no_error (error);
  g_assert_true (g_utf8_validate (hr_gguf_get_string (gguf, "general.name"), -1, NULL));
  g_assert_true (g_str_has_prefix (hr_gguf_get_string (gguf, "general.name"), "a"));
}

/* Keys and tensor names are shown in messages and the Model view: a
 * control character in one (an escape sequence, a newline) is refused
 * as no writer produces it, not copied to a terminal. */
static void
test_control_in_names (void)
{
  static const char * const names[] = { "general.\x1b[2J", "a\nb", "tab\tkey", "del\x7f",
                                        "c1\xc2\x85" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(HrGgufWriter) key = base_writer ();
      g_autoptr(HrGgufWriter) tensor = base_writer ();

      hr_gguf_writer_add_uint8 (key, names[i], 1);
      assert_fails (key, HR_GGUF_ERROR_CORRUPT, "key holds a control character");
      add_f32 (tensor, names[i], 8);
      assert_fails (tensor, HR_GGUF_ERROR_CORRUPT, "name holds a control character");
    }
}

static void
test_counts (void)
{
  g_autoptr(HrGgufWriter) huge = base_writer ();
  g_autoptr(HrGgufWriter) many = base_writer ();
  g_autoptr(HrGgufWriter) huge_kv = base_writer ();
  g_autoptr(HrGgufWriter) many_kv = base_writer ();

  hr_gguf_writer_override_tensor_count (huge, G_MAXUINT64);
  assert_fails (huge, HR_GGUF_ERROR_LIMIT, "18446744073709551615 tensors");

  /* Under the limit, but more than the bytes could describe. */
  hr_gguf_writer_override_tensor_count (many, HR_GGUF_MAX_TENSORS);
  assert_fails (many, HR_GGUF_ERROR_TRUNCATED, "65536 tensors");

  hr_gguf_writer_override_kv_count (huge_kv, G_GUINT64_CONSTANT (1) << 40);
  assert_fails (huge_kv, HR_GGUF_ERROR_LIMIT, "metadata entries");

  hr_gguf_writer_override_kv_count (many_kv, 1000);
  assert_fails (many_kv, HR_GGUF_ERROR_TRUNCATED, "1000 metadata entries");
}

/* A header of @n minimal entries, all present: metadata entries (a 1-byte
 * key, a uint8 value) or tensor infos (a 1-byte name, one dimension of 1,
 * F32, offset 0).  The names repeat, so a reader that went through them
 * all would refuse the file only at the end. */
static GByteArray *
build_many_entries (guint64  n,
                    gboolean tensors)
{
  GByteArray *b = g_byte_array_sized_new (n * 41 + 24);

  g_byte_array_append (b, (const guint8 *) "GGUF", 4);
  hr_gguf_put_u32 (b, 3);
  hr_gguf_put_u64 (b, tensors ? n : 0);
  hr_gguf_put_u64 (b, tensors ? 0 : n);
  for (guint64 i = 0; i < n; i++)
    {
      hr_gguf_put_u64 (b, 1);
      hr_gguf_put_u8 (b, 'k');
      if (tensors)
        {
          hr_gguf_put_u32 (b, 1);
          hr_gguf_put_u64 (b, 1);
          hr_gguf_put_u32 (b, HR_GGML_TYPE_F32);
          hr_gguf_put_u64 (b, 0);
        }
      else
        {
          hr_gguf_put_u32 (b, HR_GGUF_TYPE_UINT8);
          hr_gguf_put_u8 (b, 0);
        }
    }
  return b;
}

/* Issue 28: 999,999 metadata entries or tensor infos, each really in the
 * file (the most accepted then), took 4.5 s and 180 MB to refuse.  Now a
 * count beyond what real files use is refused at once, naming the limit. */
static void
test_counts_limit (void)
{
  for (int tensors = 0; tensors <= 1; tensors++)
    {
      g_autoptr(GByteArray) b = build_many_entries (999999, tensors);
      g_autoptr(GError) error = NULL;
      g_autofree char *limit = g_strdup_printf ("at most %d", tensors ? HR_GGUF_MAX_TENSORS
                                                                      : HR_GGUF_MAX_METADATA);
      gint64 start = g_get_monotonic_time ();

      g_assert_null (hr_gguf_parse (b->data, b->len, b->len, &error));
      g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC / 10);
      g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT);
      g_assert_nonnull (strstr (error->message, tensors ? "999999 tensors"
                                                        : "999999 metadata entries"));
      g_assert_nonnull (strstr (error->message, limit));
    }
}

/* At the limits, a file is read, and quickly: HR_GGUF_MAX_METADATA keys
 * and HR_GGUF_MAX_TENSORS tensors. */
static void
test_counts_at_limit (void)
{
  g_autoptr(HrGgufWriter) w = hr_gguf_writer_new (3);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  const guint64 dims[1] = { 1 };
  gint64 start;
  gsize len;
  const guint8 *data;

  for (guint i = 0; i < HR_GGUF_MAX_METADATA; i++)
    {
      char key[32];

      g_snprintf (key, sizeof key, "test.key%u", i);
      hr_gguf_writer_add_uint8 (w, key, 1);
    }
  for (guint i = 0; i < HR_GGUF_MAX_TENSORS; i++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "t%u", i);
      hr_gguf_writer_add_tensor (w, name, HR_GGML_TYPE_F32, 1, dims, 4);
    }
  bytes = hr_gguf_writer_build (w);
  data = g_bytes_get_data (bytes, &len);

  start = g_get_monotonic_time ();
  gguf = hr_gguf_parse_streaming (data, len, 256 * 1024, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
  g_assert_cmpuint (hr_gguf_get_n_metadata (gguf), ==, HR_GGUF_MAX_METADATA);
  g_assert_cmpuint (hr_gguf_get_tensor_count (gguf), ==, HR_GGUF_MAX_TENSORS);
  g_assert_nonnull (hr_gguf_find_tensor (gguf, "t65535"));
}

static void
test_tensor_shapes (void)
{
  g_autoptr(HrGgufWriter) dims0 = base_writer ();
  g_autoptr(HrGgufWriter) dims5 = base_writer ();
  g_autoptr(HrGgufWriter) zero = base_writer ();
  g_autoptr(HrGgufWriter) overflow = base_writer ();
  g_autoptr(HrGgufWriter) row = base_writer ();
  g_autoptr(HrGgufWriter) too_big = base_writer ();
  const guint64 five[5] = { 1, 1, 1, 1, 1 };
  const guint64 with_zero[2] = { 32, 0 };
  const guint64 huge[3] = { G_GUINT64_CONSTANT (1) << 32, G_GUINT64_CONSTANT (1) << 32,
                            G_GUINT64_CONSTANT (1) << 32 };
  const guint64 ragged[2] = { 100, 2 };
  const guint64 max_dim[1] = { G_GUINT64_CONSTANT (1) << 63 };

  hr_gguf_writer_add_tensor (dims0, "blk.0.attn_q.weight", HR_GGML_TYPE_F32, 0, five, 4);
  assert_fails (dims0, HR_GGUF_ERROR_CORRUPT, "'blk.0.attn_q.weight' has 0 dimensions");

  hr_gguf_writer_add_tensor (dims5, "t", HR_GGML_TYPE_F32, 5, five, 4);
  assert_fails (dims5, HR_GGUF_ERROR_CORRUPT, "'t' has 5 dimensions");

  hr_gguf_writer_add_tensor (zero, "t", HR_GGML_TYPE_F32, 2, with_zero, 0);
  assert_fails (zero, HR_GGUF_ERROR_CORRUPT, "dimension 1 has invalid size 0");

  hr_gguf_writer_add_tensor (overflow, "big", HR_GGML_TYPE_F32, 3, huge, 32);
  assert_fails (overflow, HR_GGUF_ERROR_CORRUPT, "'big' shape");

  hr_gguf_writer_add_tensor (row, "t", HR_GGML_TYPE_Q4_K, 2, ragged, 32);
  assert_fails (row, HR_GGUF_ERROR_CORRUPT, "not a multiple of the Q4_K block size 256");

  hr_gguf_writer_add_tensor (too_big, "t", HR_GGML_TYPE_I8, 1, max_dim, 32);
  assert_fails (too_big, HR_GGUF_ERROR_CORRUPT, "invalid size 9223372036854775808");
}

static void
test_tensor_types (void)
{
  static const struct
  {
    guint32     type;
    const char *fragment;
  } cases[] = {
    { 4,  "ggml type 4 (Q4_2), which ggml has removed" },
    { 5,  "(Q4_3)" },
    { 31, "(Q4_0_4_4)" },
    { 32, "(Q4_0_4_8)" },
    { 33, "(Q4_0_8_8)" },
    { 36, "(IQ4_NL_4_4)" },
    { 37, "(IQ4_NL_4_8)" },
    { 38, "(IQ4_NL_8_8)" },
    { 43, "unknown ggml type 43" },
    { 99, "'t' has unknown ggml type 99" },
    { G_MAXUINT32, "unknown ggml type 4294967295" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HrGgufWriter) w = base_writer ();
      const guint64 dims[1] = { 256 };

      hr_gguf_writer_add_tensor (w, "t", cases[i].type, 1, dims, 256);
      assert_fails (w, HR_GGUF_ERROR_CORRUPT, cases[i].fragment);
    }
}

static void
test_tensor_placement (void)
{
  g_autoptr(HrGgufWriter) misaligned = base_writer ();
  g_autoptr(HrGgufWriter) past_eof = base_writer ();
  g_autoptr(HrGgufWriter) far = base_writer ();
  g_autoptr(HrGgufWriter) overlap = base_writer ();
  g_autoptr(HrGgufWriter) dup = base_writer ();
  g_autoptr(HrGgufWriter) short_file = base_writer ();
  const guint64 dims[1] = { 8 };
  g_autofree char *expected = NULL;

  add_f32 (misaligned, "a", 8);
  hr_gguf_writer_add_tensor_at (misaligned, "blk.0.attn_q.weight", HR_GGML_TYPE_F32, 1, dims, 48);
  assert_fails (misaligned, HR_GGUF_ERROR_CORRUPT,
                "tensor 'blk.0.attn_q.weight' data offset 48 "
                "is not a multiple of the alignment 32");

  /* The file is one byte shorter than the last tensor needs. */
  add_f32 (past_eof, "a", 8);
  add_f32 (past_eof, "blk.0.attn_q.weight", 8);
  expected = g_strdup_printf ("tensor 'blk.0.attn_q.weight' data ends at byte %" G_GUINT64_FORMAT
                              " past the end of the file (%" G_GUINT64_FORMAT " bytes)",
                              hr_gguf_writer_get_file_size (past_eof),
                              hr_gguf_writer_get_file_size (past_eof) - 1);
  assert_fails_with_size (past_eof, hr_gguf_writer_get_file_size (past_eof) - 1,
                          HR_GGUF_ERROR_TRUNCATED, expected);

  hr_gguf_writer_add_tensor_at (far, "t", HR_GGML_TYPE_F32, 1, dims, G_MAXUINT64 - 31);
  assert_fails (far, HR_GGUF_ERROR_TRUNCATED, "past the end of the file");

  add_f32 (overlap, "a", 16);
  hr_gguf_writer_add_tensor_at (overlap, "b", HR_GGML_TYPE_F32, 1, dims, 32);
  assert_fails (overlap, HR_GGUF_ERROR_CORRUPT, "tensors 'a' and 'b' overlap");

  add_f32 (dup, "blk.0.ffn_up.weight", 8);
  add_f32 (dup, "blk.0.ffn_up.weight", 8);
  assert_fails (dup, HR_GGUF_ERROR_CORRUPT, "'blk.0.ffn_up.weight' appears more than once");

  /* The header ends, but the data section is missing entirely. */
  add_f32 (short_file, "a", 8);
  assert_fails_with_size (short_file, hr_gguf_writer_get_header_end (short_file) + 1,
                          HR_GGUF_ERROR_TRUNCATED, "tensor data would start at byte");
}

static void
test_alignment (void)
{
  static const struct
  {
    guint32     value;
    int         code;
    const char *fragment;
  } cases[] = {
    { 0,       HR_GGUF_ERROR_CORRUPT, "general.alignment 0 is not a power of two" },
    { 3,       HR_GGUF_ERROR_CORRUPT, "general.alignment 3 is not a power of two" },
    { 48,      HR_GGUF_ERROR_CORRUPT, "not a power of two" },
    { 1 << 20, HR_GGUF_ERROR_LIMIT,   "is larger than" },
  };
  g_autoptr(HrGgufWriter) as_string = base_writer ();

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HrGgufWriter) w = base_writer ();

      hr_gguf_writer_add_uint32 (w, "general.alignment", cases[i].value);
      add_f32 (w, "a", 8);
      assert_fails (w, cases[i].code, cases[i].fragment);
    }

  hr_gguf_writer_add_string (as_string, "general.alignment", "32");
  assert_fails (as_string, HR_GGUF_ERROR_CORRUPT, "general.alignment must be");
}

/* Other valid alignments, and integer types other than uint32. */
static void
test_alignment_valid (void)
{
  static const guint32 alignments[] = { 1, 8, 64, 4096, 65536 };

  for (gsize i = 0; i < G_N_ELEMENTS (alignments); i++)
    {
      g_autoptr(HrGgufWriter) w = base_writer ();
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(HrGguf) gguf = NULL;
      const guint8 *data;
      gsize len;

      hr_gguf_writer_set_alignment (w, alignments[i]);
      hr_gguf_writer_add_uint64 (w, "general.alignment", alignments[i]);
      add_f32 (w, "a", 3);
      add_f32 (w, "b", 5);
      bytes = hr_gguf_writer_build (w);
      data = g_bytes_get_data (bytes, &len);
      gguf = hr_gguf_parse (data, len, len, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (hr_gguf_get_alignment (gguf), ==, alignments[i]);
      g_assert_cmpuint (hr_gguf_get_weights_bytes (gguf), ==, 32);
    }
}

/* Vocabulary-only files have no tensors and may stop right after the header. */
static void
test_no_tensors (void)
{
  g_autoptr(HrGgufWriter) w = base_writer ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const guint8 *data;
  gsize end;

  bytes = hr_gguf_writer_build (w);
  data = g_bytes_get_data (bytes, NULL);
  end = hr_gguf_writer_get_header_end (w);
  gguf = hr_gguf_parse (data, end, end, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_get_tensor_count (gguf), ==, 0);
  g_assert_cmpuint (hr_gguf_get_weights_bytes (gguf), ==, 0);
  g_assert_null (hr_gguf_find_tensor (gguf, "x"));
}

/* ---------------------------------------------------------------------------
 * ggml type helpers
 */

static void
test_type_table (void)
{
  guint32 block, size;
  guint n_known = 0;

  for (gsize i = 0; i < G_N_ELEMENTS (expected_types); i++)
    {
      const ExpectedType *e = &expected_types[i];

      g_assert_cmpstr (hr_ggml_type_name (e->type), ==, e->name);
      g_assert_true (hr_ggml_type_size (e->type, &block, &size));
      g_assert_cmpuint (block, ==, e->block);
      g_assert_cmpuint (size, ==, e->bytes);
    }

  /* Nothing else is known. */
  for (guint32 type = 0; type < 256; type++)
    {
      if (hr_ggml_type_size (type, NULL, NULL))
        {
          g_assert_nonnull (hr_ggml_type_name (type));
          n_known++;
        }
      else
        g_assert_null (hr_ggml_type_name (type));
    }
  g_assert_cmpuint (n_known, ==, G_N_ELEMENTS (expected_types));

  for (guint32 type = 4; type <= 38; type++)
    if (type == 4 || type == 5 || (type >= 31 && type <= 33) || type >= 36)
      g_assert_false (hr_ggml_type_size (type, &block, &size));
  g_assert_false (hr_ggml_type_size (G_MAXUINT32, &block, &size));

  /* A few spot values, as bits per weight, that people know by heart. */
  g_assert_true (hr_ggml_type_size (HR_GGML_TYPE_Q4_K, &block, &size));
  g_assert_cmpfloat (8.0 * size / block, ==, 4.5);
  g_assert_true (hr_ggml_type_size (HR_GGML_TYPE_Q6_K, &block, &size));
  g_assert_cmpfloat (8.0 * size / block, ==, 6.5625);
  g_assert_true (hr_ggml_type_size (HR_GGML_TYPE_Q8_0, &block, &size));
  g_assert_cmpfloat (8.0 * size / block, ==, 8.5);
}

static void
test_tensor_bytes (void)
{
  guint64 out = 0;
  const guint64 d4096[2] = { 4096, 4096 };
  const guint64 ragged[2] = { 4000, 2 };
  const guint64 huge[4] = { G_GUINT64_CONSTANT (1) << 32, G_GUINT64_CONSTANT (1) << 32, 1, 1 };
  const guint64 big_ok[2] = { G_GUINT64_CONSTANT (1) << 31, G_GUINT64_CONSTANT (1) << 31 };
  const guint64 with_zero[2] = { 256, 0 };

  g_assert_true (hr_ggml_tensor_bytes (HR_GGML_TYPE_Q4_K, d4096, 2, &out));
  g_assert_cmpuint (out, ==, 4096ull / 256 * 144 * 4096);
  g_assert_true (hr_ggml_tensor_bytes (HR_GGML_TYPE_F32, d4096, 1, &out));
  g_assert_cmpuint (out, ==, 4096 * 4);

  g_assert_false (hr_ggml_tensor_bytes (HR_GGML_TYPE_Q4_K, ragged, 2, &out));
  g_assert_true (hr_ggml_tensor_bytes (HR_GGML_TYPE_Q4_0, ragged, 2, &out));
  g_assert_cmpuint (out, ==, 4000 / 32 * 18 * 2);

  /* 2^64 elements overflow; 2^62 elements of 4 bytes overflow the bytes. */
  g_assert_false (hr_ggml_tensor_bytes (HR_GGML_TYPE_F32, huge, 4, &out));
  g_assert_false (hr_ggml_tensor_bytes (HR_GGML_TYPE_F32, big_ok, 2, &out));
  g_assert_true (hr_ggml_tensor_bytes (HR_GGML_TYPE_I8, big_ok, 2, &out));
  g_assert_cmpuint (out, ==, G_GUINT64_CONSTANT (1) << 62);

  g_assert_true (hr_ggml_tensor_bytes (HR_GGML_TYPE_F32, with_zero, 2, &out));
  g_assert_cmpuint (out, ==, 0);

  g_assert_false (hr_ggml_tensor_bytes (HR_GGML_TYPE_F32, d4096, 0, &out));
  g_assert_false (hr_ggml_tensor_bytes (HR_GGML_TYPE_F32, huge, 5, &out));
  g_assert_false (hr_ggml_tensor_bytes (4, d4096, 2, &out));
  g_assert_false (hr_ggml_tensor_bytes (HR_GGML_TYPE_F32, NULL, 1, &out));
}

/* ---------------------------------------------------------------------------
 * Files on disk
 */

typedef struct
{
  char *dir;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  user_data)
{
  fixture->dir = hr_test_make_temp_dir ("test-gguf");
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  user_data)
{
  hr_test_remove_temp_dir (fixture->dir);
  g_free (fixture->dir);
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
  return path;
}

static void
test_open_file (Fixture       *fixture,
                gconstpointer  user_data)
{
  g_autoptr(HrGgufWriter) w = llama_writer (3, 64);
  g_autofree char *path = write_model (fixture, "tiny-llama-Q4_K_M.gguf", w);
  g_autofree char *missing = g_build_filename (fixture->dir, "nope.gguf", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;

  gguf = hr_gguf_open (path, &error);
  g_assert_no_error (error);
  assert_llama (gguf, 3, 64);
  g_assert_cmpuint (hr_gguf_get_file_size (gguf), ==, hr_gguf_writer_get_file_size (w));

  g_assert_null (hr_gguf_open (missing, &error));
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "nope.gguf"));
  g_clear_error (&error);

  g_assert_null (hr_gguf_open (fixture->dir, &error));
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_IO);
  g_clear_error (&error);

  /* Devices and FIFOs have no size and could feed us forever. */
  if (g_file_test ("/dev/zero", G_FILE_TEST_EXISTS))
    {
      g_assert_null (hr_gguf_open ("/dev/zero", &error));
      g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_IO);
      g_assert_nonnull (strstr (error->message, "not a regular file"));
      g_clear_error (&error);
    }

#ifdef G_OS_UNIX
  /* Opening a FIFO for reading would block until a writer shows up. */
  {
    g_autofree char *fifo = g_build_filename (fixture->dir, "fifo.gguf", NULL);

    if (mkfifo (fifo, 0600) == 0)
      {
        g_assert_null (hr_gguf_open (fifo, &error));
        g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_IO);
        g_assert_nonnull (strstr (error->message, "not a regular file"));
        g_clear_error (&error);
      }
  }
#endif
}

/* A sparse 1 GiB file whose one key @key has the raw value @value: the
 * path, or %NULL when the test was skipped for want of sparse files. */
static char *
write_huge (Fixture     *fixture,
            const char  *name,
            const char  *key,
            guint32      type,
            GByteArray  *value)
{
  g_autoptr(HrGgufWriter) w = base_writer ();
  g_autofree char *path = g_build_filename (fixture->dir, name, NULL);
  g_autoptr(GError) error = NULL;
  const guint64 dims[1] = { G_GUINT64_CONSTANT (1) << 30 };

  hr_gguf_writer_add_raw (w, key, type, value->data, value->len);
  /* Only makes the file big; the parser never gets this far. */
  hr_gguf_writer_add_tensor (w, "pad", HR_GGML_TYPE_I8, 1, dims, dims[0]);
  if (!hr_gguf_writer_write_file (w, path, &error))
    {
      g_test_skip_printf ("cannot create a sparse 1 GiB file here: %s", error->message);
      return NULL;
    }
  return g_steal_pointer (&path);
}

/* A 400 MiB string inside a (sparse) 1 GiB file: legal on its face, but
 * past the string limit, so refused before it is read (it used to cost
 * 1.6 GB and 12 s to read and repair). */
static void
test_open_string_limit (Fixture       *fixture,
                        gconstpointer  user_data)
{
  g_autoptr(GByteArray) v = g_byte_array_new ();
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;

  hr_gguf_put_u64 (v, 400 * 1024 * 1024);
  path = write_huge (fixture, "huge-string.gguf", "general.name", HR_GGUF_TYPE_STRING, v);
  if (path == NULL)
    return;

  start = g_get_monotonic_time ();
  g_assert_null (hr_gguf_open (path, &error));
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT);
  g_assert_nonnull (strstr (error->message, "string is 419430400 bytes long; at most "
                            "16777216 are allowed"));
  /* Only the first megabyte was read. */
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC / 2);
}

/* A header past HR_GGUF_MAX_HEADER_BYTES made of legal, short values (a
 * long byte array): refused once the header is known to be that large,
 * without reading it. */
static void
test_open_header_limit (Fixture       *fixture,
                        gconstpointer  user_data)
{
  g_autoptr(GByteArray) v = g_byte_array_new ();
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  /* An array of 100 MiB of uint8: its elements are in the header. */
  hr_gguf_put_u32 (v, HR_GGUF_TYPE_UINT8);
  hr_gguf_put_u64 (v, 100 * 1024 * 1024);
  path = write_huge (fixture, "huge-header.gguf", "test.bytes", HR_GGUF_TYPE_ARRAY, v);
  if (path == NULL)
    return;

  g_assert_null (hr_gguf_open (path, &error));
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT);
  g_assert_nonnull (strstr (error->message, "header is larger than 64 MiB"));
}

/* A header far larger than the first read, as with 150k-token vocabularies,
 * and a data section of tens of gigabytes that must not be read. */
static void
test_open_large (Fixture       *fixture,
                 gconstpointer  user_data)
{
  g_autoptr(HrGgufWriter) w = base_writer ();
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autofree char *path = g_build_filename (fixture->dir, "big.gguf", NULL);
  g_autofree gint32 *token_types = g_new0 (gint32, 200000);
  const guint64 dims[2] = { 8192, 2621440 };   /* 40 GiB of F16 */
  gint64 start;

  for (guint i = 0; i < 200000; i++)
    g_ptr_array_add (tokens, g_strdup_printf ("token-number-%u", i));
  hr_gguf_writer_add_string_array (w, "tokenizer.ggml.tokens",
                                   (const char * const *) tokens->pdata, tokens->len);
  hr_gguf_writer_add_array (w, "tokenizer.ggml.token_type", HR_GGUF_TYPE_INT32,
                            token_types, 200000);
  hr_gguf_writer_add_tensor (w, "token_embd.weight", HR_GGML_TYPE_F16, 2, dims,
                             dims[0] * dims[1] * 2);
  g_assert_cmpuint (hr_gguf_writer_get_header_end (w), >, 4 * 1024 * 1024);

  if (!hr_gguf_writer_write_file (w, path, &error))
    {
      g_test_skip_printf ("cannot create a sparse 40 GiB file here: %s", error->message);
      return;
    }

  start = g_get_monotonic_time ();
  gguf = hr_gguf_open (path, &error);
  g_assert_no_error (error);
  g_test_message ("opened a %" G_GUINT64_FORMAT "-byte file with a %" G_GSIZE_FORMAT
                  "-byte header in %.1f ms", hr_gguf_get_file_size (gguf),
                  hr_gguf_writer_get_header_end (w),
                  (g_get_monotonic_time () - start) / 1000.0);

  g_assert_cmpuint (hr_gguf_get_array_length (gguf, "tokenizer.ggml.tokens"), ==, 200000);
  /* Too long to keep, but its length is known. */
  g_assert_cmpuint (hr_gguf_get_array_length (gguf, "tokenizer.ggml.token_type"), ==, 200000);
  g_assert_cmpuint (hr_gguf_get_weights_bytes (gguf), ==, dims[0] * dims[1] * 2);
  g_assert_cmpuint (hr_gguf_get_file_size (gguf), ==, hr_gguf_writer_get_file_size (w));
}

/* A two-shard model as llama.cpp's gguf-split writes it. */
static HrGgufWriter *
shard_writer (guint        shard_no,
              guint        count,
              const char  *first_tensor,
              const char  *second_tensor)
{
  HrGgufWriter *w = hr_gguf_writer_new (3);
  const guint64 q4k[2] = { 512, 16 };
  const guint64 norm[1] = { 512 };

  if (shard_no == 0)
    {
      hr_gguf_writer_add_string (w, "general.architecture", "llama");
      hr_gguf_writer_add_uint32 (w, "llama.block_count", 2);
    }
  hr_gguf_writer_add_uint16 (w, "split.no", shard_no);
  hr_gguf_writer_add_uint16 (w, "split.count", count);
  hr_gguf_writer_add_int32 (w, "split.tensors.count", 4);

  hr_gguf_writer_add_tensor (w, first_tensor, HR_GGML_TYPE_Q4_K, 2, q4k,
                             expected_bytes (HR_GGML_TYPE_Q4_K, 2, q4k));
  hr_gguf_writer_add_tensor (w, second_tensor, HR_GGML_TYPE_F32, 1, norm,
                             expected_bytes (HR_GGML_TYPE_F32, 1, norm));
  return w;
}

static void
test_open_split (Fixture       *fixture,
                 gconstpointer  user_data)
{
  g_autoptr(HrGgufWriter) w1 = shard_writer (0, 2, "blk.0.attn_q.weight", "blk.0.attn_norm.weight");
  g_autoptr(HrGgufWriter) w2 = shard_writer (1, 2, "blk.1.attn_q.weight", "blk.1.attn_norm.weight");
  g_autofree char *p1 = write_model (fixture, "model-Q4_K-00001-of-00002.gguf", w1);
  g_autofree char *p2 = write_model (fixture, "model-Q4_K-00002-of-00002.gguf", w2);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(HrGguf) via_second = NULL;
  g_autoptr(HrGguf) single = NULL;
  const HrGgufTensor *t;
  guint64 per_shard = expected_bytes (HR_GGML_TYPE_Q4_K, 2, (const guint64[]) { 512, 16 }) +
                      512 * 4;

  gguf = hr_gguf_open (p1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_get_n_shards (gguf), ==, 2);
  g_assert_cmpstr (hr_gguf_get_architecture (gguf), ==, "llama");
  g_assert_cmpuint (hr_gguf_get_tensor_count (gguf), ==, 4);
  g_assert_cmpuint (hr_gguf_get_file_size (gguf), ==,
                    hr_gguf_writer_get_file_size (w1) + hr_gguf_writer_get_file_size (w2));
  g_assert_cmpuint (hr_gguf_get_weights_bytes (gguf), ==, 2 * per_shard);
  g_assert_cmpuint (hr_gguf_get_bytes_by_type (gguf, HR_GGML_TYPE_F32), ==, 2 * 512 * 4);

  t = hr_gguf_find_tensor (gguf, "blk.1.attn_q.weight");
  g_assert_nonnull (t);
  g_assert_cmpuint (t->shard, ==, 1);
  g_assert_cmpuint (t->offset, ==, 0);
  t = hr_gguf_find_tensor (gguf, "blk.0.attn_norm.weight");
  g_assert_nonnull (t);
  g_assert_cmpuint (t->shard, ==, 0);
  g_assert_cmpstr (hr_gguf_get_tensor (gguf, 3)->name, ==, "blk.1.attn_norm.weight");

  /* Naming any shard opens the whole model. */
  via_second = hr_gguf_open (p2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_get_tensor_count (via_second), ==, 4);
  g_assert_cmpstr (hr_gguf_get_architecture (via_second), ==, "llama");

  /* A missing shard is named in the error. */
  g_unlink (p2);
  g_assert_null (hr_gguf_open (p1, &error));
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "shard 2 of 2 is missing"));
  g_assert_nonnull (strstr (error->message, "model-Q4_K-00002-of-00002.gguf"));
  g_clear_error (&error);

  /* A file that merely looks split, with one shard, is just a file. */
  {
    g_autoptr(HrGgufWriter) w = llama_writer (3, 32);
    g_autofree char *p = write_model (fixture, "solo-00001-of-00001.gguf", w);

    single = hr_gguf_open (p, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (hr_gguf_get_n_shards (single), ==, 1);
  }
}

static void
test_open_split_corrupt (Fixture       *fixture,
                         gconstpointer  user_data)
{
  g_autoptr(GError) error = NULL;

  /* The same tensor in both shards. */
  {
    g_autoptr(HrGgufWriter) w1 = shard_writer (0, 2, "a", "b");
    g_autoptr(HrGgufWriter) w2 = shard_writer (1, 2, "c", "a");
    g_autofree char *p1 = write_model (fixture, "dup-00001-of-00002.gguf", w1);
    g_free (write_model (fixture, "dup-00002-of-00002.gguf", w2));

    g_assert_null (hr_gguf_open (p1, &error));
    g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT);
    g_assert_nonnull (strstr (error->message, "'a' appears more than once"));
    g_clear_error (&error);
  }

  /* split.count disagrees with the file names. */
  {
    g_autoptr(HrGgufWriter) w1 = shard_writer (0, 3, "a", "b");
    g_autoptr(HrGgufWriter) w2 = shard_writer (1, 3, "c", "d");
    g_autofree char *p1 = write_model (fixture, "count-00001-of-00002.gguf", w1);
    g_free (write_model (fixture, "count-00002-of-00002.gguf", w2));

    g_assert_null (hr_gguf_open (p1, &error));
    g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT);
    g_assert_nonnull (strstr (error->message, "split.count is 3"));
    g_clear_error (&error);
  }

  /* split.no disagrees with the file name. */
  {
    g_autoptr(HrGgufWriter) w1 = shard_writer (0, 2, "a", "b");
    g_autoptr(HrGgufWriter) w2 = shard_writer (0, 2, "c", "d");
    g_autofree char *p1 = write_model (fixture, "no-00001-of-00002.gguf", w1);

    g_free (write_model (fixture, "no-00002-of-00002.gguf", w2));
    g_assert_null (hr_gguf_open (p1, &error));
    g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT);
    g_assert_nonnull (strstr (error->message, "no-00002-of-00002.gguf: split.no is 0"));
    g_clear_error (&error);
  }

  /* A shard lost its tensors: split.tensors.count notices. */
  {
    g_autoptr(HrGgufWriter) w1 = shard_writer (0, 2, "a", "b");
    g_autoptr(HrGgufWriter) w2 = hr_gguf_writer_new (3);
    g_autofree char *p1 = write_model (fixture, "lost-00001-of-00002.gguf", w1);

    hr_gguf_writer_add_uint16 (w2, "split.no", 1);
    hr_gguf_writer_add_uint16 (w2, "split.count", 2);
    g_free (write_model (fixture, "lost-00002-of-00002.gguf", w2));
    g_assert_null (hr_gguf_open (p1, &error));
    g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT);
    g_assert_nonnull (strstr (error->message, "split.tensors.count says 4 tensors"));
    g_clear_error (&error);
  }

  /* A broken second shard is reported with its file name. */
  {
    g_autoptr(HrGgufWriter) w1 = shard_writer (0, 2, "a", "b");
    g_autoptr(HrGgufWriter) w2 = hr_gguf_writer_new (1);
    g_autofree char *p1 = write_model (fixture, "bad-00001-of-00002.gguf", w1);
    g_free (write_model (fixture, "bad-00002-of-00002.gguf", w2));

    g_assert_null (hr_gguf_open (p1, &error));
    g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_VERSION);
    g_assert_nonnull (strstr (error->message, "bad-00002-of-00002.gguf"));
    g_clear_error (&error);
  }
}

static void
test_open_truncated_file (Fixture       *fixture,
                          gconstpointer  user_data)
{
  g_autoptr(HrGgufWriter) w = llama_writer (3, 32);
  g_autoptr(GBytes) bytes = hr_gguf_writer_build (w);
  g_autofree char *path = g_build_filename (fixture->dir, "cut.gguf", NULL);
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  g_file_set_contents (path, (const char *) data, (gssize) len - 1, &error);
  g_assert_no_error (error);
  g_assert_null (hr_gguf_open (path, &error));
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, "cut.gguf: tensor 'output.weight' data ends at"));
  g_clear_error (&error);

  g_file_set_contents (path, "", 0, &error);
  g_assert_no_error (error);
  g_assert_null (hr_gguf_open (path, &error));
  g_assert_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF);
}

/* ---------------------------------------------------------------------------
 * Seed corpus for tests/fuzz: `test-gguf --write-fuzz-corpus DIR`
 */

static void
write_corpus_file (const char   *dir,
                   const char   *name,
                   HrGgufWriter *w)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (hr_gguf_writer_get_file_size (w), <, 4096);
  if (!hr_gguf_writer_write_file (w, path, &error))
    g_error ("%s", error->message);
  g_print ("wrote %s (%" G_GUINT64_FORMAT " bytes)\n", path, hr_gguf_writer_get_file_size (w));
}

static void
write_fuzz_corpus (const char *dir)
{
  g_autoptr(HrGgufWriter) llama = hr_gguf_writer_new (3);
  g_autoptr(HrGgufWriter) arrays = hr_gguf_writer_new (2);
  g_autoptr(HrGgufWriter) vocab = hr_gguf_writer_new (3);
  g_autoptr(GByteArray) nested = encode_nested_array ();
  const char * const tokens[] = { "<s>", "</s>", "a", "b", "\u2581the" };
  const gint32 kv[] = { 4, 1, 1, 4 };
  const float scores[] = { 0.0f, -1.0f, -2.5f };
  const guint8 bools[] = { 1, 0 };
  const guint64 embd[2] = { 256, 2 };
  const guint64 norm[1] = { 64 };
  const guint64 out[2] = { 64, 4 };
  const guint64 q8[3] = { 32, 2, 2 };

  hr_gguf_writer_add_string (llama, "general.architecture", "llama");
  hr_gguf_writer_add_uint32 (llama, "general.alignment", 32);
  hr_gguf_writer_add_uint32 (llama, "llama.block_count", 1);
  hr_gguf_writer_add_uint32 (llama, "llama.embedding_length", 64);
  hr_gguf_writer_add_uint32 (llama, "llama.attention.head_count", 4);
  hr_gguf_writer_add_uint32 (llama, "llama.attention.head_count_kv", 1);
  hr_gguf_writer_add_uint64 (llama, "llama.context_length", 2048);
  hr_gguf_writer_add_float32 (llama, "llama.rope.freq_base", 10000.0f);
  hr_gguf_writer_add_string_array (llama, "tokenizer.ggml.tokens", tokens, G_N_ELEMENTS (tokens));
  hr_gguf_writer_add_tensor (llama, "token_embd.weight", HR_GGML_TYPE_Q4_K, 2, embd,
                             expected_bytes (HR_GGML_TYPE_Q4_K, 2, embd));
  hr_gguf_writer_add_tensor (llama, "output_norm.weight", HR_GGML_TYPE_F32, 1, norm,
                             expected_bytes (HR_GGML_TYPE_F32, 1, norm));
  hr_gguf_writer_add_tensor (llama, "output.weight", HR_GGML_TYPE_F16, 2, out,
                             expected_bytes (HR_GGML_TYPE_F16, 2, out));
  write_corpus_file (dir, "tiny-llama-v3.gguf", llama);

  hr_gguf_writer_add_string (arrays, "general.architecture", "qwen2");
  hr_gguf_writer_add_array (arrays, "qwen2.attention.head_count_kv", HR_GGUF_TYPE_INT32,
                            kv, G_N_ELEMENTS (kv));
  hr_gguf_writer_add_array (arrays, "tokenizer.ggml.scores", HR_GGUF_TYPE_FLOAT32,
                            scores, G_N_ELEMENTS (scores));
  hr_gguf_writer_add_array (arrays, "test.bools", HR_GGUF_TYPE_BOOL, bools, G_N_ELEMENTS (bools));
  hr_gguf_writer_add_raw (arrays, "test.nested", HR_GGUF_TYPE_ARRAY, nested->data, nested->len);
  hr_gguf_writer_add_int8 (arrays, "test.i8", -1);
  hr_gguf_writer_add_int16 (arrays, "test.i16", 300);
  hr_gguf_writer_add_uint16 (arrays, "test.u16", 7);
  hr_gguf_writer_add_uint8 (arrays, "test.u8", 9);
  hr_gguf_writer_add_int64 (arrays, "test.i64", 42);
  hr_gguf_writer_add_float64 (arrays, "test.f64", 0.125);
  hr_gguf_writer_add_bool (arrays, "test.bool", FALSE);
  hr_gguf_writer_add_tensor (arrays, "blk.0.attn_k.weight", HR_GGML_TYPE_Q8_0, 3, q8,
                             expected_bytes (HR_GGML_TYPE_Q8_0, 3, q8));
  write_corpus_file (dir, "arrays-v2.gguf", arrays);

  hr_gguf_writer_set_alignment (vocab, 64);
  hr_gguf_writer_add_string (vocab, "general.architecture", "gpt2");
  hr_gguf_writer_add_uint32 (vocab, "general.alignment", 64);
  hr_gguf_writer_add_string_array (vocab, "tokenizer.ggml.tokens", tokens, G_N_ELEMENTS (tokens));
  hr_gguf_writer_add_string (vocab, "tokenizer.ggml.model", "gpt2");
  write_corpus_file (dir, "vocab-only.gguf", vocab);
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 3 && g_str_equal (argv[1], "--write-fuzz-corpus"))
    {
      write_fuzz_corpus (argv[2]);
      return 0;
    }

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/gguf/types/table", test_type_table);
  g_test_add_func ("/gguf/types/tensor-bytes", test_tensor_bytes);
  g_test_add_func ("/gguf/parse/llama-v3", test_llama_v3);
  g_test_add_func ("/gguf/parse/llama-v2", test_llama_v2);
  g_test_add_func ("/gguf/parse/no-tensors", test_no_tensors);
  g_test_add_func ("/gguf/parse/alignment-valid", test_alignment_valid);
  g_test_add_func ("/gguf/parse/invalid-utf8-string", test_invalid_utf8_string);
  g_test_add_func ("/gguf/hostile/control-in-names", test_control_in_names);
  g_test_add_func ("/gguf/hostile/truncated-everywhere", test_truncated_everywhere);
  g_test_add_func ("/gguf/hostile/bad-magic", test_bad_magic);
  g_test_add_func ("/gguf/hostile/versions", test_versions);
  g_test_add_func ("/gguf/hostile/huge-string-length", test_huge_string_length);
  g_test_add_func ("/gguf/hostile/huge-key-length", test_huge_key_length);
  g_test_add_func ("/gguf/hostile/huge-array-length", test_huge_array_length);
  g_test_add_func ("/gguf/hostile/nesting-limit", test_nesting_limit);
  g_test_add_func ("/gguf/hostile/bad-values", test_bad_values);
  g_test_add_func ("/gguf/hostile/long-arrays", test_long_arrays);
  g_test_add_func ("/gguf/hostile/long-names", test_long_names);
  g_test_add_func ("/gguf/hostile/counts", test_counts);
  g_test_add_func ("/gguf/hostile/counts-limit", test_counts_limit);
  g_test_add_func ("/gguf/parse/counts-at-limit", test_counts_at_limit);
  g_test_add_func ("/gguf/hostile/tensor-shapes", test_tensor_shapes);
  g_test_add_func ("/gguf/hostile/tensor-types", test_tensor_types);
  g_test_add_func ("/gguf/hostile/tensor-placement", test_tensor_placement);
  g_test_add_func ("/gguf/hostile/alignment", test_alignment);
  g_test_add ("/gguf/open/file", Fixture, NULL, fixture_set_up, test_open_file, fixture_tear_down);
  g_test_add ("/gguf/open/large", Fixture, NULL, fixture_set_up, test_open_large,
              fixture_tear_down);
  g_test_add ("/gguf/open/header-limit", Fixture, NULL, fixture_set_up, test_open_header_limit,
              fixture_tear_down);
  g_test_add ("/gguf/open/string-limit", Fixture, NULL, fixture_set_up, test_open_string_limit,
              fixture_tear_down);
  g_test_add ("/gguf/open/split", Fixture, NULL, fixture_set_up, test_open_split,
              fixture_tear_down);
  g_test_add ("/gguf/open/split-corrupt", Fixture, NULL, fixture_set_up,
              test_open_split_corrupt, fixture_tear_down);
  g_test_add ("/gguf/open/truncated", Fixture, NULL, fixture_set_up, test_open_truncated_file,
              fixture_tear_down);

  return g_test_run ();
}
