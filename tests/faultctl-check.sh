#!/usr/bin/env bash
# scripts/faultctl.py against a real QEMU with -device irdma-sim, no guest (the machine of
# every harness, scripts/qemu_cmd.py, stopped with -S): plans load, clear and show; a bad plan is refused with its file and line
# and leaves the running plan in place; a bad plan file at start stops QEMU with that message;
# a timeline carries out its steps in order; bad command lines and timelines are refused.
# Prints one line per check and "N passed, N failed".
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
qemu=$repo/build/qemu-system-x86_64
plans=$repo/guest-tests/faults
tmp=$(mktemp -d)
sock=$tmp/qmp
. "$repo/tests/lib-result.sh"
trap 'kill "$qpid" 2> /dev/null; rm -rf "$tmp"' EXIT

check() {       # check NAME COMMAND...: the command succeeds
    local name=$1
    shift
    if "$@" > "$tmp/out" 2>&1; then
        result PASS "faultctl: $name"
    else
        result FAIL "faultctl: $name: $(head -c 400 "$tmp/out")"
    fi
}
refused() {     # refused NAME MESSAGE COMMAND...: the command exits 1..123 (not killed, not
                # timed out), without a Python traceback, and says MESSAGE on stderr
    local name=$1 want=$2 rc
    shift 2
    "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ "$rc" -ge 1 ] && [ "$rc" -le 123 ] && ! grep -q '^Traceback' "$tmp/err" &&
        grep -qF -- "$want" "$tmp/err"; then
        result PASS "faultctl: $name"
    else
        result FAIL "faultctl: $name: exit $rc, want a refusal saying '$want': $(head -c 400 "$tmp/err")"
    fi
}
prints() {      # prints NAME WANT COMMAND...: the command succeeds and prints exactly WANT
    local name=$1 want=$2 rc
    shift 2
    "$@" > "$tmp/out" 2>&1
    rc=$?
    if [ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "$want" ]; then
        result PASS "faultctl: $name"
    else
        result FAIL "faultctl: $name: exit $rc, printed '$(head -c 400 "$tmp/out")', want '$want'"
    fi
}
ctl() { python3 "$repo/scripts/faultctl.py" "$sock" "$@"; }
# qemu_with PROPS: the harnesses' QEMU command line with irdma-sim's PROPS, stopped (-S).
qemu_with() {
    local args
    mapfile -d '' args < <(python3 "$repo/scripts/qemu_cmd.py" --qemu "$qemu" \
                               --device-props "$1" --qmp "$sock")
    [ ${#args[@]} -gt 0 ] || { echo "faultctl-check: no QEMU command line" >&2; exit 1; }
    qemu_args=("${args[@]}" -S -display none)
}

printf '[rule a]\non = cqp NOP\naction = drop\nevry = 2\n' > "$tmp/bad.plan"
qemu_with "id=nic0,faults=$tmp/bad.plan"
refused "a bad plan at start stops QEMU naming file and line" \
    "$tmp/bad.plan:4: [rule a] evry: unknown key" timeout 60 "${qemu_args[@]}"

rm -f "$sock"          # the refused QEMU's socket, before the next QEMU listens there
qemu_with id=nic0
"${qemu_args[@]}" > "$tmp/qemu.out" 2>&1 &
qpid=$!
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done

check "load a plan" ctl load "$plans/hmc-error.plan"
prints "the plan is installed" "$plans/hmc-error.plan" ctl plan
refused "a bad plan is refused with file and line" "bad.plan:4: [rule a] evry: unknown key" \
    ctl load "$tmp/bad.plan"
prints "the running plan stays after a refused one" "$plans/hmc-error.plan" ctl plan
prints "the fault log is empty (nothing ran)" "" ctl log
check "clear" ctl clear
prints "no plan after clear" "" ctl plan
cp "$plans/hmc-error.plan" "$plans/suspend-ae-lost.plan" "$tmp/"
printf '# a timeline\n+0 load hmc-error.plan\n+0.3 load suspend-ae-lost.plan\n+0.2 clear\n' \
    > "$tmp/steps"
check "a timeline runs its steps" sh -c "python3 '$repo/scripts/faultctl.py' '$sock' run '$tmp/steps' > '$tmp/steps.out'"
check "... in order, saying each" sh -c "grep -c '^faultctl: ' '$tmp/steps.out' | grep -qx 3 &&
    sed -n 2p '$tmp/steps.out' | grep -q '^faultctl: load .*/suspend-ae-lost.plan' &&
    tail -n 1 '$tmp/steps.out' | grep -qx 'faultctl: clear'"
prints "... and leaves no plan" "" ctl plan
printf '+1 load\n' > "$tmp/bad-steps"
refused "a bad timeline is refused with its line" "bad-steps:1:" ctl run "$tmp/bad-steps"
refused "a missing plan is refused" "none.plan does not exist" ctl load "$tmp/none.plan"
refused "a wrong device id is refused" "nic9" ctl --device nic9 clear
results
