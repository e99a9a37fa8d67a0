/* hr-hf-config.c — a Hugging Face config.json as a model's shape
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-hf-config"

#include "config.h"

#include <math.h>
#include <string.h>

#include "hr-catalog-json.h"
#include "hr-hf-config.h"
#include "hr-json-load.h"
#include "hr-text.h"

/* Which attention projections carry a bias. */
typedef enum
{
  BIAS_NONE,
  BIAS_QKV,     /* q, k and v (Qwen2, GLM-4) */
  BIAS_QKVO,    /* q, k, v and o (Llama, Qwen3, Gemma, Cohere, gpt-oss) */
} BiasKind;

/* Which layers use the sliding window when the config has one and no
 * explicit layer_types list. */
typedef enum
{
  SWA_NEVER,       /* the architecture has no sliding-window attention */
  SWA_ALL,         /* every layer (Mistral v0.1, Phi-3) */
  SWA_ALTERNATE,   /* local, global, local, … (Gemma 2, gpt-oss) */
  SWA_PATTERN,     /* sliding_window_pattern - 1 local, then 1 global (Gemma 3) */
  SWA_QWEN,        /* use_sliding_window; layers from max_window_layers on */
} SwaRule;

typedef enum
{
  MOE_NONE,
  MOE_MIXTRAL,     /* num_local_experts; experts are intermediate_size wide */
  MOE_QWEN,        /* num_experts, decoder_sparse_step, mlp_only_layers */
  MOE_DEEPSEEK,    /* n_routed_experts + shared, first_k_dense_replace */
  MOE_GPT_OSS,     /* num_local_experts, biases on router and experts */
  MOE_GLM,         /* DeepSeek's layout (and router bias) on GQA attention */
} MoeKind;

typedef struct
{
  const char *model_type;
  guint norms;               /* hidden-wide norms per layer */
  gboolean head_norms;       /* q_norm and k_norm of head_dim (Qwen3, Gemma 3) */
  gboolean tied;             /* default of tie_word_embeddings */
  BiasKind bias_always;      /* whatever the config says */
  BiasKind bias_flag;        /* when attention_bias is true */
  gboolean bias_flag_default;
  SwaRule swa;
  MoeKind moe;
  guint head_dim_default;    /* 0: hidden_size / num_attention_heads */
} ArchInfo;

/* The defaults are those of the transformers configuration classes, since
 * save_pretrained() leaves out what equals them in nested configs and
 * older files predate some keys. */
static const ArchInfo archs[] = {
  { "llama", 2, FALSE, FALSE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_NEVER, MOE_NONE, 0 },
  { "mistral", 2, FALSE, FALSE, BIAS_NONE, BIAS_NONE, FALSE, SWA_ALL, MOE_NONE, 0 },
  { "mixtral", 2, FALSE, FALSE, BIAS_NONE, BIAS_NONE, FALSE, SWA_ALL, MOE_MIXTRAL, 0 },
  { "qwen2", 2, FALSE, FALSE, BIAS_QKV, BIAS_NONE, FALSE, SWA_QWEN, MOE_NONE, 0 },
  { "qwen3", 2, TRUE, FALSE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_QWEN, MOE_NONE, 0 },
  { "qwen3_moe", 2, TRUE, FALSE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_QWEN, MOE_QWEN, 0 },
  { "glm4", 4, FALSE, FALSE, BIAS_NONE, BIAS_QKV, TRUE, SWA_NEVER, MOE_NONE, 0 },
  { "gemma2", 4, FALSE, TRUE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_ALTERNATE, MOE_NONE, 256 },
  { "gemma3", 4, TRUE, TRUE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_PATTERN, MOE_NONE, 256 },
  { "phi3", 2, FALSE, FALSE, BIAS_NONE, BIAS_NONE, FALSE, SWA_ALL, MOE_NONE, 0 },
  { "deepseek_v2", 2, FALSE, FALSE, BIAS_NONE, BIAS_NONE, FALSE, SWA_NEVER, MOE_DEEPSEEK, 0 },
  { "deepseek_v3", 2, FALSE, FALSE, BIAS_NONE, BIAS_NONE, FALSE, SWA_NEVER, MOE_DEEPSEEK, 0 },
  { "gpt_oss", 2, FALSE, FALSE, BIAS_QKVO, BIAS_NONE, FALSE, SWA_ALTERNATE, MOE_GPT_OSS, 0 },
  { "cohere", 1, FALSE, TRUE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_NEVER, MOE_NONE, 0 },
  { "falcon", 0, FALSE, TRUE, BIAS_NONE, BIAS_NONE, FALSE, SWA_NEVER, MOE_NONE, 0 },
  /* Llama's shape under other names: Granite's *_multiplier and
   * logits_scaling keys scale activations, SmolLM3's NoPE layers drop
   * RoPE, EXAONE renames num_hidden_layers; none changes a tensor. */
  { "granite", 2, FALSE, FALSE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_NEVER, MOE_NONE, 0 },
  { "smollm3", 2, FALSE, TRUE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_NEVER, MOE_NONE, 0 },
  { "exaone", 2, FALSE, TRUE, BIAS_NONE, BIAS_NONE, FALSE, SWA_NEVER, MOE_NONE, 0 },
  { "internlm3", 2, FALSE, FALSE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_NEVER, MOE_NONE, 0 },
  /* OLMo 2 norms after attention and MLP, and q/k over the whole width. */
  { "olmo2", 2, FALSE, FALSE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_NEVER, MOE_NONE, 0 },
  { "seed_oss", 2, FALSE, FALSE, BIAS_NONE, BIAS_QKV, TRUE, SWA_NEVER, MOE_NONE, 0 },
  /* GLM-4.5: DeepSeek-V3's experts behind grouped-query attention with
   * q/k/v biases and optional per-head q/k norms. */
  { "glm4_moe", 2, FALSE, FALSE, BIAS_NONE, BIAS_QKV, FALSE, SWA_NEVER, MOE_GLM, 0 },
  /* Command R7B: Command R with three sliding-window layers in four. */
  { "cohere2", 1, FALSE, TRUE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_PATTERN, MOE_NONE, 0 },
  /* Qwen3-Next (Qwen3NextForCausalLM): Qwen3's MoE with Gated DeltaNet
   * layers and one gated attention layer every full_attention_interval
   * (read_qwen3_next). */
  { "qwen3_next", 2, TRUE, FALSE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_NEVER, MOE_QWEN, 0 },
  /* Granite 4.0 H (GraniteMoeHybridForCausalLM): Mamba2 or attention
   * layers as layer_types lists them, each with routed experts as wide
   * as intermediate_size beside a shared MLP (read_granite_hybrid). */
  { "granitemoehybrid", 2, FALSE, FALSE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_NEVER, MOE_MIXTRAL,
    0 },
  /* Nemotron-H (NemotronHForCausalLM): one norm and one thing per layer,
   * as hybrid_override_pattern says: Mamba2, attention or a squared-ReLU
   * MLP (read_nemotron_h). */
  { "nemotron_h", 1, FALSE, FALSE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_NEVER, MOE_NONE, 0 },
  /* LFM2 (Lfm2ForCausalLM): gated short convolutions or attention with
   * per-head q/k norms, a SwiGLU MLP in every layer (read_lfm2). */
  { "lfm2", 2, TRUE, TRUE, BIAS_NONE, BIAS_NONE, FALSE, SWA_NEVER, MOE_NONE, 0 },
  /* Falcon-H1 (FalconH1ForCausalLM): attention and a Mamba2 mixer side by
   * side in every layer, then a SwiGLU MLP (read_falcon_h1). */
  { "falcon_h1", 2, FALSE, FALSE, BIAS_NONE, BIAS_QKVO, FALSE, SWA_NEVER, MOE_NONE, 0 },
};

/* Configs whose model_type names an architecture above: Kimi K2 is
 * DeepseekV3ForCausalLM, MiMo a Qwen2 decoder (its multi-token-prediction
 * layer is left out, as DeepSeek-V3's is), and Mistral 3 nests a Mistral
 * text model in text_config beside its vision tower. */
static const struct
{
  const char *model_type;
  const char *as;
} aliases[] = {
  { "gemma3_text", "gemma3" },
  { "kimi_k2", "deepseek_v3" },
  { "mimo", "qwen2" },
  { "mistral3", "mistral" },
};

/* The model_types a config may have, as the error lists them: the
 * table's, then the aliases. */
static const char *
supported_list (void)
{
  static gsize list;

  if (g_once_init_enter (&list))
    {
      GString *names = g_string_new (NULL);

      for (guint i = 0; i < G_N_ELEMENTS (archs); i++)
        g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "", archs[i].model_type);
      for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
        g_string_append_printf (names, ", %s", aliases[i].model_type);
      g_once_init_leave (&list, (gsize) g_string_free (names, FALSE));
    }
  return (const char *) list;
}

/* Everything the catalog entry and the parameter count need, in one
 * place, so that both are derived from the same reading of the config. */
typedef struct
{
  const ArchInfo *info;
  JsonObject *config;        /* the whole file */
  JsonObject *text;          /* where the text model's keys are */
  const char *prefix;        /* "text_config." when nested, for messages */
  gboolean gemma3;           /* Gemma3TextConfig defaults apply */

  guint64 layers;
  guint64 hidden;
  guint64 heads;
  guint64 kv_heads;
  guint64 head_dim;
  guint64 head_dim_v;
  guint64 intermediate;
  guint64 vocab;
  guint64 max_context;
  gboolean tied;
  gboolean mla;
  gboolean qk_norm;          /* per-head q/k norms where optional (GLM-4.5) */

  /* Parameter-only details. */
  BiasKind attn_bias;
  gboolean sinks;            /* gpt-oss: one learned logit per head */
  guint64 head_norm_params;  /* per layer, beside the hidden-wide norms */
  guint norms;               /* hidden-wide norms per layer */
  guint norm_width;          /* 1: weight only, 2: LayerNorm weight + bias */
  gboolean plain_mlp;        /* Falcon: up, activation, down */
  gboolean mlp_bias;
  gboolean dense_bias;       /* Falcon "bias": on every linear layer */

  /* Multi-head latent attention (DeepSeek). */
  guint64 kv_lora_rank;
  guint64 q_lora_rank;
  guint64 qk_rope_head_dim;
  guint64 qk_nope_head_dim;

  /* Mixture of experts. */
  guint64 experts;
  guint64 experts_active;
  guint64 shared_experts;
  guint64 expert_intermediate;
  guint64 moe_layers;        /* layers with experts; the rest are dense */

  guint64 sliding_window;    /* 0: none */
  guint64 swa_period;

  /* Recurrent layers (Qwen3-Next's Gated DeltaNet, Mamba2), in
   * llama.cpp's terms; the hybrids' layer kinds (HR_LAYER_*) when they
   * follow no period. */
  HrStateKind state_kind;
  char layer_pattern[HR_LAYER_PATTERN_MAX + 1];
  guint64 ffn_layers;        /* layers with an FFN (all but Nemotron-H's) */
  guint64 shared_width;      /* a shared MLP of its own width (Granite) */
  gboolean shared_gate;      /* Qwen3-Next's gated shared expert */
  gboolean state_parallel;   /* Falcon-H1: attention beside the mixer */
  gboolean ssm_no_norm;      /* Mamba2 without its gated norm */
  guint64 ssm_heads;         /* Mamba2 heads */
  guint64 state_layers;
  guint64 attention_period;
  guint64 ssm_conv_kernel;
  guint64 ssm_inner;         /* value heads × value head size */
  guint64 ssm_state;         /* key head size */
  guint64 ssm_groups;        /* key heads */
  guint64 ssm_value_heads;
} Reading;

const char *
hr_hf_config_supported (void)
{
  return supported_list ();
}

static gboolean
invalid (GError    **error,
         const char *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError    **error,
         const char *format,
         ...)
{
  va_list args;

  GError *local_error;

  va_start (args, format);
  local_error = g_error_new_valist (HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID, format, args);
  va_end (args);
  /* Messages quote the file's keys and values. */
  hr_text_sanitize_error (local_error);
  g_propagate_error (error, local_error);
  return FALSE;
}

static const char *
describe_node (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
    default:
      break;
    }

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return "a string";
    case G_TYPE_BOOLEAN:
      return "a boolean";
    case G_TYPE_DOUBLE:
      return "a fraction";
    default:
      return "a number";
    }
}

/* The member @key of @object; JSON null counts as absent, as it does for
 * transformers (head_dim: null means "derive it"). */
static JsonNode *
member (JsonObject *object,
        const char *key)
{
  JsonNode *node;

  if (object == NULL)
    return NULL;
  node = json_object_get_member (object, key);
  if (node != NULL && JSON_NODE_HOLDS_NULL (node))
    return NULL;
  return node;
}

/* Looks up @key, or the older spelling @alias, in the text model's keys. */
static JsonNode *
text_member (Reading       *s,
             const char  *key,
             const char  *alias,
             const char **found)
{
  JsonNode *node = member (s->text, key);

  *found = key;
  if (node == NULL && alias != NULL && (node = member (s->text, alias)) != NULL)
    *found = alias;
  return node;
}

/* Reads an integer of the text model.  Without the key, @def is used if
 * @required is FALSE.  Values below @min or above @max are refused, so
 * every later product stays far inside a double's exact range. */
static gboolean
read_uint_alias (Reading       *s,
                 const char  *key,
                 const char  *alias,
                 gboolean     required,
                 guint64      def,
                 guint64      min,
                 guint64      max,
                 guint64     *out,
                 GError     **error)
{
  const char *found;
  JsonNode *node = text_member (s, key, alias, &found);
  gint64 value;

  if (node == NULL)
    {
      if (required)
        return invalid (error, "key “%s%s” is missing", s->prefix, key);
      *out = def;
      return TRUE;
    }

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    value = json_node_get_int (node);
  else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      /* Some exporters write 4096.0; a whole number is still a count. */
      double d = json_node_get_double (node);

      if (!isfinite (d) || d != floor (d))
        return invalid (error, "key “%s%s” must be an integer, not %g",
                        s->prefix, found, d);
      if (d > (double) max)
        return invalid (error, "key “%s%s” is %g, above the limit of %" G_GUINT64_FORMAT,
                        s->prefix, found, d, max);
      value = (gint64) MAX (d, (double) G_MININT32);
    }
  else
    return invalid (error, "key “%s%s” must be an integer, not %s",
                    s->prefix, found, describe_node (node));

  if (value < (gint64) min)
    {
      if (min == 1)
        return invalid (error, "key “%s%s” must be a positive integer, not %" G_GINT64_FORMAT,
                        s->prefix, found, value);
      return invalid (error, "key “%s%s” must not be negative (%" G_GINT64_FORMAT ")",
                      s->prefix, found, value);
    }
  if ((guint64) value > max)
    return invalid (error, "key “%s%s” is %" G_GINT64_FORMAT ", above the limit of %"
                    G_GUINT64_FORMAT, s->prefix, found, value, max);

  *out = (guint64) value;
  return TRUE;
}

static gboolean
read_uint (Reading       *s,
           const char  *key,
           gboolean     required,
           guint64      def,
           guint64      min,
           guint64      max,
           guint64     *out,
           GError     **error)
{
  return read_uint_alias (s, key, NULL, required, def, min, max, out, error);
}

/* A boolean of the text model, or of the whole file (Gemma 3 keeps
 * tie_word_embeddings at the top). */
static gboolean
read_bool (Reading       *s,
           const char  *key,
           gboolean     def,
           gboolean    *out,
           GError     **error)
{
  const char *prefix = s->prefix;
  JsonNode *node = member (s->text, key);

  if (node == NULL && s->text != s->config)
    {
      node = member (s->config, key);
      prefix = "";
    }
  if (node == NULL)
    {
      *out = def;
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return invalid (error, "key “%s%s” must be true or false, not %s",
                    prefix, key, describe_node (node));
  *out = json_node_get_boolean (node);
  return TRUE;
}

static gboolean
find_arch (JsonObject      *config,
           const ArchInfo **info,
           gboolean        *nested,
           GError         **error)
{
  JsonNode *node = member (config, "model_type");
  const char *model_type;

  if (node == NULL)
    return invalid (error, "key “model_type” is missing");
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return invalid (error, "key “model_type” must be a string, not %s",
                    describe_node (node));

  model_type = json_node_get_string (node);
  /* Multimodal Gemma 3 and Mistral 3 nest the language model in
   * text_config; a text-only checkpoint has it at the top. */
  *nested = g_strcmp0 (model_type, "gemma3") == 0 || g_strcmp0 (model_type, "mistral3") == 0;
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (g_strcmp0 (model_type, aliases[i].model_type) == 0)
      model_type = aliases[i].as;
  for (guint i = 0; i < G_N_ELEMENTS (archs); i++)
    {
      if (g_strcmp0 (archs[i].model_type, model_type) == 0)
        {
          *info = &archs[i];
          return TRUE;
        }
    }

  return invalid (error, "unknown architecture “%s” (supported: %s)",
                  json_node_get_string (node), supported_list ());
}

/* Gemma 3 multimodal checkpoints describe the language model in
 * text_config; the vision tower is not counted, as it never runs while
 * generating text. */
static gboolean
find_text_config (Reading     *s,
                  gboolean   nested,
                  GError   **error)
{
  JsonNode *node;

  s->text = s->config;
  s->prefix = "";
  if (!nested)
    return TRUE;

  node = member (s->config, "text_config");
  if (node == NULL)
    return invalid (error, "key “text_config” is missing");
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return invalid (error, "key “text_config” must be an object, not %s",
                    describe_node (node));
  s->text = json_node_get_object (node);
  s->prefix = "text_config.";
  return TRUE;
}

/* Marks the sliding-window layers from an explicit layer_types list. */
static gboolean
read_layer_types (Reading     *s,
                  JsonArray *types,
                  gboolean  *sliding,
                  GError   **error)
{
  guint n = json_array_get_length (types);

  if (n != s->layers)
    return invalid (error, "key “%slayer_types” has %u entries for %" G_GUINT64_FORMAT
                    " layers", s->prefix, n, s->layers);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (types, i);
      const char *type = NULL;

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        type = json_node_get_string (node);
      if (g_strcmp0 (type, "sliding_attention") == 0)
        sliding[i] = TRUE;
      else if (g_strcmp0 (type, "full_attention") == 0)
        sliding[i] = FALSE;
      else if (type != NULL)
        return invalid (error, "key “%slayer_types” entry %u is “%s”, not "
                        "sliding_attention or full_attention", s->prefix, i, type);
      else
        return invalid (error, "key “%slayer_types” entry %u must be a string, not %s",
                        s->prefix, i, describe_node (node));
    }
  return TRUE;
}

/* The catalog's period for a per-layer pattern (hr_swa_period_from_layers). */
static void
derive_swa_period (Reading          *s,
                   const gboolean *sliding)
{
  if (hr_swa_period_from_layers (sliding, s->layers, &s->swa_period) == HR_SWA_NONE)
    s->sliding_window = 0;
}

static gboolean
read_sliding_window (Reading   *s,
                     GError **error)
{
  g_autofree gboolean *sliding = NULL;
  JsonNode *types;
  gboolean use = TRUE;

  if (!read_uint (s, "sliding_window", FALSE, s->gemma3 ? 4096 : 0, 0, HR_CONTEXT_MAX,
                  &s->sliding_window, error))
    return FALSE;

  if (s->info->swa == SWA_QWEN &&
      !read_bool (s, "use_sliding_window", FALSE, &use, error))
    return FALSE;
  if (!use || s->info->swa == SWA_NEVER)
    s->sliding_window = 0;
  if (s->sliding_window == 0)
    return TRUE;

  sliding = g_new0 (gboolean, s->layers);
  types = member (s->text, "layer_types");
  if (types != NULL)
    {
      if (!JSON_NODE_HOLDS_ARRAY (types))
        return invalid (error, "key “%slayer_types” must be an array, not %s",
                        s->prefix, describe_node (types));
      if (!read_layer_types (s, json_node_get_array (types), sliding, error))
        return FALSE;
    }
  else
    {
      guint64 period = 2;
      guint64 first_local = 0;

      switch (s->info->swa)
        {
        case SWA_ALL:
          period = 0;
          break;
        case SWA_ALTERNATE:
          break;
        case SWA_PATTERN:
          /* Renamed with a leading underscore when layer_types arrived;
           * Gemma 3 defaults to 6, Cohere2 to 4. */
          if (!read_uint_alias (s, "sliding_window_pattern", "_sliding_window_pattern",
                                FALSE, s->gemma3 ? 6 : 4, 1, HR_LAYERS_MAX, &period, error))
            return FALSE;
          break;
        case SWA_QWEN:
          period = 0;
          if (!read_uint (s, "max_window_layers", FALSE, 28, 0, HR_LAYERS_MAX,
                          &first_local, error))
            return FALSE;
          break;
        case SWA_NEVER:
        default:
          g_assert_not_reached ();
        }

      for (guint64 i = 0; i < s->layers; i++)
        sliding[i] = i >= first_local && (period == 0 || (i + 1) % period != 0);
    }

  derive_swa_period (s, sliding);
  return TRUE;
}

static gboolean
read_attention (Reading   *s,
                GError **error)
{
  const ArchInfo *info = s->info;
  gboolean flag = FALSE;

  if (!read_uint_alias (s, "num_attention_heads", "n_head", !s->gemma3, 8, 1, 1 << 16,
                        &s->heads, error))
    return FALSE;

  if (s->mla)
    {
      guint64 v_head_dim;

      if (!read_uint (s, "kv_lora_rank", TRUE, 0, 1, 1 << 20, &s->kv_lora_rank, error) ||
          !read_uint (s, "q_lora_rank", FALSE, 0, 0, 1 << 20, &s->q_lora_rank, error) ||
          !read_uint (s, "qk_rope_head_dim", TRUE, 0, 1, 1 << 15,
                      &s->qk_rope_head_dim, error) ||
          !read_uint (s, "qk_nope_head_dim", TRUE, 0, 0, 1 << 15,
                      &s->qk_nope_head_dim, error) ||
          !read_uint (s, "v_head_dim", TRUE, 0, 1, 1 << 16, &v_head_dim, error))
        return FALSE;
      /* Every head gets its own keys and values from the latent. */
      s->kv_heads = s->heads;
      s->head_dim = s->qk_nope_head_dim + s->qk_rope_head_dim;
      s->head_dim_v = v_head_dim;
    }
  else if (strcmp (info->model_type, "falcon") == 0)
    {
      gboolean new_arch = FALSE, multi_query = FALSE;

      /* Falcon-40B/180B's new decoder has grouped KV heads; the 7B has
       * one (multi_query), and converted 7B configs still carry a
       * num_kv_heads that transformers ignores for it. */
      if (!read_bool (s, "new_decoder_architecture", FALSE, &new_arch, error) ||
          !read_bool (s, "multi_query", TRUE, &multi_query, error))
        return FALSE;
      if (new_arch)
        {
          if (!read_uint_alias (s, "num_kv_heads", "n_head_kv", FALSE, s->heads, 1, 1 << 16,
                                &s->kv_heads, error))
            return FALSE;
        }
      else
        s->kv_heads = multi_query ? 1 : s->heads;
    }
  else if (!read_uint (s, "num_key_value_heads", FALSE, s->gemma3 ? 4 : s->heads, 1, 1 << 16,
                       &s->kv_heads, error))
    return FALSE;

  if (!s->mla)
    {
      guint64 derived = s->hidden / s->heads;

      if (info->head_dim_default != 0)
        derived = info->head_dim_default;
      else if (member (s->text, "head_dim") == NULL && s->hidden % s->heads != 0)
        return invalid (error, "key “%shead_dim” is missing and hidden_size %" G_GUINT64_FORMAT
                        " is not a multiple of num_attention_heads %" G_GUINT64_FORMAT,
                        s->prefix, s->hidden, s->heads);
      if (!read_uint (s, "head_dim", FALSE, derived, 1, 1 << 16, &s->head_dim, error))
        return FALSE;
      s->head_dim_v = s->head_dim;
    }

  /* Biases on the attention projections.  InternLM3 calls the flag
   * qkv_bias (and "bias" the output's and MLP's, off in every release);
   * either counts as Llama's attention_bias. */
  s->attn_bias = info->bias_always;
  if (strcmp (info->model_type, "internlm3") == 0)
    {
      gboolean qkv = FALSE, other = FALSE;

      if (!read_bool (s, "qkv_bias", FALSE, &qkv, error) ||
          !read_bool (s, "bias", FALSE, &other, error))
        return FALSE;
      s->attn_bias = qkv || other ? BIAS_QKVO : BIAS_NONE;
    }
  else if (info->bias_flag != BIAS_NONE || s->mla)
    {
      if (!read_bool (s, "attention_bias", info->bias_flag_default, &flag, error))
        return FALSE;
      if (flag && s->mla)
        s->attn_bias = BIAS_QKVO;
      else if (flag)
        s->attn_bias = info->bias_flag;
    }
  s->sinks = info->moe == MOE_GPT_OSS;

  if (info->head_norms)
    s->head_norm_params = 2 * s->head_dim;
  /* GLM-4.5 normalises each query and key head when use_qk_norm says so. */
  if (info->moe == MOE_GLM)
    {
      if (!read_bool (s, "use_qk_norm", FALSE, &s->qk_norm, error))
        return FALSE;
      if (s->qk_norm)
        s->head_norm_params = 2 * s->head_dim;
    }
  /* OLMo 2 normalises all queries and all keys as one vector each. */
  if (strcmp (info->model_type, "olmo2") == 0)
    s->head_norm_params = (s->heads + s->kv_heads) * s->head_dim;
  /* Seed-OSS has a separate switch for the output projection's bias. */
  if (strcmp (info->model_type, "seed_oss") == 0 && s->attn_bias == BIAS_QKV)
    {
      gboolean out_bias = FALSE;

      if (!read_bool (s, "attention_out_bias", FALSE, &out_bias, error))
        return FALSE;
      if (out_bias)
        s->attn_bias = BIAS_QKVO;
    }
  if (strcmp (info->model_type, "cohere") == 0)
    {
      gboolean qk_norm = FALSE;

      /* Command R+ normalises every query and key head separately. */
      if (!read_bool (s, "use_qk_norm", FALSE, &qk_norm, error))
        return FALSE;
      if (qk_norm)
        s->head_norm_params = (s->heads + s->kv_heads) * s->head_dim;
    }

  return TRUE;
}

/* Mixture-of-experts layout: how many experts, how wide, which layers. */
static gboolean
read_experts (Reading   *s,
              GError **error)
{
  guint64 first_dense = 0;
  guint64 freq = 1;
  g_autofree gboolean *dense_only = NULL;

  switch (s->info->moe)
    {
    case MOE_NONE:
      return TRUE;
    case MOE_MIXTRAL:
    case MOE_GPT_OSS:
      /* Every expert is as wide as intermediate_size. */
      if (!read_uint (s, "num_local_experts", TRUE, 0, 0, 1 << 16, &s->experts, error))
        return FALSE;
      s->expert_intermediate = s->intermediate;
      break;
    case MOE_QWEN:
      if (!read_uint (s, "num_experts", TRUE, 0, 0, 1 << 16, &s->experts, error) ||
          !read_uint (s, "moe_intermediate_size", s->experts > 0, 0, 1, G_MAXUINT32,
                      &s->expert_intermediate, error) ||
          !read_uint (s, "decoder_sparse_step", FALSE, 1, 1, HR_LAYERS_MAX, &freq, error))
        return FALSE;
      break;
    case MOE_DEEPSEEK:
    case MOE_GLM:
      if (!read_uint (s, "n_routed_experts", FALSE, 0, 0, 1 << 16, &s->experts, error) ||
          !read_uint (s, "moe_intermediate_size", s->experts > 0, 0, 1, G_MAXUINT32,
                      &s->expert_intermediate, error) ||
          !read_uint (s, "n_shared_experts", FALSE, 0, 0, 1 << 16, &s->shared_experts, error) ||
          !read_uint (s, "first_k_dense_replace", FALSE, 0, 0, HR_LAYERS_MAX,
                      &first_dense, error) ||
          !read_uint (s, "moe_layer_freq", FALSE, 1, 1, HR_LAYERS_MAX, &freq, error))
        return FALSE;
      break;
    default:
      g_assert_not_reached ();
    }

  if (s->experts == 0)
    {
      s->shared_experts = 0;
      return TRUE;
    }

  if (!read_uint_alias (s, "num_experts_per_tok", "experts_per_token", TRUE, 0, 1,
                        s->experts, &s->experts_active, error))
    return FALSE;

  dense_only = g_new0 (gboolean, s->layers);
  if (s->info->moe == MOE_QWEN)
    {
      JsonNode *node = member (s->text, "mlp_only_layers");
      JsonArray *array;

      if (node != NULL && !JSON_NODE_HOLDS_ARRAY (node))
        return invalid (error, "key “%smlp_only_layers” must be an array, not %s",
                        s->prefix, describe_node (node));
      array = node != NULL ? json_node_get_array (node) : NULL;
      for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          gint64 layer;

          if (!JSON_NODE_HOLDS_VALUE (element) ||
              json_node_get_value_type (element) != G_TYPE_INT64)
            return invalid (error, "key “%smlp_only_layers” entry %u must be an integer, "
                            "not %s", s->prefix, i, describe_node (element));
          layer = json_node_get_int (element);
          if (layer < 0 || (guint64) layer >= s->layers)
            return invalid (error, "key “%smlp_only_layers” entry %u is %" G_GINT64_FORMAT
                            ", not a layer index below %" G_GUINT64_FORMAT,
                            s->prefix, i, layer, s->layers);
          dense_only[layer] = TRUE;
        }
    }

  /* Same layer selection as the transformers models. */
  s->moe_layers = 0;
  for (guint64 i = 0; i < s->layers; i++)
    {
      gboolean moe;

      if (s->info->moe == MOE_QWEN)
        moe = !dense_only[i] && (i + 1) % freq == 0;
      else if (s->info->moe == MOE_DEEPSEEK || s->info->moe == MOE_GLM)
        moe = i >= first_dense && i % freq == 0;
      else
        moe = TRUE;
      s->moe_layers += moe;
    }

  return TRUE;
}

static gboolean
read_falcon (Reading   *s,
             GError **error)
{
  gboolean new_arch = FALSE, parallel = TRUE;
  guint64 lns = 2;

  if (!read_bool (s, "new_decoder_architecture", FALSE, &new_arch, error) ||
      !read_bool (s, "parallel_attn", TRUE, &parallel, error) ||
      !read_bool (s, "bias", FALSE, &s->dense_bias, error) ||
      !read_uint (s, "num_ln_in_parallel_attn", FALSE, 2, 1, 2, &lns, error))
    return FALSE;

  /* LayerNorms (weight and bias): the new decoder has ln_attn and ln_mlp
   * unless told to share one; otherwise one input norm, and a second
   * before the MLP when attention and MLP do not run in parallel. */
  s->norm_width = 2;
  if (new_arch && lns == 2)
    s->norms = 2;
  else
    s->norms = parallel ? 1 : 2;
  s->plain_mlp = TRUE;
  if (s->dense_bias)
    s->attn_bias = BIAS_QKVO;
  return TRUE;
}

/* Qwen3NextConfig (transformers): linear_* keys of the Gated DeltaNet
 * layers, one full-attention layer closing every full_attention_interval,
 * the shared expert of shared_expert_intermediate_size with its gate.
 * llama.cpp reads the same into ssm_d_conv, ssm_d_inner (value heads ×
 * value head size), ssm_d_state (key head size) and ssm_n_group (key
 * heads); the value head size must equal the key head size there. */
static gboolean
read_qwen3_next (Reading   *s,
                 GError **error)
{
  guint64 v_head = 0, shared = 0;

  if (!read_uint (s, "full_attention_interval", FALSE, 4, 1, s->layers,
                  &s->attention_period, error) ||
      !read_uint (s, "linear_conv_kernel_dim", FALSE, 4, 2, 1 << 16, &s->ssm_conv_kernel,
                  error) ||
      !read_uint (s, "linear_key_head_dim", FALSE, 128, 1, 1 << 16, &s->ssm_state, error) ||
      !read_uint (s, "linear_value_head_dim", FALSE, 128, 1, 1 << 16, &v_head, error) ||
      !read_uint (s, "linear_num_key_heads", FALSE, 16, 1, 1 << 16, &s->ssm_groups, error) ||
      !read_uint (s, "linear_num_value_heads", FALSE, 32, 1, 1 << 16, &s->ssm_value_heads,
                  error) ||
      !read_uint (s, "shared_expert_intermediate_size", FALSE, 0, 0, G_MAXUINT32, &shared,
                  error))
    return FALSE;
  if (v_head != s->ssm_state)
    return invalid (error, "key “%slinear_value_head_dim” (%" G_GUINT64_FORMAT ") differs "
                    "from “%slinear_key_head_dim” (%" G_GUINT64_FORMAT "), which Headroom's "
                    "state formula cannot represent", s->prefix, v_head, s->prefix,
                    s->ssm_state);
  if (shared > 0 && (s->expert_intermediate == 0 || shared % s->expert_intermediate != 0))
    return invalid (error, "key “%sshared_expert_intermediate_size” (%" G_GUINT64_FORMAT
                    ") is not a whole number of experts of %" G_GUINT64_FORMAT, s->prefix,
                    shared, s->expert_intermediate);
  s->shared_experts = s->expert_intermediate > 0 ? shared / s->expert_intermediate : 0;
  s->shared_gate = s->shared_experts > 0;
  s->ssm_inner = s->ssm_value_heads * v_head;
  s->state_layers = s->layers - s->layers / s->attention_period;
  s->state_kind = HR_STATE_GATED_DELTANET;
  return TRUE;
}

/* A per-layer list of layer kinds (Granite's layer_types): each entry
 * one of @names, which map onto the HR_LAYER_* of @kinds. */
static gboolean
read_layer_kinds (Reading            *s,
                  const char         *key,
                  const char * const *names,
                  const char         *kinds,
                  GError            **error)
{
  JsonNode *node = member (s->text, key);
  JsonArray *array;
  g_autofree char *expected = NULL;

  if (node == NULL)
    return invalid (error, "key “%s%s” is missing", s->prefix, key);
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return invalid (error, "key “%s%s” must be an array, not %s", s->prefix, key,
                    describe_node (node));
  array = json_node_get_array (node);
  if (json_array_get_length (array) != s->layers)
    return invalid (error, "key “%s%s” has %u entries for %" G_GUINT64_FORMAT " layers",
                    s->prefix, key, json_array_get_length (array), s->layers);
  if (s->layers > HR_LAYER_PATTERN_MAX)
    return invalid (error, "%" G_GUINT64_FORMAT " layers are more than the %u whose kinds a "
                    "hybrid may list", s->layers, HR_LAYER_PATTERN_MAX);

  expected = g_strjoinv (", ", (char **) names);
  for (guint i = 0; i < s->layers; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      const char *name = NULL;
      guint k;

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
        name = json_node_get_string (element);
      for (k = 0; name != NULL && names[k] != NULL; k++)
        if (strcmp (name, names[k]) == 0)
          break;
      if (name == NULL || names[k] == NULL)
        return invalid (error, "key “%s%s” entry %u must be one of %s", s->prefix, key, i,
                        expected);
      s->layer_pattern[i] = kinds[k];
    }
  s->state_layers = hr_layer_pattern_count (s->layer_pattern, HR_LAYER_RECURRENT);
  return TRUE;
}

/* The Mamba2 mixer's mamba_* keys (GraniteMoeHybridConfig, whose
 * defaults these are): heads of mamba_d_head, mamba_n_groups groups of
 * B and C with mamba_d_state each, a mamba_d_conv kernel.  llama.cpp
 * reads them as ssm_dt_rank, ssm_d_inner (heads × head size),
 * ssm_d_state, ssm_n_group and ssm_d_conv.  Headroom's recipe has the
 * convolution's bias and no projection bias, as every release does. */
static gboolean
read_mamba2 (Reading   *s,
             GError **error)
{
  guint64 expand = 2, head = 0;
  gboolean conv_bias = TRUE, proj_bias = FALSE;

  if (!read_uint (s, "mamba_expand", FALSE, 2, 1, 64, &expand, error) ||
      !read_uint (s, "mamba_n_heads", FALSE, 128, 1, 1 << 16, &s->ssm_heads, error) ||
      !read_uint (s, "mamba_d_head", FALSE, expand * s->hidden / s->ssm_heads, 1, 1 << 16,
                  &head, error) ||
      !read_uint (s, "mamba_d_state", FALSE, 256, 1, 1 << 16, &s->ssm_state, error) ||
      !read_uint (s, "mamba_n_groups", FALSE, 1, 1, 1 << 16, &s->ssm_groups, error) ||
      !read_uint (s, "mamba_d_conv", FALSE, 4, 2, 1 << 16, &s->ssm_conv_kernel, error) ||
      !read_bool (s, "mamba_conv_bias", TRUE, &conv_bias, error) ||
      !read_bool (s, "mamba_proj_bias", FALSE, &proj_bias, error))
    return FALSE;
  if (!conv_bias || proj_bias)
    return invalid (error, "keys “%smamba_conv_bias” false or “%smamba_proj_bias” true: "
                    "no released model has them, and Headroom's tensor recipe does not",
                    s->prefix, s->prefix);
  s->ssm_inner = s->ssm_heads * head;
  if (s->ssm_inner == 0 || s->ssm_inner > 1 << 24 || s->ssm_inner % s->ssm_groups != 0)
    return invalid (error, "mamba_n_heads × mamba_d_head (%" G_GUINT64_FORMAT ") must be "
                    "positive, below 2^24 and a multiple of mamba_n_groups", s->ssm_inner);
  s->state_kind = HR_STATE_MAMBA;
  return TRUE;
}

/* GraniteMoeHybridConfig: layer_types ("mamba" or "attention") gives
 * each layer its mixer; every layer then has the shared MLP of
 * shared_intermediate_size, beside num_local_experts routed experts of
 * intermediate_size (none in H-Micro).  The catalog keeps the shared
 * MLP's width as the dense width, with one shared expert. */
static gboolean
read_granite_hybrid (Reading   *s,
                     GError **error)
{
  static const char * const names[] = { "mamba", "attention", NULL };
  static const char kinds[] = { HR_LAYER_RECURRENT, HR_LAYER_ATTENTION };
  guint64 shared = 0;

  if (!read_uint (s, "shared_intermediate_size", TRUE, 0, 1, G_MAXUINT32, &shared, error) ||
      !read_layer_kinds (s, "layer_types", names, kinds, error) ||
      !read_mamba2 (s, error))
    return FALSE;
  s->intermediate = shared;
  if (s->experts > 0)
    {
      s->shared_experts = 1;
      s->shared_width = shared;
    }
  return TRUE;
}

/* NemotronHConfig: hybrid_override_pattern gives each layer's kind in
 * the letters Headroom's layer_pattern uses (M Mamba2, * attention, - an
 * MLP); the Mamba2 mixer is mamba_num_heads of mamba_head_dim, n_groups
 * groups of ssm_state_size, a conv_kernel convolution with its bias
 * (use_conv_bias) and no projection bias (use_bias); the MLP has no gate
 * (squared ReLU).  The defaults are NemotronHConfig's. */
static gboolean
read_nemotron_h (Reading   *s,
                 GError **error)
{
  JsonNode *node = member (s->text, "hybrid_override_pattern");
  const char *pattern;
  guint64 head = 0;
  gboolean conv_bias = TRUE, proj_bias = FALSE;

  if (node == NULL)
    return invalid (error, "key “%shybrid_override_pattern” is missing", s->prefix);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return invalid (error, "key “%shybrid_override_pattern” must be a string, not %s",
                    s->prefix, describe_node (node));
  pattern = json_node_get_string (node);
  if (strlen (pattern) != s->layers || s->layers > HR_LAYER_PATTERN_MAX)
    return invalid (error, "key “%shybrid_override_pattern” has %" G_GSIZE_FORMAT " layers, "
                    "not %" G_GUINT64_FORMAT " (at most %u)", s->prefix, strlen (pattern),
                    s->layers, HR_LAYER_PATTERN_MAX);
  if (strspn (pattern, "M*-") != s->layers)
    return invalid (error, "key “%shybrid_override_pattern” may only hold M (Mamba2), "
                    "* (attention) and - (MLP)", s->prefix);
  g_strlcpy (s->layer_pattern, pattern, sizeof s->layer_pattern);

  if (!read_uint (s, "mamba_num_heads", FALSE, 128, 1, 1 << 16, &s->ssm_heads, error) ||
      !read_uint (s, "mamba_head_dim", FALSE, 64, 1, 1 << 16, &head, error) ||
      !read_uint (s, "ssm_state_size", FALSE, 128, 1, 1 << 16, &s->ssm_state, error) ||
      !read_uint (s, "n_groups", FALSE, 8, 1, 1 << 16, &s->ssm_groups, error) ||
      !read_uint (s, "conv_kernel", FALSE, 4, 2, 1 << 16, &s->ssm_conv_kernel, error) ||
      !read_bool (s, "use_conv_bias", TRUE, &conv_bias, error) ||
      !read_bool (s, "use_bias", FALSE, &proj_bias, error) ||
      !read_bool (s, "mlp_bias", FALSE, &s->mlp_bias, error))
    return FALSE;
  if (!conv_bias || proj_bias || s->mlp_bias)
    return invalid (error, "keys “%suse_conv_bias” false, “%suse_bias” or “%smlp_bias” "
                    "true: no released model has them, and Headroom's tensor recipe does not",
                    s->prefix, s->prefix, s->prefix);
  s->ssm_inner = s->ssm_heads * head;
  if (s->ssm_inner > 1 << 24 || s->ssm_inner % s->ssm_groups != 0)
    return invalid (error, "mamba_num_heads × mamba_head_dim (%" G_GUINT64_FORMAT ") must be "
                    "below 2^24 and a multiple of n_groups", s->ssm_inner);
  s->state_kind = HR_STATE_MAMBA;
  s->state_layers = hr_layer_pattern_count (s->layer_pattern, HR_LAYER_RECURRENT);
  s->plain_mlp = TRUE;
  return TRUE;
}

/* FalconH1Config: every layer attends and runs a Mamba2 mixer of
 * mamba_n_heads heads of mamba_d_head (mamba_d_ssm wide), mamba_n_groups
 * groups of mamba_d_state, a mamba_d_conv kernel with its bias, and the
 * gated norm only when mamba_rms_norm is set; llama.cpp reads the same
 * into ssm_dt_rank, ssm_d_inner, ssm_n_group, ssm_d_state, ssm_d_conv.
 * The defaults are FalconH1Config's. */
static gboolean
read_falcon_h1 (Reading   *s,
                GError **error)
{
  guint64 expand = 2, head = 0;
  gboolean conv_bias = TRUE, proj_bias = FALSE, projectors_bias = FALSE, rms_norm = TRUE;

  if (!read_uint (s, "mamba_expand", FALSE, 2, 1, 64, &expand, error) ||
      !read_uint (s, "mamba_d_ssm", FALSE, expand * s->hidden, 1, 1 << 24, &s->ssm_inner,
                  error) ||
      !read_uint (s, "mamba_n_heads", FALSE, 128, 1, 1 << 16, &s->ssm_heads, error) ||
      !read_uint (s, "mamba_d_head", FALSE, s->ssm_inner / s->ssm_heads, 1, 1 << 16, &head,
                  error) ||
      !read_uint (s, "mamba_d_state", FALSE, 256, 1, 1 << 16, &s->ssm_state, error) ||
      !read_uint (s, "mamba_n_groups", FALSE, 1, 1, 1 << 16, &s->ssm_groups, error) ||
      !read_uint (s, "mamba_d_conv", FALSE, 4, 2, 1 << 16, &s->ssm_conv_kernel, error) ||
      !read_bool (s, "mamba_conv_bias", TRUE, &conv_bias, error) ||
      !read_bool (s, "mamba_proj_bias", FALSE, &proj_bias, error) ||
      !read_bool (s, "projectors_bias", FALSE, &projectors_bias, error) ||
      !read_bool (s, "mamba_rms_norm", FALSE, &rms_norm, error) ||
      !read_bool (s, "mlp_bias", FALSE, &s->mlp_bias, error))
    return FALSE;
  if (!conv_bias || proj_bias || projectors_bias || s->mlp_bias)
    return invalid (error, "keys “%smamba_conv_bias” false or “%smamba_proj_bias”, "
                    "“%sprojectors_bias” or “%smlp_bias” true: no released model has them, "
                    "and Headroom's tensor recipe does not", s->prefix, s->prefix, s->prefix,
                    s->prefix);
  if (head * s->ssm_heads != s->ssm_inner || s->ssm_inner % s->ssm_groups != 0)
    return invalid (error, "mamba_n_heads × mamba_d_head (%" G_GUINT64_FORMAT ") must equal "
                    "mamba_d_ssm (%" G_GUINT64_FORMAT ") and be a multiple of mamba_n_groups",
                    head * s->ssm_heads, s->ssm_inner);
  s->ssm_no_norm = !rms_norm;
  s->state_parallel = TRUE;
  s->state_layers = s->layers;
  s->state_kind = HR_STATE_MAMBA;
  return TRUE;
}

/* Lfm2Config: layer_types ("conv" or "full_attention"), or in the first
 * checkpoints full_attn_idxs, gives each layer's kind; the convolution
 * window is conv_L_cache (llama.cpp's shortconv.l_cache) and carries no
 * bias in any release; the MLP width is block_ff_dim (or
 * intermediate_size), which with block_auto_adjust_ff_dim becomes two
 * thirds, times block_ffn_dim_multiplier, rounded up to
 * block_multiple_of (transformers Lfm2MLP; llama.cpp's LFM2-350M and
 * -1.2B have 4,608 and 8,192). */
static gboolean
read_lfm2 (Reading   *s,
           GError **error)
{
  static const char * const names[] = { "conv", "full_attention", NULL };
  static const char kinds[] = { HR_LAYER_RECURRENT, HR_LAYER_ATTENTION };
  JsonNode *node;
  gboolean adjust = TRUE, conv_bias = FALSE;
  guint64 ff = 0, multiple = 256;
  double multiplier = 1.0;

  if (member (s->text, "layer_types") != NULL)
    {
      if (!read_layer_kinds (s, "layer_types", names, kinds, error))
        return FALSE;
    }
  else
    {
      JsonNode *idxs = member (s->text, "full_attn_idxs");
      JsonArray *array;

      if (idxs == NULL || !JSON_NODE_HOLDS_ARRAY (idxs))
        return invalid (error, "key “%slayer_types” or “%sfull_attn_idxs” must list the "
                        "attention layers", s->prefix, s->prefix);
      if (s->layers > HR_LAYER_PATTERN_MAX)
        return invalid (error, "%" G_GUINT64_FORMAT " layers are more than the %u whose "
                        "kinds a hybrid may list", s->layers, HR_LAYER_PATTERN_MAX);
      memset (s->layer_pattern, HR_LAYER_RECURRENT, s->layers);
      s->layer_pattern[s->layers] = '\0';
      array = json_node_get_array (idxs);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          gint64 layer = -1;

          if (JSON_NODE_HOLDS_VALUE (element) &&
              json_node_get_value_type (element) == G_TYPE_INT64)
            layer = json_node_get_int (element);
          if (layer < 0 || (guint64) layer >= s->layers)
            return invalid (error, "key “%sfull_attn_idxs” entry %u must be a layer index "
                            "below %" G_GUINT64_FORMAT, s->prefix, i, s->layers);
          s->layer_pattern[layer] = HR_LAYER_ATTENTION;
        }
      s->state_layers = hr_layer_pattern_count (s->layer_pattern, HR_LAYER_RECURRENT);
    }

  if (!read_uint (s, "conv_L_cache", FALSE, 3, 2, 1 << 16, &s->ssm_conv_kernel, error) ||
      !read_bool (s, "conv_bias", FALSE, &conv_bias, error) ||
      !read_bool (s, "block_auto_adjust_ff_dim", TRUE, &adjust, error) ||
      !read_uint_alias (s, "block_ff_dim", "intermediate_size", TRUE, 0, 1, G_MAXUINT32, &ff,
                        error) ||
      !read_uint (s, "block_multiple_of", FALSE, 256, 1, 1 << 20, &multiple, error))
    return FALSE;
  node = member (s->text, "block_ffn_dim_multiplier");
  if (node != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (node) ||
          (json_node_get_value_type (node) != G_TYPE_DOUBLE &&
           json_node_get_value_type (node) != G_TYPE_INT64))
        return invalid (error, "key “%sblock_ffn_dim_multiplier” must be a number, not %s",
                        s->prefix, describe_node (node));
      multiplier = json_node_get_double (node);
      if (!isfinite (multiplier) || multiplier <= 0 || multiplier > 64)
        return invalid (error, "key “%sblock_ffn_dim_multiplier” must be between 0 and 64",
                        s->prefix);
    }
  if (conv_bias)
    return invalid (error, "key “%sconv_bias” true: no released model has it, and "
                    "Headroom's tensor recipe does not", s->prefix);
  if (adjust)
    {
      ff = 2 * ff / 3;
      ff = (guint64) (multiplier * (double) ff);
      ff = multiple * ((ff + multiple - 1) / multiple);
    }
  s->intermediate = ff;
  s->state_kind = HR_STATE_SHORT_CONV;
  return TRUE;
}

/* One LFM2 short-convolution block's parameters (transformers
 * Lfm2ShortConv): in_proj to B, C and x, the depthwise kernel, out_proj. */
static double
short_conv_params (const Reading *s)
{
  double h = s->hidden;

  return 3 * h * h + h * s->ssm_conv_kernel + h * h;
}

/* One Mamba2 mixer's parameters (transformers' Mamba2 mixers of
 * GraniteMoeHybrid and NemotronH): in_proj to z, x, B, C and dt, the
 * convolution over x, B and C with its bias, dt_bias, A_log and D per
 * head, the gated norm, out_proj. */
static double
mamba2_params (const Reading *s)
{
  double h = s->hidden, inner = s->ssm_inner, heads = s->ssm_heads;
  double bc = 2.0 * s->ssm_groups * s->ssm_state;

  return h * (2 * inner + bc + heads) + (inner + bc) * (s->ssm_conv_kernel + 1.0) +
         3 * heads + (s->ssm_no_norm ? 0 : inner) + inner * h;
}

/* One Gated DeltaNet layer's parameters (transformers
 * Qwen3NextGatedDeltaNet): in_proj_qkvz, in_proj_ba, the convolution
 * over q, k and v, dt_bias and A_log per value head, the gated norm of a
 * value head, out_proj. */
static double
gated_deltanet_params (const Reading *s)
{
  double h = s->hidden;
  double key = (double) s->ssm_groups * s->ssm_state, value = s->ssm_inner;

  return h * (2 * key + 2 * value) + h * 2 * s->ssm_value_heads +
         (2 * key + value) * s->ssm_conv_kernel + 2.0 * s->ssm_value_heads + s->ssm_state +
         value * h;
}

static gboolean
read_shape (JsonObject  *config,
            Reading       *s,
            GError     **error)
{
  const ArchInfo *info = NULL;
  gboolean falcon, gemma3, nested = FALSE;

  memset (s, 0, sizeof *s);
  if (!find_arch (config, &info, &nested, error))
    return FALSE;
  s->info = info;
  s->config = config;
  if (!find_text_config (s, nested, error))
    return FALSE;

  falcon = strcmp (info->model_type, "falcon") == 0;
  gemma3 = strcmp (info->model_type, "gemma3") == 0;
  s->gemma3 = gemma3;
  s->mla = info->moe == MOE_DEEPSEEK;
  s->norms = info->norms;
  s->norm_width = 1;

  /* Gemma 3's nested text config leaves out what equals the
   * Gemma3TextConfig defaults, and the original Falcon configs predate
   * max_position_embeddings and ffn_hidden_size. */
  if (!read_uint_alias (s, "num_hidden_layers",
                        strcmp (info->model_type, "exaone") == 0 ? "num_layers" : "n_layer",
                        TRUE, 0, 1, HR_LAYERS_MAX, &s->layers, error) ||
      !read_uint (s, "hidden_size", TRUE, 0, 1, 1 << 20, &s->hidden, error) ||
      !read_uint (s, "vocab_size", !gemma3, 262208, 1, G_MAXUINT32, &s->vocab, error) ||
      !read_uint (s, "max_position_embeddings", !gemma3 && !falcon, gemma3 ? 131072 : 2048,
                  1, HR_CONTEXT_MAX, &s->max_context, error))
    return FALSE;
  if (falcon)
    {
      if (!read_uint (s, "ffn_hidden_size", FALSE, 4 * s->hidden, 1, G_MAXUINT32,
                      &s->intermediate, error))
        return FALSE;
    }
  /* LFM2's first configs have block_ff_dim instead (read_lfm2) */
  else if (!read_uint (s, "intermediate_size", strcmp (info->model_type, "lfm2") != 0, 0, 1,
                       G_MAXUINT32, &s->intermediate, error))
    return FALSE;

  if (!read_attention (s, error) ||
      !read_bool (s, "tie_word_embeddings", info->tied, &s->tied, error) ||
      !read_experts (s, error) ||
      !read_sliding_window (s, error))
    return FALSE;

  if ((strcmp (info->model_type, "llama") == 0 || strcmp (info->model_type, "granite") == 0 ||
       strcmp (info->model_type, "smollm3") == 0) &&
      !read_bool (s, "mlp_bias", FALSE, &s->mlp_bias, error))
    return FALSE;
  if (falcon && !read_falcon (s, error))
    return FALSE;
  if (strcmp (info->model_type, "qwen3_next") == 0 && !read_qwen3_next (s, error))
    return FALSE;
  if (strcmp (info->model_type, "granitemoehybrid") == 0 && !read_granite_hybrid (s, error))
    return FALSE;
  if (strcmp (info->model_type, "nemotron_h") == 0 && !read_nemotron_h (s, error))
    return FALSE;
  if (strcmp (info->model_type, "lfm2") == 0 && !read_lfm2 (s, error))
    return FALSE;
  if (strcmp (info->model_type, "falcon_h1") == 0 && !read_falcon_h1 (s, error))
    return FALSE;
  /* Nemotron-H has an FFN only in its MLP layers. */
  s->ffn_layers = strcmp (info->model_type, "nemotron_h") == 0
                  ? hr_layer_pattern_count (s->layer_pattern, HR_LAYER_MLP) : s->layers;

  return TRUE;
}

/* Parameters of one layer's attention block, norms included. */
static double
attention_params (const Reading *s)
{
  double h = s->hidden;
  double p;

  if (s->mla)
    {
      double qk = (double) s->qk_nope_head_dim + s->qk_rope_head_dim;
      double q, kv, o;

      /* DeepSeek: queries through an optional low-rank bottleneck (with
       * its norm); keys and values from a shared latent plus a decoupled
       * RoPE key. */
      if (s->q_lora_rank > 0)
        q = h * s->q_lora_rank + s->q_lora_rank + (double) s->q_lora_rank * s->heads * qk;
      else
        q = h * s->heads * qk;
      kv = h * (s->kv_lora_rank + s->qk_rope_head_dim) + s->kv_lora_rank +
           (double) s->kv_lora_rank * s->heads * (s->qk_nope_head_dim + s->head_dim_v);
      o = (double) s->heads * s->head_dim_v * h;
      p = q + kv + o;
      if (s->attn_bias != BIAS_NONE)
        p += (s->q_lora_rank > 0 ? s->q_lora_rank : s->heads * qk) +
             s->kv_lora_rank + s->qk_rope_head_dim + h;
    }
  else
    {
      double q = (double) s->heads * s->head_dim;
      double kv = (double) s->kv_heads * s->head_dim;

      p = h * q + 2 * h * kv + q * h;
      if (s->attn_bias != BIAS_NONE)
        p += q + 2 * kv;
      if (s->attn_bias == BIAS_QKVO)
        p += h;
      if (s->sinks)
        p += s->heads;
    }

  return p + (double) s->norms * s->norm_width * h + s->head_norm_params;
}

static double
dense_mlp_params (const Reading *s)
{
  double h = s->hidden, i = s->intermediate;

  if (s->plain_mlp)
    return 2 * h * i + (s->dense_bias ? i + h : 0);
  return 3 * h * i + (s->mlp_bias ? 2 * i + h : 0);
}

static double
expert_params (const Reading *s)
{
  double h = s->hidden, i = s->expert_intermediate;

  /* gpt-oss experts have biases on gate_up and down. */
  if (s->info->moe == MOE_GPT_OSS)
    return 3 * h * i + 2 * i + h;
  return 3 * h * i;
}

static double
router_params (const Reading *s)
{
  double p = (double) s->hidden * s->experts;

  /* gpt-oss routes with a bias; DeepSeek-V3 and GLM-4.5 add one
   * score-correction bias per expert. */
  if (s->info->moe == MOE_GPT_OSS || s->info->moe == MOE_GLM ||
      strcmp (s->info->model_type, "deepseek_v3") == 0)
    p += s->experts;
  return p;
}

static double
count_params (const Reading *s,
              double      *active)
{
  double embeddings = (double) s->vocab * s->hidden * (s->tied ? 1 : 2);
  double final_norm = (double) s->norm_width * s->hidden;
  double dense_layers = (double) (s->ffn_layers - s->moe_layers);
  double total, act;

  if (s->state_layers > 0)
    {
      /* Hybrids: the attention layers (Qwen3-Next's query projection
       * also yields the output gate, twice as wide), the recurrent
       * layers with the same norms, and the FFNs; Qwen3-Next's shared
       * expert has a gate. */
      double attn = attention_params (s);
      /* Falcon-H1's mixer shares the layer's norms with its attention */
      double recurrent = (s->state_kind == HR_STATE_GATED_DELTANET ? gated_deltanet_params (s) :
                          s->state_kind == HR_STATE_SHORT_CONV ? short_conv_params (s) :
                          mamba2_params (s)) +
                         (s->state_parallel ? 0 : (double) s->norms * s->norm_width * s->hidden);
      double layer_norms = (double) s->norms * s->norm_width * s->hidden;
      double mlp_only = hr_layer_pattern_count (s->layer_pattern, HR_LAYER_MLP);
      double attention_layers = s->state_parallel ? (double) s->layers :
                                s->layer_pattern[0] != '\0'
                                ? hr_layer_pattern_count (s->layer_pattern, HR_LAYER_ATTENTION)
                                : (double) (s->layers - s->state_layers);

      if (s->state_kind == HR_STATE_GATED_DELTANET)
        attn += (double) s->hidden * s->heads * s->head_dim;
      /* Nemotron-H's MLP layers: their norm here, their MLP below */
      total = embeddings + final_norm + attention_layers * attn +
              (double) s->state_layers * recurrent + mlp_only * layer_norms +
              dense_layers * dense_mlp_params (s) +
              (double) s->moe_layers * (s->shared_gate ? s->hidden : 0);
    }
  else
    total = embeddings + final_norm + s->layers * attention_params (s) +
            dense_layers * dense_mlp_params (s);
  act = total;
  if (s->moe_layers > 0)
    {
      double shared_width = s->shared_width > 0 ? (double) s->shared_width
                                                : (double) s->shared_experts *
                                                  s->expert_intermediate;
      double shared = s->shared_experts > 0 ? 3.0 * s->hidden * shared_width : 0;
      double common = router_params (s) + shared;

      total += s->moe_layers * (common + s->experts * expert_params (s));
      act += s->moe_layers * (common + s->experts_active * expert_params (s));
    }

  if (active != NULL)
    *active = act;
  return total;
}

/**
 * hr_hf_config_count_params:
 * @config: the root object of a config.json
 * @active: (out) (optional): parameters used per token (MoE: fewer)
 * @error: return location for an error
 *
 * Counts every parameter from the shapes: embeddings, an untied output
 * head, attention (with biases, sinks and q/k norms where the
 * architecture has them), the MLP or the routed and shared experts with
 * their router, and the norms.  The vision tower of a multimodal Gemma 3
 * or Mistral 3 and the multi-token-prediction layers of DeepSeek-V3,
 * GLM-4.5 and MiMo are left out, as they take no part in generating text.
 *
 * Returns: the total, or 0 with @error set
 */
double
hr_hf_config_count_params (JsonObject  *config,
                           double      *active,
                           GError     **error)
{
  Reading s;

  g_return_val_if_fail (config != NULL, 0);
  g_return_val_if_fail (error == NULL || *error == NULL, 0);

  if (active != NULL)
    *active = 0;
  if (!read_shape (config, &s, error))
    return 0;
  return count_params (&s, active);
}

/* An id such as "meta-llama/Llama-3.1-8B" is kept; a local path (what
 * _name_or_path holds after loading from disk) says nothing useful. */
static gboolean
is_hub_id (const char *str)
{
  const char *slash;

  if (str == NULL || *str == '\0' || *str == '/' || *str == '.' || *str == '~' ||
      strchr (str, '\\') != NULL || strchr (str, ':') != NULL || hr_text_has_control (str))
    return FALSE;
  slash = strchr (str, '/');
  return slash == NULL || (slash[1] != '\0' && strchr (slash + 1, '/') == NULL);
}

/* The attention kind the catalog names for the heads read. */
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

/* Copies what was read into @shape.  Every value was bounded by the
 * reading (to its catalog field's range), so the narrowing is exact. */
static void
fill_shape (const Reading *s,
            double         params,
            double         active,
            HrModelShape  *shape)
{
  HrModelArch *arch = &shape->arch;

  shape->family = g_strdup (s->info->model_type);
  shape->architecture = g_strdup (s->info->model_type);
  /* A config.json says neither. */
  shape->license = g_strdup ("unknown");
  shape->release = g_strdup ("unknown");
  shape->source = g_strdup ("config.json");

  arch->attention = attention_kind (s);
  arch->n_layers = (guint32) s->layers;
  arch->hidden = (guint32) s->hidden;
  arch->n_heads = (guint32) s->heads;
  arch->n_kv_heads = (guint32) s->kv_heads;
  arch->head_dim_k = (guint32) s->head_dim;
  arch->vocab = s->vocab;
  arch->max_context = s->max_context;
  /* Whole numbers well below 2^53, as the catalog's are. */
  arch->params_total = trunc (params);
  arch->params_active = trunc (active);
  shape->intermediate = (guint32) s->intermediate;
  shape->tied_embeddings = s->tied;

  /* Without latent attention, V heads are as wide as K heads: the
   * catalog's default. */
  if (s->mla)
    {
      arch->head_dim_v = (guint32) s->head_dim_v;
      arch->kv_lora_rank = (guint32) s->kv_lora_rank;
      arch->qk_rope_head_dim = (guint32) s->qk_rope_head_dim;
      shape->qk_nope_head_dim = (guint32) s->qk_nope_head_dim;
      shape->q_lora_rank = (guint32) s->q_lora_rank;
    }
  shape->attention_bias = s->attn_bias != BIAS_NONE;
  shape->qk_norm = s->qk_norm;
  hr_model_shape_set_window (shape, s->sliding_window, s->swa_period);
  hr_model_shape_set_experts (shape, s->experts, s->experts_active, s->expert_intermediate,
                              s->shared_experts, s->layers - s->moe_layers);
  shape->plain_mlp = s->plain_mlp;
  if (s->state_layers > 0)
    {
      arch->state_kind = s->state_kind;
      arch->n_state_layers = (guint32) s->state_layers;
      /* read_layer_kinds kept the layers within HR_LAYER_PATTERN_MAX */
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
}

/**
 * hr_hf_config_read_shape:
 * @config: the root object of a config.json
 * @name_hint: (nullable): id and name to use when the config has no hub id
 *   in _name_or_path, such as the checkpoint's directory name
 * @shape: (out caller-allocates): filled on success; cleared by the caller
 *   with hr_model_shape_clear() either way
 * @error: return location for an error
 *
 * Reads a config into the shape of a catalog model (for
 * hr_model_spec_new_from_shape()).  License and release are “unknown”,
 * family and architecture the model_type, and source “config.json”.
 *
 * Returns: %TRUE on success
 */
gboolean
hr_hf_config_read_shape (JsonObject    *config,
                         const char    *name_hint,
                         HrModelShape  *shape,
                         GError       **error)
{
  g_autofree char *safe_hint = NULL;
  JsonNode *node;
  const char *path_or_id;
  const char *id;
  Reading s;
  double params, active;

  g_return_val_if_fail (config != NULL, FALSE);
  g_return_val_if_fail (shape != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  hr_model_shape_init (shape);
  if (!read_shape (config, &s, error))
    return FALSE;
  params = count_params (&s, &active);
  /* Every shape is bounded, but their products are not: refused here,
   * before the count is taken as a whole number. */
  if (!(params <= HR_PARAMS_MAX))
    return invalid (error, "the shapes give %.3g parameters, above the limit of %.0e",
                    params, HR_PARAMS_MAX);

  node = member (config, "_name_or_path");
  path_or_id = NULL;
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    path_or_id = json_node_get_string (node);
  if (name_hint != NULL && !hr_text_is_displayable (name_hint, -1))
    name_hint = safe_hint = hr_text_escape_line (name_hint, -1);
  if (is_hub_id (path_or_id))
    id = path_or_id;
  else if (name_hint != NULL && *name_hint != '\0')
    id = name_hint;
  else
    id = s.info->model_type;

  shape->id = g_strdup (id);
  shape->name = g_strdup (strrchr (id, '/') != NULL ? strrchr (id, '/') + 1 : id);
  fill_shape (&s, params, active, shape);
  return TRUE;
}

/* The checkpoint's name: the directory of a config.json, else the file
 * name without its extension. */
static char *
name_hint_for_path (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *dir = NULL;
  g_autofree char *dir_base = NULL;
  char *dot;

  if (g_ascii_strcasecmp (base, "config.json") != 0)
    {
      dot = strrchr (base, '.');
      if (dot != NULL && dot != base)
        *dot = '\0';
      return hr_text_display_path (base);
    }

  dir = g_path_get_dirname (path);
  if (strcmp (dir, ".") == 0)
    {
      g_free (dir);
      dir = g_get_current_dir ();
    }
  dir_base = g_path_get_basename (dir);
  if (strcmp (dir_base, "/") == 0 || strcmp (dir_base, ".") == 0)
    return NULL;
  return hr_text_display_path (dir_base);
}

static JsonObject *
read_config_file (const char  *path,
                  GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *display = NULL;

  root = hr_json_load_kind_file (HR_JSON_KIND_CONFIG, path, error);
  if (root == NULL)
    return NULL;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      display = hr_text_display_path (path);
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s: the top level is %s, not an object", display, describe_node (root));
      return NULL;
    }

  return json_object_ref (json_node_get_object (root));
}

/**
 * hr_hf_config_read_file:
 * @path: a config.json
 * @shape: (out caller-allocates): as for hr_hf_config_read_shape()
 * @error: return location for an error
 *
 * Reads a checkpoint's config.json into the shape of a user model, named
 * after its directory when the config has no hub id, with @path as its
 * source.  Every error message starts with @path.
 *
 * Returns: %TRUE on success
 */
gboolean
hr_hf_config_read_file (const char    *path,
                        HrModelShape  *shape,
                        GError       **error)
{
  g_autoptr(JsonObject) config = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *hint = NULL;
  g_autofree char *display = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (shape != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  hr_model_shape_init (shape);
  config = read_config_file (path, error);
  if (config == NULL)
    return FALSE;

  display = hr_text_display_path (path);
  hint = name_hint_for_path (path);
  if (hr_hf_config_read_shape (config, hint, shape, &local_error))
    {
      g_free (shape->source);
      shape->source = g_steal_pointer (&display);
      return TRUE;
    }

  g_set_error (error, local_error->domain, local_error->code,
               "%s: %s", display, local_error->message);
  if (error != NULL)
    hr_text_sanitize_error (*error);
  return FALSE;
}
