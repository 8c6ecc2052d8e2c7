/* cqp_util.c - control QP test driver (see cqp_util.h). */
#include <check.h>
#include <string.h>
#include "cqp_util.h"
#include "emu/rdma/pe_regs.h"
#include "emu/rdma/ws.h"


/* h and d are the globals of aq_util.c, shared by every device-level suite. */

static unsigned sq_size, sq_head;
static uint8_t polarity;

void cqpt_setup(void)
{
    h = fake_host_new(CQPT_MEM_SIZE);
    d = fake_dev_new(h);
}

void cqpt_teardown(void)
{
    irdma_dev_free(d);
    fake_host_free(h);
}

unsigned cqpt_tail(void)
{
    return irdma_dev_mmio_read(d, PFPE_CQPTAIL) & PFPE_CQPTAIL_WQTAIL_M;
}

uint64_t cqpt_hdr(unsigned opcode)
{
    return pe_prep(CQP_WQE_OPCODE, opcode);
}

uint32_t cqpt_create(unsigned enc)
{
    uint8_t *ctx = h->mem + CQPT_HOSTCTX;

    memset(ctx, 0, CQPHC_SIZE);
    st64(ctx + CQPHC_QW0, pe_prep(CQPHC_SQSIZE, enc) | pe_prep(CQPHC_PROTOCOL_USED, 2));
    st64(ctx + CQPHC_SQBASE_OFF, CQPT_SQ);
    st64(ctx + CQPHC_QW2, pe_prep(CQPHC_HMC_PROFILE, 1));
    st64(ctx + CQPHC_COMPL_CTX_OFF, CQPT_COMPL_CTX);
    st64(ctx + CQPHC_QW4, pe_prep(CQPHC_HW_MAJVER, 1));
    irdma_dev_mmio_write(d, PFPE_CQPTAIL, 0);
    irdma_dev_mmio_write(d, PFPE_CQPDB, 0);
    irdma_dev_mmio_write(d, PFPE_CCQPSTATUS, 0);
    irdma_dev_mmio_write(d, PFPE_CCQPHIGH, 0);
    irdma_dev_mmio_write(d, PFPE_CCQPLOW, CQPT_HOSTCTX);
    sq_size = 1u << (enc + 1);
    sq_head = 0;
    polarity = 0;
    return irdma_dev_mmio_read(d, PFPE_CCQPSTATUS);
}

unsigned cqpt_post(const uint64_t qw[8])
{
    unsigned slot = sq_head;
    uint8_t *wqe = h->mem + CQPT_SQ + slot * CQP_WQE_SIZE;

    if (slot == 0) {
        polarity ^= 1;
    }
    for (unsigned i = 0; i < 8; i++) {
        st64(wqe + 8 * i, i == 3 ? (qw[i] | (polarity ? CQP_WQE_VALID : 0)) : qw[i]);
    }
    sq_head = (sq_head + 1) % sq_size;
    return slot;
}

void cqpt_ring(void)
{
    irdma_dev_mmio_write(d, PFPE_CQPDB, sq_head);
    fake_host_advance(h, d, h->now_ns);
}

uint32_t cqpt_run(const uint64_t qw[8])
{
    cqpt_post(qw);
    cqpt_ring();
    return irdma_dev_mmio_read(d, PFPE_CQPTAIL);
}

const uint8_t *cqpt_ccqe(unsigned slot)
{
    return h->mem + CQPT_CCQ + slot * CQE_SIZE;
}

/* One SD set entry as irdma_set_sd_entry builds it. */
static void sd_entry(unsigned idx, uint64_t pa, bool direct, uint64_t *cmd, uint64_t *data)
{
    *data = pa | pe_prep(SD_DATA_BPCOUNT, 512) | (direct ? SD_DATA_DIRECT : 0) | SD_DATA_VALID;
    *cmd = idx | SD_CMD_PARTSEL | SD_CMD_WRITE;
}

unsigned cqpt_hmc_setup(void)
{
    uint64_t q[8] = { 0 };
    uint8_t *qb = h->mem + CQPT_QUERY_BUF, *cb = h->mem + CQPT_COMMIT_BUF;
    uint32_t tail = cqpt_tail();
    uint64_t size, max_base = 0, pble_end;
    unsigned sds;

    q[2] = 0;
    q[3] = cqpt_hdr(CQP_OP_QUERY_FPM_VAL);
    q[4] = CQPT_QUERY_BUF;
    ck_assert_uint_eq(cqpt_run(q), tail + 1);
    /* What irdma_cfg_fpm_val asks for with these maxima (one loop). */
    {
        uint32_t qpmax = pe_get(ld64(qb + 8), PE_MASK64(18, 0)), qp = 1;
        uint32_t xf_bs = ld64(qb + 64) >> 32, q1_bs = ld64(qb + 80) >> 32;
        uint32_t fsimc = (uint32_t)ld64(qb + 96), hte = 1, q1;
        uint64_t cnt[22] = { 0 };

        while (qp * 2 <= MIN(qpmax, 262144u)) {
            qp *= 2;
        }
        q1 = 1;
        while (q1 < 127u * 2 * qp + 512) {
            q1 *= 2;
        }
        while (hte < (qp + fsimc + 511) / 512 * 512) {
            hte *= 2;
        }
        cnt[0] = qp;
        cnt[1] = MIN(2 * qp, (uint32_t)pe_get(ld64(qb + 16), PE_MASK64(19, 0)));
        cnt[3] = hte * pe_get(ld64(qb + 120), FPMQ_HTMULTIPLIER);
        cnt[4] = (uint32_t)ld64(qb + 40);
        cnt[6] = (uint32_t)ld64(qb + 48);
        cnt[7] = 4ull * xf_bs * qp;
        cnt[8] = cnt[7] / xf_bs;
        cnt[9] = q1;
        cnt[10] = q1 / q1_bs;
        cnt[11] = ((qp + 511) / 512 + 1) * pe_get(ld64(qb + 120), FPMQ_TIMERBUCKET);
        cnt[12] = fsimc;
        cnt[13] = (uint32_t)ld64(qb + 104);
        cnt[14] = (uint32_t)ld64(qb + 112);
        cnt[17] = qp;
        /* commit slots: QP CQ RSVD HTE ARP APBVT(0) MR XF XFFL Q1 Q1FL TIMER FSIMC FSIAV PBLE
         * RSVD RRF RRFFL HDR MD OOISC OOISCFFL */
        {
            const int slot_type[22] = { 0, 1, -1, 3, 4, -1, 6, 7, 8, 9, 10, 11, 12, 13, 14, -1,
                                        15, 16, 17, 18, 19, 20 };

            for (unsigned s = 0; s < 22; s++) {
                st64(cb + 8 * s, slot_type[s] >= 0 ? cnt[slot_type[s]] : 0);
            }
        }
    }
    memset(q, 0, sizeof(q));
    q[2] = 0;
    q[3] = cqpt_hdr(CQP_OP_COMMIT_FPM_VAL) | pe_prep(CQPWQE_BUFSIZE, FPM_BUF_SIZE);
    q[4] = CQPT_COMMIT_BUF;
    tail = cqpt_tail();
    ck_assert_uint_eq(cqpt_run(q), tail + 1);
    /* irdma_sc_parse_fpm_commit_buf: the SD count from the object with the highest base. */
    {
        const uint64_t sizes[22] = { 512, 32, 0, 8, 8, 8192, 64, 1, 4, 1, 4, 8, 8, 32, 8, 0,
                                     1, 4, 1, 1, 1, 4 };

        size = 0;
        for (unsigned s = 0; s < 22; s++) {
            uint64_t v = ld64(cb + 8 * s), base = (v >> 32) * 512;
            uint64_t c = s == 5 ? 1 : (uint32_t)v;

            if (base > max_base) {
                max_base = base;
                size = base + c * sizes[s];
            }
        }
    }
    sds = (size + (2u << 20) - 1) >> 21;
    pble_end = (ld64(cb + 112) >> 32) * 512;
    ck_assert_uint_eq(size, pble_end + 8 * (uint32_t)ld64(cb + 112));   /* PBLE is last */
    ck_assert_uint_le(sds, CQPT_NUM_SD_PAGES);
    /* Program every SD but the last with direct pages: 3 in the WQE, the rest in sdbuf. */
    memset(q, 0, sizeof(q));
    sd_entry(0, CQPT_SD_PAGES, true, &q[0], &q[1]);
    sd_entry(1, CQPT_SD_PAGES + (2u << 20), true, &q[4], &q[5]);
    q[4] |= CQPWQE_SDS_ENTRY_VALID;
    sd_entry(2, CQPT_SD_PAGES + 2 * (2u << 20), true, &q[6], &q[7]);
    q[6] |= CQPWQE_SDS_ENTRY_VALID;
    for (unsigned i = 3; i < sds; i++) {
        uint64_t c, dt;

        sd_entry(i, CQPT_SD_PAGES + (uint64_t)i * (2u << 20), true, &c, &dt);
        st64(h->mem + CQPT_SDBUF + (i - 3) * 16, c);
        st64(h->mem + CQPT_SDBUF + (i - 3) * 16 + 8, dt);
    }
    q[2] = CQPT_SDBUF | 0;
    q[3] = cqpt_hdr(CQP_OP_UPDATE_PE_SDS) | pe_prep(CQPWQE_SDS_ENTRY_COUNT, sds - 3);
    tail = cqpt_tail();
    ck_assert_uint_eq(cqpt_run(q), tail + 1);
    memset(q, 0, sizeof(q));
    q[2] = 0;
    q[3] = cqpt_hdr(CQP_OP_SHMC_PAGES_ALLOCATED);
    ck_assert_uint_eq(cqpt_run(q), tail + 2);
    return sds;
}

void cqpt_create_ccq(unsigned size)
{
    uint64_t q[8] = { 0 };
    unsigned slot;

    q[0] = size;
    q[1] = CQPT_CCQ_CTX;
    q[2] = 16;
    q[3] = cqpt_hdr(CQP_OP_CREATE_CQ) | pe_prep(CQPWQE_CQ_ID, 0) | CQPWQE_CQ_CHKOVERFLOW |
           CQPWQE_CQ_CEQIDVALID;
    q[4] = CQPT_CCQ;
    q[5] = CQPT_CCQ_SHADOW;
    slot = cqpt_post(q);
    cqpt_ring();
    ck_assert(ld64(cqpt_ccqe(0) + CQE_HDR) & CQE_VALID);
    ck_assert_uint_eq(pe_get(ld64(cqpt_ccqe(0) + CQE_HDR), CQE_WQEIDX), slot);
    ck_assert(!(ld64(cqpt_ccqe(0) + CQE_HDR) & CQE_ERROR));
}

static unsigned op_slot, op_ccq_size;
static uint8_t op_pol;

unsigned cqpt_start(unsigned ccq_size)
{
    unsigned sds;

    ck_assert_uint_eq(cqpt_create(3), PFPE_CCQPSTATUS_DONE_M);
    sds = cqpt_hmc_setup();
    cqpt_create_ccq(ccq_size);
    op_ccq_size = ccq_size;
    op_slot = 1;        /* slot 0 holds the CCQ's own creation */
    op_pol = 1;         /* the first pass over the ring */
    return sds;
}

const uint8_t *cqpt_op(const uint64_t qw[8])
{
    const uint8_t *cqe = cqpt_ccqe(op_slot);
    unsigned wqe = cqpt_post(qw);
    uint64_t hdr;

    cqpt_ring();
    /* As irdma_sc_ccq_get_cqe_info polls: a CQE of this pass, and of the WQE just posted. */
    hdr = ld64(cqe + CQE_HDR);
    ck_assert_msg(!!(hdr & CQE_VALID) == op_pol, "no CCQ CQE in slot %u", op_slot);
    ck_assert_uint_eq(pe_get(hdr, CQE_WQEIDX), wqe);
    if (++op_slot == op_ccq_size) {
        op_slot = 0;
        op_pol ^= 1;
    }
    st64(h->mem + CQPT_CCQ_SHADOW, op_slot);
    return cqe;
}

uint16_t cqpt_maj(const uint8_t *cqe)
{
    return pe_get(ld64(cqe + CQE_HDR), CQE_MAJERR);
}

uint16_t cqpt_min(const uint8_t *cqe)
{
    return pe_get(ld64(cqe + CQE_HDR), CQE_MINERR);
}

uint32_t cqpt_retval(const uint8_t *cqe)
{
    return pe_get(ld64(cqe + CQE_QW2), CCQ_OPRETVAL);
}

const uint8_t *cqpt_ws_op(unsigned op, unsigned id, unsigned parent, bool leaf, bool enable)
{
    uint64_t q[8] = { 0 };

    q[4] = pe_prep(CQPWQE_WS_VSI, 3) | pe_prep(CQPWQE_WS_WEIGHT, 1);
    q[3] = cqpt_hdr(CQP_OP_WORK_SCHED_NODE) | pe_prep(CQPWQE_WS_NODEOP, op) |
           pe_prep(CQPWQE_WS_NODEID, id) | pe_prep(CQPWQE_WS_PARENTID, parent) |
           pe_prep(CQPWQE_WS_PRIOTYPE, 1) | (leaf ? CQPWQE_WS_NODETYPE_LEAF : 0) |
           (enable ? CQPWQE_WS_ENABLENODE : 0);
    return cqpt_op(q);
}

unsigned cqpt_ws_add_tree(void)
{
    const uint8_t *cqe;
    unsigned qs;

    ck_assert_uint_eq(cqpt_maj(cqpt_ws_op(WS_NODEOP_ADD, 0, 0, false, true)), 0);
    ck_assert_uint_eq(cqpt_maj(cqpt_ws_op(WS_NODEOP_ADD, 1, 0, false, true)), 0);
    cqe = cqpt_ws_op(WS_NODEOP_ADD, 2, 1, true, false);
    ck_assert_uint_eq(cqpt_maj(cqe), 0);
    qs = cqpt_retval(cqe);
    ck_assert(!ws_qs_handle_enabled(d, qs));
    ck_assert_uint_eq(cqpt_maj(cqpt_ws_op(WS_NODEOP_MODIFY, 2, 1, true, true)), 0);
    ck_assert(ws_qs_handle_enabled(d, qs));
    return qs;
}
