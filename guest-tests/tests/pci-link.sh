# The function is a PCIe Endpoint whose link trained at 16 GT/s x16, as an E810 in a Gen4 x16
# slot, wherever the harness put it (t.pcie: in a root port's slot, or on the root bus without
# one): Linux reads that link (sysfs), and ice reports the bandwidth it gives, non-zero and with
# the real width.
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
dev=/sys/bus/pci/devices/$slot
case "${T_pcie:-}" in
    root-port) [ -e "$(readlink -f "$dev/..")/pci_bus" ] || fail "not below a port: $(readlink -f "$dev")" ;;
    root-bus) case "$(readlink -f "$dev")" in
                  /sys/devices/pci0000:00/"$slot") ;;
                  *) fail "not on the root bus: $(readlink -f "$dev")" ;;
              esac ;;
    *) fail "the harness said nothing of the placement (t.pcie)" ;;
esac
echo "irdma-sim at $slot ($T_pcie)"
lspci -vv -s "$slot" > /tmp/lspci.out 2>&1 || { cat /tmp/lspci.out; fail "lspci -vv failed"; }
grep -q "Express (v2) Endpoint" /tmp/lspci.out || { cat /tmp/lspci.out; fail "not a PCIe Endpoint"; }
for f in current_link_speed max_link_speed; do
    [ "$(cat "$dev/$f")" = "16.0 GT/s PCIe" ] || fail "$f is '$(cat "$dev/$f")'"
done
for f in current_link_width max_link_width; do
    [ "$(cat "$dev/$f")" = 16 ] || fail "$f is '$(cat "$dev/$f")'"
done
ifc=$(ice_up "$slot") || fail "ice did not come up"
line=$(dmesg | grep "ice $slot: .* available PCIe bandwidth") || fail "ice reported no PCIe bandwidth"
echo "$line"
echo "$line" | grep -q "available PCIe bandwidth (16.0 GT/s PCIe x16 link)$" ||
    fail "ice did not report a 16 GT/s x16 link"
gbs=$(echo "$line" | sed -n 's/.*: \([0-9][0-9]*\.[0-9][0-9][0-9]\) Gb\/s available.*/\1/p')
[ -n "$gbs" ] || fail "no bandwidth figure in ice's line"
# 16 lanes of 16 GT/s after 128b/130b encoding: 16 x 15.753 Gb/s.
[ "$gbs" = 252.048 ] || fail "ice reports $gbs Gb/s, not the 252.048 of a Gen4 x16 link"
echo "$ifc: $gbs Gb/s, 16 GT/s x16"
