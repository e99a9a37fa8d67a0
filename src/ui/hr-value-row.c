/* hr-value-row.c — a preferences row showing a title and a selectable value
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * AdwActionRow's subtitle cannot be selected in libadwaita 1.2, and the
 * architecture card and formula notes are meant to be copied.
 */

#include "config.h"

#include "hr-value-row.h"

#define VALUE_KEY "hr-value-row-label"

GtkWidget *
hr_value_row_new (const char *title,
                  gboolean    monospace)
{
  GtkWidget *row = adw_preferences_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *title_label = gtk_label_new (title);
  GtkWidget *value = gtk_label_new (NULL);

  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);

  gtk_label_set_xalign (GTK_LABEL (title_label), 0);
  gtk_label_set_wrap (GTK_LABEL (title_label), TRUE);
  gtk_widget_add_css_class (title_label, "dim-label");
  gtk_widget_add_css_class (title_label, "caption");

  gtk_label_set_xalign (GTK_LABEL (value), 0);
  gtk_label_set_wrap (GTK_LABEL (value), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  if (monospace)
    gtk_widget_add_css_class (value, "monospace");

  gtk_box_append (GTK_BOX (box), title_label);
  gtk_box_append (GTK_BOX (box), value);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  g_object_set_data (G_OBJECT (row), VALUE_KEY, value);
  return row;
}

void
hr_value_row_set_value (GtkWidget  *row,
                        const char *value)
{
  GtkLabel *label = g_object_get_data (G_OBJECT (row), VALUE_KEY);

  g_return_if_fail (GTK_IS_LABEL (label));
  gtk_label_set_label (label, value ? value : "—");
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  value ? value : "", -1);
}
