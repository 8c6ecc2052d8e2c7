/*
 * fuzz_device.c - libFuzzer harness over the device core: what a hostile guest can do to it.
 *
 * Each input is a program for the guest. Its first byte picks the starting point:
 * - bit 0 set: the RDMA engine is up as irdma brings it up, with two RC QPs A and B connected
 *   to each other in RTS (trt_util: CQP, HMC, CCQ, AEQ, CQs, an MR), their frames to the wire;
 * - else bit 1 set: the LAN side is up as ice's probe and ndo_open leave it (lan_util): the DDP
 *   package downloaded, the PF VSI with RSS and its scheduler branch, switch rules for the
 *   port's MAC and broadcast, Tx queue LANT_TXQ (add_txqs) and Rx queue LANT_RXQ (QRX_CONTEXT,
 *   all but one buffer posted, enabled). The Tx buffer holds an Ethernet/IPv4/TCP header to
 *   the wire and a byte pattern, for descriptors to point at; frames sent are not kept;
 * - else: the admin queue is set up as ice does (aq_util), nothing else.
 * A first byte 0x80 to 0x9f (START_EXT) is an extended start: bits 0 and 1 pick the
 * starting point as above, and
 * - bit 2 (RDMA start): the ARP entry names the port's own MAC, so what A and B send loops
 *   back inside the device, as trains read in place through the host's dma_map (roce.h,
 *   docs/transport.md), or as frames where a mapping falls short;
 * - bit 3: once the starting point is up, the timing model runs (TIMING_MODEL, its default
 *   parameters): completions, packets and the wire take their modelled time;
 * - bit 4: the host's dma_map maps at most TRT_SHORT_MAP bytes at a time (trains cut short);
 * and the operations include a fault plan (below). Other first bytes mean what they did.
 *
 * The rest is a sequence of operations, each an opcode byte and its arguments (little endian;
 * a short input simply ends the program):
 * - MMIO write: u32 offset, u32 value. Bit 0 of the offset picks a known register (the offset
 *   indexes the starting point's list, kRegs or kLanRegs), else the offset is anywhere in BAR0;
 * - MMIO read: u32 offset, same rule;
 * - guest memory write: u32 address (modulo the memory size), u8 length, the bytes;
 * - time: u16 microseconds pass and due events run;
 * - admin command (admin-queue and LAN starts): u16 opcode, u16 flags, 16 parameter bytes, u8
 *   buffer length / 16, the buffer (through aqt_send: descriptor, doorbell, write-back);
 * - CQP WQE (RDMA start only): u8 opcode, 8 x u64 (the header's opcode and VALID are set for
 *   it), posted and rung;
 * - a frame from the wire: header fields and a payload, built as RoCE v2 to the port's MAC with
 *   a valid ICRC so that it reaches the transport, or, with bit 0 of its first byte set, u16
 *   length (below MAX_FRAME) and the raw bytes, with bit 1 also set sent to the port's MAC. On
 *   the RDMA start frames go straight to the RDMA engine (ice's switch is not set up there); on
 *   the others they arrive at the port and pass the switch rules to the LAN Rx queue, or with
 *   the VSI's PE filter (RoCE v2) to the RDMA engine;
 * - send queue entry, u8 and its fields:
 *   - RDMA start: an SQ WQE: u8 (bit 0: QP B, bit 1: ring the doorbell), 32 bytes: the WQE's
 *     first quantum, written at the ring's head with the pass's VALID;
 *   - LAN start: a Tx descriptor: u8 (bit 0: ring the doorbell, bit 1: qword 0 is an offset into
 *     the Tx buffer), u64 qword 0 (the buffer), u64 qword 1 (type, command, header lengths,
 *     size, VLAN tag; or a context descriptor's TSO fields), written at the ring's tail;
 * - receive queue entry:
 *   - RDMA start: an RQ WQE, as the SQ WQE (bit 1 unused);
 *   - LAN start: an Rx buffer: u8 (bit 0: write QRX_TAIL, bit 1: the address is an offset into
 *     the Rx buffers), u64 address, posted at the ring's tail;
 * - wire (RDMA start only): the frames the QPs sent are delivered to the device, up to
 *   WIRE_MAX of them; u8 picks one to change, u8 a field of it, u32 the new value, and the
 *   frame is rebuilt with a valid ICRC;
 * - fault plan (extended starts only): u16 length (at most FAULT_TEXT_MAX), the plan's text
 *   (docs/faults.md), parsed and, if fault_plan_parse takes it, installed (fault_set_plan: a
 *   new log, a removed device back); length 0 removes the plan. Its rules fire on later ops.
 * The two queue entries share their opcodes between the RDMA and LAN starts so that the kept
 * corpus means what it did. Everything is bounded by the input: no operation loops longer
 * than its own bytes or WIRE_MAX.
 * Anything the device does must leave the sanitizers quiet, and every dma_map it made
 * unmapped once it is freed; the harness checks nothing else.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../unit/aq_util.h"
#include "../unit/lan_util.h"
#include "../unit/trt_util.h"
#include "emu/core/e810_regs.h"
#include "emu/core/fault.h"
#include "emu/rdma/pe_regs.h"
#include "emu/core/le.h"
#include "emu/rdma/roce.h"
#include "emu/rdma/rocev2.h"

enum { OP_MMIO_WRITE, OP_MMIO_READ, OP_MEM_WRITE, OP_TIME, OP_AQ_CMD, OP_CQP_WQE, OP_FRAME,
       OP_SEND_Q, OP_RECV_Q, OP_WIRE, OP_COUNT,
       OP_FAULT_PLAN = OP_COUNT, OP_EXT_COUNT };    /* the extended starts' ops */

typedef enum Start { START_AQ, START_LAN, START_RDMA } Start;

#define BAR0_MASK       0x01fffffcu
#define MAX_FRAME       2048
#define WIRE_MAX        256
#define RAW_FRAME       0x01        /* OP_FRAME mode bits */
#define RAW_TO_PORT     0x02
#define Q_KICK          0x01        /* LAN queue entry bits: doorbell / tail */
#define Q_IN_BUF        0x02        /* the address is an offset into the buffers */
#define ETH_ALEN        6
#define START_EXT_MASK  0xe0        /* the first byte's top bits START_EXT: extended ... */
#define START_EXT       0x80
#define START_LOOP      0x04        /* ... with A and B looped through the port's MAC */
#define START_TIMING    0x08        /* ... under TIMING_MODEL */
#define START_SHORT_MAP 0x10        /* ... and dma_map mapping at most TRT_SHORT_MAP bytes */
#define FAULT_TEXT_MAX  512

/* Registers worth hitting on purpose: the admin queue, resets and, per starting point, the
 * RDMA engine's (CQP, doorbells, interrupts, HMC) or the LAN queues' (the Tx doorbell, the Rx
 * queue's context, tail and enable, their interrupt causes and vector). */
#define AQ_REGS \
    PF_FW_ATQBAL, PF_FW_ATQBAH, PF_FW_ATQLEN, PF_FW_ATQH, PF_FW_ATQT, \
    PF_FW_ARQBAL, PF_FW_ARQBAH, PF_FW_ARQLEN, PF_FW_ARQH, PF_FW_ARQT

static const uint32_t kRegs[] = {
    AQ_REGS,
    PFPE_CQPDB, PFPE_CQPTAIL, PFPE_CCQPSTATUS, PFPE_CCQPHIGH, PFPE_CCQPLOW,
    PFPE_WQEALLOC, PFPE_CQARM, PFPE_CQACK, PFPE_AEQALLOC, PFGEN_CTRL, GLGEN_RTRIG,
};

static const uint32_t kLanRegs[] = {
    AQ_REGS,
    QTX_COMM_DBELL(LANT_TXQ), QRX_TAIL(LANT_RXQ), QRX_CTRL(LANT_RXQ),
    QRX_CONTEXT(0, LANT_RXQ), QRX_CONTEXT(1, LANT_RXQ), QRX_CONTEXT(2, LANT_RXQ),
    QRX_CONTEXT(3, LANT_RXQ), QRX_CONTEXT(4, LANT_RXQ), QRX_CONTEXT(5, LANT_RXQ),
    QRX_CONTEXT(6, LANT_RXQ), QRX_CONTEXT(7, LANT_RXQ),
    QINT_TQCTL(LANT_TXQ), QINT_RQCTL(LANT_RXQ), GLINT_DYN_CTL(LANT_MSIX),
    PFGEN_CTRL, GLGEN_RTRIG,
};

/* The start of the LAN start's Tx buffer: Ethernet to a peer, IPv4, TCP (PSH|ACK), without
 * checksums; the port's MAC goes in as the source. The TSO and checksum offloads take the
 * header lengths from the descriptor. */
static const uint8_t kTxHeader[] = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0xbb, 0, 0, 0, 0, 0, 0, 0x08, 0x00,
    0x45, 0x00, 0x05, 0xdc, 0x00, 0x01, 0x40, 0x00, 0x40, 0x06, 0x00, 0x00,
    0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, 0x00, 0x02,
    0x13, 0x88, 0x0f, 0xa0, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
    0x50, 0x18, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
};
#define TX_HDR_SRC_MAC  6

static LantPort lan;

typedef struct Input {
    const uint8_t *p;
    size_t left;
} Input;

static bool take(Input *in, void *out, size_t n)
{
    if (in->left < n) {
        in->left = 0;
        return false;
    }
    memcpy(out, in->p, n);
    in->p += n;
    in->left -= n;
    return true;
}

static uint8_t u8(Input *in)
{
    uint8_t v = 0;

    take(in, &v, 1);
    return v;
}

static uint16_t u16(Input *in)
{
    uint8_t b[2] = { 0 };

    take(in, b, 2);
    return ld16(b);
}

static uint32_t u32(Input *in)
{
    uint8_t b[4] = { 0 };

    take(in, b, 4);
    return ld32(b);
}

static uint64_t u64(Input *in)
{
    uint8_t b[8] = { 0 };

    take(in, b, 8);
    return ld64(b);
}

static uint32_t reg_offset(uint32_t raw, Start start)
{
    if (!(raw & 1)) {
        return raw & BAR0_MASK;
    }
    if (start == START_LAN) {
        return kLanRegs[(raw >> 1) % G_N_ELEMENTS(kLanRegs)];
    }
    return kRegs[(raw >> 1) % G_N_ELEMENTS(kRegs)];
}

static void op_mem_write(Input *in)
{
    uint32_t gpa = u32(in) % h->mem_size;
    size_t len = u8(in);        /* read once: MIN() evaluates its arguments twice */

    len = MIN(MIN(len, h->mem_size - gpa), in->left);
    take(in, h->mem + gpa, len);
}

static void op_aq_cmd(Input *in)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 }, buf[4096] = { 0 };
    uint16_t opcode = u16(in), flags = u16(in), len;

    take(in, params, sizeof(params));
    len = (uint16_t)u8(in) * 16;
    take(in, buf, MIN((size_t)len, in->left));
    aqt_send(h, d, opcode, flags, params, buf, len, NULL);
}

static void op_cqp_wqe(Input *in)
{
    uint64_t q[8];
    unsigned opcode = u8(in);

    for (unsigned i = 0; i < 8; i++) {
        q[i] = u64(in);
    }
    q[3] = (q[3] & ~(CQP_WQE_OPCODE | CQP_WQE_VALID)) | cqpt_hdr(opcode);
    cqpt_run(q);
}

/* A frame from the wire: on the RDMA start straight to the RDMA engine, as the transport tests
 * do (ice's switch rules, which would pass it there, are not set up). */
static void deliver(const uint8_t *frame, size_t len, bool pe)
{
    if (pe) {
        roce_rx_frame(d, frame, len);
    } else {
        irdma_dev_receive(d, frame, len);
    }
}

/* Raw bytes, or a well-formed RoCE v2 frame to the device's MAC from fields in the input. */
static void op_frame(Input *in, bool pe)
{
    uint8_t frame[ROCE_FRAME_MAX], payload[ROCE_MTU_MAX];
    uint8_t mode = u8(in);
    size_t len;

    if (mode & RAW_FRAME) {
        len = u16(in) % MAX_FRAME;
        len = MIN(len, in->left);
        take(in, frame, len);
        if ((mode & RAW_TO_PORT) && len >= ETH_ALEN) {
            memcpy(frame, d->cfg.mac, ETH_ALEN);
        }
    } else {
        RocePkt p = { .ipv4 = !(mode & 2), .ttl = 64, .pkey = 0xffff, .sport = u16(in) };
        uint8_t ip[4] = { 10, 0, 2, 15 };

        memcpy(p.dmac, d->cfg.mac, 6);
        p.smac[0] = 0x02;
        memcpy(p.dip, ip, 4);
        ip[3] = u8(in);
        memcpy(p.sip, ip, 4);
        p.opcode = u8(in);
        p.se = mode & 4;
        p.ackreq = mode & 8;
        p.dqpn = u32(in) & 0xffffff;
        p.psn = u32(in) & 0xffffff;
        p.reth_va = u64(in);
        p.reth_rkey = u32(in);
        p.reth_len = u32(in);
        p.aeth_syndrome = u8(in);
        p.aeth_msn = u32(in) & 0xffffff;
        p.deth_qkey = u32(in);
        p.deth_sqpn = u32(in) & 0xffffff;
        p.imm = u32(in);
        p.ieth_rkey = u32(in);
        p.payload_len = u16(in) % (ROCE_MTU_MAX + 1);
        p.payload_len = MIN(p.payload_len, in->left);
        take(in, payload, p.payload_len);
        p.payload = payload;
        len = rocev2_build(&p, frame);
    }
    deliver(frame, len, pe);
}

/* One quantum at the head of A's or B's SQ or RQ, with the pass's VALID; the doorbell if asked. */
static void op_wqe(Input *in, bool sq)
{
    uint8_t sel = u8(in);
    TQp *qp = (sel & 1) ? &qb : &qa;
    unsigned *head = sq ? &qp->sq_head : &qp->rq_head;
    uint8_t *pol = sq ? &qp->sq_pol : &qp->rq_pol;
    unsigned slots = sq ? TRT_SQ_QUANTA : TRT_RQ_WQES;
    uint64_t base = qp->base + (sq ? TRT_OFF_SQ + (uint64_t)*head * QP_WQ_QUANTUM
                                   : TRT_OFF_RQ + (uint64_t)*head * TRT_RQ_WQE_SIZE);
    uint8_t *wqe = h->mem + base;
    uint64_t hdr;

    take(in, wqe, MIN((size_t)QP_WQ_QUANTUM, in->left));
    hdr = ld64(wqe + SQWQE_HDR) & ~SQWQE_VALID;
    st64(wqe + SQWQE_HDR, hdr | (*pol ? SQWQE_VALID : 0));
    if (++*head == slots) {
        *head = 0;
        *pol ^= 1;
    }
    if (sq && (sel & 2)) {
        ring(qp);
    }
}

/* A Tx descriptor at the LAN ring's tail, the doorbell if asked. */
static void op_lan_tx(Input *in)
{
    uint8_t ctl = u8(in);
    uint64_t qw0 = u64(in), qw1 = u64(in);

    if (ctl & Q_IN_BUF) {
        qw0 = LANT_TX_BUF + qw0 % LANT_TX_BUF_SIZE;
    }
    lant_tx(&lan, qw0, qw1, ctl & Q_KICK);
}

/* An Rx buffer posted at the LAN ring's tail, QRX_TAIL written if asked. */
static void op_lan_rx(Input *in)
{
    uint8_t ctl = u8(in);
    uint64_t addr = u64(in);

    if (ctl & Q_IN_BUF) {
        addr = LANT_RX_BUF + addr % ((uint64_t)LANT_RING_LEN * LANT_RX_BUF_SIZE);
    }
    lant_rx_post(&lan, addr, ctl & Q_KICK);
}

/* The peer's side of the wire: what A and B sent goes back to the device, one frame changed. */
static void op_wire(Input *in)
{
    unsigned pick = u8(in), field = u8(in), n = 0;
    uint32_t value = u32(in);

    while (h->frames->len && n < WIRE_MAX) {
        GBytes *f = g_ptr_array_steal_index(h->frames, 0);
        size_t len;
        const uint8_t *data = g_bytes_get_data(f, &len);
        uint8_t frame[ROCE_FRAME_MAX];
        RocePkt p;

        if (n++ == pick && len <= sizeof(frame) &&
            rocev2_parse(data, len, &p, false) == ROCE_PARSE_OK) {
            switch (field % 6) {
            case 0: p.psn = value & 0xffffff; break;
            case 1: p.opcode = value; break;
            case 2: p.dqpn = value & 0xffffff; break;
            case 3: p.reth_len = value; break;
            case 4: p.aeth_syndrome = value; break;
            case 5: p.payload_len = MIN(p.payload_len, value); break;
            }
            deliver(frame, rocev2_build(&p, frame), true);
        } else {
            deliver(data, len, true);
        }
        g_bytes_unref(f);
        settle();
    }
}

/* A fault plan from the input's text; the parser's refusal is part of the test. */
static void op_fault_plan(Input *in)
{
    char text[FAULT_TEXT_MAX + 1];
    size_t len = u16(in) % (FAULT_TEXT_MAX + 1);
    g_autoptr(GError) err = NULL;
    FaultPlan *plan;

    len = MIN(len, in->left);
    if (!len) {
        fault_set_plan(d, NULL);
        return;
    }
    take(in, text, len);
    text[len] = '\0';
    plan = fault_plan_parse(&irdma_dev_fault_vocab, text, "fuzz.plan", &err);
    if (plan) {
        fault_set_plan(d, plan);
    }
}

static void run(Input *in, Start start, bool ext)
{
    bool pe = start == START_RDMA;

    while (in->left) {
        uint8_t op = u8(in) % (ext ? OP_EXT_COUNT : OP_COUNT);

        switch (op) {
        case OP_MMIO_WRITE: {
            uint32_t off = reg_offset(u32(in), start);

            irdma_dev_mmio_write(d, off, u32(in));
            break;
        }
        case OP_MMIO_READ:
            irdma_dev_mmio_read(d, reg_offset(u32(in), start));
            break;
        case OP_MEM_WRITE:
            op_mem_write(in);
            break;
        case OP_TIME:
            fake_host_advance(h, d, h->now_ns + (uint64_t)u16(in) * 1000);
            break;
        case OP_AQ_CMD:           /* the AQ rings overlap the CQP's memory */
            if (!pe) {
                op_aq_cmd(in);
            }
            break;
        case OP_CQP_WQE:
            if (pe) {
                op_cqp_wqe(in);
            }
            break;
        case OP_FRAME:
            op_frame(in, pe);
            break;
        case OP_SEND_Q:
        case OP_RECV_Q:
            if (pe) {
                op_wqe(in, op == OP_SEND_Q);
            } else if (start == START_LAN) {
                if (op == OP_SEND_Q) {
                    op_lan_tx(in);
                } else {
                    op_lan_rx(in);
                }
            }
            break;
        case OP_WIRE:
            if (pe) {
                op_wire(in);
            }
            break;
        case OP_FAULT_PLAN:
            op_fault_plan(in);
            break;
        }
    }
}

/* ice's probe and open, and the Tx buffer's contents. */
static void lan_start(void)
{
    uint8_t *buf = h->mem + LANT_TX_BUF;

    aqt_init(h, d);
    lant_probe(&lan);
    for (unsigned i = sizeof(kTxHeader); i < LANT_TX_BUF_SIZE; i++) {
        buf[i] = i;
    }
    memcpy(buf, kTxHeader, sizeof(kTxHeader));
    memcpy(buf + TX_HDR_SRC_MAC, d->cfg.mac, ETH_ALEN);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FakeHost *host;      /* one host for every input: fresh pages cost more than a run */
    Input in = { data, size };
    uint8_t first = size ? data[0] : 0;
    bool ext = (first & START_EXT_MASK) == START_EXT;
    Start start = (first & 1) ? START_RDMA : (first & 2) ? START_LAN : START_AQ;

    if (!host) {
        host = fake_host_new(MAX(TRT_MEM_SIZE, MAX(AQT_MEM_SIZE, LANT_MEM_SIZE)));
        host->quiet = true;
    }
    fake_host_clear(host);
    host->drop_frames = start == START_LAN;
    host->dma_map_max = ext && (first & START_SHORT_MAP) ? TRT_SHORT_MAP : 0;
    h = host;
    d = fake_dev_new(h);
    in.p++;
    in.left = size ? size - 1 : 0;
    switch (start) {
    case START_RDMA:
        trt_bring_up();
        if (ext && (first & START_LOOP)) {
            add_arp(TRT_OWN_MAC);
        }
        connect_default();
        break;
    case START_LAN:
        lan_start();
        break;
    case START_AQ:
        aqt_init(h, d);
        break;
    }
    if (ext && (first & START_TIMING)) {
        d->timing.mode = TIMING_MODEL;
    }
    run(&in, start, ext);
    irdma_dev_free(d);
    if (h->dma_maps) {
        fprintf(stderr, "fuzz: %u dma_map mappings left after irdma_dev_free\n", h->dma_maps);
        abort();
    }
    return 0;
}
