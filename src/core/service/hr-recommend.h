/* hr-recommend.h — what runs on a machine, best first
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For a device (+ RAM), a task and floors, every catalog model ×
 * precision × engine that fits at the context asked, each estimated by
 * the same hr_scenario_estimate() as `estimate`, ranked by the rule in
 * hr-recommend.c ("The ranking").  Pure: no GObject state, no I/O.
 */

#pragma once

#include "hr-catalog.h"
#include "hr-energy.h"
#include "hr-quality.h"
#include "hr-scenario.h"
#include "hr-tasks.h"

G_BEGIN_DECLS

/* The context every candidate must hold when none is asked: 8192 tokens,
 * a conversation of some dozens of turns or a few pages of a document
 * with room for the answer — a stated choice, not a measurement. */
#define HR_RECOMMEND_DEFAULT_CONTEXT 8192
/* For the task "long" (long documents): 65536 tokens, half of the
 * 131072-token window the task asks a model to be trained for. */
#define HR_RECOMMEND_LONG_CONTEXT    65536
/* A model qualifies for "long" when trained for this many tokens. */
#define HR_RECOMMEND_LONG_MIN_TRAINED 131072
/* How models of different sizes are compared, as the JSON's "basis"
 * says: by total parameter count (a larger model of the same tier
 * first).  No published benchmark covers the whole catalog with one
 * method, so none is used. */
#define HR_RECOMMEND_BASIS "parameters"

typedef struct
{
  HrHardware *hardware;      /* borrowed */
  guint32 gpus;              /* 0 = 1 */
  HrSystemMemory ram;        /* zero = the stated assumption */
  HrTask task;
  guint64 context;           /* the floor; 0 = the task's default */
  double min_tokens_per_s;   /* decode floor; 0 = none */
  HrPrice price;             /* for cost_per_million; zero = none */
} HrRecommendQuery;

typedef struct
{
  HrModelSpec *model;        /* borrowed from the catalog */
  HrPrecision *precision;    /* borrowed */
  HrEngine engine;
  guint64 context;
  HrVerdict verdict;
  HrPlacementKind placement;
  guint64 total_bytes;
  guint64 host_bytes;
  double decode_tokens_per_s;
  double prefill_tokens_per_s;
  HrQualityTier tier;
  HrQuality quality;         /* .measured FALSE: not measured */
  double joules_per_token;   /* 0: unknown */
  double cost_per_million;   /* < 0: no price or unknown */
} HrCandidate;

typedef struct
{
  guint considered;          /* model × precision × engine tried */
  guint estimated;           /* estimates run */
} HrRecommendStats;

guint64   hr_recommend_context        (const HrRecommendQuery *query);
gboolean  hr_recommend_model_qualifies (HrModelSpec           *model,
                                        HrTask                 task,
                                        guint64                context);
void      hr_recommend_add_model      (HrCatalog              *catalog,
                                       const HrRecommendQuery *query,
                                       HrModelSpec            *model,
                                       GArray                 *out,
                                       HrRecommendStats       *stats);
void      hr_recommend_sort           (GArray                 *candidates);
GArray   *hr_recommend                (HrCatalog              *catalog,
                                       const HrRecommendQuery *query,
                                       HrRecommendStats       *stats);
void      hr_recommend_scenario       (HrCatalog              *catalog,
                                       const HrRecommendQuery *query,
                                       const HrCandidate      *candidate,
                                       HrScenario             *scenario);
char     *hr_recommend_command        (HrCatalog              *catalog,
                                       const HrRecommendQuery *query,
                                       const HrCandidate      *candidate);
int       hr_candidate_compare        (const HrCandidate      *a,
                                       const HrCandidate      *b);

G_END_DECLS
