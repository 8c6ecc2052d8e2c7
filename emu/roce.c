/* roce.c - the RDMA engine's packet path (see roce.h). */
#include "roce.h"
#include "ah.h"
#include "cqp.h"
#include "fw_link.h"
#include "inet.h"
#include "rq.h"
#include "sq.h"
#include "trace.h"
#include "wire.h"

struct RoceEngine {
    IrdmaDev *d;
    RoceStats stats;
    uint8_t frame[ROCE_FRAME_MAX];
};

RoceEngine *roce_new(IrdmaDev *d)
{
    RoceEngine *r = g_new0(RoceEngine, 1);

    r->d = d;
    return r;
}

void roce_free(RoceEngine *r)
{
    g_free(r);
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
        emu_trace(&d->host, "roce_ah_no_arp", "ah=%u arp=%u", ah->idx, ah->arp_idx);
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
}

/* Hand a decoded packet to its QP. */
static void deliver(IrdmaDev *d, const RocePkt *p)
{
    RoceEngine *r = d->roce;
    unsigned fl = rocev2_opcode_flags(p->opcode);
    PeQp *qp = qp_lookup_mut(d, p->dqpn);

    r->stats.rx_frames++;
    if (!qp || (!!(fl & BTH_UD) != (qp->type == QP_TYPE_ROCE_UD))) {
        r->stats.rx_no_qp++;
        emu_trace(&d->host, "roce_rx_no_qp", "dest qp=%u opcode=0x%02x", p->dqpn, p->opcode);
        return;
    }
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
        emu_trace(&d->host, "roce_rx_dropped", "len %zu: %s", len,
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

uint64_t roce_send(IrdmaDev *d, const RoceAv *av, RocePkt *p, size_t dma_bytes)
{
    RoceEngine *r = d->roce;
    bool looped = !memcmp(av->dmac, av->smac, 6);
    size_t len;

    address(av, p);
    len = looped ? rocev2_build_looped(p, r->frame) : rocev2_build(p, r->frame);
    emu_trace(&d->host, "roce_tx", "opcode=0x%02x dqp=%u psn=%u len=%zu%s", p->opcode, p->dqpn,
              p->psn, len, looped ? " (loopback)" : "");
    if (looped) {
        r->stats.loopback_frames++;
        return wire_transmit(d, r->frame, len, dma_bytes, WIRE_TO_SELF);
    }
    if (fw_link_is_up(d->link)) {
        r->stats.tx_frames++;
    }
    return wire_transmit(d, r->frame, len, dma_bytes, WIRE_TO_NETWORK);
}
