/* pf.c - PF identity, reset and NVM status registers (see pf.h). */
#include "pf.h"
#include "e810_regs.h"
#include "trace.h"

/* All done bits the driver waits for after any reset, PE (RDMA) included. */
#define ULD_ALL_DONE (GLNVM_ULD_PCIER_DONE_M | GLNVM_ULD_PCIER_DONE_1_M | \
                      GLNVM_ULD_CORER_DONE_M | GLNVM_ULD_GLOBR_DONE_M | \
                      GLNVM_ULD_POR_DONE_M | GLNVM_ULD_POR_DONE_1_M | \
                      GLNVM_ULD_PCIER_DONE_2_M | GLNVM_ULD_PE_DONE_M)

/* Shadow RAM of 2^6 * 512 words = 64 KiB, as GLNVM_GENS.SR_SIZE encodes it. */
#define GENS_SR_SIZE_64K  6

static void pfgen_ctrl_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    IrdmaDev *d = blk;

    (void)r;
    (void)idx;
    if (val & PFGEN_CTRL_PFSWR_M) {
        /* The reset completes before the driver's first poll: PFSWR reads back clear. */
        emu_trace(&d->host, "pf_reset", "requested through PFGEN_CTRL.PFSWR");
        irdma_dev_pf_reset(d);
    }
}

static const EmuReg pf_regs[] = {
    { .name = "PF_FUNC_RID", .base = PF_FUNC_RID, .reset = 0 },
    { .name = "PFGEN_CTRL", .base = PFGEN_CTRL, .wmask = PFGEN_CTRL_PFSWR_M,
      .write = pfgen_ctrl_write },
    { .name = "GLGEN_RSTCTL", .base = GLGEN_RSTCTL, .wmask = ~0u },
    { .name = "GLGEN_RSTAT", .base = GLGEN_RSTAT, .reset = 0 },
    { .name = "GLNVM_ULD", .base = GLNVM_ULD, .reset = ULD_ALL_DONE },
    { .name = "GLNVM_GENS", .base = GLNVM_GENS,
      .reset = GENS_SR_SIZE_64K << __builtin_ctz(GLNVM_GENS_SR_SIZE_M) },
    { .name = "GLNVM_FLA", .base = GLNVM_FLA, .reset = GLNVM_FLA_LOCKED_M },
};

void pf_block_init(IrdmaDev *d)
{
    emu_regfile_add(d->regs, pf_regs, G_N_ELEMENTS(pf_regs), d);
}
