/* hr-summary.c — one estimate in words: the verdict, its reason, the summary
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything here is a pure function of the scenario and its estimate, so
 * that the Overview, the tables and Copy Summary say the same thing, and
 * Copy Summary describes the current set-up whichever page is shown
 * (issue 24 item 1: it used to read the Overview's labels back, which
 * stop refreshing while another page is shown).
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "hr-summary.h"

/**
 * hr_summary_verdict_label:
 *
 * The one name of a verdict that every view shows (issue 30 item 9): a
 * set-up with layers or experts in system RAM is named for that, in the
 * Overview, the Compare and Hardware tables and the Matrix tooltips, with
 * the colour of its @verdict ("tight": the GPU is full because llama.cpp
 * filled it).
 *
 * Returns: (transfer none): a translated label
 */
const char *
hr_summary_verdict_label (HrVerdict       verdict,
                          HrPlacementKind placement)
{
  if (verdict == HR_VERDICT_NO_FIT)
    return _("Does not fit");
  if (placement == HR_PLACEMENT_CPU)
    /* TRANSLATORS: a verdict: no layer on the GPU */
    return _("Runs on the CPU");
  if (placement == HR_PLACEMENT_PARTIAL)
    /* TRANSLATORS: a verdict: some layers (or experts) in system RAM */
    return _("Partly in system RAM");
  if (verdict == HR_VERDICT_COMFORTABLE)
    return _("Fits comfortably");
  /* TRANSLATORS: the model fits, with little memory to spare */
  return _("Fits, but tight");
}

/* Layers (or experts) left in system RAM: llama.cpp and Ollama only. */
gboolean
hr_summary_in_system_ram (const HrEstimate *e)
{
  return e->placement == HR_PLACEMENT_PARTIAL || e->placement == HR_PLACEMENT_CPU;
}

/* "RTX 3060 12GB", "4 × RTX 3090 24GB" */
char *
hr_summary_device (const HrScenario *s)
{
  if (s->hardware == NULL)
    return g_strdup ("");
  if (s->gpus <= 1)
    return g_strdup (hr_hardware_get_name (s->hardware));
  /* TRANSLATORS: "4 × RTX 3090 24GB" */
  return g_strdup_printf (_("%u × %s"), s->gpus, hr_hardware_get_name (s->hardware));
}

/* What runs with layers in system RAM, and what does not: the RAM too
 * small, or more layers asked for than the GPU holds. */
static void
offload_verdict (const HrEstimate *e,
                 const char       *device,
                 HrUnits           units,
                 char            **title,
                 char            **subtitle)
{
  g_autofree char *host = hr_format_size (e->host_bytes, units);
  g_autofree char *rate = hr_format_rate (e->decode_tokens_per_s);
  g_autofree char *per_device = hr_format_size (e->per_device_bytes, units);
  g_autofree char *usable = hr_format_size (e->usable_bytes, units);

  if (!e->ram_fits)
    {
      g_autofree char *ram_usable = hr_format_size (e->ram_usable_bytes, units);
      g_autofree char *ram = hr_format_size (e->ram_bytes, units);

      *title = g_strdup (_("Does not run: system RAM is too small"));
      /* TRANSLATORS: "9.31 GiB must stay in system RAM, and 4.00 GiB of its
       * 8.00 GiB are usable; 27 of 49 layers on the GPU" */
      *subtitle = g_strdup_printf (ngettext ("%s must stay in system RAM, and %s of its %s "
                                             "are usable; %u of %u layer on the GPU",
                                             "%s must stay in system RAM, and %s of its %s "
                                             "are usable; %u of %u layers on the GPU",
                                             e->layer_count),
                                   host, ram_usable, ram, e->gpu_layers, e->layer_count);
    }
  else if (e->per_device_bytes > e->usable_bytes)
    {
      g_autofree char *over = hr_format_size (e->per_device_bytes - e->usable_bytes, units);

      *title = g_strdup_printf (_("%s on %s"), _("Does not fit"), device);
      /* TRANSLATORS: "28 of 49 layers on the GPU need 12.90 GiB per device,
       * 11.81 GiB usable: 1.09 GiB short" */
      *subtitle = g_strdup_printf (ngettext ("%u of %u layer on the GPU need %s per device, "
                                             "%s usable: %s short",
                                             "%u of %u layers on the GPU need %s per device, "
                                             "%s usable: %s short",
                                             e->layer_count),
                                   e->gpu_layers, e->layer_count, per_device, usable, over);
    }
  else
    {
      g_autofree char *free_ = hr_format_size (e->free_bytes, units);

      if (e->placement == HR_PLACEMENT_CPU)
        /* TRANSLATORS: "Runs on the CPU, 20.31 GiB in system RAM, ~10.5 tok/s" */
        *title = g_strdup_printf (_("Runs on the CPU, %s in system RAM, ~%s"), host, rate);
      else if (e->gpu_layers >= e->layer_count)
        /* TRANSLATORS: MoE experts kept in system RAM (--n-cpu-moe):
         * "Runs with every layer on the GPU and 16.55 GiB of experts in
         * system RAM, ~14.0 tok/s" */
        *title = g_strdup_printf (_("Runs with every layer on the GPU and %s of experts in "
                                    "system RAM, ~%s"), host, rate);
      else
        /* TRANSLATORS: "Runs with 27 of 49 layers on the GPU, 9.31 GiB in
         * system RAM, ~14.0 tok/s" */
        *title = g_strdup_printf (ngettext ("Runs with %u of %u layer on the GPU, %s in "
                                            "system RAM, ~%s",
                                            "Runs with %u of %u layers on the GPU, %s in "
                                            "system RAM, ~%s",
                                            e->layer_count),
                                  e->gpu_layers, e->layer_count, host, rate);
      /* TRANSLATORS: "RTX 3060 12GB: 11.75 GiB of 11.81 GiB usable per
       * device, 0.06 GiB free" */
      *subtitle = g_strdup_printf (_("%s: %s of %s usable per device, %s free"),
                                   device, per_device, usable, free_);
    }
}

/**
 * hr_summary_verdict:
 * @title: (out): "Fits comfortably on RTX 3060 12GB"
 * @subtitle: (out): what it rests on
 *
 * The verdict of a valid estimate, and the figures it rests on.  A vLLM or
 * SGLang set-up that does not fit with memory to spare says why: its KV
 * cache holds fewer tokens than one sequence needs; one that fits says
 * how many times over its cache holds the sequences (issue 30 item 13).
 */
void
hr_summary_verdict (const HrScenario *s,
                    const HrEstimate *e,
                    HrUnits           units,
                    char            **title,
                    char            **subtitle)
{
  g_autofree char *device = hr_summary_device (s);
  g_autofree char *per_device = hr_format_size (e->per_device_bytes, units);
  g_autofree char *usable = hr_format_size (e->usable_bytes, units);

  g_return_if_fail (title != NULL && subtitle != NULL);

  if (hr_summary_in_system_ram (e))
    {
      offload_verdict (e, device, units, title, subtitle);
      return;
    }

  /* TRANSLATORS: "Fits comfortably on RTX 3060 12GB" */
  *title = g_strdup_printf (_("%s on %s"), hr_summary_verdict_label (e->verdict, e->placement),
                            device);
  if (e->excess_bytes > 0)
    {
      g_autofree char *over = hr_format_size (e->excess_bytes, units);
      /* TRANSLATORS: "20.42 GiB needed, 11.81 GiB usable: 8.61 GiB short" */
      *subtitle = g_strdup_printf (_("%s needed per device, %s usable: %s short"),
                                   per_device, usable, over);
    }
  else if (e->verdict == HR_VERDICT_NO_FIT &&
           (e->engine == HR_ENGINE_VLLM || e->engine == HR_ENGINE_SGLANG))
    {
      g_autofree char *capacity = hr_format_tokens (e->kv_capacity_tokens);
      g_autofree char *context = hr_format_tokens (s->context);

      if (e->kv_capacity_tokens == 0)
        /* TRANSLATORS: vLLM or SGLang: "the weights and buffers take 22.10 GiB
         * of 22.05 GiB: no room is left for the KV cache" */
        *subtitle = g_strdup_printf (_("the weights and buffers take %s of %s usable: no "
                                       "room is left for the KV cache"), per_device, usable);
      else
        /* TRANSLATORS: vLLM or SGLang: "the KV cache holds 6,144 tokens,
         * fewer than one sequence of 32,768" */
        *subtitle = g_strdup_printf (_("the KV cache holds %s tokens, fewer than one "
                                       "sequence of %s"), capacity, context);
    }
  else if ((e->engine == HR_ENGINE_VLLM || e->engine == HR_ENGINE_SGLANG) &&
           e->kv_capacity_tokens > 0)
    {
      /* vLLM and SGLang take their share of the GPU up front and fill it
       * with KV cache: the memory is always nearly all used, and the
       * verdict rests on the tokens the cache holds (issue 30 item 13:
       * "Fits comfortably" beside 99 % of memory said nothing). */
      g_autofree char *capacity = hr_format_tokens (e->kv_capacity_tokens);
      /* TRANSLATORS: vLLM or SGLang: "23.58 GiB of 23.81 GiB taken up front;
       * the KV cache holds 35,842 tokens, 4.4 × what the sequences need" */
      *subtitle = g_strdup_printf (_("%s of %s taken up front; the KV cache holds %s tokens, "
                                     "%.1f × what the sequences need"),
                                   per_device, usable, capacity, e->max_concurrency);
    }
  else
    {
      g_autofree char *free_ = hr_format_size (e->free_bytes, units);
      /* TRANSLATORS: "7.86 GiB of 11.81 GiB usable per device, 3.95 GiB free" */
      *subtitle = g_strdup_printf (_("%s of %s usable per device, %s free"),
                                   per_device, usable, free_);
    }
}

/* "0.88 s", "12.3 s", "2 min 3 s", "1 h 4 min" */
char *
hr_summary_duration (double seconds)
{
  guint64 whole;

  if (seconds < 1.0)
    /* TRANSLATORS: a duration in seconds, "0.88 s" */
    return g_strdup_printf (_("%.2f\u00a0s"), seconds);
  if (seconds < 10.0)
    return g_strdup_printf (_("%.1f\u00a0s"), seconds);
  if (seconds < 60.0)
    return g_strdup_printf (_("%.0f\u00a0s"), seconds);
  whole = (guint64) (seconds + 0.5);
  if (whole < 3600)
    /* TRANSLATORS: a duration, "2 min 3 s" */
    return g_strdup_printf (_("%u\u00a0min %u\u00a0s"), (guint) (whole / 60), (guint) (whole % 60));
  /* TRANSLATORS: a duration, "1 h 4 min" */
  return g_strdup_printf (_("%u\u00a0h %u\u00a0min"), (guint) (whole / 3600),
                          (guint) (whole % 3600 / 60));
}

/* The whole answer: the prompt read and the first token, then the rest. */
double
hr_summary_answer_seconds (const HrEstimate *e)
{
  return e->ttft_seconds + e->generation_seconds;
}

/* The answer's tokens over the time they take, after the first. */
double
hr_summary_answer_rate (const HrEstimate *e)
{
  return e->generation_seconds > 0 ? e->generate_tokens / e->generation_seconds : 0.0;
}

/* The layers llama.cpp leaves on the CPU. */
guint32
hr_summary_cpu_layers (const HrEstimate *e)
{
  return e->layer_count - MIN (e->gpu_layers, e->layer_count);
}

/* System RAM beyond the CPU's weights and cache: its compute buffer and
 * the token embeddings' copy. */
guint64
hr_summary_host_other_bytes (const HrEstimate *e)
{
  guint64 held = e->host_weights_bytes + e->host_kv_bytes;

  return e->host_bytes > held ? e->host_bytes - held : 0;
}

/* "136,404", "Unbounded", or "—" when not even a short context fits. */
char *
hr_summary_max_context (const HrEstimate *e)
{
  if (e->max_context_unbounded)
    return g_strdup (_("Unbounded"));
  if (e->max_context == 0)
    return g_strdup ("—");
  return hr_format_tokens (e->max_context);
}

/**
 * hr_summary_kv_note:
 *
 * When the engine keeps another cache type than the one asked for (Ollama
 * keeps F16 without flash attention), the sentence that says so and why
 * (issue 30, item 15); NULL otherwise.
 *
 * Returns: (transfer full) (nullable): the sentence
 */
char *
hr_summary_kv_note (const HrScenario *s,
                    const HrEstimate *e)
{
  const char *asked = s->kv_type != NULL ? hr_kv_type_get_label (s->kv_type) : "";

  if (!e->kv_type_ignored)
    return NULL;
  if (e->engine == HR_ENGINE_OLLAMA)
    /* TRANSLATORS: %s is the cache type asked for, "Q8_0" */
    return g_strdup_printf (_("The KV cache is computed in FP16: without flash attention "
                              "Ollama ignores the %s cache type and keeps F16."), asked);
  /* TRANSLATORS: %s is the cache type asked for, "Q8_0" */
  return g_strdup_printf (_("The KV cache is computed in FP16: the engine does not keep "
                            "a %s cache as set."), asked);
}

/**
 * hr_summary_ram_used:
 *
 * The system memory this estimate used, and where it came from: the
 * window's detection (or the user's value), `--ram` or `--hardware local`
 * in the CLI, or the documented default (HR_RAM_DEFAULT_GIB at
 * HR_RAM_DEFAULT_BANDWIDTH_GBPS) when neither gave one.  The Assumptions
 * state this, not the default, whatever was used (issue 30, item 14).
 *
 * Returns: (transfer full): one sentence
 */
char *
hr_summary_ram_used (const HrScenario *s,
                     const HrEstimate *e,
                     HrUnits           units)
{
  g_autofree char *ram = hr_format_size (e->ram_bytes, units);

  if (s->hardware != NULL && hr_hardware_is_unified (s->hardware))
    /* TRANSLATORS: "System RAM: the same 16.00 GiB pool as the GPU." */
    return g_strdup_printf (_("System RAM: the same %s pool as the GPU."), ram);
  if (s->ram.bytes == 0)
    /* TRANSLATORS: "System RAM: 32.00 GiB at 76.8 GB/s, Headroom's
     * default (none detected or given)." */
    return g_strdup_printf (_("System RAM: %s at %.1f GB/s, Headroom’s default (none "
                              "detected or given)."), ram, e->ram_bandwidth_gbps);
  /* TRANSLATORS: "System RAM: 23.54 GiB at 76.8 GB/s, as detected or set." */
  return g_strdup_printf (_("System RAM: %s at %.1f GB/s, as detected or set."),
                          ram, e->ram_bandwidth_gbps);
}

const char *
hr_summary_engine_name (HrEngine engine)
{
  switch (engine)
    {
    case HR_ENGINE_LLAMACPP:
      return "llama.cpp";
    case HR_ENGINE_OLLAMA:
      return "Ollama";
    case HR_ENGINE_VLLM:
      return "vLLM";
    case HR_ENGINE_SGLANG:
      return "SGLang";
    case HR_ENGINE_GENERIC:
    case HR_ENGINE_AUTO:
    default:
      return _("The nominal method");
    }
}

/* One "name: value" line, or a Markdown list item; a value that says
 * nothing ("" or a dash) is left out. */
static void
summary_line (GString    *out,
              gboolean    markdown,
              const char *name,
              const char *value)
{
  if (value == NULL || value[0] == '\0' || g_str_equal (value, "—"))
    return;
  if (markdown)
    g_string_append_printf (out, "- **%s:** %s\n", name, value);
  else
    g_string_append_printf (out, "%s: %s\n", name, value);
}

/**
 * hr_summary_text:
 * @estimate: the estimate of @scenario (ignored when @error is set)
 * @error: (nullable): why there is no estimate
 * @markdown: a Markdown list rather than plain lines
 *
 * The answer to paste: the set-up (model, precision, context, batch, KV
 * cache, engine, device), the verdict and what it rests on, the totals and
 * the speeds, in the words and figures the Overview shows.
 *
 * Returns: (transfer full): the summary
 */
char *
hr_summary_text (const HrScenario *s,
                 const HrEstimate *e,
                 const char       *error,
                 HrUnits           units,
                 gboolean          markdown)
{
  GString *out = g_string_new (NULL);
  g_autofree char *context = hr_format_tokens (s->context);
  g_autofree char *batch = g_strdup_printf ("%u", s->batch);
  g_autofree char *device = NULL;
  g_autofree char *verdict = NULL;
  const char *name = s->model != NULL ? hr_model_spec_get_name (s->model) : NULL;

  if (s->hardware != NULL)
    /* TRANSLATORS: a number of GPUs and the device, "2 × RTX 3090 24GB" */
    device = g_strdup_printf (_("%u × %s"), MAX (s->gpus, 1), hr_hardware_get_name (s->hardware));
  if (error != NULL)
    /* TRANSLATORS: the verdict, then what it rests on:
     * "Fits comfortably on RTX 3060 12GB — 7.41 GiB of 11.81 GiB usable" */
    verdict = g_strdup_printf (_("%s — %s"), _("No estimate"), error);
  else
    {
      g_autofree char *title = NULL;
      g_autofree char *subtitle = NULL;

      hr_summary_verdict (s, e, units, &title, &subtitle);
      verdict = g_strdup_printf (_("%s — %s"), title, subtitle);
    }

  if (markdown)
    g_string_append_printf (out, "### %s\n\n", name != NULL ? name : "Headroom");
  summary_line (out, markdown, _("Model"), name);
  summary_line (out, markdown, _("Precision"),
                s->precision != NULL ? hr_precision_get_label (s->precision) : NULL);
  summary_line (out, markdown, _("Context"), context);
  summary_line (out, markdown, _("Parallel sequences"), batch);
  if (error == NULL && e->kv_type_ignored)
    {
      /* TRANSLATORS: the cache type asked for, and the one the engine keeps:
       * "Q8_0 (FP16 as the engine runs it)" */
      g_autofree char *kv = g_strdup_printf (_("%s (FP16 as the engine runs it)"),
                                             s->kv_type != NULL
                                             ? hr_kv_type_get_label (s->kv_type) : "");
      summary_line (out, markdown, _("KV cache"), kv);
    }
  else
    summary_line (out, markdown, _("KV cache"),
                  s->kv_type != NULL ? hr_kv_type_get_label (s->kv_type) : NULL);
  summary_line (out, markdown, _("Engine"),
                hr_summary_engine_name (error != NULL ? hr_scenario_engine (s) : e->engine));
  summary_line (out, markdown, _("Device"), device);
  if (markdown)
    g_string_append_c (out, '\n');
  summary_line (out, markdown, _("Verdict"), verdict);
  if (error == NULL)
    {
      g_autofree char *total = hr_format_size (e->total_bytes, units);
      g_autofree char *per_device = hr_format_size (e->per_device_bytes, units);
      g_autofree char *max_context = hr_summary_max_context (e);

      summary_line (out, markdown, _("Total memory"), total);
      summary_line (out, markdown, _("Per device"), per_device);
      if (hr_summary_in_system_ram (e))
        {
          g_autofree char *host = hr_format_size (e->host_bytes, units);
          summary_line (out, markdown, _("In system RAM"), host);
        }
      summary_line (out, markdown, _("Max context before OOM"), max_context);
      /* No speed where it does not run. */
      if (e->verdict != HR_VERDICT_NO_FIT)
        {
          g_autofree char *decode = hr_format_rate (e->decode_tokens_per_s);

          if (e->prefill_tokens_per_s > 0)
            {
              g_autofree char *prefill = hr_format_rate (e->prefill_tokens_per_s);
              g_autofree char *ttft = hr_summary_duration (e->ttft_seconds);
              summary_line (out, markdown, _("Prompt speed"), prefill);
              summary_line (out, markdown, _("First token"), ttft);
            }
          summary_line (out, markdown, _("Decode speed"), decode);
          if (e->prefill_tokens_per_s > 0)
            {
              g_autofree char *answer = hr_summary_duration (hr_summary_answer_seconds (e));
              summary_line (out, markdown, _("Whole answer"), answer);
            }
        }
    }
  return g_string_free (out, FALSE);
}
