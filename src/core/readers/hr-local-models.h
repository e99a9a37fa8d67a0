/* hr-local-models.h — the models already on this computer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A read-only scan of the places where the usual tools keep models: the
 * Hugging Face cache, Ollama's store, LM Studio's models folder and
 * llama.cpp's cache.  The scan only finds: each model's file to import
 * (a config.json or a GGUF file), its size on disk and where it came
 * from.  Importing them is the catalog's job (hr_model_import_scan()).
 *
 * The scan is bounded: a deadline and a number of directory entries
 * looked at; past either it stops and says so (hr_local_scan_is_truncated()).
 * It never follows a symbolic link out of the tree it scans (the Hugging
 * Face cache's snapshots are links into the same model's blobs: those are
 * in the tree), never enters a linked directory (no loop can form), and
 * skips what it cannot read.
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define HR_LOCAL_MODELS_DEADLINE_MS      5000
#define HR_LOCAL_MODELS_MAX_ENTRIES      20000   /* directory entries looked at */
#define HR_LOCAL_MODELS_MAX_MODELS       2000
#define HR_LOCAL_MODELS_MAX_DEPTH        5       /* below a source's root */
/* The JSON files (config, index, manifest, safetensors header) are read
 * with the limits of their kind in hr-json-load.c. */

typedef enum
{
  HR_LOCAL_SOURCE_HUGGINGFACE,
  HR_LOCAL_SOURCE_OLLAMA,
  HR_LOCAL_SOURCE_LMSTUDIO,
  HR_LOCAL_SOURCE_LLAMACPP,
} HrLocalSource;

#define HR_N_LOCAL_SOURCES 4

const char *hr_local_source_to_string (HrLocalSource source);
const char *hr_local_source_get_label (HrLocalSource source);

/* Where to look. */
typedef struct _HrLocalRoots HrLocalRoots;

HrLocalRoots *hr_local_roots_new         (void);
HrLocalRoots *hr_local_roots_new_default (void);
void          hr_local_roots_add         (HrLocalRoots  *self,
                                          HrLocalSource  source,
                                          const char    *dir);
guint         hr_local_roots_get_n       (HrLocalRoots  *self);
const char   *hr_local_roots_get_dir     (HrLocalRoots  *self,
                                          guint          index,
                                          HrLocalSource *source);
HrLocalRoots *hr_local_roots_copy        (HrLocalRoots  *self);
void          hr_local_roots_free        (HrLocalRoots  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrLocalRoots, hr_local_roots_free)

/* Bounds; zero members take the defaults above. */
typedef struct
{
  guint deadline_ms;
  guint max_entries;
} HrLocalScanLimits;

/* One model found. */
#define HR_TYPE_LOCAL_MODEL (hr_local_model_get_type ())

G_DECLARE_FINAL_TYPE (HrLocalModel, hr_local_model, HR, LOCAL_MODEL, GObject)

const char   *hr_local_model_get_path          (HrLocalModel  *self);
const char   *hr_local_model_get_import_path   (HrLocalModel  *self);
HrLocalSource hr_local_model_get_source        (HrLocalModel  *self);
const char   *hr_local_model_get_name          (HrLocalModel  *self);
const char   *hr_local_model_get_format        (HrLocalModel  *self);
const char   *hr_local_model_get_dtype         (HrLocalModel  *self);
guint64       hr_local_model_get_weights_bytes (HrLocalModel  *self);
gpointer      hr_local_model_get_model         (HrLocalModel  *self);
void          hr_local_model_set_model         (HrLocalModel  *self,
                                                gpointer       model);
const char   *hr_local_model_get_error         (HrLocalModel  *self);
void          hr_local_model_set_error         (HrLocalModel  *self,
                                                const char    *error);

/* What a scan found. */
#define HR_TYPE_LOCAL_SCAN (hr_local_scan_get_type ())

G_DECLARE_FINAL_TYPE (HrLocalScan, hr_local_scan, HR, LOCAL_SCAN, GObject)

HrLocalScan        *hr_local_models_scan          (HrLocalRoots             *roots,
                                                   const HrLocalScanLimits  *limits,
                                                   GCancellable             *cancellable);
GListModel         *hr_local_scan_get_models      (HrLocalScan  *self);
gboolean            hr_local_scan_is_truncated    (HrLocalScan  *self);
void                hr_local_scan_set_truncated   (HrLocalScan  *self,
                                                   const char   *note);
const char * const *hr_local_scan_get_notes       (HrLocalScan  *self);
gint64              hr_local_scan_get_deadline    (HrLocalScan  *self);

G_END_DECLS
