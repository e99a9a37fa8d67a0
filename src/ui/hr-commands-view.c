/* hr-commands-view.c — launch commands with copy buttons
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The text comes from hr_command_generate() (core), the same as
 * `headroom-cli command`.  Copying puts it on the clipboard and asks the
 * window for a toast through the “win.toast” action.
 */

#define G_LOG_DOMAIN "hr-commands-view"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-commands-view.h"
#include "hr-commands.h"
#include "hr-ui-format.h"

struct _HrCommandsView
{
  AdwBin parent_instance;

  HrCalculator *calculator;

  GtkLabel *vllm_label;
  GtkLabel *llamacpp_label;
  GtkLabel *ollama_label;
};

G_DEFINE_FINAL_TYPE (HrCommandsView, hr_commands_view, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_CALCULATOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GtkLabel *
label_for (HrCommandsView *self,
           const char     *which)
{
  if (g_strcmp0 (which, "vllm") == 0)
    return self->vllm_label;
  if (g_strcmp0 (which, "llamacpp") == 0)
    return self->llamacpp_label;
  if (g_strcmp0 (which, "ollama") == 0)
    return self->ollama_label;
  return NULL;
}

static void
set_command (HrCommandsView   *self,
             HrCommandKind     kind,
             GtkLabel         *label,
             const HrScenario *scenario)
{
  g_autofree char *text = hr_command_generate (kind, scenario);

  g_strchomp (text);
  gtk_label_set_label (label, text);
}

static void
update (HrCommandsView *self)
{
  const HrScenario *s;

  if (self->calculator == NULL)
    return;
  s = hr_calculator_get_scenario (self->calculator);
  if (s->model == NULL || s->precision == NULL || s->kv_type == NULL)
    return;

  set_command (self, HR_COMMAND_VLLM, self->vllm_label, s);
  set_command (self, HR_COMMAND_LLAMACPP, self->llamacpp_label, s);
  set_command (self, HR_COMMAND_OLLAMA, self->ollama_label, s);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  HrCommandsView *self = HR_COMMANDS_VIEW (widget);
  const char *which = g_variant_get_string (parameter, NULL);
  GtkLabel *label = label_for (self, which);

  if (label == NULL)
    return;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), gtk_label_get_label (label));
  gtk_widget_activate_action (widget, "win.toast", "s", _("Copied to the clipboard"));
}

static void
set_calculator (HrCommandsView *self,
                HrCalculator   *calculator)
{
  if (!hr_ui_follow_calculator (self, &self->calculator, calculator, G_CALLBACK (update)))
    return;
  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CALCULATOR]);
}

static void
hr_commands_view_dispose (GObject *object)
{
  HrCommandsView *self = (HrCommandsView *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_COMMANDS_VIEW);
  if (self->calculator != NULL)
    g_signal_handlers_disconnect_by_data (self->calculator, self);
  g_clear_object (&self->calculator);
  G_OBJECT_CLASS (hr_commands_view_parent_class)->dispose (object);
}

static void
hr_commands_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_CALCULATOR:
      g_value_set_object (value, HR_COMMANDS_VIEW (object)->calculator);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_commands_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_CALCULATOR:
      set_calculator (HR_COMMANDS_VIEW (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_commands_view_class_init (HrCommandsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_commands_view_dispose;
  object_class->get_property = hr_commands_view_get_property;
  object_class->set_property = hr_commands_view_set_property;

  properties[PROP_CALCULATOR] =
    g_param_spec_object ("calculator", NULL, NULL, HR_TYPE_CALCULATOR,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom_app/Headroom/ui/hr-commands-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrCommandsView, vllm_label);
  gtk_widget_class_bind_template_child (widget_class, HrCommandsView, llamacpp_label);
  gtk_widget_class_bind_template_child (widget_class, HrCommandsView, ollama_label);
  gtk_widget_class_install_action (widget_class, "commands.copy", "s", copy_action);
}

static void
hr_commands_view_init (HrCommandsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* The text shown for “vllm”, “llamacpp” or “ollama”. */
const char *
hr_commands_view_get_text (HrCommandsView *self,
                           const char     *which)
{
  GtkLabel *label;

  g_return_val_if_fail (HR_IS_COMMANDS_VIEW (self), NULL);
  label = label_for (self, which);
  return label ? gtk_label_get_label (label) : NULL;
}
