/* lan_rx.c - LAN receive engine (see lan_rx.h). */
#include "lan/lan_rx.h"
#include "lan/lan_stats.h"
#include "core/e810_regs.h"
#include "fw/switch.h"
#include "core/intr.h"
#include "core/inet.h"
#include "core/le.h"
#include "core/trace.h"

/* Rx queue context fields (ice_rlan_ctx_info): bit positions in the 32-byte context. */
#define RXQ_CTX_HEAD_LSB        0
#define RXQ_CTX_HEAD_WIDTH      13
#define RXQ_CTX_BASE_LSB        32
#define RXQ_CTX_BASE_WIDTH      57
#define RXQ_CTX_QLEN_LSB        89
#define RXQ_CTX_QLEN_WIDTH      13
#define RXQ_CTX_DBUF_LSB        102
#define RXQ_CTX_DBUF_WIDTH      7
#define RXQ_CTX_DSIZE_LSB       116
#define RXQ_CTX_RXMAX_LSB       174
#define RXQ_CTX_RXMAX_WIDTH     14
#define RXQ_BASE_UNIT           128
#define RXQ_DBUF_UNIT           128

/* 32-byte flex NIC write-back descriptor (RXDID 2) */
#define RXD_SIZE                32
#define RXD_RXDID               0
#define RXD_PTYPE               2
#define RXD_PKT_LEN             4
#define RXD_STATUS0             8
#define RXD_L2TAG1              10
#define RXD_RSS_HASH            12
#define RXDID_FLEX_NIC          2
#define RXD_ST0_DD              (1u << 0)
#define RXD_ST0_EOF             (1u << 1)
#define RXD_ST0_L3L4P           (1u << 3)
#define RXD_ST0_XSUM_IPE        (1u << 4)
#define RXD_ST0_XSUM_L4E        (1u << 5)
#define RXD_ST0_RSS_VALID       (1u << 12)
#define RXD_ST0_L2TAG1P         (1u << 13)

/* Packet types (ice_ptype_lkup) the parser reports. */
#define PTYPE_L2                1
#define PTYPE_IPV4_FRAG         22
#define PTYPE_IPV4_PAY          23
#define PTYPE_IPV4_UDP          24
#define PTYPE_IPV4_TCP          26
#define PTYPE_IPV4_ICMP         28
#define PTYPE_IPV6_PAY          89
#define PTYPE_IPV6_UDP          90
#define PTYPE_IPV6_TCP          92
#define PTYPE_IPV6_ICMP         94

/* VSI context: queue mapping and inner VLAN mode (ice_aqc_vsi_props) */
#define VSI_Q_MAPPING0          30
#define VSI_TC_MAPPING0         62
#define VSI_TC_Q_OFFSET_M       0x07ff
#define VSI_INNER_VLAN_FLAGS    12
#define VSI_INNER_VLAN_EMODE_M  0x18
#define VSI_INNER_VLAN_EMODE_NOTHING 3
#define VSI_TC_Q_NUM_M          0x7800      /* log2 of the TC's queue count */
#define VSI_Q_OPT_FLAGS         80
#define VSI_Q_OPT_PE_FLTR_EN    0x01
#define RSS_MAX_INPUT           36

#define IPPROTO_ICMP            1
#define IPPROTO_TCP             6
#define IPPROTO_UDP             17
#define IPPROTO_ICMPV6          58
#define RX_MAX_FRAME            (9728 + 4)
#define RX_MAX_PENDING          256
#define RX_MAX_VSI_COPIES       32          /* VSIs one frame is replicated to, at most */

typedef struct RxQueue {
    bool enabled;
    uint64_t base;
    uint32_t qlen, head, tail;
    uint32_t dbuf;                  /* bytes per packet buffer */
    uint32_t rxmax;
} RxQueue;

typedef struct RxFrame {
    unsigned q;
    unsigned vsi;
    bool hashed;
    uint32_t hash;
    size_t len;
    uint8_t data[];
} RxFrame;

struct LanRx {
    IrdmaDev *d;
    LanRxPeFn to_pe;                /* RoCEv2 frames of PE-enabled VSIs */
    RxQueue q[LAN_NUM_RXQ];
    GQueue pending;                 /* RxFrame: received, not yet in a ring */
    EmuEvent *ev;
    LanRxStats stats;
};

void lan_rx_queue_enable(LanRx *r, unsigned q, bool ena)
{
    IrdmaDev *d = r->d;
    RxQueue *rq;
    uint8_t ctx[QRX_CONTEXT_DWORDS * 4];

    if (q >= LAN_NUM_RXQ) {
        return;
    }
    rq = &r->q[q];
    if (!ena) {
        rq->enabled = false;
        return;
    }
    for (unsigned i = 0; i < QRX_CONTEXT_DWORDS; i++) {
        st32(ctx + 4 * i, emu_regfile_read(d->regs, QRX_CONTEXT(i, q)));
    }
    rq->base = ld_bits(ctx, RXQ_CTX_BASE_LSB, RXQ_CTX_BASE_WIDTH) * RXQ_BASE_UNIT;
    rq->qlen = ld_bits(ctx, RXQ_CTX_QLEN_LSB, RXQ_CTX_QLEN_WIDTH);
    rq->head = ld_bits(ctx, RXQ_CTX_HEAD_LSB, RXQ_CTX_HEAD_WIDTH);
    rq->dbuf = ld_bits(ctx, RXQ_CTX_DBUF_LSB, RXQ_CTX_DBUF_WIDTH) * RXQ_DBUF_UNIT;
    rq->rxmax = ld_bits(ctx, RXQ_CTX_RXMAX_LSB, RXQ_CTX_RXMAX_WIDTH);
    /* The driver posts its buffers (QRX_TAIL) before it enables the queue. */
    rq->tail = emu_regfile_read(d->regs, QRX_TAIL(q));
    /* Only 32-byte descriptors are modelled; ice always asks for them (dsize 1). */
    rq->enabled = rq->qlen >= 2 && rq->head < rq->qlen && rq->dbuf &&
                  ld_bits(ctx, RXQ_CTX_DSIZE_LSB, 1);
    emu_trace(&d->host, rq->enabled ? TR_LAN_RX_QUEUE : TR_ERR_LAN_RX_BAD_CONTEXT,
              "queue %u base 0x%" G_GINT64_MODIFIER "x qlen %u dbuf %u rxmax %u", q, rq->base,
              rq->qlen, rq->dbuf, rq->rxmax);
}

void lan_rx_tail(LanRx *r, unsigned q, uint32_t tail)
{
    if (q < LAN_NUM_RXQ) {
        r->q[q].tail = tail;
    }
}

/* The headers of a frame as the parser finds them (offsets from the frame start). */
typedef struct RxParse {
    unsigned l3;            /* IP header, 0 if not IP */
    unsigned l3len;         /* IPv4 header length / 40 for IPv6 */
    bool v6, frag;
    uint8_t proto;          /* L4 protocol (IPv6: the first next-header) */
    unsigned l4;            /* L4 header, 0 if none */
    size_t l4len;
} RxParse;

static void parse(const uint8_t *f, size_t len, RxParse *p)
{
    unsigned l2 = ETH_HLEN;
    uint16_t et;

    memset(p, 0, sizeof(*p));
    if (len < ETH_HLEN) {
        return;
    }
    et = get_be16(f + 12);
    if (et == ETH_P_8021Q && len >= ETH_HLEN + 4) {
        et = get_be16(f + 16);
        l2 += 4;
    }
    if (et == ETH_P_IPV4 && len >= l2 + 20 && (f[l2] >> 4) == 4) {
        const uint8_t *ip = f + l2;
        unsigned ihl = (ip[0] & 0xf) * 4, tot = get_be16(ip + 2);

        if (ihl < 20 || tot < ihl || l2 + tot > len) {
            return;
        }
        *p = (RxParse) { .l3 = l2, .l3len = ihl, .proto = ip[9],
                         .frag = get_be16(ip + 6) & 0x3fff, .l4 = l2 + ihl, .l4len = tot - ihl };
    } else if (et == ETH_P_IPV6 && len >= l2 + 40 && (f[l2] >> 4) == 6) {
        unsigned plen = get_be16(f + l2 + 4);

        if (l2 + 40 + plen > len) {
            return;
        }
        *p = (RxParse) { .l3 = l2, .l3len = 40, .v6 = true, .proto = f[l2 + 6],
                         .l4 = l2 + 40, .l4len = plen };
    }
    if (p->frag || (p->proto != IPPROTO_TCP && p->proto != IPPROTO_UDP &&
                    p->proto != IPPROTO_ICMP && p->proto != IPPROTO_ICMPV6)) {
        p->l4 = 0;
    }
}

static bool is_rocev2(const uint8_t *f, const RxParse *p)
{
    return p->l4 && p->proto == IPPROTO_UDP && p->l4len >= 8 &&
           get_be16(f + p->l4 + 2) == ROCEV2_UDP_PORT;
}

/* Packet type and checksum status bits the parser reports for a frame. */
static uint16_t classify(const uint8_t *f, const RxParse *p, uint16_t *status)
{
    uint32_t sum;

    *status = 0;
    if (!p->l3) {
        return PTYPE_L2;
    }
    *status = RXD_ST0_L3L4P;
    if (!p->v6 && !csum_verifies(csum_add(0, f + p->l3, p->l3len))) {
        *status |= RXD_ST0_XSUM_IPE;
    }
    if (p->frag) {
        return p->v6 ? PTYPE_IPV6_PAY : PTYPE_IPV4_FRAG;
    }
    if (p->l4 && (p->proto == IPPROTO_TCP || p->proto == IPPROTO_ICMPV6 ||
                  (p->proto == IPPROTO_UDP && p->l4len >= 8 &&
                   (p->v6 || get_be16(f + p->l4 + 6))))) {
        sum = p->v6 ? csum_add(0, f + p->l3 + 8, 32) + (p->l4len >> 16) + (p->l4len & 0xffff)
                    : csum_add(0, f + p->l3 + 12, 8) + p->l4len;
        if (!csum_verifies(csum_add(sum + p->proto, f + p->l4, p->l4len))) {
            *status |= RXD_ST0_XSUM_L4E;
        }
    }
    switch (p->proto) {
    case IPPROTO_TCP:
        return p->v6 ? PTYPE_IPV6_TCP : PTYPE_IPV4_TCP;
    case IPPROTO_UDP:
        return p->v6 ? PTYPE_IPV6_UDP : PTYPE_IPV4_UDP;
    case IPPROTO_ICMP:
    case IPPROTO_ICMPV6:
        return p->v6 ? PTYPE_IPV6_ICMP : PTYPE_IPV4_ICMP;
    default:
        return p->v6 ? PTYPE_IPV6_PAY : PTYPE_IPV4_PAY;
    }
}

/* The RSS input ice's default flow configuration asks for: addresses, and ports for TCP/UDP
 * (ice_vsi_set_rss_flow_fld); false for frames it does not hash. */
static bool rss_input(const uint8_t *f, const RxParse *p, uint8_t *in, size_t *n)
{
    size_t alen = p->v6 ? 16 : 4;

    if (!p->l3 || p->frag) {
        return false;
    }
    memcpy(in, f + p->l3 + (p->v6 ? 8 : 12), 2 * alen);
    *n = 2 * alen;
    if (p->l4 && (p->proto == IPPROTO_TCP || p->proto == IPPROTO_UDP) && p->l4len >= 4) {
        memcpy(in + *n, f + p->l4, 4);
        *n += 4;
    }
    return true;
}

/* Writes one frame into queue @q's ring; false if it had to be dropped. */
static bool deliver(LanRx *r, const RxFrame *fr)
{
    IrdmaDev *d = r->d;
    RxQueue *rq = &r->q[fr->q];
    const uint8_t *props = fw_switch_vsi_props(d->sw, fr->vsi);
    uint8_t frame[RX_MAX_FRAME];
    size_t len = fr->len, off = 0;
    uint16_t ptype, status, vlan = 0;
    RxParse parsed;
    bool strip, tagged;
    uint32_t avail, need;

    memcpy(frame, fr->data, len);
    tagged = len >= ETH_HLEN + 4 && get_be16(frame + 12) == ETH_P_8021Q;
    strip = props && emu_field_get(props[VSI_INNER_VLAN_FLAGS], VSI_INNER_VLAN_EMODE_M) !=
                     VSI_INNER_VLAN_EMODE_NOTHING;
    if (tagged && strip) {
        vlan = get_be16(frame + 14);
        memmove(frame + 12, frame + 16, len - 16);
        len -= 4;
    }
    parse(frame, len, &parsed);
    ptype = classify(frame, &parsed, &status);
    if (len > rq->rxmax && rq->rxmax) {
        r->stats.oversize++;
        return false;
    }
    avail = (rq->tail + rq->qlen - rq->head) % rq->qlen;
    need = (len + rq->dbuf - 1) / rq->dbuf;
    if (rq->tail >= rq->qlen || need > avail) {
        r->stats.no_desc++;
        emu_trace(&d->host, TR_LAN_RX_NO_DESC, "queue %u: %u free, %u needed", fr->q, avail, need);
        return false;
    }
    while (off < len) {
        uint64_t daddr = rq->base + (uint64_t)rq->head * RXD_SIZE;
        uint8_t desc[RXD_SIZE];
        size_t n = MIN(len - off, rq->dbuf);
        uint16_t st = RXD_ST0_DD;

        if (d->host.ops->dma_read(d->host.opaque, daddr, desc, 8) < 0 ||
            d->host.ops->dma_write(d->host.opaque, ld64(desc), frame + off, n) < 0) {
            r->stats.dma_errors++;
            emu_trace(&d->host, TR_LAN_RX_DMA_ERROR, "queue %u descriptor %u", fr->q, rq->head);
            return false;
        }
        off += n;
        memset(desc, 0, sizeof(desc));
        desc[RXD_RXDID] = RXDID_FLEX_NIC;
        st16(desc + RXD_PTYPE, ptype);
        st16(desc + RXD_PKT_LEN, n);
        if (off == len) {
            st |= RXD_ST0_EOF | status | (fr->hashed ? RXD_ST0_RSS_VALID : 0);
            st32(desc + RXD_RSS_HASH, fr->hash);
            if (tagged && strip) {
                st |= RXD_ST0_L2TAG1P;
                st16(desc + RXD_L2TAG1, vlan);
            }
        }
        st16(desc + RXD_STATUS0, st);
        d->host.ops->dma_write(d->host.opaque, daddr, desc, sizeof(desc));
        rq->head = (rq->head + 1) % rq->qlen;
    }
    r->stats.frames++;
    r->stats.bytes += len;
    lan_stats_rx(d->lan_stats, fr->vsi, fr->data, fr->len);
    return true;
}

static void deliver_pending(void *opaque)
{
    LanRx *r = opaque;
    IrdmaDev *d = r->d;
    GHashTable *irq_queues = g_hash_table_new(g_direct_hash, g_direct_equal);
    GHashTableIter it;
    gpointer key;
    RxFrame *fr;

    r->ev = NULL;
    while ((fr = g_queue_pop_head(&r->pending))) {
        if (r->q[fr->q].enabled && deliver(r, fr)) {
            g_hash_table_add(irq_queues, GUINT_TO_POINTER(fr->q));
        } else {
            lan_stats_rx_discard(d->lan_stats, fr->vsi);
        }
        g_free(fr);
    }
    g_hash_table_iter_init(&it, irq_queues);
    while (g_hash_table_iter_next(&it, &key, NULL)) {
        intr_raise_ctl(d, emu_regfile_read(d->regs, QINT_RQCTL(GPOINTER_TO_UINT(key))),
                       "rx queue");
    }
    g_hash_table_destroy(irq_queues);
}

/* Queue @frame for VSI @vsi: RSS picks one of its TC 0 queues. */
static void to_vsi(LanRx *r, const uint8_t *frame, size_t len, const RxParse *p, unsigned vsi)
{
    IrdmaDev *d = r->d;
    const uint8_t *props = fw_switch_vsi_props(d->sw, vsi), *key, *lut;
    uint8_t in[RSS_MAX_INPUT];
    unsigned q, lut_size, tc0, nq;
    size_t n;
    RxFrame *fr;

    fr = g_malloc(sizeof(*fr) + len);
    fr->vsi = vsi;
    fr->len = len;
    fr->hashed = fw_switch_vsi_rss(d->sw, vsi, &key, &lut, &lut_size) &&
                 rss_input(frame, p, in, &n);
    fr->hash = fr->hashed ? toeplitz_hash(key, in, n) : 0;
    /* The VSI's TC 0 queues: contiguous from q_mapping[0] + offset; RSS picks one. */
    tc0 = ld16(props + VSI_TC_MAPPING0);
    nq = 1u << emu_field_get(tc0, VSI_TC_Q_NUM_M);
    q = ld16(props + VSI_Q_MAPPING0) + (tc0 & VSI_TC_Q_OFFSET_M) +
        (fr->hashed ? lut[fr->hash % lut_size] % nq : 0);
    fr->q = q;
    memcpy(fr->data, frame, len);
    if (q >= LAN_NUM_RXQ || !r->q[q].enabled || g_queue_get_length(&r->pending) >= RX_MAX_PENDING) {
        r->stats.no_queue++;
        emu_trace(&d->host, TR_LAN_RX_NO_QUEUE, "vsi %u queue %u not enabled (or backlog)", vsi, q);
        lan_stats_rx_discard(d->lan_stats, vsi);
        g_free(fr);
        return;
    }
    g_queue_push_tail(&r->pending, fr);
    if (!r->ev) {
        r->ev = emu_event_schedule(&d->events, 0, deliver_pending, r);
    }
}

void lan_rx_frame(LanRx *r, const uint8_t *frame, size_t len)
{
    IrdmaDev *d = r->d;
    unsigned vsis[RX_MAX_VSI_COPIES], nvsi;
    bool to_pe = false;
    RxParse p;

    if (len < ETH_HLEN || len > RX_MAX_FRAME) {
        r->stats.oversize++;
        return;
    }
    nvsi = fw_switch_rx_lookup(d->sw, frame, len, vsis, RX_MAX_VSI_COPIES);
    if (!nvsi) {
        r->stats.filtered++;
        emu_trace(&d->host, TR_LAN_RX_FILTERED, "dst %02x:%02x:%02x:%02x:%02x:%02x type 0x%04x: "
                  "no Rx rule forwards it", frame[0], frame[1], frame[2], frame[3], frame[4],
                  frame[5], get_be16(frame + 12));
        return;
    }
    if (nvsi > 1) {
        emu_trace(&d->host, TR_LAN_RX_REPLICATED, "to %u VSIs of a VSI list", nvsi);
    }
    parse(frame, len, &p);
    for (unsigned i = 0; i < nvsi; i++) {
        const uint8_t *props = fw_switch_vsi_props(d->sw, vsis[i]);

        /* A RoCEv2 frame goes to the protocol engine once, for whichever VSIs enabled it. */
        if (is_rocev2(frame, &p) && (props[VSI_Q_OPT_FLAGS] & VSI_Q_OPT_PE_FLTR_EN)) {
            if (!to_pe) {
                to_pe = true;
                r->to_pe(d, frame, len);
            }
            continue;
        }
        to_vsi(r, frame, len, &p, vsis[i]);
    }
}

LanRx *lan_rx_new(IrdmaDev *d, LanRxPeFn to_pe)
{
    LanRx *r = g_new0(LanRx, 1);

    r->d = d;
    r->to_pe = to_pe;
    g_queue_init(&r->pending);
    return r;
}

void lan_rx_reset(LanRx *r)
{
    if (r->ev) {
        emu_event_cancel(&r->d->events, r->ev);
        r->ev = NULL;
    }
    g_queue_clear_full(&r->pending, g_free);
    memset(r->q, 0, sizeof(r->q));
}

void lan_rx_free(LanRx *r)
{
    lan_rx_reset(r);
    g_free(r);
}

LanRxStats *lan_rx_stats(LanRx *r)
{
    return &r->stats;
}
