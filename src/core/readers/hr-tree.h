/* hr-tree.h — reading files inside one directory tree, defensively
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Detection reads /sys and /proc (or a fake copy of them under a test's
 * root) and the model scan reads caches that other programs write.  Both
 * read through a tree: every path is resolved (symbolic links included)
 * and must stay inside the tree's root; only regular files are read,
 * opened non-blocking so that a FIFO or a device never blocks, and never
 * more than the caller's cap.
 */

#pragma once

#include <gio/gio.h>
#include <glib/gstdio.h>

G_BEGIN_DECLS

typedef struct _HrTree HrTree;

HrTree     *hr_tree_new          (const char   *root);
void        hr_tree_free         (HrTree       *self);
const char *hr_tree_get_root     (HrTree       *self);
char       *hr_tree_build        (HrTree       *self,
                                  const char   *path);
char       *hr_tree_resolve      (HrTree       *self,
                                  const char   *path,
                                  GError      **error);
gboolean    hr_tree_contains     (HrTree       *self,
                                  const char   *real_path);
gboolean    hr_tree_stat         (HrTree       *self,
                                  const char   *path,
                                  GStatBuf     *buf,
                                  GError      **error);
gboolean    hr_tree_read         (HrTree       *self,
                                  const char   *path,
                                  gsize         max_bytes,
                                  char        **contents,
                                  gsize        *length,
                                  gboolean     *truncated,
                                  GError      **error);
char       *hr_tree_read_line    (HrTree       *self,
                                  const char   *path);
gboolean    hr_tree_read_u64     (HrTree       *self,
                                  const char   *path,
                                  guint64      *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrTree, hr_tree_free)

G_END_DECLS
