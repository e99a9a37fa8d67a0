/* hr-formulas.c — the arithmetic behind each figure, as a person reads it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lines every profile shares.  Each line is written from the operands
 * the estimate carries, never recomputed here, so the text and the number
 * beside it cannot disagree.
 */

#define G_LOG_DOMAIN "hr-formulas"

#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "hr-formulas.h"
#include "hr-speed.h"

void
hr_formulas_clear (HrFormulas *formulas)
{
  for (guint i = 0; i < HR_N_FORMULAS; i++)
    g_clear_pointer (&formulas->text[i], g_free);
}

void
hr_formulas_set (HrFormulas    *formulas,
                 HrFormulaKind  kind,
                 char          *text)
{
  g_return_if_fail (kind < HR_N_FORMULAS);

  g_free (formulas->text[kind]);
  formulas->text[kind] = text;
}

char *
hr_formulas_size (const HrFormulas *formulas,
                  guint64           bytes)
{
  return hr_format_size (bytes, formulas->units);
}

static const char *
kv_type_text (const HrEstimate *result,
              const HrFormulas *f,
              char            **owned)
{
  if (result->kv_type_ignored)
    /* TRANSLATORS: the cache type asked for is not used: "FP16: Q8_0 needs flash attention" */
    return *owned = g_strdup_printf (_("FP16: %s needs flash attention"),
                                     f->kv_type_label ? f->kv_type_label : "");
  return f->kv_type_label ? f->kv_type_label : "";
}

/**
 * hr_formulas_kv_text:
 * @streams: the sequences (or llama.cpp streams) the cache holds
 *
 * "2 × 2 KV heads × 128 × 40 layers × 32,768 tokens × 1 sequence × 2 B
 * (FP16) = 1.25 GiB", with sliding-window layers and tensor-parallel
 * replication spelt out where they apply.
 */
char *
hr_formulas_kv_text (const HrEstimateInput *input,
                     const HrEstimate      *result,
                     const HrFormulas      *f,
                     guint64                streams)
{
  const HrModelArch *a = input->model;
  guint32 global = hr_model_arch_global_layers (a);
  guint32 local = a->n_layers - global;
  g_autofree char *tokens = hr_format_tokens (result->kv_tokens);
  g_autofree char *kv = hr_formulas_size (f, result->kv_bytes);
  g_autofree char *per_layer = NULL;
  g_autofree char *layer_tokens = NULL;
  g_autofree char *tp = NULL;
  g_autofree char *type_owned = NULL;
  const char *type = kv_type_text (result, f, &type_owned);
  g_autofree char *sequences = hr_format_tokens (streams);

  if (a->attention == HR_ATTENTION_MLA)
    /* TRANSLATORS: MLA caches one latent vector per token and layer */
    per_layer = g_strdup_printf (_("(%u latent + %u RoPE)"), a->kv_lora_rank,
                                 a->qk_rope_head_dim);
  else if (a->head_dim_k == a->head_dim_v)
    per_layer = g_strdup_printf (_("2 × %u KV heads × %u"), a->n_kv_heads, a->head_dim_k);
  else
    per_layer = g_strdup_printf (_("%u KV heads × (%u + %u)"), a->n_kv_heads, a->head_dim_k,
                                 a->head_dim_v);

  if (local > 0 && global > 0)
    {
      g_autofree char *window = hr_format_tokens (result->kv_window_tokens);
      /* TRANSLATORS: global layers hold every token, local ones the window */
      layer_tokens = g_strdup_printf (_("(%u global layers × %s + %u sliding-window layers "
                                        "× %s tokens)"), global, tokens, local, window);
    }
  else if (local > 0)
    {
      g_autofree char *window = hr_format_tokens (result->kv_window_tokens);
      layer_tokens = g_strdup_printf (_("%u sliding-window layers × %s tokens"), local, window);
    }
  else
    layer_tokens = g_strdup_printf (_("%u layers × %s tokens"), a->n_layers, tokens);

  if (input->n_gpus > 1 && result->kv_replicated)
    /* TRANSLATORS: tensor parallelism with fewer KV heads than devices */
    tp = g_strdup_printf (_(", held %u KV head(s) per device on %u devices"),
                          result->kv_heads_per_device, input->n_gpus);

  /* TRANSLATORS: the KV cache formula with numbers, e.g.
   * "2 × 2 KV heads × 128 × 40 layers × 32,768 tokens × 1 sequence(s) × 2 B (FP16) = 1.25 GiB" */
  return g_strdup_printf (_("%s × %s × %s sequence(s) × %g B (%s)%s = %s"),
                          per_layer, layer_tokens, sequences, result->kv_bytes_per_element, type,
                          tp ? tp : "", kv);
}

void
hr_formulas_set_engine_weights (const HrEstimateInput *input,
                                const HrEstimate      *result,
                                HrFormulas            *f)
{
  g_autofree char *weights = hr_formulas_size (f, result->weights_bytes);
  g_autofree char *nominal = hr_formulas_nominal_weights (input, result, f);

  /* TRANSLATORS: "4.92 GiB tensor by tensor, as the engine loads them (nominal: …)" */
  hr_formulas_set (f, HR_FORMULA_WEIGHTS,
                   g_strdup_printf (_("%s tensor by tensor, as the engine loads them "
                                      "(nominal: %s)"), weights, nominal));
}

/* "9.4B parameters × 4.85 bits ÷ 8 = 5.31 GiB" */
char *
hr_formulas_nominal_weights (const HrEstimateInput *input,
                             const HrEstimate      *result,
                             const HrFormulas      *f)
{
  const HrModelArch *a = input->model;
  g_autofree char *params = hr_format_params (a->params_total);
  g_autofree char *weights = hr_formulas_size (f, result->nominal_weights_bytes);

  if (a->params_active < a->params_total)
    {
      g_autofree char *active = hr_format_params (a->params_active);
      /* TRANSLATORS: weights formula for a mixture of experts */
      return g_strdup_printf (_("%s parameters × %.2f bits ÷ 8 = %s — every expert stays "
                                "resident; %s are read per token"),
                              params, input->bpw, weights, active);
    }
  /* TRANSLATORS: "9.4B parameters × 4.85 bits ÷ 8 = 5.31 GiB" */
  return g_strdup_printf (_("%s parameters × %.2f bits ÷ 8 = %s"), params, input->bpw, weights);
}

static char *
total_text (const HrEstimateInput *input,
            const HrEstimate      *r,
            const HrFormulas      *f)
{
  g_autofree char *weights_dev = hr_formulas_size (f, r->per_device_weights_bytes);
  g_autofree char *kv_dev = hr_formulas_size (f, r->per_device_kv_bytes);
  g_autofree char *overhead = hr_formulas_size (f, r->per_device_overhead_bytes);
  g_autofree char *per_device = hr_formulas_size (f, r->per_device_bytes);
  g_autofree char *total = hr_formulas_size (f, r->total_bytes);
  g_autofree char *text = NULL;

  /* TRANSLATORS: "5.31 GiB + 1.25 GiB + 1.30 GiB = 7.86 GiB per device; 7.86 GiB on 1 device(s)" */
  text = g_strdup_printf (_("%s + %s + %s = %s per device; %s on %u device(s)"),
                          weights_dev, kv_dev, overhead, per_device, total, input->n_gpus);
  if (r->host_weights_bytes > 0)
    {
      g_autofree char *host = hr_formulas_size (f, r->host_weights_bytes);
      g_autofree char *sentence = g_steal_pointer (&text);
      guint cpu_layers = r->layer_count - MIN (r->gpu_layers, r->layer_count);

      if (cpu_layers > 0)
        /* TRANSLATORS: the total counts weights kept in system RAM: the
         * token embeddings and the layers llama.cpp leaves to the CPU */
        text = g_strdup_printf (ngettext ("%s, of which %s of weights (the token embeddings "
                                          "and %u layer) stay in system RAM",
                                          "%s, of which %s of weights (the token embeddings "
                                          "and %u layers) stay in system RAM", cpu_layers),
                                sentence, host, cpu_layers);
      else if (r->placement == HR_PLACEMENT_PARTIAL)
        /* TRANSLATORS: the total counts weights kept in system RAM: the
         * token embeddings and the MoE experts kept there (--n-cpu-moe) */
        text = g_strdup_printf (_("%s, of which %s of weights (the token embeddings and "
                                  "experts) stay in system RAM"), sentence, host);
      else
        /* TRANSLATORS: the total counts weights kept in system RAM, not on the GPUs */
        text = g_strdup_printf (_("%s, of which %s of weights (the token embeddings) stay in "
                                  "system RAM"), sentence, host);
    }
  return g_steal_pointer (&text);
}

static char *
usable_text (const HrEstimateInput *input,
             const HrEstimate      *r,
             const HrFormulas      *f)
{
  g_autofree char *memory = hr_formulas_size (f, input->device->memory_bytes);
  g_autofree char *usable = hr_formulas_size (f, r->usable_bytes);

  if (input->device->kind == HR_DEVICE_UNIFIED)
    /* TRANSLATORS: "64.00 GiB × 75 % that macOS lets the GPU use = 48.00 GiB" */
    return g_strdup_printf (_("%s × %.0f %% that macOS lets the GPU use = %s"), memory,
                            hr_device_unified_share (input->device) * 100, usable);
  /* TRANSLATORS: "12.00 GiB − 0.19 GiB for driver and display = 11.81 GiB" */
  return g_strdup_printf (_("%s − %.2f GiB for driver and display = %s"), memory,
                          HR_DISCRETE_RESERVE_GIB, usable);
}

static char *
mha_text (const HrEstimateInput *input,
          const HrEstimate      *r,
          const HrFormulas      *f)
{
  const HrModelArch *a = input->model;
  g_autofree char *tokens = hr_format_tokens (input->context);
  g_autofree char *mha = hr_formulas_size (f, r->kv_mha_bytes);
  g_autofree char *saving = hr_format_percent (r->kv_savings, 1);

  /* TRANSLATORS: the multi-head baseline of the KV saving */
  return g_strdup_printf (_("%u heads × (%u + %u) × %u layers × %s tokens × 2 B = %s; "
                            "this model’s cache is %s smaller"),
                          a->n_heads, a->head_dim_k, a->head_dim_v, a->n_layers, tokens,
                          mha, saving);
}

static char *
decode_text (const HrEstimateInput *input,
             const HrEstimate      *r,
             const HrFormulas      *f)
{
  g_autofree char *rate = hr_format_rate (r->decode_tokens_per_s);
  g_autofree char *depth = NULL;
  double stream = r->decode_gpu_seconds - r->decode_cache_seconds;
  double total = 1.0 / r->decode_tokens_per_s;

  if (r->prefill_tokens_per_s <= 0)
    /* TRANSLATORS: "7.04 GB read per token ÷ (75 % × 360 GB/s) + 1.2 ms = 36.7 tok/s" */
    return g_strdup_printf (_("%.2f GB read per token ÷ (%.0f %% × %.0f GB/s) + %.1f ms = %s"),
                            r->bytes_per_token / HR_GB, r->decode_efficiency * 100,
                            input->device->bandwidth_gbps, r->decode_fixed_seconds * 1e3, rate);

  /* The speed model's parts (hr-speed.h). */
  depth = hr_format_tokens (input->context);
  if (r->decode_cpu_seconds > 0)
    /* TRANSLATORS: a token's time by part; "%.0f %%" is the share of the
     * bandwidth the weights stream at */
    return g_strdup_printf (_("weights %.2f ms (at %.0f %% of %.0f GB/s) + cache at %s tokens "
                              "%.2f ms + kernels and hand-offs %.2f ms + layers in system RAM "
                              "%.2f ms = %.2f ms a token = %s"),
                            stream * 1e3, r->decode_efficiency * 100,
                            input->device->bandwidth_gbps, depth, r->decode_cache_seconds * 1e3,
                            r->decode_fixed_seconds * 1e3, r->decode_cpu_seconds * 1e3,
                            total * 1e3, rate);
  /* TRANSLATORS: a token's time by part; "%.0f %%" is the share of the
   * bandwidth the weights stream at */
  return g_strdup_printf (_("weights %.2f ms (at %.0f %% of %.0f GB/s) + cache at %s tokens "
                            "%.2f ms + kernels and hand-offs %.2f ms = %.2f ms a token = %s"),
                          stream * 1e3, r->decode_efficiency * 100,
                          input->device->bandwidth_gbps, depth, r->decode_cache_seconds * 1e3,
                          r->decode_fixed_seconds * 1e3, total * 1e3, rate);
}

static char *
prompt_text (const HrEstimateInput *input,
             const HrEstimate      *r,
             const HrFormulas      *f)
{
  g_autofree char *prompt = NULL;
  g_autofree char *rate = NULL;
  g_autofree char *answer = NULL;
  double flops;

  if (r->prefill_tokens_per_s <= 0)
    return NULL;
  prompt = hr_format_tokens (r->prompt_tokens);
  rate = hr_format_rate (r->prefill_tokens_per_s);
  answer = hr_format_tokens (r->generate_tokens);
  flops = hr_speed_matrix_flops (input->device);

  /* The products alone, which a reader can redo, then the whole prompt:
   * attention grows with the depth, and layers in system RAM cost their
   * copies or the CPU's time (hr_speed_prefill_seconds()). */
  if (r->decode_cpu_seconds > 0)
    /* TRANSLATORS: "2 × 3.4 G active weights × 32,768 tokens ÷ 39 TFLOPS
     * usable = 5.7 s of products; with attention and the layers in system
     * RAM, 123.10 s (266.2 tok/s); first token after 123.17 s; 512 tokens
     * of answer in 36.9 s" */
    return g_strdup_printf (_("2 × %.1f G active weights × %s tokens ÷ %.0f TFLOPS usable = "
                              "%.1f s of products; with attention and the layers in system "
                              "RAM, %.2f s (%s); first token after %.2f s; %s tokens of "
                              "answer in %.1f s"),
                            input->model->params_active / 1e9, prompt, flops / 1e12,
                            2 * input->model->params_active * r->prompt_tokens / flops,
                            r->prompt_tokens / r->prefill_tokens_per_s, rate, r->ttft_seconds,
                            answer, r->generation_seconds);
  /* TRANSLATORS: "2 × 7.0 G active weights × 8,192 tokens ÷ 150 TFLOPS
   * usable = 0.8 s of products; with attention, 2.08 s (3,932 tok/s);
   * first token after 2.09 s; 512 tokens of answer in 5.4 s" */
  return g_strdup_printf (_("2 × %.1f G active weights × %s tokens ÷ %.0f TFLOPS usable = "
                            "%.1f s of products; with attention, %.2f s (%s); first token "
                            "after %.2f s; %s tokens of answer in %.1f s"),
                          input->model->params_active / 1e9, prompt, flops / 1e12,
                          2 * input->model->params_active * r->prompt_tokens / flops,
                          r->prompt_tokens / r->prefill_tokens_per_s, rate, r->ttft_seconds,
                          answer, r->generation_seconds);
}

void
hr_formulas_write_common (const HrEstimateInput *input,
                          const HrEstimate      *result,
                          HrFormulas            *f)
{
  hr_formulas_set (f, HR_FORMULA_TOTAL, total_text (input, result, f));
  hr_formulas_set (f, HR_FORMULA_USABLE, usable_text (input, result, f));
  hr_formulas_set (f, HR_FORMULA_MHA, mha_text (input, result, f));
  hr_formulas_set (f, HR_FORMULA_DECODE, decode_text (input, result, f));
  hr_formulas_set (f, HR_FORMULA_PROMPT, prompt_text (input, result, f));
}
