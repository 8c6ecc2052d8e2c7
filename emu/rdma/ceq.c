/* ceq.c - completion and asynchronous event queues (see ceq.h). */
#include "rdma/ceq.h"
#include "rdma/hmc.h"
#include "core/intr.h"
#include "rdma/pe_regs.h"
#include "core/trace.h"

typedef struct PeEq {
    bool created;
    PeQueueMap map;
    uint32_t size;             /* entries */
    uint32_t head;             /* next entry the device writes */
    uint8_t valid;             /* VALID of the current pass: 1, toggled on every wrap */
} PeEq;

struct PeEqs {
    IrdmaDev *d;
    PeEq ceq[PE_MAX_CEQS];
    PeEq aeq;
    uint32_t aeq_credits;
    bool aeq_overflowed;       /* an AEQE was dropped: report OVERFLOW in the next one */
};

static const EmuReg eq_regs[1];

PeEqs *eqs_new(IrdmaDev *d)
{
    PeEqs *eqs = g_new0(PeEqs, 1);

    eqs->d = d;
    emu_regfile_add(d->regs, eq_regs, G_N_ELEMENTS(eq_regs), d);
    return eqs;
}

void eqs_free(PeEqs *eqs)
{
    g_free(eqs);
}

void eqs_reset(PeEqs *eqs)
{
    IrdmaDev *d = eqs->d;

    memset(eqs, 0, sizeof(*eqs));
    eqs->d = d;
}

/* Writes one element (@len bytes, VALID in the qword at @hdr_off set by the device). */
static bool eq_write(IrdmaDev *d, PeEq *eq, uint8_t *elem, size_t len, unsigned hdr_off,
                     uint64_t valid_bit)
{
    uint64_t gpa, hdr = ld64(elem + hdr_off) & ~valid_bit;

    if (hmc_queue_gpa(d, &eq->map, (uint64_t)eq->head * len, &gpa) != HMC_OK) {
        return false;
    }
    st64(elem + hdr_off, hdr | (eq->valid ? valid_bit : 0));
    if (!pe_dma_write(d, gpa, elem, len)) {
        return false;
    }
    if (++eq->head == eq->size) {
        eq->head = 0;
        eq->valid ^= 1;
    }
    return true;
}

/* Raise the vector an interrupt control register (GLINT_CEQCTL / PFINT_AEQCTL) names. They
 * share the PFINT_*_CTL layout, ITR index included, so the cause is moderated like LAN ones. */
static void eq_raise(IrdmaDev *d, uint32_t ctl, const char *what, unsigned id)
{
    emu_trace(&d->host, TR_EQ_RAISE, "%s %u", what, id);
    intr_raise_ctl(d, ctl, what);
}

bool eqs_ceq_exists(IrdmaDev *d, unsigned ceq_id)
{
    return ceq_id < PE_MAX_CEQS && d->eqs->ceq[ceq_id].created;
}

unsigned eqs_ceq_count(IrdmaDev *d)
{
    unsigned n = 0;

    for (unsigned i = 0; i < PE_MAX_CEQS; i++) {
        n += d->eqs->ceq[i].created;
    }
    return n;
}

bool eqs_aeq_exists(IrdmaDev *d)
{
    return d->eqs->aeq.created;
}

bool eqs_ceq_post(IrdmaDev *d, unsigned ceq_id, uint64_t cq_ctx)
{
    uint8_t ceqe[CEQE_SIZE];

    /* A CQ may name a CEQ not created yet (the CCQ names CEQ 0 before it exists). */
    if (!eqs_ceq_exists(d, ceq_id)) {
        emu_trace(&d->host, TR_CEQ_NONE, "ceq=%u: CEQE for ctx 0x%" G_GINT64_MODIFIER
                  "x dropped", ceq_id, cq_ctx);
        return false;
    }
    st64(ceqe, pe_prep(CEQE_CTX, cq_ctx));
    if (!eq_write(d, &d->eqs->ceq[ceq_id], ceqe, CEQE_SIZE, 0, CEQE_VALID)) {
        emu_trace(&d->host, TR_CEQ_DMA_ERROR, "ceq=%u", ceq_id);
        return false;
    }
    emu_trace(&d->host, TR_CEQ_POST, "ceq=%u ctx=0x%" G_GINT64_MODIFIER "x", ceq_id, cq_ctx);
    eq_raise(d, pe_reg_get(d, PE_CEQCTL, ceq_id), "ceq", ceq_id);
    return true;
}

bool eqs_aeq_post(IrdmaDev *d, const AeqEntry *e)
{
    PeEqs *eqs = d->eqs;
    uint8_t aeqe[AEQE_SIZE];

    if (!eqs->aeq.created) {
        emu_trace(&d->host, TR_AEQ_NONE, "AEQE dropped");
        return false;
    }
    if (!eqs->aeq_credits) {
        eqs->aeq_overflowed = true;
        emu_trace(&d->host, TR_AEQ_OVERFLOW, "no credit: AEQE dropped");
        return false;
    }
    st64(aeqe, e->ctx);
    st64(aeqe + AEQE_QW1, (e->info & ~AEQE_VALID) | (eqs->aeq_overflowed ? AEQE_OVERFLOW : 0));
    if (!eq_write(d, &eqs->aeq, aeqe, AEQE_SIZE, AEQE_QW1, AEQE_VALID)) {
        emu_trace(&d->host, TR_AEQ_DMA_ERROR, "slot %u", eqs->aeq.head);
        return false;
    }
    eqs->aeq_credits--;
    eqs->aeq_overflowed = false;
    eq_raise(d, pe_reg_get(d, PE_AEQCTL, 0), "aeq", 0);
    return true;
}

/* PFPE_AEQALLOC written: @count entries handed back. */
static void aeqalloc_write(void *blk, const EmuReg *r, unsigned idx, uint32_t count)
{
    IrdmaDev *d = blk;
    PeEqs *eqs = d->eqs;

    (void)r;
    (void)idx;
    if (!eqs->aeq.created) {
        emu_trace(&d->host, TR_ERR_AEQ_ALLOC_NO_AEQ, "count=%u", count);
        return;
    }
    /* Credits never exceed the ring: a driver returning more gains nothing. */
    eqs->aeq_credits = MIN((uint64_t)eqs->aeq_credits + count, eqs->aeq.size);
}

/* The AEQ's credit doorbell. */
static const EmuReg eq_regs[1] = {
    { .name = "PFPE_AEQALLOC", .base = PFPE_AEQALLOC, .wmask = ~0u, .write = aeqalloc_write },
};

/* The queue placement of a CREATE_CEQ/CREATE_AEQ WQE, validated; false with @r failed. */
static bool eq_map(IrdmaDev *d, const CqpWqe *w, uint32_t elems, size_t elem_size,
                   PeQueueMap *map, CqpResult *r)
{
    HmcStatus st;

    map->virt = w->hdr & CQPWQE_VIRTMAP;
    map->pa = cqp_qw(w, CQPWQE_EQ_PA_OFF);
    map->first_pble = pe_get(cqp_qw(w, CQPWQE_EQ_PBL_OFF), CQPWQE_FIRSTPMPBLIDX);
    if (map->virt && pe_get(w->hdr, CQPWQE_LPBLSIZE) != PBL_LEVEL_1) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
        return false;
    }
    if (!map->virt && (map->pa == 0 || map->pa % elem_size)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
        return false;
    }
    st = hmc_queue_check(d, map, (uint64_t)elems * elem_size);
    if (st != HMC_OK) {
        hmc_status_fail(st, r);
        return false;
    }
    return true;
}

static void op_create_ceq(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    unsigned id = pe_get(w->hdr, CQPWQE_CEQ_ID);
    uint64_t elems = pe_get(cqp_qw(w, CQPWQE_EQ_ELEMS_OFF), CQPWQE_CEQ_SIZE);
    PeQueueMap map;
    PeEq *ceq;

    if (id >= PE_MAX_CEQS) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        return;
    }
    ceq = &d->eqs->ceq[id];
    if (ceq->created) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        return;
    }
    if (elems == 0 || elems > CEQ_SIZE_MAX) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_SIZE);
        return;
    }
    if (!eq_map(d, w, elems, CEQE_SIZE, &map, r)) {
        return;
    }
    *ceq = (PeEq) { .created = true, .map = map, .size = elems, .valid = 1 };
    emu_trace(&d->host, TR_CEQ_CREATE, "ceq=%u size=%u %s", id, ceq->size,
              map.virt ? "virtual" : "contiguous");
}

static void op_destroy_ceq(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    unsigned id = pe_get(w->hdr, CQPWQE_CEQ_ID);

    if (!eqs_ceq_exists(d, id)) {
        cqp_fail(r, CQP_MAJ_ERROR, id >= PE_MAX_CEQS ? CQP_MIN_BAD_ID : CQP_MIN_INVALID_STATE);
        return;
    }
    d->eqs->ceq[id] = (PeEq) { 0 };
    emu_trace(&d->host, TR_CEQ_DESTROY, "ceq=%u", id);
}

static void op_create_aeq(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeEqs *eqs = d->eqs;
    uint64_t elems = pe_get(cqp_qw(w, CQPWQE_EQ_ELEMS_OFF), CQPWQE_AEQ_SIZE);
    PeQueueMap map;

    if (eqs->aeq.created) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        return;
    }
    if (elems == 0 || elems > AEQ_SIZE_MAX) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_SIZE);
        return;
    }
    if (!eq_map(d, w, elems, AEQE_SIZE, &map, r)) {
        return;
    }
    eqs->aeq = (PeEq) { .created = true, .map = map, .size = elems, .valid = 1 };
    /* The driver never pre-posts credits: the whole ring is the device's to start with. */
    eqs->aeq_credits = elems;
    eqs->aeq_overflowed = false;
    emu_trace(&d->host, TR_AEQ_CREATE, "size=%u %s", eqs->aeq.size,
              map.virt ? "virtual" : "contiguous");
}

static void op_destroy_aeq(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    (void)w;
    if (!d->eqs->aeq.created) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        return;
    }
    d->eqs->aeq = (PeEq) { 0 };
    d->eqs->aeq_credits = 0;
    emu_trace(&d->host, TR_AEQ_DESTROY, "AEQ destroyed");
}

static const CqpOp eqs_ops[] = {
    { CQP_OP_CREATE_CEQ, "CREATE_CEQ", op_create_ceq, CQP_OBJ_NONE },
    { CQP_OP_DESTROY_CEQ, "DESTROY_CEQ", op_destroy_ceq, CQP_OBJ_NONE },
    { CQP_OP_CREATE_AEQ, "CREATE_AEQ", op_create_aeq, CQP_OBJ_NONE },
    { CQP_OP_DESTROY_AEQ, "DESTROY_AEQ", op_destroy_aeq, CQP_OBJ_NONE },
};

const CqpOpTable eqs_cqp_ops = { eqs_ops, G_N_ELEMENTS(eqs_ops) };
