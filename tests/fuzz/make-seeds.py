#!/usr/bin/env python3
"""Writes the fuzzer's starting inputs (tests/fuzz/fuzz_device.c's format) into a directory:
one admin command per AQ opcode the firmware model knows (on the admin-queue and on the LAN
start), one CQP WQE per CQP opcode, one RoCE frame per BTH opcode, one A -> B message per SQ
opcode carried over the wire, a register sweep, and on the LAN start frames of each kind the Rx
parser tells apart, Tx descriptor chains for each offload, Rx buffers re-posted, and the
firmware commands that change the probe's state (queue, VSI, rules, package); on the extended
starts, A -> B messages looped through the port's own MAC (trains, also with short mappings),
the same under the timing model, and fault plans (guest-tests/faults and one per event and
action kind, a few the parser refuses) followed by what they act on. libFuzzer grows the corpus
from these.

    tests/fuzz/make-seeds.py OUTDIR
"""
import pathlib
import re
import struct
import sys

(OP_MMIO_WRITE, OP_MMIO_READ, OP_MEM_WRITE, OP_TIME, OP_AQ_CMD, OP_CQP_WQE, OP_FRAME, OP_SEND_Q,
 OP_RECV_Q, OP_WIRE, OP_FAULT_PLAN) = range(11)
START_AQ, START_RDMA, START_LAN = b"\x00", b"\x01", b"\x02"
# Extended starts (first byte 0x80 to 0x9f): the start kind in bits 0-1 and these flags.
START_EXT, START_LOOP, START_TIMING, START_SHORT_MAP = 0x80, 0x04, 0x08, 0x10
KIND_AQ, KIND_RDMA, KIND_LAN = 0, 1, 2
FAULT_TEXT_MAX = 512
# tests/unit/trt_util.h: A's source buffer, B's receive buffers, the MR's VA and R_Key.
TRT_SRC, TRT_RECV, TRT_MR_VA, TRT_RKEY = 0xF00000, 0xF40000, 0x7F0000000000, 0x1235C
FRAG_VALID, SIGCOMPL = 1 << 63, 1 << 62
ROOT = pathlib.Path(__file__).resolve().parents[2]
# The LAN start (tests/unit/lan_util.h, fake_dev_new): the port's MAC, the ring length, the
# Rx buffer size; OP_FRAME and queue-entry bits; the Tx buffer's header (kTxHeader: 14 + 20 + 20).
PORT_MAC = bytes.fromhex("525400123456")
PEER_MAC = bytes.fromhex("0200000000bb")
LANT_RING_LEN, LANT_RX_BUF_SIZE = 64, 2048
RAW_FRAME, RAW_TO_PORT = 0x01, 0x02
Q_KICK, Q_IN_BUF = 0x01, 0x02
TX_HDR_LEN = 54
# Tx descriptors (ice_lan_tx_rx.h): data descriptor commands and fields, context descriptor.
TXD_EOP, TXD_RS, TXD_IL2TAG1, TXD_IIPT_IPV4_CSUM, TXD_IIPT_IPV6, TXD_L4T_TCP, TXD_L4T_UDP = (
    0x1, 0x2, 0x8, 0x60, 0x20, 0x100, 0x300)
DTYPE_CTX, CTX_TSO = 0x1, 0x1
# ice's probe leaves these ids (fw/switch.c, fw/sched.c): VSI 0, and the queue group node of
# layer 7 (TEIDs count from 0x200: the firmware's entry point took it, ice's six nodes follow).
LAN_VSI, LAN_QGRP_TEID = 0, 0x206
AQ_FLAG_RD = 0x0400


def aqc(name):
    """The opcode of AQC_@name, from emu/fw/aq_defs.h."""
    text = (ROOT / "emu" / "fw" / "aq_defs.h").read_text()
    return int(re.search(r"#define\s+AQC_%s\s+(0x[0-9a-fA-F]+)\b" % name, text).group(1), 16)


def cqp_op(name):
    """The opcode of CQP_OP_@name, from emu/rdma/pe_defs.h."""
    text = (ROOT / "emu" / "rdma" / "pe_defs.h").read_text()
    return int(re.search(r"#define\s+CQP_OP_%s\s+(0x[0-9a-fA-F]+)\b" % name, text).group(1), 16)


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
    return bytes([OP_RECV_Q, 1]) + rq + bytes([OP_SEND_Q, 2]) + sq + wire * 4


def ext(kind, flags=0):
    return bytes([START_EXT | flags | kind])


def loop_message(sq_opcode, length=3000):
    """message() with A and B looped inside the device: time passes instead of the wire."""
    rq = struct.pack("<QQQQ", TRT_RECV, (length + 64) << 32 | FRAG_VALID, 0, 0)
    sq = struct.pack("<QQQQ", TRT_SRC, length << 32 | FRAG_VALID, TRT_MR_VA,
                     TRT_RKEY | sq_opcode << 32 | SIGCOMPL)
    return bytes([OP_RECV_Q, 1]) + rq + bytes([OP_SEND_Q, 2]) + sq + time(10) * 4


def fault_plan(text):
    """OP_FAULT_PLAN with @text, its comments left out to fit FAULT_TEXT_MAX."""
    body = "\n".join(l for l in text.splitlines() if not l.startswith("#")).encode()
    assert len(body) <= FAULT_TEXT_MAX, text
    return bytes([OP_FAULT_PLAN]) + struct.pack("<H", len(body)) + body


# One plan per event and action kind (docs/faults.md), and triggers and states.
FAULT_PLANS = {
    "cqp-error": "[rule a]\non = cqp CREATE_QP\naction = error 0x8029 0x0001\n",
    "cqp-drop": "[rule a]\non = cqp 0x00\naction = drop\nonce = true\n",
    "cqp-delay": "[rule a]\non = cqp NOP\naction = delay 80000\n",
    "cqp-raise-ae": "[rule a]\non = cqp MODIFY_QP qp=3\naction = raise-ae 0x0102\n",
    "aq-error": "[rule a]\non = aq 0x0001\naction = error 12\n",
    "aq-delay": "[rule a]\non = aq 0x0001\naction = delay 8000\nonce = true\n",
    "ae-drop": "[rule a]\non = ae 0x0102\naction = drop\n",
    "ae-delay": "[rule a]\non = ae 0x0102 qp=3\naction = delay 8000\n",
    "ae-duplicate": "[rule a]\non = ae 0x0102\naction = duplicate\n",
    "ae-corrupt": "[rule a]\non = ae 0x0102\naction = corrupt qp 4\n",
    "wqe-duplicate": "[rule a]\non = wqe RDMA_WRITE\naction = duplicate\n",
    "wqe-raise-ae": "[rule a]\non = wqe SEND qp=3\naction = raise-ae 0x0102\n",
    "wqe-oicr": "[rule a]\non = wqe 0x00\naction = oicr pe-critical 0x10001\n",
    "reg-read-corrupt": "[rule a]\non = reg read any\naction = corrupt value 0xffffffff\n"
                        "probability = 0.5\n",
    "reg-write-drop": "[rule a]\non = reg write any\naction = drop\nevery = 2\n",
    "dma-read-fail": "[rule a]\non = dma read\naction = fail\nevery = 3\n",
    "dma-write-fail": "[rule a]\non = dma write\naction = fail\ntimes = 4\n",
    "irq-duplicate": "[rule a]\non = irq any\naction = duplicate\n",
    "irq-delay": "[rule a]\non = irq any\naction = delay 800\n",
    "irq-drop": "[rule a]\non = irq 0\naction = drop\n",
    "remove": "[rule a]\non = wqe RDMA_WRITE\naction = remove\n",
    "oicr-hmc": "[rule a]\non = cqp NOP\naction = oicr hmc-error\n",
    "chain": "[plan]\nseed = 7\n[rule arm]\non = wqe SEND\naction = none\nstate = armed\n"
             "once = true\n[rule b]\non = dma write\naction = fail\nwhen = armed\n"
             "[rule c]\non = irq any\naction = drop\nafter = b\n",
    # Refused: a bad action for the event, an unknown key, a state no rule enters.
    "bad-action": "[rule a]\non = irq any\naction = oicr hmc-error\n",
    "bad-key": "[rule a]\non = cqp NOP\naction = none\nevry = 2\n",
    "bad-state": "[rule a]\non = cqp NOP\naction = none\nwhen = nowhere\n",
}


def ext_seeds():
    nop = cqp_wqe(cqp_op("NOP"))
    seeds = {}
    for op in (0x00, 0x01, 0x03, 0x04, 0x05, 0x0a, 0x0b, 0x0c, 0x0d):
        seeds["loop-message-%02x" % op] = ext(KIND_RDMA, START_LOOP) + loop_message(op)
        seeds["timing-message-%02x" % op] = ext(KIND_RDMA, START_TIMING) + message(op)
    for op in (0x00, 0x01, 0x04):
        seeds["loop-short-map-%02x" % op] = (ext(KIND_RDMA, START_LOOP | START_SHORT_MAP) +
                                             loop_message(op, 20000))
        seeds["loop-timing-%02x" % op] = (ext(KIND_RDMA, START_LOOP | START_TIMING) +
                                          loop_message(op, 20000))
    seeds["timing-aq"] = ext(KIND_AQ, START_TIMING) + aq_cmd(0x0001)
    for name in ("NOP", "MODIFY_QP", "QUERY_FPM_VAL", "CREATE_CQ", "SUSPEND_QP"):
        seeds["timing-cqp-" + name.lower()] = ext(KIND_RDMA, START_TIMING) + cqp_wqe(cqp_op(name))
    seeds["timing-lan-tx"] = ext(KIND_LAN, START_TIMING) + tx(txd(TXD_EOP | TXD_RS, 1514)) + time()
    plans = dict(FAULT_PLANS)
    for f in sorted((ROOT / "guest-tests" / "faults").glob("*.plan")):
        plans["guest-" + f.stem] = f.read_text()
    for name, text in plans.items():
        plan = fault_plan(text)
        seeds["fault-rdma-" + name] = (ext(KIND_RDMA) + plan + nop + message(0x00) + message(0x0a) +
                                       mmio_write(1, 0) + bytes([OP_MMIO_READ]) + bytes(4))
        seeds["fault-loop-" + name] = (ext(KIND_RDMA, START_LOOP | START_TIMING) + plan +
                                       loop_message(0x04))
        seeds["fault-aq-" + name] = ext(KIND_AQ) + plan + aq_cmd(0x0001) + aq_cmd(0x0a05)
    seeds["fault-lan-irq"] = (ext(KIND_LAN) + fault_plan(FAULT_PLANS["irq-duplicate"]) +
                              tx(txd(TXD_EOP | TXD_RS, 200)) + time())
    seeds["fault-removed"] = ext(KIND_RDMA) + fault_plan(FAULT_PLANS["remove"]) + message(0x00) + \
        fault_plan("") + message(0x00)
    return seeds


# ---- the LAN start ----

# kLanRegs' order in fuzz_device.c: the admin queue's ten, then these.
LAN_REG_NAMES = (["QTX_COMM_DBELL", "QRX_TAIL", "QRX_CTRL"] +
                 ["QRX_CONTEXT%d" % i for i in range(8)] +
                 ["QINT_TQCTL", "QINT_RQCTL", "GLINT_DYN_CTL", "PFGEN_CTRL", "GLGEN_RTRIG"])


def lan_reg(name):
    return 2 * (10 + LAN_REG_NAMES.index(name)) + 1


def mmio_write(off, value):
    return bytes([OP_MMIO_WRITE]) + struct.pack("<II", off, value)


def time(us=100):
    return bytes([OP_TIME]) + struct.pack("<H", us)


def csum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xffff) + (total >> 16)
    return ~total & 0xffff


def l4(proto, src, dst, payload, v6=False):
    """A TCP, UDP or ICMP(v6) segment with its checksum over the pseudo-header."""
    if proto == 6:
        hdr = struct.pack("!HHIIBBHHH", 5000, 80, 1, 0, 0x50, 0x18, 0xffff, 0, 0)
        off = 16
    elif proto == 17:
        hdr = struct.pack("!HHHH", 5000, 53, 8 + len(payload), 0)
        off = 6
    else:
        hdr = struct.pack("!BBHI", 128 if v6 else 8, 0, 0, 1)
        off = 2
    seg = bytearray(hdr + payload)
    pseudo = (src + dst + struct.pack("!IxxxB", len(seg), proto) if v6 else
              src + dst + struct.pack("!xBH", proto, len(seg)))
    struct.pack_into("!H", seg, off, csum((pseudo if (v6 or proto != 1) else b"") + bytes(seg)))
    return bytes(seg)


def ipv4(proto, payload, frag=False, bad_csum=False):
    src, dst = bytes([10, 0, 0, 2]), bytes([10, 0, 0, 1])
    seg = payload if frag else l4(proto, src, dst, payload)
    flags = 0x2000 if frag else 0x4000                        # MF, or DF
    hdr = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(seg), 1, flags, 64, proto, 0,
                                src, dst))
    struct.pack_into("!H", hdr, 10, csum(bytes(hdr)) ^ (0xffff if bad_csum else 0))
    return bytes(hdr) + seg


def ipv6(nh, payload):
    src, dst = bytes(15) + b"\x02", bytes(15) + b"\x01"
    seg = l4(nh, src, dst, payload, v6=True)
    return struct.pack("!IHBB", 6 << 28, len(seg), nh, 64) + src + dst + seg


def eth(dst, ethertype, payload, vlan=None):
    tag = struct.pack("!HH", 0x8100, vlan) if vlan is not None else b""
    return dst + PEER_MAC + tag + struct.pack("!H", ethertype) + payload


def raw_frame(frame, mode=RAW_FRAME):
    return bytes([OP_FRAME, mode]) + struct.pack("<H", len(frame)) + frame


def lan_rx_seeds():
    pay = bytes(range(64))
    frames = {
        "udp4": eth(PORT_MAC, 0x0800, ipv4(17, pay)),
        "tcp4": eth(PORT_MAC, 0x0800, ipv4(6, pay)),
        "icmp4": eth(PORT_MAC, 0x0800, ipv4(1, pay)),
        "frag4": eth(PORT_MAC, 0x0800, ipv4(17, pay, frag=True)),
        "bad-ip-csum": eth(PORT_MAC, 0x0800, ipv4(6, pay, bad_csum=True)),
        "udp6": eth(PORT_MAC, 0x86dd, ipv6(17, pay)),
        "tcp6": eth(PORT_MAC, 0x86dd, ipv6(6, pay)),
        "icmp6": eth(PORT_MAC, 0x86dd, ipv6(58, pay)),
        "vlan": eth(PORT_MAC, 0x0800, ipv4(17, pay), vlan=100),
        "bcast-arp": eth(b"\xff" * 6, 0x0806, bytes(28)),
        "other-mac": eth(PEER_MAC, 0x0800, ipv4(17, pay)),
        "jumbo": eth(PORT_MAC, 0x0800, ipv4(17, bytes(1800))),
        "multi-buf": eth(PORT_MAC, 0x0800, ipv4(6, bytes(range(256)) * 7)),
    }
    # RoCE v2 to the port: the VSI's PE filter hands it to the RDMA engine (not up here).
    roce = bytearray(ipv4(17, bytes(12 + 16)))
    struct.pack_into("!H", roce, 20 + 2, 4791)
    frames["roce"] = eth(PORT_MAC, 0x0800, bytes(roce))
    seeds = {"lan-rx-" + k: START_LAN + raw_frame(f) + time() for k, f in frames.items()}
    # The destination filled in by the harness, and a ring that wraps: 70 short frames, each
    # buffer re-posted as the driver's napi poll does.
    seeds["lan-rx-to-port"] = START_LAN + raw_frame(bytes(6) + frames["tcp4"][6:],
                                                    RAW_FRAME | RAW_TO_PORT) + time()
    wrap = b""
    for i in range(70):
        wrap += raw_frame(PORT_MAC + PEER_MAC + b"\x88\xb5" + bytes([i] * 4)) + time(5)
        buf = (i % LANT_RING_LEN) * LANT_RX_BUF_SIZE
        wrap += bytes([OP_RECV_Q, Q_KICK | Q_IN_BUF]) + struct.pack("<Q", buf)
    seeds["lan-rx-ring-wrap"] = START_LAN + wrap
    return seeds


def txd(cmd, size, offset=0, l2tag=0):
    return cmd << 4 | offset << 16 | size << 34 | l2tag << 48


def tx(qw1, qw0=0, ctl=Q_KICK | Q_IN_BUF):
    return bytes([OP_SEND_Q, ctl]) + struct.pack("<QQ", qw0, qw1)


def lan_tx_seeds():
    # MACLEN in 2-byte units, IPLEN and L4LEN in 4-byte units: 14 + 20 + 20.
    hdrs = 7 | 5 << 7 | 5 << 14
    csum4 = TXD_IIPT_IPV4_CSUM | TXD_L4T_TCP
    tso_len, mss = 8000, 1448
    ctx = DTYPE_CTX | CTX_TSO << 4 | (tso_len - TX_HDR_LEN) << 30 | mss << 50
    seeds = {
        "plain": tx(txd(TXD_EOP | TXD_RS, 1514)),
        "csum-tcp4": tx(txd(TXD_EOP | TXD_RS | csum4, 1514, hdrs)),
        "csum-udp4": tx(txd(TXD_EOP | TXD_RS | TXD_IIPT_IPV4_CSUM | TXD_L4T_UDP, 200, hdrs)),
        "tso": tx(ctx, ctl=0) + tx(txd(TXD_EOP | TXD_RS | csum4, tso_len, hdrs)),
        "tso-v6-flags": tx(ctx, ctl=0) + tx(txd(TXD_EOP | TXD_RS | TXD_IIPT_IPV6 | TXD_L4T_TCP,
                                                 tso_len, 7 | 10 << 7 | 5 << 14)),
        "vlan": tx(txd(TXD_EOP | TXD_RS | TXD_IL2TAG1, 1514, 0, 100)),
        "chain": tx(txd(0, 1000), ctl=Q_IN_BUF) + tx(txd(0, 1000), 1000, Q_IN_BUF) +
                 tx(txd(TXD_EOP | TXD_RS, 514), 2000),
        "bad-dtype": tx(5 | txd(TXD_EOP, 100)),
        "oversize": tx(txd(TXD_EOP | TXD_RS, 12000)),
        "dma-error": tx(txd(TXD_EOP | TXD_RS, 100), 1 << 40, Q_KICK),
        "long-chain": b"".join(tx(txd(0, 100), 0, Q_IN_BUF) for _ in range(66)) +
                      tx(txd(TXD_EOP | TXD_RS, 100)),
        "ring-wrap": b"".join(tx(txd(TXD_EOP | TXD_RS, 60)) + time(2) for _ in range(70)),
    }
    return {"lan-tx-" + k: START_LAN + v + time() for k, v in seeds.items()}


def aq_buf(opcode, params, buf, flags=AQ_FLAG_RD):
    buf += bytes(-len(buf) % 16)
    return (bytes([OP_AQ_CMD]) + struct.pack("<HH", opcode, flags) + params.ljust(16, b"\0") +
            bytes([len(buf) // 16]) + buf + time())


def pkg_buf(sections):
    """A package buffer (ice_buf_hdr) of (type, data) sections, 4-aligned after the table."""
    off = (4 + 8 * len(sections) + 3) & ~3
    table, data = b"", b""
    for stype, sdata in sections:
        table += struct.pack("<IHH", stype, off + len(data), len(sdata))
        data += sdata + bytes(-len(sdata) % 4)
    return struct.pack("<HH", len(sections), off + len(data)) + table.ljust(off - 4, b"\0") + data


def lan_state_seeds():
    """Firmware commands that change what ice's probe set up, each followed by traffic."""
    traffic = (raw_frame(eth(PORT_MAC, 0x0800, ipv4(17, bytes(32))), RAW_FRAME) + time() +
               tx(txd(TXD_EOP | TXD_RS, 100)) + time())
    vlan_frame = raw_frame(eth(PORT_MAC, 0x0800, ipv4(17, bytes(32)), vlan=7)) + time()
    vsi = struct.pack("<H", LAN_VSI | 0x8000)
    props_vlan = bytearray(128)
    struct.pack_into("<H", props_vlan, 0, 0x0004)              # inner VLAN section
    props_vlan[12] = 0x03 | 3 << 3                             # EMODE nothing: no stripping
    props_4q = bytearray(128)
    struct.pack_into("<H", props_4q, 0, 0x0040 | 0x0080)       # Rx queue map, queueing options
    struct.pack_into("<HH", props_4q, 30, 0, 4)
    struct.pack_into("<H", props_4q, 62, 2 << 11)              # TC 0: 4 queues
    props_4q[78] = 0x00                                        # the VSI's own LUT
    rule = struct.pack("<HHHHIHH", 1, 0, 1, 0, 0, 0, 16) + bytes(16)
    seeds = {
        "dis-txq": aq_buf(aqc("DIS_TXQS"), bytes([0x08, 1]) + struct.pack("<H", 5 << 10),
                          struct.pack("<IBxH", LAN_QGRP_TEID, 1, 0)),
        "suspend-qgrp": aq_buf(aqc("SUSPEND_SCHED_ELEMS"), struct.pack("<H", 1),
                               struct.pack("<I", LAN_QGRP_TEID)),
        "free-vsi": aq_buf(aqc("FREE_VSI"), vsi, b"", 0),
        "vsi-no-strip": aq_buf(aqc("UPDATE_VSI"), vsi, bytes(props_vlan)) + vlan_frame,
        "vsi-4-queues": aq_buf(aqc("UPDATE_VSI"), vsi, bytes(props_4q)) +
                        aq_buf(aqc("SET_RSS_LUT"), vsi, bytes(i % 4 for i in range(128))),
        "remove-rule": aq_buf(aqc("REMOVE_SW_RULES"), struct.pack("<H", 1), rule),
        "upload-meta-init": aq_buf(aqc("UPLOAD_SECTION"), b"",
                                   pkg_buf([(58, struct.pack("<HH", 1, 0) + bytes(24))])),
        "update-boost-tcam": aq_buf(aqc("UPDATE_PKG"), b"\x01",
                                    pkg_buf([(56, struct.pack("<HH", 1, 0) + bytes(88))])),
        "pkg-info": aq_buf(aqc("GET_PKG_INFO_LIST"), b"", bytes(4 + 40 * 4), 0),
        "rx-disable": mmio_write(lan_reg("QRX_CTRL"), 0),
        "rx-bad-context": mmio_write(lan_reg("QRX_CTRL"), 0) +
                          mmio_write(lan_reg("QRX_CONTEXT3"), 0xffffffff) +
                          mmio_write(lan_reg("QRX_CTRL"), 1),
        "pf-reset": mmio_write(lan_reg("PFGEN_CTRL"), 1),
    }
    seeds = {"lan-state-" + k: START_LAN + v + traffic for k, v in seeds.items()}
    seeds["lan-regs"] = START_LAN + b"".join(bytes([OP_MMIO_READ]) + struct.pack("<I", 2 * i + 1)
                                             for i in range(10 + len(LAN_REG_NAMES)))
    return seeds


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    seeds = {}
    for op in constants("fw/aq_defs.h", "AQC_"):
        seeds["aq-%04x" % op] = START_AQ + aq_cmd(op)
        seeds["lan-aq-%04x" % op] = START_LAN + aq_cmd(op)
    for op in constants("rdma/pe_defs.h", "CQP_OP_"):
        seeds["cqp-%02x" % op] = START_RDMA + cqp_wqe(op)
    for op in (0x00, 0x04, 0x05, 0x06, 0x0a, 0x0b, 0x0c, 0x10, 0x11, 0x17, 0x64):
        seeds["frame-%02x" % op] = START_RDMA + frame(op)
    for op in (0x00, 0x01, 0x03, 0x04, 0x05, 0x0a, 0x0b, 0x0c, 0x0d):
        seeds["message-%02x" % op] = START_RDMA + message(op)
    seeds["regs"] = START_AQ + b"".join(bytes([OP_MMIO_READ]) + struct.pack("<I", 2 * i + 1)
                                       for i in range(32))
    seeds.update(lan_rx_seeds())
    seeds.update(lan_tx_seeds())
    seeds.update(lan_state_seeds())
    seeds.update(ext_seeds())
    for name, data in seeds.items():
        (out / name).write_bytes(data)
    print("make-seeds: %d inputs in %s" % (len(seeds), out))


main()
