#!/bin/sh
# The sanitizer stage of CI, in two trees beside _build:
#
#  _build-asan  the whole program with AddressSanitizer and UBSan; the
#               core, CLI and widget tests run under them, with
#               LeakSanitizer, and any report fails the test.
#  _build-fuzz  clang: each libFuzzer target replays its seeds, then
#               fuzzes from them for FUZZ_SECONDS (default 25) seconds.
#
# Test logs: _build-asan/meson-logs/testlog-core.json, testlog.json and
# _build-fuzz/meson-logs/testlog.json (build-aux/summarize-tests.py).
set -eu
cd "$(dirname "$0")/.."
src=$(pwd)

setup () {
  # setup DIR [OPTIONS…]: configure once, reconfigure after
  dir=$1; shift
  if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" "$@" >/dev/null
  else
    meson setup "$dir" "$@" >/dev/null
  fi
}

status=0

# Recovering from a UBSan report would only print it: abort instead.
setup _build-asan -Db_sanitize=address,undefined -Db_lundef=false \
  -Dc_args="-fno-sanitize-recover=all -fno-omit-frame-pointer"
ninja -C _build-asan

# G_SLICE: GLib 2.74 keeps freed blocks in its slice allocator, which
#   hides leaks from LeakSanitizer.
# GDK_DEBUG: the widget tests draw with cairo, but GDK still probes GL,
#   and Mesa's software driver leaks while it is probed.
# GIO_MODULE_DIR: GIO loads the modules of gio/modules (dconf's, where
#   dconf-gsettings-backend is installed) at the first GFile or GSettings
#   and keeps each GIOModule without a reference LeakSanitizer can follow
#   (96 bytes and a file name, reported through GLib frames a suppression
#   cannot name).  The tests use no module (GSETTINGS_BACKEND=memory):
#   they load none.
# fast_unwind_on_malloc=0 (core tests): GLib is built without frame
#   pointers, so the fast unwinder stops inside it and a suppression
#   (lsan.supp) cannot see the GLib frame that owns a leak of
#   G_TEST_OPTION_ISOLATE_DIRS; eight frames reach it.  It triples the
#   time of a test: the other suites, without that option, keep the fast
#   unwinder.
# handle_segv=0: the detection tests crash an NVML stub on purpose and
#   check that the crash is reported as one (a signal); ASan's handler
#   would turn it into exit status 1.
no_modules="$src/_build-asan/no-gio-modules"
mkdir -p "$no_modules"
export GIO_MODULE_DIR="$no_modules"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions="$src/tests/sanitizers/lsan.supp":print_suppressions=0
export G_SLICE=always-malloc
export GDK_DEBUG=gl-disable
asan=halt_on_error=1:detect_leaks=1:abort_on_error=1:handle_segv=0
# The core tests (G_TEST_OPTION_ISOLATE_DIRS) with the slow unwinder, the
# others (the CLI's processes, GTK) with the fast one; two logs.
ASAN_OPTIONS=$asan:fast_unwind_on_malloc=0:malloc_context_size=8 \
  meson test -C _build-asan --print-errorlogs --timeout-multiplier 6 \
    --suite core --logbase testlog-core || status=$?
ASAN_OPTIONS=$asan \
  meson test -C _build-asan --print-errorlogs --timeout-multiplier 3 \
    --suite cli --suite ui --suite accuracy || status=$?

if command -v clang >/dev/null 2>&1; then
  CC=clang setup _build-fuzz -Dgui=false -Dfuzz_seconds="${FUZZ_SECONDS:-25}"
  ninja -C _build-fuzz
  meson test -C _build-fuzz --print-errorlogs --suite fuzz --suite fuzz-smoke || status=$?
else
  echo "clang is missing: no fuzz targets" >&2
  status=1
fi

exit $status
