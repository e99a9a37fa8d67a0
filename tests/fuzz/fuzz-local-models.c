/* fuzz-local-models.c — libFuzzer target: the local-model scan over a
 * hostile file in each tool's layout
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The first byte of the input says which file the rest is:
 *
 *   0  an Ollama manifest    ollama/manifests/registry.ollama.ai/library/m/latest
 *                            (a blob of digest sha256:00…00 exists)
 *   1  a snapshot's config.json
 *   2  a snapshot's model.safetensors (its 8-byte header length, its
 *      JSON header, then tensor data)
 *   3  a snapshot's model.safetensors.index.json (a small model.safetensors
 *      beside it)
 *
 * hr_local_models_scan() must return (no crash, no GLib critical, no
 * leak) with every note one displayable line; a model found has a name
 * and a path inside the fake tree.  The seeds are in corpus-local-models/.
 */

#define G_LOG_DOMAIN "fuzz-local-models"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "fuzz-common.h"
#include "hr-local-models.h"
#include "hr-text.h"

#define ZERO_DIGEST "0000000000000000000000000000000000000000000000000000000000000000"

enum { INPUT_MANIFEST, INPUT_CONFIG, INPUT_SAFETENSORS, INPUT_INDEX, N_INPUTS };

static char *root;       /* the fake tree, made once */
static char *manifest;
static char *snapshot;

static void
write_file (const char *path,
            const void *data,
            gsize       size)
{
  FILE *file = fopen (path, "wb");

  CHECK (file != NULL);
  CHECK (size == 0 || fwrite (data, 1, size, file) == size);
  CHECK (fclose (file) == 0);
}

static void
make_tree (void)
{
  g_autofree char *input = fuzz_write_input ("local-models-input", (const uint8_t *) "", 0);
  g_autofree char *manifests = NULL;
  g_autofree char *blob = NULL;
  g_autofree char *refs = NULL;

  root = g_path_get_dirname (input);
  manifests = g_build_filename (root, "ollama", "manifests", "registry.ollama.ai",
                                "library", "m", NULL);
  CHECK (g_mkdir_with_parents (manifests, 0700) == 0);
  manifest = g_build_filename (manifests, "latest", NULL);
  blob = g_build_filename (root, "ollama", "blobs", NULL);
  CHECK (g_mkdir_with_parents (blob, 0700) == 0);
  g_free (blob);
  blob = g_build_filename (root, "ollama", "blobs", "sha256-" ZERO_DIGEST, NULL);
  write_file (blob, "GGUF", 4);

  refs = g_build_filename (root, "hub", "models--org--m", "refs", NULL);
  CHECK (g_mkdir_with_parents (refs, 0700) == 0);
  g_free (refs);
  refs = g_build_filename (root, "hub", "models--org--m", "refs", "main", NULL);
  write_file (refs, "abc", 3);
  snapshot = g_build_filename (root, "hub", "models--org--m", "snapshots", "abc", NULL);
  CHECK (g_mkdir_with_parents (snapshot, 0700) == 0);
}

/* Only the one file of this input: the others are removed. */
static void
put (const char    *dir,
     const char    *name,
     const uint8_t *data,
     gsize          size)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  if (data == NULL)
    g_unlink (path);
  else
    write_file (path, data, size);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char config[] = "{\"model_type\": \"llama\", \"torch_dtype\": \"bfloat16\"}";
  static const uint8_t small_safetensors[] =
    "\x40\0\0\0\0\0\0\0{\"w\":{\"dtype\":\"F16\",\"shape\":[2],\"data_offsets\":[0,4]}}    \0\0\0\0";
  g_autoptr(HrLocalRoots) roots = NULL;
  g_autoptr(HrLocalScan) scan = NULL;
  GListModel *models;
  const char * const *notes;
  const uint8_t *rest = data + 1;
  gsize n = size - 1;
  guint kind;

  if (size == 0)
    return 0;
  if (root == NULL)
    make_tree ();
  kind = data[0] % N_INPUTS;

  if (kind == INPUT_MANIFEST)
    write_file (manifest, rest, n);
  else
    g_unlink (manifest);
  put (snapshot, "config.json",
       kind == INPUT_CONFIG ? rest : (const uint8_t *) config,
       kind == INPUT_CONFIG ? n : strlen (config));
  put (snapshot, "model.safetensors",
       kind == INPUT_SAFETENSORS ? rest
       : kind == INPUT_INDEX ? small_safetensors : NULL,
       kind == INPUT_SAFETENSORS ? n : sizeof small_safetensors - 1);
  put (snapshot, "model.safetensors.index.json", kind == INPUT_INDEX ? rest : NULL, n);

  roots = hr_local_roots_new ();
  {
    g_autofree char *hub = g_build_filename (root, "hub", NULL);
    g_autofree char *ollama = g_build_filename (root, "ollama", NULL);

    hr_local_roots_add (roots, HR_LOCAL_SOURCE_HUGGINGFACE, hub);
    hr_local_roots_add (roots, HR_LOCAL_SOURCE_OLLAMA, ollama);
  }
  scan = hr_local_models_scan (roots, NULL, NULL);

  notes = hr_local_scan_get_notes (scan);
  for (guint i = 0; notes[i] != NULL; i++)
    if (!hr_text_is_displayable (notes[i], -1))
      {
        g_autofree char *shown = hr_text_escape_line (notes[i], -1);

        g_printerr ("note not displayable: %s\n", shown);
        abort ();
      }

  models = hr_local_scan_get_models (scan);
  CHECK (g_list_model_get_n_items (models) <= 2);
  for (guint i = 0; i < g_list_model_get_n_items (models); i++)
    {
      g_autoptr(HrLocalModel) found = g_list_model_get_item (models, i);

      CHECK (hr_local_model_get_name (found) != NULL);
      CHECK (g_utf8_validate (hr_local_model_get_name (found), -1, NULL));
      CHECK (g_str_has_prefix (hr_local_model_get_path (found), root));
      CHECK (hr_local_model_get_dtype (found) == NULL ||
             g_utf8_validate (hr_local_model_get_dtype (found), -1, NULL));
    }
  return 0;
}
