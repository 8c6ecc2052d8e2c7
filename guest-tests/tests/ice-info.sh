# What ethtool and devlink report comes from the firmware model: the NVM, option ROM, netlist
# and DDP versions, the board id, the serial number (the DSN) and the 25G port.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
ifc=$(ice_up "$slot") || fail "ice did not come up"
info=$(ethtool -i "$ifc") || fail "ethtool -i failed"
echo "$info"
echo "$info" | grep -qx "driver: ice" || fail "ethtool -i: driver is not ice"
echo "$info" | grep -qx "firmware-version: 4.30 0x8001e810 1.3430.0" || fail "ethtool -i: firmware version"
echo "$info" | grep -qx "bus-info: $slot" || fail "ethtool -i: bus-info"
dl=$(devlink dev info "pci/$slot") || fail "devlink dev info failed"
echo "$dl"
dsn=$(dsn_of_mac "${T_mac:-}") || fail "the harness passed no MAC (t.mac)"
for want in "serial_number $(echo "$dsn" | sed 's/\(..\)/\1-/g; s/-$//')" \
            "board.id SIM810-000" "fw.mgmt 7.2.3" "fw.mgmt.api 1.7.9" "fw.undi 1.3430.0" \
            "fw.psid.api 4.30" "fw.bundle_id 0x8001e810" "fw.app.name irdma-sim synthetic DDP" \
            "fw.app 1.3.99.0" "fw.netlist 4.30.2000-3.1d.0"; do
    echo "$dl" | grep -q "^ *$want\$" || fail "devlink dev info lacks '$want'"
done
link=$(ethtool "$ifc") || fail "ethtool failed"
echo "$link" | grep -q "Speed: 25000Mb/s" || fail "ethtool: speed is not 25000Mb/s"
echo "$link" | grep -q "25000baseSR/Full" || fail "ethtool: no 25000baseSR link mode"
