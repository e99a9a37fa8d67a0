/* hr-cli-commands.h — the table of headroom-cli's commands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each command is defined in its own file (hr-cli-NAME.c) as an
 * HrCliCommand; the dispatcher (hr-cli.c) and the man page generator
 * (hr-cli-man.c) read them from this table.
 */

#pragma once

#include "hr-cli-common.h"

G_BEGIN_DECLS

extern const HrCliCommand hr_cli_estimate_command;
extern const HrCliCommand hr_cli_matrix_command;
extern const HrCliCommand hr_cli_hardware_command;
extern const HrCliCommand hr_cli_command_command;
extern const HrCliCommand hr_cli_inspect_command;
extern const HrCliCommand hr_cli_hub_files_command;
extern const HrCliCommand hr_cli_models_command;
extern const HrCliCommand hr_cli_devices_command;
extern const HrCliCommand hr_cli_precisions_command;
extern const HrCliCommand hr_cli_cpus_command;
extern const HrCliCommand hr_cli_detect_command;
extern const HrCliCommand hr_cli_local_models_command;
extern const HrCliCommand hr_cli_check_log_command;
extern const HrCliCommand hr_cli_calibrate_command;
extern const HrCliCommand hr_cli_recommend_command;

const HrCliCommand * const *hr_cli_get_commands (void);

G_END_DECLS
