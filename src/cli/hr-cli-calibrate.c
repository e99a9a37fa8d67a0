/* hr-cli-calibrate.c — headroom-cli calibrate: speeds measured here become
 * corrections of the estimate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include <string.h>

#include "hr-cli-log.h"
#include "hr-local-device.h"
#include "hr-text.h"

#define N_BACKENDS (HR_BACKEND_CPU + 1)

static void
print_entries (const HrCalibration *calibration,
               const char          *path,
               gboolean             json)
{
  guint n = hr_calibration_get_n_entries (calibration);

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      hr_cli_add_file_string (b, "file", path);
      json_builder_set_member_name (b, "entries");
      json_builder_begin_array (b);
      for (guint i = 0; i < n; i++)
        {
          const HrCalibrationEntry *e = hr_calibration_get_entry (calibration, i);

          json_builder_begin_object (b);
          hr_cli_add_string (b, "hardware", e->hardware);
          hr_cli_add_string (b, "backend", hr_backend_id (e->backend));
          hr_cli_add_double (b, "decode_factor", e->decode_factor);
          hr_cli_add_uint (b, "decode_runs", e->decode_runs);
          hr_cli_add_double (b, "prefill_factor", e->prefill_factor);
          hr_cli_add_uint (b, "prefill_runs", e->prefill_runs);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      hr_cli_print_json (root);
      return;
    }

  {
    g_autofree char *display = hr_text_display_path (path);

    g_print ("%s\n", display);
  }
  if (n == 0)
    g_print ("  no calibration: speeds are the model's\n");
  for (guint i = 0; i < n; i++)
    {
      const HrCalibrationEntry *e = hr_calibration_get_entry (calibration, i);
      g_autofree char *hw = hr_text_escape_line (e->hardware, -1);

      g_print ("  %s (%s): decode ×%.3f from %u runs, prompt ×%.3f from %u runs\n", hw,
               hr_backend_id (e->backend), e->decode_factor, e->decode_runs, e->prefill_factor,
               e->prefill_runs);
    }
}

/* The timing lines of a llama.cpp log as runs: the prompt, and decoding
 * after it. */
static guint
timing_runs (const HrEngineLog *log,
             HrEngineLogRun     runs[2])
{
  guint n = 0;

  for (guint i = 0; i < 2; i++)
    {
      memset (&runs[i], 0, sizeof runs[i]);
      runs[i].n_gpu_layers = G_MININT32;
      runs[i].flash_attn = log->flash_attn_known ? log->flash_attn : G_MININT32;
    }
  if (log->prefill_tokens_per_s > 0 && log->prefill_tokens > 0)
    {
      runs[n].prompt = TRUE;
      runs[n].n_prompt = log->prefill_tokens;
      runs[n].tokens_per_s = log->prefill_tokens_per_s;
      n++;
    }
  if (log->decode_tokens_per_s > 0)
    {
      runs[n].prompt = FALSE;
      runs[n].depth = log->prefill_tokens;
      runs[n].n_gen = 1;
      runs[n].tokens_per_s = log->decode_tokens_per_s;
      n++;
    }
  return n;
}

static void
add_options (GArray       *entries,
             HrCliOptions *o)
{
  hr_cli_add_model (entries, o);
  hr_cli_add_precision (entries, o);
  hr_cli_add_setup (entries, o);
  hr_cli_add_gpus (entries, o);
  hr_cli_add_tuning (entries, o);
  hr_cli_add_json (entries, o);
}

static int
run (HrCliOptions *o,
     const char   *name)
{
  g_auto(GStrv) files = g_steal_pointer (&o->rest);
  g_autofree char *path = hr_calibration_dup_default_path ();
  g_autofree char *note = NULL;
  g_autoptr(HrCalibration) calibration = NULL;
  g_autoptr(GPtrArray) logs = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_engine_log_free);
  g_autoptr(GError) error = NULL;
  HrCalibrationSum sums[N_BACKENDS] = { 0 };
  guint used = 0, skipped = 0;
  const char *hardware;

  /* no FILE: what is stored, and where (the file is the export) */
  if (files == NULL)
    {
      calibration = hr_calibration_load (path, &note);
      if (note != NULL)
        hr_cli_print_line ("headroom-cli: ", note);
      print_entries (calibration, path, o->json);
      return 0;
    }

  for (guint i = 0; files[i] != NULL; i++)
    {
      HrEngineLog *log = hr_engine_log_parse_file (files[i], &error);

      if (log == NULL)
        return hr_cli_file_error (error->message);
      if (log->n_runs == 0 && log->decode_tokens_per_s <= 0 && log->prefill_tokens_per_s <= 0)
        {
          g_autofree char *display = hr_text_display_path (files[i]);

          hr_engine_log_free (log);
          return hr_cli_fail (HR_CLI_EXIT_FILE, "%s: no speed measured in it (llama-bench rows "
                              "or llama.cpp timing lines)", display);
        }
      g_ptr_array_add (logs, log);
    }

  /* This computer's device unless told. */
  if (o->hardware == NULL)
    o->hardware = g_strdup (HR_LOCAL_HARDWARE_ARGUMENT);
  if (!hr_cli_log_fill_options (o, g_ptr_array_index (logs, 0), FALSE))
    return hr_cli_exit_status ();
  if (o->context_arg == NULL)
    o->context_arg = g_strdup ("512");
  if (!hr_cli_resolve_scenario (o, TRUE))
    return hr_cli_exit_status ();
  hardware = hr_hardware_get_id (o->scenario.hardware);

  for (guint f = 0; f < logs->len; f++)
    {
      const HrEngineLog *log = g_ptr_array_index (logs, f);
      HrEngineLogRun timing[2];
      const HrEngineLogRun *runs = log->runs;
      guint n = log->n_runs;

      if (n == 0)
        {
          n = timing_runs (log, timing);
          runs = timing;
        }
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GError) run_error = NULL;
          HrBackend backend = HR_BACKEND_CUDA;
          HrBackend measured_backend;
          double estimated = 0;

          if (!hr_log_check_estimate_run (&o->scenario, &runs[i], &estimated, &backend, &run_error))
            {
              skipped++;
              continue;
            }
          /* the backend the row ran on, when llama-bench says */
          if (hr_backend_from_log_name (runs[i].backend, &measured_backend))
            backend = measured_backend;
          if (hr_calibration_sum_add (&sums[backend], runs[i].prompt, runs[i].tokens_per_s,
                                      estimated))
            used++;
          else
            skipped++;
        }
    }
  if (used == 0)
    return hr_cli_fail (HR_CLI_EXIT_FILE, "no run could be compared with an estimate "
                        "(%u skipped: a speed past ×%g of the estimate, or a set-up that does "
                        "not run)", skipped, HR_CALIBRATION_FACTOR_MAX);

  calibration = hr_calibration_load (path, &note);
  if (note != NULL)
    hr_cli_print_line ("headroom-cli: ", note);
  for (guint b = 0; b < N_BACKENDS; b++)
    {
      HrCalibrationEntry entry = { .hardware = (char *) hardware, .backend = b };

      if (sums[b].decode_runs + sums[b].prefill_runs == 0)
        continue;
      hr_calibration_sum_to_entry (&sums[b], &entry);
      hr_calibration_set (calibration, &entry);
      if (!o->json)
        g_print ("%s (%s): decode ×%.3f from %u runs, prompt ×%.3f from %u runs\n", hardware,
                 hr_backend_id (b), entry.decode_factor, entry.decode_runs, entry.prefill_factor,
                 entry.prefill_runs);
    }
  if (!hr_calibration_save (calibration, path, &error))
    return hr_cli_file_error (error->message);
  if (o->json)
    print_entries (calibration, path, TRUE);
  else
    {
      g_autofree char *display = hr_text_display_path (path);

      g_print ("calibrated on this computer from %u runs%s; saved to %s\n", used,
               skipped > 0 ? " (some skipped)" : "", display);
    }
  return 0;
}

const HrCliCommand hr_cli_calibrate_command = {
  .name = "calibrate",
  .parameter = "[FILE…]",
  .synopsis = "calibrate [FILE…] [--model M] [--precision P] [--hardware H] [--json]",
  .summary = "Compares the speeds of llama-bench output or llama.cpp timing lines run on this "
             "computer with the estimate, and stores the corrections per device and backend "
             "(without FILE: prints them and the file that holds them).",
  .add_options = add_options,
  .run = run,
};
