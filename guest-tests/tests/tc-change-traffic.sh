# The DCB traffic-class change under RDMA traffic (issue: QP suspend/resume). With ice's
# firmware LLDP agent off, 21 ETS changes cycle 1 -> 4 -> 8 -> 1 TCs, then 5 changes go into
# DSCP mode and back (ice needs a queue per TC: 8 combined channels, so this boot has 8
# vCPUs). Each change makes irdma suspend every QP (SUSPEND_QP, AE 0x900 per QP), rebuild its
# work-scheduler tree and resume them; rping with payload verification (-V) runs throughout on
# its two QPs. Checks: rping keeps going and verifies every ping, the device counted a
# suspend, an AE and a resume per QP per change (QP1 and rping's two), irdma logged no timeout
# or error and ice committed every change.
. /tests/lib.sh
rdma_dev_up irdma0 > /dev/null
ip=$(rdma_dev_ip irdma0)
ifc=$(ice_netdev "$(irdma_sim_slot)")
dcb_sw_mode "$ifc"
before=$(suspend_counts)
rping -s -a "$ip" -C 1000000 -V > /tmp/tc-rping.server 2>&1 &
srv=$!
wait_for "rdma resource show cm_id | grep -q 'state LISTEN.*$ip:7174'" 20 || fail "rping server never listened"
rping -c -a "$ip" -C 1000000 -V -v > /tmp/tc-rping.client 2>&1 &
cli=$!
wait_for "grep -q '^ping data' /tmp/tc-rping.client" 20 || fail "rping never got going"
qps=$(rdma resource show qp | grep -c "lqpn")
tc_cycle "$ifc" 7
# Traffic goes on after the last change.
pings=$(grep -c "^ping data" /tmp/tc-rping.client)
wait_for "[ \$(grep -c '^ping data' /tmp/tc-rping.client) -gt $((pings + 20)) ]" 30 ||
    fail "rping stopped after the TC changes at $pings pings"
kill -0 "$cli" 2> /dev/null || fail "rping client exited: $(tail -3 /tmp/tc-rping.client)"
kill "$cli" "$srv"
wait "$cli" "$srv" 2> /dev/null
grep -qiE "mismatch|error|fail" /tmp/tc-rping.client /tmp/tc-rping.server &&
    fail "rping reported: $(grep -iE 'mismatch|error|fail' /tmp/tc-rping.client /tmp/tc-rping.server | head -3)"
echo "$TC_CHANGES TC changes, $qps QPs, $(grep -c '^ping data' /tmp/tc-rping.client) verified pings"
expect_suspend_counts "$before" $((TC_CHANGES * qps))
errs=$(irdma_error_lines; dmesg | grep -E "irdma|ice" | grep -iE "suspend|Failed to config TC|cqp")
[ -z "$errs" ] || fail "the drivers reported: $errs"
