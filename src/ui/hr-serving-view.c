/* hr-serving-view.c — users, throughput and layouts for vLLM and SGLang
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shows an HrServingTable (core) of the calculator's scenario: a summary
 * under the sidebar's users (with the smallest layout that gives each the
 * target, and a button to use it), each user's rate for users × context,
 * and the rates against users.  Other engines get one page saying what
 * the view is for, with a switch to a serving engine; a combination the
 * engine refuses gets the reason.  Off screen the view only notes that it
 * is stale and catches up when mapped.
 */

#define G_LOG_DOMAIN "hr-serving-view"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-serving-plot.h"
#include "hr-serving-view.h"
#include "hr-ui-format.h"

struct _HrServingView
{
  HrView parent_instance;

  HrServingTable *table;
  gboolean stale;
  GtkWidget *cells[HR_SERVING_TABLE_N_USERS + 1][HR_SERVING_TABLE_MAX_CONTEXTS + 1];

  /* template children */
  GtkStack *stack;
  AdwStatusPage *other_page;
  AdwStatusPage *invalid_page;
  GtkButton *fix_button;
  GtkWidget *no_fit_box;
  GtkLabel *no_fit_label;
  AdwPreferencesGroup *summary_group;
  AdwActionRow *per_user_row;
  GtkLabel *per_user_label;
  AdwActionRow *aggregate_row;
  GtkLabel *aggregate_label;
  AdwActionRow *ttft_row;
  GtkLabel *ttft_label;
  AdwActionRow *max_users_row;
  GtkLabel *max_users_label;
  AdwActionRow *plan_row;
  GtkWidget *table_group;
  GtkGrid *grid;
  GtkWidget *plot_group;
  HrServingPlot *plot;
};

G_DEFINE_FINAL_TYPE (HrServingView, hr_serving_view, HR_TYPE_VIEW)

static const char *
state_class (HrServingCellState state)
{
  switch (state)
    {
    case HR_SERVING_CELL_MEETS:
      return "success";
    case HR_SERVING_CELL_NEAR:
      return "warning";
    case HR_SERVING_CELL_BELOW:
    case HR_SERVING_CELL_CACHE_FULL:
    case HR_SERVING_CELL_NO_FIT:
    case HR_SERVING_CELL_INVALID:
    default:
      return "error";
    }
}

static char *
layout_text (const HrScenario *s,
             const HrLayout   *l)
{
  guint gpus = l->tp * l->pp * l->dp;

  if (l->nodes > 1)
    /* TRANSLATORS: "TP 8 × PP 2 × DP 1 on 2 machines of 8 GPUs" */
    return g_strdup_printf (_("TP %u × PP %u × DP %u on %u machines of %u GPUs"),
                            l->tp, l->pp, l->dp, l->nodes, gpus / l->nodes);
  /* TRANSLATORS: "TP 4 × PP 1 × DP 1 on 4 GPUs" */
  return g_strdup_printf (ngettext ("TP %u × PP %u × DP %u on %u GPU",
                                    "TP %u × PP %u × DP %u on %u GPUs", gpus),
                          l->tp, l->pp, l->dp, gpus);
}

/* ------------------------------------------------------------- table */

static GtkWidget *
grid_label (HrServingView *self,
            guint          row,
            guint          column)
{
  GtkWidget *label = self->cells[row][column];

  if (label == NULL)
    {
      label = gtk_label_new (NULL);
      gtk_widget_add_css_class (label, row == 0 || column == 0 ? "serving-header"
                                                               : "serving-cell");
      gtk_widget_add_css_class (label, "numeric");
      gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0.0 : 1.0);
      gtk_grid_attach (self->grid, label, column, row, 1, 1);
      self->cells[row][column] = label;
    }
  return label;
}

static void
fill_cell (HrServingView       *self,
           guint                row,
           guint                column,
           const HrServingCell *cell)
{
  GtkWidget *label = grid_label (self, row + 1, column + 1);
  g_autofree char *text = NULL;
  g_autofree char *tooltip = NULL;
  g_autofree char *context = hr_format_tokens (cell->context);

  switch (cell->state)
    {
    case HR_SERVING_CELL_CACHE_FULL:
      text = g_strdup (_("cache full"));
      /* TRANSLATORS: "The KV cache holds 12 of these 16 users at once at 32,768 tokens; the others wait" */
      tooltip = g_strdup_printf (_("The KV cache holds %u of these %u users at once at %s "
                                   "tokens; the others wait"),
                                 cell->users_served, cell->users, context);
      break;
    case HR_SERVING_CELL_NO_FIT:
      text = g_strdup (_("no fit"));
      /* TRANSLATORS: "One sequence of 131,072 tokens does not fit" */
      tooltip = g_strdup_printf (_("One sequence of %s tokens does not fit"), context);
      break;
    case HR_SERVING_CELL_INVALID:
      text = g_strdup ("—");
      tooltip = g_strdup (_("The engine cannot run this combination"));
      break;
    case HR_SERVING_CELL_MEETS:
    case HR_SERVING_CELL_NEAR:
    case HR_SERVING_CELL_BELOW:
    default:
      {
        g_autofree char *each = hr_format_rate (cell->per_user_tokens_per_s);
        g_autofree char *all = hr_format_rate (cell->aggregate_tokens_per_s);

        text = g_strdup_printf ("%.1f", cell->per_user_tokens_per_s);
        /* TRANSLATORS: "16 users at 8,192 tokens: 23.4 tok/s each, 374.4 tok/s together" */
        tooltip = g_strdup_printf (ngettext ("%u user at %s tokens: %s each, %s together",
                                             "%u users at %s tokens: %s each, %s together",
                                             cell->users),
                                   cell->users, context, each, all);
      }
    }
  gtk_label_set_label (GTK_LABEL (label), text);
  hr_ui_set_cell_tooltip (label, tooltip);
  hr_ui_set_state_class (label, state_class (cell->state));
  gtk_widget_set_visible (label, TRUE);
}

static void
fill_table (HrServingView *self)
{
  guint n_users = hr_serving_table_get_n_users (self->table);
  guint n_contexts = hr_serving_table_get_n_contexts (self->table);
  g_autofree char *target = hr_format_rate (hr_serving_table_get_target (self->table));
  g_autofree char *description = NULL;

  gtk_label_set_label (GTK_LABEL (grid_label (self, 0, 0)), _("Users"));
  for (guint j = 0; j < HR_SERVING_TABLE_MAX_CONTEXTS; j++)
    {
      GtkWidget *header = grid_label (self, 0, j + 1);

      if (j < n_contexts)
        {
          g_autofree char *text =
            hr_format_context_short (hr_serving_table_get_context (self->table, j));
          gtk_label_set_label (GTK_LABEL (header), text);
        }
      gtk_widget_set_visible (header, j < n_contexts);
      for (guint i = 0; i < HR_SERVING_TABLE_N_USERS; i++)
        gtk_widget_set_visible (grid_label (self, i + 1, j + 1), FALSE);
    }
  for (guint i = 0; i < n_users; i++)
    {
      g_autofree char *users = g_strdup_printf ("%u", hr_serving_table_get_users (self->table, i));

      gtk_label_set_label (GTK_LABEL (grid_label (self, i + 1, 0)), users);
      for (guint j = 0; j < n_contexts; j++)
        fill_cell (self, i, j, hr_serving_table_get_cell (self->table, i, j));
    }

  /* TRANSLATORS: "Tokens a second each user gets, by users at once (rows) and context (columns): green meets the target of 20.0 tok/s, yellow is within a quarter of it" */
  description = g_strdup_printf (_("Tokens a second each user gets, by users at once (rows) and "
                                   "context (columns): green meets the target of %s, yellow "
                                   "is within a quarter of it"), target);
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (self->table_group), description);
}

/* ----------------------------------------------------------- summary */

static void
fill_summary (HrServingView    *self,
              const HrScenario *s)
{
  const HrEstimate *e = hr_serving_table_get_estimate (self->table);
  const HrServingPlan *plan = hr_serving_table_get_plan (self->table);
  guint32 max_users = hr_serving_table_get_max_users (self->table);
  guint32 limit = hr_serving_table_get_cache_limit (self->table);
  g_autofree char *layout = layout_text (s, &e->layout);
  g_autofree char *context = hr_format_tokens (s->context);
  g_autofree char *target = hr_format_rate (s->target_tokens_per_s);
  g_autofree char *description = NULL;
  g_autofree char *per_user = hr_format_rate (e->per_user_tokens_per_s);
  g_autofree char *aggregate = hr_format_rate (e->aggregate_tokens_per_s);
  g_autofree char *ttft = g_strdup_printf (_("%.2f s"), e->load_ttft_seconds);
  g_autofree char *max_text = g_strdup_printf ("%u", max_users);
  g_autofree char *subtitle = NULL;
  g_autofree char *plan_text = hr_serving_plan_describe (s, plan);
  g_autofree char *plan_title = NULL;
  gboolean current = plan->status == HR_PLAN_FOUND &&
                     plan->layout.tp == e->layout.tp && plan->layout.pp == e->layout.pp &&
                     plan->layout.dp == e->layout.dp && plan->layout.nodes == e->layout.nodes;

  /* TRANSLATORS: "32 users at 8,192 tokens, TP 4 × PP 1 × DP 1 on 4 GPUs" */
  description = g_strdup_printf (ngettext ("%u user at %s tokens, %s",
                                           "%u users at %s tokens, %s", s->users),
                                 s->users, context, layout);
  adw_preferences_group_set_description (self->summary_group, description);

  gtk_label_set_label (self->per_user_label, per_user);
  hr_ui_set_state_class (GTK_WIDGET (self->per_user_label),
                         state_class (hr_serving_rate_state (e->per_user_tokens_per_s,
                                                             s->target_tokens_per_s)));
  /* TRANSLATORS: "Target 20.0 tok/s" */
  subtitle = g_strdup_printf (_("Target %s"), target);
  adw_action_row_set_subtitle (self->per_user_row, subtitle);
  g_clear_pointer (&subtitle, g_free);

  gtk_label_set_label (self->aggregate_label, aggregate);
  if (e->users_served < s->users)
    /* TRANSLATORS: "The KV cache holds 12 of the 16 users at once; the others wait" */
    subtitle = g_strdup_printf (_("The KV cache holds %u of the %u users at once; the others "
                                  "wait"), e->users_served, s->users);
  else
    subtitle = g_strdup (_("Answer tokens a second, every user’s"));
  adw_action_row_set_subtitle (self->aggregate_row, subtitle);
  g_clear_pointer (&subtitle, g_free);

  gtk_label_set_label (self->ttft_label, ttft);
  /* TRANSLATORS: "A 7,680-token prompt while the others are answered" */
  {
    g_autofree char *prompt = hr_format_tokens (hr_serving_table_get_load_prompt (self->table));
    subtitle = g_strdup_printf (_("A %s-token prompt while the others are answered"), prompt);
  }
  adw_action_row_set_subtitle (self->ttft_row, subtitle);
  g_clear_pointer (&subtitle, g_free);

  gtk_label_set_label (self->max_users_label, max_text);
  /* TRANSLATORS: "Each at 20.0 tok/s or faster; the KV cache holds 45 at 8,192 tokens" */
  subtitle = g_strdup_printf (_("Each at %s or faster; the KV cache holds %u at %s tokens"),
                              target, limit, context);
  adw_action_row_set_subtitle (self->max_users_row, subtitle);
  g_clear_pointer (&subtitle, g_free);

  /* TRANSLATORS: "Smallest layout for 32 users at 20.0 tok/s" */
  plan_title = g_strdup_printf (ngettext ("Smallest layout for %u user at %s",
                                          "Smallest layout for %u users at %s", s->users),
                                s->users, target);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->plan_row), plan_title);
  if (current)
    {
      /* TRANSLATORS: "4 GPUs: TP 4 × PP 1 × DP 1, 21.4 tok/s per user — the current layout" */
      subtitle = g_strdup_printf (_("%s — the current layout"), plan_text);
      adw_action_row_set_subtitle (self->plan_row, subtitle);
    }
  else
    adw_action_row_set_subtitle (self->plan_row, plan_text);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "serving.apply-plan",
                                 plan->status == HR_PLAN_FOUND && !current);
}

/* ---------------------------------------------------------- refresh */

static const char *
engine_name (HrEngine engine)
{
  switch (engine)
    {
    case HR_ENGINE_LLAMACPP:
      return "llama.cpp";
    case HR_ENGINE_OLLAMA:
      return "Ollama";
    case HR_ENGINE_GENERIC:
    default:
      return _("The nominal method");
    }
}

/* A TP size the heads divide, on the same GPUs; the rest are replicas. */
static guint
fix_tp (HrCalculator *calculator)
{
  const HrModelArch *arch = hr_model_spec_get_arch (hr_calculator_get_model (calculator));
  guint gpus = hr_calculator_get_gpu_count (calculator);

  return hr_serving_largest_tp (arch, gpus / hr_calculator_get_pp (calculator));
}

/* The one change that lets the engine run the scenario (HrFix), as a
 * button's label; NULL when there is none. */
static char *
fix_label (HrServingView *self,
           HrCalculator  *calculator)
{
  const HrEstimate *e = hr_serving_table_get_estimate (self->table);
  HrPrecision *precision = hr_calculator_get_precision (calculator);

  switch (e->fix)
    {
    case HR_FIX_GPU_COUNT:
      /* TRANSLATORS: a button: "Use Tensor Parallel 4" */
      return g_strdup_printf (_("Use Tensor Parallel %u"), fix_tp (calculator));
    case HR_FIX_KV_FP16:
      return g_strdup (_("Use an FP16 KV Cache"));
    case HR_FIX_ENGINE_AUTO:
      if (precision != NULL)
        {
          HrPrecision *serving =
            hr_serving_precision (hr_calculator_get_catalog (calculator), precision);

          if (serving != precision)
            /* TRANSLATORS: a button: "Use AWQ INT4 Weights" */
            return g_strdup_printf (_("Use %s Weights"), hr_precision_get_label (serving));
        }
      return NULL;
    case HR_FIX_NONE:
    case HR_FIX_FLASH_ATTN_ON:
    default:
      return NULL;
    }
}

static void
update (HrView *view)
{
  HrServingView *self = HR_SERVING_VIEW (view);
  HrCalculator *calculator = hr_view_get_calculator (view);
  const HrScenario *s;
  HrServingStatus status;

  if (calculator == NULL)
    return;
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = TRUE;
      return;
    }
  self->stale = FALSE;
  s = hr_calculator_get_scenario (calculator);
  hr_serving_table_update (self->table, s);
  status = hr_serving_table_get_status (self->table);

  if (status == HR_SERVING_NOT_SERVING)
    {
      HrPrecision *precision = hr_calculator_get_precision (calculator);
      HrPrecision *serving = precision != NULL
                             ? hr_serving_precision (hr_calculator_get_catalog (calculator),
                                                     precision) : NULL;
      g_autofree char *text =
        /* TRANSLATORS: "llama.cpp is estimated for one person at a time. Users at once, throughput under load and multi-GPU layouts are worked out for the serving engines." */
        g_strdup_printf (_("%s is estimated for one person at a time. Users at once, "
                           "throughput under load and multi-GPU layouts are worked out for "
                           "the serving engines."),
                         engine_name (hr_serving_table_get_engine (self->table)));

      if (serving != precision)
        {
          /* TRANSLATORS: appended: " They load safetensors checkpoints: Q4_K_M becomes AWQ INT4." */
          g_autofree char *more = g_strdup_printf (_("They load safetensors checkpoints: %s "
                                                     "becomes %s."),
                                                   hr_precision_get_label (precision),
                                                   hr_precision_get_label (serving));
          g_autofree char *both = g_strjoin (" ", text, more, NULL);

          g_free (text);
          text = g_steal_pointer (&both);
        }
      adw_status_page_set_description (self->other_page, text);
      gtk_stack_set_visible_child_name (self->stack, "other");
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "serving.apply-plan", FALSE);
      return;
    }
  if (status == HR_SERVING_INVALID)
    {
      g_autofree char *fix = fix_label (self, calculator);

      adw_status_page_set_description (self->invalid_page,
                                       hr_serving_table_get_error_message (self->table));
      gtk_widget_set_visible (GTK_WIDGET (self->fix_button), fix != NULL);
      if (fix != NULL)
        gtk_button_set_label (self->fix_button, fix);
      gtk_stack_set_visible_child_name (self->stack, "invalid");
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "serving.apply-plan", FALSE);
      return;
    }

  gtk_stack_set_visible_child_name (self->stack, "figures");
  fill_summary (self, s);
  fill_table (self);
  hr_serving_plot_set_data (self->plot, self->table);

  /* Nothing runs: say so once, not in zeros. */
  gtk_widget_set_visible (self->no_fit_box, status == HR_SERVING_NO_FIT);
  gtk_widget_set_visible (GTK_WIDGET (self->per_user_row), status == HR_SERVING_READY);
  gtk_widget_set_visible (GTK_WIDGET (self->aggregate_row), status == HR_SERVING_READY);
  gtk_widget_set_visible (GTK_WIDGET (self->ttft_row), status == HR_SERVING_READY);
  gtk_widget_set_visible (GTK_WIDGET (self->max_users_row), status == HR_SERVING_READY);
  gtk_widget_set_visible (self->plot_group, status == HR_SERVING_READY);
  gtk_widget_set_visible (self->table_group, hr_serving_table_get_any_fits (self->table));
  if (status == HR_SERVING_NO_FIT)
    {
      const HrEstimate *e = hr_serving_table_get_estimate (self->table);
      g_autofree char *layout = layout_text (s, &e->layout);
      g_autofree char *context = hr_format_tokens (s->context);
      /* TRANSLATORS: "TP 1 × PP 1 × DP 1 on 1 GPU cannot hold one sequence of 32,768 tokens: nothing runs" */
      g_autofree char *text = g_strdup_printf (_("%s cannot hold one sequence of %s tokens: "
                                                 "the server does not start"),
                                               layout, context);

      gtk_label_set_label (self->no_fit_label, text);
    }
}

static void
on_map (HrServingView *self)
{
  if (self->stale)
    update (HR_VIEW (self));
}

/* ----------------------------------------------------------- actions */

static void
use_engine_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (widget));
  const char *engine = g_variant_get_string (parameter, NULL);

  if (calculator == NULL)
    return;
  /* the engine and, for a GGUF precision, the checkpoint it loads: one run */
  hr_calculator_freeze (calculator);
  if (hr_calculator_get_precision (calculator) != NULL)
    hr_calculator_set_precision (calculator,
                                 hr_serving_precision (hr_calculator_get_catalog (calculator),
                                                       hr_calculator_get_precision (calculator)));
  hr_calculator_set_engine (calculator, g_strcmp0 (engine, "sglang") == 0 ? HR_ENGINE_SGLANG
                                                                         : HR_ENGINE_VLLM);
  hr_calculator_thaw (calculator);
}

static void
fix_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  HrServingView *self = HR_SERVING_VIEW (widget);
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  const HrEstimate *e = hr_serving_table_get_estimate (self->table);

  if (calculator == NULL)
    return;
  switch (e->fix)
    {
    case HR_FIX_GPU_COUNT:
      {
        guint tp = fix_tp (calculator);
        guint pp = hr_calculator_get_pp (calculator);

        hr_calculator_set_layout (calculator, &(HrLayout) {
                                    tp, pp, hr_calculator_get_gpu_count (calculator) / (tp * pp),
                                    hr_calculator_get_nodes (calculator) });
      }
      break;
    case HR_FIX_KV_FP16:
      hr_calculator_set_kv_type (calculator,
                                 hr_catalog_find_kv_type (hr_calculator_get_catalog (calculator),
                                                          "fp16"));
      break;
    case HR_FIX_ENGINE_AUTO:
      if (hr_calculator_get_precision (calculator) != NULL)
        hr_calculator_set_precision (calculator,
                                     hr_serving_precision (hr_calculator_get_catalog (calculator),
                                                           hr_calculator_get_precision (calculator)));
      break;
    case HR_FIX_NONE:
    case HR_FIX_FLASH_ATTN_ON:
    default:
      break;
    }
}

static void
apply_plan_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  HrServingView *self = HR_SERVING_VIEW (widget);
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  const HrServingPlan *plan = hr_serving_table_get_plan (self->table);
  HrLayout layout;

  if (calculator == NULL || plan->status != HR_PLAN_FOUND)
    return;
  layout = plan->layout;
  hr_calculator_set_layout (calculator, &layout);
  gtk_widget_activate_action (widget, "win.toast", "s", _("Layout applied"));
}

/* ------------------------------------------------------------ class */

static void
hr_serving_view_dispose (GObject *object)
{
  HrServingView *self = HR_SERVING_VIEW (object);

  /* The stack is the bin's child and a template child: the bin lets go
   * of it first, or disposing the template would unparent it under the
   * bin's feet. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_SERVING_VIEW);
  g_clear_object (&self->table);
  G_OBJECT_CLASS (hr_serving_view_parent_class)->dispose (object);
}

static void
hr_serving_view_class_init (HrServingViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  HrViewClass *view_class = HR_VIEW_CLASS (klass);

  object_class->dispose = hr_serving_view_dispose;
  view_class->refresh = update;

  g_type_ensure (HR_TYPE_SERVING_PLOT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom_app/Headroom/ui/hr-serving-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrServingView, stack);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, other_page);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, invalid_page);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, fix_button);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, no_fit_box);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, no_fit_label);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, summary_group);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, per_user_row);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, per_user_label);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, aggregate_row);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, aggregate_label);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, ttft_row);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, ttft_label);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, max_users_row);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, max_users_label);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, plan_row);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, table_group);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, grid);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, plot_group);
  gtk_widget_class_bind_template_child (widget_class, HrServingView, plot);
  gtk_widget_class_install_action (widget_class, "serving.use-engine", "s", use_engine_action);
  gtk_widget_class_install_action (widget_class, "serving.apply-plan", NULL, apply_plan_action);
  gtk_widget_class_install_action (widget_class, "serving.fix", NULL, fix_action);
}

static void
hr_serving_view_init (HrServingView *self)
{
  self->table = hr_serving_table_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
}

/* For tests: the table shown, the page (“other”, “invalid”, “figures”),
 * a cell's text and the plot. */
HrServingTable *
hr_serving_view_get_table (HrServingView *self)
{
  g_return_val_if_fail (HR_IS_SERVING_VIEW (self), NULL);
  return self->table;
}

const char *
hr_serving_view_get_page (HrServingView *self)
{
  g_return_val_if_fail (HR_IS_SERVING_VIEW (self), NULL);
  return gtk_stack_get_visible_child_name (self->stack);
}

const char *
hr_serving_view_get_cell_text (HrServingView *self,
                               guint          row,
                               guint          column)
{
  g_return_val_if_fail (HR_IS_SERVING_VIEW (self), NULL);
  g_return_val_if_fail (row < HR_SERVING_TABLE_N_USERS, NULL);
  g_return_val_if_fail (column < HR_SERVING_TABLE_MAX_CONTEXTS, NULL);
  return self->cells[row + 1][column + 1] != NULL
         ? gtk_label_get_label (GTK_LABEL (self->cells[row + 1][column + 1])) : NULL;
}

GtkWidget *
hr_serving_view_get_plot (HrServingView *self)
{
  g_return_val_if_fail (HR_IS_SERVING_VIEW (self), NULL);
  return GTK_WIDGET (self->plot);
}
