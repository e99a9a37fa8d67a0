/* hr-vision.h — the vision encoder of each vision-capable catalog model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * resources/catalog/vision.json, keyed by model id, from each model's
 * official config.json; what --mmproj auto counts.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A ViT encoder as its config.json's vision_config states it. */
typedef struct
{
  guint32 hidden;              /* hidden_size */
  guint32 intermediate;        /* intermediate_size */
  guint32 layers;              /* num_hidden_layers */
  guint32 heads;               /* num_attention_heads */
  guint32 image_size;          /* pixels a side */
  guint32 patch_size;          /* pixels a patch side */
  guint32 tokens_per_image;    /* tokens an image puts in the context */
  guint32 projection;          /* the text model's hidden size it projects to */
} HrVisionConfig;


gboolean hr_vision_find (const char     *model_id,
                         HrVisionConfig *out);

G_END_DECLS
