/* fuzz-gguf-model.c — libFuzzer target: a GGUF header to a catalog model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is a GGUF header (the seeds are the headers test-gguf-model
 * writes).  It is read as a whole file and as the start of a 16 GiB one,
 * mapped to a model's shape, a catalog model and `inspect --json`'s
 * description, and a model that maps is estimated (fuzz-common.c says
 * what is checked).
 */

#define G_LOG_DOMAIN "fuzz-gguf-model"

#include "config.h"

#include "fuzz-common.h"
#include "hr-gguf-model.h"
#include "hr-model-inspect.h"
#include "hr-text.h"

#define NAME "fuzz-model.gguf"

static void
map (HrGguf *gguf)
{
  g_autoptr(GError) error = NULL;
  g_auto(HrModelShape) shape = { NULL };
  g_autoptr(JsonNode) described = NULL;
  g_autoptr(HrModelSpec) spec = NULL;

  if (!hr_gguf_model_read_shape (gguf, NAME, &shape, &error))
    {
      fuzz_check_error (error, NAME);
      return;
    }

  spec = hr_model_spec_new_from_shape (&shape, HR_ORIGIN_USER, &error);
  described = hr_model_inspect_describe_gguf (gguf, NAME, error == NULL ? &error : NULL);
  if (spec == NULL)
    {
      /* describe refuses what the catalog refuses */
      CHECK (described == NULL);
      fuzz_check_error (error, NULL);
      return;
    }
  CHECK (described != NULL);
  fuzz_check_model (spec);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  guint64 claimed = (guint64) size + (G_GUINT64_CONSTANT (1) << 34);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) whole = NULL;
  g_autoptr(HrGguf) start = NULL;

  whole = hr_gguf_parse (data, size, size, &error);
  if (whole != NULL)
    map (whole);
  else
    fuzz_check_error (error, NULL);
  g_clear_error (&error);

  /* The seeds are headers only: their tensors lie in the claimed rest. */
  start = hr_gguf_parse (data, size, claimed, &error);
  if (start != NULL)
    map (start);
  else
    fuzz_check_error (error, NULL);
  return 0;
}
