/* test-serving-view.c — the Serving view shows what the CLI computes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under xvfb-run with GTK_A11Y=none, GSK_RENDERER=cairo,
 * GSETTINGS_BACKEND=memory and G_DEBUG=fatal-criticals.
 */

#include "config.h"

#include <adwaita.h>

#include "hr-test-app.h"
#include <glib/gstdio.h>
#include <pango/pangocairo.h>

#include "hr-serving-group.h"
#include "hr-serving-plot.h"
#include "hr-serving-view.h"
#include "hr-test-util.h"
#include "hr-window.h"

static GtkWidget *
find_widget (GtkWidget *widget,
             GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static HrWindow *
new_window (void)
{
  AdwApplication *app = g_object_get_data (G_OBJECT (g_application_get_default ()), "app");
  HrWindow *window = hr_window_new (GTK_APPLICATION (app));

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  hr_test_iterate ();
  return window;
}

/* Llama 3.1 70B FP8 on one machine of four H100s (TP 4), 16 users at
 * 8K, 20 tok/s each. */
static void
set_server_case (HrCalculator *calc)
{
  HrCatalog *catalog = hr_calculator_get_catalog (calc);

  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog,
                                                        "meta-llama/Llama-3.1-70B-Instruct"));
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "fp8"));
  hr_calculator_set_kv_type (calc, hr_catalog_find_kv_type (catalog, "fp16"));
  hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, "h100-sxm-80gb"));
  hr_calculator_set_engine (calc, HR_ENGINE_VLLM);
  hr_calculator_set_context (calc, 8192);
  hr_calculator_set_nodes (calc, 1);
  hr_calculator_set_gpus_per_node (calc, 4);
  hr_calculator_set_users (calc, 16);
  hr_calculator_set_target_tokens_per_s (calc, 20);
  hr_calculator_thaw (calc);
}

static JsonNode *
cli_estimate (guint32 users,
              guint64 context)
{
  g_autofree char *u = g_strdup_printf ("%u", users);
  g_autofree char *c = g_strdup_printf ("%" G_GUINT64_FORMAT, context);
  const char *args[] = {
    "estimate", "--model", "meta-llama/Llama-3.1-70B-Instruct", "--precision", "fp8",
    "--engine", "vllm", "--hardware", "h100-sxm-80gb", "--tp", "4", "--users", u,
    "--target-tokens-per-s", "20", "--context", c, "--json", NULL
  };

  return hr_test_run_cli_json (args);
}

static HrServingView *
show_serving (HrWindow *window)
{
  HrServingView *view;

  hr_window_show_view (window, "serving");
  hr_test_iterate ();
  view = HR_SERVING_VIEW (hr_window_get_view (window, "serving"));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (view)));
  return view;
}

/* Each cell shows the CLI's per_user_tokens_per_s for its users and
 * context, to a tenth; a cell past the cache says so. */
static void
test_cells_match_cli (void)
{
  HrWindow *window = new_window ();
  HrServingView *view;
  HrServingTable *table;
  guint checked = 0;

  set_server_case (hr_window_get_calculator (window));
  view = show_serving (window);
  table = hr_serving_view_get_table (view);
  g_assert_cmpstr (hr_serving_view_get_page (view), ==, "figures");
  g_assert_cmpuint (hr_serving_table_get_n_contexts (table), ==, 4);

  for (guint i = 0; i < hr_serving_table_get_n_users (table); i += 2)
    for (guint j = 0; j < hr_serving_table_get_n_contexts (table); j++)
      {
        const HrServingCell *cell = hr_serving_table_get_cell (table, i, j);
        g_autoptr(JsonNode) root = cli_estimate (cell->users, cell->context);
        JsonObject *o = json_node_get_object (root);
        const char *text = hr_serving_view_get_cell_text (view, i, j);

        if (json_object_get_int_member (o, "users_served") < cell->users)
          g_assert_cmpstr (text, ==, "cache full");
        else
          {
            g_autofree char *expected =
              g_strdup_printf ("%.1f", json_object_get_double_member (o, "per_user_tokens_per_s"));
            g_assert_cmpstr (text, ==, expected);
          }
        checked++;
      }
  g_assert_cmpuint (checked, ==, 16);
  /* 128 users at 128K cannot all be in the cache of four H100s */
  g_assert_cmpstr (hr_serving_view_get_cell_text (view, 6, 3), ==, "cache full");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The plot's points are the CLI's rates at the scenario's context; drawn,
 * the target line and the cache's limit are where they should be. */
static void
test_plot_points (void)
{
  HrWindow *window = new_window ();
  HrServingView *view;
  const HrServingPlotData *data;
  HrServingPlotData pure;
  HrServingPlotGeometry g;
  cairo_surface_t *surface;
  cairo_t *cr;
  g_autoptr(PangoLayout) layout = NULL;
  guint32 *pixels;
  int stride, x, y;
  guint found_target = 0, found_limit = 0;

  set_server_case (hr_window_get_calculator (window));
  view = show_serving (window);
  data = hr_serving_plot_get_data (HR_SERVING_PLOT (hr_serving_view_get_plot (view)));
  g_assert_cmpuint (data->n_points, >=, 10);
  assert_close (data->target, 20, 0);
  g_assert_cmpuint (data->cache_limit, >, 16);

  for (guint i = 0; i < data->n_points; i += 4)
    {
      g_autoptr(JsonNode) root = cli_estimate (data->points[i].users, 8192);
      JsonObject *o = json_node_get_object (root);

      assert_close (data->points[i].per_user_tokens_per_s,
                    json_object_get_double_member (o, "per_user_tokens_per_s"), 1e-9);
      assert_close (data->points[i].aggregate_tokens_per_s,
                    json_object_get_double_member (o, "aggregate_tokens_per_s"), 1e-9);
    }

  /* drawn in pure colours on an image */
  pure = *data;
  pure.aggregate = (HrChartColor) { 1, 0, 0, 1 };
  pure.per_user = (HrChartColor) { 0, 0, 1, 1 };
  pure.target_color = (HrChartColor) { 0, 1, 0, 1 };
  pure.limit = (HrChartColor) { 1, 0, 1, 1 };
  pure.text = (HrChartColor) { 0, 0, 0, 1 };
  pure.grid = (HrChartColor) { 0.5, 0.5, 0.5, 1 };
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 600, HR_SERVING_PLOT_HEIGHT);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  layout = pango_cairo_create_layout (cr);
  hr_serving_plot_render (cr, layout, &pure, 600, HR_SERVING_PLOT_HEIGHT);
  hr_serving_plot_geometry (layout, &pure, 600, HR_SERVING_PLOT_HEIGHT, &g);
  cairo_surface_flush (surface);
  pixels = (guint32 *) cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface) / 4;

  /* the target's dashes on its row of the lower panel */
  y = (int) (g.per_user_bottom - 20 / g.per_user_max * (g.per_user_bottom - g.per_user_top));
  for (x = (int) g.left; x < (int) g.right; x++)
    for (int dy = -1; dy <= 1; dy++)
      found_target += (pixels[(y + dy) * stride + x] & 0xffffff) == 0x00ff00;
  g_assert_cmpuint (found_target, >, (guint) ((g.right - g.left) / 4));
  /* the cache's limit down both panels */
  x = (int) hr_serving_plot_x (&pure, &g, pure.cache_limit);
  for (y = (int) g.aggregate_top; y < (int) g.per_user_bottom; y++)
    for (int dx = -1; dx <= 1; dx++)
      found_limit += (pixels[y * stride + x + dx] & 0xffffff) == 0xff00ff;
  g_assert_cmpuint (found_limit, >, (guint) ((g.per_user_bottom - g.aggregate_top) / 4));

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The plan's Apply button sets the layout; then it is the current one. */
static void
test_apply_plan (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrServingView *view;
  HrServingPlan plan;

  set_server_case (calc);
  hr_calculator_set_users (calc, 64);
  view = show_serving (window);
  plan = *hr_serving_table_get_plan (hr_serving_view_get_table (view));
  g_assert_cmpint (plan.status, ==, HR_PLAN_FOUND);
  g_assert_cmpuint (plan.gpus, >, 4);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "serving.apply-plan", NULL));
  hr_test_iterate ();
  g_assert_cmpuint (hr_calculator_get_gpu_count (calc), ==, plan.gpus);
  g_assert_cmpuint (hr_calculator_get_tp (calc), ==, plan.layout.tp);
  g_assert_cmpuint (hr_calculator_get_pp (calc), ==, plan.layout.pp);
  g_assert_cmpuint (hr_calculator_get_dp (calc), ==, plan.layout.dp);
  g_assert_cmpuint (hr_calculator_get_nodes (calc), ==, plan.layout.nodes);
  /* each of the 64 users now gets the target */
  g_assert_cmpfloat (hr_calculator_get_estimate (calc)->per_user_tokens_per_s, >=, 20);
  /* and the plan found again is this layout: nothing left to apply */
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (view), "serving.apply-plan", NULL) &&
                  hr_calculator_get_gpu_count (calc) != plan.gpus);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* llama.cpp gets one page and a switch; the switch picks a checkpoint
 * vLLM loads; the sidebar's group follows the engine and offers only
 * the TP sizes the heads divide. */
static void
test_other_engines (void)
{
  HrWindow *window = new_window ();
  HrCalculator *calc = hr_window_get_calculator (window);
  HrCatalog *catalog = hr_calculator_get_catalog (calc);
  HrServingView *view;
  HrServingGroup *serving;
  GListModel *tp;

  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, hr_catalog_find_model (catalog, "tiiuae/Falcon3-10B-Instruct"));
  hr_calculator_set_precision (calc, hr_catalog_find_precision (catalog, "q4_k_m"));
  hr_calculator_set_hardware (calc, hr_catalog_find_hardware (catalog, "rtx-4090-24gb"));
  hr_calculator_set_engine (calc, HR_ENGINE_AUTO);
  hr_calculator_set_context (calc, 8192);
  hr_calculator_set_layout (calc, &(HrLayout) { 1, 1, 1, 1 });
  hr_calculator_thaw (calc);
  view = show_serving (window);
  g_assert_cmpstr (hr_serving_view_get_page (view), ==, "other");

  serving = HR_SERVING_GROUP (find_widget (GTK_WIDGET (window), HR_TYPE_SERVING_GROUP));
  g_assert_nonnull (serving);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (serving)));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "serving.use-engine", "s",
                                             "vllm"));
  hr_test_iterate ();
  g_assert_cmpint (hr_calculator_get_engine (calc), ==, HR_ENGINE_VLLM);
  g_assert_cmpstr (hr_precision_get_id (hr_calculator_get_precision (calc)), ==, "awq-int4");
  g_assert_cmpstr (hr_serving_view_get_page (view), ==, "figures");

  /* 12 heads, 4 KV heads on a machine of 8: TP 1, 2 or 4, not 8 */
  hr_calculator_set_gpus_per_node (calc, 8);
  hr_test_iterate ();
  {
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (serving)));
    tp = hr_serving_group_get_tp_choices (serving);
    /* TP 8 is not valid: the GPUs were kept, TP is what is left (8) and
     * listed with the reason; the valid sizes are offered */
    g_assert_cmpuint (g_list_model_get_n_items (tp), ==, 4);
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (tp), 0), ==, "1");
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (tp), 1), ==, "2");
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (tp), 2), ==, "4");
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (tp), 3), ==, "8");
    g_assert_cmpstr (hr_serving_view_get_page (view), ==, "invalid");
    /* its fix: the nearest valid size */
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "serving.fix", NULL));
    hr_test_iterate ();
    g_assert_cmpuint (hr_calculator_get_tp (calc), ==, 4);
    g_assert_cmpuint (hr_calculator_get_dp (calc), ==, 2);
    g_assert_cmpuint (hr_calculator_get_gpu_count (calc), ==, 8);
    g_assert_cmpstr (hr_serving_view_get_page (view), ==, "figures");
    g_assert_cmpuint (g_list_model_get_n_items (tp), ==, 3);

    hr_calculator_set_engine (calc, HR_ENGINE_OLLAMA);
    g_assert_false (gtk_widget_get_visible (GTK_WIDGET (serving)));
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = NULL;
  int status;

  app = hr_test_app_init (&argc, &argv);

  g_test_add_func ("/serving-view/cells-match-cli", test_cells_match_cli);
  g_test_add_func ("/serving-view/plot-points", test_plot_points);
  g_test_add_func ("/serving-view/apply-plan", test_apply_plan);
  g_test_add_func ("/serving-view/other-engines", test_other_engines);

  status = g_test_run ();
  return status;
}
