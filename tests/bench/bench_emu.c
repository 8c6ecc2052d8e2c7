/*
 * bench_emu.c - microbenchmarks of the device core without QEMU (docs/performance.md).
 *
 * - CQP ops per second: NOP, and CREATE_CQ + DESTROY_CQ pairs, each op issued as irdma issues
 *   it (cqpt_op): the WQE written into the CQP ring, the doorbell, the device processing it,
 *   and its CCQ CQE read back and checked.
 * - RDMA WRITE throughput between two connected RC QPs (trt_util's A and B, the RC MTU at its
 *   largest) from 64 B to 4 MiB, one WRITE WQE per message, WRITES_PER_RING WQEs per
 *   doorbell, every SQ CQE checked, the payload compared once per size outside the timed
 *   region; under INLINE timing, as under plain TCG. Twice: over the port's internal loopback
 *   (the ARP entry names the port's own MAC, as for two QPs of one device in one guest), and
 *   through the wire, the requester's frames carried to the responder and its ACKs back by the
 *   fake host (as test_transport.c does, without losses). Host memcpy() of the same bytes
 *   between the same buffers is measured in the same run, and the loopback ratio reported
 *   against its target (at least 50 % of memcpy from 64 KiB on); speed never
 *   makes the run fail.
 *
 * Each figure is one timed run of as many iterations as fill --time seconds (monotonic
 * clock), found by growing the count. GB/s are 10^9 bytes per second of payload.
 *
 * --latency instead prints what the timing model predicts (benchmark 3 compares it with the
 * guest's own measurement under -icount, scripts/bench-latency.sh): one signaled WRITE per
 * size over internal loopback at the given RC MTU and link speed, under model timing with the
 * default parameters, from its doorbell to its CQE, in virtual ns.
 *
 * --suspend prints the model's QP suspend and resume latencies: SUSPEND_QP posted
 * to its suspend-complete AE, on an idle QP and on one with a WRITE of each size on its way
 * (the AE waits for the last ACK), and RESUME_QP posted to the QP running again.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <check.h>
#include <glib.h>
#include "../unit/trt_util.h"
#include "emu/rdma/pe_defs.h"
#include "emu/rdma/qp.h"
#include "emu/rdma/roce.h"
#include "emu/rdma/rocev2.h"

#define BENCH_NAME          "bench-emu"
#define BENCH_MTU           ROCE_MTU_MAX      /* the largest the device supports */
#define MIN_SPEED_MBPS      1000              /* --speed: 1 Gb/s to 400 Gb/s */
#define MAX_SPEED_MBPS      400000
#define WRITES_PER_RING     8                 /* a streaming application keeps its SQ busy */
#define DEFAULT_TIME_S      0.3
#define MAX_TIME_S          60.0
#define DEFAULT_SIZES       "64,256,1K,4K,16K,64K,256K,1M,4M"
/* The MR and the source buffer are each the largest size; this bounds the fake host memory. */
#define MAX_SIZE            (64u << 20)
#define TARGET_RATIO        0.5
#define TARGET_FROM         (64u << 10)
#define CQP_CCQ_SIZE        256
#define CQP_CQ_ID           1
#define CQP_CQ_SIZE         64
/* The iteration count grows by at most this much from one calibration run to the next: a run
 * far shorter than the target says little about the rate. */
#define CALIBRATE_GROWTH    100
#define CALIBRATE_AIM       1.1               /* aim past the target, not just short of it */

/* A timed loop of @n iterations of what @arg describes. */
typedef void (*BenchFn)(void *arg, uint64_t n);

typedef struct Measure {
    uint64_t iters;
    double secs;
} Measure;

typedef struct WriteBench {
    uint32_t len;
    uint64_t src, dst;         /* A's source (STag 0), and B's memory in the MR, as guest PAs */
} WriteBench;

typedef struct WriteRow {
    uint32_t len;
    Measure emu, cpy;          /* over internal loopback; memcpy */
    Measure wire;              /* through the host's wire */
} WriteRow;

static GPtrArray *wire_spare;  /* the wire's second frame array, so carrying allocates none */

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Time @fn over enough iterations to last @target seconds: grow the count until one run does,
 * and report that run. */
static Measure measure(BenchFn fn, void *arg, double target)
{
    uint64_t n = 1;

    for (;;) {
        double t0 = now_s(), t;

        fn(arg, n);
        t = now_s() - t0;
        if (t >= target) {
            return (Measure) { .iters = n, .secs = t };
        }
        if (t > 0) {
            n = MAX(n + 1, MIN(n * CALIBRATE_GROWTH, (uint64_t)(n * target * CALIBRATE_AIM / t)));
        } else {
            n *= CALIBRATE_GROWTH;
        }
    }
}

/* --- CQP --- */

static void cqp_nops(void *arg, uint64_t n)
{
    const uint64_t q[8] = { [3] = cqpt_hdr(CQP_OP_NOP) };

    (void)arg;
    while (n--) {
        cqp_ok(q);
    }
}

/* irdma_sc_cq_create and irdma_sc_cq_destroy of one contiguous CQ, @n times. */
static void cqp_cq_pairs(void *arg, uint64_t n)
{
    const uint64_t create[8] = {
        [0] = pe_prep(CQPWQE_CQ_SIZE, CQP_CQ_SIZE),
        [4] = CQPT_CQ,
        [5] = CQPT_CQ_SHADOW,
        [3] = cqpt_hdr(CQP_OP_CREATE_CQ) | pe_prep(CQPWQE_CQ_ID, CQP_CQ_ID),
    };
    const uint64_t destroy[8] = {
        [3] = cqpt_hdr(CQP_OP_DESTROY_CQ) | pe_prep(CQPWQE_CQ_ID, CQP_CQ_ID),
    };

    (void)arg;
    while (n--) {
        cqp_ok(create);
        cqp_ok(destroy);
    }
}

/* Ops per second of each op kind, on a device brought up as irdma's probe does. */
static void bench_cqp(double target, Measure *nop, Measure *pair)
{
    cqpt_setup();
    h->quiet = true;           /* trace events are off in a production QEMU */
    cqpt_start(CQP_CCQ_SIZE);
    *nop = measure(cqp_nops, NULL, target);
    *pair = measure(cqp_cq_pairs, NULL, target);
    cqpt_teardown();
}

/* --- RDMA WRITE --- */

/* Carry frames until the wire is quiet, lossless: each to the receive path (roce_rx_frame: the
 * fixture sets up no LAN switch, see test_transport.c), then what it made due runs. @guard
 * bounds the frames: more means the QPs never settle. */
static void wire_run(uint64_t guard)
{
    uint64_t carried = 0;

    while (h->frames->len) {
        GPtrArray *w = h->frames;

        h->frames = wire_spare;
        for (unsigned i = 0; i < w->len; i++) {
            gsize len;
            const uint8_t *f = g_bytes_get_data(g_ptr_array_index(w, i), &len);

            roce_rx_frame(d, f, len);
            settle();
        }
        carried += w->len;
        g_ptr_array_set_size(w, 0);
        wire_spare = w;
        ck_assert_msg(carried <= guard, "the wire never goes quiet (%" G_GUINT64_FORMAT
                      " frames)", carried);
    }
}

/* @n WRITEs of @wb on A in one doorbell, carried, and each one's successful SQ CQE on A. */
static void write_round(const WriteBench *wb, unsigned n)
{
    unsigned idx[WRITES_PER_RING];
    uint64_t pkts = (wb->len + BENCH_MTU - 1) / BENCH_MTU;
    TCqe c;

    for (unsigned i = 0; i < n; i++) {
        idx[i] = post_sq(&qa, (TWqe) { .op = SQ_OP_RDMA_WRITE, .laddr = wb->src, .len = wb->len,
                                       .raddr = TRT_MR_VA, .rkey = TRT_RKEY });
    }
    ring(&qa);
    /* Data packets and ACKs: twice as many frames as packets is far past what is possible. */
    wire_run(2 * n * (pkts + 1));
    for (unsigned i = 0; i < n; i++) {
        ck_assert_msg(poll_cq(&qa, &c), "no CQE for WRITE %u of %u (%u bytes)", i, n, wb->len);
        ck_assert_msg((c.hdr & CQE_SQ) && !(c.hdr & CQE_ERROR) &&
                      pe_get(c.hdr, CQE_OP) == SQ_OP_RDMA_WRITE &&
                      pe_get(c.hdr, CQE_WQEIDX) == idx[i],
                      "bad CQE for WRITE at SQ index %u: hdr 0x%016" G_GINT64_MODIFIER "x",
                      idx[i], c.hdr);
    }
}

static void writes(void *arg, uint64_t n)
{
    const WriteBench *wb = arg;

    while (n) {
        unsigned k = MIN(n, WRITES_PER_RING);

        write_round(wb, k);
        n -= k;
    }
}

static void memcpys(void *arg, uint64_t n)
{
    const WriteBench *wb = arg;

    while (n--) {
        memcpy(h->mem + wb->dst, h->mem + wb->src, wb->len);
        /* The copies are the same each time: keep the compiler from merging them. */
        __asm__ __volatile__("" ::: "memory");
    }
}

/* One round of WRITEs of a pattern into a cleared MR, compared byte for byte. */
static void write_verify(const WriteBench *wb)
{
    for (uint32_t i = 0; i < wb->len; i++) {
        h->mem[wb->src + i] = (uint8_t)(wb->len + i * 7 + (i >> 8));
    }
    memset(h->mem + wb->dst, 0, wb->len);
    write_round(wb, WRITES_PER_RING);
    ck_assert_msg(!memcmp(h->mem + wb->dst, h->mem + wb->src, wb->len),
                  "a WRITE of %u bytes placed other bytes", wb->len);
}

/* A and B connected with an MR and a source buffer of @max_len bytes, over internal loopback
 * (@looped) or through the wire; each size's WRITEs, and (looped) its memcpy, into @rows. */
static void bench_write(double target, WriteRow *rows, unsigned nrows, uint32_t max_len,
                        bool looped)
{
    const TGeom g = { .mtu = BENCH_MTU, .mr_len = max_len };

    trt_start_geom(&g);
    h->quiet = true;
    if (looped) {
        add_arp(TRT_OWN_MAC);
    }
    connect_default();
    wire_spare = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
    for (unsigned i = 0; i < nrows; i++) {
        WriteBench wb = { .len = rows[i].len, .src = TRT_DATA + max_len, .dst = TRT_DATA };

        write_verify(&wb);
        if (looped) {
            rows[i].emu = measure(writes, &wb, target);
            rows[i].cpy = measure(memcpys, &wb, target);
        } else {
            rows[i].wire = measure(writes, &wb, target);
        }
    }
    /* Nothing went wrong on the way that a CQE would not show. */
    ck_assert_uint_eq(qp_lookup(d, qa.id)->state, QP_STATE_RTS);
    ck_assert_uint_eq(qp_lookup(d, qb.id)->state, QP_STATE_RTS);
    g_ptr_array_free(wire_spare, TRUE);
    cqpt_teardown();
}

/* The model's doorbell-to-CQE time of one WRITE of each size, over internal loopback. */
static void print_latency(const WriteRow *rows, unsigned nrows, uint32_t max_len, unsigned mtu,
                          unsigned speed_mbps)
{
    const TGeom g = { .mtu = mtu, .mr_len = max_len };

    trt_start_geom(&g);
    h->quiet = true;
    add_arp(TRT_OWN_MAC);
    connect_default();
    d->timing.mode = TIMING_MODEL;
    d->timing.link_mbps = speed_mbps;
    printf("model latency: RDMA WRITE, signaled, internal loopback, RC MTU %u, link %u Mb/s, "
           "default timing parameters\n", mtu, speed_mbps);
    for (unsigned i = 0; i < nrows; i++) {
        WriteBench wb = { .len = rows[i].len, .src = TRT_DATA + max_len, .dst = TRT_DATA };
        uint64_t t0;
        TCqe c;

        memset(h->mem + wb.dst, 0, wb.len);
        for (uint32_t k = 0; k < wb.len; k++) {
            h->mem[wb.src + k] = (uint8_t)(k * 7 + i);
        }
        post_sq(&qa, (TWqe) { .op = SQ_OP_RDMA_WRITE, .laddr = wb.src, .len = wb.len,
                              .raddr = TRT_MR_VA, .rkey = TRT_RKEY });
        t0 = h->now_ns;
        ring(&qa);
        while (!poll_cq(&qa, &c)) {
            ck_assert_msg(h->timer_armed, "a %u-byte WRITE never completed", wb.len);
            clock_to(h->timer_deadline);
        }
        ck_assert_msg(!memcmp(h->mem + wb.dst, h->mem + wb.src, wb.len),
                      "a WRITE of %u bytes placed other bytes", wb.len);
        printf("model-latency write %u %" G_GUINT64_FORMAT "\n", wb.len, h->now_ns - t0);
    }
    cqpt_teardown();
}

/* Step the model's clock from event to event until @stat has counted one more. */
static uint64_t wait_for_stat(const TimingStat *stat, uint64_t count, uint64_t t0)
{
    while (stat->count == count) {
        ck_assert_msg(h->timer_armed, "the device went idle before the latency was measured");
        clock_to(h->timer_deadline);
    }
    return h->now_ns - t0;
}

static void cqp_async(uint64_t q[8])
{
    cqpt_post(q);
    cqpt_ring();
}

/* SUSPEND_QP and RESUME_QP of A under model timing, idle and with a WRITE of each size in
 * flight over internal loopback. */
static void print_suspend(const WriteRow *rows, unsigned nrows, uint32_t max_len, unsigned mtu)
{
    const TGeom g = { .mtu = mtu, .mr_len = max_len };
    unsigned qs;

    trt_start_geom(&g);
    h->quiet = true;
    add_arp(TRT_OWN_MAC);
    connect_default();
    qs = cqpt_ws_add_tree();
    d->timing.mode = TIMING_MODEL;
    printf("model suspend/resume latency: RC QP, internal loopback, RC MTU %u, default timing "
           "parameters; in flight: a WRITE fetched just before SUSPEND_QP\n", mtu);
    for (unsigned i = 0; i <= nrows; i++) {
        uint32_t len = i ? rows[i - 1].len : 0;
        uint64_t q[8] = { 0 }, t0, suspend_ns, resume_ns;
        TCqe c;

        if (len) {
            post_sq(&qa, (TWqe) { .op = SQ_OP_RDMA_WRITE, .laddr = TRT_DATA + max_len,
                                  .len = len, .raddr = TRT_MR_VA, .rkey = TRT_RKEY });
            ring(&qa);
            clock_advance(timing_sq_fetch_ns(&d->timing));
        }
        q[3] = cqpt_hdr(CQP_OP_SUSPEND_QP) | pe_prep(CQPWQE_QP_ID, qa.id);
        t0 = h->now_ns;
        cqp_async(q);
        suspend_ns = wait_for_stat(&d->suspend_latency, d->suspend_latency.count, t0);
        ck_assert_msg(!len || poll_cq(&qa, &c), "the AE came before the WRITE completed");
        memset(q, 0, sizeof(q));
        q[3] = cqpt_hdr(CQP_OP_RESUME_QP) | pe_prep(CQPWQE_QP_ID, qa.id);
        q[2] = pe_prep(CQPWQE_RESUME_QSHANDLE, qs);
        t0 = h->now_ns;
        cqp_async(q);
        resume_ns = wait_for_stat(&d->resume_latency, d->resume_latency.count, t0);
        printf("model-suspend in-flight %u suspend %" G_GUINT64_FORMAT " resume %" G_GUINT64_FORMAT
               "\n", len, suspend_ns, resume_ns);
    }
    cqpt_teardown();
}

/* --- reporting --- */

static double gbps(uint32_t len, const Measure *m)
{
    return (double)len * m->iters / m->secs / 1e9;
}

static double ops_per_s(const Measure *m, unsigned ops_per_iter)
{
    return (double)m->iters * ops_per_iter / m->secs;
}

static const char *size_name(uint32_t len, char *buf, size_t size)
{
    if (len >= (1u << 20) && len % (1u << 20) == 0) {
        snprintf(buf, size, "%u MiB", len >> 20);
    } else if (len >= (1u << 10) && len % (1u << 10) == 0) {
        snprintf(buf, size, "%u KiB", len >> 10);
    } else {
        snprintf(buf, size, "%u B", len);
    }
    return buf;
}

static void print_table(double target, const Measure *nop, const Measure *pair,
                        const WriteRow *rows, unsigned nrows, bool wire)
{
    const WriteRow *worst = NULL;
    char sz[16];

    printf("irdma-sim device core microbenchmark (%.2f s per figure)\n\n", target);
    if (nop) {
        printf("%-24s %12s %10s\n", "CQP op", "ops/s", "ns/op");
        printf("%-24s %12.0f %10.1f\n", "NOP", ops_per_s(nop, 1), 1e9 / ops_per_s(nop, 1));
        printf("%-24s %12.0f %10.1f\n", "CREATE_CQ+DESTROY_CQ", ops_per_s(pair, 2),
               1e9 / ops_per_s(pair, 2));
        printf("\n");
    }
    printf("RDMA WRITE, RC MTU %u, %u WQEs per doorbell; emu: over internal loopback%s\n",
           BENCH_MTU, WRITES_PER_RING, wire ? ", wire: frames carried by the host" : "");
    printf("%-10s %10s %12s %12s %11s %7s", "size", "WRITE/s", "emu GB/s", "memcpy GB/s",
           "emu/memcpy", "target");
    if (wire) {
        printf(" %12s %12s", "wire GB/s", "wire/memcpy");
    }
    printf("\n");
    for (unsigned i = 0; i < nrows; i++) {
        const WriteRow *r = &rows[i];
        double ratio = gbps(r->len, &r->emu) / gbps(r->len, &r->cpy);
        bool judged = r->len >= TARGET_FROM;

        if (judged && (!worst || ratio < gbps(worst->len, &worst->emu) /
                                         gbps(worst->len, &worst->cpy))) {
            worst = r;
        }
        printf("%-10s %10.0f %12.3f %12.3f %10.1f%% %7s", size_name(r->len, sz, sizeof(sz)),
               ops_per_s(&r->emu, 1), gbps(r->len, &r->emu), gbps(r->len, &r->cpy),
               100 * ratio, !judged ? "-" : ratio >= TARGET_RATIO ? "PASS" : "BELOW");
        if (wire) {
            printf(" %12.3f %11.1f%%", gbps(r->len, &r->wire),
                   100 * gbps(r->len, &r->wire) / gbps(r->len, &r->cpy));
        }
        printf("\n");
    }
    if (worst) {
        double ratio = gbps(worst->len, &worst->emu) / gbps(worst->len, &worst->cpy);

        printf("\n%s: emu >= %.0f%% of memcpy at >= %u KiB (lowest %.1f%%, at %s)\n",
               ratio >= TARGET_RATIO ? "PASS" : "BELOW", 100 * TARGET_RATIO, TARGET_FROM >> 10,
               100 * ratio, size_name(worst->len, sz, sizeof(sz)));
    }
}

/* One row per figure (long format, for plotting): benchmark, what (write: emu over internal
 * loopback, memcpy, wire), bytes (0 for CQP ops), iterations (ops, WRITEs or copies), seconds,
 * rate, its unit. */
static void print_csv(const Measure *nop, const Measure *pair, const WriteRow *rows,
                      unsigned nrows, bool wire)
{
    printf("benchmark,what,bytes,iterations,seconds,rate,unit\n");
    if (nop) {
        printf("cqp,NOP,0,%" G_GUINT64_FORMAT ",%.6f,%.1f,ops/s\n", nop->iters, nop->secs,
               ops_per_s(nop, 1));
        printf("cqp,CREATE_CQ+DESTROY_CQ,0,%" G_GUINT64_FORMAT ",%.6f,%.1f,ops/s\n",
               2 * pair->iters, pair->secs, ops_per_s(pair, 2));
    }
    for (unsigned i = 0; i < nrows; i++) {
        const WriteRow *r = &rows[i];

        printf("write,emu,%u,%" G_GUINT64_FORMAT ",%.6f,%.4f,GB/s\n", r->len, r->emu.iters,
               r->emu.secs, gbps(r->len, &r->emu));
        printf("write,memcpy,%u,%" G_GUINT64_FORMAT ",%.6f,%.4f,GB/s\n", r->len, r->cpy.iters,
               r->cpy.secs, gbps(r->len, &r->cpy));
        if (wire) {
            printf("write,wire,%u,%" G_GUINT64_FORMAT ",%.6f,%.4f,GB/s\n", r->len,
                   r->wire.iters, r->wire.secs, gbps(r->len, &r->wire));
        }
    }
}

/* --- command line --- */

/* "64", "16K", "4M": bytes, KiB, MiB; from 1 byte to MAX_SIZE. */
static bool parse_size(const char *s, uint32_t *out)
{
    unsigned shift = 0;
    char *end;
    guint64 v;

    if (!g_ascii_isdigit(*s)) {
        return false;
    }
    v = g_ascii_strtoull(s, &end, 10);
    if (*end == 'K' || *end == 'k') {
        shift = 10;
        end++;
    } else if (*end == 'M' || *end == 'm') {
        shift = 20;
        end++;
    }
    if (*end || v == 0 || v > (MAX_SIZE >> shift)) {
        return false;
    }
    *out = v << shift;
    return true;
}

static G_GNUC_NORETURN void usage_error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

static void usage_error(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, BENCH_NAME ": ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(try --help)\n");
    exit(2);
}

int main(int argc, char **argv)
{
    gboolean csv = FALSE, no_cqp = FALSE, no_wire = FALSE, latency = FALSE, suspend = FALSE;
    int mtu = BENCH_MTU, speed = IRDMA_LINK_SPEED_DEFAULT;
    double target = DEFAULT_TIME_S;
    g_autofree char *sizes_arg = NULL;
    const GOptionEntry entries[] = {
        { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, "print comma-separated values, not tables",
          NULL },
        { "time", 0, 0, G_OPTION_ARG_DOUBLE, &target,
          "seconds each figure is timed over (default " G_STRINGIFY(DEFAULT_TIME_S) ")",
          "SECONDS" },
        { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_arg,
          "WRITE sizes, comma-separated, K and M suffixes (default " DEFAULT_SIZES ")", "LIST" },
        { "no-cqp", 0, 0, G_OPTION_ARG_NONE, &no_cqp, "skip the CQP ops", NULL },
        { "no-wire", 0, 0, G_OPTION_ARG_NONE, &no_wire,
          "skip the WRITEs through the host's wire", NULL },
        { "latency", 0, 0, G_OPTION_ARG_NONE, &latency,
          "print the timing model's latency of one WRITE per size instead", NULL },
        { "suspend", 0, 0, G_OPTION_ARG_NONE, &suspend,
          "print the timing model's QP suspend and resume latencies instead (idle, and with a "
          "WRITE of each size in flight)", NULL },
        { "mtu", 0, 0, G_OPTION_ARG_INT, &mtu,
          "RC MTU for --latency and --suspend: 256 to 4096 (default " G_STRINGIFY(BENCH_MTU) ")",
          "BYTES" },
        { "speed", 0, 0, G_OPTION_ARG_INT, &speed,
          "link speed for --latency, Mb/s: 1000 to " G_STRINGIFY(MAX_SPEED_MBPS) " (default "
          G_STRINGIFY(IRDMA_LINK_SPEED_DEFAULT) ")", "MBPS" },
        { 0 },
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new(NULL);
    g_autoptr(GError) err = NULL;
    g_auto(GStrv) sizes = NULL;
    g_autofree WriteRow *rows = NULL;
    unsigned nrows;
    uint32_t max_len = 0;
    Measure nop = { 0 }, pair = { 0 };

    g_option_context_set_summary(ctx, "Device core microbenchmarks: CQP ops per second, RDMA "
                                 "WRITE throughput against memcpy.");
    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
        usage_error("%s", err->message);
    }
    if (argc > 1) {
        usage_error("unexpected argument '%s'", argv[1]);
    }
    if (mtu < 256 || mtu > BENCH_MTU || (mtu & (mtu - 1))) {
        usage_error("--mtu: '%d' is not an RC MTU (256, 512, 1024, 2048 or 4096)", mtu);
    }
    if (speed < MIN_SPEED_MBPS || speed > MAX_SPEED_MBPS) {
        usage_error("--speed: '%d' is not a link speed of %d to %d Mb/s", speed, MIN_SPEED_MBPS,
                    MAX_SPEED_MBPS);
    }
    if (!(target > 0 && target <= MAX_TIME_S)) {
        usage_error("--time: '%g' is not a time in seconds in (0, %g]", target, MAX_TIME_S);
    }
    sizes = g_strsplit(sizes_arg ? sizes_arg : DEFAULT_SIZES, ",", -1);
    nrows = g_strv_length(sizes);
    if (nrows == 0) {
        usage_error("--sizes: no size given");
    }
    rows = g_new0(WriteRow, nrows);
    for (unsigned i = 0; i < nrows; i++) {
        if (!parse_size(sizes[i], &rows[i].len)) {
            usage_error("--sizes: '%s' is not a size of 1 byte to %u MiB (bytes, or with K or "
                        "M)", sizes[i], MAX_SIZE >> 20);
        }
        max_len = MAX(max_len, rows[i].len);
    }

    if (latency) {
        print_latency(rows, nrows, max_len, mtu, (unsigned)speed);
        return 0;
    }
    if (suspend) {
        print_suspend(rows, nrows, max_len, mtu);
        return 0;
    }
    if (!no_cqp) {
        bench_cqp(target, &nop, &pair);
    }
    bench_write(target, rows, nrows, max_len, true);
    if (!no_wire) {
        bench_write(target, rows, nrows, max_len, false);
    }
    if (csv) {
        print_csv(no_cqp ? NULL : &nop, &pair, rows, nrows, !no_wire);
    } else {
        print_table(target, no_cqp ? NULL : &nop, &pair, rows, nrows, !no_wire);
    }
    return 0;
}
