/* intr.c - interrupt gating and cause routing (see intr.h). */
#include "core/intr.h"
#include "core/e810_regs.h"
#include "core/trace.h"

/* ITR registers count in 2 us units (ice: ICE_ITR_GRAN_S); ITR index 3 means "no ITR". */
#define ITR_UNIT_NS         2000
#define ITR_INDEX_NONE      3
#define GLINT_ITR_INTERVAL_M 0xfff

typedef struct VecHold {
    IntrBlock *ib;
    unsigned v;
    EmuEvent *ev;                   /* the moderated fire, while an ITR interval runs */
} VecHold;

struct IntrBlock {
    IrdmaDev *d;
    uint8_t enabled[GLINT_NUM_VECTORS];
    uint8_t pending[GLINT_NUM_VECTORS];
    uint64_t last_fire[GLINT_NUM_VECTORS];
    uint8_t has_fired[GLINT_NUM_VECTORS];
    VecHold hold[GLINT_NUM_VECTORS];
    uint32_t oicr;                  /* latched causes, cleared by reading PFINT_OICR */
};

static void fire(IntrBlock *ib, unsigned v)
{
    IrdmaDev *d = ib->d;

    ib->pending[v] = 0;
    ib->last_fire[v] = d->host.ops->clock_ns(d->host.opaque);
    ib->has_fired[v] = 1;
    if (!(emu_regfile_read(d->regs, GLINT_CTL) & GLINT_CTL_DIS_AUTOMASK_M)) {
        ib->enabled[v] = 0;
    }
    d->host.ops->msix_notify(d->host.opaque, v);
}

static void hold_expired(void *opaque)
{
    VecHold *h = opaque;
    IntrBlock *ib = h->ib;

    h->ev = NULL;
    if (ib->enabled[h->v] && ib->pending[h->v]) {
        fire(ib, h->v);
    }
}

/* The ITR interval of vector @v for ITR index @itr_idx, in ns (0: not moderated). */
static uint64_t itr_interval_ns(IrdmaDev *d, unsigned v, unsigned itr_idx)
{
    if (itr_idx >= GLINT_ITR_COUNT) {
        return 0;
    }
    return (uint64_t)(emu_regfile_read(d->regs, GLINT_ITR(itr_idx, v)) & GLINT_ITR_INTERVAL_M) *
           ITR_UNIT_NS;
}

/* A cause for vector @vector arrived: it fires now if the vector is enabled and its ITR
 * interval since the last interrupt has run out; otherwise it waits (latched) for both. */
static void raise_moderated(IrdmaDev *d, unsigned vector, unsigned itr_idx)
{
    IntrBlock *ib = d->intr;
    uint64_t now, interval;

    if (vector >= GLINT_NUM_VECTORS) {
        emu_trace(&d->host, TR_ERR_INTR_BAD_VECTOR, "vector=%u", vector);
        return;
    }
    ib->pending[vector] = 1;
    if (ib->hold[vector].ev) {
        return;             /* fires when the running interval ends */
    }
    now = d->host.ops->clock_ns(d->host.opaque);
    interval = itr_interval_ns(d, vector, itr_idx);
    if (interval && ib->has_fired[vector] && now < ib->last_fire[vector] + interval) {
        ib->hold[vector].ev = emu_event_schedule(&d->events, ib->last_fire[vector] + interval - now,
                                                 hold_expired, &ib->hold[vector]);
        return;
    }
    if (ib->enabled[vector]) {
        fire(ib, vector);
    } else {
        emu_trace(&d->host, TR_INTR_PENDING, "vector=%u (INTENA clear)", vector);
    }
}

void intr_raise_vector(IrdmaDev *d, unsigned vector)
{
    raise_moderated(d, vector, ITR_INDEX_NONE);
}

void intr_raise_ctl(IrdmaDev *d, uint32_t ctl, const char *what)
{
    if (!(ctl & PFINT_CTL_CAUSE_ENA_M)) {
        emu_trace(&d->host, TR_INTR_CAUSE_DISABLED, "%s", what);
        return;
    }
    raise_moderated(d, emu_field_get(ctl, PFINT_CTL_MSIX_INDX_M),
                    emu_field_get(ctl, PFINT_CTL_ITR_INDX_M));
}

static void raise_cause(IrdmaDev *d, uint32_t ctl_off, const char *what)
{
    intr_raise_ctl(d, emu_regfile_read(d->regs, ctl_off), what);
}

void intr_raise_fw(IrdmaDev *d)
{
    raise_cause(d, PFINT_FW_CTL, "admin queue");
}

void intr_raise_oicr(IrdmaDev *d, uint32_t cause)
{
    intr_latch_oicr(d, cause);
    if (!(emu_regfile_read(d->regs, PFINT_OICR_ENA) & cause)) {
        emu_trace(&d->host, TR_INTR_OICR_MASKED, "cause=0x%08x", cause);
        return;
    }
    raise_cause(d, PFINT_OICR_CTL, "oicr");
}

void intr_latch_oicr(IrdmaDev *d, uint32_t cause)
{
    d->intr->oicr |= cause;
}

/* The vector PFINT_OICR_CTL routes the "other" causes to, or -1 while that cause is off. */
static int oicr_vector(IrdmaDev *d)
{
    uint32_t ctl = emu_regfile_read(d->regs, PFINT_OICR_CTL);

    return (ctl & PFINT_CTL_CAUSE_ENA_M) ? (int)emu_field_get(ctl, PFINT_CTL_MSIX_INDX_M) : -1;
}

static void dyn_ctl_write(void *blk, const EmuReg *r, unsigned v, uint32_t val)
{
    IntrBlock *ib = blk;
    IrdmaDev *d = ib->d;

    /* INTENA_MSK: this write leaves INTENA as it is. */
    if (!(val & GLINT_DYN_CTL_INTENA_MSK_M)) {
        ib->enabled[v] = !!(val & GLINT_DYN_CTL_INTENA_M);
    }
    /* ITR_INDX 0-2 with INTERVAL: set that ITR of the vector (ice_buildreg_itr). */
    if (emu_field_get(val, GLINT_DYN_CTL_ITR_INDX_M) < GLINT_ITR_COUNT) {
        emu_regfile_write(d->regs, GLINT_ITR(emu_field_get(val, GLINT_DYN_CTL_ITR_INDX_M), v),
                          emu_field_get(val, GLINT_DYN_CTL_INTERVAL_M));
    }
    /* Stored without the self-clearing command bits. CLEARPBA clears the MSI-X pending bit of
     * a message already sent (the host's PBA), not a cause latched while INTENA was clear:
     * ice re-enables with CLEARPBA after every NAPI poll, and a completion that arrived
     * during the poll must still interrupt. */
    emu_reg_set(d->regs, r, v, (val & ~(GLINT_DYN_CTL_CLEARPBA_M | GLINT_DYN_CTL_SWINT_TRIG_M |
                                       GLINT_DYN_CTL_INTENA_MSK_M | GLINT_DYN_CTL_INTENA_M)) |
                (ib->enabled[v] ? GLINT_DYN_CTL_INTENA_M : 0));
    if (val & GLINT_DYN_CTL_SWINT_TRIG_M) {
        /* A software interrupt is generated even with INTENA clear: that is how ice's hang
         * check kicks a queue whose vector is masked. On the vector the "other" causes are
         * routed to it is itself a cause, PFINT_OICR.SWINT: ice's interrupt self-test counts
         * it in its OICR handler. */
        if (oicr_vector(d) == (int)v) {
            intr_latch_oicr(d, PFINT_OICR_SWINT_M);
            emu_trace(&d->host, TR_INTR_SWINT, "vector=%u (OICR vector: SWINT cause latched)", v);
        } else {
            emu_trace(&d->host, TR_INTR_SWINT, "vector=%u", v);
        }
        fire(ib, v);
    } else if (ib->enabled[v] && ib->pending[v] && !ib->hold[v].ev) {
        fire(ib, v);
    }
}

static uint32_t dyn_ctl_read(void *blk, const EmuReg *r, unsigned v)
{
    IntrBlock *ib = blk;
    uint32_t stored = emu_reg_get(ib->d->regs, r, v) & ~GLINT_DYN_CTL_INTENA_M;

    return stored | (ib->enabled[v] ? GLINT_DYN_CTL_INTENA_M : 0);
}

static uint32_t oicr_read(void *blk, const EmuReg *r, unsigned idx)
{
    IntrBlock *ib = blk;
    uint32_t v = ib->oicr;

    (void)r;
    (void)idx;
    ib->oicr = 0;       /* read to clear */
    return v;
}

#define CAUSE_CTL_WMASK (PFINT_CTL_MSIX_INDX_M | PFINT_CTL_ITR_INDX_M | PFINT_CTL_CAUSE_ENA_M)

static const EmuReg intr_regs[] = {
    { .name = "GLINT_DYN_CTL", .base = GLINT_DYN_CTL(0), .count = GLINT_NUM_VECTORS, .stride = 4,
      .wmask = ~0u, .read = dyn_ctl_read, .write = dyn_ctl_write },
    { .name = "GLINT_ITR", .base = GLINT_ITR(0, 0), .count = GLINT_NUM_VECTORS, .stride = 4,
      .count2 = GLINT_ITR_COUNT, .stride2 = 8192, .wmask = 0xfff },
    { .name = "GLINT_RATE", .base = GLINT_RATE(0), .count = GLINT_NUM_VECTORS, .stride = 4,
      .wmask = 0x7f },
    { .name = "GLINT_CTL", .base = GLINT_CTL, .wmask = ~0u },
    { .name = "PFINT_FW_CTL", .base = PFINT_FW_CTL, .wmask = CAUSE_CTL_WMASK },
    { .name = "PFINT_MBX_CTL", .base = PFINT_MBX_CTL, .wmask = CAUSE_CTL_WMASK },
    { .name = "PFINT_SB_CTL", .base = PFINT_SB_CTL, .wmask = CAUSE_CTL_WMASK },
    { .name = "PFINT_OICR_CTL", .base = PFINT_OICR_CTL, .wmask = CAUSE_CTL_WMASK },
    { .name = "PFINT_OICR_ENA", .base = PFINT_OICR_ENA, .wmask = ~0u },
    { .name = "PFINT_OICR", .base = PFINT_OICR, .read = oicr_read },
};

IntrBlock *intr_new(IrdmaDev *d)
{
    IntrBlock *ib = g_new0(IntrBlock, 1);

    ib->d = d;
    for (unsigned v = 0; v < GLINT_NUM_VECTORS; v++) {
        ib->hold[v] = (VecHold) { .ib = ib, .v = v };
    }
    emu_regfile_add(d->regs, intr_regs, G_N_ELEMENTS(intr_regs), ib);
    return ib;
}

void intr_free(IntrBlock *ib)
{
    intr_reset(ib);
    g_free(ib);
}

void intr_regs_reset(IntrBlock *ib)
{
    emu_regfile_reset_regs(ib->d->regs, intr_regs, G_N_ELEMENTS(intr_regs));
    intr_reset(ib);
}

void intr_reset(IntrBlock *ib)
{
    for (unsigned v = 0; v < GLINT_NUM_VECTORS; v++) {
        if (ib->hold[v].ev) {
            emu_event_cancel(&ib->d->events, ib->hold[v].ev);
            ib->hold[v].ev = NULL;
        }
    }
    memset(ib->enabled, 0, sizeof(ib->enabled));
    memset(ib->pending, 0, sizeof(ib->pending));
    memset(ib->has_fired, 0, sizeof(ib->has_fired));
    ib->oicr = 0;
}
