/* hr-cli-hardware.c — headroom-cli hardware: one set-up on every device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include <stdio.h>

#include "hr-cli-common.h"
#include "hr-csv.h"
#include "hr-hardware-table.h"
#include "hr-units.h"

static int
run_hardware (HrCliOptions *o)
{
  g_autoptr(HrCalculator) calc = NULL;
  g_autoptr(HrHardwareTable) table = NULL;
  HrHardware *only;
  guint n_rows;

  calc = hr_cli_calculator_for (o);
  if (calc == NULL)
    return hr_cli_exit_status ();
  table = hr_hardware_table_new (calc);
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (table));
  only = o->hardware != NULL ? o->scenario.hardware : NULL;

  if (o->csv)
    {
      g_autoptr(GString) out = g_string_new (NULL);

      hr_csv_write_hardware_rows (table, only, out);
      fwrite (out->str, 1, out->len, stdout);
      return 0;
    }

  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      hr_cli_add_string (b, "model", hr_model_spec_get_id (o->scenario.model));
      hr_cli_add_source (b, o);
      hr_cli_add_string (b, "precision", hr_precision_get_id (o->scenario.precision));
      hr_cli_add_uint (b, "context", o->scenario.context);
      json_builder_set_member_name (b, "rows");
      json_builder_begin_array (b);
      for (guint r = 0; r < n_rows; r++)
        {
          g_autoptr(HrHardwareRow) row = g_list_model_get_item (G_LIST_MODEL (table), r);
          HrHardware *hw = hr_hardware_row_get_hardware (row);

          if (only != NULL && hw != only)
            continue;
          json_builder_begin_object (b);
          hr_cli_add_columns (b, hr_hardware_columns (), 0, row);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      hr_cli_print_json (root);
      return 0;
    }

  g_print ("%-28s %9s %9s %10s %6s  %-12s %10s\n", "hardware", "memory", "GB/s",
           "required", "share", "verdict", "tok/s");
  for (guint r = 0; r < n_rows; r++)
    {
      g_autoptr(HrHardwareRow) row = g_list_model_get_item (G_LIST_MODEL (table), r);
      HrHardware *hw = hr_hardware_row_get_hardware (row);

      if (only != NULL && hw != only)
        continue;
      {
        /* no speed for what does not run (issue 30, item 16's sibling) */
        gboolean runs = hr_hardware_row_get_valid (row) &&
                        hr_hardware_row_get_verdict (row) != HR_VERDICT_NO_FIT;
        g_autofree char *rate = runs
                                ? g_strdup_printf ("%.1f",
                                                   hr_hardware_row_get_decode_tokens_per_s (row))
                                : g_strdup ("—");

        g_print ("%-28s %5.0f GiB %9.0f %6.2f GiB %5.0f%%  %-12s %10s\n",
                 hr_hardware_get_name (hw), hr_hardware_get_memory_bytes (hw) / HR_GIB,
                 hr_hardware_get_bandwidth_gbps (hw),
                 hr_hardware_row_get_required_bytes (row) / HR_GIB,
                 hr_hardware_row_get_share (row) * 100,
                 hr_verdict_to_string (hr_hardware_row_get_verdict (row)), rate);
      }
    }
  return 0;
}

static void
add_options (GArray       *entries,
             HrCliOptions *o)
{
  hr_cli_add_model (entries, o);
  hr_cli_add_precision (entries, o);
  hr_cli_add_context (entries, o);
  hr_cli_add_setup (entries, o);
  hr_cli_add_calibration (entries, o);
  hr_cli_add_json (entries, o);
  hr_cli_add_csv (entries, o);
  hr_cli_add_tuning (entries, o);
  hr_cli_add_placement (entries, o);
  hr_cli_add_layout (entries, o);
}

static int
run (HrCliOptions *o,
     const char   *name)
{
  if (!hr_cli_resolve_scenario (o, TRUE))
    return hr_cli_exit_status ();
  return run_hardware (o);
}

const HrCliCommand hr_cli_hardware_command = {
  .name = "hardware",
  .synopsis = "hardware  --model M --precision P [--context N] [--kv-type K]\n"
              "                         [--engine E] [--csv | --json]",
  .summary = "Tabulates one set-up on every device of the catalog (only the one given "
             "with --hardware): memory required, share, verdict and speed.",
  .add_options = add_options,
  .run = run,
};
