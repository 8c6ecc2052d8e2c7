# iproute2's rdma tool sees the device: the link is ACTIVE on the ice netdev, and the
# resources ib_core created at registration (QP1, its CQ and PD) are listed.
. /tests/lib.sh
ifc=$(irdma_up) || fail "irdma0 did not come up"
link=$(rdma link show irdma0/1) || fail "rdma link failed"
echo "$link"
echo "$link" | grep -q "state ACTIVE physical_state LINK_UP netdev $ifc" || fail "rdma link: not ACTIVE on $ifc"
res=$(rdma resource show irdma0) || fail "rdma resource failed"
echo "$res"
echo "$res" | grep -Eq "qp [1-9]" || fail "rdma resource: no QP"
rdma resource show qp link irdma0/1 | grep -q "lqpn 1 .*type GSI" || fail "rdma resource: no GSI QP1"
