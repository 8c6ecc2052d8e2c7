#!/usr/bin/env bash
# The ice and irdma driver sources of each matrix kernel, for tools/driver-use.py (the per-kernel
# columns of docs/coverage.md and the meson test driver-use that checks them).
#   scripts/driver-sources.sh [KERNEL...]      (default: every kernel of KERNEL_MATRIX)
# For each kernel: Debian's linux-source-SERIES of the kernel's exact version (fetched like the
# kernel packages, scripts/kernel.py), of which only the driver directories and the headers
# holding the register, admin-queue, CQP and AE definitions are unpacked into
#   $IRDMA_SIM_CACHE/driver-src/KERNEL/
# with a .version file naming the version. A kernel already unpacked at its pinned version is
# not fetched again. Each is unpacked into a temporary directory renamed at the end, so an error
# leaves nothing half-written. Prints the directory of each kernel, one a line.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"

die() { echo "driver-sources: $*" >&2; exit 2; }
# Inside the kernel tree: ice and irdma, libie (7.x: the firmware-log module ice_init_hw starts,
# and the admin-queue header ice shares with it), the shared headers of include/linux/net/intel.
PATHS="drivers/infiniband/hw/irdma drivers/net/ethernet/intel/ice drivers/net/ethernet/intel/libie
  include/linux/net/intel"

bash "$here/setup-host.sh"
names=("$@")
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(awk 'NF { print $1 }' <<< "$KERNEL_MATRIX")
base=$IRDMA_SIM_CACHE/driver-src
mkdir -p "$base"
for name in "${names[@]}"; do
    version=$(awk -v n="$name" '$1 == n { print $4 }' <<< "$KERNEL_MATRIX")
    [ -n "$version" ] || die "unknown kernel '$name': one of$(awk 'NF { printf " %s", $1 }' <<< "$KERNEL_MATRIX")"
    dest=$base/$name
    if [ "$(cat "$dest/.version" 2>/dev/null)" != "$version" ]; then
        series=$(sed 's/^\([0-9]*\.[0-9]*\).*/\1/' <<< "$version")
        deb=$(python3 "$here/kernel.py" fetch "$name" "linux-source-$series" |
              sed -n "s/^DEB='\(.*\)'$/\1/p")
        [ -n "$deb" ] || exit 2
        echo "driver-sources: unpacking the $name drivers from $(basename "$deb")" >&2
        tmp=$dest.tmp
        rm -rf "$tmp" && mkdir -p "$tmp"
        trap 'rm -rf "$tmp"' EXIT
        top=linux-source-$series
        members=()
        for p in $PATHS; do members+=("$top/$p"); done
        set +e
        dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$top.tar.xz" | xz -dc -T2 |
            tar -x -C "$tmp" --strip-components=1 "${members[@]}" 2> "$tmp/.tar.log"
        st=("${PIPESTATUS[@]}")
        set -e
        [ "${st[0]}${st[1]}${st[2]}" = 000 ] || die "unpacking $deb failed (dpkg-deb, tar, xz: ${st[*]:0:3})"
        # Members a release does not have (libie before 6.x's later releases) are not errors.
        [ "${st[3]}" = 0 ] ||
            ! grep -v 'Not found in archive\|Exiting with failure status' "$tmp/.tar.log" | grep -q . ||
            die "unpacking $deb failed: $(head -1 "$tmp/.tar.log")"
        rm -f "$tmp/.tar.log"
        for p in drivers/infiniband/hw/irdma drivers/net/ethernet/intel/ice; do
            [ -d "$tmp/$p" ] || die "$deb has no $p"
        done
        echo "$version" > "$tmp/.version"
        rm -rf "$dest"
        mv "$tmp" "$dest"
        trap - EXIT
    fi
    echo "$dest"
done
