/* hr-command-sglang.c — the SGLang server command for an estimate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SGLang 0.5 and later (options as docs/advanced_features/
 * server_arguments.md lists them, read at 004813e1; the table is
 * tests/data/engine-options/sglang.json): python3 -m sglang.launch_server
 * --model-path, --tp-size, --pp-size, --dp-size, --context-length,
 * --mem-fraction-static (written out: the estimate's share, which SGLang
 * would otherwise derive from the GPU), --chunked-prefill-size, --dtype
 * float32, --quantization fp8 (online FP8 of a 16-bit checkpoint),
 * --kv-cache-dtype fp8_e4m3, --served-model-name (for a local
 * checkpoint directory: the default is its path, refused when it holds a
 * colon), --port; over several machines --nnodes,
 * --node-rank and --dist-init-addr HOST:PORT on every machine.  A context
 * past the model's own needs SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1.
 * The radix (prefix) cache is on by default.
 */

#define G_LOG_DOMAIN "hr-command-sglang"

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

/* The launch line: on one machine, or on machine @node of @n_nodes. */
static void
server_line (HrCommand    *command,
             const Server *server,
             guint         node,
             guint         n_nodes,
             const char   *head)
{
  const HrScenario *s = server->scenario;
  const HrLayout *layout = &server->e->layout;
  char fraction[G_ASCII_DTOSTR_BUF_SIZE];
  HrCommandLine *run = hr_command_run_line (command, "python3");

  if (server->long_context)
    hr_command_env (run, "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN", "1");
  hr_command_word (run, "-m");
  hr_command_word (run, "sglang.launch_server");
  hr_command_arg (run, "--model-path", server->model);
  /* A local checkpoint: SGLang serves it under its path, and refuses a
   * served name with a colon; the API name is the directory's, made of
   * safe characters. */
  if (g_path_is_absolute (server->model))
    {
      g_autofree char *base = g_path_get_basename (server->model);
      g_autofree char *name = hr_command_safe_name (base, FALSE);

      hr_command_arg (run, "--served-model-name", name);
    }
  hr_command_arg_uint (run, "--tp-size", layout->tp);
  if (layout->pp > 1)
    hr_command_arg_uint (run, "--pp-size", layout->pp);
  if (layout->dp > 1)
    hr_command_arg_uint (run, "--dp-size", layout->dp);
  if (n_nodes > 1)
    {
      g_autofree char *addr = g_strdup_printf ("%s:%u", head, HR_SGLANG_DIST_INIT_PORT);

      hr_command_arg_uint (run, "--nnodes", n_nodes);
      hr_command_arg_uint (run, "--node-rank", node);
      hr_command_arg (run, "--dist-init-addr", addr);
    }
  hr_command_arg_uint (run, "--context-length", s->context);
  hr_command_arg (run, "--mem-fraction-static",
                  g_ascii_formatd (fraction, sizeof fraction, "%.3f",
                                   server->e->gpu_memory_utilization));
  if (s->options.max_num_batched_tokens > 0)
    hr_command_arg_uint (run, "--chunked-prefill-size", s->options.max_num_batched_tokens);
  if (g_strcmp0 (hr_precision_get_id (s->precision), "fp32") == 0)
    hr_command_arg (run, "--dtype", "float32");
  if (server->dynamic_fp8)
    hr_command_arg (run, "--quantization", "fp8");
  if (g_strcmp0 (hr_kv_type_get_id (s->kv_type), "fp8") == 0)
    hr_command_arg (run, "--kv-cache-dtype", "fp8_e4m3");
  hr_command_arg_uint (run, "--port", HR_SGLANG_DEFAULT_PORT);
}

gboolean
hr_command_build_sglang (HrCommand         *command,
                         const HrScenario  *scenario,
                         const HrEstimate  *e,
                         GError           **error)
{
  guint64 trained = hr_model_spec_get_arch (scenario->model)->max_context;
  guint n_nodes = MAX (e->layout.nodes, 1);
  g_autofree char *model = NULL;
  Server server = { scenario, e, NULL, FALSE, scenario->context > trained };
  const char *head;

  if (n_nodes > 1 && e->layout.dp > 1)
    {
      g_set_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN,
                   "SGLang spreads one replica over several machines (--nnodes); "
                   "%u data-parallel replicas across machines are separate servers behind "
                   "a router", e->layout.dp);
      return FALSE;
    }

  /* TRANSLATORS: a note above an SGLang command; %s is a version, "0.5" */
  hr_command_note (command, _("SGLang %s or later"), HR_COMMAND_SGLANG_MIN_VERSION);
  model = hr_command_checkpoint (command, scenario, "SGLang", &server.dynamic_fp8, error);
  if (model == NULL)
    return FALSE;
  server.model = model;

  if (server.long_context)
    {
      g_autofree char *text = hr_format_tokens (trained);

      /* TRANSLATORS: %s is the model's trained context, "32,768" */
      hr_command_note (command, _("The context is longer than the %s tokens the model was "
                                  "trained for: SGLang allows it only when told to, and "
                                  "answers may degrade past it"), text);
    }

  if (n_nodes == 1)
    {
      server_line (command, &server, 0, 1, NULL);
      return TRUE;
    }

  command->n_nodes = n_nodes;
  head = hr_command_head_address (command);
  /* TRANSLATORS: a note above a command for several machines */
  hr_command_note (command, _("Run one command on each machine, the same SGLang version and "
                              "model files on all; the server answers on the first. If "
                              "start-up hangs, set NCCL_SOCKET_IFNAME and GLOO_SOCKET_IFNAME "
                              "to the network interface the machines share."));
  for (guint node = 0; node < n_nodes; node++)
    {
      g_autofree char *title = NULL;

      if (node == 0)
        /* TRANSLATORS: a heading above the command for one machine */
        title = g_strdup_printf (_("Machine 1 of %u (the head, node rank 0)"), n_nodes);
      else
        /* TRANSLATORS: a heading above the command for one machine */
        title = g_strdup_printf (_("Machine %u of %u (node rank %u)"), node + 1, n_nodes,
                                 node);
      hr_command_machine (command, node == 0 ? HR_MACHINE_HEAD : HR_MACHINE_WORKER, node,
                          n_nodes, title);
      server_line (command, &server, node, n_nodes, head);
    }
  return TRUE;
}
