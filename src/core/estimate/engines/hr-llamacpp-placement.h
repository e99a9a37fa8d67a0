/* hr-llamacpp-placement.h — which layers llama.cpp puts on which device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * llama.cpp numbers the repeating layers 0 … L−1 and calls the output
 * norm and head layer L; the input embeddings always stay on the CPU.
 * `-ngl N` offloads the output layer and the last N−1 repeating layers
 * (since b7467; before, the last N repeating layers and the output only
 * when N > L), spread over the GPUs in proportion to their free memory or
 * --tensor-split: index il goes to the first device whose cumulative
 * share exceeds (il − first) / N (src/llama-model.cpp, load_tensors).
 * Each layer's KV cache lives with its layer; every GPU that holds a
 * layer has a compute buffer and the backend's reserve.  Pure functions.
 */

#pragma once

#include "hr-estimate-types.h"
#include "hr-llamacpp-memory.h"

G_BEGIN_DECLS

typedef struct
{
  const HrModelArch *arch;
  const HrLayerWeights *weights;      /* per layer (never NULL here) */
  guint64 kv_global_layer_bytes;      /* one layer's cache, every stream */
  guint64 kv_local_layer_bytes;       /*   a sliding-window layer's */
  double kv_layer_share;              /* layers with a cache ÷ layers (1
                                       * but for hybrids) */
  double state_layer_bytes;           /* recurrent state per layer, spread
                                       * over every layer (0: none) */
  double expert_active_share;         /* experts per token ÷ experts */
  guint64 compute_bytes;              /* one GPU's compute buffer */
  guint64 reserve_bytes;              /* one GPU's backend reserve */
  guint64 host_buffers_bytes;         /* inputs and logits, always in RAM */
  guint64 host_inputs_bytes;          /*   of which the graph inputs */
  guint64 mask_bytes;                 /* a GPU's copy of the masks */
  gboolean op_offload;                /* micro-batches ≥ 32 tokens: GPU 0
                                       * runs the CPU layers' products */
  guint32 n_devices;                  /* GPUs in use (1 … HR_MAX_DEVICES) */
  guint64 usable_bytes;               /* what each GPU can give */
  guint64 device_usable[HR_MAX_DEVICES]; /* GPUs of different kinds: what
                                       * GPU d can give (0: usable_bytes) */
  guint64 mmproj_bytes;               /* a vision projector, on GPU 0 */
  guint64 draft_bytes[HR_MAX_DEVICES]; /* a draft model's part on each GPU */
  double lora_layer_bytes;            /* LoRA adapters, per repeating layer:
                                       * each tensor goes with the layer it
                                       * adapts (src/llama-adapter.cpp) */
  gboolean kv_on_host;                /* --no-kv-offload: every layer's KV
                                       * cache and state in RAM */
  HrSplitMode split_mode;             /* LAYER or ROW (NONE: n_devices 1) */
  double split[HR_MAX_DEVICES];       /* shares, summing to 1 */
  guint32 n_cpu_moe;
} HrLlamaCppPlacementInput;

typedef struct
{
  guint32 gpu_layers;                 /* N, as llama.cpp counts it */
  guint32 n_devices;
  HrDeviceLoad devices[HR_MAX_DEVICES];
  guint64 host_weights_bytes;         /* weights in RAM, embeddings included */
  guint64 host_kv_bytes;
  guint64 host_lora_bytes;            /* adapters of the CPU's layers */
  guint64 host_bytes;                 /* all of it: weights, KV, buffers */
  guint64 gpu_weights_read_bytes[HR_MAX_DEVICES]; /* per decoded token */
  guint64 host_weights_read_bytes;
  guint32 host_layers;                /* repeating layers the CPU runs */
  guint64 host_layer_bytes;           /*   their weights */
  guint64 host_expert_bytes;          /* routed experts of GPU layers kept
                                       * in RAM (--n-cpu-moe) */
  gboolean fits;                      /* every GPU within usable_bytes */
  guint32 pipeline_copies;            /* input copies (4 when pipelined) */
} HrLlamaCppPlacement;

/* The loads for `-ngl @gpu_layers` with the input's split. */
void     hr_llamacpp_place          (const HrLlamaCppPlacementInput *in,
                                     guint32                         gpu_layers,
                                     HrLlamaCppPlacement            *out);

/* What GPU @d can give (device_usable, or usable_bytes). */
guint64  hr_llamacpp_usable         (const HrLlamaCppPlacementInput *in,
                                     guint32                         d);

/* The most layers that fit every GPU within usable_bytes − @margin, with
 * the input's proportional split (llama-server given that -ngl). */
guint32  hr_llamacpp_place_most     (const HrLlamaCppPlacementInput *in,
                                     guint64                         margin,
                                     HrLlamaCppPlacement            *out);

/* llama.cpp's --fit: the last GPU first, each filled with as many layers
 * (counted from the output backwards) as leave @margin free. */
void     hr_llamacpp_place_fit      (const HrLlamaCppPlacementInput *in,
                                     guint64                         margin,
                                     HrLlamaCppPlacement            *out);

G_END_DECLS
