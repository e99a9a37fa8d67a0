/* hr-cli.c — headroom-cli, the command-line front end
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The contract (commands, options, JSON keys, exit codes) is CLI.md:
 * bad arguments print one line starting “headroom-cli: ” and exit 2; a file
 * that cannot be read or is malformed prints one line naming it and exits 1.
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-calculator.h"
#include "hr-catalog.h"
#include "hr-commands.h"
#include "hr-csv.h"
#include "hr-defaults.h"
#include "hr-format.h"
#include "hr-hardware-table.h"
#include "hr-matrix.h"
#include "hr-model-import.h"
#include "hr-text.h"

#define EXIT_USAGE 2
#define EXIT_FILE  1
#define MAX_MATRIX_CONTEXTS 16

typedef struct
{
  /* raw options */
  char *model;
  char *precision;
  char *kv_type;
  char *engine;
  char *hardware;
  char *contexts;
  char *precisions;
  char *flash_attn;
  char *context_arg;
  char *batch_arg;
  char *gpus_arg;
  char *ubatch_arg;
  char *max_num_batched_tokens_arg;
  char *gpu_memory_utilization_arg;
  gboolean json;
  gboolean csv;
  char **rest;

  /* resolved */
  HrCatalog *catalog;
  HrScenario scenario;
  HrModelSpec *imported;    /* owned when the model came from a file */
} Options;

static int exit_status = 0;

/* Messages quote arguments and files, which may hold anything: each is
 * printed as one displayable line (a newline in --model must not make
 * two, an escape sequence must not reach the terminal). */
static void
print_line (const char *prefix,
            const char *message)
{
  g_autofree char *line = hr_text_escape_line (message, -1);

  g_printerr ("%s%s\n", prefix, line);
}

static int
usage_error (const char *format,
             ...) G_GNUC_PRINTF (1, 2);

static int
usage_error (const char *format,
             ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  print_line ("headroom-cli: ", message);
  return exit_status = EXIT_USAGE;
}

static int
file_error (const char *message)
{
  print_line ("", message);
  return exit_status = EXIT_FILE;
}

static void
options_clear (Options *o)
{
  g_free (o->model);
  g_free (o->precision);
  g_free (o->kv_type);
  g_free (o->engine);
  g_free (o->hardware);
  g_free (o->contexts);
  g_free (o->precisions);
  g_free (o->flash_attn);
  g_free (o->context_arg);
  g_free (o->batch_arg);
  g_free (o->gpus_arg);
  g_free (o->ubatch_arg);
  g_free (o->max_num_batched_tokens_arg);
  g_free (o->gpu_memory_utilization_arg);
  g_strfreev (o->rest);
  g_clear_object (&o->imported);
  g_clear_object (&o->catalog);
}

/* ------------------------------------------------------------- parsing */

typedef enum
{
  OPT_MODEL = 1 << 0,
  OPT_PRECISION = 1 << 1,
  OPT_CONTEXT = 1 << 2,
  OPT_BATCH = 1 << 3,
  OPT_KV = 1 << 4,
  OPT_ENGINE = 1 << 5,
  OPT_HARDWARE = 1 << 6,
  OPT_GPUS = 1 << 7,
  OPT_JSON = 1 << 8,
  OPT_CSV = 1 << 9,
  OPT_CONTEXTS = 1 << 10,
  OPT_PRECISIONS = 1 << 11,
  OPT_ENGINE_TUNING = 1 << 12,
} OptionSet;

static GOptionEntry *
make_entries (Options   *o,
              OptionSet  set)
{
  const GOptionEntry all[] = {
    /* File names are bytes, not necessarily UTF-8. */
    { "model", 0, 0, G_OPTION_ARG_FILENAME, &o->model,
      "Catalog id, or a .gguf / config.json file", "M" },
    { "precision", 0, 0, G_OPTION_ARG_STRING, &o->precision,
      "Weight precision id (headroom-cli precisions)", "P" },
    { "context", 0, 0, G_OPTION_ARG_STRING, &o->context_arg,
      "Context length in tokens (default 32768)", "N" },
    { "batch", 0, 0, G_OPTION_ARG_STRING, &o->batch_arg,
      "Parallel sequences (default 1)", "N" },
    { "kv-type", 0, 0, G_OPTION_ARG_STRING, &o->kv_type,
      "KV cache type: fp16, bf16, fp8, q8_0, q4_0", "K" },
    { "engine", 0, 0, G_OPTION_ARG_STRING, &o->engine,
      "Engine profile: generic, llamacpp, ollama, vllm", "E" },
    { "hardware", 0, 0, G_OPTION_ARG_STRING, &o->hardware,
      "Device id (headroom-cli devices)", "H" },
    { "gpus", 0, 0, G_OPTION_ARG_STRING, &o->gpus_arg,
      "Tensor-parallel GPU count (default 1)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "Print JSON", NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &o->csv, "Print CSV", NULL },
    { "contexts", 0, 0, G_OPTION_ARG_STRING, &o->contexts,
      "Comma-separated contexts (default 8192,32768,131072)", "N,N,…" },
    { "precisions", 0, 0, G_OPTION_ARG_STRING, &o->precisions,
      "Comma-separated precision ids (default: the seed's eight)", "P,P,…" },
    { "flash-attn", 0, 0, G_OPTION_ARG_STRING, &o->flash_attn,
      "llama.cpp / Ollama: flash attention on|off", "on|off" },
    { "ubatch", 0, 0, G_OPTION_ARG_STRING, &o->ubatch_arg,
      "llama.cpp / Ollama: physical batch size", "N" },
    { "gpu-memory-utilization", 0, 0, G_OPTION_ARG_STRING, &o->gpu_memory_utilization_arg,
      "vLLM: share of device memory to use", "F" },
    { "max-num-batched-tokens", 0, 0, G_OPTION_ARG_STRING, &o->max_num_batched_tokens_arg,
      "vLLM: tokens per scheduler step", "N" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->rest, NULL, NULL },
  };
  static const OptionSet bits[] = {
    OPT_MODEL, OPT_PRECISION, OPT_CONTEXT, OPT_BATCH, OPT_KV, OPT_ENGINE,
    OPT_HARDWARE, OPT_GPUS, OPT_JSON, OPT_CSV, OPT_CONTEXTS, OPT_PRECISIONS,
    OPT_ENGINE_TUNING, OPT_ENGINE_TUNING, OPT_ENGINE_TUNING, OPT_ENGINE_TUNING,
  };
  GOptionEntry *entries = g_new0 (GOptionEntry, G_N_ELEMENTS (all) + 1);
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    if (i >= G_N_ELEMENTS (bits) || (set & bits[i]) != 0)
      entries[n++] = all[i];
  return entries;
}

/* GOption refuses a value that is not valid UTF-8 without saying which
 * option it belongs to; this says it first.  --model and the positional
 * arguments are file names, which may be any bytes. */
static gboolean
check_utf8_arguments (int    argc,
                      char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      g_autofree char *option = NULL;
      const char *eq;

      if (g_utf8_validate (argv[i], -1, NULL))
        continue;

      if (g_str_has_prefix (argv[i], "--"))
        {
          eq = strchr (argv[i], '=');
          option = eq != NULL ? g_strndup (argv[i], eq - argv[i]) : g_strdup (argv[i]);
        }
      else if (i > 1 && g_str_has_prefix (argv[i - 1], "--") &&
               strchr (argv[i - 1], '=') == NULL)
        option = g_strdup (argv[i - 1]);
      else
        continue;

      if (g_strcmp0 (option, "--model") == 0)
        continue;
      usage_error ("%s: the value is not valid UTF-8 text", option);
      return FALSE;
    }
  return TRUE;
}

/* Parses @argv for one command; returns FALSE after reporting. */
static gboolean
parse_options (Options     *o,
               const char  *command,
               const char  *parameter,
               OptionSet    set,
               int         *argc,
               char      ***argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (parameter);
  g_autofree GOptionEntry *entries = make_entries (o, set);
  g_autoptr(GError) error = NULL;
  g_autofree char *summary = g_strdup_printf ("headroom-cli %s", command);

  g_option_context_set_summary (context, summary);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!check_utf8_arguments (*argc, *argv))
    return FALSE;
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      usage_error ("%s", error->message);
      return FALSE;
    }
  if (o->json && o->csv)
    {
      usage_error ("--json and --csv cannot be used together");
      return FALSE;
    }
  return TRUE;
}

/* ----------------------------------------------------------- resolving */

static gboolean
looks_like_file (const char *arg)
{
  return g_str_has_suffix (arg, ".gguf") || g_str_has_suffix (arg, ".json") ||
         g_file_test (arg, G_FILE_TEST_EXISTS);
}

static gboolean
resolve_model (Options *o)
{
  g_autoptr(GError) error = NULL;

  if (o->model == NULL)
    return usage_error ("--model is required"), FALSE;

  o->scenario.model = hr_catalog_find_model (o->catalog, o->model);
  if (o->scenario.model != NULL)
    return TRUE;

  if (!looks_like_file (o->model))
    return usage_error ("unknown model “%s” (see headroom-cli models)", o->model), FALSE;

  o->imported = hr_model_import_file (o->model, &error);
  if (o->imported == NULL)
    return file_error (error->message), FALSE;
  o->scenario.model = o->imported;
  return TRUE;
}

/* An optional whole-number option: absent leaves @value at @fallback. */
static gboolean
parse_count (const char *option,
             const char *text,
             gint64      min,
             gint64      max,
             gint64      fallback,
             gint64     *value)
{
  gint64 parsed;
  g_autoptr(GError) error = NULL;

  *value = fallback;
  if (text == NULL)
    return TRUE;
  if (!g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &parsed, &error))
    return usage_error ("%s: “%s” is not a whole number", option, text), FALSE;
  if (parsed < min || parsed > max)
    return usage_error ("%s %" G_GINT64_FORMAT " is out of range (%" G_GINT64_FORMAT
                        "–%" G_GINT64_FORMAT ")", option, parsed, min, max), FALSE;
  *value = parsed;
  return TRUE;
}

/* Fills the scenario from the options, with CLI.md's defaults. */
static gboolean
resolve_scenario (Options   *o,
                  OptionSet  set)
{
  const char *hardware = o->hardware ? o->hardware : HR_DEFAULT_HARDWARE;
  const char *kv = o->kv_type ? o->kv_type : HR_DEFAULT_KV_TYPE;

  if (o->rest != NULL && (set & OPT_MODEL))
    return usage_error ("unexpected argument “%s”", o->rest[0]), FALSE;

  if ((set & OPT_MODEL) && !resolve_model (o))
    return FALSE;

  if (set & OPT_PRECISION)
    {
      if (o->precision == NULL)
        return usage_error ("--precision is required"), FALSE;
      o->scenario.precision = hr_catalog_find_precision (o->catalog, o->precision);
      if (o->scenario.precision == NULL)
        return usage_error ("unknown precision “%s” (see headroom-cli precisions)",
                            o->precision), FALSE;
    }

  o->scenario.kv_type = hr_catalog_find_kv_type (o->catalog, kv);
  if (o->scenario.kv_type == NULL)
    return usage_error ("unknown KV cache type “%s” (fp16, bf16, fp8, q8_0, q4_0)",
                        kv), FALSE;

  o->scenario.hardware = hr_catalog_find_hardware (o->catalog, hardware);
  if (o->scenario.hardware == NULL)
    return usage_error ("unknown hardware “%s” (see headroom-cli devices)",
                        hardware), FALSE;

  o->scenario.engine = HR_ENGINE_GENERIC;
  if (o->engine != NULL && !hr_engine_from_string (o->engine, &o->scenario.engine))
    return usage_error ("unknown engine “%s” (generic, llamacpp, ollama, vllm)",
                        o->engine), FALSE;

  {
    gint64 context, batch, gpus, ubatch, tokens;

    if (!parse_count ("--context", o->context_arg, HR_CONTEXT_MIN, HR_CONTEXT_MAX,
                      HR_DEFAULT_CONTEXT, &context) ||
        !parse_count ("--batch", o->batch_arg, 1, HR_BATCH_MAX, HR_DEFAULT_BATCH, &batch) ||
        !parse_count ("--gpus", o->gpus_arg, 1, HR_GPUS_MAX, HR_DEFAULT_GPUS, &gpus) ||
        !parse_count ("--ubatch", o->ubatch_arg, 1, 1 << 16, 512, &ubatch) ||
        !parse_count ("--max-num-batched-tokens", o->max_num_batched_tokens_arg, 1,
                      HR_CONTEXT_MAX, 0, &tokens))
      return FALSE;
    o->scenario.context = context;
    o->scenario.batch = batch;
    o->scenario.gpus = gpus;
    if (o->ubatch_arg != NULL)
      o->scenario.options.ubatch = ubatch;
    if (o->max_num_batched_tokens_arg != NULL)
      o->scenario.options.max_num_batched_tokens = tokens;
  }

  if (o->flash_attn != NULL && g_strcmp0 (o->flash_attn, "on") != 0 &&
      g_strcmp0 (o->flash_attn, "off") != 0)
    return usage_error ("--flash-attn must be on or off, not “%s”", o->flash_attn), FALSE;
  if (o->flash_attn != NULL)
    o->scenario.options.flash_attn = g_str_equal (o->flash_attn, "on") ? HR_FLASH_ATTN_ON
                                                                       : HR_FLASH_ATTN_OFF;
  if (o->gpu_memory_utilization_arg != NULL)
    {
      char *end = NULL;
      double f = g_ascii_strtod (o->gpu_memory_utilization_arg, &end);

      if (end == o->gpu_memory_utilization_arg || *end != '\0' || !(f > 0 && f <= 1))
        return usage_error ("--gpu-memory-utilization must be in (0, 1], not “%s”",
                            o->gpu_memory_utilization_arg), FALSE;
      o->scenario.options.gpu_memory_utilization = f;
    }

  return TRUE;
}

/* ------------------------------------------------------------- output */

static void
print_json (JsonNode *root)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  g_print ("%s\n", text);
}

static void
add_uint (JsonBuilder *b,
          const char  *key,
          guint64      value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_int_value (b, (gint64) value);
}

static void
add_double (JsonBuilder *b,
            const char  *key,
            double       value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_double_value (b, value);
}

static void
add_string (JsonBuilder *b,
            const char  *key,
            const char  *value)
{
  json_builder_set_member_name (b, key);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_bool (JsonBuilder *b,
          const char  *key,
          gboolean     value)
{
  json_builder_set_member_name (b, key);
  json_builder_add_boolean_value (b, value);
}

static int
run_estimate (Options *o)
{
  HrEstimate e;
  g_autoptr(GError) error = NULL;
  const HrScenario *s = &o->scenario;

  if (!hr_scenario_estimate (s, &e, &error))
    return usage_error ("%s", error->message);

  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      add_string (b, "model", hr_model_spec_get_id (s->model));
      add_string (b, "precision", hr_precision_get_id (s->precision));
      add_uint (b, "context", s->context);
      add_uint (b, "batch", s->batch);
      add_string (b, "kv_type", hr_kv_type_get_id (s->kv_type));
      add_string (b, "engine", hr_engine_to_string (s->engine));
      add_string (b, "hardware", hr_hardware_get_id (s->hardware));
      add_uint (b, "gpus", s->gpus);
      add_uint (b, "weights_bytes", e.weights_bytes);
      add_uint (b, "kv_bytes", e.kv_bytes);
      add_uint (b, "overhead_bytes", e.overhead_bytes);
      add_uint (b, "total_bytes", e.total_bytes);
      add_uint (b, "per_device_bytes", e.per_device_bytes);
      add_uint (b, "usable_bytes", e.usable_bytes);
      add_double (b, "weights_share", e.weights_share);
      add_double (b, "kv_share", e.kv_share);
      add_double (b, "overhead_share", e.overhead_share);
      add_double (b, "device_share", e.device_share);
      add_double (b, "effective_bpw", hr_precision_get_bpw (s->precision));
      add_string (b, "verdict", hr_verdict_to_string (e.verdict));
      add_uint (b, "max_context", e.max_context);
      add_bool (b, "max_context_unbounded", e.max_context_unbounded);
      add_bool (b, "max_context_past_trained", e.max_context_past_trained);
      add_uint (b, "trained_context", hr_model_spec_get_arch (s->model)->max_context);
      add_double (b, "decode_tokens_per_s", e.decode_tokens_per_s);
      add_uint (b, "kv_mha_bytes", e.kv_mha_bytes);
      add_double (b, "kv_savings", e.kv_savings);
      add_double (b, "kv_bytes_per_token", e.kv_bytes_per_token);
      add_uint (b, "kv_heads_per_device", e.kv_heads_per_device);
      add_bool (b, "kv_replicated", e.kv_replicated);
      if (s->engine == HR_ENGINE_LLAMACPP || s->engine == HR_ENGINE_OLLAMA)
        {
          add_uint (b, "compute_bytes", e.compute_bytes);
          add_uint (b, "host_bytes", e.host_bytes);
          add_bool (b, "flash_attn", e.flash_attn);
        }
      if (s->engine == HR_ENGINE_VLLM)
        {
          add_uint (b, "kv_capacity_tokens", e.kv_capacity_tokens);
          add_double (b, "max_concurrency", e.max_concurrency);
        }
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      print_json (root);
      return 0;
    }

  {
    HrUnits u = HR_UNITS_BINARY;
    g_autofree char *weights = hr_format_size (e.weights_bytes, u);
    g_autofree char *kv = hr_format_size (e.kv_bytes, u);
    g_autofree char *overhead = hr_format_size (e.overhead_bytes, u);
    g_autofree char *total = hr_format_size (e.total_bytes, u);
    g_autofree char *per_device = hr_format_size (e.per_device_bytes, u);
    g_autofree char *usable = hr_format_size (e.usable_bytes, u);
    g_autofree char *max_ctx = hr_format_tokens (e.max_context);
    g_autofree char *mha = hr_format_size (e.kv_mha_bytes, u);
    g_autofree char *ctx = hr_format_tokens (s->context);

    g_print ("%s · %s · %s tokens × %u · KV %s · %s × %u\n",
             hr_model_spec_get_name (s->model), hr_precision_get_label (s->precision),
             ctx, s->batch, hr_kv_type_get_label (s->kv_type),
             hr_hardware_get_name (s->hardware), s->gpus);
    g_print ("  weights     %12s  %5.1f %%\n", weights, e.weights_share * 100);
    g_print ("  KV cache    %12s  %5.1f %%\n", kv, e.kv_share * 100);
    g_print ("  overhead    %12s  %5.1f %%\n", overhead, e.overhead_share * 100);
    g_print ("  total       %12s\n", total);
    g_print ("  per device  %12s of %s usable: %s\n", per_device, usable,
             hr_verdict_to_string (e.verdict));
    g_print ("  decode      %12.1f tok/s (single stream)\n", e.decode_tokens_per_s);
    g_print ("  max context %12s tokens%s\n", max_ctx,
             e.max_context_past_trained ? " (past the trained maximum)" : "");
    g_print ("  KV saves %.1f %% vs MHA FP16 (%s)\n", e.kv_savings * 100, mha);
    if (s->engine == HR_ENGINE_LLAMACPP || s->engine == HR_ENGINE_OLLAMA)
      {
        g_autofree char *compute = hr_format_size (e.compute_bytes, u);
        g_autofree char *host = hr_format_size (e.host_bytes, u);
        g_print ("  compute buffer %s per device (flash attention %s); %s in host RAM\n",
                 compute, e.flash_attn ? "on" : "off", host);
      }
    if (s->engine == HR_ENGINE_VLLM)
      {
        g_autofree char *capacity = hr_format_tokens (e.kv_capacity_tokens);
        g_print ("  KV capacity %s tokens, %.2fx concurrency at this context\n",
                 capacity, e.max_concurrency);
      }
  }
  return 0;
}

static gboolean
parse_list (const char  *text,
            const char  *option,
            char      ***out)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);
  guint n = g_strv_length (parts);

  if (n == 0 || n > MAX_MATRIX_CONTEXTS)
    return usage_error ("%s takes 1 to %d comma-separated values", option,
                        MAX_MATRIX_CONTEXTS), FALSE;
  for (guint i = 0; i < n; i++)
    {
      g_strstrip (parts[i]);
      if (parts[i][0] == '\0')
        return usage_error ("%s has an empty value", option), FALSE;
    }
  *out = g_steal_pointer (&parts);
  return TRUE;
}

static gboolean
configure_matrix (Options  *o,
                  HrMatrix *matrix)
{
  if (o->contexts != NULL)
    {
      g_auto(GStrv) parts = NULL;
      guint64 contexts[MAX_MATRIX_CONTEXTS];
      guint n;

      if (!parse_list (o->contexts, "--contexts", &parts))
        return FALSE;
      n = g_strv_length (parts);
      for (guint i = 0; i < n; i++)
        {
          guint64 value;

          if (!g_ascii_string_to_unsigned (parts[i], 10, HR_CONTEXT_MIN, HR_CONTEXT_MAX,
                                           &value, NULL))
            return usage_error ("--contexts: “%s” is not a context between %d and %d",
                                parts[i], HR_CONTEXT_MIN, HR_CONTEXT_MAX), FALSE;
          contexts[i] = value;
        }
      hr_matrix_set_contexts (matrix, contexts, n);
    }

  if (o->precisions != NULL)
    {
      g_auto(GStrv) parts = NULL;
      g_autoptr(GPtrArray) chosen = g_ptr_array_new ();

      if (!parse_list (o->precisions, "--precisions", &parts))
        return FALSE;
      for (guint i = 0; parts[i]; i++)
        {
          HrPrecision *p = hr_catalog_find_precision (o->catalog, parts[i]);

          if (p == NULL)
            return usage_error ("unknown precision “%s” (see headroom-cli precisions)",
                                parts[i]), FALSE;
          g_ptr_array_add (chosen, p);
        }
      hr_matrix_set_precisions (matrix, chosen);
    }
  return TRUE;
}

/* A calculator holding the options' scenario, for the list models. */
static HrCalculator *
calculator_for (Options *o)
{
  HrCalculator *calc = hr_calculator_new (o->catalog);

  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, o->scenario.model);
  if (o->scenario.precision != NULL)
    hr_calculator_set_precision (calc, o->scenario.precision);
  hr_calculator_set_kv_type (calc, o->scenario.kv_type);
  hr_calculator_set_hardware (calc, o->scenario.hardware);
  hr_calculator_set_context (calc, o->scenario.context);
  hr_calculator_set_batch (calc, o->scenario.batch);
  hr_calculator_set_engine (calc, o->scenario.engine);
  hr_calculator_set_gpu_count (calc, o->scenario.gpus);
  hr_calculator_set_engine_options (calc, &o->scenario.options);
  hr_calculator_thaw (calc);
  return calc;
}

static int
run_matrix (Options *o)
{
  g_autoptr(HrCalculator) calc = NULL;
  g_autoptr(HrMatrix) matrix = NULL;
  guint n_contexts, n_rows;

  calc = calculator_for (o);
  matrix = hr_matrix_new (calc);
  if (!configure_matrix (o, matrix))
    return exit_status;

  n_contexts = hr_matrix_get_n_contexts (matrix);
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (matrix));

  if (o->csv)
    {
      g_autoptr(GString) out = g_string_new (NULL);

      hr_csv_write_matrix (matrix, out);
      fwrite (out->str, 1, out->len, stdout);
      return 0;
    }

  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      add_string (b, "model", hr_model_spec_get_id (o->scenario.model));
      add_string (b, "kv_type", hr_kv_type_get_id (o->scenario.kv_type));
      add_string (b, "engine", hr_engine_to_string (o->scenario.engine));
      json_builder_set_member_name (b, "contexts");
      json_builder_begin_array (b);
      for (guint c = 0; c < n_contexts; c++)
        json_builder_add_int_value (b, hr_matrix_get_context (matrix, c));
      json_builder_end_array (b);
      add_uint (b, "tier_context", hr_matrix_get_context (matrix,
                                                          hr_matrix_get_tier_index (matrix)));
      json_builder_set_member_name (b, "rows");
      json_builder_begin_array (b);
      for (guint r = 0; r < n_rows; r++)
        {
          g_autoptr(HrMatrixRow) row = g_list_model_get_item (G_LIST_MODEL (matrix), r);
          HrPrecision *p = hr_matrix_row_get_precision (row);
          HrHardware *tier = hr_matrix_row_get_tier (row);

          json_builder_begin_object (b);
          add_string (b, "precision", hr_precision_get_id (p));
          add_string (b, "label", hr_precision_get_label (p));
          add_double (b, "bpw", hr_precision_get_bpw (p));
          add_uint (b, "weights_bytes", hr_matrix_row_get_weights_bytes (row));
          json_builder_set_member_name (b, "total_bytes");
          json_builder_begin_array (b);
          for (guint c = 0; c < n_contexts; c++)
            json_builder_add_int_value (b, hr_matrix_row_get_total_bytes (row, c));
          json_builder_end_array (b);
          add_string (b, "tier", tier ? hr_hardware_get_id (tier) : NULL);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      print_json (root);
      return 0;
    }

  g_print ("%-12s %6s %9s", "precision", "bpw", "weights");
  for (guint c = 0; c < n_contexts; c++)
    {
      g_autofree char *label = hr_format_context_short (hr_matrix_get_context (matrix, c));
      g_autofree char *head = g_strdup_printf ("@%s", label);
      g_print (" %9s", head);
    }
  g_print ("  tier (GiB)\n");
  for (guint r = 0; r < n_rows; r++)
    {
      g_autoptr(HrMatrixRow) row = g_list_model_get_item (G_LIST_MODEL (matrix), r);
      HrPrecision *p = hr_matrix_row_get_precision (row);
      HrHardware *tier = hr_matrix_row_get_tier (row);

      g_print ("%-12s %6.2f %9.2f", hr_precision_get_label (p), hr_precision_get_bpw (p),
               hr_matrix_row_get_weights_bytes (row) / HR_GIB);
      for (guint c = 0; c < n_contexts; c++)
        g_print (" %9.2f", hr_matrix_row_get_total_bytes (row, c) / HR_GIB);
      g_print ("  %s\n", tier ? hr_hardware_get_name (tier) : "—");
    }
  return 0;
}

static int
run_hardware (Options *o)
{
  g_autoptr(HrCalculator) calc = NULL;
  g_autoptr(HrHardwareTable) table = NULL;
  guint n_rows;

  calc = calculator_for (o);
  table = hr_hardware_table_new (calc);
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (table));

  if (o->csv)
    {
      g_autoptr(GString) out = g_string_new (NULL);

      hr_csv_write_hardware (table, out);
      fwrite (out->str, 1, out->len, stdout);
      return 0;
    }

  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      add_string (b, "model", hr_model_spec_get_id (o->scenario.model));
      add_string (b, "precision", hr_precision_get_id (o->scenario.precision));
      add_uint (b, "context", o->scenario.context);
      json_builder_set_member_name (b, "rows");
      json_builder_begin_array (b);
      for (guint r = 0; r < n_rows; r++)
        {
          g_autoptr(HrHardwareRow) row = g_list_model_get_item (G_LIST_MODEL (table), r);
          HrHardware *hw = hr_hardware_row_get_hardware (row);

          json_builder_begin_object (b);
          add_string (b, "hardware", hr_hardware_get_id (hw));
          add_string (b, "name", hr_hardware_get_name (hw));
          add_string (b, "vendor", hr_hardware_get_vendor (hw));
          add_uint (b, "memory_bytes", hr_hardware_get_memory_bytes (hw));
          add_double (b, "bandwidth_gbps", hr_hardware_get_bandwidth_gbps (hw));
          add_uint (b, "required_bytes", hr_hardware_row_get_required_bytes (row));
          add_double (b, "share", hr_hardware_row_get_share (row));
          add_string (b, "verdict", hr_verdict_to_string (hr_hardware_row_get_verdict (row)));
          add_double (b, "decode_tokens_per_s", hr_hardware_row_get_decode_tokens_per_s (row));
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      print_json (root);
      return 0;
    }

  g_print ("%-28s %9s %9s %10s %6s  %-12s %10s\n", "hardware", "memory", "GB/s",
           "required", "share", "verdict", "tok/s");
  for (guint r = 0; r < n_rows; r++)
    {
      g_autoptr(HrHardwareRow) row = g_list_model_get_item (G_LIST_MODEL (table), r);
      HrHardware *hw = hr_hardware_row_get_hardware (row);

      g_print ("%-28s %5.0f GiB %9.0f %6.2f GiB %5.0f%%  %-12s %10.1f\n",
               hr_hardware_get_name (hw), hr_hardware_get_memory_bytes (hw) / HR_GIB,
               hr_hardware_get_bandwidth_gbps (hw),
               hr_hardware_row_get_required_bytes (row) / HR_GIB,
               hr_hardware_row_get_share (row) * 100,
               hr_verdict_to_string (hr_hardware_row_get_verdict (row)),
               hr_hardware_row_get_decode_tokens_per_s (row));
    }
  return 0;
}

static int
run_command (Options    *o,
             const char *which)
{
  HrCommandKind kind;
  g_autofree char *text = NULL;

  if (!hr_command_kind_from_string (which, &kind))
    return usage_error ("command needs vllm, llamacpp or ollama, not “%s”", which);

  text = hr_command_generate (kind, &o->scenario);
  g_print ("%s", text);
  return 0;
}

static int
run_list (Options    *o,
          const char *what)
{
  GListModel *list;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  guint n;

  if (g_str_equal (what, "models"))
    list = hr_catalog_get_models (o->catalog);
  else if (g_str_equal (what, "devices"))
    list = hr_catalog_get_hardware (o->catalog);
  else
    list = hr_catalog_get_precisions (o->catalog);
  n = g_list_model_get_n_items (list);

  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (list, i);

      if (HR_IS_MODEL_SPEC (item))
        {
          HrModelSpec *m = HR_MODEL_SPEC (item);
          const HrModelArch *a = hr_model_spec_get_arch (m);

          if (!o->json)
            {
              g_autofree char *params = hr_format_params (a->params_total);
              g_print ("%-44s %-18s %7s %8" G_GUINT64_FORMAT "\n", hr_model_spec_get_id (m),
                       hr_model_spec_get_family (m), params, a->max_context);
              continue;
            }
          json_builder_begin_object (b);
          add_string (b, "id", hr_model_spec_get_id (m));
          add_string (b, "name", hr_model_spec_get_name (m));
          add_string (b, "family", hr_model_spec_get_family (m));
          add_double (b, "params", a->params_total);
          add_double (b, "active_params", a->params_active);
          add_uint (b, "max_context", a->max_context);
          add_string (b, "attention", hr_attention_kind_to_string (a->attention));
          add_uint (b, "layers", a->n_layers);
          add_string (b, "license", hr_model_spec_get_license (m));
          add_string (b, "ollama_tag", hr_model_spec_get_ollama_tag (m));
          add_string (b, "origin", hr_model_spec_get_origin (m) == HR_ORIGIN_USER
                                   ? "user" : "builtin");
          json_builder_end_object (b);
        }
      else if (HR_IS_HARDWARE (item))
        {
          HrHardware *h = HR_HARDWARE (item);

          if (!o->json)
            {
              g_print ("%-24s %-28s %6.0f GiB %7.0f GB/s\n", hr_hardware_get_id (h),
                       hr_hardware_get_name (h), hr_hardware_get_memory_bytes (h) / HR_GIB,
                       hr_hardware_get_bandwidth_gbps (h));
              continue;
            }
          json_builder_begin_object (b);
          add_string (b, "id", hr_hardware_get_id (h));
          add_string (b, "name", hr_hardware_get_name (h));
          add_string (b, "vendor", hr_hardware_get_vendor (h));
          add_string (b, "kind", hr_hardware_is_unified (h) ? "unified" : "discrete");
          add_uint (b, "memory_bytes", hr_hardware_get_memory_bytes (h));
          add_uint (b, "usable_bytes", hr_device_usable_bytes (hr_hardware_get_device (h)));
          add_double (b, "bandwidth_gbps", hr_hardware_get_bandwidth_gbps (h));
          json_builder_end_object (b);
        }
      else
        {
          HrPrecision *p = HR_PRECISION (item);

          if (!o->json)
            {
              g_print ("%-10s %-12s %6.2f bpw\n", hr_precision_get_id (p),
                       hr_precision_get_label (p), hr_precision_get_bpw (p));
              continue;
            }
          json_builder_begin_object (b);
          add_string (b, "id", hr_precision_get_id (p));
          add_string (b, "name", hr_precision_get_label (p));
          add_string (b, "label", hr_precision_get_label (p));
          add_double (b, "bpw", hr_precision_get_bpw (p));
          add_string (b, "kind", hr_precision_get_kind (p));
          json_builder_end_object (b);
        }
    }
  json_builder_end_array (b);

  if (o->json)
    {
      root = json_builder_get_root (b);
      print_json (root);
    }
  return 0;
}

static void
print_usage (void)
{
  g_print ("Usage:\n"
           "  headroom-cli estimate  --model M --precision P [--context N] [--batch N]\n"
           "                         [--kv-type K] [--engine E] [--hardware H] [--gpus N] [--json]\n"
           "  headroom-cli matrix    --model M [--contexts N,N,…] [--precisions P,P,…]\n"
           "                         [--kv-type K] [--engine E] [--csv | --json]\n"
           "  headroom-cli hardware  --model M --precision P [--context N] [--kv-type K]\n"
           "                         [--engine E] [--csv | --json]\n"
           "  headroom-cli command   vllm|llamacpp|ollama --model M --precision P [--context N]\n"
           "                         [--hardware H] [--gpus N] [--batch N] [--kv-type K]\n"
           "  headroom-cli inspect   FILE [--json]\n"
           "  headroom-cli models | devices | precisions [--json]\n"
           "\nRun “headroom-cli COMMAND --help” for the options of one command.\n");
}

static int
run (int    argc,
     char **argv)
{
  Options o = { 0 };
  const char *command;
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (argc < 2)
    return usage_error ("a command is required (see headroom-cli --help)");

  command = argv[1];
  if (g_str_equal (command, "--help") || g_str_equal (command, "-h") ||
      g_str_equal (command, "help"))
    {
      print_usage ();
      return 0;
    }
  if (g_str_equal (command, "--version"))
    {
      g_print ("headroom-cli %s\n", PACKAGE_VERSION);
      return 0;
    }

  /* Drop the command so that GOption sees only options. */
  argv[1] = argv[0];
  argv++;
  argc--;

  o.catalog = hr_catalog_new_default ();
  /* A broken file of the user's is worth knowing about, but the built-in
   * catalog still answers. */
  for (const char * const *problem = hr_catalog_get_problems (o.catalog);
       *problem != NULL; problem++)
    print_line ("headroom-cli: warning: ", *problem);

  if (g_str_equal (command, "estimate"))
    {
      OptionSet set = OPT_MODEL | OPT_PRECISION | OPT_CONTEXT | OPT_BATCH | OPT_KV |
                      OPT_ENGINE | OPT_HARDWARE | OPT_GPUS | OPT_JSON | OPT_ENGINE_TUNING;
      if (parse_options (&o, command, NULL, set, &argc, &argv) &&
          resolve_scenario (&o, set))
        status = run_estimate (&o);
    }
  else if (g_str_equal (command, "matrix"))
    {
      OptionSet set = OPT_MODEL | OPT_KV | OPT_ENGINE | OPT_JSON | OPT_CSV |
                      OPT_CONTEXTS | OPT_PRECISIONS | OPT_ENGINE_TUNING;
      if (parse_options (&o, command, NULL, set, &argc, &argv) &&
          resolve_scenario (&o, set))
        status = run_matrix (&o);
    }
  else if (g_str_equal (command, "hardware"))
    {
      OptionSet set = OPT_MODEL | OPT_PRECISION | OPT_CONTEXT | OPT_KV | OPT_ENGINE |
                      OPT_JSON | OPT_CSV | OPT_ENGINE_TUNING;
      if (parse_options (&o, command, NULL, set, &argc, &argv) &&
          resolve_scenario (&o, set))
        status = run_hardware (&o);
    }
  else if (g_str_equal (command, "command"))
    {
      OptionSet set = OPT_MODEL | OPT_PRECISION | OPT_CONTEXT | OPT_BATCH | OPT_KV |
                      OPT_HARDWARE | OPT_GPUS | OPT_ENGINE | OPT_ENGINE_TUNING;
      if (parse_options (&o, command, "vllm|llamacpp|ollama", set, &argc, &argv))
        {
          g_auto(GStrv) rest = g_steal_pointer (&o.rest);

          if (rest == NULL || g_strv_length (rest) != 1)
            status = usage_error ("command needs exactly one of vllm, llamacpp, ollama");
          else if (resolve_scenario (&o, set))
            status = run_command (&o, rest[0]);
        }
    }
  else if (g_str_equal (command, "inspect"))
    {
      if (parse_options (&o, command, "FILE", OPT_JSON, &argc, &argv))
        {
          if (o.rest == NULL || g_strv_length (o.rest) != 1)
            status = usage_error ("inspect needs exactly one FILE");
          else
            status = hr_model_import_inspect (o.rest[0], o.json, &error) ? 0
                     : file_error (error->message);
        }
    }
  else if (g_str_equal (command, "models") || g_str_equal (command, "devices") ||
           g_str_equal (command, "precisions"))
    {
      if (parse_options (&o, command, NULL, OPT_JSON, &argc, &argv))
        {
          if (o.rest != NULL)
            status = usage_error ("unexpected argument “%s”", o.rest[0]);
          else
            status = run_list (&o, command);
        }
    }
  else
    {
      status = usage_error ("unknown command “%s” (estimate, matrix, hardware, command, "
                            "inspect, models, devices, precisions)", command);
    }

  options_clear (&o);
  return status != 0 ? status : exit_status;
}

int
main (int    argc,
      char **argv)
{
  /* Text output follows the locale; JSON and CSV never do. */
  setlocale (LC_ALL, "");
  return run (argc, argv);
}
