/*
 * lan.h - LAN queue registers: the Rx queue contexts the driver writes through QRX_CONTEXT,
 * the Rx queue enable handshake (QRX_CTRL.QENA_REQ -> QENA_STAT), Rx tails, Tx doorbells,
 * per-queue interrupt causes, and the port/PF registers ice programs beside them. Tx doorbells
 * drive lan_tx.c; queue enables and tails drive lan_rx.c.
 */
#ifndef IRDMA_EMU_LAN_H
#define IRDMA_EMU_LAN_H

#include "core/dev.h"

void lan_block_init(IrdmaDev *d);
/* PF reset: every queue disabled, contexts and doorbells cleared. */
void lan_pf_reset(IrdmaDev *d);

#endif
