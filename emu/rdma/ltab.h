/*
 * ltab.h - the engine's small lookup tables: the APBVT (local UDP/TCP ports the PE accepts,
 * MANAGE_APBVT 0x23), quad-hash entries (MANAGE_QUAD_HASH_TABLE_ENTRY 0x25), the local MAC
 * table (ALLOCATE_LOC_MAC_TABLE_ENTRY 0x14, MANAGE_LOC_MAC_TABLE 0x0e) and push pages
 * (MANAGE_PUSH_PAGES 0x11).
 *
 * The 6.1 driver sends the APBVT and quad-hash ops only for iWARP, the local MAC ops only on
 * gen1 and push pages never (push mode is off); they are kept as exact, bounded tables with the
 * usual refusals (a duplicate add, removing what is not there) so the data path can classify
 * with them. The APBVT lives in HMC (one 8 KiB object): it must be backed.
 */
#ifndef IRDMA_EMU_LTAB_H
#define IRDMA_EMU_LTAB_H

#include "rdma/pe.h"

typedef struct PeQhashKey {
    uint8_t type;              /* QHASH_TYPE_* */
    bool ipv4;
    bool vlan_valid;
    uint16_t vlan_id;
    uint32_t dest_ip[4];       /* the local side: IPv4 in [0] */
    uint16_t dest_port;
    uint32_t src_ip[4];        /* TCP_ESTABLISHED only, else 0 */
    uint16_t src_port;
} PeQhashKey;

typedef struct PeQhash {
    PeQhashKey key;
    uint32_t qpn;
    uint16_t qs_handle;
    uint64_t mac;              /* MAC[0] in bits 47:40 */
} PeQhash;

typedef struct PeLtab PeLtab;

PeLtab *ltab_new(IrdmaDev *d);
void ltab_free(PeLtab *t);
void ltab_reset(PeLtab *t);

extern const CqpOpTable ltab_cqp_ops;

bool ltab_apbvt_has(IrdmaDev *d, uint16_t port);
const PeQhash *ltab_qhash_lookup(IrdmaDev *d, const PeQhashKey *key);
/* Local MAC entry @idx, if allocated and written. */
bool ltab_local_mac(IrdmaDev *d, unsigned idx, uint64_t *mac);
/* Push page @idx was handed out (MANAGE_PUSH_PAGES). */
bool ltab_push_page_allocated(IrdmaDev *d, unsigned idx);

/* Live entries, for the teardown leak check. */
unsigned ltab_apbvt_count(IrdmaDev *d);
unsigned ltab_qhash_count(IrdmaDev *d);
unsigned ltab_local_mac_count(IrdmaDev *d);
unsigned ltab_push_page_count(IrdmaDev *d);

#endif
