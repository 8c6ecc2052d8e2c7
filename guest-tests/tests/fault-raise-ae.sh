# Fault class "AE raised" (docs/faults.md): with plan write-wqe-refused the device refuses the
# next RDMA WRITE WQE with AE 0x20a (WQE_UNEXPECTED_OPCODE), as the hardware refuses a WQE it
# cannot run. Checks: irdma reports the abnormal AE and moves the QP to error, flushing with
# "local QP operation error": rdma-verify's first WRITE check fails so (not success, not a
# hang), and so do the later checks on that RC QP, which rdma-verify shares between its rc-*
# and mw-* checks; the checks before it and those on other QPs (UD, the negative ones) pass,
# byte for byte; the fault fired once.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
fault_plan write-wqe-refused
rdma-verify --quick loop irdma0 "$gid" > /tmp/fault-raise.out 2>&1
cat /tmp/fault-raise.out
first=$(grep -m1 "^FAIL" /tmp/fault-raise.out)
echo "$first" | grep -q "^FAIL rc-write-1: requester: .*status local QP operation error" ||
    fail "the first failure is not rc-write-1's WRITE flushed with a QP operation error: $first"
others=$(grep "^FAIL" /tmp/fault-raise.out | grep -vE "^FAIL (rc|mw)-")
[ -z "$others" ] || fail "checks outside the refused RC QP failed: $others"
grep -q "^ok ud-send-" /tmp/fault-raise.out && grep -q "^ok rc-send-1$" /tmp/fault-raise.out ||
    fail "the checks before the WRITE or on other QPs did not pass"
dmesg | grep -q "irdma0: abnormal ae_id = 0x20a" || fail "irdma did not report AE 0x20a"
expect_faults_logged 'write-refused wqe 0x00 RDMA_WRITE qp=[0-9]* raise-ae 0x20a' 1
fault_test_done
echo "one WRITE refused with AE 0x20a: its QP flushed; the other QPs' checks passed"
