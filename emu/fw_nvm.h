/*
 * fw_nvm.h - the NVM: shadow RAM and flash banks (NVM, option ROM, netlist) with the version records ice and devlink read; AQ 0x0701 nvm_read, 0x0706 nvm_checksum.
 */
#ifndef IRDMA_EMU_FW_NVM_H
#define IRDMA_EMU_FW_NVM_H

#include "aq.h"

typedef struct FwNvm FwNvm;

extern const AqOpcodeTable fw_nvm_opcodes;

FwNvm *fw_nvm_new(IrdmaDev *d);
void fw_nvm_free(FwNvm *s);
/* PF reset / clear_pf_cfg: drop the PF's configuration, keep port and device state. */
void fw_nvm_pf_reset(FwNvm *s);

#endif
