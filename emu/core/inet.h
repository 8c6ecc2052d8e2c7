/* inet.h - network byte order and Internet checksum helpers for the packet engines. */
#ifndef IRDMA_EMU_INET_H
#define IRDMA_EMU_INET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Ethernet: address and header lengths, the FCS, an 802.1Q tag, the EtherTypes in use. */
#define ETH_ALEN             6
#define ETH_HLEN             14
#define ETH_FCS_LEN          4
#define VLAN_HLEN            4
#define ETH_P_IPV4           0x0800
#define ETH_P_IPV6           0x86dd
#define ETH_P_8021Q          0x8100

/* RoCEv2's UDP destination port: what the receive side tells RDMA frames apart by. */
#define ROCEV2_UDP_PORT      4791
/* The I/G bit of a destination MAC (its first byte's bit 0): a group (multicast) address. */
#define ETH_GROUP_BIT        0x01

/* A multicast destination IP address: IPv4 224.0.0.0/4, IPv6 ff00::/8 (first byte at @ip). */
static inline bool inet_ip4_is_multicast(const uint8_t *ip)
{
    return (ip[0] & 0xf0) == 0xe0;
}

static inline bool inet_ip6_is_multicast(const uint8_t *ip)
{
    return ip[0] == 0xff;
}

static inline uint16_t get_be16(const uint8_t *p)
{
    return (p[0] << 8) | p[1];
}

static inline void put_be16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

static inline uint32_t get_be32(const uint8_t *p)
{
    return ((uint32_t)get_be16(p) << 16) | get_be16(p + 2);
}

static inline void put_be32(uint8_t *p, uint32_t v)
{
    put_be16(p, v >> 16);
    put_be16(p + 2, v);
}

/* Ones'-complement sum of @len bytes added to @sum (not folded). */
static inline uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
    for (size_t i = 0; i + 1 < len; i += 2) {
        sum += (p[i] << 8) | p[i + 1];
    }
    if (len & 1) {
        sum += p[len - 1] << 8;
    }
    return sum;
}

/* The checksum field value for @sum: folded and complemented. */
static inline uint16_t csum_fold(uint32_t sum)
{
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return ~sum & 0xffff;
}

/* A received block whose sum includes its checksum field verifies when it folds to 0. */
static inline int csum_verifies(uint32_t sum)
{
    return csum_fold(sum) == 0;
}

/* RSS: the Toeplitz hash of @n input bytes with a key of at least n + 4 bytes. */
static inline uint32_t toeplitz_hash(const uint8_t *key, const uint8_t *in, size_t n)
{
    uint32_t hash = 0;
    uint32_t window = ((uint32_t)key[0] << 24) | ((uint32_t)key[1] << 16) | (key[2] << 8) | key[3];

    for (size_t i = 0; i < n; i++) {
        for (int b = 7; b >= 0; b--) {
            if (in[i] & (1u << b)) {
                hash ^= window;
            }
            window = (window << 1) | ((key[i + 4] >> b) & 1);
        }
    }
    return hash;
}

#endif
