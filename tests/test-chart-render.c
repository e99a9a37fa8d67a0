/* test-chart-render.c — the memory bar's proportions, pixel by pixel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * No display needed: hr_chart_render() draws on a Cairo image surface in
 * pure colours, and the runs of each colour along the bar's middle row
 * must match the bytes they stand for.
 */

#define G_LOG_DOMAIN "test-chart-render"

#include "config.h"

#include <math.h>

#include <pango/pangocairo.h>

#include "hr-chart-bars.h"
#include "hr-chart-render.h"
#include "hr-test-app.h"

#define CYAN     0xff00ffffu

/* The seed case: GLM-4-9B Q4_K_M at 32K on an RTX 3060 12GB. */
#define SEED_WEIGHTS  G_GUINT64_CONSTANT (5698919168)
#define SEED_KV       G_GUINT64_CONSTANT (1342177280)
#define SEED_OVERHEAD G_GUINT64_CONSTANT (1395033254)
#define SEED_USABLE   G_GUINT64_CONSTANT (12680890941)
#define SEED_CAPACITY G_GUINT64_CONSTANT (12884901888)
#define GIB           G_GUINT64_CONSTANT (1073741824)

#define BAR_WIDTH  600
#define BAR_HEIGHT 40

/* Pixels as Cairo stores them: 0xAARRGGBB, all opaque here. */
#define WHITE    0xffffffffu
#define RED      0xffff0000u
#define GREEN    0xff00ff00u
#define BLUE     0xff0000ffu
#define YELLOW   0xffffff00u
#define GREY     0xff808080u
#define BLACK    0xff000000u
#define MAGENTA  0xffff00ffu

static void
init_data (HrChartData *data,
           guint64      weights,
           guint64      kv,
           guint64      overhead,
           guint64      usable,
           guint64      capacity)
{
  *data = (HrChartData) {
    .weights_bytes = weights,
    .kv_bytes = kv,
    .overhead_bytes = overhead,
    .usable_bytes = usable,
    .capacity_bytes = capacity,
    .weights = { 1, 0, 0, 1 },
    .kv = { 0, 1, 0, 1 },
    .overhead = { 0, 0, 1, 1 },
    .free_ = { 1, 1, 0, 1 },
    .track = { 128 / 255.0, 128 / 255.0, 128 / 255.0, 1 },
    .limit = { 0, 0, 0, 1 },
    .text = { 0, 0, 0, 1 },
    .overflow = { 1, 0, 1, 1 },
    .units = HR_UNITS_BINARY,
  };
}

static void
init_seed (HrChartData *data)
{
  init_data (data, SEED_WEIGHTS, SEED_KV, SEED_OVERHEAD, SEED_USABLE,
             SEED_CAPACITY);
}

static cairo_surface_t *
render (const HrChartData *data,
        int                width,
        int                height,
        gboolean           with_text,
        double             chart_width,
        double             chart_height)
{
  cairo_surface_t *surface;
  cairo_t *cr;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);

  if (with_text)
    {
      PangoLayout *layout = pango_cairo_create_layout (cr);
      PangoFontDescription *font = pango_font_description_from_string ("Sans 11");

      pango_layout_set_font_description (layout, font);
      hr_chart_render (cr, layout, data, chart_width, chart_height);
      pango_font_description_free (font);
      g_object_unref (layout);
    }
  else
    {
      hr_chart_render (cr, NULL, data, chart_width, chart_height);
    }

  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  return surface;
}

static guint32
pixel (cairo_surface_t *surface,
       int              x,
       int              y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);

  return *(const guint32 *) (data + y * stride + x * 4);
}

typedef struct
{
  int first;   /* -1 if the colour does not occur */
  int last;
  int count;
} Run;

/* Where a colour occurs along a row, in one run or cut by the marker. */
static Run
find_pixels (cairo_surface_t *surface,
             int              y,
             guint32          color)
{
  int width = cairo_image_surface_get_width (surface);
  Run run = { -1, -1, 0 };

  for (int x = 0; x < width; x++)
    {
      if (pixel (surface, x, y) != color)
        continue;
      if (run.first < 0)
        run.first = x;
      run.last = x;
      run.count++;
    }

  return run;
}

/* Where a colour occurs along a row, and whether it is one run. */
static Run
find_run (cairo_surface_t *surface,
          int              y,
          guint32          color)
{
  Run run = find_pixels (surface, y, color);

  if (run.count > 0)
    g_assert_cmpint (run.count, ==, run.last - run.first + 1);

  return run;
}

static void
assert_near (double value,
             double expected,
             double tolerance)
{
  if (fabs (value - expected) > tolerance)
    g_error ("%.3f is not within %.1f of %.3f", value, tolerance, expected);
}

static void
test_layout_segments (void)
{
  HrChartData data;
  HrChartSegment segments[4];
  double limit_x;
  double capacity = (double) SEED_CAPACITY;
  double w = BAR_WIDTH;

  init_seed (&data);
  hr_chart_layout_segments (&data, w, segments, &limit_x);

  g_assert_cmpfloat (segments[0].x, ==, 0.0);
  g_assert_cmpfloat_with_epsilon (segments[0].width,
                                  w * SEED_WEIGHTS / capacity, 1e-9);
  g_assert_cmpfloat_with_epsilon (segments[1].x,
                                  w * SEED_WEIGHTS / capacity, 1e-9);
  g_assert_cmpfloat_with_epsilon (segments[1].width,
                                  w * SEED_KV / capacity, 1e-9);
  g_assert_cmpfloat_with_epsilon (segments[2].x,
                                  w * (SEED_WEIGHTS + SEED_KV) / capacity, 1e-9);
  g_assert_cmpfloat_with_epsilon (segments[2].width,
                                  w * SEED_OVERHEAD / capacity, 1e-9);
  g_assert_cmpfloat_with_epsilon (segments[3].x,
                                  w * (SEED_WEIGHTS + SEED_KV + SEED_OVERHEAD) /
                                  capacity, 1e-9);
  g_assert_cmpfloat_with_epsilon (segments[3].width,
                                  w * (SEED_USABLE - SEED_WEIGHTS - SEED_KV -
                                       SEED_OVERHEAD) / capacity, 1e-9);
  g_assert_cmpfloat_with_epsilon (limit_x, w * SEED_USABLE / capacity, 1e-9);

  /* Overflow: the scale grows to the total, free is empty. */
  init_data (&data, 8 * GIB, 3 * GIB, 2 * GIB, SEED_USABLE, SEED_CAPACITY);
  hr_chart_layout_segments (&data, w, segments, &limit_x);
  g_assert_true (hr_chart_data_is_overflowing (&data));
  g_assert_cmpuint (hr_chart_data_get_capacity (&data), ==, 13 * GIB);
  g_assert_cmpfloat_with_epsilon (segments[0].width, w * 8 / 13, 1e-9);
  g_assert_cmpfloat_with_epsilon (segments[2].x + segments[2].width, w, 1e-9);
  g_assert_cmpfloat (segments[3].width, ==, 0.0);
  g_assert_cmpfloat_with_epsilon (limit_x, w * SEED_USABLE / (13.0 * GIB), 1e-9);

  /* Nothing known yet: no division by zero, no marker. */
  init_data (&data, 0, 0, 0, 0, 0);
  hr_chart_layout_segments (&data, w, segments, &limit_x);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpfloat (segments[i].width, ==, 0.0);
  g_assert_cmpfloat (limit_x, <, 0.0);
  g_assert_cmpint (hr_chart_part_at (&data, w, 10), ==, HR_CHART_PART_NONE);
}

static void
test_part_at (void)
{
  HrChartData data;

  init_seed (&data);
  g_assert_cmpint (hr_chart_part_at (&data, BAR_WIDTH, -1), ==, HR_CHART_PART_NONE);
  g_assert_cmpint (hr_chart_part_at (&data, BAR_WIDTH, 10), ==, HR_CHART_PART_WEIGHTS);
  g_assert_cmpint (hr_chart_part_at (&data, BAR_WIDTH, 300), ==, HR_CHART_PART_KV);
  g_assert_cmpint (hr_chart_part_at (&data, BAR_WIDTH, 360), ==, HR_CHART_PART_OVERHEAD);
  g_assert_cmpint (hr_chart_part_at (&data, BAR_WIDTH, 500), ==, HR_CHART_PART_FREE);
  g_assert_cmpint (hr_chart_part_at (&data, BAR_WIDTH, 595), ==, HR_CHART_PART_RESERVED);
  g_assert_cmpint (hr_chart_part_at (&data, BAR_WIDTH, BAR_WIDTH), ==, HR_CHART_PART_NONE);

  init_data (&data, 8 * GIB, 3 * GIB, 2 * GIB, SEED_USABLE, SEED_CAPACITY);
  g_assert_cmpint (hr_chart_part_at (&data, BAR_WIDTH, 599), ==, HR_CHART_PART_OVERFLOW);
  g_assert_cmpint (hr_chart_part_at (&data, BAR_WIDTH, 520), ==, HR_CHART_PART_OVERHEAD);
}

static void
test_bar_pixels (void)
{
  HrChartData data;
  cairo_surface_t *surface;
  int y = BAR_HEIGHT / 2;
  double scale = (double) BAR_WIDTH / SEED_CAPACITY;
  double limit_x = SEED_USABLE * scale;
  Run weights, kv, overhead, free_, marker, track;

  init_seed (&data);
  surface = render (&data, BAR_WIDTH, BAR_HEIGHT, FALSE, BAR_WIDTH, BAR_HEIGHT);

  weights = find_run (surface, y, RED);
  kv = find_run (surface, y, GREEN);
  overhead = find_run (surface, y, BLUE);
  free_ = find_run (surface, y, YELLOW);
  marker = find_run (surface, y, BLACK);
  track = find_run (surface, y, GREY);

  g_assert_cmpint (weights.first, ==, 0);
  assert_near (weights.count, SEED_WEIGHTS * scale, 2);
  assert_near (kv.count, SEED_KV * scale, 2);
  assert_near (overhead.count, SEED_OVERHEAD * scale, 2);
  assert_near (free_.count,
               (SEED_USABLE - SEED_WEIGHTS - SEED_KV - SEED_OVERHEAD) * scale, 2);

  /* In order, left to right. */
  g_assert_cmpint (weights.last, <, kv.first);
  g_assert_cmpint (kv.last, <, overhead.first);
  g_assert_cmpint (overhead.last, <, free_.first);
  g_assert_cmpint (free_.last, <, marker.first);
  g_assert_cmpint (marker.last, <, track.first);

  /* A thin marker at the usable limit, the reserve past it. */
  g_assert_cmpint (marker.count, >=, 1);
  g_assert_cmpint (marker.count, <=, 3);
  assert_near ((marker.first + marker.last + 1) / 2.0, limit_x, 2);
  g_assert_cmpint (track.last, ==, BAR_WIDTH - 1);
  g_assert_cmpint (find_run (surface, y, MAGENTA).count, ==, 0);

  /* The marker spans the bar, top to bottom. */
  g_assert_cmpuint (pixel (surface, marker.first, 0), ==, BLACK);
  g_assert_cmpuint (pixel (surface, marker.first, BAR_HEIGHT - 1), ==, BLACK);

  cairo_surface_destroy (surface);
}

static void
test_overflow_pixels (void)
{
  HrChartData data;
  cairo_surface_t *surface;
  int y = BAR_HEIGHT / 2;
  double scale = (double) BAR_WIDTH / (13.0 * GIB);
  double limit_x = SEED_USABLE * scale;
  int band_y = BAR_HEIGHT - 2;
  Run weights, kv, overhead, marker;

  init_data (&data, 8 * GIB, 3 * GIB, 2 * GIB, SEED_USABLE, SEED_CAPACITY);
  surface = render (&data, BAR_WIDTH, BAR_HEIGHT, FALSE, BAR_WIDTH, BAR_HEIGHT);

  weights = find_run (surface, y, RED);
  kv = find_run (surface, y, GREEN);
  /* the marker crosses the overhead */
  overhead = find_pixels (surface, y, BLUE);
  marker = find_run (surface, y, BLACK);

  assert_near (weights.count, 8 * GIB * scale, 2);
  assert_near (kv.count, 3 * GIB * scale, 2);
  /* Every part to scale, past the limit too: the bar runs on. */
  assert_near (overhead.last - overhead.first + 1, 2 * GIB * scale, 2);
  assert_near (overhead.last + 1, BAR_WIDTH, 1);
  g_assert_cmpint (overhead.last, >, limit_x);
  assert_near ((marker.first + marker.last + 1) / 2.0, limit_x, 2);
  g_assert_cmpint (find_run (surface, y, MAGENTA).count, ==, 0);

  /* the excess is marked by a band along the bottom, from the marker to
   * the end of the bar (its rounded corner aside) */
  for (int x = 0; x < BAR_WIDTH - BAR_HEIGHT / 4; x++)
    {
      gboolean band = pixel (surface, x, band_y) == MAGENTA;

      if (x < marker.first)
        g_assert_false (band);
      else if (x > marker.last)
        g_assert_true (band);
    }

  g_assert_cmpint (find_run (surface, y, YELLOW).count, ==, 0);
  g_assert_cmpint (find_run (surface, y, GREY).count, ==, 0);

  cairo_surface_destroy (surface);
}

/* A part too small for a pixel still shows, as the legend lists it. */
static void
test_small_part_shows (void)
{
  HrChartData data;
  cairo_surface_t *surface;
  int y = BAR_HEIGHT / 2;

  /* 40 GiB over a 12 GiB device: 4 MiB of overhead is 0.06 px */
  init_data (&data, 38 * GIB, 2 * GIB, 4 << 20, SEED_USABLE, SEED_CAPACITY);
  surface = render (&data, BAR_WIDTH, BAR_HEIGHT, FALSE, BAR_WIDTH, BAR_HEIGHT);
  g_assert_cmpint (find_run (surface, y, BLUE).count, >=, 1);
  g_assert_cmpint (find_run (surface, y, GREEN).count, >, 0);
  cairo_surface_destroy (surface);
}

static int
count_ink (cairo_surface_t *surface,
           int              x0,
           int              y0,
           int              x1,
           int              y1)
{
  int count = 0;

  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      count += pixel (surface, x, y) != WHITE;

  return count;
}

static double
measure_height (const HrChartData *data,
                double             width)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  PangoLayout *layout;
  PangoFontDescription *font;
  double height;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cr = cairo_create (surface);
  layout = pango_cairo_create_layout (cr);
  font = pango_font_description_from_string ("Sans 11");
  pango_layout_set_font_description (layout, font);

  height = hr_chart_get_height_for_width (layout, data, width);
  /* Nothing is cut off at 450 px, the Overview's width in an 800 px
   * window. */
  g_assert_cmpfloat (hr_chart_get_min_width (layout, data), <=, 450);
  g_assert_cmpfloat (hr_chart_get_min_width (layout, data), >, 100);

  pango_font_description_free (font);
  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  return height;
}

static void
test_legend (void)
{
  HrChartData data;
  cairo_surface_t *surface;
  int chart_width = 450;
  int surface_width = 520;
  double height, wide_height;
  double bar_y = -1, bar_height = -1;
  int legend_top;

  init_seed (&data);
  height = measure_height (&data, chart_width);
  wide_height = measure_height (&data, 1200);
  g_test_message ("height at 450 px: %.0f, at 1200 px: %.0f", height, wide_height);

  /* Two legend rows at 450 px, one when wide. */
  g_assert_cmpfloat (height, >=, 70);
  g_assert_cmpfloat (height, <=, 120);
  g_assert_cmpfloat (wide_height, <, height);

  surface = render (&data, surface_width, (int) height + 40, TRUE,
                    chart_width, height);

  {
    cairo_t *cr = cairo_create (surface);
    PangoLayout *layout = pango_cairo_create_layout (cr);
    PangoFontDescription *font = pango_font_description_from_string ("Sans 11");

    pango_layout_set_font_description (layout, font);
    hr_chart_get_bar_area (layout, height, &bar_y, &bar_height);
    pango_font_description_free (font);
    g_object_unref (layout);
    cairo_destroy (cr);
  }
  g_assert_cmpfloat (bar_y, >, 0);
  g_assert_cmpfloat (bar_height, ==, HR_CHART_BAR_HEIGHT);

  /* The bar is where hr_chart_get_bar_area() says. */
  g_assert_cmpuint (pixel (surface, 5, (int) (bar_y + bar_height / 2)), ==, RED);
  g_assert_cmpuint (pixel (surface, chart_width - 3, (int) (bar_y + bar_height / 2)),
                    ==, GREY);

  /* The legend draws text below the bar, the limit label above it. */
  legend_top = (int) (bar_y + bar_height) + 4;
  g_assert_cmpint (count_ink (surface, 0, legend_top, chart_width, (int) height),
                   >, 200);
  g_assert_cmpint (count_ink (surface, 0, 0, chart_width, (int) bar_y - 1), >, 20);

  /* Swatches in the legend's colours. */
  {
    gboolean seen[4] = { FALSE, };
    const guint32 colors[4] = { RED, GREEN, BLUE, YELLOW };

    for (int y = legend_top; y < (int) height; y++)
      for (int x = 0; x < chart_width; x++)
        for (guint i = 0; i < 4; i++)
          seen[i] |= pixel (surface, x, y) == colors[i];

    for (guint i = 0; i < 4; i++)
      g_assert_true (seen[i]);
  }

  /* Nothing past the chart's width or height. */
  g_assert_cmpint (count_ink (surface, chart_width, 0, surface_width,
                              (int) height + 40), ==, 0);
  g_assert_cmpint (count_ink (surface, 0, (int) height, surface_width,
                              (int) height + 40), ==, 0);

  if (g_test_verbose ())
    cairo_surface_write_to_png (surface, "test-chart-render-legend.png");

  cairo_surface_destroy (surface);
}

static void
test_legend_overflow (void)
{
  HrChartData data;
  cairo_surface_t *surface;
  double height;

  init_data (&data, 8 * GIB, 3 * GIB, 2 * GIB, SEED_USABLE, SEED_CAPACITY);
  height = measure_height (&data, 450);
  surface = render (&data, 450, (int) height, TRUE, 450, height);

  /* The overflow colour appears in the legend as well as the bar. */
  {
    int seen = 0;

    for (int y = (int) height - 30; y < (int) height; y++)
      for (int x = 0; x < 450; x++)
        seen += pixel (surface, x, y) == MAGENTA;
    g_assert_cmpint (seen, >, 0);
  }

  cairo_surface_destroy (surface);
}

static void
test_describe (void)
{
  HrChartData data;
  g_autofree char *text = NULL;
  g_autofree char *over = NULL;
  g_autofree char *unknown = NULL;
  g_autofree char *tip = NULL;

  init_seed (&data);
  text = hr_chart_describe (&data);
  g_assert_cmpstr (text, ==,
                   "Weights 5.31\u00a0GiB (67.6\u00a0%), "
                   "KV cache 1.25\u00a0GiB (15.9\u00a0%), "
                   "overhead 1.30\u00a0GiB (16.5\u00a0%), "
                   "total 7.86\u00a0GiB of 11.81\u00a0GiB usable");

  tip = hr_chart_describe_part (&data, HR_CHART_PART_KV);
  g_assert_cmpstr (tip, ==, "KV cache: 1.25\u00a0GiB (15.9\u00a0% of the total)");
  g_clear_pointer (&tip, g_free);
  tip = hr_chart_describe_part (&data, HR_CHART_PART_FREE);
  g_assert_cmpstr (tip, ==, "Free: 3.95\u00a0GiB of usable memory left");
  g_assert_null (hr_chart_describe_part (&data, HR_CHART_PART_NONE));

  init_data (&data, 8 * GIB, 3 * GIB, 2 * GIB, SEED_USABLE, SEED_CAPACITY);
  over = hr_chart_describe (&data);
  g_assert_true (g_str_has_suffix (over, "total 13.00\u00a0GiB of 11.81\u00a0GiB "
                                         "usable, 1.19\u00a0GiB over the limit"));

  init_data (&data, 0, 0, 0, 0, 0);
  unknown = hr_chart_describe (&data);
  g_assert_true (g_str_has_suffix (unknown, "total 0.00\u00a0GiB"));
}

/* One bar per device: each scaled to its own memory, under its name. */
static void
test_bars (void)
{
  HrChartData style;
  HrChartBar bars[2] = {
    { (char *) "GPU 1 · 25 layers", 9 * GIB, GIB, 0, GIB / 2, SEED_USABLE, SEED_CAPACITY },
    { (char *) "System RAM · 22 layers", 8 * GIB, GIB, 0, GIB / 2, 28 * GIB, 32 * GIB },
  };
  cairo_surface_t *surface;
  cairo_t *cr;
  PangoLayout *layout;
  PangoFontDescription *font = pango_font_description_from_string ("Sans 11");
  int height;
  int found[2] = { -1, -1 };
  g_autofree char *description = NULL;

  init_seed (&style);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, BAR_WIDTH, 1);
  cr = cairo_create (surface);
  layout = pango_cairo_create_layout (cr);
  pango_layout_set_font_description (layout, font);
  height = (int) hr_chart_bars_get_height (layout, &style, bars, 2, BAR_WIDTH);
  /* two bars with their names, and a legend */
  g_assert_cmpint (height, >, 2 * 20 + 2 * 10);
  g_assert_cmpfloat (hr_chart_bars_get_min_width (layout, &style, bars, 2), <, BAR_WIDTH);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, BAR_WIDTH, height);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  hr_chart_bars_render (cr, layout, &style, bars, 2, BAR_WIDTH, height);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_flush (surface);

  /* the middle row of each bar: weights in proportion to that device's
   * memory, the marker at its usable limit */
  for (int y = 0; y < height; y++)
    {
      int bar = hr_chart_bars_bar_at (layout, &style, bars, 2, BAR_WIDTH, y);

      if (bar >= 0 && found[bar] < 0)
        found[bar] = y;
    }
  for (guint i = 0; i < 2; i++)
    {
      int y = found[i] + 10;
      double scale = (double) BAR_WIDTH / bars[i].capacity_bytes;
      Run weights = find_run (surface, y, RED);
      Run marker = find_run (surface, y, BLACK);

      g_assert_cmpint (found[i], >=, 0);
      g_assert_cmpint (weights.first, ==, 0);
      assert_near (weights.count, bars[i].weights_bytes * scale, 2);
      assert_near (find_run (surface, y, GREEN).count, bars[i].kv_bytes * scale, 2);
      assert_near ((marker.first + marker.last + 1) / 2.0, bars[i].usable_bytes * scale, 2);
    }
  /* the second bar below the first, the legend below both */
  g_assert_cmpint (found[1], >, found[0] + 20);
  g_assert_cmpint (hr_chart_bars_bar_at (layout, &style, bars, 2, BAR_WIDTH, height - 1), ==, -1);

  description = hr_chart_bars_describe (&style, bars, 2);
  g_assert_nonnull (strstr (description, "GPU 1 · 25 layers: Weights 9.00\u00a0GiB"));
  g_assert_nonnull (strstr (description, "System RAM · 22 layers: Weights 8.00\u00a0GiB"));

  pango_font_description_free (font);
  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* A hybrid's recurrent state is its own segment, between the KV cache and
 * the overhead, in the total, the tooltips, the legend and the words. */
static void
test_state (void)
{
  HrChartData data;
  cairo_surface_t *surface;
  int y = BAR_HEIGHT / 2;
  double scale = (double) BAR_WIDTH / SEED_CAPACITY;
  HrChartSegment state;
  Run kv, cyan, overhead;
  g_autofree char *words = NULL;
  g_autofree char *tip = NULL;

  init_seed (&data);
  data.state_bytes = GIB;
  data.state = (HrChartColor) { 0, 1, 1, 1 };
  g_assert_cmpuint (hr_chart_data_get_total (&data), ==,
                    SEED_WEIGHTS + SEED_KV + GIB + SEED_OVERHEAD);

  hr_chart_state_segment (&data, BAR_WIDTH, &state);
  assert_near (state.x, (SEED_WEIGHTS + SEED_KV) * scale, 0.01);
  assert_near (state.width, GIB * scale, 0.01);
  g_assert_cmpint (hr_chart_part_at (&data, BAR_WIDTH, state.x + state.width / 2), ==,
                   HR_CHART_PART_STATE);

  surface = render (&data, BAR_WIDTH, BAR_HEIGHT, FALSE, BAR_WIDTH, BAR_HEIGHT);
  kv = find_run (surface, y, GREEN);
  cyan = find_run (surface, y, CYAN);
  overhead = find_run (surface, y, BLUE);
  assert_near (cyan.count, GIB * scale, 2);
  assert_near (overhead.count, SEED_OVERHEAD * scale, 2);
  g_assert_cmpint (kv.last, <, cyan.first);
  g_assert_cmpint (cyan.last, <, overhead.first);
  cairo_surface_destroy (surface);

  tip = hr_chart_describe_part (&data, HR_CHART_PART_STATE);
  g_assert_cmpstr (tip, ==, "Recurrent state: 1.00\u00a0GiB (11.3\u00a0% of the total)");
  words = hr_chart_describe (&data);
  g_assert_nonnull (strstr (words, "recurrent state 1.00\u00a0GiB (11.3\u00a0%)"));

  /* the legend gets a fifth item; still drawn without criticals */
  g_assert_cmpfloat (measure_height (&data, 450), >=, measure_height (&data, 1200));
}

int
main (int   argc,
      char *argv[])
{
  hr_test_isolate_home ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chart-render/layout-segments", test_layout_segments);
  g_test_add_func ("/chart-render/part-at", test_part_at);
  g_test_add_func ("/chart-render/bar-pixels", test_bar_pixels);
  g_test_add_func ("/chart-render/overflow-pixels", test_overflow_pixels);
  g_test_add_func ("/chart-render/small-part-shows", test_small_part_shows);
  g_test_add_func ("/chart-render/legend", test_legend);
  g_test_add_func ("/chart-render/legend-overflow", test_legend_overflow);
  g_test_add_func ("/chart-render/describe", test_describe);
  g_test_add_func ("/chart-render/bars", test_bars);
  g_test_add_func ("/chart-render/state", test_state);

  return g_test_run ();
}
