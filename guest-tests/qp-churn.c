/*
 * qp-churn: creates RC QPs, takes each RESET -> INIT -> RTR -> RTS toward itself and destroys
 * it, over and over, so that QPs come and go while a DCB traffic-class change suspends and
 * resumes the others.
 *
 *   qp-churn DEV GID_INDEX (--seconds S | --until-file PATH)
 *
 * While a change is pending irdma 6.1 refuses new work-scheduler users (irdma_ws_add returns
 * -EBUSY): ibv_create_qp fails with EINVAL and the move to RTR with ENOMEM. ice also takes the
 * netdev down and up after each change, and meanwhile the route to the QP's GID is gone (RTR
 * fails with ENETUNREACH). Those are counted as refusals; any other error, and a destroy that
 * fails, is a failure. Prints one summary line:
 *   qp-churn: N loops, N created, N reached RTS, N destroyed, refused: N create, N RTR, 0 failures
 * and exits 1 if there was a failure.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include "guest-util.h"

struct tally {
    unsigned loops, created, rts, destroyed, create_refused, rtr_refused, failures;
};

static void failure(struct tally *t, const char *what)
{
    printf("FAIL %s: %s\n", what, strerror(errno));
    t->failures++;
}

/* INIT -> RTR -> RTS toward itself; false if refused or failed (counted). */
static bool to_rts(struct ibv_qp *qp, const union ibv_gid *gid, int gid_index, enum ibv_mtu mtu,
                   struct tally *t)
{
    struct rc_path p = { .mtu = mtu, .dgid = *gid, .sgid_index = gid_index,
                         .dest_qpn = qp->qp_num, .min_rnr_timer = 12, .timeout = 14,
                         .retry_cnt = 7, .rnr_retry = 7 };
    const char *step;
    char what[16];
    int err = rc_to_rts(qp, &p, &step);

    if (!err) {
        return true;
    }
    /* irdma refuses RTR while a TC change is pending, and ice bounces the netdev. */
    if (!strcmp(step, "RTR") && (err == ENOMEM || err == ENETUNREACH)) {
        t->rtr_refused++;
        return false;
    }
    snprintf(what, sizeof(what), "QP to %s", step);
    errno = err;
    failure(t, what);
    return false;
}

int main(int argc, char **argv)
{
    struct tally t = { 0 };
    struct ibv_port_attr pa;
    union ibv_gid gid;
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_cq *cq;
    const char *until_file = NULL;
    double end = 0;
    int gid_index;

    if (argc != 5 || (strcmp(argv[3], "--seconds") && strcmp(argv[3], "--until-file"))) {
        fprintf(stderr, "usage: qp-churn DEV GID_INDEX (--seconds S | --until-file PATH)\n");
        return 2;
    }
    gid_index = atoi(argv[2]);
    if (!strcmp(argv[3], "--seconds")) {
        end = now() + atof(argv[4]);
    } else {
        until_file = argv[4];
    }
    ctx = open_port(argv[1], gid_index, &gid, &pa);
    pd = ibv_alloc_pd(ctx);
    cq = pd ? ibv_create_cq(ctx, 16, NULL, NULL, 0) : NULL;
    if (!cq) {
        die("PD or CQ: %s", strerror(errno));
    }
    while (until_file ? access(until_file, F_OK) != 0 : now() < end) {
        struct ibv_qp_init_attr ia = {
            .send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
            .cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1, .max_recv_sge = 1 },
        };
        struct ibv_qp *qp = ibv_create_qp(pd, &ia);

        t.loops++;
        if (!qp) {
            if (errno == EINVAL) {
                t.create_refused++;
                usleep(1000);       /* the change takes a while: no busy loop meanwhile */
            } else {
                failure(&t, "ibv_create_qp");
            }
            continue;
        }
        t.created++;
        t.rts += to_rts(qp, &gid, gid_index, pa.active_mtu, &t);
        if (ibv_destroy_qp(qp)) {
            failure(&t, "ibv_destroy_qp");
        } else {
            t.destroyed++;
        }
    }
    printf("qp-churn: %u loops, %u created, %u reached RTS, %u destroyed, refused: %u create, "
           "%u RTR, %u failures\n", t.loops, t.created, t.rts, t.destroyed, t.create_refused,
           t.rtr_refused, t.failures);
    return t.failures != 0;
}
