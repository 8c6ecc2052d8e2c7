/*
 * wire.h - the port's wire: every frame between the MAC and the network, in model time.
 *
 * Frames the port transmits (LAN or RoCEv2) and frames it receives pass here. Under MODEL
 * timing a transmitted frame leaves when its payload has been read over PCIe and the frames
 * before it have serialized at the link speed, and a received frame reaches the LAN or RDMA
 * receive side when its data would be in host memory (timing.h). Under INLINE timing frames
 * leave at once and received ones are handled at once.
 *
 * RoCEv2 frames addressed to the port's own MAC come back through the receive side (the
 * E810 loops them internally), never recursively: queued, and delivered by the entry point
 * that sent them (wire_drain()) or by an event. With MAC loopback on (the driver's loopback
 * self-test) every frame for the network comes back to the LAN receive side the same way,
 * and none leaves. A RoCEv2 frame to a multicast group does both: it leaves for the network
 * and its copy comes back to the RDMA engine for the group's local members.
 */
#ifndef IRDMA_EMU_WIRE_H
#define IRDMA_EMU_WIRE_H

#include "core/dev.h"

typedef enum WireDest {
    WIRE_TO_NETWORK,
    WIRE_TO_SELF,              /* internal loopback to the RDMA engine */
    WIRE_TO_BOTH,              /* a group address: the network, and looped to the RDMA engine */
} WireDest;

typedef struct WireStats {
    uint64_t dropped;          /* frames over the queue limit, as a full FIFO drops them */
} WireStats;

typedef struct Wire Wire;

/* Looped packets that travel without a frame: the RDMA engine's (roce.h, RoceTrain); the wire
 * only queues them. */
typedef struct LoopTrain LoopTrain;

/* What the wire hands received frames to and asks about the link: installed by the root, so
 * the port knows nothing of the blocks above it. */
typedef struct WireHandlers {
    /* Frames go out and come in only while the link is up. */
    bool (*link_up)(IrdmaDev *d);
    /* The MAC loops transmitted frames back to the receive side. */
    bool (*mac_loopback)(IrdmaDev *d);
    /* A frame from the network (the LAN receive side). */
    void (*rx_frame)(IrdmaDev *d, const uint8_t *frame, size_t len);
    /* A frame the port sent to its own MAC, looped back (the RDMA engine). */
    void (*rx_looped)(IrdmaDev *d, const uint8_t *frame, size_t len);
    /* Hand on up to @max packets of @t; returns how many. */
    unsigned (*rx_train)(IrdmaDev *d, LoopTrain *t, unsigned max);
    /* @t is done with (delivered, or dropped by a reset). */
    void (*train_free)(IrdmaDev *d, LoopTrain *t);
} WireHandlers;

Wire *wire_new(IrdmaDev *d, const WireHandlers *h);
void wire_free(Wire *w);
void wire_reset(Wire *w);
WireStats *wire_stats(Wire *w);
/* The MAC's statistics registers (GLPRT_*: octets, unicast/multicast/broadcast frames and size
 * buckets, each way, of every frame that passed the MAC) back to 0: a device reset. A PF reset
 * keeps them, as the hardware does. */
void wire_stats_clear(Wire *w);

/* Transmit @frame, of which @dma_bytes were read from host memory (0: inline data, headers).
 * Returns when its last bit will have left (now under INLINE timing). */
uint64_t wire_transmit(IrdmaDev *d, const uint8_t *frame, size_t len, size_t dma_bytes,
                   WireDest dest);
/* How many looped packets the receive queue has room for. */
unsigned wire_loop_room(IrdmaDev *d);
/* Queue @npkts looped packets that travel without a frame (roce.h, RoceTrain) for
 * roce_rx_train(), as arrive() would queue their frames now: INLINE timing only, no more than
 * wire_loop_room() packets. */
void wire_loop_train(IrdmaDev *d, LoopTrain *t, unsigned npkts);
/* A frame from the network. */
void wire_receive(IrdmaDev *d, const uint8_t *frame, size_t len);
/* Deliver the looped frames that are due (at most the event queue's run budget; the rest
 * follow by event). Only from an entry point (a doorbell, an event). */
void wire_drain(IrdmaDev *d);

#endif
