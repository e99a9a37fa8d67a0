/* hr-context-row.c — the context control: log slider and exact entry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Context lengths span four orders of magnitude, so the slider moves in
 * log2(tokens) and snaps to multiples of 256; marks sit at 8K, 32K and
 * 128K and at the model's trained maximum.  The spin button takes any
 * exact value up to 2^31 - 1 (the slider then pins at its end).  A click
 * or drag that ends a few pixels from a mark gives the mark's value
 * exactly (131,072, not 122,368).  A value past the trained maximum is
 * flagged on a line under the slider whose space is always kept, so that
 * the controls below never move.
 */

#define G_LOG_DOMAIN "hr-context-row"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-context-row.h"
#include "hr-estimate.h"
#include "hr-format.h"

/* Slider range: 256 tokens … 2M tokens. */
#define SLIDER_MIN_LOG2 8.0
#define SLIDER_MAX_LOG2 21.0
/* The slider snaps to multiples of this many tokens. */
#define SLIDER_SNAP 256
/* ... and to a mark this many pixels away, or this far in log2 before the
 * slider has a width. */
#define MARK_SNAP_PIXELS 5.0
#define MARK_SNAP_LOG2 0.15
/* The marks under the slider. */
static const guint64 tick_marks[] = { 8192, 32768, 131072 };

struct _HrContextRow
{
  AdwPreferencesRow parent_instance;

  GtkScale *scale;
  GtkSpinButton *spin;
  GtkLabel *hint;

  guint64 context;
  guint64 trained_max;
  gboolean updating;
};

G_DEFINE_FINAL_TYPE (HrContextRow, hr_context_row, ADW_TYPE_PREFERENCES_ROW)

enum {
  PROP_0,
  PROP_CONTEXT,
  PROP_TRAINED_MAX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static guint64
context_from_slider (double value)
{
  double tokens = exp2 (value);
  guint64 snapped = (guint64) llround (tokens / SLIDER_SNAP) * SLIDER_SNAP;

  return MAX (snapped, SLIDER_SNAP);
}

/* The mark @value is within a few pixels of, or 0. */
static guint64
nearest_mark (HrContextRow *self,
              double        value)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self->scale));
  double tolerance = MARK_SNAP_LOG2;

  if (width > 0)
    tolerance = MARK_SNAP_PIXELS * (SLIDER_MAX_LOG2 - SLIDER_MIN_LOG2) / width;

  for (guint i = 0; i <= G_N_ELEMENTS (tick_marks); i++)
    {
      guint64 mark = i < G_N_ELEMENTS (tick_marks) ? tick_marks[i] : self->trained_max;

      if (mark > 0 && fabs (value - log2 ((double) mark)) <= tolerance)
        return mark;
    }
  return 0;
}

static void
add_mark (HrContextRow *self,
          guint64       tokens,
          const char   *label,
          GtkPositionType position)
{
  gtk_scale_add_mark (self->scale, log2 ((double) tokens), position, label);
}

static void
update_marks (HrContextRow *self)
{
  gtk_scale_clear_marks (self->scale);
  for (guint i = 0; i < G_N_ELEMENTS (tick_marks); i++)
    {
      g_autofree char *label = hr_format_context_short (tick_marks[i]);
      add_mark (self, tick_marks[i], label, GTK_POS_BOTTOM);
    }
  if (self->trained_max > 0)
    /* TRANSLATORS: a mark on the context slider at the model's trained maximum */
    add_mark (self, self->trained_max, _("trained"), GTK_POS_TOP);
}

static void
update_hint (HrContextRow *self)
{
  gboolean past = self->trained_max > 0 && self->context > self->trained_max;

  /* The line stays, empty, when there is nothing to say: its height is
   * kept so that the rows below stay where they are. */
  if (past)
    {
      g_autofree char *max = hr_format_tokens (self->trained_max);
      g_autofree char *text = NULL;
      g_autofree char *full =
        g_strdup_printf (_("Past the model’s trained maximum of %s tokens: "
                           "quality may degrade"), max);

      /* TRANSLATORS: one short line under the context slider; %s is a
       * token count such as 32,768 */
      text = g_strdup_printf (_("Past the trained %s tokens; quality may drop"), max);
      gtk_label_set_label (self->hint, text);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->hint), full);
    }
  else
    {
      gtk_label_set_label (self->hint, "");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->hint), NULL);
    }
}

/* Shows @self->context in both controls without feeding back. */
static void
sync_controls (HrContextRow *self)
{
  double position = log2 ((double) self->context);

  self->updating = TRUE;
  gtk_range_set_value (GTK_RANGE (self->scale),
                       CLAMP (position, SLIDER_MIN_LOG2, SLIDER_MAX_LOG2));
  gtk_spin_button_set_value (self->spin, (double) self->context);
  self->updating = FALSE;
  update_hint (self);
}

static void
on_scale_changed (HrContextRow *self)
{
  double value = gtk_range_get_value (GTK_RANGE (self->scale));
  guint64 mark;

  if (self->updating)
    return;
  mark = nearest_mark (self, value);
  hr_context_row_set_context (self, mark > 0 ? mark : context_from_slider (value));
}

static void
on_spin_changed (HrContextRow *self)
{
  if (self->updating)
    return;
  hr_context_row_set_context (self, (guint64) gtk_spin_button_get_value (self->spin));
}

/* The slider shows its position as a token count, not log2. */
static char *
format_scale_value (GtkScale *scale,
                    double    value,
                    gpointer  user_data)
{
  return hr_format_context_short (context_from_slider (value));
}

static void
hr_context_row_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  HrContextRow *self = HR_CONTEXT_ROW (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      g_value_set_uint64 (value, self->context);
      break;
    case PROP_TRAINED_MAX:
      g_value_set_uint64 (value, self->trained_max);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_context_row_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  HrContextRow *self = HR_CONTEXT_ROW (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      hr_context_row_set_context (self, g_value_get_uint64 (value));
      break;
    case PROP_TRAINED_MAX:
      hr_context_row_set_trained_max (self, g_value_get_uint64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_context_row_class_init (HrContextRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = hr_context_row_get_property;
  object_class->set_property = hr_context_row_set_property;

  properties[PROP_CONTEXT] =
    g_param_spec_uint64 ("context", NULL, NULL, HR_CONTEXT_MIN, HR_CONTEXT_MAX, 32768, flags);
  properties[PROP_TRAINED_MAX] =
    g_param_spec_uint64 ("trained-max", NULL, NULL, 0, HR_CONTEXT_MAX, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
hr_context_row_init (HrContextRow *self)
{
  GtkWidget *box, *top, *title;
  GtkAdjustment *spin_adjustment;

  self->context = 32768;

  title = gtk_label_new (_("Context"));
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_set_hexpand (title, TRUE);

  spin_adjustment = gtk_adjustment_new (32768, HR_CONTEXT_MIN, HR_CONTEXT_MAX, 256, 4096, 0);
  self->spin = GTK_SPIN_BUTTON (gtk_spin_button_new (spin_adjustment, 1, 0));
  gtk_spin_button_set_numeric (self->spin, TRUE);
  gtk_editable_set_width_chars (GTK_EDITABLE (self->spin), 9);
  gtk_widget_set_valign (GTK_WIDGET (self->spin), GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Context in tokens"), -1);

  top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_box_append (GTK_BOX (top), title);
  gtk_box_append (GTK_BOX (top), GTK_WIDGET (self->spin));

  self->scale = GTK_SCALE (gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL,
                                                     SLIDER_MIN_LOG2, SLIDER_MAX_LOG2, 0.01));
  gtk_scale_set_draw_value (self->scale, FALSE);
  gtk_scale_set_format_value_func (self->scale, format_scale_value, NULL, NULL);
  gtk_range_set_increments (GTK_RANGE (self->scale), 0.25, 1.0);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->scale),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Context, logarithmic"), -1);

  /* One line, always there: a wrapped or appearing line would push the
   * rows below while the slider is dragged.  The tooltip says it all. */
  self->hint = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_single_line_mode (self->hint, TRUE);
  gtk_label_set_ellipsize (self->hint, PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (self->hint, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->hint), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->hint), "warning");

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_box_append (GTK_BOX (box), top);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->scale));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->hint));
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (self), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (self), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), _("Context"));

  update_marks (self);
  sync_controls (self);

  g_signal_connect_object (self->scale, "value-changed",
                           G_CALLBACK (on_scale_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->spin, "value-changed",
                           G_CALLBACK (on_spin_changed), self, G_CONNECT_SWAPPED);
}

guint64
hr_context_row_get_context (HrContextRow *self)
{
  g_return_val_if_fail (HR_IS_CONTEXT_ROW (self), 0);
  return self->context;
}

void
hr_context_row_set_context (HrContextRow *self,
                            guint64       context)
{
  g_return_if_fail (HR_IS_CONTEXT_ROW (self));

  context = CLAMP (context, HR_CONTEXT_MIN, HR_CONTEXT_MAX);
  if (self->context == context)
    return;
  self->context = context;
  sync_controls (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT]);
}

guint64
hr_context_row_get_trained_max (HrContextRow *self)
{
  g_return_val_if_fail (HR_IS_CONTEXT_ROW (self), 0);
  return self->trained_max;
}

void
hr_context_row_set_trained_max (HrContextRow *self,
                                guint64       trained_max)
{
  g_return_if_fail (HR_IS_CONTEXT_ROW (self));

  if (self->trained_max == trained_max)
    return;
  self->trained_max = trained_max;
  update_marks (self);
  update_hint (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRAINED_MAX]);
}

GtkRange *
hr_context_row_get_scale (HrContextRow *self)
{
  g_return_val_if_fail (HR_IS_CONTEXT_ROW (self), NULL);
  return GTK_RANGE (self->scale);
}

GtkSpinButton *
hr_context_row_get_spin (HrContextRow *self)
{
  g_return_val_if_fail (HR_IS_CONTEXT_ROW (self), NULL);
  return self->spin;
}
