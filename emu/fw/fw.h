/*
 * fw.h - the E810 firmware model: what answers the admin queue.
 *
 * The firmware is split by function, one file per area, each with its opcode table (one
 * handler per opcode) and its own state reached from IrdmaDev:
 *   fw/general.c  versions, driver version, queue shutdown, resource ownership, capabilities,
 *                 MAC read, PXE, clear PF config, health event sources, firmware logging
 *   fw/nvm.c      shadow RAM and flash: NVM read (flat and PFA modules), checksum
 *   fw/sched.c    Tx scheduler tree and topology, LAN Tx queues and RDMA qsets
 *   fw/pkg.c      DDP package
 *   fw/dcb.c      DCB, LLDP agent, port ETS
 *   fw/link.c     PHY, MAC, link status and events, link topology (netlist), port options
 *   fw/switch.c   switch config, VSIs, resources, rules, VLAN mode, RSS
 * The commands and layouts are those of ice 6.1, 6.12 and 7.3; where a later kernel added a
 * field to a command, both forms are answered.
 * Versions the firmware reports live here so that every place reporting them agrees.
 */
#ifndef IRDMA_EMU_FW_H
#define IRDMA_EMU_FW_H

#include "fw/aq.h"

/* Firmware and admin-queue API versions (get_version, 0x0001). API 1.7.x is what current
 * E810 NVMs report; ice 6.1 accepts API major 1. */
#define FW_VER_MAJOR        7
#define FW_VER_MINOR        2
#define FW_VER_PATCH        3
#define FW_VER_BUILD        0x00001da5u
#define FW_ROM_VER          0x00000001u
#define FW_API_MAJOR        1
#define FW_API_MINOR        7
#define FW_API_PATCH        9

/* Resources the model gives the PF (capabilities 0x000A/0x000B). */
#define FW_NUM_VSI          768
#define FW_NUM_QUEUES       256
/* The PF RSS table: 2048 entries (ICE_LUT_PF_SIZE), as ice 6.12 on requires of the PF VSI. */
#define FW_RSS_LUT_SIZE     2048
#define FW_RSS_ENTRY_WIDTH  6
#define FW_MAX_TC           8
#define FW_MAX_MTU          9702
/* Flow director filter pools (GLQF_FD_SIZE): guaranteed for the PF, and best effort. */
#define FW_FD_GUARANTEED    512
#define FW_FD_BEST_EFFORT   1024

extern const AqOpcodeTable fw_general_opcodes;

typedef struct FwGeneral FwGeneral;

FwGeneral *fw_general_new(IrdmaDev *d);
void fw_general_free(FwGeneral *g);
void fw_general_pf_reset(FwGeneral *g);

/* Everything a PF reset or clear_pf_cfg (0x02A4) drops, across the firmware blocks. */
void fw_pf_reset(IrdmaDev *d);

#endif
