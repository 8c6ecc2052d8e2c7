#!/usr/bin/env bash
# The driver developer's own-module flow, end to end (docs/user-guide.md, "Testing your own
# kernel or module"): irdma.ko built out of tree for kernel 7.3 with a marker unique to this run
# (scripts/build-module.sh), a guest built with it replacing the kernel's irdma
# (build-guest.sh --kernel 7.3 --module), one boot running irdma-module-marker (the marker is in
# the guest's kernel log) then both suspend/resume flows on that module (SQD, a TC change); and
# the same module refused for kernel 6.12 by scripts/irdma-sim with one vermagic line, before
# anything is installed, built or booted. Prints PASS/FAIL lines and "N passed, N failed": the
# flows must pass on the user's module as on Debian's. Exit status 1 on any failure.
#   tests/module-flow.sh [--qemu PATH] [MESON_BUILD_DIR]
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
unset IRDMA_SIM_KERNEL IRDMA_SIM_MODULES    # this script names its kernels and modules itself
. "$repo/scripts/config.sh"
qemu=() mbuild=$repo/build/meson
while [ $# -gt 0 ]; do
    case "$1" in
        --qemu) qemu=(--qemu "$2"); shift 2 ;;
        *) mbuild=$1; shift ;;
    esac
done
kernel=7.3 other=6.12
abi=$(awk -v n=$kernel '$1 == n { print $3 }' <<< "$KERNEL_MATRIX")
out=$repo/build/module-flow
rm -rf "$out" && mkdir -p "$out"
. "$repo/tests/lib-result.sh"
finish() { results; exit; }

marker=$(date -u +%Y%m%dT%H%M%S)-$$
t0=$SECONDS
if ko=$(bash "$repo/scripts/build-module.sh" --marker "$marker" $kernel 2> "$out/build-module.log"); then
    result PASS "build-module: irdma.ko for $kernel with marker $marker in $((SECONDS - t0)) s: $ko"
else
    result FAIL "build-module: $(tail -n 1 "$out/build-module.log")"
    finish
fi
vermagic=$(modinfo -F vermagic "$ko")
if [ "${vermagic%% *}" = "$abi" ] && grep -aq "irdma-sim module test $marker" "$ko"; then
    result PASS "the module's vermagic is $abi and it holds the marker"
else
    result FAIL "the module's vermagic is '$vermagic' (want $abi), or it lacks the marker"
fi

# A module of another kernel: one line naming the mismatch, exit 2, nothing built or booted.
t0=$SECONDS
timeout 120 bash "$repo/scripts/irdma-sim" test --kernel $other --module "$ko" \
    > "$out/mismatch.out" 2> "$out/mismatch.err"
rc=$?
if [ $rc = 2 ] && [ "$(wc -l < "$out/mismatch.err")" = 1 ] && [ ! -s "$out/mismatch.out" ] &&
        grep -q "vermagic mismatch" "$out/mismatch.err"; then
    result PASS "irdma-sim test --kernel $other --module <$kernel irdma.ko> refused in" \
        "$((SECONDS - t0)) s: $(cat "$out/mismatch.err")"
else
    result FAIL "irdma-sim test --kernel $other --module <$kernel irdma.ko>: exit $rc," \
        "stderr '$(head -c 300 "$out/mismatch.err")', stdout $(wc -l < "$out/mismatch.out") lines"
fi

t0=$SECONDS
if bash "$repo/scripts/build-guest.sh" --kernel $kernel --module "$ko" "$mbuild" \
        > "$out/build-guest.log" 2>&1; then
    result PASS "build-guest --kernel $kernel --module irdma.ko in $((SECONDS - t0)) s"
else
    result FAIL "build-guest --kernel $kernel --module irdma.ko: $(tail -n 1 "$out/build-guest.log")"
    finish
fi

# The device's main job on the user's module: modify-QP-to-SQD with its resume, and a DCB TC
# change that suspends every QP under traffic and resumes them. The suspend list's stress tests
# (stream, churn, a dropped AE) exercise the same driver code; they run on Debian's module in the
# suspend job.
flows=rdma-sqd,tc-change-traffic
t0=$SECONDS
python3 "$repo/scripts/run-guest.py" --quiet "${qemu[@]}" --kernel $kernel --module "$ko" \
    --tests "irdma-module-marker,$flows" --append "t.marker=$marker" \
    --smp 8 --timeout 900 --test-timeout 600 > "$out/guest.out" 2>&1
boot_status=$?
echo "guest ($((SECONDS - t0)) s):"
sed 's/^/    /' "$out/guest.out"
if grep -q "^PASS *irdma-module-marker" "$out/guest.out"; then
    result PASS "the guest's irdma is the module built here: marker $marker in its kernel log"
else
    result FAIL "the guest's kernel log lacks the marker: $(grep irdma-module-marker "$out/guest.out")"
fi
npass=$(grep -Ec "^PASS +(${flows//,/|})( |$)" "$out/guest.out")
if [ "$boot_status" = 0 ] && [ "$npass" = "$(wc -w <<< "${flows//,/ }")" ]; then
    result PASS "both suspend/resume flows passed on that module ($flows)"
else
    result FAIL "the suspend/resume flows on the user's module: $(grep -E '^(FAIL|TIMEOUT)' "$out/guest.out" |
        head -n 3 | xargs)"
fi
# The module and the guest are this run's alone (its marker): not kept.
rm -rf "$(dirname "$ko")" \
    "$repo/build/guest/$(python3 "$repo/scripts/kernel.py" slug $kernel --module "$ko")"
finish
