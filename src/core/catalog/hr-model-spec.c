/* hr-model-spec.c — one model of the catalog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-model-spec"

#include "config.h"

#include "hr-catalog-json.h"
#include "hr-fields.h"
#include "hr-model-spec.h"

/* Entries read from and written to JSON in this process, for the tests
 * that check an import goes without (hr_model_spec_count_json ()). */
static int json_reads;
static int json_writes;

struct _HrModelSpec
{
  GObject parent_instance;

  char *id;
  char *name;
  char *family;
  char *architecture;
  char *license;
  char *release;
  char *ollama_tag;
  char *source;
  char *mlp;
  char *layer_pattern;        /* each layer's kind (HR_LAYER_*), or NULL */
  HrOrigin origin;

  HrModelArch arch;
  guint32 intermediate;
  guint32 experts;
  guint32 experts_active;
  guint32 shared_experts;
  guint32 expert_intermediate;
  guint32 dense_layers;
  guint32 q_lora_rank;
  guint32 qk_nope_head_dim;
  gboolean tied_embeddings;
  gboolean attention_bias;
  gboolean qk_norm;

  /* Models read from a GGUF file: what is on disk. */
  guint64 file_weights_bytes;
  char *file_type;
  char *file_path;
  JsonObject *weights_by_type;  /* ggml type name → bytes; nullable */

  /* The imported file as the file system names it (file_path and source
   * are its displayable form); not kept in imported-models.json. */
  char *disk_path;
};

G_DEFINE_FINAL_TYPE (HrModelSpec, hr_model_spec, G_TYPE_OBJECT)

#define F(member, type, req, max, field, blurb) \
  HR_FIELD (HrModelSpec, member, type, req, max, field, blurb)

#define U32MAX G_MAXUINT32
#define CTXMAX ((guint64) HR_CONTEXT_MAX)

static const HrField fields[] = {
  F ("id", HR_FIELD_STRING, TRUE, 0, id, "Hugging Face checkpoint id"),
  F ("name", HR_FIELD_STRING, TRUE, 0, name, "Display name"),
  F ("family", HR_FIELD_STRING, TRUE, 0, family, "Model family"),
  F ("architecture", HR_FIELD_STRING, TRUE, 0, architecture, "Architecture (model_type)"),
  F ("license", HR_FIELD_STRING, TRUE, 0, license, "License"),
  F ("release", HR_FIELD_STRING, TRUE, 0, release, "Release quarter"),
  F ("ollama_tag", HR_FIELD_STRING, FALSE, 0, ollama_tag, "Ollama library tag"),
  F ("source", HR_FIELD_STRING, FALSE, 0, source, "Where the shape comes from"),
  F ("mlp", HR_FIELD_STRING, FALSE, 0, mlp, "MLP kind: gated or plain"),
  F ("layers", HR_FIELD_U32, TRUE, HR_LAYERS_MAX, arch.n_layers, "Layers"),
  F ("hidden", HR_FIELD_U32, TRUE, 1 << 20, arch.hidden, "Hidden size"),
  F ("heads", HR_FIELD_U32, TRUE, 1 << 16, arch.n_heads, "Query heads"),
  F ("kv_heads", HR_FIELD_U32, FALSE, 1 << 16, arch.n_kv_heads, "KV heads"),
  F ("head_dim", HR_FIELD_U32, TRUE, 1 << 16, arch.head_dim_k, "K head dimension"),
  F ("head_dim_v", HR_FIELD_U32, FALSE, 1 << 16, arch.head_dim_v, "V head dimension"),
  F ("kv_lora_rank", HR_FIELD_U32, FALSE, 1 << 20, arch.kv_lora_rank, "MLA latent rank"),
  F ("qk_rope_head_dim", HR_FIELD_U32, FALSE, 1 << 16, arch.qk_rope_head_dim, "MLA RoPE key dimension"),
  F ("qk_nope_head_dim", HR_FIELD_U32, FALSE, 1 << 16, qk_nope_head_dim, "MLA non-RoPE key dimension"),
  F ("q_lora_rank", HR_FIELD_U32, FALSE, 1 << 20, q_lora_rank, "MLA query LoRA rank"),
  F ("sliding_window", HR_FIELD_U32, FALSE, CTXMAX, arch.sliding_window, "Sliding window"),
  F ("swa_period", HR_FIELD_U32, FALSE, HR_LAYERS_MAX, arch.swa_period, "Local/global period"),
  F ("vocab", HR_FIELD_U64, TRUE, U32MAX, arch.vocab, "Vocabulary"),
  F ("max_context", HR_FIELD_U64, TRUE, CTXMAX, arch.max_context, "Trained context"),
  F ("intermediate", HR_FIELD_U32, TRUE, U32MAX, intermediate, "FFN intermediate size"),
  F ("experts", HR_FIELD_U32, FALSE, 1 << 16, experts, "Routed experts"),
  F ("experts_active", HR_FIELD_U32, FALSE, 1 << 16, experts_active, "Experts per token"),
  F ("shared_experts", HR_FIELD_U32, FALSE, 1 << 16, shared_experts, "Shared experts"),
  F ("expert_intermediate", HR_FIELD_U32, FALSE, U32MAX, expert_intermediate, "Expert FFN size"),
  F ("dense_layers", HR_FIELD_U32, FALSE, HR_LAYERS_MAX, dense_layers, "Leading dense layers"),
  F ("recurrent_layers", HR_FIELD_U32, FALSE, HR_LAYERS_MAX, arch.n_state_layers, "Layers with a recurrent state instead of a KV cache"),
  F ("layer_pattern", HR_FIELD_STRING, FALSE, 0, layer_pattern, "Hybrids: each layer's kind (M recurrent, * attention, - MLP only)"),
  F ("attention_period", HR_FIELD_U32, FALSE, HR_LAYERS_MAX, arch.attention_period, "Hybrids: one attention layer closes every period"),
  F ("recurrent_parallel", HR_FIELD_BOOL, FALSE, 0, arch.state_parallel, "Attention and the recurrent state side by side in every layer"),
  F ("ssm_conv_kernel", HR_FIELD_U32, FALSE, 1 << 16, arch.ssm_conv_kernel, "Recurrent layers: convolution kernel"),
  F ("ssm_inner", HR_FIELD_U32, FALSE, 1 << 24, arch.ssm_inner, "Recurrent layers: inner size"),
  F ("ssm_state", HR_FIELD_U32, FALSE, 1 << 16, arch.ssm_state, "Recurrent layers: state size"),
  F ("ssm_groups", HR_FIELD_U32, FALSE, 1 << 16, arch.ssm_groups, "Recurrent layers: B/C groups"),
  F ("ssm_heads", HR_FIELD_U32, FALSE, 1 << 16, arch.ssm_heads, "Recurrent layers: Mamba2 heads"),
  F ("ssm_no_norm", HR_FIELD_BOOL, FALSE, 0, arch.ssm_no_norm, "Recurrent layers: no gated norm (Falcon-H1)"),
  F ("params", HR_FIELD_DOUBLE, TRUE, 0, arch.params_total, "Total parameters"),
  F ("active_params", HR_FIELD_DOUBLE, TRUE, 0, arch.params_active, "Active parameters"),
  F ("tied_embeddings", HR_FIELD_BOOL, TRUE, 0, tied_embeddings, "Output head shares the embeddings"),
  F ("attention_bias", HR_FIELD_BOOL, FALSE, 0, attention_bias, "Q/K/V projections have biases"),
  F ("qk_norm", HR_FIELD_BOOL, FALSE, 0, qk_norm, "Queries and keys normalised per head (where the architecture makes it optional)"),
  F ("file_weights_bytes", HR_FIELD_U64, FALSE, G_MAXINT64, file_weights_bytes, "Weights in the model file (bytes)"),
  F ("file_type", HR_FIELD_STRING, FALSE, 0, file_type, "Quantization of the model file"),
  F ("file_path", HR_FIELD_STRING, FALSE, 0, file_path, "Model file"),
};

enum {
  PROP_0,
  PROP_ATTENTION = G_N_ELEMENTS (fields) + 1,
  PROP_ORIGIN,
  PROP_MOE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
hr_model_spec_finalize (GObject *object)
{
  HrModelSpec *self = (HrModelSpec *) object;

  hr_fields_free_strings (self, fields, G_N_ELEMENTS (fields));
  g_clear_pointer (&self->weights_by_type, json_object_unref);
  g_free (self->disk_path);

  G_OBJECT_CLASS (hr_model_spec_parent_class)->finalize (object);
}

static void
hr_model_spec_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  HrModelSpec *self = HR_MODEL_SPEC (object);

  switch (prop_id)
    {
    case PROP_ATTENTION:
      g_value_set_string (value, hr_attention_kind_to_string (self->arch.attention));
      break;
    case PROP_ORIGIN:
      g_value_set_string (value, self->origin == HR_ORIGIN_USER ? "user" : "builtin");
      break;
    case PROP_MOE:
      g_value_set_boolean (value, hr_model_spec_is_moe (self));
      break;
    default:
      if (!hr_fields_get_property (self, 1, fields, G_N_ELEMENTS (fields), prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_model_spec_class_init (HrModelSpecClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = hr_model_spec_finalize;
  object_class->get_property = hr_model_spec_get_property;

  hr_fields_install_properties (object_class, 1, fields, G_N_ELEMENTS (fields), NULL);

  properties[PROP_ATTENTION] =
    g_param_spec_string ("attention", NULL, "mha, gqa, mqa or mla", NULL, flags);
  properties[PROP_ORIGIN] =
    g_param_spec_string ("origin", NULL, "builtin or user", NULL, flags);
  properties[PROP_MOE] =
    g_param_spec_boolean ("moe", NULL, "Mixture of experts", FALSE, flags);
  for (guint i = PROP_ATTENTION; i < N_PROPS; i++)
    g_object_class_install_property (object_class, i, properties[i]);
}

static void
hr_model_spec_init (HrModelSpec *self)
{
}

static gboolean
check_consistency (HrModelSpec  *self,
                   GError      **error)
{
  g_autoptr(GError) local_error = NULL;

  if (self->experts > 0)
    {
      if (self->experts_active == 0 || self->experts_active > self->experts)
        {
          g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                       "field “experts_active” must be between 1 and "
                       "“experts” (%u)", self->experts);
          return FALSE;
        }
      if (self->expert_intermediate == 0)
        {
          g_set_error_literal (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                               "field “expert_intermediate” is missing "
                               "for a mixture-of-experts model");
          return FALSE;
        }
    }
  if (self->mlp != NULL && g_strcmp0 (self->mlp, "gated") != 0 &&
      g_strcmp0 (self->mlp, "plain") != 0)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "field “mlp” must be “gated” or “plain”, not “%s”", self->mlp);
      return FALSE;
    }

  if (!hr_model_arch_validate (&self->arch, &local_error))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "%s", local_error->message);
      return FALSE;
    }

  return TRUE;
}

/* The optional "weights_by_type" object: ggml type name → bytes. */
static gboolean
read_weights_by_type (HrModelSpec  *self,
                      JsonObject   *object,
                      GError      **error)
{
  g_autoptr(JsonObject) copy = NULL;
  JsonObjectIter iter;
  const char *type;
  JsonNode *node;

  node = json_object_get_member (object, "weights_by_type");
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                           "field “weights_by_type” must be an object");
      return FALSE;
    }

  /* In the file's order, which is the ggml type order when written by
   * Headroom. */
  copy = json_object_new ();
  json_object_iter_init_ordered (&iter, json_node_get_object (node));
  while (json_object_iter_next_ordered (&iter, &type, &node))
    {
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
          json_node_get_int (node) < 0)
        {
          g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                       "field “weights_by_type” member “%s” must be a whole number "
                       "of bytes", type);
          return FALSE;
        }
      json_object_set_int_member (copy, type, json_node_get_int (node));
    }

  self->weights_by_type = g_steal_pointer (&copy);
  return TRUE;
}

/* What follows from the values, wherever they were read: the defaults
 * the attention kind implies, then the checks across fields. */
static gboolean
complete (HrModelSpec  *self,
          GError      **error)
{
  g_autoptr(GError) local_error = NULL;

  if (!hr_model_arch_set_layer_pattern (&self->arch, self->layer_pattern, &local_error))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "field “layer_pattern”: %s", local_error->message);
      return FALSE;
    }
  if (self->arch.head_dim_v == 0)
    self->arch.head_dim_v = self->arch.head_dim_k;
  if (self->arch.n_kv_heads == 0 && self->arch.attention == HR_ATTENTION_MLA)
    self->arch.n_kv_heads = self->arch.n_heads;
  else if (self->arch.n_kv_heads == 0)
    {
      g_set_error_literal (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                           "field “kv_heads” is missing");
      return FALSE;
    }

  return check_consistency (self, error);
}

/* A catalog entry states its parameter count and its shape apart, and
 * they must agree at least this far: the embedding table alone holds
 * vocab × hidden parameters, so a model cannot have fewer.  (A model of
 * an unknown architecture with a vocabulary of 10^9 and 10^9 parameters
 * gave a negative decode speed: the weights left for the layers were
 * the parameters less a table larger than all of them.) */
static gboolean
check_embedding_table (HrModelSpec  *self,
                       GError      **error)
{
  double table = (double) self->arch.vocab * self->arch.hidden;

  if (self->arch.params_total < table)
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "field “params” (%g) is less than the embedding table alone "
                   "(vocab × hidden = %g)", self->arch.params_total, table);
      return FALSE;
    }
  return TRUE;
}

/**
 * hr_model_spec_new_from_json:
 *
 * Reads one catalog entry.  On error the message names the field; the
 * caller adds the file and entry.
 */
HrModelSpec *
hr_model_spec_new_from_json (JsonObject  *object,
                             HrOrigin     origin,
                             GError     **error)
{
  g_autoptr(HrModelSpec) self = NULL;
  g_autofree char *attention = NULL;

  g_return_val_if_fail (object != NULL, NULL);

  g_atomic_int_inc (&json_reads);
  self = g_object_new (HR_TYPE_MODEL_SPEC, NULL);
  self->origin = origin;

  if (!hr_fields_read_json (self, fields, G_N_ELEMENTS (fields), object, error))
    return NULL;

  if (!hr_json_get_string (object, "attention", TRUE, &attention, error))
    return NULL;
  if (!hr_attention_kind_from_string (attention, &self->arch.attention))
    {
      g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                   "field “attention” must be mha, gqa, mqa or mla, not “%s”",
                   attention);
      return NULL;
    }

  if (json_object_has_member (object, "recurrent"))
    {
      g_autofree char *recurrent = NULL;

      if (!hr_json_get_string (object, "recurrent", TRUE, &recurrent, error))
        return NULL;
      if (!hr_state_kind_from_string (recurrent, &self->arch.state_kind))
        {
          g_set_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                       "field “recurrent” must be none, mamba, gated_deltanet, rwkv "
                       "or short_conv, not “%s”", recurrent);
          return NULL;
        }
    }

  if (!complete (self, error))
    return NULL;
  if (!check_embedding_table (self, error))
    return NULL;

  if (!read_weights_by_type (self, object, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * hr_model_spec_new_from_shape:
 * @shape: what a reader made of a model file
 * @origin: where the model comes from
 * @error: return location for an error
 *
 * Makes a model of a shape, with the defaults and checks of
 * hr_model_spec_new_from_json() and its messages, which name the field;
 * the caller adds the file.  The catalog's one writer of imported models:
 * no JSON is involved.
 *
 * Returns: (transfer full): the model, or %NULL with @error set
 */
HrModelSpec *
hr_model_spec_new_from_shape (const HrModelShape  *shape,
                              HrOrigin             origin,
                              GError             **error)
{
  g_autoptr(HrModelSpec) self = NULL;

  g_return_val_if_fail (shape != NULL, NULL);
  g_return_val_if_fail (shape->arch.attention <= HR_ATTENTION_MLA, NULL);

  self = g_object_new (HR_TYPE_MODEL_SPEC, NULL);
  self->origin = origin;

  self->id = g_strdup (shape->id);
  self->name = g_strdup (shape->name);
  self->family = g_strdup (shape->family);
  self->architecture = g_strdup (shape->architecture);
  self->license = g_strdup (shape->license);
  self->release = g_strdup (shape->release);
  self->ollama_tag = g_strdup (shape->ollama_tag);
  self->source = g_strdup (shape->source);
  self->mlp = shape->plain_mlp ? g_strdup ("plain") : NULL;
  self->arch = shape->arch;
  if (shape->arch.layer_pattern[0] != '\0')
    self->layer_pattern = g_strdup (shape->arch.layer_pattern);
  self->intermediate = shape->intermediate;
  self->experts = shape->experts;
  self->experts_active = shape->experts_active;
  self->shared_experts = shape->shared_experts;
  self->expert_intermediate = shape->expert_intermediate;
  self->dense_layers = shape->dense_layers;
  self->q_lora_rank = shape->q_lora_rank;
  self->qk_nope_head_dim = shape->qk_nope_head_dim;
  self->tied_embeddings = shape->tied_embeddings;
  self->attention_bias = shape->attention_bias;
  self->qk_norm = shape->qk_norm;
  self->file_weights_bytes = shape->file_weights_bytes;
  self->file_type = g_strdup (shape->file_type);
  self->file_path = g_strdup (shape->file_path);

  if (!hr_fields_validate (self, fields, G_N_ELEMENTS (fields), error) ||
      !complete (self, error))
    return NULL;

  if (shape->weights_by_type != NULL)
    {
      /* Kept as the object an entry holds, which the model view lists. */
      self->weights_by_type = json_object_new ();
      for (guint i = 0; i < shape->weights_by_type->len; i++)
        {
          const HrTypeBytes *tb = &g_array_index (shape->weights_by_type, HrTypeBytes, i);

          json_object_set_int_member (self->weights_by_type, tb->type,
                                      (gint64) MIN (tb->bytes, (guint64) G_MAXINT64));
        }
    }

  return g_steal_pointer (&self);
}

/**
 * hr_model_spec_count_json:
 * @reads: (out) (optional): entries read with hr_model_spec_new_from_json()
 * @writes: (out) (optional): entries written with hr_model_spec_to_json()
 *
 * How many catalog entries this process has read from JSON and written
 * to it, so that a test can check that an import does neither.
 */
void
hr_model_spec_count_json (guint *reads,
                          guint *writes)
{
  if (reads != NULL)
    *reads = (guint) g_atomic_int_get (&json_reads);
  if (writes != NULL)
    *writes = (guint) g_atomic_int_get (&json_writes);
}

JsonObject *
hr_model_spec_to_json (HrModelSpec *self)
{
  JsonObject *object;

  g_return_val_if_fail (HR_IS_MODEL_SPEC (self), NULL);

  g_atomic_int_inc (&json_writes);
  object = json_object_new ();
  hr_fields_write_json (self, fields, G_N_ELEMENTS (fields), object);
  json_object_set_string_member (object, "attention",
                                 hr_attention_kind_to_string (self->arch.attention));
  if (self->arch.state_kind != HR_STATE_NONE)
    json_object_set_string_member (object, "recurrent",
                                   hr_state_kind_to_string (self->arch.state_kind));
  if (self->weights_by_type != NULL)
    json_object_set_object_member (object, "weights_by_type",
                                   json_object_ref (self->weights_by_type));
  return object;
}

const HrModelArch *
hr_model_spec_get_arch (HrModelSpec *self)
{
  g_return_val_if_fail (HR_IS_MODEL_SPEC (self), NULL);
  return &self->arch;
}

#define GETTER(type, name, expr) \
  type \
  hr_model_spec_get_##name (HrModelSpec *self) \
  { \
    g_return_val_if_fail (HR_IS_MODEL_SPEC (self), 0); \
    return (expr); \
  }

GETTER (const char *, id, self->id)
GETTER (const char *, name, self->name)
GETTER (const char *, family, self->family)
GETTER (const char *, architecture, self->architecture)
GETTER (const char *, license, self->license)
GETTER (const char *, release, self->release)
GETTER (const char *, ollama_tag, self->ollama_tag)
GETTER (const char *, source, self->source)
GETTER (HrOrigin, origin, self->origin)
GETTER (guint32, intermediate, self->intermediate)
GETTER (guint32, experts, self->experts)
GETTER (guint32, experts_active, self->experts_active)
GETTER (guint32, shared_experts, self->shared_experts)
GETTER (guint32, expert_intermediate, self->expert_intermediate)
GETTER (guint32, dense_layers, self->dense_layers)
GETTER (guint32, q_lora_rank, self->q_lora_rank)
GETTER (guint32, qk_nope_head_dim, self->qk_nope_head_dim)
GETTER (gboolean, tied_embeddings, self->tied_embeddings)
GETTER (gboolean, attention_bias, self->attention_bias)
GETTER (gboolean, qk_norm, self->qk_norm)
GETTER (gboolean, plain_mlp, g_strcmp0 (self->mlp, "plain") == 0)
GETTER (guint64, file_weights_bytes, self->file_weights_bytes)
GETTER (const char *, file_type, self->file_type)
GETTER (const char *, file_path, self->file_path)

/**
 * hr_model_spec_set_disk_path:
 * @path: the file the model was imported from, in the file-name encoding
 *
 * Records the file as the file system names it: file_path and source are
 * its displayable form, in which a line break or a byte that is not
 * UTF-8 is escaped, so no longer names the file.
 */
void
hr_model_spec_set_disk_path (HrModelSpec *self,
                             const char  *path)
{
  g_return_if_fail (HR_IS_MODEL_SPEC (self));

  g_free (self->disk_path);
  self->disk_path = g_strdup (path);
}

/**
 * hr_model_spec_get_disk_path:
 *
 * The file the model was imported from as the file system names it; for a
 * model reloaded from imported-models.json, its displayable name (the
 * model file, else the source).  %NULL for a catalog model.
 */
const char *
hr_model_spec_get_disk_path (HrModelSpec *self)
{
  g_return_val_if_fail (HR_IS_MODEL_SPEC (self), NULL);

  if (self->disk_path != NULL)
    return self->disk_path;
  if (self->file_path != NULL)
    return self->file_path;
  return self->origin == HR_ORIGIN_USER ? self->source : NULL;
}

/* Bytes of the model file's weights per ggml type name ("Q4_K" → bytes),
 * or %NULL for a model that does not come from a GGUF file. */
JsonObject *
hr_model_spec_get_weights_by_type (HrModelSpec *self)
{
  g_return_val_if_fail (HR_IS_MODEL_SPEC (self), NULL);
  return self->weights_by_type;
}

gboolean
hr_model_spec_is_moe (HrModelSpec *self)
{
  g_return_val_if_fail (HR_IS_MODEL_SPEC (self), FALSE);
  return self->experts > 0;
}

/* Lower-case text a search entry matches against: id, name, family. */
char *
hr_model_spec_dup_search_text (HrModelSpec *self)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (HR_IS_MODEL_SPEC (self), NULL);

  text = g_strjoin (" ", self->id, self->name, self->family, NULL);
  return g_utf8_strdown (text, -1);
}
