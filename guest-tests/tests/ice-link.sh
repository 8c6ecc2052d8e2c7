# ip link set up brings the carrier up (the firmware answers get_link_status with link up at
# 25G and sends link events); an IPv4 address can be added.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
ifc=$(ice_up "$slot") || fail "ice did not come up"
ip link set dev "$ifc" up || fail "ip link set up failed"
wait_for "grep -qx 1 /sys/class/net/$ifc/carrier" 20 || fail "no carrier on $ifc"
wait_dmesg "ice $slot $ifc: NIC Link is up 25 Gbps Full Duplex" 10 || fail "ice did not log link up"
ip addr add 10.0.2.15/24 dev "$ifc" || fail "ip addr add failed"
ip -4 addr show dev "$ifc" | grep -q "inet 10.0.2.15/24" || fail "address not on $ifc"
wait_for "grep -qx up /sys/class/net/$ifc/operstate" 10 || fail "operstate did not become up"
echo "$ifc up with carrier and 10.0.2.15/24"
