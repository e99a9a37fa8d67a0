/* hr-extras.h — what loads beside the model: a vision projector, a draft,
 * LoRA adapters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pure functions.  A vision projector (llama.cpp's mmproj file: a ViT
 * encoder and its projection into the text model) takes its weights and
 * the encoder's compute buffer on the first GPU; a draft model for
 * speculative decoding its own weights, cache and buffers; and the draft
 * changes the decode rate by the expected-tokens formula of Leviathan,
 * Kalman and Matias, "Fast Inference from Transformers via Speculative
 * Decoding", ICML 2023 (arXiv:2211.17192), Theorem 3.8 / eq. (1).
 */

#pragma once

#include <glib.h>

#include "hr-model-arch.h"
#include "hr-vision.h"

G_BEGIN_DECLS


/* The projector file's tensor data: F16 matrices, F32 vectors and, as
 * llama.cpp's converter writes them, an F32 patch and position embedding
 * (Gemma 3 4B's mmproj-model-f16: 811.79 MiB logged, llama.cpp#22790). */
guint64  hr_mmproj_weights_bytes   (const HrVisionConfig *vision);

/* The encoder's compute buffer for one image at its full size, flash
 * attention on: the patches × (FFN width + 3 hidden) F32 activations
 * (HR_MMPROJ_COMPUTE_FLOATS_HIDDEN; 121.25 MiB logged for Gemma 3's). */
guint64  hr_mmproj_compute_bytes   (const HrVisionConfig *vision);

/* The speed-up of speculative decoding: the tokens one target step
 * yields on average, (1 − α^(γ+1)) / (1 − α), over the cost of that step
 * with γ draft tokens, γ c + 1 (c: a draft token's time over a target
 * token's).  Below 1, speculation makes decoding slower. */
double   hr_speculative_speedup    (double                alpha,
                                    guint32               gamma,
                                    double                c);

/* The draft length in 1 … @max with the largest speed-up. */
guint32  hr_speculative_best_gamma (double                alpha,
                                    double                c,
                                    guint32               max);

/* A LoRA adapter of rank r adds A (r × in) and B (out × r) beside each
 * matrix it adapts: r (in + out) elements.  An adapter given by its rank
 * alone adapts every linear layer of the attention layers (Q, K, V, O)
 * and of a dense FFN (gate, up, down), the "all-linear" target of PEFT,
 * Unsloth and Axolotl recipes; a MoE's experts and a hybrid's recurrent
 * projections are not adapted (give the adapter's file for those).
 * Stored in F16, as convert_lora_to_gguf.py writes them by default. */
#define HR_LORA_BYTES_PER_ELEMENT 2.0
/* The largest rank --lora takes: PEFT's ranks are 4 … 256 in practice. */
#define HR_LORA_RANK_MAX          4096

guint64  hr_lora_bytes_for_rank    (const HrModelArch    *arch,
                                    guint64               ffn_width,
                                    gboolean              moe,
                                    guint32               rank);

G_END_DECLS
