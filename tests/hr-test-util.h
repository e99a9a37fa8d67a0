/* hr-test-util.h — small helpers shared by the test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <math.h>
#include <json-glib/json-glib.h>

#include "hr-catalog.h"

G_BEGIN_DECLS

#define GIB ((double) (1ull << 30))

/* Asserts |a - b| <= tol, printing both. */
#define assert_close(a, b, tol) \
  G_STMT_START { \
    double _a = (a), _b = (b), _t = (tol); \
    if (!(fabs (_a - _b) <= _t)) \
      g_error ("%s:%d: %s = %.6f, expected %.6f ± %g", __FILE__, __LINE__, \
               #a, _a, _b, _t); \
  } G_STMT_END

HrCatalog  *hr_test_builtin_catalog (void);
JsonNode   *hr_test_run_cli_json    (const char * const *args);
char       *hr_test_run_cli         (const char * const *args,
                                     int                *exit_status,
                                     char              **err);

void        hr_test_assert_same_model      (HrModelSpec *a,
                                           HrModelSpec *b);
void        hr_test_assert_round_trip      (HrModelSpec *direct);

char       *hr_test_make_temp_dir   (const char         *prefix);
void        hr_test_remove_temp_dir (const char         *dir);

/* A fixture for g_test_add(): a fresh temporary directory (test data: its
 * name's prefix) and the built-in catalog. */
typedef struct
{
  char *dir;
  HrCatalog *catalog;
} HrTestDir;

void        hr_test_dir_set_up      (HrTestDir          *fixture,
                                     gconstpointer       prefix);
void        hr_test_dir_tear_down   (HrTestDir          *fixture,
                                     gconstpointer       prefix);

G_END_DECLS
