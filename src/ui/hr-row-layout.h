/* hr-row-layout.h — action-row titles that lay out their text once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

guint hr_row_layout_apply (GtkWidget *root);

G_END_DECLS
