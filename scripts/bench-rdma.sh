#!/usr/bin/env bash
# RDMA benchmark: one guest with both NICs (run-guest.py --nic both), irdma-sim under irdma
# (irdma0) and virtio-net under Soft-RoCE (rxe0). On each device, in this one boot, perftest's
# ib_write_bw (64 KiB messages), ib_write_lat and ib_send_lat (2 B), server and client in the
# guest on the device's own address (guest test rdma-perftest); prints each device's averages
# and the ratio irdma0/rxe0. Exit status 1 if either device gave no result (its tests' output
# is in the log).
#   bench-rdma.sh    (build first with scripts/irdma-sim test)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"
log=$repo/build/logs/bench-rdma.log

# The harness's own verdict is not needed: a device that failed has no result line below.
# irdma0 first: ice cannot load once rdma_rxe is in (guest-tests lib.sh rdma_dev_up).
python3 "$here/run-guest.py" --nic both --tests rdma-perftest,rxe-perftest --quiet \
    --timeout 600 --test-timeout 240 --append "t.perftest=ib_write_bw,ib_write_lat,ib_send_lat" \
    --log "$log" > /dev/null || true

# The average test $1 reported for tool $2 (guest-tests lib.sh perftest_run), if any.
average() {
    sed -n "s/.*\[$1\] $2 [a-z0-9]*: [0-9]* B x [0-9]*: average \([0-9.]*\) .*/\1/p" "$log" | head -n 1
}

declare -A result
for dev in irdma0 rxe0; do
    test=rdma-perftest
    [ "$dev" = rxe0 ] && test=rxe-perftest
    for tool in ib_write_bw ib_write_lat ib_send_lat; do
        result[$dev.$tool]=$(average "$test" "$tool")
    done
done

printf '%-30s %10s %10s %8s\n' "one guest, loopback" irdma0 rxe0 ratio
for row in "ib_write_bw:64 KiB, MB/s" "ib_write_lat:2 B, usec" "ib_send_lat:2 B, usec"; do
    tool=${row%%:*}
    a=${result[irdma0.$tool]:-}
    b=${result[rxe0.$tool]:-}
    ratio=-
    [ -n "$a" ] && [ -n "$b" ] && ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')
    printf '%-30s %10s %10s %8s\n' "$tool (${row#*:})" "${a:-none}" "${b:-none}" "$ratio"
done
missing=0
for dev in irdma0 rxe0; do
    if [ -z "${result[$dev.ib_write_bw]}" ] || [ -z "${result[$dev.ib_write_lat]}" ] ||
        [ -z "${result[$dev.ib_send_lat]}" ]; then
        echo "$dev: no result (see $log)"
        missing=1
    fi
done
exit "$missing"
