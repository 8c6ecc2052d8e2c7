/*
 * test_loopback.c - internal loopback under INLINE timing: RC packets that travel as trains,
 * without frames (roce.h, RoceTrain), against the same packets as frames.
 *
 * Every scenario runs on one device whose host cannot map guest memory (so every looped packet
 * is a frame: the reference) and again on devices whose host maps it whole, in short pieces
 * (trains of a few packets, packets split between a train and a frame) or not at all (payloads
 * in frames, everything else in trains). All of them must leave guest memory (data, CQs, AEQ,
 * shadow areas), the trace events and the RoCE counters exactly as the reference does, and
 * every mapping unmapped. Where each placement is one DMA write in both ways, so is the effects
 * digest; trains place a run of MIDDLE packets with one write per guest page instead.
 */
#include <check.h>
#include <string.h>
#include "emu/rdma/hmc.h"
#include "emu/rdma/pe_regs.h"
#include "emu/rdma/qp.h"
#include "emu/rdma/roce.h"
#include "emu/port/wire.h"
#include "trt_util.h"

typedef enum Way {
    WAY_FRAMES,                /* the reference: a host without dma_map */
    WAY_TRAINS,                /* guest memory maps whole */
    WAY_SHORT_MAPS,            /* at most TRT_SHORT_MAP bytes a mapping */
    WAY_NO_MAPS,               /* dma_map maps nothing */
    WAY_COUNT,
} Way;

static const char *const way_names[] = {
    [WAY_FRAMES] = "frames", [WAY_TRAINS] = "trains", [WAY_SHORT_MAPS] = "short maps",
    [WAY_NO_MAPS] = "no maps",
};

#define RNR_WAIT_NS     2000000ull         /* past the responder's RNR timer (1.28 ms) */
#define SMALL_TURN      7                  /* events, and packets of the wire, a turn */
/* A second MR: 4 KiB pages through a level-1 PBL from PBLE 0, some of them consecutive. */
#define PBL_MR_IDX      0x124u
#define PBL_MR_KEY      0x77
#define PBL_MR_STAG     ((PBL_MR_IDX << 8) | PBL_MR_KEY)
#define PBL_MR_VA       0x7e0000001000ull
#define PBL_PAGE        4096u
#define PBL_PAGES       8
#define PBL_AREA        (TRT_LOCAL + 0x80000)
/* A third MR, one run of 4 KiB pages of which only the first UNBACKED_OK bytes are memory. */
#define EDGE_MR_IDX     0x125u
#define EDGE_MR_KEY     0x31
#define EDGE_MR_STAG    ((EDGE_MR_IDX << 8) | EDGE_MR_KEY)
#define EDGE_MR_VA      0x7d0000000000ull
#define EDGE_MR_LEN     (64u << 10)
#define UNBACKED_OK     (16u << 10)

typedef struct Outcome {
    uint8_t *mem;
    GPtrArray *traces;
    RoceStats stats;
    WireStats wire;
    IrdmaEffects effects;
} Outcome;

static IrdmaHostOps no_map_ops;

static void start(Way way, unsigned mtu)
{
    const TGeom g = { .mtu = mtu, .mr_len = TRT_MR_LEN };

    trt_geom = g;
    h = fake_host_new(trt_mem_size(&g));
    no_map_ops = fake_host_ops;
    no_map_ops.dma_map = NULL;
    no_map_ops.dma_unmap = NULL;
    d = fake_dev_new_ops(h, way == WAY_FRAMES ? &no_map_ops : &fake_host_ops);
    h->dma_map_max = way == WAY_SHORT_MAPS ? TRT_SHORT_MAP : 0;
    h->no_dma_map = way == WAY_NO_MAPS;
    trt_bring_up();
    add_arp(TRT_OWN_MAC);
    connect_default();
}

/* What the scenario left, with the function's statistics gathered into guest memory (so the
 * ways must agree on them too): every packet looped was sent and received by it. */
static Outcome take(void)
{
    Outcome o;
    const RoceStats *st = roce_stats(d->roce);

    ck_assert_msg(!h->timer_armed || h->timer_deadline > h->now_ns, "events left to run");
    ck_assert_uint_eq(h->dma_maps, 0);
    gather_stats(0);
    ck_assert_uint_eq(stat48(GSTATS_IP4TXPKTS), st->loopback_frames + st->tx_frames);
    ck_assert_uint_eq(stat48(GSTATS_IP4RXPKTS), st->rx_frames);
    ck_assert_uint_eq(stat48(GSTATS_UDPRXPKTS), st->rx_frames);
    o = (Outcome) {
        .mem = g_memdup2(h->mem, h->mem_size), .traces = h->traces,
        .stats = *st, .wire = *wire_stats(d->wire), .effects = d->effects,
    };
    h->traces = g_ptr_array_new_with_free_func(g_free);
    return o;
}

static void outcome_free(Outcome *o)
{
    g_free(o->mem);
    g_ptr_array_free(o->traces, TRUE);
}

static void expect_same(const Outcome *ref, const Outcome *o, Way way, size_t mem_size)
{
    const char *w = way_names[way];

    for (unsigned i = 0; i < MIN(ref->traces->len, o->traces->len); i++) {
        const char *a = g_ptr_array_index(ref->traces, i), *b = g_ptr_array_index(o->traces, i);

        ck_assert_msg(!strcmp(a, b), "%s: trace %u is '%s', with frames '%s'", w, i, b, a);
    }
    ck_assert_msg(ref->traces->len == o->traces->len, "%s: %u trace events, with frames %u", w,
                  o->traces->len, ref->traces->len);
    if (memcmp(ref->mem, o->mem, mem_size)) {
        size_t i = 0;

        while (ref->mem[i] == o->mem[i]) {
            i++;
        }
        ck_abort_msg("%s: guest byte at 0x%zx is 0x%02x, with frames 0x%02x", w, i, o->mem[i],
                     ref->mem[i]);
    }
    ck_assert_msg(!memcmp(&ref->stats, &o->stats, sizeof(ref->stats)), "%s: RoCE counters", w);
    ck_assert_uint_eq(ref->wire.dropped, o->wire.dropped);
    if (way == WAY_NO_MAPS) {
        ck_assert_uint_eq(ref->effects.count, o->effects.count);
        ck_assert_uint_eq(ref->effects.digest, o->effects.digest);
    }
}

/* Run @scenario every way at RC MTU @mtu and compare each with the reference. */
static void every_way(void (*scenario)(void), unsigned mtu)
{
    Outcome ref = { 0 };
    size_t mem_size = 0;

    for (Way way = WAY_FRAMES; way < WAY_COUNT; way++) {
        Outcome o;

        start(way, mtu);
        scenario();
        o = take();
        mem_size = h->mem_size;
        cqpt_teardown();
        if (way == WAY_FRAMES) {
            ref = o;
            ck_assert_uint_gt(ref.stats.loopback_frames, 0);
            continue;
        }
        expect_same(&ref, &o, way, mem_size);
        outcome_free(&o);
    }
    outcome_free(&ref);
}

/* --- helpers --- */

static void fill_pattern(uint64_t pa, uint32_t len, uint8_t seed)
{
    for (uint32_t i = 0; i < len; i++) {
        h->mem[pa + i] = (uint8_t)(seed + i * 7 + (i >> 8));
    }
}

static unsigned drain_cq(TQp *qp, bool *error)
{
    TCqe c;
    unsigned n = 0;

    while (poll_cq(qp, &c)) {
        *error |= !!(c.hdr & CQE_ERROR);
        n++;
    }
    return n;
}

/* The SQ CQEs of @qp: @n of them, none in error. */
static void expect_sq_ok(TQp *qp, unsigned n)
{
    bool error = false;

    ck_assert_uint_eq(drain_cq(qp, &error), n);
    ck_assert(!error);
}

static void write_to(uint64_t laddr, uint32_t lstag, uint32_t len, uint64_t raddr,
                     uint32_t rkey)
{
    post_sq(&qa, (TWqe) { .op = SQ_OP_RDMA_WRITE, .laddr = laddr, .lstag = lstag, .len = len,
                          .raddr = raddr, .rkey = rkey });
}

/* REG_MR of @idx/@key at @va for @len bytes of 4 KiB pages: at @pa, or through a level-1 PBL
 * from PBLE 0 (@pa 0). */
static void reg_4k_mr(uint32_t idx, uint8_t key, uint64_t va, uint64_t len, uint64_t pa)
{
    uint64_t q[8] = { 0 };

    q[0] = va;
    q[1] = pe_prep(CQPWQE_STAG_LEN, len) | pe_prep(CQPWQE_STAG_PDID, TRT_PD);
    q[2] = pe_prep(CQPWQE_STAG_KEY, key) | pe_prep(CQPWQE_STAG_IDX, idx);
    q[4] = pa;
    q[3] = cqpt_hdr(CQP_OP_REG_MR) | CQPWQE_STAG_MR |
           pe_prep(CQPWQE_LPBLSIZE, pa ? PBL_LEVEL_NONE : PBL_LEVEL_1) |
           pe_prep(CQPWQE_STAG_HPAGESIZE, STAG_PAGE_4K) |
           pe_prep(CQPWQE_STAG_ARIGHTS, STAG_RIGHT_LOCAL_READ | STAG_RIGHT_LOCAL_WRITE |
                                        STAG_RIGHT_REMOTE_READ | STAG_RIGHT_REMOTE_WRITE) |
           CQPWQE_STAG_REMACCENABLED | CQPWQE_STAG_VABASEDTO;
    cqp_ok(q);
}

/* --- scenarios --- */

/* WRITEs of every shape in one doorbell: a byte, around one MTU, several, more than a train,
 * more than the SQ's window; then each one's data is where it belongs. */
static void writes(void)
{
    const uint32_t lens[] = {
        1, TRT_MTU - 1, TRT_MTU, TRT_MTU + 1, 5 * TRT_MTU + 7,
        (ROCE_TRAIN_MAX + 6) * TRT_MTU + 3, 600 * TRT_MTU,
    };
    uint64_t off = 0;

    fill_pattern(TRT_SRC, TRT_MR_LEN, 3);
    for (unsigned i = 0; i < G_N_ELEMENTS(lens); i++) {
        write_to(TRT_SRC + off, 0, lens[i], TRT_MR_VA + off + i, TRT_RKEY);
        off += lens[i] + i;
    }
    ring(&qa);
    expect_sq_ok(&qa, G_N_ELEMENTS(lens));
    off = 0;
    for (unsigned i = 0; i < G_N_ELEMENTS(lens); i++) {
        ck_assert(!memcmp(h->mem + TRT_DATA + off + i, h->mem + TRT_SRC + off, lens[i]));
        off += lens[i] + i;
    }
}

START_TEST(writes_of_every_size_arrive_as_in_frames)
{
    every_way(writes, TRT_MTU);
}
END_TEST

/* The same with the wire handing on a few packets a turn: trains are cut where frames are. */
static void writes_in_small_turns(void)
{
    d->events.run_budget = SMALL_TURN;
    writes();
}

START_TEST(writes_in_small_turns_arrive_as_in_frames)
{
    every_way(writes_in_small_turns, TRT_MTU);
}
END_TEST

START_TEST(writes_at_the_largest_mtu_arrive_as_in_frames)
{
    every_way(writes, ROCE_MTU_MAX);
}
END_TEST

/* SENDs into posted receives (one with immediate, one solicited, one zero-length), a WRITE
 * with immediate, a READ; then a SEND that finds no receive waits out an RNR NAK. */
static void sends_reads_and_rnr(void)
{
    const uint32_t lens[] = { 0, 100, 3 * TRT_MTU + 5, 9 * TRT_MTU };
    bool error = false;

    fill_pattern(TRT_SRC, 64 << 10, 9);
    fill_pattern(TRT_DATA, 64 << 10, 17);
    for (unsigned i = 0; i < G_N_ELEMENTS(lens) + 1; i++) {
        post_rq(&qb, TRT_RECV + i * 0x4000, 0x4000);
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(lens); i++) {
        post_sq(&qa, (TWqe) { .op = i == 2 ? SQ_OP_SEND_SOL : SQ_OP_SEND,
                              .laddr = TRT_SRC + i * 0x1000, .len = lens[i],
                              .imm_valid = i == 1, .imm = 0x1234 });
    }
    post_sq(&qa, (TWqe) { .op = SQ_OP_RDMA_WRITE, .laddr = TRT_SRC, .len = 2 * TRT_MTU + 1,
                          .raddr = TRT_MR_VA + 0x8000, .rkey = TRT_RKEY, .imm_valid = true,
                          .imm = 0x5678 });
    post_sq(&qa, (TWqe) { .op = SQ_OP_RDMA_READ, .laddr = TRT_SRC + 0x20000,
                          .len = 10 * TRT_MTU + 11, .raddr = TRT_MR_VA + 3, .rkey = TRT_RKEY });
    ring(&qa);
    expect_sq_ok(&qa, G_N_ELEMENTS(lens) + 2);
    ck_assert_uint_eq(drain_cq(&qb, &error), G_N_ELEMENTS(lens) + 1);
    ck_assert(!error);
    ck_assert(!memcmp(h->mem + TRT_SRC + 0x20000, h->mem + TRT_DATA + 3, 10 * TRT_MTU + 11));
    /* No receive posted: RNR NAK, the requester waits, a receive comes, the SEND goes. */
    post_sq(&qa, (TWqe) { .op = SQ_OP_SEND, .laddr = TRT_SRC, .len = 4 * TRT_MTU });
    ring(&qa);
    ck_assert_uint_eq(drain_cq(&qa, &error), 0);
    post_rq(&qb, TRT_RECV, 0x4000);
    clock_advance(RNR_WAIT_NS);
    expect_sq_ok(&qa, 1);
    ck_assert_uint_eq(drain_cq(&qb, &error), 1);
}

START_TEST(sends_reads_and_rnr_naks_arrive_as_in_frames)
{
    every_way(sends_reads_and_rnr, TRT_MTU);
}
END_TEST

/* A WRITE whose source overlaps its own target, either way round, and a WRITE whose source is
 * the target of the WRITE before it in the same doorbell: each carries the bytes its source
 * held when it was sent, as a frame does. */
static void overlapping(void)
{
    const uint32_t len = 20 * TRT_MTU + 100;

    fill_pattern(TRT_DATA, TRT_MR_LEN, 5);
    write_to(TRT_DATA + 0x1000, 0, len, TRT_MR_VA + 0x1000 + 3 * TRT_MTU + 8, TRT_RKEY);
    write_to(TRT_DATA + 0x40000 + 5 * TRT_MTU, 0, len, TRT_MR_VA + 0x40000 + 17, TRT_RKEY);
    write_to(TRT_SRC, 0, len, TRT_MR_VA + 0x80000, TRT_RKEY);
    write_to(TRT_DATA + 0x80000 + TRT_MTU, 0, len, TRT_MR_VA + 0xc0000, TRT_RKEY);
    ring(&qa);
    expect_sq_ok(&qa, 4);
}

START_TEST(overlapping_writes_carry_what_frames_carry)
{
    every_way(overlapping, TRT_MTU);
}
END_TEST

/* Where page k of the PBL MR lies: pages 0 to 2 follow each other in guest memory, 3 to 5 do
 * not. */
static const unsigned pbl_order[PBL_PAGES] = { 0, 1, 2, 5, 4, 6, 3, 7 };

/* The PBL MR, its pages through a level-1 PBL from PBLE 0 in pbl_order. */
static void reg_pbl_mr(void)
{
    uint64_t pble;

    ck_assert_uint_eq(hmc_obj_gpa(d, HMC_PBLE, 0, &pble), HMC_OK);
    for (unsigned i = 0; i < PBL_PAGES; i++) {
        st64(h->mem + pble + 8 * i, PBL_AREA + pbl_order[i] * PBL_PAGE);
    }
    reg_4k_mr(PBL_MR_IDX, PBL_MR_KEY, PBL_MR_VA, PBL_PAGES * PBL_PAGE, 0);
}

/* WRITEs to and from an MR whose pages follow each other in guest memory only in part. */
static void pbl_pages(void)
{
    reg_pbl_mr();
    fill_pattern(TRT_SRC, 64 << 10, 11);
    fill_pattern(PBL_AREA, PBL_PAGES * PBL_PAGE, 23);
    write_to(TRT_SRC, 0, 7 * PBL_PAGE - 300, PBL_MR_VA + 200, PBL_MR_STAG);
    write_to(PBL_MR_VA + 100, PBL_MR_STAG, 7 * PBL_PAGE, TRT_MR_VA + 0x10000, TRT_RKEY);
    ring(&qa);
    expect_sq_ok(&qa, 2);
}

START_TEST(pages_through_a_pbl_arrive_as_in_frames)
{
    every_way(pbl_pages, TRT_MTU);
}
END_TEST

/* The device's effects (DMA writes, interrupts) of one WRITE of three pages of the PBL MR from
 * page @first, after checking that they arrived. */
static uint64_t three_page_write(unsigned first)
{
    uint64_t before = d->effects.count;

    write_to(TRT_SRC, 0, 3 * PBL_PAGE, PBL_MR_VA + first * PBL_PAGE, PBL_MR_STAG);
    ring(&qa);
    expect_sq_ok(&qa, 1);
    for (unsigned k = 0; k < 3; k++) {
        ck_assert(!memcmp(h->mem + PBL_AREA + pbl_order[first + k] * PBL_PAGE,
                          h->mem + TRT_SRC + k * PBL_PAGE, PBL_PAGE));
    }
    return d->effects.count - before;
}

/* A train placed at once across pages that follow each other in guest memory is one DMA:
 * three pages in a row cost two DMAs fewer than three apart. */
START_TEST(pages_in_a_row_are_placed_in_one_dma)
{
    uint64_t in_a_row, apart;

    start(WAY_TRAINS, TRT_MTU);
    reg_pbl_mr();
    fill_pattern(TRT_SRC, 3 * PBL_PAGE, 31);
    in_a_row = three_page_write(0);
    apart = three_page_write(3);
    ck_assert_uint_eq(apart - in_a_row, 2);
    cqpt_teardown();
}
END_TEST

/* A WRITE into an MR whose pages run out of guest memory partway: the responder refuses the
 * packet that fails (NAK, AE) after placing those before it. */
static void target_runs_out(void)
{
    bool error = false;

    reg_4k_mr(EDGE_MR_IDX, EDGE_MR_KEY, EDGE_MR_VA, EDGE_MR_LEN, h->mem_size - UNBACKED_OK);
    fill_pattern(TRT_SRC, EDGE_MR_LEN, 29);
    write_to(TRT_SRC, 0, EDGE_MR_LEN, EDGE_MR_VA, EDGE_MR_STAG);
    ring(&qa);
    drain_cq(&qa, &error);
    ck_assert_uint_eq(qp_lookup(d, qb.id)->state, QP_STATE_ERROR);
}

START_TEST(a_target_out_of_memory_is_refused_as_with_frames)
{
    every_way(target_runs_out, TRT_MTU);
}
END_TEST

/* A WRITE whose source runs out of guest memory partway: the requester fails at the first
 * packet it cannot read, after sending those before it. */
static void source_runs_out(void)
{
    write_to(h->mem_size - 3 * TRT_MTU - 100, 0, 8 * TRT_MTU, TRT_MR_VA, TRT_RKEY);
    ring(&qa);
    ck_assert_uint_eq(qp_lookup(d, qa.id)->state, QP_STATE_ERROR);
}

START_TEST(a_source_out_of_memory_fails_as_with_frames)
{
    every_way(source_runs_out, TRT_MTU);
}
END_TEST

/* A SEND longer than its receive: the packet that does not fit is refused, unplaced. */
static void send_too_long(void)
{
    fill_pattern(TRT_SRC, 8 * TRT_MTU, 31);
    post_rq(&qb, TRT_RECV, 4 * TRT_MTU - 100);
    post_sq(&qa, (TWqe) { .op = SQ_OP_SEND, .laddr = TRT_SRC, .len = 6 * TRT_MTU });
    ring(&qa);
    ck_assert_uint_eq(qp_lookup(d, qb.id)->state, QP_STATE_ERROR);
}

START_TEST(a_send_too_long_is_refused_as_with_frames)
{
    every_way(send_too_long, TRT_MTU);
}
END_TEST

/* A WRITE with a bad rkey: a remote access NAK and AEs. */
static void refused(void)
{
    write_to(TRT_SRC, 0, 6 * TRT_MTU, TRT_MR_VA, TRT_RKEY ^ 1);
    ring(&qa);
    ck_assert_uint_eq(qp_lookup(d, qb.id)->state, QP_STATE_ERROR);
}

START_TEST(a_refused_write_is_refused_as_with_frames)
{
    every_way(refused, TRT_MTU);
}
END_TEST

/* Messages without payload bytes, and their ACKs: trains with no source, whose packets must
 * not point at an offset from NULL (found by the fuzzer under UBSan,
 * tests/fuzz/reproducers/loop-ack-train-null-payload). */
static void empty_messages(void)
{
    bool error = false;

    post_rq(&qb, TRT_RECV, 0x4000);
    write_to(TRT_SRC, 0, 0, TRT_MR_VA, TRT_RKEY);
    post_sq(&qa, (TWqe) { .op = SQ_OP_SEND, .laddr = TRT_SRC, .len = 0 });
    post_sq(&qa, (TWqe) { .op = SQ_OP_RDMA_READ, .laddr = TRT_SRC, .len = 0,
                          .raddr = TRT_MR_VA, .rkey = TRT_RKEY });
    ring(&qa);
    expect_sq_ok(&qa, 3);
    ck_assert_uint_eq(drain_cq(&qb, &error), 1);
    ck_assert(!error);
}

START_TEST(messages_without_payload_arrive_as_in_frames)
{
    every_way(empty_messages, TRT_MTU);
}
END_TEST

/* On a host whose clock runs while the device works (QEMU without -icount), a READ rung under
 * INLINE timing completes within its doorbell write, every way: the response the responder
 * queued behind the request is due at once, not when the host's timer next fires. */
START_TEST(a_read_completes_within_its_doorbell_on_a_running_clock)
{
    for (Way way = WAY_FRAMES; way < WAY_COUNT; way++) {
        bool error = false;

        start(way, TRT_MTU);
        fill_pattern(TRT_DATA, 2 * TRT_MTU, 3);
        h->clock_tick_ns = 1;
        for (unsigned len = 2; len <= 2 * TRT_MTU; len *= 32) {
            post_sq(&qa, (TWqe) { .op = SQ_OP_RDMA_READ, .laddr = TRT_SRC, .len = len,
                                  .raddr = TRT_MR_VA, .rkey = TRT_RKEY });
            irdma_dev_mmio_write(d, PFPE_WQEALLOC, qa.id);
            ck_assert_msg(drain_cq(&qa, &error) == 1, "%s: the %u B READ is not complete",
                          way_names[way], len);
            ck_assert(!error);
            ck_assert(!memcmp(h->mem + TRT_SRC, h->mem + TRT_DATA, len));
        }
        h->clock_tick_ns = 0;
        settle();
        cqpt_teardown();
    }
}
END_TEST

/* A host call into the device acts at one instant of virtual time, as under -icount: a looped
 * WRITE, from its doorbell to its CQE, reads the host's clock once (seven times otherwise, each
 * a clock_gettime() in QEMU), and the next call reads it anew (its effects carry the new time). */
START_TEST(a_host_call_reads_the_clock_once)
{
    start(WAY_TRAINS, TRT_MTU);
    fill_pattern(TRT_SRC, TRT_MTU, 5);
    for (unsigned i = 0; i < 2; i++) {
        bool error = false;

        h->now_ns += 1000;
        write_to(TRT_SRC, 0, TRT_MTU, TRT_MR_VA, TRT_RKEY);
        h->clock_reads = 0;
        irdma_dev_mmio_write(d, PFPE_WQEALLOC, qa.id);
        ck_assert_uint_eq(h->clock_reads, 1);
        ck_assert_uint_eq(d->effects.last_ns, h->now_ns);
        ck_assert_uint_eq(drain_cq(&qa, &error), 1);
        ck_assert(!error);
    }
    settle();
    cqpt_teardown();
}
END_TEST

/* The host's mappings end with the device: a reset drops trains still queued. */
START_TEST(a_reset_unmaps_the_trains_in_flight)
{
    start(WAY_TRAINS, TRT_MTU);
    d->events.run_budget = 1;
    write_to(TRT_SRC, 0, 100 * TRT_MTU, TRT_MR_VA, TRT_RKEY);
    irdma_dev_mmio_write(d, PFPE_WQEALLOC, qa.id);
    ck_assert_uint_gt(h->dma_maps, 0);
    irdma_dev_reset(d);
    ck_assert_uint_eq(h->dma_maps, 0);
    cqpt_teardown();
}
END_TEST

Suite *loopback_suite(void)
{
    Suite *s = suite_create("loopback");
    TCase *tc = tcase_create("trains");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, writes_of_every_size_arrive_as_in_frames);
    tcase_add_test(tc, writes_in_small_turns_arrive_as_in_frames);
    tcase_add_test(tc, writes_at_the_largest_mtu_arrive_as_in_frames);
    tcase_add_test(tc, sends_reads_and_rnr_naks_arrive_as_in_frames);
    tcase_add_test(tc, overlapping_writes_carry_what_frames_carry);
    tcase_add_test(tc, pages_through_a_pbl_arrive_as_in_frames);
    tcase_add_test(tc, pages_in_a_row_are_placed_in_one_dma);
    tcase_add_test(tc, a_target_out_of_memory_is_refused_as_with_frames);
    tcase_add_test(tc, a_source_out_of_memory_fails_as_with_frames);
    tcase_add_test(tc, a_send_too_long_is_refused_as_with_frames);
    tcase_add_test(tc, a_refused_write_is_refused_as_with_frames);
    tcase_add_test(tc, messages_without_payload_arrive_as_in_frames);
    tcase_add_test(tc, a_host_call_reads_the_clock_once);
    tcase_add_test(tc, a_reset_unmaps_the_trains_in_flight);
    tcase_add_test(tc, a_read_completes_within_its_doorbell_on_a_running_clock);
    suite_add_tcase(s, tc);
    return s;
}
