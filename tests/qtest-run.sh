#!/usr/bin/env bash
# The device's qtest (tests/qtest/irdma-sim-test.c, docs/user-guide.md "The qtest") in QEMU's
# own harness: scripts/build-qemu.sh builds the QEMU of IRDMA_SIM_QEMU with the device and
# syncs the test into its tree, whose qemu-patches/ set lists it among the x86_64 qtests; then
# only the test binary is built and `meson test` runs it there (qtest-x86_64/irdma-sim-test).
# No guest is booted. Prints one PASS/FAIL line per test case, the build and run times, and
# "N passed, N failed"; exits non-zero on a failure or a build that fails. LINK: where
# build-qemu.sh leaves its link to the emulator (default build/qemu-system-x86_64).
#   tests/qtest-run.sh [LINK]
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
link=${1:-$repo/build/qemu-system-x86_64}
# The logs go next to the link.
logs=$(dirname "$link")
log=$logs/qtest-build.log
mkdir -p "$logs"
. "$repo/tests/lib-result.sh"
. "$repo/tests/lib-qtest.sh"
finish() { results; exit; }

start=$(date +%s)
if ! bash "$repo/scripts/build-qemu.sh" "$link" > "$log" 2>&1; then
    tail -n 20 "$log"
    result FAIL "qtest: build: scripts/build-qemu.sh failed, see $log"
    finish
fi
build=$(dirname "$(readlink -f "$link")")
# The build tools the tree was configured with (QEMU 11.1: a newer meson, on PYTHONPATH), for
# ninja's re-configure and for meson test, as scripts/build-qemu.sh has them.
. "$repo/scripts/config.sh"
QTOOLS=
fetched=$(python3 "$repo/scripts/qemu-source.py" fetch "${IRDMA_SIM_QEMU:-$QEMU_DEFAULT}") ||
    { result FAIL "qtest: the QEMU source does not resolve"; finish; }
eval "$fetched"
[ -z "$QTOOLS" ] || export PYTHONPATH=$QTOOLS${PYTHONPATH:+:$PYTHONPATH}
if ! ninja -C "$build" tests/qtest/irdma-sim-test >> "$log" 2>&1; then
    tail -n 30 "$log"
    result FAIL "qtest: build: the test binary did not build, see $log"
    finish
fi
echo "qtest: built in $(( $(date +%s) - start )) s ($(sed -n 's/^build-qemu: QEMU \([^ ]*\) .*/\1/p' "$log" | head -n 1))"

# The meson that configured the tree: QEMU 8.1 on runs it from the build tree's venv.
meson=meson
[ -x "$build/pyvenv/bin/meson" ] && meson=$build/pyvenv/bin/meson
qtest_cases "$build" "$meson" "$logs/qtest-meson.log"
finish
