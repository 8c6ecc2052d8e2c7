#!/usr/bin/env bash
# Builds the guest: Debian's kernel package (pinned in config.sh) unpacked without installing,
# its uncompressed vmlinux for a fast PVH boot, and an initramfs holding busybox, the kernel
# modules with every dependency, rdma-core user space with its shared libraries, and the
# programs and scripts of guest-tests/. Outputs build/guest/{vmlinux,initramfs.cpio.gz}.
#   build-guest.sh [MESON_BUILD_DIR]   (default build/meson; must already be built)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
. "$here/config.sh"
mbuild=${1:-$repo/build/meson}
out=$repo/build/guest
mkdir -p "$out"

bash "$here/setup-host.sh"

# ---- kernel package ----
kpkg=linux-image-$KERNEL_ABI
kdir=$IRDMA_SIM_CACHE/kernel/$KERNEL_ABI
if ! [ -e "$kdir/.extracted" ]; then
    mkdir -p "$IRDMA_SIM_CACHE/dl"
    deb=$(ls "$IRDMA_SIM_CACHE/dl/${kpkg}_"*.deb 2>/dev/null | tail -n 1 || true)
    if [ -z "$deb" ]; then
        echo "build-guest: downloading $kpkg"
        if ! (cd "$IRDMA_SIM_CACHE/dl" && apt-get download -q "$kpkg"); then
            echo "build-guest: the configured Debian mirror no longer has $kpkg;" \
                 "update KERNEL_ABI in scripts/config.sh" >&2
            exit 1
        fi
        deb=$(ls "$IRDMA_SIM_CACHE/dl/${kpkg}_"*.deb | tail -n 1)
    fi
    rm -rf "$kdir" && mkdir -p "$kdir"
    dpkg-deb -x "$deb" "$kdir"
    depmod -b "$kdir" "$KERNEL_ABI"
    bash "$here/extract-vmlinux.sh" "$kdir/boot/vmlinuz-$KERNEL_ABI" "$kdir/vmlinux"
    touch "$kdir/.extracted"
fi
ln -sfn "$kdir/vmlinux" "$out/vmlinux"
ln -sfn "$kdir/boot/vmlinuz-$KERNEL_ABI" "$out/vmlinuz"
kmods=$kdir/lib/modules/$KERNEL_ABI

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

# Modules: what the tests load, with every dependency modules.dep names.
modules="ice irdma ib_core ib_uverbs ib_umad rdma_ucm rdma_rxe virtio_net virtio_pci e1000e crc32_generic 8021q vxlan nvmet-rdma nvme-rdma"
for m in $modules; do
    modprobe -d "$kdir" -S "$KERNEL_ABI" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r ko; do
    rel=${ko#"$kdir"/}
    mkdir -p "$root/$(dirname "$rel")"
    cp "$ko" "$root/$rel"
done
cp "$kmods"/modules.order "$kmods"/modules.builtin* "$root/lib/modules/$KERNEL_ABI/" 2>/dev/null || true
depmod -b "$root" "$KERNEL_ABI"

# User space, with its shared-library closure.
progs="ibv_devinfo ibv_devices ibv_rc_pingpong ibv_ud_pingpong ib_write_bw ib_write_lat ib_send_bw
  ib_send_lat ib_read_bw rping ucmatose rdma dcb devlink ethtool lspci setpci"
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
echo "build-guest: $out/initramfs.cpio.gz ($(stat -c %s "$out/initramfs.cpio.gz") bytes)"
