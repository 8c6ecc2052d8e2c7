/*
 * fw/sched.h - the Tx scheduler: a TEID tree (root, TC, SW entry point and the nodes the driver adds) that LAN queues and RDMA qsets attach to as leaves; AQ 0x0400-0x0412, 0x0418 and 0x0C30/0x0C31/0x0C33.
 *
 * Layers (query_sched_res reports 9): 0 root port, 1 TC, 2 the SW entry point (the driver
 * deletes the firmware's entry-point node and adds its own nodes from this layer on), 3
 * aggregator, 5 VSI, 7 queue group, 8 leaves (LAN Tx queues, RDMA qsets). Every non-leaf node
 * takes at most FW_SCHED_MAX_SIBLINGS children: ice sizes its per-node child arrays from that
 * number and appends without a bounds check, so the firmware's refusal (ENOSPC) is what keeps the
 * driver's arrays in bounds.
 */
#ifndef IRDMA_EMU_FW_SCHED_H
#define IRDMA_EMU_FW_SCHED_H

#include "fw/aq.h"

typedef struct FwSched FwSched;

extern const AqOpcodeTable fw_sched_opcodes;

FwSched *fw_sched_new(IrdmaDev *d);
void fw_sched_free(FwSched *s);
/* PF reset / clear_pf_cfg: drop the PF's configuration, keep port and device state.
 * The tree goes back to its default (root, the TC nodes of the enabled TCs, the SW entry point
 * under TC0); every node the driver added, every queue, qset and RL profile is dropped. The set
 * of enabled TCs is port state and survives. */
void fw_sched_pf_reset(FwSched *s);

/* ICE_INVAL_TEID: no such node. */
#define FW_SCHED_INVALID_TEID 0xFFFFFFFFu

#define FW_SCHED_NUM_LAYERS     9
#define FW_SCHED_MAX_SIBLINGS   8
#define FW_SCHED_NUM_TCS        8

/* DCB: make exactly the TCs in @tc_bitmap (bit i = TC i) the enabled ones. TC0 is always
 * enabled (ice's ena_tc always has bit 0). A newly enabled TC gets a TC node under the root.
 * A TC that is no longer enabled keeps its node and subtree (the driver keeps them too, marks the
 * TC not in use and suspends its VSI nodes there with 0x0409; re-enabling resumes them), but is
 * no longer reported by fw_sched_tc_teid(). A TC node's TEID is fixed per TC number, so a
 * re-enabled TC comes back with the TEID the driver already knows. */
void fw_sched_set_tcs(FwSched *s, uint8_t tc_bitmap);
/* TEID of the TC @tc node if that TC is enabled, else FW_SCHED_INVALID_TEID
 * (query_port_ets tc_node_teid[]). */
uint32_t fw_sched_tc_teid(FwSched *s, unsigned tc);
/* The enabled TCs (bit i = TC i). */
uint8_t fw_sched_tc_bitmap(FwSched *s);
uint32_t fw_sched_root_teid(FwSched *s);

/* The LAN Tx queues (0x0C30) as the datapath needs them. */
#define FW_SCHED_TXQ_CTX_SIZE   22

typedef struct FwSchedTxq {
    uint32_t teid;            /* the queue's leaf node */
    uint32_t parent_teid;     /* its queue group */
    uint8_t tc;               /* TC of the branch it hangs in */
    bool tc_enabled;          /* that TC is enabled */
    bool suspended;           /* the leaf or one of its ancestors is suspended (0x0409) */
    /* The Tx queue context as the driver packed it (ice_tlan_ctx_info: base 57 bits @0 in
     * 128-byte units, port_num @57, pf_num @65, vmvf_type @78, src_vsi @80, qlen @135, ...). */
    uint8_t ctx[FW_SCHED_TXQ_CTX_SIZE];
} FwSchedTxq;

/* The LAN Tx queue @txq_id (PF queue number): true and *@out filled if it exists. */
bool fw_sched_get_txq(FwSched *s, uint16_t txq_id, FwSchedTxq *out);
/* Number of LAN Tx queues in the tree. */
unsigned fw_sched_num_txqs(FwSched *s);
/* TEID of the RDMA qset @qset_id (0x0C33 tx_qset_id), or FW_SCHED_INVALID_TEID. */
uint32_t fw_sched_rdma_qset_teid(FwSched *s, uint16_t qset_id);

#endif
