/*
 * roce.h - the RDMA engine's receive side. RoCEv2 frames (UDP destination port 4791) reach it
 * instead of LAN Rx when their VSI has the PE filter enabled (VSI queueing option
 * PE_FLTR_EN, which irdma sets through ice when it opens the device), as on the E810.
 * Today it counts and drops them: the transport arrives with the RoCEv2 data-path issue.
 */
#ifndef IRDMA_EMU_ROCE_H
#define IRDMA_EMU_ROCE_H

#include "device.h"

#define ROCEV2_UDP_PORT 4791

void roce_rx_frame(IrdmaDev *d, const uint8_t *frame, size_t len);

#endif
