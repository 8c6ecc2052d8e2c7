# Pinned inputs of the whole pipeline, in one place. Sourced first by every script of scripts/
# (but extract-vmlinux.sh, a standalone tool):
#   here=$(cd "$(dirname "$0")" && pwd)
#   . "$here/config.sh"
# which also gives it $repo, the checkout (a POSIX sh script that sources it sets $repo first).
# shellcheck shell=bash
if [ -n "${BASH_VERSION:-}" ]; then
    repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fi

# Guest kernels, booted unmodified: the matrix, one row each (scripts/kernel.py reads it).
#   name  suite (host: the host's own apt sources)  ABI  version  packages (comma-separated)
# 7.x splits the kernel into linux-binary (image), linux-modules and linux-base (config,
# modules.builtin). When the mirror has moved on, kernel.py names the version it serves now.
KERNEL_MATRIX="
6.1   host              6.1.0-57-amd64        6.1.192-3        linux-image-6.1.0-57-amd64
6.12  trixie            6.12.117+deb13-amd64  6.12.117-1       linux-image-6.12.117+deb13-amd64
7.3   trixie-backports  7.3.4+deb13-amd64     7.3.4-1~bpo13+1  linux-binary-7.3.4+deb13-amd64,linux-modules-7.3.4+deb13-amd64,linux-base-7.3.4+deb13-amd64
"
# The kernel of both README commands unless --kernel or IRDMA_SIM_KERNEL says otherwise: the
# newest of the matrix, the driver the hardware-interface reference describes.
KERNEL_DEFAULT=7.3
# Suites of the host's Debian mirror that the private apt configuration in the cache adds.
NEWER_SUITES="trixie trixie-backports sid"
# QEMU: Debian's source package, and the releases the device builds into (--qemu), one row each
# (scripts/qemu-source.py reads it):
#   name  suite (host: the host's own apt sources; newer: NEWER_SUITES)  pinned version  SHA-256
#   of its .dsc  build tools of the newer suites (comma-separated .debs, unpacked into the cache)
# A newer suite's index can name versions whose files the mirror's pool does not serve yet: the
# indexed versions are tried newest first, then the pinned one, fetched from the pool by name.
QEMU_SRC_PKG=qemu
QEMU_MATRIX="
7.2   host   -              -                                                                 -
11.1  newer  1:11.1.1+ds-1  dfd4fbdd38517e2467002091bbcd938bbff8b2c851cc3f56b019236c7d1f21da  meson/trixie,python3-pycotap/trixie,python3-qemu-qmp/trixie-backports
"
# The QEMU of both README commands unless --qemu or IRDMA_SIM_QEMU says otherwise.
QEMU_DEFAULT=11.1
# Where a QEMU built here finds its firmware: Debian's seabios, qemu-system-data and
# ipxe-qemu files (configure's --firmwarepath).
QEMU_FIRMWARE_DIRS="/usr/share/qemu /usr/share/seabios /usr/lib/ipxe/qemu"

# Run from its build tree BUILD, QEMU looks for firmware under BUILD/qemu-bundle/<firmwarepath>:
# links there to the files of QEMU_FIRMWARE_DIRS.
qemu_bundle_firmware() {
    local fw f
    for fw in $QEMU_FIRMWARE_DIRS; do
        mkdir -p "$1/qemu-bundle$fw"
        for f in "$fw"/*; do
            [ -e "$1/qemu-bundle$f" ] || ln -s "$f" "$1/qemu-bundle$f"
        done
    done
}

# The guest archive "pyverbs" (scripts/build-pyverbs.sh): Debian's python3-pyverbs, of the
# host's rdma-core version, runs on this interpreter and standard library (the version
# python3-pyverbs is built for).
PYVERBS_PYTHON_PKGS="python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libpython3.11"

# Where downloads and builds are kept between runs (outside the checkout).
IRDMA_SIM_CACHE=${IRDMA_SIM_CACHE:-/var/cache/irdma-sim}

# Host packages, installed on demand by scripts/setup-host.sh.
# libclang-rt-14-dev: clang's sanitizer and libFuzzer runtimes (only recommended by clang).
HOST_PKGS_BUILD="build-essential meson ninja-build pkg-config libglib2.0-dev check libpci-dev
  libibverbs-dev librdmacm-dev python3 dpkg-dev xz-utils zstd rsync cpio kmod clang libclang-rt-14-dev"
# python3-venv, -pip, -setuptools, -wheel: QEMU 11's configure makes a venv of the system
# interpreter and finds these there (Debian's tarball bundles no wheels; PyPI is not asked).
HOST_PKGS_QEMU="libfdt-dev libpixman-1-dev libslirp-dev zlib1g-dev flex bison qemu-system-data seabios ipxe-qemu
  python3-venv python3-pip python3-setuptools python3-wheel"
# The benchmark report's plots (scripts/bench.sh).
HOST_PKGS_BENCH="gnuplot-nox"
# An irdma.ko built out of tree against a matrix kernel (scripts/build-module.sh): the kernel's
# host tools, objtool (libelf), and pahole so Debian's BTF options (and those needing them, such
# as sched_ext, which changes struct task_struct) stay on.
HOST_PKGS_MODULE="bc libelf-dev libssl-dev dwarves"
HOST_PKGS_GUEST="busybox-static rdma-core ibverbs-utils ibverbs-providers perftest rdmacm-utils
  iproute2 ethtool pciutils"
