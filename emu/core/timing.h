/*
 * timing.h - the timing model: when each device action completes, in virtual-clock ns.
 *
 * Two modes. MODEL delivers every completion at its modelled time: the admin queue's firmware
 * answers one command at a time, the CQP one WQE at a time, the SQ engine fetches WQEs a PCIe
 * round trip after the doorbell, payloads cross a DMA engine of PCIe bandwidth, frames
 * serialize on the wire at the link speed, and received frames are placed after the receive
 * DMA. INLINE does everything at once, in the doorbell write or the next event: the fastest
 * under TCG without -icount, where the virtual clock is host time and a guest runs orders of
 * magnitude slower than the hardware anyway (docs/timing.md).
 *
 * The parameters are one table (timing_params[]): name, default, range, unit and the source or
 * assumption behind the default. The QEMU glue makes each a device property.
 */
#ifndef IRDMA_EMU_TIMING_H
#define IRDMA_EMU_TIMING_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum IrdmaTimingMode {
    TIMING_INLINE,
    TIMING_MODEL,
} IrdmaTimingMode;

typedef struct IrdmaTimingParams {
    uint64_t clock_mhz;            /* the engines' clock: converts the *_cycles costs */
    uint64_t aq_cmd_ns;            /* firmware: one admin command */
    uint64_t aq_buf_ns_per_kib;    /* firmware: each KiB of a command's indirect buffer */
    uint64_t cqp_wqe_cycles;       /* a CQP WQE of no other class */
    uint64_t cqp_qp_cycles;        /* CQP: create, modify, destroy, suspend or resume a QP */
    uint64_t cqp_hmc_cycles;       /* CQP: HMC set-up (function table, FPM query/commit) */
    uint64_t wqe_cycles;           /* SQ: decode and schedule one WQE */
    uint64_t pkt_cycles;           /* one packet through the protocol engine, either way */
    uint64_t pcie_read_ns;         /* a DMA read's round trip (descriptor, WQE, payload) */
    uint64_t pcie_write_ns;        /* a posted DMA write until host memory has it */
    uint64_t pcie_mbps;            /* DMA bandwidth, each direction */
    uint64_t qp_mbps;              /* one QP's SQ engine: payload it issues per second */
    uint64_t wire_ns;              /* MAC, PHY and cable to the far end's MAC */
    uint64_t rc_rto_ns;            /* RC retransmission timeout (both modes) */
} IrdmaTimingParams;

typedef struct TimingParamInfo {
    const char *name;              /* the device property is "timing-" + name */
    size_t offset;                 /* in IrdmaTimingParams */
    uint64_t def, min, max;
    const char *unit;
    const char *source;            /* where the default comes from */
} TimingParamInfo;

extern const TimingParamInfo timing_params[];
extern const size_t timing_param_count;

/* Every parameter at its default. */
void timing_params_default(IrdmaTimingParams *p);
uint64_t *timing_param_ptr(IrdmaTimingParams *p, const TimingParamInfo *info);
/* False (with @errp naming the parameter and value) if one is out of range. */
bool timing_params_valid(const IrdmaTimingParams *p, GError **errp);
/* "model" / "inline"; false if @s is neither. */
bool timing_mode_parse(const char *s, IrdmaTimingMode *mode);

/* A pipelined unit (a DMA direction, the wire): busy until free_at. */
typedef struct TimingUnit {
    uint64_t free_at;
} TimingUnit;

typedef struct IrdmaTiming {
    IrdmaTimingMode mode;
    IrdmaTimingParams p;
    uint64_t link_mbps;
    TimingUnit tx_dma, rx_dma, wire;
} IrdmaTiming;

/* Latencies the device measured on its own clock (count, sum, extremes) for QOM. */
typedef struct TimingStat {
    uint64_t count, total_ns, min_ns, max_ns;
} TimingStat;

void timing_stat_add(TimingStat *s, uint64_t ns);

void timing_init(IrdmaTiming *t, IrdmaTimingMode mode, const IrdmaTimingParams *p,
                 uint64_t link_mbps);
/* Device reset: every unit idle. */
void timing_reset(IrdmaTiming *t);

/* @cycles of the engines' clock, in ns (in either mode). */
uint64_t timing_cycles_ns(const IrdmaTiming *t, uint64_t cycles);

/* The cost classes of CQP WQEs (the CQP engine classifies its opcodes). */
typedef enum TimingCqpClass {
    TIMING_CQP_OTHER,              /* cqp_wqe_cycles */
    TIMING_CQP_QP,                 /* cqp_qp_cycles: create, modify, destroy, suspend, resume */
    TIMING_CQP_HMC,                /* cqp_hmc_cycles: SDs, FPM query/commit, HMC pages */
} TimingCqpClass;

/* Delays from now (0 in INLINE mode). */
uint64_t timing_aq_cmd_ns(const IrdmaTiming *t, uint16_t buf_len);
uint64_t timing_cqp_wqe_ns(const IrdmaTiming *t, TimingCqpClass cls);
uint64_t timing_sq_fetch_ns(const IrdmaTiming *t);
uint64_t timing_desc_fetch_ns(const IrdmaTiming *t);
/* A QP's SQ engine issues payload at qp_mbps: how long from @now until @qp may issue its next
 * packet (0 in INLINE mode), and a packet of @payload_bytes issued at @now. */
uint64_t timing_qp_wait_ns(const IrdmaTiming *t, const TimingUnit *qp, uint64_t now);
void timing_qp_issue(IrdmaTiming *t, TimingUnit *qp, uint64_t now, size_t payload_bytes);
/* Absolute times. A frame handed to the transmit side at @now with @dma_bytes of payload to
 * read from host memory: when its last bit has left (it reserves the DMA engine and the wire). */
uint64_t timing_tx_frame(IrdmaTiming *t, uint64_t now, size_t dma_bytes, size_t frame_len);
/* A frame whose last bit arrived at @now: when its data and completion are in host memory. */
uint64_t timing_rx_frame(IrdmaTiming *t, uint64_t now, size_t frame_len);
/* The wire's backlog at @now: how long a frame handed over now waits before it starts. */
uint64_t timing_wire_backlog_ns(const IrdmaTiming *t, uint64_t now);

#endif
