/* trt_util.c - the two-QP RC fixture of the transport tests and the fuzzer (trt_util.h). */
#include <check.h>
#include <string.h>
#include "trt_util.h"
#include "emu/rdma/pe_regs.h"
#include "emu/rdma/qp.h"

#define DEFAULT_GEOM { .mtu = TRT_MTU, .mr_len = TRT_MR_LEN }

TQp qa, qb;
unsigned aeq_head;
uint8_t aeq_pol;
const TCfg trt_default_cfg = { .retry_cnt = TRT_RETRY_CNT, .rnr_retry = TRT_RNR_FOREVER };
/* The fuzzer calls trt_bring_up without trt_start: the default until someone asks. */
TGeom trt_geom = DEFAULT_GEOM;

/* --- the clock --- */

/* Move the clock to @t, running every event due on the way in deadline order. */
void clock_to(uint64_t t)
{
    while (h->timer_armed && h->timer_deadline <= t) {
        fake_host_advance(h, d, MAX(h->timer_deadline, h->now_ns));
    }
    h->now_ns = t;
}

/* Run what is due now (zero-delay events a doorbell or a frame scheduled). */
void settle(void)
{
    clock_to(h->now_ns);
}

void clock_advance(uint64_t ns)
{
    clock_to(h->now_ns + ns);
}

/* --- control plane --- */

void cqp_ok(const uint64_t q[8])
{
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), CQP_MAJ_OK);
}

void create_aeq(void)
{
    uint64_t q[8] = { 0 };

    q[2] = pe_prep(CQPWQE_AEQ_SIZE, TRT_AEQ_SIZE);
    q[3] = cqpt_hdr(CQP_OP_CREATE_AEQ);
    q[4] = CQPT_AEQ;
    cqp_ok(q);
    aeq_head = 0;
    aeq_pol = 1;
}

/* irdma_sc_add_arp_cache_entry: the peer's MAC, so the QPs do not loop back internally. */
void add_arp(uint64_t mac)
{
    uint64_t q[8] = { 0 };

    q[2] = pe_prep(CQPWQE_ARP_MAC, mac);
    q[3] = cqpt_hdr(CQP_OP_MANAGE_ARP) | pe_prep(CQPWQE_ARP_INDEX, TRT_ARP_IDX) |
           CQPWQE_ARP_ENTRYVALID;
    cqp_ok(q);
}

/* irdma_sc_mr_reg_non_shared: VA-based, physically contiguous 2 MiB pages (one with the default
 * geometry), every right. */
void reg_mr(void)
{
    uint64_t q[8] = { 0 };

    q[0] = TRT_MR_VA;
    q[1] = pe_prep(CQPWQE_STAG_LEN, trt_geom.mr_len) | pe_prep(CQPWQE_STAG_PDID, TRT_PD);
    q[2] = pe_prep(CQPWQE_STAG_KEY, TRT_MR_KEY) | pe_prep(CQPWQE_STAG_IDX, TRT_MR_IDX);
    q[4] = TRT_DATA;
    q[3] = cqpt_hdr(CQP_OP_REG_MR) | CQPWQE_STAG_MR |
           pe_prep(CQPWQE_LPBLSIZE, PBL_LEVEL_NONE) |
           pe_prep(CQPWQE_STAG_HPAGESIZE, STAG_PAGE_2M) |
           pe_prep(CQPWQE_STAG_ARIGHTS, STAG_RIGHT_LOCAL_READ | STAG_RIGHT_LOCAL_WRITE |
                                        STAG_RIGHT_REMOTE_READ | STAG_RIGHT_REMOTE_WRITE) |
           CQPWQE_STAG_REMACCENABLED | CQPWQE_STAG_VABASEDTO;
    cqp_ok(q);
}

void create_cq(const TQp *qp)
{
    uint64_t q[8] = { 0 };

    q[0] = pe_prep(CQPWQE_CQ_SIZE, TRT_CQ_SIZE);
    q[1] = qp->base;                              /* any CQ context */
    q[4] = qp->base + TRT_OFF_CQ;
    q[5] = qp->base + TRT_OFF_CQSHDW;
    q[3] = cqpt_hdr(CQP_OP_CREATE_CQ) | pe_prep(CQPWQE_CQ_ID, qp->cq);
    cqp_ok(q);
}

/* The host context irdma_sc_qp_setctx_roce writes for a kernel RC QP facing @qp->peer. */
void write_ctx(const TQp *qp, const TCfg *cfg)
{
    uint8_t *c = h->mem + qp->base + TRT_OFF_CTX;
    uint32_t own_ip = qp->id == TRT_QPN_A ? TRT_IP_A : TRT_IP_B;
    uint32_t peer_ip = qp->id == TRT_QPN_A ? TRT_IP_B : TRT_IP_A;

    memset(c, 0, QPC_SIZE);
    st64(c + QPC_QW0, pe_prep(QPC_RQWQESIZE, TRT_RQ_WQE_ENC) |
                      pe_prep(QPC_PDIDXHI, TRT_PD >> 16) | QPC_IPV4);
    st64(c + QPC_SQADDR_OFF, qp->base + TRT_OFF_SQ);
    st64(c + QPC_RQADDR_OFF, qp->base + TRT_OFF_RQ);
    st64(c + QPC_QW3, pe_prep(QPC_RQSIZE, TRT_RQ_ENC) | pe_prep(QPC_SQSIZE, TRT_SQ_ENC) |
                      pe_prep(QPC_TTL, 64) | pe_prep(QPC_SRCPORT, 0xc000 | qp->id) |
                      pe_prep(QPC_DSTPORT, ROCEV2_UDP_PORT));
    st64(c + QPC_DESTIP23_OFF, peer_ip);
    st64(c + QPC_LOCALIP23_OFF, own_ip);
    st64(c + QPC_QW6, pe_prep(QPC_SNDMSS, trt_geom.mtu) | pe_prep(QPC_ARPIDX, TRT_ARP_IDX));
    st64(c + QPC_QW7, pe_prep(QPC_PKEY, ROCE_PKEY_DEFAULT) |
                      pe_prep(QPC_PDIDX, TRT_PD & 0xffff) | pe_prep(QPC_ACKCREDITS, 0x1e));
    st64(c + QPC_QW8, pe_prep(QPC_DESTQP, qp->peer));
    st64(c + QPC_QW10, pe_prep(QPC_PSNNXT, qp->psn));
    st64(c + QPC_QW11, pe_prep(QPC_EPSN, qp->peer_psn));
    st64(c + QPC_QW16, pe_prep(QPC_REXMIT_THRESH, cfg->retry_cnt) |
                       pe_prep(QPC_RNRNAK_THRESH, cfg->rnr_retry));
    st64(c + QPC_QW17, pe_prep(QPC_TXCQNUM, qp->cq) | pe_prep(QPC_RXCQNUM, qp->cq));
    st64(c + QPC_MAC_OFF, pe_prep(QPC_MACADDRESS, TRT_OWN_MAC));
    st64(c + QPC_QW18, pe_prep(QPC_STAT_INDEX, cfg->stats_inst));
    st64(c + QPC_QW20, QPC_WRRDRSPOK | QPC_RDOK | QPC_FASTREGEN | QPC_PRIVEN |
                       (cfg->stats_inst ? QPC_USESTATSINSTANCE : 0));
    st64(c + QPC_COMPL_CTX_OFF, qp->compl_ctx);
}

unsigned alloc_stats_inst(void)
{
    uint64_t q[8] = { 0 };
    const uint8_t *cqe;

    q[3] = cqpt_hdr(CQP_OP_MANAGE_STATS) | CQPWQE_STATS_ALLOC_INST | CQPWQE_STATS_USE_FN_INDEX;
    q[5] = PE_PF_HMC_FN_ID;
    cqe = cqpt_op(q);
    ck_assert_uint_eq(cqpt_maj(cqe), CQP_MAJ_OK);
    return cqpt_retval(cqe);
}

void gather_stats(unsigned inst)
{
    uint64_t q[8] = { 0 };

    memset(h->mem + TRT_STATS, 0xaa, GSTATS_BUF_SIZE);
    q[4] = TRT_STATS;
    q[3] = cqpt_hdr(CQP_OP_GATHER_STATS) |
           (inst ? CQPWQE_STATS_USE_INST | pe_prep(CQPWQE_STATS_INST_INDEX, inst) : 0);
    cqp_ok(q);
}

uint64_t stat48(unsigned off)
{
    uint64_t v = ld64(h->mem + TRT_STATS + off);

    ck_assert_uint_eq(v >> 48, 0);
    return v;
}

uint64_t stat32_high(unsigned off)
{
    uint64_t v = ld64(h->mem + TRT_STATS + off);

    ck_assert_uint_eq((uint32_t)v, 0);
    return v >> 32;
}

void qp_op_typed(const TQp *qp, unsigned type, unsigned op, unsigned next, uint64_t flags)
{
    uint64_t q[8] = { 0 };

    q[2] = qp->base + TRT_OFF_CTX;
    q[5] = qp->base + TRT_OFF_SHADOW;
    q[3] = cqpt_hdr(op) | pe_prep(CQPWQE_QP_ID, qp->id) |
           pe_prep(CQPWQE_QP_TYPE, type) | pe_prep(CQPWQE_QP_NEXTSTATE, next) | flags;
    cqp_ok(q);
}

void qp_op(const TQp *qp, unsigned op, unsigned next, uint64_t flags)
{
    qp_op_typed(qp, QP_TYPE_ROCE_RC, op, next, flags);
}

void init_qp(TQp *qp, unsigned id, unsigned peer, unsigned cq, uint32_t psn,
                    uint32_t peer_psn, uint64_t ctx)
{
    *qp = (TQp) {
        .id = id, .peer = peer, .cq = cq, .psn = psn, .peer_psn = peer_psn,
        .base = TRT_QP_AREA + (uint64_t)(id - TRT_QPN_A) * TRT_QP_STRIDE, .compl_ctx = ctx,
        .sq_pol = 1, .rq_pol = 1, .cq_pol = 1,      /* the first pass over each ring */
    };
}

/* A and B through CREATE (INIT), RTR and RTS as irdma_modify_qp_roce does. */
void connect_with(const TCfg *cfg)
{
    const TQp *qps[2] = { &qa, &qb };

    for (int i = 0; i < 2; i++) {
        const TQp *qp = qps[i];

        create_cq(qp);
        write_ctx(qp, cfg);
        qp_op(qp, CQP_OP_CREATE_QP, QP_STATE_IDLE, CQPWQE_QP_MACVALID | CQPWQE_QP_CQNUMVALID);
        qp_op(qp, CQP_OP_MODIFY_QP, QP_STATE_RTR,
              CQPWQE_QP_ARPTABIDXVALID | CQPWQE_QP_CQNUMVALID);
        qp_op(qp, CQP_OP_MODIFY_QP, QP_STATE_RTS, CQPWQE_QP_ORDVALID);
        ck_assert_uint_eq(qp_lookup(d, qp->id)->state, QP_STATE_RTS);
        ck_assert_uint_eq(qp_lookup(d, qp->id)->mtu, trt_geom.mtu);
    }
}

void connect_default(void)
{
    connect_with(&trt_default_cfg);
}

/* --- the data path as irdma's uk.c drives it --- */

/* irdma_set_fragment: address, then STag | length | VALID of the ring's pass. */
void set_frag(uint8_t *wqe, unsigned off, uint64_t addr, uint32_t stag, uint32_t len,
                     uint8_t pol)
{
    st64(wqe + off, addr);
    st64(wqe + off + 8, pe_prep(WQE_FRAG_STAG, stag) | pe_prep(WQE_FRAG_LEN, len) |
                        (pol ? SQWQE_VALID : 0));
}

/* Write @w at the SQ head (immediate in slot 0, the SGE after it), header last; no doorbell.
 * Returns the WQE's quanta index. */
unsigned post_sq(TQp *qp, TWqe wr)
{
    const TWqe *w = &wr;
    unsigned quanta = w->imm_valid ? 2 : 1, idx = qp->sq_head;
    uint8_t *wqe = h->mem + qp->base + TRT_OFF_SQ + (uint64_t)idx * QP_WQ_QUANTUM;

    /* irdma pads the ring's end with a NOP rather than split a WQE; nobody here needs that. */
    ck_assert_uint_le(idx + quanta, TRT_SQ_QUANTA);
    memset(wqe, 0, (size_t)quanta * QP_WQ_QUANTUM);
    if (w->imm_valid) {
        st64(wqe + SQWQE_QW0, w->imm);
        set_frag(wqe, QP_WQ_QUANTUM, w->laddr, w->lstag, w->len, qp->sq_pol);
    } else {
        set_frag(wqe, 0, w->laddr, w->lstag, w->len, qp->sq_pol);
    }
    st64(wqe + SQWQE_REMOTE_VA_OFF, w->raddr);
    /* irdma: frag_cnt counts the immediate; ADDFRAGCNT is frag_cnt - 1. */
    st64(wqe + SQWQE_HDR, pe_prep(SQWQE_REMSTAG, w->rkey) | pe_prep(SQWQE_OPCODE, w->op) |
                          pe_prep(SQWQE_ADDFRAGCNT, w->imm_valid ? 1 : 0) |
                          (w->imm_valid ? SQWQE_IMMDATAFLAG : 0) | SQWQE_SIGCOMPL |
                          (qp->sq_pol ? SQWQE_VALID : 0) | w->hdr_extra);
    qp->sq_head += quanta;
    if (qp->sq_head == TRT_SQ_QUANTA) {
        qp->sq_head = 0;
        qp->sq_pol ^= 1;
    }
    return idx;
}

/* irdma_uk_qp_post_wr: the QP id to WQEALLOC. The engine runs in the write (no delay). */
void ring(const TQp *qp)
{
    irdma_dev_mmio_write(d, PFPE_WQEALLOC, qp->id);
    settle();
}

/* irdma_uk_post_receive: one SGE, header last. No doorbell: the engine finds it by VALID. */
void post_rq(TQp *qp, uint64_t addr, uint32_t len)
{
    uint8_t *wqe = h->mem + qp->base + TRT_OFF_RQ + (uint64_t)qp->rq_head * TRT_RQ_WQE_SIZE;

    memset(wqe, 0, TRT_RQ_WQE_SIZE);
    set_frag(wqe, 0, addr, 0, len, qp->rq_pol);
    st64(wqe + RQWQE_HDR, pe_prep(RQWQE_ADDFRAGCNT, 0) | (qp->rq_pol ? RQWQE_VALID : 0));
    if (++qp->rq_head == TRT_RQ_WQES) {
        qp->rq_head = 0;
        qp->rq_pol ^= 1;
    }
}

/* irdma_uk_cq_poll_cmpl: the CQE at the head if it is of this pass, and its extension. */
bool poll_cq(TQp *qp, TCqe *out)
{
    const uint8_t *ring_base = h->mem + qp->base + TRT_OFF_CQ;
    const uint8_t *cqe = ring_base + (uint64_t)qp->cq_head * CQE_SIZE;
    uint64_t hdr = ld64(cqe + CQE_HDR);

    if (!!(hdr & CQE_VALID) != qp->cq_pol) {
        return false;
    }
    *out = (TCqe) {
        .qw0 = ld64(cqe + CQE_PAYLDLEN_OFF), .ctx = ld64(cqe + CQE_QW1_CTX),
        .qw2 = ld64(cqe + CQE_QW2), .hdr = hdr, .ext = hdr & CQE_EXTCQE,
    };
    for (int slots = out->ext ? 2 : 1; slots; slots--) {
        if (++qp->cq_head == TRT_CQ_SIZE) {
            qp->cq_head = 0;
            qp->cq_pol ^= 1;
        }
        if (slots == 2) {
            const uint8_t *ext = ring_base + (uint64_t)qp->cq_head * CQE_SIZE;

            out->ext_imm = ld64(ext + CQE_EXT_IMM_OFF);
            out->ext_hdr = ld64(ext + CQE_HDR);
        }
    }
    return true;
}

size_t trt_mem_size(const TGeom *g)
{
    return TRT_DATA + 2 * (size_t)g->mr_len;
}

void trt_start(void)
{
    static const TGeom def = DEFAULT_GEOM;

    trt_start_geom(&def);
}

void trt_start_geom(const TGeom *g)
{
    trt_geom = *g;
    h = fake_host_new(trt_mem_size(g));
    d = fake_dev_new(h);
    trt_bring_up();
}

void trt_bring_up(void)
{
    cqpt_start(TRT_CCQ_SIZE);
    create_aeq();
    add_arp(TRT_PEER_MAC);
    reg_mr();
    init_qp(&qa, TRT_QPN_A, TRT_QPN_B, TRT_CQ_A, TRT_PSN_A, TRT_PSN_B, TRT_CTX_A);
    init_qp(&qb, TRT_QPN_B, TRT_QPN_A, TRT_CQ_B, TRT_PSN_B, TRT_PSN_A, TRT_CTX_B);
}

/* The next AEQE (irdma_sc_get_next_aeqe); false if there is none. */
bool next_ae(uint64_t *ctx, uint64_t *info)
{
    const uint8_t *e = h->mem + CQPT_AEQ + (uint64_t)aeq_head * AEQE_SIZE;
    uint64_t qw1 = ld64(e + AEQE_QW1);

    if (!!(qw1 & AEQE_VALID) != aeq_pol) {
        return false;
    }
    *ctx = ld64(e);
    *info = qw1;
    if (++aeq_head == TRT_AEQ_SIZE) {
        aeq_head = 0;
        aeq_pol ^= 1;
    }
    return true;
}

/* The next AE is @code from @src about @qp. */
void expect_ae(const TQp *qp, unsigned code, unsigned src)
{
    uint64_t ctx, info;

    ck_assert_msg(next_ae(&ctx, &info), "no AE (expected 0x%03x on QP %u)", code, qp->id);
    ck_assert_uint_eq(pe_get(info, AEQE_AECODE), code);
    ck_assert_uint_eq(pe_get(info, AEQE_QPCQID_LOW), qp->id);
    ck_assert_uint_eq(pe_get(info, AEQE_AESRC), src);
    ck_assert_uint_eq(ctx, qp->compl_ctx);
}

void expect_no_ae(void)
{
    uint64_t ctx, info;

    ck_assert_msg(!next_ae(&ctx, &info), "unexpected AE 0x%03x on QP %u",
                  (unsigned)pe_get(info, AEQE_AECODE), (unsigned)pe_get(info, AEQE_QPCQID_LOW));
}
