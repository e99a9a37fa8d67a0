#!/bin/sh
# test-cli-local.sh — headroom-cli detect, local-models and --hardware local
# on fake systems (make-fake-tree) and stand-ins for libnvidia-ml.so.1.
# Usage: test-cli-local.sh CLI MAKE_FAKE_TREE NVML_STUB_DIR.  Output is TAP.
set -u
cli="$1"
make_tree="$2"
stubs="$3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

report () {
  # report OK DESCRIPTION DETAIL
  n=$((n + 1))
  if [ "$1" -eq 0 ]; then
    echo "ok $n - $2"
  else
    echo "not ok $n - $2 ($3)"
    failed=$((failed + 1))
  fi
}

system () {
  # system SCENARIO: a fresh fake root, its path in $root
  root="$tmp/$1"
  rm -rf "$root"
  "$make_tree" system "$1" "$root"
}

run () {
  # run NVML ARGS…: the CLI on $root, with NVML (a stub name or "none")
  nvml=""
  case "$1" in
    none) nvml="" ;;
    good) nvml="$stubs/libnvidia-ml.so.1" ;;
    *) nvml="$stubs/libnvml-stub-$1.so" ;;
  esac
  shift
  HEADROOM_SYSROOT="$root" HEADROOM_NVML_LIBRARY="$nvml" "$cli" "$@" >"$tmp/out" 2>"$tmp/err"
  status=$?
}

json_check () {
  # json_check DESCRIPTION PYTHON_EXPRESSION (on d, the parsed stdout)
  python3 - "$tmp/out" "$2" <<'PY' >"$tmp/why" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
if not eval(sys.argv[2]):
    print(json.dumps(d)[:600])
    sys.exit(1)
PY
  report $? "$1" "$(cat "$tmp/why")"
}

quiet_ok () {
  # quiet_ok DESCRIPTION: exit 0, nothing on stderr
  if [ "$status" -eq 0 ] && [ ! -s "$tmp/err" ]; then r=0; else r=1; fi
  report $r "$1" "status $status, stderr: $(cat "$tmp/err")"
}

# ---------------------------------------------------------------- detect

system amd
run none detect --json
quiet_ok "detect --json on an AMD machine"
json_check "the RX 7900 XTX is the catalog's, with free memory next to total" \
  'd["devices"][0]["id"] == "radeon-rx-7900-xtx-24gb" and d["devices"][0]["memory_bytes"] == 25753026560 and d["devices"][0]["free_bytes"] == 25753026560 - 1073741824 and d["devices"][0]["match"] == "pci-id" and d["devices"][0]["bandwidth_gbps"] > 0'
json_check "RAM and CPU" \
  'd["ram_bytes"] == 65536000 * 1024 and d["cpu"] == "AMD Ryzen 9 7950X 16-Core Processor" and d["cpu_cores"] == 16 and d["ram_assumed"] is True'

run none detect
if [ "$status" -eq 0 ] && grep -qF "catalog:   Radeon RX 7900 XTX 24GB (radeon-rx-7900-xtx-24gb, by PCI id)" "$tmp/out" \
   && grep -qF "CPU: AMD Ryzen 9 7950X" "$tmp/out"; then r=0; else r=1; fi
report $r "detect, readable" "$(cat "$tmp/out" "$tmp/err")"

system nvidia-sysfs
run good detect --json
json_check "detect through NVML: two GPUs, free memory, bandwidth from bus width × clock" \
  '[x["id"] for x in d["devices"]] == ["rtx-3060-12gb", "rtx-4090-24gb"] and d["devices"][0]["free_bytes"] == 12190990336 and abs(d["devices"][0]["bandwidth_gbps"] - 360.048) < 1e-6 and d["devices"][0]["pcie_generation"] == 4'

run no-driver detect --json
json_check "an NVML without its driver: the card by its PCI id, and a note" \
  'd["devices"][0]["id"] == "rtx-3060-12gb" and d["devices"][0]["free_bytes"] is None and any("Driver Not Loaded" in x for x in d["notes"])'

# A vendor library that crashes or never finishes loading: detect ends
# within its limit (HEADROOM_NVML_TIMEOUT_MS, 1 s in the tests; timeout(1)
# only stops a regression), exit 0, one line, sysfs's card stands.
for case in crash:'crashed (signal ' block:'did not answer within 1 s'; do
  stub=${case%%:*}
  why=${case#*:}
  HEADROOM_SYSROOT="$root" HEADROOM_NVML_LIBRARY="$stubs/libnvml-stub-$stub.so" \
    timeout -s KILL 60 "$cli" detect >"$tmp/out" 2>"$tmp/err"
  status=$?
  if [ "$status" -eq 0 ] && [ ! -s "$tmp/err" ] \
     && [ "$(grep -c 'GPU detection failed' "$tmp/out")" -eq 1 ] \
     && grep -qF "Note: GPU detection failed: libnvml-stub-$stub.so $why" "$tmp/out" \
     && grep -qF "catalog:   RTX 3060 12GB (rtx-3060-12gb, by PCI id)" "$tmp/out"; then r=0; else r=1; fi
  report $r "detect with an NVML that ends in $stub: one line, exit 0" \
    "status $status, $(cat "$tmp/out" "$tmp/err")"

  HEADROOM_SYSROOT="$root" HEADROOM_NVML_LIBRARY="$stubs/libnvml-stub-$stub.so" \
    timeout -s KILL 60 "$cli" estimate --model THUDM/GLM-4-9B-0414 --precision q4_k_m \
    --hardware local --json >"$tmp/out" 2>"$tmp/err"
  status=$?
  json_check "estimate --hardware local with an NVML that ends in $stub: sysfs's card" \
    'd["hardware"] == "rtx-3060-12gb"'
  if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^headroom-cli: warning: GPU detection failed' "$tmp/err"
  then r=0; else r=1; fi
  report $r "estimate --hardware local with an NVML that ends in $stub: the failure said once" \
    "$(cat "$tmp/err")"
done

mkfifo "$tmp/fifo"
HEADROOM_SYSROOT="$root" HEADROOM_NVML_LIBRARY="$tmp/fifo" timeout -s KILL 60 "$cli" detect --json \
  >"$tmp/out" 2>"$tmp/err"
status=$?
quiet_ok "detect with a FIFO as the NVML library"
json_check "a FIFO as the NVML library: refused in a note" \
  'any("fifo cannot be loaded: not a regular file" in x for x in d["notes"]) and d["devices"][0]["id"] == "rtx-3060-12gb"'

system absurd
run huge detect --json
json_check "2^64 - 1 bytes from NVML, sysfs and meminfo: unknown, with a note each" \
  'all(x["memory_bytes"] is None or x["memory_bytes"] < 2**42 for x in d["devices"]) and d["ram_bytes"] == 0 and sum("more than any" in x for x in d["notes"]) == 4'

system hostile
run none detect --json
quiet_ok "detect on a hostile tree"
json_check "nothing read from a hostile tree" 'd["devices"] == [] and d["ram_bytes"] == 0 and d["cpu"] is None'

# /proc/cpuinfo unreadable (a FIFO in the hostile tree): the CPU is
# "unknown", never "(null)" (issue 28, item 11).
run none detect
if [ "$status" -eq 0 ] && grep -q '^CPU: unknown,' "$tmp/out" && ! grep -q '(null)' "$tmp/out"; then r=0; else r=1; fi
report $r "detect without a CPU name: CPU: unknown" "$(cat "$tmp/out" "$tmp/err")"

# A reader's 2^64 - 1 byte count: JSON-GLib's integers are signed, and
# the count came out negative; no byte count in detect --json is
# negative (issue 28, item 11).
system amd
vram=$(find "$root/sys" -name mem_info_vram_total)
echo 18446744073709551615 >"$vram"
echo 0 >"${vram%total}used"
run none detect --json
json_check "detect --json with a 2^64 - 1 byte GPU: no negative count" \
  'all(v is None or v >= 0 for x in d["devices"] for k, v in x.items() if k.endswith("_bytes")) and d["ram_bytes"] >= 0'

system igpu
run none detect --json
json_check "an integrated GPU: a unified device of its own, RAM read from SMBIOS" \
  'd["devices"][0]["id"] is None and d["devices"][0]["hardware"] == "this-computer" and d["devices"][0]["kind"] == "unified" and d["ram_speed_mts"] == 5200 and d["ram_assumed"] is False'

run none detect extra
if [ "$status" -eq 2 ] && grep -q '^headroom-cli: unexpected argument' "$tmp/err"; then r=0; else r=1; fi
report $r "detect with a stray argument" "status $status"

# ------------------------------------------------------ --hardware local

G="--model THUDM/GLM-4-9B-0414"

system amd
run none estimate $G --precision q4_k_m --hardware local --json
quiet_ok "estimate --hardware local"
json_check "--hardware local is the detected catalog device" 'd["hardware"] == "radeon-rx-7900-xtx-24gb"'

run none hardware $G --precision q4_k_m --hardware local --json
json_check "hardware --hardware local: that device's row" \
  'len(d["rows"]) == 1 and d["rows"][0]["hardware"] == "radeon-rx-7900-xtx-24gb"'

run none hardware $G --precision q4_k_m --hardware local --csv
if [ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 2 ] && grep -q '^radeon-rx-7900-xtx-24gb,.*,q4_k_m,[0-9]*,[a-z]*,[a-z0-9_]*,[0-9]*' "$tmp/out"; then r=0; else r=1; fi
report $r "hardware --hardware local --csv: header and one row" "$(cat "$tmp/out" "$tmp/err")"

system igpu
run none estimate $G --precision q4_k_m --hardware local --json
json_check "--hardware local on an integrated GPU: this computer, unified" \
  'd["hardware"] == "this-computer" and d["usable_bytes"] > 0'

run none estimate $G --precision q4_k_m --hardware this-computer --json
json_check "the id detect gives works as --hardware" 'd["hardware"] == "this-computer"'

run none matrix $G --hardware local --json
quiet_ok "matrix --hardware local"

run none command llamacpp $G --precision q4_k_m --hardware local
quiet_ok "command --hardware local"

system strix-halo
run none hardware $G --precision q4_k_m --hardware local --json
json_check "a Strix Halo machine: one row, the catalog's Ryzen AI Max+ 395" \
  'len(d["rows"]) == 1 and d["rows"][0]["hardware"] == "ryzen-ai-max-395-128gb" and abs(d["rows"][0]["bandwidth_gbps"] - 256) < 1e-9'

system empty
run none estimate $G --precision q4_k_m --hardware local
if [ "$status" -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
   && grep -q '^headroom-cli: --hardware local: no GPU' "$tmp/err"; then r=0; else r=1; fi
report $r "--hardware local with nothing detected: one line, exit 1" "status $status, $(cat "$tmp/err")"

# ----------------------------------------------------------- local-models

home="$tmp/home"
"$make_tree" models "$home"
HOME="$home" XDG_CACHE_HOME= HF_HOME= HF_HUB_CACHE= OLLAMA_MODELS= LLAMA_CACHE= \
  "$cli" local-models --json >"$tmp/out" 2>"$tmp/err"
status=$?
quiet_ok "local-models --json"
json_check "every source, with ids and real sizes" \
  'sorted((x["source"], x["id"]) for x in d) == sorted([("huggingface", "Qwen/Qwen3-8B"), ("huggingface", "meta-llama/Llama-3.2-1B-Instruct"), ("huggingface", "tiny-Q4_K_M"), ("ollama", "tiny:latest"), ("lmstudio", "tiny-Q8_0"), ("lmstudio", "split-Q8_0"), ("llamacpp", "bartowski_Tiny-GGUF_tiny-Q4_0")])'
json_check "the Hugging Face index gives the weights" \
  '[x["weights_bytes"] for x in d if x["id"] == "Qwen/Qwen3-8B"] == [16381470720] and all(x["path"].startswith("/") for x in d)'

HOME="$home" XDG_CACHE_HOME= HF_HOME= HF_HUB_CACHE= OLLAMA_MODELS= LLAMA_CACHE= \
  "$cli" local-models >"$tmp/out" 2>"$tmp/err"
status=$?
if [ "$status" -eq 0 ] && grep -q '^Ollama  *tiny:latest' "$tmp/out" && grep -q '^Note: Ollama: evil:latest' "$tmp/out"; then r=0; else r=1; fi
report $r "local-models, readable" "$(cat "$tmp/out" "$tmp/err")"

# Folder and file names are bytes: escape sequences and invalid UTF-8
# never reach the terminal, and --json stays valid UTF-8 (issue 28, item
# 13).  The rule: text output shows each as hr_text_escape_line does
# ("\x1b", "\xff"); JSON keeps valid UTF-8 as it is (its own \u001b
# escapes) and writes a string that is not valid UTF-8 in that same
# escaped form.
evil="$tmp/evil-cache"
mkdir -p "$evil/$(printf 'dir\033]0;title\007\377')"
: >"$evil/$(printf 'clear\033[2J\377').gguf"
printf 'GGUF' >"$evil/$(printf 'dir\033]0;title\007\377')/$(printf 'red\033[31m').gguf"
HOME="$tmp/nobody" XDG_CACHE_HOME= HF_HOME= HF_HUB_CACHE= OLLAMA_MODELS= LLAMA_CACHE="$evil" \
  "$cli" local-models >"$tmp/out" 2>"$tmp/err"
status=$?
if [ "$status" -eq 0 ] && [ "$(grep -c 'llama.cpp' "$tmp/out")" -eq 2 ] \
   && ! LC_ALL=C grep -q "$(printf '[\033\007\377]')" "$tmp/out" \
   && grep -qF 'clear\x1b[2J\xff.gguf' "$tmp/out"; then r=0; else r=1; fi
report $r "local-models: escape bytes and invalid UTF-8 in names are escaped" "$(od -c "$tmp/out" | head -20)"
HOME="$tmp/nobody" XDG_CACHE_HOME= HF_HOME= HF_HUB_CACHE= OLLAMA_MODELS= LLAMA_CACHE="$evil" \
  "$cli" local-models --json >"$tmp/out" 2>"$tmp/err"
status=$?
quiet_ok "local-models --json on hostile names"
json_check "local-models --json on a 0xff byte: valid UTF-8, the byte escaped" \
  'len(d) == 2 and all("\\xff" in x["path"] for x in d) and all("\x1b" not in x["path"] for x in d)'

HOME="$tmp/nobody" XDG_CACHE_HOME= HF_HOME= HF_HUB_CACHE= OLLAMA_MODELS= LLAMA_CACHE= \
  "$cli" local-models --json >"$tmp/out" 2>"$tmp/err"
status=$?
quiet_ok "local-models with no caches"
json_check "an empty list" 'd == []'

# --------------------------------------------------------- custom devices

mkdir -p "$tmp/data/headroom"
cat >"$tmp/data/headroom/custom-devices.json" <<'JSON'
{
  "hardware": [
    { "id": "custom-rtx-2080-ti", "name": "RTX 2080 Ti", "vendor": "NVIDIA",
      "family": "nvidia-geforce", "kind": "discrete", "memory_gib": 11,
      "bandwidth_gbps": 616, "fp16_tflops": 53.8, "custom": true }
  ]
}
JSON
XDG_DATA_HOME="$tmp/data" "$cli" estimate $G --precision q4_k_m --hardware custom-rtx-2080-ti \
  --json >"$tmp/out" 2>"$tmp/err"
status=$?
quiet_ok "a custom device with --hardware"
json_check "the custom device's figures" \
  'd["hardware"] == "custom-rtx-2080-ti" and d["usable_bytes"] < 11 * 2**30'
XDG_DATA_HOME="$tmp/data" "$cli" devices --json >"$tmp/out" 2>"$tmp/err"
status=$?
json_check "custom devices are listed with the catalog's" \
  'any(x["id"] == "custom-rtx-2080-ti" for x in d)'

echo "1..$n"
[ "$failed" -eq 0 ]
