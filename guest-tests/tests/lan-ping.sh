# Frames go both ways on the QEMU netdev: ARP and ICMP echo with the slirp gateway (10.0.2.2).
# Receive counters and checksum-offload results come from the device's Rx descriptors.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
ifc=$(ice_up "$slot") || fail "ice did not come up"
ip link set dev "$ifc" up
wait_for "grep -qx 1 /sys/class/net/$ifc/carrier" 20 || fail "no carrier on $ifc"
ip -4 addr show dev "$ifc" | grep -q "inet 10.0.2.15/24" || ip addr add 10.0.2.15/24 dev "$ifc"
rx0=$(cat "/sys/class/net/$ifc/statistics/rx_packets")
out=$(ping -c 5 -i 0.2 -W 2 10.0.2.2) || { echo "$out"; fail "no ping reply from the slirp gateway"; }
echo "$out" | tail -n 2
echo "$out" | grep -q " 0% packet loss" || fail "ping lost packets"
ip neigh show dev "$ifc" | grep -q "10.0.2.2 lladdr" || fail "the gateway's ARP reply was not received"
rx1=$(cat "/sys/class/net/$ifc/statistics/rx_packets")
[ "$((rx1 - rx0))" -ge 5 ] || fail "rx_packets grew by $((rx1 - rx0)), expected >= 5"
ethtool -S "$ifc" | grep -E "rx_csum_bad|hw_csum_rx_error" | grep -qv ": 0$" && fail "checksum errors reported"
echo "ping ok, rx_packets +$((rx1 - rx0))"
