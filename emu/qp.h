/*
 * qp.h - queue pairs: CREATE_QP, MODIFY_QP, DESTROY_QP, FLUSH_WQES/GEN_AE, SUSPEND_QP and
 * RESUME_QP, and the QP table the data path works from.
 *
 * A QP is created in IDLE (INIT) from the 256-byte host context the driver writes before each
 * CREATE/MODIFY (it follows a 256-byte Q2 area in the same buffer; the WQE names it). The
 * engine keeps the last context it read plus what the data path needs parsed out of it: the SQ
 * and RQ rings (contiguous or through PBLEs with VQ), their sizes, the CQs, PD, qs_handle,
 * completion context, doorbell shadow area. MODIFY re-reads the whole context (irdma rewrites
 * it for every modify, PSNs and the address vector included) and moves the state:
 *
 *   IDLE -> IDLE, RTR;  RTR -> RTS;  RTS -> RTS, SQD;  SQD -> RTS, SQD;  any -> ERROR
 *
 * Entering SQD posts the suspend-complete AE (0x900) at once: with no transmit in flight the
 * SQ is drained as soon as it stops. The SQ/RQ geometry is fixed at create.
 *
 * SUSPEND_QP (TC change) marks the QP suspended and posts the same AE at once, in any state;
 * RESUME_QP clears it and rebinds the QP to the WQE's qs_handle, which must be a WS leaf.
 */
#ifndef IRDMA_EMU_QP_H
#define IRDMA_EMU_QP_H

#include "pe.h"

#define QP_NO_CQ  UINT32_MAX

typedef struct PeQp {
    uint32_t id;
    uint8_t type;                /* QP_TYPE_ROCE_RC or QP_TYPE_ROCE_UD */
    uint8_t state;               /* QP_STATE_* */
    PeQueueMap sq, rq;           /* ring placement; virt: first PBLE index */
    uint32_t sq_quanta, rq_quanta;   /* ring sizes in 32-byte quanta */
    unsigned rq_wqe_shift;       /* RQ WQE stride = 32 << shift bytes */
    uint64_t ctx_pa;             /* host context of the last CREATE/MODIFY */
    uint64_t shadow_pa;          /* qw0 [14:0]: the SQ tail the device reports */
    uint32_t tx_cq, rx_cq;
    uint32_t pd;                 /* PDIDX | PDIDXHI << 16 */
    uint16_t qs_handle;
    uint64_t compl_ctx;          /* qw1 of the QP's CQEs, qw0 of its AEQEs */
    uint16_t arp_idx;
    uint64_t src_mac;            /* MAC[0] in bits 47:40 */
    uint8_t ord;
    bool suspended;              /* SUSPEND_QP until RESUME_QP: the SQ is not scheduled */
    bool flush_sq, flush_rq;     /* FLUSH_WQES requested: the data path completes in error */
    uint16_t sq_flush_maj, sq_flush_min, rq_flush_maj, rq_flush_min;
    uint8_t ctx[QPC_SIZE];       /* the rest, read with the QPC_* masks */
} PeQp;

typedef struct PeQps PeQps;

PeQps *qp_block_new(IrdmaDev *d);
void qp_block_free(PeQps *qps);
void qp_block_reset(PeQps *qps);

extern const CqpOpTable qp_cqp_ops;

/* The QP @id, or NULL. */
const PeQp *qp_lookup(IrdmaDev *d, uint32_t id);
/* Live QPs. */
unsigned qp_count(IrdmaDev *d);

#endif
