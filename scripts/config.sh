# Pinned inputs of the whole pipeline, in one place. Sourced by every script.
# shellcheck shell=bash

# Guest kernel: Debian bookworm's own package (ABI name), booted unmodified.
KERNEL_ABI=6.1.0-57-amd64
# QEMU: Debian's source package; the upstream release it must be.
QEMU_SRC_PKG=qemu
QEMU_UPSTREAM=7.2

# Where downloads and builds are kept between runs (outside the checkout).
IRDMA_SIM_CACHE=${IRDMA_SIM_CACHE:-/var/cache/irdma-sim}

# Host packages, installed on demand by scripts/setup-host.sh.
HOST_PKGS_BUILD="build-essential meson ninja-build pkg-config libglib2.0-dev check libpci-dev
  libibverbs-dev librdmacm-dev python3 dpkg-dev xz-utils zstd rsync cpio kmod"
HOST_PKGS_QEMU="libfdt-dev libpixman-1-dev libslirp-dev zlib1g-dev flex bison qemu-system-data seabios ipxe-qemu"
# The benchmark report's plots (scripts/bench.sh).
HOST_PKGS_BENCH="gnuplot-nox"
HOST_PKGS_GUEST="busybox-static rdma-core ibverbs-utils ibverbs-providers perftest rdmacm-utils
  iproute2 ethtool pciutils"
