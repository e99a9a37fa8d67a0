/* hr-defaults.h — what Headroom shows before the user changes anything
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seed page's case: GLM-4-9B-0414 at Q4_K_M, 32K context, FP16 KV, on
 * an RTX 3060 12GB.  The CLI's option defaults (docs/CLI.md) are the same.
 */

#pragma once

#define HR_DEFAULT_MODEL      "THUDM/GLM-4-9B-0414"
#define HR_DEFAULT_PRECISION  "q4_k_m"
#define HR_DEFAULT_CONTEXT    32768
#define HR_DEFAULT_BATCH      1
#define HR_DEFAULT_KV_TYPE    "fp16"
#define HR_DEFAULT_HARDWARE   "rtx-3060-12gb"
#define HR_DEFAULT_GPUS       1
#define HR_DEFAULT_ENGINE     HR_ENGINE_AUTO

/* Serving (vLLM, SGLang): one user, who should get 20 tokens a second —
 * the per-user target the serving issue (13) sizes servers for, a few
 * times a person's reading speed. */
#define HR_DEFAULT_USERS                1
#define HR_DEFAULT_TARGET_TOKENS_PER_S  20.0
/* The users and the target a person can ask for (the CLI's bounds). */
#define HR_USERS_MAX                    1000000
#define HR_TARGET_TOKENS_PER_S_MIN      0.1
#define HR_TARGET_TOKENS_PER_S_MAX      1e6

/* The matrix's default contexts: 8K / 32K / 128K (seed panel P7); the
 * recommended tier is read at the middle one. */
#define HR_DEFAULT_MATRIX_CONTEXTS { 8192, 32768, 131072 }
