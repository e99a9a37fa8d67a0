/* test-csv.c — RFC 4180 output, '.' decimals in every locale
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>

#include "gguf-writer.h"
#include "hr-csv.h"
#include "hr-model-import.h"
#include "hr-test-util.h"

static void
test_escaping (void)
{
  g_autoptr(GString) out = g_string_new (NULL);

  hr_csv_append_field (out, "plain");
  hr_csv_append_field (out, "a,b");
  hr_csv_append_field (out, "say \"hi\"");
  hr_csv_append_field (out, "two\nlines");
  hr_csv_append_number (out, 7.8571, 2);
  hr_csv_end_row (out);
  hr_csv_append_field (out, "");
  hr_csv_append_field (out, "x");
  hr_csv_end_row (out);

  g_assert_cmpstr (out->str, ==,
                   "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",7.86\r\n"
                   "\"\",x\r\n");
}

/* Issue 28: a text cell that a spreadsheet would take for a formula (it
 * starts with = + - @, a tab or a carriage return, as OWASP's CSV
 * injection guidance lists them) is written with a leading ' so that it
 * stays text; numbers, and text that is just a number, stay as they are. */
static void
test_formula_guard (void)
{
  static const struct { const char *value, *written; } cases[] = {
    { "=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"" },
    { "=1+1", "'=1+1" },
    { "+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0" },
    { "-2+3", "'-2+3" },
    { "@SUM(A1:A9)", "'@SUM(A1:A9)" },
    { "\t=1", "'\t=1" },
    { "\r=1", "\"'\r=1\"" },
    { "-", "'-" },
    { "a=b", "a=b" },
    { "-1.5", "-1.5" },
    { "+2", "+2" },
    { "-3e-4", "-3e-4" },
    { "1-2", "1-2" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) out = g_string_new (NULL);

      hr_csv_append_field (out, "x");
      hr_csv_append_field (out, cases[i].value);
      g_assert_cmpstr (out->str + 2, ==, cases[i].written);
    }

  /* Numbers are never guarded. */
  {
    g_autoptr(GString) out = g_string_new (NULL);

    hr_csv_append_number (out, -1.5, 1);
    g_assert_cmpstr (out->str, ==, "-1.5");
  }
}

/* End to end: a GGUF named like a formula gives the model column of the
 * exports a quoted text, not a live formula. */
static void
test_formula_model_name (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  g_autoptr(HrHardwareTable) table = NULL;
  g_autoptr(HrModelSpec) model = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = hr_test_make_temp_dir ("test-csv");
  g_autofree char *path = g_build_filename (dir, "=HYPERLINK(\"http:evil\",\"x\").gguf", NULL);
  g_auto(GStrv) lines = NULL;

  g_assert_true (hr_gguf_writer_write_tiny_llama (path, "@SUM(1+1)", &error));
  g_assert_no_error (error);
  model = hr_model_import_file (path, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (hr_model_spec_get_id (model), "="));

  hr_calculator_set_engine (calc, HR_ENGINE_GENERIC);
  hr_calculator_set_model (calc, model);
  table = hr_hardware_table_new (calc);
  hr_csv_write_hardware (table, out);
  lines = g_strsplit (out->str, "\r\n", -1);
  g_assert_nonnull (lines[1]);
  g_assert_nonnull (strstr (lines[1], ",\"'=HYPERLINK("));
  g_assert_null (strstr (out->str, ",=HYPERLINK("));
  g_assert_null (strstr (out->str, ",\"=HYPERLINK("));

  g_unlink (path);
  g_rmdir (dir);
}

static char *
matrix_csv (HrCatalog *catalog)
{
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  hr_calculator_set_engine (calc, HR_ENGINE_GENERIC);  /* the seed page's method */
  g_autoptr(HrMatrix) matrix = hr_matrix_new (calc);
  GString *out = g_string_new (NULL);

  hr_csv_write_matrix (matrix, out);
  return g_string_free (out, FALSE);
}

static void
test_matrix (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autofree char *csv = matrix_csv (catalog);
  g_auto(GStrv) lines = g_strsplit (csv, "\r\n", -1);

  g_assert_cmpuint (g_strv_length (lines), ==, 10);   /* header, 8 rows, "" */
  g_assert_cmpstr (lines[0], ==, "precision,label,bpw,weights_gib,total_gib_at_8192,"
                   "total_gib_at_32768,total_gib_at_131072,tier,tier_name,quality_tier,kld,"
                   "model,engine,kv_type,batch,device,gpus");
  /* the seed's Q4_K_M row: 5.31 / 6.92 / 7.86 / 11.61 GiB, RTX 3060, then
   * the set-up it was computed for (the columns docs/CLI.md named keep their
   * places) */
  g_assert_true (g_str_has_prefix (lines[6], "q4_k_m,Q4_K_M,4.85,5.308,6.919,7.857,11.607,"));
  /* then its published quality: llama.cpp's LLaMA 3 8B scoreboard, KLD
   * 0.031273 (https://github.com/ggml-org/llama.cpp/blob/master/tools/perplexity/README.md) */
  g_assert_nonnull (strstr (lines[6], ",rtx-3060-12gb,RTX 3060 12GB,good,0.031273,"));
  g_assert_true (g_str_has_suffix (lines[6], ",rtx-3060-12gb,RTX 3060 12GB,good,0.031273,"
                                   "THUDM/GLM-4-9B-0414,generic,fp16,1,rtx-3060-12gb,1"));
  g_assert_cmpstr (lines[9], ==, "");
}

/* A locale with a decimal comma must not leak into the file. */
static void
test_locale_independent (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autofree char *reference = matrix_csv (catalog);
  g_autofree char *localized = NULL;
  const char *italian = setlocale (LC_NUMERIC, "it_IT.UTF-8");

  if (italian == NULL)
    {
      g_test_skip ("it_IT.UTF-8 is not installed");
      return;
    }
  localized = matrix_csv (catalog);
  setlocale (LC_NUMERIC, "C");
  g_assert_cmpstr (localized, ==, reference);
}

static void
test_hardware (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  hr_calculator_set_engine (calc, HR_ENGINE_GENERIC);  /* the seed page's method */
  g_autoptr(HrHardwareTable) table = hr_hardware_table_new (calc);
  g_autoptr(GString) out = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;

  hr_csv_write_hardware (table, out);
  lines = g_strsplit (out->str, "\r\n", -1);
  g_assert_cmpstr (lines[0], ==, "hardware,name,memory_gib,bandwidth_gbps,required_gib,"
                   "share_percent,verdict,decode_tokens_per_s,joules_per_token,"
                   "model,precision,context,engine,kv_type,batch");
  g_assert_cmpuint (g_strv_length (lines), ==,
                    g_list_model_get_n_items (G_LIST_MODEL (table)) + 2);
  g_assert_true (g_str_has_prefix (lines[1], "rtx-3060-12gb,RTX 3060 12GB,12.00,360.0,7.857,"
                                   "65.5,comfortable,"));
  g_assert_true (g_str_has_suffix (lines[1], ",THUDM/GLM-4-9B-0414,q4_k_m,32768,generic,fp16,1"));
}

/* The Compare table: the set-up the rows share, then each similar model;
 * what does not fit has no speed and no max context. */
static void
test_comparison (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  g_autoptr(HrComparison) comparison = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  gboolean seen_glm = FALSE;

  hr_calculator_set_engine (calc, HR_ENGINE_GENERIC);
  hr_calculator_set_batch (calc, 2);
  comparison = hr_comparison_new (calc);
  hr_csv_write_comparison (comparison, out);
  lines = g_strsplit (out->str, "\r\n", -1);
  g_assert_cmpstr (lines[0], ==, "model,name,params,active_params,total_gib,per_device_gib,"
                   "verdict,decode_tokens_per_s,max_context,"
                   "precision,context,engine,kv_type,batch,device,gpus");
  g_assert_cmpuint (g_strv_length (lines), ==,
                    g_list_model_get_n_items (G_LIST_MODEL (comparison)) + 2);
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_assert_true (g_str_has_suffix (lines[i], ",q4_k_m,32768,generic,fp16,2,rtx-3060-12gb,1"));
      if (strstr (lines[i], ",no-fit,") != NULL)
        g_assert_nonnull (strstr (lines[i], ",no-fit,,,q4_k_m,"));
      seen_glm |= g_str_has_prefix (lines[i], "THUDM/GLM-4-9B-0414,GLM-4-9B-0414,");
    }
  g_assert_true (seen_glm);
}

/* Issue 30, item 16: a device it does not fit has no decode speed (an
 * empty cell), and a context memory never limits is written
 * "unlimited", never 2147483647. */
static void
test_no_fit_unlimited (void)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(HrCalculator) calc = hr_calculator_new (catalog);
  g_autoptr(HrHardwareTable) table = NULL;
  g_autoptr(HrComparison) comparison = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  guint no_fit = 0, unlimited = 0;

  hr_calculator_set_engine (calc, HR_ENGINE_GENERIC);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "mistralai/Mistral-7B-v0.1"));
  table = hr_hardware_table_new (calc);
  hr_csv_write_hardware (table, out);
  lines = g_strsplit (out->str, "\r\n", -1);
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    if (strstr (lines[i], ",no-fit,") != NULL)
      {
        g_assert_nonnull (strstr (lines[i], ",no-fit,,"));
        no_fit++;
      }
  g_assert_cmpuint (no_fit, >, 0);

  g_string_truncate (out, 0);
  g_clear_pointer (&lines, g_strfreev);
  comparison = hr_comparison_new (calc);
  hr_csv_write_comparison (comparison, out);
  g_assert_null (strstr (out->str, "2147483647"));
  lines = g_strsplit (out->str, "\r\n", -1);
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    if (g_str_has_prefix (lines[i], "mistralai/Mistral-7B-v0.1,"))
      {
        g_assert_nonnull (strstr (lines[i], ",unlimited,"));
        unlimited++;
      }
  g_assert_cmpuint (unlimited, ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/csv/escaping", test_escaping);
  g_test_add_func ("/csv/formula-guard", test_formula_guard);
  g_test_add_func ("/csv/formula-model-name", test_formula_model_name);
  g_test_add_func ("/csv/matrix", test_matrix);
  g_test_add_func ("/csv/locale-independent", test_locale_independent);
  g_test_add_func ("/csv/hardware", test_hardware);
  g_test_add_func ("/csv/comparison", test_comparison);
  g_test_add_func ("/csv/no-fit-unlimited", test_no_fit_unlimited);

  return g_test_run ();
}
