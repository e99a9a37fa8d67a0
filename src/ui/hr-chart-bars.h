/* hr-chart-bars.h — one memory bar per device, drawn with Cairo and Pango
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * When llama.cpp spreads a model over several GPUs, or leaves layers in
 * system RAM, the memory chart shows one bar per place: each GPU, then
 * system RAM.  Each bar is drawn by hr_chart_render() (same colours, the
 * usable marker on each) under a line naming it; a legend of the colours
 * follows.  Pure drawing, as hr-chart-render.h: the tests call it on an
 * image surface.
 */

#pragma once

#include "hr-chart-render.h"

G_BEGIN_DECLS

/* llama.cpp counts at most 16 GPUs; one more bar for system RAM. */
#define HR_CHART_MAX_BARS 17

typedef struct
{
  char *name;              /* "GPU 1 · 25 layers", "System RAM · 22 layers" */
  guint64 weights_bytes;
  guint64 kv_bytes;
  guint64 state_bytes;     /* recurrent layers' state */
  guint64 overhead_bytes;  /* compute buffers, reserve, the rest */
  guint64 usable_bytes;    /* the marker; 0 for none */
  guint64 capacity_bytes;  /* the scale: the device's memory */
} HrChartBar;

/* @style gives the colours and units (its byte fields are ignored). */
double  hr_chart_bars_get_height     (PangoLayout       *layout,
                                      const HrChartData *style,
                                      const HrChartBar  *bars,
                                      guint              n_bars,
                                      double             width);
double  hr_chart_bars_get_min_width  (PangoLayout       *layout,
                                      const HrChartData *style,
                                      const HrChartBar  *bars,
                                      guint              n_bars);
void    hr_chart_bars_render         (cairo_t           *cr,
                                      PangoLayout       *layout,
                                      const HrChartData *style,
                                      const HrChartBar  *bars,
                                      guint              n_bars,
                                      double             width,
                                      double             height);
void    hr_chart_bars_data           (const HrChartData *style,
                                      const HrChartBar  *bar,
                                      HrChartData       *data);
int     hr_chart_bars_bar_at         (PangoLayout       *layout,
                                      const HrChartData *style,
                                      const HrChartBar  *bars,
                                      guint              n_bars,
                                      double             width,
                                      double             y);
char   *hr_chart_bars_describe       (const HrChartData *style,
                                      const HrChartBar  *bars,
                                      guint              n_bars);
char   *hr_chart_bars_describe_part  (const HrChartData *style,
                                      const HrChartBar  *bar,
                                      HrChartPart        part);

G_END_DECLS
