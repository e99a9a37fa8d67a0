/* fuzz-catalog.c — libFuzzer target: a user catalog file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is a file of $XDG_DATA_HOME/headroom/ (the seeds are the
 * built-in catalog and tests/fuzz/corpus-catalog).  Whatever it holds,
 * loading reports problems that name it, and every model and device it
 * adds is one the estimator accepts (fuzz-common.c).
 */

#define G_LOG_DOMAIN "fuzz-catalog"

#include "config.h"

#include "fuzz-common.h"
#include "hr-text.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = fuzz_write_input ("mine.json", data, size);
  g_autoptr(HrCatalog) catalog = hr_catalog_new ();
  g_autoptr(GError) error = NULL;
  const char * const *problems;
  GListModel *list;
  gboolean ok;

  ok = hr_catalog_load_file (catalog, path, &error);
  problems = hr_catalog_get_problems (catalog);
  if (!ok)
    {
      fuzz_check_error (error, path);
      CHECK (problems[0] != NULL);
    }
  for (guint i = 0; problems[i] != NULL; i++)
    {
      CHECK (hr_text_is_displayable (problems[i], -1));
      CHECK (strstr (problems[i], path) != NULL);
    }

  /* The first and last few entries: a seed like the built-in catalog
   * has dozens, and estimating each on every run would make the run
   * a benchmark of the estimator. */
  list = hr_catalog_get_models (catalog);
  for (guint i = 0, n = g_list_model_get_n_items (list); i < n; i++)
    {
      g_autoptr(HrModelSpec) model = NULL;

      if (i >= 4 && i + 4 < n)
        continue;
      model = g_list_model_get_item (list, i);
      fuzz_check_model (model);
    }
  list = hr_catalog_get_hardware (catalog);
  for (guint i = 0, n = g_list_model_get_n_items (list); i < n; i++)
    {
      g_autoptr(HrHardware) hardware = NULL;

      if (i >= 4 && i + 4 < n)
        continue;
      hardware = g_list_model_get_item (list, i);
      fuzz_check_hardware (hardware);
    }
  return 0;
}
