/* hr-serving-plot.h — answer rates against users, drawn with Cairo
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "hr-chart-render.h"
#include "hr-serving-table.h"

G_BEGIN_DECLS

/* What one frame shows: the curve of an HrServingTable and its marks. */
typedef struct
{
  const HrServingPoint *points;
  guint n_points;
  double target;               /* tok/s each user should get; 0: none */
  guint32 cache_limit;         /* users the KV cache holds; 0: unknown */

  HrChartColor aggregate;
  HrChartColor per_user;
  HrChartColor target_color;
  HrChartColor limit;
  HrChartColor text;
  HrChartColor grid;
} HrServingPlotData;

/* Where the plot's parts are, for the renderer and the tests. */
typedef struct
{
  double left, right;          /* the panels' x range */
  double aggregate_top, aggregate_bottom;
  double per_user_top, per_user_bottom;
  double aggregate_max;        /* the panels' y scales: 0 … max */
  double per_user_max;
} HrServingPlotGeometry;

#define HR_SERVING_PLOT_MIN_WIDTH  280
#define HR_SERVING_PLOT_HEIGHT     320

void     hr_serving_plot_geometry  (PangoLayout             *layout,
                                    const HrServingPlotData *data,
                                    double                   width,
                                    double                   height,
                                    HrServingPlotGeometry   *geometry);
double   hr_serving_plot_x         (const HrServingPlotData     *data,
                                    const HrServingPlotGeometry *geometry,
                                    double                       users);
void     hr_serving_plot_render    (cairo_t                 *cr,
                                    PangoLayout             *layout,
                                    const HrServingPlotData *data,
                                    double                   width,
                                    double                   height);
char    *hr_serving_plot_describe  (const HrServingPlotData *data);

#define HR_TYPE_SERVING_PLOT (hr_serving_plot_get_type ())

G_DECLARE_FINAL_TYPE (HrServingPlot, hr_serving_plot, HR, SERVING_PLOT, GtkWidget)

GtkWidget               *hr_serving_plot_new      (void);
void                     hr_serving_plot_set_data (HrServingPlot  *self,
                                                   HrServingTable *table);
const HrServingPlotData *hr_serving_plot_get_data (HrServingPlot  *self);

G_END_DECLS
