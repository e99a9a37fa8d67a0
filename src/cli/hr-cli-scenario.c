/* hr-cli-scenario.c — the options of a command made an HrScenario
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include <math.h>
#include <string.h>

#include "hr-cli-common.h"
#include "hr-cli-log.h"
#include "hr-calculator.h"
#include "hr-defaults.h"
#include "hr-local-device.h"
#include "hr-model-import.h"
#include "hr-units.h"
#include "hr-vllm-memory.h"
#include "hr-extras.h"
#include "hr-vision.h"
#include "hr-gguf.h"

/* Plausibility limits of the decimal options (issue 28, item 8): a value
 * past them is a typo or a probe, not a machine, and would otherwise give
 * an estimate (1e-300 GiB of RAM rounds to 0 bytes, which the scenario
 * reads as "the stated assumption", silently).
 *
 * The least system RAM: 256 MiB.  Less than any machine that runs an
 * operating system and an inference engine beside a model (the smallest
 * single-board computers that run llama.cpp have 512 MiB). */
#define RAM_MIN_GIB 0.25
/* The most: 1 PiB, past the largest single machine sold. */
#define RAM_MAX_GIB ((double) (1 << 20))
/* The slowest system memory: 1 GB/s, below one channel of DDR-200
 * (1.6 GB/s), the oldest memory a model could still run from. */
#define RAM_BANDWIDTH_MIN_GBPS 1.0
/* The fastest: 1,000,000 GB/s, two orders past any HBM stack today. */
#define RAM_BANDWIDTH_MAX_GBPS 1e6
/* The slowest answer a user can ask for: one token every 100 seconds;
 * below it a target means nothing to the serving plan. */
#define TARGET_MIN_TOKENS_PER_S 0.01
/* The fastest: a million tokens a second for one user. */
#define TARGET_MAX_TOKENS_PER_S 1e6
/* Prices (--price-kwh, --price-per-hour), in any currency: a millionth
 * of a unit up to a million units per kWh or per hour, past which the
 * figure is a typo. */
#define PRICE_MIN 1e-6
#define PRICE_MAX 1e6
/* The largest llama.cpp --ubatch accepted (it takes any power of two,
 * 65,536 is past every value in use). */
#define UBATCH_MAX (1 << 16)
/* llama.cpp's default physical batch. */
#define UBATCH_DEFAULT 512

/* ---------------------------------------------------------- resolving */

static gboolean
looks_like_file (const char *arg)
{
  return g_str_has_suffix (arg, ".gguf") || g_str_has_suffix (arg, ".json") ||
         g_file_test (arg, G_FILE_TEST_EXISTS);
}

/* A hub id not in the catalog: from the cache, or with --online from the
 * hub (docs/CLI.md "Additions": the hub). */
static gboolean
resolve_hub_model (HrCliOptions   *o,
                   const HrHubRef *ref)
{
  g_autoptr(GError) error = NULL;
  HrHubMode mode = o->online ? HR_HUB_ONLINE : HR_HUB_CACHE_ONLY;

  o->imported = hr_model_import_hub (ref, mode, NULL, NULL, &error);
  if (o->imported == NULL)
    {
      if (g_error_matches (error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_CACHED) && !o->offline)
        return hr_cli_usage_error ("unknown model “%s”: it is not in the catalog; add --online to look it up on the hub",
                                   o->model), FALSE;
      if (g_error_matches (error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_CACHED) ||
          g_error_matches (error, HR_HUB_ERROR, HR_HUB_ERROR_CHOOSE) ||
          g_error_matches (error, HR_HUB_ERROR, HR_HUB_ERROR_NOT_FOUND))
        return hr_cli_usage_error ("%s", error->message), FALSE;
      return hr_cli_fail (HR_CLI_EXIT_FILE, "%s", error->message), FALSE;
    }
  o->scenario.model = o->imported;
  o->source_kind = "hub";
  o->hub_repo = g_strdup (ref->repo);
  o->hub_revision = g_strdup (ref->revision);
  return TRUE;
}

static gboolean
resolve_model (HrCliOptions *o)
{
  g_autoptr(GError) error = NULL;
  g_auto(HrHubRef) ref = { NULL };

  if (o->model == NULL)
    return hr_cli_usage_error ("--model is required"), FALSE;
  if (o->online && o->offline)
    return hr_cli_usage_error ("--online and --offline cannot be given together"), FALSE;

  o->source_kind = "catalog";
  o->scenario.model = hr_catalog_find_model (o->catalog, o->model);
  if (o->scenario.model != NULL)
    return TRUE;

  if ((g_str_has_prefix (o->model, "hf:") || g_str_has_prefix (o->model, "https://") ||
       !looks_like_file (o->model)) && hr_hub_ref_parse (o->model, &ref))
    return resolve_hub_model (o, &ref);

  if (!looks_like_file (o->model))
    return hr_cli_usage_error ("unknown model “%s” (see headroom-cli models)", o->model), FALSE;

  o->imported = hr_model_import_file (o->model, &error);
  if (o->imported == NULL)
    return hr_cli_file_error (error->message), FALSE;
  o->scenario.model = o->imported;
  o->source_kind = "file";
  return TRUE;
}

/* An optional whole-number option: absent leaves @value at @fallback. */
gboolean
hr_cli_parse_count (const char *option,
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
    return hr_cli_usage_error ("%s: “%s” is not a whole number", option, text), FALSE;
  if (parsed < min || parsed > max)
    return hr_cli_usage_error ("%s %" G_GINT64_FORMAT " is out of range (%" G_GINT64_FORMAT
                               "–%" G_GINT64_FORMAT ")", option, parsed, min, max), FALSE;
  *value = parsed;
  return TRUE;
}

/* A decimal number of @option ("3.5") within [@min, @max], or FALSE
 * after reporting. */
static gboolean
parse_number (const char *option,
              const char *text,
              double      min,
              double      max,
              double     *value)
{
  char *end = NULL;
  double parsed = g_ascii_strtod (text, &end);

  if (end == text || *end != '\0' || !(parsed > 0) || !isfinite (parsed) || parsed > max)
    return hr_cli_usage_error ("%s must be a positive number up to %g, not “%s”", option, max,
                               text), FALSE;
  if (parsed < min)
    return hr_cli_usage_error ("%s must be at least %g, not “%s”", option, min, text), FALSE;
  *value = parsed;
  return TRUE;
}

gboolean
hr_cli_parse_decimal (const char *option,
                      const char *text,
                      double      min,
                      double      max,
                      double     *value)
{
  return parse_number (option, text, min, max, value);
}

/* --ram GIB into the scenario's system memory. */
gboolean
hr_cli_parse_ram (HrCliOptions *o)
{
  double gib;

  if (o->ram_arg == NULL)
    return TRUE;
  if (!parse_number ("--ram", o->ram_arg, RAM_MIN_GIB, RAM_MAX_GIB, &gib))
    return FALSE;
  o->scenario.ram.bytes = (guint64) (gib * HR_GIB);
  return TRUE;
}

/* --price-kwh X or --price-per-hour X (docs/CLI.md "Additions", quality
 * and cost): one of them, a positive number up to PRICE_MAX. */
gboolean
hr_cli_parse_price (HrCliOptions *o)
{
  o->price = (HrPrice) { 0 };
  if (o->price_kwh_arg != NULL && o->price_per_hour_arg != NULL)
    return hr_cli_usage_error ("--price-kwh and --price-per-hour exclude each other (a rental "
                               "price already pays for the power)"), FALSE;
  if (o->price_kwh_arg != NULL &&
      !parse_number ("--price-kwh", o->price_kwh_arg, PRICE_MIN, PRICE_MAX, &o->price.per_kwh))
    return FALSE;
  if (o->price_per_hour_arg != NULL &&
      !parse_number ("--price-per-hour", o->price_per_hour_arg, PRICE_MIN, PRICE_MAX,
                     &o->price.per_hour))
    return FALSE;
  return TRUE;
}

/* --gpu-layers, --split-mode, --tensor-split, --n-cpu-moe, --ram and
 * --ram-bandwidth (llama.cpp and Ollama placement; docs/CLI.md "Additions"). */
static gboolean
parse_placement (HrCliOptions *o)
{
  HrPlacementOptions *p = &o->scenario.placement;

  if (o->gpu_layers_arg != NULL && g_strcmp0 (o->gpu_layers_arg, "auto") != 0)
    {
      gint64 layers;

      if (!hr_cli_parse_count ("--gpu-layers", o->gpu_layers_arg, 0, HR_LAYERS_MAX + 1, 0,
                               &layers))
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
        return hr_cli_usage_error ("--split-mode must be layer, row or none, not “%s”",
                                   o->split_mode_arg), FALSE;
    }

  if (o->tensor_split_arg != NULL)
    {
      g_auto(GStrv) parts = g_strsplit_set (o->tensor_split_arg, ",/", -1);
      guint n = g_strv_length (parts);

      if (n == 0 || n > HR_MAX_DEVICES)
        return hr_cli_usage_error ("--tensor-split takes 1 to %d shares, not “%s”",
                                   HR_MAX_DEVICES, o->tensor_split_arg), FALSE;
      for (guint i = 0; i < n; i++)
        {
          char *end = NULL;
          double share = g_ascii_strtod (parts[i], &end);

          if (end == parts[i] || *end != '\0' || !(share >= 0) || !isfinite (share))
            return hr_cli_usage_error ("--tensor-split: “%s” is not a share (a number ≥ 0)",
                                       parts[i]), FALSE;
          p->tensor_split[i] = share;
        }
      p->n_tensor_split = n;
    }

  if (o->n_cpu_moe_arg != NULL)
    {
      gint64 layers;

      if (!hr_cli_parse_count ("--n-cpu-moe", o->n_cpu_moe_arg, 0, HR_LAYERS_MAX, 0, &layers))
        return FALSE;
      p->n_cpu_moe = (guint32) layers;
    }

  if (!hr_cli_parse_ram (o))
    return FALSE;
  if (o->ram_bandwidth_arg != NULL &&
      !parse_number ("--ram-bandwidth", o->ram_bandwidth_arg, RAM_BANDWIDTH_MIN_GBPS,
                     RAM_BANDWIDTH_MAX_GBPS, &o->scenario.ram.bandwidth_gbps))
    return FALSE;

  return TRUE;
}

/* --prompt-tokens and --generate (docs/CLI.md "Additions", speed), --users and
 * --target-tokens-per-s (serving). */
static gboolean
parse_speed (HrCliOptions *o)
{
  gint64 prompt, generate, users;

  if (!hr_cli_parse_count ("--prompt-tokens", o->prompt_tokens_arg, 1, HR_CONTEXT_MAX, 0,
                           &prompt) ||
      !hr_cli_parse_count ("--generate", o->generate_arg, 1, HR_CONTEXT_MAX, 0, &generate))
    return FALSE;
  o->scenario.prompt_tokens = (guint64) prompt;
  o->scenario.generate_tokens = (guint64) generate;
  if (o->depth_arg != NULL)
    {
      gint64 depth;

      /* 0 is llama-bench's -d 0: an empty cache, the default */
      if (!hr_cli_parse_count ("--depth", o->depth_arg, 0, HR_CONTEXT_MAX - 1, 0, &depth))
        return FALSE;
      if ((guint64) depth >= o->scenario.context)
        return hr_cli_usage_error ("--depth %" G_GINT64_FORMAT " leaves no room for a prompt "
                                   "in --context %" G_GUINT64_FORMAT, depth,
                                   o->scenario.context), FALSE;
      if (prompt > 0 && (guint64) (depth + prompt) > o->scenario.context)
        return hr_cli_usage_error ("--depth %" G_GINT64_FORMAT " + --prompt-tokens %"
                                   G_GINT64_FORMAT " is more than --context %" G_GUINT64_FORMAT,
                                   depth, prompt, o->scenario.context), FALSE;
      o->scenario.depth = (guint64) depth;
    }
  if (!hr_cli_parse_count ("--users", o->users_arg, 1, HR_USERS_MAX, 0, &users))
    return FALSE;
  o->scenario.users = (guint32) users;
  if (o->target_arg != NULL &&
      !parse_number ("--target-tokens-per-s", o->target_arg, TARGET_MIN_TOKENS_PER_S,
                     TARGET_MAX_TOKENS_PER_S, &o->scenario.target_tokens_per_s))
    return FALSE;
  return TRUE;
}

/* --backend (docs/CLI.md "Additions", speed): a build of llama.cpp the
 * device runs; --backend and --depth only where llama.cpp or Ollama runs. */
static gboolean
parse_backend (HrCliOptions *o)
{
  HrEngine engine = hr_scenario_engine (&o->scenario);
  gboolean llamacpp = engine == HR_ENGINE_LLAMACPP || engine == HR_ENGINE_OLLAMA;
  const HrDevice *device = hr_hardware_get_device (o->scenario.hardware);
  HrBackend backend;

  if (o->depth_arg != NULL && !llamacpp)
    return hr_cli_usage_error ("--depth is for llama.cpp and Ollama, not %s",
                               hr_engine_to_string (engine)), FALSE;
  if (o->backend_arg == NULL)
    return TRUE;
  if (!hr_backend_from_string (o->backend_arg, &backend))
    return hr_cli_usage_error ("--backend must be cuda, rocm, vulkan, metal, sycl or cpu, "
                               "not “%s”", o->backend_arg), FALSE;
  if (!llamacpp)
    return hr_cli_usage_error ("--backend is for llama.cpp and Ollama, not %s",
                               hr_engine_to_string (engine)), FALSE;
  if (!hr_device_backend_possible (device, backend))
    return hr_cli_usage_error ("--backend %s: %s runs %s%s or cpu, not %s",
                               o->backend_arg, hr_hardware_get_name (o->scenario.hardware),
                               hr_backend_to_string (hr_device_backend (device)),
                               device->family == HR_FAMILY_APPLE_SILICON ? "" : ", vulkan",
                               o->backend_arg), FALSE;
  if (engine == HR_ENGINE_OLLAMA && backend == HR_BACKEND_SYCL)
    return hr_cli_usage_error ("--backend sycl: Ollama has no SYCL build (vulkan runs "
                               "Intel GPUs)"), FALSE;
  o->scenario.options.backend_set = TRUE;
  o->scenario.options.backend = backend;
  return TRUE;
}

/* --cpu ID|local (docs/CLI.md "Additions", the whole machine): a catalog
 * entry, or this computer's — the catalog's entry of the detected name,
 * else one made of the detected cores, SIMD flags, base clock and RAM. */
static gboolean
parse_cpu (HrCliOptions *o)
{
  g_autoptr(HrSystemInfo) info = NULL;
  const char *simd;

  if (o->cpu_arg == NULL)
    return TRUE;
  if (g_ascii_strcasecmp (o->cpu_arg, HR_LOCAL_HARDWARE_ARGUMENT) != 0)
    {
      o->scenario.cpu = hr_catalog_find_cpu (o->catalog, o->cpu_arg);
      if (o->scenario.cpu == NULL)
        return hr_cli_usage_error ("unknown CPU “%s” (see headroom-cli cpus)", o->cpu_arg),
               FALSE;
      return TRUE;
    }
  info = hr_detect_system (NULL, NULL);
  if (hr_system_info_get_cpu_cores (info) == 0)
    {
      hr_cli_fail (HR_CLI_EXIT_FILE, "--cpu local: /proc/cpuinfo could not be read "
                   "(see headroom-cli detect)");
      return FALSE;
    }
  o->scenario.cpu = hr_cpu_find_by_name (hr_catalog_get_cpus (o->catalog),
                                         hr_system_info_get_cpu_model (info));
  if (o->scenario.cpu != NULL)
    return TRUE;
  simd = hr_system_info_get_cpu_simd (info);
  o->local_cpu = hr_cpu_new_detected (hr_system_info_get_cpu_model (info),
                                      hr_system_info_get_cpu_cores (info),
                                      g_strcmp0 (simd, "none") == 0 || simd == NULL
                                      ? HR_CPU_FLOPS_PER_CYCLE_OTHER
                                      : HR_CPU_FLOPS_PER_CYCLE_AVX2,
                                      hr_system_info_get_cpu_base_ghz (info),
                                      hr_system_info_get_ram_bandwidth_gbps (info));
  o->scenario.cpu = o->local_cpu;
  return TRUE;
}

/* --vllm-version and the serving layout: --tp, --pp, --dp, --nodes,
 * --gpus-per-node (docs/CLI.md "Additions", serving).  Without --tp, a machine's
 * GPUs are one tensor-parallel group and machines are pipeline stages,
 * as vLLM's documentation recommends. */
static gboolean
parse_serving (HrCliOptions *o)
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
        return hr_cli_usage_error ("--vllm-version must be 0.21, 0.19 or 0.6, not “%s”",
                                   o->vllm_version_arg), FALSE;
    }

  if (!hr_cli_parse_count ("--tp", o->tp_arg, 1, HR_GPUS_MAX, 0, &tp) ||
      !hr_cli_parse_count ("--pp", o->pp_arg, 1, HR_LAYERS_MAX, 0, &pp) ||
      !hr_cli_parse_count ("--dp", o->dp_arg, 1, HR_GPUS_MAX, 0, &dp) ||
      !hr_cli_parse_count ("--nodes", o->nodes_arg, 1, HR_GPUS_MAX, 0, &nodes) ||
      !hr_cli_parse_count ("--gpus-per-node", o->gpus_per_node_arg, 1, HR_GPUS_MAX, 0,
                           &per_node))
    return FALSE;
  o->gpus_per_node = (guint32) per_node;
  if (tp == 0 && pp == 0 && dp == 0 && nodes == 0 && per_node == 0)
    return TRUE;

  if (nodes > 0 && per_node > 0 && tp == 0 && pp == 0)
    {
      tp = per_node;
      pp = nodes / MAX (dp, 1) > 0 ? nodes / MAX (dp, 1) : 1;
    }
  if (tp == 0 && o->hardware_list && o->scenario.gpus % (MAX (pp, 1) * MAX (dp, 1)) == 0)
    tp = o->scenario.gpus / (MAX (pp, 1) * MAX (dp, 1));
  l->tp = tp > 0 ? tp : (guint32) (o->gpus_arg ? o->scenario.gpus : (per_node > 0 ? per_node : 1));
  l->pp = pp > 0 ? pp : 1;
  l->dp = dp > 0 ? dp : 1;
  l->nodes = nodes > 0 ? nodes : 1;
  if ((gint64) l->tp * l->pp * l->dp > HR_GPUS_MAX)
    return hr_cli_usage_error ("--tp × --pp × --dp is more than %d GPUs", HR_GPUS_MAX), FALSE;
  if (per_node > 0 && (gint64) l->tp * l->pp * l->dp != per_node * l->nodes)
    return hr_cli_usage_error ("--tp %u × --pp %u × --dp %u does not make %u machines of %"
                               G_GINT64_FORMAT " GPUs", l->tp, l->pp, l->dp, l->nodes,
                               per_node), FALSE;
  o->scenario.gpus = l->tp * l->pp * l->dp;
  return TRUE;
}

/* --hardware local: the first detected GPU, or the unified-memory machine.
 * A device made of the detected figures is added to the catalog so that
 * the hardware table has its row. */
static GListModel *
add_detected_devices (HrCliOptions *o)
{
  g_autoptr(HrSystemInfo) info = hr_detect_system (NULL, NULL);
  GListModel *devices = hr_local_devices_new (o->catalog, info);

  /* A vendor library that crashed or hung: said once, and what sysfs
   * found is still used. */
  if (hr_system_info_get_gpu_failure (info) != NULL)
    hr_cli_print_line ("headroom-cli: warning: ", hr_system_info_get_gpu_failure (info));

  hr_local_devices_add_to_catalog (devices, o->catalog);
  return devices;
}

static gboolean
resolve_local_hardware (HrCliOptions *o)
{
  g_autoptr(GListModel) devices = add_detected_devices (o);
  HrLocalDevice *picked = hr_local_devices_pick (devices);

  if (picked == NULL)
    {
      hr_cli_fail (HR_CLI_EXIT_FILE, "--hardware local: no GPU or unified-memory machine "
                   "was detected on this computer (see headroom-cli detect)");
      return FALSE;
    }
  o->scenario.hardware = hr_local_device_get_hardware (picked);
  /* what is in use now stays in use: the detected free memory is what
   * the model can have (a --reserve replaces it) */
  if (hr_local_device_get_free_known (picked))
    {
      guint64 memory = hr_hardware_get_device (o->scenario.hardware)->memory_bytes;
      guint64 free = MIN (hr_local_device_get_free_bytes (picked), memory);

      o->local_reserve_bytes = memory - free;
      o->local_reserve_known = TRUE;
    }
  return TRUE;
}

/* --hardware ID[:N][,ID[:N]…] (docs/CLI.md "Additions"): GPUs of
 * different kinds, in the order llama.cpp numbers them. */
static gboolean
resolve_hardware_list (HrCliOptions *o)
{
  g_auto(GStrv) entries = g_strsplit (o->hardware, ",", -1);
  guint32 n = 0;

  if (!o->accepts_device_list)
    return hr_cli_usage_error ("a list of devices (--hardware ID:N,ID:N) is for estimate and "
                               "command; this command plans one kind of device"), FALSE;
  if (o->gpus_arg != NULL)
    return hr_cli_usage_error ("--gpus and a list of devices cannot be given together: "
                               "the list counts the GPUs (--hardware ID:N,ID:N)"), FALSE;
  memset (o->scenario.devices, 0, sizeof o->scenario.devices);
  for (guint i = 0; entries[i] != NULL; i++)
    {
      g_auto(GStrv) parts = g_strsplit (g_strstrip (entries[i]), ":", 2);
      HrHardware *hw;
      gint64 count = 1;

      if (parts[0] == NULL || *parts[0] == '\0')
        return hr_cli_usage_error ("--hardware “%s”: an empty device in the list",
                                   o->hardware), FALSE;
      if (g_ascii_strcasecmp (parts[0], HR_LOCAL_HARDWARE_ARGUMENT) == 0)
        return hr_cli_usage_error ("--hardware local stands alone: a list names catalog "
                                   "devices (see headroom-cli detect for their ids)"), FALSE;
      hw = hr_catalog_find_hardware (o->catalog, parts[0]);
      if (hw == NULL &&
          g_ascii_strncasecmp (parts[0], HR_LOCAL_DEVICE_ID, strlen (HR_LOCAL_DEVICE_ID)) == 0)
        {
          g_autoptr(GListModel) devices = add_detected_devices (o);

          hw = hr_catalog_find_hardware (o->catalog, parts[0]);
        }
      if (hw == NULL)
        return hr_cli_usage_error ("unknown hardware “%s” (see headroom-cli devices)",
                                   parts[0]), FALSE;
      if (parts[1] != NULL &&
          !hr_cli_parse_count ("--hardware's count", parts[1], 1, HR_MAX_DEVICES, 1, &count))
        return FALSE;
      if (n + count > HR_MAX_DEVICES)
        return hr_cli_usage_error ("--hardware “%s”: a list holds at most %d GPUs, as "
                                   "llama.cpp counts them", o->hardware, HR_MAX_DEVICES), FALSE;
      for (gint64 k = 0; k < count; k++)
        o->scenario.devices[n++] = hw;
    }
  o->scenario.hardware = o->scenario.devices[0];
  o->scenario.gpus = n;
  o->hardware_list = TRUE;
  return TRUE;
}

/* --reserve GIB[,GIB…]: what each GPU keeps for the desktop and other
 * processes; one value for every GPU, or one per GPU.  Without it,
 * --hardware local keeps what is in use now (the detected free memory)
 * and a catalog device its kind's default (hr_device_usable_bytes). */
static gboolean
parse_reserve (HrCliOptions *o)
{
  g_auto(GStrv) parts = NULL;
  guint n;

  if (o->reserve_arg == NULL)
    return TRUE;
  parts = g_strsplit (o->reserve_arg, ",", -1);
  n = g_strv_length (parts);
  if (n != 1 && n != MIN (o->scenario.gpus, HR_MAX_DEVICES))
    return hr_cli_usage_error ("--reserve takes one value or one per GPU (%u), not %u",
                               o->scenario.gpus, n), FALSE;
  for (guint32 d = 0; d < MIN (o->scenario.gpus, HR_MAX_DEVICES); d++)
    {
      const char *text = g_strstrip (parts[n == 1 ? 0 : d]);
      HrHardware *hw = hr_scenario_gpu (&o->scenario, d);
      char *end = NULL;
      double gib = g_ascii_strtod (text, &end);

      if (end == text || *end != '\0' || !(gib >= 0) || !isfinite (gib))
        return hr_cli_usage_error ("--reserve must be GiB ≥ 0, not “%s”", text), FALSE;
      if (gib * HR_GIB >= (double) hr_hardware_get_device (hw)->memory_bytes)
        return hr_cli_usage_error ("--reserve %s GiB leaves %s nothing of its %.2f GiB", text,
                                   hr_hardware_get_name (hw),
                                   hr_hardware_get_device (hw)->memory_bytes / HR_GIB), FALSE;
      o->scenario.reserve_set[d] = TRUE;
      o->scenario.reserve_bytes[d] = (guint64) llround (gib * HR_GIB);
    }
  return TRUE;
}

/* --mmproj FILE|auto and --images N: a vision projector's weights and
 * encoder buffer, from the file's tensors and clip.vision hparams, or
 * from the catalog model's vision config (resources/catalog/vision.json). */
static gboolean
parse_mmproj (HrCliOptions *o)
{
  HrScenario *s = &o->scenario;
  HrVisionConfig v = { 0 };
  gint64 images;

  if (o->mmproj_arg == NULL)
    return o->images_arg == NULL ||
           (hr_cli_usage_error ("--images is for a vision projector: add --mmproj FILE|auto"),
            FALSE);
  if (!hr_cli_parse_count ("--images", o->images_arg, 1, HR_BATCH_MAX, 1, &images))
    return FALSE;

  if (g_strcmp0 (o->mmproj_arg, "auto") == 0)
    {
      if (!hr_vision_find (hr_model_spec_get_id (s->model), &v))
        return hr_cli_usage_error ("--mmproj auto: the catalog has no vision encoder for %s; "
                                   "give its mmproj GGUF file", hr_model_spec_get_id (s->model)),
               FALSE;
      s->mmproj_weights_bytes = hr_mmproj_weights_bytes (&v);
    }
  else
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HrGguf) gguf = hr_gguf_open (o->mmproj_arg, &error);
      guint64 value, merge = 1;

      if (gguf == NULL)
        return hr_cli_fail (HR_CLI_EXIT_FILE, "%s: %s", o->mmproj_arg, error->message), FALSE;
      if (g_strcmp0 (hr_gguf_get_architecture (gguf), "clip") != 0)
        return hr_cli_usage_error ("--mmproj %s is a “%s” file, not a vision projector (clip)",
                                   o->mmproj_arg, hr_gguf_get_architecture (gguf)), FALSE;
#define CLIP_UINT(key, field) \
      if (hr_gguf_get_uint (gguf, "clip.vision." key, &value) && value <= G_MAXUINT32) \
        v.field = (guint32) value
      CLIP_UINT ("embedding_length", hidden);
      CLIP_UINT ("feed_forward_length", intermediate);
      CLIP_UINT ("block_count", layers);
      CLIP_UINT ("attention.head_count", heads);
      CLIP_UINT ("image_size", image_size);
      CLIP_UINT ("patch_size", patch_size);
#undef CLIP_UINT
      /* patches merged into one token (Gemma 3: 4 × 4) */
      if (hr_gguf_get_uint (gguf, "clip.vision.projector.scale_factor", &value) && value > 0 &&
          value <= 64)
        merge = value;
      if (v.hidden == 0 || v.intermediate == 0 || v.patch_size == 0 ||
          v.image_size < v.patch_size)
        return hr_cli_fail (HR_CLI_EXIT_FILE, "%s: the vision projector lacks its "
                            "clip.vision sizes", o->mmproj_arg), FALSE;
      v.tokens_per_image = MAX (1, (guint32) ((v.image_size / v.patch_size) *
                                              (v.image_size / v.patch_size) / (merge * merge)));
      s->mmproj_weights_bytes = hr_gguf_get_weights_bytes (gguf);
      s->mmproj_path = o->mmproj_arg;
    }
  s->mmproj_compute_bytes = hr_mmproj_compute_bytes (&v);
  s->tokens_per_image = v.tokens_per_image;
  s->images = (guint32) images;
  return TRUE;
}

/* --draft MODEL --draft-precision P [--draft-max N] [--acceptance R]. */
static gboolean
parse_draft (HrCliOptions *o)
{
  HrScenario *s = &o->scenario;
  gint64 max;

  if (o->draft_arg == NULL)
    {
      if (o->draft_precision_arg != NULL || o->draft_max_arg != NULL ||
          o->acceptance_arg != NULL)
        return hr_cli_usage_error ("--draft-precision, --draft-max and --acceptance are for "
                                   "a draft model: add --draft MODEL"), FALSE;
      return TRUE;
    }
  s->draft_model = hr_catalog_find_model (o->catalog, o->draft_arg);
  if (s->draft_model == NULL)
    return hr_cli_usage_error ("unknown draft model “%s” (see headroom-cli models)",
                               o->draft_arg), FALSE;
  if (o->draft_precision_arg == NULL)
    return hr_cli_usage_error ("--draft-precision is required with --draft"), FALSE;
  s->draft_precision = hr_catalog_find_precision (o->catalog, o->draft_precision_arg);
  if (s->draft_precision == NULL)
    return hr_cli_usage_error ("unknown precision “%s” (see headroom-cli precisions)",
                               o->draft_precision_arg), FALSE;
  if (!hr_cli_parse_count ("--draft-max", o->draft_max_arg, 1, 128, 0, &max))
    return FALSE;
  s->draft_max = (guint32) max;
  if (o->acceptance_arg != NULL)
    {
      char *end = NULL;
      double r = g_ascii_strtod (o->acceptance_arg, &end);

      if (end == o->acceptance_arg || *end != '\0' || !(r > 0 && r < 1))
        return hr_cli_usage_error ("--acceptance must be in (0, 1), not “%s”",
                                   o->acceptance_arg), FALSE;
      s->acceptance = r;
    }
  return TRUE;
}

/* --lora FILE|RANK[,…]: each adapter a LoRA GGUF file (its tensors'
 * bytes; general.type "adapter", adapter.type "lora", as llama.cpp's
 * convert_lora_to_gguf.py writes it) or a rank. */
static gboolean
parse_lora (HrCliOptions *o)
{
  HrScenario *s = &o->scenario;
  g_auto(GStrv) items = NULL;

  if (o->lora_arg == NULL)
    return TRUE;
  items = g_strsplit (o->lora_arg, ",", -1);
  if (g_strv_length (items) > HR_LORA_MAX)
    return hr_cli_usage_error ("--lora takes at most %d adapters", HR_LORA_MAX), FALSE;
  for (guint i = 0; items[i] != NULL; i++)
    {
      const char *item = items[i];
      guint64 rank;

      if (*item == '\0')
        return hr_cli_usage_error ("--lora: an empty adapter in “%s”", o->lora_arg), FALSE;
      if (g_ascii_string_to_unsigned (item, 10, 1, HR_LORA_RANK_MAX, &rank, NULL))
        {
          s->lora_ranks[s->n_lora++] = (guint32) rank;
          continue;
        }
      if (g_ascii_isdigit (*item) && !g_file_test (item, G_FILE_TEST_EXISTS))
        return hr_cli_usage_error ("--lora: a rank is 1–%d, not “%s”", HR_LORA_RANK_MAX,
                                   item), FALSE;
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(HrGguf) gguf = hr_gguf_open (item, &error);

        if (gguf == NULL)
          return hr_cli_fail (HR_CLI_EXIT_FILE, "%s: %s", item, error->message), FALSE;
        if (g_strcmp0 (hr_gguf_get_string (gguf, "general.type"), "adapter") != 0 ||
            g_strcmp0 (hr_gguf_get_string (gguf, "adapter.type"), "lora") != 0)
          return hr_cli_usage_error ("--lora %s is not a LoRA adapter (its general.type is "
                                     "not “adapter” with adapter.type “lora”)", item), FALSE;
        s->lora_paths[s->n_lora] = item;
        s->lora_file_bytes[s->n_lora++] = hr_gguf_get_weights_bytes (gguf);
      }
    }
  /* the strings stay with the options (s->lora_paths borrows them) */
  o->lora_items = g_steal_pointer (&items);
  return TRUE;
}

/* --kv-offload on|off and --cache-ram GIB (llama-server).  A prompt
 * cache past 4 TiB is a typo, not a machine. */
#define HR_CACHE_RAM_MAX_GIB 4096

static gboolean
parse_host_memory (HrCliOptions *o)
{
  HrScenario *s = &o->scenario;

  if (o->kv_offload_arg != NULL)
    {
      if (g_strcmp0 (o->kv_offload_arg, "off") == 0)
        s->kv_on_host = TRUE;
      else if (g_strcmp0 (o->kv_offload_arg, "on") != 0)
        return hr_cli_usage_error ("--kv-offload must be “on” or “off”, not “%s”",
                                   o->kv_offload_arg), FALSE;
    }
  if (o->cache_ram_arg != NULL)
    {
      char *end = NULL;
      double gib = g_ascii_strtod (o->cache_ram_arg, &end);

      if (end == o->cache_ram_arg || *end != '\0' || !(gib > 0 && gib <= HR_CACHE_RAM_MAX_GIB))
        return hr_cli_usage_error ("--cache-ram must be a size in GiB in (0, %d], not “%s”",
                                   HR_CACHE_RAM_MAX_GIB, o->cache_ram_arg), FALSE;
      /* llama-server takes MiB */
      s->cache_ram_bytes = (guint64) llround (gib * 1024) * (guint64) HR_MIB;
    }
  return TRUE;
}

/* --hardware H (or the default) into the scenario's device; “local”:
 * this computer's. */
gboolean
hr_cli_resolve_hardware (HrCliOptions *o)
{
  const char *hardware = o->hardware ? o->hardware : HR_DEFAULT_HARDWARE;

  if (o->hardware != NULL && strpbrk (o->hardware, ",:") != NULL)
    return resolve_hardware_list (o);
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
    return hr_cli_usage_error ("unknown hardware “%s” (see headroom-cli devices)",
                               hardware), FALSE;

  return TRUE;
}

/**
 * hr_cli_resolve_scenario:
 * @with_precision: whether the command takes --precision (the matrix
 *   varies it)
 *
 * Fills the scenario from the options, with docs/CLI.md's defaults.  Options
 * the command does not take are NULL and give the defaults.
 */
gboolean
hr_cli_resolve_scenario (HrCliOptions *o,
                         gboolean      with_precision)
{
  const char *kv = o->kv_type ? o->kv_type : HR_DEFAULT_KV_TYPE;
  guint32 list_gpus;

  if (!hr_cli_no_arguments (o) || !resolve_model (o))
    return FALSE;

  if (with_precision)
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
        return hr_cli_usage_error ("--precision is required"), FALSE;
      if (o->scenario.precision == NULL)
        return hr_cli_usage_error ("unknown precision “%s” (see headroom-cli precisions)",
                                   o->precision), FALSE;
    }

  o->scenario.kv_type = hr_catalog_find_kv_type (o->catalog, kv);
  if (o->scenario.kv_type == NULL)
    return hr_cli_usage_error ("unknown KV cache type “%s” (fp16, bf16, fp8, q8_0, q4_0)",
                               kv), FALSE;

  if (!hr_cli_resolve_hardware (o))
    return FALSE;

  o->scenario.engine = HR_DEFAULT_ENGINE;
  if (o->engine != NULL && !hr_engine_from_string (o->engine, &o->scenario.engine))
    return hr_cli_usage_error ("unknown engine “%s” (auto, generic, llamacpp, ollama, vllm, "
                               "sglang)", o->engine), FALSE;

  {
    gint64 context, batch, gpus, ubatch, tokens;

    if (!hr_cli_parse_count ("--context", o->context_arg, HR_CONTEXT_MIN, HR_CONTEXT_MAX,
                             HR_DEFAULT_CONTEXT, &context) ||
        !hr_cli_parse_count ("--batch", o->batch_arg, 1, HR_BATCH_MAX, HR_DEFAULT_BATCH,
                             &batch) ||
        !hr_cli_parse_count ("--gpus", o->gpus_arg, 1, HR_GPUS_MAX,
                             o->hardware_list ? o->scenario.gpus : HR_DEFAULT_GPUS, &gpus) ||
        !hr_cli_parse_count ("--ubatch", o->ubatch_arg, 1, UBATCH_MAX, UBATCH_DEFAULT,
                             &ubatch) ||
        !hr_cli_parse_count ("--max-num-batched-tokens", o->max_num_batched_tokens_arg, 1,
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
    return hr_cli_usage_error ("--flash-attn must be on or off, not “%s”", o->flash_attn),
           FALSE;
  if (o->flash_attn != NULL)
    o->scenario.options.flash_attn = g_str_equal (o->flash_attn, "on") ? HR_FLASH_ATTN_ON
                                                                       : HR_FLASH_ATTN_OFF;
  if (o->gpu_memory_utilization_arg != NULL)
    {
      char *end = NULL;
      double f = g_ascii_strtod (o->gpu_memory_utilization_arg, &end);

      if (end == o->gpu_memory_utilization_arg || *end != '\0' || !(f > 0 && f <= 1))
        return hr_cli_usage_error ("--gpu-memory-utilization must be in (0, 1], not “%s”",
                                   o->gpu_memory_utilization_arg), FALSE;
      o->scenario.options.gpu_memory_utilization = f;
    }

  list_gpus = o->scenario.gpus;
  if (!parse_placement (o) || !parse_serving (o))
    return FALSE;
  if (o->hardware_list && o->scenario.gpus != list_gpus)
    return hr_cli_usage_error ("--hardware lists %u GPUs; --tp × --pp × --dp make %u",
                               list_gpus, o->scenario.gpus), FALSE;
  if (o->local_reserve_known && o->reserve_arg == NULL && o->accepts_device_list)
    for (guint32 d = 0; d < MIN (o->scenario.gpus, HR_MAX_DEVICES); d++)
      {
        o->scenario.reserve_set[d] = TRUE;
        o->scenario.reserve_bytes[d] = o->local_reserve_bytes;
      }
  if (!(parse_reserve (o) && parse_mmproj (o) && parse_draft (o) && parse_lora (o) &&
        parse_host_memory (o) && parse_speed (o) &&
         parse_backend (o) && parse_cpu (o) && hr_cli_parse_price (o)))
    return FALSE;
  /* speeds measured on this computer (headroom-cli calibrate), in every
   * estimate of a command that takes --no-calibration */
  if (o->takes_calibration && !o->no_calibration && o->calibration == NULL)
    o->calibration = hr_cli_load_calibration (o);
  o->scenario.calibration = o->calibration;
  return TRUE;
}

/* A calculator holding the options' scenario, for the list models of
 * matrix and hardware. */
HrCalculator *
hr_cli_calculator_for (HrCliOptions *o)
{
  HrCalculator *calc;

  /* The tables split the layers by free memory, as llama.cpp does by
   * default; a fixed split is one device's (estimate, command). */
  if (o->tensor_split_arg != NULL)
    return hr_cli_usage_error ("--tensor-split is for estimate and command: matrix and "
                               "hardware split the layers by free memory"), NULL;
  calc = hr_calculator_new (o->catalog);

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
  /* the placement options (llama.cpp, Ollama) and system memory: every
   * row of the table is placed as estimate would place it */
  hr_calculator_set_gpu_layers_auto (calc, !o->scenario.placement.gpu_layers_fixed);
  if (o->scenario.placement.gpu_layers_fixed)
    hr_calculator_set_gpu_layers (calc, o->scenario.placement.gpu_layers);
  hr_calculator_set_split_mode (calc, o->scenario.placement.split_mode);
  hr_calculator_set_n_cpu_moe (calc, o->scenario.placement.n_cpu_moe);
  hr_calculator_set_ram (calc, &o->scenario.ram);
  hr_calculator_set_calibration (calc, o->calibration);
  hr_calculator_thaw (calc);
  return calc;
}

