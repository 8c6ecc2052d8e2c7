# ice.ko binds to the device and probes it as far as the firmware model answers. With ice's
# dynamic debug on, the driver logs every admin-queue command it sends and how it completed,
# so this test asserts exactly where the probe stops. The firmware model is being built
# (the E810 firmware model issue): today it answers get_version, the NVM and the capabilities,
# and the Tx scheduler's query_sched_res (0x0412) is still unknown to it (ENOSYS, 0x11), which
# ice_init_hw reports as -EIO.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
modprobe ice dyndbg=+p || fail "modprobe ice failed"
dmesg | grep -q "ice: Intel(R) Ethernet Connection E800 Series Linux Driver" ||
    fail "ice did not load"
wait_dmesg "ice $slot: ice_init_hw failed" 90 || fail "ice did not report its probe outcome for $slot"
dmesg | grep -q "ice $slot: CQ CMD: opcode 0x0001" || fail "ice never sent get_version"
dmesg | grep -q "ice $slot: Control Send Queue command 0x0001 completed with error" &&
    fail "get_version failed"
dmesg | grep -q "ice $slot: Control Send Queue Writeback timeout" &&
    fail "an admin-queue command timed out: the device did not complete it"
dmesg | grep "$slot: Control Send Queue command .* completed with error" | head -n 3
for opc in 0x0701 0x000B 0x000A 0x0200; do
    dmesg | grep -q "ice $slot: CQ CMD: opcode $opc" || fail "ice never sent $opc"
done
dmesg | grep -q "ice $slot: Control Send Queue command 0x0412 completed with error 0x11" ||
    fail "the probe did not stop at query_sched_res (0x0412 -> ENOSYS)"
dmesg | grep -q "ice $slot: ice_init_hw failed: -5" || fail "ice_init_hw failed differently"
[ ! -e "/sys/bus/pci/devices/$slot/driver" ] || fail "ice stayed bound after a failed probe"
echo "ice probed $slot: version, NVM, caps, switch config answered; stopped at 0x0412 as expected now"
