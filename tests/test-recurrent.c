/* test-recurrent.c — layers that keep a recurrent state instead of a KV cache
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The state widths of each kind (llama.cpp's n_embd_r()/n_embd_s()), the
 * KV cache of the attention layers only, and llama.cpp's recurrent
 * buffers against published load logs (tests/data/logs/, each with its
 * source URL): R and S exact to the 0.01 MiB llama.cpp prints.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "hr-llamacpp-memory.h"
#include "hr-vllm-memory.h"
#include "hr-model-spec.h"
#include "hr-scenario.h"
#include "hr-test-util.h"

#define MIB ((double) (1u << 20))

static HrCatalog *catalog;

/* Qwen3-Next-80B-A3B's shape (its config.json; llama.cpp prints the same
 * hparams in https://github.com/ggml-org/llama.cpp/issues/17578). */
static const HrModelArch qwen3_next = {
  .attention = HR_ATTENTION_GQA, .n_layers = 48, .hidden = 2048, .n_heads = 16,
  .n_kv_heads = 2, .head_dim_k = 256, .head_dim_v = 256, .vocab = 151936,
  .max_context = 262144, .params_total = 79674391296.0, .params_active = 3874929408.0,
  .state_kind = HR_STATE_GATED_DELTANET, .n_state_layers = 36,
  .ssm_conv_kernel = 4, .ssm_inner = 4096, .ssm_state = 128, .ssm_groups = 16,
};

/* Widths of one layer's state, kind by kind, as llama-hparams.cpp
 * computes them. */
static void
test_state_cells (void)
{
  HrModelArch a = qwen3_next;
  HrStateCell c;

  /* Gated DeltaNet: r = 3 × (4096 + 2 × 16 × 128), s = 128 × 4096 */
  c = hr_model_arch_state_cell (&a);
  g_assert_cmpfloat (c.conv_elements, ==, 24576);
  g_assert_cmpfloat (c.ssm_elements, ==, 524288);

  /* Mamba (1): no groups, r = (d_conv − 1) × d_inner; Falcon-Mamba-7B's
   * d_inner 8192, d_state 16 */
  a.state_kind = HR_STATE_MAMBA;
  a.ssm_inner = 8192;
  a.ssm_state = 16;
  a.ssm_groups = 0;
  c = hr_model_arch_state_cell (&a);
  g_assert_cmpfloat (c.conv_elements, ==, 3 * 8192);
  g_assert_cmpfloat (c.ssm_elements, ==, 16 * 8192);

  /* Mamba2 with B/C groups (Granite-4.0-H-Small: d_inner 8192, d_state
   * 128, one group): r = 3 × (8192 + 2 × 128), s = 128 × 8192 */
  a.ssm_inner = 8192;
  a.ssm_state = 128;
  a.ssm_groups = 1;
  c = hr_model_arch_state_cell (&a);
  g_assert_cmpfloat (c.conv_elements, ==, 3 * (8192 + 2 * 128));
  g_assert_cmpfloat (c.ssm_elements, ==, 128 * 8192);
  a.ssm_groups = 0;

  /* RWKV: two shifted tokens of n_embd, and n_embd × head size */
  a.state_kind = HR_STATE_RWKV;
  a.ssm_state = 64;
  c = hr_model_arch_state_cell (&a);
  g_assert_cmpfloat (c.conv_elements, ==, 2 * 2048);
  g_assert_cmpfloat (c.ssm_elements, ==, 2048 * 64);

  /* LFM2: n_embd × (L_cache − 1), no s (L_cache 3 in LFM2's config) */
  a.state_kind = HR_STATE_SHORT_CONV;
  a.ssm_conv_kernel = 3;
  c = hr_model_arch_state_cell (&a);
  g_assert_cmpfloat (c.conv_elements, ==, 2048 * 2);
  g_assert_cmpfloat (c.ssm_elements, ==, 0);
}

/* A layer pattern gives each layer's kind: the cache is the '*' layers',
 * the state the 'M' layers'; '-' layers (Nemotron-H's MLPs) keep
 * neither. */
static void
test_layer_pattern (void)
{
  HrModelArch a = qwen3_next;
  g_autoptr(GError) error = NULL;

  a.n_layers = 8;
  a.n_state_layers = 4;
  a.state_kind = HR_STATE_MAMBA;
  g_assert_true (hr_model_arch_set_layer_pattern (&a, "M-M*-M-M", NULL));
  g_assert_true (hr_model_arch_validate (&a, NULL));
  g_assert_cmpuint (hr_model_arch_kv_layers (&a), ==, 1);
  g_assert_true (hr_model_arch_layer_attends (&a, 3));
  g_assert_false (hr_model_arch_layer_attends (&a, 1));
  g_assert_false (hr_model_arch_layer_is_recurrent (&a, 1));
  g_assert_true (hr_model_arch_layer_is_recurrent (&a, 7));

  /* the pattern must agree with the counts */
  a.n_state_layers = 5;
  g_assert_false (hr_model_arch_validate (&a, &error));
  g_assert_nonnull (strstr (error->message, "4 recurrent layers"));
  g_clear_error (&error);
  a.n_state_layers = 4;
  g_assert_true (hr_model_arch_set_layer_pattern (&a, "M-M*-M-", NULL));
  g_assert_false (hr_model_arch_validate (&a, &error));
  g_assert_nonnull (strstr (error->message, "7 layers, not 8"));
  g_clear_error (&error);
  g_assert_true (hr_model_arch_set_layer_pattern (&a, "M-M*-M-X", NULL));
  g_assert_false (hr_model_arch_validate (&a, NULL));

  /* no longer than the pattern kept */
  {
    g_autofree char *long_pattern = g_strnfill (HR_LAYER_PATTERN_MAX + 1, 'M');

    g_assert_false (hr_model_arch_set_layer_pattern (&a, long_pattern, &error));
    g_assert_nonnull (error);
  }
}

/* The cache is the attention layers' only: 12 of Qwen3-Next's 48. */
static void
test_kv_attention_layers_only (void)
{
  HrModelArch a = qwen3_next;

  g_assert_cmpuint (hr_model_arch_kv_layers (&a), ==, 12);
  g_assert_cmpuint (hr_model_arch_global_layers (&a), ==, 12);
  /* 12 layers × 2 heads × 256 × (K + V) × 2 B = 24 KiB per token */
  g_assert_cmpfloat (hr_kv_bytes_per_token (&a, 2.0), ==, 12 * 2 * 256 * 2 * 2);

  /* Falcon-H1 runs attention beside the SSM: every layer has both */
  a.state_parallel = TRUE;
  a.state_kind = HR_STATE_MAMBA;
  a.n_state_layers = 48;
  g_assert_cmpuint (hr_model_arch_kv_layers (&a), ==, 48);

  /* a pure recurrent model has no cache at all */
  a.state_parallel = FALSE;
  g_assert_cmpuint (hr_model_arch_kv_layers (&a), ==, 0);
  g_assert_cmpfloat (hr_kv_bytes (&a, 32768, 1, 2.0), ==, 0);
}

static void
test_validate (void)
{
  HrModelArch a = qwen3_next;
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_model_arch_validate (&a, NULL));
  a.n_state_layers = 49;
  g_assert_false (hr_model_arch_validate (&a, &error));
  g_assert_nonnull (strstr (error->message, "recurrent layers exceed"));
  g_clear_error (&error);

  a.n_state_layers = 36;
  a.ssm_inner = 0;
  g_assert_false (hr_model_arch_validate (&a, &error));
  g_clear_error (&error);

  a = qwen3_next;
  a.state_kind = HR_STATE_NONE;
  g_assert_false (hr_model_arch_validate (&a, &error));
}

/* ------------------------------------------------------------ logs */

typedef struct
{
  HrModelArch arch;
  guint32 seqs;
  guint32 log_cells, log_layers, log_seqs;
  double r_mib, s_mib, size_mib;
} RecurrentLog;

static guint
hparam (const char *line,
        const char *key)
{
  g_autofree char *needle = g_strconcat (" ", key, "=", NULL);
  const char *at = strstr (line, needle);

  g_assert_nonnull (at);
  return (guint) g_ascii_strtoull (at + strlen (needle), NULL, 10);
}

/* Reads the hparams line the file states and llama.cpp's own line
 * "size = … MiB (N cells, L layers, S seqs …), R (f32): … MiB, S (f32):
 * … MiB". */
static void
read_log (const char   *name,
          RecurrentLog *log)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "logs", name, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean have_hparams = FALSE, have_size = FALSE;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "# source: https://"));
  lines = g_strsplit (text, "\n", -1);
  memset (log, 0, sizeof *log);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *at;

      if (g_str_has_prefix (line, "# hparams:"))
        {
          guint period = hparam (line, "period");

          log->arch = qwen3_next;
          log->arch.n_layers = hparam (line, "layers");
          log->arch.n_state_layers = log->arch.n_layers - log->arch.n_layers / period;
          log->arch.ssm_conv_kernel = hparam (line, "conv");
          log->arch.ssm_inner = hparam (line, "inner");
          log->arch.ssm_state = hparam (line, "state");
          log->arch.ssm_groups = hparam (line, "groups");
          log->seqs = hparam (line, "seqs");
          have_hparams = TRUE;
        }
      else if ((at = strstr (line, "llama_memory_recurrent: size =")) != NULL)
        {
          g_assert_cmpint (sscanf (at, "llama_memory_recurrent: size = %lf MiB ( %u cells, %u "
                                   "layers, %u seqs", &log->size_mib, &log->log_cells,
                                   &log->log_layers, &log->log_seqs), ==, 4);
          at = strstr (at, "R (f32):");
          g_assert_nonnull (at);
          g_assert_cmpint (sscanf (at, "R (f32): %lf MiB, S (f32): %lf MiB", &log->r_mib,
                                   &log->s_mib), ==, 2);
          have_size = TRUE;
        }
    }
  g_assert_true (have_hparams);
  g_assert_true (have_size);
}

static void
assert_mib (double      bytes,
            double      logged_mib)
{
  g_autofree char *ours = g_strdup_printf ("%.2f", bytes / MIB);
  g_autofree char *theirs = g_strdup_printf ("%.2f", logged_mib);

  g_assert_cmpstr (ours, ==, theirs);
}

static void
test_log (gconstpointer data)
{
  RecurrentLog log;
  HrLlamaCppParams p;
  HrLlamaCppMemory m;
  HrStateCell cell;
  double rows;

  read_log (data, &log);
  g_assert_true (hr_model_arch_validate (&log.arch, NULL));
  g_assert_cmpuint (log.log_layers, ==, log.arch.n_layers);
  g_assert_cmpuint (log.log_seqs, ==, log.seqs);

  hr_llamacpp_params_init_default (&p);
  p.n_seq = log.seqs;
  hr_llamacpp_memory (&log.arch, 5120, 0, 4096, &p, &m);

  /* one cell per sequence */
  g_assert_cmpuint (m.state_cells, ==, log.log_cells);
  /* R and S apart, then the total, as llama.cpp prints them */
  cell = hr_model_arch_state_cell (&log.arch);
  rows = (double) m.state_cells * log.arch.n_state_layers;
  assert_mib (cell.conv_elements * 4.0 * rows, log.r_mib);
  assert_mib (cell.ssm_elements * 4.0 * rows, log.s_mib);
  assert_mib ((double) m.state_bytes, log.size_mib);
  g_assert_cmpuint (m.state_bytes_per_sequence * log.seqs, ==, m.state_bytes);
}

/* A whole estimate of the catalog's Qwen3-Next: the cache of 12 layers,
 * the state of 36 for each of llama-server's slots, both in the total and
 * on the device. */
static void
test_estimate_qwen3_next (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "Qwen/Qwen3-Next-80B-A3B-Instruct"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb"),
    .context = 32768, .batch = 1, .engine = HR_ENGINE_LLAMACPP, .gpus = 1,
  };
  HrEstimate e;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (s.model);
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  /* 12 layers × 32,768 cells × 2 × 512 × 2 B = 768 MiB, not 3 GiB */
  g_assert_cmpuint (e.kv_bytes, ==, 768 * (guint64) MIB);
  /* 36 × (24,576 + 524,288) × 4 B = 75.375 MiB per sequence */
  g_assert_cmpuint (e.state_bytes_per_sequence, ==, 79036416);
  g_assert_cmpuint (e.state_bytes, ==, 79036416);
  g_assert_cmpuint (e.devices[0].state_bytes, ==, e.state_bytes);
  g_assert_cmpuint (e.total_bytes, ==, e.weights_bytes + e.kv_bytes + e.state_bytes +
                                       e.overhead_bytes);
  g_assert_cmpuint (e.devices[0].total_bytes, ==, e.devices[0].weights_bytes +
                                                  e.devices[0].kv_bytes +
                                                  e.devices[0].state_bytes +
                                                  e.devices[0].compute_bytes);
  /* the state does not grow with the context */
  s.context = 131072;
  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_cmpuint (e.kv_bytes, ==, 4 * 768 * (guint64) MIB);
  g_assert_cmpuint (e.state_bytes, ==, 79036416);
}

/* vLLM's hybrid page rule against the block sizes vLLM printed for
 * NVIDIA-Nemotron-3-Nano-30B-A3B-FP8 with --block-size 32 (FP8 cache,
 * 2 KV heads of 128; state page 2,134,016 B at TP 1, 533,504 B at TP 4:
 * https://github.com/vllm-project/vllm/issues/41037): 4192 and 2112
 * tokens.  And Qwen3-Next in BF16 at TP 1: a 1,097,728 B state page
 * (3 × 8192 × 2 + 32 × 128 × 128 × 2) over 2,048 B per token. */
static void
test_vllm_hybrid_pages (void)
{
  double page;

  g_assert_cmpuint (hr_vllm_hybrid_block_size (2 * 128 * 2 * 1.0, 2134016, 32, &page), ==, 4192);
  g_assert_cmpfloat (page, ==, 4192.0 * 512);
  g_assert_cmpuint (hr_vllm_hybrid_block_size (1 * 128 * 2 * 1.0, 533504, 32, &page), ==, 2112);

  /* the default --block-size 16 */
  g_assert_cmpuint (hr_vllm_hybrid_block_size (2048, 3 * 8192 * 2 + 32 * 128 * 128 * 2, 16,
                                               &page), ==, 544);
  g_assert_cmpfloat (page, ==, 1114112);
  /* and the same widths from the model's state cell */
  {
    HrStateCell c = hr_model_arch_state_cell (&qwen3_next);

    g_assert_cmpfloat ((c.conv_elements + c.ssm_elements) * 2, ==, 3 * 8192 * 2 + 32 * 128 * 128 * 2);
  }
}

/* The vLLM estimate of a hybrid: its state pages come out of the pool
 * beside the KV blocks, and everything stays within the budget. */
static void
test_estimate_vllm (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "Qwen/Qwen3-Next-80B-A3B-Instruct"),
    .precision = hr_catalog_find_precision (catalog, "fp8"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb"),
    .context = 32768, .batch = 1, .engine = HR_ENGINE_VLLM, .gpus = 2,
  };
  HrEstimate e;
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  /* TP 2: one KV head per GPU, 1,024 B a token; the state page 548,864 B
   * → blocks of 16 × 34 = 544 tokens, pages of 557,056 B, 36 layers */
  g_assert_cmpuint (e.block_size, ==, 544);
  g_assert_cmpuint (e.per_device_state_bytes, ==, 557056 * 36);
  g_assert_cmpuint (e.state_bytes, ==, 2 * 557056 * 36);
  g_assert_cmpuint (e.per_device_bytes, <=, e.budget_bytes);
}

/* SGLang: the pool left after the weights is split mamba : KV = 0.9 : 1
 * (--mamba-full-memory-ratio); a state is the BF16 convolution window and
 * the F32 SSM state: 36 × (24,576 × 2 + 524,288 × 4) = 77,266,944 B. */
static void
test_estimate_sglang (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "Qwen/Qwen3-Next-80B-A3B-Instruct"),
    .precision = hr_catalog_find_precision (catalog, "fp8"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb"),
    .context = 32768, .batch = 1, .engine = HR_ENGINE_SGLANG, .gpus = 2,
  };
  HrEstimate e;
  double share;

  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_cmpuint (e.state_bytes_per_sequence, ==, 77266944);
  share = (double) e.per_device_state_bytes /
          (double) (e.per_device_state_bytes + e.per_device_kv_bytes);
  g_assert_cmpfloat_with_epsilon (share, 0.9 / 1.9, 1e-3);
  g_assert_cmpuint (e.per_device_bytes, <=, e.usable_bytes);
}

/* llama.cpp's own reading of a Granite-4.0-H GGUF (its print_info
 * lines, tests/data/logs/, each with its source) against the catalog
 * entry: the Mamba2 widths, the shared MLP, the vocabulary, and the
 * parameters to the 0.01 B llama.cpp prints (the recipe enumerates
 * exactly the catalog's count: test-weights). */
typedef struct
{
  const char *log;
  const char *model;
} PrintInfoCase;

static double
print_info_value (const char *text,
                  const char *key)
{
  g_autofree char *needle = g_strdup_printf ("print_info: %s", key);
  const char *at = strstr (text, needle);

  g_assert_nonnull (at);
  at = strchr (at, '=');
  g_assert_nonnull (at);
  return g_ascii_strtod (at + 1, NULL);
}

static void
test_print_info (gconstpointer data)
{
  const PrintInfoCase *c = data;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "logs", c->log, NULL);
  g_autofree char *text = NULL;
  HrModelSpec *model = hr_catalog_find_model (catalog, c->model);
  const HrModelArch *a;
  g_autofree char *ours = NULL;
  g_autofree char *theirs = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "# source: https://"));
  g_assert_nonnull (model);
  a = hr_model_spec_get_arch (model);

  g_assert_cmpfloat (print_info_value (text, "ssm_d_conv"), ==, a->ssm_conv_kernel);
  g_assert_cmpfloat (print_info_value (text, "ssm_d_inner"), ==, a->ssm_inner);
  g_assert_cmpfloat (print_info_value (text, "ssm_d_state"), ==, a->ssm_state);
  g_assert_cmpfloat (print_info_value (text, "ssm_dt_rank"), ==, a->ssm_heads);
  g_assert_cmpfloat (print_info_value (text, "ssm_n_group"), ==, a->ssm_groups);
  g_assert_cmpfloat (print_info_value (text, "n_ff_shexp"), ==,
                     hr_model_spec_get_intermediate (model));
  g_assert_cmpfloat (print_info_value (text, "n_vocab"), ==, a->vocab);
  g_assert_cmpfloat (print_info_value (text, "n_ctx_orig_yarn"), ==, a->max_context);
  ours = g_strdup_printf ("%.2f", a->params_total / 1e9);
  theirs = g_strdup_printf ("%.2f", print_info_value (text, "model params"));
  g_assert_cmpstr (ours, ==, theirs);
}

/* A whole llama.cpp estimate of Granite-4.0-H-Small: the cache of its 4
 * attention layers, the Mamba2 state of the other 36 per sequence. */
static void
test_estimate_granite (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "ibm-granite/granite-4.0-h-small"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb"),
    .context = 32768, .batch = 1, .engine = HR_ENGINE_LLAMACPP, .gpus = 1,
  };
  HrEstimate e;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (s.model);
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  /* 4 layers × 32,768 cells × 2 × 8 heads × 128 × 2 B = 512 MiB */
  g_assert_cmpuint (e.kv_bytes, ==, 512 * (guint64) MIB);
  /* 36 × (3 × 8,448 + 128 × 8,192) × 4 B = 147.48 MiB per sequence */
  g_assert_cmpuint (e.state_bytes_per_sequence, ==, 154644480);
  g_assert_cmpuint (e.state_bytes, ==, 154644480);
  g_assert_cmpuint (e.total_bytes, ==, e.weights_bytes + e.kv_bytes + e.state_bytes +
                                       e.overhead_bytes);
}

/* vLLM and SGLang split a Mamba2 state tp ways after replicating the
 * B/C groups tp does not divide (extra_groups_for_head_shards):
 * Granite-4.0-H-Small's one group becomes two at TP 2. */
static void
test_state_cell_tp (void)
{
  HrModelSpec *model = hr_catalog_find_model (catalog, "ibm-granite/granite-4.0-h-small");
  HrStateCell c;

  g_assert_nonnull (model);
  c = hr_model_arch_state_cell_tp (hr_model_spec_get_arch (model), 1);
  g_assert_cmpfloat (c.conv_elements, ==, 3 * (8192 + 2 * 128));
  c = hr_model_arch_state_cell_tp (hr_model_spec_get_arch (model), 2);
  g_assert_cmpfloat (c.conv_elements, ==, 3 * (8192 + 2 * 2 * 128) / 2);
  g_assert_cmpfloat (c.ssm_elements, ==, 128 * 8192 / 2);
  /* Gated DeltaNet has no groups to replicate */
  c = hr_model_arch_state_cell_tp (&qwen3_next, 2);
  g_assert_cmpfloat (c.conv_elements, ==, 24576 / 2);
}

/* Granite-4.0-H-Small in vLLM at TP 2: a state page of (13,056 +
 * 524,288) × 2 B = 1,074,688 B over 2,048 B of cache per token → blocks
 * of 16 × 33 = 528 tokens, pages of 1,081,344 B, 36 layers; in SGLang
 * the BF16 window and the F32 state, 36 × (13,056 × 2 + 524,288 × 4) B
 * on each GPU. */
static void
test_estimate_granite_servers (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "ibm-granite/granite-4.0-h-small"),
    .precision = hr_catalog_find_precision (catalog, "fp8"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb"),
    .context = 32768, .batch = 1, .engine = HR_ENGINE_VLLM, .gpus = 2,
  };
  HrEstimate e;
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (e.block_size, ==, 528);
  g_assert_cmpuint (e.per_device_state_bytes, ==, 1081344 * 36);

  s.engine = HR_ENGINE_SGLANG;
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (e.state_bytes_per_sequence, ==, 2 * 36 * (13056 * 2 + 524288 * 4));
}

/* NVIDIA-Nemotron-Nano-9B-v2 in llama.cpp: the cache of 4 attention
 * layers of 56, the Mamba2 state of 27 (the 25 MLP layers keep neither):
 * 27 × (3 × (10,240 + 2 × 8 × 128) + 128 × 10,240) × 4 B per sequence,
 * R 3.80 MiB and S 135.00 MiB as llama.cpp would print them. */
static void
test_estimate_nemotron_h (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "nvidia/NVIDIA-Nemotron-Nano-9B-v2"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb"),
    .context = 32768, .batch = 1, .engine = HR_ENGINE_LLAMACPP, .gpus = 1,
  };
  HrEstimate e;
  HrStateCell cell;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (s.model);
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  /* 4 layers × 32,768 cells × 2 × 8 heads × 128 × 2 B = 512 MiB */
  g_assert_cmpuint (e.kv_bytes, ==, 512 * (guint64) MIB);
  g_assert_cmpuint (e.state_bytes_per_sequence, ==, 27 * (3 * 12288 + 128 * 10240) * 4);
  cell = hr_model_arch_state_cell (hr_model_spec_get_arch (s.model));
  assert_mib (cell.conv_elements * 4 * 27, 3.80);
  assert_mib (cell.ssm_elements * 4 * 27, 135.00);
}

/* LFM2-1.2B in llama.cpp: the cache of its 6 attention layers, and of
 * its 10 short convolutions only the last two inputs of 2,048 channels
 * (n_embd_r = n_embd × (l_cache − 1), no s): 10 × 4,096 × 4 B = 160 KiB
 * a sequence. */
static void
test_estimate_lfm2 (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "LiquidAI/LFM2-1.2B"),
    .precision = hr_catalog_find_precision (catalog, "q8_0"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb"),
    .context = 32768, .batch = 1, .engine = HR_ENGINE_LLAMACPP, .gpus = 1,
  };
  HrEstimate e;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (s.model);
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  /* 6 layers × 32,768 cells × 2 × 8 heads × 64 × 2 B = 384 MiB */
  g_assert_cmpuint (e.kv_bytes, ==, 384 * (guint64) MIB);
  g_assert_cmpuint (e.state_bytes_per_sequence, ==, 10 * 2048 * 2 * 4);
}

/* Falcon-H1-1.5B-Instruct in llama.cpp: attention and Mamba2 side by
 * side, so all 24 layers keep a cache and a state: 24 × (3 × (3,072 +
 * 2 × 256) + 256 × 3,072) × 4 B a sequence. */
static void
test_estimate_falcon_h1 (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "tiiuae/Falcon-H1-1.5B-Instruct"),
    .precision = hr_catalog_find_precision (catalog, "q8_0"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb"),
    .context = 32768, .batch = 1, .engine = HR_ENGINE_LLAMACPP, .gpus = 1,
  };
  HrEstimate e;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (s.model);
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  /* 24 layers × 32,768 cells × 2 × 2 heads × 128 × 2 B = 768 MiB */
  g_assert_cmpuint (e.kv_bytes, ==, 768 * (guint64) MIB);
  g_assert_cmpuint (e.state_bytes_per_sequence, ==, 24 * (3 * 3584 + 256 * 3072) * 4);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  catalog = hr_test_builtin_catalog ();

  g_test_add_func ("/recurrent/state-cells", test_state_cells);
  g_test_add_func ("/recurrent/kv-attention-only", test_kv_attention_layers_only);
  g_test_add_func ("/recurrent/validate", test_validate);
  g_test_add_func ("/recurrent/layer-pattern", test_layer_pattern);
  g_test_add_data_func ("/recurrent/logs/llamacpp-qwen35", "llamacpp-recurrent-qwen35.log",
                        test_log);
  g_test_add_data_func ("/recurrent/logs/llamacpp-64l-2seq", "llamacpp-recurrent-64l-2seq.log",
                        test_log);
  g_test_add_func ("/recurrent/estimate/qwen3-next", test_estimate_qwen3_next);
  g_test_add_func ("/recurrent/estimate/granite", test_estimate_granite);
  g_test_add_func ("/recurrent/estimate/nemotron-h", test_estimate_nemotron_h);
  g_test_add_func ("/recurrent/estimate/lfm2", test_estimate_lfm2);
  g_test_add_func ("/recurrent/estimate/falcon-h1", test_estimate_falcon_h1);
  g_test_add_func ("/recurrent/state-cell-tp", test_state_cell_tp);
  g_test_add_func ("/recurrent/estimate/granite-servers", test_estimate_granite_servers);
  {
    static const PrintInfoCase cases[] = {
      { "llamacpp-granite-4.0-h-small-print-info.log", "ibm-granite/granite-4.0-h-small" },
      { "llamacpp-granite-4.0-h-tiny-print-info.log", "ibm-granite/granite-4.0-h-tiny" },
    };

    g_test_add_data_func ("/recurrent/print-info/granite-4.0-h-small", &cases[0],
                          test_print_info);
    g_test_add_data_func ("/recurrent/print-info/granite-4.0-h-tiny", &cases[1],
                          test_print_info);
  }
  g_test_add_func ("/recurrent/vllm/pages", test_vllm_hybrid_pages);
  g_test_add_func ("/recurrent/estimate/vllm", test_estimate_vllm);
  g_test_add_func ("/recurrent/estimate/sglang", test_estimate_sglang);

  status = g_test_run ();
  g_object_unref (catalog);
  return status;
}
