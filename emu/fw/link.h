/*
 * fw/link.h - the port: PHY capabilities and configuration, MAC configuration, link status
 * and its events, the board's link topology and the port options; AQ 0x0600 get_phy_caps,
 * 0x0601 set_phy_cfg, 0x0603 set_mac_cfg, 0x0605 restart_an, 0x0607 get_link_status,
 * 0x0613 set_event_mask, 0x0620 set_mac_lb, 0x06E0 get_link_topo, 0x06EA get_port_options,
 * 0x06EE sff_eeprom (the memory of the SR module in the port's cage).
 *
 * The link is up when the wire is (irdma_dev_set_carrier, from the host's netdev state) and
 * the driver has the PHY enabled (set_phy_cfg / restart_an). Each change of that state is
 * reported as a 0x0607 ARQ event while the driver has link status events enabled (LSE) and
 * not masked (set_event_mask), as ice's service task expects.
 */
#ifndef IRDMA_EMU_FW_LINK_H
#define IRDMA_EMU_FW_LINK_H

#include "fw/aq.h"

typedef struct FwLink FwLink;

extern const AqOpcodeTable fw_link_opcodes;

FwLink *fw_link_new(IrdmaDev *d);
void fw_link_free(FwLink *s);
/* PF reset / clear_pf_cfg: events and MAC loopback off again; the port keeps its PHY/MAC
 * configuration. */
void fw_link_pf_reset(FwLink *s);

/* The wire came up or went down (host netdev link state). */
void fw_link_set_carrier(FwLink *s, bool up);
bool fw_link_is_up(const FwLink *s);
/* MAC loopback is on (0x0620): transmitted frames return to the port's receive side. */
bool fw_link_mac_loopback(const FwLink *s);
/* Port speeds the model offers (Mb/s): 10000, 25000, 50000, 100000. */
bool fw_link_speed_supported(unsigned mbps);

#endif
