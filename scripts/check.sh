#!/usr/bin/env bash
# Runs every lit test (the unit tests included) and ends with one summary
# line: "N passed, N failed".
set -uo pipefail
lit=$1
build=$2
log=$(mktemp)
"$lit" -sv "$build/test" "$build/test/Unit" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# lit pads the labels ("  Passed     : 152 (91.02%)").
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | head -1; }
passed=$(( $(count Passed || true) + 0 ))
expected_fail=$(( $(count "Expectedly Failed" || true) + 0 ))
failed=$(( $(count Failed || true) + $(count "Unexpectedly Passed" || true) + 0 ))
skipped=$(( $(count Unsupported || true) + 0 ))
rm -f "$log"
echo "$((passed + expected_fail)) passed, $failed failed, $skipped skipped"
exit "$status"
