/* hr-cli.c — headroom-cli, the command-line front end
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The contract (commands, options, JSON keys, exit codes) is docs/CLI.md:
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
#include "hr-json-load.h"
#include "hr-local-device.h"
#include "hr-matrix.h"
#include "hr-model-import.h"
#include "hr-model-inspect.h"
#include "hr-serving-plan.h"
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
  char *gpu_layers_arg;
  char *split_mode_arg;
  char *tensor_split_arg;
  char *n_cpu_moe_arg;
  char *ram_arg;
  char *ram_bandwidth_arg;
  char *vllm_version_arg;
  char *tp_arg;
  char *pp_arg;
  char *dp_arg;
  char *nodes_arg;
  char *gpus_per_node_arg;
  char *prompt_tokens_arg;
  char *users_arg;
  char *target_arg;
  char *generate_arg;
  gboolean json;
  gboolean csv;
  char **rest;

  /* resolved */
  HrCatalog *catalog;
  HrScenario scenario;
  HrModelSpec *imported;    /* owned when the model came from a file */
  guint32 gpus_per_node;    /* --gpus-per-node, 0 when not given */
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
  g_free (o->gpu_layers_arg);
  g_free (o->split_mode_arg);
  g_free (o->tensor_split_arg);
  g_free (o->n_cpu_moe_arg);
  g_free (o->ram_arg);
  g_free (o->ram_bandwidth_arg);
  g_free (o->vllm_version_arg);
  g_free (o->tp_arg);
  g_free (o->pp_arg);
  g_free (o->dp_arg);
  g_free (o->nodes_arg);
  g_free (o->gpus_per_node_arg);
  g_free (o->prompt_tokens_arg);
  g_free (o->users_arg);
  g_free (o->target_arg);
  g_free (o->generate_arg);
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
  OPT_PLACEMENT = 1 << 13,
  OPT_SERVING = 1 << 14,
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
      "Engine profile: auto (default), generic, llamacpp, ollama, vllm, sglang", "E" },
    { "hardware", 0, 0, G_OPTION_ARG_STRING, &o->hardware,
      "Device id (headroom-cli devices), or “local” for this computer's", "H" },
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
    { "gpu-layers", 0, 0, G_OPTION_ARG_STRING, &o->gpu_layers_arg,
      "llama.cpp / Ollama: layers on the GPUs, output layer first (default auto)", "N|auto" },
    { "split-mode", 0, 0, G_OPTION_ARG_STRING, &o->split_mode_arg,
      "llama.cpp / Ollama: layer (default with --gpus > 1), row or none", "MODE" },
    { "tensor-split", 0, 0, G_OPTION_ARG_STRING, &o->tensor_split_arg,
      "llama.cpp / Ollama: each GPU's share, e.g. 3,1", "A,B,…" },
    { "n-cpu-moe", 0, 0, G_OPTION_ARG_STRING, &o->n_cpu_moe_arg,
      "llama.cpp / Ollama: keep the experts of the first N layers in system RAM", "N" },
    { "ram", 0, 0, G_OPTION_ARG_STRING, &o->ram_arg,
      "System memory in GiB (default 32)", "GIB" },
    { "ram-bandwidth", 0, 0, G_OPTION_ARG_STRING, &o->ram_bandwidth_arg,
      "System memory bandwidth in GB/s (default 76.8)", "GBPS" },
    { "vllm-version", 0, 0, G_OPTION_ARG_STRING, &o->vllm_version_arg,
      "vLLM: 0.21 (default: 0.21 and later), 0.19 or 0.6, for older logs", "V" },
    { "tp", 0, 0, G_OPTION_ARG_STRING, &o->tp_arg,
      "vLLM / SGLang: tensor-parallel size", "N" },
    { "pp", 0, 0, G_OPTION_ARG_STRING, &o->pp_arg,
      "vLLM / SGLang: pipeline stages", "N" },
    { "dp", 0, 0, G_OPTION_ARG_STRING, &o->dp_arg,
      "vLLM / SGLang: data-parallel replicas", "N" },
    { "nodes", 0, 0, G_OPTION_ARG_STRING, &o->nodes_arg,
      "vLLM / SGLang: machines", "N" },
    { "gpus-per-node", 0, 0, G_OPTION_ARG_STRING, &o->gpus_per_node_arg,
      "vLLM / SGLang: GPUs in each machine", "N" },
    { "prompt-tokens", 0, 0, G_OPTION_ARG_STRING, &o->prompt_tokens_arg,
      "Prompt length timed (default: the context)", "N" },
    { "generate", 0, 0, G_OPTION_ARG_STRING, &o->generate_arg,
      "Answer length timed (default 512)", "N" },
    { "users", 0, 0, G_OPTION_ARG_STRING, &o->users_arg,
      "vLLM / SGLang: concurrent users, each sending a prompt and reading the answer", "N" },
    { "target-tokens-per-s", 0, 0, G_OPTION_ARG_STRING, &o->target_arg,
      "vLLM / SGLang: the answer speed each user should get", "R" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->rest, NULL, NULL },
  };
  static const OptionSet bits[] = {
    OPT_MODEL, OPT_PRECISION, OPT_CONTEXT, OPT_BATCH, OPT_KV, OPT_ENGINE,
    OPT_HARDWARE, OPT_GPUS, OPT_JSON, OPT_CSV, OPT_CONTEXTS, OPT_PRECISIONS,
    OPT_ENGINE_TUNING, OPT_ENGINE_TUNING, OPT_ENGINE_TUNING, OPT_ENGINE_TUNING,
    OPT_PLACEMENT, OPT_PLACEMENT, OPT_PLACEMENT, OPT_PLACEMENT, OPT_PLACEMENT, OPT_PLACEMENT,
    OPT_ENGINE_TUNING, OPT_SERVING, OPT_SERVING, OPT_SERVING, OPT_SERVING, OPT_SERVING,
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

/* A positive decimal number of @option ("3.5"), or FALSE after reporting. */
static gboolean
parse_positive (const char *option,
                const char *text,
                double      max,
                double     *value)
{
  char *end = NULL;
  double parsed = g_ascii_strtod (text, &end);

  if (end == text || *end != '\0' || !(parsed > 0) || !isfinite (parsed) || parsed > max)
    return usage_error ("%s must be a positive number up to %g, not “%s”", option, max,
                        text), FALSE;
  *value = parsed;
  return TRUE;
}

/* --gpu-layers, --split-mode, --tensor-split, --n-cpu-moe, --ram and
 * --ram-bandwidth (llama.cpp and Ollama placement; docs/CLI.md "Additions"). */
static gboolean
parse_placement (Options *o)
{
  HrPlacementOptions *p = &o->scenario.placement;

  if (o->gpu_layers_arg != NULL && g_strcmp0 (o->gpu_layers_arg, "auto") != 0)
    {
      gint64 layers;

      if (!parse_count ("--gpu-layers", o->gpu_layers_arg, 0, HR_LAYERS_MAX + 1, 0, &layers))
        return FALSE;
      p->gpu_layers_fixed = TRUE;
      p->gpu_layers = (guint32) layers;
    }

  if (o->split_mode_arg != NULL)
    {
      static const struct { const char *name; HrSplitMode mode; } modes[] = {
        { "layer", HR_SPLIT_LAYER }, { "row", HR_SPLIT_ROW }, { "none", HR_SPLIT_NONE },
      };
      gboolean found = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (modes) && !found; i++)
        if (g_strcmp0 (o->split_mode_arg, modes[i].name) == 0)
          {
            p->split_mode = modes[i].mode;
            found = TRUE;
          }
      if (!found)
        return usage_error ("--split-mode must be layer, row or none, not “%s”",
                            o->split_mode_arg), FALSE;
    }

  if (o->tensor_split_arg != NULL)
    {
      g_auto(GStrv) parts = g_strsplit_set (o->tensor_split_arg, ",/", -1);
      guint n = g_strv_length (parts);

      if (n == 0 || n > HR_MAX_DEVICES)
        return usage_error ("--tensor-split takes 1 to %d shares, not “%s”", HR_MAX_DEVICES,
                            o->tensor_split_arg), FALSE;
      for (guint i = 0; i < n; i++)
        {
          char *end = NULL;
          double share = g_ascii_strtod (parts[i], &end);

          if (end == parts[i] || *end != '\0' || !(share >= 0) || !isfinite (share))
            return usage_error ("--tensor-split: “%s” is not a share (a number ≥ 0)",
                                parts[i]), FALSE;
          p->tensor_split[i] = share;
        }
      p->n_tensor_split = n;
    }

  if (o->n_cpu_moe_arg != NULL)
    {
      gint64 layers;

      if (!parse_count ("--n-cpu-moe", o->n_cpu_moe_arg, 0, HR_LAYERS_MAX, 0, &layers))
        return FALSE;
      p->n_cpu_moe = (guint32) layers;
    }

  if (o->ram_arg != NULL)
    {
      double gib;

      if (!parse_positive ("--ram", o->ram_arg, 1 << 20, &gib))
        return FALSE;
      o->scenario.ram.bytes = (guint64) (gib * HR_GIB);
    }
  if (o->ram_bandwidth_arg != NULL &&
      !parse_positive ("--ram-bandwidth", o->ram_bandwidth_arg, 1e6,
                       &o->scenario.ram.bandwidth_gbps))
    return FALSE;

  return TRUE;
}

/* --prompt-tokens and --generate (docs/CLI.md "Additions", speed), --users and
 * --target-tokens-per-s (serving). */
static gboolean
parse_speed (Options *o)
{
  gint64 prompt, generate, users;

  if (!parse_count ("--prompt-tokens", o->prompt_tokens_arg, 1, HR_CONTEXT_MAX, 0, &prompt) ||
      !parse_count ("--generate", o->generate_arg, 1, HR_CONTEXT_MAX, 0, &generate))
    return FALSE;
  o->scenario.prompt_tokens = (guint64) prompt;
  o->scenario.generate_tokens = (guint64) generate;
  if (!parse_count ("--users", o->users_arg, 1, HR_USERS_MAX, 0, &users))
    return FALSE;
  o->scenario.users = (guint32) users;
  if (o->target_arg != NULL &&
      !parse_positive ("--target-tokens-per-s", o->target_arg, 1e6,
                       &o->scenario.target_tokens_per_s))
    return FALSE;
  return TRUE;
}

/* --vllm-version and the serving layout: --tp, --pp, --dp, --nodes,
 * --gpus-per-node (docs/CLI.md "Additions", serving).  Without --tp, a machine's
 * GPUs are one tensor-parallel group and machines are pipeline stages,
 * as vLLM's documentation recommends. */
static gboolean
parse_serving (Options *o)
{
  HrLayout *l = &o->scenario.layout;
  gint64 tp, pp, dp, nodes, per_node;

  if (o->vllm_version_arg != NULL)
    {
      if (g_strcmp0 (o->vllm_version_arg, "0.21") == 0)
        o->scenario.options.vllm_generation = HR_VLLM_V1;
      else if (g_strcmp0 (o->vllm_version_arg, "0.19") == 0)
        o->scenario.options.vllm_generation = HR_VLLM_V1_0_19;
      else if (g_strcmp0 (o->vllm_version_arg, "0.6") == 0)
        o->scenario.options.vllm_generation = HR_VLLM_V0_6;
      else
        return usage_error ("--vllm-version must be 0.21, 0.19 or 0.6, not “%s”",
                            o->vllm_version_arg), FALSE;
    }

  if (!parse_count ("--tp", o->tp_arg, 1, HR_GPUS_MAX, 0, &tp) ||
      !parse_count ("--pp", o->pp_arg, 1, HR_LAYERS_MAX, 0, &pp) ||
      !parse_count ("--dp", o->dp_arg, 1, HR_GPUS_MAX, 0, &dp) ||
      !parse_count ("--nodes", o->nodes_arg, 1, HR_GPUS_MAX, 0, &nodes) ||
      !parse_count ("--gpus-per-node", o->gpus_per_node_arg, 1, HR_GPUS_MAX, 0, &per_node))
    return FALSE;
  o->gpus_per_node = (guint32) per_node;
  if (tp == 0 && pp == 0 && dp == 0 && nodes == 0 && per_node == 0)
    return TRUE;

  if (nodes > 0 && per_node > 0 && tp == 0 && pp == 0)
    {
      tp = per_node;
      pp = nodes / MAX (dp, 1) > 0 ? nodes / MAX (dp, 1) : 1;
    }
  l->tp = tp > 0 ? tp : (guint32) (o->gpus_arg ? o->scenario.gpus : (per_node > 0 ? per_node : 1));
  l->pp = pp > 0 ? pp : 1;
  l->dp = dp > 0 ? dp : 1;
  l->nodes = nodes > 0 ? nodes : 1;
  if ((gint64) l->tp * l->pp * l->dp > HR_GPUS_MAX)
    return usage_error ("--tp × --pp × --dp is more than %d GPUs", HR_GPUS_MAX), FALSE;
  if (per_node > 0 && (gint64) l->tp * l->pp * l->dp != per_node * l->nodes)
    return usage_error ("--tp %u × --pp %u × --dp %u does not make %u machines of %"
                        G_GINT64_FORMAT " GPUs", l->tp, l->pp, l->dp, l->nodes, per_node),
           FALSE;
  o->scenario.gpus = l->tp * l->pp * l->dp;
  return TRUE;
}

/* --hardware local: the first detected GPU, or the unified-memory machine.
 * A device made of the detected figures is added to the catalog so that
 * the hardware table has its row. */
static GListModel *
add_detected_devices (Options *o)
{
  g_autoptr(HrSystemInfo) info = hr_detect_system (NULL, NULL);
  GListModel *devices = hr_local_devices_new (o->catalog, info);

  hr_local_devices_add_to_catalog (devices, o->catalog);
  return devices;
}

static gboolean
resolve_local_hardware (Options *o)
{
  g_autoptr(GListModel) devices = add_detected_devices (o);
  HrLocalDevice *picked = hr_local_devices_pick (devices);

  if (picked == NULL)
    {
      g_printerr ("headroom-cli: --hardware local: no GPU or unified-memory machine "
                  "was detected on this computer (see headroom-cli detect)\n");
      exit_status = EXIT_FILE;
      return FALSE;
    }
  o->scenario.hardware = hr_local_device_get_hardware (picked);
  return TRUE;
}

/* Fills the scenario from the options, with docs/CLI.md's defaults. */
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
      /* An imported GGUF file is estimated in its own type unless told:
       * a Q4_K_S file is Q4_K_S. */
      if (o->precision == NULL && o->scenario.model != NULL)
        o->scenario.precision =
          hr_precision_find_for_file_type (hr_catalog_get_precisions (o->catalog),
                                           hr_model_spec_get_file_type (o->scenario.model));
      else if (o->precision != NULL)
        o->scenario.precision = hr_catalog_find_precision (o->catalog, o->precision);
      if (o->scenario.precision == NULL && o->precision == NULL)
        return usage_error ("--precision is required"), FALSE;
      if (o->scenario.precision == NULL)
        return usage_error ("unknown precision “%s” (see headroom-cli precisions)",
                            o->precision), FALSE;
    }

  o->scenario.kv_type = hr_catalog_find_kv_type (o->catalog, kv);
  if (o->scenario.kv_type == NULL)
    return usage_error ("unknown KV cache type “%s” (fp16, bf16, fp8, q8_0, q4_0)",
                        kv), FALSE;

  if (g_ascii_strcasecmp (hardware, HR_LOCAL_HARDWARE_ARGUMENT) == 0)
    {
      if (!resolve_local_hardware (o))
        return FALSE;
    }
  else
    o->scenario.hardware = hr_catalog_find_hardware (o->catalog, hardware);
  /* “this-computer-2”, as detect names a second GPU the catalog lacks. */
  if (o->scenario.hardware == NULL &&
      g_ascii_strncasecmp (hardware, HR_LOCAL_DEVICE_ID, strlen (HR_LOCAL_DEVICE_ID)) == 0)
    {
      g_autoptr(GListModel) devices = add_detected_devices (o);

      o->scenario.hardware = hr_catalog_find_hardware (o->catalog, hardware);
    }
  if (o->scenario.hardware == NULL)
    return usage_error ("unknown hardware “%s” (see headroom-cli devices)",
                        hardware), FALSE;

  o->scenario.engine = HR_DEFAULT_ENGINE;
  if (o->engine != NULL && !hr_engine_from_string (o->engine, &o->scenario.engine))
    return usage_error ("unknown engine “%s” (auto, generic, llamacpp, ollama, vllm, sglang)",
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

  return parse_placement (o) && parse_serving (o) && parse_speed (o);
}

/* ------------------------------------------------------------- output */

static void
print_json (JsonNode *root)
{
  g_autofree char *text = hr_json_to_data (root, NULL);

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

static const char *
placement_name (HrPlacementKind kind)
{
  static const char * const names[] = {
    [HR_PLACEMENT_GPU] = "gpu",
    [HR_PLACEMENT_SPLIT] = "split",
    [HR_PLACEMENT_PARTIAL] = "partial",
    [HR_PLACEMENT_CPU] = "cpu",
  };

  return names[kind];
}

/* Where everything lives: docs/CLI.md "Additions" (placement). */
static void
add_placement (JsonBuilder      *b,
               const HrEstimate *e)
{
  add_string (b, "placement", placement_name (e->placement));
  add_uint (b, "gpu_layers", e->gpu_layers);
  add_uint (b, "layer_count", e->layer_count);
  add_uint (b, "host_bytes", e->host_bytes);
  add_uint (b, "ram_bytes", e->ram_bytes);
  add_uint (b, "ram_usable_bytes", e->ram_usable_bytes);
  add_bool (b, "ram_fits", e->ram_fits);
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint d = 0; d < e->n_devices; d++)
    {
      const HrDeviceLoad *load = &e->devices[d];

      json_builder_begin_object (b);
      add_uint (b, "weights_bytes", load->weights_bytes);
      add_uint (b, "kv_bytes", load->kv_bytes);
      add_uint (b, "compute_bytes", load->compute_bytes);
      add_uint (b, "total_bytes", load->total_bytes);
      add_uint (b, "usable_bytes", load->usable_bytes);
      add_uint (b, "layers", load->layers);
      add_bool (b, "output_layer", load->output_layer);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* With --users and --target-tokens-per-s: the smallest layout that gives
 * each user the target (hr-serving-plan.h), or null and why not. */
static void
add_plan (JsonBuilder   *b,
          const Options *o)
{
  HrServingPlan plan;
  g_autofree char *message = NULL;

  hr_serving_plan_search (&o->scenario, o->gpus_per_node, &plan);
  json_builder_set_member_name (b, "plan");
  if (plan.status != HR_PLAN_FOUND)
    {
      json_builder_add_null_value (b);
      message = hr_serving_plan_describe (&o->scenario, &plan);
      add_string (b, "plan_reason", hr_plan_status_to_string (plan.status));
      add_string (b, "plan_message", message);
      return;
    }
  json_builder_begin_object (b);
  add_uint (b, "gpus", plan.gpus);
  add_uint (b, "tp", plan.layout.tp);
  add_uint (b, "pp", plan.layout.pp);
  add_uint (b, "dp", plan.layout.dp);
  add_uint (b, "nodes", plan.layout.nodes);
  add_uint (b, "gpus_per_node", plan.gpus_per_node);
  add_double (b, "per_user_tokens_per_s", plan.per_user_tokens_per_s);
  add_double (b, "aggregate_tokens_per_s", plan.aggregate_tokens_per_s);
  add_double (b, "load_ttft_seconds", plan.load_ttft_seconds);
  json_builder_end_object (b);
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
      add_string (b, "engine", hr_engine_to_string (e.engine));
      add_string (b, "engine_requested", hr_engine_to_string (s->engine));
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
      if (e.prefill_tokens_per_s > 0)
        {
          add_uint (b, "prompt_tokens", e.prompt_tokens);
          add_double (b, "prefill_tokens_per_s", e.prefill_tokens_per_s);
          add_double (b, "ttft_seconds", e.ttft_seconds);
          add_uint (b, "generate_tokens", e.generate_tokens);
          add_double (b, "generation_seconds", e.generation_seconds);
        }
      add_uint (b, "kv_mha_bytes", e.kv_mha_bytes);
      add_double (b, "kv_savings", e.kv_savings);
      add_double (b, "kv_bytes_per_token", e.kv_bytes_per_token);
      add_uint (b, "kv_heads_per_device", e.kv_heads_per_device);
      add_bool (b, "kv_replicated", e.kv_replicated);
      if (e.engine == HR_ENGINE_LLAMACPP || e.engine == HR_ENGINE_OLLAMA)
        {
          add_uint (b, "compute_bytes", e.compute_bytes);
          add_bool (b, "flash_attn", e.flash_attn);
        }
      add_placement (b, &e);
      if (e.engine == HR_ENGINE_VLLM || e.engine == HR_ENGINE_SGLANG)
        {
          json_builder_set_member_name (b, "layout");
          json_builder_begin_object (b);
          add_uint (b, "tp", e.layout.tp);
          add_uint (b, "pp", e.layout.pp);
          add_uint (b, "dp", e.layout.dp);
          add_uint (b, "nodes", e.layout.nodes);
          json_builder_end_object (b);
          add_uint (b, "kv_capacity_tokens", e.kv_capacity_tokens);
          add_double (b, "max_concurrency", e.max_concurrency);
          add_uint (b, "max_num_seqs", e.max_num_seqs);
          add_double (b, "gpu_memory_fraction", e.gpu_memory_utilization);
          if (e.users > 0)
            {
              add_uint (b, "users", e.users);
              add_uint (b, "users_served", e.users_served);
              add_double (b, "per_user_tokens_per_s", e.per_user_tokens_per_s);
              add_double (b, "aggregate_tokens_per_s", e.aggregate_tokens_per_s);
              add_double (b, "load_ttft_seconds", e.load_ttft_seconds);
              add_uint (b, "max_users", e.max_users);
            }
        }
      if (s->users > 0 && s->target_tokens_per_s > 0)
        add_plan (b, o);
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
    if (e.prefill_tokens_per_s > 0)
      {
        g_autofree char *prompt = hr_format_tokens (e.prompt_tokens);

        g_print ("  prompt      %12.1f tok/s over %s tokens; first token after %.2f s\n",
                 e.prefill_tokens_per_s, prompt, e.ttft_seconds);
        g_print ("  answer      %12.2f s for %" G_GUINT64_FORMAT " tokens\n",
                 e.generation_seconds, e.generate_tokens);
      }
    g_print ("  max context %12s tokens%s\n", max_ctx,
             e.max_context_past_trained ? " (past the trained maximum)" : "");
    g_print ("  KV saves %.1f %% vs MHA FP16 (%s)\n", e.kv_savings * 100, mha);
    if (e.placement == HR_PLACEMENT_PARTIAL || e.placement == HR_PLACEMENT_CPU)
      {
        g_autofree char *host = hr_format_size (e.host_bytes, u);
        g_autofree char *ram = hr_format_size (e.ram_usable_bytes, u);

        g_print ("  placement   %u of %u layers on the GPU; %s in system RAM (of %s usable)%s\n",
                 e.gpu_layers, e.layer_count, host, ram, e.ram_fits ? "" : ": too little RAM");
      }
    if (e.engine == HR_ENGINE_LLAMACPP || e.engine == HR_ENGINE_OLLAMA)
      {
        g_autofree char *compute = hr_format_size (e.compute_bytes, u);
        g_autofree char *host = hr_format_size (e.host_bytes, u);
        g_print ("  compute buffer %s per device (flash attention %s); %s in host RAM\n",
                 compute, e.flash_attn ? "on" : "off", host);
      }
    if (e.engine == HR_ENGINE_VLLM || e.engine == HR_ENGINE_SGLANG)
      {
        g_autofree char *capacity = hr_format_tokens (e.kv_capacity_tokens);
        g_print ("  KV capacity %s tokens, %.2fx concurrency at this context\n",
                 capacity, e.max_concurrency);
        if (s->users > 0 && s->target_tokens_per_s > 0)
          {
            HrServingPlan plan;
            g_autofree char *text = NULL;

            hr_serving_plan_search (s, o->gpus_per_node, &plan);
            text = hr_serving_plan_describe (s, &plan);
            g_print ("  plan        %s\n", text);
          }
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
  HrHardware *only;
  guint n_rows;

  calc = calculator_for (o);
  table = hr_hardware_table_new (calc);
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (table));
  only = o->hardware != NULL ? o->scenario.hardware : NULL;

  if (o->csv)
    {
      g_autoptr(GString) out = g_string_new (NULL);

      hr_csv_write_hardware_rows (table, only, out);
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

          if (only != NULL && hw != only)
            continue;
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

      if (only != NULL && hw != only)
        continue;
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
  g_autoptr(HrCommand) command = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (!hr_command_kind_from_string (which, &kind))
    return usage_error ("command needs vllm, sglang, llamacpp or ollama, not “%s”", which);

  /* A combination the engine cannot run gives no command (docs/CLI.md). */
  command = hr_command_build (kind, &o->scenario, &error);
  if (command == NULL)
    return usage_error ("%s", error->message);
  text = hr_command_to_shell (command);
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

/* ------------------------------------------------------ this computer */

static void
add_uint_or_null (JsonBuilder *b,
                  const char  *key,
                  gboolean     known,
                  guint64      value)
{
  json_builder_set_member_name (b, key);
  if (known)
    json_builder_add_int_value (b, (gint64) value);
  else
    json_builder_add_null_value (b);
}

static void
add_double_or_null (JsonBuilder *b,
                    const char  *key,
                    double       value)
{
  json_builder_set_member_name (b, key);
  if (value > 0)
    json_builder_add_double_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
detect_json (HrSystemInfo *info,
             GListModel   *devices)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  const char * const *notes = hr_system_info_get_notes (info);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint i = 0; i < g_list_model_get_n_items (devices); i++)
    {
      g_autoptr(HrLocalDevice) d = g_list_model_get_item (devices, i);
      const HrGpuInfo *gpu = hr_local_device_get_gpu (d);
      HrHardware *hw = hr_local_device_get_hardware (d);
      g_autofree char *pci_id = hr_gpu_info_dup_pci_id (gpu);

      json_builder_begin_object (b);
      add_string (b, "id", hr_local_device_get_catalog_id (d));
      add_string (b, "hardware", hw != NULL ? hr_hardware_get_id (hw) : NULL);
      add_string (b, "name", hr_local_device_get_name (d));
      add_string (b, "catalog_name", hr_local_device_get_catalog_id (d) != NULL
                                     ? hr_hardware_get_name (hw) : NULL);
      add_string (b, "vendor", hr_gpu_vendor_to_string (gpu->vendor));
      add_string (b, "kind", hr_local_device_is_unified (d) ? "unified" : "discrete");
      add_string (b, "match", hr_local_match_to_string (hr_local_device_get_match (d)));
      add_uint_or_null (b, "memory_bytes", hr_local_device_get_memory_bytes (d) > 0,
                        hr_local_device_get_memory_bytes (d));
      add_uint_or_null (b, "free_bytes", hr_local_device_get_free_known (d),
                        hr_local_device_get_free_bytes (d));
      add_double_or_null (b, "bandwidth_gbps", hr_local_device_get_bandwidth_gbps (d));
      add_uint_or_null (b, "bus_width_bits", gpu->bus_width_bits > 0, gpu->bus_width_bits);
      add_string (b, "pci_id", pci_id);
      add_string (b, "pci_slot", gpu->pci_slot);
      add_string (b, "driver", gpu->driver);
      add_uint_or_null (b, "pcie_generation", gpu->pcie_generation > 0, gpu->pcie_generation);
      add_uint_or_null (b, "pcie_width", gpu->pcie_width > 0, gpu->pcie_width);
      add_string (b, "source", gpu->source);
      add_string (b, "note", hr_local_device_get_note (d));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_uint (b, "ram_bytes", hr_system_info_get_ram_total_bytes (info));
  add_uint (b, "ram_available_bytes", hr_system_info_get_ram_available_bytes (info));
  add_string (b, "ram_type", hr_system_info_get_ram_type (info));
  add_uint (b, "ram_speed_mts", hr_system_info_get_ram_speed_mts (info));
  add_uint (b, "ram_channels", hr_system_info_get_ram_channels (info));
  add_double (b, "ram_bandwidth_gbps", hr_system_info_get_ram_bandwidth_gbps (info));
  add_bool (b, "ram_assumed", hr_system_info_get_ram_assumed (info));
  add_string (b, "cpu", hr_system_info_get_cpu_model (info));
  add_uint (b, "cpu_cores", hr_system_info_get_cpu_cores (info));
  add_uint (b, "cpu_threads", hr_system_info_get_cpu_threads (info));
  add_bool (b, "complete", hr_system_info_is_complete (info));
  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (guint i = 0; notes[i] != NULL; i++)
    json_builder_add_string_value (b, notes[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  print_json (root);
}

static void
detect_text (HrSystemInfo *info,
             GListModel   *devices)
{
  const char * const *notes = hr_system_info_get_notes (info);
  HrUnits u = HR_UNITS_BINARY;
  guint n = g_list_model_get_n_items (devices);

  if (n == 0)
    g_print ("No GPU detected.\n");
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrLocalDevice) d = g_list_model_get_item (devices, i);
      const HrGpuInfo *gpu = hr_local_device_get_gpu (d);
      HrHardware *hw = hr_local_device_get_hardware (d);
      g_autoptr(GString) line = g_string_new (NULL);
      guint64 memory = hr_local_device_get_memory_bytes (d);
      double bandwidth = hr_local_device_get_bandwidth_gbps (d);

      g_print ("GPU %u: %s\n", i + 1, hr_local_device_get_name (d));
      if (hr_local_device_get_catalog_id (d) != NULL)
        g_print ("  catalog:   %s (%s, by %s)\n", hr_hardware_get_name (hw),
                 hr_hardware_get_id (hw),
                 hr_local_device_get_match (d) == HR_LOCAL_MATCH_PCI_ID ? "PCI id" : "name");
      else if (hw != NULL)
        g_print ("  catalog:   not listed; use --hardware %s\n", hr_hardware_get_id (hw));
      else
        g_print ("  catalog:   not listed\n");

      if (memory > 0)
        {
          g_autofree char *total = hr_format_size (memory, u);
          g_string_append (line, total);
          if (hr_local_device_get_free_known (d))
            {
              g_autofree char *free_text = hr_format_size (hr_local_device_get_free_bytes (d), u);
              g_string_append_printf (line, ", %s free", free_text);
            }
        }
      else
        g_string_append (line, "unknown");
      g_print ("  memory:    %s%s\n", line->str,
               hr_local_device_is_unified (d) ? " (unified with the system)" : "");
      if (bandwidth > 0)
        g_print ("  bandwidth: %.0f GB/s%s\n", bandwidth,
                 gpu->bandwidth_assumed ? " (assumed)" : "");
      if (gpu->pcie_generation > 0 && gpu->pcie_width > 0)
        g_print ("  PCIe:      %u.0 x%u\n", gpu->pcie_generation, gpu->pcie_width);
      if (hr_local_device_get_note (d) != NULL)
        g_print ("  note:      %s\n", hr_local_device_get_note (d));
    }

  {
    g_autofree char *ram = hr_format_size (hr_system_info_get_ram_total_bytes (info), u);
    g_autofree char *available = hr_format_size (hr_system_info_get_ram_available_bytes (info), u);

    g_print ("RAM: %s, %s available; %u-channel %s-%u, %.1f GB/s%s\n", ram, available,
             hr_system_info_get_ram_channels (info), hr_system_info_get_ram_type (info),
             hr_system_info_get_ram_speed_mts (info),
             hr_system_info_get_ram_bandwidth_gbps (info),
             hr_system_info_get_ram_assumed (info) ? " (assumed)" : "");
  }
  g_print ("CPU: %s, %u cores, %u threads\n", hr_system_info_get_cpu_model (info),
           hr_system_info_get_cpu_cores (info), hr_system_info_get_cpu_threads (info));
  for (guint i = 0; notes[i] != NULL; i++)
    g_print ("Note: %s\n", notes[i]);
}

static int
run_detect (Options *o)
{
  g_autoptr(HrSystemInfo) info = hr_detect_system (NULL, NULL);
  g_autoptr(GListModel) devices = hr_local_devices_new (o->catalog, info);

  if (o->json)
    detect_json (info, devices);
  else
    detect_text (info, devices);
  return 0;
}

static int
run_local_models (Options *o)
{
  g_autoptr(HrLocalScan) scan = hr_model_import_scan (NULL, NULL, NULL);
  GListModel *models = hr_local_scan_get_models (scan);
  const char * const *notes = hr_local_scan_get_notes (scan);
  guint n = g_list_model_get_n_items (models);

  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_array (b);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(HrLocalModel) found = g_list_model_get_item (models, i);
          HrModelSpec *model = hr_local_model_get_model (found);

          json_builder_begin_object (b);
          add_string (b, "path", hr_local_model_get_path (found));
          add_string (b, "source", hr_local_source_to_string (hr_local_model_get_source (found)));
          add_string (b, "id", model != NULL ? hr_model_spec_get_id (model) : NULL);
          add_string (b, "name", hr_local_model_get_name (found));
          add_string (b, "format", hr_local_model_get_format (found));
          add_string (b, "dtype", hr_local_model_get_dtype (found));
          add_string (b, "file_type", model != NULL ? hr_model_spec_get_file_type (model) : NULL);
          add_uint (b, "weights_bytes", hr_local_model_get_weights_bytes (found));
          add_string (b, "error", hr_local_model_get_error (found));
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      root = json_builder_get_root (b);
      print_json (root);
      /* The array stays the whole of stdout; what was skipped goes to
       * stderr, the exit status staying 0. */
      if (hr_local_scan_is_truncated (scan))
        g_printerr ("headroom-cli: local-models: the list is partial (%s)\n",
                    notes[0] != NULL ? notes[g_strv_length ((char **) notes) - 1] : "");
      return 0;
    }

  if (n == 0)
    g_print ("No models found.\n");
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrLocalModel) found = g_list_model_get_item (models, i);
      HrModelSpec *model = hr_local_model_get_model (found);
      g_autofree char *size = hr_format_size (hr_local_model_get_weights_bytes (found),
                                              HR_UNITS_BINARY);
      const char *kind = model != NULL && hr_model_spec_get_file_type (model) != NULL
                         ? hr_model_spec_get_file_type (model)
                         : hr_local_model_get_dtype (found);

      g_print ("%-12s %-48s %12s  %-10s %s\n",
               hr_local_source_get_label (hr_local_model_get_source (found)),
               model != NULL ? hr_model_spec_get_id (model) : hr_local_model_get_name (found),
               size, kind != NULL ? kind : "", hr_local_model_get_path (found));
      if (model == NULL && hr_local_model_get_error (found) != NULL)
        g_print ("%-12s not readable: %s\n", "", hr_local_model_get_error (found));
    }
  for (guint i = 0; notes[i] != NULL; i++)
    g_print ("Note: %s\n", notes[i]);
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
           "  headroom-cli command   vllm|sglang|llamacpp|ollama --model M --precision P\n"
           "                         [--context N] [--hardware H] [--gpus N] [--batch N]\n"
           "                         [--kv-type K] [--tp N] [--pp N] [--dp N] [--nodes N]\n"
           "  headroom-cli inspect   FILE [--json]\n"
           "  headroom-cli models | devices | precisions [--json]\n"
           "  headroom-cli detect [--json]\n"
           "  headroom-cli local-models [--json]\n"
           "\nH may be “local”: the GPU detected on this computer.\n"
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
                      OPT_ENGINE | OPT_HARDWARE | OPT_GPUS | OPT_JSON | OPT_ENGINE_TUNING | OPT_PLACEMENT | OPT_SERVING;
      if (parse_options (&o, command, NULL, set, &argc, &argv) &&
          resolve_scenario (&o, set))
        status = run_estimate (&o);
    }
  else if (g_str_equal (command, "matrix"))
    {
      OptionSet set = OPT_MODEL | OPT_KV | OPT_ENGINE | OPT_HARDWARE | OPT_JSON | OPT_CSV | OPT_CONTEXTS | OPT_PRECISIONS | OPT_ENGINE_TUNING | OPT_PLACEMENT | OPT_SERVING;
      if (parse_options (&o, command, NULL, set, &argc, &argv) &&
          resolve_scenario (&o, set))
        status = run_matrix (&o);
    }
  else if (g_str_equal (command, "hardware"))
    {
      OptionSet set = OPT_MODEL | OPT_PRECISION | OPT_CONTEXT | OPT_KV | OPT_ENGINE |
                      OPT_HARDWARE | OPT_JSON | OPT_CSV | OPT_ENGINE_TUNING | OPT_PLACEMENT | OPT_SERVING;
      if (parse_options (&o, command, NULL, set, &argc, &argv) &&
          resolve_scenario (&o, set))
        status = run_hardware (&o);
    }
  else if (g_str_equal (command, "command"))
    {
      OptionSet set = OPT_MODEL | OPT_PRECISION | OPT_CONTEXT | OPT_BATCH | OPT_KV |
                      OPT_HARDWARE | OPT_GPUS | OPT_ENGINE | OPT_ENGINE_TUNING | OPT_PLACEMENT | OPT_SERVING;
      if (parse_options (&o, command, "vllm|sglang|llamacpp|ollama", set, &argc, &argv))
        {
          g_auto(GStrv) rest = g_steal_pointer (&o.rest);

          if (rest == NULL || g_strv_length (rest) != 1)
            status = usage_error ("command needs exactly one of vllm, sglang, llamacpp, ollama");
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
            status = hr_model_inspect (o.rest[0], o.json, &error) ? 0
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
  else if (g_str_equal (command, "local-models"))
    {
      if (parse_options (&o, command, NULL, OPT_JSON, &argc, &argv))
        {
          if (o.rest != NULL)
            status = usage_error ("unexpected argument “%s”", o.rest[0]);
          else
            status = run_local_models (&o);
        }
    }
  else if (g_str_equal (command, "detect"))
    {
      if (parse_options (&o, command, NULL, OPT_JSON, &argc, &argv))
        {
          if (o.rest != NULL)
            status = usage_error ("unexpected argument “%s”", o.rest[0]);
          else
            status = run_detect (&o);
        }
    }
  else
    {
      status = usage_error ("unknown command “%s” (estimate, matrix, hardware, command, "
                            "inspect, models, devices, precisions, detect, "
                            "local-models)", command);
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
