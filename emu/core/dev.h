/*
 * dev.h - IrdmaDev, the context every block of the device is reached through.
 *
 * It holds the core's own parts (host, register file, event queue, timing, fault state) and
 * one pointer per block, each to an incomplete type: a block that uses another still includes
 * that block's header, so the layers (docs/architecture.md) show in the includes. The root
 * (device.c) creates the blocks and fills the pointers.
 */
#ifndef IRDMA_EMU_CORE_DEV_H
#define IRDMA_EMU_CORE_DEV_H

#include <glib.h>
#include "core/host.h"
#include "core/event.h"
#include "core/regs.h"
#include "core/timing.h"
#include "core/fault.h"

typedef struct IrdmaDevConfig {
    uint8_t mac[6];
    unsigned msix_vectors;
    unsigned link_speed_mbps;    /* 10000, 25000, 50000 or 100000 */
    IrdmaTimingMode timing_mode;
    IrdmaTimingParams timing;
} IrdmaDevConfig;

typedef struct AqEngine AqEngine;
typedef struct PfResets PfResets;
typedef struct CtlqDoorbells CtlqDoorbells;
typedef struct IntrBlock IntrBlock;
typedef struct LanTx LanTx;
typedef struct LanRx LanRx;
typedef struct LanStats LanStats;
typedef struct FwGeneral FwGeneral;
typedef struct FwNvm FwNvm;
typedef struct FwSched FwSched;
typedef struct FwPkg FwPkg;
typedef struct FwDcb FwDcb;
typedef struct FwLink FwLink;
typedef struct FwSwitch FwSwitch;
typedef struct Cqp Cqp;
typedef struct PeHmc PeHmc;
typedef struct PeCqs PeCqs;
typedef struct PeEqs PeEqs;
typedef struct PeQps PeQps;
typedef struct PeWs PeWs;
typedef struct PeMrs PeMrs;
typedef struct PeAhs PeAhs;
typedef struct PeLtab PeLtab;
typedef struct PeStats PeStats;
typedef struct RoceEngine RoceEngine;
typedef struct Wire Wire;

/* What the guest can see of the device, as a digest: every DMA write, MSI-X message and
 * frame sent, with its virtual time. Two runs that behave the same have the same digest. */
typedef struct IrdmaEffects {
    uint64_t count;
    uint64_t digest;             /* hash of (time, kind, address or vector, length) */
    uint64_t last_ns;            /* virtual time of the latest one */
} IrdmaEffects;

typedef struct IrdmaDev {
    IrdmaHost host;              /* the blocks' host: outer, with the effects recorded */
    IrdmaHost outer;             /* the host the device was created with */
    IrdmaEffects effects;
    /* A host call into the device (MMIO, a received frame) acts at one instant of virtual
     * time, as it does under -icount: the clock is read once per call (device.c). */
    unsigned activation_depth;   /* host calls into the device under way */
    bool activation_has_now;
    uint64_t activation_now_ns;
    IrdmaDevConfig cfg;
    IrdmaTiming timing;
    EmuRegFile *regs;
    EmuEventQueue events;
    const PfResets *pf_resets_ops; /* pf.c: the resets its registers trigger */
    IntrBlock *intr;             /* intr.c */
    const CtlqDoorbells *ctlq_db; /* ctlq.c: what the AQ tail registers ring */
    AqEngine *aq;                /* aq.c */
    LanTx *lan_tx;               /* lan_tx.c */
    LanRx *lan_rx;               /* lan_rx.c */
    LanStats *lan_stats;         /* lan_stats.c */
    FwGeneral *fw;               /* fw/general.c */
    FwNvm *nvm;                  /* fw/nvm.c */
    FwSched *sched;              /* fw/sched.c */
    FwPkg *pkg;                  /* fw/pkg.c */
    FwDcb *dcb;                  /* fw/dcb.c */
    FwLink *link;                /* fw/link.c */
    FwSwitch *sw;                /* fw/switch.c */
    Cqp *cqp;                    /* cqp.c: the RDMA engine's control QP */
    PeHmc *hmc;                  /* hmc.c */
    PeCqs *cqs;                  /* cq.c */
    PeEqs *eqs;                  /* ceq.c */
    PeQps *qps;                  /* qp.c */
    PeWs *ws;                    /* ws.c: the RDMA work scheduler tree */
    PeMrs *mrs;                  /* mr.c: the STag table (MRs and MWs) */
    PeAhs *ahs;                  /* ah.c: address handles, multicast groups */
    PeLtab *ltab;                /* ltab.c: APBVT, quad hash, local MACs, push pages */
    PeStats *stats;              /* stats.c: statistics instances and their counters */
    RoceEngine *roce;            /* roce.c: RoCEv2 frames in and out */
    Wire *wire;                  /* wire.c: the port's frames in model time, internal loopback */
    uint64_t pf_resets;          /* PF resets performed, for tests and tracing */
    uint64_t roce_rx_dropped;    /* RoCEv2 frames the RDMA engine could not take (roce.c) */
    uint64_t rdma_teardowns;     /* CQP destroys, each followed by a leak check (cqp.c) */
    uint64_t rdma_leaked;        /* RDMA objects found alive at those checks, summed */
    uint64_t qp_suspends;        /* SUSPEND_QP ops and modifies into SQD (qp.c) */
    uint64_t qp_resumes;         /* RESUME_QP ops */
    uint64_t qp_suspend_aes;     /* suspend-complete AEs (0x900) raised; a plan may drop them */
    FaultState fault;            /* fault.c: the fault plan, its log, delayed events */
    TimingStat suspend_latency;  /* SUSPEND_QP or modify to SQD posted -> its AE posted */
    TimingStat resume_latency;   /* RESUME_QP posted -> the QP running again */
} IrdmaDev;

#endif
