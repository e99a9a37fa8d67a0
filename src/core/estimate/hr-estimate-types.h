/* hr-estimate-types.h — what the estimator is asked and what it answers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Plain structs and enumerations, shared by the dispatcher (hr-estimate.c)
 * and every engine profile (engines/).  The result carries the operands of
 * its own arithmetic, so that the formulas shown to a user are written
 * from the same numbers that were computed, by the same module.
 */

#pragma once

#include <glib.h>

#include "hr-device.h"
#include "hr-model-arch.h"
#include "hr-units.h"

G_BEGIN_DECLS

typedef enum
{
  HR_ENGINE_GENERIC,
  HR_ENGINE_LLAMACPP,
  HR_ENGINE_OLLAMA,
  HR_ENGINE_VLLM,
  HR_ENGINE_SGLANG,
  HR_ENGINE_AUTO,      /* not a profile: the scenario picks one (hr_scenario_engine) */
} HrEngine;

/* The engine profiles hr_estimate() dispatches to (all but AUTO). */
#define HR_N_ENGINES 5

typedef enum
{
  HR_VERDICT_COMFORTABLE,
  HR_VERDICT_TIGHT,
  HR_VERDICT_NO_FIT,
} HrVerdict;

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
  guint32 vllm_generation;         /* vLLM: an HrVllmGeneration (0 = 0.21+) */
  gboolean backend_set;            /* llama.cpp, Ollama: the build asked for */
  HrBackend backend;               /*   (FALSE: the device's own, hr_device_backend) */
} HrEngineOptions;

/* How llama.cpp spreads a model over several GPUs (--split-mode). */
typedef enum
{
  HR_SPLIT_DEFAULT,    /* layer with several GPUs, none with one */
  HR_SPLIT_LAYER,      /* whole layers per GPU, in proportion */
  HR_SPLIT_ROW,        /* matrices split by rows over every GPU */
  HR_SPLIT_NONE,       /* one GPU (--main-gpu) */
} HrSplitMode;

/* llama.cpp and Ollama count at most this many GPUs (GGML_CUDA_MAX_DEVICES). */
#define HR_MAX_DEVICES      16
typedef struct
{
  gboolean gpu_layers_fixed;      /* FALSE: --n-gpu-layers auto, as many as fit */
  guint32 gpu_layers;             /* with gpu_layers_fixed: 0 … layers + 1 */
  HrSplitMode split_mode;
  guint32 n_tensor_split;         /* 0: in proportion to free memory */
  double tensor_split[HR_MAX_DEVICES];
  guint32 n_cpu_moe;              /* routed experts of the first N layers stay
                                   * in system RAM (--n-cpu-moe) */
} HrPlacementOptions;

/* How vLLM and SGLang spread a model: tensor parallel inside a stage,
 * pipeline stages, data-parallel replicas, over one or more machines.
 * Zero fields: tp = the GPU count, one stage, one replica, one machine. */
typedef struct
{
  guint32 tp;
  guint32 pp;
  guint32 dp;
  guint32 nodes;
} HrLayout;

/* System memory, where llama.cpp keeps what the GPUs do not hold.  Zero
 * fields take the stated assumption (hr-estimate-constants.h). */
typedef struct
{
  guint64 bytes;
  double bandwidth_gbps;
} HrSystemMemory;

/* The weights of each layer as the engine loads them (llama.cpp's view:
 * repeating blocks, the output layer, the input embeddings). */
typedef struct
{
  guint32 n_layers;
  const guint64 *layer_bytes;     /* every tensor of blk.N (NULL: uniform) */
  const guint64 *expert_bytes;    /* of which routed experts (NULL: none,
                                   * or uniform with layer_bytes NULL) */
  guint64 uniform_layer_bytes;    /* each layer, without per-layer sizes */
  guint64 uniform_expert_bytes;
  guint64 output_bytes;           /* output.weight (or the tied copy) + norm */
  guint64 token_embd_bytes;       /* the input layer, always in RAM */
  guint64 largest_dense_bytes;    /* the largest matrix of a block outside
                                   * the routed experts */
} HrLayerWeights;

/* Which files hold weights of this precision: GGUF types only exist as
 * llama.cpp files, AWQ/GPTQ/FP8 only as safetensors checkpoints; float
 * weights come both ways. */
typedef enum
{
  HR_CHECKPOINT_ANY,
  HR_CHECKPOINT_GGUF,
  HR_CHECKPOINT_SAFETENSORS,
} HrCheckpoint;

typedef struct
{
  const HrModelArch *model;
  double bpw;                  /* effective bits per weight of the precision */
  HrCheckpoint checkpoint;     /* the files this precision comes in */
  double kv_bytes_per_element; /* FP16 2, FP8 1, Q8_0 34/32, Q4_0 18/32 */
  guint64 context;             /* tokens per sequence */
  guint32 batch;               /* parallel sequences */
  HrEngine engine;
  const HrDevice *device;      /* the first GPU (and every GPU of a plain count) */
  guint32 n_gpus;              /* tensor-parallel degree */
  /* Several devices of different kinds (docs/CLI.md "Additions": --hardware
   * ID[:N],ID[:N]): GPU d is gpu_devices[d], or input->device where NULL.
   * What each keeps for the desktop and other processes (--reserve):
   * reserve_set[d] FALSE takes the device kind's default
   * (hr_device_usable_bytes). */
  const HrDevice *gpu_devices[HR_MAX_DEVICES];
  gboolean reserve_set[HR_MAX_DEVICES];
  guint64 reserve_bytes[HR_MAX_DEVICES];

  /* Engine profiles only (hr_scenario_estimate() fills them), but for
   * weights_bytes, which the nominal method takes too when the model is an
   * imported GGUF file of this precision: */
  HrEngineOptions options;
  guint64 weights_bytes;       /* tensor-exact weights; 0 = params × bpw / 8 */
  guint64 token_embd_bytes;    /* the input embedding tensor */
  guint64 ffn_width;           /* FFN width a token goes through */
  const HrLayerWeights *layers; /* NULL: the weights spread evenly */
  guint32 experts;             /* MoE: routed experts and those active */
  guint32 experts_active;
  HrPlacementOptions placement;
  HrSystemMemory ram;
  HrLayout layout;             /* vLLM, SGLang */
  gboolean small_batch_device; /* vLLM keeps its small defaults (the A100) */
  guint32 quant_family;        /* an HrQuantFamily (hr-speed.h) */
  gboolean tied_embeddings;    /* the output head is the embedding matrix */
  guint64 prompt_tokens;       /* the prompt timed; 0 = the context */
  guint64 generate_tokens;     /* the answer timed; 0 = HR_DEFAULT_GENERATE */
  guint64 depth;               /* tokens cached before the prompt (llama-bench -d);
                                * the prompt then defaults to the rest of the context */
  double cpu_flops;            /* the CPU's matrix rate, FLOP/s (0: the assumption) */
  guint32 users;               /* vLLM, SGLang: concurrent users (0: none asked) */
  double target_tokens_per_s;  /*   the speed each should get (0: none) */
  /* What loads beside the model (llama.cpp, Ollama; hr-extras.h): a
   * vision projector on the first GPU, a draft model's part on each GPU. */
  guint64 mmproj_weights_bytes;  /* the projector's weights (0: none) */
  guint64 mmproj_compute_bytes;  /*   and its encoder's compute buffer */
  guint64 image_tokens;          /* images × tokens per image: context cells */
  guint64 draft_device_bytes[HR_MAX_DEVICES]; /* weights, KV, buffers */
  /* LoRA adapters (llama.cpp, Ollama): their tensors, which llama.cpp
   * puts beside the layer each one adapts (0: none). */
  guint64 lora_bytes;
  /* llama.cpp --no-kv-offload: every layer's KV cache (and recurrent
   * state) in system RAM, attention computed by the CPU. */
  gboolean kv_on_host;
  /* llama-server's host prompt cache (--cache-ram): the most it keeps of
   * cached prompts in system RAM (0: none). */
  guint64 host_cache_bytes;
} HrEstimateInput;

/* The answer length timed when none is given (docs/CLI.md: --generate). */
#define HR_DEFAULT_GENERATE 512

typedef enum
{
  HR_PLACEMENT_GPU,            /* everything on one GPU */
  HR_PLACEMENT_SPLIT,          /* everything on several GPUs */
  HR_PLACEMENT_PARTIAL,        /* some layers (or experts) in system RAM */
  HR_PLACEMENT_CPU,            /* no layer on a GPU */
} HrPlacementKind;

/* What one GPU holds. */
typedef struct
{
  guint64 weights_bytes;
  guint64 kv_bytes;
  guint64 state_bytes;         /* recurrent layers' state (hybrids) */
  guint64 compute_bytes;       /* compute buffer and backend reserve */
  guint64 total_bytes;
  guint64 usable_bytes;
  guint64 reserve_bytes;       /* what the device keeps for others (desktop,
                                * driver, other processes): memory − usable */
  guint64 mmproj_bytes;        /* a vision projector: weights + encoder buffer */
  guint64 draft_bytes;         /* a draft model's weights, KV and buffers */
  guint64 lora_bytes;          /* LoRA adapters of the layers it holds */
  guint32 layers;              /* layers as llama.cpp counts them (output too) */
  gboolean output_layer;
} HrDeviceLoad;

/* A one-click change that turns an impossible combination into one the
 * engine runs (hr_estimate() fails with HR_ESTIMATE_ERROR_UNSUPPORTED). */
typedef enum
{
  HR_FIX_NONE,
  HR_FIX_FLASH_ATTN_ON,        /* a quantized V cache needs flash attention */
  HR_FIX_KV_FP16,              /* the engine has no such cache type */
  HR_FIX_ENGINE_AUTO,          /* another engine loads these files */
  HR_FIX_GPU_COUNT,            /* a tensor-parallel size the heads divide */
} HrFix;

typedef struct
{
  /* whole system (all devices) */
  guint64 weights_bytes;       /* the whole model's weights */
  guint64 kv_bytes;            /* KV cache on all devices (replicas included) */
  guint64 state_bytes;         /* recurrent state on all devices, every
                                * sequence the engine reserves (0 for a
                                * plain transformer) */
  guint64 state_bytes_per_sequence; /* of one sequence, all recurrent layers */
  guint64 overhead_bytes;      /* runtime overhead on all devices */
  guint64 total_bytes;         /* weights + kv + state + overhead */
  double weights_share;        /* fractions of total_bytes */
  double kv_share;
  double state_share;
  double overhead_share;

  /* one device */
  guint64 per_device_bytes;
  guint64 per_device_weights_bytes;
  guint64 per_device_kv_bytes;
  guint64 per_device_state_bytes;
  guint64 per_device_overhead_bytes;
  guint64 usable_bytes;        /* what one device can give the model (the
                                * fullest device's, with several kinds) */
  guint32 fullest_device;      /* the device the per-device figures are of */
  guint64 free_bytes;          /* usable − per device, 0 when over */
  guint64 excess_bytes;        /* per device − usable, 0 when it fits */
  double device_share;         /* per_device_bytes / device memory */
  HrVerdict verdict;
  guint32 calibrated_runs;     /* speed runs measured on this computer that
                                * corrected the speeds (hr-calibration.c) */
  HrEngine engine;             /* the profile that answered */

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

  /* Operands, for the formulas shown beside the numbers. */
  guint64 nominal_weights_bytes; /* parameters × bits per weight ÷ 8 */
  guint64 host_weights_bytes;  /* weights that stay in system RAM */
  HrKvCell kv_cell;            /* elements one token adds to one layer */
  double kv_bytes_per_element; /* the cache type the engine really uses */
  gboolean kv_type_ignored;    /* it differs from the one asked for */
  double kv_device_fraction;   /* share of one copy of the cache a device holds */
  guint64 kv_tokens;           /* cells of a full-attention layer, one
                                * sequence (padded where the engine pads) */
  guint64 kv_window_tokens;    /* cells of a sliding-window layer */
  guint64 overhead_fixed_bytes;     /* generic: the fixed part */
  double overhead_weights_fraction; /* generic: the share of the weights */
  guint64 reserve_bytes;       /* llama.cpp: backend reserve per device */
  guint64 budget_bytes;        /* vLLM: utilization × reported memory */
  guint64 activation_bytes;    /* vLLM: profiled activation peak */
  guint64 non_torch_bytes;     /* vLLM: CUDA context, workspaces */
  guint64 cuda_graph_bytes;    /* vLLM: captured graphs */
  double gpu_memory_utilization;
  guint32 block_size;          /* vLLM: tokens per KV block */

  /* Where everything lives (every profile fills it; llama.cpp and
   * Ollama may leave layers in system RAM). */
  HrPlacementKind placement;
  guint32 gpu_layers;          /* llama.cpp's count: repeating layers + output */
  guint32 layer_count;         /* layers + 1 */
  guint32 n_devices;
  HrDeviceLoad devices[HR_MAX_DEVICES];
  guint64 host_kv_bytes;       /* KV of the layers held by the CPU */
  guint64 ram_bytes;           /* system memory assumed or given */
  guint64 ram_usable_bytes;    /* what the model may take of it */
  double ram_bandwidth_gbps;
  gboolean ram_fits;           /* host_bytes ≤ ram_usable_bytes */
  double decode_gpu_seconds;   /* one decode step: the GPUs' reading */
  double decode_cpu_seconds;   /*   and the CPU's, for CPU-held layers */
  double decode_cache_seconds; /*   of which reading the KV cache */

  /* The prompt and the answer (engine profiles; 0 where not modelled). */
  guint64 prompt_tokens;
  guint64 generate_tokens;
  double prefill_tokens_per_s; /* average over the prompt, from an empty cache */
  double ttft_seconds;         /* the prompt, then the first token */

  /* The range each speed carries: the measured error of its speed group
   * (backend × dense/MoE × placement × depth) around the figure; both 0
   * where no measured row backs the group (say so, give no range). */
  double decode_tokens_per_s_low, decode_tokens_per_s_high;
  double prefill_tokens_per_s_low, prefill_tokens_per_s_high;
  const char *speed_group;     /* the group's name (static), or NULL */
  guint32 speed_group_rows;    /* measured rows that back it */
  HrBackend backend;           /* what the GPUs ran on (llama.cpp, Ollama) */
  double depth;                /* tokens cached before the prompt */
  double generation_seconds;   /* the answer's tokens after the first */

  HrLayout layout;             /* vLLM, SGLang: as resolved */
  guint32 max_num_seqs;        /* vLLM, SGLang: sequences a step may hold */

  /* Under load (vLLM, SGLang; hr-serving-speed.h): input->users each
   * sending a prompt and reading the answer, over and over. */
  guint32 users;
  guint32 users_served;        /* at once, in all replicas (the rest wait) */
  double per_user_tokens_per_s; /* a served user's answer rate, prompts of
                                 * the others included */
  double aggregate_tokens_per_s; /* answer tokens of all users */
  double load_ttft_seconds;    /* a user's first token under that load */
  guint32 max_users;           /* the most users at ≥ the target each (or
                                * the cache's limit without a target) */
  guint64 max_num_batched_tokens;

  /* What loads beside the model (on the GPUs; in total_bytes and
   * per_device_bytes, not in the shares). */
  guint64 mmproj_bytes;        /* vision projector: weights + encoder buffer */
  guint64 mmproj_weights_bytes;
  guint64 mmproj_compute_bytes;
  guint64 image_tokens;        /* context cells the images take */
  guint64 draft_bytes;         /* draft model, all GPUs */
  guint64 per_device_mmproj_bytes;
  guint64 per_device_draft_bytes;
  guint64 lora_bytes;          /* LoRA adapters, all GPUs and the CPU */
  guint64 per_device_lora_bytes;
  gboolean kv_on_host;         /* the KV cache in system RAM (--no-kv-offload) */
  guint64 host_cache_bytes;    /* llama-server's prompt cache in RAM, at most */
  /* Speculative decoding (hr-extras.h; 0 without a draft). */
  double speculative_speedup;  /* < 1: the draft makes decoding slower */
  double draft_acceptance;     /* α used */
  guint32 draft_max;           /* γ used */
  double draft_cost_ratio;     /* c: a draft token's time / a target token's */

  HrFix fix;                   /* with HR_ESTIMATE_ERROR_UNSUPPORTED */
  guint32 fix_gpus;            /* with HR_FIX_GPU_COUNT: the nearest valid count */
} HrEstimate;

#define HR_ESTIMATE_ERROR (hr_estimate_error_quark ())

typedef enum
{
  HR_ESTIMATE_ERROR_INVALID,       /* an input is out of range */
  HR_ESTIMATE_ERROR_UNSUPPORTED,   /* the engine cannot run this combination */
} HrEstimateError;

GQuark       hr_estimate_error_quark (void);

G_END_DECLS
