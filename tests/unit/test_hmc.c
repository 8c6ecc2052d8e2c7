/* test_hmc.c - FPM query/commit, SD programming and the HMC translation. */
#include <check.h>
#include <string.h>
#include "cqp_util.h"
#include "emu/rdma/hmc.h"
#include "emu/rdma/pe_regs.h"

START_TEST(commit_layout_is_disjoint_aligned_and_pble_last)
{
    const uint8_t *cb = h->mem + CQPT_COMMIT_BUF;
    const uint64_t sizes[22] = { 512, 32, 0, 8, 8, 8192, 64, 1, 4, 1, 4, 8, 8, 32, 8, 0,
                                 1, 4, 1, 1, 1, 4 };
    uint64_t pble_base;

    cqpt_create(3);
    cqpt_hmc_setup();
    pble_base = (ld64(cb + 112) >> 32) * 512;
    ck_assert_uint_eq(pble_base % 4096, 0);
    ck_assert_uint_eq((uint32_t)ld64(cb + 40), 1);             /* APBVT always placed */
    for (unsigned a = 0; a < 22; a++) {
        uint64_t va = ld64(cb + 8 * a), ba = (va >> 32) * 512;
        uint64_t ea = ba + (a == 5 ? 1 : (uint32_t)va) * sizes[a];

        if (ea == ba) {
            continue;
        }
        ck_assert_uint_le(ea, pble_base + 8 * (uint32_t)ld64(cb + 112));
        for (unsigned b = a + 1; b < 22; b++) {
            uint64_t vb = ld64(cb + 8 * b), bb = (vb >> 32) * 512;
            uint64_t eb = bb + (b == 5 ? 1 : (uint32_t)vb) * sizes[b];

            ck_assert(eb == bb || ea <= bb || eb <= ba);
        }
    }
    ck_assert_uint_eq(hmc_obj_count(d, HMC_QP), 4096);
    ck_assert_uint_eq(hmc_obj_count(d, HMC_CQ), 8192);
}
END_TEST

START_TEST(commit_beyond_the_limits_fails)
{
    uint64_t q[8] = { 0 };
    uint8_t *cb = h->mem + CQPT_COMMIT_BUF;

    cqpt_create(3);
    memset(cb, 0, FPM_BUF_SIZE);
    st64(cb + 0, 8192);                  /* QPs > 4096 */
    q[3] = cqpt_hdr(CQP_OP_COMMIT_FPM_VAL) | pe_prep(CQPWQE_BUFSIZE, FPM_BUF_SIZE);
    q[4] = CQPT_COMMIT_BUF;
    ck_assert_uint_eq(cqpt_run(q), PFPE_CQPTAIL_OP_ERR_M | 1);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPERRCODES), 0xffff0000u | CQP_MIN_BAD_SIZE);
    ck_assert_uint_eq(hmc_obj_count(d, HMC_QP), 0);
    /* A short buffer, a misaligned one. */
    st64(cb + 0, 16);
    q[3] = cqpt_hdr(CQP_OP_COMMIT_FPM_VAL) | pe_prep(CQPWQE_BUFSIZE, 8);
    ck_assert(cqpt_run(q) & PFPE_CQPTAIL_OP_ERR_M);
    q[3] = cqpt_hdr(CQP_OP_COMMIT_FPM_VAL) | pe_prep(CQPWQE_BUFSIZE, FPM_BUF_SIZE);
    q[4] = CQPT_COMMIT_BUF + 4;
    ck_assert(cqpt_run(q) & PFPE_CQPTAIL_OP_ERR_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPERRCODES), 0xffff0000u | CQP_MIN_BAD_ADDR);
    /* A good one then works. */
    q[4] = CQPT_COMMIT_BUF;
    ck_assert_uint_eq(cqpt_run(q), 4);
    ck_assert_uint_eq(hmc_obj_count(d, HMC_QP), 16);
}
END_TEST

START_TEST(translation_follows_direct_sds)
{
    uint64_t gpa, base;

    cqpt_create(3);
    cqpt_hmc_setup();
    base = (ld64(h->mem + CQPT_COMMIT_BUF + 8) >> 32) * 512;      /* CQ base */
    ck_assert_uint_eq(hmc_obj_gpa(d, HMC_CQ, 3, &gpa), HMC_OK);
    ck_assert_uint_eq(gpa, CQPT_SD_PAGES + base + 3 * 32);
    ck_assert_uint_eq(hmc_obj_gpa(d, HMC_CQ, 8192, &gpa), HMC_BAD_INDEX);
    ck_assert_uint_eq(hmc_obj_gpa(d, HMC_NUM_OBJ_TYPES, 0, &gpa), HMC_BAD_INDEX);
}
END_TEST

START_TEST(update_sds_validates_before_applying)
{
    uint64_t q[8] = { 0 }, gpa;

    cqpt_create(3);
    cqpt_hmc_setup();
    /* Entry 0 clears SD 0, entry 1 names SD 64 (out of range): nothing changes. */
    q[0] = 0 | SD_CMD_PARTSEL | SD_CMD_WRITE;
    q[1] = pe_prep(SD_DATA_BPCOUNT, 512) | SD_DATA_DIRECT;
    q[4] = 64 | SD_CMD_PARTSEL | SD_CMD_WRITE | CQPWQE_SDS_ENTRY_VALID;
    q[5] = 0x400000 | SD_DATA_DIRECT | SD_DATA_VALID;
    q[3] = cqpt_hdr(CQP_OP_UPDATE_PE_SDS);
    ck_assert(cqpt_run(q) & PFPE_CQPTAIL_OP_ERR_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPERRCODES), 0xffff0000u | CQP_MIN_BAD_ID);
    ck_assert_uint_eq(hmc_obj_gpa(d, HMC_QP, 0, &gpa), HMC_OK);
    /* Too many buffer entries; a foreign HMC function. */
    q[4] = 0;
    q[3] = cqpt_hdr(CQP_OP_UPDATE_PE_SDS) | pe_prep(CQPWQE_SDS_ENTRY_COUNT, 9);
    ck_assert(cqpt_run(q) & PFPE_CQPTAIL_OP_ERR_M);
    q[3] = cqpt_hdr(CQP_OP_UPDATE_PE_SDS);
    q[2] = 7;
    ck_assert(cqpt_run(q) & PFPE_CQPTAIL_OP_ERR_M);
    /* The clear alone applies: QP 0 is unmapped now. */
    q[2] = 0;
    ck_assert(!(cqpt_run(q) & PFPE_CQPTAIL_OP_ERR_M));
    ck_assert_uint_eq(hmc_obj_gpa(d, HMC_QP, 0, &gpa), HMC_UNMAPPED);
}
END_TEST

START_TEST(paged_sd_translates_through_pd_entries)
{
    uint64_t q[8] = { 0 }, gpa, pble_base, fpm;
    unsigned sd, pd;

    cqpt_create(3);
    cqpt_hmc_setup();
    pble_base = (ld64(h->mem + CQPT_COMMIT_BUF + 112) >> 32) * 512;
    fpm = pble_base + 8 * 1000;           /* PBLE 1000 */
    sd = fpm >> 21;
    pd = (fpm >> 12) & 511;
    /* Re-program that SD as paged: a PD page whose entry @pd names 0x7000. */
    memset(h->mem + CQPT_PD_PAGE, 0, 4096);
    q[0] = sd | SD_CMD_PARTSEL | SD_CMD_WRITE;
    q[1] = CQPT_PD_PAGE | pe_prep(SD_DATA_BPCOUNT, 512) | SD_DATA_VALID;
    q[3] = cqpt_hdr(CQP_OP_UPDATE_PE_SDS);
    ck_assert(!(cqpt_run(q) & PFPE_CQPTAIL_OP_ERR_M));
    ck_assert_uint_eq(hmc_obj_gpa(d, HMC_PBLE, 1000, &gpa), HMC_UNMAPPED);   /* PD invalid */
    st64(h->mem + CQPT_PD_PAGE + pd * 8, 0x7000 | PD_ENTRY_VALID);
    irdma_dev_mmio_write(d, PFHMC_PDINV, sd | PFHMC_PDINV_PMSDPARTSEL_M | (pd << 16));
    ck_assert_uint_eq(hmc_obj_gpa(d, HMC_PBLE, 1000, &gpa), HMC_OK);
    ck_assert_uint_eq(gpa, 0x7000 + (fpm & 0xfff));
}
END_TEST

START_TEST(shmc_needs_a_commit_and_freezes_the_layout)
{
    uint64_t q[8] = { 0 };

    cqpt_create(3);
    q[3] = cqpt_hdr(CQP_OP_SHMC_PAGES_ALLOCATED);
    ck_assert(cqpt_run(q) & PFPE_CQPTAIL_OP_ERR_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPERRCODES),
                      ((uint32_t)CQP_MAJ_OBJCACHE_ERROR << 16) | CQP_MIN_HMC_NOT_COMMITTED);
    cqpt_hmc_setup();
    q[3] = cqpt_hdr(CQP_OP_COMMIT_FPM_VAL) | pe_prep(CQPWQE_BUFSIZE, FPM_BUF_SIZE);
    q[4] = CQPT_COMMIT_BUF;
    ck_assert(cqpt_run(q) & PFPE_CQPTAIL_OP_ERR_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPERRCODES),
                      0xffff0000u | CQP_MIN_INVALID_STATE);
}
END_TEST

Suite *hmc_suite(void)
{
    Suite *s = suite_create("hmc");
    TCase *tc = tcase_create("hmc");

    tcase_add_checked_fixture(tc, cqpt_setup, cqpt_teardown);
    tcase_add_test(tc, commit_layout_is_disjoint_aligned_and_pble_last);
    tcase_add_test(tc, commit_beyond_the_limits_fails);
    tcase_add_test(tc, translation_follows_direct_sds);
    tcase_add_test(tc, update_sds_validates_before_applying);
    tcase_add_test(tc, paged_sd_translates_through_pd_entries);
    tcase_add_test(tc, shmc_needs_a_commit_and_freezes_the_layout);
    suite_add_tcase(s, tc);
    return s;
}
