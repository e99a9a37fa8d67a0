/* hr-test-app.h — the application a widget test runs in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-application.h"

G_BEGIN_DECLS

HrApplication *hr_test_app_init     (int    *argc,
                                     char ***argv);
HrApplication *hr_test_app_register (int    *argc,
                                     char ***argv);
void           hr_test_iterate      (void);
void           hr_test_pump         (guint   ms);

G_END_DECLS
