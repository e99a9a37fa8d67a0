/* hr-cli-check-log.c — headroom-cli check-log: an engine's log against the
 * estimate for the same settings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include <math.h>
#include <string.h>

#include "hr-cli-log.h"
#include "hr-format.h"
#include "hr-log-check.h"

static char *
format_figure (HrLogFigureKind kind,
               double     value)
{
  switch (kind)
    {
    case HR_LOG_FIGURE_BYTES:
      return hr_format_size ((guint64) llround (value), HR_UNITS_BINARY);
    case HR_LOG_FIGURE_TOKENS:
      return hr_format_tokens ((guint64) llround (value));
    case HR_LOG_FIGURE_RATE:
      return g_strdup_printf ("%.1f t/s", value);
    case HR_LOG_FIGURE_RATIO:
    default:
      return g_strdup_printf ("%.2f×", value);
    }
}

static void
add_number (JsonBuilder     *b,
            const char      *key,
            HrLogFigureKind  kind,
            double       value)
{
  if (kind == HR_LOG_FIGURE_BYTES || kind == HR_LOG_FIGURE_TOKENS)
    hr_cli_add_uint (b, key, (guint64) llround (value));
  else
    hr_cli_add_double (b, key, value);
}

static void
print_json (const HrCliOptions *o,
            const char         *file,
            const HrEngineLog  *log,
            const HrEstimate   *e,
            const HrLogCheck   *f,
            const double       *run_estimates,
            guint32             calibrated_runs)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  const HrScenario *s = &o->scenario;

  json_builder_begin_object (b);
  hr_cli_add_file_string (b, "file", file);
  hr_cli_add_string (b, "log", hr_engine_log_kind_to_string (log->kind));
  hr_cli_add_string (b, "engine", hr_engine_to_string (e->engine));
  hr_cli_add_string (b, "build", log->version);
  hr_cli_add_string (b, "model", hr_model_spec_get_id (s->model));
  hr_cli_add_string (b, "model_in_log", log->model);
  hr_cli_add_string (b, "precision", hr_precision_get_id (s->precision));
  hr_cli_add_uint (b, "context", s->context);
  hr_cli_add_uint (b, "batch", s->batch);
  hr_cli_add_string (b, "kv_type", hr_kv_type_get_id (s->kv_type));
  hr_cli_add_string (b, "kv_type_in_log", log->kv_type);
  hr_cli_add_string (b, "hardware", hr_hardware_get_id (s->hardware));
  hr_cli_add_uint (b, "gpus", s->gpus);
  hr_cli_add_string (b, "gpu_in_log", log->gpu_name);
  /* Ollama's memory.* lines are its plan, not what it allocated */
  hr_cli_add_string (b, "measured_source",
                     log->kind == HR_ENGINE_LOG_OLLAMA && log->n_devices == 0 ? "ollama-plan"
                                                                               : "log");
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint i = 0, gpu = 0; i < log->n_devices; i++)
    {
      const HrEngineLogDevice *d = &log->devices[i];
      gboolean host = strcmp (d->name, "CPU") == 0;

      json_builder_begin_object (b);
      hr_cli_add_string (b, "name", d->name);
      hr_cli_add_bool (b, "host", host);
      json_builder_set_member_name (b, "measured");
      json_builder_begin_object (b);
      if (d->has_weights)
        hr_cli_add_uint (b, "weights_bytes", d->weights_bytes);
      if (d->has_kv)
        hr_cli_add_uint (b, "kv_bytes", d->kv_bytes);
      if (d->has_state)
        hr_cli_add_uint (b, "state_bytes", d->state_bytes);
      if (d->has_compute)
        hr_cli_add_uint (b, "compute_bytes", d->compute_bytes);
      json_builder_end_object (b);
      json_builder_set_member_name (b, "estimate");
      if (!host && gpu < e->n_devices && e->engine != HR_ENGINE_VLLM &&
          e->engine != HR_ENGINE_SGLANG)
        {
          const HrDeviceLoad *load = &e->devices[gpu];

          json_builder_begin_object (b);
          hr_cli_add_uint (b, "weights_bytes", load->weights_bytes);
          hr_cli_add_uint (b, "kv_bytes", load->kv_bytes);
          hr_cli_add_uint (b, "compute_bytes", load->compute_bytes);
          json_builder_end_object (b);
        }
      else
        json_builder_add_null_value (b);
      if (!host)
        gpu++;
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "measured");
  json_builder_begin_object (b);
  for (guint i = 0; i < f->n; i++)
    add_number (b, f->figures[i].key, f->figures[i].kind, f->figures[i].measured);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "estimate");
  json_builder_begin_object (b);
  for (guint i = 0; i < f->n; i++)
    if (f->figures[i].has_estimate)
      add_number (b, f->figures[i].key, f->figures[i].kind, f->figures[i].estimate);
    else
      {
        json_builder_set_member_name (b, f->figures[i].key);
        json_builder_add_null_value (b);
      }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "error");
  json_builder_begin_object (b);
  for (guint i = 0; i < f->n; i++)
    {
      double err;

      if (hr_log_figure_error (&f->figures[i], &err))
        hr_cli_add_double (b, f->figures[i].key, err);
      else
        {
          json_builder_set_member_name (b, f->figures[i].key);
          json_builder_add_null_value (b);
        }
    }
  json_builder_end_object (b);

  if (log->kind == HR_ENGINE_LOG_LLAMA_BENCH)
    {
      json_builder_set_member_name (b, "runs");
      json_builder_begin_array (b);
      for (guint i = 0; i < log->n_runs; i++)
        {
          const HrEngineLogRun *r = &log->runs[i];

          json_builder_begin_object (b);
          hr_cli_add_string (b, "test", r->prompt ? "pp" : "tg");
          hr_cli_add_uint (b, "tokens", r->prompt ? r->n_prompt : r->n_gen);
          hr_cli_add_uint (b, "depth", r->depth);
          hr_cli_add_string (b, "backend", r->backend);
          hr_cli_add_double (b, "measured_tokens_per_s", r->tokens_per_s);
          hr_cli_add_double_or_null (b, "estimated_tokens_per_s", run_estimates[i]);
          if (run_estimates[i] > 0)
            hr_cli_add_double (b, "error", (run_estimates[i] - r->tokens_per_s) / r->tokens_per_s);
          else
            {
              json_builder_set_member_name (b, "error");
              json_builder_add_null_value (b);
            }
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }
  hr_cli_add_uint (b, "calibrated_runs", calibrated_runs);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  hr_cli_print_json (root);
}

static void
print_text (const HrCliOptions *o,
            const HrEngineLog  *log,
            const HrLogCheck   *f,
            const double       *run_estimates,
            guint32             calibrated_runs)
{
  const HrScenario *s = &o->scenario;
  g_autofree char *ctx = hr_format_tokens (s->context);

  g_print ("%s log%s%s: %s · %s · %s tokens × %u · KV %s · %s × %u\n",
           hr_engine_log_kind_to_string (log->kind), log->version != NULL ? " " : "",
           log->version != NULL ? log->version : "", hr_model_spec_get_name (s->model),
           hr_precision_get_label (s->precision), ctx, s->batch,
           hr_kv_type_get_label (s->kv_type), hr_hardware_get_name (s->hardware), s->gpus);
  if (log->kind == HR_ENGINE_LOG_OLLAMA && log->n_devices == 0)
    g_print ("  (the figures are Ollama's own plan, logged before it loaded the model)\n");
  if (f->n > 0)
    g_print ("  %-26s %14s %14s %9s\n", "", "measured", "estimated", "error");
  for (guint i = 0; i < f->n; i++)
    {
      const HrLogFigure *fig = &f->figures[i];
      g_autofree char *m = format_figure (fig->kind, fig->measured);
      g_autofree char *est = fig->has_estimate ? format_figure (fig->kind, fig->estimate)
                                               : g_strdup ("—");
      g_autofree char *err = NULL;
      double v;

      err = hr_log_figure_error (fig, &v) ? g_strdup_printf ("%+.1f %%", v * 100) : g_strdup ("—");
      g_print ("  %-26s %14s %14s %9s\n", fig->label, m, est, err);
    }
  if (log->kind == HR_ENGINE_LOG_LLAMA_BENCH)
    for (guint i = 0; i < log->n_runs; i++)
      {
        const HrEngineLogRun *r = &log->runs[i];
        g_autofree char *test = r->depth > 0 ?
          g_strdup_printf ("%s%u @ d%u", r->prompt ? "pp" : "tg",
                           r->prompt ? r->n_prompt : r->n_gen, r->depth) :
          g_strdup_printf ("%s%u", r->prompt ? "pp" : "tg", r->prompt ? r->n_prompt : r->n_gen);
        g_autofree char *label = g_strdup_printf ("%s %s", test, r->backend);
        g_autofree char *m = format_figure (HR_LOG_FIGURE_RATE, r->tokens_per_s);
        g_autofree char *est = run_estimates[i] > 0 ? format_figure (HR_LOG_FIGURE_RATE, run_estimates[i])
                                                    : g_strdup ("—");
        g_autofree char *err = run_estimates[i] > 0 ?
          g_strdup_printf ("%+.1f %%", (run_estimates[i] - r->tokens_per_s) / r->tokens_per_s * 100) :
          g_strdup ("—");

        if (i == 0)
          g_print ("  %-26s %14s %14s %9s\n", "llama-bench", "measured", "estimated", "error");
        g_print ("  %-26s %14s %14s %9s\n", label, m, est, err);
      }
  if (calibrated_runs > 0)
    g_print ("  speeds calibrated on this computer from %u runs\n", calibrated_runs);
}

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
  hr_cli_add_tuning (entries, o);
  hr_cli_add_placement (entries, o);
  hr_cli_add_calibration (entries, o);
  hr_cli_add_json (entries, o);
}

static int
run (HrCliOptions *o,
     const char   *name)
{
  g_auto(GStrv) rest = g_steal_pointer (&o->rest);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrEngineLog) log = NULL;
  g_autofree double *run_estimates = NULL;
  gboolean bench;
  HrEstimate e;
  HrLogCheck f = { 0 };
  guint32 calibrated_runs = 0;

  if (rest == NULL || g_strv_length (rest) != 1)
    return hr_cli_usage_error ("check-log needs exactly one FILE (a log or llama-bench output)");
  log = hr_engine_log_parse_file (rest[0], &error);
  if (log == NULL)
    return hr_cli_file_error (error->message);

  bench = log->kind == HR_ENGINE_LOG_LLAMA_BENCH;
  if (!hr_cli_log_fill_options (o, log, !bench))
    return hr_cli_exit_status ();
  if (o->prompt_tokens_arg == NULL && log->prefill_tokens > 0)
    o->prompt_tokens_arg = g_strdup_printf ("%u", log->prefill_tokens);
  if (!hr_cli_resolve_scenario (o, TRUE))
    return hr_cli_exit_status ();
  if (!hr_scenario_estimate (&o->scenario, &e, &error))
    return hr_cli_usage_error ("%s", error->message);
  calibrated_runs = e.calibrated_runs;

  hr_log_check_figures (&f, log, &e, o->scenario.gpus);
  run_estimates = g_new0 (double, MAX (log->n_runs, 1));
  if (bench)
    hr_log_check_runs (&f, log, &o->scenario, run_estimates);
  if (o->json)
    print_json (o, rest[0], log, &e, &f, run_estimates, calibrated_runs);
  else
    print_text (o, log, &f, run_estimates, calibrated_runs);
  return 0;
}

const HrCliCommand hr_cli_check_log_command = {
  .name = "check-log",
  .parameter = "FILE",
  .synopsis = "check-log FILE [--model M] [--precision P] [--hardware H] [--json]",
  .summary = "Reads a llama.cpp, llama-server, Ollama, vLLM or SGLang log, or llama-bench "
             "output, and prints what ran, what it measured, Headroom's estimate for the same "
             "settings and the error of each figure; what the log does not say is asked for.",
  .add_options = add_options,
  .run = run,
};
