/* hr-profile-llamacpp.c — llama-server: exact GGUF weights and llama.cpp's buffers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layers are split across devices (llama.cpp's default layer split), the
 * token embeddings stay in host memory, each device keeps a compute
 * buffer and the backend's reserve.  The buffers come from
 * hr-llamacpp-memory.c; this module turns them into an estimate, for
 * llama-server's own launch and, through the launch callback, Ollama's.
 */

#define G_LOG_DOMAIN "hr-profile-llamacpp"

#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "hr-estimate-constants.h"
#include "hr-profile-common.h"
#include "hr-llamacpp-placement.h"
#include "hr-profile-llamacpp.h"
#include "hr-speed.h"

static gboolean
buffers_at (const HrEstimateInput  *input,
            HrLlamaCppLaunch        launch,
            guint64                 context,
            HrLlamaCppParams       *params,
            HrLlamaCppMemory       *memory,
            HrFix                  *fix,
            GError                **error)
{
  guint64 n_ctx;

  if (!launch (input, context, params, &n_ctx, fix, error))
    return FALSE;
  hr_llamacpp_memory (input->model, hr_profile_ffn_width (input), input->token_embd_bytes,
                      n_ctx, params, memory);
  return TRUE;
}

/* Without a tensor table (an architecture Headroom cannot enumerate), the
 * weights are spread evenly over the layers, the embeddings and the output
 * head taking vocabulary × hidden each. */
static void
uniform_layers (const HrEstimateInput *input,
                double                 weights,
                HrLayerWeights        *out)
{
  const HrModelArch *a = input->model;
  double embd = input->token_embd_bytes > 0
                ? (double) input->token_embd_bytes
                : (double) a->vocab * a->hidden * input->bpw / 8.0;
  double per_layer = MAX (0.0, weights - 2 * embd) / a->n_layers;
  double k = input->experts > 0 ? (double) input->experts_active / input->experts : 1.0;
  double dense_share = a->params_active / a->params_total;
  /* The routed experts' share f of a layer: active = (1 − f) + f k. */
  double f = k < 1.0 ? CLAMP ((1.0 - dense_share) / (1.0 - k), 0.0, 1.0) : 0.0;

  *out = (HrLayerWeights) {
    .n_layers = a->n_layers,
    .uniform_layer_bytes = (guint64) llround (per_layer),
    .uniform_expert_bytes = (guint64) llround (per_layer * f),
    .output_bytes = (guint64) llround (embd),
    .token_embd_bytes = (guint64) llround (embd),
    /* the FFN's three matrices carry about two thirds of a dense layer */
    .largest_dense_bytes = (guint64) llround (per_layer * (1 - f) / 4.5),
  };
}

static HrSplitMode
split_mode (const HrEstimateInput *input)
{
  if (input->placement.split_mode == HR_SPLIT_DEFAULT)
    return input->n_gpus > 1 ? HR_SPLIT_LAYER : HR_SPLIT_NONE;
  return input->placement.split_mode;
}

/* The placement's input for llama.cpp's buffers @m at the input's GPUs
 * and split; fails when the tensor split gives every GPU nothing. */
static gboolean
placement_input (const HrEstimateInput    *input,
                 const HrLlamaCppParams   *params,
                 const HrLlamaCppMemory   *m,
                 const HrLayerWeights     *weights,
                 HrLlamaCppPlacementInput *in,
                 GError                  **error)
{
  HrSplitMode mode = split_mode (input);
  double cell_bytes = hr_kv_cell_bytes (hr_model_arch_kv_cell (input->model),
                                        params->kv_k_bytes_per_element,
                                        params->kv_v_bytes_per_element);
  double sum = 0;

  *in = (HrLlamaCppPlacementInput) {
    .arch = input->model,
    .weights = weights,
    .kv_global_layer_bytes = (guint64) llround ((double) m->kv_cells * cell_bytes),
    .kv_local_layer_bytes = (guint64) llround ((double) m->kv_swa_cells * cell_bytes),
    .kv_layer_share = (double) hr_model_arch_kv_layers (input->model) / input->model->n_layers,
    .state_layer_bytes = (double) m->state_bytes / input->model->n_layers,
    .expert_active_share = input->experts > 0
                           ? (double) input->experts_active / input->experts : 1.0,
    .compute_bytes = m->compute_bytes,
    .reserve_bytes = m->reserve_bytes,
    .host_buffers_bytes = m->output_bytes + m->host_compute_bytes,
    .host_inputs_bytes = m->host_compute_bytes,
    .mask_bytes = m->mask_bytes,
    .op_offload = params->n_ubatch >= HR_LLAMACPP_OP_OFFLOAD_MIN_BATCH,
    .n_devices = mode == HR_SPLIT_NONE ? 1 : input->n_gpus,
    .usable_bytes = hr_estimate_input_usable (input, 0),
    .split_mode = mode,
    .n_cpu_moe = input->placement.n_cpu_moe,
    .mmproj_bytes = input->mmproj_weights_bytes + input->mmproj_compute_bytes,
    .lora_layer_bytes = (double) input->lora_bytes / MAX (input->model->n_layers, 1),
    .kv_on_host = input->kv_on_host,
  };
  memcpy (in->draft_bytes, input->draft_device_bytes, sizeof in->draft_bytes);

  /* --tensor-split, or in proportion to each GPU's free memory, what it
   * reports at load less what others hold (llama.cpp src/llama-model.cpp,
   * load_tensors: "default split, by free memory", ggml_backend_dev_memory):
   * its memory less its reserve. */
  for (guint32 d = 0; d < in->n_devices; d++)
    {
      in->device_usable[d] = hr_estimate_input_usable (input, d);
      if (input->placement.n_tensor_split == 0)
        in->split[d] = (double) in->device_usable[d];
      else
        in->split[d] = d < input->placement.n_tensor_split ? input->placement.tensor_split[d] : 0;
      sum += in->split[d];
    }
  if (!(sum > 0) || !isfinite (sum))
    return hr_profile_fail (error, HR_ESTIMATE_ERROR_INVALID,
                            "the tensor split gives every GPU a zero share");
  for (guint32 d = 0; d < in->n_devices; d++)
    in->split[d] /= sum;
  return TRUE;
}

/* Whether the placement asked for fits the GPUs at @context (for the max
 * context): every layer, or the layers given, with the experts of the
 * first --n-cpu-moe layers in system memory as the estimate has them —
 * else a set-up that fits only so would have a largest context of 0. */
static gboolean
fits_whole_at (const HrEstimateInput *input,
               HrLlamaCppLaunch       launch,
               const HrLayerWeights  *weights,
               guint64                context)
{
  HrLlamaCppParams params;
  HrLlamaCppMemory m;
  HrLlamaCppPlacementInput in;
  HrLlamaCppPlacement p;
  HrFix unused;

  if (!buffers_at (input, launch, context, &params, &m, &unused, NULL) ||
      !placement_input (input, &params, &m, weights, &in, NULL))
    return FALSE;
  hr_llamacpp_place (&in, input->placement.gpu_layers_fixed ? input->placement.gpu_layers
                                                             : input->model->n_layers + 1, &p);
  /* --no-kv-offload: the cache grows in RAM, which then bounds it */
  if (input->kv_on_host)
    {
      HrEstimate ram = { 0 };

      hr_profile_ram (input, &ram);
      return p.fits && p.host_bytes + input->host_cache_bytes <= ram.ram_usable_bytes;
    }
  return p.fits;
}

/* How the engine places the layers when the user has not said: llama-
 * server as Headroom launches it gets the most layers that fit; Ollama
 * leaves it to llama.cpp's --fit, after pinning to one GPU what its own
 * prediction says fits one (file + F16 cache ≤ 80 % of the GPU). */
static void
place_auto (const HrEstimateInput          *input,
            HrLlamaCppPlacementInput       *in,
            const HrLlamaCppMemory         *m,
            double                          weights,
            HrLlamaCppPlacement            *placement)
{
  if (input->engine == HR_ENGINE_OLLAMA)
    {
      double predicted = weights + hr_kv_bytes (input->model, input->context, input->batch, 2.0);

      if (in->n_devices > 1 &&
          predicted <= HR_OLLAMA_SINGLE_GPU_FRACTION * (double) in->usable_bytes)
        {
          in->n_devices = 1;
          in->split[0] = 1.0;
        }
      hr_llamacpp_place_fit (in, (guint64) (HR_FIT_TARGET_MIB * HR_MIB), placement);
      return;
    }
  hr_llamacpp_place_most (in, 0, placement);
}

/* The speed model's view of a placement: each GPU's repeating layers, the
 * weights it streams per token and holds, and what the CPU keeps.  Row
 * split cuts every matrix over the GPUs, which then work as one tensor-
 * parallel group, synchronising after each of a layer's seven products
 * (counted as two all-reduces a layer of 3.5 syncs each). */
static void
speed_input (const HrEstimateInput          *input,
             const HrLlamaCppParams         *params,
             const HrLayerWeights           *layers,
             const HrLlamaCppPlacement      *p,
             HrSplitMode                     mode,
             double                          ram_gbps,
             HrSpeedInput                   *out)
{
  const HrModelArch *model = input->model;
  double per_layer_params = hr_profile_layer_params (input) / MAX (model->n_layers, 1);
  gboolean row = mode == HR_SPLIT_ROW && p->n_devices > 1;
  guint32 gpu_repeating = 0;

  memset (out, 0, sizeof *out);
  out->arch = model;
  out->family = (HrQuantFamily) input->quant_family;
  out->backend = input->options.backend_set ? input->options.backend
                                            : hr_device_backend (input->device);
  out->depth = (double) input->depth;
  out->cpu_flops = input->cpu_flops;
  out->n_gpus = p->n_devices;
  out->tensor_parallel = row;
  out->allreduce_seconds = row ? HR_ROW_SPLIT_SYNC_SECONDS * 3.5 : 0;
  for (guint32 d = 0; d < p->n_devices; d++)
    {
      const HrDeviceLoad *load = &p->devices[d];
      HrSpeedGpu *g = &out->gpus[d];
      guint32 repeating = load->layers - (load->output_layer ? 1 : 0);

      gpu_repeating += repeating;
      g->device = hr_estimate_input_gpu (input, d);
      g->layers = repeating;
      g->stream_bytes = (double) p->gpu_weights_read_bytes[d];
      g->layer_bytes = (double) load->weights_bytes -
                       (load->output_layer ? (double) layers->output_bytes : 0);
      g->layer_params = per_layer_params * repeating;
    }
  if (row)
    {
      /* every GPU runs a share of every offloaded layer */
      double share = 1.0 / p->n_devices;

      for (guint32 d = 0; d < p->n_devices; d++)
        {
          out->gpus[d].layers = gpu_repeating;
          out->gpus[d].layer_params = per_layer_params * gpu_repeating * share;
        }
    }
  out->cpu_layers = p->host_layers;
  out->cpu_bytes = (double) p->host_weights_read_bytes;
  out->cpu_layer_bytes = (double) p->host_layer_bytes;
  out->cpu_layer_params = per_layer_params * p->host_layers;
  out->cpu_expert_bytes = (double) p->host_expert_bytes;
  out->cpu_expert_layers = p->host_expert_bytes > 0
                           ? MIN (input->placement.n_cpu_moe, model->n_layers) : 0;
  /* MoE: the routed experts' share of the layers' bytes */
  if (input->experts > 0 && input->experts_active < input->experts)
    {
      double all = 0, experts = 0;

      for (guint32 i = 0; i < layers->n_layers; i++)
        {
          all += (double) (layers->layer_bytes != NULL ? layers->layer_bytes[i]
                                                       : layers->uniform_layer_bytes);
          experts += (double) (layers->expert_bytes != NULL ? layers->expert_bytes[i]
                               : layers->layer_bytes == NULL ? layers->uniform_expert_bytes : 0);
        }
      out->experts = input->experts;
      out->experts_active = input->experts_active;
      out->expert_share = all > 0 ? CLAMP (experts / all, 0, 1) : 0;
    }
  out->ram_gbps = ram_gbps;
  out->host_link_gbps = input->device->pcie_gbps;
  out->n_ubatch = params->n_ubatch;
  /* Flash attention as the engine runs it: on when asked, and by default
   * on wherever the backend has the kernel, as current builds resolve
   * -fa auto (llama.cpp src/llama-context.cpp: "Flash Attention was auto,
   * set to enabled" unless a GPU layer's attention would fall to the CPU;
   * CUDA, ROCm, Vulkan, Metal, SYCL and the CPU all have it) and as
   * Ollama passes --flash-attn auto to them (ollama llm/llama_server.go
   * LlamaServerFlashAttention; ml/device.go FlashAttentionSupported: CPU,
   * Metal, CUDA from compute 6.0, ROCm, Vulkan).  params->flash_attn is
   * that resolution (hr-llamacpp-memory.c, hr-ollama-params.c). */
  out->flash_attn = params->flash_attn;
  out->kv_bytes_per_element = params->kv_k_bytes_per_element;
  out->kv_on_host = input->kv_on_host;
}

gboolean
hr_profile_llamacpp_run (const HrEstimateInput  *input,
                         HrEstimate             *result,
                         HrLlamaCppLaunch        launch,
                         GError                **error)
{
  const HrModelArch *model = input->model;
  HrLlamaCppParams params;
  HrLlamaCppMemory m;
  HrLayerWeights uniform;
  const HrLayerWeights *layers;
  HrLlamaCppPlacementInput in;
  HrLlamaCppPlacement p;
  double weights = hr_profile_weights (input);
  HrSpeedInput speed;
  double bpe;
  guint64 low, high, streams;
  HrSplitMode mode = split_mode (input);
  guint32 heaviest = 0, used_devices = 0;
  gboolean all_on_gpu;

  if (input->checkpoint == HR_CHECKPOINT_SAFETENSORS)
    {
      result->fix = HR_FIX_ENGINE_AUTO;
      return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                              _("llama.cpp reads GGUF files; AWQ, GPTQ and FP8 checkpoints "
                                "are served by vLLM"));
    }
  if (input->n_gpus > HR_MAX_DEVICES)
    return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                            _("llama.cpp uses at most %d GPUs"), HR_MAX_DEVICES);
  if (input->placement.gpu_layers_fixed &&
      input->placement.gpu_layers > model->n_layers + 1)
    return hr_profile_fail (error, HR_ESTIMATE_ERROR_INVALID,
                            "GPU layers %u out of range (0–%u, or auto)",
                            input->placement.gpu_layers, model->n_layers + 1);

  if (!buffers_at (input, launch, input->context, &params, &m, &result->fix, error))
    return FALSE;

  /* The cache type llama.cpp really uses (Ollama falls back to F16). */
  bpe = params.kv_k_bytes_per_element;
  streams = params.kv_unified ? 1 : MAX (params.n_seq, 1);
  result->kv_bytes_per_element = bpe;
  result->kv_type_ignored = bpe != input->kv_bytes_per_element;
  result->kv_tokens = m.kv_cells / streams;
  result->kv_window_tokens = m.kv_swa_cells / streams;
  result->reserve_bytes = m.reserve_bytes;
  result->kv_bytes = m.kv_bytes;
  result->state_bytes = m.state_bytes;
  result->state_bytes_per_sequence = m.state_bytes_per_sequence;
  result->compute_bytes = m.compute_bytes;
  result->flash_attn = params.flash_attn;
  result->kv_heads_per_device = model->n_kv_heads;
  hr_profile_ram (input, result);

  /* Where every layer goes. */
  if (input->layers == NULL)
    uniform_layers (input, weights, &uniform);
  layers = input->layers != NULL ? input->layers : &uniform;
  if (!placement_input (input, &params, &m, layers, &in, error))
    return FALSE;

  if (input->placement.gpu_layers_fixed)
    hr_llamacpp_place (&in, input->placement.gpu_layers, &p);
  else
    place_auto (input, &in, &m, weights, &p);

  result->gpu_layers = p.gpu_layers;
  result->layer_count = model->n_layers + 1;
  result->n_devices = p.n_devices;
  memcpy (result->devices, p.devices, sizeof p.devices);
  result->host_weights_bytes = p.host_weights_bytes;
  result->host_kv_bytes = p.host_kv_bytes;
  result->host_bytes = p.host_bytes;
  result->kv_on_host = input->kv_on_host;
  result->host_cache_bytes = input->host_cache_bytes;
  /* the prompt cache fills as prompts are cached, up to its limit */
  result->ram_fits = p.host_bytes + input->host_cache_bytes <= result->ram_usable_bytes;
  all_on_gpu = p.gpu_layers == model->n_layers + 1 &&
               (input->placement.n_cpu_moe == 0 || input->experts == 0);
  if (p.gpu_layers == 0)
    result->placement = HR_PLACEMENT_CPU;
  else if (!all_on_gpu)
    result->placement = HR_PLACEMENT_PARTIAL;
  else
    {
      for (guint32 d = 0; d < p.n_devices; d++)
        used_devices += p.devices[d].layers > 0;
      result->placement = used_devices > 1 || mode == HR_SPLIT_ROW ? HR_PLACEMENT_SPLIT
                                                                  : HR_PLACEMENT_GPU;
    }

  /* The per-device figures are the fullest GPU's: it decides the fit
   * (GPUs of different kinds: the fullest for its own memory). */
  for (guint32 d = 0; d < p.n_devices; d++)
    result->devices[d].reserve_bytes = hr_estimate_input_gpu (input, d)->memory_bytes -
                                       MIN (p.devices[d].usable_bytes,
                                            hr_estimate_input_gpu (input, d)->memory_bytes);
  for (guint32 d = 1; d < p.n_devices; d++)
    if ((double) p.devices[d].total_bytes * p.devices[heaviest].usable_bytes >
        (double) p.devices[heaviest].total_bytes * p.devices[d].usable_bytes)
      heaviest = d;
  result->fullest_device = heaviest;
  result->per_device_weights_bytes = p.devices[heaviest].weights_bytes;
  result->per_device_kv_bytes = p.devices[heaviest].kv_bytes;
  result->per_device_state_bytes = p.devices[heaviest].state_bytes;
  result->per_device_overhead_bytes = p.devices[heaviest].compute_bytes;
  result->per_device_mmproj_bytes = p.devices[heaviest].mmproj_bytes;
  result->per_device_draft_bytes = p.devices[heaviest].draft_bytes;
  result->per_device_lora_bytes = p.devices[heaviest].lora_bytes;
  result->lora_bytes = p.host_lora_bytes;
  for (guint32 d = 0; d < p.n_devices; d++)
    {
      result->draft_bytes += p.devices[d].draft_bytes;
      result->lora_bytes += p.devices[d].lora_bytes;
    }
  result->mmproj_bytes = p.devices[0].mmproj_bytes;
  result->mmproj_weights_bytes = input->mmproj_weights_bytes;
  result->mmproj_compute_bytes = input->mmproj_compute_bytes;
  result->image_tokens = input->image_tokens;
  result->overhead_bytes = 0;
  for (guint32 d = 0; d < p.n_devices; d++)
    result->overhead_bytes += p.devices[d].compute_bytes;
  result->kv_device_fraction = (double) result->per_device_kv_bytes / MAX (m.kv_bytes, 1);

  /* How fast: the speed model over this placement. */
  speed_input (input, &params, layers, &p, mode, result->ram_bandwidth_gbps, &speed);
  hr_profile_time (input, result, &speed);
  for (guint32 d = 0; d < p.n_devices; d++)
    result->bytes_per_token = MAX (result->bytes_per_token,
                                   (double) p.gpu_weights_read_bytes[d] +
                                   (double) p.devices[d].kv_bytes / streams);

  /* The largest context that fits every GPU with every layer on it, by
   * bisection: the buffers grow with the padded context in steps, so
   * there is no closed form.  The bracket: no context whose cache alone
   * outgrows all the GPUs together can fit, and the requested context
   * splits the range first. */
  low = 0;
  high = HR_CONTEXT_MAX;
  {
    double all_gpus = 0;
    guint64 step = 1024;

    for (guint32 d = 0; d < in.n_devices; d++)
      all_gpus += (double) hr_llamacpp_usable (&in, d);
    if (input->kv_on_host)
      all_gpus = (double) result->ram_usable_bytes;
    while (step < HR_CONTEXT_MAX &&
           hr_kv_bytes (model, step, MAX (input->batch, 1), bpe) <= all_gpus)
      step *= 2;
    if (step < HR_CONTEXT_MAX)
      high = step;
    if (input->context <= high)
      {
        if (fits_whole_at (input, launch, layers, input->context))
          low = input->context;
        else
          high = input->context > 0 ? input->context - 1 : 0;
      }
  }
  while (low < high)
    {
      guint64 mid = low + (high - low + 1) / 2;

      if (fits_whole_at (input, launch, layers, mid))
        low = mid;
      else
        high = mid - 1;
    }
  result->max_context = low;
  /* Every layer within its window: the cache stops growing. */
  result->max_context_unbounded = low == HR_CONTEXT_MAX;

  if (!hr_profile_finish (input, result, weights,
                          hr_kv_bytes (model, input->context, input->batch, bpe),
                          0, 0, result->decode_fixed_seconds, error))
    return FALSE;

  /* It runs when the GPUs and the system memory hold their parts; with
   * layers left on the CPU it runs, but not comfortably. */
  if (!result->ram_fits)
    result->verdict = HR_VERDICT_NO_FIT;
  else if (result->placement == HR_PLACEMENT_PARTIAL || result->placement == HR_PLACEMENT_CPU)
    result->verdict = p.fits ? HR_VERDICT_TIGHT : HR_VERDICT_NO_FIT;
  return TRUE;
}

/* llama-server as Headroom's command starts it: --parallel N slots, each
 * with its own share of --ctx-size = context × N; the cache types of
 * --cache-type-k/-v; flash attention as asked, on by default. */
static gboolean
llamacpp_launch (const HrEstimateInput  *input,
                 guint64                 context,
                 HrLlamaCppParams       *params,
                 guint64                *n_ctx,
                 HrFix                  *fix,
                 GError                **error)
{
  double kv = input->kv_bytes_per_element;

  hr_llamacpp_params_init_default (params);
  params->n_seq = input->batch;
  params->kv_unified = FALSE;
  params->kv_k_bytes_per_element = kv;
  params->kv_v_bytes_per_element = kv;
  if (input->options.flash_attn != HR_FLASH_ATTN_DEFAULT)
    params->flash_attn = input->options.flash_attn == HR_FLASH_ATTN_ON;
  if (input->options.ubatch > 0)
    {
      params->n_ubatch = input->options.ubatch;
      params->n_batch = MAX (params->n_batch, params->n_ubatch);
    }
  /* llama_init_from_model: "quantized V cache was requested, but this
   * requires Flash Attention". */
  if (kv != 2.0 && !params->flash_attn)
    {
      *fix = HR_FIX_FLASH_ATTN_ON;
      return hr_profile_fail (error, HR_ESTIMATE_ERROR_UNSUPPORTED,
                              _("llama.cpp needs flash attention for a quantized V cache"));
    }
  *n_ctx = context * input->batch;
  return TRUE;
}

static gboolean
llamacpp_estimate (const HrEstimateInput  *input,
                   HrEstimate             *result,
                   GError                **error)
{
  return hr_profile_llamacpp_run (input, result, llamacpp_launch, error);
}

void
hr_profile_llamacpp_explain (const HrEstimateInput *input,
                             const HrEstimate      *result,
                             HrFormulas            *f)
{
  g_autofree char *compute = hr_formulas_size (f, result->compute_bytes);
  g_autofree char *reserve = hr_formulas_size (f, result->reserve_bytes);
  g_autofree char *overhead = hr_formulas_size (f, result->per_device_overhead_bytes);
  g_autofree char *usable = hr_formulas_size (f, result->usable_bytes);
  g_autofree char *max_ctx = hr_format_tokens (result->max_context);
  g_autofree char *kv = hr_formulas_kv_text (input, result, f, input->batch);

  hr_formulas_set_engine_weights (input, result, f);
  /* TRANSLATORS: the KV formula, then how llama.cpp pads the context */
  hr_formulas_set (f, HR_FORMULA_KV,
                   g_strdup_printf (_("%s; the context is padded to a multiple of %d cells"),
                                    kv, HR_LLAMACPP_CTX_PAD));
  /* TRANSLATORS: "compute buffer 0.50 GiB + backend reserve 0.45 GiB = 0.94 GiB per device" */
  hr_formulas_set (f, HR_FORMULA_OVERHEAD,
                   g_strdup_printf (_("compute buffer %s + backend reserve %s = %s per device"),
                                    compute, reserve, overhead));
  if (result->max_context_unbounded)
    hr_formulas_set (f, HR_FORMULA_MAX_CONTEXT,
                     g_strdup (_("Every layer keeps at most its window: the cache stops "
                                 "growing, memory never limits the context")));
  else if (result->max_context == 0)
    /* TRANSLATORS: "Not even a short context fits every layer in 11.81 GiB:
     * llama.cpp leaves layers in system RAM" */
    hr_formulas_set (f, HR_FORMULA_MAX_CONTEXT,
                     g_strdup_printf (_("Not even a short context fits every layer in %s: "
                                        "llama.cpp leaves layers in system RAM"), usable));
  else
    /* TRANSLATORS: "The largest context whose padded cache and compute buffer still fit 11.81 GiB: 98,560 tokens" */
    hr_formulas_set (f, HR_FORMULA_MAX_CONTEXT,
                     g_strdup_printf (_("The largest context whose padded cache and compute "
                                        "buffer still fit %s: %s tokens"), usable, max_ctx));
}

const HrEngineProfile hr_profile_llamacpp = {
  .engine = HR_ENGINE_LLAMACPP,
  .estimate = llamacpp_estimate,
  .explain = hr_profile_llamacpp_explain,
};
