/* hr-tasks.h — what each catalog model is made for
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * resources/catalog/tasks.json, keyed by model id, from each model's
 * card: chat, code, reasoning, vision.  "long" and "serving" need no
 * tag; hr-recommend.c derives them.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  HR_TASK_CHAT,
  HR_TASK_CODE,
  HR_TASK_REASONING,
  HR_TASK_VISION,
  HR_TASK_LONG,       /* long documents: derived, no tag */
  HR_TASK_SERVING,    /* many users: derived, no tag */
  HR_N_TASKS,
} HrTask;

gboolean    hr_task_from_string  (const char *name,
                                  HrTask     *task);
const char *hr_task_to_string    (HrTask      task);
gboolean    hr_tasks_model_has   (const char *model_id,
                                  HrTask      task);
guint       hr_tasks_get_n_models (void);

G_END_DECLS
