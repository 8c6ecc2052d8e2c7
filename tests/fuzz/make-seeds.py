#!/usr/bin/env python3
"""Writes the fuzzer's starting inputs (tests/fuzz/fuzz_device.c's format) into a directory:
one admin command per AQ opcode the firmware model knows, one CQP WQE per CQP opcode, one
RoCE frame per BTH opcode, one A -> B message per SQ opcode carried over the wire, and a
register sweep. libFuzzer grows the corpus from these.

    tests/fuzz/make-seeds.py OUTDIR
"""
import pathlib
import re
import struct
import sys

(OP_MMIO_WRITE, OP_MMIO_READ, OP_MEM_WRITE, OP_TIME, OP_AQ_CMD, OP_CQP_WQE, OP_FRAME, OP_SQ_WQE,
 OP_RQ_WQE, OP_WIRE) = range(10)
# tests/unit/trt_util.h: A's source buffer, B's receive buffers, the MR's VA and R_Key.
TRT_SRC, TRT_RECV, TRT_MR_VA, TRT_RKEY = 0xF00000, 0xF40000, 0x7F0000000000, 0x1235C
FRAG_VALID, SIGCOMPL = 1 << 63, 1 << 62
ROOT = pathlib.Path(__file__).resolve().parents[2]


def constants(header, prefix):
    text = (ROOT / "emu" / header).read_text()
    return sorted({int(v, 16) for v in re.findall(r"#define\s+%s\w+\s+(0x[0-9a-fA-F]+)\b" % prefix, text)})


def aq_cmd(opcode, flags=0, buf_len16=4):
    return (bytes([OP_AQ_CMD]) + struct.pack("<HH", opcode, flags) + bytes(16) +
            bytes([buf_len16]) + bytes(16 * buf_len16) + bytes([OP_TIME]) + struct.pack("<H", 100))


def cqp_wqe(opcode):
    return bytes([OP_CQP_WQE, opcode]) + bytes(64) + bytes([OP_TIME]) + struct.pack("<H", 100)


def frame(bth_opcode, dqpn=1):
    body = struct.pack("<HB", 0xc000, 1) + bytes([bth_opcode]) + struct.pack("<II", dqpn, 0)
    body += struct.pack("<QIIBIIIII", 0x1000, 0, 64, 0x1f, 0, 0x80010000, 1, 0, 0)
    body += struct.pack("<H", 64) + bytes(range(64))
    return bytes([OP_FRAME, 0]) + body


def message(sq_opcode, length=3000):
    """B posts a receive, A posts one WQE and rings, and the wire runs both ways a few times."""
    rq = struct.pack("<QQQQ", TRT_RECV, (length + 64) << 32 | FRAG_VALID, 0, 0)
    sq = struct.pack("<QQQQ", TRT_SRC, length << 32 | FRAG_VALID, TRT_MR_VA,
                     TRT_RKEY | sq_opcode << 32 | SIGCOMPL)
    wire = bytes([OP_WIRE, 255, 0]) + bytes(4) + bytes([OP_TIME]) + struct.pack("<H", 10)
    return bytes([OP_RQ_WQE, 1]) + rq + bytes([OP_SQ_WQE, 2]) + sq + wire * 4


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    seeds = {}
    for op in constants("aq_defs.h", "AQC_"):
        seeds["aq-%04x" % op] = b"\x00" + aq_cmd(op)
    for op in constants("pe_defs.h", "CQP_OP_"):
        seeds["cqp-%02x" % op] = b"\x01" + cqp_wqe(op)
    for op in (0x00, 0x04, 0x05, 0x06, 0x0a, 0x0b, 0x0c, 0x10, 0x11, 0x17, 0x64):
        seeds["frame-%02x" % op] = b"\x01" + frame(op)
    for op in (0x00, 0x01, 0x03, 0x04, 0x05, 0x0a, 0x0b, 0x0c, 0x0d):
        seeds["message-%02x" % op] = b"\x01" + message(op)
    seeds["regs"] = b"\x00" + b"".join(bytes([OP_MMIO_READ]) + struct.pack("<I", 2 * i + 1)
                                       for i in range(32))
    for name, data in seeds.items():
        (out / name).write_bytes(data)
    print("make-seeds: %d inputs in %s" % (len(seeds), out))


main()
