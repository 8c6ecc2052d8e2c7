# Fault class "AE delayed" (docs/faults.md): with plan suspend-ae-late the next suspend-complete
# AE arrives 2 s late, inside irdma's 5 s wait for it. Checks: modify-QP-to-SQD waits for it
# (rdma-sqd's idle check takes at least the 2 s) and succeeds, with a SEND intact after the QP
# is back in RTS; irdma logs no timeout; the fault fired once.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
fault_plan suspend-ae-late
t0=$(uptime_s) || fail "no uptime"
rdma_sqd_checks idle
t1=$(uptime_s) || fail "no uptime"
took_at_least "$t1" "$t0" 2 || fail "SQD returned before its AE arrived"
expect_faults_logged 'suspend-ae-late ae 0x900 qp=[0-9]* delay 1600000000' 1
fault_test_done
echo "the suspend AE came 2 s late; SQD waited for it and worked"
