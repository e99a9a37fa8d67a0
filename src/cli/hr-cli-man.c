/* hr-cli-man.c — writes headroom-cli(1) from the commands' own tables
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Run by the build (src/cli/meson.build) so that the man page never
 * drifts from the CLI: the synopsis, each command's summary and its
 * options (names, arguments, help) are read from the same HrCliCommand
 * table and option groups the dispatcher parses with.  Prints troff on
 * stdout.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "hr-cli-commands.h"

/* Text in troff: a backslash doubled, a minus a real minus (options are
 * typed), a line that would start with a control character protected,
 * every character past ASCII named.  The text is the CLI's own (valid
 * UTF-8). */
static void
put_text (GString    *out,
          const char *text)
{
  if (text[0] == '.' || text[0] == '\'')
    g_string_append (out, "\\&");
  for (const char *p = text; *p != '\0'; p++)
    {
      if ((guchar) *p >= 0x80)
        {
          /* groff reads bytes: a character past ASCII as its \[uXXXX] */
          g_string_append_printf (out, "\\[u%04X]", g_utf8_get_char (p));
          p = g_utf8_next_char (p) - 1;
        }
      else if (*p == '\\')
        g_string_append (out, "\\e");
      else if (*p == '-')
        g_string_append (out, "\\-");
      else if (*p == '\n')
        {
          g_string_append_c (out, '\n');
          if (p[1] == '.' || p[1] == '\'')
            g_string_append (out, "\\&");
        }
      else
        g_string_append_c (out, *p);
    }
}

static void
put_line (GString    *out,
          const char *text)
{
  put_text (out, text);
  g_string_append_c (out, '\n');
}

static void
put_options (GString            *out,
             const HrCliCommand *command)
{
  HrCliOptions o = { 0 };
  g_autoptr(GArray) entries = hr_cli_command_entries (command, &o);

  for (guint i = 0; i < entries->len; i++)
    {
      const GOptionEntry *e = &g_array_index (entries, GOptionEntry, i);

      if (e->long_name == NULL || e->long_name[0] == '\0')
        continue;   /* the positional arguments, the terminator */
      g_string_append (out, ".TP\n\\fB");
      put_text (out, "--");
      put_text (out, e->long_name);
      g_string_append (out, "\\fR");
      if (e->arg_description != NULL)
        {
          g_string_append (out, "=\\fI");
          put_text (out, e->arg_description);
          g_string_append (out, "\\fR");
        }
      g_string_append_c (out, '\n');
      put_line (out, e->description != NULL ? e->description : "");
    }
}

int
main (void)
{
  const HrCliCommand * const *commands = hr_cli_get_commands ();
  g_autoptr(GString) out = g_string_new (NULL);

  g_string_append_printf (out, ".TH HEADROOM\\-CLI 1 \"\" \"Headroom %s\" \"User Commands\"\n",
                          PACKAGE_VERSION);
  g_string_append (out, ".SH NAME\nheadroom\\-cli \\- how much memory a language model needs, "
                        "and how fast it runs, on a given device\n");

  g_string_append (out, ".SH SYNOPSIS\n.nf\n");
  for (guint i = 0; commands[i] != NULL; i++)
    if (commands[i]->synopsis != NULL)
      {
        g_string_append (out, "\\fBheadroom\\-cli\\fR ");
        put_line (out, commands[i]->synopsis);
      }
  g_string_append (out, "\\fBheadroom\\-cli\\fR \\-\\-help | \\-\\-version\n.fi\n");

  g_string_append (out, ".SH DESCRIPTION\n");
  put_line (out, "headroom-cli runs the same estimator as the Headroom window: the memory a "
                 "model needs (weights, KV cache, engine overhead) at a precision, context "
                 "and batch, on a device of the catalog or on this computer, the speed it "
                 "decodes and reads a prompt at, and the command line that starts an engine "
                 "with it.");
  g_string_append (out, ".PP\n");
  put_line (out, "Each command takes only its own options; an option another command takes "
                 "is refused. \"headroom-cli COMMAND --help\" lists them.");
  g_string_append (out, ".PP\n");
  put_line (out, "M is a catalog id (the Hugging Face id, case-insensitive) or the path of a "
                 ".gguf file or a Hugging Face config.json. P is a precision id (headroom-cli "
                 "precisions). H is a device id (headroom-cli devices), or \"local\": the GPU "
                 "detected on this computer.");

  g_string_append (out, ".SH COMMANDS\n");
  for (guint i = 0; commands[i] != NULL; i++)
    {
      g_string_append (out, ".SS ");
      put_text (out, commands[i]->name);
      if (commands[i]->parameter != NULL)
        {
          g_string_append_c (out, ' ');
          put_text (out, commands[i]->parameter);
        }
      g_string_append_c (out, '\n');
      put_line (out, commands[i]->summary);
      put_options (out, commands[i]);
    }

  g_string_append (out, ".SH EXIT STATUS\n");
  g_string_append (out, ".TP\n0\nThe command ran.\n");
  g_string_append (out, ".TP\n1\n");
  put_line (out, "A file could not be read or is malformed: one line on standard error names "
                 "it and says what is wrong.");
  g_string_append (out, ".TP\n2\n");
  put_line (out, "A bad argument, an unknown option or a combination the chosen engine "
                 "cannot run: one line on standard error, starting \"headroom-cli: \".");

  g_string_append (out, ".SH ENVIRONMENT\n");
  {
    static const struct { const char *name; const char *text; } vars[] = {
      { "XDG_DATA_HOME", "The user's catalog additions are read from "
                         "$XDG_DATA_HOME/headroom (imported models, custom devices)." },
      { "HF_HOME, HF_HUB_CACHE, XDG_CACHE_HOME", "Where local-models looks for the Hugging "
                                                 "Face cache." },
      { "OLLAMA_MODELS", "Where local-models looks for Ollama's models." },
      { "LLAMA_CACHE", "Where local-models looks for llama.cpp's downloads." },
      { "HEADROOM_NVML_LIBRARY", "The NVML library detect loads (empty: none)." },
      { "HEADROOM_SYSROOT", "A directory detect reads /sys and /proc under instead of /, "
                            "for tests." },
    };

    for (guint i = 0; i < G_N_ELEMENTS (vars); i++)
      {
        g_string_append (out, ".TP\n\\fB");
        put_text (out, vars[i].name);
        g_string_append (out, "\\fR\n");
        put_line (out, vars[i].text);
      }
  }

  g_string_append (out, ".SH SEE ALSO\n");
  put_line (out, "The Headroom window. The JSON keys and CSV columns each command "
                 "writes are described by the project's CLI contract.");

  fwrite (out->str, 1, out->len, stdout);
  return 0;
}
