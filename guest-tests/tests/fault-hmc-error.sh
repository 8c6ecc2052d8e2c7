# Fault class "critical error in the OICR" (docs/faults.md): with plan hmc-error the device
# raises PFINT_OICR.HMC_ERR after the next CREATE_CQ. Checks: ice passes it on and irdma logs
# "ICE OICR event notification" and "HMC Error" and requests a reset; ice resets and rebuilds;
# irdma0 comes back active and every control verb works; nothing hangs or oopses. The verbs
# running when the reset comes may fail: that is not checked. (irdma 6.1 WARNs twice as in
# fault-cqp-timeout, expect_klog_reset_under_verbs: verbs-ctrl's objects are open at the reset.)
. /tests/lib.sh
expect_klog_reset_under_verbs
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
rebuilt=$(vsi_rebuilds) || fail "cannot count VSI rebuilds"
fault_plan hmc-error
verbs_ctrl irdma0 "$gid" > /tmp/fault-hmc-1.out 2>&1
cat /tmp/fault-hmc-1.out
wait_for "dmesg | grep -q 'irdma0: HMC Error'" 20 || fail "irdma did not report the HMC error"
dmesg | grep -q "irdma0: ICE OICR event notification: oicr = 0x" ||
    fail "ice did not pass the OICR on to irdma"
dmesg | grep -q "irdma.*Requesting a reset" || fail "irdma did not request a reset"
expect_reset_recovery "$rebuilt"
expect_faults_logged 'hmc-error cqp 0x03 CREATE_CQ cq=[0-9]* oicr 0x04000000' 1
fault_test_done
echo "an HMC error after CREATE_CQ: irdma reported it, reset, irdma0 back and working"
