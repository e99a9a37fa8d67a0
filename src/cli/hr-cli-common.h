/* hr-cli-common.h — what several headroom-cli commands share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The CLI is split as GLib's gio tool is: hr-cli.c dispatches, each
 * hr-cli-COMMAND.c has its own option table, help and output, and this
 * header declares what several of them use: the error lines of the
 * contract (docs/CLI.md "Errors") and the JSON helpers (hr-cli-common.c), the
 * option groups shared by several commands, each defined once as a
 * GOptionEntry array (hr-cli-options.c), and the resolving of those
 * options into an HrScenario (hr-cli-scenario.c).
 *
 * A command's option table is the concatenation of the groups it asks
 * for plus its own entries: an option no group of the command holds is
 * refused by GOption ("Unknown option"), exit 2.
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-calculator.h"
#include "hr-energy.h"
#include "hr-quality.h"
#include "hr-catalog.h"
#include "hr-scenario.h"
#include "hr-table-columns.h"

G_BEGIN_DECLS

/* docs/CLI.md "Errors": bad arguments exit 2, a bad file exits 1. */
#define HR_CLI_EXIT_USAGE 2
#define HR_CLI_EXIT_FILE  1

/* The raw text of every option, and what it resolves to.  Each command
 * uses only the members of the groups it added; the rest stay NULL. */
typedef struct
{
  /* model group */
  char *model;
  gboolean online;          /* --online: the hub may be asked */
  gboolean offline;         /* --offline: the hub's cache only */
  /* precision group */
  char *precision;
  /* context group */
  char *context_arg;
  /* batch group */
  char *batch_arg;
  /* set-up group */
  char *kv_type;
  char *engine;
  char *hardware;
  char *reserve_arg;        /* --reserve GIB[,GIB…] */
  /* the whole load group */
  char *mmproj_arg;
  char *images_arg;
  char *draft_arg;
  char *draft_precision_arg;
  char *draft_max_arg;
  char *acceptance_arg;
  char *lora_arg;           /* --lora FILE|RANK[,…] */
  char *kv_offload_arg;     /* --kv-offload on|off */
  char *cache_ram_arg;      /* --cache-ram GIB */
  /* gpus group */
  char *gpus_arg;
  /* engine tuning group */
  char *flash_attn;
  char *ubatch_arg;
  char *gpu_memory_utilization_arg;
  char *max_num_batched_tokens_arg;
  char *vllm_version_arg;
  /* placement group */
  char *gpu_layers_arg;
  char *split_mode_arg;
  char *tensor_split_arg;
  char *n_cpu_moe_arg;
  char *ram_arg;
  char *ram_bandwidth_arg;
  /* serving layout group */
  char *tp_arg;
  char *pp_arg;
  char *dp_arg;
  char *nodes_arg;
  char *gpus_per_node_arg;
  /* serving load group */
  char *users_arg;
  char *target_arg;
  /* speed group */
  char *prompt_tokens_arg;
  char *generate_arg;
  /* calibration group */
  gboolean no_calibration;
  gboolean takes_calibration;   /* the command has the group */
  struct _HrCalibration *calibration; /* loaded by hr_cli_resolve_scenario() */
  /* price group */
  char *price_kwh_arg;
  char *price_per_hour_arg;
  /* recommend's own */
  char *task_arg;
  char *min_tokens_per_s_arg;
  char *limit_arg;
  char *depth_arg;
  /* backend group */
  char *backend_arg;
  /* CPU group */
  char *cpu_arg;
  HrCpu *local_cpu;            /* --cpu local when the catalog lacks it */
  /* output groups */
  gboolean json;
  gboolean csv;
  /* matrix's own */
  char *contexts;
  char *precisions;
  /* positional arguments */
  char **rest;
  char **lora_items;        /* --lora split; the scenario's lora_paths borrow them */

  /* resolved */
  HrCatalog *catalog;
  HrScenario scenario;
  HrModelSpec *imported;    /* owned when the model came from a file */
  const char *source_kind;  /* "catalog", "file" or "hub" */
  char *hub_repo;           /* the hub's repository and revision, for "hub" */
  char *hub_revision;
  guint32 gpus_per_node;    /* --gpus-per-node, 0 when not given */
  gboolean hardware_list;   /* --hardware named a list of devices */
  gboolean accepts_device_list; /* set by estimate and command */
  gboolean local_reserve_known; /* --hardware local: memory in use now */
  guint64 local_reserve_bytes;
  HrPrice price;            /* --price-kwh / --price-per-hour; zero: none */
} HrCliOptions;

/* One command of the dispatcher's table (hr-cli.c). */
typedef struct
{
  const char *name;
  const char *parameter;    /* positional arguments in --help, or NULL */
  const char *synopsis;     /* the line(s) of `headroom-cli --help`, or NULL */
  const char *summary;      /* one sentence: --help and the man page */
  /* appends the command's GOptionEntry values (shared groups and its
   * own) to @entries, stored in @o */
  void (*add_options) (GArray       *entries,
                       HrCliOptions *o);
  int  (*run)         (HrCliOptions *o,
                       const char   *name);
} HrCliCommand;

/* Errors (hr-cli-common.c) */
void     hr_cli_print_line        (const char    *prefix,
                                   const char    *message);
int      hr_cli_usage_error       (const char    *format,
                                   ...) G_GNUC_PRINTF (1, 2);
int      hr_cli_fail              (int            status,
                                   const char    *format,
                                   ...) G_GNUC_PRINTF (2, 3);
int      hr_cli_file_error        (const char    *message);
int      hr_cli_exit_status       (void);

/* Option groups, each defined once (hr-cli-options.c) */
void     hr_cli_add_model         (GArray *entries, HrCliOptions *o);
void     hr_cli_add_precision     (GArray *entries, HrCliOptions *o);
void     hr_cli_add_context       (GArray *entries, HrCliOptions *o);
void     hr_cli_add_batch         (GArray *entries, HrCliOptions *o);
void     hr_cli_add_setup         (GArray *entries, HrCliOptions *o);
void     hr_cli_add_gpus          (GArray *entries, HrCliOptions *o);
void     hr_cli_add_reserve       (GArray *entries, HrCliOptions *o);
void     hr_cli_add_extras        (GArray *entries, HrCliOptions *o);
void     hr_cli_add_tuning        (GArray *entries, HrCliOptions *o);
void     hr_cli_add_placement     (GArray *entries, HrCliOptions *o);
void     hr_cli_add_layout        (GArray *entries, HrCliOptions *o);
void     hr_cli_add_load          (GArray *entries, HrCliOptions *o);
void     hr_cli_add_speed         (GArray *entries, HrCliOptions *o);
void     hr_cli_add_price         (GArray *entries, HrCliOptions *o);
void     hr_cli_add_backend       (GArray *entries, HrCliOptions *o);
void     hr_cli_add_cpu           (GArray *entries, HrCliOptions *o);
void     hr_cli_add_json          (GArray *entries, HrCliOptions *o);
void     hr_cli_add_calibration   (GArray *entries, HrCliOptions *o);
void     hr_cli_add_csv           (GArray *entries, HrCliOptions *o);
void     hr_cli_add_entries       (GArray             *entries,
                                   const GOptionEntry *add,
                                   gsize               n_add);

/* Parsing (hr-cli-options.c) and resolving (hr-cli-scenario.c) */
GArray  *hr_cli_command_entries   (const HrCliCommand *command,
                                   HrCliOptions       *o);
gboolean hr_cli_parse             (const HrCliCommand *command,
                                   HrCliOptions       *o,
                                   int                *argc,
                                   char             ***argv);
gboolean hr_cli_no_arguments      (HrCliOptions  *o);
gboolean hr_cli_resolve_scenario  (HrCliOptions  *o,
                                   gboolean       with_precision);
gboolean hr_cli_parse_count       (const char    *option,
                                   const char    *text,
                                   gint64         min,
                                   gint64         max,
                                   gint64         fallback,
                                   gint64        *value);
void     hr_cli_options_clear     (HrCliOptions  *o);
HrCalculator *hr_cli_calculator_for (HrCliOptions *o);
gboolean hr_cli_resolve_hardware  (HrCliOptions  *o);
gboolean hr_cli_parse_ram         (HrCliOptions  *o);
gboolean hr_cli_parse_price       (HrCliOptions  *o);
gboolean hr_cli_parse_decimal     (const char    *option,
                                   const char    *text,
                                   double         min,
                                   double         max,
                                   double        *value);

/* Output (hr-cli-common.c) */
void     hr_cli_add_source        (JsonBuilder   *b,
                                   HrCliOptions  *o);
char    *hr_cli_escape            (const char    *text);
void     hr_cli_print_json        (JsonNode      *root);
void     hr_cli_add_uint          (JsonBuilder   *b,
                                   const char    *key,
                                   guint64        value);
void     hr_cli_add_layer_kinds   (JsonBuilder       *b,
                                   const HrModelArch *arch);
void     hr_cli_add_uint_or_null  (JsonBuilder   *b,
                                   const char    *key,
                                   gboolean       known,
                                   guint64        value);
void     hr_cli_add_double        (JsonBuilder   *b,
                                   const char    *key,
                                   double         value);
void     hr_cli_add_double_or_null (JsonBuilder  *b,
                                    const char   *key,
                                    double        value);
const char *hr_cli_placement_name (HrPlacementKind kind);
void     hr_cli_add_string        (JsonBuilder   *b,
                                   const char    *key,
                                   const char    *value);
void     hr_cli_add_file_string   (JsonBuilder   *b,
                                   const char    *key,
                                   const char    *value);
void     hr_cli_add_bool          (JsonBuilder   *b,
                                   const char    *key,
                                   gboolean       value);
void     hr_cli_add_quality       (JsonBuilder   *b,
                                   const char    *key,
                                   const HrQuality *quality,
                                   HrQualityTier  tier);
void     hr_cli_add_energy        (JsonBuilder   *b,
                                   double         joules_per_token,
                                   double         cost_per_million);
void     hr_cli_add_columns       (JsonBuilder          *b,
                                   const HrTableColumns *table,
                                   guint                 n_contexts,
                                   gpointer              row);

G_END_DECLS
