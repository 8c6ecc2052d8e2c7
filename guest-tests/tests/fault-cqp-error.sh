# Fault class "CQP error completion" (docs/faults.md): with plan cqp-create-cq-error the next
# CREATE_CQ completes with major error 0x8029 without running. Checks: the verb fails cleanly
# (verbs-ctrl reports its CQ creation failed, nothing hangs), irdma logs the CQP error, the
# fault fired exactly once, and afterwards every control-plane verb works again.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
fault_plan cqp-create-cq-error
verbs_ctrl_fails_at "$gid" "create cq" "irdma.*\[Create CQ Cmd Error\].*maj=0x8029 min=0x1"
expect_faults_logged 'create-cq-fails cqp 0x03 CREATE_CQ cq=[0-9]* error 0x8029 0x0001' 1
fault_test_done
echo "CREATE_CQ failed once as planned; every verb works afterwards"
