/*
 * ctlq.h - control queue ring registers: the admin queue (PF_FW_*) the driver talks to the
 * firmware through, and the PF/VF mailbox (PF_MBX_*) it programs even without VFs.
 *
 * Base/length registers read back exactly what was written (ice_cfg_cq_regs checks BAL);
 * a PF reset clears them all, as the driver expects before it re-creates the rings.
 */
#ifndef IRDMA_EMU_CTLQ_H
#define IRDMA_EMU_CTLQ_H

#include "device.h"

void ctlq_block_init(IrdmaDev *d);
void ctlq_pf_reset(IrdmaDev *d);

#endif
