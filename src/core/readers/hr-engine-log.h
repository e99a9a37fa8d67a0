/* hr-engine-log.h — what an inference engine's log says it ran and measured
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads, line by line, a llama.cpp / llama-server log (early 2024 to
 * current builds), an Ollama server log (0.3 to current, both engines),
 * a vLLM start-up log (0.6 to current, V0 and V1 engines), an SGLang
 * start-up log, or llama-bench output (markdown, CSV, JSON, JSONL), and
 * keeps what it ran (model, context, devices, cache type, build) and what
 * it measured (weights, KV cache, recurrent state and compute buffers per
 * device, KV capacity, prompt and decode speed).
 *
 * Pure and bounded: the text is a byte buffer (not necessarily UTF-8 or
 * NUL-free), at most HR_ENGINE_LOG_MAX_BYTES are read, a line is cut at
 * HR_ENGINE_LOG_MAX_LINE bytes, and what is kept has fixed limits (devices,
 * runs); anything past them is ignored, never a crash.
 * tests/data/logs/SOURCES.md lists the published logs the tests read.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What is read of a log: the start-up lines come first, and 64 MiB holds
 * hours of a busy server's requests after them. */
#define HR_ENGINE_LOG_MAX_BYTES   (64u << 20)
/* A longer line (vLLM's config dump is ~6 KiB) is cut. */
#define HR_ENGINE_LOG_MAX_LINE    (64u << 10)
#define HR_ENGINE_LOG_MAX_DEVICES 16
#define HR_ENGINE_LOG_MAX_RUNS    256

typedef enum
{
  HR_ENGINE_LOG_UNKNOWN,
  HR_ENGINE_LOG_LLAMACPP,       /* llama-cli, llama-server, llama.cpp in a binding */
  HR_ENGINE_LOG_LLAMA_BENCH,    /* llama-bench: markdown, CSV, JSON */
  HR_ENGINE_LOG_OLLAMA,
  HR_ENGINE_LOG_VLLM,
  HR_ENGINE_LOG_SGLANG,
} HrEngineLogKind;

/* One device's buffers, bytes; has_* say which lines were seen. */
typedef struct
{
  char name[24];                /* "CUDA0", "ROCm1", "Metal", "CPU" (host) */
  guint64 weights_bytes;
  guint64 kv_bytes;
  guint64 state_bytes;          /* recurrent state (llama.cpp "RS buffer") */
  guint64 compute_bytes;
  gboolean has_weights, has_kv, has_state, has_compute;
} HrEngineLogDevice;

/* One llama-bench row, or one timing line. */
typedef struct
{
  gboolean prompt;              /* pp (prompt) or tg (decode) */
  guint32 n_prompt;
  guint32 n_gen;
  guint32 depth;                /* tokens in the cache before (llama-bench -d) */
  double tokens_per_s;
  char backend[16];             /* "CUDA", "Metal", "ROCm", "Vulkan", "CPU", … */
  char model[96];               /* llama-bench's model type, "qwen2 7B Q4_K - Medium" */
  char gpu[64];                 /* llama-bench's gpu_info when it prints one */
  gint32 n_gpu_layers;          /* -1 or 99: all; G_MININT32 unknown */
  gint32 flash_attn;            /* 1, 0, -1 auto; G_MININT32 unknown */
} HrEngineLogRun;

typedef struct
{
  HrEngineLogKind kind;
  char *version;                /* engine version or llama.cpp build, or NULL */
  char *model;                  /* the model as the log names it, or NULL */
  char *precision_hint;         /* "Q4_K - Medium", "bfloat16", "awq", "fp8" */
  char *kv_type;                /* llama.cpp type_k ("f16", "q8_0"); vLLM's
                                 * kv_cache_dtype when not "auto" */
  char *gpu_name;               /* first GPU named in the log */
  guint64 context;              /* tokens, 0 unknown */
  guint32 parallel;             /* sequences (Ollama --parallel, llama.cpp n_seq_max) */
  guint32 tensor_parallel;      /* vLLM / SGLang TP size, 0 unknown */
  double gpu_memory_utilization;/* vLLM, 0 unknown */
  guint32 layers_offloaded, layers_total; /* llama.cpp / Ollama, 0 unknown */
  gboolean flash_attn_known, flash_attn;

  guint n_devices;
  HrEngineLogDevice devices[HR_ENGINE_LOG_MAX_DEVICES];

  /* Totals the log states directly (Ollama's plan, vLLM, SGLang, a
   * llama.cpp "KV self size"), bytes; has_* say which were seen. */
  guint64 weights_bytes, kv_bytes, state_bytes, compute_bytes, graph_bytes;
  gboolean has_weights, has_kv, has_state, has_compute, has_graph;
  gboolean weights_per_gpu;     /* vLLM / SGLang: one GPU's share */
  guint64 kv_capacity_tokens;   /* vLLM / SGLang; 0 unknown */
  double max_concurrency;       /* vLLM; 0 unknown */
  guint64 vllm_blocks;          /* vLLM "# GPU blocks" */
  guint64 max_num_batched_tokens; /* vLLM, when it says; 0 unknown */
  gboolean chunked_prefill;     /* vLLM says chunked prefill is on */
  gboolean vllm_v0_lines;       /* vLLM lines only V0 (0.6 to 0.8) prints:
                                 * "Memory profiling results", "# CPU blocks" */

  double prefill_tokens_per_s;  /* the last timing line; 0 none */
  double decode_tokens_per_s;
  guint32 prefill_tokens;       /* the prompt that was timed */

  guint n_runs;
  HrEngineLogRun runs[HR_ENGINE_LOG_MAX_RUNS];
  guint64 lines;                /* lines read */
  gboolean truncated;           /* the text was longer than MAX_BYTES */
} HrEngineLog;

HrEngineLog *hr_engine_log_parse       (const char         *data,
                                        gsize               length,
                                        GError            **error);
HrEngineLog *hr_engine_log_parse_file  (const char         *path,
                                        GError            **error);
void         hr_engine_log_free        (HrEngineLog        *log);
const char  *hr_engine_log_kind_to_string (HrEngineLogKind  kind);
const char  *hr_engine_log_engine_id   (const HrEngineLog  *log);
guint64      hr_engine_log_gpu_total   (const HrEngineLog  *log,
                                        int                 what);
guint        hr_engine_log_gpu_count   (const HrEngineLog  *log);

/* hr_engine_log_gpu_total's @what */
enum
{
  HR_ENGINE_LOG_WEIGHTS,
  HR_ENGINE_LOG_KV,
  HR_ENGINE_LOG_STATE,
  HR_ENGINE_LOG_COMPUTE,
  HR_ENGINE_LOG_HOST_WEIGHTS,
};

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrEngineLog, hr_engine_log_free)

G_END_DECLS
