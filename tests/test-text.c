/* test-text.c — text from files made displayable (hr-text), JSON from
 * files parsed safely (hr-json-load)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "hr-catalog-json.h"
#include "hr-json-load.h"
#include "hr-test-util.h"
#include "hr-text.h"

static void
test_escape_line (void)
{
  static const struct
  {
    const char *in;
    gssize length;
    const char *out;
  } cases[] = {
    { "Qwen3 8B ünïcödé", -1, "Qwen3 8B ünïcödé" },
    { "C:\\models\\x", -1, "C:\\models\\x" },
    { "a\nb\r\tc", -1, "a\\nb\\r\\tc" },
    { "\x1b[31mred\x1b[0m", -1, "\\x1b[31mred\\x1b[0m" },
    { "del\x7f", -1, "del\\x7f" },
    { "bad \xff\xfe utf-8", -1, "bad \\xff\\xfe utf-8" },
    { "cut \xc3", -1, "cut \\xc3" },
    { "c1 \xc2\x85 next line", -1, "c1 \\u0085 next line" },
    { "line\xe2\x80\xa8sep", -1, "line\\u2028sep" },
    { "rtl \xe2\x80\xae override", -1, "rtl \\u202E override" },
    { "nul\0inside", 10, "nul\\x00inside" },
    { "", -1, "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = hr_text_escape_line (cases[i].in, cases[i].length);

      g_assert_cmpstr (out, ==, cases[i].out);
      g_assert_true (hr_text_is_displayable (out, -1));
      g_assert_cmpint (hr_text_is_displayable (cases[i].in, cases[i].length), ==,
                       strcmp (cases[i].out, cases[i].in) == 0 && cases[i].length < 0);
    }
  {
    g_autofree char *empty = hr_text_escape_line (NULL, -1);

    g_assert_cmpstr (empty, ==, "");
  }
}

static void
test_display_path (void)
{
  g_autofree char *plain = hr_text_display_path ("/home/me/config.json");
  g_autofree char *newline = hr_text_display_path ("/tmp/a\nb.gguf");
  g_autofree char *latin1 = hr_text_display_path ("/tmp/caf\xe9.gguf");

  g_assert_cmpstr (plain, ==, "/home/me/config.json");
  g_assert_cmpstr (newline, ==, "/tmp/a\\nb.gguf");
  g_assert_true (hr_text_is_displayable (latin1, -1));
}

static void
test_sanitize_error (void)
{
  g_autoptr(GError) error = g_error_new (G_FILE_ERROR, G_FILE_ERROR_FAILED,
                                         "x.gguf: architecture “\x1b[2J\xff” is unknown");
  g_autoptr(GError) clean = g_error_new_literal (G_FILE_ERROR, G_FILE_ERROR_FAILED, "fine");

  hr_text_sanitize_error (error);
  g_assert_cmpstr (error->message, ==, "x.gguf: architecture “\\x1b[2J\\xff” is unknown");
  hr_text_sanitize_error (clean);
  g_assert_cmpstr (clean->message, ==, "fine");
  hr_text_sanitize_error (NULL);
}

static JsonNode *
load (const char  *json,
      GError     **error)
{
  return hr_json_load_data (json, strlen (json), "test.json", error);
}

static void
assert_refused (const char *json,
                const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = load (json, &error);

  g_assert_null (root);
  g_assert_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID);
  if (!g_str_has_prefix (error->message, "test.json: ") ||
      strstr (error->message, fragment) == NULL)
    g_error ("“%s” should start with the file and say “%s”", error->message, fragment);
  g_assert_true (hr_text_is_displayable (error->message, -1));
}

/* json-glib recurses once per level: 100,000 levels overflowed the stack.
 * The depth is refused before parsing, quickly. */
static void
test_json_deep (void)
{
  GString *deep = g_string_new ("{\"a\": ");
  g_autofree char *text = NULL;
  gint64 start;

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  text = g_string_free (deep, FALSE);

  start = g_get_monotonic_time ();
  assert_refused (text, "nested more than 64 levels deep");
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC / 10);

  /* the limit itself, and brackets inside strings do not count */
  {
    GString *ok = g_string_new (NULL);
    g_autoptr(JsonNode) root = NULL;
    g_autoptr(GError) error = NULL;

    for (guint i = 0; i < HR_JSON_MAX_DEPTH; i++)
      g_string_append_c (ok, '[');
    g_string_append (ok, "\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\\"[\"");
    for (guint i = 0; i < HR_JSON_MAX_DEPTH; i++)
      g_string_append_c (ok, ']');
    root = load (ok->str, &error);
    g_assert_no_error (error);
    g_assert_nonnull (root);
    g_string_insert_c (ok, 0, '[');
    g_string_append_c (ok, ']');
    assert_refused (ok->str, "nested more than 64");
    g_string_free (ok, TRUE);
  }
}

/* json-glib wraps integers beyond 64 bits (2^64 became -1): they reach
 * the field checks as the large numbers they are. */
static void
test_json_big_integers (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = load ("{\"a\": 18446744073709551616, \"b\": -9223372036854775809,"
                                   " \"c\": 9223372036854775807, \"d\": 1.5e3,"
                                   " \"e\": \"99999999999999999999\","
                                   " \"f\": 0.99999999999999999999}", &error);
  JsonObject *o;

  g_assert_no_error (error);
  o = json_node_get_object (root);
  g_assert_cmpint (json_node_get_value_type (json_object_get_member (o, "a")), ==, G_TYPE_DOUBLE);
  assert_close (json_object_get_double_member (o, "a"), 18446744073709551616.0, 1e4);
  assert_close (json_object_get_double_member (o, "b"), -9223372036854775809.0, 1e4);
  g_assert_cmpint (json_object_get_int_member (o, "c"), ==, G_MAXINT64);
  assert_close (json_object_get_double_member (o, "d"), 1500, 0);
  g_assert_cmpstr (json_object_get_string_member (o, "e"), ==, "99999999999999999999");
  assert_close (json_object_get_double_member (o, "f"), 1.0, 1e-12);
}

/* A number past the largest double (json-glib reads it as infinity, and
 * a file written back with it would not parse) is refused, wherever it
 * stands; the largest finite one is read.  Found by fuzz-imported. */
static void
test_json_past_double (void)
{
  static const char * const refused[] = {
    "{\"a\": 11e308536}", "[1, [2, -1e309]]", "{\"m\": [{\"x\": {\"y\": 1e400}}]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = load (refused[i], &error);

      g_assert_null (root);
      g_assert_error (error, HR_CATALOG_ERROR, HR_CATALOG_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, "too large"));
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) root = load ("{\"a\": 1.7976931348623157e308}", &error);

    g_assert_no_error (error);
    g_assert_nonnull (root);
  }
}

static void
test_json_malformed (void)
{
  g_autoptr(JsonNode) pair = NULL;
  g_autoptr(GError) error = NULL;

  assert_refused ("", "the file is empty");
  assert_refused (" \n\t", "holds only white space");
  assert_refused ("{\"models\": [", "not valid JSON");
  /* json-glib 1.6 would keep the second document (and leak the first) */
  assert_refused ("{\"models\": [1]} {\"models\": []}", "more data after the end");
  assert_refused ("[1] []", "more data after the end");
  assert_refused ("2{}", "more data after the end");
  assert_refused ("true false", "more data after the end");
  /* json-glib would make a string that is not UTF-8 of a lone surrogate */
  assert_refused ("{\"id\": \"a\\ud800b\"}", "half of a UTF-16 pair");
  assert_refused ("{\"id\": \"a\\udc00\"}", "half of a UTF-16 pair");
  assert_refused ("{\"id\": \"\xff\"}", "not valid JSON");
  /* json-glib leaked its buffer on these (fuzz-hf-config) */
  assert_refused ("{\"id\": \"\\ud80\"}", "bad escape");
  assert_refused ("{\"id\": \"\\u12\"}", "bad escape");
  assert_refused ("{\"id\": \"\\q\"}", "bad escape");
  assert_refused ("{\"id\": \"\\", "bad escape");

  pair = load ("{\"id\": \"\\ud83d\\ude00 \\u00e9 \\\"\\\\\\/\\b\\f\\n\\r\\t\"}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (pair), "id"), ==,
                   "\xf0\x9f\x98\x80 \xc3\xa9 \"\\/\b\f\n\r\t");
}

/* Only valid JSON (RFC 8259) reaches json-glib, whose scanner accepts
 * more (single-quoted strings, comments, "[1,]") and leaks what it built
 * on some of it: each is refused with the line and column where the
 * syntax breaks.  "'[1'[1]]" leaked in fuzz-imported. */
static void
test_json_strict (void)
{
  static const struct
  {
    const char *json;
    const char *says;
  } refused[] = {
    { "'[1'[1]]", "line 1, column 1: expected a value" },
    { "{'a': 1}", "line 1, column 2: expected a member name in double quotes" },
    { "{\"a\" 1}", "line 1, column 6: expected ':' after a member name" },
    { "{\"a\": 1,}", "line 1, column 9: expected a member name" },
    { "[1,]", "line 1, column 4: expected a value" },
    { "[1 2]", "line 1, column 4: expected ',' or ']' after an array element" },
    { "{\"a\": 1 \"b\": 2}", "line 1, column 9: expected ',' or '}' after an object member" },
    { "[01]", "line 1, column 3: expected ',' or ']'" },
    { "[1.]", "line 1, column 2: expected a value" },
    { "[-]", "line 1, column 2: expected a value" },
    { "[.5]", "line 1, column 2: expected a value" },
    { "[1e]", "line 1, column 2: expected a value" },
    { "[tru]", "line 1, column 2: expected a value" },
    { "[NaN, Infinity]", "line 1, column 2: expected a value" },
    { "/* a comment */ {}", "line 1, column 1: expected a value" },
    { "{}\n// a comment", "line 2, column 1: more data after the end" },
    { "[\"never closed]", "line 1, column 2: a string is not closed" },
    { "{\"a\": [1, {\"b\": ", "line 1, column 17: the document ends where a value should be" },
    { "{\"é\": \"\xc3\"}", "line 1, column 8: the file is not UTF-8 text" },
  };
  static const char * const valid[] = {
    "[]", "{}", " [ 1 , -0.5e+3 , 0 , -0 , 1E-2, \"\" , true , false , null ] \r\n",
    "\"alone\"", "42", "{\"a\":{\"b\":[{},[]]}}",
    /* raw control characters, as json-glib 1.6 wrote U+001F */
    "{\"fi\x1fle\": \"a\tb\x1f\"}", "[\"é\nb\"]",
  };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    assert_refused (refused[i].json, refused[i].says);
  for (guint i = 0; i < G_N_ELEMENTS (valid); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = load (valid[i], &error);

      g_assert_no_error (error);
      g_assert_nonnull (root);
    }
}

/* What Headroom writes reads back: json-glib 1.6 wrote U+001F raw inside
 * strings and "1e+86.0" for a large double (each an imported-models.json
 * that then did not load; found by fuzz-imported). */
static void
test_json_write_escapes (void)
{
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonObject *object = json_object_new ();
  gsize length = 0;

  json_object_set_string_member (object, "fi\x1fle", "a\x1f\x01\n\"\\b\x7f é");
  json_object_set_int_member (object, "n", 3);
  /* json-glib prints a double with an exponent as "1e+86.0" */
  json_object_set_double_member (object, "big", 1e86);
  json_object_set_double_member (object, "small", -2.5e-300);
  json_object_set_double_member (object, "whole", 123.0);
  json_object_set_boolean_member (object, "true", TRUE);
  json_node_take_object (root, object);

  text = hr_json_to_data (root, &length);
  g_assert_cmpuint (length, ==, strlen (text));
  for (gsize i = 0; i < length; i++)
    if ((guchar) text[i] < 0x20)
      g_assert_true (text[i] == '\n' || text[i] == ' ');
  g_assert_nonnull (strstr (text, "fi\\u001fle"));

  back = load (text, &error);
  g_assert_no_error (error);
  object = json_node_get_object (back);
  g_assert_cmpstr (json_object_get_string_member (object, "fi\x1fle"), ==,
                   "a\x1f\x01\n\"\\b\x7f é");
  g_assert_cmpint (json_object_get_int_member (object, "n"), ==, 3);
  g_assert_cmpfloat (json_object_get_double_member (object, "big"), ==, 1e86);
  g_assert_cmpfloat (json_object_get_double_member (object, "small"), ==, -2.5e-300);
  g_assert_cmpfloat (json_object_get_double_member (object, "whole"), ==, 123.0);
  g_assert_true (json_object_get_boolean_member (object, "true"));
}

/* Issue 30 (polish): search words begin tokens; "8GB" is not in 48GB. */
static void
test_matches_words (void)
{
  g_assert_true (hr_text_matches_words ("qwen3-32b qwen 3 32b", "qwen 32"));
  g_assert_true (hr_text_matches_words ("rtx 3070 8gb", "8GB"));
  g_assert_false (hr_text_matches_words ("rtx a6000 48gb", "8GB"));
  g_assert_false (hr_text_matches_words ("radeon rx 7900 xtx 24gb", "tx"));
  g_assert_true (hr_text_matches_words ("radeon rx 7900 xtx 24gb", "XTX radeon"));
  g_assert_true (hr_text_matches_words ("anything", ""));
  g_assert_true (hr_text_matches_words ("anything", "  "));
  g_assert_false (hr_text_matches_words ("llama-3.1-8b", "70b"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/text/escape-line", test_escape_line);
  g_test_add_func ("/text/display-path", test_display_path);
  g_test_add_func ("/text/sanitize-error", test_sanitize_error);
  g_test_add_func ("/json/deep", test_json_deep);
  g_test_add_func ("/json/big-integers", test_json_big_integers);
  g_test_add_func ("/json/malformed", test_json_malformed);
  g_test_add_func ("/json/past-double", test_json_past_double);
  g_test_add_func ("/text/matches-words", test_matches_words);
  g_test_add_func ("/json/strict", test_json_strict);
  g_test_add_func ("/json/write-escapes", test_json_write_escapes);

  return g_test_run ();
}
