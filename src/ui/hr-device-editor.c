/* hr-device-editor.c — add or edit a device by hand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A card the catalog does not list (an RTX 2080 Ti, a laptop GPU, a
 * Strix Halo machine) is described with the figures of its data sheet:
 * name, vendor, discrete or unified memory, memory size, bandwidth and
 * FP16 tensor throughput.  The values go through the catalog's own checks
 * (hr_hardware_new_from_fields()) and are saved atomically to
 * custom-devices.json in the user directory (hr_catalog_save_custom_hardware()).
 * While a value is missing or out of range, Save is off and the first
 * problem is said under the fields; a failed save says why and keeps the
 * window open.
 */

#define G_LOG_DOMAIN "hr-device-editor"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-device-editor.h"
#include "hr-row-layout.h"

/* The vendor row's items, in order. */
static const char * const vendors[] = { "NVIDIA", "AMD", "Intel", "Apple", "Other" };

#define NAME_MAX_LENGTH 80

struct _HrDeviceEditor
{
  AdwWindow parent_instance;

  HrCatalog *catalog;
  HrHardware *device;          /* the device edited, or the one saved */
  char *user_dir;
  char *message;

  /* template children */
  AdwEntryRow *name_row;
  AdwComboRow *vendor_row;
  AdwComboRow *kind_row;
  GtkSpinButton *memory_spin;
  GtkSpinButton *bandwidth_spin;
  GtkSpinButton *tflops_spin;
  GtkLabel *message_label;
  GtkWidget *remove_button;
};

G_DEFINE_FINAL_TYPE (HrDeviceEditor, hr_device_editor, ADW_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_CATALOG,
  PROP_DEVICE,
  PROP_USER_DIR,
  PROP_MESSAGE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SAVED,
  REMOVED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
set_message (HrDeviceEditor *self,
             const char     *message)
{
  if (g_strcmp0 (self->message, message) == 0)
    return;
  g_free (self->message);
  self->message = g_strdup (message);
  gtk_label_set_label (self->message_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), message != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
}

static char *
dup_name (HrDeviceEditor *self)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->name_row))));
}

/* The first problem with the values, or %NULL. */
static const char *
problem (HrDeviceEditor *self)
{
  g_autofree char *name = dup_name (self);

  if (name[0] == '\0')
    return _("Give the device a name.");
  if (g_utf8_strlen (name, -1) > NAME_MAX_LENGTH)
    return _("The name is too long.");
  if (!(gtk_spin_button_get_value (self->memory_spin) > 0))
    return _("The memory size must be more than 0 GiB.");
  if (!(gtk_spin_button_get_value (self->bandwidth_spin) > 0))
    return _("The memory bandwidth must be more than 0 GB/s: it sets the generation speed.");
  return NULL;
}

static void
validate (HrDeviceEditor *self)
{
  const char *text = problem (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.save", text == NULL);
  set_message (self, text);
}

static void
field_changed_cb (HrDeviceEditor *self)
{
  validate (self);
}

static void
fill_from_device (HrDeviceEditor *self,
                  HrHardware     *device)
{
  HrHardwareFields values = {
    .id = hr_hardware_get_id (device),
    .name = hr_hardware_get_name (device),
    .vendor = hr_hardware_get_vendor (device),
    .kind = hr_hardware_is_unified (device) ? HR_DEVICE_UNIFIED : HR_DEVICE_DISCRETE,
    .memory_gib = hr_hardware_get_memory_bytes (device) / HR_GIB,
    .bandwidth_gbps = hr_hardware_get_bandwidth_gbps (device),
    .fp16_tflops = hr_hardware_get_fp16_tflops (device),
  };

  hr_device_editor_set_from_fields (self, &values);
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  hr_device_editor_save (HR_DEVICE_EDITOR (widget));
}

static void
remove_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HrDeviceEditor *self = HR_DEVICE_EDITOR (widget);
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;

  if (self->device == NULL || !hr_hardware_is_custom (self->device))
    return;

  id = g_strdup (hr_hardware_get_id (self->device));
  if (!hr_catalog_remove_custom_hardware (self->catalog, id, self->user_dir, &error))
    {
      g_autofree char *text = g_strdup_printf (_("The device could not be removed: %s"),
                                               error->message);
      set_message (self, text);
      return;
    }
  g_signal_emit (self, signals[REMOVED], 0, id);
  gtk_window_close (GTK_WINDOW (self));
}

static void
hr_device_editor_constructed (GObject *object)
{
  HrDeviceEditor *self = HR_DEVICE_EDITOR (object);
  gboolean editing = self->device != NULL && hr_hardware_is_custom (self->device);

  G_OBJECT_CLASS (hr_device_editor_parent_class)->constructed (object);

  gtk_window_set_title (GTK_WINDOW (self), editing ? _("Edit Device") : _("Add Device"));
  gtk_widget_set_visible (self->remove_button, editing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.remove", editing);
  if (self->device != NULL)
    fill_from_device (self, self->device);
  /* Editing a catalog device makes a custom copy of it. */
  if (!editing)
    g_clear_object (&self->device);
  validate (self);
}

static void
hr_device_editor_dispose (GObject *object)
{
  HrDeviceEditor *self = HR_DEVICE_EDITOR (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_DEVICE_EDITOR);
  g_clear_object (&self->catalog);
  g_clear_object (&self->device);

  G_OBJECT_CLASS (hr_device_editor_parent_class)->dispose (object);
}

static void
hr_device_editor_finalize (GObject *object)
{
  HrDeviceEditor *self = HR_DEVICE_EDITOR (object);

  g_free (self->user_dir);
  g_free (self->message);

  G_OBJECT_CLASS (hr_device_editor_parent_class)->finalize (object);
}

static void
hr_device_editor_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  HrDeviceEditor *self = HR_DEVICE_EDITOR (object);

  switch (prop_id)
    {
    case PROP_CATALOG:
      g_value_set_object (value, self->catalog);
      break;
    case PROP_DEVICE:
      g_value_set_object (value, self->device);
      break;
    case PROP_USER_DIR:
      g_value_set_string (value, self->user_dir);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_device_editor_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  HrDeviceEditor *self = HR_DEVICE_EDITOR (object);

  switch (prop_id)
    {
    case PROP_CATALOG:
      self->catalog = g_value_dup_object (value);
      break;
    case PROP_DEVICE:
      self->device = g_value_dup_object (value);
      break;
    case PROP_USER_DIR:
      self->user_dir = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_device_editor_class_init (HrDeviceEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  const GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                G_PARAM_STATIC_STRINGS;

  object_class->constructed = hr_device_editor_constructed;
  object_class->dispose = hr_device_editor_dispose;
  object_class->finalize = hr_device_editor_finalize;
  object_class->get_property = hr_device_editor_get_property;
  object_class->set_property = hr_device_editor_set_property;

  properties[PROP_CATALOG] =
    g_param_spec_object ("catalog", NULL, NULL, HR_TYPE_CATALOG, construct);
  properties[PROP_DEVICE] =
    g_param_spec_object ("device", NULL, NULL, HR_TYPE_HARDWARE, construct);
  properties[PROP_USER_DIR] =
    g_param_spec_string ("user-dir", NULL, NULL, NULL, construct);
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * HrDeviceEditor::saved:
   * @device: the device as saved (in the catalog)
   */
  signals[SAVED] =
    g_signal_new ("saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, HR_TYPE_HARDWARE);
  /**
   * HrDeviceEditor::removed:
   * @id: the id of the device removed
   */
  signals[REMOVED] =
    g_signal_new ("removed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (
    widget_class, "/io/github/headroom_app/Headroom/ui/hr-device-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, HrDeviceEditor, name_row);
  gtk_widget_class_bind_template_child (widget_class, HrDeviceEditor, vendor_row);
  gtk_widget_class_bind_template_child (widget_class, HrDeviceEditor, kind_row);
  gtk_widget_class_bind_template_child (widget_class, HrDeviceEditor, memory_spin);
  gtk_widget_class_bind_template_child (widget_class, HrDeviceEditor, bandwidth_spin);
  gtk_widget_class_bind_template_child (widget_class, HrDeviceEditor, tflops_spin);
  gtk_widget_class_bind_template_child (widget_class, HrDeviceEditor, message_label);
  gtk_widget_class_bind_template_child (widget_class, HrDeviceEditor, remove_button);
  gtk_widget_class_bind_template_callback (widget_class, field_changed_cb);

  gtk_widget_class_install_action (widget_class, "editor.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "editor.remove", NULL, remove_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
hr_device_editor_init (HrDeviceEditor *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  hr_row_layout_apply (GTK_WIDGET (self));
}

/**
 * hr_device_editor_new:
 * @catalog: where the device is added
 * @device: (nullable): a custom device to edit, a catalog device to start a
 *   custom one from, or %NULL for a blank one
 * @user_dir: the user directory (hr_catalog_dup_user_dir() in the app)
 *
 * Returns: (transfer full): a new editor; present it, transient for the
 *   window
 */
HrDeviceEditor *
hr_device_editor_new (HrCatalog  *catalog,
                      HrHardware *device,
                      const char *user_dir)
{
  g_return_val_if_fail (HR_IS_CATALOG (catalog), NULL);
  g_return_val_if_fail (device == NULL || HR_IS_HARDWARE (device), NULL);
  g_return_val_if_fail (user_dir != NULL, NULL);

  return g_object_new (HR_TYPE_DEVICE_EDITOR,
                       "catalog", catalog,
                       "device", device,
                       "user-dir", user_dir,
                       NULL);
}

/**
 * hr_device_editor_get_device:
 *
 * Returns: (transfer none) (nullable): the custom device being edited, or
 *   the one saved
 */
HrHardware *
hr_device_editor_get_device (HrDeviceEditor *self)
{
  g_return_val_if_fail (HR_IS_DEVICE_EDITOR (self), NULL);
  return self->device;
}

/**
 * hr_device_editor_set_from_fields:
 *
 * Fills the fields, e.g. from a detected GPU the catalog does not know.
 * The id is not taken: a new device gets one from its name.
 */
void
hr_device_editor_set_from_fields (HrDeviceEditor         *self,
                                  const HrHardwareFields *values)
{
  guint vendor = G_N_ELEMENTS (vendors) - 1;

  g_return_if_fail (HR_IS_DEVICE_EDITOR (self));
  g_return_if_fail (values != NULL);

  for (guint i = 0; values->vendor != NULL && i < G_N_ELEMENTS (vendors); i++)
    if (g_ascii_strcasecmp (values->vendor, vendors[i]) == 0)
      vendor = i;

  gtk_editable_set_text (GTK_EDITABLE (self->name_row), values->name != NULL ? values->name : "");
  adw_combo_row_set_selected (self->vendor_row, vendor);
  adw_combo_row_set_selected (self->kind_row, values->kind == HR_DEVICE_UNIFIED ? 1 : 0);
  gtk_spin_button_set_value (self->memory_spin, values->memory_gib);
  gtk_spin_button_set_value (self->bandwidth_spin, values->bandwidth_gbps);
  gtk_spin_button_set_value (self->tflops_spin, values->fp16_tflops);
  validate (self);
}

/**
 * hr_device_editor_get_message:
 *
 * Returns: (nullable): what is wrong with the values, or why the last save
 *   failed; %NULL when they can be saved
 */
const char *
hr_device_editor_get_message (HrDeviceEditor *self)
{
  g_return_val_if_fail (HR_IS_DEVICE_EDITOR (self), NULL);
  return self->message;
}

/**
 * hr_device_editor_save:
 *
 * What the Save button does: checks the values, saves the device, emits
 * HrDeviceEditor::saved and closes the window.  On failure the window
 * stays open and says why.
 *
 * Returns: whether the device was saved
 */
gboolean
hr_device_editor_save (HrDeviceEditor *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHardware) device = NULL;
  g_autofree char *name = NULL;
  g_autofree char *id = NULL;
  HrHardwareFields values = { 0 };
  guint vendor;

  g_return_val_if_fail (HR_IS_DEVICE_EDITOR (self), FALSE);

  validate (self);
  if (self->message != NULL)
    return FALSE;

  name = dup_name (self);
  id = self->device != NULL ? g_strdup (hr_hardware_get_id (self->device))
                            : hr_catalog_dup_custom_hardware_id (self->catalog, name);
  vendor = MIN (adw_combo_row_get_selected (self->vendor_row), G_N_ELEMENTS (vendors) - 1);

  values.id = id;
  values.name = name;
  values.vendor = vendors[vendor];
  values.kind = adw_combo_row_get_selected (self->kind_row) == 1 ? HR_DEVICE_UNIFIED
                                                                  : HR_DEVICE_DISCRETE;
  values.memory_gib = gtk_spin_button_get_value (self->memory_spin);
  values.bandwidth_gbps = gtk_spin_button_get_value (self->bandwidth_spin);
  values.fp16_tflops = gtk_spin_button_get_value (self->tflops_spin);
  values.source = _("Added by hand");
  values.custom = TRUE;

  device = hr_hardware_new_from_fields (&values, &error);
  if (device == NULL ||
      !hr_catalog_save_custom_hardware (self->catalog, device, self->user_dir, &error))
    {
      g_autofree char *text = g_strdup_printf (_("The device could not be saved: %s"),
                                               error->message);
      set_message (self, text);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.save", TRUE);
      return FALSE;
    }

  g_set_object (&self->device, device);
  g_signal_emit (self, signals[SAVED], 0, device);
  gtk_window_close (GTK_WINDOW (self));
  return TRUE;
}
