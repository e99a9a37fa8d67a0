/* hr-command-llamacpp.c — the llama-server command for an estimate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Options as llama.cpp's common/arg.cpp defines them (build b10470 read;
 * the forms used here exist since the builds named beside them):
 *   --model PATH, --ctx-size N (all slots), --parallel N, --n-gpu-layers N
 *   (output layer first since b7467), --split-mode layer|row|none,
 *   --tensor-split A,B, --n-cpu-moe N (b6089), --flash-attn on|off (a value
 *   since b6325), --cache-type-k/-v TYPE, --ubatch-size N, --host, --port.
 */

#define G_LOG_DOMAIN "hr-command-llamacpp"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "hr-commands-private.h"
#include "hr-format.h"

/* llama.cpp's cache type names (--cache-type-k/-v). */
static const char *
cache_type (const HrScenario *scenario)
{
  const char *kv = hr_kv_type_get_id (scenario->kv_type);

  if (g_strcmp0 (kv, "fp16") == 0)
    return "f16";
  if (g_strcmp0 (kv, "bf16") == 0 || g_strcmp0 (kv, "q8_0") == 0 ||
      g_strcmp0 (kv, "q4_0") == 0)
    return kv;
  return NULL;
}

static char *
tensor_split_text (const HrEstimate *e)
{
  GString *out = g_string_new (NULL);

  for (guint d = 0; d < e->n_devices; d++)
    g_string_append_printf (out, "%s%u", d > 0 ? "," : "", e->devices[d].layers);
  return g_string_free (out, FALSE);
}

/* Whether the layer split is Headroom's own rather than the equal one
 * llama.cpp finds on identical GPUs with nothing else on them. */
static gboolean
planned_split (const HrScenario *scenario)
{
  if (scenario->devices[0] != NULL)
    return TRUE;
  for (guint d = 0; d < MIN (scenario->gpus, HR_MAX_DEVICES); d++)
    if (scenario->reserve_set[d])
      return TRUE;
  return FALSE;
}

/* LoRA adapter @i: its file, or for an adapter given by its rank a
 * placeholder for the file it will be. */
char *
hr_command_lora_path (HrCommand        *command,
                      const HrScenario *scenario,
                      guint32           i)
{
  char *path;

  if (scenario->lora_paths[i] != NULL)
    return g_canonicalize_filename (scenario->lora_paths[i], NULL);
  path = g_strdup_printf ("./lora-adapter-%u.gguf", i + 1);
  /* TRANSLATORS: what to put in place of a placeholder in a command; %u is a LoRA rank */
  hr_command_placeholder (command, path, _("the path of your LoRA adapter (rank %u) as a "
                                           "GGUF file (convert_lora_to_gguf.py)"),
                          scenario->lora_ranks[i]);
  return path;
}

/* The projector of a catalog model: a placeholder for its mmproj file. */
static char *
mmproj_placeholder (HrCommand        *command,
                    const HrScenario *scenario)
{
  g_autofree char *name = hr_command_safe_name (hr_model_spec_get_name (scenario->model), FALSE);
  char *path = g_strdup_printf ("./mmproj-%s-F16.gguf", name);

  /* TRANSLATORS: what to put in place of a placeholder in a command */
  hr_command_placeholder (command, path, _("the path of the model's vision projector "
                                           "(mmproj) GGUF file"));
  return path;
}

static char *
gpu_order (const HrScenario *scenario)
{
  GString *out = g_string_new (NULL);

  for (guint d = 0; d < MIN (scenario->gpus, HR_MAX_DEVICES); d++)
    g_string_append_printf (out, "%s%u %s", d > 0 ? ", " : "", d,
                            hr_hardware_get_name (hr_scenario_gpu (scenario, d)));
  return g_string_free (out, FALSE);
}

gboolean
hr_command_build_llamacpp (HrCommand         *command,
                           const HrScenario  *scenario,
                           const HrEstimate  *e,
                           GError           **error)
{
  const HrPlacementOptions *p = &scenario->placement;
  const char *cache = cache_type (scenario);
  guint64 trained = hr_model_spec_get_arch (scenario->model)->max_context;
  g_autofree char *path = NULL;
  HrCommandLine *run;

  if (cache == NULL)
    {
      g_set_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN,
                   "llama.cpp has no %s KV cache (f16, bf16, q8_0 and q4_0 are its types)",
                   hr_kv_type_get_label (scenario->kv_type));
      return FALSE;
    }

  /* TRANSLATORS: a note above a llama-server command; %s is a build, "b7553" */
  hr_command_note (command, _("llama.cpp %s or later (llama-server)"),
                   HR_COMMAND_LLAMACPP_MIN_BUILD);
  /* The flags are the same for every build; which build runs them is not. */
  if (scenario->options.backend_set)
    /* TRANSLATORS: a note above a llama-server command; %s is "ROCm", "Vulkan", "CUDA"… */
    hr_command_note (command, _("Use llama.cpp's %s build"),
                     hr_backend_label (scenario->options.backend));
  path = hr_command_gguf_file (command, scenario, error);
  if (path == NULL)
    return FALSE;
  if (e->placement == HR_PLACEMENT_PARTIAL || e->placement == HR_PLACEMENT_CPU)
    {
      g_autofree char *ram = hr_format_size (e->host_bytes, HR_UNITS_BINARY);

      /* TRANSLATORS: "28 of 65 layers on the GPU; 11.2 GiB stay in system memory" */
      hr_command_note (command, _("%u of %u layers on the GPU; %s stay in system memory"),
                       e->gpu_layers, e->layer_count, ram);
    }

  if (scenario->context > trained)
    {
      g_autofree char *text = hr_format_tokens (trained);

      /* TRANSLATORS: %s is the model's trained context, "32,768" */
      hr_command_note (command, _("The context is longer than the %s tokens the model was "
                                  "trained for: llama-server caps each slot at %s"),
                       text, text);
    }

  run = hr_command_run_line (command, "llama-server");
  hr_command_arg (run, "--model", path);
  /* --ctx-size is shared by the slots: each of --parallel N gets 1/N. */
  hr_command_arg_uint (run, "--ctx-size", scenario->context * scenario->batch);
  hr_command_arg_uint (run, "--parallel", scenario->batch);
  /* The layers Headroom placed: given them, --fit leaves them be. */
  hr_command_arg_uint (run, "--n-gpu-layers", e->gpu_layers);
  if (scenario->gpus > 1)
    {
      HrSplitMode mode = p->split_mode == HR_SPLIT_DEFAULT ? HR_SPLIT_LAYER : p->split_mode;

      hr_command_arg (run, "--split-mode", mode == HR_SPLIT_ROW ? "row"
                                  : mode == HR_SPLIT_NONE ? "none" : "layer");
      if (mode == HR_SPLIT_ROW)
        /* TRANSLATORS: about llama.cpp's row split mode */
        hr_command_note (command, _("Row split is deprecated: llama.cpp b9890 removed it from "
                                    "CUDA; it runs with SYCL or older builds"));
      /* The split Headroom planned, pinned: one the user gave, or over
       * GPUs of different kinds or with memory kept for others, whose
       * shares llama.cpp would otherwise take from the free memory it
       * finds at load. */
      if (mode != HR_SPLIT_NONE &&
          (p->n_tensor_split > 0 ||
           (mode == HR_SPLIT_LAYER && planned_split (scenario))))
        {
          g_autofree char *split = tensor_split_text (e);

          hr_command_arg (run, "--tensor-split", split);
        }
      if (scenario->devices[0] != NULL)
        {
          g_autofree char *order = gpu_order (scenario);

          /* TRANSLATORS: %s lists the GPUs, "0 RTX 3090 24GB, 1 RTX 3060 12GB" */
          hr_command_note (command, _("The GPUs in llama.cpp's order (CUDA_DEVICE_ORDER=PCI_BUS_ID "
                                      "keeps it fixed): %s"), order);
        }
    }
  if (p->n_cpu_moe > 0)
    hr_command_arg_uint (run, "--n-cpu-moe", p->n_cpu_moe);
  /* The vision projector: the file given, or the model's mmproj GGUF. */
  if (scenario->mmproj_weights_bytes > 0)
    {
      g_autofree char *mmproj = scenario->mmproj_path != NULL
                                ? g_canonicalize_filename (scenario->mmproj_path, NULL)
                                : mmproj_placeholder (command, scenario);

      hr_command_arg (run, "--mmproj", mmproj);
    }
  /* The draft model, all its layers on the GPUs, and the draft length
   * the speed-up was computed for. */
  if (scenario->draft_model != NULL)
    {
      HrScenario draft = *scenario;
      g_autofree char *model = NULL;

      draft.model = scenario->draft_model;
      draft.precision = scenario->draft_precision;
      model = hr_command_gguf_file (command, &draft, error);
      if (model == NULL)
        return FALSE;
      hr_command_arg (run, "--model-draft", model);
      hr_command_arg_uint (run, "--gpu-layers-draft",
                           hr_model_spec_get_arch (scenario->draft_model)->n_layers + 1);
      hr_command_arg_uint (run, "--draft-max", MAX (e->draft_max, 1));
      if (e->speculative_speedup < 1)
        /* TRANSLATORS: a note above a llama-server command; %.2f is the speed-up, "0.85" */
        hr_command_note (command, _("Speculation makes decoding slower here (×%.2f): drop "
                                    "--model-draft"), e->speculative_speedup);
    }
  /* LoRA adapters, each applied at scale 1 */
  for (guint32 i = 0; i < MIN (scenario->n_lora, HR_LORA_MAX); i++)
    {
      g_autofree char *lora = hr_command_lora_path (command, scenario, i);

      hr_command_arg (run, "--lora", lora);
    }
  /* the cache in system RAM, and the prompt cache's limit (in MiB) */
  if (scenario->kv_on_host)
    hr_command_arg (run, "--no-kv-offload", NULL);
  if (scenario->cache_ram_bytes > 0)
    hr_command_arg_uint (run, "--cache-ram", scenario->cache_ram_bytes / (guint64) HR_MIB);
  hr_command_arg (run, "--flash-attn", e->flash_attn ? "on" : "off");
  if (g_strcmp0 (cache, "f16") != 0)
    {
      hr_command_arg (run, "--cache-type-k", cache);
      hr_command_arg (run, "--cache-type-v", cache);
    }
  if (scenario->options.ubatch > 0)
    hr_command_arg_uint (run, "--ubatch-size", scenario->options.ubatch);
  hr_command_arg (run, "--host", "127.0.0.1");
  hr_command_arg_uint (run, "--port", HR_LLAMACPP_DEFAULT_PORT);
  return TRUE;
}
