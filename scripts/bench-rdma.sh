#!/usr/bin/env bash
# RDMA benchmark: one guest with both NICs (run-guest.py --nic both), irdma-sim under irdma
# (irdma0) and virtio-net under Soft-RoCE (rxe0). On each device, in this one boot, perftest's
# ib_write_bw (64 KiB messages) and ib_write_lat, ib_send_lat and ib_read_lat at 2 B and 64 B
# (LAT_ITERS iterations each, inline up to 64 B), server and client in the guest on the device's
# own address (guest test rdma-perftest). Prints, per tool and size, each device's figure and the
# ratio irdma0/rxe0: the bandwidth's average; the latencies' median (perftest's t_typical),
# average and 99th percentile. Then the same between two guests on one wire (guest test
# pair-perftest: the server in one, the client in the other; irdma-sim's on a QEMU socket pair,
# virtio-net's likewise under rxe): ib_write_bw and the latencies at 2 B. Exit status 1 if either
# device left a figure out (its tests' output is in the logs).
#   bench-rdma.sh [LAT_ITERS]    (default 2000; build first with scripts/irdma-sim test)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"
log=$repo/build/logs/bench-rdma.log
pair_log=$repo/build/logs/bench-rdma-pair.log          # and -b.log: the clients' side
rxe_pair_log=$repo/build/logs/bench-rdma-rxe-pair.log
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
pair_tools="ib_write_bw"
for t in ib_write_lat ib_send_lat ib_read_lat; do pair_tools+=",$t:2:$iters"; done
for nic in irdma-sim virtio; do
    plog=$pair_log
    [ $nic = irdma-sim ] || plog=$rxe_pair_log
    python3 "$here/run-guest.py" --nic $nic --peer-nic $nic --tests pair-perftest \
        --peer-tests pair-perftest --quiet --timeout 900 --test-timeout 600 \
        --append "t.perftest=$pair_tools" --log "$plog" > /dev/null || true
done

# figure LOG TEST TOOL BYTES STAT: what test TEST reported in LOG for TOOL at BYTES (guest-tests
# lib.sh perftest_report): STAT is average, median or p99.
figure() {
    sed -n "s/.*\[$2\] $3 [a-z0-9]*: $4 B x [0-9]*: .*\b$5 \([0-9.]*\) .*/\1/p" "$1" | head -n 1
}

missing=0
# row IRDMA-LOG IRDMA-TEST RXE-LOG RXE-TEST TOOL BYTES STAT
row() {
    local a b ratio=-
    a=$(figure "$1" "$2" "$5" "$6" "$7"); b=$(figure "$3" "$4" "$5" "$6" "$7")
    [ -n "$a" ] && [ -n "$b" ] && ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')
    [ -n "$a" ] && [ -n "$b" ] || missing=1
    printf '%-13s %7s %-8s %10s %10s %8s\n' "$5" "$6" "$7" "${a:-none}" "${b:-none}" "$ratio"
}
printf '%-13s %7s %-8s %10s %10s %8s\n' "one guest" bytes figure irdma0 rxe0 ratio
one=("$log" rdma-perftest "$log" rxe-perftest)
row "${one[@]}" ib_write_bw 65536 average
for t in ib_write_lat ib_send_lat ib_read_lat; do
    for b in 2 64; do
        for s in median average p99; do row "${one[@]}" "$t" "$b" "$s"; done
    done
done
printf '%-13s %7s %-8s %10s %10s %8s\n' "two guests" bytes figure irdma0 rxe0 ratio
two=("${pair_log%.log}-b.log" pair-perftest "${rxe_pair_log%.log}-b.log" pair-perftest)
row "${two[@]}" ib_write_bw 65536 average
for t in ib_write_lat ib_send_lat ib_read_lat; do
    for s in median average p99; do row "${two[@]}" "$t" 2 "$s"; done
done
echo "units: MB/s for ib_write_bw, usec for the latencies; $iters iterations per latency;" \
     "logs $log, $pair_log, $rxe_pair_log (the clients' in their -b.log)"
[ $missing = 0 ] || echo "bench-rdma: a figure is missing (see $log)"
exit "$missing"
