/* hr-gguf-model.c — a GGUF file's header as a model's shape
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-gguf-model"

#include "config.h"

#include <math.h>
#include <string.h>

#include "hr-catalog-json.h"
#include "hr-gguf-model.h"
#include "hr-model-arch.h"
#include "hr-text.h"

/* Which layers use the sliding window, when the file has one. */
typedef enum
{
  SWA_NEVER,     /* llama.cpp runs every layer with full attention */
  SWA_ALL,       /* every layer is local (Phi-3) */
  SWA_PERIODIC,  /* period - 1 local layers, then a global one */
} SwaRule;

/* Which layers of a hybrid keep a recurrent state, as llama.cpp's
 * load_hparams decides it for the architecture. */
typedef enum
{
  HYBRID_NONE,
  HYBRID_PERIOD,     /* one attention layer closes every
                      * full_attention_interval (qwen3next) */
  HYBRID_KV_ZERO,    /* recurrent where head_count_kv[i] is 0
                      * (granitehybrid, lfm2) */
  HYBRID_PARALLEL,   /* every layer runs attention and the recurrent
                      * mixer side by side (falcon-h1) */
  HYBRID_KV_FF_ZERO, /* recurrent where head_count_kv[i] and
                      * feed_forward_length[i] are 0; attention where
                      * head_count_kv[i] > 0; an MLP alone elsewhere
                      * (nemotron_h) */
} HybridRule;

typedef struct
{
  const char *gguf_arch;       /* general.architecture */
  const char *model_type;      /* the catalog's architecture (HF model_type) */
  const char *moe_model_type;  /* instead, when the file has experts */
  SwaRule swa;
  guint64 swa_period;          /* SWA_PERIODIC: without a pattern key */
  guint64 swa_window;          /* without a window key (0: no window) */
  gboolean mla;                /* DeepSeek's multi-head latent attention */
  gboolean plain_mlp;          /* up, activation, down: no gate */
  HybridRule hybrid;           /* which layers are recurrent */
  HrStateKind state;           /* what those layers keep */
  gboolean alias;              /* another spelling of a row above */
  gboolean shared_mlp_width;   /* the dense width is the shared expert's
                                * (expert_shared_feed_forward_length):
                                * Granite's shared_mlp */
} ArchInfo;

/* Defaults are llama.cpp's (src/llama-model.cpp, load_hparams): Gemma 2
 * has a 4096-token window on every other layer whatever the file says;
 * Gemma 3 five local layers in six; gpt-oss alternates. */
static const ArchInfo archs[] = {
  { .gguf_arch = "llama", .model_type = "llama", .moe_model_type = "mixtral" },
  { .gguf_arch = "mistral3", .model_type = "mistral", .moe_model_type = "mixtral" },
  { .gguf_arch = "qwen2", .model_type = "qwen2" },
  { .gguf_arch = "qwen3", .model_type = "qwen3" },
  { .gguf_arch = "qwen3moe", .model_type = "qwen3_moe" },
  { .gguf_arch = "glm4", .model_type = "glm4" },
  { .gguf_arch = "gemma2", .model_type = "gemma2", .swa = SWA_PERIODIC, .swa_period = 2,
    .swa_window = 4096 },
  { .gguf_arch = "gemma3", .model_type = "gemma3", .swa = SWA_PERIODIC, .swa_period = 6 },
  { .gguf_arch = "phi3", .model_type = "phi3", .swa = SWA_ALL },
  { .gguf_arch = "deepseek2", .model_type = "deepseek_v2", .mla = TRUE },
  { .gguf_arch = "command-r", .model_type = "cohere" },
  { .gguf_arch = "gpt-oss", .model_type = "gpt_oss", .swa = SWA_PERIODIC, .swa_period = 2 },
  /* Some third-party converters drop the hyphen. */
  { .gguf_arch = "gptoss", .model_type = "gpt_oss", .swa = SWA_PERIODIC, .swa_period = 2,
    .alias = TRUE },
  { .gguf_arch = "falcon", .model_type = "falcon", .plain_mlp = TRUE },
  /* Gated DeltaNet layers and one attention layer every
   * full_attention_interval (read_recurrent). */
  { .gguf_arch = "qwen3next", .model_type = "qwen3_next",
    .hybrid = HYBRID_PERIOD, .state = HR_STATE_GATED_DELTANET },
  /* Granite 4.0 H: Mamba2 on the layers whose head_count_kv is 0
   * (src/llama-model.cpp, load_hparams, LLM_ARCH_GRANITE_HYBRID). */
  { .gguf_arch = "granitehybrid", .model_type = "granitemoehybrid",
    .hybrid = HYBRID_KV_ZERO, .state = HR_STATE_MAMBA, .shared_mlp_width = TRUE },
  /* Nemotron-H: each layer Mamba2, attention or an MLP
   * (src/models/nemotron-h.cpp, load_arch_hparams). */
  { .gguf_arch = "nemotron_h", .model_type = "nemotron_h", .plain_mlp = TRUE,
    .hybrid = HYBRID_KV_FF_ZERO, .state = HR_STATE_MAMBA },
  /* LFM2: short convolutions on the layers whose head_count_kv is 0
   * (load_hparams, LLM_ARCH_LFM2), their kernel in shortconv.l_cache. */
  { .gguf_arch = "lfm2", .model_type = "lfm2",
    .hybrid = HYBRID_KV_ZERO, .state = HR_STATE_SHORT_CONV },
  /* Falcon-H1: attention and Mamba2 in every layer (load_hparams,
   * LLM_ARCH_FALCON_H1: every layer recurrent, every layer attends). */
  { .gguf_arch = "falcon-h1", .model_type = "falcon_h1",
    .hybrid = HYBRID_PARALLEL, .state = HR_STATE_MAMBA },
};

/* The architectures a file may have, as the error and --help list them:
 * the table's, without the spellings only some converters use. */
static const char *
supported_list (void)
{
  static gsize list;

  if (g_once_init_enter (&list))
    {
      GString *names = g_string_new (NULL);

      for (guint i = 0; i < G_N_ELEMENTS (archs); i++)
        if (!archs[i].alias)
          g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "", archs[i].gguf_arch);
      g_once_init_leave (&list, (gsize) g_string_free (names, FALSE));
    }
  return (const char *) list;
}

/* llama.cpp's expert_gating_func value for sigmoid routing, which only
 * DeepSeek-V3 (and R1) use among the deepseek2 models. */
#define GATING_SIGMOID 2

/* llama_ftype, as numbered in llama.cpp's include/llama.h; the gaps are
 * types that were removed before GGUF files could carry them. */
static const struct
{
  guint64 id;
  const char *name;
} file_types[] = {
  { 0, "F32" },
  { 1, "F16" },
  { 2, "Q4_0" },
  { 3, "Q4_1" },
  { 4, "Q4_1_SOME_F16" },
  { 7, "Q8_0" },
  { 8, "Q5_0" },
  { 9, "Q5_1" },
  { 10, "Q2_K" },
  { 11, "Q3_K_S" },
  { 12, "Q3_K_M" },
  { 13, "Q3_K_L" },
  { 14, "Q4_K_S" },
  { 15, "Q4_K_M" },
  { 16, "Q5_K_S" },
  { 17, "Q5_K_M" },
  { 18, "Q6_K" },
  { 19, "IQ2_XXS" },
  { 20, "IQ2_XS" },
  { 21, "Q2_K_S" },
  { 22, "IQ3_XS" },
  { 23, "IQ3_XXS" },
  { 24, "IQ1_S" },
  { 25, "IQ4_NL" },
  { 26, "IQ3_S" },
  { 27, "IQ3_M" },
  { 28, "IQ2_S" },
  { 29, "IQ2_M" },
  { 30, "IQ4_XS" },
  { 31, "IQ1_M" },
  { 32, "BF16" },
  { 33, "Q4_0_4_4" },
  { 34, "Q4_0_4_8" },
  { 35, "Q4_0_8_8" },
  { 36, "TQ1_0" },
  { 37, "TQ2_0" },
  { 38, "MXFP4_MOE" },
  { 39, "NVFP4" },
  { 40, "Q1_0" },
  { 41, "Q2_0" },
};

/* Everything the entry needs, read once from the header. */
typedef struct
{
  HrGguf *gguf;
  const ArchInfo *info;
  const char *arch;            /* general.architecture, as in the file */
  const char *model_type;      /* the catalog's architecture */
  char *display;               /* the path, for messages */
  GPtrArray *notes;            /* what the entry cannot say, for inspect */

  guint64 blocks;              /* block_count: layers and MTP layers */
  guint64 layers;              /* the layers that generate text */
  guint64 hidden;
  guint64 heads;
  guint64 kv_heads;
  guint64 head_dim;
  guint64 head_dim_v;
  guint64 intermediate;
  guint64 vocab;
  guint64 max_context;
  gboolean tied;
  gboolean attn_bias;
  gboolean mla;

  guint64 kv_lora_rank;
  guint64 q_lora_rank;
  guint64 qk_rope_head_dim;
  guint64 qk_nope_head_dim;

  guint64 experts;
  guint64 experts_active;
  guint64 shared_experts;
  guint64 expert_intermediate;
  guint64 moe_layers;

  guint64 sliding_window;
  guint64 swa_period;

  /* Recurrent layers, llama.cpp's ssm.* keys; the hybrids' layer
   * kinds (HR_LAYER_*) when they follow no period. */
  char *layer_pattern;
  gboolean state_parallel;
  gboolean ssm_no_norm;
  guint64 ssm_heads;
  guint64 state_layers;
  guint64 attention_period;
  guint64 ssm_conv_kernel;
  guint64 ssm_inner;
  guint64 ssm_state;
  guint64 ssm_groups;

  guint64 params;
  guint64 active_params;
} Reading;

/* What the tensor table says, in one pass over it. */
typedef struct
{
  guint64 params;
  guint64 expert_elements;
  guint64 expert_tensors;
  gboolean *moe_layer;         /* [layers]: the layer has expert tensors */
  gboolean has_output;
  gboolean has_exp_probs_b;
  gboolean attn_bias;
  gboolean has_ffn_gate;
  gboolean has_ssm_norm;       /* Mamba2's gated norm (not in Falcon-H1's) */
  const HrGgufTensor *token_embd;
  const HrGgufTensor *ffn_up;          /* a dense layer's */
  const HrGgufTensor *up_exps;         /* merged experts */
  const HrGgufTensor *gate_exps;
  const HrGgufTensor *gate_up_exps;    /* gate and up fused */
  const HrGgufTensor *up_expert;       /* one expert of an older file */
  const HrGgufTensor *k_b;             /* MLA, split for absorption */
  const HrGgufTensor *v_b;
} TensorFacts;

const char *
hr_gguf_model_supported (void)
{
  return supported_list ();
}

/**
 * hr_gguf_file_type_name:
 * @file_type: the value of general.file_type
 *
 * Returns: the name llama-quantize gives it, such as “Q4_K_M”, or %NULL
 */
const char *
hr_gguf_file_type_name (guint64 file_type)
{
  for (guint i = 0; i < G_N_ELEMENTS (file_types); i++)
    if (file_types[i].id == file_type)
      return file_types[i].name;
  return NULL;
}

static void
shape_clear (Reading *s)
{
  g_clear_pointer (&s->layer_pattern, g_free);
  g_clear_pointer (&s->display, g_free);
  g_clear_pointer (&s->notes, g_ptr_array_unref);
}

static gboolean
fail (Reading      *s,
      GError    **error,
      const char *format,
      ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (Reading      *s,
      GError    **error,
      const char *format,
      ...)
{
  g_autofree char *message = NULL;
  g_autofree char *safe = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Messages quote the file's strings (its architecture, keys, names). */
  safe = hr_text_escape_line (message, -1);
  g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
               "%s: %s", s->display, safe);
  return FALSE;
}

static void
note (Reading      *s,
      const char *format,
      ...) G_GNUC_PRINTF (2, 3);

static void
note (Reading      *s,
      const char *format,
      ...)
{
  va_list args;

  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (s->notes, hr_text_escape_line (message, -1));
}

static const char *
describe_type (HrGgufType type)
{
  switch (type)
    {
    case HR_GGUF_TYPE_STRING:
      return "a string";
    case HR_GGUF_TYPE_ARRAY:
      return "an array";
    case HR_GGUF_TYPE_FLOAT32:
    case HR_GGUF_TYPE_FLOAT64:
      return "a fraction";
    case HR_GGUF_TYPE_BOOL:
      return "a boolean";
    default:
      return "an integer";
    }
}

static gboolean
type_is_integer (HrGgufType type)
{
  switch (type)
    {
    case HR_GGUF_TYPE_UINT8:
    case HR_GGUF_TYPE_INT8:
    case HR_GGUF_TYPE_UINT16:
    case HR_GGUF_TYPE_INT16:
    case HR_GGUF_TYPE_UINT32:
    case HR_GGUF_TYPE_INT32:
    case HR_GGUF_TYPE_UINT64:
    case HR_GGUF_TYPE_INT64:
      return TRUE;
    default:
      return FALSE;
    }
}

static char *
arch_key (Reading      *s,
          const char *suffix)
{
  return g_strdup_printf ("%s.%s", s->arch, suffix);
}

static gboolean
check_range (Reading      *s,
             const char *key,
             guint64     value,
             guint64     min,
             guint64     max,
             GError    **error)
{
  if (value < min)
    {
      if (min == 1)
        return fail (s, error, "GGUF key “%s” must be positive, not %" G_GUINT64_FORMAT,
                     key, value);
      return fail (s, error, "GGUF key “%s” is %" G_GUINT64_FORMAT ", below the minimum of %"
                   G_GUINT64_FORMAT, key, value, min);
    }
  if (value > max)
    return fail (s, error, "GGUF key “%s” is %" G_GUINT64_FORMAT ", above the limit of %"
                 G_GUINT64_FORMAT, key, value, max);
  return TRUE;
}

/* Reads the integer @key.  Without it, @def is used unless @required;
 * with it, anything outside @min..@max is refused, so later products of
 * shapes stay far inside a double's exact range. */
static gboolean
read_uint_key (Reading       *s,
               const char  *key,
               gboolean     required,
               guint64      def,
               guint64      min,
               guint64      max,
               guint64     *out,
               gboolean    *found,
               GError     **error)
{
  HrGgufType type;
  guint64 value;

  if (found != NULL)
    *found = FALSE;
  if (!hr_gguf_get_metadata_type (s->gguf, key, &type, NULL))
    {
      if (required)
        return fail (s, error, "GGUF key “%s” is missing", key);
      *out = def;
      return TRUE;
    }

  if (!type_is_integer (type))
    return fail (s, error, "GGUF key “%s” must be an integer, not %s", key,
                 describe_type (type));
  if (!hr_gguf_get_uint (s->gguf, key, &value))
    return fail (s, error, "GGUF key “%s” must not be negative", key);
  if (!check_range (s, key, value, min, max, error))
    return FALSE;

  if (found != NULL)
    *found = TRUE;
  *out = value;
  return TRUE;
}

static gboolean
read_uint (Reading       *s,
           const char  *suffix,
           gboolean     required,
           guint64      def,
           guint64      min,
           guint64      max,
           guint64     *out,
           GError     **error)
{
  g_autofree char *key = arch_key (s, suffix);

  return read_uint_key (s, key, required, def, min, max, out, NULL, error);
}

/* The integers of an array @key, which must hold one per block. */
static gboolean
read_layer_array (Reading     *s,
                  const char *key,
                  guint64  **values,
                  GError   **error)
{
  HrGgufType element;
  gsize n = 0;

  hr_gguf_get_metadata_type (s->gguf, key, NULL, &element);
  if (!type_is_integer (element) && element != HR_GGUF_TYPE_BOOL)
    return fail (s, error, "GGUF key “%s” must hold integers, not %s values", key,
                 describe_type (element));
  if (!hr_gguf_get_uint_array (s->gguf, key, values, &n))
    {
      if (hr_gguf_get_array_length (s->gguf, key) > HR_GGUF_MAX_STORED_ARRAY)
        return fail (s, error, "GGUF key “%s” has %" G_GSIZE_FORMAT " entries for %"
                     G_GUINT64_FORMAT " layers", key,
                     hr_gguf_get_array_length (s->gguf, key), s->blocks);
      return fail (s, error, "GGUF key “%s” holds a negative value", key);
    }
  if (n != s->blocks)
    {
      g_clear_pointer (values, g_free);
      return fail (s, error, "GGUF key “%s” has %" G_GSIZE_FORMAT " entries for %"
                   G_GUINT64_FORMAT " layers", key, n, s->blocks);
    }
  return TRUE;
}

/* A count that llama.cpp lets vary by layer: a scalar, or an array of one
 * value per layer.  The catalog has one value, so an array that is not
 * uniform gives its largest value (the KV cache errs on the large side)
 * and a note says so. */
static gboolean
read_layer_uint (Reading       *s,
                 const char  *suffix,
                 gboolean     required,
                 guint64      def,
                 guint64      min,
                 guint64      max,
                 guint64     *out,
                 GError     **error)
{
  g_autofree char *key = arch_key (s, suffix);
  g_autofree guint64 *values = NULL;
  HrGgufType type;
  guint64 lo = G_MAXUINT64, hi = 0;

  if (!hr_gguf_get_metadata_type (s->gguf, key, &type, NULL) || type != HR_GGUF_TYPE_ARRAY)
    return read_uint_key (s, key, required, def, min, max, out, NULL, error);

  if (!read_layer_array (s, key, &values, error))
    return FALSE;
  for (guint64 i = 0; i < s->blocks; i++)
    {
      /* In a hybrid, 0 marks a layer without attention or without an
       * FFN (read_recurrent), not a width. */
      if (values[i] == 0 && s->info->hybrid != HYBRID_NONE)
        continue;
      lo = MIN (lo, values[i]);
      hi = MAX (hi, values[i]);
    }
  if (hi == 0)
    lo = 0;
  if (!check_range (s, key, hi, min, max, error))
    return FALSE;
  if (lo != hi)
    note (s, "%s differs between layers (%" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
          "); the largest is used", key, lo, hi);
  *out = hi;
  return TRUE;
}

/* Parses "blk.N." at the start of @name; returns what follows. */
static const char *
block_suffix (const char *name,
              guint64    *block)
{
  const char *p;
  char *end = NULL;

  if (!g_str_has_prefix (name, "blk."))
    return NULL;
  p = name + 4;
  if (!g_ascii_isdigit (*p))
    return NULL;
  *block = g_ascii_strtoull (p, &end, 10);
  if (end == NULL || *end != '.')
    return NULL;
  return end + 1;
}

/* Expert weights: merged (ffn_up_exps, ffn_gate_up_exps, …, weights and
 * biases) or, in files from before early 2024, one tensor per expert
 * (ffn_up.7.weight).  Shared experts (ffn_up_shexp) run for every token
 * and are not among them. */
static gboolean
is_expert_tensor (const char *suffix)
{
  static const char * const prefixes[] = { "ffn_gate.", "ffn_up.", "ffn_down." };

  if (strstr (suffix, "_exps.") != NULL)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    {
      if (g_str_has_prefix (suffix, prefixes[i]) &&
          g_ascii_isdigit (suffix[strlen (prefixes[i])]))
        return TRUE;
    }
  return FALSE;
}

static void
tensor_facts_clear (TensorFacts *t)
{
  g_clear_pointer (&t->moe_layer, g_free);
}

static gboolean
scan_tensors (Reading       *s,
              TensorFacts *t,
              GError     **error)
{
  guint64 n = hr_gguf_get_tensor_count (s->gguf);

  memset (t, 0, sizeof *t);
  t->moe_layer = g_new0 (gboolean, s->layers);

  for (guint64 i = 0; i < n; i++)
    {
      const HrGgufTensor *tensor = hr_gguf_get_tensor (s->gguf, i);
      const char *name = tensor->name;
      const char *suffix;
      guint64 elements = 1;
      guint64 block = 0;

      for (guint32 d = 0; d < HR_GGUF_MAX_DIMS; d++)
        {
          if (!g_uint64_checked_mul (&elements, elements, tensor->dims[d]))
            return fail (s, error, "tensor “%s” has too many elements", name);
        }

      /* RoPE frequency factors are precomputed constants that llama.cpp
       * stores as tensors; they are not parameters of the model. */
      if (strcmp (name, "rope_freqs.weight") != 0 &&
          !g_str_has_prefix (name, "rope_factors_") &&
          !g_uint64_checked_add (&t->params, t->params, elements))
        return fail (s, error, "the tensors hold too many elements");

      if (strcmp (name, "output.weight") == 0)
        t->has_output = TRUE;
      else if (strcmp (name, "token_embd.weight") == 0)
        t->token_embd = tensor;

      suffix = block_suffix (name, &block);
      if (suffix == NULL)
        continue;

      if (is_expert_tensor (suffix))
        {
          t->expert_elements += elements;  /* ≤ params: cannot overflow */
          t->expert_tensors++;
          if (block < s->layers)
            t->moe_layer[block] = TRUE;
        }

      if (strcmp (suffix, "attn_q.bias") == 0 || strcmp (suffix, "attn_k.bias") == 0 ||
          strcmp (suffix, "attn_v.bias") == 0 || strcmp (suffix, "attn_qkv.bias") == 0 ||
          strcmp (suffix, "attn_output.bias") == 0)
        t->attn_bias = TRUE;
      else if (g_str_has_prefix (suffix, "exp_probs_b."))
        t->has_exp_probs_b = TRUE;
      else if (strcmp (suffix, "ffn_gate.weight") == 0)
        t->has_ffn_gate = TRUE;
      else if (strcmp (suffix, "ssm_norm.weight") == 0)
        t->has_ssm_norm = TRUE;
      else if (strcmp (suffix, "ffn_up.weight") == 0 && t->ffn_up == NULL)
        t->ffn_up = tensor;
      else if (strcmp (suffix, "ffn_up_exps.weight") == 0 && t->up_exps == NULL)
        t->up_exps = tensor;
      else if (strcmp (suffix, "ffn_gate_exps.weight") == 0 && t->gate_exps == NULL)
        t->gate_exps = tensor;
      else if (strcmp (suffix, "ffn_gate_up_exps.weight") == 0 && t->gate_up_exps == NULL)
        t->gate_up_exps = tensor;
      else if (strcmp (suffix, "ffn_up.0.weight") == 0 && t->up_expert == NULL)
        t->up_expert = tensor;
      else if (strcmp (suffix, "attn_k_b.weight") == 0 && t->k_b == NULL)
        t->k_b = tensor;
      else if (strcmp (suffix, "attn_v_b.weight") == 0 && t->v_b == NULL)
        t->v_b = tensor;
    }

  if (t->params == 0)
    return fail (s, error, "the file has no tensors, so no parameters to count");
  return TRUE;
}

static gboolean
find_arch (Reading   *s,
           GError **error)
{
  HrGgufType type;

  s->arch = hr_gguf_get_architecture (s->gguf);
  if (s->arch == NULL)
    {
      if (hr_gguf_get_metadata_type (s->gguf, "general.architecture", &type, NULL))
        return fail (s, error, "GGUF key “general.architecture” must be a string, not %s",
                     describe_type (type));
      return fail (s, error, "GGUF key “general.architecture” is missing");
    }

  for (guint i = 0; i < G_N_ELEMENTS (archs); i++)
    {
      if (strcmp (archs[i].gguf_arch, s->arch) == 0)
        {
          s->info = &archs[i];
          s->model_type = archs[i].model_type;
          return TRUE;
        }
    }

  return fail (s, error, "GGUF architecture “%s” is not supported (supported: %s)",
               s->arch, supported_list ());
}

/* The vocabulary is the embedding matrix's height (padded the way the
 * model was trained, which the tokenizer list may not be). */
static gboolean
read_vocab (Reading       *s,
            TensorFacts *t,
            GError     **error)
{
  g_autofree char *key = arch_key (s, "vocab_size");
  gsize n_tokens;
  gboolean found;

  if (t->token_embd != NULL && t->token_embd->n_dims >= 2)
    {
      if (t->token_embd->dims[0] != s->hidden)
        return fail (s, error, "tensor “token_embd.weight” is %" G_GUINT64_FORMAT
                     " wide but %s.embedding_length is %" G_GUINT64_FORMAT,
                     t->token_embd->dims[0], s->arch, s->hidden);
      s->vocab = t->token_embd->dims[1];
      if (s->vocab > G_MAXUINT32)
        return fail (s, error, "tensor “token_embd.weight” has %" G_GUINT64_FORMAT
                     " rows, above the limit of %u", s->vocab, G_MAXUINT32);
      return TRUE;
    }

  if (!read_uint_key (s, key, FALSE, 0, 1, G_MAXUINT32, &s->vocab, &found, error))
    return FALSE;
  if (found)
    return TRUE;

  n_tokens = hr_gguf_get_array_length (s->gguf, "tokenizer.ggml.tokens");
  if (n_tokens > 0)
    {
      s->vocab = n_tokens;
      if (s->vocab > G_MAXUINT32)
        return fail (s, error, "tokenizer.ggml.tokens has %" G_GUINT64_FORMAT
                     " entries, above the limit of %u", s->vocab, G_MAXUINT32);
      return TRUE;
    }

  return fail (s, error, "GGUF key “%s” is missing, and there is no token_embd.weight "
               "tensor or tokenizer.ggml.tokens list to count instead", key);
}

/* DeepSeek's latent attention.  llama.cpp files from before mid-2025
 * describe the decompressed heads in key_length and value_length; newer
 * ones store MLA as multi-query attention over the latent (key_length =
 * kv_lora_rank + RoPE dimension, one KV head), split attn_kv_b into
 * attn_k_b and attn_v_b, and move the head sizes to *_length_mla. */
static gboolean
read_mla (Reading       *s,
          TensorFacts *t,
          GError     **error)
{
  g_autofree char *key_mla = arch_key (s, "attention.key_length_mla");
  g_autofree char *value_mla = arch_key (s, "attention.value_length_mla");
  gboolean found = FALSE;

  if (!read_uint (s, "attention.kv_lora_rank", TRUE, 0, 1, 1 << 20, &s->kv_lora_rank, error) ||
      !read_uint (s, "attention.q_lora_rank", FALSE, 0, 0, 1 << 20, &s->q_lora_rank, error) ||
      !read_uint (s, "rope.dimension_count", TRUE, 0, 1, 1 << 16, &s->qk_rope_head_dim, error) ||
      !read_uint_key (s, key_mla, FALSE, 0, 1, 1 << 16, &s->head_dim, &found, error))
    return FALSE;

  if (found)
    {
      if (!read_uint_key (s, value_mla, TRUE, 0, 1, 1 << 16, &s->head_dim_v, NULL, error))
        return FALSE;
    }
  else if (t->k_b != NULL)
    {
      /* ggml shapes: attn_k_b [qk_nope, kv_lora_rank, heads],
       * attn_v_b [kv_lora_rank, v_head_dim, heads]. */
      if (t->v_b == NULL)
        return fail (s, error, "the file has attn_k_b tensors but no attn_v_b");
      if (t->k_b->dims[1] != s->kv_lora_rank || t->v_b->dims[0] != s->kv_lora_rank)
        return fail (s, error, "the attn_k_b and attn_v_b tensors do not match %s "
                     "(%" G_GUINT64_FORMAT ")", "attention.kv_lora_rank", s->kv_lora_rank);
      s->head_dim = t->k_b->dims[0] + s->qk_rope_head_dim;
      s->head_dim_v = t->v_b->dims[1];
      if (s->head_dim > 1 << 16 || s->head_dim_v == 0 || s->head_dim_v > 1 << 16)
        return fail (s, error, "the attn_k_b and attn_v_b tensors give head sizes %"
                     G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT ", outside 1–65536",
                     s->head_dim, s->head_dim_v);
      note (s, "%s is missing; the head sizes come from the attn_k_b and attn_v_b tensors",
            key_mla);
    }
  else
    {
      if (!read_uint (s, "attention.key_length", TRUE, 0, 1, 1 << 16, &s->head_dim, error) ||
          !read_uint (s, "attention.value_length", FALSE, s->head_dim, 1, 1 << 16,
                      &s->head_dim_v, error))
        return FALSE;
    }

  if (s->head_dim <= s->qk_rope_head_dim)
    return fail (s, error, "the key head size %" G_GUINT64_FORMAT " is not larger than "
                 "%s.rope.dimension_count (%" G_GUINT64_FORMAT ")",
                 s->head_dim, s->arch, s->qk_rope_head_dim);
  s->qk_nope_head_dim = s->head_dim - s->qk_rope_head_dim;

  /* Every query head gets its own keys and values from the latent, which
   * is what the catalog means by kv_heads for MLA. */
  s->kv_heads = s->heads;
  s->mla = TRUE;
  return TRUE;
}

static gboolean
read_attention (Reading       *s,
                TensorFacts *t,
                GError     **error)
{
  g_autofree char *key = NULL;

  /* llama.cpp's default: as many KV heads as query heads. */
  if (!read_layer_uint (s, "attention.head_count", TRUE, 0, 1, 1 << 16, &s->heads, error) ||
      !read_layer_uint (s, "attention.head_count_kv", FALSE, s->heads, 1, 1 << 16,
                        &s->kv_heads, error))
    return FALSE;

  if (s->info->mla)
    return read_mla (s, t, error);

  key = arch_key (s, "attention.key_length");
  if (!hr_gguf_get_metadata_type (s->gguf, key, NULL, NULL) && s->hidden % s->heads != 0)
    return fail (s, error, "GGUF key “%s” is missing and %s.embedding_length %"
                 G_GUINT64_FORMAT " is not a multiple of %s.attention.head_count %"
                 G_GUINT64_FORMAT, key, s->arch, s->hidden, s->arch, s->heads);
  if (!read_uint (s, "attention.key_length", FALSE, s->hidden / s->heads, 1, 1 << 16,
                  &s->head_dim, error) ||
      !read_uint (s, "attention.value_length", FALSE, s->head_dim, 1, 1 << 16,
                  &s->head_dim_v, error))
    return FALSE;

  s->attn_bias = t->attn_bias;
  return TRUE;
}

static gboolean
read_experts (Reading       *s,
              TensorFacts *t,
              GError     **error)
{
  g_autofree char *count_key = arch_key (s, "expert_count");
  gboolean found = FALSE;

  if (!read_uint_key (s, count_key, FALSE, 0, 0, 1 << 16, &s->experts, &found, error))
    return FALSE;

  if (s->experts == 0)
    {
      if (t->expert_tensors > 0)
        return fail (s, error, "the file has expert tensors but GGUF key “%s” is %s",
                     count_key, found ? "0" : "missing");
      return TRUE;
    }
  if (t->expert_tensors == 0)
    return fail (s, error, "GGUF key “%s” says %" G_GUINT64_FORMAT " experts but the "
                 "file has no expert tensors", count_key, s->experts);

  if (!read_uint (s, "expert_used_count", TRUE, 0, 1, s->experts, &s->experts_active, error) ||
      !read_uint (s, "expert_shared_count", FALSE, 0, 0, 1 << 16, &s->shared_experts, error) ||
      !read_uint (s, "expert_feed_forward_length", FALSE, 0, 1, G_MAXUINT32,
                  &s->expert_intermediate, error))
    return FALSE;

  /* Older files (Mixtral) leave the expert width to the tensor shapes:
   * ffn_up_exps is [hidden, width, experts]; a fused gate_up twice as wide. */
  if (s->expert_intermediate == 0)
    {
      if (t->up_exps != NULL)
        s->expert_intermediate = t->up_exps->dims[1];
      else if (t->gate_exps != NULL)
        s->expert_intermediate = t->gate_exps->dims[1];
      else if (t->gate_up_exps != NULL)
        s->expert_intermediate = t->gate_up_exps->dims[1] / 2;
      else if (t->up_expert != NULL)
        s->expert_intermediate = t->up_expert->dims[1];
      if (s->expert_intermediate == 0 || s->expert_intermediate > G_MAXUINT32)
        return fail (s, error, "GGUF key “%s.expert_feed_forward_length” is missing and the "
                     "expert tensors give no usable width", s->arch);
    }

  for (guint64 i = 0; i < s->layers; i++)
    s->moe_layers += t->moe_layer[i];
  return TRUE;
}

/* The FFN width of the dense layers.  Pure MoE models (Qwen3 MoE,
 * gpt-oss) have none; the catalog then takes the expert width. */
static gboolean
read_intermediate (Reading       *s,
                   TensorFacts *t,
                   GError     **error)
{
  if (!read_layer_uint (s, "feed_forward_length", FALSE, 0, 0, G_MAXUINT32,
                        &s->intermediate, error))
    return FALSE;
  if (s->intermediate > 0)
    return TRUE;

  if (t->ffn_up != NULL)
    {
      /* ffn_up is [hidden, width]; Phi-3 fuses gate and up into it. */
      s->intermediate = t->ffn_up->dims[1];
      if (!t->has_ffn_gate && !s->info->plain_mlp)
        s->intermediate /= 2;
    }
  else
    s->intermediate = s->expert_intermediate;

  if (s->intermediate == 0)
    {
      g_autofree char *key = arch_key (s, "feed_forward_length");
      return fail (s, error, "GGUF key “%s” is missing and no ffn_up tensor says the width",
                   key);
    }
  if (s->intermediate > G_MAXUINT32)
    return fail (s, error, "tensor “%s” is %" G_GUINT64_FORMAT " wide, above the limit of %u",
                 t->ffn_up->name, s->intermediate, G_MAXUINT32);
  return TRUE;
}

/* The catalog's period for a per-layer pattern (hr_swa_period_from_layers,
 * the config.json importer's rule too). */
static void
derive_swa_period (Reading          *s,
                   const guint64  *sliding)
{
  g_autofree gboolean *flags = g_new0 (gboolean, MAX (s->layers, 1));

  for (guint64 i = 0; i < s->layers; i++)
    flags[i] = sliding[i] != 0;

  switch (hr_swa_period_from_layers (flags, s->layers, &s->swa_period))
    {
    case HR_SWA_NONE:
      s->sliding_window = 0;
      break;
    case HR_SWA_IRREGULAR:
      note (s, "the sliding-window layers follow no fixed period; every %" G_GUINT64_FORMAT
            " layers is taken as global", s->swa_period);
      break;
    case HR_SWA_ALL:
    case HR_SWA_PERIODIC:
    default:
      break;
    }
}

static gboolean
read_sliding_window (Reading   *s,
                     GError **error)
{
  g_autofree char *pattern_key = arch_key (s, "attention.sliding_window_pattern");
  g_autofree guint64 *sliding = NULL;
  HrGgufType type;
  guint64 period;

  if (s->info->swa == SWA_NEVER)
    return TRUE;

  if (!read_uint (s, "attention.sliding_window", FALSE, s->info->swa_window, 0,
                  HR_CONTEXT_MAX, &s->sliding_window, error))
    return FALSE;
  if (s->sliding_window == 0)
    return TRUE;

  if (s->info->swa == SWA_ALL)
    {
      s->swa_period = 0;
      if (strcmp (s->arch, "phi3") == 0)
        note (s, "llama.cpp currently runs Phi-3 with full attention on every layer, "
              "so its KV cache does not shrink with the %" G_GUINT64_FORMAT "-token window",
              s->sliding_window);
      return TRUE;
    }

  /* The pattern is a period, or a per-layer list (true: sliding). */
  if (hr_gguf_get_metadata_type (s->gguf, pattern_key, &type, NULL) &&
      type == HR_GGUF_TYPE_ARRAY)
    {
      if (!read_layer_array (s, pattern_key, &sliding, error))
        return FALSE;
      derive_swa_period (s, sliding);
      return TRUE;
    }

  if (!read_uint_key (s, pattern_key, FALSE, s->info->swa_period, 0, HR_LAYERS_MAX, &period,
                      NULL, error))
    return FALSE;

  /* As llama.cpp's set_swa_pattern(): layer i is local when
   * i % period < period - 1, so a period of 1 leaves no local layer, and
   * a model with fewer layers than the period (or period 0) has only
   * local ones. */
  if (period == 1)
    s->sliding_window = 0;
  else if (period > s->layers)
    period = 0;
  s->swa_period = period;
  return TRUE;
}

/* Each layer's kind from llama.cpp's per-layer arrays: recurrent where
 * head_count_kv[i] is 0 (granitehybrid, lfm2: load_hparams), or where
 * head_count_kv[i] and feed_forward_length[i] both are (nemotron_h:
 * load_arch_hparams); attention where head_count_kv[i] > 0; an MLP
 * alone otherwise.  A scalar key gives every layer its value. */
static gboolean
read_layer_pattern (Reading   *s,
                    GError **error)
{
  g_autofree char *kv_key = arch_key (s, "attention.head_count_kv");
  g_autofree char *ff_key = arch_key (s, "feed_forward_length");
  g_autofree guint64 *kv = NULL;
  g_autofree guint64 *ff = NULL;
  HrGgufType type;

  if (s->layers > HR_LAYER_PATTERN_MAX)
    return fail (s, error, "%" G_GUINT64_FORMAT " layers are more than the %u whose kinds "
                 "a hybrid may list", s->layers, HR_LAYER_PATTERN_MAX);
  if (!hr_gguf_get_metadata_type (s->gguf, kv_key, &type, NULL) || type != HR_GGUF_TYPE_ARRAY)
    return fail (s, error, "GGUF key “%s” must list each layer's KV heads (0 for a recurrent "
                 "layer)", kv_key);
  if (!read_layer_array (s, kv_key, &kv, error))
    return FALSE;
  if (s->info->hybrid == HYBRID_KV_FF_ZERO &&
      hr_gguf_get_metadata_type (s->gguf, ff_key, &type, NULL) && type == HR_GGUF_TYPE_ARRAY &&
      !read_layer_array (s, ff_key, &ff, error))
    return FALSE;

  s->layer_pattern = g_new0 (char, s->layers + 1);
  for (guint64 i = 0; i < s->layers; i++)
    {
      guint64 ff_i = ff != NULL ? ff[i] : s->intermediate;

      if (kv[i] > 0)
        s->layer_pattern[i] = HR_LAYER_ATTENTION;
      else if (s->info->hybrid == HYBRID_KV_ZERO || ff_i == 0)
        s->layer_pattern[i] = HR_LAYER_RECURRENT;
      else
        s->layer_pattern[i] = HR_LAYER_MLP;
    }
  s->state_layers = hr_layer_pattern_count (s->layer_pattern, HR_LAYER_RECURRENT);
  return TRUE;
}

/* The recurrent layers, with llama.cpp's keys (src/llama-model.cpp,
 * load_hparams): ssm.conv_kernel, ssm.inner_size, ssm.state_size,
 * ssm.group_count and, for Mamba2, ssm.time_step_rank (its heads); which
 * layers they are from the architecture's rule: the attention layer
 * closing every full_attention_interval (qwen3next; default 4, as
 * llama.cpp), or the per-layer arrays (read_layer_pattern). */
static gboolean
read_recurrent (Reading   *s,
                GError **error)
{
  if (s->info->hybrid == HYBRID_NONE)
    return TRUE;
  /* LFM2's short convolutions have their kernel only (n_shortconv_l_cache) */
  if (s->info->state == HR_STATE_SHORT_CONV)
    return read_uint (s, "shortconv.l_cache", TRUE, 0, 2, 1 << 16, &s->ssm_conv_kernel, error) &&
           read_layer_pattern (s, error);
  if (!read_uint (s, "ssm.conv_kernel", TRUE, 0, 2, 1 << 16, &s->ssm_conv_kernel, error) ||
      !read_uint (s, "ssm.inner_size", TRUE, 0, 1, 1 << 24, &s->ssm_inner, error) ||
      !read_uint (s, "ssm.state_size", TRUE, 0, 1, 1 << 16, &s->ssm_state, error) ||
      !read_uint (s, "ssm.group_count", TRUE, 0, 1, 1 << 16, &s->ssm_groups, error))
    return FALSE;
  if (s->info->hybrid == HYBRID_PERIOD)
    {
      if (!read_uint (s, "full_attention_interval", FALSE, 4, 1, s->layers,
                      &s->attention_period, error))
        return FALSE;
      s->state_layers = s->layers - s->layers / s->attention_period;
      return TRUE;
    }
  if (!read_uint (s, "ssm.time_step_rank", TRUE, 0, 1, 1 << 16, &s->ssm_heads, error))
    return FALSE;
  if (s->ssm_inner % s->ssm_groups != 0)
    return fail (s, error, "%s.ssm.inner_size %" G_GUINT64_FORMAT " is not a multiple of "
                 "%s.ssm.group_count %" G_GUINT64_FORMAT, s->arch, s->ssm_inner, s->arch,
                 s->ssm_groups);
  if (s->info->hybrid == HYBRID_PARALLEL)
    {
      s->state_parallel = TRUE;
      s->state_layers = s->layers;
      return TRUE;
    }
  return read_layer_pattern (s, error);
}

/* Granite's shared MLP runs beside the routed experts of every layer;
 * llama.cpp reads its width from expert_shared_feed_forward_length
 * (n_ff_shexp), and the catalog keeps it as the dense width with one
 * shared expert. */
static gboolean
read_shared_mlp (Reading   *s,
                 GError **error)
{
  guint64 width = 0;

  if (!s->info->shared_mlp_width || s->experts == 0)
    return TRUE;
  if (!read_uint (s, "expert_shared_feed_forward_length", FALSE, 0, 0, G_MAXUINT32, &width,
                  error))
    return FALSE;
  if (width > 0)
    {
      s->intermediate = width;
      s->shared_experts = 1;
    }
  return TRUE;
}

static gboolean
read_shape (HrGguf      *gguf,
            const char  *path,
            Reading       *s,
            GError     **error)
{
  TensorFacts t;
  g_autofree char *nextn_key = NULL;
  guint64 nextn = 0;
  double inactive;
  gboolean ok;

  memset (s, 0, sizeof *s);
  s->gguf = gguf;
  s->display = hr_text_display_path (path);
  s->notes = g_ptr_array_new_with_free_func (g_free);

  if (!find_arch (s, error))
    return FALSE;

  if (!read_uint (s, "block_count", TRUE, 0, 1, HR_LAYERS_MAX, &s->blocks, error) ||
      !read_uint (s, "embedding_length", TRUE, 0, 1, 1 << 20, &s->hidden, error) ||
      !read_uint (s, "context_length", TRUE, 0, 1, HR_CONTEXT_MAX, &s->max_context, error) ||
      !read_uint (s, "nextn_predict_layers", FALSE, 0, 0, s->blocks - 1, &nextn, error))
    return FALSE;
  s->layers = s->blocks;

  /* Multi-token-prediction layers are counted in block_count but take no
   * part in generating text (nor get a KV cache in llama.cpp). */
  if (nextn > 0)
    {
      nextn_key = arch_key (s, "nextn_predict_layers");
      s->layers -= nextn;
      note (s, "%s: %" G_GUINT64_FORMAT " multi-token-prediction layer%s left out of the "
            "layer count (their weights are counted)", nextn_key, nextn, nextn == 1 ? "" : "s");
    }

  if (!scan_tensors (s, &t, error))
    {
      tensor_facts_clear (&t);
      return FALSE;
    }

  ok = read_vocab (s, &t, error) &&
       read_attention (s, &t, error) &&
       read_experts (s, &t, error) &&
       read_intermediate (s, &t, error) &&
       read_sliding_window (s, error) &&
       read_recurrent (s, error) &&
       read_shared_mlp (s, error);

  if (ok && (double) t.params > HR_PARAMS_MAX)
    ok = fail (s, error, "the tensors hold %" G_GUINT64_FORMAT " parameters, above "
               "the limit of %.0e", t.params, HR_PARAMS_MAX);

  if (ok)
    {
      guint64 gating = 0;

      s->tied = !t.has_output;
      s->params = t.params;
      s->ssm_no_norm = s->info->state == HR_STATE_MAMBA && !t.has_ssm_norm;

      /* Per token, only experts_active of the routed experts run. */
      inactive = 0;
      if (s->experts > 0)
        inactive = (double) t.expert_elements * (s->experts - s->experts_active) / s->experts;
      s->active_params = (guint64) llround ((double) s->params - inactive);

      if (s->experts > 0 && s->info->moe_model_type != NULL)
        s->model_type = s->info->moe_model_type;
      if (s->info->mla)
        {
          /* DeepSeek-V3 and R1 route with sigmoid scores and a
           * per-expert bias (exp_probs_b); V2 and V2.5 do neither. */
          ok = read_uint (s, "expert_gating_func", FALSE, 0, 0, G_MAXUINT32, &gating, error);
          if (t.has_exp_probs_b || gating == GATING_SIGMOID)
            s->model_type = "deepseek_v3";
        }
    }

  tensor_facts_clear (&t);
  return ok;
}

static HrAttentionKind
attention_kind (const Reading *s)
{
  if (s->mla)
    return HR_ATTENTION_MLA;
  if (s->kv_heads == 1)
    return HR_ATTENTION_MQA;
  if (s->kv_heads == s->heads)
    return HR_ATTENTION_MHA;
  return HR_ATTENTION_GQA;
}

/* The model's name from its file: without the directory, the extension
 * and gguf-split's -00001-of-00003 suffix. */
static char *
id_for_path (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *display = hr_text_display_path (base);
  gsize len = strlen (display);
  static const char split[] = "-00000-of-00000";
  gsize split_len = sizeof split - 1;

  if (len > 5 && g_ascii_strcasecmp (display + len - 5, ".gguf") == 0)
    display[len -= 5] = '\0';
  if (len > split_len && display[len - split_len] == '-' &&
      strncmp (display + len - split_len + 6, "-of-", 4) == 0)
    {
      gboolean digits = TRUE;

      for (gsize k = 0; k < split_len; k++)
        if (split[k] == '0' && !g_ascii_isdigit (display[len - split_len + k]))
          digits = FALSE;
      if (digits)
        display[len - split_len] = '\0';
    }
  if (display[0] == '\0')
    return g_strdup ("model");
  return g_steal_pointer (&display);
}

static JsonObject *
bytes_by_type (HrGguf *gguf)
{
  JsonObject *object = json_object_new ();

  for (guint32 type = 0; type < HR_GGML_TYPE_LIMIT; type++)
    {
      guint64 bytes = hr_gguf_get_bytes_by_type (gguf, type);
      const char *name = hr_ggml_type_name (type);

      if (bytes > 0 && name != NULL)
        json_object_set_int_member (object, name, (gint64) MIN (bytes, (guint64) G_MAXINT64));
    }
  return object;
}

/* Free text of the file (a name, a license), on one displayable line:
 * it becomes catalog text, shown in lists and commands. */
static char *
dup_text (HrGguf     *gguf,
          const char *key)
{
  const char *value = hr_gguf_get_string (gguf, key);

  if (value == NULL || *value == '\0')
    return NULL;
  return hr_text_escape_line (value, -1);
}

static const char *
file_type_of (HrGguf *gguf)
{
  guint64 file_type;

  if (!hr_gguf_get_uint (gguf, "general.file_type", &file_type))
    return NULL;
  return hr_gguf_file_type_name (file_type);
}

/* Copies what was read into @shape.  Every value was bounded by the
 * reading (to its catalog field's range), so the narrowing is exact. */
static void
fill_shape (Reading      *s,
            const char   *path,
            HrModelShape *shape)
{
  HrModelArch *arch = &shape->arch;
  g_autofree char *name = dup_text (s->gguf, "general.name");
  g_autofree char *license = dup_text (s->gguf, "general.license");
  const char *file_type = file_type_of (s->gguf);
  guint64 weights = hr_gguf_get_weights_bytes (s->gguf);

  shape->id = id_for_path (path);
  shape->name = name != NULL ? g_steal_pointer (&name) : g_strdup (shape->id);
  shape->family = g_strdup (s->model_type);
  shape->architecture = g_strdup (s->model_type);
  /* The file says its license (general.license) more often than not;
   * otherwise, like a config.json, it is unknown. */
  shape->license = license != NULL ? g_steal_pointer (&license) : g_strdup ("unknown");
  shape->release = g_strdup ("unknown");
  shape->source = g_strdup (s->display);

  arch->attention = attention_kind (s);
  arch->n_layers = (guint32) s->layers;
  arch->hidden = (guint32) s->hidden;
  arch->n_heads = (guint32) s->heads;
  arch->n_kv_heads = (guint32) s->kv_heads;
  arch->head_dim_k = (guint32) s->head_dim;
  arch->head_dim_v = (guint32) s->head_dim_v;
  arch->vocab = s->vocab;
  arch->max_context = s->max_context;
  /* Exact element counts, well below 2^53. */
  arch->params_total = (double) s->params;
  arch->params_active = (double) s->active_params;
  shape->intermediate = (guint32) s->intermediate;
  shape->tied_embeddings = s->tied;
  if (s->mla)
    {
      arch->kv_lora_rank = (guint32) s->kv_lora_rank;
      arch->qk_rope_head_dim = (guint32) s->qk_rope_head_dim;
      shape->qk_nope_head_dim = (guint32) s->qk_nope_head_dim;
      shape->q_lora_rank = (guint32) s->q_lora_rank;
    }
  shape->attention_bias = s->attn_bias;
  hr_model_shape_set_window (shape, s->sliding_window, s->swa_period);
  hr_model_shape_set_experts (shape, s->experts, s->experts_active, s->expert_intermediate,
                              s->shared_experts, s->layers - s->moe_layers);
  shape->plain_mlp = s->info->plain_mlp;
  if (s->state_layers > 0)
    {
      arch->state_kind = s->info->state;
      arch->n_state_layers = (guint32) s->state_layers;
      /* read_layer_pattern kept the layers within HR_LAYER_PATTERN_MAX */
      hr_model_arch_set_layer_pattern (arch, s->layer_pattern, NULL);
      arch->state_parallel = s->state_parallel;
      arch->ssm_no_norm = s->ssm_no_norm;
      arch->ssm_heads = (guint32) s->ssm_heads;
      arch->attention_period = (guint32) s->attention_period;
      arch->ssm_conv_kernel = (guint32) s->ssm_conv_kernel;
      arch->ssm_inner = (guint32) s->ssm_inner;
      arch->ssm_state = (guint32) s->ssm_state;
      arch->ssm_groups = (guint32) s->ssm_groups;
    }

  /* What is on disk, for the estimate and the window. */
  shape->file_path = g_strdup (s->display);
  shape->file_type = g_strdup (file_type);
  shape->file_weights_bytes = MIN (weights, (guint64) G_MAXINT64);
  hr_model_shape_begin_weights_by_type (shape);
  for (guint32 type = 0; type < HR_GGML_TYPE_LIMIT; type++)
    {
      guint64 bytes = hr_gguf_get_bytes_by_type (s->gguf, type);
      const char *type_name = hr_ggml_type_name (type);

      if (bytes > 0 && type_name != NULL)
        hr_model_shape_add_type_bytes (shape, type_name, MIN (bytes, (guint64) G_MAXINT64));
    }

  shape->notes = g_steal_pointer (&s->notes);
}

/**
 * hr_gguf_model_read_shape:
 * @gguf: a header read with hr_gguf_open() (all shards of a split model)
 * @path: the file it was read from, for the shape and the messages
 * @shape: (out caller-allocates): filled on success; cleared by the caller
 *   with hr_model_shape_clear() either way
 * @error: return location for an error
 *
 * Reads the header into the shape of a catalog model (for
 * hr_model_spec_new_from_shape()).  Parameters are the tensors' elements
 * (exact); the active count of a mixture of experts leaves out the routed
 * experts a token does not use.  Beside the catalog's shape are the
 * file's facts: file_weights_bytes, file_type (“Q4_K_M”), file_path,
 * weights_by_type, and notes on what the shape simplifies.  Every error
 * message starts with @path.
 *
 * Returns: %TRUE on success
 */
gboolean
hr_gguf_model_read_shape (HrGguf        *gguf,
                          const char    *path,
                          HrModelShape  *shape,
                          GError       **error)
{
  Reading s;
  gboolean ok;

  g_return_val_if_fail (gguf != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (shape != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  hr_model_shape_init (shape);
  ok = read_shape (gguf, path, &s, error);
  if (ok)
    fill_shape (&s, path, shape);
  shape_clear (&s);
  return ok;
}

/* One metadata value in its natural JSON type; %NULL when absent or when
 * it is not something a person would read (long or nested arrays). */
static JsonNode *
metadata_node (HrGguf     *gguf,
               const char *key)
{
  HrGgufType type, element;
  guint64 u;
  double d;

  if (!hr_gguf_get_metadata_type (gguf, key, &type, &element))
    return NULL;

  switch (type)
    {
    case HR_GGUF_TYPE_STRING:
      return json_node_init_string (json_node_alloc (), hr_gguf_get_string (gguf, key));
    case HR_GGUF_TYPE_BOOL:
      hr_gguf_get_uint (gguf, key, &u);
      return json_node_init_boolean (json_node_alloc (), u != 0);
    case HR_GGUF_TYPE_FLOAT32:
    case HR_GGUF_TYPE_FLOAT64:
      hr_gguf_get_float (gguf, key, &d);
      if (!isfinite (d))
        return json_node_init_null (json_node_alloc ());
      return json_node_init_double (json_node_alloc (), d);
    case HR_GGUF_TYPE_ARRAY:
      {
        g_autofree guint64 *values = NULL;
        JsonArray *array;
        JsonNode *node;
        gsize n = 0;

        if (!hr_gguf_get_uint_array (gguf, key, &values, &n))
          return NULL;
        array = json_array_sized_new (n);
        for (gsize i = 0; i < n; i++)
          {
            if (element == HR_GGUF_TYPE_BOOL)
              json_array_add_boolean_element (array, values[i] != 0);
            else
              json_array_add_int_element (array, (gint64) MIN (values[i], (guint64) G_MAXINT64));
          }
        node = json_node_new (JSON_NODE_ARRAY);
        json_node_take_array (node, array);
        return node;
      }
    default:
      if (hr_gguf_get_uint (gguf, key, &u))
        return json_node_init_int (json_node_alloc (), (gint64) MIN (u, (guint64) G_MAXINT64));
      /* Negative: a signed integer, exact in a double below 2^53. */
      hr_gguf_get_float (gguf, key, &d);
      return json_node_init_int (json_node_alloc (), (gint64) d);
    }
}

/* Keys that say what the estimate needs, or what the file is. */
static const char * const general_keys[] = {
  "general.architecture", "general.name", "general.basename", "general.finetune",
  "general.size_label", "general.license", "general.file_type",
  "general.quantization_version", "general.alignment",
  "split.count", "split.tensors.count",
};

static const char * const arch_keys[] = {
  "block_count", "context_length", "embedding_length", "feed_forward_length",
  "vocab_size", "attention.head_count", "attention.head_count_kv",
  "attention.key_length", "attention.value_length",
  "attention.key_length_mla", "attention.value_length_mla",
  "attention.kv_lora_rank", "attention.q_lora_rank", "rope.dimension_count",
  "attention.sliding_window", "attention.sliding_window_pattern",
  "expert_count", "expert_used_count", "expert_shared_count",
  "expert_feed_forward_length", "expert_gating_func", "leading_dense_block_count",
  "nextn_predict_layers", "ssm.conv_kernel", "ssm.inner_size", "ssm.state_size",
  "ssm.group_count", "ssm.time_step_rank", "full_attention_interval", "shortconv.l_cache",
  "expert_shared_feed_forward_length",
};

static JsonObject *
metadata_object (Reading *s)
{
  JsonObject *object = json_object_new ();

  for (guint i = 0; i < G_N_ELEMENTS (general_keys); i++)
    {
      JsonNode *node = metadata_node (s->gguf, general_keys[i]);

      if (node != NULL)
        json_object_set_member (object, general_keys[i], node);
    }
  for (guint i = 0; i < G_N_ELEMENTS (arch_keys); i++)
    {
      g_autofree char *key = arch_key (s, arch_keys[i]);
      JsonNode *node = metadata_node (s->gguf, key);

      if (node != NULL)
        json_object_set_member (object, key, node);
    }
  return object;
}

/**
 * hr_gguf_model_facts:
 * @gguf: a header that hr_gguf_model_read_shape() read
 * @path: the file it was read from
 *
 * The file's part of what `headroom-cli inspect --json` prints for a GGUF
 * file (the catalog adds the model and the notes): file, format,
 * gguf_version, architecture, file_type, n_shards, tensor_count,
 * weights_bytes, file_bytes, bytes_by_type, tokenizer_tokens, and the raw
 * metadata the estimate depends on under "metadata" (full GGUF key
 * names).
 *
 * Returns: (transfer full): a new object
 */
JsonObject *
hr_gguf_model_facts (HrGguf     *gguf,
                     const char *path)
{
  g_autoptr(JsonObject) out = NULL;
  g_autofree char *display = NULL;
  const char *file_type;
  gsize n_tokens;
  Reading s;

  g_return_val_if_fail (gguf != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (hr_gguf_get_architecture (gguf) != NULL, NULL);

  /* Only what the metadata keys need of a reading. */
  memset (&s, 0, sizeof s);
  s.gguf = gguf;
  s.arch = hr_gguf_get_architecture (gguf);

  display = hr_text_display_path (path);
  file_type = file_type_of (gguf);
  n_tokens = hr_gguf_get_array_length (gguf, "tokenizer.ggml.tokens");

  out = json_object_new ();
  json_object_set_string_member (out, "file", display);
  json_object_set_string_member (out, "format", "gguf");
  json_object_set_int_member (out, "gguf_version", hr_gguf_get_version (gguf));
  json_object_set_string_member (out, "architecture", s.arch);
  if (file_type != NULL)
    json_object_set_string_member (out, "file_type", file_type);
  else
    json_object_set_null_member (out, "file_type");
  json_object_set_int_member (out, "n_shards", hr_gguf_get_n_shards (gguf));
  json_object_set_int_member (out, "tensor_count",
                              (gint64) hr_gguf_get_tensor_count (gguf));
  json_object_set_int_member (out, "weights_bytes",
                              (gint64) MIN (hr_gguf_get_weights_bytes (gguf),
                                            (guint64) G_MAXINT64));
  json_object_set_int_member (out, "file_bytes",
                              (gint64) MIN (hr_gguf_get_file_size (gguf),
                                            (guint64) G_MAXINT64));
  json_object_set_object_member (out, "bytes_by_type", bytes_by_type (gguf));
  if (n_tokens > 0)
    json_object_set_int_member (out, "tokenizer_tokens", (gint64) n_tokens);
  json_object_set_object_member (out, "metadata", metadata_object (&s));

  return g_steal_pointer (&out);
}
