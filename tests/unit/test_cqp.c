/* test_cqp.c - the RDMA engine: PE registers, CQP handshake and ring, CCQ, CEQ/AEQ, ops. */
#include <check.h>
#include <string.h>
#include "cqp_util.h"
#include "emu/rdma/ceq.h"
#include "emu/rdma/cqp.h"
#include "emu/rdma/hmc.h"
#include "emu/rdma/pe_regs.h"
#include "emu/core/e810_regs.h"

/* Up to a CCQ with CQP SQ of 16 WQEs and @ccq_size CQEs. */
static void bring_up(unsigned ccq_size)
{
    ck_assert_uint_eq(cqpt_create(3), PFPE_CCQPSTATUS_DONE_M);
    cqpt_hmc_setup();
    cqpt_create_ccq(ccq_size);
}

START_TEST(probe_registers_read_ready)
{
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLPE_CPUSTATUS0), 0x80);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLPE_CPUSTATUS1), 0x80);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLPE_CPUSTATUS2), 0x80);
    ck_assert_uint_eq(emu_field_get(irdma_dev_mmio_read(d, GLPCI_LBARCTRL),
                                    GLPCI_LBARCTRL_PE_DB_SIZE_M), 2);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLPE_CRITERR), 0);
    irdma_dev_mmio_write(d, GLPE_CPUSTATUS0, 0);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLPE_CPUSTATUS0), 0x80);
    irdma_dev_mmio_write(d, GLINT_CEQCTL(5), PFINT_CTL_CAUSE_ENA_M | 7 | 0x1800);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLINT_CEQCTL(5)), PFINT_CTL_CAUSE_ENA_M | 7 | 0x1800);
    irdma_dev_mmio_write(d, PFINT_AEQCTL, PFINT_CTL_CAUSE_ENA_M | 3);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFINT_AEQCTL), PFINT_CTL_CAUSE_ENA_M | 3);
}
END_TEST

START_TEST(cqp_create_reports_done_synchronously)
{
    ck_assert_uint_eq(cqpt_create(10), PFPE_CCQPSTATUS_DONE_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPERRCODES), 0);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPTAIL), 0);
    /* Destroy: HIGH=0, LOW=0 clears DONE. */
    irdma_dev_mmio_write(d, PFPE_CCQPHIGH, 0);
    irdma_dev_mmio_write(d, PFPE_CCQPLOW, 0);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CCQPSTATUS), 0);
}
END_TEST

START_TEST(cqp_create_rejects_bad_contexts)
{
    uint8_t *ctx = h->mem + CQPT_HOSTCTX;

    ck_assert_uint_eq(cqpt_create(0), PFPE_CCQPSTATUS_ERR_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPERRCODES), 0xffff0000u | CQP_MIN_BAD_SIZE);
    ck_assert_uint_eq(cqpt_create(11), PFPE_CCQPSTATUS_ERR_M);
    /* iWARP protocol */
    cqpt_create(3);
    irdma_dev_mmio_write(d, PFPE_CCQPHIGH, 0);
    irdma_dev_mmio_write(d, PFPE_CCQPLOW, 0);
    st64(ctx, pe_prep(CQPHC_SQSIZE, 3) | pe_prep(CQPHC_PROTOCOL_USED, 1));
    irdma_dev_mmio_write(d, PFPE_CCQPSTATUS, 0);
    irdma_dev_mmio_write(d, PFPE_CCQPLOW, CQPT_HOSTCTX);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CCQPSTATUS), PFPE_CCQPSTATUS_ERR_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPERRCODES), 0xffff0000u | CQP_MIN_BAD_FIELD);
    /* Host context outside guest memory */
    irdma_dev_mmio_write(d, PFPE_CCQPSTATUS, 0);
    irdma_dev_mmio_write(d, PFPE_CCQPHIGH, 0x100);
    irdma_dev_mmio_write(d, PFPE_CCQPLOW, 0x1000);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CCQPSTATUS), PFPE_CCQPSTATUS_ERR_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPERRCODES), 0xffff0000u | CQP_MIN_BAD_ADDR);
}
END_TEST

START_TEST(query_fpm_completes_on_cqptail_in_the_doorbell_write)
{
    uint64_t q[8] = { 0 };
    uint8_t *qb = h->mem + CQPT_QUERY_BUF;

    cqpt_create(3);
    q[3] = cqpt_hdr(CQP_OP_QUERY_FPM_VAL);
    q[4] = CQPT_QUERY_BUF;
    cqpt_post(q);
    irdma_dev_mmio_write(d, PFPE_CQPDB, 1);
    /* Inline timing: done when the write returns (irdma polls CQPTAIL for only 10 ms). */
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPTAIL), 1);
    ck_assert_uint_eq(pe_get(ld64(qb), FPMQ_MAX_PE_SDS), 64);
    ck_assert_uint_eq((uint32_t)ld64(qb + 8), 4096);                 /* QPs */
    ck_assert_uint_eq(ld64(qb + 8) >> 32, 9);                        /* 512 B each */
    ck_assert_uint_ne(ld64(qb + 64) >> 32, 0);                       /* xf_block_size */
    ck_assert_uint_ne(ld64(qb + 80) >> 32, 0);                       /* q1_block_size */
    ck_assert_uint_eq(pe_get(ld64(qb + 120), FPMQ_MAX_CEQS), 64);
}
END_TEST

START_TEST(query_fpm_with_foreign_fn_id_fails_with_op_err)
{
    uint64_t q[8] = { 0 };
    uint32_t tail;

    cqpt_create(3);
    q[2] = 5;
    q[3] = cqpt_hdr(CQP_OP_QUERY_FPM_VAL);
    q[4] = CQPT_QUERY_BUF;
    tail = cqpt_run(q);
    ck_assert_uint_eq(tail, PFPE_CQPTAIL_OP_ERR_M | 1);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPERRCODES), 0xffff0000u | CQP_MIN_BAD_ID);
    /* The next doorbell clears OP_ERR; a good op leaves it clear. */
    q[2] = 0;
    ck_assert_uint_eq(cqpt_run(q), 2);
}
END_TEST

START_TEST(hmc_bring_up_as_irdma_does)
{
    cqpt_create(3);
    ck_assert_uint_eq(cqpt_hmc_setup(), 5);
}
END_TEST

START_TEST(ccq_create_completes_into_itself)
{
    const uint8_t *cqe;

    bring_up(2049);
    cqe = cqpt_ccqe(0);
    ck_assert_uint_eq(ld64(cqe + CQE_QW1_CTX), CQPT_COMPL_CTX);
    ck_assert_uint_eq(cqpt_maj(cqe), 0);
    /* Later ops complete through both CQPTAIL and the CCQ, one CQE each. */
    {
        uint64_t q[8] = { [3] = cqpt_hdr(CQP_OP_NOP) };
        uint32_t tail = cqpt_run(q);

        ck_assert_uint_eq(tail & PFPE_CQPTAIL_WQTAIL_M, 6);
        ck_assert(ld64(cqpt_ccqe(1) + CQE_HDR) & CQE_VALID);
        ck_assert_uint_eq(pe_get(ld64(cqpt_ccqe(1) + CQE_HDR), CQE_WQEIDX), 5);
    }
}
END_TEST

/* pyverbs creates CQs of the advertised maximum (the 21-bit field's limit) and resizes to
 * sizes above 2^20: each is a valid ring. */
START_TEST(create_cq_takes_gen2_ring_sizes)
{
    static const uint64_t sizes[] = { 1, 1048575, 1048576, 2097151 };
    uint64_t q[8] = { 0 };

    bring_up(64);
    for (unsigned i = 0; i < G_N_ELEMENTS(sizes); i++) {
        q[0] = pe_prep(CQPWQE_CQ_SIZE, sizes[i]);
        q[3] = cqpt_hdr(CQP_OP_CREATE_CQ) | pe_prep(CQPWQE_CQ_ID, 3 + i);
        q[4] = CQPT_CQ;
        q[5] = CQPT_CQ_SHADOW;
        cqpt_run(q);
        ck_assert_msg(!(ld64(cqpt_ccqe(1 + i) + CQE_HDR) & CQE_ERROR), "size %" G_GUINT64_FORMAT
                      " refused, minor 0x%x", sizes[i], (unsigned)cqpt_min(cqpt_ccqe(1 + i)));
    }
}
END_TEST

START_TEST(create_cq_without_hmc_is_an_objcache_error)
{
    uint64_t q[8] = { 0 };

    cqpt_create(3);
    q[0] = 64;
    q[3] = cqpt_hdr(CQP_OP_CREATE_CQ);
    q[4] = CQPT_CCQ;
    q[5] = CQPT_CCQ_SHADOW;
    ck_assert_uint_eq(cqpt_run(q), PFPE_CQPTAIL_OP_ERR_M | 1);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPERRCODES),
                      ((uint32_t)CQP_MAJ_OBJCACHE_ERROR << 16) | CQP_MIN_HMC_NOT_COMMITTED);
    ck_assert_uint_eq(ld64(cqpt_ccqe(0) + CQE_HDR), 0);               /* no CCQ: no CQE */
}
END_TEST

START_TEST(create_cq_rejects_bad_wqes)
{
    uint64_t q[8] = { 0 };

    bring_up(64);
    /* Duplicate CQ 0: invalid state, reported in the CCQ. */
    q[0] = 64;
    q[3] = cqpt_hdr(CQP_OP_CREATE_CQ);
    q[4] = CQPT_CQ;
    q[5] = CQPT_CQ_SHADOW;
    cqpt_run(q);
    ck_assert(ld64(cqpt_ccqe(1) + CQE_HDR) & CQE_ERROR);
    ck_assert_uint_eq(cqpt_maj(cqpt_ccqe(1)), CQP_MAJ_ERROR);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(1)), CQP_MIN_INVALID_STATE);
    /* CQ id beyond the committed count. */
    q[3] = cqpt_hdr(CQP_OP_CREATE_CQ) | pe_prep(CQPWQE_CQ_ID, 9000);
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(2)), CQP_MIN_BAD_ID);
    /* Size 0. */
    q[3] = cqpt_hdr(CQP_OP_CREATE_CQ) | pe_prep(CQPWQE_CQ_ID, 3);
    q[0] = 0;
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(3)), CQP_MIN_BAD_SIZE);
    /* Misaligned ring. */
    q[0] = 64;
    q[4] = CQPT_CQ + 4;
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(4)), CQP_MIN_BAD_ADDR);
    /* Virtual map with a first PBLE beyond the PBLE count. */
    q[3] |= CQPWQE_VIRTMAP | pe_prep(CQPWQE_LPBLSIZE, 1);
    q[4] = 0;
    q[6] = 0xfffffff;
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(5)), CQP_MIN_BAD_ID);
    /* CEQ id out of range. */
    q[3] = cqpt_hdr(CQP_OP_CREATE_CQ) | pe_prep(CQPWQE_CQ_ID, 3) | CQPWQE_CQ_CEQIDVALID |
           pe_prep(CQPWQE_CQ_CEQID, 1000);
    q[4] = CQPT_CQ;
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(6)), CQP_MIN_BAD_ID);
    /* Finally a good one. */
    q[3] = cqpt_hdr(CQP_OP_CREATE_CQ) | pe_prep(CQPWQE_CQ_ID, 3);
    cqpt_run(q);
    ck_assert(!(ld64(cqpt_ccqe(7) + CQE_HDR) & CQE_ERROR));
}
END_TEST

START_TEST(unknown_opcode_and_bad_valid_bit_complete_with_errors)
{
    uint64_t q[8] = { [3] = cqpt_hdr(0x3f) };
    unsigned slot;

    bring_up(64);
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(1)), CQP_MIN_BAD_OPCODE);
    ck_assert(irdma_dev_mmio_read(d, PFPE_CQPTAIL) & PFPE_CQPTAIL_OP_ERR_M);
    /* A WQE whose VALID does not match the pass. */
    q[3] = cqpt_hdr(CQP_OP_NOP);
    slot = cqpt_post(q);
    st64(h->mem + CQPT_SQ + slot * CQP_WQE_SIZE + CQP_WQE_HDR, cqpt_hdr(CQP_OP_NOP));
    cqpt_ring();
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(2)), CQP_MIN_BAD_VALID);
    ck_assert_uint_eq(pe_get(ld64(cqpt_ccqe(2) + CQE_HDR), CQE_WQEIDX), slot);
}
END_TEST

START_TEST(sq_and_ccq_wrap_with_polarity)
{
    uint64_t q[8] = { [3] = cqpt_hdr(CQP_OP_NOP) };

    bring_up(8);       /* 16-WQE SQ (5 used by bring-up), 8-CQE CCQ (1 used) */
    for (unsigned i = 0; i < 20; i++) {
        uint32_t tail = cqpt_run(q);
        unsigned ccq_slot = (1 + i) % 8;
        uint8_t want = ((1 + i) / 8) % 2 ? 0 : 1;

        ck_assert_uint_eq(tail, (6 + i) % 16);
        ck_assert_uint_eq(!!(ld64(cqpt_ccqe(ccq_slot) + CQE_HDR) & CQE_VALID), want);
        /* The driver consumes: shadow qw0 = its new head. */
        st64(h->mem + CQPT_CCQ_SHADOW, (ccq_slot + 1) % 8);
    }
}
END_TEST

START_TEST(ccq_overflow_drops_instead_of_overwriting)
{
    uint64_t q[8] = { [3] = cqpt_hdr(CQP_OP_NOP) };

    bring_up(4);
    /* Consumer never moves (shadow 0): a ring holds size - 1 unconsumed CQEs (the driver
     * sizes the CCQ one above the SQ for that), so slots 1 and 2 fill and two are dropped. */
    for (unsigned i = 0; i < 4; i++) {
        cqpt_run(q);
    }
    ck_assert_uint_eq(fake_host_trace_count(h, "err_cq_overflow"), 2);
    ck_assert_uint_eq(pe_get(ld64(cqpt_ccqe(2) + CQE_HDR), CQE_WQEIDX), 6);
    ck_assert_uint_eq(ld64(cqpt_ccqe(3) + CQE_HDR), 0);
    ck_assert(ld64(cqpt_ccqe(0) + CQE_HDR) & CQE_VALID);              /* still the first pass */
    ck_assert_uint_eq(pe_get(ld64(cqpt_ccqe(0) + CQE_HDR), CQE_WQEIDX), 4);
}
END_TEST

/* Inline timing: the first CQP_BUDGET WQEs in the doorbell write, the rest in 0-delay events of
 * CQP_BUDGET each, so one doorbell cannot hold the vCPU for a whole ring. */
START_TEST(doorbell_processing_is_budgeted)
{
    uint64_t q[8] = { [3] = cqpt_hdr(CQP_OP_NOP) };

    ck_assert_uint_eq(cqpt_create(10), PFPE_CCQPSTATUS_DONE_M);
    for (unsigned i = 0; i < CQP_BUDGET + 10; i++) {
        cqpt_post(q);
    }
    irdma_dev_mmio_write(d, PFPE_CQPDB, CQP_BUDGET + 10);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPTAIL), CQP_BUDGET);
    ck_assert(h->timer_armed);
    h->timer_armed = false;
    irdma_dev_timer_expired(d);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPTAIL), CQP_BUDGET + 10);
}
END_TEST

/* Model timing: one WQE at a time, each after the PCIe read of the WQE, its cycles and the
 * write of its CCQ CQE. */
START_TEST(model_timing_completes_each_wqe_at_its_modelled_time)
{
    uint64_t q[8] = { [3] = cqpt_hdr(CQP_OP_NOP) };
    const IrdmaTimingParams *p = &d->timing.p;
    uint64_t nop_ns = p->pcie_read_ns + p->cqp_wqe_cycles * 1000 / p->clock_mhz +
                      p->pcie_write_ns;
    uint64_t t0;

    ck_assert_uint_eq(cqpt_create(3), PFPE_CCQPSTATUS_DONE_M);
    fake_host_advance(h, d, h->now_ns);        /* the creation's doorbell, still inline */
    d->timing.mode = TIMING_MODEL;
    ck_assert_uint_eq(timing_cqp_wqe_ns(&d->timing, TIMING_CQP_OTHER), nop_ns);
    ck_assert_uint_gt(timing_cqp_wqe_ns(&d->timing, TIMING_CQP_QP), nop_ns);
    cqpt_post(q);
    cqpt_post(q);
    t0 = h->now_ns;
    irdma_dev_mmio_write(d, PFPE_CQPDB, 2);
    fake_host_advance(h, d, t0 + nop_ns - 1);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPTAIL), 0);
    fake_host_advance(h, d, t0 + nop_ns);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPTAIL), 1);
    fake_host_advance(h, d, t0 + 2 * nop_ns - 1);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPTAIL), 1);
    fake_host_advance(h, d, t0 + 2 * nop_ns);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPTAIL), 2);
}
END_TEST

START_TEST(doorbell_past_the_ring_is_ignored)
{
    cqpt_create(3);
    irdma_dev_mmio_write(d, PFPE_CQPDB, 100);
    fake_host_advance(h, d, h->now_ns);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPTAIL), 0);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_cqp_db_bad_head"), 1);
}
END_TEST

START_TEST(query_rdma_features_reports_two_features)
{
    uint64_t q[8] = { 0 };
    uint8_t *fb = h->mem + CQPT_FEAT_BUF;

    bring_up(64);
    q[3] = cqpt_hdr(CQP_OP_QUERY_RDMA_FEATURES) | pe_prep(CQPWQE_FEAT_BUF_LEN, 216);
    q[4] = CQPT_FEAT_BUF;
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_maj(cqpt_ccqe(1)), 0);
    ck_assert_uint_eq(pe_get(ld64(fb), FEAT_CNT), 2);
    ck_assert_uint_eq(pe_get(ld64(fb), FEAT_TYPE), 0);
    ck_assert_uint_eq(pe_get(ld64(fb + 8), FEAT_TYPE), 1);
    q[3] = cqpt_hdr(CQP_OP_QUERY_RDMA_FEATURES);          /* zero-length buffer */
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(2)), CQP_MIN_BAD_SIZE);
}
END_TEST

static void create_ceq(unsigned id, unsigned elems, uint64_t pa)
{
    uint64_t q[8] = { 0 };

    q[2] = elems;
    q[3] = cqpt_hdr(CQP_OP_CREATE_CEQ) | pe_prep(CQPWQE_CEQ_ID, id);
    q[4] = pa;
    cqpt_run(q);
}

START_TEST(ccq_arm_posts_one_ceqe_and_interrupts)
{
    uint64_t q[8] = { [3] = cqpt_hdr(CQP_OP_NOP) };

    bring_up(64);
    create_ceq(0, 16, CQPT_CEQ);
    ck_assert_uint_eq(cqpt_maj(cqpt_ccqe(1)), 0);
    irdma_dev_mmio_write(d, GLINT_CEQCTL(0), PFINT_CTL_CAUSE_ENA_M | 1 | 0x1800);
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(1), GLINT_DYN_CTL_INTENA_M | GLINT_DYN_CTL_CLEARPBA_M);
    /* Not armed: no CEQE. */
    cqpt_run(q);
    ck_assert_uint_eq(ld64(h->mem + CQPT_CEQ), 0);
    /* irdma_sc_ccq_arm: shadow qw4 ARM_NEXT, then CQARM(0). */
    st64(h->mem + CQPT_CCQ_SHADOW + 32, CQ_SHADOW_ARM_NEXT | (1u << 16));
    irdma_dev_mmio_write(d, PFPE_CQARM, 0);
    cqpt_run(q);
    cqpt_run(q);       /* disarmed after the first */
    ck_assert_uint_eq(ld64(h->mem + CQPT_CEQ), CEQE_VALID | CQPT_CCQ_CTX);
    ck_assert_uint_eq(ld64(h->mem + CQPT_CEQ + 8), 0);
    ck_assert_uint_eq(h->irqs->len, 1);
    ck_assert_uint_eq(g_array_index(h->irqs, unsigned, 0), 1);
    /* With CAUSE_ENA clear the CEQE is written but no interrupt. */
    irdma_dev_mmio_write(d, GLINT_CEQCTL(0), 1);
    irdma_dev_mmio_write(d, PFPE_CQARM, 0);
    cqpt_run(q);
    ck_assert_uint_eq(ld64(h->mem + CQPT_CEQ + 8), CEQE_VALID | CQPT_CCQ_CTX);
    ck_assert_uint_eq(h->irqs->len, 1);
}
END_TEST

START_TEST(ceq_create_rejects_bad_wqes_and_wraps)
{
    bring_up(64);
    create_ceq(64, 16, CQPT_CEQ);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(1)), CQP_MIN_BAD_ID);
    create_ceq(0, 0, CQPT_CEQ);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(2)), CQP_MIN_BAD_SIZE);
    create_ceq(0, 262144, CQPT_CEQ);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(3)), CQP_MIN_BAD_SIZE);
    create_ceq(0, 16, 0);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(4)), CQP_MIN_BAD_ADDR);
    create_ceq(1, 2, CQPT_CEQ);
    ck_assert_uint_eq(cqpt_maj(cqpt_ccqe(5)), 0);
    create_ceq(1, 2, CQPT_CEQ);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(6)), CQP_MIN_INVALID_STATE);
    /* Three CEQEs on a 2-entry CEQ: the third overwrites slot 0 with VALID clear. */
    eqs_ceq_post(d, 1, 0x10);
    eqs_ceq_post(d, 1, 0x20);
    eqs_ceq_post(d, 1, 0x30);
    ck_assert_uint_eq(ld64(h->mem + CQPT_CEQ), 0x30);
    ck_assert_uint_eq(ld64(h->mem + CQPT_CEQ + 8), CEQE_VALID | 0x20);
    ck_assert(!eqs_ceq_post(d, 2, 0x40));
}
END_TEST

START_TEST(virtual_ceq_goes_through_pbles)
{
    uint64_t q[8] = { 0 };
    uint64_t pble_gpa;

    bring_up(64);
    /* PBLE 0 and 1 name two pages of a 1024-entry CEQ. */
    ck_assert_uint_eq(hmc_obj_gpa(d, HMC_PBLE, 0, &pble_gpa), HMC_OK);
    st64(h->mem + pble_gpa, 0x70000);
    st64(h->mem + pble_gpa + 8, 0x90000);
    q[2] = 1024;
    q[3] = cqpt_hdr(CQP_OP_CREATE_CEQ) | pe_prep(CQPWQE_CEQ_ID, 2) | CQPWQE_VIRTMAP |
           pe_prep(CQPWQE_LPBLSIZE, 1);
    q[6] = 0;
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_maj(cqpt_ccqe(1)), 0);
    for (unsigned i = 0; i < 513; i++) {
        eqs_ceq_post(d, 2, i + 1);
    }
    ck_assert_uint_eq(ld64(h->mem + 0x70000), CEQE_VALID | 1);
    ck_assert_uint_eq(ld64(h->mem + 0x90000), CEQE_VALID | 513);
    /* Level-2 PBLs are not accepted. */
    q[3] = cqpt_hdr(CQP_OP_CREATE_CEQ) | pe_prep(CQPWQE_CEQ_ID, 3) | CQPWQE_VIRTMAP |
           pe_prep(CQPWQE_LPBLSIZE, 3);
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(2)), CQP_MIN_BAD_FIELD);
}
END_TEST

START_TEST(aeq_credits_and_overflow)
{
    uint64_t q[8] = { 0 };
    AeqEntry e = { .ctx = 0x1234, .info = pe_prep(AEQE_AECODE, 0x900) | 7 };

    bring_up(64);
    ck_assert(!eqs_aeq_post(d, &e));
    q[2] = 2;
    q[3] = cqpt_hdr(CQP_OP_CREATE_AEQ);
    q[4] = CQPT_AEQ;
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_maj(cqpt_ccqe(1)), 0);
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(2)), CQP_MIN_INVALID_STATE);
    irdma_dev_mmio_write(d, PFINT_AEQCTL, PFINT_CTL_CAUSE_ENA_M | 0);
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(0), GLINT_DYN_CTL_INTENA_M);
    ck_assert(eqs_aeq_post(d, &e));
    ck_assert(eqs_aeq_post(d, &e));
    ck_assert(!eqs_aeq_post(d, &e));          /* no credit left */
    ck_assert_uint_eq(ld64(h->mem + CQPT_AEQ), 0x1234);
    ck_assert_uint_eq(ld64(h->mem + CQPT_AEQ + 8), AEQE_VALID | e.info);
    ck_assert_uint_eq(h->irqs->len, 1);       /* auto-masked after the first */
    irdma_dev_mmio_write(d, PFPE_AEQALLOC, 1);
    ck_assert(eqs_aeq_post(d, &e));
    /* Wrapped: VALID clear, OVERFLOW reports the dropped one. */
    ck_assert_uint_eq(ld64(h->mem + CQPT_AEQ + 8), AEQE_OVERFLOW | e.info);
    q[2] = 0;
    q[3] = cqpt_hdr(CQP_OP_DESTROY_AEQ);
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_maj(cqpt_ccqe(3)), 0);
    q[2] = AEQ_SIZE_MAX + 1;
    q[3] = cqpt_hdr(CQP_OP_CREATE_AEQ);
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(4)), CQP_MIN_BAD_SIZE);
}
END_TEST

START_TEST(manage_stats_allocates_and_frees_instances)
{
    uint64_t q[8] = { 0 };

    bring_up(64);
    q[3] = cqpt_hdr(CQP_OP_MANAGE_STATS) | CQPWQE_STATS_ALLOC_INST | CQPWQE_STATS_USE_FN_INDEX;
    cqpt_run(q);
    ck_assert_uint_eq(ld64(cqpt_ccqe(1) + CQE_QW2), 1);
    cqpt_run(q);
    ck_assert_uint_eq(ld64(cqpt_ccqe(2) + CQE_QW2), 2);
    q[3] = cqpt_hdr(CQP_OP_MANAGE_STATS) | pe_prep(CQPWQE_STATS_INST_INDEX, 1);
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_maj(cqpt_ccqe(3)), 0);
    cqpt_run(q);       /* already free */
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(4)), CQP_MIN_INVALID_STATE);
    q[3] = cqpt_hdr(CQP_OP_MANAGE_STATS) | CQPWQE_STATS_ALLOC_INST | CQPWQE_STATS_USE_FN_INDEX;
    q[5] = 3;          /* another function's stats */
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(5)), CQP_MIN_BAD_ID);
}
END_TEST

START_TEST(manage_arp_adds_and_deletes_entries)
{
    uint64_t q[8] = { 0 }, mac;

    bring_up(64);
    q[2] = 0x525400123456ull;
    q[3] = cqpt_hdr(CQP_OP_MANAGE_ARP) | 5 | CQPWQE_ARP_ENTRYVALID | CQPWQE_ARP_PERMANENT;
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_maj(cqpt_ccqe(1)), 0);
    ck_assert(cqp_arp_lookup(d, 5, &mac));
    ck_assert_uint_eq(mac, 0x525400123456ull);
    q[3] = cqpt_hdr(CQP_OP_MANAGE_ARP) | 5;
    cqpt_run(q);
    ck_assert(!cqp_arp_lookup(d, 5, &mac));
    q[3] = cqpt_hdr(CQP_OP_MANAGE_ARP) | 4000 | CQPWQE_ARP_ENTRYVALID;  /* > 2048 committed */
    cqpt_run(q);
    ck_assert_uint_eq(cqpt_min(cqpt_ccqe(3)), CQP_MIN_BAD_ID);
}
END_TEST

START_TEST(destroy_ccq_completes_through_cqptail_only)
{
    uint64_t q[8] = { 0 };
    uint32_t tail;

    bring_up(64);
    q[3] = cqpt_hdr(CQP_OP_DESTROY_CQ);
    tail = cqpt_run(q);
    ck_assert_uint_eq(tail, 6);
    ck_assert_uint_eq(ld64(cqpt_ccqe(1) + CQE_HDR), 0);
    q[3] = cqpt_hdr(CQP_OP_DESTROY_CQ);
    ck_assert_uint_eq(cqpt_run(q), PFPE_CQPTAIL_OP_ERR_M | 7);
}
END_TEST

START_TEST(pf_reset_drops_the_engine)
{
    uint64_t q[8] = { [3] = cqpt_hdr(CQP_OP_NOP) };
    unsigned ignored;

    bring_up(64);
    irdma_dev_pf_reset(d);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CCQPSTATUS), 0);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLPE_CPUSTATUS0), 0x80);
    ignored = fake_host_trace_count(h, "cqp_db_no_cqp");
    irdma_dev_mmio_write(d, PFPE_CQPDB, 1);
    fake_host_advance(h, d, h->now_ns);
    ck_assert_uint_eq(fake_host_trace_count(h, "cqp_db_no_cqp"), ignored + 1);
    /* And it comes back the same way. */
    bring_up(64);
    ck_assert_uint_eq(cqpt_run(q), 6);
}
END_TEST

Suite *cqp_suite(void)
{
    Suite *s = suite_create("cqp");
    TCase *tc = tcase_create("cqp");

    tcase_add_checked_fixture(tc, cqpt_setup, cqpt_teardown);
    tcase_add_test(tc, probe_registers_read_ready);
    tcase_add_test(tc, cqp_create_reports_done_synchronously);
    tcase_add_test(tc, cqp_create_rejects_bad_contexts);
    tcase_add_test(tc, query_fpm_completes_on_cqptail_in_the_doorbell_write);
    tcase_add_test(tc, query_fpm_with_foreign_fn_id_fails_with_op_err);
    tcase_add_test(tc, hmc_bring_up_as_irdma_does);
    tcase_add_test(tc, ccq_create_completes_into_itself);
    tcase_add_test(tc, create_cq_without_hmc_is_an_objcache_error);
    tcase_add_test(tc, create_cq_rejects_bad_wqes);
    tcase_add_test(tc, create_cq_takes_gen2_ring_sizes);
    tcase_add_test(tc, unknown_opcode_and_bad_valid_bit_complete_with_errors);
    tcase_add_test(tc, sq_and_ccq_wrap_with_polarity);
    tcase_add_test(tc, ccq_overflow_drops_instead_of_overwriting);
    tcase_add_test(tc, doorbell_processing_is_budgeted);
    tcase_add_test(tc, model_timing_completes_each_wqe_at_its_modelled_time);
    tcase_add_test(tc, doorbell_past_the_ring_is_ignored);
    tcase_add_test(tc, query_rdma_features_reports_two_features);
    tcase_add_test(tc, ccq_arm_posts_one_ceqe_and_interrupts);
    tcase_add_test(tc, ceq_create_rejects_bad_wqes_and_wraps);
    tcase_add_test(tc, virtual_ceq_goes_through_pbles);
    tcase_add_test(tc, aeq_credits_and_overflow);
    tcase_add_test(tc, manage_stats_allocates_and_frees_instances);
    tcase_add_test(tc, manage_arp_adds_and_deletes_entries);
    tcase_add_test(tc, destroy_ccq_completes_through_cqptail_only);
    tcase_add_test(tc, pf_reset_drops_the_engine);
    suite_add_tcase(s, tc);
    return s;
}
