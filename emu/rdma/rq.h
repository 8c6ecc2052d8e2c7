/*
 * rq.h - the responder: what arrives for a QP. The RQ has no doorbell: a WQE is looked for
 * (VALID matching the pass) when a SEND or a WRITE with immediate needs one.
 *
 * RC: packets must come in PSN order. A duplicate (PSN before the expected one) is
 * acknowledged again, a READ request answered again; a PSN ahead gets one sequence NAK until
 * the expected one arrives. SENDs scatter into the RQ WQE's SGEs, WRITEs into the MR or MW
 * the RETH names, READ requests are answered with path-MTU responses (at most RQ_READS_MAX
 * requests queued, RQ_READ_BURST packets a turn, so one large READ cannot hold the host for
 * long); a message's last packet
 * and every packet asking for it get an ACK. No RQ WQE: an RNR NAK. An STag refused (key, PD,
 * rights, bounds): a remote access NAK and the AE irdma maps to the QP's error. A message too
 * long for its RQ WQE: an invalid request NAK.
 *
 * UD: the QKey must match; the receive gets the 40-byte GRH area (the IPv4 header in its last
 * 20 bytes, or the IPv6 header) in front of the data. Without an RQ WQE the datagram is dropped.
 */
#ifndef IRDMA_EMU_RQ_H
#define IRDMA_EMU_RQ_H

#include "rdma/qp.h"

#define RQ_READS_MAX    128        /* READ requests queued for an answer: the IRD it offers */
#define RQ_READ_BURST   64         /* response packets a turn before yielding to the host */

void rq_rx(IrdmaDev *d, PeQp *qp, const RocePkt *p);
/* @n packets of one SEND or WRITE at once (a train, roce.h), as rq_rx() would take them one
 * by one: @first (its payload followed by the others'), MIDDLEs, @last; PSNs in sequence,
 * AckReq of packet k in bit k of @ackreq. The payload goes to the target in one copy where it
 * can. Returns how many packets it handled: 0 if it cannot take them so (hand them to
 * rq_rx()), else up to and including one it refused or that must wait. */
unsigned rq_rx_run(IrdmaDev *d, PeQp *qp, const RocePkt *first, const RocePkt *last,
                   unsigned n, uint64_t ackreq);
/* @qp changed state: RTR takes the expected PSN from its context. */
void rq_state_changed(IrdmaDev *d, PeQp *qp, unsigned prev);
/* FLUSH_WQES on the RQ: one flush CQE if a WQE is posted; true if one was written. */
bool rq_flush(IrdmaDev *d, PeQp *qp);
/* Drop the responder's state (QP destroyed). */
void rq_release(IrdmaDev *d, PeQp *qp);

#endif
