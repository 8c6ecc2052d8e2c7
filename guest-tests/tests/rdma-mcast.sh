# UD multicast on the device's own RoCE v2 GID, one step at a time in one process
# (guest-tests/rdma-mcast.c): two receivers attached to a group (irdma creates the group
# context, then modifies it), one detached (modify), the last detached (destroy), one attached
# again (create); after each step a datagram to the group must reach exactly the attached
# receivers, whole, and nobody else.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
rdma-mcast irdma0 "$gid" > /tmp/rdma-mcast.out 2>&1
rc=$?
cat /tmp/rdma-mcast.out
[ "$rc" = 0 ] || fail "rdma-mcast failed"
for round in two-members one-member no-member member-again; do
    grep -qx "ok $round" /tmp/rdma-mcast.out || fail "round $round did not pass"
done
grep -qx "rdma-mcast: 4 ok, 0 failed" /tmp/rdma-mcast.out || fail "not 4 rounds passed"
