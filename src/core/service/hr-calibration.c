/* hr-calibration.c — speed corrections measured on this computer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "headroom"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "hr-calibration.h"
#include "hr-file.h"
#include "hr-json-load.h"
#include "hr-text.h"

/* The file holds a few entries; 1 MiB is far past any real one. */
#define CALIBRATION_MAX_BYTES (1u << 20)

struct _HrCalibration
{
  gatomicrefcount ref_count;    /* the window's calculator and the CLI's
                                 * options share one */
  GPtrArray *entries;           /* HrCalibrationEntry* */
};

static const char * const backend_ids[] = {
  [HR_BACKEND_CUDA] = "cuda",
  [HR_BACKEND_METAL] = "metal",
  [HR_BACKEND_ROCM] = "rocm",
  [HR_BACKEND_SYCL] = "sycl",
  [HR_BACKEND_VULKAN] = "vulkan",
  [HR_BACKEND_CPU] = "cpu",
};

/* docs/CLI.md's names of a backend: cuda, rocm, vulkan, metal, sycl, cpu. */
const char *
hr_backend_id (HrBackend backend)
{
  return (guint) backend < G_N_ELEMENTS (backend_ids) ? backend_ids[backend] : "cpu";
}

static gboolean
backend_from_id (const char *id,
                 HrBackend  *backend)
{
  for (guint i = 0; i < G_N_ELEMENTS (backend_ids); i++)
    if (g_strcmp0 (backend_ids[i], id) == 0)
      {
        *backend = i;
        return TRUE;
      }
  return FALSE;
}

/* llama-bench's "backend" column: "CUDA", "Metal,BLAS", "ROCm", "Vulkan",
 * "SYCL", "CPU", "BLAS" (the first GPU backend named wins). */
gboolean
hr_backend_from_log_name (const char *name,
                          HrBackend  *backend)
{
  static const struct { const char *name; HrBackend backend; } names[] = {
    { "CUDA", HR_BACKEND_CUDA }, { "Metal", HR_BACKEND_METAL }, { "MTL", HR_BACKEND_METAL },
    { "ROCm", HR_BACKEND_ROCM }, { "HIP", HR_BACKEND_ROCM }, { "Vulkan", HR_BACKEND_VULKAN },
    { "SYCL", HR_BACKEND_SYCL }, { "CPU", HR_BACKEND_CPU }, { "BLAS", HR_BACKEND_CPU },
  };

  if (name == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strstr (name, names[i].name) != NULL)
      {
        *backend = names[i].backend;
        return TRUE;
      }
  return FALSE;
}

static void
entry_free (gpointer data)
{
  HrCalibrationEntry *entry = data;

  g_free (entry->hardware);
  g_free (entry);
}

HrCalibration *
hr_calibration_new (void)
{
  HrCalibration *self = g_new0 (HrCalibration, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->entries = g_ptr_array_new_with_free_func (entry_free);
  return self;
}

HrCalibration *
hr_calibration_ref (HrCalibration *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
hr_calibration_unref (HrCalibration *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_ptr_array_unref (self->entries);
  g_free (self);
}

/* $XDG_DATA_HOME/headroom/calibration/calibration.json: a folder of its
 * own, for every *.json directly in headroom/ is read as a catalog file. */
char *
hr_calibration_dup_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "headroom", "calibration",
                           HR_CALIBRATION_FILE, NULL);
}

guint
hr_calibration_get_n_entries (const HrCalibration *self)
{
  return self->entries->len;
}

const HrCalibrationEntry *
hr_calibration_get_entry (const HrCalibration *self,
                          guint                index)
{
  g_return_val_if_fail (index < self->entries->len, NULL);
  return g_ptr_array_index (self->entries, index);
}

const HrCalibrationEntry *
hr_calibration_find (const HrCalibration *self,
                     const char          *hardware,
                     HrBackend            backend)
{
  if (self == NULL || hardware == NULL)
    return NULL;
  for (guint i = 0; i < self->entries->len; i++)
    {
      const HrCalibrationEntry *e = g_ptr_array_index (self->entries, i);

      if (e->backend == backend && g_ascii_strcasecmp (e->hardware, hardware) == 0)
        return e;
    }
  return NULL;
}

/* Replaces the entry of the same device and backend (a new calibration
 * supersedes the old: the runs are not counted twice). */
void
hr_calibration_set (HrCalibration            *self,
                    const HrCalibrationEntry *entry)
{
  HrCalibrationEntry *copy;

  g_return_if_fail (entry->hardware != NULL);
  for (guint i = 0; i < self->entries->len; i++)
    {
      HrCalibrationEntry *e = g_ptr_array_index (self->entries, i);

      if (e->backend == entry->backend && g_ascii_strcasecmp (e->hardware, entry->hardware) == 0)
        {
          g_ptr_array_remove_index (self->entries, i);
          break;
        }
    }
  if (self->entries->len >= HR_CALIBRATION_MAX_ENTRIES)
    g_ptr_array_remove_index (self->entries, 0);
  copy = g_new (HrCalibrationEntry, 1);
  *copy = *entry;
  copy->hardware = g_strdup (entry->hardware);
  g_ptr_array_add (self->entries, copy);
}

/* --------------------------------------------------------------- sums */

gboolean
hr_calibration_sum_add (HrCalibrationSum *sum,
                        gboolean          prompt,
                        double            measured,
                        double            estimated)
{
  double ratio;

  if (!(measured > 0) || !(estimated > 0) || !isfinite (measured) || !isfinite (estimated))
    return FALSE;
  ratio = measured / estimated;
  if (ratio < HR_CALIBRATION_FACTOR_MIN || ratio > HR_CALIBRATION_FACTOR_MAX)
    return FALSE;
  if (prompt)
    {
      sum->prefill_log_sum += log (ratio);
      sum->prefill_runs++;
    }
  else
    {
      sum->decode_log_sum += log (ratio);
      sum->decode_runs++;
    }
  return TRUE;
}

void
hr_calibration_sum_to_entry (const HrCalibrationSum *sum,
                             HrCalibrationEntry     *entry)
{
  entry->decode_runs = sum->decode_runs;
  entry->decode_factor = sum->decode_runs > 0 ? exp (sum->decode_log_sum / sum->decode_runs) : 1;
  entry->prefill_runs = sum->prefill_runs;
  entry->prefill_factor = sum->prefill_runs > 0 ?
                          exp (sum->prefill_log_sum / sum->prefill_runs) : 1;
}

/* ------------------------------------------------------------- apply */

/**
 * hr_calibration_apply:
 *
 * Multiplies @estimate's speeds by the factors of its device and backend
 * (llama.cpp and Ollama estimates only: the runs are llama.cpp's); the
 * prompt's and the answer's times follow.
 *
 * Returns: the runs behind the factors applied, 0 when none were
 */
guint32
hr_calibration_apply (const HrCalibration *self,
                      const char          *hardware,
                      HrEstimate          *e)
{
  const HrCalibrationEntry *entry;
  guint32 runs = 0;

  if (self == NULL || (e->engine != HR_ENGINE_LLAMACPP && e->engine != HR_ENGINE_OLLAMA))
    return 0;
  entry = hr_calibration_find (self, hardware, e->backend);
  if (entry == NULL)
    return 0;
  if (entry->decode_runs > 0 && e->decode_tokens_per_s > 0)
    {
      double f = entry->decode_factor;

      e->decode_tokens_per_s *= f;
      e->decode_tokens_per_s_low *= f;
      e->decode_tokens_per_s_high *= f;
      e->generation_seconds /= f;
      runs += entry->decode_runs;
    }
  if (entry->prefill_runs > 0 && e->prefill_tokens_per_s > 0)
    {
      double f = entry->prefill_factor;

      e->prefill_tokens_per_s *= f;
      e->prefill_tokens_per_s_low *= f;
      e->prefill_tokens_per_s_high *= f;
      /* the first token is the prompt's time, almost all of it */
      e->ttft_seconds /= f;
      runs += entry->prefill_runs;
    }
  return runs;
}

/* ------------------------------------------------------------ the file */

char *
hr_calibration_to_data (const HrCalibration *self,
                        gsize               *length)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "_comment");
  json_builder_add_string_value (b, "Headroom's speed corrections for this computer "
                                    "(headroom-cli calibrate): measured / estimated, per "
                                    "device and backend. Copy this file to share them.");
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, HR_CALIBRATION_VERSION);
  json_builder_set_member_name (b, "entries");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->entries->len; i++)
    {
      const HrCalibrationEntry *e = g_ptr_array_index (self->entries, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "hardware");
      json_builder_add_string_value (b, e->hardware);
      json_builder_set_member_name (b, "backend");
      json_builder_add_string_value (b, hr_backend_id (e->backend));
      json_builder_set_member_name (b, "decode_factor");
      json_builder_add_double_value (b, e->decode_factor);
      json_builder_set_member_name (b, "decode_runs");
      json_builder_add_int_value (b, e->decode_runs);
      json_builder_set_member_name (b, "prefill_factor");
      json_builder_add_double_value (b, e->prefill_factor);
      json_builder_set_member_name (b, "prefill_runs");
      json_builder_add_int_value (b, e->prefill_runs);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return hr_json_to_data (root, length);
}

gboolean
hr_calibration_save (const HrCalibration *self,
                     const char          *path,
                     GError             **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *data = NULL;
  gsize length = 0;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_autofree char *display = hr_text_display_path (dir);

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", display,
                   g_strerror (saved));
      return FALSE;
    }
  data = hr_calibration_to_data (self, &length);
  return hr_file_write_atomic (path, data, length, error);
}

static gboolean
read_entry (JsonObject         *o,
            HrCalibrationEntry *e,
            GError            **error)
{
  const char *hardware;
  const char *backend;
  static const char * const numbers[] = {
    "decode_factor", "decode_runs", "prefill_factor", "prefill_runs",
  };

  hardware = json_object_has_member (o, "hardware") ?
             json_object_get_string_member_with_default (o, "hardware", NULL) : NULL;
  backend = json_object_get_string_member_with_default (o, "backend", NULL);
  if (hardware == NULL || *hardware == '\0' || !hr_text_is_displayable (hardware, -1))
    return g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "an entry without a valid “hardware”"), FALSE;
  if (!backend_from_id (backend, &e->backend))
    return g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "an entry with an unknown “backend”"), FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      JsonNode *n = json_object_get_member (o, numbers[i]);

      if (n == NULL || json_node_get_value_type (n) == G_TYPE_STRING ||
          !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) == G_TYPE_BOOLEAN)
        return g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                            "“%s” is missing or not a number", numbers[i]), FALSE;
    }
  e->decode_factor = json_object_get_double_member (o, "decode_factor");
  e->prefill_factor = json_object_get_double_member (o, "prefill_factor");
  {
    gint64 d = json_object_get_int_member (o, "decode_runs");
    gint64 p = json_object_get_int_member (o, "prefill_runs");

    if (d < 0 || p < 0 || d > G_MAXINT32 || p > G_MAXINT32)
      return g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                          "a run count out of range"), FALSE;
    e->decode_runs = d;
    e->prefill_runs = p;
  }
  if (!(e->decode_factor >= HR_CALIBRATION_FACTOR_MIN &&
        e->decode_factor <= HR_CALIBRATION_FACTOR_MAX) ||
      !(e->prefill_factor >= HR_CALIBRATION_FACTOR_MIN &&
        e->prefill_factor <= HR_CALIBRATION_FACTOR_MAX))
    return g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "a factor outside %g–%g", HR_CALIBRATION_FACTOR_MIN,
                        HR_CALIBRATION_FACTOR_MAX), FALSE;
  e->hardware = (char *) hardware;
  return TRUE;
}

static HrCalibration *
parse_file (const char  *path,
            GError     **error)
{
  g_autoptr(JsonNode) root = hr_json_load_file (path, CALIBRATION_MAX_BYTES, error);
  g_autoptr(HrCalibration) self = NULL;
  JsonObject *o;
  JsonArray *entries;

  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    return g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "not a JSON object"), NULL;
  o = json_node_get_object (root);
  if (json_object_get_int_member_with_default (o, "version", 0) != HR_CALIBRATION_VERSION)
    return g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "not version %d of the calibration file", HR_CALIBRATION_VERSION), NULL;
  if (!json_object_has_member (o, "entries") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (o, "entries")))
    return g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "no “entries” array"), NULL;
  entries = json_object_get_array_member (o, "entries");
  self = hr_calibration_new ();
  for (guint i = 0; i < json_array_get_length (entries) && i < HR_CALIBRATION_MAX_ENTRIES; i++)
    {
      JsonNode *node = json_array_get_element (entries, i);
      HrCalibrationEntry e = { 0 };

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                            "entry %u is not an object", i + 1), NULL;
      if (!read_entry (json_node_get_object (node), &e, error))
        return NULL;
      hr_calibration_set (self, &e);
    }
  return g_steal_pointer (&self);
}

/**
 * hr_calibration_load_default:
 * @note: (out) (optional): as hr_calibration_load()'s
 *
 * This computer's calibration, from hr_calibration_dup_default_path().
 *
 * Returns: (transfer full): the calibration
 */
HrCalibration *
hr_calibration_load_default (char **note)
{
  g_autofree char *path = hr_calibration_dup_default_path ();

  return hr_calibration_load (path, note);
}

/**
 * hr_calibration_load:
 * @path: the calibration file
 * @note: (out) (optional): a line to show the user when the file was bad
 *
 * Reads @path.  A missing file is no calibration.  A file that cannot be
 * read as calibration is renamed aside (hr_file_move_aside()) and
 * reported in @note; the result is then empty.  Never fails.
 *
 * Returns: (transfer full): the calibration
 */
HrCalibration *
hr_calibration_load (const char  *path,
                     char       **note)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) move_error = NULL;
  g_autofree char *aside = NULL;
  g_autofree char *display = NULL;
  HrCalibration *self;

  if (note != NULL)
    *note = NULL;
  if (!g_file_test (path, G_FILE_TEST_EXISTS) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    return hr_calibration_new ();
  self = parse_file (path, &error);
  if (self != NULL)
    return self;

  display = hr_text_display_path (path);
  aside = hr_file_move_aside (path, &move_error);
  if (note != NULL)
    {
      g_autofree char *why = hr_text_escape_line (error->message, -1);

      if (aside != NULL)
        {
          g_autofree char *aside_display = hr_text_display_path (aside);

          *note = g_strdup_printf ("%s could not be read (%s); kept as %s, speeds are not "
                                   "calibrated", display, why, aside_display);
        }
      else
        *note = g_strdup_printf ("%s could not be read (%s) and stays where it is (%s); speeds "
                                 "are not calibrated", display, why, move_error->message);
    }
  return hr_calibration_new ();
}
