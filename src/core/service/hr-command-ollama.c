/* hr-command-ollama.c — a Modelfile and the ollama commands for an estimate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ollama 0.33 (read at fb30760): a Modelfile FROM a library tag or a GGUF
 * path, PARAMETER num_ctx (documented), num_batch and num_gpu (accepted,
 * no longer documented; any other name is an error); flash attention, the
 * KV cache type and parallel requests are settings of the server
 * (OLLAMA_FLASH_ATTENTION, OLLAMA_KV_CACHE_TYPE, OLLAMA_NUM_PARALLEL).
 * Model names: letters, digits, "_", "-" and "." (types/model/name.go),
 * at most 80 characters.
 */

#define G_LOG_DOMAIN "hr-command-ollama"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "hr-commands-private.h"
#include "hr-distributions.h"
#include "hr-format.h"

#define OLLAMA_NAME_MAX 80

/* OLLAMA_KV_CACHE_TYPE's values. */
static const char *
cache_type (const HrScenario *scenario)
{
  const char *kv = hr_kv_type_get_id (scenario->kv_type);

  if (g_strcmp0 (kv, "fp16") == 0)
    return "f16";
  if (g_strcmp0 (kv, "q8_0") == 0 || g_strcmp0 (kv, "q4_0") == 0)
    return kv;
  return NULL;
}

static char *
model_name (const HrScenario *scenario)
{
  g_autofree char *joined = g_strdup_printf ("%s-%s-%" G_GUINT64_FORMAT "k",
                                             hr_model_spec_get_name (scenario->model),
                                             hr_precision_get_id (scenario->precision),
                                             (scenario->context + 1023) / 1024);
  char *name = hr_command_safe_name (joined, TRUE);

  if (strlen (name) > OLLAMA_NAME_MAX)
    name[OLLAMA_NAME_MAX] = '\0';
  return name;
}

gboolean
hr_command_build_ollama (HrCommand         *command,
                         const HrScenario  *scenario,
                         const HrEstimate  *e,
                         GError           **error)
{
  const char *precision = hr_precision_get_id (scenario->precision);
  const char *tag = hr_distributions_ollama_tag (hr_model_spec_get_id (scenario->model),
                                                 precision);
  const char *cache = cache_type (scenario);
  guint64 trained = hr_model_spec_get_arch (scenario->model)->max_context;
  g_autofree char *name = model_name (scenario);
  g_autofree char *from = NULL;
  g_autofree char *num_ctx = NULL;
  g_autofree char *num_batch = NULL;
  g_autofree char *num_gpu = NULL;
  g_autofree char *adapter = NULL;
  g_autoptr(GPtrArray) modelfile = g_ptr_array_new ();
  HrCommandLine *run;

  if (cache == NULL)
    {
      g_set_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN,
                   "Ollama has no %s KV cache (f16, q8_0 and q4_0 are its types)",
                   hr_kv_type_get_label (scenario->kv_type));
      return FALSE;
    }

  /* TRANSLATORS: a note above the Ollama commands; %s is a version, "0.30" */
  hr_command_note (command, _("Ollama %s or later"), HR_COMMAND_OLLAMA_MIN_VERSION);
  if (tag != NULL && hr_model_spec_get_file_path (scenario->model) == NULL)
    from = g_strconcat ("FROM ", tag, NULL);
  else
    {
      g_autofree char *path = hr_command_gguf_file (command, scenario, error);

      if (path == NULL)
        return FALSE;
      /* A Modelfile line ends at the line break: a path with one cannot
       * be written. */
      if (strpbrk (path, "\r\n") != NULL)
        {
          g_set_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN,
                       "the file name has a line break, which a Modelfile cannot hold");
          return FALSE;
        }
      from = g_strconcat ("FROM ", path, NULL);
      if (command->placeholder)
        /* TRANSLATORS: %s is a precision, "Q5_K_M" */
        hr_command_note (command, _("No Ollama library tag holds this model in %s: download "
                                    "the GGUF file and put its path after FROM"),
                         hr_precision_get_label (scenario->precision));
    }

  /* What the estimate assumes that Ollama cannot be told: one statement
   * each, never a silent drop. */
  if (scenario->placement.n_cpu_moe > 0)
    /* TRANSLATORS: %u is a number of layers */
    hr_command_note (command, _("Ollama has no --n-cpu-moe: it cannot keep the experts of "
                                "the first %u layers in system memory, and places whole "
                                "layers instead; use llama-server for this estimate"),
                     scenario->placement.n_cpu_moe);
  if (scenario->placement.n_tensor_split > 0 && scenario->gpus > 1)
    hr_command_note (command, _("Ollama has no --tensor-split: it divides the layers "
                                "between the GPUs itself, not in the proportions given"));
  if (scenario->context > trained)
    {
      g_autofree char *text = hr_format_tokens (trained);

      /* TRANSLATORS: %s is the model's trained context, "32,768" */
      hr_command_note (command, _("The context is longer than the %s tokens the model was "
                                  "trained for: Ollama lowers num_ctx to %s"), text, text);
    }

  num_ctx = g_strdup_printf ("PARAMETER num_ctx %" G_GUINT64_FORMAT, scenario->context);
  g_ptr_array_add (modelfile, from);
  g_ptr_array_add (modelfile, num_ctx);
  if (scenario->options.ubatch > 0)
    {
      num_batch = g_strdup_printf ("PARAMETER num_batch %u", scenario->options.ubatch);
      g_ptr_array_add (modelfile, num_batch);
    }
  if (scenario->placement.gpu_layers_fixed)
    {
      num_gpu = g_strdup_printf ("PARAMETER num_gpu %u", e->gpu_layers);
      g_ptr_array_add (modelfile, num_gpu);
    }
  /* one adapter (the estimate refuses more for Ollama) */
  if (scenario->n_lora > 0)
    {
      g_autofree char *lora = hr_command_lora_path (command, scenario, 0);

      if (strpbrk (lora, "\r\n") != NULL)
        {
          g_set_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN,
                       "the adapter's file name has a line break, which a Modelfile cannot hold");
          return FALSE;
        }
      adapter = g_strconcat ("ADAPTER ", lora, NULL);
      g_ptr_array_add (modelfile, adapter);
    }
  g_ptr_array_add (modelfile, NULL);

  hr_command_note (command, _("Write the Modelfile, then create the model from it:"));
  hr_command_file (command, "Modelfile", (const char * const *) modelfile->pdata);
  run = hr_command_run_line (command, "ollama");
  hr_command_word (run, "create");
  hr_command_word (run, name);
  hr_command_word (run, "-f");
  hr_command_word (run, "Modelfile");
  {
    g_autofree char *tokens = g_strdup_printf ("%" G_GUINT64_FORMAT, scenario->context);

    /* TRANSLATORS: %s is a number of tokens, "32768" */
    hr_command_note (command, _("(Or give every model this context on the server: "
                                "OLLAMA_CONTEXT_LENGTH=%s)"), tokens);
  }

  /* The server's settings, where they differ from its defaults. */
  if (!e->flash_attn || g_strcmp0 (cache, "f16") != 0 || scenario->batch > 1)
    {
      hr_command_note (command, _("Start the server with these settings (for the system "
                                  "service: systemctl edit ollama):"));
      run = hr_command_run_line (command, "ollama");
      hr_command_env (run, "OLLAMA_FLASH_ATTENTION", e->flash_attn ? "1" : "0");
      if (g_strcmp0 (cache, "f16") != 0 && e->flash_attn)
        hr_command_env (run, "OLLAMA_KV_CACHE_TYPE", cache);
      if (scenario->batch > 1)
        {
          g_autofree char *parallel = g_strdup_printf ("%u", scenario->batch);

          hr_command_env (run, "OLLAMA_NUM_PARALLEL", parallel);
        }
      hr_command_word (run, "serve");
      if (e->kv_type_ignored)
        /* TRANSLATORS: %s is a cache type, "Q8_0" */
        hr_command_note (command, _("Without flash attention Ollama keeps an F16 cache: %s "
                                    "would be ignored"),
                         hr_kv_type_get_label (scenario->kv_type));
    }

  run = hr_command_run_line (command, "ollama");
  hr_command_word (run, "run");
  hr_command_word (run, name);
  return TRUE;
}
