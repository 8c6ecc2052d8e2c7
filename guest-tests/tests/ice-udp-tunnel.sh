# ice probes with udp_tunnel loaded (rdma_rxe and vxlan load it): the DDP package's tunnel labels
# give ice a VXLAN and a GENEVE UDP port table, which the kernel requires of a netdev that
# advertises tunnel offloads; without them it refuses ice's netdev and ice's error path crashes.
# A VXLAN device then programs its port through the firmware's package update (0x0C42).
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
[ -d /sys/module/ice ] && { rmmod irdma 2> /dev/null; rmmod ice || fail "rmmod ice failed"; }
modprobe udp_tunnel || fail "modprobe udp_tunnel failed"
ifc=$(ice_up "$slot") || fail "ice did not come up"
ip link set dev "$ifc" up
tables=$(ethtool --show-tunnels "$ifc") || fail "ethtool --show-tunnels failed"
echo "$tables" | grep -q "vxlan" || fail "no VXLAN port table: $tables"
echo "$tables" | grep -q "geneve" || fail "no GENEVE port table: $tables"
modprobe vxlan || fail "modprobe vxlan failed"
# (busybox ip takes no dstport: the kernel's default VXLAN port it is)
ip link add vx0 type vxlan id 42 dev "$ifc" || fail "cannot create a VXLAN device"
ip link set vx0 up
wait_for "ethtool --show-tunnels $ifc | grep -q 'port [0-9]*, vxlan'" 10 ||
    fail "VXLAN port not offloaded: $(ethtool --show-tunnels "$ifc")"
ethtool --show-tunnels "$ifc" | grep 'port [0-9]*, vxlan'
ip link del vx0
wait_for "! ethtool --show-tunnels $ifc | grep -q 'port [0-9]*, vxlan'" 10 ||
    fail "VXLAN port still offloaded after the device went: $(ethtool --show-tunnels "$ifc")"
errs=$(ice_error_lines "$slot")
[ -z "$errs" ] || fail "ice reported: $errs"
