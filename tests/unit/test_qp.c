/* test_qp.c - QPs (CREATE/MODIFY/DESTROY/FLUSH), the WS tree, GATHER_STATS, teardown leaks. */
#include <check.h>
#include <string.h>
#include "cqp_util.h"
#include "emu/rdma/cq.h"
#include "emu/rdma/cqp.h"
#include "emu/rdma/hmc.h"
#include "emu/rdma/pe_regs.h"
#include "emu/rdma/qp.h"
#include "emu/rdma/stats.h"
#include "emu/rdma/ws.h"
#include "emu/core/e810_regs.h"

#define QPT_Q2CTX     0x80000           /* irdma's q2_ctx_mem: 256 B Q2, then the context */
#define QPT_CTX       (QPT_Q2CTX + QPC_Q2_SIZE)
#define QPT_RINGS     0x90000           /* SQ | RQ | shadow, as irdma_setup_kmode_qp */
#define QPT_SQ_ENC    4                 /* 64 quanta */
#define QPT_RQ_ENC    3                 /* 32 quanta */
#define QPT_RQ        (QPT_RINGS + (4u << QPT_SQ_ENC) * 32)
#define QPT_SHADOW    (QPT_RQ + (4u << QPT_RQ_ENC) * 32)
#define QPT_STATS     0xa0000
#define QPT_CQ_ID     1
#define QPT_PD        0x12345
#define QPT_QP_CTX    0xffff888000abc000ull
#define QPT_CCQ_SIZE  256

/* CQP, HMC, CCQ and the CQ QPs complete into. */
static void bring_up(void)
{
    uint64_t q[8] = { 0 };

    cqpt_start(QPT_CCQ_SIZE);
    q[0] = 64;
    q[1] = 0x4000;
    q[3] = cqpt_hdr(CQP_OP_CREATE_CQ) | pe_prep(CQPWQE_CQ_ID, QPT_CQ_ID);
    q[4] = CQPT_CQ;
    q[5] = CQPT_CQ_SHADOW;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
}

/* The host context irdma_sc_qp_setctx_roce writes for a kernel QP. */
static void write_ctx(uint64_t sq, uint64_t rq, unsigned qs_handle)
{
    uint8_t *c = h->mem + QPT_CTX;

    memset(c, 0, QPC_SIZE);
    st64(c + QPC_QW0, pe_prep(QPC_RQWQESIZE, 1) | pe_prep(QPC_PDIDXHI, QPT_PD >> 16) | QPC_IPV4);
    st64(c + QPC_SQADDR_OFF, sq);
    st64(c + QPC_RQADDR_OFF, rq);
    st64(c + QPC_QW3, pe_prep(QPC_RQSIZE, QPT_RQ_ENC) | pe_prep(QPC_SQSIZE, QPT_SQ_ENC) |
                      pe_prep(QPC_TTL, 64) | pe_prep(QPC_SRCPORT, 0xc000) |
                      pe_prep(QPC_DSTPORT, 4791));
    st64(c + QPC_QW6, pe_prep(QPC_SNDMSS, 1024));
    st64(c + QPC_QW7, pe_prep(QPC_PKEY, 0xffff) | pe_prep(QPC_PDIDX, QPT_PD & 0xffff) |
                      pe_prep(QPC_ACKCREDITS, 0x1e));
    st64(c + QPC_QW8, pe_prep(QPC_QKEY, 0x80010000u));
    st64(c + QPC_QW17, pe_prep(QPC_TXCQNUM, QPT_CQ_ID) | pe_prep(QPC_RXCQNUM, QPT_CQ_ID));
    st64(c + QPC_MAC_OFF, 0x525400abcdefull << 16);
    st64(c + QPC_QW20, QPC_WRRDRSPOK | QPC_RDOK | QPC_FASTREGEN | QPC_PRIVEN);
    st64(c + QPC_COMPL_CTX_OFF, QPT_QP_CTX);
    st64(c + QPC_QW22, pe_prep(QPC_QSHANDLE, qs_handle));
}

/* A CREATE/MODIFY/DESTROY_QP WQE as irdma_sc_qp_create/modify/destroy build it. */
static void qp_wqe(uint64_t q[8], unsigned op, unsigned id, unsigned type, unsigned next,
                   uint64_t flags)
{
    memset(q, 0, 8 * sizeof(*q));
    q[2] = QPT_CTX;
    q[5] = QPT_SHADOW;
    q[3] = cqpt_hdr(op) | id | pe_prep(CQPWQE_QP_TYPE, type) |
           pe_prep(CQPWQE_QP_NEXTSTATE, next) | flags;
}

static const uint8_t *create_qp(unsigned id, unsigned type)
{
    uint64_t q[8];

    write_ctx(QPT_RINGS, QPT_RQ, 0);
    qp_wqe(q, CQP_OP_CREATE_QP, id, type, QP_STATE_IDLE,
           CQPWQE_QP_MACVALID | CQPWQE_QP_CQNUMVALID);
    return cqpt_op(q);
}

static const uint8_t *modify_qp(unsigned id, unsigned type, unsigned next, uint64_t flags)
{
    uint64_t q[8];

    qp_wqe(q, CQP_OP_MODIFY_QP, id, type, next, flags);
    return cqpt_op(q);
}

START_TEST(qp1_lifecycle_as_irdma_does)
{
    const PeQp *qp;
    uint64_t q[8];
    unsigned qs;

    bring_up();
    ck_assert_uint_eq(cqpt_maj(create_qp(1, QP_TYPE_ROCE_UD)), 0);
    qp = qp_lookup(d, 1);
    ck_assert_ptr_nonnull(qp);
    ck_assert_uint_eq(qp->state, QP_STATE_IDLE);
    ck_assert_uint_eq(qp->type, QP_TYPE_ROCE_UD);
    ck_assert_uint_eq(qp->sq.pa, QPT_RINGS);
    ck_assert_uint_eq(qp->rq.pa, QPT_RQ);
    ck_assert_uint_eq(qp->sq_quanta, 64);
    ck_assert_uint_eq(qp->rq_quanta, 32);
    ck_assert_uint_eq(qp->rq_wqe_shift, 1);
    ck_assert_uint_eq(qp->tx_cq, QPT_CQ_ID);
    ck_assert_uint_eq(qp->rx_cq, QPT_CQ_ID);
    ck_assert_uint_eq(qp->pd, QPT_PD);
    ck_assert_uint_eq(qp->compl_ctx, QPT_QP_CTX);
    ck_assert_uint_eq(qp->shadow_pa, QPT_SHADOW);
    ck_assert_uint_eq(qp->src_mac, 0x525400abcdefull);
    /* dev->ws_add after the create, then the QP's context carries the qs_handle. */
    qs = cqpt_ws_add_tree();
    write_ctx(QPT_RINGS, QPT_RQ, qs);
    ck_assert_uint_eq(cqpt_maj(modify_qp(1, QP_TYPE_ROCE_UD, QP_STATE_IDLE, 0)), 0);
    ck_assert_uint_eq(qp->qs_handle, qs);
    ck_assert_uint_eq(cqpt_maj(modify_qp(1, QP_TYPE_ROCE_UD, QP_STATE_RTR,
                                    CQPWQE_QP_ARPTABIDXVALID | CQPWQE_QP_CQNUMVALID)), 0);
    ck_assert_uint_eq(cqpt_maj(modify_qp(1, QP_TYPE_ROCE_UD, QP_STATE_RTS,
                                    CQPWQE_QP_ARPTABIDXVALID | CQPWQE_QP_CQNUMVALID |
                                    CQPWQE_QP_ORDVALID)), 0);
    ck_assert_uint_eq(qp->state, QP_STATE_RTS);
    ck_assert_uint_eq(pe_get(ld64(qp->ctx + QPC_QW8), QPC_QKEY), 0x80010000u);
    /* Teardown: ERROR, flush both queues (nothing taken by the device yet), destroy. */
    ck_assert_uint_eq(cqpt_maj(modify_qp(1, QP_TYPE_ROCE_UD, QP_STATE_ERROR, 0)), 0);
    memset(q, 0, sizeof(q));
    q[2] = pe_prep(CQPWQE_FLUSH_SQMJERR, 1) | pe_prep(CQPWQE_FLUSH_SQMNERR, 5) |
           pe_prep(CQPWQE_FLUSH_RQMJERR, 1) | pe_prep(CQPWQE_FLUSH_RQMNERR, 5);
    q[3] = cqpt_hdr(CQP_OP_FLUSH_WQES) | 1 | CQPWQE_FLUSH_USERFLCODE | CQPWQE_FLUSH_SQ |
           CQPWQE_FLUSH_RQ;
    {
        const uint8_t *cqe = cqpt_op(q);

        ck_assert_uint_eq(cqpt_maj(cqe), 0);
        ck_assert_uint_eq(cqpt_min(cqe), CQP_MIN_NOTHING_FLUSHED);
        ck_assert(!(ld64(cqe + CQE_HDR) & CQE_ERROR));
    }
    ck_assert(qp->flush_sq && qp->flush_rq);
    ck_assert_uint_eq(qp->rq_flush_min, 5);
    qp_wqe(q, CQP_OP_DESTROY_QP, 1, QP_TYPE_ROCE_UD, 0, CQPWQE_QP_REMOVEHASHENTRY);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_ptr_null(qp_lookup(d, 1));
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);       /* already gone */
}
END_TEST

START_TEST(create_qp_rejects_bad_wqes)
{
    uint64_t q[8];
    uint64_t ok = CQPWQE_QP_MACVALID | CQPWQE_QP_CQNUMVALID;
    uint8_t *c = h->mem + QPT_CTX;

    bring_up();
    /* QP id beyond the committed 4096. */
    ck_assert_uint_eq(cqpt_min(create_qp(5000, QP_TYPE_ROCE_RC)), CQP_MIN_BAD_ID);
    /* iWARP and UDA types, a start state other than INIT, no CQs, TCP context. */
    ck_assert_uint_eq(cqpt_min(create_qp(5, QP_TYPE_IWARP)), CQP_MIN_BAD_FIELD);
    write_ctx(QPT_RINGS, QPT_RQ, 0);
    qp_wqe(q, CQP_OP_CREATE_QP, 5, QP_TYPE_ROCE_RC, QP_STATE_RTS, ok);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    qp_wqe(q, CQP_OP_CREATE_QP, 5, QP_TYPE_ROCE_RC, QP_STATE_IDLE, CQPWQE_QP_MACVALID);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    qp_wqe(q, CQP_OP_CREATE_QP, 5, QP_TYPE_ROCE_RC, QP_STATE_IDLE, ok | CQPWQE_QP_TOECTXVALID);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    /* Host context outside guest memory, misaligned; shadow area missing. */
    qp_wqe(q, CQP_OP_CREATE_QP, 5, QP_TYPE_ROCE_RC, QP_STATE_IDLE, ok);
    q[2] = 0x7fff00000000ull;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ADDR);
    q[2] = QPT_CTX + 4;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ADDR);
    q[2] = QPT_CTX;
    q[5] = 0;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ADDR);
    q[5] = QPT_SHADOW;
    /* CQ that does not exist; the CCQ. */
    st64(c + QPC_QW17, pe_prep(QPC_TXCQNUM, 7) | pe_prep(QPC_RXCQNUM, QPT_CQ_ID));
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    st64(c + QPC_QW17, pe_prep(QPC_TXCQNUM, QPT_CQ_ID) | pe_prep(QPC_RXCQNUM, 0));
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    /* SQ size encoding past 32768 quanta; SQ misaligned; RQ past the end of memory. */
    write_ctx(QPT_RINGS, QPT_RQ, 0);
    st64(c + QPC_QW3, ld64(c + QPC_QW3) | pe_prep(QPC_SQSIZE, 14));
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_SIZE);
    write_ctx(QPT_RINGS + 8, QPT_RQ, 0);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ADDR);
    write_ctx(QPT_RINGS, CQPT_MEM_SIZE - 64, 0);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ADDR);
    /* A push page never allocated. */
    write_ctx(QPT_RINGS, QPT_RQ, 0);
    st64(c + QPC_QW0, ld64(c + QPC_QW0) | QPC_PMENA | pe_prep(QPC_PPIDX, 3));
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    /* A stats instance never allocated. */
    write_ctx(QPT_RINGS, QPT_RQ, 0);
    st64(c + QPC_QW20, ld64(c + QPC_QW20) | QPC_USESTATSINSTANCE);
    st64(c + QPC_QW18, pe_prep(QPC_STAT_INDEX, 9));
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    ck_assert_uint_eq(qp_count(d), 0);
    /* Good, then the same id again. */
    ck_assert_uint_eq(cqpt_maj(create_qp(5, QP_TYPE_ROCE_RC)), 0);
    ck_assert_uint_eq(cqpt_min(create_qp(5, QP_TYPE_ROCE_RC)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(qp_count(d), 1);
    ck_assert(irdma_dev_mmio_read(d, PFPE_CQPTAIL) & PFPE_CQPTAIL_OP_ERR_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPERRCODES),
                      0xffff0000u | CQP_MIN_INVALID_STATE);
}
END_TEST

START_TEST(create_qp_without_hmc_backing_is_an_objcache_error)
{
    uint64_t q[8];

    ck_assert_uint_eq(cqpt_create(3), PFPE_CCQPSTATUS_DONE_M);
    write_ctx(QPT_RINGS, QPT_RQ, 0);
    qp_wqe(q, CQP_OP_CREATE_QP, 1, QP_TYPE_ROCE_UD, QP_STATE_IDLE, CQPWQE_QP_CQNUMVALID);
    cqpt_run(q);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPERRCODES),
                      ((uint32_t)CQP_MAJ_OBJCACHE_ERROR << 16) | CQP_MIN_HMC_NOT_COMMITTED);
}
END_TEST

START_TEST(modify_qp_enforces_the_state_machine)
{
    uint8_t *c = h->mem + QPT_CTX;
    uint64_t q[8];

    bring_up();
    ck_assert_uint_eq(cqpt_maj(create_qp(7, QP_TYPE_ROCE_RC)), 0);
    /* INIT -> RTS, INIT -> SQD skip RTR; RESET and TERMINATE are no targets. */
    ck_assert_uint_eq(cqpt_min(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_RTS, 0)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(cqpt_min(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_SQD, 0)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(cqpt_min(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_INVALID, 0)),
                      CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(cqpt_min(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_TERMINATE, 0)),
                      CQP_MIN_INVALID_STATE);
    /* Wrong QP type, unknown QP, iWARP context bits. */
    ck_assert_uint_eq(cqpt_min(modify_qp(7, QP_TYPE_ROCE_UD, QP_STATE_RTR, 0)), CQP_MIN_BAD_FIELD);
    ck_assert_uint_eq(cqpt_min(modify_qp(8, QP_TYPE_ROCE_RC, QP_STATE_RTR, 0)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(cqpt_min(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_RTR, CQPWQE_QP_TOECTXVALID)),
                      CQP_MIN_BAD_FIELD);
    /* A context that moves the rings. */
    write_ctx(QPT_RINGS + 0x1000, QPT_RQ, 0);
    ck_assert_uint_eq(cqpt_min(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_RTR, 0)), CQP_MIN_BAD_FIELD);
    /* An ARP index beyond the committed 2048, only with ARPTABIDXVALID. */
    write_ctx(QPT_RINGS, QPT_RQ, 0);
    st64(c + QPC_QW6, pe_prep(QPC_ARPIDX, 3000));
    ck_assert_uint_eq(cqpt_min(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_RTR, CQPWQE_QP_ARPTABIDXVALID)),
                      CQP_MIN_BAD_ID);
    st64(c + QPC_QW6, pe_prep(QPC_ARPIDX, 12) | pe_prep(QPC_SNDMSS, 4096));
    st64(c + QPC_QW8, pe_prep(QPC_DESTQP, 0x42));
    ck_assert_uint_eq(cqpt_maj(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_RTR,
                                    CQPWQE_QP_ARPTABIDXVALID | CQPWQE_QP_CQNUMVALID)), 0);
    ck_assert_uint_eq(qp_lookup(d, 7)->arp_idx, 12);
    ck_assert_uint_eq(pe_get(ld64(qp_lookup(d, 7)->ctx + QPC_QW8), QPC_DESTQP), 0x42);
    ck_assert_uint_eq(cqpt_min(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_IDLE, 0)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(cqpt_maj(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_RTS, 0)), 0);
    ck_assert_uint_eq(cqpt_maj(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_RTS, 0)), 0);
    /* ERROR is reachable from anywhere, and nothing but ERROR from it. */
    ck_assert_uint_eq(cqpt_maj(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_ERROR, 0)), 0);
    ck_assert_uint_eq(cqpt_maj(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_ERROR, 0)), 0);
    ck_assert_uint_eq(cqpt_min(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_RTS, 0)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(cqpt_min(modify_qp(7, QP_TYPE_ROCE_RC, QP_STATE_IDLE, 0)), CQP_MIN_INVALID_STATE);
    /* Destroy needs the right type too, and works from ERROR. */
    qp_wqe(q, CQP_OP_DESTROY_QP, 7, QP_TYPE_ROCE_UD, 0, 0);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    qp_wqe(q, CQP_OP_DESTROY_QP, 7, QP_TYPE_ROCE_RC, 0, 0);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(qp_count(d), 0);
}
END_TEST

static void create_aeq(void)
{
    uint64_t q[8] = { 0 };

    q[2] = 16;
    q[3] = cqpt_hdr(CQP_OP_CREATE_AEQ);
    q[4] = CQPT_AEQ;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
}

START_TEST(sqd_posts_suspend_complete_with_rts_iwstate)
{
    uint64_t info;

    bring_up();
    create_aeq();
    ck_assert_uint_eq(cqpt_maj(create_qp(9, QP_TYPE_ROCE_RC)), 0);
    ck_assert_uint_eq(cqpt_maj(modify_qp(9, QP_TYPE_ROCE_RC, QP_STATE_RTR, 0)), 0);
    ck_assert_uint_eq(cqpt_maj(modify_qp(9, QP_TYPE_ROCE_RC, QP_STATE_RTS, 0)), 0);
    ck_assert_uint_eq(ld64(h->mem + CQPT_AEQ + 8), 0);
    ck_assert_uint_eq(cqpt_maj(modify_qp(9, QP_TYPE_ROCE_RC, QP_STATE_SQD, 0)), 0);
    ck_assert_uint_eq(qp_lookup(d, 9)->state, QP_STATE_SQD);
    ck_assert_uint_eq(ld64(h->mem + CQPT_AEQ), QPT_QP_CTX);
    info = ld64(h->mem + CQPT_AEQ + 8);
    ck_assert(info & AEQE_VALID);
    ck_assert_uint_eq(pe_get(info, AEQE_AECODE), AE_QP_SUSPEND_COMPLETE);
    ck_assert_uint_eq(pe_get(info, AEQE_QPCQID_LOW), 9);
    ck_assert_uint_eq(pe_get(info, AEQE_IWSTATE), QP_STATE_RTS);
    ck_assert_uint_eq(pe_get(info, AEQE_AESRC), AE_SOURCE_RSVD);
    /* SQD -> RTS resumes with a plain modify. */
    ck_assert_uint_eq(cqpt_maj(modify_qp(9, QP_TYPE_ROCE_RC, QP_STATE_RTS, 0)), 0);
}
END_TEST

START_TEST(virtual_qp_rings_go_through_pbles)
{
    uint64_t q[8], pble;

    bring_up();
    ck_assert_uint_eq(hmc_obj_gpa(d, HMC_PBLE, 0, &pble), HMC_OK);
    st64(h->mem + pble, 0x70000);          /* SQ: PBLE 0 (2 KiB ring, one page) */
    st64(h->mem + pble + 8, 0x71000);      /* RQ: PBLE 1 */
    write_ctx(0, 1, 0);
    qp_wqe(q, CQP_OP_CREATE_QP, 10, QP_TYPE_ROCE_RC, QP_STATE_IDLE,
           CQPWQE_QP_CQNUMVALID | CQPWQE_QP_VQ);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert(qp_lookup(d, 10)->sq.virt);
    ck_assert_uint_eq(qp_lookup(d, 10)->rq.first_pble, 1);
    /* PBLE index beyond the committed count. */
    write_ctx(0, 0xfffffff, 0);
    qp_wqe(q, CQP_OP_CREATE_QP, 11, QP_TYPE_ROCE_RC, QP_STATE_IDLE,
           CQPWQE_QP_CQNUMVALID | CQPWQE_QP_VQ);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    /* A modify must keep VQ: without it the same context would name different rings. */
    write_ctx(0, 1, 0);
    ck_assert_uint_eq(cqpt_min(modify_qp(10, QP_TYPE_ROCE_RC, QP_STATE_RTR, 0)), CQP_MIN_BAD_ADDR);
    ck_assert_uint_eq(cqpt_maj(modify_qp(10, QP_TYPE_ROCE_RC, QP_STATE_RTR, CQPWQE_QP_VQ)), 0);
}
END_TEST

START_TEST(ws_tree_refuses_inconsistent_requests)
{
    unsigned qs;

    bring_up();
    /* A child before the root; a root other than node 0; a leaf root. */
    ck_assert_uint_eq(cqpt_min(cqpt_ws_op(WS_NODEOP_ADD, 1, 0, false, true)), CQP_MIN_BAD_ID);
    ck_assert_uint_eq(cqpt_min(cqpt_ws_op(WS_NODEOP_ADD, 4, 4, false, true)), CQP_MIN_BAD_ID);
    ck_assert_uint_eq(cqpt_min(cqpt_ws_op(WS_NODEOP_ADD, 0, 0, true, true)), CQP_MIN_BAD_ID);
    qs = cqpt_ws_add_tree();
    ck_assert_uint_eq(qs, 2);
    ck_assert_uint_eq(ws_node_count(d), 3);
    /* Duplicate id; unknown parent; a leaf as parent. */
    ck_assert_uint_eq(cqpt_min(cqpt_ws_op(WS_NODEOP_ADD, 2, 1, true, false)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(cqpt_min(cqpt_ws_op(WS_NODEOP_ADD, 3, 9, true, false)), CQP_MIN_BAD_ID);
    ck_assert_uint_eq(cqpt_min(cqpt_ws_op(WS_NODEOP_ADD, 3, 2, true, false)), CQP_MIN_BAD_ID);
    /* Modify that moves a node or turns it into a leaf; modify of a missing node. */
    ck_assert_uint_eq(cqpt_min(cqpt_ws_op(WS_NODEOP_MODIFY, 2, 0, true, true)), CQP_MIN_BAD_FIELD);
    ck_assert_uint_eq(cqpt_min(cqpt_ws_op(WS_NODEOP_MODIFY, 1, 0, true, true)), CQP_MIN_BAD_FIELD);
    ck_assert_uint_eq(cqpt_min(cqpt_ws_op(WS_NODEOP_MODIFY, 5, 1, true, true)), CQP_MIN_INVALID_STATE);
    /* Delete with children, with the wrong parent, of a missing node; unknown op. */
    ck_assert_uint_eq(cqpt_min(cqpt_ws_op(WS_NODEOP_DELETE, 1, 0, false, true)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(cqpt_min(cqpt_ws_op(WS_NODEOP_DELETE, 0, 0, false, true)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(cqpt_min(cqpt_ws_op(WS_NODEOP_DELETE, 2, 0, true, true)), CQP_MIN_BAD_FIELD);
    ck_assert_uint_eq(cqpt_min(cqpt_ws_op(WS_NODEOP_DELETE, 6, 1, true, true)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(cqpt_min(cqpt_ws_op(3, 2, 1, true, true)), CQP_MIN_BAD_FIELD);
    /* irdma_remove_leaf order: leaf, VSI node, root. */
    ck_assert_uint_eq(cqpt_maj(cqpt_ws_op(WS_NODEOP_DELETE, 2, 1, true, true)), 0);
    ck_assert(!ws_qs_handle_enabled(d, qs));
    ck_assert_uint_eq(cqpt_maj(cqpt_ws_op(WS_NODEOP_DELETE, 1, 0, false, true)), 0);
    ck_assert_uint_eq(cqpt_maj(cqpt_ws_op(WS_NODEOP_DELETE, 0, 0, false, true)), 0);
    ck_assert_uint_eq(ws_node_count(d), 0);
    /* And it builds again after a TC change (irdma_ws_reset + ws_add). */
    ck_assert_uint_eq(cqpt_ws_add_tree(), 2);
}
END_TEST

START_TEST(gather_stats_writes_the_instance_buffer)
{
    uint64_t q[8] = { 0 };
    const uint8_t *cqe;
    unsigned inst;

    bring_up();
    q[3] = cqpt_hdr(CQP_OP_MANAGE_STATS) | CQPWQE_STATS_ALLOC_INST | CQPWQE_STATS_USE_FN_INDEX;
    inst = cqpt_retval(cqpt_op(q));
    ck_assert_uint_eq(inst, 1);
    stats_count(d, inst, STATS_RDMA_TX_SENDS, 3);
    stats_count(d, inst, STATS_UDP_TX_PKTS, 7);
    stats_count(d, inst, STATS_IP4_RX_DISCARDS, 5);            /* bits 63:32 of its qword */
    stats_count(d, inst, STATS_RETRANSMITS, (1ull << 32) + 2); /* 32 bits wide: wraps */
    stats_count(d, inst, STATS_IP4_TX_OCTS, (1ull << 48) + 9); /* 48 bits wide: wraps */
    stats_count(d, STATS_INST_MAX, STATS_UDP_TX_PKTS, 1);      /* no such instance: ignored */
    memset(h->mem + QPT_STATS, 0xaa, 2 * GSTATS_BUF_SIZE);
    /* irdma_sc_gather_stats with the instance irdma_vsi_stats_init allocated. */
    memset(q, 0, sizeof(q));
    q[4] = QPT_STATS;
    q[5] = PE_PF_HMC_FN_ID;
    q[3] = cqpt_hdr(CQP_OP_GATHER_STATS) | CQPWQE_STATS_USE_INST |
           pe_prep(CQPWQE_STATS_INST_INDEX, inst);
    cqe = cqpt_op(q);
    ck_assert_uint_eq(cqpt_maj(cqe), 0);
    ck_assert_uint_eq(ld64(h->mem + QPT_STATS + GSTATS_RDMATXSNDS), 3);
    ck_assert_uint_eq(ld64(h->mem + QPT_STATS + GSTATS_UDPTXPKTS), 7);
    ck_assert_uint_eq(ld64(h->mem + QPT_STATS + GSTATS_IP4RXPKTS), 0);
    ck_assert_uint_eq(ld64(h->mem + QPT_STATS + GSTATS_IP4RXDISCARD), 5ull << 32);
    ck_assert_uint_eq(ld64(h->mem + QPT_STATS + GSTATS_TCPRTXSEG), 2ull << 32);
    ck_assert_uint_eq(ld64(h->mem + QPT_STATS + GSTATS_IP4TXOCTS), 9);
    ck_assert_uint_eq(ld64(h->mem + QPT_STATS + GSTATS_BUF_SIZE - 8), 0);
    ck_assert_uint_eq(h->mem[QPT_STATS + GSTATS_BUF_SIZE], 0xaa);   /* "last" half untouched */
    /* The function's own counters (no instance) are separate. */
    q[3] = cqpt_hdr(CQP_OP_GATHER_STATS);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(ld64(h->mem + QPT_STATS + GSTATS_RDMATXSNDS), 0);
    /* Instance never allocated, misaligned or unreachable buffer, another function. */
    q[3] = cqpt_hdr(CQP_OP_GATHER_STATS) | CQPWQE_STATS_USE_INST | pe_prep(CQPWQE_STATS_INST_INDEX, 9);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    q[3] = cqpt_hdr(CQP_OP_GATHER_STATS);
    q[4] = QPT_STATS + 4;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ADDR);
    q[4] = CQPT_MEM_SIZE - 512;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ADDR);
    q[4] = QPT_STATS;
    q[5] = 7;
    q[3] = cqpt_hdr(CQP_OP_GATHER_STATS) | CQPWQE_STATS_USE_FN_INDEX;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
}
END_TEST

START_TEST(flush_and_gen_ae)
{
    uint64_t q[8] = { 0 }, info;

    bring_up();
    create_aeq();
    ck_assert_uint_eq(cqpt_maj(create_qp(12, QP_TYPE_ROCE_RC)), 0);
    /* Flushing a QP not in ERROR; a WQE asking for nothing; a missing QP. */
    q[3] = cqpt_hdr(CQP_OP_FLUSH_WQES) | 12 | CQPWQE_FLUSH_SQ;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    q[3] = cqpt_hdr(CQP_OP_FLUSH_WQES) | 12;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    q[3] = cqpt_hdr(CQP_OP_FLUSH_WQES) | 13 | CQPWQE_FLUSH_RQ;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    /* irdma_sc_gen_ae: GENERATE_AE, no queues; the AEQE carries code and source. */
    q[1] = 0x0104 | pe_prep(CQPWQE_FLUSH_AESOURCE, 1);
    q[3] = cqpt_hdr(CQP_OP_FLUSH_WQES) | 12 | CQPWQE_FLUSH_GENERATE_AE;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    info = ld64(h->mem + CQPT_AEQ + 8);
    ck_assert(info & AEQE_VALID);
    ck_assert_uint_eq(pe_get(info, AEQE_AECODE), 0x104);
    ck_assert_uint_eq(pe_get(info, AEQE_AESRC), 1);
    ck_assert_uint_eq(pe_get(info, AEQE_QPCQID_LOW), 12);
    ck_assert_uint_eq(ld64(h->mem + CQPT_AEQ), QPT_QP_CTX);
    /* In ERROR a flush of one queue, no user codes. */
    ck_assert_uint_eq(cqpt_maj(modify_qp(12, QP_TYPE_ROCE_RC, QP_STATE_ERROR, 0)), 0);
    memset(q, 0, sizeof(q));
    q[3] = cqpt_hdr(CQP_OP_FLUSH_WQES) | 12 | CQPWQE_FLUSH_RQ;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert(qp_lookup(d, 12)->flush_rq && !qp_lookup(d, 12)->flush_sq);
}
END_TEST

/* The rmmod order (hw.c irdma_ctrl_deinit_hw & co), from a device with QP1 up. */
START_TEST(rmmod_teardown_leaves_nothing_alive)
{
    uint64_t q[8] = { 0 };

    bring_up();
    q[2] = 16;
    q[3] = cqpt_hdr(CQP_OP_CREATE_CEQ) | pe_prep(CQPWQE_CEQ_ID, 0);
    q[4] = CQPT_CEQ;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    memset(q, 0, sizeof(q));
    q[3] = cqpt_hdr(CQP_OP_MANAGE_STATS) | CQPWQE_STATS_ALLOC_INST | CQPWQE_STATS_USE_FN_INDEX;
    ck_assert_uint_eq(cqpt_retval(cqpt_op(q)), 1);
    create_aeq();
    ck_assert_uint_eq(cqpt_maj(create_qp(1, QP_TYPE_ROCE_UD)), 0);
    cqpt_ws_add_tree();
    ck_assert_uint_eq(cqpt_maj(modify_qp(1, QP_TYPE_ROCE_UD, QP_STATE_IDLE, 0)), 0);
    ck_assert_uint_eq(cqpt_maj(modify_qp(1, QP_TYPE_ROCE_UD, QP_STATE_RTR, 0)), 0);
    ck_assert_uint_eq(cqpt_maj(modify_qp(1, QP_TYPE_ROCE_UD, QP_STATE_RTS, 0)), 0);
    /* Destroying the CQP now would leak: the check says so. */
    ck_assert_uint_eq(cqp_leak_check(d), 1 + 2 + 1 + 1 + 3 + 1);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_cqp_leak:"), 1);
    /* QP1: ERROR + flush, destroy; WS leaf, VSI, root; its CQ; stats; AEQ; CEQ 0; CCQ. */
    ck_assert_uint_eq(cqpt_maj(modify_qp(1, QP_TYPE_ROCE_UD, QP_STATE_ERROR, 0)), 0);
    memset(q, 0, sizeof(q));
    q[3] = cqpt_hdr(CQP_OP_FLUSH_WQES) | 1 | CQPWQE_FLUSH_SQ | CQPWQE_FLUSH_RQ |
           CQPWQE_FLUSH_USERFLCODE;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    qp_wqe(q, CQP_OP_DESTROY_QP, 1, QP_TYPE_ROCE_UD, 0, CQPWQE_QP_REMOVEHASHENTRY);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(cqpt_maj(cqpt_ws_op(WS_NODEOP_DELETE, 2, 1, true, true)), 0);
    ck_assert_uint_eq(cqpt_maj(cqpt_ws_op(WS_NODEOP_DELETE, 1, 0, false, true)), 0);
    ck_assert_uint_eq(cqpt_maj(cqpt_ws_op(WS_NODEOP_DELETE, 0, 0, false, true)), 0);
    memset(q, 0, sizeof(q));
    q[3] = cqpt_hdr(CQP_OP_DESTROY_CQ) | pe_prep(CQPWQE_CQ_ID, QPT_CQ_ID);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    q[3] = cqpt_hdr(CQP_OP_MANAGE_STATS) | pe_prep(CQPWQE_STATS_INST_INDEX, 1);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    q[3] = cqpt_hdr(CQP_OP_DESTROY_AEQ);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    q[3] = cqpt_hdr(CQP_OP_DESTROY_CEQ) | 0;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    q[3] = cqpt_hdr(CQP_OP_DESTROY_CQ) | CQ_ID_CCQ;
    cqpt_run(q);
    ck_assert(!(irdma_dev_mmio_read(d, PFPE_CQPTAIL) & PFPE_CQPTAIL_OP_ERR_M));
    irdma_dev_mmio_write(d, PFPE_CCQPHIGH, 0);
    irdma_dev_mmio_write(d, PFPE_CCQPLOW, 0);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CCQPSTATUS), 0);
    ck_assert_uint_eq(fake_host_trace_count(h, "cqp_leak_check:"), 1);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_cqp_leak:"), 1);     /* only the early one */
    ck_assert_uint_eq(cqp_leak_check(d), 0);
    ck_assert_uint_eq(d->rdma_teardowns, 1);
    ck_assert_uint_eq(d->rdma_leaked, 0);
    /* modprobe irdma again: a new CQP, a fresh FPM commit and HMC, the same ids. */
    bring_up();
    ck_assert_uint_eq(cqpt_maj(create_qp(1, QP_TYPE_ROCE_UD)), 0);
}
END_TEST

START_TEST(pf_reset_drops_qps_and_the_ws_tree)
{
    bring_up();
    ck_assert_uint_eq(cqpt_maj(create_qp(1, QP_TYPE_ROCE_UD)), 0);
    cqpt_ws_add_tree();
    irdma_dev_pf_reset(d);
    ck_assert_uint_eq(qp_count(d), 0);
    ck_assert_uint_eq(ws_node_count(d), 0);
    bring_up();
    ck_assert_uint_eq(cqpt_maj(create_qp(1, QP_TYPE_ROCE_UD)), 0);
    ck_assert_uint_eq(cqpt_ws_add_tree(), 2);
}
END_TEST

/* The TC-change sequence (irdma_sc_suspend_resume_qps): SUSPEND each QP, AE 0x900 per
 * SUSPEND, a new WS tree, RESUME with the new qs_handle. */
START_TEST(suspend_resume_rebinds_the_qs_handle)
{
    uint64_t q[8] = { 0 }, info;
    unsigned qs;
    const PeQp *qp;

    bring_up();
    create_aeq();
    qs = cqpt_ws_add_tree();
    ck_assert_uint_eq(cqpt_maj(create_qp(5, QP_TYPE_ROCE_RC)), 0);
    ck_assert_uint_eq(cqpt_maj(modify_qp(5, QP_TYPE_ROCE_RC, QP_STATE_RTR, 0)), 0);
    ck_assert_uint_eq(cqpt_maj(modify_qp(5, QP_TYPE_ROCE_RC, QP_STATE_RTS, 0)), 0);
    qp = qp_lookup(d, 5);
    q[3] = cqpt_hdr(CQP_OP_SUSPEND_QP) | pe_prep(CQPWQE_QP_ID, 5);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert(qp->suspended);
    ck_assert_uint_eq(qp->state, QP_STATE_RTS);
    ck_assert_uint_eq(ld64(h->mem + CQPT_AEQ), QPT_QP_CTX);
    info = ld64(h->mem + CQPT_AEQ + 8);
    ck_assert(info & AEQE_VALID);
    ck_assert_uint_eq(pe_get(info, AEQE_AECODE), AE_QP_SUSPEND_COMPLETE);
    ck_assert_uint_eq(pe_get(info, AEQE_QPCQID_LOW), 5);
    ck_assert_uint_eq(pe_get(info, AEQE_IWSTATE), QP_STATE_RTS);
    /* Suspending again completes and posts the AE again. */
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    info = ld64(h->mem + CQPT_AEQ + AEQE_SIZE + 8);
    ck_assert(info & AEQE_VALID);
    ck_assert_uint_eq(pe_get(info, AEQE_AECODE), AE_QP_SUSPEND_COMPLETE);
    /* irdma_ws_reset + irdma_ws_add: leaf 3 under VSI node 1 is the new qset. */
    ck_assert_uint_eq(cqpt_maj(cqpt_ws_op(WS_NODEOP_DELETE, qs, 1, true, true)), 0);
    ck_assert_uint_eq(cqpt_maj(cqpt_ws_op(WS_NODEOP_ADD, 3, 1, true, false)), 0);
    ck_assert_uint_eq(cqpt_maj(cqpt_ws_op(WS_NODEOP_MODIFY, 3, 1, true, true)), 0);
    /* RESUME naming the deleted leaf, a non-leaf and an out-of-range handle is refused. */
    memset(q, 0, sizeof(q));
    q[3] = cqpt_hdr(CQP_OP_RESUME_QP) | pe_prep(CQPWQE_QP_ID, 5);
    q[2] = pe_prep(CQPWQE_RESUME_QSHANDLE, qs);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    q[2] = pe_prep(CQPWQE_RESUME_QSHANDLE, 1);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    q[2] = pe_prep(CQPWQE_RESUME_QSHANDLE, 0x10000);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    ck_assert(qp->suspended);
    q[2] = pe_prep(CQPWQE_RESUME_QSHANDLE, 3);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert(!qp->suspended);
    ck_assert_uint_eq(qp->qs_handle, 3);
    /* The counters QOM exports: two suspends, each with its AE, one resume (refusals apart). */
    ck_assert_uint_eq(d->qp_suspends, 2);
    ck_assert_uint_eq(d->qp_suspend_aes, 2);
    ck_assert_uint_eq(d->qp_resumes, 1);
    /* Resuming a running QP; suspend/resume of a missing QP. */
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    q[3] = cqpt_hdr(CQP_OP_RESUME_QP) | pe_prep(CQPWQE_QP_ID, 6);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    q[3] = cqpt_hdr(CQP_OP_SUSPEND_QP) | pe_prep(CQPWQE_QP_ID, 6);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    q[3] = cqpt_hdr(CQP_OP_SUSPEND_QP) | pe_prep(CQPWQE_QP_ID, 0xffffff);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    /* A refused suspend earns no AE: irdma's count of pending suspends stays up. */
    ck_assert_uint_eq(d->qp_suspend_aes, 2);
}
END_TEST

/* A QP that is not running still gets its AE, with its own state in IWSTATE. */
START_TEST(suspend_of_an_idle_or_error_qp_posts_the_ae)
{
    uint64_t q[8] = { 0 }, info;

    bring_up();
    create_aeq();
    ck_assert_uint_eq(cqpt_maj(create_qp(7, QP_TYPE_ROCE_UD)), 0);
    q[3] = cqpt_hdr(CQP_OP_SUSPEND_QP) | pe_prep(CQPWQE_QP_ID, 7);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    info = ld64(h->mem + CQPT_AEQ + 8);
    ck_assert_uint_eq(pe_get(info, AEQE_AECODE), AE_QP_SUSPEND_COMPLETE);
    ck_assert_uint_eq(pe_get(info, AEQE_IWSTATE), QP_STATE_IDLE);
    ck_assert_uint_eq(cqpt_maj(modify_qp(7, QP_TYPE_ROCE_UD, QP_STATE_ERROR, 0)), 0);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    info = ld64(h->mem + CQPT_AEQ + AEQE_SIZE + 8);
    ck_assert_uint_eq(pe_get(info, AEQE_IWSTATE), QP_STATE_ERROR);
}
END_TEST

/* irdma_resize_cq: MODIFY_CQ with CQRESIZE; CQEs go to slot 0 of the new ring. */
START_TEST(modify_cq_resizes_into_the_new_ring)
{
    uint64_t q[8] = { 0 };

    bring_up();
    q[0] = 128;
    q[1] = 0x4000;
    q[4] = CQPT_CQ + 0x8000;
    q[5] = CQPT_CQ_SHADOW;
    q[3] = cqpt_hdr(CQP_OP_MODIFY_CQ) | pe_prep(CQPWQE_CQ_ID, QPT_CQ_ID) | CQPWQE_CQ_RESIZE |
           CQPWQE_CQ_CHKOVERFLOW | CQPWQE_CQ_ENCEQEMASK;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    {
        uint8_t cqe[CQE_SIZE] = { 0 };

        ck_assert(cq_post(d, QPT_CQ_ID, cqe, false));
        ck_assert(ld64(h->mem + CQPT_CQ + 0x8000 + CQE_HDR) & CQE_VALID);
        ck_assert(!(ld64(h->mem + CQPT_CQ + CQE_HDR) & CQE_VALID));
    }
    /* Bad size, misaligned ring, level-2 PBL, the CCQ, a missing CQ, an unaligned shadow. */
    q[0] = 0;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_SIZE);
    q[0] = 128;
    q[4] = CQPT_CQ + 8;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ADDR);
    q[4] = 0;
    q[6] = 0;
    q[3] |= CQPWQE_VIRTMAP | pe_prep(CQPWQE_LPBLSIZE, 2);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    q[3] = cqpt_hdr(CQP_OP_MODIFY_CQ) | pe_prep(CQPWQE_CQ_ID, CQ_ID_CCQ) | CQPWQE_CQ_RESIZE;
    q[4] = CQPT_CQ;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    q[3] = cqpt_hdr(CQP_OP_MODIFY_CQ) | pe_prep(CQPWQE_CQ_ID, 77) | CQPWQE_CQ_RESIZE;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    q[3] = cqpt_hdr(CQP_OP_MODIFY_CQ) | pe_prep(CQPWQE_CQ_ID, QPT_CQ_ID) | CQPWQE_CQ_RESIZE;
    q[5] = CQPT_CQ_SHADOW + 4;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ADDR);
}
END_TEST

/* QP contexts with PMENA need a page from MANAGE_PUSH_PAGES. */
START_TEST(push_page_enables_a_push_mode_qp)
{
    uint64_t q[8] = { 0 }, q0;
    const uint8_t *cqe;
    unsigned qs, page;

    bring_up();
    qs = cqpt_ws_add_tree();
    q[2] = qs;
    q[3] = cqpt_hdr(CQP_OP_MANAGE_PUSH_PAGES);
    cqe = cqpt_op(q);
    ck_assert_uint_eq(cqpt_maj(cqe), 0);
    page = cqpt_retval(cqe);
    write_ctx(QPT_RINGS, QPT_RQ, qs);
    q0 = ld64(h->mem + QPT_CTX + QPC_QW0);
    st64(h->mem + QPT_CTX + QPC_QW0, q0 | QPC_PMENA | pe_prep(QPC_PPIDX, page + 1));
    qp_wqe(q, CQP_OP_CREATE_QP, 3, QP_TYPE_ROCE_RC, QP_STATE_IDLE, CQPWQE_QP_CQNUMVALID);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    st64(h->mem + QPT_CTX + QPC_QW0, q0 | QPC_PMENA | pe_prep(QPC_PPIDX, page));
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
}
END_TEST

Suite *qp_suite(void)
{
    Suite *s = suite_create("qp");
    TCase *tc = tcase_create("qp");

    tcase_add_checked_fixture(tc, cqpt_setup, cqpt_teardown);
    tcase_add_test(tc, qp1_lifecycle_as_irdma_does);
    tcase_add_test(tc, create_qp_rejects_bad_wqes);
    tcase_add_test(tc, create_qp_without_hmc_backing_is_an_objcache_error);
    tcase_add_test(tc, modify_qp_enforces_the_state_machine);
    tcase_add_test(tc, sqd_posts_suspend_complete_with_rts_iwstate);
    tcase_add_test(tc, virtual_qp_rings_go_through_pbles);
    tcase_add_test(tc, ws_tree_refuses_inconsistent_requests);
    tcase_add_test(tc, gather_stats_writes_the_instance_buffer);
    tcase_add_test(tc, flush_and_gen_ae);
    tcase_add_test(tc, rmmod_teardown_leaves_nothing_alive);
    tcase_add_test(tc, pf_reset_drops_qps_and_the_ws_tree);
    tcase_add_test(tc, suspend_resume_rebinds_the_qs_handle);
    tcase_add_test(tc, suspend_of_an_idle_or_error_qp_posts_the_ae);
    tcase_add_test(tc, modify_cq_resizes_into_the_new_ring);
    tcase_add_test(tc, push_page_enables_a_push_mode_qp);
    suite_add_tcase(s, tc);
    return s;
}
