#!/bin/sh
# Builds Headroom and runs every test but test-install (the `install`
# suite, a second full build: .ci/run runs it once); ends with
# "N passed, N failed".
set -eu
cd "$(dirname "$0")/.."
sh build-aux/install-deps.sh
if [ -f _build/build.ninja ]; then
  meson setup --reconfigure _build >/dev/null
else
  meson setup _build >/dev/null
fi
ninja -C _build
status=0
meson test -C _build --print-errorlogs --no-suite install || status=$?
python3 build-aux/summarize-tests.py _build/meson-logs/testlog.json
exit $status
