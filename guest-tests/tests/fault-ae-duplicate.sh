# Fault class "AE duplicated" (docs/faults.md): with plan suspend-ae-twice the next
# suspend-complete AE is posted twice. Checks: SQD on an idle QP works (irdma takes the second
# AE as a no-op), a second SQD works too, irdma logs no error; the fault fired once.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
fault_plan suspend-ae-twice
rdma_sqd_checks idle
rdma_sqd_checks idle
expect_faults_logged 'suspend-ae-twice ae 0x900 qp=[0-9]* duplicate' 1
fault_test_done
echo "the suspend AE came twice; SQD worked, and again after"
