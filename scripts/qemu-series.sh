#!/usr/bin/env bash
# The device as a patch series for upstream QEMU 11.1.x, made from this checkout's sources:
# the pristine release (scripts/qemu-pristine.sh) becomes a git repository, the device goes in
# as hw/net/irdma-sim/ in the commits a QEMU reviewer reads in order (the device core layer by
# layer, the PCI device, its build hooks, the qtest, the generic-fuzz configuration, the manual
# page, MAINTAINERS), and `git format-patch` writes them to OUTDIR (default build/qemu-series/),
# replacing what was there; `git am OUTDIR/*.patch` applies them to a QEMU 11.1.x tree
# (docs/qemu-series.md).
#   scripts/qemu-series.sh [--source TARBALL|TREE] [OUTDIR]
# Nothing is copied into the project: emu/, hw/ (but its Kconfig entry, which goes into
# hw/net/Kconfig), tests/qtest/ and docs/qemu-device.rst are taken as they are, the hooks are
# made by editing QEMU's own files, and the qtest's meson hook and the generic-fuzz configuration
# are qemu-patches/11.1/'s.
# OUTDIR appears only complete: the series is written next to it and renamed at the end.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"
. "$here/qemu-pristine.sh"

source_arg=
while [ $# -gt 0 ]; do
    case $1 in
        --source) [ $# -ge 2 ] || { echo "qemu-series: --source needs a tarball or tree" >&2; exit 2; }
                  source_arg=$2; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "qemu-series: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ $# -le 1 ] || { echo "qemu-series: one OUTDIR at most" >&2; exit 2; }
out=$(realpath -m "${1:-$repo/build/qemu-series}")

pristine_resolve "$source_arg" || exit 2
work=$(mktemp -d "${TMPDIR:-/tmp}/qemu-series.XXXXXX")
trap 'rm -rf "$work" "$out.tmp"' EXIT
q=$work/qemu
pristine_tree "$q" || exit 2
base=$(git -C "$q" rev-parse HEAD)

dev=hw/net/irdma-sim
author="irdma-sim developers <irdma-sim@invalid>"
# Every commit carries the date of the checkout's last commit, so the same sources give the
# same series.
GIT_AUTHOR_DATE=$(git -C "$repo" log -1 --format=%cI 2> /dev/null || date -u +%FT%TZ)
GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
export GIT_AUTHOR_DATE GIT_COMMITTER_DATE

fail() { echo "qemu-series: $*" >&2; exit 1; }

commit() {      # commit SUBJECT BODY: everything changed in the tree, signed off
    git -C "$q" add -A
    git -C "$q" -c user.name="${author% <*}" -c user.email=irdma-sim@invalid \
        commit -q -s -m "$1" -m "$2"
}

# copy_emu PATH...: files of the device core, as scripts/build-qemu.sh syncs them (C sources,
# headers, the source list).
copy_emu() {
    local p
    for p in "$@"; do
        (cd "$repo" && find "emu/$p" -maxdepth 1 -type f \( -name '*.[ch]' -o -name meson.build \)) |
        while read -r f; do
            mkdir -p "$q/$dev/$(dirname "$f")"
            cp "$repo/$f" "$q/$dev/$f"
        done
    done
}

# edit FILE PYTHON: FILE's text as s, changed by PYTHON; an anchor it does not find is an error
# (the tree is not the QEMU release the series is for).
edit() {
    python3 - "$q/$1" "$2" <<'EOF' || fail "$1 of QEMU $PVERSION has not the lines the series hooks into"
import sys
path, code = sys.argv[1], sys.argv[2]
s = open(path).read()
def after(anchor, text):
    global s
    if s.count(anchor) != 1:
        sys.exit(1)
    s = s.replace(anchor, anchor + text)
exec(code)
open(path, "w").write(s)
EOF
}

copy_emu core
commit "hw/net/irdma-sim: device core infrastructure" \
"irdma-sim models an Intel E810 Ethernet function with its RDMA engine, so
that the unmodified ice and irdma drivers can be probed and driven in a
guest without the hardware. Its device model (emu/) is plain C with glib
and no QEMU headers; the QEMU PCI device added later in the series adapts
it to QEMU through one interface, IrdmaHostOps (emu/core/host.h): DMA,
MSI-X, a virtual clock with one timer, frame transmit and a trace sink.

This first part is the model's core: the host interface, an event queue
ordered by virtual-clock deadline, the register file (declarative BAR0
register tables resolved through a two-level page table), the timing
model, the trace event catalogue, interrupt causes and throttling, fault
injection plans, and the E810 register and header definitions.

Nothing is built yet; the build is hooked in later in the series."

copy_emu fw
commit "hw/net/irdma-sim: admin queue and firmware model" \
"The E810's control queues (admin queue and mailbox rings) and the
firmware behind them, as ice uses them: versions and capabilities, the
NVM image, the DDP package download, the Tx scheduler topology, DCB and
LLDP, PHY and link (with MAC loopback and the module EEPROM) and the
switch (VSIs, rules, RSS). Commands are validated and dispatched through
per-block opcode tables; the responses come back on the admin receive
queue as events."

copy_emu port lan
commit "hw/net/irdma-sim: port and LAN queues" \
"The port moves frames in model time, either looped back inside the
device or through the QEMU network backend, and keeps the MAC's
statistics. The LAN blocks implement the Tx and Rx queue registers and
engines: descriptors, checksum offload, TSO, VLAN insertion and
stripping, the switch's Rx lookup, RSS, flex Rx descriptors and the
per-VSI Ethernet counters."

copy_emu rdma
commit "hw/net/irdma-sim: RDMA engine" \
"The RDMA protocol engine irdma drives: the control QP and its operations,
the host memory cache (HMC), CQs, CEQs and the AEQ, QPs, memory regions
and windows, address handles, the work scheduler tree, and the RoCEv2
data path (SQ/RQ WQE decoding, requester with RC reliability, responder
for SEND, WRITE and READ, ICRC), with QP suspend and resume across
traffic-class changes."

copy_emu .
commit "hw/net/irdma-sim: device core composition" \
"device.c creates every block of the model and wires the layers together;
pf.c holds the PF-level registers and resets. device.h is the one header
the QEMU device includes. emu/meson.build lists the model's sources for
the device's build."

(cd "$repo/hw" && find . -maxdepth 1 -type f ! -name Kconfig ! -name trace.h) |
while read -r f; do cp "$repo/hw/$f" "$q/$dev/$f"; done
# The trace header is named after the directory QEMU's build finds trace-events in.
printf '#include "trace/trace-%s.h"\n' "$(echo "$dev" | tr '/-' '__')" > "$q/$dev/trace.h"
commit "hw/net/irdma-sim: QEMU PCI device" \
"The QEMU side of irdma-sim: a PCI Express endpoint that enumerates as an
E810-C (8086:1593) with the hardware's BAR layout (BAR0 registers, BAR3
MSI-X), PCIe and DSN capabilities and FLR. It implements the model's host
interface on pci_dma_*, msix_notify, a QEMUTimer and a NIC backend, and
maps each of the model's trace events to a QEMU trace event (irdma_sim_*)
and to -d guest_errors / -d unimp messages.

Properties: netdev (the NIC backend; without one, frames stay inside the
device), mac, msix-vectors, speed (the port speed in Mbit/s), timing
(completions at once, or at the times of a timing model, by default under
-icount) with its timing-* parameters, and faults (a fault plan).

irdma-sim-compat.h carries the few QEMU API differences between the
releases the device builds into."

edit hw/net/Kconfig "s = s.rstrip('\n') + '\n\n' + open('$repo/hw/Kconfig').read()"
edit hw/net/meson.build "after(\"subdir('can')\n\", \"subdir('irdma-sim')\n\")"
edit meson.build "after(\"    'hw/net/can',\n\", \"    '$dev',\n\")"
commit "hw/net: build irdma-sim" \
"CONFIG_IRDMA_SIM, on by default where PCI devices are, needs PCI Express
and MSI; hw/net builds the device and QEMU's trace generator reads its
trace-events."

cp "$repo"/tests/qtest/irdma-sim-test.c "$repo"/tests/qtest/irdma-sim-test-compat.h "$q/tests/qtest/"
patch -d "$q" -p1 --quiet < "$repo/qemu-patches/$PRISTINE_RELEASE/0002-hook-irdma-sim-test-into-qtests.patch" ||
    fail "qemu-patches/$PRISTINE_RELEASE/0002-hook-irdma-sim-test-into-qtests.patch does not apply to QEMU $PVERSION"
commit "tests/qtest: add irdma-sim-test" \
"Drives the irdma-sim PCI function as ice first meets it, with no guest:
PCI identity, BARs and the PCI Express capability, the reset values of
the registers ice polls at probe, a PF software reset, an admin queue
round trip (get_version) with its ring in guest memory, inline and under
the timing model, admin queue errors, the MSI-X table, PBA and a software
interrupt through them, and BAR0 accesses the device refuses.

Register offsets and the admin queue interface come from the device
model's headers."

fuzz_config=$repo/qemu-patches/$PRISTINE_RELEASE/0003-add-irdma-sim-generic-fuzz-config.patch
patch -d "$q" -p1 --quiet < "$fuzz_config" ||
    fail "qemu-patches/$PRISTINE_RELEASE/$(basename "$fuzz_config") does not apply to QEMU $PVERSION"
commit "tests/qtest/fuzz: add a generic-fuzz config for irdma-sim" \
"A predefined configuration of the generic fuzzer, generic-fuzz-irdma-sim,
as the other NICs have: a q35 machine with the device on a user-mode
network backend, fuzzing every MemoryRegion the device owns (BAR0's
registers, the MSI-X table and PBA in BAR3) and its configuration space,
with the DMA the device makes filled from the input."

mkdir -p "$q/docs/system/devices"
cp "$repo/docs/qemu-device.rst" "$q/docs/system/devices/irdma-sim.rst"
edit docs/system/device-emulation.rst "after('   devices/igb.rst\n', '   devices/irdma-sim.rst\n')"
commit "docs/system: document the irdma-sim device" \
"What the device models, its properties, tracing and fault plans, and an
example command line."

edit MAINTAINERS "after('''F: tests/qtest/libqos/igb.c
''', '''
irdma-sim
M: $author
S: Maintained
F: docs/system/devices/irdma-sim.rst
F: $dev/
F: tests/qtest/irdma-sim-test*
''')"
commit "MAINTAINERS: add irdma-sim" \
"The device, its qtest and its manual page."

rm -rf "$out.tmp"
mkdir -p "$(dirname "$out")"
git -C "$q" format-patch -q --zero-commit -o "$out.tmp" "$base..HEAD" > /dev/null
rm -rf "$out"
mv "$out.tmp" "$out"
n=$(ls "$out"/*.patch | wc -l)
echo "qemu-series: $n patches for QEMU $PVERSION ($(basename "$PSOURCE")) in $out"
