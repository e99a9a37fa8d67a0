/* test-window.c — the window shows what the CLI computes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under xvfb-run with GTK_A11Y=none, GSK_RENDERER=cairo,
 * GSETTINGS_BACKEND=memory and G_DEBUG=fatal-criticals.
 */

#include "config.h"

#include <adwaita.h>

#include "hr-test-app.h"
#include <glib/gstdio.h>

#include "hr-commands-view.h"
#include "gguf-writer.h"
#include "hr-format.h"
#include "hr-gguf.h"
#include "hr-matrix-view.h"
#include "hr-memory-chart.h"
#include "hr-placement-group.h"
#include "hr-serving-group.h"
#include "hr-test-util.h"
#include "hr-window.h"
#include "hr-window-private.h"
#include "hr-local-models.h"
#include "hr-model-import.h"

static void
collect_labels (GtkWidget *widget,
                GString   *out)
{
  /* what is hidden, with everything in it, is not shown */
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_LABEL (widget))
    {
      g_string_append (out, gtk_label_get_label (GTK_LABEL (widget)));
      g_string_append_c (out, '\n');
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, out);
}

static HrMemoryChart *
find_chart (GtkWidget *widget)
{
  if (HR_IS_MEMORY_CHART (widget))
    return HR_MEMORY_CHART (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      HrMemoryChart *found = find_chart (child);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static char *
view_text (HrWindow   *window,
           const char *name)
{
  GString *out = g_string_new (NULL);

  collect_labels (hr_window_get_view (window, name), out);
  return g_string_free (out, FALSE);
}

static void
assert_shows (const char *text,
              const char *expected)
{
  if (strstr (text, expected) == NULL)
    g_error ("the view does not show “%s”; it shows:\n%s", expected, text);
}

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

static void
set_seed_case (HrCalculator *calc)
{
  HrCatalog *catalog = hr_calculator_get_catalog (calc);

  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"));
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "q4_k_m"));
  hr_calculator_set_kv_type (calc, hr_catalog_find_kv_type (catalog, "fp16"));
  hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, "rtx-3060-12gb"));
  hr_calculator_set_context (calc, 32768);
  hr_calculator_set_batch (calc, 1);
  hr_calculator_set_gpu_count (calc, 1);
  hr_calculator_set_engine (calc, HR_ENGINE_GENERIC);   /* the seed page's method */
  hr_calculator_thaw (calc);
}

/* The overview's figures equal the CLI's, formatted. */
static void
test_overview_matches_cli (void)
{
  const char *args[] = { "estimate", "--engine", "generic", "--model", "THUDM/GLM-4-9B-0414", "--precision",
                         "q4_k_m", "--context", "32768", "--hardware", "rtx-3060-12gb",
                         "--json", NULL };
  g_autoptr(JsonNode) root = hr_test_run_cli_json (args);
  JsonObject *o = json_node_get_object (root);
  HrWindow *window = new_window ();
  g_autofree char *text = NULL;
  g_autofree char *total = NULL;
  g_autofree char *max_context = NULL;
  g_autofree char *decode = NULL;

  set_seed_case (hr_window_get_calculator (window));
  hr_test_iterate ();
  text = view_text (window, "overview");

  total = hr_format_size (json_object_get_int_member (o, "total_bytes"), HR_UNITS_BINARY);
  max_context = hr_format_tokens (json_object_get_int_member (o, "max_context"));
  decode = hr_format_rate (json_object_get_double_member (o, "decode_tokens_per_s"));

  assert_shows (text, total);
  g_assert_cmpstr (total, ==, "7.86\u00a0GiB");
  assert_shows (text, max_context);
  assert_shows (text, decode);
  assert_shows (text, "Fits comfortably on RTX 3060 12GB");
  assert_shows (text, "93.8\u00a0%");
  assert_shows (text, "20.00\u00a0GiB");
  /* the chart draws its legend with Pango; its accessible description
   * says the same */
  {
    HrMemoryChart *chart = find_chart (hr_window_get_view (window, "overview"));
    const char *description;

    g_assert_nonnull (chart);
    description = hr_memory_chart_get_description (chart);
    assert_shows (description, "5.31\u00a0GiB (67.6\u00a0%)");
    assert_shows (description, "1.25\u00a0GiB (15.9\u00a0%)");
    assert_shows (description, "1.30\u00a0GiB (16.5\u00a0%)");
    assert_shows (description, "11.81\u00a0GiB usable");
  }
  assert_shows (text, "the model was trained for 32,768");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* What does not fit says so, and what would. */
static void
test_overview_no_fit (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  g_autofree char *text = NULL;

  set_seed_case (calc);
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "fp16"));
  hr_test_iterate ();
  text = view_text (window, "overview");
  assert_shows (text, "Does not fit on RTX 3060 12GB");
  assert_shows (text, "What would fit");
  assert_shows (text, "Weights in Q6_K");
  assert_shows (text, "2 such devices with tensor parallelism");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* “Export as CSV” writes exactly what `headroom-cli matrix --csv` prints. */
static void
test_export_equals_cli (void)
{
  const char *args[] = { "matrix", "--engine", "generic", "--model", "THUDM/GLM-4-9B-0414", "--csv", NULL };
  const char *hw_args[] = { "hardware", "--engine", "generic", "--model", "THUDM/GLM-4-9B-0414", "--precision",
                            "q4_k_m", "--csv", NULL };
  HrWindow *window = new_window ();
  g_autofree char *dir = g_dir_make_tmp ("headroom-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "GLM-4-9B-0414-matrix.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *written = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *hw_expected = NULL;
  int status;

  set_seed_case (hr_window_get_calculator (window));
  hr_test_iterate ();

  g_assert_true (hr_window_export_csv_to (window, "matrix", file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &written, NULL, NULL));
  expected = hr_test_run_cli (args, &status, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (written, ==, expected);
  g_clear_pointer (&written, g_free);

  g_assert_true (hr_window_export_csv_to (window, "hardware", file, &error));
  g_assert_true (g_file_get_contents (path, &written, NULL, NULL));
  hw_expected = hr_test_run_cli (hw_args, &status, NULL);
  g_assert_cmpstr (written, ==, hw_expected);

  /* a failed write leaves no partial file and says why */
  {
    g_autoptr(GFile) bad = g_file_new_for_path ("/proc/headroom/nope.csv");
    g_assert_false (hr_window_export_csv_to (window, "matrix", bad, &error));
    g_assert_nonnull (error);
  }

  g_unlink (path);
  g_rmdir (dir);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_commands_and_model (void)
{
  HrWindow *window = new_window ();
  HrCommandsView *commands;
  g_autofree char *model_text = NULL;

  set_seed_case (hr_window_get_calculator (window));
  hr_test_iterate ();
  commands = HR_COMMANDS_VIEW (hr_window_get_view (window, "commands"));
  /* Q4_K_M is a GGUF type: vLLM says why it has no command */
  g_assert_nonnull (strstr (hr_commands_view_get_text (commands, "vllm"),
                            "vLLM serves safetensors checkpoints"));
  /* the library's glm4:9b is another checkpoint (GLM-4-9B-Chat) */
  g_assert_nonnull (strstr (hr_commands_view_get_text (commands, "ollama"),
                            "FROM ./GLM-4-9B-0414-Q4_K_M.gguf"));
  g_assert_null (strstr (hr_commands_view_get_text (commands, "ollama"),
                         "PARAMETER flash_attn"));

  model_text = view_text (window, "model");
  assert_shows (model_text, "THUDM/GLM-4-9B-0414");
  assert_shows (model_text, "32Q / 2KV (d = 128)");
  assert_shows (model_text, "151,552 / 32,768");
  assert_shows (model_text, "= 5.31\u00a0GiB");
  assert_shows (model_text, "= 136,399 tokens");
  gtk_window_destroy (GTK_WINDOW (window));
}

static guint
count_visible_toplevels (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  guint visible = 0;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);
      if (gtk_widget_get_visible (window))
        visible++;
    }
  return visible;
}

/* A tiny llama GGUF: 2 layers, Q4_K matrices, Q6_K output, F32 norms. */
static char *
write_tiny_gguf (const char *dir)
{
  enum { HIDDEN = 256, HEADS = 4, KV = 2, HEAD_DIM = 64, FFN = 512, VOCAB = 1000, LAYERS = 2 };
  HrGgufWriter *w = hr_gguf_writer_new (3);
  char *path = g_build_filename (dir, "tiny-llama-Q4_K_M.gguf", NULL);
  g_autoptr(GError) error = NULL;

#define Q4K(n) ((guint64) (n) / 256 * 144)
#define Q6K(n) ((guint64) (n) / 256 * 210)
#define TENSOR(name, type, d0, d1, bytes) \
  G_STMT_START { \
    guint64 dims[2] = { d0, d1 }; \
    hr_gguf_writer_add_tensor (w, name, type, (d1) ? 2 : 1, dims, bytes); \
  } G_STMT_END

  hr_gguf_writer_add_string (w, "general.architecture", "llama");
  hr_gguf_writer_add_string (w, "general.name", "Tiny Llama");
  hr_gguf_writer_add_uint32 (w, "general.file_type", 15);
  hr_gguf_writer_add_uint32 (w, "llama.block_count", LAYERS);
  hr_gguf_writer_add_uint32 (w, "llama.context_length", 8192);
  hr_gguf_writer_add_uint32 (w, "llama.embedding_length", HIDDEN);
  hr_gguf_writer_add_uint32 (w, "llama.feed_forward_length", FFN);
  hr_gguf_writer_add_uint32 (w, "llama.attention.head_count", HEADS);
  hr_gguf_writer_add_uint32 (w, "llama.attention.head_count_kv", KV);
  hr_gguf_writer_add_tokens (w, VOCAB);

  TENSOR ("token_embd.weight", HR_GGML_TYPE_Q4_K, HIDDEN, VOCAB, Q4K (HIDDEN * VOCAB));
  for (guint l = 0; l < LAYERS; l++)
    {
      g_autofree char *norm = g_strdup_printf ("blk.%u.attn_norm.weight", l);
      g_autofree char *q = g_strdup_printf ("blk.%u.attn_q.weight", l);
      g_autofree char *k = g_strdup_printf ("blk.%u.attn_k.weight", l);
      g_autofree char *v = g_strdup_printf ("blk.%u.attn_v.weight", l);
      g_autofree char *o = g_strdup_printf ("blk.%u.attn_output.weight", l);
      g_autofree char *fnorm = g_strdup_printf ("blk.%u.ffn_norm.weight", l);
      g_autofree char *gate = g_strdup_printf ("blk.%u.ffn_gate.weight", l);
      g_autofree char *up = g_strdup_printf ("blk.%u.ffn_up.weight", l);
      g_autofree char *down = g_strdup_printf ("blk.%u.ffn_down.weight", l);

      TENSOR (norm, HR_GGML_TYPE_F32, HIDDEN, 0, HIDDEN * 4);
      TENSOR (q, HR_GGML_TYPE_Q4_K, HIDDEN, HEADS * HEAD_DIM, Q4K (HIDDEN * HEADS * HEAD_DIM));
      TENSOR (k, HR_GGML_TYPE_Q4_K, HIDDEN, KV * HEAD_DIM, Q4K (HIDDEN * KV * HEAD_DIM));
      TENSOR (v, HR_GGML_TYPE_Q6_K, HIDDEN, KV * HEAD_DIM, Q6K (HIDDEN * KV * HEAD_DIM));
      TENSOR (o, HR_GGML_TYPE_Q4_K, HEADS * HEAD_DIM, HIDDEN, Q4K (HIDDEN * HEADS * HEAD_DIM));
      TENSOR (fnorm, HR_GGML_TYPE_F32, HIDDEN, 0, HIDDEN * 4);
      TENSOR (gate, HR_GGML_TYPE_Q4_K, HIDDEN, FFN, Q4K (HIDDEN * FFN));
      TENSOR (up, HR_GGML_TYPE_Q4_K, HIDDEN, FFN, Q4K (HIDDEN * FFN));
      TENSOR (down, HR_GGML_TYPE_Q6_K, FFN, HIDDEN, Q6K (HIDDEN * FFN));
    }
  TENSOR ("output_norm.weight", HR_GGML_TYPE_F32, HIDDEN, 0, HIDDEN * 4);
  TENSOR ("output.weight", HR_GGML_TYPE_Q6_K, HIDDEN, VOCAB, Q6K (HIDDEN * VOCAB));

  hr_gguf_writer_write_file (w, path, &error);
  g_assert_no_error (error);
  hr_gguf_writer_free (w);
  return path;
}

/* Import… of a GGUF file and of a config.json: the model is added to the
 * user catalog on disk, selected, and the Model view shows the file's
 * tensor types.  A broken file changes nothing. */
static void
test_import (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  g_autofree char *dir = g_dir_make_tmp ("headroom-import-XXXXXX", NULL);
  g_autofree char *gguf = write_tiny_gguf (dir);
  g_autofree char *bad = g_build_filename (dir, "broken.gguf", NULL);
  g_autofree char *config = g_test_build_filename (G_TEST_DIST, "data", "hf",
                                                   "google--gemma-3-27b-it.json", NULL);
  g_autofree char *saved = g_build_filename (g_get_user_data_dir (), "headroom",
                                             "imported-models.json", NULL);
  g_autofree char *model_text = NULL;
  g_autoptr(GFile) gguf_file = g_file_new_for_path (gguf);
  g_autoptr(GFile) bad_file = g_file_new_for_path (bad);
  g_autoptr(GFile) config_file = g_file_new_for_path (config);
  guint n_models = g_list_model_get_n_items (hr_catalog_get_models (catalog));
  HrModelSpec *model;

  hr_window_import_file (window, gguf_file);
  hr_test_iterate ();
  model = hr_calculator_get_model (calc);
  g_assert_cmpstr (hr_model_spec_get_name (model), ==, "Tiny Llama");
  g_assert_cmpint (hr_model_spec_get_origin (model), ==, HR_ORIGIN_USER);
  g_assert_true (g_file_test (saved, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (g_list_model_get_n_items (hr_catalog_get_models (catalog)), ==, n_models + 1);
  model_text = view_text (window, "model");
  assert_shows (model_text, "Q4_K");
  assert_shows (model_text, "Q6_K");
  assert_shows (model_text, gguf);

  g_assert_true (g_file_set_contents (bad, "GGUF\3\0\0\0 truncated", -1, NULL));
  hr_window_import_file (window, bad_file);
  hr_test_iterate ();
  g_assert_cmpstr (hr_model_spec_get_name (hr_calculator_get_model (calc)), ==, "Tiny Llama");
  g_assert_cmpuint (g_list_model_get_n_items (hr_catalog_get_models (catalog)), ==, n_models + 1);

  hr_window_import_file (window, config_file);
  hr_test_iterate ();
  model = hr_calculator_get_model (calc);
  g_assert_cmpstr (hr_model_spec_get_id (model), ==, "google/gemma-3-27b-it");
  g_assert_cmpint (hr_model_spec_get_origin (model), ==, HR_ORIGIN_USER);

  g_unlink (gguf);
  g_unlink (bad);
  g_rmdir (dir);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A GGUF picked "On this computer" is estimated in its own type, as the
 * same file through Import… is (issue 30 item 3): one import path. */
static void
test_import_local_own_type (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  g_autofree char *dir = g_dir_make_tmp ("headroom-import-XXXXXX", NULL);
  g_autofree char *gguf = write_tiny_gguf (dir);   /* a Q4_K_M file */
  g_autoptr(HrLocalModel) found = g_object_new (HR_TYPE_LOCAL_MODEL, NULL);
  g_autoptr(HrModelSpec) read = NULL;
  g_autoptr(GError) error = NULL;

  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "q8_0"));
  read = hr_model_import_file (gguf, &error);
  g_assert_no_error (error);
  hr_local_model_set_model (found, read);
  _hr_window_import_local_model (window, found);
  hr_test_iterate ();
  g_assert_cmpstr (hr_model_spec_get_name (hr_calculator_get_model (calc)), ==, "Tiny Llama");
  g_assert_cmpstr (hr_precision_get_id (hr_calculator_get_precision (calc)), ==, "q4_k_m");

  g_unlink (gguf);
  g_rmdir (dir);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Each engine profile shows what only it knows. */
static void
test_engine_profiles (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  g_autofree char *text = NULL;

  set_seed_case (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog,
                                                        "meta-llama/Llama-3.1-8B-Instruct"));
  hr_calculator_set_engine (calc, HR_ENGINE_LLAMACPP);
  hr_test_iterate ();
  text = view_text (window, "overview");
  assert_shows (text, "Compute buffer");
  assert_shows (text, "in system memory");
  g_clear_pointer (&text, g_free);

  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "bf16"));
  hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, "rtx-3090-24gb"));
  hr_calculator_set_engine (calc, HR_ENGINE_VLLM);
  hr_calculator_set_context (calc, 20000);
  hr_test_iterate ();
  text = view_text (window, "overview");
  assert_shows (text, "KV cache capacity");
  assert_shows (text, "concurrency at this context");
  g_clear_pointer (&text, g_free);
  text = view_text (window, "model");
  assert_shows (text, "tensor by tensor");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ------------------------------------------------ placement and speed */

/* The @index-th widget of @type under @widget, depth first. */
static GtkWidget *
find_nth (GtkWidget *widget,
          GType      type,
          guint     *index)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) && (*index)-- == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_nth (child, type, index);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_widget (GtkWidget *root,
             GType      type,
             guint      index)
{
  GtkWidget *found = find_nth (root, type, &index);

  g_assert_nonnull (found);
  return found;
}

static GtkToggleButton *
find_toggle (GtkWidget  *root,
             const char *label)
{
  for (guint i = 0;; i++)
    {
      guint index = i;
      GtkWidget *button = find_nth (root, GTK_TYPE_TOGGLE_BUTTON, &index);
      GtkWidget *child;

      g_assert_nonnull (button);
      child = gtk_button_get_child (GTK_BUTTON (button));
      if (GTK_IS_LABEL (child) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (child)), label) == 0)
        return GTK_TOGGLE_BUTTON (button);
    }
}

/* Qwen3-30B-A3B in Q4_K_M on a 12 GB card with llama.cpp: it runs with
 * layers in system RAM. */
static void
set_offload_case (HrCalculator *calc)
{
  HrCatalog *catalog = hr_calculator_get_catalog (calc);

  set_seed_case (calc);
  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "Qwen/Qwen3-30B-A3B"));
  hr_calculator_set_engine (calc, HR_ENGINE_LLAMACPP);
  hr_calculator_thaw (calc);
}

static JsonNode *
offload_cli (const char *extra[])
{
  const char *base[] = { "estimate", "--model", "Qwen/Qwen3-30B-A3B", "--precision", "q4_k_m",
                         "--hardware", "rtx-3060-12gb", "--engine", "llamacpp",
                         "--context", "32768", "--json" };
  g_autoptr(GPtrArray) args = g_ptr_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (base); i++)
    g_ptr_array_add (args, (gpointer) base[i]);
  for (guint i = 0; extra[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) extra[i]);
  g_ptr_array_add (args, NULL);
  return hr_test_run_cli_json ((const char * const *) args->pdata);
}

/* One bar per GPU as the CLI's devices, then one for system RAM when
 * layers live there. */
static void
assert_bars_match_cli (HrMemoryChart *chart,
                       JsonObject    *o)
{
  JsonArray *devices = json_object_get_array_member (o, "devices");
  guint n_devices = json_array_get_length (devices);
  gboolean offloaded = g_str_equal (json_object_get_string_member (o, "placement"), "partial") ||
                       g_str_equal (json_object_get_string_member (o, "placement"), "cpu");

  g_assert_cmpuint (hr_memory_chart_get_n_bars (chart), ==, n_devices + (offloaded ? 1 : 0));
  for (guint d = 0; d < n_devices; d++)
    {
      JsonObject *device = json_array_get_object_element (devices, d);
      const HrChartBar *bar = hr_memory_chart_get_bar (chart, d);
      g_autofree char *layers = g_strdup_printf ("%" G_GINT64_FORMAT " layers",
                                                 json_object_get_int_member (device, "layers"));

      g_assert_cmpuint (bar->weights_bytes, ==, json_object_get_int_member (device, "weights_bytes"));
      g_assert_cmpuint (bar->kv_bytes, ==, json_object_get_int_member (device, "kv_bytes"));
      g_assert_cmpuint (bar->overhead_bytes, ==, json_object_get_int_member (device, "compute_bytes"));
      g_assert_cmpuint (bar->state_bytes, ==, json_object_get_int_member (device, "state_bytes"));
      g_assert_cmpuint (bar->weights_bytes + bar->kv_bytes + bar->state_bytes +
                        bar->overhead_bytes, ==,
                        json_object_get_int_member (device, "total_bytes"));
      g_assert_cmpuint (bar->usable_bytes, ==, json_object_get_int_member (device, "usable_bytes"));
      assert_shows (bar->name, layers);
    }
  if (offloaded)
    {
      const HrChartBar *ram = hr_memory_chart_get_bar (chart, n_devices);

      g_assert_cmpuint (ram->weights_bytes + ram->kv_bytes + ram->overhead_bytes, ==,
                        json_object_get_int_member (o, "host_bytes"));
      g_assert_cmpuint (ram->usable_bytes, ==, json_object_get_int_member (o, "ram_usable_bytes"));
      g_assert_cmpuint (ram->capacity_bytes, ==, json_object_get_int_member (o, "ram_bytes"));
      assert_shows (ram->name, "System RAM");
    }
}

/* The sidebar groups below the fold are built when the main loop is
 * first idle and wait for the window's first frame: before it they are
 * not laid out (not even in a window built but not shown), after it the
 * placement group is on the sidebar for llama.cpp. */
static void
test_later_groups (void)
{
  AdwApplication *app = g_object_get_data (G_OBJECT (g_application_get_default ()), "app");
  HrWindow *window = hr_window_new (GTK_APPLICATION (app));
  HrCalculator *calc = hr_window_get_calculator (window);
  GtkWidget *group, *later;
  guint first = 0, first_serving = 0;

  AdwComboRow *precision_row = ADW_COMBO_ROW (find_widget (GTK_WIDGET (window), ADW_TYPE_COMBO_ROW, 0));

  /* not built with the window, nor the combo rows' popover lists */
  g_assert_null (find_nth (GTK_WIDGET (window), HR_TYPE_PLACEMENT_GROUP, &first));
  g_assert_null (find_nth (GTK_WIDGET (window), HR_TYPE_SERVING_GROUP, &first_serving));
  g_assert_nonnull (adw_combo_row_get_list_factory (precision_row));
  hr_test_iterate ();
  group = find_widget (GTK_WIDGET (window), HR_TYPE_PLACEMENT_GROUP, 0);
  g_assert_nonnull (group);
  g_assert_nonnull (find_widget (GTK_WIDGET (window), HR_TYPE_SERVING_GROUP, 0));
  /* the popover lists with the row's own factory */
  g_assert_null (adw_combo_row_get_list_factory (precision_row));
  g_assert_cmpuint (g_list_model_get_n_items (adw_combo_row_get_model (precision_row)), >, 30);
  later = gtk_widget_get_parent (group);

  set_offload_case (calc);
  hr_test_iterate ();
  g_assert_true (gtk_widget_get_visible (group));
  g_assert_false (gtk_widget_get_visible (later));
  g_assert_false (gtk_widget_get_mapped (group));

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < 200 && !gtk_widget_get_mapped (group); i++)
    hr_test_iterate ();
  g_assert_true (gtk_widget_get_visible (later));
  g_assert_true (gtk_widget_get_mapped (group));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The GPU-layers control moves layers between the GPU and system RAM;
 * the chart's bars are the CLI's devices for the same options. */
static void
test_gpu_layers_control (void)
{
  const char *twenty[] = { "--gpu-layers", "20", NULL };
  const char *two_gpus[] = { "--gpus", "2", NULL };
  const char *automatic[] = { NULL };
  const char *small_ram[] = { "--ram", "8", NULL };
  g_autoptr(JsonNode) root = NULL;
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  GtkWidget *group = find_widget (GTK_WIDGET (window), HR_TYPE_PLACEMENT_GROUP, 0);
  GtkSpinButton *layers_spin = GTK_SPIN_BUTTON (find_widget (group, GTK_TYPE_SPIN_BUTTON, 0));
  GtkSpinButton *ram_spin = GTK_SPIN_BUTTON (find_widget (group, GTK_TYPE_SPIN_BUTTON, 2));
  GtkSwitch *auto_switch = GTK_SWITCH (find_widget (group, GTK_TYPE_SWITCH, 0));
  HrMemoryChart *chart = find_chart (hr_window_get_view (window, "overview"));
  g_autofree char *text = NULL;

  /* the nominal method has no placement: no rows, one bar */
  set_seed_case (calc);
  hr_test_iterate ();
  g_assert_false (gtk_widget_get_visible (group));
  g_assert_cmpuint (hr_memory_chart_get_n_bars (chart), ==, 0);

  set_offload_case (calc);
  hr_test_iterate ();
  g_assert_true (gtk_widget_get_visible (group));
  g_assert_true (gtk_switch_get_active (auto_switch));
  root = offload_cli (automatic);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (layers_spin), ==,
                   json_object_get_int_member (json_node_get_object (root), "gpu_layers"));
  assert_bars_match_cli (chart, json_node_get_object (root));
  g_clear_pointer (&root, json_node_unref);

  /* 20 layers, typed: automatic turns off */
  gtk_spin_button_set_value (layers_spin, 20);
  hr_test_iterate ();
  g_assert_false (hr_calculator_get_gpu_layers_auto (calc));
  g_assert_false (gtk_switch_get_active (auto_switch));
  root = offload_cli (twenty);
  assert_bars_match_cli (chart, json_node_get_object (root));
  text = view_text (window, "overview");
  assert_shows (text, "Runs with 20 of 49 layers on the GPU, 12.13\u00a0GiB in system RAM, ~");
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&root, json_node_unref);

  /* automatic again, on two GPUs: a layer split, one bar each */
  gtk_switch_set_active (auto_switch, TRUE);
  hr_calculator_set_gpu_count (calc, 2);
  hr_test_iterate ();
  root = offload_cli (two_gpus);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "placement"), ==,
                   "split");
  assert_bars_match_cli (chart, json_node_get_object (root));
  g_clear_pointer (&root, json_node_unref);
  hr_calculator_set_gpu_count (calc, 1);

  /* 8 GiB of system RAM: one clear state, and no speed */
  gtk_spin_button_set_value (ram_spin, 8);
  hr_test_iterate ();
  root = offload_cli (small_ram);
  g_assert_false (json_object_get_boolean_member (json_node_get_object (root), "ram_fits"));
  assert_bars_match_cli (chart, json_node_get_object (root));
  text = view_text (window, "overview");
  assert_shows (text, "Does not run: system RAM is too small");
  assert_shows (text, "No speed: it does not run as set.");
  g_assert_null (strstr (text, "tok/s"));
  g_clear_pointer (&text, g_free);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The prompt presets time the prompts the CLI times with --prompt-tokens. */
/* The whole load's rows: the KV cache in RAM (llama-server only) and a
 * LoRA adapter's rank, each set by its control, the chart's bars and
 * the CLI's figures the same. */
static void
test_whole_load_rows (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  GtkWidget *group = find_widget (GTK_WIDGET (window), HR_TYPE_PLACEMENT_GROUP, 0);
  GtkSwitch *kv_switch = GTK_SWITCH (find_widget (group, GTK_TYPE_SWITCH, 1));
  GtkSpinButton *lora_spin = GTK_SPIN_BUTTON (find_widget (group, GTK_TYPE_SPIN_BUTTON, 4));
  GtkWidget *kv_row = gtk_widget_get_ancestor (GTK_WIDGET (kv_switch), ADW_TYPE_ACTION_ROW);
  HrMemoryChart *chart = find_chart (hr_window_get_view (window, "overview"));
  const char *host[] = { "estimate", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--precision",
                         "q4_k_m", "--hardware", "rtx-3060-12gb", "--engine", "llamacpp",
                         "--context", "32768", "--kv-offload", "off", "--lora", "16", "--json",
                         NULL };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *o, *device;
  const HrChartBar *bar;
  g_autofree char *subtitle = NULL;

  set_seed_case (calc);
  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct"));
  hr_calculator_set_engine (calc, HR_ENGINE_LLAMACPP);
  hr_calculator_thaw (calc);
  hr_test_iterate ();
  g_assert_true (gtk_widget_get_visible (kv_row));
  g_assert_false (gtk_switch_get_active (kv_switch));
  g_assert_cmpuint (hr_memory_chart_get_n_bars (chart), ==, 0);

  gtk_switch_set_active (kv_switch, TRUE);
  gtk_spin_button_set_value (lora_spin, 16);
  hr_test_iterate ();
  g_assert_true (hr_calculator_get_kv_on_host (calc));
  g_assert_cmpuint (hr_calculator_get_lora_rank (calc), ==, 16);
  g_assert_true (hr_calculator_get_valid (calc));

  /* one GPU bar with no cache, one system-RAM bar holding it: the CLI's */
  root = hr_test_run_cli_json (host);
  o = json_node_get_object (root);
  device = json_array_get_object_element (json_object_get_array_member (o, "devices"), 0);
  g_assert_cmpuint (hr_memory_chart_get_n_bars (chart), ==, 2);
  bar = hr_memory_chart_get_bar (chart, 0);
  g_assert_cmpuint (bar->kv_bytes, ==, 0);
  g_assert_cmpuint (bar->weights_bytes + bar->kv_bytes + bar->state_bytes + bar->overhead_bytes,
                    ==, json_object_get_int_member (device, "total_bytes"));
  bar = hr_memory_chart_get_bar (chart, 1);
  assert_shows (bar->name, "System RAM · KV cache");
  g_assert_cmpuint (bar->kv_bytes, ==, json_object_get_int_member (o, "kv_bytes"));
  g_assert_cmpuint (hr_calculator_get_estimate (calc)->lora_bytes, ==,
                    json_object_get_int_member (o, "lora_bytes"));
  g_object_get (gtk_widget_get_ancestor (GTK_WIDGET (lora_spin), ADW_TYPE_ACTION_ROW),
                "subtitle", &subtitle, NULL);
  assert_shows (subtitle, "beside the layers it adapts");

  /* Ollama has no --no-kv-offload: one clear state, and the row stays to
   * turn it off */
  hr_calculator_set_engine (calc, HR_ENGINE_OLLAMA);
  hr_test_iterate ();
  g_assert_false (hr_calculator_get_valid (calc));
  g_assert_true (gtk_widget_get_visible (kv_row));
  gtk_switch_set_active (kv_switch, FALSE);
  hr_test_iterate ();
  g_assert_true (hr_calculator_get_valid (calc));
  g_assert_false (gtk_widget_get_visible (kv_row));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_prompt_presets (void)
{
  static const struct { const char *label; const char *tokens; } presets[] = {
    { "A question", "500" },
    { "A document", "20000" },
    { "The full context", NULL },
  };
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  GtkWidget *overview = hr_window_get_view (window, "overview");
  double previous_ttft = 0;

  set_offload_case (calc);
  hr_test_iterate ();
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      const char *extra[] = { "--prompt-tokens", presets[i].tokens, NULL };
      g_autoptr(JsonNode) root = offload_cli (presets[i].tokens != NULL ? extra : extra + 2);
      JsonObject *o = json_node_get_object (root);
      g_autofree char *prefill = hr_format_rate (json_object_get_double_member (o,
                                                                                "prefill_tokens_per_s"));
      g_autofree char *tokens = hr_format_tokens (json_object_get_int_member (o, "prompt_tokens"));
      g_autofree char *caption = g_strdup_printf ("a prompt of %s tokens", tokens);
      g_autofree char *text = NULL;
      double ttft = json_object_get_double_member (o, "ttft_seconds");

      gtk_toggle_button_set_active (find_toggle (overview, presets[i].label), TRUE);
      hr_test_iterate ();
      text = view_text (window, "overview");
      assert_shows (text, prefill);
      assert_shows (text, caption);
      assert_close (hr_calculator_get_estimate (calc)->ttft_seconds, ttft, 1e-9);
      /* longer prompts wait longer for their first token */
      g_assert_cmpfloat (ttft, >, previous_ttft);
      previous_ttft = ttft;
    }

  /* a 16K context: a document does not fit it, the full context is chosen */
  gtk_toggle_button_set_active (find_toggle (overview, "A document"), TRUE);
  hr_calculator_set_context (calc, 16384);
  hr_test_iterate ();
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (find_toggle (overview, "A document"))));
  g_assert_true (gtk_toggle_button_get_active (find_toggle (overview, "The full context")));
  g_assert_cmpuint (hr_calculator_get_estimate (calc)->prompt_tokens, ==, 16384);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* An impossible combination: one state, no figures, and the one change
 * that makes it run. */
static void
test_impossible_fix (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  GtkWidget *overview = hr_window_get_view (window, "overview");
  GtkWidget *fix = NULL;
  g_autofree char *text = NULL;

  set_seed_case (calc);
  hr_calculator_set_engine (calc, HR_ENGINE_VLLM);   /* Q4_K_M is a GGUF type */
  hr_test_iterate ();
  g_assert_false (hr_calculator_get_valid (calc));
  text = view_text (window, "overview");
  assert_shows (text, "No estimate");
  assert_shows (text, "vLLM serves safetensors checkpoints");
  /* no figure of the failed run: no zeros */
  g_assert_null (strstr (text, "0.00\u00a0GiB"));
  g_assert_null (strstr (text, "tok/s"));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (find_chart (overview))));

  for (guint i = 0; fix == NULL; i++)
    {
      guint index = i;
      GtkWidget *button = find_nth (overview, GTK_TYPE_BUTTON, &index);

      g_assert_nonnull (button);
      if (gtk_widget_get_visible (button) &&
          g_strcmp0 (gtk_button_get_label (GTK_BUTTON (button)),
                     "Choose the Engine Automatically") == 0)
        fix = button;
    }
  g_signal_emit_by_name (fix, "clicked");
  hr_test_iterate ();
  g_assert_true (hr_calculator_get_valid (calc));
  g_assert_cmpint (hr_calculator_get_engine (calc), ==, HR_ENGINE_AUTO);
  g_assert_false (gtk_widget_get_visible (fix));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (find_chart (overview))));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Settings that cannot be estimated are one state in every view: the
 * reason, no zeros, no formula of a profile that computed nothing. */
static void
test_no_estimate_views (void)
{
  static const char * const views[] = { "matrix", "hardware", "compare", "model" };
  const char *reason = "llama.cpp needs flash attention for a quantized V cache";
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrEngineOptions options;
  /* the Offload group's spin buttons: GPU layers, experts, RAM, bandwidth */
  enum { RAM_SPIN = 2, BANDWIDTH_SPIN = 3 };
  GtkWidget *group;
  double ram, bandwidth;

  set_seed_case (calc);
  hr_test_iterate ();
  /* the model view once kept the valid run's formulas */
  {
    g_autofree char *text = view_text (window, "model");

    assert_shows (text, "KV heads \u00d7");
  }

  /* the sidebar's Offload group, for llama.cpp (issue 30 item 7) */
  hr_calculator_set_engine (calc, HR_ENGINE_LLAMACPP);
  hr_test_iterate ();
  group = find_widget (GTK_WIDGET (window), HR_TYPE_PLACEMENT_GROUP, 0);
  ram = gtk_spin_button_get_value (GTK_SPIN_BUTTON (find_widget (group, GTK_TYPE_SPIN_BUTTON,
                                                                 RAM_SPIN)));
  bandwidth = gtk_spin_button_get_value (GTK_SPIN_BUTTON (find_widget (group, GTK_TYPE_SPIN_BUTTON,
                                                                       BANDWIDTH_SPIN)));
  g_assert_cmpfloat (ram, >, 1.0);
  g_assert_cmpfloat (bandwidth, >, 1.0);

  options = *hr_calculator_get_engine_options (calc);
  options.flash_attn = HR_FLASH_ATTN_OFF;
  hr_calculator_freeze (calc);
  hr_calculator_set_engine (calc, HR_ENGINE_LLAMACPP);
  hr_calculator_set_kv_type (calc, hr_catalog_find_kv_type (hr_calculator_get_catalog (calc),
                                                            "q8_0"));
  hr_calculator_set_engine_options (calc, &options);
  hr_calculator_thaw (calc);
  hr_test_iterate ();
  g_assert_false (hr_calculator_get_valid (calc));

  /* one state there too: the RAM keeps its value, no "0.00 GiB usable" */
  {
    g_autoptr(GString) labels = g_string_new (NULL);

    collect_labels (group, labels);
    assert_shows (labels->str, "No estimate");
    g_assert_null (strstr (labels->str, "0.00"));
    g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (
                         find_widget (group, GTK_TYPE_SPIN_BUTTON, RAM_SPIN))), ==, ram);
    g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (
                         find_widget (group, GTK_TYPE_SPIN_BUTTON, BANDWIDTH_SPIN))), ==, bandwidth);
  }

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_autofree char *text = NULL;
      g_autofree char *expected = g_strdup_printf ("No estimate: %s", reason);

      hr_window_show_view (window, views[i]);
      hr_test_iterate ();
      text = view_text (window, views[i]);
      assert_shows (text, expected);
      g_assert_null (strstr (text, "0.00\u00a0GiB"));
    }

  /* the Serving view, for the engine that has no Q8_0 cache */
  hr_calculator_set_engine (calc, HR_ENGINE_VLLM);
  hr_calculator_set_precision (calc, hr_catalog_find_precision (hr_calculator_get_catalog (calc),
                                                                "fp16"));
  hr_window_show_view (window, "serving");
  hr_test_iterate ();
  {
    g_autofree char *text = view_text (window, "serving");

    assert_shows (text, "No estimate");
    assert_shows (text, "vLLM has no such KV cache type (it offers FP16/BF16 and FP8)");
  }
  hr_calculator_set_engine (calc, HR_ENGINE_LLAMACPP);
  hr_calculator_set_precision (calc, hr_catalog_find_precision (hr_calculator_get_catalog (calc),
                                                                "q4_k_m"));
  hr_test_iterate ();

  {
    g_autofree char *text = view_text (window, "model");

    /* the architecture stays, the formulas go */
    assert_shows (text, "THUDM/GLM-4-9B-0414");
    assert_shows (text, "Grouped-query attention");
    g_assert_null (strstr (text, "KV heads \u00d7"));
    g_assert_null (strstr (text, "tok/s"));
  }

  /* the engine is saved: the settings tests expect the default */
  hr_calculator_set_engine (calc, HR_ENGINE_AUTO);
  gtk_window_destroy (GTK_WINDOW (window));
}

static AdwActionRow *
find_row (GtkWidget  *widget,
          const char *title)
{
  if (ADW_IS_ACTION_ROW (widget) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return ADW_ACTION_ROW (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      AdwActionRow *found = find_row (child, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The GPUs row names how the engine that answers spreads the model:
 * under Automatic, the engine it picked; tensor parallelism is vLLM's and
 * SGLang's, llama.cpp splits layers. */
static void
test_gpus_subtitle (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  AdwActionRow *row = find_row (GTK_WIDGET (window), "GPUs");
  g_autofree char *text = NULL;

  g_assert_nonnull (row);
  set_seed_case (calc);
  hr_calculator_set_gpu_count (calc, 2);
  hr_calculator_set_engine (calc, HR_ENGINE_AUTO);   /* Q4_K_M: llama.cpp */
  hr_test_iterate ();
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (row)));
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==,
                   "Layer split: whole layers on each GPU");
  /* the assumptions name the engine Automatic picked, not the generic one */
  {
    guint index = 0;
    GtkWidget *expander = find_nth (hr_window_get_view (window, "overview"),
                                    GTK_TYPE_EXPANDER, &index);

    gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
    hr_test_iterate ();
  }
  text = view_text (window, "overview");
  assert_shows (text, "Engine profile: llama.cpp");
  g_assert_null (strstr (text, "generic"));

  hr_calculator_set_split_mode (calc, HR_SPLIT_ROW);
  hr_test_iterate ();
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==, "Row split: each layer over every GPU");

  /* the nominal method divides weights and replicates KV heads as
   * tensor parallelism does */
  hr_calculator_set_engine (calc, HR_ENGINE_GENERIC);
  hr_test_iterate ();
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==, "Tensor parallel");

  /* what would fit, under llama.cpp: more devices split by layers */
  hr_calculator_freeze (calc);
  hr_calculator_set_engine (calc, HR_ENGINE_LLAMACPP);
  hr_calculator_set_split_mode (calc, HR_SPLIT_DEFAULT);
  hr_calculator_set_gpu_count (calc, 1);
  hr_calculator_set_model (calc, hr_catalog_find_model (hr_calculator_get_catalog (calc),
                                                        "google/gemma-3-27b-it"));
  hr_calculator_set_precision (calc, hr_catalog_find_precision (hr_calculator_get_catalog (calc),
                                                                "q8_0"));
  hr_calculator_set_context (calc, 131072);
  hr_calculator_thaw (calc);
  hr_test_iterate ();
  g_free (text);
  text = view_text (window, "overview");
  assert_shows (text, "such devices, whole layers on each");
  g_assert_null (strstr (text, "tensor parallelism"));

  /* the engine is saved: the settings tests expect the default */
  hr_calculator_set_engine (calc, HR_ENGINE_AUTO);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* An 8 GB Mac and an 8 GB card at a similar share of their usable memory
 * are worded alike: the Mac's unified pool once failed the host-RAM check
 * of a model that fits its GPU, "Does not run: system RAM is too small". */
static void
test_unified_wording (void)
{
  static const char * const devices[][2] = {
    { "apple-m1-8gb", "Fits comfortably on Apple M1 8GB" },
    { "rtx-3070-8gb", "Fits comfortably on RTX 3070 8GB" },
  };
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);

  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "Qwen/Qwen3-4B"));
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "q4_k_m"));
  hr_calculator_set_kv_type (calc, hr_catalog_find_kv_type (catalog, "fp16"));
  hr_calculator_set_engine (calc, HR_ENGINE_LLAMACPP);
  hr_calculator_set_context (calc, 8192);
  hr_calculator_set_gpu_count (calc, 1);
  hr_calculator_thaw (calc);

  for (guint i = 0; i < G_N_ELEMENTS (devices); i++)
    {
      g_autofree char *text = NULL;

      hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, devices[i][0]));
      hr_test_iterate ();
      text = view_text (window, "overview");
      assert_shows (text, devices[i][1]);
      g_assert_null (strstr (text, "system RAM is too small"));
    }

  /* the engine is saved: the settings tests expect the default */
  hr_calculator_set_engine (calc, HR_ENGINE_AUTO);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* vLLM fills its budget whatever the load: its verdict's 90 % is of the
 * concurrency the cache holds, and the Assumptions say that rule, not the
 * memory rule its "Fits comfortably" at 92 % of memory would contradict. */
static void
test_serving_rule_text (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  g_autofree char *text = NULL;
  guint index = 0;
  GtkWidget *expander;

  set_seed_case (calc);
  hr_calculator_freeze (calc);
  hr_calculator_set_engine (calc, HR_ENGINE_VLLM);
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "fp16"));
  hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, "rtx-4090-24gb"));
  hr_calculator_thaw (calc);
  hr_test_iterate ();
  expander = find_nth (hr_window_get_view (window, "overview"), GTK_TYPE_EXPANDER, &index);
  gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
  hr_test_iterate ();
  text = view_text (window, "overview");
  assert_shows (text, "Fits comfortably on RTX 4090 24GB");
  assert_shows (text, "“Fits comfortably” while the parallel sequences are at most 90 % "
                      "of those the KV cache holds at once");
  g_assert_null (strstr (text, "of usable memory; “tight”"));

  /* the engine is saved: the settings tests expect the default */
  hr_calculator_set_engine (calc, HR_ENGINE_AUTO);
  gtk_window_destroy (GTK_WINDOW (window));
}

static GSettings *
app_settings (void)
{
  return g_settings_new ("io.github.headroom_app.Headroom");
}

static void
reset_settings (GSettings *settings)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i]; i++)
    g_settings_reset (settings, keys[i]);
}

/* The last inputs come back at start. */
static void
test_settings_restored (void)
{
  g_autoptr(GSettings) settings = app_settings ();
  const guint64 contexts[] = { 4096, 16384 };
  HrWindow *window;
  HrCalculator *calc;
  HrMatrixView *matrix_view;

  g_settings_set_string (settings, "model", "Qwen/Qwen3-8B");
  g_settings_set_string (settings, "precision", "q8_0");
  g_settings_set_string (settings, "kv-type", "q8_0");
  g_settings_set_string (settings, "hardware", "rtx-4090-24gb");
  g_settings_set_uint64 (settings, "context", 65536);
  g_settings_set_uint (settings, "batch", 2);
  g_settings_set_uint (settings, "gpu-count", 2);
  g_settings_set_enum (settings, "units", HR_UNITS_DECIMAL);
  g_settings_set_value (settings, "matrix-contexts",
                        g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, contexts, 2,
                                                   sizeof (guint64)));

  window = new_window ();
  calc = hr_window_get_calculator (window);
  g_assert_cmpstr (hr_model_spec_get_id (hr_calculator_get_model (calc)), ==, "Qwen/Qwen3-8B");
  g_assert_cmpstr (hr_precision_get_id (hr_calculator_get_precision (calc)), ==, "q8_0");
  g_assert_cmpstr (hr_kv_type_get_id (hr_calculator_get_kv_type (calc)), ==, "q8_0");
  g_assert_cmpstr (hr_hardware_get_id (hr_calculator_get_hardware (calc)), ==, "rtx-4090-24gb");
  g_assert_cmpuint (hr_calculator_get_context (calc), ==, 65536);
  g_assert_cmpuint (hr_calculator_get_batch (calc), ==, 2);
  g_assert_cmpuint (hr_calculator_get_gpu_count (calc), ==, 2);
  g_assert_cmpuint (hr_window_get_units (window), ==, HR_UNITS_DECIMAL);
  matrix_view = HR_MATRIX_VIEW (hr_window_get_view (window, "matrix"));
  g_assert_cmpuint (hr_matrix_get_n_contexts (hr_matrix_view_get_matrix (matrix_view)), ==, 2);

  /* decimal units reach the labels */
  {
    g_autofree char *text = view_text (window, "overview");
    assert_shows (text, "\u00a0GB");
  }

  gtk_window_destroy (GTK_WINDOW (window));
  reset_settings (settings);
}

/* The engine, placement and serving inputs come back too: set in one
 * window, they are there in the next. */
static void
test_settings_inputs_kept (void)
{
  g_autoptr(GSettings) settings = app_settings ();
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  guint flash = 0, users = 0, nodes = 0, gpus = 0, layers = 0, split = 0, moe = 0;
  double util = 0, target = 0;
  guint64 prompt = 0;
  gboolean layers_auto = TRUE;

  /* two machines of two GPUs */
  g_object_set (calc, "nodes", 2, "gpu-count", 4, "flash-attn", HR_FLASH_ATTN_OFF,
                "gpu-memory-utilization", 0.85, "users", 16, "target-tokens-per-s", 12.5,
                "prompt-tokens", (guint64) 2048, "gpu-layers-auto", FALSE, "gpu-layers", 20,
                "split-mode", HR_SPLIT_ROW, "n-cpu-moe", 3, NULL);
  hr_test_iterate ();
  g_assert_cmpuint (hr_calculator_get_gpus_per_node (calc), ==, 2);
  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_iterate ();
  g_assert_cmpuint (g_settings_get_uint (settings, "users"), ==, 16);

  window = new_window ();
  calc = hr_window_get_calculator (window);
  g_object_get (calc, "flash-attn", &flash, "users", &users, "nodes", &nodes,
                "gpu-count", &gpus, "gpu-layers-auto", &layers_auto, "gpu-layers", &layers,
                "split-mode", &split, "n-cpu-moe", &moe, "gpu-memory-utilization", &util,
                "target-tokens-per-s", &target, "prompt-tokens", &prompt, NULL);
  g_assert_cmpuint (flash, ==, HR_FLASH_ATTN_OFF);
  g_assert_cmpuint (users, ==, 16);
  g_assert_cmpuint (nodes, ==, 2);
  g_assert_cmpuint (gpus, ==, 4);
  g_assert_false (layers_auto);
  g_assert_cmpuint (layers, ==, 20);
  g_assert_cmpuint (split, ==, HR_SPLIT_ROW);
  g_assert_cmpuint (moe, ==, 3);
  g_assert_cmpfloat_with_epsilon (util, 0.85, 1e-9);
  g_assert_cmpfloat_with_epsilon (target, 12.5, 1e-9);
  g_assert_cmpuint (prompt, ==, 2048);

  gtk_window_destroy (GTK_WINDOW (window));
  reset_settings (settings);
}

/* Every key named after a calculator property has its type, default
 * and range: a fresh install starts where the calculator does, and no
 * value the key accepts is one the property refuses. */
static void
test_settings_match_properties (void)
{
  g_autoptr(GSettings) settings = app_settings ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(HrCalculator) calc = hr_calculator_new (hr_catalog_get_default ());
  g_auto(GStrv) keys = NULL;
  guint matched = 0;

  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (calc), keys[i]);
      g_autoptr(GSettingsSchemaKey) key = g_settings_schema_get_key (schema, keys[i]);
      g_autoptr(GVariant) fallback = g_settings_schema_key_get_default_value (key);
      g_autoptr(GVariant) range = g_settings_schema_key_get_range (key);
      g_auto(GValue) value = G_VALUE_INIT;
      const char *kind = NULL;
      g_autoptr(GVariant) bounds = NULL;

      /* the numbers and switches (the model, device… are kept by id) */
      if (pspec == NULL || (pspec->value_type != G_TYPE_UINT && pspec->value_type != G_TYPE_UINT64 &&
                            pspec->value_type != G_TYPE_DOUBLE && pspec->value_type != G_TYPE_BOOLEAN))
        continue;
      g_test_message ("%s", keys[i]);
      matched++;
      g_dbus_gvariant_to_gvalue (fallback, &value);
      g_assert_true (G_VALUE_TYPE (&value) == pspec->value_type);
      g_assert_true (g_param_value_defaults (pspec, &value));

      g_variant_get (range, "(&sv)", &kind, &bounds);
      if (g_str_equal (kind, "range"))
        {
          g_autoptr(GVariant) low = g_variant_get_child_value (bounds, 0);
          g_autoptr(GVariant) high = g_variant_get_child_value (bounds, 1);
          g_auto(GValue) low_value = G_VALUE_INIT;
          g_auto(GValue) high_value = G_VALUE_INIT;

          g_dbus_gvariant_to_gvalue (low, &low_value);
          g_dbus_gvariant_to_gvalue (high, &high_value);
          g_assert_false (g_param_value_validate (pspec, &low_value));
          g_assert_false (g_param_value_validate (pspec, &high_value));
        }
    }
  /* the twelve kept inputs, the context, the sequences and the GPU count */
  g_assert_cmpuint (matched, ==, 15);
}

/* Entries that no longer exist fall back to the defaults, silently. */
static void
test_settings_fallback (void)
{
  g_autoptr(GSettings) settings = app_settings ();
  HrWindow *window;
  HrCalculator *calc;

  g_settings_set_string (settings, "model", "someone/deleted-model");
  g_settings_set_string (settings, "hardware", "toaster-9000");
  g_settings_set_string (settings, "precision", "q9_z");

  window = new_window ();
  calc = hr_window_get_calculator (window);
  g_assert_cmpstr (hr_model_spec_get_id (hr_calculator_get_model (calc)), ==,
                   "THUDM/GLM-4-9B-0414");
  g_assert_cmpstr (hr_hardware_get_id (hr_calculator_get_hardware (calc)), ==, "rtx-3060-12gb");
  g_assert_cmpstr (hr_precision_get_id (hr_calculator_get_precision (calc)), ==, "q4_k_m");
  g_assert_true (hr_calculator_get_valid (calc));
  /* no error dialog: the window is the only visible toplevel */
  g_assert_cmpuint (count_visible_toplevels (), ==, 1);

  gtk_window_destroy (GTK_WINDOW (window));
  reset_settings (settings);
}

/* Changing an input is remembered. */
static void
test_settings_saved (void)
{
  g_autoptr(GSettings) settings = app_settings ();
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  g_autofree char *model = NULL;

  hr_calculator_set_context (calc, 12345);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "google/gemma-3-27b-it"));
  hr_test_iterate ();
  g_assert_cmpuint (g_settings_get_uint64 (settings, "context"), ==, 12345);
  model = g_settings_get_string (settings, "model");
  g_assert_cmpstr (model, ==, "google/gemma-3-27b-it");

  gtk_window_destroy (GTK_WINDOW (window));
  reset_settings (settings);
}

/* ------------------------------------------------------ render cost */

/* Counts the border nodes under @node, and those whose four sides do not
 * share one colour. */
static void
count_borders (GskRenderNode *node,
               guint         *borders,
               guint         *mixed)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_BORDER_NODE:
      {
        const GdkRGBA *colors = gsk_border_node_get_colors (node);

        (*borders)++;
        for (guint side = 1; side < 4; side++)
          if (!gdk_rgba_equal (&colors[0], &colors[side]))
            {
              (*mixed)++;
              break;
            }
      }
      break;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        count_borders (gsk_container_node_get_child (node, i), borders, mixed);
      break;
    case GSK_TRANSFORM_NODE:
      count_borders (gsk_transform_node_get_child (node), borders, mixed);
      break;
    case GSK_CLIP_NODE:
      count_borders (gsk_clip_node_get_child (node), borders, mixed);
      break;
    case GSK_ROUNDED_CLIP_NODE:
      count_borders (gsk_rounded_clip_node_get_child (node), borders, mixed);
      break;
    case GSK_OPACITY_NODE:
      count_borders (gsk_opacity_node_get_child (node), borders, mixed);
      break;
    case GSK_COLOR_MATRIX_NODE:
      count_borders (gsk_color_matrix_node_get_child (node), borders, mixed);
      break;
    case GSK_SHADOW_NODE:
      count_borders (gsk_shadow_node_get_child (node), borders, mixed);
      break;
    case GSK_DEBUG_NODE:
      count_borders (gsk_debug_node_get_child (node), borders, mixed);
      break;
    default:
      break;
    }
}

/* Every border the window draws has one colour on its four sides.  GTK
 * 4.8's Cairo renderer fills a border whose sides differ in colour with a
 * mesh gradient over the whole box (9 M instructions for a sidebar row);
 * libadwaita's one-sided lines under boxed-list rows and left of column
 * view cells leave the unseen sides at the text colour, and style.css
 * gives them the line's colour.  Checked on every view (the first screen
 * and the three tables among them). */
static void
test_one_colour_borders (void)
{
  static const char * const views[] = {
    "overview", "matrix", "hardware", "model", "commands", "compare", "serving", "recommend",
  };
  HrWindow *window = new_window ();
  guint rows_seen = 0, mixed_seen = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_autoptr(GdkPaintable) paintable = NULL;
      g_autoptr(GskRenderNode) node = NULL;
      GtkSnapshot *snapshot;
      guint borders = 0, mixed = 0;

      hr_window_show_view (window, views[i]);
      hr_test_wait_for_frame (window);   /* mapped on the X server, the view drawn */
      paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, 1280, 800);
      node = gtk_snapshot_free_to_node (snapshot);
      g_assert_nonnull (node);
      count_borders (node, &borders, &mixed);
      if (g_test_verbose ())
        g_printerr ("%s: %u borders, %u of several colours\n", views[i], borders, mixed);
      rows_seen += borders;
      mixed_seen += mixed;
    }
  g_assert_cmpuint (mixed_seen, ==, 0);
  /* the lines under the sidebar's rows at least were drawn */
  g_assert_cmpuint (rows_seen, >=, G_N_ELEMENTS (views) * 5);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Every test starts from the defaults: windows save what their tests
 * set (the memory backend keeps it for the process). */
static void
run_from_defaults (gconstpointer test)
{
  g_autoptr(GSettings) settings = app_settings ();

  reset_settings (settings);
  ((GTestFunc) test) ();
}

#define add_test(path, func) \
  g_test_add_data_func ((path), (gconstpointer) (func), run_from_defaults)

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = NULL;
  int status;

  app = hr_test_app_init (&argc, &argv);

  add_test ("/window/overview-matches-cli", test_overview_matches_cli);
  add_test ("/window/overview-no-fit", test_overview_no_fit);
  add_test ("/window/export-equals-cli", test_export_equals_cli);
  add_test ("/window/commands-and-model", test_commands_and_model);
  add_test ("/window/import", test_import);
  add_test ("/window/engine-profiles", test_engine_profiles);
  add_test ("/window/later-groups", test_later_groups);
  add_test ("/window/gpu-layers-control", test_gpu_layers_control);
  add_test ("/window/prompt-presets", test_prompt_presets);
  add_test ("/window/whole-load-rows", test_whole_load_rows);
  add_test ("/window/impossible-fix", test_impossible_fix);
  add_test ("/window/import-local-own-type", test_import_local_own_type);
  add_test ("/window/no-estimate-views", test_no_estimate_views);
  add_test ("/window/gpus-subtitle", test_gpus_subtitle);
  add_test ("/window/unified-wording", test_unified_wording);
  add_test ("/window/serving-rule-text", test_serving_rule_text);
  add_test ("/window/settings-restored", test_settings_restored);
  add_test ("/window/settings-inputs-kept", test_settings_inputs_kept);
  add_test ("/window/settings-match-properties", test_settings_match_properties);
  add_test ("/window/settings-fallback", test_settings_fallback);
  add_test ("/window/settings-saved", test_settings_saved);
  add_test ("/window/one-colour-borders", test_one_colour_borders);

  status = g_test_run ();
  return status;
}
