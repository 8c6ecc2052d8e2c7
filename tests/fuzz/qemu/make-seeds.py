#!/usr/bin/env python3
"""Writes the QEMU fuzz target's starting inputs into a directory: QEMU's generic-fuzz input
format (tests/qtest/fuzz/generic_fuzz.c: commands separated by "FUZZ", the first byte of each
its opcode), driving the device as ice first does. The DMA fills the generic fuzzer makes on
the device's reads come from the inputs' patterns: an admin queue whose every descriptor is one
command, for each opcode the firmware model knows; the mailbox queue's registers; a PF
software reset and a function-level reset with a command in flight; a software interrupt
through an MSI-X vector. libFuzzer grows the corpus from these.

    tests/fuzz/qemu/make-seeds.py OUTDIR
"""
import pathlib
import re
import struct
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
SEPARATOR = b"FUZZ"
# enum cmds of generic_fuzz.c, and its access sizes (Long: 4 bytes).
OP_READ, OP_WRITE, OP_PCI_READ, OP_PCI_WRITE, OP_ADD_DMA_PATTERN, OP_CLOCK_STEP = 2, 3, 4, 5, 7, 9
SIZE_WORD, SIZE_LONG = 1, 2
# The matched MemoryRegions in address order: BAR0, then the MSI-X table and PBA (BAR3).
REGION_BAR0, REGION_MSIX_TABLE = 0, 1
# Guest RAM the rings live in (the fuzz target's machine has 512 MiB).
ATQ_BASE, ARQ_BASE, RING_LEN = 0x100000, 0x180000, 8
# hw/irdma-sim.c: the PCI Express capability (DEVCTL at +8) and MSI-X's (flags at +2).
CAP_PCIE, CAP_MSIX = 0xa0, 0x70
DEVCTL_BCR_FLR, MSIX_FLAGS_ENABLE = 0x8000, 0x8000


def define(name, header="core/e810_regs.h"):
    """The value of #define @name in emu/@header: a hex literal, or the base of a register
    array NAME(n) (0xBASE + 4 * (n))."""
    text = (ROOT / "emu" / header).read_text()
    return int(re.search(r"#define\s+%s(?:\(n\))?\s+\(?(0x[0-9a-fA-F]+)\b" % re.escape(name),
                         text).group(1), 16)


def opcodes():
    text = (ROOT / "emu" / "fw" / "aq_defs.h").read_text()
    return sorted({int(v, 16) for v in re.findall(r"#define\s+AQC_\w+\s+(0x[0-9a-fA-F]+)\b", text)})


def wr(offset, value, region=REGION_BAR0):
    return bytes([OP_WRITE]) + struct.pack("<BBxxIQ", SIZE_LONG, region, offset, value)


def rd(offset, region=REGION_BAR0):
    return bytes([OP_READ]) + struct.pack("<BBxxI", SIZE_LONG, region, offset)


def cfg_wr(offset, value, size=SIZE_WORD):
    return bytes([OP_PCI_WRITE]) + struct.pack("<BBBxI", size, 0, offset, value)


def pattern(data):
    return bytes([OP_ADD_DMA_PATTERN]) + struct.pack("<BB", 0, 0) + data


def step():
    return bytes([OP_CLOCK_STEP])


def descriptor(opcode, flags=0):
    return struct.pack("<HHHHII", flags, opcode, 0, 0, 0x1234, 0x5678) + bytes(16)


def queue(prefix, base, tail_value=1):
    """Ring registers of the queue @prefix (PF_FW_ATQ / PF_MBX_ATQ), doorbell last."""
    enable = 1 << 31
    return [wr(define(prefix + "BAL"), base),
            wr(define(prefix + "BAH"), 0),
            wr(define(prefix + "LEN"), RING_LEN | enable),
            wr(define(prefix + "T"), tail_value)]


def aq(opcode):
    ops = [pattern(descriptor(opcode))]
    ops += queue("PF_FW_ARQ", ARQ_BASE, RING_LEN - 1)
    ops += queue("PF_FW_ATQ", ATQ_BASE)
    ops += [step(), rd(define("PF_FW_ATQH"))]
    return SEPARATOR.join(ops)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    seeds = {"aq-%04x" % op: aq(op) for op in opcodes()}
    seeds["mbx"] = SEPARATOR.join(queue("PF_MBX_ATQ", ATQ_BASE) +
                                  [step(), rd(define("PF_MBX_ATQH"))])
    seeds["pf-reset"] = SEPARATOR.join(
        queue("PF_FW_ATQ", ATQ_BASE)[:3] + [wr(define("PFGEN_CTRL"), 1),
                                            step(), rd(define("PF_FW_ATQLEN"))])
    seeds["flr"] = SEPARATOR.join([pattern(descriptor(0x0001))] + queue("PF_FW_ATQ", ATQ_BASE) +
                                  [cfg_wr(CAP_PCIE + 8, DEVCTL_BCR_FLR), step(),
                                   rd(define("PF_FW_ATQLEN"))])
    # Vector 0's table entry (address, data, unmasked), MSI-X on, then GLINT_DYN_CTL(0)'s
    # software trigger with interrupts enabled.
    seeds["msix-swint"] = SEPARATOR.join([
        wr(0x0, 0xfee00000, REGION_MSIX_TABLE), wr(0x8, 0x4a5b, REGION_MSIX_TABLE),
        wr(0xc, 0, REGION_MSIX_TABLE), cfg_wr(CAP_MSIX + 2, MSIX_FLAGS_ENABLE),
        wr(define("GLINT_DYN_CTL"), 0x7), step()])
    for name, data in seeds.items():
        (out / name).write_bytes(data)
    print("make-seeds: %d inputs in %s" % (len(seeds), out))


main()
