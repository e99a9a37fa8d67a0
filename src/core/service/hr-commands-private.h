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
gboolean hr_command_build_sglang   (HrCommand         *command,
                                    const HrScenario  *scenario,
                                    const HrEstimate  *estimate,
                                    GError           **error);

void     hr_command_note           (HrCommand         *command,
                                    const char        *format,
                                    ...) G_GNUC_PRINTF (2, 3);
/* @word, as it appears in the lines, must be replaced; the format says
 * with what (translated). */
void     hr_command_placeholder    (HrCommand         *command,
                                    const char        *word,
                                    const char        *format,
                                    ...) G_GNUC_PRINTF (3, 4);
/* The lines after it run on one machine of @n_nodes. */
void     hr_command_machine        (HrCommand         *command,
                                    HrMachineRole      role,
                                    guint              node,
                                    guint              n_nodes,
                                    const char        *title);

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

/* The GGUF file a llama.cpp or Ollama command loads: the imported file's
 * own path; a llama-quantize line (added) that makes the precision's file
 * of it; or a registered placeholder, a name the user's download would
 * have ("./Qwen3-32B-Q4_K_M.gguf").  %NULL with an error when the
 * imported file cannot give the precision. */
char    *hr_command_gguf_file      (HrCommand         *command,
                                    const HrScenario  *scenario,
                                    GError           **error);
/* What vLLM and SGLang load: the quantized checkpoint the catalog
 * knows for AWQ/GPTQ/FP8, the imported checkpoint's directory, the
 * model's repository (with @dynamic_fp8 when the engine is to quantize
 * 16-bit weights to FP8 as it loads them), or a flagged placeholder. */
char    *hr_command_checkpoint     (HrCommand         *command,
                                    const HrScenario  *scenario,
                                    const char        *engine,
                                    gboolean          *dynamic_fp8,
                                    GError           **error);
/* The placeholder for the head machine's address, registered with its
 * meaning; "<head-address>". */
const char *hr_command_head_address (HrCommand        *command);

/* Letters, digits and "._-" only: the safe part of a name. */
char    *hr_command_safe_name      (const char        *name,
                                    gboolean           lower);

/* LoRA adapter @i of @scenario: its file, or a placeholder (hr-command-llamacpp.c). */
char    *hr_command_lora_path       (HrCommand          *command,
                                     const HrScenario   *scenario,
                                     guint32             i);

G_END_DECLS
