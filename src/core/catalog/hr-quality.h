/* hr-quality.h — the published quality cost of a precision or KV cache type
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * resources/catalog/quality.json holds, per weight precision and per KV
 * cache type, the mean KL divergence and the perplexity change against
 * the 16-bit model as published (llama.cpp's LLaMA 3 8B scoreboard, the
 * quantized-KV-cache PR), with the source and the model it was measured
 * on.  What has no published figure is "not measured": never a guess.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The quality tiers, from the mean KLD against the 16-bit model.  The
 * boundaries fall in the gaps of llama.cpp's LLaMA 3 8B scoreboard
 * (https://github.com/ggml-org/llama.cpp/blob/master/tools/perplexity/README.md),
 * so that each tier holds the types people
 * treat alike:
 *
 * near-lossless  KLD ≤ 0.01: Q8_0 (0.0014), Q6_K (0.0055) — the top token
 *                is the 16-bit one's 96 % of the time or more;
 * good           KLD ≤ 0.05: the 5-bit K-quants (0.011–0.017), Q4_K_M
 *                (0.031), IQ4_XS (0.036), Q4_K_S (0.043);
 * fair           KLD ≤ 0.15: Q4_0 (0.072), Q3_K_L/M (0.087/0.102), IQ3_M/S
 *                (0.103/0.111), IQ3_XS (0.139);
 * poor           above: IQ3_XXS (0.18), Q3_K_S (0.23), every 2- and 1-bit
 *                type (0.33 and up). */
#define HR_QUALITY_KLD_NEAR_LOSSLESS 0.01
#define HR_QUALITY_KLD_GOOD          0.05
#define HR_QUALITY_KLD_FAIR          0.15

typedef enum
{
  HR_QUALITY_TIER_REFERENCE,      /* 16- and 32-bit weights: what the others are measured against */
  HR_QUALITY_TIER_NEAR_LOSSLESS,
  HR_QUALITY_TIER_GOOD,
  HR_QUALITY_TIER_FAIR,
  HR_QUALITY_TIER_POOR,
  HR_QUALITY_TIER_NOT_MEASURED,   /* nothing published */
} HrQualityTier;

typedef struct
{
  gboolean measured;        /* FALSE: "not measured", the rest is empty */
  double kld;               /* mean KL divergence against the 16-bit model */
  double ppl_delta;         /* mean perplexity minus the 16-bit one's */
  const char *imatrix;      /* the measured file's importance matrix, or NULL */
  const char *source;       /* URL */
  const char *measured_on;  /* the model it was measured on */
} HrQuality;

gboolean      hr_quality_for_precision  (const char       *precision_id,
                                         HrQuality        *quality);
gboolean      hr_quality_for_kv_type    (const char       *kv_type_id,
                                         HrQuality        *quality);
HrQualityTier hr_quality_tier_for_kld   (double            kld);
HrQualityTier hr_quality_precision_tier (const char       *precision_id,
                                         gboolean          is_float);
const char   *hr_quality_tier_to_string (HrQualityTier     tier);
const char   *hr_quality_tier_label     (HrQualityTier     tier);
guint         hr_quality_get_n_entries  (void);

G_END_DECLS
