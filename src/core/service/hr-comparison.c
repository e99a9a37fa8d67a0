/* hr-comparison.c — similar models at the current settings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seed page's “compare similar open-weight models of similar scale”:
 * every catalog model of the same family or within a factor of two in
 * size, run with the calculator's precision, context, KV type and device.
 */

#define G_LOG_DOMAIN "hr-comparison"

#include "config.h"

#include "hr-comparison.h"
#include "hr-fields.h"

struct _HrComparisonRow
{
  GObject parent_instance;

  HrModelSpec *model;
  guint64 total_bytes;
  guint64 per_device_bytes;
  guint64 max_context;
  gboolean max_context_unbounded;
  gboolean max_context_past_trained;
  double decode_tokens_per_s;
  double params;
  gboolean is_current;
  gboolean valid;
  HrVerdict verdict;
  HrPlacementKind placement;   /* some layers in system RAM: its own verdict name */
  HrEngine engine;             /* the profile that answered */
  double max_concurrency;      /* vLLM, SGLang */
  guint64 kv_capacity_tokens;
  guint64 context;
};

struct _HrComparison
{
  HrRowList parent_instance;

  HrModelSpec *reference;     /* the model the rows were chosen for */
};

G_DEFINE_FINAL_TYPE (HrComparisonRow, hr_comparison_row, G_TYPE_OBJECT)
G_DEFINE_FINAL_TYPE (HrComparison, hr_comparison, HR_TYPE_ROW_LIST)

enum {
  ROW_PROP_0,
  ROW_PROP_MODEL,
  ROW_PROP_VERDICT,
  ROW_N_FIXED_PROPS
};

static const HrField row_fields[] = {
  HR_FIELD (HrComparisonRow, "total_bytes", HR_FIELD_U64, FALSE, 0, total_bytes, "Total memory"),
  HR_FIELD (HrComparisonRow, "per_device_bytes", HR_FIELD_U64, FALSE, 0, per_device_bytes,
            "Per-device memory"),
  HR_FIELD (HrComparisonRow, "max_context", HR_FIELD_U64, FALSE, 0, max_context,
            "Largest context that fits"),
  HR_FIELD (HrComparisonRow, "max_context_unbounded", HR_FIELD_BOOL, FALSE, 0,
            max_context_unbounded, "Only sliding-window layers: the cache stops growing"),
  HR_FIELD (HrComparisonRow, "max_context_past_trained", HR_FIELD_BOOL, FALSE, 0,
            max_context_past_trained, "Memory allows more than the trained context"),
  HR_FIELD (HrComparisonRow, "decode_tokens_per_s", HR_FIELD_DOUBLE, FALSE, 0,
            decode_tokens_per_s, "Single-stream decode"),
  HR_FIELD (HrComparisonRow, "params", HR_FIELD_DOUBLE, FALSE, 0, params, "Total parameters"),
  HR_FIELD (HrComparisonRow, "is_current", HR_FIELD_BOOL, FALSE, 0, is_current,
            "The calculator's model"),
  HR_FIELD (HrComparisonRow, "valid", HR_FIELD_BOOL, FALSE, 0, valid, "Estimate succeeded"),
};

static GParamSpec *row_properties[ROW_N_FIXED_PROPS];
static GParamSpec *row_field_properties[G_N_ELEMENTS (row_fields)];

static void
hr_comparison_row_dispose (GObject *object)
{
  g_clear_object (&HR_COMPARISON_ROW (object)->model);
  G_OBJECT_CLASS (hr_comparison_row_parent_class)->dispose (object);
}

static void
hr_comparison_row_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  HrComparisonRow *self = HR_COMPARISON_ROW (object);

  switch (prop_id)
    {
    case ROW_PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    case ROW_PROP_VERDICT:
      g_value_set_enum (value, self->verdict);
      break;
    default:
      if (!hr_fields_get_property (self, ROW_N_FIXED_PROPS, row_fields,
                                   G_N_ELEMENTS (row_fields), prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_comparison_row_class_init (HrComparisonRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = hr_comparison_row_dispose;
  object_class->get_property = hr_comparison_row_get_property;

  row_properties[ROW_PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, HR_TYPE_MODEL_SPEC, flags);
  row_properties[ROW_PROP_VERDICT] =
    g_param_spec_enum ("verdict", NULL, NULL, HR_TYPE_VERDICT, HR_VERDICT_NO_FIT, flags);
  g_object_class_install_properties (object_class, ROW_N_FIXED_PROPS, row_properties);
  hr_fields_install_properties (object_class, ROW_N_FIXED_PROPS, row_fields,
                                G_N_ELEMENTS (row_fields), row_field_properties);
}

static void
hr_comparison_row_init (HrComparisonRow *self)
{
}

static void
row_update (HrComparisonRow  *self,
            const HrScenario *base)
{
  HrScenario scenario = *base;
  HrEstimate estimate;
  HrComparisonRow previous = *self;

  scenario.model = self->model;
  self->valid = hr_scenario_estimate (&scenario, &estimate, NULL);
  self->total_bytes = estimate.total_bytes;
  self->per_device_bytes = estimate.per_device_bytes;
  self->max_context = estimate.max_context;
  self->max_context_unbounded = self->valid && estimate.max_context_unbounded;
  self->max_context_past_trained = self->valid && estimate.max_context_past_trained;
  self->decode_tokens_per_s = estimate.decode_tokens_per_s;
  self->verdict = self->valid ? estimate.verdict : HR_VERDICT_NO_FIT;
  self->placement = self->valid ? estimate.placement : HR_PLACEMENT_GPU;
  self->engine = hr_scenario_engine (&scenario);
  self->max_concurrency = estimate.max_concurrency;
  self->kv_capacity_tokens = estimate.kv_capacity_tokens;
  self->context = scenario.context;
  self->is_current = self->model == base->model;

  hr_fields_notify_changes (self, &previous, row_fields, G_N_ELEMENTS (row_fields),
                            row_field_properties);
  if (previous.verdict != self->verdict || previous.placement != self->placement)
    g_object_notify_by_pspec (G_OBJECT (self), row_properties[ROW_PROP_VERDICT]);
}

gboolean
hr_comparison_is_similar (HrModelSpec *reference,
                          HrModelSpec *candidate)
{
  double a, b;

  g_return_val_if_fail (HR_IS_MODEL_SPEC (reference), FALSE);
  g_return_val_if_fail (HR_IS_MODEL_SPEC (candidate), FALSE);

  if (reference == candidate ||
      g_strcmp0 (hr_model_spec_get_family (reference),
                 hr_model_spec_get_family (candidate)) == 0)
    return TRUE;

  a = hr_model_spec_get_arch (reference)->params_total;
  b = hr_model_spec_get_arch (candidate)->params_total;
  return b <= a * HR_COMPARISON_SIZE_FACTOR && b >= a / HR_COMPARISON_SIZE_FACTOR;
}

static int
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const HrComparisonRow *x = *(HrComparisonRow * const *) a;
  const HrComparisonRow *y = *(HrComparisonRow * const *) b;

  return (x->params > y->params) - (x->params < y->params);
}

/* Chooses the rows for the calculator's model, smallest first. */
static void
rebuild (HrComparison *self)
{
  HrCalculator *calculator = hr_row_list_get_calculator (HR_ROW_LIST (self));
  HrModelSpec *reference = hr_calculator_get_model (calculator);
  GListModel *models = hr_catalog_get_models (hr_calculator_get_catalog (calculator));
  const HrScenario *base = hr_calculator_get_scenario (calculator);
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  g_set_object (&self->reference, reference);

  if (reference != NULL)
    {
      for (guint i = 0; i < g_list_model_get_n_items (models); i++)
        {
          g_autoptr(HrModelSpec) model = g_list_model_get_item (models, i);
          HrComparisonRow *row;

          if (!hr_comparison_is_similar (reference, model))
            continue;
          row = g_object_new (HR_TYPE_COMPARISON_ROW, NULL);
          row->model = g_object_ref (model);
          row->params = hr_model_spec_get_arch (model)->params_total;
          row_update (row, base);
          g_ptr_array_add (rows, row);
        }
      g_ptr_array_sort (rows, compare_rows);
    }

  hr_row_list_replace_rows (HR_ROW_LIST (self), rows);
}

/* A new model chooses new rows; anything else updates them in place. */
static void
refresh (HrRowList *list)
{
  HrComparison *self = HR_COMPARISON (list);
  HrCalculator *calculator = hr_row_list_get_calculator (list);
  const HrScenario *base = hr_calculator_get_scenario (calculator);
  GPtrArray *rows = hr_row_list_get_rows (list);

  if (hr_calculator_get_model (calculator) != self->reference)
    {
      rebuild (self);
      return;
    }

  for (guint i = 0; i < rows->len; i++)
    row_update (rows->pdata[i], base);
  hr_row_list_refreshed (list);
}

static void
hr_comparison_dispose (GObject *object)
{
  g_clear_object (&HR_COMPARISON (object)->reference);
  G_OBJECT_CLASS (hr_comparison_parent_class)->dispose (object);
}

static void
hr_comparison_class_init (HrComparisonClass *klass)
{
  HrRowListClass *list_class = HR_ROW_LIST_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = hr_comparison_dispose;
  list_class->row_type = HR_TYPE_COMPARISON_ROW;
  list_class->refresh = refresh;
}

static void
hr_comparison_init (HrComparison *self)
{
}

HrComparison *
hr_comparison_new (HrCalculator *calculator)
{
  HrComparison *self;

  g_return_val_if_fail (HR_IS_CALCULATOR (calculator), NULL);

  self = g_object_new (HR_TYPE_COMPARISON, NULL);
  hr_row_list_set_calculator (HR_ROW_LIST (self), calculator);
  rebuild (self);
  return self;
}

#define ROW_GETTER(type, name, fallback) \
  type \
  hr_comparison_row_get_##name (HrComparisonRow *self) \
  { \
    g_return_val_if_fail (HR_IS_COMPARISON_ROW (self), fallback); \
    return self->name; \
  }

ROW_GETTER (HrModelSpec *, model, NULL)
ROW_GETTER (guint64, total_bytes, 0)
ROW_GETTER (guint64, per_device_bytes, 0)
ROW_GETTER (HrVerdict, verdict, HR_VERDICT_NO_FIT)
ROW_GETTER (HrPlacementKind, placement, HR_PLACEMENT_GPU)
ROW_GETTER (double, decode_tokens_per_s, 0)
ROW_GETTER (guint64, max_context, 0)
ROW_GETTER (gboolean, max_context_unbounded, FALSE)
ROW_GETTER (gboolean, max_context_past_trained, FALSE)
ROW_GETTER (gboolean, is_current, FALSE)
/* The engine that answered; with vLLM and SGLang the total is a fixed
 * budget and the KV cache's capacity is what differs between models. */
ROW_GETTER (HrEngine, engine, HR_ENGINE_GENERIC)
ROW_GETTER (double, max_concurrency, 0)
ROW_GETTER (guint64, kv_capacity_tokens, 0)
ROW_GETTER (guint64, context, 0)
