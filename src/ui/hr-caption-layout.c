/* hr-caption-layout.c — a caption with a button beside it, or below it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table views' caption (a sentence or two) and their Export button:
 * side by side as a horizontal GtkBox puts them (the caption takes the
 * width the button leaves), while that leaves the caption at least
 * MIN_CAPTION_WIDTH; narrower (a phone), the button goes below the
 * caption, at its start, and the caption takes the whole width (beside
 * the button at 360 px it wrapped into seven lines of 140 px).
 *
 * Side by side, a GtkBoxLayout lays them out, so that they sit exactly
 * where the horizontal box put them (it aligns the two by their text's
 * baselines, which makes the row a few pixels taller than either).  The
 * widget's first child is the caption, its last the button.
 */

#include "config.h"

#include "hr-caption-layout.h"

/* About 30 characters of body text: less reads as a column of words. */
#define MIN_CAPTION_WIDTH 240

struct _HrCaptionLayout
{
  GtkLayoutManager parent_instance;

  GtkLayoutManager *beside;   /* a horizontal GtkBoxLayout, not attached;
                               * its spacing is the layout's */
};

G_DEFINE_FINAL_TYPE (HrCaptionLayout, hr_caption_layout, GTK_TYPE_LAYOUT_MANAGER)

static int
spacing_of (HrCaptionLayout *self)
{
  return (int) gtk_box_layout_get_spacing (GTK_BOX_LAYOUT (self->beside));
}

/* Whether, at @width, the button goes beside the caption; its width. */
static gboolean
fits_beside (HrCaptionLayout *self,
             GtkWidget       *button,
             int              width,
             int             *button_width)
{
  gtk_widget_measure (button, GTK_ORIENTATION_HORIZONTAL, -1, NULL, button_width, NULL, NULL);
  return width - spacing_of (self) - *button_width >= MIN_CAPTION_WIDTH;
}

static GtkSizeRequestMode
hr_caption_layout_get_request_mode (GtkLayoutManager *manager,
                                    GtkWidget        *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
hr_caption_layout_measure (GtkLayoutManager *manager,
                           GtkWidget        *widget,
                           GtkOrientation    orientation,
                           int               for_size,
                           int              *minimum,
                           int              *natural,
                           int              *minimum_baseline,
                           int              *natural_baseline)
{
  HrCaptionLayout *self = HR_CAPTION_LAYOUT (manager);
  GtkWidget *caption = gtk_widget_get_first_child (widget);
  GtkWidget *button = gtk_widget_get_last_child (widget);
  int caption_min, caption_nat, button_min, button_nat, button_width;

  *minimum = *natural = 0;
  if (caption == NULL || button == NULL || caption == button)
    return;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* as narrow as the wider of the two, one above the other */
      gtk_widget_measure (caption, orientation, -1, &caption_min, &caption_nat, NULL, NULL);
      gtk_widget_measure (button, orientation, -1, &button_min, &button_nat, NULL, NULL);
      *minimum = MAX (caption_min, button_min);
      *natural = caption_nat + spacing_of (self) + button_nat;
      return;
    }

  if (for_size < 0)
    gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &for_size, NULL, NULL);
  if (fits_beside (self, button, for_size, &button_width))
    {
      gtk_layout_manager_measure (self->beside, widget, orientation, for_size,
                                  minimum, natural, minimum_baseline, natural_baseline);
      return;
    }
  gtk_widget_measure (caption, orientation, for_size, &caption_min, &caption_nat, NULL, NULL);
  gtk_widget_measure (button, orientation, button_width, &button_min, &button_nat, NULL, NULL);
  *minimum = caption_min + spacing_of (self) + button_min;
  *natural = caption_nat + spacing_of (self) + button_nat;
}

static void
hr_caption_layout_allocate (GtkLayoutManager *manager,
                            GtkWidget        *widget,
                            int               width,
                            int               height,
                            int               baseline)
{
  HrCaptionLayout *self = HR_CAPTION_LAYOUT (manager);
  GtkWidget *caption = gtk_widget_get_first_child (widget);
  GtkWidget *button = gtk_widget_get_last_child (widget);
  gboolean rtl = gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL;
  int caption_height, button_height, button_width, button_x;

  if (caption == NULL || button == NULL || caption == button)
    return;

  if (fits_beside (self, button, width, &button_width))
    {
      gtk_layout_manager_allocate (self->beside, widget, width, height, baseline);
      return;
    }

  gtk_widget_measure (caption, GTK_ORIENTATION_VERTICAL, width, &caption_height, NULL, NULL, NULL);
  gtk_widget_measure (button, GTK_ORIENTATION_VERTICAL, button_width, &button_height, NULL, NULL, NULL);
  button_x = rtl ? width - button_width : 0;
  gtk_widget_size_allocate (caption, &(GtkAllocation) { 0, 0, width, caption_height }, -1);
  gtk_widget_size_allocate (button,
                            &(GtkAllocation) { button_x, caption_height + spacing_of (self),
                                               button_width, button_height }, -1);
}

static void
hr_caption_layout_finalize (GObject *object)
{
  g_clear_object (&HR_CAPTION_LAYOUT (object)->beside);
  G_OBJECT_CLASS (hr_caption_layout_parent_class)->finalize (object);
}

static void
hr_caption_layout_class_init (HrCaptionLayoutClass *klass)
{
  GtkLayoutManagerClass *manager_class = GTK_LAYOUT_MANAGER_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = hr_caption_layout_finalize;
  manager_class->get_request_mode = hr_caption_layout_get_request_mode;
  manager_class->measure = hr_caption_layout_measure;
  manager_class->allocate = hr_caption_layout_allocate;
}

static void
hr_caption_layout_init (HrCaptionLayout *self)
{
}

GtkLayoutManager *
hr_caption_layout_new (int spacing)
{
  HrCaptionLayout *self = g_object_new (HR_TYPE_CAPTION_LAYOUT, NULL);

  self->beside = gtk_box_layout_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (self->beside), spacing);
  return GTK_LAYOUT_MANAGER (self);
}

/**
 * hr_caption_layout_apply:
 * @caption: the caption, first child of a horizontal #GtkBox whose last
 *   child is the button
 *
 * Lays out @caption's box as #HrCaptionLayout does, with the box's spacing.
 */
void
hr_caption_layout_apply (GtkWidget *caption)
{
  GtkWidget *box = gtk_widget_get_parent (caption);

  g_return_if_fail (GTK_IS_BOX (box));
  g_return_if_fail (gtk_widget_get_first_child (box) == caption);

  gtk_widget_set_layout_manager (box, hr_caption_layout_new (gtk_box_get_spacing (GTK_BOX (box))));
}
