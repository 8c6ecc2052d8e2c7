#!/usr/bin/env bash
# RDMA benchmark: one guest with both NICs (run-guest.py --nic both), irdma-sim under irdma
# (irdma0) and virtio-net under Soft-RoCE (rxe0). On each device, in this one boot, perftest's
# ib_write_bw (64 KiB messages) and ib_write_lat, ib_send_lat and ib_read_lat at 2 B and 64 B
# (LAT_ITERS iterations each, inline up to 64 B), server and client in the guest on the device's
# own address (guest test rdma-perftest). Prints, per tool and size, each device's figure and the
# ratio irdma0/rxe0: the bandwidth's average; the latencies' median (perftest's t_typical),
# average and 99th percentile. Exit status 1 if either device left a figure out (its tests'
# output is in the log).
#   bench-rdma.sh [LAT_ITERS]    (default 2000; build first with scripts/irdma-sim test)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"
log=$repo/build/logs/bench-rdma.log
iters=${1:-2000}
case "$iters" in ''|*[!0-9]*|0) echo "bench-rdma: LAT_ITERS must be a positive integer, not '$iters'" >&2; exit 2 ;; esac
mkdir -p "$(dirname "$log")"

tools="ib_write_bw"
for t in ib_write_lat ib_send_lat ib_read_lat; do
    for b in 2 64; do tools+=",$t:$b:$iters"; done
done
# The harness's own verdict is not needed: a device that failed has no result line below.
# irdma0 first: ice cannot load once rdma_rxe is in (guest-tests lib.sh rdma_dev_up).
python3 "$here/run-guest.py" --nic both --tests rdma-perftest,rxe-perftest --quiet \
    --timeout 900 --test-timeout 400 --append "t.perftest=$tools" --log "$log" > /dev/null || true

# figure TEST TOOL BYTES STAT: what test TEST reported for TOOL at BYTES (guest-tests lib.sh
# perftest_run): STAT is average, median or p99.
figure() {
    sed -n "s/.*\[$1\] $2 [a-z0-9]*: $3 B x [0-9]*: .*\b$4 \([0-9.]*\) .*/\1/p" "$log" | head -n 1
}

printf '%-13s %7s %-8s %10s %10s %8s\n' "one guest" bytes figure irdma0 rxe0 ratio
missing=0
row() {   # tool bytes stat unit
    local a b ratio=-
    a=$(figure rdma-perftest "$1" "$2" "$3"); b=$(figure rxe-perftest "$1" "$2" "$3")
    [ -n "$a" ] && [ -n "$b" ] && ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')
    [ -n "$a" ] && [ -n "$b" ] || missing=1
    printf '%-13s %7s %-8s %10s %10s %8s\n' "$1" "$2" "$3" "${a:-none}" "${b:-none}" "$ratio"
}
row ib_write_bw 65536 average
for t in ib_write_lat ib_send_lat ib_read_lat; do
    for b in 2 64; do
        for s in median average p99; do row "$t" "$b" "$s"; done
    done
done
echo "units: MB/s for ib_write_bw, usec for the latencies; $iters iterations per latency; log $log"
[ $missing = 0 ] || echo "bench-rdma: a figure is missing (see $log)"
exit "$missing"
