/* rq.c - the responder (see rq.h). */
#include "rdma/rq.h"
#include "rdma/cq.h"
#include "rdma/hmc.h"
#include "rdma/roce.h"
#include "rdma/stats.h"
#include "core/trace.h"

#define RNR_TIMER_CODE  14         /* 1.28 ms (IBA table 45): what the responder asks for */

/* A READ request being answered: its PSNs, the MSN it reports, the range read. */
typedef struct RqRead {
    uint32_t psn, msn;
    uint64_t len;
    uint32_t n, k;             /* response packets, and how many are sent */
    MrRange rg;
} RqRead;

/* The states a QP receives in. */
static bool rq_ready(const PeQp *qp)
{
    return qp->state == QP_STATE_RTR || qp->state == QP_STATE_RTS || qp->state == QP_STATE_SQD;
}

static uint64_t wqe_bytes(const PeQp *qp)
{
    return (uint64_t)QP_WQ_QUANTUM << qp->rq_wqe_shift;
}

static uint32_t rq_wqes(const PeQp *qp)
{
    return qp->rq_quanta >> qp->rq_wqe_shift;
}

/* Read the RQ WQE at the head if it is posted; false if not (or unreadable). */
static bool peek_wqe(IrdmaDev *d, PeQp *qp, uint8_t *raw)
{
    uint64_t gpa;

    return hmc_queue_gpa(d, &qp->rq, qp->resp.head * wqe_bytes(qp), &gpa) == HMC_OK &&
           pe_dma_read(d, gpa, raw, wqe_bytes(qp)) &&
           !!(ld64(raw + RQWQE_HDR) & RQWQE_VALID) == qp->resp.valid;
}

static void advance(PeQp *qp)
{
    if (++qp->resp.head == rq_wqes(qp)) {
        qp->resp.head = 0;
        qp->resp.valid ^= 1;
    }
}

static void send_ack(IrdmaDev *d, PeQp *qp, uint8_t syndrome, uint32_t psn)
{
    RocePkt p = {
        .opcode = BTH_RC_ACK, .pkey = ROCE_PKEY_DEFAULT, .dqpn = qp->dest_qpn,
        .psn = psn & ROCE_PSN_MASK, .aeth_syndrome = syndrome, .aeth_msn = qp->resp.msn,
    };

    if (syndrome != AETH_ACK) {
        emu_trace(&d->host, TR_RQ_NAK, "qp=%u syndrome=0x%02x psn=%u", qp->id, syndrome, psn);
    }
    roce_send(d, &qp->av, &p, 0);
}

/* The request cannot be served: NAK it, and (access errors) fail the QP as IB says. */
static void refuse(IrdmaDev *d, PeQp *qp, const RocePkt *p, uint8_t syndrome, unsigned ae)
{
    send_ack(d, qp, syndrome, p->psn);
    qp->resp.msg = 0;
    if (ae) {
        qp_ae(d, qp, ae, AE_SOURCE_RQ, true);
    }
}

/* Take the RQ WQE at the head with its SGEs resolved for local write. */
static bool take_wqe(IrdmaDev *d, PeQp *qp)
{
    uint8_t raw[QP_WQ_QUANTUM << 3];

    unsigned bad;

    return peek_wqe(d, qp, raw) && rq_wqe_decode(raw, wqe_bytes(qp), &qp->resp.wqe) &&
           mr_resolve_sgl(d, qp->resp.wqe.sge, qp->resp.wqe.nsge, qp->pd, qp->priv,
                          MR_WANT_LOCAL_WRITE, qp->resp.rg, &bad) == MR_ACCESS_OK;
}

/* Scatter @len bytes at message offset @off into the RQ WQE's SGEs. */
static bool scatter(IrdmaDev *d, PeQp *qp, uint64_t off, const uint8_t *buf, size_t len)
{
    return mr_sgl_copy(d, qp->resp.wqe.sge, qp->resp.rg, qp->resp.wqe.nsge, off, (void *)buf,
                       len, true, NULL) == MR_ACCESS_OK;
}

/* The receive completion of the WQE at the head; the WQE is consumed. */
static void complete_recv(IrdmaDev *d, PeQp *qp, const RocePkt *p, uint32_t len, QpCqe *c)
{
    unsigned fl = rocev2_opcode_flags(p->opcode);

    c->ctx = qp->compl_ctx;
    c->qp_id = qp->id;
    c->op = p->opcode;
    c->wqe_idx = qp->resp.head << qp->rq_wqe_shift;
    c->payload_len = len;
    c->solicited = p->se;
    c->imm_valid = fl & BTH_HAS_IMM;
    c->imm = p->imm;
    if (!cq_post_qp(d, qp->rx_cq, c)) {
        emu_trace(&d->host, TR_RQ_CQE_LOST, "qp=%u wqe=%u", qp->id, qp->resp.head);
    }
    advance(qp);
}

/* SEND with invalidate: the STag the IETH names loses its validity (an MR or a bound MW). */
static bool invalidate(IrdmaDev *d, PeQp *qp, uint32_t stag)
{
    PeMr *mr = mr_lookup_mut(d, mr_stag_index(d, stag));

    if (!mr || mr->stag_idx != stag >> 8 || mr->pd != qp->pd || !mr->remote_access) {
        return false;
    }
    if (mr->is_mw) {
        mr->bound = false;
    } else {
        mr->state = MR_STATE_INVALID;
    }
    stats_count(d, qp->av.stats_inst, STATS_RDMA_INVALIDATES, 1);
    return true;
}

static void answer_reads_later(void *arg);

/* Send up to @budget READ response packets, oldest request first: path MTU each, AETH on the
 * first and the last. What is left goes on in an event. */
static void answer_reads(IrdmaDev *d, PeQp *qp, unsigned budget)
{
    uint8_t payload[ROCE_MTU_MAX];
    RqRead *r;

    while (budget && (r = g_queue_peek_head(&qp->resp.reads))) {
        uint64_t off = (uint64_t)r->k * qp->mtu;
        size_t len = r->len ? MIN(r->len - off, qp->mtu) : 0;
        RocePkt p = {
            .pkey = ROCE_PKEY_DEFAULT, .dqpn = qp->dest_qpn,
            .psn = (r->psn + r->k) & ROCE_PSN_MASK, .aeth_syndrome = AETH_ACK,
            .aeth_msn = r->msn, .payload = payload, .payload_len = len,
        };

        p.opcode = r->n == 1 ? BTH_RC_READ_RESP_ONLY : r->k == 0 ? BTH_RC_READ_RESP_FIRST :
                   r->k == r->n - 1 ? BTH_RC_READ_RESP_LAST : BTH_RC_READ_RESP_MIDDLE;
        if (len && mr_copy(d, &r->rg, off, payload, len, false, NULL) != MR_ACCESS_OK) {
            /* The MR went (or its pages did) while the answer was on its way. */
            send_ack(d, qp, AETH_NAK_REM_OP, p.psn);
            g_queue_clear_full(&qp->resp.reads, g_free);
            qp_ae(d, qp, AE_IB_REMOTE_OP_ERROR, AE_SOURCE_RQ, true);
            return;
        }
        roce_send(d, &qp->av, &p, len);
        if (++r->k == r->n) {
            g_free(g_queue_pop_head(&qp->resp.reads));
        }
        budget--;
    }
    if (!g_queue_is_empty(&qp->resp.reads) && !qp->resp.read_ev) {
        qp->resp.read_ev = emu_event_schedule(&d->events, 0, answer_reads_later, qp);
    }
}

static void answer_reads_later(void *arg)
{
    PeQp *qp = arg;

    qp->resp.read_ev = NULL;
    if (qp->state == QP_STATE_ERROR) {
        g_queue_clear_full(&qp->resp.reads, g_free);
        return;
    }
    answer_reads(qp->d, qp, RQ_READ_BURST);
}

/* A READ request: check the rkey, answer, consume its PSNs. */
static void rc_read_request(IrdmaDev *d, PeQp *qp, const RocePkt *p, bool duplicate)
{
    MrRange rg = { 0 };
    RqRead *rd;
    uint32_t n = p->reth_len ? (p->reth_len + qp->mtu - 1) / qp->mtu : 1;
    /* IB C9-88: a zero-length request checks neither R_Key nor VA. */
    MrAccess a = p->reth_len == 0 ? MR_ACCESS_OK :
                 mr_resolve(d, p->reth_rkey, qp->pd, false, p->reth_va, p->reth_len,
                            MR_WANT_REMOTE_READ, &rg);

    if (a != MR_ACCESS_OK) {
        emu_trace(&d->host, TR_RQ_READ_REFUSED, "qp=%u rkey=0x%08x: %s", qp->id, p->reth_rkey,
                  mr_access_name(a));
        refuse(d, qp, p, AETH_NAK_REM_ACCESS, duplicate ? 0 : mr_access_ae(a));
        return;
    }
    if (g_queue_get_length(&qp->resp.reads) >= RQ_READS_MAX) {
        /* More READs outstanding than the IRD offered: dropped, the requester times out. */
        emu_trace(&d->host, TR_RQ_READ_IRD_FULL, "qp=%u psn=%u", qp->id, p->psn);
        return;
    }
    if (!duplicate) {
        qp->resp.epsn = (p->psn + n) & ROCE_PSN_MASK;
        qp->resp.msn = (qp->resp.msn + 1) & 0xffffff;
    }
    rd = g_new(RqRead, 1);
    *rd = (RqRead) { .psn = p->psn, .msn = qp->resp.msn, .len = p->reth_len, .n = n, .rg = rg };
    g_queue_push_tail(&qp->resp.reads, rd);
    answer_reads(d, qp, RQ_READ_BURST);
}

/* A SEND or WRITE packet in sequence, before its payload is placed: the order and lengths of
 * the message's packets, the RQ WQE it needs, the target its FIRST names. False if it was
 * refused (or waits for a receive: RNR). */
static bool rc_accept(IrdmaDev *d, PeQp *qp, const RocePkt *p)
{
    unsigned fl = rocev2_opcode_flags(p->opcode);

    /* A message's packets come in order: FIRST/ONLY start one, the others continue it; all
     * but the last carry exactly one path MTU, the last at most one. */
    if (!!(fl & BTH_FIRST) == !!qp->resp.msg ||
        (qp->resp.msg && !(fl & qp->resp.msg)) ||
        ((fl & BTH_LAST) ? p->payload_len > qp->mtu : p->payload_len != qp->mtu)) {
        refuse(d, qp, p, AETH_NAK_INV_REQ, AE_IB_INVALID_REQUEST);
        return false;
    }
    /* What needs an RQ WQE (a SEND, a WRITE with immediate) waits (RNR) until one is there. */
    if (((fl & BTH_SEND) && (fl & BTH_FIRST)) || ((fl & BTH_WRITE) && (fl & BTH_HAS_IMM))) {
        if (!take_wqe(d, qp)) {
            send_ack(d, qp, AETH_RNR_NAK(RNR_TIMER_CODE), p->psn);
            return false;
        }
    }
    if (fl & BTH_FIRST) {
        qp->resp.msg = fl & (BTH_SEND | BTH_WRITE);
        qp->resp.off = 0;
        if (fl & BTH_WRITE) {
            /* IB C9-88: a zero-length WRITE checks neither R_Key nor VA. */
            MrAccess a = MR_ACCESS_OK;

            memset(&qp->resp.write, 0, sizeof(qp->resp.write));
            if (p->reth_len) {
                a = mr_resolve(d, p->reth_rkey, qp->pd, false, p->reth_va, p->reth_len,
                               MR_WANT_REMOTE_WRITE, &qp->resp.write);
            }

            if (a != MR_ACCESS_OK) {
                emu_trace(&d->host, TR_RQ_WRITE_REFUSED, "qp=%u rkey=0x%08x: %s", qp->id,
                          p->reth_rkey, mr_access_name(a));
                refuse(d, qp, p, AETH_NAK_REM_ACCESS, mr_access_ae(a));
                return false;
            }
            qp->resp.write_len = p->reth_len;
        }
    }
    return true;
}

/* Whether @len bytes at the message's offset fit its target, the last of them (@last: in a
 * LAST packet) ending a WRITE exactly. */
static bool rc_fits(const PeQp *qp, uint64_t len, bool last)
{
    if (qp->resp.msg == BTH_WRITE) {
        return len <= qp->resp.write_len - qp->resp.off &&
               (!last || qp->resp.off + len == qp->resp.write_len);
    }
    return len <= qp->resp.wqe.len - qp->resp.off;
}

/* Copy @len bytes of payload to the message's target at its offset; @done as mr_copy(). */
static MrAccess rc_copy(IrdmaDev *d, PeQp *qp, const uint8_t *buf, size_t len, size_t *done)
{
    if (qp->resp.msg == BTH_WRITE) {
        return mr_copy(d, &qp->resp.write, qp->resp.off, (void *)buf, len, true, done);
    }
    return mr_sgl_copy(d, qp->resp.wqe.sge, qp->resp.rg, qp->resp.wqe.nsge, qp->resp.off,
                       (void *)buf, len, true, done);
}

/* @p's payload is in place: the next PSN, the end of the message on its LAST, the ACK. */
static void rc_advance(IrdmaDev *d, PeQp *qp, const RocePkt *p)
{
    unsigned fl = rocev2_opcode_flags(p->opcode);
    QpCqe c = { 0 };

    qp->resp.off += p->payload_len;
    qp->resp.epsn = (qp->resp.epsn + 1) & ROCE_PSN_MASK;
    if (fl & BTH_LAST) {
        qp->resp.msn = (qp->resp.msn + 1) & 0xffffff;
        if (fl & BTH_HAS_IETH) {
            if (!invalidate(d, qp, p->ieth_rkey)) {
                refuse(d, qp, p, AETH_NAK_INV_REQ, AE_IB_INVALID_REQUEST);
                return;
            }
            c.stag_or_ipv4 = true;
            c.qw2_low = p->ieth_rkey;
        }
        if ((fl & BTH_SEND) || (fl & BTH_HAS_IMM)) {
            complete_recv(d, qp, p, qp->resp.off, &c);
        }
        qp->resp.msg = 0;
    }
    if ((fl & BTH_LAST) || p->ackreq) {
        send_ack(d, qp, AETH_ACK, p->psn);
    }
}

/* rc_advance() of @n MIDDLE packets in place from PSN @psn, AckReq of the k-th in bit k of
 * @ackreq: the offset and PSN move on at once, the ACKs asked for go in order. */
static void rc_advance_middles(IrdmaDev *d, PeQp *qp, uint32_t psn, unsigned n, uint64_t ackreq)
{
    qp->resp.off += (uint64_t)n * qp->mtu;
    qp->resp.epsn = (qp->resp.epsn + n) & ROCE_PSN_MASK;
    for (ackreq &= (1ull << n) - 1; ackreq; ackreq &= ackreq - 1) {
        send_ack(d, qp, AETH_ACK, psn + __builtin_ctzll(ackreq));
    }
}

/* Place @p's payload and go on, or refuse it if it does not fit or cannot be placed. */
static void rc_place(IrdmaDev *d, PeQp *qp, const RocePkt *p)
{
    bool last = rocev2_opcode_flags(p->opcode) & BTH_LAST;

    if (!rc_fits(qp, p->payload_len, last) ||
        rc_copy(d, qp, p->payload, p->payload_len, NULL) != MR_ACCESS_OK) {
        refuse(d, qp, p, AETH_NAK_INV_REQ, qp->resp.msg == BTH_WRITE ? AE_IB_INVALID_REQUEST :
                                                                      AE_DDP_MSG_TOO_LONG);
        return;
    }
    rc_advance(d, qp, p);
}

static void rc_rx(IrdmaDev *d, PeQp *qp, const RocePkt *p)
{
    unsigned fl = rocev2_opcode_flags(p->opcode);
    int32_t dist = psn_diff(p->psn, qp->resp.epsn);

    if (dist < 0) {
        if (fl & BTH_READ_REQ) {
            rc_read_request(d, qp, p, true);
        } else {
            send_ack(d, qp, AETH_ACK, qp->resp.epsn - 1);
        }
        return;
    }
    if (dist > 0) {
        if (!qp->resp.nak_sent) {
            qp->resp.nak_sent = true;
            send_ack(d, qp, AETH_NAK_PSN_SEQ, qp->resp.epsn);
        }
        return;
    }
    qp->resp.nak_sent = false;
    if (fl & BTH_READ_REQ) {
        rc_read_request(d, qp, p, false);
        return;
    }
    if (rc_accept(d, qp, p)) {
        rc_place(d, qp, p);
    }
}

unsigned rq_rx_run(IrdmaDev *d, PeQp *qp, const RocePkt *first, const RocePkt *last,
                   unsigned n, uint64_t ackreq)
{
    unsigned fl = rocev2_opcode_flags(last->opcode), k, mids;
    uint64_t len = (uint64_t)(n - 1) * qp->mtu + last->payload_len;
    size_t done;
    RocePkt p;

    /* Packets in sequence, of one path MTU each but the last (which rc_accept() checks for the
     * first, rc_place() for each as it goes) */
    if (!rq_ready(qp) || qp->type != QP_TYPE_ROCE_RC || first->psn != qp->resp.epsn ||
        first->payload_len != qp->mtu || last->payload_len > qp->mtu ||
        (!(fl & BTH_LAST) && last->payload_len != qp->mtu) ||
        (rocev2_opcode_flags(first->opcode) & (BTH_READ_REQ | BTH_LAST))) {
        return 0;
    }
    qp->resp.nak_sent = false;
    if (!rc_accept(d, qp, first)) {
        return 1;
    }
    /* All of it where it goes at once, then each packet's advance in turn; a packet that does
     * not fit, or whose placement fails, goes through rc_place() after those before it, as
     * packet by packet (placing what it can of it again). A MIDDLE of a WRITE or SEND is
     * p = *first with its own opcode, PSN, AckReq and payload: what rc_place() reads. */
    if (!rc_fits(qp, len, fl & BTH_LAST)) {
        rc_place(d, qp, first);
        return 1;
    }
    k = rc_copy(d, qp, first->payload, len, &done) == MR_ACCESS_OK ? n : done / qp->mtu;
    if (k) {
        rc_advance(d, qp, first);
    }
    mids = MIN(k, n - 1);
    if (mids > 1) {
        rc_advance_middles(d, qp, first->psn + 1, mids - 1, ackreq >> 1);
    }
    if (k == n) {
        rc_advance(d, qp, last);
        return n;
    }
    if (k == 0) {
        p = *first;
    } else if (k == n - 1) {
        p = *last;
    } else {
        p = *first;
        p.opcode = qp->resp.msg == BTH_WRITE ? BTH_RC_WRITE_MIDDLE : BTH_RC_SEND_MIDDLE;
        p.psn = (first->psn + k) & ROCE_PSN_MASK;
        p.ackreq = (ackreq >> k) & 1;
        p.payload += (size_t)k * qp->mtu;
    }
    rc_place(d, qp, &p);
    return k + 1;
}

static void ud_rx(IrdmaDev *d, PeQp *qp, const RocePkt *p)
{
    uint8_t grh[ROCE_GRH_LEN] = { 0 };
    uint64_t smac = 0;
    QpCqe c = { 0 };

    if (p->deth_qkey != qp->qkey || !take_wqe(d, qp) ||
        ROCE_GRH_LEN + p->payload_len > qp->resp.wqe.len) {
        emu_trace(&d->host, TR_RQ_UD_DROPPED, "qp=%u qkey=0x%08x (QP's 0x%08x) len=%zu", qp->id,
                  p->deth_qkey, qp->qkey, p->payload_len);
        return;
    }
    /* The GRH area: an IPv4 header sits in its last 20 bytes. */
    if (p->ipv4) {
        memcpy(grh + ROCE_GRH_LEN - 20, p->l3, 20);
    } else {
        memcpy(grh, p->l3, ROCE_GRH_LEN);
    }
    if (!scatter(d, qp, 0, grh, ROCE_GRH_LEN) ||
        !scatter(d, qp, ROCE_GRH_LEN, p->payload, p->payload_len)) {
        emu_trace(&d->host, TR_RQ_UD_UNREACHABLE, "qp=%u", qp->id);
        return;
    }
    for (int i = 0; i < 6; i++) {
        smac = smac << 8 | p->smac[i];
    }
    c.qw2_low = p->deth_sqpn;
    c.stag_or_ipv4 = p->ipv4;
    c.smac_valid = true;
    c.smac = smac;
    complete_recv(d, qp, p, ROCE_GRH_LEN + p->payload_len, &c);
}

void rq_rx(IrdmaDev *d, PeQp *qp, const RocePkt *p)
{
    if (!rq_ready(qp)) {
        emu_trace(&d->host, TR_RQ_RX_NOT_READY, "qp=%u opcode=0x%02x", qp->id, p->opcode);
        return;
    }
    if (qp->type == QP_TYPE_ROCE_UD) {
        ud_rx(d, qp, p);
    } else {
        rc_rx(d, qp, p);
    }
}

void rq_state_changed(IrdmaDev *d, PeQp *qp, unsigned prev)
{
    (void)d;
    if (qp->state == QP_STATE_IDLE && !qp->resp.valid) {
        qp->resp.valid = 1;                        /* the first pass over the ring */
    }
    if (qp->state == QP_STATE_RTR && prev == QP_STATE_IDLE) {
        qp->resp.epsn = pe_get(ld64(qp->ctx + QPC_QW11), QPC_EPSN);
    }
}

bool rq_flush(IrdmaDev *d, PeQp *qp)
{
    uint8_t raw[QP_WQ_QUANTUM << 3];
    uint32_t first = qp->resp.head;
    bool any = false;
    QpCqe c = {
        .ctx = qp->compl_ctx, .qp_id = qp->id, .error = true, .maj = qp->rq_flush_maj,
        .min = qp->rq_flush_min, .wqe_idx = first << qp->rq_wqe_shift,
    };

    for (uint32_t n = 0; n < rq_wqes(qp) && peek_wqe(d, qp, raw); n++) {
        any = true;
        advance(qp);
    }
    qp->resp.msg = 0;
    if (any) {
        if (!cq_post_qp(d, qp->rx_cq, &c)) {
            emu_trace(&d->host, TR_RQ_CQE_LOST, "qp=%u flush", qp->id);
        }
        emu_trace(&d->host, TR_RQ_FLUSHED, "qp=%u from wqe %u", qp->id, first);
    }
    return any;
}

void rq_release(IrdmaDev *d, PeQp *qp)
{
    if (qp->resp.read_ev) {
        emu_event_cancel(&d->events, qp->resp.read_ev);
        qp->resp.read_ev = NULL;
    }
    g_queue_clear_full(&qp->resp.reads, g_free);
}
