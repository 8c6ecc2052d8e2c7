/*
 * fw_sched.h - the Tx scheduler: a TEID tree (root, TC, SW entry point and the nodes the driver adds) that LAN queues and RDMA qsets attach to as leaves; AQ 0x0400-0x0412 and 0x0C30/0x0C31/0x0C33.
 */
#ifndef IRDMA_EMU_FW_SCHED_H
#define IRDMA_EMU_FW_SCHED_H

#include "aq.h"

typedef struct FwSched FwSched;

extern const AqOpcodeTable fw_sched_opcodes;

FwSched *fw_sched_new(IrdmaDev *d);
void fw_sched_free(FwSched *s);
/* PF reset / clear_pf_cfg: drop the PF's configuration, keep port and device state. */
void fw_sched_pf_reset(FwSched *s);

/* ICE_INVAL_TEID: no such node. */
#define FW_SCHED_INVALID_TEID 0xFFFFFFFFu

/* DCB: make exactly the TCs in @tc_bitmap (bit i = TC i) exist as children of the root;
 * nodes of TCs no longer enabled are removed with their subtrees. */
void fw_sched_set_tcs(FwSched *s, uint8_t tc_bitmap);
/* TEID of the TC @tc node, or FW_SCHED_INVALID_TEID. */
uint32_t fw_sched_tc_teid(FwSched *s, unsigned tc);
uint32_t fw_sched_root_teid(FwSched *s);

#endif
