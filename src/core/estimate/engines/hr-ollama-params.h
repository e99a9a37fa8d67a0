/* hr-ollama-params.h — the llama-server launch Ollama makes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "hr-llamacpp-memory.h"

G_BEGIN_DECLS

/* Ollama's defaults (ollama/ollama envconfig/config.go, server/routes.go,
 * api/types.go): OLLAMA_NUM_PARALLEL 1; num_batch 512; num_ctx from the
 * total VRAM since v0.15.5 — 4096 below 23 GiB, 32768 from 23 GiB, 262144
 * from 47 GiB (v0.6.7 … v0.15.4 used 4096 everywhere, earlier versions
 * 2048); flash attention "auto", i.e. on for GPUs that support it. */
#define HR_OLLAMA_DEFAULT_NUM_CTX        4096
#define HR_OLLAMA_DEFAULT_NUM_PARALLEL   1
#define HR_OLLAMA_DEFAULT_NUM_BATCH      512
#define HR_OLLAMA_NUM_CTX_MEDIUM         32768
#define HR_OLLAMA_NUM_CTX_LARGE          262144
#define HR_OLLAMA_VRAM_MEDIUM_GIB        23.0
#define HR_OLLAMA_VRAM_LARGE_GIB         47.0

typedef struct
{
  guint64 num_ctx;               /* context per slot */
  guint32 num_parallel;          /* OLLAMA_NUM_PARALLEL */
  gboolean flash_attn;           /* OLLAMA_FLASH_ATTENTION */
  guint32 num_batch;             /* num_batch (= -b = -ub) */
} HrOllamaParams;

void         hr_ollama_params_init_default    (HrOllamaParams         *p);
guint64      hr_ollama_default_num_ctx        (guint64                 total_vram_bytes);

/* The llama-server launch Ollama makes: -c num_ctx × num_parallel,
 * -np num_parallel (one stream per slot), -b = -ub = num_batch; the KV
 * cache type (OLLAMA_KV_CACHE_TYPE) only takes effect with flash
 * attention, otherwise the cache stays F16.  Returns the -c value. */
guint64      hr_ollama_llamacpp_params        (const HrOllamaParams   *o,
                                               double                  kv_bytes_per_element,
                                               HrLlamaCppParams       *p);

G_END_DECLS
