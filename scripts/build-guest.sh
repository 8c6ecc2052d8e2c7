#!/usr/bin/env bash
# Builds the guest for one kernel: the kernel unpacked in the cache by scripts/kernel.py (a row of
# the matrix in config.sh, the user's packages or build tree), booted unmodified, and an
# initramfs holding busybox, the kernel modules with every dependency (uncompressed), rdma-core
# user space with its shared libraries, and the programs and scripts of guest-tests/.
# Outputs build/guest/SLUG/{vmlinux or bzImage,initramfs.cpio.gz,kernel.txt}.
#   build-guest.sh [--kernel NAME] [--module FILE.ko ...] [MESON_BUILD_DIR]
#   NAME defaults to $IRDMA_SIM_KERNEL, then config.sh's KERNEL_DEFAULT; modules default to
#   $IRDMA_SIM_MODULES (colon-separated). A --module replaces the kernel's module of that name.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"
kname=${IRDMA_SIM_KERNEL:-$KERNEL_DEFAULT}
user_mods=()
IFS=: read -r -a user_mods <<< "${IRDMA_SIM_MODULES:-}"
mbuild=$repo/build/meson
while [ $# -gt 0 ]; do
    case "$1" in
        --kernel) kname=$2; shift 2 ;;
        --module) user_mods+=("$2"); shift 2 ;;
        *) mbuild=$1; shift ;;
    esac
done

bash "$here/setup-host.sh"

# ---- kernel: KABI, KIMAGE, KBOOT, KDIR (modroot/lib/modules/KABI), KSLUG ----
modargs=()
for m in "${user_mods[@]}"; do [ -n "$m" ] && modargs+=(--module "$m"); done
kinfo=$(python3 "$here/kernel.py" prepare "$kname" "${modargs[@]}") || exit 2
eval "$kinfo"
out=$repo/build/guest/$KSLUG
mkdir -p "$out"
rm -f "$out/vmlinux" "$out/bzImage"
ln -sfn "$KIMAGE" "$out/$(basename "$KIMAGE")"
printf '%s\n' "name $kname" "abi $KABI" "boot $KBOOT" > "$out/kernel.txt"
kbase=$KDIR/modroot
kmods=$kbase/lib/modules/$KABI

# ---- unchanged: nothing to do ----
# The initramfs is a function of the kernel, the user's modules, the guest programs and scripts,
# the host packages it copies from, and this script: when none changed since it was packed, it
# stays (packing takes most of this script's time).
# shellcheck disable=SC2086
key=$( { echo "$kinfo"; cat "$0"
         for m in "${user_mods[@]}"; do [ -n "$m" ] && sha256sum "$m"; done
         find "$mbuild/guest-tests" -maxdepth 1 -type f -perm -u+x -exec sha256sum {} +
         sha256sum "$mbuild/tools/mkddp" "$repo/guest-tests/init" "$repo"/guest-tests/tests/*
         dpkg-query -W $HOST_PKGS_GUEST 2>/dev/null; } | sha256sum | cut -c1-16)
if [ -s "$out/initramfs.cpio.gz" ] && [ "$(cat "$out/initramfs.key" 2>/dev/null)" = "$key" ]; then
    echo "build-guest: kernel $kname ($KABI): $out/initramfs.cpio.gz unchanged ($(stat -c %s "$out/initramfs.cpio.gz") bytes)"
    exit 0
fi
rm -f "$out/initramfs.key"

# ---- root file system ----
root=$out/rootfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,run,mnt,root,usr/bin,usr/sbin,usr/lib,usr/lib64,tests}
ln -s usr/lib "$root/lib"
ln -s usr/lib64 "$root/lib64"

cp /bin/busybox "$root/bin/busybox"
for applet in $("$root/bin/busybox" --list-full); do
    [ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
done

# Modules: what the tests load, with every dependency modules.dep names, uncompressed (busybox
# modprobe reads plain .ko). The required ones are checked by kernel.py; one a kernel lacks is
# named here, not lost. crc32_generic is no dependency in modules.dep: before 7.x rxe asks the
# crypto API for "crc32" at run time; 7.x has crc32 as a library and no such module.
modules="ice irdma ib_core ib_uverbs ib_umad rdma_ucm rdma_rxe virtio_net virtio_pci e1000e 8021q vxlan nvmet-rdma nvme-rdma"
case "$KABI" in [1-6].*) modules="$modules crc32_generic" ;; esac
deps=$(mktemp)
for m in $modules; do
    if ! modprobe -d "$kbase" -S "$KABI" --show-depends "$m" > "$deps.one" 2>&1; then
        echo "build-guest: kernel $kname ($KABI) has no module $m; tests that need it will fail"
        continue
    fi
    awk '$1 == "insmod" { print $2 }' "$deps.one" >> "$deps"
done
rm -f "$deps.one"
mkdir -p "$root/lib/modules/$KABI"
sort -u "$deps" | while read -r ko; do
    rel=${ko#"$kmods"/}
    [ "$rel" != "$ko" ] || rel=kernel/${ko##*/}
    dest=$root/lib/modules/$KABI/${rel%.xz}
    dest=${dest%.zst}
    mkdir -p "$(dirname "$dest")"
    case "$ko" in
        *.ko.xz) xz -dc "$ko" > "$dest" ;;
        *.ko.zst) zstd -q -dc "$ko" > "$dest" ;;
        *) cp -L "$ko" "$dest" ;;
    esac
done
rm -f "$deps"
# The user's own modules replace the kernel's of the same name (kernel.py checked vermagic).
for m in "${user_mods[@]}"; do
    [ -n "$m" ] || continue
    name=$(modinfo -F name "$m" 2>/dev/null || true)
    name=${name:-$(basename "${m%%.ko*}")}
    old=$(find "$root/lib/modules/$KABI" -name "$name.ko" -o -name "${name//_/-}.ko" | head -n 1)
    dest=${old:-$root/lib/modules/$KABI/updates/$name.ko}
    mkdir -p "$(dirname "$dest")"
    case "$m" in
        *.ko.xz) xz -dc "$m" > "$dest" ;;
        *.ko.zst) zstd -q -dc "$m" > "$dest" ;;
        *.ko.gz) gzip -dc "$m" > "$dest" ;;
        *) cp "$m" "$dest" ;;
    esac
    echo "build-guest: module $name from $m${old:+ (replaces the kernel module)}"
done
cp "$kmods"/modules.order "$kmods"/modules.builtin* "$root/lib/modules/$KABI/" 2>/dev/null || true
sed -i 's/\.ko\.\(xz\|zst\|gz\)$/.ko/' "$root/lib/modules/$KABI/modules.order" 2>/dev/null || true
depmod -b "$root" "$KABI"

# User space, with its shared-library closure.
progs="ibv_devinfo ibv_devices ibv_rc_pingpong ibv_ud_pingpong ib_write_bw ib_write_lat ib_send_bw
  ib_send_lat ib_read_bw ib_read_lat rping ucmatose rdma dcb devlink ethtool lspci setpci"
copy_with_libs() {
    local f=$1 dest=${2:-$1}
    mkdir -p "$root/$(dirname "$dest")"
    cp -L "$f" "$root/$dest"
    ldd "$f" 2>/dev/null | grep -o '/[^ ]*' | while read -r lib; do
        [ -e "$root/$lib" ] || { mkdir -p "$root/$(dirname "$lib")"; cp -L "$lib" "$root/$lib"; }
    done
}
for p in $progs; do
    path=$(command -v "$p" || true)
    [ -n "$path" ] || { echo "build-guest: $p not found on the host" >&2; exit 1; }
    copy_with_libs "$path" "/usr/bin/$p"
done
# iproute2's ip replaces busybox's (the tests need its full syntax).
copy_with_libs /usr/bin/ip /usr/sbin/ip
# Verbs providers are dlopen()ed: ldd cannot see them, nor libgcc_s (pthread_exit/cancel).
multiarch=$(gcc -print-multiarch)
for so in /usr/lib/"$multiarch"/libibverbs/*.so; do copy_with_libs "$so"; done
mkdir -p "$root/etc/libibverbs.d"
cp /etc/libibverbs.d/*.driver "$root/etc/libibverbs.d/"
copy_with_libs "$(gcc -print-file-name=libgcc_s.so.1 | xargs readlink -f)" \
    "/usr/lib/$multiarch/libgcc_s.so.1"

# Our guest programs and scripts.
for prog in "$mbuild"/guest-tests/*; do
    [ -f "$prog" ] && [ -x "$prog" ] && copy_with_libs "$prog" "/usr/bin/$(basename "$prog")"
done
# The DDP package ice loads at probe: synthetic, generated here (docs/ddp-package.md).
mkdir -p "$root/lib/firmware/intel/ice/ddp"
"$mbuild"/tools/mkddp -o "$root/lib/firmware/intel/ice/ddp/ice.pkg"
cp "$repo"/guest-tests/init "$root/init"
cp "$repo"/guest-tests/tests/* "$root/tests/"
chmod +x "$root/init" "$root"/tests/*

# ---- pack ----
( cd "$root" && find . -print0 | sort -z | cpio --null -o -H newc -R 0:0 --quiet ) > "$out/rootfs.cpio"
# /dev/console must exist before devtmpfs is mounted, or /init starts without stdio.
devdir=$(mktemp -d)
mkdir -p "$devdir/dev" && mknod "$devdir/dev/console" c 5 1
( cd "$devdir" && echo ./dev/console | cpio -o -H newc -R 0:0 --quiet ) >> "$out/rootfs.cpio"
rm -rf "$devdir"
gzip -1 -c "$out/rootfs.cpio" > "$out/initramfs.cpio.gz"
rm -f "$out/rootfs.cpio"
echo "$key" > "$out/initramfs.key"
echo "build-guest: $out/initramfs.cpio.gz ($(stat -c %s "$out/initramfs.cpio.gz") bytes)"
