/* hr-memory-chart.c — the stacked memory bar of the Overview
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One device's memory as a stacked bar — weights, KV cache, overhead and
 * what is left of the usable memory — against the device's memory, with
 * a marker at the usable limit and a legend underneath.  The inputs are
 * plain properties so that the window binds them to the calculator's
 * per-device outputs; drawing is hr_chart_render(), colours are named CSS
 * colours so that dark mode and the app's stylesheet are followed.
 */

#define G_LOG_DOMAIN "hr-memory-chart"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-chart-bars.h"
#include "hr-memory-chart.h"

/* Narrow enough for the Overview of an 800 × 600 window. */
#define NATURAL_WIDTH 360

struct _HrMemoryChart
{
  GtkWidget parent_instance;

  HrChartData data;        /* bytes, colours and units as drawn */
  guint64 device_bytes;
  char *description;

  /* One bar per device instead, when set (hr_memory_chart_set_bars()). */
  HrChartBar bars[HR_CHART_MAX_BARS];
  guint n_bars;
};

G_DEFINE_FINAL_TYPE (HrMemoryChart, hr_memory_chart, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_WEIGHTS_BYTES,
  PROP_KV_BYTES,
  PROP_STATE_BYTES,
  PROP_OVERHEAD_BYTES,
  PROP_USABLE_BYTES,
  PROP_DEVICE_BYTES,
  PROP_UNITS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
hr_memory_chart_update (HrMemoryChart *self)
{
  self->data.capacity_bytes = self->device_bytes;

  g_free (self->description);
  self->description = self->n_bars > 0
                      ? hr_chart_bars_describe (&self->data, self->bars, self->n_bars)
                      : hr_chart_describe (&self->data);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  self->description,
                                  -1);

  /* The legend is sized for the widest value it could show, so this
   * rarely changes the size; but a terabyte would not fit. */
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
set_bytes (HrMemoryChart *self,
           guint64       *field,
           guint64        value,
           guint          prop_id)
{
  if (*field == value)
    return;

  *field = value;
  hr_memory_chart_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

static void
to_chart_color (HrChartColor  *color,
                const GdkRGBA *rgba,
                double         alpha)
{
  *color = (HrChartColor) { rgba->red, rgba->green, rgba->blue,
                            rgba->alpha * alpha };
}

G_GNUC_BEGIN_IGNORE_DEPRECATIONS

/* The app's own colour if its stylesheet defines one, else libadwaita's
 * named colours; FALSE if none is defined (plain GTK). */
static gboolean
lookup_color (GtkStyleContext *context,
              const char      *app_name,
              const char      *fallback,
              const char      *second_fallback,
              GdkRGBA         *rgba)
{
  const char *names[] = { app_name, fallback, second_fallback };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      if (names[i] != NULL && gtk_style_context_lookup_color (context, names[i], rgba))
        return TRUE;
    }

  return FALSE;
}

static void
hr_memory_chart_update_colors (HrMemoryChart *self)
{
  /* gtk_style_context_lookup_color() is the GTK 4.8 way to read named
   * colours; it is deprecated from 4.10 without a replacement for them. */
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));
  HrChartData *data = &self->data;
  GdkRGBA fg;
  GdkRGBA rgba;

  gtk_style_context_get_color (context, &fg);
  to_chart_color (&data->text, &fg, 1.0);

  /* Without a named colour, shades of the text colour still tell the
   * parts apart. */
  if (lookup_color (context, "hr_weights_color", "accent_bg_color", NULL, &rgba))
    to_chart_color (&data->weights, &rgba, 1.0);
  else
    to_chart_color (&data->weights, &fg, 0.8);

  if (lookup_color (context, "hr_kv_color", "purple_3", "success_bg_color", &rgba))
    to_chart_color (&data->kv, &rgba, 1.0);
  else
    to_chart_color (&data->kv, &fg, 0.6);

  if (lookup_color (context, "hr_state_color", "green_3", "success_bg_color", &rgba))
    to_chart_color (&data->state, &rgba, 1.0);
  else
    to_chart_color (&data->state, &fg, 0.5);

  if (lookup_color (context, "hr_overhead_color", "warning_bg_color", NULL, &rgba))
    to_chart_color (&data->overhead, &rgba, 1.0);
  else
    to_chart_color (&data->overhead, &fg, 0.4);

  if (lookup_color (context, "hr_overflow_color", "error_bg_color", NULL, &rgba))
    to_chart_color (&data->overflow, &rgba, 1.0);
  else
    to_chart_color (&data->overflow, &fg, 1.0);

  if (lookup_color (context, "hr_free_color", NULL, NULL, &rgba))
    to_chart_color (&data->free_, &rgba, 1.0);
  else
    to_chart_color (&data->free_, &fg, 0.12);

  if (lookup_color (context, "hr_track_color", NULL, NULL, &rgba))
    to_chart_color (&data->track, &rgba, 1.0);
  else
    to_chart_color (&data->track, &fg, 0.04);

  if (lookup_color (context, "hr_limit_color", NULL, NULL, &rgba))
    to_chart_color (&data->limit, &rgba, 1.0);
  else
    to_chart_color (&data->limit, &fg, 0.8);
}

G_GNUC_END_IGNORE_DEPRECATIONS

static void
hr_memory_chart_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  HrMemoryChart *self = HR_MEMORY_CHART (widget);

  GTK_WIDGET_CLASS (hr_memory_chart_parent_class)->css_changed (widget, change);

  /* The parent queued a resize if the font changed; named colours are
   * not properties of this widget, so redraw for them (dark mode). */
  hr_memory_chart_update_colors (self);
  gtk_widget_queue_draw (widget);
}

static GtkSizeRequestMode
hr_memory_chart_get_request_mode (GtkWidget *widget G_GNUC_UNUSED)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
hr_memory_chart_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline G_GNUC_UNUSED,
                         int            *natural_baseline G_GNUC_UNUSED)
{
  HrMemoryChart *self = HR_MEMORY_CHART (widget);
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  int min_width;

  if (self->n_bars > 0)
    {
      min_width = (int) hr_chart_bars_get_min_width (layout, &self->data, self->bars,
                                                     self->n_bars);
      if (orientation == GTK_ORIENTATION_HORIZONTAL)
        {
          *minimum = min_width;
          *natural = MAX (min_width, NATURAL_WIDTH);
        }
      else
        *minimum = *natural =
          (int) hr_chart_bars_get_height (layout, &self->data, self->bars, self->n_bars,
                                          for_size >= 0 ? MAX (for_size, min_width)
                                                        : min_width);
      return;
    }

  min_width = (int) hr_chart_get_min_width (layout, &self->data);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = min_width;
      *natural = MAX (min_width, NATURAL_WIDTH);
    }
  else
    {
      int width = for_size >= 0 ? MAX (for_size, min_width) : min_width;

      *minimum = *natural =
        (int) hr_chart_get_height_for_width (layout, &self->data, width);
    }
}

static void
hr_memory_chart_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  HrMemoryChart *self = HR_MEMORY_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) layout = NULL;
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;

  layout = gtk_widget_create_pango_layout (widget, NULL);
  cr = gtk_snapshot_append_cairo (snapshot,
                                  &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->n_bars > 0)
    hr_chart_bars_render (cr, layout, &self->data, self->bars, self->n_bars, width, height);
  else
    hr_chart_render (cr, layout, &self->data, width, height);
  cairo_destroy (cr);
}

static gboolean
hr_memory_chart_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard_mode,
                               GtkTooltip *tooltip)
{
  HrMemoryChart *self = HR_MEMORY_CHART (widget);
  g_autoptr(PangoLayout) layout = NULL;
  g_autofree char *text = NULL;
  double bar_y, bar_height;
  HrChartPart part;

  if (keyboard_mode)
    return FALSE;

  layout = gtk_widget_create_pango_layout (widget, NULL);
  if (self->n_bars > 0)
    {
      int width = gtk_widget_get_width (widget);
      int bar = hr_chart_bars_bar_at (layout, &self->data, self->bars, self->n_bars,
                                      width, y);
      HrChartData data;

      if (bar < 0)
        return FALSE;
      hr_chart_bars_data (&self->data, &self->bars[bar], &data);
      part = hr_chart_part_at (&data, width, x);
      text = hr_chart_bars_describe_part (&self->data, &self->bars[bar], part);
      if (text == NULL)
        return FALSE;
      gtk_tooltip_set_text (tooltip, text);
      return TRUE;
    }

  hr_chart_get_bar_area (layout, gtk_widget_get_height (widget),
                         &bar_y, &bar_height);
  if (y < bar_y || y >= bar_y + bar_height)
    return FALSE;

  part = hr_chart_part_at (&self->data, gtk_widget_get_width (widget), x);
  text = hr_chart_describe_part (&self->data, part);
  if (text == NULL)
    return FALSE;

  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
hr_memory_chart_finalize (GObject *object)
{
  HrMemoryChart *self = HR_MEMORY_CHART (object);

  g_clear_pointer (&self->description, g_free);
  for (guint i = 0; i < self->n_bars; i++)
    g_free (self->bars[i].name);

  G_OBJECT_CLASS (hr_memory_chart_parent_class)->finalize (object);
}

static void
hr_memory_chart_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  HrMemoryChart *self = HR_MEMORY_CHART (object);

  switch (prop_id)
    {
    case PROP_WEIGHTS_BYTES:
      g_value_set_uint64 (value, self->data.weights_bytes);
      break;

    case PROP_KV_BYTES:
      g_value_set_uint64 (value, self->data.kv_bytes);
      break;
    case PROP_STATE_BYTES:
      g_value_set_uint64 (value, self->data.state_bytes);
      break;

    case PROP_OVERHEAD_BYTES:
      g_value_set_uint64 (value, self->data.overhead_bytes);
      break;

    case PROP_USABLE_BYTES:
      g_value_set_uint64 (value, self->data.usable_bytes);
      break;

    case PROP_DEVICE_BYTES:
      g_value_set_uint64 (value, self->device_bytes);
      break;

    case PROP_UNITS:
      g_value_set_uint (value, self->data.units);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_memory_chart_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  HrMemoryChart *self = HR_MEMORY_CHART (object);

  switch (prop_id)
    {
    case PROP_WEIGHTS_BYTES:
      hr_memory_chart_set_weights_bytes (self, g_value_get_uint64 (value));
      break;

    case PROP_KV_BYTES:
      hr_memory_chart_set_kv_bytes (self, g_value_get_uint64 (value));
      break;
    case PROP_STATE_BYTES:
      set_bytes (self, &self->data.state_bytes, g_value_get_uint64 (value), PROP_STATE_BYTES);
      break;

    case PROP_OVERHEAD_BYTES:
      hr_memory_chart_set_overhead_bytes (self, g_value_get_uint64 (value));
      break;

    case PROP_USABLE_BYTES:
      hr_memory_chart_set_usable_bytes (self, g_value_get_uint64 (value));
      break;

    case PROP_DEVICE_BYTES:
      hr_memory_chart_set_device_bytes (self, g_value_get_uint64 (value));
      break;

    case PROP_UNITS:
      hr_memory_chart_set_units (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_memory_chart_class_init (HrMemoryChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                      G_PARAM_STATIC_STRINGS;

  object_class->finalize = hr_memory_chart_finalize;
  object_class->get_property = hr_memory_chart_get_property;
  object_class->set_property = hr_memory_chart_set_property;

  widget_class->css_changed = hr_memory_chart_css_changed;
  widget_class->get_request_mode = hr_memory_chart_get_request_mode;
  widget_class->measure = hr_memory_chart_measure;
  widget_class->snapshot = hr_memory_chart_snapshot;
  widget_class->query_tooltip = hr_memory_chart_query_tooltip;

  properties[PROP_WEIGHTS_BYTES] =
    g_param_spec_uint64 ("weights-bytes", NULL, NULL,
                         0, G_MAXUINT64, 0, flags);
  properties[PROP_KV_BYTES] =
    g_param_spec_uint64 ("kv-bytes", NULL, NULL,
                         0, G_MAXUINT64, 0, flags);
  /* the recurrent layers' state, its own segment */
  properties[PROP_STATE_BYTES] =
    g_param_spec_uint64 ("state-bytes", NULL, NULL,
                         0, G_MAXUINT64, 0, flags);
  properties[PROP_OVERHEAD_BYTES] =
    g_param_spec_uint64 ("overhead-bytes", NULL, NULL,
                         0, G_MAXUINT64, 0, flags);
  properties[PROP_USABLE_BYTES] =
    g_param_spec_uint64 ("usable-bytes", NULL, NULL,
                         0, G_MAXUINT64, 0, flags);
  properties[PROP_DEVICE_BYTES] =
    g_param_spec_uint64 ("device-bytes", NULL, NULL,
                         0, G_MAXUINT64, 0, flags);
  /* An HrUnits; a plain uint because core registers no GType for it. */
  properties[PROP_UNITS] =
    g_param_spec_uint ("units", NULL, NULL,
                       HR_UNITS_BINARY, HR_UNITS_DECIMAL, HR_UNITS_BINARY,
                       flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "memorychart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
hr_memory_chart_init (HrMemoryChart *self)
{
  self->data.units = HR_UNITS_BINARY;

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Memory use of one device"),
                                  -1);
  hr_memory_chart_update (self);
}

GtkWidget *
hr_memory_chart_new (void)
{
  return g_object_new (HR_TYPE_MEMORY_CHART, NULL);
}

guint64
hr_memory_chart_get_weights_bytes (HrMemoryChart *self)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), 0);

  return self->data.weights_bytes;
}

void
hr_memory_chart_set_weights_bytes (HrMemoryChart *self,
                                   guint64        weights_bytes)
{
  g_return_if_fail (HR_IS_MEMORY_CHART (self));

  set_bytes (self, &self->data.weights_bytes, weights_bytes,
             PROP_WEIGHTS_BYTES);
}

guint64
hr_memory_chart_get_kv_bytes (HrMemoryChart *self)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), 0);

  return self->data.kv_bytes;
}

void
hr_memory_chart_set_kv_bytes (HrMemoryChart *self,
                              guint64        kv_bytes)
{
  g_return_if_fail (HR_IS_MEMORY_CHART (self));

  set_bytes (self, &self->data.kv_bytes, kv_bytes, PROP_KV_BYTES);
}

guint64
hr_memory_chart_get_overhead_bytes (HrMemoryChart *self)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), 0);

  return self->data.overhead_bytes;
}

void
hr_memory_chart_set_overhead_bytes (HrMemoryChart *self,
                                    guint64        overhead_bytes)
{
  g_return_if_fail (HR_IS_MEMORY_CHART (self));

  set_bytes (self, &self->data.overhead_bytes, overhead_bytes,
             PROP_OVERHEAD_BYTES);
}

guint64
hr_memory_chart_get_usable_bytes (HrMemoryChart *self)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), 0);

  return self->data.usable_bytes;
}

void
hr_memory_chart_set_usable_bytes (HrMemoryChart *self,
                                  guint64        usable_bytes)
{
  g_return_if_fail (HR_IS_MEMORY_CHART (self));

  set_bytes (self, &self->data.usable_bytes, usable_bytes, PROP_USABLE_BYTES);
}

guint64
hr_memory_chart_get_device_bytes (HrMemoryChart *self)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), 0);

  return self->device_bytes;
}

void
hr_memory_chart_set_device_bytes (HrMemoryChart *self,
                                  guint64        device_bytes)
{
  g_return_if_fail (HR_IS_MEMORY_CHART (self));

  set_bytes (self, &self->device_bytes, device_bytes, PROP_DEVICE_BYTES);
}

HrUnits
hr_memory_chart_get_units (HrMemoryChart *self)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), HR_UNITS_BINARY);

  return self->data.units;
}

void
hr_memory_chart_set_units (HrMemoryChart *self,
                           HrUnits        units)
{
  g_return_if_fail (HR_IS_MEMORY_CHART (self));
  g_return_if_fail (units == HR_UNITS_BINARY || units == HR_UNITS_DECIMAL);

  if (self->data.units == units)
    return;

  self->data.units = units;
  hr_memory_chart_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNITS]);
}

/**
 * hr_memory_chart_get_description:
 * @self: a #HrMemoryChart
 *
 * Returns: the chart in words, as given to assistive technologies
 */
const char *
hr_memory_chart_get_description (HrMemoryChart *self)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), NULL);

  return self->description;
}

static gboolean
bars_equal (const HrChartBar *a,
            const HrChartBar *b)
{
  return g_strcmp0 (a->name, b->name) == 0 &&
         a->weights_bytes == b->weights_bytes && a->kv_bytes == b->kv_bytes &&
         a->state_bytes == b->state_bytes && a->overhead_bytes == b->overhead_bytes && a->usable_bytes == b->usable_bytes &&
         a->capacity_bytes == b->capacity_bytes;
}

/**
 * hr_memory_chart_set_bars:
 * @self: a #HrMemoryChart
 * @bars: (array length=n_bars) (nullable): one bar per device, copied
 * @n_bars: how many; 0 draws the single bar of the byte properties again
 *
 * Shows one bar per device (each GPU, then system RAM) instead of the
 * single device of the properties.
 */
void
hr_memory_chart_set_bars (HrMemoryChart    *self,
                          const HrChartBar *bars,
                          guint             n_bars)
{
  gboolean same;

  g_return_if_fail (HR_IS_MEMORY_CHART (self));
  g_return_if_fail (bars != NULL || n_bars == 0);

  n_bars = MIN (n_bars, HR_CHART_MAX_BARS);
  same = n_bars == self->n_bars;
  for (guint i = 0; same && i < n_bars; i++)
    same = bars_equal (&bars[i], &self->bars[i]);
  if (same)
    return;

  for (guint i = 0; i < self->n_bars; i++)
    g_free (self->bars[i].name);
  for (guint i = 0; i < n_bars; i++)
    {
      self->bars[i] = bars[i];
      self->bars[i].name = g_strdup (bars[i].name);
    }
  self->n_bars = n_bars;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  n_bars > 0 ? _("Memory use of each device")
                                             : _("Memory use of one device"),
                                  -1);
  hr_memory_chart_update (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
hr_memory_chart_get_n_bars (HrMemoryChart *self)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), 0);

  return self->n_bars;
}

/**
 * hr_memory_chart_get_bar:
 * @index: below hr_memory_chart_get_n_bars()
 *
 * Returns: (transfer none): the bar as drawn
 */
const HrChartBar *
hr_memory_chart_get_bar (HrMemoryChart *self,
                         guint          index)
{
  g_return_val_if_fail (HR_IS_MEMORY_CHART (self), NULL);
  g_return_val_if_fail (index < self->n_bars, NULL);

  return &self->bars[index];
}
