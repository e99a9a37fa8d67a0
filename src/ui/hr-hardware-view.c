/* hr-hardware-view.c — the scenario on every device of the catalog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seed page's hardware compatibility table (panel P8) for every
 * device of the catalog: memory required on one device (with what stays
 * in system RAM, when layers do), its share of the
 * device, the verdict, the prompt and decode speeds, filtered by vendor and name
 * and sortable by every column.  Activating a row (Enter or a double
 * click) makes that device the calculator's.  Figures are read from the
 * HrHardwareTable rows; the view only formats them.
 *
 * Once the window knows this computer's GPU, “Fits this computer” keeps
 * the devices with at most its memory, and the detected device itself:
 * the cards this computer's can stand in for, to see the model on them.
 */

#define G_LOG_DOMAIN "hr-hardware-view"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-caption-layout.h"
#include "hr-format.h"
#include "hr-hardware-view.h"
#include "hr-text.h"
#include "hr-table-view.h"
#include "hr-ui-format.h"

typedef enum
{
  CELL_DEVICE,
  CELL_SPECS,
  CELL_REQUIRED,
  CELL_SHARE,
  CELL_VERDICT,
  CELL_PREFILL,
  CELL_DECODE,
  N_CELL_KINDS
} CellKind;

struct _HrHardwareView
{
  HrTableView parent_instance;

  /* filter state: NULL = everything */
  char *vendor;
  char **search_words;         /* casefolded */
  HrHardware *local_device;    /* this computer's, once detected */
  gboolean fits_only;

  /* template children */
  GtkLabel *caption_label;
  GtkLabel *status_label;
  GtkSearchEntry *search_entry;
  GtkDropDown *vendor_dropdown;
  GtkStringList *vendor_list;
  GtkToggleButton *fits_button;
  GtkFlowBox *filter_box;
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
  GtkColumnViewColumn *prefill_column;
  GtkColumnViewColumn *decode_column;
};

G_DEFINE_FINAL_TYPE (HrHardwareView, hr_hardware_view, HR_TYPE_TABLE_VIEW)

/* The share's text, in characters. */
#define SHARE_CHARS 6

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

/* "RTX 3090 24GB": the name without its vendor (the vendor filter and
 * the tooltip name it), so that the speed columns fit beside the
 * sidebar; bold on the current device. */
static char *
device_markup (HrHardware *hardware,
               gboolean    current)
{
  const char *name = hr_hardware_get_name (hardware);
  const char *vendor = hr_hardware_get_vendor (hardware);
  gsize vendor_len = vendor != NULL ? strlen (vendor) : 0;
  g_autofree char *escaped = NULL;

  if (vendor_len > 0 && g_str_has_prefix (name, vendor) && name[vendor_len] == ' ')
    name += vendor_len + 1;
  escaped = g_markup_escape_text (name, -1);
  if (current)
    return g_strdup_printf ("<b>%s</b>", escaped);
  return g_steal_pointer (&escaped);
}

/* "NVIDIA RTX 3090 24GB", the tooltip of the device cell. */
static char *
device_full_name (HrHardware *hardware)
{
  const char *name = hr_hardware_get_name (hardware);
  const char *vendor = hr_hardware_get_vendor (hardware);

  if (vendor == NULL || *vendor == '\0' || g_str_has_prefix (name, vendor))
    return g_strdup (name);
  return g_strdup_printf ("%s %s", vendor, name);
}

/* The speed a row shows: none where it does not run. */
static double
shown_speed (HrHardwareRow *row,
             gboolean       prefill)
{
  if (!hr_hardware_row_get_valid (row) || hr_hardware_row_get_verdict (row) == HR_VERDICT_NO_FIT)
    return 0.0;
  return prefill ? hr_hardware_row_get_prefill_tokens_per_s (row)
                 : hr_hardware_row_get_decode_tokens_per_s (row);
}

/* A model that runs with layers in system RAM: its verdict is named by
 * hr_summary_verdict_label(); the tooltip says how many layers. */
static void
update_offload_verdict (GtkWidget     *cell,
                        HrHardwareRow *row,
                        guint          units)
{
  GtkWidget *label = gtk_widget_get_last_child (cell);
  HrPlacementKind placement = hr_hardware_row_get_placement (row);
  g_autofree char *host = NULL;
  g_autofree char *tooltip = NULL;

  if (!hr_hardware_row_get_valid (row) ||
      hr_hardware_row_get_verdict (row) == HR_VERDICT_NO_FIT ||
      (placement != HR_PLACEMENT_PARTIAL && placement != HR_PLACEMENT_CPU))
    {
      hr_ui_set_cell_tooltip (label, NULL);
      return;
    }

  host = hr_format_size (hr_hardware_row_get_host_bytes (row), units);
  /* TRANSLATORS: tooltip of an offloaded row of the hardware table,
   * "27 of 49 layers on the GPU, 9.31 GiB in system RAM" */
  tooltip = g_strdup_printf (_("%u of %u layers on the GPU, %s in system RAM"),
                             hr_hardware_row_get_gpu_layers (row),
                             hr_hardware_row_get_layer_count (row), host);
  hr_ui_set_cell_tooltip (label, tooltip);
}

static void
update_cell (HrTableView *table,
             GtkWidget   *child,
             gpointer     item,
             guint        kind)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (table));
  guint units = hr_view_get_units (HR_VIEW (table));
  HrHardwareRow *row = item;
  HrHardware *hardware;
  gboolean valid;

  hardware = hr_hardware_row_get_hardware (row);
  valid = hr_hardware_row_get_valid (row);

  switch (kind)
    {
    case CELL_DEVICE:
      {
        gboolean current = calculator != NULL &&
                           hardware == hr_calculator_get_hardware (calculator);
        g_autofree char *markup = device_markup (hardware, current);
        g_autofree char *full_name = device_full_name (hardware);

        hr_table_cell_marked_update (child, markup, full_name, current, _("Current device"));
      }
      break;

    case CELL_SPECS:
      {
        g_autofree char *memory = NULL;
        g_autofree char *bandwidth = NULL;
        g_autofree char *text = NULL;

        memory = format_device_memory (hr_hardware_get_memory_bytes (hardware), units);
        bandwidth = hr_format_bandwidth (hr_hardware_get_bandwidth_gbps (hardware));
        /* TRANSLATORS: a device's memory and memory bandwidth, "24 GiB · 936 GB/s" */
        text = g_strdup_printf (_("%s · %s"), memory, bandwidth);
        hr_ui_inscription_set_text (GTK_INSCRIPTION (child), text);
      }
      break;

    case CELL_REQUIRED:
      {
        g_autofree char *text = NULL;
        guint64 on_device = hr_hardware_row_get_required_bytes (row);
        guint64 in_ram = hr_hardware_row_get_host_bytes (row);
        g_autofree char *tooltip = NULL;

        /* Layers in system RAM: the whole set-up, not only what sits on
         * the GPU (which the Share column measures) */
        if (!valid)
          text = g_strdup ("—");
        else if (in_ram > 0)
          {
            g_autofree char *device_text = hr_format_size (on_device, units);
            g_autofree char *ram_text = hr_format_size (in_ram, units);

            text = hr_format_size (on_device + in_ram, units);
            /* TRANSLATORS: tooltip of the Required cell, "11.71 GiB on
             * the device, 48.30 GiB in system RAM" */
            tooltip = g_strdup_printf (_("%s on the device, %s in system RAM"),
                                       device_text, ram_text);
          }
        else
          text = hr_format_size (on_device, units);
        hr_ui_inscription_set_text (GTK_INSCRIPTION (child), text);
        hr_ui_set_cell_tooltip (child, tooltip);
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
        hr_table_cell_set_verdict_class (bar, hr_hardware_row_get_verdict (row),
                                         valid &&
                                         hr_hardware_row_get_verdict (row) != HR_VERDICT_COMFORTABLE);
        hr_ui_inscription_set_text (GTK_INSCRIPTION (label), text);
      }
      break;

    case CELL_VERDICT:
      hr_table_cell_verdict_update (child, hr_hardware_row_get_verdict (row),
                                    hr_hardware_row_get_placement (row), valid);
      update_offload_verdict (child, row, units);
      break;

    case CELL_PREFILL:
    case CELL_DECODE:
      {
        /* What does not run has no speed; the nominal method times no
         * prompt. */
        double rate = shown_speed (row, kind == CELL_PREFILL);
        g_autofree char *text = NULL;

        /* Tokens per second, as the caption says: the unit on every
         * cell would push the last column out of an 800 px table. */
        if (rate <= 0)
          text = g_strdup ("—");
        else
          text = g_strdup_printf (kind == CELL_PREFILL ? "%.0f" : "%.1f", rate);
        hr_ui_inscription_set_text (GTK_INSCRIPTION (child), text);
        /* issue 26: the energy of a decoded token, where the device's
         * board power is known (hr-energy.h) */
        if (kind == CELL_DECODE)
          {
            double joules = rate > 0 ? hr_hardware_row_get_joules_per_token (row) : 0;
            g_autofree char *tooltip = joules > 0
                                       /* TRANSLATORS: tooltip of a decode speed in the
                                        * hardware table, "7.2 J per token at most (board
                                        * power × the GPU's busy share)" */
                                       ? g_strdup_printf (_("%.1f J per token at most (board "
                                                            "power × the GPU's busy share)"),
                                                          joules)
                                       : NULL;

            hr_ui_set_cell_tooltip (child, tooltip);
          }
      }
      break;

    case N_CELL_KINDS:
    default:
      g_assert_not_reached ();
    }
}

static GtkWidget *
create_cell (HrTableView *table,
             guint        kind)
{
  GtkWidget *child = NULL;

  switch (kind)
    {
    case CELL_DEVICE:
      /* Room for "RTX 4070 SUPER 12G…" beside the speeds; a longer name is
       * cut at its end, never mid-word in the middle, and its tooltip
       * has it in full (issue 30, polish). */
      child = hr_table_cell_marked_new (18, 30);
      break;

    case CELL_SPECS:
      child = hr_table_cell_number_new (17);
      break;

    case CELL_REQUIRED:
      child = hr_table_cell_number_new (11);
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
        /* "529 %": the sign is wider than a digit, and five
         * characters cut it to "529" */
        gtk_box_append (GTK_BOX (child), hr_table_cell_number_new (SHARE_CHARS));
      }
      break;

    case CELL_VERDICT:
      child = hr_table_cell_verdict_new ();
      break;

    case CELL_PREFILL:
      child = hr_table_cell_number_new (6);
      break;

    case CELL_DECODE:
      child = hr_table_cell_number_new (6);
      break;

    case N_CELL_KINDS:
    default:
      g_assert_not_reached ();
    }

  return child;
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

/* By the speed shown, so that rows showing none sort past the slowest. */
static int
compare_speeds (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  gboolean prefill = GPOINTER_TO_INT (user_data);
  double x = shown_speed ((HrHardwareRow *) a, prefill);
  double y = shown_speed ((HrHardwareRow *) b, prefill);

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

  if (self->fits_only && self->local_device != NULL &&
      g_strcmp0 (hr_hardware_get_id (hardware), hr_hardware_get_id (self->local_device)) != 0 &&
      hr_hardware_get_memory_bytes (hardware) > hr_hardware_get_memory_bytes (self->local_device))
    return FALSE;

  if (self->search_words == NULL)
    return TRUE;

  /* The vendor counts: "nvidia 24gb" finds NVIDIA's 24GB cards. */
  text = g_strdup_printf ("%s %s", hr_hardware_get_vendor (hardware),
                          hr_hardware_get_name (hardware));
  haystack = g_utf8_casefold (text, -1);
  for (guint i = 0; self->search_words[i] != NULL; i++)
    /* whole tokens from their start: "8gb" does not find 48GB */
    if (!hr_text_has_token_start (haystack, self->search_words[i]))
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
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  GListModel *hardware = NULL;

  if (calculator != NULL)
    hardware = hr_catalog_get_hardware (hr_calculator_get_catalog (calculator));

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
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  g_autofree char *caption = NULL;
  g_autofree char *context = NULL;
  HrModelSpec *model;
  HrPrecision *precision;
  const char *model_name;
  const char *precision_label;
  guint gpus;

  if (calculator == NULL)
    {
      gtk_label_set_text (self->caption_label, "");
      return;
    }

  model = hr_calculator_get_model (calculator);
  precision = hr_calculator_get_precision (calculator);
  model_name = model != NULL ? hr_model_spec_get_name (model) : "—";
  precision_label = precision != NULL ? hr_precision_get_label (precision) : "—";
  context = hr_format_tokens (hr_calculator_get_context (calculator));

  gpus = hr_calculator_get_gpu_count (calculator);
  if (gpus > 1)
    /* TRANSLATORS: caption above the hardware table: a model, a precision
     * (e.g. Q4_K_M), a context in tokens (e.g. 32,768) and a number of
     * GPUs of each kind that share the model */
    caption = g_strdup_printf (ngettext ("%s at %s with %s tokens of context, on %u of each "
                                         "device. Double-click a device, or press Enter on it, to use it.",
                                         "%s at %s with %s tokens of context, on %u of each "
                                         "device. Double-click a device, or press Enter on it, to use it.",
                                         gpus),
                               model_name, precision_label, context, gpus);
  else
    /* TRANSLATORS: caption above the hardware table: a model, a precision
     * (e.g. Q4_K_M) and a context in tokens (e.g. 32,768) */
    caption = g_strdup_printf (_("%s at %s with %s tokens of context, on each device. "
                                 "Double-click a device, or press Enter on it, to use it."),
                               model_name, precision_label, context);
  if (self->fits_only && self->local_device != NULL)
    {
      guint64 bytes = hr_hardware_get_memory_bytes (self->local_device);
      g_autofree char *memory = format_device_memory (bytes, hr_view_get_units (HR_VIEW (self)));
      g_autofree char *fits = NULL;
      char *with_fits;

      /* TRANSLATORS: before the caption, while "Fits this computer" is on: a
       * memory size ("12 GiB") and this computer's device ("RTX 3060 12GB") */
      fits = g_strdup_printf (_("Devices with at most %s of memory, like this computer’s %s."),
                              memory, hr_hardware_get_name (self->local_device));
      with_fits = g_strconcat (fits, " ", caption, NULL);
      g_free (caption);
      caption = with_fits;
    }
  {
    /* TRANSLATORS: after the hardware table's caption */
    g_autofree char *full = g_strdup_printf ("%s %s", caption,
                                             _("Prompt and decode speeds in tokens per "
                                               "second."));
    gtk_label_set_text (self->caption_label, full);
  }
}

static gboolean
is_empty (HrTableView *table,
          guint        n_shown)
{
  return hr_table_view_get_rows (table) != NULL && n_shown == 0;
}

static HrRowList *
create_rows (HrTableView  *table,
             HrCalculator *calculator)
{
  return HR_ROW_LIST (hr_hardware_table_new (calculator));
}

static void
attach (HrView       *view,
        HrCalculator *calculator)
{
  HR_VIEW_CLASS (hr_hardware_view_parent_class)->attach (view, calculator);
  rebuild_vendor_list (HR_HARDWARE_VIEW (view));
}

static void
refresh (HrView *view)
{
  update_caption (HR_HARDWARE_VIEW (view));
  HR_VIEW_CLASS (hr_hardware_view_parent_class)->refresh (view);
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
fits_toggled_cb (HrHardwareView  *self,
                 GtkToggleButton *button)
{
  gboolean active = gtk_toggle_button_get_active (button);

  if (self->fits_only == active)
    return;
  self->fits_only = active;
  update_filter (self);
  update_caption (self);
}

static void
column_view_activate_cb (HrHardwareView *self,
                         guint           position,
                         GtkColumnView  *column_view)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (column_view));
  g_autoptr(HrHardwareRow) row = g_list_model_get_item (model, position);

  if (row == NULL || calculator == NULL)
    return;
  hr_calculator_set_hardware (calculator, hr_hardware_row_get_hardware (row));
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

  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_HARDWARE_VIEW);

  g_clear_object (&self->filter);
  g_clear_object (&self->local_device);
  g_clear_pointer (&self->vendor, g_free);
  g_clear_pointer (&self->search_words, g_strfreev);

  G_OBJECT_CLASS (hr_hardware_view_parent_class)->dispose (object);
}

static void
hr_hardware_view_class_init (HrHardwareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  HrViewClass *view_class = HR_VIEW_CLASS (klass);
  HrTableViewClass *table_class = HR_TABLE_VIEW_CLASS (klass);

  object_class->dispose = hr_hardware_view_dispose;

  widget_class->root = hr_hardware_view_root;

  view_class->attach = attach;
  view_class->refresh = refresh;

  table_class->create_rows = create_rows;
  table_class->create_cell = create_cell;
  table_class->update_cell = update_cell;
  table_class->is_empty = is_empty;

  g_type_ensure (HR_TYPE_HARDWARE);
  g_type_ensure (HR_TYPE_HARDWARE_ROW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom_app/Headroom/"
                                               "ui/hr-hardware-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, caption_label);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, status_label);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, vendor_dropdown);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, vendor_list);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, fits_button);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, filter_box);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, stack);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, column_view);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, filter_model);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, sort_model);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, device_column);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, specs_column);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, required_column);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, share_column);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, verdict_column);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, prefill_column);
  gtk_widget_class_bind_template_child (widget_class, HrHardwareView, decode_column);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, vendor_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, fits_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, column_view_activate_cb);
}

static void
hr_hardware_view_init (HrHardwareView *self)
{
  HrTableView *table = HR_TABLE_VIEW (self);
  g_autoptr(GtkCustomSorter) specs_sorter = NULL;
  g_autoptr(GtkCustomSorter) verdict_sorter = NULL;
  g_autoptr(GtkCustomSorter) prefill_sorter = NULL;
  g_autoptr(GtkCustomSorter) decode_sorter = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  hr_caption_layout_apply (GTK_WIDGET (self->caption_label));

  /* The filter bar only wraps: Tab goes from control to control, not
   * through the flow box's own children. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->filter_box));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      gtk_widget_set_focusable (child, FALSE);
      /* A flow box child whose control is hidden (“Fits this computer”
       * before detection) would still be a Tab stop that takes no focus:
       * GtkFlowBox then keeps Tab on the control before it, and the
       * table below can never be reached by keyboard. */
      g_object_bind_property (gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (child)), "visible",
                              child, "visible", G_BINDING_SYNC_CREATE);
    }

  hr_table_view_set_cell_factory (table, self->device_column, CELL_DEVICE);
  hr_table_view_set_cell_factory (table, self->specs_column, CELL_SPECS);
  hr_table_view_set_cell_factory (table, self->required_column, CELL_REQUIRED);
  hr_table_view_set_cell_factory (table, self->share_column, CELL_SHARE);
  hr_table_view_set_cell_factory (table, self->verdict_column, CELL_VERDICT);
  hr_table_view_set_cell_factory (table, self->prefill_column, CELL_PREFILL);
  hr_table_view_set_cell_factory (table, self->decode_column, CELL_DECODE);

  specs_sorter = gtk_custom_sorter_new (compare_specs, NULL, NULL);
  gtk_column_view_column_set_sorter (self->specs_column, GTK_SORTER (specs_sorter));
  verdict_sorter = gtk_custom_sorter_new (compare_verdicts, NULL, NULL);
  gtk_column_view_column_set_sorter (self->verdict_column, GTK_SORTER (verdict_sorter));
  prefill_sorter = gtk_custom_sorter_new (compare_speeds, GINT_TO_POINTER (TRUE), NULL);
  gtk_column_view_column_set_sorter (self->prefill_column, GTK_SORTER (prefill_sorter));
  decode_sorter = gtk_custom_sorter_new (compare_speeds, GINT_TO_POINTER (FALSE), NULL);
  gtk_column_view_column_set_sorter (self->decode_column, GTK_SORTER (decode_sorter));

  self->filter = gtk_custom_filter_new (filter_row, self, NULL);
  gtk_filter_list_model_set_filter (self->filter_model, GTK_FILTER (self->filter));

  hr_table_view_set_status_label (table, self->status_label);
  hr_table_view_set_column_view (table, self->column_view, self->sort_model, self->filter_model,
                                 self->stack);
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self->column_view));
}

GtkWidget *
hr_hardware_view_new (void)
{
  return g_object_new (HR_TYPE_HARDWARE_VIEW, NULL);
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
  return HR_HARDWARE_TABLE (hr_table_view_get_rows (HR_TABLE_VIEW (self)));
}

/**
 * hr_hardware_view_set_local_device:
 * @device: (nullable): this computer's device, as detected; %NULL when
 *   none was
 *
 * Offers the “Fits this computer” filter: the devices with no more memory
 * than @device, and @device itself.
 */
void
hr_hardware_view_set_local_device (HrHardwareView *self,
                                   HrHardware     *device)
{
  g_autofree char *memory = NULL;
  g_autofree char *tooltip = NULL;

  g_return_if_fail (HR_IS_HARDWARE_VIEW (self));
  g_return_if_fail (device == NULL || HR_IS_HARDWARE (device));

  if (!g_set_object (&self->local_device, device))
    return;

  gtk_widget_set_visible (GTK_WIDGET (self->fits_button), device != NULL);
  if (device == NULL)
    {
      gtk_toggle_button_set_active (self->fits_button, FALSE);
      return;
    }

  memory = format_device_memory (hr_hardware_get_memory_bytes (device),
                                 hr_view_get_units (HR_VIEW (self)));
  tooltip = g_strdup_printf (_("Devices with at most %s of memory, like this computer’s %s."),
                             memory, hr_hardware_get_name (device));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->fits_button), tooltip);
  update_filter (self);
  update_caption (self);
}
