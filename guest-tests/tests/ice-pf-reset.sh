# A reset requested from the guest (a function-level reset through sysfs: ice quiesces, the
# device resets, ice rebuilds with a PF reset) recovers: the VSI is rebuilt, the netdev and its
# address stay, the carrier comes back.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
ifc=$(ice_up "$slot") || fail "ice did not come up"
ip link set dev "$ifc" up
before=$(dmesg | grep -c "ice $slot: VSI rebuilt. VSI index 0, type ICE_VSI_PF")
echo 1 > "/sys/bus/pci/devices/$slot/reset" || fail "writing the reset attribute failed"
wait_for "[ \$(dmesg | grep -c 'ice $slot: VSI rebuilt. VSI index 0, type ICE_VSI_PF') -gt $before ]" 60 ||
    fail "ice did not rebuild its PF VSI after the reset"
wait_for "grep -qx 1 /sys/class/net/$ifc/carrier" 20 || fail "no carrier after the reset"
[ "$(ice_netdev "$slot")" = "$ifc" ] || fail "the netdev changed across the reset"
errs=$(ice_error_lines "$slot")
[ -z "$errs" ] || fail "ice reported: $errs"
echo "reset done, $ifc rebuilt with carrier"
