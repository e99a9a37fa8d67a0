/* fake-trees.h — fake /sys, /proc and model caches for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Builds, under a test's directory, what detection and the model scan
 * read on a real machine, in the kernel's and the tools' own formats.
 * Used by the C tests and, through make-fake-tree, by the CLI tests.
 */

#pragma once

#include <glib.h>

#include "hr-local-models.h"

G_BEGIN_DECLS

/* Systems: "amd" (RX 7900 XTX), "intel-arc" (Arc A770 and the CPU's
 * integrated GPU), "igpu" (integrated only, SMBIOS memory readable),
 * "strix-halo" (Ryzen AI Max), "nvidia-sysfs" (an RTX 3060 seen by sysfs
 * only), "hostile" (malformed files, FIFOs, link loops and escapes),
 * "absurd" ("amd" with 2^64 - 1 bytes of VRAM and of RAM, and no
 * /proc/cpuinfo), "empty". */
void          hr_fake_system_write      (const char *root,
                                         const char *scenario);

/* Models under @home, in every tool's layout: see fake-trees.c. */
void          hr_fake_models_write      (const char *home);
/* @n files in @n / 1000 directories under @dir: a cache too big to scan. */
void          hr_fake_models_write_many (const char *dir,
                                         guint       n);
HrLocalRoots *hr_fake_models_roots      (const char *home);
void          hr_fake_write_tiny_gguf   (const char *path,
                                         const char *name);

G_END_DECLS
