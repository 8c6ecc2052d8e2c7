/*
 * rocev2.h - the RoCEv2 wire format: Ethernet (+ 802.1Q) / IPv4 or IPv6 / UDP 4791 / IB BTH,
 * the extension headers an opcode carries (RETH, AETH, DETH, ImmDt, IETH), payload, pad to a
 * multiple of 4, and the invariant CRC (ICRC).
 *
 * RocePkt is the one decoded form of a packet: rocev2_build() writes a frame from it,
 * rocev2_parse() fills it from a frame (the payload then points into the frame). The ICRC is
 * the CRC-32 of 8 bytes of ones (the masked LRH of IB), the IP header with TOS/TTL/checksum (v4)
 * or traffic class/flow label/hop limit (v6) set to ones, the UDP header with its checksum set
 * to ones, the BTH with its reserved byte set to ones, and everything after the BTH up to the
 * ICRC; it is sent least significant byte first (IBA A17.3.3, as rxe computes it).
 */
#ifndef IRDMA_EMU_ROCEV2_H
#define IRDMA_EMU_ROCEV2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/inet.h"          /* ROCEV2_UDP_PORT */

#define ROCE_ICRC_LEN        4
#define ROCE_BTH_LEN         12
#define ROCEV2_IPV4_HDR      20
#define ROCEV2_IPV6_HDR      40
#define ROCEV2_UDP_HDR       8
#define ROCE_GRH_LEN         40        /* what a UD receive buffer gets in front of the data */
#define ROCE_PKEY_DEFAULT    0xffff
#define ROCE_PSN_MASK        0xffffffu
#define ROCE_QPN_MASK        0xffffffu
#define ROCE_MCAST_QPN       0xffffffu  /* the DQPN of a UD packet to a multicast group (IBTA) */
#define ROCE_MAX_HDRS        (14 + 4 + 40 + 8 + ROCE_BTH_LEN + 16 + 4 + 8)
#define ROCE_MTU_MAX         4096
#define ROCE_FRAME_MAX       (ROCE_MAX_HDRS + ROCE_MTU_MAX + 3 + ROCE_ICRC_LEN)

/* BTH opcodes (IBA 9.2): RC and UD. */
enum {
    BTH_RC_SEND_FIRST = 0x00, BTH_RC_SEND_MIDDLE = 0x01, BTH_RC_SEND_LAST = 0x02,
    BTH_RC_SEND_LAST_IMM = 0x03, BTH_RC_SEND_ONLY = 0x04, BTH_RC_SEND_ONLY_IMM = 0x05,
    BTH_RC_WRITE_FIRST = 0x06, BTH_RC_WRITE_MIDDLE = 0x07, BTH_RC_WRITE_LAST = 0x08,
    BTH_RC_WRITE_LAST_IMM = 0x09, BTH_RC_WRITE_ONLY = 0x0a, BTH_RC_WRITE_ONLY_IMM = 0x0b,
    BTH_RC_READ_REQUEST = 0x0c, BTH_RC_READ_RESP_FIRST = 0x0d, BTH_RC_READ_RESP_MIDDLE = 0x0e,
    BTH_RC_READ_RESP_LAST = 0x0f, BTH_RC_READ_RESP_ONLY = 0x10, BTH_RC_ACK = 0x11,
    BTH_RC_SEND_LAST_INV = 0x16, BTH_RC_SEND_ONLY_INV = 0x17,
    BTH_UD_SEND_ONLY = 0x64, BTH_UD_SEND_ONLY_IMM = 0x65,
};

/* What an opcode carries and where it sits in a message. */
enum {
    BTH_HAS_RETH = 1 << 0, BTH_HAS_AETH = 1 << 1, BTH_HAS_DETH = 1 << 2,
    BTH_HAS_IMM = 1 << 3, BTH_HAS_IETH = 1 << 4, BTH_HAS_PAYLOAD = 1 << 5,
    BTH_FIRST = 1 << 6, BTH_LAST = 1 << 7,      /* ONLY = FIRST | LAST; MIDDLE = neither */
    BTH_SEND = 1 << 8, BTH_WRITE = 1 << 9, BTH_READ_REQ = 1 << 10, BTH_READ_RESP = 1 << 11,
    BTH_ACK = 1 << 12, BTH_UD = 1 << 13,
};
/* Per opcode: its BTH_* flags (0 for one the engine does not implement), and the bytes of the
 * extended headers its flags name (DETH, RETH, AETH, ImmDt, IETH). Every packet reads them
 * several times: the lookups are inline. */
extern const uint16_t rocev2_opcode_flag_table[256];
extern const uint8_t rocev2_ext_len_table[256];

/* The BTH_* flags of @opcode, 0 for one the engine does not implement. */
static inline unsigned rocev2_opcode_flags(uint8_t opcode)
{
    return rocev2_opcode_flag_table[opcode];
}

/* AETH syndrome (IBA 9.7.5.1): ACK with credits, RNR NAK with a timer, NAK with a code. */
#define AETH_ACK             0x1f      /* ACK, credits field "invalid": no end-to-end credit */
#define AETH_RNR_NAK(timer)  (0x20 | ((timer) & 0x1f))
#define AETH_NAK_PSN_SEQ     0x60
#define AETH_NAK_INV_REQ     0x61
#define AETH_NAK_REM_ACCESS  0x62
#define AETH_NAK_REM_OP      0x63
#define AETH_KIND(s)         ((s) >> 5)  /* 0 ACK, 1 RNR NAK, 3 NAK */
#define AETH_KIND_ACK        0
#define AETH_KIND_RNR        1
#define AETH_KIND_NAK        3

typedef struct RocePkt {
    uint8_t dmac[6], smac[6];
    bool vlan;
    uint16_t vlan_tci;
    bool ipv4;
    uint8_t sip[16], dip[16];          /* IPv4: the first 4 bytes */
    uint8_t tos;                       /* IPv4 TOS, IPv6 traffic class */
    uint8_t ttl;                       /* hop limit */
    uint32_t flow_label;
    uint16_t sport;
    uint8_t opcode;
    bool se, ackreq;
    uint16_t pkey;
    uint32_t dqpn, psn;
    uint64_t reth_va;
    uint32_t reth_rkey, reth_len;
    uint8_t aeth_syndrome;
    uint32_t aeth_msn;
    uint32_t deth_qkey, deth_sqpn;
    uint32_t imm;                      /* ImmDt as sent (host order of the big-endian field) */
    uint32_t ieth_rkey;
    const uint8_t *payload;
    size_t payload_len;
    const uint8_t *l3;                 /* parse: the IP header, for a UD receive's GRH */
} RocePkt;

/* Write @p as a frame into @out (at least ROCE_FRAME_MAX bytes); returns its length. A payload
 * already in place (@p->payload at @out + rocev2_payload_offset(@p)) is not copied again. */
size_t rocev2_build(const RocePkt *p, uint8_t *out);
/* The same for internal loopback, whose frames never leave the device and are parsed without
 * checking the ICRC: the two passes over the packet for the ICRC and (IPv6) the UDP checksum
 * are left out, both fields zero. */
size_t rocev2_build_looped(const RocePkt *p, uint8_t *out);

/* The Ethernet header (with its 802.1Q tag) in front of @p's IP header. */
static inline size_t rocev2_l2_len(const RocePkt *p)
{
    return ETH_HLEN + (p->vlan ? VLAN_HLEN : 0);
}

/* The IP, UDP, BTH and extended transport headers of a packet with opcode @opcode. */
static inline size_t rocev2_hdrs_len(bool ipv4, uint8_t opcode)
{
    return (ipv4 ? ROCEV2_IPV4_HDR : ROCEV2_IPV6_HDR) + ROCEV2_UDP_HDR + ROCE_BTH_LEN +
           rocev2_ext_len_table[opcode];
}

/* Where the payload of @p (its opcode and addressing set) starts in the frame. */
static inline size_t rocev2_payload_offset(const RocePkt *p)
{
    return rocev2_l2_len(p) + rocev2_hdrs_len(p->ipv4, p->opcode);
}

/* The payload bytes @p carries (none if its opcode carries no payload), and the pad that
 * makes @pay of them a multiple of 4. */
static inline size_t rocev2_payload_bytes(const RocePkt *p)
{
    return rocev2_opcode_flags(p->opcode) & BTH_HAS_PAYLOAD ? p->payload_len : 0;
}

static inline unsigned rocev2_pad_bytes(size_t pay)
{
    return (4 - pay % 4) % 4;
}

/* The IP datagram (IP header to ICRC) of a packet with opcode @opcode and @payload_len
 * payload bytes (if its opcode carries any). */
static inline size_t rocev2_ip_len(bool ipv4, uint8_t opcode, size_t payload_len)
{
    size_t pay = rocev2_opcode_flags(opcode) & BTH_HAS_PAYLOAD ? payload_len : 0;

    return rocev2_hdrs_len(ipv4, opcode) + pay + rocev2_pad_bytes(pay) + ROCE_ICRC_LEN;
}

/* The length of the frame rocev2_build() (or rocev2_build_looped()) makes of @p. */
static inline size_t rocev2_frame_len(const RocePkt *p)
{
    return rocev2_l2_len(p) + rocev2_ip_len(p->ipv4, p->opcode, p->payload_len);
}

/* Make @p what rocev2_parse() decodes from the frame rocev2_build() makes of it: every field
 * cut to its width on the wire, those its opcode does not carry cleared; the payload stays
 * where it is, and there is no IP header (l3 NULL). Internally looped packets that travel
 * without a frame (roce.h, RoceTrain) arrive so. */
void rocev2_as_parsed(RocePkt *p);

typedef enum RoceParseStatus {
    ROCE_PARSE_OK,
    ROCE_PARSE_NOT_ROCE,       /* not IPv4/IPv6 UDP to port 4791 */
    ROCE_PARSE_MALFORMED,      /* lengths, version, pad or an unknown opcode */
    ROCE_PARSE_BAD_ICRC,
} RoceParseStatus;

/* Decode @frame; @check_icrc: verify the ICRC (frames from the wire). */
RoceParseStatus rocev2_parse(const uint8_t *frame, size_t len, RocePkt *p, bool check_icrc);

/* PSN arithmetic modulo 2^24: a - b as a signed distance. */
static inline int32_t psn_diff(uint32_t a, uint32_t b)
{
    return (int32_t)((a - b) << 8) >> 8;
}

#endif
