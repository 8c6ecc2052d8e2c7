# rdma-verify between two guests (harness --peer-tests): role a is the responder (server), role
# b the requester (client); every check of the single-guest rdma-verify, but over the wire. The
# device is the pair's NIC's: rxe0 on virtio-net (--nic virtio), irdma0 on irdma-sim; RDMA_DEV
# overrides it.
. /tests/lib.sh
ifc=$(pair_up) || fail "the pair did not come up"
case "${T_nic:-irdma-sim}" in
    virtio) dev=${RDMA_DEV:-rxe0} ;;
    *) dev=${RDMA_DEV:-irdma0} ;;
esac
rdma_attach "$dev" "$ifc"
gid=$(roce_gid_index "$dev" "$T_ip") || fail "no RoCE v2 GID for $T_ip on $dev"
case "$T_role" in
    a) rdma-verify server "$dev" "$gid" 18600 > /tmp/rdma-verify.out 2>&1 ;;
    b) rdma-verify client "$dev" "$gid" "$T_peer" 18600 > /tmp/rdma-verify.out 2>&1 ;;
    *) fail "unknown role '$T_role'" ;;
esac
rc=$?
cat /tmp/rdma-verify.out
rdma_verify_result /tmp/rdma-verify.out "$rc"
