/* test-commands-view.c — the Commands view and its cards
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A card shows every program line of a command as its own block whose
 * text the shell parses and whose copy button puts exactly that text on
 * the clipboard; a command over several machines gets a heading per
 * machine; the words to replace are listed and flagged; a refused
 * combination shows the reason and a button whose fix the calculator
 * takes, after which the command is there.  Run under xvfb-run with
 * GTK_A11Y=none GSETTINGS_BACKEND=memory G_DEBUG=fatal-criticals.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "hr-test-app.h"
#include "hr-catalog.h"
#include "hr-command-card.h"
#include "hr-commands-view.h"
#include "hr-view.h"

static HrCatalog *catalog;

/* ------------------------------------------------------------- helpers */

/* The widgets under @root (depth first) that are @type. */
static void
collect (GtkWidget *root,
         GType      type,
         GPtrArray *out)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    g_ptr_array_add (out, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, type, out);
}

static guint
count_labels (GtkWidget  *root,
              const char *css_class,
              const char *containing)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  guint n = 0;

  collect (root, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (labels, i);

      if ((css_class == NULL || gtk_widget_has_css_class (label, css_class)) &&
          strstr (gtk_label_get_text (GTK_LABEL (label)), containing) != NULL)
        n++;
    }
  return n;
}

/* The copy buttons of the blocks, in order. */
static GPtrArray *
copy_buttons (GtkWidget *card)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  GPtrArray *out = g_ptr_array_new ();

  collect (card, GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (gtk_widget_has_css_class (g_ptr_array_index (buttons, i), "command-copy"))
      g_ptr_array_add (out, g_ptr_array_index (buttons, i));
  return out;
}

static void
read_text_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  char **text = data;
  g_autoptr(GError) error = NULL;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, &error);
  g_assert_no_error (error);
}

static gboolean
is_set (gpointer text)
{
  return *(char **) text != NULL;
}

static char *
clipboard_text (GtkWidget *widget)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, read_text_cb, &text);
  hr_test_wait_until (is_set, &text, "the clipboard's text");
  return text;
}

/* /bin/sh -n: the text parses as a shell script. */
static void
assert_parses (const char *text)
{
  g_autofree char *dir = g_dir_make_tmp ("test-commands-view-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "block.sh", NULL);
  const char *argv[] = { "/bin/sh", "-n", path, NULL };
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_unlink (path);
  g_rmdir (dir);
}

/* ------------------------------------------------------------- tests */

/* vLLM over two machines: the Ray head, the worker, the server — three
 * blocks under headings, each copied as it is shown. */
static void
test_card_machines (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-70B-Instruct"),
    .precision = hr_catalog_find_precision (catalog, "bf16"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb"),
    .context = 8192, .batch = 1, .gpus = 8, .layout = { 4, 2, 1, 2 },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(HrCommand) command = hr_command_build (HR_COMMAND_VLLM, &s, &error);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *card = hr_command_card_new ();
  g_autoptr(GPtrArray) buttons = NULL;

  g_assert_no_error (error);
  gtk_window_set_child (GTK_WINDOW (window), card);
  hr_command_card_set_command (HR_COMMAND_CARD (card), command);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_wait_for_frame (window);

  g_assert_false (hr_command_card_get_refused (HR_COMMAND_CARD (card)));
  g_assert_cmpuint (hr_command_card_get_n_blocks (HR_COMMAND_CARD (card)), ==, 3);
  g_assert_true (g_str_has_prefix (hr_command_card_get_block (HR_COMMAND_CARD (card), 0),
                                   "ray start --head"));
  g_assert_false (g_str_has_suffix (hr_command_card_get_block (HR_COMMAND_CARD (card), 0), "\n"));
  g_assert_true (g_str_has_prefix (hr_command_card_get_block (HR_COMMAND_CARD (card), 1),
                                   "ray start --address '<head-address>:"));
  g_assert_nonnull (strstr (hr_command_card_get_block (HR_COMMAND_CARD (card), 2),
                            "--distributed-executor-backend ray"));
  /* a heading per machine part, the placeholder said first */
  g_assert_cmpuint (count_labels (card, "heading", "Machine 1 of 2"), ==, 2);
  g_assert_cmpuint (count_labels (card, "heading", "Machine 2 of 2"), ==, 1);
  g_assert_cmpuint (count_labels (card, NULL, "Replace <head-address> with"), ==, 1);

  buttons = copy_buttons (card);
  g_assert_cmpuint (buttons->len, ==, 3);
  for (guint i = 0; i < buttons->len; i++)
    {
      g_autofree char *copied = NULL;

      /* as the keyboard does: the button clicks once it has shown itself pressed */
      gtk_widget_activate (g_ptr_array_index (buttons, i));
      hr_test_wait_for_signal (g_ptr_array_index (buttons, i), "clicked");
      copied = clipboard_text (card);
      g_assert_cmpstr (copied, ==, hr_command_card_get_block (HR_COMMAND_CARD (card), i));
      assert_parses (copied);
    }
  /* the whole text as the CLI prints it */
  g_assert_true (g_str_has_prefix (hr_command_card_get_text (HR_COMMAND_CARD (card)),
                                   "# Replace <head-address> with"));
  assert_parses (hr_command_card_get_text (HR_COMMAND_CARD (card)));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A file block comes under its file name. */
static void
test_card_file (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "Qwen/Qwen3-32B"),
    .precision = hr_catalog_find_precision (catalog, "q8_0"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb"),
    .context = 8192, .batch = 1, .gpus = 1,
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(HrCommand) command = hr_command_build (HR_COMMAND_OLLAMA, &s, &error);
  GtkWidget *card = g_object_ref_sink (hr_command_card_new ());

  g_assert_no_error (error);
  hr_command_card_set_command (HR_COMMAND_CARD (card), command);
  g_assert_cmpuint (count_labels (card, "caption-heading", "Modelfile"), ==, 1);
  g_assert_true (g_str_has_prefix (hr_command_card_get_block (HR_COMMAND_CARD (card), 0),
                                   "cat > Modelfile <<'EOF'\nFROM qwen3:32b-q8_0\n"));
  assert_parses (hr_command_card_get_block (HR_COMMAND_CARD (card), 0));
  g_object_unref (card);
}


/* A slider step changes a number in the blocks: the card updates them in
 * place (the same block widgets, the focus where it was), and the text,
 * the copy and the whole command follow. */
static void
test_card_in_place (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "Qwen/Qwen3-32B"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb"),
    .context = 8192, .batch = 1, .gpus = 1,
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(HrCommand) first = hr_command_build (HR_COMMAND_LLAMACPP, &s, &error);
  g_autoptr(HrCommand) second = NULL;
  g_autoptr(HrCommand) refused = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *card = hr_command_card_new ();
  g_autoptr(GPtrArray) before = NULL;
  g_autoptr(GPtrArray) after = NULL;
  g_autofree char *copied = NULL;

  g_assert_no_error (error);
  gtk_window_set_child (GTK_WINDOW (window), card);
  hr_command_card_set_command (HR_COMMAND_CARD (card), first);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_wait_for_frame (window);
  before = copy_buttons (card);
  g_assert_cmpuint (before->len, >=, 1);
  g_assert_true (gtk_widget_grab_focus (g_ptr_array_index (before, 0)));
  g_assert_nonnull (strstr (hr_command_card_get_block (HR_COMMAND_CARD (card), 0), " 8192"));

  s.context = 16384;
  second = hr_command_build (HR_COMMAND_LLAMACPP, &s, &error);
  g_assert_no_error (error);
  hr_command_card_set_command (HR_COMMAND_CARD (card), second);
  after = copy_buttons (card);
  g_assert_cmpuint (after->len, ==, before->len);
  for (guint i = 0; i < after->len; i++)
    g_assert_true (g_ptr_array_index (after, i) == g_ptr_array_index (before, i));
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == g_ptr_array_index (after, 0));
  g_assert_nonnull (strstr (hr_command_card_get_block (HR_COMMAND_CARD (card), 0), " 16384"));
  g_assert_null (strstr (hr_command_card_get_block (HR_COMMAND_CARD (card), 0), " 8192"));
  g_assert_cmpuint (count_labels (card, "command-text", " 16384"), ==, 1);
  g_assert_cmpuint (count_labels (card, "command-text", " 8192"), ==, 0);
  {
    g_autofree char *whole = hr_command_to_shell (second);

    g_assert_cmpstr (hr_command_card_get_text (HR_COMMAND_CARD (card)), ==, whole);
  }
  gtk_widget_activate (g_ptr_array_index (after, 0));
  hr_test_wait_for_signal (g_ptr_array_index (after, 0), "clicked");
  copied = clipboard_text (card);
  g_assert_cmpstr (copied, ==, hr_command_card_get_block (HR_COMMAND_CARD (card), 0));

  /* another layout (two GPUs) builds the blocks again */
  s.gpus = 2;
  refused = hr_command_build (HR_COMMAND_VLLM, &s, &error);
  g_clear_error (&error);
  if (refused != NULL)
    {
      g_autoptr(GPtrArray) rebuilt = NULL;

      hr_command_card_set_command (HR_COMMAND_CARD (card), refused);
      rebuilt = copy_buttons (card);
      g_assert_cmpuint (rebuilt->len, >=, 1);
      g_assert_true (g_ptr_array_index (rebuilt, 0) != g_ptr_array_index (before, 0));
      g_assert_true (g_str_has_prefix (hr_command_card_get_block (HR_COMMAND_CARD (card), 0),
                                       "vllm serve"));
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkWidget *
fix_button (GtkWidget *card)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  collect (card, GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (gtk_widget_has_css_class (g_ptr_array_index (buttons, i), "suggested-action"))
      return g_ptr_array_index (buttons, i);
  return NULL;
}

/* The header's copy button of @card's group. */
static GtkWidget *
copy_button (HrCommandCard *card)
{
  GtkWidget *group = gtk_widget_get_ancestor (GTK_WIDGET (card), ADW_TYPE_PREFERENCES_GROUP);

  g_assert_nonnull (group);
  return adw_preferences_group_get_header_suffix (ADW_PREFERENCES_GROUP (group));
}

/* Refused: the reason and the fix, which the calculator takes. */
static void
test_view_fixes (void)
{
  g_autoptr(HrCalculator) calculator = hr_calculator_new (catalog);
  GtkWidget *window = gtk_window_new ();
  HrCommandsView *view = g_object_new (HR_TYPE_COMMANDS_VIEW, NULL);
  HrCommandCard *vllm, *sglang;
  GtkWidget *button;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  hr_calculator_freeze (calculator);
  hr_calculator_set_model (calculator, hr_catalog_find_model (catalog, "Qwen/Qwen3-32B"));
  hr_calculator_set_precision (calculator, hr_catalog_find_precision (catalog, "bf16"));
  hr_calculator_set_hardware (calculator, hr_catalog_find_hardware (catalog, "h100-sxm-80gb"));
  hr_calculator_set_context (calculator, 8192);
  hr_calculator_set_gpu_count (calculator, 3);
  hr_calculator_thaw (calculator);
  hr_view_set_calculator (HR_VIEW (view), calculator);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_wait_for_frame (window);

  vllm = hr_commands_view_get_card (view, "vllm");
  sglang = hr_commands_view_get_card (view, "sglang");
  /* three GPUs do not divide 64 heads: refused, with a GPU count */
  g_assert_true (hr_command_card_get_refused (vllm));
  g_assert_nonnull (strstr (hr_commands_view_get_text (view, "vllm"), "divide"));
  g_assert_cmpuint (count_labels (GTK_WIDGET (vllm), "heading", "vLLM cannot run this"), ==, 1);
  /* nothing to copy: the header's button is insensitive and says why,
   * and its action copies nothing (issue 30 item 8) */
  button = copy_button (vllm);
  g_assert_false (gtk_widget_get_sensitive (button));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (button), "Nothing to copy"));
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (view)), "untouched");
  gtk_widget_activate_action (GTK_WIDGET (view), "commands.copy", "s", "vllm");
  {
    g_autofree char *copied = clipboard_text (GTK_WIDGET (view));

    g_assert_cmpstr (copied, ==, "untouched");
  }
  button = fix_button (GTK_WIDGET (vllm));
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_grab_focus (button));
  gtk_widget_activate (button);
  hr_test_wait_for_signal (button, "clicked");
  hr_test_wait_idle ();   /* the fix applies when idle */
  g_assert_cmpuint (hr_calculator_get_gpu_count (calculator), !=, 3);
  /* the keyboard focus moves from the fix to the new command's copy button */
  {
    GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

    g_assert_nonnull (focus);
    g_assert_true (gtk_widget_has_css_class (focus, "command-copy"));
    g_assert_true (gtk_widget_is_ancestor (focus, GTK_WIDGET (vllm)));
  }
  g_assert_false (hr_command_card_get_refused (vllm));
  g_assert_true (gtk_widget_get_sensitive (copy_button (vllm)));
  g_assert_nonnull (strstr (hr_commands_view_get_text (view, "vllm"),
                            "--tensor-parallel-size"));

  /* a Q8_0 cache: SGLang has none; the fix is an FP16 cache */
  hr_calculator_set_kv_type (calculator, hr_catalog_find_kv_type (catalog, "q8_0"));
  hr_test_wait_idle ();
  g_assert_true (hr_command_card_get_refused (sglang));
  button = fix_button (GTK_WIDGET (sglang));
  g_assert_nonnull (button);
  gtk_widget_activate (button);
  hr_test_wait_for_signal (button, "clicked");
  hr_test_wait_idle ();
  g_assert_cmpstr (hr_kv_type_get_id (hr_calculator_get_kv_type (calculator)), ==, "fp16");
  g_assert_false (hr_command_card_get_refused (sglang));
  g_assert_true (g_str_has_prefix (hr_command_card_get_block (sglang, 0),
                                   "python3 -m sglang.launch_server"));

  /* the header's button copies an engine's whole text */
  gtk_widget_activate_action (GTK_WIDGET (view), "commands.copy", "s", "sglang");
  {
    g_autofree char *copied = clipboard_text (GTK_WIDGET (view));

    g_assert_cmpstr (copied, ==, hr_commands_view_get_text (view, "sglang"));
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---------------------------------------------------------------- main */

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  app = hr_test_app_init (&argc, &argv);

  catalog = hr_catalog_new ();
  hr_catalog_load_builtin (catalog, &error);
  g_assert_no_error (error);

  g_test_add_func ("/commands-view/card-machines", test_card_machines);
  g_test_add_func ("/commands-view/card-file", test_card_file);
  g_test_add_func ("/commands-view/card-in-place", test_card_in_place);
  g_test_add_func ("/commands-view/fixes", test_view_fixes);

  status = g_test_run ();
  g_object_unref (catalog);
  return status;
}
