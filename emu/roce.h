/*
 * roce.h - the RDMA engine's packet path. RoCEv2 frames (UDP destination port 4791) reach it
 * instead of LAN Rx when their VSI has the PE filter enabled (VSI queueing option
 * PE_FLTR_EN, which irdma sets through ice when it opens the device), as on the E810; frames
 * it sends go to the wire (wire.c), which brings those addressed to this port's own MAC back
 * to roce_rx_looped() (internal loopback).
 *
 * Receive parses (checking the ICRC of wire frames), finds the destination QP and hands
 * ACKs and READ responses to the requester (sq.c), everything else to the responder (rq.c).
 */
#ifndef IRDMA_EMU_ROCE_H
#define IRDMA_EMU_ROCE_H

#include "device.h"
#include "ah.h"
#include "qp.h"

typedef struct RoceStats {
    uint64_t tx_frames, rx_frames, loopback_frames;
    uint64_t rx_bad_icrc, rx_malformed, rx_no_qp;
} RoceStats;

typedef struct RoceEngine RoceEngine;

RoceEngine *roce_new(IrdmaDev *d);
void roce_free(RoceEngine *r);
RoceStats *roce_stats(RoceEngine *r);

/* A frame from the wire. */
void roce_rx_frame(IrdmaDev *d, const uint8_t *frame, size_t len);
/* A frame this engine sent to its own port's MAC, back from the wire. */
void roce_rx_looped(IrdmaDev *d, const uint8_t *frame, size_t len);
/* Address @p with @av and send it; @dma_bytes of it were read from host memory (the payload,
 * unless inline). Returns when its last bit has left (timing.h). */
uint64_t roce_send(IrdmaDev *d, const RoceAv *av, RocePkt *p, size_t dma_bytes);
/* Address @p (its opcode set) with @av and return where its payload goes in the frame the next
 * roce_send() builds: a payload read straight there is not copied again. */
uint8_t *roce_tx_payload(IrdmaDev *d, const RoceAv *av, RocePkt *p);
/* The address vector of a UD send through AH @ah on @qp. */
void roce_av_from_ah(IrdmaDev *d, const PeAh *ah, const PeQp *qp, RoceAv *av);
/* A MAC as irdma holds it (MAC[0] in bits 47:40) as bytes. */
void roce_mac_bytes(uint64_t mac, uint8_t out[6]);
/* An IP address in irdma's word order (IPv4 in word 0) as bytes. */
void roce_ip_bytes(bool ipv4, const uint32_t ip[4], uint8_t out[16]);

#endif
