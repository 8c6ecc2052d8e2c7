# After the verbs traffic tests (pingpong, rping, perftest) and before the verifier's deliberate
# access errors: irdma and ib_core logged no failure, no abnormal AE and no CQP error, so every
# completion the traffic needed came through the normal path.
. /tests/lib.sh
errs=$(irdma_error_lines; dmesg | grep -E "irdma" | grep -iE "abnormal ae|cqp.*(err|fail)")
[ -z "$errs" ] || fail "irdma reported: $errs"
[ -e /sys/class/infiniband/irdma0 ] || fail "irdma0 is gone"
echo "no irdma failure lines after the traffic tests"
