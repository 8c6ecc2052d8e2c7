/* lan_tx.c - LAN transmit engine (see lan_tx.h). */
#include "lan/lan_tx.h"
#include "lan/lan_stats.h"
#include "core/e810_regs.h"
#include "fw/link.h"
#include "fw/sched.h"
#include "core/intr.h"
#include "core/inet.h"
#include "core/le.h"
#include "core/trace.h"
#include "port/wire.h"

/* Tx descriptor (16 bytes): qw0 buffer address, qw1 dtype/cmd/offset/size/l2tag1. */
#define TXD_SIZE                16
#define TXD_QW1_DTYPE_M         0xfull
#define TXD_DTYPE_DATA          0x0
#define TXD_DTYPE_CTX           0x1
#define TXD_DTYPE_DESC_DONE     0xf
#define TXD_QW1_CMD_S           4
#define TXD_QW1_CMD_M           0xfffull
#define TXD_CMD_EOP             0x0001
#define TXD_CMD_RS              0x0002
#define TXD_CMD_IL2TAG1         0x0008
#define TXD_CMD_IIPT_M          0x0060
#define TXD_CMD_IIPT_IPV6       0x0020
#define TXD_CMD_IIPT_IPV4       0x0040
#define TXD_CMD_IIPT_IPV4_CSUM  0x0060
#define TXD_CMD_L4T_M           0x0300
#define TXD_CMD_L4T_TCP         0x0100
#define TXD_CMD_L4T_SCTP        0x0200
#define TXD_CMD_L4T_UDP         0x0300
#define TXD_QW1_OFFSET_S        16
#define TXD_QW1_OFFSET_M        0x3ffffull
#define TXD_OFF_MACLEN_M        0x0007f       /* 2-byte units */
#define TXD_OFF_IPLEN_M         0x03f80       /* 4-byte units */
#define TXD_OFF_L4LEN_M         0x3c000       /* 4-byte units */
#define TXD_QW1_BUF_SZ_S        34
#define TXD_QW1_BUF_SZ_M        0x3fffull
#define TXD_QW1_L2TAG1_S        48
/* Context descriptor qw1 */
#define TXCTX_QW1_CMD_S         4
#define TXCTX_QW1_CMD_M         0x7full
#define TXCTX_CMD_TSO           0x01
#define TXCTX_QW1_TSO_LEN_S     30
#define TXCTX_QW1_TSO_LEN_M     0x3ffffull
#define TXCTX_QW1_MSS_S         50
#define TXCTX_QW1_MSS_M         0x3fffull

/* Tx queue context fields (ice_tlan_ctx_info): bit positions in the 22-byte context. */
#define TXQ_CTX_BASE_LSB        0
#define TXQ_CTX_BASE_WIDTH      57
#define TXQ_CTX_SRC_VSI_LSB     80
#define TXQ_CTX_SRC_VSI_WIDTH   10
#define TXQ_CTX_QLEN_LSB        135
#define TXQ_CTX_QLEN_WIDTH      13
#define TXQ_BASE_UNIT           128

/* Limits: the largest frame a descriptor chain may build, the most descriptors and frames one
 * turn of the ring may walk and send before it yields (checked between packets: one TSO packet
 * adds at most TX_MAX_FRAME / TX_MIN_MSS = 4096 frames), the smallest MSS TSO accepts. */
#define TX_MAX_FRAME            (256 * 1024)
#define TX_MAX_DESC_PER_FRAME   64
#define TX_BUDGET               1024
#define TX_FRAME_BUDGET         1024
#define TX_MIN_MSS              64
#define TX_WIRE_MAX             (9728 + 4)
/* A ring that spent its budget goes on this much later: an event in the future ends the
 * event queue's run, so the host's main loop has its turn first (one due now would run in
 * the same run, in inline timing mode too). */
#define TX_YIELD_NS             1

#define IPPROTO_TCP             6
#define IPPROTO_UDP             17
#define TCP_FLAG_FIN            0x01
#define TCP_FLAG_PSH            0x08

typedef struct TxRing {
    LanTx *t;
    unsigned txq;
    uint32_t teid;              /* the queue's scheduler leaf when head was last valid */
    uint32_t head;
    uint32_t tail;
    EmuEvent *ev;
} TxRing;

struct LanTx {
    IrdmaDev *d;
    GHashTable *rings;          /* txq -> TxRing */
    uint8_t *frame;             /* TX_MAX_FRAME: the packet being gathered */
    uint8_t *seg;               /* TX_WIRE_MAX + VLAN: one segment on its way out */
    uint64_t emitted;           /* frames handed to emit(), sent or not: the frame budget */
    unsigned vsi;               /* the source VSI of the ring being walked (its context) */
    LanTxStats stats;
};

typedef struct TxPacket {
    size_t len;
    uint16_t cmd;               /* of the last data descriptor */
    uint32_t offset;            /* MACLEN/IPLEN/L4LEN */
    uint16_t l2tag1;
    bool tso;
    uint32_t tso_len;
    uint16_t mss;
} TxPacket;

static TxRing *ring_of(LanTx *t, unsigned txq)
{
    TxRing *r = g_hash_table_lookup(t->rings, GUINT_TO_POINTER(txq));

    if (!r) {
        r = g_new0(TxRing, 1);
        r->t = t;
        r->txq = txq;
        r->teid = FW_SCHED_INVALID_TEID;
        g_hash_table_insert(t->rings, GUINT_TO_POINTER(txq), r);
    }
    return r;
}

/* Header lengths from a data descriptor's offset field; false if they do not fit @len. */
static bool header_lengths(const TxPacket *p, size_t len, unsigned *mac, unsigned *ip,
                           unsigned *l4)
{
    *mac = 2 * emu_field_get(p->offset, TXD_OFF_MACLEN_M);
    *ip = 4 * emu_field_get(p->offset, TXD_OFF_IPLEN_M);
    *l4 = 4 * emu_field_get(p->offset, TXD_OFF_L4LEN_M);
    return *mac >= ETH_HLEN && *mac + *ip <= len;
}

/* Checksum offloads of one frame, as the descriptor's IIPT/L4T bits ask. */
static void tx_checksums(uint8_t *f, size_t len, uint16_t cmd, unsigned mac, unsigned ip)
{
    unsigned l4 = mac + ip;
    unsigned l4t = cmd & TXD_CMD_L4T_M;
    unsigned csum_off;

    if ((cmd & TXD_CMD_IIPT_M) == TXD_CMD_IIPT_IPV4_CSUM && ip >= 20) {
        put_be16(f + mac + 10, 0);
        put_be16(f + mac + 10, csum_fold(csum_add(0, f + mac, ip)));
    }
    if (l4t == TXD_CMD_L4T_TCP) {
        csum_off = 16;
    } else if (l4t == TXD_CMD_L4T_UDP) {
        csum_off = 6;
    } else {
        return;         /* no L4 offload (SCTP CRC32c is not offered: no NETIF_F_SCTP_CRC) */
    }
    if (l4 + csum_off + 2 > len) {
        return;
    }
    /* The driver seeded the field with the pseudo-header sum (CHECKSUM_PARTIAL). */
    put_be16(f + l4 + csum_off, csum_fold(csum_add(0, f + l4, len - l4)));
}

/* Pseudo-header sum of an IPv4/IPv6 TCP segment of @l4len bytes. */
static uint32_t pseudo_sum(const uint8_t *iph, bool v6, size_t l4len)
{
    uint32_t sum = 0;

    if (v6) {
        sum = csum_add(sum, iph + 8, 32);
        sum += (l4len >> 16) + (l4len & 0xffff) + IPPROTO_TCP;
    } else {
        sum = csum_add(sum, iph + 12, 8);
        sum += IPPROTO_TCP + l4len;
    }
    return sum;
}

/* A packet the ring's descriptors made unsendable: a transmit error of its VSI. */
static void tx_bad(LanTx *t)
{
    t->stats.bad_desc++;
    lan_stats_tx_error(t->d->lan_stats, t->vsi);
}

static void emit(LanTx *t, const uint8_t *f, size_t len, uint16_t cmd, uint16_t l2tag1)
{
    IrdmaDev *d = t->d;
    const uint8_t *out = f;
    size_t out_len = len;

    t->emitted++;
    if (cmd & TXD_CMD_IL2TAG1) {
        /* Insert an 802.1Q tag after the MAC addresses. */
        if (len + VLAN_HLEN > TX_WIRE_MAX + VLAN_HLEN || len < 12) {
            tx_bad(t);
            return;
        }
        memmove(t->seg + 16, f + 12, len - 12);
        memmove(t->seg, f, 12);
        put_be16(t->seg + 12, ETH_P_8021Q);
        put_be16(t->seg + 14, l2tag1);
        out = t->seg;
        out_len = len + VLAN_HLEN;
    }
    if (!fw_link_is_up(d->link)) {
        t->stats.dropped_link_down++;
        return;
    }
    t->stats.frames++;
    t->stats.bytes += out_len;
    lan_stats_tx(d->lan_stats, t->vsi, out, out_len);
    wire_transmit(d, out, out_len, out_len, WIRE_TO_NETWORK);
}

/* TSO: cut the TCP payload into MSS segments, each with fixed-up IP/TCP headers. */
static void tx_tso(LanTx *t, const TxPacket *p)
{
    IrdmaDev *d = t->d;
    uint8_t *f = t->frame;
    unsigned mac, ip, l4;
    bool v6 = (p->cmd & TXD_CMD_IIPT_M) == TXD_CMD_IIPT_IPV6;
    size_t hdr, payload, off;
    uint32_t seq;
    uint16_t ip_id;
    uint8_t flags;

    if (!header_lengths(p, p->len, &mac, &ip, &l4) || l4 < 20 || p->mss < TX_MIN_MSS ||
        (p->cmd & TXD_CMD_L4T_M) != TXD_CMD_L4T_TCP || mac + ip + l4 > p->len ||
        mac + ip + l4 + p->mss > TX_WIRE_MAX) {
        emu_trace(&d->host, TR_ERR_LAN_TX_BAD_TSO, "len %zu offset 0x%x mss %u cmd 0x%x", p->len,
                  p->offset, p->mss, p->cmd);
        tx_bad(t);
        return;
    }
    hdr = mac + ip + l4;
    payload = p->len - hdr;
    seq = ((uint32_t)get_be16(f + mac + ip + 4) << 16) | get_be16(f + mac + ip + 6);
    ip_id = v6 ? 0 : get_be16(f + mac + 4);
    flags = f[mac + ip + 13];
    for (off = 0; off < payload; off += p->mss) {
        size_t n = MIN(p->mss, payload - off);
        uint8_t *s = t->seg + VLAN_HLEN;      /* room for a tag emit() may insert */
        uint8_t *iph = s + mac, *tcp = s + mac + ip;
        bool last = off + n == payload;
        uint32_t sseq = seq + off;

        memcpy(s, f, hdr);
        memcpy(s + hdr, f + hdr + off, n);
        if (v6) {
            put_be16(iph + 4, ip - 40 + l4 + n);
        } else {
            put_be16(iph + 2, ip + l4 + n);
            put_be16(iph + 4, ip_id + off / p->mss);
            put_be16(iph + 10, 0);
            put_be16(iph + 10, csum_fold(csum_add(0, iph, ip)));
        }
        put_be16(tcp + 4, sseq >> 16);
        put_be16(tcp + 6, sseq);
        tcp[13] = last ? flags : flags & ~(TCP_FLAG_FIN | TCP_FLAG_PSH);
        put_be16(tcp + 16, 0);
        put_be16(tcp + 16, csum_fold(csum_add(pseudo_sum(iph, v6, l4 + n), tcp, l4 + n)));
        emit(t, s, hdr + n, p->cmd, p->l2tag1);
    }
}

static void tx_packet(LanTx *t, const TxPacket *p)
{
    unsigned mac, ip, l4;

    if (p->tso) {
        tx_tso(t, p);
        return;
    }
    if (p->len > TX_WIRE_MAX) {
        emu_trace(&t->d->host, TR_ERR_LAN_TX_OVERSIZE, "len %zu without TSO", p->len);
        tx_bad(t);
        return;
    }
    if ((p->cmd & (TXD_CMD_IIPT_M | TXD_CMD_L4T_M)) &&
        header_lengths(p, p->len, &mac, &ip, &l4)) {
        tx_checksums(t->frame, p->len, p->cmd, mac, ip);
    }
    emit(t, t->frame, p->len, p->cmd, p->l2tag1);
}

static void write_done(LanTx *t, uint64_t desc_addr, uint64_t qw1)
{
    uint8_t b[8];

    st64(b, (qw1 & ~TXD_QW1_DTYPE_M) | TXD_DTYPE_DESC_DONE);
    if (t->d->host.ops->dma_write(t->d->host.opaque, desc_addr + 8, b, 8) < 0) {
        t->stats.dma_errors++;
    }
}

static void ring_event(void *opaque);

static void process_ring(LanTx *t, unsigned txq, TxRing *r)
{
    IrdmaDev *d = t->d;
    FwSchedTxq q;
    uint64_t base;
    uint32_t qlen, walked = 0, pkt_desc = 0, pkt_start;
    uint64_t emitted = t->emitted;
    TxPacket p = { 0 };
    bool irq = false, in_packet = false, spent = false;

    if (!fw_sched_get_txq(d->sched, txq, &q)) {
        emu_trace(&d->host, TR_ERR_LAN_TX_NO_QUEUE, "doorbell on queue %u, never added", txq);
        return;
    }
    if (q.teid != r->teid) {
        /* A queue (re)created by add_txqs starts at descriptor 0. */
        r->teid = q.teid;
        r->head = 0;
    }
    base = ld_bits(q.ctx, TXQ_CTX_BASE_LSB, TXQ_CTX_BASE_WIDTH) * TXQ_BASE_UNIT;
    qlen = ld_bits(q.ctx, TXQ_CTX_QLEN_LSB, TXQ_CTX_QLEN_WIDTH);
    t->vsi = ld_bits(q.ctx, TXQ_CTX_SRC_VSI_LSB, TXQ_CTX_SRC_VSI_WIDTH);
    if (qlen == 0 || r->tail >= qlen || r->head >= qlen) {
        emu_trace(&d->host, TR_ERR_LAN_TX_BAD_RING, "queue %u qlen %u head %u tail %u", txq, qlen,
                  r->head, r->tail);
        return;
    }
    if (q.suspended) {
        return;     /* resumed queues are kicked by their next doorbell */
    }
    pkt_start = r->head;
    while (r->head != r->tail) {
        uint64_t addr = base + (uint64_t)r->head * TXD_SIZE;
        uint8_t desc[TXD_SIZE];
        uint64_t qw0, qw1;
        unsigned dtype;

        if (d->host.ops->dma_read(d->host.opaque, addr, desc, sizeof(desc)) < 0) {
            t->stats.dma_errors++;
            emu_trace(&d->host, TR_LAN_TX_DMA_ERROR, "queue %u descriptor %u", txq, r->head);
            return;
        }
        qw0 = ld64(desc);
        qw1 = ld64(desc + 8);
        dtype = qw1 & TXD_QW1_DTYPE_M;
        in_packet |= dtype == TXD_DTYPE_CTX || dtype == TXD_DTYPE_DATA;
        if (dtype == TXD_DTYPE_CTX) {
            uint16_t ccmd = (qw1 >> TXCTX_QW1_CMD_S) & TXCTX_QW1_CMD_M;

            p.tso = ccmd & TXCTX_CMD_TSO;
            p.tso_len = (qw1 >> TXCTX_QW1_TSO_LEN_S) & TXCTX_QW1_TSO_LEN_M;
            p.mss = (qw1 >> TXCTX_QW1_MSS_S) & TXCTX_QW1_MSS_M;
        } else if (dtype == TXD_DTYPE_DATA) {
            uint16_t cmd = (qw1 >> TXD_QW1_CMD_S) & TXD_QW1_CMD_M;
            size_t sz = (qw1 >> TXD_QW1_BUF_SZ_S) & TXD_QW1_BUF_SZ_M;

            if (p.len + sz > TX_MAX_FRAME || ++pkt_desc > TX_MAX_DESC_PER_FRAME) {
                tx_bad(t);
                emu_trace(&d->host, TR_ERR_LAN_TX_BAD_CHAIN, "queue %u: %u descriptors, %zu bytes",
                          txq, pkt_desc, p.len + sz);
                p.len = TX_MAX_FRAME + 1;   /* poison the packet: dropped at EOP */
            } else if (sz && d->host.ops->dma_read(d->host.opaque, qw0, t->frame + p.len,
                                                   sz) < 0) {
                t->stats.dma_errors++;
                emu_trace(&d->host, TR_LAN_TX_DMA_ERROR, "queue %u buffer 0x%" G_GINT64_MODIFIER
                          "x+%zu", txq, qw0, sz);
                p.len = TX_MAX_FRAME + 1;
            } else {
                p.len += sz;
            }
            p.cmd = cmd;
            p.offset = (qw1 >> TXD_QW1_OFFSET_S) & TXD_QW1_OFFSET_M;
            p.l2tag1 = qw1 >> TXD_QW1_L2TAG1_S;
            if (cmd & TXD_CMD_EOP) {
                if (p.len <= TX_MAX_FRAME) {
                    tx_packet(t, &p);
                }
                p = (TxPacket) { 0 };
                pkt_desc = 0;
                in_packet = false;
            }
            if (cmd & TXD_CMD_RS) {
                write_done(t, addr, qw1);
                irq = true;
            }
        } else {
            tx_bad(t);
            emu_trace(&d->host, TR_ERR_LAN_TX_BAD_DTYPE, "queue %u descriptor %u dtype %u", txq,
                      r->head, dtype);
        }
        r->head = (r->head + 1) % qlen;
        walked++;
        if (!in_packet) {
            pkt_start = r->head;
            /* Between packets only: a packet is sent whole or not yet. */
            if (walked >= TX_BUDGET || t->emitted - emitted >= TX_FRAME_BUDGET) {
                spent = true;
                break;
            }
        } else if (walked >= TX_BUDGET + TX_MAX_DESC_PER_FRAME) {
            break;      /* a chain past its descriptor limit: walk the rest next turn */
        }
    }
    if (in_packet && r->head == r->tail) {
        /* The tail cut a packet: as the hardware, wait for the doorbell that completes it,
         * and fetch its descriptors again from the first. */
        r->head = pkt_start;
    } else if (r->head != r->tail) {
        spent = true;
    }
    if (irq) {
        intr_raise_ctl(d, emu_regfile_read(d->regs, QINT_TQCTL(txq)), "tx queue");
    }
    if (spent && !r->ev) {
        r->ev = emu_event_schedule(&d->events, MAX(timing_desc_fetch_ns(&d->timing),
                                                   TX_YIELD_NS), ring_event, r);
    }
}

static void ring_event(void *opaque)
{
    TxRing *r = opaque;

    r->ev = NULL;
    process_ring(r->t, r->txq, r);
}

void lan_tx_doorbell(LanTx *t, unsigned txq, uint32_t tail)
{
    TxRing *r = ring_of(t, txq);

    r->tail = tail;
    if (!r->ev) {
        /* The descriptors are read a PCIe round trip after the doorbell. */
        r->ev = emu_event_schedule(&t->d->events, timing_desc_fetch_ns(&t->d->timing),
                                   ring_event, r);
    }
}

LanTx *lan_tx_new(IrdmaDev *d)
{
    LanTx *t = g_new0(LanTx, 1);

    t->d = d;
    t->rings = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    t->frame = g_malloc(TX_MAX_FRAME);
    t->seg = g_malloc(TX_WIRE_MAX + 2 * VLAN_HLEN);
    return t;
}

void lan_tx_reset(LanTx *t)
{
    GHashTableIter it;
    gpointer v;

    g_hash_table_iter_init(&it, t->rings);
    while (g_hash_table_iter_next(&it, NULL, &v)) {
        TxRing *r = v;

        if (r->ev) {
            emu_event_cancel(&t->d->events, r->ev);
        }
    }
    g_hash_table_remove_all(t->rings);
}

void lan_tx_free(LanTx *t)
{
    lan_tx_reset(t);
    g_hash_table_destroy(t->rings);
    g_free(t->frame);
    g_free(t->seg);
    g_free(t);
}

LanTxStats *lan_tx_stats(LanTx *t)
{
    return &t->stats;
}
