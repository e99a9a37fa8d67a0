/* hr-wheel-guard.c — sliders and spin buttons leave the wheel to the page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GtkScale or GtkSpinButton takes every wheel event over it: scrolling
 * the sidebar changed the context whenever the slider passed under the
 * pointer (32,768 → 65,536 → 131,072).  Guarded, such a control takes the
 * wheel only while it holds the keyboard focus (after a click on it, or
 * Tab); otherwise its own scroll controllers stay out of event
 * propagation (GTK_PHASE_NONE), so the event goes on, bubbling, to the
 * scrolled window around it, which scrolls.  GTK 4.8 has no property for
 * this; a focus controller switches the phase.
 */

#include "config.h"

#include "hr-wheel-guard.h"

/* Object data: the widget is guarded; a controller's own phase, plus 1. */
#define GUARDED_KEY "hr-wheel-guard"
#define PHASE_KEY "hr-wheel-guard-phase"

/* Puts @widget's scroll controllers in their own phase when @take, out
 * of propagation otherwise. */
static void
set_takes_wheel (GtkWidget *widget,
                 gboolean   take)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);
      gpointer own;

      if (!GTK_IS_EVENT_CONTROLLER_SCROLL (controller))
        continue;
      own = g_object_get_data (G_OBJECT (controller), PHASE_KEY);
      if (own == NULL)
        {
          own = GINT_TO_POINTER (gtk_event_controller_get_propagation_phase (controller) + 1);
          g_object_set_data (G_OBJECT (controller), PHASE_KEY, own);
        }
      gtk_event_controller_set_propagation_phase (controller,
                                                  take ? GPOINTER_TO_INT (own) - 1
                                                       : GTK_PHASE_NONE);
    }
}

static void
on_focus_enter (GtkEventController *focus)
{
  set_takes_wheel (gtk_event_controller_get_widget (focus), TRUE);
}

static void
on_focus_leave (GtkEventController *focus)
{
  set_takes_wheel (gtk_event_controller_get_widget (focus), FALSE);
}

static void
guard (GtkWidget *widget)
{
  GtkEventController *focus;

  if (g_object_get_data (G_OBJECT (widget), GUARDED_KEY) != NULL)
    return;
  g_object_set_data (G_OBJECT (widget), GUARDED_KEY, GINT_TO_POINTER (TRUE));

  /* "enter" and "leave" also come when the focus moves into or out of
   * a descendant: a spin button's text */
  focus = gtk_event_controller_focus_new ();
  g_signal_connect (focus, "enter", G_CALLBACK (on_focus_enter), NULL);
  g_signal_connect (focus, "leave", G_CALLBACK (on_focus_leave), NULL);
  gtk_widget_add_controller (widget, focus);
  set_takes_wheel (widget, gtk_widget_has_focus (widget) ||
                           gtk_widget_get_focus_child (widget) != NULL);
}

/**
 * hr_wheel_guard_apply:
 * @root: a widget tree, typically a scrolled page
 *
 * Guards every slider and spin button under @root (once each; apply it
 * again to widgets added later).
 */
void
hr_wheel_guard_apply (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  if (GTK_IS_SCALE (root) || GTK_IS_SPIN_BUTTON (root))
    {
      guard (root);
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    hr_wheel_guard_apply (child);
}
