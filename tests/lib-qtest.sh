# Sourced after tests/lib-result.sh by the scripts that run the device's qtest in a QEMU build
# tree (tests/qtest-run.sh, tests/qemu-series-check.sh).
#   qtest_cases BUILD MESON LOG   lists the cases of BUILD's tests/qtest/irdma-sim-test, runs it
#                                 with MESON's `meson test` (its output in LOG) and gives each
#                                 case a result line, "qtest: PATH", from the TAP stream meson
#                                 records ("ok N PATH" / "not ok N PATH"); status 1 if no case
#                                 was listed
qtest_cases() {
    local build=$1 meson=$2 log=$3 c rc start failed_before=$failed
    local testlog=$build/meson-logs/testlog.txt cases
    # The cases as the binary lists them (their paths name the target, from the emulator).
    mapfile -t cases < <(cd "$build" && QTEST_QEMU_BINARY=./qemu-system-x86_64 \
                         tests/qtest/irdma-sim-test -l | grep '^/')
    if [ ${#cases[@]} = 0 ]; then
        result FAIL "qtest: list: tests/qtest/irdma-sim-test -l listed no case"
        return 1
    fi
    start=$(date +%s)
    "$meson" test -C "$build" --no-rebuild --print-errorlogs qtest-x86_64/irdma-sim-test \
        > "$log" 2>&1
    rc=$?
    echo "qtest: meson test took $(( $(date +%s) - start )) s"
    for c in "${cases[@]}"; do
        if grep -qE "^ok [0-9]+ $c( |$)" "$testlog" 2> /dev/null; then
            result PASS "qtest: $c"
        else
            result FAIL "qtest: $c: $(grep -E "^(not ok [0-9]+ $c|Bail out!|.*ERROR:)" "$testlog" \
                                        2> /dev/null | head -n 3 | tr '\n' ' ' | cut -c1-300)"
        fi
    done
    [ "$rc" = 0 ] || [ "$failed" != "$failed_before" ] ||
        result FAIL "qtest: meson test: exit $rc, see $log"
}
