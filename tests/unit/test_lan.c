/* test_lan.c - the LAN data path (lan_rx.c, lan_tx.c) behind the state ice's probe leaves
 * (lan_util): frames from the wire through the switch rules into the Rx ring, and Tx
 * descriptors out to the wire. */
#include <check.h>
#include "lan_util.h"
#include "emu/core/e810_regs.h"
#include "emu/fw/sched.h"
#include "emu/fw/switch.h"
#include "emu/core/inet.h"
#include "emu/lan/lan_rx.h"
#include "emu/lan/lan_tx.h"
#include "emu/core/le.h"
#include "emu/fw/aq_defs.h"

#define ETH_HLEN        14
#define ETH_P_IPV4      0x0800
#define IPV4_HLEN       20
#define UDP_HLEN        8
#define IPPROTO_UDP     17
#define FRAME_LEN       (ETH_HLEN + IPV4_HLEN + UDP_HLEN + 64)
#define STEP_NS         1000        /* long enough for every zero-delay event to run */

static const uint8_t peer_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0xbb };

static void step(void)
{
    fake_host_advance(h, d, h->now_ns + STEP_NS);
}

/* An IPv4/UDP frame from the peer to @dst with a valid IP header checksum. */
static size_t udp_frame(uint8_t *f, const uint8_t dst[6])
{
    uint8_t *ip = f + ETH_HLEN;

    memset(f, 0, FRAME_LEN);
    memcpy(f, dst, 6);
    memcpy(f + 6, peer_mac, 6);
    put_be16(f + 12, ETH_P_IPV4);
    ip[0] = 0x45;
    put_be16(ip + 2, FRAME_LEN - ETH_HLEN);
    ip[8] = 64;
    ip[9] = IPPROTO_UDP;
    memcpy(ip + 12, "\x0a\x00\x00\x02\x0a\x00\x00\x01", 8);
    put_be16(ip + 10, csum_fold(csum_add(0, ip, IPV4_HLEN)));
    put_be16(ip + IPV4_HLEN, 4000);
    put_be16(ip + IPV4_HLEN + 2, 5000);
    put_be16(ip + IPV4_HLEN + 4, FRAME_LEN - ETH_HLEN - IPV4_HLEN);
    for (unsigned i = ETH_HLEN + IPV4_HLEN + UDP_HLEN; i < FRAME_LEN; i++) {
        f[i] = i;
    }
    return FRAME_LEN;
}

static const uint8_t *rx_desc(unsigned i)
{
    return h->mem + LANT_RX_RING + i * LANT_RXD_SIZE;
}

START_TEST(probe_leaves_package_switch_and_queues_up)
{
    FwSchedTxq txq;

    ck_assert_uint_eq(fake_host_trace_count(h, "fw_pkg_activated"), 1);
    ck_assert_uint_eq(fw_switch_vsi_count(d->sw), 1);
    ck_assert_uint_eq(fw_switch_rule_count(d->sw), 2);
    ck_assert(fw_sched_get_txq(d->sched, LANT_TXQ, &txq));
    ck_assert_uint_eq(txq.teid, lan_port.txq_teid);
    ck_assert_uint_eq(txq.parent_teid, lan_port.branch.l[7]);
    ck_assert_uint_eq(fake_host_trace_count(h, "lan_rx_queue: queue 0"), 1);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_lan_rx_bad_context"), 0);
}
END_TEST

START_TEST(frame_to_the_port_lands_in_the_rx_ring)
{
    uint8_t f[FRAME_LEN];
    size_t len = udp_frame(f, d->cfg.mac);

    irdma_dev_receive(d, f, len);
    step();
    ck_assert_uint_eq(lan_rx_stats(d->lan_rx)->frames, 1);
    ck_assert_uint_eq(ld16(rx_desc(0) + LANT_RXD_STATUS0) & LANT_RXD_ST0_DD, LANT_RXD_ST0_DD);
    ck_assert_uint_eq(ld16(rx_desc(0) + LANT_RXD_PKT_LEN), len);
    ck_assert_mem_eq(h->mem + LANT_RX_BUF, f, len);
    ck_assert_uint_eq(h->irqs->len, 1);
    ck_assert_uint_eq(g_array_index(h->irqs, unsigned, 0), LANT_MSIX);
}
END_TEST

START_TEST(broadcast_passes_and_other_macs_are_filtered)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    uint8_t f[FRAME_LEN];

    irdma_dev_receive(d, f, udp_frame(f, peer_mac));
    step();
    ck_assert_uint_eq(lan_rx_stats(d->lan_rx)->filtered, 1);
    ck_assert_uint_eq(lan_rx_stats(d->lan_rx)->frames, 0);
    irdma_dev_receive(d, f, udp_frame(f, bcast));
    step();
    ck_assert_uint_eq(lan_rx_stats(d->lan_rx)->frames, 1);
}
END_TEST

START_TEST(tx_descriptor_sends_its_buffer)
{
    uint8_t f[FRAME_LEN];
    size_t len = udp_frame(f, peer_mac);
    const uint8_t *desc = h->mem + LANT_TX_RING;
    size_t sent;
    const uint8_t *data;

    memcpy(h->mem + LANT_TX_BUF, f, len);
    lant_tx(&lan_port, LANT_TX_BUF,
            lant_txd_qw1(LANT_TXD_CMD_EOP | LANT_TXD_CMD_RS, 0, len, 0), true);
    step();
    ck_assert_uint_eq(h->frames->len, 1);
    data = g_bytes_get_data(g_ptr_array_index(h->frames, 0), &sent);
    ck_assert_uint_eq(sent, len);
    ck_assert_mem_eq(data, f, len);
    ck_assert_uint_eq(ld64(desc + 8) & LANT_TXD_DTYPE_M, LANT_TXD_DTYPE_DONE);
    ck_assert_uint_eq(lan_tx_stats(d->lan_tx)->frames, 1);
}
END_TEST

/* ice never does it, a hostile guest may: the tail cuts a packet after its first descriptor.
 * The device sends nothing until the doorbell that completes it, then the packet whole. */
START_TEST(packet_cut_by_the_tail_waits_for_its_end)
{
    uint8_t f[FRAME_LEN];
    size_t len = udp_frame(f, peer_mac), sent;
    const uint8_t *data;

    memcpy(h->mem + LANT_TX_BUF, f, len);
    lant_tx(&lan_port, LANT_TX_BUF, lant_txd_qw1(0, 0, 50, 0), true);
    step();
    ck_assert_uint_eq(h->frames->len, 0);
    lant_tx(&lan_port, LANT_TX_BUF + 50,
            lant_txd_qw1(LANT_TXD_CMD_EOP | LANT_TXD_CMD_RS, 0, len - 50, 0), true);
    step();
    ck_assert_uint_eq(h->frames->len, 1);
    data = g_bytes_get_data(g_ptr_array_index(h->frames, 0), &sent);
    ck_assert_uint_eq(sent, len);
    ck_assert_mem_eq(data, f, len);
}
END_TEST

/* ice's loopback self-test: with MAC loopback on (0x0620) a frame the port transmits comes
 * back through the Rx rules into the ring and none leaves; off again, frames leave. */
START_TEST(mac_loopback_returns_tx_frames_to_rx)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t f[FRAME_LEN];
    size_t len = udp_frame(f, bcast);

    params[0] = 0x01;                       /* ICE_AQ_MAC_LB_EN */
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_MAC_LB, 0, params, NULL, 0, NULL), AQ_RC_OK);
    memcpy(h->mem + LANT_TX_BUF, f, len);
    lant_tx(&lan_port, LANT_TX_BUF, lant_txd_qw1(LANT_TXD_CMD_EOP | LANT_TXD_CMD_RS, 0, len, 0),
            true);
    step();
    ck_assert_uint_eq(h->frames->len, 0);
    ck_assert_uint_eq(lan_rx_stats(d->lan_rx)->frames, 1);
    ck_assert_uint_eq(ld16(rx_desc(0) + LANT_RXD_STATUS0) & LANT_RXD_ST0_DD, LANT_RXD_ST0_DD);
    ck_assert_mem_eq(h->mem + LANT_RX_BUF, f, len);
    params[0] = 0;
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_MAC_LB, 0, params, NULL, 0, NULL), AQ_RC_OK);
    lant_tx(&lan_port, LANT_TX_BUF, lant_txd_qw1(LANT_TXD_CMD_EOP | LANT_TXD_CMD_RS, 0, len, 0),
            true);
    step();
    ck_assert_uint_eq(h->frames->len, 1);
    ck_assert_uint_eq(lan_rx_stats(d->lan_rx)->frames, 1);
}
END_TEST

/* GLV_* as ice_update_eth_stats reads them (rd64: L, then H at +4), VSI @v. */
#define GLV_GORCL(v)    (0x003B0000 + (v) * 8)
#define GLV_UPRCL(v)    (0x003B2000 + (v) * 8)
#define GLV_BPRCL(v)    (0x003B6000 + (v) * 8)
#define GLV_GOTCL(v)    (0x00300000 + (v) * 8)
#define GLV_UPTCL(v)    (0x0030A000 + (v) * 8)
#define GLV_RDPC(v)     (0x00294C04 + (v) * 4)

static uint64_t rd40(uint32_t off)
{
    return irdma_dev_mmio_read(d, off) | (uint64_t)irdma_dev_mmio_read(d, off + 4) << 32;
}

/* The VSI's counters move with what it receives and sends: octets, unicast and broadcast frames;
 * a frame its disabled queue cannot take is a discard. A PF reset keeps them. */
START_TEST(vsi_counters_count_frames_and_octets)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    unsigned v = lan_port.vsi;
    uint8_t f[FRAME_LEN];
    size_t len = udp_frame(f, d->cfg.mac);

    irdma_dev_receive(d, f, len);
    irdma_dev_receive(d, f, udp_frame(f, bcast));
    step();
    ck_assert_uint_eq(rd40(GLV_GORCL(v)), 2 * len);
    ck_assert_uint_eq(rd40(GLV_UPRCL(v)), 1);
    ck_assert_uint_eq(rd40(GLV_BPRCL(v)), 1);
    udp_frame(f, peer_mac);
    memcpy(h->mem + LANT_TX_BUF, f, len);
    lant_tx(&lan_port, LANT_TX_BUF, lant_txd_qw1(LANT_TXD_CMD_EOP | LANT_TXD_CMD_RS, 0, len, 0),
            true);
    step();
    ck_assert_uint_eq(rd40(GLV_GOTCL(v)), len);
    ck_assert_uint_eq(rd40(GLV_UPTCL(v)), 1);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLV_RDPC(v)), 0);
    irdma_dev_mmio_write(d, QRX_CTRL(LANT_RXQ), 0);          /* the queue disabled */
    irdma_dev_receive(d, f, udp_frame(f, d->cfg.mac));
    step();
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLV_RDPC(v)), 1);
    ck_assert_uint_eq(rd40(GLV_UPRCL(v)), 1);
    irdma_dev_mmio_write(d, PFGEN_CTRL, PFGEN_CTRL_PFSWR_M);
    ck_assert_uint_eq(rd40(GLV_GORCL(v)), 2 * len);
}
END_TEST

#define ETH_FCS_LEN     4

/* The MAC counts every frame of the port (GLPRT_* of port 0, as ice_update_pf_stats reads
 * them), with its FCS: octets, class and size bucket, each way; port 1's counters stay 0. */
START_TEST(port_counters_count_what_passes_the_mac)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    uint8_t f[FRAME_LEN];
    size_t len = udp_frame(f, d->cfg.mac);

    irdma_dev_receive(d, f, len);
    irdma_dev_receive(d, f, udp_frame(f, peer_mac));      /* filtered, but it was received */
    irdma_dev_receive(d, f, udp_frame(f, bcast));
    step();
    ck_assert_uint_eq(rd40(GLPRT_GORCL(0)), 3 * (len + ETH_FCS_LEN));
    ck_assert_uint_eq(rd40(GLPRT_UPRCL(0)), 2);
    ck_assert_uint_eq(rd40(GLPRT_BPRCL(0)), 1);
    ck_assert_uint_eq(rd40(GLPRT_PRC127L(0)), 3);         /* 110 bytes with the FCS */
    ck_assert_uint_eq(rd40(GLPRT_GORCL(1)), 0);
    udp_frame(f, peer_mac);
    memcpy(h->mem + LANT_TX_BUF, f, len);
    lant_tx(&lan_port, LANT_TX_BUF, lant_txd_qw1(LANT_TXD_CMD_EOP | LANT_TXD_CMD_RS, 0, len, 0),
            true);
    step();
    ck_assert_uint_eq(rd40(GLPRT_GOTCL(0)), len + ETH_FCS_LEN);
    ck_assert_uint_eq(rd40(GLPRT_UPTCL(0)), 1);
    ck_assert_uint_eq(rd40(GLPRT_PTC127L(0)), 1);
}
END_TEST

#define TSO_HDR         (ETH_HLEN + IPV4_HLEN + 20)
#define TSO_LEN         16000
#define TSO_MSS         64
#define TSO_SEGS        ((TSO_LEN - TSO_HDR + TSO_MSS - 1) / TSO_MSS)      /* 250 */
#define TXCTX_CMD_TSO_QW1   (1ull << 4)
#define TXD_TSO_CMD     (LANT_TXD_CMD_EOP | LANT_TXD_CMD_RS | 0x0060 /* IPv4 + csum */ | \
                         0x0100 /* TCP */)
#define TXD_TSO_OFFSET  ((ETH_HLEN / 2) | ((IPV4_HLEN / 4) << 7) | ((20 / 4) << 14))

/* One IPv4/TCP TSO packet of TSO_LEN bytes cut at TSO_MSS: a context and a data descriptor. */
static void tso_packet(bool kick)
{
    uint8_t *f = h->mem + LANT_TX_BUF, *ip = f + ETH_HLEN;

    memset(f, 0, TSO_HDR);
    memcpy(f, peer_mac, 6);
    memcpy(f + 6, d->cfg.mac, 6);
    put_be16(f + 12, ETH_P_IPV4);
    ip[0] = 0x45;
    ip[8] = 64;
    ip[9] = 6;
    ip[IPV4_HLEN + 12] = 5 << 4;
    lant_tx(&lan_port, 0, 0x1 | TXCTX_CMD_TSO_QW1 | ((uint64_t)(TSO_LEN - TSO_HDR) << 30) |
                          ((uint64_t)TSO_MSS << 50), false);
    lant_tx(&lan_port, LANT_TX_BUF, lant_txd_qw1(TXD_TSO_CMD, TXD_TSO_OFFSET, TSO_LEN, 0), kick);
}

/* Six TSO packets of 250 segments behind one doorbell: the ring sends whole packets until it
 * has sent 1024 frames (five packets), then lets the host's main loop run before the sixth. */
START_TEST(tx_yields_to_the_host_after_its_frame_budget)
{
    for (unsigned i = 0; i < 6; i++) {
        tso_packet(i == 5);
    }
    step();
    ck_assert_uint_eq(h->frames->len, 5 * TSO_SEGS);
    step();
    ck_assert_uint_eq(h->frames->len, 6 * TSO_SEGS);
    ck_assert_uint_eq(lan_tx_stats(d->lan_tx)->bad_desc, 0);
}
END_TEST

Suite *lan_suite(void)
{
    Suite *s = suite_create("lan");
    TCase *tc = tcase_create("datapath");

    tcase_add_checked_fixture(tc, lant_setup, aqt_teardown);
    tcase_add_test(tc, probe_leaves_package_switch_and_queues_up);
    tcase_add_test(tc, frame_to_the_port_lands_in_the_rx_ring);
    tcase_add_test(tc, broadcast_passes_and_other_macs_are_filtered);
    tcase_add_test(tc, tx_descriptor_sends_its_buffer);
    tcase_add_test(tc, mac_loopback_returns_tx_frames_to_rx);
    tcase_add_test(tc, vsi_counters_count_frames_and_octets);
    tcase_add_test(tc, port_counters_count_what_passes_the_mac);
    tcase_add_test(tc, packet_cut_by_the_tail_waits_for_its_end);
    tcase_add_test(tc, tx_yields_to_the_host_after_its_frame_budget);
    suite_add_tcase(s, tc);
    return s;
}
