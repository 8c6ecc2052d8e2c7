/* sq.c - the requester (see sq.h). */
#include "rdma/sq.h"
#include "core/fault.h"
#include "rdma/ah.h"
#include "rdma/cq.h"
#include "rdma/cqp.h"
#include "rdma/hmc.h"
#include "rdma/pe_regs.h"
#include "rdma/roce.h"
#include "rdma/stats.h"
#include "core/trace.h"
#include "port/wire.h"

#define SQ_RUN_BUDGET     256      /* WQEs or packets per run before yielding to the host */
#define SQ_WINDOW_PKTS    512      /* unacknowledged packets per QP */
#define SQ_ACKREQ_EVERY   64       /* AckReq on every Nth packet of a long message */
#define SQ_RNR_INFINITE   7
#define SQ_WIRE_AHEAD_NS  20000    /* model timing: how far the SQs may fill the wire ahead */

typedef struct SqOp {
    SqWqe w;                       /* written by sq_wqe_decode() at fetch */
    MrRange rg[WQE_FRAGS_MAX];     /* the SGEs, resolved at fetch (the first w.nsge) */
    /* From here on an op starts zeroed (op_new()). */
    uint32_t wqe_idx;              /* quanta index of the WQE */
    uint32_t first_psn, npkts;     /* RC: the PSNs of the message (a READ: its responses) */
    uint32_t sent;                 /* packets sent (a READ: 1 once its request is out) */
    uint64_t read_done;            /* READ: bytes placed */
    uint64_t done_at;              /* UD: its packet has left (model timing) */
    bool read_gap;                 /* READ: asked again after a lost response; later ones of
                                    * the old answer are ignored until the new one starts */
    bool done;
    bool cqe_twice;                /* the fault plan's duplicate: its CQE is written twice */
    TAILQ_ENTRY(SqOp) link;        /* in the QP's ops */
} SqOp;

static bool is_rc(const PeQp *qp)
{
    return qp->type == QP_TYPE_ROCE_RC;
}

static bool is_read(const SqOp *op)
{
    return op->w.op == SQ_OP_RDMA_READ || op->w.op == SQ_OP_RDMA_READ_LOC_INV;
}

static uint32_t last_psn(const SqOp *op)
{
    return (op->first_psn + op->npkts - 1) & ROCE_PSN_MASK;
}

static void write_shadow(IrdmaDev *d, PeQp *qp)
{
    uint64_t v;

    st64(&v, pe_prep(QP_SHADOW_SQ_TAIL, qp->req.head));
    if (!pe_dma_write(d, qp->shadow_pa, &v, 8)) {
        emu_trace(&d->host, TR_SQ_SHADOW_DMA_ERROR, "qp=%u", qp->id);
    }
}

static void run(void *arg);

/* Run the SQ engine for @qp @delay_ns from now (or when it is already due). */
static void kick_after(IrdmaDev *d, PeQp *qp, uint64_t delay_ns)
{
    if (!qp->req.run_ev) {
        qp->req.run_ev = emu_event_schedule(&d->events, delay_ns, run, qp);
    }
}

static void kick(IrdmaDev *d, PeQp *qp)
{
    kick_after(d, qp, 0);
}

/* Model timing: how long until @qp's engine may send again, from one reading of the clock:
 * until the wire has room (the SQs keep it busy SQ_WIRE_AHEAD_NS ahead, not more: hardware
 * fetches no faster than its port drains), and until its pace (qp_mbps) lets it issue payload.
 * Inline timing never waits, and reads no clock. */
static uint64_t send_wait_ns(IrdmaDev *d, const PeQp *qp)
{
    uint64_t now, backlog;

    if (d->timing.mode != TIMING_MODEL) {
        return 0;
    }
    now = d->host.ops->clock_ns(d->host.opaque);
    backlog = timing_wire_backlog_ns(&d->timing, now);
    return MAX(backlog > SQ_WIRE_AHEAD_NS ? backlog - SQ_WIRE_AHEAD_NS : 0,
               timing_qp_wait_ns(&d->timing, &qp->req.pace, now));
}

/* Out of budget, wire or pace: the engine comes back when there is room and time. */
static bool may_send(IrdmaDev *d, const PeQp *qp, unsigned *budget)
{
    if (*budget && send_wait_ns(d, qp)) {
        *budget = 0;
    }
    return *budget != 0;
}

/* @qp's engine issued a packet of @len payload bytes (model timing: its pace). */
static void paced(IrdmaDev *d, PeQp *qp, size_t len)
{
    if (d->timing.mode == TIMING_MODEL) {
        timing_qp_issue(&d->timing, &qp->req.pace, d->host.ops->clock_ns(d->host.opaque), len);
    }
}

/* The QP doorbell: @val is the QP id. */
static void doorbell(IrdmaDev *d, uint32_t val)
{
    PeQp *qp = qp_lookup_mut(d, val & ROCE_QPN_MASK);

    if (!qp) {
        emu_trace(&d->host, TR_ERR_SQ_DOORBELL_NO_QP, "qp=%u", val);
        return;
    }
    if (d->timing.mode == TIMING_MODEL) {
        kick_after(d, qp, timing_sq_fetch_ns(&d->timing));
        return;
    }
    /* Inline timing: run now, in the doorbell write, and let what the run sent to this port
     * itself arrive too. Under TCG that keeps a ping-pong off QEMU's main loop, which
     * competes for the host CPUs with the vCPUs polling their CQs. */
    if (qp->req.run_ev) {
        emu_event_cancel(&d->events, qp->req.run_ev);
    }
    run(qp);
    wire_drain(d);
}

static void wqealloc_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    (void)r;
    (void)idx;
    doorbell(blk, val & PFPE_WQEALLOC_QPID_M);
}

/* The QP doorbell: the kernel's, and the user doorbell page's copy. */
static const EmuReg sq_regs[] = {
    { .name = "PFPE_WQEALLOC", .base = PFPE_WQEALLOC, .wmask = ~0u, .write = wqealloc_write },
    { .name = "PE_UDB_WQEALLOC", .base = PE_UDB_WQEALLOC, .wmask = ~0u,
      .write = wqealloc_write },
};

void sq_block_init(IrdmaDev *d)
{
    emu_regfile_add(d->regs, sq_regs, G_N_ELEMENTS(sq_regs), d);
}

/* --- completions --- */

static void write_cqe(IrdmaDev *d, PeQp *qp, uint32_t wqe_idx, uint8_t op, bool error,
                      uint16_t maj, uint16_t min)
{
    QpCqe c = {
        .ctx = qp->compl_ctx, .qp_id = qp->id, .sq = true, .op = op, .wqe_idx = wqe_idx,
        .error = error, .maj = maj, .min = min,
    };

    if (!cq_post_qp(d, qp->tx_cq, &c)) {
        emu_trace(&d->host, TR_SQ_CQE_LOST, "qp=%u wqe=%u", qp->id, wqe_idx);
    }
    qp->req.unreported = false;
}

/* A new SqOp, zeroed from wqe_idx on (the fetch writes the WQE and its SGEs before any use):
 * a spare one if the QP has one. A streaming QP allocates none. */
static SqOp *op_new(PeQp *qp)
{
    SqOp *op = spares_take(&qp->req.spare, sizeof(*op));

    memset(&op->wqe_idx, 0, sizeof(*op) - offsetof(SqOp, wqe_idx));
    return op;
}

/* @op (in no queue) is done with. */
static void op_free(PeQp *qp, SqOp *op)
{
    spares_give(&qp->req.spare, op);
}

/* Drop every WQE fetched. */
static void ops_clear(PeQp *qp)
{
    SqOp *op;

    while ((op = TAILQ_FIRST(&qp->req.ops))) {
        TAILQ_REMOVE(&qp->req.ops, op, link);
        op_free(qp, op);
    }
    qp->req.unsent = NULL;
}

/* Complete the done WQEs at the front, in order. */
static void complete_front(IrdmaDev *d, PeQp *qp)
{
    uint64_t now = 0;
    SqOp *op;

    while ((op = TAILQ_FIRST(&qp->req.ops)) && op->done) {
        /* Only a UD send under model timing can be done later than now: the clock is read
         * for such an op only. */
        if (op->done_at > now && op->done_at > (now = d->host.ops->clock_ns(d->host.opaque))) {
            kick_after(d, qp, op->done_at - now);
            break;
        }
        TAILQ_REMOVE(&qp->req.ops, op, link);
        if (qp->req.unsent == op) {
            qp->req.unsent = NULL;
        }
        if (op->w.signaled) {
            write_cqe(d, qp, op->wqe_idx, op->w.op, false, 0, 0);
            if (op->cqe_twice) {
                write_cqe(d, qp, op->wqe_idx, op->w.op, false, 0, 0);
            }
        } else {
            qp->req.unreported = true;
        }
        emu_trace(&d->host, TR_SQ_COMPLETE, "qp=%u wqe=%u op=0x%02x%s", qp->id, op->wqe_idx,
                  op->w.op, op->w.signaled ? "" : " (unsignaled)");
        op_free(qp, op);
    }
    if (TAILQ_EMPTY(&qp->req.ops) && qp->drain_aes) {
        qp_sq_drained(d, qp);
    }
}

/* The RNR wait, if one is on, ends. */
static void rnr_wait_end(IrdmaDev *d, PeQp *qp)
{
    if (qp->req.rnr_ev) {
        emu_event_cancel(&d->events, qp->req.rnr_ev);
        qp->req.rnr_ev = NULL;
    }
}

/* No retransmission timer and no RNR wait any more. */
static void timers_stop(IrdmaDev *d, PeQp *qp)
{
    qp->req.rto_running = false;
    if (qp->req.rto_ev) {
        emu_event_cancel(&d->events, qp->req.rto_ev);
        qp->req.rto_ev = NULL;
    }
    rnr_wait_end(d, qp);
}

/* The QP cannot go on: the AE tells irdma why (it moves the QP to ERROR and flushes). */
static void fail(IrdmaDev *d, PeQp *qp, unsigned ae, const char *why)
{
    emu_trace(&d->host, TR_SQ_FAIL, "qp=%u ae=0x%03x: %s", qp->id, ae, why);
    timers_stop(d, qp);
    qp_ae(d, qp, ae, AE_SOURCE_SQ, true);
}

/* --- data movement --- */

/* Copy @len bytes at message offset @off between @buf and the op's SGEs (or inline data). */
static MrAccess sge_copy(IrdmaDev *d, SqOp *op, uint64_t off, uint8_t *buf, size_t len,
                         bool to_guest)
{
    if (op->w.inline_data) {
        memcpy(buf, op->w.inline_buf + off, len);
        return MR_ACCESS_OK;
    }
    return mr_sgl_copy(d, op->w.sge, op->rg, op->w.nsge, off, buf, len, to_guest, NULL);
}

/* Resolve every SGE for @want; false with the QP failed. */
static bool resolve_sges(IrdmaDev *d, PeQp *qp, SqOp *op, unsigned want)
{
    unsigned bad;
    MrAccess a = mr_resolve_sgl(d, op->w.sge, op->w.nsge, qp->pd, qp->priv, want, op->rg, &bad);

    if (a != MR_ACCESS_OK) {
        emu_trace(&d->host, TR_SQ_SGE_REFUSED, "qp=%u wqe=%u sge %u stag=0x%08x: %s", qp->id,
                  op->wqe_idx, bad, op->w.sge[bad].stag, mr_access_name(a));
        fail(d, qp, mr_access_ae(a), "local SGE refused");
        return false;
    }
    return true;
}

/* --- RC packets --- */

static uint8_t rc_opcode(const SqOp *op, uint32_t k)
{
    bool first = k == 0, last = k == op->npkts - 1, imm = op->w.imm_valid;
    bool inv = op->w.op == SQ_OP_SEND_INV || op->w.op == SQ_OP_SEND_SOL_INV;

    if (op->w.op == SQ_OP_RDMA_WRITE || op->w.op == SQ_OP_RDMA_WRITE_SOL) {
        if (first && last) {
            return imm ? BTH_RC_WRITE_ONLY_IMM : BTH_RC_WRITE_ONLY;
        }
        return first ? BTH_RC_WRITE_FIRST : !last ? BTH_RC_WRITE_MIDDLE :
               imm ? BTH_RC_WRITE_LAST_IMM : BTH_RC_WRITE_LAST;
    }
    if (first && last) {
        return inv ? BTH_RC_SEND_ONLY_INV : imm ? BTH_RC_SEND_ONLY_IMM : BTH_RC_SEND_ONLY;
    }
    return first ? BTH_RC_SEND_FIRST : !last ? BTH_RC_SEND_MIDDLE :
           inv ? BTH_RC_SEND_LAST_INV : imm ? BTH_RC_SEND_LAST_IMM : BTH_RC_SEND_LAST;
}

static void rc_header(const PeQp *qp, RocePkt *p, uint8_t opcode, uint32_t psn)
{
    p->opcode = opcode;
    p->pkey = ROCE_PKEY_DEFAULT;
    p->dqpn = qp->dest_qpn;
    p->psn = psn & ROCE_PSN_MASK;
}

static bool data_se(const SqOp *op, uint32_t k)
{
    return op->w.solicited && k == op->npkts - 1;
}

static bool data_ackreq(const SqOp *op, uint32_t k)
{
    return k == op->npkts - 1 || (k + 1) % SQ_ACKREQ_EVERY == 0;
}

/* The headers of packet @k of a SEND or WRITE. */
static void data_header(const PeQp *qp, const SqOp *op, uint32_t k, RocePkt *p)
{
    rc_header(qp, p, rc_opcode(op, k), op->first_psn + k);
    p->se = data_se(op, k);
    p->ackreq = data_ackreq(op, k);
    p->reth_va = op->w.qw2;
    p->reth_rkey = op->w.hdr_stag;
    p->reth_len = op->w.len;
    p->imm = op->w.imm;
    p->ieth_rkey = op->w.hdr_stag;
}

/* Packet @k of a SEND or WRITE; false with the QP failed. */
static bool send_data_pkt(IrdmaDev *d, PeQp *qp, SqOp *op, uint32_t k)
{
    uint8_t *payload;
    uint64_t off = (uint64_t)k * qp->mtu;
    size_t len = MIN(op->w.len - off, qp->mtu);
    RocePkt p = { 0 };
    MrAccess a;

    if (op->w.len == 0) {
        len = 0;
    }
    data_header(qp, op, k, &p);
    /* Read into the frame itself: one copy of the payload fewer. */
    payload = roce_tx_payload(d, &qp->av, &p);
    a = sge_copy(d, op, off, payload, len, false);
    if (a != MR_ACCESS_OK) {
        fail(d, qp, mr_access_ae(a), "local SGE unreachable");
        return false;
    }
    p.payload = payload;
    p.payload_len = len;
    roce_send(d, &qp->av, &p, op->w.inline_data ? 0 : len);
    paced(d, qp, len);
    return true;
}

/* The opcodes, AckReq and SE bits of @t's packets, packets @k.. of @op: what rc_opcode(),
 * data_ackreq() and data_se() give each, worked out for the first, the last and the MIDDLEs
 * between them at once. */
static void train_flags(const SqOp *op, uint32_t k, RoceTrain *t)
{
    unsigned n = t->npkts;

    t->first_op = rc_opcode(op, k);
    t->middle_op = n > 2 ? rc_opcode(op, k + 1) : t->first_op;
    t->last_op = rc_opcode(op, k + n - 1);
    /* AckReq on every SQ_ACKREQ_EVERY-th packet of the message and its last; SE on its last. */
    for (unsigned j = (SQ_ACKREQ_EVERY - (k + 1) % SQ_ACKREQ_EVERY) % SQ_ACKREQ_EVERY; j < n;
         j += SQ_ACKREQ_EVERY) {
        t->ackreq |= 1ull << j;
    }
    if (k + n == op->npkts) {
        t->ackreq |= 1ull << (n - 1);
        t->se |= (uint64_t)data_se(op, k + n - 1) << (n - 1);
    }
}

/* Packets @k.. of a SEND or WRITE, up to @max of them, as one train (roce.h) if they loop back
 * without frames and their payload maps; returns how many (0: none went). */
static unsigned send_train(IrdmaDev *d, PeQp *qp, SqOp *op, uint32_t k, unsigned max)
{
    uint64_t off = (uint64_t)k * qp->mtu, want;
    RoceTrain t = { .npkts = 0 };
    const void *src;
    MrMapping m;

    max = MIN(max, roce_train_room(d, &qp->av));
    if (op->w.inline_data || op->w.len == 0 || max == 0) {
        return 0;
    }
    want = MIN(op->w.len - off, (uint64_t)max * qp->mtu);
    src = mr_sgl_map(d, op->w.sge, op->rg, op->w.nsge, off, want, &m);
    if (!src) {
        return 0;
    }
    /* Whole packets; what is left of a packet the mapping ends in goes in a frame. */
    if (m.len < want) {
        m.len -= m.len % qp->mtu;
    }
    if (m.len == 0) {
        d->host.ops->dma_unmap(d->host.opaque, src, m.map_len);
        return 0;
    }
    data_header(qp, op, k, &t.pkt);
    t.mtu = qp->mtu;
    t.npkts = (m.len + qp->mtu - 1) / qp->mtu;
    train_flags(op, k, &t);
    roce_send_train(d, &qp->av, &t, m.gpa, m.len, src, m.map_len);
    return t.npkts;
}

/* Packets @k.. of a SEND or WRITE, up to @max of them: a train, or packet @k in a frame.
 * Returns how many went; 0 with the QP failed. */
static unsigned send_data(IrdmaDev *d, PeQp *qp, SqOp *op, uint32_t k, unsigned max)
{
    unsigned n = send_train(d, qp, op, k, max);

    if (n) {
        return n;
    }
    return send_data_pkt(d, qp, op, k) ? 1 : 0;
}

/* The READ request for what is still missing of @op. */
static void send_read_req(IrdmaDev *d, PeQp *qp, SqOp *op)
{
    RocePkt p = { 0 };

    rc_header(qp, &p, BTH_RC_READ_REQUEST, op->first_psn + op->read_done / qp->mtu);
    p.ackreq = true;
    p.reth_va = op->w.qw2 + op->read_done;
    p.reth_rkey = op->w.hdr_stag;
    p.reth_len = op->w.len - op->read_done;
    roce_send(d, &qp->av, &p, 0);
}

static void arm_rto(IrdmaDev *d, PeQp *qp);

/* @n packets from PSN @psn went, the furthest of them ending before @end: those before any
 * sent so far went again (RetransSegs). */
static void note_sent(IrdmaDev *d, PeQp *qp, uint32_t psn, uint32_t n, uint32_t end)
{
    int32_t again = psn_diff(qp->req.max_psn, psn);

    if (again > 0) {
        stats_count(d, qp->av.stats_inst, STATS_RETRANSMITS, MIN((uint32_t)again, n));
    }
    if (psn_diff(end, qp->req.max_psn) > 0) {
        qp->req.max_psn = end & ROCE_PSN_MASK;
    }
}

/* Send what the window allows, oldest first; false with the QP failed. */
static bool pump(IrdmaDev *d, PeQp *qp, unsigned *budget)
{
    /* The wire is asked (through the host's clock) before the first WQE and again only once
     * something was sent: its answer changes then, not from one WQE in flight to the next. */
    bool ask = true;
    SqOp *op;

    for (op = qp->req.unsent ? qp->req.unsent : TAILQ_FIRST(&qp->req.ops); op;
         op = TAILQ_NEXT(op, link)) {
        qp->req.unsent = op;
        if (ask && !may_send(d, qp, budget)) {
            break;
        }
        ask = false;
        /* Nothing (more) to send: done, no packets, a READ asked, a message all sent. */
        if (op->done || op->npkts == 0 || op->sent == (is_read(op) ? 1 : op->npkts)) {
            continue;
        }
        if (is_read(op)) {
            if ((int64_t)psn_diff(qp->req.sent_psn, qp->req.una) + op->npkts > SQ_WINDOW_PKTS &&
                qp->req.sent_psn != qp->req.una) {
                break;
            }
            send_read_req(d, qp, op);
            note_sent(d, qp, op->first_psn + op->read_done / qp->mtu, 1, last_psn(op) + 1);
            op->sent = 1;
            qp->req.sent_psn = (last_psn(op) + 1) & ROCE_PSN_MASK;
            (*budget)--;
            ask = true;
            continue;
        }
        while (op->sent < op->npkts && may_send(d, qp, budget) &&
               psn_diff(qp->req.sent_psn, qp->req.una) < SQ_WINDOW_PKTS) {
            /* As many as this loop would send one by one: under INLINE timing (trains) the
             * wire never makes may_send() change its mind. */
            unsigned window = SQ_WINDOW_PKTS - psn_diff(qp->req.sent_psn, qp->req.una);
            unsigned n = send_data(d, qp, op, op->sent,
                                   MIN(MIN(op->npkts - op->sent, *budget), window));

            if (!n) {
                return false;
            }
            note_sent(d, qp, op->first_psn + op->sent, n, op->first_psn + op->sent + n);
            op->sent += n;
            qp->req.sent_psn = (op->first_psn + op->sent) & ROCE_PSN_MASK;
            *budget -= n;
            ask = true;
        }
        if (op->sent < op->npkts) {
            break;
        }
    }
    if (qp->req.sent_psn != qp->req.una) {
        arm_rto(d, qp);
    }
    return true;
}

/* --- fetching WQEs --- */

/* The header of the SQ slot at the head, or false if it cannot be read. */
static bool read_slot(IrdmaDev *d, PeQp *qp, uint32_t quanta, uint8_t *raw)
{
    uint64_t gpa;

    return hmc_queue_gpa(d, &qp->sq, (uint64_t)qp->req.head * QP_WQ_QUANTUM, &gpa) == HMC_OK &&
           pe_dma_read(d, gpa, raw, (size_t)quanta * QP_WQ_QUANTUM);
}

static bool head_valid(IrdmaDev *d, PeQp *qp, uint8_t *raw)
{
    return read_slot(d, qp, 1, raw) &&
           !!(ld64(raw + SQWQE_HDR) & SQWQE_VALID) == qp->req.valid;
}

static void advance(PeQp *qp, unsigned quanta)
{
    qp->req.head += quanta;
    if (qp->req.head >= qp->sq_quanta) {
        qp->req.head -= qp->sq_quanta;
        qp->req.valid ^= 1;
    }
}

/* FAST_REG: register the MR the STag names with the WQE's pages (its PBL was allocated). */
static unsigned fast_reg(IrdmaDev *d, PeQp *qp, const SqWqe *w)
{
    uint32_t stag = (pe_get(w->hdr, SQWQE_STAGINDEX) << 8) | pe_get(w->hdr, SQWQE_STAGKEY);
    PeMr *mr = mr_lookup_mut(d, mr_stag_index(d, stag));
    unsigned level = pe_get(w->hdr, SQWQE_LPBLSIZE);
    static const uint64_t page_sizes[] = { 4096, 2u << 20, 1u << 30 };
    unsigned page_enc = pe_get(w->hdr, SQWQE_HPAGESIZE);

    if (!mr || mr->is_mw || mr->stag_idx != stag >> 8 || !qp->priv) {
        return AE_AMP_INVALID_STAG;
    }
    if (mr->state == MR_STATE_VALID) {
        return AE_AMP_INVALID_STAG;       /* FASTREG_VALID_STAG: must be invalid first */
    }
    if (mr->pd != qp->pd) {
        return AE_AMP_BAD_PD;
    }
    if (page_enc >= G_N_ELEMENTS(page_sizes) || level == 2 || level > PBL_LEVEL_2) {
        return AE_WQE_INVALID_PARAMETER;
    }
    mr->key = stag & 0xff;
    mr->rights = pe_get(w->hdr, SQWQE_STAGRIGHTS);
    mr->remote_access = mr->rights & (STAG_RIGHT_REMOTE_READ | STAG_RIGHT_REMOTE_WRITE);
    mr->va_based = w->hdr & SQWQE_VABASEDTO;
    mr->page_enc = page_enc;
    mr->page_size = page_sizes[page_enc];
    mr->len = pe_get(w->qw2, SQWQE_FR_STAGLEN);
    mr->va = mr->va_based ? w->qw0 : 0;
    mr->fbo = mr->va_based ? w->qw0 & (mr->page_size - 1) : w->qw0;
    mr->pbl_level = level;
    if (level == PBL_LEVEL_NONE) {
        mr->pa = w->qw1 & SQWQE_FR_PBLADDR;
    } else {
        mr->first_pble = pe_get(w->qw2, SQWQE_FR_FIRSTPBLIDXLO) |
                         (pe_get(w->qw1, SQWQE_FR_FIRSTPBLIDXHI) << 16);
    }
    mr->state = MR_STATE_VALID;
    emu_trace(&d->host, TR_SQ_FAST_REG, "qp=%u stag=0x%08x len=%" G_GINT64_MODIFIER "u",
              qp->id, stag, mr->len);
    return 0;
}

/* LOCAL_INV (and the invalidate of READ_LOC_INV): the STag becomes invalid. */
static unsigned local_inv(IrdmaDev *d, PeQp *qp, uint32_t stag)
{
    PeMr *mr = mr_lookup_mut(d, mr_stag_index(d, stag));

    if (!mr || mr->stag_idx != stag >> 8 || mr->pd != qp->pd) {
        return AE_AMP_INVALID_STAG;
    }
    if (mr->is_mw) {
        mr->bound = false;
    } else {
        mr->state = MR_STATE_INVALID;
    }
    stats_count(d, qp->av.stats_inst, STATS_RDMA_INVALIDATES, 1);
    emu_trace(&d->host, TR_SQ_LOCAL_INV, "qp=%u stag=0x%08x", qp->id, stag);
    return 0;
}

/* BIND_MW: bind the window to a range of a valid MR with bind rights. */
static unsigned bind_mw(IrdmaDev *d, PeQp *qp, const SqWqe *w)
{
    uint32_t mw_stag = pe_get(w->qw1, SQWQE_MWSTAG), mr_stag = pe_get(w->qw1, SQWQE_PARENTMRSTAG);
    PeMr *mw = mr_lookup_mut(d, mr_stag_index(d, mw_stag));
    const PeMr *mr = mr_lookup(d, mr_stag_index(d, mr_stag));
    uint64_t va = w->qw0, len = w->qw2;
    unsigned rights = pe_get(w->hdr, SQWQE_STAGRIGHTS);

    if (!mw || !mw->is_mw || mw->stag_idx != mw_stag >> 8 || !mr || mr->is_mw ||
        mr->state != MR_STATE_VALID || mr->stag_idx != mr_stag >> 8) {
        return AE_AMP_INVALID_STAG;
    }
    if (!(mr->rights & STAG_RIGHT_BIND) ||
        ((rights & STAG_RIGHT_REMOTE_WRITE) && !(mr->rights & STAG_RIGHT_LOCAL_WRITE))) {
        return AE_AMP_MWBIND_INVALID_RIGHTS;
    }
    if (!mr->va_based || va < mr->va || va - mr->va > mr->len || len > mr->len - (va - mr->va)) {
        return AE_AMP_MWBIND_INVALID_BOUNDS;
    }
    mw->key = mw_stag & 0xff;
    mw->bound = true;
    mw->bound_mr = mr->index;
    mw->bound_va = va;
    mw->bound_len = len;
    mw->bound_rights = rights;
    mw->va_based = w->hdr & SQWQE_VABASEDTO;
    stats_count(d, qp->av.stats_inst, STATS_RDMA_BINDS, 1);
    emu_trace(&d->host, TR_SQ_BIND_MW, "qp=%u mw=0x%08x mr=0x%08x va=0x%" G_GINT64_MODIFIER
              "x len=%" G_GINT64_MODIFIER "u rights=0x%02x", qp->id, mw_stag, mr_stag, va, len,
              rights);
    return 0;
}

/* A UD send: one packet to the AH's address, done when sent. */
static unsigned ud_send(IrdmaDev *d, PeQp *qp, SqOp *op)
{
    uint8_t payload[ROCE_MTU_MAX];
    const PeAh *ah = ah_lookup(d, op->w.ah_id);
    RocePkt p = { 0 };
    RoceAv av;

    if (!ah || ah->pd != qp->pd) {
        return AE_WQE_INVALID_PARAMETER;
    }
    if (op->w.len > qp->mtu || op->w.len > ROCE_MTU_MAX) {
        return AE_WQE_INVALID_PARAMETER;          /* UDA_XMIT_DGRAM_TOO_LONG */
    }
    if (sge_copy(d, op, 0, payload, op->w.len, false) != MR_ACCESS_OK) {
        return AE_AMP_INVALID_STAG;
    }
    roce_av_from_ah(d, ah, qp, &av);
    p.opcode = op->w.imm_valid ? BTH_UD_SEND_ONLY_IMM : BTH_UD_SEND_ONLY;
    p.se = op->w.solicited;
    p.pkey = ROCE_PKEY_DEFAULT;
    p.dqpn = op->w.dest_qpn;
    p.psn = qp->req.next_psn;
    qp->req.next_psn = (qp->req.next_psn + 1) & ROCE_PSN_MASK;
    /* IB: a QKey with the high bit set means "the QP's own". */
    p.deth_qkey = (op->w.qkey & 0x80000000u) ? qp->qkey : op->w.qkey;
    p.deth_sqpn = qp->id;
    p.imm = op->w.imm;
    p.payload = payload;
    p.payload_len = op->w.len;
    op->done_at = roce_send(d, &av, &p, op->w.inline_data ? 0 : op->w.len);
    paced(d, qp, op->w.len);
    return 0;
}

/* Take the WQE in @raw (its first quantum read) at the head; false to stop fetching. */
static bool fetch_one(IrdmaDev *d, PeQp *qp, uint8_t *raw)
{
    uint64_t hdr = ld64(raw + SQWQE_HDR);
    unsigned quanta = sq_wqe_quanta(hdr), ae = 0;
    const FaultAction *fa;
    SqOp *op;

    if (quanta == 0 || qp->req.head + quanta > qp->sq_quanta ||
        (quanta > 1 && !read_slot(d, qp, quanta, raw))) {
        fail(d, qp, AE_WQE_INVALID_PARAMETER, "malformed WQE");
        return false;
    }
    op = op_new(qp);
    op->wqe_idx = qp->req.head;
    if (!sq_wqe_decode(raw, &op->w)) {
        op_free(qp, op);
        fail(d, qp, AE_WQE_INVALID_PARAMETER, "malformed WQE");
        return false;
    }
    /* Fences: wait for what is outstanding (a READ, for READFENCE) to finish. */
    if ((op->w.local_fence || op->w.read_fence) && !TAILQ_EMPTY(&qp->req.ops)) {
        op_free(qp, op);
        return false;
    }
    emu_trace(&d->host, TR_SQ_WQE, "qp=%u wqe=%u op=0x%02x len=%" G_GINT64_MODIFIER
              "u sges=%u%s%s", qp->id, op->wqe_idx, op->w.op, op->w.len, op->w.nsge,
              op->w.inline_data ? " inline" : "", op->w.signaled ? " signaled" : "");
    advance(qp, quanta);
    fa = fault_check(d, FAULT_ON_WQE, op->w.op, qp->id);
    if (fa && fa->kind == FAULT_RAISE_AE) {
        /* Refused as the hardware refuses a bad WQE: the QP stops, irdma flushes it. */
        TAILQ_INSERT_TAIL(&qp->req.ops, op, link);
        fail(d, qp, fa->ae, "the fault plan");
        return false;
    }
    op->cqe_twice = fa && fa->kind == FAULT_DUPLICATE;
    switch (op->w.op) {
    case SQ_OP_NOP:
        op_free(qp, op);
        return true;
    case SQ_OP_FAST_REG:
        ae = fast_reg(d, qp, &op->w);
        op->done = true;
        break;
    case SQ_OP_LOCAL_INV:
        ae = local_inv(d, qp, pe_get(op->w.qw1, SQWQE_MWSTAG));
        op->done = true;
        break;
    case SQ_OP_BIND_MW:
        ae = bind_mw(d, qp, &op->w);
        op->done = true;
        break;
    case SQ_OP_SEND:
    case SQ_OP_SEND_SOL:
    case SQ_OP_SEND_INV:
    case SQ_OP_SEND_SOL_INV:
    case SQ_OP_RDMA_WRITE:
    case SQ_OP_RDMA_WRITE_SOL:
    case SQ_OP_RDMA_READ:
    case SQ_OP_RDMA_READ_LOC_INV:
        if (!is_rc(qp) && op->w.op != SQ_OP_SEND && op->w.op != SQ_OP_SEND_SOL) {
            ae = AE_WQE_UNEXPECTED_OPCODE;
            break;
        }
        if (!resolve_sges(d, qp, op, is_read(op) ? MR_WANT_LOCAL_WRITE : MR_WANT_LOCAL_READ)) {
            op_free(qp, op);
            return false;
        }
        if (!is_rc(qp)) {
            ae = ud_send(d, qp, op);
            op->done = true;
            break;
        }
        op->npkts = op->w.len ? (op->w.len + qp->mtu - 1) / qp->mtu : 1;
        op->first_psn = qp->req.next_psn;
        qp->req.next_psn = (qp->req.next_psn + op->npkts) & ROCE_PSN_MASK;
        break;
    default:
        ae = AE_WQE_UNEXPECTED_OPCODE;
        break;
    }
    TAILQ_INSERT_TAIL(&qp->req.ops, op, link);
    if (ae) {
        fail(d, qp, ae, "WQE refused");
        return false;
    }
    return true;
}

/* New WQEs are fetched in RTS unless suspended; what was fetched goes on in SQD too. */
static bool may_fetch(const PeQp *qp)
{
    return qp->state == QP_STATE_RTS && !qp->suspended;
}

static void run(void *arg)
{
    PeQp *qp = arg;
    IrdmaDev *d = qp->d;
    unsigned budget = SQ_RUN_BUDGET;
    uint8_t raw[WQE_QUANTA_MAX * QP_WQ_QUANTUM];

    qp->req.run_ev = NULL;
    if (qp->state == QP_STATE_ERROR) {
        if (qp->flush_sq) {
            sq_flush(d, qp);
        }
        return;
    }
    if (qp->state != QP_STATE_RTS && qp->state != QP_STATE_SQD) {
        return;
    }
    /* IBA 9.7.5.2.8: after an RNR NAK the requester sends nothing until the timer ends
     * (rnr_resume() runs it then). A run already due, a doorbell or the rest of a message
     * longer than a run's budget must not resend at once: the pair would ping-pong RNR NAKs
     * with no time passing. */
    if (qp->req.rnr_ev) {
        emu_trace(&d->host, TR_SQ_RNR_WAIT, "qp=%u", qp->id);
        return;
    }
    if (is_rc(qp) && !pump(d, qp, &budget)) {
        return;
    }
    while (may_fetch(qp) && may_send(d, qp, &budget)) {
        if (psn_diff(qp->req.sent_psn, qp->req.una) >= SQ_WINDOW_PKTS) {
            break;
        }
        if (!head_valid(d, qp, raw)) {
            /* Report the tail, then look once more: a WQE posted meanwhile rang no bell. */
            write_shadow(d, qp);
            if (!head_valid(d, qp, raw)) {
                break;
            }
        }
        if (!fetch_one(d, qp, raw)) {
            break;
        }
        budget--;
        if (is_rc(qp) && !pump(d, qp, &budget)) {
            return;
        }
    }
    write_shadow(d, qp);
    complete_front(d, qp);
    /* Out of budget: the rest (packets of fetched messages, new WQEs) in another run. */
    if (budget == 0) {
        kick_after(d, qp, send_wait_ns(d, qp));
    }
}

/* --- acknowledgements --- */

/* The oldest unacknowledged PSN moved forward to @una: both retry counts start again. */
static void progress_to(PeQp *qp, uint32_t una)
{
    qp->req.una = una & ROCE_PSN_MASK;
    qp->req.retries = qp->retry_cnt;
    qp->req.rnr_retries = qp->rnr_retry;
}

/* Every message whose last PSN is before @psn is acknowledged; a READ only by its data, so the
 * oldest unacknowledged PSN stops at a READ not yet answered. Returns whether it did: then
 * its responses were lost (an implicit NAK). */
static bool ack_before(PeQp *qp, uint32_t psn)
{
    uint32_t una = psn;
    bool read_pending = false;
    SqOp *op;

    TAILQ_FOREACH(op, &qp->req.ops, link) {
        if (op->done || op->npkts == 0) {
            continue;
        }
        if (psn_diff(psn, last_psn(op)) <= 0) {
            break;
        }
        if (is_read(op)) {
            una = (op->first_psn + op->read_done / qp->mtu) & ROCE_PSN_MASK;
            read_pending = true;
            break;
        }
        op->done = true;
    }
    if (psn_diff(una, qp->req.una) > 0) {
        progress_to(qp, una);
    }
    return read_pending;
}

/* Go back: send everything again from @psn. */
static void rewind_to(IrdmaDev *d, PeQp *qp, uint32_t psn)
{
    SqOp *op;

    TAILQ_FOREACH(op, &qp->req.ops, link) {
        int32_t k;

        if (op->done || op->npkts == 0) {
            continue;
        }
        k = psn_diff(psn, op->first_psn);
        if (is_read(op)) {
            /* Ask again for what has not arrived. */
            op->sent = 0;
        } else if (k < (int32_t)op->sent) {
            op->sent = k < 0 ? 0 : k;
        }
    }
    qp->req.sent_psn = psn;
    qp->req.unsent = NULL;
    emu_trace(&d->host, TR_SQ_REWIND, "qp=%u from psn %u", qp->id, psn);
}

static void rto_fired(void *arg);

static void rto_schedule(IrdmaDev *d, PeQp *qp)
{
    qp->req.rto_ev = emu_event_schedule_at(&d->events, qp->req.rto_deadline,
                                           qp->req.rto_ticket, rto_fired, qp);
    qp->req.rto_ev_ticket = qp->req.rto_ticket;
}

static void rto_fired(void *arg)
{
    PeQp *qp = arg;
    IrdmaDev *d = qp->d;

    qp->req.rto_ev = NULL;
    if (!qp->req.rto_running) {
        return;
    }
    if (qp->req.rto_ev_ticket != qp->req.rto_ticket) {
        rto_schedule(d, qp);                      /* restarted since: on to its deadline */
        return;
    }
    qp->req.rto_running = false;
    if (qp->req.sent_psn == qp->req.una || qp->state == QP_STATE_ERROR) {
        return;
    }
    if (qp->req.retries == 0) {
        fail(d, qp, AE_LLP_TOO_MANY_RETRIES, "retransmission retries exhausted");
        return;
    }
    qp->req.retries--;
    emu_trace(&d->host, TR_SQ_TIMEOUT, "qp=%u una=%u, %u retries left", qp->id, qp->req.una,
              qp->req.retries);
    rewind_to(d, qp, qp->req.una);
    kick(d, qp);
}

/*
 * Every run with packets outstanding restarts the retransmission timer, rc_rto_ns from now.
 * Instead of a cancel and a schedule each time, a restart notes the deadline and a ticket; the
 * pending event, never later (rc_rto_ns is fixed for the device's life), schedules itself again
 * with them when it fires: the timeout runs when, and where among the events, it would have.
 */
static void arm_rto(IrdmaDev *d, PeQp *qp)
{
    qp->req.rto_running = true;
    qp->req.rto_deadline = emu_event_deadline(&d->events, d->timing.p.rc_rto_ns);
    qp->req.rto_ticket = emu_event_ticket(&d->events);
    if (!qp->req.rto_ev) {
        rto_schedule(d, qp);
    }
}

/* IBA 9.7.5.2.8: the RNR NAK timer field in microseconds (0 means 655.36 ms). */
static uint64_t rnr_timer_ns(unsigned t)
{
    static const uint32_t us[32] = {
        655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920, 2560,
        3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960, 61440, 81920, 122880, 163840,
        245760, 327680, 491520,
    };

    return us[t & 31] * 1000ull;
}

static void rnr_resume(void *arg)
{
    PeQp *qp = arg;

    qp->req.rnr_ev = NULL;
    kick(qp->d, qp);
}

/* The READ that @psn answers, and the offset it expects next. */
static SqOp *read_for(PeQp *qp, uint32_t psn)
{
    SqOp *op;

    TAILQ_FOREACH(op, &qp->req.ops, link) {
        if (!op->done && is_read(op) && psn_diff(psn, op->first_psn) >= 0 &&
            psn_diff(psn, last_psn(op)) <= 0) {
            return op;
        }
    }
    return NULL;
}

static void read_response(IrdmaDev *d, PeQp *qp, const RocePkt *p)
{
    SqOp *op = read_for(qp, p->psn);
    uint32_t expect;
    unsigned fl = rocev2_opcode_flags(p->opcode);

    if (!op) {
        return;                                   /* a duplicate */
    }
    expect = (op->first_psn + op->read_done / qp->mtu) & ROCE_PSN_MASK;
    if (p->psn != expect) {
        if (psn_diff(p->psn, expect) > 0 && !op->read_gap) {
            op->read_gap = true;
            rewind_to(d, qp, expect);             /* a response was lost: ask again */
        }
        return;
    }
    op->read_gap = false;
    ack_before(qp, op->first_psn);
    /* Each response in order is progress. */
    progress_to(qp, p->psn + 1);
    if (p->payload_len > op->w.len - op->read_done ||
        ((fl & BTH_LAST) && op->read_done + p->payload_len != op->w.len) ||
        (!(fl & BTH_LAST) && p->payload_len != qp->mtu)) {
        fail(d, qp, AE_IB_REMOTE_OP_ERROR, "READ response of the wrong length");
        return;
    }
    if (sge_copy(d, op, op->read_done, (uint8_t *)p->payload, p->payload_len, true) !=
        MR_ACCESS_OK) {
        fail(d, qp, AE_AMP_INVALID_STAG, "READ sink unreachable");
        return;
    }
    op->read_done += p->payload_len;
    if (fl & BTH_LAST) {
        op->done = true;
        if (op->w.op == SQ_OP_RDMA_READ_LOC_INV && local_inv(d, qp, (uint32_t)op->w.qw1)) {
            fail(d, qp, AE_AMP_INVALID_STAG, "READ with invalidate of a bad STag");
            return;
        }
    }
}

void sq_rx(IrdmaDev *d, PeQp *qp, const RocePkt *p)
{
    unsigned kind = AETH_KIND(p->aeth_syndrome);

    if (qp->state == QP_STATE_ERROR || !is_rc(qp) ||
        psn_diff(p->psn, qp->req.una) < 0 || psn_diff(p->psn, qp->req.sent_psn) >= 0) {
        emu_trace(&d->host, TR_SQ_RX_STALE, "qp=%u opcode=0x%02x psn=%u una=%u", qp->id,
                  p->opcode, p->psn, qp->req.una);
        return;
    }
    if (p->opcode != BTH_RC_ACK) {
        read_response(d, qp, p);
    } else if (kind == AETH_KIND_ACK) {
        /* An ACK past an unanswered READ: its responses were lost. */
        if (ack_before(qp, (p->psn + 1) & ROCE_PSN_MASK)) {
            rewind_to(d, qp, qp->req.una);
        }
    } else if (kind == AETH_KIND_RNR) {
        ack_before(qp, p->psn);
        if (qp->rnr_retry != SQ_RNR_INFINITE && qp->req.rnr_retries-- == 0) {
            fail(d, qp, AE_LLP_TOO_MANY_RNRS, "RNR retries exhausted");
            return;
        }
        emu_trace(&d->host, TR_SQ_RNR, "qp=%u psn=%u", qp->id, p->psn);
        rewind_to(d, qp, p->psn);
        /* The RNR timer, not the retransmission timer, until the next run sends. */
        qp->req.rto_running = false;
        rnr_wait_end(d, qp);
        qp->req.rnr_ev = emu_event_schedule(&d->events, rnr_timer_ns(p->aeth_syndrome),
                                            rnr_resume, qp);
        complete_front(d, qp);
        return;
    } else {
        ack_before(qp, p->psn);
        complete_front(d, qp);
        switch (p->aeth_syndrome) {
        case AETH_NAK_PSN_SEQ:
            rewind_to(d, qp, p->psn);
            break;
        case AETH_NAK_REM_ACCESS:
            fail(d, qp, AE_IB_REMOTE_ACCESS_ERROR, "remote access NAK");
            return;
        case AETH_NAK_INV_REQ:
            fail(d, qp, AE_IB_INVALID_REQUEST, "invalid request NAK");
            return;
        default:
            fail(d, qp, AE_IB_REMOTE_OP_ERROR, "remote operational NAK");
            return;
        }
    }
    if (qp->state == QP_STATE_ERROR) {
        return;
    }
    complete_front(d, qp);
    if (qp->req.sent_psn == qp->req.una) {
        /* Nothing outstanding: no timer (a pending RTO event finds it stopped). An RNR wait
         * goes on: only its timer ends it. */
        qp->req.rto_running = false;
    }
    kick(d, qp);
}

/* --- state --- */

bool sq_busy(const PeQp *qp)
{
    return !TAILQ_EMPTY(&qp->req.ops);
}

void sq_state_changed(IrdmaDev *d, PeQp *qp, unsigned prev)
{
    if (qp->state == QP_STATE_RTS && prev == QP_STATE_RTR) {
        qp->req.next_psn = qp->req.sent_psn = qp->req.una = qp->req.max_psn =
            pe_get(ld64(qp->ctx + QPC_QW10), QPC_PSNNXT);
        qp->req.retries = qp->retry_cnt;
        qp->req.rnr_retries = qp->rnr_retry;
    }
    if (qp->state == QP_STATE_IDLE && !qp->req.valid) {
        qp->req.valid = 1;                         /* the first pass over the ring */
    }
    if (qp->state == QP_STATE_ERROR) {
        timers_stop(d, qp);
    }
    kick(d, qp);
}

bool sq_flush(IrdmaDev *d, PeQp *qp)
{
    uint8_t raw[WQE_QUANTA_MAX * QP_WQ_QUANTUM];
    bool any = !TAILQ_EMPTY(&qp->req.ops) || qp->req.unreported;
    uint32_t first = qp->req.head;
    SqOp *op;
    unsigned n = 0;

    if ((op = TAILQ_FIRST(&qp->req.ops))) {
        first = op->wqe_idx;
    }
    ops_clear(qp);
    /* What was posted and not fetched is flushed too; bounded by the ring. */
    while (n++ < qp->sq_quanta && head_valid(d, qp, raw)) {
        unsigned quanta = sq_wqe_quanta(ld64(raw + SQWQE_HDR));

        any = true;
        advance(qp, quanta ? quanta : 1);
    }
    write_shadow(d, qp);
    if (any) {
        write_cqe(d, qp, first, SQ_OP_NOP, true, qp->sq_flush_maj, qp->sq_flush_min);
        emu_trace(&d->host, TR_SQ_FLUSHED, "qp=%u from wqe %u", qp->id, first);
    }
    return any;
}

void sq_release(IrdmaDev *d, PeQp *qp)
{
    if (qp->req.run_ev) {
        emu_event_cancel(&d->events, qp->req.run_ev);
        qp->req.run_ev = NULL;
    }
    timers_stop(d, qp);
    ops_clear(qp);
    spares_free(&qp->req.spare);
}
