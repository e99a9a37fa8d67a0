/* hr-chart-bars.c — one memory bar per device, drawn with Cairo and Pango
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout, top to bottom:
 *
 *   GPU 1 · 25 layers                          10.86 GiB of 11.81 GiB
 *   ╭ weights ──────────────────┬ KV ──┬ ovh ┬ free ┃╮
 *   GPU 2 · 24 layers                          10.74 GiB of 11.81 GiB
 *   ╭ weights ─────────────────┬ KV ──┬ ovh ┬ free ─┃╮
 *   System RAM · 22 layers                      9.31 GiB of 28.00 GiB
 *   ╭ weights ────┬ KV ┬ free ───────────────────────────┃──╮
 *   ■ Weights  ■ KV cache  (■ Recurrent state)  ■ Overhead  ■ Free
 *
 * Each bar is hr_chart_render() without a layout (the bar and its usable
 * marker), scaled to that device's memory; the line above names it and
 * gives its total against what is usable.  When the name and the figure
 * do not fit one line, the figure goes on a second.
 */

#define G_LOG_DOMAIN "hr-chart"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "hr-chart-bars.h"

#define BAR_HEIGHT      20.0
#define LINE_GAP        3.0   /* between a bar's name line and the bar */
#define BAR_GAP         10.0  /* between a bar and the next name line */
#define NAME_SPACING    12.0  /* least space between a name and its figure */
#define LEGEND_GAP      12.0
#define SWATCH_SIZE     10.0
#define SWATCH_SPACING  5.0
#define ITEM_GAP        12.0
#define ROW_GAP         6.0
#define VALUE_ALPHA     0.7

#define N_LEGEND_ITEMS  6

typedef struct
{
  double width;
  double height;
} Extents;

static void
set_source (cairo_t            *cr,
            const HrChartColor *color,
            double              alpha)
{
  cairo_set_source_rgba (cr, color->r, color->g, color->b, color->a * alpha);
}

/* Caption-sized text, tabular figures for numbers, as the single bar. */
static Extents
set_text (PangoLayout *layout,
          const char  *text,
          gboolean     numbers)
{
  PangoAttrList *attrs = pango_attr_list_new ();
  PangoRectangle logical;

  pango_attr_list_insert (attrs, pango_attr_scale_new (PANGO_SCALE_SMALL));
  if (numbers)
    pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum"));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_extents (layout, NULL, &logical);

  return (Extents) { logical.width, logical.height };
}

static guint64
bar_total (const HrChartBar *bar)
{
  return bar->weights_bytes + bar->kv_bytes + bar->state_bytes + bar->overhead_bytes;
}

static char *
bar_figure (const HrChartData *style,
            const HrChartBar  *bar)
{
  g_autofree char *total = hr_format_size (bar_total (bar), style->units);
  g_autofree char *usable = NULL;

  if (bar->usable_bytes == 0)
    return g_steal_pointer (&total);

  usable = hr_format_size (bar->usable_bytes, style->units);
  if (bar_total (bar) > bar->usable_bytes)
    {
      g_autofree char *over = hr_format_size (bar_total (bar) - bar->usable_bytes,
                                              style->units);
      /* TRANSLATORS: above one bar of the memory chart: the total, then
       * how far it passes the usable memory, "13.20 GiB, 1.39 GiB over" */
      return g_strdup_printf (_("%s, %s over"), total, over);
    }
  /* TRANSLATORS: above one bar of the memory chart: the total of the
   * device against its usable memory, "10.86 GiB of 11.81 GiB" */
  return g_strdup_printf (_("%s of %s"), total, usable);
}

/* The name line's height: one line, or two when name and figure do not
 * fit side by side. */
static double
name_height (PangoLayout       *layout,
             const HrChartData *style,
             const HrChartBar  *bar,
             double             width,
             gboolean          *two_lines)
{
  g_autofree char *figure = bar_figure (style, bar);
  Extents name = set_text (layout, bar->name != NULL ? bar->name : "", FALSE);
  Extents value = set_text (layout, figure, TRUE);
  gboolean wrap = name.width + NAME_SPACING + value.width > width;

  if (two_lines != NULL)
    *two_lines = wrap;
  return wrap ? name.height + value.height : MAX (name.height, value.height);
}

static const char *
legend_name (guint i)
{
  switch (i)
    {
    case 0: return _("Weights");
    case 1: return _("KV cache");
    case 2: return _("Recurrent state");
    case 3: return _("Overhead");
    case 4: return _("Free");
    default: return _("Over limit");
    }
}

static gboolean
any_state (const HrChartBar *bars,
           guint             n_bars)
{
  for (guint i = 0; i < n_bars; i++)
    if (bars[i].state_bytes > 0)
      return TRUE;
  return FALSE;
}

static gboolean
any_overflow (const HrChartBar *bars,
              guint             n_bars)
{
  for (guint i = 0; i < n_bars; i++)
    if (bars[i].usable_bytes > 0 && bar_total (&bars[i]) > bars[i].usable_bytes)
      return TRUE;
  return FALSE;
}

/* Lays the legend out in rows (or only measures it, with cr NULL);
 * returns its height. */
static double
legend (cairo_t           *cr,
        PangoLayout       *layout,
        const HrChartData *style,
        const HrChartBar  *bars,
        guint              n_bars,
        double             width,
        double             top)
{
  const HrChartColor *colors[N_LEGEND_ITEMS] = {
    &style->weights, &style->kv, &style->state, &style->overhead, &style->free_,
    &style->overflow,
  };
  guint n_items = any_overflow (bars, n_bars) ? N_LEGEND_ITEMS : N_LEGEND_ITEMS - 1;
  gboolean state = any_state (bars, n_bars);
  double x = 0.0, y = top, row_height = 0.0;

  for (guint i = 0; i < n_items; i++)
    {
      Extents text;
      double item_width;
      double height;

      /* the state only where a bar has one */
      if (i == 2 && !state)
        continue;
      text = set_text (layout, legend_name (i), FALSE);
      item_width = SWATCH_SIZE + SWATCH_SPACING + text.width;
      height = MAX (text.height, SWATCH_SIZE);

      if (x > 0.0 && x + item_width > width)
        {
          x = 0.0;
          y += row_height + ROW_GAP;
        }
      row_height = MAX (row_height, height);

      if (cr != NULL)
        {
          double swatch_y = y + round ((height - SWATCH_SIZE) / 2.0);

          set_source (cr, colors[i], 1.0);
          cairo_rectangle (cr, round (x), swatch_y, SWATCH_SIZE, SWATCH_SIZE);
          cairo_fill (cr);
          set_source (cr, &style->text, 0.15);
          cairo_set_line_width (cr, 1.0);
          cairo_rectangle (cr, round (x) + 0.5, swatch_y + 0.5, SWATCH_SIZE - 1.0,
                           SWATCH_SIZE - 1.0);
          cairo_stroke (cr);
          set_source (cr, &style->text, 1.0);
          cairo_move_to (cr, round (x + SWATCH_SIZE + SWATCH_SPACING),
                         y + round ((height - text.height) / 2.0));
          pango_cairo_show_layout (cr, layout);
        }
      x += item_width + ITEM_GAP;
    }
  return y + row_height - top;
}

/**
 * hr_chart_bars_data:
 * @style: colours and units
 * @bar: one bar
 * @data: (out caller-allocates): @style with @bar's bytes, for
 *   hr_chart_render() and the single bar's functions
 */
void
hr_chart_bars_data (const HrChartData *style,
                    const HrChartBar  *bar,
                    HrChartData       *data)
{
  g_return_if_fail (style != NULL && bar != NULL && data != NULL);

  *data = *style;
  data->weights_bytes = bar->weights_bytes;
  data->kv_bytes = bar->kv_bytes;
  data->state_bytes = bar->state_bytes;
  data->overhead_bytes = bar->overhead_bytes;
  data->usable_bytes = bar->usable_bytes;
  data->capacity_bytes = bar->capacity_bytes;
}

/* Walks the bars: where each name line and bar is, at @width. */
static double
place_bars (PangoLayout       *layout,
            const HrChartData *style,
            const HrChartBar  *bars,
            guint              n_bars,
            double             width,
            double            *name_y,
            double            *bar_y,
            gboolean          *two_lines)
{
  double y = 0.0;

  for (guint i = 0; i < n_bars; i++)
    {
      gboolean wrap;
      double height = name_height (layout, style, &bars[i], width, &wrap);

      if (name_y != NULL)
        name_y[i] = y;
      if (two_lines != NULL)
        two_lines[i] = wrap;
      y += ceil (height + LINE_GAP);
      if (bar_y != NULL)
        bar_y[i] = y;
      y += BAR_HEIGHT + BAR_GAP;
    }
  return y - (n_bars > 0 ? BAR_GAP : 0.0);
}

double
hr_chart_bars_get_height (PangoLayout       *layout,
                          const HrChartData *style,
                          const HrChartBar  *bars,
                          guint              n_bars,
                          double             width)
{
  g_autoptr(PangoLayout) copy = NULL;
  double height;

  g_return_val_if_fail (PANGO_IS_LAYOUT (layout), 0.0);
  g_return_val_if_fail (style != NULL && (bars != NULL || n_bars == 0), 0.0);

  copy = pango_layout_copy (layout);
  height = place_bars (copy, style, bars, n_bars, width, NULL, NULL, NULL);
  height += LEGEND_GAP + legend (NULL, copy, style, bars, n_bars, width, 0.0);
  return ceil (height);
}

/* The narrowest width: the widest name or figure on a line of its own,
 * and the widest legend item. */
double
hr_chart_bars_get_min_width (PangoLayout       *layout,
                             const HrChartData *style,
                             const HrChartBar  *bars,
                             guint              n_bars)
{
  g_autoptr(PangoLayout) copy = NULL;
  double width = 0.0;

  g_return_val_if_fail (PANGO_IS_LAYOUT (layout), 0.0);
  g_return_val_if_fail (style != NULL && (bars != NULL || n_bars == 0), 0.0);

  copy = pango_layout_copy (layout);
  for (guint i = 0; i < n_bars; i++)
    {
      g_autofree char *figure = bar_figure (style, &bars[i]);

      width = MAX (width, set_text (copy, bars[i].name != NULL ? bars[i].name : "",
                                    FALSE).width);
      width = MAX (width, set_text (copy, figure, TRUE).width);
    }
  for (guint i = 0; i < N_LEGEND_ITEMS; i++)
    width = MAX (width, SWATCH_SIZE + SWATCH_SPACING +
                        set_text (copy, legend_name (i), FALSE).width);
  return ceil (width);
}

void
hr_chart_bars_render (cairo_t           *cr,
                      PangoLayout       *layout,
                      const HrChartData *style,
                      const HrChartBar  *bars,
                      guint              n_bars,
                      double             width,
                      double             height)
{
  g_autoptr(PangoLayout) copy = NULL;
  double name_y[HR_CHART_MAX_BARS];
  double bar_y[HR_CHART_MAX_BARS];
  gboolean two_lines[HR_CHART_MAX_BARS];
  double bottom;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (PANGO_IS_LAYOUT (layout));
  g_return_if_fail (style != NULL && (bars != NULL || n_bars == 0));

  if (width <= 0.0 || height <= 0.0)
    return;
  n_bars = MIN (n_bars, HR_CHART_MAX_BARS);

  copy = pango_layout_copy (layout);
  pango_layout_set_width (copy, -1);
  pango_layout_set_ellipsize (copy, PANGO_ELLIPSIZE_NONE);
  pango_cairo_update_layout (cr, copy);

  bottom = place_bars (copy, style, bars, n_bars, width, name_y, bar_y, two_lines);

  cairo_save (cr);
  for (guint i = 0; i < n_bars; i++)
    {
      g_autofree char *figure = bar_figure (style, &bars[i]);
      HrChartData data;
      Extents name, value;

      name = set_text (copy, bars[i].name != NULL ? bars[i].name : "", FALSE);
      set_source (cr, &style->text, 1.0);
      cairo_move_to (cr, 0.0, name_y[i]);
      pango_cairo_show_layout (cr, copy);

      value = set_text (copy, figure, TRUE);
      set_source (cr, bars[i].usable_bytes > 0 && bar_total (&bars[i]) > bars[i].usable_bytes
                      ? &style->overflow : &style->text, VALUE_ALPHA);
      if (two_lines[i])
        cairo_move_to (cr, 0.0, name_y[i] + name.height);
      else
        cairo_move_to (cr, round (width - value.width), name_y[i]);
      pango_cairo_show_layout (cr, copy);

      hr_chart_bars_data (style, &bars[i], &data);
      cairo_save (cr);
      cairo_translate (cr, 0.0, bar_y[i]);
      hr_chart_render (cr, NULL, &data, width, BAR_HEIGHT);
      cairo_restore (cr);
    }

  legend (cr, copy, style, bars, n_bars, width, bottom + LEGEND_GAP);
  cairo_restore (cr);
}

/**
 * hr_chart_bars_bar_at:
 * @layout: the layout text is drawn with
 * @style: colours and units
 * @bars: the bars drawn
 * @n_bars: how many
 * @width: the chart's width
 * @y: a height in the chart
 *
 * Returns: the bar drawn at @y, or -1 (over a name line or the legend)
 */
int
hr_chart_bars_bar_at (PangoLayout       *layout,
                      const HrChartData *style,
                      const HrChartBar  *bars,
                      guint              n_bars,
                      double             width,
                      double             y)
{
  g_autoptr(PangoLayout) copy = NULL;
  double bar_y[HR_CHART_MAX_BARS];

  g_return_val_if_fail (PANGO_IS_LAYOUT (layout), -1);
  g_return_val_if_fail (style != NULL && (bars != NULL || n_bars == 0), -1);

  n_bars = MIN (n_bars, HR_CHART_MAX_BARS);
  copy = pango_layout_copy (layout);
  place_bars (copy, style, bars, n_bars, width, NULL, bar_y, NULL);
  for (guint i = 0; i < n_bars; i++)
    if (y >= bar_y[i] && y < bar_y[i] + BAR_HEIGHT)
      return (int) i;
  return -1;
}

char *
hr_chart_bars_describe (const HrChartData *style,
                        const HrChartBar  *bars,
                        guint              n_bars)
{
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (style != NULL && (bars != NULL || n_bars == 0), NULL);

  for (guint i = 0; i < n_bars; i++)
    {
      HrChartData data;
      g_autofree char *one = NULL;

      hr_chart_bars_data (style, &bars[i], &data);
      one = hr_chart_describe (&data);
      if (i > 0)
        g_string_append (text, "; ");
      /* TRANSLATORS: one device in the memory chart's description:
       * its name, then what it holds */
      g_string_append_printf (text, _("%s: %s"), bars[i].name != NULL ? bars[i].name : "",
                              one);
    }
  return g_string_free (text, FALSE);
}

char *
hr_chart_bars_describe_part (const HrChartData *style,
                             const HrChartBar  *bar,
                             HrChartPart        part)
{
  HrChartData data;
  g_autofree char *one = NULL;

  g_return_val_if_fail (style != NULL && bar != NULL, NULL);

  hr_chart_bars_data (style, bar, &data);
  one = hr_chart_describe_part (&data, part);
  if (one == NULL)
    return NULL;
  return g_strdup_printf (_("%s: %s"), bar->name != NULL ? bar->name : "", one);
}
