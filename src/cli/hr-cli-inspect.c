/* hr-cli-inspect.c — headroom-cli inspect: what a model file holds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include "hr-cli-common.h"
#include "hr-model-inspect.h"

static void
add_options (GArray       *entries,
             HrCliOptions *o)
{
  hr_cli_add_json (entries, o);
}

static int
run (HrCliOptions *o,
     const char   *name)
{
  g_autoptr(GError) error = NULL;

  if (o->rest == NULL || g_strv_length (o->rest) != 1)
    return hr_cli_usage_error ("inspect needs exactly one FILE");
  if (!hr_model_inspect (o->rest[0], o->json, &error))
    return hr_cli_file_error (error->message);
  return 0;
}

const HrCliCommand hr_cli_inspect_command = {
  .name = "inspect",
  .parameter = "FILE",
  .synopsis = "inspect   FILE [--json]",
  .summary = "Prints what a .gguf file or a Hugging Face config.json holds: the "
             "architecture, the figures the estimator needs and, for a GGUF file, its "
             "tensors by type.",
  .add_options = add_options,
  .run = run,
};
