# perftest's ib_send_bw, ib_write_bw, ib_read_bw (64 KiB messages), ib_write_lat and ib_send_lat
# (2 B), server and client in this guest on the device's own address: each must report the
# iterations asked for and a positive average (guest-tests lib.sh perftest_run).
# t.perftest=TOOL[:BYTES[:ITERATIONS]],... runs only those tools, with those message sizes and
# iterations where given (scripts/bench-rdma.sh). RDMA_DEV: irdma0 by default, rxe0 from
# rxe-perftest.sh.
. /tests/lib.sh
dev=${RDMA_DEV:-irdma0}
gid=$(rdma_dev_up "$dev") || fail "$dev did not come up"
ip=$(rdma_dev_ip "$dev") || fail "no address for $dev"
for spec in $(echo "${T_perftest:-ib_send_bw,ib_write_bw,ib_read_bw,ib_write_lat,ib_send_lat}" | tr ',' ' '); do
    perftest_spec "$spec"
    perftest_run "$PT_TOOL" "$dev" "$gid" "$ip" "$PT_BYTES" "$PT_ITERS"
done
