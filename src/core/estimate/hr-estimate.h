/* hr-estimate.h — the estimator: pure functions over plain structs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything Headroom shows about memory and speed is computed here and
 * nowhere else.  The functions take plain input structs and fill plain
 * result structs; they allocate nothing and touch no global state, so they
 * are cheap to call for every cell of the matrix and every device.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HR_GIB ((double) (1ull << 30))
#define HR_GB  1e9

/* Inputs outside these bounds are rejected with HR_ESTIMATE_ERROR_INVALID. */
#define HR_CONTEXT_MIN   1
#define HR_CONTEXT_MAX   G_MAXINT32          /* 2^31 - 1 tokens */
#define HR_BATCH_MAX     4096
#define HR_GPUS_MAX      1024
#define HR_LAYERS_MAX    100000
#define HR_PARAMS_MAX    1e15                /* parameters of one model */

typedef enum
{
  HR_ATTENTION_MHA,
  HR_ATTENTION_GQA,
  HR_ATTENTION_MQA,
  HR_ATTENTION_MLA,
} HrAttentionKind;

typedef enum
{
  HR_DEVICE_DISCRETE,
  HR_DEVICE_UNIFIED,
} HrDeviceKind;

typedef enum
{
  HR_ENGINE_GENERIC,
  HR_ENGINE_LLAMACPP,
  HR_ENGINE_OLLAMA,
  HR_ENGINE_VLLM,
} HrEngine;

#define HR_N_ENGINES 4

typedef enum
{
  HR_VERDICT_COMFORTABLE,
  HR_VERDICT_TIGHT,
  HR_VERDICT_NO_FIT,
} HrVerdict;

/* Hardware families carry the decode-efficiency calibration. */
typedef enum
{
  HR_FAMILY_NVIDIA_GEFORCE,
  HR_FAMILY_NVIDIA_WORKSTATION,
  HR_FAMILY_NVIDIA_DATACENTER,
  HR_FAMILY_AMD_RADEON,
  HR_FAMILY_AMD_INSTINCT,
  HR_FAMILY_INTEL_ARC,
  HR_FAMILY_APPLE_SILICON,
} HrHardwareFamily;

#define HR_N_FAMILIES 7

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
  double params_total;         /* every resident parameter */
  double params_active;        /* parameters read per token (MoE: < total) */
} HrModelArch;

/* A device (one GPU, or one Apple SoC). */
typedef struct
{
  HrDeviceKind kind;
  HrHardwareFamily family;
  guint64 memory_bytes;        /* as the device reports it */
  double bandwidth_gbps;       /* decimal GB/s */
} HrDevice;

/* Engine settings; zero / HR_FLASH_ATTN_DEFAULT mean the engine's own
 * default.  The generic profile ignores them. */
typedef enum
{
  HR_FLASH_ATTN_DEFAULT,
  HR_FLASH_ATTN_ON,
  HR_FLASH_ATTN_OFF,
} HrFlashAttn;

typedef struct
{
  HrFlashAttn flash_attn;          /* llama.cpp, Ollama */
  guint32 ubatch;                  /* llama.cpp, Ollama: physical batch */
  double gpu_memory_utilization;   /* vLLM: share of device memory */
  guint64 max_num_batched_tokens;  /* vLLM: tokens per scheduler step */
} HrEngineOptions;

typedef struct
{
  const HrModelArch *model;
  double bpw;                  /* effective bits per weight of the precision */
  double kv_bytes_per_element; /* FP16 2, FP8 1, Q8_0 34/32, Q4_0 18/32 */
  guint64 context;             /* tokens per sequence */
  guint32 batch;               /* parallel sequences */
  HrEngine engine;
  const HrDevice *device;
  guint32 n_gpus;              /* tensor-parallel degree */

  /* Engine profiles only (hr_scenario_estimate() fills them): */
  HrEngineOptions options;
  guint64 weights_bytes;       /* tensor-exact weights; 0 = params × bpw / 8 */
  guint64 token_embd_bytes;    /* the input embedding tensor */
  guint64 ffn_width;           /* FFN width a token goes through */
} HrEstimateInput;

typedef struct
{
  /* whole system (all devices) */
  guint64 weights_bytes;       /* the whole model's weights */
  guint64 kv_bytes;            /* KV cache on all devices (replicas included) */
  guint64 overhead_bytes;      /* runtime overhead on all devices */
  guint64 total_bytes;         /* weights + kv + overhead */
  double weights_share;        /* fractions of total_bytes */
  double kv_share;
  double overhead_share;

  /* one device */
  guint64 per_device_bytes;
  guint64 per_device_weights_bytes;
  guint64 per_device_kv_bytes;
  guint64 per_device_overhead_bytes;
  guint64 usable_bytes;        /* what one device can give the model */
  double device_share;         /* per_device_bytes / device memory */
  HrVerdict verdict;

  guint32 kv_heads_per_device; /* > n_kv_heads / n_gpus when replicated */
  gboolean kv_replicated;

  guint64 max_context;         /* largest context that fits (0 if none) */
  gboolean max_context_unbounded; /* only sliding-window layers: KV stops growing */
  gboolean max_context_past_trained;

  double decode_tokens_per_s;  /* single stream, at position = context */
  double bytes_per_token;      /* what one decode step reads per device */
  double decode_fixed_seconds; /* the per-token cost assumed beyond reading */
  double decode_efficiency;    /* the share of bandwidth assumed */

  /* engine profiles */
  guint64 compute_bytes;       /* llama.cpp compute + output buffers, one device */
  guint64 host_bytes;          /* what stays in system RAM */
  guint64 kv_capacity_tokens;  /* vLLM: tokens the KV budget holds */
  double max_concurrency;      /* vLLM: kv_capacity_tokens / context */
  gboolean flash_attn;         /* llama.cpp / Ollama: as assumed */

  guint64 kv_mha_bytes;        /* MHA FP16 baseline at the same context/batch */
  double kv_savings;           /* 1 - kv / kv_mha */
  double kv_bytes_per_token;   /* whole model, one sequence, all layers */
} HrEstimate;

#define HR_ESTIMATE_ERROR (hr_estimate_error_quark ())

typedef enum
{
  HR_ESTIMATE_ERROR_INVALID,
} HrEstimateError;

GQuark       hr_estimate_error_quark          (void);

gboolean     hr_model_arch_validate           (const HrModelArch     *model,
                                               GError               **error);
guint32      hr_model_arch_local_layers       (const HrModelArch     *model);

/* How a per-layer sliding-window pattern maps onto HrModelArch. */
typedef enum
{
  HR_SWA_NONE,       /* no layer slides: drop the window */
  HR_SWA_ALL,        /* every layer slides: period 0 */
  HR_SWA_PERIODIC,   /* the last layer of every period is global */
  HR_SWA_IRREGULAR,  /* no fixed period: the period keeps as many global layers */
} HrSwaPattern;

HrSwaPattern hr_swa_period_from_layers        (const gboolean        *sliding,
                                               guint64                n_layers,
                                               guint64               *period);

double       hr_kv_bytes_per_token            (const HrModelArch     *model,
                                               double                 bytes_per_element);
double       hr_kv_bytes                      (const HrModelArch     *model,
                                               guint64                context,
                                               guint32                batch,
                                               double                 bytes_per_element);
double       hr_kv_mha_bytes                  (const HrModelArch     *model,
                                               guint64                context,
                                               guint32                batch);

guint64      hr_device_usable_bytes           (const HrDevice        *device);
double       hr_decode_efficiency             (HrHardwareFamily       family);

gboolean     hr_estimate                      (const HrEstimateInput *input,
                                               HrEstimate            *result,
                                               GError               **error);

const char  *hr_verdict_to_string             (HrVerdict              verdict);
const char  *hr_engine_to_string              (HrEngine               engine);
gboolean     hr_engine_from_string            (const char            *str,
                                               HrEngine              *engine);
const char  *hr_attention_kind_to_string      (HrAttentionKind        kind);
gboolean     hr_attention_kind_from_string    (const char            *str,
                                               HrAttentionKind       *kind);
const char  *hr_hardware_family_to_string     (HrHardwareFamily       family);
gboolean     hr_hardware_family_from_string   (const char            *str,
                                               HrHardwareFamily      *family);

G_END_DECLS
