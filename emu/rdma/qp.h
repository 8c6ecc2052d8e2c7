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
 * Entering SQD stops fetching SQ WQEs; messages already fetched finish (RC: until
 * acknowledged), then the suspend-complete AE (0x900) is posted. The SQ/RQ geometry is fixed
 * at create.
 *
 * SUSPEND_QP (TC change) marks the QP suspended (no new WQEs fetched; the RQ keeps receiving)
 * and posts the same AE once the SQ has drained, in any state; RESUME_QP clears it, rebinds
 * the QP to the WQE's qs_handle, which must be a WS leaf, and rescans the SQ.
 */
#ifndef IRDMA_EMU_QP_H
#define IRDMA_EMU_QP_H

#include <sys/queue.h>
#include "rdma/pe.h"
#include "core/event.h"
#include "core/spares.h"
#include "rdma/mr.h"
#include "rdma/rocev2.h"
#include "rdma/wqe.h"

#define QP_NO_CQ  UINT32_MAX

/* Where a QP's packets go: L2/L3/L4 addressing from the QP context (RC) or an AH (UD). */
typedef struct RoceAv {
    uint8_t dmac[6], smac[6];
    bool vlan;
    uint16_t vlan_tci;
    bool ipv4;
    uint8_t sip[16], dip[16];
    uint8_t tos, ttl;
    uint32_t flow_label;
    uint16_t sport;
    uint8_t stats_inst;          /* the sending QP's statistics instance (stats.h) */
} RoceAv;

/* The requester (sq.c): WQEs fetched from the SQ until they complete. */
typedef struct PeQpReq {
    uint32_t head;               /* quanta index of the next WQE to fetch */
    uint8_t valid;               /* VALID of the current pass over the SQ */
    uint32_t next_psn;           /* first PSN of the next message */
    uint32_t sent_psn;           /* PSN after the last packet sent */
    uint32_t una;                /* oldest unacknowledged PSN */
    uint32_t max_psn;            /* PSN after the furthest packet ever sent: before it, a
                                  * packet is a retransmission */
    /* A sys/queue.h list: linked in place, by inline code (GQueue's calls into glib were 9 %
     * of a small WRITE's instructions, counted with the bench). */
    TAILQ_HEAD(, SqOp) ops;      /* fetched and not completed, in SQ order */
    struct SqOp *unsent;         /* in ops: none before it has a packet to send (NULL: the
                                  * front); where pump() starts, not rescanning every op */
    Spares spare;                /* SqOp: completed, kept for the next WQEs */
    unsigned retries, rnr_retries;   /* left before the QP fails */
    bool unreported;             /* a WQE completed without a CQE since the last one */
    EmuEvent *run_ev;
    /* The retransmission timer: running (until rto_deadline, placed by rto_ticket) or not;
     * rto_ev, when pending, is due no later (see arm_rto()). */
    bool rto_running;
    uint64_t rto_deadline, rto_ticket;
    EmuEvent *rto_ev;
    uint64_t rto_ev_ticket;      /* the ticket rto_ev was scheduled with */
    EmuEvent *rnr_ev;            /* waiting out an RNR NAK's timer */
    TimingUnit pace;             /* payload issued at qp_mbps (timing_qp_*, model timing) */
} PeQpReq;

/* The responder (rq.c): the RQ and the message being received. */
typedef struct PeQpResp {
    uint32_t head;               /* index of the next RQ WQE */
    uint8_t valid;               /* VALID of the current pass over the RQ */
    uint32_t epsn;               /* next expected PSN */
    uint32_t msn;                /* messages completed (AETH MSN) */
    unsigned msg;                /* BTH_SEND or BTH_WRITE while one is in progress, else 0 */
    RqWqe wqe;                   /* SEND: the RQ WQE being filled */
    uint64_t off;                /* bytes of the message placed so far */
    MrRange rg[WQE_FRAGS_MAX];   /* SEND: its SGEs, resolved */
    MrRange write;               /* WRITE: the target */
    uint64_t write_len;
    bool nak_sent;               /* a sequence NAK is outstanding: do not repeat it */
    GQueue reads;                /* READ requests being answered, oldest first (rq.c) */
    EmuEvent *read_ev;
} PeQpResp;

typedef struct PeQp {
    IrdmaDev *d;
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
    unsigned drain_aes;          /* suspend-complete AEs owed once the SQ has drained */
    uint64_t drain_posted_ns;    /* when the oldest of them was asked for (its CQP WQE posted) */
    bool flush_sq, flush_rq;     /* FLUSH_WQES requested: the data path completes in error */
    uint16_t sq_flush_maj, sq_flush_min, rq_flush_maj, rq_flush_min;
    uint8_t ctx[QPC_SIZE];       /* the rest, read with the QPC_* masks */
    /* The transport, from the context of the last CREATE/MODIFY. */
    RoceAv av;                   /* RC: the remote end */
    uint32_t dest_qpn, qkey;
    unsigned mtu;                /* payload bytes per packet */
    bool priv;                   /* kernel QP: STag 0 addresses guest memory directly */
    uint8_t retry_cnt, rnr_retry;
    PeQpReq req;
    PeQpResp resp;
} PeQp;

typedef struct PeQps PeQps;

PeQps *qp_block_new(IrdmaDev *d);
void qp_block_free(PeQps *qps);
void qp_block_reset(PeQps *qps);

extern const CqpOpTable qp_cqp_ops;

/* The QP @id, or NULL. */
const PeQp *qp_lookup(IrdmaDev *d, uint32_t id);
PeQp *qp_lookup_mut(IrdmaDev *d, uint32_t id);
/* Post an AEQE about @qp; @fatal errors also stop the QP (the driver then moves it to ERROR
 * and flushes it). */
void qp_ae(IrdmaDev *d, PeQp *qp, unsigned code, unsigned src, bool fatal);
/* The fault plan's raise-ae: AE @code about QP @id, if it exists, its state unchanged. */
void qp_fault_ae(IrdmaDev *d, uint32_t id, unsigned code);
/* The requester has nothing in flight any more: post the suspend-complete AEs owed. */
void qp_sq_drained(IrdmaDev *d, PeQp *qp);
/* Live QPs. */
unsigned qp_count(IrdmaDev *d);

#endif
