/* test-log-dialog.c — “Check a Log” in the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The logs are tests/data/logs' published ones (SOURCES.md).  Runs under
 * xvfb-run with GTK_A11Y=none, GSETTINGS_BACKEND=memory and
 * G_DEBUG=fatal-criticals.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <adwaita.h>

#include "hr-test-app.h"
#include "hr-window.h"

static HrWindow *
new_window (void)
{
  AdwApplication *app = g_object_get_data (G_OBJECT (g_application_get_default ()), "app");
  HrWindow *window = hr_window_new (GTK_APPLICATION (app));

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_iterate ();
  return window;
}

static GFile *
log_file (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "logs", name, NULL);

  return g_file_new_for_path (path);
}

static const HrLogFigure *
figure (HrLogDialog *dialog,
        const char  *key)
{
  const HrLogCheck *check = hr_log_dialog_get_check (dialog);

  g_assert_nonnull (check);
  for (guint i = 0; i < check->n; i++)
    if (strcmp (check->figures[i].key, key) == 0)
      return &check->figures[i];
  g_error ("no figure %s", key);
  return NULL;
}

static void
collect_labels (GtkWidget *widget,
                GString   *out)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget))
    {
      g_string_append (out, gtk_label_get_text (GTK_LABEL (widget)));
      g_string_append_c (out, '\n');
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, out);
}

static void
assert_shows (HrLogDialog *dialog,
              const char  *expected)
{
  g_autoptr(GString) text = g_string_new (NULL);

  hr_test_iterate ();
  collect_labels (GTK_WIDGET (dialog), text);
  if (strstr (text->str, expected) == NULL)
    g_error ("the dialog does not show “%s”; it shows:\n%s", expected, text->str);
}

/* llama.cpp 2024: Llama 3 8B Q4_0, 8,192 tokens, one CUDA GPU.  The log
 * names no model: the window's is used, and when the window's becomes
 * the right one the comparison follows; then its settings are applied. */
static void
test_llamacpp_follows_window (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  g_autoptr(GFile) file = log_file ("llamacpp-2024-llama3-8b-cuda.log");
  HrLogDialog *dialog = hr_window_check_log (window, file);
  const HrLogFigure *kv;
  double error;

  g_assert_null (hr_log_dialog_get_problem (dialog));
  kv = figure (dialog, "kv_bytes");
  g_assert_cmpfloat (kv->measured, ==, 1073741824.0);
  assert_shows (dialog, "the window’s model; the log does not name one");
  assert_shows (dialog, "8,192 tokens");

  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog,
                                                        "meta-llama/Llama-3.1-8B-Instruct"));
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "q4_0"));
  hr_calculator_thaw (calc);
  /* 32 layers × 8 KV heads × 128 × 2 × 2 B × 8,192 = 1 GiB, exactly */
  kv = figure (dialog, "kv_bytes");
  g_assert_true (hr_log_figure_error (kv, &error));
  g_assert_cmpfloat (fabs (error), <, 1e-9);
  g_assert_true (hr_log_figure_error (figure (dialog, "weights_bytes"), &error));
  g_assert_cmpfloat (fabs (error), <, 0.02);
  assert_shows (dialog, "+0.0 %");

  g_assert_true (hr_log_dialog_apply (dialog));
  g_assert_cmpuint (hr_calculator_get_context (calc), ==, 8192);
  g_assert_cmpint (hr_calculator_get_engine (calc), ==, HR_ENGINE_LLAMACPP);
  g_assert_cmpstr (hr_kv_type_get_id (hr_calculator_get_kv_type (calc)), ==, "fp16");
  g_assert_false (hr_calculator_get_gpu_layers_auto (calc));
  g_assert_cmpuint (hr_calculator_get_gpu_layers (calc), ==, 33);

  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Pasted text: Ollama 0.5's plan for four sequences of 2,048 tokens. */
static void
test_pasted_ollama (void)
{
  HrWindow *window = new_window ();
  g_autoptr(GFile) file = log_file ("ollama-0.5-cuda-qwen-parallel.log");
  g_autofree char *text = NULL;
  gsize length;
  HrLogDialog *dialog = hr_window_check_log (window, NULL);

  g_assert_true (g_file_load_contents (file, NULL, &text, &length, NULL, NULL));
  assert_shows (dialog, "Check a Log");
  hr_log_dialog_load_text (dialog, text, length);
  g_assert_null (hr_log_dialog_get_problem (dialog));
  g_assert_cmpfloat (figure (dialog, "kv_bytes")->measured, ==, 896.0 * 1048576);
  assert_shows (dialog, "2,048 tokens × 4 sequences");
  assert_shows (dialog, "Ollama’s own plan");

  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* vLLM 0.6 on an RTX 3090 (vllm-project/vllm#10517): 1,952 blocks of 16
 * tokens.  The window holds a GGUF type, which vLLM cannot load, and the
 * log does not name its dtype: the checkpoint's own, BF16, is taken. */
static void
test_vllm_dtype_auto (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  g_autoptr(GFile) file = log_file ("vllm-0.6-llama31-8b-rtx3090.log");
  HrLogDialog *dialog;
  const HrLogFigure *capacity;
  double error;

  /* first a model too large for the window's 12 GB card in BF16 */
  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "Qwen/Qwen2.5-14B-Instruct"));
  hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, "rtx-3060-12gb"));
  hr_calculator_thaw (calc);
  dialog = hr_window_check_log (window, file);
  assert_shows (dialog, "do not fit the window’s device");

  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog,
                                                        "meta-llama/Llama-3.1-8B-Instruct"));
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "q4_k_m"));
  hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, "rtx-3090-24gb"));
  hr_calculator_thaw (calc);
  g_assert_null (hr_log_dialog_get_problem (dialog));
  capacity = figure (dialog, "kv_capacity_tokens");
  g_assert_cmpfloat (capacity->measured, ==, 1952 * 16);
  g_assert_true (hr_log_figure_error (capacity, &error));
  g_assert_cmpfloat (fabs (error), <, 0.03);
  assert_shows (dialog, "the engine’s default, the checkpoint’s own");

  g_assert_true (hr_log_dialog_apply (dialog));
  g_assert_cmpint (hr_calculator_get_engine (calc), ==, HR_ENGINE_VLLM);
  g_assert_cmpstr (hr_precision_get_id (hr_calculator_get_precision (calc)), ==, "bf16");
  g_assert_cmpuint (hr_calculator_get_context (calc), ==, 20000);
  g_assert_true (hr_calculator_get_valid (calc));

  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A log dropped on the window opens Check a Log (a .gguf or a config
 * .json would be imported). */
static gboolean
find_dialog (gpointer data)
{
  HrLogDialog **found = data;
  GListModel *toplevels = gtk_window_get_toplevels ();   /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (HR_IS_LOG_DIALOG (w))
        *found = HR_LOG_DIALOG (w);
    }
  return *found != NULL;
}

static void
test_dropped_log (void)
{
  HrWindow *window = new_window ();
  g_autoptr(GFile) file = log_file ("ollama-0.5-cuda-qwen-parallel.log");
  HrLogDialog *dialog = NULL;

  hr_window_open_file (window, file);
  hr_test_wait_until (find_dialog, &dialog, "Check a Log to open");
  g_assert_null (hr_log_dialog_get_problem (dialog));
  g_assert_cmpfloat (figure (dialog, "kv_bytes")->measured, ==, 896.0 * 1048576);
  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Not a log: one clear state, nothing to apply, the window unchanged. */
static void
test_not_a_log (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  guint64 context = hr_calculator_get_context (calc);
  static const char text[] = "Dear diary, today I ran a model.\nIt was fast.\n";
  HrLogDialog *dialog = hr_window_check_log (window, NULL);

  hr_log_dialog_load_text (dialog, text, sizeof text - 1);
  g_assert_nonnull (hr_log_dialog_get_problem (dialog));
  g_assert_null (hr_log_dialog_get_check (dialog));
  assert_shows (dialog, "This Log Cannot Be Read");
  g_assert_false (hr_log_dialog_apply (dialog));
  g_assert_cmpuint (hr_calculator_get_context (calc), ==, context);

  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = hr_test_app_init (&argc, &argv);

  g_test_add_func ("/log-dialog/llamacpp-follows-window", test_llamacpp_follows_window);
  g_test_add_func ("/log-dialog/pasted-ollama", test_pasted_ollama);
  g_test_add_func ("/log-dialog/vllm-dtype-auto", test_vllm_dtype_auto);
  g_test_add_func ("/log-dialog/dropped-log", test_dropped_log);
  g_test_add_func ("/log-dialog/not-a-log", test_not_a_log);
  return g_test_run ();
}
