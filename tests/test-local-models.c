/* test-local-models.c — the models on disk, in fake caches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The caches are built by fake-trees.c in each tool's layout, with real
 * manifests and small GGUF files from the test writer.  Bounds are
 * checked through the scan's truncated flag, not through wall time.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "fake-trees.h"
#include "hr-model-import.h"
#include "hr-test-util.h"

static HrLocalModel *
find (HrLocalScan *scan,
      const char  *name)
{
  GListModel *models = hr_local_scan_get_models (scan);

  for (guint i = 0; i < g_list_model_get_n_items (models); i++)
    {
      g_autoptr(HrLocalModel) found = g_list_model_get_item (models, i);

      if (g_strcmp0 (hr_local_model_get_name (found), name) == 0)
        return found;   /* the scan keeps it */
    }
  return NULL;
}

static HrLocalModel *
expect (HrLocalScan   *scan,
        const char    *name,
        HrLocalSource  source,
        const char    *id)
{
  HrLocalModel *found = find (scan, name);
  HrModelSpec *model;

  if (found == NULL)
    g_error ("the scan did not find “%s”", name);
  g_assert_cmpint (hr_local_model_get_source (found), ==, source);
  if (hr_local_model_get_error (found) != NULL)
    g_error ("%s: %s", name, hr_local_model_get_error (found));
  model = hr_local_model_get_model (found);
  g_assert_nonnull (model);
  g_assert_cmpstr (hr_model_spec_get_id (model), ==, id);
  return found;
}

static guint64
file_size (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return st.st_size;
}

static gboolean
notes_mention (HrLocalScan *scan,
               const char  *text)
{
  const char * const *notes = hr_local_scan_get_notes (scan);

  for (guint i = 0; notes[i] != NULL; i++)
    if (strstr (notes[i], text) != NULL)
      return TRUE;
  return FALSE;
}

static void
test_every_source (HrTestDir     *fixture,
                   gconstpointer  user_data)
{
  g_autoptr(HrLocalRoots) roots = hr_fake_models_roots (fixture->dir);
  g_autoptr(HrLocalScan) scan = NULL;
  g_autofree char *shard2 = NULL;
  HrLocalModel *found;

  hr_fake_models_write (fixture->dir);
  scan = hr_model_import_scan (roots, NULL, NULL);

  g_assert_false (hr_local_scan_is_truncated (scan));
  g_assert_cmpuint (g_list_model_get_n_items (hr_local_scan_get_models (scan)), ==, 7);

  /* Hugging Face: the repository's id; the index's total; the config's dtype */
  found = expect (scan, "Qwen/Qwen3-8B", HR_LOCAL_SOURCE_HUGGINGFACE, "Qwen/Qwen3-8B");
  g_assert_cmpuint (hr_local_model_get_weights_bytes (found), ==, 16381470720);
  g_assert_cmpstr (hr_local_model_get_dtype (found), ==, "bfloat16");
  g_assert_cmpstr (hr_local_model_get_format (found), ==, "safetensors");
  g_assert_true (g_str_has_suffix (hr_local_model_get_path (found),
                                   "/snapshots/0123456789abcdef0123456789abcdef01234567"));

  /* no index: the safetensors header's tensor sizes */
  found = expect (scan, "meta-llama/Llama-3.2-1B-Instruct", HR_LOCAL_SOURCE_HUGGINGFACE,
                  "meta-llama/Llama-3.2-1B-Instruct");
  g_assert_cmpuint (hr_local_model_get_weights_bytes (found), ==, 2 * 1234567);
  g_assert_cmpstr (hr_local_model_get_dtype (found), ==, "bfloat16");

  found = expect (scan, "bartowski/Tiny-GGUF/tiny-Q4_K_M.gguf", HR_LOCAL_SOURCE_HUGGINGFACE,
                  "tiny-Q4_K_M");
  g_assert_cmpuint (hr_local_model_get_weights_bytes (found), ==,
                    file_size (hr_local_model_get_path (found)));

  /* Ollama: the name in Ollama; the blob's real size */
  found = expect (scan, "tiny:latest", HR_LOCAL_SOURCE_OLLAMA, "tiny:latest");
  g_assert_true (g_str_has_suffix (hr_local_model_get_path (found),
                                   "/blobs/sha256-3f2a5b0c1d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a"));
  g_assert_cmpuint (hr_local_model_get_weights_bytes (found), ==,
                    file_size (hr_local_model_get_path (found)));
  g_assert_cmpstr (hr_model_spec_get_name (hr_local_model_get_model (found)), ==, "Tiny Ollama");

  /* LM Studio; the projector is not a model; a split model is one */
  expect (scan, "lmstudio-community/Tiny-GGUF/tiny-Q8_0.gguf", HR_LOCAL_SOURCE_LMSTUDIO,
          "tiny-Q8_0");
  g_assert_null (find (scan, "lmstudio-community/Tiny-GGUF/mmproj-tiny-f16.gguf"));
  found = expect (scan, "pub/Split-GGUF/split-Q8_0-00001-of-00002.gguf",
                  HR_LOCAL_SOURCE_LMSTUDIO, "split-Q8_0");
  shard2 = g_strdup (hr_local_model_get_path (found));
  memcpy (strstr (shard2, "00001-of"), "00002", 5);
  g_assert_cmpuint (hr_local_model_get_weights_bytes (found), ==,
                    file_size (hr_local_model_get_path (found)) + file_size (shard2));

  /* llama.cpp */
  expect (scan, "bartowski_Tiny-GGUF_tiny-Q4_0.gguf", HR_LOCAL_SOURCE_LLAMACPP,
          "bartowski_Tiny-GGUF_tiny-Q4_0");

  /* What was refused, and why */
  g_assert_null (find (scan, "evil/escape"));
  g_assert_null (find (scan, "evil/loop"));
  g_assert_null (find (scan, "evil:latest"));
  g_assert_true (notes_mention (scan, "evil:latest: the model layer's digest is not"));
  g_assert_true (notes_mention (scan, "hf.co/bartowski/Tiny-GGUF:Q4_K_M: the model's blob is missing"));
  g_assert_true (notes_mention (scan, "broken/latest: not valid JSON"));
}

/* A cache of 100,000 files: the scan stops at its entry bound and says so;
 * and with a deadline already past, at once. */
static void
test_bounded (HrTestDir     *fixture,
              gconstpointer  user_data)
{
  g_autofree char *dir = g_build_filename (fixture->dir, "lmstudio", NULL);
  g_autofree char *model = g_build_filename (dir, "a-first", "repo", "tiny-Q8_0.gguf", NULL);
  g_autoptr(HrLocalRoots) roots = hr_local_roots_new ();
  g_autoptr(HrLocalScan) scan = NULL;
  g_autoptr(HrLocalScan) late = NULL;
  HrLocalScanLimits deadline_only = { 1, 0 };

  hr_fake_models_write_many (dir, 100000);
  hr_fake_write_tiny_gguf (model, "Tiny");
  hr_local_roots_add (roots, HR_LOCAL_SOURCE_LMSTUDIO, dir);

  scan = hr_model_import_scan (roots, NULL, NULL);
  g_assert_true (hr_local_scan_is_truncated (scan));
  g_assert_true (notes_mention (scan, "stopped after looking at"));
  /* What was found before the bound is kept. */
  g_assert_nonnull (find (scan, "a-first/repo/tiny-Q8_0.gguf"));

  g_usleep (2000);
  late = hr_local_models_scan (roots, &deadline_only, NULL);
  /* The deadline may pass during the first directory or before it. */
  g_usleep (2000);
  hr_model_import_found (late, NULL);
  g_assert_true (hr_local_scan_is_truncated (late));
}

/* Links that loop or leave the tree, and a linked directory: not
 * followed, and the scan ends without reaching a bound. */
static void
test_links (HrTestDir     *fixture,
            gconstpointer  user_data)
{
  g_autofree char *dir = g_build_filename (fixture->dir, "llama.cpp", NULL);
  g_autofree char *outside = g_build_filename (fixture->dir, "outside.gguf", NULL);
  g_autofree char *path = NULL;
  g_autoptr(HrLocalRoots) roots = hr_local_roots_new ();
  g_autoptr(HrLocalScan) scan = NULL;

  hr_fake_write_tiny_gguf (outside, "Outside");
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  path = g_build_filename (dir, "loop", NULL);
  g_assert_cmpint (symlink (".", path), ==, 0);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (dir, "root", NULL);
  g_assert_cmpint (symlink ("/", path), ==, 0);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (dir, "self.gguf", NULL);
  g_assert_cmpint (symlink ("self.gguf", path), ==, 0);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (dir, "escape.gguf", NULL);
  g_assert_cmpint (symlink ("../outside.gguf", path), ==, 0);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (dir, "pipe.gguf", NULL);
  g_assert_cmpint (mkfifo (path, 0644), ==, 0);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (dir, "inside.gguf", NULL);
  hr_fake_write_tiny_gguf (path, "Inside");
  g_clear_pointer (&path, g_free);
  path = g_build_filename (dir, "alias.gguf", NULL);
  g_assert_cmpint (symlink ("inside.gguf", path), ==, 0);

  hr_local_roots_add (roots, HR_LOCAL_SOURCE_LLAMACPP, dir);
  scan = hr_model_import_scan (roots, NULL, NULL);
  g_assert_false (hr_local_scan_is_truncated (scan));
  /* inside.gguf once (alias.gguf is the same file); nothing else */
  g_assert_cmpuint (g_list_model_get_n_items (hr_local_scan_get_models (scan)), ==, 1);
  g_assert_nonnull (find (scan, "alias.gguf") != NULL ? find (scan, "alias.gguf")
                                                      : find (scan, "inside.gguf"));
}

/* An unreadable folder is skipped.  Root reads it anyway (CI runs as
 * root), so the case is skipped there. */
static void
test_unreadable (HrTestDir     *fixture,
                 gconstpointer  user_data)
{
  g_autofree char *dir = g_build_filename (fixture->dir, "lmstudio", NULL);
  g_autofree char *locked = g_build_filename (dir, "locked", NULL);
  g_autofree char *hidden = g_build_filename (locked, "repo", "hidden-Q8_0.gguf", NULL);
  g_autofree char *open = g_build_filename (dir, "open", "repo", "open-Q8_0.gguf", NULL);
  g_autoptr(HrLocalRoots) roots = hr_local_roots_new ();
  g_autoptr(HrLocalScan) scan = NULL;

  if (geteuid () == 0)
    {
      g_test_skip ("root reads unreadable files");
      return;
    }

  hr_fake_write_tiny_gguf (hidden, "Hidden");
  hr_fake_write_tiny_gguf (open, "Open");
  g_assert_cmpint (g_chmod (locked, 0), ==, 0);
  hr_local_roots_add (roots, HR_LOCAL_SOURCE_LMSTUDIO, dir);
  scan = hr_model_import_scan (roots, NULL, NULL);
  g_chmod (locked, 0755);

  g_assert_false (hr_local_scan_is_truncated (scan));
  g_assert_cmpuint (g_list_model_get_n_items (hr_local_scan_get_models (scan)), ==, 1);
  g_assert_nonnull (find (scan, "open/repo/open-Q8_0.gguf"));
}

/* A GGUF file that is not a model the importer knows is listed, with
 * the reason. */
static void
test_unreadable_model (HrTestDir     *fixture,
                       gconstpointer  user_data)
{
  g_autofree char *dir = g_build_filename (fixture->dir, "llama.cpp", NULL);
  g_autofree char *path = g_build_filename (dir, "broken.gguf", NULL);
  g_autoptr(HrLocalRoots) roots = hr_local_roots_new ();
  g_autoptr(HrLocalScan) scan = NULL;
  HrLocalModel *found;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (path, "GGUF but nothing else", -1, NULL);
  hr_local_roots_add (roots, HR_LOCAL_SOURCE_LLAMACPP, dir);
  scan = hr_model_import_scan (roots, NULL, NULL);
  found = find (scan, "broken.gguf");
  g_assert_nonnull (found);
  g_assert_null (hr_local_model_get_model (found));
  g_assert_nonnull (hr_local_model_get_error (found));
}

static void
scanned (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  HrLocalScan **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = hr_model_import_scan_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_async (HrTestDir     *fixture,
            gconstpointer  user_data)
{
  g_autoptr(HrLocalRoots) roots = hr_fake_models_roots (fixture->dir);
  g_autoptr(HrLocalScan) scan = NULL;

  hr_fake_models_write (fixture->dir);
  hr_model_import_scan_async (roots, NULL, NULL, scanned, &scan);
  while (scan == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (hr_local_scan_get_models (scan)), ==, 7);
}

/* The tools' environment variables choose the folders. */
static void
test_default_roots (HrTestDir     *fixture,
                    gconstpointer  user_data)
{
  g_autoptr(HrLocalRoots) roots = NULL;
  HrLocalSource source;

  g_setenv ("HF_HOME", "/srv/hf", TRUE);
  g_unsetenv ("HF_HUB_CACHE");
  g_setenv ("OLLAMA_MODELS", "/srv/ollama", TRUE);
  g_setenv ("LLAMA_CACHE", "relative/ignored", TRUE);
  roots = hr_local_roots_new_default ();
  g_unsetenv ("HF_HOME");
  g_unsetenv ("OLLAMA_MODELS");
  g_unsetenv ("LLAMA_CACHE");

  g_assert_cmpuint (hr_local_roots_get_n (roots), ==, 5);
  g_assert_cmpstr (hr_local_roots_get_dir (roots, 0, &source), ==, "/srv/hf/hub");
  g_assert_cmpint (source, ==, HR_LOCAL_SOURCE_HUGGINGFACE);
  g_assert_cmpstr (hr_local_roots_get_dir (roots, 1, &source), ==, "/srv/ollama");
  g_assert_cmpint (source, ==, HR_LOCAL_SOURCE_OLLAMA);
  g_assert_true (g_str_has_suffix (hr_local_roots_get_dir (roots, 2, NULL), "/.lmstudio/models"));
  g_assert_true (g_str_has_suffix (hr_local_roots_get_dir (roots, 4, &source), "/llama.cpp"));
  g_assert_cmpint (source, ==, HR_LOCAL_SOURCE_LLAMACPP);
}

/* One hostile JSON file in a fake tree: the scan returns, notes the file
 * with the limit it is past, and goes on (before: deep JSON overflowed the
 * stack, a 64 MiB header took 71 s and 6 GB).  @kind: "manifest",
 * "config", "index" or "header" (the bytes are the header's JSON). */
static HrLocalScan *
scan_with (const char *dir,
           const char *kind,
           const char *data,
           gsize       size,
           guint64     header_length)
{
  g_autofree char *hub = g_build_filename (dir, "hub", NULL);
  g_autofree char *ollama = g_build_filename (dir, "ollama", NULL);
  g_autofree char *snapshot = g_build_filename (hub, "models--org--m", "snapshots", "abc", NULL);
  g_autofree char *manifests = g_build_filename (ollama, "manifests", "registry.ollama.ai",
                                                 "library", "m", NULL);
  g_autofree char *path = NULL;
  g_autoptr(HrLocalRoots) roots = hr_local_roots_new ();
  g_autoptr(GError) error = NULL;
  static const char config[] = "{\"model_type\": \"llama\"}";

  g_assert_cmpint (g_mkdir_with_parents (snapshot, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (manifests, 0700), ==, 0);
  path = g_build_filename (snapshot, "config.json", NULL);
  g_assert_true (g_file_set_contents (path, config, -1, &error));
  g_free (path);

  if (g_str_equal (kind, "manifest"))
    path = g_build_filename (manifests, "latest", NULL);
  else if (g_str_equal (kind, "config"))
    path = g_build_filename (snapshot, "config.json", NULL);
  else if (g_str_equal (kind, "index"))
    path = g_build_filename (snapshot, "model.safetensors.index.json", NULL);
  else
    path = g_build_filename (snapshot, "model.safetensors", NULL);

  if (g_str_equal (kind, "header"))
    {
      FILE *file = fopen (path, "wb");
      guint8 prefix[8];

      for (guint i = 0; i < 8; i++)
        prefix[i] = header_length >> (8 * i);
      g_assert_nonnull (file);
      g_assert_cmpuint (fwrite (prefix, 1, 8, file), ==, 8);
      g_assert_cmpuint (fwrite (data, 1, size, file), ==, size);
      /* the tensor data: sparse */
      g_assert_cmpint (ftruncate (fileno (file), 8 + MAX (size, header_length) + 4096), ==, 0);
      g_assert_cmpint (fclose (file), ==, 0);
    }
  else
    g_assert_true (g_file_set_contents (path, data, size, &error));

  hr_local_roots_add (roots, HR_LOCAL_SOURCE_HUGGINGFACE, hub);
  hr_local_roots_add (roots, HR_LOCAL_SOURCE_OLLAMA, ollama);
  return hr_local_models_scan (roots, NULL, NULL);
}

static char *
repeat (const char *unit,
        gsize       size)
{
  gsize n = strlen (unit);
  char *text = g_malloc (size + 1);

  for (gsize i = 0; i < size; i++)
    text[i] = unit[i % n];
  text[size] = '\0';
  return text;
}

static void
test_hostile_json (HrTestDir     *fixture,
                   gconstpointer  user_data)
{
  static const struct
  {
    const char *what;
    const char *kind;
    const char *prefix;
    const char *unit;     /* repeated to fill the file */
    gsize       size;
    guint64     header_length;  /* 0: the data's size */
    const char *note;
  } cases[] = {
    { "a manifest of 1 MiB of [", "manifest", "", "[", 1024 * 1024, 0,
      "latest: 1048576 bytes is more than 256 KiB (the size limit for an Ollama manifest)" },
    { "a manifest of 200 KiB of [", "manifest", "", "[", 200 * 1024, 0,
      "latest: the JSON is nested more than 16 levels deep (the depth limit for an Ollama manifest)" },
    { "a config of 16 MiB of [", "config", "", "[", 16 * 1024 * 1024, 0,
      "config.json: the JSON is nested more than 32 levels deep (the depth limit for a config.json)" },
    { "a config of 1.2 MB of {\"a\":", "config", "", "{\"a\":", 1200000, 0,
      "config.json: the JSON is nested more than 32 levels deep" },
    { "a header of nested arrays", "header", "{\"a\":", "[", 1024 * 1024, 0,
      "model.safetensors: the JSON is nested more than 16 levels deep "
      "(the depth limit for a safetensors header)" },
    { "a config of 16 MiB of small objects", "config", "{\"a\": [", "{},", 16 * 1024 * 1024 - 16, 0,
      "config.json: the JSON holds more than 200000 values and member names "
      "(the node limit for a config.json)" },
    { "a header that says 64 MiB", "header", "{\"a\": [", "{},", 1024, 64 * 1024 * 1024,
      "model.safetensors: 67108864 bytes is more than 32 MiB "
      "(the size limit for a safetensors header)" },
    { "an index of 16 MiB of small objects", "index",
      "{\"metadata\": {\"total_size\": 1}, \"weight_map\": [", "{},", 16 * 1024 * 1024, 0,
      "model.safetensors.index.json: the JSON holds more than 1000000 values and member names "
      "(the node limit for a safetensors index)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *dir = g_strdup_printf ("%s/%u", fixture->dir, i);
      g_autofree char *body = repeat (cases[i].unit, cases[i].size);
      g_autofree char *data = g_strconcat (cases[i].prefix, body, NULL);
      g_autoptr(HrLocalScan) scan = NULL;
      gint64 start = g_get_monotonic_time ();

      g_test_message ("%s", cases[i].what);
      scan = scan_with (dir, cases[i].kind, data, strlen (data),
                        cases[i].header_length > 0 ? cases[i].header_length : strlen (data));
      if (!notes_mention (scan, cases[i].note))
        g_error ("%s: no note says “%s”", cases[i].what, cases[i].note);
      /* The snapshot itself is still listed (it has a config.json). */
      if (!g_str_equal (cases[i].kind, "manifest"))
        g_assert_nonnull (find (scan, "org/m"));
      g_assert_false (hr_local_scan_is_truncated (scan));
      g_test_message ("%s: %.2f s", cases[i].what,
                      (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add (path, HrTestDir, "test-local-models", hr_test_dir_set_up, func, hr_test_dir_tear_down)
  ADD ("/local-models/every-source", test_every_source);
  ADD ("/local-models/bounded", test_bounded);
  ADD ("/local-models/links", test_links);
  ADD ("/local-models/unreadable", test_unreadable);
  ADD ("/local-models/unreadable-model", test_unreadable_model);
  ADD ("/local-models/async", test_async);
  ADD ("/local-models/default-roots", test_default_roots);
  ADD ("/local-models/hostile-json", test_hostile_json);
#undef ADD

  return g_test_run ();
}
