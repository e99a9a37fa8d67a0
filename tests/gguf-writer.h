/* gguf-writer.h — builds GGUF files in code, for tests and calibration
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The writer is deliberately dumb: it writes exactly what it is told, in
 * the order it is told, and checks nothing.  That makes it useful both for
 * well-formed files (tensors placed at aligned offsets automatically) and
 * for hostile ones (raw values, forged counts, any n_dims or ggml type,
 * explicit offsets).  It never computes tensor sizes itself, so tests that
 * check the reader's arithmetic stay independent of it.
 */

#pragma once

#include <gio/gio.h>

#include "hr-gguf.h"

G_BEGIN_DECLS

typedef struct _HrGgufWriter HrGgufWriter;

HrGgufWriter *hr_gguf_writer_new                 (guint32        version);
void          hr_gguf_writer_free                (HrGgufWriter  *self);

/* Alignment used to lay out tensor data (default 32).  This does not add
 * a general.alignment key; add one with hr_gguf_writer_add_uint32(). */
void          hr_gguf_writer_set_alignment       (HrGgufWriter  *self,
                                                  guint32        alignment);

/* Write these counts in the header instead of the real ones. */
void          hr_gguf_writer_override_tensor_count (HrGgufWriter *self,
                                                    guint64       n);
void          hr_gguf_writer_override_kv_count   (HrGgufWriter  *self,
                                                  guint64        n);

void          hr_gguf_writer_add_uint8           (HrGgufWriter  *self,
                                                  const char    *key,
                                                  guint8         value);
void          hr_gguf_writer_add_int8            (HrGgufWriter  *self,
                                                  const char    *key,
                                                  gint8          value);
void          hr_gguf_writer_add_uint16          (HrGgufWriter  *self,
                                                  const char    *key,
                                                  guint16        value);
void          hr_gguf_writer_add_int16           (HrGgufWriter  *self,
                                                  const char    *key,
                                                  gint16         value);
void          hr_gguf_writer_add_uint32          (HrGgufWriter  *self,
                                                  const char    *key,
                                                  guint32        value);
void          hr_gguf_writer_add_int32           (HrGgufWriter  *self,
                                                  const char    *key,
                                                  gint32         value);
void          hr_gguf_writer_add_uint64          (HrGgufWriter  *self,
                                                  const char    *key,
                                                  guint64        value);
void          hr_gguf_writer_add_int64           (HrGgufWriter  *self,
                                                  const char    *key,
                                                  gint64         value);
void          hr_gguf_writer_add_float32         (HrGgufWriter  *self,
                                                  const char    *key,
                                                  float          value);
void          hr_gguf_writer_add_float64         (HrGgufWriter  *self,
                                                  const char    *key,
                                                  double         value);
void          hr_gguf_writer_add_bool            (HrGgufWriter  *self,
                                                  const char    *key,
                                                  gboolean       value);
void          hr_gguf_writer_add_string          (HrGgufWriter  *self,
                                                  const char    *key,
                                                  const char    *value);

/* An array of a fixed-size element type; @values is a C array of the
 * matching host type (guint8, gint16, float, ...; gboolean is not one:
 * pass guint8 for HR_GGUF_TYPE_BOOL). */
void          hr_gguf_writer_add_array           (HrGgufWriter  *self,
                                                  const char    *key,
                                                  HrGgufType     element_type,
                                                  const void    *values,
                                                  gsize          n);
void          hr_gguf_writer_add_string_array    (HrGgufWriter  *self,
                                                  const char    *key,
                                                  const char * const *strings,
                                                  gsize          n);

/* tokenizer.ggml.tokens: @n placeholder tokens “t0”, “t1”… (the vocabulary
 * size a model's metadata implies). */
void          hr_gguf_writer_add_tokens          (HrGgufWriter  *self,
                                                  guint          n);

/* A key with a value type and the value's encoded bytes, verbatim; build
 * them with the hr_gguf_put_*() helpers (nested arrays, forged lengths). */
void          hr_gguf_writer_add_raw             (HrGgufWriter  *self,
                                                  const char    *key,
                                                  guint32        type,
                                                  const void    *bytes,
                                                  gsize          len);

/* A tensor whose data goes at the next aligned offset. */
void          hr_gguf_writer_add_tensor          (HrGgufWriter  *self,
                                                  const char    *name,
                                                  guint32        ggml_type,
                                                  guint32        n_dims,
                                                  const guint64 *dims,
                                                  guint64        n_bytes);
/* A tensor at an explicit data offset; it does not move the others. */
void          hr_gguf_writer_add_tensor_at       (HrGgufWriter  *self,
                                                  const char    *name,
                                                  guint32        ggml_type,
                                                  guint32        n_dims,
                                                  const guint64 *dims,
                                                  guint64        offset);

/* The header and the padding after it, i.e. everything before the data. */
GBytes       *hr_gguf_writer_build_header        (HrGgufWriter  *self);
/* Bytes up to the end of the tensor infos, without padding. */
gsize         hr_gguf_writer_get_header_end      (HrGgufWriter  *self);
/* Header, padding and data, each tensor padded to the alignment. */
guint64       hr_gguf_writer_get_file_size       (HrGgufWriter  *self);
/* The whole file in memory, tensor data zero-filled. */
GBytes       *hr_gguf_writer_build               (HrGgufWriter  *self);
/* The whole file on disk; the data is a hole, so even a multi-gigabyte
 * file costs only its header on filesystems with sparse files. */
gboolean      hr_gguf_writer_write_file          (HrGgufWriter  *self,
                                                  const char    *path,
                                                  GError       **error);

/* Little-endian encoders for raw values. */
void          hr_gguf_put_u8                     (GByteArray    *out,
                                                  guint8         v);
void          hr_gguf_put_u32                    (GByteArray    *out,
                                                  guint32        v);
void          hr_gguf_put_u64                    (GByteArray    *out,
                                                  guint64        v);
void          hr_gguf_put_string                 (GByteArray    *out,
                                                  const char    *s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrGgufWriter, hr_gguf_writer_free)

gboolean      hr_gguf_writer_write_tiny_llama    (const char    *path,
                                                  const char    *name,
                                                  GError       **error);

G_END_DECLS
