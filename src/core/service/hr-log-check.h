/* hr-log-check.h — an engine's log read back against the estimate for the
 * same settings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What `headroom-cli check-log` and the window's “Check a Log” share:
 * the settings a log states (hr_log_settings_read()), the figures it
 * measured beside the estimate's (hr_log_check_figures()), and one
 * llama-bench row estimated (hr_log_check_estimate_run()).
 */

#pragma once

#include "hr-calibration.h"
#include "hr-catalog.h"
#include "hr-engine-log.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

/* What a log says about the run, in Headroom's terms; 0 / NULL where it
 * is silent.  Strings are static or borrowed from the log. */
typedef struct
{
  const char *engine;               /* an engine id: "llamacpp", "ollama", "vllm", "sglang" */
  const char *model;                /* a catalog id the log names */
  const char *model_in_log;         /*   what it names, known or not */
  const char *precision;            /* a precision id */
  guint64 context;                  /* tokens per sequence (or the run's cache) */
  guint32 batch;                    /* sequences, when more than one */
  const char *kv_type;              /* a KV type id */
  const char *kv_type_unknown;      /* the log's type when Headroom has none */
  guint32 gpus;                     /* when more than one */
  const char *gpu_in_log;           /* the first GPU it names */
  HrFlashAttn flash_attn;           /* DEFAULT: not said */
  gboolean gpu_layers_known;
  guint32 gpu_layers;
  double gpu_memory_utilization;    /* vLLM */
  const char *vllm_version;         /* vLLM: the --vllm-version its memory model is */
  guint64 max_num_batched_tokens;   /* vLLM, when it says */
  guint64 whole_prompt_tokens;      /* vLLM V0 without chunked prefill: a
                                     * step takes a whole prompt, this many */
  guint64 prompt_tokens;            /* the prompt a timing line timed */
} HrLogSettings;

void        hr_log_settings_read         (const HrEngineLog *log,
                                          HrCatalog         *catalog,
                                          HrLogSettings     *out);
const char *hr_log_precision_from_hint   (const char        *hint);
void        hr_log_settings_apply        (const HrLogSettings *said,
                                          HrCatalog         *catalog,
                                          HrScenario        *scenario);

typedef enum
{
  HR_LOG_FIGURE_BYTES,
  HR_LOG_FIGURE_TOKENS,
  HR_LOG_FIGURE_RATE,               /* tokens/s */
  HR_LOG_FIGURE_RATIO,              /* ×, concurrency */
} HrLogFigureKind;

/* One figure the log states, and Headroom's for the same settings. */
typedef struct
{
  const char *key;                  /* JSON key, docs/CLI.md names */
  const char *label;                /* English; N_() marked for the window */
  HrLogFigureKind kind;
  double measured;
  gboolean has_estimate;
  double estimate;
} HrLogFigure;

#define HR_LOG_CHECK_MAX_FIGURES 12

typedef struct
{
  HrLogFigure figures[HR_LOG_CHECK_MAX_FIGURES];
  guint n;
} HrLogCheck;

void     hr_log_check_figures      (HrLogCheck           *check,
                                    const HrEngineLog    *log,
                                    const HrEstimate     *estimate,
                                    guint32               gpus);
void     hr_log_check_add          (HrLogCheck           *check,
                                    const char           *key,
                                    const char           *label,
                                    HrLogFigureKind       kind,
                                    double                measured,
                                    gboolean              has_estimate,
                                    double                estimate);
gboolean hr_log_check_has          (const HrLogCheck     *check,
                                    const char           *key);
gboolean hr_log_figure_error       (const HrLogFigure    *figure,
                                    double               *error);
gboolean hr_log_check_estimate_run (const HrScenario     *scenario,
                                    const HrEngineLogRun *run,
                                    double               *rate,
                                    HrBackend            *backend,
                                    GError              **error);
void     hr_log_check_runs         (HrLogCheck           *check,
                                    const HrEngineLog    *log,
                                    const HrScenario     *scenario,
                                    double               *run_estimates);

G_END_DECLS
