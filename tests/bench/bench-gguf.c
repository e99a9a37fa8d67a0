/* bench-gguf.c — how long reading a real-sized GGUF header takes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 28 item 12: `headroom-cli inspect` of a 6.16 GB GLM-4-9B-0414
 * Q4_K_M file must take under 25 ms.  No model is downloaded: this writes
 * a GGUF with that model's real shapes as a sparse file (the header is
 * real, the 6 GB of tensor data is a hole), then times
 *
 *   - hr_gguf_open() alone (the reader), and
 *   - hr_model_inspect_describe_gguf_file() (what `inspect --json` does
 *     with the file: the reader, the shape, the catalog entry, the facts),
 *
 * and prints the median and 90th percentile of many runs.
 *
 * Usage: bench-gguf [RUNS]           write to a temporary folder and time
 *        bench-gguf --write PATH     only write the file (for
 *                                    run-bench-gguf.sh, which times the CLI
 *                                    and @huggingface/gguf on it)
 *
 * The file: GLM-4-9B-0414 (llama.cpp architecture "glm4"): 40 layers,
 * hidden 4096, FFN 13696 (gate and up fused into one 27392-row ffn_up),
 * 32 query heads and 2 KV heads of 128, q/k/v biases, post-attention and
 * post-FFN norms, vocabulary 151552.  Tensor types are those llama.cpp's
 * Q4_K_M recipe (llama_tensor_get_type) gives it: Q4_K by default;
 * output.weight Q6_K; attn_v and ffn_down Q6_K on use_more_bits() layers
 * (the first and last eighth and every third between); and since 13696 is
 * not a multiple of 256, ffn_down falls back from Q6_K to Q8_0 and from
 * Q4_K to Q5_0.  The tokenizer is byte-level BPE (gpt2) with 151552 tokens
 * and 151000 merges of realistic lengths, so the header is ~6 MB as in the
 * real file.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "gguf-writer.h"
#include "hr-gguf.h"
#include "hr-model-inspect.h"

enum
{
  N_LAYERS = 40,
  HIDDEN = 4096,
  FFN = 13696,
  N_HEADS = 32,
  N_KV_HEADS = 2,
  HEAD_DIM = 128,
  VOCAB = 151552,
  N_MERGES = 151000,
  CONTEXT = 32768,
  FILE_TYPE_Q4_K_M = 15,   /* LLAMA_FTYPE_MOSTLY_Q4_K_M */
  QK_K = 256,              /* elements per K-quant block */
};

/* llama.cpp's use_more_bits(): the first and last eighth of the layers
 * and every third layer between them get more bits. */
static gboolean
use_more_bits (int i_layer,
               int n_layers)
{
  return i_layer < n_layers / 8 || i_layer >= 7 * n_layers / 8 ||
         (i_layer - n_layers / 8) % 3 == 2;
}

static void
add_tensor (HrGgufWriter *w,
            const char   *name,
            guint32       type,
            guint64       ne0,
            guint64       ne1)
{
  guint64 dims[2] = { ne0, ne1 };
  guint32 n_dims = ne1 > 0 ? 2 : 1;
  guint64 n_bytes;

  if (ne1 == 0)
    dims[1] = 1;
  /* K-quants need rows of whole 256-element blocks; llama.cpp falls back. */
  if (ne0 % QK_K != 0 && type == HR_GGML_TYPE_Q6_K)
    type = HR_GGML_TYPE_Q8_0;
  else if (ne0 % QK_K != 0 && type == HR_GGML_TYPE_Q4_K)
    type = HR_GGML_TYPE_Q5_0;
  g_assert_true (hr_ggml_tensor_bytes (type, dims, n_dims, &n_bytes));
  hr_gguf_writer_add_tensor (w, name, type, n_dims, dims, n_bytes);
}

/* A byte-level BPE token: 'Ġ' (two bytes) for a leading space on half of
 * them, then 2–12 letters; unique through its number.  Mean ~7 bytes. */
static char *
make_token (guint   i,
            GRand  *rand)
{
  GString *s = g_string_new (i % 2 == 0 ? "\xc4\xa0" : "");
  guint n = g_rand_int_range (rand, 2, 9);

  for (guint k = 0; k < n; k++)
    g_string_append_c (s, 'a' + g_rand_int_range (rand, 0, 26));
  g_string_append_printf (s, "%x", i);
  return g_string_free (s, FALSE);
}

static HrGgufWriter *
build_glm4_9b (void)
{
  HrGgufWriter *w = hr_gguf_writer_new (3);
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) merges = g_ptr_array_new_with_free_func (g_free);
  g_autofree gint32 *token_types = g_new (gint32, VOCAB);
  g_autoptr(GRand) rand = g_rand_new_with_seed (4);
  g_autoptr(GString) chat_template = g_string_new ("[gMASK]<sop>");

  hr_gguf_writer_add_string (w, "general.architecture", "glm4");
  hr_gguf_writer_add_string (w, "general.type", "model");
  hr_gguf_writer_add_string (w, "general.name", "GLM 4 9B 0414");
  hr_gguf_writer_add_string (w, "general.version", "0414");
  hr_gguf_writer_add_string (w, "general.basename", "GLM-4");
  hr_gguf_writer_add_string (w, "general.size_label", "9B");
  hr_gguf_writer_add_string (w, "general.license", "mit");
  hr_gguf_writer_add_uint32 (w, "glm4.block_count", N_LAYERS);
  hr_gguf_writer_add_uint32 (w, "glm4.context_length", CONTEXT);
  hr_gguf_writer_add_uint32 (w, "glm4.embedding_length", HIDDEN);
  hr_gguf_writer_add_uint32 (w, "glm4.feed_forward_length", FFN);
  hr_gguf_writer_add_uint32 (w, "glm4.attention.head_count", N_HEADS);
  hr_gguf_writer_add_uint32 (w, "glm4.attention.head_count_kv", N_KV_HEADS);
  hr_gguf_writer_add_float32 (w, "glm4.rope.freq_base", 10000.0f);
  hr_gguf_writer_add_float32 (w, "glm4.attention.layer_norm_rms_epsilon", 1e-5f);
  hr_gguf_writer_add_uint32 (w, "glm4.rope.dimension_count", HEAD_DIM / 2);
  hr_gguf_writer_add_uint32 (w, "general.file_type", FILE_TYPE_Q4_K_M);

  for (guint i = 0; i < VOCAB; i++)
    {
      g_ptr_array_add (tokens, make_token (i, rand));
      token_types[i] = i < VOCAB - 223 ? 1 : 3;   /* normal, then control */
    }
  for (guint i = 0; i < N_MERGES; i++)
    g_ptr_array_add (merges, g_strdup_printf ("%s %s",
                                              (char *) tokens->pdata[g_rand_int_range (rand, 0, 4000)],
                                              (char *) tokens->pdata[i % VOCAB] + (i % 2 == 0 ? 2 : 0)));
  hr_gguf_writer_add_string (w, "tokenizer.ggml.model", "gpt2");
  hr_gguf_writer_add_string (w, "tokenizer.ggml.pre", "glm4");
  hr_gguf_writer_add_string_array (w, "tokenizer.ggml.tokens",
                                   (const char * const *) tokens->pdata, tokens->len);
  hr_gguf_writer_add_array (w, "tokenizer.ggml.token_type", HR_GGUF_TYPE_INT32,
                            token_types, VOCAB);
  hr_gguf_writer_add_string_array (w, "tokenizer.ggml.merges",
                                   (const char * const *) merges->pdata, merges->len);
  hr_gguf_writer_add_uint32 (w, "tokenizer.ggml.eos_token_id", 151329);
  hr_gguf_writer_add_uint32 (w, "tokenizer.ggml.padding_token_id", 151329);
  hr_gguf_writer_add_uint32 (w, "tokenizer.ggml.bos_token_id", 151331);
  hr_gguf_writer_add_uint32 (w, "tokenizer.ggml.eot_token_id", 151336);
  hr_gguf_writer_add_uint32 (w, "tokenizer.ggml.unknown_token_id", 151329);
  /* The real template is ~3 KB of Jinja. */
  while (chat_template->len < 3000)
    g_string_append (chat_template, "{%- if tools -%}<|system|>\n{{ message.content }}{%- endif -%}\n");
  hr_gguf_writer_add_string (w, "tokenizer.chat_template", chat_template->str);
  hr_gguf_writer_add_uint32 (w, "general.quantization_version", 2);

  add_tensor (w, "token_embd.weight", HR_GGML_TYPE_Q4_K, HIDDEN, VOCAB);
  for (int i = 0; i < N_LAYERS; i++)
    {
      gboolean more = use_more_bits (i, N_LAYERS);
      char name[64];

#define LAYER(suffix) (g_snprintf (name, sizeof name, "blk.%d." suffix, i), name)
      add_tensor (w, LAYER ("attn_norm.weight"), HR_GGML_TYPE_F32, HIDDEN, 0);
      add_tensor (w, LAYER ("attn_q.weight"), HR_GGML_TYPE_Q4_K, HIDDEN, N_HEADS * HEAD_DIM);
      add_tensor (w, LAYER ("attn_q.bias"), HR_GGML_TYPE_F32, N_HEADS * HEAD_DIM, 0);
      add_tensor (w, LAYER ("attn_k.weight"), HR_GGML_TYPE_Q4_K, HIDDEN, N_KV_HEADS * HEAD_DIM);
      add_tensor (w, LAYER ("attn_k.bias"), HR_GGML_TYPE_F32, N_KV_HEADS * HEAD_DIM, 0);
      add_tensor (w, LAYER ("attn_v.weight"), more ? HR_GGML_TYPE_Q6_K : HR_GGML_TYPE_Q4_K,
                  HIDDEN, N_KV_HEADS * HEAD_DIM);
      add_tensor (w, LAYER ("attn_v.bias"), HR_GGML_TYPE_F32, N_KV_HEADS * HEAD_DIM, 0);
      add_tensor (w, LAYER ("attn_output.weight"), HR_GGML_TYPE_Q4_K, N_HEADS * HEAD_DIM, HIDDEN);
      add_tensor (w, LAYER ("post_attention_norm.weight"), HR_GGML_TYPE_F32, HIDDEN, 0);
      add_tensor (w, LAYER ("ffn_norm.weight"), HR_GGML_TYPE_F32, HIDDEN, 0);
      add_tensor (w, LAYER ("ffn_up.weight"), HR_GGML_TYPE_Q4_K, HIDDEN, 2 * FFN);
      add_tensor (w, LAYER ("ffn_down.weight"), more ? HR_GGML_TYPE_Q6_K : HR_GGML_TYPE_Q4_K,
                  FFN, HIDDEN);
      add_tensor (w, LAYER ("post_ffw_norm.weight"), HR_GGML_TYPE_F32, HIDDEN, 0);
#undef LAYER
    }
  add_tensor (w, "output_norm.weight", HR_GGML_TYPE_F32, HIDDEN, 0);
  add_tensor (w, "output.weight", HR_GGML_TYPE_Q6_K, HIDDEN, VOCAB);
  return w;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
report (const char *what,
        GArray     *samples)
{
  double *v = (double *) samples->data;

  g_array_sort (samples, compare_doubles);
  g_print ("%-36s median %7.2f ms   p90 %7.2f ms   min %7.2f ms   (n = %u)\n", what,
           v[samples->len / 2] * 1e3, v[samples->len * 9 / 10] * 1e3, v[0] * 1e3,
           samples->len);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrGgufWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) open_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) inspect_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(HrGguf) gguf = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  int runs = 200;

  w = build_glm4_9b ();

  if (argc == 3 && strcmp (argv[1], "--write") == 0)
    {
      if (!hr_gguf_writer_write_file (w, argv[2], &error))
        {
          g_printerr ("bench-gguf: %s\n", error->message);
          return 1;
        }
      g_print ("%s: %" G_GUINT64_FORMAT " bytes, header %" G_GSIZE_FORMAT " bytes\n", argv[2],
               hr_gguf_writer_get_file_size (w), hr_gguf_writer_get_header_end (w));
      return 0;
    }
  if (argc > 1)
    runs = MAX (atoi (argv[1]), 1);

  dir = g_dir_make_tmp ("bench-gguf-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "THUDM_GLM-4-9B-0414-Q4_K_M.gguf", NULL);
  if (!hr_gguf_writer_write_file (w, path, &error))
    g_error ("%s", error->message);

  gguf = hr_gguf_open (path, &error);
  g_assert_no_error (error);
  g_print ("GLM-4-9B-0414 Q4_K_M (sparse): %" G_GUINT64_FORMAT " bytes, header %"
           G_GSIZE_FORMAT " bytes, %" G_GUINT64_FORMAT " tensors, %u keys\n",
           hr_gguf_get_file_size (gguf), hr_gguf_writer_get_header_end (w),
           hr_gguf_get_tensor_count (gguf), hr_gguf_get_n_metadata (gguf));

  for (int i = 0; i < runs; i++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(HrGguf) g = hr_gguf_open (path, &error);
      double t = (g_get_monotonic_time () - start) / 1e6;

      g_assert_no_error (error);
      g_array_append_val (open_times, t);
    }

  for (int i = 0; i < runs; i++)
    {
      gint64 start = g_get_monotonic_time ();
      JsonNode *node = hr_model_inspect_describe_gguf_file (path, &error);
      double t = (g_get_monotonic_time () - start) / 1e6;

      g_assert_no_error (error);
      json_node_unref (node);
      g_array_append_val (inspect_times, t);
    }

  report ("hr_gguf_open", open_times);
  report ("inspect (describe_gguf_file)", inspect_times);

  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
