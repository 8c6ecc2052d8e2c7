#!/usr/bin/env bash
# The timing model's determinism check: boots the guest twice under -icount (timing=auto runs
# the model there) with the same tests and the same fault plan (guest-tests/faults/
# replay-benign.plan: seeded faults the tests survive), and compares what the device did: the
# number of its guest-visible effects, their digest and the virtual time of the last one
# (run-guest.py --icount prints them), and the fault log. Prints "N passed, N failed" for the
# check itself.
#   scripts/determinism.sh [SHIFT]     SHIFT: -icount shift (default 0: 1 ns per instruction)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"
shift_arg=${1:-0}
case "$shift_arg" in
    ''|*[!0-9]*) echo "determinism: SHIFT must be a small integer, not '$shift_arg'" >&2; exit 2 ;;
esac

effects=()
for run in 1 2; do
    out=$(python3 "$here/run-guest.py" --list determinism --icount "$shift_arg" --smp 1 --quiet \
              --device-props "faults=$repo/guest-tests/faults/replay-benign.plan" \
              --qom-report x-fault-log --log "$repo/build/logs/determinism-$run.log") || {
        echo "$out"
        echo "FAIL    determinism: run $run's guest tests failed"
        echo "0 passed, 1 failed"
        exit 1
    }
    echo "$out" | sed "s/^/run $run: /"
    line=$(echo "$out" | grep '^device effects: [0-9]* digest' || true)
    faults=$(echo "$out" | sed -n 's/^qom x-fault-log //p')
    [ -n "$line" ] || { echo "FAIL    determinism: run $run printed no effects"; echo "0 passed, 1 failed"; exit 1; }
    nfaults=$(printf '%s' "$faults" | grep -o 'benign-criterr' | wc -l)
    [ "$nfaults" -gt 0 ] || { echo "FAIL    determinism: run $run fired no fault ($faults)"; echo "0 passed, 1 failed"; exit 1; }
    effects+=("$line, $nfaults faults, fault log $(printf '%s' "$faults" | md5sum | cut -c1-12)")
done
if [ "${effects[0]}" = "${effects[1]}" ]; then
    echo "PASS    determinism: both runs: ${effects[0]#device effects: }"
    echo "1 passed, 0 failed"
else
    echo "FAIL    determinism: run 1 '${effects[0]}', run 2 '${effects[1]}'"
    echo "0 passed, 1 failed"
    exit 1
fi
