#!/usr/bin/env bash
# QEMU selection as a user meets it (scripts/irdma-sim --qemu, docs/user-guide.md): an unknown
# name, a tree:PATH that is no directory or no QEMU source tree, a --qemu without its NAME and
# a bad IRDMA_SIM_QEMU are refused by both commands with one stderr line naming the value,
# exit 2, before anything is built (no unit build, no QEMU tree, the cache's QEMU directory as
# it was); a tree the device's hooks do not apply to leaves no half-prepared copy in the cache.
# A bad IRDMA_SIM_JOBS (how many of the test command's jobs run at once) is refused alike.
# Quick: it builds and boots nothing.
# Prints PASS/FAIL lines and "N passed, N failed".
#   tests/qemu-select.sh
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
unset IRDMA_SIM_QEMU    # this script names its QEMU itself
. "$repo/scripts/config.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A cache of its own, which nothing else touches: the test command's other jobs, and the other
# unit tests beside this one, use the real one.
export IRDMA_SIM_CACHE=$tmp/cache
mkdir -p "$IRDMA_SIM_CACHE/qemu"
. "$repo/tests/lib-result.sh"
cache_state() { ls -a "$IRDMA_SIM_CACHE/qemu" 2> /dev/null | sort | xargs; }
unit_stamp() { stat -c %Y "$repo/build/meson/build.ninja" 2> /dev/null || echo none; }

# refused COMMANDS NAME EXPECTED-TEXT [ENV=VALUE] ARGS...: each command ("demo test") exits 2
# with one stderr line holding the text, builds nothing and leaves the cache's QEMU directory
# as it was.
refused() {
    local cmds=$1 name=$2 text=$3 cmd before after ustamp rc
    shift 3
    local envs=()
    while [ $# -gt 0 ] && [[ $1 =~ ^[A-Z_]+= ]]; do envs+=("$1"); shift; done
    for cmd in $cmds; do
        before=$(cache_state) ustamp=$(unit_stamp)
        env "${envs[@]}" bash "$repo/scripts/irdma-sim" "$cmd" "$@" > "$tmp/out" 2> "$tmp/err"
        rc=$?
        after=$(cache_state)
        if [ $rc = 2 ] && [ "$(grep -c . "$tmp/err")" = 1 ] && grep -qF -- "$text" "$tmp/err" &&
            ! grep -q 'build-qemu\|@@INIT' "$tmp/out" && [ "$before" = "$after" ] &&
            [ "$ustamp" = "$(unit_stamp)" ]; then
            result PASS "$cmd: $name refused: $(cat "$tmp/err")"
        else
            result FAIL "$cmd: $name: exit $rc, stderr '$(head -c 300 "$tmp/err")', cache $before -> $after"
        fi
    done
}

refused "demo test" "an unknown QEMU name" "unknown QEMU '9.0'" --qemu 9.0
refused demo "an unknown QEMU name (--qemu=)" "unknown QEMU 'latest'" --qemu=latest
refused test "an unknown QEMU name in IRDMA_SIM_QEMU" "unknown QEMU '11'" IRDMA_SIM_QEMU=11
refused demo "--qemu without its NAME" "--qemu needs a NAME" --qemu
refused test "a tree that does not exist" "$tmp/none is not a directory" --qemu "tree:$tmp/none"
refused test "a bad IRDMA_SIM_JOBS" "IRDMA_SIM_JOBS=two: want a number of jobs, 1 or more" \
    IRDMA_SIM_JOBS=two
mkdir -p "$tmp/notqemu/hw"
touch "$tmp/notqemu/VERSION" "$tmp/notqemu/meson.build"
refused "demo test" "a directory that is no QEMU source tree" \
    "$tmp/notqemu is not a QEMU source tree (no configure, hw/meson.build, include/qemu/osdep.h)" \
    --qemu "tree:$tmp/notqemu"

# A source tree the device's hooks do not apply to: build-qemu.sh names the patch and the
# release, and the half-prepared copy is not left in the cache.
mkdir -p "$tmp/oldqemu/hw" "$tmp/oldqemu/include/qemu"
echo 7.2.0 > "$tmp/oldqemu/VERSION"
touch "$tmp/oldqemu/configure" "$tmp/oldqemu/meson.build" "$tmp/oldqemu/hw/meson.build" \
    "$tmp/oldqemu/hw/Kconfig" "$tmp/oldqemu/include/qemu/osdep.h"
before=$(cache_state)
IRDMA_SIM_QEMU=tree:$tmp/oldqemu bash "$repo/scripts/build-qemu.sh" > "$tmp/out" 2> "$tmp/err"
rc=$?
after=$(cache_state)
if [ $rc != 0 ] && grep -qF "qemu-patches/7.2/0001-hook-irdma-sim-into-hw.patch does not apply to QEMU 7.2.0" "$tmp/err" &&
    [ "$before" = "$after" ]; then
    result PASS "a tree the hooks do not apply to: $(tail -n 1 "$tmp/err"), nothing left in the cache"
else
    result FAIL "a tree the hooks do not apply to: exit $rc, stderr '$(tail -c 300 "$tmp/err")', cache $before -> $after"
fi
results
