/* hr-cli-hub-files.c — headroom-cli hub-files: a hub repository's files
 * and the quantizations they hold, with their real sizes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include "hr-cli-common.h"
#include "hr-format.h"
#include "hr-hub.h"

static void
add_options (GArray       *entries,
             HrCliOptions *o)
{
  const GOptionEntry own[] = {
    { "online", 0, 0, G_OPTION_ARG_NONE, &o->online,
      "Ask the hub (HF_ENDPOINT, HF_TOKEN) when the cache does not hold the list", NULL },
    { "offline", 0, 0, G_OPTION_ARG_NONE, &o->offline,
      "Read the cache only", NULL },
  };

  hr_cli_add_entries (entries, own, G_N_ELEMENTS (own));
  hr_cli_add_json (entries, o);
}

typedef struct
{
  const char *name;
  guint64 bytes;
  guint files;
} Quant;

/* The GGUF files by quantization, shards summed, in the listing's order. */
static GArray *
group_quantizations (GPtrArray *files)
{
  GArray *quants = g_array_new (FALSE, TRUE, sizeof (Quant));

  for (guint i = 0; i < files->len; i++)
    {
      HrHubFile *file = g_ptr_array_index (files, i);
      Quant *q = NULL;

      if (file->quantization == NULL)
        continue;
      for (guint j = 0; j < quants->len && q == NULL; j++)
        if (g_str_equal (g_array_index (quants, Quant, j).name, file->quantization))
          q = &g_array_index (quants, Quant, j);
      if (q == NULL)
        {
          Quant add = { file->quantization, 0, 0 };

          g_array_append_val (quants, add);
          q = &g_array_index (quants, Quant, quants->len - 1);
        }
      q->bytes += file->bytes;
      q->files++;
    }
  return quants;
}

static void
print_json (const HrHubRef *ref,
            GPtrArray      *files,
            GArray         *quants)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  hr_cli_add_string (b, "repo", ref->repo);
  hr_cli_add_string (b, "revision", ref->revision);
  json_builder_set_member_name (b, "quantizations");
  json_builder_begin_array (b);
  for (guint i = 0; i < quants->len; i++)
    {
      Quant *q = &g_array_index (quants, Quant, i);

      json_builder_begin_object (b);
      hr_cli_add_string (b, "quantization", q->name);
      hr_cli_add_uint (b, "bytes", q->bytes);
      hr_cli_add_uint (b, "files", q->files);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "files");
  json_builder_begin_array (b);
  for (guint i = 0; i < files->len; i++)
    {
      HrHubFile *file = g_ptr_array_index (files, i);

      json_builder_begin_object (b);
      hr_cli_add_string (b, "path", file->path);
      hr_cli_add_uint (b, "bytes", file->bytes);
      hr_cli_add_string (b, "quantization", file->quantization);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  hr_cli_print_json (root);
}

static void
print_text (const HrHubRef *ref,
            GPtrArray      *files,
            GArray         *quants)
{
  g_autofree char *id = hr_hub_ref_to_string (ref);

  g_print ("%s: %u files\n", id, files->len);
  for (guint i = 0; i < quants->len; i++)
    {
      Quant *q = &g_array_index (quants, Quant, i);
      g_autofree char *size = hr_format_size (q->bytes, HR_UNITS_DECIMAL);

      g_print ("  %-10s %10s  (%u file%s)\n", q->name, size, q->files, q->files == 1 ? "" : "s");
    }
  if (quants->len == 0)
    for (guint i = 0; i < files->len; i++)
      {
        HrHubFile *file = g_ptr_array_index (files, i);
        g_autofree char *size = hr_format_size (file->bytes, HR_UNITS_DECIMAL);
        g_autofree char *path = hr_cli_escape (file->path);

        g_print ("  %10s  %s\n", size, path);
      }
}

static int
run (HrCliOptions *o,
     const char   *name)
{
  g_autoptr(GError) error = NULL;
  g_auto(HrHubRef) ref = { NULL };
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GArray) quants = NULL;

  if (o->rest == NULL || g_strv_length (o->rest) != 1)
    return hr_cli_usage_error ("hub-files needs exactly one REPO");
  if (o->online && o->offline)
    return hr_cli_usage_error ("--online and --offline cannot be given together");
  if (!hr_hub_ref_parse (o->rest[0], &ref))
    return hr_cli_usage_error ("“%s” is not a hub repository (org/name[@revision])", o->rest[0]);

  files = hr_hub_list_files (&ref, o->online ? HR_HUB_ONLINE : HR_HUB_CACHE_ONLY, NULL, &error);
  if (files == NULL)
    {
      if (g_error_matches (error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_CACHED) ||
          g_error_matches (error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_FOUND))
        return hr_cli_usage_error ("%s", error->message);
      return hr_cli_fail (HR_CLI_EXIT_FILE, "%s", error->message);
    }
  quants = group_quantizations (files);
  if (o->json)
    print_json (&ref, files, quants);
  else
    print_text (&ref, files, quants);
  return 0;
}

const HrCliCommand hr_cli_hub_files_command = {
  .name = "hub-files",
  .parameter = "REPO",
  .synopsis = "hub-files REPO [--online|--offline] [--json]",
  .summary = "Lists a Hugging Face repository's files with their real sizes, and the "
             "GGUF quantizations they hold (shards summed), from the hub with --online "
             "or from the cache.",
  .add_options = add_options,
  .run = run,
};
