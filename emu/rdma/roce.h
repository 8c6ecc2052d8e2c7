/*
 * roce.h - the RDMA engine's packet path. RoCEv2 frames (UDP destination port 4791) reach it
 * instead of LAN Rx when their VSI has the PE filter enabled (VSI queueing option
 * PE_FLTR_EN, which irdma sets through ice when it opens the device), as on the E810; frames
 * it sends go to the wire (wire.c), which brings those addressed to this port's own MAC back
 * to roce_rx_looped() (internal loopback).
 *
 * Receive parses (checking the ICRC of wire frames), finds the destination QP and hands
 * ACKs and READ responses to the requester (sq.c), everything else to the responder (rq.c).
 *
 * Multicast: a frame sent to a group MAC (01:00:5e:.. for IPv4, 33:33:.. for IPv6, which irdma
 * puts in the ARP entry of a multicast AH) leaves for the network and is looped back too. A UD
 * packet received (from the wire or looped) with the multicast DQPN 0xFFFFFF is replicated to
 * every QP attached to a group of its destination IP (ah.h): each takes its copy as a UD
 * receive of its own (QKey check, RQ WQE, CQE) or drops it; no group: the packet is dropped.
 */
#ifndef IRDMA_EMU_ROCE_H
#define IRDMA_EMU_ROCE_H

#include "core/dev.h"
#include "port/wire.h"
#include "rdma/ah.h"
#include "rdma/qp.h"

/*
 * Consecutive packets of one RC message that loop back inside the device under INLINE timing,
 * where nothing observes them on their way (no virtual time passes; nobody outside sees the
 * internal loopback): no frame is built or parsed. Each packet is delivered in its place in the
 * wire's receive queue as rocev2_parse() would decode its frame, its payload read in place from
 * guest memory (dma_map) when it is delivered: one copy from guest to guest where a frame costs
 * three. A device write into that memory in between first takes a copy of what the packets
 * still to be delivered carry (roce_dma_write_guard()), so they carry what a frame read at
 * transmission would have.
 *
 * Packet k of a train is @pkt (addressed by roce_send_train()) with PSN pkt.psn + k, the
 * opcode roce_train_opcode() gives (a message's packets differ only in the first and the
 * last), AckReq and SE from bits k of @ackreq and @se, and the payload's next @mtu bytes (the
 * last packet: what is left).
 */
#define ROCE_TRAIN_MAX  64         /* packets of a train: its flags are one 64-bit mask each */

typedef struct RoceTrain {
    RocePkt pkt;
    unsigned npkts, mtu;
    uint8_t first_op, middle_op, last_op;   /* BTH opcodes: packet 0, 1..npkts-2, npkts-1 */
    uint64_t ackreq, se;
} RoceTrain;

static inline uint8_t roce_train_opcode(const RoceTrain *t, unsigned k)
{
    return k == 0 ? t->first_op : k == t->npkts - 1 ? t->last_op : t->middle_op;
}

/* A train sent and not yet wholly delivered (roce.c): LoopTrain, which the wire queues
 * (wire.h). */

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
/* How many packets to @av may go as one train now: 0 unless they loop back internally under
 * INLINE timing, at most ROCE_TRAIN_MAX, and no more than the wire's queue has room for. */
unsigned roce_train_room(IrdmaDev *d, const RoceAv *av);
/* Send @t (at most roce_train_room() packets) as roce_send() would send each of its packets.
 * Its payload is @len bytes of guest memory at @gpa, which dma_map mapped (@map_len bytes) at
 * @src; the train owns the mapping from here on. */
void roce_send_train(IrdmaDev *d, const RoceAv *av, const RoceTrain *t, uint64_t gpa,
                     size_t len, const void *src, size_t map_len);
/* The wire delivers up to @max packets of @lt (wire.c); returns how many it delivered. */
unsigned roce_rx_train(IrdmaDev *d, LoopTrain *lt, unsigned max);
/* @lt is done with (delivered, or dropped by a reset). */
void roce_train_free(IrdmaDev *d, LoopTrain *lt);
/* A device write of @len bytes from @buf to @gpa is about to land: trains whose payload still
 * to be delivered lies there copy it first. Returns where the write takes its bytes from: @buf,
 * or the copy if @buf is such a payload. */
const void *roce_dma_write_guard(IrdmaDev *d, uint64_t gpa, const void *buf, size_t len);
/* The address vector of a UD send through AH @ah on @qp. */
void roce_av_from_ah(IrdmaDev *d, const PeAh *ah, const PeQp *qp, RoceAv *av);
/* A MAC as irdma holds it (MAC[0] in bits 47:40) as bytes. */
void roce_mac_bytes(uint64_t mac, uint8_t out[6]);
/* An IP address in irdma's word order (IPv4 in word 0) as bytes. */
void roce_ip_bytes(bool ipv4, const uint32_t ip[4], uint8_t out[16]);

#endif
