# The port's link follows the QEMU netdev: set_link off/on from the monitor (the harness does
# it when asked on the console) becomes a link-status event from the firmware, and ice takes
# the carrier down and up again.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
ifc=$(ice_up "$slot") || fail "ice did not come up"
ip link set dev "$ifc" up
wait_for "grep -qx 1 /sys/class/net/$ifc/carrier" 20 || fail "no carrier on $ifc"
ups=$(dmesg | grep -c "ice $slot $ifc: NIC Link is up")
host_ask "set_link n0 off" | grep -q '"return"' || fail "the host could not set_link off"
wait_for "grep -qx 0 /sys/class/net/$ifc/carrier" 20 || fail "carrier stayed up after set_link off"
wait_dmesg "ice $slot $ifc: NIC Link is Down" 10 || fail "ice did not log link down"
host_ask "set_link n0 on" | grep -q '"return"' || fail "the host could not set_link on"
wait_for "grep -qx 1 /sys/class/net/$ifc/carrier" 20 || fail "carrier did not come back after set_link on"
[ "$(dmesg | grep -c "ice $slot $ifc: NIC Link is up")" -gt "$ups" ] || fail "ice did not log link up again"
echo "link went down and up with the netdev"
