# The DCB traffic-class change under RDMA traffic. With ice's firmware LLDP agent off, 21 ETS
# changes cycle 1 -> 4 -> 8 -> 1 TCs, then 5 changes go into DSCP mode and back (ice needs a queue
# per TC: 8 combined channels, so this boot has 8 vCPUs). Each change makes irdma suspend every QP
# (SUSPEND_QP, AE 0x900 per QP), rebuild its work-scheduler tree and resume them; rping with payload
# verification (-V) runs throughout on its two QPs, and each change waits until it has gone on after
# the last. Checks: rping keeps going and verifies every ping, the device counted a suspend, an AE
# and a resume per QP per change (QP1 and rping's two), irdma logged no timeout or error and ice
# committed every change.
. /tests/lib.sh
rdma_dev_up irdma0 > /dev/null
ip=$(rdma_dev_ip irdma0) || fail "no address for irdma0"
ifc=$(irdma_sim_netdev) || fail "no netdev on irdma-sim"
dcb_sw_mode "$ifc"
before=$(suspend_counts) || fail "cannot read the suspend counts"
rping_start "$ip" tc-rping
qps=$(rdma resource show qp | grep -c "lqpn")
TC_TRAFFIC=rping
tc_cycle "$ifc" 7
# Traffic goes on after the last change.
rping_goes_on_and_stop tc-rping "the TC changes"
echo "$TC_CHANGES TC changes, $qps QPs, $(grep -c '^ping data' /tmp/tc-rping.client) verified pings"
expect_suspend_counts "$before" $((TC_CHANGES * qps))
errs=$(irdma_error_lines; dmesg | grep -E "irdma|ice" | grep -iE "suspend|Failed to config TC|cqp")
[ -z "$errs" ] || fail "the drivers reported: $errs"
