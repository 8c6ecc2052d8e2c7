/*
 * fw_link.h - the port: PHY capabilities and configuration, MAC configuration, link status and its events (ARQ 0x0607); AQ 0x0600, 0x0601, 0x0603, 0x0605, 0x0607, 0x0613.
 */
#ifndef IRDMA_EMU_FW_LINK_H
#define IRDMA_EMU_FW_LINK_H

#include "aq.h"

typedef struct FwLink FwLink;

extern const AqOpcodeTable fw_link_opcodes;

FwLink *fw_link_new(IrdmaDev *d);
void fw_link_free(FwLink *s);
/* PF reset / clear_pf_cfg: drop the PF's configuration, keep port and device state. */
void fw_link_pf_reset(FwLink *s);

#endif
