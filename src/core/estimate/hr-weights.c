/* hr-weights.c — tensor-exact weight sizes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Three steps:
 *
 *  1. enumerate the tensors a model has, with their shapes, from its
 *     architecture — the tensor set llama.cpp's loader creates for that
 *     architecture (src/llama-model.cpp, load_tensors; src/models/<arch>.cpp
 *     in newer trees) and convert_hf_to_gguf.py writes;
 *  2. give each tensor a storage type: for GGUF file types the type that
 *     llama.cpp's quantizer picks (src/llama-quant.cpp: llama_tensor_get_type,
 *     llama_tensor_get_type_impl, tensor_type_fallback); for safetensors-style
 *     checkpoints the layout vLLM loads (FP8 with per-tensor or 128 × 128
 *     block scales, NVFP4, AWQ and GPTQ with group-128 scales and packed
 *     zeros);
 *  3. sum block-exact sizes with hr_ggml_tensor_bytes().
 *
 * The quantizer's rules are re-expressed here, not copied; every rule names
 * the llama.cpp function it comes from.
 */

#define G_LOG_DOMAIN "hr-weights"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hr-gguf.h"
#include "hr-weights.h"

G_DEFINE_QUARK (hr-weights-error-quark, hr_weights_error)

/* ---------------------------------------------------------------------------
 * Constants
 */

/* llama-quant.cpp, llama_tensor_get_type_impl: the "use_more_bits" layers are
 * the first and last eighth of the stack plus every third layer between. */
#define MORE_BITS_EDGE_DIV   8
#define MORE_BITS_STRIDE     3
#define MORE_BITS_PHASE      2

/* llama-quant.cpp, llama_tensor_get_type_impl: Q3_K_M and Falcon Q4_K_M give
 * the first sixteenth of the ffn_down tensors still more bits. */
#define FIRST_SIXTEENTH_DIV  16

/* llama-quant.cpp, llama_tensor_get_type_impl: Q4_K_S gives the first four
 * attn_v tensors Q5_K; Q3_K_M gives the first two Q5_K. */
#define Q4_K_S_ATTN_V_LAYERS 4
#define Q3_K_M_ATTN_V_LAYERS 2

/* llama-quant.cpp, llama_tensor_get_type_impl: Q2_K and IQ4_XS give attn_v
 * more bits when at least this many query heads share a KV head. */
#define GQA_MORE_BITS        4

/* llama-quant.cpp, llama_tensor_get_type_impl: Mixtral-style models with
 * exactly this many experts get attn_k/attn_v in Q8_0 and attn_output in
 * Q5_K. */
#define EIGHT_EXPERTS        8

/* llama-model.cpp, load_hparams (LLM_ARCH_LLAMA, LLM_ARCH_QWEN2): 80 layers
 * make an LLM_TYPE_70B model, whose attn_v gets Q5_K instead of Q3_K/Q4_K
 * (llama-quant.cpp, llama_tensor_get_type_impl). */
#define LAYERS_OF_70B        80

/* llama-model.cpp, load_tensors (LLM_ARCH_COMMAND_R): models this deep
 * (Command R+) have per-head q and k norms. */
#define COMMAND_R_PLUS_LAYERS 64

/* GGUF file layout (ggml/src/gguf.cpp): every tensor's data starts on a
 * GGUF_DEFAULT_ALIGNMENT boundary. */
#define GGUF_ALIGNMENT       32
/* gguf.cpp: magic, version, tensor count, metadata count. */
#define GGUF_HEADER_BYTES    (4 + 4 + 8 + 8)
/* gguf.cpp, one tensor info: name length (u64) + name + n_dims (u32) +
 * dims (u64 each) + type (u32) + offset (u64). */
#define GGUF_TENSOR_INFO_FIXED (8 + 4 + 4 + 8)
/* The metadata besides the tokenizer (architecture keys, chat template,
 * special tokens), and the tokenizer per vocabulary entry (token string,
 * token type, BPE merges).  Calibrated on Meta-Llama-3-8B-Instruct: every
 * file of ddh0/UnquantizedEmbeddingTesting sizes.txt is exactly 7,835,936
 * bytes larger than its tensor data (see tests/test-weights.c).  Llama 3
 * has 280k merges for 128k tokens; tokenizers with fewer merges per token
 * (Qwen2.5) come out a megabyte or two high — noise beside the tensors. */
#define GGUF_FIXED_METADATA  27072
#define GGUF_BYTES_PER_TOKEN 60.75

/* vLLM, vocab_parallel_embedding.py: DEFAULT_VOCAB_PADDING_SIZE — the
 * embedding and LM head are allocated for a vocabulary rounded up to 64. */
#define VLLM_VOCAB_PADDING   64
/* AutoAWQ / AutoGPTQ default, and what vLLM's awq/gptq linear methods load:
 * one FP16 scale and one packed 4-bit zero point per 128 input weights. */
#define INT4_GROUP_SIZE      128
/* DeepSeek-V3 README_WEIGHTS.md ("FP8 Weight Documentation"): e4m3 weights
 * with one FP32 scale (weight_scale_inv) per 128 × 128 block; the same
 * quantization_config (weight_block_size [128, 128]) ships with Kimi K2,
 * Qwen3 *-FP8 and GLM-4.5-FP8. */
#define FP8_SCALE_BLOCK      128
/* NVIDIA ModelOpt hf_quant_config.json: quant_algo NVFP4, group_size 16 —
 * one FP8 E4M3 scale per 16 E2M1 weights. */
#define NVFP4_GROUP_SIZE     16

/* ---------------------------------------------------------------------------
 * Architectures
 */

typedef enum
{
  ARCH_LLAMA,       /* llama, mistral, mixtral (LLM_ARCH_LLAMA) */
  ARCH_QWEN2,
  ARCH_QWEN3,
  ARCH_QWEN3_MOE,
  ARCH_GLM4,
  ARCH_GEMMA2,
  ARCH_GEMMA3,
  ARCH_PHI3,
  ARCH_COHERE,      /* LLM_ARCH_COMMAND_R */
  ARCH_FALCON,
  ARCH_GPT_OSS,     /* LLM_ARCH_OPENAI_MOE */
  ARCH_DEEPSEEK2,   /* deepseek_v2 and deepseek_v3 */
  ARCH_OLMO2,
  ARCH_GLM4_MOE,
  ARCH_QWEN3_NEXT,  /* LLM_ARCH_QWEN3NEXT: Gated DeltaNet + gated attention */
  ARCH_GRANITE_HYBRID, /* LLM_ARCH_GRANITE_HYBRID: Mamba2 or attention, then an FFN */
  ARCH_NEMOTRON_H,  /* LLM_ARCH_NEMOTRON_H: Mamba2, attention or an MLP per layer */
  ARCH_LFM2,        /* LLM_ARCH_LFM2: gated short convolutions or attention */
  ARCH_FALCON_H1,   /* LLM_ARCH_FALCON_H1: attention and Mamba2 side by side */
} ArchKind;

typedef struct
{
  const char *model_type;   /* Hugging Face config.json "model_type" */
  ArchKind kind;
  gboolean exact;
  gboolean own_arch;        /* llama.cpp has an LLM_ARCH of its own for it,
                             * not LLM_ARCH_LLAMA (no LLM_TYPE_70B rule) */
} ArchInfo;

static const ArchInfo archs[] = {
  { "llama",       ARCH_LLAMA,     TRUE },
  { "mistral",     ARCH_LLAMA,     TRUE },
  { "mixtral",     ARCH_LLAMA,     TRUE },
  { "qwen2",       ARCH_QWEN2,     TRUE },
  { "qwen3",       ARCH_QWEN3,     TRUE },
  { "qwen3_moe",   ARCH_QWEN3_MOE, TRUE },
  { "glm4",        ARCH_GLM4,      TRUE },
  { "gemma2",      ARCH_GEMMA2,    TRUE },
  { "gemma3",      ARCH_GEMMA3,    TRUE },
  { "gemma3_text", ARCH_GEMMA3,    TRUE },
  { "phi3",        ARCH_PHI3,      TRUE },
  { "cohere",      ARCH_COHERE,    TRUE },
  { "falcon",      ARCH_FALCON,    TRUE },
  /* The expert tensors arrive in MXFP4 and published GGUFs keep them so at
   * every file type; llama-quant.cpp itself has no such rule, and the 2-D
   * expert biases' type depends on the converter. */
  { "gpt_oss",     ARCH_GPT_OSS,   FALSE },
  { "deepseek_v2", ARCH_DEEPSEEK2, TRUE },
  { "deepseek_v3", ARCH_DEEPSEEK2, TRUE },
  /* Llama's tensors under llama.cpp's LLM_ARCH_GRANITE, _SMOLLM3 and
   * _EXAONE; convert_hf_to_gguf.py writes InternLM3 as plain llama. */
  { "granite",     ARCH_LLAMA,     TRUE, TRUE },
  { "smollm3",     ARCH_LLAMA,     TRUE, TRUE },
  { "exaone",      ARCH_LLAMA,     TRUE, TRUE },
  { "internlm3",   ARCH_LLAMA,     TRUE },
  { "olmo2",       ARCH_OLMO2,     TRUE },
  { "seed_oss",    ARCH_QWEN2,     TRUE, TRUE },
  { "cohere2",     ARCH_COHERE,    TRUE },
  { "glm4_moe",    ARCH_GLM4_MOE,  TRUE, TRUE },
  { "qwen3_next",  ARCH_QWEN3_NEXT, TRUE, TRUE },
  { "granitemoehybrid", ARCH_GRANITE_HYBRID, TRUE, TRUE },
  { "nemotron_h",  ARCH_NEMOTRON_H, TRUE, TRUE },
  { "lfm2",        ARCH_LFM2,      TRUE, TRUE },
  { "falcon_h1",   ARCH_FALCON_H1, TRUE, TRUE },
};

static const ArchInfo *
find_arch (const char *model_type)
{
  if (model_type == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (archs); i++)
    {
      if (g_ascii_strcasecmp (archs[i].model_type, model_type) == 0)
        return &archs[i];
    }
  return NULL;
}

/* The shape parameters, widened to 64 bits. */
typedef struct
{
  const ArchInfo *arch;
  const HrModelArch *a;     /* which layers are recurrent, their widths */
  const char *model_type;
  guint64 n_layer;
  guint64 n_embd;
  guint64 n_head;
  guint64 n_head_kv;
  guint64 head_k;
  guint64 head_v;
  guint64 n_ff;
  guint64 vocab;
  guint64 n_expert;
  guint64 n_expert_shared;
  guint64 n_ff_exp;
  guint64 n_dense_lead;
  guint64 q_lora;
  guint64 kv_lora;
  guint64 qk_rope;
  guint64 qk_nope;
  guint64 max_context;
  gboolean tied;
  gboolean attn_bias;
  gboolean qk_norm;
} Shape;

static void
shape_from_model (HrModelSpec *model,
                  Shape       *s)
{
  const HrModelArch *a = hr_model_spec_get_arch (model);

  memset (s, 0, sizeof *s);
  s->model_type = hr_model_spec_get_architecture (model);
  s->arch = find_arch (s->model_type);
  s->a = a;
  s->n_layer = a->n_layers;
  s->n_embd = a->hidden;
  s->n_head = a->n_heads;
  s->n_head_kv = a->n_kv_heads > 0 ? a->n_kv_heads : a->n_heads;
  s->head_k = a->head_dim_k;
  s->head_v = a->head_dim_v > 0 ? a->head_dim_v : a->head_dim_k;
  s->n_ff = hr_model_spec_get_intermediate (model);
  s->vocab = a->vocab;
  s->n_expert = hr_model_spec_get_experts (model);
  s->n_expert_shared = hr_model_spec_get_shared_experts (model);
  s->n_ff_exp = hr_model_spec_get_expert_intermediate (model);
  s->n_dense_lead = hr_model_spec_get_dense_layers (model);
  s->q_lora = hr_model_spec_get_q_lora_rank (model);
  s->kv_lora = a->kv_lora_rank;
  s->qk_rope = a->qk_rope_head_dim;
  s->qk_nope = hr_model_spec_get_qk_nope_head_dim (model);
  s->max_context = a->max_context;
  s->tied = hr_model_spec_get_tied_embeddings (model);
  s->attn_bias = hr_model_spec_get_attention_bias (model);
  s->qk_norm = hr_model_spec_get_qk_norm (model);

  if (s->qk_nope == 0 && s->head_k > s->qk_rope)
    s->qk_nope = s->head_k - s->qk_rope;
}

/* ---------------------------------------------------------------------------
 * Step 1: the tensors
 */

/* What a tensor is, as far as the quantizer cares.  The GGUF roles follow
 * llama-quant.cpp's tensor_get_category(), which matches on the name:
 * "ffn_down_exps" and "ffn_down_shexp" are FFN_DOWN, "attn_q_a" or
 * "attn_k_b" match none of the attention names. */
typedef enum
{
  ROLE_TOKEN_EMBD,
  ROLE_OUTPUT,
  ROLE_ATTN_Q,
  ROLE_ATTN_K,
  ROLE_ATTN_V,
  ROLE_ATTN_QKV,
  ROLE_ATTN_KV_B,
  ROLE_ATTN_OUTPUT,
  ROLE_FFN_UP,
  ROLE_FFN_GATE,
  ROLE_FFN_DOWN,
  ROLE_MATRIX,      /* any other quantizable matrix (MLA projections) */
  ROLE_ROUTER,      /* ffn_gate_inp: never quantized, F32 */
  ROLE_VECTOR,      /* 1-D: norms, biases, attention sinks: F32 */
  ROLE_BIAS,        /* 2-D biases (gpt-oss experts): never quantized */
} Role;

typedef struct
{
  char name[64];
  Role role;
  gint layer;              /* -1 outside the blocks */
  guint32 n_dims;
  guint64 ne[3];
  gboolean native_mxfp4;   /* gpt-oss experts */
} Tensor;

typedef struct
{
  GArray *tensors;
  gint layer;
  gboolean split_mla;      /* GGUF: attn_k_b + attn_v_b instead of attn_kv_b */
} Builder;

static Tensor *
add (Builder    *b,
     Role        role,
     const char *name,
     guint32     n_dims,
     guint64     ne0,
     guint64     ne1,
     guint64     ne2)
{
  Tensor t;

  memset (&t, 0, sizeof t);
  if (b->layer >= 0)
    g_snprintf (t.name, sizeof t.name, "blk.%d.%s", b->layer, name);
  else
    g_strlcpy (t.name, name, sizeof t.name);
  t.role = role;
  t.layer = b->layer;
  t.n_dims = n_dims;
  t.ne[0] = ne0;
  t.ne[1] = n_dims >= 2 ? ne1 : 1;
  t.ne[2] = n_dims >= 3 ? ne2 : 1;
  g_array_append_val (b->tensors, t);
  return &g_array_index (b->tensors, Tensor, b->tensors->len - 1);
}

static void
add_vector (Builder    *b,
            const char *name,
            guint64     n)
{
  add (b, ROLE_VECTOR, name, 1, n, 1, 1);
}

static void
add_matrix (Builder    *b,
            Role        role,
            const char *name,
            guint64     n_in,
            guint64     n_out)
{
  add (b, role, name, 2, n_in, n_out, 1);
}

/* Separate Q, K, V and output projections, with optional Q/K/V biases. */
static void
add_attention (Builder     *b,
               const Shape *s,
               gboolean     qkv_bias,
               gboolean     out_bias)
{
  guint64 q = s->n_head * s->head_k;
  guint64 k = s->n_head_kv * s->head_k;
  guint64 v = s->n_head_kv * s->head_v;
  guint64 o = s->n_head * s->head_v;

  add_matrix (b, ROLE_ATTN_Q, "attn_q.weight", s->n_embd, q);
  if (qkv_bias)
    add_vector (b, "attn_q.bias", q);
  add_matrix (b, ROLE_ATTN_K, "attn_k.weight", s->n_embd, k);
  if (qkv_bias)
    add_vector (b, "attn_k.bias", k);
  add_matrix (b, ROLE_ATTN_V, "attn_v.weight", s->n_embd, v);
  if (qkv_bias)
    add_vector (b, "attn_v.bias", v);
  add_matrix (b, ROLE_ATTN_OUTPUT, "attn_output.weight", o, s->n_embd);
  if (out_bias)
    add_vector (b, "attn_output.bias", s->n_embd);
}

static void
add_gated_ffn (Builder     *b,
               const Shape *s,
               guint64      n_ff)
{
  add_matrix (b, ROLE_FFN_GATE, "ffn_gate.weight", s->n_embd, n_ff);
  add_matrix (b, ROLE_FFN_DOWN, "ffn_down.weight", n_ff, s->n_embd);
  add_matrix (b, ROLE_FFN_UP, "ffn_up.weight", s->n_embd, n_ff);
}

/* Routed experts stacked in 3-D tensors (ffn_*_exps), as current
 * convert_hf_to_gguf.py writes them for every MoE architecture. */
static void
add_experts (Builder     *b,
             const Shape *s,
             gboolean     biases,
             gboolean     mxfp4)
{
  Tensor *t;

  add (b, ROLE_ROUTER, "ffn_gate_inp.weight", 2, s->n_embd, s->n_expert, 1);
  if (biases)
    add_vector (b, "ffn_gate_inp.bias", s->n_expert);

  t = add (b, ROLE_FFN_GATE, "ffn_gate_exps.weight", 3, s->n_embd, s->n_ff_exp, s->n_expert);
  t->native_mxfp4 = mxfp4;
  if (biases)
    add (b, ROLE_BIAS, "ffn_gate_exps.bias", 2, s->n_ff_exp, s->n_expert, 1);
  t = add (b, ROLE_FFN_DOWN, "ffn_down_exps.weight", 3, s->n_ff_exp, s->n_embd, s->n_expert);
  t->native_mxfp4 = mxfp4;
  if (biases)
    add (b, ROLE_BIAS, "ffn_down_exps.bias", 2, s->n_embd, s->n_expert, 1);
  t = add (b, ROLE_FFN_UP, "ffn_up_exps.weight", 3, s->n_embd, s->n_ff_exp, s->n_expert);
  t->native_mxfp4 = mxfp4;
  if (biases)
    add (b, ROLE_BIAS, "ffn_up_exps.bias", 2, s->n_ff_exp, s->n_expert, 1);
}

/* DeepSeek-V2/V3 multi-head latent attention (llama.cpp deepseek2
 * load_tensors).  Current GGUFs split attn_kv_b into attn_k_b (3-D, rows of
 * qk_nope) and attn_v_b (3-D, rows of kv_lora_rank); Hugging Face
 * checkpoints keep kv_b_proj whole. */
static void
add_mla (Builder     *b,
         const Shape *s)
{
  guint64 q_head = s->qk_nope + s->qk_rope;

  if (s->q_lora > 0)
    {
      add_vector (b, "attn_q_a_norm.weight", s->q_lora);
      add_matrix (b, ROLE_MATRIX, "attn_q_a.weight", s->n_embd, s->q_lora);
      add_matrix (b, ROLE_MATRIX, "attn_q_b.weight", s->q_lora, s->n_head * q_head);
    }
  else
    {
      add_matrix (b, ROLE_ATTN_Q, "attn_q.weight", s->n_embd, s->n_head * q_head);
    }
  add_vector (b, "attn_kv_a_norm.weight", s->kv_lora);
  add_matrix (b, ROLE_MATRIX, "attn_kv_a_mqa.weight", s->n_embd, s->kv_lora + s->qk_rope);
  if (b->split_mla)
    {
      add (b, ROLE_MATRIX, "attn_k_b.weight", 3, s->qk_nope, s->kv_lora, s->n_head);
      add (b, ROLE_MATRIX, "attn_v_b.weight", 3, s->kv_lora, s->head_v, s->n_head);
    }
  else
    {
      add_matrix (b, ROLE_ATTN_KV_B, "attn_kv_b.weight", s->kv_lora,
                  s->n_head * (s->qk_nope + s->head_v));
    }
  add_matrix (b, ROLE_ATTN_OUTPUT, "attn_output.weight", s->n_head * s->head_v, s->n_embd);
}

/* DeepSeek-style MoE: routed experts, the aux-loss-free routing bias of
 * DeepSeek-V3 and GLM-4.5 (exp_probs_b), and the shared experts. */
static void
add_routed_and_shared (Builder     *b,
                       const Shape *s,
                       gboolean     routing_bias)
{
  add_experts (b, s, FALSE, FALSE);
  if (routing_bias)
    add_vector (b, "exp_probs_b.bias", s->n_expert);
  if (s->n_expert_shared > 0)
    {
      guint64 n = s->n_ff_exp * s->n_expert_shared;

      add_matrix (b, ROLE_FFN_GATE, "ffn_gate_shexp.weight", s->n_embd, n);
      add_matrix (b, ROLE_FFN_DOWN, "ffn_down_shexp.weight", n, s->n_embd);
      add_matrix (b, ROLE_FFN_UP, "ffn_up_shexp.weight", s->n_embd, n);
    }
}

/* A Gated DeltaNet layer as llama.cpp's qwen3next loads it
 * (src/llama-model.cpp, load_tensors, LLM_ARCH_QWEN3NEXT; names in
 * llama-arch.cpp): Q, K, V and the output gate Z projected together
 * (ssm_in), beta and alpha together (ssm_ba), the short convolution over
 * Q, K and V, per-value-head dt bias and decay (ssm_dt, ssm_a), the
 * gated norm of one value head, the output projection.  Key heads are
 * ssm_n_group of ssm_d_state; value heads ssm_d_inner ÷ ssm_d_state of
 * ssm_d_state (Qwen3-Next's linear_value_head_dim = linear_key_head_dim). */
static void
add_gated_deltanet (Builder     *b,
                    const Shape *s)
{
  guint64 key_dim = (guint64) s->a->ssm_groups * s->a->ssm_state;
  guint64 value_dim = s->a->ssm_inner;
  guint64 v_heads = value_dim / MAX (s->a->ssm_state, 1);

  add_matrix (b, ROLE_MATRIX, "ssm_in.weight", s->n_embd, 2 * key_dim + 2 * value_dim);
  add_matrix (b, ROLE_MATRIX, "ssm_ba.weight", s->n_embd, 2 * v_heads);
  /* llama-quant.cpp never quantizes ssm_conv1d.weight: F32 as converted */
  add (b, ROLE_VECTOR, "ssm_conv1d.weight", 2, s->a->ssm_conv_kernel, 2 * key_dim + value_dim, 1);
  add_vector (b, "ssm_dt.bias", v_heads);
  add_vector (b, "ssm_a", v_heads);
  add_vector (b, "ssm_norm.weight", s->a->ssm_state);
  add_matrix (b, ROLE_MATRIX, "ssm_out.weight", value_dim, s->n_embd);
}

/* A Mamba2 mixer as llama.cpp loads it for granitehybrid, nemotron_h
 * and falcon-h1 (src/models/granite-hybrid.cpp, nemotron-h.cpp,
 * load_arch_tensors): z, x, B, C and dt projected together (ssm_in:
 * 2 d_inner + 2 n_group d_state + n_head rows), the short convolution
 * over x, B and C with its bias (every released config sets
 * mamba_conv_bias / use_conv_bias), per-head dt bias, A and D, the gated
 * norm in n_group groups, the output projection. */
static void
add_mamba2 (Builder     *b,
            const Shape *s)
{
  guint64 d_inner = s->a->ssm_inner;
  guint64 bc = 2 * (guint64) s->a->ssm_groups * s->a->ssm_state;
  guint64 heads = s->a->ssm_heads;
  guint64 groups = MAX (s->a->ssm_groups, 1);

  add_matrix (b, ROLE_MATRIX, "ssm_in.weight", s->n_embd, 2 * d_inner + bc + heads);
  /* llama-quant.cpp never quantizes ssm_conv1d.weight: F32 as converted */
  add (b, ROLE_VECTOR, "ssm_conv1d.weight", 2, s->a->ssm_conv_kernel, d_inner + bc, 1);
  add_vector (b, "ssm_conv1d.bias", d_inner + bc);
  add_vector (b, "ssm_dt.bias", heads);
  add (b, ROLE_VECTOR, "ssm_a", 2, 1, heads, 1);
  add (b, ROLE_VECTOR, "ssm_d", 2, 1, heads, 1);
  if (!s->a->ssm_no_norm)
    add (b, ROLE_VECTOR, "ssm_norm.weight", 2, d_inner / groups, groups, 1);
  add_matrix (b, ROLE_MATRIX, "ssm_out.weight", d_inner, s->n_embd);
}

static void
add_layer (Builder     *b,
           const Shape *s,
           guint64      il)
{
  gboolean moe = s->n_expert > 1 && il >= s->n_dense_lead;
  guint64 qkv;

  switch (s->arch->kind)
    {
    case ARCH_LLAMA:
      add_vector (b, "attn_norm.weight", s->n_embd);
      add_attention (b, s, s->attn_bias, s->attn_bias);
      add_vector (b, "ffn_norm.weight", s->n_embd);
      if (moe)
        add_experts (b, s, FALSE, FALSE);
      else
        add_gated_ffn (b, s, s->n_ff);
      break;

    case ARCH_QWEN2:
      /* Qwen2 always has Q/K/V biases and none on the output; Seed-OSS
       * when its attention_bias says so. */
      add_vector (b, "attn_norm.weight", s->n_embd);
      add_attention (b, s, s->attn_bias || g_ascii_strcasecmp (s->model_type, "seed_oss") != 0,
                     FALSE);
      add_vector (b, "ffn_norm.weight", s->n_embd);
      add_gated_ffn (b, s, s->n_ff);
      break;

    case ARCH_QWEN3:
    case ARCH_QWEN3_MOE:
      add_vector (b, "attn_norm.weight", s->n_embd);
      add_attention (b, s, s->attn_bias, FALSE);
      add_vector (b, "attn_q_norm.weight", s->head_k);
      add_vector (b, "attn_k_norm.weight", s->head_k);
      add_vector (b, "ffn_norm.weight", s->n_embd);
      if (moe)
        add_experts (b, s, FALSE, FALSE);
      else
        add_gated_ffn (b, s, s->n_ff);
      break;

    case ARCH_GLM4:
      /* GLM-4-0414: post-attention and post-FFN norms, and gate and up
       * fused in one ffn_up of twice the width. */
      add_vector (b, "attn_norm.weight", s->n_embd);
      add_attention (b, s, s->attn_bias, FALSE);
      add_vector (b, "post_attention_norm.weight", s->n_embd);
      add_vector (b, "ffn_norm.weight", s->n_embd);
      add_matrix (b, ROLE_FFN_DOWN, "ffn_down.weight", s->n_ff, s->n_embd);
      add_matrix (b, ROLE_FFN_UP, "ffn_up.weight", s->n_embd, 2 * s->n_ff);
      add_vector (b, "post_ffw_norm.weight", s->n_embd);
      break;

    case ARCH_OLMO2:
      /* llama.cpp LLM_ARCH_OLMO2: no input norms; q_norm and k_norm over
       * all heads at once, norms after attention and after the MLP. */
      add_attention (b, s, s->attn_bias, s->attn_bias);
      add_vector (b, "attn_q_norm.weight", s->n_head * s->head_k);
      add_vector (b, "attn_k_norm.weight", s->n_head_kv * s->head_k);
      add_vector (b, "post_attention_norm.weight", s->n_embd);
      add_gated_ffn (b, s, s->n_ff);
      add_vector (b, "post_ffw_norm.weight", s->n_embd);
      break;

    case ARCH_GEMMA2:
    case ARCH_GEMMA3:
      add_vector (b, "attn_norm.weight", s->n_embd);
      add_attention (b, s, FALSE, FALSE);
      if (s->arch->kind == ARCH_GEMMA3)
        {
          add_vector (b, "attn_q_norm.weight", s->head_k);
          add_vector (b, "attn_k_norm.weight", s->head_k);
        }
      add_vector (b, "post_attention_norm.weight", s->n_embd);
      add_vector (b, "ffn_norm.weight", s->n_embd);
      add_gated_ffn (b, s, s->n_ff);
      add_vector (b, "post_ffw_norm.weight", s->n_embd);
      break;

    case ARCH_PHI3:
      /* Fused QKV and fused gate/up (ffn_up is twice n_ff wide). */
      qkv = (s->n_head + 2 * s->n_head_kv) * s->head_k;
      add_vector (b, "attn_norm.weight", s->n_embd);
      add_matrix (b, ROLE_ATTN_QKV, "attn_qkv.weight", s->n_embd, qkv);
      add_matrix (b, ROLE_ATTN_OUTPUT, "attn_output.weight", s->n_head * s->head_k, s->n_embd);
      add_vector (b, "ffn_norm.weight", s->n_embd);
      add_matrix (b, ROLE_FFN_DOWN, "ffn_down.weight", s->n_ff, s->n_embd);
      add_matrix (b, ROLE_FFN_UP, "ffn_up.weight", s->n_embd, 2 * s->n_ff);
      break;

    case ARCH_COHERE:
      /* Attention and FFN run in parallel off one layer norm.  Command R+
       * normalises each query and key head; llama.cpp's command-r loader
       * knows it by its depth (n_layer >= 64). */
      add_vector (b, "attn_norm.weight", s->n_embd);
      add_attention (b, s, s->attn_bias, FALSE);
      if (s->n_layer >= COMMAND_R_PLUS_LAYERS)
        {
          add (b, ROLE_VECTOR, "attn_q_norm.weight", 2, s->head_k, s->n_head, 1);
          add (b, ROLE_VECTOR, "attn_k_norm.weight", 2, s->head_k, s->n_head_kv, 1);
        }
      add_gated_ffn (b, s, s->n_ff);
      break;

    case ARCH_FALCON:
      /* Falcon-7B: one LayerNorm with bias, fused QKV, plain GELU MLP. */
      qkv = (s->n_head + 2 * s->n_head_kv) * s->head_k;
      add_vector (b, "attn_norm.weight", s->n_embd);
      add_vector (b, "attn_norm.bias", s->n_embd);
      add_matrix (b, ROLE_ATTN_QKV, "attn_qkv.weight", s->n_embd, qkv);
      add_matrix (b, ROLE_ATTN_OUTPUT, "attn_output.weight", s->n_head * s->head_k, s->n_embd);
      add_matrix (b, ROLE_FFN_UP, "ffn_up.weight", s->n_embd, s->n_ff);
      add_matrix (b, ROLE_FFN_DOWN, "ffn_down.weight", s->n_ff, s->n_embd);
      break;

    case ARCH_GPT_OSS:
      add_vector (b, "attn_norm.weight", s->n_embd);
      add_attention (b, s, TRUE, TRUE);
      add_vector (b, "attn_sinks.weight", s->n_head);
      add_vector (b, "post_attention_norm.weight", s->n_embd);
      add_experts (b, s, TRUE, TRUE);
      break;

    case ARCH_DEEPSEEK2:
      add_vector (b, "attn_norm.weight", s->n_embd);
      add_mla (b, s);
      add_vector (b, "ffn_norm.weight", s->n_embd);
      if (!moe)
        {
          add_gated_ffn (b, s, s->n_ff);
          break;
        }
      add_routed_and_shared (b, s, g_ascii_strcasecmp (s->model_type, "deepseek_v3") == 0);
      break;

    case ARCH_GLM4_MOE:
      /* llama.cpp LLM_ARCH_GLM4_MOE: DeepSeek's expert layout behind
       * grouped-query attention with q/k/v biases; the multi-token-
       * prediction layer is left out (llama.cpp skips it). */
      add_vector (b, "attn_norm.weight", s->n_embd);
      add_attention (b, s, s->attn_bias, FALSE);
      if (s->qk_norm)
        {
          add_vector (b, "attn_q_norm.weight", s->head_k);
          add_vector (b, "attn_k_norm.weight", s->head_k);
        }
      add_vector (b, "post_attention_norm.weight", s->n_embd);
      if (moe)
        add_routed_and_shared (b, s, TRUE);
      else
        add_gated_ffn (b, s, s->n_ff);
      break;

    case ARCH_QWEN3_NEXT:
      /* Three Gated DeltaNet layers, then one of gated attention (its
       * query projection also yields the output gate: twice as wide);
       * every layer a MoE with a gated shared expert. */
      add_vector (b, "attn_norm.weight", s->n_embd);
      if (hr_model_arch_layer_is_recurrent (s->a, (guint32) il))
        add_gated_deltanet (b, s);
      else
        {
          add_matrix (b, ROLE_ATTN_Q, "attn_q.weight", s->n_embd, 2 * s->n_head * s->head_k);
          add_matrix (b, ROLE_ATTN_K, "attn_k.weight", s->n_embd, s->n_head_kv * s->head_k);
          add_matrix (b, ROLE_ATTN_V, "attn_v.weight", s->n_embd, s->n_head_kv * s->head_v);
          add_matrix (b, ROLE_ATTN_OUTPUT, "attn_output.weight", s->n_head * s->head_v,
                      s->n_embd);
          add_vector (b, "attn_q_norm.weight", s->head_k);
          add_vector (b, "attn_k_norm.weight", s->head_k);
        }
      add_vector (b, "post_attention_norm.weight", s->n_embd);
      add_routed_and_shared (b, s, FALSE);
      add_vector (b, "ffn_gate_inp_shexp.weight", s->n_embd);
      break;

    case ARCH_GRANITE_HYBRID:
      /* A Mamba2 or an attention layer (llama.cpp: the layers whose
       * head_count_kv is 0 are recurrent), then the FFN every layer has:
       * routed experts beside a shared MLP as wide as the dense width
       * (shared_intermediate_size), or that MLP alone (H-Micro). */
      add_vector (b, "attn_norm.weight", s->n_embd);
      if (hr_model_arch_layer_is_recurrent (s->a, (guint32) il))
        add_mamba2 (b, s);
      else
        add_attention (b, s, s->attn_bias, s->attn_bias);
      add_vector (b, "ffn_norm.weight", s->n_embd);
      if (moe)
        {
          add_experts (b, s, FALSE, FALSE);
          if (s->n_expert_shared > 0)
            {
              add_matrix (b, ROLE_FFN_GATE, "ffn_gate_shexp.weight", s->n_embd, s->n_ff);
              add_matrix (b, ROLE_FFN_UP, "ffn_up_shexp.weight", s->n_embd, s->n_ff);
              add_matrix (b, ROLE_FFN_DOWN, "ffn_down_shexp.weight", s->n_ff, s->n_embd);
            }
        }
      else
        add_gated_ffn (b, s, s->n_ff);
      break;

    case ARCH_NEMOTRON_H:
      /* Each layer one thing (hybrid_override_pattern): a Mamba2 mixer,
       * attention, or a squared-ReLU MLP without a gate. */
      add_vector (b, "attn_norm.weight", s->n_embd);
      if (hr_model_arch_layer_is_recurrent (s->a, (guint32) il))
        add_mamba2 (b, s);
      else if (hr_model_arch_layer_attends (s->a, (guint32) il))
        add_attention (b, s, s->attn_bias, s->attn_bias);
      else
        {
          add_matrix (b, ROLE_FFN_UP, "ffn_up.weight", s->n_embd, s->n_ff);
          add_matrix (b, ROLE_FFN_DOWN, "ffn_down.weight", s->n_ff, s->n_embd);
        }
      break;

    case ARCH_LFM2:
      /* llama.cpp LLM_ARCH_LFM2 (load_tensors): the operator norm, then
       * a gated short convolution (B, C and x projected together, a
       * depthwise kernel of conv_L_cache taps, the output projection) or
       * attention with per-head q/k norms; every layer a SwiGLU MLP.
       * The kernel is kept in F32 like ssm_conv1d. */
      add_vector (b, "attn_norm.weight", s->n_embd);
      if (hr_model_arch_layer_is_recurrent (s->a, (guint32) il))
        {
          add (b, ROLE_VECTOR, "shortconv.conv.weight", 2, s->a->ssm_conv_kernel, s->n_embd, 1);
          add_matrix (b, ROLE_MATRIX, "shortconv.in_proj.weight", s->n_embd, 3 * s->n_embd);
          add_matrix (b, ROLE_MATRIX, "shortconv.out_proj.weight", s->n_embd, s->n_embd);
        }
      else
        {
          add_attention (b, s, FALSE, FALSE);
          add_vector (b, "attn_q_norm.weight", s->head_k);
          add_vector (b, "attn_k_norm.weight", s->head_k);
        }
      add_vector (b, "ffn_norm.weight", s->n_embd);
      add_gated_ffn (b, s, s->n_ff);
      break;

    case ARCH_FALCON_H1:
      /* llama.cpp LLM_ARCH_FALCON_H1 (load_arch_tensors): every layer a
       * Mamba2 mixer and attention side by side off one norm, then a
       * SwiGLU MLP; the gated norm only where mamba_rms_norm is set. */
      add_mamba2 (b, s);
      add_attention (b, s, s->attn_bias, s->attn_bias);
      add_vector (b, "attn_norm.weight", s->n_embd);
      /* llama.cpp names it without the .weight suffix here */
      add_vector (b, "ffn_norm", s->n_embd);
      add_gated_ffn (b, s, s->n_ff);
      break;

    default:
      g_assert_not_reached ();
    }
}

static gboolean
has_output_tensor (const Shape *s)
{
  /* Falcon checkpoints store lm_head.weight although it is tied, and the
   * converter writes it out: Falcon-7B GGUFs hold 196 tensors, output
   * included. */
  if (s->arch->kind == ARCH_FALCON)
    return TRUE;
  return !s->tied;
}

/* Makes room for @extra more elements at once: a file may declare
 * HR_LAYERS_MAX layers, a million tensors, which growing by doubling
 * copied several times over. */
static void
reserve (GArray *array,
         guint64 extra)
{
  guint len = array->len;

  if (extra == 0 || extra > G_MAXUINT - len)
    return;
  g_array_set_size (array, len + (guint) extra);
  g_array_set_size (array, len);
}

static GArray *
enumerate_tensors (const Shape *s,
                   gboolean     split_mla)
{
  Builder b = { NULL, -1, split_mla };

  b.tensors = g_array_new (FALSE, FALSE, sizeof (Tensor));

  /* llama-model-loader.h, weight_name_comparer: tensors are processed
   * ordered by layer, global ones first; the quantizer's attn_v and
   * ffn_down counters rely on that order. */
  add_matrix (&b, ROLE_TOKEN_EMBD, "token_embd.weight", s->n_embd, s->vocab);
  /* LFM2's final norm keeps the name of the checkpoint's embedding_norm
   * (llama-arch.cpp, LLM_TENSOR_OUTPUT_NORM_LFM2: "token_embd_norm"). */
  add_vector (&b, s->arch->kind == ARCH_LFM2 ? "token_embd_norm.weight" : "output_norm.weight",
              s->n_embd);
  if (s->arch->kind == ARCH_FALCON)
    add_vector (&b, "output_norm.bias", s->n_embd);
  if (has_output_tensor (s))
    add_matrix (&b, ROLE_OUTPUT, "output.weight", s->n_embd, s->vocab);

  for (guint64 il = 0; il < s->n_layer; il++)
    {
      guint before = b.tensors->len;

      b.layer = (gint) il;
      add_layer (&b, s, il);
      /* the layers that follow have about as many tensors as the first */
      if (il == 0)
        reserve (b.tensors, (guint64) (b.tensors->len - before) * (s->n_layer - 1));
    }

  return b.tensors;
}

static gboolean
check_shape (const Shape  *s,
             GError      **error)
{
  const char *what = NULL;

  if (s->arch == NULL)
    {
      g_set_error (error, HR_WEIGHTS_ERROR, HR_WEIGHTS_ERROR_UNSUPPORTED_ARCH,
                   "no tensor layout is known for architecture “%s”",
                   s->model_type != NULL ? s->model_type : "(none)");
      return FALSE;
    }

  if (s->n_layer == 0 || s->n_embd == 0 || s->n_head == 0 || s->head_k == 0 ||
      s->vocab == 0)
    what = "layers, hidden size, heads, head dimension and vocabulary";
  else if (s->n_layer > G_MAXINT32)
    what = "a layer count that fits in 32 bits";
  else if (s->arch->kind == ARCH_DEEPSEEK2 &&
           (s->kv_lora == 0 || s->qk_rope == 0 || s->qk_nope == 0))
    what = "the MLA dimensions kv_lora_rank, qk_rope_head_dim and qk_nope_head_dim";
  else if (s->arch->kind != ARCH_GPT_OSS && s->n_ff == 0 &&
           (s->n_expert <= 1 || s->n_dense_lead > 0))
    what = "an FFN intermediate size";
  else if (s->n_expert > 1 && s->n_ff_exp == 0)
    what = "an expert intermediate size";
  else if ((s->arch->kind == ARCH_QWEN3_MOE || s->arch->kind == ARCH_GPT_OSS ||
            s->arch->kind == ARCH_QWEN3_NEXT) && s->n_expert <= 1)
    what = "experts";
  else if (s->arch->kind == ARCH_QWEN3_NEXT &&
           (s->a->state_kind != HR_STATE_GATED_DELTANET || s->a->ssm_state == 0 ||
            s->a->ssm_inner == 0 || s->a->ssm_groups == 0 || s->a->ssm_conv_kernel == 0))
    what = "the Gated DeltaNet widths (recurrent, ssm_conv_kernel, ssm_inner, ssm_state, "
           "ssm_groups)";
  else if ((s->arch->kind == ARCH_GRANITE_HYBRID || s->arch->kind == ARCH_NEMOTRON_H ||
            s->arch->kind == ARCH_FALCON_H1) &&
           (s->a->state_kind != HR_STATE_MAMBA || s->a->ssm_state == 0 ||
            s->a->ssm_inner == 0 || s->a->ssm_groups == 0 || s->a->ssm_conv_kernel == 0 ||
            s->a->ssm_heads == 0 || s->a->ssm_inner % s->a->ssm_groups != 0))
    what = "the Mamba2 widths (recurrent mamba, ssm_conv_kernel, ssm_inner, ssm_state, "
           "ssm_groups dividing ssm_inner, ssm_heads)";
  else if (s->arch->kind == ARCH_NEMOTRON_H && s->a->layer_pattern[0] == '\0')
    what = "a layer_pattern";
  else if (s->arch->kind == ARCH_LFM2 &&
           (s->a->state_kind != HR_STATE_SHORT_CONV || s->a->ssm_conv_kernel == 0))
    what = "the short convolutions' kernel (recurrent short_conv, ssm_conv_kernel)";

  if (what != NULL)
    {
      g_set_error (error, HR_WEIGHTS_ERROR, HR_WEIGHTS_ERROR_INVALID,
                   "architecture “%s” needs %s to list its tensors",
                   s->model_type, what);
      return FALSE;
    }
  return TRUE;
}

/* ---------------------------------------------------------------------------
 * Precisions
 */

/* llama.h, llama_ftype: the GGUF file types we model. */
typedef enum
{
  FT_ALL_F32,
  FT_F16,
  FT_BF16,
  FT_Q8_0,
  FT_Q6_K,
  FT_Q5_K_M,
  FT_Q5_K_S,
  FT_Q5_1,
  FT_Q5_0,
  FT_Q4_K_M,
  FT_Q4_K_S,
  FT_Q4_1,
  FT_Q4_0,
  FT_IQ4_XS,
  FT_IQ4_NL,
  FT_Q3_K_L,
  FT_Q3_K_M,
  FT_Q3_K_S,
  FT_Q2_K,
  FT_Q2_K_S,
  FT_IQ3_M,
  FT_IQ3_S,
  FT_IQ3_XS,
  FT_IQ3_XXS,
  FT_IQ2_M,
  FT_IQ2_S,
  FT_IQ2_XS,
  FT_IQ2_XXS,
  FT_IQ1_M,
  FT_IQ1_S,
  FT_TQ2_0,
  FT_TQ1_0,
  FT_MXFP4_MOE,
} Ftype;

/* How a safetensors-style checkpoint stores its linear layers. */
typedef enum
{
  ST_FLOAT,
  ST_FP8,
  ST_AWQ,
  ST_GPTQ,
  ST_FP8_BLOCK,   /* DeepSeek-V3 style: FP32 scale per 128 × 128 block */
  ST_NVFP4,       /* NVIDIA ModelOpt: FP8 scale per 16 weights */
  ST_MXFP4,       /* gpt-oss: routed experts MXFP4, the rest 16-bit */
} SafeKind;

typedef struct
{
  const char *id;
  gboolean gguf;           /* has a GGUF form */
  gboolean safetensors;    /* has a safetensors form */
  Ftype ftype;
  guint32 default_type;    /* llama-quant.cpp, llama_ftype_get_default_type */
  SafeKind safe_kind;
  guint32 float_type;      /* safetensors: type of unquantized tensors */
  gboolean needs_imatrix;  /* llama-quantize refuses it without one */
} PrecisionInfo;

static const PrecisionInfo precisions[] = {
  { "fp32",      TRUE,  TRUE,  FT_ALL_F32, HR_GGML_TYPE_F32,    ST_FLOAT, HR_GGML_TYPE_F32 },
  { "fp16",      TRUE,  TRUE,  FT_F16,     HR_GGML_TYPE_F16,    ST_FLOAT, HR_GGML_TYPE_F16 },
  { "bf16",      TRUE,  TRUE,  FT_BF16,    HR_GGML_TYPE_BF16,   ST_FLOAT, HR_GGML_TYPE_BF16 },
  { "fp8",       FALSE, TRUE,  FT_Q8_0,    HR_GGML_TYPE_Q8_0,   ST_FP8,   HR_GGML_TYPE_BF16 },
  { "awq-int4",  FALSE, TRUE,  FT_Q4_0,    HR_GGML_TYPE_Q4_0,   ST_AWQ,   HR_GGML_TYPE_F16 },
  { "gptq-int4", FALSE, TRUE,  FT_Q4_0,    HR_GGML_TYPE_Q4_0,   ST_GPTQ,  HR_GGML_TYPE_F16 },
  { "q8_0",      TRUE,  FALSE, FT_Q8_0,    HR_GGML_TYPE_Q8_0,   ST_FLOAT, 0 },
  { "q6_k",      TRUE,  FALSE, FT_Q6_K,    HR_GGML_TYPE_Q6_K,   ST_FLOAT, 0 },
  { "q5_k_m",    TRUE,  FALSE, FT_Q5_K_M,  HR_GGML_TYPE_Q5_K,   ST_FLOAT, 0 },
  { "q5_k_s",    TRUE,  FALSE, FT_Q5_K_S,  HR_GGML_TYPE_Q5_K,   ST_FLOAT, 0 },
  { "q5_1",      TRUE,  FALSE, FT_Q5_1,    HR_GGML_TYPE_Q5_1,   ST_FLOAT, 0 },
  { "q5_0",      TRUE,  FALSE, FT_Q5_0,    HR_GGML_TYPE_Q5_0,   ST_FLOAT, 0 },
  { "q4_k_m",    TRUE,  FALSE, FT_Q4_K_M,  HR_GGML_TYPE_Q4_K,   ST_FLOAT, 0 },
  { "q4_k_s",    TRUE,  FALSE, FT_Q4_K_S,  HR_GGML_TYPE_Q4_K,   ST_FLOAT, 0 },
  { "q4_1",      TRUE,  FALSE, FT_Q4_1,    HR_GGML_TYPE_Q4_1,   ST_FLOAT, 0 },
  { "q4_0",      TRUE,  FALSE, FT_Q4_0,    HR_GGML_TYPE_Q4_0,   ST_FLOAT, 0 },
  { "iq4_xs",    TRUE,  FALSE, FT_IQ4_XS,  HR_GGML_TYPE_IQ4_XS, ST_FLOAT, 0 },
  { "iq4_nl",    TRUE,  FALSE, FT_IQ4_NL,  HR_GGML_TYPE_IQ4_NL, ST_FLOAT, 0 },
  { "q3_k_l",    TRUE,  FALSE, FT_Q3_K_L,  HR_GGML_TYPE_Q3_K,   ST_FLOAT, 0 },
  { "q3_k_m",    TRUE,  FALSE, FT_Q3_K_M,  HR_GGML_TYPE_Q3_K,   ST_FLOAT, 0 },
  { "q3_k_s",    TRUE,  FALSE, FT_Q3_K_S,  HR_GGML_TYPE_Q3_K,   ST_FLOAT, 0 },
  { "q2_k",      TRUE,  FALSE, FT_Q2_K,    HR_GGML_TYPE_Q2_K,   ST_FLOAT, 0 },
  /* llama-quant.cpp, tensor_requires_imatrix: a file type whose recipe
   * targets IQ1_S/IQ1_M/IQ2_XXS/IQ2_XS/IQ2_S/IQ3_XXS for some tensor (or
   * Q2_K within Q2_K_S) cannot be made without an importance matrix, so
   * every such file was made with one. */
  { "q2_k_s",    TRUE,  FALSE, FT_Q2_K_S,  HR_GGML_TYPE_Q2_K,   ST_FLOAT, 0, TRUE },
  { "iq3_m",     TRUE,  FALSE, FT_IQ3_M,   HR_GGML_TYPE_IQ3_S,  ST_FLOAT, 0 },
  { "iq3_s",     TRUE,  FALSE, FT_IQ3_S,   HR_GGML_TYPE_IQ3_S,  ST_FLOAT, 0 },
  { "iq3_xs",    TRUE,  FALSE, FT_IQ3_XS,  HR_GGML_TYPE_IQ3_S,  ST_FLOAT, 0, TRUE },
  { "iq3_xxs",   TRUE,  FALSE, FT_IQ3_XXS, HR_GGML_TYPE_IQ3_XXS, ST_FLOAT, 0, TRUE },
  { "iq2_m",     TRUE,  FALSE, FT_IQ2_M,   HR_GGML_TYPE_IQ2_S,  ST_FLOAT, 0, TRUE },
  /* sic: llama_ftype_get_default_type gives the IQ2_S file type IQ2_XS. */
  { "iq2_s",     TRUE,  FALSE, FT_IQ2_S,   HR_GGML_TYPE_IQ2_XS, ST_FLOAT, 0, TRUE },
  { "iq2_xs",    TRUE,  FALSE, FT_IQ2_XS,  HR_GGML_TYPE_IQ2_XS, ST_FLOAT, 0, TRUE },
  { "iq2_xxs",   TRUE,  FALSE, FT_IQ2_XXS, HR_GGML_TYPE_IQ2_XXS, ST_FLOAT, 0, TRUE },
  { "iq1_m",     TRUE,  FALSE, FT_IQ1_M,   HR_GGML_TYPE_IQ1_M,  ST_FLOAT, 0, TRUE },
  { "iq1_s",     TRUE,  FALSE, FT_IQ1_S,   HR_GGML_TYPE_IQ1_S,  ST_FLOAT, 0, TRUE },
  { "tq2_0",     TRUE,  FALSE, FT_TQ2_0,   HR_GGML_TYPE_TQ2_0,  ST_FLOAT, 0 },
  { "tq1_0",     TRUE,  FALSE, FT_TQ1_0,   HR_GGML_TYPE_TQ1_0,  ST_FLOAT, 0 },
  { "mxfp4",     TRUE,  TRUE,  FT_MXFP4_MOE, HR_GGML_TYPE_MXFP4, ST_MXFP4, HR_GGML_TYPE_BF16 },
  { "fp8-block", FALSE, TRUE,  FT_Q8_0,    HR_GGML_TYPE_Q8_0,   ST_FP8_BLOCK, HR_GGML_TYPE_BF16 },
  { "nvfp4",     FALSE, TRUE,  FT_Q4_0,    HR_GGML_TYPE_Q4_0,   ST_NVFP4, HR_GGML_TYPE_BF16 },
};

static const PrecisionInfo *
find_precision (const char *id)
{
  if (id == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (precisions); i++)
    {
      if (g_ascii_strcasecmp (precisions[i].id, id) == 0)
        return &precisions[i];
    }
  return NULL;
}

/* ---------------------------------------------------------------------------
 * Step 2a: GGUF types, after llama-quant.cpp
 */

typedef struct
{
  Ftype ftype;
  guint32 default_type;
  gboolean imatrix;
  gboolean falcon;
  gboolean type_70b;
  guint64 n_expert;        /* hparams.n_expert (0 or 1 for dense models) */
  guint64 n_gqa;           /* hparams.n_gqa(): query heads per KV head */
  gint n_layer;            /* hparams.n_layer_all */
  gboolean tied;           /* no output.weight: token_embd plays its part */
  gint n_attention_wv;
  gint i_attention_wv;
  gint i_ffn_down;
  gint i_ffn_gate;
  gint i_ffn_up;
  gboolean all_defined;    /* every fallback had a defined target */
} QuantState;

static guint32
block_size (guint32 type)
{
  guint32 block = 1;

  hr_ggml_type_size (type, &block, NULL);
  return block;
}

/* ggml.c, ggml_is_quantized: block types, not F32/F16/BF16. */
static gboolean
is_quantized (guint32 type)
{
  return type != HR_GGML_TYPE_F32 && type != HR_GGML_TYPE_F16 &&
         type != HR_GGML_TYPE_BF16;
}

/* llama-quant.cpp, category_is_attn_v: attn_v, fused attn_qkv and the
 * (legacy, unsplit) MLA attn_kv_b share the attn_v rules and counter. */
static gboolean
role_is_attn_v (Role role)
{
  return role == ROLE_ATTN_V || role == ROLE_ATTN_QKV || role == ROLE_ATTN_KV_B;
}

/* llama-quant.cpp, tensor_allows_quantization: 2-D and 3-D tensors whose
 * name ends in "weight", except norms and the expert router. */
static gboolean
role_is_quantizable (Role role)
{
  return role != ROLE_ROUTER && role != ROLE_VECTOR && role != ROLE_BIAS;
}

/* llama-quant.cpp, llama_tensor_get_type_impl, use_more_bits. */
static gboolean
use_more_bits (gint i_layer,
               gint n_layers)
{
  return i_layer < n_layers / MORE_BITS_EDGE_DIV ||
         i_layer >= (MORE_BITS_EDGE_DIV - 1) * n_layers / MORE_BITS_EDGE_DIV ||
         (i_layer - n_layers / MORE_BITS_EDGE_DIV) % MORE_BITS_STRIDE == MORE_BITS_PHASE;
}

static gboolean
ftype_is (Ftype ftype,
          Ftype a,
          Ftype b)
{
  return ftype == a || ftype == b;
}

/* The file types whose default is an IQ1 or IQ2 type: llama-quant.cpp
 * gives them their own branch of rules. */
static gboolean
ftype_is_very_low_bit (Ftype ft)
{
  return ft == FT_IQ2_XXS || ft == FT_IQ2_XS || ft == FT_IQ1_S || ft == FT_IQ2_S ||
         ft == FT_IQ2_M || ft == FT_IQ1_M;
}

/* llama-quant.cpp, llama_tensor_get_type_impl: the output head, and the
 * token embeddings standing in for it when the model ties them. */
static guint32
output_type (QuantState   *q,
             const Tensor *t)
{
  guint32 type = q->default_type;
  Ftype ft = q->ftype;

  if (ft == FT_MXFP4_MOE)
    return HR_GGML_TYPE_Q8_0;
  /* Q8_0 for Falcon or when its rows do not fit the default type's blocks. */
  if (q->falcon || t->ne[0] % block_size (type) != 0)
    return HR_GGML_TYPE_Q8_0;
  if (ftype_is_very_low_bit (ft) || ft == FT_IQ3_XXS)
    return HR_GGML_TYPE_Q5_K;
  return type != HR_GGML_TYPE_Q8_0 ? HR_GGML_TYPE_Q6_K : type;
}

/* llama-quant.cpp, llama_tensor_get_type_impl: untied token embeddings. */
static guint32
token_embd_type (QuantState *q)
{
  switch (q->ftype)
    {
    case FT_IQ2_XXS:
    case FT_IQ2_XS:
    case FT_IQ1_S:
    case FT_IQ1_M:
      return HR_GGML_TYPE_Q2_K;
    case FT_IQ2_S:
    case FT_IQ2_M:
    case FT_IQ3_XXS:
      return HR_GGML_TYPE_IQ3_S;
    case FT_TQ1_0:
    case FT_TQ2_0:
      return HR_GGML_TYPE_Q4_K;
    default:
      return q->default_type;
    }
}

/* llama-quant.cpp, llama_tensor_get_type_impl: the branch of the IQ1 and
 * IQ2 file types (everything but the output head and the embeddings). */
static guint32
very_low_bit_type (QuantState   *q,
                   const Tensor *t)
{
  Ftype ft = q->ftype;
  gboolean iq2_s_or_m = ftype_is (ft, FT_IQ2_S, FT_IQ2_M);
  guint32 type = q->default_type;

  if (role_is_attn_v (t->role))
    {
      if (q->n_gqa >= GQA_MORE_BITS || q->n_expert >= GQA_MORE_BITS)
        type = HR_GGML_TYPE_Q4_K;
      else
        type = iq2_s_or_m ? HR_GGML_TYPE_IQ3_S : HR_GGML_TYPE_Q2_K;
      q->i_attention_wv++;
    }
  else if (q->n_expert == EIGHT_EXPERTS && t->role == ROLE_ATTN_K)
    type = HR_GGML_TYPE_Q4_K;
  else if (t->role == ROLE_FFN_DOWN)
    {
      /* A running count of ffn_down tensors here, experts or not. */
      if (q->i_ffn_down < q->n_layer / MORE_BITS_EDGE_DIV)
        type = iq2_s_or_m ? HR_GGML_TYPE_IQ3_S : HR_GGML_TYPE_Q2_K;
      q->i_ffn_down++;
    }
  else if (t->role == ROLE_ATTN_OUTPUT)
    {
      if (q->n_expert == EIGHT_EXPERTS)
        type = HR_GGML_TYPE_Q5_K;
      else if (ftype_is (ft, FT_IQ1_S, FT_IQ1_M))
        type = HR_GGML_TYPE_IQ2_XXS;
      else if (iq2_s_or_m)
        type = HR_GGML_TYPE_IQ3_S;
    }
  return type;
}

/* The layer a per-layer rule looks at: MoE models read it from the
 * tensor's name, dense models count the tensors of that role. */
static gint
rule_layer (QuantState   *q,
            const Tensor *t,
            gint          counter)
{
  return q->n_expert > 1 ? t->layer : counter;
}

static guint32
attn_v_type (QuantState *q)
{
  guint32 type = q->default_type;
  Ftype ft = q->ftype;

  if (ft == FT_Q2_K)
    type = q->n_gqa >= GQA_MORE_BITS ? HR_GGML_TYPE_Q4_K : HR_GGML_TYPE_Q3_K;
  else if (ft == FT_Q2_K_S && q->n_gqa >= GQA_MORE_BITS)
    type = HR_GGML_TYPE_Q4_K;
  else if (ft == FT_IQ3_XXS)
    type = q->n_gqa >= GQA_MORE_BITS ? HR_GGML_TYPE_Q4_K
         : !q->imatrix ? HR_GGML_TYPE_IQ3_S : HR_GGML_TYPE_IQ3_XXS;
  else if (ftype_is (ft, FT_IQ3_XS, FT_IQ3_S) && q->n_gqa >= GQA_MORE_BITS)
    type = HR_GGML_TYPE_Q4_K;
  else if (ft == FT_IQ3_M)
    type = HR_GGML_TYPE_Q4_K;
  else if (ft == FT_Q3_K_M)
    type = q->i_attention_wv < Q3_K_M_ATTN_V_LAYERS ? HR_GGML_TYPE_Q5_K : HR_GGML_TYPE_Q4_K;
  else if (ft == FT_Q3_K_L)
    type = HR_GGML_TYPE_Q5_K;
  else if (ftype_is (ft, FT_IQ4_NL, FT_IQ4_XS) && q->n_gqa >= GQA_MORE_BITS)
    type = HR_GGML_TYPE_Q5_K;
  else if (ftype_is (ft, FT_Q4_K_M, FT_Q5_K_M) &&
           use_more_bits (q->i_attention_wv, q->n_attention_wv))
    type = HR_GGML_TYPE_Q6_K;
  else if (ft == FT_Q4_K_S && q->i_attention_wv < Q4_K_S_ATTN_V_LAYERS)
    type = HR_GGML_TYPE_Q5_K;

  /* Eight query heads share each attn_v of a 70B: more bits are cheap. */
  if (q->type_70b && (type == HR_GGML_TYPE_Q3_K || type == HR_GGML_TYPE_Q4_K))
    type = HR_GGML_TYPE_Q5_K;
  if (q->n_expert == EIGHT_EXPERTS)
    type = HR_GGML_TYPE_Q8_0;
  q->i_attention_wv++;
  return type;
}

static guint32
ffn_down_type (QuantState   *q,
               const Tensor *t)
{
  gint i_layer = rule_layer (q, t, q->i_ffn_down);
  gint n_layer = q->n_layer;
  guint32 type = q->default_type;
  Ftype ft = q->ftype;

  if (ft == FT_Q2_K)
    type = HR_GGML_TYPE_Q3_K;
  else if (ft == FT_Q2_K_S)
    {
      if (i_layer < n_layer / MORE_BITS_EDGE_DIV)
        type = HR_GGML_TYPE_Q4_K;
    }
  else if (ft == FT_IQ3_XXS && !q->imatrix)
    type = i_layer < n_layer / MORE_BITS_EDGE_DIV ? HR_GGML_TYPE_Q4_K : HR_GGML_TYPE_Q3_K;
  else if (ft == FT_Q3_K_M)
    type = i_layer < n_layer / FIRST_SIXTEENTH_DIV ? HR_GGML_TYPE_Q5_K
         : (!q->falcon || use_more_bits (i_layer, n_layer)) ? HR_GGML_TYPE_Q4_K
         : HR_GGML_TYPE_Q3_K;
  else if (ft == FT_IQ3_M && (i_layer < n_layer / MORE_BITS_EDGE_DIV ||
                              (q->n_expert == EIGHT_EXPERTS && use_more_bits (i_layer, n_layer))))
    type = HR_GGML_TYPE_Q4_K;
  else if (ft == FT_Q3_K_L)
    type = q->falcon ? HR_GGML_TYPE_Q4_K : HR_GGML_TYPE_Q5_K;
  else if (ft == FT_Q4_K_M)
    {
      if (q->falcon)
        type = i_layer < n_layer / FIRST_SIXTEENTH_DIV ? HR_GGML_TYPE_Q6_K
             : use_more_bits (i_layer, n_layer) ? HR_GGML_TYPE_Q5_K
             : HR_GGML_TYPE_Q4_K;
      else if (use_more_bits (i_layer, n_layer))
        type = HR_GGML_TYPE_Q6_K;
    }
  else if (i_layer < n_layer / MORE_BITS_EDGE_DIV &&
           ftype_is (ft, FT_IQ4_NL, FT_IQ4_XS) && !q->imatrix)
    type = HR_GGML_TYPE_Q5_K;
  else if (ft == FT_Q5_K_M && use_more_bits (i_layer, n_layer))
    type = HR_GGML_TYPE_Q6_K;
  else if (ft == FT_Q4_K_S && !q->falcon && i_layer < n_layer / MORE_BITS_EDGE_DIV)
    type = HR_GGML_TYPE_Q5_K;
  else if (ftype_is (ft, FT_Q4_0, FT_Q5_0) && q->imatrix &&
           i_layer < n_layer / MORE_BITS_EDGE_DIV)
    type = ft == FT_Q4_0 ? HR_GGML_TYPE_Q4_1 : HR_GGML_TYPE_Q5_1;
  q->i_ffn_down++;
  return type;
}

static guint32
attn_output_type (QuantState *q)
{
  Ftype ft = q->ftype;

  if (q->falcon)
    return ft == FT_Q3_K_L ? HR_GGML_TYPE_Q4_K : q->default_type;

  if (q->n_expert == EIGHT_EXPERTS)
    {
      switch (ft)
        {
        case FT_Q2_K:
        case FT_IQ3_XS:
        case FT_IQ3_XXS:
        case FT_Q3_K_S:
        case FT_Q3_K_M:
        case FT_IQ4_NL:
        case FT_Q4_K_S:
        case FT_Q4_K_M:
        case FT_IQ3_S:
        case FT_IQ3_M:
        case FT_IQ4_XS:
          return HR_GGML_TYPE_Q5_K;
        default:
          return q->default_type;
        }
    }

  switch (ft)
    {
    case FT_Q2_K:
      return HR_GGML_TYPE_Q3_K;
    case FT_IQ3_XXS:
      return HR_GGML_TYPE_IQ3_S;
    case FT_Q3_K_M:
    case FT_IQ3_M:
      return HR_GGML_TYPE_Q4_K;
    case FT_Q3_K_L:
      return HR_GGML_TYPE_Q5_K;
    default:
      return q->default_type;
    }
}

/* IQ3_XS and IQ3_XXS take attn_q and attn_k below their default. */
static guint32
attn_qk_type (QuantState *q)
{
  if (q->ftype == FT_IQ3_XS)
    return HR_GGML_TYPE_IQ3_XXS;
  if (q->ftype == FT_IQ3_XXS)
    return HR_GGML_TYPE_IQ2_S;
  return q->default_type;
}

/* IQ3_XS takes the gate and up projections of the middle layers down to
 * IQ3_XXS. */
static guint32
ffn_gate_up_type (QuantState   *q,
                  const Tensor *t,
                  gint         *counter)
{
  gint i_layer = rule_layer (q, t, *counter);
  gint n_layer = q->n_layer;

  (*counter)++;
  if (q->ftype == FT_IQ3_XS && i_layer >= n_layer / MORE_BITS_EDGE_DIV &&
      i_layer < (MORE_BITS_EDGE_DIV - 1) * n_layer / MORE_BITS_EDGE_DIV)
    return HR_GGML_TYPE_IQ3_XXS;
  return q->default_type;
}

/* llama-quant.cpp, llama_tensor_get_type_impl: the type a tensor of a
 * quantized file type gets before the fallback for odd row lengths. */
static guint32
choose_type (QuantState   *q,
             const Tensor *t)
{
  Ftype ft = q->ftype;

  if (t->role == ROLE_OUTPUT || (q->tied && t->role == ROLE_TOKEN_EMBD))
    return output_type (q, t);

  /* MXFP4_MOE: stacked experts (3-D) in MXFP4, everything else Q8_0. */
  if (ft == FT_MXFP4_MOE)
    return t->ne[2] > 1 ? HR_GGML_TYPE_MXFP4 : HR_GGML_TYPE_Q8_0;

  if (t->role == ROLE_TOKEN_EMBD)
    return token_embd_type (q);

  if (ftype_is_very_low_bit (ft))
    return very_low_bit_type (q, t);

  switch (t->role)
    {
    case ROLE_ATTN_V:
    case ROLE_ATTN_QKV:
    case ROLE_ATTN_KV_B:
      return attn_v_type (q);

    case ROLE_ATTN_K:
      if (q->n_expert == EIGHT_EXPERTS)
        return HR_GGML_TYPE_Q8_0;
      return attn_qk_type (q);

    case ROLE_ATTN_Q:
      return attn_qk_type (q);

    case ROLE_FFN_DOWN:
      return ffn_down_type (q, t);

    case ROLE_ATTN_OUTPUT:
      return attn_output_type (q);

    case ROLE_FFN_GATE:
      return ffn_gate_up_type (q, t, &q->i_ffn_gate);

    case ROLE_FFN_UP:
      return ffn_gate_up_type (q, t, &q->i_ffn_up);

    case ROLE_MATRIX:
      return q->default_type;

    case ROLE_TOKEN_EMBD:
    case ROLE_OUTPUT:
    case ROLE_ROUTER:
    case ROLE_VECTOR:
    case ROLE_BIAS:
    default:
      g_assert_not_reached ();
    }
}

/* llama-quant.cpp, tensor_type_fallback: rows whose length is not a
 * multiple of the type's block size take a type with 32-wide blocks, and F16
 * if even that does not fit. */
static guint32
fallback_type (QuantState *q,
               guint32     type,
               guint64     row_length)
{
  guint32 fallback;

  if (row_length % block_size (type) == 0)
    return type;

  switch (type)
    {
    case HR_GGML_TYPE_IQ1_S:
    case HR_GGML_TYPE_IQ1_M:
    case HR_GGML_TYPE_IQ2_XXS:
    case HR_GGML_TYPE_IQ2_XS:
    case HR_GGML_TYPE_IQ2_S:
    case HR_GGML_TYPE_IQ3_XXS:
    case HR_GGML_TYPE_IQ3_S:
    case HR_GGML_TYPE_IQ4_XS:
      fallback = HR_GGML_TYPE_IQ4_NL;
      break;
    case HR_GGML_TYPE_Q2_K:
    case HR_GGML_TYPE_Q3_K:
    case HR_GGML_TYPE_TQ1_0:
    case HR_GGML_TYPE_TQ2_0:
      fallback = HR_GGML_TYPE_Q4_0;
      break;
    case HR_GGML_TYPE_Q4_K:
      fallback = HR_GGML_TYPE_Q5_0;
      break;
    case HR_GGML_TYPE_Q5_K:
      fallback = HR_GGML_TYPE_Q5_1;
      break;
    case HR_GGML_TYPE_Q6_K:
      fallback = HR_GGML_TYPE_Q8_0;
      break;
    default:
      /* llama-quantize refuses the file; F16 is the nearest thing. */
      q->all_defined = FALSE;
      return HR_GGML_TYPE_F16;
    }

  if (row_length % block_size (fallback) != 0)
    fallback = HR_GGML_TYPE_F16;
  return fallback;
}

static void
quant_state_init (QuantState          *q,
                  const Shape         *s,
                  const PrecisionInfo *p,
                  gboolean             imatrix,
                  GArray              *tensors)
{
  memset (q, 0, sizeof *q);
  q->ftype = p->ftype;
  q->default_type = p->default_type;
  q->imatrix = imatrix || p->needs_imatrix;
  q->falcon = s->arch->kind == ARCH_FALCON;
  q->n_expert = s->n_expert;
  q->n_gqa = s->n_head_kv > 0 ? s->n_head / s->n_head_kv : 0;
  q->n_layer = (gint) s->n_layer;
  q->tied = !has_output_tensor (s);
  q->all_defined = TRUE;

  /* llama-model.cpp, load_hparams: LLM_ARCH_LLAMA (llama, mistral, mixtral)
   * with 80 layers is 70B unless it has as many KV heads as query heads
   * (then 65B); LLM_ARCH_QWEN2 with 80 layers is 70B. */
  if (s->n_layer == LAYERS_OF_70B && !s->arch->own_arch)
    {
      if (s->arch->kind == ARCH_LLAMA && s->n_head != s->n_head_kv)
        q->type_70b = TRUE;
      else if (s->arch->kind == ARCH_QWEN2)
        q->type_70b = TRUE;
    }

  /* llama-quant.cpp, init_quantize_state_counters. */
  for (guint i = 0; i < tensors->len; i++)
    {
      if (role_is_attn_v (g_array_index (tensors, Tensor, i).role))
        q->n_attention_wv++;
    }
}

/* llama-quant.cpp, llama_tensor_get_type: the type one tensor gets. */
static guint32
gguf_tensor_type (QuantState   *q,
                  const Tensor *t)
{
  guint32 type;

  /* Published gpt-oss GGUFs keep the MXFP4 experts at every file type. */
  if (t->native_mxfp4)
    return HR_GGML_TYPE_MXFP4;

  /* Tensors the quantizer leaves alone keep the converter's type:
   * convert_hf_to_gguf.py writes 1-D tensors, norms and ffn_gate_inp in F32. */
  if (!role_is_quantizable (t->role))
    return HR_GGML_TYPE_F32;

  /* F32/F16/BF16 files: every matrix in that type. */
  if (!is_quantized (q->default_type))
    return q->default_type;

  type = choose_type (q, t);
  return fallback_type (q, type, t->ne[0]);
}

/* ---------------------------------------------------------------------------
 * Step 2b: safetensors-style checkpoints, as vLLM loads them
 */

static guint64
round_up (guint64 n,
          guint64 multiple)
{
  return (n + multiple - 1) / multiple * multiple;
}

static guint64
ceil_div (guint64 n,
          guint64 d)
{
  return (n + d - 1) / d;
}

static guint64
type_bytes (guint32 type,
            guint64 elements)
{
  guint32 block = 1, size = 0;

  switch (type)
    {
    case HR_WEIGHTS_TYPE_FP8:
      return elements;
    case HR_WEIGHTS_TYPE_INT4:
      return ceil_div (elements, 2);
    default:
      hr_ggml_type_size (type, &block, &size);
      return ceil_div (elements, block) * size;
    }
}

static void
append_out (GArray       *out,
            const Tensor *t,
            const char   *suffix,
            guint32       type,
            guint32       n_dims,
            guint64       ne0,
            guint64       ne1,
            guint64       ne2,
            guint64       params)
{
  HrWeightsTensor o;

  memset (&o, 0, sizeof o);
  if (suffix == NULL)
    {
      g_strlcpy (o.name, t->name, sizeof o.name);
    }
  else
    {
      /* "blk.0.attn_q.weight" → "blk.0.attn_q.scales" */
      const char *dot = strrchr (t->name, '.');
      gsize stem = dot != NULL ? (gsize) (dot - t->name) : strlen (t->name);

      g_snprintf (o.name, sizeof o.name, "%.*s.%s", (int) stem, t->name, suffix);
    }
  o.ggml_type = type;
  o.n_dims = n_dims;
  o.dims[0] = ne0;
  o.dims[1] = n_dims >= 2 ? ne1 : 1;
  o.dims[2] = n_dims >= 3 ? ne2 : 1;
  /* ggml types: whole blocks along each row, as ggml_nbytes counts them;
   * the safetensors-only types are plain element counts. */
  if (!hr_ggml_tensor_bytes (type, o.dims, 3, &o.bytes))
    o.bytes = type_bytes (type, o.dims[0] * o.dims[1] * o.dims[2]);
  o.params = params;
  g_array_append_val (out, o);
}

static void
safetensors_tensor (GArray              *out,
                    const PrecisionInfo *p,
                    const Tensor        *t)
{
  guint64 params = t->ne[0] * t->ne[1] * t->ne[2];
  guint64 n_in = t->ne[0];
  guint64 n_out = t->ne[1];
  guint64 n_mat = t->ne[2];
  guint64 groups;

  switch (t->role)
    {
    case ROLE_TOKEN_EMBD:
    case ROLE_OUTPUT:
      /* Allocated for the padded vocabulary; only the real rows are
       * parameters. */
      append_out (out, t, NULL, p->float_type, 2, n_in,
                  round_up (n_out, VLLM_VOCAB_PADDING), 1, params);
      return;

    case ROLE_ROUTER:
    case ROLE_VECTOR:
    case ROLE_BIAS:
      /* Norms, biases and the MoE router stay in the model dtype. */
      append_out (out, t, NULL, p->float_type, t->n_dims, t->ne[0], t->ne[1],
                  t->ne[2], params);
      return;

    default:
      break;
    }

  switch (p->safe_kind)
    {
    case ST_FLOAT:
      append_out (out, t, NULL, p->float_type, t->n_dims, t->ne[0], t->ne[1],
                  t->ne[2], params);
      break;

    case ST_FP8:
      /* One FP32 weight scale per matrix (per expert for stacked experts). */
      append_out (out, t, NULL, HR_WEIGHTS_TYPE_FP8, t->n_dims, t->ne[0],
                  t->ne[1], t->ne[2], params);
      append_out (out, t, "weight_scale", HR_GGML_TYPE_F32, 1, n_mat, 1, 1, 0);
      break;

    case ST_FP8_BLOCK:
      /* DeepSeek-V3 README_WEIGHTS.md: e4m3 weights, one FP32
       * weight_scale_inv per 128 × 128 block (edge blocks padded). */
      append_out (out, t, NULL, HR_WEIGHTS_TYPE_FP8, t->n_dims, t->ne[0],
                  t->ne[1], t->ne[2], params);
      append_out (out, t, "weight_scale_inv", HR_GGML_TYPE_F32, 3,
                  ceil_div (n_in, FP8_SCALE_BLOCK), ceil_div (n_out, FP8_SCALE_BLOCK),
                  n_mat, 0);
      break;

    case ST_NVFP4:
      /* NVIDIA ModelOpt NVFP4: E2M1 weights packed two per byte, one FP8
       * (E4M3) scale per 16 inputs, and per matrix an FP32 global weight
       * scale and input scale. */
      append_out (out, t, NULL, HR_WEIGHTS_TYPE_INT4, t->n_dims, t->ne[0],
                  t->ne[1], t->ne[2], params);
      append_out (out, t, "weight_scale", HR_WEIGHTS_TYPE_FP8, 3,
                  ceil_div (n_in, NVFP4_GROUP_SIZE), n_out, n_mat, 0);
      append_out (out, t, "weight_scale_2", HR_GGML_TYPE_F32, 1, n_mat, 1, 1, 0);
      append_out (out, t, "input_scale", HR_GGML_TYPE_F32, 1, n_mat, 1, 1, 0);
      break;

    case ST_MXFP4:
      /* gpt-oss's checkpoints (quantization_config quant_method mxfp4):
       * the stacked routed experts as MXFP4 blocks and E8M0 scales, 17
       * bytes per 32 weights as ggml's MXFP4 (the *_blocks and *_scales
       * tensors); attention and every 2-D matrix in BF16. */
      append_out (out, t, NULL, n_mat > 1 ? HR_GGML_TYPE_MXFP4 : p->float_type, t->n_dims,
                  t->ne[0], t->ne[1], t->ne[2], params);
      break;

    case ST_AWQ:
    case ST_GPTQ:
      /* qweight: 4-bit packed; scales: FP16 per group of 128 inputs and per
       * output; qzeros: 4-bit packed, as many as the scales. */
      groups = ceil_div (n_in, INT4_GROUP_SIZE);
      append_out (out, t, "qweight", HR_WEIGHTS_TYPE_INT4, t->n_dims, t->ne[0],
                  t->ne[1], t->ne[2], params);
      append_out (out, t, "scales", HR_GGML_TYPE_F16, 3, groups, n_out, n_mat, 0);
      append_out (out, t, "qzeros", HR_WEIGHTS_TYPE_INT4, 3, groups, n_out, n_mat, 0);
      /* GPTQ also stores the group index of every input row (g_idx). */
      if (p->safe_kind == ST_GPTQ)
        append_out (out, t, "g_idx", HR_GGML_TYPE_I32, 2, n_in, n_mat, 1, 0);
      break;

    default:
      g_assert_not_reached ();
    }
}

/* vLLM, rotary_embedding.py: each distinct RotaryEmbedding registers a
 * cos_sin_cache buffer of max_position × rotary_dim in the model dtype while
 * the weights load, and it counts in "Loading model weights took". */
static guint64
vllm_rope_cache_bytes (const Shape         *s,
                       const PrecisionInfo *p)
{
  guint64 rotary_dim = s->head_k;
  guint64 n_caches = 1;
  guint32 block = 1, size = 2;

  switch (s->arch->kind)
    {
    case ARCH_DEEPSEEK2:
      rotary_dim = s->qk_rope;
      break;
    case ARCH_GLM4:
    case ARCH_GLM4_MOE:
      /* partial_rotary_factor 0.5 */
      rotary_dim = s->head_k / 2;
      break;
    case ARCH_GEMMA3:
      /* Local (sliding) and global layers use two RoPE bases. */
      n_caches = 2;
      break;
    default:
      break;
    }

  hr_ggml_type_size (p->float_type, &block, &size);
  return n_caches * s->max_context * rotary_dim * size;
}

/* ---------------------------------------------------------------------------
 * Putting it together
 */

static gboolean
resolve (HrModelSpec             *model,
         const char              *precision_id,
         const HrWeightsOptions  *options,
         Shape                   *shape,
         const PrecisionInfo    **precision,
         HrWeightsFormat         *format,
         GError                 **error)
{
  const PrecisionInfo *p;
  HrWeightsFormat f = options != NULL ? options->format : HR_WEIGHTS_FORMAT_AUTO;

  p = find_precision (precision_id);
  if (p == NULL)
    {
      g_set_error (error, HR_WEIGHTS_ERROR, HR_WEIGHTS_ERROR_UNKNOWN_PRECISION,
                   "unknown precision “%s”", precision_id != NULL ? precision_id : "(none)");
      return FALSE;
    }

  /* Float weights and the safetensors-only types: the checkpoint; a
   * quantization with both forms (MXFP4): its GGUF file type. */
  if (f == HR_WEIGHTS_FORMAT_AUTO)
    f = p->safetensors && (!p->gguf || p->safe_kind == ST_FLOAT)
        ? HR_WEIGHTS_FORMAT_SAFETENSORS : HR_WEIGHTS_FORMAT_GGUF;
  if ((f == HR_WEIGHTS_FORMAT_GGUF && !p->gguf) ||
      (f == HR_WEIGHTS_FORMAT_SAFETENSORS && !p->safetensors))
    {
      g_set_error (error, HR_WEIGHTS_ERROR, HR_WEIGHTS_ERROR_WRONG_FORMAT,
                   "precision “%s” has no %s form", p->id,
                   f == HR_WEIGHTS_FORMAT_GGUF ? "GGUF" : "safetensors");
      return FALSE;
    }

  shape_from_model (model, shape);
  if (!check_shape (shape, error))
    return FALSE;

  *precision = p;
  *format = f;
  return TRUE;
}

static GArray *
list_tensors (const Shape         *s,
              const PrecisionInfo *p,
              HrWeightsFormat      format,
              gboolean             imatrix,
              gboolean            *all_defined)
{
  g_autoptr(GArray) tensors = NULL;
  GArray *out;

  tensors = enumerate_tensors (s, format == HR_WEIGHTS_FORMAT_GGUF);
  out = g_array_sized_new (FALSE, FALSE, sizeof (HrWeightsTensor), tensors->len);
  *all_defined = TRUE;

  if (format == HR_WEIGHTS_FORMAT_GGUF)
    {
      QuantState q;

      quant_state_init (&q, s, p, imatrix, tensors);
      for (guint i = 0; i < tensors->len; i++)
        {
          const Tensor *t = &g_array_index (tensors, Tensor, i);
          guint32 type = gguf_tensor_type (&q, t);

          append_out (out, t, NULL, type, t->n_dims, t->ne[0], t->ne[1], t->ne[2],
                      t->ne[0] * t->ne[1] * t->ne[2]);
        }
      *all_defined = q.all_defined;
    }
  else
    {
      for (guint i = 0; i < tensors->len; i++)
        safetensors_tensor (out, p, &g_array_index (tensors, Tensor, i));
    }

  return out;
}

static gint
compare_by_bytes (gconstpointer a,
                  gconstpointer b)
{
  const HrWeightsByType *x = a;
  const HrWeightsByType *y = b;

  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  return x->ggml_type < y->ggml_type ? -1 : x->ggml_type > y->ggml_type;
}

static guint64
gguf_metadata_bytes (GArray      *tensors,
                     const Shape *s)
{
  guint64 bytes = GGUF_HEADER_BYTES + GGUF_FIXED_METADATA;

  bytes += (guint64) (s->vocab * GGUF_BYTES_PER_TOKEN);
  for (guint i = 0; i < tensors->len; i++)
    {
      const HrWeightsTensor *t = &g_array_index (tensors, HrWeightsTensor, i);

      bytes += GGUF_TENSOR_INFO_FIXED + strlen (t->name) + 8 * (guint64) t->n_dims;
    }
  return round_up (bytes, GGUF_ALIGNMENT);
}

GArray *
hr_weights_list_tensors (HrModelSpec            *model,
                         const char             *precision_id,
                         const HrWeightsOptions *options,
                         GError                **error)
{
  Shape shape;
  const PrecisionInfo *p;
  HrWeightsFormat format;
  gboolean all_defined;

  g_return_val_if_fail (HR_IS_MODEL_SPEC (model), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!resolve (model, precision_id, options, &shape, &p, &format, error))
    return NULL;

  return list_tensors (&shape, p, format, options != NULL && options->imatrix,
                       &all_defined);
}

gboolean
hr_weights_compute_with_options (HrModelSpec            *model,
                                 const char             *precision_id,
                                 const HrWeightsOptions *options,
                                 HrWeights              *out,
                                 GError                **error)
{
  g_autoptr(GArray) tensors = NULL;
  Shape shape;
  const PrecisionInfo *p;
  HrWeightsFormat format;
  gboolean all_defined;
  guint64 data_padded = 0;

  g_return_val_if_fail (HR_IS_MODEL_SPEC (model), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (out, 0, sizeof *out);

  if (!resolve (model, precision_id, options, &shape, &p, &format, error))
    return FALSE;

  tensors = list_tensors (&shape, p, format, options != NULL && options->imatrix,
                          &all_defined);

  for (guint i = 0; i < tensors->len; i++)
    {
      const HrWeightsTensor *t = &g_array_index (tensors, HrWeightsTensor, i);
      HrWeightsByType *row = NULL;

      out->total_bytes += t->bytes;
      out->total_params += t->params;
      data_padded += round_up (t->bytes, GGUF_ALIGNMENT);

      for (guint j = 0; j < out->n_types; j++)
        {
          if (out->by_type[j].ggml_type == t->ggml_type)
            {
              row = &out->by_type[j];
              break;
            }
        }
      if (row == NULL)
        {
          /* Fewer than a dozen types ever occur; the table has room. */
          g_assert (out->n_types < HR_WEIGHTS_MAX_TYPES);
          row = &out->by_type[out->n_types++];
          row->ggml_type = t->ggml_type;
        }
      row->bytes += t->bytes;
      row->elements += t->dims[0] * t->dims[1] * t->dims[2];
      row->n_tensors++;
    }

  qsort (out->by_type, out->n_types, sizeof out->by_type[0], compare_by_bytes);

  out->exact = shape.arch->exact && all_defined;
  out->format = format;
  out->n_tensors = tensors->len;

  if (format == HR_WEIGHTS_FORMAT_GGUF)
    {
      out->metadata_bytes = gguf_metadata_bytes (tensors, &shape);
      out->file_bytes = out->metadata_bytes + data_padded;
    }
  else
    {
      out->buffer_bytes = vllm_rope_cache_bytes (&shape, p);
    }

  return TRUE;
}

gboolean
hr_weights_compute (HrModelSpec  *model,
                    const char   *precision_id,
                    HrWeights    *out,
                    GError      **error)
{
  return hr_weights_compute_with_options (model, precision_id, NULL, out, error);
}

const char *
hr_weights_type_name (guint32 type)
{
  switch (type)
    {
    case HR_WEIGHTS_TYPE_FP8:
      return "FP8";
    case HR_WEIGHTS_TYPE_INT4:
      return "INT4";
    default:
      return hr_ggml_type_name (type);
    }
}

gboolean
hr_weights_supports_architecture (const char *architecture)
{
  return find_arch (architecture) != NULL;
}
