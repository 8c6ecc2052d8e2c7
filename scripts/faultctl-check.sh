#!/usr/bin/env bash
# scripts/faultctl.py against a real QEMU with -device irdma-sim, no guest (the machine is
# stopped with -S): plans load, clear and show; a bad plan is refused with its file and line
# and leaves the running plan in place; a bad plan file at start stops QEMU with that message;
# a timeline carries out its steps in order; bad command lines and timelines are refused.
# Prints one line per check and "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
qemu=$repo/build/qemu-system-x86_64
plans=$repo/guest-tests/faults
tmp=$(mktemp -d)
sock=$tmp/qmp
passed=0 failed=0
trap 'kill "$qpid" 2> /dev/null; rm -rf "$tmp"' EXIT

check() {       # check NAME COMMAND...: the command succeeds
    local name=$1
    shift
    if "$@" > "$tmp/out" 2>&1; then
        echo "PASS    faultctl: $name"; passed=$((passed + 1))
    else
        echo "FAIL    faultctl: $name: $(head -c 400 "$tmp/out")"; failed=$((failed + 1))
    fi
}
ctl() { python3 "$here/faultctl.py" "$sock" "$@"; }

printf '[rule a]\non = cqp NOP\naction = drop\nevry = 2\n' > "$tmp/bad.plan"
"$qemu" -M pc -S -display none -nodefaults -device "irdma-sim,id=nic0,faults=$tmp/bad.plan" \
    > "$tmp/start.out" 2>&1
check "a bad plan at start stops QEMU naming file and line" \
    grep -qF "$tmp/bad.plan:4: [rule a] evry: unknown key" "$tmp/start.out"

"$qemu" -M pc -S -display none -nodefaults -device irdma-sim,id=nic0 \
    -qmp "unix:$sock,server=on,wait=off" > "$tmp/qemu.out" 2>&1 &
qpid=$!
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done

check "load a plan" ctl load "$plans/hmc-error.plan"
check "the plan is installed" sh -c "python3 '$here/faultctl.py' '$sock' plan | grep -qx '$plans/hmc-error.plan'"
check "a bad plan is refused with file and line" \
    sh -c "! python3 '$here/faultctl.py' '$sock' load '$tmp/bad.plan' 2> '$tmp/err'; grep -qF 'bad.plan:4: [rule a] evry: unknown key' '$tmp/err'"
check "the running plan stays after a refused one" \
    sh -c "python3 '$here/faultctl.py' '$sock' plan | grep -qx '$plans/hmc-error.plan'"
check "the fault log is empty (nothing ran)" sh -c "[ -z \"\$(python3 '$here/faultctl.py' '$sock' log)\" ]"
check "clear" ctl clear
check "no plan after clear" sh -c "[ -z \"\$(python3 '$here/faultctl.py' '$sock' plan)\" ]"
cp "$plans/hmc-error.plan" "$plans/suspend-ae-lost.plan" "$tmp/"
printf '# a timeline\n+0 load hmc-error.plan\n+0.3 load suspend-ae-lost.plan\n+0.2 clear\n' \
    > "$tmp/steps"
check "a timeline runs its steps" sh -c "python3 '$here/faultctl.py' '$sock' run '$tmp/steps' > '$tmp/steps.out'"
check "... in order, saying each" sh -c "grep -c '^faultctl: ' '$tmp/steps.out' | grep -qx 3 &&
    sed -n 2p '$tmp/steps.out' | grep -q '^faultctl: load .*/suspend-ae-lost.plan' &&
    tail -n 1 '$tmp/steps.out' | grep -qx 'faultctl: clear'"
check "... and leaves no plan" sh -c "[ -z \"\$(python3 '$here/faultctl.py' '$sock' plan)\" ]"
printf '+1 load\n' > "$tmp/bad-steps"
check "a bad timeline is refused with its line" \
    sh -c "! python3 '$here/faultctl.py' '$sock' run '$tmp/bad-steps' 2> '$tmp/err'; grep -qF 'bad-steps:1:' '$tmp/err'"
check "a missing plan is refused" \
    sh -c "! python3 '$here/faultctl.py' '$sock' load '$tmp/none.plan' 2> '$tmp/err'; grep -qF 'none.plan does not exist' '$tmp/err'"
check "a wrong device id is refused" \
    sh -c "! python3 '$here/faultctl.py' '$sock' --device nic9 clear 2> '$tmp/err'; grep -q 'nic9' '$tmp/err'"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
