/*
 * pf.h - PF general registers: function identity, reset control and status, NVM status.
 *
 * The driver starts every probe with a PF software reset (PFGEN_CTRL.PFSWR) and checks the
 * "reset done" bits of GLNVM_ULD and the device state in GLGEN_RSTAT before and after it.
 */
#ifndef IRDMA_EMU_PF_H
#define IRDMA_EMU_PF_H

#include "device.h"

void pf_block_init(IrdmaDev *d);

#endif
