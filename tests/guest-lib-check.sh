#!/bin/sh
# The guest tests' shared helpers (guest-tests/tests/lib.sh) that read the kernel log, run as
# the guest runs them (busybox sh and awk) on made-up kernel logs.
lib=$1
failures=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# check NAME LOCKUP_IN EXPECTED-LINE-COUNT: kernel_oops_lines on $log.
check() {
    got=$(busybox sh -c ". '$lib'; awk() { busybox awk \"\$@\"; }; dmesg() { cat '$log'; }
                        LOCKUP_IN='$2' kernel_oops_lines" | grep -c .)
    if [ "$got" = "$3" ]; then
        echo "ok $1"
    else
        echo "FAIL $1: $got oops lines, want $3"
        failures=$((failures + 1))
    fi
}

cat > "$log" << 'END'
[  172.552000] watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [sh:1811]
[  172.555648] CPU: 0 PID: 1811 Comm: sh Tainted: G        W          6.1.0-57-amd64 #1
[  172.555648] Call Trace:
[  172.555648]  <TASK>
[  172.555648]  ice_check_reset+0x34/0x130 [ice]
[  172.555648]  ice_pf_reset+0x84/0xc0 [ice]
[  172.555648]  </TASK>
[  173.746404] rcu: INFO: rcu_preempt self-detected stall on CPU
END
check "a soft lockup is an oops" "" 1
check "a soft lockup at the top of the named function's trace is not" ice_check_reset 0
check "nor one in another function" ice_pf_reset 1

cat > "$log" << 'END'
[  172.552000] watchdog: BUG: soft lockup - CPU#1 stuck for 23s! [kworker/1:1]
[  172.555648] Call Trace:
[  172.555648]  <TASK>
[  172.555648]  irdma_sc_poll_for_cqp_op_done+0x34/0x130 [irdma]
[  172.555648]  </TASK>
[  172.600000] BUG: kernel NULL pointer dereference, address: 0000000000000008
[  172.600100] Oops: 0000 [#1] PREEMPT SMP NOPTI
[  180.000000] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [sh:99]
END
check "a lockup elsewhere, an oops and a lockup without a trace all count" ice_check_reset 4

echo "guest lib: $failures wrong"
[ "$failures" = 0 ]
