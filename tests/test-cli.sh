#!/bin/sh
# test-cli.sh — headroom-cli's error contract (docs/CLI.md): bad arguments give
# one line on stderr starting "headroom-cli: " and exit 2; an unreadable or
# malformed file gives one line naming it and exits 1; nothing is printed
# on stdout when a command fails.  Output is TAP.
set -u
cli="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Only the built-in catalog: a developer's own files must not count.
XDG_DATA_HOME="$tmp/data"
export XDG_DATA_HOME
n=0
failed=0

check () {
  # check EXPECTED_STATUS EXPECTED_STDERR_FRAGMENT DESCRIPTION -- ARGS…
  want_status=$1; want_err=$2; what=$3; shift 4
  n=$((n + 1))
  "$cli" "$@" >"$tmp/out" 2>"$tmp/err"
  status=$?
  ok=1
  [ "$status" -eq "$want_status" ] || ok=0
  grep -qF -- "$want_err" "$tmp/err" || ok=0
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || ok=0
  if [ "$want_status" -ne 0 ] && [ -s "$tmp/out" ]; then ok=0; fi
  if [ "$want_status" -eq 2 ] && ! head -c 14 "$tmp/err" | grep -q '^headroom-cli: '; then ok=0; fi
  if [ $ok -eq 1 ]; then
    echo "ok $n - $what"
  else
    echo "not ok $n - $what (status $status, stderr: $(cat "$tmp/err"))"
    failed=$((failed + 1))
  fi
}

check_ok () {
  # check_ok STDOUT_FRAGMENT DESCRIPTION -- ARGS…
  want_out=$1; what=$2; shift 3
  n=$((n + 1))
  if "$cli" "$@" >"$tmp/out" 2>"$tmp/err" && grep -qF -- "$want_out" "$tmp/out" && [ ! -s "$tmp/err" ]; then
    echo "ok $n - $what"
  else
    echo "not ok $n - $what ($(cat "$tmp/err"))"
    failed=$((failed + 1))
  fi
}

G="--model THUDM/GLM-4-9B-0414"
L70A="--model meta-llama/Llama-3.1-70B-Instruct --precision bf16 --engine vllm --hardware h100-sxm-80gb --context 8192"

check 2 "a command is required" "no command" --
check 2 "unknown command" "unknown command" -- frobnicate
check 2 "--model is required" "estimate without model" -- estimate --precision q4_k_m
check 2 "--precision is required" "estimate without precision" -- estimate $G
check 2 "unknown model" "unknown model id" -- estimate --model nobody/nothing --precision q4_k_m
check 2 "unknown precision" "unknown precision" -- estimate $G --precision q9_9
check 2 "--context 0 is out of range" "context zero" -- estimate $G --precision q4_k_m --context 0
check 2 "--context -5 is out of range" "context negative" -- estimate $G --precision q4_k_m --context -5
check 2 "--context 2147483648 is out of range" "context past 2^31-1" -- estimate $G --precision q4_k_m --context 2147483648
check 2 "--context: “lots” is not a whole number" "context not a number" -- estimate $G --precision q4_k_m --context lots
check 2 "--batch 0 is out of range" "batch zero" -- estimate $G --precision q4_k_m --batch 0
check 2 "--gpus 5000 is out of range" "too many GPUs" -- estimate $G --precision q4_k_m --gpus 5000
check 2 "unknown KV cache type" "bad KV type" -- estimate $G --precision q4_k_m --kv-type q5
check 2 "unknown engine" "bad engine" -- estimate $G --precision q4_k_m --engine tgi
check 2 "unknown hardware" "bad hardware" -- estimate $G --precision q4_k_m --hardware toaster
check 2 "--gpu-memory-utilization must be" "utilization above 1" -- estimate $G --precision q4_k_m --gpu-memory-utilization 1.5
check 2 "--gpu-memory-utilization must be" "utilization NaN" -- estimate $G --precision q4_k_m --gpu-memory-utilization nan
check 2 "--flash-attn must be on or off" "bad flash-attn" -- estimate $G --precision q4_k_m --flash-attn maybe
check 2 "--ubatch 0 is out of range" "bad ubatch" -- estimate $G --precision q4_k_m --ubatch 0
check 2 "cannot be used together" "json and csv" -- matrix $G --json --csv
check 2 "--contexts has an empty value" "empty context in list" -- matrix $G --contexts 8192,,32768
check 2 "is not a context" "context list with a word" -- matrix $G --contexts 8192,big
check 2 "is not a context" "context list with zero" -- matrix $G --contexts 0,8192
check 2 "unknown precision" "precision list" -- matrix $G --precisions q4_k_m,q11
check 2 "exactly one of vllm" "command without engine" -- command $G --precision q4_k_m
check 2 "vllm, sglang, llamacpp or ollama" "command with unknown engine" -- command tgi $G --precision q4_k_m
check 2 "needs flash attention for a quantized V cache" "llama.cpp Q8_0 V cache without flash attention" -- estimate $G --precision q4_k_m --engine llamacpp --kv-type q8_0 --flash-attn off
check 2 "unexpected argument" "stray argument" -- models extra
check 2 "inspect needs exactly one FILE" "inspect without file" -- inspect
check 1 "$tmp/missing.gguf" "inspect a missing file" -- inspect "$tmp/missing.gguf"
printf 'not a gguf at all' >"$tmp/bad.gguf"
check 1 "$tmp/bad.gguf" "inspect a malformed file" -- inspect "$tmp/bad.gguf"
printf '{ "model_type": ' >"$tmp/config.json"
check 1 "$tmp/config.json" "a malformed config.json as the model" -- estimate --model "$tmp/config.json" --precision q4_k_m

# What an argument may hold: a newline is one line of error, bytes that
# are not UTF-8 name their option, an escape sequence is not printed.
nl=$(printf 'evil\nheadroom-cli: forged line')
check 2 'unknown model “evil\nheadroom-cli: forged line”' "a newline in --model" -- estimate --model "$nl" --precision q4_k_m
check 2 "--precision: the value is not valid UTF-8 text" "non-UTF-8 --precision" -- estimate $G --precision "$(printf 'q4\377')"
check 2 "--kv-type: the value is not valid UTF-8 text" "non-UTF-8 --kv-type=" -- estimate $G --precision q4_k_m --kv-type="$(printf '\377')"
check 2 'unknown hardware “\x1b[2J”' "an escape sequence in --hardware" -- estimate $G --precision q4_k_m --hardware "$(printf '\033[2J')"
check 1 "$tmp/caf" "a non-UTF-8 file name" -- inspect "$(printf "$tmp/caf\351.gguf")"

# A broken file of the user's catalog is a warning naming it; the
# command still answers (before: a crash at every start).
mkdir -p "$tmp/broken/headroom"
printf '{"models": [' >"$tmp/broken/headroom/imported-models.json"
XDG_DATA_HOME="$tmp/broken"
check 0 "headroom-cli: warning: $tmp/broken/headroom/imported-models.json: not valid JSON" "a broken imported-models.json" -- models
printf '[1]' >"$tmp/broken/headroom/imported-models.json"
check 0 "imported-models.json: the top level must be an object" "imported-models.json holding [1]" -- devices
XDG_DATA_HOME="$tmp/data"

check_ok '"weights_bytes"' "estimate --json" -- estimate $G --precision q4_k_m --json
check_ok 'RTX 3060 12GB' "estimate text" -- estimate $G --precision q4_k_m
# no context holds every layer of a 70B on one 3090: no figure and why, never "0 tokens"
check_ok '— (no context holds every layer on the GPUs: llama.cpp leaves layers' \
  "estimate text: a max context that does not exist" -- estimate \
  --model meta-llama/Llama-3.1-70B-Instruct --precision q4_k_m --hardware rtx-3090-24gb --context 8192
# A hybrid: the state of Qwen3-Next's 36 Gated DeltaNet layers, F32,
# one sequence (36 × (24,576 + 524,288) × 4 B); a transformer has none.
check_ok '"state_bytes_per_sequence" : 79036416' "estimate --json state" -- estimate --model Qwen/Qwen3-Next-80B-A3B-Instruct --precision q4_k_m --hardware h100-sxm-80gb --json
check_ok '"recurrent_kind" : "gated_deltanet"' "estimate --json layer_kinds" -- estimate --model Qwen/Qwen3-Next-80B-A3B-Instruct --precision q4_k_m --json
check_ok '"state_bytes" : 0' "estimate --json no state" -- estimate $G --precision q4_k_m --json
check_ok 'no-fit              —' "hardware text: no speed where it does not fit" -- hardware $G --precision fp16 --engine generic --hardware rtx-3060-12gb
check_ok 'q4_k_m,Q4_K_M,4.85' "matrix --csv" -- matrix $G --csv
check_ok '"tier" : "rtx-3090-24gb"' "matrix --json" -- matrix $G --json
check_ok 'share_percent' "hardware --csv" -- hardware $G --precision q4_k_m --csv
check_ok '"id" : "rtx-3060-12gb"' "devices --json" -- devices --json
check_ok '"id" : "THUDM/GLM-4-9B-0414"' "models --json" -- models --json
check_ok '"label" : "Q4_K_M"' "precisions --json" -- precisions --json
check_ok 'vllm serve THUDM/GLM-4-9B-0414' "vllm command" -- command vllm $G --precision bf16 --hardware rtx-3090-24gb
# An AWQ command never serves the base repository (vLLM would load BF16):
# a known AWQ checkpoint, or a placeholder the user must replace.
check_ok "'<awq-int4-checkpoint-of-THUDM/GLM-4-9B-0414>'" "vllm AWQ without a known checkpoint" -- command vllm $G --precision awq-int4
check_ok '--tensor-parallel-size 2' "vllm TP" -- command vllm $G --precision bf16 --gpus 2 --hardware rtx-3090-24gb
check_ok '--cache-type-k q8_0' "llama.cpp command" -- command llamacpp $G --precision q4_k_m --kv-type q8_0
check_ok '--ctx-size 65536' "llama.cpp total context over slots" -- command llamacpp $G --precision q4_k_m --batch 2
# The library's glm4:9b is GLM-4-9B-Chat (2024), not the 0414 checkpoint:
# the Modelfile takes a GGUF file of it.
check_ok 'FROM ./GLM-4-9B-0414-Q4_K_M.gguf' "Ollama Modelfile" -- command ollama $G --precision q4_k_m
check_ok 'OLLAMA_KV_CACHE_TYPE=q8_0' "Ollama KV env" -- command ollama $G --precision q4_k_m --kv-type q8_0
check_ok '"compute_bytes"' "llamacpp profile reports its compute buffer" -- estimate $G --precision q4_k_m --engine llamacpp --json
check_ok '"host_bytes"' "ollama profile reports host memory" -- estimate $G --precision q4_k_m --engine ollama --json
check_ok '"kv_capacity_tokens"' "vllm profile reports KV capacity" -- estimate $G --precision bf16 --engine vllm --hardware rtx-3090-24gb --json
check_ok '"max_concurrency"' "vllm profile reports concurrency" -- estimate $G --precision bf16 --engine vllm --hardware rtx-3090-24gb --json
check_ok '--gpu-memory-utilization 0.95' "vllm command takes the utilization" -- command vllm $G --precision bf16 --hardware rtx-3090-24gb --context 8192 --gpu-memory-utilization 0.95
check_ok 'python3 -m sglang.launch_server' "sglang command" -- command sglang $G --precision bf16 --hardware rtx-3090-24gb --context 8192
check_ok '--pipeline-parallel-size 2' "vllm layout on one machine" -- command vllm $G --precision bf16 --hardware rtx-3090-24gb --context 8192 --tp 2 --pp 2
check_ok "ray start --address '<head-address>:6379'" "vllm over two machines" -- command vllm $G --precision bf16 --hardware rtx-3090-24gb --context 8192 --tp 2 --pp 2 --nodes 2
check_ok '--node-rank 1' "sglang over two machines" -- command sglang $G --precision bf16 --hardware rtx-3090-24gb --context 8192 --tp 2 --pp 2 --nodes 2
check 2 "router" "sglang replicas across machines" -- command sglang $G --precision bf16 --hardware rtx-3090-24gb --context 8192 --tp 2 --dp 2 --nodes 2
check 2 "KV cache type" "sglang refuses a GGUF cache type" -- command sglang $G --precision bf16 --hardware rtx-3090-24gb --kv-type q8_0
check_ok 'compute' "matrix with an engine profile" -- estimate $G --precision q4_k_m --engine llamacpp --flash-attn off --ubatch 1024

# Each command has its own option table (issue 24): an option another
# command takes is refused here, exit 2, one line (before: models, detect,
# devices… took --users, --prompt-tokens, --generate and
# --target-tokens-per-s, paired with commands by position).
stray () {
  # stray COMMAND… -- OPTION [VALUE]: refused as an unknown option
  check 2 "Unknown option $(echo "$@" | sed 's/.* -- \([^ ]*\).*/\1/')" "stray option: $*" -- $(echo "$@" | sed 's/ -- / /')
}
for opt in "--users 4" "--tp 2" "--model x" "--csv" "--prompt-tokens 5" "--precision q4_k_m" "--hardware rtx-3060-12gb"; do
  for cmd in models devices precisions detect local-models inspect; do
    stray $cmd -- $opt
  done
done
for opt in "--csv" "--contexts 8192" "--precisions q4_k_m"; do
  stray estimate $G --precision q4_k_m -- $opt
done
for opt in "--precision q4_k_m" "--context 8192" "--batch 2" "--gpus 2" "--users 4" "--target-tokens-per-s 5" "--prompt-tokens 100" "--generate 10"; do
  stray matrix $G -- $opt
done
for opt in "--batch 2" "--gpus 2" "--contexts 8192" "--precisions q4_k_m" "--users 4" "--prompt-tokens 100" "--generate 10"; do
  stray hardware $G --precision q4_k_m -- $opt
done
for opt in "--json" "--csv" "--contexts 8192" "--users 4" "--target-tokens-per-s 5" "--generate 10"; do
  stray command vllm $G --precision bf16 -- $opt
done

# COMMAND --help lists that command's options only.
help_lists () {
  # help_lists COMMAND WANTED UNWANTED
  n=$((n + 1))
  if "$cli" "$1" --help >"$tmp/out" 2>"$tmp/err" && grep -qE -- "^ +$2([= ]|\$)" "$tmp/out" \
     && ! grep -qE -- "^ +$3([= ]|\$)" "$tmp/out" && grep -q "headroom-cli $1" "$tmp/out"; then
    echo "ok $n - $1 --help lists $2, not $3"
  else
    echo "not ok $n - $1 --help lists $2, not $3"; failed=$((failed + 1))
  fi
}
help_lists inspect --json --users
help_lists inspect --json --model
help_lists models --json --tp
help_lists detect --json --prompt-tokens
help_lists local-models --json --model
help_lists estimate --users --contexts
help_lists matrix --contexts --batch
help_lists hardware --csv --gpus
help_lists command --tp --json

# Plausibility limits (issue 28, item 8): a value no machine has is one
# line and exit 2, not an estimate (before: exit 0).
check 2 "--ram must be at least" "--ram 1e-300" -- estimate $G --precision q4_k_m --ram 1e-300
check 2 "--ram-bandwidth must be at least" "--ram-bandwidth 1e-300" -- estimate $G --precision q4_k_m --ram-bandwidth 1e-300
check 2 "--target-tokens-per-s must be at least" "--target-tokens-per-s 1e-300" -- estimate $L70A --users 2 --target-tokens-per-s 1e-300
check 2 "--ram must be a positive number" "--ram 0" -- estimate $G --precision q4_k_m --ram 0
check 2 "--ram must be a positive number" "--ram past 1 PiB" -- estimate $G --precision q4_k_m --ram 2e6
check_ok '"ram_bytes" : 268435456' "--ram at the minimum" -- estimate $G --precision q4_k_m --ram 0.25 --json

# CSV and JSON read one column list per table (hr-table-columns.h): the
# same columns in the same order, CSV names carrying units.
n=$((n + 1))
"$cli" hardware $G --precision q4_k_m --json >"$tmp/json" 2>/dev/null
"$cli" hardware $G --precision q4_k_m --csv >"$tmp/csv" 2>/dev/null
"$cli" matrix $G --json >"$tmp/mjson" 2>/dev/null
"$cli" matrix $G --csv >"$tmp/mcsv" 2>/dev/null
if python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
def csv_name(k):
    return {'share': 'share_percent', 'total_bytes': None}.get(k, k.replace('_bytes', '_gib'))
rows = json.load(open(t + '/json'))['rows']
header = open(t + '/csv').readline().strip().split(',')
keys = [csv_name(k) for k in rows[0] if k != 'vendor']
assert header[:len(keys)] == keys, (header, keys)
m = json.load(open(t + '/mjson'))
header = open(t + '/mcsv').readline().strip().split(',')
keys = []
for k in m['rows'][0]:
    if k == 'quality':   # an object, JSON only: the CSV has quality_tier and kld
        continue
    keys += ['total_gib_at_%d' % c for c in m['contexts']] if k == 'total_bytes' else [csv_name(k)]
header = [h for h in header if h != 'tier_name']   # CSV only: the tier device's name
assert header[:len(keys)] == keys, (header, keys)
PY
then echo "ok $n - CSV and JSON columns of hardware and matrix agree"
else echo "not ok $n - CSV and JSON columns of hardware and matrix agree"; failed=$((failed + 1))
fi

# Speed ranges (docs/CLI.md "Additions"): _low/_high around the rate where
# the group has measured rows (CUDA, dense, depth < 8K, without flash
# attention as the measured builds ran), null where it has none (ROCm has
# no calibration rows; flash attention on, the default, is derived) or the
# set-up does not fit.
L8="--model meta-llama/Llama-3.1-8B-Instruct --precision q4_k_m --engine llamacpp --context 4096 --flash-attn off --json"
n=$((n + 1))
if "$cli" estimate $L8 --hardware rtx-4090-24gb >"$tmp/out" 2>"$tmp/err" && python3 - "$tmp/out" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
for k in ('decode_tokens_per_s', 'prefill_tokens_per_s'):
    assert 0 < e[k + '_low'] < e[k] < e[k + '_high'], (k, e[k + '_low'], e[k], e[k + '_high'])
PY
then echo "ok $n - decode and prompt rates carry _low < rate < _high on a measured group"
else echo "not ok $n - decode and prompt rates carry _low < rate < _high on a measured group"; failed=$((failed + 1))
fi
check_ok '"decode_tokens_per_s_low" : null' "no range where the group has no measured rows (ROCm)" -- estimate $L8 --hardware radeon-rx-7900-xtx-24gb
check_ok '"prefill_tokens_per_s_high" : null' "no prompt range where the group has no measured rows (ROCm)" -- estimate $L8 --hardware radeon-rx-7900-xtx-24gb
check_ok '"decode_tokens_per_s_low" : null' "no range with flash attention on (derived, not measured)" -- estimate --model meta-llama/Llama-3.1-8B-Instruct --precision q4_k_m --engine llamacpp --context 4096 --json --hardware rtx-4090-24gb
check_ok '"decode_tokens_per_s_high" : null' "no range where nothing fits" -- estimate --model meta-llama/Llama-3.1-405B-Instruct --precision bf16 --engine vllm --hardware rtx-3060-12gb --context 8192 --json

# matrix and hardware place every row as estimate would: --n-cpu-moe and
# --ram change the verdict, --gpu-layers the GPU's share (they were
# accepted and ignored).
OSS="--model openai/gpt-oss-120b --precision mxfp4"
check_ok 'rtx-4070-12gb,RTX 4070 12GB,12.00,504.2,11.263,93.9,no-fit' "hardware: gpt-oss-120b does not fit a 12 GB card with 32 GiB of RAM" -- hardware $OSS --csv
n=$((n + 1))
if "$cli" hardware $OSS --n-cpu-moe 36 --ram 64 --csv >"$tmp/out" 2>"$tmp/err" &&
   grep '^rtx-4070-12gb,' "$tmp/out" | grep -qv ',no-fit,'; then
  echo "ok $n - hardware honours --n-cpu-moe and --ram"
else
  echo "not ok $n - hardware honours --n-cpu-moe and --ram"; failed=$((failed + 1))
fi
check 2 "--tensor-split is for estimate and command" "hardware refuses a fixed split it cannot apply" -- hardware $OSS --tensor-split 3,1
check 2 "--tensor-split is for estimate and command" "matrix refuses a fixed split it cannot apply" -- matrix --model openai/gpt-oss-120b --tensor-split 3,1
n=$((n + 1))
if "$cli" hardware $OSS --n-cpu-moe 36 --ram 64 --json >"$tmp/out" 2>"$tmp/err" &&
   python3 - "$tmp/out" "$cli" <<'PY'
import json, subprocess, sys
rows = {r['hardware']: r for r in json.load(open(sys.argv[1]))['rows']}
est = json.loads(subprocess.run([sys.argv[2], 'estimate', '--model', 'openai/gpt-oss-120b',
                                 '--precision', 'mxfp4', '--hardware', 'rtx-4070-12gb',
                                 '--n-cpu-moe', '36', '--ram', '64', '--json'],
                                capture_output=True, text=True, check=True).stdout)
row = rows['rtx-4070-12gb']
assert row['verdict'] == est['verdict'], (row['verdict'], est['verdict'])
PY
then echo "ok $n - hardware's row and estimate agree with --n-cpu-moe"
else echo "not ok $n - hardware's row and estimate agree with --n-cpu-moe ($(cat "$tmp/err"))"; failed=$((failed + 1))
fi

# Serving plan (hr-serving-plan.h): with --users and --target-tokens-per-s
L70="--model meta-llama/Llama-3.1-70B-Instruct --precision bf16 --engine vllm --hardware h100-sxm-80gb --context 8192"
check_ok '"tp" : 2' "plan: 70B BF16 needs TP 2 on H100s" -- estimate $L70 --users 1 --target-tokens-per-s 1 --json
check_ok '"decode_tokens_per_s" : null' "a set-up that does not fit has no decode speed (issue 30 item 16)" -- estimate --model meta-llama/Llama-3.1-405B-Instruct --precision bf16 --engine vllm --hardware rtx-3060-12gb --context 8192 --json
check_ok '"decode_tokens_per_s" : null' "hardware --json: no speed where it does not fit" -- hardware --model meta-llama/Llama-3.1-405B-Instruct --precision bf16 --json
check_ok '"plan_reason" : "no-fit"' "plan: 405B BF16 fits no 64 RTX 3060s" -- estimate --model meta-llama/Llama-3.1-405B-Instruct --precision bf16 --engine vllm --hardware rtx-3060-12gb --context 8192 --users 1 --target-tokens-per-s 1 --json
check_ok '"plan_reason" : "too-slow"' "plan: an unreachable target" -- estimate $L70 --users 4 --target-tokens-per-s 5000 --json
check_ok 'plan        2 GPUs: TP 2' "plan in the text output" -- estimate $L70 --users 1 --target-tokens-per-s 1
n=$((n + 1))
if "$cli" estimate $L70 --users 4 --json | grep -q '"plan'; then
  echo "not ok $n - no plan without a target"; failed=$((failed + 1))
else
  echo "ok $n - no plan without a target"
fi

# Speed at depth and the llama.cpp build (docs/CLI.md "Additions": --depth,
# --backend; issue 31).
L8="--model meta-llama/Llama-3.1-8B-Instruct --precision q4_k_m --hardware rtx-4090-24gb"
check 2 "--depth 40000 leaves no room for a prompt" "--depth past the context" -- estimate $L8 --depth 40000
check 2 "is more than --context" "--depth + --prompt-tokens past the context" -- estimate $L8 --context 8192 --depth 8000 --prompt-tokens 512
check 2 "--depth: “deep” is not a whole number" "--depth not a number" -- estimate $L8 --depth deep
check 2 "--depth is for llama.cpp and Ollama" "--depth with vLLM" -- estimate $L70A --depth 100
check 2 "--backend must be cuda, rocm, vulkan, metal, sycl or cpu" "unknown backend" -- estimate $L8 --backend opencl
check 2 "runs cuda, vulkan or cpu, not rocm" "ROCm on an NVIDIA card" -- estimate $L8 --backend rocm
check 2 "not metal" "Metal on an NVIDIA card" -- estimate $L8 --backend metal
check 2 "not cuda" "CUDA on an AMD card" -- estimate --model meta-llama/Llama-3.1-8B-Instruct --precision q4_k_m --hardware radeon-rx-7900-xtx-24gb --backend cuda
check 2 "Ollama has no SYCL build" "SYCL under Ollama" -- estimate --model meta-llama/Llama-3.1-8B-Instruct --precision q4_k_m --engine ollama --hardware arc-a770-16gb --backend sycl
check 2 "--backend is for llama.cpp and Ollama" "--backend with vLLM" -- estimate $L70A --backend cuda
check_ok '"backend" : "cuda"' "an NVIDIA card runs CUDA by default" -- estimate $L8 --json
check_ok '"backend" : "rocm"' "an AMD card runs ROCm by default" -- estimate --model meta-llama/Llama-3.1-8B-Instruct --precision q4_k_m --hardware radeon-rx-7900-xtx-24gb --json
check_ok '"backend" : "metal"' "an Apple chip runs Metal by default" -- estimate --model meta-llama/Llama-3.1-8B-Instruct --precision q4_k_m --hardware apple-m1-max-64gb --json
check_ok '"backend" : "vulkan"' "--backend vulkan on an AMD card" -- estimate --model meta-llama/Llama-3.1-8B-Instruct --precision q4_k_m --hardware radeon-rx-7900-xtx-24gb --backend vulkan --json
check_ok '"placement" : "cpu"' "--backend cpu: no layer on the GPU" -- estimate $L8 --backend cpu --json
check_ok "backend     ROCm" "the text output names the backend" -- estimate --model meta-llama/Llama-3.1-8B-Instruct --precision q4_k_m --hardware radeon-rx-7900-xtx-24gb
stray matrix $G -- --depth 100
stray hardware $G --precision q4_k_m -- --backend cuda
stray command llamacpp $G --precision q4_k_m -- --depth 100
n=$((n + 1))
"$cli" estimate $L8 --context 32768 --prompt-tokens 512 --json >"$tmp/d0" 2>/dev/null
"$cli" estimate $L8 --context 32768 --prompt-tokens 512 --depth 16384 --json >"$tmp/d16" 2>/dev/null
"$cli" estimate $L8 --context 32768 --depth 16384 --json >"$tmp/drest" 2>/dev/null
if python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
d0, d16, rest = (json.load(open(t + f)) for f in ('/d0', '/d16', '/drest'))
assert d0['depth'] == 0 and d16['depth'] == 16384, (d0['depth'], d16['depth'])
# the same 512-token prompt read on top of 16,384 cached tokens is slower,
# and so is its first token (attention over the cache)
assert d16['prefill_tokens_per_s'] < d0['prefill_tokens_per_s'], (d16, d0)
assert d16['ttft_seconds'] > d0['ttft_seconds']
assert abs(d16['ttft_seconds'] - 512 / d16['prefill_tokens_per_s']) < 0.05 * d16['ttft_seconds'] + 0.05
# decode_tokens_per_s keeps its meaning (the cache filled to --context)
assert d16['decode_tokens_per_s'] == d0['decode_tokens_per_s']
# without --prompt-tokens the prompt is the rest of the context
assert rest['prompt_tokens'] == 32768 - 16384, rest['prompt_tokens']
PY
then echo "ok $n - --depth: the prompt on top of the cache is slower, decode unchanged"
else echo "not ok $n - --depth: the prompt on top of the cache is slower, decode unchanged"; failed=$((failed + 1))
fi

# The CPU (docs/CLI.md "Additions": --cpu ID|local, key cpu, the cpus list).
OSS="--model openai/gpt-oss-120b --precision mxfp4 --hardware rtx-3060-12gb --n-cpu-moe 30 --ram 96 --context 8192"
check 2 "unknown CPU “pentium” (see headroom-cli cpus)" "unknown CPU" -- estimate $L8 --cpu pentium
check_ok '"cpu" : "amd-ryzen-5-5600x"' "--cpu names the entry" -- estimate $OSS --cpu amd-ryzen-5-5600x --json
check_ok '"cpu" : null' "no --cpu: the stated assumptions" -- estimate $OSS --json
check_ok "CPU         AMD Ryzen 5 5600X: 0.71 TFLOPS, 51 GB/s" "the text output names the CPU, its rate and bandwidth" -- estimate $OSS --cpu amd-ryzen-5-5600x
check_ok "amd-epyc-9654" "cpus lists the catalog's CPUs" -- cpus
stray hardware $G --precision q4_k_m -- --cpu amd-epyc-9654
stray matrix $G -- --cpu amd-epyc-9654
stray command llamacpp $G --precision q4_k_m -- --cpu amd-epyc-9654
stray cpus -- --model x
n=$((n + 1))
"$cli" cpus --json >"$tmp/cpus" 2>/dev/null
"$cli" estimate $OSS --cpu amd-ryzen-5-5600x --json >"$tmp/slow" 2>/dev/null
"$cli" estimate $OSS --cpu amd-epyc-9654 --json >"$tmp/fast" 2>/dev/null
"$cli" estimate $OSS --cpu amd-epyc-9654 --ram-bandwidth 51.2 --json >"$tmp/given" 2>/dev/null
if python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
cpus = json.load(open(t + '/cpus'))
assert len(cpus) >= 20 and all(c['source'] and c['flops'] > 0 and c['bandwidth_gbps'] > 0 for c in cpus)
ryzen = next(c for c in cpus if c['id'] == 'amd-ryzen-5-5600x')
assert abs(ryzen['bandwidth_gbps'] - 51.2) < 1e-9 and ryzen['cores'] == 6, ryzen
slow, fast, given = (json.load(open(t + f)) for f in ('/slow', '/fast', '/given'))
assert slow['placement'] == 'partial', slow['placement']
# the experts in RAM read at the CPU's memory bandwidth: twelve channels
# of DDR5 decode faster than two of DDR4
assert fast['decode_tokens_per_s'] > 2 * slow['decode_tokens_per_s'], (fast['decode_tokens_per_s'], slow['decode_tokens_per_s'])
# --ram-bandwidth still wins over the CPU's own figure
assert given['decode_tokens_per_s'] < fast['decode_tokens_per_s']
PY
then echo "ok $n - --cpu: the CPU's bandwidth and rate time the experts in RAM"
else echo "not ok $n - --cpu: the CPU's bandwidth and rate time the experts in RAM"; failed=$((failed + 1))
fi

# GPUs of different kinds (docs/CLI.md "Additions": --hardware ID[:N],ID[:N]),
# and what each keeps for others (--reserve)
L8="--model meta-llama/Llama-3.1-8B-Instruct --precision q4_k_m --context 8192"
check 2 "--gpus and a list of devices cannot be given together" "a list and --gpus" -- estimate $L8 --hardware rtx-3090-24gb:1,rtx-3060-12gb:1 --gpus 2
check 2 "unknown hardware “toaster”" "a list with an unknown device" -- estimate $L8 --hardware rtx-3090-24gb,toaster
check 2 "--hardware's count" "a list with a bad count" -- estimate $L8 --hardware rtx-3090-24gb:0,rtx-3060-12gb
check 2 "a list of devices (--hardware ID:N,ID:N) is for estimate and command" "matrix refuses a list" -- matrix --model meta-llama/Llama-3.1-8B-Instruct --hardware rtx-3090-24gb:1,rtx-3060-12gb:1
check 2 "a list of devices (--hardware ID:N,ID:N) is for estimate and command" "recommend refuses a list" -- recommend --hardware rtx-3090-24gb:1,rtx-3060-12gb:1
check 2 "tensor parallelism needs identical GPUs" "vLLM refuses TP over different GPUs" -- estimate --model meta-llama/Llama-3.1-8B-Instruct --precision bf16 --engine vllm --hardware rtx-3090-24gb:1,rtx-3060-12gb:1
check 2 "--hardware lists 2 GPUs; --tp × --pp × --dp make 4" "a layout that does not match the list" -- estimate --model meta-llama/Llama-3.1-8B-Instruct --precision bf16 --engine vllm --hardware rtx-3090-24gb:1,rtx-3060-12gb:1 --pp 4
check 2 "--reserve takes one value or one per GPU (2), not 3" "--reserve count" -- estimate $L8 --hardware rtx-3090-24gb --gpus 2 --reserve 1,1,1
check 2 "--reserve 30 GiB leaves RTX 3090 24GB nothing" "--reserve past the memory" -- estimate $L8 --hardware rtx-3090-24gb --reserve 30
check 2 "--reserve must be GiB ≥ 0" "--reserve negative" -- estimate $L8 --hardware rtx-3090-24gb --reserve -1
check 2 "vLLM asks for 21.69 GiB (--gpu-memory-utilization 0.92) but only 21.00 GiB are free" "vLLM refuses to start with less free than it asks" -- estimate --model meta-llama/Llama-3.1-8B-Instruct --precision bf16 --engine vllm --hardware rtx-4090-24gb --reserve 3
stray matrix --model meta-llama/Llama-3.1-8B-Instruct -- --reserve 1
stray recommend --hardware rtx-3060-12gb -- --reserve 1
n=$((n + 1))
"$cli" estimate $L8 --hardware rtx-3090-24gb:1,rtx-3060-12gb:1 --json >"$tmp/mixed" 2>/dev/null
"$cli" estimate $L8 --hardware rtx-3090-24gb:1,rtx-3060-12gb:1 --reserve 1.5,0.5 --json >"$tmp/kept" 2>/dev/null
"$cli" estimate $L8 --hardware rtx-3090-24gb --gpus 2 --json >"$tmp/twins" 2>/dev/null
"$cli" command llamacpp $L8 --hardware rtx-3090-24gb:1,rtx-3060-12gb:1 >"$tmp/cmd" 2>/dev/null
"$cli" estimate --model meta-llama/Llama-3.1-8B-Instruct --precision bf16 --engine vllm --hardware rtx-3090-24gb:1,rtx-3060-12gb:1 --tp 1 --pp 2 --json >"$tmp/pp" 2>/dev/null
if python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
mixed, kept, twins, pp = (json.load(open(t + f)) for f in ('/mixed', '/kept', '/twins', '/pp'))
GIB = 2 ** 30
assert mixed['hardware'] == 'rtx-3090-24gb:1,rtx-3060-12gb:1' and mixed['gpus'] == 2, mixed['hardware']
assert [d['hardware'] for d in mixed['devices']] == ['rtx-3090-24gb', 'rtx-3060-12gb']
# by free memory: 23.81 and 11.81 GiB usable, 23 + 10 of 33 indices
assert [d['layers'] for d in mixed['devices']] == [23, 10], [d['layers'] for d in mixed['devices']]
assert [round(d['usable_bytes'] / GIB, 2) for d in mixed['devices']] == [23.81, 11.81]
# the slow card's share of every token: slower than two 3090s
assert mixed['decode_tokens_per_s'] < twins['decode_tokens_per_s']
# --reserve per GPU: shown, and taken off what each can give
assert [round(d['reserve_bytes'] / GIB, 2) for d in kept['devices']] == [1.5, 0.5]
assert [round(d['usable_bytes'] / GIB, 2) for d in kept['devices']] == [22.5, 11.5]
assert [d['reserve_bytes'] for d in twins['devices']] == [int(0.19 * GIB)] * 2 or \
       all(abs(d['reserve_bytes'] / GIB - 0.19) < 0.001 for d in twins['devices'])
# vLLM, one stage per GPU: both hold the smaller GPU's plan
assert pp['layout'] == {'tp': 1, 'pp': 2, 'dp': 1, 'nodes': 1}, pp['layout']
assert pp['devices'][0]['usable_bytes'] > pp['devices'][1]['usable_bytes']
cmd = open(t + '/cmd').read()
assert '--tensor-split 23,10' in cmd, cmd
PY
then echo "ok $n - a list of GPUs: split by free memory, reserves, the command's --tensor-split, vLLM stages"
else echo "not ok $n - a list of GPUs: split by free memory, reserves, the command's --tensor-split, vLLM stages"; failed=$((failed + 1))
fi

# The whole load (docs/CLI.md "Additions"): a vision projector and a draft
G4="--model google/gemma-3-4b-it --precision q4_k_m --hardware rtx-3060-12gb --context 8192"
check 2 "--mmproj auto: the catalog has no vision encoder for meta-llama/Llama-3.1-8B-Instruct" "--mmproj auto without a vision config" -- estimate $L8 --mmproj auto
check 2 "--images is for a vision projector" "--images without --mmproj" -- estimate $G4 --images 2
check 2 "--images 0 is out of range" "--images zero" -- estimate $G4 --mmproj auto --images 0
check 1 "no-such.gguf" "--mmproj of a missing file" -- estimate $G4 --mmproj "$tmp/no-such.gguf"
check 2 "--draft-precision is required with --draft" "--draft without its precision" -- estimate $L8 --draft meta-llama/Llama-3.2-1B-Instruct
check 2 "are for a draft model: add --draft MODEL" "--acceptance without --draft" -- estimate $L8 --acceptance 0.5
check 2 "--acceptance must be in (0, 1)" "--acceptance 1" -- estimate $L8 --draft meta-llama/Llama-3.2-1B-Instruct --draft-precision q8_0 --acceptance 1
check 2 "unknown draft model" "--draft unknown" -- estimate $L8 --draft nobody/nothing --draft-precision q8_0
check 2 "give one with --acceptance" "a pairing without a measured acceptance" -- estimate --model Qwen/Qwen3-32B --precision q4_k_m --draft Qwen/Qwen2.5-0.5B-Instruct --draft-precision q8_0
check 2 "A draft model is planned for llama-server" "Ollama is not planned with a draft" -- estimate $L8 --engine ollama --draft meta-llama/Llama-3.2-1B-Instruct --draft-precision q8_0
stray matrix --model meta-llama/Llama-3.1-8B-Instruct -- --mmproj auto
stray hardware $L8 -- --draft meta-llama/Llama-3.2-1B-Instruct
# a projector file: its tensors are its weights, its clip.vision sizes its
# encoder buffer (a 64-wide, 28-pixel ViT of 2 × 2 patches: one F16 64 × 64
# matrix, 8192 bytes; 4 patches × (256 + 3 × 64) × 4 B = 7168 bytes)
python3 - "$tmp/mmproj.gguf" "$tmp/text.gguf" <<'PY'
import struct, sys
def gguf(path, arch, kvs):
    def s(x): b = x.encode(); return struct.pack('<Q', len(b)) + b
    out = b'GGUF' + struct.pack('<IQQ', 3, 1, len(kvs) + 1)
    out += s('general.architecture') + struct.pack('<I', 8) + s(arch)
    for k, v in kvs:
        out += s(k) + struct.pack('<II', 4, v)
    out += s('v.blk.0.attn_q.weight') + struct.pack('<I', 2) + struct.pack('<QQ', 64, 64) + struct.pack('<IQ', 1, 0)
    out += b'\0' * (-len(out) % 32) + b'\0' * 8192
    open(path, 'wb').write(out)
clip = [('clip.vision.embedding_length', 64), ('clip.vision.feed_forward_length', 256),
        ('clip.vision.block_count', 1), ('clip.vision.attention.head_count', 4),
        ('clip.vision.image_size', 28), ('clip.vision.patch_size', 14)]
gguf(sys.argv[1], 'clip', clip)
gguf(sys.argv[2], 'llama', [])
PY
check 2 "is a “llama” file, not a vision projector" "--mmproj of a model file" -- estimate $G4 --mmproj "$tmp/text.gguf"
n=$((n + 1))
"$cli" estimate $G4 --mmproj "$tmp/mmproj.gguf" --images 3 --json >"$tmp/mm-file" 2>/dev/null
"$cli" estimate $G4 --mmproj auto --json >"$tmp/mm-auto" 2>/dev/null
"$cli" estimate $G4 --json >"$tmp/mm-none" 2>/dev/null
"$cli" command llamacpp $G4 --mmproj "$tmp/mmproj.gguf" >"$tmp/mm-cmd" 2>/dev/null
"$cli" estimate --model meta-llama/Llama-3.1-8B-Instruct --precision q8_0 --hardware rtx-3060-12gb --context 4096 --draft meta-llama/Llama-3.2-1B-Instruct --draft-precision q8_0 --json >"$tmp/draft" 2>/dev/null
"$cli" estimate --model meta-llama/Llama-3.1-8B-Instruct --precision q8_0 --hardware rtx-3060-12gb --context 4096 --draft meta-llama/Llama-3.2-1B-Instruct --draft-precision q8_0 --acceptance 0.1 --draft-max 16 >"$tmp/slow" 2>/dev/null
if python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
f, a, none, d = (json.load(open(t + x)) for x in ('/mm-file', '/mm-auto', '/mm-none', '/draft'))
assert f['mmproj_bytes'] == 8192 + 7168, f['mmproj_bytes']
assert f['image_tokens'] == 3 * 4, f['image_tokens']
assert f['devices'][0]['mmproj_bytes'] == f['mmproj_bytes']
# Gemma 3's projector from the catalog: 811.79 + 121.25 MiB
assert abs(a['mmproj_bytes'] / 2**20 - (811.79 + 121.25)) < 0.01, a['mmproj_bytes'] / 2**20
assert a['image_tokens'] == 256
assert abs(a['total_bytes'] - none['total_bytes'] - a['mmproj_bytes']) <= 1
assert none['mmproj_bytes'] == 0 and none['speculative_speedup'] is None and none['draft_bytes'] == 0
assert d['draft_acceptance'] == 0.72 and 1 < d['speculative_speedup'] < 3, d['speculative_speedup']
assert d['draft_bytes'] > 0 and d['devices'][0]['draft_bytes'] == d['draft_bytes']
cmd = open(t + '/mm-cmd').read()
assert '--mmproj ' + t + '/mmproj.gguf' in cmd, cmd
slow = open(t + '/slow').read()
assert 'it makes decoding SLOWER' in slow, slow
PY
then echo "ok $n - the whole load: a projector file or auto, images, a draft and its speed-up"
else echo "not ok $n - the whole load: a projector file or auto, images, a draft and its speed-up"; failed=$((failed + 1))
fi

# LoRA adapters, the cache in RAM and the host prompt cache (docs/CLI.md
# "Additions": --lora, --kv-offload, --cache-ram)
L8Q="--model meta-llama/Llama-3.1-8B-Instruct --precision q4_k_m --hardware rtx-3060-12gb --context 8192"
check 2 "--kv-offload must be “on” or “off”" "--kv-offload of another word" -- estimate $L8Q --kv-offload maybe
check 2 "--cache-ram must be a size in GiB" "--cache-ram zero" -- estimate $L8Q --cache-ram 0
check 2 "--lora: a rank is 1–4096" "--lora rank too large" -- estimate $L8Q --lora 5000
check 2 "--lora: an empty adapter" "--lora with an empty item" -- estimate $L8Q --lora 16,
check 2 "are llama-server options" "--kv-offload off with vLLM" -- estimate --model meta-llama/Llama-3.1-8B-Instruct --precision bf16 --engine vllm --hardware h100-sxm-80gb --kv-offload off
check 2 "planned for llama.cpp and Ollama" "--lora with vLLM" -- estimate --model meta-llama/Llama-3.1-8B-Instruct --precision bf16 --engine vllm --hardware h100-sxm-80gb --lora 16
check 2 "Ollama loads one LoRA adapter per model, not 2" "two adapters with Ollama" -- estimate $L8Q --engine ollama --lora 8,16
check 2 "is not a LoRA adapter" "--lora of a model file" -- estimate $L8Q --lora "$tmp/text.gguf"
check 1 "no-such.gguf" "--lora of a missing file" -- estimate $L8Q --lora "$tmp/no-such.gguf"
stray matrix --model meta-llama/Llama-3.1-8B-Instruct -- --lora 16
# an adapter file: one F16 64 × 128 tensor, 16384 bytes
python3 - "$tmp/adapter.gguf" <<'PY'
import struct, sys
def s(x): b = x.encode(); return struct.pack('<Q', len(b)) + b
kvs = [('general.architecture', 'llama'), ('general.type', 'adapter'), ('adapter.type', 'lora')]
out = b'GGUF' + struct.pack('<IQQ', 3, 1, len(kvs))
for k, v in kvs:
    out += s(k) + struct.pack('<I', 8) + s(v)
out += s('blk.0.attn_q.weight.lora_a') + struct.pack('<I', 2) + struct.pack('<QQ', 64, 128) + struct.pack('<IQ', 1, 0)
out += b'\0' * (-len(out) % 32) + b'\0' * 16384
open(sys.argv[1], 'wb').write(out)
PY
n=$((n + 1))
"$cli" estimate $L8Q --json >"$tmp/lo-none" 2>/dev/null
"$cli" estimate $L8Q --lora 16,"$tmp/adapter.gguf" --json >"$tmp/lo-two" 2>/dev/null
"$cli" estimate $L8Q --kv-offload off --cache-ram 2.5 --json >"$tmp/lo-host" 2>/dev/null
"$cli" command llamacpp $L8Q --lora "$tmp/adapter.gguf" --kv-offload off --cache-ram 2.5 >"$tmp/lo-cmd" 2>/dev/null
if python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
none, two, host = (json.load(open(t + x)) for x in ('/lo-none', '/lo-two', '/lo-host'))
# rank 16 over every linear layer of Llama 3 8B: 41,943,040 F16 parameters; the file's 16384 bytes
assert two['lora_bytes'] == 41943040 * 2 + 16384, two['lora_bytes']
assert two['devices'][0]['lora_bytes'] == two['lora_bytes']
assert two['total_bytes'] - none['total_bytes'] == two['lora_bytes']
assert none['lora_bytes'] == 0 and none['kv_offload'] is True and none['host_cache_bytes'] == 0
assert host['kv_offload'] is False and host['devices'][0]['kv_bytes'] == 0
assert host['host_bytes'] == none['host_bytes'] + none['kv_bytes'], (host['host_bytes'], none['host_bytes'])
assert host['host_cache_bytes'] == int(2.5 * 2**30)
assert host['decode_tokens_per_s'] < none['decode_tokens_per_s']
cmd = open(t + '/lo-cmd').read()
assert '--lora ' + t + '/adapter.gguf' in cmd and '--no-kv-offload' in cmd and '--cache-ram 2560' in cmd, cmd
PY
then echo "ok $n - the whole load: LoRA adapters by rank and file, the KV cache in RAM, the prompt cache"
else echo "not ok $n - the whole load: LoRA adapters by rank and file, the KV cache in RAM, the prompt cache"; failed=$((failed + 1))
fi

echo "1..$n"
[ $failed -eq 0 ]
