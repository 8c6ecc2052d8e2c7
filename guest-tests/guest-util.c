/* Helpers shared by the guest's verbs programs: see guest-util.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "guest-util.h"

#define PORT_WAIT_S 30

double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

void die(const char *fmt, ...)
{
    va_list ap;

    printf("FAIL setup: ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    exit(1);
}

struct ibv_context *open_port(const char *dev, int gid_index, union ibv_gid *gid,
                              struct ibv_port_attr *pa)
{
    struct ibv_device **list = ibv_get_device_list(NULL);
    struct ibv_context *ctx = NULL;

    for (int i = 0; list && list[i] && !ctx; i++) {
        if (!strcmp(ibv_get_device_name(list[i]), dev)) {
            ctx = ibv_open_device(list[i]);
        }
    }
    if (!ctx) {
        die("cannot open RDMA device %s", dev);
    }
    ibv_free_device_list(list);
    if (ibv_query_port(ctx, 1, pa) || ibv_query_gid(ctx, 1, gid_index, gid)) {
        die("querying %s: %s", dev, strerror(errno));
    }
    if (!memcmp(gid, &(union ibv_gid){ 0 }, sizeof(*gid))) {
        die("GID index %d of %s is empty", gid_index, dev);
    }
    /* ice bounces its netdev, and the port with it, after a DCB or channel change. */
    for (double end = now() + PORT_WAIT_S; pa->state != IBV_PORT_ACTIVE && now() < end;) {
        usleep(50 * 1000);
        if (ibv_query_port(ctx, 1, pa)) {
            die("querying %s: %s", dev, strerror(errno));
        }
    }
    if (pa->state != IBV_PORT_ACTIVE) {
        die("%s port 1 is not active (state %d) after %d s", dev, pa->state, PORT_WAIT_S);
    }
    return ctx;
}

int rc_to_rts(struct ibv_qp *qp, const struct rc_path *p, const char **step)
{
    struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
                             .qp_access_flags = p->access };

    *step = "INIT";
    if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
                      IBV_QP_ACCESS_FLAGS)) {
        return errno;
    }
    a = (struct ibv_qp_attr){
        .qp_state = IBV_QPS_RTR, .path_mtu = p->mtu, .dest_qp_num = p->dest_qpn,
        .rq_psn = p->rq_psn, .max_dest_rd_atomic = 1, .min_rnr_timer = p->min_rnr_timer,
        .ah_attr = { .is_global = 1, .port_num = 1,
                     .grh = { .dgid = p->dgid, .sgid_index = p->sgid_index, .hop_limit = 64 } },
    };
    *step = "RTR";
    if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                      IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)) {
        return errno;
    }
    a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTS, .timeout = p->timeout,
                              .retry_cnt = p->retry_cnt, .rnr_retry = p->rnr_retry,
                              .sq_psn = p->sq_psn, .max_rd_atomic = 1 };
    *step = "RTS";
    if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                      IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC)) {
        return errno;
    }
    return 0;
}

int ud_to_rts(struct ibv_qp *qp, uint32_t qkey, uint32_t sq_psn, const char **step)
{
    struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = qkey };

    *step = "INIT";
    if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY)) {
        return errno;
    }
    a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTR };
    *step = "RTR";
    if (ibv_modify_qp(qp, &a, IBV_QP_STATE)) {
        return errno;
    }
    a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTS, .sq_psn = sq_psn };
    *step = "RTS";
    if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN)) {
        return errno;
    }
    return 0;
}
