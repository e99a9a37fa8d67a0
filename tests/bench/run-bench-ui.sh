#!/bin/sh
# run-bench-ui.sh BUILDDIR [RUNS] — medians of bench-ui for an empty
# libadwaita window, the same with one label, and Headroom, under one Xvfb
# server at 1280×800.  The three run in turn (empty, label, Headroom, empty,
# …) so that a machine slowing down or speeding up during the runs moves
# all three alike.
set -eu
build=${1:-_build}
runs=${2:-7}
export GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory
export GSETTINGS_SCHEMA_DIR="$build/data" XDG_DATA_HOME=$(mktemp -d)
xvfb-run -a -s "-screen 0 1280x800x24" sh -c "
  for i in \$(seq $runs); do
    for mode in empty label headroom; do $build/tests/bench/bench-ui \$mode | sed \"s/^/\$mode /\"; done
  done" | python3 -c '
import sys, statistics, collections
v = collections.defaultdict(list)
for line in sys.stdin:
    mode, key, value = line.split()
    v[mode + " " + key].append(float(value))
for k in sorted(v):
    print("%-40s median %8.2f  (n = %d)" % (k, statistics.median(v[k]), len(v[k])))
'
