/*
 * pf.h - PF general registers: function identity, reset control and status, NVM status.
 *
 * The driver starts every probe with a PF software reset (PFGEN_CTRL.PFSWR) and checks the
 * "reset done" bits of GLNVM_ULD and the device state in GLGEN_RSTAT before and after it.
 */
#ifndef IRDMA_EMU_PF_H
#define IRDMA_EMU_PF_H

#include "core/dev.h"

/* The resets the registers trigger, which span every block: the root's. */
struct PfResets {
    void (*pf_reset)(IrdmaDev *d);       /* PFGEN_CTRL.PFSWR */
    void (*core_reset)(IrdmaDev *d);     /* GLGEN_RTRIG: CORER or GLOBR */
};

void pf_block_init(IrdmaDev *d, const PfResets *resets);

#endif
