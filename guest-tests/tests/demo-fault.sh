# The demo, step 4 (scripts/demo.py): one fault injected at run time. The host loads fault plan
# suspend-ae-lost (guest-tests/faults/, as scripts/faultctl.py does): the next suspend-complete
# AE 0x0900 never reaches the AEQ. irdma's modify-QP-to-SQD waits its 5 s for it, logs
# "modify_qp timed out waiting for suspend" and fails instead of hanging. Checks: the fault
# fired once, irdma reacted so, and with the plan removed SQD works again.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
fault_plan suspend-ae-lost
echo "fault plan suspend-ae-lost loaded: the next AE 0x0900 (suspend complete) is dropped"
sqd_idle_times_out "$gid"
expect_faults_logged 'suspend-ae-lost ae 0x900 qp=[0-9]* drop' 1
echo "fault injected: suspend-ae-lost fired 1 time (the device's fault log)"
line=$(dmesg | grep -F "modify_qp timed out waiting for suspend" | tail -n 1 | sed 's/^\[[^]]*\] //')
echo "driver reaction (dmesg): $line"
host_ask "faults none" > /dev/null
rdma-sqd irdma0 "$gid" idle > /tmp/demo-fault-after.out 2>&1 ||
    { cat /tmp/demo-fault-after.out; fail "SQD does not work after the fault"; }
oops=$(kernel_oops_lines)
[ -z "$oops" ] || fail "the kernel oopsed: $oops"
echo "plan removed: SQD works again"
