/* hr-stack-layout.h — children stacked top to bottom, widths for no height
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HR_TYPE_STACK_LAYOUT (hr_stack_layout_get_type ())

G_DECLARE_FINAL_TYPE (HrStackLayout, hr_stack_layout, HR, STACK_LAYOUT, GtkLayoutManager)

GtkLayoutManager *hr_stack_layout_new (int spacing);

G_END_DECLS
