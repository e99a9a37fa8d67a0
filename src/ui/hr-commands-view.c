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
#include "hr-view.h"

struct _HrCommandsView
{
  HrView parent_instance;

  GtkLabel *vllm_label;
  GtkLabel *llamacpp_label;
  GtkLabel *ollama_label;
};

G_DEFINE_FINAL_TYPE (HrCommandsView, hr_commands_view, HR_TYPE_VIEW)

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
update (HrView *view)
{
  HrCommandsView *self = HR_COMMANDS_VIEW (view);
  HrCalculator *calculator = hr_view_get_calculator (view);
  const HrScenario *s;

  if (calculator == NULL)
    return;
  s = hr_calculator_get_scenario (calculator);
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
hr_commands_view_dispose (GObject *object)
{
  HrCommandsView *self = (HrCommandsView *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_COMMANDS_VIEW);
  G_OBJECT_CLASS (hr_commands_view_parent_class)->dispose (object);
}

static void
hr_commands_view_class_init (HrCommandsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  HrViewClass *view_class = HR_VIEW_CLASS (klass);

  object_class->dispose = hr_commands_view_dispose;

  view_class->refresh = update;

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
