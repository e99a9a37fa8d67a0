/* fuzz-common.c — what every libFuzzer target of Headroom checks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The invariants a user relies on, whatever file they open:
 *  - a failure is an error whose message is one displayable line (valid
 *    UTF-8, no control characters) and names the file;
 *  - a success is a model (or device) the estimator accepts, for every
 *    engine, without undefined behaviour (UBSan aborts) and with finite
 *    results;
 *  - nothing logs a GLib CRITICAL or WARNING: both abort() here (a log
 *    writer, below), so libFuzzer saves the input.  Making them fatal
 *    alone would not do: GLib stops on a fatal message with G_BREAKPOINT,
 *    a SIGTRAP, which libFuzzer does not catch (the run just ends, the
 *    input unsaved).
 */

#define G_LOG_DOMAIN "fuzz"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


#include "fuzz-common.h"
#include "hr-scenario.h"
#include "hr-test-util.h"
#include "hr-text.h"

static char *temp_dir;
static HrCatalog *builtin;

static void
remove_temp_dir (void)
{
  hr_test_remove_temp_dir (temp_dir);
}

/* Every message goes through here: a CRITICAL or a WARNING (or anything
 * fatal) is printed and aborts, which libFuzzer's crash handler turns
 * into a saved input; the rest goes to GLib's own writer. */
static GLogWriterOutput
abort_on_warnings (GLogLevelFlags   log_level,
                   const GLogField *fields,
                   gsize            n_fields,
                   gpointer         user_data)
{
  if (log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING |
                   G_LOG_FLAG_FATAL))
    {
      g_log_writer_standard_streams (log_level, fields, n_fields, user_data);
      g_printerr ("fuzz: a GLib %s: aborting so that the input is saved\n",
                  log_level & G_LOG_LEVEL_WARNING ? "warning" : "critical or error");
      abort ();
    }
  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

void
fuzz_init (void)
{
  if (temp_dir != NULL)
    return;

  g_log_set_writer_func (abort_on_warnings, NULL, NULL);
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  /* The catalog must not read the fuzzing user's own files.  Inputs are
   * files, written and fsynced on every run: in memory when possible. */
  if (g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) && g_getenv ("TMPDIR") == NULL)
    temp_dir = g_mkdtemp (g_strdup ("/dev/shm/headroom-fuzz-XXXXXX"));
  else
    temp_dir = g_dir_make_tmp ("headroom-fuzz-XXXXXX", NULL);
  CHECK (temp_dir != NULL);
  g_setenv ("XDG_DATA_HOME", temp_dir, TRUE);
  atexit (remove_temp_dir);
}

/* Every target: fatal warnings, a private data directory, the built-in
 * catalog loaded before the first input. */
int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  fuzz_builtin_catalog ();
  return 0;
}

/* Loaded once: the devices and precisions models are estimated on. */
HrCatalog *
fuzz_builtin_catalog (void)
{
  g_autoptr(GError) error = NULL;

  if (builtin == NULL)
    {
      builtin = hr_catalog_new ();
      CHECK (hr_catalog_load_builtin (builtin, &error));
    }
  return builtin;
}

/* The input as a file of the temporary directory (replaced each run). */
char *
fuzz_write_input (const char    *name,
                  const uint8_t *data,
                  size_t         size)
{
  char *path = g_build_filename (temp_dir, name, NULL);
  FILE *file = fopen (path, "wb");

  /* Not g_file_set_contents(), which fsyncs: this is scratch. */
  CHECK (file != NULL);
  CHECK (fwrite (data, 1, size, file) == size);
  CHECK (fclose (file) == 0);
  return path;
}

void
fuzz_check_error (const GError *error,
                  const char   *file)
{
  CHECK (error != NULL);
  CHECK (error->message != NULL);
  if (!hr_text_is_displayable (error->message, -1))
    {
      g_autofree char *shown = hr_text_escape_line (error->message, -1);

      g_printerr ("not displayable: %s\n", shown);
      abort ();
    }
  if (file != NULL && strstr (error->message, file) == NULL)
    {
      g_printerr ("does not name %s: %s\n", file, error->message);
      abort ();
    }
}

static void
check_estimate (const HrScenario *scenario)
{
  g_autoptr(GError) error = NULL;
  HrEstimate e;

  if (!hr_scenario_estimate (scenario, &e, &error))
    {
      fuzz_check_error (error, NULL);
      return;
    }
  CHECK (isfinite (e.weights_share) && isfinite (e.kv_share) && isfinite (e.overhead_share));
  CHECK (isfinite (e.decode_tokens_per_s) && e.decode_tokens_per_s >= 0);
  CHECK (isfinite (e.kv_savings) && isfinite (e.kv_bytes_per_token));
}

/* Every engine, a GGUF and a float precision, the shortest and the
 * longest context, one GPU and eight. */
static void
check_scenarios (HrModelSpec *model,
                 HrHardware  *hardware)
{
  static const char * const precisions[] = { "q4_k_m", "bf16" };
  static const guint64 contexts[] = { 1, HR_CONTEXT_MAX };
  static const guint32 gpus[] = { 1, 8 };
  HrCatalog *catalog = fuzz_builtin_catalog ();
  HrScenario s = { 0 };
  /* The engines' tensor tables list every layer, so a file may ask for
   * seconds of work with 100,000 layers (HR_LAYERS_MAX) under the
   * sanitizers: such a model is estimated with one precision, so that a
   * slow input is not taken for a hang. */
  guint n_precisions = hr_model_spec_get_arch (model)->n_layers > 1000
                       ? 1 : G_N_ELEMENTS (precisions);

  s.model = model;
  s.hardware = hardware;
  s.kv_type = hr_catalog_find_kv_type (catalog, "fp16");
  s.batch = 1;
  for (guint e = 0; e < HR_N_ENGINES; e++)
    for (guint p = 0; p < n_precisions; p++)
      for (guint c = 0; c < G_N_ELEMENTS (contexts); c++)
        for (guint g = 0; g < G_N_ELEMENTS (gpus); g++)
          {
            s.engine = e;
            s.precision = hr_catalog_find_precision (catalog, precisions[p]);
            s.context = contexts[c];
            s.gpus = gpus[g];
            CHECK (s.precision != NULL && s.kv_type != NULL);
            check_estimate (&s);
          }
}

/* Whether an equal model or device (as JSON, which names every field)
 * was estimated before in this process.  Most mutations leave it as it
 * was (they touch a token, a name, a tensor's data offset, another
 * entry of the file); estimating it again would find nothing new and
 * cost most of the run.  A saved input replayed alone is estimated.
 * The table of hashes is allocated once, so that runs stay balanced in
 * mallocs and frees (an imbalance makes libFuzzer scan for leaks). */
#define SEEN_SLOTS (1u << 20)

static gboolean
seen_before (JsonObject *object)
{
  static guint64 *seen;
  static guint n_seen;
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;
  guint64 hash = G_GUINT64_CONSTANT (14695981039346656037);

  json_node_take_object (node, object);
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);
  for (const char *p = text; *p != '\0'; p++)
    hash = (hash ^ (guchar) *p) * G_GUINT64_CONSTANT (1099511628211);
  hash |= 1;  /* 0 marks a free slot */

  if (seen == NULL)
    seen = g_new0 (guint64, SEEN_SLOTS);
  if (n_seen > SEEN_SLOTS / 2)
    {
      memset (seen, 0, SEEN_SLOTS * sizeof *seen);
      n_seen = 0;
    }
  for (guint i = hash % SEEN_SLOTS;; i = (i + 1) % SEEN_SLOTS)
    {
      if (seen[i] == hash)
        return TRUE;
      if (seen[i] == 0)
        {
          seen[i] = hash;
          n_seen++;
          return FALSE;
        }
    }
}

void
fuzz_check_model (HrModelSpec *model)
{
  HrCatalog *catalog = fuzz_builtin_catalog ();

  CHECK (hr_text_is_displayable (hr_model_spec_get_id (model), -1));
  CHECK (hr_text_is_displayable (hr_model_spec_get_name (model), -1));
  if (seen_before (hr_model_spec_to_json (model)))
    return;
  check_scenarios (model, hr_catalog_find_hardware (catalog, "rtx-3060-12gb"));
  check_scenarios (model, hr_catalog_find_hardware (catalog, "apple-m4-max-128gb"));
}

void
fuzz_check_hardware (HrHardware *hardware)
{
  HrCatalog *catalog = fuzz_builtin_catalog ();

  if (seen_before (hr_hardware_to_json (hardware)))
    return;
  check_scenarios (hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"), hardware);
  check_scenarios (hr_catalog_find_model (catalog, "deepseek-ai/DeepSeek-V3"), hardware);
}
