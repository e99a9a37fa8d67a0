/* hr-commands-view.h — launch commands with copy buttons
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-command-card.h"
#include "hr-view.h"

G_BEGIN_DECLS

#define HR_TYPE_COMMANDS_VIEW (hr_commands_view_get_type ())

G_DECLARE_FINAL_TYPE (HrCommandsView, hr_commands_view, HR, COMMANDS_VIEW, HrView)

const char    *hr_commands_view_get_text (HrCommandsView *self,
                                          const char     *which);
HrCommandCard *hr_commands_view_get_card (HrCommandsView *self,
                                          const char     *which);

G_END_DECLS
