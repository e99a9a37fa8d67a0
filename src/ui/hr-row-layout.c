/* hr-row-layout.c — action-row titles that lay out their text once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A horizontal GtkBox (GTK 4.8) allocates its children by asking each
 * for its width at the box's height.  An AdwActionRow's header is such a
 * box, and its title and subtitle sit in a vertical GtkBox, which passes
 * the question on to the labels: a wrapping label answers it by a binary
 * search over widths, one Pango layout (itemize, shape, break) per step.
 * Before the window's first frame that was 15 to 60 layouts per row
 * label, 400 of the 730 layouts of the whole window (tests/bench/
 * bench-ui with an LD_PRELOAD counter on pango_layout_get_size).
 *
 * A GtkGridLayout of one column places the same labels at the same
 * places: rows stacked in order, the CSS border-spacing between them,
 * the labels expanding to the box's width.  Asked for a width at a given
 * height, a grid of height-for-width children answers with their widths
 * for no height, so no label searches.  Pixel-identical to the box at
 * 1280×800 (English, Italian) and 360×720; in a narrow row the title no
 * longer claims the width a one-line subtitle would need, so the row's
 * value keeps its natural width (Italian at 360 px: "Automatico", not
 * "Automa…").  README, “Start and slider step, fourth pass”.
 */

#include "config.h"

#include <adwaita.h>

#include "hr-row-layout.h"

/* The vertical box of an action row's title and subtitle: the header's
 * child with the “title” style class, as libadwaita 1.2 builds it.  NULL
 * when a libadwaita builds the row otherwise: the row keeps its box. */
static GtkWidget *
find_title_box (GtkWidget *row)
{
  GtkWidget *header = gtk_widget_get_first_child (row);

  if (header == NULL || !gtk_widget_has_css_class (header, "header"))
    return NULL;

  for (GtkWidget *child = gtk_widget_get_first_child (header);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_has_css_class (child, "title") &&
        GTK_IS_BOX_LAYOUT (gtk_widget_get_layout_manager (child)) &&
        gtk_orientable_get_orientation (GTK_ORIENTABLE (child)) == GTK_ORIENTATION_VERTICAL)
      return child;
  return NULL;
}

/* The box's children in a one-column grid, in order; the spacing between
 * them is the title box's CSS border-spacing, which the grid reads too.
 * The children expand, so that the column fills the box as the box's
 * children do (the title box itself expands in the row). */
static void
lay_out_as_column (GtkWidget *box)
{
  GtkLayoutManager *grid = gtk_grid_layout_new ();
  int row = 0;

  gtk_widget_set_layout_manager (box, grid);
  for (GtkWidget *child = gtk_widget_get_first_child (box);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLayoutChild *cell = gtk_layout_manager_get_layout_child (grid, child);

      gtk_grid_layout_child_set_row (GTK_GRID_LAYOUT_CHILD (cell), row++);
      gtk_widget_set_hexpand (child, TRUE);
    }
}

/**
 * hr_row_layout_apply:
 * @root: a widget tree, built
 *
 * Lays out the title and subtitle of every #AdwActionRow under @root
 * (#AdwComboRow included) in a grid instead of a box.  Returns how many
 * rows changed; a row already changed is left alone.
 */
guint
hr_row_layout_apply (GtkWidget *root)
{
  guint changed = 0;

  g_return_val_if_fail (GTK_IS_WIDGET (root), 0);

  if (ADW_IS_ACTION_ROW (root))
    {
      GtkWidget *title_box = find_title_box (root);

      if (title_box != NULL)
        {
          lay_out_as_column (title_box);
          changed++;
        }
    }

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    changed += hr_row_layout_apply (child);
  return changed;
}
