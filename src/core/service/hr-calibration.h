/* hr-calibration.h — speed corrections measured on this computer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli calibrate` compares llama-bench rows and llama.cpp timing
 * lines run here with Headroom's estimate for the same settings; the
 * ratio measured ÷ estimated, averaged geometrically over the runs, is a
 * correction factor for one device and backend, kept apart for decode and
 * for prompts.  Estimates of llama.cpp and Ollama on that device and
 * backend are then multiplied by it ("calibrated on this computer from N
 * runs") unless --no-calibration.
 *
 * The factors live in one JSON file in the user data directory
 * ($XDG_DATA_HOME/headroom/calibration/calibration.json: not directly in
 * headroom/, whose *.json files are catalog files), written atomically; that
 * file is the export (copy it to another computer's same place).  A file
 * that cannot be read as calibration is moved aside (".corrupt-N") with a
 * note, never fatal.
 */

#pragma once

#include "hr-estimate.h"

G_BEGIN_DECLS

#define HR_CALIBRATION_FILE "calibration.json"
#define HR_CALIBRATION_VERSION 1
/* A factor past these is a broken measurement, not a computer: 20× slower
 * or faster than the estimate (the speed model's worst held-out rows are
 * within ±60 %, tests/calibration/speed/README.md). */
#define HR_CALIBRATION_FACTOR_MIN 0.05
#define HR_CALIBRATION_FACTOR_MAX 20.0
/* Entries kept: devices × backends of one computer, with a margin. */
#define HR_CALIBRATION_MAX_ENTRIES 64

typedef struct
{
  char *hardware;               /* catalog id */
  HrBackend backend;
  double decode_factor;         /* 1 with no decode runs */
  guint32 decode_runs;
  double prefill_factor;
  guint32 prefill_runs;
} HrCalibrationEntry;

typedef struct _HrCalibration HrCalibration;

HrCalibration *hr_calibration_new            (void);
HrCalibration *hr_calibration_ref            (HrCalibration       *self);
void           hr_calibration_unref          (HrCalibration       *self);
char          *hr_calibration_dup_default_path (void);
HrCalibration *hr_calibration_load           (const char          *path,
                                              char               **note);
HrCalibration *hr_calibration_load_default   (char               **note);
gboolean       hr_calibration_save           (const HrCalibration *self,
                                              const char          *path,
                                              GError             **error);
char          *hr_calibration_to_data        (const HrCalibration *self,
                                              gsize               *length);
guint          hr_calibration_get_n_entries  (const HrCalibration *self);
const HrCalibrationEntry *hr_calibration_get_entry (const HrCalibration *self,
                                                    guint                index);
const HrCalibrationEntry *hr_calibration_find (const HrCalibration *self,
                                               const char          *hardware,
                                               HrBackend            backend);
void           hr_calibration_set            (HrCalibration       *self,
                                              const HrCalibrationEntry *entry);
guint32        hr_calibration_apply          (const HrCalibration *self,
                                              const char          *hardware,
                                              HrEstimate          *estimate);

/* Accumulates runs of one device and backend (a geometric mean). */
typedef struct
{
  double decode_log_sum;
  guint32 decode_runs;
  double prefill_log_sum;
  guint32 prefill_runs;
} HrCalibrationSum;

gboolean       hr_calibration_sum_add        (HrCalibrationSum    *sum,
                                              gboolean             prompt,
                                              double               measured,
                                              double               estimated);
void           hr_calibration_sum_to_entry   (const HrCalibrationSum *sum,
                                              HrCalibrationEntry  *entry);

const char    *hr_backend_id                 (HrBackend            backend);
gboolean       hr_backend_from_log_name      (const char          *name,
                                              HrBackend           *backend);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrCalibration, hr_calibration_unref)

G_END_DECLS
