# Fault class "critical error in the OICR" (docs/faults.md): with plan hmc-error the device
# raises PFINT_OICR.HMC_ERR after the next CREATE_CQ, with PFHMC_ERRORINFO 0x80000301. ice
# passes it on and irdma logs "ICE OICR event notification". 6.1/6.12: irdma logs "HMC Error"
# and requests a reset; ice resets and rebuilds; irdma0 comes back active and every control verb
# works (irdma WARNs twice as in fault-cqp-timeout, expect_klog_reset_under_verbs: verbs-ctrl's
# objects are open at the reset). 7.x: irdma logs the device's PFHMC_ERRORINFO and ERRORDATA
# and does not reset: no VSI rebuild, irdma0 stays and every control verb works. Nothing hangs
# or oopses. The verbs running when a reset comes may fail: that is not checked.
. /tests/lib.sh
case "$(uname -r)" in 7.*) resets=no ;; *) resets=yes ;; esac
[ $resets = no ] || expect_klog_reset_under_verbs
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
rebuilt=$(vsi_rebuilds) || fail "cannot count VSI rebuilds"
mark=$(dmesg | wc -l)
fault_plan hmc-error
verbs_ctrl irdma0 "$gid" > /tmp/fault-hmc-1.out 2>&1
cat /tmp/fault-hmc-1.out
wait_for "dmesg | grep -q 'irdma0: HMC Error'" 20 || fail "irdma did not report the HMC error"
dmesg | grep -q "irdma0: ICE OICR event notification: oicr = 0x" ||
    fail "ice did not pass the OICR on to irdma"
if [ $resets = yes ]; then
    dmesg | grep -q "irdma.*Requesting a reset" || fail "irdma did not request a reset"
    expect_reset_recovery "$rebuilt"
else
    dmesg | grep -q "irdma0: HMC Error: errinfo=0x80000301 errdata=0x00000000" ||
        fail "irdma did not read the device's PFHMC_ERRORINFO/ERRORDATA"
    sleep 2
    dmesg | tail -n +$((mark + 1)) | grep -q "irdma.*Requesting a reset" &&
        fail "irdma 7.x requested a reset"
    [ "$(vsi_rebuilds)" = "$rebuilt" ] || fail "ice rebuilt its VSIs: a reset happened"
    verbs_ctrl irdma0 "$gid" > /tmp/fault-hmc-2.out 2>&1 ||
        { cat /tmp/fault-hmc-2.out; fail "the control verbs failed after the HMC error"; }
fi
expect_faults_logged 'hmc-error cqp 0x03 CREATE_CQ cq=[0-9]* oicr 0x04000000' 1
fault_test_done
echo "an HMC error after CREATE_CQ: irdma reported it ($([ $resets = yes ] && echo "reset, irdma0 back" || echo "no reset")) and works"
