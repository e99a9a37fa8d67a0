/* hr-hardware-view.c — the scenario on every device of the catalog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seed page's hardware compatibility table (panel P8) for every
 * device of the catalog: memory required on one device, its share of the
 * device, the verdict and the decode speed, filtered by vendor and name
 * and sortable by every column.  Activating a row (Enter or a double
 * click) makes that device the calculator's.  Figures are read from the
 * HrHardwareTable rows; the view only formats them.
 */

#define G_LOG_DOMAIN "hr-hardware-view"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-format.h"
#include "hr-hardware-view.h"
#include "hr-ui-format.h"

typedef enum
{
  CELL_DEVICE,
  CELL_SPECS,
  CELL_REQUIRED,
  CELL_SHARE,
  CELL_VERDICT,
  CELL_DECODE,
  N_CELL_KINDS
} CellKind;

struct _HrHardwareView
{
  AdwBin parent_instance;

  HrCalculator *calculator;
  HrHardwareTable *table;
  guint units;

  /* GtkListItem → CellKind, for every cell currently bound */
  GHashTable *bound_cells;

  /* filter state: NULL = everything */
  char *vendor;
  char **search_words;         /* casefolded */

  /* template children */
  GtkLabel *caption_label;
  GtkSearchEntry *search_entry;
  GtkDropDown *vendor_dropdown;
  GtkStringList *vendor_list;
  GtkStack *stack;
  GtkColumnView *column_view;
  GtkFilterListModel *filter_model;
  GtkSortListModel *sort_model;
  GtkCustomFilter *filter;
  GtkColumnViewColumn *device_column;
  GtkColumnViewColumn *specs_column;
  GtkColumnViewColumn *required_column;
  GtkColumnViewColumn *share_column;
  GtkColumnViewColumn *verdict_column;
  GtkColumnViewColumn *decode_column;
};

G_DEFINE_FINAL_TYPE (HrHardwareView, hr_hardware_view, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_CALCULATOR,
  PROP_UNITS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The share bar takes the verdict's colour.  Adwaita colours a level
 * bar's blocks by offset name only, with no error colour, hence these
 * rules; they could move to the application's style.css. */
static const char share_css[] =
  "levelbar.share.warning > trough > block.filled { background-color: @warning_bg_color; }\n"
  "levelbar.share.error > trough > block.filled { background-color: @error_bg_color; }\n";

/* "24 GiB" for the device's nominal memory, without the decimals that
 * required sizes carry. */
static char *
format_device_memory (guint64 bytes,
                      guint   units)
{
  double scale = units == HR_UNITS_DECIMAL ? HR_GB : HR_GIB;
  double value = bytes / scale;

  if (value - (guint64) value < 0.005)
    return g_strdup_printf ("%.0f\u00a0%s", value, hr_format_size_unit (units));
  return hr_format_size (bytes, units);
}

/* "NVIDIA RTX 3090 24GB" with the vendor dimmed; names that already
 * start with the vendor ("Apple M2 Max 64GB") dim that word instead. */
static char *
device_markup (HrHardware *hardware,
               gboolean    current)
{
  const char *name = hr_hardware_get_name (hardware);
  const char *vendor = hr_hardware_get_vendor (hardware);
  gsize vendor_len = vendor != NULL ? strlen (vendor) : 0;
  g_autofree char *escaped_vendor = NULL;
  g_autofree char *escaped_name = NULL;
  g_autofree char *markup = NULL;

  if (vendor_len > 0 && g_str_has_prefix (name, vendor) && name[vendor_len] == ' ')
    name += vendor_len + 1;

  escaped_vendor = g_markup_escape_text (vendor != NULL ? vendor : "", -1);
  escaped_name = g_markup_escape_text (name, -1);
  if (vendor_len > 0)
    markup = g_strdup_printf ("<span alpha=\"55%%\">%s</span> %s", escaped_vendor, escaped_name);
  else
    markup = g_steal_pointer (&escaped_name);

  if (current)
    return g_strdup_printf ("<b>%s</b>", markup);
  return g_steal_pointer (&markup);
}

static void
set_verdict_class (GtkWidget *widget,
                   HrVerdict  verdict,
                   gboolean   valid)
{
  g_autofree char *css_class = hr_ui_verdict_css_class (NULL, verdict);

  hr_ui_set_state_class (widget, valid ? css_class : NULL);
}

static void
update_cell (HrHardwareView *self,
             GtkListItem    *list_item,
             CellKind        kind)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);
  HrHardwareRow *row = gtk_list_item_get_item (list_item);
  HrHardware *hardware;
  gboolean valid;

  if (row == NULL)
    return;

  hardware = hr_hardware_row_get_hardware (row);
  valid = hr_hardware_row_get_valid (row);

  switch (kind)
    {
    case CELL_DEVICE:
      {
        GtkWidget *icon = gtk_widget_get_first_child (child);
        GtkWidget *name = gtk_widget_get_next_sibling (icon);
        gboolean current = self->calculator != NULL &&
                           hardware == hr_calculator_get_hardware (self->calculator);
        g_autofree char *markup = device_markup (hardware, current);

        hr_ui_inscription_set_markup (GTK_INSCRIPTION (name), markup);
        /* In full when the column is too narrow for it. */
        hr_ui_set_cell_tooltip (name, hr_hardware_get_name (hardware));
        /* The icon keeps its place on every row so that names align. */
        gtk_widget_set_opacity (icon, current ? 1.0 : 0.0);
        hr_ui_set_cell_tooltip (icon, current ? _("Current device") : NULL);
      }
      break;

    case CELL_SPECS:
      {
        g_autofree char *memory = NULL;
        g_autofree char *bandwidth = NULL;
        g_autofree char *text = NULL;

        memory = format_device_memory (hr_hardware_get_memory_bytes (hardware), self->units);
        bandwidth = hr_format_bandwidth (hr_hardware_get_bandwidth_gbps (hardware));
        /* TRANSLATORS: a device's memory and memory bandwidth, "24 GiB · 936 GB/s" */
        text = g_strdup_printf (_("%s · %s"), memory, bandwidth);
        hr_ui_inscription_set_text (GTK_INSCRIPTION (child), text);
      }
      break;

    case CELL_REQUIRED:
      {
        g_autofree char *text = NULL;

        text = valid ? hr_format_size (hr_hardware_row_get_required_bytes (row), self->units)
                     : g_strdup ("—");
        hr_ui_inscription_set_text (GTK_INSCRIPTION (child), text);
      }
      break;

    case CELL_SHARE:
      {
        GtkWidget *bar = gtk_widget_get_first_child (child);
        GtkWidget *label = gtk_widget_get_next_sibling (bar);
        double share = hr_hardware_row_get_share (row);
        g_autofree char *text = NULL;

        text = valid ? hr_format_percent (share, 0) : g_strdup ("—");
        gtk_level_bar_set_value (GTK_LEVEL_BAR (bar), valid ? CLAMP (share, 0.0, 1.0) : 0.0);
        /* the bar keeps Adwaita's accent colour while it fits comfortably */
        set_verdict_class (bar, hr_hardware_row_get_verdict (row),
                           valid && hr_hardware_row_get_verdict (row) != HR_VERDICT_COMFORTABLE);
        hr_ui_inscription_set_text (GTK_INSCRIPTION (label), text);
      }
      break;

    case CELL_VERDICT:
      {
        GtkWidget *icon = gtk_widget_get_first_child (child);
        GtkWidget *label = gtk_widget_get_next_sibling (icon);
        HrVerdict verdict = hr_hardware_row_get_verdict (row);
        g_autofree char *icon_name = hr_ui_verdict_icon (NULL, verdict);
        g_autofree char *text = NULL;

        text = valid ? hr_ui_format_verdict (NULL, verdict) : g_strdup (_("Cannot estimate"));
        hr_ui_image_set_icon_name (GTK_IMAGE (icon), valid ? icon_name : NULL);
        hr_ui_inscription_set_text (GTK_INSCRIPTION (label), text);
        set_verdict_class (child, verdict, valid);
      }
      break;

    case CELL_DECODE:
      {
        g_autofree char *text = NULL;

        text = valid ? hr_format_rate (hr_hardware_row_get_decode_tokens_per_s (row))
                     : g_strdup ("—");
        hr_ui_inscription_set_text (GTK_INSCRIPTION (child), text);
      }
      break;

    case N_CELL_KINDS:
    default:
      g_assert_not_reached ();
    }
}

static void
update_all_cells (HrHardwareView *self)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->bound_cells);
  while (g_hash_table_iter_next (&iter, &key, &value))
    update_cell (self, key, GPOINTER_TO_UINT (value));
}

static GtkWidget *
number_inscription_new (int chars)
{
  GtkWidget *inscription = gtk_inscription_new (NULL);

  g_object_set (inscription, "min-chars", chars, "nat-chars", chars, "xalign", 1.0f, NULL);
  gtk_widget_add_css_class (inscription, "numeric");
  return inscription;
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               HrHardwareView           *self)
{
  CellKind kind = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "hr-cell"));
  GtkWidget *child = NULL;

  switch (kind)
    {
    case CELL_DEVICE:
      {
        GtkWidget *icon = gtk_image_new_from_icon_name ("object-select-symbolic");
        GtkWidget *name = gtk_inscription_new (NULL);

        child = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
        g_object_set (name,
                      "hexpand", TRUE,
                      "min-chars", 26,
                      "nat-chars", 30,
                      "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END,
                      NULL);
        gtk_box_append (GTK_BOX (child), icon);
        gtk_box_append (GTK_BOX (child), name);
      }
      break;

    case CELL_SPECS:
      child = number_inscription_new (17);
      break;

    case CELL_REQUIRED:
      child = number_inscription_new (11);
      break;

    case CELL_SHARE:
      {
        GtkWidget *bar = gtk_level_bar_new_for_interval (0.0, 1.0);

        /* Coloured by verdict, not by Adwaita's low/high/full offsets. */
        gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_LOW);
        gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_HIGH);
        gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_FULL);
        gtk_widget_add_css_class (bar, "share");
        gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
        gtk_widget_set_hexpand (bar, TRUE);
        gtk_widget_set_size_request (bar, 36, -1);

        child = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
        gtk_box_append (GTK_BOX (child), bar);
        gtk_box_append (GTK_BOX (child), number_inscription_new (5));
      }
      break;

    case CELL_VERDICT:
      {
        GtkWidget *label = gtk_inscription_new (NULL);

        g_object_set (label,
                      "hexpand", TRUE,
                      "min-chars", 17,
                      "nat-chars", 17,
                      "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END,
                      NULL);
        child = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
        gtk_box_append (GTK_BOX (child), gtk_image_new ());
        gtk_box_append (GTK_BOX (child), label);
      }
      break;

    case CELL_DECODE:
      child = number_inscription_new (11);
      break;

    case N_CELL_KINDS:
    default:
      g_assert_not_reached ();
    }

  gtk_list_item_set_child (list_item, child);
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              HrHardwareView           *self)
{
  CellKind kind = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "hr-cell"));

  g_hash_table_insert (self->bound_cells, list_item, GUINT_TO_POINTER (kind));
  update_cell (self, list_item, kind);
}

static void
unbind_cell_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                HrHardwareView           *self)
{
  g_hash_table_remove (self->bound_cells, list_item);
}

static void
set_cell_factory (HrHardwareView      *self,
                  GtkColumnViewColumn *column,
                  CellKind             kind)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  g_object_set_data (G_OBJECT (factory), "hr-cell", GUINT_TO_POINTER (kind));
  g_signal_connect_object (factory, "setup", G_CALLBACK (setup_cell_cb), self, 0);
  g_signal_connect_object (factory, "bind", G_CALLBACK (bind_cell_cb), self, 0);
  g_signal_connect_object (factory, "unbind", G_CALLBACK (unbind_cell_cb), self, 0);
  gtk_column_view_column_set_factory (column, factory);
}

/* Memory first, then bandwidth. */
static int
compare_specs (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  HrHardware *x = hr_hardware_row_get_hardware ((HrHardwareRow *) a);
  HrHardware *y = hr_hardware_row_get_hardware ((HrHardwareRow *) b);
  guint64 x_memory = hr_hardware_get_memory_bytes (x);
  guint64 y_memory = hr_hardware_get_memory_bytes (y);
  double x_bandwidth, y_bandwidth;

  if (x_memory != y_memory)
    return x_memory < y_memory ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;

  x_bandwidth = hr_hardware_get_bandwidth_gbps (x);
  y_bandwidth = hr_hardware_get_bandwidth_gbps (y);
  return (x_bandwidth > y_bandwidth) - (x_bandwidth < y_bandwidth);
}

/* Fits comfortably, then tight, then does not fit. */
static int
compare_verdicts (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  HrVerdict x = hr_hardware_row_get_verdict ((HrHardwareRow *) a);
  HrVerdict y = hr_hardware_row_get_verdict ((HrHardwareRow *) b);

  return (x > y) - (x < y);
}

static gboolean
filter_row (gpointer item,
            gpointer user_data)
{
  HrHardwareView *self = user_data;
  HrHardware *hardware = hr_hardware_row_get_hardware (item);
  g_autofree char *haystack = NULL;
  g_autofree char *text = NULL;

  if (self->vendor != NULL && g_strcmp0 (self->vendor, hr_hardware_get_vendor (hardware)) != 0)
    return FALSE;

  if (self->search_words == NULL)
    return TRUE;

  /* The vendor counts: "nvidia 24gb" finds NVIDIA's 24GB cards. */
  text = g_strdup_printf ("%s %s", hr_hardware_get_vendor (hardware),
                          hr_hardware_get_name (hardware));
  haystack = g_utf8_casefold (text, -1);
  for (guint i = 0; self->search_words[i] != NULL; i++)
    if (strstr (haystack, self->search_words[i]) == NULL)
      return FALSE;
  return TRUE;
}

static void
update_filter (HrHardwareView *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/* The vendors of the catalog, in catalog order, after "All vendors". */
static void
rebuild_vendor_list (HrHardwareView *self)
{
  g_autoptr(GPtrArray) vendors = g_ptr_array_new ();
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (self->vendor_list));
  GListModel *hardware = NULL;

  if (self->calculator != NULL)
    hardware = hr_catalog_get_hardware (hr_calculator_get_catalog (self->calculator));

  for (guint i = 0; hardware != NULL && i < g_list_model_get_n_items (hardware); i++)
    {
      g_autoptr(HrHardware) device = g_list_model_get_item (hardware, i);
      const char *vendor = hr_hardware_get_vendor (device);

      if (vendor != NULL && *vendor != '\0' &&
          !g_ptr_array_find_with_equal_func (vendors, vendor, g_str_equal, NULL))
        g_ptr_array_add (vendors, (gpointer) vendor);
    }
  g_ptr_array_add (vendors, NULL);

  /* Keeps "All vendors" at position 0. */
  g_return_if_fail (n_items > 0);
  gtk_string_list_splice (self->vendor_list, 1, n_items - 1,
                          (const char * const *) vendors->pdata);
  gtk_drop_down_set_selected (self->vendor_dropdown, 0);
}

static void
update_caption (HrHardwareView *self)
{
  g_autofree char *caption = NULL;
  g_autofree char *context = NULL;
  HrModelSpec *model;
  HrPrecision *precision;
  const char *model_name;
  const char *precision_label;
  guint gpus;

  if (self->calculator == NULL)
    {
      gtk_label_set_text (self->caption_label, "");
      return;
    }

  model = hr_calculator_get_model (self->calculator);
  precision = hr_calculator_get_precision (self->calculator);
  model_name = model != NULL ? hr_model_spec_get_name (model) : "—";
  precision_label = precision != NULL ? hr_precision_get_label (precision) : "—";
  context = hr_format_tokens (hr_calculator_get_context (self->calculator));

  gpus = hr_calculator_get_gpu_count (self->calculator);
  if (gpus > 1)
    /* TRANSLATORS: caption above the hardware table: a model, a precision
     * (e.g. Q4_K_M), a context in tokens (e.g. 32,768) and a number of
     * GPUs of each kind that share the model */
    caption = g_strdup_printf (ngettext ("%s at %s with %s tokens of context, on %u of each "
                                         "device. Double-click a device to use it.",
                                         "%s at %s with %s tokens of context, on %u of each "
                                         "device. Double-click a device to use it.",
                                         gpus),
                               model_name, precision_label, context, gpus);
  else
    /* TRANSLATORS: caption above the hardware table: a model, a precision
     * (e.g. Q4_K_M) and a context in tokens (e.g. 32,768) */
    caption = g_strdup_printf (_("%s at %s with %s tokens of context, on each device. "
                                 "Double-click a device to use it."),
                               model_name, precision_label, context);
  gtk_label_set_text (self->caption_label, caption);
}

static void
update_empty_state (HrHardwareView *self)
{
  gboolean empty = self->table != NULL &&
                   g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)) == 0;

  gtk_stack_set_visible_child_name (self->stack, empty ? "empty" : "table");
}

/* The model updated its rows in place: show the new values and re-sort,
 * without rebinding rows (which would cost milliseconds per step). */
static void
model_refreshed_cb (HrHardwareView *self)
{
  GtkSorter *sorter = gtk_column_view_get_sorter (self->column_view);

  update_all_cells (self);
  /* Unsorted, a re-sort would only rebind every row. */
  if (sorter != NULL && gtk_sorter_get_order (sorter) != GTK_SORTER_ORDER_NONE)
    gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);
}

static void
table_items_changed_cb (HrHardwareView *self,
                        guint           position,
                        guint           removed,
                        guint           added,
                        GListModel     *model)
{
  /* Rows are updated in place: the column view may keep the same
   * widgets for the same items, so refresh what they show. */
  update_all_cells (self);
}

static void
calculator_changed_cb (HrHardwareView *self)
{
  update_caption (self);
}

static void
search_changed_cb (HrHardwareView *self,
                   GtkSearchEntry *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autofree char *folded = g_utf8_casefold (text, -1);

  g_clear_pointer (&self->search_words, g_strfreev);
  g_strstrip (folded);
  if (*folded != '\0')
    self->search_words = g_regex_split_simple ("\\s+", folded, 0, 0);
  update_filter (self);
}

static void
stop_search_cb (HrHardwareView *self,
                GtkSearchEntry *entry)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
}

static void
vendor_selected_cb (HrHardwareView *self,
                    GParamSpec     *pspec,
                    GtkDropDown    *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  g_clear_pointer (&self->vendor, g_free);
  if (selected != GTK_INVALID_LIST_POSITION && selected > 0)
    self->vendor = g_strdup (gtk_string_list_get_string (self->vendor_list, selected));
  update_filter (self);
}

static void
filter_items_changed_cb (HrHardwareView *self)
{
  update_empty_state (self);
}

static void
column_view_activate_cb (HrHardwareView *self,
                         guint           position,
                         GtkColumnView  *column_view)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (column_view));
  g_autoptr(HrHardwareRow) row = g_list_model_get_item (model, position);

  if (row == NULL || self->calculator == NULL)
    return;
  hr_calculator_set_hardware (self->calculator, hr_hardware_row_get_hardware (row));
}

static void
hr_hardware_view_root (GtkWidget *widget)
{
  static GdkDisplay *styled_display;

  GTK_WIDGET_CLASS (hr_hardware_view_parent_class)->root (widget);

  /* Once per display (in practice, once). */
  if (styled_display != gtk_widget_get_display (widget))
    {
      g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

      styled_display = gtk_widget_get_display (widget);
      gtk_css_provider_load_from_data (provider, share_css, -1);
      gtk_style_context_add_provider_for_display (styled_display, GTK_STYLE_PROVIDER (provider),
                                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    }
}

static void
hr_hardware_view_dispose (GObject *object)
{
  HrHardwareView *self = HR_HARDWARE_VIEW (object);

  if (self->table != NULL)
    g_signal_handlers_disconnect_by_data (self->table, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_HARDWARE_VIEW);

  g_clear_pointer (&self->bound_cells, g_hash_table_unref);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->vendor, g_free);
  g_clear_pointer (&self->search_words, g_strfreev);
  g_clear_object (&self->table);
  g_clear_object (&self->calculator);

  G_OBJECT_CLASS (hr_hardware_view_parent_class)->dispose (object);
}

static void
hr_hardware_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  HrHardwareView *self = HR_HARDWARE_VIEW (object);

  switch (prop_id)
    {
    case PROP_CALCULATOR:
      g_value_set_object (value, self->calculator);
      break;
    case PROP_UNITS:
      g_value_set_uint (value, self->units);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_hardware_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  HrHardwareView *self = HR_HARDWARE_VIEW (object);

  switch (prop_id)
    {
    case PROP_CALCULATOR:
      hr_hardware_view_set_calculator (self, g_value_get_object (value));
      break;
    case PROP_UNITS:
      hr_hardware_view_set_units (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_hardware_view_class_init (HrHardwareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_hardware_view_dispose;
  object_class->get_property = hr_hardware_view_get_property;
  object_class->set_property = hr_hardware_view_set_property;

  widget_class->root = hr_hardware_view_root;

  properties[PROP_CALCULATOR] =
    g_param_spec_object ("calculator", NULL, NULL,
                         HR_TYPE_CALCULATOR,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNITS] =
    g_param_spec_uint ("units", NULL, "0 = GiB, 1 = GB",
                       HR_UNITS_BINARY, HR_UNITS_DECIMAL, HR_UNITS_BINARY,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (HR_TYPE_HARDWARE);
  g_type_ensure (HR_TYPE_HARDWARE_ROW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom_app/Headroom/"
                                               "ui/hr-hardware-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, caption_label);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, vendor_dropdown);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, vendor_list);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, stack);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, column_view);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, filter_model);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, sort_model);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, device_column);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, specs_column);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, required_column);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, share_column);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, verdict_column);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, decode_column);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, vendor_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_items_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, column_view_activate_cb);
}

static void
hr_hardware_view_init (HrHardwareView *self)
{
  g_autoptr(GtkCustomSorter) specs_sorter = NULL;
  g_autoptr(GtkCustomSorter) verdict_sorter = NULL;

  self->bound_cells = g_hash_table_new (NULL, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));

  set_cell_factory (self, self->device_column, CELL_DEVICE);
  set_cell_factory (self, self->specs_column, CELL_SPECS);
  set_cell_factory (self, self->required_column, CELL_REQUIRED);
  set_cell_factory (self, self->share_column, CELL_SHARE);
  set_cell_factory (self, self->verdict_column, CELL_VERDICT);
  set_cell_factory (self, self->decode_column, CELL_DECODE);

  specs_sorter = gtk_custom_sorter_new (compare_specs, NULL, NULL);
  gtk_column_view_column_set_sorter (self->specs_column, GTK_SORTER (specs_sorter));
  verdict_sorter = gtk_custom_sorter_new (compare_verdicts, NULL, NULL);
  gtk_column_view_column_set_sorter (self->verdict_column, GTK_SORTER (verdict_sorter));

  self->filter = gtk_custom_filter_new (filter_row, self, NULL);
  gtk_filter_list_model_set_filter (self->filter_model, GTK_FILTER (self->filter));

  gtk_sort_list_model_set_sorter (self->sort_model, gtk_column_view_get_sorter (self->column_view));
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self->column_view));
}

GtkWidget *
hr_hardware_view_new (void)
{
  return g_object_new (HR_TYPE_HARDWARE_VIEW, NULL);
}

HrCalculator *
hr_hardware_view_get_calculator (HrHardwareView *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE_VIEW (self), NULL);
  return self->calculator;
}

/**
 * hr_hardware_view_set_calculator:
 * @calculator: (nullable): the calculator to follow
 *
 * Creates a hardware table for @calculator and shows it.
 */
void
hr_hardware_view_set_calculator (HrHardwareView *self,
                                 HrCalculator   *calculator)
{
  g_return_if_fail (HR_IS_HARDWARE_VIEW (self));
  g_return_if_fail (calculator == NULL || HR_IS_CALCULATOR (calculator));

  if (self->calculator == calculator)
    return;

  if (self->table != NULL)
    g_signal_handlers_disconnect_by_data (self->table, self);
  if (self->calculator != NULL)
    g_signal_handlers_disconnect_by_data (self->calculator, self);
  gtk_filter_list_model_set_model (self->filter_model, NULL);
  g_clear_object (&self->table);
  g_set_object (&self->calculator, calculator);

  if (calculator != NULL)
    {
      g_signal_connect_object (calculator, "changed",
                               G_CALLBACK (calculator_changed_cb), self, G_CONNECT_SWAPPED);
      self->table = hr_hardware_table_new (calculator);
      g_signal_connect_object (self->table, "items-changed",
                               G_CALLBACK (table_items_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->table, "refreshed",
                               G_CALLBACK (model_refreshed_cb), self, G_CONNECT_SWAPPED);
    }

  rebuild_vendor_list (self);
  update_caption (self);
  gtk_filter_list_model_set_model (self->filter_model, G_LIST_MODEL (self->table));
  update_empty_state (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CALCULATOR]);
}

guint
hr_hardware_view_get_units (HrHardwareView *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE_VIEW (self), HR_UNITS_BINARY);
  return self->units;
}

void
hr_hardware_view_set_units (HrHardwareView *self,
                            guint           units)
{
  g_return_if_fail (HR_IS_HARDWARE_VIEW (self));
  g_return_if_fail (units <= HR_UNITS_DECIMAL);

  if (self->units == units)
    return;

  self->units = units;
  update_all_cells (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNITS]);
}

/**
 * hr_hardware_view_get_table:
 *
 * Returns: (transfer none) (nullable): the table shown, for the CSV export
 */
HrHardwareTable *
hr_hardware_view_get_table (HrHardwareView *self)
{
  g_return_val_if_fail (HR_IS_HARDWARE_VIEW (self), NULL);
  return self->table;
}
