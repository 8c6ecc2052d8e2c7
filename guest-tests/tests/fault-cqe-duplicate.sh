# Fault class "completion duplicated" (docs/faults.md): with plan send-cqe-twice the first SEND
# of rdma-verify's RC QP completes twice in its send CQ. Checks: the provider (libirdma) hands
# both CQEs to the application, and rdma-verify, which requires its CQs empty after each check,
# fails exactly that check, rc-send-1, with "unexpected completion ... status success"; every
# other check passes byte for byte; the kernel logs nothing beyond what the negative checks
# cause; the fault fired once.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
mark=$(dmesg | wc -l)
fault_plan send-cqe-twice
rdma-verify --quick loop irdma0 "$gid" > /tmp/fault-dup.out 2>&1
grep "^FAIL\|^rdma-verify:" /tmp/fault-dup.out
[ "$(grep -c "^FAIL" /tmp/fault-dup.out)" = 1 ] || fail "not exactly one check failed"
grep -q "^FAIL rc-send-1: requester: unexpected completion wr_id 0x[0-9a-f]* status success" \
    /tmp/fault-dup.out || fail "rc-send-1 did not see the doubled completion"
grep -qE "^rdma-verify: [1-9][0-9]* ok, 1 failed" /tmp/fault-dup.out ||
    fail "rdma-verify did not run to its end"
# Less the AEs of rdma-verify's negative checks (bad rkey 0x106, beyond the MR 0x108, no
# remote read 0x109, each with the requester's 0x20d), which they expect and pass on.
errs=$(dmesg | tail -n +$((mark + 1)) | grep -E "irdma|ice" |
       grep -vE "abnormal ae_id = 0x(106|108|109|20d) ")
[ -z "$errs" ] || fail "the drivers reported: $errs"
expect_faults_logged 'send-cqe-twice wqe 0x03 SEND qp=[0-9]* duplicate' 1
fault_test_done
echo "one SEND completed twice: the application saw both, every other check passed"
