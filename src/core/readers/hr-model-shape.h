/* hr-model-shape.h — what a reader makes of a model file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GGUF and config.json readers each fill one of these; the catalog
 * turns it into a model with hr_model_spec_new_from_shape(), its one
 * writer of entries.  Plain data, the members of a catalog entry (the
 * schema of resources/catalog/models.json) in C types: no JSON, and no
 * checks beyond the readers' own bounds; defaults and consistency are the
 * catalog's.  Zero, FALSE and %NULL mean "not said", as an absent member
 * does in an entry.
 */

#pragma once

#include <glib.h>

#include "hr-model-arch.h"

G_BEGIN_DECLS

/* Bytes of a model file's weights in one ggml type ("Q4_K"). */
typedef struct
{
  char *type;
  guint64 bytes;
} HrTypeBytes;

typedef struct
{
  /* What the catalog shows: every string owned, on one displayable line. */
  char *id;
  char *name;
  char *family;
  char *architecture;          /* Hugging Face model_type */
  char *license;
  char *release;
  char *ollama_tag;
  char *source;                /* where the shape comes from: a path */

  /* Attention kind, layers, heads, window, vocabulary, context, and the
   * parameter counts (whole numbers). */
  HrModelArch arch;
  guint32 intermediate;
  guint32 experts;
  guint32 experts_active;
  guint32 shared_experts;
  guint32 expert_intermediate;
  guint32 dense_layers;        /* leading layers without experts */
  guint32 q_lora_rank;         /* MLA */
  guint32 qk_nope_head_dim;    /* MLA */
  gboolean tied_embeddings;
  gboolean attention_bias;
  gboolean qk_norm;
  gboolean plain_mlp;          /* up, activation, down: no gate */

  /* A model file's own facts (GGUF). */
  guint64 file_weights_bytes;
  char *file_type;             /* "Q4_K_M" */
  char *file_path;
  GArray *weights_by_type;     /* of HrTypeBytes in ggml type order; %NULL
                                * when the reader does not know them */

  GPtrArray *notes;            /* what the shape simplifies, for inspect */
} HrModelShape;

void hr_model_shape_init             (HrModelShape *shape);
void hr_model_shape_clear            (HrModelShape *shape);
void hr_model_shape_begin_weights_by_type (HrModelShape *shape);
void hr_model_shape_add_type_bytes   (HrModelShape *shape,
                                      const char   *type,
                                      guint64       bytes);
void hr_model_shape_add_note         (HrModelShape *shape,
                                      const char   *note);
void hr_model_shape_set_window       (HrModelShape *shape,
                                      guint64       sliding_window,
                                      guint64       swa_period);
void hr_model_shape_set_experts      (HrModelShape *shape,
                                      guint64       experts,
                                      guint64       experts_active,
                                      guint64       expert_intermediate,
                                      guint64       shared_experts,
                                      guint64       dense_layers);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HrModelShape, hr_model_shape_clear)

G_END_DECLS
