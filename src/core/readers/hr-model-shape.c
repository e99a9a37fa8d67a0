/* hr-model-shape.c — what a reader makes of a model file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-model-shape"

#include "config.h"

#include <string.h>

#include "hr-model-shape.h"

void
hr_model_shape_init (HrModelShape *shape)
{
  g_return_if_fail (shape != NULL);

  memset (shape, 0, sizeof *shape);
}

static void
clear_type_bytes (gpointer data)
{
  HrTypeBytes *entry = data;

  g_free (entry->type);
}

/* Frees what @shape holds and leaves it as hr_model_shape_init() does. */
void
hr_model_shape_clear (HrModelShape *shape)
{
  g_return_if_fail (shape != NULL);

  g_free (shape->id);
  g_free (shape->name);
  g_free (shape->family);
  g_free (shape->architecture);
  g_free (shape->license);
  g_free (shape->release);
  g_free (shape->ollama_tag);
  g_free (shape->source);
  g_free (shape->file_type);
  g_free (shape->file_path);
  g_clear_pointer (&shape->weights_by_type, g_array_unref);
  g_clear_pointer (&shape->notes, g_ptr_array_unref);
  hr_model_shape_init (shape);
}

/* Says that the file's weights by type are known (a GGUF file): an empty
 * list, which hr_model_shape_add_type_bytes() fills. */
void
hr_model_shape_begin_weights_by_type (HrModelShape *shape)
{
  g_return_if_fail (shape != NULL);
  g_return_if_fail (shape->weights_by_type == NULL);

  shape->weights_by_type = g_array_new (FALSE, FALSE, sizeof (HrTypeBytes));
  g_array_set_clear_func (shape->weights_by_type, clear_type_bytes);
}

void
hr_model_shape_add_type_bytes (HrModelShape *shape,
                               const char   *type,
                               guint64       bytes)
{
  HrTypeBytes entry;

  g_return_if_fail (shape != NULL);
  g_return_if_fail (shape->weights_by_type != NULL);
  g_return_if_fail (type != NULL);

  entry.type = g_strdup (type);
  entry.bytes = bytes;
  g_array_append_val (shape->weights_by_type, entry);
}

void
hr_model_shape_add_note (HrModelShape *shape,
                         const char   *note)
{
  g_return_if_fail (shape != NULL);
  g_return_if_fail (note != NULL);

  if (shape->notes == NULL)
    shape->notes = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (shape->notes, g_strdup (note));
}

/* A sliding window, when the reader found one (0: none); the readers
 * have checked both against the arch's 32-bit bounds. */
void
hr_model_shape_set_window (HrModelShape *shape,
                           guint64       sliding_window,
                           guint64       swa_period)
{
  g_return_if_fail (shape != NULL);

  if (sliding_window == 0)
    return;
  shape->arch.sliding_window = (guint32) sliding_window;
  shape->arch.swa_period = (guint32) swa_period;
}

/* The mixture of experts, when the reader found one (0 experts: dense);
 * @dense_layers lead without experts. */
void
hr_model_shape_set_experts (HrModelShape *shape,
                            guint64       experts,
                            guint64       experts_active,
                            guint64       expert_intermediate,
                            guint64       shared_experts,
                            guint64       dense_layers)
{
  g_return_if_fail (shape != NULL);

  if (experts == 0)
    return;
  shape->experts = (guint32) experts;
  shape->experts_active = (guint32) experts_active;
  shape->expert_intermediate = (guint32) expert_intermediate;
  shape->shared_experts = (guint32) shared_experts;
  shape->dense_layers = (guint32) dense_layers;
}
