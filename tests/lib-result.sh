# Sourced by the harness's shell checks (tests/*.sh): the PASS/FAIL bookkeeping they share.
#   result PASS|FAIL TEXT   prints "PASS TEXT" or "FAIL TEXT" and counts it
#   results                 prints "N passed, N failed"; its status is non-zero on any failure
passed=0 failed=0
result() {
    echo "$1 ${*:2}"
    if [ "$1" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}
results() { echo "$passed passed, $failed failed"; [ "$failed" = 0 ]; }
