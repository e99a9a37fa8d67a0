/* hr-commands.c — launch commands for vLLM, llama.cpp and Ollama
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Only options the engines really have, checked against their docs:
 *  - vLLM `vllm serve`: --tensor-parallel-size, --max-model-len,
 *    --max-num-seqs, --gpu-memory-utilization, --kv-cache-dtype
 *    {auto,fp8,fp8_e4m3,fp8_e5m2}, --quantization, --dtype,
 *    --enable-prefix-caching, --port.
 *  - llama.cpp `llama-server`: -m, --ctx-size (total over all slots),
 *    --n-gpu-layers, --flash-attn, --cache-type-k/-v {f16,bf16,q8_0,q4_0,…},
 *    --parallel, --host, --port.
 *  - Ollama: a Modelfile with FROM and PARAMETER num_ctx; flash attention,
 *    the KV cache type and parallel requests are server environment
 *    variables (OLLAMA_FLASH_ATTENTION, OLLAMA_KV_CACHE_TYPE, which needs
 *    flash attention, OLLAMA_NUM_PARALLEL) — not Modelfile parameters, which
 *    is what the seed page got wrong.
 */

#define G_LOG_DOMAIN "hr-commands"

#include "config.h"

#include <string.h>

#include "hr-commands.h"

gboolean
hr_command_kind_from_string (const char    *str,
                             HrCommandKind *kind)
{
  if (g_strcmp0 (str, "vllm") == 0)
    *kind = HR_COMMAND_VLLM;
  else if (g_strcmp0 (str, "llamacpp") == 0)
    *kind = HR_COMMAND_LLAMACPP;
  else if (g_strcmp0 (str, "ollama") == 0)
    *kind = HR_COMMAND_OLLAMA;
  else
    return FALSE;
  return TRUE;
}

static const char *
kv_id (const HrScenario *scenario)
{
  return hr_kv_type_get_id (scenario->kv_type);
}

static const char *
precision_id (const HrScenario *scenario)
{
  return hr_precision_get_id (scenario->precision);
}

static gboolean
is_gguf (const HrScenario *scenario)
{
  return g_strcmp0 (hr_precision_get_kind (scenario->precision), "gguf") == 0;
}

/* @text as one shell word: as it is when it holds only characters no
 * shell interprets (every catalog id), else single-quoted.  Model names
 * and ids come from files ("evil/$(touch pwned)" is a valid
 * _name_or_path), and the user pastes these commands into a shell. */
static char *
shell_word (const char *text)
{
  static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                             "0123456789_-./:@%+=,";

  if (*text != '\0' && strspn (text, safe) == strlen (text))
    return g_strdup (text);
  return g_shell_quote (text);
}

/* A line continuation as shells want it. */
static void
arg (GString    *out,
     const char *format,
     ...) G_GNUC_PRINTF (2, 3);

static void
arg (GString    *out,
     const char *format,
     ...)
{
  va_list args;

  g_string_append (out, " \\\n  ");
  va_start (args, format);
  g_string_append_vprintf (out, format, args);
  va_end (args);
}

static char *
vllm_command (const HrScenario *scenario)
{
  GString *out = g_string_new (NULL);
  const char *kv = kv_id (scenario);
  const char *precision = precision_id (scenario);
  g_autofree char *model = NULL;
  char utilization[G_ASCII_DTOSTR_BUF_SIZE];

  if (is_gguf (scenario))
    g_string_append_printf (out, "# vLLM serves safetensors checkpoints; %s is a GGUF "
                            "type, better served by llama.cpp or Ollama.\n",
                            hr_precision_get_label (scenario->precision));
  if (g_strcmp0 (kv, "q8_0") == 0 || g_strcmp0 (kv, "q4_0") == 0)
    g_string_append_printf (out, "# vLLM has no %s KV cache; fp8 is its quantized "
                            "cache type.\n", hr_kv_type_get_label (scenario->kv_type));
  if (g_strcmp0 (precision, "awq-int4") == 0 || g_strcmp0 (precision, "gptq-int4") == 0)
    g_string_append (out, "# Use an AWQ/GPTQ checkpoint of this model: vLLM reads the "
                     "quantization from its config.\n");

  model = shell_word (hr_model_spec_get_id (scenario->model));
  g_string_append_printf (out, "vllm serve %s", model);
  arg (out, "--tensor-parallel-size %u", scenario->gpus);
  arg (out, "--max-model-len %" G_GUINT64_FORMAT, scenario->context);
  arg (out, "--max-num-seqs %u", scenario->batch);
  arg (out, "--gpu-memory-utilization %s",
       g_ascii_formatd (utilization, sizeof utilization, "%.2f",
                        scenario->options.gpu_memory_utilization > 0
                        ? scenario->options.gpu_memory_utilization
                        : HR_VLLM_DEFAULT_GPU_MEMORY_UTILIZATION));
  if (scenario->options.max_num_batched_tokens > 0)
    arg (out, "--max-num-batched-tokens %" G_GUINT64_FORMAT,
         scenario->options.max_num_batched_tokens);
  if (g_strcmp0 (precision, "fp8") == 0)
    arg (out, "--quantization fp8");
  else if (g_strcmp0 (precision, "fp16") == 0)
    arg (out, "--dtype float16");
  else if (g_strcmp0 (precision, "bf16") == 0)
    arg (out, "--dtype bfloat16");
  else if (g_strcmp0 (precision, "fp32") == 0)
    arg (out, "--dtype float32");
  if (g_strcmp0 (kv, "fp8") == 0)
    arg (out, "--kv-cache-dtype fp8");
  arg (out, "--enable-prefix-caching");
  arg (out, "--port %d", HR_VLLM_DEFAULT_PORT);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

/* llama.cpp's cache type names. */
static const char *
llamacpp_cache_type (const char *kv)
{
  if (g_strcmp0 (kv, "fp16") == 0)
    return "f16";
  if (g_strcmp0 (kv, "bf16") == 0)
    return "bf16";
  if (g_strcmp0 (kv, "q8_0") == 0 || g_strcmp0 (kv, "q4_0") == 0)
    return kv;
  return NULL;
}

static char *
gguf_file_name (const HrScenario *scenario)
{
  g_autofree char *label = g_strdup (hr_precision_get_label (scenario->precision));

  g_strdelimit (label, " /", '_');
  return g_strdup_printf ("%s-%s.gguf", hr_model_spec_get_name (scenario->model), label);
}

static char *
llamacpp_command (const HrScenario *scenario)
{
  GString *out = g_string_new (NULL);
  g_autofree char *file = gguf_file_name (scenario);
  g_autofree char *quoted_file = shell_word (file);
  const char *cache = llamacpp_cache_type (kv_id (scenario));
  guint layers = hr_model_spec_get_arch (scenario->model)->n_layers;

  if (!is_gguf (scenario) && g_strcmp0 (hr_precision_get_kind (scenario->precision),
                                        "float") != 0)
    g_string_append_printf (out, "# llama.cpp reads GGUF files; %s checkpoints need "
                            "vLLM.\n", hr_precision_get_label (scenario->precision));
  if (cache == NULL)
    g_string_append_printf (out, "# llama.cpp has no %s KV cache; using f16.\n",
                            hr_kv_type_get_label (scenario->kv_type));

  g_string_append_printf (out, "llama-server -m %s", quoted_file);
  /* --ctx-size is shared by all slots: each of --parallel N gets 1/N. */
  arg (out, "--ctx-size %" G_GUINT64_FORMAT, scenario->context * scenario->batch);
  /* Every repeating layer plus the output layer. */
  arg (out, "--n-gpu-layers %u", layers + 1);
  arg (out, "--flash-attn %s",
       scenario->options.flash_attn == HR_FLASH_ATTN_OFF ? "off" : "on");
  if (scenario->options.ubatch > 0)
    arg (out, "--ubatch-size %u", scenario->options.ubatch);
  arg (out, "--cache-type-k %s", cache ? cache : "f16");
  arg (out, "--cache-type-v %s", cache ? cache : "f16");
  arg (out, "--parallel %u", scenario->batch);
  arg (out, "--host 127.0.0.1");
  arg (out, "--port %d", HR_LLAMACPP_DEFAULT_PORT);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

/* Ollama's OLLAMA_KV_CACHE_TYPE values. */
static const char *
ollama_cache_type (const char *kv)
{
  if (g_strcmp0 (kv, "q8_0") == 0 || g_strcmp0 (kv, "q4_0") == 0)
    return kv;
  return "f16";
}

static char *
ollama_modelfile (const HrScenario *scenario)
{
  GString *out = g_string_new (NULL);
  const char *tag = hr_model_spec_get_ollama_tag (scenario->model);
  g_autofree char *name = g_ascii_strdown (hr_model_spec_get_name (scenario->model), -1);
  g_autofree char *file = gguf_file_name (scenario);
  g_autofree char *custom = NULL;
  g_autofree char *quoted_custom = NULL;

  g_strdelimit (name, " /.", '-');
  custom = g_strconcat (name, "-custom", NULL);
  quoted_custom = shell_word (custom);
  g_string_append_printf (out, "# Save as Modelfile, then run: ollama create %s "
                          "-f Modelfile\n", quoted_custom);
  if (tag != NULL)
    g_string_append_printf (out, "FROM %s\n", tag);
  else
    g_string_append_printf (out, "# This model has no Ollama library tag: import a "
                            "GGUF file.\nFROM ./%s\n", file);
  g_string_append_printf (out, "PARAMETER num_ctx %" G_GUINT64_FORMAT "\n",
                          scenario->context);
  g_string_append (out, "\n# Server environment for ollama serve (the KV cache type "
                   "needs flash attention):\n");
  g_string_append_printf (out, "# OLLAMA_NUM_PARALLEL=%u OLLAMA_FLASH_ATTENTION=1 "
                          "OLLAMA_KV_CACHE_TYPE=%s ollama serve\n",
                          scenario->batch, ollama_cache_type (kv_id (scenario)));
  return g_string_free (out, FALSE);
}

/**
 * hr_command_generate:
 *
 * Returns the command (or Modelfile) as text ending in a newline; lines
 * starting with '#' are notes for the user.
 */
char *
hr_command_generate (HrCommandKind     kind,
                     const HrScenario *scenario)
{
  g_return_val_if_fail (scenario != NULL, NULL);
  g_return_val_if_fail (scenario->model != NULL && scenario->precision != NULL &&
                        scenario->kv_type != NULL, NULL);

  switch (kind)
    {
    case HR_COMMAND_VLLM:
      return vllm_command (scenario);
    case HR_COMMAND_LLAMACPP:
      return llamacpp_command (scenario);
    case HR_COMMAND_OLLAMA:
      return ollama_modelfile (scenario);
    default:
      g_return_val_if_reached (NULL);
    }
}
