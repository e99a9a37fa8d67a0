/* fuzz-engine-log.c — libFuzzer target: an engine log or llama-bench output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is read as `headroom-cli check-log FILE` reads it (the seeds
 * are the published logs of tests/data/logs).  A log that is refused has
 * one displayable line naming the file; one that is read keeps its
 * limits, every string displayable and every rate finite.
 */

#define G_LOG_DOMAIN "fuzz-engine-log"

#include "config.h"

#include <math.h>

#include "fuzz-common.h"
#include "hr-engine-log.h"
#include "hr-text.h"

static void
check_string (const char *s)
{
  CHECK (s == NULL || hr_text_is_displayable (s, -1));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = fuzz_write_input ("engine.log", data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrEngineLog) log = hr_engine_log_parse_file (path, &error);

  if (log == NULL)
    {
      fuzz_check_error (error, path);
      return 0;
    }
  CHECK (log->kind != HR_ENGINE_LOG_UNKNOWN);
  CHECK (log->n_devices <= HR_ENGINE_LOG_MAX_DEVICES);
  CHECK (log->n_runs <= HR_ENGINE_LOG_MAX_RUNS);
  check_string (log->version);
  check_string (log->model);
  check_string (log->precision_hint);
  check_string (log->kv_type);
  check_string (log->gpu_name);
  CHECK (isfinite (log->decode_tokens_per_s) && log->decode_tokens_per_s >= 0);
  CHECK (isfinite (log->prefill_tokens_per_s) && log->prefill_tokens_per_s >= 0);
  CHECK (isfinite (log->max_concurrency) && isfinite (log->gpu_memory_utilization));
  for (guint i = 0; i < log->n_runs; i++)
    CHECK (isfinite (log->runs[i].tokens_per_s) && log->runs[i].tokens_per_s > 0);
  for (guint i = 0; i < log->n_devices; i++)
    CHECK (log->devices[i].name[0] != '\0');
  return 0;
}
