/* hr-cli-options.c — the option groups several commands share, and parsing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include <string.h>

#include "hr-cli-common.h"
#include "hr-calibration.h"

/* ------------------------------------------------------ option groups */

void
hr_cli_add_entries (GArray             *entries,
                    const GOptionEntry *add,
                    gsize               n_add)
{
  g_array_append_vals (entries, add, n_add);
}

#define ADD(entries, array) hr_cli_add_entries ((entries), (array), G_N_ELEMENTS (array))

void
hr_cli_add_model (GArray       *entries,
                  HrCliOptions *o)
{
  const GOptionEntry group[] = {
    /* File names are bytes, not necessarily UTF-8. */
    { "model", 0, 0, G_OPTION_ARG_FILENAME, &o->model,
      "Catalog id, a .gguf / config.json file, or a hub id (org/name[@revision], hf:org/name[:file.gguf], a huggingface.co URL)", "M" },
    { "online", 0, 0, G_OPTION_ARG_NONE, &o->online,
      "Let a hub id not in the catalog be looked up on the hub (HF_ENDPOINT, HF_TOKEN)", NULL },
    { "offline", 0, 0, G_OPTION_ARG_NONE, &o->offline,
      "Read a hub id from the cache only", NULL },
  };

  ADD (entries, group);
}

void
hr_cli_add_precision (GArray       *entries,
                      HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "precision", 0, 0, G_OPTION_ARG_STRING, &o->precision,
      "Weight precision id (headroom-cli precisions)", "P" },
  };

  ADD (entries, group);
}

void
hr_cli_add_context (GArray       *entries,
                    HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "context", 0, 0, G_OPTION_ARG_STRING, &o->context_arg,
      "Context length in tokens (default 32768)", "N" },
  };

  ADD (entries, group);
}

void
hr_cli_add_batch (GArray       *entries,
                  HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "batch", 0, 0, G_OPTION_ARG_STRING, &o->batch_arg,
      "Parallel sequences (default 1)", "N" },
  };

  ADD (entries, group);
}

/* The KV cache, the engine and the device: every command that estimates. */
void
hr_cli_add_setup (GArray       *entries,
                  HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "kv-type", 0, 0, G_OPTION_ARG_STRING, &o->kv_type,
      "KV cache type: fp16, bf16, fp8, q8_0, q4_0", "K" },
    { "engine", 0, 0, G_OPTION_ARG_STRING, &o->engine,
      "Engine profile: auto (default), generic, llamacpp, ollama, vllm, sglang", "E" },
    { "hardware", 0, 0, G_OPTION_ARG_STRING, &o->hardware,
      "Device id (headroom-cli devices), “local” for this computer's, or a list "
      "ID[:N],ID[:N] of GPUs of different kinds", "H" },
  };

  ADD (entries, group);
}

/* docs/CLI.md "Additions": the whole load — a vision projector, a draft
 * model and adapters beside the model, the cache in RAM and the host
 * prompt cache (estimate, command). */
void
hr_cli_add_extras (GArray       *entries,
                   HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "mmproj", 0, 0, G_OPTION_ARG_STRING, &o->mmproj_arg,
      "llama.cpp, Ollama: a vision projector, its GGUF file or “auto” (the catalog's "
      "vision config)", "FILE|auto" },
    { "images", 0, 0, G_OPTION_ARG_STRING, &o->images_arg,
      "Images in the context, with --mmproj (default 1)", "N" },
    { "draft", 0, 0, G_OPTION_ARG_STRING, &o->draft_arg,
      "llama-server: a draft model for speculative decoding (a catalog id)", "MODEL" },
    { "draft-precision", 0, 0, G_OPTION_ARG_STRING, &o->draft_precision_arg,
      "The draft's precision", "P" },
    { "draft-max", 0, 0, G_OPTION_ARG_STRING, &o->draft_max_arg,
      "Tokens drafted a step (default: the best up to llama-server's 16)", "N" },
    { "acceptance", 0, 0, G_OPTION_ARG_STRING, &o->acceptance_arg,
      "Share of drafted tokens accepted, 0–1 (default: the pairing's measured rate)", "R" },
    { "lora", 0, 0, G_OPTION_ARG_STRING, &o->lora_arg,
      "llama.cpp, Ollama: LoRA adapters, each a GGUF file or a rank (all linear layers, "
      "F16), comma-separated", "FILE|RANK[,…]" },
    { "kv-offload", 0, 0, G_OPTION_ARG_STRING, &o->kv_offload_arg,
      "llama-server: “off” keeps the KV cache in system RAM (--no-kv-offload)", "on|off" },
    { "cache-ram", 0, 0, G_OPTION_ARG_STRING, &o->cache_ram_arg,
      "llama-server: the most system RAM its prompt cache takes (--cache-ram)", "GIB" },
  };

  ADD (entries, group);
}

/* docs/CLI.md "Additions": what each GPU keeps for others (estimate,
 * command, matrix, hardware). */
void
hr_cli_add_reserve (GArray       *entries,
                    HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "reserve", 0, 0, G_OPTION_ARG_STRING, &o->reserve_arg,
      "GiB each GPU keeps for the desktop and other processes: one value, or one per GPU "
      "(default: the device kind's; with --hardware local, what is in use now)", "GIB[,GIB…]" },
  };

  ADD (entries, group);
}

/* docs/CLI.md "Additions": what a token costs (estimate, recommend). */
void
hr_cli_add_price (GArray       *entries,
                  HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "price-kwh", 0, 0, G_OPTION_ARG_STRING, &o->price_kwh_arg,
      "Electricity price per kWh, for cost_per_million_tokens", "X" },
    { "price-per-hour", 0, 0, G_OPTION_ARG_STRING, &o->price_per_hour_arg,
      "Rental price of the machine per hour, for cost_per_million_tokens", "X" },
  };

  ADD (entries, group);
}

void
hr_cli_add_gpus (GArray       *entries,
                 HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "gpus", 0, 0, G_OPTION_ARG_STRING, &o->gpus_arg,
      "Tensor-parallel GPU count (default 1)", "N" },
  };

  ADD (entries, group);
}

/* docs/CLI.md: engine options, accepted by estimate, matrix, hardware, command. */
void
hr_cli_add_tuning (GArray       *entries,
                   HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "flash-attn", 0, 0, G_OPTION_ARG_STRING, &o->flash_attn,
      "llama.cpp / Ollama: flash attention on|off", "on|off" },
    { "ubatch", 0, 0, G_OPTION_ARG_STRING, &o->ubatch_arg,
      "llama.cpp / Ollama: physical batch size", "N" },
    { "gpu-memory-utilization", 0, 0, G_OPTION_ARG_STRING, &o->gpu_memory_utilization_arg,
      "vLLM: share of device memory to use", "F" },
    { "max-num-batched-tokens", 0, 0, G_OPTION_ARG_STRING, &o->max_num_batched_tokens_arg,
      "vLLM: tokens per scheduler step", "N" },
    { "vllm-version", 0, 0, G_OPTION_ARG_STRING, &o->vllm_version_arg,
      "vLLM: 0.21 (default: 0.21 and later), 0.19 or 0.6, for older logs", "V" },
  };

  ADD (entries, group);
}

/* docs/CLI.md "Additions": placement (llama.cpp, Ollama) and system memory. */
void
hr_cli_add_placement (GArray       *entries,
                      HrCliOptions *o)
{
  const GOptionEntry group[] = {
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
  };

  ADD (entries, group);
}

/* docs/CLI.md "Additions": the serving layout (vLLM, SGLang). */
void
hr_cli_add_layout (GArray       *entries,
                   HrCliOptions *o)
{
  const GOptionEntry group[] = {
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
  };

  ADD (entries, group);
}

/* docs/CLI.md "Additions": the serving load, which only estimate reports. */
void
hr_cli_add_load (GArray       *entries,
                 HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "users", 0, 0, G_OPTION_ARG_STRING, &o->users_arg,
      "vLLM / SGLang: concurrent users, each sending a prompt and reading the answer", "N" },
    { "target-tokens-per-s", 0, 0, G_OPTION_ARG_STRING, &o->target_arg,
      "vLLM / SGLang: the answer speed each user should get", "R" },
  };

  ADD (entries, group);
}

/* docs/CLI.md "Additions": the prompt and answer timed, which only estimate
 * reports. */
void
hr_cli_add_speed (GArray       *entries,
                  HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "prompt-tokens", 0, 0, G_OPTION_ARG_STRING, &o->prompt_tokens_arg,
      "Prompt length timed (default: the context)", "N" },
    { "generate", 0, 0, G_OPTION_ARG_STRING, &o->generate_arg,
      "Answer length timed (default 512)", "N" },
    { "depth", 0, 0, G_OPTION_ARG_STRING, &o->depth_arg,
      "llama.cpp / Ollama: tokens already cached before the prompt (llama-bench -d)", "D" },
  };

  ADD (entries, group);
}

/* docs/CLI.md "Additions" (the whole machine): the CPU that runs the layers
 * and experts llama.cpp leaves in system RAM. */
void
hr_cli_add_cpu (GArray       *entries,
                HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "cpu", 0, 0, G_OPTION_ARG_STRING, &o->cpu_arg,
      "CPU id (headroom-cli cpus), or “local” for this computer's", "ID" },
  };

  ADD (entries, group);
}

/* docs/CLI.md "Additions" (speed that generalises): the llama.cpp build,
 * which estimate times and command names. */
void
hr_cli_add_backend (GArray       *entries,
                    HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &o->backend_arg,
      "llama.cpp / Ollama: cuda, rocm, vulkan, metal, sycl or cpu (default: the device's)",
      "B" },
  };

  ADD (entries, group);
}

void
hr_cli_add_json (GArray       *entries,
                 HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "Print JSON", NULL },
  };

  ADD (entries, group);
}

/* docs/CLI.md "Additions": speeds corrected by `calibrate` unless told. */
void
hr_cli_add_calibration (GArray       *entries,
                        HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "no-calibration", 0, 0, G_OPTION_ARG_NONE, &o->no_calibration,
      "Ignore the speed corrections measured on this computer (headroom-cli calibrate)",
      NULL },
  };

  o->takes_calibration = TRUE;
  ADD (entries, group);
}

void
hr_cli_add_csv (GArray       *entries,
                HrCliOptions *o)
{
  const GOptionEntry group[] = {
    { "csv", 0, 0, G_OPTION_ARG_NONE, &o->csv, "Print CSV", NULL },
  };

  ADD (entries, group);
}

#undef ADD

/* ------------------------------------------------------------ parsing */

/**
 * hr_cli_command_entries:
 *
 * @command's option table: its entries, then the positional arguments,
 * then the terminating zero entry GOption wants.
 *
 * Returns: (transfer full): a GArray of GOptionEntry
 */
GArray *
hr_cli_command_entries (const HrCliCommand *command,
                        HrCliOptions       *o)
{
  GArray *entries = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));
  const GOptionEntry rest = {
    G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->rest, NULL, NULL
  };

  if (command->add_options != NULL)
    command->add_options (entries, o);
  g_array_append_val (entries, rest);
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
      hr_cli_usage_error ("%s: the value is not valid UTF-8 text", option);
      return FALSE;
    }
  return TRUE;
}

/* Parses @argv (the command already dropped) with @command's own option
 * table; returns FALSE after reporting. */
gboolean
hr_cli_parse (const HrCliCommand *command,
              HrCliOptions       *o,
              int                *argc,
              char             ***argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (command->parameter);
  g_autoptr(GArray) entries = hr_cli_command_entries (command, o);
  g_autoptr(GError) error = NULL;
  g_autofree char *usage = g_strdup_printf ("headroom-cli %s", command->name);

  /* --help's first line: "headroom-cli inspect [OPTION…] FILE" */
  g_set_prgname (usage);
  g_option_context_set_summary (context, command->summary);
  g_option_context_add_main_entries (context, (GOptionEntry *) entries->data, NULL);
  if (!check_utf8_arguments (*argc, *argv))
    return FALSE;
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      hr_cli_usage_error ("%s", error->message);
      return FALSE;
    }
  if (o->json && o->csv)
    {
      hr_cli_usage_error ("--json and --csv cannot be used together");
      return FALSE;
    }
  return TRUE;
}

/* For the commands that take no positional argument. */
gboolean
hr_cli_no_arguments (HrCliOptions *o)
{
  if (o->rest != NULL)
    return hr_cli_usage_error ("unexpected argument “%s”", o->rest[0]), FALSE;
  return TRUE;
}

void
hr_cli_options_clear (HrCliOptions *o)
{
  char **strings[] = {
    &o->model, &o->precision, &o->context_arg, &o->batch_arg, &o->kv_type, &o->engine,
    &o->hardware, &o->reserve_arg, &o->mmproj_arg, &o->images_arg, &o->draft_arg,
    &o->draft_precision_arg, &o->draft_max_arg, &o->acceptance_arg, &o->lora_arg,
    &o->kv_offload_arg, &o->cache_ram_arg, &o->gpus_arg, &o->flash_attn, &o->ubatch_arg,
    &o->gpu_memory_utilization_arg, &o->max_num_batched_tokens_arg, &o->vllm_version_arg,
    &o->gpu_layers_arg, &o->split_mode_arg, &o->tensor_split_arg, &o->n_cpu_moe_arg,
    &o->ram_arg, &o->ram_bandwidth_arg, &o->tp_arg, &o->pp_arg, &o->dp_arg, &o->nodes_arg,
    &o->gpus_per_node_arg, &o->users_arg, &o->target_arg, &o->prompt_tokens_arg,
    &o->generate_arg, &o->depth_arg, &o->backend_arg, &o->cpu_arg, &o->contexts,
    &o->precisions, &o->price_kwh_arg, &o->price_per_hour_arg, &o->task_arg,
    &o->min_tokens_per_s_arg, &o->limit_arg,
  };

  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    g_clear_pointer (strings[i], g_free);
  g_clear_pointer (&o->rest, g_strfreev);
  g_clear_pointer (&o->lora_items, g_strfreev);
  g_clear_object (&o->imported);
  g_clear_object (&o->local_cpu);
  g_clear_pointer (&o->hub_repo, g_free);
  g_clear_pointer (&o->hub_revision, g_free);
  g_clear_pointer (&o->calibration, hr_calibration_unref);
  g_clear_object (&o->catalog);
}
