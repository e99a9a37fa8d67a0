/* hr-test-app.h — the application a widget test runs in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-application.h"

G_BEGIN_DECLS

HrApplication *hr_test_app_init (int    *argc,
                                 char ***argv);

G_END_DECLS
