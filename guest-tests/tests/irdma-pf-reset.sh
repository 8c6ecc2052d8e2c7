# A reset of the function with irdma loaded (FLR through sysfs: ice unplugs the RoCE aux
# device, resets, rebuilds, plugs it back) recovers the ib_device with an active port.
. /tests/lib.sh
irdma_up > /dev/null
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
before=$(host_device_prop x-rdma-teardowns) || fail "no teardown count"
rebuilt=$(vsi_rebuilds) || fail "cannot count VSI rebuilds"
echo 1 > "/sys/bus/pci/devices/$slot/reset" || fail "writing the reset attribute failed"
expect_reset_recovery "$rebuilt"
ibv_devinfo -d irdma0 | grep -q "PORT_ACTIVE" || fail "ibv_devinfo: port not active after reset"
echo "irdma0 back after the reset (teardowns seen by the device: $before -> $(host_device_prop x-rdma-teardowns))"
