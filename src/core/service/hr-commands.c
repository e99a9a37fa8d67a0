/* hr-commands.c — launch commands for vLLM, SGLang, llama.cpp and Ollama
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the builders share: the estimate a command is built from, the
 * refusal of what cannot run, the lines and placeholders.  The shell
 * rendering is hr-command-shell.c.
 */

#define G_LOG_DOMAIN "hr-commands"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "hr-commands-private.h"
#include "hr-distributions.h"
#include "hr-format.h"

G_DEFINE_QUARK (hr-command-error-quark, hr_command_error)

static const char * const kind_names[] = {
  [HR_COMMAND_VLLM] = "vllm",
  [HR_COMMAND_LLAMACPP] = "llamacpp",
  [HR_COMMAND_OLLAMA] = "ollama",
  [HR_COMMAND_SGLANG] = "sglang",
};

G_STATIC_ASSERT (G_N_ELEMENTS (kind_names) == HR_N_COMMAND_KINDS);

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

static void
placeholder_free (gpointer data)
{
  HrCommandPlaceholder *p = data;

  g_free (p->word);
  g_free (p->meaning);
  g_free (p);
}

void
hr_command_free (HrCommand *command)
{
  if (command == NULL)
    return;
  g_ptr_array_unref (command->lines);
  g_ptr_array_unref (command->placeholders);
  g_free (command);
}

void
hr_command_placeholder (HrCommand  *command,
                        const char *word,
                        const char *format,
                        ...)
{
  HrCommandPlaceholder *p;
  va_list args;

  command->placeholder = TRUE;
  for (guint i = 0; i < command->placeholders->len; i++)
    if (g_str_equal (((HrCommandPlaceholder *) g_ptr_array_index (command->placeholders, i))->word,
                     word))
      return;

  p = g_new0 (HrCommandPlaceholder, 1);
  p->word = g_strdup (word);
  va_start (args, format);
  p->meaning = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (command->placeholders, p);
}

void
hr_command_machine (HrCommand     *command,
                    HrMachineRole  role,
                    guint          node,
                    guint          n_nodes,
                    const char    *title)
{
  HrCommandLine *line = g_new0 (HrCommandLine, 1);

  line->kind = HR_COMMAND_LINE_MACHINE;
  line->text = g_strdup (title);
  line->role = role;
  line->node = node;
  line->n_nodes = n_nodes;
  g_ptr_array_add (command->lines, line);
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

/* A file whose weights average more bits than the precision asked for by
 * this factor can be quantized down to it; less, and quantizing would have
 * to bring back what the file no longer holds. */
#define REQUANTIZE_BPW_MARGIN 1.02

/* llama-quant.cpp, tensor_requires_imatrix: llama-quantize refuses these
 * file types without an importance matrix (--imatrix). */
static const char * const needs_imatrix[] = {
  "IQ1_S", "IQ1_M", "IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ2_M", "IQ3_XXS", "IQ3_XS", "Q2_K_S",
};

static gboolean
is_float_file_type (const char *file_type)
{
  return g_strcmp0 (file_type, "F32") == 0 || g_strcmp0 (file_type, "F16") == 0 ||
         g_strcmp0 (file_type, "BF16") == 0;
}

static char *
placeholder_gguf (HrCommand        *command,
                  const HrScenario *scenario)
{
  g_autofree char *name = hr_command_safe_name (hr_model_spec_get_name (scenario->model), FALSE);
  g_autofree char *label = hr_command_safe_name (hr_precision_get_label (scenario->precision),
                                                 FALSE);
  char *path = g_strdup_printf ("./%s-%s.gguf", name, label);
  const char *repo = hr_distributions_gguf_repo (hr_model_spec_get_id (scenario->model));

  if (repo != NULL)
    /* TRANSLATORS: what to put in place of a placeholder in a command; %s
     * is a Hugging Face repository, "unsloth/Seed-OSS-36B-Instruct-GGUF" */
    hr_command_placeholder (command, path, _("the path of the GGUF file you downloaded (from "
                                             "%s, for one), in this quantization"), repo);
  else
    /* TRANSLATORS: what to put in place of a placeholder in a command */
    hr_command_placeholder (command, path, _("the path of the GGUF file you downloaded, in "
                                             "this quantization"));
  return path;
}

/**
 * hr_command_gguf_file:
 *
 * The GGUF file a llama.cpp or Ollama command loads: the imported file
 * when it is of the precision asked for; made from it by a llama-quantize
 * line when it holds more bits; a placeholder (registered) when no file
 * was imported.  %NULL with an error when the imported file cannot give
 * that precision (it holds fewer bits, or the type needs an importance
 * matrix).
 */
char *
hr_command_gguf_file (HrCommand         *command,
                      const HrScenario  *scenario,
                      GError           **error)
{
  HrModelSpec *model = scenario->model;
  const char *file_type = hr_model_spec_get_file_type (model);
  const char *target = hr_precision_get_file_type (scenario->precision);
  const char *label = hr_precision_get_label (scenario->precision);
  double params = hr_model_spec_get_arch (model)->params_total;
  double file_bpw;
  g_autofree char *input = NULL;
  g_autofree char *name = NULL;
  char *output;
  HrCommandLine *run;

  if (hr_model_spec_get_file_path (model) == NULL)
    return placeholder_gguf (command, scenario);

  input = g_canonicalize_filename (hr_model_spec_get_disk_path (model), NULL);
  if (file_type == NULL || hr_precision_matches_file_type (scenario->precision, file_type))
    return g_steal_pointer (&input);

  /* The file is of another type: quantize it to the one asked for. */
  file_bpw = params > 0 ? hr_model_spec_get_file_weights_bytes (model) * 8.0 / params : 0;
  if (target == NULL ||
      hr_precision_get_bpw (scenario->precision) * REQUANTIZE_BPW_MARGIN > file_bpw)
    {
      g_set_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN,
                   "the file is %s, which cannot be made into %s (quantizing does not bring "
                   "back precision): choose %s, the file's own type, or use a %s file",
                   file_type, label, file_type, label);
      return NULL;
    }
  if (g_strv_contains (needs_imatrix, target))
    {
      g_set_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN,
                   "the file is %s; making a %s file needs an importance matrix "
                   "(llama-imatrix): choose %s, the file's own type, or use a %s file",
                   file_type, label, file_type, label);
      return NULL;
    }

  name = hr_command_safe_name (hr_model_spec_get_name (model), FALSE);
  output = g_strdup_printf ("./%s-%s.gguf", name, target);
  if (is_float_file_type (file_type))
    /* TRANSLATORS: the first %s is a GGUF file type, "F16", the second a
     * precision, "Q4_K_M" */
    hr_command_note (command, _("The file is %s: llama-quantize makes the %s file the "
                                "estimate is for"), file_type, label);
  else
    /* TRANSLATORS: the first %s is a GGUF file type, "Q8_0", the second a
     * precision, "Q4_K_M" */
    hr_command_note (command, _("The file is %s: llama-quantize makes the %s file the "
                                "estimate is for (from a quantized file it loses more than "
                                "from the 16-bit weights)"), file_type, label);
  run = hr_command_run_line (command, "llama-quantize");
  if (!is_float_file_type (file_type))
    hr_command_word (run, "--allow-requantize");
  hr_command_word (run, input);
  hr_command_word (run, output);
  hr_command_word (run, target);
  return output;
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
    case HR_COMMAND_SGLANG:
      return HR_ENGINE_SGLANG;
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
  if (e->engine == HR_ENGINE_VLLM || e->engine == HR_ENGINE_SGLANG)
    {
      g_autofree char *tokens = hr_format_tokens (e->kv_capacity_tokens);

      return g_strdup_printf ("it does not fit: %s's KV cache would hold %s tokens, "
                              "less than one sequence of the context",
                              e->engine == HR_ENGINE_VLLM ? "vLLM" : "SGLang", tokens);
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
  return hr_command_build_with_fix (kind, scenario, NULL, NULL, error);
}

HrCommand *
hr_command_build_with_fix (HrCommandKind      kind,
                           const HrScenario  *scenario,
                           HrFix             *fix,
                           guint32           *fix_gpus,
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
  g_return_val_if_fail (kind < HR_N_COMMAND_KINDS, NULL);

  if (fix != NULL)
    *fix = HR_FIX_NONE;
  if (fix_gpus != NULL)
    *fix_gpus = 0;

  s = *scenario;
  s.engine = engine_for (kind);
  if (!hr_scenario_estimate (&s, &e, &local_error))
    {
      if (fix != NULL)
        *fix = e.fix;
      if (fix_gpus != NULL)
        *fix_gpus = e.fix_gpus;
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
  command->placeholders = g_ptr_array_new_with_free_func (placeholder_free);
  command->n_nodes = 1;

  switch (kind)
    {
    case HR_COMMAND_VLLM:
      ok = hr_command_build_vllm (command, &s, &e, error);
      break;
    case HR_COMMAND_OLLAMA:
      ok = hr_command_build_ollama (command, &s, &e, error);
      break;
    case HR_COMMAND_SGLANG:
      ok = hr_command_build_sglang (command, &s, &e, error);
      break;
    case HR_COMMAND_LLAMACPP:
    default:
      ok = hr_command_build_llamacpp (command, &s, &e, error);
      break;
    }
  if (!ok)
    return NULL;
  /* A program line without arguments gets its program now. */
  for (guint i = 0; i < command->lines->len; i++)
    {
      HrCommandLine *line = g_ptr_array_index (command->lines, i);

      if (line->kind == HR_COMMAND_LINE_RUN)
        ensure_program (line);
    }
  return g_steal_pointer (&command);
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
