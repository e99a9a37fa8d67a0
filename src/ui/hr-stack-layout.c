/* hr-stack-layout.c — children stacked top to bottom, widths for no height
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a vertical GtkBox does for children that do not expand, except
 * when asked for its width at a given height: GTK 4.8's box then shares
 * the height out and asks each wrapping label for its width at its
 * share, which the label answers by a binary search over widths, one
 * Pango layout per step (38 layouts for the verdict's subtitle at each
 * slider step).  A stack of height-for-width children answers with their
 * widths for no height, as GtkGridLayout does; unlike a grid it keeps
 * the box's exact height (a two-row grid measured 6 px taller than its
 * rows in a horizontal box).
 */

#include "config.h"

#include "hr-stack-layout.h"

struct _HrStackLayout
{
  GtkLayoutManager parent_instance;

  int spacing;
};

G_DEFINE_FINAL_TYPE (HrStackLayout, hr_stack_layout, GTK_TYPE_LAYOUT_MANAGER)

static GtkSizeRequestMode
hr_stack_layout_get_request_mode (GtkLayoutManager *manager,
                                  GtkWidget        *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
hr_stack_layout_measure (GtkLayoutManager *manager,
                         GtkWidget        *widget,
                         GtkOrientation    orientation,
                         int               for_size,
                         int              *minimum,
                         int              *natural,
                         int              *minimum_baseline,
                         int              *natural_baseline)
{
  HrStackLayout *self = HR_STACK_LAYOUT (manager);
  int n_visible = 0;

  *minimum = *natural = 0;
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_min, child_nat;

      if (!gtk_widget_should_layout (child))
        continue;
      n_visible++;
      if (orientation == GTK_ORIENTATION_HORIZONTAL)
        {
          /* the width for no height: what a wrapping label needs */
          gtk_widget_measure (child, orientation, -1, &child_min, &child_nat, NULL, NULL);
          *minimum = MAX (*minimum, child_min);
          *natural = MAX (*natural, child_nat);
        }
      else
        {
          gtk_widget_measure (child, orientation, for_size, &child_min, &child_nat, NULL, NULL);
          *minimum += child_min;
          *natural += child_nat;
        }
    }
  if (orientation == GTK_ORIENTATION_VERTICAL && n_visible > 1)
    {
      *minimum += self->spacing * (n_visible - 1);
      *natural += self->spacing * (n_visible - 1);
    }
  *minimum_baseline = *natural_baseline = -1;
}

static void
hr_stack_layout_allocate (GtkLayoutManager *manager,
                          GtkWidget        *widget,
                          int               width,
                          int               height,
                          int               baseline)
{
  HrStackLayout *self = HR_STACK_LAYOUT (manager);
  int y = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_height;

      if (!gtk_widget_should_layout (child))
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, width, NULL, &child_height, NULL, NULL);
      gtk_widget_allocate (child, width, child_height, -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (0, y)));
      y += child_height + self->spacing;
    }
}

static void
hr_stack_layout_class_init (HrStackLayoutClass *klass)
{
  GtkLayoutManagerClass *manager_class = GTK_LAYOUT_MANAGER_CLASS (klass);

  manager_class->get_request_mode = hr_stack_layout_get_request_mode;
  manager_class->measure = hr_stack_layout_measure;
  manager_class->allocate = hr_stack_layout_allocate;
}

static void
hr_stack_layout_init (HrStackLayout *self)
{
}

/**
 * hr_stack_layout_new:
 * @spacing: pixels between two children
 */
GtkLayoutManager *
hr_stack_layout_new (int spacing)
{
  HrStackLayout *self = g_object_new (HR_TYPE_STACK_LAYOUT, NULL);

  self->spacing = spacing;
  return GTK_LAYOUT_MANAGER (self);
}
