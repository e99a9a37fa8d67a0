/* hr-model-import.c — a model from a file: GGUF or Hugging Face config.json
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-model-import"

#include "config.h"

#include <gio/gio.h>

#include "hr-catalog-json.h"
#include "hr-model-import.h"

HrModelSpec *
hr_model_import_file (const char  *path,
                      GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "%s: no such file", path);
      return NULL;
    }
  g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
               "%s: reading models from files is not supported by this build", path);
  return NULL;
}

gboolean
hr_model_import_inspect (const char  *path,
                         gboolean     json,
                         GError     **error)
{
  return hr_model_import_file (path, error) != NULL;
}
