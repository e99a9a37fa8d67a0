/* hr-commands-view.c — launch commands, one card per engine
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The commands come from hr_command_build_with_fix() (core), the same as
 * `headroom-cli command`; HrCommandCard shows each.  A refused
 * combination shows the reason, and a button when the estimate names a
 * change that the engine would accept (flash attention on, an FP16 cache,
 * a GPU count the heads divide).  The header's copy button copies an
 * engine's whole text.
 */

#define G_LOG_DOMAIN "hr-commands-view"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-command-card.h"
#include "hr-commands-view.h"
#include "hr-commands.h"
#include "hr-view.h"

struct _HrCommandsView
{
  HrView parent_instance;

  HrCommandCard *vllm_card;
  HrCommandCard *sglang_card;
  HrCommandCard *llamacpp_card;
  HrCommandCard *ollama_card;
};

G_DEFINE_FINAL_TYPE (HrCommandsView, hr_commands_view, HR_TYPE_VIEW)

static HrCommandCard *
card_for (HrCommandsView *self,
          HrCommandKind   kind)
{
  switch (kind)
    {
    case HR_COMMAND_VLLM:
      return self->vllm_card;
    case HR_COMMAND_SGLANG:
      return self->sglang_card;
    case HR_COMMAND_LLAMACPP:
      return self->llamacpp_card;
    case HR_COMMAND_OLLAMA:
      return self->ollama_card;
    default:
      g_return_val_if_reached (NULL);
    }
}

static const char *
engine_name (HrCommandKind kind)
{
  static const char * const names[] = {
    [HR_COMMAND_VLLM] = "vLLM",
    [HR_COMMAND_LLAMACPP] = "llama.cpp",
    [HR_COMMAND_OLLAMA] = "Ollama",
    [HR_COMMAND_SGLANG] = "SGLang",
  };

  return names[kind];
}

static void
show_refusal (HrCommandCard    *card,
              HrCommandKind     kind,
              const HrScenario *s,
              const char       *reason,
              HrFix             fix,
              guint32           fix_gpus)
{
  /* TRANSLATORS: %s is an engine, "vLLM" */
  g_autofree char *title = g_strdup_printf (_("%s cannot run this"), engine_name (kind));
  g_autofree char *gpus_label = NULL;
  const char *label = NULL;
  const char *action = NULL;
  GVariant *target = NULL;

  switch (fix)
    {
    case HR_FIX_FLASH_ATTN_ON:
      label = _("Turn On _Flash Attention");
      action = "commands.fix-flash-attn";
      break;
    case HR_FIX_KV_FP16:
      label = _("Use an _FP16 KV Cache");
      action = "commands.fix-kv-fp16";
      break;
    case HR_FIX_GPU_COUNT:
      /* a layout given by hand is the layout controls' to change */
      if (s->layout.tp == 0 && fix_gpus > 0)
        {
          /* TRANSLATORS: a button; %u is a number of GPUs */
          gpus_label = g_strdup_printf (ngettext ("_Use %u GPU", "_Use %u GPUs", fix_gpus),
                                        fix_gpus);
          label = gpus_label;
          action = "commands.fix-gpus";
          target = g_variant_new_uint32 (fix_gpus);
        }
      break;
    case HR_FIX_ENGINE_AUTO:
    case HR_FIX_NONE:
    default:
      break;
    }
  hr_command_card_set_refusal (card, title, reason, label, action, target);
}

/* The header's copy button copies only a command: refused, there is
 * nothing to copy, and its tooltip says so. */
static void
sync_copy_button (HrCommandCard *card)
{
  GtkWidget *group = gtk_widget_get_ancestor (GTK_WIDGET (card), ADW_TYPE_PREFERENCES_GROUP);
  GtkWidget *button;
  const char *tooltip;
  gboolean refused = hr_command_card_get_refused (card);

  button = group != NULL ? adw_preferences_group_get_header_suffix (ADW_PREFERENCES_GROUP (group))
                         : NULL;
  if (button == NULL)
    return;
  /* the template's tooltip, "Copy all of the vLLM commands", kept */
  tooltip = g_object_get_data (G_OBJECT (button), "hr-copy-tooltip");
  if (tooltip == NULL)
    {
      g_object_set_data_full (G_OBJECT (button), "hr-copy-tooltip",
                              g_strdup (gtk_widget_get_tooltip_text (button)), g_free);
      tooltip = g_object_get_data (G_OBJECT (button), "hr-copy-tooltip");
    }
  /* Without its action: the action helper would make it sensitive
   * again whenever it reports the (shared) action enabled. */
  if (refused)
    {
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), NULL);
      gtk_widget_set_sensitive (button, FALSE);
    }
  else
    {
      gtk_widget_set_sensitive (button, TRUE);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "commands.copy");
    }
  gtk_widget_set_tooltip_text (button, refused ? _("Nothing to copy: this engine has no "
                                                   "command for this set-up")
                                               : tooltip);
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
  if (s->model == NULL || s->precision == NULL || s->kv_type == NULL || s->hardware == NULL)
    return;

  for (HrCommandKind kind = 0; kind < HR_N_COMMAND_KINDS; kind++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HrCommand) command = NULL;
      HrFix fix = HR_FIX_NONE;
      guint32 fix_gpus = 0;

      command = hr_command_build_with_fix (kind, s, &fix, &fix_gpus, &error);
      if (command != NULL)
        hr_command_card_set_command (card_for (self, kind), command);
      else
        show_refusal (card_for (self, kind), kind, s, error->message, fix, fix_gpus);
      sync_copy_button (card_for (self, kind));
    }
}

/* ------------------------------------------------------------ actions */

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  HrCommandsView *self = HR_COMMANDS_VIEW (widget);
  HrCommandKind kind;
  const char *text;

  if (!hr_command_kind_from_string (g_variant_get_string (parameter, NULL), &kind))
    return;
  text = hr_command_card_get_text (card_for (self, kind));
  /* a refusal's "# No command: …" is no command to paste */
  if (text == NULL || hr_command_card_get_refused (card_for (self, kind)))
    return;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  gtk_widget_activate_action (widget, "win.toast", "s", _("Copied to the clipboard"));
}

/* A fix changes the calculator once the button that asked for it has
 * finished its click: the refresh replaces that very button. */
typedef struct
{
  HrCalculator *calculator;
  HrFix fix;
  guint32 gpus;
} PendingFix;

static gboolean
apply_fix (gpointer data)
{
  PendingFix *p = data;

  switch (p->fix)
    {
    case HR_FIX_FLASH_ATTN_ON:
      {
        HrEngineOptions options = *hr_calculator_get_engine_options (p->calculator);

        options.flash_attn = HR_FLASH_ATTN_ON;
        hr_calculator_set_engine_options (p->calculator, &options);
      }
      break;
    case HR_FIX_KV_FP16:
      {
        HrCatalog *catalog = hr_calculator_get_catalog (p->calculator);
        HrKvType *fp16 = hr_catalog_find_kv_type (catalog, "fp16");

        if (fp16 != NULL)
          hr_calculator_set_kv_type (p->calculator, fp16);
      }
      break;
    case HR_FIX_GPU_COUNT:
      hr_calculator_set_gpu_count (p->calculator, p->gpus);
      break;
    case HR_FIX_NONE:
    case HR_FIX_ENGINE_AUTO:
    default:
      break;
    }
  return G_SOURCE_REMOVE;
}

static void
pending_fix_free (gpointer data)
{
  PendingFix *p = data;

  g_object_unref (p->calculator);
  g_free (p);
}

static void
fix_later (GtkWidget *widget,
           HrFix      fix,
           guint32    gpus)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (widget));
  PendingFix *p;

  if (calculator == NULL)
    return;
  p = g_new0 (PendingFix, 1);
  p->calculator = g_object_ref (calculator);
  p->fix = fix;
  p->gpus = gpus;
  g_idle_add_full (G_PRIORITY_DEFAULT, apply_fix, p, pending_fix_free);
}

static void
fix_flash_attn_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  fix_later (widget, HR_FIX_FLASH_ATTN_ON, 0);
}

static void
fix_kv_fp16_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  fix_later (widget, HR_FIX_KV_FP16, 0);
}

static void
fix_gpus_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  fix_later (widget, HR_FIX_GPU_COUNT, g_variant_get_uint32 (parameter));
}

/* ------------------------------------------------------------ class */

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

  g_type_ensure (HR_TYPE_COMMAND_CARD);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom_app/Headroom/ui/hr-commands-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrCommandsView, vllm_card);
  gtk_widget_class_bind_template_child (widget_class, HrCommandsView, sglang_card);
  gtk_widget_class_bind_template_child (widget_class, HrCommandsView, llamacpp_card);
  gtk_widget_class_bind_template_child (widget_class, HrCommandsView, ollama_card);
  gtk_widget_class_install_action (widget_class, "commands.copy", "s", copy_action);
  gtk_widget_class_install_action (widget_class, "commands.fix-flash-attn", NULL,
                                   fix_flash_attn_action);
  gtk_widget_class_install_action (widget_class, "commands.fix-kv-fp16", NULL,
                                   fix_kv_fp16_action);
  gtk_widget_class_install_action (widget_class, "commands.fix-gpus", "u", fix_gpus_action);
}

static void
hr_commands_view_init (HrCommandsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* The text shown for “vllm”, “sglang”, “llamacpp” or “ollama”. */
const char *
hr_commands_view_get_text (HrCommandsView *self,
                           const char     *which)
{
  HrCommandKind kind;

  g_return_val_if_fail (HR_IS_COMMANDS_VIEW (self), NULL);
  if (!hr_command_kind_from_string (which, &kind))
    return NULL;
  return hr_command_card_get_text (card_for (self, kind));
}

/* The card of “vllm”, “sglang”, “llamacpp” or “ollama” (tests). */
HrCommandCard *
hr_commands_view_get_card (HrCommandsView *self,
                           const char     *which)
{
  HrCommandKind kind;

  g_return_val_if_fail (HR_IS_COMMANDS_VIEW (self), NULL);
  if (!hr_command_kind_from_string (which, &kind))
    return NULL;
  return card_for (self, kind);
}
