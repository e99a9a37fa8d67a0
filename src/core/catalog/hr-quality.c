/* hr-quality.c — the published quality cost of a precision or KV cache type
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-quality"

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "hr-catalog-json.h"
#include "hr-json-load.h"
#include "hr-quality.h"

#define RESOURCE "/io/github/headroom_app/Headroom/catalog/quality.json"

/* One measured entry; the strings point into the kept document. */
typedef struct
{
  HrQuality quality;
} Entry;

typedef struct
{
  JsonNode *root;            /* kept: the entries' strings live in it */
  GHashTable *precisions;    /* id → Entry */
  GHashTable *kv_types;      /* id → Entry */
} Table;

/* A number member, or FALSE when it is null, missing or not a number. */
static gboolean
number_member (JsonObject *object,
               const char *member,
               double     *value)
{
  JsonNode *node = json_object_get_member (object, member);
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type != G_TYPE_DOUBLE && type != G_TYPE_INT64)
    return FALSE;
  *value = json_node_get_double (node);
  return *value >= 0;
}

static void
read_entries (JsonObject *document,
              JsonObject *sources,
              const char *member,
              GHashTable *into)
{
  JsonNode *list = json_object_get_member (document, member);
  JsonArray *array;

  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    return;
  array = json_node_get_array (list);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      const char *id = hr_json_string_or_null (entry, "id");
      const char *source_id = hr_json_string_or_null (entry, "source");
      JsonNode *source_node = source_id && sources ? json_object_get_member (sources, source_id)
                                                   : NULL;
      JsonObject *source = source_node && JSON_NODE_HOLDS_OBJECT (source_node)
                           ? json_node_get_object (source_node) : NULL;
      Entry *e;

      if (id == NULL)
        continue;
      e = g_new0 (Entry, 1);
      /* Both figures and a source that names its URL and model, or
       * nothing: a figure without its source is not shown. */
      e->quality.measured = source != NULL &&
                            number_member (entry, "kld", &e->quality.kld) &&
                            number_member (entry, "ppl_delta", &e->quality.ppl_delta) &&
                            hr_json_string_or_null (source, "url") != NULL &&
                            hr_json_string_or_null (source, "model") != NULL;
      if (e->quality.measured)
        {
          e->quality.imatrix = hr_json_string_or_null (entry, "imatrix");
          e->quality.source = hr_json_string_or_null (source, "url");
          e->quality.measured_on = hr_json_string_or_null (source, "model");
        }
      else
        e->quality = (HrQuality) { 0 };
      g_hash_table_insert (into, (gpointer) id, e);
    }
}

static const Table *
table (void)
{
  static Table *table;

  if (g_once_init_enter (&table))
    {
      Table *t = g_new0 (Table, 1);

      t->precisions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
      t->kv_types = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
      /* A built-in resource (test-quality checks it): read as every JSON
       * document is, every type checked before use. */
      t->root = hr_json_load_resource (RESOURCE);
      if (t->root != NULL && JSON_NODE_HOLDS_OBJECT (t->root))
        {
          JsonObject *document = json_node_get_object (t->root);
          JsonNode *sources = json_object_get_member (document, "sources");
          JsonObject *by_id = sources && JSON_NODE_HOLDS_OBJECT (sources)
                              ? json_node_get_object (sources) : NULL;

          read_entries (document, by_id, "precisions", t->precisions);
          read_entries (document, by_id, "kv_types", t->kv_types);
        }
      g_once_init_leave (&table, t);
    }
  return table;
}

static gboolean
lookup (GHashTable *entries,
        const char *id,
        HrQuality  *quality)
{
  Entry *e = id != NULL ? g_hash_table_lookup (entries, id) : NULL;

  *quality = e != NULL ? e->quality : (HrQuality) { 0 };
  return quality->measured;
}

/**
 * hr_quality_for_precision:
 *
 * Fills @quality with the published figures of a weight precision.
 *
 * Returns: %FALSE when none is published ("not measured")
 */
gboolean
hr_quality_for_precision (const char *precision_id,
                          HrQuality  *quality)
{
  return lookup (table ()->precisions, precision_id, quality);
}

/**
 * hr_quality_for_kv_type:
 *
 * The same for a KV cache type (the cost of quantizing the cache, with
 * 16-bit weights).
 */
gboolean
hr_quality_for_kv_type (const char *kv_type_id,
                        HrQuality  *quality)
{
  return lookup (table ()->kv_types, kv_type_id, quality);
}

HrQualityTier
hr_quality_tier_for_kld (double kld)
{
  if (kld <= HR_QUALITY_KLD_NEAR_LOSSLESS)
    return HR_QUALITY_TIER_NEAR_LOSSLESS;
  if (kld <= HR_QUALITY_KLD_GOOD)
    return HR_QUALITY_TIER_GOOD;
  if (kld <= HR_QUALITY_KLD_FAIR)
    return HR_QUALITY_TIER_FAIR;
  return HR_QUALITY_TIER_POOR;
}

/**
 * hr_quality_precision_tier:
 * @is_float: 16- or 32-bit weights, the reference the others are
 *   measured against
 */
HrQualityTier
hr_quality_precision_tier (const char *precision_id,
                           gboolean    is_float)
{
  HrQuality q;

  if (is_float)
    return HR_QUALITY_TIER_REFERENCE;
  if (!hr_quality_for_precision (precision_id, &q))
    return HR_QUALITY_TIER_NOT_MEASURED;
  return hr_quality_tier_for_kld (q.kld);
}

/* The JSON and CSV spelling. */
const char *
hr_quality_tier_to_string (HrQualityTier tier)
{
  static const char * const names[] = {
    [HR_QUALITY_TIER_REFERENCE] = "reference",
    [HR_QUALITY_TIER_NEAR_LOSSLESS] = "near-lossless",
    [HR_QUALITY_TIER_GOOD] = "good",
    [HR_QUALITY_TIER_FAIR] = "fair",
    [HR_QUALITY_TIER_POOR] = "poor",
    [HR_QUALITY_TIER_NOT_MEASURED] = "not-measured",
  };

  g_return_val_if_fail (tier <= HR_QUALITY_TIER_NOT_MEASURED, "not-measured");
  return names[tier];
}

/* The window's spelling, translated. */
const char *
hr_quality_tier_label (HrQualityTier tier)
{
  switch (tier)
    {
    case HR_QUALITY_TIER_REFERENCE:
      return _("Reference");
    case HR_QUALITY_TIER_NEAR_LOSSLESS:
      return _("Near-lossless");
    case HR_QUALITY_TIER_GOOD:
      return _("Good");
    case HR_QUALITY_TIER_FAIR:
      return _("Fair");
    case HR_QUALITY_TIER_POOR:
      return _("Poor");
    case HR_QUALITY_TIER_NOT_MEASURED:
    default:
      return _("Not measured");
    }
}

/* Precisions and KV types the file lists, measured or not (tests). */
guint
hr_quality_get_n_entries (void)
{
  return g_hash_table_size (table ()->precisions) + g_hash_table_size (table ()->kv_types);
}
