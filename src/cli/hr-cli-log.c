/* hr-cli-log.c — what check-log and calibrate share: a log's settings made
 * the options of an estimate, the calibration file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include <string.h>

#include "hr-cli-log.h"

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
  HrLogSettings said;

  hr_log_settings_read (log, o->catalog, &said);
  set_default (&o->engine, said.engine);

  if (o->model == NULL && said.model != NULL)
    o->model = g_strdup (said.model);
  if (o->model == NULL)
    return hr_cli_usage_error ("the log does not name a model of the catalog%s%s%s: give --model "
                               "M (a catalog id, a .gguf or a config.json)",
                               log->model != NULL ? " (it says “" : "",
                               log->model != NULL ? log->model : "",
                               log->model != NULL ? "”)" : ""), FALSE;

  set_default (&o->precision, said.precision);
  /* A GGUF file given as the model carries its own type. */
  if (o->precision == NULL && !g_str_has_suffix (o->model, ".gguf"))
    return hr_cli_usage_error ("the log does not say the weights' precision: give --precision "
                               "P (headroom-cli precisions)"), FALSE;

  if (o->context_arg == NULL && said.context > 0)
    o->context_arg = g_strdup_printf ("%" G_GUINT64_FORMAT, said.context);
  if (o->batch_arg == NULL && said.batch > 0)
    o->batch_arg = g_strdup_printf ("%u", said.batch);
  if (o->context_arg == NULL && need_context)
    return hr_cli_usage_error ("the log does not say the context: give --context N"), FALSE;

  if (o->kv_type == NULL && said.kv_type_unknown != NULL)
    return hr_cli_usage_error ("the log's KV cache type “%s” is not one Headroom models: "
                               "give --kv-type K (fp16, bf16, fp8, q8_0, q4_0)",
                               said.kv_type_unknown), FALSE;
  set_default (&o->kv_type, said.kv_type);

  if (o->hardware == NULL)
    return hr_cli_usage_error ("the log does not say which device of the catalog ran it%s%s%s: "
                               "give --hardware H (headroom-cli devices)",
                               log->gpu_name != NULL ? " (it says “" : "",
                               log->gpu_name != NULL ? log->gpu_name : "",
                               log->gpu_name != NULL ? "”)" : ""), FALSE;

  if (o->gpus_arg == NULL && said.gpus > 0)
    o->gpus_arg = g_strdup_printf ("%u", said.gpus);
  if (o->gpu_memory_utilization_arg == NULL && said.gpu_memory_utilization > 0)
    o->gpu_memory_utilization_arg = g_strdup_printf ("%g", said.gpu_memory_utilization);
  set_default (&o->vllm_version_arg, said.vllm_version);
  /* the tokens a step takes, when the log says; V0 without chunked
   * prefill takes a whole prompt */
  if (o->max_num_batched_tokens_arg == NULL && said.max_num_batched_tokens > 0)
    o->max_num_batched_tokens_arg = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                     said.max_num_batched_tokens);
  else if (o->max_num_batched_tokens_arg == NULL && said.whole_prompt_tokens > 0 &&
           g_strcmp0 (o->vllm_version_arg, "0.6") == 0)
    o->max_num_batched_tokens_arg = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                     said.whole_prompt_tokens);
  if (o->flash_attn == NULL && said.flash_attn != HR_FLASH_ATTN_DEFAULT)
    o->flash_attn = g_strdup (said.flash_attn == HR_FLASH_ATTN_ON ? "on" : "off");
  if (o->gpu_layers_arg == NULL && said.gpu_layers_known)
    o->gpu_layers_arg = g_strdup_printf ("%u", said.gpu_layers);
  return TRUE;
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
  g_autofree char *note = NULL;
  HrCalibration *calibration;

  if (o->no_calibration)
    return NULL;
  calibration = hr_calibration_load_default (&note);
  if (note != NULL)
    hr_cli_print_line ("headroom-cli: ", note);
  return calibration;
}
