/* hr-commands.h — launch commands for vLLM, SGLang, llama.cpp and Ollama
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A command is built from the estimate of a scenario (so it carries the
 * placement, the cache type and the context the numbers assume) by one
 * builder per engine, as lines: notes for the user, programs with their
 * arguments, and files to write.  hr_command_to_shell() renders them as a
 * POSIX shell snippet with every word quoted where it must be, so that
 * what a user pastes runs what Headroom estimated.  A combination the
 * engine would refuse gives no command but an error saying why.  A
 * layout over several machines gives one section per machine, each with
 * the lines to run there; the head machine's address is a placeholder.
 */

#pragma once

#include "hr-engine.h"
#include "hr-scenario.h"

G_BEGIN_DECLS

typedef enum
{
  HR_COMMAND_VLLM,
  HR_COMMAND_LLAMACPP,
  HR_COMMAND_OLLAMA,
  HR_COMMAND_SGLANG,
} HrCommandKind;

#define HR_N_COMMAND_KINDS 4

#define HR_VLLM_DEFAULT_PORT 8000
#define HR_LLAMACPP_DEFAULT_PORT 8080
#define HR_SGLANG_DEFAULT_PORT 30000
/* Ray's GCS port on the head machine (`ray start --head`'s default). */
#define HR_RAY_HEAD_PORT 6379
/* SGLang's --dist-init-addr port on node 0 (its multi-node examples). */
#define HR_SGLANG_DIST_INIT_PORT 5000

/* The engine versions the commands are written for (README, "Launch
 * commands"): each line's options exist there with these meanings. */
#define HR_COMMAND_LLAMACPP_MIN_BUILD "b7553"   /* -ngl counts the output layer first (b7467), -ngl all */
#define HR_COMMAND_VLLM_MIN_VERSION   "0.21"    /* V1 engine, CUDA graph memory profiled */
#define HR_COMMAND_OLLAMA_MIN_VERSION "0.30"    /* llama-server with --fit underneath */
#define HR_COMMAND_SGLANG_MIN_VERSION "0.5"     /* --pp-size, --dist-init-addr, fp8_e4m3 cache */

typedef enum
{
  HR_COMMAND_LINE_NOTE,        /* a comment for the user (translated) */
  HR_COMMAND_LINE_RUN,         /* environment assignments, program, arguments */
  HR_COMMAND_LINE_FILE,        /* a file to write, line by line */
  HR_COMMAND_LINE_MACHINE,     /* the lines after it run on one machine */
} HrCommandLineKind;

/* Which machine a HR_COMMAND_LINE_MACHINE section is for. */
typedef enum
{
  HR_MACHINE_HEAD,             /* the head (node rank 0), before the others */
  HR_MACHINE_WORKER,           /* one of the others */
  HR_MACHINE_HEAD_LAST,        /* the head again, once all have joined */
} HrMachineRole;

typedef struct
{
  HrCommandLineKind kind;
  char *text;                  /* NOTE: the note; FILE: the file name;
                                * MACHINE: its title */
  GStrv argv;                  /* RUN: "VAR=value"… then program, arguments;
                                * FILE: the file's lines */
  guint n_env;                 /* RUN: the first n_env words are "VAR=value" */
  GArray *breaks;              /* RUN: indices of argv that start a new
                                * continued line (guint) */
  guint node;                  /* MACHINE: its node rank (0 = the head) */
  guint n_nodes;               /*   of that many machines */
  HrMachineRole role;
} HrCommandLine;

/* A word the user must replace before running the command, and with
 * what (translated). */
typedef struct
{
  char *word;
  char *meaning;
} HrCommandPlaceholder;

typedef struct
{
  HrCommandKind kind;
  GPtrArray *lines;            /* HrCommandLine */
  gboolean placeholder;        /* a word the user must replace */
  GPtrArray *placeholders;     /* HrCommandPlaceholder, each word once */
  guint n_nodes;               /* machines the command runs on */
} HrCommand;

#define HR_COMMAND_ERROR (hr_command_error_quark ())

typedef enum
{
  HR_COMMAND_ERROR_CANNOT_RUN,  /* the engine would refuse, or it does not fit */
} HrCommandError;

GQuark      hr_command_error_quark       (void);
gboolean    hr_command_kind_from_string  (const char        *str,
                                          HrCommandKind     *kind);
const char *hr_command_kind_to_string    (HrCommandKind      kind);

HrCommand  *hr_command_build             (HrCommandKind      kind,
                                          const HrScenario  *scenario,
                                          GError           **error);
/* As hr_command_build(); when there is no command, @fix and @fix_gpus
 * (either may be %NULL) say what change of the scenario would make the
 * engine accept it (HR_FIX_NONE: none known). */
HrCommand  *hr_command_build_with_fix    (HrCommandKind      kind,
                                          const HrScenario  *scenario,
                                          HrFix             *fix,
                                          guint32           *fix_gpus,
                                          GError           **error);
char       *hr_command_to_shell          (const HrCommand   *command);
/* One RUN or FILE line as the shell text that runs or writes it. */
char       *hr_command_line_to_shell     (const HrCommandLine *line);
void        hr_command_free              (HrCommand         *command);

/* The shell text, or the reason as a note when there is none. */
char       *hr_command_generate          (HrCommandKind      kind,
                                          const HrScenario  *scenario);

/* A word as a POSIX shell reads it back: unquoted when it is made of
 * safe characters only, single-quoted otherwise. */
char       *hr_shell_quote_word          (const char        *word);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrCommand, hr_command_free)

G_END_DECLS
