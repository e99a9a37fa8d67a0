/* gguf-writer.c — builds GGUF files in code, for tests and calibration
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-gguf-writer"

#include <string.h>

#include "gguf-writer.h"

typedef struct
{
  char    *name;
  guint32  type;
  guint32  n_dims;
  guint64 *dims;
  guint64  offset;
} Tensor;

struct _HrGgufWriter
{
  guint32     version;
  guint32     alignment;
  gboolean    override_tensors;
  guint64     n_tensors_forged;
  gboolean    override_kv;
  guint64     n_kv_forged;
  guint       n_kv;
  GByteArray *kv;        /* encoded key/value pairs, back to back */
  GArray     *tensors;   /* Tensor */
  guint64     data_end;  /* next free (aligned) offset in the data */
};

static guint64
align_up (guint64 v,
          guint64 alignment)
{
  return (v + alignment - 1) / alignment * alignment;
}

void
hr_gguf_put_u8 (GByteArray *out,
                guint8      v)
{
  g_byte_array_append (out, &v, 1);
}

void
hr_gguf_put_u32 (GByteArray *out,
                 guint32     v)
{
  guint32 le = GUINT32_TO_LE (v);

  g_byte_array_append (out, (const guint8 *) &le, sizeof le);
}

void
hr_gguf_put_u64 (GByteArray *out,
                 guint64     v)
{
  guint64 le = GUINT64_TO_LE (v);

  g_byte_array_append (out, (const guint8 *) &le, sizeof le);
}

void
hr_gguf_put_string (GByteArray *out,
                    const char *s)
{
  gsize len = strlen (s);

  hr_gguf_put_u64 (out, len);
  g_byte_array_append (out, (const guint8 *) s, len);
}

static void
tensor_clear (gpointer data)
{
  Tensor *t = data;

  g_free (t->name);
  g_free (t->dims);
}

HrGgufWriter *
hr_gguf_writer_new (guint32 version)
{
  HrGgufWriter *self = g_new0 (HrGgufWriter, 1);

  self->version = version;
  self->alignment = HR_GGUF_DEFAULT_ALIGNMENT;
  self->kv = g_byte_array_new ();
  self->tensors = g_array_new (FALSE, TRUE, sizeof (Tensor));
  g_array_set_clear_func (self->tensors, tensor_clear);
  return self;
}

void
hr_gguf_writer_free (HrGgufWriter *self)
{
  if (self == NULL)
    return;

  g_byte_array_unref (self->kv);
  g_array_unref (self->tensors);
  g_free (self);
}

void
hr_gguf_writer_set_alignment (HrGgufWriter *self,
                              guint32       alignment)
{
  g_return_if_fail (alignment > 0);
  self->alignment = alignment;
}

void
hr_gguf_writer_override_tensor_count (HrGgufWriter *self,
                                      guint64       n)
{
  self->override_tensors = TRUE;
  self->n_tensors_forged = n;
}

void
hr_gguf_writer_override_kv_count (HrGgufWriter *self,
                                  guint64       n)
{
  self->override_kv = TRUE;
  self->n_kv_forged = n;
}

static void
begin_kv (HrGgufWriter *self,
          const char   *key,
          guint32       type)
{
  hr_gguf_put_string (self->kv, key);
  hr_gguf_put_u32 (self->kv, type);
  self->n_kv++;
}

void
hr_gguf_writer_add_raw (HrGgufWriter *self,
                        const char   *key,
                        guint32       type,
                        const void   *bytes,
                        gsize         len)
{
  begin_kv (self, key, type);
  g_byte_array_append (self->kv, bytes, len);
}

/* Fixed-size values: copy the host value, then fix the byte order. */
static void
put_fixed (GByteArray *out,
           HrGgufType  type,
           const void *value)
{
  switch (type)
    {
    case HR_GGUF_TYPE_UINT8:
    case HR_GGUF_TYPE_INT8:
    case HR_GGUF_TYPE_BOOL:
      hr_gguf_put_u8 (out, *(const guint8 *) value);
      break;

    case HR_GGUF_TYPE_UINT16:
    case HR_GGUF_TYPE_INT16:
      {
        guint16 le = GUINT16_TO_LE (*(const guint16 *) value);

        g_byte_array_append (out, (const guint8 *) &le, sizeof le);
        break;
      }

    case HR_GGUF_TYPE_UINT32:
    case HR_GGUF_TYPE_INT32:
    case HR_GGUF_TYPE_FLOAT32:
      {
        guint32 bits;

        memcpy (&bits, value, sizeof bits);
        hr_gguf_put_u32 (out, bits);
        break;
      }

    case HR_GGUF_TYPE_UINT64:
    case HR_GGUF_TYPE_INT64:
    case HR_GGUF_TYPE_FLOAT64:
      {
        guint64 bits;

        memcpy (&bits, value, sizeof bits);
        hr_gguf_put_u64 (out, bits);
        break;
      }

    default:
      g_return_if_reached ();
    }
}

static gsize
fixed_size (HrGgufType type)
{
  switch (type)
    {
    case HR_GGUF_TYPE_UINT8:
    case HR_GGUF_TYPE_INT8:
    case HR_GGUF_TYPE_BOOL:
      return 1;
    case HR_GGUF_TYPE_UINT16:
    case HR_GGUF_TYPE_INT16:
      return 2;
    case HR_GGUF_TYPE_UINT32:
    case HR_GGUF_TYPE_INT32:
    case HR_GGUF_TYPE_FLOAT32:
      return 4;
    case HR_GGUF_TYPE_UINT64:
    case HR_GGUF_TYPE_INT64:
    case HR_GGUF_TYPE_FLOAT64:
      return 8;
    default:
      return 0;
    }
}

static void
add_fixed (HrGgufWriter *self,
           const char   *key,
           HrGgufType    type,
           const void   *value)
{
  begin_kv (self, key, type);
  put_fixed (self->kv, type, value);
}

void
hr_gguf_writer_add_uint8 (HrGgufWriter *self,
                          const char   *key,
                          guint8        value)
{
  add_fixed (self, key, HR_GGUF_TYPE_UINT8, &value);
}

void
hr_gguf_writer_add_int8 (HrGgufWriter *self,
                         const char   *key,
                         gint8         value)
{
  add_fixed (self, key, HR_GGUF_TYPE_INT8, &value);
}

void
hr_gguf_writer_add_uint16 (HrGgufWriter *self,
                           const char   *key,
                           guint16       value)
{
  add_fixed (self, key, HR_GGUF_TYPE_UINT16, &value);
}

void
hr_gguf_writer_add_int16 (HrGgufWriter *self,
                          const char   *key,
                          gint16        value)
{
  add_fixed (self, key, HR_GGUF_TYPE_INT16, &value);
}

void
hr_gguf_writer_add_uint32 (HrGgufWriter *self,
                           const char   *key,
                           guint32       value)
{
  add_fixed (self, key, HR_GGUF_TYPE_UINT32, &value);
}

void
hr_gguf_writer_add_int32 (HrGgufWriter *self,
                          const char   *key,
                          gint32        value)
{
  add_fixed (self, key, HR_GGUF_TYPE_INT32, &value);
}

void
hr_gguf_writer_add_uint64 (HrGgufWriter *self,
                           const char   *key,
                           guint64       value)
{
  add_fixed (self, key, HR_GGUF_TYPE_UINT64, &value);
}

void
hr_gguf_writer_add_int64 (HrGgufWriter *self,
                          const char   *key,
                          gint64        value)
{
  add_fixed (self, key, HR_GGUF_TYPE_INT64, &value);
}

void
hr_gguf_writer_add_float32 (HrGgufWriter *self,
                            const char   *key,
                            float         value)
{
  add_fixed (self, key, HR_GGUF_TYPE_FLOAT32, &value);
}

void
hr_gguf_writer_add_float64 (HrGgufWriter *self,
                            const char   *key,
                            double        value)
{
  add_fixed (self, key, HR_GGUF_TYPE_FLOAT64, &value);
}

void
hr_gguf_writer_add_bool (HrGgufWriter *self,
                         const char   *key,
                         gboolean      value)
{
  guint8 b = value ? 1 : 0;

  add_fixed (self, key, HR_GGUF_TYPE_BOOL, &b);
}

void
hr_gguf_writer_add_string (HrGgufWriter *self,
                           const char   *key,
                           const char   *value)
{
  begin_kv (self, key, HR_GGUF_TYPE_STRING);
  hr_gguf_put_string (self->kv, value);
}

void
hr_gguf_writer_add_array (HrGgufWriter *self,
                          const char   *key,
                          HrGgufType    element_type,
                          const void   *values,
                          gsize         n)
{
  gsize size = fixed_size (element_type);

  g_return_if_fail (size > 0);

  begin_kv (self, key, HR_GGUF_TYPE_ARRAY);
  hr_gguf_put_u32 (self->kv, element_type);
  hr_gguf_put_u64 (self->kv, n);
  for (gsize i = 0; i < n; i++)
    put_fixed (self->kv, element_type, (const guint8 *) values + i * size);
}

void
hr_gguf_writer_add_string_array (HrGgufWriter       *self,
                                 const char         *key,
                                 const char * const *strings,
                                 gsize               n)
{
  begin_kv (self, key, HR_GGUF_TYPE_ARRAY);
  hr_gguf_put_u32 (self->kv, HR_GGUF_TYPE_STRING);
  hr_gguf_put_u64 (self->kv, n);
  for (gsize i = 0; i < n; i++)
    hr_gguf_put_string (self->kv, strings[i]);
}

void
hr_gguf_writer_add_tensor_at (HrGgufWriter  *self,
                              const char    *name,
                              guint32        ggml_type,
                              guint32        n_dims,
                              const guint64 *dims,
                              guint64        offset)
{
  Tensor t = { 0, };

  t.name = g_strdup (name);
  t.type = ggml_type;
  t.n_dims = n_dims;
  t.dims = g_memdup2 (dims, MAX (n_dims, 1) * sizeof (guint64));
  t.offset = offset;
  g_array_append_val (self->tensors, t);
}

void
hr_gguf_writer_add_tensor (HrGgufWriter  *self,
                           const char    *name,
                           guint32        ggml_type,
                           guint32        n_dims,
                           const guint64 *dims,
                           guint64        n_bytes)
{
  hr_gguf_writer_add_tensor_at (self, name, ggml_type, n_dims, dims, self->data_end);
  /* Writers pad every tensor, the last one included, to the alignment. */
  self->data_end = align_up (self->data_end + n_bytes, self->alignment);
}

static GByteArray *
encode_header (HrGgufWriter *self)
{
  GByteArray *out = g_byte_array_new ();

  g_byte_array_append (out, (const guint8 *) "GGUF", 4);
  hr_gguf_put_u32 (out, self->version);
  hr_gguf_put_u64 (out, self->override_tensors ? self->n_tensors_forged : self->tensors->len);
  hr_gguf_put_u64 (out, self->override_kv ? self->n_kv_forged : self->n_kv);
  g_byte_array_append (out, self->kv->data, self->kv->len);

  for (guint i = 0; i < self->tensors->len; i++)
    {
      const Tensor *t = &g_array_index (self->tensors, Tensor, i);

      hr_gguf_put_string (out, t->name);
      hr_gguf_put_u32 (out, t->n_dims);
      for (guint32 d = 0; d < t->n_dims; d++)
        hr_gguf_put_u64 (out, t->dims[d]);
      hr_gguf_put_u32 (out, t->type);
      hr_gguf_put_u64 (out, t->offset);
    }

  return out;
}

gsize
hr_gguf_writer_get_header_end (HrGgufWriter *self)
{
  g_autoptr(GByteArray) header = encode_header (self);

  return header->len;
}

GBytes *
hr_gguf_writer_build_header (HrGgufWriter *self)
{
  GByteArray *header = encode_header (self);
  gsize padded = align_up (header->len, self->alignment);

  /* g_byte_array_set_size() leaves the new bytes undefined. */
  while (header->len < padded)
    hr_gguf_put_u8 (header, 0);

  return g_byte_array_free_to_bytes (header);
}

guint64
hr_gguf_writer_get_file_size (HrGgufWriter *self)
{
  return align_up (hr_gguf_writer_get_header_end (self), self->alignment) + self->data_end;
}

GBytes *
hr_gguf_writer_build (HrGgufWriter *self)
{
  g_autoptr(GBytes) header = hr_gguf_writer_build_header (self);
  guint64 total = g_bytes_get_size (header) + self->data_end;
  guint8 *buf;

  g_return_val_if_fail (total <= G_MAXSIZE / 2, NULL);

  buf = g_malloc0 (MAX (total, 1));
  memcpy (buf, g_bytes_get_data (header, NULL), g_bytes_get_size (header));
  return g_bytes_new_take (buf, total);
}

gboolean
hr_gguf_writer_write_file (HrGgufWriter  *self,
                           const char    *path,
                           GError       **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(GBytes) header = hr_gguf_writer_build_header (self);
  gsize len;
  const guint8 *data = g_bytes_get_data (header, &len);

  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, error);
  if (stream == NULL)
    return FALSE;

  if (!g_output_stream_write_all (G_OUTPUT_STREAM (stream), data, len, NULL, NULL, error))
    return FALSE;

  /* Extending by truncate leaves a hole instead of writing zeros. */
  if (self->data_end > 0 &&
      !g_seekable_truncate (G_SEEKABLE (stream), (goffset) (len + self->data_end), NULL, error))
    return FALSE;

  return g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, error);
}

/* A two-layer llama of tiny widths in Q8_0 (rows of 64), named @name: a
 * file every importer path accepts, for tests that need one on disk. */
gboolean
hr_gguf_writer_write_tiny_llama (const char  *path,
                                 const char  *name,
                                 GError     **error)
{
  enum { HIDDEN = 64, FFN = 128, HEADS = 4, KV = 2, HEAD_DIM = 16, VOCAB = 256, LAYERS = 2 };
  static const struct { const char *suffix; guint64 rows, cols; } block[] = {
    { "attn_norm.weight", HIDDEN, 0 },
    { "attn_q.weight", HIDDEN, HEADS * HEAD_DIM },
    { "attn_k.weight", HIDDEN, KV * HEAD_DIM },
    { "attn_v.weight", HIDDEN, KV * HEAD_DIM },
    { "attn_output.weight", HEADS * HEAD_DIM, HIDDEN },
    { "ffn_norm.weight", HIDDEN, 0 },
    { "ffn_gate.weight", HIDDEN, FFN },
    { "ffn_up.weight", HIDDEN, FFN },
    { "ffn_down.weight", FFN, HIDDEN },
  };
  HrGgufWriter *w = hr_gguf_writer_new (3);
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);
  gboolean ok;

  hr_gguf_writer_add_string (w, "general.architecture", "llama");
  hr_gguf_writer_add_string (w, "general.name", name);
  hr_gguf_writer_add_uint32 (w, "general.file_type", 7);          /* MOSTLY_Q8_0 */
  hr_gguf_writer_add_uint32 (w, "llama.block_count", LAYERS);
  hr_gguf_writer_add_uint32 (w, "llama.context_length", 4096);
  hr_gguf_writer_add_uint32 (w, "llama.embedding_length", HIDDEN);
  hr_gguf_writer_add_uint32 (w, "llama.feed_forward_length", FFN);
  hr_gguf_writer_add_uint32 (w, "llama.attention.head_count", HEADS);
  hr_gguf_writer_add_uint32 (w, "llama.attention.head_count_kv", KV);
  for (guint i = 0; i < VOCAB; i++)
    g_ptr_array_add (tokens, g_strdup_printf ("t%u", i));
  hr_gguf_writer_add_string_array (w, "tokenizer.ggml.tokens",
                                   (const char * const *) tokens->pdata, tokens->len);

  {
    guint64 dims[2] = { HIDDEN, VOCAB };

    hr_gguf_writer_add_tensor (w, "token_embd.weight", HR_GGML_TYPE_Q8_0, 2, dims,
                               HIDDEN * VOCAB / 32 * 34);
    hr_gguf_writer_add_tensor (w, "output.weight", HR_GGML_TYPE_Q8_0, 2, dims,
                               HIDDEN * VOCAB / 32 * 34);
  }
  {
    guint64 dims[1] = { HIDDEN };

    hr_gguf_writer_add_tensor (w, "output_norm.weight", HR_GGML_TYPE_F32, 1, dims, HIDDEN * 4);
  }
  for (guint l = 0; l < LAYERS; l++)
    for (guint t = 0; t < G_N_ELEMENTS (block); t++)
      {
        g_autofree char *tensor = g_strdup_printf ("blk.%u.%s", l, block[t].suffix);
        guint64 dims[2] = { block[t].rows, block[t].cols };

        if (block[t].cols == 0)
          hr_gguf_writer_add_tensor (w, tensor, HR_GGML_TYPE_F32, 1, dims, block[t].rows * 4);
        else
          hr_gguf_writer_add_tensor (w, tensor, HR_GGML_TYPE_Q8_0, 2, dims,
                                     block[t].rows * block[t].cols / 32 * 34);
      }

  ok = hr_gguf_writer_write_file (w, path, error);
  hr_gguf_writer_free (w);
  return ok;
}

void
hr_gguf_writer_add_tokens (HrGgufWriter *self,
                           guint         n)
{
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (tokens, g_strdup_printf ("t%u", i));
  hr_gguf_writer_add_string_array (self, "tokenizer.ggml.tokens",
                                   (const char * const *) tokens->pdata, tokens->len);
}
