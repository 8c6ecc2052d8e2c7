# ice.ko probes the device completely: the synthetic DDP package loads (no safe mode, so RDMA
# stays enabled), DCB comes up, the PCIe link is reported as the x16 Gen4 slot, a netdev exists
# and no ice line reports a failure.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
ifc=$(ice_up "$slot") || fail "ice did not come up"
echo "netdev $ifc on $slot"
dmesg | grep -q "ice $slot: The DDP package was successfully loaded: irdma-sim synthetic DDP version 1.3.99.0" ||
    fail "the DDP package did not load"
dmesg | grep -qi "safe mode" && fail "ice entered safe mode"
dmesg | grep -q "ice $slot: DCB is enabled in the hardware, max number of TCs supported on this port are 8" ||
    fail "DCB did not initialise"
dmesg | grep -q "ice $slot: .* available PCIe bandwidth (16.0 GT/s PCIe x16 link)" ||
    fail "PCIe link not reported as 16 GT/s x16"
errs=$(ice_error_lines "$slot")
[ -z "$errs" ] || fail "ice reported: $errs"
[ "$(readlink "/sys/bus/pci/devices/$slot/driver")" != "" ] || fail "no driver bound to $slot"
basename "$(readlink "/sys/bus/pci/devices/$slot/driver")" | grep -qx ice || fail "bound to a driver other than ice"
