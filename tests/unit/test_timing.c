/*
 * test_timing.c - the timing model (timing.c, wire.c) on the data path: with round-number
 * parameters (1 ns per cycle, DMA and wire at whole bytes per ns) a WRITE's packets leave, land
 * and complete at times worked out by hand here, and frames leave paced by the wire or by their
 * QP's SQ engine (qp-mbps). Also the effects digest that the determinism check compares.
 */
#include <check.h>
#include <string.h>
#include "emu/rdma/pe_defs.h"
#include "emu/rdma/pe_regs.h"
#include "emu/rdma/qp.h"
#include "emu/rdma/rocev2.h"
#include "trt_util.h"

/* Frame sizes of an IPv4 RoCEv2 packet: Ethernet, IPv4, UDP, BTH, ICRC, and the extensions. */
#define HDRS        (14 + 20 + 8 + 12 + 4)
#define RETH_LEN    16
#define AETH_LEN    4
#define WIRE_EXTRA  (4 + 20)          /* FCS, preamble and inter-frame gap */

/* A and B connected (the control plane under inline timing: cqp_ok() expects its answer at
 * once), then the data path under the model with round-number parameters. */
static void connect_then_model(uint64_t arp_mac)
{
    IrdmaTiming *t = &d->timing;

    add_arp(arp_mac);
    connect_default();
    t->mode = TIMING_MODEL;
    t->p.clock_mhz = 1000;            /* 1 ns per cycle */
    t->p.wqe_cycles = 100;
    t->p.pkt_cycles = 100;
    t->p.pcie_read_ns = 1000;
    t->p.pcie_write_ns = 500;
    t->p.pcie_mbps = 8000;            /* 1 byte per ns */
    t->p.cqp_wqe_cycles = t->p.cqp_qp_cycles = t->p.cqp_hmc_cycles = 0;
    t->link_mbps = 8000;              /* 1 byte per ns */
}

static void timing_setup(void)
{
    trt_start();
}

static void timing_teardown(void)
{
    cqpt_teardown();
}

static bool cqe_valid(const TQp *qp)
{
    const uint8_t *cqe = h->mem + qp->base + TRT_OFF_CQ + (uint64_t)qp->cq_head * CQE_SIZE;

    return !!(ld64(cqe + CQE_HDR) & CQE_VALID) == qp->cq_pol;
}

static void fill(uint64_t pa, uint32_t len, uint8_t seed)
{
    for (uint32_t i = 0; i < len; i++) {
        h->mem[pa + i] = (uint8_t)(seed + i * 13);
    }
}

/* A 64-byte WRITE from A to B through the port's own MAC (internal loopback). */
START_TEST(loopback_write_lands_and_completes_at_the_modelled_times)
{
    const uint32_t len = 64;
    const uint64_t fetch = 1000 + 100;                        /* WQE read, decode */
    /* Payload read (64 ns of DMA, then the read latency), the packet, the wire. */
    const uint64_t req_out = fetch + len + 1000 + 100 + (HDRS + RETH_LEN + len + WIRE_EXTRA);
    /* Back in: the packet, its DMA into memory (frame length), the posted write. */
    const uint64_t landed = req_out + 100 + (HDRS + RETH_LEN + len) + 500;
    /* The ACK: the packet, the wire; back in the same way. */
    const uint64_t ack_out = landed + 100 + (HDRS + AETH_LEN + WIRE_EXTRA);
    const uint64_t completed = ack_out + 100 + (HDRS + AETH_LEN) + 500;
    uint64_t t0;

    connect_then_model(TRT_OWN_MAC);
    fill(TRT_SRC, len, 0x21);
    post_sq(&qa, (TWqe) { .op = SQ_OP_RDMA_WRITE, .laddr = TRT_SRC, .len = len,
                          .raddr = TRT_MR_VA, .rkey = TRT_RKEY });
    t0 = h->now_ns;
    ring(&qa);
    clock_to(t0 + landed - 1);
    ck_assert_int_ne(memcmp(h->mem + TRT_DATA, h->mem + TRT_SRC, len), 0);
    clock_to(t0 + landed);
    ck_assert_int_eq(memcmp(h->mem + TRT_DATA, h->mem + TRT_SRC, len), 0);
    clock_to(t0 + completed - 1);
    ck_assert(!cqe_valid(&qa));
    clock_to(t0 + completed);
    ck_assert(cqe_valid(&qa));
    ck_assert_uint_eq(h->frames->len, 0);                     /* nothing left the port */
}
END_TEST

#define NPKTS 8
/* The time after its doorbell at which each of NPKTS MTU packets of one WRITE to the peer
 * leaves the port, into @out, with the PCIe DMA at 2 bytes per ns and the QP's engine at
 * @qp_mbps (0: the default). */
static void write_departures(uint64_t qp_mbps, uint64_t out[NPKTS])
{
    uint64_t t0;
    unsigned seen = 0;

    connect_then_model(TRT_PEER_MAC);
    d->timing.p.pcie_mbps = 16000;
    if (qp_mbps) {
        d->timing.p.qp_mbps = qp_mbps;
    }
    post_sq(&qa, (TWqe) { .op = SQ_OP_RDMA_WRITE, .laddr = TRT_SRC, .len = NPKTS * TRT_MTU,
                          .raddr = TRT_MR_VA, .rkey = TRT_RKEY });
    t0 = h->now_ns;
    ring(&qa);
    for (uint64_t t = t0; seen < NPKTS && t < t0 + 100000; t++) {
        clock_to(t);
        while (seen < h->frames->len) {
            out[seen++] = t - t0;
        }
    }
    ck_assert_uint_eq(seen, NPKTS);
}

/* The first of them: descriptor fetch, half an MTU of DMA, the engine and MAC, one frame time. */
#define FIRST_OUT (1100 + TRT_MTU / 2 + 1000 + 100 + (HDRS + RETH_LEN + TRT_MTU + WIRE_EXTRA))

/* Eight MTU packets to the peer: the DMA engine (2 bytes per ns) outruns the wire (1 byte per
 * ns), so after the first packet they leave back to back, one frame time apart. */
START_TEST(frames_leave_paced_by_the_wire)
{
    uint64_t out[NPKTS];

    write_departures(0, out);
    ck_assert_uint_eq(out[0], FIRST_OUT);
    for (unsigned k = 1; k < NPKTS; k++) {
        ck_assert_uint_eq(out[k] - out[k - 1], HDRS + TRT_MTU + WIRE_EXTRA);
    }
}
END_TEST

/* The same eight packets with the QP's engine issuing 0.5 payload bytes per ns, slower than the
 * wire: the first leaves as before, the rest one payload time (2 ns a byte) apart. */
START_TEST(one_qp_is_paced_by_its_engine)
{
    const uint64_t pace = 2 * TRT_MTU;
    uint64_t out[NPKTS];

    write_departures(4000, out);
    ck_assert_uint_eq(out[0], FIRST_OUT);
    /* The first frame carries the RETH: the second leaves that much less after it. */
    ck_assert_uint_eq(out[1] - out[0], pace - RETH_LEN);
    for (unsigned k = 2; k < NPKTS; k++) {
        ck_assert_uint_eq(out[k] - out[k - 1], pace);
    }
}
END_TEST

/* With the default parameters on a 100 Gb/s port, one QP streaming 64 KiB WRITEs over internal
 * loopback completes them one 64 KiB payload time at qp-mbps apart (RC MTU 1024: 64 packets of
 * 1024 bytes, each 8192000 / 49000 ns rounded up, 48.8 Gb/s): Intel's one-QP figure, not the
 * wire's (92.6 Gb/s of payload). */
START_TEST(one_qp_streams_at_the_published_rate)
{
    const unsigned nmsgs = 8;
    const uint32_t len = 64 << 10;
    const uint64_t pkt_ns = (TRT_MTU * 8 * 1000ull + d->timing.p.qp_mbps - 1) / d->timing.p.qp_mbps;
    uint64_t done[8];
    unsigned seen = 0;
    TCqe c;

    add_arp(TRT_OWN_MAC);
    connect_default();
    ck_assert_uint_eq(d->timing.p.qp_mbps, 49000);
    d->timing.mode = TIMING_MODEL;
    d->timing.link_mbps = 100000;
    for (unsigned k = 0; k < nmsgs; k++) {
        post_sq(&qa, (TWqe) { .op = SQ_OP_RDMA_WRITE, .laddr = TRT_SRC, .len = len,
                              .raddr = TRT_MR_VA, .rkey = TRT_RKEY });
    }
    ring(&qa);
    while (seen < nmsgs) {
        ck_assert(h->timer_armed);
        clock_to(h->timer_deadline);
        while (seen < nmsgs && poll_cq(&qa, &c)) {
            done[seen++] = h->now_ns;
        }
    }
    /* The last one's ACK shares the wire and the receive DMA with no data: it comes sooner. */
    for (unsigned k = 1; k < nmsgs - 1; k++) {
        ck_assert_uint_eq(done[k] - done[k - 1], len / TRT_MTU * pkt_ns);
    }
    ck_assert_uint_le(done[nmsgs - 1] - done[nmsgs - 2], len / TRT_MTU * pkt_ns);
}
END_TEST

/* Each QP's engine has its own pace: a second QP does not wait for the first one's, and a
 * packet without payload takes none of it. INLINE timing paces nothing. */
START_TEST(each_qp_has_its_own_pace)
{
    IrdmaTimingParams p;
    IrdmaTiming t;
    TimingUnit a = { 0 }, b = { 0 };

    timing_params_default(&p);
    p.qp_mbps = 8000;                 /* 1 byte per ns */
    timing_init(&t, TIMING_MODEL, &p, 100000);
    ck_assert_uint_eq(timing_qp_wait_ns(&t, &a, 100), 0);
    timing_qp_issue(&t, &a, 100, 4096);
    ck_assert_uint_eq(timing_qp_wait_ns(&t, &a, 100), 4096);
    ck_assert_uint_eq(timing_qp_wait_ns(&t, &a, 100 + 4096), 0);
    ck_assert_uint_eq(timing_qp_wait_ns(&t, &b, 100), 0);
    timing_qp_issue(&t, &a, 200, 0);
    ck_assert_uint_eq(timing_qp_wait_ns(&t, &a, 200), 4096 - 100);
    /* Issued late: the pace counts from then, not from when it was free. */
    timing_qp_issue(&t, &a, 10000, 1000);
    ck_assert_uint_eq(timing_qp_wait_ns(&t, &a, 10000), 1000);
    timing_init(&t, TIMING_INLINE, &p, 100000);
    timing_qp_issue(&t, &b, 300, 4096);
    ck_assert_uint_eq(timing_qp_wait_ns(&t, &b, 300), 0);
}
END_TEST

static void suspend_qa(void)
{
    uint64_t q[8] = { 0 };

    q[3] = cqpt_hdr(CQP_OP_SUSPEND_QP) | pe_prep(CQPWQE_QP_ID, qa.id);
    cqpt_post(q);
    cqpt_ring();
}

/* SUSPEND_QP on an idle QP: its AE when the CQP has processed the WQE (the read, no cycles
 * here, the CCQ write); on a QP with a 16 KiB WRITE in flight: when its last ACK is in, with
 * the WRITE's completion. The device keeps both as its suspend latency. */
START_TEST(suspend_latency_is_the_cqp_op_or_the_drain)
{
    const uint64_t cqp_ns = 1000 + 500;
    uint64_t t0, done_at = 0;

    connect_then_model(TRT_OWN_MAC);
    t0 = h->now_ns;
    suspend_qa();
    clock_to(t0 + cqp_ns - 1);
    ck_assert_uint_eq(d->suspend_latency.count, 0);
    clock_to(t0 + cqp_ns);
    ck_assert_uint_eq(d->suspend_latency.count, 1);
    ck_assert_uint_eq(d->suspend_latency.max_ns, cqp_ns);

    /* Busy: the QP runs again (as after a RESUME_QP, which would need a WS tree here), fetches
     * a WRITE, and is suspended while its packets are out. */
    d->suspend_latency = (TimingStat) { 0 };
    qp_lookup_mut(d, qa.id)->suspended = false;
    post_sq(&qa, (TWqe) { .op = SQ_OP_RDMA_WRITE, .laddr = TRT_SRC, .len = 16 * TRT_MTU,
                          .raddr = TRT_MR_VA, .rkey = TRT_RKEY });
    ring(&qa);
    clock_advance(1100);                              /* fetched: the WRITE is on its way */
    t0 = h->now_ns;
    suspend_qa();
    while (!d->suspend_latency.count) {
        ck_assert(h->timer_armed);
        clock_to(h->timer_deadline);
        if (!done_at && cqe_valid(&qa)) {
            done_at = h->now_ns;
        }
    }
    ck_assert_uint_eq(done_at, h->now_ns);
    ck_assert_uint_eq(d->suspend_latency.max_ns, done_at - t0);
    ck_assert_uint_gt(d->suspend_latency.max_ns, 16 * (TRT_MTU + HDRS));
}
END_TEST

/* The same run twice gives the same digest; the same run with another PCIe latency does not
 * (the data path's writes happen at other times). */
static uint64_t digest_of_a_write(uint64_t pcie_read_ns)
{
    uint64_t digest;

    timing_setup();
    connect_then_model(TRT_OWN_MAC);
    d->timing.p.pcie_read_ns = pcie_read_ns;
    post_sq(&qa, (TWqe) { .op = SQ_OP_RDMA_WRITE, .laddr = TRT_SRC, .len = 4096,
                          .raddr = TRT_MR_VA, .rkey = TRT_RKEY });
    ring(&qa);
    clock_advance(1000000);
    ck_assert(cqe_valid(&qa));
    ck_assert_uint_gt(d->effects.count, 0);
    digest = d->effects.digest;
    timing_teardown();
    return digest;
}

START_TEST(effects_digest_follows_the_event_times)
{
    uint64_t a, b, c;

    timing_teardown();                /* the fixture's device: each run makes its own */
    a = digest_of_a_write(1000);
    b = digest_of_a_write(1000);
    c = digest_of_a_write(1001);
    timing_setup();
    ck_assert_uint_eq(a, b);
    ck_assert_uint_ne(a, c);
}
END_TEST

Suite *timing_suite(void)
{
    Suite *s = suite_create("timing");
    TCase *tc = tcase_create("model");

    tcase_add_checked_fixture(tc, timing_setup, timing_teardown);
    tcase_add_test(tc, loopback_write_lands_and_completes_at_the_modelled_times);
    tcase_add_test(tc, frames_leave_paced_by_the_wire);
    tcase_add_test(tc, one_qp_is_paced_by_its_engine);
    tcase_add_test(tc, each_qp_has_its_own_pace);
    tcase_add_test(tc, one_qp_streams_at_the_published_rate);
    tcase_add_test(tc, suspend_latency_is_the_cqp_op_or_the_drain);
    tcase_add_test(tc, effects_digest_follows_the_event_times);
    suite_add_tcase(s, tc);
    return s;
}
