/* hr-command-card.c — one engine's launch command, block by block
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An HrCommand (core) shown as GNOME users expect a command: the words to
 * replace first, flagged; notes as text; each program line or file in a
 * monospace block with its own copy button (Ctrl+C copies the block that
 * has the focus); a file block under its file name; a heading above each
 * machine's part.  Or, when the engine cannot run the scenario, one state
 * with the reason and the change that would fix it.  Copies ask the
 * window for a toast through “win.toast”.
 */

#define G_LOG_DOMAIN "hr-command-card"

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "hr-command-card.h"
#include "hr-ui-format.h"

struct _HrCommandCard
{
  GtkWidget parent_instance;

  GtkWidget *box;
  char *text;                  /* the whole command, as the CLI prints it */
  char *layout;                /* what the widgets show but the blocks'
                                * text (layout_of()); NULL when refused */
  GPtrArray *blocks;           /* char *: each block's shell text */
  GPtrArray *block_labels;     /* GtkLabel *: each block's text, unowned */
  GPtrArray *words;            /* char *: the placeholders */
  GtkWidget *first_copy;       /* the first block's copy button (or the
                                * refusal's fix button) */
  gboolean refused;
};

G_DEFINE_FINAL_TYPE (HrCommandCard, hr_command_card, GTK_TYPE_WIDGET)

/* ------------------------------------------------------------ copying */

static const char *
placeholder_in (HrCommandCard *self,
                const char    *text)
{
  for (guint i = 0; i < self->words->len; i++)
    if (strstr (text, g_ptr_array_index (self->words, i)) != NULL)
      return g_ptr_array_index (self->words, i);
  return NULL;
}

static void
copy_text (HrCommandCard *self,
           GtkWidget     *widget,
           const char    *text)
{
  const char *word = placeholder_in (self, text);
  g_autofree char *message = NULL;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  if (word != NULL)
    /* TRANSLATORS: a toast; %s is a placeholder, "<head-address>" */
    message = g_strdup_printf (_("Copied; replace %s before running it"), word);
  else
    message = g_strdup (_("Copied to the clipboard"));
  gtk_widget_activate_action (widget, "win.toast", "s", message);
}

static void
copy_clicked (GtkButton     *button,
              HrCommandCard *self)
{
  copy_text (self, GTK_WIDGET (button), g_object_get_data (G_OBJECT (button), "hr-text"));
}

static gboolean
copy_shortcut (GtkWidget *widget,
               GVariant  *args,
               gpointer   user_data)
{
  HrCommandCard *self = HR_COMMAND_CARD (gtk_widget_get_ancestor (widget,
                                                                  HR_TYPE_COMMAND_CARD));

  copy_text (self, widget, g_object_get_data (G_OBJECT (widget), "hr-text"));
  return TRUE;
}

/* A block scrolls sideways only: a vertical wheel or swipe over it
 * scrolls the page, as it would over any other text of the page. */
static gboolean
block_scroll (GtkEventControllerScroll *controller,
              double                    dx,
              double                    dy,
              gpointer                  user_data)
{
  GtkWidget *block = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER
                                                                         (controller));
  GtkWidget *page;
  GtkAdjustment *adj;
  double step;

  if (dy == 0 || dx != 0 || (state & GDK_SHIFT_MASK) != 0)
    return FALSE;
  page = gtk_widget_get_ancestor (gtk_widget_get_parent (block), GTK_TYPE_SCROLLED_WINDOW);
  if (page == NULL)
    return FALSE;

  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (page));
  /* a wheel click scrolls as GtkScrolledWindow scrolls a page */
  step = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL
         ? pow (gtk_adjustment_get_page_size (adj), 2.0 / 3.0) : 1.0;
  gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj) + dy * step);
  return TRUE;
}

/* ------------------------------------------------------------ building */

static void
clear (HrCommandCard *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->box)) != NULL)
    gtk_box_remove (GTK_BOX (self->box), child);
  g_ptr_array_set_size (self->blocks, 0);
  g_ptr_array_set_size (self->block_labels, 0);
  g_ptr_array_set_size (self->words, 0);
  g_clear_pointer (&self->layout, g_free);
  self->first_copy = NULL;
}

static GtkWidget *
text_label (const char *text,
            const char *style)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (style != NULL)
    gtk_widget_add_css_class (label, style);
  return label;
}

/* An icon and a label in a row.  A grid, not a box: GTK 4.8's box aligns
 * its children's baselines when measured for a width but not without
 * one, so beside a 16 px icon (baseline 12) a one-line label (baseline
 * 13 of 16 px with DejaVu Sans) made the row 17 px tall in one
 * measurement and 16 in the other, and GTK logged a critical. */
static GtkWidget *
icon_row (const char *icon,
          const char *icon_style,
          GtkWidget  *label)
{
  GtkWidget *row = gtk_grid_new ();
  GtkWidget *image = gtk_image_new_from_icon_name (icon);

  gtk_grid_set_column_spacing (GTK_GRID (row), 8);
  gtk_widget_set_valign (image, GTK_ALIGN_START);
  if (icon_style != NULL)
    gtk_widget_add_css_class (image, icon_style);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_grid_attach (GTK_GRID (row), image, 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (row), label, 1, 0, 1, 1);
  return row;
}

/* The block's text with each placeholder flagged (bold, wavy underline). */
static char *
block_markup (HrCommandCard *self,
              const char    *text)
{
  GString *out = g_string_new (NULL);
  const char *p = text;

  while (*p != '\0')
    {
      const char *hit = NULL;
      const char *word = NULL;

      for (guint i = 0; i < self->words->len; i++)
        {
          const char *w = g_ptr_array_index (self->words, i);
          const char *at = strstr (p, w);

          if (at != NULL && (hit == NULL || at < hit))
            {
              hit = at;
              word = w;
            }
        }
      if (hit == NULL)
        hit = p + strlen (p);
      {
        g_autofree char *plain = g_markup_escape_text (p, hit - p);

        g_string_append (out, plain);
      }
      if (word == NULL)
        break;
      {
        g_autofree char *flagged = g_markup_escape_text (word, -1);

        g_string_append_printf (out, "<span weight=\"bold\" underline=\"error\">%s</span>",
                                flagged);
      }
      p = hit + strlen (word);
    }
  return g_string_free (out, FALSE);
}

static void
add_block (HrCommandCard *self,
           const char    *shell)
{
  g_autofree char *text = g_strdup (shell);
  g_autofree char *markup = NULL;
  GtkWidget *block = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *button = gtk_button_new_from_icon_name ("edit-copy-symbolic");
  GtkEventController *shortcuts = gtk_shortcut_controller_new ();
  GtkEventController *scroll =
    gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);

  /* without the last line break: a paste does not run it before the
   * user has read it (and replaced what must be) */
  g_strchomp (text);
  markup = block_markup (self, text);
  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_add_css_class (label, "command-text");
  gtk_widget_set_focus_on_click (label, FALSE);

  /* Long lines scroll sideways rather than wrap: a wrapped shell line
   * reads as two. */
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC,
                                  GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), label);
  /* Tab into the text selects it all: keep its start in view */
  gtk_viewport_set_scroll_to_focus (GTK_VIEWPORT (gtk_scrolled_window_get_child
                                                  (GTK_SCROLLED_WINDOW (scroller))), FALSE);
  gtk_widget_set_hexpand (scroller, TRUE);
  gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
  g_signal_connect (scroll, "scroll", G_CALLBACK (block_scroll), NULL);
  gtk_widget_add_controller (scroller, scroll);
  gtk_box_append (GTK_BOX (block), scroller);

  /* The button beside the text, never over it; its column is as tall as
   * the text so that Tab reaches the text first, then its button. */
  gtk_widget_set_valign (button, GTK_ALIGN_START);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "circular");
  gtk_widget_add_css_class (button, "command-copy");
  gtk_widget_set_tooltip_text (button, _("Copy (Ctrl+C)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Copy the command"), -1);
  g_object_set_data_full (G_OBJECT (button), "hr-text", g_strdup (text), g_free);
  g_signal_connect_object (button, "clicked", G_CALLBACK (copy_clicked), self, 0);
  gtk_box_append (GTK_BOX (column), button);
  gtk_box_append (GTK_BOX (block), column);
  if (self->first_copy == NULL)
    self->first_copy = button;

  /* Ctrl+C on the block (its copy button focused) copies all of it; a
   * selection in the text is the label's own to copy. */
  g_object_set_data_full (G_OBJECT (block), "hr-text", g_strdup (text), g_free);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_c,
                                                                                  GDK_CONTROL_MASK),
                                                          gtk_callback_action_new (copy_shortcut,
                                                                                   NULL,
                                                                                   NULL)));
  gtk_widget_add_controller (block, shortcuts);

  gtk_widget_add_css_class (block, "card");
  gtk_widget_add_css_class (block, "command-block");
  gtk_box_append (GTK_BOX (self->box), block);
  g_ptr_array_add (self->blocks, g_steal_pointer (&text));
  g_ptr_array_add (self->block_labels, label);
}

/* A block's text replaced in place: the block, its copy button and the
 * focus stay. */
static void
set_block_text (HrCommandCard *self,
                guint          index,
                const char    *shell)
{
  g_autofree char *text = g_strchomp (g_strdup (shell));
  GtkWidget *label = g_ptr_array_index (self->block_labels, index);
  GtkWidget *scroller = gtk_widget_get_ancestor (label, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *block = gtk_widget_get_parent (scroller);
  GtkWidget *button = gtk_widget_get_first_child (gtk_widget_get_last_child (block));
  g_autofree char *markup = NULL;

  if (g_strcmp0 (text, g_ptr_array_index (self->blocks, index)) == 0)
    return;
  markup = block_markup (self, text);
  gtk_label_set_markup (GTK_LABEL (label), markup);
  g_object_set_data_full (G_OBJECT (button), "hr-text", g_strdup (text), g_free);
  g_object_set_data_full (G_OBJECT (block), "hr-text", g_strdup (text), g_free);
  g_free (g_ptr_array_index (self->blocks, index));
  g_ptr_array_index (self->blocks, index) = g_steal_pointer (&text);
}

/* Everything a command's widgets show except its blocks' text: two
 * commands of one layout differ only in their blocks (a slider step
 * changes a number in them), and the card then updates those in place
 * rather than building every widget again. */
static char *
layout_of (const HrCommand *command)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < command->placeholders->len; i++)
    {
      const HrCommandPlaceholder *p = g_ptr_array_index (command->placeholders, i);

      g_string_append_printf (out, "P%s\x1f%s\x1e", p->word, p->meaning);
    }
  for (guint i = 0; i < command->lines->len; i++)
    {
      const HrCommandLine *line = g_ptr_array_index (command->lines, i);

      g_string_append_printf (out, "%d%s\x1e", (int) line->kind,
                              line->kind == HR_COMMAND_LINE_RUN ? "" : line->text);
    }
  return g_string_free (out, FALSE);
}

static void
add_machine (HrCommandCard       *self,
             const HrCommandLine *line)
{
  GtkWidget *row = icon_row ("computer-symbolic", NULL, text_label (line->text, "heading"));

  gtk_widget_add_css_class (row, "command-machine");
  gtk_box_append (GTK_BOX (self->box), row);
}

static void
add_file_caption (HrCommandCard       *self,
                  const HrCommandLine *line)
{
  /* TRANSLATORS: above the shell text that writes a file; %s is its name */
  g_autofree char *caption = g_strdup_printf (_("File %s"), line->text);
  GtkWidget *row = icon_row ("text-x-generic-symbolic", "dim-label",
                             text_label (caption, "caption-heading"));

  gtk_box_append (GTK_BOX (self->box), row);
}

static void
add_placeholders (HrCommandCard   *self,
                  const HrCommand *command)
{
  for (guint i = 0; i < command->placeholders->len; i++)
    {
      const HrCommandPlaceholder *p = g_ptr_array_index (command->placeholders, i);
      g_autofree char *word = g_markup_escape_text (p->word, -1);
      g_autofree char *meaning = g_markup_escape_text (p->meaning, -1);
      /* TRANSLATORS: %s is a word in the command, %s what to put there */
      g_autofree char *markup = g_strdup_printf (_("Replace <tt><b>%s</b></tt> with %s"), word,
                                                 meaning);
      GtkWidget *label = text_label (NULL, NULL);
      GtkWidget *row;

      gtk_label_set_markup (GTK_LABEL (label), markup);
      row = icon_row ("dialog-warning-symbolic", "warning", label);
      gtk_widget_add_css_class (row, "command-placeholder");
      gtk_box_append (GTK_BOX (self->box), row);
      g_ptr_array_add (self->words, g_strdup (p->word));
    }
}

/* ------------------------------------------------------------ class */

static void
hr_command_card_dispose (GObject *object)
{
  HrCommandCard *self = HR_COMMAND_CARD (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (hr_command_card_parent_class)->dispose (object);
}

static void
hr_command_card_finalize (GObject *object)
{
  HrCommandCard *self = HR_COMMAND_CARD (object);

  g_free (self->text);
  g_free (self->layout);
  g_ptr_array_unref (self->blocks);
  g_ptr_array_unref (self->block_labels);
  g_ptr_array_unref (self->words);
  G_OBJECT_CLASS (hr_command_card_parent_class)->finalize (object);
}

static void
hr_command_card_class_init (HrCommandCardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_command_card_dispose;
  object_class->finalize = hr_command_card_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "commandcard");
}

static void
hr_command_card_init (HrCommandCard *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  self->blocks = g_ptr_array_new_with_free_func (g_free);
  self->block_labels = g_ptr_array_new ();
  self->words = g_ptr_array_new_with_free_func (g_free);
}

/* ------------------------------------------------------------ public */

GtkWidget *
hr_command_card_new (void)
{
  return g_object_new (HR_TYPE_COMMAND_CARD, NULL);
}

void
hr_command_card_set_command (HrCommandCard   *self,
                             const HrCommand *command)
{
  g_autofree char *text = NULL;
  g_autofree char *layout = NULL;
  gboolean focused;

  g_return_if_fail (HR_IS_COMMAND_CARD (self));
  g_return_if_fail (command != NULL);

  /* The same command again: leave the blocks (and the focus) be. */
  text = hr_command_to_shell (command);
  if (!self->refused && g_strcmp0 (text, self->text) == 0)
    return;
  g_free (self->text);
  self->text = g_steal_pointer (&text);

  layout = layout_of (command);
  if (!self->refused && g_strcmp0 (layout, self->layout) == 0)
    {
      guint block = 0;

      for (guint i = 0; i < command->lines->len; i++)
        {
          const HrCommandLine *line = g_ptr_array_index (command->lines, i);

          if (line->kind == HR_COMMAND_LINE_RUN || line->kind == HR_COMMAND_LINE_FILE)
            {
              g_autofree char *shell = hr_command_line_to_shell (line);

              set_block_text (self, block++, shell);
            }
        }
      return;
    }

  /* focus in the card stays in it when its contents are replaced */
  focused = hr_ui_focus_within (GTK_WIDGET (self));
  clear (self);
  self->refused = FALSE;
  self->layout = g_steal_pointer (&layout);

  add_placeholders (self, command);
  for (guint i = 0; i < command->lines->len; i++)
    {
      const HrCommandLine *line = g_ptr_array_index (command->lines, i);
      g_autofree char *shell = NULL;

      switch (line->kind)
        {
        case HR_COMMAND_LINE_NOTE:
          gtk_box_append (GTK_BOX (self->box), text_label (line->text, NULL));
          break;
        case HR_COMMAND_LINE_MACHINE:
          add_machine (self, line);
          break;
        case HR_COMMAND_LINE_FILE:
          add_file_caption (self, line);
          G_GNUC_FALLTHROUGH;
        case HR_COMMAND_LINE_RUN:
          shell = hr_command_line_to_shell (line);
          add_block (self, shell);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  /* the first copy button, where the fix button was */
  if (focused && self->first_copy != NULL)
    gtk_widget_grab_focus (self->first_copy);
}

/**
 * hr_command_card_set_refusal:
 * @fix_label: (nullable): the button that fixes it, if any
 * @fix_action: (nullable): its action
 * @fix_target: (nullable): the action's parameter
 *
 * The engine cannot run the scenario: one state saying why.
 */
void
hr_command_card_set_refusal (HrCommandCard *self,
                             const char    *title,
                             const char    *reason,
                             const char    *fix_label,
                             const char    *fix_action,
                             GVariant      *fix_target)
{
  g_autofree char *text = NULL;
  GtkWidget *state, *image, *heading, *body;
  gboolean focused;

  g_return_if_fail (HR_IS_COMMAND_CARD (self));

  focused = hr_ui_focus_within (GTK_WIDGET (self));
  clear (self);
  self->refused = TRUE;
  /* TRANSLATORS: the text a refused command gives; %s says why */
  text = g_strdup_printf (_("# No command: %s\n"), reason);
  g_free (self->text);
  self->text = g_steal_pointer (&text);

  state = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_add_css_class (state, "card");
  gtk_widget_add_css_class (state, "command-refusal");
  image = gtk_image_new_from_icon_name ("action-unavailable-symbolic");
  gtk_image_set_pixel_size (GTK_IMAGE (image), 32);
  gtk_widget_add_css_class (image, "dim-label");
  heading = text_label (title, "heading");
  body = text_label (reason, NULL);
  gtk_label_set_xalign (GTK_LABEL (heading), 0.5);
  gtk_label_set_justify (GTK_LABEL (heading), GTK_JUSTIFY_CENTER);
  gtk_label_set_xalign (GTK_LABEL (body), 0.5);
  gtk_label_set_justify (GTK_LABEL (body), GTK_JUSTIFY_CENTER);
  gtk_label_set_selectable (GTK_LABEL (body), TRUE);
  gtk_widget_set_focus_on_click (body, FALSE);
  gtk_box_append (GTK_BOX (state), image);
  gtk_box_append (GTK_BOX (state), heading);
  gtk_box_append (GTK_BOX (state), body);

  if (fix_label != NULL && fix_action != NULL)
    {
      GtkWidget *button = gtk_button_new_with_mnemonic (fix_label);

      gtk_widget_set_halign (button, GTK_ALIGN_CENTER);
      gtk_widget_set_margin_top (button, 6);
      gtk_widget_add_css_class (button, "pill");
      gtk_widget_add_css_class (button, "suggested-action");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), fix_action);
      if (fix_target != NULL)
        gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), fix_target);
      gtk_box_append (GTK_BOX (state), button);
      self->first_copy = button;
    }
  gtk_box_append (GTK_BOX (self->box), state);
  /* the fix, where the copy button was */
  if (focused && self->first_copy != NULL)
    gtk_widget_grab_focus (self->first_copy);
}

/* The whole command as `headroom-cli command` prints it. */
const char *
hr_command_card_get_text (HrCommandCard *self)
{
  g_return_val_if_fail (HR_IS_COMMAND_CARD (self), NULL);
  return self->text;
}

guint
hr_command_card_get_n_blocks (HrCommandCard *self)
{
  g_return_val_if_fail (HR_IS_COMMAND_CARD (self), 0);
  return self->blocks->len;
}

const char *
hr_command_card_get_block (HrCommandCard *self,
                           guint          index)
{
  g_return_val_if_fail (HR_IS_COMMAND_CARD (self), NULL);
  g_return_val_if_fail (index < self->blocks->len, NULL);
  return g_ptr_array_index (self->blocks, index);
}

gboolean
hr_command_card_get_refused (HrCommandCard *self)
{
  g_return_val_if_fail (HR_IS_COMMAND_CARD (self), FALSE);
  return self->refused;
}
