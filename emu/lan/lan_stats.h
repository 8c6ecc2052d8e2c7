/*
 * lan_stats.h - the Ethernet statistics the E810 keeps per VSI (GLV_*): good octets and
 * unicast/multicast/broadcast frames received and transmitted (40-bit counters read as an L/H
 * register pair), receive discards (GLV_RDPC) and transmit errors (GLV_TEPC). The counters run
 * free: a PF reset does not clear them (ice reads the first value as its base, as it does on
 * the hardware); a device reset does.
 */
#ifndef IRDMA_EMU_LAN_STATS_H
#define IRDMA_EMU_LAN_STATS_H

#include "core/dev.h"

typedef struct LanStats LanStats;

LanStats *lan_stats_new(IrdmaDev *d);
void lan_stats_free(LanStats *s);
/* Device reset: every counter back to 0. */
void lan_stats_reset(LanStats *s);

/* VSI @vsi received / transmitted the frame @frame of @len bytes (its class from the
 * destination MAC). */
void lan_stats_rx(LanStats *s, unsigned vsi, const uint8_t *frame, size_t len);
void lan_stats_tx(LanStats *s, unsigned vsi, const uint8_t *frame, size_t len);
/* VSI @vsi's descriptors made a packet unsendable. */
void lan_stats_tx_error(LanStats *s, unsigned vsi);
/* A frame for VSI @vsi was discarded: no enabled queue or no free descriptor. */
void lan_stats_rx_discard(LanStats *s, unsigned vsi);

#endif
