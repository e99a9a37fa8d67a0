/* fuzz-common.h — what every libFuzzer target of Headroom checks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdint.h>
#include <stdlib.h>

#include "hr-catalog.h"

G_BEGIN_DECLS

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);
int LLVMFuzzerInitialize   (int           *argc,
                            char        ***argv);

/* Unlike g_assert(), never compiled out, and reports through abort(),
 * which libFuzzer turns into a saved crash input. */
#define CHECK(cond) \
  G_STMT_START \
  { \
    if (!(cond)) \
      { \
        g_printerr ("check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
        abort (); \
      } \
  } \
  G_STMT_END

void        fuzz_init                (void);
HrCatalog  *fuzz_builtin_catalog     (void);
char       *fuzz_write_input         (const char    *name,
                                      const uint8_t *data,
                                      size_t         size);
void        fuzz_check_error         (const GError  *error,
                                      const char    *file);
void        fuzz_check_model         (HrModelSpec   *model);
void        fuzz_check_hardware      (HrHardware    *hardware);

G_END_DECLS
