/* hr-picker.c — a button that opens a searchable, grouped list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libadwaita 1.2's combo rows cannot search and GTK 4.8's list views have
 * no section headers, so models (grouped by family) and devices (grouped
 * by vendor) are chosen from a popover holding a search entry and a
 * GtkListBox, whose header function draws the groups.  The popover and
 * its rows are built when the list is first shown, not with the window.
 * A status line under the search entry says what the owner is doing
 * (looking for models on this computer); “opened” tells it the list was
 * shown, so that such work can wait until it is wanted.
 */

#define G_LOG_DOMAIN "hr-picker"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-picker.h"
#include "hr-text.h"

struct _HrPicker
{
  AdwBin parent_instance;

  GtkMenuButton *button;
  GtkLabel *button_label;
  /* NULL until first shown */
  GtkPopover *popover;
  GtkSearchEntry *search;
  GtkListBox *list;
  GtkWidget *status_box;
  GtkSpinner *status_spinner;
  GtkLabel *status_label;

  GListModel *items;
  HrPickerDescriber describer;
  GObject *selected;
  gboolean rows_stale;        /* rows are built when the list is first shown */
  char *status;
  gboolean busy;
  char *no_match;             /* said when the search finds nothing */
  GtkLabel *no_match_label;   /* NULL until first shown */
};

G_DEFINE_FINAL_TYPE (HrPicker, hr_picker, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_SELECTED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  OPENED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Rows wider than this are ellipsized, not the popover widened. */
#define ROW_MAX_WIDTH_CHARS 48
/* The button's name: at least this wide, wrapped past the widest, and
 * ellipsized only past this many lines. */
#define BUTTON_MIN_WIDTH_CHARS 8
#define BUTTON_MAX_WIDTH_CHARS 18
#define BUTTON_MAX_LINES 3

#define ITEM_KEY "hr-picker-item"
#define GROUP_KEY "hr-picker-group"
#define SEARCH_KEY "hr-picker-search"
#define CHECK_KEY "hr-picker-check"

static void
update_button (HrPicker *self)
{
  g_autofree char *title = NULL;

  if (self->selected != NULL && self->describer.title != NULL)
    title = self->describer.title (self->selected);
  gtk_label_set_label (self->button_label, title ? title : _("None"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->button), title);
}

static void
update_status (HrPicker *self)
{
  if (self->status_box == NULL)
    return;
  gtk_label_set_label (self->status_label, self->status != NULL ? self->status : "");
  gtk_spinner_set_spinning (self->status_spinner, self->busy);
  gtk_widget_set_visible (GTK_WIDGET (self->status_spinner), self->busy);
  gtk_widget_set_visible (self->status_box, self->status != NULL);
}

static GtkWidget *
create_row (HrPicker *self,
            gpointer  item)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *line, *check;
  g_autofree char *title = self->describer.title (item);
  g_autofree char *subtitle = self->describer.subtitle ? self->describer.subtitle (item) : NULL;
  g_autofree char *search = self->describer.search_text ? self->describer.search_text (item)
                                                        : g_utf8_strdown (title, -1);
  GtkWidget *label;

  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);

  label = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (label), ROW_MAX_WIDTH_CHARS);
  gtk_box_append (GTK_BOX (box), label);
  if (subtitle != NULL)
    {
      g_auto(GStrv) lines = g_strsplit (subtitle, "\n", -1);

      /* Lines after the first are paths: their ends matter most. */
      for (guint i = 0; lines[i] != NULL; i++)
        {
          label = gtk_label_new (lines[i]);
          gtk_label_set_xalign (GTK_LABEL (label), 0);
          gtk_label_set_ellipsize (GTK_LABEL (label),
                                   i == 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_MIDDLE);
          gtk_label_set_max_width_chars (GTK_LABEL (label), ROW_MAX_WIDTH_CHARS);
          if (i > 0)
            gtk_widget_set_tooltip_text (label, lines[i]);
          gtk_widget_add_css_class (label, "dim-label");
          gtk_widget_add_css_class (label, "caption");
          gtk_box_append (GTK_BOX (box), label);
        }
    }
  /* The current item has a check mark, whatever the keyboard's row. */
  gtk_widget_set_hexpand (box, TRUE);
  check = gtk_image_new_from_icon_name ("object-select-symbolic");
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_end (check, 6);
  gtk_widget_set_visible (check, item == (gpointer) self->selected);
  line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_box_append (GTK_BOX (line), box);
  gtk_box_append (GTK_BOX (line), check);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), line);
  g_object_set_data (G_OBJECT (row), CHECK_KEY, check);

  g_object_set_data_full (G_OBJECT (row), ITEM_KEY, g_object_ref (item), g_object_unref);
  g_object_set_data_full (G_OBJECT (row), GROUP_KEY,
                          self->describer.group ? self->describer.group (item) : NULL,
                          g_free);
  g_object_set_data_full (G_OBJECT (row), SEARCH_KEY, g_steal_pointer (&search), g_free);
  return row;
}

static void update_no_match (HrPicker *self);

static void
rebuild (HrPicker *self)
{
  GtkWidget *child;

  if (self->list == NULL)
    return;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);

  /* Each group once, where its first item is, with all of its items in
   * their order: a catalog may list a family in several places (Qwen3's
   * small models after its MoE ones), and a header per place would name
   * the family twice. */
  {
    g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
    g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);

    for (guint i = 0; self->items != NULL && i < g_list_model_get_n_items (self->items); i++)
      {
        g_autoptr(GObject) item = g_list_model_get_item (self->items, i);
        GtkWidget *row = create_row (self, item);
        const char *name = g_object_get_data (G_OBJECT (row), GROUP_KEY);
        GPtrArray *rows;

        if (name == NULL)
          name = "";
        rows = g_hash_table_lookup (by_name, name);
        if (rows == NULL)
          {
            rows = g_ptr_array_new ();
            g_ptr_array_add (groups, rows);
            g_hash_table_insert (by_name, (gpointer) name, rows);
          }
        g_ptr_array_add (rows, row);
      }
    for (guint g = 0; g < groups->len; g++)
      {
        GPtrArray *rows = g_ptr_array_index (groups, g);

        for (guint i = 0; i < rows->len; i++)
          gtk_list_box_append (self->list, g_ptr_array_index (rows, i));
      }
  }
  update_no_match (self);
}

static void
update_checks (HrPicker *self)
{
  if (self->list == NULL)
    return;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *check = g_object_get_data (G_OBJECT (child), CHECK_KEY);

      if (check != NULL)
        gtk_widget_set_visible (check, g_object_get_data (G_OBJECT (child), ITEM_KEY) ==
                                       (gpointer) self->selected);
    }
}

/* A header above the first row of each group. */
static void
update_header (GtkListBoxRow *row,
               GtkListBoxRow *before,
               gpointer       user_data)
{
  const char *group = g_object_get_data (G_OBJECT (row), GROUP_KEY);
  const char *previous = before ? g_object_get_data (G_OBJECT (before), GROUP_KEY) : NULL;
  GtkWidget *header;

  if (group == NULL || g_strcmp0 (group, previous) == 0)
    {
      gtk_list_box_row_set_header (row, NULL);
      return;
    }

  header = gtk_label_new (group);
  gtk_label_set_xalign (GTK_LABEL (header), 0);
  gtk_widget_add_css_class (header, "heading");
  gtk_widget_add_css_class (header, "picker-header");
  gtk_widget_set_margin_start (header, 6);
  gtk_widget_set_margin_top (header, 12);
  gtk_widget_set_margin_bottom (header, 3);
  gtk_list_box_row_set_header (row, header);
}

static gboolean
filter_row (GtkListBoxRow *row,
            gpointer       user_data)
{
  HrPicker *self = user_data;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search));
  const char *haystack = g_object_get_data (G_OBJECT (row), SEARCH_KEY);

  /* Every word begins a token, in any order: "qwen 32" finds Qwen3-32B,
   * "8GB" does not find 48GB. */
  return hr_text_matches_words (haystack, text);
}

/* GTK 4.8's list box shows its placeholder only when it has no rows, not
 * when the filter hides them all: the picker says it over the list. */
static void
update_no_match (HrPicker *self)
{
  gboolean any = FALSE;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list));
       child != NULL && !any; child = gtk_widget_get_next_sibling (child))
    any = GTK_IS_LIST_BOX_ROW (child) && filter_row (GTK_LIST_BOX_ROW (child), self);
  gtk_widget_set_visible (GTK_WIDGET (self->no_match_label), !any);
}

static void
on_search_changed (HrPicker *self)
{
  gtk_list_box_invalidate_filter (self->list);
  update_no_match (self);
}

static void
on_row_activated (HrPicker      *self,
                  GtkListBoxRow *row)
{
  hr_picker_set_selected (self, g_object_get_data (G_OBJECT (row), ITEM_KEY));
  gtk_popover_popdown (self->popover);
}

/* The row the keyboard is on, when the focus is in the list; else NULL. */
static GtkListBoxRow *
focused_row (HrPicker *self)
{
  GtkWidget *child = gtk_widget_get_focus_child (GTK_WIDGET (self->list));

  if (GTK_IS_LIST_BOX_ROW (child) && gtk_widget_get_child_visible (child) &&
      gtk_widget_get_visible (child))
    return GTK_LIST_BOX_ROW (child);
  return NULL;
}

/* The search entry captures the popover's keys (to type while the list
 * has the focus), Enter among them: Enter or Space on a row the arrows
 * reached chooses that row, not the search's first match. */
static gboolean
on_popover_key_pressed (HrPicker        *self,
                        guint            keyval,
                        guint            keycode,
                        GdkModifierType  state)
{
  GtkListBoxRow *row;

  if (keyval != GDK_KEY_Return && keyval != GDK_KEY_KP_Enter &&
      keyval != GDK_KEY_ISO_Enter && keyval != GDK_KEY_space &&
      keyval != GDK_KEY_KP_Space)
    return GDK_EVENT_PROPAGATE;
  if ((state & gtk_accelerator_get_default_mod_mask ()) != 0)
    return GDK_EVENT_PROPAGATE;
  if ((row = focused_row (self)) == NULL)
    return GDK_EVENT_PROPAGATE;
  on_row_activated (self, row);
  return GDK_EVENT_STOP;
}

/* Enter in the search entry picks the first visible row. */
static void
on_search_activate (HrPicker *self)
{
  GtkListBoxRow *row = focused_row (self);

  if (row != NULL)
    {
      on_row_activated (self, row);
      return;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      if (gtk_widget_get_child_visible (child) && GTK_IS_LIST_BOX_ROW (child) &&
          filter_row (GTK_LIST_BOX_ROW (child), self))
        {
          on_row_activated (self, GTK_LIST_BOX_ROW (child));
          return;
        }
    }
}

static void
on_stop_search (HrPicker *self)
{
  gtk_popover_popdown (self->popover);
}

/* Rows cost a few milliseconds each hundred: they are built when the list
 * is first shown, not when the window starts. */
static void
mark_stale (HrPicker *self)
{
  self->rows_stale = TRUE;
  if (self->popover != NULL && gtk_widget_get_visible (GTK_WIDGET (self->popover)))
    {
      rebuild (self);
      self->rows_stale = FALSE;
    }
}

static void
on_popover_show (HrPicker *self)
{
  if (self->rows_stale)
    {
      rebuild (self);
      self->rows_stale = FALSE;
    }

  gtk_editable_set_text (GTK_EDITABLE (self->search), "");
  gtk_widget_grab_focus (GTK_WIDGET (self->search));

  /* Bring the chosen item into view. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_BOX_ROW (child) &&
        g_object_get_data (G_OBJECT (child), ITEM_KEY) == (gpointer) self->selected)
      {
        gtk_list_box_select_row (self->list, GTK_LIST_BOX_ROW (child));
        break;
      }

  g_signal_emit (self, signals[OPENED], 0);
}

/* The menu button asks for its popover before each popup. */
static void
ensure_popover (GtkMenuButton *button,
                gpointer       user_data)
{
  HrPicker *self = user_data;
  GtkWidget *box, *scrolled, *overlay;
  GtkEventController *key;

  if (self->popover != NULL)
    return;

  self->search = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->search, "placeholder-text", _("Search"), NULL);
  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_BROWSE);
  gtk_list_box_set_header_func (self->list, update_header, NULL, NULL);
  gtk_list_box_set_filter_func (self->list, filter_row, self, NULL);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "navigation-sidebar");

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 360);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 360);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->list));

  /* A search that finds nothing says so rather than leaving a blank. */
  self->no_match_label = GTK_LABEL (gtk_label_new (self->no_match));
  gtk_label_set_wrap (self->no_match_label, TRUE);
  gtk_label_set_justify (self->no_match_label, GTK_JUSTIFY_CENTER);
  gtk_widget_set_margin_top (GTK_WIDGET (self->no_match_label), 24);
  gtk_widget_set_margin_start (GTK_WIDGET (self->no_match_label), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->no_match_label), 12);
  gtk_widget_set_valign (GTK_WIDGET (self->no_match_label), GTK_ALIGN_START);
  gtk_widget_add_css_class (GTK_WIDGET (self->no_match_label), "dim-label");
  gtk_widget_set_can_target (GTK_WIDGET (self->no_match_label), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->no_match_label), FALSE);
  overlay = gtk_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (overlay), scrolled);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), GTK_WIDGET (self->no_match_label));

  self->status_spinner = GTK_SPINNER (gtk_spinner_new ());
  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status_label, 0);
  gtk_label_set_wrap (self->status_label, TRUE);
  gtk_label_set_max_width_chars (self->status_label, 40);
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "caption");
  self->status_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (self->status_box, 6);
  gtk_widget_set_margin_end (self->status_box, 6);
  gtk_box_append (GTK_BOX (self->status_box), GTK_WIDGET (self->status_spinner));
  gtk_box_append (GTK_BOX (self->status_box), GTK_WIDGET (self->status_label));

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_size_request (box, 320, -1);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->search));
  gtk_box_append (GTK_BOX (box), self->status_box);
  gtk_box_append (GTK_BOX (box), overlay);
  update_status (self);

  self->popover = GTK_POPOVER (gtk_popover_new ());
  gtk_popover_set_child (self->popover, box);

  gtk_menu_button_set_popover (self->button, GTK_WIDGET (self->popover));

  g_signal_connect_object (self->search, "search-changed",
                           G_CALLBACK (on_search_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search, "activate",
                           G_CALLBACK (on_search_activate), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search, "stop-search",
                           G_CALLBACK (on_stop_search), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->list, "row-activated",
                           G_CALLBACK (on_row_activated), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->popover, "show",
                           G_CALLBACK (on_popover_show), self, G_CONNECT_SWAPPED);
  gtk_search_entry_set_key_capture_widget (self->search, GTK_WIDGET (self->popover));
  key = gtk_event_controller_key_new ();
  gtk_event_controller_set_name (key, "hr-picker-keys");
  gtk_event_controller_set_propagation_phase (key, GTK_PHASE_CAPTURE);
  g_signal_connect_object (key, "key-pressed",
                           G_CALLBACK (on_popover_key_pressed), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->popover), key);
}

static void
hr_picker_dispose (GObject *object)
{
  HrPicker *self = (HrPicker *) object;

  if (self->items != NULL)
    g_signal_handlers_disconnect_by_data (self->items, self);
  g_clear_object (&self->items);
  g_clear_object (&self->selected);
  g_clear_pointer (&self->status, g_free);
  g_clear_pointer (&self->no_match, g_free);
  G_OBJECT_CLASS (hr_picker_parent_class)->dispose (object);
}

static void
hr_picker_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  HrPicker *self = HR_PICKER (object);

  switch (prop_id)
    {
    case PROP_SELECTED:
      g_value_set_object (value, self->selected);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_picker_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  HrPicker *self = HR_PICKER (object);

  switch (prop_id)
    {
    case PROP_SELECTED:
      hr_picker_set_selected (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_picker_class_init (HrPickerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hr_picker_dispose;
  object_class->get_property = hr_picker_get_property;
  object_class->set_property = hr_picker_set_property;

  properties[PROP_SELECTED] =
    g_param_spec_object ("selected", NULL, NULL, G_TYPE_OBJECT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * HrPicker::opened:
   *
   * The list was just shown.
   */
  signals[OPENED] =
    g_signal_new ("opened", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 0);
}

static void
hr_picker_init (HrPicker *self)
{
  GtkWidget *button_box, *arrow;

  /* A long name wraps rather than ending in "Deep…": DeepSeek V3 and R1
   * must stay apart, and the sidebar keeps its width. */
  self->button_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->button_label, TRUE);
  gtk_label_set_wrap_mode (self->button_label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (self->button_label, BUTTON_MAX_LINES);
  gtk_label_set_ellipsize (self->button_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (self->button_label, BUTTON_MIN_WIDTH_CHARS);
  gtk_label_set_max_width_chars (self->button_label, BUTTON_MAX_WIDTH_CHARS);
  gtk_label_set_xalign (self->button_label, 0);
  arrow = gtk_image_new_from_icon_name ("pan-down-symbolic");
  button_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_box_append (GTK_BOX (button_box), GTK_WIDGET (self->button_label));
  gtk_box_append (GTK_BOX (button_box), arrow);

  self->button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_menu_button_set_child (self->button, button_box);
  gtk_menu_button_set_create_popup_func (self->button, ensure_popover, self, NULL);
  gtk_widget_set_valign (GTK_WIDGET (self->button), GTK_ALIGN_CENTER);
  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->button));

  self->no_match = g_strdup (_("No matches"));
  update_button (self);
}

/**
 * hr_picker_set_items:
 * @describer: (not nullable): how to show an item; title is required
 */
void
hr_picker_set_items (HrPicker                *self,
                     GListModel              *items,
                     const HrPickerDescriber *describer)
{
  g_return_if_fail (HR_IS_PICKER (self));
  g_return_if_fail (describer != NULL && describer->title != NULL);

  if (self->items != NULL)
    g_signal_handlers_disconnect_by_data (self->items, self);
  g_set_object (&self->items, items);
  self->describer = *describer;
  if (items != NULL)
    g_signal_connect_object (items, "items-changed", G_CALLBACK (mark_stale), self,
                             G_CONNECT_SWAPPED);
  mark_stale (self);
  update_button (self);
}

GObject *
hr_picker_get_selected (HrPicker *self)
{
  g_return_val_if_fail (HR_IS_PICKER (self), NULL);
  return self->selected;
}

void
hr_picker_set_selected (HrPicker *self,
                        GObject  *item)
{
  g_return_if_fail (HR_IS_PICKER (self));

  if (!g_set_object (&self->selected, item))
    return;
  update_button (self);
  update_checks (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

void
hr_picker_popup (HrPicker *self)
{
  g_return_if_fail (HR_IS_PICKER (self));
  gtk_menu_button_popup (self->button);
}

/**
 * hr_picker_set_status:
 * @text: (nullable): a line shown above the list; %NULL hides it
 * @busy: whether a spinner turns beside it
 */
void
hr_picker_set_status (HrPicker   *self,
                      const char *text,
                      gboolean    busy)
{
  g_return_if_fail (HR_IS_PICKER (self));

  g_free (self->status);
  self->status = g_strdup (text);
  self->busy = text != NULL && busy;
  update_status (self);
}

/* The status line's text, or %NULL.  For tests. */
const char *
hr_picker_get_status (HrPicker *self)
{
  g_return_val_if_fail (HR_IS_PICKER (self), NULL);
  return self->status;
}

/* Whether the list is shown. */
gboolean
hr_picker_is_open (HrPicker *self)
{
  g_return_val_if_fail (HR_IS_PICKER (self), FALSE);
  return self->popover != NULL && gtk_widget_get_visible (GTK_WIDGET (self->popover));
}

/**
 * hr_picker_set_no_match:
 * @text: what the list says when the search finds nothing
 */
void
hr_picker_set_no_match (HrPicker   *self,
                        const char *text)
{
  g_return_if_fail (HR_IS_PICKER (self));
  g_return_if_fail (text != NULL);

  g_free (self->no_match);
  self->no_match = g_strdup (text);
  if (self->no_match_label != NULL)
    gtk_label_set_label (self->no_match_label, text);
}

/* The list's rows (GtkListBoxRow, one per item, filtered rows hidden), or
 * %NULL before the list was first shown.  For tests. */
GtkListBox *
hr_picker_get_list (HrPicker *self)
{
  g_return_val_if_fail (HR_IS_PICKER (self), NULL);
  return self->list;
}

/* The search entry, or %NULL before the list was first shown.  For tests. */
GtkEditable *
hr_picker_get_search (HrPicker *self)
{
  g_return_val_if_fail (HR_IS_PICKER (self), NULL);
  return self->search != NULL ? GTK_EDITABLE (self->search) : NULL;
}
