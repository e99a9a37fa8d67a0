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
  AdwBin parent_instance;

  HrCalculator *calculator;
  HrComparison *comparison;
  guint units;

  /* GtkListItem → CellKind, for every cell currently bound */
  GHashTable *bound_cells;

  /* template children */
  GtkLabel *caption_label;
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

G_DEFINE_FINAL_TYPE (HrCompareView, hr_compare_view, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_CALCULATOR,
  PROP_UNITS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

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
set_verdict_class (GtkWidget *widget,
                   HrVerdict  verdict,
                   gboolean   valid)
{
  g_autofree char *css_class = hr_ui_verdict_css_class (NULL, verdict);

  hr_ui_set_state_class (widget, valid ? css_class : NULL);
}

static void
update_cell (HrCompareView *self,
             GtkListItem   *list_item,
             CellKind       kind)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);
  HrComparisonRow *row = gtk_list_item_get_item (list_item);
  HrModelSpec *model;
  const HrModelArch *arch;
  gboolean valid;

  if (row == NULL)
    return;

  model = hr_comparison_row_get_model (row);
  arch = hr_model_spec_get_arch (model);
  valid = row_is_valid (row);

  switch (kind)
    {
    case CELL_MODEL:
      {
        GtkWidget *icon = gtk_widget_get_first_child (child);
        GtkWidget *name = gtk_widget_get_next_sibling (icon);
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

        hr_ui_inscription_set_markup (GTK_INSCRIPTION (name), markup);
        /* In full when the column is too narrow for it. */
        hr_ui_set_cell_tooltip (name, hr_model_spec_get_name (model));
        /* The icon keeps its place on every row so that names align. */
        gtk_widget_set_opacity (icon, current ? 1.0 : 0.0);
        hr_ui_set_cell_tooltip (icon, current ? _("Current model") : NULL);
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

        text = valid ? hr_format_size (total, self->units) : g_strdup ("—");
        if (valid && per_device != total)
          {
            g_autofree char *size = hr_format_size (per_device, self->units);

            /* TRANSLATORS: with several GPUs, what each one holds, "4.12 GiB" */
            tooltip = g_strdup_printf (_("%s on each device"), size);
          }
        hr_ui_inscription_set_text (GTK_INSCRIPTION (child), text);
        hr_ui_set_cell_tooltip (child, tooltip);
      }
      break;

    case CELL_FITS:
      {
        GtkWidget *icon = gtk_widget_get_first_child (child);
        GtkWidget *label = gtk_widget_get_next_sibling (icon);
        HrVerdict verdict = hr_comparison_row_get_verdict (row);
        g_autofree char *icon_name = hr_ui_verdict_icon (NULL, verdict);
        g_autofree char *text = NULL;

        text = valid ? hr_ui_format_verdict (NULL, verdict) : g_strdup (_("Cannot estimate"));
        hr_ui_image_set_icon_name (GTK_IMAGE (icon), valid ? icon_name : NULL);
        hr_ui_inscription_set_text (GTK_INSCRIPTION (label), text);
        set_verdict_class (child, verdict, valid);
      }
      break;

    case CELL_DECODE:
      {
        g_autofree char *text = NULL;

        text = valid ? hr_format_rate (hr_comparison_row_get_decode_tokens_per_s (row))
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

static void
update_all_cells (HrCompareView *self)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->bound_cells);
  while (g_hash_table_iter_next (&iter, &key, &value))
    update_cell (self, key, GPOINTER_TO_UINT (value));
}

static GtkWidget *
number_inscription_new (int chars)
{
  GtkWidget *inscription = gtk_inscription_new (NULL);

  g_object_set (inscription, "min-chars", chars, "nat-chars", chars, "xalign", 1.0f, NULL);
  gtk_widget_add_css_class (inscription, "numeric");
  return inscription;
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               HrCompareView            *self)
{
  CellKind kind = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "hr-cell"));
  GtkWidget *child = NULL;

  switch (kind)
    {
    case CELL_MODEL:
      {
        GtkWidget *name = gtk_inscription_new (NULL);

        g_object_set (name,
                      "hexpand", TRUE,
                      "min-chars", 22,
                      "nat-chars", 34,
                      "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END,
                      NULL);
        child = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
        gtk_box_append (GTK_BOX (child), gtk_image_new_from_icon_name ("object-select-symbolic"));
        gtk_box_append (GTK_BOX (child), name);
      }
      break;

    case CELL_PARAMS:
      /* "30.5B (3.3B active)" may shrink; "9.4B" never does. */
      child = number_inscription_new (19);
      g_object_set (child,
                    "min-chars", 14,
                    "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END,
                    NULL);
      break;

    case CELL_TOTAL:
      child = number_inscription_new (11);
      break;

    case CELL_FITS:
      {
        GtkWidget *label = gtk_inscription_new (NULL);

        g_object_set (label,
                      "hexpand", TRUE,
                      "min-chars", 17,
                      "nat-chars", 17,
                      "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END,
                      NULL);
        child = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
        gtk_box_append (GTK_BOX (child), gtk_image_new ());
        gtk_box_append (GTK_BOX (child), label);
      }
      break;

    case CELL_DECODE:
      child = number_inscription_new (11);
      break;

    case CELL_MAX_CONTEXT:
      {
        /* A warning sign beside a max context past the trained one; the
         * cell's tooltip says what it means. */
        GtkWidget *hint = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
        GtkWidget *label = number_inscription_new (16);

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

  gtk_list_item_set_child (list_item, child);
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              HrCompareView            *self)
{
  CellKind kind = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "hr-cell"));

  g_hash_table_insert (self->bound_cells, list_item, GUINT_TO_POINTER (kind));
  update_cell (self, list_item, kind);
}

static void
unbind_cell_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                HrCompareView            *self)
{
  g_hash_table_remove (self->bound_cells, list_item);
}

static void
set_cell_factory (HrCompareView       *self,
                  GtkColumnViewColumn *column,
                  CellKind             kind)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  g_object_set_data (G_OBJECT (factory), "hr-cell", GUINT_TO_POINTER (kind));
  g_signal_connect_object (factory, "setup", G_CALLBACK (setup_cell_cb), self, 0);
  g_signal_connect_object (factory, "bind", G_CALLBACK (bind_cell_cb), self, 0);
  g_signal_connect_object (factory, "unbind", G_CALLBACK (unbind_cell_cb), self, 0);
  gtk_column_view_column_set_factory (column, factory);
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
  g_autofree char *caption = NULL;
  g_autofree char *context = NULL;
  g_autofree char *device = NULL;
  HrPrecision *precision;
  HrHardware *hardware;
  guint gpus;

  if (self->calculator == NULL)
    {
      gtk_label_set_text (self->caption_label, "");
      return;
    }

  precision = hr_calculator_get_precision (self->calculator);
  hardware = hr_calculator_get_hardware (self->calculator);
  gpus = hr_calculator_get_gpu_count (self->calculator);
  context = hr_format_tokens (hr_calculator_get_context (self->calculator));

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
  gtk_label_set_text (self->caption_label, caption);
}

/* Only the current model: nothing to compare it with. */
static void
update_empty_state (HrCompareView *self)
{
  gboolean empty = self->comparison == NULL ||
                   g_list_model_get_n_items (G_LIST_MODEL (self->comparison)) <= 1;

  gtk_stack_set_visible_child_name (self->stack, empty ? "empty" : "table");
}

/* The model updated its rows in place: show the new values and re-sort,
 * without rebinding rows (which would cost milliseconds per step). */
static void
model_refreshed_cb (HrCompareView *self)
{
  GtkSorter *sorter = gtk_column_view_get_sorter (self->column_view);

  update_all_cells (self);
  /* Unsorted, a re-sort would only rebind every row. */
  if (sorter != NULL && gtk_sorter_get_order (sorter) != GTK_SORTER_ORDER_NONE)
    gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);
}

static void
comparison_items_changed_cb (HrCompareView *self,
                             guint          position,
                             guint          removed,
                             guint          added,
                             GListModel    *model)
{
  update_empty_state (self);
  /* Rows are updated in place: the column view may keep the same
   * widgets for the same items, so refresh what they show. */
  update_all_cells (self);
}

static void
calculator_changed_cb (HrCompareView *self)
{
  update_caption (self);
}

static void
column_view_activate_cb (HrCompareView *self,
                         guint          position,
                         GtkColumnView *column_view)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (column_view));
  g_autoptr(HrComparisonRow) row = g_list_model_get_item (model, position);

  if (row == NULL || self->calculator == NULL)
    return;
  hr_calculator_set_model (self->calculator, hr_comparison_row_get_model (row));
}

static void
hr_compare_view_dispose (GObject *object)
{
  HrCompareView *self = HR_COMPARE_VIEW (object);

  if (self->comparison != NULL)
    g_signal_handlers_disconnect_by_data (self->comparison, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_COMPARE_VIEW);

  g_clear_pointer (&self->bound_cells, g_hash_table_unref);
  g_clear_object (&self->comparison);
  g_clear_object (&self->calculator);

  G_OBJECT_CLASS (hr_compare_view_parent_class)->dispose (object);
}

static void
hr_compare_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  HrCompareView *self = HR_COMPARE_VIEW (object);

  switch (prop_id)
    {
    case PROP_CALCULATOR:
      g_value_set_object (value, self->calculator);
      break;
    case PROP_UNITS:
      g_value_set_uint (value, self->units);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_compare_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  HrCompareView *self = HR_COMPARE_VIEW (object);

  switch (prop_id)
    {
    case PROP_CALCULATOR:
      hr_compare_view_set_calculator (self, g_value_get_object (value));
      break;
    case PROP_UNITS:
      hr_compare_view_set_units (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_compare_view_class_init (HrCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_compare_view_dispose;
  object_class->get_property = hr_compare_view_get_property;
  object_class->set_property = hr_compare_view_set_property;

  properties[PROP_CALCULATOR] =
    g_param_spec_object ("calculator", NULL, NULL,
                         HR_TYPE_CALCULATOR,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNITS] =
    g_param_spec_uint ("units", NULL, "0 = GiB, 1 = GB",
                       HR_UNITS_BINARY, HR_UNITS_DECIMAL, HR_UNITS_BINARY,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (HR_TYPE_MODEL_SPEC);
  g_type_ensure (HR_TYPE_COMPARISON_ROW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom_app/Headroom/"
                                               "ui/hr-compare-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrCompareView, caption_label);
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
  g_autoptr(GtkCustomSorter) fits_sorter = NULL;

  self->bound_cells = g_hash_table_new (NULL, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));

  set_cell_factory (self, self->model_column, CELL_MODEL);
  set_cell_factory (self, self->params_column, CELL_PARAMS);
  set_cell_factory (self, self->total_column, CELL_TOTAL);
  set_cell_factory (self, self->fits_column, CELL_FITS);
  set_cell_factory (self, self->decode_column, CELL_DECODE);
  set_cell_factory (self, self->max_context_column, CELL_MAX_CONTEXT);

  fits_sorter = gtk_custom_sorter_new (compare_verdicts, NULL, NULL);
  gtk_column_view_column_set_sorter (self->fits_column, GTK_SORTER (fits_sorter));

  gtk_sort_list_model_set_sorter (self->sort_model, gtk_column_view_get_sorter (self->column_view));
  update_empty_state (self);
}

GtkWidget *
hr_compare_view_new (void)
{
  return g_object_new (HR_TYPE_COMPARE_VIEW, NULL);
}

HrCalculator *
hr_compare_view_get_calculator (HrCompareView *self)
{
  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), NULL);
  return self->calculator;
}

/**
 * hr_compare_view_set_calculator:
 * @calculator: (nullable): the calculator to follow
 *
 * Creates a comparison for @calculator and shows it.
 */
void
hr_compare_view_set_calculator (HrCompareView *self,
                                HrCalculator  *calculator)
{
  g_return_if_fail (HR_IS_COMPARE_VIEW (self));
  g_return_if_fail (calculator == NULL || HR_IS_CALCULATOR (calculator));

  if (self->calculator == calculator)
    return;

  if (self->comparison != NULL)
    g_signal_handlers_disconnect_by_data (self->comparison, self);
  if (self->calculator != NULL)
    g_signal_handlers_disconnect_by_data (self->calculator, self);
  gtk_sort_list_model_set_model (self->sort_model, NULL);
  g_clear_object (&self->comparison);
  g_set_object (&self->calculator, calculator);

  if (calculator != NULL)
    {
      g_signal_connect_object (calculator, "changed",
                               G_CALLBACK (calculator_changed_cb), self, G_CONNECT_SWAPPED);
      self->comparison = hr_comparison_new (calculator);
      g_signal_connect_object (self->comparison, "items-changed",
                               G_CALLBACK (comparison_items_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->comparison, "refreshed",
                               G_CALLBACK (model_refreshed_cb), self, G_CONNECT_SWAPPED);
    }

  update_caption (self);
  gtk_sort_list_model_set_model (self->sort_model, G_LIST_MODEL (self->comparison));
  update_empty_state (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CALCULATOR]);
}

guint
hr_compare_view_get_units (HrCompareView *self)
{
  g_return_val_if_fail (HR_IS_COMPARE_VIEW (self), HR_UNITS_BINARY);
  return self->units;
}

void
hr_compare_view_set_units (HrCompareView *self,
                           guint          units)
{
  g_return_if_fail (HR_IS_COMPARE_VIEW (self));
  g_return_if_fail (units <= HR_UNITS_DECIMAL);

  if (self->units == units)
    return;

  self->units = units;
  update_all_cells (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNITS]);
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
  return self->comparison;
}
