/* hr-serving-plot.c — answer rates against users, drawn with Cairo
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two panels over one logarithmic users axis:
 *
 *   All users, tok/s                  ┆ KV cache: 12 users
 *   2000 ┤            ●───●───●───●───┆───●───●     aggregate
 *      0 ┼───●───●────────────────────┆──────────
 *   Each user, tok/s                  ┆
 *    120 ┤●───●───●                   ┆
 *     20 ┤┄┄┄┄┄┄┄┄┄┄┄┄●┄┄┄┄┄┄┄┄┄┄┄┄┄┄┄┆┄┄┄┄ target  per user
 *      0 ┼────────────────────●───●───┆───●───●
 *         1       4      16      64     256
 *                   Users at once
 *
 * hr_serving_plot_render() is pure drawing (the tests call it on an image
 * surface); HrServingPlot looks the colours up in css_changed and draws
 * the HrServingTable it is given.
 */

#define G_LOG_DOMAIN "hr-serving-plot"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "hr-serving-plot.h"

#define PAD             6.0   /* around labels */
#define PANEL_GAP       22.0  /* between the two panels */
#define LINE_WIDTH      2.0
#define DOT_RADIUS      2.5
#define GRID_ALPHA      0.35  /* of the grid colour, itself half the text's */
#define WAIT_ALPHA      0.45  /* points past the cache's limit: users wait */
#define DASH            4.0

/* ----------------------------------------------------------- geometry */

/* 1, 2, 2.5, 5 × 10^k: the smallest at or above @v. */
static double
nice_ceiling (double v)
{
  static const double steps[] = { 1, 2, 2.5, 5, 10 };
  double p;

  if (v <= 0)
    return 1;
  p = pow (10, floor (log10 (v)));
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] * p >= v * (1 - 1e-9))
      return steps[i] * p;
  return 10 * p;
}

static void
text_size (PangoLayout *layout,
           const char  *text,
           double      *width,
           double      *height)
{
  int w, h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  if (width != NULL)
    *width = w;
  if (height != NULL)
    *height = h;
}

static char *
axis_label (double value)
{
  return g_strdup_printf ("%.*f", value != floor (value) ? 1 : 0, value);
}

static double
users_max (const HrServingPlotData *data)
{
  return data->n_points > 0 ? MAX (data->points[data->n_points - 1].users, 2) : 2;
}

void
hr_serving_plot_geometry (PangoLayout             *layout,
                          const HrServingPlotData *data,
                          double                   width,
                          double                   height,
                          HrServingPlotGeometry   *g)
{
  double aggregate = 0, per_user = data->target * 1.2;
  double line, label_width = 0, panel;

  for (guint i = 0; i < data->n_points; i++)
    {
      aggregate = MAX (aggregate, data->points[i].aggregate_tokens_per_s);
      per_user = MAX (per_user, data->points[i].per_user_tokens_per_s);
    }
  g->aggregate_max = nice_ceiling (aggregate);
  g->per_user_max = nice_ceiling (per_user);

  text_size (layout, "0", NULL, &line);
  /* the widest of the grid's labels: each panel's top and middle */
  for (guint k = 0; k < 4; k++)
    {
      double max = k < 2 ? g->aggregate_max : g->per_user_max;
      g_autofree char *label = axis_label (k % 2 == 0 ? max : max / 2);
      double w;

      text_size (layout, label, &w, NULL);
      label_width = MAX (label_width, w);
    }
  g->left = label_width + PAD;
  g->right = width - PAD - label_width / 2;

  /* title, panel, gap, title, panel, tick labels, axis title */
  panel = MAX ((height - 4 * line - PANEL_GAP - 2 * PAD) / 2, 1);
  g->aggregate_top = line + PAD / 2;
  g->aggregate_bottom = g->aggregate_top + panel;
  g->per_user_top = g->aggregate_bottom + PANEL_GAP + line + PAD / 2;
  g->per_user_bottom = g->per_user_top + panel;
}

double
hr_serving_plot_x (const HrServingPlotData     *data,
                   const HrServingPlotGeometry *g,
                   double                       users)
{
  return g->left + log2 (MAX (users, 1)) / log2 (users_max (data)) * (g->right - g->left);
}

static double
y_of (double value,
      double max,
      double top,
      double bottom)
{
  return bottom - CLAMP (value / max, 0, 1) * (bottom - top);
}

/* ---------------------------------------------------------- drawing */

static void
set_source (cairo_t            *cr,
            const HrChartColor *color,
            double              alpha)
{
  cairo_set_source_rgba (cr, color->r, color->g, color->b, color->a * alpha);
}

typedef enum { ALIGN_START, ALIGN_CENTER, ALIGN_END } Align;

static void
show_text (cairo_t            *cr,
           PangoLayout        *layout,
           const char         *text,
           const HrChartColor *color,
           double              x,
           double              y,
           Align               align)
{
  double w;

  text_size (layout, text, &w, NULL);
  x -= align == ALIGN_END ? w : align == ALIGN_CENTER ? w / 2 : 0;
  set_source (cr, color, 1);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

static void
draw_panel (cairo_t                     *cr,
            PangoLayout                 *layout,
            const HrServingPlotData     *data,
            const HrServingPlotGeometry *g,
            const char                  *title,
            double                       max,
            double                       top,
            double                       bottom,
            gboolean                     aggregate)
{
  const HrChartColor *color = aggregate ? &data->aggregate : &data->per_user;
  double line;

  text_size (layout, "0", NULL, &line);
  show_text (cr, layout, title, &data->text, g->left, top - line - PAD / 2, ALIGN_START);

  /* grid: 0, half, max */
  cairo_set_line_width (cr, 1);
  for (guint k = 0; k <= 2; k++)
    {
      double value = max * k / 2;
      double y = round (y_of (value, max, top, bottom)) + 0.5;
      g_autofree char *label = axis_label (value);

      set_source (cr, &data->grid, k == 0 ? 1 : GRID_ALPHA);
      cairo_move_to (cr, g->left, y);
      cairo_line_to (cr, g->right, y);
      cairo_stroke (cr);
      show_text (cr, layout, label, &data->text, g->left - PAD, y - line / 2, ALIGN_END);
    }

  /* the target, each user's panel only */
  if (!aggregate && data->target > 0)
    {
      double y = y_of (data->target, max, top, bottom);
      g_autofree char *label = NULL;
      double dash = DASH;

      cairo_save (cr);
      cairo_set_dash (cr, &dash, 1, 0);
      set_source (cr, &data->target_color, 1);
      cairo_set_line_width (cr, 1.5);
      cairo_move_to (cr, g->left, y);
      cairo_line_to (cr, g->right, y);
      cairo_stroke (cr);
      cairo_restore (cr);
      /* TRANSLATORS: the target line of the plot: "target 20 tok/s" */
      label = g_strdup_printf (_("target %.0f tok/s"), data->target);
      show_text (cr, layout, label, &data->target_color, g->right, y - line - 1, ALIGN_END);
    }

  /* the curve; past the cache's limit users wait, drawn fainter */
  cairo_set_line_width (cr, LINE_WIDTH);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint i = 0; i < data->n_points; i++)
    {
      const HrServingPoint *p = &data->points[i];
      double value = aggregate ? p->aggregate_tokens_per_s : p->per_user_tokens_per_s;
      double x = hr_serving_plot_x (data, g, p->users);
      double y = y_of (value, max, top, bottom);
      double alpha = p->users_served < p->users ? WAIT_ALPHA : 1;

      if (i > 0)
        {
          const HrServingPoint *q = &data->points[i - 1];
          double qv = aggregate ? q->aggregate_tokens_per_s : q->per_user_tokens_per_s;

          set_source (cr, color, alpha);
          cairo_move_to (cr, hr_serving_plot_x (data, g, q->users), y_of (qv, max, top, bottom));
          cairo_line_to (cr, x, y);
          cairo_stroke (cr);
        }
      set_source (cr, color, alpha);
      cairo_arc (cr, x, y, DOT_RADIUS, 0, 2 * G_PI);
      cairo_fill (cr);
    }
}

/* The KV cache's limit: a line over both panels and its label. */
static void
draw_limit (cairo_t                     *cr,
            PangoLayout                 *layout,
            const HrServingPlotData     *data,
            const HrServingPlotGeometry *g)
{
  double x, w, dash = DASH;
  g_autofree char *label = NULL;

  if (data->cache_limit == 0 || data->n_points == 0 || data->cache_limit > users_max (data))
    return;
  x = round (hr_serving_plot_x (data, g, data->cache_limit)) + 0.5;
  cairo_save (cr);
  cairo_set_dash (cr, &dash, 1, 0);
  set_source (cr, &data->limit, 1);
  cairo_set_line_width (cr, 1.5);
  cairo_move_to (cr, x, g->aggregate_top);
  cairo_line_to (cr, x, g->per_user_bottom);
  cairo_stroke (cr);
  cairo_restore (cr);

  label = g_strdup_printf (ngettext ("KV cache: %u user", "KV cache: %u users",
                                     data->cache_limit), data->cache_limit);
  text_size (layout, label, &w, NULL);
  /* beside the line, on the side with room */
  if (x + PAD + w <= g->right)
    show_text (cr, layout, label, &data->limit, x + PAD, g->aggregate_top, ALIGN_START);
  else
    show_text (cr, layout, label, &data->limit, x - PAD, g->aggregate_top, ALIGN_END);
}

static void
draw_users_axis (cairo_t                     *cr,
                 PangoLayout                 *layout,
                 const HrServingPlotData     *data,
                 const HrServingPlotGeometry *g,
                 double                       height)
{
  double top = g->per_user_bottom + PAD / 2, line;
  /* every power of 2 when few, else of 4 */
  guint step = users_max (data) <= 32 ? 2 : 4;

  text_size (layout, "0", NULL, &line);
  for (guint u = 1; u <= users_max (data); u *= step)
    {
      g_autofree char *label = g_strdup_printf ("%u", u);

      show_text (cr, layout, label, &data->text, hr_serving_plot_x (data, g, u), top,
                 ALIGN_CENTER);
    }
  show_text (cr, layout, _("Users at once"), &data->text, (g->left + g->right) / 2,
             MAX (top + line, height - line), ALIGN_CENTER);
}

/**
 * hr_serving_plot_render:
 *
 * Draws @data in a @width × @height area: nothing when there are no
 * points.
 */
void
hr_serving_plot_render (cairo_t                 *cr,
                        PangoLayout             *layout,
                        const HrServingPlotData *data,
                        double                   width,
                        double                   height)
{
  HrServingPlotGeometry g;

  g_return_if_fail (cr != NULL && layout != NULL && data != NULL);

  if (data->n_points == 0 || width <= 0 || height <= 0)
    return;
  hr_serving_plot_geometry (layout, data, width, height, &g);
  draw_panel (cr, layout, data, &g, _("All users, tok/s"), g.aggregate_max,
              g.aggregate_top, g.aggregate_bottom, TRUE);
  draw_panel (cr, layout, data, &g, _("Each user, tok/s"), g.per_user_max,
              g.per_user_top, g.per_user_bottom, FALSE);
  draw_limit (cr, layout, data, &g);
  draw_users_axis (cr, layout, data, &g, height);
}

/* What the plot shows, for a screen reader. */
char *
hr_serving_plot_describe (const HrServingPlotData *data)
{
  const HrServingPoint *first, *last;
  GString *text;

  g_return_val_if_fail (data != NULL, NULL);

  if (data->n_points == 0)
    return g_strdup (_("No answer rates to plot"));
  first = &data->points[0];
  last = &data->points[data->n_points - 1];
  text = g_string_new (NULL);
  /* TRANSLATORS: "From 1 to 256 users, all users get 80 to 2400 tok/s, each user 80 to 9 tok/s." */
  g_string_append_printf (text, _("From %u to %u users, all users get %.0f to %.0f tok/s, "
                                  "each user %.0f to %.0f tok/s."),
                          first->users, last->users, first->aggregate_tokens_per_s,
                          last->aggregate_tokens_per_s, first->per_user_tokens_per_s,
                          last->per_user_tokens_per_s);
  if (data->cache_limit > 0)
    {
      g_string_append_c (text, ' ');
      g_string_append_printf (text, ngettext ("The KV cache holds %u user at once.",
                                              "The KV cache holds %u users at once.",
                                              data->cache_limit), data->cache_limit);
    }
  return g_string_free (text, FALSE);
}

/* ------------------------------------------------------------ widget */

struct _HrServingPlot
{
  GtkWidget parent_instance;

  HrServingTable *table;
  HrServingPlotData data;
};

G_DEFINE_FINAL_TYPE (HrServingPlot, hr_serving_plot, GTK_TYPE_WIDGET)

static void
to_color (HrChartColor  *color,
          const GdkRGBA *rgba,
          double         alpha)
{
  *color = (HrChartColor) { rgba->red, rgba->green, rgba->blue, rgba->alpha * alpha };
}

G_GNUC_BEGIN_IGNORE_DEPRECATIONS

/* The named colour, or the text colour at @alpha (plain GTK). */
static void
lookup (GtkStyleContext *context,
        const char      *name,
        const GdkRGBA   *fg,
        double           alpha,
        HrChartColor    *color)
{
  GdkRGBA rgba;

  if (gtk_style_context_lookup_color (context, name, &rgba))
    to_color (color, &rgba, 1);
  else
    to_color (color, fg, alpha);
}

static void
hr_serving_plot_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  HrServingPlot *self = HR_SERVING_PLOT (widget);
  /* gtk_style_context_lookup_color(): GTK 4.8's way to read named colours */
  GtkStyleContext *context = gtk_widget_get_style_context (widget);
  GdkRGBA fg;

  GTK_WIDGET_CLASS (hr_serving_plot_parent_class)->css_changed (widget, change);

  gtk_style_context_get_color (context, &fg);
  to_color (&self->data.text, &fg, 1);
  to_color (&self->data.grid, &fg, 0.5);
  lookup (context, "hr_aggregate_color", &fg, 0.8, &self->data.aggregate);
  lookup (context, "hr_per_user_color", &fg, 0.6, &self->data.per_user);
  lookup (context, "hr_target_color", &fg, 1, &self->data.target_color);
  lookup (context, "hr_cache_limit_color", &fg, 0.8, &self->data.limit);
  gtk_widget_queue_draw (widget);
}

G_GNUC_END_IGNORE_DEPRECATIONS

static void
hr_serving_plot_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? HR_SERVING_PLOT_MIN_WIDTH
                                                       : HR_SERVING_PLOT_HEIGHT;
  *natural = *minimum;
}

static void
hr_serving_plot_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  HrServingPlot *self = HR_SERVING_PLOT (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) layout = NULL;
  cairo_t *cr;

  if (width <= 0 || height <= 0 || self->data.n_points == 0)
    return;
  layout = gtk_widget_create_pango_layout (widget, NULL);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  hr_serving_plot_render (cr, layout, &self->data, width, height);
  cairo_destroy (cr);
}

static void
hr_serving_plot_dispose (GObject *object)
{
  HrServingPlot *self = HR_SERVING_PLOT (object);

  g_clear_object (&self->table);
  G_OBJECT_CLASS (hr_serving_plot_parent_class)->dispose (object);
}

static void
hr_serving_plot_class_init (HrServingPlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_serving_plot_dispose;
  widget_class->css_changed = hr_serving_plot_css_changed;
  widget_class->measure = hr_serving_plot_measure;
  widget_class->snapshot = hr_serving_plot_snapshot;
  gtk_widget_class_set_css_name (widget_class, "servingplot");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
hr_serving_plot_init (HrServingPlot *self)
{
}

GtkWidget *
hr_serving_plot_new (void)
{
  return g_object_new (HR_TYPE_SERVING_PLOT, NULL);
}

/**
 * hr_serving_plot_set_data:
 * @table: (nullable): the curve to draw, kept until the next call
 */
void
hr_serving_plot_set_data (HrServingPlot  *self,
                          HrServingTable *table)
{
  g_autofree char *description = NULL;

  g_return_if_fail (HR_IS_SERVING_PLOT (self));
  g_return_if_fail (table == NULL || HR_IS_SERVING_TABLE (table));

  g_set_object (&self->table, table);
  self->data.points = NULL;
  self->data.n_points = 0;
  self->data.target = self->data.cache_limit = 0;
  if (table != NULL)
    {
      self->data.points = hr_serving_table_get_points (table, &self->data.n_points);
      self->data.target = hr_serving_table_get_target (table);
      self->data.cache_limit = hr_serving_table_get_cache_limit (table);
    }
  description = hr_serving_plot_describe (&self->data);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const HrServingPlotData *
hr_serving_plot_get_data (HrServingPlot *self)
{
  g_return_val_if_fail (HR_IS_SERVING_PLOT (self), NULL);
  return &self->data;
}
