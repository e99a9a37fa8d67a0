/* hr-llamacpp-memory.c — the buffers llama.cpp allocates besides the weights
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-llamacpp-memory"

#include "config.h"

#include "hr-llamacpp-memory.h"


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
  HrKvCell cell;
  double cell_bytes, kv, hidden, q_width, kv_width, mask_bytes, masks;
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
  ctx_padded = hr_pad_up (n_ctx, HR_LLAMACPP_CTX_PAD);
  if (p->kv_unified)
    {
      ctx_seq = ctx_padded;
      streams = 1;
    }
  else
    {
      /* llama.cpp refuses a zero share; one padded block is the least a
       * stream can have. */
      ctx_seq = MAX (hr_pad_up (ctx_padded / n_seq, HR_LLAMACPP_CTX_PAD),
                     HR_LLAMACPP_CTX_PAD);
      streams = n_seq;
    }
  cells = ctx_seq;

  /* Sliding-window layers hold the window (of every slot sharing the
   * stream) plus one micro-batch, padded, never more than the full cache
   * (llama_kv_cache_iswa). */
  local = hr_model_arch_local_layers (arch);
  global = hr_model_arch_global_layers (arch);
  swa_cells = 0;
  if (local > 0)
    {
      guint64 window = (guint64) arch->sliding_window * (p->kv_unified ? n_seq : 1);

      swa_cells = p->swa_full ? cells
                              : MIN (cells, hr_pad_up (window + n_ubatch, HR_LLAMACPP_CTX_PAD));
    }

  /* Bytes of one cell of one layer: K and V may have different types;
   * MLA caches the compressed latent and the RoPE key in K and has no V
   * tensor (llama_kv_cache: has_v = !is_mla). */
  cell = hr_model_arch_kv_cell (arch);
  kv_width = cell.k_elements;
  cell_bytes = hr_kv_cell_bytes (cell, p->kv_k_bytes_per_element, p->kv_v_bytes_per_element);

  kv = (double) streams * ((double) global * cells + (double) local * swa_cells) * cell_bytes;

  out->kv_bytes = hr_round_bytes (kv);

  /* The recurrent layers' state: one r and one s row per cell, and
   * llama.cpp reserves one cell per sequence it may hold, mem_size =
   * max (1, n_seq_max) (llama_model::create_memory; the buffers are
   * made in the llama_memory_recurrent constructor, whose log line
   * "size = … (N cells, L layers, N seqs), R (f32) …, S (f32) …" the
   * tests read back).  It does not grow with the context. */
  if (arch->n_state_layers > 0)
    {
      double per_seq = hr_state_bytes_per_sequence (arch, HR_LLAMACPP_STATE_BYTES_PER_ELEMENT,
                                                    HR_LLAMACPP_STATE_BYTES_PER_ELEMENT);

      out->state_cells = n_seq;
      out->state_bytes_per_sequence = hr_round_bytes (per_seq);
      out->state_bytes = hr_round_bytes (per_seq * n_seq);
    }
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

  out->compute_bytes = hr_round_bytes (worst * 4.0 * n_ubatch);

  /* Logits of one output per sequence, reserved up front
   * (llama_context::output_reserve (n_seq_max)); it grows only if a
   * client asks for the logits of every prompt token. */
  out->output_bytes = hr_round_bytes ((double) arch->vocab * 4.0 * n_seq);

  out->host_bytes = token_embd_bytes;
  /* The CPU side builds the embedded micro-batch and the masks before
   * copying them to the device: 24.01 MiB for Llama-3-8B at n_ctx 8192 =
   * 512 × 4096 × 4 B + 8192 × 512 × 4 B (CUDA_Host compute buffer). */
  out->host_compute_bytes = hr_round_bytes ((double) n_ubatch * (4.0 * hidden + ((double) n_kv + n_kv_swa) * mask_bytes));
  out->mask_bytes = hr_round_bytes ((double) n_ubatch * ((double) n_kv + n_kv_swa) * mask_bytes);
  out->reserve_bytes = hr_round_bytes (HR_LLAMACPP_BACKEND_RESERVE_MIB * HR_MIB);
}
