/* hr-chart-render.h — the stacked memory bar, drawn with Cairo and Pango
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pure drawing: no widgets, no style lookups.  HrMemoryChart fills an
 * HrChartData from its properties and CSS colours and calls
 * hr_chart_render() from snapshot(); the tests call it on an image surface.
 */

#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "hr-format.h"

G_BEGIN_DECLS

typedef struct
{
  double r, g, b, a;
} HrChartColor;

typedef struct
{
  /* One device's share of the estimate. */
  guint64 weights_bytes;
  guint64 kv_bytes;
  guint64 state_bytes;     /* recurrent layers' state, its own segment
                            * between the cache and the overhead */
  guint64 overhead_bytes;

  /* What the device can give the model: the limit marker.  0 means
   * “unknown”: no marker, no free segment, nothing shown as overflow. */
  guint64 usable_bytes;

  /* The scale of the bar, normally the device's memory.  Raised to the
   * total (or to usable_bytes) when smaller, so an overflowing total is
   * still drawn, its excess visibly past the marker. */
  guint64 capacity_bytes;

  HrChartColor weights;
  HrChartColor kv;
  HrChartColor state;
  HrChartColor overhead;
  HrChartColor free_;      /* usable memory left over */
  HrChartColor track;      /* the bar past the usable limit (the reserve) */
  HrChartColor limit;      /* the marker */
  HrChartColor text;
  HrChartColor overflow;   /* the part of the total past the limit */

  HrUnits units;
} HrChartData;

typedef struct
{
  double x;
  double width;
} HrChartSegment;

typedef enum
{
  HR_CHART_PART_NONE = -1,
  HR_CHART_PART_WEIGHTS,
  HR_CHART_PART_KV,
  HR_CHART_PART_OVERHEAD,
  HR_CHART_PART_FREE,
  HR_CHART_PART_OVERFLOW,
  HR_CHART_PART_RESERVED,
  HR_CHART_PART_STATE,
} HrChartPart;

/* Height of the bar itself when a legend is drawn. */
#define HR_CHART_BAR_HEIGHT 28.0

guint64     hr_chart_data_get_total         (const HrChartData *data);
guint64     hr_chart_data_get_capacity      (const HrChartData *data);
gboolean    hr_chart_data_is_overflowing    (const HrChartData *data);

void        hr_chart_layout_segments        (const HrChartData *data,
                                             double             bar_width,
                                             HrChartSegment     segments[4],
                                             double            *limit_x);
void        hr_chart_state_segment          (const HrChartData *data,
                                             double             bar_width,
                                             HrChartSegment    *segment);
HrChartPart hr_chart_part_at                (const HrChartData *data,
                                             double             bar_width,
                                             double             x);

void        hr_chart_get_bar_area           (PangoLayout       *layout,
                                             double             height,
                                             double            *bar_y,
                                             double            *bar_height);
double      hr_chart_get_min_width          (PangoLayout       *layout,
                                             const HrChartData *data);
double      hr_chart_get_height_for_width   (PangoLayout       *layout,
                                             const HrChartData *data,
                                             double             width);

void        hr_chart_render                 (cairo_t           *cr,
                                             PangoLayout       *layout,
                                             const HrChartData *data,
                                             double             width,
                                             double             height);

char       *hr_chart_describe               (const HrChartData *data);
char       *hr_chart_describe_part          (const HrChartData *data,
                                             HrChartPart        part);

G_END_DECLS
