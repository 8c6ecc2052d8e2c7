/*
 * trt_util.h - two RC QPs of one device, A and B, connected to each other as irdma connects
 * them (CQP, HMC, AEQ, an ARP entry naming a peer MAC, an MR, a CQ each), with their rings in
 * fake guest memory: the fixture of the transport tests, and the fuzzer's starting point for
 * the data path. Frames to the peer MAC leave through the fake host.
 */
#ifndef IRDMA_TEST_TRT_UTIL_H
#define IRDMA_TEST_TRT_UTIL_H

#include "cqp_util.h"
#include "emu/rdma/qp.h"

#define TRT_CCQ_SIZE    256
#define TRT_AEQ_SIZE    64
#define TRT_CQ_SIZE     64
#define TRT_PD          0x11
#define TRT_QPN_A       3
#define TRT_QPN_B       4
#define TRT_CQ_A        1
#define TRT_CQ_B        2
#define TRT_PSN_A       0xfffffau       /* A's messages cross the 24-bit PSN wrap */
#define TRT_PSN_B       0x000123u
#define TRT_MTU         1024
#define TRT_ARP_IDX     1
#define TRT_OWN_MAC     0x525400123456ull   /* fake_dev_new's port MAC */
#define TRT_PEER_MAC    0x0200000000bbull   /* not the port's: frames go to the wire */
#define TRT_IP_A        0x0a000001u
#define TRT_IP_B        0x0a000002u
#define TRT_SQ_ENC      4               /* 64 quanta */
#define TRT_RQ_ENC      3               /* 32 quanta: 16 RQ WQEs of 64 bytes */
#define TRT_RQ_WQE_ENC  1
#define TRT_RQ_WQE_SIZE (QP_WQ_QUANTUM << TRT_RQ_WQE_ENC)
#define TRT_RQ_WQES     ((4u << TRT_RQ_ENC) >> TRT_RQ_WQE_ENC)
#define TRT_SQ_QUANTA   (4u << TRT_SQ_ENC)
#define TRT_RETRY_CNT   3
#define TRT_RNR_FOREVER 7
/* Per-QP host memory: Q2 + context, SQ, RQ, shadow area, CQ ring, CQ shadow area. */
#define TRT_QP_AREA     0x100000
#define TRT_QP_STRIDE   0x10000
#define TRT_OFF_CTX     QPC_Q2_SIZE
#define TRT_OFF_SQ      0x1000
#define TRT_OFF_RQ      0x2000
#define TRT_OFF_SHADOW  0x3000
#define TRT_OFF_CQ      0x4000
#define TRT_OFF_CQSHDW  0x6000
#define TRT_CTX_A       0xffff888000a00000ull
#define TRT_CTX_B       0xffff888000b00000ull
/* Data: past the CQP test memory, 2 MiB aligned. Its first half is the MR (B's memory as the
 * remote end sees it), its second half the local buffers, addressed with STag 0 (PRIVEN). The
 * default geometry (TGeom) makes it one 2 MiB page. */
#define TRT_DATA        CQPT_MEM_SIZE
#define TRT_DATA_SIZE   (2u << 20)
#define TRT_MEM_SIZE    (CQPT_MEM_SIZE + TRT_DATA_SIZE)
#define TRT_MR_VA       0x7f0000000000ull
#define TRT_MR_LEN      (1u << 20)
#define TRT_MR_IDX      0x123u
#define TRT_MR_KEY      0x5c
#define TRT_RKEY        ((TRT_MR_IDX << 8) | TRT_MR_KEY)
#define TRT_LOCAL       (TRT_DATA + TRT_MR_LEN)
#define TRT_SRC         TRT_LOCAL                  /* A's source / READ sink */
#define TRT_RECV        (TRT_LOCAL + 0x40000)      /* B's receive buffers */
#define TRT_STATS       0xa0000                    /* a gather-stats buffer */
#define TRT_WIRE_MAX    4096                       /* frames per wire_run: a livelock guard */
/* A host's dma_map limit that cuts looped trains short: two and a half packets of the
 * fixture's MTU and a bit (trains of two, packets split between a train and a frame). */
#define TRT_SHORT_MAP   (2 * TRT_MTU + TRT_MTU / 2 + 36)

typedef struct TQp {
    unsigned id, peer, cq;
    uint32_t psn, peer_psn;
    uint64_t base, compl_ctx;
    unsigned sq_head, rq_head, cq_head;
    uint8_t sq_pol, rq_pol, cq_pol;
} TQp;

typedef struct TCfg {
    unsigned retry_cnt, rnr_retry;
    unsigned stats_inst;         /* USESTATSINSTANCE with this STAT_INDEX; 0: the function's */
} TCfg;

/* The fixture's geometry: the QPs' MTU, and the MR length, which the local buffers after it
 * (from TRT_DATA + @mr_len) match. The transport tests use the default, TRT_MTU and TRT_MR_LEN
 * (hence TRT_MEM_SIZE and TRT_LOCAL); the benchmark bigger ones. */
typedef struct TGeom {
    unsigned mtu;
    uint32_t mr_len;
} TGeom;

/* A CQE as irdma_uk_cq_poll_cmpl reads it, with its extension. */
typedef struct TCqe {
    uint64_t qw0, ctx, qw2, hdr;
    bool ext;
    uint64_t ext_imm, ext_hdr;
} TCqe;

/* An SQ WQE as irdma_uk_rdma_write/read/send take it: one local SGE. */
typedef struct TWqe {
    uint8_t op;
    uint64_t laddr;
    uint32_t lstag, len;
    uint64_t raddr;
    uint32_t rkey;
    bool imm_valid;
    uint32_t imm;
    uint64_t hdr_extra;          /* hostile tests: bits OR-ed into the header */
} TWqe;

extern TQp qa, qb;
extern unsigned aeq_head;      /* the AEQ consumer, as irdma keeps it */
extern uint8_t aeq_pol;
extern const TCfg trt_default_cfg;
extern TGeom trt_geom;         /* the geometry of the last trt_start / trt_start_geom */

/* Fake host and device with CQP, HMC, AEQ, ARP entry and MR; A and B initialised, not yet
 * created (connect_with / connect_default). */
void trt_start(void);
/* The same with geometry @g. */
void trt_start_geom(const TGeom *g);
/* The host memory trt_start_geom(@g) needs. */
size_t trt_mem_size(const TGeom *g);
/* The same on the host @h (at least trt_mem_size(&trt_geom) bytes) and device @d already
 * there. */
void trt_bring_up(void);
/* The clock: move to @t running every event due on the way, in deadline order; run what is
 * due now; move by @ns. */
void clock_to(uint64_t t);
void settle(void);
void clock_advance(uint64_t ns);

/* Control plane, as irdma issues it (each CQP op must succeed). */
void cqp_ok(const uint64_t q[8]);
void create_aeq(void);
/* ARP entry TRT_ARP_IDX: TRT_PEER_MAC sends A and B to the host, TRT_OWN_MAC loops them. */
void add_arp(uint64_t mac);
void reg_mr(void);
void create_cq(const TQp *qp);
void write_ctx(const TQp *qp, const TCfg *cfg);
/* A QP op of CQP opcode @op to state @next, for an RC QP (qp_op) or one of QP @type. */
void qp_op_typed(const TQp *qp, unsigned type, unsigned op, unsigned next, uint64_t flags);
void qp_op(const TQp *qp, unsigned op, unsigned next, uint64_t flags);
void init_qp(TQp *qp, unsigned id, unsigned peer, unsigned cq, uint32_t psn, uint32_t peer_psn,
             uint64_t ctx);
/* A and B through CREATE (INIT), RTR and RTS with @cfg's retry counts, or the defaults. */
void connect_with(const TCfg *cfg);
void connect_default(void);
/* MANAGE_STATS: allocate a statistics instance (irdma_cqp_stats_inst_cmd); its index. */
unsigned alloc_stats_inst(void);
/* GATHER_STATS of instance @inst (0: the function's own) into TRT_STATS, as irdma_sc_gather_stats
 * asks for it; then the counter whose qword is at byte offset @off: a 48-bit one (bits 47:0),
 * or a 32-bit one in the upper half (bits 63:32), each checked to have nothing else beside. */
void gather_stats(unsigned inst);
uint64_t stat48(unsigned off);
uint64_t stat32_high(unsigned off);

/* The data path as irdma's uk.c drives it: a fragment; an SQ WQE at the head (no doorbell,
 * returns its quanta index); the doorbell; an RQ WQE of one SGE; the next CQE of @qp's CQ
 * (false if there is none yet). */
void set_frag(uint8_t *wqe, unsigned off, uint64_t addr, uint32_t stag, uint32_t len,
              uint8_t pol);
unsigned post_sq(TQp *qp, TWqe wr);
void ring(const TQp *qp);
void post_rq(TQp *qp, uint64_t addr, uint32_t len);
bool poll_cq(TQp *qp, TCqe *out);
/* The next AEQE (irdma_sc_get_next_aeqe); false if there is none. */
bool next_ae(uint64_t *ctx, uint64_t *info);
/* The next AE is @code from @src about @qp; there is no next AE. */
void expect_ae(const TQp *qp, unsigned code, unsigned src);
void expect_no_ae(void);

#endif