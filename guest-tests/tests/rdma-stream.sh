# Continuous verified RC traffic (guest-tests/rdma-stream.c) for 20 s on T_qps QP pairs (t.qps=N
# on the kernel command line; 8 by default), loopback on the device's own RoCE v2 GID: WRITEs
# and SENDs of 1 B to 64 KiB, every byte and completion checked, no QP may stall or leave RTS.
# RDMA_DEV names the device: irdma0 by default, rxe0 from rxe-stream.sh.
. /tests/lib.sh
dev=${RDMA_DEV:-irdma0}
qps=${T_qps:-8}
gid=$(rdma_dev_up "$dev") || fail "$dev did not come up"
rdma-stream "$dev" "$gid" --qps "$qps" --seconds 20 > /tmp/rdma-stream.out 2>&1
rc=$?
cat /tmp/rdma-stream.out
rdma_stream_result /tmp/rdma-stream.out "$qps" "$rc"
