/*
 * rdma-verify: checks that an RDMA device moves verbs traffic correctly, byte for byte.
 *
 *   rdma-verify [--quick] loop DEVICE GID_INDEX
 *   rdma-verify [--quick] server DEVICE GID_INDEX TCP_PORT            (the responder)
 *   rdma-verify [--quick] client DEVICE GID_INDEX SERVER_IP TCP_PORT  (the requester)
 *
 * Every check has two ends: the requester posts the work and the responder owns the target
 * memory and the receives. In loop mode both ends live in this process on one device and reach
 * each other through the port's GID (RoCE v2 loopback); otherwise each end is on its own machine
 * and the ends hand each other what they need (QPNs, PSNs, GIDs, rkeys, addresses, verdicts)
 * over a TCP connection. The checks run the same code either way: see pass().
 *
 * Prints "rdma-verify: requester DEV, responder DEV, max_inline_data N, UD size N" (what the
 * checks' names and sizes depend on), "ok NAME", "FAIL NAME: why" or "na NAME: why" (the
 * device does not offer the feature) per check, then "rdma-verify: N ok, N failed"; exit 0
 * only when nothing failed.
 * --quick: message sizes up to 64 KiB only.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include "guest-util.h"

#define MAX_MSG (4u << 20)
#define QUICK_MAX_MSG 65536
#define BUF_SIZE (MAX_MSG + 65536)  /* room for guard bytes and pieces at odd offsets */
#define PAGE 4096
#define MAX_SGE 4
#define GRH_LEN 40
#define RECV_SLACK 64               /* receives are longer than the message: byte_len must tell */
#define CLEAR 0xa5                  /* what destination memory holds before a transfer */
#define POLL_TIMEOUT_S 10.0
#define STUCK_POLL_TIMEOUT_S 0.5    /* once a wait timed out: the device is presumed stuck */
#define PEER_TIMEOUT_S 120
#define QKEY 0x11111111
#define NEG_LEN 64
#define FLUSH_WRS 3
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum role { REQ, RESP };
static const char *const role_name[] = { "requester", "responder" };

/* What each end tells the other at start-up. Both ends are this program on one architecture,
 * so structs travel as they are. */
struct port_info {
    union ibv_gid gid;
    uint32_t ud_qpn;
    uint32_t mtu;          /* enum ibv_mtu of the active port */
    uint32_t max_inline;   /* what the RC QPs of this end accept */
    uint32_t quick;
    char dev[32];          /* the device's name, for the report */
};

struct qp_addr {
    uint32_t qpn, psn;
};

/* Where the requester's RDMA operation goes, as the responder set it up for one check. */
struct target {
    uint64_t addr;
    uint32_t rkey;
};

/* One role's outcome of a check: why it failed, or why the device cannot do it. */
struct verdict {
    char fail[200];
    char na[200];
};

struct side {
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_cq *scq, *rcq;
    struct ibv_qp *rc, *ud;
    struct ibv_ah *ah;      /* requester: to the responder's GID */
    struct ibv_mr *mr;      /* over buf */
    uint8_t *buf;           /* BUF_SIZE bytes */
    uint8_t *spare;         /* 3 pages; the middle one is registered per negative check */
    int gid_index;
    bool has_mw;
};

struct ends {
    struct side *side[2];   /* NULL for the role the peer machine plays */
    struct port_info info[2];
    int sock;               /* to the peer machine; -1 in loop mode */
    enum ibv_mtu mtu;
    bool quick;
    uint64_t seed;          /* of the current check: its pattern, wr_ids, immediate */
    struct verdict v[2];
};

enum size_set { SIZES_RC, SIZES_INLINE, SIZES_UD, SIZE_FIXED };
enum negative { NEG_NONE, NEG_BAD_RKEY, NEG_BOUNDS, NEG_NO_READ };

struct check {
    const char *name;
    void (*run)(struct ends *e, const struct check *c, size_t len);
    enum ibv_wr_opcode op;
    enum size_set sizes;
    size_t len;             /* SIZE_FIXED */
    int req_sges, resp_sges;   /* pieces of the message on each side; 0 is one */
    bool inline_data;
    enum negative neg;
};

static uint8_t *pattern;    /* the current check's message */
static double poll_timeout_s = POLL_TIMEOUT_S;

/* Records why role @r failed the current check; the first reason explains the rest. */
static void flunk(struct ends *e, enum role r, const char *fmt, ...)
{
    va_list ap;

    if (e->v[r].fail[0]) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(e->v[r].fail, sizeof(e->v[r].fail), fmt, ap);
    va_end(ap);
}

/*
 * Both ends run every check's code; the parts of a role the peer machine plays are skipped.
 * What role @from produced (@len bytes at @buf) then reaches the other role: in loop mode it
 * already has it (the same memory), between machines it travels over the socket. This is also
 * each check's synchronisation point.
 */
static void pass(struct ends *e, enum role from, void *buf, size_t len)
{
    uint8_t *p = buf;

    if (e->sock < 0) {
        return;
    }
    for (size_t done = 0; done < len;) {
        ssize_t n = e->side[from] ? send(e->sock, p + done, len - done, MSG_NOSIGNAL)
                                  : recv(e->sock, p + done, len - done, 0);

        if (n <= 0) {
            die("connection to the peer: %s", n ? strerror(errno) : "closed");
        }
        done += n;
    }
}

/* Role @r has done its part so far; its verdict travels to the other end. */
static void handoff(struct ends *e, enum role r)
{
    pass(e, r, &e->v[r], sizeof(e->v[r]));
}

static bool responder_ready(const struct ends *e)
{
    return !e->v[RESP].fail[0] && !e->v[RESP].na[0];
}

/* xorshift64* from the seed: each check and size gets its own bytes. */
static void make_pattern(uint64_t seed, size_t len)
{
    uint64_t s = seed * 0x9e3779b97f4a7c15ULL | 1;

    for (size_t i = 0; i < len; i += 8) {
        uint64_t w;

        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        w = s * 0x2545f4914f6cdd1dULL;
        memcpy(pattern + i, &w, len - i < 8 ? len - i : 8);
    }
}

/* A message's place in a buffer: up to MAX_SGE pieces in ascending order. */
struct layout {
    int n;
    struct {
        size_t off, len;
    } p[MAX_SGE];
};

/* @len bytes in @n pieces, the first at @off and each next one after an odd-sized gap, so that
 * the pieces start at different alignments. */
static struct layout split(size_t off, size_t len, int n)
{
    struct layout l = { .n = n };

    for (int i = 0; i < n; i++) {
        l.p[i].off = off;
        l.p[i].len = i < n - 1 ? len / n : len - (n - 1) * (len / n);
        off += l.p[i].len + 5 + 8 * i;
    }
    return l;
}

/* Where a message of @sges pieces starts: aligned for one piece, odd for scatter/gather. */
static size_t first_offset(int sges)
{
    return sges > 1 ? 4099 : 64;
}

static size_t layout_end(const struct layout *l)
{
    return l->p[l->n - 1].off + l->p[l->n - 1].len;
}

/* Destination: the pieces, the gaps between them and one guard byte at each end get CLEAR. */
static void layout_clear(uint8_t *buf, const struct layout *l)
{
    memset(buf + l->p[0].off - 1, CLEAR, layout_end(l) - l->p[0].off + 2);
}

/* Source: the pattern across the pieces. */
static void layout_fill(uint8_t *buf, const struct layout *l)
{
    size_t pos = 0;

    for (int i = 0; i < l->n; i++) {
        memcpy(buf + l->p[i].off, pattern + pos, l->p[i].len);
        pos += l->p[i].len;
    }
}

/*
 * Checks a destination after the transfer: across its pieces, @skip bytes of anything (a GRH),
 * then the first @len bytes of the pattern, then CLEAR; the gaps and guard bytes still CLEAR.
 * Records the first wrong byte for role @r.
 */
static bool layout_check(struct ends *e, enum role r, const uint8_t *buf, const struct layout *l,
                         size_t skip, size_t len)
{
    size_t at = l->p[0].off - 1, pos = 0;

    for (int i = 0; i <= l->n; i++) {
        size_t next = i < l->n ? l->p[i].off : layout_end(l) + 1;

        for (; at < next; at++) {
            if (buf[at] != CLEAR) {
                flunk(e, r, "byte at buffer offset %zu outside the message changed to 0x%02x",
                      at, buf[at]);
                return false;
            }
        }
        for (size_t k = 0; i < l->n && k < l->p[i].len; k++, at++, pos++) {
            int want = pos < skip ? buf[at] : pos - skip < len ? pattern[pos - skip] : CLEAR;

            if (buf[at] != want) {
                flunk(e, r, "%s byte %zu is 0x%02x, want 0x%02x",
                      pos - skip < len ? "message" : "past-the-end", pos - skip, buf[at], want);
                return false;
            }
        }
    }
    return true;
}

static int to_sges(const struct side *s, const struct layout *l, struct ibv_sge *sge)
{
    for (int i = 0; i < l->n; i++) {
        sge[i] = (struct ibv_sge){ .addr = (uintptr_t)(s->buf + l->p[i].off),
                                   .length = l->p[i].len, .lkey = s->mr->lkey };
    }
    return l->n;
}

static uint64_t send_id(const struct ends *e)
{
    return e->seed;
}

static uint64_t recv_id(const struct ends *e)
{
    return ~e->seed;
}

static uint32_t imm_of(const struct ends *e)
{
    return htobe32((uint32_t)e->seed ^ 0x1a2b3c4d);
}

/* One completion from @cq within the poll timeout. After one wait timed out, the others are
 * short: every check still reports, and a device that stopped completing work does not take
 * the run past its test's time limit. */
static bool poll_one(struct ends *e, enum role r, struct ibv_cq *cq, struct ibv_wc *wc,
                     const char *what)
{
    double end = now() + poll_timeout_s;

    do {
        int n = ibv_poll_cq(cq, 1, wc);

        if (n < 0) {
            flunk(e, r, "ibv_poll_cq failed (%d) waiting for %s", n, what);
            return false;
        }
        if (n) {
            return true;
        }
        sched_yield();
    } while (now() < end);
    flunk(e, r, "no %s within %g s", what, poll_timeout_s);
    poll_timeout_s = STUCK_POLL_TIMEOUT_S;
    return false;
}

static bool is_irdma(const struct side *s)
{
    return !strncmp(ibv_get_device_name(s->ctx->device), "irdma", 5);
}

/*
 * The asynchronous event @type for @qp within the poll timeout; other events are acknowledged
 * and passed over. irdma reports a QP's access error from a worker that also moves the QP to
 * ERR and flushes it; destroying the QP while that worker runs makes the driver flush twice
 * and log the second as a failed CQP command, so the negative checks wait for it.
 */
static bool expect_qp_event(struct ends *e, enum role r, struct ibv_qp *qp,
                            enum ibv_event_type type)
{
    struct ibv_context *ctx = e->side[r]->ctx;
    struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
    double end = now() + poll_timeout_s;

    for (double left; (left = end - now()) > 0;) {
        struct ibv_async_event ev;
        bool match;

        if (poll(&pfd, 1, (int)(left * 1000) + 1) <= 0 || ibv_get_async_event(ctx, &ev)) {
            continue;
        }
        match = ev.event_type == type && ev.element.qp == qp;
        ibv_ack_async_event(&ev);
        if (match) {
            return true;
        }
    }
    flunk(e, r, "no %s event for QP %#x within %g s", ibv_event_type_str(type), qp->qp_num,
          poll_timeout_s);
    poll_timeout_s = STUCK_POLL_TIMEOUT_S;
    return false;
}

/* The receive opcode of a WRITE with immediate on @s. libirdma of rdma-core 44 (Debian
 * bookworm) ignores the opcode the CQE carries and reports every RoCE receive as IBV_WC_RECV,
 * IBV_WC_WITH_IMM telling a WRITE with immediate apart: what it returns on an E810 too. */
static enum ibv_wc_opcode write_imm_recv_opcode(const struct side *s)
{
    return is_irdma(s) ? IBV_WC_RECV : IBV_WC_RECV_RDMA_WITH_IMM;
}

/* The completion of @wr_id with @status and, when that is success, @opcode. Error completions
 * carry no valid opcode. */
static bool expect_wc(struct ends *e, enum role r, struct ibv_cq *cq, struct ibv_wc *wc,
                      const char *what, uint64_t wr_id, enum ibv_wc_status status,
                      enum ibv_wc_opcode opcode)
{
    if (!poll_one(e, r, cq, wc, what)) {
        return false;
    }
    if (wc->wr_id != wr_id) {
        flunk(e, r, "%s: wr_id %#llx, want %#llx", what, (unsigned long long)wc->wr_id,
              (unsigned long long)wr_id);
    } else if (wc->status != status) {
        flunk(e, r, "%s: status %s, want %s", what, ibv_wc_status_str(wc->status),
              ibv_wc_status_str(status));
    } else if (status == IBV_WC_SUCCESS && wc->opcode != opcode) {
        flunk(e, r, "%s: opcode %d, want %d", what, wc->opcode, opcode);
    } else {
        return true;
    }
    return false;
}

/* The responder's receive completion of the current check: opcode, length, immediate. */
static bool expect_recv(struct ends *e, enum ibv_wc_opcode opcode, size_t byte_len, bool has_imm,
                        struct ibv_wc *wc)
{
    if (!expect_wc(e, RESP, e->side[RESP]->rcq, wc, "receive completion", recv_id(e),
                   IBV_WC_SUCCESS, opcode)) {
        return false;
    }
    if (wc->byte_len != byte_len) {
        flunk(e, RESP, "receive byte_len %u, want %zu", wc->byte_len, byte_len);
    } else if (!!(wc->wc_flags & IBV_WC_WITH_IMM) != has_imm) {
        flunk(e, RESP, "IBV_WC_WITH_IMM is %s", has_imm ? "missing" : "set without immediate");
    } else if (has_imm && wc->imm_data != imm_of(e)) {
        flunk(e, RESP, "imm_data %#x, want %#x", be32toh(wc->imm_data), be32toh(imm_of(e)));
    } else {
        return true;
    }
    return false;
}

static bool post_recv(struct ends *e, enum role r, struct ibv_qp *qp, const struct layout *l,
                      uint64_t wr_id)
{
    struct ibv_sge sge[MAX_SGE];
    struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = sge }, *bad;
    int err;

    wr.num_sge = to_sges(e->side[r], l, sge);
    err = ibv_post_recv(qp, &wr, &bad);
    if (err) {
        flunk(e, r, "ibv_post_recv: %s", strerror(err));
    }
    return !err;
}

static bool post_send(struct ends *e, enum role r, struct ibv_qp *qp, struct ibv_send_wr *wr)
{
    struct ibv_send_wr *bad;
    int err = ibv_post_send(qp, wr, &bad);

    if (err) {
        flunk(e, r, "ibv_post_send: %s", strerror(err));
    }
    return !err;
}

static enum ibv_wc_opcode send_wc_opcode(enum ibv_wr_opcode op)
{
    switch (op) {
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM:
        return IBV_WC_RDMA_WRITE;
    case IBV_WR_RDMA_READ:
        return IBV_WC_RDMA_READ;
    default:
        return IBV_WC_SEND;
    }
}

static bool has_imm(enum ibv_wr_opcode op)
{
    return op == IBV_WR_SEND_WITH_IMM || op == IBV_WR_RDMA_WRITE_WITH_IMM;
}

static bool is_send(enum ibv_wr_opcode op)
{
    return op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM;
}

/*
 * The requester's signaled work request of the current check: @op over the pieces @l of its
 * buffer, which get the pattern (a source) or CLEAR (a READ's destination); RDMA at @t.
 */
static struct ibv_send_wr request(const struct ends *e, const struct layout *l,
                                  struct ibv_sge *sge, enum ibv_wr_opcode op,
                                  const struct target *t)
{
    struct side *q = e->side[REQ];

    if (op == IBV_WR_RDMA_READ) {
        layout_clear(q->buf, l);
    } else {
        layout_fill(q->buf, l);
    }
    return (struct ibv_send_wr){
        .wr_id = send_id(e), .sg_list = sge, .num_sge = to_sges(q, l, sge), .opcode = op,
        .imm_data = imm_of(e), .send_flags = IBV_SEND_SIGNALED,
        .wr.rdma = { .remote_addr = t->addr, .rkey = t->rkey },
    };
}

/* ---- QPs ---- */

static struct ibv_qp *rc_create(struct ends *e, enum role r)
{
    struct side *s = e->side[r];
    struct ibv_qp_init_attr ia = {
        .send_cq = s->scq, .recv_cq = s->rcq, .qp_type = IBV_QPT_RC,
        .cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = MAX_SGE,
                 .max_recv_sge = MAX_SGE, .max_inline_data = 64 },
    };
    struct ibv_qp *qp = ibv_create_qp(s->pd, &ia);

    if (!qp) {
        flunk(e, r, "ibv_create_qp RC: %s", strerror(errno));
    }
    return qp;
}

/* INIT -> RTR -> RTS toward the peer QP @peer on the other end's GID. Receives are always
 * posted before the peer sends: an RNR NAK is a fault, so a few retries only, and the error
 * completion says so instead of a timeout. */
static void rc_connect(struct ends *e, enum role r, struct ibv_qp *qp, uint32_t psn,
                       const struct qp_addr *peer)
{
    struct rc_path p = { .mtu = e->mtu, .dgid = e->info[!r].gid,
                         .sgid_index = e->side[r]->gid_index, .dest_qpn = peer->qpn,
                         .rq_psn = peer->psn, .sq_psn = psn,
                         .access = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
                         .min_rnr_timer = 12, .timeout = 14, .retry_cnt = 7, .rnr_retry = 6 };
    const char *step;
    int err = rc_to_rts(qp, &p, &step);

    if (err) {
        flunk(e, r, "RC QP to %s: %s", step, strerror(err));
    }
}

/* Connects qp[REQ] and qp[RESP] (those of the ends present here) to each other. */
static void rc_join(struct ends *e, struct ibv_qp *qp[2])
{
    struct qp_addr addr[2] = { { 0 } };

    for (int r = REQ; r <= RESP; r++) {
        if (qp[r]) {
            addr[r] = (struct qp_addr){ qp[r]->qp_num, lrand48() & 0xffffff };
        }
    }
    pass(e, REQ, &addr[REQ], sizeof(addr[REQ]));
    pass(e, RESP, &addr[RESP], sizeof(addr[RESP]));
    for (int r = REQ; r <= RESP; r++) {
        if (qp[r]) {
            rc_connect(e, r, qp[r], addr[r].psn, &addr[!r]);
        }
    }
}

/* A fresh connected RC QP pair: a QP that took an error is dead. */
static void rc_pair(struct ends *e, struct ibv_qp *qp[2])
{
    for (int r = REQ; r <= RESP; r++) {
        qp[r] = e->side[r] ? rc_create(e, r) : NULL;
    }
    rc_join(e, qp);
}

static void rc_pair_destroy(struct ibv_qp *qp[2])
{
    for (int r = REQ; r <= RESP; r++) {
        if (qp[r]) {
            ibv_destroy_qp(qp[r]);
        }
    }
}

/* ---- the checks ---- */

/* RC SEND, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ on the long-lived QPs. */
static void run_rc(struct ends *e, const struct check *c, size_t len)
{
    struct side *q = e->side[REQ], *s = e->side[RESP];
    int req_sges = c->req_sges ? c->req_sges : 1, resp_sges = c->resp_sges ? c->resp_sges : 1;
    struct layout ql = split(first_offset(req_sges), len, req_sges);
    struct layout sl = split(first_offset(resp_sges), is_send(c->op) ? len + RECV_SLACK : len,
                             resp_sges);
    struct target t = { 0 };
    struct ibv_wc wc;

    if (s) {
        if (c->op == IBV_WR_RDMA_READ) {
            layout_fill(s->buf, &sl);
        } else {
            layout_clear(s->buf, &sl);
        }
        if (is_send(c->op) || has_imm(c->op)) {
            post_recv(e, RESP, s->rc, &sl, recv_id(e));
        }
        t = (struct target){ (uintptr_t)(s->buf + sl.p[0].off), s->mr->rkey };
    }
    handoff(e, RESP);
    pass(e, RESP, &t, sizeof(t));
    if (q && responder_ready(e)) {
        struct ibv_sge sge[MAX_SGE];
        struct ibv_send_wr wr = request(e, &ql, sge, c->op, &t);

        wr.send_flags |= c->inline_data ? IBV_SEND_INLINE : 0;
        if (post_send(e, REQ, q->rc, &wr) &&
            expect_wc(e, REQ, q->scq, &wc, "send completion", send_id(e), IBV_WC_SUCCESS,
                      send_wc_opcode(c->op)) && c->op == IBV_WR_RDMA_READ) {
            if (wc.byte_len != len) {
                flunk(e, REQ, "read byte_len %u, want %zu", wc.byte_len, len);
            }
            layout_check(e, REQ, q->buf, &ql, 0, len);
        }
    }
    /* The requester's completion means the data is in place at the responder. */
    handoff(e, REQ);
    if (s && responder_ready(e)) {
        if (is_send(c->op) || has_imm(c->op)) {
            expect_recv(e, is_send(c->op) ? IBV_WC_RECV : write_imm_recv_opcode(s), len,
                        has_imm(c->op), &wc);
        }
        if (c->op != IBV_WR_RDMA_READ) {
            layout_check(e, RESP, s->buf, &sl, 0, len);
        }
    }
}

/* RoCE v2 puts the packet's IP header in the GRH area: an IPv4 one (IPv4-mapped GIDs) in its
 * last 20 bytes, an IPv6 one as all 40. Its addresses must be the two ends' GIDs. */
static bool grh_matches(const uint8_t *grh, const union ibv_gid *src, const union ibv_gid *dst)
{
    static const uint8_t v4_mapped[12] = { [10] = 0xff, [11] = 0xff };

    if (!memcmp(src->raw, v4_mapped, sizeof(v4_mapped))) {
        return grh[20] == 0x45 && !memcmp(grh + 20 + 12, src->raw + 12, 4) &&
               !memcmp(grh + 20 + 16, dst->raw + 12, 4);
    }
    return grh[0] >> 4 == 6 && !memcmp(grh + 8, src->raw, 16) && !memcmp(grh + 24, dst->raw, 16);
}

/* UD SEND and SEND_WITH_IMM up to the path MTU. */
static void run_ud(struct ends *e, const struct check *c, size_t len)
{
    struct side *q = e->side[REQ], *s = e->side[RESP];
    struct layout ql = split(first_offset(1), len, 1);
    struct layout sl = split(first_offset(1), GRH_LEN + len + RECV_SLACK, 1);
    struct ibv_wc wc;

    if (s) {
        layout_clear(s->buf, &sl);
        post_recv(e, RESP, s->ud, &sl, recv_id(e));
    }
    handoff(e, RESP);
    if (q && responder_ready(e)) {
        struct ibv_sge sge;
        struct ibv_send_wr wr = request(e, &ql, &sge, c->op, &(struct target){ 0 });

        wr.wr.ud.ah = q->ah;
        wr.wr.ud.remote_qpn = e->info[RESP].ud_qpn;
        wr.wr.ud.remote_qkey = QKEY;
        if (post_send(e, REQ, q->ud, &wr)) {
            expect_wc(e, REQ, q->scq, &wc, "send completion", send_id(e), IBV_WC_SUCCESS,
                      IBV_WC_SEND);
        }
    }
    handoff(e, REQ);
    if (s && responder_ready(e) && expect_recv(e, IBV_WC_RECV, GRH_LEN + len, has_imm(c->op), &wc)) {
        if (wc.src_qp != e->info[REQ].ud_qpn) {
            flunk(e, RESP, "src_qp %#x, want %#x", wc.src_qp, e->info[REQ].ud_qpn);
        } else if (!(wc.wc_flags & IBV_WC_GRH)) {
            flunk(e, RESP, "IBV_WC_GRH is not set");
        } else if (!grh_matches(s->buf + sl.p[0].off, &e->info[REQ].gid, &e->info[RESP].gid)) {
            flunk(e, RESP, "the GRH area does not hold the packet's IP header");
        } else {
            layout_check(e, RESP, s->buf, &sl, GRH_LEN, len);
        }
    }
}

/* A type 1 memory window over part of the responder's MR, bound with ibv_bind_mw, then an
 * RDMA WRITE through the window's rkey. */
static void run_mw(struct ends *e, const struct check *c, size_t len)
{
    struct side *q = e->side[REQ], *s = e->side[RESP];
    struct layout ql = split(first_offset(1), len, 1), sl = split(2 * PAGE, len, 1);
    struct ibv_mw *mw = NULL;
    struct target t = { 0 };
    struct ibv_wc wc;

    if (s && !s->has_mw) {
        snprintf(e->v[RESP].na, sizeof(e->v[RESP].na),
                 "the device offers no memory windows (IBV_DEVICE_MEM_WINDOW, max_mw)");
    } else if (s && !(mw = ibv_alloc_mw(s->pd, IBV_MW_TYPE_1)) && errno == EOPNOTSUPP) {
        snprintf(e->v[RESP].na, sizeof(e->v[RESP].na),
                 "the device does not allocate memory windows (EOPNOTSUPP)");
    } else if (s && !mw) {
        flunk(e, RESP, "ibv_alloc_mw type 1: %s", strerror(errno));
    } else if (s) {
        struct ibv_mw_bind bind = {
            .wr_id = recv_id(e), .send_flags = IBV_SEND_SIGNALED,
            .bind_info = { .mr = s->mr, .addr = (uintptr_t)(s->buf + sl.p[0].off), .length = len,
                           .mw_access_flags = IBV_ACCESS_REMOTE_WRITE },
        };
        int err;

        layout_clear(s->buf, &sl);
        err = ibv_bind_mw(s->rc, mw, &bind);
        if (err) {
            flunk(e, RESP, "ibv_bind_mw: %s", strerror(err));
        } else if (expect_wc(e, RESP, s->scq, &wc, "bind completion", recv_id(e),
                             IBV_WC_SUCCESS, IBV_WC_BIND_MW)) {
            t = (struct target){ bind.bind_info.addr, mw->rkey };
        }
    }
    handoff(e, RESP);
    pass(e, RESP, &t, sizeof(t));
    if (q && responder_ready(e)) {
        struct ibv_sge sge;
        struct ibv_send_wr wr = request(e, &ql, &sge, c->op, &t);

        if (post_send(e, REQ, q->rc, &wr)) {
            expect_wc(e, REQ, q->scq, &wc, "write completion", send_id(e), IBV_WC_SUCCESS,
                      IBV_WC_RDMA_WRITE);
        }
    }
    handoff(e, REQ);
    if (s && responder_ready(e)) {
        layout_check(e, RESP, s->buf, &sl, 0, len);
    }
    if (mw && ibv_dealloc_mw(mw)) {
        flunk(e, RESP, "ibv_dealloc_mw: %s", strerror(errno));
    }
}

/* An RDMA operation the responder must refuse, on a fresh QP pair: IBV_WC_REM_ACCESS_ERR for the
 * requester, the destination memory untouched and, on irdma, IBV_EVENT_QP_ACCESS_ERR for both
 * QPs (the responder's AE names the access fault, the requester's the NAK it got). */
static void run_negative(struct ends *e, const struct check *c, size_t len)
{
    struct side *q = e->side[REQ], *s = e->side[RESP];
    struct layout ql = split(first_offset(1), len, 1), page = split(PAGE, PAGE, 1);
    struct ibv_qp *qp[2];
    struct ibv_mr *mr = NULL;
    struct target t = { 0 };
    struct ibv_wc wc;

    rc_pair(e, qp);
    if (s) {
        int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                     (c->neg == NEG_NO_READ ? 0 : IBV_ACCESS_REMOTE_READ);

        layout_clear(s->spare, &page);
        if (c->op == IBV_WR_RDMA_READ) {
            memset(s->spare + PAGE, ~CLEAR & 0xff, PAGE);   /* none of it may arrive */
        }
        if (!(mr = ibv_reg_mr(s->pd, s->spare + PAGE, PAGE, access))) {
            flunk(e, RESP, "ibv_reg_mr: %s", strerror(errno));
        } else {
            t = (struct target){ (uintptr_t)mr->addr, mr->rkey };
            if (c->neg == NEG_BOUNDS) {
                t.addr += PAGE - len / 2;   /* half the message past the MR's end */
            } else if (c->neg == NEG_BAD_RKEY) {
                t.rkey ^= 0xff;             /* the MR's index with another key */
            }
        }
    }
    handoff(e, RESP);
    pass(e, RESP, &t, sizeof(t));
    if (q && qp[REQ] && responder_ready(e)) {
        struct ibv_sge sge;
        struct ibv_send_wr wr = request(e, &ql, &sge, c->op, &t);

        if (post_send(e, REQ, qp[REQ], &wr) &&
            expect_wc(e, REQ, q->scq, &wc, "completion", send_id(e), IBV_WC_REM_ACCESS_ERR, 0) &&
            c->op == IBV_WR_RDMA_READ) {
            layout_check(e, REQ, q->buf, &ql, 0, 0);
        }
    }
    handoff(e, REQ);
    if (s && responder_ready(e) && c->op != IBV_WR_RDMA_READ) {
        layout_check(e, RESP, s->spare, &page, 0, 0);
    }
    for (int r = REQ; r <= RESP; r++) {
        if (e->side[r] && qp[r] && is_irdma(e->side[r])) {
            expect_qp_event(e, r, qp[r], IBV_EVENT_QP_ACCESS_ERR);
        }
    }
    if (mr && ibv_dereg_mr(mr)) {
        flunk(e, RESP, "ibv_dereg_mr: %s", strerror(errno));
    }
    rc_pair_destroy(qp);
}

/*
 * A QP moved to the error state completes all its work with IBV_WC_WR_FLUSH_ERR, each WR once:
 * receives outstanding at the transition and sends posted after it. (Receives posted after it
 * are not part of the check: rxe's user QPs never flush those, nothing tells the kernel.)
 */
static void run_flush(struct ends *e, const struct check *c, size_t len)
{
    struct side *q = e->side[REQ];
    struct layout ql = split(first_offset(1), len, 1);
    struct ibv_qp *qp[2];
    struct ibv_wc wc;

    rc_pair(e, qp);
    handoff(e, RESP);
    if (q && qp[REQ] && responder_ready(e)) {
        struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
        bool posted = true;

        for (int i = 0; posted && i < FLUSH_WRS; i++) {
            posted = post_recv(e, REQ, qp[REQ], &ql, recv_id(e) - i);
        }
        if (posted && ibv_modify_qp(qp[REQ], &a, IBV_QP_STATE)) {
            flunk(e, REQ, "RC QP to ERR: %s", strerror(errno));
            posted = false;
        }
        for (int i = 0; posted && i < FLUSH_WRS; i++) {
            struct ibv_sge sge;
            struct ibv_send_wr wr = request(e, &ql, &sge, c->op, &(struct target){ 0 });

            wr.wr_id += i;
            posted = post_send(e, REQ, qp[REQ], &wr);
        }
        for (int i = 0; posted && i < FLUSH_WRS; i++) {
            expect_wc(e, REQ, q->rcq, &wc, "receive flush", recv_id(e) - i,
                      IBV_WC_WR_FLUSH_ERR, 0);
        }
        for (int i = 0; posted && i < FLUSH_WRS; i++) {
            expect_wc(e, REQ, q->scq, &wc, "send flush", send_id(e) + i, IBV_WC_WR_FLUSH_ERR, 0);
        }
    }
    handoff(e, REQ);
    rc_pair_destroy(qp);
}

#define SIZED(nm, fn, opcode, set, ...) \
    { .name = nm, .run = fn, .op = opcode, .sizes = set, __VA_ARGS__ }
#define FIXED(nm, fn, opcode, length, ...) \
    { .name = nm, .run = fn, .op = opcode, .sizes = SIZE_FIXED, .len = length, __VA_ARGS__ }

static const struct check checks[] = {
    SIZED("rc-send", run_rc, IBV_WR_SEND, SIZES_RC),
    SIZED("rc-send-imm", run_rc, IBV_WR_SEND_WITH_IMM, SIZES_RC),
    SIZED("rc-write", run_rc, IBV_WR_RDMA_WRITE, SIZES_RC),
    SIZED("rc-write-imm", run_rc, IBV_WR_RDMA_WRITE_WITH_IMM, SIZES_RC),
    SIZED("rc-read", run_rc, IBV_WR_RDMA_READ, SIZES_RC),
    SIZED("rc-send-inline", run_rc, IBV_WR_SEND, SIZES_INLINE, .inline_data = true),
    SIZED("rc-write-inline", run_rc, IBV_WR_RDMA_WRITE, SIZES_INLINE, .inline_data = true),
    FIXED("rc-send-sge2x4", run_rc, IBV_WR_SEND, 10000, .req_sges = 2, .resp_sges = 4),
    FIXED("rc-send-sge3x3", run_rc, IBV_WR_SEND, 10000, .req_sges = 3, .resp_sges = 3),
    FIXED("rc-send-imm-sge4x2", run_rc, IBV_WR_SEND_WITH_IMM, 10000, .req_sges = 4,
          .resp_sges = 2),
    FIXED("rc-write-sge3", run_rc, IBV_WR_RDMA_WRITE, 10000, .req_sges = 3),
    FIXED("rc-read-sge4", run_rc, IBV_WR_RDMA_READ, 10000, .req_sges = 4),
    SIZED("ud-send", run_ud, IBV_WR_SEND, SIZES_UD),
    SIZED("ud-send-imm", run_ud, IBV_WR_SEND_WITH_IMM, SIZES_UD),
    FIXED("mw-write", run_mw, IBV_WR_RDMA_WRITE, 8192),
    FIXED("err-write-bad-rkey", run_negative, IBV_WR_RDMA_WRITE, NEG_LEN, .neg = NEG_BAD_RKEY),
    FIXED("err-write-beyond-mr", run_negative, IBV_WR_RDMA_WRITE, NEG_LEN, .neg = NEG_BOUNDS),
    FIXED("err-read-no-remote-read", run_negative, IBV_WR_RDMA_READ, NEG_LEN,
          .neg = NEG_NO_READ),
    FIXED("err-flush", run_flush, IBV_WR_SEND, NEG_LEN),
};

static int check_sizes(const struct ends *e, const struct check *c, size_t *out)
{
    static const size_t rc_sizes[] = { 1, 2, 63, 64, 4095, 4096, 4097, 65536, 1 << 20, MAX_MSG };
    uint32_t inl = e->info[REQ].max_inline;
    int n = 0;

    switch (c->sizes) {
    case SIZES_RC:
        for (size_t i = 0; i < ARRAY_SIZE(rc_sizes); i++) {
            if (!e->quick || rc_sizes[i] <= QUICK_MAX_MSG) {
                out[n++] = rc_sizes[i];
            }
        }
        break;
    case SIZES_INLINE:
        if (inl) {
            out[n++] = 1;
        }
        if (inl > 2) {
            out[n++] = inl / 2;
        }
        if (inl > 1) {
            out[n++] = inl;
        }
        break;
    case SIZES_UD:
        out[n++] = 1;
        out[n++] = 64;
        out[n++] = 128u << e->mtu;   /* IBV_MTU_256 is 1 */
        break;
    case SIZE_FIXED:
        out[n++] = c->len;
        break;
    }
    return n;
}

/* Completions nobody waited for (duplicates, or late ones) fail the check that leaves them. */
static void expect_cqs_empty(struct ends *e)
{
    for (int r = REQ; r <= RESP; r++) {
        struct ibv_cq *cqs[2] = { e->side[r] ? e->side[r]->scq : NULL,
                                  e->side[r] ? e->side[r]->rcq : NULL };

        for (int i = 0; i < 2 && cqs[i]; i++) {
            struct ibv_wc wc;

            if (ibv_poll_cq(cqs[i], 1, &wc) > 0) {
                flunk(e, r, "unexpected completion wr_id %#llx status %s",
                      (unsigned long long)wc.wr_id, ibv_wc_status_str(wc.status));
            }
        }
    }
}

/* Prints the check's line; true if it did not fail. */
static bool report(const struct ends *e, const char *name)
{
    for (int r = REQ; r <= RESP; r++) {
        if (e->v[r].fail[0]) {
            printf("FAIL %s: %s: %s\n", name, role_name[r], e->v[r].fail);
            return false;
        }
    }
    if (e->v[RESP].na[0]) {
        printf("na %s: %s\n", name, e->v[RESP].na);
    } else {
        printf("ok %s\n", name);
    }
    return true;
}

static void run_checks(struct ends *e, int *ok, int *failed)
{
    for (size_t i = 0; i < ARRAY_SIZE(checks); i++) {
        const struct check *c = &checks[i];
        size_t sizes[16];
        int n = check_sizes(e, c, sizes);

        if (!n) {
            printf("na %s: the requester's QP reports max_inline_data 0\n", c->name);
        }
        for (int k = 0; k < n; k++) {
            char name[80];

            if (c->sizes == SIZE_FIXED) {
                snprintf(name, sizeof(name), "%s", c->name);
            } else {
                snprintf(name, sizeof(name), "%s-%zu", c->name, sizes[k]);
            }
            memset(e->v, 0, sizeof(e->v));
            e->seed = (uint64_t)(i + 1) << 32 | sizes[k];
            make_pattern(e->seed, sizes[k]);
            c->run(e, c, sizes[k]);
            expect_cqs_empty(e);
            handoff(e, REQ);
            handoff(e, RESP);
            fflush(stdout);
            if (report(e, name)) {
                *ok += !e->v[RESP].na[0];
            } else {
                (*failed)++;
            }
        }
    }
}

/* ---- set-up ---- */

static void ud_create(struct side *s)
{
    struct ibv_qp_init_attr ia = {
        .send_cq = s->scq, .recv_cq = s->rcq, .qp_type = IBV_QPT_UD,
        .cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1, .max_recv_sge = 1 },
    };
    const char *step;
    int err;

    if (!(s->ud = ibv_create_qp(s->pd, &ia))) {
        die("ibv_create_qp UD: %s", strerror(errno));
    }
    err = ud_to_rts(s->ud, QKEY, lrand48() & 0xffffff, &step);
    if (err) {
        die("UD QP to %s: %s", step, strerror(err));
    }
}

/* Opens @dev for role @r: device, port and GID queries, PD, CQs, buffers, MR, an RC and a UD QP. */
static void side_open(struct ends *e, enum role r, const char *dev, int gid_index)
{
    struct side *s = e->side[r];
    struct port_info *info = &e->info[r];
    struct ibv_device_attr da;
    struct ibv_port_attr pa;
    int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;

    s->ctx = open_port(dev, gid_index, &info->gid, &pa);
    if (ibv_query_device(s->ctx, &da)) {
        die("querying %s: %s", dev, strerror(errno));
    }
    /* expect_qp_event() polls the asynchronous events with a timeout. */
    if (fcntl(s->ctx->async_fd, F_SETFL, fcntl(s->ctx->async_fd, F_GETFL) | O_NONBLOCK) < 0) {
        die("async event fd of %s: %s", dev, strerror(errno));
    }
    /* irdma from 7.x keeps the flag on gen2 but offers no windows there: max_mw is 0. */
    s->has_mw = (da.device_cap_flags & IBV_DEVICE_MEM_WINDOW) && da.max_mw > 0;
    s->gid_index = gid_index;
    snprintf(info->dev, sizeof(info->dev), "%s", dev);
    info->mtu = pa.active_mtu;
    info->quick = e->quick;
    s->buf = aligned_alloc(PAGE, BUF_SIZE);
    s->spare = aligned_alloc(PAGE, 3 * PAGE);
    if (!(s->pd = ibv_alloc_pd(s->ctx)) ||
        !(s->scq = ibv_create_cq(s->ctx, 64, NULL, NULL, 0)) ||
        !(s->rcq = ibv_create_cq(s->ctx, 64, NULL, NULL, 0)) ||
        !(s->mr = ibv_reg_mr(s->pd, s->buf, BUF_SIZE,
                             access | (s->has_mw ? IBV_ACCESS_MW_BIND : 0)))) {
        die("PD, CQs or MR on %s: %s", dev, strerror(errno));
    }
    ud_create(s);
    info->ud_qpn = s->ud->qp_num;
    if (!(s->rc = rc_create(e, r))) {
        die("%s", e->v[r].fail);
    }
    {
        struct ibv_qp_attr qa;
        struct ibv_qp_init_attr ia;

        if (ibv_query_qp(s->rc, &qa, IBV_QP_CAP, &ia)) {
            die("ibv_query_qp: %s", strerror(errno));
        }
        info->max_inline = qa.cap.max_inline_data;
    }
}

/* Both ends opened, told each other about themselves, and joined: RC QPs connected, the
 * requester's address handle to the responder's GID made. */
static void setup(struct ends *e, const char *dev, int gid_index)
{
    struct ibv_qp *qp[2];

    for (int r = REQ; r <= RESP; r++) {
        if (e->side[r]) {
            side_open(e, r, dev, gid_index);
        }
        qp[r] = e->side[r] ? e->side[r]->rc : NULL;
    }
    pass(e, REQ, &e->info[REQ], sizeof(e->info[REQ]));
    pass(e, RESP, &e->info[RESP], sizeof(e->info[RESP]));
    if (e->info[REQ].quick != e->info[RESP].quick) {
        die("one end runs with --quick, the other without");
    }
    e->mtu = e->info[REQ].mtu < e->info[RESP].mtu ? e->info[REQ].mtu : e->info[RESP].mtu;
    printf("rdma-verify: requester %.31s, responder %.31s, max_inline_data %u, UD size %u\n",
           e->info[REQ].dev, e->info[RESP].dev, e->info[REQ].max_inline, 128u << e->mtu);
    rc_join(e, qp);
    for (int r = REQ; r <= RESP; r++) {
        if (e->v[r].fail[0]) {
            die("%s: %s", role_name[r], e->v[r].fail);
        }
    }
    if (e->side[REQ]) {
        struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1,
                                  .grh = { .dgid = e->info[RESP].gid, .sgid_index = gid_index,
                                           .hop_limit = 64 } };

        if (!(e->side[REQ]->ah = ibv_create_ah(e->side[REQ]->pd, &aa))) {
            die("ibv_create_ah to the responder's GID: %s", strerror(errno));
        }
    }
}

/* ---- the connection between machines ---- */

static int tcp_connection(const char *host, const char *port_arg)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(atoi(port_arg)) };
    struct timeval tmo = { .tv_sec = PEER_TIMEOUT_S };
    int s = -1, one = 1;

    if (!a.sin_port || (host && inet_pton(AF_INET, host, &a.sin_addr) != 1)) {
        die("bad address %s:%s", host ? host : "", port_arg);
    }
    if (host) {
        /* The server may not be listening yet. */
        for (double end = now() + PEER_TIMEOUT_S; now() < end; usleep(200000)) {
            s = socket(AF_INET, SOCK_STREAM, 0);
            if (!connect(s, (struct sockaddr *)&a, sizeof(a))) {
                break;
            }
            close(s);
            s = -1;
        }
    } else {
        int ls = socket(AF_INET, SOCK_STREAM, 0);
        struct pollfd pfd = { .fd = ls, .events = POLLIN };

        setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
        if (bind(ls, (struct sockaddr *)&a, sizeof(a)) || listen(ls, 1)) {
            die("listen on port %s: %s", port_arg, strerror(errno));
        }
        if (poll(&pfd, 1, PEER_TIMEOUT_S * 1000) == 1) {
            s = accept(ls, NULL, NULL);
        }
        close(ls);
    }
    if (s < 0) {
        die("no connection with the peer on port %s", port_arg);
    }
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo));
    return s;
}

int main(int argc, char **argv)
{
    static struct side sides[2];
    struct ends e = { .sock = -1 };
    int ok = 0, failed = 0, a = 1;
    const char *mode;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (a < argc && !strcmp(argv[a], "--quick")) {
        e.quick = true;
        a++;
    }
    mode = a < argc ? argv[a] : "";
    if (!strcmp(mode, "loop") && argc - a == 3) {
        e.side[REQ] = &sides[REQ];
        e.side[RESP] = &sides[RESP];
    } else if (!strcmp(mode, "server") && argc - a == 4) {
        e.side[RESP] = &sides[RESP];
        e.sock = tcp_connection(NULL, argv[a + 3]);
    } else if (!strcmp(mode, "client") && argc - a == 5) {
        e.side[REQ] = &sides[REQ];
        e.sock = tcp_connection(argv[a + 3], argv[a + 4]);
    } else {
        fprintf(stderr, "usage: rdma-verify [--quick] loop DEVICE GID_INDEX\n"
                        "       rdma-verify [--quick] server DEVICE GID_INDEX TCP_PORT\n"
                        "       rdma-verify [--quick] client DEVICE GID_INDEX SERVER_IP TCP_PORT\n");
        return 2;
    }
    srand48(getpid() ^ (long)now());
    pattern = malloc(MAX_MSG + 8);
    setup(&e, argv[a + 1], atoi(argv[a + 2]));
    run_checks(&e, &ok, &failed);
    printf("rdma-verify: %d ok, %d failed\n", ok, failed);
    return failed ? 1 : 0;
}
