/* hr-command-shell.c — a command as POSIX shell text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Words are left bare when made of characters no shell acts on, else
 * single-quoted; assignments keep the name bare; files are written by a
 * here-document whose quoted delimiter stops every expansion.
 *
 * Inside single quotes a POSIX shell keeps every byte but the quote
 * itself as it is, a line break included (XCU 2.2.2): a path with a line
 * break is written with that line break inside the quotes, which any
 * sh reads back as the real path.  $'…\n…' would be shorter, but it is
 * bash's and zsh's, not POSIX sh's.  The words must name real files:
 * builders take paths from hr_model_spec_get_disk_path(), never the
 * escaped display form.
 */

#define G_LOG_DOMAIN "hr-commands"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "hr-commands.h"

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
render_run (GString             *out,
            const HrCommandLine *line)
{
  guint b = 0;

  /* hr_command_build() has put the program after the assignments. */
  g_return_if_fail (line->argv != NULL && g_strv_length (line->argv) > line->n_env);

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

static void
render_comment (GString    *out,
                const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, "\n", -1);

  for (guint k = 0; parts[k] != NULL; k++)
    g_string_append_printf (out, "# %s\n", parts[k]);
}

static void
render_line (GString             *out,
             const HrCommandLine *line,
             gboolean             first)
{
  switch (line->kind)
    {
    case HR_COMMAND_LINE_NOTE:
      render_comment (out, line->text);
      break;
    case HR_COMMAND_LINE_RUN:
      render_run (out, line);
      break;
    case HR_COMMAND_LINE_FILE:
      render_file (out, line);
      break;
    case HR_COMMAND_LINE_MACHINE:
      {
        /* a blank line, then the machine's title set off as a heading */
        g_autofree char *title = g_strdup_printf ("── %s ──", line->text);

        if (!first)
          g_string_append_c (out, '\n');
        render_comment (out, title);
      }
      break;
    default:
      g_assert_not_reached ();
    }
}

char *
hr_command_to_shell (const HrCommand *command)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (command != NULL, NULL);

  /* What to replace comes first: nothing runs as written before it is. */
  for (guint i = 0; i < command->placeholders->len; i++)
    {
      const HrCommandPlaceholder *p = g_ptr_array_index (command->placeholders, i);
      /* TRANSLATORS: "Replace <head-address> with the network address of …" */
      g_autofree char *text = g_strdup_printf (_("Replace %s with %s"), p->word, p->meaning);

      render_comment (out, text);
    }
  for (guint i = 0; i < command->lines->len; i++)
    render_line (out, g_ptr_array_index (command->lines, i), i == 0);
  return g_string_free (out, FALSE);
}

char *
hr_command_line_to_shell (const HrCommandLine *line)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (line != NULL, NULL);

  render_line (out, line, TRUE);
  return g_string_free (out, FALSE);
}

