/*
 * rdma-sqd: modify-QP-to-SQD and back to RTS on an RC QP, as irdma does it (SQD waits for the
 * device's QP_SUSPEND_COMPLETE AE before ibv_modify_qp returns), with both QPs in this guest on
 * one device's RoCE v2 GID.
 *
 *   rdma-sqd DEV GID_INDEX [CHECK...]      (default: every check)
 *
 * idle: SQD on a QP with nothing queued returns, the QP reports SQD, and back in RTS a SEND
 *       arrives intact.
 * deep: DEEP_WRS SENDs of MSG_LEN bytes are posted while the responder has no receive posted,
 *       so the first draws RNR NAKs and the SQ stays deep; SQD is asked for, and a second thread
 *       posts the receives only DELAY_S later. SQD must return after the messages the device had
 *       already started have completed, with the rest held: K in-order successful completions,
 *       0 < K < DEEP_WRS, and nothing more while in SQD. Back in RTS the other DEEP_WRS - K
 *       follow in order. Every received byte is checked.
 *
 * Prints one "ok NAME ..." or "FAIL NAME: why" line per check, then
 * "rdma-sqd: N passed, N failed".
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include "guest-util.h"

#define MSG_LEN 65536
#define DEEP_WRS 128
#define BUF_LEN ((size_t)DEEP_WRS * MSG_LEN)
#define DELAY_S 0.3
#define HELD_WAIT_S 0.5          /* how long nothing may complete while in SQD */
#define POLL_TIMEOUT_S 20.0
#define MIN_RNR_TIMER 12         /* 0.64 ms */
#define RNR_RETRY_FOREVER 7

struct rc_end {
    struct ibv_cq *cq;
    struct ibv_qp *qp;
    struct ibv_mr *mr;
    uint8_t *buf;
};

struct setup {
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    union ibv_gid gid;
    int gid_index;
    enum ibv_mtu mtu;
    struct rc_end req, resp;
};

static char failure[256];

#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            snprintf(failure, sizeof(failure), __VA_ARGS__); \
            return false; \
        } \
    } while (0)

static uint8_t pattern_byte(unsigned msg, size_t i)
{
    return (uint8_t)(msg * 131 + i * 7 + (i >> 11));
}

static void end_create(struct setup *s, struct rc_end *e)
{
    struct ibv_qp_init_attr ia = {
        .qp_type = IBV_QPT_RC,
        .cap = { .max_send_wr = DEEP_WRS, .max_recv_wr = DEEP_WRS, .max_send_sge = 1,
                 .max_recv_sge = 1 },
    };

    e->buf = malloc(BUF_LEN);
    e->cq = ibv_create_cq(s->ctx, 2 * DEEP_WRS, NULL, NULL, 0);
    if (!e->buf || !e->cq) {
        die("buffer or CQ: %s", strerror(errno));
    }
    e->mr = ibv_reg_mr(s->pd, e->buf, BUF_LEN, IBV_ACCESS_LOCAL_WRITE);
    ia.send_cq = ia.recv_cq = e->cq;
    e->qp = ibv_create_qp(s->pd, &ia);
    if (!e->mr || !e->qp) {
        die("MR or QP: %s", strerror(errno));
    }
}

static void to_rts(struct setup *s, struct ibv_qp *qp, uint32_t dest_qpn)
{
    struct rc_path p = { .mtu = s->mtu, .dgid = s->gid, .sgid_index = s->gid_index,
                         .dest_qpn = dest_qpn, .min_rnr_timer = MIN_RNR_TIMER, .timeout = 14,
                         .retry_cnt = 7, .rnr_retry = RNR_RETRY_FOREVER };
    const char *step;
    int err = rc_to_rts(qp, &p, &step);

    if (err) {
        die("QP to %s: %s", step, strerror(err));
    }
}

static void setup(struct setup *s, const char *dev, int gid_index)
{
    struct ibv_port_attr pa;

    s->gid_index = gid_index;
    s->ctx = open_port(dev, gid_index, &s->gid, &pa);
    s->mtu = pa.active_mtu;
    s->pd = ibv_alloc_pd(s->ctx);
    if (!s->pd) {
        die("ibv_alloc_pd: %s", strerror(errno));
    }
    end_create(s, &s->req);
    end_create(s, &s->resp);
    to_rts(s, s->req.qp, s->resp.qp->qp_num);
    to_rts(s, s->resp.qp, s->req.qp->qp_num);
}

static bool post_recvs(struct rc_end *e, unsigned first, unsigned n)
{
    for (unsigned i = first; i < first + n; i++) {
        struct ibv_sge sge = { (uintptr_t)(e->buf + (size_t)i * MSG_LEN), MSG_LEN, e->mr->lkey };
        struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 }, *bad;

        memset(e->buf + (size_t)i * MSG_LEN, 0, MSG_LEN);
        CHECK(!ibv_post_recv(e->qp, &wr, &bad), "ibv_post_recv %u: %s", i, strerror(errno));
    }
    return true;
}

/* Messages first .. first + n - 1 in one ibv_post_send call. */
static bool post_sends(struct rc_end *e, unsigned first, unsigned n)
{
    static struct ibv_send_wr wrs[DEEP_WRS];
    static struct ibv_sge sges[DEEP_WRS];
    struct ibv_send_wr *bad;

    for (unsigned k = 0; k < n; k++) {
        unsigned i = first + k;
        uint8_t *p = e->buf + (size_t)i * MSG_LEN;

        for (size_t j = 0; j < MSG_LEN; j++) {
            p[j] = pattern_byte(i, j);
        }
        sges[k] = (struct ibv_sge){ (uintptr_t)p, MSG_LEN, e->mr->lkey };
        wrs[k] = (struct ibv_send_wr){ .wr_id = i, .sg_list = &sges[k], .num_sge = 1,
                                       .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
                                       .next = k + 1 < n ? &wrs[k + 1] : NULL };
    }
    CHECK(!ibv_post_send(e->qp, wrs, &bad), "ibv_post_send: %s", strerror(errno));
    return true;
}

/* Waits up to @timeout_s for one completion on @cq; 0 if none came. */
static int poll_one(struct ibv_cq *cq, struct ibv_wc *wc, double timeout_s)
{
    double end = now() + timeout_s;
    int n;

    while ((n = ibv_poll_cq(cq, 1, wc)) == 0 && now() < end) {
        sched_yield();
    }
    return n;
}

/* The next completion on @e's CQ is a success of @opcode for message @id (and, for a receive,
 * holds that message intact). */
static bool expect_wc(struct rc_end *e, enum ibv_wc_opcode opcode, unsigned id)
{
    struct ibv_wc wc;
    int n = poll_one(e->cq, &wc, POLL_TIMEOUT_S);

    CHECK(n == 1, "no %s completion for message %u", opcode == IBV_WC_SEND ? "send" : "receive",
          id);
    CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == opcode && wc.wr_id == id,
          "completion wr_id %llu opcode %d status %s, want message %u opcode %d success",
          (unsigned long long)wc.wr_id, wc.opcode, ibv_wc_status_str(wc.status), id, opcode);
    if (opcode == IBV_WC_RECV) {
        const uint8_t *p = e->buf + (size_t)id * MSG_LEN;

        CHECK(wc.byte_len == MSG_LEN, "message %u: byte_len %u", id, wc.byte_len);
        for (size_t j = 0; j < MSG_LEN; j++) {
            CHECK(p[j] == pattern_byte(id, j), "message %u: byte %zu is %#x, want %#x", id, j,
                  p[j], pattern_byte(id, j));
        }
    }
    return true;
}

static bool expect_state(struct ibv_qp *qp, enum ibv_qp_state want)
{
    struct ibv_qp_attr a;
    struct ibv_qp_init_attr ia;

    CHECK(!ibv_query_qp(qp, &a, IBV_QP_STATE, &ia), "ibv_query_qp: %s", strerror(errno));
    CHECK(a.qp_state == want, "QP state %d, want %d", a.qp_state, want);
    return true;
}

static bool modify_state(struct ibv_qp *qp, enum ibv_qp_state state, double *took)
{
    struct ibv_qp_attr a = { .qp_state = state };
    double t0 = now();

    CHECK(!ibv_modify_qp(qp, &a, IBV_QP_STATE), "ibv_modify_qp to %s: %s",
          state == IBV_QPS_SQD ? "SQD" : "RTS", strerror(errno));
    if (took) {
        *took = now() - t0;
    }
    return true;
}

/* Nothing completes on @cq for HELD_WAIT_S. */
static bool expect_quiet(struct ibv_cq *cq, const char *why)
{
    struct ibv_wc wc;

    CHECK(poll_one(cq, &wc, HELD_WAIT_S) == 0, "completion wr_id %llu status %s %s",
          (unsigned long long)wc.wr_id, ibv_wc_status_str(wc.status), why);
    return true;
}

static bool check_idle(struct setup *s)
{
    double took;

    if (!modify_state(s->req.qp, IBV_QPS_SQD, &took) || !expect_state(s->req.qp, IBV_QPS_SQD) ||
        !expect_quiet(s->req.cq, "on an idle QP in SQD") ||
        !modify_state(s->req.qp, IBV_QPS_RTS, NULL) || !expect_state(s->req.qp, IBV_QPS_RTS) ||
        !post_recvs(&s->resp, 0, 1) || !post_sends(&s->req, 0, 1) ||
        !expect_wc(&s->req, IBV_WC_SEND, 0) || !expect_wc(&s->resp, IBV_WC_RECV, 0)) {
        return false;
    }
    printf("ok idle: SQD in %.1f ms, a SEND after RTS arrived intact\n", took * 1e3);
    return true;
}

struct late_recvs {
    struct rc_end *e;
    bool ok;
    double posted_at;                  /* now() as the receives went in */
};

static void *post_late(void *arg)
{
    struct late_recvs *l = arg;

    usleep(DELAY_S * 1e6);
    l->posted_at = now();
    l->ok = post_recvs(l->e, 0, DEEP_WRS);
    return NULL;
}

static bool check_deep(struct setup *s)
{
    struct late_recvs late = { &s->resp, false, 0 };
    pthread_t t;
    double took, returned;
    unsigned k = 0;
    struct ibv_wc wc;
    bool ok;

    if (!post_sends(&s->req, 0, DEEP_WRS)) {
        return false;
    }
    CHECK(!pthread_create(&t, NULL, post_late, &late), "pthread_create failed");
    ok = modify_state(s->req.qp, IBV_QPS_SQD, &took);
    returned = now();
    pthread_join(t, NULL);
    if (!ok || !late.ok || !expect_state(s->req.qp, IBV_QPS_SQD)) {
        return false;
    }
    /* Against the moment the receives went in, not DELAY_S: this thread may start the modify
     * late, when its vCPU was away. */
    CHECK(returned >= late.posted_at, "SQD returned after %.0f ms, %.0f ms before the receives "
          "the RNR-blocked messages wait for were posted", took * 1e3,
          (late.posted_at - returned) * 1e3);
    /* What completed in SQD: messages 0 .. k-1, in order, and then nothing. */
    while (ibv_poll_cq(s->req.cq, 1, &wc) == 1) {
        CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_SEND && wc.wr_id == k,
              "in SQD: completion wr_id %llu status %s, want message %u",
              (unsigned long long)wc.wr_id, ibv_wc_status_str(wc.status), k);
        k++;
    }
    CHECK(k > 0, "SQD returned with none of the started messages complete");
    CHECK(k < DEEP_WRS, "all %u messages completed in SQD: the SQ was not held", k);
    if (!expect_quiet(s->req.cq, "while the SQ is held in SQD")) {
        return false;
    }
    for (unsigned i = 0; i < k; i++) {
        if (!expect_wc(&s->resp, IBV_WC_RECV, i)) {
            return false;
        }
    }
    if (!modify_state(s->req.qp, IBV_QPS_RTS, NULL)) {
        return false;
    }
    for (unsigned i = k; i < DEEP_WRS; i++) {
        if (!expect_wc(&s->req, IBV_WC_SEND, i) || !expect_wc(&s->resp, IBV_WC_RECV, i)) {
            return false;
        }
    }
    printf("ok deep: SQD in %.0f ms with %u of %u messages done and %u held; "
           "all %u arrived intact after RTS\n", took * 1e3, k, DEEP_WRS, DEEP_WRS - k, DEEP_WRS);
    return true;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        bool (*run)(struct setup *s);
    } checks[] = { { "idle", check_idle }, { "deep", check_deep } };
    struct setup s = { 0 };
    int passed = 0, failed = 0;
    bool wanted[sizeof(checks) / sizeof(checks[0])];

    if (argc < 3) {
        fprintf(stderr, "usage: rdma-sqd DEV GID_INDEX [idle|deep ...]\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
        wanted[i] = argc == 3;
    }
    for (int a = 3; a < argc; a++) {
        size_t i = 0;

        while (i < sizeof(checks) / sizeof(checks[0]) && strcmp(argv[a], checks[i].name)) {
            i++;
        }
        if (i == sizeof(checks) / sizeof(checks[0])) {
            fprintf(stderr, "rdma-sqd: no check named '%s' (idle, deep)\n", argv[a]);
            return 2;
        }
        wanted[i] = true;
    }
    setup(&s, argv[1], atoi(argv[2]));
    for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
        if (!wanted[i]) {
            continue;
        }
        failure[0] = '\0';
        if (checks[i].run(&s)) {
            passed++;
        } else {
            printf("FAIL %s: %s\n", checks[i].name, failure);
            failed++;
        }
        fflush(stdout);
    }
    printf("rdma-sqd: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
