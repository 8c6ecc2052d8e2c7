/* pf.c - PF identity, reset and NVM status registers (see pf.h). */
#include "pf.h"
#include "core/e810_regs.h"
#include "core/intr.h"
#include "core/trace.h"

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
        emu_trace(&d->host, TR_PF_RESET, "requested through PFGEN_CTRL.PFSWR");
        d->pf_resets_ops->pf_reset(d);
    }
}

/* GLGEN_RSTAT.RESET_TYPE values (enum ice_reset_req). */
#define RESET_TYPE_CORER  1
#define RESET_TYPE_GLOBR  2

static const EmuReg pf_regs[];
#define PF_REG_GLGEN_RSTAT (&pf_regs[3])

/* A core or global reset: the driver is warned through the OICR GRST cause (it reads the
 * type from GLGEN_RSTAT), then everything below PCI configuration resets at once, so the
 * device state and done bits it polls for (ice_check_reset) read as finished straight away.
 * A global reset would also reset the port; the model keeps link and DCB as they are. */
static void glgen_rtrig_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    IrdmaDev *d = blk;
    unsigned type = (val & GLGEN_RTRIG_GLOBR_M) ? RESET_TYPE_GLOBR :
                    (val & GLGEN_RTRIG_CORER_M) ? RESET_TYPE_CORER : 0;

    (void)r;
    (void)idx;
    if (!type) {
        return;
    }
    emu_trace(&d->host, TR_PF_CORE_RESET, "%s requested through GLGEN_RTRIG",
              type == RESET_TYPE_GLOBR ? "GLOBR" : "CORER");
    emu_reg_set(d->regs, PF_REG_GLGEN_RSTAT, 0,
                emu_field_set(0, GLGEN_RSTAT_RESET_TYPE_M, type));
    intr_raise_oicr(d, PFINT_OICR_GRST_M);
    d->pf_resets_ops->core_reset(d);
    /* The driver's interrupt handler reads the cause after the (instant) reset. */
    intr_latch_oicr(d, PFINT_OICR_GRST_M);
}

static const EmuReg pf_regs[] = {
    { .name = "PF_FUNC_RID", .base = PF_FUNC_RID, .reset = 0 },
    { .name = "PFGEN_CTRL", .base = PFGEN_CTRL, .wmask = PFGEN_CTRL_PFSWR_M,
      .write = pfgen_ctrl_write },
    { .name = "GLGEN_RSTCTL", .base = GLGEN_RSTCTL, .wmask = ~0u },
    { .name = "GLGEN_RSTAT", .base = GLGEN_RSTAT, .reset = 0 },   /* PF_REG_GLGEN_RSTAT */
    { .name = "GLGEN_RTRIG", .base = GLGEN_RTRIG,
      .wmask = GLGEN_RTRIG_CORER_M | GLGEN_RTRIG_GLOBR_M, .write = glgen_rtrig_write },
    { .name = "GLNVM_ULD", .base = GLNVM_ULD, .reset = ULD_ALL_DONE },
    { .name = "GLNVM_GENS", .base = GLNVM_GENS,
      .reset = GENS_SR_SIZE_64K << __builtin_ctz(GLNVM_GENS_SR_SIZE_M) },
    { .name = "GLNVM_FLA", .base = GLNVM_FLA, .reset = GLNVM_FLA_LOCKED_M },
    { .name = "GL_MNG_FWSM", .base = GL_MNG_FWSM, .reset = 0 },
    { .name = "GLGEN_STAT", .base = GLGEN_STAT, .reset = 0 },
};

void pf_block_init(IrdmaDev *d, const PfResets *resets)
{
    d->pf_resets_ops = resets;
    emu_regfile_add(d->regs, pf_regs, G_N_ELEMENTS(pf_regs), d);
}
