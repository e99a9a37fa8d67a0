/* hr-placement-group.c — where llama.cpp puts the model: the sidebar's rows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The placement inputs of llama.cpp and Ollama — automatic or fixed GPU
 * layers, the split mode with several GPUs, the experts of an MoE model
 * kept in system RAM — the system memory the rest goes to, and what
 * loads beside the model: the KV cache kept in RAM (llama-server) and a
 * LoRA adapter by its rank.  Shown
 * only when one of those engines answers.  Every control shows what the
 * calculator used (the layers the automatic choice placed, the RAM it
 * assumed) and sets its input when the user changes it; nothing is
 * computed here.
 */

#define G_LOG_DOMAIN "hr-placement-group"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-format.h"
#include "hr-speed.h"
#include "hr-placement-group.h"

struct _HrPlacementGroup
{
  HrView parent_instance;

  AdwActionRow *auto_row;
  GtkSwitch *auto_switch;
  AdwActionRow *layers_row;
  GtkAdjustment *layers_adjustment;
  AdwComboRow *split_row;
  AdwActionRow *experts_row;
  GtkAdjustment *experts_adjustment;
  AdwActionRow *kv_host_row;
  GtkSwitch *kv_host_switch;
  AdwActionRow *lora_row;
  GtkAdjustment *lora_adjustment;
  AdwActionRow *ram_row;
  GtkAdjustment *ram_adjustment;
  AdwActionRow *bandwidth_row;
  GtkAdjustment *bandwidth_adjustment;
  AdwActionRow *cpu_row;
  AdwComboRow *backend_row;
  GtkStringList *backend_list;
  /* the backend row's items: the calculator's "backend" value of each
   * (0: the device's own), and how many */
  guint backend_values[HR_N_BACKENDS + 1];
  guint n_backend_values;

  gboolean syncing;           /* the controls are being set from the calculator */
};

G_DEFINE_FINAL_TYPE (HrPlacementGroup, hr_placement_group, HR_TYPE_VIEW)

/* Positions in the split mode row. */
enum {
  SPLIT_ROW_LAYER,
  SPLIT_ROW_ROWS,
};

/* A bandwidth closer than this to the one used is the same (the spin
 * button shows one decimal). */
#define BANDWIDTH_EPSILON_GBPS 0.05
/* Likewise for the memory, shown to a tenth of a GiB. */
#define RAM_EPSILON_GIB 0.05

static gboolean
uses_placement (HrCalculator *calculator)
{
  guint engine = HR_ENGINE_GENERIC;

  g_object_get (calculator, "engine-used", &engine, NULL);
  return engine == HR_ENGINE_LLAMACPP || engine == HR_ENGINE_OLLAMA;
}

static gboolean
uses_llamacpp (HrCalculator *calculator)
{
  guint engine = HR_ENGINE_GENERIC;

  g_object_get (calculator, "engine-used", &engine, NULL);
  return engine == HR_ENGINE_LLAMACPP;
}

static char *
layers_subtitle (const HrEstimate *e,
                 gboolean          valid)
{
  if (!valid || e->layer_count == 0)
    return g_strdup ("");
  if (e->gpu_layers >= e->layer_count)
    /* TRANSLATORS: the GPU layers row, "All 49 on the GPU" */
    return g_strdup_printf (_("All %u on the GPU"), e->layer_count);
  if (e->gpu_layers == 0)
    return g_strdup (_("None: the CPU runs every layer"));
  /* TRANSLATORS: the GPU layers row, "27 of 49 on the GPU, the rest in system RAM" */
  return g_strdup_printf (_("%u of %u on the GPU, the rest in system RAM"),
                          e->gpu_layers, e->layer_count);
}

static void
sync_ram (HrPlacementGroup *self,
          HrCalculator     *calculator,
          const HrEstimate *e,
          gboolean          valid)
{
  guint units = hr_view_get_units (HR_VIEW (self));
  g_autofree char *usable = hr_format_size (e->ram_usable_bytes, units);
  g_autofree char *ram_subtitle = NULL;

  /* No estimate: the run that failed measured no RAM (its figures are
   * zeros, the spin buttons would clamp them to 1.0).  The rows keep the
   * values they had, which the user may still change, and say so once. */
  if (!valid)
    {
      adw_action_row_set_subtitle (self->ram_row, _("No estimate for these settings"));
      adw_action_row_set_subtitle (self->bandwidth_row, _("GB/s"));
      return;
    }

  gtk_adjustment_set_value (self->ram_adjustment, (double) e->ram_bytes / HR_GIB);
  gtk_adjustment_set_value (self->bandwidth_adjustment, e->ram_bandwidth_gbps);

  if (hr_calculator_get_ram_bytes (calculator) == 0)
    /* TRANSLATORS: the system RAM row before the user sets it, "Assumed;
     * 28.00 GiB usable by the model" */
    ram_subtitle = g_strdup_printf (_("Assumed: set yours; %s usable by the model"), usable);
  else
    /* TRANSLATORS: "28.00 GiB usable by the model" */
    ram_subtitle = g_strdup_printf (_("%s usable by the model"), usable);
  adw_action_row_set_subtitle (self->ram_row, ram_subtitle);
  {
    HrCpu *cpu = hr_calculator_get_cpu (calculator);
    g_autofree char *cpu_subtitle = NULL;

    if (cpu != NULL)
      /* TRANSLATORS: the CPU row, "AMD Ryzen 9 7950X: 16 cores, 2.30 TFLOPS for the
       * layers and experts in system RAM" */
      cpu_subtitle = g_strdup_printf (_("%s: %u cores, %.2f TFLOPS for the layers and "
                                        "experts in system RAM"),
                                      hr_cpu_get_name (cpu), hr_cpu_get_cores (cpu),
                                      hr_cpu_get_matrix_flops (cpu) / 1e12);
    else
      /* TRANSLATORS: the CPU row when none was detected, "Assumed: 1.0 TFLOPS …" */
      cpu_subtitle = g_strdup_printf (_("Assumed: %.1f TFLOPS for the layers and experts in "
                                        "system RAM"), HR_SPEED_CPU_FLOPS / 1e12);
    adw_action_row_set_subtitle (self->cpu_row, cpu_subtitle);
  }
  adw_action_row_set_subtitle (self->bandwidth_row,
                               hr_calculator_get_ram_bandwidth (calculator) == 0
                               ? _("GB/s; assumed (dual-channel DDR5-4800): set yours")
                               : _("GB/s; layers in system RAM are read at this speed"));
}

/* The backend row offers the device's own build (Automatic) and the
 * others it can run; none it cannot (hr_calculator_backend_possible).
 * The own build chosen by name (the CLI's --backend) shows as Automatic. */
static void
sync_backend (HrPlacementGroup *self,
              HrCalculator     *calculator)
{
  HrHardware *hardware = hr_calculator_get_hardware (calculator);
  guint values[HR_N_BACKENDS + 1];
  guint n = 0, selected = 0;
  HrBackend own;
  gboolean same;

  if (hardware == NULL)
    return;
  own = hr_device_backend (hr_hardware_get_device (hardware));
  values[n++] = 0;
  for (guint b = 0; b < HR_N_BACKENDS; b++)
    if (b != own && hr_calculator_backend_possible (calculator, (HrBackend) b))
      values[n++] = b + 1;
  same = n == self->n_backend_values &&
         memcmp (values, self->backend_values, n * sizeof values[0]) == 0;
  if (!same)
    {
      g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

      /* TRANSLATORS: the backend row's first item, "Automatic (ROCm)" */
      g_ptr_array_add (labels, g_strdup_printf (_("Automatic (%s)"), hr_backend_label (own)));
      for (guint i = 1; i < n; i++)
        g_ptr_array_add (labels, g_strdup (hr_backend_label (values[i] - 1)));
      g_ptr_array_add (labels, NULL);
      gtk_string_list_splice (self->backend_list, 0,
                              g_list_model_get_n_items (G_LIST_MODEL (self->backend_list)),
                              (const char * const *) labels->pdata);
      memcpy (self->backend_values, values, n * sizeof values[0]);
      self->n_backend_values = n;
    }
  for (guint i = 0; i < n; i++)
    if (values[i] == hr_calculator_get_backend (calculator))
      selected = i;
  if (adw_combo_row_get_selected (self->backend_row) != selected)
    adw_combo_row_set_selected (self->backend_row, selected);
}

static void
on_backend_selected (HrPlacementGroup *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  guint selected = adw_combo_row_get_selected (self->backend_row);

  if (self->syncing || calculator == NULL || selected >= self->n_backend_values)
    return;
  hr_calculator_set_backend (calculator, self->backend_values[selected]);
}

static void
refresh (HrView *view)
{
  HrPlacementGroup *self = HR_PLACEMENT_GROUP (view);
  HrCalculator *calculator = hr_view_get_calculator (view);
  HrModelSpec *model;
  const HrEstimate *e;
  gboolean valid;
  guint n_layers;
  g_autofree char *subtitle = NULL;

  if (calculator == NULL || !uses_placement (calculator))
    {
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      return;
    }
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);

  e = hr_calculator_get_estimate (calculator);
  valid = hr_calculator_get_valid (calculator);
  model = hr_calculator_get_model (calculator);
  n_layers = model != NULL ? hr_model_spec_get_arch (model)->n_layers : 0;

  self->syncing = TRUE;

  sync_backend (self, calculator);
  gtk_switch_set_active (self->auto_switch, hr_calculator_get_gpu_layers_auto (calculator));
  /* llama.cpp counts the output layer too. */
  gtk_adjustment_set_upper (self->layers_adjustment, n_layers + 1);
  gtk_adjustment_set_value (self->layers_adjustment,
                            hr_calculator_get_gpu_layers_auto (calculator) && valid
                            ? e->gpu_layers : hr_calculator_get_gpu_layers (calculator));
  subtitle = layers_subtitle (e, valid);
  adw_action_row_set_subtitle (self->layers_row, subtitle);

  gtk_widget_set_visible (GTK_WIDGET (self->split_row),
                          hr_calculator_get_gpu_count (calculator) > 1);
  adw_combo_row_set_selected (self->split_row,
                              hr_calculator_get_split_mode (calculator) == HR_SPLIT_ROW
                              ? SPLIT_ROW_ROWS : SPLIT_ROW_LAYER);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->split_row),
                               hr_calculator_get_split_mode (calculator) == HR_SPLIT_ROW
                               ? _("Every matrix split over the GPUs: faster, with a "
                                   "sync per layer")
                               : _("Whole layers on each GPU: more memory, not more speed"));

  gtk_widget_set_visible (GTK_WIDGET (self->experts_row),
                          model != NULL && hr_model_spec_is_moe (model));
  gtk_adjustment_set_upper (self->experts_adjustment, n_layers);
  gtk_adjustment_set_value (self->experts_adjustment, hr_calculator_get_n_cpu_moe (calculator));

  /* --no-kv-offload is llama-server's: shown for it, and while it is on
   * (so that it can be turned off under Ollama, which refuses it) */
  gtk_widget_set_visible (GTK_WIDGET (self->kv_host_row),
                          uses_llamacpp (calculator) || hr_calculator_get_kv_on_host (calculator));
  gtk_switch_set_active (self->kv_host_switch, hr_calculator_get_kv_on_host (calculator));
  gtk_adjustment_set_value (self->lora_adjustment, hr_calculator_get_lora_rank (calculator));
  {
    g_autofree char *lora = NULL;

    if (hr_calculator_get_lora_rank (calculator) == 0)
      lora = g_strdup (_("None; a rank adds an adapter over every linear layer (F16)"));
    else if (valid)
      {
        g_autofree char *size = hr_format_size (e->lora_bytes, hr_view_get_units (view));

        /* TRANSLATORS: the LoRA row, "168 MiB beside the layers it adapts" */
        lora = g_strdup_printf (_("%s beside the layers it adapts"), size);
      }
    else
      lora = g_strdup (_("No estimate for these settings"));
    adw_action_row_set_subtitle (self->lora_row, lora);
  }

  sync_ram (self, calculator, e, valid);

  self->syncing = FALSE;
}

static void
on_auto_toggled (HrPlacementGroup *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));

  if (self->syncing || calculator == NULL)
    return;
  hr_calculator_set_gpu_layers_auto (calculator, gtk_switch_get_active (self->auto_switch));
}

/* A count the user types or steps to is fixed; the count the automatic
 * choice placed, shown again, changes nothing. */
static void
on_layers_changed (HrPlacementGroup *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  guint layers = (guint) gtk_adjustment_get_value (self->layers_adjustment);

  if (self->syncing || calculator == NULL)
    return;
  if (hr_calculator_get_gpu_layers_auto (calculator) &&
      hr_calculator_get_valid (calculator) &&
      layers == hr_calculator_get_estimate (calculator)->gpu_layers)
    return;
  hr_calculator_set_gpu_layers (calculator, layers);
}

static void
on_split_selected (HrPlacementGroup *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));

  if (self->syncing || calculator == NULL)
    return;
  hr_calculator_set_split_mode (calculator,
                                adw_combo_row_get_selected (self->split_row) == SPLIT_ROW_ROWS
                                ? HR_SPLIT_ROW : HR_SPLIT_DEFAULT);
}

static void
on_experts_changed (HrPlacementGroup *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));

  if (self->syncing || calculator == NULL)
    return;
  hr_calculator_set_n_cpu_moe (calculator,
                               (guint) gtk_adjustment_get_value (self->experts_adjustment));
}

static void
on_kv_host_toggled (HrPlacementGroup *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));

  if (self->syncing || calculator == NULL)
    return;
  hr_calculator_set_kv_on_host (calculator, gtk_switch_get_active (self->kv_host_switch));
}

static void
on_lora_changed (HrPlacementGroup *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));

  if (self->syncing || calculator == NULL)
    return;
  hr_calculator_set_lora_rank (calculator,
                               (guint) gtk_adjustment_get_value (self->lora_adjustment));
}

static void
on_ram_changed (HrPlacementGroup *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  double gib = gtk_adjustment_get_value (self->ram_adjustment);

  if (self->syncing || calculator == NULL)
    return;
  /* The figure used, shown again (to the spin button's tenth of a GiB),
   * is not a setting. */
  if (G_APPROX_VALUE (gib, hr_calculator_get_estimate (calculator)->ram_bytes / HR_GIB,
                      RAM_EPSILON_GIB))
    return;
  hr_calculator_set_ram_bytes (calculator, (guint64) (gib * HR_GIB));
}

static void
on_bandwidth_changed (HrPlacementGroup *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  double gbps = gtk_adjustment_get_value (self->bandwidth_adjustment);

  if (self->syncing || calculator == NULL)
    return;
  if (G_APPROX_VALUE (gbps, hr_calculator_get_estimate (calculator)->ram_bandwidth_gbps,
                      BANDWIDTH_EPSILON_GBPS))
    return;
  hr_calculator_set_ram_bandwidth (calculator, gbps);
}

static void
hr_placement_group_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_PLACEMENT_GROUP);
  G_OBJECT_CLASS (hr_placement_group_parent_class)->dispose (object);
}

static void
hr_placement_group_class_init (HrPlacementGroupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  HrViewClass *view_class = HR_VIEW_CLASS (klass);

  object_class->dispose = hr_placement_group_dispose;
  view_class->refresh = refresh;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom_app/Headroom/"
                                               "ui/hr-placement-group.ui");
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, auto_row);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, auto_switch);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, layers_row);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, layers_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, split_row);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, experts_row);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, experts_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, kv_host_row);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, kv_host_switch);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, lora_row);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, lora_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, ram_row);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, ram_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, bandwidth_row);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, bandwidth_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, backend_row);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, cpu_row);
  gtk_widget_class_bind_template_child (widget_class, HrPlacementGroup, backend_list);
  gtk_widget_class_bind_template_callback (widget_class, on_backend_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_auto_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_layers_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_split_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_experts_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_kv_host_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_lora_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_ram_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_bandwidth_changed);
}

static void
hr_placement_group_init (HrPlacementGroup *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
