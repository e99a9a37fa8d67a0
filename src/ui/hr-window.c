/* hr-window.c — the main window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The calculator lives in the template; the sidebar's controls and every
 * view are bound to it there (combo rows through the calculator's index
 * properties).  This file holds the window's lifecycle, the two pickers
 * (they choose list items, which have no property to bind), the engine
 * options and the views built when first shown.  The actions (import,
 * export, toasts) are in hr-window-actions.c, what is remembered between
 * runs in hr-window-settings.c; hr-window-private.h holds the struct.
 */

#define G_LOG_DOMAIN "hr-window"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-catalog.h"
#include "hr-commands-view.h"
#include "hr-compare-view.h"
#include "hr-engine.h"
#include "hr-file.h"
#include "hr-text.h"
#include "hr-hardware-view.h"
#include "hr-matrix-view.h"
#include "hr-model-view.h"
#include "hr-serving-group.h"
#include "hr-recommend-view.h"
#include "hr-serving-view.h"
#include "hr-placement-group.h"
#include "hr-row-layout.h"
#include "hr-ui-format.h"
#include "hr-wheel-guard.h"
#include "hr-window-private.h"

G_DEFINE_FINAL_TYPE (HrWindow, hr_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_UNITS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ----------------------------------------------------------- describers */

/* The model picker lists the models on disk (HrLocalModel, “On this
 * computer”, hr-window-detect.c) above the catalog's. */
static char *
model_title (gpointer item)
{
  if (HR_IS_LOCAL_MODEL (item))
    return _hr_local_model_title (item);
  return g_strdup (hr_model_spec_get_name (item));
}

static char *
model_subtitle_text (HrModelSpec *model)
{
  const HrModelArch *a = hr_model_spec_get_arch (model);
  g_autofree char *total = hr_format_params (a->params_total);
  g_autofree char *context = hr_format_context_short (a->max_context);
  const char *attention = hr_attention_kind_to_string (a->attention);
  g_autofree char *upper = g_ascii_strup (attention, -1);

  if (hr_model_spec_is_moe (model))
    {
      g_autofree char *active = hr_format_params (a->params_active);
      /* TRANSLATORS: "30.5B (3.4B active) · GQA · 40K context" */
      return g_strdup_printf (_("%s (%s active) · %s · %s context"), total, active, upper,
                              context);
    }
  /* TRANSLATORS: "9.4B · GQA · 32K context" */
  return g_strdup_printf (_("%s · %s · %s context"), total, upper, context);
}

static char *
model_subtitle (gpointer item)
{
  if (HR_IS_LOCAL_MODEL (item))
    return _hr_local_model_subtitle (item);
  return model_subtitle_text (item);
}

static char *
model_group (gpointer item)
{
  if (HR_IS_LOCAL_MODEL (item))
    return g_strdup (_("On this computer"));
  if (hr_model_spec_get_origin (item) == HR_ORIGIN_USER)
    return g_strdup (_("Imported"));
  return g_strdup (hr_model_spec_get_family (item));
}

static char *
model_search (gpointer item)
{
  if (HR_IS_LOCAL_MODEL (item))
    return _hr_local_model_search_text (item);
  return hr_model_spec_dup_search_text (item);
}

static char *
hardware_title (gpointer item)
{
  return g_strdup (hr_hardware_get_name (item));
}

static char *
hardware_subtitle (gpointer item)
{
  return hr_ui_format_device_specs (NULL, item, HR_UNITS_BINARY);
}

static char *
hardware_group (gpointer item)
{
  return g_strdup (hr_hardware_get_vendor (item));
}

static char *
hardware_search (gpointer item)
{
  g_autofree char *text = g_strjoin (" ", hr_hardware_get_id (item), hr_hardware_get_name (item),
                                     hr_hardware_get_vendor (item), NULL);
  return g_utf8_strdown (text, -1);
}

/* Template closure: the GPU row shows where the Serving group, which
 * counts machines × GPUs, does not. */
static gboolean
window_gpus_row_visible (gpointer self,
                         guint    engine)
{
  return !hr_serving_group_shows_for (engine);
}

/* Template closure: how the engine that answers (Automatic's pick
 * included) spreads the model over the GPUs. */
static char *
window_gpus_subtitle (gpointer self,
                      guint    engine,
                      guint    split_mode)
{
  switch (engine)
    {
    case HR_ENGINE_LLAMACPP:
    case HR_ENGINE_OLLAMA:
      if (split_mode == HR_SPLIT_ROW)
        return g_strdup (_("Row split: each layer over every GPU"));
      if (split_mode == HR_SPLIT_NONE)
        return g_strdup (_("Split mode None: one GPU holds the model"));
      return g_strdup (_("Layer split: whole layers on each GPU"));
    case HR_ENGINE_VLLM:
    case HR_ENGINE_SGLANG:
    case HR_ENGINE_GENERIC:   /* the seed page's method counts tensor parallelism */
    default:
      return g_strdup (_("Tensor parallel"));
    }
}

/* Template closure: what each engine profile assumes. */
static char *
window_engine_subtitle (gpointer self,
                        HrEngine engine)
{
  switch (engine)
    {
    case HR_ENGINE_LLAMACPP:
      return g_strdup (_("llama-server: exact GGUF weights, padded KV, compute buffer"));
    case HR_ENGINE_OLLAMA:
      return g_strdup (_("llama.cpp with Ollama’s defaults: context × parallel requests"));
    case HR_ENGINE_VLLM:
      return g_strdup (_("A memory budget; what is left becomes KV cache blocks"));
    case HR_ENGINE_SGLANG:
      return g_strdup (_("A static memory fraction for weights and the token pool"));
    case HR_ENGINE_AUTO:
      return g_strdup (_("llama.cpp for GGUF files, vLLM for BF16 and safetensors checkpoints"));
    case HR_ENGINE_GENERIC:
    default:
      return g_strdup (_("No engine’s buffers or padding: weights, cache and a flat overhead"));
    }
}

/* Template closure: the model row's subtitle. */
static char *
window_model_subtitle (gpointer     self,
                       HrModelSpec *model)
{
  return model ? model_subtitle_text (model) : g_strdup ("");
}

/* Template closures: the lists the precision and KV cache rows choose
 * from; their “selected” is bound to the calculator's index properties. */
static GListModel *
window_catalog_precisions (gpointer   self,
                           HrCatalog *catalog)
{
  return catalog ? g_object_ref (hr_catalog_get_precisions (catalog)) : NULL;
}

static GListModel *
window_catalog_kv_types (gpointer   self,
                         HrCatalog *catalog)
{
  return catalog ? g_object_ref (hr_catalog_get_kv_types (catalog)) : NULL;
}

/* ------------------------------------------------------ control syncing */

/* The engine options show what the calculator assumes; an option left at
 * the engine's default shows that default. */
static void
sync_engine_options (HrWindow *self)
{
  HrEngine engine = hr_calculator_get_engine (self->calculator);
  const HrEngineOptions *options = hr_calculator_get_engine_options (self->calculator);
  gboolean llamacpp;

  /* Automatic shows the rows of the engine it picked. */
  g_object_get (self->calculator, "engine-used", &engine, NULL);
  llamacpp = engine == HR_ENGINE_LLAMACPP || engine == HR_ENGINE_OLLAMA;
  gtk_widget_set_visible (GTK_WIDGET (self->flash_row), llamacpp);
  gtk_widget_set_visible (GTK_WIDGET (self->utilization_row), engine == HR_ENGINE_VLLM);

  if (adw_combo_row_get_selected (self->flash_row) != (guint) options->flash_attn)
    adw_combo_row_set_selected (self->flash_row, options->flash_attn);
  gtk_adjustment_set_value (self->utilization_adjustment,
                            options->gpu_memory_utilization > 0
                            ? options->gpu_memory_utilization
                            : HR_VLLM_DEFAULT_GPU_MEMORY_UTILIZATION);
}

static void
on_flash_selected (HrWindow *self)
{
  HrEngineOptions options = *hr_calculator_get_engine_options (self->calculator);
  guint selected = adw_combo_row_get_selected (self->flash_row);

  if (selected > HR_FLASH_ATTN_OFF || selected == (guint) options.flash_attn)
    return;
  options.flash_attn = selected;
  hr_calculator_set_engine_options (self->calculator, &options);
}

static void
on_utilization_changed (HrWindow *self)
{
  HrEngineOptions options = *hr_calculator_get_engine_options (self->calculator);
  double value = gtk_adjustment_get_value (self->utilization_adjustment);
  double current = options.gpu_memory_utilization > 0 ? options.gpu_memory_utilization
                                                      : HR_VLLM_DEFAULT_GPU_MEMORY_UTILIZATION;

  if (G_APPROX_VALUE (value, current, 1e-9))
    return;
  options.gpu_memory_utilization = value;
  hr_calculator_set_engine_options (self->calculator, &options);
}

/* The pickers show the calculator's model and device... */
static void
sync_model_picker (HrWindow *self)
{
  hr_picker_set_selected (self->model_picker, G_OBJECT (hr_calculator_get_model (self->calculator)));
}

static void
sync_hardware_picker (HrWindow *self)
{
  hr_picker_set_selected (self->hardware_picker,
                          G_OBJECT (hr_calculator_get_hardware (self->calculator)));
}

/* ...and set them when the user picks. */
static void
on_model_picked (HrWindow *self)
{
  GObject *item = hr_picker_get_selected (self->model_picker);

  if (HR_IS_LOCAL_MODEL (item))
    _hr_window_import_local_model (self, HR_LOCAL_MODEL (item));
  else if (item != NULL)
    hr_calculator_set_model (self->calculator, HR_MODEL_SPEC (item));
}

static void
on_hardware_picked (HrWindow *self)
{
  HrHardware *hardware = HR_HARDWARE (hr_picker_get_selected (self->hardware_picker));

  if (hardware != NULL)
    hr_calculator_set_hardware (self->calculator, hardware);
}

/* ------------------------------------------------------------ lazy views */

/* Views other than the overview get the calculator when first shown (or
 * first needed): building their tables at start-up would delay the first
 * frame by a third.  Once attached, a view follows every change. */
GtkWidget *
_hr_window_attach_view (HrWindow   *self,
                        const char *name)
{
  static const struct { const char *name; GType (*get_type) (void); gsize slot; } lazy[] = {
    { "matrix", hr_matrix_view_get_type, G_STRUCT_OFFSET (HrWindow, matrix_slot) },
    { "hardware", hr_hardware_view_get_type, G_STRUCT_OFFSET (HrWindow, hardware_slot) },
    { "model", hr_model_view_get_type, G_STRUCT_OFFSET (HrWindow, model_slot) },
    { "commands", hr_commands_view_get_type, G_STRUCT_OFFSET (HrWindow, commands_slot) },
    { "compare", hr_compare_view_get_type, G_STRUCT_OFFSET (HrWindow, compare_slot) },
    { "serving", hr_serving_view_get_type, G_STRUCT_OFFSET (HrWindow, serving_slot) },
    { "recommend", hr_recommend_view_get_type, G_STRUCT_OFFSET (HrWindow, recommend_slot) },
  };

  if (g_strcmp0 (name, "overview") == 0)
    return GTK_WIDGET (self->overview);

  for (guint i = 0; i < G_N_ELEMENTS (lazy); i++)
    {
      AdwBin *slot = *(AdwBin **) ((guint8 *) self + lazy[i].slot);
      GtkWidget *view;

      if (g_strcmp0 (name, lazy[i].name) != 0)
        continue;

      view = adw_bin_get_child (slot);
      if (view != NULL)
        return view;

      view = g_object_new (lazy[i].get_type (), "calculator", self->calculator, NULL);
      g_object_bind_property (self, "units", view, "units", G_BINDING_SYNC_CREATE);
      hr_row_layout_apply (view);
      adw_bin_set_child (slot, view);

      if (HR_IS_MATRIX_VIEW (view))
        {
          self->matrix_view = HR_MATRIX_VIEW (view);
          _hr_window_settings_matrix_init (self);
        }
      _hr_window_detect_view_built (self, view);
      return view;
    }
  return NULL;
}

/* The primary menu's popover is built when the menu is first opened. */
static void
create_primary_menu (GtkMenuButton *button,
                     gpointer       user_data)
{
  HrWindow *self = user_data;

  gtk_menu_button_set_menu_model (button, self->primary_menu);
}

/* The bottom switcher shows only when the header's does not fit (the
 * title shows there instead): its buttons are built the first time it
 * is revealed. */
static void
on_title_visible (HrWindow *self)
{
  gboolean title_visible =
    adw_squeezer_get_visible_child (self->title_squeezer) == GTK_WIDGET (self->window_title);

  if (title_visible && adw_view_switcher_bar_get_stack (self->switcher_bar) == NULL)
    adw_view_switcher_bar_set_stack (self->switcher_bar, self->view_stack);
  adw_view_switcher_bar_set_reveal (self->switcher_bar, title_visible);
}

/* Into the sidebar, once it is on screen (a widget not mapped yet takes
 * no focus; the sidebar maps when its reveal animation starts), unless
 * the focus is there by then (Ctrl+F's model search). */
static void
focus_sidebar (HrWindow *self)
{
  GtkWidget *sidebar = adw_flap_get_flap (self->flap);

  g_clear_signal_handler (&self->sidebar_map_handler, sidebar);
  if (hr_ui_focus_within (sidebar))
    return;
  if (gtk_widget_get_mapped (sidebar))
    gtk_widget_child_focus (sidebar, GTK_DIR_TAB_FORWARD);
  else
    self->sidebar_map_handler = g_signal_connect_object (sidebar, "map",
                                                         G_CALLBACK (focus_sidebar), self,
                                                         G_CONNECT_SWAPPED | G_CONNECT_AFTER);
}

/* Folded and shown, the sidebar lies over the view: the view takes no
 * focus (Tab would walk widgets hidden under the sidebar), and focus left
 * outside the sidebar moves into it.  Hidden with focus in it, focus goes
 * back to the button that shows it, else to the view. */
static void
on_flap_state_changed (HrWindow *self)
{
  GtkWidget *sidebar = adw_flap_get_flap (self->flap);
  GtkWidget *content = adw_flap_get_content (self->flap);
  gboolean folded = adw_flap_get_folded (self->flap);
  gboolean revealed = adw_flap_get_reveal_flap (self->flap);

  gtk_widget_set_can_focus (content, !(folded && revealed));
  if (folded && revealed)
    focus_sidebar (self);
  else
    g_clear_signal_handler (&self->sidebar_map_handler, sidebar);
  if (!revealed && hr_ui_focus_within (sidebar) &&
      !gtk_widget_grab_focus (self->sidebar_button))
    gtk_widget_child_focus (content, GTK_DIR_TAB_FORWARD);
}

static void
on_visible_view_changed (HrWindow *self)
{
  const char *name = adw_view_stack_get_visible_child_name (self->view_stack);

  if (name != NULL)
    _hr_window_attach_view (self, name);
}

/* ------------------------------------------------------------- lifecycle */

static void
hr_window_dispose (GObject *object)
{
  HrWindow *self = (HrWindow *) object;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->undo_removed);
  _hr_window_settings_dispose (self);
  _hr_window_detect_dispose (self);
  g_clear_handle_id (&self->deferred_idle, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_WINDOW);
  G_OBJECT_CLASS (hr_window_parent_class)->dispose (object);
}

static void
hr_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_UNITS:
      g_value_set_uint (value, HR_WINDOW (object)->units);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_window_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_UNITS:
      hr_window_set_units (HR_WINDOW (object), g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* What the first frame does not show is built when the main loop is
 * first idle, after the window's first frame, and shown then: the
 * sidebar groups below the fold (GPU layers and system RAM, serving
 * plans) and the rows of the combo rows' popovers.  A window shows its
 * first frame sooner for it (the groups' ~250 widgets were a fifth of
 * the window's building, their wrapping labels a tenth of the first
 * frame's layout; the precision popover alone lists 37 rows), and the
 * groups appear a frame later, where they are rarely on screen at all.
 * A window unrealized unpainted builds and shows them at once: realized
 * again, it paints them. */
static void
build_deferred (HrWindow *self)
{
  AdwComboRow *combo_rows[] = {
    self->precision_row, self->kv_row, self->engine_row, self->flash_row,
  };
  GtkWidget *placement, *serving;

  g_clear_handle_id (&self->deferred_idle, g_source_remove);
  if (gtk_widget_get_first_child (self->later_groups) != NULL)
    return;

  /* the popovers' rows, with the row's own factory */
  for (guint i = 0; i < G_N_ELEMENTS (combo_rows); i++)
    adw_combo_row_set_list_factory (combo_rows[i], NULL);

  placement = g_object_new (HR_TYPE_PLACEMENT_GROUP, "calculator", self->calculator, NULL);
  g_object_bind_property (self, "units", placement, "units", G_BINDING_SYNC_CREATE);
  serving = g_object_new (HR_TYPE_SERVING_GROUP, "calculator", self->calculator, NULL);
  hr_row_layout_apply (placement);
  hr_row_layout_apply (serving);
  gtk_box_append (GTK_BOX (self->later_groups), placement);
  gtk_box_append (GTK_BOX (self->later_groups), serving);
  hr_wheel_guard_apply (placement);
  hr_wheel_guard_apply (serving);
}

static void
show_later_groups (HrWindow *self)
{
  build_deferred (self);
  gtk_widget_set_visible (self->later_groups, TRUE);
}

/* Realized, with no handler waiting for the first frame: painted (an
 * unrealized window has built and shown the groups already). */
static gboolean
first_frame_painted (HrWindow *self)
{
  return gtk_widget_get_realized (GTK_WIDGET (self)) && self->first_frame_handler == 0;
}

static gboolean
build_deferred_when_idle (gpointer data)
{
  HrWindow *self = data;

  self->deferred_idle = 0;
  if (first_frame_painted (self))
    show_later_groups (self);
  else
    build_deferred (self);
  return G_SOURCE_REMOVE;
}

static void
on_first_frame (HrWindow *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  if (clock != NULL && self->first_frame_handler != 0)
    g_clear_signal_handler (&self->first_frame_handler, clock);
  /* built already (a test's main loop ran before any frame): show them;
   * else the idle builds and shows them after this frame */
  if (self->deferred_idle == 0)
    show_later_groups (self);
}

static void
hr_window_realize (GtkWidget *widget)
{
  HrWindow *self = HR_WINDOW (widget);

  GTK_WIDGET_CLASS (hr_window_parent_class)->realize (widget);
  if (!gtk_widget_get_visible (self->later_groups))
    self->first_frame_handler =
      g_signal_connect_object (gtk_widget_get_frame_clock (widget), "after-paint",
                               G_CALLBACK (on_first_frame), self, G_CONNECT_SWAPPED);
}

static void
hr_window_unrealize (GtkWidget *widget)
{
  HrWindow *self = HR_WINDOW (widget);

  /* never painted: show them now, a window realized again paints anyway */
  if (self->first_frame_handler != 0)
    {
      g_clear_signal_handler (&self->first_frame_handler, gtk_widget_get_frame_clock (widget));
      show_later_groups (self);
    }
  GTK_WIDGET_CLASS (hr_window_parent_class)->unrealize (widget);
}

static void
hr_window_class_init (HrWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_window_dispose;
  object_class->get_property = hr_window_get_property;
  object_class->set_property = hr_window_set_property;
  widget_class->realize = hr_window_realize;
  widget_class->unrealize = hr_window_unrealize;

  properties[PROP_UNITS] =
    g_param_spec_uint ("units", NULL, "0 = GiB, 1 = GB", 0, 1, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (HR_TYPE_CALCULATOR);
  g_type_ensure (HR_TYPE_CATALOG);
  g_type_ensure (HR_TYPE_PICKER);
  g_type_ensure (HR_TYPE_CONTEXT_ROW);
  g_type_ensure (HR_TYPE_OVERVIEW);
  g_type_ensure (HR_TYPE_PRECISION);
  g_type_ensure (HR_TYPE_KV_TYPE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom_app/Headroom/ui/hr-window.ui");
  gtk_widget_class_bind_template_child (widget_class, HrWindow, calculator);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, sidebar_button);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, title_squeezer);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, switcher_bar);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, primary_menu);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, model_picker);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, hardware_picker);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, precision_row);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, kv_row);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, engine_row);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, flash_row);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, utilization_row);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, utilization_adjustment);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, detect_row);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, detect_spinner);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, edit_device_button);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, overview);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, later_groups);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, matrix_slot);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, hardware_slot);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, model_slot);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, commands_slot);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, compare_slot);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, serving_slot);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, recommend_slot);
  gtk_widget_class_bind_template_callback_full (widget_class, "model_subtitle",
                                                G_CALLBACK (window_model_subtitle));
  gtk_widget_class_bind_template_callback_full (widget_class, "gpus_subtitle",
                                                G_CALLBACK (window_gpus_subtitle));
  gtk_widget_class_bind_template_callback_full (widget_class, "gpus_row_visible",
                                                G_CALLBACK (window_gpus_row_visible));
  gtk_widget_class_bind_template_callback_full (widget_class, "engine_subtitle",
                                                G_CALLBACK (window_engine_subtitle));
  gtk_widget_class_bind_template_callback_full (widget_class, "catalog_precisions",
                                                G_CALLBACK (window_catalog_precisions));
  gtk_widget_class_bind_template_callback_full (widget_class, "catalog_kv_types",
                                                G_CALLBACK (window_catalog_kv_types));
  gtk_widget_class_bind_template_callback (widget_class, on_flash_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_utilization_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_model_picked);
  gtk_widget_class_bind_template_callback (widget_class, on_hardware_picked);
  gtk_widget_class_bind_template_callback (widget_class, on_title_visible);
  hr_ui_format_bind_callbacks (widget_class);

  _hr_window_class_actions_init (klass);
  _hr_window_class_detect_init (klass);
}

static void
hr_window_init (HrWindow *self)
{
  static const HrPickerDescriber model_describer = {
    model_title, model_subtitle, model_group, model_search,
  };
  static const HrPickerDescriber hardware_describer = {
    hardware_title, hardware_subtitle, hardware_group, hardware_search,
  };
  HrCatalog *catalog;

  gtk_widget_init_template (GTK_WIDGET (self));
  hr_row_layout_apply (GTK_WIDGET (self));
  hr_wheel_guard_apply (adw_flap_get_flap (self->flap));
  self->deferred_idle = g_idle_add (build_deferred_when_idle, self);
  g_source_set_name_by_id (self->deferred_idle, "[headroom] build deferred");

  catalog = hr_calculator_get_catalog (self->calculator);
  hr_picker_set_items (self->model_picker, _hr_window_detect_model_items (self),
                       &model_describer);
  hr_picker_set_items (self->hardware_picker, hr_catalog_get_hardware (catalog),
                       &hardware_describer);
  hr_picker_set_no_match (self->model_picker, _("No model matches"));
  hr_picker_set_no_match (self->hardware_picker, _("No device matches"));

  gtk_menu_button_set_create_popup_func (self->menu_button, create_primary_menu, self, NULL);
  _hr_window_settings_init (self);
  _hr_window_detect_init (self);

  sync_model_picker (self);
  sync_hardware_picker (self);
  sync_engine_options (self);
  g_signal_connect_object (self->calculator, "notify::model",
                           G_CALLBACK (sync_model_picker), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->calculator, "notify::hardware",
                           G_CALLBACK (sync_hardware_picker), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->calculator, "changed",
                           G_CALLBACK (sync_engine_options), self, G_CONNECT_SWAPPED);

  g_signal_connect_object (self->view_stack, "notify::visible-child",
                           G_CALLBACK (on_visible_view_changed), self, G_CONNECT_SWAPPED);
  on_visible_view_changed (self);
  on_title_visible (self);
  g_signal_connect_object (self->flap, "notify::folded",
                           G_CALLBACK (on_flap_state_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->flap, "notify::reveal-flap",
                           G_CALLBACK (on_flap_state_changed), self, G_CONNECT_SWAPPED);

  _hr_window_actions_init (self);
}

HrWindow *
hr_window_new (GtkApplication *application)
{
  return g_object_new (HR_TYPE_WINDOW, "application", application, NULL);
}

HrCalculator *
hr_window_get_calculator (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return self->calculator;
}

guint
hr_window_get_units (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), 0);
  return self->units;
}

void
hr_window_set_units (HrWindow *self,
                     guint     units)
{
  g_return_if_fail (HR_IS_WINDOW (self));

  units = MIN (units, HR_UNITS_DECIMAL);
  if (self->units == units)
    return;
  self->units = units;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNITS]);
}

/* A view by its stack page name: overview, matrix, hardware, model,
 * commands, compare, serving.  For tests. */
GtkWidget *
hr_window_get_view (HrWindow   *self,
                    const char *name)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return _hr_window_attach_view (self, name);
}

/* Shows a view by name, as clicking its tab does. */
void
hr_window_show_view (HrWindow   *self,
                     const char *name)
{
  g_return_if_fail (HR_IS_WINDOW (self));
  adw_view_stack_set_visible_child_name (self->view_stack, name);
}
