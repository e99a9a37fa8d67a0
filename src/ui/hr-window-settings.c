/* hr-window-settings.c — what the window remembers between runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The inputs (model, precision, KV type, hardware, engine, context,
 * sequences, GPUs, and the engine, placement and serving inputs of
 * kept_properties), the matrix's contexts, the units and the window's
 * size are kept in GSettings: restored when the window is built, saved
 * after each change (inputs) or on close (size).
 */

#define G_LOG_DOMAIN "hr-window"

#include "config.h"

#include "hr-calibration.h"

#include "hr-catalog.h"
#include "hr-engine.h"
#include "hr-window-private.h"

#define SCHEMA_ID APP_ID
#define MAX_SAVED_CONTEXTS 16

/* Calculator properties kept under a key of the same name and type,
 * restored in this order: "nodes" first, so that the GPU count restored
 * after them keeps the machines; "gpu-layers" before "gpu-layers-auto",
 * since a layer count makes the placement fixed and the switch then
 * says whether it stays so.  Not kept: TP and PP (the choices depend on
 * the model and the GPUs, and the calculator picks them), RAM size and
 * bandwidth (this computer's, detected or stated each time). */
static const char * const kept_properties[] = {
  "nodes", "flash-attn", "gpu-memory-utilization", "users", "target-tokens-per-s",
  "prompt-tokens", "gpu-layers", "gpu-layers-auto", "split-mode", "n-cpu-moe",
  "kv-on-host", "lora-rank",
};

/* Sets each kept property from its key; a value the property would
 * have to change (a hand-edited setting) is left out. */
static void
restore_kept_properties (HrWindow *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (kept_properties); i++)
    {
      GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self->calculator),
                                                        kept_properties[i]);
      g_autoptr(GVariant) variant = g_settings_get_value (self->settings, kept_properties[i]);
      g_auto(GValue) value = G_VALUE_INIT;

      g_dbus_gvariant_to_gvalue (variant, &value);
      if (pspec == NULL || G_VALUE_TYPE (&value) != pspec->value_type ||
          g_param_value_validate (pspec, &value))
        {
          g_debug ("setting %s ignored", kept_properties[i]);
          continue;
        }
      g_object_set_property (G_OBJECT (self->calculator), kept_properties[i], &value);
    }
}

/* A kept property changed: its key follows (not on every recomputation,
 * which a slider step makes). */
static void
save_kept_property (HrWindow   *self,
                    GParamSpec *pspec)
{
  g_auto(GValue) value = G_VALUE_INIT;
  g_autoptr(GVariant) variant = NULL;
  g_autoptr(GVariant) old = NULL;

  if (self->restoring)
    return;
  old = g_settings_get_value (self->settings, pspec->name);
  g_object_get_property (G_OBJECT (self->calculator), pspec->name, &value);
  /* transfer full, never floating */
  variant = g_dbus_gvalue_to_gvariant (&value, g_variant_get_type (old));
  if (!g_variant_equal (old, variant))
    {
      g_settings_set_value (self->settings, pspec->name, variant);
      /* the settings are in delay mode since save_inputs() */
      g_settings_apply (self->settings);
    }
}

/* Settings are optional: an uninstalled run without compiled schemas
 * simply does not remember anything, rather than aborting. */
static GSettings *
settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source == NULL)
    return NULL;
  schema = g_settings_schema_source_lookup (source, SCHEMA_ID, TRUE);
  if (schema == NULL)
    {
      g_debug ("Schema %s is not installed: settings will not be kept", SCHEMA_ID);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

/* Restores the last inputs; an id the catalog no longer has falls back
 * quietly to what the calculator already holds (the default). */
static void
restore_settings (HrWindow *self)
{
  HrCatalog *catalog = hr_calculator_get_catalog (self->calculator);
  g_autofree char *model = NULL;
  g_autofree char *precision = NULL;
  g_autofree char *kv = NULL;
  g_autofree char *hardware = NULL;
  g_autofree char *engine = NULL;
  g_autoptr(GVariant) contexts = NULL;
  HrEngine engine_value;
  gpointer found;

  if (self->settings == NULL)
    return;

  self->restoring = TRUE;
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  model = g_settings_get_string (self->settings, "model");
  precision = g_settings_get_string (self->settings, "precision");
  kv = g_settings_get_string (self->settings, "kv-type");
  hardware = g_settings_get_string (self->settings, "hardware");
  engine = g_settings_get_string (self->settings, "engine");

  hr_calculator_freeze (self->calculator);
  if ((found = hr_catalog_find_model (catalog, model)) != NULL)
    hr_calculator_set_model (self->calculator, found);
  if ((found = hr_catalog_find_precision (catalog, precision)) != NULL)
    hr_calculator_set_precision (self->calculator, found);
  if ((found = hr_catalog_find_kv_type (catalog, kv)) != NULL)
    hr_calculator_set_kv_type (self->calculator, found);
  if ((found = hr_catalog_find_hardware (catalog, hardware)) != NULL)
    hr_calculator_set_hardware (self->calculator, found);
  if (hr_engine_from_string (engine, &engine_value))
    hr_calculator_set_engine (self->calculator, engine_value);
  hr_calculator_set_context (self->calculator, g_settings_get_uint64 (self->settings, "context"));
  hr_calculator_set_batch (self->calculator, g_settings_get_uint (self->settings, "batch"));
  restore_kept_properties (self);
  hr_calculator_set_gpu_count (self->calculator, g_settings_get_uint (self->settings, "gpu-count"));
  hr_calculator_thaw (self->calculator);

  contexts = g_settings_get_value (self->settings, "matrix-contexts");
  {
    gsize n = 0;
    const guint64 *values = g_variant_get_fixed_array (contexts, &n, sizeof (guint64));
    gboolean valid = n >= 1 && n <= MAX_SAVED_CONTEXTS;

    for (gsize i = 0; valid && i < n; i++)
      valid = values[i] >= HR_CONTEXT_MIN && values[i] <= HR_CONTEXT_MAX;
    if (valid)
      {
        g_clear_pointer (&self->pending_contexts, g_array_unref);
        self->pending_contexts = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n);
        g_array_append_vals (self->pending_contexts, values, n);
      }
  }

  hr_window_set_units (self, g_settings_get_enum (self->settings, "units"));
  self->restoring = FALSE;
}

static void
set_string_if_changed (GSettings  *settings,
                       const char *key,
                       const char *value)
{
  g_autofree char *old = g_settings_get_string (settings, key);

  if (value != NULL && g_strcmp0 (old, value) != 0)
    g_settings_set_string (settings, key, value);
}

static void
save_inputs (HrWindow *self)
{
  const HrScenario *s = hr_calculator_get_scenario (self->calculator);
  HrMatrix *matrix;
  guint64 contexts[MAX_SAVED_CONTEXTS];
  guint n;
  g_autoptr(GVariant) old = NULL;
  GVariant *value;

  if (self->settings == NULL || self->restoring)
    return;

  g_settings_delay (self->settings);
  if (s->model != NULL)
    set_string_if_changed (self->settings, "model", hr_model_spec_get_id (s->model));
  if (s->precision != NULL)
    set_string_if_changed (self->settings, "precision", hr_precision_get_id (s->precision));
  if (s->kv_type != NULL)
    set_string_if_changed (self->settings, "kv-type", hr_kv_type_get_id (s->kv_type));
  if (s->hardware != NULL)
    set_string_if_changed (self->settings, "hardware", hr_hardware_get_id (s->hardware));
  set_string_if_changed (self->settings, "engine", hr_engine_to_string (s->engine));
  if (g_settings_get_uint64 (self->settings, "context") != s->context)
    g_settings_set_uint64 (self->settings, "context", s->context);
  if (g_settings_get_uint (self->settings, "batch") != s->batch)
    g_settings_set_uint (self->settings, "batch", s->batch);
  if (g_settings_get_uint (self->settings, "gpu-count") != s->gpus)
    g_settings_set_uint (self->settings, "gpu-count", s->gpus);

  /* The matrix's contexts, once the matrix exists (before, the saved ones
   * are still current). */
  matrix = self->matrix_view != NULL ? hr_matrix_view_get_matrix (self->matrix_view) : NULL;
  if (matrix != NULL)
    {
      n = MIN (hr_matrix_get_n_contexts (matrix), MAX_SAVED_CONTEXTS);
      for (guint i = 0; i < n; i++)
        contexts[i] = hr_matrix_get_context (matrix, i);
      value = g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, contexts, n, sizeof (guint64));
      old = g_settings_get_value (self->settings, "matrix-contexts");
      if (!g_variant_equal (old, value))
        g_settings_set_value (self->settings, "matrix-contexts", value);
      else
        g_variant_unref (g_variant_ref_sink (value));
    }
  g_settings_apply (self->settings);
}

static void
on_units_setting_changed (HrWindow *self)
{
  hr_window_set_units (self, g_settings_get_enum (self->settings, "units"));
}

static gboolean
on_close_request (HrWindow *self)
{
  int width, height;

  if (self->settings == NULL)
    return FALSE;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_delay (self->settings);
  g_settings_set_boolean (self->settings, "window-maximized",
                          gtk_window_is_maximized (GTK_WINDOW (self)));
  if (!gtk_window_is_maximized (GTK_WINDOW (self)) && width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_apply (self->settings);
  save_inputs (self);
  return FALSE;
}

/* ------------------------------------------------------ calibration */

/* The speed corrections of this computer (headroom-cli calibrate), when
 * the setting asks for them; a corrupted file is set aside and said. */
static void
apply_calibration_setting (HrWindow *self)
{
  g_autoptr(HrCalibration) calibration = NULL;

  if (g_settings_get_boolean (self->settings, "use-calibration"))
    {
      g_autofree char *note = NULL;

      calibration = hr_calibration_load_default (&note);
      if (note != NULL)
        gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", note);
    }
  hr_calculator_set_calibration (self->calculator, calibration);
}

/* ---------------------------------------------------------- set-up */

/* Restores the last inputs, then saves every change. */
void
_hr_window_settings_init (HrWindow *self)
{
  g_autoptr(GAction) units = NULL;
  g_autoptr(GAction) calibration = NULL;

  self->settings = settings_new ();
  restore_settings (self);
  if (self->settings == NULL)
    return;

  units = g_settings_create_action (self->settings, "units");
  g_action_map_add_action (G_ACTION_MAP (self), units);
  calibration = g_settings_create_action (self->settings, "use-calibration");
  g_action_map_add_action (G_ACTION_MAP (self), calibration);
  apply_calibration_setting (self);
  g_signal_connect_object (self->settings, "changed::use-calibration",
                           G_CALLBACK (apply_calibration_setting), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::units",
                           G_CALLBACK (on_units_setting_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->calculator, "changed", G_CALLBACK (save_inputs), self,
                           G_CONNECT_SWAPPED);
  for (guint i = 0; i < G_N_ELEMENTS (kept_properties); i++)
    {
      g_autofree char *signal = g_strconcat ("notify::", kept_properties[i], NULL);

      g_signal_connect_object (self->calculator, signal, G_CALLBACK (save_kept_property), self,
                               G_CONNECT_SWAPPED);
    }
  g_signal_connect (self, "close-request", G_CALLBACK (on_close_request), NULL);
}

/* The matrix view was just built: it shows the restored contexts, and
 * its contexts are saved when they change. */
void
_hr_window_settings_matrix_init (HrWindow *self)
{
  HrMatrix *matrix = hr_matrix_view_get_matrix (self->matrix_view);

  if (self->pending_contexts != NULL)
    {
      hr_matrix_set_contexts (matrix, (guint64 *) self->pending_contexts->data,
                              self->pending_contexts->len);
      g_clear_pointer (&self->pending_contexts, g_array_unref);
    }
  if (self->settings != NULL)
    g_signal_connect_object (matrix, "items-changed", G_CALLBACK (save_inputs), self,
                             G_CONNECT_SWAPPED);
}

void
_hr_window_settings_dispose (HrWindow *self)
{
  /* The settings action would otherwise outlive the window's action group
   * and report state changes to it. */
  if (self->settings != NULL)
    g_action_map_remove_action (G_ACTION_MAP (self), "units");
  g_clear_object (&self->settings);
  g_clear_pointer (&self->pending_contexts, g_array_unref);
}
