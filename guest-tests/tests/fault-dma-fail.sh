# Fault class "DMA failure" (docs/faults.md): with plan create-qp-dma-fail the first DMA read of
# the next CREATE_QP (of the QP's doorbell shadow area in guest memory) fails. Checks: the CQP op completes
# with the device's bad-address error, irdma logs it for Create QP, ibv_create_qp fails cleanly
# (verbs-ctrl reports it, nothing hangs); the plan moved to state "armed" and fired once each
# rule; every control verb works afterwards.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
fault_plan create-qp-dma-fail
verbs_ctrl_fails_at "$gid" "create rc qp" "irdma.*\[Create QP Cmd Error\].*maj=0xffff min=0x8005"
expect_faults_logged 'arm cqp 0x00 CREATE_QP qp=[0-9]* none -> armed' 1
expect_faults_logged 'ctx-read-fails dma read fail' 1
fault_test_done
echo "the CREATE_QP context read failed: the verb failed cleanly; every verb works afterwards"
