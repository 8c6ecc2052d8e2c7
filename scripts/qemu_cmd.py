#!/usr/bin/env python3
"""The QEMU command line every harness starts from: the q35 machine under TCG, no default
devices, no monitor, no reboot, QMP on a UNIX socket, and irdma-sim placed as a NIC card is
(in a PCIe root port's slot) or on the root bus. scripts/run-guest.py boots its guests with it;
a shell harness takes it from the command line:
    scripts/qemu_cmd.py --qemu QEMU --device-props PROPS --qmp SOCKET [--pcie root-port|root-bus]
prints the arguments NUL-separated (bash: mapfile -d '' args < <(...)).
"""
import argparse
import sys


def machine(qemu, smp=2, mem="1G"):
    return [qemu, "-machine", "q35", "-accel", "tcg", "-m", mem, "-smp", str(smp),
            "-no-reboot", "-nodefaults", "-monitor", "none"]


def irdma_device(props, pcie="root-port"):
    """-device arguments for irdma-sim with @props ('id=nic0,netdev=n0,...')."""
    dev = "irdma-sim," + props
    if pcie == "root-port":
        # In a root port's slot, as a NIC card is: ice reads the slot's link status.
        return ["-device", "pcie-root-port,id=rp0,chassis=1,slot=1", "-device", dev + ",bus=rp0"]
    return ["-device", dev]


def qmp(path):
    return ["-qmp", f"unix:{path},server=on,wait=off"]


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--qemu", required=True)
    p.add_argument("--device-props", required=True, help="irdma-sim's properties, e.g. id=nic0")
    p.add_argument("--qmp", required=True, metavar="SOCKET")
    p.add_argument("--pcie", choices=("root-port", "root-bus"), default="root-port")
    a = p.parse_args()
    args = machine(a.qemu) + irdma_device(a.device_props, a.pcie) + qmp(a.qmp)
    sys.stdout.write("\0".join(args) + "\0")
