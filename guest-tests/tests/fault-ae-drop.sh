# Fault class "AE dropped" (docs/faults.md): with plan suspend-ae-lost the next suspend-complete
# AE never reaches the AEQ. Checks: irdma's modify-QP-to-SQD gives up after its 5 s
# (IRDMA_EVENT_TIMEOUT_MS) with "timed out waiting for suspend" and rdma-sqd reports the idle
# check failed instead of hanging; the fault fired once; the next SQD works.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
fault_plan suspend-ae-lost
sqd_idle_times_out "$gid"
expect_faults_logged 'suspend-ae-lost ae 0x900 qp=[0-9]* drop' 1
rdma-sqd irdma0 "$gid" idle > /tmp/fault-ae-2.out 2>&1 || { cat /tmp/fault-ae-2.out; fail "SQD does not work after the fault"; }
fault_test_done
echo "the suspend AE was lost once and irdma timed out; SQD works afterwards"
