# The demo: show the device as the guest sees it and what the drivers do with it.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function on the bus"
echo "== the device"
lspci -nn -vv -s "$slot"
echo "== loading ice"
modprobe ice
sleep 1
wait_dmesg "ice $slot: ice_init_hw failed|ice $slot: .*(link|firmware)" 90 || true
dmesg | grep -E "ice|$slot"
echo "== network interfaces"
ip link show
