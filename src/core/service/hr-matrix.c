/* hr-matrix.c — precision × context table following a calculator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One row per precision, one cell per context, each cell one estimate of
 * the calculator's scenario with that precision and context; the row's
 * tier is the first device of the catalog's ladder that holds the middle
 * context.  Rows are kept and updated in place; after a refresh the whole
 * range is reported changed so that sorted views re-sort.  A matrix that
 * includes the current precision (the window's) adds a row for it, in
 * order of bits per weight, when it is not among the chosen ones.
 */

#define G_LOG_DOMAIN "hr-matrix"

#include "config.h"

#include "hr-defaults.h"
#include "hr-matrix.h"

#define MAX_CONTEXTS 16

typedef struct
{
  guint64 total_bytes;
  HrVerdict verdict;
  HrPlacementKind placement; /* some layers in system RAM: its own verdict name */
  gboolean valid;
  HrEngine engine;           /* the profile that answered */
  double max_concurrency;    /* vLLM, SGLang: sequences of the context at once */
  guint64 kv_capacity_tokens;
} Cell;

struct _HrMatrixRow
{
  GObject parent_instance;

  HrPrecision *precision;
  guint64 weights_bytes;
  Cell cells[MAX_CONTEXTS];
  HrHardware *tier;
};

struct _HrMatrix
{
  HrRowList parent_instance;

  guint64 contexts[MAX_CONTEXTS];
  guint n_contexts;
  GPtrArray *chosen;          /* HrPrecision: the rows asked for */
  gboolean include_current;
  HrPrecision *extra;         /* borrowed: the current precision's own row */
};

G_DEFINE_FINAL_TYPE (HrMatrixRow, hr_matrix_row, G_TYPE_OBJECT)
G_DEFINE_FINAL_TYPE (HrMatrix, hr_matrix, HR_TYPE_ROW_LIST)

enum {
  ROW_PROP_0,
  ROW_PROP_PRECISION,
  ROW_PROP_LABEL,
  ROW_PROP_BPW,
  ROW_PROP_WEIGHTS_BYTES,
  ROW_PROP_TIER,
  ROW_N_PROPS
};

static GParamSpec *row_properties[ROW_N_PROPS];

static void
hr_matrix_row_dispose (GObject *object)
{
  HrMatrixRow *self = (HrMatrixRow *) object;

  g_clear_object (&self->precision);
  g_clear_object (&self->tier);
  G_OBJECT_CLASS (hr_matrix_row_parent_class)->dispose (object);
}

static void
hr_matrix_row_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  HrMatrixRow *self = HR_MATRIX_ROW (object);

  switch (prop_id)
    {
    case ROW_PROP_PRECISION:
      g_value_set_object (value, self->precision);
      break;
    case ROW_PROP_LABEL:
      g_value_set_string (value, hr_precision_get_label (self->precision));
      break;
    case ROW_PROP_BPW:
      g_value_set_double (value, hr_precision_get_bpw (self->precision));
      break;
    case ROW_PROP_WEIGHTS_BYTES:
      g_value_set_uint64 (value, self->weights_bytes);
      break;
    case ROW_PROP_TIER:
      g_value_set_object (value, self->tier);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_matrix_row_class_init (HrMatrixRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = hr_matrix_row_dispose;
  object_class->get_property = hr_matrix_row_get_property;

  row_properties[ROW_PROP_PRECISION] =
    g_param_spec_object ("precision", NULL, NULL, HR_TYPE_PRECISION, flags);
  row_properties[ROW_PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL, flags);
  row_properties[ROW_PROP_BPW] =
    g_param_spec_double ("bpw", NULL, NULL, 0, 64, 0, flags);
  row_properties[ROW_PROP_WEIGHTS_BYTES] =
    g_param_spec_uint64 ("weights-bytes", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  row_properties[ROW_PROP_TIER] =
    g_param_spec_object ("tier", NULL, "Recommended device", HR_TYPE_HARDWARE, flags);
  g_object_class_install_properties (object_class, ROW_N_PROPS, row_properties);
}

static void
hr_matrix_row_init (HrMatrixRow *self)
{
}

/* Recomputes one row for the calculator's scenario. */
static void
row_update (HrMatrixRow       *self,
            HrMatrix          *matrix,
            const HrScenario  *base)
{
  HrScenario scenario = *base;
  HrEstimate estimate;
  HrCatalog *catalog = hr_calculator_get_catalog (hr_matrix_get_calculator (matrix));
  GPtrArray *ladder = hr_catalog_get_tier_ladder (catalog);
  guint64 weights = 0;
  HrHardware *tier = NULL;

  scenario.precision = self->precision;

  for (guint i = 0; i < matrix->n_contexts; i++)
    {
      Cell *cell = &self->cells[i];

      scenario.context = matrix->contexts[i];
      cell->valid = hr_scenario_estimate (&scenario, &estimate, NULL);
      cell->total_bytes = estimate.total_bytes;
      cell->verdict = estimate.verdict;
      cell->placement = cell->valid ? estimate.placement : HR_PLACEMENT_GPU;
      cell->engine = hr_scenario_engine (&scenario);
      cell->max_concurrency = estimate.max_concurrency;
      cell->kv_capacity_tokens = estimate.kv_capacity_tokens;
      if (cell->valid)
        weights = estimate.weights_bytes;
    }

  /* The tier: the smallest single device of the ladder that holds the
   * middle context. */
  scenario.context = matrix->contexts[hr_matrix_get_tier_index (matrix)];
  scenario.gpus = 1;
  for (guint i = 0; i < ladder->len && tier == NULL; i++)
    {
      scenario.hardware = ladder->pdata[i];
      if (hr_scenario_estimate (&scenario, &estimate, NULL) &&
          hr_estimate_fits_gpu (&estimate))
        tier = ladder->pdata[i];
    }

  if (self->weights_bytes != weights)
    {
      self->weights_bytes = weights;
      g_object_notify_by_pspec (G_OBJECT (self), row_properties[ROW_PROP_WEIGHTS_BYTES]);
    }
  if (g_set_object (&self->tier, tier))
    g_object_notify_by_pspec (G_OBJECT (self), row_properties[ROW_PROP_TIER]);
}

static void
update_rows (HrMatrix *self)
{
  const HrScenario *base = hr_calculator_get_scenario (hr_matrix_get_calculator (self));
  GPtrArray *rows = hr_row_list_get_rows (HR_ROW_LIST (self));

  for (guint i = 0; i < rows->len; i++)
    row_update (rows->pdata[i], self, base);
}

static void rebuild_rows (HrMatrix *self);

/* The precision that needs a row of its own: the current one when it is
 * not among the chosen. */
static HrPrecision *
wanted_extra (HrMatrix *self)
{
  HrPrecision *current;

  if (!self->include_current || self->chosen == NULL)
    return NULL;
  current = hr_calculator_get_precision (hr_matrix_get_calculator (self));
  if (current == NULL || g_ptr_array_find (self->chosen, current, NULL))
    return NULL;
  return current;
}

/* The calculator changed: rows are updated in place and views told; a
 * new precision outside the chosen ones replaces the rows. */
static void
refresh (HrRowList *list)
{
  HrMatrix *self = HR_MATRIX (list);

  if (wanted_extra (self) != self->extra)
    rebuild_rows (self);
  else
    update_rows (self);
  hr_row_list_refreshed (list);
}

static void
hr_matrix_dispose (GObject *object)
{
  HrMatrix *self = (HrMatrix *) object;

  g_clear_pointer (&self->chosen, g_ptr_array_unref);
  G_OBJECT_CLASS (hr_matrix_parent_class)->dispose (object);
}

static void
hr_matrix_class_init (HrMatrixClass *klass)
{
  HrRowListClass *list_class = HR_ROW_LIST_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = hr_matrix_dispose;

  list_class->row_type = HR_TYPE_MATRIX_ROW;
  list_class->refresh = refresh;
}

static void
hr_matrix_init (HrMatrix *self)
{
  static const guint64 defaults[] = HR_DEFAULT_MATRIX_CONTEXTS;

  self->n_contexts = G_N_ELEMENTS (defaults);
  memcpy (self->contexts, defaults, sizeof defaults);
}

/**
 * hr_matrix_new:
 *
 * Rows start as the catalog's default matrix precisions (the seed's).
 */
HrMatrix *
hr_matrix_new (HrCalculator *calculator)
{
  HrMatrix *self;
  GListModel *precisions;
  g_autoptr(GPtrArray) chosen = g_ptr_array_new ();

  g_return_val_if_fail (HR_IS_CALCULATOR (calculator), NULL);

  self = g_object_new (HR_TYPE_MATRIX, NULL);
  hr_row_list_set_calculator (HR_ROW_LIST (self), calculator);

  precisions = hr_catalog_get_precisions (hr_calculator_get_catalog (calculator));
  for (guint i = 0; i < g_list_model_get_n_items (precisions); i++)
    {
      g_autoptr(HrPrecision) precision = g_list_model_get_item (precisions, i);

      if (hr_precision_get_in_matrix (precision))
        g_ptr_array_add (chosen, precision);
    }
  hr_matrix_set_precisions (self, chosen);
  return self;
}

HrCalculator *
hr_matrix_get_calculator (HrMatrix *self)
{
  g_return_val_if_fail (HR_IS_MATRIX (self), NULL);
  return hr_row_list_get_calculator (HR_ROW_LIST (self));
}

static void
add_row (HrMatrix         *self,
         GPtrArray        *rows,
         HrPrecision      *precision,
         const HrScenario *base)
{
  HrMatrixRow *row = g_object_new (HR_TYPE_MATRIX_ROW, NULL);

  row->precision = g_object_ref (precision);
  row_update (row, self, base);
  g_ptr_array_add (rows, row);
}

/* One row per chosen precision, and the current one's in its place by
 * bits per weight (the chosen run from most to fewest). */
static void
rebuild_rows (HrMatrix *self)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  const HrScenario *base = hr_calculator_get_scenario (hr_matrix_get_calculator (self));
  HrPrecision *extra = wanted_extra (self);

  for (guint i = 0; i < self->chosen->len; i++)
    {
      HrPrecision *precision = self->chosen->pdata[i];

      if (extra != NULL && hr_precision_get_bpw (extra) > hr_precision_get_bpw (precision))
        {
          add_row (self, rows, extra, base);
          extra = NULL;
        }
      add_row (self, rows, precision, base);
    }
  if (extra != NULL)
    add_row (self, rows, extra, base);
  self->extra = wanted_extra (self);
  hr_row_list_replace_rows (HR_ROW_LIST (self), rows);
}

void
hr_matrix_set_precisions (HrMatrix  *self,
                          GPtrArray *precisions)
{
  g_return_if_fail (HR_IS_MATRIX (self));
  g_return_if_fail (precisions != NULL);

  g_clear_pointer (&self->chosen, g_ptr_array_unref);
  self->chosen = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < precisions->len; i++)
    g_ptr_array_add (self->chosen, g_object_ref (precisions->pdata[i]));
  rebuild_rows (self);
}

/**
 * hr_matrix_set_include_current:
 *
 * Whether the calculator's precision gets a row when it is not among the
 * chosen ones (the window's matrix; the CLI's shows what it was asked).
 */
void
hr_matrix_set_include_current (HrMatrix *self,
                               gboolean  include_current)
{
  g_return_if_fail (HR_IS_MATRIX (self));

  include_current = !!include_current;
  if (self->include_current == include_current)
    return;
  self->include_current = include_current;
  if (self->chosen != NULL && wanted_extra (self) != self->extra)
    rebuild_rows (self);
}

guint
hr_matrix_get_n_contexts (HrMatrix *self)
{
  g_return_val_if_fail (HR_IS_MATRIX (self), 0);
  return self->n_contexts;
}

guint64
hr_matrix_get_context (HrMatrix *self,
                       guint     index)
{
  g_return_val_if_fail (HR_IS_MATRIX (self), 0);
  g_return_val_if_fail (index < self->n_contexts, 0);
  return self->contexts[index];
}

/**
 * hr_matrix_set_contexts:
 *
 * Between 1 and 16 contexts, each within the estimator's range; others
 * are ignored with a critical (callers validate user input first).
 */
void
hr_matrix_set_contexts (HrMatrix      *self,
                        const guint64 *contexts,
                        guint          n_contexts)
{
  g_return_if_fail (HR_IS_MATRIX (self));
  g_return_if_fail (n_contexts >= 1 && n_contexts <= MAX_CONTEXTS);

  for (guint i = 0; i < n_contexts; i++)
    g_return_if_fail (contexts[i] >= HR_CONTEXT_MIN && contexts[i] <= HR_CONTEXT_MAX);

  memcpy (self->contexts, contexts, n_contexts * sizeof *contexts);
  self->n_contexts = n_contexts;
  update_rows (self);
  /* New columns: the whole range changes. */
  hr_row_list_rows_changed (HR_ROW_LIST (self));
}

/* The recommended tier is read at the middle context (32K of 8K/32K/128K). */
guint
hr_matrix_get_tier_index (HrMatrix *self)
{
  g_return_val_if_fail (HR_IS_MATRIX (self), 0);
  return self->n_contexts / 2;
}

HrPrecision *
hr_matrix_row_get_precision (HrMatrixRow *self)
{
  g_return_val_if_fail (HR_IS_MATRIX_ROW (self), NULL);
  return self->precision;
}

guint64
hr_matrix_row_get_weights_bytes (HrMatrixRow *self)
{
  g_return_val_if_fail (HR_IS_MATRIX_ROW (self), 0);
  return self->weights_bytes;
}

guint64
hr_matrix_row_get_total_bytes (HrMatrixRow *self,
                               guint        index)
{
  g_return_val_if_fail (HR_IS_MATRIX_ROW (self), 0);
  g_return_val_if_fail (index < MAX_CONTEXTS, 0);
  return self->cells[index].total_bytes;
}

HrVerdict
hr_matrix_row_get_verdict (HrMatrixRow *self,
                           guint        index)
{
  g_return_val_if_fail (HR_IS_MATRIX_ROW (self), HR_VERDICT_NO_FIT);
  g_return_val_if_fail (index < MAX_CONTEXTS, HR_VERDICT_NO_FIT);
  return self->cells[index].verdict;
}

HrPlacementKind
hr_matrix_row_get_placement (HrMatrixRow *self,
                             guint        index)
{
  g_return_val_if_fail (HR_IS_MATRIX_ROW (self), HR_PLACEMENT_GPU);
  g_return_val_if_fail (index < MAX_CONTEXTS, HR_PLACEMENT_GPU);
  return self->cells[index].placement;
}

gboolean
hr_matrix_row_get_valid (HrMatrixRow *self,
                         guint        index)
{
  g_return_val_if_fail (HR_IS_MATRIX_ROW (self), FALSE);
  g_return_val_if_fail (index < MAX_CONTEXTS, FALSE);
  return self->cells[index].valid;
}

/* The engine that computed a cell: under Automatic it may differ from row
 * to row (vLLM for BF16, llama.cpp for GGUF). */
HrEngine
hr_matrix_row_get_engine (HrMatrixRow *self,
                          guint        index)
{
  g_return_val_if_fail (HR_IS_MATRIX_ROW (self), HR_ENGINE_GENERIC);
  g_return_val_if_fail (index < MAX_CONTEXTS, HR_ENGINE_GENERIC);
  return self->cells[index].engine;
}

/* vLLM and SGLang: how many sequences of the cell's context the KV cache
 * holds at once (their total is the same fixed budget at every context). */
double
hr_matrix_row_get_max_concurrency (HrMatrixRow *self,
                                   guint        index)
{
  g_return_val_if_fail (HR_IS_MATRIX_ROW (self), 0.0);
  g_return_val_if_fail (index < MAX_CONTEXTS, 0.0);
  return self->cells[index].max_concurrency;
}

guint64
hr_matrix_row_get_kv_capacity_tokens (HrMatrixRow *self,
                                      guint        index)
{
  g_return_val_if_fail (HR_IS_MATRIX_ROW (self), 0);
  g_return_val_if_fail (index < MAX_CONTEXTS, 0);
  return self->cells[index].kv_capacity_tokens;
}

HrHardware *
hr_matrix_row_get_tier (HrMatrixRow *self)
{
  g_return_val_if_fail (HR_IS_MATRIX_ROW (self), NULL);
  return self->tier;
}
