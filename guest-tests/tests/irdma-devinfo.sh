# ibv_devinfo -v: port active on Ethernet at 25G, RoCE v2 GIDs, and the limits the device's
# FPM values give the driver.
. /tests/lib.sh
irdma_up > /dev/null
info=$(ibv_devinfo -v -d irdma0) || fail "ibv_devinfo failed"
echo "$info" | grep -E "hca_id|fw_ver|vendor|max_qp:|max_cq:|max_mr:|max_pd:|state|link_layer|active_speed|active_width|GID"
echo "$info" | grep -q "state:.*PORT_ACTIVE (4)" || fail "port not PORT_ACTIVE"
echo "$info" | grep -q "link_layer:.*Ethernet" || fail "link layer is not Ethernet"
echo "$info" | grep -q "vendor_id:.*0x8086" || fail "vendor id is not 0x8086"
for lim in max_qp max_cq max_mr max_pd max_qp_wr max_cqe; do
    v=$(echo "$info" | sed -n "s/^[[:space:]]*$lim:[[:space:]]*\([0-9]*\).*/\1/p" | head -n 1)
    [ -n "$v" ] && [ "$v" -gt 1 ] || fail "$lim is '$v'"
done
grep -qx "RoCE v2" /sys/class/infiniband/irdma0/ports/1/gid_attrs/types/0 ||
    fail "GID 0 is not RoCE v2"
