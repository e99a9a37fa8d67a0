/* hr-test-app.h — the application a widget test runs in, and the waits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A widget test never waits for a fixed time: it waits for a condition
 * (a frame drawn, a signal, a property, the main loop idle), and a
 * condition that does not come within HR_TEST_WAIT_SECONDS fails the test
 * with what it waited for and where.
 */

#pragma once

#include "hr-application.h"

G_BEGIN_DECLS

/* How long a wait lasts before it fails the test: far beyond what a
 * frame or an estimate takes, even with the CPU saturated by other
 * work and under the sanitizers. */
#define HR_TEST_WAIT_SECONDS 60

typedef gboolean (*HrTestCondition) (gpointer data);

HrApplication *hr_test_app_init     (int    *argc,
                                     char ***argv);
HrApplication *hr_test_app_register (int    *argc,
                                     char ***argv);
void           hr_test_isolate_home  (void);
void           hr_test_init_isolated (int    *argc,
                                      char ***argv);
void           hr_test_iterate      (void);

void           hr_test_wait_until_at     (const char      *file,
                                          int              line,
                                          const char      *func,
                                          HrTestCondition  condition,
                                          gpointer         data,
                                          const char      *what);
void           hr_test_wait_for_frame_at (const char      *file,
                                          int              line,
                                          const char      *func,
                                          GtkWidget       *widget);
void           hr_test_wait_idle_at      (const char      *file,
                                          int              line,
                                          const char      *func);
void           hr_test_wait_for_signal_at (const char     *file,
                                           int             line,
                                           const char     *func,
                                           gpointer        instance,
                                           const char     *signal);

/* Runs the main loop until @condition (@data) is true; fails the test
 * with "timed out waiting for @what" after HR_TEST_WAIT_SECONDS. */
#define hr_test_wait_until(condition, data, what) \
  hr_test_wait_until_at (__FILE__, __LINE__, G_STRFUNC, (condition), (data), (what))
/* Until @widget is mapped and its window has drawn a frame begun after
 * the call (so what was queued before it is laid out and drawn). */
#define hr_test_wait_for_frame(widget) \
  hr_test_wait_for_frame_at (__FILE__, __LINE__, G_STRFUNC, GTK_WIDGET (widget))
/* Until nothing is ready in the main loop and every window shown has
 * drawn a frame begun after the call. */
#define hr_test_wait_idle() \
  hr_test_wait_idle_at (__FILE__, __LINE__, G_STRFUNC)
/* Until @instance emits @signal (emitted after the call). */
#define hr_test_wait_for_signal(instance, signal) \
  hr_test_wait_for_signal_at (__FILE__, __LINE__, G_STRFUNC, (instance), (signal))

G_END_DECLS
