/* hr-view.h — a view that follows the calculator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-calculator.h"

G_BEGIN_DECLS

#define HR_TYPE_VIEW (hr_view_get_type ())

G_DECLARE_DERIVABLE_TYPE (HrView, hr_view, HR, VIEW, AdwBin)

struct _HrViewClass
{
  AdwBinClass parent_class;

  /* The view follows another calculator, or none: build what depends on
   * it.  Runs after the view connected to the calculator's “changed” and
   * before the refresh that follows. */
  void (*attach)  (HrView       *self,
                   HrCalculator *calculator);
  /* Show the calculator's result in the current units: after every
   * recomputation, after a change of units, and once when attached.
   * The calculator may be %NULL. */
  void (*refresh) (HrView       *self);

  gpointer padding[6];
};

HrCalculator *hr_view_get_calculator (HrView       *self);
void          hr_view_set_calculator (HrView       *self,
                                      HrCalculator *calculator);
guint         hr_view_get_units      (HrView       *self);
void          hr_view_set_units      (HrView       *self,
                                      guint         units);
gboolean      hr_view_is_waiting     (HrView       *self);

G_END_DECLS
