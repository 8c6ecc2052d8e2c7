# Control-plane verbs through the real driver and rdma-core: PD, MRs (one large enough to need a
# PBL), a memory window, CQ, an RC QP to RTS, a UD QP, an address handle; all destroyed again,
# and the device finds nothing left behind when irdma is unloaded.
. /tests/lib.sh
ifc=$(irdma_up)
ip -4 addr show dev "$ifc" | grep -q "inet 10.0.2.15/24" || ip addr add 10.0.2.15/24 dev "$ifc"
want=0000:0000:0000:0000:0000:ffff:0a00:020f
idx=""
wait_for "grep -qx $want /sys/class/infiniband/irdma0/ports/1/gids/1 || grep -qx $want /sys/class/infiniband/irdma0/ports/1/gids/2 || grep -qx $want /sys/class/infiniband/irdma0/ports/1/gids/3" 20 ||
    fail "no IPv4 RoCE v2 GID"
for i in 1 2 3; do
    grep -qx "$want" "/sys/class/infiniband/irdma0/ports/1/gids/$i" && idx=$i && break
done
verbs-ctrl irdma0 "$idx" || fail "a control-plane verb failed"
leaked0=$(host_device_prop x-rdma-leaked)
rmmod irdma || fail "rmmod irdma failed"
[ "$(host_device_prop x-rdma-leaked)" = "$leaked0" ] || fail "objects left alive after the verbs test"
errs=$(irdma_error_lines)
[ -z "$errs" ] || fail "irdma reported: $errs"
