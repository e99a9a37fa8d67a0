/* hr-hardware-table.c — one row per device, following a calculator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each row is the calculator's scenario run on one device of the catalog:
 * per-device memory required, its share of the device, the verdict and
 * the decode speed.  Rows are updated in place and notify what changed;
 * then “refreshed” tells views to redraw their cells and re-sort.
 */

#define G_LOG_DOMAIN "hr-hardware-table"

#include "config.h"

#include "hr-fields.h"
#include "hr-hardware-table.h"

struct _HrHardwareRow
{
  GObject parent_instance;

  HrHardware *hardware;
  guint64 required_bytes;
  double share;
  double decode_tokens_per_s;
  gboolean valid;
  HrVerdict verdict;
};

struct _HrHardwareTable
{
  GObject parent_instance;

  HrCalculator *calculator;
  GPtrArray *rows;
};

static void list_model_iface_init (GListModelInterface *iface);

enum {
  REFRESHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (HrHardwareRow, hr_hardware_row, G_TYPE_OBJECT)
G_DEFINE_FINAL_TYPE_WITH_CODE (HrHardwareTable, hr_hardware_table, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      list_model_iface_init))

enum {
  ROW_PROP_0,
  ROW_PROP_HARDWARE,
  ROW_PROP_VERDICT,
  ROW_N_FIXED_PROPS
};

static const HrField row_fields[] = {
  HR_FIELD (HrHardwareRow, "required_bytes", HR_FIELD_U64, FALSE, 0, required_bytes,
            "Per-device memory required"),
  HR_FIELD (HrHardwareRow, "share", HR_FIELD_DOUBLE, FALSE, 0, share,
            "Required / device memory"),
  HR_FIELD (HrHardwareRow, "decode_tokens_per_s", HR_FIELD_DOUBLE, FALSE, 0,
            decode_tokens_per_s, "Single-stream decode"),
  HR_FIELD (HrHardwareRow, "valid", HR_FIELD_BOOL, FALSE, 0, valid,
            "The estimate succeeded"),
};

static GParamSpec *row_properties[ROW_N_FIXED_PROPS];
static GParamSpec *row_field_properties[G_N_ELEMENTS (row_fields)];

static void
hr_hardware_row_dispose (GObject *object)
{
  g_clear_object (&HR_HARDWARE_ROW (object)->hardware);
  G_OBJECT_CLASS (hr_hardware_row_parent_class)->dispose (object);
}

static void
hr_hardware_row_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  HrHardwareRow *self = HR_HARDWARE_ROW (object);

  switch (prop_id)
    {
    case ROW_PROP_HARDWARE:
      g_value_set_object (value, self->hardware);
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
hr_hardware_row_class_init (HrHardwareRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = hr_hardware_row_dispose;
  object_class->get_property = hr_hardware_row_get_property;

  row_properties[ROW_PROP_HARDWARE] =
    g_param_spec_object ("hardware", NULL, NULL, HR_TYPE_HARDWARE, flags);
  row_properties[ROW_PROP_VERDICT] =
    g_param_spec_enum ("verdict", NULL, NULL, HR_TYPE_VERDICT, HR_VERDICT_NO_FIT, flags);
  g_object_class_install_properties (object_class, ROW_N_FIXED_PROPS, row_properties);
  hr_fields_install_properties (object_class, ROW_N_FIXED_PROPS, row_fields,
                                G_N_ELEMENTS (row_fields), row_field_properties);
}

static void
hr_hardware_row_init (HrHardwareRow *self)
{
}

static void
row_update (HrHardwareRow    *self,
            const HrScenario *base)
{
  HrScenario scenario = *base;
  HrEstimate estimate;
  HrHardwareRow previous = *self;

  scenario.hardware = self->hardware;
  self->valid = hr_scenario_estimate (&scenario, &estimate, NULL);
  self->required_bytes = estimate.per_device_bytes;
  self->share = estimate.device_share;
  self->decode_tokens_per_s = estimate.decode_tokens_per_s;
  self->verdict = self->valid ? estimate.verdict : HR_VERDICT_NO_FIT;

  for (guint i = 0; i < G_N_ELEMENTS (row_fields); i++)
    if (!hr_fields_equal (&previous, self, &row_fields[i]))
      g_object_notify_by_pspec (G_OBJECT (self), row_field_properties[i]);
  if (previous.verdict != self->verdict)
    g_object_notify_by_pspec (G_OBJECT (self), row_properties[ROW_PROP_VERDICT]);
}

static void
refresh (HrHardwareTable *self)
{
  const HrScenario *base = hr_calculator_get_scenario (self->calculator);

  for (guint i = 0; i < self->rows->len; i++)
    row_update (self->rows->pdata[i], base);

  /* The rows changed in place: views refresh their cells and re-sort
   * rather than rebinding every row, which costs milliseconds per step. */
  g_signal_emit (self, signals[REFRESHED], 0);
}

static GType
hr_hardware_table_get_item_type (GListModel *model)
{
  return HR_TYPE_HARDWARE_ROW;
}

static guint
hr_hardware_table_get_n_items (GListModel *model)
{
  return HR_HARDWARE_TABLE (model)->rows->len;
}

static gpointer
hr_hardware_table_get_item (GListModel *model,
                            guint       position)
{
  HrHardwareTable *self = HR_HARDWARE_TABLE (model);

  if (position >= self->rows->len)
    return NULL;
  return g_object_ref (self->rows->pdata[position]);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = hr_hardware_table_get_item_type;
  iface->get_n_items = hr_hardware_table_get_n_items;
  iface->get_item = hr_hardware_table_get_item;
}

static void
hr_hardware_table_dispose (GObject *object)
{
  HrHardwareTable *self = (HrHardwareTable *) object;

  if (self->calculator != NULL)
    g_signal_handlers_disconnect_by_data (self->calculator, self);
  g_clear_object (&self->calculator);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  G_OBJECT_CLASS (hr_hardware_table_parent_class)->dispose (object);
}

static void
hr_hardware_table_class_init (HrHardwareTableClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = hr_hardware_table_dispose;

  /**
   * HrHardwareTable::refreshed:
   *
   * Emitted after every row was updated in place for a new scenario.
   */
  signals[REFRESHED] =
    g_signal_new ("refreshed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
hr_hardware_table_init (HrHardwareTable *self)
{
  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
}

HrHardwareTable *
hr_hardware_table_new (HrCalculator *calculator)
{
  HrHardwareTable *self;
  GListModel *hardware;
  const HrScenario *base;

  g_return_val_if_fail (HR_IS_CALCULATOR (calculator), NULL);

  self = g_object_new (HR_TYPE_HARDWARE_TABLE, NULL);
  self->calculator = g_object_ref (calculator);
  g_signal_connect_swapped (calculator, "changed", G_CALLBACK (refresh), self);

  base = hr_calculator_get_scenario (calculator);
  hardware = hr_catalog_get_hardware (hr_calculator_get_catalog (calculator));
  for (guint i = 0; i < g_list_model_get_n_items (hardware); i++)
    {
      HrHardwareRow *row = g_object_new (HR_TYPE_HARDWARE_ROW, NULL);

      row->hardware = g_list_model_get_item (hardware, i);
      row_update (row, base);
      g_ptr_array_add (self->rows, row);
    }
  return self;
}

#define ROW_GETTER(type, name, fallback) \
  type \
  hr_hardware_row_get_##name (HrHardwareRow *self) \
  { \
    g_return_val_if_fail (HR_IS_HARDWARE_ROW (self), fallback); \
    return self->name; \
  }

ROW_GETTER (HrHardware *, hardware, NULL)
ROW_GETTER (guint64, required_bytes, 0)
ROW_GETTER (double, share, 0)
ROW_GETTER (HrVerdict, verdict, HR_VERDICT_NO_FIT)
ROW_GETTER (double, decode_tokens_per_s, 0)
ROW_GETTER (gboolean, valid, FALSE)
