/*
 * cqp.h - the Control QP: the command ring through which irdma drives the RDMA engine.
 *
 * Writing PFPE_CCQPLOW (after PFPE_CCQPHIGH) with the address of the 64-byte CQP host context
 * creates the CQP at once: the context is read, validated and PFPE_CCQPSTATUS reports DONE or
 * ERR (with PFPE_CQPERRCODES); writing both as 0 destroys it. A PFPE_CQPDB write (the
 * producer index) schedules processing on the event queue: WQEs are consumed in order from
 * the tail while their VALID bit matches the pass (1 on the first, toggled at every wrap), at
 * most CQP_BUDGET per event. Each completion advances PFPE_CQPTAIL (OP_ERR set for a failed
 * one) and, once the CCQ (CQ 0) exists, writes one CCQ CQE carrying the CQP completion
 * context, OPRETVAL, the WQE index and the major/minor codes.
 */
#ifndef IRDMA_EMU_CQP_H
#define IRDMA_EMU_CQP_H

#include "rdma/pe.h"

/* WQEs processed per event before yielding to the rest of the device. */
#define CQP_BUDGET  64

typedef struct Cqp Cqp;

Cqp *cqp_new(IrdmaDev *d);
void cqp_free(Cqp *cqp);
/* PF reset: the CQP is gone, pending processing dropped. */
void cqp_reset(Cqp *cqp);

/* The implemented CQP ops' names and objects, for fault plans (FaultVocab). */
extern const FaultOpcodes cqp_fault_opcodes;
/* The id of @object in WQE @w. */
unsigned cqp_wqe_object_id(const CqpWqe *w, CqpObject object);
/* When the doorbell that covered WQE @w was rung: the time the driver posted it. */
uint64_t cqp_wqe_posted_at(IrdmaDev *d, const CqpWqe *w);

bool cqp_created(IrdmaDev *d);
/* The opcode's handler entry, or NULL. */
const CqpOp *cqp_lookup(IrdmaDev *d, uint8_t opcode);
/* Every op table of the engine, @n of them (tools/list-model prints them). */
const CqpOpTable *const *cqp_opcode_tables(size_t *n);

/* ARP table entry @idx (MANAGE_ARP): the destination MAC, MAC[0] in bits 47:40. */
bool cqp_arp_lookup(IrdmaDev *d, unsigned idx, uint64_t *mac);

/* Count what is still alive (QPs, CQs, CEQs, the AEQ, WS nodes, stats instances, MRs/MWs, AHs,
 * multicast groups, APBVT ports, quad-hash entries, local MACs, push pages) and trace it
 * ("cqp_leak" if anything is, else "cqp_leak_check"); run at every CQP destroy. */
unsigned cqp_leak_check(IrdmaDev *d);
/* Every object the PE instance holds (CQs, EQs, QPs, WS tree, MRs, AHs, tables, HMC layout) is
 * dropped: at CQP destroy and at PF reset. */
void cqp_objects_reset(IrdmaDev *d);

#endif
