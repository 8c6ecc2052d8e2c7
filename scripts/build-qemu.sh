#!/usr/bin/env bash
# Fetches Debian's QEMU 7.2 source, applies qemu-patches/, syncs hw/ and emu/ into it as
# hw/irdma-sim, configures a minimal x86_64-softmmu build and builds it. The configured tree is
# cached outside the checkout, keyed on the Debian source version, the patches and the
# configure options; a later run only re-syncs the device sources and lets ninja rebuild what
# changed. Leaves build/qemu-system-x86_64 (a link into the cache).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"

bash "$here/setup-host.sh"

dl=$IRDMA_SIM_CACHE/qemu/dl
mkdir -p "$dl"
dsc=$(ls "$dl"/${QEMU_SRC_PKG}_*.dsc 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$dsc" ]; then
    echo "build-qemu: downloading Debian's $QEMU_SRC_PKG source package"
    (cd "$dl" && apt-get source --download-only -q "$QEMU_SRC_PKG") ||
        { echo "build-qemu: 'apt-get source $QEMU_SRC_PKG' failed (deb-src entry? network?)" >&2; exit 1; }
    dsc=$(ls "$dl"/${QEMU_SRC_PKG}_*.dsc | sort -V | tail -n 1)
fi

configure_opts=(--target-list=x86_64-softmmu --without-default-features --enable-tcg
    --enable-slirp --enable-fdt=system --disable-docs --disable-werror --disable-tools --enable-trace-backends=log
    --firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu)

key=$( { basename "$dsc"; cat "$repo"/qemu-patches/*.patch; echo "${configure_opts[*]}"; } |
       sha256sum | cut -c1-16)
tree=$IRDMA_SIM_CACHE/qemu/tree-$key

# Device sources: content-compared, so unchanged files keep their mtime and are not rebuilt.
sync_device_sources() {
    mkdir -p "$1/hw/irdma-sim/emu"
    rsync -rc --delete --exclude=/emu/ "$repo/hw/" "$1/hw/irdma-sim/"
    rsync -rc --delete --include='*/' --include='*.c' --include='*.h' --include='meson.build' \
        --exclude='*' "$repo/emu/" "$1/hw/irdma-sim/emu/"
}

if ! [ -e "$tree/.configured" ]; then
    echo "build-qemu: preparing $tree from $(basename "$dsc")"
    rm -rf "$tree"
    dpkg-source --no-check -x "$dsc" "$tree" > "$IRDMA_SIM_CACHE/qemu/dpkg-source.log"
    ver=$(cat "$tree/VERSION")
    case "$ver" in
        "$QEMU_UPSTREAM"|"$QEMU_UPSTREAM".*) ;;
        *) echo "build-qemu: $(basename "$dsc") is QEMU $ver, not $QEMU_UPSTREAM" >&2; exit 1 ;;
    esac
    for p in "$repo"/qemu-patches/*.patch; do
        patch -d "$tree" -p1 --quiet --forward < "$p" ||
            { echo "build-qemu: $(basename "$p") does not apply to $ver" >&2; exit 1; }
    done
    sync_device_sources "$tree"
    mkdir -p "$tree/build"
    (cd "$tree/build" && ../configure "${configure_opts[@]}" > ../configure.log 2>&1) ||
        { echo "build-qemu: configure failed, see $tree/configure.log" >&2;
          tail -n 20 "$tree/configure.log" >&2; exit 1; }
    touch "$tree/.configured"
fi

sync_device_sources "$tree"

echo "build-qemu: building qemu-system-x86_64 in $tree/build"
ninja -C "$tree/build" qemu-system-x86_64 > "$tree/build/ninja.log" 2>&1 ||
    { tail -n 40 "$tree/build/ninja.log" >&2; echo "build-qemu: build failed" >&2; exit 1; }
grep -E 'warning:' "$tree/build/ninja.log" | grep -E 'irdma-sim' >&2 || true

# Run from its build tree, QEMU looks for firmware under build/qemu-bundle/<firmwarepath>:
# point those at Debian's seabios / qemu-system-data / ipxe-qemu files.
for fw in /usr/share/qemu /usr/share/seabios /usr/lib/ipxe/qemu; do
    mkdir -p "$tree/build/qemu-bundle$fw"
    for f in "$fw"/*; do
        [ -e "$tree/build/qemu-bundle$f" ] || ln -s "$f" "$tree/build/qemu-bundle$f"
    done
done

mkdir -p "$repo/build"
ln -sfn "$tree/build/qemu-system-x86_64" "$repo/build/qemu-system-x86_64"
echo "build-qemu: build/qemu-system-x86_64 ready"
