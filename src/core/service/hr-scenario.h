/* hr-scenario.h — one question asked of the estimator, in catalog terms
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A scenario names catalog objects (model, precision, KV type, device)
 * and the numeric settings.  The calculator holds one; the matrix and the
 * hardware table copy it and vary one member per row or cell; the CLI
 * builds one from its options.
 */

#pragma once

#include "hr-calibration.h"
#include "hr-cpu.h"
#include "hr-estimate.h"
#include "hr-hardware.h"
#include "hr-model-spec.h"
#include "hr-precision.h"

G_BEGIN_DECLS

/* The most LoRA adapters a scenario loads (llama-server takes any
 * number; a handful is what people stack). */
#define HR_LORA_MAX 8

typedef struct
{
  const HrCalibration *calibration; /* borrowed; NULL = none: the speed
                                     * corrections measured on this computer */
  HrModelSpec *model;        /* borrowed */
  HrPrecision *precision;    /* borrowed */
  HrKvType *kv_type;         /* borrowed */
  HrHardware *hardware;      /* borrowed */
  HrCpu *cpu;                /* borrowed; NULL = the stated assumptions */
  guint64 context;
  guint32 batch;
  HrEngine engine;
  guint32 gpus;
  /* GPUs of different kinds (--hardware ID:N,ID:N): GPU d is devices[d]
   * (borrowed; NULL: hardware, which is devices[0]); gpus counts them all.
   * What each keeps for others (--reserve): reserve_set[d] FALSE takes
   * the device kind's default. */
  HrHardware *devices[HR_MAX_DEVICES];
  gboolean reserve_set[HR_MAX_DEVICES];
  guint64 reserve_bytes[HR_MAX_DEVICES];
  /* A vision projector (llama.cpp, Ollama): its weights and encoder
   * buffer (0: none), the tokens an image takes and how many images. */
  guint64 mmproj_weights_bytes;
  guint64 mmproj_compute_bytes;
  guint32 tokens_per_image;
  guint32 images;
  const char *mmproj_path;     /* borrowed; NULL: from the catalog (auto) */
  /* A draft model for speculative decoding (llama-server): NULL for
   * none; draft_max 0 = the best length up to llama-server's 16;
   * acceptance 0 = the pairing's default. */
  HrModelSpec *draft_model;    /* borrowed */
  HrPrecision *draft_precision; /* borrowed */
  guint32 draft_max;
  double acceptance;
  /* LoRA adapters (llama.cpp, Ollama): each a file (lora_paths[i],
   * borrowed, with its tensors' bytes) or a rank (lora_ranks[i], path
   * NULL: hr_lora_bytes_for_rank). */
  guint32 n_lora;
  const char *lora_paths[HR_LORA_MAX];
  guint64 lora_file_bytes[HR_LORA_MAX];
  guint32 lora_ranks[HR_LORA_MAX];
  gboolean kv_on_host;         /* llama-server --no-kv-offload */
  guint64 cache_ram_bytes;     /* llama-server --cache-ram (0: not given) */
  HrEngineOptions options;   /* zero = the engine's defaults */
  HrPlacementOptions placement; /* zero = auto: as many layers as fit */
  HrSystemMemory ram;        /* zero = the stated assumption */
  HrLayout layout;           /* vLLM, SGLang; zero = tp over the GPUs */
  guint64 prompt_tokens;     /* the prompt timed; 0 = the context */
  guint64 generate_tokens;   /* the answer timed; 0 = HR_DEFAULT_GENERATE */
  guint64 depth;             /* tokens cached before the prompt; 0 = none */
  guint32 users;             /* vLLM, SGLang: concurrent users; 0 = none */
  double target_tokens_per_s; /*   each user's speed target; 0 = none */
} HrScenario;

gboolean hr_scenario_estimate       (const HrScenario  *scenario,
                                     HrEstimate        *result,
                                     GError           **error);
HrEngine hr_scenario_engine         (const HrScenario  *scenario);
HrHardware *hr_scenario_gpu         (const HrScenario  *scenario,
                                     guint32            d);
void     hr_scenario_explain        (const HrScenario  *scenario,
                                     const HrEstimate  *result,
                                     HrFormulas        *formulas);
guint64  hr_scenario_lora_bytes     (const HrScenario  *scenario);
gboolean hr_scenario_engine_weights (HrModelSpec       *model,
                                     HrPrecision       *precision,
                                     HrEngine           engine,
                                     guint64           *weights_bytes,
                                     guint64           *token_embd_bytes);

G_END_DECLS
