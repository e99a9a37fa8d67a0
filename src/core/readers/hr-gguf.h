/* hr-gguf.h — a hostile-input-safe reader for GGUF model headers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Headroom only needs to know what a model *is* (architecture, layer and
 * head counts, vocabulary size) and how many bytes its weights take, per
 * ggml type.  All of that lives in the GGUF header, so this reader parses
 * the metadata and the tensor table and never touches the tensor data: a
 * 40 GB file costs the same few milliseconds as a 4 MB one.
 *
 * Model files come from the internet, so every count, length and offset is
 * treated as hostile: each is checked against the bytes that remain and
 * against sane limits before anything is allocated or summed, and every
 * failure names the field (and the key or tensor) that is wrong.
 *
 * Only little-endian GGUF version 2 and 3 files are accepted.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HR_GGUF_ERROR (hr_gguf_error_quark ())

typedef enum
{
  HR_GGUF_ERROR_IO,        /* the file (or a shard) could not be read */
  HR_GGUF_ERROR_NOT_GGUF,  /* wrong magic: not a GGUF file at all */
  HR_GGUF_ERROR_VERSION,   /* GGUF v1, a future version, or big-endian */
  HR_GGUF_ERROR_TRUNCATED, /* something extends past the end of the file */
  HR_GGUF_ERROR_CORRUPT,   /* a value that no valid writer produces */
  HR_GGUF_ERROR_LIMIT,     /* valid perhaps, but beyond what we accept */
} HrGgufError;

/* Limits beyond which a file is refused with HR_GGUF_ERROR_LIMIT. */
/* Tensors in one file, and in all shards of a model together.  The most in
 * real files are DeepSeek-V3's and Kimi K2's, 1,000–2,600 (61 layers of
 * attention, shared and routed experts, experts merged into 3-D tensors as
 * llama.cpp has written them since 2024); old Mixtral files with one tensor
 * per expert have ~1,000.  65,536 leaves a margin of 25×, and a file at the
 * limit costs ~5 MB and milliseconds to read or refuse (10^6, the limit
 * before, cost 4.5 s and 180 MB). */
#define HR_GGUF_MAX_TENSORS        65536
/* Metadata entries.  Real files have 20–60 (an array, such as the 150k
 * tokens, is one entry); 4,096 is a margin of 60×. */
#define HR_GGUF_MAX_METADATA       4096
/* The largest real headers are those of 150k–260k-token vocabularies:
 * 10–20 MiB of token, score and merge lists.  Beyond this a file is
 * refused rather than read into memory. */
#define HR_GGUF_MAX_HEADER_BYTES   (64u * 1024 * 1024)
#define HR_GGUF_MAX_ARRAY_LENGTH   (G_GUINT64_CONSTANT (1) << 30)
#define HR_GGUF_MAX_ARRAY_DEPTH    3       /* array of array of array */
#define HR_GGUF_MAX_ALIGNMENT      65536
#define HR_GGUF_MAX_KEY_LENGTH     65535   /* from the GGUF spec */
#define HR_GGUF_MAX_NAME_LENGTH    1024    /* ggml itself stops at 63 */
/* One string value.  The longest in real files are chat templates (tens
 * of KiB) and, rarely, a whole tokenizer.json (a few MiB).  A forged
 * length is otherwise bounded only by the header limit, and a 400 MiB
 * string in a sparse file cost 1.6 GB of memory and 12 s to read and
 * repair before the file was refused for something else. */
#define HR_GGUF_MAX_STRING_LENGTH  (16u * 1024 * 1024)
#define HR_GGUF_MAX_DIMS           4

/* Integer arrays at most this long are kept in memory (per-layer values);
 * longer ones, such as tokenizer.ggml.token_type, only keep their length. */
#define HR_GGUF_MAX_STORED_ARRAY   65536

#define HR_GGUF_DEFAULT_ALIGNMENT  32

/* Metadata value types, as numbered in the file. */
typedef enum
{
  HR_GGUF_TYPE_UINT8   = 0,
  HR_GGUF_TYPE_INT8    = 1,
  HR_GGUF_TYPE_UINT16  = 2,
  HR_GGUF_TYPE_INT16   = 3,
  HR_GGUF_TYPE_UINT32  = 4,
  HR_GGUF_TYPE_INT32   = 5,
  HR_GGUF_TYPE_FLOAT32 = 6,
  HR_GGUF_TYPE_BOOL    = 7,
  HR_GGUF_TYPE_STRING  = 8,
  HR_GGUF_TYPE_ARRAY   = 9,
  HR_GGUF_TYPE_UINT64  = 10,
  HR_GGUF_TYPE_INT64   = 11,
  HR_GGUF_TYPE_FLOAT64 = 12,
} HrGgufType;

/* ggml tensor types, as numbered in ggml.h.  The gaps are types that ggml
 * removed; files using them are refused. */
typedef enum
{
  HR_GGML_TYPE_F32     = 0,
  HR_GGML_TYPE_F16     = 1,
  HR_GGML_TYPE_Q4_0    = 2,
  HR_GGML_TYPE_Q4_1    = 3,
  HR_GGML_TYPE_Q5_0    = 6,
  HR_GGML_TYPE_Q5_1    = 7,
  HR_GGML_TYPE_Q8_0    = 8,
  HR_GGML_TYPE_Q8_1    = 9,
  HR_GGML_TYPE_Q2_K    = 10,
  HR_GGML_TYPE_Q3_K    = 11,
  HR_GGML_TYPE_Q4_K    = 12,
  HR_GGML_TYPE_Q5_K    = 13,
  HR_GGML_TYPE_Q6_K    = 14,
  HR_GGML_TYPE_Q8_K    = 15,
  HR_GGML_TYPE_IQ2_XXS = 16,
  HR_GGML_TYPE_IQ2_XS  = 17,
  HR_GGML_TYPE_IQ3_XXS = 18,
  HR_GGML_TYPE_IQ1_S   = 19,
  HR_GGML_TYPE_IQ4_NL  = 20,
  HR_GGML_TYPE_IQ3_S   = 21,
  HR_GGML_TYPE_IQ2_S   = 22,
  HR_GGML_TYPE_IQ4_XS  = 23,
  HR_GGML_TYPE_I8      = 24,
  HR_GGML_TYPE_I16     = 25,
  HR_GGML_TYPE_I32     = 26,
  HR_GGML_TYPE_I64     = 27,
  HR_GGML_TYPE_F64     = 28,
  HR_GGML_TYPE_IQ1_M   = 29,
  HR_GGML_TYPE_BF16    = 30,
  HR_GGML_TYPE_TQ1_0   = 34,
  HR_GGML_TYPE_TQ2_0   = 35,
  HR_GGML_TYPE_MXFP4   = 39,
  HR_GGML_TYPE_NVFP4   = 40,
  HR_GGML_TYPE_Q1_0    = 41,
  HR_GGML_TYPE_Q2_0    = 42,
} HrGgmlType;

/* One more than the highest type id we know. */
#define HR_GGML_TYPE_LIMIT 43

typedef struct _HrGguf HrGguf;

typedef struct
{
  const char *name;
  guint32     n_dims;
  guint64     dims[HR_GGUF_MAX_DIMS];  /* unused trailing dims are 1 */
  guint32     type;                    /* a known HrGgmlType */
  guint64     offset;                  /* relative to its shard's data section */
  guint64     n_bytes;
  guint32     shard;                   /* 0-based shard the data lives in */
} HrGgufTensor;

GQuark              hr_gguf_error_quark        (void);

HrGguf             *hr_gguf_open               (const char    *path,
                                                GError       **error);
HrGguf             *hr_gguf_parse              (const guint8  *data,
                                                gsize          len,
                                                guint64        file_size,
                                                GError       **error);
void                hr_gguf_free               (HrGguf        *gguf);
/* For the tests and the fuzz target: what hr_gguf_open() does with a file,
 * over @data, refilling its window @chunk bytes at a time. */
HrGguf             *hr_gguf_parse_streaming    (const guint8  *data,
                                                gsize          len,
                                                gsize          chunk,
                                                GError       **error);

guint32             hr_gguf_get_version        (HrGguf        *gguf);
const char         *hr_gguf_get_architecture   (HrGguf        *gguf);
guint               hr_gguf_get_n_shards       (HrGguf        *gguf);
guint64             hr_gguf_get_alignment      (HrGguf        *gguf);
guint64             hr_gguf_get_data_offset    (HrGguf        *gguf);

/* Metadata lookups; metadata comes from the first shard. */
gboolean            hr_gguf_get_uint           (HrGguf        *gguf,
                                                const char    *key,
                                                guint64       *out);
gboolean            hr_gguf_get_float          (HrGguf        *gguf,
                                                const char    *key,
                                                double        *out);
const char         *hr_gguf_get_string         (HrGguf        *gguf,
                                                const char    *key);
gboolean            hr_gguf_get_uint_array     (HrGguf        *gguf,
                                                const char    *key,
                                                guint64      **values,
                                                gsize         *n);
gsize               hr_gguf_get_array_length   (HrGguf        *gguf,
                                                const char    *key);
/* For arrays, *element_type is the type of the elements; for scalars it
 * is the same as *type. */
gboolean            hr_gguf_get_metadata_type  (HrGguf        *gguf,
                                                const char    *key,
                                                HrGgufType    *type,
                                                HrGgufType    *element_type);
guint               hr_gguf_get_n_metadata     (HrGguf        *gguf);
const char         *hr_gguf_get_metadata_key   (HrGguf        *gguf,
                                                guint          i);

/* Tensors, merged over all shards. */
guint64             hr_gguf_get_tensor_count   (HrGguf        *gguf);
const HrGgufTensor *hr_gguf_get_tensor         (HrGguf        *gguf,
                                                guint64        i);
const HrGgufTensor *hr_gguf_find_tensor        (HrGguf        *gguf,
                                                const char    *name);
guint64             hr_gguf_get_weights_bytes  (HrGguf        *gguf);
guint64             hr_gguf_get_bytes_by_type  (HrGguf        *gguf,
                                                guint32        ggml_type);
guint64             hr_gguf_get_file_size      (HrGguf        *gguf);

/* ggml types */
const char         *hr_ggml_type_name          (guint32        type);
gboolean            hr_ggml_type_size          (guint32        type,
                                                guint32       *block_size,
                                                guint32       *type_size);
gboolean            hr_ggml_tensor_bytes       (guint32        type,
                                                const guint64 *dims,
                                                guint32        n_dims,
                                                guint64       *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrGguf, hr_gguf_free)

G_END_DECLS
