/*
 * fw/switch.h - the embedded switch as the PF sees it: the switch configuration (0x0200),
 * port parameters (0x0203), shared resources (0x0208/0x0209: VSI lists, FD counters, profile
 * and TCAM ids), VSIs and their context (0x0210/0x0211/0x0213), switch rules (0x02A0-0x02A2:
 * lookup rules, large actions, VSI lists), VLAN mode (0x020C/0x020D) and RSS key/LUT per VSI
 * (0x0B02-0x0B05). The state is kept so that the LAN datapath can filter by it.
 */
#ifndef IRDMA_EMU_FW_SWITCH_H
#define IRDMA_EMU_FW_SWITCH_H

#include "fw/aq.h"

typedef struct FwSwitch FwSwitch;

extern const AqOpcodeTable fw_switch_opcodes;

FwSwitch *fw_switch_new(IrdmaDev *d);
void fw_switch_free(FwSwitch *s);
/* PF reset / clear_pf_cfg: VSIs, rules, resources, RSS and VLAN settings are dropped. */
void fw_switch_pf_reset(FwSwitch *s);

/* VSI context bytes (ice_aqc_vsi_props, 128) of VSI @vsi_num, or NULL. */
#define FW_VSI_PROPS_SIZE 128
const uint8_t *fw_switch_vsi_props(FwSwitch *s, unsigned vsi_num);
unsigned fw_switch_vsi_count(FwSwitch *s);
/* Rx switching: the VSIs the Rx rules forward @frame to (exact MAC/VLAN/ethertype rules first,
 * then promiscuous/default ones; a rule forwarding to a VSI list names each member), at most
 * @max of them into @vsis; returns how many, 0 if no rule matches or the match drops it. */
unsigned fw_switch_rx_lookup(FwSwitch *s, const uint8_t *frame, size_t len, unsigned *vsis,
                             unsigned max);

/* RSS state of VSI @vsi for the Rx engine: its 52-byte key and the LUT its queueing options
 * select (its own or the PF's); false if it has none programmed. */
bool fw_switch_vsi_rss(FwSwitch *s, unsigned vsi, const uint8_t **key, const uint8_t **lut,
                       unsigned *lut_size);
unsigned fw_switch_rule_count(FwSwitch *s);

#endif
