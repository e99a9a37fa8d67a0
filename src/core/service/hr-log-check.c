/* hr-log-check.c — an engine's log read back against the estimate for the
 * same settings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "hr-log-check.h"
#include "hr-vllm-memory.h"

/* ---------------------------------------------------------- settings */

/* llama.cpp's file types as it prints them ("model ftype = Q4_K - Medium",
 * llama-bench's model column "qwen2 7B Q4_K - Medium", old builds' "mostly
 * Q4_0"; llama-model.cpp llama_model_ftype_name) and vLLM's / SGLang's
 * dtype and quantization names → Headroom's precision ids. */
static const struct
{
  const char *hint;             /* lower case, matched as a substring */
  const char *precision;
} precision_hints[] = {
  { "q4_k - medium", "q4_k_m" }, { "q4_k - small", "q4_k_s" },
  { "q5_k - medium", "q5_k_m" }, { "q5_k - small", "q5_k_s" },
  { "q3_k - large", "q3_k_l" }, { "q3_k - medium", "q3_k_m" }, { "q3_k - small", "q3_k_s" },
  { "q2_k", "q2_k" }, { "q6_k", "q6_k" }, { "q8_0", "q8_0" }, { "q4_0", "q4_0" },
  { "iq4_xs", "iq4_xs" }, { "bf16", "bf16" }, { "f16", "fp16" },
  /* vLLM / SGLang */
  { "bfloat16", "bf16" }, { "float16", "fp16" }, { "half", "fp16" },
  { "awq", "awq-int4" }, { "gptq", "gptq-int4" }, { "fp8", "fp8" },
};

/* KV cache types: llama.cpp's type_k, vLLM's kv_cache_dtype. */
static const struct
{
  const char *log;
  const char *kv;
} kv_types[] = {
  { "f16", "fp16" }, { "bf16", "bf16" }, { "q8_0", "q8_0" }, { "q4_0", "q4_0" },
  { "fp8", "fp8" }, { "fp8_e4m3", "fp8" }, { "fp8_e5m2", "fp8" },
};

/* The tokens of a vLLM step that takes a whole prompt: V0's scheduler takes
 * max (max_model_len, 2048) tokens without chunked prefill (vllm/config.py,
 * SchedulerConfig). */
#define HR_LOG_VLLM_V0_MIN_BATCHED_TOKENS 2048

/**
 * hr_log_precision_from_hint:
 *
 * Returns: (nullable): the precision id a log's type names, or %NULL
 */
const char *
hr_log_precision_from_hint (const char *hint)
{
  g_autofree char *lower = NULL;

  if (hint == NULL)
    return NULL;
  lower = g_ascii_strdown (hint, -1);
  /* "bfloat16" holds "float16", and "bf16" holds "f16": first match wins */
  if (strstr (lower, "bfloat16") != NULL)
    return "bf16";
  for (guint i = 0; i < G_N_ELEMENTS (precision_hints); i++)
    if (strstr (lower, precision_hints[i].hint) != NULL)
      return precision_hints[i].precision;
  return NULL;
}

static const char *
kv_type_from_log (const char *type)
{
  for (guint i = 0; i < G_N_ELEMENTS (kv_types); i++)
    if (g_strcmp0 (type, kv_types[i].log) == 0)
      return kv_types[i].kv;
  return NULL;
}

/* vLLM "0.6.3.post1", "0.19.0", "0.7.0" → the --vllm-version the memory
 * model has for it ("0.6" before 0.19, "0.19" before 0.21, else none). */
static const char *
vllm_version_for (const char *version)
{
  guint64 major = 0, minor = 0;
  char *end = NULL;

  if (version == NULL)
    return NULL;
  major = g_ascii_strtoull (version, &end, 10);
  if (end == version || *end != '.')
    return NULL;
  minor = g_ascii_strtoull (end + 1, NULL, 10);
  if (major > 0)
    return NULL;
  if (minor < 19)
    return "0.6";
  if (minor < 21)
    return "0.19";
  return NULL;
}

/* What a log calls the model, when it is a name: a converter that had
 * none writes "." (general.name); Ollama's runner is given a path to a
 * content-addressed blob, ".ollama/models/blobs/sha256-…", no name at all;
 * another path names its file. */
static const char *
model_name (const char *model)
{
  const char *base;
  gboolean alnum = FALSE;

  if (model == NULL)
    return NULL;
  base = strrchr (model, '/');
  base = base != NULL && model[0] == '/' ? base + 1 : model;
  if (g_str_has_prefix (base, "sha256-") || g_str_has_prefix (base, "sha256:"))
    return NULL;
  for (const char *c = base; *c != '\0'; c++)
    alnum |= g_ascii_isalnum (*c);
  return alnum ? base : NULL;
}

/**
 * hr_log_settings_read:
 * @catalog: where the log's model name is looked up
 *
 * What @log says about the run it logged: the engine, the model when the
 * catalog knows its name, the precision, the context per sequence and the
 * sequences, the cache type, the GPUs, vLLM's memory share, version and
 * step size, flash attention and the layers on the GPU.  Without n_ctx,
 * the context is the prompt a timing line timed, or llama-bench's first
 * row's.
 */
void
hr_log_settings_read (const HrEngineLog *log,
                      HrCatalog         *catalog,
                      HrLogSettings     *out)
{
  const char *hint = log->precision_hint;
  gboolean shared = log->kind == HR_ENGINE_LOG_LLAMACPP || log->kind == HR_ENGINE_LOG_OLLAMA;
  guint gpus;

  memset (out, 0, sizeof *out);
  out->engine = hr_engine_log_engine_id (log);
  out->model_in_log = model_name (log->model);
  if (log->model != NULL && catalog != NULL && hr_catalog_find_model (catalog, log->model) != NULL)
    out->model = log->model;
  if (hint == NULL && log->n_runs > 0)
    hint = log->runs[0].model;
  out->precision = hr_log_precision_from_hint (hint);

  /* llama.cpp's n_ctx and Ollama's --ctx-size are the cells of all
   * sequences together; Headroom's context is one sequence's (as vLLM's
   * max_model_len is). */
  if (log->context > 0)
    out->context = MAX (shared ? log->context / MAX (log->parallel, 1) : log->context, 1);
  /* timing lines without n_ctx: the prompt timed is the cache's fill */
  else if (log->prefill_tokens > 0)
    out->context = log->prefill_tokens;
  /* llama-bench: its first row's cache, the depth and the row's tokens */
  else if (log->kind == HR_ENGINE_LOG_LLAMA_BENCH && log->n_runs > 0)
    out->context = MAX ((guint64) log->runs[0].depth +
                        (log->runs[0].prompt ? log->runs[0].n_prompt : log->runs[0].n_gen), 1);
  /* the sequences: llama.cpp n_seq_max, Ollama --parallel, vLLM max_num_seqs */
  if (log->parallel > 1)
    out->batch = log->parallel;

  if (log->kv_type != NULL)
    {
      out->kv_type = kv_type_from_log (log->kv_type);
      if (out->kv_type == NULL)
        out->kv_type_unknown = log->kv_type;
    }

  out->gpu_in_log = log->gpu_name;
  gpus = log->tensor_parallel > 0 ? log->tensor_parallel : hr_engine_log_gpu_count (log);
  if (gpus > 1)
    out->gpus = gpus;

  if (log->kind == HR_ENGINE_LOG_VLLM)
    {
      out->gpu_memory_utilization = log->gpu_memory_utilization;
      out->vllm_version = vllm_version_for (log->version);
      /* no version line, but V0's (0.6 to 0.8): its memory model is 0.6's */
      if (log->version == NULL && log->vllm_v0_lines)
        out->vllm_version = "0.6";
      out->max_num_batched_tokens = log->max_num_batched_tokens;
      if (!log->chunked_prefill && log->context > 0)
        out->whole_prompt_tokens = MAX (log->context, HR_LOG_VLLM_V0_MIN_BATCHED_TOKENS);
    }
  if (shared)
    {
      if (log->flash_attn_known)
        out->flash_attn = log->flash_attn ? HR_FLASH_ATTN_ON : HR_FLASH_ATTN_OFF;
      if (log->layers_total > 0 && log->layers_offloaded <= log->layers_total)
        {
          out->gpu_layers_known = TRUE;
          out->gpu_layers = log->layers_offloaded;
        }
    }
  out->prompt_tokens = log->prefill_tokens;
}

/**
 * hr_log_settings_apply:
 * @said: what a log says (hr_log_settings_read())
 * @scenario: (inout): the settings to estimate; where the log is silent,
 *   they stay as they are
 *
 * The window's way to a log's run: its own scenario, changed wherever the
 * log says otherwise.  (The CLI sets the options the user did not give
 * instead, hr_cli_log_fill_options().)  A name the catalog does not have
 * changes nothing.
 */
void
hr_log_settings_apply (const HrLogSettings *said,
                       HrCatalog           *catalog,
                       HrScenario          *scenario)
{
  HrEngine engine;
  HrModelSpec *model = said->model != NULL ? hr_catalog_find_model (catalog, said->model) : NULL;
  HrPrecision *precision = said->precision != NULL ?
    hr_catalog_find_precision (catalog, said->precision) : NULL;
  HrKvType *kv = said->kv_type != NULL ? hr_catalog_find_kv_type (catalog, said->kv_type) : NULL;

  if (said->engine != NULL && hr_engine_from_string (said->engine, &engine))
    scenario->engine = engine;
  if (model != NULL)
    scenario->model = model;
  if (precision != NULL)
    scenario->precision = precision;
  /* vLLM and SGLang load a checkpoint in its own dtype (--dtype auto):
   * BF16 for the models of the catalog, never a GGUF type */
  else if ((scenario->engine == HR_ENGINE_VLLM || scenario->engine == HR_ENGINE_SGLANG) &&
           scenario->precision != NULL &&
           g_strcmp0 (hr_precision_get_kind (scenario->precision), "gguf") == 0)
    scenario->precision = hr_catalog_find_precision (catalog, "bf16");
  if (kv != NULL)
    scenario->kv_type = kv;
  if (said->context > 0)
    scenario->context = said->context;
  scenario->batch = MAX (said->batch, 1);
  if (said->gpus > 0)
    scenario->gpus = said->gpus;
  if (said->prompt_tokens > 0)
    scenario->prompt_tokens = said->prompt_tokens;
  if (said->flash_attn != HR_FLASH_ATTN_DEFAULT)
    scenario->options.flash_attn = said->flash_attn;
  if (said->gpu_layers_known)
    {
      scenario->placement.gpu_layers_fixed = TRUE;
      scenario->placement.gpu_layers = said->gpu_layers;
    }
  if (said->gpu_memory_utilization > 0)
    scenario->options.gpu_memory_utilization = said->gpu_memory_utilization;
  if (g_strcmp0 (said->vllm_version, "0.6") == 0)
    scenario->options.vllm_generation = HR_VLLM_V0_6;
  else if (g_strcmp0 (said->vllm_version, "0.19") == 0)
    scenario->options.vllm_generation = HR_VLLM_V1_0_19;
  if (said->max_num_batched_tokens > 0)
    scenario->options.max_num_batched_tokens = said->max_num_batched_tokens;
  else if (said->whole_prompt_tokens > 0 && g_strcmp0 (said->vllm_version, "0.6") == 0)
    scenario->options.max_num_batched_tokens = said->whole_prompt_tokens;
}

/* ----------------------------------------------------------- figures */

void
hr_log_check_add (HrLogCheck      *check,
                  const char      *key,
                  const char      *label,
                  HrLogFigureKind  kind,
                  double           measured,
                  gboolean         has_estimate,
                  double           estimate)
{
  if (check->n == HR_LOG_CHECK_MAX_FIGURES)
    return;
  check->figures[check->n++] = (HrLogFigure) { key, label, kind, measured, has_estimate,
                                               estimate };
}

gboolean
hr_log_check_has (const HrLogCheck *check,
                  const char       *key)
{
  for (guint i = 0; i < check->n; i++)
    if (strcmp (check->figures[i].key, key) == 0)
      return TRUE;
  return FALSE;
}

/**
 * hr_log_figure_error:
 *
 * (estimate − measured) ÷ measured.
 *
 * Returns: FALSE without an estimate, or when the measured figure is 0
 */
gboolean
hr_log_figure_error (const HrLogFigure *figure,
                     double            *error)
{
  if (!figure->has_estimate || !(figure->measured > 0))
    return FALSE;
  *error = (figure->estimate - figure->measured) / figure->measured;
  return TRUE;
}

static guint64
sum_devices (const HrEngineLog *log,
             int                what,
             gboolean          *seen)
{
  guint64 total = 0;

  *seen = FALSE;
  for (guint i = 0; i < log->n_devices; i++)
    {
      const HrEngineLogDevice *d = &log->devices[i];

      switch (what)
        {
        case HR_ENGINE_LOG_WEIGHTS: total += d->weights_bytes; *seen |= d->has_weights; break;
        case HR_ENGINE_LOG_KV: total += d->kv_bytes; *seen |= d->has_kv; break;
        case HR_ENGINE_LOG_STATE: total += d->state_bytes; *seen |= d->has_state; break;
        default: break;
        }
    }
  return total;
}

static const HrEngineLogDevice *
find_device (const HrEngineLog *log,
             gboolean           host)
{
  for (guint i = 0; i < log->n_devices; i++)
    if ((strcmp (log->devices[i].name, "CPU") == 0) == host)
      return &log->devices[i];
  return NULL;
}

/* Memory figures of a llama.cpp or Ollama log: buffers per device (or
 * Ollama's own plan, when the runner's lines are not in the log). */
static void
memory_llamacpp (HrLogCheck        *f,
                 const HrEngineLog *log,
                 const HrEstimate  *e)
{
  gboolean seen;
  guint64 v;
  const HrEngineLogDevice *gpu = find_device (log, FALSE);
  const HrEngineLogDevice *host = find_device (log, TRUE);

  v = sum_devices (log, HR_ENGINE_LOG_WEIGHTS, &seen);
  if (seen || log->has_weights)
    hr_log_check_add (f, "weights_bytes", N_("weights"), HR_LOG_FIGURE_BYTES,
                      seen ? v : log->weights_bytes, TRUE, e->weights_bytes);
  v = sum_devices (log, HR_ENGINE_LOG_KV, &seen);
  if (seen || log->has_kv)
    hr_log_check_add (f, "kv_bytes", N_("KV cache"), HR_LOG_FIGURE_BYTES,
                      seen ? v : log->kv_bytes, TRUE, e->kv_bytes);
  v = sum_devices (log, HR_ENGINE_LOG_STATE, &seen);
  if (seen)
    hr_log_check_add (f, "state_bytes", N_("recurrent state"), HR_LOG_FIGURE_BYTES, v,
                      e->state_bytes > 0, e->state_bytes);
  /* llama.cpp and Ollama's plan: one GPU's compute buffer */
  if (gpu != NULL && gpu->has_compute)
    hr_log_check_add (f, "compute_bytes", N_("compute buffer (GPU 1)"), HR_LOG_FIGURE_BYTES,
                      gpu->compute_bytes, TRUE, e->compute_bytes);
  else if (gpu == NULL && log->has_compute)
    hr_log_check_add (f, "compute_bytes", N_("compute graph (one GPU)"), HR_LOG_FIGURE_BYTES,
                      log->compute_bytes, TRUE, e->compute_bytes);
  if (host != NULL)
    hr_log_check_add (f, "host_bytes", N_("in system RAM"), HR_LOG_FIGURE_BYTES,
                      host->weights_bytes + host->kv_bytes + host->compute_bytes, TRUE,
                      e->host_bytes);
}

/* vLLM and SGLang print one GPU's share; the figures compared are the
 * whole model's (× the GPUs), as estimate's weights_bytes and kv_bytes. */
static void
memory_serving (HrLogCheck        *f,
                const HrEngineLog *log,
                const HrEstimate  *e,
                guint32            gpus)
{
  if (log->has_weights)
    hr_log_check_add (f, "weights_bytes", N_("weights"), HR_LOG_FIGURE_BYTES,
                      (double) log->weights_bytes * (log->weights_per_gpu ? gpus : 1), TRUE,
                      (double) e->per_device_weights_bytes * gpus);
  if (log->has_kv)
    hr_log_check_add (f, "kv_bytes", N_("KV cache"), HR_LOG_FIGURE_BYTES,
                      (double) log->kv_bytes * gpus, TRUE, (double) e->per_device_kv_bytes * gpus);
  if (log->kv_capacity_tokens > 0)
    hr_log_check_add (f, "kv_capacity_tokens", N_("KV capacity"), HR_LOG_FIGURE_TOKENS,
                      log->kv_capacity_tokens, TRUE, e->kv_capacity_tokens);
  if (log->max_concurrency > 0)
    hr_log_check_add (f, "max_concurrency", N_("concurrency"), HR_LOG_FIGURE_RATIO,
                      log->max_concurrency, TRUE, e->max_concurrency);
  if (log->has_compute)
    hr_log_check_add (f, "compute_bytes", N_("activations (one GPU)"), HR_LOG_FIGURE_BYTES,
                      log->compute_bytes, e->activation_bytes > 0, e->activation_bytes);
  if (log->has_graph)
    hr_log_check_add (f, "cuda_graph_bytes", N_("CUDA graphs (one GPU)"), HR_LOG_FIGURE_BYTES,
                      log->graph_bytes, e->cuda_graph_bytes > 0, e->cuda_graph_bytes);
}

/**
 * hr_log_check_figures:
 * @gpus: the GPUs the estimate ran on (vLLM and SGLang log one's share)
 *
 * Adds to @check every memory figure @log states and its last timing
 * line's speeds, each beside @estimate's figure for the same thing.
 */
void
hr_log_check_figures (HrLogCheck        *check,
                      const HrEngineLog *log,
                      const HrEstimate  *estimate,
                      guint32            gpus)
{
  switch (log->kind)
    {
    case HR_ENGINE_LOG_VLLM:
    case HR_ENGINE_LOG_SGLANG:
      memory_serving (check, log, estimate, MAX (gpus, 1));
      break;
    case HR_ENGINE_LOG_LLAMACPP:
    case HR_ENGINE_LOG_OLLAMA:
      memory_llamacpp (check, log, estimate);
      break;
    case HR_ENGINE_LOG_LLAMA_BENCH:
    case HR_ENGINE_LOG_UNKNOWN:
    default:
      break;
    }
  if (log->prefill_tokens_per_s > 0)
    hr_log_check_add (check, "prefill_tokens_per_s", N_("prompt speed"), HR_LOG_FIGURE_RATE,
                      log->prefill_tokens_per_s, estimate->prefill_tokens_per_s > 0,
                      estimate->prefill_tokens_per_s);
  if (log->decode_tokens_per_s > 0)
    hr_log_check_add (check, "decode_tokens_per_s", N_("decode speed"), HR_LOG_FIGURE_RATE,
                      log->decode_tokens_per_s, estimate->decode_tokens_per_s > 0,
                      estimate->decode_tokens_per_s);
}

/**
 * hr_log_check_estimate_run:
 * @backend: (out) (optional): what the estimate assumed the GPUs ran on
 *
 * One llama-bench row (or timing line) estimated with @scenario: the
 * prompt of n tokens after its depth, or decoding with the cache filled to
 * depth + n (llama-bench's tg averages over depth … depth + n: taking the
 * end is a small bias towards slower, under 1 % at tg128).  @scenario's
 * calibration, if any, corrects it.
 */
gboolean
hr_log_check_estimate_run (const HrScenario     *scenario,
                           const HrEngineLogRun *run,
                           double               *rate,
                           HrBackend            *backend,
                           GError              **error)
{
  HrScenario s = *scenario;
  HrEstimate e;

  s.context = MAX ((guint64) run->depth + (run->prompt ? run->n_prompt : run->n_gen), 1);
  s.prompt_tokens = run->prompt ? run->n_prompt : 0;
  if (run->flash_attn == 0 || run->flash_attn == 1)
    s.options.flash_attn = run->flash_attn ? HR_FLASH_ATTN_ON : HR_FLASH_ATTN_OFF;
  if (!hr_scenario_estimate (&s, &e, error))
    return FALSE;
  *rate = run->prompt ? e.prefill_tokens_per_s : e.decode_tokens_per_s;
  if (backend != NULL)
    *backend = e.backend;
  return *rate > 0;
}

/**
 * hr_log_check_runs:
 * @run_estimates: (out caller-allocates): one rate per run of @log, 0
 *   where the run cannot be estimated
 *
 * Estimates every llama-bench row of @log, and adds the first prompt and
 * decode rows from an empty cache to @check as its speed figures.
 */
void
hr_log_check_runs (HrLogCheck          *check,
                   const HrEngineLog   *log,
                   const HrScenario    *scenario,
                   double              *run_estimates)
{
  for (guint i = 0; i < log->n_runs; i++)
    {
      const HrEngineLogRun *run = &log->runs[i];
      const char *key = run->prompt ? "prefill_tokens_per_s" : "decode_tokens_per_s";

      if (!hr_log_check_estimate_run (scenario, run, &run_estimates[i], NULL, NULL))
        run_estimates[i] = 0;
      if (run->depth == 0 && run_estimates[i] > 0 && !hr_log_check_has (check, key))
        hr_log_check_add (check, key, run->prompt ? N_("prompt speed") : N_("decode speed"),
                          HR_LOG_FIGURE_RATE, run->tokens_per_s, TRUE, run_estimates[i]);
    }
}
