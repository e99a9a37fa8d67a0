/* hr-cli-estimate.c — headroom-cli estimate: one set-up's memory and speed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include <stdio.h>

#include "hr-cli-common.h"
#include "hr-cli-log.h"
#include "hr-format.h"
#include "hr-serving-plan.h"
#include "hr-units.h"

/* A rate's range, KEY_low and KEY_high (docs/CLI.md "Additions"): null
 * where its group has no measured rows (0), NAN or no rate at all. */
static void
add_range (JsonBuilder *b,
           const char  *key,
           gboolean     known,
           double       low,
           double       high)
{
  g_autofree char *low_key = g_strconcat (key, "_low", NULL);
  g_autofree char *high_key = g_strconcat (key, "_high", NULL);

  hr_cli_add_double_or_null (b, low_key, known ? low : 0);
  hr_cli_add_double_or_null (b, high_key, known ? high : 0);
}

/* The devices as --hardware names them: "rtx-3090-24gb:1,rtx-3060-12gb:1"
 * for a list (runs of one kind counted), the id alone otherwise. */
static char *
hardware_text (const HrScenario *s,
               gboolean          names)
{
  GString *out = g_string_new (NULL);
  guint32 n = MIN (s->gpus, HR_MAX_DEVICES);

  if (s->devices[0] == NULL)
    {
      g_string_append (out, names ? hr_hardware_get_name (s->hardware)
                                  : hr_hardware_get_id (s->hardware));
      return g_string_free (out, FALSE);
    }
  for (guint32 d = 0; d < n;)
    {
      HrHardware *hw = hr_scenario_gpu (s, d);
      guint32 run = 1;

      while (d + run < n && hr_scenario_gpu (s, d + run) == hw)
        run++;
      if (names)
        g_string_append_printf (out, "%s%s × %u", out->len > 0 ? " + " : "",
                                hr_hardware_get_name (hw), run);
      else
        g_string_append_printf (out, "%s%s:%u", out->len > 0 ? "," : "",
                                hr_hardware_get_id (hw), run);
      d += run;
    }
  return g_string_free (out, FALSE);
}

/* Where everything lives: docs/CLI.md "Additions" (placement). */
static void
add_placement (JsonBuilder      *b,
               const HrScenario *s,
               const HrEstimate *e)
{
  hr_cli_add_string (b, "placement", hr_cli_placement_name (e->placement));
  hr_cli_add_uint (b, "gpu_layers", e->gpu_layers);
  hr_cli_add_uint (b, "layer_count", e->layer_count);
  hr_cli_add_uint (b, "host_bytes", e->host_bytes);
  hr_cli_add_uint (b, "ram_bytes", e->ram_bytes);
  hr_cli_add_uint (b, "ram_usable_bytes", e->ram_usable_bytes);
  hr_cli_add_bool (b, "ram_fits", e->ram_fits);
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint d = 0; d < e->n_devices; d++)
    {
      const HrDeviceLoad *load = &e->devices[d];

      json_builder_begin_object (b);
      /* the device of this GPU (docs/CLI.md "Additions": devices[] gains
       * hardware) and what it keeps for others */
      hr_cli_add_string (b, "hardware", hr_hardware_get_id (hr_scenario_gpu (s, d)));
      hr_cli_add_uint (b, "reserve_bytes", load->reserve_bytes);
      hr_cli_add_uint (b, "mmproj_bytes", load->mmproj_bytes);
      hr_cli_add_uint (b, "draft_bytes", load->draft_bytes);
      hr_cli_add_uint (b, "lora_bytes", load->lora_bytes);
      hr_cli_add_uint (b, "weights_bytes", load->weights_bytes);
      hr_cli_add_uint (b, "kv_bytes", load->kv_bytes);
      hr_cli_add_uint (b, "state_bytes", load->state_bytes);
      hr_cli_add_uint (b, "compute_bytes", load->compute_bytes);
      hr_cli_add_uint (b, "total_bytes", load->total_bytes);
      hr_cli_add_uint (b, "usable_bytes", load->usable_bytes);
      hr_cli_add_uint (b, "layers", load->layers);
      hr_cli_add_bool (b, "output_layer", load->output_layer);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* With --users and --target-tokens-per-s: the smallest layout that gives
 * each user the target (hr-serving-plan.h), or null and why not. */
static void
add_plan (JsonBuilder   *b,
          const HrCliOptions *o)
{
  HrServingPlan plan;
  g_autofree char *message = NULL;

  hr_serving_plan_search (&o->scenario, o->gpus_per_node, &plan);
  json_builder_set_member_name (b, "plan");
  if (plan.status != HR_PLAN_FOUND)
    {
      json_builder_add_null_value (b);
      message = hr_serving_plan_describe (&o->scenario, &plan);
      hr_cli_add_string (b, "plan_reason", hr_plan_status_to_string (plan.status));
      hr_cli_add_string (b, "plan_message", message);
      return;
    }
  json_builder_begin_object (b);
  hr_cli_add_uint (b, "gpus", plan.gpus);
  hr_cli_add_uint (b, "tp", plan.layout.tp);
  hr_cli_add_uint (b, "pp", plan.layout.pp);
  hr_cli_add_uint (b, "dp", plan.layout.dp);
  hr_cli_add_uint (b, "nodes", plan.layout.nodes);
  hr_cli_add_uint (b, "gpus_per_node", plan.gpus_per_node);
  hr_cli_add_double (b, "per_user_tokens_per_s", plan.per_user_tokens_per_s);
  hr_cli_add_double (b, "aggregate_tokens_per_s", plan.aggregate_tokens_per_s);
  hr_cli_add_double (b, "load_ttft_seconds", plan.load_ttft_seconds);
  json_builder_end_object (b);
}

/* docs/CLI.md "Additions", quality and cost: the published quality of the
 * precision and of the cache type, the energy of a token and its price. */
static void
add_quality_energy (JsonBuilder      *b,
                    const HrScenario *s,
                    const HrEstimate *e,
                    const HrPrice    *price)
{
  const char *precision = hr_precision_get_id (s->precision);
  const char *kv = hr_kv_type_get_id (s->kv_type);
  gboolean is_float = g_strcmp0 (hr_precision_get_kind (s->precision), "float") == 0;
  HrQuality quality, kv_quality;
  double joules = 0;

  hr_quality_for_precision (precision, &quality);
  hr_quality_for_kv_type (kv, &kv_quality);
  hr_cli_add_quality (b, "quality", &quality, hr_quality_precision_tier (precision, is_float));
  hr_cli_add_quality (b, "kv_quality", &kv_quality,
                      g_str_equal (kv, "fp16") || g_str_equal (kv, "bf16")
                      ? HR_QUALITY_TIER_REFERENCE
                      : kv_quality.measured ? hr_quality_tier_for_kld (kv_quality.kld)
                                            : HR_QUALITY_TIER_NOT_MEASURED);
  if (e->verdict != HR_VERDICT_NO_FIT)
    joules = hr_energy_joules_per_token (e, hr_hardware_get_device (s->hardware)->tdp_watts,
                                         hr_energy_parallel_gpus (e->engine, s->gpus));
  hr_cli_add_energy (b, joules,
                     e->verdict != HR_VERDICT_NO_FIT
                     ? hr_energy_cost_per_million (joules, e->decode_tokens_per_s, price) : -1);
}

/* The range a speed carries (docs/CLI.md "Additions": the measured error
 * of its group), " (31.0–44.0)", or where no measured row backs the
 * group, the words that say so; "" for engines without the speed groups. */
static char *
speed_range (double            low,
             double            high,
             const HrEstimate *e)
{
  if (low > 0 && high > 0)
    return g_strdup_printf (" (%.1f–%.1f)", low, high);
  if (e->engine == HR_ENGINE_LLAMACPP || e->engine == HR_ENGINE_OLLAMA)
    return g_strdup ("; no measured rows for this group");
  return g_strdup ("");
}

static int
run_estimate (HrCliOptions *o)
{
  HrEstimate e;
  g_autoptr(GError) error = NULL;
  const HrScenario *s = &o->scenario;
  g_autofree char *hardware = hardware_text (s, FALSE);

  guint32 calibrated_runs;

  if (!hr_scenario_estimate (s, &e, &error))
    return hr_cli_usage_error ("%s", error->message);
  /* speeds measured on this computer (headroom-cli calibrate) */
  calibrated_runs = e.calibrated_runs;

  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      hr_cli_add_string (b, "model", hr_model_spec_get_id (s->model));
      hr_cli_add_source (b, o);
      hr_cli_add_string (b, "precision", hr_precision_get_id (s->precision));
      hr_cli_add_uint (b, "context", s->context);
      hr_cli_add_uint (b, "batch", s->batch);
      hr_cli_add_string (b, "kv_type", hr_kv_type_get_id (s->kv_type));
      hr_cli_add_string (b, "engine", hr_engine_to_string (e.engine));
      hr_cli_add_string (b, "engine_requested", hr_engine_to_string (s->engine));
      hr_cli_add_string (b, "hardware", hardware);
      hr_cli_add_uint (b, "gpus", s->gpus);
      hr_cli_add_uint (b, "weights_bytes", e.weights_bytes);
      hr_cli_add_uint (b, "kv_bytes", e.kv_bytes);
      hr_cli_add_uint (b, "state_bytes", e.state_bytes);
      hr_cli_add_uint (b, "state_bytes_per_sequence", e.state_bytes_per_sequence);
      hr_cli_add_layer_kinds (b, hr_model_spec_get_arch (s->model));
      hr_cli_add_uint (b, "overhead_bytes", e.overhead_bytes);
      /* the whole load (docs/CLI.md "Additions"): a vision projector and a
       * draft model beside the model, and what the draft does to decoding */
      hr_cli_add_uint (b, "mmproj_bytes", e.mmproj_bytes);
      hr_cli_add_uint (b, "image_tokens", e.image_tokens);
      hr_cli_add_uint (b, "draft_bytes", e.draft_bytes);
      hr_cli_add_double_or_null (b, "speculative_speedup", e.speculative_speedup);
      hr_cli_add_uint (b, "lora_bytes", e.lora_bytes);
      hr_cli_add_bool (b, "kv_offload", !e.kv_on_host);
      hr_cli_add_uint (b, "host_cache_bytes", e.host_cache_bytes);
      if (s->draft_model != NULL)
        {
          hr_cli_add_double (b, "draft_acceptance", e.draft_acceptance);
          hr_cli_add_uint (b, "draft_max", e.draft_max);
          hr_cli_add_double (b, "draft_cost_ratio", e.draft_cost_ratio);
        }
      hr_cli_add_uint (b, "total_bytes", e.total_bytes);
      hr_cli_add_uint (b, "per_device_bytes", e.per_device_bytes);
      hr_cli_add_uint (b, "usable_bytes", e.usable_bytes);
      hr_cli_add_double (b, "weights_share", e.weights_share);
      hr_cli_add_double (b, "kv_share", e.kv_share);
      hr_cli_add_double (b, "overhead_share", e.overhead_share);
      hr_cli_add_double (b, "device_share", e.device_share);
      hr_cli_add_double (b, "effective_bpw", hr_precision_get_bpw (s->precision));
      hr_cli_add_string (b, "verdict", hr_verdict_to_string (e.verdict));
      hr_cli_add_uint (b, "max_context", e.max_context);
      hr_cli_add_bool (b, "max_context_unbounded", e.max_context_unbounded);
      hr_cli_add_bool (b, "max_context_past_trained", e.max_context_past_trained);
      hr_cli_add_uint (b, "trained_context", hr_model_spec_get_arch (s->model)->max_context);
      /* What does not fit runs at no speed: null, as the window shows none. */
      if (e.verdict == HR_VERDICT_NO_FIT)
        {
          json_builder_set_member_name (b, "decode_tokens_per_s");
          json_builder_add_null_value (b);
        }
      else
        hr_cli_add_double (b, "decode_tokens_per_s", e.decode_tokens_per_s);
      /* the range its group's measured error gives: null without one */
      add_range (b, "decode_tokens_per_s", e.verdict != HR_VERDICT_NO_FIT,
                 e.decode_tokens_per_s_low, e.decode_tokens_per_s_high);
      if (e.prefill_tokens_per_s > 0 && e.verdict != HR_VERDICT_NO_FIT)
        {
          hr_cli_add_uint (b, "prompt_tokens", e.prompt_tokens);
          hr_cli_add_double (b, "prefill_tokens_per_s", e.prefill_tokens_per_s);
          add_range (b, "prefill_tokens_per_s", TRUE,
                     e.prefill_tokens_per_s_low, e.prefill_tokens_per_s_high);
          hr_cli_add_double (b, "ttft_seconds", e.ttft_seconds);
          hr_cli_add_uint (b, "generate_tokens", e.generate_tokens);
          hr_cli_add_double (b, "generation_seconds", e.generation_seconds);
        }
      add_quality_energy (b, s, &e, &o->price);
      hr_cli_add_uint (b, "kv_mha_bytes", e.kv_mha_bytes);
      hr_cli_add_double (b, "kv_savings", e.kv_savings);
      hr_cli_add_double (b, "kv_bytes_per_token", e.kv_bytes_per_token);
      hr_cli_add_uint (b, "kv_heads_per_device", e.kv_heads_per_device);
      hr_cli_add_bool (b, "kv_replicated", e.kv_replicated);
      if (e.engine == HR_ENGINE_LLAMACPP || e.engine == HR_ENGINE_OLLAMA)
        {
          hr_cli_add_uint (b, "compute_bytes", e.compute_bytes);
          hr_cli_add_bool (b, "flash_attn", e.flash_attn);
          hr_cli_add_string (b, "backend", hr_backend_to_string (e.backend));
          hr_cli_add_uint (b, "depth", (guint64) e.depth);
          /* the CPU that runs what the GPUs do not hold (--cpu), or null:
           * the stated assumptions */
          hr_cli_add_string (b, "cpu", s->cpu != NULL ? hr_cpu_get_id (s->cpu) : NULL);
        }
      add_placement (b, s, &e);
      if (e.engine == HR_ENGINE_VLLM || e.engine == HR_ENGINE_SGLANG)
        {
          json_builder_set_member_name (b, "layout");
          json_builder_begin_object (b);
          hr_cli_add_uint (b, "tp", e.layout.tp);
          hr_cli_add_uint (b, "pp", e.layout.pp);
          hr_cli_add_uint (b, "dp", e.layout.dp);
          hr_cli_add_uint (b, "nodes", e.layout.nodes);
          json_builder_end_object (b);
          hr_cli_add_uint (b, "kv_capacity_tokens", e.kv_capacity_tokens);
          hr_cli_add_double (b, "max_concurrency", e.max_concurrency);
          hr_cli_add_uint (b, "max_num_seqs", e.max_num_seqs);
          hr_cli_add_double (b, "gpu_memory_fraction", e.gpu_memory_utilization);
          if (e.users > 0)
            {
              hr_cli_add_uint (b, "users", e.users);
              hr_cli_add_uint (b, "users_served", e.users_served);
              hr_cli_add_double (b, "per_user_tokens_per_s", e.per_user_tokens_per_s);
              hr_cli_add_double (b, "aggregate_tokens_per_s", e.aggregate_tokens_per_s);
              hr_cli_add_double (b, "load_ttft_seconds", e.load_ttft_seconds);
              hr_cli_add_uint (b, "max_users", e.max_users);
            }
        }
      if (s->users > 0 && s->target_tokens_per_s > 0)
        add_plan (b, o);
      hr_cli_add_uint (b, "calibrated_runs", calibrated_runs);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      hr_cli_print_json (root);
      return 0;
    }

  {
    HrUnits u = HR_UNITS_BINARY;
    g_autofree char *weights = hr_format_size (e.weights_bytes, u);
    g_autofree char *kv = hr_format_size (e.kv_bytes, u);
    g_autofree char *overhead = hr_format_size (e.overhead_bytes, u);
    g_autofree char *total = hr_format_size (e.total_bytes, u);
    g_autofree char *per_device = hr_format_size (e.per_device_bytes, u);
    g_autofree char *usable = hr_format_size (e.usable_bytes, u);
    g_autofree char *max_ctx = hr_format_tokens (e.max_context);
    g_autofree char *mha = hr_format_size (e.kv_mha_bytes, u);
    g_autofree char *ctx = hr_format_tokens (s->context);

    g_autofree char *names = hardware_text (s, TRUE);

    if (s->devices[0] != NULL)
      g_print ("%s · %s · %s tokens × %u · KV %s · %s\n",
               hr_model_spec_get_name (s->model), hr_precision_get_label (s->precision),
               ctx, s->batch, hr_kv_type_get_label (s->kv_type), names);
    else
      g_print ("%s · %s · %s tokens × %u · KV %s · %s × %u\n",
               hr_model_spec_get_name (s->model), hr_precision_get_label (s->precision),
               ctx, s->batch, hr_kv_type_get_label (s->kv_type),
               hr_hardware_get_name (s->hardware), s->gpus);
    g_print ("  weights     %12s  %5.1f %%\n", weights, e.weights_share * 100);
    g_print ("  KV cache    %12s  %5.1f %%\n", kv, e.kv_share * 100);
    g_print ("  overhead    %12s  %5.1f %%\n", overhead, e.overhead_share * 100);
    g_print ("  total       %12s\n", total);
    g_print ("  per device  %12s of %s usable: %s\n", per_device, usable,
             hr_verdict_to_string (e.verdict));
    if (e.mmproj_bytes > 0)
      {
        g_autofree char *all = hr_format_size (e.mmproj_bytes, u);
        g_autofree char *w = hr_format_size (e.mmproj_weights_bytes, u);
        g_autofree char *c = hr_format_size (e.mmproj_compute_bytes, u);
        g_autofree char *tokens = hr_format_tokens (e.image_tokens);

        g_print ("  projector   %12s (weights %s + encoder %s) on GPU 0; images take %s "
                 "tokens of the context\n", all, w, c, tokens);
      }
    if (e.draft_bytes > 0 || s->draft_model != NULL)
      {
        g_autofree char *all = hr_format_size (e.draft_bytes, u);

        g_print ("  draft       %12s (%s %s: weights, KV, buffers)\n", all,
                 hr_model_spec_get_name (s->draft_model),
                 hr_precision_get_label (s->draft_precision));
        g_print ("  speculation ×%.2f at %.0f %% acceptance, %u drafted a step, a draft token "
                 "costing %.2f of the model's%s\n", e.speculative_speedup,
                 e.draft_acceptance * 100, e.draft_max, e.draft_cost_ratio,
                 e.speculative_speedup < 1 ? ": it makes decoding SLOWER" : "");
      }
    if (e.lora_bytes > 0)
      {
        g_autofree char *all = hr_format_size (e.lora_bytes, u);

        g_print ("  adapters    %12s (%u LoRA, beside the layers they adapt)\n", all,
                 s->n_lora);
      }
    if (e.kv_on_host)
      g_print ("  KV cache in system RAM (--no-kv-offload): the CPU computes attention\n");
    if (e.host_cache_bytes > 0)
      {
        g_autofree char *all = hr_format_size (e.host_cache_bytes, u);

        g_print ("  prompt cache %11s at most, in system RAM (--cache-ram)\n", all);
      }
    /* GPUs of different kinds, or memory kept for others: each GPU */
    if (s->devices[0] != NULL || o->reserve_arg != NULL || s->reserve_set[0])
      for (guint32 d = 0; d < e.n_devices; d++)
        {
          const HrDeviceLoad *load = &e.devices[d];
          g_autofree char *held = hr_format_size (load->total_bytes, u);
          g_autofree char *can = hr_format_size (load->usable_bytes, u);
          g_autofree char *kept = hr_format_size (load->reserve_bytes, u);

          g_print ("  GPU %-2u      %12s of %s usable (%s kept for others) · %s, %u layers\n",
                   d, held, can, kept, hr_hardware_get_name (hr_scenario_gpu (s, d)),
                   load->layers);
        }
    if (e.verdict == HR_VERDICT_NO_FIT)
      g_print ("  decode      %12s (it does not fit)\n", "—");
    else
      {
        g_autofree char *range = speed_range (e.decode_tokens_per_s_low,
                                              e.decode_tokens_per_s_high, &e);

        g_print ("  decode      %12.1f tok/s (single stream)%s\n", e.decode_tokens_per_s, range);
      }
    if (e.prefill_tokens_per_s > 0 && e.verdict != HR_VERDICT_NO_FIT)
      {
        g_autofree char *prompt = hr_format_tokens (e.prompt_tokens);
        g_autofree char *range = speed_range (e.prefill_tokens_per_s_low,
                                              e.prefill_tokens_per_s_high, &e);
        g_autofree char *depth = e.depth > 0 ? hr_format_tokens ((guint64) e.depth) : NULL;

        if (depth != NULL)
          g_print ("  prompt      %12.1f tok/s over %s tokens after %s cached; first token "
                   "after %.2f s%s\n", e.prefill_tokens_per_s, prompt, depth, e.ttft_seconds,
                   range);
        else
          g_print ("  prompt      %12.1f tok/s over %s tokens; first token after %.2f s%s\n",
                   e.prefill_tokens_per_s, prompt, e.ttft_seconds, range);
        g_print ("  answer      %12.2f s for %" G_GUINT64_FORMAT " tokens\n",
                 e.generation_seconds, e.generate_tokens);
      }
    if (calibrated_runs > 0)
      g_print ("  speeds calibrated on this computer from %u runs\n", calibrated_runs);
    if (e.max_context == 0 && !e.max_context_unbounded)
      /* as the window says it: no figure, and why (issue 30.19's sibling) */
      g_print ("  max context %12s (%s)\n", "—",
               e.engine == HR_ENGINE_LLAMACPP || e.engine == HR_ENGINE_OLLAMA
               ? "no context holds every layer on the GPUs: llama.cpp leaves layers in "
                 "system RAM"
               : "no room is left for the KV cache");
    else
      g_print ("  max context %12s tokens%s\n", max_ctx,
               e.max_context_past_trained ? " (past the trained maximum)" : "");
    g_print ("  KV saves %.1f %% vs MHA FP16 (%s)\n", e.kv_savings * 100, mha);
    if (e.placement == HR_PLACEMENT_PARTIAL || e.placement == HR_PLACEMENT_CPU)
      {
        g_autofree char *host = hr_format_size (e.host_bytes, u);
        g_autofree char *ram = hr_format_size (e.ram_usable_bytes, u);

        g_print ("  placement   %u of %u layers on the GPU; %s in system RAM (of %s usable)%s\n",
                 e.gpu_layers, e.layer_count, host, ram, e.ram_fits ? "" : ": too little RAM");
      }
    if (e.engine == HR_ENGINE_LLAMACPP || e.engine == HR_ENGINE_OLLAMA)
      {
        g_autofree char *compute = hr_format_size (e.compute_bytes, u);
        g_autofree char *host = hr_format_size (e.host_bytes, u);
        g_print ("  compute buffer %s per device (flash attention %s)\n",
                 compute, e.flash_attn ? "on" : "off");
        g_print ("  system RAM  %12s held by the engine (input embeddings, host buffers%s)\n",
                 host, e.kv_on_host ? ", the KV cache" :
                       e.placement == HR_PLACEMENT_PARTIAL || e.placement == HR_PLACEMENT_CPU
                       ? ", the layers left there" : "");
        g_print ("  backend     %s%s%s\n", hr_backend_label (e.backend),
                 e.speed_group != NULL ? " · " : "", e.speed_group != NULL ? e.speed_group : "");
        if (s->cpu != NULL)
          g_print ("  CPU         %s: %.2f TFLOPS, %.0f GB/s\n", hr_cpu_get_name (s->cpu),
                   hr_cpu_get_matrix_flops (s->cpu) / 1e12, e.ram_bandwidth_gbps);
      }
    if (e.engine == HR_ENGINE_VLLM || e.engine == HR_ENGINE_SGLANG)
      {
        g_autofree char *capacity = hr_format_tokens (e.kv_capacity_tokens);
        g_print ("  KV capacity %s tokens, %.2fx concurrency at this context\n",
                 capacity, e.max_concurrency);
        if (s->users > 0 && s->target_tokens_per_s > 0)
          {
            HrServingPlan plan;
            g_autofree char *text = NULL;

            hr_serving_plan_search (s, o->gpus_per_node, &plan);
            text = hr_serving_plan_describe (s, &plan);
            g_print ("  plan        %s\n", text);
          }
      }
  }
  return 0;
}

/* Every set-up option: estimate is the command that reports them all. */
static void
add_options (GArray       *entries,
             HrCliOptions *o)
{
  hr_cli_add_model (entries, o);
  hr_cli_add_precision (entries, o);
  hr_cli_add_context (entries, o);
  hr_cli_add_batch (entries, o);
  hr_cli_add_setup (entries, o);
  hr_cli_add_gpus (entries, o);
  hr_cli_add_reserve (entries, o);
  hr_cli_add_extras (entries, o);
  hr_cli_add_json (entries, o);
  hr_cli_add_tuning (entries, o);
  hr_cli_add_placement (entries, o);
  hr_cli_add_layout (entries, o);
  hr_cli_add_speed (entries, o);
  hr_cli_add_backend (entries, o);
  hr_cli_add_cpu (entries, o);
  hr_cli_add_load (entries, o);
  hr_cli_add_calibration (entries, o);
  hr_cli_add_price (entries, o);
}

static int
run (HrCliOptions *o,
     const char   *name)
{
  o->accepts_device_list = TRUE;
  if (!hr_cli_resolve_scenario (o, TRUE))
    return hr_cli_exit_status ();
  return run_estimate (o);
}

const HrCliCommand hr_cli_estimate_command = {
  .name = "estimate",
  .synopsis = "estimate  --model M --precision P [--context N] [--batch N]\n"
              "                         [--kv-type K] [--engine E] [--hardware H] [--gpus N] [--json]",
  .summary = "Estimates the memory one model needs at one precision, context and batch "
             "on one device, and its speed.",
  .add_options = add_options,
  .run = run,
};
