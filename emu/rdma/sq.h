/*
 * sq.h - the requester: the SQ engine of a QP.
 *
 * A doorbell (PFPE_WQEALLOC, or the user doorbell page) schedules the QP; a run fetches WQEs
 * from the SQ while their VALID matches the pass, writes the SQ tail it reached into the QP's
 * shadow area (irdma rings the doorbell only when that tail lies among the WQEs it just
 * posted) and looks at the slot once more before it stops. Memory operations (FAST_REG,
 * LOCAL_INV, BIND_MW) complete at once; UD sends are one packet and complete when sent; RC
 * messages are cut into path-MTU packets with consecutive PSNs, at most SQ_WINDOW_PKTS
 * unacknowledged, and complete when acknowledged (a READ when its last response arrives).
 * Completions are written in SQ order, for signaled WQEs only.
 *
 * Reliability is go-back-N: a sequence NAK, an implicit NAK (an ACK beyond an unanswered
 * READ) or the retransmission timer sends again from the first unacknowledged PSN, an RNR NAK
 * after the timer it names; the QP's retry and RNR retry counts bound both (7 RNR retries:
 * forever). Other NAKs, exhausted retries and WQEs the engine cannot carry out raise the AE
 * irdma maps to the right completion status and stop the QP; FLUSH_WQES completes what is
 * left with one flush CQE (the driver reuses it for every WQE).
 */
#ifndef IRDMA_EMU_SQ_H
#define IRDMA_EMU_SQ_H

#include "rdma/qp.h"

/* Register the QP doorbells (PFPE_WQEALLOC and its user-page copy). */
void sq_block_init(IrdmaDev *d);
/* @qp changed state (MODIFY, SUSPEND/RESUME): start or stop the engine. */
void sq_state_changed(IrdmaDev *d, PeQp *qp, unsigned prev);
/* An ACK, NAK or READ response for @qp. */
void sq_rx(IrdmaDev *d, PeQp *qp, const RocePkt *p);
/* FLUSH_WQES on the SQ: one flush CQE if any WQE is outstanding; true if one was written. */
bool sq_flush(IrdmaDev *d, PeQp *qp);
/* Drop the engine's state (QP destroyed). */
void sq_release(IrdmaDev *d, PeQp *qp);
/* Whether the SQ holds WQEs the engine has not completed (SQD: suspend-complete waits). */
bool sq_busy(const PeQp *qp);

#endif
