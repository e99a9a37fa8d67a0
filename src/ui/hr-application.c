/* hr-application.c — the Headroom application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hr-application"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-application.h"
#include "hr-window.h"

struct _HrApplication
{
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (HrApplication, hr_application, ADW_TYPE_APPLICATION)

static void
hr_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (hr_window_new (HR_APPLICATION (app)));
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

static const GActionEntry app_actions[] = {
  { "about", on_about },
  { "quit", on_quit },
};

/* GTK starts loading the icon theme in a thread when the display opens,
 * but the icon paths GtkApplication and libadwaita add at start-up throw
 * that away, and the first frame would load the theme again, on the main
 * thread (callgrind: 66 M instructions, a sixth of what the window adds
 * to start-up).  It is loaded again here, in a thread, under the theme's
 * own lock, while the window is being built. */
static void
load_icon_theme (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  gtk_icon_theme_has_icon (GTK_ICON_THEME (source_object), "open-menu-symbolic");
  g_task_return_boolean (task, TRUE);
}

static void
preload_icon_theme (void)
{
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());
  g_autoptr(GTask) task = g_task_new (theme, NULL, NULL, NULL);

  g_task_set_name (task, "[headroom] icon theme");
  g_task_run_in_thread (task, load_icon_theme);
}

static void
hr_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Ctrl>q", NULL };
  /* As GtkApplication sets it when it finds gtk/help-overlay.ui. */
  static const char *help_accels[] = { "<Control>question", NULL };

  G_APPLICATION_CLASS (hr_application_parent_class)->startup (app);
  preload_icon_theme ();

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions,
                                   G_N_ELEMENTS (app_actions), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay",
                                         help_accels);
}

static void
hr_application_class_init (HrApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

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
