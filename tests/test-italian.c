/* test-italian.c — the window in Italian: translated labels, decimal commas
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs with LANGUAGE=it and an Italian locale (installed by .ci/run); the
 * catalog of translations is the one built in the build tree.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>

#include "hr-test-util.h"
#include "hr-test-app.h"
#include "hr-recommend-view.h"
#include "hr-window.h"

static void
collect_labels (GtkWidget *widget,
                GString   *out)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    {
      g_string_append (out, gtk_label_get_label (GTK_LABEL (widget)));
      g_string_append_c (out, '\n');
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, out);
}

static void
assert_shows (const char *text,
              const char *expected)
{
  if (strstr (text, expected) == NULL)
    g_error ("the window does not show “%s”; it shows:\n%s", expected, text);
}

static void
test_italian_window (void)
{
  HrApplication *app = HR_APPLICATION (g_application_get_default ());
  HrWindow *window = hr_window_new (GTK_APPLICATION (app));
  g_autoptr(GString) text = g_string_new (NULL);

  /* The seed page's numbers are the nominal method's (the default engine
   * is Automatic since issue 10). */
  hr_calculator_set_engine (hr_window_get_calculator (window), HR_ENGINE_GENERIC);
  gtk_window_present (GTK_WINDOW (window));
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);

  collect_labels (GTK_WIDGET (window), text);
  /* the seed page's own words */
  assert_shows (text->str, "Entra comodamente");
  assert_shows (text->str, "Contesto max prima di OOM");
  /* numbers follow the locale: 7,86 GiB, 136.399 token */
  assert_shows (text->str, "7,86\u00a0GiB");
  assert_shows (text->str, "11,81\u00a0GiB");
  assert_shows (text->str, "136.399");
  /* …and no English left in the overview's fixed labels */
  g_assert_null (strstr (text->str, "Total memory"));
  g_assert_null (strstr (text->str, "Fits comfortably"));

  /* the reason there is no estimate is translated too */
  {
    HrCalculator *calc = hr_window_get_calculator (window);
    HrEngineOptions options = *hr_calculator_get_engine_options (calc);

    options.flash_attn = HR_FLASH_ATTN_OFF;
    hr_calculator_freeze (calc);
    hr_calculator_set_engine (calc, HR_ENGINE_LLAMACPP);
    hr_calculator_set_kv_type (calc, hr_catalog_find_kv_type (hr_calculator_get_catalog (calc),
                                                              "q8_0"));
    hr_calculator_set_engine_options (calc, &options);
    hr_calculator_thaw (calc);
    for (int i = 0; i < 50; i++)
      g_main_context_iteration (NULL, FALSE);
    g_string_truncate (text, 0);
    collect_labels (GTK_WIDGET (window), text);
    assert_shows (text->str, "Nessuna stima");
    assert_shows (text->str, "llama.cpp richiede la flash attention per una cache V quantizzata");
  }

  /* What can I run (issue 26): its controls, its summary and its rows */
  {
    HrCalculator *calc = hr_window_get_calculator (window);
    HrRecommendView *view;

    hr_calculator_set_engine (calc, HR_ENGINE_AUTO);
    view = HR_RECOMMEND_VIEW (hr_window_get_view (window, "recommend"));
    hr_window_show_view (window, "recommend");
    while (!hr_recommend_view_is_ranked (view))
      hr_test_wait_for_signal (view, "ranked");
    g_string_truncate (text, 0);
    collect_labels (GTK_WIDGET (view), text);
    assert_shows (text->str, "Cosa posso eseguire");
    assert_shows (text->str, "Attività");
    assert_shows (text->str, "Velocità minima, token/s");
    assert_shows (text->str, "Ordinate per livello di qualità");
    assert_shows (text->str, "Apri");
    assert_shows (text->str, "Qualità: ");
    g_assert_null (strstr (text->str, "Least speed"));
    g_assert_null (strstr (text->str, "Quality:"));
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Strings that reached the window untranslated (issue 30's walkthrough),
 * and the core's verdict words (hr-summary.c), are in Italian. */
static void
test_italian_strings (void)
{
  static const char * const pairs[][2] = {
    { "No estimate for these settings", "Nessuna stima per queste impostazioni" },
    { "Nothing to copy: this engine has no command for this set-up",
      "Niente da copiare: questo motore non ha un comando per questa configurazione" },
    { "%s on the device, %s in system RAM", "%s sul dispositivo, %s nella RAM di sistema" },
    { "Partly in system RAM", "In parte nella RAM" },
    { "the KV cache holds %s tokens, fewer than one sequence of %s",
      "la cache KV contiene %s token, meno di una sequenza di %s" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    g_assert_cmpstr (g_dgettext (GETTEXT_PACKAGE, pairs[i][0]), ==, pairs[i][1]);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(HrApplication) app = NULL;
  g_autofree char *home = NULL;
  const char *localedir = g_getenv ("HEADROOM_LOCALEDIR");
  int status;

  hr_test_isolate_home ();
  home = g_dir_make_tmp ("headroom-home-XXXXXX", NULL);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  g_setenv ("LANGUAGE", "it", TRUE);
  g_setenv ("LC_ALL", "it_IT.UTF-8", TRUE);

  if (setlocale (LC_ALL, "it_IT.UTF-8") == NULL)
    {
      g_test_init (&argc, &argv, NULL);
      g_test_skip ("the it_IT.UTF-8 locale is not installed");
      g_print ("1..0 # SKIP it_IT.UTF-8 is not installed\n");
      return 77;
    }
  bindtextdomain (GETTEXT_PACKAGE, localedir ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  app = hr_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, NULL);

  g_test_add_func ("/italian/window", test_italian_window);
  g_test_add_func ("/italian/strings", test_italian_strings);
  status = g_test_run ();
  g_rmdir (home);
  return status;
}
