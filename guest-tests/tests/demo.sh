# The demo (scripts/irdma-sim demo): the device as the guest sees it, and what the unmodified
# drivers do with it. It shows; the test suite asserts.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function on the bus"
echo "== the device"
lspci -nn -vv -s "$slot" | head -n 30
echo "== ice probes it"
ifc=$(ice_up "$slot") || fail "ice did not come up"
dmesg | grep -E "ice $slot|ice:" | grep -v "firmware: failed to load intel/ice/ddp/ice-"
ethtool -i "$ifc"
devlink dev info "pci/$slot"
echo "== link, address, a ping to the QEMU user-net gateway"
ip link set dev "$ifc" up
wait_for "grep -qx 1 /sys/class/net/$ifc/carrier" 20
ip addr add 10.0.2.15/24 dev "$ifc"
ethtool "$ifc" | grep -E "Speed|Duplex|Link detected"
ping -c 3 10.0.2.2
echo "== irdma on top"
modprobe irdma
wait_for "[ -e /sys/class/infiniband/irdma0 ]" 60
sleep 2
dmesg | grep -E "irdma|infiniband"
ibv_devices
