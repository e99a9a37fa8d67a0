/* hr-cli-common.c — errors and output helpers every command uses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include "hr-cli-common.h"

#include <math.h>
#include "hr-json-load.h"
#include "hr-text.h"

static int exit_status = 0;

/* ------------------------------------------------------------- errors */

/* Messages quote arguments and files, which may hold anything: each is
 * printed as one displayable line (a newline in --model must not make
 * two, an escape sequence must not reach the terminal). */
void
hr_cli_print_line (const char *prefix,
                   const char *message)
{
  g_autofree char *line = hr_text_escape_line (message, -1);

  g_printerr ("%s%s\n", prefix, line);
}

static int
fail_valist (int         status,
             const char *format,
             va_list     args) G_GNUC_PRINTF (2, 0);

static int
fail_valist (int         status,
             const char *format,
             va_list     args)
{
  g_autofree char *message = g_strdup_vprintf (format, args);

  hr_cli_print_line ("headroom-cli: ", message);
  return exit_status = status;
}

/* A bad argument: one line starting "headroom-cli: ", exit 2. */
int
hr_cli_usage_error (const char *format,
                    ...)
{
  va_list args;
  int status;

  va_start (args, format);
  status = fail_valist (HR_CLI_EXIT_USAGE, format, args);
  va_end (args);
  return status;
}

/* One line starting "headroom-cli: " with another exit status. */
int
hr_cli_fail (int         status,
             const char *format,
             ...)
{
  va_list args;

  va_start (args, format);
  status = fail_valist (status, format, args);
  va_end (args);
  return status;
}

int
hr_cli_file_error (const char *message)
{
  hr_cli_print_line ("", message);
  return exit_status = HR_CLI_EXIT_FILE;
}

/* The status of the last error reported, 0 when none was. */
int
hr_cli_exit_status (void)
{
  return exit_status;
}

/* ------------------------------------------------------------- output */

/* Text from a file, a path or a device, made one displayable line for
 * the terminal (hr_text_escape_line); "" for NULL. */
char *
hr_cli_escape (const char *text)
{
  return hr_text_escape_line (text, -1);
}

void
hr_cli_print_json (JsonNode *root)
{
  g_autofree char *text = hr_json_to_data (root, NULL);

  g_print ("%s\n", text);
}

/* A byte count or any unsigned figure.  JSON-GLib's integers are gint64:
 * a value past G_MAXINT64 (a reader's 2^64 − 1 "unknown") would come out
 * negative, so it is written as a double, which keeps its magnitude. */
void
hr_cli_add_uint (JsonBuilder *b,
                 const char  *key,
                 guint64      value)
{
  json_builder_set_member_name (b, key);
  if (value > (guint64) G_MAXINT64)
    json_builder_add_double_value (b, (double) value);
  else
    json_builder_add_int_value (b, (gint64) value);
}

/* "layer_kinds" (docs/CLI.md "Additions"): how many layers of each kind
 * the model has — full attention, sliding-window attention, recurrent
 * state — and which state the recurrent ones keep (null: none).  A model
 * that runs attention and an SSM side by side in every layer (Falcon-H1)
 * counts each layer under both. */
void
hr_cli_add_layer_kinds (JsonBuilder       *b,
                        const HrModelArch *arch)
{
  json_builder_set_member_name (b, "layer_kinds");
  json_builder_begin_object (b);
  hr_cli_add_uint (b, "attention", hr_model_arch_global_layers (arch));
  hr_cli_add_uint (b, "sliding", hr_model_arch_local_layers (arch));
  hr_cli_add_uint (b, "recurrent", arch->n_state_layers);
  json_builder_set_member_name (b, "recurrent_kind");
  if (arch->state_kind == HR_STATE_NONE)
    json_builder_add_null_value (b);
  else
    json_builder_add_string_value (b, hr_state_kind_to_string (arch->state_kind));
  hr_cli_add_bool (b, "parallel", arch->state_parallel);
  json_builder_end_object (b);
}

void
hr_cli_add_uint_or_null (JsonBuilder *b,
                         const char  *key,
                         gboolean     known,
                         guint64      value)
{
  if (known)
    {
      hr_cli_add_uint (b, key, value);
      return;
    }
  json_builder_set_member_name (b, key);
  json_builder_add_null_value (b);
}

void
hr_cli_add_double (JsonBuilder *b,
                   const char  *key,
                   double       value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_double_value (b, value);
}

void
hr_cli_add_double_or_null (JsonBuilder *b,
                           const char  *key,
                           double       value)
{
  json_builder_set_member_name (b, key);
  if (value > 0)
    json_builder_add_double_value (b, value);
  else
    json_builder_add_null_value (b);
}

/* The JSON name of a placement (docs/CLI.md: "placement"). */
const char *
hr_cli_placement_name (HrPlacementKind kind)
{
  static const char * const names[] = {
    [HR_PLACEMENT_GPU] = "gpu",
    [HR_PLACEMENT_SPLIT] = "split",
    [HR_PLACEMENT_PARTIAL] = "partial",
    [HR_PLACEMENT_CPU] = "cpu",
  };

  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (names), "gpu");
  return names[kind];
}

void
hr_cli_add_string (JsonBuilder *b,
                   const char  *key,
                   const char  *value)
{
  json_builder_set_member_name (b, key);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

/**
 * hr_cli_add_file_string:
 *
 * A string read from a file or a path (a folder or file name, a name in a
 * manifest).  The rule: valid UTF-8 is written as it is — JSON-GLib
 * writes control characters as \u00XX escapes, so no raw escape byte
 * reaches a terminal and a script gets the exact text back; a string
 * that is not valid UTF-8 (a file name is bytes) is written as
 * hr_text_escape_line() shows it, each bad byte as the four characters
 * \xNN, so that the output stays valid JSON.
 */
void
hr_cli_add_file_string (JsonBuilder *b,
                        const char  *key,
                        const char  *value)
{
  g_autofree char *escaped = NULL;

  if (value != NULL && !g_utf8_validate (value, -1, NULL))
    value = escaped = hr_text_escape_line (value, -1);
  hr_cli_add_string (b, key, value);
}

/* "source": where --model came from (docs/CLI.md "Additions"). */
void
hr_cli_add_source (JsonBuilder  *b,
                   HrCliOptions *o)
{
  json_builder_set_member_name (b, "source");
  json_builder_begin_object (b);
  hr_cli_add_string (b, "kind", o->source_kind != NULL ? o->source_kind : "catalog");
  hr_cli_add_string (b, "repo", o->hub_repo);
  hr_cli_add_string (b, "revision", o->hub_revision);
  json_builder_end_object (b);
}

void
hr_cli_add_bool (JsonBuilder *b,
                 const char  *key,
                 gboolean     value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_boolean_value (b, value);
}

/**
 * hr_cli_add_columns:
 * @n_contexts: the table's contexts, for a per-context column
 *
 * The members of one row of a table described by hr-table-columns.h,
 * the same description the CSV writer reads: each column's JSON key,
 * bytes as integers, fractions as they are.
 */
void
hr_cli_add_columns (JsonBuilder          *b,
                    const HrTableColumns *table,
                    guint                 n_contexts,
                    gpointer              row)
{
  for (guint i = 0; i < table->n_columns; i++)
    {
      const HrColumn *column = &table->columns[i];

      if (column->json_key == NULL)
        continue;
      switch (column->kind)
        {
        case HR_COLUMN_TEXT:
          hr_cli_add_string (b, column->json_key, column->text (row));
          break;
        case HR_COLUMN_BYTES:
          hr_cli_add_uint (b, column->json_key, column->bytes (row));
          break;
        case HR_COLUMN_NUMBER:
        case HR_COLUMN_SHARE:
          if (isnan (column->number (row)))
            {
              json_builder_set_member_name (b, column->json_key);
              json_builder_add_null_value (b);
            }
          else
            hr_cli_add_double (b, column->json_key, column->number (row));
          break;
        case HR_COLUMN_CONTEXT_BYTES:
          json_builder_set_member_name (b, column->json_key);
          json_builder_begin_array (b);
          for (guint c = 0; c < n_contexts; c++)
            json_builder_add_int_value (b, column->context_bytes (row, c));
          json_builder_end_array (b);
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

/* docs/CLI.md "Additions": {"kld", "ppl_delta", "source"} or null, with
 * what it was measured on, and the tier beside it (@key "_tier"). */
void
hr_cli_add_quality (JsonBuilder     *b,
                    const char      *key,
                    const HrQuality *quality,
                    HrQualityTier    tier)
{
  g_autofree char *tier_key = g_strconcat (key, "_tier", NULL);

  json_builder_set_member_name (b, key);
  if (!quality->measured)
    json_builder_add_null_value (b);
  else
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "kld");
      json_builder_add_double_value (b, quality->kld);
      json_builder_set_member_name (b, "ppl_delta");
      json_builder_add_double_value (b, quality->ppl_delta);
      hr_cli_add_string (b, "source", quality->source);
      hr_cli_add_string (b, "measured_on", quality->measured_on);
      json_builder_set_member_name (b, "imatrix");
      if (quality->imatrix != NULL)
        json_builder_add_string_value (b, quality->imatrix);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  hr_cli_add_string (b, tier_key, hr_quality_tier_to_string (tier));
}

/* joules_per_token (null: unknown) and cost_per_million_tokens (null: no
 * price given, or the figure it needs unknown). */
void
hr_cli_add_energy (JsonBuilder *b,
                   double       joules_per_token,
                   double       cost_per_million)
{
  hr_cli_add_double_or_null (b, "joules_per_token", joules_per_token);
  json_builder_set_member_name (b, "cost_per_million_tokens");
  if (cost_per_million >= 0)
    json_builder_add_double_value (b, cost_per_million);
  else
    json_builder_add_null_value (b);
}
