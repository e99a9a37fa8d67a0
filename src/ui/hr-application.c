/* hr-application.c — the Headroom application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-application"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-application.h"
#include "hr-catalog.h"
#include "hr-window.h"

struct _HrApplication
{
  AdwApplication parent_instance;

  GSettings *settings;   /* NULL when the schema is not installed */
};

G_DEFINE_FINAL_TYPE (HrApplication, hr_application, ADW_TYPE_APPLICATION)

/* The user's catalog files that could not be read (or only in part):
 * the built-in catalog works regardless, but the user should know why
 * their models are missing.  One toast names the first problem. */
static void
report_catalog_problems (HrWindow *window)
{
  HrCatalog *catalog = hr_calculator_get_catalog (hr_window_get_calculator (window));
  const char * const *problems = hr_catalog_get_problems (catalog);
  guint n = g_strv_length ((char **) problems);
  g_autofree char *message = NULL;

  if (n == 0)
    return;
  if (n == 1)
    /* TRANSLATORS: the problem names the file, e.g. "Your catalog files have a
     * problem: /home/me/.local/share/headroom/mine.json: not valid JSON: …" */
    message = g_strdup_printf (_("Your catalog files have a problem: %s"), problems[0]);
  else
    message = g_strdup_printf (ngettext ("Your catalog files have problems: %s (and %u more)",
                                         "Your catalog files have problems: %s (and %u more)",
                                         n - 1),
                               problems[0], n - 1);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toast", "s", message);
}

static void
hr_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    {
      window = GTK_WINDOW (hr_window_new (GTK_APPLICATION (app)));
      report_catalog_problems (HR_WINDOW (window));
    }
  gtk_window_present (window);
}

static void
on_about (GSimpleAction *action,
          GVariant      *parameter,
          gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  const char *developers[] = { "The Headroom developers", NULL };

  adw_show_about_window (gtk_application_get_active_window (app),
                         "application-name", _("Headroom"),
                         "application-icon", APP_ID,
                         "developer-name", _("The Headroom developers"),
                         "version", PACKAGE_VERSION,
                         "comments", _("Will this language model fit your GPU? Memory, "
                                       "context and speed for llama.cpp, Ollama and vLLM, "
                                       "offline."),
                         "website", "https://github.com/headroom-app/headroom",
                         "issue-url", "https://github.com/headroom-app/headroom/issues",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "developers", developers,
                         /* TRANSLATORS: your name, one per line */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
on_quit (GSimpleAction *action,
         GVariant      *parameter,
         gpointer       user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

/* The style the menu chooses: follow the system, or always light or
 * dark (issue 30, polish), kept in GSettings ("style"). */
static void
apply_style (const char *style)
{
  AdwColorScheme scheme = ADW_COLOR_SCHEME_DEFAULT;

  if (g_strcmp0 (style, "light") == 0)
    scheme = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_strcmp0 (style, "dark") == 0)
    scheme = ADW_COLOR_SCHEME_FORCE_DARK;
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), scheme);
}

static void
on_style_changed (GSimpleAction *action,
                  GVariant      *value,
                  gpointer       user_data)
{
  HrApplication *self = user_data;
  const char *style = g_variant_get_string (value, NULL);

  if (!g_str_equal (style, "system") && !g_str_equal (style, "light") &&
      !g_str_equal (style, "dark"))
    return;
  g_simple_action_set_state (action, value);
  apply_style (style);
  if (self->settings != NULL)
    {
      g_autofree char *saved = g_settings_get_string (self->settings, "style");

      if (g_strcmp0 (saved, style) != 0)
        g_settings_set_string (self->settings, "style", style);
    }
}

static const GActionEntry app_actions[] = {
  { "about", on_about },
  { "quit", on_quit },
  { "style", NULL, "s", "'system'", on_style_changed },
};

static GSettings *
settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source == NULL)
    return NULL;
  schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, "style"))
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

static gpointer
load_catalog (gpointer data)
{
  hr_catalog_get_default ();
  return NULL;
}

/* GTK reads the icon theme on a thread as soon as it creates it, during
 * gtk_init(); GtkApplication and libadwaita then add their resource
 * paths to it, and each addition throws the theme away (GTK 4.8).  The
 * window's first icon would read it again, on the main thread: 50 M
 * instructions before the first frame.  Read here, on another CPU while
 * the window is built, the theme is ready when the window needs it.
 * GTK's own loader does the same from a thread; the theme's lock
 * serializes lookups. */
static gpointer
load_icon_theme (gpointer data)
{
  g_autoptr(GtkIconTheme) theme = data;

  gtk_icon_theme_has_icon (theme, "open-menu-symbolic");
  return NULL;
}

static void
hr_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Ctrl>q", NULL };
  /* As GtkApplication sets it when it finds gtk/help-overlay.ui. */
  static const char *help_accels[] = { "<Control>question", NULL };

  /* The catalog (the built-in one and the user's files: a third of the
   * window's construction) is read while GTK starts, on another CPU; the
   * window's first call waits for it (hr_catalog_get_default() is
   * once-only and thread-safe). */
  g_thread_unref (g_thread_new ("headroom-catalog", load_catalog, NULL));

  G_APPLICATION_CLASS (hr_application_parent_class)->startup (app);

  g_thread_unref (g_thread_new ("headroom-icons", load_icon_theme,
                                g_object_ref (gtk_icon_theme_get_for_display (gdk_display_get_default ()))));

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions,
                                   G_N_ELEMENTS (app_actions), app);
  {
    HrApplication *self = HR_APPLICATION (app);

    self->settings = settings_new ();
    if (self->settings != NULL)
      {
        g_autofree char *style = g_settings_get_string (self->settings, "style");

        g_action_group_change_action_state (G_ACTION_GROUP (app), "style",
                                            g_variant_new_string (style));
      }
  }
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay",
                                         help_accels);
}

static void
hr_application_finalize (GObject *object)
{
  g_clear_object (&HR_APPLICATION (object)->settings);
  G_OBJECT_CLASS (hr_application_parent_class)->finalize (object);
}

static void
hr_application_class_init (HrApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = hr_application_finalize;

  app_class->activate = hr_application_activate;
  app_class->startup = hr_application_startup;
}

static void
hr_application_init (HrApplication *self)
{
}

HrApplication *
hr_application_new (void)
{
  return g_object_new (HR_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       "resource-base-path", "/io/github/headroom_app/Headroom",
                       NULL);
}
