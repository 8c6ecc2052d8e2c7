/*
 * test_mcast.c - UD multicast (roce.c, ah.c): a UD SEND to a group address leaves for the
 * network and reaches every local QP attached to the group; a multicast frame from the wire
 * is replicated to every attached QP, each taking its own RQ WQE and CQE or dropping its copy.
 *
 * Three UD QPs of the transport fixture (A, B, C: QPNs 3, 4, 5) with one QKey; a group of
 * 239.1.2.3 built as irdma_attach_mcast builds it (CREATE_MCAST_GRP, then MODIFY_MCAST_GRP on
 * every attach and detach, the 8-entry context in host memory). Wire frames are handed to
 * roce_rx_frame() as test_transport.c does (no LAN switch in front).
 */
#include <check.h>
#include <string.h>
#include "emu/core/inet.h"
#include "emu/rdma/ah.h"
#include "emu/rdma/roce.h"
#include "emu/rdma/rocev2.h"
#include "trt_util.h"

#define MC_QPN_C       5
#define MC_CQ_C        3
#define MC_QKEY        0x01234567u
#define MC_GROUP_IP    0xef010203u              /* 239.1.2.3 */
#define MC_GROUP_MAC   0x01005e010203ull        /* irdma_mcast_mac(239.1.2.3) */
#define MC_MGN         5                        /* the group's index (irdma's mgn) */
#define MC_AH          2
#define MC_ARP_IDX     2
#define MC_CTX         (TRT_QP_AREA + 4 * TRT_QP_STRIDE)   /* the group context buffer */
#define MC_LEN         64
#define MC_SRC         TRT_SRC
#define MC_BUF(qp)     (TRT_RECV + 0x1000 * ((qp)->id - TRT_QPN_A))
#define MC_PEER_QPN    0x77                     /* a sender on another host */

static TQp qc;

/* A UD QP in RTS with the test's QKey, as irdma_modify_qp_roce brings one up. */
static void ud_qp_up(const TQp *qp)
{
    uint8_t *c = h->mem + qp->base + TRT_OFF_CTX;

    create_cq(qp);
    write_ctx(qp, &trt_default_cfg);
    st64(c + QPC_QW8, pe_prep(QPC_QKEY, MC_QKEY));
    qp_op_typed(qp, QP_TYPE_ROCE_UD, CQP_OP_CREATE_QP, QP_STATE_IDLE, CQPWQE_QP_MACVALID | CQPWQE_QP_CQNUMVALID);
    qp_op_typed(qp, QP_TYPE_ROCE_UD, CQP_OP_MODIFY_QP, QP_STATE_RTR, CQPWQE_QP_CQNUMVALID);
    qp_op_typed(qp, QP_TYPE_ROCE_UD, CQP_OP_MODIFY_QP, QP_STATE_RTS, 0);
    ck_assert_uint_eq(qp_lookup(d, qp->id)->state, QP_STATE_RTS);
}

/* irdma_access_mcast_grp: group MC_MGN of 239.1.2.3 with @n members (QPNs @qpns). */
static void mcg_op(unsigned op, const unsigned *qpns, unsigned n)
{
    uint64_t q[8] = { 0 };

    memset(h->mem + MC_CTX, 0, MG_CTX_ENTRIES * 8);
    for (unsigned i = 0; i < n; i++) {
        st64(h->mem + MC_CTX + 8 * i, pe_prep(MG_CTX_QPID, qpns[i]) | MG_CTX_VALIDENT);
    }
    q[0] = MC_GROUP_MAC;
    q[4] = MC_CTX;
    q[6] = pe_prep(CQPWQE_IP_ADDR1, MC_GROUP_IP);
    q[3] = cqpt_hdr(op) | pe_prep(CQPWQE_MG_IDX, MC_MGN) | CQPWQE_MG_IPV4VALID;
    cqp_ok(q);
}

/* irdma_create_hw_ah for 239.1.2.3: the ARP entry holds the group MAC, DOLOOPBACK set. */
static void create_mcast_ah(void)
{
    uint64_t q[8] = { 0 };

    q[2] = pe_prep(CQPWQE_ARP_MAC, MC_GROUP_MAC);
    q[3] = cqpt_hdr(CQP_OP_MANAGE_ARP) | pe_prep(CQPWQE_ARP_INDEX, MC_ARP_IDX) |
           CQPWQE_ARP_ENTRYVALID;
    cqp_ok(q);
    memset(q, 0, sizeof(q));
    q[0] = pe_prep(CQPWQE_AH_MAC, TRT_OWN_MAC);
    q[1] = pe_prep(CQPWQE_AH_PDINDEXLO, TRT_PD & 0xffff);
    q[2] = pe_prep(CQPWQE_AH_ARPINDEX, MC_ARP_IDX) | pe_prep(CQPWQE_AH_HOPLIMIT, 1) |
           pe_prep(CQPWQE_AH_PDINDEXHI, TRT_PD >> 16);
    q[4] = pe_prep(CQPWQE_IP_ADDR1, MC_GROUP_IP);
    q[6] = pe_prep(CQPWQE_IP_ADDR1, TRT_IP_A);
    q[3] = cqpt_hdr(CQP_OP_CREATE_AH) | pe_prep(CQPWQE_AH_AVIDX, MC_AH) | CQPWQE_AH_IPV4VALID |
           CQPWQE_AH_DOLOOPBACK;
    cqp_ok(q);
}

static void mc_setup(void)
{
    trt_start();
    init_qp(&qc, MC_QPN_C, 0, MC_CQ_C, 0, 0, 0xc0ffee03);
    ud_qp_up(&qa);
    ud_qp_up(&qb);
    ud_qp_up(&qc);
    for (unsigned i = 0; i < MC_LEN; i++) {
        h->mem[MC_SRC + i] = 0xa0 + i;
    }
}

static void mc_teardown(void)
{
    cqpt_teardown();
}

/* A attaches, then B (C stays out): CREATE with one member, MODIFY with two. */
static void attach_a_and_b(void)
{
    const unsigned members[] = { TRT_QPN_A, TRT_QPN_B };

    mcg_op(CQP_OP_CREATE_MCAST_GRP, members, 1);
    mcg_op(CQP_OP_MODIFY_MCAST_GRP, members, 2);
    ck_assert_uint_eq(mcg_lookup(d, MC_MGN)->members, 2);
}

/* A UD SEND_ONLY frame to the group from another host's QP MC_PEER_QPN, as the wire brings it. */
static size_t wire_frame(uint8_t *out)
{
    static const uint8_t peer_mac[6] = { 0x02, 0, 0, 0, 0, 0xbb };
    uint8_t payload[MC_LEN];
    RocePkt p = {
        .dmac = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 }, .ipv4 = true, .ttl = 1,
        .sport = 0xc077, .opcode = BTH_UD_SEND_ONLY, .pkey = ROCE_PKEY_DEFAULT,
        .dqpn = ROCE_MCAST_QPN, .psn = 1, .deth_qkey = MC_QKEY, .deth_sqpn = MC_PEER_QPN,
        .payload = payload, .payload_len = MC_LEN,
    };

    memcpy(p.smac, peer_mac, 6);
    put_be32(p.sip, TRT_IP_B + 0x100);
    put_be32(p.dip, MC_GROUP_IP);
    memcpy(payload, h->mem + MC_SRC, MC_LEN);
    return rocev2_build(&p, out);
}

/* @qp's next CQE is a successful UD receive of the test's datagram from @sqpn, whose payload
 * follows the 40-byte GRH area in its buffer. */
static void expect_mcast_recv(TQp *qp, uint32_t sqpn)
{
    TCqe c;

    ck_assert_msg(poll_cq(qp, &c), "no receive CQE on QP %u", qp->id);
    ck_assert(!(c.hdr & CQE_ERROR));
    ck_assert_uint_eq(pe_get(c.hdr, CQE_SQ), 0);
    ck_assert_uint_eq(pe_get(c.qw2, CQE_QPID), qp->id);
    ck_assert_uint_eq(pe_get(c.qw0, CQE_PAYLDLEN), ROCE_GRH_LEN + MC_LEN);
    ck_assert_uint_eq(pe_get(c.qw2, CQE_UDSRCQPN), sqpn);
    ck_assert_mem_eq(h->mem + MC_BUF(qp) + ROCE_GRH_LEN, h->mem + MC_SRC, MC_LEN);
}

static void expect_no_cqe(TQp *qp)
{
    TCqe c;

    ck_assert_msg(!poll_cq(qp, &c), "QP %u has a CQE", qp->id);
}

static void post_recvs(void)
{
    TQp *qps[] = { &qa, &qb, &qc };

    for (unsigned i = 0; i < G_N_ELEMENTS(qps); i++) {
        post_rq(qps[i], MC_BUF(qps[i]), ROCE_GRH_LEN + MC_LEN);
    }
}

/* A's UD SEND of the test's datagram to the group (through its multicast AH), every QP with a
 * receive posted first. */
static void send_to_group(void)
{
    create_mcast_ah();
    post_recvs();
    post_sq(&qa, (TWqe) { .op = SQ_OP_SEND, .laddr = MC_SRC, .len = MC_LEN,
                          .raddr = (uint64_t)ROCE_MCAST_QPN << 32 | MC_QKEY,
                          .hdr_extra = pe_prep(SQWQE_AHID, MC_AH) });
    ring(&qa);
    settle();
}

/* A sends to the group it and B are attached to: the frame leaves for the network with the
 * group MAC and DQPN 0xFFFFFF, and both A and B receive it; C, not attached, gets nothing. */
START_TEST(ud_send_to_a_group_reaches_every_attached_local_qp_and_the_wire)
{
    TCqe c;
    RocePkt p;
    GBytes *f;

    attach_a_and_b();
    send_to_group();
    ck_assert_uint_eq(h->frames->len, 1);
    f = g_ptr_array_index(h->frames, 0);
    ck_assert_int_eq(rocev2_parse(g_bytes_get_data(f, NULL), g_bytes_get_size(f), &p, true),
                     ROCE_PARSE_OK);
    ck_assert_uint_eq(p.dmac[0], 0x01);
    ck_assert_uint_eq(p.dmac[5], 0x03);
    ck_assert_uint_eq(p.dqpn, ROCE_MCAST_QPN);
    ck_assert_uint_eq(get_be32(p.dip), MC_GROUP_IP);
    /* A's send completion, then its own copy (A is a member), and B's. */
    ck_assert(poll_cq(&qa, &c));
    ck_assert_uint_eq(pe_get(c.hdr, CQE_SQ), 1);
    ck_assert(!(c.hdr & CQE_ERROR));
    expect_mcast_recv(&qa, TRT_QPN_A);
    expect_mcast_recv(&qb, TRT_QPN_A);
    expect_no_cqe(&qc);
}
END_TEST

/* A multicast frame from the wire: a copy for A and one for B, each with its own CQE. */
START_TEST(wire_multicast_frame_is_replicated_to_every_attached_qp)
{
    uint8_t frame[ROCE_FRAME_MAX];
    size_t len = wire_frame(frame);

    attach_a_and_b();
    post_recvs();
    roce_rx_frame(d, frame, len);
    settle();
    expect_mcast_recv(&qa, MC_PEER_QPN);
    expect_mcast_recv(&qb, MC_PEER_QPN);
    expect_no_cqe(&qc);
    ck_assert(fake_host_trace_count(h, "roce_rx_mcast") >= 1);
}
END_TEST

/* B detaches (MODIFY with A alone): B gets nothing more; when A detaches too (DESTROY), the
 * frame finds no group and is dropped. */
START_TEST(detach_stops_delivery)
{
    const unsigned a_only[] = { TRT_QPN_A };
    uint8_t frame[ROCE_FRAME_MAX];
    size_t len = wire_frame(frame);
    uint64_t q[8] = { 0 };

    attach_a_and_b();
    mcg_op(CQP_OP_MODIFY_MCAST_GRP, a_only, 1);
    post_recvs();
    roce_rx_frame(d, frame, len);
    settle();
    expect_mcast_recv(&qa, MC_PEER_QPN);
    expect_no_cqe(&qb);
    q[3] = cqpt_hdr(CQP_OP_DESTROY_MCAST_GRP) | pe_prep(CQPWQE_MG_IDX, MC_MGN);
    cqp_ok(q);
    post_rq(&qa, MC_BUF(&qa), ROCE_GRH_LEN + MC_LEN);
    roce_rx_frame(d, frame, len);
    settle();
    expect_no_cqe(&qa);
    expect_no_cqe(&qb);
    ck_assert_uint_eq(fake_host_trace_count(h, "roce_rx_mcast_no_group"), 1);
}
END_TEST

/* B has no receive posted: its copy is dropped as a UD datagram without a WQE is; A still
 * gets its own. */
START_TEST(a_member_without_a_receive_drops_only_its_copy)
{
    uint8_t frame[ROCE_FRAME_MAX];
    size_t len = wire_frame(frame);

    attach_a_and_b();
    post_rq(&qa, MC_BUF(&qa), ROCE_GRH_LEN + MC_LEN);
    roce_rx_frame(d, frame, len);
    settle();
    expect_mcast_recv(&qa, MC_PEER_QPN);
    expect_no_cqe(&qb);
    ck_assert_uint_eq(fake_host_trace_count(h, "rq_ud_dropped"), 1);
    /* B's next receive takes the next datagram. */
    post_rq(&qb, MC_BUF(&qb), ROCE_GRH_LEN + MC_LEN);
    roce_rx_frame(d, frame, len);
    settle();
    expect_mcast_recv(&qb, MC_PEER_QPN);
}
END_TEST

/* A member that is no QP (one irdma destroyed without a detach): the group is taken, that
 * member's copy is dropped, the others get theirs. */
START_TEST(a_member_that_is_no_qp_drops_only_its_copy)
{
    const unsigned members[] = { TRT_QPN_A, MC_QPN_C + 1, TRT_QPN_B };
    uint8_t frame[ROCE_FRAME_MAX];
    size_t len = wire_frame(frame);

    mcg_op(CQP_OP_CREATE_MCAST_GRP, members, 3);
    ck_assert_uint_eq(fake_host_trace_count(h, "mcg_member_no_qp"), 1);
    post_recvs();
    roce_rx_frame(d, frame, len);
    settle();
    expect_mcast_recv(&qa, MC_PEER_QPN);
    expect_mcast_recv(&qb, MC_PEER_QPN);
    ck_assert_uint_eq(fake_host_trace_count(h, "roce_rx_mcast_no_qp"), 1);
}
END_TEST

/* The multicast counters of GATHER_STATS: A's SEND to the group is one multicast datagram out
 * and, looped to the members here, one in (however many QPs take a copy); a frame from the
 * wire is one more in. Each is also an IPv4 packet of the same octets; IPv6 counts nothing. */
START_TEST(gather_stats_counts_multicast_datagrams_once_each)
{
    uint8_t frame[ROCE_FRAME_MAX];
    size_t len = wire_frame(frame);
    GBytes *sent;
    uint64_t out_octs, in_octs;

    attach_a_and_b();
    send_to_group();
    post_recvs();
    roce_rx_frame(d, frame, len);
    settle();
    ck_assert_uint_eq(h->frames->len, 1);
    sent = g_ptr_array_index(h->frames, 0);
    out_octs = g_bytes_get_size(sent) - ETH_HLEN;
    in_octs = out_octs + len - ETH_HLEN;
    gather_stats(0);
    ck_assert_uint_eq(stat48(GSTATS_IP4TXMCPKTS), 1);
    ck_assert_uint_eq(stat48(GSTATS_IP4TXMCOCTS), out_octs);
    ck_assert_uint_eq(stat48(GSTATS_IP4RXMCPKTS), 2);
    ck_assert_uint_eq(stat48(GSTATS_IP4RXMCOCTS), in_octs);
    ck_assert_uint_eq(stat48(GSTATS_IP4RXPKTS), 2);
    ck_assert_uint_eq(stat48(GSTATS_IP4RXOCTS), in_octs);
    ck_assert_uint_eq(stat48(GSTATS_IP6TXMCPKTS) + stat48(GSTATS_IP6RXMCPKTS), 0);
}
END_TEST

Suite *mcast_suite(void)
{
    Suite *s = suite_create("mcast");
    TCase *tc = tcase_create("mcast");

    tcase_add_checked_fixture(tc, mc_setup, mc_teardown);
    tcase_add_test(tc, ud_send_to_a_group_reaches_every_attached_local_qp_and_the_wire);
    tcase_add_test(tc, wire_multicast_frame_is_replicated_to_every_attached_qp);
    tcase_add_test(tc, detach_stops_delivery);
    tcase_add_test(tc, a_member_without_a_receive_drops_only_its_copy);
    tcase_add_test(tc, a_member_that_is_no_qp_drops_only_its_copy);
    tcase_add_test(tc, gather_stats_counts_multicast_datagrams_once_each);
    suite_add_tcase(s, tc);
    return s;
}
