/* hr-serving-table.h — a server under load: users × context, and a curve
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "hr-catalog.h"
#include "hr-serving-plan.h"

G_BEGIN_DECLS

#define HR_TYPE_SERVING_TABLE (hr_serving_table_get_type ())

G_DECLARE_FINAL_TYPE (HrServingTable, hr_serving_table, HR, SERVING_TABLE, GObject)

/* The rows and columns of the table: users, and contexts up to the
 * model's trained length (4K, 8K, 32K, 128K: the common serving lengths,
 * the matrix's marks and a short chat's). */
#define HR_SERVING_TABLE_USERS     { 1, 4, 8, 16, 32, 64, 128 }
#define HR_SERVING_TABLE_CONTEXTS  { 4096, 8192, 32768, 131072 }
#define HR_SERVING_TABLE_N_USERS     7
#define HR_SERVING_TABLE_MAX_CONTEXTS 4
/* The curve's users: about √2 apart, from one to at most 1,024 (vLLM's
 * largest max_num_seqs) per replica. */
#define HR_SERVING_CURVE_USERS     { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, \
                                     192, 256, 384, 512, 768, 1024 }
#define HR_SERVING_CURVE_MAX_POINTS 20
/* The curve reaches at least this many users, and twice the cache's limit. */
#define HR_SERVING_CURVE_MIN_USERS 128
/* A GGUF precision's nearest safetensors checkpoint, for switching to a
 * serving engine: 4- and 5-bit files become AWQ INT4 (~4.5 bpw with its
 * scales), 6- to 8-bit FP8 (8 bpw), wider BF16. */
#define HR_SERVING_INT4_MAX_BPW    5.6
#define HR_SERVING_FP8_MAX_BPW     9.0
/* A rate this close to the target is shown as near it: within the 25 %
 * the serving model is checked to (tests/accuracy, throughput). */
#define HR_SERVING_NEAR_SHARE      0.75

typedef enum
{
  HR_SERVING_READY,            /* figures for every cell and point */
  HR_SERVING_NOT_SERVING,      /* the engine is not vLLM or SGLang */
  HR_SERVING_INVALID,          /* the engine refuses the scenario */
  HR_SERVING_NO_FIT,           /* one sequence of the context does not fit */
} HrServingStatus;

typedef enum
{
  HR_SERVING_CELL_MEETS,       /* ≥ the target */
  HR_SERVING_CELL_NEAR,        /* ≥ HR_SERVING_NEAR_SHARE × the target */
  HR_SERVING_CELL_BELOW,
  HR_SERVING_CELL_CACHE_FULL,  /* the cache holds fewer users at once */
  HR_SERVING_CELL_NO_FIT,      /* not one sequence of this context */
  HR_SERVING_CELL_INVALID,     /* the engine refuses it */
} HrServingCellState;

typedef struct
{
  guint32 users;
  guint64 context;
  HrServingCellState state;
  double per_user_tokens_per_s;
  double aggregate_tokens_per_s;
  guint32 users_served;
} HrServingCell;

typedef struct
{
  guint32 users;
  double per_user_tokens_per_s;   /* of a user being served */
  double aggregate_tokens_per_s;
  guint32 users_served;
} HrServingPoint;

HrServingTable       *hr_serving_table_new                 (void);
void                  hr_serving_table_update              (HrServingTable   *self,
                                                            const HrScenario *scenario);
guint                 hr_serving_table_get_n_updates       (HrServingTable   *self);

HrServingStatus       hr_serving_table_get_status          (HrServingTable   *self);
const char           *hr_serving_table_get_error_message   (HrServingTable   *self);
HrEngine              hr_serving_table_get_engine          (HrServingTable   *self);

guint                 hr_serving_table_get_n_users         (HrServingTable   *self);
guint                 hr_serving_table_get_n_contexts      (HrServingTable   *self);
guint64               hr_serving_table_get_context         (HrServingTable   *self,
                                                            guint             column);
guint32               hr_serving_table_get_users           (HrServingTable   *self,
                                                            guint             row);
gboolean              hr_serving_table_get_any_fits        (HrServingTable   *self);
const HrServingCell  *hr_serving_table_get_cell            (HrServingTable   *self,
                                                            guint             row,
                                                            guint             column);

const HrServingPoint *hr_serving_table_get_points          (HrServingTable   *self,
                                                            guint            *n_points);
guint32               hr_serving_table_get_cache_limit     (HrServingTable   *self);
guint32               hr_serving_table_get_max_users       (HrServingTable   *self);
guint64               hr_serving_table_get_load_prompt     (HrServingTable   *self);
double                hr_serving_table_get_target          (HrServingTable   *self);
const HrEstimate     *hr_serving_table_get_estimate        (HrServingTable   *self);
const HrServingPlan  *hr_serving_table_get_plan            (HrServingTable   *self);

HrPrecision          *hr_serving_precision                 (HrCatalog        *catalog,
                                                            HrPrecision      *precision);
guint32               hr_serving_largest_tp                (const HrModelArch *arch,
                                                            guint32            gpus);
HrServingCellState    hr_serving_rate_state                (double            rate,
                                                            double            target);

G_END_DECLS
