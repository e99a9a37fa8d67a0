/* hr-model-arch.h — the shape of a model, and the arithmetic of its shape
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The leaf every estimate builds on: how many bytes of KV cache one token
 * adds to one layer, which layers slide over a window, what a plain
 * multi-head baseline would hold.  The generic method and every engine
 * profile call these functions; no other file computes a KV size.
 */

#pragma once

#include <glib.h>

#include "hr-units.h"

G_BEGIN_DECLS

typedef enum
{
  HR_ATTENTION_MHA,
  HR_ATTENTION_GQA,
  HR_ATTENTION_MQA,
  HR_ATTENTION_MLA,
} HrAttentionKind;

/* What a layer without a KV cache keeps instead: a recurrent state of
 * fixed size per sequence, whatever the context.  The kinds llama.cpp's
 * llama_memory_recurrent and vLLM's MambaSpec hold (docs/estimator.md,
 * "Recurrent state"). */
typedef enum
{
  HR_STATE_NONE,
  HR_STATE_MAMBA,            /* Mamba / Mamba2 SSM + short convolution */
  HR_STATE_GATED_DELTANET,   /* Gated DeltaNet (Qwen3-Next), KDA */
  HR_STATE_RWKV,             /* RWKV-6/7: token shift + WKV state */
  HR_STATE_SHORT_CONV,       /* LFM2's gated short convolutions */
} HrStateKind;

/* One character per layer of a hybrid, in the layer_pattern of
 * HrModelArch: what mixes the sequence in that layer.  The letters are
 * Nemotron-H's hybrid_override_pattern ("M-M-M-M*-…"); Granite-4.0-H's
 * and LFM2's layer_types lists and llama.cpp's per-layer head_count_kv
 * arrays (0: a recurrent layer) map onto them. */
#define HR_LAYER_RECURRENT 'M'   /* a recurrent state, no KV cache */
#define HR_LAYER_ATTENTION '*'   /* attention with a KV cache */
#define HR_LAYER_MLP       '-'   /* an MLP alone: neither cache nor state */

/* The longest per-layer pattern kept: the deepest hybrid published
 * (Nemotron-H-56B) has 118 layers. */
#define HR_LAYER_PATTERN_MAX 256

/* The shape of a model, as far as memory and speed are concerned. */
typedef struct
{
  HrAttentionKind attention;
  guint32 n_layers;
  guint32 hidden;
  guint32 n_heads;             /* query heads */
  guint32 n_kv_heads;          /* key/value heads (= n_heads for MHA, 1 for MQA) */
  guint32 head_dim_k;          /* K head dimension */
  guint32 head_dim_v;          /* V head dimension (often = head_dim_k) */
  guint32 kv_lora_rank;        /* MLA: compressed latent width */
  guint32 qk_rope_head_dim;    /* MLA: decoupled RoPE key width */
  guint32 sliding_window;      /* 0 = no sliding-window layers */
  guint32 swa_period;          /* with a window: the last layer of every
                                * period is global; 0 = all layers local */
  guint64 vocab;
  guint64 max_context;         /* trained maximum (max_position_embeddings) */
  /* Layers that keep a recurrent state instead of a KV cache (all 0
   * for a plain transformer).  The dimensions are llama.cpp's hparams
   * (ssm_d_conv, ssm_d_inner, ssm_d_state, ssm_n_group; RWKV's head size
   * in ssm_state); hr_model_arch_state_elements() turns them into the
   * conv (r) and state (s) widths of one layer. */
  HrStateKind state_kind;
  guint32 n_state_layers;
  gboolean state_parallel;     /* Falcon-H1: every layer has attention
                                * and an SSM side by side */
  guint32 attention_period;    /* with recurrent layers: the last layer of
                                * every period attends (Qwen3-Next's
                                * full_attention_interval); 0 = no fixed
                                * period (only the counts are known) */
  /* With recurrent layers in no fixed period: each layer's kind
   * (HR_LAYER_*), n_layers characters; "" = none (the period, or the
   * first n_state_layers). */
  char layer_pattern[HR_LAYER_PATTERN_MAX + 1];
  guint32 ssm_conv_kernel;
  guint32 ssm_inner;
  guint32 ssm_state;
  guint32 ssm_groups;
  guint32 ssm_heads;           /* Mamba2: heads of the scan (llama.cpp's
                                * ssm_dt_rank); 0 for the other kinds */
  gboolean ssm_no_norm;        /* Mamba2 without the gated norm tensor
                                * (Falcon-H1's mamba_rms_norm false) */
  double params_total;         /* every resident parameter */
  double params_active;        /* parameters read per token (MoE: < total) */
} HrModelArch;

/* What one token adds to one layer's cache, split into K and V (MLA keeps
 * its latent and RoPE key in K and has no V). */
typedef struct
{
  double k_elements;
  double v_elements;
} HrKvCell;

/* One layer's recurrent state for one sequence, in elements: the rolling
 * convolution window (llama.cpp's r) and the state proper (s). */
typedef struct
{
  double conv_elements;
  double ssm_elements;
} HrStateCell;

#define HR_MODEL_ARCH_ERROR (hr_model_arch_error_quark ())

typedef enum
{
  HR_MODEL_ARCH_ERROR_INVALID,
} HrModelArchError;

/* How a per-layer sliding-window pattern maps onto HrModelArch. */
typedef enum
{
  HR_SWA_NONE,       /* no layer slides: drop the window */
  HR_SWA_ALL,        /* every layer slides: period 0 */
  HR_SWA_PERIODIC,   /* the last layer of every period is global */
  HR_SWA_IRREGULAR,  /* no fixed period: the period keeps as many global layers */
} HrSwaPattern;

GQuark       hr_model_arch_error_quark     (void);

gboolean     hr_model_arch_validate        (const HrModelArch *model,
                                            GError           **error);
guint32      hr_model_arch_local_layers    (const HrModelArch *model);
guint32      hr_model_arch_global_layers   (const HrModelArch *model);
gboolean     hr_model_arch_layer_is_local  (const HrModelArch *model,
                                            guint32            layer);
HrSwaPattern hr_swa_period_from_layers     (const gboolean    *sliding,
                                            guint64            n_layers,
                                            guint64           *period);

guint32      hr_model_arch_kv_layers       (const HrModelArch *model);
gboolean     hr_model_arch_layer_is_recurrent (const HrModelArch *model,
                                            guint32            layer);
guint32      hr_model_arch_attention_layers (const HrModelArch *model);
gboolean     hr_model_arch_layer_attends   (const HrModelArch *model,
                                            guint32            layer);
gboolean     hr_model_arch_set_layer_pattern (HrModelArch     *model,
                                            const char        *pattern,
                                            GError           **error);
guint32      hr_layer_pattern_count        (const char        *pattern,
                                            char               kind);
HrStateCell  hr_model_arch_state_cell      (const HrModelArch *model);
HrStateCell  hr_model_arch_state_cell_tp   (const HrModelArch *model,
                                            guint32            tp);
double       hr_state_bytes_per_sequence   (const HrModelArch *model,
                                            double             conv_bytes_per_element,
                                            double             ssm_bytes_per_element);
const char  *hr_state_kind_to_string       (HrStateKind        kind);
gboolean     hr_state_kind_from_string     (const char        *str,
                                            HrStateKind       *kind);

HrKvCell     hr_model_arch_kv_cell         (const HrModelArch *model);
double       hr_kv_cell_bytes              (HrKvCell           cell,
                                            double             k_bytes_per_element,
                                            double             v_bytes_per_element);
double       hr_model_arch_kv_layer_tokens (const HrModelArch *model,
                                            guint64            context);
double       hr_kv_bytes_per_token         (const HrModelArch *model,
                                            double             bytes_per_element);
double       hr_kv_bytes                   (const HrModelArch *model,
                                            guint64            context,
                                            guint32            batch,
                                            double             bytes_per_element);
double       hr_kv_mha_bytes               (const HrModelArch *model,
                                            guint64            context,
                                            guint32            batch);

const char  *hr_attention_kind_to_string   (HrAttentionKind    kind);
gboolean     hr_attention_kind_from_string (const char        *str,
                                            HrAttentionKind   *kind);

/* Case-insensitive lookup of @str in a table of names; shared by every
 * enumeration's from_string. */
gboolean     hr_lookup_name                (const char * const *names,
                                            guint               n_names,
                                            const char         *str,
                                            int                *value);

G_END_DECLS
