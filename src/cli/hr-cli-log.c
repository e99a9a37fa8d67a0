/* hr-cli-log.c — what check-log and calibrate share: a log's settings made
 * the options of an estimate, the calibration file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include <string.h>

#include "hr-cli-log.h"

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

/**
 * hr_cli_precision_from_hint:
 *
 * Returns: (nullable): the precision id a log's type names, or %NULL
 */
const char *
hr_cli_precision_from_hint (const char *hint)
{
  g_autofree char *lower = NULL;

  if (hint == NULL)
    return NULL;
  lower = g_ascii_strdown (hint, -1);
  /* bfloat16 before f16, "float16" before "f16" (first match wins, and
   * "bf16" is also in "bfloat16"'s list order below) */
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

static void
set_default (char      **option,
             const char *value)
{
  if (*option == NULL && value != NULL)
    *option = g_strdup (value);
}

/**
 * hr_cli_log_fill_options:
 * @o: the options as given
 * @log: what the log says
 *
 * Sets every option the user did not give from what the log says (the
 * engine, the model when the catalog knows its name, the precision, the
 * context per sequence and the sequences, the cache type, the GPUs, vLLM's
 * memory share and version, flash attention, the layers on the GPU), then
 * names the first that is still missing and that an estimate needs.
 *
 * Returns: FALSE after a usage error naming the missing option
 */
gboolean
hr_cli_log_fill_options (HrCliOptions      *o,
                         const HrEngineLog *log,
                         gboolean           need_context)
{
  const char *engine = hr_engine_log_engine_id (log);

  set_default (&o->engine, engine);

  if (o->model == NULL && log->model != NULL &&
      hr_catalog_find_model (o->catalog, log->model) != NULL)
    o->model = g_strdup (log->model);
  if (o->model == NULL)
    return hr_cli_usage_error ("the log does not name a model of the catalog%s%s%s: give --model "
                               "M (a catalog id, a .gguf or a config.json)",
                               log->model != NULL ? " (it says “" : "",
                               log->model != NULL ? log->model : "",
                               log->model != NULL ? "”)" : ""), FALSE;

  if (o->precision == NULL)
    {
      const char *hint = log->precision_hint;

      if (hint == NULL && log->n_runs > 0)
        hint = log->runs[0].model;
      set_default (&o->precision, hr_cli_precision_from_hint (hint));
    }
  /* A GGUF file given as the model carries its own type. */
  if (o->precision == NULL && !g_str_has_suffix (o->model, ".gguf"))
    return hr_cli_usage_error ("the log does not say the weights' precision: give --precision "
                               "P (headroom-cli precisions)"), FALSE;

  if (o->context_arg == NULL && log->context > 0)
    {
      guint32 parallel = MAX (log->parallel, 1);
      gboolean shared = log->kind == HR_ENGINE_LOG_LLAMACPP || log->kind == HR_ENGINE_LOG_OLLAMA;

      /* llama.cpp's n_ctx and Ollama's --ctx-size are the cells of all
       * sequences together; Headroom's context is one sequence's (as
       * vLLM's max_model_len is). */
      o->context_arg = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                        MAX (shared ? log->context / parallel : log->context, 1));
    }
  /* the sequences: llama.cpp n_seq_max, Ollama --parallel, vLLM max_num_seqs */
  if (o->batch_arg == NULL && log->parallel > 1)
    o->batch_arg = g_strdup_printf ("%u", log->parallel);
  if (o->context_arg == NULL && need_context)
    return hr_cli_usage_error ("the log does not say the context: give --context N"), FALSE;

  if (o->kv_type == NULL && log->kv_type != NULL)
    {
      const char *kv = kv_type_from_log (log->kv_type);

      if (kv == NULL)
        return hr_cli_usage_error ("the log's KV cache type “%s” is not one Headroom models: "
                                   "give --kv-type K (fp16, bf16, fp8, q8_0, q4_0)",
                                   log->kv_type), FALSE;
      o->kv_type = g_strdup (kv);
    }

  if (o->hardware == NULL)
    return hr_cli_usage_error ("the log does not say which device of the catalog ran it%s%s%s: "
                               "give --hardware H (headroom-cli devices)",
                               log->gpu_name != NULL ? " (it says “" : "",
                               log->gpu_name != NULL ? log->gpu_name : "",
                               log->gpu_name != NULL ? "”)" : ""), FALSE;

  if (o->gpus_arg == NULL)
    {
      guint gpus = log->tensor_parallel > 0 ? log->tensor_parallel : hr_engine_log_gpu_count (log);

      if (gpus > 1)
        o->gpus_arg = g_strdup_printf ("%u", gpus);
    }
  if (log->kind == HR_ENGINE_LOG_VLLM)
    {
      if (o->gpu_memory_utilization_arg == NULL && log->gpu_memory_utilization > 0)
        o->gpu_memory_utilization_arg = g_strdup_printf ("%g", log->gpu_memory_utilization);
      set_default (&o->vllm_version_arg, vllm_version_for (log->version));
      /* no version line, but V0's (0.6 to 0.8): its memory model is 0.6's */
      if (log->version == NULL && log->vllm_v0_lines)
        set_default (&o->vllm_version_arg, "0.6");
      /* the tokens a step takes, when the log says; V0 without chunked
       * prefill takes a whole max_model_len prompt (vllm/config.py
       * SchedulerConfig: max(max_model_len, 2048)) */
      if (o->max_num_batched_tokens_arg == NULL && log->max_num_batched_tokens > 0)
        o->max_num_batched_tokens_arg = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                         log->max_num_batched_tokens);
      else if (o->max_num_batched_tokens_arg == NULL && !log->chunked_prefill &&
               g_strcmp0 (o->vllm_version_arg, "0.6") == 0 && log->context > 0)
        o->max_num_batched_tokens_arg = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                         MAX (log->context, 2048));
    }
  if (log->kind == HR_ENGINE_LOG_LLAMACPP || log->kind == HR_ENGINE_LOG_OLLAMA)
    {
      if (o->flash_attn == NULL && log->flash_attn_known)
        o->flash_attn = g_strdup (log->flash_attn ? "on" : "off");
      if (o->gpu_layers_arg == NULL && log->layers_total > 0 &&
          log->layers_offloaded <= log->layers_total)
        o->gpu_layers_arg = g_strdup_printf ("%u", log->layers_offloaded);
    }
  return TRUE;
}

/**
 * hr_cli_estimate_run:
 * @backend: (out) (optional): what the estimate assumed the GPUs ran on
 *
 * One llama-bench row (or timing line) estimated with @o's scenario: the
 * prompt of n tokens after its depth, or decoding with the cache filled to
 * depth + n (llama-bench's tg averages over depth … depth + n: taking the
 * end is a small bias towards slower, under 1 % at tg128).
 */
gboolean
hr_cli_estimate_run (const HrCliOptions   *o,
                     const HrEngineLogRun *run,
                     const HrCalibration  *calibration,
                     double               *rate,
                     HrBackend            *backend,
                     GError              **error)
{
  HrScenario s = o->scenario;
  HrEstimate e;

  s.context = MAX ((guint64) run->depth + (run->prompt ? run->n_prompt : run->n_gen), 1);
  s.prompt_tokens = run->prompt ? run->n_prompt : 0;
  if (run->flash_attn == 0 || run->flash_attn == 1)
    s.options.flash_attn = run->flash_attn ? HR_FLASH_ATTN_ON : HR_FLASH_ATTN_OFF;
  if (!hr_scenario_estimate (&s, &e, error))
    return FALSE;
  hr_calibration_apply (calibration, hr_hardware_get_id (s.hardware), &e);
  *rate = run->prompt ? e.prefill_tokens_per_s : e.decode_tokens_per_s;
  if (backend != NULL)
    *backend = e.backend;
  return *rate > 0;
}

/* ------------------------------------------------------- calibration */

/**
 * hr_cli_load_calibration:
 *
 * The calibration of this computer, or %NULL with --no-calibration; a
 * corrupted file is moved aside and said on stderr once.
 */
HrCalibration *
hr_cli_load_calibration (HrCliOptions *o)
{
  g_autofree char *path = NULL;
  g_autofree char *note = NULL;
  HrCalibration *calibration;

  if (o->no_calibration)
    return NULL;
  path = hr_calibration_dup_default_path ();
  calibration = hr_calibration_load (path, &note);
  if (note != NULL)
    hr_cli_print_line ("headroom-cli: ", note);
  return calibration;
}
