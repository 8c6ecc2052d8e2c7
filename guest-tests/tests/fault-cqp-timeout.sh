# Fault class "CQP completion dropped" (docs/faults.md): with plan cqp-create-cq-lost the next
# CREATE_CQ runs but never completes. Checks: ibv_create_cq fails with ETIMEDOUT after irdma's
# 5 s without CQP progress instead of hanging, irdma requests a reset ("Requesting a reset"),
# ice resets and rebuilds, irdma0 comes back active and every control verb works, and the
# kernel did not oops. (irdma 6.1 WARNs twice, in uverbs_destroy_ufile_hw and
# rdma_restrack_clean: the reset unplugs the device while verbs-ctrl's PD and MRs are still
# open and their destroy commands fail during the reset. That is the driver's own path, declared
# to the harness with expect_klog_reset_under_verbs; any other WARNING fails the test. irdma
# 7.x may also underflow the lost op's request refcount when the reset cleans up the CQP ring,
# irdma_cleanup_pending_cqp_op: docs/driver-findings.md.)
. /tests/lib.sh
expect_klog_reset_under_verbs
case "$(uname -r)" in
    7.*) expect_klog 'WARNING: lib/refcount\.c:[0-9]+ at refcount_warn_saturate\+0x[0-9a-f]+/0x[0-9a-f]+, CPU#[0-9]+: .*' ;;
esac
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
rebuilt=$(vsi_rebuilds) || fail "cannot count VSI rebuilds"
fault_plan cqp-create-cq-lost
verbs_ctrl irdma0 "$gid" > /tmp/fault-cqpto-1.out 2>&1 && fail "verbs-ctrl passed while CREATE_CQ never completed"
cat /tmp/fault-cqpto-1.out
grep -q "^FAIL create cq: Connection timed out" /tmp/fault-cqpto-1.out ||
    fail "ibv_create_cq did not time out"
dmesg | grep -q "irdma.*Requesting a reset" || fail "irdma did not request a reset"
expect_reset_recovery "$rebuilt"
expect_faults_logged 'create-cq-lost cqp 0x03 CREATE_CQ cq=[0-9]* drop' 1
fault_test_done
echo "CREATE_CQ's completion was lost: ETIMEDOUT, a PF reset, irdma0 back and working"
