/* hr-commands.c — launch commands for vLLM, llama.cpp and Ollama
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the builders share: the estimate a command is built from, the
 * refusal of what cannot run, the lines, and the shell rendering.
 */

#define G_LOG_DOMAIN "hr-commands"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "hr-commands-private.h"
#include "hr-format.h"

G_DEFINE_QUARK (hr-command-error-quark, hr_command_error)

static const char * const kind_names[] = {
  [HR_COMMAND_VLLM] = "vllm",
  [HR_COMMAND_LLAMACPP] = "llamacpp",
  [HR_COMMAND_OLLAMA] = "ollama",
};

gboolean
hr_command_kind_from_string (const char    *str,
                             HrCommandKind *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (kind_names); i++)
    if (g_strcmp0 (str, kind_names[i]) == 0)
      {
        *kind = i;
        return TRUE;
      }
  return FALSE;
}

const char *
hr_command_kind_to_string (HrCommandKind kind)
{
  g_return_val_if_fail (kind < G_N_ELEMENTS (kind_names), NULL);
  return kind_names[kind];
}

/* ------------------------------------------------------------- lines */

static void
line_free (gpointer data)
{
  HrCommandLine *line = data;

  g_free (line->text);
  g_strfreev (line->argv);
  g_clear_pointer (&line->breaks, g_array_unref);
  g_free (line);
}

void
hr_command_free (HrCommand *command)
{
  if (command == NULL)
    return;
  g_ptr_array_unref (command->lines);
  g_free (command);
}

void
hr_command_note (HrCommand  *command,
                 const char *format,
                 ...)
{
  HrCommandLine *line = g_new0 (HrCommandLine, 1);
  va_list args;

  va_start (args, format);
  line->kind = HR_COMMAND_LINE_NOTE;
  line->text = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (command->lines, line);
}

static void
append_word (HrCommandLine *line,
             const char    *word)
{
  guint n = line->argv ? g_strv_length (line->argv) : 0;

  line->argv = g_renew (char *, line->argv, n + 2);
  line->argv[n] = g_strdup (word);
  line->argv[n + 1] = NULL;
}

HrCommandLine *
hr_command_run_line (HrCommand  *command,
                     const char *program)
{
  HrCommandLine *line = g_new0 (HrCommandLine, 1);

  line->kind = HR_COMMAND_LINE_RUN;
  line->text = g_strdup (program);
  line->breaks = g_array_new (FALSE, FALSE, sizeof (guint));
  g_ptr_array_add (command->lines, line);
  return line;
}

/* The program follows the assignments: it is appended with the first
 * argument (or on rendering). */
static void
ensure_program (HrCommandLine *line)
{
  guint n = line->argv ? g_strv_length (line->argv) : 0;

  if (n == line->n_env)
    append_word (line, line->text);
}

void
hr_command_env (HrCommandLine *line,
                const char    *name,
                const char    *value)
{
  g_autofree char *word = g_strconcat (name, "=", value, NULL);
  guint n = line->argv ? g_strv_length (line->argv) : 0;

  g_return_if_fail (n == line->n_env);
  append_word (line, word);
  line->n_env++;
}

void
hr_command_arg (HrCommandLine *line,
                const char    *option,
                const char    *value)
{
  guint start;

  ensure_program (line);
  start = g_strv_length (line->argv);
  g_array_append_val (line->breaks, start);
  append_word (line, option);
  if (value != NULL)
    append_word (line, value);
}

/* A word on the same line (a sub-command, a file name). */
void
hr_command_word (HrCommandLine *line,
                 const char    *word)
{
  ensure_program (line);
  append_word (line, word);
}

void
hr_command_arg_uint (HrCommandLine *line,
                     const char    *option,
                     guint64        value)
{
  g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, value);

  hr_command_arg (line, option, text);
}

void
hr_command_file (HrCommand          *command,
                 const char         *name,
                 const char * const *lines)
{
  HrCommandLine *line = g_new0 (HrCommandLine, 1);

  line->kind = HR_COMMAND_LINE_FILE;
  line->text = g_strdup (name);
  line->argv = g_strdupv ((char **) lines);
  g_ptr_array_add (command->lines, line);
}

/* ------------------------------------------------------------- names */

char *
hr_command_safe_name (const char *name,
                      gboolean    lower)
{
  GString *out = g_string_new (NULL);
  gboolean dash = FALSE;

  for (const char *p = name ? name : ""; *p != '\0'; p++)
    {
      char c = lower ? g_ascii_tolower (*p) : *p;

      if (g_ascii_isalnum (c) || c == '.' || c == '_' || c == '-')
        {
          /* no leading punctuation, no ".." */
          if (out->len == 0 && !g_ascii_isalnum (c))
            continue;
          if (c == '.' && out->len > 0 && out->str[out->len - 1] == '.')
            continue;
          g_string_append_c (out, c);
          dash = FALSE;
        }
      else if (!dash && out->len > 0)
        {
          g_string_append_c (out, '-');
          dash = TRUE;
        }
    }
  while (out->len > 0 && !g_ascii_isalnum (out->str[out->len - 1]))
    g_string_truncate (out, out->len - 1);
  if (out->len == 0)
    g_string_append (out, "model");
  return g_string_free (out, FALSE);
}

char *
hr_command_gguf_path (const HrScenario *scenario,
                      gboolean         *is_placeholder)
{
  const char *path = hr_model_spec_get_file_path (scenario->model);
  const char *file_type = hr_model_spec_get_file_type (scenario->model);
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;

  /* The imported file itself, when it is of the precision asked for. */
  if (path != NULL && (file_type == NULL ||
                       hr_precision_matches_file_type (scenario->precision, file_type)))
    {
      *is_placeholder = FALSE;
      return g_canonicalize_filename (path, NULL);
    }

  *is_placeholder = TRUE;
  name = hr_command_safe_name (hr_model_spec_get_name (scenario->model), FALSE);
  label = hr_command_safe_name (hr_precision_get_label (scenario->precision), FALSE);
  return g_strdup_printf ("./%s-%s.gguf", name, label);
}

/* ------------------------------------------------------------ quoting */

static gboolean
is_safe_char (char c)
{
  return g_ascii_isalnum (c) || strchr ("@%_+=:,./-", c) != NULL;
}

char *
hr_shell_quote_word (const char *word)
{
  GString *out;
  gboolean safe = *word != '\0';

  for (const char *p = word; *p != '\0' && safe; p++)
    safe = is_safe_char (*p);
  if (safe)
    return g_strdup (word);

  out = g_string_new ("'");
  for (const char *p = word; *p != '\0'; p++)
    {
      if (*p == '\'')
        g_string_append (out, "'\\''");
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '\'');
  return g_string_free (out, FALSE);
}

/* "VAR=value": the name bare, the value quoted. */
static char *
quote_assignment (const char *word)
{
  const char *eq = strchr (word, '=');
  g_autofree char *name = g_strndup (word, eq - word);
  g_autofree char *value = hr_shell_quote_word (eq + 1);

  if (*(eq + 1) == '\0')
    return g_strconcat (name, "=", NULL);
  return g_strconcat (name, "=", value, NULL);
}

static void
render_run (GString       *out,
            HrCommandLine *line)
{
  guint b = 0;

  ensure_program (line);
  for (guint i = 0; line->argv[i] != NULL; i++)
    {
      g_autofree char *word = i < line->n_env ? quote_assignment (line->argv[i])
                                              : hr_shell_quote_word (line->argv[i]);

      if (b < line->breaks->len && g_array_index (line->breaks, guint, b) == i)
        {
          g_string_append (out, " \\\n  ");
          b++;
        }
      else if (i > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, word);
    }
  g_string_append_c (out, '\n');
}

/* A here-document with a quoted delimiter: the shell copies the lines as
 * they are (no expansion), so paths need no quoting inside. */
static void
render_file (GString             *out,
             const HrCommandLine *line)
{
  g_autofree char *name = hr_shell_quote_word (line->text);

  g_string_append_printf (out, "cat > %s <<'EOF'\n", name);
  for (guint i = 0; line->argv[i] != NULL; i++)
    g_string_append_printf (out, "%s\n", line->argv[i]);
  g_string_append (out, "EOF\n");
}

char *
hr_command_to_shell (const HrCommand *command)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (command != NULL, NULL);

  for (guint i = 0; i < command->lines->len; i++)
    {
      HrCommandLine *line = g_ptr_array_index (command->lines, i);

      switch (line->kind)
        {
        case HR_COMMAND_LINE_NOTE:
          {
            g_auto(GStrv) parts = g_strsplit (line->text, "\n", -1);

            for (guint k = 0; parts[k] != NULL; k++)
              g_string_append_printf (out, "# %s\n", parts[k]);
          }
          break;
        case HR_COMMAND_LINE_RUN:
          render_run (out, line);
          break;
        case HR_COMMAND_LINE_FILE:
          render_file (out, line);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------ building */

static gboolean
cannot_run (GError    **error,
            const char *format,
            ...) G_GNUC_PRINTF (2, 3);

static gboolean
cannot_run (GError    **error,
            const char *format,
            ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (HR_COMMAND_ERROR,
                                                HR_COMMAND_ERROR_CANNOT_RUN, format, args));
  va_end (args);
  return FALSE;
}

static HrEngine
engine_for (HrCommandKind kind)
{
  switch (kind)
    {
    case HR_COMMAND_VLLM:
      return HR_ENGINE_VLLM;
    case HR_COMMAND_OLLAMA:
      return HR_ENGINE_OLLAMA;
    case HR_COMMAND_LLAMACPP:
    default:
      return HR_ENGINE_LLAMACPP;
    }
}

/* Why an estimate says it does not run. */
static char *
no_fit_reason (const HrEstimate *e)
{
  g_autofree char *need = NULL;
  g_autofree char *have = NULL;

  if (!e->ram_fits)
    {
      need = hr_format_size (e->host_bytes, HR_UNITS_BINARY);
      have = hr_format_size (e->ram_usable_bytes, HR_UNITS_BINARY);
      return g_strdup_printf ("it does not fit: %s must stay in system memory, %s is usable",
                              need, have);
    }
  if (e->engine == HR_ENGINE_VLLM)
    {
      g_autofree char *tokens = hr_format_tokens (e->kv_capacity_tokens);

      return g_strdup_printf ("it does not fit: vLLM's KV cache would hold %s tokens, "
                              "less than one sequence of the context", tokens);
    }
  need = hr_format_size (e->per_device_bytes, HR_UNITS_BINARY);
  have = hr_format_size (e->usable_bytes, HR_UNITS_BINARY);
  return g_strdup_printf ("it does not fit: %s needed per GPU, %s usable", need, have);
}

/**
 * hr_command_build:
 *
 * The command for @kind that runs @scenario as Headroom estimated it,
 * or %NULL with an error saying why the engine cannot run it.
 */
HrCommand *
hr_command_build (HrCommandKind      kind,
                  const HrScenario  *scenario,
                  GError           **error)
{
  g_autoptr(HrCommand) command = NULL;
  g_autoptr(GError) local_error = NULL;
  HrScenario s;
  HrEstimate e;
  gboolean ok;

  g_return_val_if_fail (scenario != NULL, NULL);
  g_return_val_if_fail (scenario->model != NULL && scenario->precision != NULL &&
                        scenario->kv_type != NULL && scenario->hardware != NULL, NULL);

  /* The command follows the estimate of that very engine. */
  s = *scenario;
  s.engine = engine_for (kind);
  if (!hr_scenario_estimate (&s, &e, &local_error))
    {
      cannot_run (error, "%s", local_error->message);
      return NULL;
    }
  if (e.verdict == HR_VERDICT_NO_FIT)
    {
      g_autofree char *reason = no_fit_reason (&e);

      cannot_run (error, "%s", reason);
      return NULL;
    }

  command = g_new0 (HrCommand, 1);
  command->kind = kind;
  command->lines = g_ptr_array_new_with_free_func (line_free);

  switch (kind)
    {
    case HR_COMMAND_VLLM:
      ok = hr_command_build_vllm (command, &s, &e, error);
      break;
    case HR_COMMAND_OLLAMA:
      ok = hr_command_build_ollama (command, &s, &e, error);
      break;
    case HR_COMMAND_LLAMACPP:
    default:
      ok = hr_command_build_llamacpp (command, &s, &e, error);
      break;
    }
  return ok ? g_steal_pointer (&command) : NULL;
}

char *
hr_command_generate (HrCommandKind     kind,
                     const HrScenario *scenario)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrCommand) command = hr_command_build (kind, scenario, &error);

  if (command == NULL)
    /* TRANSLATORS: a command that cannot be written; %s says why */
    return g_strdup_printf (_("# No command: %s\n"), error->message);
  return hr_command_to_shell (command);
}
