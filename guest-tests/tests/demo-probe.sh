# The demo, step 1 (scripts/demo.py): ice probes the device, DCB is put in software (firmware
# LLDP agent off: the next step sets the traffic classes with dcbnl) with a queue per TC, and
# irdma comes up on top: irdma0 with its port ACTIVE and a RoCE v2 GID. Prints what it found.
. /tests/lib.sh
# ice needs a queue per traffic class; the demo goes to this many TCs.
DEMO_TCS=4
slot=$(irdma_sim_slot) || fail "no irdma-sim function on the bus"
echo "device: $slot $(lspci -nn -s "$slot" | cut -d' ' -f2-)"
ifc=$(ice_up "$slot") || fail "ice did not come up"
errs=$(ice_error_lines "$slot")
[ -z "$errs" ] || fail "ice reported: $errs"
echo "ice: netdev $ifc, $(ethtool -i "$ifc" | awk -F': ' '/^firmware-version/ { print "firmware " $2 }')"
ethtool --set-priv-flags "$ifc" fw-lldp-agent off || fail "cannot turn the firmware LLDP agent off"
ch=$(ethtool -l "$ifc" | awk '/^Combined:/ { n = $2 } END { print n }')
if [ "${ch:-0}" -lt "$DEMO_TCS" ]; then
    ethtool -L "$ifc" combined "$DEMO_TCS" || fail "ethtool -L combined $DEMO_TCS failed ($(nproc) vCPUs)"
    ch=$DEMO_TCS
fi
echo "ice: firmware LLDP agent off (DCB in software), $ch queue channels"
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
state=$(sed "s/^[0-9]*: //" /sys/class/infiniband/irdma0/ports/1/state)
echo "irdma: irdma0 on $ifc, port 1 $state, RoCE v2 GID index $gid ($(rdma_dev_ip irdma0))"
errs=$(irdma_error_lines)
[ -z "$errs" ] || fail "irdma reported: $errs"
qps=$(rdma resource show qp | grep -c "lqpn")
echo "irdma0 ACTIVE with $qps QP (QP1, the GSI QP of RDMA CM)"
