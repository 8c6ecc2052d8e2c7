#!/usr/bin/env bash
# The series' bad input as a user meets it (docs/qemu-series.md): a --source that does not
# exist, a directory or a file that is no QEMU source, a QEMU of another release, a --source
# without its value and a stray option are refused by scripts/qemu-series.sh and
# tests/qemu-series-check.sh with one stderr line naming it, exit 2, before anything is
# fetched or made (no OUTDIR, the cache's QEMU directory as it was). Quick: it builds nothing.
# Prints PASS/FAIL lines and "N passed, N failed".
#   tests/qemu-series-input.sh
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/scripts/config.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A cache of its own, which nothing else touches: the test command's other jobs, and the other
# unit tests beside this one, use the real one.
export IRDMA_SIM_CACHE=$tmp/cache
mkdir -p "$IRDMA_SIM_CACHE/qemu"
. "$repo/tests/lib-result.sh"
cache_state() { ls -a "$IRDMA_SIM_CACHE/qemu" 2> /dev/null | sort | xargs; }

# refused NAME EXPECTED-TEXT ARGS...: both scripts exit 2 with one stderr line holding the text,
# make no OUTDIR and leave the cache's QEMU directory as it was.
refused() {
    local name=$1 text=$2 script before rc
    shift 2
    for script in scripts/qemu-series.sh tests/qemu-series-check.sh; do
        before=$(cache_state)
        if [ "$script" = scripts/qemu-series.sh ] && [ "${*: -1}" != --source ]; then
            bash "$repo/$script" "$@" "$tmp/out" > /dev/null 2> "$tmp/err"
        else
            bash "$repo/$script" "$@" > /dev/null 2> "$tmp/err"
        fi
        rc=$?
        if [ $rc = 2 ] && [ "$(grep -c . "$tmp/err")" = 1 ] && grep -qF -- "$text" "$tmp/err" &&
            ! [ -e "$tmp/out" ] && [ "$before" = "$(cache_state)" ]; then
            result PASS "$(basename "$script"): $name refused: $(cat "$tmp/err")"
        else
            result FAIL "$(basename "$script"): $name: exit $rc, stderr '$(head -c 300 "$tmp/err")'"
        fi
    done
}

refused "a source that does not exist" "no such QEMU source: $tmp/none" --source "$tmp/none"
refused "a directory that is no QEMU source tree" "$repo is not a QEMU source tree (no VERSION)" \
    --source "$repo"
echo "not a tarball" > "$tmp/qemu.tar.xz"
refused "a file that is no QEMU release tarball" \
    "$tmp/qemu.tar.xz is not a QEMU release tarball (no VERSION at its top)" --source "$tmp/qemu.tar.xz"
mkdir -p "$tmp/old/qemu-7.2.0/hw" "$tmp/old/qemu-7.2.0/include/qemu"
touch "$tmp"/old/qemu-7.2.0/{configure,meson.build,hw/meson.build,include/qemu/osdep.h}
echo 7.2.0 > "$tmp/old/qemu-7.2.0/VERSION"
refused "a QEMU tree of another release" "is QEMU 7.2.0: the series is made for QEMU 11.1.x" \
    --source "$tmp/old/qemu-7.2.0"
tar -cJf "$tmp/qemu-7.2.0.tar.xz" -C "$tmp/old" qemu-7.2.0
refused "a QEMU tarball of another release" "is QEMU 7.2.0: the series is made for QEMU 11.1.x" \
    --source "$tmp/qemu-7.2.0.tar.xz"
refused "--source without its value" "--source needs a tarball or tree" --source
refused "an unknown option" "unknown option --bogus" --bogus

results
