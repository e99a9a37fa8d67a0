/* hr-row-list.c — a list model of rows that follows a calculator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The matrix, the hardware table and the comparison are the same thing:
 * rows kept in an array, recomputed when the calculator changes.  Rows are
 * updated in place, then “refreshed” tells views to redraw their cells
 * (rebinding every row per slider step would cost milliseconds); only a
 * new set of rows is reported through items-changed.  A list nobody
 * shows can be paused: it then only notes that the calculator changed,
 * and catches up when resumed.
 */

#define G_LOG_DOMAIN "hr-row-list"

#include "config.h"

#include "hr-calculator.h"
#include "hr-row-list.h"

typedef struct
{
  HrCalculator *calculator;
  GPtrArray *rows;
  gboolean paused;
  gboolean stale;    /* the calculator changed while paused */
} HrRowListPrivate;

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_TYPE_WITH_CODE (HrRowList, hr_row_list, G_TYPE_OBJECT,
                         G_ADD_PRIVATE (HrRowList)
                         G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum {
  REFRESHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GType
hr_row_list_get_item_type (GListModel *model)
{
  return HR_ROW_LIST_GET_CLASS (model)->row_type;
}

static guint
hr_row_list_get_n_items (GListModel *model)
{
  HrRowListPrivate *priv = hr_row_list_get_instance_private (HR_ROW_LIST (model));

  return priv->rows->len;
}

static gpointer
hr_row_list_get_item (GListModel *model,
                      guint       position)
{
  HrRowListPrivate *priv = hr_row_list_get_instance_private (HR_ROW_LIST (model));

  if (position >= priv->rows->len)
    return NULL;
  return g_object_ref (priv->rows->pdata[position]);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = hr_row_list_get_item_type;
  iface->get_n_items = hr_row_list_get_n_items;
  iface->get_item = hr_row_list_get_item;
}

static void
on_calculator_changed (HrRowList *self)
{
  HrRowListPrivate *priv = hr_row_list_get_instance_private (self);

  if (priv->paused)
    {
      priv->stale = TRUE;
      return;
    }
  priv->stale = FALSE;
  HR_ROW_LIST_GET_CLASS (self)->refresh (self);
}

static void
hr_row_list_dispose (GObject *object)
{
  HrRowListPrivate *priv = hr_row_list_get_instance_private (HR_ROW_LIST (object));

  if (priv->calculator != NULL)
    g_signal_handlers_disconnect_by_data (priv->calculator, object);
  g_clear_object (&priv->calculator);
  g_clear_pointer (&priv->rows, g_ptr_array_unref);
  G_OBJECT_CLASS (hr_row_list_parent_class)->dispose (object);
}

static void
hr_row_list_class_init (HrRowListClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = hr_row_list_dispose;
  klass->row_type = G_TYPE_OBJECT;

  /**
   * HrRowList::refreshed:
   *
   * Emitted after the rows were updated in place for a new scenario.
   */
  signals[REFRESHED] =
    g_signal_new ("refreshed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
hr_row_list_init (HrRowList *self)
{
  HrRowListPrivate *priv = hr_row_list_get_instance_private (self);

  priv->rows = g_ptr_array_new_with_free_func (g_object_unref);
}

/* Follows @calculator from now on; subclasses call it once, at creation. */
void
hr_row_list_set_calculator (HrRowList    *self,
                            HrCalculator *calculator)
{
  HrRowListPrivate *priv = hr_row_list_get_instance_private (self);

  g_return_if_fail (HR_IS_ROW_LIST (self));
  g_return_if_fail (HR_IS_CALCULATOR (calculator));
  g_return_if_fail (priv->calculator == NULL);

  priv->calculator = g_object_ref (calculator);
  g_signal_connect_swapped (calculator, "changed", G_CALLBACK (on_calculator_changed), self);
}

/**
 * hr_row_list_set_paused:
 * @paused: whether the rows wait
 *
 * While paused (nobody shows the rows), a recomputation of the calculator
 * only marks the rows stale; resuming brings them up to date at once.
 */
void
hr_row_list_set_paused (HrRowList *self,
                        gboolean   paused)
{
  HrRowListPrivate *priv = hr_row_list_get_instance_private (self);

  g_return_if_fail (HR_IS_ROW_LIST (self));

  priv->paused = paused;
  if (!paused && priv->stale)
    on_calculator_changed (self);
}

gboolean
hr_row_list_get_paused (HrRowList *self)
{
  HrRowListPrivate *priv = hr_row_list_get_instance_private (self);

  g_return_val_if_fail (HR_IS_ROW_LIST (self), FALSE);
  return priv->paused;
}

HrCalculator *
hr_row_list_get_calculator (HrRowList *self)
{
  HrRowListPrivate *priv = hr_row_list_get_instance_private (self);

  g_return_val_if_fail (HR_IS_ROW_LIST (self), NULL);
  return priv->calculator;
}

/* The rows, for the subclass to update in place. */
GPtrArray *
hr_row_list_get_rows (HrRowList *self)
{
  HrRowListPrivate *priv = hr_row_list_get_instance_private (self);

  g_return_val_if_fail (HR_IS_ROW_LIST (self), NULL);
  return priv->rows;
}

/* Replaces every row (taking the array's references) and says so. */
void
hr_row_list_replace_rows (HrRowList *self,
                          GPtrArray *rows)
{
  HrRowListPrivate *priv = hr_row_list_get_instance_private (self);
  guint removed;

  g_return_if_fail (HR_IS_ROW_LIST (self));

  removed = priv->rows->len;
  g_ptr_array_unref (priv->rows);
  priv->rows = g_ptr_array_ref (rows);
  g_ptr_array_set_free_func (priv->rows, g_object_unref);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, priv->rows->len);
}

/* Replaces @n_removed rows at @position by @added (taking the array's
 * references), as a list store's splice, and says so. */
void
hr_row_list_splice_rows (HrRowList *self,
                         guint      position,
                         guint      n_removed,
                         GPtrArray *added)
{
  HrRowListPrivate *priv = hr_row_list_get_instance_private (self);

  g_return_if_fail (HR_IS_ROW_LIST (self));
  g_return_if_fail (position + n_removed <= priv->rows->len);

  g_ptr_array_remove_range (priv->rows, position, n_removed);
  for (guint i = 0; i < added->len; i++)
    g_ptr_array_insert (priv->rows, position + i, added->pdata[i]);
  g_list_model_items_changed (G_LIST_MODEL (self), position, n_removed, added->len);
}

/* The rows keep their identity but their shape changed (e.g. columns). */
void
hr_row_list_rows_changed (HrRowList *self)
{
  HrRowListPrivate *priv = hr_row_list_get_instance_private (self);

  g_return_if_fail (HR_IS_ROW_LIST (self));
  if (priv->rows->len > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, priv->rows->len, priv->rows->len);
}

void
hr_row_list_refreshed (HrRowList *self)
{
  g_return_if_fail (HR_IS_ROW_LIST (self));
  g_signal_emit (self, signals[REFRESHED], 0);
}
