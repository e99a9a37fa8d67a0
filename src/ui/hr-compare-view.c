/* hr-compare-view.c — similar models at the current settings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seed page's "compare similar open-weight models" (panel P12): every
 * model of the catalog close to the current one, run with the current
 * precision, context and device.  Activating a row (Enter or a double
 * click) makes that model the calculator's.  Figures are read from the
 * HrComparison rows; the view only formats them.
 */

#define G_LOG_DOMAIN "hr-compare-view"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-compare-view.h"
#include "hr-format.h"
#include "hr-table-view.h"
#include "hr-ui-format.h"

typedef enum
{
  CELL_MODEL,
  CELL_PARAMS,
  CELL_TOTAL,
  CELL_FITS,
  CELL_DECODE,
  CELL_MAX_CONTEXT,
  N_CELL_KINDS
} CellKind;

struct _HrCompareView
{
  HrTableView parent_instance;

  /* template children */
  GtkLabel *caption_label;
  GtkLabel *status_label;
  GtkLabel *budget_label;
  GtkStack *stack;
  GtkColumnView *column_view;
  GtkSortListModel *sort_model;
  GtkColumnViewColumn *model_column;
  GtkColumnViewColumn *params_column;
  GtkColumnViewColumn *total_column;
  GtkColumnViewColumn *fits_column;
  GtkColumnViewColumn *decode_column;
  GtkColumnViewColumn *max_context_column;
};

G_DEFINE_FINAL_TYPE (HrCompareView, hr_compare_view, HR_TYPE_TABLE_VIEW)

static gboolean
row_is_valid (HrComparisonRow *row)
{
  gboolean valid = FALSE;

  g_object_get (row, "valid", &valid, NULL);
  return valid;
}

static char *
format_tokens (guint64 tokens)
{
  g_autofree char *number = hr_format_tokens (tokens);

  /* TRANSLATORS: a context size, "136,404 tokens" */
  return g_strdup_printf (ngettext ("%s token", "%s tokens", (gulong) MIN (tokens, G_MAXULONG)),
                          number);
}

static void
update_cell (HrTableView *table,
             GtkWidget   *child,
             gpointer     item,
             guint        kind)
{
  guint units = hr_view_get_units (HR_VIEW (table));
  HrComparisonRow *row = item;
  HrModelSpec *model;
  const HrModelArch *arch;
  gboolean valid;

  model = hr_comparison_row_get_model (row);
  arch = hr_model_spec_get_arch (model);
  valid = row_is_valid (row);

  switch (kind)
    {
    case CELL_MODEL:
      {
        gboolean current = hr_comparison_row_get_is_current (row);
        g_autofree char *escaped = g_markup_escape_text (hr_model_spec_get_name (model), -1);
        g_autofree char *markup = NULL;

        if (current)
          {
            /* TRANSLATORS: tag after the name of the model being
             * estimated, among the similar models */
            g_autofree char *tag = g_markup_escape_text (_("current"), -1);

            markup = g_strdup_printf ("<b>%s</b> <span alpha=\"55%%\">%s</span>", escaped, tag);
          }
        else
          markup = g_steal_pointer (&escaped);

        hr_table_cell_marked_update (child, markup, hr_model_spec_get_name (model), current,
                                     _("Current model"));
      }
      break;

    case CELL_PARAMS:
      {
        g_autofree char *total = hr_format_params (arch->params_total);
        g_autofree char *text = NULL;

        if (arch->params_active > 0 && arch->params_active < arch->params_total)
          {
            g_autofree char *active = hr_format_params (arch->params_active);

            /* TRANSLATORS: parameters of a mixture-of-experts model: all of
             * them, then those read per token, "30.5B (3.3B active)" */
            text = g_strdup_printf (_("%s (%s active)"), total, active);
          }
        else
          text = g_steal_pointer (&total);
        hr_ui_inscription_set_text (GTK_INSCRIPTION (child), text);
        /* In full when the column is too narrow for it. */
        hr_ui_set_cell_tooltip (child, arch->params_active < arch->params_total ? text : NULL);
      }
      break;

    case CELL_TOTAL:
      {
        guint64 total = hr_comparison_row_get_total_bytes (row);
        guint64 per_device = hr_comparison_row_get_per_device_bytes (row);
        g_autofree char *text = NULL;
        g_autofree char *tooltip = NULL;

        text = valid ? hr_format_size (total, units) : g_strdup ("—");
        if (valid && hr_ui_engine_has_budget (hr_comparison_row_get_engine (row)))
          {
            /* every model gets the same budget: the cache's capacity differs */
            g_free (text);
            text = hr_ui_format_concurrency (hr_comparison_row_get_max_concurrency (row));
            tooltip = hr_ui_budget_tooltip (hr_comparison_row_get_engine (row), total,
                                            hr_comparison_row_get_kv_capacity_tokens (row),
                                            hr_comparison_row_get_max_concurrency (row),
                                            hr_comparison_row_get_context (row), units);
          }
        else if (valid && per_device != total)
          {
            g_autofree char *size = hr_format_size (per_device, units);

            /* TRANSLATORS: with several GPUs, what each one holds, "4.12 GiB" */
            tooltip = g_strdup_printf (_("%s on each device"), size);
          }
        hr_ui_inscription_set_text (GTK_INSCRIPTION (child), text);
        hr_ui_set_cell_tooltip (child, tooltip);
      }
      break;

    case CELL_FITS:
      hr_table_cell_verdict_update (child, hr_comparison_row_get_verdict (row),
                                    hr_comparison_row_get_placement (row), valid);
      break;

    case CELL_DECODE:
      {
        gboolean runs = valid && hr_comparison_row_get_verdict (row) != HR_VERDICT_NO_FIT;
        g_autofree char *text = NULL;

        /* What does not fit has no speed: the Fits column says it once. */
        text = runs ? hr_format_rate (hr_comparison_row_get_decode_tokens_per_s (row))
                    : g_strdup ("—");
        hr_ui_inscription_set_text (GTK_INSCRIPTION (child), text);
      }
      break;

    case CELL_MAX_CONTEXT:
      {
        GtkWidget *label = gtk_widget_get_first_child (child);
        GtkWidget *hint = gtk_widget_get_next_sibling (label);
        guint64 max_context = hr_comparison_row_get_max_context (row);
        gboolean unlimited = valid && max_context >= HR_CONTEXT_MAX;
        gboolean past_trained = !unlimited &&
                                hr_comparison_row_get_max_context_past_trained (row);
        g_autofree char *text = NULL;
        g_autofree char *tooltip = NULL;

        if (unlimited)
          {
            /* TRANSLATORS: max context of a model whose KV cache stops
             * growing (sliding-window attention only) */
            text = g_strdup (_("Unlimited"));
            if (hr_comparison_row_get_max_context_unbounded (row))
              tooltip = g_strdup (_("Every layer uses a sliding window: the KV cache stops "
                                    "growing past the window"));
            else
              {
                g_autofree char *max = format_tokens (HR_CONTEXT_MAX);

                /* TRANSLATORS: %s is "2,147,483,647 tokens" */
                tooltip = g_strdup_printf (_("More than %s fit"), max);
              }
          }
        else if (valid && max_context > 0)
          text = format_tokens (max_context);
        else
          text = g_strdup ("—");

        if (tooltip != NULL)
          ;
        else if (past_trained)
          {
            g_autofree char *trained = format_tokens (arch->max_context);

            /* TRANSLATORS: %s is the model's trained context, "32,768 tokens" */
            tooltip = g_strdup_printf (_("Memory allows more than the %s the model was "
                                         "trained for"), trained);
          }
        else if (valid && max_context == 0)
          tooltip = g_strdup (_("Does not fit at any context"));

        gtk_widget_set_visible (hint, past_trained);
        hr_ui_inscription_set_text (GTK_INSCRIPTION (label), text);
        hr_ui_set_cell_tooltip (child, tooltip);
      }
      break;

    case N_CELL_KINDS:
    default:
      g_assert_not_reached ();
    }
}

static GtkWidget *
create_cell (HrTableView *table,
             guint        kind)
{
  GtkWidget *child = NULL;

  switch (kind)
    {
    case CELL_MODEL:
      child = hr_table_cell_marked_new (22, 34);
      break;

    case CELL_PARAMS:
      /* "30.5B (3.3B active)" may shrink; "9.4B" never does. */
      child = hr_table_cell_number_new (19);
      g_object_set (child,
                    "min-chars", 14,
                    "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END,
                    NULL);
      break;

    case CELL_TOTAL:
      child = hr_table_cell_number_new (11);
      break;

    case CELL_FITS:
      child = hr_table_cell_verdict_new ();
      break;

    case CELL_DECODE:
      child = hr_table_cell_number_new (11);
      break;

    case CELL_MAX_CONTEXT:
      {
        /* A warning sign beside a max context past the trained one; the
         * cell's tooltip says what it means. */
        GtkWidget *hint = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
        GtkWidget *label = hr_table_cell_number_new (16);

        gtk_widget_add_css_class (hint, "warning");
        gtk_widget_set_halign (hint, GTK_ALIGN_START);
        gtk_accessible_update_property (GTK_ACCESSIBLE (hint), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                        _("Past the trained context"), -1);
        child = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
        gtk_box_append (GTK_BOX (child), label);
        gtk_box_append (GTK_BOX (child), hint);
      }
      break;

    case N_CELL_KINDS:
    default:
      g_assert_not_reached ();
    }

  return child;
}

/* Fits comfortably, then tight, then does not fit. */
static int
compare_verdicts (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  HrVerdict x = hr_comparison_row_get_verdict ((HrComparisonRow *) a);
  HrVerdict y = hr_comparison_row_get_verdict ((HrComparisonRow *) b);

  return (x > y) - (x < y);
}

static void
update_caption (HrCompareView *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  g_autofree char *caption = NULL;
  g_autofree char *context = NULL;
  g_autofree char *device = NULL;
  HrPrecision *precision;
  HrHardware *hardware;
  guint engine = HR_ENGINE_GENERIC;
  guint gpus;

  if (calculator == NULL)
    {
      gtk_label_set_text (self->caption_label, "");
      return;
    }

  precision = hr_calculator_get_precision (calculator);
  hardware = hr_calculator_get_hardware (calculator);
  gpus = hr_calculator_get_gpu_count (calculator);
  context = hr_format_tokens (hr_calculator_get_context (calculator));

  if (hardware == NULL)
    device = g_strdup ("—");
  else if (gpus > 1)
    /* TRANSLATORS: a number of identical GPUs and their name, "2 × RTX 3090 24GB" */
    device = g_strdup_printf (_("%u × %s"), gpus, hr_hardware_get_name (hardware));
  else
    device = g_strdup (hr_hardware_get_name (hardware));

  /* TRANSLATORS: caption above the model comparison: a precision
   * (e.g. Q4_K_M), a context in tokens (e.g. 32,768) and a device */
  caption = g_strdup_printf (_("Similar models at %s, %s tokens, on %s. "
                               "Double-click a model to use it."),
                             precision != NULL ? hr_precision_get_label (precision) : "—",
                             context, device);
  g_object_get (calculator, "engine-used", &engine, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->budget_label), hr_ui_engine_has_budget (engine));
  gtk_label_set_text (self->caption_label, caption);
}

/* Only the current model: nothing to compare it with. */
static gboolean
is_empty (HrTableView *table,
          guint        n_shown)
{
  return hr_table_view_get_rows (table) == NULL || n_shown <= 1;
}

static void
refresh (HrView *view)
{
  update_caption (HR_COMPARE_VIEW (view));
  HR_VIEW_CLASS (hr_compare_view_parent_class)->refresh (view);
}

static HrRowList *
create_rows (HrTableView  *table,
             HrCalculator *calculator)
{
  return HR_ROW_LIST (hr_comparison_new (calculator));
}

static void
column_view_activate_cb (HrCompareView *self,
                         guint          position,
                         GtkColumnView *column_view)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (column_view));
  g_autoptr(HrComparisonRow) row = g_list_model_get_item (model, position);

  if (row == NULL || calculator == NULL)
    return;
  hr_calculator_set_model (calculator, hr_comparison_row_get_model (row));
}

static void
hr_compare_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_COMPARE_VIEW);

  G_OBJECT_CLASS (hr_compare_view_parent_class)->dispose (object);
}

static void
hr_compare_view_class_init (HrCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  HrViewClass *view_class = HR_VIEW_CLASS (klass);
  HrTableViewClass *table_class = HR_TABLE_VIEW_CLASS (klass);

  object_class->dispose = hr_compare_view_dispose;

  view_class->refresh = refresh;

  table_class->create_rows = create_rows;
  table_class->create_cell = create_cell;
  table_class->update_cell = update_cell;
  table_class->is_empty = is_empty;

  g_type_ensure (HR_TYPE_MODEL_SPEC);
  g_type_ensure (HR_TYPE_COMPARISON_ROW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom_app/Headroom/"
                                               "ui/hr-compare-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, caption_label);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, status_label);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, budget_label);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, stack);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, column_view);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, sort_model);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, model_column);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, params_column);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, total_column);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, fits_column);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, decode_column);
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, max_context_column);
  gtk_widget_class_bind_template_callback (widget_class, column_view_activate_cb);
}

static void
hr_compare_view_init (HrCompareView *self)
{
  HrTableView *table = HR_TABLE_VIEW (self);
  g_autoptr(GtkCustomSorter) fits_sorter = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  hr_table_view_set_cell_factory (table, self->model_column, CELL_MODEL);
  hr_table_view_set_cell_factory (table, self->params_column, CELL_PARAMS);
  hr_table_view_set_cell_factory (table, self->total_column, CELL_TOTAL);
  hr_table_view_set_cell_factory (table, self->fits_column, CELL_FITS);
  hr_table_view_set_cell_factory (table, self->decode_column, CELL_DECODE);
  hr_table_view_set_cell_factory (table, self->max_context_column, CELL_MAX_CONTEXT);

  fits_sorter = gtk_custom_sorter_new (compare_verdicts, NULL, NULL);
  gtk_column_view_column_set_sorter (self->fits_column, GTK_SORTER (fits_sorter));

  hr_table_view_set_status_label (table, self->status_label);
  hr_table_view_set_column_view (table, self->column_view, self->sort_model, NULL, self->stack);
}

GtkWidget *
hr_compare_view_new (void)
{
  return g_object_new (HR_TYPE_COMPARE_VIEW, NULL);
}

/**
 * hr_compare_view_get_comparison:
 *
 * Returns: (transfer none) (nullable): the comparison shown
 */
HrComparison *
hr_compare_view_get_comparison (HrCompareView *self)
{
  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), NULL);
  return HR_COMPARISON (hr_table_view_get_rows (HR_TABLE_VIEW (self)));
}
