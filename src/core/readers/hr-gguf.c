/* hr-gguf.c — a hostile-input-safe reader for GGUF model headers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout (little-endian throughout, see ggml's docs/gguf.md):
 *
 *   "GGUF"  u32 version  u64 n_tensors  u64 n_kv
 *   n_kv ×      { string key, u32 value_type, value }
 *   n_tensors × { string name, u32 n_dims, u64 dims[n_dims], u32 ggml_type,
 *                 u64 offset }
 *   padding to general.alignment, then the tensor data
 *
 * where a string is a u64 byte length followed by that many bytes.
 *
 * The parser reads through a window on the file (see "Reader" below):
 * hr_gguf_parse() gives it a buffer that may hold only the start of the
 * file, hr_gguf_open() a small buffer it refills as the parse goes, in one
 * pass that never reads tensor data.  "This field runs past the end of the
 * *file*" is a final TRUNCATED error; past the end of a buffer, too, but
 * saying that the header continues.
 */

#define G_LOG_DOMAIN "hr-gguf"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>

#include "hr-file.h"
#include "hr-gguf.h"
#include "hr-text.h"

G_DEFINE_QUARK (hr-gguf-error-quark, hr_gguf_error)

/* What hr_gguf_open() reads at a time into the one buffer it reuses for
 * the whole header (150k-token vocabularies make 6–10 MB headers).  Small
 * enough to stay in the L2 cache between the copy and the parse and to
 * cost few fresh pages in a new process, large enough that the pread()
 * calls cost nothing: `inspect` of a 7.6 MB header took a median 22.3 ms
 * with 64 KiB, 23.7 ms with 256 KiB, 29.5 ms with 1 MiB (bench-gguf's
 * GLM-4-9B file, run-bench-gguf.py). */
#define READ_CHUNK_BYTES (64 * 1024)

/* "GGUF" and the version. */
#define PREAMBLE_BYTES 8

/* The smallest encodings of a metadata entry (8-byte key length, a 1-byte
 * key, 4-byte type, 1-byte value) and of a tensor info (8-byte name length,
 * 1-byte name, n_dims, one dimension, type, offset).  Counts in the header
 * are bounded by the bytes left divided by these, so a forged count can
 * never make us allocate or loop more than the file could describe. */
#define MIN_KV_BYTES     (8 + 1 + 4 + 1)
#define MIN_TENSOR_BYTES (8 + 1 + 4 + 8 + 4 + 8)

/* ---------------------------------------------------------------------------
 * ggml type table
 *
 * Block sizes and bytes per block from ggml's type_traits (ggml.c) and the
 * block structs of ggml-common.h, with QK_K = 256 and a 2-byte ggml_half.
 */

typedef struct
{
  const char *name;
  guint32     block_size;
  guint32     type_size;
} TypeInfo;

static const TypeInfo ggml_types[HR_GGML_TYPE_LIMIT] = {
  [HR_GGML_TYPE_F32]     = { "F32",     1,   4 },
  [HR_GGML_TYPE_F16]     = { "F16",     1,   2 },
  [HR_GGML_TYPE_Q4_0]    = { "Q4_0",    32,  18 },   /* d + 16 nibble bytes */
  [HR_GGML_TYPE_Q4_1]    = { "Q4_1",    32,  20 },   /* d, m + 16 */
  [HR_GGML_TYPE_Q5_0]    = { "Q5_0",    32,  22 },   /* d + qh[4] + 16 */
  [HR_GGML_TYPE_Q5_1]    = { "Q5_1",    32,  24 },   /* d, m + qh[4] + 16 */
  [HR_GGML_TYPE_Q8_0]    = { "Q8_0",    32,  34 },   /* d + 32 */
  [HR_GGML_TYPE_Q8_1]    = { "Q8_1",    32,  36 },   /* d, s + 32 */
  [HR_GGML_TYPE_Q2_K]    = { "Q2_K",    256, 84 },   /* 16 + 64 + d, dmin */
  [HR_GGML_TYPE_Q3_K]    = { "Q3_K",    256, 110 },  /* 32 + 64 + 12 + d */
  [HR_GGML_TYPE_Q4_K]    = { "Q4_K",    256, 144 },  /* d, dmin + 12 + 128 */
  [HR_GGML_TYPE_Q5_K]    = { "Q5_K",    256, 176 },  /* d, dmin + 12 + 32 + 128 */
  [HR_GGML_TYPE_Q6_K]    = { "Q6_K",    256, 210 },  /* 128 + 64 + 16 + d */
  [HR_GGML_TYPE_Q8_K]    = { "Q8_K",    256, 292 },  /* float d + 256 + 16 × i16 */
  [HR_GGML_TYPE_IQ2_XXS] = { "IQ2_XXS", 256, 66 },   /* d + 32 × u16 */
  [HR_GGML_TYPE_IQ2_XS]  = { "IQ2_XS",  256, 74 },   /* d + 32 × u16 + 8 */
  [HR_GGML_TYPE_IQ3_XXS] = { "IQ3_XXS", 256, 98 },   /* d + 96 */
  [HR_GGML_TYPE_IQ1_S]   = { "IQ1_S",   256, 50 },   /* d + 32 + 8 × u16 */
  [HR_GGML_TYPE_IQ4_NL]  = { "IQ4_NL",  32,  18 },   /* d + 16 */
  [HR_GGML_TYPE_IQ3_S]   = { "IQ3_S",   256, 110 },  /* d + 64 + 8 + 32 + 4 */
  [HR_GGML_TYPE_IQ2_S]   = { "IQ2_S",   256, 82 },   /* d + 64 + 8 + 8 */
  [HR_GGML_TYPE_IQ4_XS]  = { "IQ4_XS",  256, 136 },  /* d + u16 + 4 + 128 */
  [HR_GGML_TYPE_I8]      = { "I8",      1,   1 },
  [HR_GGML_TYPE_I16]     = { "I16",     1,   2 },
  [HR_GGML_TYPE_I32]     = { "I32",     1,   4 },
  [HR_GGML_TYPE_I64]     = { "I64",     1,   8 },
  [HR_GGML_TYPE_F64]     = { "F64",     1,   8 },
  [HR_GGML_TYPE_IQ1_M]   = { "IQ1_M",   256, 56 },   /* 32 + 16 + 8 */
  [HR_GGML_TYPE_BF16]    = { "BF16",    1,   2 },
  [HR_GGML_TYPE_TQ1_0]   = { "TQ1_0",   256, 54 },   /* 48 + 4 + d */
  [HR_GGML_TYPE_TQ2_0]   = { "TQ2_0",   256, 66 },   /* 64 + d */
  [HR_GGML_TYPE_MXFP4]   = { "MXFP4",   32,  17 },   /* e8m0 + 16 */
  [HR_GGML_TYPE_NVFP4]   = { "NVFP4",   64,  36 },   /* 4 scales + 32 */
  [HR_GGML_TYPE_Q1_0]    = { "Q1_0",    128, 18 },   /* d + 16 */
  [HR_GGML_TYPE_Q2_0]    = { "Q2_0",    64,  18 },   /* d + 16 */
};

/* Ids ggml once used and then removed; named so the error can say so. */
static const char * const removed_types[HR_GGML_TYPE_LIMIT] = {
  [4] = "Q4_2",
  [5] = "Q4_3",
  [31] = "Q4_0_4_4",
  [32] = "Q4_0_4_8",
  [33] = "Q4_0_8_8",
  [36] = "IQ4_NL_4_4",
  [37] = "IQ4_NL_4_8",
  [38] = "IQ4_NL_8_8",
};

const char *
hr_ggml_type_name (guint32 type)
{
  if (type >= HR_GGML_TYPE_LIMIT)
    return NULL;
  return ggml_types[type].name;
}

gboolean
hr_ggml_type_size (guint32  type,
                   guint32 *block_size,
                   guint32 *type_size)
{
  if (type >= HR_GGML_TYPE_LIMIT || ggml_types[type].name == NULL)
    return FALSE;

  if (block_size != NULL)
    *block_size = ggml_types[type].block_size;
  if (type_size != NULL)
    *type_size = ggml_types[type].type_size;
  return TRUE;
}

gboolean
hr_ggml_tensor_bytes (guint32        type,
                      const guint64 *dims,
                      guint32        n_dims,
                      guint64       *out)
{
  guint32 block_size, type_size;
  guint64 n_elements = 1;
  guint64 n_rows = 1;
  guint64 bytes;

  if (!hr_ggml_type_size (type, &block_size, &type_size))
    return FALSE;
  if (dims == NULL || n_dims < 1 || n_dims > HR_GGUF_MAX_DIMS)
    return FALSE;

  for (guint32 i = 0; i < n_dims; i++)
    {
      if (!g_uint64_checked_mul (&n_elements, n_elements, dims[i]))
        return FALSE;
    }

  /* ggml counts elements in int64_t; anything above that cannot load. */
  if (n_elements > G_MAXINT64)
    return FALSE;

  /* Quantised types pack whole blocks along a row and never straddle. */
  if (dims[0] % block_size != 0)
    return FALSE;

  /* Cannot overflow: it divides n_elements (or one of the dims is 0). */
  for (guint32 i = 1; i < n_dims; i++)
    n_rows *= dims[i];

  if (!g_uint64_checked_mul (&bytes, dims[0] / block_size, type_size) ||
      !g_uint64_checked_mul (&bytes, bytes, n_rows))
    return FALSE;

  *out = bytes;
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * The parsed file
 */

static const char * const value_type_names[] = {
  [HR_GGUF_TYPE_UINT8] = "uint8",
  [HR_GGUF_TYPE_INT8] = "int8",
  [HR_GGUF_TYPE_UINT16] = "uint16",
  [HR_GGUF_TYPE_INT16] = "int16",
  [HR_GGUF_TYPE_UINT32] = "uint32",
  [HR_GGUF_TYPE_INT32] = "int32",
  [HR_GGUF_TYPE_FLOAT32] = "float32",
  [HR_GGUF_TYPE_BOOL] = "bool",
  [HR_GGUF_TYPE_STRING] = "string",
  [HR_GGUF_TYPE_ARRAY] = "array",
  [HR_GGUF_TYPE_UINT64] = "uint64",
  [HR_GGUF_TYPE_INT64] = "int64",
  [HR_GGUF_TYPE_FLOAT64] = "float64",
};

typedef struct
{
  char       *key;
  HrGgufType  type;
  HrGgufType  element_type;     /* arrays only */
  union
  {
    guint64   u;                /* unsigned integers and bool */
    gint64    i;                /* signed integers */
    double    f;
    char     *s;
  } v;
  guint64     array_len;
  guint64    *array_values;     /* short integer arrays only, else NULL */
  gboolean    array_negative;   /* array_values held a negative number */
} Kv;

struct _HrGguf
{
  guint32       version;
  guint         n_shards;
  guint64       alignment;
  guint64       data_offset;
  guint64       file_size;
  guint64       weights_bytes;
  guint64       bytes_by_type[HR_GGML_TYPE_LIMIT];

  GPtrArray    *kvs;            /* Kv*, in file order; owns them */
  GPtrArray    *kvs_sorted;     /* the same Kv*, sorted by key */

  GStringChunk *names;          /* tensor names */
  GArray       *tensors;        /* HrGgufTensor, in file (then shard) order */
  guint32      *tensors_sorted; /* tensor indices sorted by name */
};

/* Lookups go through sorted arrays and binary search rather than hash
 * tables: key and tensor names are chosen by whoever wrote the file, and a
 * crafted set of colliding names would turn a hash table quadratic. */

static void
kv_free (gpointer data)
{
  Kv *kv = data;

  g_free (kv->key);
  if (kv->type == HR_GGUF_TYPE_STRING)
    g_free (kv->v.s);
  g_free (kv->array_values);
  g_free (kv);
}

static HrGguf *
hr_gguf_new (void)
{
  HrGguf *self = g_new0 (HrGguf, 1);

  self->n_shards = 1;
  self->alignment = HR_GGUF_DEFAULT_ALIGNMENT;
  self->kvs = g_ptr_array_new_with_free_func (kv_free);
  self->kvs_sorted = g_ptr_array_new ();
  self->names = g_string_chunk_new (4096);
  self->tensors = g_array_new (FALSE, TRUE, sizeof (HrGgufTensor));
  return self;
}

void
hr_gguf_free (HrGguf *self)
{
  if (self == NULL)
    return;

  g_ptr_array_unref (self->kvs_sorted);
  g_ptr_array_unref (self->kvs);
  g_string_chunk_free (self->names);
  g_array_unref (self->tensors);
  g_free (self->tensors_sorted);
  g_free (self);
}

/* ---------------------------------------------------------------------------
 * Reader over a window of the file
 *
 * Two kinds of reader share this code:
 *
 * - over a buffer (hr_gguf_parse()): the window is the whole buffer, which
 *   may be shorter than the file; running past it fails as TRUNCATED;
 * - streaming (hr_gguf_open()): the window is a reusable buffer that
 *   `fill` refills from the file, in chunks of READ_CHUNK_BYTES, as the
 *   parser moves on.  The header is parsed once, in one pass, and the
 *   same few kilobytes of memory hold every part of it in turn (before,
 *   a buffer doubling from 1 MiB was parsed again from the start after
 *   each growth: 4 passes over a 7.6 MB header, and 15 MB of fresh pages
 *   that cost more than the parse in a new process).
 *
 * Every read asks for its bytes first (reader_require()), so each field
 * costs one comparison when its bytes are in the window; the slow path
 * (reader_require_slow()) decides between "past the end of the file" (a
 * final TRUNCATED error), "past the header limit" and a refill.  A pointer
 * from read_bytes() is valid until the next read.
 */

typedef struct _Reader Reader;

/* Copies @n bytes of the file at @offset to @dst; fewer only at the end
 * of what the source holds. */
typedef gboolean (*ReaderFill) (Reader   *r,
                                guint8   *dst,
                                guint64   offset,
                                gsize     n,
                                gsize    *n_read,
                                GError  **error);

struct _Reader
{
  const guint8 *data;       /* the window: bytes [base, base + avail) of the file */
  guint64       base;
  guint64       avail;
  guint64       file_size;
  guint64       pos;        /* invariant: base <= pos <= base + avail <= file_size */

  /* Streaming readers only (fill != NULL). */
  ReaderFill    fill;
  guint8       *buf;        /* the window's storage, owned */
  gsize         capacity;
  gsize         chunk;      /* the least a refill reads */
  int           fd;         /* the file, for fill_from_fd() */
  const char   *display;    /* its name, displayable */
  const guint8 *src;        /* or the bytes, for fill_from_memory() */
  gsize         src_len;
};

/* Bytes of the window after the read position. */
static inline guint64
reader_left (const Reader *r)
{
  return r->base + r->avail - r->pos;
}

/* Moves the window to start at pos and hold at least @n bytes (which the
 * file has, and which lie under the header limit). */
static gboolean
reader_refill (Reader   *r,
               guint64   n,
               GError  **error)
{
  gsize keep = (gsize) reader_left (r);
  gsize want = (gsize) MAX (n, (guint64) r->chunk);
  gsize to_read, n_read = 0;

  if (want > r->capacity)
    {
      /* Only a long string or a stored integer array needs more than a
       * chunk in one piece; both are bounded (16 MiB, 512 KiB). */
      guint8 *grown = g_malloc (want);

      memcpy (grown, r->data + (r->pos - r->base), keep);
      g_free (r->buf);
      r->buf = grown;
      r->capacity = want;
    }
  else
    memmove (r->buf, r->data + (r->pos - r->base), keep);

  r->data = r->buf;
  r->base = r->pos;
  r->avail = keep;

  to_read = (gsize) MIN ((guint64) (r->capacity - keep), r->file_size - r->pos - keep);
  if (!r->fill (r, r->buf + keep, r->pos + keep, to_read, &n_read, error))
    return FALSE;
  r->avail += n_read;

  if (n_read < to_read)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_IO,
                   "%s: the file shrank while it was being read", r->display);
      return FALSE;
    }

  return TRUE;
}

/* Make sure @n more bytes can be read: the slow path of reader_require(). */
static gboolean
reader_require_slow (Reader   *r,
                     guint64   n,
                     gboolean  contiguous,
                     GError  **error)
{
  guint64 file_left = r->file_size - r->pos;

  if (n > file_left)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED,
                   "%" G_GUINT64_FORMAT " bytes needed at byte %" G_GUINT64_FORMAT
                   " but the file ends after %" G_GUINT64_FORMAT " bytes",
                   n, r->pos, r->file_size);
      return FALSE;
    }

  if (n <= reader_left (r))
    return TRUE;

  if (r->fill == NULL)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED,
                   "the header continues past the %" G_GUINT64_FORMAT
                   " bytes available", r->avail);
      return FALSE;
    }

  /* Known to be too large before a byte of it is read. */
  if (r->pos + n > HR_GGUF_MAX_HEADER_BYTES)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                   "the header is larger than %u MiB",
                   HR_GGUF_MAX_HEADER_BYTES / (1024 * 1024));
      return FALSE;
    }

  /* Bytes only to be skipped need not be in the window. */
  return contiguous ? reader_refill (r, n, error) : TRUE;
}

static inline gboolean
reader_require (Reader   *r,
                guint64   n,
                GError  **error)
{
  if (G_LIKELY (n <= reader_left (r)))
    return TRUE;
  return reader_require_slow (r, n, TRUE, error);
}

static inline gboolean
read_bytes (Reader        *r,
            guint64        n,
            const guint8 **out,
            GError       **error)
{
  if (!reader_require (r, n, error))
    return FALSE;

  *out = r->data + (r->pos - r->base);
  r->pos += n;
  return TRUE;
}

/* Moves past @n bytes without looking at them; a streaming reader reads
 * none of them unless they are already in the window. */
static gboolean
reader_skip (Reader   *r,
             guint64   n,
             GError  **error)
{
  if (G_LIKELY (n <= reader_left (r)))
    {
      r->pos += n;
      return TRUE;
    }

  if (!reader_require_slow (r, n, FALSE, error))
    return FALSE;

  /* Past the window: start an empty one after the skipped bytes. */
  r->pos += n;
  r->base = r->pos;
  r->avail = 0;
  return TRUE;
}

/* The next at most @n bytes, in the biggest piece at hand: all @n from a
 * buffer (so running out is judged on the whole), else what the window
 * holds, or one chunk after a refill. */
static gboolean
read_piece (Reader        *r,
            guint64        n,
            const guint8 **out,
            guint64       *got,
            GError       **error)
{
  guint64 m = n;

  if (r->fill != NULL)
    m = MIN (n, reader_left (r) > 0 ? reader_left (r) : (guint64) r->chunk);
  *got = m;
  return read_bytes (r, m, out, error);
}

/* The fixed-size readers: one comparison, then a load. */
#define DEFINE_READ_LE(name, type, from_le)               \
  static inline gboolean                                  \
  name (Reader  *r,                                       \
        type    *out,                                     \
        GError **error)                                   \
  {                                                       \
    type v;                                               \
                                                          \
    if (G_UNLIKELY (sizeof v > reader_left (r)) &&        \
        !reader_require_slow (r, sizeof v, TRUE, error))  \
      return FALSE;                                       \
    memcpy (&v, r->data + (r->pos - r->base), sizeof v);  \
    r->pos += sizeof v;                                   \
    *out = from_le (v);                                   \
    return TRUE;                                          \
  }

#define IDENTITY(v) (v)
DEFINE_READ_LE (read_u8, guint8, IDENTITY)
DEFINE_READ_LE (read_u16, guint16, GUINT16_FROM_LE)
DEFINE_READ_LE (read_u32, guint32, GUINT32_FROM_LE)
DEFINE_READ_LE (read_u64, guint64, GUINT64_FROM_LE)
#undef IDENTITY
#undef DEFINE_READ_LE

/* A GGUF string: u64 length, then the bytes (not NUL-terminated).  One
 * longer than @max_len is refused as @what with @code before its bytes
 * are read. */
static gboolean
read_string_length (Reader      *r,
                    guint64      max_len,
                    const char  *what,
                    HrGgufError  code,
                    guint64     *len,
                    GError     **error)
{
  guint64 n;

  if (!read_u64 (r, &n, error))
    return FALSE;

  if (G_UNLIKELY (n > r->file_size - r->pos))
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED,
                   "string length %" G_GUINT64_FORMAT " exceeds the remaining %"
                   G_GUINT64_FORMAT " bytes", n, r->file_size - r->pos);
      return FALSE;
    }

  if (G_UNLIKELY (n > max_len))
    {
      g_set_error (error, HR_GGUF_ERROR, code,
                   "%s is %" G_GUINT64_FORMAT " bytes long; at most %"
                   G_GUINT64_FORMAT " are allowed", what, n, max_len);
      return FALSE;
    }

  *len = n;
  return TRUE;
}

static gboolean
read_string (Reader        *r,
             guint64        max_len,
             const char    *what,
             HrGgufError    code,
             const guint8 **out,
             guint64       *len,
             GError       **error)
{
  return read_string_length (r, max_len, what, code, len, error) &&
         read_bytes (r, *len, out, error);
}

static gboolean
read_value_string (Reader        *r,
                   const guint8 **out,
                   guint64       *len,
                   GError       **error)
{
  return read_string (r, HR_GGUF_MAX_STRING_LENGTH, "string", HR_GGUF_ERROR_LIMIT,
                      out, len, error);
}

/* A string value nobody keeps (the elements of tokens and merges): its
 * length is checked like any other's, its bytes are passed over. */
static gboolean
skip_value_string (Reader  *r,
                   GError **error)
{
  guint64 len;

  return read_string_length (r, HR_GGUF_MAX_STRING_LENGTH, "string", HR_GGUF_ERROR_LIMIT,
                             &len, error) &&
         reader_skip (r, len, error);
}

/* Keys and tensor names are used as C strings and shown to the user, so
 * they must be valid UTF-8 without embedded NULs or control characters
 * (no writer produces those; an escape sequence would reach a terminal). */
static gboolean
read_name (Reader        *r,
           guint64        max_len,
           const char    *what,
           const guint8 **out,
           guint64       *len,
           GError       **error)
{
  if (!read_string (r, max_len, what, HR_GGUF_ERROR_CORRUPT, out, len, error))
    return FALSE;

  if (*len == 0)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                   "%s is empty", what);
      return FALSE;
    }

  if (memchr (*out, '\0', *len) != NULL || !g_utf8_validate_len ((const char *) *out, *len, NULL))
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                   "%s is not valid UTF-8 text", what);
      return FALSE;
    }

  if (!hr_text_is_displayable ((const char *) *out, *len))
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                   "%s holds a control character", what);
      return FALSE;
    }

  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Metadata values
 */

static gboolean
value_type_is_valid (guint32 type)
{
  return type <= HR_GGUF_TYPE_FLOAT64;
}

static const char *
value_type_name (guint32 type)
{
  return value_type_is_valid (type) ? value_type_names[type] : "unknown";
}

static gboolean
value_type_is_integer (guint32 type)
{
  switch (type)
    {
    case HR_GGUF_TYPE_UINT8:
    case HR_GGUF_TYPE_INT8:
    case HR_GGUF_TYPE_UINT16:
    case HR_GGUF_TYPE_INT16:
    case HR_GGUF_TYPE_UINT32:
    case HR_GGUF_TYPE_INT32:
    case HR_GGUF_TYPE_BOOL:
    case HR_GGUF_TYPE_UINT64:
    case HR_GGUF_TYPE_INT64:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Bytes of a fixed-size value, or 0 for strings and arrays. */
static guint
value_type_fixed_size (guint32 type)
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

/* The fewest bytes one element of @type can take. */
static guint
value_type_min_size (guint32 type)
{
  if (type == HR_GGUF_TYPE_STRING)
    return 8;           /* an empty string is just its length */
  if (type == HR_GGUF_TYPE_ARRAY)
    return 4 + 8;       /* an empty array is its type and length */
  return value_type_fixed_size (type);
}

/* Reads one integer-like value into either @u or @i (for signed types). */
static gboolean
read_integer (Reader    *r,
              guint32    type,
              guint64   *u,
              gint64    *i,
              gboolean  *is_signed,
              GError   **error)
{
  guint8 v8 = 0;
  guint16 v16 = 0;
  guint32 v32 = 0;
  guint64 v64 = 0;

  *is_signed = FALSE;

  switch (type)
    {
    case HR_GGUF_TYPE_UINT8:
      if (!read_u8 (r, &v8, error))
        return FALSE;
      *u = v8;
      return TRUE;

    case HR_GGUF_TYPE_BOOL:
      if (!read_u8 (r, &v8, error))
        return FALSE;
      /* The spec: anything but 0 or 1 means a broken writer. */
      if (v8 > 1)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                       "bool value %u at byte %" G_GUINT64_FORMAT " is neither 0 nor 1",
                       v8, r->pos - 1);
          return FALSE;
        }
      *u = v8;
      return TRUE;

    case HR_GGUF_TYPE_INT8:
      if (!read_u8 (r, &v8, error))
        return FALSE;
      *i = (gint8) v8;
      *is_signed = TRUE;
      return TRUE;

    case HR_GGUF_TYPE_UINT16:
      if (!read_u16 (r, &v16, error))
        return FALSE;
      *u = v16;
      return TRUE;

    case HR_GGUF_TYPE_INT16:
      if (!read_u16 (r, &v16, error))
        return FALSE;
      *i = (gint16) v16;
      *is_signed = TRUE;
      return TRUE;

    case HR_GGUF_TYPE_UINT32:
      if (!read_u32 (r, &v32, error))
        return FALSE;
      *u = v32;
      return TRUE;

    case HR_GGUF_TYPE_INT32:
      if (!read_u32 (r, &v32, error))
        return FALSE;
      *i = (gint32) v32;
      *is_signed = TRUE;
      return TRUE;

    case HR_GGUF_TYPE_UINT64:
      if (!read_u64 (r, &v64, error))
        return FALSE;
      *u = v64;
      return TRUE;

    case HR_GGUF_TYPE_INT64:
      if (!read_u64 (r, &v64, error))
        return FALSE;
      *i = (gint64) v64;
      *is_signed = TRUE;
      return TRUE;

    default:
      g_assert_not_reached ();
    }
}

static gboolean
read_float (Reader  *r,
            guint32  type,
            double  *out,
            GError **error)
{
  if (type == HR_GGUF_TYPE_FLOAT32)
    {
      guint32 bits;
      float f;

      if (!read_u32 (r, &bits, error))
        return FALSE;
      memcpy (&f, &bits, sizeof f);
      *out = f;
    }
  else
    {
      guint64 bits;

      if (!read_u64 (r, &bits, error))
        return FALSE;
      memcpy (out, &bits, sizeof *out);
    }

  return TRUE;
}

static gboolean read_array (Reader   *r,
                            Kv       *kv,
                            guint     depth,
                            GError  **error);

/* Walks over @n elements of @type without keeping them. */
static gboolean
skip_elements (Reader   *r,
               guint32   type,
               guint64   n,
               guint     depth,
               GError  **error)
{
  guint fixed = value_type_fixed_size (type);

  if (type == HR_GGUF_TYPE_BOOL)
    {
      /* Still validated, so a file is judged the same whether or not we
       * happen to keep a given array. */
      guint64 k = 0;

      while (k < n)
        {
          const guint8 *p;
          guint64 got;

          if (!read_piece (r, n - k, &p, &got, error))
            return FALSE;
          for (guint64 j = 0; j < got; j++, k++)
            {
              if (p[j] > 1)
                {
                  g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                               "bool element %" G_GUINT64_FORMAT " has value %u, neither 0 nor 1",
                               k, p[j]);
                  return FALSE;
                }
            }
        }
      return TRUE;
    }

  /* n * fixed was bounded by the bytes left before we got here. */
  if (fixed > 0)
    return reader_skip (r, n * fixed, error);

  for (guint64 k = 0; k < n; k++)
    {
      if (type == HR_GGUF_TYPE_STRING)
        {
          if (!skip_value_string (r, error))
            {
              g_prefix_error (error, "element %" G_GUINT64_FORMAT ": ", k);
              return FALSE;
            }
        }
      else
        {
          Kv inner = { 0, };
          gboolean ok;

          ok = read_array (r, &inner, depth + 1, error);
          g_free (inner.array_values);
          if (!ok)
            {
              g_prefix_error (error, "element %" G_GUINT64_FORMAT ": ", k);
              return FALSE;
            }
        }
    }

  return TRUE;
}

/* Reads an array value (element type, length, elements) into @kv.  Short
 * integer arrays are kept; everything else keeps only its length. */
static gboolean
read_array (Reader   *r,
            Kv       *kv,
            guint     depth,
            GError  **error)
{
  guint32 element_type;
  guint64 n;
  guint64 min_bytes;

  if (depth > HR_GGUF_MAX_ARRAY_DEPTH)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                   "arrays are nested more than %d deep", HR_GGUF_MAX_ARRAY_DEPTH);
      return FALSE;
    }

  if (!read_u32 (r, &element_type, error) || !read_u64 (r, &n, error))
    return FALSE;

  if (!value_type_is_valid (element_type))
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                   "array has unknown element type %u", element_type);
      return FALSE;
    }

  /* Both factors are small enough here that the product cannot overflow
   * once n has been compared with the bytes left. */
  min_bytes = value_type_min_size (element_type);
  if (n > (r->file_size - r->pos) / min_bytes)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED,
                   "array of %" G_GUINT64_FORMAT " %s elements needs at least %"
                   G_GUINT64_FORMAT " bytes per element but only %" G_GUINT64_FORMAT
                   " bytes remain",
                   n, value_type_name (element_type), min_bytes, r->file_size - r->pos);
      return FALSE;
    }

  if (n > HR_GGUF_MAX_ARRAY_LENGTH)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                   "array of %" G_GUINT64_FORMAT " elements is longer than the limit of %"
                   G_GUINT64_FORMAT, n, (guint64) HR_GGUF_MAX_ARRAY_LENGTH);
      return FALSE;
    }

  kv->element_type = element_type;
  kv->array_len = n;

  if (value_type_is_integer (element_type) && n <= HR_GGUF_MAX_STORED_ARRAY)
    {
      g_autofree guint64 *values = NULL;
      gboolean negative = FALSE;

      /* Checked before allocating, so a forged length cannot make us
       * allocate more than the buffer actually holds. */
      if (!reader_require (r, n * value_type_fixed_size (element_type), error))
        return FALSE;

      values = g_new0 (guint64, MAX (n, 1));
      for (guint64 k = 0; k < n; k++)
        {
          guint64 u = 0;
          gint64 i = 0;
          gboolean is_signed;

          if (!read_integer (r, element_type, &u, &i, &is_signed, error))
            {
              g_prefix_error (error, "element %" G_GUINT64_FORMAT ": ", k);
              return FALSE;
            }
          if (is_signed)
            {
              negative |= (i < 0);
              u = (guint64) i;
            }
          values[k] = u;
        }

      kv->array_values = g_steal_pointer (&values);
      kv->array_negative = negative;
      return TRUE;
    }

  return skip_elements (r, element_type, n, depth, error);
}

static gboolean
read_value (Reader   *r,
            Kv       *kv,
            GError  **error)
{
  switch (kv->type)
    {
    case HR_GGUF_TYPE_UINT8:
    case HR_GGUF_TYPE_INT8:
    case HR_GGUF_TYPE_UINT16:
    case HR_GGUF_TYPE_INT16:
    case HR_GGUF_TYPE_UINT32:
    case HR_GGUF_TYPE_INT32:
    case HR_GGUF_TYPE_BOOL:
    case HR_GGUF_TYPE_UINT64:
    case HR_GGUF_TYPE_INT64:
      {
        guint64 u = 0;
        gint64 i = 0;
        gboolean is_signed;

        if (!read_integer (r, kv->type, &u, &i, &is_signed, error))
          return FALSE;
        if (is_signed)
          kv->v.i = i;
        else
          kv->v.u = u;
        return TRUE;
      }

    case HR_GGUF_TYPE_FLOAT32:
    case HR_GGUF_TYPE_FLOAT64:
      return read_float (r, kv->type, &kv->v.f, error);

    case HR_GGUF_TYPE_STRING:
      {
        const guint8 *s;
        guint64 len;

        if (!read_value_string (r, &s, &len, error))
          return FALSE;
        /* Free text (names, licences, chat templates) is shown, not
         * interpreted, so repair bad UTF-8 instead of refusing the model. */
        kv->v.s = g_utf8_make_valid ((const char *) s, (gssize) len);
        return TRUE;
      }

    case HR_GGUF_TYPE_ARRAY:
      return read_array (r, kv, 1, error);

    default:
      g_assert_not_reached ();
    }
}

/* ---------------------------------------------------------------------------
 * Lookups
 */

static int
compare_kv (gconstpointer a,
            gconstpointer b)
{
  const Kv *ka = *(const Kv * const *) a;
  const Kv *kb = *(const Kv * const *) b;

  return strcmp (ka->key, kb->key);
}

static Kv *
lookup_kv (HrGguf     *self,
           const char *key)
{
  guint lo = 0;
  guint hi = self->kvs_sorted->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      Kv *kv = g_ptr_array_index (self->kvs_sorted, mid);
      int cmp = strcmp (key, kv->key);

      if (cmp == 0)
        return kv;
      if (cmp < 0)
        hi = mid;
      else
        lo = mid + 1;
    }

  return NULL;
}

static int
compare_tensor_index (gconstpointer a,
                      gconstpointer b,
                      gpointer      user_data)
{
  GArray *tensors = user_data;
  guint32 ia = *(const guint32 *) a;
  guint32 ib = *(const guint32 *) b;

  return strcmp (g_array_index (tensors, HrGgufTensor, ia).name,
                 g_array_index (tensors, HrGgufTensor, ib).name);
}

/* Sorts tensor indices by name, refusing duplicate names. */
static gboolean
index_tensors (HrGguf  *self,
               GError **error)
{
  guint n = self->tensors->len;

  g_clear_pointer (&self->tensors_sorted, g_free);
  self->tensors_sorted = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    self->tensors_sorted[i] = i;

  g_qsort_with_data (self->tensors_sorted, n, sizeof (guint32),
                     compare_tensor_index, self->tensors);

  for (guint i = 1; i < n; i++)
    {
      const HrGgufTensor *a = &g_array_index (self->tensors, HrGgufTensor,
                                              self->tensors_sorted[i - 1]);
      const HrGgufTensor *b = &g_array_index (self->tensors, HrGgufTensor,
                                              self->tensors_sorted[i]);

      if (strcmp (a->name, b->name) == 0)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                       "tensor name '%s' appears more than once", a->name);
          return FALSE;
        }
    }

  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Parsing one file
 */

static gboolean
parse_preamble (Reader   *r,
                guint32  *version,
                GError  **error)
{
  static const guint8 magic[4] = { 'G', 'G', 'U', 'F' };
  guint64 have = MIN (r->avail, 4);
  const guint8 *p;
  guint32 v;

  /* Judge the magic on whatever part of it we have, so that a short read
   * of a non-GGUF file is reported as such rather than as truncated. */
  if (have > 0 && memcmp (r->data, magic, have) != 0)
    {
      /* The pre-GGUF llama.cpp formats wrote their magic as a u32, so it
       * reads backwards; worth recognising since users still have them. */
      if (have == 4 && (memcmp (r->data, "lmgg", 4) == 0 ||
                        memcmp (r->data, "fmgg", 4) == 0 ||
                        memcmp (r->data, "tjgg", 4) == 0))
        g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF,
                     "this is a legacy GGML/GGJT model file, not GGUF; "
                     "convert it with llama.cpp first");
      else
        g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF,
                     "not a GGUF file (the first bytes are not \"GGUF\")");
      return FALSE;
    }

  if (r->file_size == 0)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_NOT_GGUF,
                   "the file is empty");
      return FALSE;
    }

  if (r->file_size < 8)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED,
                   "the file is only %" G_GUINT64_FORMAT " bytes long", r->file_size);
      return FALSE;
    }

  if (!read_bytes (r, 4, &p, error) || !read_u32 (r, &v, error))
    return FALSE;

  if (v == 1)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_VERSION,
                   "GGUF version 1 is not supported; re-convert the model "
                   "with a current llama.cpp");
      return FALSE;
    }

  /* Big-endian files have the same magic but a byte-swapped version. */
  if (v > 0xffff && GUINT32_SWAP_LE_BE (v) >= 1 && GUINT32_SWAP_LE_BE (v) <= 3)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_VERSION,
                   "big-endian GGUF files (version %u, byte-swapped) are not supported",
                   GUINT32_SWAP_LE_BE (v));
      return FALSE;
    }

  if (v != 2 && v != 3)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_VERSION,
                   "GGUF version %u is not supported (only versions 2 and 3 are)", v);
      return FALSE;
    }

  *version = v;
  return TRUE;
}

static gboolean
parse_metadata (HrGguf   *self,
                Reader   *r,
                guint64   n_kv,
                GError  **error)
{
  for (guint64 i = 0; i < n_kv; i++)
    {
      const guint8 *key;
      guint64 key_len;
      guint32 type;
      Kv *kv;

      if (!read_name (r, HR_GGUF_MAX_KEY_LENGTH, "key", &key, &key_len, error))
        {
          g_prefix_error (error, "metadata key %" G_GUINT64_FORMAT ": ", i);
          return FALSE;
        }

      kv = g_new0 (Kv, 1);
      kv->key = g_strndup ((const char *) key, key_len);
      g_ptr_array_add (self->kvs, kv);

      if (!read_u32 (r, &type, error))
        {
          g_prefix_error (error, "metadata key '%s': ", kv->key);
          return FALSE;
        }

      if (!value_type_is_valid (type))
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                       "metadata key '%s' has unknown value type %u", kv->key, type);
          return FALSE;
        }

      kv->type = type;
      if (!read_value (r, kv, error))
        {
          g_prefix_error (error, "metadata key '%s': ", kv->key);
          return FALSE;
        }
    }

  g_ptr_array_set_size (self->kvs_sorted, 0);
  for (guint i = 0; i < self->kvs->len; i++)
    g_ptr_array_add (self->kvs_sorted, g_ptr_array_index (self->kvs, i));
  g_ptr_array_sort (self->kvs_sorted, compare_kv);

  for (guint i = 1; i < self->kvs_sorted->len; i++)
    {
      const Kv *a = g_ptr_array_index (self->kvs_sorted, i - 1);
      const Kv *b = g_ptr_array_index (self->kvs_sorted, i);

      if (strcmp (a->key, b->key) == 0)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                       "metadata key '%s' appears more than once", a->key);
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
parse_alignment (HrGguf  *self,
                 GError **error)
{
  const Kv *kv = lookup_kv (self, "general.alignment");
  guint64 alignment;

  if (kv == NULL)
    return TRUE;

  if (!hr_gguf_get_uint (self, "general.alignment", &alignment))
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                   "general.alignment must be a non-negative integer, not a %s",
                   value_type_name (kv->type));
      return FALSE;
    }

  if (alignment == 0 || (alignment & (alignment - 1)) != 0)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                   "general.alignment %" G_GUINT64_FORMAT " is not a power of two",
                   alignment);
      return FALSE;
    }

  if (alignment > HR_GGUF_MAX_ALIGNMENT)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                   "general.alignment %" G_GUINT64_FORMAT " is larger than %d",
                   alignment, HR_GGUF_MAX_ALIGNMENT);
      return FALSE;
    }

  self->alignment = alignment;
  return TRUE;
}

static gboolean
parse_tensor_info (HrGguf        *self,
                   Reader        *r,
                   guint64        i,
                   HrGgufTensor  *t,
                   GError       **error)
{
  const guint8 *name;
  guint64 name_len;
  guint32 block_size;

  if (!read_name (r, HR_GGUF_MAX_NAME_LENGTH, "name", &name, &name_len, error))
    {
      g_prefix_error (error, "tensor %" G_GUINT64_FORMAT ": ", i);
      return FALSE;
    }

  t->name = g_string_chunk_insert_len (self->names, (const char *) name, (gssize) name_len);

  if (!read_u32 (r, &t->n_dims, error))
    goto prefix;

  if (t->n_dims < 1 || t->n_dims > HR_GGUF_MAX_DIMS)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                   "tensor '%s' has %u dimensions; expected 1 to %d",
                   t->name, t->n_dims, HR_GGUF_MAX_DIMS);
      return FALSE;
    }

  for (guint32 d = 0; d < HR_GGUF_MAX_DIMS; d++)
    t->dims[d] = 1;

  for (guint32 d = 0; d < t->n_dims; d++)
    {
      if (!read_u64 (r, &t->dims[d], error))
        goto prefix;

      if (t->dims[d] == 0 || t->dims[d] > G_MAXINT64)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                       "tensor '%s' dimension %u has invalid size %" G_GUINT64_FORMAT,
                       t->name, d, t->dims[d]);
          return FALSE;
        }
    }

  if (!read_u32 (r, &t->type, error) || !read_u64 (r, &t->offset, error))
    goto prefix;

  if (!hr_ggml_type_size (t->type, &block_size, NULL))
    {
      if (t->type < HR_GGML_TYPE_LIMIT && removed_types[t->type] != NULL)
        g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                     "tensor '%s' uses ggml type %u (%s), which ggml has removed",
                     t->name, t->type, removed_types[t->type]);
      else
        g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                     "tensor '%s' has unknown ggml type %u", t->name, t->type);
      return FALSE;
    }

  if (t->dims[0] % block_size != 0)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                   "tensor '%s' has rows of %" G_GUINT64_FORMAT " elements, not a "
                   "multiple of the %s block size %u",
                   t->name, t->dims[0], hr_ggml_type_name (t->type), block_size);
      return FALSE;
    }

  if (!hr_ggml_tensor_bytes (t->type, t->dims, t->n_dims, &t->n_bytes))
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                   "tensor '%s' shape %" G_GUINT64_FORMAT " × %" G_GUINT64_FORMAT
                   " × %" G_GUINT64_FORMAT " × %" G_GUINT64_FORMAT " is too large",
                   t->name, t->dims[0], t->dims[1], t->dims[2], t->dims[3]);
      return FALSE;
    }

  return TRUE;

prefix:
  g_prefix_error (error, "tensor '%s': ", t->name);
  return FALSE;
}

static int
compare_tensor_offset (gconstpointer a,
                       gconstpointer b,
                       gpointer      user_data)
{
  GArray *tensors = user_data;
  guint64 oa = g_array_index (tensors, HrGgufTensor, *(const guint32 *) a).offset;
  guint64 ob = g_array_index (tensors, HrGgufTensor, *(const guint32 *) b).offset;

  return (oa > ob) - (oa < ob);
}

/* Every tensor must be aligned, inside the file, and apart from the others;
 * then the sum of their sizes is a trustworthy weights size. */
static gboolean
check_tensor_data (HrGguf  *self,
                   guint64  header_end,
                   guint64  file_size,
                   GError **error)
{
  guint n = self->tensors->len;
  g_autofree guint32 *by_offset = NULL;
  guint64 data_start;
  guint64 data_size;

  /* header_end ≤ file_size and alignment ≤ 64 KiB, but stay exact anyway. */
  if (!g_uint64_checked_add (&data_start, header_end, self->alignment - 1))
    data_start = G_MAXUINT64;
  else
    data_start -= data_start % self->alignment;
  self->data_offset = data_start;

  /* Files without tensors (vocabulary-only models) may end right after
   * the header, without the padding. */
  if (n == 0)
    return TRUE;

  if (data_start > file_size)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED,
                   "tensor data would start at byte %" G_GUINT64_FORMAT
                   ", past the end of the file (%" G_GUINT64_FORMAT " bytes)",
                   data_start, file_size);
      return FALSE;
    }
  data_size = file_size - data_start;

  for (guint i = 0; i < n; i++)
    {
      const HrGgufTensor *t = &g_array_index (self->tensors, HrGgufTensor, i);
      guint64 end;

      if (t->offset % self->alignment != 0)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                       "tensor '%s' data offset %" G_GUINT64_FORMAT
                       " is not a multiple of the alignment %" G_GUINT64_FORMAT,
                       t->name, t->offset, self->alignment);
          return FALSE;
        }

      if (!g_uint64_checked_add (&end, t->offset, t->n_bytes) || end > data_size)
        {
          guint64 abs_end;

          if (!g_uint64_checked_add (&abs_end, data_start, t->offset) ||
              !g_uint64_checked_add (&abs_end, abs_end, t->n_bytes))
            g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED,
                         "tensor '%s' data at offset %" G_GUINT64_FORMAT
                         " lies past the end of the file (%" G_GUINT64_FORMAT " bytes)",
                         t->name, t->offset, file_size);
          else
            g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED,
                         "tensor '%s' data ends at byte %" G_GUINT64_FORMAT
                         " past the end of the file (%" G_GUINT64_FORMAT " bytes)",
                         t->name, abs_end, file_size);
          return FALSE;
        }
    }

  by_offset = g_new (guint32, n);
  for (guint i = 0; i < n; i++)
    by_offset[i] = i;
  g_qsort_with_data (by_offset, n, sizeof (guint32), compare_tensor_offset, self->tensors);

  for (guint i = 1; i < n; i++)
    {
      const HrGgufTensor *a = &g_array_index (self->tensors, HrGgufTensor, by_offset[i - 1]);
      const HrGgufTensor *b = &g_array_index (self->tensors, HrGgufTensor, by_offset[i]);

      /* a->offset + a->n_bytes ≤ data_size was checked above. */
      if (a->offset + a->n_bytes > b->offset)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                       "the data of tensors '%s' and '%s' overlap", a->name, b->name);
          return FALSE;
        }
    }

  return TRUE;
}

/* Adds the tensors' sizes to the totals. */
static gboolean
sum_tensors (HrGguf   *self,
             guint     first,
             GError  **error)
{
  for (guint i = first; i < self->tensors->len; i++)
    {
      const HrGgufTensor *t = &g_array_index (self->tensors, HrGgufTensor, i);

      if (!g_uint64_checked_add (&self->weights_bytes, self->weights_bytes, t->n_bytes) ||
          !g_uint64_checked_add (&self->bytes_by_type[t->type],
                                 self->bytes_by_type[t->type], t->n_bytes))
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                       "the total size of the tensors overflows");
          return FALSE;
        }
    }

  return TRUE;
}

/* The parser proper, over either kind of reader: one pass. */
static HrGguf *
parse_reader (Reader  *r,
              GError **error)
{
  g_autoptr(HrGguf) self = hr_gguf_new ();
  guint64 n_tensors, n_kv, tensor_bytes, kv_bytes;

  self->file_size = r->file_size;

  if (!parse_preamble (r, &self->version, error))
    goto out_of_data;

  if (!read_u64 (r, &n_tensors, error) || !read_u64 (r, &n_kv, error))
    goto out_of_data;

  if (n_tensors > HR_GGUF_MAX_TENSORS)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                   "the header declares %" G_GUINT64_FORMAT " tensors; at most %d are accepted",
                   n_tensors, HR_GGUF_MAX_TENSORS);
      return NULL;
    }

  if (n_kv > HR_GGUF_MAX_METADATA)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                   "the header declares %" G_GUINT64_FORMAT " metadata entries; at most %d "
                   "are accepted", n_kv, HR_GGUF_MAX_METADATA);
      return NULL;
    }

  /* Both counts are ≤ 2^16 now, so these products fit easily. */
  tensor_bytes = n_tensors * MIN_TENSOR_BYTES;
  kv_bytes = n_kv * MIN_KV_BYTES;
  if (tensor_bytes + kv_bytes > r->file_size - r->pos)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_TRUNCATED,
                   "the header declares %" G_GUINT64_FORMAT " tensors and %" G_GUINT64_FORMAT
                   " metadata entries, which need at least %" G_GUINT64_FORMAT
                   " bytes, but only %" G_GUINT64_FORMAT " remain",
                   n_tensors, n_kv, tensor_bytes + kv_bytes, r->file_size - r->pos);
      return NULL;
    }

  if (!parse_metadata (self, r, n_kv, error))
    goto out_of_data;

  if (!parse_alignment (self, error))
    return NULL;

  /* Reserve only what the bytes at hand could describe: the count is
   * bounded by the file size, which for hr_gguf_parse() is the caller's
   * claim rather than bytes we hold. */
  g_array_unref (self->tensors);
  self->tensors = g_array_sized_new (FALSE, TRUE, sizeof (HrGgufTensor),
                                     (guint) MIN (n_tensors,
                                                  reader_left (r) / MIN_TENSOR_BYTES));

  for (guint64 i = 0; i < n_tensors; i++)
    {
      HrGgufTensor t = { 0, };

      if (!parse_tensor_info (self, r, i, &t, error))
        goto out_of_data;
      g_array_append_val (self->tensors, t);
    }

  if (!index_tensors (self, error) ||
      !check_tensor_data (self, r->pos, r->file_size, error) ||
      !sum_tensors (self, 0, error))
    return NULL;

  return g_steal_pointer (&self);

out_of_data:
  /* Only these paths read bytes, so only they can run out of buffer. */
  return NULL;
}

HrGguf *
hr_gguf_parse (const guint8  *data,
               gsize          len,
               guint64        file_size,
               GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  Reader r = { 0, };
  HrGguf *gguf;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  r.data = data;
  r.avail = MIN ((guint64) len, file_size);
  r.file_size = file_size;
  gguf = parse_reader (&r, &local_error);
  if (local_error != NULL)
    {
      hr_text_sanitize_error (local_error);
      g_propagate_error (error, g_steal_pointer (&local_error));
    }
  return gguf;
}

/* ---------------------------------------------------------------------------
 * Files and shards
 */

/* pread() until @n bytes or the end of the file, through EINTR. */
static gboolean
fill_from_fd (Reader   *r,
              guint8   *dst,
              guint64   offset,
              gsize     n,
              gsize    *n_read,
              GError  **error)
{
  gsize have = 0;

  while (have < n)
    {
      gssize got = pread (r->fd, dst + have, n - have, (off_t) (offset + have));

      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          int saved = errno;

          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_IO, "%s: could not read: %s",
                       r->display, g_strerror (saved));
          return FALSE;
        }
      if (got == 0)
        break;
      have += got;
    }
  *n_read = have;
  return TRUE;
}

/* The same from bytes in memory, for hr_gguf_parse_streaming(). */
static gboolean
fill_from_memory (Reader   *r,
                  guint8   *dst,
                  guint64   offset,
                  gsize     n,
                  gsize    *n_read,
                  GError  **error)
{
  *n_read = offset >= r->src_len ? 0 : (gsize) MIN ((guint64) n, r->src_len - offset);
  if (*n_read > 0)
    memcpy (dst, r->src + offset, *n_read);
  return TRUE;
}

/* Parses with a streaming reader whose first window is read here. */
static HrGguf *
parse_streaming (Reader  *r,
                 GError **error)
{
  HrGguf *gguf = NULL;

  /* The magic is judged on the first window (parse_preamble()), which
   * must then hold all of it that the file has, as a buffer would. */
  r->capacity = MAX (r->chunk, PREAMBLE_BYTES);
  r->buf = g_malloc (r->capacity);
  r->data = r->buf;
  if (reader_refill (r, 0, error))
    gguf = parse_reader (r, error);
  g_free (r->buf);
  return gguf;
}

/* Not static only for the tests and the fuzz target: the streaming reader
 * over bytes in memory, refilled @chunk bytes at a time. */
HrGguf *
hr_gguf_parse_streaming (const guint8  *data,
                         gsize          len,
                         gsize          chunk,
                         GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  Reader r = { 0, };
  HrGguf *gguf;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  g_return_val_if_fail (chunk > 0, NULL);

  r.file_size = len;
  r.fill = fill_from_memory;
  r.chunk = chunk;
  r.display = "(memory)";
  r.src = data;
  r.src_len = len;
  gguf = parse_streaming (&r, &local_error);
  if (local_error != NULL)
    {
      hr_text_sanitize_error (local_error);
      g_propagate_error (error, g_steal_pointer (&local_error));
    }
  return gguf;
}

/* Reads just enough of @path to parse its header, in one pass.  The file
 * is opened with hr_file_open_regular(): a FIFO or device has no size and
 * could feed us forever (a FIFO would even block in open()). */
static HrGguf *
open_one (const char  *path,
          GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *display = hr_text_display_path (path);
  Reader r = { 0, };
  HrGguf *gguf;
  int fd;

  fd = hr_file_open_regular (path, 0, &r.file_size, &local_error);
  if (fd < 0)
    {
      g_set_error_literal (error, HR_GGUF_ERROR, HR_GGUF_ERROR_IO, local_error->message);
      return NULL;
    }

  r.fill = fill_from_fd;
  r.chunk = READ_CHUNK_BYTES;
  r.fd = fd;
  r.display = display;
  gguf = parse_streaming (&r, &local_error);
  close (fd);

  if (gguf == NULL)
    {
      /* Read errors name the file already. */
      if (g_error_matches (local_error, HR_GGUF_ERROR, HR_GGUF_ERROR_IO))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_propagate_prefixed_error (error, g_steal_pointer (&local_error), "%s: ", display);
    }
  return gguf;
}

/* Recognises PREFIX-00001-of-00003.gguf, the naming llama.cpp's gguf-split
 * uses (always five digits). */
static gboolean
parse_split_name (const char  *path,
                  char       **prefix,
                  guint       *shard_index,
                  guint       *count)
{
  static const char suffix[] = "-00000-of-00000.gguf";
  gsize len = strlen (path);
  gsize slen = sizeof suffix - 1;
  const char *s;
  guint64 idx, cnt;

  if (len <= slen)
    return FALSE;
  s = path + len - slen;

  for (gsize k = 0; k < slen; k++)
    {
      if (suffix[k] == '0' ? !g_ascii_isdigit (s[k]) : s[k] != suffix[k])
        return FALSE;
    }

  idx = g_ascii_strtoull (s + 1, NULL, 10);
  cnt = g_ascii_strtoull (s + 10, NULL, 10);
  if (idx < 1 || cnt < 1 || idx > cnt)
    return FALSE;

  *prefix = g_strndup (path, len - slen);
  *shard_index = (guint) idx;
  *count = (guint) cnt;
  return TRUE;
}

/* gguf-split records the shard number and count in every shard; when they
 * are present they must agree with the file names. */
static gboolean
check_split_keys (HrGguf  *shard,
                  guint    shard_no,
                  guint    count,
                  GError **error)
{
  guint64 v;

  if (hr_gguf_get_uint (shard, "split.count", &v) && v != count)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                   "split.count is %" G_GUINT64_FORMAT " but the file name says %u shards",
                   v, count);
      return FALSE;
    }

  if (hr_gguf_get_uint (shard, "split.no", &v) && v != shard_no)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                   "split.no is %" G_GUINT64_FORMAT " (shard %" G_GUINT64_FORMAT
                   ", counting from 1) but the file name says shard %u",
                   v, v + 1, shard_no + 1);
      return FALSE;
    }

  return TRUE;
}

static HrGguf *
open_split (const char  *prefix,
            guint        count,
            GError     **error)
{
  g_autoptr(HrGguf) first = NULL;
  guint64 declared;

  for (guint i = 0; i < count; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s-%05u-of-%05u.gguf", prefix, i + 1, count);
      g_autoptr(HrGguf) shard = NULL;
      g_autoptr(GError) local_error = NULL;
      guint base;

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_autofree char *display = hr_text_display_path (path);

          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_IO,
                       "shard %u of %u is missing: %s", i + 1, count, display);
          return NULL;
        }

      shard = open_one (path, error);
      if (shard == NULL)
        return NULL;

      if (!check_split_keys (shard, i, count, &local_error))
        {
          g_autofree char *display = hr_text_display_path (path);

          g_propagate_prefixed_error (error, g_steal_pointer (&local_error), "%s: ", display);
          return NULL;
        }

      if (first == NULL)
        {
          first = g_steal_pointer (&shard);
          continue;
        }

      /* Other shards carry their tensors (and split.* keys); the model's
       * metadata lives in the first one. */
      base = first->tensors->len;
      for (guint k = 0; k < shard->tensors->len; k++)
        {
          HrGgufTensor t = g_array_index (shard->tensors, HrGgufTensor, k);

          t.name = g_string_chunk_insert (first->names, t.name);
          t.shard = i;
          g_array_append_val (first->tensors, t);
        }

      if (first->tensors->len > HR_GGUF_MAX_TENSORS)
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                       "the shards hold more than %d tensors in total", HR_GGUF_MAX_TENSORS);
          return NULL;
        }

      if (!sum_tensors (first, base, error))
        return NULL;

      if (!g_uint64_checked_add (&first->file_size, first->file_size, shard->file_size))
        {
          g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_LIMIT,
                       "the total size of the shards overflows");
          return NULL;
        }
    }

  first->n_shards = count;

  if (!index_tensors (first, error))
    return NULL;

  if (hr_gguf_get_uint (first, "split.tensors.count", &declared) &&
      declared != first->tensors->len)
    {
      g_set_error (error, HR_GGUF_ERROR, HR_GGUF_ERROR_CORRUPT,
                   "split.tensors.count says %" G_GUINT64_FORMAT " tensors but the %u shards "
                   "hold %u", declared, count, first->tensors->len);
      return NULL;
    }

  return g_steal_pointer (&first);
}

HrGguf *
hr_gguf_open (const char  *path,
              GError     **error)
{
  g_autofree char *prefix = NULL;
  g_autoptr(GError) local_error = NULL;
  HrGguf *gguf;
  guint shard_index, count;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Any shard's name opens the whole model, so the user can pick any. */
  if (parse_split_name (path, &prefix, &shard_index, &count) && count > 1)
    gguf = open_split (prefix, count, &local_error);
  else
    gguf = open_one (path, &local_error);

  /* Messages quote the path and the file's keys and names. */
  if (local_error != NULL)
    {
      hr_text_sanitize_error (local_error);
      g_propagate_error (error, g_steal_pointer (&local_error));
    }
  return gguf;
}

/* ---------------------------------------------------------------------------
 * Accessors
 */

guint32
hr_gguf_get_version (HrGguf *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->version;
}

const char *
hr_gguf_get_architecture (HrGguf *self)
{
  return hr_gguf_get_string (self, "general.architecture");
}

guint
hr_gguf_get_n_shards (HrGguf *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_shards;
}

guint64
hr_gguf_get_alignment (HrGguf *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->alignment;
}

guint64
hr_gguf_get_data_offset (HrGguf *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->data_offset;
}

gboolean
hr_gguf_get_uint (HrGguf     *self,
                  const char *key,
                  guint64    *out)
{
  const Kv *kv;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  kv = lookup_kv (self, key);
  if (kv == NULL || !value_type_is_integer (kv->type))
    return FALSE;

  switch (kv->type)
    {
    case HR_GGUF_TYPE_INT8:
    case HR_GGUF_TYPE_INT16:
    case HR_GGUF_TYPE_INT32:
    case HR_GGUF_TYPE_INT64:
      if (kv->v.i < 0)
        return FALSE;
      if (out != NULL)
        *out = (guint64) kv->v.i;
      return TRUE;
    default:
      if (out != NULL)
        *out = kv->v.u;
      return TRUE;
    }
}

gboolean
hr_gguf_get_float (HrGguf     *self,
                   const char *key,
                   double     *out)
{
  const Kv *kv;
  double v;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  kv = lookup_kv (self, key);
  if (kv == NULL)
    return FALSE;

  switch (kv->type)
    {
    case HR_GGUF_TYPE_FLOAT32:
    case HR_GGUF_TYPE_FLOAT64:
      v = kv->v.f;
      break;
    case HR_GGUF_TYPE_INT8:
    case HR_GGUF_TYPE_INT16:
    case HR_GGUF_TYPE_INT32:
    case HR_GGUF_TYPE_INT64:
      v = (double) kv->v.i;
      break;
    case HR_GGUF_TYPE_UINT8:
    case HR_GGUF_TYPE_UINT16:
    case HR_GGUF_TYPE_UINT32:
    case HR_GGUF_TYPE_UINT64:
    case HR_GGUF_TYPE_BOOL:
      v = (double) kv->v.u;
      break;
    default:
      return FALSE;
    }

  if (out != NULL)
    *out = v;
  return TRUE;
}

const char *
hr_gguf_get_string (HrGguf     *self,
                    const char *key)
{
  const Kv *kv;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  kv = lookup_kv (self, key);
  if (kv == NULL || kv->type != HR_GGUF_TYPE_STRING)
    return NULL;
  return kv->v.s;
}

gboolean
hr_gguf_get_uint_array (HrGguf      *self,
                        const char  *key,
                        guint64    **values,
                        gsize       *n)
{
  const Kv *kv;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (values != NULL, FALSE);
  g_return_val_if_fail (n != NULL, FALSE);

  kv = lookup_kv (self, key);
  if (kv == NULL || kv->type != HR_GGUF_TYPE_ARRAY ||
      kv->array_values == NULL || kv->array_negative)
    return FALSE;

  *values = g_memdup2 (kv->array_values, MAX (kv->array_len, 1) * sizeof (guint64));
  *n = (gsize) kv->array_len;
  return TRUE;
}

gsize
hr_gguf_get_array_length (HrGguf     *self,
                          const char *key)
{
  const Kv *kv;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (key != NULL, 0);

  kv = lookup_kv (self, key);
  if (kv == NULL || kv->type != HR_GGUF_TYPE_ARRAY)
    return 0;
  return (gsize) kv->array_len;
}

gboolean
hr_gguf_get_metadata_type (HrGguf     *self,
                           const char *key,
                           HrGgufType *type,
                           HrGgufType *element_type)
{
  const Kv *kv;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  kv = lookup_kv (self, key);
  if (kv == NULL)
    return FALSE;

  if (type != NULL)
    *type = kv->type;
  if (element_type != NULL)
    *element_type = kv->type == HR_GGUF_TYPE_ARRAY ? kv->element_type : kv->type;
  return TRUE;
}

guint
hr_gguf_get_n_metadata (HrGguf *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->kvs->len;
}

const char *
hr_gguf_get_metadata_key (HrGguf *self,
                          guint   i)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (i >= self->kvs->len)
    return NULL;
  return ((const Kv *) g_ptr_array_index (self->kvs, i))->key;
}

guint64
hr_gguf_get_tensor_count (HrGguf *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->tensors->len;
}

const HrGgufTensor *
hr_gguf_get_tensor (HrGguf  *self,
                    guint64  i)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (i >= self->tensors->len)
    return NULL;
  return &g_array_index (self->tensors, HrGgufTensor, i);
}

const HrGgufTensor *
hr_gguf_find_tensor (HrGguf     *self,
                     const char *name)
{
  guint lo = 0;
  guint hi;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  hi = self->tensors->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const HrGgufTensor *t = &g_array_index (self->tensors, HrGgufTensor,
                                              self->tensors_sorted[mid]);
      int cmp = strcmp (name, t->name);

      if (cmp == 0)
        return t;
      if (cmp < 0)
        hi = mid;
      else
        lo = mid + 1;
    }

  return NULL;
}

guint64
hr_gguf_get_weights_bytes (HrGguf *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->weights_bytes;
}

guint64
hr_gguf_get_bytes_by_type (HrGguf  *self,
                           guint32  ggml_type)
{
  g_return_val_if_fail (self != NULL, 0);

  if (ggml_type >= HR_GGML_TYPE_LIMIT)
    return 0;
  return self->bytes_by_type[ggml_type];
}

guint64
hr_gguf_get_file_size (HrGguf *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->file_size;
}
