#!/bin/sh
# Installs what Headroom needs to build, run and test on Debian 12, once:
# packages already present are not touched.  Needs root (or sudo).
set -eu

# clang and libclang-rt-14-dev build the libFuzzer targets, llvm gives the
# sanitizers llvm-symbolizer for readable stack traces (CI's sanitizer
# stage, build-aux/run-sanitizers.sh); gcc's AddressSanitizer runtime
# comes with gcc.
packages="meson ninja-build pkg-config gcc libglib2.0-dev libglib2.0-bin
libjson-glib-dev libsoup-3.0-dev libgtk-4-dev libadwaita-1-dev gettext desktop-file-utils
appstream xvfb xauth locales python3 clang libclang-rt-14-dev llvm"

missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing="$missing $p"
done

as_root () {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if [ -n "$missing" ]; then
  echo "Installing:$missing"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  # shellcheck disable=SC2086
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi

# The Italian locale lets the tests check decimal commas.
if ! locale -a 2>/dev/null | grep -qi '^it_IT\.utf-\?8$'; then
  as_root sed -i 's/^# *\(it_IT.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  grep -q '^it_IT.UTF-8 UTF-8' /etc/locale.gen || echo 'it_IT.UTF-8 UTF-8' | as_root tee -a /etc/locale.gen >/dev/null
  as_root locale-gen >/dev/null
fi
