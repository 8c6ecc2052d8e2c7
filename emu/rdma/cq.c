/* cq.c - completion queues (see cq.h). */
#include "rdma/cq.h"
#include "core/idcache.h"
#include "rdma/ceq.h"
#include "rdma/hmc.h"
#include "rdma/pe_regs.h"
#include "core/trace.h"

typedef struct PeCq {
    uint32_t id;
    uint64_t ctx;              /* CREATE_CQ qw1: the driver's CQ pointer >> 1 (CEQE payload) */
    PeQueueMap map;
    uint32_t size;             /* CQEs */
    uint32_t head;             /* next CQE slot the device writes */
    uint8_t valid;             /* VALID of the current pass: 1, toggled on every wrap */
    uint64_t shadow_pa;
    bool chk_overflow;
    bool ceq_valid;
    uint16_t ceq_id;
    bool arm_any, arm_se;
} PeCq;

struct PeCqs {
    IrdmaDev *d;
    GHashTable *cqs;           /* id -> PeCq * */
    IdCache cache;             /* in front of cqs: every CQE looks its CQ up */
};

static const EmuReg cq_regs[3];

PeCqs *cq_block_new(IrdmaDev *d)
{
    PeCqs *cqs = g_new0(PeCqs, 1);

    cqs->d = d;
    cqs->cqs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    emu_regfile_add(d->regs, cq_regs, G_N_ELEMENTS(cq_regs), d);
    return cqs;
}

void cq_block_free(PeCqs *cqs)
{
    if (!cqs) {
        return;
    }
    g_hash_table_destroy(cqs->cqs);
    g_free(cqs);
}

void cq_block_reset(PeCqs *cqs)
{
    g_hash_table_remove_all(cqs->cqs);
    idcache_clear(&cqs->cache);
}

static PeCq *lookup(IrdmaDev *d, uint32_t id)
{
    return idcache_lookup(&d->cqs->cache, d->cqs->cqs, id);
}

bool cq_exists(IrdmaDev *d, uint32_t id)
{
    return lookup(d, id) != NULL;
}

unsigned cq_count(IrdmaDev *d)
{
    return g_hash_table_size(d->cqs->cqs);
}

/* True if the consumer index in the shadow area says the ring has fewer than @slots free
 * slots. A ring keeps one slot unused: the polarity tells a fresh CQE from an old one. */
static bool cq_full(IrdmaDev *d, const PeCq *cq, unsigned slots)
{
    uint64_t sh;
    uint32_t consumer;

    if (!cq->chk_overflow || !pe_dma_read(d, cq->shadow_pa + CQ_SHADOW_CQEIDX_OFF, &sh, 8)) {
        return false;
    }
    consumer = pe_get(ld64(&sh), CQ_SHADOW_CQEIDX);
    if (consumer >= cq->size) {
        return false;           /* not an index: the driver's problem, not an overflow */
    }
    return (cq->head + cq->size - consumer) % cq->size + slots > cq->size - 1;
}

/* Write @cqe into slot @slot with VALID @valid (header qword last in address order). */
static bool write_slot(IrdmaDev *d, const PeCq *cq, uint32_t slot, uint8_t valid,
                       uint8_t cqe[CQE_SIZE])
{
    uint64_t gpa, hdr;
    HmcStatus st = hmc_queue_gpa(d, &cq->map, (uint64_t)slot * CQE_SIZE, &gpa);

    if (st != HMC_OK) {
        emu_trace(&d->host, TR_ERR_CQ_UNMAPPED, "cq=%u slot %u: CQE dropped", cq->id, slot);
        return false;
    }
    hdr = ld64(cqe + CQE_HDR) & ~CQE_VALID;
    st64(cqe + CQE_HDR, hdr | (valid ? CQE_VALID : 0));
    if (!pe_dma_write(d, gpa, cqe, CQE_SIZE)) {
        emu_trace(&d->host, TR_CQ_DMA_ERROR, "cq=%u slot %u", cq->id, slot);
        return false;
    }
    return true;
}

static void advance(PeCq *cq)
{
    if (++cq->head == cq->size) {
        cq->head = 0;
        cq->valid ^= 1;
    }
}

/* Post @cqe (and @ext into the following slot, if any) and notify an armed CQ. */
static bool post(IrdmaDev *d, uint32_t id, uint8_t cqe[CQE_SIZE], uint8_t *ext, bool notify)
{
    PeCq *cq = lookup(d, id);

    if (!cq) {
        emu_trace(&d->host, TR_ERR_CQ_POST_NO_CQ, "cq=%u", id);
        return false;
    }
    if (cq_full(d, cq, ext ? 2 : 1)) {
        emu_trace(&d->host, TR_ERR_CQ_OVERFLOW, "cq=%u head=%u: CQE dropped", id, cq->head);
        return false;
    }
    if (ext) {
        /* The extension first, so the driver never sees a valid CQE without it; the slot
         * after the last one is slot 0 of the next pass. */
        uint32_t next = (cq->head + 1) % cq->size;

        if (!write_slot(d, cq, next, next ? cq->valid : cq->valid ^ 1, ext)) {
            return false;
        }
    }
    if (!write_slot(d, cq, cq->head, cq->valid, cqe)) {
        return false;
    }
    advance(cq);
    if (ext) {
        advance(cq);
    }
    if (cq->arm_any || (cq->arm_se && notify)) {
        cq->arm_any = cq->arm_se = false;
        if (cq->ceq_valid) {
            eqs_ceq_post(d, cq->ceq_id, cq->ctx);
        }
    }
    return true;
}

bool cq_post(IrdmaDev *d, uint32_t id, uint8_t cqe[CQE_SIZE], bool notify)
{
    return post(d, id, cqe, NULL, notify);
}

bool cq_post_qp(IrdmaDev *d, uint32_t id, const QpCqe *c)
{
    uint8_t cqe[CQE_SIZE] = { 0 }, ext[CQE_SIZE] = { 0 };
    bool has_ext = c->imm_valid || c->smac_valid;

    st64(cqe + CQE_PAYLDLEN_OFF, pe_prep(CQE_PAYLDLEN, c->payload_len));
    st64(cqe + CQE_QW1_CTX, c->ctx);
    st64(cqe + CQE_QW2, pe_prep(CQE_UDSRCQPN, c->qw2_low) | pe_prep(CQE_QPID, c->qp_id));
    st64(cqe + CQE_HDR, pe_prep(CQE_WQEIDX, c->wqe_idx) | pe_prep(CQE_OP, c->op) |
                        (c->sq ? CQE_SQ : 0) | (c->stag_or_ipv4 ? CQE_STAG_OR_IPV4 : 0) |
                        (c->solicited ? CQE_SOEVENT : 0) | (has_ext ? CQE_EXTCQE : 0) |
                        (c->error ? CQE_ERROR | pe_prep(CQE_MAJERR, c->maj) |
                                    pe_prep(CQE_MINERR, c->min) : 0));
    if (has_ext) {
        st64(ext + CQE_EXT_IMM_OFF, c->imm);
        st64(ext + CQE_EXT_SMAC_OFF, pe_prep(CQE_EXT_UDSMAC, c->smac));
        st64(ext + CQE_HDR, (c->imm_valid ? CQE_EXT_IMMVALID : 0) |
                            (c->smac_valid ? CQE_EXT_UDSMACVALID : 0));
    }
    return post(d, id, cqe, has_ext ? ext : NULL, c->solicited || c->error);
}

/* PFPE_CQARM written with @val (the CQ id). */
static void arm_doorbell(IrdmaDev *d, uint32_t val)
{
    PeCq *cq = lookup(d, val);
    uint64_t arm;

    if (!cq) {
        emu_trace(&d->host, TR_ERR_CQ_ARM_NO_CQ, "cq=%u", val);
        return;
    }
    if (!pe_dma_read(d, cq->shadow_pa + CQ_SHADOW_ARM_OFF, &arm, 8)) {
        emu_trace(&d->host, TR_CQ_ARM_DMA_ERROR, "cq=%u", val);
        return;
    }
    arm = ld64(&arm);
    cq->arm_any = arm & CQ_SHADOW_ARM_NEXT;
    cq->arm_se = arm & CQ_SHADOW_ARM_NEXT_SE;
    emu_trace(&d->host, TR_CQ_ARM, "cq=%u next=%d se=%d", val, cq->arm_any, cq->arm_se);
}

static void op_create_cq(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    uint32_t id = pe_get(w->hdr, CQPWQE_CQ_ID);
    uint64_t size = pe_get(cqp_qw(w, CQPWQE_CQ_SIZE_OFF), CQPWQE_CQ_SIZE);
    bool virt = w->hdr & CQPWQE_VIRTMAP;
    PeQueueMap map = {
        .virt = virt,
        .pa = cqp_qw(w, CQPWQE_CQ_PA_OFF),
        .first_pble = pe_get(cqp_qw(w, CQPWQE_CQ_PBL_OFF), CQPWQE_FIRSTPMPBLIDX),
    };
    uint64_t shadow = cqp_qw(w, CQPWQE_CQ_SHADOW_OFF);
    uint64_t ctx_gpa;
    HmcStatus st;
    PeCq *cq;

    /* The CQ's context lives in HMC: its SD must be programmed. */
    st = hmc_obj_gpa(d, HMC_CQ, id, &ctx_gpa);
    if (st != HMC_OK) {
        hmc_status_fail(st, r);
        return;
    }
    if (lookup(d, id)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        return;
    }
    /* Any ring the 21-bit size field can name is taken: irdma offers max_cqe up to the
     * field's limit and user space may ask for exactly that. Only an empty ring is wrong. */
    if (size == 0) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_SIZE);
        return;
    }
    if ((w->hdr & CQPWQE_CQ_CEQIDVALID) && pe_get(w->hdr, CQPWQE_CQ_CEQID) >= PE_MAX_CEQS) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        return;
    }
    /* AVOIDMEMCNFLCT (64-byte CQEs) is never used by gen2; only level-1 PBLs are. */
    if ((w->hdr & CQPWQE_CQ_AVOIDMEMCNFLCT) ||
        (virt && pe_get(w->hdr, CQPWQE_LPBLSIZE) != PBL_LEVEL_1)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
        return;
    }
    if ((!virt && (map.pa == 0 || map.pa % CQE_SIZE)) || shadow % 8) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
        return;
    }
    st = hmc_queue_check(d, &map, size * CQE_SIZE);
    if (st != HMC_OK) {
        hmc_status_fail(st, r);
        return;
    }
    cq = g_new0(PeCq, 1);
    *cq = (PeCq) {
        .id = id,
        .ctx = pe_get(cqp_qw(w, CQPWQE_CQ_CTX_OFF), CQPWQE_CQ_CTX),
        .map = map,
        .size = size,
        .valid = 1,
        .shadow_pa = shadow,
        .chk_overflow = w->hdr & CQPWQE_CQ_CHKOVERFLOW,
        .ceq_valid = w->hdr & CQPWQE_CQ_CEQIDVALID,
        .ceq_id = pe_get(w->hdr, CQPWQE_CQ_CEQID),
    };
    g_hash_table_insert(d->cqs->cqs, GUINT_TO_POINTER(id), cq);
    idcache_forget(&d->cqs->cache, id);
    emu_trace(&d->host, TR_CQ_CREATE, "cq=%u size=%u %s ceq=%d", id, cq->size,
              virt ? "virtual" : "contiguous", cq->ceq_valid ? cq->ceq_id : -1);
}

/* MODIFY_CQ (irdma_resize_cq): with CQRESIZE the CQ moves to the new ring at slot 0 with
 * polarity 1; CQEs already written to the old one stay where they are (the driver drains
 * them). Any modify may change overflow checking and the shadow area. Not for the CCQ. */
static void op_modify_cq(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    uint32_t id = pe_get(w->hdr, CQPWQE_CQ_ID);
    PeCq *cq = lookup(d, id);
    bool resize = w->hdr & CQPWQE_CQ_RESIZE, virt = w->hdr & CQPWQE_VIRTMAP;
    uint64_t size = pe_get(cqp_qw(w, CQPWQE_CQ_SIZE_OFF), CQPWQE_CQ_SIZE);
    uint64_t shadow = cqp_qw(w, CQPWQE_CQ_SHADOW_OFF);
    PeQueueMap map = {
        .virt = virt,
        .pa = cqp_qw(w, CQPWQE_CQ_PA_OFF),
        .first_pble = pe_get(cqp_qw(w, CQPWQE_CQ_PBL_OFF), CQPWQE_FIRSTPMPBLIDX),
    };
    HmcStatus st;

    if (!cq || id == CQ_ID_CCQ) {
        cqp_fail(r, CQP_MAJ_ERROR, cq ? CQP_MIN_BAD_ID : CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_CQ_MODIFY_REFUSED,
                  "cq=%u: %s", id, cq ? "the CCQ" : "no such CQ");
        return;
    }
    if (shadow == 0 || shadow % 8) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
        emu_trace(&d->host, TR_ERR_CQ_MODIFY_BAD_SHADOW, "cq=%u", id);
        return;
    }
    if (resize) {
        if (size == 0) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_SIZE);
            emu_trace(&d->host, TR_ERR_CQ_RESIZE_BAD_SIZE, "cq=%u size=%" G_GINT64_MODIFIER "u",
                      id, size);
            return;
        }
        if ((w->hdr & CQPWQE_CQ_AVOIDMEMCNFLCT) ||
            (virt && pe_get(w->hdr, CQPWQE_LPBLSIZE) != PBL_LEVEL_1)) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
            emu_trace(&d->host, TR_ERR_CQ_RESIZE_BAD_FIELD, "cq=%u", id);
            return;
        }
        if (!virt && (map.pa == 0 || map.pa % CQE_SIZE)) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
            emu_trace(&d->host, TR_ERR_CQ_RESIZE_BAD_ADDR, "cq=%u", id);
            return;
        }
        st = hmc_queue_check(d, &map, size * CQE_SIZE);
        if (st != HMC_OK) {
            hmc_status_fail(st, r);
            emu_trace(&d->host, TR_ERR_CQ_RESIZE_UNMAPPED, "cq=%u", id);
            return;
        }
        cq->map = map;
        cq->size = size;
        cq->head = 0;
        cq->valid = 1;
    }
    cq->shadow_pa = shadow;
    cq->chk_overflow = w->hdr & CQPWQE_CQ_CHKOVERFLOW;
    emu_trace(&d->host, resize ? TR_CQ_RESIZE : TR_CQ_MODIFY, "cq=%u size=%u %s", id, cq->size,
              cq->map.virt ? "virtual" : "contiguous");
}

static void op_destroy_cq(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    uint32_t id = pe_get(w->hdr, CQPWQE_CQ_ID);

    idcache_forget(&d->cqs->cache, id);
    if (!g_hash_table_remove(d->cqs->cqs, GUINT_TO_POINTER(id))) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        return;
    }
    /* Destroying the CCQ completes through CQPTAIL only (irdma_sc_ccq_destroy polls it). */
    r->no_ccqe = id == CQ_ID_CCQ;
    emu_trace(&d->host, TR_CQ_DESTROY, "cq=%u", id);
}

static const CqpOp cq_ops[] = {
    { CQP_OP_CREATE_CQ, "CREATE_CQ", op_create_cq, CQP_OBJ_CQ },
    { CQP_OP_MODIFY_CQ, "MODIFY_CQ", op_modify_cq, CQP_OBJ_CQ },
    { CQP_OP_DESTROY_CQ, "DESTROY_CQ", op_destroy_cq, CQP_OBJ_CQ },
};

const CqpOpTable cq_cqp_ops = { cq_ops, G_N_ELEMENTS(cq_ops) };

static void cqarm_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    (void)r;
    (void)idx;
    arm_doorbell(blk, val);
}

static void cqack_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    IrdmaDev *d = blk;

    (void)r;
    (void)idx;
    /* One CEQE of this CQ consumed. The model emits at most one CEQE per arm, so there is no
     * per-CQ CEQE credit to return. */
    emu_trace(&d->host, TR_PE_CQACK, "cq=%u", val);
}

/* The CQ doorbells: arm (the kernel's, and the user doorbell page's copy) and CEQE ack. */
static const EmuReg cq_regs[3] = {
    { .name = "PFPE_CQARM", .base = PFPE_CQARM, .wmask = ~0u, .write = cqarm_write },
    { .name = "PFPE_CQACK", .base = PFPE_CQACK, .wmask = ~0u, .write = cqack_write },
    { .name = "PE_UDB_CQARM", .base = PE_UDB_CQARM, .wmask = ~0u, .write = cqarm_write },
};
