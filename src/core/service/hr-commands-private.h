/* hr-commands-private.h — what the per-engine command builders share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-commands.h"

G_BEGIN_DECLS

/* Each builder: the scenario has estimated without error as @estimate. */
gboolean hr_command_build_llamacpp (HrCommand         *command,
                                    const HrScenario  *scenario,
                                    const HrEstimate  *estimate,
                                    GError           **error);
gboolean hr_command_build_ollama   (HrCommand         *command,
                                    const HrScenario  *scenario,
                                    const HrEstimate  *estimate,
                                    GError           **error);
gboolean hr_command_build_vllm     (HrCommand         *command,
                                    const HrScenario  *scenario,
                                    const HrEstimate  *estimate,
                                    GError           **error);

void     hr_command_note           (HrCommand         *command,
                                    const char        *format,
                                    ...) G_GNUC_PRINTF (2, 3);

/* A program line, grown word by word: hr_command_run_line() starts it,
 * hr_command_arg() adds an option (and value) on a continued line,
 * hr_command_env() an assignment before the program. */
HrCommandLine *hr_command_run_line (HrCommand         *command,
                                    const char        *program);
void     hr_command_env            (HrCommandLine     *line,
                                    const char        *name,
                                    const char        *value);
void     hr_command_arg            (HrCommandLine     *line,
                                    const char        *option,
                                    const char        *value);
void     hr_command_word           (HrCommandLine     *line,
                                    const char        *word);
void     hr_command_arg_uint       (HrCommandLine     *line,
                                    const char        *option,
                                    guint64            value);
void     hr_command_file           (HrCommand         *command,
                                    const char        *name,
                                    const char * const *lines);

/* The GGUF file a llama.cpp command loads: the imported file's own path,
 * or a name the user's download would have ("Qwen3-32B-Q4_K_M.gguf"). */
char    *hr_command_gguf_path      (const HrScenario  *scenario,
                                    gboolean          *is_placeholder);
/* Letters, digits and "._-" only: the safe part of a name. */
char    *hr_command_safe_name      (const char        *name,
                                    gboolean           lower);

G_END_DECLS
