/*
 * ceq.h - the event queues: completion event queues (CEQ, 8-byte CEQEs naming a CQ) and the
 * single asynchronous event queue (AEQ, 16-byte AEQEs), created by CQP ops, written with the
 * ring's valid-bit polarity. A CEQ interrupts through the MSI-X vector its GLINT_CEQCTL entry
 * names, the AEQ through PFINT_AEQCTL; both only while the entry's CAUSE_ENA is set. The AEQ
 * has credits: one per entry, returned by PFPE_AEQALLOC.
 */
#ifndef IRDMA_EMU_CEQ_H
#define IRDMA_EMU_CEQ_H

#include "rdma/pe.h"

typedef struct PeEqs PeEqs;

PeEqs *eqs_new(IrdmaDev *d);
void eqs_free(PeEqs *eqs);
void eqs_reset(PeEqs *eqs);

extern const CqpOpTable eqs_cqp_ops;

bool eqs_ceq_exists(IrdmaDev *d, unsigned ceq_id);
/* Live CEQs; whether the AEQ exists. */
unsigned eqs_ceq_count(IrdmaDev *d);
bool eqs_aeq_exists(IrdmaDev *d);
/* Post a CEQE carrying @cq_ctx on CEQ @ceq_id and interrupt; false if there is no such CEQ. */
bool eqs_ceq_post(IrdmaDev *d, unsigned ceq_id, uint64_t cq_ctx);

/* One AEQE: completion context (qw0) and the qw1 fields (AEQE_* masks, without VALID). */
typedef struct AeqEntry {
    uint64_t ctx;
    uint64_t info;
} AeqEntry;

/* Post an AEQE and interrupt; false if there is no AEQ or no credit (the next AEQE then
 * carries OVERFLOW). */
bool eqs_aeq_post(IrdmaDev *d, const AeqEntry *e);

#endif
