/*
 * pe.h - what the RDMA engine's blocks (pe_regs.c, cqp.c, hmc.c, cq.c, ceq.c) share: guest DMA
 * helpers and the CQP handler interface every opcode implements.
 *
 * A CQP WQE is handed to its opcode's handler already fetched and checked for VALID; the handler
 * validates its own fields and fills a CqpResult, which the engine turns into CQPTAIL/CQPERRCODES
 * and, once the CCQ exists, a CCQ CQE.
 */
#ifndef IRDMA_EMU_PE_H
#define IRDMA_EMU_PE_H

#include "core/dev.h"
#include "rdma/pe_defs.h"

/* The HMC function of this PF (its PCI function number, PF_FUNC_RID). */
#define PE_PF_HMC_FN_ID   0
/* CEQs the engine implements (QUERY_FPM max_ceqs). */
#define PE_MAX_CEQS       64

static inline bool pe_dma_read(IrdmaDev *d, uint64_t gpa, void *buf, size_t len)
{
    return d->host.ops->dma_read(d->host.opaque, gpa, buf, len) == 0;
}

static inline bool pe_dma_write(IrdmaDev *d, uint64_t gpa, const void *buf, size_t len)
{
    return d->host.ops->dma_write(d->host.opaque, gpa, buf, len) == 0;
}

typedef struct CqpWqe {
    uint8_t raw[CQP_WQE_SIZE];
    unsigned idx;                /* CQP SQ slot */
    uint8_t opcode;
    uint64_t hdr;                /* qword at CQP_WQE_HDR */
} CqpWqe;

static inline uint64_t cqp_qw(const CqpWqe *w, unsigned off)
{
    return ld64(w->raw + off);
}

typedef struct CqpResult {
    uint16_t maj, min;           /* CQP_MAJ_OK / CQP_MIN_OK on success */
    uint32_t ret_val;            /* OPRETVAL of the CCQ CQE */
    bool no_ccqe;                /* the op removed the CCQ itself: complete through CQPTAIL only */
} CqpResult;

static inline void cqp_fail(CqpResult *r, uint16_t maj, uint16_t min)
{
    r->maj = maj;
    r->min = min;
}

typedef void (*CqpHandler)(IrdmaDev *d, const CqpWqe *w, CqpResult *r);

/* The object a CQP op acts on, named by the id in its header (fault plans match on it). */
typedef enum CqpObject {
    CQP_OBJ_NONE,
    CQP_OBJ_QP,                  /* CQPWQE_QP_ID */
    CQP_OBJ_CQ,                  /* CQPWQE_CQ_ID */
} CqpObject;

typedef struct CqpOp {
    uint8_t opcode;
    const char *name;
    CqpHandler handler;
    CqpObject object;
} CqpOp;

typedef struct CqpOpTable {
    const CqpOp *ops;
    size_t n;
} CqpOpTable;

/* How a queue (CQ, CEQ, AEQ) lies in guest memory: contiguous at @pa, or (virtual) a level-1
 * PBL starting at PBLE index @first_pble, one PBLE per 4 KiB page. */
typedef struct PeQueueMap {
    bool virt;
    uint64_t pa;
    uint32_t first_pble;
} PeQueueMap;

#endif
