/* make-fake-tree.c — fake systems and model caches for the CLI tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   make-fake-tree system SCENARIO ROOT
 *   make-fake-tree models HOME
 *   make-fake-tree many DIR N
 */

#include "config.h"

#include <stdlib.h>

#include "fake-trees.h"

int
main (int    argc,
      char **argv)
{
  if (argc == 4 && g_str_equal (argv[1], "system"))
    hr_fake_system_write (argv[3], argv[2]);
  else if (argc == 3 && g_str_equal (argv[1], "models"))
    hr_fake_models_write (argv[2]);
  else if (argc == 4 && g_str_equal (argv[1], "many"))
    hr_fake_models_write_many (argv[2], (guint) atoi (argv[3]));
  else
    {
      g_printerr ("usage: make-fake-tree system SCENARIO ROOT | models HOME | many DIR N\n");
      return 2;
    }
  return 0;
}
