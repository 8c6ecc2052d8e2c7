/*
 * lan_tx.h - the LAN transmit engine: Tx descriptor rings as ice 6.1 programs them (queue
 * context from add_txqs 0x0C30, tail doorbell QTX_COMM_DBELL), data and context descriptors,
 * checksum offload, TSO segmentation, VLAN insertion, DD write-back on RS, and the queue's
 * interrupt (QINT_TQCTL). Frames leave through the host's send_frame while the link is up.
 */
#ifndef IRDMA_EMU_LAN_TX_H
#define IRDMA_EMU_LAN_TX_H

#include "core/dev.h"

typedef struct LanTx LanTx;

LanTx *lan_tx_new(IrdmaDev *d);
void lan_tx_free(LanTx *t);
/* PF reset: every ring forgets its head. */
void lan_tx_reset(LanTx *t);
/* Tail doorbell of queue @txq. */
void lan_tx_doorbell(LanTx *t, unsigned txq, uint32_t tail);

typedef struct LanTxStats {
    uint64_t frames, bytes, dropped_link_down, bad_desc, dma_errors;
} LanTxStats;

LanTxStats *lan_tx_stats(LanTx *t);

#endif
