/* hr-view.c — a view that follows the calculator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every view of the window (overview, matrix, hardware, model, commands,
 * compare) shows one calculator in one unit system.  This base holds the
 * two properties and the plumbing: it follows the calculator's “changed”
 * signal and calls the subclass's refresh() after each recomputation,
 * after a change of units and once when a calculator is attached.
 *
 * A view in a window but not on screen (another page of the window's
 * stack) does not refresh: it notes that it is stale and refreshes when
 * it is next mapped, so that a slider step costs only what is shown.  A
 * view outside any window (a test's) refreshes at once.
 */

#define G_LOG_DOMAIN "hr-view"

#include "config.h"

#include "hr-format.h"
#include "hr-view.h"

typedef struct
{
  HrCalculator *calculator;
  gulong changed_handler;
  guint units;
  gboolean stale;    /* a refresh waits for the view to be mapped */
} HrViewPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (HrView, hr_view, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_CALCULATOR,
  PROP_UNITS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/**
 * hr_view_is_waiting:
 *
 * Whether the view is in a window but not on screen (another page of a
 * stack, a window not yet shown), where it does not follow the
 * calculator until it is mapped.  A view that hid itself (the placement
 * group under an engine without placement) keeps following, to know
 * when to show itself again.
 */
gboolean
hr_view_is_waiting (HrView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  g_return_val_if_fail (HR_IS_VIEW (self), FALSE);

  return gtk_widget_get_root (widget) != NULL && gtk_widget_get_visible (widget) &&
         !gtk_widget_get_mapped (widget);
}

static void
refresh (HrView *self)
{
  HrViewPrivate *priv = hr_view_get_instance_private (self);
  HrViewClass *klass = HR_VIEW_GET_CLASS (self);

  if (hr_view_is_waiting (self))
    {
      priv->stale = TRUE;
      return;
    }
  priv->stale = FALSE;
  if (klass->refresh != NULL)
    klass->refresh (self);
}

static void
hr_view_map (GtkWidget *widget)
{
  HrView *self = HR_VIEW (widget);
  HrViewPrivate *priv = hr_view_get_instance_private (self);

  GTK_WIDGET_CLASS (hr_view_parent_class)->map (widget);
  if (priv->stale)
    refresh (self);
}

static void
hr_view_dispose (GObject *object)
{
  HrView *self = HR_VIEW (object);
  HrViewPrivate *priv = hr_view_get_instance_private (self);

  if (priv->calculator != NULL)
    g_clear_signal_handler (&priv->changed_handler, priv->calculator);
  g_clear_object (&priv->calculator);

  G_OBJECT_CLASS (hr_view_parent_class)->dispose (object);
}

static void
hr_view_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  HrView *self = HR_VIEW (object);

  switch (prop_id)
    {
    case PROP_CALCULATOR:
      g_value_set_object (value, hr_view_get_calculator (self));
      break;
    case PROP_UNITS:
      g_value_set_uint (value, hr_view_get_units (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_view_set_property (GObject      *object,
                      guint         prop_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  HrView *self = HR_VIEW (object);

  switch (prop_id)
    {
    case PROP_CALCULATOR:
      hr_view_set_calculator (self, g_value_get_object (value));
      break;
    case PROP_UNITS:
      hr_view_set_units (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_view_class_init (HrViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hr_view_dispose;
  object_class->get_property = hr_view_get_property;
  object_class->set_property = hr_view_set_property;
  GTK_WIDGET_CLASS (klass)->map = hr_view_map;

  properties[PROP_CALCULATOR] =
    g_param_spec_object ("calculator", NULL, NULL,
                         HR_TYPE_CALCULATOR,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNITS] =
    g_param_spec_uint ("units", NULL, "0 = GiB, 1 = GB",
                       HR_UNITS_BINARY, HR_UNITS_DECIMAL, HR_UNITS_BINARY,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
hr_view_init (HrView *self)
{
}

HrCalculator *
hr_view_get_calculator (HrView *self)
{
  HrViewPrivate *priv = hr_view_get_instance_private (self);

  g_return_val_if_fail (HR_IS_VIEW (self), NULL);
  return priv->calculator;
}

/**
 * hr_view_set_calculator:
 * @calculator: (nullable): the calculator to follow
 *
 * Follows @calculator from now on.  Setting the calculator already
 * followed changes nothing.
 */
void
hr_view_set_calculator (HrView       *self,
                        HrCalculator *calculator)
{
  HrViewPrivate *priv = hr_view_get_instance_private (self);
  HrViewClass *klass;

  g_return_if_fail (HR_IS_VIEW (self));
  g_return_if_fail (calculator == NULL || HR_IS_CALCULATOR (calculator));

  if (priv->calculator == calculator)
    return;

  if (priv->calculator != NULL)
    g_clear_signal_handler (&priv->changed_handler, priv->calculator);
  g_set_object (&priv->calculator, calculator);
  /* Connected before attach() so that the view refreshes before the list
   * models it creates there update their rows (they connect after). */
  if (calculator != NULL)
    priv->changed_handler = g_signal_connect_object (calculator, "changed",
                                                     G_CALLBACK (refresh), self,
                                                     G_CONNECT_SWAPPED);

  klass = HR_VIEW_GET_CLASS (self);
  if (klass->attach != NULL)
    klass->attach (self, calculator);
  refresh (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CALCULATOR]);
}

guint
hr_view_get_units (HrView *self)
{
  HrViewPrivate *priv = hr_view_get_instance_private (self);

  g_return_val_if_fail (HR_IS_VIEW (self), HR_UNITS_BINARY);
  return priv->units;
}

/**
 * hr_view_set_units:
 * @units: an #HrUnits: 0 for GiB, 1 for GB
 */
void
hr_view_set_units (HrView *self,
                   guint   units)
{
  HrViewPrivate *priv = hr_view_get_instance_private (self);

  g_return_if_fail (HR_IS_VIEW (self));
  g_return_if_fail (units <= HR_UNITS_DECIMAL);

  if (priv->units == units)
    return;

  priv->units = units;
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNITS]);
}
