#!/usr/bin/env bash
# Builds qemu-system-x86_64 with the device: the QEMU of $IRDMA_SIM_QEMU (default QEMU_DEFAULT
# of scripts/config.sh: 7.2, 11.1 or tree:PATH) as scripts/qemu-source.py resolves it (Debian's
# source package, or a copy of the user's tree), the qemu-patches/ set of its release, hw/ and
# emu/ synced into it as hw/irdma-sim, a minimal x86_64-softmmu configuration: no optional
# feature, and only the devices of the set's devices-x86_64.mak (the harness's machine). The
# configured tree is cached outside the checkout, keyed on the source, the patches, the device
# list and the configure options; a later run only re-syncs the device sources and lets ninja
# rebuild what changed.
# Leaves build/qemu-system-x86_64 (a link into the cache), or the link LINK names.
# With --fuzz, the same sources and devices build QEMU's fuzz targets instead (clang, libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer; docs/fuzzing.md), in a tree of their own:
# build/qemu-fuzz-x86_64, whose generic-fuzz-irdma-sim target the release's patch set adds.
# With --coverage, qemu-system-x86_64 instrumented for gcov (--enable-gcov), in a tree of its
# own: build/qemu-cov-x86_64, for the line coverage of hw/ and emu/ (scripts/fuzz.sh --qemu
# --coverage).
#   scripts/build-qemu.sh [--fuzz|--coverage] [LINK]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"
qemu=${IRDMA_SIM_QEMU:-$QEMU_DEFAULT}
variant=plain
case "${1:-}" in
    --fuzz) variant=fuzz; shift ;;
    --coverage) variant=coverage; shift ;;
    --*) echo "build-qemu: unknown option '$1' (--fuzz or --coverage)" >&2; exit 2 ;;
esac
# A bad name or tree is refused before any package is installed.
python3 "$here/qemu-source.py" check "$qemu" || exit 2

bash "$here/setup-host.sh"

QDSC= QTREE= QVERSION= QDEBVERSION= QPATCHES= QTOOLS=
# The assignment keeps fetch's status (an eval of its empty output would succeed).
fetched=$(python3 "$here/qemu-source.py" fetch "$qemu") || exit 2
eval "$fetched"
if [ -n "$QDSC" ]; then
    echo "build-qemu: QEMU $QVERSION from Debian's $QEMU_SRC_PKG $QDEBVERSION"
else
    echo "build-qemu: QEMU $QVERSION from the tree $QTREE"
fi
if [ $variant = fuzz ] && ! grep -qs generic_fuzz_configs "$QPATCHES"/*.patch; then
    echo "build-qemu: --fuzz: qemu-patches/$(basename "$QPATCHES") adds no generic-fuzz configuration for the device (QEMU $QVERSION)" >&2
    exit 2
fi

# The device list goes into the tree as configs/devices/x86_64-softmmu/$devices.mak.
devices=irdma-sim
# Without debug information (-g) the compiler takes about a quarter less time;
# IRDMA_SIM_QEMU_DEBUG=1 builds QEMU with it (for gdb), in a tree of its own.
debug_info=--disable-debug-info
[ "${IRDMA_SIM_QEMU_DEBUG:-0}" != 1 ] || debug_info=--enable-debug-info
configure_opts=(--target-list=x86_64-softmmu --without-default-features --enable-tcg
    --without-default-devices --with-devices-x86_64=$devices $debug_info
    --enable-slirp --enable-fdt=system --disable-docs --disable-werror --disable-tools --enable-trace-backends=log
    --firmwarepath=${QEMU_FIRMWARE_DIRS// /:})
if [ -n "$QTOOLS" ]; then
    # A newer meson and QEMU's Python helpers, unpacked from newer suites (not installed), for
    # the system interpreter whose venv module and pip configure's Python environment needs.
    export PYTHONPATH=$QTOOLS${PYTHONPATH:+:$PYTHONPATH}
    configure_opts+=(--python=/usr/bin/python3 --disable-install-blobs)
fi
target=qemu-system-x86_64
link_name=$target
case $variant in
    fuzz)
        # Line tables only: file:line in the sanitizers' reports at a fraction of -g's cost.
        configure_opts+=(--cc=clang --cxx=clang++ --enable-fuzzing --enable-asan --enable-ubsan
            --extra-cflags=-gline-tables-only)
        target=qemu-fuzz-x86_64
        link_name=$target ;;
    coverage)
        configure_opts+=(--enable-gcov)
        link_name=qemu-cov-x86_64 ;;
esac
link=${1:-$repo/build/$link_name}

key=$( { echo "${QDSC:+$(basename "$QDSC")}$QTREE"
         cat "$QPATCHES"/*.patch "$QPATCHES/devices-x86_64.mak"
         echo "${configure_opts[*]}"; } | sha256sum | cut -c1-16)
tree=$IRDMA_SIM_CACHE/qemu/tree-$key

# Device sources, and the device's qtest (tests/qtest/, hooked into QEMU's qtests by the
# patch set): content-compared, so unchanged files keep their mtime and are not rebuilt.
sync_device_sources() {
    mkdir -p "$1/hw/irdma-sim/emu"
    rsync -rc --delete --exclude=/emu/ "$repo/hw/" "$1/hw/irdma-sim/"
    rsync -rc --delete --include='*/' --include='*.c' --include='*.h' --include='meson.build' \
        --exclude='*' "$repo/emu/" "$1/hw/irdma-sim/emu/"
    rsync -c "$repo"/tests/qtest/irdma-sim-*.[ch] "$1/tests/qtest/"
}

# A user's tree that changed since it was copied is copied and configured anew.
if [ -n "$QTREE" ] && [ -e "$tree/.configured" ] &&
   [ -n "$(find "$QTREE" -path "$QTREE/build" -prune -o -path "$QTREE/.git" -prune -o \
           -type f -newer "$tree/.configured" -print -quit)" ]; then
    echo "build-qemu: $QTREE changed since it was copied: preparing it again"
    rm -f "$tree/.configured"
fi

if ! [ -e "$tree/.configured" ]; then
    # meson keeps the tree's absolute path, so it is prepared in place: a tree without the
    # .configured mark is removed, on failure and by the next run after an interruption.
    rm -rf "$tree"
    trap 'rm -rf "$tree"' EXIT
    mkdir -p "$IRDMA_SIM_CACHE/qemu"    # a user's tree in an empty cache: nothing made it yet
    if [ -n "$QDSC" ]; then
        echo "build-qemu: preparing $tree from $(basename "$QDSC")"
        # Without --no-check: dpkg-source checks every file against the .dsc's checksums.
        dpkg-source -x "$QDSC" "$tree" > "$IRDMA_SIM_CACHE/qemu/dpkg-source.log" 2>&1 ||
            { echo "build-qemu: dpkg-source -x $QDSC failed, see $IRDMA_SIM_CACHE/qemu/dpkg-source.log" >&2
              exit 1; }
    else
        echo "build-qemu: preparing $tree from a copy of $QTREE"
        rsync -a --exclude=/build/ --exclude=/.git/ "$QTREE/" "$tree/"
    fi
    for p in "$QPATCHES"/*.patch; do
        patch -d "$tree" -p1 --quiet --forward < "$p" ||
            { echo "build-qemu: qemu-patches/$(basename "$QPATCHES")/$(basename "$p") does not apply to QEMU $QVERSION" >&2
              exit 1; }
    done
    cp "$QPATCHES/devices-x86_64.mak" "$tree/configs/devices/x86_64-softmmu/$devices.mak"
    sync_device_sources "$tree"
    mkdir -p "$tree/build"
    start=$(date +%s)
    (cd "$tree/build" && ../configure "${configure_opts[@]}" > ../configure.log 2>&1) ||
        { cp "$tree/configure.log" "$IRDMA_SIM_CACHE/qemu/configure-failed.log"
          echo "build-qemu: configure failed, see $IRDMA_SIM_CACHE/qemu/configure-failed.log" >&2
          tail -n 20 "$tree/configure.log" >&2; exit 1; }
    echo "build-qemu: configured in $(( $(date +%s) - start )) s"
    touch "$tree/.configured"
    trap - EXIT
fi

sync_device_sources "$tree"

echo "build-qemu: building $target in $tree/build"
start=$(date +%s)
ninja -C "$tree/build" "$target" > "$tree/build/ninja.log" 2>&1 ||
    { tail -n 40 "$tree/build/ninja.log" >&2; echo "build-qemu: build failed" >&2; exit 1; }
echo "build-qemu: ninja took $(( $(date +%s) - start )) s"
grep -E 'warning:' "$tree/build/ninja.log" | grep -E 'irdma-sim' >&2 || true

qemu_bundle_firmware "$tree/build"

mkdir -p "$(dirname "$link")"
# Replaced in one rename: guests of other jobs may be starting through the old link.
ln -sfn "$tree/build/$target" "$link.$$"
mv -Tf "$link.$$" "$link"
echo "build-qemu: ${link#"$repo"/} ready (QEMU $QVERSION)"
