# Fault class "AE corrupted" (docs/faults.md): with plan suspend-ae-garbled the next
# suspend-complete AE reaches the AEQ as LLP_TOO_MANY_RETRIES (0x50a). Checks: irdma reports
# the abnormal AE for the QP and takes its connection down; the SQD it was waiting for never
# completes, so modify-QP-to-SQD times out after 5 s and rdma-sqd reports the check failed
# instead of hanging; the fault fired once; the next SQD works.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
fault_plan suspend-ae-garbled
sqd_idle_times_out "$gid"
dmesg | grep -q "irdma0: abnormal ae_id = 0x50a" || fail "irdma did not report the garbled AE"
expect_faults_logged 'suspend-ae-garbled ae 0x900 qp=[0-9]* corrupt code 0x50a' 1
rdma_sqd_checks idle
fault_test_done
echo "the suspend AE came as 0x50a: irdma dropped the QP's connection and SQD timed out"
