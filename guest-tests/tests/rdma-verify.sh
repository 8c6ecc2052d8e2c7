# The verbs data path, byte for byte (guest-tests/rdma-verify.c): RC SEND/WRITE/READ with and
# without immediate from 1 B to 4 MiB, inline, scatter/gather, UD, a memory window, and the
# access and flush errors, with both ends in this guest on the device's own RoCE v2 GID
# (loopback). RDMA_DEV names the device: irdma0 by default, rxe0 from rxe-verify.sh.
. /tests/lib.sh
dev=${RDMA_DEV:-irdma0}
gid=$(rdma_dev_up "$dev") || fail "$dev did not come up"
rdma-verify loop "$dev" "$gid" > /tmp/rdma-verify.out 2>&1
rc=$?
cat /tmp/rdma-verify.out
rdma_verify_result /tmp/rdma-verify.out "$rc"
