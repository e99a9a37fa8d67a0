/* hr-engine.c — what llama.cpp, Ollama and vLLM allocate besides the weights
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The formulas follow the engines' source (llama.cpp 0.4.0 as shipped by
 * node-llama-cpp 3.21.1, Ollama's llama-server launcher, vLLM 0.6's
 * worker profiling) and their coefficients come from measurements; see
 * hr-engine.h for the constants and their sources, and
 * tests/calibration/README.md for how the llama.cpp ones were measured.
 */

#define G_LOG_DOMAIN "hr-engine"

#include "config.h"

#include <math.h>

#include "hr-engine.h"

#define MIB ((double) (1u << 20))

static guint64
pad_up (guint64 value,
        guint64 multiple)
{
  return (value + multiple - 1) / multiple * multiple;
}

/* Sizes are computed in double (quantized types have fractional bytes per
 * element, products of large counts overflow nothing there) and rounded
 * once at the end. */
static guint64
to_bytes (double value)
{
  if (!(value > 0))
    return 0;
  if (value >= 1.8e19)
    return G_MAXUINT64;
  return (guint64) llround (value);
}

void
hr_llamacpp_params_init_default (HrLlamaCppParams *p)
{
  g_return_if_fail (p != NULL);

  *p = (HrLlamaCppParams) {
    .n_ubatch = HR_LLAMACPP_DEFAULT_N_UBATCH,
    .n_batch = HR_LLAMACPP_DEFAULT_N_BATCH,
    /* -fa auto resolves to on wherever the backend has the kernel */
    .flash_attn = TRUE,
    /* -np auto: 4 slots over one unified cache (tools/server/server.cpp) */
    .n_seq = HR_LLAMACPP_DEFAULT_N_SEQ,
    .kv_unified = TRUE,
    .swa_full = FALSE,
    .kv_k_bytes_per_element = 2.0,
    .kv_v_bytes_per_element = 2.0,
  };
}

void
hr_llamacpp_memory (const HrModelArch      *arch,
                    guint64                 ffn_width,
                    guint64                 token_embd_bytes,
                    guint64                 n_ctx,
                    const HrLlamaCppParams *p,
                    HrLlamaCppMemory       *out)
{
  guint32 n_seq, n_batch, n_ubatch, local, global;
  guint64 ctx_padded, ctx_seq, streams, cells, swa_cells, n_kv, n_kv_swa;
  double row_k, row_v, kv, hidden, q_width, kv_width, mask_bytes, masks;
  double out_phase, attn_phase, ffn_phase, worst;
  gboolean quantized_v;

  g_return_if_fail (arch != NULL);
  g_return_if_fail (p != NULL);
  g_return_if_fail (out != NULL);

  *out = (HrLlamaCppMemory) { 0 };

  if (n_ctx == 0)
    n_ctx = arch->max_context;
  n_ctx = MAX (n_ctx, 1);
  n_seq = MAX (p->n_seq, 1);

  /* A causal model never batches more tokens than the context holds; the
   * micro-batch is at most the batch (llama_context::llama_context). */
  n_batch = (guint32) MIN ((guint64) MAX (p->n_batch, 1), n_ctx);
  n_ubatch = MIN (MAX (p->n_ubatch, 1), n_batch);

  /* Cells: the context padded to 256; with separate streams each
   * sequence gets its padded share and the total follows it. */
  ctx_padded = pad_up (n_ctx, HR_LLAMACPP_CTX_PAD);
  if (p->kv_unified)
    {
      ctx_seq = ctx_padded;
      streams = 1;
    }
  else
    {
      /* llama.cpp refuses a zero share; one padded block is the least a
       * stream can have. */
      ctx_seq = MAX (pad_up (ctx_padded / n_seq, HR_LLAMACPP_CTX_PAD),
                     HR_LLAMACPP_CTX_PAD);
      streams = n_seq;
    }
  cells = ctx_seq;

  /* Sliding-window layers hold the window (of every slot sharing the
   * stream) plus one micro-batch, padded, never more than the full cache
   * (llama_kv_cache_iswa). */
  local = hr_model_arch_local_layers (arch);
  global = arch->n_layers - local;
  swa_cells = 0;
  if (local > 0)
    {
      guint64 window = (guint64) arch->sliding_window * (p->kv_unified ? n_seq : 1);

      swa_cells = p->swa_full ? cells
                              : MIN (cells, pad_up (window + n_ubatch, HR_LLAMACPP_CTX_PAD));
    }

  /* Bytes of one cell of one layer.  MLA caches the compressed latent and
   * the RoPE key in K and has no V tensor (llama_kv_cache: has_v =
   * !is_mla). */
  if (arch->attention == HR_ATTENTION_MLA)
    {
      kv_width = (double) arch->kv_lora_rank + arch->qk_rope_head_dim;
      row_k = kv_width * p->kv_k_bytes_per_element;
      row_v = 0;
    }
  else
    {
      kv_width = (double) arch->n_kv_heads * arch->head_dim_k;
      row_k = kv_width * p->kv_k_bytes_per_element;
      row_v = (double) arch->n_kv_heads * arch->head_dim_v * p->kv_v_bytes_per_element;
    }

  kv = (double) streams * ((double) global * cells + (double) local * swa_cells) * (row_k + row_v);

  out->kv_bytes = to_bytes (kv);
  out->kv_cells = global > 0 ? cells * streams : 0;
  out->kv_swa_cells = swa_cells * streams;

  /* The compute buffer: the largest phase of the worst-case graph, in F32
   * values per micro-batch token (see hr-engine.h).  n_kv counts the
   * cells one stream's attention sees; with several streams the batch is
   * split between them, so the totals stay n_kv × n_ubatch. */
  hidden = arch->hidden;
  q_width = (double) arch->n_heads * arch->head_dim_k;
  n_kv = global > 0 ? cells : swa_cells;
  n_kv_swa = global > 0 && local > 0 ? swa_cells : 0;
  mask_bytes = p->flash_attn ? 2.0 : 4.0;     /* F16 mask with flash attention */
  masks = ((double) n_kv + n_kv_swa) * mask_bytes / 4.0;
  /* quantized V is only possible with flash attention */
  quantized_v = p->flash_attn && p->kv_v_bytes_per_element < 2.0;

  out_phase = (double) arch->vocab +
              (HR_LLAMACPP_OUT_EMBD_COEF + (quantized_v ? 1.0 : 0.0)) * hidden +
              HR_LLAMACPP_OUT_CONST;
  ffn_phase = masks +
              HR_LLAMACPP_FFN_FF_COEF * ffn_width +
              HR_LLAMACPP_FFN_EMBD_COEF * hidden +
              HR_LLAMACPP_FFN_Q_COEF * q_width +
              (p->flash_attn ? HR_LLAMACPP_FFN_CONST : kv_width + HR_LLAMACPP_FFN_CONST - 1.0);
  worst = MAX (out_phase, ffn_phase);
  if (!p->flash_attn)
    {
      /* the F32 KQ matrix of every head, softmaxed in place */
      attn_phase = (double) n_kv * arch->n_heads + masks +
                   HR_LLAMACPP_ATTN_EMBD_COEF * hidden +
                   HR_LLAMACPP_ATTN_Q_COEF * q_width +
                   HR_LLAMACPP_ATTN_KV_COEF * kv_width +
                   HR_LLAMACPP_ATTN_CONST;
      worst = MAX (worst, attn_phase);
    }

  out->compute_bytes = to_bytes (worst * 4.0 * n_ubatch);

  /* Logits of one output per sequence, reserved up front
   * (llama_context::output_reserve (n_seq_max)); it grows only if a
   * client asks for the logits of every prompt token. */
  out->output_bytes = to_bytes ((double) arch->vocab * 4.0 * n_seq);

  out->host_bytes = token_embd_bytes;
  /* The CPU side builds the embedded micro-batch and the masks before
   * copying them to the device: 24.01 MiB for Llama-3-8B at n_ctx 8192 =
   * 512 × 4096 × 4 B + 8192 × 512 × 4 B (CUDA_Host compute buffer). */
  out->host_compute_bytes = to_bytes ((double) n_ubatch * (4.0 * hidden + ((double) n_kv + n_kv_swa) * mask_bytes));
  out->reserve_bytes = to_bytes (HR_LLAMACPP_BACKEND_RESERVE_MIB * MIB);
}

void
hr_ollama_params_init_default (HrOllamaParams *p)
{
  g_return_if_fail (p != NULL);

  *p = (HrOllamaParams) {
    .num_ctx = HR_OLLAMA_DEFAULT_NUM_CTX,
    .num_parallel = HR_OLLAMA_DEFAULT_NUM_PARALLEL,
    /* OLLAMA_FLASH_ATTENTION unset = auto, on for supported GPUs */
    .flash_attn = TRUE,
    .num_batch = HR_OLLAMA_DEFAULT_NUM_BATCH,
  };
}

guint64
hr_ollama_default_num_ctx (guint64 total_vram_bytes)
{
  if (total_vram_bytes >= HR_OLLAMA_VRAM_LARGE_GIB * HR_GIB)
    return HR_OLLAMA_NUM_CTX_LARGE;
  if (total_vram_bytes >= HR_OLLAMA_VRAM_MEDIUM_GIB * HR_GIB)
    return HR_OLLAMA_NUM_CTX_MEDIUM;
  return HR_OLLAMA_DEFAULT_NUM_CTX;
}

guint64
hr_ollama_llamacpp_params (const HrOllamaParams *o,
                           double                kv_bytes_per_element,
                           HrLlamaCppParams     *p)
{
  guint32 parallel;
  double kv_bpe;

  g_return_val_if_fail (o != NULL, 0);
  g_return_val_if_fail (p != NULL, 0);

  parallel = MAX (o->num_parallel, 1);
  /* A quantized cache without flash attention is refused by llama.cpp
   * (V) and ignored by Ollama, which keeps F16 then. */
  kv_bpe = o->flash_attn ? kv_bytes_per_element : 2.0;

  *p = (HrLlamaCppParams) {
    .n_ubatch = o->num_batch > 0 ? o->num_batch : HR_OLLAMA_DEFAULT_NUM_BATCH,
    .n_batch = o->num_batch > 0 ? o->num_batch : HR_OLLAMA_DEFAULT_NUM_BATCH,
    .flash_attn = o->flash_attn,
    .n_seq = parallel,
    /* -np given explicitly: one stream per slot */
    .kv_unified = FALSE,
    .swa_full = FALSE,
    .kv_k_bytes_per_element = kv_bpe,
    .kv_v_bytes_per_element = kv_bpe,
  };

  return MAX (o->num_ctx, 1) * parallel;
}

void
hr_vllm_params_init_default (HrVllmParams *p,
                             guint64       max_model_len)
{
  g_return_if_fail (p != NULL);

  *p = (HrVllmParams) {
    .gpu_memory_utilization = HR_VLLM_DEFAULT_GPU_MEMORY_UTILIZATION,
    .max_num_batched_tokens = HR_VLLM_DEFAULT_MAX_NUM_BATCHED_TOKENS,
    .max_model_len = max_model_len,
    .max_num_seqs = HR_VLLM_DEFAULT_MAX_NUM_SEQS,
    .block_size = HR_VLLM_DEFAULT_BLOCK_SIZE,
    .enforce_eager = FALSE,
  };
}

void
hr_vllm_memory (const HrModelArch  *arch,
                guint64             ffn_width,
                guint64             device_bytes,
                guint64             weights_bytes_per_device,
                double              kv_bytes_per_token_per_device,
                guint32             tp,
                const HrVllmParams *p,
                HrVllmMemory       *out)
{
  double tokens, seqs, hidden, mlp, sampler, activation, budget, non_torch, left;
  double block_bytes;
  guint32 block_size;

  g_return_if_fail (arch != NULL);
  g_return_if_fail (p != NULL);
  g_return_if_fail (out != NULL);

  *out = (HrVllmMemory) { 0 };

  tp = MAX (tp, 1);
  block_size = MAX (p->block_size, 1);

  /* The profiling run is one forward pass over max_num_batched_tokens
   * tokens spread over at most max_num_seqs sequences (each needs one). */
  tokens = (double) p->max_num_batched_tokens;
  seqs = (double) MIN ((guint64) p->max_num_seqs, p->max_num_batched_tokens);
  hidden = arch->hidden;

  /* Tensor parallelism splits the MLP's intermediate width; the hidden
   * size is replicated and the sampler sees the gathered vocabulary. */
  mlp = tokens * (HR_VLLM_MLP_INTERMEDIATE_COEF * (double) ffn_width / tp +
                  HR_VLLM_MLP_HIDDEN_COEF * hidden) * HR_VLLM_ACTIVATION_BYTES;
  sampler = seqs * (double) arch->vocab * HR_VLLM_SAMPLER_BYTES_PER_LOGIT +
            tokens * hidden * HR_VLLM_ACTIVATION_BYTES;
  activation = MAX (mlp, sampler);

  budget = (double) device_bytes * p->gpu_memory_utilization;
  non_torch = HR_VLLM_NON_TORCH_GIB * HR_GIB;

  /* vLLM 0.6: available_kv_cache_memory = total_gpu_memory ×
   * gpu_memory_utilization − (peak torch memory + non-torch memory),
   * where the torch peak holds the weights and the activations. */
  left = budget - (double) weights_bytes_per_device - activation - non_torch;

  out->budget_bytes = to_bytes (budget);
  out->weights_bytes = weights_bytes_per_device;
  out->activation_peak_bytes = to_bytes (activation);
  out->non_torch_bytes = to_bytes (non_torch);
  out->cuda_graph_bytes = p->enforce_eager ? 0 : to_bytes (HR_VLLM_CUDA_GRAPH_GIB * HR_GIB);
  out->kv_cache_bytes = to_bytes (left);

  block_bytes = (double) block_size * kv_bytes_per_token_per_device;
  if (left > 0 && block_bytes > 0)
    out->kv_blocks = (guint64) floor (left / block_bytes);
  out->kv_capacity_tokens = out->kv_blocks * block_size;
  if (p->max_model_len > 0)
    out->max_concurrency = (double) out->kv_capacity_tokens / (double) p->max_model_len;
}
