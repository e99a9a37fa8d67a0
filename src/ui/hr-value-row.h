/* hr-value-row.h — a preferences row showing a title and a selectable value
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

GtkWidget *hr_value_row_new        (const char *title,
                                    gboolean    monospace);
void       hr_value_row_set_value  (GtkWidget  *row,
                                    const char *value);

G_END_DECLS
