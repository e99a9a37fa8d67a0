/* hr-precision.c — a weight precision and a KV cache type
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-precision"

#include "config.h"

#include "hr-catalog-json.h"
#include "hr-fields.h"
#include "hr-precision.h"

struct _HrPrecision
{
  GObject parent_instance;

  char *id;
  char *label;
  char *kind;
  char *bpw_source;
  char *file_type;
  double bpw;
  gboolean in_matrix;
  gboolean niche;
};

struct _HrKvType
{
  GObject parent_instance;

  char *id;
  char *label;
  char *source;
  guint32 bytes_num;
  guint32 bytes_den;
};

G_DEFINE_FINAL_TYPE (HrPrecision, hr_precision, G_TYPE_OBJECT)
G_DEFINE_FINAL_TYPE (HrKvType, hr_kv_type, G_TYPE_OBJECT)

static const HrField precision_fields[] = {
  HR_FIELD (HrPrecision, "id", HR_FIELD_STRING, TRUE, 0, id, "Identifier used by the CLI"),
  HR_FIELD (HrPrecision, "label", HR_FIELD_STRING, TRUE, 0, label, "Display label"),
  HR_FIELD (HrPrecision, "kind", HR_FIELD_STRING, TRUE, 0, kind, "float, gguf or safetensors"),
  HR_FIELD (HrPrecision, "bpw_source", HR_FIELD_STRING, FALSE, 0, bpw_source, "Where the bpw comes from"),
  HR_FIELD (HrPrecision, "bpw", HR_FIELD_DOUBLE, TRUE, 0, bpw, "Effective bits per weight"),
  HR_FIELD (HrPrecision, "matrix", HR_FIELD_BOOL, FALSE, 0, in_matrix, "Shown in the default matrix"),
  HR_FIELD (HrPrecision, "niche", HR_FIELD_BOOL, FALSE, 0, niche, "Made only for some models or devices"),
  HR_FIELD (HrPrecision, "file_type", HR_FIELD_STRING, FALSE, 0, file_type, "GGUF general.file_type name"),
};

static const HrField kv_fields[] = {
  HR_FIELD (HrKvType, "id", HR_FIELD_STRING, TRUE, 0, id, "Identifier used by the CLI"),
  HR_FIELD (HrKvType, "label", HR_FIELD_STRING, TRUE, 0, label, "Display label"),
  HR_FIELD (HrKvType, "source", HR_FIELD_STRING, FALSE, 0, source, "Block layout"),
  HR_FIELD (HrKvType, "bytes_num", HR_FIELD_U32, TRUE, 1024, bytes_num, "Bytes per block"),
  HR_FIELD (HrKvType, "bytes_den", HR_FIELD_U32, TRUE, 1024, bytes_den, "Elements per block"),
};

static void
hr_precision_finalize (GObject *object)
{
  hr_fields_free_strings (object, precision_fields, G_N_ELEMENTS (precision_fields));
  G_OBJECT_CLASS (hr_precision_parent_class)->finalize (object);
}

static void
hr_precision_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  if (!hr_fields_get_property (object, 1, precision_fields, G_N_ELEMENTS (precision_fields), prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
hr_precision_class_init (HrPrecisionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = hr_precision_finalize;
  object_class->get_property = hr_precision_get_property;
  hr_fields_install_properties (object_class, 1, precision_fields, G_N_ELEMENTS (precision_fields), NULL);
}

static void
hr_precision_init (HrPrecision *self)
{
}

HrPrecision *
hr_precision_new_from_json (JsonObject  *object,
                            GError     **error)
{
  g_autoptr(HrPrecision) self = g_object_new (HR_TYPE_PRECISION, NULL);

  if (!hr_fields_read_json (self, precision_fields, G_N_ELEMENTS (precision_fields),
                            object, error))
    return NULL;
  if (!(self->bpw > 0 && self->bpw <= 64))
    {
      g_set_error_literal (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                           "field “bpw” must be in (0, 64]");
      return NULL;
    }
  /* The files the precision comes in: both formats (float), a llama.cpp
   * file type (gguf), a checkpoint format of vLLM and SGLang
   * (safetensors), or a quantization with both forms (both: MXFP4). */
  if (g_strcmp0 (self->kind, "float") != 0 && g_strcmp0 (self->kind, "gguf") != 0 &&
      g_strcmp0 (self->kind, "safetensors") != 0 && g_strcmp0 (self->kind, "both") != 0)
    {
      g_set_error_literal (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                           "field “kind” must be float, gguf, safetensors or both");
      return NULL;
    }
  return g_steal_pointer (&self);
}

#define GETTER(type, name, fallback) \
  type \
  hr_precision_get_##name (HrPrecision *self) \
  { \
    g_return_val_if_fail (HR_IS_PRECISION (self), fallback); \
    return self->name; \
  }

GETTER (const char *, id, NULL)
GETTER (const char *, label, NULL)
GETTER (double, bpw, 0)
GETTER (const char *, kind, NULL)
GETTER (gboolean, in_matrix, FALSE)
GETTER (const char *, bpw_source, NULL)
/* A format made only for some models or some hardware, or superseded:
 * never suggested as a change. */
GETTER (gboolean, niche, FALSE)
/* The name llama-quantize writes in a GGUF file's general.file_type for
 * this precision (“Q4_K_M”, “MXFP4_MOE”, “F16”); %NULL for precisions GGUF
 * files do not come in. */
GETTER (const char *, file_type, NULL)

#undef GETTER

/**
 * hr_precision_matches_file_type:
 * @file_type: (nullable): a GGUF file's type, as hr_model_spec_get_file_type()
 *   gives it
 *
 * Whether a GGUF file of type @file_type is a file of this precision.
 */
gboolean
hr_precision_matches_file_type (HrPrecision *self,
                                const char  *file_type)
{
  g_return_val_if_fail (HR_IS_PRECISION (self), FALSE);
  return file_type != NULL && self->file_type != NULL &&
         g_ascii_strcasecmp (self->file_type, file_type) == 0;
}

/**
 * hr_precision_find_for_file_type:
 * @precisions: a list of #HrPrecision, such as hr_catalog_get_precisions()
 * @file_type: (nullable): a GGUF file's type (“Q4_K_S”)
 *
 * The precision an imported GGUF file is in: a Q4_K_S file is Q4_K_S, not
 * the Q4_K_M a calculator may hold.
 *
 * Returns: (transfer none) (nullable): the precision, or %NULL when the
 *   list has none of that type
 */
HrPrecision *
hr_precision_find_for_file_type (GListModel *precisions,
                                 const char *file_type)
{
  g_return_val_if_fail (G_IS_LIST_MODEL (precisions), NULL);

  for (guint i = 0; file_type != NULL && i < g_list_model_get_n_items (precisions); i++)
    {
      g_autoptr(HrPrecision) p = g_list_model_get_item (precisions, i);

      /* The list holds its own reference, so the pointer stays valid. */
      if (hr_precision_matches_file_type (p, file_type))
        return p;
    }
  return NULL;
}

static void
hr_kv_type_finalize (GObject *object)
{
  hr_fields_free_strings (object, kv_fields, G_N_ELEMENTS (kv_fields));
  G_OBJECT_CLASS (hr_kv_type_parent_class)->finalize (object);
}

static void
hr_kv_type_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  if (!hr_fields_get_property (object, 1, kv_fields, G_N_ELEMENTS (kv_fields),
                               prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
hr_kv_type_class_init (HrKvTypeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = hr_kv_type_finalize;
  object_class->get_property = hr_kv_type_get_property;
  hr_fields_install_properties (object_class, 1, kv_fields, G_N_ELEMENTS (kv_fields), NULL);
}

static void
hr_kv_type_init (HrKvType *self)
{
}

HrKvType *
hr_kv_type_new_from_json (JsonObject  *object,
                          GError     **error)
{
  g_autoptr(HrKvType) self = g_object_new (HR_TYPE_KV_TYPE, NULL);

  if (!hr_fields_read_json (self, kv_fields, G_N_ELEMENTS (kv_fields), object, error))
    return NULL;
  if (self->bytes_num == 0 || self->bytes_den == 0)
    {
      g_set_error_literal (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID,
                           "fields “bytes_num” and “bytes_den” must be positive");
      return NULL;
    }
  return g_steal_pointer (&self);
}

const char *
hr_kv_type_get_id (HrKvType *self)
{
  g_return_val_if_fail (HR_IS_KV_TYPE (self), NULL);
  return self->id;
}

const char *
hr_kv_type_get_label (HrKvType *self)
{
  g_return_val_if_fail (HR_IS_KV_TYPE (self), NULL);
  return self->label;
}

double
hr_kv_type_get_bytes_per_element (HrKvType *self)
{
  g_return_val_if_fail (HR_IS_KV_TYPE (self), 0);
  return (double) self->bytes_num / self->bytes_den;
}
