/* pe_regs.c - the RDMA engine's registers (see pe_regs.h). */
#include "rdma/pe_regs.h"
#include "core/e810_regs.h"
#include "core/trace.h"

static void pdinv_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    IrdmaDev *d = blk;

    (void)r;
    (void)idx;
    /* The model reads PD entries from guest memory on every translation: nothing is cached. */
    emu_trace(&d->host, TR_PE_PDINV, "sd=%u pd=%u", emu_field_get(val, PFHMC_PDINV_PMSDIDX_M),
              emu_field_get(val, PFHMC_PDINV_PMPDIDX_M));
}

#define INTCTL_WMASK (PFINT_CTL_MSIX_INDX_M | PFINT_CTL_ITR_INDX_M | PFINT_CTL_CAUSE_ENA_M)

static const EmuReg pe_regs[PE_NUM_REGS] = {
    [PE_LBARCTRL] = { .name = "GLPCI_LBARCTRL", .base = GLPCI_LBARCTRL,
                      .reset = GLPCI_LBARCTRL_PE_DB_8M << 4 },
    [PE_CPUSTATUS0] = { .name = "GLPE_CPUSTATUS0", .base = GLPE_CPUSTATUS0,
                        .reset = GLPE_CPUSTATUS_READY },
    [PE_CPUSTATUS1] = { .name = "GLPE_CPUSTATUS1", .base = GLPE_CPUSTATUS1,
                        .reset = GLPE_CPUSTATUS_READY },
    [PE_CPUSTATUS2] = { .name = "GLPE_CPUSTATUS2", .base = GLPE_CPUSTATUS2,
                        .reset = GLPE_CPUSTATUS_READY },
    [PE_CRITERR] = { .name = "GLPE_CRITERR", .base = GLPE_CRITERR },
    [PE_HMC_ERRORINFO] = { .name = "PFHMC_ERRORINFO", .base = PFHMC_ERRORINFO },
    [PE_HMC_ERRORDATA] = { .name = "PFHMC_ERRORDATA", .base = PFHMC_ERRORDATA },
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
