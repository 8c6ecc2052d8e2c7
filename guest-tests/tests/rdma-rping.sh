# librdmacm's rping (RDMA CM connection, SEND + RDMA READ/WRITE per ping), server and client in
# this guest on the device's own address; -V validates every ping's data. The client must print
# each of the N pings in order. RDMA_DEV: irdma0 by default, rxe0 from rxe-rping.sh.
. /tests/lib.sh
dev=${RDMA_DEV:-irdma0}
rdma_dev_up "$dev" > /dev/null
ip=$(rdma_dev_ip "$dev") || fail "no address for $dev"
count=50
timeout 60 rping -s -a "$ip" -C "$count" -V -v > /tmp/rping.server 2>&1 &
srv=$!
wait_for "rdma resource show cm_id | grep -q 'state LISTEN.*$ip:7174'" 20 ||
    { cat /tmp/rping.server; fail "rping server never listened"; }
timeout 60 rping -c -a "$ip" -C "$count" -V -v > /tmp/rping.client 2>&1 ||
    { cat /tmp/rping.client; fail "rping client failed"; }
wait "$srv" || { cat /tmp/rping.server; fail "rping server failed"; }
grep -q mismatch /tmp/rping.client /tmp/rping.server && fail "rping reported a data mismatch"
got=$(grep -c '^ping data: rdma-ping-' /tmp/rping.client)
in_order=$(awk -F'rdma-ping-' '/^ping data: rdma-ping-/ { split($2, f, ":"); if (f[1] != n++) bad = 1 } END { print bad ? "no" : "yes" }' /tmp/rping.client)
[ "$got" = "$count" ] && [ "$in_order" = yes ] ||
    { cat /tmp/rping.client; fail "rping client: $got pings (in order: $in_order), want $count"; }
echo "rping $dev: $got of $count pings validated"
