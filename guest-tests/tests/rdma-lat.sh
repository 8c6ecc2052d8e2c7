# One RDMA WRITE at a time over internal loopback, its latency as the guest measures it
# (guest-tests/rdma-lat.c): the guest half of benchmark 3 (scripts/bench-latency.sh, which
# boots it under -icount). Checks every size completed with its bytes in place and a latency.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
sizes="8 64 512 4096 65536 1048576"
rdma-lat irdma0 "$gid" "${T_lat_iters:-50}" $sizes > /tmp/rdma-lat.out 2>&1
rc=$?
cat /tmp/rdma-lat.out
[ "$rc" = 0 ] || fail "rdma-lat failed"
for s in $sizes; do
    grep -Eq "^rdma-lat write $s [1-9][0-9]* [1-9][0-9]*$" /tmp/rdma-lat.out ||
        fail "no latency for $s bytes"
done
