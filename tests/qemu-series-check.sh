#!/usr/bin/env bash
# The upstream series in a QEMU tree of its own: scripts/qemu-series.sh makes it from this
# checkout, `git am` applies it to a fresh pristine QEMU 11.1.x tree (scripts/qemu-pristine.sh),
# a minimal x86_64 QEMU with the device is configured and built there, and the device's qtest
# runs in it with `meson test`; the generic-fuzz configuration the series adds is compiled, and
# the QEMU fuzz target's kept inputs (tests/fuzz/qemu/traces/) replay on the series' build.
# Prints a PASS/FAIL line for the apply, the build, each qtest case, the fuzz configuration and
# each replay, each step's time, and "N passed, N failed"; exits 1 on a failure, 2 on bad input.
#   tests/qemu-series-check.sh [--source TARBALL|TREE]
# The tree is built in a temporary directory of $IRDMA_SIM_CACHE/qemu, removed at the end
# whatever happens; its logs are kept in build/qemu-series-check/.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/scripts/config.sh"
. "$repo/scripts/qemu-pristine.sh"

source_arg=
case ${1:-} in
    --source) [ $# = 2 ] || { echo "qemu-series-check: --source needs a tarball or tree" >&2; exit 2; }
              source_arg=$2 ;;
    "") ;;
    *) echo "qemu-series-check: unknown option $1 (tests/qemu-series-check.sh [--source TARBALL|TREE])" >&2
       exit 2 ;;
esac
configure_opts=(--target-list=x86_64-softmmu --without-default-features --enable-tcg
    --without-default-devices --with-devices-x86_64=irdma-sim-check --disable-debug-info
    --disable-docs --disable-tools --disable-werror --disable-download
    --firmwarepath=${QEMU_FIRMWARE_DIRS// /:})
logs=$repo/build/qemu-series-check
. "$repo/tests/lib-result.sh"
. "$repo/tests/lib-qtest.sh"

pristine_resolve "$source_arg" tools || exit 2
[ -z "$PTOOLS" ] || export PYTHONPATH=$PTOOLS${PYTHONPATH:+:$PYTHONPATH}
configure_opts+=(--python=/usr/bin/python3 --disable-install-blobs)
mkdir -p "$IRDMA_SIM_CACHE/qemu" || exit 2
work=$(mktemp -d "$IRDMA_SIM_CACHE/qemu/series-check.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
rm -rf "$logs"
mkdir -p "$logs"
q=$work/qemu b=$work/qemu/build

finish() { results; exit; }
step() { echo "qemu-series-check: $1 in $(( $(date +%s) - t )) s"; t=$(date +%s); }

t=$(date +%s)
if ! bash "$repo/scripts/qemu-series.sh" ${source_arg:+--source "$source_arg"} "$work/series" \
        > "$logs/series.log" 2>&1; then
    cat "$logs/series.log"
    result FAIL "series: made: scripts/qemu-series.sh failed"
    finish
fi
step "series made"
pristine_tree "$q" || exit 2
n=$(ls "$work"/series/*.patch | wc -l)
if git -C "$q" -c user.name=irdma-sim -c user.email=irdma-sim@invalid \
        am -q "$work"/series/*.patch > "$logs/git-am.log" 2>&1; then
    result PASS "series: git am of $n patches to QEMU $PVERSION ($(basename "$PSOURCE"))"
else
    git -C "$q" am --abort > /dev/null 2>&1
    result FAIL "series: git am: $(head -n 3 "$logs/git-am.log" | tr '\n' ' ')"
    finish
fi
step "pristine tree unpacked and series applied"
# QEMU's style check of the series, for information: the device keeps the project's style
# (100 columns), and QEMU asks an SPDX license line of each new file.
(cd "$q" && perl scripts/checkpatch.pl -q --no-signoff "$work"/series/*.patch) > "$logs/checkpatch.log" 2>&1
echo "qemu-series-check: scripts/checkpatch.pl: $(grep -c '^ERROR' "$logs/checkpatch.log") errors, $(grep -c '^WARNING' "$logs/checkpatch.log") warnings (not counted; $logs/checkpatch.log)"
step "checkpatch ran"

# The devices of the harness's machine, as scripts/build-qemu.sh builds 11.1.
cp "$repo/qemu-patches/11.1/devices-x86_64.mak" "$q/configs/devices/x86_64-softmmu/irdma-sim-check.mak"
# Debian's orig tarball lacks prebuilt firmware the release has, and QEMU's configure names
# some of it (the edk2 images it would unpack, the device trees it would install): empty files
# stand in for those missing, never built nor installed here (only two targets are built).
stand_ins=$(cd "$q/pc-bios" &&
            { sed -n "s/^ *'\(edk2-[^']*\.fd\)',\$/\1.bz2/p" meson.build
              sed -n "s/^ *'\([^']*\.dtb\)',\$/dtb\/\1/p" dtb/meson.build; } |
            while read -r f; do [ -e "$f" ] || { : > "$f"; echo "$f"; }; done)
[ -z "$stand_ins" ] ||
    echo "qemu-series-check: $(echo "$stand_ins" | wc -l) firmware files the source lacks stood in for by empty files (pc-bios/edk2-*.fd.bz2, pc-bios/dtb/*.dtb)"
mkdir -p "$b"
if ! (cd "$b" && ../configure "${configure_opts[@]}") > "$logs/configure.log" 2>&1; then
    tail -n 20 "$logs/configure.log"
    result FAIL "series: build: configure failed, see $logs/configure.log"
    finish
fi
step "configured"
if ! ninja -C "$b" qemu-system-x86_64 tests/qtest/irdma-sim-test > "$logs/ninja.log" 2>&1; then
    grep -E 'error|FAILED' "$logs/ninja.log" | head -n 20
    result FAIL "series: build: ninja failed, see $logs/ninja.log"
    finish
fi
step "qemu-system-x86_64 and irdma-sim-test built ($(grep -c '^\[' "$logs/ninja.log") steps)"
warnings=$(grep -E 'irdma-sim.*warning:' "$logs/ninja.log")
if [ -z "$warnings" ]; then
    result PASS "series: build (no warning in the device's or the qtest's files)"
else
    echo "$warnings" | head -n 10
    result FAIL "series: build: $(echo "$warnings" | wc -l) warnings in the device's files"
fi

qemu_bundle_firmware "$b"
qtest_cases "$b" "$b/pyvenv/bin/meson" "$logs/meson-test.log"
step "meson test ran"
cp "$b/meson-logs/testlog.txt" "$logs/" 2> /dev/null

# The generic-fuzz configuration: QEMU compiles its header only with --enable-fuzzing (clang),
# so a small program includes it and prints the device's entry, which must be the machine the
# kept inputs were made on (scripts/qemu-fuzz-trace.py reads it from qemu-patches/11.1/).
cat > "$work/fuzz-config.c" <<'EOF'
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include "generic_fuzz_configs.h"

int main(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(predefined_configs); i++) {
        if (!strcmp(predefined_configs[i].name, "irdma-sim")) {
            printf("%s\n", predefined_configs[i].args);
            return 0;
        }
    }
    return 1;
}
EOF
# shellcheck disable=SC2046
if ! cc -Wall -Werror $(pkg-config --cflags glib-2.0) -I"$q/tests/qtest/fuzz" "$work/fuzz-config.c" \
        -o "$work/fuzz-config" $(pkg-config --libs glib-2.0) > "$logs/fuzz-config.log" 2>&1; then
    result FAIL "series: generic-fuzz config: tests/qtest/fuzz/generic_fuzz_configs.h does not compile, see $logs/fuzz-config.log"
elif ! args=$("$work/fuzz-config"); then
    result FAIL "series: generic-fuzz config: no irdma-sim entry in tests/qtest/fuzz/generic_fuzz_configs.h"
elif [ "$args" != "$(python3 "$repo/scripts/qemu-fuzz-trace.py" args)" ]; then
    result FAIL "series: generic-fuzz config: irdma-sim's arguments '$args' are not qemu-patches/11.1/'s"
else
    result PASS "series: generic-fuzz config irdma-sim: $args"
fi
# The kept inputs on the series' build, each line of tests/qemu-fuzz-replay.sh counted here.
while read -r verdict text; do
    case $verdict in PASS|FAIL) result "$verdict" "series: $text" ;; esac
done < <(bash "$repo/tests/qemu-fuzz-replay.sh" "$b/qemu-system-x86_64")
step "generic-fuzz config compiled, kept inputs replayed"
finish
