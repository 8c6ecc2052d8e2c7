/* test_rdma_objs.c - the CQP object tables: MRs/MWs (mr.c), AHs and multicast groups (ah.c),
 * APBVT, quad hash, local MACs and push pages (ltab.c), and their teardown accounting. */
#include <check.h>
#include <string.h>
#include "cqp_util.h"
#include "emu/rdma/ah.h"
#include "emu/rdma/cqp.h"
#include "emu/rdma/hmc.h"
#include "emu/rdma/ltab.h"
#include "emu/rdma/mr.h"
#include "emu/rdma/pe_regs.h"
#include "emu/rdma/qp.h"

#define OBT_CCQ_SIZE  256
#define OBT_PD        0x2b3c5u          /* 18 bits */
#define OBT_MR_IDX    0x123u
/* STag >> 8 as irdma_create_stag makes it: driver key bits above the 14-bit index. */
#define OBT_STAG_IDX  ((0x2a5u << 14) | OBT_MR_IDX)
#define OBT_KEY       0x5c
#define OBT_VA        0x7f0000001234ull
#define OBT_MG_CTX    0x81000
#define OBT_QPCTX     0x80000

static unsigned sds;

static void bring_up(void)
{
    sds = cqpt_start(OBT_CCQ_SIZE);
}

/* irdma_del_sd: the last SD (the end of the PBLEs) invalidated. */
static void unmap_last_sd(void)
{
    uint64_t q[8] = { 0 };

    q[0] = (sds - 1) | SD_CMD_PARTSEL | SD_CMD_WRITE;
    q[1] = 0;
    q[3] = cqpt_hdr(CQP_OP_UPDATE_PE_SDS);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
}

/* irdma_sc_mr_reg_non_shared, VA-based with a level-1 PBL at PBLE 5. */
static void reg_mr_wqe(uint64_t q[8])
{
    memset(q, 0, 8 * sizeof(*q));
    q[0] = OBT_VA;
    q[1] = pe_prep(CQPWQE_STAG_LEN, 0x10000) | pe_prep(CQPWQE_STAG_PDID, OBT_PD);
    q[2] = pe_prep(CQPWQE_STAG_KEY, OBT_KEY) | pe_prep(CQPWQE_STAG_IDX, OBT_STAG_IDX);
    q[5] = 0;
    q[6] = pe_prep(CQPWQE_FIRSTPMPBLIDX, 5);
    q[3] = cqpt_hdr(CQP_OP_REG_MR) | CQPWQE_STAG_MR | pe_prep(CQPWQE_LPBLSIZE, PBL_LEVEL_1) |
           pe_prep(CQPWQE_STAG_HPAGESIZE, STAG_PAGE_4K) |
           pe_prep(CQPWQE_STAG_ARIGHTS, 0x0f) | CQPWQE_STAG_REMACCENABLED |
           CQPWQE_STAG_VABASEDTO;
}

/* --- MRs and MWs --- */

START_TEST(reg_mr_va_based_with_a_pbl)
{
    uint64_t q[8];
    const PeMr *mr;

    bring_up();
    reg_mr_wqe(q);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(mr_stag_index(d, (OBT_STAG_IDX << 8) | OBT_KEY), OBT_MR_IDX);
    mr = mr_lookup(d, OBT_MR_IDX);
    ck_assert_ptr_nonnull(mr);
    ck_assert_uint_eq(mr->stag_idx, OBT_STAG_IDX);
    ck_assert_uint_eq(mr->key, OBT_KEY);
    ck_assert(!mr->is_mw);
    ck_assert_int_eq(mr->state, MR_STATE_VALID);
    ck_assert_uint_eq(mr->pd, OBT_PD);
    ck_assert_uint_eq(mr->rights, 0x0f);
    ck_assert(mr->remote_access && mr->va_based);
    ck_assert_uint_eq(mr->va, OBT_VA);
    ck_assert_uint_eq(mr->fbo, 0x234);
    ck_assert_uint_eq(mr->len, 0x10000);
    ck_assert_uint_eq(mr->page_size, 4096);
    ck_assert_uint_eq(mr->pbl_level, PBL_LEVEL_1);
    ck_assert_uint_eq(mr->first_pble, 5);
    ck_assert_uint_eq(mr_count(d), 1);
    /* The same table index again, with other driver key bits too. */
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    q[2] = pe_prep(CQPWQE_STAG_IDX, (0x11u << 14) | OBT_MR_IDX);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(mr_count(d), 1);
    /* Level 2: 17 pages need one root PBLE. */
    reg_mr_wqe(q);
    q[2] = pe_prep(CQPWQE_STAG_IDX, 0x124);
    q[3] = (q[3] & ~CQPWQE_LPBLSIZE) | pe_prep(CQPWQE_LPBLSIZE, PBL_LEVEL_2);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(mr_lookup(d, 0x124)->pbl_level, PBL_LEVEL_2);
}
END_TEST

START_TEST(reg_mr_zero_based_contiguous)
{
    uint64_t q[8];
    const PeMr *mr;

    bring_up();
    reg_mr_wqe(q);
    q[0] = 0x100;                          /* FBO */
    q[4] = 0x400000;                       /* the one 2 MiB page */
    q[6] = 0;
    q[3] = cqpt_hdr(CQP_OP_REG_MR) | CQPWQE_STAG_MR |
           pe_prep(CQPWQE_STAG_HPAGESIZE, STAG_PAGE_2M) | pe_prep(CQPWQE_STAG_ARIGHTS, 0x03);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    mr = mr_lookup(d, OBT_MR_IDX);
    ck_assert(!mr->va_based);
    ck_assert_uint_eq(mr->va, 0);
    ck_assert_uint_eq(mr->fbo, 0x100);
    ck_assert_uint_eq(mr->pa, 0x400000);
    ck_assert_uint_eq(mr->page_size, 2u << 20);
    ck_assert_uint_eq(mr->pbl_level, PBL_LEVEL_NONE);
    /* An FBO past the page; a page address not page aligned. */
    q[2] = pe_prep(CQPWQE_STAG_IDX, 0x200);
    q[0] = 2u << 20;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_SIZE);
    q[0] = 0;
    q[4] = 0x401000;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ADDR);
    ck_assert_ptr_null(mr_lookup(d, 0x200));
}
END_TEST

START_TEST(reg_mr_rejects_bad_wqes)
{
    uint64_t q[8], hdr;

    bring_up();
    reg_mr_wqe(q);
    hdr = q[3];
    q[3] = hdr | pe_prep(CQPWQE_STAG_HPAGESIZE, 3);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    q[3] = (hdr & ~CQPWQE_LPBLSIZE) | pe_prep(CQPWQE_LPBLSIZE, 2);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    q[3] = hdr & ~CQPWQE_STAG_REMACCENABLED;          /* remote rights without remote access */
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    q[3] = (hdr & ~CQPWQE_STAG_ARIGHTS) | pe_prep(CQPWQE_STAG_ARIGHTS, STAG_RIGHT_REMOTE_WRITE);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    q[3] = hdr & ~CQPWQE_STAG_MR;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    q[3] = hdr | CQPWQE_STAG_USEHMCFNIDX;
    q[5] = 3;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    q[5] = 0;
    q[3] = hdr;
    /* STag index 0; an index past the committed MR count. */
    q[2] = pe_prep(CQPWQE_STAG_IDX, 0x7fu << 14);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    q[2] = pe_prep(CQPWQE_STAG_IDX, 0x3fff);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    q[2] = pe_prep(CQPWQE_STAG_IDX, OBT_STAG_IDX);
    /* PBL past the PBLE count; PBLEs in range but not backed by an SD. */
    q[6] = hmc_obj_count(d, HMC_PBLE) - 4;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    unmap_last_sd();
    q[6] = hmc_obj_count(d, HMC_PBLE) - 1000;
    {
        const uint8_t *cqe = cqpt_op(q);

        ck_assert_uint_eq(cqpt_maj(cqe), CQP_MAJ_OBJCACHE_ERROR);
        ck_assert_uint_eq(cqpt_min(cqe), CQP_MIN_HMC_UNMAPPED);
    }
    /* A VA range wrapping 64 bits. */
    q[6] = 5;
    q[0] = ~0ull - 0x10;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_SIZE);
    ck_assert_uint_eq(mr_count(d), 0);
    ck_assert(irdma_dev_mmio_read(d, PFPE_CQPTAIL) & PFPE_CQPTAIL_OP_ERR_M);
}
END_TEST

START_TEST(alloc_stag_before_hmc_commit_is_an_objcache_error)
{
    uint64_t q[8] = { 0 };

    ck_assert_uint_eq(cqpt_create(3), PFPE_CCQPSTATUS_DONE_M);
    q[2] = pe_prep(CQPWQE_STAG_IDX, OBT_MR_IDX);
    q[3] = cqpt_hdr(CQP_OP_ALLOC_STAG) | CQPWQE_STAG_MR;
    cqpt_run(q);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPERRCODES),
                      ((uint32_t)CQP_MAJ_OBJCACHE_ERROR << 16) | CQP_MIN_HMC_NOT_COMMITTED);
}
END_TEST

/* irdma_hw_alloc_stag (fast-reg MR) and irdma_hw_alloc_mw, then DEALLOC_STAG of each. */
START_TEST(alloc_stag_and_mw_then_dealloc)
{
    uint64_t q[8] = { 0 };
    const PeMr *mr;

    bring_up();
    q[1] = pe_prep(CQPWQE_STAG_LEN, 0x4000) | pe_prep(CQPWQE_STAG_PDID, OBT_PD);
    q[2] = pe_prep(CQPWQE_STAG_IDX, OBT_STAG_IDX);
    q[3] = cqpt_hdr(CQP_OP_ALLOC_STAG) | CQPWQE_STAG_MR | CQPWQE_STAG_REMACCENABLED;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    mr = mr_lookup(d, OBT_MR_IDX);
    ck_assert(!mr->is_mw);
    ck_assert_int_eq(mr->state, MR_STATE_INVALID);
    ck_assert_uint_eq(mr->len, 0x4000);
    ck_assert_uint_eq(mr->pd, OBT_PD);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    /* Type-1 MW; a type-2 MW; an MW carrying MR-only fields. */
    memset(q, 0, sizeof(q));
    q[1] = pe_prep(CQPWQE_STAG_PDID, OBT_PD);
    q[2] = pe_prep(CQPWQE_STAG_IDX, 0x300);
    q[3] = cqpt_hdr(CQP_OP_ALLOC_STAG) | CQPWQE_STAG_MWTYPE;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert(mr_lookup(d, 0x300)->is_mw);
    ck_assert_uint_eq(mr_lookup(d, 0x300)->mw_type, 1);
    q[2] = pe_prep(CQPWQE_STAG_IDX, 0x301);
    q[3] = cqpt_hdr(CQP_OP_ALLOC_STAG);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(mr_lookup(d, 0x301)->mw_type, 2);
    q[2] = pe_prep(CQPWQE_STAG_IDX, 0x302);
    q[3] = cqpt_hdr(CQP_OP_ALLOC_STAG) | pe_prep(CQPWQE_STAG_ARIGHTS, 1);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    ck_assert_uint_eq(mr_count(d), 3);
    /* DEALLOC: the wrong kind, the wrong PD, then right; twice. */
    memset(q, 0, sizeof(q));
    q[1] = pe_prep(CQPWQE_STAG_PDID, OBT_PD);
    q[2] = pe_prep(CQPWQE_STAG_IDX, 0x300);
    q[3] = cqpt_hdr(CQP_OP_DEALLOC_STAG) | CQPWQE_STAG_MR;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    q[3] = cqpt_hdr(CQP_OP_DEALLOC_STAG);
    q[1] = pe_prep(CQPWQE_STAG_PDID, OBT_PD + 1);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    q[1] = pe_prep(CQPWQE_STAG_PDID, OBT_PD);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    q[2] = pe_prep(CQPWQE_STAG_IDX, OBT_STAG_IDX);
    q[3] = cqpt_hdr(CQP_OP_DEALLOC_STAG) | CQPWQE_STAG_MR;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(mr_count(d), 1);
}
END_TEST

/* --- address handles and multicast groups --- */

/* irdma_sc_access_ah for an IPv4 or IPv6 AH at @idx. */
static void ah_wqe(uint64_t q[8], unsigned op, unsigned idx, bool ipv4)
{
    memset(q, 0, 8 * sizeof(*q));
    q[0] = 0x525400123456ull << 16;
    q[1] = pe_prep(CQPWQE_AH_PDINDEXLO, OBT_PD & 0xffff) | pe_prep(CQPWQE_AH_TC, 0x68) |
           pe_prep(CQPWQE_AH_VLANTAG, 0x6064);
    q[2] = pe_prep(CQPWQE_AH_ARPINDEX, 7) | pe_prep(CQPWQE_AH_FLOWLABEL, 0xabcde) |
           pe_prep(CQPWQE_AH_HOPLIMIT, 64) | pe_prep(CQPWQE_AH_PDINDEXHI, OBT_PD >> 16);
    if (ipv4) {
        q[4] = pe_prep(CQPWQE_IP_ADDR1, 0xc0a80102);
        q[6] = pe_prep(CQPWQE_IP_ADDR1, 0xc0a80101);
    } else {
        q[5] = pe_prep(CQPWQE_IP_ADDR0, 0xfe800000) | pe_prep(CQPWQE_IP_ADDR1, 0);
        q[4] = pe_prep(CQPWQE_IP_ADDR0, 0x02020202) | pe_prep(CQPWQE_IP_ADDR1, 0x03030303);
        q[7] = pe_prep(CQPWQE_IP_ADDR0, 0xfe800000) | pe_prep(CQPWQE_IP_ADDR1, 1);
        q[6] = pe_prep(CQPWQE_IP_ADDR0, 0x04040404) | pe_prep(CQPWQE_IP_ADDR1, 0x05050505);
    }
    q[3] = cqpt_hdr(op) | pe_prep(CQPWQE_AH_AVIDX, idx) | (ipv4 ? CQPWQE_AH_IPV4VALID : 0) |
           CQPWQE_AH_INSERTVLANTAG;
}

START_TEST(create_and_destroy_ah)
{
    uint64_t q[8];
    const uint8_t *cqe;
    const PeAh *ah;

    bring_up();
    ah_wqe(q, CQP_OP_CREATE_AH, 3, true);
    cqe = cqpt_op(q);
    ck_assert_uint_eq(cqpt_maj(cqe), 0);
    ck_assert_uint_eq(cqpt_retval(cqe), 0);
    ah = ah_lookup(d, 3);
    ck_assert_ptr_nonnull(ah);
    ck_assert_uint_eq(ah->pd, OBT_PD);
    ck_assert_uint_eq(ah->src_mac, 0x525400123456ull);
    ck_assert_uint_eq(ah->arp_idx, 7);
    ck_assert(ah->ipv4);
    ck_assert_uint_eq(ah->dest_ip[0], 0xc0a80102);
    ck_assert_uint_eq(ah->src_ip[0], 0xc0a80101);
    ck_assert_uint_eq(ah->tc, 0x68);
    ck_assert_uint_eq(ah->hop_limit, 64);
    ck_assert_uint_eq(ah->flow_label, 0xabcde);
    ck_assert(ah->insert_vlan);
    ck_assert_uint_eq(ah->vlan_tag, 0x6064);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    /* IPv6, then MODIFY of it to IPv4. */
    ah_wqe(q, CQP_OP_CREATE_AH, 4, false);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ah = ah_lookup(d, 4);
    ck_assert(!ah->ipv4);
    ck_assert_uint_eq(ah->dest_ip[0], 0xfe800000);
    ck_assert_uint_eq(ah->dest_ip[2], 0x02020202);
    ck_assert_uint_eq(ah->dest_ip[3], 0x03030303);
    ck_assert_uint_eq(ah->src_ip[1], 1);
    ck_assert_uint_eq(ah->src_ip[3], 0x05050505);
    ah_wqe(q, CQP_OP_MODIFY_AH, 4, true);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert(ah_lookup(d, 4)->ipv4);
    ah_wqe(q, CQP_OP_MODIFY_AH, 5, true);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    /* Bad ARP index; AV index past the FSIAV count. */
    ah_wqe(q, CQP_OP_CREATE_AH, 6, true);
    q[2] = (q[2] & ~CQPWQE_AH_ARPINDEX) | pe_prep(CQPWQE_AH_ARPINDEX, 0xffff);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    ah_wqe(q, CQP_OP_CREATE_AH, hmc_obj_count(d, HMC_FSIAV), true);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    ck_assert_uint_eq(ah_count(d), 2);
    /* DESTROY carries the whole AH again. */
    ah_wqe(q, CQP_OP_DESTROY_AH, 3, true);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    ck_assert_ptr_null(ah_lookup(d, 3));
    ck_assert_uint_eq(ah_count(d), 1);
}
END_TEST

/* A UD QP (as test_qp.c makes it) to attach to a group. */
static void create_ud_qp(unsigned id)
{
    uint64_t q[8] = { 0 };
    uint8_t *c = h->mem + OBT_QPCTX + QPC_Q2_SIZE;

    q[0] = 64;
    q[3] = cqpt_hdr(CQP_OP_CREATE_CQ) | pe_prep(CQPWQE_CQ_ID, 1);
    q[4] = CQPT_CQ;
    q[5] = CQPT_CQ_SHADOW;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    memset(c, 0, QPC_SIZE);
    st64(c + QPC_SQADDR_OFF, 0x90000);
    st64(c + QPC_RQADDR_OFF, 0x91000);
    st64(c + QPC_QW3, pe_prep(QPC_RQSIZE, 3) | pe_prep(QPC_SQSIZE, 3));
    st64(c + QPC_QW17, pe_prep(QPC_TXCQNUM, 1) | pe_prep(QPC_RXCQNUM, 1));
    memset(q, 0, sizeof(q));
    q[2] = OBT_QPCTX + QPC_Q2_SIZE;
    q[5] = 0x92000;
    q[3] = cqpt_hdr(CQP_OP_CREATE_QP) | id | pe_prep(CQPWQE_QP_TYPE, QP_TYPE_ROCE_UD) |
           pe_prep(CQPWQE_QP_NEXTSTATE, QP_STATE_IDLE) | CQPWQE_QP_CQNUMVALID;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
}

START_TEST(mcast_group_lifecycle)
{
    uint64_t q[8] = { 0 };
    const PeMcg *g;

    bring_up();
    create_ud_qp(9);
    memset(h->mem + OBT_MG_CTX, 0, 64);
    st64(h->mem + OBT_MG_CTX, pe_prep(MG_CTX_QPID, 9) | MG_CTX_VALIDENT |
                              pe_prep(MG_CTX_DESTPORT, 4791));
    q[0] = 0x01005e000001ull;
    q[2] = pe_prep(CQPWQE_MG_QS_HANDLE, 2) | pe_prep(CQPWQE_MG_VLANID, 100);
    q[4] = OBT_MG_CTX;
    q[6] = pe_prep(CQPWQE_IP_ADDR1, 0xe0000001);
    q[3] = cqpt_hdr(CQP_OP_CREATE_MCAST_GRP) | pe_prep(CQPWQE_MG_IDX, 17) |
           CQPWQE_MG_IPV4VALID | CQPWQE_MG_VLANVALID;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    g = mcg_lookup(d, 17);
    ck_assert_ptr_nonnull(g);
    ck_assert_uint_eq(g->members, 1);
    ck_assert_uint_eq(g->member[0].qp, 9);
    ck_assert_uint_eq(g->member[0].dest_port, 4791);
    ck_assert_uint_eq(g->ip[0], 0xe0000001);
    ck_assert_uint_eq(g->vlan_id, 100);
    ck_assert_uint_eq(g->mac, 0x01005e000001ull);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    /* A member that is no QP (a QP irdma destroyed without a detach): kept; one past the QP
     * objects: refused; an unreachable context; an index past MG_MAX. */
    st64(h->mem + OBT_MG_CTX + 8, pe_prep(MG_CTX_QPID, 10) | MG_CTX_VALIDENT);
    q[3] = (q[3] & ~CQP_WQE_OPCODE) | pe_prep(CQP_WQE_OPCODE, CQP_OP_MODIFY_MCAST_GRP);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(mcg_lookup(d, 17)->members, 2);
    ck_assert_uint_eq(fake_host_trace_count(h, "mcg_member_no_qp"), 1);
    st64(h->mem + OBT_MG_CTX + 8, pe_prep(MG_CTX_QPID, hmc_obj_count(d, HMC_QP)) |
                                  MG_CTX_VALIDENT);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    st64(h->mem + OBT_MG_CTX + 8, 0);
    q[4] = CQPT_MEM_SIZE;
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ADDR);
    q[4] = OBT_MG_CTX;
    q[3] = (q[3] & ~CQPWQE_MG_IDX) | pe_prep(CQPWQE_MG_IDX, MG_MAX);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    /* Detach of the last member: MODIFY with no entries, then DESTROY. */
    st64(h->mem + OBT_MG_CTX, 0);
    q[3] = cqpt_hdr(CQP_OP_MODIFY_MCAST_GRP) | pe_prep(CQPWQE_MG_IDX, 17) | CQPWQE_MG_IPV4VALID;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(mcg_lookup(d, 17)->members, 0);
    q[3] = cqpt_hdr(CQP_OP_DESTROY_MCAST_GRP) | pe_prep(CQPWQE_MG_IDX, 17);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(mcg_count(d), 0);
}
END_TEST

/* --- APBVT, quad hash, local MACs, push pages --- */

START_TEST(apbvt_add_and_delete)
{
    uint64_t q[8] = { 0 };

    bring_up();
    q[2] = 4791;
    q[3] = cqpt_hdr(CQP_OP_MANAGE_APBVT) | CQPWQE_APBVT_ADDPORT;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert(ltab_apbvt_has(d, 4791));
    ck_assert_uint_eq(ltab_apbvt_count(d), 1);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    q[3] = cqpt_hdr(CQP_OP_MANAGE_APBVT);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert(!ltab_apbvt_has(d, 4791));
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(ltab_apbvt_count(d), 0);
}
END_TEST

/* irdma_sc_manage_qhash_table_entry: a listener (SYN) and an established IPv6 quad. */
START_TEST(qhash_add_modify_delete)
{
    uint64_t q[8] = { 0 }, syn[8], est[8];
    PeQhashKey k = { 0 };
    const PeQhash *e;

    bring_up();
    q[0] = 0x525400abcdefull;
    q[1] = pe_prep(CQPWQE_QHASH_QPN, 2) | pe_prep(CQPWQE_QHASH_DEST_PORT, 5001);
    q[2] = pe_prep(CQPWQE_QHASH_QS_HANDLE, 2) | pe_prep(CQPWQE_QHASH_VLANID, 10);
    q[6] = pe_prep(CQPWQE_IP_ADDR1, 0x0a000001);
    q[3] = cqpt_hdr(CQP_OP_MANAGE_QHASH) | pe_prep(CQPWQE_QHASH_MANAGE, QHASH_MANAGE_ADD) |
           CQPWQE_QHASH_IPV4VALID | CQPWQE_QHASH_VLANVALID |
           pe_prep(CQPWQE_QHASH_ENTRYTYPE, 2);
    memcpy(syn, q, sizeof(q));
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    k = (PeQhashKey) { .type = 2, .ipv4 = true, .vlan_valid = true, .vlan_id = 10,
                       .dest_ip = { 0x0a000001 }, .dest_port = 5001 };
    e = ltab_qhash_lookup(d, &k);
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->qpn, 2);
    ck_assert_uint_eq(e->mac, 0x525400abcdefull);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    /* Established IPv6 quad: source fields count in the key. */
    memset(q, 0, sizeof(q));
    q[1] = pe_prep(CQPWQE_QHASH_QPN, 33) | pe_prep(CQPWQE_QHASH_DEST_PORT, 5001) |
           pe_prep(CQPWQE_QHASH_SRC_PORT, 40000);
    q[7] = pe_prep(CQPWQE_IP_ADDR0, 0x20010db8);
    q[6] = pe_prep(CQPWQE_IP_ADDR1, 1);
    q[5] = pe_prep(CQPWQE_IP_ADDR0, 0x20010db8);
    q[4] = pe_prep(CQPWQE_IP_ADDR1, 2);
    q[3] = cqpt_hdr(CQP_OP_MANAGE_QHASH) | pe_prep(CQPWQE_QHASH_MANAGE, QHASH_MANAGE_ADD) |
           pe_prep(CQPWQE_QHASH_ENTRYTYPE, QHASH_TYPE_TCP_ESTABLISHED);
    memcpy(est, q, sizeof(q));
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(ltab_qhash_count(d), 2);
    q[1] = (q[1] & ~CQPWQE_QHASH_QPN) | pe_prep(CQPWQE_QHASH_QPN, 34);
    q[3] = (q[3] & ~CQPWQE_QHASH_MANAGE) | pe_prep(CQPWQE_QHASH_MANAGE, QHASH_MANAGE_MODIFY);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    k = (PeQhashKey) { .type = 1, .dest_ip = { 0x20010db8, 0, 0, 1 }, .dest_port = 5001,
                       .src_ip = { 0x20010db8, 0, 0, 2 }, .src_port = 40000 };
    ck_assert_uint_eq(ltab_qhash_lookup(d, &k)->qpn, 34);
    /* Bad type, bad manage, QP past the count; delete both, twice. */
    q[3] = (q[3] & ~CQPWQE_QHASH_ENTRYTYPE) | pe_prep(CQPWQE_QHASH_ENTRYTYPE, 7);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    q[3] = est[3] | pe_prep(CQPWQE_QHASH_MANAGE, 3);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    q[3] = est[3];
    q[1] = (q[1] & ~CQPWQE_QHASH_QPN) | pe_prep(CQPWQE_QHASH_QPN, 0x3ffff);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    est[3] &= ~CQPWQE_QHASH_MANAGE;
    syn[3] &= ~CQPWQE_QHASH_MANAGE;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(est)), 0);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(syn)), 0);
    ck_assert_uint_eq(cqpt_min(cqpt_op(syn)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(ltab_qhash_count(d), 0);
}
END_TEST

START_TEST(local_mac_table)
{
    uint64_t q[8] = { 0 }, mac;
    const uint8_t *cqe;

    bring_up();
    q[3] = cqpt_hdr(CQP_OP_ALLOC_LOC_MAC);
    cqe = cqpt_op(q);
    ck_assert_uint_eq(cqpt_maj(cqe), 0);
    ck_assert_uint_eq(cqpt_retval(cqe), 0);
    ck_assert_uint_eq(cqpt_retval(cqpt_op(q)), 1);
    q[4] = 0x525400000001ull;
    q[3] = cqpt_hdr(CQP_OP_MANAGE_LOC_MAC) | pe_prep(CQPWQE_LMAC_IDX, 1);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert(ltab_local_mac(d, 1, &mac));
    ck_assert_uint_eq(mac, 0x525400000001ull);
    ck_assert(!ltab_local_mac(d, 0, &mac));
    /* Writing an entry never allocated; free, then free again. */
    q[3] = cqpt_hdr(CQP_OP_MANAGE_LOC_MAC) | pe_prep(CQPWQE_LMAC_IDX, 5);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    q[3] = cqpt_hdr(CQP_OP_MANAGE_LOC_MAC) | pe_prep(CQPWQE_LMAC_IDX, 1) | CQPWQE_LMAC_FREEENTRY;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(ltab_local_mac_count(d), 1);
    /* The table is bounded. */
    q[3] = cqpt_hdr(CQP_OP_ALLOC_LOC_MAC);
    for (unsigned i = 1; i < LMAC_ENTRIES; i++) {
        ck_assert_uint_eq(cqpt_retval(cqpt_op(q)), i);
    }
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_SIZE);
}
END_TEST

START_TEST(push_pages_alloc_and_free)
{
    uint64_t q[8] = { 0 };

    bring_up();
    /* No WS leaf yet: refused. */
    q[2] = 2;
    q[3] = cqpt_hdr(CQP_OP_MANAGE_PUSH_PAGES);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_ID);
    memset(q, 0, sizeof(q));
    q[4] = pe_prep(CQPWQE_WS_VSI, 0);
    q[3] = cqpt_hdr(CQP_OP_WORK_SCHED_NODE) | CQPWQE_WS_ENABLENODE;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    q[3] = cqpt_hdr(CQP_OP_WORK_SCHED_NODE) | pe_prep(CQPWQE_WS_NODEID, 1) |
           CQPWQE_WS_NODETYPE_LEAF;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    memset(q, 0, sizeof(q));
    q[2] = 1;
    q[3] = cqpt_hdr(CQP_OP_MANAGE_PUSH_PAGES);
    ck_assert_uint_eq(cqpt_retval(cqpt_op(q)), 0);
    ck_assert_uint_eq(cqpt_retval(cqpt_op(q)), 1);
    ck_assert(ltab_push_page_allocated(d, 1));
    q[3] = cqpt_hdr(CQP_OP_MANAGE_PUSH_PAGES) | pe_prep(CQPWQE_PUSH_TYPE, 1);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_BAD_FIELD);
    q[3] = cqpt_hdr(CQP_OP_MANAGE_PUSH_PAGES) | CQPWQE_PUSH_FREE_PAGE | pe_prep(CQPWQE_PUSH_IDX, 1);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ck_assert_uint_eq(cqpt_min(cqpt_op(q)), CQP_MIN_INVALID_STATE);
    ck_assert_uint_eq(ltab_push_page_count(d), 1);
}
END_TEST

/* --- teardown --- */

/* Objects of every new table alive at CQP destroy are leaks; the destroy then drops them. */
START_TEST(teardown_counts_and_drops_the_new_tables)
{
    uint64_t q[8];

    bring_up();
    reg_mr_wqe(q);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ah_wqe(q, CQP_OP_CREATE_AH, 3, true);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    memset(q, 0, sizeof(q));
    q[2] = 4791;
    q[3] = cqpt_hdr(CQP_OP_MANAGE_APBVT) | CQPWQE_APBVT_ADDPORT;
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    q[3] = cqpt_hdr(CQP_OP_ALLOC_LOC_MAC);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    /* CCQ + MR + AH + port + local MAC. */
    ck_assert_uint_eq(cqp_leak_check(d), 5);
    irdma_dev_mmio_write(d, PFPE_CCQPHIGH, 0);
    irdma_dev_mmio_write(d, PFPE_CCQPLOW, 0);
    ck_assert_uint_eq(d->rdma_leaked, 5);
    ck_assert_uint_eq(mr_count(d) + ah_count(d) + ltab_apbvt_count(d) +
                      ltab_local_mac_count(d), 0);
    /* And a PF reset drops them too. */
    bring_up();
    reg_mr_wqe(q);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    ah_wqe(q, CQP_OP_CREATE_AH, 3, true);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
    irdma_dev_pf_reset(d);
    ck_assert_uint_eq(mr_count(d) + ah_count(d), 0);
    bring_up();
    reg_mr_wqe(q);
    ck_assert_uint_eq(cqpt_maj(cqpt_op(q)), 0);
}
END_TEST

static TCase *tcase(const char *name)
{
    TCase *tc = tcase_create(name);

    tcase_add_checked_fixture(tc, cqpt_setup, cqpt_teardown);
    return tc;
}

Suite *mr_suite(void)
{
    Suite *s = suite_create("mr");
    TCase *tc = tcase("mr");

    tcase_add_test(tc, reg_mr_va_based_with_a_pbl);
    tcase_add_test(tc, reg_mr_zero_based_contiguous);
    tcase_add_test(tc, reg_mr_rejects_bad_wqes);
    tcase_add_test(tc, alloc_stag_before_hmc_commit_is_an_objcache_error);
    tcase_add_test(tc, alloc_stag_and_mw_then_dealloc);
    tcase_add_test(tc, teardown_counts_and_drops_the_new_tables);
    suite_add_tcase(s, tc);
    return s;
}

Suite *ah_suite(void)
{
    Suite *s = suite_create("ah");
    TCase *tc = tcase("ah");

    tcase_add_test(tc, create_and_destroy_ah);
    tcase_add_test(tc, mcast_group_lifecycle);
    suite_add_tcase(s, tc);
    return s;
}

Suite *ltab_suite(void)
{
    Suite *s = suite_create("ltab");
    TCase *tc = tcase("ltab");

    tcase_add_test(tc, apbvt_add_and_delete);
    tcase_add_test(tc, qhash_add_modify_delete);
    tcase_add_test(tc, local_mac_table);
    tcase_add_test(tc, push_pages_alloc_and_free);
    suite_add_tcase(s, tc);
    return s;
}
