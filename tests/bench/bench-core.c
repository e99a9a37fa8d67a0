/* bench-core.c — how long the core takes: catalog load, and one full
 * recomputation (estimate + matrix + hardware table over every device)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Prints median and 90th-percentile times.  Targets (issue “Core”): a full
 * recomputation under 50 µs median, catalog load under 20 ms; since the
 * engine profiles (placement, the max-context search) are the default
 * every estimate costs ~15 µs and a recomputation of ~150 estimates about
 * 1.5 ms, which the README reports.  The speed model's own share (issue
 * 12) is timed separately: decode at depth and a full-context prompt.
 */

#include "config.h"

#include <time.h>

#include "hr-calculator.h"
#include "hr-hardware-table.h"
#include "hr-matrix.h"
#include "hr-recommend.h"
#include "hr-serving-table.h"
#include "hr-speed.h"

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* This thread's CPU time: what a busy machine disturbs far less than
 * the wall clock. */
static double
thread_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
report (const char *what,
        GArray     *samples,
        const char *unit,
        double      scale)
{
  double *v = (double *) samples->data;

  g_array_sort (samples, compare_doubles);
  g_print ("%-40s median %8.2f %s   p90 %8.2f %s   (n = %u)\n", what,
           v[samples->len / 2] * scale, unit, v[samples->len * 9 / 10] * scale, unit,
           samples->len);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GArray) load = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) full = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) single = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) speed = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) serving = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) serving_none = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) recommend = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) recommend_warm = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) recommend_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) recommend_warm_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(HrCatalog) catalog = NULL;
  g_autoptr(HrCalculator) calc = NULL;
  g_autoptr(HrMatrix) matrix = NULL;
  g_autoptr(HrHardwareTable) table = NULL;
  const int rounds = argc > 1 ? atoi (argv[1]) : 2000;

  for (int i = 0; i < 50; i++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(HrCatalog) c = hr_catalog_new ();
      double t;

      hr_catalog_load_builtin (c, NULL);
      t = (g_get_monotonic_time () - start) / 1e6;
      g_array_append_val (load, t);
    }

  catalog = hr_catalog_new ();
  hr_catalog_load_builtin (catalog, NULL);
  calc = hr_calculator_new (catalog);
  matrix = hr_matrix_new (calc);
  table = hr_hardware_table_new (calc);

  /* One slider step: the calculator, the matrix (8 precisions × 3
   * contexts + tiers) and the hardware table (every device) follow. */
  for (int i = 0; i < rounds; i++)
    {
      gint64 start = g_get_monotonic_time ();
      double t;

      hr_calculator_set_context (calc, 1024 + (i % 512) * 256);
      t = (g_get_monotonic_time () - start) / 1e6;
      g_array_append_val (full, t);
    }

  {
    const HrScenario *s = hr_calculator_get_scenario (calc);
    HrEstimate e;

    for (int i = 0; i < rounds; i++)
      {
        gint64 start = g_get_real_time ();
        double t;

        for (int k = 0; k < 1000; k++)
          hr_scenario_estimate (s, &e, NULL);
        t = (g_get_real_time () - start) / 1e6 / 1000;
        g_array_append_val (single, t);
      }
  }

  /* The speed terms alone: Llama 3 8B Q4_K_M on one GPU, a token at
   * 32,768 tokens and a 32,768-token prompt (64 micro-batches). */
  {
    static const HrModelArch arch = {
      .attention = HR_ATTENTION_GQA, .n_layers = 32, .hidden = 4096, .n_heads = 32,
      .n_kv_heads = 8, .head_dim_k = 128, .head_dim_v = 128, .vocab = 128256,
      .params_total = 8.03e9, .params_active = 8.03e9,
    };
    static const HrDevice gpu = {
      .family = HR_FAMILY_NVIDIA_GEFORCE, .bandwidth_gbps = 1008, .matrix_tflops = 165.2,
      .tdp_watts = 450, .pcie_gbps = 25,
    };
    HrSpeedInput in = {
      .arch = &arch, .family = HR_QUANT_KQUANT, .n_gpus = 1, .ram_gbps = 76.8,
      .host_link_gbps = 25, .n_ubatch = 512,
      .gpus = { { .device = &gpu, .layers = 32, .stream_bytes = 4.53e9,
                  .layer_bytes = 4.11e9, .layer_params = 6.98e9 } },
    };
    volatile double sink = 0;

    for (int i = 0; i < rounds; i++)
      {
        gint64 start = g_get_real_time ();
        double t;

        for (int k = 0; k < 100; k++)
          sink += hr_speed_token_seconds (&in, 32768) + hr_speed_prefill_seconds (&in, 32768);
        t = (g_get_real_time () - start) / 1e6 / 100;
        g_array_append_val (speed, t);
      }
    (void) sink;
  }

  /* The Serving view's full refresh (issue 13): Llama 3.1 70B FP8 on
   * TP 4 H100s, 32 users at 8K and 20 tok/s each — 28 cells, the curve,
   * the limits and a plan found at 16 GPUs; then a target no layout
   * reaches, where the plan search estimates every layout up to 64 GPUs. */
  {
    g_autoptr(HrServingTable) serving_table = hr_serving_table_new ();
    HrScenario s = *hr_calculator_get_scenario (calc);
    guint n_points = 0;

    s.model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-70B-Instruct");
    s.precision = hr_catalog_find_precision (catalog, "fp8");
    s.hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb");
    s.engine = HR_ENGINE_VLLM;
    s.context = 8192;
    s.gpus = 4;
    s.layout = (HrLayout) { 4, 1, 1, 1 };
    s.users = 32;
    s.target_tokens_per_s = 20;
    for (int i = 0; i < MAX (rounds / 20, 10); i++)
      {
        gint64 start = g_get_monotonic_time ();
        double t;

        hr_serving_table_update (serving_table, &s);
        t = (g_get_monotonic_time () - start) / 1e6;
        g_array_append_val (serving, t);
      }
    hr_serving_table_get_points (serving_table, &n_points);
    g_print ("serving refresh: %u points, plan of %u GPUs after %u layouts\n", n_points,
             hr_serving_table_get_plan (serving_table)->gpus,
             hr_serving_table_get_plan (serving_table)->n_evaluated);

    s.target_tokens_per_s = 5000;
    for (int i = 0; i < MAX (rounds / 100, 5); i++)
      {
        gint64 start = g_get_monotonic_time ();
        double t;

        hr_serving_table_update (serving_table, &s);
        t = (g_get_monotonic_time () - start) / 1e6;
        g_array_append_val (serving_none, t);
      }
    g_print ("serving refresh, no plan: %u layouts\n",
             hr_serving_table_get_plan (serving_table)->n_evaluated);
  }

  /* Issue 26: the whole catalog ranked for an RTX 3060 12 GB with
   * 32 GiB of RAM (chat, 8K): every qualifying model × precision
   * estimated, filtered, sorted.  Target: well under a second.  Cold: a
   * fresh catalog, whose models compute their tensor-exact weights on
   * first use; warm: the same catalog again (as the window's second
   * query). */
  {
    HrRecommendStats stats = { 0 };
    guint n = 0;

    for (int i = 0; i < MAX (rounds / 100, 5); i++)
      {
        g_autoptr(HrCatalog) fresh = hr_catalog_new ();
        HrRecommendQuery query = { 0 };
        gint64 start;
        double t, cpu;

        hr_catalog_load_builtin (fresh, NULL);
        query = (HrRecommendQuery) {
          .hardware = hr_catalog_find_hardware (fresh, "rtx-3060-12gb"),
          .ram = { .bytes = (guint64) 32 << 30 },
          .task = HR_TASK_CHAT,
        };
        for (int pass = 0; pass < 2; pass++)
          {
            g_autoptr(GArray) list = NULL;

            start = g_get_monotonic_time ();
            cpu = thread_seconds ();
            list = hr_recommend (fresh, &query, &stats);
            t = (g_get_monotonic_time () - start) / 1e6;
            cpu = thread_seconds () - cpu;
            n = list->len;
            g_array_append_val (pass == 0 ? recommend : recommend_warm, t);
            g_array_append_val (pass == 0 ? recommend_cpu : recommend_warm_cpu, cpu);
          }
      }
    g_print ("recommend: %u estimates, %u candidates fit\n", stats.estimated, n);
  }

  g_print ("Headroom core benchmark: %u models, %u devices\n",
           g_list_model_get_n_items (hr_catalog_get_models (catalog)),
           g_list_model_get_n_items (hr_catalog_get_hardware (catalog)));
  report ("catalog load (built-in)", load, "ms", 1e3);
  report ("full recomputation (calc+matrix+table)", full, "us", 1e6);
  report ("one estimate", single, "us", 1e6);
  report ("speed terms (token + 32K prompt)", speed, "us", 1e6);
  report ("serving view refresh (plan found)", serving, "ms", 1e3);
  report ("serving view refresh (no plan, 64 GPUs)", serving_none, "ms", 1e3);
  report ("recommend, cold (whole catalog, RTX 3060)", recommend, "ms", 1e3);
  report ("recommend, warm", recommend_warm, "ms", 1e3);
  report ("recommend, cold: thread CPU time", recommend_cpu, "ms", 1e3);
  report ("recommend, warm: thread CPU time", recommend_warm_cpu, "ms", 1e3);
  return 0;
}
