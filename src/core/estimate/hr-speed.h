/* hr-speed.h — how fast llama.cpp answers: decode at depth, prompt, TTFT
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A model fitted on llama-bench measurements (docs/reference/measured-speed.md,
 * every tg and pp row; the fit and its cross-validation are in
 * tests/calibration/speed/README.md).  Decode streams each GPU's weights
 * at a share of its bandwidth, pays a fixed cost per layer, and reads the
 * cache once per KV head; prompts are matrix products at a share of the
 * GPU's matrix peak (limited by its board power), the weights read once
 * per micro-batch, and attention over the whole window.  GPUs of a layer
 * split run one after the other for a token and pipeline micro-batches
 * for a prompt; layers held by the CPU read RAM, and big prompt batches
 * copy them to the first GPU over PCIe.  MoE prompts read the experts a
 * micro-batch touches and run the expert products at their own share;
 * experts in RAM are computed by the CPU for a token and copied over
 * PCIe for a prompt.  Pure functions; seconds, bytes.
 */

#pragma once

#include "hr-estimate-types.h"

G_BEGIN_DECLS

/* The fitted constants (and the power prior, chosen by cross-validation):
 * generated from tests/calibration/speed/constants.json by fit_speed.py
 * there, fitted by least squares on log error on the calibration rows
 * only; test-speed-constants checks that this file is constants.json's.
 * One set per backend: CUDA's and Metal's from the 2024 builds (no flash
 * attention, quantized prompt matrices expanded to F16 for cuBLAS);
 * ROCm's and Vulkan's from 2025 builds (MMQ, flash attention off and on;
 * they stream weights at CUDA's share); SYCL has no rows and runs on
 * CUDA's (hr-speed.c, constant_set). */
#include "hr-speed-fitted.inc"

/* Fixed, not fitted. */
#define HR_SPEED_BETA_CUDA         24.0      /* B per attention score without flash attention */
#define HR_SPEED_BETA_METAL        16.0      /*   (counted from the kernels) */
#define HR_SPEED_HOP_SECONDS       0.3e-3    /* a token crossing to the next GPU */
#define HR_SPEED_HOP_LINK_GBPS     25.0      /* activations between GPUs, PCIe 4.0 x16 */
/* mmap'd weights cross PCIe through a staging buffer at about half the
 * pinned rate (offload-logs case 3: RTX 2060, 14 of 32 layers). */
#define HR_SPEED_MMAP_COPY_SHARE   0.5
#define HR_SPEED_N_BATCH           2048      /* llama_decode call (-b) */
#define HR_SPEED_OP_OFFLOAD_MIN_BATCH 32     /* CPU-held products go to the GPU */
 /* A layer whose routed experts the CPU holds cuts llama.cpp's graph
 * twice more (to the CPU and back: ggml-backend.c,
 * ggml_backend_sched_split_graph); each cut costs a token what a GPU
 * boundary does (HR_SPEED_HOP_SECONDS).  Derived, not fitted: no
 * llama-bench rows with experts in RAM in the calibration. */
#define HR_SPEED_CPU_EXPERT_SPLITS 2
/* --no-kv-offload: the cache stays in RAM and each attention layer's
 * products with it run on the CPU, which cuts the graph twice a layer
 * (to the CPU and back), as for experts in RAM.  Derived, not fitted: no
 * measured rows with the cache in RAM. */
#define HR_SPEED_KV_HOST_SPLITS    2
#define HR_SPEED_MAX_INFLIGHT      4         /* micro-batches a layer split pipelines */
#define HR_SPEED_PREFILL_SAMPLES   64        /* engine calls timed one by one; a longer
                                              * prompt is integrated from this many */
/* The CPU's matrix rate for layers it runs itself (no GPU, or prompt
 * batches under 32 tokens): an assumption, not fitted (no CPU rows in the
 * calibration): 1 TFLOPS, an 8–16-core AVX2/AVX-512 desktop in llama.cpp's
 * quantized CPU kernels (7B Q4_0 prompts at ~70 tokens/s). */
#define HR_SPEED_CPU_FLOPS         1.0e12

/* vLLM and SGLang: CUDA graphs, FlashAttention, quantized GEMMs that read
 * the packed weights (Marlin, FP8): their own decode efficiency and
 * per-layer cost, fitted on two single-stream measurements (vLLM 0.21,
 * Llama 3.1 8B BF16, H100 SXM: 6.48 ms a token; vLLM 0.23, A100 40GB:
 * about 75 tokens/s; 15.0 GB streamed a token): two equations, two
 * unknowns.  Their matrix share is llama.cpp's (no prompt timing found). */
#define HR_SPEED_ETA_W_SERVING     0.754
#define HR_SPEED_C_LAYER_SERVING   17.0e-6

typedef enum
{
  HR_QUANT_FLOAT,       /* F32, F16, BF16 */
  HR_QUANT_LEGACY,      /* Q8_0, Q4_0, Q5_x: one scale per 32 weights */
  HR_QUANT_KQUANT,      /* K-quants, IQ, TQ: packed super-blocks */
} HrQuantFamily;

/* One GPU of a layer split (or the only one). */
typedef struct
{
  const HrDevice *device;
  guint32 layers;               /* repeating layers it runs */
  double stream_bytes;          /* weights it streams per decoded token */
  double layer_bytes;           /* its layers' weights (prompt read) */
  double layer_params;          /* its layers' matrix weights (active) */
} HrSpeedGpu;

typedef struct _HrSpeedInput
{
  const HrModelArch *arch;
  HrQuantFamily family;
  HrBackend backend;            /* what llama.cpp runs the GPUs on: the
                                 * device's default unless the user chose */
  double depth;                 /* tokens already cached before the prompt
                                 * (llama-bench -d): a prompt starts there */
  guint32 n_gpus;
  HrSpeedGpu gpus[HR_MAX_DEVICES];
  gboolean tensor_parallel;     /* the GPUs share every layer (vLLM, SGLang) */
  double allreduce_seconds;     /* with tensor_parallel: one all-reduce's latency */
  double allreduce_gbps;        /*   and its bus bandwidth for prompt chunks */
  gboolean serving;             /* vLLM / SGLang kernels (HR_SPEED_*_SERVING) */
  double expert_share;          /* routed experts' share of each GPU's
                                 * layer_bytes (MoE; 0: dense) */
  guint32 experts, experts_active; /* MoE: routed experts, and per token */
  guint32 pp_stages;            /* equal pipeline stages of these GPUs, one
                                 * after the other (0, 1: none) */
  double pp_hop_seconds;        /*   a hand-off between two stages */
  /* layers the CPU holds (partial offload) */
  guint32 cpu_layers;
  double cpu_bytes;             /* streamed per decoded token */
  double cpu_layer_bytes;       /* copied to the first GPU per prompt micro-batch */
  double cpu_layer_params;      /*   their matrix weights (active) */
  double cpu_expert_bytes;      /* routed experts of GPU layers kept in RAM
                                 * (--n-cpu-moe, -ot exps=CPU), all of them */
  guint32 cpu_expert_layers;    /*   the layers whose experts those are */
  double ram_gbps;
  double cpu_flops;             /* the CPU's matrix rate, FLOP/s (0: the
                                 * HR_SPEED_CPU_FLOPS assumption) */
  double host_link_gbps;        /* the first GPU's PCIe, pinned */
  guint32 n_ubatch;
  guint32 n_batch;              /* tokens per engine step; 0 = HR_SPEED_N_BATCH */
  /* Flash attention on (what the engine resolves -fa auto to): prompts
   * write no score matrix; decode reads the cache in its own type, at the
   * weights' share on CUDA and Metal (derived: README §7), at the fitted
   * eta_fa plus the kernel's FLOPs on ROCm and Vulkan.  Off: the cache in
   * F16 at the backend's eta_att, and the score matrix written. */
  gboolean flash_attn;
  double kv_bytes_per_element;  /* with flash_attn: the cache's type */
  gboolean kv_on_host;          /* --no-kv-offload: every layer's cache in
                                 * RAM, its attention run by the CPU */
} HrSpeedInput;

/* One decoded token, by part (the Model view writes them out). */
typedef struct
{
  double stream_seconds;        /* reading the weights */
  double fixed_seconds;         /* per-layer kernels, GPU hand-offs, all-reduces */
  double cache_seconds;         /* reading the KV cache at the depth */
  double cpu_seconds;           /* layers the CPU holds */
  double total_seconds;
} HrSpeedToken;

void          hr_speed_token          (const HrSpeedInput    *in,
                                       double                 depth,
                                       HrSpeedToken          *out);
HrQuantFamily hr_speed_quant_family   (double                 bpw,
                                       HrCheckpoint           checkpoint,
                                       const char            *label);
double        hr_speed_token_seconds  (const HrSpeedInput    *in,
                                       double                 depth);
double        hr_speed_prefill_seconds (const HrSpeedInput   *in,
                                        guint64               prompt_tokens);
double        hr_speed_matrix_flops   (const HrDevice        *device);
/* One engine step decoding a token for each of @batch sequences at
 * @depth: the weights (for MoE, the experts any of them routes to) read
 * once, every sequence's cache, or the batch's products if slower. */
double        hr_speed_step_seconds   (const HrSpeedInput    *in,
                                       double                 batch,
                                       double                 depth);

/* The measured error of a speed's group (backend × dense/MoE × placement
 * × depth bucket): factors on the predicted rate (measured / predicted
 * under leave-one-device-out cross-validation, 10th and 90th percentile;
 * tests/calibration/speed/README.md), and the rows behind them.  A group
 * with too few measured rows has factors 0: no range. */
typedef struct
{
  const char *name;             /* the decode's group (static), or NULL */
  guint32 rows;                 /* its measured rows, decode and prompt */
  double decode_low, decode_high;
  double prefill_low, prefill_high;
} HrSpeedRange;

/* Decode at @decode_depth cached tokens, a prompt whose tokens sit on
 * average at @prefill_depth.  FALSE (and zeros) when no group matches. */
gboolean      hr_speed_range          (const HrSpeedInput    *in,
                                       double                 decode_depth,
                                       double                 prefill_depth,
                                       HrSpeedRange          *out);

G_END_DECLS
