#!/bin/sh
# test-potfiles.sh SRCDIR — every file with translatable strings is listed in
# po/POTFILES.in, and every listed file exists.  Output is TAP.
set -u
src="$1"
cd "$src" || exit 1
n=0
failed=0
listed=$(grep -v '^#' po/POTFILES.in | grep -v '^$')

for f in $(grep -lE '\b(_|N_|C_|NC_|ngettext) ?\(' src/*.c src/ui/*.c 2>/dev/null) \
         $(grep -l 'translatable="yes"' resources/ui/*.ui resources/gtk/*.ui 2>/dev/null) \
         data/*.desktop.in data/*.metainfo.xml.in data/*.gschema.xml; do
  n=$((n + 1))
  if echo "$listed" | grep -qx "$f"; then
    echo "ok $n - $f is in POTFILES.in"
  else
    echo "not ok $n - $f has translatable strings but is missing from po/POTFILES.in"
    failed=$((failed + 1))
  fi
done

for f in $listed; do
  n=$((n + 1))
  if [ -f "$f" ]; then
    echo "ok $n - $f exists"
  else
    echo "not ok $n - $f is listed in po/POTFILES.in but does not exist"
    failed=$((failed + 1))
  fi
done

echo "1..$n"
[ $failed -eq 0 ]
