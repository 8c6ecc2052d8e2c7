#!/usr/bin/env bash
# Boot-time benchmark: boots the same guest RUNS times with and without -device irdma-sim, in
# turns, and prints, per configuration, the median host time to /init and to the end of the
# boot's tests (guest-tests/lists/bench-boot: load the drivers), and the with/without ratios.
#   bench-boot.sh [RUNS]     (default 5; run scripts/irdma-sim test once first to build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"
runs=${1:-5}
case "$runs" in ''|*[!0-9]*|0) echo "bench-boot: RUNS must be a positive integer, not '$runs'" >&2; exit 2 ;; esac

one_boot() {  # $1: extra harness args; prints "INIT DONE"
    local out
    out=$(python3 "$here/run-guest.py" --list bench-boot --quiet $1 --log "$repo/build/logs/bench-boot.log")
    echo "$out" | grep -q '^1 passed, 0 failed$' || { echo "$out" >&2; echo "bench-boot: boot failed" >&2; exit 1; }
    echo "$out" | sed -n 's/^boot: \/init at \([0-9.]*\) s, tests done at \([0-9.]*\) s.*/\1 \2/p'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The two configurations alternate, boot by boot: the host's speed drifts over a run (other
# guests of its hypervisor), and in turns the drift falls on both alike.
declare -A init done_ samples=([with]="" [without]="")
for _ in $(seq "$runs"); do
    for cfg in with without; do
        args=""; [ "$cfg" = without ] && args="--nic none"
        samples[$cfg]+="$(one_boot "$args")"$'\n'
    done
done
for cfg in with without; do
    init[$cfg]=$(echo -n "${samples[$cfg]}" | awk '{ print $1 }' | median)
    done_[$cfg]=$(echo -n "${samples[$cfg]}" | awk '{ print $2 }' | median)
done

printf '%-24s %10s %10s %8s\n' "median of $runs boots" "with" "without" "ratio"
for m in init done_; do
    declare -n arr=$m
    label=$([ "$m" = init ] && echo "boot to /init (s)" || echo "boot to tests done (s)")
    printf '%-24s %10.2f %10.2f %8.2f\n' "$label" "${arr[with]}" "${arr[without]}" \
        "$(awk -v a="${arr[with]}" -v b="${arr[without]}" 'BEGIN { print a / b }')"
done
