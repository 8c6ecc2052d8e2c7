# rmmod irdma && modprobe irdma, 5 times: every probe brings irdma0 back with an active port,
# and the device's leak check (it counts the RDMA objects still alive when the driver destroys
# its CQP) finds nothing left behind, as the host reads it over QMP.
. /tests/lib.sh
irdma_up > /dev/null
before=$(host_device_prop x-rdma-teardowns) || fail "no teardown count"
for round in 1 2 3 4 5; do
    irdma_unload || fail "round $round: rmmod irdma failed"
    [ ! -e /sys/class/infiniband/irdma0 ] || fail "round $round: irdma0 still there after rmmod"
    irdma_up > /dev/null
done
after=$(host_device_prop x-rdma-teardowns) || fail "no teardown count"
leaked=$(host_device_prop x-rdma-leaked) || fail "no leak count"
echo "teardowns $before -> $after, leaked objects $leaked"
[ "$after" -ge $((before + 5)) ] || fail "the device saw $((after - before)) teardowns, not 5"
[ "$leaked" = 0 ] || fail "$leaked RDMA objects were alive after the driver's teardown"
errs=$(irdma_error_lines)
[ -z "$errs" ] || fail "irdma reported: $errs"
