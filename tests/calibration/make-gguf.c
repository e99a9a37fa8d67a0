/* make-gguf.c — writes a loadable, all-zero GGUF model of a given shape
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The calibration runs (run-calibration.mjs) need models whose shapes we
 * choose freely: vocabulary, width, heads, head size, layers, sliding
 * window.  The weights never matter (llama.cpp sizes its KV cache and its
 * compute graph from the shapes alone, and we never evaluate a token), so
 * the tensor data is a hole in a sparse file: a 2 GB model costs a few
 * kilobytes of disk.  The tokenizer is a minimal SentencePiece ("llama")
 * vocabulary: <unk> <s> </s>, the 256 byte tokens llama.cpp looks up for
 * the newline, then filler tokens up to n_vocab.
 *
 * Usage: make-gguf OUT.gguf key=value...
 *   arch=llama|gemma2|gemma3  vocab=N  embd=N  ff=N  layers=N  heads=N
 *   kv_heads=N  head_dim=N  ctx_train=N  swa=N  swa_pattern=N  wtype=f16|q8_0|q4_0
 */

#define G_LOG_DOMAIN "hr-make-gguf"

#include <stdlib.h>
#include <string.h>

#include "gguf-writer.h"

typedef struct
{
  const char *arch;
  guint64 vocab;
  guint64 embd;
  guint64 ff;
  guint32 layers;
  guint32 heads;
  guint32 kv_heads;
  guint32 head_dim;
  guint32 ctx_train;
  guint32 swa;
  guint32 swa_pattern;
  guint32 wtype;
} Shape;

/* Bytes of a 2-D weight in the chosen type: the block formats store 32
 * values in 34 (Q8_0) or 18 (Q4_0) bytes. */
static guint64
weight_bytes (guint32 type,
              guint64 ne0,
              guint64 ne1)
{
  switch (type)
    {
    case HR_GGML_TYPE_Q8_0:
      return ne0 / 32 * 34 * ne1;
    case HR_GGML_TYPE_Q4_0:
      return ne0 / 32 * 18 * ne1;
    case HR_GGML_TYPE_F32:
      return ne0 * 4 * ne1;
    default:
      return ne0 * 2 * ne1;
    }
}

static void
add_2d (HrGgufWriter *w,
        const char   *name,
        guint32       type,
        guint64       ne0,
        guint64       ne1)
{
  guint64 dims[2] = { ne0, ne1 };

  hr_gguf_writer_add_tensor (w, name, type, 2, dims, weight_bytes (type, ne0, ne1));
}

static void
add_norm (HrGgufWriter *w,
          const char   *name,
          guint64       ne0)
{
  guint64 dims[1] = { ne0 };

  hr_gguf_writer_add_tensor (w, name, HR_GGML_TYPE_F32, 1, dims, ne0 * 4);
}

static void
add_vocab (HrGgufWriter *w,
           guint64       n_vocab)
{
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);
  g_autofree float *scores = g_new0 (float, n_vocab);
  g_autofree gint32 *types = g_new0 (gint32, n_vocab);

  g_ptr_array_add (tokens, g_strdup ("<unk>"));
  g_ptr_array_add (tokens, g_strdup ("<s>"));
  g_ptr_array_add (tokens, g_strdup ("</s>"));
  for (guint i = 0; i < 256; i++)
    g_ptr_array_add (tokens, g_strdup_printf ("<0x%02X>", i));
  while (tokens->len < n_vocab)
    g_ptr_array_add (tokens, g_strdup_printf ("t%u", tokens->len));

  for (guint64 i = 0; i < n_vocab; i++)
    {
      /* 2 unknown, 3 control, 6 byte, 1 normal (llama_token_type) */
      types[i] = i == 0 ? 2 : i < 3 ? 3 : i < 259 ? 6 : 1;
      scores[i] = -(float) i;
    }

  hr_gguf_writer_add_string (w, "tokenizer.ggml.model", "llama");
  hr_gguf_writer_add_string_array (w, "tokenizer.ggml.tokens",
                                   (const char * const *) tokens->pdata, n_vocab);
  hr_gguf_writer_add_array (w, "tokenizer.ggml.scores", HR_GGUF_TYPE_FLOAT32, scores, n_vocab);
  hr_gguf_writer_add_array (w, "tokenizer.ggml.token_type", HR_GGUF_TYPE_INT32, types, n_vocab);
  hr_gguf_writer_add_uint32 (w, "tokenizer.ggml.bos_token_id", 1);
  hr_gguf_writer_add_uint32 (w, "tokenizer.ggml.eos_token_id", 2);
  hr_gguf_writer_add_uint32 (w, "tokenizer.ggml.unknown_token_id", 0);
}

static guint32
parse_wtype (const char *s)
{
  if (g_str_equal (s, "q8_0"))
    return HR_GGML_TYPE_Q8_0;
  if (g_str_equal (s, "q4_0"))
    return HR_GGML_TYPE_Q4_0;
  return HR_GGML_TYPE_F16;
}

int
main (int   argc,
      char *argv[])
{
  Shape s = {
    .arch = "llama", .vocab = 32000, .embd = 1024, .ff = 2816, .layers = 2,
    .heads = 16, .kv_heads = 4, .head_dim = 0, .ctx_train = 131072,
    .swa = 0, .swa_pattern = 0, .wtype = HR_GGML_TYPE_F16,
  };
  g_autoptr(HrGgufWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  guint64 q_dim, kv_dim;
  char key[128];

  if (argc < 2)
    {
      g_printerr ("usage: %s OUT.gguf key=value...\n", argv[0]);
      return 2;
    }

  for (int i = 2; i < argc; i++)
    {
      const char *eq = strchr (argv[i], '=');
      g_autofree char *k = NULL;
      const char *v;

      if (eq == NULL)
        {
          g_printerr ("bad argument %s\n", argv[i]);
          return 2;
        }
      k = g_strndup (argv[i], eq - argv[i]);
      v = eq + 1;
      if (g_str_equal (k, "arch"))
        s.arch = v;
      else if (g_str_equal (k, "vocab"))
        s.vocab = g_ascii_strtoull (v, NULL, 10);
      else if (g_str_equal (k, "embd"))
        s.embd = g_ascii_strtoull (v, NULL, 10);
      else if (g_str_equal (k, "ff"))
        s.ff = g_ascii_strtoull (v, NULL, 10);
      else if (g_str_equal (k, "layers"))
        s.layers = atoi (v);
      else if (g_str_equal (k, "heads"))
        s.heads = atoi (v);
      else if (g_str_equal (k, "kv_heads"))
        s.kv_heads = atoi (v);
      else if (g_str_equal (k, "head_dim"))
        s.head_dim = atoi (v);
      else if (g_str_equal (k, "ctx_train"))
        s.ctx_train = atoi (v);
      else if (g_str_equal (k, "swa"))
        s.swa = atoi (v);
      else if (g_str_equal (k, "swa_pattern"))
        s.swa_pattern = atoi (v);
      else if (g_str_equal (k, "wtype"))
        s.wtype = parse_wtype (v);
      else
        {
          g_printerr ("unknown key %s\n", k);
          return 2;
        }
    }

  if (s.head_dim == 0)
    s.head_dim = s.embd / s.heads;
  q_dim = (guint64) s.head_dim * s.heads;
  kv_dim = (guint64) s.head_dim * s.kv_heads;

  w = hr_gguf_writer_new (3);
  hr_gguf_writer_add_string (w, "general.architecture", s.arch);
  hr_gguf_writer_add_string (w, "general.name", "headroom-calibration");
  hr_gguf_writer_add_uint32 (w, "general.file_type", s.wtype == HR_GGML_TYPE_F16 ? 1 : s.wtype == HR_GGML_TYPE_Q8_0 ? 7 : 2);

#define ARCH_KEY(name) (g_snprintf (key, sizeof key, "%s." name, s.arch), key)
  hr_gguf_writer_add_uint32 (w, ARCH_KEY ("context_length"), s.ctx_train);
  hr_gguf_writer_add_uint32 (w, ARCH_KEY ("embedding_length"), s.embd);
  hr_gguf_writer_add_uint32 (w, ARCH_KEY ("block_count"), s.layers);
  hr_gguf_writer_add_uint32 (w, ARCH_KEY ("feed_forward_length"), s.ff);
  hr_gguf_writer_add_uint32 (w, ARCH_KEY ("attention.head_count"), s.heads);
  hr_gguf_writer_add_uint32 (w, ARCH_KEY ("attention.head_count_kv"), s.kv_heads);
  hr_gguf_writer_add_uint32 (w, ARCH_KEY ("attention.key_length"), s.head_dim);
  hr_gguf_writer_add_uint32 (w, ARCH_KEY ("attention.value_length"), s.head_dim);
  hr_gguf_writer_add_uint32 (w, ARCH_KEY ("rope.dimension_count"), s.head_dim);
  hr_gguf_writer_add_float32 (w, ARCH_KEY ("rope.freq_base"), 10000.0f);
  hr_gguf_writer_add_float32 (w, ARCH_KEY ("attention.layer_norm_rms_epsilon"), 1e-6f);
  if (s.swa > 0)
    {
      hr_gguf_writer_add_uint32 (w, ARCH_KEY ("attention.sliding_window"), s.swa);
      if (s.swa_pattern > 0)
        hr_gguf_writer_add_uint32 (w, ARCH_KEY ("attention.sliding_window_pattern"), s.swa_pattern);
    }
  if (g_str_equal (s.arch, "gemma2"))
    {
      hr_gguf_writer_add_float32 (w, ARCH_KEY ("attn_logit_softcapping"), 50.0f);
      hr_gguf_writer_add_float32 (w, ARCH_KEY ("final_logit_softcapping"), 30.0f);
    }
#undef ARCH_KEY

  add_vocab (w, s.vocab);

  /* Token embeddings in the weight type; the output head is tied to them
   * (llama.cpp duplicates token_embd when output.weight is absent). */
  add_2d (w, "token_embd.weight", s.wtype, s.embd, s.vocab);
  add_norm (w, "output_norm.weight", s.embd);

  for (guint32 il = 0; il < s.layers; il++)
    {
      char name[96];
      gboolean gemma = g_str_has_prefix (s.arch, "gemma");

#define T(fmt) (g_snprintf (name, sizeof name, "blk.%u." fmt, il), name)
      add_norm (w, T ("attn_norm.weight"), s.embd);
      add_2d (w, T ("attn_q.weight"), s.wtype, s.embd, q_dim);
      add_2d (w, T ("attn_k.weight"), s.wtype, s.embd, kv_dim);
      add_2d (w, T ("attn_v.weight"), s.wtype, s.embd, kv_dim);
      add_2d (w, T ("attn_output.weight"), s.wtype, q_dim, s.embd);
      add_norm (w, T ("ffn_norm.weight"), s.embd);
      add_2d (w, T ("ffn_gate.weight"), s.wtype, s.embd, s.ff);
      add_2d (w, T ("ffn_up.weight"), s.wtype, s.embd, s.ff);
      add_2d (w, T ("ffn_down.weight"), s.wtype, s.ff, s.embd);
      if (gemma)
        {
          add_norm (w, T ("post_attention_norm.weight"), s.embd);
          add_norm (w, T ("post_ffw_norm.weight"), s.embd);
        }
      if (g_str_equal (s.arch, "gemma3"))
        {
          add_norm (w, T ("attn_k_norm.weight"), s.head_dim);
          add_norm (w, T ("attn_q_norm.weight"), s.head_dim);
        }
#undef T
    }

  if (!hr_gguf_writer_write_file (w, argv[1], &error))
    {
      g_printerr ("%s: %s\n", argv[1], error->message);
      return 1;
    }

  return 0;
}
