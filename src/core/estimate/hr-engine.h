/* hr-engine.h — what llama.cpp, Ollama and vLLM allocate besides the weights
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The engines' own memory models, pure functions over plain structs (one
 * module each in engines/); the profiles that turn them into estimates
 * are behind hr-estimate.h.
 */

#pragma once

#include "hr-llamacpp-memory.h"
#include "hr-ollama-params.h"
#include "hr-vllm-memory.h"
