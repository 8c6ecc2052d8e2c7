# Fault class "CQP completion dropped" (docs/faults.md): with plan cqp-create-cq-lost the next
# CREATE_CQ runs but never completes. Checks: ibv_create_cq fails with ETIMEDOUT after irdma's
# 5 s without CQP progress instead of hanging, irdma requests a reset ("Requesting a reset"),
# ice resets and rebuilds, irdma0 comes back active and every control verb works, and the
# kernel did not oops. (irdma 6.1 WARNs twice, in uverbs_destroy_ufile_hw and
# rdma_restrack_clean: the reset unplugs the device while verbs-ctrl's PD and MRs are still
# open and their destroy commands fail during the reset. That is the driver's own path.)
. /tests/lib.sh
gid=$(rdma_dev_up irdma0)
slot=$(irdma_sim_slot)
rebuilt=$(dmesg | grep -c "ice $slot: VSI rebuilt. VSI index 0, type ICE_VSI_PF")
host_ask "faults cqp-create-cq-lost" | grep -q '"return"' || fail "the host could not load the plan"
verbs-ctrl irdma0 "$gid" > /tmp/fault-cqpto-1.out 2>&1 && fail "verbs-ctrl passed while CREATE_CQ never completed"
cat /tmp/fault-cqpto-1.out
grep -q "^FAIL create cq: Connection timed out" /tmp/fault-cqpto-1.out ||
    fail "ibv_create_cq did not time out"
dmesg | grep -q "irdma.*Requesting a reset" || fail "irdma did not request a reset"
wait_for "[ \$(dmesg | grep -c 'ice $slot: VSI rebuilt. VSI index 0, type ICE_VSI_PF') -gt $rebuilt ]" 60 ||
    fail "ice did not rebuild after the reset"
wait_for "grep -q ACTIVE /sys/class/infiniband/irdma0/ports/1/state" 60 ||
    fail "irdma0 did not come back active"
log=$(host_ask "qom-get x-fault-log")
[ "$(echo "$log" | grep -o 'create-cq-lost cqp 0x03 CREATE_CQ drop' | wc -l)" = 1 ] ||
    fail "the fault log is not one lost CREATE_CQ completion: $log"
host_ask "faults none" > /dev/null
oops=$(kernel_oops_lines)
[ -z "$oops" ] || fail "the kernel oopsed: $oops"
gid=$(rdma_dev_up irdma0)
verbs-ctrl irdma0 "$gid" > /tmp/fault-cqpto-2.out 2>&1 || { cat /tmp/fault-cqpto-2.out; fail "the device is not usable after the reset"; }
echo "CREATE_CQ's completion was lost: ETIMEDOUT, a PF reset, irdma0 back and working"
