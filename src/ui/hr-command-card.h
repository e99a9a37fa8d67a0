/* hr-command-card.h — one engine's launch command, block by block
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-commands.h"

G_BEGIN_DECLS

#define HR_TYPE_COMMAND_CARD (hr_command_card_get_type ())

G_DECLARE_FINAL_TYPE (HrCommandCard, hr_command_card, HR, COMMAND_CARD, GtkWidget)

GtkWidget  *hr_command_card_new          (void);
void        hr_command_card_set_command  (HrCommandCard   *self,
                                          const HrCommand *command);
void        hr_command_card_set_refusal  (HrCommandCard   *self,
                                          const char      *title,
                                          const char      *reason,
                                          const char      *fix_label,
                                          const char      *fix_action,
                                          GVariant        *fix_target);
const char *hr_command_card_get_text     (HrCommandCard   *self);
guint       hr_command_card_get_n_blocks (HrCommandCard   *self);
const char *hr_command_card_get_block    (HrCommandCard   *self,
                                          guint            index);
gboolean    hr_command_card_get_refused  (HrCommandCard   *self);

G_END_DECLS
