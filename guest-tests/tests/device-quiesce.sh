# Unbind irdma and ice: the device is left with no driver, bus mastering and MSI-X off, so
# nothing the guest does later (its poweroff) reaches it. The determinism check reads the
# device's effect digest after this test.
. /tests/lib.sh
rmmod irdma 2>/dev/null
rmmod ice || fail "rmmod ice failed"
slot=$(irdma_sim_slot) || fail "no irdma-sim PCI function"
dev=/sys/bus/pci/devices/$slot
[ ! -e "$dev/driver" ] || fail "$dev is still bound to $(basename "$(readlink "$dev/driver")")"
cmd=$(od -An -tx2 -j4 -N2 "$dev/config" | tr -d ' ')
[ $((0x$cmd & 0x4)) = 0 ] || fail "bus mastering still on (command 0x$cmd)"
echo "$(basename "$dev") unbound, command register 0x$cmd"
