/* roce.c - the RDMA engine's packet path (see roce.h). */
#include <sys/queue.h>
#include "rdma/roce.h"
#include "rdma/ah.h"
#include "rdma/cqp.h"
#include "fw/link.h"
#include "core/inet.h"
#include "core/spares.h"
#include "rdma/rq.h"
#include "rdma/sq.h"
#include "rdma/stats.h"
#include "core/trace.h"
#include "port/wire.h"

struct LoopTrain {
    RoceTrain t;               /* addressed */
    unsigned done;             /* packets delivered */
    uint64_t gpa;              /* the payload in guest memory */
    size_t len;
    const uint8_t *src;        /* where delivery reads it: the mapping, or the copy */
    const uint8_t *map;        /* the mapping, unmapped when the train goes */
    size_t map_len;
    uint8_t *copy;             /* taken before a device write changed the payload */
    TAILQ_ENTRY(LoopTrain) link;   /* in RoceEngine.exposed while it is there */
};

struct RoceEngine {
    IrdmaDev *d;
    RoceStats stats;
    /* LoopTrain: sent, not wholly delivered, reading its payload from guest memory still:
     * what a device write may have to copy first. */
    TAILQ_HEAD(, LoopTrain) exposed;
    uint64_t exposed_lo, exposed_hi;   /* the payloads of all of them lie in [lo, hi) */
    LoopTrain *delivering;     /* the train whose packet is being delivered */
    Spares spare;              /* LoopTrain: freed, for the next trains */
    uint8_t frame[ROCE_FRAME_MAX];
};

RoceEngine *roce_new(IrdmaDev *d)
{
    RoceEngine *r = g_new0(RoceEngine, 1);

    r->d = d;
    TAILQ_INIT(&r->exposed);
    return r;
}

void roce_free(RoceEngine *r)
{
    spares_free(&r->spare);
    g_free(r);
}

/* A LoopTrain (a spare one if there is one) whose payload is @len bytes at @gpa, read from
 * @copy if it has one, else from the mapping @map (@map_len bytes); every field set but the
 * train itself, which the caller fills in. Field by field: a compound literal would be built
 * on the stack and copied. */
static LoopTrain *train_new(RoceEngine *r, uint64_t gpa, size_t len, const uint8_t *map,
                            size_t map_len, uint8_t *copy)
{
    LoopTrain *lt = spares_take(&r->spare, sizeof(LoopTrain));

    lt->done = 0;
    lt->gpa = gpa;
    lt->len = len;
    lt->src = copy ? copy : map;
    lt->map = map;
    lt->map_len = map_len;
    lt->copy = copy;
    return lt;
}

RoceStats *roce_stats(RoceEngine *r)
{
    return &r->stats;
}

void roce_mac_bytes(uint64_t mac, uint8_t out[6])
{
    for (int i = 0; i < 6; i++) {
        out[i] = mac >> (40 - 8 * i);
    }
}

void roce_ip_bytes(bool ipv4, const uint32_t ip[4], uint8_t out[16])
{
    memset(out, 0, 16);
    for (int i = 0; i < (ipv4 ? 1 : 4); i++) {
        put_be32(out + 4 * i, ip[i]);
    }
}

void roce_av_from_ah(IrdmaDev *d, const PeAh *ah, const PeQp *qp, RoceAv *av)
{
    uint64_t dmac = 0;

    memset(av, 0, sizeof(*av));
    if (!cqp_arp_lookup(d, ah->arp_idx, &dmac)) {
        emu_trace(&d->host, TR_ROCE_AH_NO_ARP, "ah=%u arp=%u", ah->idx, ah->arp_idx);
    }
    roce_mac_bytes(dmac, av->dmac);
    roce_mac_bytes(ah->src_mac, av->smac);
    av->vlan = ah->insert_vlan;
    av->vlan_tci = ah->vlan_tag;
    av->ipv4 = ah->ipv4;
    roce_ip_bytes(ah->ipv4, ah->src_ip, av->sip);
    roce_ip_bytes(ah->ipv4, ah->dest_ip, av->dip);
    av->tos = ah->tc;
    av->ttl = ah->hop_limit;
    av->flow_label = ah->flow_label;
    /* RoCEv2 source ports spread flows; a UD QP's own number keeps its packets in order. */
    av->sport = 0xc000 | (qp->id & 0x3fff);
    av->stats_inst = qp->av.stats_inst;
}

/* A UD packet to the multicast QPN: a copy to every QP attached to a group of its destination
 * IP, each taking it as its own datagram (RQ WQE, QKey, CQE) or dropping it. */
static void deliver_mcast(IrdmaDev *d, const RocePkt *p)
{
    GArray *qps = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    uint32_t ip[4] = { 0 };
    unsigned groups;

    for (int i = 0; i < (p->ipv4 ? 1 : 4); i++) {
        ip[i] = get_be32(p->dip + 4 * i);
    }
    groups = mcg_members_of(d, p->ipv4, ip, qps);
    if (!groups) {
        d->roce->stats.rx_no_qp++;
        stats_rx_dropped(d, p->ipv4, rocev2_frame_len(p) - rocev2_l2_len(p));
        emu_trace(&d->host, TR_ROCE_RX_MCAST_NO_GROUP, "%s dst=%08x:%08x:%08x:%08x",
                  p->ipv4 ? "v4" : "v6", ip[0], ip[1], ip[2], ip[3]);
        g_array_free(qps, TRUE);
        return;
    }
    stats_packets(d, 0, true, p, 1);
    emu_trace(&d->host, TR_ROCE_RX_MCAST, "%s dst=%08x:%08x:%08x:%08x: %u groups, %u QPs",
              p->ipv4 ? "v4" : "v6", ip[0], ip[1], ip[2], ip[3], groups, qps->len);
    for (unsigned i = 0; i < qps->len; i++) {
        uint32_t qpn = g_array_index(qps, uint32_t, i);
        PeQp *qp = qp_lookup_mut(d, qpn);

        if (!qp || qp->type != QP_TYPE_ROCE_UD) {
            emu_trace(&d->host, TR_ROCE_RX_MCAST_NO_QP, "qp=%u: no UD QP", qpn);
            continue;
        }
        rq_rx(d, qp, p);
    }
    g_array_free(qps, TRUE);
}

/* Hand a decoded packet to its QP, or to a multicast group's. */
static void deliver(IrdmaDev *d, const RocePkt *p)
{
    RoceEngine *r = d->roce;
    unsigned fl = rocev2_opcode_flags(p->opcode);
    PeQp *qp;

    r->stats.rx_frames++;
    if ((fl & BTH_UD) && p->dqpn == ROCE_MCAST_QPN) {
        deliver_mcast(d, p);
        return;
    }
    qp = qp_lookup_mut(d, p->dqpn);
    if (!qp || (!!(fl & BTH_UD) != (qp->type == QP_TYPE_ROCE_UD))) {
        r->stats.rx_no_qp++;
        stats_rx_dropped(d, p->ipv4, rocev2_frame_len(p) - rocev2_l2_len(p));
        emu_trace(&d->host, TR_ROCE_RX_NO_QP, "dest qp=%u opcode=0x%02x", p->dqpn, p->opcode);
        return;
    }
    stats_packets(d, qp->av.stats_inst, true, p, 1);
    if (fl & (BTH_ACK | BTH_READ_RESP)) {
        sq_rx(d, qp, p);
    } else {
        rq_rx(d, qp, p);
    }
}

void roce_rx_frame(IrdmaDev *d, const uint8_t *frame, size_t len)
{
    RocePkt p;
    RoceParseStatus st = rocev2_parse(frame, len, &p, true);

    if (st != ROCE_PARSE_OK) {
        if (st == ROCE_PARSE_BAD_ICRC) {
            d->roce->stats.rx_bad_icrc++;
        } else {
            d->roce->stats.rx_malformed++;
        }
        d->roce_rx_dropped++;
        if (st != ROCE_PARSE_NOT_ROCE) {
            /* Past the IP and UDP headers (parse filled in the version): an IP datagram. */
            stats_rx_dropped(d, p.ipv4, len - rocev2_l2_len(&p));
        }
        emu_trace(&d->host, TR_ROCE_RX_DROPPED, "len %zu: %s", len,
                  st == ROCE_PARSE_BAD_ICRC ? "bad ICRC" : "malformed");
        return;
    }
    deliver(d, &p);
}

void roce_rx_looped(IrdmaDev *d, const uint8_t *frame, size_t len)
{
    RocePkt p;

    /* Built by this engine (rocev2_build_looped): no ICRC to check. */
    if (rocev2_parse(frame, len, &p, false) == ROCE_PARSE_OK) {
        deliver(d, &p);
    }
}

/* The frame's addressing: @av's. */
static void address(const RoceAv *av, RocePkt *p)
{
    memcpy(p->dmac, av->dmac, 6);
    memcpy(p->smac, av->smac, 6);
    p->vlan = av->vlan;
    p->vlan_tci = av->vlan_tci;
    p->ipv4 = av->ipv4;
    memcpy(p->sip, av->sip, 16);
    memcpy(p->dip, av->dip, 16);
    p->tos = av->tos;
    p->ttl = av->ttl;
    p->flow_label = av->flow_label;
    p->sport = av->sport;
}

uint8_t *roce_tx_payload(IrdmaDev *d, const RoceAv *av, RocePkt *p)
{
    address(av, p);
    return d->roce->frame + rocev2_payload_offset(p);
}

static void loop_train(IrdmaDev *d, LoopTrain *lt, unsigned inst);

uint64_t roce_send(IrdmaDev *d, const RoceAv *av, RocePkt *p, size_t dma_bytes)
{
    RoceEngine *r = d->roce;
    bool looped = !memcmp(av->dmac, av->smac, 6);
    bool mcast = av->dmac[0] & ETH_GROUP_BIT;
    size_t len;

    address(av, p);
    /* An RC packet looped under INLINE timing goes as a train of one, with a copy of its
     * payload; UD keeps its frame, whose IP header its receive gets (ud_rx). */
    if (looped && !(rocev2_opcode_flags(p->opcode) & BTH_UD) && roce_train_room(d, av)) {
        LoopTrain *lt;

        len = rocev2_opcode_flags(p->opcode) & BTH_HAS_PAYLOAD ? p->payload_len : 0;
        lt = train_new(r, 0, len, NULL, 0, len ? g_memdup2(p->payload, len) : NULL);
        lt->t.pkt = *p;
        lt->t.npkts = 1;
        lt->t.mtu = len;
        lt->t.first_op = lt->t.middle_op = lt->t.last_op = p->opcode;
        lt->t.ackreq = p->ackreq;
        lt->t.se = p->se;
        loop_train(d, lt, av->stats_inst);
        return d->host.ops->clock_ns(d->host.opaque);
    }
    len = looped ? rocev2_build_looped(p, r->frame) : rocev2_build(p, r->frame);
    stats_packets(d, av->stats_inst, false, p, 1);
    emu_trace(&d->host, TR_ROCE_TX, "opcode=0x%02x dqp=%u psn=%u len=%zu%s", p->opcode, p->dqpn,
              p->psn, len, looped ? " (loopback)" : mcast ? " (multicast: network and loopback)"
              : "");
    if (looped) {
        r->stats.loopback_frames++;
        return wire_transmit(d, r->frame, len, dma_bytes, WIRE_TO_SELF);
    }
    if (fw_link_is_up(d->link)) {
        r->stats.tx_frames++;
    }
    if (mcast) {
        /* The group's members on this port get it too, as the E810's switch loops it. */
        r->stats.loopback_frames++;
        return wire_transmit(d, r->frame, len, dma_bytes, WIRE_TO_BOTH);
    }
    return wire_transmit(d, r->frame, len, dma_bytes, WIRE_TO_NETWORK);
}

/* --- internal loopback without frames --- */

unsigned roce_train_room(IrdmaDev *d, const RoceAv *av)
{
    /* Trains exist to read payloads in place: a host that cannot map guest memory gets
     * frames (which is also how the tests compare the two ways). */
    if (d->timing.mode != TIMING_INLINE || !d->outer.ops->dma_map ||
        memcmp(av->dmac, av->smac, 6)) {
        return 0;
    }
    return MIN(ROCE_TRAIN_MAX, wire_loop_room(d));
}

/* The payload bytes packet @k of @lt carries: the train's MTU, the last what is left. */
static size_t train_payload_len(const LoopTrain *lt, unsigned k)
{
    return MIN(lt->len - (size_t)k * lt->t.mtu, lt->t.mtu);
}

/* Packet @k of @lt as it was sent. A train without payload bytes (an ACK, a READ request, a
 * zero-length WRITE or SEND) has no source: its packets point nowhere rather than at an offset
 * from NULL. */
static void train_pkt(const LoopTrain *lt, unsigned k, RocePkt *p)
{
    size_t off = (size_t)k * lt->t.mtu;

    *p = lt->t.pkt;
    p->opcode = roce_train_opcode(&lt->t, k);
    p->psn = (lt->t.pkt.psn + k) & ROCE_PSN_MASK;
    p->ackreq = (lt->t.ackreq >> k) & 1;
    p->se = (lt->t.se >> k) & 1;
    p->payload = lt->src ? lt->src + off : NULL;
    p->payload_len = train_payload_len(lt, k);
}

/* Packets @from.. of @lt, @n of them, into the counters of instance @inst: received (@rx) or
 * sent. Only the first and the last of a run can differ from the packets between them; the
 * train's own header stands for each (no packet is built for it). */
static void count_train(IrdmaDev *d, const LoopTrain *lt, unsigned inst, bool rx,
                        unsigned from, unsigned n)
{
    const RoceTrain *t = &lt->t;

    stats_packets_as(d, inst, rx, &t->pkt, roce_train_opcode(t, from),
                     train_payload_len(lt, from), 1);
    if (n > 2) {
        stats_packets_as(d, inst, rx, &t->pkt, t->middle_op, train_payload_len(lt, from + 1),
                         n - 2);
    }
    if (n > 1) {
        stats_packets_as(d, inst, rx, &t->pkt, roce_train_opcode(t, from + n - 1),
                         train_payload_len(lt, from + n - 1), 1);
    }
}

/* Send @lt (addressed) as roce_send() would send each of its packets, counted in @inst. */
static void loop_train(IrdmaDev *d, LoopTrain *lt, unsigned inst)
{
    RoceEngine *r = d->roce;

    if (emu_trace_enabled(&d->host, TR_ROCE_TX)) {
        for (unsigned k = 0; k < lt->t.npkts; k++) {
            RocePkt p;

            train_pkt(lt, k, &p);
            emu_trace(&d->host, TR_ROCE_TX, "opcode=0x%02x dqp=%u psn=%u len=%zu (loopback)",
                      p.opcode, p.dqpn, p.psn, rocev2_frame_len(&p));
        }
    }
    count_train(d, lt, inst, false, 0, lt->t.npkts);
    r->stats.loopback_frames += lt->t.npkts;
    if (lt->map) {
        if (TAILQ_EMPTY(&r->exposed)) {
            r->exposed_lo = lt->gpa;
            r->exposed_hi = lt->gpa + lt->len;
        } else {
            r->exposed_lo = MIN(r->exposed_lo, lt->gpa);
            r->exposed_hi = MAX(r->exposed_hi, lt->gpa + lt->len);
        }
        TAILQ_INSERT_TAIL(&r->exposed, lt, link);
    }
    wire_loop_train(d, lt, lt->t.npkts);
}

void roce_send_train(IrdmaDev *d, const RoceAv *av, const RoceTrain *t, uint64_t gpa,
                     size_t len, const void *src, size_t map_len)
{
    LoopTrain *lt = train_new(d->roce, gpa, len, src, map_len, NULL);

    lt->t = *t;
    address(av, &lt->t.pkt);
    loop_train(d, lt, av->stats_inst);
}

/* The next packet of @lt as it arrives. */
static void arriving(const LoopTrain *lt, unsigned k, RocePkt *p)
{
    train_pkt(lt, k, p);
    rocev2_as_parsed(p);
}

/* The next packet of @lt to its QP. */
static void deliver_one(IrdmaDev *d, LoopTrain *lt)
{
    RocePkt p;

    arriving(lt, lt->done, &p);
    deliver(d, &p);
    lt->done++;
}

/* The packets of @lt from the next one up to @end to their responder at once (rq_rx_run()),
 * if it takes them so; false if it did not take any. */
static bool deliver_run(IrdmaDev *d, LoopTrain *lt, unsigned end)
{
    unsigned n = end - lt->done, taken;
    RocePkt first, last;
    PeQp *qp;

    if (n < 2) {
        return false;
    }
    /* Between the first and the last, MIDDLEs (a train is packets of one message). */
    if (n > 2 && (rocev2_opcode_flags(lt->t.middle_op) & (BTH_FIRST | BTH_LAST))) {
        return false;
    }
    arriving(lt, lt->done, &first);
    arriving(lt, end - 1, &last);
    qp = qp_lookup_mut(d, first.dqpn);
    if (!qp || qp->type != QP_TYPE_ROCE_RC) {
        return false;
    }
    taken = rq_rx_run(d, qp, &first, &last, n, lt->t.ackreq >> lt->done);
    d->roce->stats.rx_frames += taken;
    if (taken) {
        count_train(d, lt, qp->av.stats_inst, true, lt->done, taken);
    }
    lt->done += taken;
    return taken;
}

unsigned roce_rx_train(IrdmaDev *d, LoopTrain *lt, unsigned max)
{
    unsigned start = lt->done, end = start + MIN(max, lt->t.npkts - start);

    d->roce->delivering = lt;
    while (lt->done < end) {
        if (!deliver_run(d, lt, end)) {
            deliver_one(d, lt);
        }
    }
    d->roce->delivering = NULL;
    return end - start;
}

void roce_train_free(IrdmaDev *d, LoopTrain *lt)
{
    RoceEngine *r = d->roce;

    if (lt->map) {
        if (!lt->copy) {
            TAILQ_REMOVE(&r->exposed, lt, link);
        }
        d->host.ops->dma_unmap(d->host.opaque, lt->map, lt->map_len);
    }
    g_free(lt->copy);
    spares_give(&r->spare, lt);
}

/* Whether [a, a + an) and [b, b + bn) share a byte. */
static bool overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
    return an && bn && (a - b < bn || b - a < an);
}

/* Exposed trains whose payload still to be delivered a write of [gpa, gpa + len) changes take
 * their copy first. */
static void copy_overlapped(RoceEngine *r, uint64_t gpa, size_t len)
{
    LoopTrain *lt, *next;

    for (lt = TAILQ_FIRST(&r->exposed); lt; lt = next) {
        uint64_t delivered = MIN((uint64_t)lt->done * lt->t.mtu, lt->len);

        next = TAILQ_NEXT(lt, link);
        if (overlap(lt->gpa + delivered, lt->len - delivered, gpa, len)) {
            lt->copy = g_memdup2(lt->map, lt->len);
            lt->src = lt->copy;
            TAILQ_REMOVE(&r->exposed, lt, link);
        }
    }
}

const void *roce_dma_write_guard(IrdmaDev *d, uint64_t gpa, const void *buf, size_t len)
{
    RoceEngine *r = d->roce;
    LoopTrain *cur = r->delivering;
    const uint8_t *b = buf;

    /* Most writes (CQEs, placements elsewhere) fall outside every exposed payload: one test
     * against their bounds (kept until the list empties) instead of one per train. */
    if (!TAILQ_EMPTY(&r->exposed) &&
        overlap(r->exposed_lo, r->exposed_hi - r->exposed_lo, gpa, len)) {
        copy_overlapped(r, gpa, len);
    }
    /* The write may place the packet being delivered, read from the mapping before the copy
     * was taken (a WRITE onto its own source): it takes the bytes from the copy. Only that
     * train's packet can point into a mapping, and mappings of one buffer may alias. */
    if (cur && cur->copy && (uintptr_t)b - (uintptr_t)cur->map < cur->len) {
        b = cur->copy + (b - cur->map);
    }
    return b;
}
