# ice.ko binds to the device and its probe runs: PF reset, control-queue setup, then the first
# admin-queue command. Until the firmware model exists (the E810 firmware model issue) nothing
# answers the admin queue, so get_version times out (1 s each, 10 tries) and ice_init_hw fails
# with -EIO. This test asserts exactly that sequence.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
modprobe ice || fail "modprobe ice failed"
dmesg | grep -q "ice: Intel(R) Ethernet Connection E800 Series Linux Driver" ||
    fail "ice did not load"
wait_dmesg "ice $slot: ice_init_hw failed" 90 || fail "ice did not report its probe outcome for $slot"
dmesg | grep "$slot"
dmesg | grep -q "ice $slot: ice_init_hw failed: -5" ||
    fail "ice_init_hw failed differently from the expected admin-queue timeout (-EIO)"
# The driver matched our id: the probe ran, and it failed, so the device is not bound.
[ ! -e "/sys/bus/pci/devices/$slot/driver" ] || fail "ice stayed bound after a failed probe"
echo "ice probed $slot and stopped at the admin queue, as expected before the firmware model"
