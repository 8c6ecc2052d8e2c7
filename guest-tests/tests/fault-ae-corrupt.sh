# Fault class "AE corrupted" (docs/faults.md): with plan suspend-ae-garbled the next
# suspend-complete AE reaches the AEQ as LLP_TOO_MANY_RETRIES (0x50a). Checks: irdma reports
# the abnormal AE for the QP and takes its connection down; the SQD it was waiting for never
# completes, so modify-QP-to-SQD times out after 5 s and rdma-sqd reports the check failed
# instead of hanging; the fault fired once; the next SQD works.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0)
fault_plan suspend-ae-garbled
rdma-sqd irdma0 "$gid" idle > /tmp/fault-aec-1.out 2>&1 && fail "SQD succeeded without its AE"
cat /tmp/fault-aec-1.out
grep -q "^FAIL idle" /tmp/fault-aec-1.out || fail "rdma-sqd did not report the idle check failed"
dmesg | grep -q "irdma0: abnormal ae_id = 0x50a" || fail "irdma did not report the garbled AE"
dmesg | grep -q "modify_qp timed out waiting for suspend" ||
    fail "irdma did not time out waiting for the suspend AE"
expect_faults_logged 'suspend-ae-garbled ae 0x900 qp=[0-9]* corrupt code 0x50a' 1
rdma_sqd_checks idle
fault_test_done
echo "the suspend AE came as 0x50a: irdma dropped the QP's connection and SQD timed out"
