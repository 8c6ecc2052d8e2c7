# After the LAN tests, with the link up for longer than the netdev watchdog period (5 s), no ice
# line reports a failure: in particular no tx_timeout, which would mean Tx descriptors the
# driver posted were not completed or their interrupt was lost.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
ifc=$(ice_up "$slot") || fail "ice did not come up"
ip link set dev "$ifc" up
wait_for "grep -qx 1 /sys/class/net/$ifc/carrier" 20 || fail "no carrier on $ifc"
# Traffic the stack sends on its own (IPv6 DAD/MLD, ARP) plus some of ours.
ping -c 3 -W 1 -I "$ifc" 10.0.2.2 > /dev/null 2>&1
sleep 6
errs=$(ice_error_lines "$slot")
[ -z "$errs" ] || fail "ice reported: $errs"
echo "no ice failure lines; tx packets: $(cat /sys/class/net/$ifc/statistics/tx_packets)"
[ "$(cat /sys/class/net/$ifc/statistics/tx_packets)" -gt 0 ] || fail "nothing was transmitted"
