# Fault class "AE dropped during a TC change" (docs/faults.md), in the suspend boot: with plan
# tc-suspend-ae-lost one suspend-complete AE is lost while a DCB change suspends every QP.
# irdma_prep_tc_change waits IRDMA_EVENT_TIMEOUT_MS (5 s) for all of them, then goes on without
# the lost one: it rebuilds its work-scheduler tree and resumes every QP. Checks: that change
# took at least the 5 s; rping (payload verified) runs on after it; the device counted a
# suspend, a suspend-complete AE raised and a resume per QP, and the fault log one of those
# AEs dropped; no oops.
. /tests/lib.sh
rdma_dev_up irdma0 > /dev/null
ip=$(rdma_dev_ip irdma0) || fail "no address for irdma0"
ifc=$(irdma_sim_netdev) || fail "no netdev on irdma-sim"
dcb_sw_mode "$ifc"
rping_start "$ip" tc-ae
qps=$(rdma resource show qp | grep -c "lqpn")
before=$(suspend_counts) || fail "cannot read the suspend counts"
fault_plan tc-suspend-ae-lost
t0=$(uptime_s) || fail "no uptime"
dcb_change "$ifc" ets 25,25,25,25,0,0,0,0 0,1,2,3,0,1,2,3
t1=$(uptime_s) || fail "no uptime"
echo "the change with the AE lost took $(awk -v a="$t1" -v b="$t0" 'BEGIN { print a - b }') s"
took_at_least "$t1" "$t0" 5 || fail "the change did not wait irdma's 5 s for the lost AE"
expect_faults_logged 'tc-suspend-ae-lost ae 0x900 qp=[0-9]* drop' 1
expect_suspend_counts "$before" "$qps"
host_ask "faults none" > /dev/null
rping_goes_on_and_stop tc-ae "the change"
# irdma never learns of the lost AE: its count of pending suspends stays one up, so (as
# measured) the next change waits the 5 s again.
t0=$(uptime_s) || fail "no uptime"
dcb_change "$ifc" ets 100,0,0,0,0,0,0,0 0,0,0,0,0,0,0,0
t1=$(uptime_s) || fail "no uptime"
echo "the next change, without a fault, took $(awk -v a="$t1" -v b="$t0" 'BEGIN { print a - b }') s"
oops=$(kernel_oops_lines)
[ -z "$oops" ] || fail "the kernel oopsed: $oops"
echo "one suspend AE lost in a TC change: irdma waited 5 s, resumed all $qps QPs, rping went on"
