# Fault class "critical error in the OICR" (docs/faults.md): with plan hmc-error the device
# raises PFINT_OICR.HMC_ERR after the next CREATE_CQ. Checks: ice passes it on and irdma logs
# "ICE OICR event notification" and "HMC Error" and requests a reset; ice resets and rebuilds;
# irdma0 comes back active and every control verb works; nothing hangs or oopses. The verbs
# running when the reset comes may fail: that is not checked.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0)
slot=$(irdma_sim_slot)
rebuilt=$(dmesg | grep -c "ice $slot: VSI rebuilt. VSI index 0, type ICE_VSI_PF")
host_ask "faults hmc-error" | grep -q '"return"' || fail "the host could not load the plan"
verbs-ctrl irdma0 "$gid" > /tmp/fault-hmc-1.out 2>&1
cat /tmp/fault-hmc-1.out
wait_for "dmesg | grep -q 'irdma0: HMC Error'" 20 || fail "irdma did not report the HMC error"
dmesg | grep -q "irdma0: ICE OICR event notification: oicr = 0x.*" ||
    fail "ice did not pass the OICR on to irdma"
dmesg | grep -q "irdma.*Requesting a reset" || fail "irdma did not request a reset"
wait_for "[ \$(dmesg | grep -c 'ice $slot: VSI rebuilt. VSI index 0, type ICE_VSI_PF') -gt $rebuilt ]" 60 ||
    fail "ice did not rebuild after the reset"
wait_for "grep -q ACTIVE /sys/class/infiniband/irdma0/ports/1/state" 60 ||
    fail "irdma0 did not come back active"
log=$(host_ask "qom-get x-fault-log")
[ "$(echo "$log" | grep -o 'hmc-error cqp 0x03 CREATE_CQ oicr 0x04000000' | wc -l)" = 1 ] ||
    fail "the fault log is not one HMC error: $log"
host_ask "faults none" > /dev/null
oops=$(kernel_oops_lines)
[ -z "$oops" ] || fail "the kernel oopsed: $oops"
gid=$(rdma_dev_up irdma0)
verbs-ctrl irdma0 "$gid" > /tmp/fault-hmc-2.out 2>&1 || { cat /tmp/fault-hmc-2.out; fail "the device is not usable after the reset"; }
echo "an HMC error after CREATE_CQ: irdma reported it, reset, irdma0 back and working"
