/* hr-caption-layout.h — a caption with a button beside it, or below it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HR_TYPE_CAPTION_LAYOUT (hr_caption_layout_get_type ())

G_DECLARE_FINAL_TYPE (HrCaptionLayout, hr_caption_layout, HR, CAPTION_LAYOUT, GtkLayoutManager)

GtkLayoutManager *hr_caption_layout_new   (int        spacing);
void              hr_caption_layout_apply (GtkWidget *caption);

G_END_DECLS
