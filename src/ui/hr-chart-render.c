/* hr-chart-render.c — the stacked memory bar, drawn with Cairo and Pango
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout, top to bottom, when a PangoLayout is given:
 *
 *                                     usable 11.81 GiB ┃
 *   ╭ weights ────────────┬ KV ──┬ overhead ┬ free ────╂─╮
 *   ╰─────────────────────┴──────┴──────────┴──────────╂─╯
 *   ■ Weights 5.31 GiB · 67.6 %   ■ KV cache 1.25 GiB · 15.9 %
 *   ■ Overhead 1.30 GiB · 16.5 %  ■ Free 3.95 GiB
 *
 * Without a layout only the bar and the marker are drawn, filling the
 * whole area.  The legend is a grid of 4, 2 or 1 columns whose cells are
 * sized for the widest value the legend could show (not the current one),
 * so nothing moves while a slider changes the numbers.
 */

#define G_LOG_DOMAIN "hr-chart"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "hr-chart-render.h"

#define BAR_RADIUS      6.0
#define MARKER_WIDTH    2.0
#define MARKER_OVERHANG 3.0   /* below the bar */
#define MIN_SEGMENT     2.0   /* a part of a few bytes still shows */
#define EXCESS_BAND     0.3   /* the excess: a band this share of the bar high */
#define LABEL_GAP       3.0   /* between the limit label and the bar */
#define LABEL_SPACING   5.0   /* between the limit label and the marker */
#define LEGEND_GAP      12.0  /* between the bar and the legend */
#define SWATCH_SIZE     10.0
#define SWATCH_SPACING  5.0
#define NAME_SPACING    5.0
#define COLUMN_GAP      12.0
#define ROW_GAP         6.0
#define VALUE_ALPHA     0.7

/* Weights, KV cache, recurrent state (when there is one), overhead, and
 * free or over the limit. */
#define N_LEGEND_ITEMS  5

/* The widest number a legend cell is sized for: 888.88 GiB at 100.0 %. */
#define TEMPLATE_VALUE  888.884

typedef struct
{
  const HrChartColor *color;
  const char         *name;
  char               *value;
} LegendItem;

static void
set_source (cairo_t            *cr,
            const HrChartColor *color,
            double              alpha)
{
  cairo_set_source_rgba (cr, color->r, color->g, color->b, color->a * alpha);
}

static void
rounded_rectangle (cairo_t *cr,
                   double   x,
                   double   y,
                   double   width,
                   double   height,
                   double   radius)
{
  radius = MIN (radius, MIN (width, height) / 2.0);

  cairo_new_sub_path (cr);
  cairo_arc (cr, x + width - radius, y + radius, radius, -G_PI / 2.0, 0.0);
  cairo_arc (cr, x + width - radius, y + height - radius, radius, 0.0, G_PI / 2.0);
  cairo_arc (cr, x + radius, y + height - radius, radius, G_PI / 2.0, G_PI);
  cairo_arc (cr, x + radius, y + radius, radius, G_PI, 3.0 * G_PI / 2.0);
  cairo_close_path (cr);
}

static double
share_of (guint64 part,
          guint64 total)
{
  return total > 0 ? (double) part / (double) total : 0.0;
}

guint64
hr_chart_data_get_total (const HrChartData *data)
{
  g_return_val_if_fail (data != NULL, 0);

  return data->weights_bytes + data->kv_bytes + data->state_bytes + data->overhead_bytes;
}

guint64
hr_chart_data_get_capacity (const HrChartData *data)
{
  g_return_val_if_fail (data != NULL, 0);

  return MAX (data->capacity_bytes,
              MAX (hr_chart_data_get_total (data), data->usable_bytes));
}

gboolean
hr_chart_data_is_overflowing (const HrChartData *data)
{
  g_return_val_if_fail (data != NULL, FALSE);

  return data->usable_bytes > 0 &&
         hr_chart_data_get_total (data) > data->usable_bytes;
}

/**
 * hr_chart_layout_segments:
 * @data: what to draw
 * @bar_width: the width of the bar
 * @segments: (out caller-allocates): weights, KV, overhead and free, left
 *   to right; free is empty when the total reaches the limit
 * @limit_x: (out) (optional): where the usable limit is, or -1 if unknown
 *
 * The proportions of the bar: each part is its bytes over the capacity.
 */
void
hr_chart_layout_segments (const HrChartData *data,
                          double             bar_width,
                          HrChartSegment     segments[4],
                          double            *limit_x)
{
  guint64 capacity;
  double ends[3];
  double limit = -1.0;

  g_return_if_fail (data != NULL);
  g_return_if_fail (segments != NULL);

  capacity = hr_chart_data_get_capacity (data);

  if (capacity == 0)
    {
      for (guint i = 0; i < 4; i++)
        segments[i] = (HrChartSegment) { 0.0, 0.0 };
      if (limit_x != NULL)
        *limit_x = -1.0;
      return;
    }

  /* The overhead follows the state (hr_chart_state_segment), which
   * follows the cache. */
  ends[0] = bar_width * (double) data->weights_bytes / (double) capacity;
  ends[1] = bar_width * (double) (data->weights_bytes + data->kv_bytes + data->state_bytes) /
            (double) capacity;
  ends[2] = bar_width * (double) hr_chart_data_get_total (data) /
            (double) capacity;

  segments[0] = (HrChartSegment) { 0.0, ends[0] };
  segments[1] = (HrChartSegment) { ends[0],
                                   bar_width * (double) data->kv_bytes / (double) capacity };
  segments[2] = (HrChartSegment) { ends[1], ends[2] - ends[1] };
  segments[3] = (HrChartSegment) { ends[2], 0.0 };

  if (data->usable_bytes > 0)
    {
      limit = bar_width * (double) data->usable_bytes / (double) capacity;
      segments[3].width = MAX (0.0, limit - ends[2]);
    }

  if (limit_x != NULL)
    *limit_x = limit;
}

/**
 * hr_chart_state_segment:
 * @data: what to draw
 * @bar_width: the width of the bar
 * @segment: (out): where the recurrent state is, between the KV cache and
 *   the overhead of hr_chart_layout_segments(); empty without a state
 */
void
hr_chart_state_segment (const HrChartData *data,
                        double             bar_width,
                        HrChartSegment    *segment)
{
  guint64 capacity;

  g_return_if_fail (data != NULL);
  g_return_if_fail (segment != NULL);

  capacity = hr_chart_data_get_capacity (data);
  if (capacity == 0)
    {
      *segment = (HrChartSegment) { 0.0, 0.0 };
      return;
    }
  *segment = (HrChartSegment) {
    bar_width * (double) (data->weights_bytes + data->kv_bytes) / (double) capacity,
    bar_width * (double) data->state_bytes / (double) capacity,
  };
}

/**
 * hr_chart_part_at:
 * @data: what is drawn
 * @bar_width: the width of the bar
 * @x: a position along the bar, 0 at its left edge
 *
 * Returns: what the bar shows at @x (for tooltips)
 */
HrChartPart
hr_chart_part_at (const HrChartData *data,
                  double             bar_width,
                  double             x)
{
  HrChartSegment segments[4];
  double limit_x;

  g_return_val_if_fail (data != NULL, HR_CHART_PART_NONE);

  if (x < 0.0 || x >= bar_width || hr_chart_data_get_capacity (data) == 0)
    return HR_CHART_PART_NONE;

  hr_chart_layout_segments (data, bar_width, segments, &limit_x);

  if (hr_chart_data_is_overflowing (data) &&
      x >= limit_x && x < segments[2].x + segments[2].width)
    return HR_CHART_PART_OVERFLOW;

  {
    HrChartSegment state;

    hr_chart_state_segment (data, bar_width, &state);
    if (x >= state.x && x < state.x + state.width)
      return HR_CHART_PART_STATE;
  }

  for (guint i = 0; i < 4; i++)
    {
      if (x >= segments[i].x && x < segments[i].x + segments[i].width)
        return (HrChartPart) i;
    }

  return data->usable_bytes > 0 ? HR_CHART_PART_RESERVED : HR_CHART_PART_NONE;
}

/* All text of the chart is caption-sized, so that two legend columns fit
 * the Overview of an 800 px window. */
static PangoAttrList *
text_attributes (gboolean numbers)
{
  static PangoAttrList *lists[2];

  if (lists[numbers] == NULL)
    {
      lists[numbers] = pango_attr_list_new ();
      pango_attr_list_insert (lists[numbers], pango_attr_scale_new (PANGO_SCALE_SMALL));
      /* Tabular figures, where the font has them, keep digits from
       * dancing while the numbers change. */
      if (numbers)
        pango_attr_list_insert (lists[numbers], pango_attr_font_features_new ("tnum"));
    }
  return lists[numbers];
}

/* Text extents, by text, for the PangoContext they were measured in: the
 * legend is sized on the widest name and value it could show, measured
 * on every size request and every frame, while only the values change,
 * once per step.  The cache holds a reference on its context (so that its
 * address is not reused) and is emptied when the context changes. */
static struct
{
  PangoContext *context;
  guint serial;
  GHashTable *extents;  /* "0text" or "1text" (numbers) → PangoRectangle */
} text_cache;

#define TEXT_CACHE_SIZE 128

static PangoRectangle *
cached_extents (PangoLayout *layout,
                const char  *text,
                gboolean     numbers)
{
  PangoContext *context = pango_layout_get_context (layout);
  g_autofree char *key = NULL;
  PangoRectangle *logical;

  /* Only for layouts whose text does not depend on more than the context. */
  if (pango_layout_get_font_description (layout) != NULL ||
      pango_layout_get_width (layout) != -1)
    return NULL;

  if (text_cache.context != context ||
      text_cache.serial != pango_context_get_serial (context) ||
      (text_cache.extents != NULL &&
       g_hash_table_size (text_cache.extents) >= TEXT_CACHE_SIZE))
    {
      g_set_object (&text_cache.context, context);
      text_cache.serial = pango_context_get_serial (context);
      g_clear_pointer (&text_cache.extents, g_hash_table_unref);
    }
  if (text_cache.extents == NULL)
    text_cache.extents = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  key = g_strconcat (numbers ? "1" : "0", text, NULL);
  logical = g_hash_table_lookup (text_cache.extents, key);
  if (logical == NULL)
    {
      logical = g_new (PangoRectangle, 1);
      pango_layout_get_pixel_extents (layout, NULL, logical);
      g_hash_table_insert (text_cache.extents, g_steal_pointer (&key), logical);
    }
  return logical;
}

/* Puts @text in @layout, with the chart's attributes, and measures it. */
static void
measure_text (PangoLayout *layout,
              const char  *text,
              gboolean     numbers,
              double      *width,
              double      *height)
{
  PangoRectangle own;
  PangoRectangle *logical;

  pango_layout_set_attributes (layout, text_attributes (numbers));
  pango_layout_set_text (layout, text, -1);
  logical = cached_extents (layout, text, numbers);
  if (logical == NULL)
    {
      pango_layout_get_pixel_extents (layout, NULL, &own);
      logical = &own;
    }

  if (width != NULL)
    *width = logical->width;
  if (height != NULL)
    *height = logical->height;
}

static char *
limit_label (const HrChartData *data,
             guint64            bytes)
{
  g_autofree char *size = hr_format_size (bytes, data->units);

  /* TRANSLATORS: the label of the usable-memory marker on the memory
   * chart, e.g. “usable 11.81 GiB” */
  return g_strdup_printf (_("usable %s"), size);
}

static char *
size_and_share (guint64 bytes,
                double  share,
                HrUnits units)
{
  g_autofree char *size = hr_format_size (bytes, units);
  g_autofree char *percent = hr_format_percent (share, 1);

  /* TRANSLATORS: a legend entry of the memory chart: a size, then its
   * share of the total, e.g. “5.31 GiB · 67.6 %” */
  return g_strdup_printf (_("%s · %s"), size, percent);
}

static guint64
template_bytes (HrUnits units)
{
  double scale = units == HR_UNITS_DECIMAL ? 1e9 : (double) (1u << 30);

  return (guint64) (TEMPLATE_VALUE * scale);
}

/* Returns how many items there are: the state's only with a state. */
static guint
legend_items_init (LegendItem         items[N_LEGEND_ITEMS],
                   const HrChartData *data)
{
  guint64 total = hr_chart_data_get_total (data);
  guint n = 0;

  items[n++] = (LegendItem) {
    &data->weights, _("Weights"),
    size_and_share (data->weights_bytes, share_of (data->weights_bytes, total),
                    data->units),
  };
  items[n++] = (LegendItem) {
    &data->kv, _("KV cache"),
    size_and_share (data->kv_bytes, share_of (data->kv_bytes, total),
                    data->units),
  };
  if (data->state_bytes > 0)
    items[n++] = (LegendItem) {
      /* TRANSLATORS: the memory chart's part for the fixed state of
       * recurrent layers (Mamba, Gated DeltaNet…), beside the KV cache */
      &data->state, _("Recurrent state"),
      size_and_share (data->state_bytes, share_of (data->state_bytes, total),
                      data->units),
    };
  items[n++] = (LegendItem) {
    &data->overhead, _("Overhead"),
    size_and_share (data->overhead_bytes, share_of (data->overhead_bytes, total),
                    data->units),
  };

  if (hr_chart_data_is_overflowing (data))
    items[n++] = (LegendItem) {
      &data->overflow, _("Over limit"),
      hr_format_size (total - data->usable_bytes, data->units),
    };
  else if (data->usable_bytes > 0)
    items[n++] = (LegendItem) {
      &data->free_, _("Free"),
      hr_format_size (data->usable_bytes - total, data->units),
    };
  else
    items[n++] = (LegendItem) { &data->free_, _("Free"), g_strdup ("—") };
  for (guint i = n; i < N_LEGEND_ITEMS; i++)
    items[i] = (LegendItem) { NULL, NULL, NULL };
  return n;
}

static void
legend_items_clear (LegendItem items[N_LEGEND_ITEMS])
{
  for (guint i = 0; i < N_LEGEND_ITEMS; i++)
    g_clear_pointer (&items[i].value, g_free);
}

/* The width of one legend cell: the widest name beside the widest value
 * any cell could show, so that the grid depends on the font and the
 * units only. */
static double
legend_cell_width (PangoLayout       *layout,
                   const HrChartData *data,
                   double            *row_height)
{
  /* the state's name only where there is one: other charts keep their
   * grid */
  const char *names[] = {
    _("Weights"), _("KV cache"), _("Overhead"), _("Free"), _("Over limit"),
    data->state_bytes > 0 ? _("Recurrent state") : "",
  };
  g_autofree char *widest = NULL;
  double name_width = 0.0;
  double value_width = 0.0;
  double line_height = 0.0;
  LegendItem items[N_LEGEND_ITEMS];
  guint n_items;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      double w, h;

      measure_text (layout, names[i], FALSE, &w, &h);
      name_width = MAX (name_width, w);
      line_height = MAX (line_height, h);
    }

  widest = size_and_share (template_bytes (data->units), 1.0, data->units);
  measure_text (layout, widest, TRUE, &value_width, NULL);

  /* Sizes past the template (a terabyte of memory) still fit. */
  n_items = legend_items_init (items, data);
  for (guint i = 0; i < n_items; i++)
    {
      double w, h;

      measure_text (layout, items[i].value, TRUE, &w, &h);
      value_width = MAX (value_width, w);
      line_height = MAX (line_height, h);
    }
  legend_items_clear (items);
  pango_layout_set_attributes (layout, NULL);

  if (row_height != NULL)
    *row_height = MAX (line_height, SWATCH_SIZE);

  return ceil (SWATCH_SIZE + SWATCH_SPACING + name_width + NAME_SPACING +
               value_width);
}

static guint
legend_columns (double width,
                double cell_width)
{
  /* 4, 2 or 1: a grid without a lonely item on the last row. */
  static const guint choices[] = { 4, 2 };

  for (guint i = 0; i < G_N_ELEMENTS (choices); i++)
    {
      guint cols = choices[i];

      if (cols * cell_width + (cols - 1) * COLUMN_GAP <= width)
        return cols;
    }

  return 1;
}

static double
label_height (PangoLayout *layout)
{
  double height;

  measure_text (layout, "0", TRUE, NULL, &height);
  pango_layout_set_attributes (layout, NULL);

  return height;
}

/**
 * hr_chart_get_bar_area:
 * @layout: (nullable): the layout text is drawn with, or %NULL for the
 *   bar alone
 * @height: the height of the whole chart
 * @bar_y: (out): the top of the bar
 * @bar_height: (out): its height
 *
 * The bar spans the full width; this says where it is vertically.
 */
void
hr_chart_get_bar_area (PangoLayout *layout,
                       double       height,
                       double      *bar_y,
                       double      *bar_height)
{
  g_autoptr(PangoLayout) copy = NULL;

  g_return_if_fail (layout == NULL || PANGO_IS_LAYOUT (layout));
  g_return_if_fail (bar_y != NULL);
  g_return_if_fail (bar_height != NULL);

  if (layout == NULL)
    {
      *bar_y = 0.0;
      *bar_height = height;
      return;
    }

  copy = pango_layout_copy (layout);
  *bar_y = ceil (label_height (copy) + LABEL_GAP);
  *bar_height = HR_CHART_BAR_HEIGHT;
}

/**
 * hr_chart_get_min_width:
 * @layout: the layout text is drawn with
 * @data: what is drawn
 *
 * Returns: the narrowest width at which nothing is cut off: one legend
 *   column
 */
double
hr_chart_get_min_width (PangoLayout       *layout,
                        const HrChartData *data)
{
  g_autoptr(PangoLayout) copy = NULL;
  g_autofree char *label = NULL;
  double cell_width;
  double label_width;

  g_return_val_if_fail (PANGO_IS_LAYOUT (layout), 0.0);
  g_return_val_if_fail (data != NULL, 0.0);

  copy = pango_layout_copy (layout);
  cell_width = legend_cell_width (copy, data, NULL);

  label = limit_label (data, template_bytes (data->units));
  measure_text (copy, label, TRUE, &label_width, NULL);

  return ceil (MAX (cell_width, label_width + LABEL_SPACING + MARKER_WIDTH));
}

/**
 * hr_chart_get_height_for_width:
 * @layout: the layout text is drawn with
 * @data: what is drawn
 * @width: the width of the chart
 *
 * Returns: the height the bar and its legend need at @width
 */
double
hr_chart_get_height_for_width (PangoLayout       *layout,
                               const HrChartData *data,
                               double             width)
{
  g_autoptr(PangoLayout) copy = NULL;
  double bar_y, bar_height;
  double cell_width, row_height;
  guint rows;

  g_return_val_if_fail (PANGO_IS_LAYOUT (layout), 0.0);
  g_return_val_if_fail (data != NULL, 0.0);

  copy = pango_layout_copy (layout);
  hr_chart_get_bar_area (copy, 0.0, &bar_y, &bar_height);
  cell_width = legend_cell_width (copy, data, &row_height);
  {
    LegendItem items[N_LEGEND_ITEMS];
    guint n_items = legend_items_init (items, data);
    guint cols = legend_columns (width, cell_width);

    rows = (n_items + cols - 1) / cols;
    legend_items_clear (items);
  }

  return ceil (bar_y + bar_height + LEGEND_GAP +
               rows * row_height + (rows - 1) * ROW_GAP);
}

static void
draw_bar (cairo_t           *cr,
          const HrChartData *data,
          double             width,
          double             bar_y,
          double             bar_height)
{
  HrChartSegment segments[4];
  const HrChartColor *colors[4] = {
    &data->weights, &data->kv, &data->overhead, &data->free_,
  };
  double limit_x;

  hr_chart_layout_segments (data, width, segments, &limit_x);

  cairo_save (cr);
  rounded_rectangle (cr, 0.0, bar_y, width, bar_height, BAR_RADIUS);
  cairo_clip (cr);

  set_source (cr, &data->track, 1.0);
  cairo_paint (cr);

  for (guint i = 0; i < 4; i++)
    {
      guint64 bytes[3] = { data->weights_bytes, data->kv_bytes, data->overhead_bytes };
      double segment_x = segments[i].x;
      double segment_width = segments[i].width;

      /* the legend lists every part: none may vanish for being small,
       * nor past the bar's end */
      if (i < 3 && bytes[i] > 0 && segment_width < MIN_SEGMENT)
        {
          segment_width = MIN_SEGMENT;
          segment_x = MIN (segment_x, width - MIN_SEGMENT);
        }
      if (segment_width <= 0.0)
        continue;
      set_source (cr, colors[i], 1.0);
      cairo_rectangle (cr, segment_x, bar_y, segment_width, bar_height);
      cairo_fill (cr);
    }

  /* The state between the cache and the overhead, as the legend lists
   * it, and like them never too small to see. */
  if (data->state_bytes > 0)
    {
      HrChartSegment state;

      hr_chart_state_segment (data, width, &state);
      if (state.width < MIN_SEGMENT)
        {
          state.width = MIN_SEGMENT;
          state.x = MIN (state.x, width - MIN_SEGMENT);
        }
      set_source (cr, &data->state, 1.0);
      cairo_rectangle (cr, state.x, bar_y, state.width, bar_height);
      cairo_fill (cr);
    }

  /* Past the limit every part stays drawn to scale; the excess is marked
   * by a band along the bottom of the bar. */
  if (hr_chart_data_is_overflowing (data))
    {
      double end = segments[2].x + segments[2].width;
      double band = MAX (MIN_SEGMENT, round (bar_height * EXCESS_BAND));

      set_source (cr, &data->overflow, 1.0);
      cairo_rectangle (cr, limit_x, bar_y + bar_height - band, end - limit_x, band);
      cairo_fill (cr);
    }

  cairo_restore (cr);
}

static void
draw_marker (cairo_t           *cr,
             const HrChartData *data,
             double             width,
             double             top,
             double             bottom)
{
  HrChartSegment segments[4];
  double limit_x;
  double x;

  hr_chart_layout_segments (data, width, segments, &limit_x);
  if (limit_x < 0.0)
    return;

  /* On whole pixels, and inside the chart even at its very ends. */
  x = CLAMP (round (limit_x - MARKER_WIDTH / 2.0), 0.0, width - MARKER_WIDTH);

  set_source (cr, &data->limit, 1.0);
  cairo_rectangle (cr, x, top, MARKER_WIDTH, bottom - top);
  cairo_fill (cr);
}

static void
draw_limit_label (cairo_t           *cr,
                  PangoLayout       *layout,
                  const HrChartData *data,
                  double             width)
{
  HrChartSegment segments[4];
  g_autofree char *label = NULL;
  double limit_x;
  double label_width;
  double x;

  hr_chart_layout_segments (data, width, segments, &limit_x);
  if (limit_x < 0.0)
    return;

  label = limit_label (data, data->usable_bytes);
  measure_text (layout, label, TRUE, &label_width, NULL);

  /* Left of the marker, like a flag on its pole; right of it if the
   * marker is too close to the left edge. */
  x = limit_x - MARKER_WIDTH / 2.0 - LABEL_SPACING - label_width;
  if (x < 0.0)
    x = limit_x + MARKER_WIDTH / 2.0 + LABEL_SPACING;
  x = CLAMP (x, 0.0, MAX (0.0, width - label_width));

  set_source (cr, &data->text, VALUE_ALPHA);
  cairo_move_to (cr, round (x), 0.0);
  pango_cairo_show_layout (cr, layout);
  pango_layout_set_attributes (layout, NULL);
}

static void
draw_legend (cairo_t           *cr,
             PangoLayout       *layout,
             const HrChartData *data,
             double             width,
             double             top)
{
  LegendItem items[N_LEGEND_ITEMS];
  double cell_width, row_height;
  double column_width;
  guint cols, n_items;

  cell_width = legend_cell_width (layout, data, &row_height);
  cols = legend_columns (width, cell_width);
  column_width = (width - (cols - 1) * COLUMN_GAP) / cols;

  n_items = legend_items_init (items, data);

  for (guint i = 0; i < n_items; i++)
    {
      double x = round ((i % cols) * (column_width + COLUMN_GAP));
      double y = top + (i / cols) * (row_height + ROW_GAP);
      double swatch_y = y + round ((row_height - SWATCH_SIZE) / 2.0);
      double text_width, text_height;

      set_source (cr, items[i].color, 1.0);
      rounded_rectangle (cr, x, swatch_y, SWATCH_SIZE, SWATCH_SIZE, 3.0);
      cairo_fill (cr);
      /* A hairline inside the edge keeps a pale swatch (free) visible. */
      set_source (cr, &data->text, 0.15);
      cairo_set_line_width (cr, 1.0);
      rounded_rectangle (cr, x + 0.5, swatch_y + 0.5,
                         SWATCH_SIZE - 1.0, SWATCH_SIZE - 1.0, 2.5);
      cairo_stroke (cr);
      x += SWATCH_SIZE + SWATCH_SPACING;

      measure_text (layout, items[i].name, FALSE, &text_width, &text_height);
      set_source (cr, &data->text, 1.0);
      cairo_move_to (cr, x, y + round ((row_height - text_height) / 2.0));
      pango_cairo_show_layout (cr, layout);
      x += text_width + NAME_SPACING;

      measure_text (layout, items[i].value, TRUE, NULL, &text_height);
      set_source (cr, &data->text, VALUE_ALPHA);
      cairo_move_to (cr, x, y + round ((row_height - text_height) / 2.0));
      pango_cairo_show_layout (cr, layout);
    }

  pango_layout_set_attributes (layout, NULL);
  legend_items_clear (items);
}

/**
 * hr_chart_render:
 * @cr: where to draw, with the chart's origin at (0, 0)
 * @layout: (nullable): a layout for text (font and context), or %NULL to
 *   draw only the bar and the marker, filling @width × @height
 * @data: what to draw
 * @width: the width of the chart
 * @height: the height of the chart (with a layout, the chart is drawn at
 *   the top and needs hr_chart_get_height_for_width())
 *
 * Draws the stacked bar, the usable-limit marker and, with a layout, the
 * marker's label and the legend.  @layout is not modified.
 */
void
hr_chart_render (cairo_t           *cr,
                 PangoLayout       *layout,
                 const HrChartData *data,
                 double             width,
                 double             height)
{
  g_autoptr(PangoLayout) copy = NULL;
  double bar_y, bar_height;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (layout == NULL || PANGO_IS_LAYOUT (layout));
  g_return_if_fail (data != NULL);

  if (width <= 0.0 || height <= 0.0)
    return;

  if (layout != NULL)
    {
      copy = pango_layout_copy (layout);
      pango_layout_set_width (copy, -1);
      pango_layout_set_ellipsize (copy, PANGO_ELLIPSIZE_NONE);
      pango_cairo_update_layout (cr, copy);
    }

  hr_chart_get_bar_area (copy, height, &bar_y, &bar_height);

  cairo_save (cr);

  draw_bar (cr, data, width, bar_y, bar_height);

  if (copy == NULL)
    {
      draw_marker (cr, data, width, bar_y, bar_y + bar_height);
    }
  else
    {
      draw_marker (cr, data, width, 0.0, bar_y + bar_height + MARKER_OVERHANG);
      draw_limit_label (cr, copy, data, width);
      draw_legend (cr, copy, data, width, bar_y + bar_height + LEGEND_GAP);
    }

  cairo_restore (cr);
}

/* hr_chart_describe() for a bar with a recurrent state. */
static char *
describe_with_state (const HrChartData *data)
{
  guint64 total = hr_chart_data_get_total (data);
  g_autofree char *weights = hr_format_size (data->weights_bytes, data->units);
  g_autofree char *kv = hr_format_size (data->kv_bytes, data->units);
  g_autofree char *state = hr_format_size (data->state_bytes, data->units);
  g_autofree char *overhead = hr_format_size (data->overhead_bytes, data->units);
  g_autofree char *weights_share = hr_format_percent (share_of (data->weights_bytes, total), 1);
  g_autofree char *kv_share = hr_format_percent (share_of (data->kv_bytes, total), 1);
  g_autofree char *state_share = hr_format_percent (share_of (data->state_bytes, total), 1);
  g_autofree char *overhead_share = hr_format_percent (share_of (data->overhead_bytes, total),
                                                       1);
  g_autofree char *total_size = hr_format_size (total, data->units);
  g_autofree char *usable = NULL;

  if (data->usable_bytes == 0)
    return g_strdup_printf (_("Weights %s (%s), KV cache %s (%s), recurrent state %s (%s), "
                              "overhead %s (%s), total %s"),
                            weights, weights_share, kv, kv_share, state, state_share,
                            overhead, overhead_share, total_size);

  usable = hr_format_size (data->usable_bytes, data->units);
  if (hr_chart_data_is_overflowing (data))
    {
      g_autofree char *over = hr_format_size (total - data->usable_bytes, data->units);

      return g_strdup_printf (_("Weights %s (%s), KV cache %s (%s), recurrent state %s (%s), "
                                "overhead %s (%s), total %s of %s usable, %s over the limit"),
                              weights, weights_share, kv, kv_share, state, state_share,
                              overhead, overhead_share, total_size, usable, over);
    }
  return g_strdup_printf (_("Weights %s (%s), KV cache %s (%s), recurrent state %s (%s), "
                            "overhead %s (%s), total %s of %s usable"),
                          weights, weights_share, kv, kv_share, state, state_share,
                          overhead, overhead_share, total_size, usable);
}

/**
 * hr_chart_describe:
 * @data: what is drawn
 *
 * Returns: (transfer full): the chart in words, for its accessible
 *   description
 */
char *
hr_chart_describe (const HrChartData *data)
{
  guint64 total;
  double shares[3];
  g_autofree char *weights = NULL;
  g_autofree char *kv = NULL;
  g_autofree char *overhead = NULL;
  g_autofree char *weights_share = NULL;
  g_autofree char *kv_share = NULL;
  g_autofree char *overhead_share = NULL;
  g_autofree char *total_size = NULL;
  g_autofree char *usable = NULL;

  g_return_val_if_fail (data != NULL, NULL);

  if (data->state_bytes > 0)
    return describe_with_state (data);

  total = hr_chart_data_get_total (data);
  shares[0] = share_of (data->weights_bytes, total);
  shares[1] = share_of (data->kv_bytes, total);
  shares[2] = share_of (data->overhead_bytes, total);

  weights = hr_format_size (data->weights_bytes, data->units);
  kv = hr_format_size (data->kv_bytes, data->units);
  overhead = hr_format_size (data->overhead_bytes, data->units);
  weights_share = hr_format_percent (shares[0], 1);
  kv_share = hr_format_percent (shares[1], 1);
  overhead_share = hr_format_percent (shares[2], 1);
  total_size = hr_format_size (total, data->units);

  if (data->usable_bytes == 0)
    return g_strdup_printf (_("Weights %s (%s), KV cache %s (%s), "
                              "overhead %s (%s), total %s"),
                            weights, weights_share, kv, kv_share,
                            overhead, overhead_share, total_size);

  usable = hr_format_size (data->usable_bytes, data->units);

  if (hr_chart_data_is_overflowing (data))
    {
      g_autofree char *over = hr_format_size (total - data->usable_bytes,
                                              data->units);

      return g_strdup_printf (_("Weights %s (%s), KV cache %s (%s), "
                                "overhead %s (%s), total %s of %s usable, "
                                "%s over the limit"),
                              weights, weights_share, kv, kv_share,
                              overhead, overhead_share, total_size, usable,
                              over);
    }

  return g_strdup_printf (_("Weights %s (%s), KV cache %s (%s), "
                            "overhead %s (%s), total %s of %s usable"),
                          weights, weights_share, kv, kv_share,
                          overhead, overhead_share, total_size, usable);
}

/**
 * hr_chart_describe_part:
 * @data: what is drawn
 * @part: a part of the bar, from hr_chart_part_at()
 *
 * Returns: (transfer full) (nullable): a tooltip for @part
 */
char *
hr_chart_describe_part (const HrChartData *data,
                        HrChartPart        part)
{
  guint64 total;
  guint64 capacity;
  guint64 bytes;
  const char *name;
  g_autofree char *size = NULL;
  g_autofree char *percent = NULL;

  g_return_val_if_fail (data != NULL, NULL);

  total = hr_chart_data_get_total (data);
  capacity = hr_chart_data_get_capacity (data);

  switch (part)
    {
    case HR_CHART_PART_WEIGHTS:
      bytes = data->weights_bytes;
      name = _("Weights");
      break;

    case HR_CHART_PART_KV:
      bytes = data->kv_bytes;
      name = _("KV cache");
      break;

    case HR_CHART_PART_OVERHEAD:
      bytes = data->overhead_bytes;
      name = _("Overhead");
      break;

    case HR_CHART_PART_STATE:
      bytes = data->state_bytes;
      name = _("Recurrent state");
      break;

    case HR_CHART_PART_FREE:
      size = hr_format_size (data->usable_bytes - MIN (total, data->usable_bytes),
                             data->units);
      /* TRANSLATORS: tooltip of the free part of the memory chart */
      return g_strdup_printf (_("Free: %s of usable memory left"), size);

    case HR_CHART_PART_OVERFLOW:
      size = hr_format_size (total - MIN (total, data->usable_bytes),
                             data->units);
      /* TRANSLATORS: tooltip of the part of the memory chart past the
       * usable limit */
      return g_strdup_printf (_("Over the usable limit by %s"), size);

    case HR_CHART_PART_RESERVED:
      size = hr_format_size (capacity - MIN (capacity,
                                             MAX (total, data->usable_bytes)),
                             data->units);
      /* TRANSLATORS: tooltip of the device memory past the usable limit */
      return g_strdup_printf (_("Not available to the model: %s"), size);

    case HR_CHART_PART_NONE:
    default:
      return NULL;
    }

  size = hr_format_size (bytes, data->units);
  percent = hr_format_percent (share_of (bytes, total), 1);

  /* TRANSLATORS: tooltip of the memory chart, e.g.
   * “KV cache: 1.25 GiB (15.9 % of the total)” */
  return g_strdup_printf (_("%s: %s (%s of the total)"), name, size, percent);
}
