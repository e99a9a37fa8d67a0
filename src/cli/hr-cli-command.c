/* hr-cli-command.c — headroom-cli command: the command line that starts an engine
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include "hr-cli-common.h"
#include "hr-commands.h"

static int
run_command (HrCliOptions *o,
             const char   *which)
{
  HrCommandKind kind;
  g_autoptr(HrCommand) command = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (!hr_command_kind_from_string (which, &kind))
    return hr_cli_usage_error ("command needs vllm, sglang, llamacpp or ollama, not “%s”",
                               which);

  /* A combination the engine cannot run gives no command (docs/CLI.md). */
  command = hr_command_build (kind, &o->scenario, &error);
  if (command == NULL)
    return hr_cli_usage_error ("%s", error->message);
  text = hr_command_to_shell (command);
  g_print ("%s", text);
  return 0;
}

static void
add_options (GArray       *entries,
             HrCliOptions *o)
{
  hr_cli_add_model (entries, o);
  hr_cli_add_precision (entries, o);
  hr_cli_add_context (entries, o);
  hr_cli_add_batch (entries, o);
  hr_cli_add_setup (entries, o);
  hr_cli_add_gpus (entries, o);
  hr_cli_add_reserve (entries, o);
  hr_cli_add_extras (entries, o);
  hr_cli_add_tuning (entries, o);
  hr_cli_add_placement (entries, o);
  hr_cli_add_backend (entries, o);
  hr_cli_add_layout (entries, o);
}

static int
run (HrCliOptions *o,
     const char   *name)
{
  g_auto(GStrv) rest = g_steal_pointer (&o->rest);

  if (rest == NULL || g_strv_length (rest) != 1)
    return hr_cli_usage_error ("command needs exactly one of vllm, sglang, llamacpp, ollama");
  o->accepts_device_list = TRUE;
  if (!hr_cli_resolve_scenario (o, TRUE))
    return hr_cli_exit_status ();
  return run_command (o, rest[0]);
}

const HrCliCommand hr_cli_command_command = {
  .name = "command",
  .parameter = "vllm|sglang|llamacpp|ollama",
  .synopsis = "command   vllm|sglang|llamacpp|ollama --model M --precision P\n"
              "                         [--context N] [--hardware H] [--gpus N] [--batch N]\n"
              "                         [--kv-type K] [--tp N] [--pp N] [--dp N] [--nodes N]",
  .summary = "Prints the command line that starts one engine with the set-up, or says "
             "why the engine cannot run it.",
  .add_options = add_options,
  .run = run,
};
