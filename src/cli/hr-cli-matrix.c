/* hr-cli-matrix.c — headroom-cli matrix: memory by precision and context
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include <stdio.h>

#include "hr-cli-common.h"
#include "hr-csv.h"
#include "hr-format.h"
#include "hr-matrix.h"
#include "hr-units.h"

#define MAX_MATRIX_CONTEXTS 16

static gboolean
parse_list (const char  *text,
            const char  *option,
            char      ***out)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);
  guint n = g_strv_length (parts);

  if (n == 0 || n > MAX_MATRIX_CONTEXTS)
    return hr_cli_usage_error ("%s takes 1 to %d comma-separated values", option,
                        MAX_MATRIX_CONTEXTS), FALSE;
  for (guint i = 0; i < n; i++)
    {
      g_strstrip (parts[i]);
      if (parts[i][0] == '\0')
        return hr_cli_usage_error ("%s has an empty value", option), FALSE;
    }
  *out = g_steal_pointer (&parts);
  return TRUE;
}

static gboolean
configure_matrix (HrCliOptions *o,
                  HrMatrix     *matrix)
{
  if (o->contexts != NULL)
    {
      g_auto(GStrv) parts = NULL;
      guint64 contexts[MAX_MATRIX_CONTEXTS];
      guint n;

      if (!parse_list (o->contexts, "--contexts", &parts))
        return FALSE;
      n = g_strv_length (parts);
      for (guint i = 0; i < n; i++)
        {
          guint64 value;

          if (!g_ascii_string_to_unsigned (parts[i], 10, HR_CONTEXT_MIN, HR_CONTEXT_MAX,
                                           &value, NULL))
            return hr_cli_usage_error ("--contexts: “%s” is not a context between %d and %d",
                                parts[i], HR_CONTEXT_MIN, HR_CONTEXT_MAX), FALSE;
          contexts[i] = value;
        }
      hr_matrix_set_contexts (matrix, contexts, n);
    }

  if (o->precisions != NULL)
    {
      g_auto(GStrv) parts = NULL;
      g_autoptr(GPtrArray) chosen = g_ptr_array_new ();

      if (!parse_list (o->precisions, "--precisions", &parts))
        return FALSE;
      for (guint i = 0; parts[i]; i++)
        {
          HrPrecision *p = hr_catalog_find_precision (o->catalog, parts[i]);

          if (p == NULL)
            return hr_cli_usage_error ("unknown precision “%s” (see headroom-cli precisions)",
                                parts[i]), FALSE;
          g_ptr_array_add (chosen, p);
        }
      hr_matrix_set_precisions (matrix, chosen);
    }
  return TRUE;
}

static int
run_matrix (HrCliOptions *o)
{
  g_autoptr(HrCalculator) calc = NULL;
  g_autoptr(HrMatrix) matrix = NULL;
  guint n_contexts, n_rows;

  calc = hr_cli_calculator_for (o);
  if (calc == NULL)
    return hr_cli_exit_status ();
  matrix = hr_matrix_new (calc);
  if (!configure_matrix (o, matrix))
    return hr_cli_exit_status ();

  n_contexts = hr_matrix_get_n_contexts (matrix);
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (matrix));

  if (o->csv)
    {
      g_autoptr(GString) out = g_string_new (NULL);

      hr_csv_write_matrix (matrix, out);
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
      hr_cli_add_string (b, "kv_type", hr_kv_type_get_id (o->scenario.kv_type));
      hr_cli_add_string (b, "engine", hr_engine_to_string (o->scenario.engine));
      json_builder_set_member_name (b, "contexts");
      json_builder_begin_array (b);
      for (guint c = 0; c < n_contexts; c++)
        json_builder_add_int_value (b, hr_matrix_get_context (matrix, c));
      json_builder_end_array (b);
      hr_cli_add_uint (b, "tier_context",
                       hr_matrix_get_context (matrix, hr_matrix_get_tier_index (matrix)));
      json_builder_set_member_name (b, "rows");
      json_builder_begin_array (b);
      for (guint r = 0; r < n_rows; r++)
        {
          g_autoptr(HrMatrixRow) row = g_list_model_get_item (G_LIST_MODEL (matrix), r);

          json_builder_begin_object (b);
          hr_cli_add_columns (b, hr_matrix_columns (), n_contexts, row);
          {
            HrQuality quality;

            /* docs/CLI.md "Additions": `quality` per precision */
            hr_quality_for_precision (hr_precision_get_id (hr_matrix_row_get_precision (row)),
                                      &quality);
            json_builder_set_member_name (b, "quality");
            if (!quality.measured)
              json_builder_add_null_value (b);
            else
              {
                json_builder_begin_object (b);
                json_builder_set_member_name (b, "kld");
                json_builder_add_double_value (b, quality.kld);
                json_builder_set_member_name (b, "ppl_delta");
                json_builder_add_double_value (b, quality.ppl_delta);
                hr_cli_add_string (b, "source", quality.source);
                hr_cli_add_string (b, "measured_on", quality.measured_on);
                json_builder_end_object (b);
              }
          }
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      hr_cli_print_json (root);
      return 0;
    }

  g_print ("%-12s %6s %9s", "precision", "bpw", "weights");
  for (guint c = 0; c < n_contexts; c++)
    {
      g_autofree char *label = hr_format_context_short (hr_matrix_get_context (matrix, c));
      g_autofree char *head = g_strdup_printf ("@%s", label);
      g_print (" %9s", head);
    }
  g_print ("  tier (GiB)\n");
  for (guint r = 0; r < n_rows; r++)
    {
      g_autoptr(HrMatrixRow) row = g_list_model_get_item (G_LIST_MODEL (matrix), r);
      HrPrecision *p = hr_matrix_row_get_precision (row);
      HrHardware *tier = hr_matrix_row_get_tier (row);

      g_print ("%-12s %6.2f %9.2f", hr_precision_get_label (p), hr_precision_get_bpw (p),
               hr_matrix_row_get_weights_bytes (row) / HR_GIB);
      for (guint c = 0; c < n_contexts; c++)
        g_print (" %9.2f", hr_matrix_row_get_total_bytes (row, c) / HR_GIB);
      g_print ("  %s\n", tier ? hr_hardware_get_name (tier) : "—");
    }
  return 0;
}

static void
add_options (GArray       *entries,
             HrCliOptions *o)
{
  const GOptionEntry own[] = {
    { "contexts", 0, 0, G_OPTION_ARG_STRING, &o->contexts,
      "Comma-separated contexts (default 8192,32768,131072)", "N,N,…" },
    { "precisions", 0, 0, G_OPTION_ARG_STRING, &o->precisions,
      "Comma-separated precision ids (default: the seed's eight)", "P,P,…" },
  };

  hr_cli_add_model (entries, o);
  hr_cli_add_setup (entries, o);
  hr_cli_add_calibration (entries, o);
  hr_cli_add_json (entries, o);
  hr_cli_add_csv (entries, o);
  hr_cli_add_entries (entries, own, G_N_ELEMENTS (own));
  hr_cli_add_tuning (entries, o);
  hr_cli_add_placement (entries, o);
  hr_cli_add_layout (entries, o);
}

static int
run (HrCliOptions *o,
     const char   *name)
{
  if (!hr_cli_resolve_scenario (o, FALSE))
    return hr_cli_exit_status ();
  return run_matrix (o);
}

const HrCliCommand hr_cli_matrix_command = {
  .name = "matrix",
  .synopsis = "matrix    --model M [--contexts N,N,…] [--precisions P,P,…]\n"
              "                         [--kv-type K] [--engine E] [--csv | --json]",
  .summary = "Tabulates a model's total memory for each precision and context, with the "
             "smallest device of the tier ladder that holds it.",
  .add_options = add_options,
  .run = run,
};
