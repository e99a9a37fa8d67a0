/* test-speed.c — the speed model's rules, one by one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each test builds the speed input by hand and checks a term against the
 * formula of tests/calibration/speed/README.md written out here with the
 * named constants of hr-speed.h.  The fit itself is checked against the
 * measured rows in tests/accuracy (the speed groups of RESULTS.md).
 */

#include "config.h"

#include <math.h>

#include "hr-estimate-constants.h"
#include "hr-speed.h"
#include "hr-test-util.h"

/* Llama 3 8B's shape, Q4_K_M-sized layers (4.58 GiB file, as llama-bench
 * lists it: 32 layers of 128.4 MB, a 420 MB Q6_K head). */
static const HrModelArch llama3_8b = {
  .attention = HR_ATTENTION_GQA, .n_layers = 32, .hidden = 4096, .n_heads = 32,
  .n_kv_heads = 8, .head_dim_k = 128, .head_dim_v = 128, .vocab = 128256,
  .max_context = 131072, .params_total = 8.03e9, .params_active = 8.03e9,
};

#define LAYER_BYTES   128.4e6
#define OUTPUT_BYTES  420.0e6
#define LAYER_PARAMS  (6.98e9 / 32)

static HrDevice rtx_4090 = {
  .family = HR_FAMILY_NVIDIA_GEFORCE, .bandwidth_gbps = 1008,
  .matrix_tflops = 165.2, .tdp_watts = 450, .pcie_gbps = 25,
};

static HrDevice m2_ultra = {
  .family = HR_FAMILY_APPLE_SILICON, .bandwidth_gbps = 800,
  .matrix_tflops = 27.2, .tdp_watts = 0,
};

static void
one_gpu (HrSpeedInput   *in,
         const HrDevice *device,
         guint32         layers)
{
  *in = (HrSpeedInput) {
    .arch = &llama3_8b, .family = HR_QUANT_KQUANT, .n_gpus = 1,
    .ram_gbps = 76.8, .host_link_gbps = 25, .n_ubatch = 512,
  };
  in->gpus[0] = (HrSpeedGpu) {
    .device = device, .layers = layers,
    .stream_bytes = LAYER_BYTES * layers + OUTPUT_BYTES,
    .layer_bytes = LAYER_BYTES * layers,
    .layer_params = LAYER_PARAMS * layers,
  };
}

/* At depth 0 a token is the weights over η_w × bandwidth plus the fixed
 * cost of each layer; the cache adds depth × layers × its F16 K and V
 * (once per KV head: 8 × 256 dimensions × 2 B) over η_att × bandwidth. */
static void
test_decode_terms (void)
{
  HrSpeedInput in;
  HrSpeedToken t;
  double bw = 1008e9, stream = (LAYER_BYTES * 32 + OUTPUT_BYTES) / (HR_SPEED_ETA_W_CUDA * bw);

  one_gpu (&in, &rtx_4090, 32);
  hr_speed_token (&in, 0, &t);
  g_assert_cmpfloat_with_epsilon (t.stream_seconds, stream, stream * 1e-9);
  g_assert_cmpfloat_with_epsilon (t.fixed_seconds, 32 * HR_SPEED_C_LAYER_CUDA, 1e-12);
  g_assert_cmpfloat (t.cache_seconds, ==, 0);
  g_assert_cmpfloat_with_epsilon (t.total_seconds, stream + 32 * HR_SPEED_C_LAYER_CUDA, 1e-12);

  hr_speed_token (&in, 4096, &t);
  g_assert_cmpfloat_with_epsilon (t.cache_seconds,
                                  4096.0 * 32 * 8 * 256 * 2 / (HR_SPEED_ETA_ATT_CUDA * bw), 1e-12);
  /* llama-bench's tg 512 on a 4090 (docs/reference/measured-speed.md) is
   * 130.58 t/s: the model at the average depth is within 5 % */
  g_assert_cmpfloat (fabs (1 / hr_speed_token_seconds (&in, 255.5) / 130.58 - 1), <, 0.05);
}

/* With flash attention on, CUDA reads the cache once per KV head in its
 * own type at the weights' efficiency (README §7, derived): faster than
 * without it, where the same bytes go at η_att. */
static void
test_decode_flash_attention (void)
{
  HrSpeedInput in;
  HrSpeedToken plain, fa;
  double bw = 1008e9;

  one_gpu (&in, &rtx_4090, 32);
  hr_speed_token (&in, 16384, &plain);
  in.flash_attn = TRUE;
  in.kv_bytes_per_element = 2;
  hr_speed_token (&in, 16384, &fa);
  g_assert_cmpfloat_with_epsilon (fa.cache_seconds,
                                  16384.0 * 32 * 8 * 256 * 2 / (HR_SPEED_ETA_W_CUDA * bw), 1e-12);
  g_assert_cmpfloat (fa.cache_seconds, <, plain.cache_seconds / 2);
  /* a Q8_0 cache halves it again, near enough */
  in.kv_bytes_per_element = 34.0 / 32;
  hr_speed_token (&in, 16384, &plain);
  g_assert_cmpfloat_with_epsilon (plain.cache_seconds / fa.cache_seconds, 34.0 / 64, 1e-9);
}

/* A sliding-window layer reads no more than its window. */
static void
test_decode_sliding_window (void)
{
  HrModelArch swa = llama3_8b;
  HrSpeedInput in;
  HrSpeedToken near, far;

  swa.sliding_window = 4096;
  swa.swa_period = 2;             /* every other layer global */
  one_gpu (&in, &rtx_4090, 32);
  in.arch = &swa;
  hr_speed_token (&in, 4096, &near);
  hr_speed_token (&in, 8192, &far);
  /* past the window only the 16 global layers' reads grow */
  g_assert_cmpfloat_with_epsilon (far.cache_seconds / near.cache_seconds, 1.5, 1e-9);
}

/* Two GPUs of a layer split: a token visits one, then the other, and
 * crosses once. */
static void
test_decode_layer_split (void)
{
  HrSpeedInput one, two;
  HrSpeedToken a, b;

  one_gpu (&one, &rtx_4090, 32);
  two = one;
  two.n_gpus = 2;
  two.gpus[0].layers = 16;
  two.gpus[0].stream_bytes = LAYER_BYTES * 16;
  two.gpus[1] = two.gpus[0];
  two.gpus[1].stream_bytes += OUTPUT_BYTES;
  hr_speed_token (&one, 512, &a);
  hr_speed_token (&two, 512, &b);
  g_assert_cmpfloat_with_epsilon (b.total_seconds - a.total_seconds, HR_SPEED_HOP_SECONDS, 1e-9);
}

/* Metal unpacks K-quants on its ALUs: where that is slower than reading
 * the bytes, it bounds the token. */
static void
test_decode_metal_unpack (void)
{
  HrSpeedInput in;
  HrSpeedToken t;
  double weights = (LAYER_BYTES * 32 + OUTPUT_BYTES) * 8 / (LAYER_BYTES * 8 / LAYER_PARAMS);
  double unpack = weights * HR_SPEED_O_KQ_METAL / 27.2e12;
  double read = (LAYER_BYTES * 32 + OUTPUT_BYTES) / (HR_SPEED_ETA_W_METAL * 800e9);

  one_gpu (&in, &m2_ultra, 32);
  hr_speed_token (&in, 0, &t);
  g_assert_cmpfloat_with_epsilon (t.stream_seconds, MAX (unpack, read), 1e-12);
}

/* A prompt: below 32 tokens the CPU runs its layers itself; from 32 the
 * first GPU multiplies them after copying them over PCIe at the mmap
 * share of the link. */
static void
test_prefill_offload (void)
{
  HrSpeedInput in;
  double copy = 16 * LAYER_BYTES / (HR_SPEED_MMAP_COPY_SHARE * 25e9);

  one_gpu (&in, &rtx_4090, 16);
  in.cpu_layers = 16;
  in.cpu_layer_bytes = 16 * LAYER_BYTES;
  in.cpu_layer_params = 16 * LAYER_PARAMS;
  in.cpu_bytes = 16 * LAYER_BYTES;
  /* 512 tokens: at least the copy of the CPU's layers */
  g_assert_cmpfloat (hr_speed_prefill_seconds (&in, 512), >, copy);
  /* without a PCIe figure the CPU computes them at its assumed rate */
  in.host_link_gbps = 0;
  g_assert_cmpfloat (hr_speed_prefill_seconds (&in, 512), >,
                     2 * 16 * LAYER_PARAMS * 512 / HR_SPEED_CPU_FLOPS);
}

/* gpt-oss-20b (openai/gpt-oss-20b config.json): 24 layers, 32 experts,
 * 4 a token; its layers in the MXFP4 file (llama-bench: 11.27 GiB) carry
 * the routed experts at 4.25 bits a weight.  The numbers below are those
 * of tests/calibration/speed/speedmodel.py for this shape (weights(),
 * shape_from_config()); no sliding window, so both sides read the same
 * attention. */
static const HrModelArch gpt_oss_20b = {
  .attention = HR_ATTENTION_GQA, .n_layers = 24, .hidden = 2880, .n_heads = 64,
  .n_kv_heads = 8, .head_dim_k = 64, .head_dim_v = 64, .vocab = 201088,
  .max_context = 131072, .params_total = 20914757184.0, .params_active = 4187440704.0,
};

#define OSS_LAYER_BYTES   11300237396.48  /* file − embeddings − output head */
#define OSS_LAYER_PARAMS  3028008960.0    /* active matrix weights of the 24 layers */
#define OSS_EXPERT_SHARE  0.8984187892514925 /* routed experts, MXFP4 */
/* speedmodel.py pp_rate, path 'cublas', fa, -ub 2048: generated numbers
 * change with the fit (fit_speed.py prints it) */
#define OSS_PP128_TPS     4024.5228793669235

static HrDevice rtx_pro_6000 = {
  .family = HR_FAMILY_NVIDIA_WORKSTATION, .bandwidth_gbps = 1792,
  .matrix_tflops = 503.8, .tdp_watts = 600, .pcie_gbps = 50,
};

static void
oss_gpu (HrSpeedInput *in)
{
  *in = (HrSpeedInput) {
    .arch = &gpt_oss_20b, .family = HR_QUANT_KQUANT, .n_gpus = 1,
    .ram_gbps = 76.8, .host_link_gbps = 50, .n_ubatch = 2048, .flash_attn = TRUE,
    .kv_bytes_per_element = 2, .experts = 32, .experts_active = 4,
    .expert_share = OSS_EXPERT_SHARE,
  };
  in->gpus[0] = (HrSpeedGpu) {
    .device = &rtx_pro_6000, .layers = 24,
    .stream_bytes = OSS_LAYER_BYTES * (1 - OSS_EXPERT_SHARE * 7 / 8),
    .layer_bytes = OSS_LAYER_BYTES, .layer_params = OSS_LAYER_PARAMS,
  };
}

/* A MoE prompt reads every expert once per micro-batch (128 tokens route
 * to all 32) and runs the grouped expert products at η_moe: slower than
 * the dense model of its active size, and the Python reference's figure. */
static void
test_prefill_moe (void)
{
  HrSpeedInput in, dense;
  double moe_s;

  oss_gpu (&in);
  dense = in;
  dense.experts = 0;
  dense.expert_share = 0;
  dense.gpus[0].layer_bytes = dense.gpus[0].stream_bytes;   /* its active weights */
  moe_s = hr_speed_prefill_seconds (&in, 128);
  g_assert_cmpfloat (moe_s, >, 1.5 * hr_speed_prefill_seconds (&dense, 128));
  /* speedmodel.py, same shape, path 'cublas' (the C side's quantized
   * prompt path) */
  g_assert_cmpfloat_with_epsilon (128 / moe_s, OSS_PP128_TPS, 0.001 * OSS_PP128_TPS);
  /* fuller expert tiles: 2048 tokens cost less per token than 128 */
  g_assert_cmpfloat (hr_speed_prefill_seconds (&in, 2048) / 2048, <,
                     0.5 * hr_speed_prefill_seconds (&in, 128) / 128);
}

/* Experts in RAM (--n-cpu-moe 24): a prompt micro-batch copies them over
 * PCIe once; a token, the CPU multiplies the active ones (RAM or its
 * matrix rate, whichever is slower), and each layer crosses to the CPU
 * and back. */
static void
test_cpu_experts (void)
{
  HrSpeedInput in, gpu;
  HrSpeedToken token, all;
  double experts = OSS_EXPERT_SHARE * OSS_LAYER_BYTES;
  double copy = experts / (HR_SPEED_MMAP_COPY_SHARE * 50e9);
  double read = experts / 8 / (HR_RAM_DECODE_EFFICIENCY * 76.8e9);
  /* the active routed experts: (total − active) / (1 − k/E) × k/E */
  double routed = (gpt_oss_20b.params_total - gpt_oss_20b.params_active) / (1 - 1 / 8.0) / 8;

  oss_gpu (&in);
  gpu = in;
  in.gpus[0].layer_bytes -= experts;
  in.gpus[0].stream_bytes -= experts / 8;
  in.cpu_expert_bytes = experts;
  in.cpu_expert_layers = 24;
  in.cpu_bytes = experts / 8;
  /* prompt: the GPU's whole-model work plus the copy, per micro-batch */
  g_assert_cmpfloat_with_epsilon (hr_speed_prefill_seconds (&in, 2048),
                                  hr_speed_prefill_seconds (&gpu, 2048) + copy, 1e-9);
  g_assert_cmpfloat_with_epsilon (hr_speed_prefill_seconds (&in, 4096),
                                  hr_speed_prefill_seconds (&gpu, 4096) + 2 * copy, 1e-9);
  /* decode: reading RAM binds at the assumed CPU rate … */
  hr_speed_token (&in, 0, &token);
  hr_speed_token (&gpu, 0, &all);
  g_assert_cmpfloat_with_epsilon (token.cpu_seconds, read, 1e-12);
  g_assert_cmpfloat_with_epsilon (token.fixed_seconds,
                                  all.fixed_seconds +
                                  HR_SPEED_CPU_EXPERT_SPLITS * 24 * HR_SPEED_HOP_SECONDS, 1e-12);
  /* … a slow CPU's matrix rate binds */
  in.cpu_flops = 0.1e12;
  hr_speed_token (&in, 0, &token);
  g_assert_cmpfloat_with_epsilon (token.cpu_seconds, 2 * routed / 0.1e12, 1e-12);
  g_assert_cmpfloat (token.cpu_seconds, >, read);
}

/* Past HR_SPEED_PREFILL_SAMPLES engine calls the prompt is integrated
 * from samples: one call more costs about what the last exact call did,
 * and a prompt of 2^31 tokens is still timed (the fuzzers found the loop). */
static void
test_prefill_sampled (void)
{
  HrSpeedInput in;
  double e63, e64, s65;

  one_gpu (&in, &rtx_4090, 32);
  e63 = hr_speed_prefill_seconds (&in, 63 * HR_SPEED_N_BATCH);
  e64 = hr_speed_prefill_seconds (&in, 64 * HR_SPEED_N_BATCH);
  s65 = hr_speed_prefill_seconds (&in, 65 * HR_SPEED_N_BATCH);
  g_assert_cmpfloat (s65 - e64, >, 0.97 * (e64 - e63));
  g_assert_cmpfloat (s65 - e64, <, 1.10 * (e64 - e63));
  g_assert_cmpfloat (hr_speed_prefill_seconds (&in, G_MAXINT32), >, s65);
}

/* The usable matrix peak is held under one TFLOPS per watt. */
static void
test_matrix_power_limit (void)
{
  double peak = 165.2e12, cap = HR_SPEED_TFLOPS_PER_WATT * 1e12 * 450;

  g_assert_cmpfloat_with_epsilon (hr_speed_matrix_flops (&rtx_4090),
                                  1 / (1 / peak + 1 / cap), 1e3);
  /* Apple: no board-power figure, the datasheet peak */
  g_assert_cmpfloat_with_epsilon (hr_speed_matrix_flops (&m2_ultra), 27.2e12, 1e3);
}

/* Strix Halo (Ryzen AI Max+ 395: 256 GB/s, 59.4 TFLOPS, 55 W), as the
 * catalog has it, for the ROCm and Vulkan sets. */
static HrDevice strix_halo = {
  .family = HR_FAMILY_AMD_APU, .bandwidth_gbps = 256,
  .matrix_tflops = 59.4, .tdp_watts = 55,
};

/* Each backend runs on its own constants (hr-speed-fitted.inc): ROCm's
 * and Vulkan's per-layer cost and cache reads; both stream weights at
 * CUDA's share; SYCL has no calibration row and keeps CUDA's set. */
static void
test_backend_sets (void)
{
  HrSpeedInput in;
  HrSpeedToken t;
  double bw = 256e9, cell = 8 * 256;
  double stream = (LAYER_BYTES * 32 + OUTPUT_BYTES) / (HR_SPEED_ETA_W_CUDA * bw);

  one_gpu (&in, &strix_halo, 32);
  in.backend = HR_BACKEND_ROCM;
  hr_speed_token (&in, 4096, &t);
  g_assert_cmpfloat_with_epsilon (t.stream_seconds, stream, stream * 1e-9);
  g_assert_cmpfloat_with_epsilon (t.fixed_seconds, 32 * HR_SPEED_C_LAYER_ROCM, 1e-12);
  g_assert_cmpfloat_with_epsilon (t.cache_seconds,
                                  4096.0 * 32 * cell * 2 / (HR_SPEED_ETA_ATT_ROCM * bw), 1e-12);
  /* flash attention: the cache at η_fa plus 4 FLOPs per query-head
   * dimension at η_fa_mm of the usable matrix peak */
  in.flash_attn = TRUE;
  in.kv_bytes_per_element = 2;
  hr_speed_token (&in, 4096, &t);
  g_assert_cmpfloat_with_epsilon (t.cache_seconds,
                                  4096.0 * 32 * (cell * 2 / (HR_SPEED_ETA_FA_ROCM * bw) +
                                                 4.0 * 32 * 128 /
                                                 (HR_SPEED_ETA_FA_MM_ROCM *
                                                  hr_speed_matrix_flops (&strix_halo))),
                                  1e-12);

  in.backend = HR_BACKEND_VULKAN;
  hr_speed_token (&in, 0, &t);
  g_assert_cmpfloat_with_epsilon (t.fixed_seconds, 32 * HR_SPEED_C_LAYER_VULKAN, 1e-12);
  in.backend = HR_BACKEND_SYCL;
  hr_speed_token (&in, 0, &t);
  g_assert_cmpfloat_with_epsilon (t.fixed_seconds, 32 * HR_SPEED_C_LAYER_CUDA, 1e-12);
}

/* The Python reference (tests/calibration/speed/speedmodel.py) on this
 * shape and device, number for number: decode at depth 4096 and a
 * 2048-token prompt, ROCm and Vulkan, flash attention off and on.
 * Generated by the snippet in tests/calibration/speed/README.md §11;
 * they change with the fit. */
static const struct
{
  HrBackend backend;
  gboolean fa;
  double decode_tps, prompt_tps;
} strix_reference[] = {
#include "test-speed-reference.inc"
};

static void
test_backend_reference (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (strix_reference); i++)
    {
      HrSpeedInput in;
      double decode, prompt;

      one_gpu (&in, &strix_halo, 32);
      in.backend = strix_reference[i].backend;
      in.flash_attn = strix_reference[i].fa;
      in.kv_bytes_per_element = 2;
      decode = 1 / hr_speed_token_seconds (&in, 4096);
      prompt = 2048 / hr_speed_prefill_seconds (&in, 2048);
      g_assert_cmpfloat_with_epsilon (decode, strix_reference[i].decode_tps,
                                      1e-6 * strix_reference[i].decode_tps);
      g_assert_cmpfloat_with_epsilon (prompt, strix_reference[i].prompt_tps,
                                      1e-6 * strix_reference[i].prompt_tps);
    }
}

/* Each rate's range is its group's measured error (hr-speed-groups.inc,
 * written by fit_speed.py): CUDA, dense, all on the GPU, without flash
 * attention, under 8K cached tokens is backed by 69 decode and 284 prompt
 * rows; ROCm and Vulkan with flash attention by the Strix Halo and RX
 * 7900 XTX rows.  CUDA with flash attention, SYCL, CPU-held layers,
 * depth ≥ 32K and the serving engines have too few rows: no range. */
static void
test_ranges (void)
{
  HrSpeedInput in;
  HrSpeedRange r;

  one_gpu (&in, &rtx_4090, 32);
  in.backend = HR_BACKEND_CUDA;
  g_assert_true (hr_speed_range (&in, 4096, 1024, &r));
  g_assert_cmpstr (r.name, ==, "cuda, dense, all on GPU, no FA, depth < 8K");
  g_assert_cmpuint (r.rows, ==, 69 + 284);
  g_assert_cmpfloat (r.decode_low, <, 1);
  g_assert_cmpfloat (r.decode_high, >, 1);
  g_assert_cmpfloat (r.prefill_low, <, r.decode_low);
  g_assert_cmpfloat (r.prefill_high, >, r.decode_high);

  /* decode at 40K: no group; the prompt's own group still has one */
  g_assert_true (hr_speed_range (&in, 40000, 1024, &r));
  g_assert_null (r.name);
  g_assert_cmpfloat (r.decode_low, ==, 0);
  g_assert_cmpfloat (r.prefill_low, >, 0);

  /* the flag is the table's: CUDA has no dense flash-attention group */
  in.flash_attn = TRUE;
  g_assert_false (hr_speed_range (&in, 4096, 1024, &r));

  one_gpu (&in, &strix_halo, 32);
  in.backend = HR_BACKEND_ROCM;
  in.flash_attn = TRUE;
  g_assert_true (hr_speed_range (&in, 4096, 1024, &r));
  g_assert_cmpstr (r.name, ==, "rocm, dense, all on GPU, FA, depth < 8K");
  g_assert_cmpuint (r.rows, ==, 9 + 8);
  in.backend = HR_BACKEND_VULKAN;
  g_assert_true (hr_speed_range (&in, 4096, 1024, &r));
  g_assert_cmpstr (r.name, ==, "vulkan, dense, all on GPU, FA, depth < 8K");
  in.flash_attn = FALSE;
  g_assert_false (hr_speed_range (&in, 4096, 1024, &r));
  in.backend = HR_BACKEND_SYCL;
  g_assert_false (hr_speed_range (&in, 4096, 1024, &r));
  g_assert_null (r.name);
  g_assert_cmpuint (r.rows, ==, 0);

  one_gpu (&in, &rtx_4090, 24);
  in.backend = HR_BACKEND_CUDA;
  in.cpu_layers = 8;
  in.cpu_bytes = 8 * LAYER_BYTES;
  g_assert_false (hr_speed_range (&in, 4096, 1024, &r));

  one_gpu (&in, &rtx_4090, 32);
  in.serving = TRUE;
  g_assert_false (hr_speed_range (&in, 4096, 1024, &r));
}

static void
test_quant_family (void)
{
  g_assert_cmpint (hr_speed_quant_family (4.85, HR_CHECKPOINT_GGUF, "q4_k_m"), ==, HR_QUANT_KQUANT);
  g_assert_cmpint (hr_speed_quant_family (8.5, HR_CHECKPOINT_GGUF, "q8_0"), ==, HR_QUANT_LEGACY);
  g_assert_cmpint (hr_speed_quant_family (16, HR_CHECKPOINT_GGUF, "fp16"), ==, HR_QUANT_FLOAT);
  g_assert_cmpint (hr_speed_quant_family (16, HR_CHECKPOINT_ANY, "bf16"), ==, HR_QUANT_FLOAT);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/speed/decode/terms", test_decode_terms);
  g_test_add_func ("/speed/decode/flash-attention", test_decode_flash_attention);
  g_test_add_func ("/speed/decode/sliding-window", test_decode_sliding_window);
  g_test_add_func ("/speed/decode/layer-split", test_decode_layer_split);
  g_test_add_func ("/speed/decode/metal-unpack", test_decode_metal_unpack);
  g_test_add_func ("/speed/prefill/offload", test_prefill_offload);
  g_test_add_func ("/speed/prefill/sampled", test_prefill_sampled);
  g_test_add_func ("/speed/prefill/moe", test_prefill_moe);
  g_test_add_func ("/speed/cpu-experts", test_cpu_experts);
  g_test_add_func ("/speed/matrix-power-limit", test_matrix_power_limit);
  g_test_add_func ("/speed/quant-family", test_quant_family);
  g_test_add_func ("/speed/ranges", test_ranges);
  g_test_add_func ("/speed/backend-sets", test_backend_sets);
  g_test_add_func ("/speed/backend-reference", test_backend_reference);
  return g_test_run ();
}
