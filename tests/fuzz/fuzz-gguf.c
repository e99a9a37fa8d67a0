/* fuzz-gguf.c — libFuzzer target for the GGUF header reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Besides "does not crash", this checks what a successful parse promises:
 * every tensor lies inside the file, the totals add up and fit in the file,
 * lookups agree with iteration, keys are displayable, and error messages
 * are one displayable line (they quote names taken from the file and end
 * up in the UI).
 *
 * Build with meson (tests/fuzz/meson.build, README.md there).
 */

#define G_LOG_DOMAIN "fuzz-gguf"

#include "config.h"

#include "fuzz-common.h"
#include "hr-gguf.h"
#include "hr-text.h"

static void
exercise (HrGguf  *gguf,
          guint64  file_size)
{
  guint64 total = 0;
  guint64 by_type = 0;

  CHECK (hr_gguf_get_version (gguf) == 2 || hr_gguf_get_version (gguf) == 3);
  CHECK (hr_gguf_get_file_size (gguf) == file_size);

  for (guint i = 0; i < hr_gguf_get_n_metadata (gguf); i++)
    {
      const char *key = hr_gguf_get_metadata_key (gguf, i);
      const char *s;
      guint64 u;
      double f;
      guint64 *values = NULL;
      gsize n = 0;
      HrGgufType type, element_type;

      CHECK (key != NULL);
      CHECK (hr_text_is_displayable (key, -1));
      CHECK (hr_gguf_get_metadata_type (gguf, key, &type, &element_type));

      (void) hr_gguf_get_uint (gguf, key, &u);
      (void) hr_gguf_get_float (gguf, key, &f);
      s = hr_gguf_get_string (gguf, key);
      CHECK (s == NULL || g_utf8_validate (s, -1, NULL));
      CHECK ((s != NULL) == (type == HR_GGUF_TYPE_STRING));

      if (hr_gguf_get_uint_array (gguf, key, &values, &n))
        {
          guint64 sum = 0;

          CHECK (type == HR_GGUF_TYPE_ARRAY);
          CHECK (n == hr_gguf_get_array_length (gguf, key));
          /* Touch every element so ASan sees a short allocation. */
          for (gsize k = 0; k < n; k++)
            sum += values[k];
          g_free (values);
          (void) sum;
        }
    }
  CHECK (hr_gguf_get_metadata_key (gguf, hr_gguf_get_n_metadata (gguf)) == NULL);

  for (guint64 i = 0; i < hr_gguf_get_tensor_count (gguf); i++)
    {
      const HrGgufTensor *t = hr_gguf_get_tensor (gguf, i);
      guint64 bytes;

      CHECK (t != NULL);
      CHECK (hr_gguf_find_tensor (gguf, t->name) == t);
      CHECK (hr_text_is_displayable (t->name, -1));
      CHECK (t->n_dims >= 1 && t->n_dims <= 4);
      CHECK (hr_ggml_type_name (t->type) != NULL);
      CHECK (hr_ggml_tensor_bytes (t->type, t->dims, t->n_dims, &bytes) && bytes == t->n_bytes);
      CHECK (t->offset % hr_gguf_get_alignment (gguf) == 0);
      CHECK (hr_gguf_get_data_offset (gguf) <= file_size);
      CHECK (t->offset <= file_size - hr_gguf_get_data_offset (gguf));
      CHECK (t->n_bytes <= file_size - hr_gguf_get_data_offset (gguf) - t->offset);
      total += t->n_bytes;
    }
  CHECK (hr_gguf_get_tensor (gguf, hr_gguf_get_tensor_count (gguf)) == NULL);

  /* Tensors may not overlap, so together they fit in the file. */
  CHECK (total == hr_gguf_get_weights_bytes (gguf));
  CHECK (total <= file_size);
  for (guint32 type = 0; type < HR_GGML_TYPE_LIMIT; type++)
    by_type += hr_gguf_get_bytes_by_type (gguf, type);
  CHECK (by_type == total);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* Only a header-sized prefix of a larger file: exercises the "needs more
   * bytes" path of hr_gguf_parse(). */
  guint64 claimed = (guint64) size + (G_GUINT64_CONSTANT (1) << 34);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGguf) gguf = NULL;
  g_autoptr(GError) streamed_error = NULL;
  g_autoptr(HrGguf) streamed = NULL;

  gguf = hr_gguf_parse (data, size, size, &error);
  CHECK ((gguf == NULL) == (error != NULL));
  if (gguf != NULL)
    exercise (gguf, size);
  else
    {
      CHECK (error->domain == HR_GGUF_ERROR);
      fuzz_check_error (error, NULL);
    }

  /* hr_gguf_open()'s streaming reader, its window refilled every 1 to 64
   * bytes (chosen by the input's length), must reach the same verdict
   * with the same words. */
  streamed = hr_gguf_parse_streaming (data, size, 1 + size % 64, &streamed_error);
  CHECK ((streamed == NULL) == (gguf == NULL));
  if (streamed != NULL)
    {
      exercise (streamed, size);
      CHECK (hr_gguf_get_tensor_count (streamed) == hr_gguf_get_tensor_count (gguf));
      CHECK (hr_gguf_get_n_metadata (streamed) == hr_gguf_get_n_metadata (gguf));
      CHECK (hr_gguf_get_weights_bytes (streamed) == hr_gguf_get_weights_bytes (gguf));
      CHECK (hr_gguf_get_data_offset (streamed) == hr_gguf_get_data_offset (gguf));
    }
  else
    {
      CHECK (streamed_error->code == error->code);
      CHECK (g_str_equal (streamed_error->message, error->message));
    }

  g_clear_pointer (&gguf, hr_gguf_free);
  g_clear_error (&error);

  gguf = hr_gguf_parse (data, size, claimed, &error);
  CHECK ((gguf == NULL) == (error != NULL));
  if (gguf != NULL)
    exercise (gguf, claimed);
  else
    {
      CHECK (error->domain == HR_GGUF_ERROR);
      fuzz_check_error (error, NULL);
    }

  return 0;
}
