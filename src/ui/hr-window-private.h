/* hr-window-private.h — what the window's source files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window is written in parts, as gnome-text-editor writes its own:
 *   hr-window.c           lifecycle, template, pickers, engine options,
 *                         views built when first shown
 *   hr-window-actions.c   import, CSV export, toasts and the other actions
 *   hr-window-settings.c  what is remembered between runs (GSettings)
 *   hr-window-detect.c    this computer: detection, the models on disk,
 *                         devices added by hand
 */

#pragma once

#include "hr-context-row.h"
#include "hr-detect.h"
#include "hr-local-models.h"
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
  GtkWidget *sidebar_button;
  AdwViewStack *view_stack;
  AdwSqueezer *title_squeezer;
  AdwWindowTitle *window_title;
  AdwViewSwitcherBar *switcher_bar;
  GtkMenuButton *menu_button;
  GMenuModel *primary_menu;
  HrPicker *model_picker;
  HrPicker *hardware_picker;
  AdwComboRow *precision_row;
  AdwComboRow *kv_row;
  AdwComboRow *engine_row;
  AdwComboRow *flash_row;            /* HrFlashAttn order: auto, on, off */
  AdwActionRow *utilization_row;
  AdwActionRow *detect_row;
  GtkSpinner *detect_spinner;
  GtkWidget *edit_device_button;
  GtkAdjustment *utilization_adjustment;
  HrOverview *overview;
  GtkWidget *later_groups;    /* sidebar groups below the fold */
  gulong first_frame_handler; /* on the frame clock, until the first frame */
  gulong sidebar_map_handler; /* focus to move into the sidebar once shown */
  guint deferred_idle;        /* builds what the first frame does not show */
  /* The other views are built when first shown, into these slots. */
  AdwBin *matrix_slot;
  AdwBin *hardware_slot;
  AdwBin *model_slot;
  AdwBin *commands_slot;
  AdwBin *compare_slot;
  AdwBin *serving_slot;
  AdwBin *recommend_slot;

  HrMatrixView *matrix_view;  /* borrowed, once built */

  /* owned */
  GtkFileChooserNative *chooser;
  GObject *undo_removed;      /* the model or device just removed, for Undo */
  GSettings *settings;        /* NULL when the schema is not installed */
  gboolean restoring;
  GArray *pending_contexts;   /* matrix contexts restored before the matrix exists */

  /* This computer (hr-window-detect.c) */
  GCancellable *detect_cancellable;   /* non-NULL while detecting */
  HrSystemInfo *system_info;
  GListModel *local_devices;          /* HrLocalDevice */
  HrHardware *detected_hardware;      /* the device picked among them */
  char *select_unless_changed;        /* first start: the device shown before
                                       * detection; replaced unless the user
                                       * chose another meanwhile */
  char *pending_hardware;             /* a saved detected device, made again */
  gboolean detect_announce;           /* a toast when the detection ends */
  GCancellable *scan_cancellable;     /* non-NULL while scanning */
  gboolean scanned;
  GListStore *local_models;           /* HrLocalModel found on disk */
  GtkFlattenListModel *model_items;   /* local models, then the catalog's */
};

/* hr-window.c */
GtkWidget *_hr_window_attach_view          (HrWindow      *self,
                                            const char    *name);

/* hr-window-actions.c */
void       _hr_window_class_actions_init   (HrWindowClass *klass);
void       _hr_window_actions_init         (HrWindow      *self);
void       _hr_window_offer_undo           (HrWindow      *self,
                                            GObject       *removed,
                                            const char    *message);

/* hr-window-detect.c */
void       _hr_window_class_detect_init    (HrWindowClass *klass);
void       _hr_window_detect_init          (HrWindow      *self);
void       _hr_window_detect_dispose       (HrWindow      *self);
GListModel *_hr_window_detect_model_items  (HrWindow      *self);
void       _hr_window_detect_view_built    (HrWindow      *self,
                                            GtkWidget     *view);
void       _hr_window_import_model         (HrWindow      *self,
                                            HrModelSpec   *model,
                                            const char    *shown_name);
void       _hr_window_import_local_model   (HrWindow      *self,
                                            HrLocalModel  *found);
char      *_hr_local_model_title           (HrLocalModel  *found);
char      *_hr_local_model_subtitle        (HrLocalModel  *found);
char      *_hr_local_model_search_text     (HrLocalModel  *found);

/* hr-window-settings.c */
void       _hr_window_settings_init        (HrWindow      *self);
void       _hr_window_settings_matrix_init (HrWindow      *self);
void       _hr_window_settings_dispose     (HrWindow      *self);

G_END_DECLS
