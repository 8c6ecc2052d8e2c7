/*
 * cq.h - completion queues: CREATE_CQ, MODIFY_CQ (resize), DESTROY_CQ, writing CQEs with the
 * ring's valid-bit polarity, the CQ doorbell shadow area and the arm doorbell (PFPE_CQARM).
 *
 * CQ 0 is the CQP's own completion queue (the CCQ). A CQ armed through its shadow area and
 * PFPE_CQARM gets one CEQE (the CQ's completion context) on its CEQ at the next CQE, then is
 * disarmed until armed again.
 */
#ifndef IRDMA_EMU_CQ_H
#define IRDMA_EMU_CQ_H

#include "rdma/pe.h"

#define CQ_ID_CCQ  0

typedef struct PeCqs PeCqs;

PeCqs *cq_block_new(IrdmaDev *d);
void cq_block_free(PeCqs *cqs);
void cq_block_reset(PeCqs *cqs);

extern const CqpOpTable cq_cqp_ops;

bool cq_exists(IrdmaDev *d, uint32_t id);
/* Live CQs (the CCQ included). */
unsigned cq_count(IrdmaDev *d);
/* Write @cqe (CQE_SIZE bytes; the device sets VALID) into CQ @id. @notify: a solicited or
 * error completion (wakes ARM_NEXT_SE). False if there is no such CQ or it is full. */
bool cq_post(IrdmaDev *d, uint32_t id, uint8_t cqe[CQE_SIZE], bool notify);
/* A QP's completion: everything a CQE and its extension can say (cq_post_qp() lays it out). */
typedef struct QpCqe {
    uint64_t ctx;              /* the QP's completion context */
    uint32_t qp_id;
    bool sq;                   /* SQ completion (else RQ) */
    uint8_t op;                /* SQ: the WQE opcode; RQ: the BTH opcode */
    uint32_t wqe_idx;          /* SQ: quanta index; RQ: WQE index << RQWQESIZE */
    bool error;
    uint16_t maj, min;
    uint32_t payload_len;      /* RQ: bytes placed */
    uint32_t qw2_low;          /* UD: source QPN; RC: the STag invalidated */
    bool stag_or_ipv4;         /* RC: qw2_low is an invalidated STag; UD: IPv4 */
    bool solicited;
    bool imm_valid;
    uint32_t imm;
    bool smac_valid;           /* UD receive: the source MAC */
    uint64_t smac;             /* MAC[0] in bits 47:40 */
} QpCqe;

/* Write @c into CQ @id, with an extension CQE (two slots) when it carries an immediate or a
 * source MAC. False if there is no such CQ or it is full. */
bool cq_post_qp(IrdmaDev *d, uint32_t id, const QpCqe *c);

#endif
