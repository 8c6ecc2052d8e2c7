/*
 * ctlq.h - control queue ring registers: the admin queue (PF_FW_*) the driver talks to the
 * firmware through, and the PF/VF mailbox (PF_MBX_*) it programs even without VFs.
 *
 * Base/length registers read back exactly what was written (ice_cfg_cq_regs checks BAL);
 * the admin queue's tail writes are the AQ engine's doorbells (aq.c, rung through the
 * CtlqDoorbells the root installs); a PF reset clears all.
 */
#ifndef IRDMA_EMU_CTLQ_H
#define IRDMA_EMU_CTLQ_H

#include "core/dev.h"

/* The admin queue's registers, in ctlq.c's table order. */
typedef enum CtlqReg {
    CTLQ_ATQBAL, CTLQ_ARQBAL, CTLQ_ATQBAH, CTLQ_ARQBAH, CTLQ_ATQLEN, CTLQ_ARQLEN,
    CTLQ_ATQH, CTLQ_ARQH, CTLQ_ATQT, CTLQ_ARQT,
} CtlqReg;

/* What the admin queue's tail writes ring (after storing the tail). */
struct CtlqDoorbells {
    void (*atq_tail)(IrdmaDev *d);
    void (*arq_tail)(IrdmaDev *d);
};

void ctlq_block_init(IrdmaDev *d, const CtlqDoorbells *db);
void ctlq_pf_reset(IrdmaDev *d);

/* Device-side access to the admin queue registers. */
uint32_t ctlq_get(IrdmaDev *d, CtlqReg r);
void ctlq_set(IrdmaDev *d, CtlqReg r, uint32_t val);

#endif
