/* hr-serving-group.c — the sidebar's serving controls (vLLM, SGLang)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Machines, GPUs per machine, users and the target are bound to the
 * calculator both ways.  Tensor and pipeline parallelism are combo rows
 * offering only what the engine runs: TP sizes that divide the GPUs and
 * the model's heads, PP sizes that divide what TP leaves (at most a
 * stage a layer); data parallelism is the rest, shown.  A TP size the
 * heads do not divide (a machine of 3 GPUs) is kept in the list and the
 * row says why vLLM refuses it.  The group shows only for vLLM and
 * SGLang.
 */

#define G_LOG_DOMAIN "hr-serving-group"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-engine.h"
#include "hr-serving-group.h"

struct _HrServingGroup
{
  AdwBin parent_instance;

  HrCalculator *calculator;
  GPtrArray *bindings;
  GArray *tp_values;
  GArray *pp_values;
  gboolean syncing;

  /* template children */
  GtkAdjustment *nodes_adjustment;
  GtkAdjustment *per_node_adjustment;
  GtkAdjustment *users_adjustment;
  GtkAdjustment *target_adjustment;
  AdwComboRow *tp_row;
  AdwComboRow *pp_row;
  GtkStringList *tp_list;
  GtkStringList *pp_list;
  GtkLabel *dp_label;
};

G_DEFINE_FINAL_TYPE (HrServingGroup, hr_serving_group, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_CALCULATOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Shows @values in @list (rebuilt only when they changed: this runs on
 * every slider step) and selects @current. */
static void
set_choices (GtkStringList *list,
             AdwComboRow   *row,
             GArray        *values,
             guint          current)
{
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));
  gboolean same = n == values->len;
  guint position = 0;

  for (guint i = 0; i < values->len; i++)
    {
      guint v = g_array_index (values, guint, i);
      char *text = g_strdup_printf ("%u", v);

      same = same && g_strcmp0 (gtk_string_list_get_string (list, i), text) == 0;
      g_ptr_array_add (strings, text);
      if (v == current)
        position = i;
    }
  g_ptr_array_add (strings, NULL);
  if (!same)
    gtk_string_list_splice (list, 0, n, (const char * const *) strings->pdata);
  if (adw_combo_row_get_selected (row) != position)
    adw_combo_row_set_selected (row, position);
}

static void
sync_choices (HrServingGroup *self)
{
  HrModelSpec *model;
  const HrModelArch *arch;
  guint gpus, tp, pp, rest;
  gboolean tp_valid;

  if (self->calculator == NULL || (model = hr_calculator_get_model (self->calculator)) == NULL)
    return;
  arch = hr_model_spec_get_arch (model);
  gpus = hr_calculator_get_gpu_count (self->calculator);
  tp = hr_calculator_get_tp (self->calculator);
  pp = hr_calculator_get_pp (self->calculator);
  rest = gpus / tp;
  tp_valid = hr_vllm_tp_valid (arch, tp);

  self->syncing = TRUE;
  g_array_set_size (self->tp_values, 0);
  for (guint t = 1; t <= gpus; t++)
    if (gpus % t == 0 && (hr_vllm_tp_valid (arch, t) || t == tp))
      g_array_append_val (self->tp_values, t);
  set_choices (self->tp_list, self->tp_row, self->tp_values, tp);

  g_array_set_size (self->pp_values, 0);
  for (guint p = 1; p <= rest && p <= arch->n_layers; p++)
    if (rest % p == 0)
      g_array_append_val (self->pp_values, p);
  set_choices (self->pp_list, self->pp_row, self->pp_values, pp);
  self->syncing = FALSE;

  if (tp_valid)
    {
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->tp_row),
                                   _("GPUs that split every layer"));
      gtk_widget_remove_css_class (GTK_WIDGET (self->tp_row), "error");
    }
  else
    {
      g_autofree char *why =
        /* TRANSLATORS: "32 heads and 8 KV heads do not split over 3 GPUs: vLLM and SGLang refuse it" */
        g_strdup_printf (_("%u heads and %u KV heads do not split over %u GPUs: vLLM and "
                           "SGLang refuse it"), arch->n_heads, arch->n_kv_heads, tp);

      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->tp_row), why);
      gtk_widget_add_css_class (GTK_WIDGET (self->tp_row), "error");
    }

  {
    g_autofree char *dp = g_strdup_printf ("%u", hr_calculator_get_dp (self->calculator));
    gtk_label_set_label (self->dp_label, dp);
  }
}

/**
 * hr_serving_group_shows_for:
 * @engine_used: the #HrEngine that answers (Automatic's pick)
 *
 * Whether the group shows: for the serving engines, vLLM and SGLang,
 * which count machines × GPUs here instead of the sidebar's GPU row.
 */
gboolean
hr_serving_group_shows_for (guint engine_used)
{
  return engine_used == HR_ENGINE_VLLM || engine_used == HR_ENGINE_SGLANG;
}

static void
sync_visible (HrServingGroup *self)
{
  guint engine = HR_ENGINE_GENERIC;

  if (self->calculator != NULL)
    g_object_get (self->calculator, "engine-used", &engine, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self), hr_serving_group_shows_for (engine));
}

static void
on_tp_selected (HrServingGroup *self)
{
  guint i = adw_combo_row_get_selected (self->tp_row);

  if (self->syncing || self->calculator == NULL || i >= self->tp_values->len)
    return;
  hr_calculator_set_tp (self->calculator, g_array_index (self->tp_values, guint, i));
}

static void
on_pp_selected (HrServingGroup *self)
{
  guint i = adw_combo_row_get_selected (self->pp_row);

  if (self->syncing || self->calculator == NULL || i >= self->pp_values->len)
    return;
  hr_calculator_set_pp (self->calculator, g_array_index (self->pp_values, guint, i));
}

static void
unbind (HrServingGroup *self)
{
  for (guint i = 0; i < self->bindings->len; i++)
    g_binding_unbind (g_ptr_array_index (self->bindings, i));
  g_ptr_array_set_size (self->bindings, 0);
  if (self->calculator != NULL)
    g_signal_handlers_disconnect_by_data (self->calculator, self);
}

static void
hr_serving_group_dispose (GObject *object)
{
  HrServingGroup *self = HR_SERVING_GROUP (object);

  unbind (self);
  g_clear_object (&self->calculator);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_SERVING_GROUP);
  G_OBJECT_CLASS (hr_serving_group_parent_class)->dispose (object);
}

static void
hr_serving_group_finalize (GObject *object)
{
  HrServingGroup *self = HR_SERVING_GROUP (object);

  g_ptr_array_unref (self->bindings);
  g_array_unref (self->tp_values);
  g_array_unref (self->pp_values);
  G_OBJECT_CLASS (hr_serving_group_parent_class)->finalize (object);
}

static void
hr_serving_group_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_CALCULATOR:
      g_value_set_object (value, HR_SERVING_GROUP (object)->calculator);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_serving_group_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_CALCULATOR:
      hr_serving_group_set_calculator (HR_SERVING_GROUP (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_serving_group_class_init (HrServingGroupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_serving_group_dispose;
  object_class->finalize = hr_serving_group_finalize;
  object_class->get_property = hr_serving_group_get_property;
  object_class->set_property = hr_serving_group_set_property;

  properties[PROP_CALCULATOR] =
    g_param_spec_object ("calculator", NULL, NULL, HR_TYPE_CALCULATOR,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom_app/Headroom/ui/hr-serving-group.ui");
  gtk_widget_class_bind_template_child (widget_class, HrServingGroup, nodes_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrServingGroup, per_node_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrServingGroup, users_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrServingGroup, target_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrServingGroup, tp_row);
  gtk_widget_class_bind_template_child (widget_class, HrServingGroup, pp_row);
  gtk_widget_class_bind_template_child (widget_class, HrServingGroup, tp_list);
  gtk_widget_class_bind_template_child (widget_class, HrServingGroup, pp_list);
  gtk_widget_class_bind_template_child (widget_class, HrServingGroup, dp_label);
  gtk_widget_class_bind_template_callback (widget_class, on_tp_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_pp_selected);
}

static void
hr_serving_group_init (HrServingGroup *self)
{
  self->bindings = g_ptr_array_new ();
  self->tp_values = g_array_new (FALSE, FALSE, sizeof (guint));
  self->pp_values = g_array_new (FALSE, FALSE, sizeof (guint));
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

HrCalculator *
hr_serving_group_get_calculator (HrServingGroup *self)
{
  g_return_val_if_fail (HR_IS_SERVING_GROUP (self), NULL);
  return self->calculator;
}

void
hr_serving_group_set_calculator (HrServingGroup *self,
                                 HrCalculator   *calculator)
{
  static const struct { const char *property; gsize adjustment; } bound[] = {
    { "nodes", G_STRUCT_OFFSET (HrServingGroup, nodes_adjustment) },
    { "gpus-per-node", G_STRUCT_OFFSET (HrServingGroup, per_node_adjustment) },
    { "users", G_STRUCT_OFFSET (HrServingGroup, users_adjustment) },
    { "target-tokens-per-s", G_STRUCT_OFFSET (HrServingGroup, target_adjustment) },
  };

  g_return_if_fail (HR_IS_SERVING_GROUP (self));
  g_return_if_fail (calculator == NULL || HR_IS_CALCULATOR (calculator));

  if (self->calculator == calculator)
    return;
  unbind (self);
  g_set_object (&self->calculator, calculator);
  if (calculator != NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (bound); i++)
        {
          GtkAdjustment *adjustment = *(GtkAdjustment **) ((guint8 *) self + bound[i].adjustment);

          g_ptr_array_add (self->bindings,
                           g_object_bind_property (calculator, bound[i].property, adjustment,
                                                   "value",
                                                   G_BINDING_BIDIRECTIONAL |
                                                   G_BINDING_SYNC_CREATE));
        }
      g_signal_connect_object (calculator, "changed", G_CALLBACK (sync_choices), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (calculator, "notify::engine-used", G_CALLBACK (sync_visible),
                               self, G_CONNECT_SWAPPED);
    }
  sync_choices (self);
  sync_visible (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CALCULATOR]);
}

/* The TP and PP sizes offered, as shown. */
GListModel *
hr_serving_group_get_tp_choices (HrServingGroup *self)
{
  g_return_val_if_fail (HR_IS_SERVING_GROUP (self), NULL);
  return G_LIST_MODEL (self->tp_list);
}

GListModel *
hr_serving_group_get_pp_choices (HrServingGroup *self)
{
  g_return_val_if_fail (HR_IS_SERVING_GROUP (self), NULL);
  return G_LIST_MODEL (self->pp_list);
}
