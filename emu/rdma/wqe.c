/* wqe.c - SQ and RQ work queue element decoding (see wqe.h). */
#include "rdma/wqe.h"

static const char *const sq_opcode_names[] = {
    [SQ_OP_RDMA_WRITE] = "RDMA_WRITE",
    [SQ_OP_RDMA_READ] = "RDMA_READ",
    [SQ_OP_SEND] = "SEND",
    [SQ_OP_SEND_INV] = "SEND_INV",
    [SQ_OP_SEND_SOL] = "SEND_SOL",
    [SQ_OP_SEND_SOL_INV] = "SEND_SOL_INV",
    [SQ_OP_BIND_MW] = "BIND_MW",
    [SQ_OP_FAST_REG] = "FAST_REG",
    [SQ_OP_LOCAL_INV] = "LOCAL_INV",
    [SQ_OP_RDMA_READ_LOC_INV] = "RDMA_READ_LOC_INV",
    [SQ_OP_NOP] = "NOP",
    [SQ_OP_RDMA_WRITE_SOL] = "RDMA_WRITE_SOL",
};

static const char *sq_opcode_name(unsigned op)
{
    return op < G_N_ELEMENTS(sq_opcode_names) ? sq_opcode_names[op] : NULL;
}

static int sq_opcode_named(const char *name)
{
    for (unsigned op = 0; op < G_N_ELEMENTS(sq_opcode_names); op++) {
        if (sq_opcode_names[op] && !g_ascii_strcasecmp(sq_opcode_names[op], name)) {
            return op;
        }
    }
    return -1;
}

const FaultOpcodes sq_fault_opcodes = { .name = sq_opcode_name, .named = sq_opcode_named };

/* Fragment slot @s: bytes 0-15 for slot 0, 32 + 16 (s - 1) after. */
static size_t frag_off(unsigned s)
{
    return s == 0 ? 0 : QP_WQ_QUANTUM + WQE_FRAG_SIZE * (s - 1);
}

/* Inline quanta for @len bytes: 8 in the first quantum, 31 in each further one. */
static unsigned inline_quanta(unsigned len)
{
    return len <= WQE_INLINE_FIRST_LEN ? 1 :
           1 + (len - WQE_INLINE_FIRST_LEN + WQE_INLINE_PER_QUANTUM - 1) / WQE_INLINE_PER_QUANTUM;
}

unsigned sq_wqe_quanta(uint64_t hdr)
{
    unsigned op = pe_get(hdr, SQWQE_OPCODE), frags = pe_get(hdr, SQWQE_ADDFRAGCNT) + 1;

    switch (op) {
    case SQ_OP_BIND_MW:
    case SQ_OP_FAST_REG:
    case SQ_OP_LOCAL_INV:
    case SQ_OP_NOP:
        return 1;
    }
    if (hdr & SQWQE_INLINEDATAFLAG) {
        unsigned len = pe_get(hdr, SQWQE_INLINEDATALEN);

        return len > WQE_INLINE_MAX ? 0 : inline_quanta(len);
    }
    /* The 13 SGEs, the immediate and a pad slot fill 8 quanta; a 16th slot would not fit. */
    return 1 + frags / 2 > WQE_QUANTA_MAX ? 0 : 1 + frags / 2;
}

/* Fragments from slot @first up to @slots into @sge; the padding slots (length 0) are kept. */
static bool decode_frags(const uint8_t *raw, unsigned first, unsigned slots, WqeSge *sge,
                         unsigned *n, uint64_t *len)
{
    *n = 0;
    *len = 0;
    for (unsigned s = first; s < slots; s++) {
        uint64_t qw1 = ld64(raw + frag_off(s) + 8);
        WqeSge g = {
            .addr = ld64(raw + frag_off(s)),
            .stag = pe_get(qw1, WQE_FRAG_STAG),
            .len = pe_get(qw1, WQE_FRAG_LEN),
        };

        if (g.len == 0) {
            continue;
        }
        if (*n == WQE_FRAGS_MAX) {
            return false;
        }
        sge[(*n)++] = g;
        *len += g.len;
    }
    return true;
}

bool sq_wqe_decode(const uint8_t *raw, SqWqe *w)
{
    uint64_t hdr = ld64(raw + SQWQE_HDR);
    unsigned slots = pe_get(hdr, SQWQE_ADDFRAGCNT) + 1;

    memset(w, 0, offsetof(SqWqe, inline_buf));
    w->hdr = hdr;
    w->op = pe_get(hdr, SQWQE_OPCODE);
    w->quanta = sq_wqe_quanta(hdr);
    w->signaled = hdr & SQWQE_SIGCOMPL;
    w->read_fence = hdr & SQWQE_READFENCE;
    w->local_fence = hdr & SQWQE_LOCALFENCE;
    w->imm_valid = hdr & SQWQE_IMMDATAFLAG;
    w->hdr_stag = pe_get(hdr, SQWQE_REMSTAG);
    w->ah_id = pe_get(hdr, SQWQE_AHID);
    w->qw0 = ld64(raw);
    w->qw1 = ld64(raw + 8);
    w->qw2 = ld64(raw + SQWQE_QW2);
    w->dest_qpn = pe_get(w->qw2, SQWQE_DESTQPN);
    w->qkey = pe_get(w->qw2, SQWQE_DESTQKEY);
    w->solicited = w->op == SQ_OP_SEND_SOL || w->op == SQ_OP_SEND_SOL_INV ||
                   w->op == SQ_OP_RDMA_WRITE_SOL;
    w->nsge = 0;
    w->len = 0;
    if (w->quanta == 0) {
        return false;
    }
    if (w->imm_valid) {
        w->imm = (uint32_t)w->qw0;
    }
    switch (w->op) {
    case SQ_OP_BIND_MW:
    case SQ_OP_FAST_REG:
    case SQ_OP_LOCAL_INV:
    case SQ_OP_NOP:
        return true;
    }
    if (hdr & SQWQE_INLINEDATAFLAG) {
        unsigned len = pe_get(hdr, SQWQE_INLINEDATALEN), take = MIN(len, WQE_INLINE_FIRST_LEN);
        unsigned done = take;

        w->inline_data = true;
        w->inline_len = len;
        memcpy(w->inline_buf, raw + WQE_INLINE_FIRST_OFF, take);
        for (unsigned q = 1; done < len; q++) {
            take = MIN(len - done, WQE_INLINE_PER_QUANTUM);
            memcpy(w->inline_buf + done, raw + q * QP_WQ_QUANTUM, take);
            done += take;
        }
        w->len = len;
        return true;
    }
    return decode_frags(raw, w->imm_valid ? 1 : 0, slots, w->sge, &w->nsge, &w->len);
}

bool rq_wqe_decode(const uint8_t *raw, size_t bytes, RqWqe *w)
{
    unsigned slots = pe_get(ld64(raw + RQWQE_HDR), RQWQE_ADDFRAGCNT) + 1;

    if (slots > 1 && frag_off(slots - 1) + WQE_FRAG_SIZE > bytes) {
        return false;
    }
    return decode_frags(raw, 0, slots, w->sge, &w->nsge, &w->len);
}
