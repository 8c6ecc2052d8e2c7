/*
 * rdma-stream: continuous, verified RC traffic on N QP pairs, for the QP suspend/resume tests.
 *
 *   rdma-stream DEVICE GID_INDEX --qps N (--seconds S | --until-file PATH)
 *               [--size BYTES] [--depth D]
 *
 * Both ends live in this process on one device and reach each other through the port's GID
 * (RoCE v2 loopback). Pair i is a requester QP Ai and a responder QP Bi. Each pair keeps D
 * messages in flight; message number seq of pair i is, alternately,
 *   even seq: an RDMA WRITE into the responder's memory, then a SEND of a header (sequence
 *             number, place, length, checksum) after which the responder checks the region;
 *   odd seq:  a SEND with the data, which the responder checks in its receive buffer.
 * Length (1 B to --size) and unaligned offsets follow from (i, seq), and so do the bytes: every
 * byte is checked against that pattern, the bytes either side of it must be untouched, and
 * every completion is checked (status, opcode, byte_len, wr_id in posting order per QP).
 *
 * While nothing completes it sleeps on a completion channel, both CQs armed, rather than spin.
 * A pair that sees no completion for STALL_S seconds while it has work outstanding is stalled.
 * When the time is up (or PATH exists; with both options, whichever comes first) no new
 * message is posted, the outstanding ones drain and every QP must still be in RTS. Prints
 * "rdma-stream: N qps running" once traffic starts, "FAIL qp N: why" as failures happen, then
 * "qp N: M messages, B bytes, E errors" per pair, the rates, the summary
 * "rdma-stream: N qps, M messages, B bytes, E errors, S stalls", how many of the errors were
 * payload mismatches and the longest any busy pair waited for a completion
 * ("rdma-stream: P payload mismatches, longest wait for a completion T s (qp N)"), and "ok" or
 * "FAIL ...".
 * Exit 0 only with no error, no stall and at least one message on every pair.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include "guest-util.h"

#define DEFAULT_SIZE 65536
#define DEFAULT_DEPTH 4
#define MAX_SIZE (16u << 20)
#define MAX_DEPTH 64
#define PAGE 4096
#define SPREAD 64           /* messages start 1..SPREAD bytes into their slot: unaligned, with a
                             * guard byte before them */
#define GUARD 64            /* after the longest message: the guard byte behind it */
#define HDR_ROOM 64         /* the requester's header for a WRITE, at the end of its slot */
#define CLEAR 0xa5          /* what every byte outside a message in flight holds */
#define STALL_S 10.0
#define CHECK_INTERVAL_S 0.1
#define POLL_BATCH 32
#define MAGIC 0x5354524du   /* "STRM" */
/* As rdma-verify: receives are always posted before the peer sends (see can_post()), so an
 * RNR NAK is a fault and a few retries only; 4.096 us << 14 = 67 ms ACK timeout, 7 retries. */
#define ACK_TIMEOUT 14
#define RETRY_CNT 7
#define RNR_RETRY 6

enum role { REQ, RESP };

/* What the SEND after a WRITE tells the responder. */
struct header {
    uint32_t magic, qp;
    uint64_t seq;
    uint32_t off, len;
    uint64_t sum;           /* checksum() of the requester's source bytes */
};

/* Message @seq of a pair, all derived from (pair, seq) so that both ends know it. */
struct msg {
    bool write;
    size_t len;
    size_t src_off, dst_off;    /* in the requester's slot, in the responder's slots */
    uint64_t seed;              /* of its bytes */
};

/* One end: its CQ (shared by its QPs of every pair) and its memory. The requester has D slots
 * per pair (message sources); the responder 2D (D receive buffers, then D WRITE targets). */
struct side {
    struct ibv_cq *cq;
    uint8_t *buf;
    size_t len;
    struct ibv_mr *mr;
};

struct pair {
    struct ibv_qp *qp[2];
    uint64_t posted;        /* messages posted by the requester */
    uint64_t sent;          /* messages whose last send WR completed */
    bool half;              /* the WRITE of message `sent` completed, its header SEND not yet */
    uint64_t verified;      /* messages the responder received and checked */
    uint64_t bytes;         /* in those */
    unsigned errors;
    bool dead;              /* failed or stalled: nothing more is posted or checked */
    bool stalled;
    double last_progress;
    double longest_wait;    /* seconds, the longest gap without a completion while busy */
};

struct stream {
    struct ibv_context *ctx;
    struct ibv_comp_channel *channel;   /* both CQs' events, for waiting while nothing completes */
    struct ibv_pd *pd;
    struct side side[2];
    struct pair *pair;
    int n, depth;
    size_t size;            /* --size: the longest message */
    unsigned size_bits;     /* smallest b with 1 << b >= size */
    size_t room;            /* a receive buffer: size, at least a header */
    size_t slot;            /* SPREAD + room + GUARD + HDR_ROOM */
    int gid_index;
    union ibv_gid gid;
    enum ibv_mtu mtu;
    unsigned errors, stalls;
    unsigned mismatches;    /* of the errors: bytes or a checksum not what was sent */
};

/* Records pair @i's failure; its first one is reported and the pair stops, since what follows
 * an error (flushes, a QP in error) only repeats it. */
static void qp_fail(struct stream *s, int i, const char *fmt, ...)
{
    struct pair *p = &s->pair[i];
    va_list ap;

    if (p->dead) {
        return;
    }
    p->dead = true;
    p->errors++;
    s->errors++;
    printf("FAIL qp %d: ", i);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

/* splitmix64's finaliser: a well-spread 64-bit value from any input. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static struct msg describe(const struct stream *s, int i, uint64_t seq)
{
    uint64_t h = mix((uint64_t)i << 48 ^ seq);
    /* Log-uniform lengths: short messages as often as long ones, and every 16th the longest. */
    size_t cap = (size_t)1 << (h % (s->size_bits + 1));

    if (cap > s->size) {
        cap = s->size;
    }
    return (struct msg){
        .write = !(seq & 1),
        .len = (h >> 8 & 15) == 0 ? s->size : 1 + (h >> 12) % cap,
        .src_off = 1 + (h >> 32) % SPREAD,
        .dst_off = 1 + (h >> 40) % SPREAD,
        .seed = h,
    };
}

/*
 * The message bytes of @seed (xorshift64*): written to @buf (@fill) or compared with it.
 * Returns the offset of the first byte that differs, @len if none; *want gets its value.
 */
static size_t pattern(uint8_t *buf, size_t len, uint64_t seed, bool fill, uint8_t *want)
{
    uint64_t x = seed | 1;

    for (size_t at = 0; at < len; at += 8) {
        size_t n = len - at < 8 ? len - at : 8;
        uint64_t w;

        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        w = x * 0x2545f4914f6cdd1dULL;
        if (fill) {
            memcpy(buf + at, &w, n);
        } else if (memcmp(buf + at, &w, n)) {
            for (size_t k = 0; k < n; k++) {
                if (buf[at + k] != ((uint8_t *)&w)[k]) {
                    *want = ((uint8_t *)&w)[k];
                    return at + k;
                }
            }
        }
    }
    return len;
}

/* FNV-1a over the bytes: independent of pattern(), computed on the data the requester sent. */
static uint64_t checksum(const uint8_t *p, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;

    for (size_t k = 0; k < len; k++) {
        h = (h ^ p[k]) * 0x100000001b3ULL;
    }
    return h;
}

/* Slot @k of pair @i on side @r (requester: 0..D-1; responder: receives 0..D-1, WRITE
 * targets D..2D-1). */
static uint8_t *slot_at(const struct stream *s, enum role r, int i, int k)
{
    int per_pair = r == REQ ? s->depth : 2 * s->depth;

    return s->side[r].buf + ((size_t)i * per_pair + k) * s->slot;
}

static struct ibv_sge sge_of(const struct stream *s, enum role r, const uint8_t *at, size_t len)
{
    return (struct ibv_sge){ .addr = (uintptr_t)at, .length = len, .lkey = s->side[r].mr->lkey };
}

static int slot_index(const struct stream *s, uint64_t seq)
{
    return seq % s->depth;
}

/* ---- the requester ---- */

enum part { PART_WRITE, PART_HEADER, PART_SEND };

static uint64_t send_wr_id(uint64_t seq, enum part part)
{
    return seq << 2 | part;
}

/*
 * Pair @i may post its next message when the responder has a receive posted for it and the
 * requester's source slot is free: at most D messages beyond both the checked and the sent ones.
 */
static bool can_post(const struct stream *s, int i)
{
    const struct pair *p = &s->pair[i];
    uint64_t low = p->verified < p->sent ? p->verified : p->sent;

    return !p->dead && p->posted < low + s->depth;
}

static void post_message(struct stream *s, int i)
{
    struct pair *p = &s->pair[i];
    uint64_t seq = p->posted;
    struct msg m = describe(s, i, seq);
    uint8_t *slot = slot_at(s, REQ, i, slot_index(s, seq));
    struct header *hdr = (struct header *)(slot + s->slot - HDR_ROOM);
    struct ibv_sge data = sge_of(s, REQ, slot + m.src_off, m.len);
    struct ibv_sge head = sge_of(s, REQ, (uint8_t *)hdr, sizeof(*hdr));
    struct ibv_send_wr wr[2], *bad;
    int err;

    pattern(slot + m.src_off, m.len, m.seed, true, NULL);
    if (m.write) {
        *hdr = (struct header){ .magic = MAGIC, .qp = i, .seq = seq, .off = m.dst_off,
                                .len = m.len, .sum = checksum(slot + m.src_off, m.len) };
        wr[0] = (struct ibv_send_wr){
            .wr_id = send_wr_id(seq, PART_WRITE), .next = &wr[1], .sg_list = &data,
            .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
            .wr.rdma = { .remote_addr = (uintptr_t)(slot_at(s, RESP, i, s->depth +
                                                            slot_index(s, seq)) + m.dst_off),
                         .rkey = s->side[RESP].mr->rkey },
        };
        wr[1] = (struct ibv_send_wr){ .wr_id = send_wr_id(seq, PART_HEADER), .sg_list = &head,
                                      .num_sge = 1, .opcode = IBV_WR_SEND,
                                      .send_flags = IBV_SEND_SIGNALED };
    } else {
        wr[0] = (struct ibv_send_wr){ .wr_id = send_wr_id(seq, PART_SEND), .sg_list = &data,
                                      .num_sge = 1, .opcode = IBV_WR_SEND,
                                      .send_flags = IBV_SEND_SIGNALED };
    }
    err = ibv_post_send(p->qp[REQ], wr, &bad);
    if (err) {
        qp_fail(s, i, "ibv_post_send of message %llu: %s", (unsigned long long)seq,
                strerror(err));
        return;
    }
    p->posted++;
}

/* A send completion of pair @i: the next WR of the oldest message still sending. */
static void on_send_wc(struct stream *s, int i, const struct ibv_wc *wc)
{
    struct pair *p = &s->pair[i];
    bool write = describe(s, i, p->sent).write;
    enum part part = !write ? PART_SEND : p->half ? PART_HEADER : PART_WRITE;
    uint64_t want = send_wr_id(p->sent, part);
    enum ibv_wc_opcode op = part == PART_WRITE ? IBV_WC_RDMA_WRITE : IBV_WC_SEND;

    if (wc->status != IBV_WC_SUCCESS) {
        qp_fail(s, i, "send completion %#llx: status %s (vendor error %#x), want wr_id %#llx",
                (unsigned long long)wc->wr_id, ibv_wc_status_str(wc->status), wc->vendor_err,
                (unsigned long long)want);
    } else if (p->sent >= p->posted || wc->wr_id != want) {
        qp_fail(s, i, "send completion wr_id %#llx, want %#llx (%llu posted)",
                (unsigned long long)wc->wr_id, (unsigned long long)want,
                (unsigned long long)p->posted);
    } else if (wc->opcode != op) {
        qp_fail(s, i, "send completion of message %llu: opcode %d, want %d",
                (unsigned long long)p->sent, wc->opcode, op);
    } else if (part == PART_WRITE) {
        p->half = true;
    } else {
        p->half = false;
        p->sent++;
    }
}

/* ---- the responder ---- */

static void post_receive(struct stream *s, int i, uint64_t seq)
{
    struct msg m = describe(s, i, seq);
    struct ibv_sge sge = sge_of(s, RESP, slot_at(s, RESP, i, slot_index(s, seq)) + m.dst_off,
                                s->room);
    struct ibv_recv_wr wr = { .wr_id = seq, .sg_list = &sge, .num_sge = 1 }, *bad;
    int err = ibv_post_recv(s->pair[i].qp[RESP], &wr, &bad);

    if (err) {
        qp_fail(s, i, "ibv_post_recv for message %llu: %s", (unsigned long long)seq,
                strerror(err));
    }
}

/*
 * Message @seq's @len bytes at @at (@what: "written" or "received") must be its pattern, the
 * bytes either side untouched; then they are CLEAR again for the slot's next use.
 */
static bool check_region(struct stream *s, int i, uint64_t seq, const char *what, uint8_t *at,
                         const struct msg *m, size_t len)
{
    uint8_t want = 0;
    size_t bad = pattern(at, len, m->seed, false, &want);

    if (bad < len || at[-1] != CLEAR || at[len] != CLEAR) {
        s->mismatches += !s->pair[i].dead;
    }
    if (bad < len) {
        qp_fail(s, i, "message %llu (%s, %zu B): %s byte %zu is 0x%02x, want 0x%02x",
                (unsigned long long)seq, m->write ? "WRITE" : "SEND", m->len, what, bad,
                at[bad], want);
    } else if (at[-1] != CLEAR || at[len] != CLEAR) {
        qp_fail(s, i, "message %llu (%s, %zu B): the byte %s the %s bytes changed to 0x%02x",
                (unsigned long long)seq, m->write ? "WRITE" : "SEND", m->len,
                at[-1] != CLEAR ? "before" : "after", what, at[-1] != CLEAR ? at[-1] : at[len]);
    } else {
        memset(at - 1, CLEAR, len + 2);
        return true;
    }
    return false;
}

/* A WRITE's header, received at @at: it must name this message, and the region it names must
 * hold the bytes it sums. */
static bool check_write(struct stream *s, int i, uint64_t seq, const struct msg *m, uint8_t *at)
{
    struct header h;
    uint8_t *region = slot_at(s, RESP, i, s->depth + slot_index(s, seq)) + m->dst_off;

    memcpy(&h, at, sizeof(h));
    if (h.magic != MAGIC || h.qp != (uint32_t)i || h.seq != seq || h.off != m->dst_off ||
        h.len != m->len) {
        s->mismatches += !s->pair[i].dead;
        qp_fail(s, i, "message %llu: header says qp %u seq %llu off %u len %u (magic %#x), "
                "want qp %d seq %llu off %zu len %zu", (unsigned long long)seq, h.qp,
                (unsigned long long)h.seq, h.off, h.len, h.magic, i, (unsigned long long)seq,
                m->dst_off, m->len);
        return false;
    }
    if (checksum(region, m->len) != h.sum) {
        s->mismatches += !s->pair[i].dead;
        qp_fail(s, i, "message %llu (WRITE, %zu B): written region's checksum %#llx, the "
                "requester's %#llx", (unsigned long long)seq, m->len,
                (unsigned long long)checksum(region, m->len), (unsigned long long)h.sum);
        return false;
    }
    memset(at, CLEAR, sizeof(h));
    return check_region(s, i, seq, "written", region, m, m->len);
}

/* A receive completion of pair @i: the oldest message not yet checked. */
static void on_recv_wc(struct stream *s, int i, const struct ibv_wc *wc)
{
    struct pair *p = &s->pair[i];
    uint64_t seq = p->verified;
    struct msg m = describe(s, i, seq);
    uint8_t *at = slot_at(s, RESP, i, slot_index(s, seq)) + m.dst_off;
    size_t byte_len = m.write ? sizeof(struct header) : m.len;
    bool good;

    if (wc->status != IBV_WC_SUCCESS) {
        qp_fail(s, i, "receive completion %#llx: status %s (vendor error %#x), want message %llu",
                (unsigned long long)wc->wr_id, ibv_wc_status_str(wc->status), wc->vendor_err,
                (unsigned long long)seq);
        return;
    }
    if (wc->wr_id != seq || seq >= p->posted) {
        qp_fail(s, i, "receive completion wr_id %llu, want %llu (%llu posted)",
                (unsigned long long)wc->wr_id, (unsigned long long)seq,
                (unsigned long long)p->posted);
        return;
    }
    if (wc->opcode != IBV_WC_RECV || (wc->wc_flags & IBV_WC_WITH_IMM)) {
        qp_fail(s, i, "receive of message %llu: opcode %d flags %#x, want a plain RECV",
                (unsigned long long)seq, wc->opcode, wc->wc_flags);
        return;
    }
    if (wc->byte_len != byte_len) {
        qp_fail(s, i, "receive of message %llu (%s): byte_len %u, want %zu",
                (unsigned long long)seq, m.write ? "WRITE header" : "SEND", wc->byte_len,
                byte_len);
        return;
    }
    good = m.write ? check_write(s, i, seq, &m, at) : check_region(s, i, seq, "received", at, &m,
                                                                   m.len);
    if (good) {
        p->verified++;
        p->bytes += m.len;
        post_receive(s, i, seq + s->depth);
    }
}

/* ---- the run ---- */

/* The pair whose QP on side @r has number @qpn, or -1. */
static int pair_of(const struct stream *s, enum role r, uint32_t qpn)
{
    for (int i = 0; i < s->n; i++) {
        if (s->pair[i].qp[r]->qp_num == qpn) {
            return i;
        }
    }
    return -1;
}

/* Hands each of @n completions of side @r to its pair. */
static void handle_wcs(struct stream *s, enum role r, const struct ibv_wc *wc, int n)
{
    for (int k = 0; k < n; k++) {
        int i = pair_of(s, r, wc[k].qp_num);

        if (i < 0) {
            printf("FAIL completion for unknown QP %#x (wr_id %#llx, status %s)\n",
                   wc[k].qp_num, (unsigned long long)wc[k].wr_id,
                   ibv_wc_status_str(wc[k].status));
            s->errors++;
        } else if (!s->pair[i].dead) {
            struct pair *p = &s->pair[i];
            double t = now();

            if (t - p->last_progress > p->longest_wait) {
                p->longest_wait = t - p->last_progress;
            }
            p->last_progress = t;
            (r == REQ ? on_send_wc : on_recv_wc)(s, i, &wc[k]);
        }
    }
}

/*
 * Empties side @r's CQ (at most what it holds: the device may add while we poll); returns how
 * many completions it took. Taking only a batch would favour the pairs whose completions come
 * first in the shared CQ: they would post again while the others wait for the next turn.
 */
static int poll_side(struct stream *s, enum role r)
{
    struct ibv_wc wc[POLL_BATCH];
    int n, total = 0;

    do {
        n = ibv_poll_cq(s->side[r].cq, POLL_BATCH, wc);
        if (n < 0) {
            die("ibv_poll_cq on the %s CQ failed (%d)", r == REQ ? "requester" : "responder", n);
        }
        handle_wcs(s, r, wc, n);
        total += n;
    } while (n == POLL_BATCH && total < s->side[r].cq->cqe);
    return total;
}

static bool busy(const struct pair *p)
{
    return !p->dead && (p->sent < p->posted || p->verified < p->posted);
}

/* Marks the pairs with work outstanding and no completion for STALL_S as stalled. */
static void find_stalls(struct stream *s, double t)
{
    for (int i = 0; i < s->n; i++) {
        struct pair *p = &s->pair[i];

        if (busy(p) && t - p->last_progress > STALL_S) {
            printf("FAIL qp %d: stalled: no completion for %g s (%llu posted, %llu sent, "
                   "%llu checked)\n", i, STALL_S, (unsigned long long)p->posted,
                   (unsigned long long)p->sent, (unsigned long long)p->verified);
            p->dead = p->stalled = true;
            s->stalls++;
        }
    }
}

static bool should_stop(double t, double end, const char *until_file)
{
    return t >= end || (until_file && access(until_file, F_OK) == 0);
}

/*
 * Nothing completed: arms both CQs and sleeps until one has a completion or @timeout_s passes,
 * rather than spin (a suspended QP completes nothing for seconds, and a spinning vCPU takes the
 * host CPU the drivers and the device need).
 */
static void wait_for_completions(struct stream *s, double timeout_s)
{
    struct pollfd pfd = { .fd = s->channel->fd, .events = POLLIN };
    struct ibv_cq *cq;
    void *cq_ctx;

    for (int r = REQ; r <= RESP; r++) {
        if (ibv_req_notify_cq(s->side[r].cq, 0)) {
            die("ibv_req_notify_cq on the %s CQ failed", r == REQ ? "requester" : "responder");
        }
    }
    /* A completion written before a CQ was armed raises no event: look once more. */
    if (poll_side(s, REQ) + poll_side(s, RESP)) {
        return;
    }
    if (poll(&pfd, 1, timeout_s > 0 ? (int)(timeout_s * 1000) + 1 : 0) < 0 && errno != EINTR) {
        die("poll on the completion channel: %s", strerror(errno));
    }
    while (!ibv_get_cq_event(s->channel, &cq, &cq_ctx)) {
        ibv_ack_cq_events(cq, 1);
    }
}

/*
 * Posts while running, polls both CQs, and every CHECK_INTERVAL_S looks for stalls and the end.
 * Then drains: it returns once no live pair has work outstanding, which STALL_S bounds.
 */
static double run(struct stream *s, double seconds, const char *until_file)
{
    double start = now(), end = start + seconds, next_check = start;
    bool running = true;
    int got;

    for (int i = 0; i < s->n; i++) {
        s->pair[i].last_progress = start;
    }
    printf("rdma-stream: %d qps running\n", s->n);
    for (;;) {
        double t = now();
        bool any_busy = false, any_live = false;

        if (t >= next_check) {
            running = running && !should_stop(t, end, until_file);
            find_stalls(s, t);
            next_check = t + CHECK_INTERVAL_S;
        }
        for (int i = 0; i < s->n; i++) {
            for (int k = 0; running && k < s->depth && can_post(s, i); k++) {
                if (!busy(&s->pair[i])) {
                    s->pair[i].last_progress = t;  /* the stall clock starts with the work */
                }
                post_message(s, i);
            }
            any_busy |= busy(&s->pair[i]);
            any_live |= !s->pair[i].dead;
        }
        if (!any_busy && (!running || !any_live)) {
            return now() - start;
        }
        got = poll_side(s, REQ);
        got += poll_side(s, RESP);
        if (!got) {
            wait_for_completions(s, next_check - now());
        }
    }
}

/* Every pair still clean must have both QPs in RTS: a QP in error with no error completion
 * (none was outstanding) shows only here. */
static void check_states(struct stream *s)
{
    for (int i = 0; i < s->n; i++) {
        for (int r = REQ; r <= RESP && !s->pair[i].dead; r++) {
            struct ibv_qp_attr a;
            struct ibv_qp_init_attr ia;

            if (ibv_query_qp(s->pair[i].qp[r], &a, IBV_QP_STATE, &ia)) {
                qp_fail(s, i, "ibv_query_qp: %s", strerror(errno));
            } else if (a.qp_state != IBV_QPS_RTS) {
                qp_fail(s, i, "%s QP in state %d after the run, want RTS (%d)",
                        r == REQ ? "requester" : "responder", a.qp_state, IBV_QPS_RTS);
            }
        }
    }
}

/* ---- set-up ---- */

static struct ibv_qp *qp_create(struct stream *s, enum role r)
{
    /* The requester sends up to 2 WRs per message (WRITE + header) and receives nothing; the
     * responder only receives. */
    struct ibv_qp_init_attr ia = {
        .send_cq = s->side[r].cq, .recv_cq = s->side[r].cq, .qp_type = IBV_QPT_RC,
        .cap = { .max_send_wr = r == REQ ? 2 * s->depth : 1,
                 .max_recv_wr = r == REQ ? 1 : s->depth, .max_send_sge = 1, .max_recv_sge = 1 },
    };
    struct ibv_qp *qp = ibv_create_qp(s->pd, &ia);

    if (!qp) {
        die("ibv_create_qp RC (%s): %s", r == REQ ? "requester" : "responder", strerror(errno));
    }
    return qp;
}

/* INIT -> RTR -> RTS toward QP @peer_qpn (whose first PSN is @peer_psn) on our own GID. */
static void qp_connect(struct stream *s, struct ibv_qp *qp, uint32_t psn, uint32_t peer_qpn,
                       uint32_t peer_psn)
{
    struct rc_path p = { .mtu = s->mtu, .dgid = s->gid, .sgid_index = s->gid_index,
                         .dest_qpn = peer_qpn, .rq_psn = peer_psn, .sq_psn = psn,
                         .access = IBV_ACCESS_REMOTE_WRITE, .min_rnr_timer = 12,
                         .timeout = ACK_TIMEOUT, .retry_cnt = RETRY_CNT, .rnr_retry = RNR_RETRY };
    const char *step;
    int err = rc_to_rts(qp, &p, &step);

    if (err) {
        die("QP %#x to %s: %s", qp->qp_num, step, strerror(err));
    }
}

static void side_open(struct stream *s, enum role r, int cqe, size_t slots, int access)
{
    struct side *d = &s->side[r];

    d->len = (slots * s->slot + PAGE - 1) / PAGE * PAGE;
    if (!(d->buf = aligned_alloc(PAGE, d->len))) {
        die("%zu bytes of buffer: out of memory", d->len);
    }
    memset(d->buf, CLEAR, d->len);
    if (!(d->cq = ibv_create_cq(s->ctx, cqe, NULL, s->channel, 0)) ||
        !(d->mr = ibv_reg_mr(s->pd, d->buf, d->len, access))) {
        die("%s CQ (%d entries) or MR (%zu bytes): %s", r == REQ ? "requester" : "responder",
            cqe, d->len, strerror(errno));
    }
}

/* Opens @dev, checks what the run needs against its limits, and connects every pair with the
 * responder's receives posted. */
static void setup(struct stream *s, const char *dev)
{
    struct ibv_device_attr da;
    struct ibv_port_attr pa;
    int req_cqe = s->n * 2 * s->depth, resp_cqe = s->n * s->depth;

    s->ctx = open_port(dev, s->gid_index, &s->gid, &pa);
    if (ibv_query_device(s->ctx, &da)) {
        die("querying %s: %s", dev, strerror(errno));
    }
    /* The device's own QPs (QP0/1, CQP) count against max_qp: ask for a little headroom. */
    if (2 * s->n + 2 > da.max_qp || 2 * s->depth > da.max_qp_wr || req_cqe > da.max_cqe ||
        s->room > pa.max_msg_sz) {
        die("%d QP pairs x depth %d, %zu B messages exceed %s's limits: max_qp %d, "
            "max_qp_wr %d, max_cqe %d, max_msg_sz %u", s->n, s->depth, s->size, dev, da.max_qp,
            da.max_qp_wr, da.max_cqe, pa.max_msg_sz);
    }
    printf("rdma-stream: %s: max_qp %d, max_qp_wr %d, max_cqe %d, max_msg_sz %u, mtu %d\n", dev,
           da.max_qp, da.max_qp_wr, da.max_cqe, pa.max_msg_sz, 128 << pa.active_mtu);
    s->mtu = pa.active_mtu;
    if (!(s->pd = ibv_alloc_pd(s->ctx))) {
        die("ibv_alloc_pd: %s", strerror(errno));
    }
    if (!(s->channel = ibv_create_comp_channel(s->ctx)) ||
        fcntl(s->channel->fd, F_SETFL, fcntl(s->channel->fd, F_GETFL) | O_NONBLOCK) < 0) {
        die("completion channel: %s", strerror(errno));
    }
    side_open(s, REQ, req_cqe, (size_t)s->n * s->depth, IBV_ACCESS_LOCAL_WRITE);
    side_open(s, RESP, resp_cqe, (size_t)s->n * 2 * s->depth,
              IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    s->pair = calloc(s->n, sizeof(*s->pair));
    for (int i = 0; i < s->n; i++) {
        struct pair *p = &s->pair[i];
        uint32_t psn[2] = { lrand48() & 0xffffff, lrand48() & 0xffffff };

        p->qp[REQ] = qp_create(s, REQ);
        p->qp[RESP] = qp_create(s, RESP);
        for (int r = REQ; r <= RESP; r++) {
            qp_connect(s, p->qp[r], psn[r], p->qp[!r]->qp_num, psn[!r]);
        }
        for (int k = 0; k < s->depth; k++) {
            post_receive(s, i, k);
        }
        if (p->dead) {
            die("qp %d: its receives could not be posted", i);
        }
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: rdma-stream DEVICE GID_INDEX --qps N (--seconds S | --until-file PATH)"
                    " [--size BYTES] [--depth D]\n");
    exit(2);
}

/* The numeric value of option @name, which must lie in [@lo, @hi]. */
static long number(const char *name, const char *arg, long lo, long hi)
{
    char *end;
    long v = strtol(arg, &end, 0);

    if (*arg == '\0' || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "rdma-stream: --%s %s: want a number from %ld to %ld\n", name, arg, lo,
                hi);
        usage();
    }
    return v;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "qps", required_argument, NULL, 'q' },   { "seconds", required_argument, NULL, 's' },
        { "size", required_argument, NULL, 'b' },  { "depth", required_argument, NULL, 'd' },
        { "until-file", required_argument, NULL, 'u' }, { NULL, 0, NULL, 0 },
    };
    struct stream s = { .size = DEFAULT_SIZE, .depth = DEFAULT_DEPTH };
    double seconds = -1, elapsed;
    const char *until_file = NULL;
    uint64_t messages = 0, bytes = 0;
    int c, idle = 0, slowest = 0;

    setvbuf(stdout, NULL, _IOLBF, 0);
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'q': s.n = number("qps", optarg, 1, 4096); break;
        case 's': seconds = number("seconds", optarg, 1, 86400); break;
        case 'b': s.size = number("size", optarg, 1, MAX_SIZE); break;
        case 'd': s.depth = number("depth", optarg, 1, MAX_DEPTH); break;
        case 'u': until_file = optarg; break;
        default: usage();
        }
    }
    if (argc - optind != 2 || !s.n || (seconds < 0 && !until_file)) {
        usage();
    }
    if (seconds < 0) {
        seconds = 1e9;  /* --until-file alone: the file ends the run */
    }
    s.gid_index = number("GID_INDEX", argv[optind + 1], 0, 255);
    while (((size_t)1 << s.size_bits) < s.size) {
        s.size_bits++;
    }
    s.room = s.size > sizeof(struct header) ? s.size : sizeof(struct header);
    s.slot = SPREAD + s.room + GUARD + HDR_ROOM;
    srand48(getpid() ^ (long)now());
    setup(&s, argv[optind]);
    elapsed = run(&s, seconds, until_file);
    check_states(&s);

    for (int i = 0; i < s.n; i++) {
        struct pair *p = &s.pair[i];

        printf("qp %d: %llu messages, %llu bytes, %u errors%s\n", i,
               (unsigned long long)p->verified, (unsigned long long)p->bytes, p->errors,
               p->stalled ? ", stalled" : "");
        if (!p->verified && !p->errors && !p->stalled) {
            printf("FAIL qp %d: moved no message\n", i);
        }
        idle += !p->verified;
        if (p->longest_wait > s.pair[slowest].longest_wait) {
            slowest = i;
        }
        messages += p->verified;
        bytes += p->bytes;
    }
    printf("rdma-stream: %.1f s, %.0f messages/s, %.2f MB/s\n", elapsed, messages / elapsed,
           bytes / elapsed / 1e6);
    printf("rdma-stream: %d qps, %llu messages, %llu bytes, %u errors, %u stalls\n", s.n,
           (unsigned long long)messages, (unsigned long long)bytes, s.errors, s.stalls);
    printf("rdma-stream: %u payload mismatches, longest wait for a completion %.3f s (qp %d)\n",
           s.mismatches, s.pair[slowest].longest_wait, slowest);
    if (s.errors || s.stalls || idle) {
        printf("FAIL rdma-stream: %u errors, %u stalls, %d qps without a message\n", s.errors,
               s.stalls, idle);
        return 1;
    }
    printf("ok\n");
    return 0;
}
