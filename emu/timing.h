/*
 * timing.h - the delays the device schedules its events with. Today fixed defaults; the timing
 * model (its own issue) computes them. Every asynchronous action takes its delay from here.
 */
#ifndef IRDMA_EMU_TIMING_H
#define IRDMA_EMU_TIMING_H

#include <stdint.h>

typedef struct IrdmaTiming {
    uint64_t aq_cmd_ns;       /* ATQ doorbell to the batch's completion (0: in the write) */
    uint64_t lan_tx_ns;       /* Tx doorbell to the ring being walked */
    uint64_t lan_rx_ns;       /* frame arrival to its write-back and interrupt */
    uint64_t cqp_cmd_ns;      /* CQP doorbell to its WQEs being processed (each batch of
                               * CQP_BUDGET); the driver polls register-completed ops for
                               * only ~10 ms */
    uint64_t sq_run_ns;       /* QP doorbell (or ACK) to the SQ engine running */
    uint64_t roce_loopback_ns;    /* a frame to this port's own MAC to its receive */
    uint64_t rc_rto_ns;       /* RC retransmission timeout */
} IrdmaTiming;

#define IRDMA_TIMING_DEFAULT ((IrdmaTiming) { .aq_cmd_ns = 0, .lan_tx_ns = 0, .lan_rx_ns = 0, \
                                              .cqp_cmd_ns = 0, .sq_run_ns = 0, \
                                              .roce_loopback_ns = 0, \
                                              .rc_rto_ns = 100 * 1000 * 1000 })

#endif
