/*
 * ah.h - UD addressing: address handles (CREATE/MODIFY/DESTROY_ADDR_HANDLE, 0x1c-0x1e) and
 * multicast groups (CREATE/MODIFY/DESTROY_MCAST_GRP, 0x26-0x28).
 *
 * An AH is the address vector a UD send WQE names by index (AHID): source MAC, destination MAC
 * through the ARP table (ARPINDEX), IPv4 or IPv6 source/destination, TC/TOS, hop limit, flow
 * label, VLAN tag, PD. Its context lives in HMC (HMC_FSIAV), so the index must be backed.
 * CREATE needs a free index, MODIFY and DESTROY an existing one (irdma never sends MODIFY).
 * A multicast group (index < MG_MAX) holds the group address and the QPs attached to it,
 * read from the 8-entry context buffer the WQE names; irdma recreates it with MODIFY on every
 * attach and detach. A UD packet to the multicast QPN whose destination IP is a group's goes
 * to every QP attached to every group of that address (roce.c).
 */
#ifndef IRDMA_EMU_AH_H
#define IRDMA_EMU_AH_H

#include "rdma/pe.h"

typedef struct PeAh {
    uint32_t idx;
    uint32_t pd;               /* PDINDEXLO | PDINDEXHI << 16 */
    uint64_t src_mac;          /* MAC[0] in bits 47:40 */
    uint16_t arp_idx;          /* destination MAC: cqp_arp_lookup() */
    bool ipv4;
    uint32_t dest_ip[4];       /* IPv4: [0]; IPv6: words 0..3 as irdma holds them */
    uint32_t src_ip[4];
    uint8_t tc;                /* TC / TOS (DSCP << 2 | ECN) */
    uint8_t hop_limit;
    uint32_t flow_label;
    bool insert_vlan;
    uint16_t vlan_tag;         /* PCP | VID */
    bool loopback;
} PeAh;

typedef struct PeMcgMember {
    uint32_t qp;
    uint16_t dest_port;
} PeMcgMember;

typedef struct PeMcg {
    uint32_t idx;
    uint64_t mac;              /* MAC[0] in bits 47:40 */
    bool ipv4;
    uint32_t ip[4];
    bool vlan_valid;
    uint16_t vlan_id;
    uint16_t qs_handle;
    unsigned members;
    PeMcgMember member[MG_CTX_ENTRIES];
} PeMcg;

typedef struct PeAhs PeAhs;

PeAhs *ah_block_new(IrdmaDev *d);
void ah_block_free(PeAhs *ahs);
void ah_block_reset(PeAhs *ahs);

extern const CqpOpTable ah_cqp_ops;

const PeAh *ah_lookup(IrdmaDev *d, uint32_t idx);
const PeMcg *mcg_lookup(IrdmaDev *d, uint32_t idx);
unsigned ah_count(IrdmaDev *d);
unsigned mcg_count(IrdmaDev *d);
/* The QPs attached to the groups whose address is @ip (irdma's word order, IPv4 in word 0) of
 * the @ipv4 family, each once, appended to @qps (uint32_t); returns how many groups matched. */
unsigned mcg_members_of(IrdmaDev *d, bool ipv4, const uint32_t ip[4], GArray *qps);

#endif
