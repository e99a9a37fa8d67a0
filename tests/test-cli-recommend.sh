#!/bin/sh
# test-cli-recommend.sh — headroom-cli recommend (issue 26): the error
# contract of its options, and the "done when": for an RTX 3060 12 GB with
# 32 GiB RAM at least 15 candidates, each of which fits when `estimate` is
# run again with its settings, the speed floor honoured, a third or more
# with a published quality figure.  Also estimate's quality and cost keys.
# Output is TAP.
set -u
cli="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
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
  [ -s "$tmp/out" ] && ok=0
  head -c 14 "$tmp/err" | grep -q '^headroom-cli: ' || ok=0
  if [ $ok -eq 1 ]; then
    echo "ok $n - $what"
  else
    echo "not ok $n - $what (status $status, stderr: $(cat "$tmp/err"))"
    failed=$((failed + 1))
  fi
}

result () {
  # result STATUS DESCRIPTION
  n=$((n + 1))
  if [ "$1" -eq 0 ]; then
    echo "ok $n - $2"
  else
    echo "not ok $n - $2"
    failed=$((failed + 1))
  fi
}

H="--hardware rtx-3060-12gb --ram 32"
check 2 "--task must be chat, code, reasoning, vision, long or serving" "unknown task" -- recommend $H --task poetry
check 2 "Unknown option --precision" "a stray option" -- recommend $H --precision q4_k_m
check 2 "Unknown option --kv-type" "no cache type" -- recommend $H --kv-type q8_0
check 2 "--limit 0 is out of range" "limit zero" -- recommend $H --limit 0
check 2 "--min-tokens-per-s must be a positive number" "negative speed floor" -- recommend $H --min-tokens-per-s -3
check 2 "--min-tokens-per-s must be a positive number" "speed floor not a number" -- recommend $H --min-tokens-per-s fast
check 2 "--context 0 is out of range" "context zero" -- recommend $H --context 0
check 2 "--ram must be at least" "tiny RAM" -- recommend --hardware rtx-3060-12gb --ram 0.001
check 2 "unknown hardware" "unknown hardware" -- recommend --hardware toaster
check 2 "exclude each other" "two prices" -- recommend $H --price-kwh 0.3 --price-per-hour 1
check 2 "--price-kwh must be a positive number" "a negative price" -- estimate --model THUDM/GLM-4-9B-0414 --precision q4_k_m --price-kwh -1
check 2 "unexpected argument" "a positional argument" -- recommend $H extra
check 2 "Unknown option --price-kwh" "matrix takes no price" -- matrix --model THUDM/GLM-4-9B-0414 --price-kwh 0.3

# The done-when, checked by re-running estimate on what recommend lists.
"$cli" recommend $H --limit 25 --json >"$tmp/rec.json" 2>"$tmp/err"
result $? "recommend --json runs"
"$cli" recommend $H --limit 40 --min-tokens-per-s 30 --json >"$tmp/fast.json" 2>>"$tmp/err"
result $? "recommend with a speed floor runs"
[ ! -s "$tmp/err" ]
result $? "no warning on stderr"

python3 - "$cli" "$tmp" <<'PY' >"$tmp/py" 2>&1
import json, subprocess, sys
cli, tmp = sys.argv[1], sys.argv[2]
rec = json.load(open(tmp + '/rec.json'))
fast = json.load(open(tmp + '/fast.json'))
assert rec['hardware'] == 'rtx-3060-12gb' and rec['basis'] == 'parameters', rec
assert rec['total_candidates'] >= 15, rec['total_candidates']
assert len(rec['candidates']) == 25
def estimate(c):
    out = subprocess.run([cli, 'estimate', '--model', c['model'], '--precision', c['precision'],
                          '--engine', c['engine'], '--context', str(c['context']),
                          '--hardware', 'rtx-3060-12gb', '--ram', '32', '--json'],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)
measured = 0
for c in rec['candidates'] + fast['candidates']:
    e = estimate(c)
    assert e['verdict'] != 'no-fit', (c, e['verdict'])
    assert e['total_bytes'] == c['total_bytes'], (c, e['total_bytes'])
    assert abs(e['decode_tokens_per_s'] - c['decode_tokens_per_s']) < 1e-6 * c['decode_tokens_per_s']
    assert c['command'] and c['command'].strip(), c
    assert c['quality_tier'] in ('reference', 'near-lossless', 'good', 'fair', 'poor', 'not-measured')
    if c['quality'] is not None:
        assert c['quality']['source'].startswith('https://') and c['quality']['kld'] >= 0
        measured += 1
    else:
        assert c['quality_tier'] in ('reference', 'not-measured'), c
assert measured * 3 >= len(rec['candidates']) + len(fast['candidates']), measured
assert fast['candidates'], 'nothing at 30 tok/s'
assert all(c['decode_tokens_per_s'] >= 30 for c in fast['candidates'])
assert fast['total_candidates'] < rec['total_candidates']
# the order: a candidate of a better tier group never follows a worse one
group = {'reference': 0, 'near-lossless': 0, 'good': 0, 'fair': 1, 'not-measured': 2, 'poor': 3}
g = [group[c['quality_tier']] for c in rec['candidates']]
assert g == sorted(g), g
print('ok')
PY
result $? "at least 15 candidates, each fits by estimate, floors honoured, a third with a sourced quality ($(tail -1 "$tmp/py"))"

# estimate: quality of the precision and the cache, energy, and the price
"$cli" estimate --model meta-llama/Llama-3.1-8B-Instruct --precision q4_k_m --kv-type q8_0 \
  --hardware rtx-3060-12gb --context 8192 --price-kwh 0.25 --json >"$tmp/e.json"
python3 - "$tmp/e.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
# llama.cpp's LLaMA 3 8B scoreboard: Q4_K_M KLD 0.031273, ΔPPL 0.175482
assert e['quality']['kld'] == 0.031273 and e['quality']['ppl_delta'] == 0.175482, e['quality']
assert e['quality_tier'] == 'good'
# llama.cpp PR #7412: q8_0 K and V cache on FP16 weights, KLD 0.000980
assert e['kv_quality']['kld'] == 0.00098 and e['kv_quality_tier'] == 'near-lossless'
j = e['joules_per_token']
assert 0 < j < 170 / e['decode_tokens_per_s'] * 1.000001, j   # at most board power / speed
assert abs(e['cost_per_million_tokens'] - j * 1e6 / 3.6e6 * 0.25) < 1e-9
PY
result $? "estimate --json: quality, kv_quality, joules_per_token, cost_per_million_tokens"
"$cli" estimate --model meta-llama/Llama-3.1-8B-Instruct --precision fp8 --kv-type fp8 \
  --hardware h100-sxm-80gb --price-per-hour 2.5 --json >"$tmp/e2.json"
python3 - "$tmp/e2.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
assert e['quality'] is None and e['quality_tier'] == 'not-measured'
assert e['kv_quality'] is None and e['kv_quality_tier'] == 'not-measured'
assert abs(e['cost_per_million_tokens'] - 1e6 / e['decode_tokens_per_s'] / 3600 * 2.5) < 1e-9
PY
result $? "estimate --json: not measured is null, a rental price per hour"
"$cli" estimate --model meta-llama/Llama-3.1-8B-Instruct --precision q4_k_m --json >"$tmp/e3.json"
grep -q '"cost_per_million_tokens" : null' "$tmp/e3.json"
result $? "no price: cost_per_million_tokens is null"
"$cli" hardware --model meta-llama/Llama-3.1-8B-Instruct --precision q4_k_m --hardware rtx-3060-12gb --json | grep -q '"joules_per_token" : [0-9]'
result $? "hardware --json: joules_per_token"

echo "1..$n"
[ $failed -eq 0 ]
