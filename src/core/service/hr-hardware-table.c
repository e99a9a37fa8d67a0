/* hr-hardware-table.c — one row per device, following a calculator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each row is the calculator's scenario run on one device of the catalog:
 * per-device memory required, its share of the device, the verdict, the
 * prompt speed (prefill) and the decode speed.  Rows are updated in place and notify what changed;
 * then “refreshed” tells views to redraw their cells and re-sort.
 */

#define G_LOG_DOMAIN "hr-hardware-table"

#include "config.h"

#include "hr-energy.h"
#include "hr-fields.h"
#include "hr-hardware-table.h"

struct _HrHardwareRow
{
  GObject parent_instance;

  HrHardware *hardware;
  guint64 required_bytes;
  double share;
  double decode_tokens_per_s;
  double prefill_tokens_per_s;
  double joules_per_token;    /* 0: unknown (hr-energy.h) */
  guint32 placement;          /* an HrPlacementKind */
  guint32 gpu_layers;
  guint32 layer_count;
  guint64 host_bytes;
  gboolean valid;
  HrVerdict verdict;
};

struct _HrHardwareTable
{
  HrRowList parent_instance;
};

G_DEFINE_FINAL_TYPE (HrHardwareRow, hr_hardware_row, G_TYPE_OBJECT)
G_DEFINE_FINAL_TYPE (HrHardwareTable, hr_hardware_table, HR_TYPE_ROW_LIST)

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
  HR_FIELD (HrHardwareRow, "prefill_tokens_per_s", HR_FIELD_DOUBLE, FALSE, 0,
            prefill_tokens_per_s, "Prompt processing; 0 where not timed"),
  HR_FIELD (HrHardwareRow, "joules_per_token", HR_FIELD_DOUBLE, FALSE, 0, joules_per_token,
            "Energy of one decoded token; 0 where unknown"),
  HR_FIELD (HrHardwareRow, "placement", HR_FIELD_U32, FALSE, 0, placement,
            "An HrPlacementKind"),
  HR_FIELD (HrHardwareRow, "gpu_layers", HR_FIELD_U32, FALSE, 0, gpu_layers,
            "Layers on the GPUs (llama.cpp's count)"),
  HR_FIELD (HrHardwareRow, "layer_count", HR_FIELD_U32, FALSE, 0, layer_count,
            "Layers as llama.cpp counts them"),
  HR_FIELD (HrHardwareRow, "host_bytes", HR_FIELD_U64, FALSE, 0, host_bytes,
            "What stays in system RAM"),
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
  /* An Apple chip is one device, whatever the count of the others. */
  if (hr_hardware_is_unified (self->hardware))
    {
      scenario.gpus = 1;
      scenario.layout = (HrLayout) { 0 };
    }
  self->valid = hr_scenario_estimate (&scenario, &estimate, NULL);
  self->required_bytes = estimate.per_device_bytes;
  self->share = estimate.device_share;
  /* On one memory pool (Apple, an APU) the layers llama.cpp leaves to the
   * CPU sit in the same memory: the share that explains the verdict is
   * the whole set-up's, not the GPU's part (issue 30.18: an M1 8 GB read
   * “66 %, Does not fit” beside an 8 GB card's “93 %, tight”). */
  if (hr_hardware_is_unified (self->hardware) && estimate.host_bytes > 0)
    {
      const HrDevice *device = hr_hardware_get_device (self->hardware);

      self->required_bytes = estimate.per_device_bytes + estimate.host_bytes;
      if (device->memory_bytes > 0)
        self->share = (double) self->required_bytes / (double) device->memory_bytes;
    }
  self->decode_tokens_per_s = estimate.decode_tokens_per_s;
  self->prefill_tokens_per_s = estimate.prefill_tokens_per_s;
  self->joules_per_token =
    self->valid && estimate.verdict != HR_VERDICT_NO_FIT
    ? hr_energy_joules_per_token (&estimate, hr_hardware_get_device (self->hardware)->tdp_watts,
                                  hr_energy_parallel_gpus (estimate.engine, scenario.gpus))
    : 0;
  self->placement = estimate.placement;
  self->gpu_layers = estimate.gpu_layers;
  self->layer_count = estimate.layer_count;
  self->host_bytes = estimate.host_bytes;
  self->verdict = self->valid ? estimate.verdict : HR_VERDICT_NO_FIT;

  hr_fields_notify_changes (self, &previous, row_fields, G_N_ELEMENTS (row_fields),
                            row_field_properties);
  if (previous.verdict != self->verdict)
    g_object_notify_by_pspec (G_OBJECT (self), row_properties[ROW_PROP_VERDICT]);
}

static void
refresh (HrRowList *list)
{
  const HrScenario *base = hr_calculator_get_scenario (hr_row_list_get_calculator (list));
  GPtrArray *rows = hr_row_list_get_rows (list);

  for (guint i = 0; i < rows->len; i++)
    row_update (rows->pdata[i], base);
  hr_row_list_refreshed (list);
}

static void
hr_hardware_table_class_init (HrHardwareTableClass *klass)
{
  HrRowListClass *list_class = HR_ROW_LIST_CLASS (klass);

  list_class->row_type = HR_TYPE_HARDWARE_ROW;
  list_class->refresh = refresh;
}

static void
hr_hardware_table_init (HrHardwareTable *self)
{
}

/* The rows of @n_added devices of @hardware from @position on. */
static GPtrArray *
new_rows (GListModel       *hardware,
          guint             position,
          guint             n_added,
          const HrScenario *base)
{
  GPtrArray *rows = g_ptr_array_new ();

  for (guint i = position; i < position + n_added; i++)
    {
      HrHardwareRow *row = g_object_new (HR_TYPE_HARDWARE_ROW, NULL);

      row->hardware = g_list_model_get_item (hardware, i);
      row_update (row, base);
      g_ptr_array_add (rows, row);
    }
  return rows;
}

/* A device added, edited or removed by hand: its row follows at once
 * (the catalog's list and the rows keep the same order). */
static void
on_hardware_changed (GListModel      *hardware,
                     guint            position,
                     guint            n_removed,
                     guint            n_added,
                     HrHardwareTable *self)
{
  HrCalculator *calculator = hr_row_list_get_calculator (HR_ROW_LIST (self));
  g_autoptr(GPtrArray) added =
    new_rows (hardware, position, n_added, hr_calculator_get_scenario (calculator));

  hr_row_list_splice_rows (HR_ROW_LIST (self), position, n_removed, added);
}

HrHardwareTable *
hr_hardware_table_new (HrCalculator *calculator)
{
  HrHardwareTable *self;
  GListModel *hardware;
  g_autoptr(GPtrArray) rows = NULL;

  g_return_val_if_fail (HR_IS_CALCULATOR (calculator), NULL);

  self = g_object_new (HR_TYPE_HARDWARE_TABLE, NULL);
  hr_row_list_set_calculator (HR_ROW_LIST (self), calculator);

  hardware = hr_catalog_get_hardware (hr_calculator_get_catalog (calculator));
  rows = new_rows (hardware, 0, g_list_model_get_n_items (hardware),
                   hr_calculator_get_scenario (calculator));
  hr_row_list_replace_rows (HR_ROW_LIST (self), rows);
  g_signal_connect_object (hardware, "items-changed", G_CALLBACK (on_hardware_changed), self, 0);
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
ROW_GETTER (double, prefill_tokens_per_s, 0)
ROW_GETTER (double, joules_per_token, 0)
ROW_GETTER (HrPlacementKind, placement, HR_PLACEMENT_GPU)
ROW_GETTER (guint, gpu_layers, 0)
ROW_GETTER (guint, layer_count, 0)
ROW_GETTER (guint64, host_bytes, 0)
ROW_GETTER (gboolean, valid, FALSE)
