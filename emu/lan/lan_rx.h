/*
 * lan_rx.h - the LAN receive engine: frames from the wire are matched against the switch's Rx
 * rules (fw/switch.c) to a VSI, steered to one of the VSI's TC 0 queues by RSS (Toeplitz over
 * addresses and TCP/UDP ports with the VSI's key and LUT, fw_switch_vsi_rss; without a LUT the
 * first queue), and written into the Rx ring the driver described in
 * QRX_CONTEXT: packet buffers, 32-byte flex NIC write-back descriptors (RXDID 2) with the
 * packet type, checksum results and a stripped VLAN tag, then the queue's interrupt
 * (QINT_RQCTL). A frame with no enabled queue or no free descriptor is dropped and counted,
 * as the hardware does.
 */
#ifndef IRDMA_EMU_LAN_RX_H
#define IRDMA_EMU_LAN_RX_H

#include "core/dev.h"

typedef struct LanRx LanRx;

/* Where RoCEv2 frames of a VSI with PE_FLTR_EN go instead of its queues: the RDMA engine's
 * receive side, which the root hands in. */
typedef void (*LanRxPeFn)(IrdmaDev *d, const uint8_t *frame, size_t len);

LanRx *lan_rx_new(IrdmaDev *d, LanRxPeFn to_pe);
void lan_rx_free(LanRx *r);
/* PF reset: every queue stops and forgets its context. */
void lan_rx_reset(LanRx *r);

/* QRX_CTRL.QENA_REQ changed: latch the queue's context, or stop it. */
void lan_rx_queue_enable(LanRx *r, unsigned q, bool ena);
/* QRX_TAIL written: descriptors up to @tail (exclusive) are posted. */
void lan_rx_tail(LanRx *r, unsigned q, uint32_t tail);

/* A frame from the wire (the host's netdev). */
void lan_rx_frame(LanRx *r, const uint8_t *frame, size_t len);

typedef struct LanRxStats {
    uint64_t frames, bytes, filtered, no_queue, no_desc, dma_errors, oversize;
} LanRxStats;

LanRxStats *lan_rx_stats(LanRx *r);

#endif
