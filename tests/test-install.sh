#!/bin/sh
# test-install.sh BUILDDIR SRCDIR — `meson install` with --prefix=/app into a
# temporary DESTDIR holds everything the Flatpak needs, and the manifest is
# valid JSON naming the app id and command.  Output is TAP.
set -u
build="$1"
src="$2"
app=io.github.headroom_app.Headroom
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

ok () {
  n=$((n + 1))
  if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}

# A separate build configured like flatpak-builder's (prefix /app), so the
# developer's build directory is left alone.
meson setup "$tmp/build" "$src" --prefix=/app -Dbuildtype=release >"$tmp/setup.log" 2>&1
ok $? "meson setup --prefix=/app"
meson compile -C "$tmp/build" >"$tmp/compile.log" 2>&1
ok $? "meson compile"
DESTDIR="$tmp/dest" meson install -C "$tmp/build" --no-rebuild >"$tmp/install.log" 2>&1
ok $? "meson install into DESTDIR"

root="$tmp/dest/app"
for f in bin/headroom bin/headroom-cli; do
  [ -x "$root/$f" ]; ok $? "$f installed and executable"
done
for f in share/applications/$app.desktop \
         share/metainfo/$app.metainfo.xml \
         share/icons/hicolor/scalable/apps/$app.svg \
         share/icons/hicolor/symbolic/apps/$app-symbolic.svg \
         share/glib-2.0/schemas/$app.gschema.xml \
         share/locale/it/LC_MESSAGES/headroom.mo \
         share/man/man1/headroom-cli.1; do
  [ -s "$root/$f" ]; ok $? "$f installed"
done

# The schema compiles where it was installed (the post-install hook is
# skipped under DESTDIR, as flatpak-builder runs its own).
glib-compile-schemas --strict "$root/share/glib-2.0/schemas" 2>"$tmp/schemas.log" &&
  [ -s "$root/share/glib-2.0/schemas/gschemas.compiled" ]
ok $? "schemas compile to gschemas.compiled"

grep -q "^Exec=headroom" "$root/share/applications/$app.desktop"
ok $? "desktop file launches headroom"
grep -q "<binary>headroom</binary>" "$root/share/metainfo/$app.metainfo.xml"
ok $? "metainfo provides the binary"

"$root/bin/headroom-cli" models --json >/dev/null
ok $? "installed headroom-cli runs with its built-in catalog"

python3 - "$src/flatpak/$app.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["id"] == "io.github.headroom_app.Headroom", m["id"]
assert m["command"] == "headroom"
assert m["runtime"] == "org.gnome.Platform" and m["sdk"] == "org.gnome.Sdk"
args = m["finish-args"]
# The only files of its own it reads are the model folders of the usual
# tools, read-only (the rest goes through the file chooser portal).
models = {"~/.cache/huggingface", "~/.ollama", "~/.lmstudio", "~/.cache/lm-studio",
          "~/.cache/llama.cpp"}
for a in args:
    if a.startswith("--filesystem="):
        path, _, mode = a[len("--filesystem="):].partition(":")
        assert path in models and mode == "ro", a
# NVML needs /dev/nvidiactl and /dev/nvidiaN, which --device=dri exposes.
assert "--device=all" not in args, args
for a in ("--share=ipc", "--socket=wayland", "--socket=fallback-x11", "--device=dri"):
    assert a in args, a
assert m["modules"][-1]["buildsystem"] == "meson"
PY
ok $? "flatpak manifest is valid JSON with the app id, command and minimal permissions"

echo "1..$n"
[ $failed -eq 0 ]
