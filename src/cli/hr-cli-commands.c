/* hr-cli-commands.c — the table of headroom-cli's commands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "hr-cli-commands.h"

/* --------------------------------------------------------- the table */

/**
 * hr_cli_get_commands:
 *
 * Every command, in the order of `headroom-cli --help` and the man page.
 * A new command is a file hr-cli-NAME.c defining its HrCliCommand, and a
 * line here.
 *
 * Returns: (transfer none): a %NULL-terminated array
 */
const HrCliCommand * const *
hr_cli_get_commands (void)
{
  static const HrCliCommand * const commands[] = {
    &hr_cli_estimate_command,
    &hr_cli_matrix_command,
    &hr_cli_hardware_command,
    &hr_cli_command_command,
    &hr_cli_inspect_command,
    &hr_cli_models_command,
    &hr_cli_devices_command,
    &hr_cli_precisions_command,
    &hr_cli_cpus_command,
    &hr_cli_detect_command,
    &hr_cli_local_models_command,
    &hr_cli_check_log_command,
    &hr_cli_calibrate_command,
    &hr_cli_recommend_command,
    &hr_cli_hub_files_command,
    NULL,
  };

  return commands;
}
