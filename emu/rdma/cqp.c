/* cqp.c - Control QP engine and the CQP ops not owned by another block (see cqp.h). */
#include "rdma/cqp.h"
#include "rdma/ceq.h"
#include "core/fault.h"
#include "rdma/cq.h"
#include "fw/fw.h"
#include "rdma/hmc.h"
#include "core/intr.h"
#include "rdma/pe_regs.h"
#include "rdma/qp.h"
#include "core/trace.h"
#include "rdma/ws.h"
#include "rdma/mr.h"
#include "rdma/ah.h"
#include "rdma/ltab.h"
#include "rdma/stats.h"

/* ARP_INDEX is 12 bits; the committed ARP count bounds it further. */
#define CQP_ARP_ENTRIES  4096
#define CQP_ARP_VALID    PE_BIT64(63)

/* The CQP's registers: the create handshake, doorbell, tail and error codes (pe_regs.h). */
typedef enum CqpReg {
    CQP_REG_TAIL, CQP_REG_DB, CQP_REG_STATUS, CQP_REG_HIGH, CQP_REG_LOW, CQP_REG_ERRCODES,
    CQP_NUM_REGS
} CqpReg;

static const EmuReg cqp_regs[CQP_NUM_REGS];

static uint32_t reg_get(IrdmaDev *d, CqpReg r)
{
    return emu_reg_get(d->regs, &cqp_regs[r], 0);
}

static void reg_set(IrdmaDev *d, CqpReg r, uint32_t val)
{
    emu_reg_set(d->regs, &cqp_regs[r], 0, val);
}

struct Cqp {
    IrdmaDev *d;
    bool created;
    uint64_t sq_pa;
    unsigned sq_size;
    uint64_t compl_ctx;        /* host context qw3: echoed in every CCQ CQE */
    unsigned tail;             /* next WQE to consume */
    uint8_t valid;             /* VALID of the current pass */
    unsigned rung;             /* the slot after the last one a doorbell covered */
    uint64_t rung_at[CQP_SQ_MAX];   /* when the doorbell covering each slot was rung */
    EmuEvent *ev;
    bool delay_held;           /* the WQE at the tail waits out a fault-plan delay */
    const CqpOp *ops[CQP_NUM_OPCODES];
    /* Objects of the ops below. */
    uint64_t arp[CQP_ARP_ENTRIES];  /* MAC (MAC[0] in bits 47:40) | CQP_ARP_VALID */
};

static const CqpOpTable cqp_misc_ops;

static const CqpOpTable *const op_tables[] = {
    &cqp_misc_ops, &hmc_cqp_ops, &cq_cqp_ops, &eqs_cqp_ops, &qp_cqp_ops, &ws_cqp_ops,
    &mr_cqp_ops, &ah_cqp_ops, &ltab_cqp_ops, &stats_cqp_ops,
};

const CqpOpTable *const *cqp_opcode_tables(size_t *n)
{
    *n = G_N_ELEMENTS(op_tables);
    return op_tables;
}

static bool has_opcode(const CqpOp *op, const void *key)
{
    return op->opcode == *(const unsigned *)key;
}

static bool has_name(const CqpOp *op, const void *key)
{
    return !g_ascii_strcasecmp(op->name, key);
}

/* The op of any table for which @match(op, @key) holds, or NULL. */
static const CqpOp *find_op(bool (*match)(const CqpOp *op, const void *key), const void *key)
{
    for (size_t t = 0; t < G_N_ELEMENTS(op_tables); t++) {
        for (size_t i = 0; i < op_tables[t]->n; i++) {
            if (match(&op_tables[t]->ops[i], key)) {
                return &op_tables[t]->ops[i];
            }
        }
    }
    return NULL;
}

static const char *opcode_name(unsigned opcode)
{
    const CqpOp *op = find_op(has_opcode, &opcode);

    return op ? op->name : NULL;
}

static int opcode_named(const char *name)
{
    const CqpOp *op = find_op(has_name, name);

    return op ? op->opcode : -1;
}

static const char *opcode_object(unsigned opcode)
{
    const CqpOp *op = find_op(has_opcode, &opcode);
    CqpObject obj = op ? op->object : CQP_OBJ_NONE;

    return obj == CQP_OBJ_QP ? "qp" : obj == CQP_OBJ_CQ ? "cq" : NULL;
}

const FaultOpcodes cqp_fault_opcodes = {
    .name = opcode_name, .named = opcode_named, .object = opcode_object,
};

unsigned cqp_wqe_object_id(const CqpWqe *w, CqpObject object)
{
    return object == CQP_OBJ_QP ? pe_get(w->hdr, CQPWQE_QP_ID) :
           object == CQP_OBJ_CQ ? pe_get(w->hdr, CQPWQE_CQ_ID) : 0;
}

Cqp *cqp_new(IrdmaDev *d)
{
    Cqp *cqp = g_new0(Cqp, 1);

    cqp->d = d;
    for (size_t t = 0; t < G_N_ELEMENTS(op_tables); t++) {
        for (size_t i = 0; i < op_tables[t]->n; i++) {
            const CqpOp *op = &op_tables[t]->ops[i];

            if (op->opcode >= CQP_NUM_OPCODES || cqp->ops[op->opcode]) {
                g_error("irdma-emu: CQP opcode 0x%02x (%s) declared twice or out of range",
                        op->opcode, op->name);
            }
            cqp->ops[op->opcode] = op;
        }
    }
    emu_regfile_add(d->regs, cqp_regs, CQP_NUM_REGS, d);
    return cqp;
}

void cqp_free(Cqp *cqp)
{
    if (!cqp) {
        return;
    }
    if (cqp->ev) {
        emu_event_cancel(&cqp->d->events, cqp->ev);
    }
    g_free(cqp);
}

void cqp_reset(Cqp *cqp)
{
    emu_regfile_reset_regs(cqp->d->regs, cqp_regs, CQP_NUM_REGS);
    if (cqp->ev) {
        emu_event_cancel(&cqp->d->events, cqp->ev);
        cqp->ev = NULL;
    }
    cqp->created = false;
    cqp->delay_held = false;
    cqp->tail = 0;
    cqp->valid = 1;
    memset(cqp->arp, 0, sizeof(cqp->arp));
}

bool cqp_created(IrdmaDev *d)
{
    return d->cqp->created;
}

const CqpOp *cqp_lookup(IrdmaDev *d, uint8_t opcode)
{
    return opcode < CQP_NUM_OPCODES ? d->cqp->ops[opcode] : NULL;
}

/* CCQPSTATUS := ERR with the codes in CQPERRCODES. */
static void create_failed(IrdmaDev *d, uint16_t maj, uint16_t min, const char *why)
{
    emu_trace(&d->host, TR_ERR_CQP_CREATE_FAILED, "%s (maj=0x%04x min=0x%04x)", why, maj, min);
    reg_set(d, CQP_REG_ERRCODES, ((uint32_t)maj << 16) | min);
    reg_set(d, CQP_REG_STATUS, PFPE_CCQPSTATUS_ERR_M);
}

/* CCQPLOW written (after CCQPHIGH): create the CQP from the host context there, or destroy it
 * when both are 0. */
static void context_written(IrdmaDev *d)
{
    Cqp *cqp = d->cqp;
    uint64_t pa = ((uint64_t)reg_get(d, CQP_REG_HIGH) << 32) | reg_get(d, CQP_REG_LOW);
    uint8_t ctx[CQPHC_SIZE];
    uint64_t qw0, qw4, sq;
    unsigned enc;

    if (pa == 0) {
        if (cqp->ev) {
            emu_event_cancel(&d->events, cqp->ev);
            cqp->ev = NULL;
        }
        cqp->created = false;
        reg_set(d, CQP_REG_STATUS, 0);
        emu_trace(&d->host, TR_CQP_DESTROY, "CQP destroyed");
        d->rdma_teardowns++;
        d->rdma_leaked += cqp_leak_check(d);
        /* The function's PE instance ends with its CQP: the next driver instance queries and
         * commits a fresh HMC layout and re-creates every object. */
        cqp_objects_reset(d);
        return;
    }
    if (cqp->created) {
        create_failed(d, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE, "CQP already created");
        return;
    }
    if (!pe_dma_read(d, pa, ctx, sizeof(ctx))) {
        create_failed(d, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR, "host context unreachable");
        return;
    }
    qw0 = ld64(ctx + CQPHC_QW0);
    qw4 = ld64(ctx + CQPHC_QW4);
    sq = ld64(ctx + CQPHC_SQBASE_OFF);
    enc = pe_get(qw0, CQPHC_SQSIZE);
    if (enc < CQPHC_SQSIZE_ENC_MIN || enc > CQPHC_SQSIZE_ENC_MAX) {
        create_failed(d, CQP_MAJ_ERROR, CQP_MIN_BAD_SIZE, "SQ size");
        return;
    }
    if (pe_get(qw0, CQPHC_PROTOCOL_USED) != CQPHC_PROTOCOL_ROCE ||
        pe_get(qw4, CQPHC_HW_MAJVER) != CQPHC_HW_MAJVER_GEN2) {
        create_failed(d, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD, "protocol or hw version");
        return;
    }
    if (sq == 0 || (sq & ~CQPHC_SQBASE)) {
        create_failed(d, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR, "SQ base");
        return;
    }
    cqp->sq_pa = sq;
    cqp->sq_size = 1u << (enc + 1);
    cqp->compl_ctx = ld64(ctx + CQPHC_COMPL_CTX_OFF);
    cqp->tail = pe_get(reg_get(d, CQP_REG_TAIL), PFPE_CQPTAIL_WQTAIL_M) % cqp->sq_size;
    cqp->valid = 1;
    cqp->rung = cqp->tail;
    cqp->created = true;
    reg_set(d, CQP_REG_ERRCODES, 0);
    reg_set(d, CQP_REG_STATUS, PFPE_CCQPSTATUS_DONE_M);
    emu_trace(&d->host, TR_CQP_CREATE, "SQ of %u WQEs at 0x%" G_GINT64_MODIFIER "x tail=%u",
              cqp->sq_size, sq, cqp->tail);
}

static void tail_written(IrdmaDev *d, uint32_t val)
{
    Cqp *cqp = d->cqp;

    /* irdma_sc_cqp_init writes 0 before the create: the ring starts over on its first pass. */
    cqp->tail = pe_get(val, PFPE_CQPTAIL_WQTAIL_M);
    if (cqp->created) {
        cqp->tail %= cqp->sq_size;
    }
    cqp->rung = cqp->tail;
    cqp->valid = 1;
    reg_set(d, CQP_REG_TAIL, cqp->tail);
}

/* Report the completion of WQE @idx: CQPTAIL, CQPERRCODES, and the CCQ CQE. */
static void complete(IrdmaDev *d, unsigned idx, const CqpResult *r)
{
    Cqp *cqp = d->cqp;
    bool err = r->maj != CQP_MAJ_OK;
    uint8_t cqe[CQE_SIZE] = { 0 };
    uint32_t tailreg = reg_get(d, CQP_REG_TAIL) & PFPE_CQPTAIL_OP_ERR_M;

    if (err) {
        reg_set(d, CQP_REG_ERRCODES, ((uint32_t)r->maj << 16) | r->min);
        tailreg = PFPE_CQPTAIL_OP_ERR_M;
    }
    reg_set(d, CQP_REG_TAIL, tailreg | cqp->tail);
    if (r->no_ccqe || !cq_exists(d, CQ_ID_CCQ)) {
        return;
    }
    st64(cqe + CQE_QW1_CTX, cqp->compl_ctx);
    st64(cqe + CQE_QW2, pe_prep(CCQ_OPRETVAL, r->ret_val));
    st64(cqe + CQE_HDR, pe_prep(CQE_MINERR, r->min) | pe_prep(CQE_MAJERR, r->maj) |
                        pe_prep(CQE_WQEIDX, idx) | (err ? CQE_ERROR : 0));
    cq_post(d, CQ_ID_CCQ, cqe, err);
}

static void process(void *opaque);

/* Fetch and execute the WQE at the tail; false if a fault-plan delay holds it back (the
 * engine is in order: what follows waits too). */
static bool process_one(IrdmaDev *d)
{
    Cqp *cqp = d->cqp;
    CqpWqe w = { .idx = cqp->tail };
    CqpResult r = { 0 };
    const CqpOp *op = NULL;
    const FaultAction *fa = NULL;
    const char *name = "?";

    if (!pe_dma_read(d, cqp->sq_pa + (uint64_t)w.idx * CQP_WQE_SIZE, w.raw, sizeof(w.raw))) {
        cqp_fail(&r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
    } else {
        w.hdr = cqp_qw(&w, CQP_WQE_HDR);
        w.opcode = pe_get(w.hdr, CQP_WQE_OPCODE);
        op = cqp->ops[w.opcode];
        name = op ? op->name : "unknown";
        if (!!(w.hdr & CQP_WQE_VALID) != cqp->valid) {
            /* The doorbell covered a slot the driver never made valid. */
            cqp_fail(&r, CQP_MAJ_ERROR, CQP_MIN_BAD_VALID);
        } else if (!op) {
            cqp_fail(&r, CQP_MAJ_ERROR, CQP_MIN_BAD_OPCODE);
        } else if ((fa = fault_check_held(d, &cqp->delay_held, FAULT_ON_CQP, w.opcode,
                                          cqp_wqe_object_id(&w, op->object))) &&
                   fa->kind == FAULT_DELAY) {
            cqp->ev = emu_event_schedule(&d->events, fault_delay_ns(d, fa), process, cqp);
            emu_trace(&d->host, TR_CQP_WQE_DELAYED, "%s idx=%u by the fault plan", name, w.idx);
            return false;
        } else if (fa && fa->kind == FAULT_ERROR) {
            cqp_fail(&r, fa->maj, fa->min);       /* the plan's error, the op not run */
        } else {
            op->handler(d, &w, &r);
        }
    }
    if (++cqp->tail == cqp->sq_size) {
        cqp->tail = 0;
        cqp->valid ^= 1;
    }
    emu_trace(&d->host, TR_CQP_WQE, "%s (0x%02x) idx=%u -> maj=0x%04x min=0x%04x ret=0x%x",
              name, w.opcode, w.idx, r.maj, r.min, r.ret_val);
    if (fa && fa->kind == FAULT_DROP) {
        /* The op ran; neither CQPTAIL nor the CCQ will ever say so. */
        emu_trace(&d->host, TR_CQP_COMPLETION_DROPPED, "idx=%u by the fault plan", w.idx);
        return true;
    }
    complete(d, w.idx, &r);
    if (fa && fa->kind == FAULT_RAISE_AE) {
        qp_fault_ae(d, cqp_wqe_object_id(&w, op->object), fa->ae);
    }
    return true;
}

/* The timing model's cost class of a CQP WQE of @opcode. */
static TimingCqpClass cost_class(unsigned opcode)
{
    switch (opcode) {
    case CQP_OP_CREATE_QP:
    case CQP_OP_MODIFY_QP:
    case CQP_OP_DESTROY_QP:
    case CQP_OP_SUSPEND_QP:
    case CQP_OP_RESUME_QP:
        return TIMING_CQP_QP;
    case CQP_OP_UPDATE_PE_SDS:
    case CQP_OP_QUERY_FPM_VAL:
    case CQP_OP_COMMIT_FPM_VAL:
    case CQP_OP_SHMC_PAGES_ALLOCATED:
        return TIMING_CQP_HMC;
    default:
        return TIMING_CQP_OTHER;
    }
}

/* Processing of the WQE at the tail: at once (inline timing, in batches of CQP_BUDGET), or
 * after that WQE's modelled time. */
static void schedule_tail(IrdmaDev *d)
{
    Cqp *cqp = d->cqp;
    uint8_t hdr[8];
    unsigned opcode = CQP_OP_NOP;

    if (d->timing.mode == TIMING_MODEL && cqp->created &&
        pe_dma_read(d, cqp->sq_pa + (uint64_t)cqp->tail * CQP_WQE_SIZE + CQP_WQE_HDR, hdr, 8)) {
        opcode = pe_get(ld64(hdr), CQP_WQE_OPCODE);
    }
    cqp->ev = emu_event_schedule(&d->events,
                                 timing_cqp_wqe_ns(&d->timing, cost_class(opcode)), process, cqp);
}

static void process(void *opaque)
{
    Cqp *cqp = opaque;
    IrdmaDev *d = cqp->d;
    unsigned head = reg_get(d, CQP_REG_DB);
    unsigned batch = d->timing.mode == TIMING_MODEL ? 1 : CQP_BUDGET, n = 0;

    cqp->ev = NULL;
    if (!cqp->created) {
        /* Not a guest error: irdma writes the doorbell (head 0) with no CQP created. */
        emu_trace(&d->host, TR_CQP_DB_NO_CQP, "head=%u: ignored", head);
        return;
    }
    if (head >= cqp->sq_size) {
        emu_trace(&d->host, TR_ERR_CQP_DB_BAD_HEAD, "head=%u size=%u: ignored", head, cqp->sq_size);
        return;
    }
    while (cqp->tail != head && n++ < batch) {
        if (!process_one(d)) {
            return;
        }
        /* A handler may have destroyed the CQP (or the device reset). */
        if (!cqp->created) {
            return;
        }
    }
    if (cqp->tail != head && !cqp->ev) {
        schedule_tail(d);
    }
}

static void doorbell(IrdmaDev *d)
{
    Cqp *cqp = d->cqp;
    unsigned head = reg_get(d, CQP_REG_DB);

    /* The WQEs this doorbell covers were posted now (the latencies of suspend and resume). */
    if (cqp->created && head < cqp->sq_size) {
        uint64_t now = d->host.ops->clock_ns(d->host.opaque);

        for (; cqp->rung != head; cqp->rung = (cqp->rung + 1) % cqp->sq_size) {
            cqp->rung_at[cqp->rung] = now;
        }
    }

    /* OP_ERR reports failures of the WQEs of this doorbell, not of earlier ones. */
    reg_set(d, CQP_REG_TAIL, reg_get(d, CQP_REG_TAIL) & ~PFPE_CQPTAIL_OP_ERR_M);
    if (cqp->ev) {
        return;                 /* a delayed WQE or a batch's rest runs up to the new head */
    }
    /* Inline timing: the WQEs run in the doorbell write, as the admin queue's commands do.
     * irdma polls CQPTAIL for some ops (QUERY_RDMA_FEATURES first of all from 7.x on) for
     * only 1000 x 10 us; an 8-vCPU guest on two host CPUs starved the main loop's timer that
     * long (irdma probe failed with -110). */
    if (d->timing.mode == TIMING_INLINE) {
        process(cqp);
        return;
    }
    schedule_tail(d);
}

static void high_low_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    IrdmaDev *d = blk;

    emu_reg_set(d->regs, r, idx, val);
    /* The driver writes HIGH, then LOW: LOW is the command (create, or destroy when both are 0). */
    if (r->base == PFPE_CCQPLOW) {
        context_written(d);
    }
}

static void status_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    IrdmaDev *d = blk;

    /* irdma_sc_cqp_init writes 0 before creating; software may only clear the status. */
    emu_reg_set(d->regs, r, idx, emu_reg_get(d->regs, r, idx) & val);
}

static void tail_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    (void)r;
    (void)idx;
    tail_written(blk, val);
}

static void db_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    IrdmaDev *d = blk;

    emu_reg_set(d->regs, r, idx, val & PFPE_CQPDB_WQHEAD_M);
    doorbell(d);
}

static const EmuReg cqp_regs[CQP_NUM_REGS] = {
    [CQP_REG_TAIL] = { .name = "PFPE_CQPTAIL", .base = PFPE_CQPTAIL, .wmask = ~0u,
                       .write = tail_write },
    [CQP_REG_DB] = { .name = "PFPE_CQPDB", .base = PFPE_CQPDB, .wmask = ~0u, .write = db_write },
    [CQP_REG_STATUS] = { .name = "PFPE_CCQPSTATUS", .base = PFPE_CCQPSTATUS, .wmask = ~0u,
                         .write = status_write },
    [CQP_REG_HIGH] = { .name = "PFPE_CCQPHIGH", .base = PFPE_CCQPHIGH, .wmask = ~0u,
                       .write = high_low_write },
    [CQP_REG_LOW] = { .name = "PFPE_CCQPLOW", .base = PFPE_CCQPLOW, .wmask = ~0u,
                      .write = high_low_write },
    [CQP_REG_ERRCODES] = { .name = "PFPE_CQPERRCODES", .base = PFPE_CQPERRCODES },
};

uint64_t cqp_wqe_posted_at(IrdmaDev *d, const CqpWqe *w)
{
    return d->cqp->rung_at[w->idx % CQP_SQ_MAX];
}

/* --- ops owned by the engine itself --- */

static void op_nop(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    (void)d;
    (void)w;
    (void)r;
}

static void op_query_rdma_features(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    uint8_t buf[2 * 8];
    uint64_t pa = cqp_qw(w, CQPWQE_FEAT_BUF_OFF);
    uint64_t len = pe_get(w->hdr, CQPWQE_FEAT_BUF_LEN);

    /* qw0 is both the feature count and the type-0 (firmware version) entry. */
    st64(buf, pe_prep(FEAT_TYPE, FEAT_TYPE_FW_INFO) | pe_prep(FEAT_CNT, 2) |
              pe_prep(FEAT_FW_MAJOR, FW_VER_MAJOR) | pe_prep(FEAT_FW_MINOR, FW_VER_MINOR));
    st64(buf + 8, pe_prep(FEAT_TYPE, FEAT_TYPE_HW_VERSION) |
                  pe_prep(FEAT_INFO, CQPHC_HW_MAJVER_GEN2));
    if (len < 8 || pa % 8) {
        cqp_fail(r, CQP_MAJ_ERROR, len < 8 ? CQP_MIN_BAD_SIZE : CQP_MIN_BAD_ADDR);
        return;
    }
    /* A short buffer gets what fits; the count tells the driver to ask again. */
    if (!pe_dma_write(d, pa, buf, MIN(len, sizeof(buf)))) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
    }
}

void cqp_objects_reset(IrdmaDev *d)
{
    cq_block_reset(d->cqs);
    eqs_reset(d->eqs);
    qp_block_reset(d->qps);
    ws_reset(d->ws);
    mr_block_reset(d->mrs);
    ah_block_reset(d->ahs);
    ltab_reset(d->ltab);
    hmc_reset(d->hmc);
}

unsigned cqp_leak_check(IrdmaDev *d)
{
    unsigned stats = stats_inst_count(d), qps = qp_count(d), cqs = cq_count(d);
    unsigned ceqs = eqs_ceq_count(d);
    unsigned aeq = eqs_aeq_exists(d), ws = ws_node_count(d), total;
    unsigned mrs = mr_count(d), ahs = ah_count(d), mcgs = mcg_count(d);
    unsigned apbvt = ltab_apbvt_count(d), qhash = ltab_qhash_count(d);
    unsigned lmacs = ltab_local_mac_count(d), push = ltab_push_page_count(d);

    total = qps + cqs + ceqs + aeq + ws + stats + mrs + ahs + mcgs + apbvt + qhash + lmacs + push;
    emu_trace(&d->host, total ? TR_ERR_CQP_LEAK : TR_CQP_LEAK_CHECK,
              "live after CQP destroy: qps=%u cqs=%u ceqs=%u aeq=%u ws_nodes=%u stats_inst=%u "
              "mrs=%u ahs=%u mcgs=%u apbvt_ports=%u qhash=%u local_macs=%u push_pages=%u",
              qps, cqs, ceqs, aeq, ws, stats, mrs, ahs, mcgs, apbvt, qhash, lmacs, push);
    return total;
}

static void op_manage_arp(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    unsigned idx = pe_get(w->hdr, CQPWQE_ARP_INDEX);
    uint64_t gpa;
    HmcStatus st = hmc_obj_gpa(d, HMC_ARP, idx, &gpa);

    if (st != HMC_OK) {
        hmc_status_fail(st, r);
        return;
    }
    if (w->hdr & CQPWQE_ARP_ENTRYVALID) {
        uint64_t mac = pe_get(cqp_qw(w, CQPWQE_ARP_MAC_OFF), CQPWQE_ARP_MAC);

        d->cqp->arp[idx] = mac | CQP_ARP_VALID;
        emu_trace(&d->host, TR_ARP_ADD, "idx=%u mac=%012" G_GINT64_MODIFIER "x", idx, mac);
    } else {
        d->cqp->arp[idx] = 0;
        emu_trace(&d->host, TR_ARP_DEL, "idx=%u", idx);
    }
}

bool cqp_arp_lookup(IrdmaDev *d, unsigned idx, uint64_t *mac)
{
    if (idx >= CQP_ARP_ENTRIES || !(d->cqp->arp[idx] & CQP_ARP_VALID)) {
        return false;
    }
    *mac = d->cqp->arp[idx] & CQPWQE_ARP_MAC;
    return true;
}

static const CqpOp misc_ops[] = {
    { CQP_OP_MANAGE_ARP, "MANAGE_ARP", op_manage_arp, CQP_OBJ_NONE },
    { CQP_OP_QUERY_RDMA_FEATURES, "QUERY_RDMA_FEATURES", op_query_rdma_features, CQP_OBJ_NONE },
    { CQP_OP_NOP, "NOP", op_nop, CQP_OBJ_NONE },
};

static const CqpOpTable cqp_misc_ops = { misc_ops, G_N_ELEMENTS(misc_ops) };
