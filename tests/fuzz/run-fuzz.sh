#!/bin/sh
# run-fuzz.sh FUZZER DICT LIMIT SEED_DIR... — runs one libFuzzer target
# from its seeds and fails if it finds a crash, a leak, a timeout or a
# failed check.
#
#   LIMIT   -max_total_time=25 (CI's smoke run) or -runs=10000000 (a long run)
#
# New inputs go to $FUZZ_CORPUS_DIR when set (keep it between long runs),
# else to a temporary directory; the seed directories are only read.
# Crash inputs are saved in $FUZZ_ARTIFACT_DIR (default: the current
# directory).  An input that runs longer than $FUZZ_TIMEOUT seconds
# (default 10) is a hang; give long runs on a busy machine more (60).  The last line printed is libFuzzer's final statistics:
# executions, coverage (cov: edges, ft: features) and corpus size.
set -u
fuzzer=$1; dict=$2; limit=$3; shift 3

corpus=${FUZZ_CORPUS_DIR:-}
if [ -z "$corpus" ]; then
  corpus=$(mktemp -d)
  trap 'rm -rf "$corpus"' EXIT
fi
mkdir -p "$corpus"
artifacts=${FUZZ_ARTIFACT_DIR:-.}
mkdir -p "$artifacts"
log=$(mktemp)

# GLib 2.74's slice allocator hides frees from LeakSanitizer.
G_SLICE=always-malloc "$fuzzer" "$limit" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 \
  -dict="$dict" -print_final_stats=1 -artifact_prefix="$artifacts/" \
  "$corpus" "$@" >"$log" 2>&1
status=$?

if [ $status -ne 0 ]; then
  tail -n 60 "$log"
else
  grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|slowest_unit_time_sec|peak_rss_mb)' "$log"
fi
rm -f "$log"
exit $status
