/* hr-window.h — the main window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-calculator.h"
#include "hr-log-dialog.h"

G_BEGIN_DECLS

#define HR_TYPE_WINDOW (hr_window_get_type ())

G_DECLARE_FINAL_TYPE (HrWindow, hr_window, HR, WINDOW, AdwApplicationWindow)

HrWindow     *hr_window_new              (GtkApplication *application);
HrCalculator *hr_window_get_calculator   (HrWindow      *self);
guint         hr_window_get_units        (HrWindow      *self);
void          hr_window_set_units        (HrWindow      *self,
                                          guint          units);
gboolean      hr_window_export_csv_to    (HrWindow      *self,
                                          const char    *what,
                                          GFile         *file,
                                          GError       **error);
const char   *hr_window_get_export_target (HrWindow     *self);
void          hr_window_import_file      (HrWindow      *self,
                                          GFile         *file);
GtkWidget    *hr_window_get_view         (HrWindow      *self,
                                          const char    *name);
void          hr_window_show_view        (HrWindow      *self,
                                          const char    *name);
void          hr_window_detect           (HrWindow      *self);
gboolean      hr_window_is_busy          (HrWindow      *self);
HrLogDialog  *hr_window_check_log        (HrWindow      *self,
                                          GFile         *file);
void          hr_window_open_file        (HrWindow      *self,
                                          GFile         *file);

G_END_DECLS
