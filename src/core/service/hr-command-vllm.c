/* hr-command-vllm.c — the `vllm serve` command for an estimate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * vLLM 0.21 and later (options as vllm/engine/arg_utils.py defines them,
 * read at 002f10e0): --tensor-parallel-size, --max-model-len,
 * --max-num-seqs, --gpu-memory-utilization (written out: the default
 * changed from 0.90 to 0.92 in 0.21), --max-num-batched-tokens,
 * --dtype (auto keeps the checkpoint's 16-bit type; float16 is refused
 * for Gemma 2/3 and GLM-4), --quantization fp8 (dynamic FP8 of a 16-bit
 * checkpoint), --kv-cache-dtype fp8, --port.  Prefix caching is on by
 * default in the V1 engine.  A length past the model's own needs
 * VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.
 *
 * Layouts: --pipeline-parallel-size and --data-parallel-size on one
 * machine (--max-num-seqs counts per replica).  Over several machines,
 * the Ray cluster of docs/serving/parallelism_scaling.md and
 * examples/online_serving/run_cluster.sh: `ray start --head --port 6379`
 * on the first, `ray start --address HEAD:6379` on each other, then on
 * the first `vllm serve … --distributed-executor-backend ray`; replicas
 * through --data-parallel-backend ray (docs/serving/
 * data_parallel_deployment.md), VLLM_RAY_DP_PACK_STRATEGY=span when one
 * replica spans machines.
 */

#define G_LOG_DOMAIN "hr-command-vllm"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "hr-commands-private.h"
#include "hr-format.h"

typedef struct
{
  const HrScenario *scenario;
  const HrEstimate *e;
  const char *model;
  gboolean dynamic_fp8;
  gboolean long_context;
} Server;

static void
serve_line (HrCommand    *command,
            const Server *server,
            guint         n_nodes)
{
  const HrScenario *s = server->scenario;
  const HrLayout *layout = &server->e->layout;
  const char *precision = hr_precision_get_id (s->precision);
  guint per_node = layout->tp * layout->pp * layout->dp / n_nodes;
  gboolean replica_spans = n_nodes > 1 && (layout->tp * layout->pp > per_node ||
                                            per_node % (layout->tp * layout->pp) != 0);
  char utilization[G_ASCII_DTOSTR_BUF_SIZE];
  HrCommandLine *run = hr_command_run_line (command, "vllm");

  if (server->long_context)
    hr_command_env (run, "VLLM_ALLOW_LONG_MAX_MODEL_LEN", "1");
  if (layout->dp > 1 && replica_spans)
    hr_command_env (run, "VLLM_RAY_DP_PACK_STRATEGY", "span");
  hr_command_word (run, "serve");
  hr_command_word (run, server->model);
  hr_command_arg_uint (run, "--tensor-parallel-size", layout->tp);
  if (layout->pp > 1)
    hr_command_arg_uint (run, "--pipeline-parallel-size", layout->pp);
  if (layout->dp > 1)
    {
      hr_command_arg_uint (run, "--data-parallel-size", layout->dp);
      if (n_nodes > 1)
        {
          /* the replicas on this machine; the rest Ray places */
          if (!replica_spans)
            hr_command_arg_uint (run, "--data-parallel-size-local",
                                 per_node / (layout->tp * layout->pp));
          hr_command_arg (run, "--data-parallel-backend", "ray");
        }
    }
  if (n_nodes > 1)
    hr_command_arg (run, "--distributed-executor-backend", "ray");
  hr_command_arg_uint (run, "--max-model-len", s->context);
  hr_command_arg_uint (run, "--max-num-seqs", MAX (server->e->max_num_seqs, 1));
  hr_command_arg (run, "--gpu-memory-utilization",
                  g_ascii_formatd (utilization, sizeof utilization, "%.2f",
                                   server->e->gpu_memory_utilization));
  if (s->options.max_num_batched_tokens > 0)
    hr_command_arg_uint (run, "--max-num-batched-tokens", s->options.max_num_batched_tokens);
  if (g_strcmp0 (precision, "fp32") == 0)
    hr_command_arg (run, "--dtype", "float32");
  if (server->dynamic_fp8)
    hr_command_arg (run, "--quantization", "fp8");
  if (g_strcmp0 (hr_kv_type_get_id (s->kv_type), "fp8") == 0)
    hr_command_arg (run, "--kv-cache-dtype", "fp8");
  hr_command_arg_uint (run, "--port", HR_VLLM_DEFAULT_PORT);
}

/* The Ray cluster, one section per machine, then the server on the
 * first machine. */
static void
cluster (HrCommand    *command,
         const Server *server,
         guint         n_nodes)
{
  const HrLayout *layout = &server->e->layout;
  const char *head = hr_command_head_address (command);
  g_autofree char *address = g_strdup_printf ("%s:%u", head, HR_RAY_HEAD_PORT);
  g_autofree char *title = NULL;
  HrCommandLine *run;

  command->n_nodes = n_nodes;
  /* TRANSLATORS: a note above a command for several machines */
  hr_command_note (command, _("Every machine needs the same vLLM version, Ray (pip install "
                              "ray) and the model's files. If a machine has several network "
                              "addresses, start its commands with VLLM_HOST_IP set to the one "
                              "the others reach; if start-up hangs, set NCCL_SOCKET_IFNAME and "
                              "GLOO_SOCKET_IFNAME to the interface they share."));
  if (layout->tp > layout->tp * layout->pp * layout->dp / n_nodes)
    /* TRANSLATORS: a note above a command for several machines */
    hr_command_note (command, _("Tensor parallelism across machines exchanges data at every "
                                "layer: it needs InfiniBand or RoCE. vLLM advises tensor "
                                "parallel inside a machine and pipeline stages across."));

  /* TRANSLATORS: a heading above the command for one machine */
  title = g_strdup_printf (_("Machine 1 of %u (the head): start Ray"), n_nodes);
  hr_command_machine (command, HR_MACHINE_HEAD, 0, n_nodes, title);
  run = hr_command_run_line (command, "ray");
  hr_command_word (run, "start");
  hr_command_word (run, "--head");
  hr_command_word (run, "--port");
  hr_command_word (run, G_STRINGIFY (HR_RAY_HEAD_PORT));

  for (guint node = 1; node < n_nodes; node++)
    {
      g_clear_pointer (&title, g_free);
      /* TRANSLATORS: a heading above the command for one machine */
      title = g_strdup_printf (_("Machine %u of %u: join the head"), node + 1, n_nodes);
      hr_command_machine (command, HR_MACHINE_WORKER, node, n_nodes, title);
      run = hr_command_run_line (command, "ray");
      hr_command_word (run, "start");
      hr_command_word (run, "--address");
      hr_command_word (run, address);
    }

  g_clear_pointer (&title, g_free);
  /* TRANSLATORS: a heading above the command for one machine */
  title = g_strdup_printf (_("Machine 1 of %u, once every machine has joined"), n_nodes);
  hr_command_machine (command, HR_MACHINE_HEAD_LAST, 0, n_nodes, title);
  /* TRANSLATORS: %u is a number of machines */
  hr_command_note (command, _("“ray status” lists %u nodes when all have joined; then start "
                              "the server:"), n_nodes);
  serve_line (command, server, n_nodes);
}

gboolean
hr_command_build_vllm (HrCommand         *command,
                       const HrScenario  *scenario,
                       const HrEstimate  *e,
                       GError           **error)
{
  guint64 trained = hr_model_spec_get_arch (scenario->model)->max_context;
  guint n_nodes = MAX (e->layout.nodes, 1);
  g_autofree char *model = NULL;
  Server server = { scenario, e, NULL, FALSE, scenario->context > trained };

  /* TRANSLATORS: a note above a vllm command; %s is a version, "0.21" */
  hr_command_note (command, _("vLLM %s or later"), HR_COMMAND_VLLM_MIN_VERSION);
  model = hr_command_checkpoint (command, scenario, "vLLM", &server.dynamic_fp8, error);
  if (model == NULL)
    return FALSE;
  server.model = model;

  if (server.long_context)
    {
      g_autofree char *text = hr_format_tokens (trained);

      /* TRANSLATORS: %s is the model's trained context, "32,768" */
      hr_command_note (command, _("The context is longer than the %s tokens the model was "
                                  "trained for: vLLM allows it only when told to, and "
                                  "answers may degrade past it"), text);
    }
  if (n_nodes > 1)
    cluster (command, &server, n_nodes);
  else
    serve_line (command, &server, 1);
  return TRUE;
}
