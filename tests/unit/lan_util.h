/*
 * lan_util.h - bring the LAN side up as ice's probe and ndo_open leave it, through the admin
 * queue (aq_util) and BAR0, against the fake host: the DDP package downloaded, the scheduler
 * branch of the PF VSI, the VSI with its RSS key and LUT, its unicast and broadcast MAC filters,
 * one Tx queue (0x0C30) and one Rx queue (QRX_CONTEXT, buffers posted, QENA), both with their
 * interrupt causes on. The fixture of the LAN datapath tests and the fuzzer's third starting
 * point.
 *
 * Layouts are written from ice's structures (ice_adminq_cmd.h, ice_lan_tx_rx.h and the context
 * tables of ice_common.c), not from emu/: a wrong bit position there would otherwise agree with
 * itself.
 */
#ifndef IRDMA_TEST_LAN_UTIL_H
#define IRDMA_TEST_LAN_UTIL_H

#include "aq_util.h"

/* Guest memory past the admin queue's: the two rings, the Tx buffer the driver's frames are
 * read from, one Rx buffer per descriptor. The fake host needs LANT_MEM_SIZE bytes. */
#define LANT_RING_LEN       64
#define LANT_TXD_SIZE       16
#define LANT_RXD_SIZE       32
#define LANT_RX_BUF_SIZE    2048            /* ICE_RXBUF_2048 */
#define LANT_TX_BUF_SIZE    0x10000         /* room for a 64 KiB TSO send */
#define LANT_TX_RING        AQT_MEM_SIZE    /* rings are 128-byte aligned */
#define LANT_RX_RING        (LANT_TX_RING + LANT_RING_LEN * LANT_TXD_SIZE)
#define LANT_TX_BUF         (LANT_RX_RING + LANT_RING_LEN * LANT_RXD_SIZE)
#define LANT_RX_BUF         (LANT_TX_BUF + LANT_TX_BUF_SIZE)
#define LANT_MEM_SIZE       (LANT_RX_BUF + LANT_RING_LEN * LANT_RX_BUF_SIZE)

#define LANT_TXQ            0               /* PF queue numbers of the VSI's queue pair */
#define LANT_RXQ            0
#define LANT_MSIX           1               /* the queue pair's vector (0 is the OICR's) */
#define LANT_MTU            1500

/* Tx data descriptor, qword 1 (ice_lan_tx_rx.h ICE_TXD_QW1_*, ICE_TX_DESC_CMD_*). */
#define LANT_TXD_CMD_S      4
#define LANT_TXD_OFFSET_S   16
#define LANT_TXD_BUF_SZ_S   34
#define LANT_TXD_L2TAG1_S   48
#define LANT_TXD_CMD_EOP    0x0001
#define LANT_TXD_CMD_RS     0x0002
#define LANT_TXD_DTYPE_M    0xfull
#define LANT_TXD_DTYPE_DONE 0xf
/* Rx flex write-back descriptor (ice_32b_rx_flex_desc_nic): length, status_error0.DD. */
#define LANT_RXD_PKT_LEN    4
#define LANT_RXD_STATUS0    8
#define LANT_RXD_ST0_DD     0x0001

/* The scheduler branch ice builds for the PF VSI: the root, TC 0, and the nodes it adds on
 * layers 2 (where the firmware's entry point was) to 7 (the queue group). */
typedef struct LantBranch {
    uint32_t root, tc0;
    uint32_t l[8];                  /* l[1] is TC 0; l[2..7] the driver's nodes */
} LantBranch;

typedef struct LantPort {
    LantBranch branch;
    unsigned vsi;                   /* the PF VSI's number */
    uint32_t txq_teid;              /* the Tx queue's scheduler leaf */
    unsigned tx_tail;               /* next Tx descriptor the driver fills */
    unsigned rx_tail;               /* next Rx descriptor the driver posts (QRX_TAIL) */
} LantPort;

/* Fixture: fake host of LANT_MEM_SIZE bytes (@h), a reset device (@d), the admin queue and
 * the whole bring-up of lant_probe into @lan_port. */
extern LantPort lan_port;
void lant_setup(void);

/* Everything of this file's header, on @h and @d with the admin queue already initialised;
 * each step must succeed. */
void lant_probe(LantPort *p);

/* The steps, as ice takes them. */
/* ice_load_pkg: the download variant of the synthetic package, 0x0C40 per configuration
 * buffer up to the first metadata buffer, the last one flagged. */
void lant_download_pkg(void);
/* ice_sched_init_port + ice_sched_add_vsi_to_topo: query the layers, read and query the default
 * tree, delete the firmware's entry point, add one node per layer 2..7 (each queried back). */
void lant_sched_branch(LantBranch *b);
/* The 16-byte element info of ice_sched_add_elems / ice_ena_vsi_txq: SE generic, default
 * profiles and weights. */
void lant_elem_info_dflt(uint8_t *info);
/* 0x0C30, one group with one queue under @parent; the queue's TEID into *@teid. */
uint16_t lant_add_txq(uint32_t parent, uint16_t txq, const uint8_t ctx[22], uint32_t *teid);
/* A lookup rule forwarding frames to @mac to VSI @vsi (ice_add_mac_rule: Tx direction, MAC
 * recipe, a dummy Ethernet header); its size. */
unsigned lant_mac_rule(uint8_t *rule, uint16_t type, const uint8_t mac[6], unsigned vsi);

/* The data path as ice's napi poll and xmit drive it: a Tx descriptor at the tail (the doorbell
 * if @kick); an Rx buffer posted at the tail (QRX_TAIL written if @kick); the qword 1 of a data
 * descriptor. */
void lant_tx(LantPort *p, uint64_t qw0, uint64_t qw1, bool kick);
void lant_rx_post(LantPort *p, uint64_t buf, bool kick);
uint64_t lant_txd_qw1(uint16_t cmd, uint32_t offset, uint16_t size, uint16_t l2tag1);

#endif
