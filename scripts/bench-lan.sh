#!/usr/bin/env bash
# LAN throughput benchmark: two guests on one QEMU socket netdev move BYTES over TCP
# (guest-tests/tcpxfer, every byte verified), once on irdma-sim and once on virtio-net, RUNS
# times each in this one run; prints the median receive throughput of each and the ratio.
#   bench-lan.sh [RUNS] [BYTES]    (defaults 3, 104857600; build first with scripts/irdma-sim test)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"
runs=${1:-3}
bytes=${2:-104857600}
for v in "$runs" "$bytes"; do
    case "$v" in ''|*[!0-9]*|0) echo "bench-lan: '$v' is not a positive integer" >&2; exit 2 ;; esac
done

one_run() {  # $1: nic; prints the receiver's Mbit/s
    local log=$repo/build/logs/bench-lan-$1.log out
    out=$(python3 "$here/run-guest.py" --nic "$1" --tests pair-transfer --peer-tests pair-transfer \
          --quiet --timeout 600 --test-timeout 500 --append "t.bytes=$bytes" --log "$log")
    echo "$out" | grep -q '^2 passed, 0 failed$' || { echo "$out" >&2; echo "bench-lan: $1 run failed" >&2; exit 1; }
    sed -n 's/.*tcpxfer: received [0-9]* bytes, all verified, \([0-9.]*\) Mbit\/s.*/\1/p' \
        "$log" "${log%.log}-b.log" | head -n 1
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A mbps
for nic in irdma-sim virtio; do
    samples=""
    for _ in $(seq "$runs"); do samples+="$(one_run "$nic")"$'\n'; done
    mbps[$nic]=$(echo -n "$samples" | median)
done
printf '%-34s %10s %10s %8s\n' "guest<->guest TCP, median of $runs" "irdma-sim" "virtio" "ratio"
printf '%-34s %10.1f %10.1f %8.2f\n' "throughput (Mbit/s, $bytes B)" "${mbps[irdma-sim]}" \
    "${mbps[virtio]}" "$(awk -v a="${mbps[irdma-sim]}" -v b="${mbps[virtio]}" 'BEGIN { print a / b }')"
