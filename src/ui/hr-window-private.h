/* hr-window-private.h — what the window's source files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window is written in parts, as gnome-text-editor writes its own:
 *   hr-window.c           lifecycle, template, pickers, engine options,
 *                         views built when first shown
 *   hr-window-actions.c   import, CSV export, toasts and the other actions
 *   hr-window-settings.c  what is remembered between runs (GSettings)
 */

#pragma once

#include "hr-context-row.h"
#include "hr-matrix-view.h"
#include "hr-overview.h"
#include "hr-picker.h"
#include "hr-window.h"

G_BEGIN_DECLS

struct _HrWindow
{
  AdwApplicationWindow parent_instance;

  HrCalculator *calculator;
  guint units;

  /* template children */
  AdwToastOverlay *toast_overlay;
  AdwFlap *flap;
  AdwViewStack *view_stack;
  AdwViewSwitcherTitle *switcher_title;
  AdwViewSwitcherBar *switcher_bar;
  GtkMenuButton *menu_button;
  GMenuModel *primary_menu;
  HrPicker *model_picker;
  HrPicker *hardware_picker;
  AdwActionRow *flash_row;
  GtkSwitch *flash_switch;
  AdwActionRow *utilization_row;
  GtkAdjustment *utilization_adjustment;
  HrOverview *overview;
  /* The other views are built when first shown, into these slots. */
  AdwBin *matrix_slot;
  AdwBin *hardware_slot;
  AdwBin *model_slot;
  AdwBin *commands_slot;
  AdwBin *compare_slot;
  AdwBin *serving_slot;

  HrMatrixView *matrix_view;  /* borrowed, once built */

  /* owned */
  GtkFileChooserNative *chooser;
  GSettings *settings;        /* NULL when the schema is not installed */
  gboolean restoring;
  GArray *pending_contexts;   /* matrix contexts restored before the matrix exists */
};

/* hr-window.c */
GtkWidget *_hr_window_attach_view          (HrWindow      *self,
                                            const char    *name);

/* hr-window-actions.c */
void       _hr_window_class_actions_init   (HrWindowClass *klass);
void       _hr_window_actions_init         (HrWindow      *self);

/* hr-window-settings.c */
void       _hr_window_settings_init        (HrWindow      *self);
void       _hr_window_settings_matrix_init (HrWindow      *self);
void       _hr_window_settings_dispose     (HrWindow      *self);

G_END_DECLS
