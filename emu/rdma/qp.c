/* qp.c - queue pairs (see qp.h). */
#include "rdma/qp.h"
#include "core/idcache.h"
#include "rdma/ceq.h"
#include "rdma/cq.h"
#include "rdma/cqp.h"
#include "core/fault.h"
#include "rdma/hmc.h"
#include "rdma/ltab.h"
#include "rdma/roce.h"
#include "rdma/rq.h"
#include "rdma/sq.h"
#include "rdma/stats.h"
#include "core/trace.h"
#include "rdma/ws.h"

#define QPC_ALIGN  8        /* the driver's is 256-aligned; the engine needs whole qwords */

struct PeQps {
    IrdmaDev *d;
    GHashTable *qps;           /* id -> PeQp * */
    IdCache cache;             /* in front of qps: every packet looks its QP up */
};

static void qp_free(gpointer data)
{
    PeQp *qp = data;

    sq_release(qp->d, qp);
    rq_release(qp->d, qp);
    g_free(qp);
}

PeQps *qp_block_new(IrdmaDev *d)
{
    PeQps *qps = g_new0(PeQps, 1);

    qps->d = d;
    qps->qps = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, qp_free);
    return qps;
}

void qp_block_free(PeQps *qps)
{
    if (!qps) {
        return;
    }
    g_hash_table_destroy(qps->qps);
    g_free(qps);
}

void qp_block_reset(PeQps *qps)
{
    g_hash_table_remove_all(qps->qps);
    idcache_clear(&qps->cache);
}

static PeQp *lookup(IrdmaDev *d, uint32_t id)
{
    return idcache_lookup(&d->qps->cache, d->qps->qps, id);
}

const PeQp *qp_lookup(IrdmaDev *d, uint32_t id)
{
    return lookup(d, id);
}

PeQp *qp_lookup_mut(IrdmaDev *d, uint32_t id)
{
    return lookup(d, id);
}

unsigned qp_count(IrdmaDev *d)
{
    return g_hash_table_size(d->qps->qps);
}

static const char *state_name(unsigned s)
{
    static const char *const names[] = { "RESET", "INIT", "RTS", "SQD", "RTR", "TERMINATE",
                                         "ERROR", "7" };

    return names[s & 7];
}

/* The existing QP a MODIFY/DESTROY/FLUSH names, with the QP type of the header checked when
 * @check_type; NULL with @r failed. */
static PeQp *wqe_qp(IrdmaDev *d, const CqpWqe *w, bool check_type, CqpResult *r)
{
    uint32_t id = pe_get(w->hdr, CQPWQE_QP_ID);
    PeQp *qp = lookup(d, id);

    if (!qp) {
        cqp_fail(r, CQP_MAJ_ERROR,
                 id >= hmc_obj_count(d, HMC_QP) ? CQP_MIN_BAD_ID : CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_QP_NONE, "qp=%u: no such QP", id);
        return NULL;
    }
    if (check_type && pe_get(w->hdr, CQPWQE_QP_TYPE) != qp->type) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
        emu_trace(&d->host, TR_ERR_QP_TYPE_MISMATCH, "qp=%u type=%u, WQE says %u", id, qp->type,
                  (unsigned)pe_get(w->hdr, CQPWQE_QP_TYPE));
        return NULL;
    }
    return qp;
}

/* A contiguous ring must start on a quantum and be reachable at both ends; a virtual one must
 * have its PBLEs in range and mapped. */
static bool ring_ok(IrdmaDev *d, const PeQueueMap *m, uint64_t bytes, CqpResult *r)
{
    uint64_t probe;
    HmcStatus st;

    if (!m->virt) {
        if (m->pa == 0 || m->pa % QP_WQ_QUANTUM || !pe_dma_read(d, m->pa, &probe, 8) ||
            !pe_dma_read(d, m->pa + bytes - 8, &probe, 8)) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
            return false;
        }
        return true;
    }
    st = hmc_queue_check(d, m, bytes);
    if (st != HMC_OK) {
        hmc_status_fail(st, r);
        return false;
    }
    return true;
}

/* The rings a host context describes, into @qp; false with @r failed. */
static bool parse_rings(IrdmaDev *d, const uint8_t *ctx, bool virt, PeQp *qp, CqpResult *r)
{
    uint64_t qw3 = ld64(ctx + QPC_QW3);
    uint64_t sq = ld64(ctx + QPC_SQADDR_OFF), rq = ld64(ctx + QPC_RQADDR_OFF);
    unsigned sq_enc = pe_get(qw3, QPC_SQSIZE), rq_enc = pe_get(qw3, QPC_RQSIZE);

    if (sq_enc > QP_WQ_SIZE_ENC_MAX || rq_enc > QP_WQ_SIZE_ENC_MAX) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_SIZE);
        return false;
    }
    if (virt && (sq > UINT32_MAX || rq > UINT32_MAX)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        return false;
    }
    qp->sq = (PeQueueMap) { .virt = virt, .pa = virt ? 0 : sq, .first_pble = virt ? sq : 0 };
    qp->rq = (PeQueueMap) { .virt = virt, .pa = virt ? 0 : rq, .first_pble = virt ? rq : 0 };
    qp->sq_quanta = 4u << sq_enc;
    qp->rq_quanta = 4u << rq_enc;
    qp->rq_wqe_shift = pe_get(ld64(ctx + QPC_QW0), QPC_RQWQESIZE);
    return ring_ok(d, &qp->sq, (uint64_t)qp->sq_quanta * QP_WQ_QUANTUM, r) &&
           ring_ok(d, &qp->rq, (uint64_t)qp->rq_quanta * QP_WQ_QUANTUM, r);
}

/* The host context a QP WQE names, into @ctx; false with @r failed. */
static bool read_ctx(IrdmaDev *d, const CqpWqe *w, uint8_t ctx[QPC_SIZE], CqpResult *r)
{
    uint64_t pa = cqp_qw(w, CQPWQE_QP_CTX_OFF);

    if (pa == 0 || pa % QPC_ALIGN || !pe_dma_read(d, pa, ctx, QPC_SIZE)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
        emu_trace(&d->host, TR_ERR_QP_CTX_UNREACHABLE, "qp=%u ctx=0x%" G_GINT64_MODIFIER "x",
                  (unsigned)pe_get(w->hdr, CQPWQE_QP_ID), pa);
        return false;
    }
    return true;
}

/* An IP address of the context: IPv4 in [31:0] of the qword at @off23, IPv6 as words 0,1 at
 * @off01 and 2,3 at @off23 (each [63:32], [31:0]). */
static void ctx_ip(const uint8_t *ctx, bool ipv4, unsigned off01, unsigned off23, uint8_t out[16])
{
    uint64_t q01 = ld64(ctx + off01), q23 = ld64(ctx + off23);
    uint32_t w[4] = { q01 >> 32, (uint32_t)q01, q23 >> 32, (uint32_t)q23 };

    if (ipv4) {
        w[0] = (uint32_t)q23;
    }
    roce_ip_bytes(ipv4, w, out);
}

/* What the transport needs from a context: the remote end, the path MTU, retry counts. */
static void take_transport(IrdmaDev *d, const uint8_t *ctx, PeQp *qp)
{
    uint64_t qw0 = ld64(ctx + QPC_QW0), qw3 = ld64(ctx + QPC_QW3), qw6 = ld64(ctx + QPC_QW6);
    uint64_t qw16 = ld64(ctx + QPC_QW16), dmac = 0;
    RoceAv *av = &qp->av;
    unsigned mss = pe_get(qw6, QPC_SNDMSS);

    memset(av, 0, sizeof(*av));
    if (qp->type == QP_TYPE_ROCE_RC && !cqp_arp_lookup(d, qp->arp_idx, &dmac)) {
        emu_trace(&d->host, TR_QP_NO_ARP, "qp=%u arp_idx=%u", qp->id, qp->arp_idx);
    }
    roce_mac_bytes(dmac, av->dmac);
    roce_mac_bytes(qp->src_mac, av->smac);
    av->ipv4 = qw0 & QPC_IPV4;
    av->vlan = qw0 & QPC_INSERTVLANTAG;
    av->vlan_tci = pe_get(qw6, QPC_VLANTAG);
    ctx_ip(ctx, av->ipv4, QPC_DESTIP01_OFF, QPC_DESTIP23_OFF, av->dip);
    ctx_ip(ctx, av->ipv4, QPC_LOCALIP01_OFF, QPC_LOCALIP23_OFF, av->sip);
    av->tos = pe_get(qw3, QPC_TOS);
    av->ttl = pe_get(qw3, QPC_TTL);
    av->flow_label = pe_get(ld64(ctx + QPC_QW7), QPC_FLOWLABEL);
    av->sport = pe_get(qw3, QPC_SRCPORT);
    av->stats_inst = ld64(ctx + QPC_QW20) & QPC_USESTATSINSTANCE ?
                     pe_get(ld64(ctx + QPC_QW18), QPC_STAT_INDEX) : STATS_INST_FN;
    qp->dest_qpn = pe_get(ld64(ctx + QPC_QW8), QPC_DESTQP);
    qp->qkey = pe_get(ld64(ctx + QPC_QW8), QPC_QKEY);
    /* SNDMSS is the path MTU; the engine carries 256..4096-byte payloads. */
    qp->mtu = mss < 256 ? 256 : mss > ROCE_MTU_MAX ? ROCE_MTU_MAX : mss;
    qp->priv = ld64(ctx + QPC_QW20) & QPC_PRIVEN;
    qp->retry_cnt = pe_get(qw16, QPC_REXMIT_THRESH);
    qp->rnr_retry = pe_get(qw16, QPC_RNRNAK_THRESH);
}

/* The context fields every CREATE/MODIFY takes, the ones behind a WQE valid bit only with it.
 * Validates what names another object; false with @r failed and @qp untouched. */
static bool take_ctx(IrdmaDev *d, const CqpWqe *w, const uint8_t *ctx, PeQp *qp, CqpResult *r)
{
    uint64_t qw0 = ld64(ctx + QPC_QW0), qw17 = ld64(ctx + QPC_QW17);
    uint32_t tx_cq = pe_get(qw17, QPC_TXCQNUM), rx_cq = pe_get(qw17, QPC_RXCQNUM);
    uint16_t arp = pe_get(ld64(ctx + QPC_QW6), QPC_ARPIDX);

    if (w->hdr & CQPWQE_QP_CQNUMVALID) {
        /* Not the CCQ: its completions belong to the CQP. */
        if (tx_cq == CQ_ID_CCQ || rx_cq == CQ_ID_CCQ || !cq_exists(d, tx_cq) ||
            !cq_exists(d, rx_cq)) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
            emu_trace(&d->host, TR_ERR_QP_BAD_CQ, "qp=%u tx_cq=%u rx_cq=%u", qp->id, tx_cq, rx_cq);
            return false;
        }
    }
    if ((w->hdr & CQPWQE_QP_ARPTABIDXVALID) && arp >= hmc_obj_count(d, HMC_ARP)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        emu_trace(&d->host, TR_ERR_QP_BAD_ARP_IDX, "qp=%u arp_idx=%u", qp->id, arp);
        return false;
    }
    /* A push page must have been handed out by MANAGE_PUSH_PAGES. */
    if ((qw0 & QPC_PMENA) && !ltab_push_page_allocated(d, pe_get(qw0, QPC_PPIDX))) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_QP_NO_PUSH_PAGE, "qp=%u push_idx=%u", qp->id,
                  (unsigned)pe_get(qw0, QPC_PPIDX));
        return false;
    }
    if ((ld64(ctx + QPC_QW20) & QPC_USESTATSINSTANCE) &&
        !stats_inst_allocated(d, pe_get(ld64(ctx + QPC_QW18), QPC_STAT_INDEX))) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        emu_trace(&d->host, TR_ERR_QP_BAD_STATS_INST, "qp=%u", qp->id);
        return false;
    }
    if (w->hdr & CQPWQE_QP_CQNUMVALID) {
        qp->tx_cq = tx_cq;
        qp->rx_cq = rx_cq;
    }
    if (w->hdr & CQPWQE_QP_ARPTABIDXVALID) {
        qp->arp_idx = arp;
    }
    if (w->hdr & CQPWQE_QP_MACVALID) {
        qp->src_mac = pe_get(ld64(ctx + QPC_MAC_OFF), QPC_MACADDRESS);
    }
    if (w->hdr & CQPWQE_QP_ORDVALID) {
        qp->ord = pe_get(ld64(ctx + QPC_QW20), QPC_ORDSIZE);
    }
    qp->pd = pe_get(ld64(ctx + QPC_QW7), QPC_PDIDX) | (pe_get(qw0, QPC_PDIDXHI) << 16);
    take_transport(d, ctx, qp);
    qp->qs_handle = pe_get(ld64(ctx + QPC_QW22), QPC_QSHANDLE);
    qp->compl_ctx = ld64(ctx + QPC_COMPL_CTX_OFF);
    qp->ctx_pa = cqp_qw(w, CQPWQE_QP_CTX_OFF);
    memcpy(qp->ctx, ctx, QPC_SIZE);
    return true;
}

/* Post an AEQE about @qp with IWSTATE @state. */
/* An AEQE with what its trace says (a fault-plan delay keeps it for later). */
typedef struct AePost {
    AeqEntry e;
    uint32_t qp;
    uint16_t code;
    uint8_t src;
} AePost;
G_STATIC_ASSERT(sizeof(AePost) <= FAULT_DEFERRED_MAX);

static void aeq_post(IrdmaDev *d, const AePost *a)
{
    bool ok = eqs_aeq_post(d, &a->e);

    emu_trace(&d->host, TR_QP_AE, "qp=%u ae=0x%03x src=%u %s", a->qp, a->code, a->src,
              ok ? "posted" : "dropped");
}

static void aeq_post_deferred(IrdmaDev *d, const void *payload)
{
    aeq_post(d, payload);
}

static void post_ae(IrdmaDev *d, const PeQp *qp, unsigned code, unsigned src, unsigned state)
{
    const FaultAction *fa = fault_check(d, FAULT_ON_AE, code, qp->id);
    AePost a = { .qp = qp->id, .code = code, .src = src };

    if (fa && fa->kind == FAULT_CORRUPT) {
        a.code = fa->field == FAULT_FIELD_CODE ? fa->value : a.code;
        a.qp = fa->field == FAULT_FIELD_QP ? fa->value : a.qp;
        state = fa->field == FAULT_FIELD_STATE ? fa->value : state;
    }
    a.e = (AeqEntry) {
        .ctx = qp->compl_ctx,
        .info = pe_prep(AEQE_QPCQID_LOW, a.qp) | pe_prep(AEQE_QPCQID_HI, a.qp >> 18) |
                pe_prep(AEQE_AECODE, a.code) | pe_prep(AEQE_AESRC, src) |
                pe_prep(AEQE_IWSTATE, state),
    };
    switch (fa ? fa->kind : FAULT_NONE) {
    case FAULT_DROP:
        emu_trace(&d->host, TR_QP_AE, "qp=%u ae=0x%03x src=%u dropped by the fault plan",
                  qp->id, code, src);
        return;
    case FAULT_DELAY:
        fault_defer(d, fa, aeq_post_deferred, &a, sizeof(a));
        return;
    case FAULT_DUPLICATE:
        aeq_post(d, &a);
        break;
    default:
        break;
    }
    aeq_post(d, &a);
}

void qp_fault_ae(IrdmaDev *d, uint32_t id, unsigned code)
{
    const PeQp *qp = lookup(d, id);

    if (!qp) {
        emu_trace(&d->host, TR_QP_FAULT_AE_NO_QP, "qp=%u ae=0x%03x: no such QP", id, code);
        return;
    }
    post_ae(d, qp, code, AE_SOURCE_RSVD, qp->state);
}

void qp_ae(IrdmaDev *d, PeQp *qp, unsigned code, unsigned src, bool fatal)
{
    if (fatal) {
        qp->state = QP_STATE_ERROR;
    }
    post_ae(d, qp, code, src, qp->state);
}

/* IWSTATE of a suspend-complete AE: RTS for SQD, as irdma copies it into hw_iwarp_state and
 * rings doorbells only up to RTS. */
static unsigned drained_state(const PeQp *qp)
{
    return qp->state == QP_STATE_SQD ? QP_STATE_RTS : qp->state;
}

void qp_sq_drained(IrdmaDev *d, PeQp *qp)
{
    uint64_t now = d->host.ops->clock_ns(d->host.opaque);

    for (; qp->drain_aes; qp->drain_aes--) {
        post_ae(d, qp, AE_QP_SUSPEND_COMPLETE, AE_SOURCE_RSVD, drained_state(qp));
        d->qp_suspend_aes++;
        timing_stat_add(&d->suspend_latency, now - qp->drain_posted_ns);
    }
}

/* SQD or SUSPEND (CQP WQE @w): one suspend-complete AE, now if nothing is in flight, else when
 * the requester has drained. */
static void owe_drain_ae(IrdmaDev *d, PeQp *qp, const CqpWqe *w)
{
    d->qp_suspends++;
    if (!qp->drain_aes) {
        qp->drain_posted_ns = cqp_wqe_posted_at(d, w);
    }
    qp->drain_aes++;
    if (!sq_busy(qp)) {
        qp_sq_drained(d, qp);
    }
}

static void op_create_qp(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    uint32_t id = pe_get(w->hdr, CQPWQE_QP_ID);
    unsigned type = pe_get(w->hdr, CQPWQE_QP_TYPE), next = pe_get(w->hdr, CQPWQE_QP_NEXTSTATE);
    uint64_t shadow = cqp_qw(w, CQPWQE_QP_SHADOW_OFF), probe, ctx_gpa;
    uint8_t ctx[QPC_SIZE];
    HmcStatus st;
    PeQp *qp;

    /* The QP's own context lives in HMC: its SD must be programmed. */
    st = hmc_obj_gpa(d, HMC_QP, id, &ctx_gpa);
    if (st != HMC_OK) {
        hmc_status_fail(st, r);
        emu_trace(&d->host, TR_ERR_QP_CREATE_NO_HMC, "qp=%u", id);
        return;
    }
    if (lookup(d, id)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_QP_CREATE_EXISTS, "qp=%u", id);
        return;
    }
    /* RoCE only; a QP starts in INIT with its CQs named; TCP context is iWARP's. */
    if ((type != QP_TYPE_ROCE_RC && type != QP_TYPE_ROCE_UD) || next != QP_STATE_IDLE ||
        !(w->hdr & CQPWQE_QP_CQNUMVALID) || (w->hdr & CQPWQE_QP_TOECTXVALID)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
        emu_trace(&d->host, TR_ERR_QP_CREATE_BAD_FIELD, "qp=%u type=%u next=%u hdr=0x%016"
                  G_GINT64_MODIFIER "x", id, type, next, w->hdr);
        return;
    }
    if (shadow == 0 || shadow % 8 || !pe_dma_read(d, shadow, &probe, 8)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
        emu_trace(&d->host, TR_ERR_QP_CREATE_BAD_SHADOW, "qp=%u", id);
        return;
    }
    if (!read_ctx(d, w, ctx, r)) {
        return;
    }
    qp = g_new0(PeQp, 1);
    *qp = (PeQp) { .d = d, .id = id, .type = type, .shadow_pa = shadow, .tx_cq = QP_NO_CQ,
                   .rx_cq = QP_NO_CQ };
    if (!parse_rings(d, ctx, w->hdr & CQPWQE_QP_VQ, qp, r)) {
        emu_trace(&d->host, TR_ERR_QP_CREATE_BAD_RINGS, "qp=%u", id);
        g_free(qp);
        return;
    }
    if (!take_ctx(d, w, ctx, qp, r)) {
        g_free(qp);
        return;
    }
    qp->state = QP_STATE_IDLE;
    TAILQ_INIT(&qp->req.ops);
    sq_state_changed(d, qp, QP_STATE_INVALID);
    rq_state_changed(d, qp, QP_STATE_INVALID);
    g_hash_table_insert(d->qps->qps, GUINT_TO_POINTER(id), qp);
    idcache_forget(&d->qps->cache, id);
    emu_trace(&d->host, TR_QP_CREATE, "qp=%u %s sq=%u rq=%u quanta %s cq=%u/%u pd=%u qs=%u",
              id, type == QP_TYPE_ROCE_RC ? "RC" : "UD", qp->sq_quanta, qp->rq_quanta,
              qp->sq.virt ? "virtual" : "contiguous", qp->tx_cq, qp->rx_cq, qp->pd,
              qp->qs_handle);
}

static bool same_map(const PeQueueMap *a, const PeQueueMap *b)
{
    return a->virt == b->virt && a->pa == b->pa && a->first_pble == b->first_pble;
}

static bool transition_ok(unsigned from, unsigned to)
{
    switch (to) {
    case QP_STATE_IDLE:
        return from == QP_STATE_IDLE;
    case QP_STATE_RTR:
        return from == QP_STATE_IDLE;
    case QP_STATE_RTS:
        return from == QP_STATE_RTR || from == QP_STATE_RTS || from == QP_STATE_SQD;
    case QP_STATE_SQD:
        return from == QP_STATE_RTS || from == QP_STATE_SQD;
    case QP_STATE_ERROR:
        return true;
    default:
        return false;           /* RESET is not a target; TERMINATE is iWARP's */
    }
}

static void op_modify_qp(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeQp *qp = wqe_qp(d, w, true, r);
    PeQp rings;
    unsigned next = pe_get(w->hdr, CQPWQE_QP_NEXTSTATE), prev;
    uint8_t ctx[QPC_SIZE];

    if (!qp) {
        return;
    }
    if (w->hdr & (CQPWQE_QP_TOECTXVALID | CQPWQE_QP_CACHEDVARVALID)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
        emu_trace(&d->host, TR_ERR_QP_MODIFY_BAD_FIELD, "qp=%u: iWARP context bits", qp->id);
        return;
    }
    if (!transition_ok(qp->state, next)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_QP_MODIFY_BAD_TRANSITION, "qp=%u %s -> %s", qp->id,
                  state_name(qp->state), state_name(next));
        return;
    }
    if (!read_ctx(d, w, ctx, r)) {
        return;
    }
    /* The rings are the device's from create on: a context moving them is refused. */
    rings = *qp;
    if (!parse_rings(d, ctx, w->hdr & CQPWQE_QP_VQ, &rings, r)) {
        emu_trace(&d->host, TR_ERR_QP_MODIFY_BAD_RINGS, "qp=%u", qp->id);
        return;
    }
    if (!same_map(&rings.sq, &qp->sq) || !same_map(&rings.rq, &qp->rq) ||
        rings.sq_quanta != qp->sq_quanta || rings.rq_quanta != qp->rq_quanta ||
        rings.rq_wqe_shift != qp->rq_wqe_shift) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
        emu_trace(&d->host, TR_ERR_QP_MODIFY_RINGS_MOVED, "qp=%u", qp->id);
        return;
    }
    if (!take_ctx(d, w, ctx, qp, r)) {
        return;
    }
    prev = qp->state;
    qp->state = next;
    emu_trace(&d->host, TR_QP_MODIFY, "qp=%u %s -> %s dest_qp=%u qs=%u", qp->id,
              state_name(prev), state_name(next),
              (unsigned)pe_get(ld64(ctx + QPC_QW8), QPC_DESTQP), qp->qs_handle);
    rq_state_changed(d, qp, prev);
    sq_state_changed(d, qp, prev);
    if (next == QP_STATE_SQD) {
        owe_drain_ae(d, qp, w);
    }
}

static void op_destroy_qp(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeQp *qp = wqe_qp(d, w, true, r);
    uint32_t id;

    if (!qp) {
        return;
    }
    id = qp->id;
    emu_trace(&d->host, TR_QP_DESTROY, "qp=%u in %s", id, state_name(qp->state));
    /* A suspend still waiting for the SQ to drain completes as the QP goes: irdma counts an
     * AE per SUSPEND during a TC change, and takes one for a freed QP (irdma_process_aeq). */
    if (qp->drain_aes) {
        emu_trace(&d->host, TR_QP_DESTROY_SUSPENDED, "qp=%u: %u suspend AEs owed", id,
                  qp->drain_aes);
        qp_sq_drained(d, qp);
    }
    g_hash_table_remove(d->qps->qps, GUINT_TO_POINTER(id));
    idcache_forget(&d->qps->cache, id);
}

/* FLUSH_WQES, and GEN_AE (the same opcode with GENERATE_AE and no queue selected). */
static void op_flush_wqes(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeQp *qp = wqe_qp(d, w, false, r);
    bool sq = w->hdr & CQPWQE_FLUSH_SQ, rq = w->hdr & CQPWQE_FLUSH_RQ;
    bool gen_ae = w->hdr & CQPWQE_FLUSH_GENERATE_AE;
    uint64_t codes = cqp_qw(w, CQPWQE_FLUSH_CODES_OFF), ae = cqp_qw(w, CQPWQE_FLUSH_AE_OFF);
    bool user = w->hdr & CQPWQE_FLUSH_USERFLCODE;

    if (!qp) {
        return;
    }
    if (!sq && !rq && !gen_ae) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
        emu_trace(&d->host, TR_QP_FLUSH_NOTHING, "qp=%u: no queue, no AE", qp->id);
        return;
    }
    if ((sq || rq) && qp->state != QP_STATE_ERROR) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_QP_FLUSH_NOT_ERROR, "qp=%u in %s", qp->id, state_name(qp->state));
        return;
    }
    if (sq) {
        qp->flush_sq = true;
        qp->sq_flush_maj = user ? pe_get(codes, CQPWQE_FLUSH_SQMJERR) : 0;
        qp->sq_flush_min = user ? pe_get(codes, CQPWQE_FLUSH_SQMNERR) : 0;
    }
    if (rq) {
        qp->flush_rq = true;
        qp->rq_flush_maj = user ? pe_get(codes, CQPWQE_FLUSH_RQMJERR) : 0;
        qp->rq_flush_min = user ? pe_get(codes, CQPWQE_FLUSH_RQMNERR) : 0;
    }
    /* One flush CQE per queue that holds WQEs; the minor code says which did. */
    {
        bool sq_done = sq && sq_flush(d, qp), rq_done = rq && rq_flush(d, qp);

        r->min = sq_done && rq_done ? CQP_MIN_BOTH_FLUSHED : sq_done ? CQP_MIN_SQ_WQE_FLUSHED :
                 rq_done ? CQP_MIN_RQ_WQE_FLUSHED : CQP_MIN_NOTHING_FLUSHED;
    }
    if (sq || rq) {
        emu_trace(&d->host, TR_QP_FLUSH, "qp=%u sq=%d rq=%d codes=0x%016" G_GINT64_MODIFIER "x",
                  qp->id, sq, rq, user ? codes : 0);
    }
    if (gen_ae) {
        post_ae(d, qp, pe_get(ae, CQPWQE_FLUSH_AECODE), pe_get(ae, CQPWQE_FLUSH_AESOURCE),
                qp->state);
    }
}

/* SUSPEND_QP: fetch no new SQ WQE, keep every WQE and PSN; messages on the wire finish. AE
 * 0x900 follows once the SQ has drained, for a QP in any state and again for one already
 * suspended (irdma counts one AE per SUSPEND). */
static void op_suspend_qp(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeQp *qp = wqe_qp(d, w, false, r);

    if (!qp) {
        return;
    }
    emu_trace(&d->host, TR_QP_SUSPEND, "qp=%u in %s%s", qp->id, state_name(qp->state),
              qp->suspended ? " (again)" : "");
    qp->suspended = true;
    owe_drain_ae(d, qp, w);
}

/* RESUME_QP: rebind to the qs_handle of the WQE (a WS leaf) and let the SQ run again; the
 * data path rescans the SQ for doorbells rung while suspended. */
static void op_resume_qp(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeQp *qp = wqe_qp(d, w, false, r);
    uint64_t qs = pe_get(cqp_qw(w, CQPWQE_RESUME_QS_OFF), CQPWQE_RESUME_QSHANDLE);

    if (!qp) {
        return;
    }
    if (qs >= WS_NODES_MAX || !ws_qs_handle_leaf(d, qs)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        emu_trace(&d->host, TR_ERR_QP_RESUME_BAD_QS, "qp=%u qs_handle=%" G_GINT64_MODIFIER
                  "u is no WS leaf", qp->id, qs);
        return;
    }
    if (!qp->suspended) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_QP_RESUME_NOT_SUSPENDED, "qp=%u", qp->id);
        return;
    }
    qp->suspended = false;
    qp->qs_handle = qs;
    d->qp_resumes++;
    timing_stat_add(&d->resume_latency,
                    d->host.ops->clock_ns(d->host.opaque) - cqp_wqe_posted_at(d, w));
    emu_trace(&d->host, TR_QP_RESUME, "qp=%u qs=%u in %s", qp->id, qp->qs_handle,
              state_name(qp->state));
    sq_state_changed(d, qp, qp->state);
}

static const CqpOp qp_ops[] = {
    { CQP_OP_CREATE_QP, "CREATE_QP", op_create_qp, CQP_OBJ_QP },
    { CQP_OP_MODIFY_QP, "MODIFY_QP", op_modify_qp, CQP_OBJ_QP },
    { CQP_OP_DESTROY_QP, "DESTROY_QP", op_destroy_qp, CQP_OBJ_QP },
    { CQP_OP_FLUSH_WQES, "FLUSH_WQES", op_flush_wqes, CQP_OBJ_QP },
    { CQP_OP_SUSPEND_QP, "SUSPEND_QP", op_suspend_qp, CQP_OBJ_QP },
    { CQP_OP_RESUME_QP, "RESUME_QP", op_resume_qp, CQP_OBJ_QP },
};

const CqpOpTable qp_cqp_ops = { qp_ops, G_N_ELEMENTS(qp_ops) };
