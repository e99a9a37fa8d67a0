/* hr-speed.c — how fast llama.cpp answers: decode at depth, prompt, TTFT
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The formulas of tests/calibration/speed/README.md, where each is derived
 * and checked; this file and the reference implementation there give the
 * same numbers (test-speed checks a few).
 */

#define G_LOG_DOMAIN "hr-speed"

#include "config.h"

#include <math.h>

#include "hr-estimate-constants.h"
#include "hr-speed.h"

static gboolean
is_metal (const HrDevice *device)
{
  return hr_device_backend (device) == HR_BACKEND_METAL;
}

/* A backend's constants (tests/calibration/speed/README.md §5; fitted in
 * hr-speed-fitted.inc).  eta_fa, eta_fa_mm, eta_fa_pp are 0 where the
 * calibration has no flash-attention rows to fit them: the derived form
 * of README §7 then holds (the cache at eta_w, the FLOPs at eta_mm). */
typedef struct
{
  gboolean metal;
  gboolean cuda;                /* the 2024 cuBLAS prompt path (t_deq) */
  double eta_w, c_layer, eta_att, eta_mm, beta;
  double eta_fa, eta_fa_mm, eta_fa_pp;
} SpeedSet;

static const SpeedSet set_cuda = {
  .cuda = TRUE, .eta_w = HR_SPEED_ETA_W_CUDA, .c_layer = HR_SPEED_C_LAYER_CUDA,
  .eta_att = HR_SPEED_ETA_ATT_CUDA, .eta_mm = HR_SPEED_ETA_MM_CUDA, .beta = HR_SPEED_BETA_CUDA,
};
static const SpeedSet set_metal = {
  .metal = TRUE, .eta_w = HR_SPEED_ETA_W_METAL, .c_layer = HR_SPEED_C_LAYER_METAL,
  .eta_att = HR_SPEED_ETA_ATT_METAL, .eta_mm = HR_SPEED_ETA_MM_METAL, .beta = HR_SPEED_BETA_METAL,
};
/* ROCm and Vulkan: their rows cannot tell a bandwidth share from a
 * per-layer cost, so they stream weights at CUDA's share (a prior). */
static const SpeedSet set_rocm = {
  .eta_w = HR_SPEED_ETA_W_CUDA, .c_layer = HR_SPEED_C_LAYER_ROCM,
  .eta_att = HR_SPEED_ETA_ATT_ROCM, .eta_mm = HR_SPEED_ETA_MM_ROCM, .beta = HR_SPEED_BETA_CUDA,
  .eta_fa = HR_SPEED_ETA_FA_ROCM, .eta_fa_mm = HR_SPEED_ETA_FA_MM_ROCM,
  .eta_fa_pp = HR_SPEED_ETA_FA_PP_ROCM,
};
static const SpeedSet set_vulkan = {
  .eta_w = HR_SPEED_ETA_W_CUDA, .c_layer = HR_SPEED_C_LAYER_VULKAN,
  .eta_att = HR_SPEED_ETA_ATT_VULKAN, .eta_mm = HR_SPEED_ETA_MM_VULKAN, .beta = HR_SPEED_BETA_CUDA,
  .eta_fa = HR_SPEED_ETA_FA_VULKAN, .eta_fa_mm = HR_SPEED_ETA_FA_MM_VULKAN,
  .eta_fa_pp = HR_SPEED_ETA_FA_PP_VULKAN,
};

/* speedmodel.py CONSTANT_SET: Apple GPUs run Metal's set; ROCm and
 * Vulkan their own; SYCL (no calibration row) keeps its parent's, CUDA's;
 * the serving engines' kernels take CUDA's (their own eta_w, c_layer are
 * HR_SPEED_*_SERVING). */
static const SpeedSet *
constant_set (const HrSpeedInput *in,
              const HrDevice     *device)
{
  if (is_metal (device))
    return &set_metal;
  if (in->serving)
    return &set_cuda;
  switch (in->backend)
    {
    case HR_BACKEND_ROCM:
      return &set_rocm;
    case HR_BACKEND_VULKAN:
      return &set_vulkan;
    default:
      return &set_cuda;
    }
}

static double
bandwidth (const HrDevice *device)
{
  return device->bandwidth_gbps * HR_GB;
}

/* What the batch-1 kernels can draw: HBM parts are held back by the
 * latency × bytes-in-flight of llama.cpp's mat-vec kernels. */
static double
decode_bandwidth (const HrSpeedInput *in,
                  const HrDevice     *device)
{
  double bw = bandwidth (device);

  if (device->hbm && !is_metal (device) && !in->serving)
    bw = 1.0 / (1.0 / bw + 1.0 / HR_SPEED_HBM_CAP);
  return bw;
}

/* The usable matrix peak: the datasheet's, within what the board's power
 * sustains.  Without a figure, a peak of 100 FLOP per byte of bandwidth
 * (about a mid-range GPU) rather than none. */
double
hr_speed_matrix_flops (const HrDevice *device)
{
  double peak = device->matrix_tflops > 0 ? device->matrix_tflops * 1e12
                                          : 100.0 * bandwidth (device);

  if (device->tdp_watts > 0 && !is_metal (device))
    peak = 1.0 / (1.0 / peak + 1.0 / (HR_SPEED_TFLOPS_PER_WATT * 1e12 * device->tdp_watts));
  return peak;
}

HrQuantFamily
hr_speed_quant_family (double        bpw,
                       HrCheckpoint  checkpoint,
                       const char   *label)
{
  static const char * const legacy[] = { "q8_0", "q4_0", "q4_1", "q5_0", "q5_1" };

  if (bpw >= 16)
    return HR_QUANT_FLOAT;
  if (checkpoint != HR_CHECKPOINT_GGUF)
    return HR_QUANT_LEGACY;
  for (guint i = 0; label != NULL && i < G_N_ELEMENTS (legacy); i++)
    if (g_ascii_strcasecmp (label, legacy[i]) == 0)
      return HR_QUANT_LEGACY;
  return HR_QUANT_KQUANT;
}

/* A layer's active routed-expert weights (0: dense), from the model's
 * total and active parameters: the routed experts are (total − active) /
 * (1 − k/E) of the total, k/E of them active. */
static double
routed_layer_params (const HrSpeedInput *in)
{
  const HrModelArch *a = in->arch;
  double rho;

  if (in->experts == 0 || in->experts_active >= in->experts || a->n_layers == 0 ||
      !(a->params_total > a->params_active))
    return 0;
  rho = (double) in->experts_active / in->experts;
  return (a->params_total - a->params_active) / (1 - rho) * rho / a->n_layers;
}

/* The CPU's matrix rate (FLOP/s) for what it computes itself. */
static double
cpu_flops (const HrSpeedInput *in)
{
  return in->cpu_flops > 0 ? in->cpu_flops : HR_SPEED_CPU_FLOPS;
}

/* ---------------------------------------------------------------- decode */

/* Metal unpacks quantized weights on its ALUs: with little compute per
 * byte of bandwidth (M1 Max) that, not memory, bounds a token. */
static double
metal_unpack_seconds (const HrSpeedInput *in,
                      const HrSpeedGpu   *g,
                      double              bpw)
{
  double ops = in->family == HR_QUANT_FLOAT ? 2.0
               : in->family == HR_QUANT_LEGACY ? HR_SPEED_O_KQ_METAL / 2
               : HR_SPEED_O_KQ_METAL;
  double weights = g->stream_bytes * 8 / MAX (bpw, 1.0);

  return weights * ops / hr_speed_matrix_flops (g->device);
}

/* Layer kinds (hybrids): of @layers layers, only the attention ones read
 * a cache that grows with the depth; a recurrent layer reads and writes
 * its fixed state once per token instead, counted here as the cached
 * tokens of the same bytes (F32 state over an F16 cell, llama.cpp's
 * types), whatever the depth.  A prompt's scan over a recurrent layer is
 * a chunked product linear in its length, already in the weights' FLOPs;
 * only the attention layers add the quadratic term. */
static double
kind_tokens (const HrModelArch *a,
             double             layers,
             double            *attention_layers)
{
  double kv_share, state_share, cell;
  HrStateCell state;

  *attention_layers = layers;
  if (a->n_state_layers == 0 || a->n_layers == 0)
    return 0;
  kv_share = (double) hr_model_arch_kv_layers (a) / a->n_layers;
  state_share = (double) a->n_state_layers / a->n_layers;
  *attention_layers = layers * kv_share;
  state = hr_model_arch_state_cell (a);
  cell = hr_kv_cell_bytes (hr_model_arch_kv_cell (a), 2.0, 2.0);
  return cell > 0 ? layers * state_share * 4.0 * (state.conv_elements + state.ssm_elements) / cell
                  : 0;
}

/* Cached tokens @layers layers read at @depth: a sliding-window layer
 * no more than its window, a recurrent layer its state. */
static double
cached_tokens (const HrModelArch *a,
               double             depth,
               double             layers)
{
  double local = a->n_layers > 0 ? (double) hr_model_arch_local_layers (a) / a->n_layers : 0;
  double state_tokens = kind_tokens (a, layers, &layers);

  if (a->n_state_layers > 0 && hr_model_arch_kv_layers (a) > 0)
    local = (double) hr_model_arch_local_layers (a) / hr_model_arch_kv_layers (a);
  if (a->sliding_window == 0)
    return depth * layers + state_tokens;
  return layers * ((1 - local) * depth + local * MIN (depth, (double) a->sliding_window)) +
         state_tokens;
}

/* One GPU's share of a token with @depth tokens cached: its weights, its
 * layers' fixed cost, and the cache, read once per KV head (README §2):
 * without flash attention at the backend's eta_att; with it at eta_fa,
 * plus the kernel's FLOPs (4 per query-head dimension) at eta_fa_mm of
 * the matrix peak where the backend has that constant. */
static void
gpu_token (const HrSpeedInput *in,
           const HrSpeedGpu   *g,
           double              depth,
           double             *stream,
           double             *cache,
           double             *fixed)
{
  const HrModelArch *a = in->arch;
  const SpeedSet *set = constant_set (in, g->device);
  double bw = decode_bandwidth (in, g->device);
  double eta_w = in->serving ? HR_SPEED_ETA_W_SERVING : set->eta_w;
  double bpw = g->layer_params > 0 ? g->layer_bytes * 8 / g->layer_params : 16;
  double layers = in->tensor_parallel ? (double) g->layers / in->n_gpus : g->layers;
  double cell = a->n_kv_heads * (a->head_dim_k + a->head_dim_v);

  *stream = g->stream_bytes / (eta_w * bw);
  if (set->metal)
    *stream = MAX (*stream, metal_unpack_seconds (in, g, bpw));
  if (in->flash_attn)
    *cache = cached_tokens (a, depth, layers) *
             (cell * in->kv_bytes_per_element / ((set->eta_fa > 0 ? set->eta_fa : eta_w) * bw) +
              (set->eta_fa_mm > 0 ? 4.0 * a->n_heads * a->head_dim_k /
                                    (set->eta_fa_mm * hr_speed_matrix_flops (g->device))
                                  : 0));
  else
    *cache = cached_tokens (a, depth, layers) * cell * 2.0 / (set->eta_att * bw);
  *fixed = g->layers * (in->serving ? HR_SPEED_C_LAYER_SERVING : set->c_layer);
  if (in->kv_on_host)
    *cache = 0;
}

/* Repeating layers the GPUs run (each once, whatever the split). */
static double
gpu_layers (const HrSpeedInput *in)
{
  double layers = 0;

  for (guint32 i = 0; i < in->n_gpus; i++)
    layers = in->tensor_parallel ? MAX (layers, in->gpus[i].layers)
                                 : layers + in->gpus[i].layers;
  return layers;
}

/* Of @layers layers, those with attention (a hybrid's recurrent layers
 * have none; their state goes to RAM too, read as its cell tokens). */
static double
attention_layers (const HrModelArch *a,
                  double             layers)
{
  if (a->n_state_layers == 0 || a->n_layers == 0)
    return layers;
  return layers * hr_model_arch_kv_layers (a) / a->n_layers;
}

void
hr_speed_token (const HrSpeedInput *in,
                double              depth,
                HrSpeedToken       *out)
{
  const HrModelArch *a = in->arch;
  double slowest = 0, slowest_cache = 0, fixed_max = 0;
  guint32 busy = 0;

  g_return_if_fail (in != NULL && in->arch != NULL && out != NULL);

  *out = (HrSpeedToken) { 0 };
  for (guint32 i = 0; i < in->n_gpus; i++)
    {
      double stream, cache, fixed;

      if (in->gpus[i].layers == 0 && in->gpus[i].stream_bytes == 0)
        continue;
      gpu_token (in, &in->gpus[i], depth, &stream, &cache, &fixed);
      busy++;
      if (in->tensor_parallel)
        {
          /* every GPU runs every layer on its shard, at once */
          if (stream + cache > slowest + slowest_cache)
            slowest = stream, slowest_cache = cache;
          fixed_max = MAX (fixed_max, fixed);
        }
      else
        {
          out->stream_seconds += stream;
          out->cache_seconds += cache;
          out->fixed_seconds += fixed;
        }
    }
  if (in->tensor_parallel)
    {
      out->stream_seconds = slowest;
      out->cache_seconds = slowest_cache;
      /* two all-reduces a layer: after attention and after the MLP */
      out->fixed_seconds = fixed_max +
                           (busy > 1 ? 2.0 * in->gpus[0].layers * in->allreduce_seconds : 0);
    }
  else if (busy > 1)
    out->fixed_seconds += (busy - 1) * HR_SPEED_HOP_SECONDS;

  /* Layers (or experts) the CPU holds read RAM, their cache too. */
  if (in->cpu_layers > 0 || in->cpu_bytes > 0)
    {
      double kv_token = a->n_kv_heads * (a->head_dim_k + a->head_dim_v) *
                        (in->flash_attn ? in->kv_bytes_per_element : 2.0);

      out->cpu_seconds = (in->cpu_bytes + cached_tokens (a, depth, in->cpu_layers) * kv_token) /
                         (HR_RAM_DECODE_EFFICIENCY * in->ram_gbps * HR_GB);
      /* Experts in RAM: the CPU multiplies the active ones, reading them
       * or computing, whichever is slower; each such layer hands its
       * activations to the CPU and back. */
      if (in->cpu_expert_layers > 0 && busy > 0)
        {
          out->cpu_seconds = MAX (out->cpu_seconds,
                                  2.0 * routed_layer_params (in) * in->cpu_expert_layers /
                                  cpu_flops (in));
          out->fixed_seconds += HR_SPEED_CPU_EXPERT_SPLITS * in->cpu_expert_layers *
                                HR_SPEED_HOP_SECONDS;
        }
      else if (busy > 0)
        out->fixed_seconds += HR_SPEED_HOP_SECONDS;
    }
  /* --no-kv-offload: the CPU reads the GPU layers' cache from RAM too,
   * and every attention layer hands its activations to it and back. */
  if (in->kv_on_host && busy > 0)
    {
      double layers = gpu_layers (in);
      double kv_token = a->n_kv_heads * (a->head_dim_k + a->head_dim_v) *
                        (in->flash_attn ? in->kv_bytes_per_element : 2.0);

      out->cpu_seconds += cached_tokens (a, depth, layers) * kv_token /
                          (HR_RAM_DECODE_EFFICIENCY * in->ram_gbps * HR_GB);
      out->fixed_seconds += HR_SPEED_KV_HOST_SPLITS * attention_layers (a, layers) *
                            HR_SPEED_HOP_SECONDS;
    }
  /* Pipeline stages: a token goes through each in turn. */
  if (in->pp_stages > 1)
    {
      out->stream_seconds *= in->pp_stages;
      out->cache_seconds *= in->pp_stages;
      out->fixed_seconds = out->fixed_seconds * in->pp_stages +
                           (in->pp_stages - 1) * in->pp_hop_seconds;
    }
  out->total_seconds = out->stream_seconds + out->fixed_seconds + out->cache_seconds +
                       out->cpu_seconds;
}

double
hr_speed_step_seconds (const HrSpeedInput *in,
                       double              batch,
                       double              depth)
{
  const HrModelArch *a = in->arch;
  HrSpeedToken one;
  double slowest = 0, stages = MAX (in->pp_stages, 1);
  guint32 busy = 0;

  g_return_val_if_fail (in != NULL && in->arch != NULL, 0);

  batch = MAX (batch, 1);
  hr_speed_token (in, depth, &one);
  for (guint32 i = 0; i < in->n_gpus; i++)
    {
      const HrSpeedGpu *g = &in->gpus[i];
      double stream, cache, fixed, flops, layers, compute, read;

      if (g->layers == 0 && g->stream_bytes == 0)
        continue;
      busy++;
      gpu_token (in, g, depth, &stream, &cache, &fixed);
      /* MoE: the experts at least one sequence routes to */
      if (in->expert_share > 0 && in->experts > 0)
        {
          double routed = (double) in->experts_active / in->experts;
          double touched = 1 - pow (1 - routed, batch);
          double bytes = g->layer_bytes * ((1 - in->expert_share) + in->expert_share * touched);

          stream *= MAX (bytes, g->stream_bytes) / MAX (g->stream_bytes, 1);
        }
      read = stream + batch * cache;
      flops = hr_speed_matrix_flops (g->device);
      layers = in->tensor_parallel ? (double) g->layers / in->n_gpus : g->layers;
      compute = (2.0 * g->layer_params * batch +
                 batch * a->n_heads * cached_tokens (a, depth, layers) * 4.0 * a->head_dim_k) /
                (HR_SPEED_ETA_MM_CUDA * flops);
      if (in->tensor_parallel)
        slowest = MAX (slowest, MAX (read, compute));
      else
        slowest += MAX (read, compute);
    }
  /* the fixed costs of one token; all-reduces carry the whole batch */
  return stages * slowest + one.fixed_seconds + one.cpu_seconds * batch +
         (in->tensor_parallel && busy > 1 && in->allreduce_gbps > 0
          ? stages * 2.0 * in->gpus[0].layers * batch * a->hidden * 2.0 * 2.0 * (busy - 1) / busy /
            (in->allreduce_gbps * HR_GB)
          : 0);
}

double
hr_speed_token_seconds (const HrSpeedInput *in,
                        double              depth)
{
  HrSpeedToken token;

  hr_speed_token (in, depth, &token);
  return token.total_seconds;
}

/* ---------------------------------------------------------------- prompt */

/* One micro-batch of @n tokens at positions @p0 … on a GPU running
 * @layers layers of @params matrix weights and @bytes of weights. */
static double
ubatch_seconds (const HrSpeedInput *in,
                const HrDevice     *device,
                double              layers,
                double              params,
                double              bytes,
                double              p0,
                double              n)
{
  const HrModelArch *a = in->arch;
  const SpeedSet *set = constant_set (in, device);
  gboolean metal = set->metal;
  double bw = bandwidth (device);
  double flops = hr_speed_matrix_flops (device);
  double eta_mm = set->eta_mm;
  double eta_q = eta_mm, t_flop, read, t_mm, t_deq = 0, units, t_att, t_exp = 0;

  if (metal && in->family == HR_QUANT_KQUANT)
    eta_q *= HR_SPEED_PHI_KQ_METAL;
  else if (metal && in->family == HR_QUANT_LEGACY)
    eta_q *= 0.5 * (1 + HR_SPEED_PHI_KQ_METAL);

  /* MoE (llama.cpp; not vLLM's kernels, fitted elsewhere): each MoE layer
   * reads the experts any of the n tokens routes to, E (1 − (1 − k/E)^n)
   * of E, once, and runs the grouped expert products (mul_mat_id: MMQ
   * per expert, no F16 expansion) at their own share of the backend's
   * GEMM share, η_moe · η_mm · m / (m + m_half) for m = n k / (E ·
   * touched) tokens per touched expert. */
  if (in->expert_share > 0 && in->experts > 0 && !in->serving)
    {
      double routed = MIN (params, routed_layer_params (in) * layers), sb = in->expert_share;
      double rho = (double) in->experts_active / in->experts;
      double touched = 1 - pow (1 - rho, n);
      /* tokens each touched expert multiplies: its GEMM tiles are that full */
      double m = n * rho / touched;

      t_exp = MAX (2.0 * routed * n * (1 + HR_SPEED_MOE_M_HALF / m) /
                   (HR_SPEED_ETA_MOE * eta_mm * flops),
                   touched * sb * bytes / (set->eta_w * bw));
      params -= routed;
      bytes *= 1 - sb;
    }

  /* the products: compute, or reading the weights once */
  t_flop = 2.0 * params * n / (eta_q * flops);
  read = set->cuda || in->family == HR_QUANT_FLOAT ? 2.0 * params : bytes;
  t_mm = MAX (t_flop, read / (set->eta_w * bw));
  /* CUDA expands quantized weights to F16 before cuBLAS (llama.cpp of the
   * measured builds; vLLM's kernels read them packed; ROCm's and Vulkan's
   * constants come from current builds, whose MMQ reads them packed) */
  if (set->cuda && in->family != HR_QUANT_FLOAT && !in->serving)
    t_deq = (bytes + 2.0 * params) / bw;
  /* attention over the window: the score block of every head; flash
   * attention's kernels at their own share where the backend has one */
  units = in->kv_on_host ? 0 : a->n_heads * n * cached_tokens (a, p0 + n, layers);
  t_att = units * 4.0 * a->head_dim_k /
          ((in->flash_attn && set->eta_fa_pp > 0 ? set->eta_fa_pp : eta_mm) * flops) +
          (in->flash_attn ? 0 : units * set->beta / bw);
  return t_mm + t_deq + t_att + t_exp;
}

/* Attention scores of @n tokens at @p0 … over @layers layers. */
static double
score_units (const HrSpeedInput *in,
               double              p0,
               double              n,
               double              layers)
{
  return in->arch->n_heads * n * cached_tokens (in->arch, p0 + n, layers);
}

/* The CPU running its layers for a micro-batch: its matrix rate, or
 * reading the weights from RAM, whichever is slower, and the attention. */
static double
cpu_ubatch_seconds (const HrSpeedInput *in,
                    double              p0,
                    double              n)
{
  const HrModelArch *a = in->arch;
  double read = in->cpu_layer_bytes / (HR_RAM_DECODE_EFFICIENCY * in->ram_gbps * HR_GB);
  double mm = 2.0 * in->cpu_layer_params * n / cpu_flops (in);
  double att = score_units (in, p0, n, in->cpu_layers) * 4.0 * a->head_dim_k / cpu_flops (in);

  return MAX (read, mm) + att;
}

static double
gpu_ubatch (const HrSpeedInput *in,
            const HrSpeedGpu   *g,
            double              p0,
            double              n)
{
  double layers = in->tensor_parallel ? (double) g->layers / in->n_gpus : g->layers;

  return ubatch_seconds (in, g->device, layers, g->layer_params, g->layer_bytes, p0, n);
}

/* One llama_decode call of micro-batches starting at @p0. */
static double
call_seconds (const HrSpeedInput *in,
              double              p0,
              double              chunk)
{
  double ub = MAX (in->n_ubatch, 1);
  guint32 n_ub = (guint32) ceil (chunk / ub);
  double serial = 0, fin[HR_MAX_DEVICES] = { 0 };
  guint32 stages = 0;
  const HrSpeedGpu *used[HR_MAX_DEVICES];

  for (guint32 i = 0; i < in->n_gpus; i++)
    if (in->gpus[i].layers > 0)
      used[stages++] = &in->gpus[i];

  for (guint32 u = 0; u < n_ub; u++)
    {
      double n = MIN (ub, chunk - u * ub), pos = p0 + u * ub, prev = 0, slowest = 0;

      /* Experts the CPU holds: from 32 tokens the first GPU multiplies
       * them (op offload), after copying them over PCIe once per micro-
       * batch; below, the CPU computes those the tokens route to. */
      double gpu0_bytes = 0, gpu0_params = 0;

      if (in->cpu_expert_bytes > 0 && stages > 0)
        {
          double exp_params = routed_layer_params (in) * in->cpu_expert_layers;

          if (n >= HR_SPEED_OP_OFFLOAD_MIN_BATCH && in->host_link_gbps > 0)
            {
              gpu0_bytes = in->cpu_expert_bytes;
              serial += in->cpu_expert_bytes /
                        (HR_SPEED_MMAP_COPY_SHARE * in->host_link_gbps * HR_GB);
            }
          else
            {
              double touched = 1 - pow (1 - (double) in->experts_active / MAX (in->experts, 1), n);

              gpu0_params = -exp_params;
              serial += MAX (touched * in->cpu_expert_bytes /
                             (HR_RAM_DECODE_EFFICIENCY * in->ram_gbps * HR_GB),
                             2.0 * exp_params * n / cpu_flops (in));
            }
        }

      /* Layers the CPU holds: the first GPU multiplies them too (op
       * offload from 32 tokens), after copying them over PCIe; below, or
       * without a GPU, the CPU runs them. */
      if (in->cpu_layers > 0)
        {
          if (n >= HR_SPEED_OP_OFFLOAD_MIN_BATCH && in->host_link_gbps > 0 && stages > 0)
            serial += ubatch_seconds (in, used[0]->device, in->cpu_layers, in->cpu_layer_params,
                                      in->cpu_layer_bytes, pos, n) +
                      in->cpu_layer_bytes /
                      (HR_SPEED_MMAP_COPY_SHARE * in->host_link_gbps * HR_GB);
          else
            serial += cpu_ubatch_seconds (in, pos, n);
        }

      /* --no-kv-offload: the CPU runs the GPU layers' attention */
      if (in->kv_on_host && stages > 0)
        {
          double layers = gpu_layers (in);

          serial += score_units (in, pos, n, layers) * 4.0 * in->arch->head_dim_k /
                    cpu_flops (in) +
                    HR_SPEED_KV_HOST_SPLITS * attention_layers (in->arch, layers) *
                    HR_SPEED_HOP_SECONDS;
        }

      for (guint32 s = 0; s < stages; s++)
        {
          double t = s == 0 && (gpu0_bytes != 0 || gpu0_params != 0)
                     ? ubatch_seconds (in, used[0]->device,
                                       in->tensor_parallel ? (double) used[0]->layers / in->n_gpus
                                                           : used[0]->layers,
                                       used[0]->layer_params + gpu0_params,
                                       used[0]->layer_bytes + gpu0_bytes, pos, n)
                     : gpu_ubatch (in, used[s], pos, n);

          if (in->tensor_parallel)
            {
              slowest = MAX (slowest, t);
              continue;
            }
          if (s + 1 < stages)
            t += HR_SPEED_HOP_SECONDS + n * in->arch->hidden * 4.0 / (HR_SPEED_HOP_LINK_GBPS * HR_GB);
          serial += t;
          fin[s] = MAX (prev, fin[s]) + t;
          prev = fin[s];
        }
      if (in->tensor_parallel && stages > 1)
        serial += slowest + 2.0 * used[0]->layers *
                            (in->allreduce_seconds +
                             (in->allreduce_gbps > 0
                              ? n * in->arch->hidden * 2.0 * 2.0 * (stages - 1) / stages /
                                (in->allreduce_gbps * HR_GB)
                              : 0));
      else if (in->tensor_parallel)
        serial += slowest;
    }

  /* A layer split pipelines the micro-batches of a call (not with layers
   * on the CPU, and one micro-batch has nothing to overlap with). */
  if (stages > 1 && !in->tensor_parallel && in->cpu_layers == 0 && in->cpu_expert_bytes == 0 &&
      n_ub > 1)
    return HR_SPEED_RHO_PIPE * fin[stages - 1] + (1 - HR_SPEED_RHO_PIPE) * serial;
  return serial;
}

double
hr_speed_prefill_seconds (const HrSpeedInput *in,
                          guint64             prompt_tokens)
{
  double total = 0;
  guint64 step, full;

  g_return_val_if_fail (in != NULL && in->arch != NULL, 0);

  step = in->n_batch > 0 ? in->n_batch : HR_SPEED_N_BATCH;
  full = prompt_tokens / step;

  /* Every full call when there are few; past that, the calls at evenly
   * spaced depths stand for their neighbours (a call's time is smooth in
   * its depth: linear for the products, quadratic at most for attention,
   * so the midpoint rule is within a fraction of a per cent), keeping a
   * million-token prompt as cheap as a short one. */
  if (full <= HR_SPEED_PREFILL_SAMPLES)
    for (guint64 i = 0; i < full; i++)
      total += call_seconds (in, in->depth + (double) (i * step), (double) step);
  else
    {
      double per_sample = (double) full / HR_SPEED_PREFILL_SAMPLES;

      for (guint k = 0; k < HR_SPEED_PREFILL_SAMPLES; k++)
        {
          guint64 i = (guint64) ((k + 0.5) * per_sample);

          total += per_sample * call_seconds (in, in->depth + (double) (i * step), (double) step);
        }
    }
  if (prompt_tokens > full * step)
    total += call_seconds (in, in->depth + (double) (full * step),
                          (double) (prompt_tokens - full * step));
  /* one request's chunks go through the stages in turn */
  if (in->pp_stages > 1)
    total = total * in->pp_stages +
            ceil ((double) prompt_tokens / step) * (in->pp_stages - 1) * in->pp_hop_seconds;
  return total;
}

/* ---------------------------------------------------------------- ranges */

typedef struct
{
  HrBackend backend;
  gboolean moe, cpu_held;
  gboolean flash_attn;          /* measured with flash attention on */
  guint depth_bucket;
  const char *name;
  double decode_low, decode_high;
  guint32 decode_rows;
  double prefill_low, prefill_high;
  guint32 prefill_rows;
} SpeedGroup;

/* Written by tests/calibration/speed/fit_speed.py from the cross-validation
 * residuals of the calibration rows; a group with too few rows is absent. */
static const SpeedGroup speed_groups[] = {
#include "hr-speed-groups.inc"
};

/* fit_speed.py's DEPTH_BUCKETS: < 8K, 8K–32K, ≥ 32K cached tokens */
static guint
depth_bucket (double depth)
{
  return depth < 8192 ? 0 : depth < 32768 ? 1 : 2;
}

static const SpeedGroup *
find_group (const HrSpeedInput *in,
            double              depth)
{
  gboolean moe = in->expert_share > 0 && in->experts > 0;
  gboolean cpu_held = in->cpu_layers > 0 || in->cpu_bytes > 0 || in->cpu_expert_bytes > 0;

  /* vLLM and SGLang kernels have no llama-bench rows.  Flash attention is
   * a dimension of the generated table: a group measured without it says
   * nothing of a figure with it, and the other way round.  No rows were
   * measured with the cache in RAM. */
  if (in->serving || in->kv_on_host)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (speed_groups); i++)
    {
      const SpeedGroup *g = &speed_groups[i];

      if (g->backend == in->backend && g->moe == moe && g->cpu_held == cpu_held &&
          g->flash_attn == !!in->flash_attn && g->depth_bucket == depth_bucket (depth))
        return g;
    }
  return NULL;
}

gboolean
hr_speed_range (const HrSpeedInput *in,
                double              decode_depth,
                double              prefill_depth,
                HrSpeedRange       *out)
{
  const SpeedGroup *decode, *prefill;

  g_return_val_if_fail (in != NULL && out != NULL, FALSE);

  *out = (HrSpeedRange) { 0 };
  decode = find_group (in, decode_depth);
  prefill = find_group (in, prefill_depth);
  if (decode != NULL)
    {
      out->name = decode->name;
      out->rows = decode->decode_rows + decode->prefill_rows;
      out->decode_low = decode->decode_low;
      out->decode_high = decode->decode_high;
    }
  if (prefill != NULL)
    {
      out->prefill_low = prefill->prefill_low;
      out->prefill_high = prefill->prefill_high;
    }
  return decode != NULL || prefill != NULL;
}
