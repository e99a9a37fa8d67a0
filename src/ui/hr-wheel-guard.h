/* hr-wheel-guard.h — sliders and spin buttons leave the wheel to the page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void hr_wheel_guard_apply (GtkWidget *root);

G_END_DECLS
