/* hr-commands.h — launch commands for vLLM, llama.cpp and Ollama
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-engine.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

typedef enum
{
  HR_COMMAND_VLLM,
  HR_COMMAND_LLAMACPP,
  HR_COMMAND_OLLAMA,
} HrCommandKind;

#define HR_VLLM_DEFAULT_PORT 8000
#define HR_LLAMACPP_DEFAULT_PORT 8080

gboolean  hr_command_kind_from_string (const char       *str,
                                       HrCommandKind    *kind);
char     *hr_command_generate         (HrCommandKind     kind,
                                       const HrScenario *scenario);

G_END_DECLS
