/* stats.c - the RDMA engine's statistics (see stats.h). */
#include "rdma/stats.h"
#include "rdma/pe_defs.h"
#include "core/inet.h"
#include "core/trace.h"

/* Where a counter sits in the gather-stats buffer: its qword, bit offset and width. */
typedef struct StatsField {
    uint16_t off;
    uint8_t shift, width;
} StatsField;

static const StatsField fields[STATS_NUM_COUNTERS] = {
    [STATS_IP4_RX_OCTS] = { GSTATS_IP4RXOCTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP4_RX_PKTS] = { GSTATS_IP4RXPKTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP4_RX_DISCARDS] = { GSTATS_IP4RXDISCARD, GSTATS_HIGH_HALF, GSTATS_WIDTH_32 },
    [STATS_IP6_RX_OCTS] = { GSTATS_IP6RXOCTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP6_RX_PKTS] = { GSTATS_IP6RXPKTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP6_RX_DISCARDS] = { GSTATS_IP6RXDISCARD, GSTATS_HIGH_HALF, GSTATS_WIDTH_32 },
    [STATS_IP4_TX_OCTS] = { GSTATS_IP4TXOCTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP4_TX_PKTS] = { GSTATS_IP4TXPKTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP6_TX_OCTS] = { GSTATS_IP6TXOCTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP6_TX_PKTS] = { GSTATS_IP6TXPKTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP4_RX_MC_OCTS] = { GSTATS_IP4RXMCOCTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP4_RX_MC_PKTS] = { GSTATS_IP4RXMCPKTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP6_RX_MC_OCTS] = { GSTATS_IP6RXMCOCTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP6_RX_MC_PKTS] = { GSTATS_IP6RXMCPKTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP4_TX_MC_OCTS] = { GSTATS_IP4TXMCOCTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP4_TX_MC_PKTS] = { GSTATS_IP4TXMCPKTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP6_TX_MC_OCTS] = { GSTATS_IP6TXMCOCTS, 0, GSTATS_WIDTH_48 },
    [STATS_IP6_TX_MC_PKTS] = { GSTATS_IP6TXMCPKTS, 0, GSTATS_WIDTH_48 },
    [STATS_RETRANSMITS] = { GSTATS_TCPRTXSEG, GSTATS_HIGH_HALF, GSTATS_WIDTH_32 },
    [STATS_UDP_RX_PKTS] = { GSTATS_UDPRXPKTS, 0, GSTATS_WIDTH_48 },
    [STATS_UDP_TX_PKTS] = { GSTATS_UDPTXPKTS, 0, GSTATS_WIDTH_48 },
    [STATS_RDMA_RX_WRITES] = { GSTATS_RDMARXWRS, 0, GSTATS_WIDTH_48 },
    [STATS_RDMA_RX_READS] = { GSTATS_RDMARXRDS, 0, GSTATS_WIDTH_48 },
    [STATS_RDMA_RX_SENDS] = { GSTATS_RDMARXSNDS, 0, GSTATS_WIDTH_48 },
    [STATS_RDMA_TX_WRITES] = { GSTATS_RDMATXWRS, 0, GSTATS_WIDTH_48 },
    [STATS_RDMA_TX_READS] = { GSTATS_RDMATXRDS, 0, GSTATS_WIDTH_48 },
    [STATS_RDMA_TX_SENDS] = { GSTATS_RDMATXSNDS, 0, GSTATS_WIDTH_48 },
    [STATS_RDMA_BINDS] = { GSTATS_RDMAVBND, 0, GSTATS_WIDTH_48 },
    [STATS_RDMA_INVALIDATES] = { GSTATS_RDMAVINV, 0, GSTATS_WIDTH_48 },
};

struct PeStats {
    IrdmaDev *d;
    bool used[STATS_INST_MAX];             /* allocated by MANAGE_STATS (never instance 0) */
    uint64_t ctr[STATS_INST_MAX][STATS_NUM_COUNTERS];
};

PeStats *stats_new(IrdmaDev *d)
{
    PeStats *s = g_new0(PeStats, 1);

    s->d = d;
    return s;
}

void stats_free(PeStats *s)
{
    g_free(s);
}

void stats_reset(PeStats *s)
{
    memset(s->used, 0, sizeof(s->used));
    memset(s->ctr, 0, sizeof(s->ctr));
}

bool stats_inst_allocated(IrdmaDev *d, unsigned idx)
{
    return idx < STATS_INST_MAX && d->stats->used[idx];
}

unsigned stats_inst_count(IrdmaDev *d)
{
    unsigned n = 0;

    for (unsigned i = 0; i < STATS_INST_MAX; i++) {
        n += d->stats->used[i];
    }
    return n;
}

void stats_count(IrdmaDev *d, unsigned inst, StatsCounter c, uint64_t n)
{
    if (inst < STATS_INST_MAX && c < STATS_NUM_COUNTERS) {
        d->stats->ctr[inst][c] += n;
    }
}

void stats_packets_as(IrdmaDev *d, unsigned inst, bool rx, const RocePkt *p, uint8_t opcode,
                      size_t payload_len, uint64_t n)
{
    unsigned fl = rocev2_opcode_flags(opcode);
    uint64_t octs, *c;

    /* Every packet passes here: the instance is checked once, the counters added directly. */
    if (inst >= STATS_INST_MAX) {
        return;
    }
    c = d->stats->ctr[inst];
    octs = n * rocev2_ip_len(p->ipv4, opcode, payload_len);
    if (p->ipv4) {
        c[rx ? STATS_IP4_RX_PKTS : STATS_IP4_TX_PKTS] += n;
        c[rx ? STATS_IP4_RX_OCTS : STATS_IP4_TX_OCTS] += octs;
    } else {
        c[rx ? STATS_IP6_RX_PKTS : STATS_IP6_TX_PKTS] += n;
        c[rx ? STATS_IP6_RX_OCTS : STATS_IP6_TX_OCTS] += octs;
    }
    if (p->ipv4 && inet_ip4_is_multicast(p->dip)) {
        c[rx ? STATS_IP4_RX_MC_PKTS : STATS_IP4_TX_MC_PKTS] += n;
        c[rx ? STATS_IP4_RX_MC_OCTS : STATS_IP4_TX_MC_OCTS] += octs;
    } else if (!p->ipv4 && inet_ip6_is_multicast(p->dip)) {
        c[rx ? STATS_IP6_RX_MC_PKTS : STATS_IP6_TX_MC_PKTS] += n;
        c[rx ? STATS_IP6_RX_MC_OCTS : STATS_IP6_TX_MC_OCTS] += octs;
    }
    c[rx ? STATS_UDP_RX_PKTS : STATS_UDP_TX_PKTS] += n;
    /* Messages: a MIDDLE or LAST packet continues one already counted. */
    if ((fl & BTH_FIRST) && (fl & BTH_WRITE)) {
        c[rx ? STATS_RDMA_RX_WRITES : STATS_RDMA_TX_WRITES] += n;
    } else if ((fl & BTH_FIRST) && (fl & BTH_SEND)) {
        c[rx ? STATS_RDMA_RX_SENDS : STATS_RDMA_TX_SENDS] += n;
    } else if (fl & BTH_READ_REQ) {
        c[rx ? STATS_RDMA_RX_READS : STATS_RDMA_TX_READS] += n;
    }
}

void stats_rx_dropped(IrdmaDev *d, bool ipv4, size_t len)
{
    stats_count(d, STATS_INST_FN, ipv4 ? STATS_IP4_RX_PKTS : STATS_IP6_RX_PKTS, 1);
    stats_count(d, STATS_INST_FN, ipv4 ? STATS_IP4_RX_OCTS : STATS_IP6_RX_OCTS, len);
    stats_count(d, STATS_INST_FN, STATS_UDP_RX_PKTS, 1);
    stats_count(d, STATS_INST_FN, ipv4 ? STATS_IP4_RX_DISCARDS : STATS_IP6_RX_DISCARDS, 1);
}

/* --- CQP ops --- */

static void op_manage_stats(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeStats *s = d->stats;
    unsigned idx = pe_get(w->hdr, CQPWQE_STATS_INST_INDEX);
    uint64_t fn = pe_get(cqp_qw(w, CQPWQE_STATS_FN_OFF), CQPWQE_HMC_FN_ID);

    if ((w->hdr & CQPWQE_STATS_USE_FN_INDEX) && fn != PE_PF_HMC_FN_ID) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        return;
    }
    if (!(w->hdr & CQPWQE_STATS_ALLOC_INST)) {
        if (!s->used[idx]) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
            return;
        }
        s->used[idx] = false;
        emu_trace(&d->host, TR_STATS_INST_FREE, "instance %u", idx);
        return;
    }
    if (w->hdr & CQPWQE_STATS_USE_INST) {
        if (idx == STATS_INST_FN || s->used[idx]) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
            return;
        }
    } else {
        /* Lowest free instance from 1: the driver takes OPRETVAL as its index unchecked. */
        for (idx = 1; idx < STATS_INST_MAX && s->used[idx]; idx++) {
        }
        if (idx == STATS_INST_MAX) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
            return;
        }
    }
    s->used[idx] = true;
    memset(s->ctr[idx], 0, sizeof(s->ctr[idx]));
    r->ret_val = idx;
    emu_trace(&d->host, TR_STATS_INST_ALLOC, "instance %u", idx);
}

static void op_gather_stats(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeStats *s = d->stats;
    uint64_t pa = cqp_qw(w, CQPWQE_GSTATS_BUF_OFF);
    uint64_t fn = pe_get(cqp_qw(w, CQPWQE_STATS_FN_OFF), CQPWQE_HMC_FN_ID);
    unsigned idx = pe_get(w->hdr, CQPWQE_STATS_INST_INDEX);
    uint64_t q[GSTATS_BUF_SIZE / 8] = { 0 };
    uint8_t buf[GSTATS_BUF_SIZE];

    if ((w->hdr & CQPWQE_STATS_USE_FN_INDEX) && fn != PE_PF_HMC_FN_ID) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        emu_trace(&d->host, TR_ERR_STATS_GATHER_BAD_FN, "hmc_fn_id=%" G_GINT64_MODIFIER "u", fn);
        return;
    }
    if (!(w->hdr & CQPWQE_STATS_USE_INST)) {
        idx = STATS_INST_FN;
    } else if (!s->used[idx]) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_STATS_GATHER_NO_INST, "instance %u not allocated", idx);
        return;
    }
    if (pa == 0 || pa % GSTATS_BUF_ALIGN) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
        emu_trace(&d->host, TR_ERR_STATS_GATHER_BAD_BUF, "pa=0x%" G_GINT64_MODIFIER "x", pa);
        return;
    }
    /* Each counter at its width, in its place; the rest of the buffer 0. */
    for (unsigned c = 0; c < STATS_NUM_COUNTERS; c++) {
        uint64_t mask = (1ull << fields[c].width) - 1;

        q[fields[c].off / 8] |= (s->ctr[idx][c] & mask) << fields[c].shift;
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(q); i++) {
        st64(buf + 8 * i, q[i]);
    }
    if (!pe_dma_write(d, pa, buf, sizeof(buf))) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
        emu_trace(&d->host, TR_STATS_GATHER_DMA_ERROR, "pa=0x%" G_GINT64_MODIFIER "x", pa);
        return;
    }
    emu_trace(&d->host, TR_STATS_GATHER, "instance %u -> 0x%" G_GINT64_MODIFIER "x", idx, pa);
}

static const CqpOp ops[] = {
    { CQP_OP_MANAGE_STATS, "MANAGE_STATS", op_manage_stats, CQP_OBJ_NONE },
    { CQP_OP_GATHER_STATS, "GATHER_STATS", op_gather_stats, CQP_OBJ_NONE },
};

const CqpOpTable stats_cqp_ops = { ops, G_N_ELEMENTS(ops) };
