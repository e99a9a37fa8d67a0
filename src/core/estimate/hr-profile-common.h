/* hr-profile-common.h — the steps every engine profile shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-estimate-types.h"

G_BEGIN_DECLS

gboolean hr_profile_fail            (GError               **error,
                                     HrEstimateError        code,
                                     const char            *format,
                                     ...) G_GNUC_PRINTF (3, 4);
gboolean hr_profile_to_bytes        (double                 value,
                                     const char            *what,
                                     guint64               *out,
                                     GError               **error);

double   hr_profile_kv_device_fraction (const HrModelArch  *model,
                                        guint32             n_gpus,
                                        guint32            *heads_per_device);
guint64  hr_profile_solve_max_context  (const HrModelArch  *model,
                                        double              budget,
                                        double              per_layer_token,
                                        gboolean           *unbounded);
void     hr_profile_ram             (const HrEstimateInput *input,
                                     HrEstimate            *result);
double   hr_decode_efficiency       (HrHardwareFamily       family);
double   hr_profile_weights         (const HrEstimateInput *input);
guint64  hr_profile_ffn_width       (const HrEstimateInput *input);

/* Times a token at the context's depth, the prompt and the answer with
 * the speed model (hr-speed.h), before hr_profile_finish(). */
struct _HrSpeedInput;
void     hr_profile_time            (const HrEstimateInput *input,
                                     HrEstimate            *result,
                                     const struct _HrSpeedInput *speed);
/* The matrix weights of the repeating layers one token goes through. */
double   hr_profile_layer_params    (const HrEstimateInput *input);

gboolean hr_profile_finish          (const HrEstimateInput *input,
                                     HrEstimate            *result,
                                     double                 weights,
                                     double                 kv_total_one,
                                     double                 active_dev,
                                     double                 kv_decode_dev,
                                     double                 decode_fixed_seconds,
                                     GError               **error);

/* Several devices (input->gpu_devices, input->reserve_bytes): GPU @d's
 * device, what it can give the model, and whether the GPUs differ. */
const HrDevice *hr_estimate_input_gpu    (const HrEstimateInput *input,
                                          guint32                d);
guint64      hr_estimate_input_usable    (const HrEstimateInput *input,
                                          guint32                d);
gboolean     hr_estimate_input_mixed     (const HrEstimateInput *input);

G_END_DECLS
