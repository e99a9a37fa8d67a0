/* fuzz-hf-config.c — libFuzzer target: a Hugging Face config.json to a
 * catalog model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is written to a file and read as `headroom-cli --model
 * FILE` reads it (the seeds are tests/data/hf); a model that loads is
 * estimated (fuzz-common.c says what is checked).  Nesting deeper than
 * the guard cannot be reached with the default -max_len; test-reliability
 * tests 100,000 levels.
 */

#define G_LOG_DOMAIN "fuzz-hf-config"

#include "config.h"

#include "fuzz-common.h"
#include "hr-model-import.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = fuzz_write_input ("config.json", data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModelSpec) model = NULL;

  model = hr_model_import_hf_config (path, &error);
  if (model == NULL)
    fuzz_check_error (error, path);
  else
    fuzz_check_model (model);
  return 0;
}
