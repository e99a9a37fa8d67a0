/* hr-recommend-view.h — "What can I run": the ranked list for this device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "hr-recommend.h"
#include "hr-view.h"

G_BEGIN_DECLS

#define HR_TYPE_RECOMMEND_VIEW (hr_recommend_view_get_type ())

G_DECLARE_FINAL_TYPE (HrRecommendView, hr_recommend_view, HR, RECOMMEND_VIEW, HrView)

gboolean           hr_recommend_view_is_ranked      (HrRecommendView *self);
guint              hr_recommend_view_get_n_candidates (HrRecommendView *self);
const HrCandidate *hr_recommend_view_get_candidate  (HrRecommendView *self,
                                                     guint            index);
void               hr_recommend_view_set_task       (HrRecommendView *self,
                                                     HrTask           task);
void               hr_recommend_view_set_min_tokens_per_s (HrRecommendView *self,
                                                     double           rate);
void               hr_recommend_view_set_prices     (HrRecommendView *self,
                                                     double           per_kwh,
                                                     double           per_hour);
GtkWidget         *hr_recommend_view_get_list       (HrRecommendView *self);

G_END_DECLS
