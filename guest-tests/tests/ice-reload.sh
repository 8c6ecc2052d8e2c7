# rmmod ice && modprobe ice, twice in a row: every probe succeeds again (the firmware model
# drops the PF's configuration on the driver's PF reset and clear_pf_cfg).
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
ice_up "$slot" > /dev/null
for round in 1 2; do
    loaded=$(dmesg | grep -c "ice $slot: The DDP package was successfully loaded")
    rmmod ice || fail "round $round: rmmod ice failed"
    ! ice_netdev "$slot" > /dev/null || fail "round $round: netdev still there after rmmod"
    ifc=$(ice_up "$slot") || fail "round $round: ice did not come back"
    [ "$(dmesg | grep -c "ice $slot: The DDP package was successfully loaded")" -gt "$loaded" ] ||
        fail "round $round: the probe did not load the package again"
    ip link set dev "$ifc" up
    wait_for "grep -qx 1 /sys/class/net/$ifc/carrier" 20 || fail "round $round: no carrier"
    echo "round $round: $ifc back with carrier"
done
errs=$(ice_error_lines "$slot")
[ -z "$errs" ] || fail "ice reported: $errs"
