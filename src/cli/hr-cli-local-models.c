/* hr-cli-local-models.c — headroom-cli local-models: the models on this computer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include "hr-cli-common.h"
#include "hr-format.h"
#include "hr-model-import.h"
#include "hr-units.h"

static int
run_local_models (HrCliOptions *o)
{
  g_autoptr(HrLocalScan) scan = hr_model_import_scan (NULL, NULL, NULL);
  GListModel *models = hr_local_scan_get_models (scan);
  const char * const *notes = hr_local_scan_get_notes (scan);
  guint n = g_list_model_get_n_items (models);

  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_array (b);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(HrLocalModel) found = g_list_model_get_item (models, i);
          HrModelSpec *model = hr_local_model_get_model (found);

          json_builder_begin_object (b);
          hr_cli_add_file_string (b, "path", hr_local_model_get_path (found));
          hr_cli_add_string (b, "source",
                             hr_local_source_to_string (hr_local_model_get_source (found)));
          hr_cli_add_file_string (b, "id", model != NULL ? hr_model_spec_get_id (model) : NULL);
          hr_cli_add_file_string (b, "name", hr_local_model_get_name (found));
          hr_cli_add_file_string (b, "format", hr_local_model_get_format (found));
          hr_cli_add_file_string (b, "dtype", hr_local_model_get_dtype (found));
          hr_cli_add_file_string (b, "file_type",
                                  model != NULL ? hr_model_spec_get_file_type (model) : NULL);
          hr_cli_add_uint (b, "weights_bytes", hr_local_model_get_weights_bytes (found));
          hr_cli_add_file_string (b, "error", hr_local_model_get_error (found));
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      root = json_builder_get_root (b);
      hr_cli_print_json (root);
      /* The array stays the whole of stdout; what was skipped goes to
       * stderr, the exit status staying 0. */
      if (hr_local_scan_is_truncated (scan))
        {
          g_autofree char *note =
            hr_cli_escape (notes[0] != NULL ? notes[g_strv_length ((char **) notes) - 1] : "");

          g_printerr ("headroom-cli: local-models: the list is partial (%s)\n", note);
        }
      return 0;
    }

  if (n == 0)
    g_print ("No models found.\n");
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrLocalModel) found = g_list_model_get_item (models, i);
      HrModelSpec *model = hr_local_model_get_model (found);
      g_autofree char *size = hr_format_size (hr_local_model_get_weights_bytes (found),
                                              HR_UNITS_BINARY);
      const char *kind = model != NULL && hr_model_spec_get_file_type (model) != NULL
                         ? hr_model_spec_get_file_type (model)
                         : hr_local_model_get_dtype (found);

      /* Folder and file names, and what the files say, are any bytes:
       * each is one displayable line (issue 28, item 13). */
      g_autofree char *id = hr_cli_escape (model != NULL ? hr_model_spec_get_id (model)
                                                         : hr_local_model_get_name (found));
      g_autofree char *type = hr_cli_escape (kind);
      g_autofree char *path = hr_cli_escape (hr_local_model_get_path (found));

      g_print ("%-12s %-48s %12s  %-10s %s\n",
               hr_local_source_get_label (hr_local_model_get_source (found)),
               id, size, type, path);
      if (model == NULL && hr_local_model_get_error (found) != NULL)
        {
          g_autofree char *error = hr_cli_escape (hr_local_model_get_error (found));

          g_print ("%-12s not readable: %s\n", "", error);
        }
    }
  for (guint i = 0; notes[i] != NULL; i++)
    {
      g_autofree char *note = hr_cli_escape (notes[i]);

      g_print ("Note: %s\n", note);
    }
  return 0;
}

static void
add_options (GArray       *entries,
             HrCliOptions *o)
{
  hr_cli_add_json (entries, o);
}

static int
run (HrCliOptions *o,
     const char   *name)
{
  if (!hr_cli_no_arguments (o))
    return hr_cli_exit_status ();
  return run_local_models (o);
}

const HrCliCommand hr_cli_local_models_command = {
  .name = "local-models",
  .synopsis = "local-models [--json]",
  .summary = "Lists the model files found on this computer (Hugging Face cache, Ollama, "
             "LM Studio, llama.cpp).",
  .add_options = add_options,
  .run = run,
};
