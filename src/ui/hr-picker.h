/* hr-picker.h — a button that opens a searchable, grouped list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define HR_TYPE_PICKER (hr_picker_get_type ())

G_DECLARE_FINAL_TYPE (HrPicker, hr_picker, HR, PICKER, AdwBin)

/* What the picker shows of an item: all return new strings. */
typedef struct
{
  char *(*title) (gpointer item);
  char *(*subtitle) (gpointer item);
  char *(*group) (gpointer item);
  char *(*search_text) (gpointer item);
} HrPickerDescriber;

void      hr_picker_set_items     (HrPicker                *self,
                                   GListModel              *items,
                                   const HrPickerDescriber *describer);
GObject  *hr_picker_get_selected  (HrPicker                *self);
void      hr_picker_set_selected  (HrPicker                *self,
                                   GObject                 *item);
void      hr_picker_popup         (HrPicker                *self);
void      hr_picker_set_status    (HrPicker                *self,
                                   const char              *text,
                                   gboolean                 busy);
const char *hr_picker_get_status  (HrPicker                *self);
gboolean  hr_picker_is_open       (HrPicker                *self);
void      hr_picker_set_no_match  (HrPicker                *self,
                                   const char              *text);
GtkListBox  *hr_picker_get_list   (HrPicker                *self);
GtkEditable *hr_picker_get_search (HrPicker                *self);

G_END_DECLS
