#!/bin/sh
# Builds Headroom and starts it on the built-in catalog.
set -eu
cd "$(dirname "$0")/.."
sh build-aux/install-deps.sh
[ -f _build/build.ninja ] || meson setup _build >/dev/null
ninja -C _build
# Run uninstalled: the schemas compiled in the build tree, its
# translations (the install prefix has none yet) and its detection helper.
GSETTINGS_SCHEMA_DIR=_build/data HEADROOM_LOCALEDIR="$PWD/_build/po" \
HEADROOM_DETECT_HELPER="$PWD/_build/src/helper/headroom-detect-helper" \
  exec ./_build/src/headroom "$@"
