/* hr-command-serving.c — what the vLLM and SGLang commands share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Both serve safetensors checkpoints: the quantized repository the
 * catalog records for AWQ/GPTQ/FP8 (resources/catalog/distributions.json,
 * with sources), an imported config.json's directory, or the model's own
 * repository.  Both launch over several machines from the head machine's
 * address, which Headroom cannot know.
 */

#define G_LOG_DOMAIN "hr-commands"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "hr-commands-private.h"
#include "hr-distributions.h"

#define HEAD_ADDRESS "<head-address>"

char *
hr_command_checkpoint (HrCommand         *command,
                       const HrScenario  *scenario,
                       const char        *engine,
                       gboolean          *dynamic_fp8,
                       GError           **error)
{
  const char *id = hr_model_spec_get_id (scenario->model);
  const char *precision = hr_precision_get_id (scenario->precision);
  const char *kind = hr_precision_get_kind (scenario->precision);
  const char *repo = hr_distributions_checkpoint (id, precision);
  const char *source = hr_model_spec_get_source (scenario->model);
  const char *own = hr_distributions_own_precision (id);
  g_autofree char *own_label = own ? g_ascii_strup (own, -1) : NULL;
  g_autofree char *word = NULL;

  *dynamic_fp8 = FALSE;

  if (hr_model_spec_get_file_path (scenario->model) != NULL)
    {
      g_set_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN,
                   "%s needs this model's safetensors checkpoint; a GGUF file was imported",
                   engine);
      return NULL;
    }

  if (repo != NULL)
    return g_strdup (repo);

  /* An imported config.json: its checkpoint directory, whose weights
   * are of a float type (or quantized to FP8 by the engine). */
  if (hr_model_spec_get_origin (scenario->model) == HR_ORIGIN_USER && source != NULL &&
      g_str_has_suffix (source, "config.json"))
    {
      g_autofree char *dir = g_path_get_dirname (hr_model_spec_get_disk_path (scenario->model));

      own = NULL;
      if (g_strcmp0 (kind, "float") == 0 || g_strcmp0 (precision, "fp8") == 0)
        {
          *dynamic_fp8 = g_strcmp0 (precision, "fp8") == 0;
          return g_canonicalize_filename (dir, NULL);
        }
    }
  /* The model's own repository holds 16-bit weights unless the catalog
   * says it is one of its quantized checkpoints (gpt-oss: MXFP4): then
   * it serves no other precision, and the engine cannot quantize those
   * weights to FP8 as it loads them. */
  else if (own == NULL && g_strcmp0 (kind, "float") == 0)
    return g_strdup (id);
  else if (own == NULL && g_strcmp0 (precision, "fp8") == 0)
    {
      /* The engine quantizes a 16-bit checkpoint to FP8 as it loads it. */
      *dynamic_fp8 = TRUE;
      return g_strdup (id);
    }

  word = g_strdup_printf ("<%s-checkpoint-of-%s>", precision, id);
  if (own != NULL)
    /* TRANSLATORS: what to put in place of a placeholder in a command;
     * the first %s is a precision, "BF16", then a repository and its
     * precision, "openai/gpt-oss-20b", "MXFP4" */
    hr_command_placeholder (command, word, _("a %s checkpoint of this model (a Hugging Face "
                                             "repository or a directory): Headroom knows "
                                             "none, and %s holds %s weights"),
                            hr_precision_get_label (scenario->precision), id, own_label);
  else
    /* TRANSLATORS: what to put in place of a placeholder in a command;
     * %s is a precision, "AWQ INT4" */
    hr_command_placeholder (command, word, _("a %s checkpoint of this model (a Hugging Face "
                                             "repository or a directory): Headroom knows "
                                             "none"),
                            hr_precision_get_label (scenario->precision));
  return g_steal_pointer (&word);
}

const char *
hr_command_head_address (HrCommand *command)
{
  /* TRANSLATORS: what to put in place of a placeholder in a command */
  hr_command_placeholder (command, HEAD_ADDRESS, _("the network address (IP or host name) "
                                                   "of the first machine, which the others "
                                                   "reach"));
  return HEAD_ADDRESS;
}
