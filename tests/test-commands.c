/* test-commands.c — the launch commands a user pastes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every engine × catalog model × precision on a few device set-ups: a
 * command is written exactly when the engine runs the combination (else
 * the estimate says why), every statement parses back with a POSIX
 * shell-words parser to the argv the builder meant, and every option is
 * one the engine has with a value of its format (the tables in
 * tests/data/engine-options, read from the engines' sources at the
 * versions named there).  Names with spaces, "&", quotes and "$(…)" survive a real
 * /bin/sh run against stub programs that record their arguments.
 */

#include "config.h"

#include <glib/gstdio.h>

#include "gguf-writer.h"
#include "hr-commands.h"
#include "hr-model-import.h"
#include "hr-test-util.h"

static HrCatalog *catalog;
static JsonObject *tables[HR_N_COMMAND_KINDS];   /* by HrCommandKind */
static JsonObject *ray_table;   /* `ray start`, in vLLM's cluster commands */
static JsonObject *quantize_table;   /* llama-quantize, before llama.cpp and Ollama */

static JsonObject *
load_table (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "engine-options", name,
                                                 NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* ------------------------------------------------ reading back a text */

typedef struct
{
  GPtrArray *statements;   /* GStrv: each statement as the shell splits it */
  GPtrArray *files;        /* GStrv: each here-document's lines */
} Parsed;

static void
parsed_clear (Parsed *p)
{
  g_ptr_array_unref (p->statements);
  g_ptr_array_unref (p->files);
}

/* Whether @text then @more end inside single quotes (the only quoting
 * the commands use, with \' outside them). */
static gboolean
in_quotes (const char *text,
           const char *more)
{
  gboolean quoted = FALSE;

  for (guint k = 0; k < 2; k++)
    for (const char *c = k == 0 ? text : more; *c != '\0'; c++)
      {
        if (!quoted && *c == '\\' && c[1] != '\0')
          c++;
        else if (*c == '\'')
          quoted = !quoted;
      }
  return quoted;
}

/* Joins continued lines, drops comments, reads here-documents, and
 * splits each statement with g_shell_parse_argv. */
static void
parse_shell (const char *text,
             Parsed     *p)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(GString) statement = g_string_new (NULL);

  p->statements = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  p->files = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      gsize len = strlen (line);

      if (statement->len == 0 && (line[0] == '#' || len == 0))
        continue;
      if (statement->len == 0 && g_str_has_prefix (line, "cat > ") &&
          g_str_has_suffix (line, " <<'EOF'"))
        {
          g_autoptr(GPtrArray) body = g_ptr_array_new ();

          for (i++; lines[i] != NULL && strcmp (lines[i], "EOF") != 0; i++)
            g_ptr_array_add (body, g_strdup (lines[i]));
          g_assert_nonnull (lines[i]);
          g_ptr_array_add (body, NULL);
          g_ptr_array_add (p->files, g_ptr_array_free (g_steal_pointer (&body), FALSE));
          continue;
        }
      if (len > 0 && line[len - 1] == '\\' && !in_quotes (statement->str, line))
        {
          g_string_append_len (statement, line, len - 1);
          continue;
        }
      g_string_append (statement, line);
      /* a line break inside single quotes is part of the word */
      if (in_quotes (statement->str, ""))
        {
          g_string_append_c (statement, '\n');
          continue;
        }
      {
        char **argv = NULL;
        g_autoptr(GError) error = NULL;

        if (!g_shell_parse_argv (statement->str, NULL, &argv, &error))
          g_error ("does not parse: %s\n%s", error->message, statement->str);
        g_ptr_array_add (p->statements, argv);
      }
      g_string_truncate (statement, 0);
    }
  g_assert_cmpuint (statement->len, ==, 0);
}

/* ---------------------------------------------------- option checks */

static JsonObject *
find_option (JsonObject *table,
             const char *name)
{
  JsonArray *options = json_object_get_array_member (table, "options");

  for (guint i = 0; i < json_array_get_length (options); i++)
    {
      JsonObject *o = json_array_get_object_element (options, i);
      JsonArray *names = json_object_get_array_member (o, "names");

      for (guint k = 0; k < json_array_get_length (names); k++)
        if (g_strcmp0 (json_array_get_string_element (names, k), name) == 0)
          return o;
    }
  return NULL;
}

static void
assert_matches (const char *pattern,
                const char *value,
                const char *what)
{
  /* "." takes a line break too: a path may hold one */
  if (!g_regex_match_simple (pattern, value, G_REGEX_DOTALL, 0))
    g_error ("%s: “%s” does not match %s", what, value, pattern);
}

static gboolean
in_string_array (JsonObject *table,
                 const char *member,
                 const char *value)
{
  JsonArray *array = json_object_get_array_member (table, member);

  for (guint i = 0; i < json_array_get_length (array); i++)
    if (g_strcmp0 (json_array_get_string_element (array, i), value) == 0)
      return TRUE;
  return FALSE;
}

/* Options after the program (and for vllm the sub-command and model):
 * each a real option, its value of the right format. */
static void
check_options (JsonObject *table,
               char      **argv,
               guint       first)
{
  for (guint i = first; argv[i] != NULL; i++)
    {
      JsonObject *o = find_option (table, argv[i]);

      if (o == NULL)
        g_error ("%s has no option %s (%s)", json_object_get_string_member (table, "engine"),
                 argv[i], json_object_get_string_member (table, "version"));
      if (json_object_has_member (o, "flag"))
        continue;
      if (!json_object_has_member (o, "format"))
        g_error ("%s writes %s, whose value format the table lacks", "headroom", argv[i]);
      g_assert_nonnull (argv[i + 1]);
      assert_matches (json_object_get_string_member (o, "format"), argv[i + 1], argv[i]);
      i++;
    }
}

/* The environment assignments before a program. */
static guint
skip_env (JsonObject *table,
          char      **argv)
{
  guint i = 0;

  for (; argv[i] != NULL && strchr (argv[i], '=') != NULL && g_ascii_isupper (argv[i][0]); i++)
    {
      g_autofree char *name = g_strndup (argv[i], strchr (argv[i], '=') - argv[i]);

      g_assert_true (in_string_array (table, "environment", name));
      if (json_object_has_member (table, "env_formats"))
        {
          JsonObject *formats = json_object_get_object_member (table, "env_formats");

          if (json_object_has_member (formats, name))
            assert_matches (json_object_get_string_member (formats, name),
                            strchr (argv[i], '=') + 1, name);
        }
    }
  return i;
}

static void
check_statement (HrCommandKind kind,
                 char        **argv)
{
  JsonObject *table = tables[kind];
  guint i = skip_env (table, argv);

  /* a GGUF file of another type, quantized first: its flags, then the
   * input, the output and a type llama-quantize knows */
  if (g_str_equal (argv[0], "llama-quantize"))
    {
      guint n = 0;

      g_assert_true (kind == HR_COMMAND_LLAMACPP || kind == HR_COMMAND_OLLAMA);
      for (i = 1; argv[i] != NULL && g_str_has_prefix (argv[i], "--"); i++)
        g_assert_true (in_string_array (quantize_table, "flags", argv[i]));
      for (; argv[i + n] != NULL; n++)
        ;
      g_assert_cmpint (n, ==, json_object_get_int_member (quantize_table, "positionals"));
      g_assert_true (g_str_has_suffix (argv[i + 1], ".gguf"));
      g_assert_true (in_string_array (quantize_table, "types", argv[i + 2]));
      return;
    }

  switch (kind)
    {
    case HR_COMMAND_LLAMACPP:
      g_assert_cmpstr (argv[i], ==, "llama-server");
      check_options (table, argv, i + 1);
      break;
    case HR_COMMAND_VLLM:
      if (g_str_equal (argv[i], "ray"))
        {
          g_assert_cmpuint (i, ==, 0);
          g_assert_cmpstr (argv[1], ==, "start");
          check_options (ray_table, argv, 2);
          break;
        }
      g_assert_cmpstr (argv[i], ==, "vllm");
      g_assert_cmpstr (argv[i + 1], ==, "serve");
      g_assert_nonnull (argv[i + 2]);
      g_assert_false (g_str_has_prefix (argv[i + 2], "-"));
      check_options (table, argv, i + 3);
      break;
    case HR_COMMAND_OLLAMA:
      g_assert_cmpstr (argv[i], ==, "ollama");
      g_assert_true (in_string_array (table, "commands", argv[i + 1]));
      if (g_str_equal (argv[i + 1], "create") || g_str_equal (argv[i + 1], "run"))
        assert_matches (json_object_get_string_member (table, "model_name"), argv[i + 2],
                        "model name");
      break;
    case HR_COMMAND_SGLANG:
      g_assert_cmpstr (argv[i], ==, "python3");
      g_assert_cmpstr (argv[i + 1], ==, "-m");
      g_assert_cmpstr (argv[i + 2], ==, "sglang.launch_server");
      check_options (table, argv, i + 3);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
check_modelfile (char **lines)
{
  JsonObject *table = tables[HR_COMMAND_OLLAMA];

  g_assert_true (g_str_has_prefix (lines[0], "FROM "));
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto(GStrv) words = g_strsplit (lines[i], " ", 3);

      g_assert_true (in_string_array (table, "modelfile_instructions", words[0]));
      /* ADAPTER takes a path (the rest of the line) */
      if (g_strcmp0 (words[0], "ADAPTER") == 0)
        {
          g_assert_nonnull (words[1]);
          continue;
        }
      g_assert_cmpstr (words[0], ==, "PARAMETER");
      g_assert_true (in_string_array (table, "modelfile_parameters", words[1]));
      assert_matches ("^[0-9]+$", words[2], words[1]);
    }
}

/* The text parses back to exactly the lines the builder made. */
static void
check_command (const HrCommand *command)
{
  g_autofree char *text = hr_command_to_shell (command);
  Parsed p;
  guint run = 0, file = 0;

  parse_shell (text, &p);
  for (guint i = 0; i < command->lines->len; i++)
    {
      const HrCommandLine *line = g_ptr_array_index (command->lines, i);

      if (line->kind == HR_COMMAND_LINE_RUN)
        {
          char **argv = g_ptr_array_index (p.statements, run++);

          g_assert_true (g_strv_equal ((const char * const *) argv,
                                       (const char * const *) line->argv));
          check_statement (command->kind, argv);
        }
      else if (line->kind == HR_COMMAND_LINE_FILE)
        {
          char **lines = g_ptr_array_index (p.files, file++);

          g_assert_true (g_strv_equal ((const char * const *) lines,
                                       (const char * const *) line->argv));
          check_modelfile (lines);
        }
    }
  g_assert_cmpuint (run, ==, p.statements->len);
  g_assert_cmpuint (file, ==, p.files->len);
  parsed_clear (&p);

  /* every placeholder is a word of the lines, said what to replace it
   * with at the top of the text */
  g_assert_cmpint (command->placeholder, ==, command->placeholders->len > 0);
  for (guint k = 0; k < command->placeholders->len; k++)
    {
      const HrCommandPlaceholder *ph = g_ptr_array_index (command->placeholders, k);
      gboolean used = FALSE;

      g_assert_true (g_str_has_prefix (text, "# "));
      g_assert_nonnull (strstr (text, ph->word));
      g_assert_cmpstr (ph->meaning, !=, "");
      for (guint i = 0; i < command->lines->len && !used; i++)
        {
          const HrCommandLine *line = g_ptr_array_index (command->lines, i);

          for (guint w = 0; line->argv != NULL && line->argv[w] != NULL && !used; w++)
            used = strstr (line->argv[w], ph->word) != NULL;
        }
      g_assert_true (used);
    }
}

/* ------------------------------------------------------------ corpus */

static HrEngine
engine_of (HrCommandKind kind)
{
  return kind == HR_COMMAND_VLLM ? HR_ENGINE_VLLM
         : kind == HR_COMMAND_SGLANG ? HR_ENGINE_SGLANG
         : kind == HR_COMMAND_OLLAMA ? HR_ENGINE_OLLAMA : HR_ENGINE_LLAMACPP;
}

static void
test_corpus (void)
{
  static const struct { const char *hardware; guint gpus; } setups[] = {
    { "rtx-3060-12gb", 1 }, { "rtx-4090-24gb", 2 }, { "h100-sxm-80gb", 4 },
    { "apple-m4-max-128gb", 1 },
  };
  GListModel *models = hr_catalog_get_models (catalog);
  GListModel *precisions = hr_catalog_get_precisions (catalog);
  guint written = 0, refused = 0;

  for (guint m = 0; m < g_list_model_get_n_items (models); m++)
    for (guint p = 0; p < g_list_model_get_n_items (precisions); p++)
      for (guint d = 0; d < G_N_ELEMENTS (setups); d++)
        for (HrCommandKind kind = 0; kind < HR_N_COMMAND_KINDS; kind++)
          {
            g_autoptr(HrModelSpec) model = g_list_model_get_item (models, m);
            g_autoptr(HrPrecision) precision = g_list_model_get_item (precisions, p);
            g_autoptr(HrCommand) command = NULL;
            g_autoptr(GError) error = NULL;
            HrScenario s = {
              .model = model, .precision = precision,
              .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
              .hardware = hr_catalog_find_hardware (catalog, setups[d].hardware),
              .context = 8192, .batch = 1, .gpus = setups[d].gpus,
            };
            HrEstimate e;
            gboolean runs;

            command = hr_command_build (kind, &s, &error);
            s.engine = engine_of (kind);
            runs = hr_scenario_estimate (&s, &e, NULL) && e.verdict != HR_VERDICT_NO_FIT;
            if (command == NULL)
              {
                /* refused exactly when the engine's rules or the memory
                 * say it does not run */
                g_assert_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN);
                g_assert_false (runs);
                refused++;
                continue;
              }
            g_assert_true (runs);
            check_command (command);
            written++;
          }
  g_test_message ("%u commands written and checked, %u refused with a reason", written, refused);
  g_assert_cmpuint (written, >, 1000);
}

/* ------------------------------------------------- hostile names */

/* Runs @text with /bin/sh in @dir, where stub llama-server, vllm,
 * ollama, python3 and ray record their arguments and OLLAMA_* / VLLM_* /
 * SGLANG_* variables; returns what each invocation recorded. */
static GPtrArray *
run_with_stubs (const char *dir,
                const char *text)
{
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *script = g_build_filename (dir, "script.sh", NULL);
  g_autofree char *log = g_build_filename (dir, "calls", NULL);
  g_autofree char *path_env = NULL;
  static const char *programs[] = { "llama-server", "vllm", "ollama", "python3", "ray" };
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *stub = g_strdup_printf (
    "#!/bin/sh\n"
    "for v in $(env | grep -E '^(OLLAMA|VLLM|SGLANG)_' | cut -d= -f1 | sort); do\n"
    "  printf '%%s=%%s\\036' \"$v\" \"$(printenv \"$v\")\" >> '%s'\n"
    "done\n"
    "printf '%%s\\036' \"$(basename \"$0\")\" \"$@\" >> '%s'\n"
    "printf '\\n' >> '%s'\n", log, log, log);
  const char *argv[] = { "/bin/sh", script, NULL };
  int status = 0;
  GPtrArray *calls = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_auto(GStrv) records = NULL;

  g_assert_cmpint (g_mkdir_with_parents (bin, 0700), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (programs); i++)
    {
      g_autofree char *file = g_build_filename (bin, programs[i], NULL);

      g_assert_true (g_file_set_contents (file, stub, -1, &error));
      g_assert_cmpint (g_chmod (file, 0700), ==, 0);
    }
  g_assert_true (g_file_set_contents (script, text, -1, &error));
  g_unlink (log);

  path_env = g_strconcat ("PATH=", bin, ":/usr/bin:/bin", NULL);
  {
    const char *envp[] = { path_env, NULL };

    g_assert_true (g_spawn_sync (dir, (char **) argv, (char **) envp, G_SPAWN_DEFAULT, NULL,
                                 NULL, NULL, NULL, &status, &error));
  }
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_file_get_contents (log, &contents, NULL, &error));
  records = g_strsplit (contents, "\n", -1);
  for (guint i = 0; records[i] != NULL && records[i][0] != '\0'; i++)
    {
      g_auto(GStrv) words = g_strsplit (records[i], "\036", -1);
      guint n = g_strv_length (words);

      /* the last separator leaves an empty word */
      g_free (words[n - 1]);
      words[n - 1] = NULL;
      g_ptr_array_add (calls, g_steal_pointer (&words));
    }
  return calls;
}

/* A GGUF whose name and path carry every character a shell would act on:
 * the commands name that very file and the shell sees the intended
 * words; nothing is executed that the text did not mean to run. */
static void
test_hostile_names (void)
{
  g_autofree char *dir = hr_test_make_temp_dir ("test-commands");
  g_autofree char *sub = g_build_filename (dir, "R&D <models> it's $(touch pwned)", NULL);
  g_autofree char *path = g_build_filename (sub, "Evil $(touch pwned) `id` & 'q' \"d\".gguf",
                                            NULL);
  g_autofree char *pwned = g_build_filename (dir, "pwned", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModelSpec) model = NULL;

  g_assert_cmpint (g_mkdir_with_parents (sub, 0700), ==, 0);
  g_assert_true (hr_gguf_writer_write_tiny_llama (path, "R&D <test> $(touch pwned) 'x'", &error));
  model = hr_model_import_file (path, &error);
  g_assert_no_error (error);

  for (HrCommandKind kind = HR_COMMAND_LLAMACPP; kind <= HR_COMMAND_OLLAMA; kind++)
    {
      HrScenario s = {
        .model = model,
        .precision = hr_catalog_find_precision (catalog, "q8_0"),
        .kv_type = hr_catalog_find_kv_type (catalog, "q8_0"),
        .hardware = hr_catalog_find_hardware (catalog, "rtx-3060-12gb"),
        .context = 2048, .batch = 2, .gpus = 1,
      };
      g_autoptr(HrCommand) command = hr_command_build (kind, &s, &error);
      g_autofree char *text = NULL;
      g_autoptr(GPtrArray) calls = NULL;
      g_autofree char *real = g_canonicalize_filename (path, NULL);
      guint run = 0;

      g_assert_no_error (error);
      check_command (command);
      g_assert_false (command->placeholder);
      text = hr_command_to_shell (command);
      calls = run_with_stubs (dir, text);
      for (guint i = 0; i < command->lines->len; i++)
        {
          const HrCommandLine *line = g_ptr_array_index (command->lines, i);
          char **seen;
          guint k = 0;

          if (line->kind != HR_COMMAND_LINE_RUN)
            continue;
          seen = g_ptr_array_index (calls, run++);
          /* the environment the program saw, then its argv */
          for (guint w = 0; w < line->n_env; w++, k++)
            g_assert_cmpstr (seen[k], ==, line->argv[w]);
          for (guint w = line->n_env; line->argv[w] != NULL; w++, k++)
            g_assert_cmpstr (seen[k], ==, line->argv[w]);
          g_assert_null (seen[k]);
        }
      g_assert_cmpuint (run, ==, calls->len);
      if (kind == HR_COMMAND_LLAMACPP)
        g_assert_true (g_strv_contains ((const char * const *)
                                        g_ptr_array_index (calls, 0), real));
      else
        {
          /* the Modelfile the shell wrote names the file */
          g_autofree char *modelfile = g_build_filename (dir, "Modelfile", NULL);
          g_autofree char *contents = NULL;
          g_autofree char *from = g_strconcat ("FROM ", real, "\n", NULL);

          g_assert_true (g_file_get_contents (modelfile, &contents, NULL, &error));
          g_assert_true (g_str_has_prefix (contents, from));
        }
      g_assert_false (g_file_test (pwned, G_FILE_TEST_EXISTS));
    }
  /* vLLM cannot serve a GGUF file: no command, a reason */
  {
    HrScenario s = {
      .model = model, .precision = hr_catalog_find_precision (catalog, "bf16"),
      .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
      .hardware = hr_catalog_find_hardware (catalog, "rtx-3060-12gb"),
      .context = 2048, .batch = 1, .gpus = 1,
    };
    g_autoptr(HrCommand) command = hr_command_build (HR_COMMAND_VLLM, &s, &error);

    g_assert_null (command);
    g_assert_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN);
    g_clear_error (&error);
  }
  hr_test_remove_temp_dir (dir);
}

/* ---------------------------------------------------- engine rules */

static char *
command_text (HrCommandKind  kind,
              const char    *model,
              const char    *precision,
              const char    *kv,
              const char    *hardware,
              guint          gpus,
              guint64        context,
              GError       **error)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, model),
    .precision = hr_catalog_find_precision (catalog, precision),
    .kv_type = hr_catalog_find_kv_type (catalog, kv),
    .hardware = hr_catalog_find_hardware (catalog, hardware),
    .context = context, .batch = 1, .gpus = gpus,
  };
  g_autoptr(HrCommand) command = hr_command_build (kind, &s, error);

  return command ? hr_command_to_shell (command) : NULL;
}

static void
test_rules (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  /* llama.cpp refuses a quantized V cache without flash attention: the
   * estimate (and so the command) never pairs them */
  {
    HrScenario s = {
      .model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct"),
      .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
      .kv_type = hr_catalog_find_kv_type (catalog, "q8_0"),
      .hardware = hr_catalog_find_hardware (catalog, "rtx-4090-24gb"),
      .context = 8192, .batch = 1, .gpus = 1,
    };
    g_autoptr(HrCommand) command = NULL;

    s.options.flash_attn = HR_FLASH_ATTN_OFF;
    command = hr_command_build (HR_COMMAND_LLAMACPP, &s, &error);
    g_assert_null (command);
    g_assert_nonnull (strstr (error->message, "flash attention"));
    g_clear_error (&error);
  }

  /* vLLM: TP sizes the heads divide (64 heads, 8 KV heads) */
  text = command_text (HR_COMMAND_VLLM, "Qwen/Qwen3-32B", "bf16", "fp16", "h100-sxm-80gb", 3,
                       8192, &error);
  g_assert_null (text);
  g_assert_nonnull (strstr (error->message, "divide"));
  g_clear_error (&error);
  text = command_text (HR_COMMAND_VLLM, "Qwen/Qwen3-32B", "bf16", "fp16", "h100-sxm-80gb", 4,
                       8192, &error);
  g_assert_nonnull (strstr (text, "--tensor-parallel-size 4"));
  /* never float16 (refused for Gemma 2/3, GLM-4): the checkpoint's type */
  g_assert_null (strstr (text, "float16"));
  g_clear_pointer (&text, g_free);

  /* quantized checkpoints: the known repository, never the base one */
  text = command_text (HR_COMMAND_VLLM, "Qwen/Qwen3-32B", "awq-int4", "fp16", "h100-sxm-80gb", 1,
                       8192, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "vllm serve Qwen/Qwen3-32B-AWQ"));
  g_clear_pointer (&text, g_free);

  /* a context past the trained one: vLLM's explicit override */
  text = command_text (HR_COMMAND_VLLM, "google/gemma-2-9b-it", "bf16", "fp16", "h100-sxm-80gb",
                       1, 32768, &error);
  g_assert_nonnull (strstr (text, "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve"));
  g_clear_pointer (&text, g_free);

  /* vLLM has no Q8_0 cache */
  text = command_text (HR_COMMAND_VLLM, "Qwen/Qwen3-32B", "bf16", "q8_0", "h100-sxm-80gb", 1,
                       8192, &error);
  g_assert_null (text);
  g_clear_error (&error);

  /* Ollama: the library tag of this very quantization */
  text = command_text (HR_COMMAND_OLLAMA, "Qwen/Qwen3-32B", "q8_0", "fp16", "h100-sxm-80gb", 1,
                       8192, &error);
  g_assert_nonnull (strstr (text, "FROM qwen3:32b-q8_0\n"));
  g_assert_null (strstr (text, "OLLAMA_FLASH_ATTENTION"));
  g_clear_pointer (&text, g_free);

  /* llama.cpp: the layers Headroom placed when it does not fit whole */
  text = command_text (HR_COMMAND_LLAMACPP, "Qwen/Qwen3-32B", "q4_k_m", "fp16", "rtx-3060-12gb",
                       1, 8192, &error);
  g_assert_nonnull (text);
  g_assert_null (strstr (text, "--n-gpu-layers 65"));
  g_assert_nonnull (strstr (text, "layers on the GPU"));
}

/* ------------------------------------------------ layouts, machines */

static const char *
option_value (char      **argv,
              const char *option)
{
  for (guint i = 0; argv[i] != NULL; i++)
    if (g_str_equal (argv[i], option))
      return argv[i + 1];
  return NULL;
}

static guint
option_uint (char      **argv,
             const char *option,
             guint       absent)
{
  const char *value = option_value (argv, option);

  return value != NULL ? (guint) g_ascii_strtoull (value, NULL, 10) : absent;
}

/* The statements of each machine section, in order. */
static GPtrArray *
machine_sections (const HrCommand *command)
{
  GPtrArray *sections = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  GPtrArray *current = NULL;

  for (guint i = 0; i < command->lines->len; i++)
    {
      const HrCommandLine *line = g_ptr_array_index (command->lines, i);

      if (line->kind == HR_COMMAND_LINE_MACHINE)
        {
          current = g_ptr_array_new ();
          g_ptr_array_add (current, (gpointer) line);
          g_ptr_array_add (sections, current);
        }
      else if (line->kind == HR_COMMAND_LINE_RUN)
        {
          g_assert_nonnull (current);  /* nothing runs before the first machine */
          g_ptr_array_add (current, (gpointer) line);
        }
    }
  return sections;
}

/* SGLang: one launch per machine, node ranks 0 … N−1 each once, the same
 * --nnodes and --dist-init-addr everywhere, the layout the estimate has. */
static void
check_sglang_machines (const HrCommand *command,
                       const HrLayout  *layout)
{
  g_autoptr(GPtrArray) sections = machine_sections (command);
  g_autofree gboolean *seen = g_new0 (gboolean, layout->nodes);
  const char *addr = NULL;

  g_assert_cmpuint (command->n_nodes, ==, layout->nodes);
  g_assert_cmpuint (sections->len, ==, layout->nodes);
  for (guint k = 0; k < sections->len; k++)
    {
      GPtrArray *section = g_ptr_array_index (sections, k);
      const HrCommandLine *machine = g_ptr_array_index (section, 0);
      const HrCommandLine *run;
      char **argv;
      guint rank;

      g_assert_cmpuint (section->len, ==, 2);
      run = g_ptr_array_index (section, 1);
      argv = run->argv + run->n_env;
      rank = option_uint (argv, "--node-rank", G_MAXUINT);
      g_assert_cmpuint (rank, <, layout->nodes);
      g_assert_false (seen[rank]);
      seen[rank] = TRUE;
      g_assert_cmpuint (machine->node, ==, rank);
      g_assert_cmpuint (machine->role, ==, rank == 0 ? HR_MACHINE_HEAD : HR_MACHINE_WORKER);
      g_assert_cmpuint (option_uint (argv, "--nnodes", 0), ==, layout->nodes);
      g_assert_cmpuint (option_uint (argv, "--tp-size", 0), ==, layout->tp);
      g_assert_cmpuint (option_uint (argv, "--pp-size", 1), ==, layout->pp);
      g_assert_cmpuint (option_uint (argv, "--dp-size", 1), ==, layout->dp);
      if (addr == NULL)
        addr = option_value (argv, "--dist-init-addr");
      g_assert_cmpstr (option_value (argv, "--dist-init-addr"), ==, addr);
    }
  g_assert_nonnull (addr);
  g_assert_true (g_str_has_prefix (addr, "<head-address>:"));
}

/* vLLM: the Ray head once on machine 1, one `ray start --address` on
 * every other machine to the head's port, then one `vllm serve` on
 * machine 1 with the Ray executor and the layout. */
static void
check_vllm_machines (const HrCommand *command,
                     const HrLayout  *layout)
{
  g_autoptr(GPtrArray) sections = machine_sections (command);
  g_autofree char *head = NULL;
  const HrCommandLine *machine, *run;
  GPtrArray *first, *last;
  char **argv;

  g_assert_cmpuint (command->n_nodes, ==, layout->nodes);
  g_assert_cmpuint (sections->len, ==, layout->nodes + 1);

  first = g_ptr_array_index (sections, 0);
  last = g_ptr_array_index (sections, layout->nodes);
  machine = g_ptr_array_index (first, 0);
  run = g_ptr_array_index (first, 1);
  g_assert_cmpuint (first->len, ==, 2);
  g_assert_cmpuint (machine->role, ==, HR_MACHINE_HEAD);
  g_assert_cmpuint (machine->node, ==, 0);
  g_assert_cmpstr (run->argv[0], ==, "ray");
  g_assert_true (g_strv_contains ((const char * const *) run->argv, "--head"));
  head = g_strdup_printf ("<head-address>:%s", option_value (run->argv, "--port"));

  for (guint node = 1; node < layout->nodes; node++)
    {
      GPtrArray *section = g_ptr_array_index (sections, node);

      machine = g_ptr_array_index (section, 0);
      g_assert_cmpuint (section->len, ==, 2);
      run = g_ptr_array_index (section, 1);
      g_assert_cmpuint (machine->role, ==, HR_MACHINE_WORKER);
      g_assert_cmpuint (machine->node, ==, node);
      g_assert_cmpstr (run->argv[0], ==, "ray");
      g_assert_false (g_strv_contains ((const char * const *) run->argv, "--head"));
      g_assert_cmpstr (option_value (run->argv, "--address"), ==, head);
    }

  machine = g_ptr_array_index (last, 0);
  g_assert_cmpuint (last->len, ==, 2);
  run = g_ptr_array_index (last, 1);
  g_assert_cmpuint (machine->role, ==, HR_MACHINE_HEAD_LAST);
  argv = run->argv + run->n_env;
  g_assert_cmpstr (argv[0], ==, "vllm");
  g_assert_cmpstr (option_value (argv, "--distributed-executor-backend"), ==, "ray");
  g_assert_cmpuint (option_uint (argv, "--tensor-parallel-size", 0), ==, layout->tp);
  g_assert_cmpuint (option_uint (argv, "--pipeline-parallel-size", 1), ==, layout->pp);
  g_assert_cmpuint (option_uint (argv, "--data-parallel-size", 1), ==, layout->dp);
  if (layout->dp > 1)
    g_assert_cmpstr (option_value (argv, "--data-parallel-backend"), ==, "ray");
}

/* Every layout of a few large models over 2 … 4 machines: each command
 * parses, has only real options, and puts each machine's part once. */
static void
test_machines (void)
{
  static const char *models[] = {
    "deepseek-ai/DeepSeek-V3", "meta-llama/Llama-3.1-70B-Instruct", "Qwen/Qwen3-32B",
  };
  static const char *devices[] = { "h100-sxm-80gb", "a100-sxm-80gb" };
  static const HrLayout layouts[] = {
    { 8, 2, 1, 2 }, { 16, 1, 1, 2 }, { 8, 1, 2, 2 }, { 4, 2, 1, 2 }, { 8, 4, 1, 4 },
    { 4, 1, 4, 4 }, { 2, 2, 2, 2 }, { 8, 3, 1, 3 }, { 4, 3, 2, 3 }, { 8, 1, 1, 2 },
  };
  guint written = 0, refused = 0;

  for (guint m = 0; m < G_N_ELEMENTS (models); m++)
    for (guint d = 0; d < G_N_ELEMENTS (devices); d++)
      for (guint l = 0; l < G_N_ELEMENTS (layouts); l++)
        for (HrCommandKind kind = HR_COMMAND_VLLM; kind < HR_N_COMMAND_KINDS;
             kind += HR_COMMAND_SGLANG - HR_COMMAND_VLLM)
          {
            const HrLayout *layout = &layouts[l];
            HrScenario s = {
              .model = hr_catalog_find_model (catalog, models[m]),
              .precision = hr_catalog_find_precision (catalog, "bf16"),
              .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
              .hardware = hr_catalog_find_hardware (catalog, devices[d]),
              .context = 8192, .batch = 1, .layout = *layout,
              .gpus = layout->tp * layout->pp * layout->dp,
            };
            g_autoptr(HrCommand) command = NULL;
            g_autoptr(GError) error = NULL;
            HrEstimate e;

            g_assert_nonnull (s.model);
            command = hr_command_build (kind, &s, &error);
            if (command == NULL)
              {
                gboolean runs;

                g_assert_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN);
                s.engine = engine_of (kind);
                runs = hr_scenario_estimate (&s, &e, NULL) && e.verdict != HR_VERDICT_NO_FIT;
                /* SGLang writes no replicas across machines; else only
                 * what the estimate refuses is refused */
                g_assert_true (!runs || (kind == HR_COMMAND_SGLANG && layout->dp > 1));
                refused++;
                continue;
              }
            check_command (command);
            g_assert_true (command->placeholder);
            if (kind == HR_COMMAND_SGLANG)
              check_sglang_machines (command, layout);
            else
              check_vllm_machines (command, layout);
            written++;
          }
  g_test_message ("%u multi-machine commands checked, %u refused", written, refused);
  g_assert_cmpuint (written, >, 40);
}

/* A two-machine command pasted into /bin/sh on each machine: every
 * program sees the words meant, the placeholder one word. */
static void
test_machines_shell (void)
{
  g_autofree char *dir = hr_test_make_temp_dir ("test-commands");

  for (HrCommandKind kind = HR_COMMAND_VLLM; kind < HR_N_COMMAND_KINDS;
       kind += HR_COMMAND_SGLANG - HR_COMMAND_VLLM)
    {
      HrScenario s = {
        .model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-70B-Instruct"),
        .precision = hr_catalog_find_precision (catalog, "bf16"),
        .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
        .hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb"),
        .context = 131072, .batch = 1, .gpus = 8, .layout = { 4, 2, 1, 2 },
      };
      g_autoptr(GError) error = NULL;
      g_autoptr(HrCommand) command = hr_command_build (kind, &s, &error);
      g_autofree char *text = NULL;
      g_autoptr(GPtrArray) calls = NULL;
      guint run = 0;

      g_assert_no_error (error);
      text = hr_command_to_shell (command);
      calls = run_with_stubs (dir, text);
      for (guint i = 0; i < command->lines->len; i++)
        {
          const HrCommandLine *line = g_ptr_array_index (command->lines, i);
          char **seen;

          if (line->kind != HR_COMMAND_LINE_RUN)
            continue;
          seen = g_ptr_array_index (calls, run++);
          g_assert_true (g_strv_equal ((const char * const *) seen,
                                       (const char * const *) line->argv));
        }
      g_assert_cmpuint (run, ==, calls->len);
      g_assert_cmpuint (run, ==, kind == HR_COMMAND_VLLM ? 3 : 2);
    }
  hr_test_remove_temp_dir (dir);
}

/* One machine: pipeline stages and replicas as options; SGLang's
 * options for a long context, an FP8 cache and online FP8. */
static void
test_layouts (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "Qwen/Qwen3-32B"),
    .precision = hr_catalog_find_precision (catalog, "bf16"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb"),
    .context = 8192, .batch = 1, .gpus = 8, .layout = { 2, 2, 2, 1 },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(HrCommand) vllm = hr_command_build (HR_COMMAND_VLLM, &s, &error);
  g_autoptr(HrCommand) sglang = hr_command_build (HR_COMMAND_SGLANG, &s, &error);
  g_autoptr(HrCommand) fp8 = NULL;
  g_autofree char *v = NULL;
  g_autofree char *g = NULL;
  g_autofree char *f = NULL;

  g_assert_no_error (error);
  check_command (vllm);
  check_command (sglang);
  g_assert_cmpuint (vllm->n_nodes, ==, 1);
  v = hr_command_to_shell (vllm);
  g = hr_command_to_shell (sglang);
  g_assert_nonnull (strstr (v, "--tensor-parallel-size 2 \\\n  --pipeline-parallel-size 2 \\\n"
                               "  --data-parallel-size 2 \\\n"));
  g_assert_null (strstr (v, "ray"));
  g_assert_nonnull (strstr (g, "--tp-size 2 \\\n  --pp-size 2 \\\n  --dp-size 2 \\\n"));
  g_assert_null (strstr (g, "--nnodes"));
  g_assert_false (vllm->placeholder);

  /* the context past the trained one, an FP8 cache, FP8 made on loading */
  s.layout = (HrLayout) { 0 };
  s.gpus = 1;
  s.model = hr_catalog_find_model (catalog, "google/gemma-2-27b-it");   /* no FP8 repository */
  s.precision = hr_catalog_find_precision (catalog, "fp8");
  s.kv_type = hr_catalog_find_kv_type (catalog, "fp8");
  s.context = 32768;
  fp8 = hr_command_build (HR_COMMAND_SGLANG, &s, &error);
  g_assert_no_error (error);
  check_command (fp8);
  f = hr_command_to_shell (fp8);
  g_assert_nonnull (strstr (f, "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 python3 -m "
                               "sglang.launch_server"));
  g_assert_nonnull (strstr (f, "--kv-cache-dtype fp8_e4m3"));
  g_assert_nonnull (strstr (f, "--quantization fp8"));

  /* SGLang has no GGUF cache types: refused with the engine's reason */
  s.kv_type = hr_catalog_find_kv_type (catalog, "q8_0");
  g_assert_null (hr_command_build (HR_COMMAND_SGLANG, &s, &error));
  g_assert_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN);
  g_assert_nonnull (strstr (error->message, "SGLang"));
  g_clear_error (&error);

  /* SGLang's replicas across machines: refused, saying why */
  s.kv_type = hr_catalog_find_kv_type (catalog, "fp16");
  s.model = hr_catalog_find_model (catalog, "Qwen/Qwen3-32B");
  s.precision = hr_catalog_find_precision (catalog, "bf16");
  s.context = 8192;
  s.layout = (HrLayout) { 2, 1, 2, 2 };
  s.gpus = 4;
  g_assert_null (hr_command_build (HR_COMMAND_SGLANG, &s, &error));
  g_assert_nonnull (strstr (error->message, "router"));
  g_clear_error (&error);
}

/* A refusal says what would make the engine accept it. */
static void
test_fix (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "Qwen/Qwen3-32B"),
    .precision = hr_catalog_find_precision (catalog, "bf16"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb"),
    .context = 8192, .batch = 1, .gpus = 3,
  };
  g_autoptr(GError) error = NULL;
  HrFix fix = HR_FIX_NONE;
  guint32 gpus = 0;

  g_assert_null (hr_command_build_with_fix (HR_COMMAND_VLLM, &s, &fix, &gpus, &error));
  g_assert_cmpint (fix, ==, HR_FIX_GPU_COUNT);
  g_assert_cmpuint (gpus, !=, 3);
  g_clear_error (&error);
  /* and the fix gives a command */
  {
    g_autoptr(HrCommand) fixed = NULL;

    s.gpus = gpus;
    fixed = hr_command_build_with_fix (HR_COMMAND_VLLM, &s, &fix, &gpus, &error);
    g_assert_no_error (error);
    g_assert_cmpint (fix, ==, HR_FIX_NONE);
  }

  s.gpus = 1;
  s.kv_type = hr_catalog_find_kv_type (catalog, "q8_0");
  g_assert_null (hr_command_build_with_fix (HR_COMMAND_SGLANG, &s, &fix, &gpus, &error));
  g_assert_cmpint (fix, ==, HR_FIX_KV_FP16);
  g_clear_error (&error);

  s.precision = hr_catalog_find_precision (catalog, "q4_k_m");
  s.options.flash_attn = HR_FLASH_ATTN_OFF;
  g_assert_null (hr_command_build_with_fix (HR_COMMAND_LLAMACPP, &s, &fix, &gpus, &error));
  g_assert_cmpint (fix, ==, HR_FIX_FLASH_ATTN_ON);
  g_clear_error (&error);
}

/* ------------------------------------------------ issue 30, commands */

static HrCommand *
build_for (HrCommandKind  kind,
           HrModelSpec   *model,
           const char    *precision,
           const char    *hardware,
           guint64        context,
           GError       **error)
{
  HrScenario s = {
    .model = model,
    .precision = hr_catalog_find_precision (catalog, precision),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, hardware),
    .context = context, .batch = 1, .gpus = 1,
  };

  return hr_command_build (kind, &s, error);
}

/* gpt-oss's own checkpoints are MXFP4 safetensors: vLLM and SGLang serve
 * them; a BF16 request names no checkpoint the catalog lacks. */
static void
test_mxfp4 (void)
{
  HrModelSpec *model = hr_catalog_find_model (catalog, "openai/gpt-oss-20b");
  g_autoptr(GError) error = NULL;

  for (HrCommandKind kind = 0; kind < HR_N_COMMAND_KINDS; kind++)
    {
      g_autoptr(HrCommand) command = build_for (kind, model, "mxfp4", "h100-sxm-80gb", 8192,
                                                &error);
      g_autofree char *text = NULL;

      g_assert_no_error (error);
      check_command (command);
      /* llama.cpp: the catalog knows no GGUF repository of it */
      g_assert_true (command->placeholder == (kind == HR_COMMAND_LLAMACPP));
      text = hr_command_to_shell (command);
      if (kind == HR_COMMAND_VLLM)
        g_assert_nonnull (strstr (text, "vllm serve openai/gpt-oss-20b \\\n"));
      if (kind == HR_COMMAND_SGLANG)
        g_assert_nonnull (strstr (text, "--model-path openai/gpt-oss-20b \\\n"));
    }

  /* BF16 (and FP8 made on loading) would load the MXFP4 repository */
  for (guint k = 0; k < 2; k++)
    {
      HrCommandKind kind = k == 0 ? HR_COMMAND_VLLM : HR_COMMAND_SGLANG;
      g_autoptr(HrCommand) command = build_for (kind, model, "bf16", "h100-sxm-80gb", 8192,
                                                &error);
      g_autoptr(HrCommand) fp8 = build_for (kind, model, "fp8", "h100-sxm-80gb", 8192, &error);
      g_autofree char *text = NULL;
      g_autofree char *fp8_text = NULL;

      g_assert_no_error (error);
      check_command (command);
      check_command (fp8);
      text = hr_command_to_shell (command);
      fp8_text = hr_command_to_shell (fp8);
      g_assert_true (command->placeholder);
      g_assert_nonnull (strstr (text, "<bf16-checkpoint-of-openai/gpt-oss-20b>"));
      g_assert_nonnull (strstr (text, "holds MXFP4 weights"));
      g_assert_null (strstr (text, " openai/gpt-oss-20b \\\n"));
      g_assert_true (fp8->placeholder);
      g_assert_null (strstr (fp8_text, "--quantization fp8"));
    }
}

/* A GGUF repository the catalog records (distributions.json "gguf") is
 * named where the command wants the downloaded file; a model without one
 * gets the plain request. */
static void
test_gguf_repository (void)
{
  HrModelSpec *seed = hr_catalog_find_model (catalog, "ByteDance-Seed/Seed-OSS-36B-Instruct");
  HrModelSpec *llama = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct");
  g_autoptr(GError) error = NULL;
  g_autoptr(HrCommand) with = build_for (HR_COMMAND_LLAMACPP, seed, "q4_k_m", "h100-sxm-80gb",
                                         8192, &error);
  g_autoptr(HrCommand) without = build_for (HR_COMMAND_LLAMACPP, llama, "q4_k_m",
                                            "h100-sxm-80gb", 8192, &error);
  const HrCommandPlaceholder *a, *b;

  g_assert_no_error (error);
  check_command (with);
  check_command (without);
  g_assert_cmpuint (with->placeholders->len, ==, 1);
  g_assert_cmpuint (without->placeholders->len, ==, 1);
  a = g_ptr_array_index (with->placeholders, 0);
  b = g_ptr_array_index (without->placeholders, 0);
  g_assert_nonnull (strstr (a->meaning, "(from unsloth/Seed-OSS-36B-Instruct-GGUF, for one)"));
  g_assert_null (strstr (b->meaning, "from"));
}

/* Ollama library tags: a variant in the tag (thinking, instruct, a 2507
 * update) is another checkpoint unless the catalog id names it. */
static void
test_ollama_tags (void)
{
  static const char * const variants[] = { "thinking", "instruct", "chat", "2507" };
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "resources", "catalog",
                                                 "distributions.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *models;
  guint checked = 0;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  models = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                         "models");
  for (guint i = 0; i < json_array_get_length (models); i++)
    {
      JsonObject *entry = json_array_get_object_element (models, i);
      g_autofree char *id = g_ascii_strdown (json_object_get_string_member (entry, "id"), -1);
      gboolean tuned = strstr (id, "instruct") != NULL || g_str_has_suffix (id, "-it") ||
                       strstr (id, "-it-") != NULL || strstr (id, "chat") != NULL;
      JsonObject *tags;
      g_autoptr(GList) keys = NULL;

      if (!json_object_has_member (entry, "ollama"))
        continue;
      tags = json_object_get_object_member (entry, "ollama");
      keys = json_object_get_members (tags);
      for (GList *l = keys; l != NULL; l = l->next)
        {
          const char *tag = json_object_get_string_member (tags, l->data);
          g_autofree char *lower = g_ascii_strdown (strchr (tag, ':') ? strchr (tag, ':') + 1
                                                                      : tag, -1);
          g_auto(GStrv) words = g_strsplit_set (lower, "-_", -1);

          for (guint v = 0; v < G_N_ELEMENTS (variants); v++)
            {
              gboolean named = strstr (id, variants[v]) != NULL ||
                               ((g_str_equal (variants[v], "instruct") ||
                                 g_str_equal (variants[v], "chat")) && tuned);

              if (g_strv_contains ((const char * const *) words, variants[v]) && !named)
                g_error ("%s: Ollama tag %s is the %s variant, another checkpoint", id, tag,
                         variants[v]);
            }
          checked++;
        }
    }
  g_assert_cmpuint (checked, >, 100);

  /* the base Qwen3-30B-A3B never pulls the 2507 Thinking update */
  {
    g_autoptr(HrCommand) command = build_for (HR_COMMAND_OLLAMA,
                                              hr_catalog_find_model (catalog,
                                                                     "Qwen/Qwen3-30B-A3B"),
                                              "q4_k_m", "h100-sxm-80gb", 8192, &error);
    g_autofree char *text = hr_command_to_shell (command);

    g_assert_no_error (error);
    g_assert_null (strstr (text, "thinking"));
  }
}

static char *
write_config (const char *dir)
{
  static const char config[] =
    "{\"architectures\":[\"Qwen2ForCausalLM\"],\"model_type\":\"qwen2\",\"hidden_size\":896,"
    "\"intermediate_size\":4864,\"num_attention_heads\":14,\"num_hidden_layers\":24,"
    "\"num_key_value_heads\":2,\"max_position_embeddings\":32768,\"vocab_size\":151936,"
    "\"torch_dtype\":\"bfloat16\",\"tie_word_embeddings\":true}";
  char *path = g_build_filename (dir, "config.json", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, config, -1, &error));
  return path;
}

/* A checkpoint directory named with a line break and a colon: the shell
 * gets the real path, and SGLang a served name without a colon. */
static void
test_checkpoint_path (void)
{
  g_autofree char *dir = hr_test_make_temp_dir ("test-commands");
  g_autofree char *sub = g_build_filename (dir, "ckpt\nv1:2 it's", NULL);
  g_autofree char *config = write_config (sub);
  g_autofree char *real = g_canonicalize_filename (sub, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModelSpec) model = hr_model_import_file (config, &error);

  g_assert_no_error (error);
  for (guint k = 0; k < 2; k++)
    {
      HrCommandKind kind = k == 0 ? HR_COMMAND_VLLM : HR_COMMAND_SGLANG;
      g_autoptr(HrCommand) command = build_for (kind, model, "bf16", "rtx-4090-24gb", 8192,
                                                &error);
      g_autofree char *text = NULL;
      g_autoptr(GPtrArray) calls = NULL;
      char **argv;

      g_assert_no_error (error);
      check_command (command);
      text = hr_command_to_shell (command);
      g_assert_null (strstr (text, "\\n"));
      calls = run_with_stubs (dir, text);
      /* the stubs' log ends a call at a line break, so the path's own
       * one splits the record in two: the log itself has the word */
      {
        g_autofree char *log = g_build_filename (dir, "calls", NULL);
        g_autofree char *contents = NULL;
        g_autofree char *word = g_strconcat ("\036", real, "\036", NULL);

        g_assert_true (g_file_get_contents (log, &contents, NULL, &error));
        g_assert_cmpuint (calls->len, ==, 2);
        g_assert_nonnull (strstr (contents, word));
      }
      argv = g_ptr_array_index (calls, 1);
      if (kind == HR_COMMAND_SGLANG)
        {
          const char *name = option_value (argv, "--served-model-name");

          g_assert_nonnull (name);
          g_assert_null (strchr (name, ':'));
          g_assert_null (strchr (name, '\n'));
        }
    }
  hr_test_remove_temp_dir (dir);
}

/* A GGUF of another type than the precision: quantized from the user's
 * file when it holds more bits, refused with the reason when fewer. */
static void
test_gguf_type (void)
{
  g_autofree char *dir = hr_test_make_temp_dir ("test-commands");
  g_autofree char *path = g_build_filename (dir, "tiny model.gguf", NULL);
  g_autofree char *real = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModelSpec) model = NULL;

  g_assert_true (hr_gguf_writer_write_tiny_llama (path, "Tiny", &error));
  model = hr_model_import_file (path, &error);
  g_assert_no_error (error);
  real = g_canonicalize_filename (path, NULL);

  for (guint k = 0; k < 2; k++)
    {
      HrCommandKind kind = k == 0 ? HR_COMMAND_LLAMACPP : HR_COMMAND_OLLAMA;
      g_autoptr(HrCommand) same = build_for (kind, model, "q8_0", "rtx-3060-12gb", 2048, &error);
      g_autoptr(HrCommand) lower = build_for (kind, model, "q4_k_m", "rtx-3060-12gb", 2048,
                                              &error);
      g_autoptr(HrCommand) higher = NULL;
      g_autofree char *text = NULL;
      const HrCommandLine *first_run = NULL;

      g_assert_no_error (error);
      check_command (same);
      check_command (lower);
      g_assert_false (same->placeholder);
      g_assert_false (lower->placeholder);
      text = hr_command_to_shell (lower);
      g_assert_nonnull (strstr (text, "llama-quantize --allow-requantize"));
      g_assert_nonnull (strstr (text, "Tiny-Q4_K_M.gguf"));
      for (guint i = 0; i < lower->lines->len && first_run == NULL; i++)
        {
          const HrCommandLine *line = g_ptr_array_index (lower->lines, i);

          if (line->kind == HR_COMMAND_LINE_RUN)
            first_run = line;
        }
      g_assert_cmpstr (first_run->argv[0], ==, "llama-quantize");
      g_assert_true (g_strv_contains ((const char * const *) first_run->argv, real));
      g_assert_true (g_strv_contains ((const char * const *) first_run->argv, "Q4_K_M"));

      higher = build_for (kind, model, "fp16", "rtx-3060-12gb", 2048, &error);
      g_assert_null (higher);
      g_assert_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN);
      g_assert_nonnull (strstr (error->message, "the file is Q8_0"));
      g_clear_error (&error);
    }
  hr_test_remove_temp_dir (dir);
}

/* What Ollama cannot be told, and a context past the trained one, is
 * said in the command, never dropped silently. */
/* The whole machine in the command (issue 29): the planned split over
 * GPUs of different kinds, a vision projector, a draft model — every
 * option in llama-server's table, and the note when speculation slows. */
static void
test_whole_load (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-3090-24gb"),
    .context = 8192, .batch = 1, .gpus = 2,
    .devices = { hr_catalog_find_hardware (catalog, "rtx-3090-24gb"),
                 hr_catalog_find_hardware (catalog, "rtx-3060-12gb") },
  };
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(HrCommand) command = hr_command_build (HR_COMMAND_LLAMACPP, &s, &error);
    g_autofree char *text = NULL;

    g_assert_no_error (error);
    check_command (command);
    text = hr_command_to_shell (command);
    g_assert_nonnull (strstr (text, "--tensor-split 23,10"));
    g_assert_nonnull (strstr (text, "0 RTX 3090 24GB, 1 RTX 3060 12GB"));
  }

  memset (s.devices, 0, sizeof s.devices);
  s.gpus = 1;
  s.model = hr_catalog_find_model (catalog, "google/gemma-3-4b-it");
  s.mmproj_weights_bytes = 851229696;
  s.mmproj_compute_bytes = 127139840;
  s.tokens_per_image = 256;
  s.images = 1;
  {
    g_autoptr(HrCommand) command = hr_command_build (HR_COMMAND_LLAMACPP, &s, &error);
    g_autofree char *text = NULL;

    g_assert_no_error (error);
    check_command (command);
    text = hr_command_to_shell (command);
    g_assert_nonnull (strstr (text, "--mmproj ./mmproj-"));
    g_assert_null (strstr (text, "--tensor-split"));
  }

  s.mmproj_weights_bytes = s.mmproj_compute_bytes = 0;
  s.model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.1-8B-Instruct");
  s.draft_model = hr_catalog_find_model (catalog, "meta-llama/Llama-3.2-1B-Instruct");
  s.draft_precision = hr_catalog_find_precision (catalog, "q8_0");
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(HrCommand) command = NULL;
      g_autofree char *text = NULL;

      /* a poor pairing drafting long is slower than none */
      s.acceptance = k == 0 ? 0 : 0.1;
      s.draft_max = k == 0 ? 0 : 16;
      command = hr_command_build (HR_COMMAND_LLAMACPP, &s, &error);
      g_assert_no_error (error);
      check_command (command);
      text = hr_command_to_shell (command);
      g_assert_nonnull (strstr (text, "--model-draft ./Llama-3.2-1B-Instruct-Q8_0.gguf"));
      g_assert_nonnull (strstr (text, "--gpu-layers-draft 17"));
      g_assert_nonnull (strstr (text, k == 0 ? "--draft-max " : "--draft-max 16"));
      g_assert_true ((strstr (text, "makes decoding slower") != NULL) == (k == 1));
    }

  /* LoRA adapters (a rank: a placeholder file), the cache in RAM and the
   * host prompt cache: llama-server options of its table, in MiB */
  s.draft_model = NULL;
  s.n_lora = 2;
  s.lora_ranks[0] = 16;
  s.lora_ranks[1] = 64;
  s.kv_on_host = TRUE;
  s.cache_ram_bytes = 3ull << 30;
  {
    g_autoptr(HrCommand) command = hr_command_build (HR_COMMAND_LLAMACPP, &s, &error);
    g_autofree char *text = NULL;

    g_assert_no_error (error);
    check_command (command);
    text = hr_command_to_shell (command);
    g_assert_nonnull (strstr (text, "--lora ./lora-adapter-1.gguf"));
    g_assert_nonnull (strstr (text, "--lora ./lora-adapter-2.gguf"));
    g_assert_nonnull (strstr (text, "(rank 64)"));
    g_assert_nonnull (strstr (text, "--no-kv-offload"));
    g_assert_nonnull (strstr (text, "--cache-ram 3072"));
  }
  /* Ollama: one adapter, an ADAPTER line of its Modelfile; two are refused */
  s.kv_on_host = FALSE;
  s.cache_ram_bytes = 0;
  {
    g_autoptr(HrCommand) command = hr_command_build (HR_COMMAND_OLLAMA, &s, &error);

    g_assert_error (error, HR_COMMAND_ERROR, HR_COMMAND_ERROR_CANNOT_RUN);
    g_assert_null (command);
    g_assert_nonnull (strstr (error->message, "one LoRA adapter"));
    g_clear_error (&error);
  }
  s.n_lora = 1;
  {
    g_autoptr(HrCommand) command = hr_command_build (HR_COMMAND_OLLAMA, &s, &error);
    g_autofree char *text = NULL;

    g_assert_no_error (error);
    check_command (command);
    text = hr_command_to_shell (command);
    g_assert_nonnull (strstr (text, "\nADAPTER ./lora-adapter-1.gguf\n"));
  }
}

static void
test_unsaid (void)
{
  HrScenario s = {
    .model = hr_catalog_find_model (catalog, "Qwen/Qwen3-30B-A3B-Instruct-2507"),
    .precision = hr_catalog_find_precision (catalog, "q4_k_m"),
    .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
    .hardware = hr_catalog_find_hardware (catalog, "rtx-4090-24gb"),
    .context = 8192, .batch = 1, .gpus = 2,
  };
  guint64 trained = hr_model_spec_get_arch (s.model)->max_context;
  g_autoptr(GError) error = NULL;

  s.placement.n_cpu_moe = 4;
  s.placement.n_tensor_split = 2;
  s.placement.tensor_split[0] = 3;
  s.placement.tensor_split[1] = 1;
  {
    g_autoptr(HrCommand) command = hr_command_build (HR_COMMAND_OLLAMA, &s, &error);
    g_autofree char *text = NULL;

    g_assert_no_error (error);
    check_command (command);
    text = hr_command_to_shell (command);
    g_assert_nonnull (strstr (text, "Ollama has no --n-cpu-moe"));
    g_assert_nonnull (strstr (text, "Ollama has no --tensor-split"));
    g_assert_null (strstr (text, "trained for"));
  }

  s.placement.n_cpu_moe = 0;
  s.placement.n_tensor_split = 0;
  s.gpus = 1;
  s.hardware = hr_catalog_find_hardware (catalog, "h100-sxm-80gb");
  s.context = trained * 2;
  for (guint k = 0; k < 2; k++)
    {
      HrCommandKind kind = k == 0 ? HR_COMMAND_OLLAMA : HR_COMMAND_LLAMACPP;
      g_autoptr(HrCommand) command = hr_command_build (kind, &s, &error);
      g_autofree char *text = NULL;

      g_assert_no_error (error);
      check_command (command);
      text = hr_command_to_shell (command);
      g_assert_nonnull (strstr (text, "trained for"));
      g_assert_nonnull (strstr (text, k == 0 ? "Ollama lowers num_ctx" : "caps each slot"));
    }
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  catalog = hr_test_builtin_catalog ();
  tables[HR_COMMAND_LLAMACPP] = load_table ("llama-server.json");
  tables[HR_COMMAND_VLLM] = load_table ("vllm-serve.json");
  tables[HR_COMMAND_OLLAMA] = load_table ("ollama.json");
  tables[HR_COMMAND_SGLANG] = load_table ("sglang.json");
  ray_table = load_table ("ray-start.json");
  quantize_table = load_table ("llama-quantize.json");

  g_test_add_func ("/commands/rules", test_rules);
  g_test_add_func ("/commands/hostile-names", test_hostile_names);
  g_test_add_func ("/commands/corpus", test_corpus);
  g_test_add_func ("/commands/layouts", test_layouts);
  g_test_add_func ("/commands/fix", test_fix);
  g_test_add_func ("/commands/machines", test_machines);
  g_test_add_func ("/commands/machines-shell", test_machines_shell);
  g_test_add_func ("/commands/mxfp4", test_mxfp4);
  g_test_add_func ("/commands/gguf-repository", test_gguf_repository);
  g_test_add_func ("/commands/ollama-tags", test_ollama_tags);
  g_test_add_func ("/commands/checkpoint-path", test_checkpoint_path);
  g_test_add_func ("/commands/gguf-type", test_gguf_type);
  g_test_add_func ("/commands/unsaid", test_unsaid);
  g_test_add_func ("/commands/whole-load", test_whole_load);

  status = g_test_run ();
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    json_object_unref (tables[i]);
  json_object_unref (ray_table);
  json_object_unref (quantize_table);
  g_object_unref (catalog);
  return status;
}
