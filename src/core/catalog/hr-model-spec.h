/* hr-model-spec.h — one model of the catalog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "hr-model-arch.h"
#include "hr-model-shape.h"

G_BEGIN_DECLS

#define HR_TYPE_MODEL_SPEC (hr_model_spec_get_type ())

G_DECLARE_FINAL_TYPE (HrModelSpec, hr_model_spec, HR, MODEL_SPEC, GObject)

/* Where an entry came from. */
typedef enum
{
  HR_ORIGIN_BUILTIN,
  HR_ORIGIN_USER,
} HrOrigin;

HrModelSpec       *hr_model_spec_new_from_json   (JsonObject   *object,
                                                  HrOrigin      origin,
                                                  GError      **error);
HrModelSpec       *hr_model_spec_new_from_shape  (const HrModelShape *shape,
                                                  HrOrigin      origin,
                                                  GError      **error);
JsonObject        *hr_model_spec_to_json         (HrModelSpec  *self);
void               hr_model_spec_count_json      (guint        *reads,
                                                  guint        *writes);
const HrModelArch *hr_model_spec_get_arch        (HrModelSpec  *self);
const char        *hr_model_spec_get_id          (HrModelSpec  *self);
const char        *hr_model_spec_get_name        (HrModelSpec  *self);
const char        *hr_model_spec_get_family      (HrModelSpec  *self);
const char        *hr_model_spec_get_architecture (HrModelSpec *self);
const char        *hr_model_spec_get_license     (HrModelSpec  *self);
const char        *hr_model_spec_get_release     (HrModelSpec  *self);
const char        *hr_model_spec_get_ollama_tag  (HrModelSpec  *self);
const char        *hr_model_spec_get_source      (HrModelSpec  *self);
HrOrigin           hr_model_spec_get_origin      (HrModelSpec  *self);
guint32            hr_model_spec_get_intermediate (HrModelSpec *self);
guint32            hr_model_spec_get_experts     (HrModelSpec  *self);
guint32            hr_model_spec_get_experts_active (HrModelSpec *self);
guint32            hr_model_spec_get_shared_experts (HrModelSpec *self);
guint32            hr_model_spec_get_expert_intermediate (HrModelSpec *self);
guint32            hr_model_spec_get_dense_layers (HrModelSpec *self);
guint32            hr_model_spec_get_q_lora_rank (HrModelSpec  *self);
guint32            hr_model_spec_get_qk_nope_head_dim (HrModelSpec *self);
gboolean           hr_model_spec_get_tied_embeddings (HrModelSpec *self);
gboolean           hr_model_spec_get_attention_bias (HrModelSpec *self);
gboolean           hr_model_spec_get_qk_norm    (HrModelSpec *self);
gboolean           hr_model_spec_get_plain_mlp   (HrModelSpec  *self);
gboolean           hr_model_spec_is_moe          (HrModelSpec  *self);
guint64            hr_model_spec_get_file_weights_bytes (HrModelSpec *self);
const char        *hr_model_spec_get_file_type   (HrModelSpec  *self);
const char        *hr_model_spec_get_file_path   (HrModelSpec  *self);
const char        *hr_model_spec_get_disk_path   (HrModelSpec  *self);
void               hr_model_spec_set_disk_path   (HrModelSpec  *self,
                                                  const char   *path);
JsonObject        *hr_model_spec_get_weights_by_type (HrModelSpec *self);
char              *hr_model_spec_dup_search_text (HrModelSpec  *self);

G_END_DECLS
