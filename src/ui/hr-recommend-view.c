/* hr-recommend-view.c — "What can I run": the ranked list for this device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The calculator's device, GPU count and RAM, a task, a least context and
 * a least speed give an HrRecommendQuery; hr_recommend_add_model() (core)
 * estimates each catalog model in an idle callback of its own, so that the
 * first ranking of a fresh catalog (some 350 ms of CPU,
 * docs/quality-and-cost.md) never blocks a frame; then the candidates are sorted and the
 * best HR_RECOMMEND_VIEW_ROWS shown, each with its memory, speeds, quality
 * tier and energy, and a button that opens it in the calculator.  The
 * list is ranked again only when the query changes, not at every
 * recomputation of the calculator.
 *
 * Prices: an electricity price per kWh (one for every device) and a
 * rental price per hour for each device, kept in GSettings (price-kwh,
 * price-per-hour keyed by device id) when the schema is installed; a
 * price per hour, where set, is used rather than the kWh one (a rental
 * pays for its power).
 */

#define G_LOG_DOMAIN "hr-recommend-view"

#include "config.h"

#include <glib/gi18n.h>

#include "hr-recommend-view.h"
#include "hr-ui-format.h"

/* Rows shown: the best of the ranking; the summary says how many fit. */
#define HR_RECOMMEND_VIEW_ROWS 50
/* Models estimated per idle callback: a few milliseconds of work on a
 * fresh catalog, well inside a frame. */
#define MODELS_PER_IDLE 2

struct _HrRecommendView
{
  HrView parent_instance;

  AdwComboRow *task_row;
  AdwComboRow *context_row;
  GtkSpinButton *speed_spin;
  GtkSpinButton *kwh_spin;
  GtkSpinButton *hour_spin;
  AdwActionRow *hour_row;
  GSettings *settings;        /* NULL when the schema is not installed */
  gboolean loading_prices;
  GtkLabel *summary;
  GtkListBox *list;

  HrRecommendQuery query;     /* the query of the list shown or being made */
  gboolean have_query;
  GArray *candidates;         /* HrCandidate, ranked when ranked is TRUE */
  GArray *pending;            /* being made */
  guint next_model;
  guint idle_id;
  gboolean ranked;
};

G_DEFINE_FINAL_TYPE (HrRecommendView, hr_recommend_view, HR_TYPE_VIEW)

enum { SIGNAL_RANKED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The combo rows' entries, in HrTask order. */
static const char *
task_label (HrTask task)
{
  switch (task)
    {
    case HR_TASK_CHAT:
      return _("Chat");
    case HR_TASK_CODE:
      return _("Code");
    case HR_TASK_REASONING:
      return _("Reasoning");
    case HR_TASK_VISION:
      return _("Images");
    case HR_TASK_LONG:
      return _("Long documents");
    case HR_TASK_SERVING:
      return _("Serving many users");
    case HR_N_TASKS:
    default:
      return "";
    }
}

/* The least contexts offered; 0 = the task's default. */
static const guint64 contexts[] = { 0, 4096, 8192, 16384, 32768, 65536, 131072 };

static const char *
engine_label (HrEngine engine)
{
  switch (engine)
    {
    case HR_ENGINE_VLLM:
      return "vLLM";
    case HR_ENGINE_SGLANG:
      return "SGLang";
    case HR_ENGINE_OLLAMA:
      return "Ollama";
    case HR_ENGINE_LLAMACPP:
    case HR_ENGINE_GENERIC:
    case HR_ENGINE_AUTO:
    default:
      return "llama.cpp";
    }
}

/* ----------------------------------------------------------- prices */

/* Settings are optional, as the window's (hr-window-settings.c). */
static GSettings *
settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source == NULL)
    return NULL;
  schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, "price-per-hour"))
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

static double
hour_price_for (HrRecommendView *self,
                HrHardware      *hardware)
{
  g_autoptr(GVariant) prices = NULL;
  double price = 0;

  if (self->settings == NULL || hardware == NULL)
    return 0;
  prices = g_settings_get_value (self->settings, "price-per-hour");
  if (!g_variant_lookup (prices, hr_hardware_get_id (hardware), "d", &price))
    return 0;
  return price;
}

static void
save_prices (HrRecommendView *self,
             HrHardware      *hardware)
{
  g_autoptr(GVariant) old = NULL;
  GVariantBuilder builder;
  GVariantIter iter;
  const char *id;
  double price;

  if (self->settings == NULL || self->loading_prices)
    return;
  g_settings_set_double (self->settings, "price-kwh", gtk_spin_button_get_value (self->kwh_spin));
  if (hardware == NULL)
    return;
  old = g_settings_get_value (self->settings, "price-per-hour");
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{sd}"));
  g_variant_iter_init (&iter, old);
  while (g_variant_iter_next (&iter, "{&sd}", &id, &price))
    if (g_strcmp0 (id, hr_hardware_get_id (hardware)) != 0)
      g_variant_builder_add (&builder, "{sd}", id, price);
  price = gtk_spin_button_get_value (self->hour_spin);
  if (price > 0)
    g_variant_builder_add (&builder, "{sd}", hr_hardware_get_id (hardware), price);
  g_settings_set_value (self->settings, "price-per-hour", g_variant_builder_end (&builder));
}

/* ------------------------------------------------------------- rows */

static void
open_candidate (GtkButton       *button,
                HrRecommendView *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "candidate"));
  HrCalculator *calc = hr_view_get_calculator (HR_VIEW (self));
  const HrCandidate *c;

  if (calc == NULL || self->candidates == NULL || index >= self->candidates->len)
    return;
  c = &g_array_index (self->candidates, HrCandidate, index);
  hr_calculator_freeze (calc);
  hr_calculator_set_model (calc, c->model);
  hr_calculator_set_precision (calc, c->precision);
  hr_calculator_set_engine (calc, c->engine);
  hr_calculator_set_context (calc, c->context);
  hr_calculator_thaw (calc);
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-view", "s", "overview");
}

static char *
quality_text (const HrCandidate *c)
{
  const char *tier = hr_quality_tier_label (c->tier);

  if (c->quality.measured)
    /* TRANSLATORS: "Quality: Good (KLD 0.031)"; KLD is the KL divergence
     * against the 16-bit model, as published */
    return g_strdup_printf (_("Quality: %s (KLD %.3f)"), tier, c->quality.kld);
  /* TRANSLATORS: "Quality: Not measured" or "Quality: Reference" */
  return g_strdup_printf (_("Quality: %s"), tier);
}

static GtkWidget *
make_row (HrRecommendView   *self,
          const HrCandidate *c,
          guint              index)
{
  guint units = hr_view_get_units (HR_VIEW (self));
  g_autofree char *memory = hr_ui_format_size (self, c->total_bytes, units);
  g_autofree char *decode = hr_ui_format_rate (self, c->decode_tokens_per_s);
  g_autofree char *prefill = hr_ui_format_rate (self, c->prefill_tokens_per_s);
  g_autofree char *context = hr_ui_format_tokens (self, c->context);
  g_autofree char *quality = quality_text (c);
  g_autofree char *cost = c->cost_per_million >= 0
                          /* TRANSLATORS: the price of a million generated tokens, in the
                           * currency of the prices set above: "· 0.61 per million tokens" */
                          ? g_strdup_printf (_(" · %.2f per million tokens"), c->cost_per_million)
                          : g_strdup ("");
  g_autofree char *energy = c->joules_per_token > 0
                            /* TRANSLATORS: energy of one generated token, "7.0 J/token" */
                            ? g_strdup_printf (_("%.1f J/token"), c->joules_per_token)
                            : g_strdup (_("energy unknown"));
  /* TRANSLATORS: a set-up: precision · engine · context in tokens, e.g.
   * "Q4_K_M · llama.cpp · 8,192 tokens"; then memory · decode speed ·
   * prompt speed; then the quality and the energy per token */
  g_autofree char *subtitle = g_strdup_printf (_("%s · %s · %s tokens\n"
                                                 "%s · %s · prompt %s\n"
                                                 "%s · %s%s"),
                                               hr_precision_get_label (c->precision),
                                               engine_label (c->engine), context, memory,
                                               decode, prefill, quality, energy, cost);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *button = gtk_button_new_with_label (_("Open"));

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), hr_model_spec_get_name (c->model));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, _("Open this set-up in the calculator"));
  g_object_set_data (G_OBJECT (button), "candidate", GUINT_TO_POINTER (index));
  g_signal_connect_object (button, "clicked", G_CALLBACK (open_candidate), self, 0);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), button);
  return row;
}

static void
show_list (HrRecommendView *self)
{
  GtkWidget *child;
  guint shown = MIN (self->candidates->len, HR_RECOMMEND_VIEW_ROWS);
  g_autofree char *summary = NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  for (guint i = 0; i < shown; i++)
    gtk_list_box_append (self->list, make_row (self, &g_array_index (self->candidates,
                                                                      HrCandidate, i), i));
  gtk_widget_set_visible (GTK_WIDGET (self->list), shown > 0);

  if (self->candidates->len == 0)
    summary = g_strdup (_("Nothing in the catalog fits this device at this context and speed."));
  else
    /* TRANSLATORS: %1$u set-ups fit, the best %2$u are listed */
    summary = g_strdup_printf (ngettext ("%1$u set-up fits (best %2$u shown). Ranked by quality "
                                         "tier, then by parameter count, then by speed.",
                                         "%1$u set-ups fit (best %2$u shown). Ranked by quality "
                                         "tier, then by parameter count, then by speed.",
                                         self->candidates->len),
                               self->candidates->len, shown);
  gtk_label_set_text (self->summary, summary);
}

/* -------------------------------------------------------- the ranking */

static void
stop_ranking (HrRecommendView *self)
{
  g_clear_handle_id (&self->idle_id, g_source_remove);
  g_clear_pointer (&self->pending, g_array_unref);
}

static gboolean
rank_some (gpointer data)
{
  HrRecommendView *self = data;
  HrCalculator *calc = hr_view_get_calculator (HR_VIEW (self));
  HrCatalog *catalog = calc ? hr_calculator_get_catalog (calc) : NULL;
  GListModel *models = catalog ? hr_catalog_get_models (catalog) : NULL;
  guint n = models ? g_list_model_get_n_items (models) : 0;

  for (guint k = 0; k < MODELS_PER_IDLE && self->next_model < n; k++, self->next_model++)
    {
      g_autoptr(HrModelSpec) model = g_list_model_get_item (models, self->next_model);

      hr_recommend_add_model (catalog, &self->query, model, self->pending, NULL);
    }
  if (self->next_model < n)
    return G_SOURCE_CONTINUE;

  self->idle_id = 0;
  hr_recommend_sort (self->pending);
  g_clear_pointer (&self->candidates, g_array_unref);
  self->candidates = g_steal_pointer (&self->pending);
  self->ranked = TRUE;
  show_list (self);
  g_signal_emit (self, signals[SIGNAL_RANKED], 0);
  return G_SOURCE_REMOVE;
}

/* The query from the calculator's device and the controls. */
static gboolean
make_query (HrRecommendView  *self,
            HrRecommendQuery *query)
{
  HrCalculator *calc = hr_view_get_calculator (HR_VIEW (self));
  const HrScenario *s = calc ? hr_calculator_get_scenario (calc) : NULL;
  guint context = adw_combo_row_get_selected (self->context_row);
  guint task = adw_combo_row_get_selected (self->task_row);

  if (s == NULL || s->hardware == NULL)
    return FALSE;
  *query = (HrRecommendQuery) {
    .hardware = s->hardware,
    .gpus = hr_hardware_is_unified (s->hardware) ? 1 : MAX (s->gpus, 1),
    .ram = s->ram,
    .task = task < HR_N_TASKS ? (HrTask) task : HR_TASK_CHAT,
    .context = context < G_N_ELEMENTS (contexts) ? contexts[context] : 0,
    .min_tokens_per_s = gtk_spin_button_get_value (self->speed_spin),
    .price = {
      .per_kwh = gtk_spin_button_get_value (self->kwh_spin),
      .per_hour = gtk_spin_button_get_value (self->hour_spin),
    },
  };
  return TRUE;
}

static gboolean
same_query (const HrRecommendQuery *a,
            const HrRecommendQuery *b)
{
  return a->hardware == b->hardware && a->gpus == b->gpus && a->ram.bytes == b->ram.bytes &&
         a->ram.bandwidth_gbps == b->ram.bandwidth_gbps && a->task == b->task &&
         a->context == b->context && a->min_tokens_per_s == b->min_tokens_per_s &&
         a->price.per_kwh == b->price.per_kwh && a->price.per_hour == b->price.per_hour;
}

static void
update (HrView *view)
{
  HrRecommendView *self = HR_RECOMMEND_VIEW (view);
  HrCalculator *calc = hr_view_get_calculator (view);
  HrHardware *hardware = calc ? hr_calculator_get_scenario (calc)->hardware : NULL;
  HrRecommendQuery query;

  /* another device: its own rental price */
  if (hardware != NULL && (!self->have_query || hardware != self->query.hardware))
    {
      g_autofree char *title = NULL;

      self->loading_prices = TRUE;
      gtk_spin_button_set_value (self->hour_spin, hour_price_for (self, hardware));
      self->loading_prices = FALSE;
      /* TRANSLATORS: %s is a device, "RTX 3060 12GB" */
      title = g_strdup_printf (_("Rental price per hour of the %s"),
                               hr_hardware_get_name (hardware));
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->hour_row), title);
    }
  if (!make_query (self, &query))
    return;
  if (self->have_query && same_query (&query, &self->query))
    {
      /* the units may have changed: the rows follow */
      if (self->ranked)
        show_list (self);
      return;
    }
  stop_ranking (self);
  self->query = query;
  self->have_query = TRUE;
  self->ranked = FALSE;
  self->pending = g_array_new (FALSE, TRUE, sizeof (HrCandidate));
  self->next_model = 0;
  gtk_label_set_text (self->summary, _("Ranking the catalog…"));
  self->idle_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, rank_some, self, NULL);
}

static void
on_control_changed (HrRecommendView *self)
{
  update (HR_VIEW (self));
}

static void
on_price_changed (HrRecommendView *self)
{
  if (self->loading_prices)
    return;
  save_prices (self, self->have_query ? self->query.hardware : NULL);
  update (HR_VIEW (self));
}

/* --------------------------------------------------------------- GObject */

static void
hr_recommend_view_dispose (GObject *object)
{
  HrRecommendView *self = HR_RECOMMEND_VIEW (object);

  stop_ranking (self);
  g_clear_pointer (&self->candidates, g_array_unref);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (hr_recommend_view_parent_class)->dispose (object);
}

static void
hr_recommend_view_class_init (HrRecommendViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  HrViewClass *view_class = HR_VIEW_CLASS (klass);

  object_class->dispose = hr_recommend_view_dispose;
  view_class->refresh = update;

  /**
   * HrRecommendView::ranked:
   *
   * The list shows the ranking of the current query.
   */
  signals[SIGNAL_RANKED] = g_signal_new ("ranked", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 0);
}

static void
hr_recommend_view_init (HrRecommendView *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *clamp = adw_clamp_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *controls = adw_preferences_group_new ();
  GtkWidget *speed_row = adw_action_row_new ();
  GtkWidget *prices = adw_preferences_group_new ();
  GtkWidget *kwh_row = adw_action_row_new ();
  g_autoptr(GtkStringList) tasks = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) context_names = gtk_string_list_new (NULL);

  for (guint t = 0; t < HR_N_TASKS; t++)
    gtk_string_list_append (tasks, task_label (t));
  for (guint i = 0; i < G_N_ELEMENTS (contexts); i++)
    {
      g_autofree char *name = contexts[i] == 0
                              ? g_strdup (_("The task's default"))
                              : hr_ui_format_tokens (self, contexts[i]);

      gtk_string_list_append (context_names, name);
    }

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (controls), _("What can I run"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (controls),
                                         _("Every catalog model, precision and engine that fits "
                                           "the selected device, best quality first."));

  self->task_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->task_row), _("Task"));
  adw_combo_row_set_model (self->task_row, G_LIST_MODEL (tasks));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (controls), GTK_WIDGET (self->task_row));

  self->context_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->context_row), _("Least context"));
  adw_combo_row_set_model (self->context_row, G_LIST_MODEL (context_names));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (controls), GTK_WIDGET (self->context_row));

  self->speed_spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, 1000, 1));
  gtk_widget_set_valign (GTK_WIDGET (self->speed_spin), GTK_ALIGN_CENTER);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (speed_row), _("Least speed, tokens/s"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (speed_row), _("0: no floor"));
  adw_action_row_add_suffix (ADW_ACTION_ROW (speed_row), GTK_WIDGET (self->speed_spin));
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (speed_row),
                                         GTK_WIDGET (self->speed_spin));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->speed_spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Least speed, tokens/s"), -1);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (controls), speed_row);

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (prices), _("Cost"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (prices),
                                         _("Energy is the board power while the GPU works on a "
                                           "token: an upper bound. A rental price, where set, is "
                                           "used instead of the electricity price. 0: none."));
  self->kwh_spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, 1000, 0.01));
  gtk_spin_button_set_digits (self->kwh_spin, 3);
  gtk_widget_set_valign (GTK_WIDGET (self->kwh_spin), GTK_ALIGN_CENTER);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (kwh_row), _("Electricity price per kWh"));
  adw_action_row_add_suffix (ADW_ACTION_ROW (kwh_row), GTK_WIDGET (self->kwh_spin));
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (kwh_row), GTK_WIDGET (self->kwh_spin));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->kwh_spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Electricity price per kWh"),
                                  -1);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (prices), kwh_row);

  self->hour_row = ADW_ACTION_ROW (adw_action_row_new ());
  self->hour_spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, 100000, 0.1));
  gtk_spin_button_set_digits (self->hour_spin, 2);
  gtk_widget_set_valign (GTK_WIDGET (self->hour_spin), GTK_ALIGN_CENTER);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->hour_row), _("Rental price per hour"));
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (self->hour_row), FALSE);
  adw_action_row_add_suffix (self->hour_row, GTK_WIDGET (self->hour_spin));
  adw_action_row_set_activatable_widget (self->hour_row, GTK_WIDGET (self->hour_spin));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->hour_spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Rental price per hour"), -1);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (prices), GTK_WIDGET (self->hour_row));

  self->summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->summary, TRUE);
  gtk_label_set_xalign (self->summary, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->summary), "dim-label");

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  gtk_widget_set_visible (GTK_WIDGET (self->list), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Set-ups that fit, best first"), -1);

  gtk_box_append (GTK_BOX (box), controls);
  gtk_box_append (GTK_BOX (box), prices);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->summary));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->list));
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 900);
  adw_clamp_set_child (ADW_CLAMP (clamp), box);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), clamp);
  adw_bin_set_child (ADW_BIN (self), scrolled);

  self->settings = settings_new ();
  if (self->settings != NULL)
    gtk_spin_button_set_value (self->kwh_spin, g_settings_get_double (self->settings, "price-kwh"));
  g_signal_connect_swapped (self->kwh_spin, "value-changed", G_CALLBACK (on_price_changed), self);
  g_signal_connect_swapped (self->hour_spin, "value-changed", G_CALLBACK (on_price_changed),
                            self);
  adw_combo_row_set_selected (self->task_row, HR_TASK_CHAT);
  g_signal_connect_swapped (self->task_row, "notify::selected",
                            G_CALLBACK (on_control_changed), self);
  g_signal_connect_swapped (self->context_row, "notify::selected",
                            G_CALLBACK (on_control_changed), self);
  g_signal_connect_swapped (self->speed_spin, "value-changed",
                            G_CALLBACK (on_control_changed), self);
}

/* ---------------------------------------------------------------- API */

gboolean
hr_recommend_view_is_ranked (HrRecommendView *self)
{
  g_return_val_if_fail (HR_IS_RECOMMEND_VIEW (self), FALSE);
  return self->ranked;
}

guint
hr_recommend_view_get_n_candidates (HrRecommendView *self)
{
  g_return_val_if_fail (HR_IS_RECOMMEND_VIEW (self), 0);
  return self->ranked && self->candidates ? self->candidates->len : 0;
}

const HrCandidate *
hr_recommend_view_get_candidate (HrRecommendView *self,
                                 guint            index)
{
  g_return_val_if_fail (HR_IS_RECOMMEND_VIEW (self), NULL);
  if (!self->ranked || self->candidates == NULL || index >= self->candidates->len)
    return NULL;
  return &g_array_index (self->candidates, HrCandidate, index);
}

void
hr_recommend_view_set_task (HrRecommendView *self,
                            HrTask           task)
{
  g_return_if_fail (HR_IS_RECOMMEND_VIEW (self));
  adw_combo_row_set_selected (self->task_row, task);
}

void
hr_recommend_view_set_min_tokens_per_s (HrRecommendView *self,
                                        double           rate)
{
  g_return_if_fail (HR_IS_RECOMMEND_VIEW (self));
  gtk_spin_button_set_value (self->speed_spin, rate);
}

GtkWidget *
hr_recommend_view_get_list (HrRecommendView *self)
{
  g_return_val_if_fail (HR_IS_RECOMMEND_VIEW (self), NULL);
  return GTK_WIDGET (self->list);
}

/* The prices, as the spin buttons set them (tests). */
void
hr_recommend_view_set_prices (HrRecommendView *self,
                              double           per_kwh,
                              double           per_hour)
{
  g_return_if_fail (HR_IS_RECOMMEND_VIEW (self));
  gtk_spin_button_set_value (self->kwh_spin, per_kwh);
  gtk_spin_button_set_value (self->hour_spin, per_hour);
}
