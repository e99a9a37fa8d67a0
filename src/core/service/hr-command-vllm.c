/* hr-command-vllm.c — the `vllm serve` command for an estimate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * vLLM 0.21 and later (options as vllm/engine/arg_utils.py defines them,
 * read at 002f10e0): --tensor-parallel-size, --max-model-len,
 * --max-num-seqs, --gpu-memory-utilization (written out: the default
 * changed from 0.90 to 0.92 in 0.21), --max-num-batched-tokens,
 * --dtype (auto keeps the checkpoint's 16-bit type; float16 is refused
 * for Gemma 2/3 and GLM-4), --quantization fp8 (dynamic FP8 of a 16-bit
 * checkpoint), --kv-cache-dtype fp8, --port.  Prefix caching is on by
 * default in the V1 engine.  A length past the model's own needs
 * VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.
 */

#define G_LOG_DOMAIN "hr-command-vllm"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "hr-commands-private.h"
#include "hr-distributions.h"
#include "hr-format.h"

/* What `vllm serve` loads: the quantized checkpoint for AWQ/GPTQ/FP8
 * where the catalog knows one, the imported checkpoint's directory, or
 * the model's own repository. */
static char *
checkpoint (HrCommand         *command,
            const HrScenario  *scenario,
            gboolean          *dynamic_fp8,
            GError           **error)
{
  const char *id = hr_model_spec_get_id (scenario->model);
  const char *precision = hr_precision_get_id (scenario->precision);
  const char *kind = hr_precision_get_kind (scenario->precision);
  const char *repo = hr_distributions_checkpoint (id, precision);
  const char *source = hr_model_spec_get_source (scenario->model);

  *dynamic_fp8 = FALSE;

  if (hr_model_spec_get_file_path (scenario->model) != NULL)
    {
      g_set_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN,
                   "vLLM needs this model's safetensors checkpoint; a GGUF file was imported");
      return NULL;
    }

  if (repo != NULL)
    return g_strdup (repo);

  if (g_strcmp0 (kind, "safetensors") == 0)
    {
      if (g_strcmp0 (precision, "fp8") == 0)
        {
          /* vLLM quantizes a 16-bit checkpoint to FP8 as it loads it. */
          *dynamic_fp8 = TRUE;
        }
      else
        {
          command->placeholder = TRUE;
          /* TRANSLATORS: %s is a precision, "AWQ INT4" */
          hr_command_note (command, _("Replace the model with a %s checkpoint of it: Headroom "
                                      "knows none"),
                           hr_precision_get_label (scenario->precision));
          return g_strdup_printf ("<%s-checkpoint-of-%s>", precision, id);
        }
    }

  /* An imported config.json: its checkpoint directory. */
  if (hr_model_spec_get_origin (scenario->model) == HR_ORIGIN_USER && source != NULL &&
      g_str_has_suffix (source, "config.json"))
    {
      g_autofree char *dir = g_path_get_dirname (source);

      return g_canonicalize_filename (dir, NULL);
    }
  return g_strdup (id);
}

gboolean
hr_command_build_vllm (HrCommand         *command,
                       const HrScenario  *scenario,
                       const HrEstimate  *e,
                       GError           **error)
{
  const char *precision = hr_precision_get_id (scenario->precision);
  const char *kv = hr_kv_type_get_id (scenario->kv_type);
  guint64 trained = hr_model_spec_get_arch (scenario->model)->max_context;
  g_autofree char *model = NULL;
  char utilization[G_ASCII_DTOSTR_BUF_SIZE];
  gboolean dynamic_fp8;
  HrCommandLine *run;

  /* TRANSLATORS: a note above a vllm command; %s is a version, "0.21" */
  hr_command_note (command, _("vLLM %s or later"), HR_COMMAND_VLLM_MIN_VERSION);
  model = checkpoint (command, scenario, &dynamic_fp8, error);
  if (model == NULL)
    return FALSE;

  if (scenario->context > trained)
    {
      g_autofree char *text = hr_format_tokens (trained);

      /* TRANSLATORS: %s is the model's trained context, "32,768" */
      hr_command_note (command, _("The context is longer than the %s tokens the model was "
                                  "trained for: vLLM allows it only when told to, and "
                                  "answers may degrade past it"), text);
    }
  run = hr_command_run_line (command, "vllm");
  if (scenario->context > trained)
    hr_command_env (run, "VLLM_ALLOW_LONG_MAX_MODEL_LEN", "1");
  hr_command_word (run, "serve");
  hr_command_word (run, model);
  hr_command_arg_uint (run, "--tensor-parallel-size", scenario->gpus);
  hr_command_arg_uint (run, "--max-model-len", scenario->context);
  hr_command_arg_uint (run, "--max-num-seqs", scenario->batch);
  hr_command_arg (run, "--gpu-memory-utilization",
                  g_ascii_formatd (utilization, sizeof utilization, "%.2f",
                                   e->gpu_memory_utilization));
  if (scenario->options.max_num_batched_tokens > 0)
    hr_command_arg_uint (run, "--max-num-batched-tokens",
                         scenario->options.max_num_batched_tokens);
  if (g_strcmp0 (precision, "fp32") == 0)
    hr_command_arg (run, "--dtype", "float32");
  if (dynamic_fp8)
    hr_command_arg (run, "--quantization", "fp8");
  if (g_strcmp0 (kv, "fp8") == 0)
    hr_command_arg (run, "--kv-cache-dtype", "fp8");
  hr_command_arg_uint (run, "--port", HR_VLLM_DEFAULT_PORT);
  return TRUE;
}
