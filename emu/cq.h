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

#include "pe.h"

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
/* PFPE_CQARM written with @val (the CQ id). */
void cq_arm_doorbell(IrdmaDev *d, uint32_t val);

#endif
