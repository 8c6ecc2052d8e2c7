/*
 * fw_switch.h - the embedded switch: switch configuration, VSIs, resource allocation, switch rules and recipes, VLAN mode, RSS key/LUT, port parameters; AQ 0x0200-0x02A2, 0x0290-0x0293, 0x0B02-0x0B05.
 */
#ifndef IRDMA_EMU_FW_SWITCH_H
#define IRDMA_EMU_FW_SWITCH_H

#include "aq.h"

typedef struct FwSwitch FwSwitch;

extern const AqOpcodeTable fw_switch_opcodes;

FwSwitch *fw_switch_new(IrdmaDev *d);
void fw_switch_free(FwSwitch *s);
/* PF reset / clear_pf_cfg: drop the PF's configuration, keep port and device state. */
void fw_switch_pf_reset(FwSwitch *s);

#endif
