/*
 * rdma-lat: the latency of one RDMA WRITE as the guest sees it (scripts/bench-latency.sh
 * compares it with the timing model's prediction under -icount).
 *
 *   rdma-lat DEV GID_INDEX ITERATIONS SIZE...
 *
 * Two RC QPs of DEV connected to each other on the port's own GID (internal loopback). For each
 * SIZE, ITERATIONS times: post one signaled WRITE (never inline, as the prediction assumes) and
 * spin on the CQ until its completion; the time from before ibv_post_send to after the
 * completion is read. The payload is checked after the last one. Prints, per size,
 *   rdma-lat write SIZE MEDIAN_NS MIN_NS
 * and "rdma-lat: MTU N" first. Exits 1 on any failure.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "guest-util.h"

#define MAX_SIZE        (4u << 20)
#define MAX_ITERATIONS  100000

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

static unsigned long parse_arg(const char *what, const char *s, unsigned long max)
{
    char *end;
    unsigned long v;

    errno = 0;
    v = strtoul(s, &end, 10);
    if (errno || *end || end == s || v == 0 || v > max) {
        die("%s '%s' is not a number from 1 to %lu", what, s, max);
    }
    return v;
}

/* One WRITE of @len from @src to @dst through @qp; its time in ns. */
static uint64_t write_once(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *mr, char *src,
                           char *dst, uint32_t len)
{
    struct ibv_sge sge = { .addr = (uintptr_t)src, .length = len, .lkey = mr->lkey };
    struct ibv_send_wr wr = {
        .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
        .send_flags = IBV_SEND_SIGNALED,
        .wr.rdma = { .remote_addr = (uintptr_t)dst, .rkey = mr->rkey },
    }, *bad;
    struct ibv_wc wc;
    uint64_t t0 = now_ns();
    int n;

    if (ibv_post_send(qp, &wr, &bad)) {
        die("ibv_post_send of %u bytes: %s", len, strerror(errno));
    }
    while ((n = ibv_poll_cq(cq, 1, &wc)) == 0) {
    }
    if (n < 0 || wc.status != IBV_WC_SUCCESS) {
        die("WRITE of %u bytes: %s", len, n < 0 ? "poll failed" : ibv_wc_status_str(wc.status));
    }
    return now_ns() - t0;
}

int main(int argc, char **argv)
{
    struct ibv_port_attr pa;
    union ibv_gid gid;
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_cq *cq[2];
    struct ibv_qp *qp[2];
    struct ibv_mr *mr;
    unsigned long iterations;
    uint64_t *t;
    int gid_index;
    char *buf;

    if (argc < 5) {
        die("usage: rdma-lat DEV GID_INDEX ITERATIONS SIZE...");
    }
    gid_index = parse_arg("GID_INDEX", argv[2], 255);
    iterations = parse_arg("ITERATIONS", argv[3], MAX_ITERATIONS);
    ctx = open_port(argv[1], gid_index, &gid, &pa);
    pd = ibv_alloc_pd(ctx);
    buf = aligned_alloc(4096, 2 * MAX_SIZE);
    t = calloc(iterations, sizeof(*t));
    if (!pd || !buf || !t) {
        die("PD or buffers: %s", strerror(errno));
    }
    mr = ibv_reg_mr(pd, buf, 2 * MAX_SIZE, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    for (int i = 0; i < 2; i++) {
        struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_RC, .sq_sig_all = 0,
                                       .cap = { .max_send_wr = 4, .max_recv_wr = 1,
                                                .max_send_sge = 1, .max_recv_sge = 1 } };

        cq[i] = ibv_create_cq(ctx, 4, NULL, NULL, 0);
        qa.send_cq = qa.recv_cq = cq[i];
        qp[i] = cq[i] ? ibv_create_qp(pd, &qa) : NULL;
        if (!mr || !qp[i]) {
            die("MR, CQ or QP: %s", strerror(errno));
        }
    }
    for (int i = 0; i < 2; i++) {
        struct rc_path p = { .mtu = pa.active_mtu, .dgid = gid, .sgid_index = gid_index,
                             .dest_qpn = qp[!i]->qp_num, .access = IBV_ACCESS_REMOTE_WRITE,
                             .min_rnr_timer = 12, .timeout = 14, .retry_cnt = 7, .rnr_retry = 7 };
        const char *step;
        int err = rc_to_rts(qp[i], &p, &step);

        if (err) {
            die("QP to %s: %s", step, strerror(err));
        }
    }
    printf("rdma-lat: MTU %d\n", 128 << pa.active_mtu);
    for (int a = 4; a < argc; a++) {
        uint32_t len = parse_arg("SIZE", argv[a], MAX_SIZE);
        char *src = buf + MAX_SIZE, *dst = buf;

        for (uint32_t k = 0; k < len; k++) {
            src[k] = (char)(k * 7 + a);
        }
        memset(dst, 0, len);
        for (unsigned long i = 0; i < iterations; i++) {
            t[i] = write_once(qp[0], cq[0], mr, src, dst, len);
        }
        if (memcmp(dst, src, len)) {
            die("a WRITE of %u bytes placed other bytes", len);
        }
        qsort(t, iterations, sizeof(*t), cmp_u64);
        printf("rdma-lat write %u %llu %llu\n", len, (unsigned long long)t[iterations / 2],
               (unsigned long long)t[0]);
    }
    return 0;
}
