/* test-row-layout.c — labels that do not search over widths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * hr_row_layout_apply() swaps the layout of an AdwActionRow's title box,
 * and HrStackLayout stacks the verdict's labels, so that no label
 * searches over widths; nothing may move.  Runs under xvfb-run with
 * GTK_A11Y=none and G_DEBUG=fatal-criticals.
 */

#include "config.h"

#include <adwaita.h>

#include "hr-caption-layout.h"
#include "hr-row-layout.h"
#include "hr-stack-layout.h"
#include "hr-test-app.h"
#include "hr-window.h"

/* Titles and subtitles as the sidebar has them: short, long, none. */
static const struct {
  const char *title;
  const char *subtitle;
  const char *suffix;
} rows[] = {
  { "Model", "9.4B · GQA · 32K context", "GLM-4-9B-0414" },
  { "Engine profile", "llama.cpp for GGUF files, vLLM for BF16 and safetensors checkpoints", "Automatic" },
  { "KV cache", NULL, "FP16" },
  { "Profilo del motore di inferenza", "Buffer di calcolo più piccolo; necessaria per una cache V quantizzata", "Automatico" },
};

static GtkWidget *
find_title_box (GtkWidget *row)
{
  GtkWidget *header = gtk_widget_get_first_child (row);

  for (GtkWidget *child = gtk_widget_get_first_child (header); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_has_css_class (child, "title"))
      return child;
  return NULL;
}

static GtkWidget *
new_list (void)
{
  GtkWidget *list = gtk_list_box_new ();

  gtk_widget_add_css_class (list, "boxed-list");
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *suffix = gtk_label_new (rows[i].suffix);

      /* as an AdwComboRow's value: ellipsized when squeezed */
      gtk_label_set_ellipsize (GTK_LABEL (suffix), PANGO_ELLIPSIZE_END);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), rows[i].title);
      if (rows[i].subtitle != NULL)
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), rows[i].subtitle);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), suffix);
      gtk_list_box_append (GTK_LIST_BOX (list), row);
    }
  return list;
}

static guint
count_rows (GtkWidget *widget,
            gboolean   in_grid)
{
  guint n = 0;

  if (ADW_IS_ACTION_ROW (widget))
    {
      GtkWidget *title_box = find_title_box (widget);

      g_assert_nonnull (title_box);
      if (GTK_IS_GRID_LAYOUT (gtk_widget_get_layout_manager (title_box)) == in_grid)
        n++;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_rows (child, in_grid);
  return n;
}

/* Every row the window builds at start is laid out by a grid, once. */
static void
test_window_rows (void)
{
  AdwApplication *app = g_object_get_data (G_OBJECT (g_application_get_default ()), "app");
  HrWindow *window = hr_window_new (GTK_APPLICATION (app));

  g_assert_cmpuint (count_rows (GTK_WIDGET (window), TRUE), >=, 10);
  g_assert_cmpuint (count_rows (GTK_WIDGET (window), FALSE), ==, 0);
  /* applied again, nothing changes */
  g_assert_cmpuint (hr_row_layout_apply (GTK_WIDGET (window)), ==, 0);
  /* a view built later gets it too */
  hr_window_get_view (window, "hardware");
  g_assert_cmpuint (count_rows (GTK_WIDGET (window), FALSE), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
assert_same_bounds (GtkWidget *a,
                    GtkWidget *a_root,
                    GtkWidget *b,
                    GtkWidget *b_root)
{
  graphene_rect_t ra, rb;

  g_assert_true (gtk_widget_compute_bounds (a, a_root, &ra));
  g_assert_true (gtk_widget_compute_bounds (b, b_root, &rb));
  g_assert_cmpfloat (ra.origin.x, ==, rb.origin.x);
  g_assert_cmpfloat (ra.origin.y, ==, rb.origin.y);
  g_assert_cmpfloat (ra.size.width, ==, rb.size.width);
  g_assert_cmpfloat (ra.size.height, ==, rb.size.height);
}

/* Side by side, a list as libadwaita lays it out and the same list laid
 * out by hr_row_layout_apply(): wide, every title, subtitle and suffix is
 * at the same place and size.  Narrow, the grid gives the suffix its
 * whole width first (the box let a long subtitle squeeze it). */
static void
test_same_places (void)
{
  const int widths[] = { 1200, 480 };

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      GtkWidget *window = gtk_window_new ();
      GtkWidget *pair = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
      GtkWidget *plain = new_list ();
      GtkWidget *grid = new_list ();
      GtkWidget *row_a, *row_b;

      gtk_box_set_homogeneous (GTK_BOX (pair), TRUE);
      gtk_widget_set_valign (plain, GTK_ALIGN_START);
      gtk_widget_set_valign (grid, GTK_ALIGN_START);
      gtk_box_append (GTK_BOX (pair), plain);
      gtk_box_append (GTK_BOX (pair), grid);
      gtk_window_set_child (GTK_WINDOW (window), pair);
      g_assert_cmpuint (hr_row_layout_apply (grid), ==, G_N_ELEMENTS (rows));
      gtk_window_set_default_size (GTK_WINDOW (window), widths[w], 600);
      gtk_window_present (GTK_WINDOW (window));
      for (guint i = 0; i < 200 && gtk_widget_get_width (grid) == 0; i++)
        hr_test_iterate ();
      g_assert_cmpint (gtk_widget_get_width (grid), >, 0);

      row_a = gtk_widget_get_first_child (plain);
      row_b = gtk_widget_get_first_child (grid);
      for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
        {
          GtkWidget *box_a = find_title_box (row_a), *box_b = find_title_box (row_b);
          GtkWidget *suffixes_b = gtk_widget_get_next_sibling (box_b);
          GtkWidget *suffix_b = gtk_widget_get_first_child (suffixes_b);
          int natural;

          g_test_message ("%d px, row %u", widths[w], i);
          if (widths[w] >= 1000)
            {
              assert_same_bounds (row_a, plain, row_b, grid);
              for (GtkWidget *a = gtk_widget_get_first_child (box_a),
                             *b = gtk_widget_get_first_child (box_b);
                   a != NULL && b != NULL;
                   a = gtk_widget_get_next_sibling (a), b = gtk_widget_get_next_sibling (b))
                if (gtk_widget_get_visible (a))
                  assert_same_bounds (a, plain, b, grid);
              assert_same_bounds (gtk_widget_get_next_sibling (box_a), plain,
                                  suffixes_b, grid);
            }
          gtk_widget_measure (suffix_b, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
          g_assert_cmpint (gtk_widget_get_width (suffix_b), >=, natural);
          row_a = gtk_widget_get_next_sibling (row_a);
          row_b = gtk_widget_get_next_sibling (row_b);
        }
      gtk_window_destroy (GTK_WINDOW (window));
    }
}

static GtkWidget *
new_verdict (gboolean    stacked,
             GtkWidget **text)
{
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *title = gtk_label_new ("Fits comfortably on RTX 3060 12GB");
  GtkWidget *subtitle = gtk_label_new ("7.41 GiB of 11.81 GiB usable per device, 4.40 GiB free");

  *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_valign (*text, GTK_ALIGN_CENTER);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "title-3");
  gtk_label_set_wrap (GTK_LABEL (subtitle), TRUE);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_box_append (GTK_BOX (*text), title);
  gtk_box_append (GTK_BOX (*text), subtitle);
  if (stacked)
    gtk_widget_set_layout_manager (*text, hr_stack_layout_new (2));
  gtk_box_append (GTK_BOX (outer), gtk_image_new_from_icon_name ("emblem-ok-symbolic"));
  gtk_box_append (GTK_BOX (outer), *text);
  gtk_widget_set_valign (outer, GTK_ALIGN_START);
  return outer;
}

/* The verdict's title and subtitle stacked by HrStackLayout sit where a
 * vertical box puts them, and the stack's width at a height is its width
 * for no height (the box's labels search for one that fits the height). */
static void
test_stack (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *pair = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *box_text, *stack_text;
  GtkWidget *plain = new_verdict (FALSE, &box_text);
  GtkWidget *stacked = new_verdict (TRUE, &stack_text);
  int min_free, nat_free, min_low, nat_low, box_min_low;

  gtk_box_append (GTK_BOX (pair), plain);
  gtk_box_append (GTK_BOX (pair), stacked);
  gtk_window_set_child (GTK_WINDOW (window), pair);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 400);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < 200 && gtk_widget_get_width (stacked) == 0; i++)
    hr_test_iterate ();

  assert_same_bounds (plain, plain, stacked, stacked);
  for (GtkWidget *a = gtk_widget_get_first_child (box_text),
                 *b = gtk_widget_get_first_child (stack_text);
       a != NULL && b != NULL;
       a = gtk_widget_get_next_sibling (a), b = gtk_widget_get_next_sibling (b))
    assert_same_bounds (a, plain, b, stacked);

  gtk_widget_measure (stack_text, GTK_ORIENTATION_HORIZONTAL, -1, &min_free, &nat_free, NULL, NULL);
  gtk_widget_measure (stack_text, GTK_ORIENTATION_HORIZONTAL, 40, &min_low, &nat_low, NULL, NULL);
  g_assert_cmpint (min_low, ==, min_free);
  g_assert_cmpint (nat_low, ==, nat_free);
  /* the box, asked the same, searched: a 40 px height needs a wider minimum */
  gtk_widget_measure (box_text, GTK_ORIENTATION_HORIZONTAL, 40, &box_min_low, NULL, NULL, NULL);
  g_assert_cmpint (box_min_low, >, min_free);
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkWidget *
new_caption_box (GtkWidget **caption,
                 GtkWidget **button)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  *caption = gtk_label_new ("GLM-4-9B-0414 at Q4_K_M with 32,768 tokens of context, on each "
                            "device. Double-click a device to use it. Prompt and decode speeds "
                            "in tokens per second.");
  gtk_widget_set_hexpand (*caption, TRUE);
  gtk_label_set_xalign (GTK_LABEL (*caption), 0);
  gtk_label_set_wrap (GTK_LABEL (*caption), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (*caption), PANGO_WRAP_WORD_CHAR);
  *button = gtk_button_new_with_mnemonic ("_Export as CSV…");
  gtk_widget_set_valign (*button, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), *caption);
  gtk_box_append (GTK_BOX (box), *button);
  gtk_widget_set_valign (box, GTK_ALIGN_START);
  return box;
}

/* The table views' caption and Export button: where the caption keeps
 * room beside the button, exactly where a horizontal box puts them; on a
 * phone the button below, at the caption's start (its end right to
 * left), the caption the whole width. */
static void
test_caption (void)
{
  const int widths[] = { 866, 330 };

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (guint rtl = 0; rtl < 2; rtl++)
      {
        GtkWidget *window = gtk_window_new ();
        GtkWidget *column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
        GtkWidget *plain_caption, *plain_button, *caption, *button;
        GtkWidget *plain = new_caption_box (&plain_caption, &plain_button);
        GtkWidget *laid = new_caption_box (&caption, &button);
        graphene_rect_t c, b;

        hr_caption_layout_apply (caption);
        g_assert_true (HR_IS_CAPTION_LAYOUT (gtk_widget_get_layout_manager (laid)));
        gtk_box_append (GTK_BOX (column), plain);
        gtk_box_append (GTK_BOX (column), laid);
        gtk_widget_set_direction (plain, rtl ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR);
        gtk_widget_set_direction (laid, rtl ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR);
        gtk_window_set_child (GTK_WINDOW (window), column);
        gtk_window_set_default_size (GTK_WINDOW (window), widths[w], 400);
        gtk_window_present (GTK_WINDOW (window));
        for (guint i = 0; i < 200 && gtk_widget_get_width (laid) == 0; i++)
          hr_test_iterate ();
        g_test_message ("%d px, %s", widths[w], rtl ? "right to left" : "left to right");
        g_assert_cmpint (gtk_widget_get_width (laid), ==, widths[w]);

        g_assert_true (gtk_widget_compute_bounds (caption, laid, &c));
        g_assert_true (gtk_widget_compute_bounds (button, laid, &b));
        if (widths[w] > 600)
          {
            assert_same_bounds (plain, plain, laid, laid);
            assert_same_bounds (plain_caption, plain, caption, laid);
            assert_same_bounds (plain_button, plain, button, laid);
          }
        else
          {
            g_assert_cmpfloat (c.size.width, ==, widths[w]);
            g_assert_cmpfloat (b.origin.y, >=, c.origin.y + c.size.height + 12);
            g_assert_cmpfloat (rtl ? b.origin.x + b.size.width : b.origin.x, ==,
                               rtl ? widths[w] : 0);
            /* the box had squeezed the caption beside the button */
            g_assert_true (gtk_widget_compute_bounds (plain_caption, plain, &c));
            g_assert_cmpfloat (c.size.width, <, widths[w] / 2);
          }
        gtk_window_destroy (GTK_WINDOW (window));
      }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = hr_test_app_init (&argc, &argv);

  g_test_add_func ("/row-layout/window-rows", test_window_rows);
  g_test_add_func ("/row-layout/same-places", test_same_places);
  g_test_add_func ("/row-layout/stack", test_stack);
  g_test_add_func ("/row-layout/caption", test_caption);
  return g_test_run ();
}
