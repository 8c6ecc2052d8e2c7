/*
 * stats.h - the RDMA engine's statistics: MANAGE_STATS (0x2d) and GATHER_STATS (0x2e), and the
 * counters the packet path (roce.c) and the requester (sq.c) add to.
 *
 * Counters are kept per statistics instance. Instance 0 (STATS_INST_FN) is the function's
 * own: GATHER_STATS without USE_INST reads it, and it is what irdma reads for the PF (every
 * kernel from 6.1 to 7.3 asks for no instance there). MANAGE_STATS allocates the others (the
 * lowest free from 1) and frees them; a QP whose context sets USESTATSINSTANCE counts in the
 * instance its STAT_INDEX names, every other QP, and every frame no QP takes, in instance 0.
 *
 * What is counted, as the RoCEv2 packets pass:
 *   ip4/ip6 In/Out Pkts and Octets  every RoCEv2 packet sent and received; octets are the IP
 *                                   datagram's (IP header to ICRC), by the IP version
 *   ip4/ip6 In/Out McastPkts, Octs  the part of those sent to a multicast IP address (224/4,
 *                                   ff00::/8): a UD datagram to a group, counted once per
 *                                   frame however many QPs take a copy
 *   RxUDP, TxUDP                    the same packets (each is one UDP datagram)
 *   ip4/ip6 InDiscards              received frames the engine drops before a QP takes them:
 *                                   bad ICRC, malformed, no such QP (or of the other type)
 *   In/Out RdmaWrites, RdmaSends    messages: the FIRST or ONLY packet of a WRITE or SEND
 *   In/Out RdmaReads                READ requests
 *   RetransSegs                     packets the requester sends again (timeout, sequence NAK,
 *                                   RNR NAK, lost READ response): the layout's one
 *                                   retransmission counter, which RoCE traffic reuses
 *   RdmaBnd, RdmaInv                memory window binds, invalidates (local and remote)
 * Counters wrap at their width in the layout (48 or 32 bits). Not modelled, so always 0:
 * fragments, truncation, no-route, VLAN errors, TCP segments and errors (iWARP),
 * ECN marks and CNPs (no congestion control).
 */
#ifndef IRDMA_EMU_STATS_H
#define IRDMA_EMU_STATS_H

#include "rdma/pe.h"
#include "rdma/rocev2.h"

#define STATS_INST_FN  0           /* the function's own instance */

typedef enum StatsCounter {
    STATS_IP4_RX_OCTS, STATS_IP4_RX_PKTS, STATS_IP4_RX_DISCARDS,
    STATS_IP6_RX_OCTS, STATS_IP6_RX_PKTS, STATS_IP6_RX_DISCARDS,
    STATS_IP4_TX_OCTS, STATS_IP4_TX_PKTS, STATS_IP6_TX_OCTS, STATS_IP6_TX_PKTS,
    STATS_IP4_RX_MC_OCTS, STATS_IP4_RX_MC_PKTS, STATS_IP6_RX_MC_OCTS, STATS_IP6_RX_MC_PKTS,
    STATS_IP4_TX_MC_OCTS, STATS_IP4_TX_MC_PKTS, STATS_IP6_TX_MC_OCTS, STATS_IP6_TX_MC_PKTS,
    STATS_RETRANSMITS, STATS_UDP_RX_PKTS, STATS_UDP_TX_PKTS,
    STATS_RDMA_RX_WRITES, STATS_RDMA_RX_READS, STATS_RDMA_RX_SENDS,
    STATS_RDMA_TX_WRITES, STATS_RDMA_TX_READS, STATS_RDMA_TX_SENDS,
    STATS_RDMA_BINDS, STATS_RDMA_INVALIDATES,
    STATS_NUM_COUNTERS
} StatsCounter;

typedef struct PeStats PeStats;

PeStats *stats_new(IrdmaDev *d);
void stats_free(PeStats *s);
/* PF reset: every instance freed, every counter 0. */
void stats_reset(PeStats *s);

extern const CqpOpTable stats_cqp_ops;

/* Statistics instance @idx was allocated by MANAGE_STATS. */
bool stats_inst_allocated(IrdmaDev *d, unsigned idx);
/* Instances allocated by MANAGE_STATS and not freed. */
unsigned stats_inst_count(IrdmaDev *d);

/* Add @n to counter @c of instance @inst (out of range: ignored). */
void stats_count(IrdmaDev *d, unsigned inst, StatsCounter c, uint64_t n);
/* @n packets addressed as @p, each with opcode @opcode and @payload_len payload bytes, were
 * received (@rx) or sent: the IP, UDP and RDMA counters of @inst. */
void stats_packets_as(IrdmaDev *d, unsigned inst, bool rx, const RocePkt *p, uint8_t opcode,
                      size_t payload_len, uint64_t n);

/* @n packets like @p (its opcode, addressing and payload length). */
static inline void stats_packets(IrdmaDev *d, unsigned inst, bool rx, const RocePkt *p,
                                 uint64_t n)
{
    stats_packets_as(d, inst, rx, p, p->opcode, p->payload_len, n);
}
/* A received frame of @ip_len IP octets was dropped before a QP took it. */
void stats_rx_dropped(IrdmaDev *d, bool ipv4, size_t ip_len);

#endif
