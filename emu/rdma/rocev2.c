/* rocev2.c - RoCEv2 frames: build, parse, ICRC (see rocev2.h). */
#include <string.h>
#include "rdma/rocev2.h"
#include "core/crc32.h"
#include "core/inet.h"
#include "core/le.h"

#define IPV4_DF        0x4000
#define IPPROTO_UDP_   17
#define RETH_LEN       16
#define AETH_LEN       4
#define DETH_LEN       8
#define IMM_LEN        4
#define IETH_LEN       4
#define IPV6_FLOW_LABEL_MASK 0xfffffu
#define AETH_MSN_MASK  0xffffffu

#define PAY  BTH_HAS_PAYLOAD
#define F    BTH_FIRST
#define L    BTH_LAST
/* Every opcode the engine implements, with its flags. */
#define ROCEV2_OPCODES(X) \
    X(BTH_RC_SEND_FIRST, BTH_SEND | PAY | F) \
    X(BTH_RC_SEND_MIDDLE, BTH_SEND | PAY) \
    X(BTH_RC_SEND_LAST, BTH_SEND | PAY | L) \
    X(BTH_RC_SEND_LAST_IMM, BTH_SEND | PAY | L | BTH_HAS_IMM) \
    X(BTH_RC_SEND_ONLY, BTH_SEND | PAY | F | L) \
    X(BTH_RC_SEND_ONLY_IMM, BTH_SEND | PAY | F | L | BTH_HAS_IMM) \
    X(BTH_RC_SEND_LAST_INV, BTH_SEND | PAY | L | BTH_HAS_IETH) \
    X(BTH_RC_SEND_ONLY_INV, BTH_SEND | PAY | F | L | BTH_HAS_IETH) \
    X(BTH_RC_WRITE_FIRST, BTH_WRITE | PAY | F | BTH_HAS_RETH) \
    X(BTH_RC_WRITE_MIDDLE, BTH_WRITE | PAY) \
    X(BTH_RC_WRITE_LAST, BTH_WRITE | PAY | L) \
    X(BTH_RC_WRITE_LAST_IMM, BTH_WRITE | PAY | L | BTH_HAS_IMM) \
    X(BTH_RC_WRITE_ONLY, BTH_WRITE | PAY | F | L | BTH_HAS_RETH) \
    X(BTH_RC_WRITE_ONLY_IMM, BTH_WRITE | PAY | F | L | BTH_HAS_RETH | BTH_HAS_IMM) \
    X(BTH_RC_READ_REQUEST, BTH_READ_REQ | F | L | BTH_HAS_RETH) \
    X(BTH_RC_READ_RESP_FIRST, BTH_READ_RESP | PAY | F | BTH_HAS_AETH) \
    X(BTH_RC_READ_RESP_MIDDLE, BTH_READ_RESP | PAY) \
    X(BTH_RC_READ_RESP_LAST, BTH_READ_RESP | PAY | L | BTH_HAS_AETH) \
    X(BTH_RC_READ_RESP_ONLY, BTH_READ_RESP | PAY | F | L | BTH_HAS_AETH) \
    X(BTH_RC_ACK, BTH_ACK | F | L | BTH_HAS_AETH) \
    X(BTH_UD_SEND_ONLY, BTH_SEND | BTH_UD | PAY | F | L | BTH_HAS_DETH) \
    X(BTH_UD_SEND_ONLY_IMM, BTH_SEND | BTH_UD | PAY | F | L | BTH_HAS_DETH | BTH_HAS_IMM)
#define EXT_LEN(fl) (((fl) & BTH_HAS_DETH ? DETH_LEN : 0) + ((fl) & BTH_HAS_RETH ? RETH_LEN : 0) + \
                     ((fl) & BTH_HAS_AETH ? AETH_LEN : 0) + ((fl) & BTH_HAS_IMM ? IMM_LEN : 0) + \
                     ((fl) & BTH_HAS_IETH ? IETH_LEN : 0))
#define FLAGS_OF(op, fl) [op] = (fl),
#define EXT_LEN_OF(op, fl) [op] = EXT_LEN(fl),
const uint16_t rocev2_opcode_flag_table[256] = { ROCEV2_OPCODES(FLAGS_OF) };
const uint8_t rocev2_ext_len_table[256] = { ROCEV2_OPCODES(EXT_LEN_OF) };
#undef FLAGS_OF
#undef EXT_LEN_OF
#undef EXT_LEN
#undef ROCEV2_OPCODES
#undef PAY
#undef F
#undef L

#define LRH_ONES       8         /* the masked LRH: ones in front of the IP header */

/* The ICRC over @l3 (IP header onwards) up to @end (exclusive), masked as rocev2.h says. */
static uint32_t icrc(const uint8_t *l3, bool ipv4, const uint8_t *end)
{
    size_t ip = ipv4 ? ROCEV2_IPV4_HDR : ROCEV2_IPV6_HDR;
    size_t hdrs = ip + ROCEV2_UDP_HDR + ROCE_BTH_LEN;
    size_t n = LRH_ONES + hdrs, rest = end - (l3 + hdrs), more;
    /* The ones, the masked headers and what follows them up to a whole fold: one CRC call for
     * the block, one for the rest of the packet, and no short tail between the two. */
    uint8_t block[LRH_ONES + ROCEV2_IPV6_HDR + ROCEV2_UDP_HDR + ROCE_BTH_LEN + EMU_CRC32_BLOCK];
    uint8_t *masked = block + LRH_ONES;
    uint32_t crc;

    more = (EMU_CRC32_BLOCK - n % EMU_CRC32_BLOCK) % EMU_CRC32_BLOCK;
    more = more < rest ? more : rest;
    memset(block, 0xff, LRH_ONES);
    memcpy(masked, l3, hdrs + more);
    if (ipv4) {
        masked[1] = 0xff;                      /* TOS */
        masked[8] = 0xff;                      /* TTL */
        masked[10] = masked[11] = 0xff;        /* header checksum */
    } else {
        masked[0] |= 0x0f;                     /* traffic class and flow label */
        masked[1] = masked[2] = masked[3] = 0xff;
        masked[7] = 0xff;                      /* hop limit */
    }
    masked[ip + 6] = masked[ip + 7] = 0xff;    /* UDP checksum */
    masked[ip + ROCEV2_UDP_HDR + 4] = 0xff;    /* BTH resv8a */
    crc = emu_crc32(0, block, n + more);
    return emu_crc32(crc, l3 + hdrs + more, rest - more);
}

/* The one builder; @to_wire: a frame for the network, with its ICRC and IPv6 UDP checksum. */
static size_t build(const RocePkt *p, uint8_t *out, bool to_wire)
{
    unsigned fl = rocev2_opcode_flags(p->opcode);
    size_t pay = rocev2_payload_bytes(p);
    unsigned pad = rocev2_pad_bytes(pay);
    size_t l4 = ROCEV2_UDP_HDR + ROCE_BTH_LEN + rocev2_ext_len_table[p->opcode] + pay + pad +
                ROCE_ICRC_LEN;
    uint8_t *b = out, *l3, *udp;

    memcpy(b, p->dmac, 6);
    memcpy(b + 6, p->smac, 6);
    b += 12;
    if (p->vlan) {
        put_be16(b, ETH_P_8021Q);
        put_be16(b + 2, p->vlan_tci);
        b += VLAN_HLEN;
    }
    put_be16(b, p->ipv4 ? ETH_P_IPV4 : ETH_P_IPV6);
    l3 = b += 2;
    if (p->ipv4) {
        memset(b, 0, ROCEV2_IPV4_HDR);
        b[0] = 0x45;
        b[1] = p->tos;
        put_be16(b + 2, ROCEV2_IPV4_HDR + l4);
        put_be16(b + 6, IPV4_DF);
        b[8] = p->ttl;
        b[9] = IPPROTO_UDP_;
        memcpy(b + 12, p->sip, 4);
        memcpy(b + 16, p->dip, 4);
        put_be16(b + 10, csum_fold(csum_add(0, b, ROCEV2_IPV4_HDR)));
        b += ROCEV2_IPV4_HDR;
    } else {
        put_be32(b, (6u << 28) | ((uint32_t)p->tos << 20) | (p->flow_label & IPV6_FLOW_LABEL_MASK));
        put_be16(b + 4, l4);
        b[6] = IPPROTO_UDP_;
        b[7] = p->ttl;
        memcpy(b + 8, p->sip, 16);
        memcpy(b + 24, p->dip, 16);
        b += ROCEV2_IPV6_HDR;
    }
    udp = b;
    put_be16(b, p->sport);
    put_be16(b + 2, ROCEV2_UDP_PORT);
    put_be16(b + 4, l4);
    put_be16(b + 6, 0);
    b += ROCEV2_UDP_HDR;
    b[0] = p->opcode;
    b[1] = (p->se ? 0x80 : 0) | (pad << 4);
    put_be16(b + 2, p->pkey);
    put_be32(b + 4, p->dqpn & ROCE_QPN_MASK);
    put_be32(b + 8, (p->ackreq ? 0x80000000u : 0) | (p->psn & ROCE_PSN_MASK));
    b += ROCE_BTH_LEN;
    if (fl & BTH_HAS_DETH) {
        put_be32(b, p->deth_qkey);
        put_be32(b + 4, p->deth_sqpn & ROCE_QPN_MASK);
        b += DETH_LEN;
    }
    if (fl & BTH_HAS_RETH) {
        put_be32(b, p->reth_va >> 32);
        put_be32(b + 4, p->reth_va);
        put_be32(b + 8, p->reth_rkey);
        put_be32(b + 12, p->reth_len);
        b += RETH_LEN;
    }
    if (fl & BTH_HAS_AETH) {
        put_be32(b, ((uint32_t)p->aeth_syndrome << 24) | (p->aeth_msn & AETH_MSN_MASK));
        b += AETH_LEN;
    }
    if (fl & BTH_HAS_IMM) {
        put_be32(b, p->imm);
        b += IMM_LEN;
    }
    if (fl & BTH_HAS_IETH) {
        put_be32(b, p->ieth_rkey);
        b += IETH_LEN;
    }
    if (pay && p->payload != b) {
        memcpy(b, p->payload, pay);
    }
    b += pay;
    memset(b, 0, pad);
    b += pad;
    /* The ICRC does not cover the UDP checksum, which (IPv6) covers the ICRC. */
    st32(b, to_wire ? icrc(l3, p->ipv4, b) : 0);
    b += ROCE_ICRC_LEN;
    if (!p->ipv4 && to_wire) {
        uint32_t sum = csum_add(IPPROTO_UDP_ + l4, l3 + 8, 32);
        uint16_t c = csum_fold(csum_add(sum, udp, b - udp));

        put_be16(udp + 6, c ? c : 0xffff);
    }
    return b - out;
}

size_t rocev2_build(const RocePkt *p, uint8_t *out)
{
    return build(p, out, true);
}

size_t rocev2_build_looped(const RocePkt *p, uint8_t *out)
{
    return build(p, out, false);
}

void rocev2_as_parsed(RocePkt *p)
{
    unsigned fl = rocev2_opcode_flags(p->opcode);

    if (!p->vlan) {
        p->vlan_tci = 0;
    }
    if (p->ipv4) {
        memset(p->sip + 4, 0, sizeof(p->sip) - 4);
        memset(p->dip + 4, 0, sizeof(p->dip) - 4);
        p->flow_label = 0;
    } else {
        p->flow_label &= IPV6_FLOW_LABEL_MASK;
    }
    p->dqpn &= ROCE_QPN_MASK;
    p->psn &= ROCE_PSN_MASK;
    if (fl & BTH_HAS_DETH) {
        p->deth_sqpn &= ROCE_QPN_MASK;
    } else {
        p->deth_qkey = p->deth_sqpn = 0;
    }
    if (!(fl & BTH_HAS_RETH)) {
        p->reth_va = 0;
        p->reth_rkey = p->reth_len = 0;
    }
    if (fl & BTH_HAS_AETH) {
        p->aeth_msn &= AETH_MSN_MASK;
    } else {
        p->aeth_syndrome = 0;
        p->aeth_msn = 0;
    }
    if (!(fl & BTH_HAS_IMM)) {
        p->imm = 0;
    }
    if (!(fl & BTH_HAS_IETH)) {
        p->ieth_rkey = 0;
    }
    p->payload_len = rocev2_payload_bytes(p);
    p->l3 = NULL;
}

RoceParseStatus rocev2_parse(const uint8_t *frame, size_t len, RocePkt *p, bool check_icrc)
{
    const uint8_t *b = frame, *end, *l3, *icrc_at;
    uint16_t type;
    unsigned fl, pad;
    size_t l4;

    memset(p, 0, sizeof(*p));
    if (len < ETH_HLEN) {
        return ROCE_PARSE_NOT_ROCE;
    }
    memcpy(p->dmac, b, 6);
    memcpy(p->smac, b + 6, 6);
    type = get_be16(b + 12);
    b += ETH_HLEN;
    if (type == ETH_P_8021Q) {
        if (len < ETH_HLEN + VLAN_HLEN) {
            return ROCE_PARSE_NOT_ROCE;
        }
        p->vlan = true;
        p->vlan_tci = get_be16(b);
        type = get_be16(b + 2);
        b += VLAN_HLEN;
    }
    l3 = b;
    end = frame + len;
    if (type == ETH_P_IPV4) {
        if (end - b < ROCEV2_IPV4_HDR || b[0] != 0x45 || b[9] != IPPROTO_UDP_) {
            return ROCE_PARSE_NOT_ROCE;
        }
        p->ipv4 = true;
        p->tos = b[1];
        p->ttl = b[8];
        memcpy(p->sip, b + 12, 4);
        memcpy(p->dip, b + 16, 4);
        if (get_be16(b + 2) < ROCEV2_IPV4_HDR || get_be16(b + 2) > end - b) {
            return ROCE_PARSE_MALFORMED;
        }
        end = b + get_be16(b + 2);      /* past it: Ethernet padding */
        b += ROCEV2_IPV4_HDR;
    } else if (type == ETH_P_IPV6) {
        if (end - b < ROCEV2_IPV6_HDR || (b[0] >> 4) != 6 || b[6] != IPPROTO_UDP_) {
            return ROCE_PARSE_NOT_ROCE;
        }
        p->tos = (get_be16(b) >> 4) & 0xff;
        p->flow_label = get_be32(b) & IPV6_FLOW_LABEL_MASK;
        p->ttl = b[7];
        memcpy(p->sip, b + 8, 16);
        memcpy(p->dip, b + 24, 16);
        if (get_be16(b + 4) > end - b - ROCEV2_IPV6_HDR) {
            return ROCE_PARSE_MALFORMED;
        }
        end = b + ROCEV2_IPV6_HDR + get_be16(b + 4);
        b += ROCEV2_IPV6_HDR;
    } else {
        return ROCE_PARSE_NOT_ROCE;
    }
    if (end - b < ROCEV2_UDP_HDR || get_be16(b + 2) != ROCEV2_UDP_PORT) {
        return ROCE_PARSE_NOT_ROCE;
    }
    p->sport = get_be16(b);
    l4 = get_be16(b + 4);
    if (l4 != (size_t)(end - b) || l4 < ROCEV2_UDP_HDR + ROCE_BTH_LEN + ROCE_ICRC_LEN) {
        return ROCE_PARSE_MALFORMED;
    }
    b += ROCEV2_UDP_HDR;
    p->opcode = b[0];
    fl = rocev2_opcode_flags(p->opcode);
    p->se = b[1] & 0x80;
    pad = (b[1] >> 4) & 3;
    if (!fl || (b[1] & 0x0f) != 0) {                  /* unknown opcode, or TVer != 0 */
        return ROCE_PARSE_MALFORMED;
    }
    p->pkey = get_be16(b + 2);
    p->dqpn = get_be32(b + 4) & ROCE_QPN_MASK;
    p->ackreq = b[8] & 0x80;
    p->psn = get_be32(b + 8) & ROCE_PSN_MASK;
    b += ROCE_BTH_LEN;
    icrc_at = end - ROCE_ICRC_LEN;
    if ((size_t)(icrc_at - b) < rocev2_ext_len_table[p->opcode] + pad) {
        return ROCE_PARSE_MALFORMED;
    }
    if (fl & BTH_HAS_DETH) {
        p->deth_qkey = get_be32(b);
        p->deth_sqpn = get_be32(b + 4) & ROCE_QPN_MASK;
        b += DETH_LEN;
    }
    if (fl & BTH_HAS_RETH) {
        p->reth_va = ((uint64_t)get_be32(b) << 32) | get_be32(b + 4);
        p->reth_rkey = get_be32(b + 8);
        p->reth_len = get_be32(b + 12);
        b += RETH_LEN;
    }
    if (fl & BTH_HAS_AETH) {
        p->aeth_syndrome = b[0];
        p->aeth_msn = get_be32(b) & AETH_MSN_MASK;
        b += AETH_LEN;
    }
    if (fl & BTH_HAS_IMM) {
        p->imm = get_be32(b);
        b += IMM_LEN;
    }
    if (fl & BTH_HAS_IETH) {
        p->ieth_rkey = get_be32(b);
        b += IETH_LEN;
    }
    p->payload = b;
    p->payload_len = icrc_at - b - pad;
    if (!(fl & BTH_HAS_PAYLOAD) && p->payload_len) {
        return ROCE_PARSE_MALFORMED;
    }
    p->l3 = l3;
    if (check_icrc && icrc(l3, p->ipv4, icrc_at) != ld32(icrc_at)) {
        return ROCE_PARSE_BAD_ICRC;
    }
    return ROCE_PARSE_OK;
}
