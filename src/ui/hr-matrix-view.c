/* hr-matrix-view.c — the precision × context matrix
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One row per precision and one column per context size, as on the seed
 * page (panel P7).  The context columns are built at runtime and rebuilt
 * whenever the matrix's contexts change, as Nautilus builds its list
 * columns.  Every figure is read from the HrMatrix rows: the view formats,
 * it never computes memory.
 */

#define G_LOG_DOMAIN "hr-matrix-view"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "hr-caption-layout.h"
#include "hr-format.h"
#include "hr-matrix-view.h"
#include "hr-summary.h"
#include "hr-table-view.h"
#include "hr-ui-format.h"

/* What the entry accepts; HrMatrix itself holds up to 16. */
#define MAX_EDIT_CONTEXTS 8
#define MAX_CONTEXT_COLUMNS 16

/* The fixed columns before the context columns. */
#define N_LEADING_COLUMNS 3

typedef enum
{
  CELL_PRECISION,
  CELL_BPW,
  CELL_WEIGHTS,
  CELL_TOTAL,          /* index: which context */
  CELL_TIER,
} CellKind;

#define CELL_CODE(kind, index) (((index) << 8) | (kind))
#define CELL_KIND(code) ((code) & 0xff)
#define CELL_INDEX(code) ((code) >> 8)

struct _HrMatrixView
{
  HrTableView parent_instance;

  /* GtkColumnViewColumn, one per context, in order */
  GPtrArray *context_columns;
  guint64 column_contexts[MAX_CONTEXT_COLUMNS];
  guint n_column_contexts;

  /* tooltips of the total cells, by verdict, for the current device */
  char *verdict_tooltips[3];

  /* template children */
  GtkLabel *caption_label;
  GtkLabel *status_label;
  GtkLabel *budget_label;
  GtkEntry *contexts_entry;
  GtkColumnView *column_view;
  GtkSortListModel *sort_model;
  GtkColumnViewColumn *tier_column;
};

G_DEFINE_FINAL_TYPE (HrMatrixView, hr_matrix_view, HR_TYPE_TABLE_VIEW)

static HrMatrix *
get_matrix (HrMatrixView *self)
{
  return HR_MATRIX (hr_table_view_get_rows (HR_TABLE_VIEW (self)));
}

/* Context lists as the entry shows them: "8192, 32768, 131072". */
static char *
format_contexts (const guint64 *contexts,
                 guint          n_contexts)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < n_contexts; i++)
    {
      if (i > 0)
        g_string_append (text, ", ");
      g_string_append_printf (text, "%" G_GUINT64_FORMAT, contexts[i]);
    }
  return g_string_free (text, FALSE);
}

static int
compare_guint64 (gconstpointer a,
                 gconstpointer b)
{
  guint64 x = *(const guint64 *) a;
  guint64 y = *(const guint64 *) b;

  return (x > y) - (x < y);
}

/* Parses "8K, 32K, 128K" or "8192 32768": sizes in tokens with an
 * optional K (1,024) or M (1,048,576) suffix, separated by commas,
 * semicolons or spaces.  The result is sorted and without duplicates;
 * on failure @message says why, in words for the entry's tooltip. */
static gboolean
parse_contexts (const char  *text,
                guint64     *contexts,
                guint       *n_contexts,
                char       **message)
{
  g_auto(GStrv) tokens = g_strsplit_set (text, ",; \t\n", -1);
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint n = 0;

  for (guint i = 0; tokens[i] != NULL; i++)
    {
      const char *token = tokens[i];
      char *end = NULL;
      guint64 value;
      guint64 multiplier = 1;

      if (*token == '\0')
        continue;

      value = g_ascii_isdigit (*token) ? g_ascii_strtoull (token, &end, 10) : 0;
      if (end != NULL && (*end == 'k' || *end == 'K'))
        multiplier = 1024, end++;
      else if (end != NULL && (*end == 'm' || *end == 'M'))
        multiplier = 1024 * 1024, end++;

      if (end == NULL || *end != '\0')
        {
          /* TRANSLATORS: %s is what the user typed; K and M are the
           * suffixes the entry accepts (1,024 and 1,048,576 tokens) */
          *message = g_strdup_printf (_("“%s” is not a context size: write a number of "
                                        "tokens such as 8192, 32K or 1M"), token);
          return FALSE;
        }
      if (value == 0 || value > HR_CONTEXT_MAX / multiplier)
        {
          g_autofree char *max = hr_format_tokens (HR_CONTEXT_MAX);

          /* TRANSLATORS: %s is what the user typed, then the largest
           * context in tokens (2,147,483,647) */
          *message = g_strdup_printf (_("“%s” is out of range: a context is between 1 and "
                                        "%s tokens"), token, max);
          return FALSE;
        }
      value *= multiplier;
      g_array_append_val (values, value);
    }

  g_array_sort (values, compare_guint64);
  for (guint i = 0; i < values->len; i++)
    {
      guint64 value = g_array_index (values, guint64, i);

      if (n > 0 && contexts[n - 1] == value)
        continue;
      if (n == MAX_EDIT_CONTEXTS)
        {
          *message = g_strdup_printf (ngettext ("Enter at most %u context size",
                                                "Enter at most %u context sizes",
                                                MAX_EDIT_CONTEXTS),
                                      MAX_EDIT_CONTEXTS);
          return FALSE;
        }
      contexts[n++] = value;
    }

  if (n == 0)
    {
      *message = g_strdup (_("Enter at least one context size, such as 32K"));
      return FALSE;
    }

  *n_contexts = n;
  return TRUE;
}

static void
set_widget_verdict_class (GtkWidget *widget,
                          HrVerdict  verdict,
                          gboolean   show)
{
  const char *state = NULL;

  if (show && verdict == HR_VERDICT_NO_FIT)
    state = "error";
  else if (show && verdict == HR_VERDICT_TIGHT)
    state = "warning";
  hr_ui_set_state_class (widget, state);
}

static void
update_cell (HrTableView *table,
             GtkWidget   *widget,
             gpointer     item,
             guint        code)
{
  HrMatrixView *self = HR_MATRIX_VIEW (table);
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  HrMatrix *matrix = get_matrix (self);
  guint units = hr_view_get_units (HR_VIEW (self));
  GtkInscription *inscription = GTK_INSCRIPTION (widget);
  HrMatrixRow *row = item;
  guint index = CELL_INDEX (code);
  g_autofree char *text = NULL;
  g_autofree char *markup = NULL;
  const char *tooltip = NULL;
  g_autofree char *tooltip_owned = NULL;

  switch (CELL_KIND (code))
    {
    case CELL_PRECISION:
      {
        HrPrecision *precision = hr_matrix_row_get_precision (row);
        gboolean current = calculator != NULL &&
                           precision == hr_calculator_get_precision (calculator);

        if (current)
          {
            g_autofree char *escaped = g_markup_escape_text (hr_precision_get_label (precision),
                                                             -1);

            markup = g_strdup_printf ("<b>%s</b>", escaped);
            tooltip = _("Current precision");
          }
        else
          text = g_strdup (hr_precision_get_label (precision));
      }
      break;

    case CELL_BPW:
      /* Two decimals, as the seed page: "4.85". */
      text = g_strdup_printf ("%.2f", hr_precision_get_bpw (hr_matrix_row_get_precision (row)));
      break;

    case CELL_WEIGHTS:
      /* no context of the row could be estimated: no weights either */
      if (hr_matrix_row_get_weights_bytes (row) > 0)
        text = hr_format_size (hr_matrix_row_get_weights_bytes (row), units);
      else
        {
          text = g_strdup ("—");
          tooltip = _("These settings cannot be estimated");
        }
      break;

    case CELL_TOTAL:
      {
        gboolean valid = matrix != NULL &&
                         index < hr_matrix_get_n_contexts (matrix) &&
                         hr_matrix_row_get_valid (row, index);
        HrVerdict verdict = valid ? hr_matrix_row_get_verdict (row, index) : HR_VERDICT_NO_FIT;

        if (valid && hr_ui_engine_has_budget (hr_matrix_row_get_engine (row, index)))
          {
            g_autofree char *budget = NULL;

            /* the same budget at every context: what varies is how many
             * sequences of the context the cache holds */
            text = hr_ui_format_concurrency (hr_matrix_row_get_max_concurrency (row, index));
            budget = hr_ui_budget_tooltip (hr_matrix_row_get_engine (row, index),
                                           hr_matrix_row_get_total_bytes (row, index),
                                           hr_matrix_row_get_kv_capacity_tokens (row, index),
                                           hr_matrix_row_get_max_concurrency (row, index),
                                           hr_matrix_get_context (matrix, index), units);
            tooltip = tooltip_owned = g_strdup_printf ("%s\n%s", budget,
                                                       self->verdict_tooltips[verdict]);
          }
        else if (valid && verdict != HR_VERDICT_NO_FIT &&
                 hr_matrix_row_get_placement (row, index) != HR_PLACEMENT_GPU &&
                 hr_matrix_row_get_placement (row, index) != HR_PLACEMENT_SPLIT)
          {
            HrCalculator *calc = hr_view_get_calculator (HR_VIEW (self));

            /* layers in system RAM: the verdict every view names it by */
            text = hr_format_size (hr_matrix_row_get_total_bytes (row, index), units);
            /* TRANSLATORS: tooltip of a matrix cell, "Runs partly in system
             * RAM on RTX 3060 12GB" */
            tooltip = tooltip_owned =
              g_strdup_printf (_("%s on %s"),
                               hr_summary_verdict_label (verdict,
                                                         hr_matrix_row_get_placement (row, index)),
                               calc != NULL && hr_calculator_get_hardware (calc) != NULL
                               ? hr_hardware_get_name (hr_calculator_get_hardware (calc)) : "");
          }
        else if (valid)
          {
            text = hr_format_size (hr_matrix_row_get_total_bytes (row, index), units);
            tooltip = self->verdict_tooltips[verdict];
          }
        else
          {
            text = g_strdup ("—");
            tooltip = _("These settings cannot be estimated");
          }
        set_widget_verdict_class (widget, verdict, valid);
      }
      break;

    case CELL_TIER:
      {
        HrHardware *tier = hr_matrix_row_get_tier (row);

        if (tier != NULL)
          {
            guint tier_index = hr_matrix_get_tier_index (matrix);
            g_autofree char *context = NULL;

            context = hr_format_tokens (hr_matrix_get_context (matrix, tier_index));
            text = g_strdup (hr_hardware_get_name (tier));
            /* TRANSLATORS: %s is a number of tokens, e.g. 32,768 */
            tooltip = tooltip_owned =
              g_strdup_printf (_("The smallest device of the ladder that holds it at %s tokens"),
                               context);
          }
        else
          {
            text = g_strdup ("—");
            tooltip = _("No single device of the ladder holds it");
          }
      }
      break;

    default:
      g_assert_not_reached ();
    }

  if (markup != NULL)
    hr_ui_inscription_set_markup (inscription, markup);
  else if (g_object_get_data (G_OBJECT (inscription), "hr-inscription-markup") != NULL)
    {
      /* set_markup() leaves attributes behind; cells are recycled. */
      g_object_set_data (G_OBJECT (inscription), "hr-inscription-markup", NULL);
      gtk_inscription_set_attributes (inscription, NULL);
      gtk_inscription_set_text (inscription, text);
    }
  else
    hr_ui_inscription_set_text (inscription, text);
  hr_ui_set_cell_tooltip (widget, tooltip);
}

static GtkWidget *
create_cell (HrTableView *table,
             guint        code)
{
  GtkWidget *inscription = gtk_inscription_new (NULL);

  switch (CELL_KIND (code))
    {
    case CELL_PRECISION:
      g_object_set (inscription,
                    "min-chars", 8,
                    "nat-chars", 12,
                    "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END,
                    NULL);
      break;

    case CELL_BPW:
      g_object_set (inscription, "min-chars", 5, "nat-chars", 5, "xalign", 1.0f, NULL);
      gtk_widget_add_css_class (inscription, "numeric");
      break;

    case CELL_WEIGHTS:
    case CELL_TOTAL:
      /* Wide enough for "1234.56 GiB" (digits are narrower than the
       * average character): columns keep their width while the context
       * or the model changes, and a number is never clipped. */
      g_object_set (inscription, "min-chars", 10, "nat-chars", 10, "xalign", 1.0f, NULL);
      gtk_widget_add_css_class (inscription, "numeric");
      break;

    case CELL_TIER:
      g_object_set (inscription,
                    "min-chars", 10,
                    "nat-chars", 18,
                    "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END,
                    NULL);
      break;

    default:
      g_assert_not_reached ();
    }

  return inscription;
}

/* Sorts a context column by its totals; cells that could not be
 * estimated go last. */
static int
compare_totals (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  HrMatrixRow *x = (HrMatrixRow *) a;
  HrMatrixRow *y = (HrMatrixRow *) b;
  guint index = GPOINTER_TO_UINT (user_data);
  gboolean x_valid = hr_matrix_row_get_valid (x, index);
  gboolean y_valid = hr_matrix_row_get_valid (y, index);
  guint64 x_total, y_total;

  if (x_valid != y_valid)
    return x_valid ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;

  x_total = hr_matrix_row_get_total_bytes (x, index);
  y_total = hr_matrix_row_get_total_bytes (y, index);
  return (x_total > y_total) - (x_total < y_total);
}

/* Rows without a recommended device go last. */
static int
compare_tiers (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  HrHardware *x = hr_matrix_row_get_tier ((HrMatrixRow *) a);
  HrHardware *y = hr_matrix_row_get_tier ((HrMatrixRow *) b);
  guint64 x_memory, y_memory;

  if (x == NULL || y == NULL)
    return (x == NULL) - (y == NULL);

  x_memory = hr_hardware_get_memory_bytes (x);
  y_memory = hr_hardware_get_memory_bytes (y);
  return (x_memory > y_memory) - (x_memory < y_memory);
}

static void
update_contexts_entry (HrMatrixView *self)
{
  g_autofree char *text = format_contexts (self->column_contexts, self->n_column_contexts);

  gtk_editable_set_text (GTK_EDITABLE (self->contexts_entry), text);
}

/* Builds one column per context of the matrix, between the weights and
 * the tier columns. */
static void
rebuild_context_columns (HrMatrixView *self)
{
  HrMatrix *matrix = get_matrix (self);
  guint n_contexts = matrix != NULL ? hr_matrix_get_n_contexts (matrix) : 0;
  g_autofree char *tier_title = NULL;

  for (guint i = 0; i < self->context_columns->len; i++)
    gtk_column_view_remove_column (self->column_view, self->context_columns->pdata[i]);
  g_ptr_array_set_size (self->context_columns, 0);

  self->n_column_contexts = MIN (n_contexts, MAX_CONTEXT_COLUMNS);
  for (guint i = 0; i < self->n_column_contexts; i++)
    {
      g_autoptr(GtkListItemFactory) factory = NULL;
      g_autoptr(GtkCustomSorter) sorter = NULL;
      g_autofree char *context = NULL;
      g_autofree char *title = NULL;
      GtkColumnViewColumn *column;

      factory = hr_table_view_cell_factory_new (HR_TABLE_VIEW (self), CELL_CODE (CELL_TOTAL, i));
      self->column_contexts[i] = hr_matrix_get_context (matrix, i);
      context = hr_format_context_short (self->column_contexts[i]);
      if (i == 0)
        /* TRANSLATORS: header of the first context column of the matrix:
         * total memory at a context size such as 8K; the next columns
         * are headed "@ 32K", "@ 128K" */
        title = g_strdup_printf (_("Total @ %s"), context);
      else
        /* TRANSLATORS: header of a context column of the matrix, e.g. "@ 32K" */
        title = g_strdup_printf (_("@ %s"), context);

      sorter = gtk_custom_sorter_new (compare_totals, GUINT_TO_POINTER (i), NULL);
      column = gtk_column_view_column_new (title, g_steal_pointer (&factory));
      gtk_column_view_column_set_sorter (column, GTK_SORTER (sorter));
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_insert_column (self->column_view, N_LEADING_COLUMNS + i, column);
      g_ptr_array_add (self->context_columns, column);
    }

  if (self->n_column_contexts > 0)
    {
      guint tier_index = hr_matrix_get_tier_index (matrix);
      g_autofree char *context = hr_format_context_short (hr_matrix_get_context (matrix,
                                                                                 tier_index));

      /* TRANSLATORS: header of the matrix column naming the smallest
       * device that holds each precision at a context such as 32K */
      tier_title = g_strdup_printf (_("Recommended Tier @ %s"), context);
    }
  gtk_column_view_column_set_title (self->tier_column,
                                    tier_title != NULL ? tier_title : _("Recommended Tier"));

  update_contexts_entry (self);
}

static gboolean
context_columns_stale (HrMatrixView *self)
{
  HrMatrix *matrix = get_matrix (self);
  guint n_contexts = hr_matrix_get_n_contexts (matrix);

  if (MIN (n_contexts, MAX_CONTEXT_COLUMNS) != self->n_column_contexts)
    return TRUE;
  for (guint i = 0; i < self->n_column_contexts; i++)
    if (hr_matrix_get_context (matrix, i) != self->column_contexts[i])
      return TRUE;
  return FALSE;
}

static void
update_caption (HrMatrixView *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  g_autofree char *caption = NULL;
  g_autofree char *device = NULL;
  HrKvType *kv_type;
  HrHardware *hardware;
  HrEngine engine;
  guint gpus;

  if (calculator == NULL)
    {
      gtk_label_set_text (self->caption_label, "");
      return;
    }

  kv_type = hr_calculator_get_kv_type (calculator);
  hardware = hr_calculator_get_hardware (calculator);
  gpus = hr_calculator_get_gpu_count (calculator);

  if (hardware == NULL)
    device = g_strdup ("—");
  else if (gpus > 1)
    /* TRANSLATORS: a number of identical GPUs and their name, "2 × RTX 3090 24GB" */
    device = g_strdup_printf (_("%u × %s"), gpus, hr_hardware_get_name (hardware));
  else
    device = g_strdup (hr_hardware_get_name (hardware));

  /* TRANSLATORS: caption above the matrix: the batch size (parallel
   * sequences), the KV cache type (e.g. FP16) and the device whose
   * memory colours the cells */
  caption = g_strdup_printf (_("Total memory at batch %u, KV cache %s, on %s"),
                             hr_calculator_get_batch (calculator),
                             kv_type != NULL ? hr_kv_type_get_label (kv_type) : "—",
                             device);
  /* Automatic runs BF16, FP8, AWQ and GPTQ rows on vLLM */
  engine = hr_calculator_get_engine (calculator);
  gtk_widget_set_visible (GTK_WIDGET (self->budget_label),
                          engine == HR_ENGINE_AUTO || hr_ui_engine_has_budget (engine));
  gtk_label_set_text (self->caption_label, caption);
}

/* The totals' tooltips depend only on the device, not on the cell. */
static void
update_verdict_tooltips (HrMatrixView *self)
{
  HrCalculator *calculator = hr_view_get_calculator (HR_VIEW (self));
  HrHardware *hardware = NULL;
  g_autofree char *usable = NULL;
  const char *name;
  guint64 usable_bytes = 0;

  for (guint i = 0; i < G_N_ELEMENTS (self->verdict_tooltips); i++)
    g_clear_pointer (&self->verdict_tooltips[i], g_free);

  if (calculator != NULL)
    hardware = hr_calculator_get_hardware (calculator);
  if (hardware == NULL)
    return;

  g_object_get (calculator, "usable-bytes", &usable_bytes, NULL);
  usable = hr_format_size (usable_bytes, hr_view_get_units (HR_VIEW (self)));
  name = hr_hardware_get_name (hardware);

  /* TRANSLATORS: tooltip of a matrix cell: a device name, then the memory
   * it can give the model, e.g. "11.81 GiB" */
  self->verdict_tooltips[HR_VERDICT_COMFORTABLE] =
    g_strdup_printf (_("Fits comfortably on %s (%s usable)"), name, usable);
  /* TRANSLATORS: tooltip of a matrix cell: fits, with little to spare */
  self->verdict_tooltips[HR_VERDICT_TIGHT] =
    g_strdup_printf (_("Fits on %s, but tight (%s usable)"), name, usable);
  /* TRANSLATORS: tooltip of a matrix cell */
  self->verdict_tooltips[HR_VERDICT_NO_FIT] =
    g_strdup_printf (_("Does not fit on %s (%s usable)"), name, usable);
}

/* Runs before the matrix refreshes its rows (HrView connects first), so
 * that the cells re-formatted on “refreshed” see the new tooltips. */
static void
refresh (HrView *view)
{
  HrMatrixView *self = HR_MATRIX_VIEW (view);

  update_caption (self);
  update_verdict_tooltips (self);
  HR_VIEW_CLASS (hr_matrix_view_parent_class)->refresh (view);
}

static HrRowList *
create_rows (HrTableView  *table,
             HrCalculator *calculator)
{
  HrMatrix *matrix = hr_matrix_new (calculator);

  /* the precision chosen in the sidebar has a row, even outside the eight */
  hr_matrix_set_include_current (matrix, TRUE);
  return HR_ROW_LIST (matrix);
}

static void
attach (HrView       *view,
        HrCalculator *calculator)
{
  HR_VIEW_CLASS (hr_matrix_view_parent_class)->attach (view, calculator);
  rebuild_context_columns (HR_MATRIX_VIEW (view));
}

/* New rows may come with new contexts. */
static void
rows_changed (HrTableView *table)
{
  HrMatrixView *self = HR_MATRIX_VIEW (table);

  if (context_columns_stale (self))
    rebuild_context_columns (self);
}

static void
contexts_entry_changed_cb (HrMatrixView *self,
                           GtkEditable  *editable)
{
  guint64 contexts[MAX_EDIT_CONTEXTS];
  guint n_contexts = 0;
  g_autofree char *message = NULL;

  if (parse_contexts (gtk_editable_get_text (editable), contexts, &n_contexts, &message))
    {
      gtk_widget_remove_css_class (GTK_WIDGET (editable), "error");
      hr_ui_set_cell_tooltip (GTK_WIDGET (editable),
                                   _("Context sizes in tokens, separated by commas; "
                                     "K is 1,024 and M is 1,048,576 tokens (8K, 32K, 1M). "
                                     "Press Enter to apply."));
    }
  else
    {
      gtk_widget_add_css_class (GTK_WIDGET (editable), "error");
      hr_ui_set_cell_tooltip (GTK_WIDGET (editable), message);
    }
}

/* Applies the entry's contexts; returns FALSE if they are not valid. */
static gboolean
apply_contexts (HrMatrixView *self)
{
  HrMatrix *matrix = get_matrix (self);
  guint64 contexts[MAX_EDIT_CONTEXTS];
  guint n_contexts = 0;
  g_autofree char *message = NULL;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->contexts_entry));

  if (!parse_contexts (text, contexts, &n_contexts, &message))
    return FALSE;

  if (matrix != NULL &&
      (n_contexts != self->n_column_contexts ||
       memcmp (contexts, self->column_contexts, n_contexts * sizeof *contexts) != 0))
    hr_matrix_set_contexts (matrix, contexts, n_contexts);
  /* An empty matrix reports no change of its rows. */
  if (matrix != NULL && context_columns_stale (self))
    rebuild_context_columns (self);

  /* Shows the canonical form even when the contexts did not change. */
  update_contexts_entry (self);
  return TRUE;
}

static void
contexts_entry_activate_cb (HrMatrixView *self,
                            GtkEntry     *entry)
{
  if (!apply_contexts (self))
    gtk_widget_error_bell (GTK_WIDGET (entry));
}

/* Leaving the entry applies valid contexts as Enter does; invalid text
 * stays, flagged, for the user to correct. */
static void
contexts_entry_leave_cb (HrMatrixView *self)
{
  apply_contexts (self);
}

static void
hr_matrix_view_dispose (GObject *object)
{
  HrMatrixView *self = HR_MATRIX_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_MATRIX_VIEW);

  g_clear_pointer (&self->context_columns, g_ptr_array_unref);
  for (guint i = 0; i < G_N_ELEMENTS (self->verdict_tooltips); i++)
    g_clear_pointer (&self->verdict_tooltips[i], g_free);

  G_OBJECT_CLASS (hr_matrix_view_parent_class)->dispose (object);
}

static void
hr_matrix_view_class_init (HrMatrixViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  HrViewClass *view_class = HR_VIEW_CLASS (klass);
  HrTableViewClass *table_class = HR_TABLE_VIEW_CLASS (klass);

  object_class->dispose = hr_matrix_view_dispose;

  view_class->attach = attach;
  view_class->refresh = refresh;

  table_class->create_rows = create_rows;
  table_class->create_cell = create_cell;
  table_class->update_cell = update_cell;
  table_class->rows_changed = rows_changed;

  g_type_ensure (HR_TYPE_MATRIX_ROW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom_app/Headroom/"
                                               "ui/hr-matrix-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HrMatrixView, caption_label);
  gtk_widget_class_bind_template_child (widget_class, HrMatrixView, status_label);
  gtk_widget_class_bind_template_child (widget_class, HrMatrixView, budget_label);
  gtk_widget_class_bind_template_child (widget_class, HrMatrixView, contexts_entry);
  gtk_widget_class_bind_template_child (widget_class, HrMatrixView, column_view);
  gtk_widget_class_bind_template_child (widget_class, HrMatrixView, sort_model);
  gtk_widget_class_bind_template_child (widget_class, HrMatrixView, tier_column);
  gtk_widget_class_bind_template_callback (widget_class, contexts_entry_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, contexts_entry_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, contexts_entry_leave_cb);
}

static void
hr_matrix_view_init (HrMatrixView *self)
{
  HrTableView *table = HR_TABLE_VIEW (self);
  g_autoptr(GtkCustomSorter) sorter = NULL;
  GListModel *columns;

  self->context_columns = g_ptr_array_new_with_free_func (g_object_unref);

  gtk_widget_init_template (GTK_WIDGET (self));
  hr_caption_layout_apply (GTK_WIDGET (self->caption_label));

  /* The fixed columns are declared in the template with their titles
   * and sorters; their cells come from here. */
  columns = gtk_column_view_get_columns (self->column_view);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      CellKind kind = i < N_LEADING_COLUMNS ? (CellKind) i : CELL_TIER;

      hr_table_view_set_cell_factory (table, column, CELL_CODE (kind, 0));
    }

  sorter = gtk_custom_sorter_new (compare_tiers, NULL, NULL);
  gtk_column_view_column_set_sorter (self->tier_column, GTK_SORTER (sorter));
  hr_table_view_set_status_label (table, self->status_label);
  hr_table_view_set_column_view (table, self->column_view, self->sort_model, NULL, NULL);
  contexts_entry_changed_cb (self, GTK_EDITABLE (self->contexts_entry));
}

GtkWidget *
hr_matrix_view_new (void)
{
  return g_object_new (HR_TYPE_MATRIX_VIEW, NULL);
}

/**
 * hr_matrix_view_get_matrix:
 *
 * Returns: (transfer none) (nullable): the matrix shown, for the CSV export
 */
HrMatrix *
hr_matrix_view_get_matrix (HrMatrixView *self)
{
  g_return_val_if_fail (HR_IS_MATRIX_VIEW (self), NULL);
  return get_matrix (self);
}
