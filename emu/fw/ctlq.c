/* ctlq.c - admin queue and mailbox ring registers (see ctlq.h). */
#include "fw/ctlq.h"
#include "core/e810_regs.h"

/* VFE/OVFL/CRIT are status the firmware reports; software writes only length and enable. */
#define LEN_WMASK (PF_FW_xQLEN_LEN_M | PF_FW_xQLEN_ENABLE_M)

static void atqt_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    IrdmaDev *d = blk;

    emu_reg_set(d->regs, r, idx, val);
    d->ctlq_db->atq_tail(d);
}

static void arqt_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    IrdmaDev *d = blk;

    emu_reg_set(d->regs, r, idx, val);
    d->ctlq_db->arq_tail(d);
}

#define CTLQ_REGS(pfx, atqbal, arqbal, atqbah, arqbah, atqlen, arqlen, atqh, arqh, atqt, arqt, \
                  atqt_fn, arqt_fn)                                                          \
    { .name = pfx "ATQBAL", .base = atqbal, .wmask = ~0u },                                  \
    { .name = pfx "ARQBAL", .base = arqbal, .wmask = ~0u },                                  \
    { .name = pfx "ATQBAH", .base = atqbah, .wmask = ~0u },                                  \
    { .name = pfx "ARQBAH", .base = arqbah, .wmask = ~0u },                                  \
    { .name = pfx "ATQLEN", .base = atqlen, .wmask = LEN_WMASK },                            \
    { .name = pfx "ARQLEN", .base = arqlen, .wmask = LEN_WMASK },                            \
    { .name = pfx "ATQH", .base = atqh, .wmask = PF_FW_xQH_M },                              \
    { .name = pfx "ARQH", .base = arqh, .wmask = PF_FW_xQH_M },                              \
    { .name = pfx "ATQT", .base = atqt, .wmask = PF_FW_xQT_M, .write = atqt_fn },            \
    { .name = pfx "ARQT", .base = arqt, .wmask = PF_FW_xQT_M, .write = arqt_fn }

/* First the admin queue (indexed by CtlqReg), then the mailbox (storage: no VFs). */
static const EmuReg ctlq_regs[] = {
    CTLQ_REGS("PF_FW_", PF_FW_ATQBAL, PF_FW_ARQBAL, PF_FW_ATQBAH, PF_FW_ARQBAH, PF_FW_ATQLEN,
              PF_FW_ARQLEN, PF_FW_ATQH, PF_FW_ARQH, PF_FW_ATQT, PF_FW_ARQT,
              atqt_write, arqt_write),
    CTLQ_REGS("PF_MBX_", PF_MBX_ATQBAL, PF_MBX_ARQBAL, PF_MBX_ATQBAH, PF_MBX_ARQBAH,
              PF_MBX_ATQLEN, PF_MBX_ARQLEN, PF_MBX_ATQH, PF_MBX_ARQH, PF_MBX_ATQT, PF_MBX_ARQT,
              NULL, NULL),
};

void ctlq_block_init(IrdmaDev *d, const CtlqDoorbells *db)
{
    d->ctlq_db = db;
    emu_regfile_add(d->regs, ctlq_regs, G_N_ELEMENTS(ctlq_regs), d);
}

void ctlq_pf_reset(IrdmaDev *d)
{
    emu_regfile_reset_regs(d->regs, ctlq_regs, G_N_ELEMENTS(ctlq_regs));
}

uint32_t ctlq_get(IrdmaDev *d, CtlqReg r)
{
    return emu_reg_get(d->regs, &ctlq_regs[r], 0);
}

void ctlq_set(IrdmaDev *d, CtlqReg r, uint32_t val)
{
    emu_reg_set(d->regs, &ctlq_regs[r], 0, val);
}
