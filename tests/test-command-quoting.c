/* test-command-quoting.c — generated commands quote what comes from files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A config.json's _name_or_path and a GGUF's general.name become the
 * model id and file name in commands the user pastes into a shell;
 * "evil/$(touch pwned)" must reach the engine as those bytes, not run.
 */

#include "config.h"

#include <string.h>

#include "hr-commands.h"
#include "hr-test-util.h"

static HrModelSpec *
model_named (const char *id,
             const char *name)
{
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();
  g_autoptr(JsonObject) json = hr_model_spec_to_json (hr_catalog_find_model (catalog,
                                                                             "Qwen/Qwen3-8B"));
  g_autoptr(GError) error = NULL;
  HrModelSpec *model;

  json_object_set_string_member (json, "id", id);
  json_object_set_string_member (json, "name", name);
  json_object_remove_member (json, "ollama_tag");
  model = hr_model_spec_new_from_json (json, HR_ORIGIN_USER, &error);
  g_assert_no_error (error);
  return model;
}

/* The words of the line of @text from @command on, as a POSIX shell
 * would split them. */
static char **
words_of (const char *text,
          const char *command)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(GError) error = NULL;
  char **argv = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *start = strstr (lines[i], command);
      g_autofree char *line = NULL;

      if (start == NULL)
        continue;
      line = g_strdup (start);
      if (g_str_has_suffix (line, " \\"))
        line[strlen (line) - 2] = '\0';
      g_assert_true (g_shell_parse_argv (line, NULL, &argv, &error));
      g_assert_no_error (error);
      return argv;
    }
  g_error ("no line starts with “%s” in:\n%s", command, text);
}

static void
test_hostile_names (void)
{
  static const char * const hostile[] = {
    "evil/$(touch pwned)",
    "a`id`b",
    "it's; rm -rf ~",
    "x\"$HOME\"",
  };
  g_autoptr(HrCatalog) catalog = hr_test_builtin_catalog ();

  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      g_autoptr(HrModelSpec) model = model_named (hostile[i], hostile[i]);
      HrScenario s = {
        .model = model,
        .precision = hr_catalog_find_precision (catalog, "q8_0"),
        .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
        .hardware = hr_catalog_find_hardware (catalog, "rtx-3090-24gb"),
        .context = 8192, .batch = 1, .gpus = 1,
      };
      g_autofree char *vllm = hr_command_generate (HR_COMMAND_VLLM, &s);
      g_autofree char *llama = hr_command_generate (HR_COMMAND_LLAMACPP, &s);
      g_autofree char *ollama = hr_command_generate (HR_COMMAND_OLLAMA, &s);
      g_auto(GStrv) vllm_words = words_of (vllm, "vllm serve ");
      g_auto(GStrv) llama_words = words_of (llama, "llama-server ");
      g_auto(GStrv) ollama_words = words_of (ollama, "ollama create ");
      g_autofree char *file = g_strdup_printf ("%s-Q8_0.gguf", hostile[i]);

      g_test_message ("%s", hostile[i]);
      g_assert_cmpstr (vllm_words[2], ==, hostile[i]);
      g_assert_cmpstr (llama_words[2], ==, file);
      /* "ollama create NAME-custom -f Modelfile", NAME in lower case */
      g_assert_cmpuint (g_strv_length (ollama_words), ==, 5);
      g_assert_true (g_str_has_suffix (ollama_words[2], "-custom"));
    }

  /* Catalog ids need no quotes and get none. */
  {
    HrScenario s = {
      .model = hr_catalog_find_model (catalog, "THUDM/GLM-4-9B-0414"),
      .precision = hr_catalog_find_precision (catalog, "bf16"),
      .kv_type = hr_catalog_find_kv_type (catalog, "fp16"),
      .hardware = hr_catalog_find_hardware (catalog, "rtx-3090-24gb"),
      .context = 8192, .batch = 1, .gpus = 1,
    };
    g_autofree char *vllm = hr_command_generate (HR_COMMAND_VLLM, &s);

    g_assert_nonnull (strstr (vllm, "vllm serve THUDM/GLM-4-9B-0414 \\\n"));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/commands/hostile-names", test_hostile_names);

  return g_test_run ();
}
