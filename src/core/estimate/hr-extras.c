/* hr-extras.c — what loads beside the model: a vision projector, a draft,
 * LoRA adapters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-extras"

#include "config.h"

#include <math.h>

#include "hr-estimate-constants.h"
#include "hr-extras.h"

guint64
hr_mmproj_weights_bytes (const HrVisionConfig *v)
{
  double h, f, patches, f16 = 0, f32 = 0;

  g_return_val_if_fail (v != NULL && v->patch_size > 0, 0);

  h = v->hidden;
  f = v->intermediate;
  patches = pow ((double) (v->image_size / v->patch_size), 2);
  /* patch embedding (a 3-channel convolution) and its bias, position
   * embedding: F32 */
  f32 += 3.0 * v->patch_size * v->patch_size * h + h + patches * h;
  /* each block: Q, K, V, O and the two FFN matrices in F16; their
   * biases and two layer norms (weight and bias) in F32 */
  f16 += v->layers * (4 * h * h + 2 * h * f);
  f32 += v->layers * (4 * h + f + h + 4 * h);
  /* the last layer norm; the projection into the text model and its norm */
  f32 += 2 * h + h;
  f16 += h * v->projection;
  return (guint64) llround (2 * f16 + 4 * f32);
}

guint64
hr_mmproj_compute_bytes (const HrVisionConfig *v)
{
  double patches;

  g_return_val_if_fail (v != NULL && v->patch_size > 0, 0);

  patches = pow ((double) (v->image_size / v->patch_size), 2);
  return (guint64) llround (patches * (v->intermediate +
                                       HR_MMPROJ_COMPUTE_FLOATS_HIDDEN * (double) v->hidden) * 4);
}

double
hr_speculative_speedup (double  alpha,
                        guint32 gamma,
                        double  c)
{
  double tokens;

  g_return_val_if_fail (alpha >= 0 && alpha < 1 && c >= 0, 1.0);

  tokens = (1 - pow (alpha, gamma + 1.0)) / (1 - alpha);
  return tokens / (gamma * c + 1);
}

guint32
hr_speculative_best_gamma (double  alpha,
                           double  c,
                           guint32 max)
{
  guint32 best = 1;

  for (guint32 g = 2; g <= max; g++)
    if (hr_speculative_speedup (alpha, g, c) > hr_speculative_speedup (alpha, best, c))
      best = g;
  return best;
}

guint64
hr_lora_bytes_for_rank (const HrModelArch *a,
                        guint64            ffn_width,
                        gboolean           moe,
                        guint32            rank)
{
  double h, q, kv, attention, ffn;

  g_return_val_if_fail (a != NULL, 0);

  h = a->hidden;
  q = (double) a->n_heads * a->head_dim_k;
  kv = (double) a->n_kv_heads * (a->head_dim_k + a->head_dim_v);
  /* in + out of Q, K, V and O (O maps the heads' values back) */
  attention = (h + q) + (2 * h + kv) + ((double) a->n_heads * a->head_dim_v + h);
  ffn = moe ? 0 : 3.0 * (h + (double) ffn_width);
  return (guint64) llround ((double) rank * HR_LORA_BYTES_PER_ELEMENT *
                            (hr_model_arch_kv_layers (a) * attention + a->n_layers * ffn));
}
