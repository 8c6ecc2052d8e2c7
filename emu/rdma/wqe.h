/*
 * wqe.h - the QP work queue elements the data path reads: SQ WQEs (one to eight 32-byte
 * quanta, header qword at 24 written last with VALID) and RQ WQEs (32 << RQWQESIZE bytes),
 * each decoded by its one function from the bytes the engine fetched.
 */
#ifndef IRDMA_EMU_WQE_H
#define IRDMA_EMU_WQE_H

#include "rdma/pe.h"

typedef struct WqeSge {
    uint64_t addr;
    uint32_t stag;
    uint32_t len;
} WqeSge;

typedef struct SqWqe {
    uint8_t op;                  /* SQ_OP_* */
    uint8_t quanta;
    bool signaled, solicited, read_fence, local_fence;
    bool imm_valid;
    uint32_t imm;
    uint32_t hdr_stag;           /* REMSTAG: rkey, STag to invalidate */
    uint32_t ah_id;              /* UD send */
    uint32_t dest_qpn, qkey;     /* UD send */
    uint64_t qw0, qw1, qw2;      /* raw, for the memory ops */
    uint64_t hdr;
    bool inline_data;
    uint8_t inline_len;
    uint8_t inline_buf[WQE_INLINE_MAX];
    unsigned nsge;
    WqeSge sge[WQE_FRAGS_MAX];
    uint64_t len;                /* bytes the SGEs (or inline data) hold */
} SqWqe;

typedef struct RqWqe {
    unsigned nsge;
    WqeSge sge[WQE_FRAGS_MAX];
    uint64_t len;
} RqWqe;

/* Quanta of the SQ WQE whose header is @hdr (1..8; 0 if the header is malformed). */
/* The SQ opcodes' names (as irdma's IRDMAQP_OP_*), for fault plans (FaultVocab). */
extern const FaultOpcodes sq_fault_opcodes;

unsigned sq_wqe_quanta(uint64_t hdr);
/* Decode the SQ WQE in @raw (sq_wqe_quanta() * 32 bytes). False if it is malformed. */
bool sq_wqe_decode(const uint8_t *raw, SqWqe *w);
/* Decode an RQ WQE of @bytes bytes. False if it is malformed. */
bool rq_wqe_decode(const uint8_t *raw, size_t bytes, RqWqe *w);

#endif
