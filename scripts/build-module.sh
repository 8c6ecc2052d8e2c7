#!/usr/bin/env bash
# Builds irdma.ko out of tree for a kernel of the matrix, as a driver developer would: from
# Debian's linux-source of the kernel's exact version, against its linux-headers (the .config and
# Module.symvers of the kernel Debian built), with the host's compiler. Prints the module's path.
#   scripts/build-module.sh [--marker TEXT] [--src DIR] KERNEL
#     KERNEL      6.1, 6.12 or 7.3 (KERNEL_MATRIX in scripts/config.sh)
#     --marker    irdma's module init prints "irdma: built by irdma-sim module test TEXT"
#     --src DIR   build this irdma source directory instead of the kernel's own
# Steps (what a user types, docs/user-guide.md): unpack linux-source; copy the headers' .config
# and Module.symvers in; make olddefconfig (the host's gcc replaces the one Debian used: the
# CC_* options are recomputed for it, the changes land in config.changes); make modules_prepare
# KERNELRELEASE=<ABI> KERNELVERSION=<ABI> (so the vermagic is the kernel's: 7.x takes the release
# as given, 6.1 makes it from KERNELVERSION); make M=<irdma dir> modules.
# The prepared tree is kept in $IRDMA_SIM_CACHE/modbuild/KERNEL/tree, the eight newest modules in
# .../out/<hash>/ (same source and marker: the same module, not rebuilt). Both are written to a
# temporary directory renamed at the end, so an error leaves nothing half-written. The objects
# of the two newest sources stay in the tree: another marker recompiles main.c alone.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"

die() { echo "build-module: $*" >&2; exit 2; }
marker='' src=''
while [ $# -gt 1 ]; do
    case "$1" in
        --marker) marker=$2; shift 2 ;;
        --src) src=$(realpath "$2"); shift 2 ;;
        *) die "unknown option '$1'" ;;
    esac
done
[ $# = 1 ] && [ "${1#-}" = "$1" ] || { sed -n '5,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
name=$1
case "$marker" in *[!A-Za-z0-9._:+-]*) die "--marker: letters, digits and ._:+- only" ;; esac
bash "$here/setup-host.sh"

# The kernel's row: its ABI and version; the source and headers packages of that version.
abi=$(awk -v n="$name" '$1 == n { print $3 }' <<< "$KERNEL_MATRIX")
[ -n "$abi" ] || die "unknown kernel '$name': one of$(awk 'NF { printf " %s", $1 }' <<< "$KERNEL_MATRIX")"
version=$(awk -v n="$name" '$1 == n { print $4 }' <<< "$KERNEL_MATRIX")
series=$(sed 's/^\([0-9]*\.[0-9]*\).*/\1/' <<< "$version")
# (linux-headers-*-common is not needed: the source tree has those headers, and more.)
mapfile -t debs < <(python3 "$here/kernel.py" fetch "$name" "linux-source-$series" \
    "linux-headers-$abi" | sed -n "s/^DEB='\(.*\)'$/\1/p")
[ ${#debs[@]} = 2 ] || exit 2

base=$IRDMA_SIM_CACHE/modbuild/$name
tree=$base/tree
jobs=$(( $(nproc) < 2 ? $(nproc) : 2 ))
# The host tools the tree was prepared with: others (an upgrade) prepare it again.
tools="gcc $(gcc -dumpfullversion), pahole $(pahole --version 2>/dev/null || echo none)"
if [ "$(cat "$tree/.prepared" 2>/dev/null)" != "$tools" ]; then
    echo "build-module: preparing the $abi source tree in $tree (once)" >&2
    tmp=$tree.tmp
    rm -rf "$tmp" && mkdir -p "$tmp/.debs"
    trap 'rm -rf "$tmp"' EXIT
    dpkg-deb --fsys-tarfile "${debs[0]}" | tar -xO "./usr/src/linux-source-$series.tar.xz" |
        tar -xJ -C "$tmp" --strip-components=1
    dpkg-deb -x "${debs[1]}" "$tmp/.debs"
    hdr=$tmp/.debs/usr/src/linux-headers-$abi
    cp "$hdr/.config" "$tmp/.config"
    cp "$hdr/.config" "$tmp/config.debian"
    cp "$hdr/Module.symvers" "$tmp/Module.symvers"
    # Debian's vmlinux (its BTF is the base of the module's BTF).
    [ ! -e "$hdr/vmlinux" ] || cp "$hdr/vmlinux" "$tmp/vmlinux"
    rm -rf "$tmp/.debs"
    make -C "$tmp" -s olddefconfig > "$tmp/prepare.log" 2>&1 ||
        { tail -5 "$tmp/prepare.log" >&2; die "make olddefconfig failed"; }
    # What the host's compiler changed in Debian's configuration (its CC_* probes).
    diff <(grep '^CONFIG_' "$tmp/config.debian" | sort) <(grep '^CONFIG_' "$tmp/.config" | sort) |
        sed -n 's/^\([<>]\) /\1 /p' > "$tmp/config.changes" || true
    make -C "$tmp" -j"$jobs" modules_prepare KERNELRELEASE="$abi" KERNELVERSION="$abi" >> "$tmp/prepare.log" 2>&1 ||
        { tail -20 "$tmp/prepare.log" >&2; die "make modules_prepare failed"; }
    [ "$(cat "$tmp/include/config/kernel.release")" = "$abi" ] ||
        die "modules_prepare made release $(cat "$tmp/include/config/kernel.release"), not $abi"
    echo "$tools" > "$tmp/.prepared"
    rm -rf "$tree"
    mv "$tmp" "$tree"
    trap - EXIT
    echo "build-module: config options the host's $tools changed:" \
        "$(grep -c '^<' "$tree/config.changes" || true) removed or changed, see $tree/config.changes" >&2
fi

# The module: the kernel's irdma (or --src), the marker line added to its module init.
src=${src:-$tree/drivers/infiniband/hw/irdma}
[ -e "$src/main.c" ] && [ -e "$src/Makefile" ] || die "$src: no irdma source (main.c, Makefile)"
# The key of the source as found (the build directory), and of the module (with the marker).
srckey=$( (cd "$src" && find . -maxdepth 1 -type f \( -name '*.[ch]' -o -name 'Makefile' -o -name Kbuild \) \
        -print0 | sort -z | xargs -0 sha256sum; gcc --version | head -1) | sha256sum | cut -c1-12)
key=$( (echo "$srckey"; echo "marker=$marker") | sha256sum | cut -c1-12)
out=$base/out/$key
if ! [ -e "$out/irdma.ko" ]; then
    tmp=$base/out/.tmp-$key
    # The copy built sits next to the kernel's irdma: irdma includes ice's headers by relative
    # path (../../../net/ethernet/intel/ice/ in 6.x). It is kept for the next build of the same
    # source, which then compiles main.c again (the marker) and what make finds changed, as a
    # developer's rebuild after a one-line change does; a build that fails starts it afresh.
    bsrc=drivers/infiniband/hw/irdma-build-$srckey
    rm -rf "$tmp" && mkdir -p "$tmp"
    trap 'rm -rf "$tmp" "${tree:?}/$bsrc"' EXIT
    # The copy of the source, without the objects it may hold.
    fresh() {
        rm -rf "${tree:?}/$bsrc" && mkdir -p "$tree/$bsrc"
        cp -a "$src/." "$tree/$bsrc/"
        find "$tree/$bsrc" \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' -o -name '*.mod*' \) -delete
    }
    # main.c as the source has it, or with the marker after the declarations of
    # irdma_init_module (its first blank line); written before each build, so compiled each time.
    marked_main() {
        awk -v m="$marker" '
            /irdma_init_module\(void\)/ { inmod = 1 }
            { print }
            inmod && /^$/ && m != "" { printf "\tpr_info(\"irdma: built by irdma-sim module test %s\\n\");\n", m }
            inmod && /^$/ { inmod = 0 }
        ' "$src/main.c" > "$tree/$bsrc/main.c"
        [ -z "$marker" ] || grep -q "irdma-sim module test $marker" "$tree/$bsrc/main.c" ||
            die "$src/main.c: no irdma_init_module to put the marker in"
    }
    # make M=<the copy> modules in the tree, its log in $tmp/build.log.
    build() {
        make -C "$tree" -j"$jobs" M="$bsrc" modules > "$tmp/build.log" 2>&1
    }
    [ -d "$tree/$bsrc" ] || fresh
    marked_main
    echo "build-module: building irdma.ko for $abi${marker:+ (marker $marker)}" >&2
    build || { fresh && marked_main && build; } ||
        { grep -E 'error|Error' "$tmp/build.log" | head -20 >&2; die "make M=... modules failed"; }
    cp "$tree/$bsrc/irdma.ko" "$tmp/"
    touch "$tree/$bsrc"                 # the newest build directory, for the pruning below
    rm -rf "$out"
    mv "$tmp" "$out"
    trap - EXIT
    # The eight newest modules are kept, and the build directories of the two newest sources.
    ls -dt "$base"/out/*/ | tail -n +9 | xargs -r rm -rf
    ls -dt "$tree"/drivers/infiniband/hw/irdma-build-*/ | tail -n +3 | xargs -r rm -rf
fi
vermagic=$(modinfo -F vermagic "$out/irdma.ko")
[ "${vermagic%% *}" = "$abi" ] || die "$out/irdma.ko: vermagic '$vermagic', not $abi"
echo "$out/irdma.ko"
