/* hr-weights.h — tensor-exact weight sizes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The nominal method (parameters × one bits-per-weight figure) is off by
 * several per cent for real files, because a GGUF "Q4_K_M" is a mix of
 * types: llama.cpp's quantizer gives the output head, some attn_v and some
 * ffn_down tensors more bits, keeps norms in F32, and falls back to legacy
 * types where a row length is not a multiple of the block size.
 *
 * This module enumerates a model's tensors from its architecture the way
 * llama.cpp stores them, gives each the ggml type that llama.cpp's
 * quantizer assigns for the file type, and sums block-exact sizes.  The
 * same enumeration also serves safetensors-style checkpoints as vLLM loads
 * them (BF16/FP16/FP32, FP8 with per-tensor or 128 × 128 block scales,
 * NVFP4 with a scale per 16 weights, AWQ/GPTQ INT4 with group-128 scales
 * and zeros).
 */

#pragma once

#include <glib.h>

#include "hr-model-spec.h"

G_BEGIN_DECLS

#define HR_WEIGHTS_ERROR (hr_weights_error_quark ())

typedef enum
{
  HR_WEIGHTS_ERROR_UNKNOWN_PRECISION,  /* not a precision id we know */
  HR_WEIGHTS_ERROR_UNSUPPORTED_ARCH,   /* cannot enumerate its tensors */
  HR_WEIGHTS_ERROR_WRONG_FORMAT,       /* e.g. AWQ asked of a GGUF file */
  HR_WEIGHTS_ERROR_INVALID,            /* shapes that cannot be stored */
} HrWeightsError;

/* Which storage family to model. */
typedef enum
{
  HR_WEIGHTS_FORMAT_AUTO,         /* GGUF for GGUF precisions, safetensors
                                   * for FP8/AWQ/GPTQ and the float ones */
  HR_WEIGHTS_FORMAT_GGUF,         /* a llama.cpp file */
  HR_WEIGHTS_FORMAT_SAFETENSORS,  /* a Hugging Face checkpoint as vLLM loads it */
} HrWeightsFormat;

/* Storage types of safetensors-style checkpoints that ggml has no id for;
 * they share the by_type table with the ggml type ids (HrGgmlType). */
#define HR_WEIGHTS_TYPE_FP8   100   /* float8 e4m3, one byte */
#define HR_WEIGHTS_TYPE_INT4  101   /* packed 4-bit integers (weights, zeros) */

#define HR_WEIGHTS_MAX_TYPES  48

typedef struct
{
  guint32 ggml_type;   /* an HrGgmlType, or HR_WEIGHTS_TYPE_* */
  guint64 bytes;
  guint64 elements;    /* stored elements (scales and zeros count too) */
  guint32 n_tensors;
} HrWeightsByType;

typedef struct
{
  guint64 total_bytes;        /* tensor data, as llama-bench's "model size" */
  guint64 total_params;       /* model parameters (no scales or zeros) */
  HrWeightsByType by_type[HR_WEIGHTS_MAX_TYPES];  /* largest first */
  guint n_types;
  gboolean exact;             /* FALSE if the tensor set is only approximated */

  HrWeightsFormat format;     /* the family actually modelled (never AUTO) */
  guint32 n_tensors;
  /* GGUF only: a modelled estimate of the header (metadata, tokenizer and
   * tensor table), and of the whole file with 32-byte data alignment. */
  guint64 metadata_bytes;
  guint64 file_bytes;
  /* safetensors only: buffers vLLM allocates while loading the weights and
   * counts in "Loading model weights took" (the rotary cos/sin cache). */
  guint64 buffer_bytes;
} HrWeights;

typedef struct
{
  HrWeightsFormat format;
  /* GGUF: quantized with an importance matrix.  Changes a few rules
   * (IQ4_XS keeps its first ffn_down layers in IQ4_XS; Q4_0 moves them to
   * Q4_1).  Most "i1"/imatrix uploads set it; static quants do not. */
  gboolean imatrix;
} HrWeightsOptions;

/* One stored tensor, as hr_weights_list_tensors() returns them. */
typedef struct
{
  char name[64];       /* GGUF-style: "blk.3.attn_v.weight", "output.weight" */
  guint32 ggml_type;
  guint32 n_dims;
  guint64 dims[3];     /* ggml order: dims[0] is the row length */
  guint64 bytes;
  guint64 params;      /* 0 for quantization scales, zeros and indices */
} HrWeightsTensor;

GQuark       hr_weights_error_quark            (void);

/* precision_id as in precisions.json.  Returns FALSE with a clear error for
 * an unknown precision or an architecture whose tensors it cannot
 * enumerate; callers then fall back to the nominal params × bpw method. */
gboolean     hr_weights_compute                (HrModelSpec            *model,
                                                const char             *precision_id,
                                                HrWeights              *out,
                                                GError                **error);
gboolean     hr_weights_compute_with_options   (HrModelSpec            *model,
                                                const char             *precision_id,
                                                const HrWeightsOptions *options,
                                                HrWeights              *out,
                                                GError                **error);
/* Every tensor with its type and size, in file order; free with
 * g_array_unref().  NULL with an error as for hr_weights_compute(). */
GArray      *hr_weights_list_tensors           (HrModelSpec            *model,
                                                const char             *precision_id,
                                                const HrWeightsOptions *options,
                                                GError                **error);

const char  *hr_weights_type_name              (guint32                 type);
gboolean     hr_weights_supports_architecture  (const char             *architecture);

G_END_DECLS
