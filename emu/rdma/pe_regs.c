/* pe_regs.c - the RDMA engine's registers (see pe_regs.h). */
#include "rdma/pe_regs.h"
#include "core/e810_regs.h"
#include "rdma/ceq.h"
#include "rdma/cq.h"
#include "rdma/cqp.h"
#include "rdma/sq.h"
#include "core/trace.h"

static void cqp_high_low_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    IrdmaDev *d = blk;

    emu_reg_set(d->regs, r, idx, val);
    /* The driver writes HIGH, then LOW: LOW is the command (create, or destroy when both are 0). */
    if (r->base == PFPE_CCQPLOW) {
        cqp_context_written(d);
    }
}

static void ccqpstatus_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    IrdmaDev *d = blk;

    /* irdma_sc_cqp_init writes 0 before creating; software may only clear the status. */
    emu_reg_set(d->regs, r, idx, emu_reg_get(d->regs, r, idx) & val);
}

static void cqptail_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    (void)r;
    (void)idx;
    cqp_tail_written(blk, val);
}

static void cqpdb_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    IrdmaDev *d = blk;

    emu_reg_set(d->regs, r, idx, val & PFPE_CQPDB_WQHEAD_M);
    cqp_doorbell(d);
}

static void cqarm_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    (void)r;
    (void)idx;
    cq_arm_doorbell(blk, val);
}

static void cqack_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    IrdmaDev *d = blk;

    (void)r;
    (void)idx;
    /* One CEQE of this CQ consumed. The model emits at most one CEQE per arm, so there is no
     * per-CQ CEQE credit to return. */
    emu_trace(&d->host, "pe_cqack", "cq=%u", val);
}

static void aeqalloc_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    (void)r;
    (void)idx;
    eqs_aeq_alloc(blk, val);
}

static void wqealloc_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    (void)r;
    (void)idx;
    sq_doorbell(blk, val & PFPE_WQEALLOC_QPID_M);
}

static void pdinv_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    IrdmaDev *d = blk;

    (void)r;
    (void)idx;
    /* The model reads PD entries from guest memory on every translation: nothing is cached. */
    emu_trace(&d->host, "pe_pdinv", "sd=%u pd=%u", emu_field_get(val, PFHMC_PDINV_PMSDIDX_M),
              emu_field_get(val, PFHMC_PDINV_PMPDIDX_M));
}

#define INTCTL_WMASK (PFINT_CTL_MSIX_INDX_M | PFINT_CTL_ITR_INDX_M | PFINT_CTL_CAUSE_ENA_M)

static const EmuReg pe_regs[PE_NUM_REGS] = {
    [PE_CQPTAIL] = { .name = "PFPE_CQPTAIL", .base = PFPE_CQPTAIL, .wmask = ~0u,
                     .write = cqptail_write },
    [PE_CQPDB] = { .name = "PFPE_CQPDB", .base = PFPE_CQPDB, .wmask = ~0u, .write = cqpdb_write },
    [PE_CCQPSTATUS] = { .name = "PFPE_CCQPSTATUS", .base = PFPE_CCQPSTATUS, .wmask = ~0u,
                        .write = ccqpstatus_write },
    [PE_CCQPHIGH] = { .name = "PFPE_CCQPHIGH", .base = PFPE_CCQPHIGH, .wmask = ~0u,
                      .write = cqp_high_low_write },
    [PE_CCQPLOW] = { .name = "PFPE_CCQPLOW", .base = PFPE_CCQPLOW, .wmask = ~0u,
                     .write = cqp_high_low_write },
    [PE_CQPERRCODES] = { .name = "PFPE_CQPERRCODES", .base = PFPE_CQPERRCODES },
    [PE_CQARM] = { .name = "PFPE_CQARM", .base = PFPE_CQARM, .wmask = ~0u, .write = cqarm_write },
    [PE_CQACK] = { .name = "PFPE_CQACK", .base = PFPE_CQACK, .wmask = ~0u, .write = cqack_write },
    [PE_AEQALLOC] = { .name = "PFPE_AEQALLOC", .base = PFPE_AEQALLOC, .wmask = ~0u,
                      .write = aeqalloc_write },
    [PE_WQEALLOC] = { .name = "PFPE_WQEALLOC", .base = PFPE_WQEALLOC, .wmask = ~0u,
                      .write = wqealloc_write },
    [PE_UDB_QP] = { .name = "PE_UDB_WQEALLOC", .base = PE_UDB_WQEALLOC, .wmask = ~0u,
                    .write = wqealloc_write },
    [PE_UDB_CQ] = { .name = "PE_UDB_CQARM", .base = PE_UDB_CQARM, .wmask = ~0u,
                    .write = cqarm_write },
    [PE_LBARCTRL] = { .name = "GLPCI_LBARCTRL", .base = GLPCI_LBARCTRL,
                      .reset = GLPCI_LBARCTRL_PE_DB_8M << 4 },
    [PE_CPUSTATUS0] = { .name = "GLPE_CPUSTATUS0", .base = GLPE_CPUSTATUS0,
                        .reset = GLPE_CPUSTATUS_READY },
    [PE_CPUSTATUS1] = { .name = "GLPE_CPUSTATUS1", .base = GLPE_CPUSTATUS1,
                        .reset = GLPE_CPUSTATUS_READY },
    [PE_CPUSTATUS2] = { .name = "GLPE_CPUSTATUS2", .base = GLPE_CPUSTATUS2,
                        .reset = GLPE_CPUSTATUS_READY },
    [PE_CRITERR] = { .name = "GLPE_CRITERR", .base = GLPE_CRITERR },
    [PE_CEQCTL] = { .name = "GLINT_CEQCTL", .base = GLINT_CEQCTL(0), .count = GLINT_CEQCTL_COUNT,
                    .stride = 4, .wmask = INTCTL_WMASK },
    [PE_AEQCTL] = { .name = "PFINT_AEQCTL", .base = PFINT_AEQCTL, .wmask = INTCTL_WMASK },
    [PE_PDINV] = { .name = "PFHMC_PDINV", .base = PFHMC_PDINV, .wmask = ~0u,
                   .write = pdinv_write },
    /* In the driver's register table but never accessed: read as zero, writes dropped. */
    [PE_VSIQF_PE_CTL1] = { .name = "VSIQF_PE_CTL1", .base = VSIQF_PE_CTL1(0),
                           .count = VSIQF_PE_CTL1_COUNT, .stride = 4 },
    [PE_VFPDINV] = { .name = "GLHMC_VFPDINV", .base = GLHMC_VFPDINV(0),
                     .count = GLHMC_VFPDINV_COUNT, .stride = 4 },
};

void pe_regs_init(IrdmaDev *d)
{
    emu_regfile_add(d->regs, pe_regs, G_N_ELEMENTS(pe_regs), d);
}

void pe_regs_reset(IrdmaDev *d)
{
    emu_regfile_reset_regs(d->regs, pe_regs, G_N_ELEMENTS(pe_regs));
}

uint32_t pe_reg_get(IrdmaDev *d, PeReg r, unsigned idx)
{
    return emu_reg_get(d->regs, &pe_regs[r], idx);
}

void pe_reg_set(IrdmaDev *d, PeReg r, unsigned idx, uint32_t val)
{
    emu_reg_set(d->regs, &pe_regs[r], idx, val);
}
