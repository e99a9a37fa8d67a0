/* test-placement.c — where llama.cpp and Ollama put every tensor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rules of src/core/estimate/engines/hr-llamacpp-placement.c one by
 * one, then whole estimates against llama.cpp load logs published with
 * partial offload or several GPUs (research notes "offload-logs.md";
 * sources in each test): per-device buffers within 3 %, KV exact.
 */

#include "config.h"

#include "hr-llamacpp-placement.h"
#include "hr-model-spec.h"
#include "hr-scenario.h"
#include "hr-test-util.h"

#define MIB ((double) (1u << 20))

static HrCatalog *catalog;

/* ------------------------------------------------------------- rules */

#define N_LAYERS 32

static guint64 uniform_layer[N_LAYERS];
static guint64 uniform_experts[N_LAYERS];

static const HrModelArch toy_arch = {
  .attention = HR_ATTENTION_GQA, .n_layers = N_LAYERS, .hidden = 4096, .n_heads = 32,
  .n_kv_heads = 8, .head_dim_k = 128, .head_dim_v = 128, .vocab = 128256,
  .max_context = 131072, .params_total = 8e9, .params_active = 8e9,
};

/* 100 MiB per layer (of which 60 routed experts when @moe), a 500 MiB
 * head, 400 MiB embeddings, 10 MiB of KV per layer; 300 MiB compute and
 * 457 MiB reserve per GPU. */
static void
toy_input (HrLlamaCppPlacementInput *in,
           HrLayerWeights           *w,
           guint32                   n_devices,
           gboolean                  moe)
{
  for (guint i = 0; i < N_LAYERS; i++)
    {
      uniform_layer[i] = 100 * MIB;
      uniform_experts[i] = 60 * MIB;
    }
  *w = (HrLayerWeights) {
    .n_layers = N_LAYERS,
    .layer_bytes = uniform_layer,
    .expert_bytes = moe ? uniform_experts : NULL,
    .output_bytes = 500 * MIB,
    .token_embd_bytes = 400 * MIB,
    .largest_dense_bytes = 20 * MIB,
  };
  *in = (HrLlamaCppPlacementInput) {
    .arch = &toy_arch,
    .weights = w,
    .kv_global_layer_bytes = 10 * MIB,
    .kv_local_layer_bytes = 10 * MIB,
    .expert_active_share = moe ? 0.25 : 1.0,
    .compute_bytes = 300 * MIB,
    .reserve_bytes = 457 * MIB,
    .host_buffers_bytes = 2 * MIB,
    .host_inputs_bytes = 1 * MIB,
    .mask_bytes = 16 * MIB,
    .op_offload = TRUE,
    .n_devices = n_devices,
    .usable_bytes = (guint64) 24 * 1024 * MIB,
    .split_mode = HR_SPLIT_LAYER,
  };
  for (guint d = 0; d < n_devices; d++)
    in->split[d] = 1.0 / n_devices;
}

/* -ngl N offloads the output layer first, then the last N − 1 repeating
 * layers (llama.cpp since b7467); the embeddings never leave the CPU. */
static void
test_ngl_order (void)
{
  HrLlamaCppPlacementInput in;
  HrLayerWeights w;
  HrLlamaCppPlacement p;

  toy_input (&in, &w, 1, FALSE);

  hr_llamacpp_place (&in, 1, &p);
  g_assert_cmpuint (p.devices[0].layers, ==, 1);
  g_assert_true (p.devices[0].output_layer);
  g_assert_cmpuint (p.devices[0].weights_bytes, ==, 500 * MIB);
  g_assert_cmpuint (p.devices[0].kv_bytes, ==, 0);
  g_assert_cmpuint (p.host_weights_bytes, ==, 400 * MIB + N_LAYERS * 100 * MIB);

  hr_llamacpp_place (&in, 15, &p);
  g_assert_cmpuint (p.devices[0].weights_bytes, ==, 500 * MIB + 14 * 100 * MIB);
  g_assert_cmpuint (p.devices[0].kv_bytes, ==, 14 * 10 * MIB);
  g_assert_cmpuint (p.host_kv_bytes, ==, (N_LAYERS - 14) * 10 * MIB);
  g_assert_cmpuint (p.host_weights_bytes, ==, 400 * MIB + (N_LAYERS - 14) * 100 * MIB);

  hr_llamacpp_place (&in, N_LAYERS + 1, &p);
  g_assert_cmpuint (p.gpu_layers, ==, N_LAYERS + 1);
  g_assert_cmpuint (p.host_weights_bytes, ==, 400 * MIB);
  g_assert_cmpuint (p.host_kv_bytes, ==, 0);

  /* more than there are counts as all */
  hr_llamacpp_place (&in, 999, &p);
  g_assert_cmpuint (p.gpu_layers, ==, N_LAYERS + 1);

  /* -ngl 0: every layer in RAM; the GPU still multiplies big prompt
   * batches (op offload) and holds a copy of the largest matrix */
  hr_llamacpp_place (&in, 0, &p);
  g_assert_cmpuint (p.devices[0].layers, ==, 0);
  g_assert_cmpuint (p.devices[0].compute_bytes, ==, (457 + 300 + 500) * MIB);
}

/* Offloaded index j goes to the first device whose cumulative share
 * exceeds j / N: -ts 12,26,31,31 over 62 offloaded indices gives
 * 8 / 16 / 19 / 19 layers (ik_llama.cpp#873, the per-device KV of 4 ×
 * RTX 3090 with Ling-1T). */
static void
test_proportional_split (void)
{
  HrLlamaCppPlacementInput in;
  HrLayerWeights w;
  HrLlamaCppPlacement p;
  static guint64 layers[80], experts[80];
  static const double ts[] = { 12, 26, 31, 31 };

  toy_input (&in, &w, 4, FALSE);
  for (guint i = 0; i < 80; i++)
    layers[i] = 100 * MIB;
  w.n_layers = 80;
  w.layer_bytes = layers;
  w.expert_bytes = NULL;
  (void) experts;
  for (guint d = 0; d < 4; d++)
    in.split[d] = ts[d] / 100;

  hr_llamacpp_place (&in, 62, &p);
  g_assert_cmpuint (p.devices[0].layers, ==, 8);
  g_assert_cmpuint (p.devices[1].layers, ==, 16);
  g_assert_cmpuint (p.devices[2].layers, ==, 19);
  g_assert_cmpuint (p.devices[3].layers, ==, 19);
  /* the output layer is the last offloaded index: the last GPU */
  g_assert_true (p.devices[3].output_layer);
  g_assert_false (p.devices[0].output_layer);
  /* partial offload: no pipelining */
  g_assert_cmpuint (p.pipeline_copies, ==, 1);
}

/* --n-cpu-moe N keeps the routed experts of the first N layers in RAM;
 * attention and shared tensors stay with the layer. */
static void
test_n_cpu_moe (void)
{
  HrLlamaCppPlacementInput in;
  HrLayerWeights w;
  HrLlamaCppPlacement p;

  toy_input (&in, &w, 1, TRUE);
  in.n_cpu_moe = 10;
  hr_llamacpp_place (&in, N_LAYERS + 1, &p);
  g_assert_cmpuint (p.gpu_layers, ==, N_LAYERS + 1);
  g_assert_cmpuint (p.devices[0].weights_bytes, ==,
                    500 * MIB + N_LAYERS * 100 * MIB - 10 * 60 * MIB);
  g_assert_cmpuint (p.host_weights_bytes, ==, 400 * MIB + 10 * 60 * MIB);
  /* every layer's KV stays on the GPU with its attention */
  g_assert_cmpuint (p.devices[0].kv_bytes, ==, N_LAYERS * 10 * MIB);
  /* a decode step reads a quarter of the CPU-held experts */
  g_assert_cmpuint (p.host_weights_read_bytes, ==, 10 * 60 * MIB / 4);
}

/* The placement sums ranges of layers from running totals; every field
 * must equal the sum layer by layer, for uneven layers, sliding-window
 * and global layers, experts in RAM up to a layer inside a device's
 * range, three GPUs in uneven shares and every number of offloaded
 * indices. */
static void
test_ranges_add_up (void)
{
  static const HrModelArch swa_arch = {
    .attention = HR_ATTENTION_GQA, .n_layers = N_LAYERS, .hidden = 4096, .n_heads = 32,
    .n_kv_heads = 8, .head_dim_k = 128, .head_dim_v = 128, .vocab = 128256,
    .max_context = 131072, .params_total = 8e9, .params_active = 8e9,
    .sliding_window = 4096, .swa_period = 4,
  };
  HrLlamaCppPlacementInput in;
  HrLayerWeights w;
  HrLlamaCppPlacement p;

  toy_input (&in, &w, 3, TRUE);
  for (guint i = 0; i < N_LAYERS; i++)
    {
      uniform_layer[i] = (100 + 7 * i) * MIB;
      uniform_experts[i] = i % 5 == 0 ? 0 : (40 + i) * MIB;
    }
  in.arch = &swa_arch;
  in.kv_local_layer_bytes = 2 * MIB;
  in.n_cpu_moe = 13;
  in.split[0] = 0.5;
  in.split[1] = 0.2;
  in.split[2] = 0.3;

  for (guint32 n = 0; n <= N_LAYERS + 1; n++)
    {
      guint64 weights[3] = { 0 }, kv[3] = { 0 }, layers[3] = { 0 };
      guint64 host_weights = w.token_embd_bytes, host_kv = 0, host_experts = 0;
      guint32 first = N_LAYERS + 1 - n;

      hr_llamacpp_place (&in, n, &p);
      for (guint32 il = 0; il <= N_LAYERS; il++)
        {
          gboolean local = (il + 1) % 4 != 0;
          guint64 layer_kv = local ? 2 * MIB : 10 * MIB;
          guint32 d;

          if (il < first)
            {
              host_weights += il < N_LAYERS ? uniform_layer[il] : w.output_bytes;
              host_kv += il < N_LAYERS ? layer_kv : 0;
              continue;
            }
          /* the split's counts are /placement/rules/proportional-split's */
          d = il < first + p.devices[0].layers ? 0
              : il < first + p.devices[0].layers + p.devices[1].layers ? 1 : 2;
          layers[d]++;
          if (il == N_LAYERS)
            {
              weights[d] += w.output_bytes;
              continue;
            }
          weights[d] += uniform_layer[il];
          kv[d] += layer_kv;
          if (il < in.n_cpu_moe)
            {
              weights[d] -= uniform_experts[il];
              host_weights += uniform_experts[il];
              host_experts += uniform_experts[il];
            }
        }
      g_assert_cmpuint (p.gpu_layers, ==, n);
      g_assert_cmpuint (p.devices[0].layers + p.devices[1].layers + p.devices[2].layers, ==, n);
      g_assert_cmpuint (p.host_weights_bytes, ==, host_weights);
      g_assert_cmpuint (p.host_kv_bytes, ==, host_kv);
      g_assert_cmpuint (p.host_expert_bytes, ==, host_experts);
      g_assert_cmpuint (p.host_layers, ==, MIN (first, N_LAYERS));
      for (guint d = 0; d < 3; d++)
        {
          g_assert_cmpuint (p.devices[d].layers, ==, layers[d]);
          g_assert_cmpuint (p.devices[d].weights_bytes, ==, weights[d]);
          g_assert_cmpuint (p.devices[d].kv_bytes, ==, kv[d]);
        }
    }
}

/* auto (the llama-server launch Headroom writes) takes the most layers
 * that fit; llama.cpp's --fit (Ollama's placement) fills the last GPU
 * first and leaves its margin free on each. */
static void
test_auto_and_fit (void)
{
  HrLlamaCppPlacementInput in;
  HrLayerWeights w;
  HrLlamaCppPlacement p;
  guint32 n;

  toy_input (&in, &w, 1, FALSE);
  /* reserve + compute + head = 1257 MiB; then 110 MiB a layer */
  in.usable_bytes = (1257 + 10 * 110 + 50) * MIB;
  n = hr_llamacpp_place_most (&in, 0, &p);
  g_assert_cmpuint (n, ==, 11);
  g_assert_true (p.fits);

  hr_llamacpp_place_fit (&in, 1024 * MIB, &p);
  g_assert_cmpuint (p.gpu_layers, <, 11);
  g_assert_cmpuint (p.devices[0].total_bytes + 1024 * MIB, <=, in.usable_bytes);

  /* two GPUs: fit fills the second (last) one first */
  toy_input (&in, &w, 2, FALSE);
  in.usable_bytes = (1257 + 10 * 110 + 1024) * MIB;
  hr_llamacpp_place_fit (&in, 1024 * MIB, &p);
  g_assert_true (p.devices[1].output_layer);
  /* the head and ten layers on the last GPU; the first, without a head,
   * takes fourteen */
  g_assert_cmpuint (p.devices[1].layers, ==, 11);
  g_assert_cmpuint (p.devices[0].layers, ==, 14);
}

/* Every layer on two GPUs in layer split: four copies of the inputs on
 * each device and the host; never with layers left on the CPU. */
static void
test_pipeline_copies (void)
{
  HrLlamaCppPlacementInput in;
  HrLayerWeights w;
  HrLlamaCppPlacement p;

  toy_input (&in, &w, 2, FALSE);
  hr_llamacpp_place (&in, N_LAYERS + 1, &p);
  g_assert_cmpuint (p.pipeline_copies, ==, 4);
  g_assert_cmpuint (p.devices[1].compute_bytes, ==, (457 + 300 + 3 * 16) * MIB);
  g_assert_cmpuint (p.host_bytes, ==, 400 * MIB + 2 * MIB + 3 * 1 * MIB);

  hr_llamacpp_place (&in, N_LAYERS, &p);
  g_assert_cmpuint (p.pipeline_copies, ==, 1);
}

/* Row split cuts every offloaded matrix over all GPUs; the KV stays with
 * the layer's device. */
static void
test_row_split (void)
{
  HrLlamaCppPlacementInput in;
  HrLayerWeights w;
  HrLlamaCppPlacement p;

  toy_input (&in, &w, 2, FALSE);
  in.split_mode = HR_SPLIT_ROW;
  hr_llamacpp_place (&in, N_LAYERS + 1, &p);
  g_assert_cmpuint (p.devices[0].weights_bytes, ==, p.devices[1].weights_bytes);
  g_assert_cmpuint (p.devices[0].weights_bytes + p.devices[1].weights_bytes, ==,
                    500 * MIB + N_LAYERS * 100 * MIB);
  g_assert_cmpuint (p.devices[0].kv_bytes + p.devices[1].kv_bytes, ==, N_LAYERS * 10 * MIB);
}

/* ------------------------------------------------- whole estimates */

typedef struct
{
  const char *model;
  const char *precision;
  guint64 context;
  guint gpus;
  gint gpu_layers;              /* -1: auto */
  const double *tensor_split;
  guint n_tensor_split;
  guint n_cpu_moe;
  HrFlashAttn flash_attn;
} Case;

static void
estimate_case (const Case *c,
               HrEstimate *e)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, c->model),
    .precision = hr_catalog_find_precision (catalog, c->precision),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-4090-24gb"),
    .context = c->context,
    .batch = 1,
    .engine = HR_ENGINE_LLAMACPP,
    .gpus = c->gpus,
  };
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (s.model);
  s.options.flash_attn = c->flash_attn;
  if (c->gpu_layers >= 0)
    {
      s.placement.gpu_layers_fixed = TRUE;
      s.placement.gpu_layers = c->gpu_layers;
    }
  for (guint i = 0; i < c->n_tensor_split; i++)
    s.placement.tensor_split[i] = c->tensor_split[i];
  s.placement.n_tensor_split = c->n_tensor_split;
  s.placement.n_cpu_moe = c->n_cpu_moe;
  g_assert_true (hr_scenario_estimate (&s, e, &error));
  g_assert_no_error (error);
}

/* A device's buffers as llama.cpp logs them (model + KV + compute, no
 * CUDA context) against the log, within 3 %. */
static void
assert_device (const HrEstimate *e,
               guint             d,
               double            model_mib,
               double            kv_mib,
               double            compute_mib)
{
  const HrDeviceLoad *load = &e->devices[d];
  double ours = (load->total_bytes - e->reserve_bytes) / MIB;
  double logged = model_mib + kv_mib + compute_mib;

  g_test_message ("device %u: model %.2f (log %.2f) KV %.2f (log %.2f) compute %.2f (log %.2f) "
                  "= %.2f vs %.2f MiB (%+.2f %%)", d,
                  load->weights_bytes / MIB, model_mib, load->kv_bytes / MIB, kv_mib,
                  (load->compute_bytes - e->reserve_bytes) / MIB, compute_mib, ours, logged,
                  100 * (ours - logged) / logged);
  assert_close (load->kv_bytes / MIB, kv_mib, 0.01);
  assert_close (ours, logged, 0.03 * logged);
}

/* Case 1: mainline llama.cpp b5622, Qwen3-30B-A3B Q4_K_M, RTX 4090 (9862
 * MiB free) + RTX 5090 (31518 MiB free), -ngl 99 -ot exps=CPU, 16K
 * context, flash attention off (ik_llama.cpp#514, comment by mtcl). */
static void
test_log_qwen3_moe_two_gpus (void)
{
  static const double free_mib[] = { 9862, 31518 };
  Case c = { "Qwen/Qwen3-30B-A3B", "q4_k_m", 16384, 2, 49, free_mib, 2, 48,
             HR_FLASH_ATTN_OFF };
  HrEstimate e;

  estimate_case (&c, &e);
  g_assert_cmpint (e.placement, ==, HR_PLACEMENT_PARTIAL);
  g_assert_cmpuint (e.devices[0].layers, ==, 12);
  g_assert_cmpuint (e.devices[1].layers, ==, 37);
  g_assert_true (e.devices[1].output_layer);
  assert_close (e.devices[0].weights_bytes / MIB, 135.76, 0.03 * 135.76);
  assert_close (e.devices[1].weights_bytes / MIB, 648.66, 0.03 * 648.66);
  assert_device (&e, 0, 135.76, 384.00, 1080.00);
  assert_device (&e, 1, 648.66, 1152.00, 1080.00);
}

/* Case 1 again, as the user has it: two different GPUs (--hardware
 * rtx-4090-24gb:1,rtx-5090-32gb:1), each with what the log says was free
 * at load ("using device CUDA0 (NVIDIA GeForce RTX 4090) - 9862 MiB
 * free", CUDA1 RTX 5090 31518 MiB free) as its reserve's complement, and
 * no --tensor-split: llama.cpp's default split by free memory must give
 * the logged 12 + 37 layers and each device's buffers within 2 %. */
static void
test_log_mixed_devices (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "Qwen/Qwen3-30B-A3B"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-4090-24gb"),
    .context = 16384,
    .batch = 1,
    .engine = HR_ENGINE_LLAMACPP,
    .gpus = 2,
    .devices = { hr_catalog_find_hardware (catalog, "rtx-4090-24gb"),
                 hr_catalog_find_hardware (catalog, "rtx-5090-32gb") },
    .reserve_set = { TRUE, TRUE },
    .reserve_bytes = { (guint64) ((24576 - 9862) * MIB), (guint64) ((32768 - 31518) * MIB) },
  };
  g_autoptr(GError) error = NULL;
  HrEstimate e;
  const double model_mib[] = { 135.76, 648.66 }, kv_mib[] = { 384.00, 1152.00 };

  g_assert_nonnull (s.devices[1]);
  s.options.flash_attn = HR_FLASH_ATTN_OFF;
  s.placement.gpu_layers_fixed = TRUE;
  s.placement.gpu_layers = 49;
  s.placement.n_cpu_moe = 48;
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (e.devices[0].layers, ==, 12);
  g_assert_cmpuint (e.devices[1].layers, ==, 37);
  for (guint d = 0; d < 2; d++)
    {
      double ours = (e.devices[d].total_bytes - e.reserve_bytes) / MIB;
      double logged = model_mib[d] + kv_mib[d] + 1080.00;

      g_test_message ("GPU %u: model %.2f (log %.2f), all %.2f (log %.2f) MiB", d,
                      e.devices[d].weights_bytes / MIB, model_mib[d], ours, logged);
      assert_close (e.devices[d].weights_bytes / MIB, model_mib[d], 0.02 * model_mib[d]);
      assert_close (e.devices[d].kv_bytes / MIB, kv_mib[d], 0.01);
      assert_close (ours, logged, 0.02 * logged);
      /* each GPU can give what was free on it */
      g_assert_cmpuint (e.devices[d].usable_bytes, ==,
                        hr_hardware_get_device (s.devices[d])->memory_bytes -
                        s.reserve_bytes[d]);
    }
  /* the usable figures are the fuller GPU's: the 4090 with 9862 MiB */
  g_assert_cmpuint (e.fullest_device, ==, 0);
  g_assert_cmpuint (e.usable_bytes, ==, (guint64) (9862 * MIB));
}

/* Two different cards, the log kept in tests/data/logs
 * (llamacpp-2024-mixed-4070ti-3090ti.log, llama.cpp#6122): Command-R v01
 * Q4_K_S (its tied embedding Q6_K: 1640.62 MiB in RAM, as logged) on an
 * RTX 4070 Ti + RTX 3090 Ti, 4096 tokens, all 41 layers.  The log does
 * not print the free memory its split came from; its 12 + 28 layers (the
 * KV buffers, 128 MiB a layer) are given as --tensor-split 12,29 (the
 * output layer with the last).  Each GPU's model buffer within 2 %, its
 * cache exact, the first GPU's compute buffer (four pipeline copies)
 * within 3 %. */
static void
test_log_mixed_cards_split (void)
{
  static const double split[] = { 12, 29 };
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "CohereForAI/c4ai-command-r-v01"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_s"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-4070-ti-12gb"),
    .context = 4096,
    .batch = 1,
    .engine = HR_ENGINE_LLAMACPP,
    .gpus = 2,
    .devices = { hr_catalog_find_hardware (catalog, "rtx-4070-ti-12gb"),
                 hr_catalog_find_hardware (catalog, "rtx-3090-ti-24gb") },
  };
  g_autoptr(GError) error = NULL;
  const double model_mib[] = { 5434.38, 13989.53 }, kv_mib[] = { 1536.00, 3584.00 };
  HrEstimate e;

  g_assert_nonnull (s.model);
  g_assert_nonnull (s.devices[1]);
  s.options.flash_attn = HR_FLASH_ATTN_OFF;
  s.placement.gpu_layers_fixed = TRUE;
  s.placement.gpu_layers = 41;
  s.placement.n_tensor_split = 2;
  memcpy (s.placement.tensor_split, split, sizeof split);
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (e.devices[0].layers, ==, 12);
  g_assert_cmpuint (e.devices[1].layers, ==, 29);
  for (guint d = 0; d < 2; d++)
    {
      g_test_message ("GPU %u: model %.2f MiB (log %.2f), KV %.2f (log %.2f)", d,
                      e.devices[d].weights_bytes / MIB, model_mib[d],
                      e.devices[d].kv_bytes / MIB, kv_mib[d]);
      assert_close (e.devices[d].weights_bytes / MIB, model_mib[d], 0.02 * model_mib[d]);
      assert_close (e.devices[d].kv_bytes / MIB, kv_mib[d], 0.01);
    }
  g_test_message ("GPU 0 compute %.2f MiB (log 672.01)",
                  (e.devices[0].compute_bytes - e.reserve_bytes) / MIB);
  assert_close ((e.devices[0].compute_bytes - e.reserve_bytes) / MIB, 672.01, 0.03 * 672.01);
  assert_close (e.host_weights_bytes / MIB, 1640.62, 0.02 * 1640.62);
}

/* A 3090 beside a 3060, default reserves: the layers go 2 : 1 as their
 * usable memory (23.81 and 11.81 GiB), and a token costs what the slow
 * card's share costs at its own bandwidth — slower than two 3090s,
 * faster than the 3090 with the rest on the CPU. */
static void
test_mixed_speed (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct"),
    .precision = hr_catalog_find_precision (catalog, "q8_0"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-3090-24gb"),
    .context = 8192,
    .batch = 1,
    .engine = HR_ENGINE_LLAMACPP,
    .gpus = 2,
  };
  g_autoptr(GError) error = NULL;
  HrEstimate mixed, twins;

  g_assert_true (hr_scenario_estimate (&s, &twins, &error));
  s.devices[0] = s.hardware;
  s.devices[1] = hr_catalog_find_hardware (catalog, "rtx-3060-12gb");
  g_assert_true (hr_scenario_estimate (&s, &mixed, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (twins.devices[0].layers, ==, 17);
  /* 33 indices at the cumulative share 23.81 / 35.62: ceil (22.06) = 23 */
  g_assert_cmpuint (mixed.devices[0].layers, ==, 23);
  g_assert_cmpuint (mixed.devices[1].layers, ==, 10);
  g_assert_cmpfloat (mixed.decode_tokens_per_s, <, twins.decode_tokens_per_s);
  /* the 3060 reads its third at 360 of the 3090's 936 GB/s: the token
   * takes longer by about (1/3)(936/360 − 1) of the 3090's time */
  g_assert_cmpfloat (twins.decode_tokens_per_s / mixed.decode_tokens_per_s, >, 1.3);
  g_assert_cmpfloat (twins.decode_tokens_per_s / mixed.decode_tokens_per_s, <, 1.8);
}

/* vLLM and SGLang: tensor parallelism over different GPUs is refused;
 * one pipeline stage per GPU is planned as two of the smaller. */
static void
test_mixed_serving (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct"),
    .precision = hr_catalog_find_precision (catalog, "bf16"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-3090-24gb"),
    .context = 8192,
    .batch = 1,
    .engine = HR_ENGINE_VLLM,
    .gpus = 2,
    .devices = { hr_catalog_find_hardware (catalog, "rtx-3090-24gb"),
                 hr_catalog_find_hardware (catalog, "rtx-3060-12gb") },
  };
  HrScenario small = s;
  GError *error = NULL;
  HrEstimate e, twins;

  g_assert_false (hr_scenario_estimate (&s, &e, &error));
  g_assert_error (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "--pp 2"));
  g_clear_error (&error);

  s.layout = (HrLayout) { .tp = 1, .pp = 2, .dp = 1, .nodes = 1 };
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  small.layout = s.layout;
  small.hardware = s.devices[1];
  memset (small.devices, 0, sizeof small.devices);
  g_assert_true (hr_scenario_estimate (&small, &twins, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (e.kv_capacity_tokens, ==, twins.kv_capacity_tokens);
  g_assert_cmpuint (e.devices[0].usable_bytes, >, e.devices[1].usable_bytes);

  s.engine = HR_ENGINE_GENERIC;
  g_assert_false (hr_scenario_estimate (&s, &e, &error));
  g_assert_error (error, HR_ESTIMATE_ERROR, HR_ESTIMATE_ERROR_UNSUPPORTED);
  g_clear_error (&error);
}

/* Case 3: Ollama ≥ 0.30 launching llama-server with --fit, Hermes 3
 * (Llama-3.1-8B shape) Q4_0, 32K context, RTX 2060: 15 of 33 layers
 * (a public Ollama server log, 2026-06-28; "offload-logs.md" case 3). */
static void
test_log_llama8b_partial (void)
{
  Case c = { "meta-llama/Llama-3.1-8B-Instruct", "q4_0", 32768, 1, 15, NULL, 0, 0,
             HR_FLASH_ATTN_ON };
  HrEstimate e;

  estimate_case (&c, &e);
  g_assert_cmpint (e.placement, ==, HR_PLACEMENT_PARTIAL);
  g_assert_true (e.devices[0].output_layer);
  assert_device (&e, 0, 2049.43, 1792.00, 248.00);
  /* the 18 CPU layers' cache, in RAM */
  assert_close (e.host_kv_bytes / MIB, 2304.00, 0.01);
  /* the file (4.33 GiB = 4434 MiB) less what the GPU holds */
  assert_close (e.host_weights_bytes / MIB, 4434 - 2049.43, 0.03 * (4434 - 2049.43));
}

/* Case 8: Ollama 0.11, Llama-3.x-70B Q8_0 over two GPUs, 81/81 layers:
 * CUDA0 24277.75, CUDA2 46151.91 MiB of weights, token_embd 1064.62 MiB
 * in CPU_Mapped (ollama/ollama#11986).  The split follows the devices'
 * free memory, which the log does not print: the logged ratio stands in. */
static void
test_log_llama70b_two_gpus (void)
{
  static const double share[] = { 24277.75, 46151.91 };
  Case c = { "meta-llama/Llama-3.1-70B-Instruct", "q8_0", 2048, 2, 81, share, 2, 0,
             HR_FLASH_ATTN_ON };
  HrEstimate e;

  estimate_case (&c, &e);
  g_assert_cmpint (e.placement, ==, HR_PLACEMENT_SPLIT);
  assert_close (e.devices[0].weights_bytes / MIB, 24277.75, 0.03 * 24277.75);
  assert_close (e.devices[1].weights_bytes / MIB, 46151.91, 0.03 * 46151.91);
  assert_close (e.host_weights_bytes / MIB, 1064.62, 0.03 * 1064.62);
}

/* Case 9: llama.cpp's fit-params example (tools/fit-params/README.md),
 * Qwen3-30B-A3B F16 on one RTX 4090 at 4096 tokens: 48 layers with the
 * experts of 34 of them in RAM, 17904 MiB of weights, 384 MiB of KV.
 * That build kept the output head on the CPU (-ngl 48 of 49 then), so
 * the GPU's weights here less the head are what it logged. */
static void
test_log_fit_params_moe (void)
{
  Case c = { "Qwen/Qwen3-30B-A3B", "fp16", 4096, 1, 49, NULL, 0, 34, HR_FLASH_ATTN_ON };
  HrEstimate e;
  double head = 151936.0 * 2048 * 2 / MIB;

  estimate_case (&c, &e);
  assert_close (e.devices[0].kv_bytes / MIB, 384.00, 0.01);
  assert_close (e.devices[0].weights_bytes / MIB - head, 17904.0, 0.03 * 17904.0);
}

/* Case 4: a Qwen2-0.5B-class model with tied embeddings on two RTX 4090
 * with every layer (pipeline parallelism, four input copies), 32K
 * context, flash attention off (nixiesearch docs, gpu.md): CUDA0 104.91 +
 * 208 + 1166.01 MiB, CUDA1 226.06 + 176 + 1166.02 MiB; the tied head's
 * copy sits on the last GPU.  The log does not name the file type: the
 * embeddings in Q8_0 (137.94 MiB = 151,936 × 896 × 34/32 B) and about
 * 8.0 MiB a layer are Q4_0's (Q4_K_M would give 9.8, Q5_K_M 10.7). */
static void
test_log_tied_pipeline (void)
{
  static const char *json =
    "{ \"id\": \"test/qwen2-0.5b\", \"name\": \"Qwen2 0.5B\", \"family\": \"Qwen2\","
    "  \"architecture\": \"qwen2\", \"license\": \"x\", \"release\": \"x\","
    "  \"layers\": 24, \"hidden\": 896, \"heads\": 14, \"kv_heads\": 2, \"head_dim\": 64,"
    "  \"intermediate\": 4864, \"vocab\": 151936, \"max_context\": 32768,"
    "  \"tied_embeddings\": true, \"attention\": \"gqa\", \"attention_bias\": true,"
    "  \"params\": 494032768, \"active_params\": 494032768 }";
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModelSpec) model = NULL;
  HrScenario s;
  HrEstimate e;

  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  model = hr_model_spec_new_from_json (json_node_get_object (json_parser_get_root (parser)),
                                       HR_ORIGIN_USER, &error);
  g_assert_no_error (error);
  s = (HrScenario) {
    .model = model,
    .precision = hr_catalog_find_precision (catalog, "q5_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-4090-24gb"),
    .context = 32768, .batch = 1, .engine = HR_ENGINE_LLAMACPP, .gpus = 2,
  };
  s.options.flash_attn = HR_FLASH_ATTN_OFF;
  g_assert_true (hr_scenario_estimate (&s, &e, &error));
  g_assert_cmpint (e.placement, ==, HR_PLACEMENT_SPLIT);
  g_assert_cmpuint (e.devices[0].layers, ==, 13);
  g_assert_cmpuint (e.devices[1].layers, ==, 12);
  assert_close (e.host_weights_bytes / MIB, 137.94, 0.03 * 137.94);
  assert_device (&e, 0, 104.91, 208.00, 1166.01);
  assert_device (&e, 1, 226.06, 176.00, 1166.02);
}

/* ------------------------------------------------- verdicts and RAM */

/* Qwen3-32B Q4_K_M does not fit a 12 GB card: it runs with layers in
 * system RAM (tight), unless RAM is short too (no fit); the recommended
 * device and the advice ask for a whole fit. */
static void
test_partial_verdicts (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "Qwen/Qwen3-32B"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-3060-12gb"),
    .context = 8192, .batch = 1, .engine = HR_ENGINE_LLAMACPP, .gpus = 1,
  };
  HrEstimate e;

  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_cmpint (e.placement, ==, HR_PLACEMENT_PARTIAL);
  g_assert_cmpuint (e.gpu_layers, >, 20);
  g_assert_cmpuint (e.gpu_layers, <, e.layer_count);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_TIGHT);
  g_assert_true (e.ram_fits);
  g_assert_false (hr_estimate_fits_gpu (&e));
  g_assert_cmpuint (e.devices[0].total_bytes, <=, e.devices[0].usable_bytes);
  /* slower than on the GPU alone: the CPU reads its layers from RAM */
  g_assert_cmpfloat (e.decode_cpu_seconds, >, e.decode_gpu_seconds);

  s.ram.bytes = 8 * GIB;
  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_false (e.ram_fits);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_NO_FIT);

  /* on a Mac the RAM is the device's one pool */
  s.ram.bytes = 0;
  s.hardware = hr_catalog_find_hardware (catalog, "apple-m4-max-64gb");
  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_cmpuint (e.ram_bytes, ==, hr_hardware_get_memory_bytes (s.hardware));
  g_assert_cmpint (e.placement, ==, HR_PLACEMENT_GPU);
  /* ...of which the CPU gets what the GPU's wired share and the system
   * leave, not the whole pool a second time */
  g_assert_cmpuint (e.ram_usable_bytes, ==,
                    hr_hardware_get_memory_bytes (s.hardware) - 4 * GIB - e.usable_bytes);

  /* an 8 GB Mac cannot hold gpt-oss-20b by moving layers to "RAM": the
   * GPU already has most of the pool, the system (a quarter, 2 GiB) the
   * rest but for the small host buffers */
  s.model = hr_catalog_find_model (catalog, "openai/gpt-oss-20b");
  s.precision = hr_catalog_find_precision (catalog, "mxfp4");
  s.hardware = hr_catalog_find_hardware (catalog, "apple-m1-8gb");
  s.context = 4096;
  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_cmpuint (e.ram_usable_bytes, ==,
                    hr_hardware_get_memory_bytes (s.hardware) - 2 * GIB - e.usable_bytes);
  g_assert_false (e.ram_fits);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_NO_FIT);
}

/* An 8 GB Mac and an 8 GB card at the same share of their usable memory
 * get the same verdict: the Mac's small host buffers (the CPU's compute
 * buffer, the token embeddings) fit the pool the GPU does not wire. */
static void
test_unified_same_rule (void)
{
  static const guint64 contexts[] = { 2048, 8192, 16384 };
  static const char * const devices[] = { "apple-m1-8gb", "rtx-3070-8gb" };
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "Qwen/Qwen3-4B"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .batch = 1, .engine = HR_ENGINE_LLAMACPP, .gpus = 1,
  };
  HrEstimate e;

  for (guint d = 0; d < G_N_ELEMENTS (devices); d++)
    for (guint i = 0; i < G_N_ELEMENTS (contexts); i++)
      {
        double share;
        HrVerdict expected;

        s.hardware = hr_catalog_find_hardware (catalog, devices[d]);
        s.context = contexts[i];
        g_assert_true (hr_scenario_estimate (&s, &e, NULL));
        g_assert_cmpint (e.placement, ==, HR_PLACEMENT_GPU);
        g_assert_true (e.ram_fits);
        share = (double) e.per_device_bytes / (double) e.usable_bytes;
        expected = share <= 0.9 ? HR_VERDICT_COMFORTABLE
                   : share <= 1.0 ? HR_VERDICT_TIGHT : HR_VERDICT_NO_FIT;
        g_test_message ("%s at %" G_GUINT64_FORMAT ": %.3f of usable", devices[d],
                        contexts[i], share);
        g_assert_cmpint (e.verdict, ==, expected);
      }
}

/* Ollama does not spread a model that fits one GPU (unless
 * OLLAMA_SCHED_SPREAD); llama-server as Headroom launches it splits it. */
static void
test_ollama_single_gpu (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-4090-24gb"),
    .context = 8192, .batch = 1, .engine = HR_ENGINE_OLLAMA, .gpus = 2,
  };
  HrEstimate e;

  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_cmpuint (e.n_devices, ==, 1);
  g_assert_cmpint (e.placement, ==, HR_PLACEMENT_GPU);

  s.engine = HR_ENGINE_LLAMACPP;
  g_assert_true (hr_scenario_estimate (&s, &e, NULL));
  g_assert_cmpuint (e.n_devices, ==, 2);
  g_assert_cmpint (e.placement, ==, HR_PLACEMENT_SPLIT);
  g_assert_cmpuint (e.devices[0].layers + e.devices[1].layers, ==, e.layer_count);

  /* at most 16 GPUs */
  s.gpus = 17;
  g_assert_false (hr_scenario_estimate (&s, &e, NULL));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  catalog = hr_test_builtin_catalog ();

  g_test_add_func ("/placement/rules/ngl-order", test_ngl_order);
  g_test_add_func ("/placement/rules/proportional-split", test_proportional_split);
  g_test_add_func ("/placement/rules/n-cpu-moe", test_n_cpu_moe);
  g_test_add_func ("/placement/rules/ranges-add-up", test_ranges_add_up);
  g_test_add_func ("/placement/rules/auto-and-fit", test_auto_and_fit);
  g_test_add_func ("/placement/rules/pipeline-copies", test_pipeline_copies);
  g_test_add_func ("/placement/rules/row-split", test_row_split);
  g_test_add_func ("/placement/logs/qwen3-moe-two-gpus", test_log_qwen3_moe_two_gpus);
  g_test_add_func ("/placement/logs/mixed-devices", test_log_mixed_devices);
  g_test_add_func ("/placement/logs/mixed-cards-split", test_log_mixed_cards_split);
  g_test_add_func ("/placement/mixed-speed", test_mixed_speed);
  g_test_add_func ("/placement/mixed-serving", test_mixed_serving);
  g_test_add_func ("/placement/logs/llama8b-partial", test_log_llama8b_partial);
  g_test_add_func ("/placement/logs/llama70b-two-gpus", test_log_llama70b_two_gpus);
  g_test_add_func ("/placement/logs/fit-params-moe", test_log_fit_params_moe);
  g_test_add_func ("/placement/logs/tied-pipeline", test_log_tied_pipeline);
  g_test_add_func ("/placement/verdicts", test_partial_verdicts);
  g_test_add_func ("/placement/ollama-single-gpu", test_ollama_single_gpu);
  g_test_add_func ("/placement/unified-same-rule", test_unified_same_rule);

  status = g_test_run ();
  g_object_unref (catalog);
  return status;
}
