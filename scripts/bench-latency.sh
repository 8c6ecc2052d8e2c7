#!/usr/bin/env bash
# Benchmark 3: the latency the guest measures against the timing model's own
# prediction, under -icount (shift 0: one guest instruction per ns).
#   1. bench-emu --latency: the model's doorbell-to-CQE time of one signaled WRITE per size over
#      internal loopback, on the device core alone (no guest).
#   2. one boot, timing=model: rdma-lat times post + spin-until-completion in the guest.
#   3. one boot, timing=inline: the same, with the device answering at once: what the guest's
#      own software (libibverbs, libirdma, the doorbell, the poll) costs.
# Prints, per size: measured, software, measured - software, predicted, and the ratios
# measured/predicted and (measured - software)/predicted (target: within 10 %).
#   scripts/bench-latency.sh [ITERATIONS]     default 50 per size
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"
iters=${1:-50}
case "$iters" in ''|*[!0-9]*|0) echo "bench-latency: ITERATIONS must be a positive integer, not '$iters'" >&2; exit 2 ;; esac
bench=$repo/build/meson/tests/bench/bench-emu
[ -x "$bench" ] || { echo "bench-latency: $bench missing (run scripts/irdma-sim test first)" >&2; exit 1; }
logs=$repo/build/logs
mkdir -p "$logs"

guest() {   # $1: timing mode; prints "SIZE NS" lines
    local log=$logs/bench-latency-$1.log
    python3 "$here/run-guest.py" --icount 0 --smp 1 --tests rdma-lat --quiet --log "$log" \
        --device-props "timing=$1" --append "t.lat_iters=$iters" > /dev/null ||
        { echo "bench-latency: the timing=$1 boot failed, see $log" >&2; exit 1; }
    sed -n 's/.*\[rdma-lat\] rdma-lat write \([0-9]*\) \([0-9]*\) .*/\1 \2/p' "$log"
}

mtu=1024      # what irdma's port reports for ice's default MTU of 1500
declare -A pred meas soft
while read -r _ _ size ns; do pred[$size]=$ns; done < <("$bench" --latency --mtu "$mtu" \
    --sizes 8,64,512,4096,65536,1048576 | grep '^model-latency write')
while read -r size ns; do meas[$size]=$ns; done < <(guest model)
while read -r size ns; do soft[$size]=$ns; done < <(guest inline)

echo "RDMA WRITE latency under -icount shift=0, internal loopback, RC MTU $mtu, median of $iters"
printf '%9s %10s %10s %10s %10s %10s %12s\n' bytes measured software device predicted \
    meas/pred "device/pred"
status=0
for size in 8 64 512 4096 65536 1048576; do
    m=${meas[$size]:-}; s=${soft[$size]:-}; p=${pred[$size]:-}
    if [ -z "$m" ] || [ -z "$s" ] || [ -z "$p" ]; then
        echo "bench-latency: no figure for $size bytes (measured '$m', software '$s', predicted '$p')" >&2
        status=1
        continue
    fi
    awk -v n="$size" -v m="$m" -v s="$s" -v p="$p" 'BEGIN {
        r = (m - s) / p
        printf "%9d %10d %10d %10d %10d %10.3f %12.3f %s\n", n, m, s, m - s, p, m / p, r,
               (r >= 0.9 && r <= 1.1) ? "within 10%" : "OUTSIDE 10%" }'
done
exit $status
