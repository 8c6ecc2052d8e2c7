#!/usr/bin/env bash
# The QEMU fuzz target's kept inputs (docs/fuzzing.md "The whole device in QEMU") replayed
# without its fuzzing build: tests/fuzz/qemu/traces/ holds each corpus input and reproducer as
# the qtest script scripts/fuzz.sh --qemu wrote for it, and scripts/qemu-fuzz-trace.py replays
# them in a QEMU started as the fuzz target starts its machine (-qtest stdio): each reproducer
# in one of its own, the corpus in one QEMU, reset between two scripts. QEMU:
# a qemu-system-x86_64 with the device (default build/qemu-system-x86_64, the test command's).
# Prints a PASS/FAIL line for each reproducer, one for the corpus, and "N passed, N failed";
# exits 1 on a failure.
#   tests/qemu-fuzz-replay.sh [QEMU]
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
qemu=${1:-$repo/build/qemu-system-x86_64}
traces=$repo/tests/fuzz/qemu/traces
. "$repo/tests/lib-result.sh"

[ -x "$qemu" ] || { echo "qemu-fuzz-replay: no QEMU $qemu" >&2; exit 2; }
mapfile -t repro < <(cd "$repo/tests/fuzz/qemu/reproducers" 2> /dev/null && ls)
mapfile -t all < <(cd "$traces" 2> /dev/null && ls -- *.qtest)
if [ ${#all[@]} = 0 ]; then
    result FAIL "qemu-fuzz: $traces holds no qtest script"
    results
    exit
fi
for r in "${repro[@]}"; do
    if [ ! -e "$traces/$r.qtest" ]; then
        result FAIL "qemu-fuzz: reproducer $r: no qtest script $r.qtest"
    elif out=$(python3 "$repo/scripts/qemu-fuzz-trace.py" replay "$qemu" "$traces/$r.qtest"); then
        n=${out##* (}
        result PASS "qemu-fuzz: reproducer $r: ${n%)} replayed"
    else
        result FAIL "qemu-fuzz: reproducer $r: ${out#fault * }"
    fi
done
corpus=()
for t in "${all[@]}"; do
    [[ " ${repro[*]} " == *" ${t%.qtest} "* ]] || corpus+=("$traces/$t")
done
start=$(date +%s)
out=$(python3 "$repo/scripts/qemu-fuzz-trace.py" replay "$qemu" "${corpus[@]}")
rc=$?
commands=$(sed -n 's/^ok .* (\([0-9]*\) commands)$/\1/p' <<< "$out" | awk '{ n += $1 } END { print n + 0 }')
if [ $rc = 0 ]; then
    result PASS "qemu-fuzz: corpus: ${#corpus[@]} qtest scripts, $commands commands, in $(( $(date +%s) - start )) s"
else
    result FAIL "qemu-fuzz: corpus: $(grep -c '^fault' <<< "$out") of ${#corpus[@]} qtest scripts fault: $(grep '^fault' <<< "$out" | head -n 3 | cut -c1-300 | tr '\n' ' ')"
fi
results
