/* hr-cli-recommend.c — headroom-cli recommend: what runs here, best first
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom-cli"

#include "config.h"

#include "hr-cli-common.h"
#include "hr-recommend.h"
#include "hr-units.h"

/* --limit's default: a screenful. */
#define LIMIT_DEFAULT 20
/* --limit's largest: more than every candidate the catalog can give. */
#define LIMIT_MAX 100000
/* --min-tokens-per-s: the same bounds as --target-tokens-per-s. */
#define MIN_TOKENS_PER_S_MIN 0.01
#define MIN_TOKENS_PER_S_MAX 1e6

static void
print_json (HrCliOptions           *o,
            const HrRecommendQuery *query,
            GArray                 *candidates,
            guint                   limit)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  hr_cli_add_string (b, "hardware", hr_hardware_get_id (query->hardware));
  hr_cli_add_string (b, "task", hr_task_to_string (query->task));
  hr_cli_add_uint (b, "context", hr_recommend_context (query));
  hr_cli_add_uint_or_null (b, "ram_bytes", query->ram.bytes > 0, query->ram.bytes);
  hr_cli_add_string (b, "basis", HR_RECOMMEND_BASIS);
  hr_cli_add_uint (b, "total_candidates", candidates->len);
  json_builder_set_member_name (b, "candidates");
  json_builder_begin_array (b);
  for (guint i = 0; i < MIN (limit, candidates->len); i++)
    {
      const HrCandidate *c = &g_array_index (candidates, HrCandidate, i);
      g_autofree char *command = hr_recommend_command (o->catalog, query, c);

      json_builder_begin_object (b);
      hr_cli_add_string (b, "model", hr_model_spec_get_id (c->model));
      hr_cli_add_string (b, "precision", hr_precision_get_id (c->precision));
      hr_cli_add_string (b, "engine", hr_engine_to_string (c->engine));
      hr_cli_add_uint (b, "context", c->context);
      hr_cli_add_string (b, "verdict", hr_verdict_to_string (c->verdict));
      hr_cli_add_string (b, "placement", hr_cli_placement_name (c->placement));
      hr_cli_add_uint (b, "total_bytes", c->total_bytes);
      hr_cli_add_uint (b, "host_bytes", c->host_bytes);
      hr_cli_add_double (b, "params", hr_model_spec_get_arch (c->model)->params_total);
      hr_cli_add_double (b, "decode_tokens_per_s", c->decode_tokens_per_s);
      hr_cli_add_double (b, "prefill_tokens_per_s", c->prefill_tokens_per_s);
      hr_cli_add_quality (b, "quality", &c->quality, c->tier);
      hr_cli_add_energy (b, c->joules_per_token, c->cost_per_million);
      json_builder_set_member_name (b, "command");
      if (command != NULL)
        json_builder_add_string_value (b, command);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  hr_cli_print_json (root);
}

static void
print_text (const HrRecommendQuery *query,
            GArray                 *candidates,
            guint                   limit)
{
  g_print ("%s, task %s, context %" G_GUINT64_FORMAT ": %u candidates fit (ranked by quality tier, "
           "then %s)\n",
           hr_hardware_get_name (query->hardware), hr_task_to_string (query->task),
           hr_recommend_context (query), candidates->len, HR_RECOMMEND_BASIS);
  g_print ("%-40s %-10s %-9s %9s %8s %8s %-13s %8s\n", "model", "precision", "engine",
           "memory", "tok/s", "pp tok/s", "quality", "J/token");
  for (guint i = 0; i < MIN (limit, candidates->len); i++)
    {
      const HrCandidate *c = &g_array_index (candidates, HrCandidate, i);
      g_autofree char *joules = c->joules_per_token > 0
                                ? g_strdup_printf ("%8.2f", c->joules_per_token)
                                : g_strdup ("       –");

      g_print ("%-40s %-10s %-9s %5.1f GiB %8.1f %8.0f %-13s %s\n",
               hr_model_spec_get_id (c->model), hr_precision_get_id (c->precision),
               hr_engine_to_string (c->engine), c->total_bytes / HR_GIB,
               c->decode_tokens_per_s, c->prefill_tokens_per_s,
               hr_quality_tier_to_string (c->tier), joules);
    }
}

static int
run (HrCliOptions *o,
     const char   *name)
{
  HrRecommendQuery query = { 0 };
  g_autoptr(GArray) candidates = NULL;
  gint64 context, limit;

  if (!hr_cli_no_arguments (o) || !hr_cli_resolve_hardware (o) || !hr_cli_parse_ram (o) ||
      !hr_cli_parse_price (o))
    return hr_cli_exit_status ();

  query.task = HR_TASK_CHAT;
  if (o->task_arg != NULL && !hr_task_from_string (o->task_arg, &query.task))
    return hr_cli_usage_error ("--task must be chat, code, reasoning, vision, long or serving, "
                               "not “%s”", o->task_arg);
  if (!hr_cli_parse_count ("--context", o->context_arg, HR_CONTEXT_MIN, HR_CONTEXT_MAX, 0,
                           &context) ||
      !hr_cli_parse_count ("--limit", o->limit_arg, 1, LIMIT_MAX, LIMIT_DEFAULT, &limit))
    return hr_cli_exit_status ();
  if (o->min_tokens_per_s_arg != NULL &&
      !hr_cli_parse_decimal ("--min-tokens-per-s", o->min_tokens_per_s_arg,
                             MIN_TOKENS_PER_S_MIN, MIN_TOKENS_PER_S_MAX,
                             &query.min_tokens_per_s))
    return hr_cli_exit_status ();

  query.hardware = o->scenario.hardware;
  query.gpus = 1;
  query.ram = o->scenario.ram;
  query.context = (guint64) context;
  query.price = o->price;

  candidates = hr_recommend (o->catalog, &query, NULL);
  if (o->json)
    print_json (o, &query, candidates, (guint) limit);
  else
    print_text (&query, candidates, (guint) limit);
  return 0;
}

static void
add_options (GArray       *entries,
             HrCliOptions *o)
{
  const GOptionEntry own[] = {
    { "hardware", 0, 0, G_OPTION_ARG_STRING, &o->hardware,
      "Device id (headroom-cli devices), or “local” for this computer's", "H" },
    { "ram", 0, 0, G_OPTION_ARG_STRING, &o->ram_arg,
      "System RAM in GiB, for the layers that do not fit on the GPU", "GIB" },
    { "task", 0, 0, G_OPTION_ARG_STRING, &o->task_arg,
      "chat (default), code, reasoning, vision, long or serving", "T" },
    { "context", 0, 0, G_OPTION_ARG_STRING, &o->context_arg,
      "Context every candidate must hold (default 8192; 65536 for long)", "N" },
    { "min-tokens-per-s", 0, 0, G_OPTION_ARG_STRING, &o->min_tokens_per_s_arg,
      "Least decode speed of a candidate", "R" },
    { "limit", 0, 0, G_OPTION_ARG_STRING, &o->limit_arg,
      "Candidates listed (default 20)", "N" },
  };

  hr_cli_add_entries (entries, own, G_N_ELEMENTS (own));
  hr_cli_add_price (entries, o);
  hr_cli_add_calibration (entries, o);
  hr_cli_add_json (entries, o);
}

const HrCliCommand hr_cli_recommend_command = {
  .name = "recommend",
  .synopsis = "recommend --hardware H [--ram GIB] [--task T] [--context N]\n"
              "                         [--min-tokens-per-s R] [--limit N] [--json]",
  .summary = "Ranks every catalog model × precision × engine that fits the device at the "
             "context asked, best quality first, with memory, speed, quality, energy and "
             "the command.",
  .add_options = add_options,
  .run = run,
};
