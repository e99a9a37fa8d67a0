/* hr-cli.c — headroom-cli, the command-line front end: the dispatcher
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The contract (commands, options, JSON keys, exit codes) is docs/CLI.md:
 * bad arguments print one line starting “headroom-cli: ” and exit 2; a file
 * that cannot be read or is malformed prints one line naming it and exits 1.
 *
 * As GLib's gio tool: this file finds the command, each command lives in
 * hr-cli-COMMAND.c with its own option table, and hr-cli-common.c holds
 * the option groups and helpers several commands share.
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include <locale.h>

#include "hr-cli-commands.h"

static void
print_usage (void)
{
  const HrCliCommand * const *commands = hr_cli_get_commands ();

  g_print ("Usage:\n");
  for (guint i = 0; commands[i] != NULL; i++)
    if (commands[i]->synopsis != NULL)
      g_print ("  headroom-cli %s\n", commands[i]->synopsis);
  g_print ("\nH may be “local”: the GPU detected on this computer.\n"
           "\nRun “headroom-cli COMMAND --help” for the options of one command.\n");
}

static const HrCliCommand *
find_command (const char *name)
{
  const HrCliCommand * const *commands = hr_cli_get_commands ();

  for (guint i = 0; commands[i] != NULL; i++)
    if (g_str_equal (commands[i]->name, name))
      return commands[i];
  return NULL;
}

static int
run (int    argc,
     char **argv)
{
  HrCliOptions o = { 0 };
  const HrCliCommand *command;
  int status = 0;

  if (argc < 2)
    return hr_cli_usage_error ("a command is required (see headroom-cli --help)");

  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") ||
      g_str_equal (argv[1], "help"))
    {
      print_usage ();
      return 0;
    }
  if (g_str_equal (argv[1], "--version"))
    {
      g_print ("headroom-cli %s\n", PACKAGE_VERSION);
      return 0;
    }

  command = find_command (argv[1]);
  if (command == NULL)
    {
      const HrCliCommand * const *commands = hr_cli_get_commands ();
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint i = 0; commands[i] != NULL; i++)
        g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", commands[i]->name);
      return hr_cli_usage_error ("unknown command “%s” (%s)", argv[1], names->str);
    }

  /* Drop the command so that GOption sees only options. */
  argv[1] = argv[0];
  argv++;
  argc--;

  /* The options first: a bad one is the only line, and --help needs no
   * catalog. */
  if (hr_cli_parse (command, &o, &argc, &argv))
    {
      o.catalog = hr_catalog_new_default ();
      /* A broken file of the user's is worth knowing about, but the
       * built-in catalog still answers. */
      for (const char * const *problem = hr_catalog_get_problems (o.catalog);
           *problem != NULL; problem++)
        hr_cli_print_line ("headroom-cli: warning: ", *problem);
      status = command->run (&o, command->name);
    }

  hr_cli_options_clear (&o);
  return status != 0 ? status : hr_cli_exit_status ();
}

int
main (int    argc,
      char **argv)
{
  /* Text output follows the locale; JSON and CSV never do. */
  setlocale (LC_ALL, "");
  return run (argc, argv);
}
