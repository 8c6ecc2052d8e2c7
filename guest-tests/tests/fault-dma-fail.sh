# Fault class "DMA failure" (docs/faults.md): with plan create-qp-dma-fail the first DMA read of
# the next CREATE_QP (of the QP's doorbell shadow area in guest memory) fails. Checks: the CQP op completes
# with the device's bad-address error, irdma logs it for Create QP, ibv_create_qp fails cleanly
# (verbs-ctrl reports it, nothing hangs); the plan moved to state "armed" and fired once each
# rule; every control verb works afterwards.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0)
fault_plan create-qp-dma-fail
verbs-ctrl irdma0 "$gid" > /tmp/fault-dma-1.out 2>&1 && fail "verbs-ctrl passed while CREATE_QP failed"
cat /tmp/fault-dma-1.out
grep -q "^FAIL create .*qp" /tmp/fault-dma-1.out || fail "the QP creation did not fail"
dmesg | grep -qE "irdma.*\[Create QP Cmd Error\].*maj=0xffff min=0x8005" ||
    fail "irdma logged no bad-address error for CREATE_QP"
expect_faults_logged 'arm cqp 0x00 CREATE_QP qp=[0-9]* none -> armed' 1
expect_faults_logged 'ctx-read-fails dma read fail' 1
fault_test_done
echo "the CREATE_QP context read failed: the verb failed cleanly; every verb works afterwards"
