/* hr-engine-log.c — what an inference engine's log says it ran and measured
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every pattern below was read off real published logs (tests/data/logs/,
 * each with its source in SOURCES.md); the engine source that prints it is
 * named where it matters for the unit.
 */

#define G_LOG_DOMAIN "headroom"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "hr-engine-log.h"
#include "hr-file.h"
#include "hr-text.h"

/* When nothing of any engine was seen in the first MiB, the text is not a
 * log Headroom reads: stop there (100 MB of junk costs one MiB's scan). */
#define GIVE_UP_BYTES (1u << 20)
/* A NUL in the first 4 KiB: binary data. */
#define BINARY_PROBE_BYTES 4096
/* vLLM V0's default KV block: 16 tokens (vllm/config.py CacheConfig,
 * block_size default 16 on CUDA), for "# GPU blocks: N". */
#define VLLM_V0_BLOCK_TOKENS 16
/* The largest size a log line may state: 1 PiB. */
#define MAX_STATED_BYTES ((double) (1ull << 50))

typedef struct
{
  HrEngineLog *log;
  /* markers seen, for the kind */
  gboolean llamacpp, bench, ollama, vllm, sglang;
  /* llama-bench CSV: column of each field, -1 absent */
  gboolean csv_header;
  guint csv_fields;
  int csv_model, csv_backend, csv_gpu, csv_prompt, csv_gen, csv_depth, csv_ts, csv_ngl,
      csv_fa, csv_build;
  /* llama-bench markdown: column of each field */
  gboolean md_header;
  int md_model, md_backend, md_ngl, md_fa, md_test, md_ts;
  /* llama-bench JSON: the object being read */
  HrEngineLogRun json_run;
  gboolean json_has_ts;
} Parser;

/* ------------------------------------------------------------ helpers */

static void
set_string (char      **field,
            const char *text,
            gsize       length)
{
  if (*field != NULL || length == 0)
    return;
  *field = hr_text_escape_line (text, MIN (length, 256));
}

static void
copy_field (char       *dest,
            gsize       size,
            const char *text,
            gsize       length)
{
  gsize n = MIN (length, size - 1);

  memcpy (dest, text, n);
  dest[n] = '\0';
  for (gsize i = 0; i < n; i++)
    if ((guchar) dest[i] < 0x20 || (guchar) dest[i] >= 0x7f)
      dest[i] = '?';
}

static const char *
skip_spaces (const char *p)
{
  while (*p == ' ' || *p == '\t' || *p == '"' || *p == '\'')
    p++;
  return p;
}

/* A number with optional thousands commas ("476,016"); FALSE when none. */
static gboolean
parse_double (const char  *p,
              double      *value,
              const char **end)
{
  char digits[64];
  gsize n = 0;
  char *stop = NULL;
  double v;

  p = skip_spaces (p);
  while (n < sizeof digits - 1 &&
         (g_ascii_isdigit (*p) || *p == '.' || *p == '-' || *p == '+' ||
          (*p == ',' && g_ascii_isdigit (p[1]) && n > 0)))
    {
      if (*p != ',')
        digits[n++] = *p;
      p++;
    }
  digits[n] = '\0';
  if (n == 0)
    return FALSE;
  v = g_ascii_strtod (digits, &stop);
  if (stop == digits || !isfinite (v) || v < 0)
    return FALSE;
  *value = v;
  if (end != NULL)
    *end = p;
  return TRUE;
}

static gboolean
parse_uint (const char *p,
            guint64    *value)
{
  double v;

  if (!parse_double (p, &v, NULL) || v > (double) G_MAXUINT32 * 1024.0)
    return FALSE;
  *value = (guint64) v;
  return TRUE;
}

/* "7106.67 MiB", "11.4 GiB", "14.9888 GB", "0 B".  vLLM and SGLang print
 * "GB" for bytes ÷ 2^30 (vllm/utils GiB_bytes; sglang memory_pool.py
 * GB = 1024 ** 3), Ollama and llama.cpp binary units: every unit is read
 * as binary. */
static gboolean
parse_size (const char *p,
            guint64    *bytes)
{
  double v;
  double scale;
  const char *unit;

  if (!parse_double (p, &v, &unit))
    return FALSE;
  unit = skip_spaces (unit);
  switch (g_ascii_toupper (*unit))
    {
    case 'B': scale = 1; break;
    case 'K': scale = 1024.0; break;
    case 'M': scale = 1024.0 * 1024; break;
    case 'G': scale = 1024.0 * 1024 * 1024; break;
    case 'T': scale = 1024.0 * 1024 * 1024 * 1024; break;
    default: return FALSE;
    }
  if (v * scale > MAX_STATED_BYTES)
    return FALSE;
  *bytes = (guint64) llround (v * scale);
  return TRUE;
}

/* Where the value after @key in @line starts, past spaces and one '=' or
 * ':' ("KV buffer size =  160.00 MiB" → " 160.00 MiB"); NULL without @key. */
static const char *
value_after (const char *line,
             const char *key)
{
  const char *p = strstr (line, key);

  if (p == NULL)
    return NULL;
  p = skip_spaces (p + strlen (key));
  if (*p == '=' || *p == ':')
    p++;
  return p;
}

/* The size after @key in @line ("KV buffer size =  160.00 MiB"). */
static gboolean
size_after (const char *line,
            const char *key,
            guint64    *bytes)
{
  const char *p = value_after (line, key);

  return p != NULL && parse_size (p, bytes);
}

static gboolean
uint_after (const char *line,
            const char *key,
            guint64    *value)
{
  const char *p = value_after (line, key);

  return p != NULL && parse_uint (p, value);
}

/* The word (letters, digits, _ . - / :) after @key, quotes dropped. */
static gboolean
word_after (const char  *line,
            const char  *key,
            const char **word,
            gsize       *length)
{
  const char *p = strstr (line, key);
  const char *q;

  if (p == NULL)
    return FALSE;
  p = skip_spaces (p + strlen (key));
  q = p;
  while (*q != '\0' && *q != '"' && *q != '\'' && *q != ',' && *q != ' ' && *q != ')' &&
         *q != '}' && *q != ']')
    q++;
  if (q == p)
    return FALSE;
  *word = p;
  *length = q - p;
  return TRUE;
}

/* The device named just before @key: "CUDA0 KV buffer size" → "CUDA0". */
static gboolean
device_before (const char *line,
               const char *at,
               char        name[24])
{
  const char *end = at;
  const char *start;

  while (end > line && end[-1] == ' ')
    end--;
  start = end;
  while (start > line && start[-1] != ' ' && start[-1] != ':' && start[-1] != '=')
    start--;
  if (start == end)
    return FALSE;
  copy_field (name, 24, start, end - start);
  /* Host buffers, whatever llama.cpp calls them. */
  if (g_str_has_prefix (name, "CPU") || g_str_has_suffix (name, "_Host") ||
      strcmp (name, "CPU_Mapped") == 0)
    g_strlcpy (name, "CPU", 24);
  return TRUE;
}

static HrEngineLogDevice *
device_get (HrEngineLog *log,
            const char  *name)
{
  for (guint i = 0; i < log->n_devices; i++)
    if (strcmp (log->devices[i].name, name) == 0)
      return &log->devices[i];
  if (log->n_devices == HR_ENGINE_LOG_MAX_DEVICES)
    return NULL;
  g_strlcpy (log->devices[log->n_devices].name, name, 24);
  return &log->devices[log->n_devices++];
}

static gboolean
is_host (const char *name)
{
  return strcmp (name, "CPU") == 0;
}

/* A buffer line "<DEV> <what> size = X": adds X to the device's figure
 * (llama.cpp prints CPU_Mapped and CPU_REPACK buffers separately). */
static void
device_buffer (HrEngineLog *log,
               const char  *line,
               const char  *key,
               int          what)
{
  const char *at = strstr (line, key);
  char name[24];
  guint64 bytes;
  HrEngineLogDevice *d;

  if (at == NULL || !device_before (line, at, name) || !size_after (at, "size", &bytes))
    return;
  d = device_get (log, name);
  if (d == NULL)
    return;
  switch (what)
    {
    case HR_ENGINE_LOG_WEIGHTS: d->weights_bytes += bytes; d->has_weights = TRUE; break;
    case HR_ENGINE_LOG_KV: d->kv_bytes += bytes; d->has_kv = TRUE; break;
    case HR_ENGINE_LOG_STATE: d->state_bytes += bytes; d->has_state = TRUE; break;
    case HR_ENGINE_LOG_COMPUTE: d->compute_bytes += bytes; d->has_compute = TRUE; break;
    default: break;
    }
}

static void
add_run (HrEngineLog          *log,
         const HrEngineLogRun *run)
{
  if (log->n_runs < HR_ENGINE_LOG_MAX_RUNS && run->tokens_per_s > 0 &&
      (run->n_prompt > 0 || run->n_gen > 0))
    log->runs[log->n_runs++] = *run;
}

static void
run_init (HrEngineLogRun *run)
{
  memset (run, 0, sizeof *run);
  run->n_gpu_layers = G_MININT32;
  run->flash_attn = G_MININT32;
}

/* "pp512", "tg 128", "pp512 @ d4096"; FALSE for pp512+tg128 and others. */
static gboolean
parse_test (const char     *text,
            HrEngineLogRun *run)
{
  guint64 n = 0, depth = 0;
  const char *p = skip_spaces (text);
  const char *at;

  if (strchr (p, '+') != NULL)
    return FALSE;
  if (g_str_has_prefix (p, "pp"))
    run->prompt = TRUE;
  else if (g_str_has_prefix (p, "tg"))
    run->prompt = FALSE;
  else
    return FALSE;
  if (!parse_uint (p + 2, &n) || n == 0 || n > G_MAXINT32)
    return FALSE;
  at = strstr (p, "@ d");
  if (at != NULL && (!parse_uint (at + 3, &depth) || depth > G_MAXINT32))
    return FALSE;
  run->n_prompt = run->prompt ? n : 0;
  run->n_gen = run->prompt ? 0 : n;
  run->depth = depth;
  return TRUE;
}

/* -------------------------------------------------------- llama-bench */

/* Splits a markdown row "| a | b |" or a CSV line into at most @max
 * trimmed fields (CSV quotes dropped); returns the count. */
static guint
split_fields (char       *line,
              char        sep,
              char      **fields,
              guint       max)
{
  guint n = 0;
  char *p = line;

  if (sep == '|')
    {
      p = strchr (line, '|');
      if (p == NULL)
        return 0;
      p++;
    }
  while (*p != '\0' && n < max)
    {
      char *start;
      char *end;

      while (*p == ' ')
        p++;
      if (*p == '"')
        {
          start = ++p;
          while (*p != '\0' && *p != '"')
            p++;
          end = p;
          if (*p == '"')
            p++;
          while (*p != '\0' && *p != sep)
            p++;
        }
      else
        {
          start = p;
          while (*p != '\0' && *p != sep)
            p++;
          end = p;
        }
      while (end > start && end[-1] == ' ')
        end--;
      if (*p == sep)
        p++;
      else if (sep == '|' && *p == '\0')
        {
          /* the text after the last '|' is not a field */
          if (end == start)
            break;
        }
      *end = '\0';
      fields[n++] = start;
    }
  return n;
}

static int
column (char      **fields,
        guint       n,
        const char *name)
{
  for (guint i = 0; i < n; i++)
    if (g_ascii_strcasecmp (fields[i], name) == 0)
      return (int) i;
  return -1;
}

static void
bench_markdown (Parser *ps,
                char   *line)
{
  char *fields[48];
  guint n;
  HrEngineLogRun run;
  double ts;

  n = split_fields (line, '|', fields, G_N_ELEMENTS (fields));
  if (n < 3)
    return;
  if (column (fields, n, "model") >= 0 && column (fields, n, "t/s") >= 0 &&
      column (fields, n, "test") >= 0)
    {
      ps->md_header = TRUE;
      ps->bench = TRUE;
      ps->md_model = column (fields, n, "model");
      ps->md_backend = column (fields, n, "backend");
      ps->md_ngl = column (fields, n, "ngl");
      ps->md_fa = column (fields, n, "fa");
      ps->md_test = column (fields, n, "test");
      ps->md_ts = column (fields, n, "t/s");
      return;
    }
  if (!ps->md_header || (guint) ps->md_ts >= n || (guint) ps->md_test >= n)
    return;
  run_init (&run);
  if (!parse_test (fields[ps->md_test], &run) || !parse_double (fields[ps->md_ts], &ts, NULL))
    return;
  run.tokens_per_s = ts;
  if (ps->md_model >= 0 && (guint) ps->md_model < n)
    copy_field (run.model, sizeof run.model, fields[ps->md_model], strlen (fields[ps->md_model]));
  if (ps->md_backend >= 0 && (guint) ps->md_backend < n)
    copy_field (run.backend, sizeof run.backend, fields[ps->md_backend],
                strlen (fields[ps->md_backend]));
  if (ps->md_ngl >= 0 && (guint) ps->md_ngl < n)
    run.n_gpu_layers = (gint32) g_ascii_strtoll (fields[ps->md_ngl], NULL, 10);
  if (ps->md_fa >= 0 && (guint) ps->md_fa < n)
    run.flash_attn = (gint32) g_ascii_strtoll (fields[ps->md_fa], NULL, 10);
  add_run (ps->log, &run);
}

static void
bench_csv (Parser *ps,
           char   *line)
{
  char *fields[64];
  guint n = split_fields (line, ',', fields, G_N_ELEMENTS (fields));
  HrEngineLogRun run;
  guint64 v;
  double ts;

  if (column (fields, n, "avg_ts") >= 0 && column (fields, n, "n_prompt") >= 0)
    {
      ps->csv_header = TRUE;
      ps->csv_fields = n;
      ps->bench = TRUE;
      ps->csv_model = column (fields, n, "model_type");
      ps->csv_backend = column (fields, n, "backends");
      if (ps->csv_backend < 0)
        ps->csv_backend = column (fields, n, "backend");
      ps->csv_gpu = column (fields, n, "gpu_info");
      ps->csv_prompt = column (fields, n, "n_prompt");
      ps->csv_gen = column (fields, n, "n_gen");
      ps->csv_depth = column (fields, n, "n_depth");
      ps->csv_ts = column (fields, n, "avg_ts");
      ps->csv_ngl = column (fields, n, "n_gpu_layers");
      ps->csv_fa = column (fields, n, "flash_attn");
      ps->csv_build = column (fields, n, "build_number");
      return;
    }
  /* a row of another width has shifted columns: not read; a header
   * without the columns a run needs reads none */
  if (!ps->csv_header || n != ps->csv_fields || ps->csv_ts < 0 || ps->csv_prompt < 0 ||
      ps->csv_gen < 0)
    return;
  run_init (&run);
  if (!parse_double (fields[ps->csv_ts], &ts, NULL))
    return;
  run.tokens_per_s = ts;
  if (parse_uint (fields[ps->csv_prompt], &v) && v <= G_MAXINT32)
    run.n_prompt = v;
  if (parse_uint (fields[ps->csv_gen], &v) && v <= G_MAXINT32)
    run.n_gen = v;
  if (run.n_prompt > 0 && run.n_gen > 0)
    return;                     /* pp+tg: a mixed rate */
  run.prompt = run.n_prompt > 0;
  if (ps->csv_depth >= 0 && (guint) ps->csv_depth < n && parse_uint (fields[ps->csv_depth], &v) &&
      v <= G_MAXINT32)
    run.depth = v;
  if (ps->csv_model >= 0 && (guint) ps->csv_model < n)
    copy_field (run.model, sizeof run.model, fields[ps->csv_model], strlen (fields[ps->csv_model]));
  if (ps->csv_backend >= 0 && (guint) ps->csv_backend < n)
    copy_field (run.backend, sizeof run.backend, fields[ps->csv_backend],
                strlen (fields[ps->csv_backend]));
  if (ps->csv_gpu >= 0 && (guint) ps->csv_gpu < n)
    copy_field (run.gpu, sizeof run.gpu, fields[ps->csv_gpu], strlen (fields[ps->csv_gpu]));
  if (ps->csv_ngl >= 0 && (guint) ps->csv_ngl < n)
    run.n_gpu_layers = (gint32) g_ascii_strtoll (fields[ps->csv_ngl], NULL, 10);
  if (ps->csv_fa >= 0 && (guint) ps->csv_fa < n)
    run.flash_attn = (gint32) g_ascii_strtoll (fields[ps->csv_fa], NULL, 10);
  if (ps->csv_build >= 0 && (guint) ps->csv_build < n)
    set_string (&ps->log->version, fields[ps->csv_build], strlen (fields[ps->csv_build]));
  add_run (ps->log, &run);
}

/* llama-bench -o json / jsonl: one "key": value per line (json) or all of
 * an object's on one line (jsonl); a run is complete at "avg_ts", which
 * follows the fields it needs in both. */
static void
bench_json (Parser     *ps,
            const char *line)
{
  const char *p = line;

  while ((p = strchr (p, '"')) != NULL)
    {
      const char *key = ++p;
      const char *key_end = strchr (key, '"');
      const char *value;
      gsize key_len;
      guint64 v;

      if (key_end == NULL)
        return;
      key_len = key_end - key;
      value = skip_spaces (key_end + 1);
      p = key_end + 1;
      if (*value != ':')
        continue;
      value = skip_spaces (value + 1);
#define KEY(name) (key_len == strlen (name) && strncmp (key, name, key_len) == 0)
      if (KEY ("build_commit"))
        {
          run_init (&ps->json_run);
          ps->bench = TRUE;
        }
      if (KEY ("build_number"))
        {
          const char *w;
          gsize len = 0;

          w = value;
          while (g_ascii_isdigit (w[len]))
            len++;
          set_string (&ps->log->version, w, len);
        }
      else if (KEY ("model_type") || KEY ("backends") || KEY ("gpu_info"))
        {
          const char *end = strchr (value, '"');
          gsize len = end != NULL ? (gsize) (end - value) : 0;
          HrEngineLogRun *r = &ps->json_run;

          if (KEY ("model_type"))
            copy_field (r->model, sizeof r->model, value, len);
          else if (KEY ("backends"))
            copy_field (r->backend, sizeof r->backend, value, len);
          else
            copy_field (r->gpu, sizeof r->gpu, value, len);
          if (end != NULL)
            p = end + 1;
        }
      else if (KEY ("n_prompt") && parse_uint (value, &v) && v <= G_MAXINT32)
        ps->json_run.n_prompt = v;
      else if (KEY ("n_gen") && parse_uint (value, &v) && v <= G_MAXINT32)
        ps->json_run.n_gen = v;
      else if (KEY ("n_depth") && parse_uint (value, &v) && v <= G_MAXINT32)
        ps->json_run.depth = v;
      else if (KEY ("n_gpu_layers"))
        ps->json_run.n_gpu_layers = (gint32) g_ascii_strtoll (value, NULL, 10);
      else if (KEY ("flash_attn"))
        ps->json_run.flash_attn = g_str_has_prefix (value, "true") ? 1 :
                                  g_str_has_prefix (value, "false") ? 0 :
                                  (gint32) g_ascii_strtoll (value, NULL, 10);
      else if (KEY ("avg_ts") && parse_double (value, &ps->json_run.tokens_per_s, NULL))
        {
          HrEngineLogRun *r = &ps->json_run;

          ps->bench = TRUE;
          if (!(r->n_prompt > 0 && r->n_gen > 0))
            {
              r->prompt = r->n_prompt > 0;
              add_run (ps->log, r);
            }
          run_init (r);
        }
#undef KEY
    }
}

/* ------------------------------------------------------------ llama.cpp */

/* "n_ctx      = 8192" but not n_ctx_per_seq, n_ctx_train, n_ctx_orig… */
static gboolean
key_equals_uint (const char *line,
                 const char *key,
                 guint64    *value)
{
  const char *p = line;
  gsize len = strlen (key);

  while ((p = strstr (p, key)) != NULL)
    {
      const char *q = p + len;

      if ((p == line || p[-1] == ' ' || p[-1] == ':') && (*q == ' ' || *q == '='))
        {
          q = skip_spaces (q);
          if (*q == '=')
            return parse_uint (q + 1, value);
        }
      p = q;
    }
  return FALSE;
}

/* A type in parentheses after "K (": "K (q8_0):" → "q8_0". */
static void
kv_type_from (HrEngineLog *log,
              const char  *line)
{
  const char *p = strstr (line, " K (");
  const char *w;
  gsize len;

  if (p != NULL && log->kv_type == NULL)
    {
      w = p + 4;
      len = strcspn (w, ")");
      if (len > 0 && len < 16 && w[len] == ')')
        set_string (&log->kv_type, w, len);
    }
  if (word_after (line, "type_k = '", &w, &len) && log->kv_type == NULL)
    set_string (&log->kv_type, w, len);
}

static void
llamacpp_line (Parser     *ps,
               const char *line)
{
  HrEngineLog *log = ps->log;
  guint64 v;
  const char *w;
  gsize len;
  const char *p;

  if (strstr (line, "llm_load_") != NULL || strstr (line, "load_tensors:") != NULL ||
      strstr (line, "llama_kv_cache") != NULL || strstr (line, "llama_new_context") != NULL ||
      strstr (line, "llama_context:") != NULL || strstr (line, "print_info:") != NULL ||
      strstr (line, "llama_init_from_model") != NULL || strstr (line, "llama_model_loader") != NULL ||
      strstr (line, "print_timings") != NULL || strstr (line, "llama_perf_context_print") != NULL)
    ps->llamacpp = TRUE;

  /* weights: "llm_load_tensors:      CUDA0 buffer size =  4155.99 MiB" (early
   * 2024), "… CPU_Mapped model buffer size = …" and "load_tensors: … model
   * buffer size" (2025) */
  if (strstr (line, "model buffer size") != NULL)
    device_buffer (log, line, "model buffer size", HR_ENGINE_LOG_WEIGHTS);
  else if (strstr (line, "llm_load_tensors:") != NULL && strstr (line, " buffer size") != NULL)
    device_buffer (log, line, "buffer size", HR_ENGINE_LOG_WEIGHTS);
  /* KV: "llama_kv_cache_init: CUDA0 KV buffer size", "llama_kv_cache_unified: …",
   * "llama_kv_cache: …" */
  else if (strstr (line, "KV buffer size") != NULL)
    device_buffer (log, line, "KV buffer size", HR_ENGINE_LOG_KV);
  /* recurrent state: "llama_memory_recurrent: CUDA0 RS buffer size" */
  else if (strstr (line, "RS buffer size") != NULL)
    device_buffer (log, line, "RS buffer size", HR_ENGINE_LOG_STATE);
  else if (strstr (line, "compute buffer size") != NULL)
    device_buffer (log, line, "compute buffer size", HR_ENGINE_LOG_COMPUTE);

  if (strstr (line, "KV self size") != NULL && size_after (line, "KV self size", &v))
    {
      log->kv_bytes = v;
      log->has_kv = TRUE;
    }
  if (strstr (line, "K (") != NULL || strstr (line, "type_k") != NULL)
    kv_type_from (log, line);

  if (strstr (line, "llama_new_context_with_model") != NULL ||
      strstr (line, "llama_init_from_model") != NULL || strstr (line, "llama_context:") != NULL)
    {
      if (key_equals_uint (line, "n_ctx", &v) && v > 0 && v <= G_MAXINT32)
        log->context = v;
      if (key_equals_uint (line, "n_seq_max", &v) && v > 0 && v <= 4096)
        log->parallel = v;
      if ((p = strstr (line, "flash_attn")) != NULL && (p = strchr (p, '=')) != NULL)
        {
          p = skip_spaces (p + 1);
          if (*p == '1' || *p == '0' || g_str_has_prefix (p, "enabled") ||
              g_str_has_prefix (p, "disabled"))
            {
              log->flash_attn_known = TRUE;
              log->flash_attn = (*p == '1' || *p == 'e');
            }
        }
    }

  if ((p = strstr (line, "general.name")) != NULL && (p = strchr (p, '=')) != NULL)
    {
      p = skip_spaces (p + 1);
      set_string (&log->model, p, strcspn (p, "\r\n"));
    }
  if ((p = strstr (line, "model ftype")) != NULL || (p = strstr (line, "file type ")) != NULL)
    if ((p = strchr (p, '=')) != NULL)
      {
        p = skip_spaces (p + 1);
        len = strcspn (p, "\r\n");
        while (len > 0 && p[len - 1] == ' ')
          len--;
        set_string (&log->precision_hint, p, len);
      }
  if ((p = strstr (line, "offloaded ")) != NULL && strstr (p, " layers to GPU") != NULL)
    {
      guint64 a, b;
      const char *slash = strchr (p, '/');

      if (slash != NULL && parse_uint (p + 10, &a) && parse_uint (slash + 1, &b) && a <= b &&
          b < 100000)
        {
          log->layers_offloaded = a;
          log->layers_total = b;
        }
    }
  /* "Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6" */
  if ((p = strstr (line, "Device 0: ")) != NULL && strstr (line, "compute capability") != NULL)
    {
      p += 10;
      set_string (&log->gpu_name, p, strcspn (p, ","));
    }
  /* "build: 4567 (abcdef12) with …", "main: build = 1234 (…)" */
  if (((p = strstr (line, "build: ")) != NULL || (p = strstr (line, "build = ")) != NULL) &&
      g_ascii_isdigit (*skip_spaces (strchr (p, ' '))))
    {
      p = skip_spaces (strchr (p, ' '));
      len = strcspn (p, ")");
      if (p[len] == ')')
        len++;
      set_string (&log->version, p, MIN (len, 40));
      ps->llamacpp = TRUE;
    }

  /* timings: "prompt eval time = 915.13 ms / 51 tokens (… 55.73 tokens per
   * second)", "eval time = … 11.94 tokens per second", 2024's server
   * "generation eval time" */
  if ((p = strstr (line, "tokens per second")) != NULL && strstr (line, "eval time") != NULL)
    {
      const char *open = NULL;
      double rate;

      for (const char *q = line; q < p; q++)
        if (*q == ',' || *q == '(')
          open = q;
      if (open != NULL && parse_double (open + 1, &rate, NULL) && rate > 0)
        {
          ps->llamacpp = TRUE;
          if (strstr (line, "prompt eval time") != NULL)
            {
              log->prefill_tokens_per_s = rate;
              if ((w = strchr (line, '/')) != NULL && parse_uint (w + 1, &v) && v <= G_MAXINT32)
                log->prefill_tokens = v;
            }
          else
            log->decode_tokens_per_s = rate;
        }
    }
}

/* -------------------------------------------------------------- Ollama */

static void
ollama_line (Parser     *ps,
             const char *line)
{
  HrEngineLog *log = ps->log;
  guint64 v;
  const char *w;
  gsize len;
  const char *p;

  if (strstr (line, "source=") == NULL || strstr (line, "msg=") == NULL)
    {
      if ((p = strstr (line, "ollama version is ")) != NULL)
        set_string (&log->version, p + 18, strcspn (p + 18, " \r\n"));
      return;
    }
  if ((p = strstr (line, "(version ")) != NULL)
    {
      ps->ollama = TRUE;
      set_string (&log->version, p + 9, strcspn (p + 9, ")"));
    }
  /* The plan, logged before the runner starts (llm/memory.go):
   * msg="offload to cuda" (≤ 0.6) or msg=offload library=cuda (0.7+) */
  if (strstr (line, "memory.required.full=") != NULL)
    {
      ps->ollama = TRUE;
      if (size_after (line, "memory.weights.total=", &v))
        log->weights_bytes = v, log->has_weights = TRUE;
      if (size_after (line, "memory.required.kv=", &v))
        log->kv_bytes = v, log->has_kv = TRUE;
      if (size_after (line, "memory.graph.full=", &v))
        log->compute_bytes = v, log->has_compute = TRUE;
      if (uint_after (line, "layers.offload=", &v) && v < 100000)
        log->layers_offloaded = v;
      if (uint_after (line, "layers.model=", &v) && v < 100000)
        log->layers_total = v;
    }
  /* msg="starting llama server" cmd="… --model PATH --ctx-size 8192 … --parallel 4" */
  if (strstr (line, "starting llama server") != NULL)
    {
      ps->ollama = TRUE;
      if (uint_after (line, "--ctx-size ", &v) && v > 0 && v <= G_MAXINT32)
        log->context = v;
      if (uint_after (line, "--parallel ", &v) && v > 0 && v <= 4096)
        log->parallel = v;
      if (word_after (line, "--model ", &w, &len))
        set_string (&log->model, w, len);
      if (strstr (line, "--flash-attn") != NULL)
        log->flash_attn_known = log->flash_attn = TRUE;
    }
  /* The new engine (0.7+): msg="model weights" buffer=CUDA0 size="11.5 GiB"
   * (later device=CUDA0), msg="kv cache" device=…, msg="compute graph"
   * backend=CUDA0 buffer_type=CUDA0 size=… (later device=…) */
  {
    static const struct { const char *msg; int what; } kinds[] = {
      { "msg=\"model weights\"", HR_ENGINE_LOG_WEIGHTS },
      { "msg=\"kv cache\"", HR_ENGINE_LOG_KV },
      { "msg=\"compute graph\"", HR_ENGINE_LOG_COMPUTE },
    };

    for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
      if (strstr (line, kinds[i].msg) != NULL)
        {
          char name[24];
          HrEngineLogDevice *d;

          ps->ollama = TRUE;
          if (!word_after (line, "device=", &w, &len) &&
              !word_after (line, "buffer_type=", &w, &len) &&
              !word_after (line, "buffer=", &w, &len))
            continue;
          if (!size_after (line, "size=", &v))
            continue;
          copy_field (name, sizeof name, w, len);
          if (g_str_has_prefix (name, "CPU"))
            g_strlcpy (name, "CPU", sizeof name);
          d = device_get (log, name);
          if (d == NULL)
            continue;
          switch (kinds[i].what)
            {
            case HR_ENGINE_LOG_WEIGHTS: d->weights_bytes += v; d->has_weights = TRUE; break;
            case HR_ENGINE_LOG_KV: d->kv_bytes += v; d->has_kv = TRUE; break;
            default: d->compute_bytes += v; d->has_compute = TRUE; break;
            }
        }
  }
  if (strstr (line, "llama runner started") != NULL || strstr (line, "ollama") != NULL)
    ps->ollama = TRUE;
}

/* ---------------------------------------------------------------- vLLM */

static void
vllm_line (Parser     *ps,
           const char *line)
{
  HrEngineLog *log = ps->log;
  guint64 v;
  double d;
  const char *w;
  gsize len;
  const char *p;

  /* "Initializing a V1 LLM engine (v0.19.0) with config: model='…', …" */
  if ((p = strstr (line, "LLM engine (v")) != NULL)
    {
      ps->vllm = TRUE;
      set_string (&log->version, p + 13, strcspn (p + 13, ")"));
      if (word_after (line, "model='", &w, &len))
        set_string (&log->model, w, len);
      if (uint_after (line, "max_seq_len=", &v) && v > 0 && v <= G_MAXINT32)
        log->context = v;
      if (uint_after (line, "tensor_parallel_size=", &v) && v > 0 && v <= 1024)
        log->tensor_parallel = v;
      if (word_after (line, "quantization=", &w, &len) && strncmp (w, "None", 4) != 0)
        set_string (&log->precision_hint, w, len);
      else if (word_after (line, "dtype=torch.", &w, &len))
        set_string (&log->precision_hint, w, len);
      if (word_after (line, "kv_cache_dtype=", &w, &len) && strncmp (w, "auto", 4) != 0)
        set_string (&log->kv_type, w, len);
    }
  /* the command line: "vllm serve MODEL --max-model-len 2048 …" */
  if ((p = strstr (line, "vllm serve ")) != NULL)
    {
      ps->vllm = TRUE;
      if (word_after (p, "vllm serve ", &w, &len) && *w != '-')
        set_string (&log->model, w, len);
      if (uint_after (line, "--max-model-len ", &v) && v > 0 && v <= G_MAXINT32)
        log->context = v;
      if (uint_after (line, "--tensor-parallel-size ", &v) && v > 0 && v <= 1024)
        log->tensor_parallel = v;
    }
  if ((p = strstr (line, "--gpu-memory-utilization ")) != NULL ||
      (p = strstr (line, "'gpu_memory_utilization': ")) != NULL ||
      (p = strstr (line, "gpu_memory_utilization=")) != NULL ||
      (p = strstr (line, "gpu_memory_utilization (")) != NULL)
    {
      p = strpbrk (p, ":=( ");
      if (p != NULL && parse_double (p + 1, &d, NULL) && d > 0 && d <= 1)
        log->gpu_memory_utilization = log->gpu_memory_utilization > 0 ?
                                      log->gpu_memory_utilization : d;
    }
  /* weights on one GPU: "Loading model weights took 14.9888 GB" (V0, V1 to
   * 0.8), "Model loading took 14.99 GiB memory and 9.8 seconds" (0.9+) */
  if ((size_after (line, "Loading model weights took", &v) ||
       size_after (line, "Model loading took", &v)) && !log->has_weights)
    {
      ps->vllm = TRUE;
      log->weights_bytes = v;
      log->has_weights = TRUE;
      log->weights_per_gpu = TRUE;
    }
  /* "# GPU blocks: 1952, # CPU blocks: 2048" (V0), "# GPU blocks: 1381" (V1 0.7) */
  if (uint_after (line, "GPU blocks:", &v) && log->vllm_blocks == 0)
    {
      ps->vllm = TRUE;
      log->vllm_blocks = v;
      if (log->kv_capacity_tokens == 0)
        log->kv_capacity_tokens = v * VLLM_V0_BLOCK_TOKENS;
    }
  if (uint_after (line, "GPU KV cache size:", &v))
    {
      ps->vllm = TRUE;
      log->kv_capacity_tokens = v;
    }
  /* "Maximum concurrency for 16,384 tokens per request: 29.05x" */
  if ((p = strstr (line, "Maximum concurrency for ")) != NULL)
    {
      ps->vllm = TRUE;
      if (log->context == 0 && parse_uint (p + 24, &v) && v > 0 && v <= G_MAXINT32)
        log->context = v;
      if ((p = strstr (p, "request:")) != NULL && parse_double (p + 8, &d, NULL))
        log->max_concurrency = d;
    }
  if ((size_after (line, "Available KV cache memory:", &v) ||
       size_after (line, "kv_cache_size=", &v) ||
       size_after (line, "the rest of the memory reserved for KV Cache is", &v)) &&
      !log->has_kv)
    {
      log->kv_bytes = v;
      log->has_kv = TRUE;
    }
  /* activations: "torch peak memory increase: 1.89GiB" (V1), "PyTorch
   * activation peak memory takes 0.37GiB" (0.8) */
  if ((size_after (line, "torch peak memory increase:", &v) ||
       size_after (line, "activation peak memory takes", &v)) && !log->has_compute)
    {
      log->compute_bytes = v;
      log->has_compute = TRUE;
    }
  /* CUDA graphs: "Estimated CUDA graph memory: 0.84 GiB total",
   * "Graph capturing finished in 5 secs, took 0.47 GiB" */
  if ((size_after (line, "Estimated CUDA graph memory:", &v) ||
       (strstr (line, "Graph capturing finished") != NULL && size_after (line, "took", &v))) &&
      !log->has_graph)
    {
      log->graph_bytes = v;
      log->has_graph = TRUE;
    }
  /* the sequences a step holds: "Defaulting max_num_seqs to 1024 for …",
   * "'max_num_seqs': 256" in the arguments */
  if ((uint_after (line, "Defaulting max_num_seqs to", &v) ||
       uint_after (line, "'max_num_seqs':", &v) || uint_after (line, "max_num_seqs=", &v)) &&
      v > 0 && v <= 65536 && log->parallel == 0)
    log->parallel = v;
  /* "Chunked prefill is enabled with max_num_batched_tokens=8192." */
  if (uint_after (line, "max_num_batched_tokens=", &v) && v > 0 && v <= G_MAXINT32 &&
      log->max_num_batched_tokens == 0)
    log->max_num_batched_tokens = v;
  if (strstr (line, "Chunked prefill is enabled") != NULL ||
      strstr (line, "chunked_prefill_enabled=True") != NULL ||
      strstr (line, "enable_chunked_prefill=True") != NULL)
    log->chunked_prefill = TRUE;
  if (strstr (line, "Memory profiling results:") != NULL || strstr (line, "# CPU blocks:") != NULL)
    log->vllm_v0_lines = TRUE;
  if (strstr (line, "vllm") != NULL || strstr (line, "vLLM") != NULL)
    ps->vllm = ps->vllm || strstr (line, "INFO") != NULL;
}

/* -------------------------------------------------------------- SGLang */

static void
sglang_line (Parser     *ps,
             const char *line)
{
  HrEngineLog *log = ps->log;
  guint64 v;
  const char *w;
  gsize len;

  /* "Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail
   * mem=62.43 GB, mem usage=15.06 GB." */
  if (strstr (line, "Load weight end") != NULL)
    {
      ps->sglang = TRUE;
      if (size_after (line, "mem usage=", &v) && !log->has_weights)
        {
          log->weights_bytes = v;
          log->has_weights = TRUE;
          log->weights_per_gpu = TRUE;
        }
      if (word_after (line, "dtype=torch.", &w, &len))
        set_string (&log->precision_hint, w, len);
    }
  /* "KV Cache is allocated. #tokens: 367404, K size: 8.23 GB, V size: 8.23 GB" */
  if (strstr (line, "KV Cache is allocated") != NULL)
    {
      guint64 k = 0, vv = 0;

      ps->sglang = TRUE;
      if (uint_after (line, "#tokens:", &v))
        log->kv_capacity_tokens = v;
      if (size_after (line, "K size:", &k) && size_after (line, "V size:", &vv) && !log->has_kv)
        {
          log->kv_bytes = k + vv;
          log->has_kv = TRUE;
        }
    }
  if (uint_after (line, "max_total_num_tokens=", &v) && v > 0)
    {
      ps->sglang = TRUE;
      if (log->kv_capacity_tokens == 0)
        log->kv_capacity_tokens = v;
      if (uint_after (line, "context_len=", &v) && v > 0 && v <= G_MAXINT32)
        log->context = v;
    }
  if (strstr (line, "Capture cuda graph end") != NULL && size_after (line, "mem usage=", &v))
    {
      ps->sglang = TRUE;
      log->graph_bytes = v;
      log->has_graph = TRUE;
    }
  /* server_args=ServerArgs(model_path='…', …, tp_size=4, …) */
  if (strstr (line, "server_args=") != NULL || strstr (line, "ServerArgs(") != NULL)
    {
      ps->sglang = TRUE;
      if (word_after (line, "model_path='", &w, &len))
        set_string (&log->model, w, len);
      if (uint_after (line, "tp_size=", &v) && v > 0 && v <= 1024)
        log->tensor_parallel = v;
      if (uint_after (line, "context_length=", &v) && v > 0 && v <= G_MAXINT32)
        log->context = v;
      if (word_after (line, "kv_cache_dtype='", &w, &len) && strncmp (w, "auto", 4) != 0)
        set_string (&log->kv_type, w, len);
    }
}

/* -------------------------------------------------------------- a line */

static void
parse_line (Parser *ps,
            char   *line)
{
  const char *first = skip_spaces (line);

  /* llama-bench: markdown rows, CSV, JSON */
  if (*first == '|')
    {
      g_autofree char *copy = g_strdup (line);

      bench_markdown (ps, copy);
      return;
    }
  if (ps->csv_header || strstr (line, "avg_ts") != NULL)
    {
      g_autofree char *copy = g_strdup (line);

      bench_csv (ps, copy);
      if (ps->csv_header)
        return;
    }
  if (strchr (line, '"') != NULL && (ps->bench || strstr (line, "\"build_commit\"") != NULL ||
                                     strstr (line, "\"avg_ts\"") != NULL))
    bench_json (ps, line);

  llamacpp_line (ps, line);
  ollama_line (ps, line);
  vllm_line (ps, line);
  sglang_line (ps, line);
}

static HrEngineLogKind
decide_kind (const Parser *ps)
{
  const HrEngineLog *log = ps->log;

  if (ps->vllm && (log->has_weights || log->kv_capacity_tokens > 0 || log->version != NULL))
    return HR_ENGINE_LOG_VLLM;
  if (ps->sglang)
    return HR_ENGINE_LOG_SGLANG;
  if (ps->ollama)
    return HR_ENGINE_LOG_OLLAMA;
  if (ps->bench && log->n_runs > 0)
    return HR_ENGINE_LOG_LLAMA_BENCH;
  if (ps->llamacpp)
    return HR_ENGINE_LOG_LLAMACPP;
  return HR_ENGINE_LOG_UNKNOWN;
}

static gboolean
anything_measured (const HrEngineLog *log)
{
  for (guint i = 0; i < log->n_devices; i++)
    if (log->devices[i].has_weights || log->devices[i].has_kv || log->devices[i].has_compute)
      return TRUE;
  return log->has_weights || log->has_kv || log->kv_capacity_tokens > 0 || log->n_runs > 0 ||
         log->decode_tokens_per_s > 0 || log->prefill_tokens_per_s > 0;
}

/* ------------------------------------------------------------ public */

/**
 * hr_engine_log_parse:
 * @data: the log's bytes (any bytes)
 * @length: their count; only the first HR_ENGINE_LOG_MAX_BYTES are read
 *
 * Returns: (transfer full): what the log says, or %NULL with @error set
 *   to one line when the text is not a log Headroom reads
 */
HrEngineLog *
hr_engine_log_parse (const char  *data,
                     gsize        length,
                     GError     **error)
{
  g_autoptr(HrEngineLog) log = g_new0 (HrEngineLog, 1);
  g_autofree char *line = g_malloc (HR_ENGINE_LOG_MAX_LINE + 1);
  Parser ps = { .log = log };
  gsize pos = 0;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  run_init (&ps.json_run);
  if (length > HR_ENGINE_LOG_MAX_BYTES)
    {
      length = HR_ENGINE_LOG_MAX_BYTES;
      log->truncated = TRUE;
    }
  if (memchr (data, '\0', MIN (length, BINARY_PROBE_BYTES)) != NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "binary data, not an engine log or llama-bench output");
      return NULL;
    }

  while (pos < length)
    {
      const char *start = data + pos;
      const char *nl = memchr (start, '\n', length - pos);
      gsize n = (nl != NULL ? (gsize) (nl - start) : length - pos);
      gsize keep = MIN (n, HR_ENGINE_LOG_MAX_LINE);

      memcpy (line, start, keep);
      line[keep] = '\0';
      /* a NUL or CR inside a line is a space to the patterns */
      for (gsize i = 0; i < keep; i++)
        if (line[i] == '\0' || line[i] == '\r')
          line[i] = ' ';
      parse_line (&ps, line);
      log->lines++;
      pos += n + 1;
      if (pos > GIVE_UP_BYTES && decide_kind (&ps) == HR_ENGINE_LOG_UNKNOWN)
        break;
    }

  log->kind = decide_kind (&ps);
  if (log->kind == HR_ENGINE_LOG_UNKNOWN || !anything_measured (log))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   log->kind == HR_ENGINE_LOG_UNKNOWN ?
                   "not a llama.cpp, Ollama, vLLM or SGLang log, nor llama-bench output" :
                   "a %s log, but without a figure Headroom can compare (buffer sizes, "
                   "KV cache, timings)", hr_engine_log_kind_to_string (log->kind));
      return NULL;
    }
  return g_steal_pointer (&log);
}

/**
 * hr_engine_log_parse_file:
 *
 * Reads the first HR_ENGINE_LOG_MAX_BYTES of a regular file and parses
 * them.  Errors start with the file's name.
 */
HrEngineLog *
hr_engine_log_parse_file (const char  *path,
                          GError     **error)
{
  g_autofree guint8 *buffer = NULL;
  g_autofree char *display = NULL;
  g_autoptr(GError) local = NULL;
  guint64 size = 0;
  gsize n_read = 0;
  gsize want;
  int fd;
  HrEngineLog *log;

  g_return_val_if_fail (path != NULL, NULL);

  fd = hr_file_open_regular (path, 0, &size, error);
  if (fd < 0)
    return NULL;
  want = (gsize) MIN (size, (guint64) HR_ENGINE_LOG_MAX_BYTES + 1);
  buffer = g_malloc (want + 1);
  if (!hr_file_read_fd (fd, buffer, want, &n_read, path, error))
    {
      close (fd);
      return NULL;
    }
  close (fd);
  log = hr_engine_log_parse ((const char *) buffer, n_read, &local);
  if (log == NULL)
    {
      display = hr_text_display_path (path);
      g_set_error (error, local->domain, local->code, "%s: %s", display, local->message);
    }
  return log;
}

void
hr_engine_log_free (HrEngineLog *log)
{
  if (log == NULL)
    return;
  g_free (log->version);
  g_free (log->model);
  g_free (log->precision_hint);
  g_free (log->kv_type);
  g_free (log->gpu_name);
  g_free (log);
}

const char *
hr_engine_log_kind_to_string (HrEngineLogKind kind)
{
  static const char * const names[] = {
    [HR_ENGINE_LOG_UNKNOWN] = "unknown",
    [HR_ENGINE_LOG_LLAMACPP] = "llama.cpp",
    [HR_ENGINE_LOG_LLAMA_BENCH] = "llama-bench",
    [HR_ENGINE_LOG_OLLAMA] = "Ollama",
    [HR_ENGINE_LOG_VLLM] = "vLLM",
    [HR_ENGINE_LOG_SGLANG] = "SGLang",
  };

  return kind < G_N_ELEMENTS (names) ? names[kind] : "unknown";
}

/* The engine id of docs/CLI.md ("llamacpp", "ollama", "vllm", "sglang"). */
const char *
hr_engine_log_engine_id (const HrEngineLog *log)
{
  switch (log->kind)
    {
    case HR_ENGINE_LOG_LLAMACPP:
    case HR_ENGINE_LOG_LLAMA_BENCH:
      return "llamacpp";
    case HR_ENGINE_LOG_OLLAMA:
      return "ollama";
    case HR_ENGINE_LOG_VLLM:
      return "vllm";
    case HR_ENGINE_LOG_SGLANG:
      return "sglang";
    case HR_ENGINE_LOG_UNKNOWN:
    default:
      return NULL;
    }
}

/* GPUs with a buffer in the log (the host is not one). */
guint
hr_engine_log_gpu_count (const HrEngineLog *log)
{
  guint n = 0;

  for (guint i = 0; i < log->n_devices; i++)
    if (!is_host (log->devices[i].name))
      n++;
  return n;
}

/* The sum over GPUs of one figure (or, for HR_ENGINE_LOG_HOST_WEIGHTS,
 * the weights in host memory). */
guint64
hr_engine_log_gpu_total (const HrEngineLog *log,
                         int                what)
{
  guint64 total = 0;

  for (guint i = 0; i < log->n_devices; i++)
    {
      const HrEngineLogDevice *d = &log->devices[i];
      gboolean host = is_host (d->name);

      switch (what)
        {
        case HR_ENGINE_LOG_WEIGHTS: total += host ? 0 : d->weights_bytes; break;
        case HR_ENGINE_LOG_KV: total += host ? 0 : d->kv_bytes; break;
        case HR_ENGINE_LOG_STATE: total += host ? 0 : d->state_bytes; break;
        case HR_ENGINE_LOG_COMPUTE: total += host ? 0 : d->compute_bytes; break;
        case HR_ENGINE_LOG_HOST_WEIGHTS: total += host ? d->weights_bytes : 0; break;
        default: break;
        }
    }
  return total;
}
